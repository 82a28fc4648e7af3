// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// The maps of the Gemm transposes and of the Einsum operands.
// CHECK-DAG: #[[TA:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[TB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// A 2-D product: linalg.matmul into a zero-filled accumulator.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[Z]] : tensor<4x16xf32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Batch dims collapse to one for linalg.batch_matmul, then expand back; a dynamic
// batch size comes from tensor.dim. Both batch sizes are dynamic: the one that is 1 at
// run time (if any) is first broadcast to the other's (scf.if); sizes that do not
// broadcast fail a cf.assert, after which the operands are stand-ins of size 0 there.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3x4x8xf32>
// CHECK: %[[DB:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x3x8x5xf32>
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[DA]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.select %[[ONE]], %[[DB]], %[[DA]] : index
// CHECK: cf.assert %[[OK:.*]], "MatMul at {{.*}}: input dims do not broadcast (input #0 dim 0, input #1 dim 0: {{.*}})"
// CHECK: %[[N1:.*]] = arith.select %[[OK]], %[[N]], %{{.*}} : index
// CHECK: %[[SA:.*]] = scf.if %[[OK]] -> (tensor<?x3x4x8xf32>) {
// CHECK:   scf.yield %arg0 : tensor<?x3x4x8xf32>
// CHECK: %[[SB:.*]] = scf.if %[[OK]] -> (tensor<?x3x8x5xf32>) {
// CHECK:   scf.yield %arg1 : tensor<?x3x8x5xf32>
// CHECK: %[[A:.*]] = scf.if %{{.*}} -> (tensor<?x3x4x8xf32>) {
// CHECK:   tensor.empty(%[[N1]]) : tensor<?x3x4x8xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[SA]] : tensor<?x3x4x8xf32>
// CHECK: %[[B:.*]] = scf.if %{{.*}} -> (tensor<?x3x8x5xf32>) {
// CHECK-DAG: tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2], [3]] : tensor<?x3x4x8xf32> into tensor<?x4x8xf32>
// CHECK-DAG: tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2], [3]] : tensor<?x3x8x5xf32> into tensor<?x8x5xf32>
// CHECK: %[[R:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<?x8x5xf32>) outs(%{{.*}} : tensor<?x4x5xf32>)
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1], [2], [3]] output_shape [%{{.*}}, 3, 4, 5] : tensor<?x4x5xf32> into tensor<?x3x4x5xf32>
func.func @batch_matmul(%a: tensor<?x3x4x8xf32>, %b: tensor<?x3x8x5xf32>) -> tensor<?x3x4x5xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x3x4x8xf32>, tensor<?x3x8x5xf32>) -> tensor<?x3x4x5xf32>
  return %0 : tensor<?x3x4x5xf32>
}

// transA and transB are matmul indexing maps; alpha and C join in one generic.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[P:.*]] = linalg.matmul indexing_maps = [#[[TA]], #[[TB]], #{{.*}}] ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<16x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg2 : tensor<4x16xf32>, tensor<16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @gemm(%a: tensor<8x4xf32>, %b: tensor<16x8xf32>, %c: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = "onnx.Gemm"(%a, %b, %c) <{transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32}> : (tensor<8x4xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Einsum: one generic, output labels parallel, the others reduced; bf16 accumulates in f32.
// CHECK-LABEL: func.func @einsum
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[Y]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) outs(%{{.*}} : tensor<5x2x4xf32>)
// CHECK: arith.extf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @einsum(%x: tensor<5x2x3xbf16>, %y: tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16> {
  %0 = "onnx.Einsum"(%x, %y) <{equation = "bij,bjk->bik"}> : (tensor<5x2x3xbf16>, tensor<5x3x4xbf16>) -> tensor<5x2x4xbf16>
  return %0 : tensor<5x2x4xbf16>
}
