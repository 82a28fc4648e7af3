// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// A reshape with a constant shape: the changed band of dims is collapsed.
// CHECK-LABEL: func.func @reshape
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %s = "onnx.Constant"() <{value = dense<[-1, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c1 : tensor<2x?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x2xf32>
// CHECK: linalg.transpose ins(%arg0 : tensor<2x?xf32>) outs(%[[E]] : tensor<?x2xf32>) permutation = [1, 0]
func.func @transpose(%x: tensor<2x?xf32>) -> tensor<?x2xf32> {
  %0 = "onnx.Transpose"(%x) : (tensor<2x?xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// Positive steps: one extract_slice, ends clamped to the dim.
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %arg0[1, 0] [5, 4] [2, 1] : tensor<10x4xf32> to tensor<5x4xf32>
func.func @slice(%x: tensor<10x4xf32>) -> tensor<5x4xf32> {
  %s = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %e = "onnx.Constant"() <{value = dense<100> : tensor<1xi64>}> : () -> tensor<1xi64>
  %a = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %t = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e, %a, %t) : (tensor<10x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// A negative step: a generic reading x[9 - 3 i].
// CHECK-LABEL: func.func @slice_negative_step
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[M:.*]] = arith.muli %[[I]], %c-3 : index
// CHECK: %[[A:.*]] = arith.addi %c9, %[[M]] : index
// CHECK: tensor.extract %arg0[%[[A]]] : tensor<10xf32>
func.func @slice_negative_step(%x: tensor<10xf32>) -> tensor<3xf32> {
  %s = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %e = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %a = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %t = "onnx.Constant"() <{value = dense<-3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e, %a, %t) : (tensor<10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @pad_constant
// CHECK: tensor.pad %arg0 low[1, 1] high[0, 2]
// CHECK: } : tensor<3x4xf32> to tensor<4x7xf32>
func.func @pad_constant(%x: tensor<3x4xf32>) -> tensor<4x7xf32> {
  %p = "onnx.Constant"() <{value = dense<[1, 1, 0, 2]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %0 = "onnx.Pad"(%x, %p) <{mode = "constant"}> : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// Indices read as a generic input; negative ones wrap by the gathered dim, then are
// clamped (the range check is in gather_scatter.mlir).
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<3xi64>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[C:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[C]], %c0 : index
// CHECK: %[[W:.*]] = arith.addi %[[C]], %{{c5.*}} : index
// CHECK: %[[S:.*]] = arith.select %[[NEG]], %[[W]], %[[C]] : index
// CHECK: %[[K:.*]] = arith.minui %[[S]], %{{c4.*}} : index
// CHECK: tensor.extract %arg0[%[[K]], %[[J]]] : tensor<5x4xf32>
func.func @gather(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// A scatter with a reduction: a sequential loop carrying the result (no iteration
// when an index is out of range, see gather_scatter.mlir).
// CHECK-LABEL: func.func @scatter_add
// CHECK: scf.for %[[K:.*]] = %{{c0.*}} to %{{.*}} step %c1 iter_args(%[[ACC:.*]] = %arg0) -> (tensor<3xf32>)
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC]][%[[AT:.*]]] : tensor<3xf32>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK: %[[R:.*]] = tensor.insert %[[NEW]] into %[[ACC]][%[[AT]]] : tensor<3xf32>
// CHECK: scf.yield %[[R]] : tensor<3xf32>
func.func @scatter_add(%x: tensor<3xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<3xf32> {
  %0 = "onnx.ScatterElements"(%x, %i, %u) <{reduction = "add"}> : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// A data-dependent size: the loop counts the selected positions, the result is that
// many columns.
// CHECK-LABEL: func.func @nonzero
// CHECK: %[[L:.*]]:2 = scf.for
// CHECK: tensor.extract_slice %[[L]]#0[0] [%[[L]]#1] [1] : tensor<4xindex> to tensor<?xindex>
// CHECK: tensor.empty(%[[L]]#1) : tensor<1x?xi64>
func.func @nonzero(%x: tensor<4xi32>) -> tensor<1x?xi64> {
  %0 = "onnx.NonZero"(%x) : (tensor<4xi32>) -> tensor<1x?xi64>
  return %0 : tensor<1x?xi64>
}
