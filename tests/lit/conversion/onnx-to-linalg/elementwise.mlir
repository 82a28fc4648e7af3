// RUN: strata-opt %s --convert-onnx-to-linalg --split-input-file | filecheck %s

// Broadcasting: the [3] operand is read at the last loop dim.
// CHECK-LABEL: func.func @add_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID:.*]], #[[$LAST:.*]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A dynamic dim may be 1 at run time where the result's is not (ONNX broadcasting):
// the operand is then first broadcast along it (scf.if), so the maps read it along the
// loop. Here dim 0 of %a stretches to 4 when it is 1; in dim 1 both sizes are dynamic:
// the result's is the first not 1, and either operand stretches to it. Each dynamic dim
// must be 1 or the result's size (cf.assert); after a failed check the result's dynamic
// size is 0 and the operands are stand-ins of the result's sizes (scf.if on the flag).
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_dynamic_broadcast
// CHECK: %[[A0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[A0IS1:.*]] = arith.cmpi eq, %[[A0]], %{{.*}} : index
// CHECK: %[[A0IS4:.*]] = arith.cmpi eq, %[[A0]], %{{.*}} : index
// CHECK: %[[OK0:.*]] = arith.ori %[[A0IS1]], %[[A0IS4]] : i1
// CHECK: cf.assert %[[OK0]], "Add at {{.*}}: input dims do not broadcast (input #0 dim 0: each must be 1 or the output's size on its axis 0)"
// CHECK: %[[A1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[B1:.*]] = tensor.dim %arg1, %{{.*}} : tensor<4x?xf32>
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[A1]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.select %[[IS1]], %[[B1]], %[[A1]] : index
// CHECK: cf.assert %[[OK1:.*]], "Add at {{.*}}: input dims do not broadcast (input #0 dim 1, input #1 dim 1: {{.*}})"
// CHECK: %[[N1:.*]] = arith.select %[[OK1]], %[[N]], %{{.*}} : index
// CHECK: %[[S0:.*]] = scf.if %[[OK0]] -> (tensor<?x?xf32>) {
// CHECK:   scf.yield %arg0 : tensor<?x?xf32>
// CHECK: } else {
// CHECK:   tensor.empty(%{{.*}}) : tensor<4x?xf32>
// CHECK: %[[S1:.*]] = scf.if %[[OK1]] -> (tensor<?x?xf32>) {
// CHECK:   scf.yield %[[S0]] : tensor<?x?xf32>
// CHECK: } else {
// CHECK:   tensor.empty(%{{.*}}, %[[N1]]) : tensor<?x?xf32>
// CHECK: %[[S2:.*]] = scf.if %[[OK1]] -> (tensor<4x?xf32>) {
// CHECK:   scf.yield %arg1 : tensor<4x?xf32>
// CHECK: } else {
// CHECK:   tensor.empty(%[[N1]]) : tensor<4x?xf32>
// CHECK: %[[X0:.*]] = tensor.dim %[[S1]], %{{.*}} : tensor<?x?xf32>
// CHECK: %[[X1:.*]] = tensor.dim %[[S1]], %{{.*}} : tensor<?x?xf32>
// CHECK: %[[ROW1:.*]] = arith.cmpi eq, %[[X0]], %{{.*}} : index
// CHECK: %[[X:.*]] = scf.if %[[ROW1]] -> (tensor<?x?xf32>) {
// CHECK:   %[[E:.*]] = tensor.empty(%[[X1]]) : tensor<4x?xf32>
// CHECK:   %[[G:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #{{.*}}]{{.*}} ins(%[[S1]] : tensor<?x?xf32>) outs(%[[E]] : tensor<4x?xf32>)
// CHECK:   %[[CAST:.*]] = tensor.cast %[[G]] : tensor<4x?xf32> to tensor<?x?xf32>
// CHECK:   scf.yield %[[CAST]] : tensor<?x?xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[S1]] : tensor<?x?xf32>
// CHECK: %[[COL1:.*]] = arith.cmpi eq, %[[X1]], %{{.*}} : index
// CHECK: %[[NOT1:.*]] = arith.cmpi ne, %[[N1]], %{{.*}} : index
// CHECK: %[[C:.*]] = arith.andi %[[COL1]], %[[NOT1]] : i1
// CHECK: %[[Y:.*]] = scf.if %[[C]] -> (tensor<?x?xf32>) {
// CHECK:   linalg.generic {indexing_maps = [#[[$COL]], #{{.*}}]{{.*}} ins(%[[X]] : tensor<?x?xf32>)
// CHECK: %[[Z:.*]] = scf.if %{{.*}} -> (tensor<4x?xf32>) {
// CHECK:   linalg.generic {indexing_maps = [#[[$COL]], #{{.*}}]{{.*}} ins(%[[S2]] : tensor<4x?xf32>)
// CHECK: %[[OUT:.*]] = tensor.empty(%[[N1]]) : tensor<4x?xf32>
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %[[Z]] : tensor<?x?xf32>, tensor<4x?xf32>) outs(%[[OUT]] : tensor<4x?xf32>)
// CHECK: arith.addf
func.func @add_dynamic_broadcast(%a: tensor<?x?xf32>, %b: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// uint8 becomes signless i8 with unsigned arithmetic: divui, and the signature converts.
// CHECK-LABEL: func.func @div_unsigned(%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.divui
func.func @div_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Dynamic dims take their size from the operand.
// CHECK-LABEL: func.func @relu_dynamic
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK: arith.maximumf
func.func @relu_dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = "onnx.Relu"(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// CHECK-LABEL: func.func @cast_to_int
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @cast_to_int(%a: tensor<4xf32>) -> tensor<4xi8> {
  %0 = "onnx.Cast"(%a) <{to = 3 : i64}> : (tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Reductions: fill with the identity, reduce, then expand_shape for keepdims.
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32)
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @reduce_max(%a: tensor<4x5xf32>) -> tensor<4x1xf32> {
  %axes = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %0 = "onnx.ReduceMax"(%a, %axes) : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Integer Div checks its divisor before dividing (see [Note: integer division checks]):
// one reduction gives the divisor's unsigned min (0: a zero) and max (all ones: a -1,
// then the pairs are tested for the minimum divided by -1, in an scf.if).
// CHECK-LABEL: func.func @div_checked
// CHECK: %[[MM:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%arg1 : tensor<4xi32>)
// CHECK:   arith.minui
// CHECK:   arith.maxui
// CHECK: cf.assert %{{.*}}, "Div at d0: division by zero"
// CHECK: %[[PAIRS:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK:   linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4xi32>, tensor<4xi32>)
// CHECK: cf.assert %[[PAIRS]], "Div at d0: integer overflow (the minimum value divided by -1)"
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4xi32>, tensor<4xi32>)
// CHECK:   arith.divsi
func.func @div_checked(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> loc("d0")
  return %0 : tensor<4xi32>
}

// -----

// A constant divisor without 0 and -1 needs no check.
// CHECK-LABEL: func.func @div_by_constant
// CHECK-NOT: cf.assert
// CHECK: arith.divsi
func.func @div_by_constant(%a: tensor<4xi32>) -> tensor<4xi32> {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = "onnx.Div"(%a, %c) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
