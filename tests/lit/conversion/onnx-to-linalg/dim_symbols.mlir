// RUN: strata-opt %s --convert-onnx-to-linalg --split-input-file | filecheck %s

// Dynamic dims with one name (the arguments' onnx.dim_params, the names
// onnx-shape-inference writes on ops) are one size: no run-time broadcast check.
// CHECK-LABEL: func.func @same_argument_names
// CHECK-NOT: scf.if
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?x4xf32>, tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: arith.addf
// CHECK-NOT: scf.if
func.func @same_argument_names(%a: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]},
                               %b: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]}) -> tensor<?x4xf32> {
  %0 = "onnx.Add"(%a, %b) {onnx.dim_params = ["batch", ""]} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Names on ops: a product name (Flatten's) against itself, and a [n, 1] column
// against an [n, 4] matrix (the static 1 is read at 0, n is one size).
// CHECK-LABEL: func.func @same_op_names
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK-NOT: scf.if
// CHECK: return
func.func @same_op_names(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = "onnx.Relu"(%x) {onnx.dim_params = ["128*batch", ""]} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%a, %one) {onnx.dim_params = ["128*batch", ""]} : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %0 = "onnx.Sub"(%a, %m) {onnx.dim_params = ["128*batch", ""]} : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Different names, or none: either dim may be 1 at run time, so each operand may
// stretch (scf.if), as without names.
// CHECK-LABEL: func.func @different_names
// CHECK: scf.if
// CHECK: scf.if
// CHECK: arith.addf
// CHECK-LABEL: func.func @no_names
// CHECK: scf.if
// CHECK: scf.if
// CHECK: arith.addf
func.func @different_names(%a: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]},
                           %b: tensor<?x4xf32> {onnx.dim_params = ["seq", ""]}) -> tensor<?x4xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @no_names(%a: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]},
                    %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Three operands, two of one name: the result's size is the first not 1 of the two
// sizes (one select), and every operand may still stretch.
// CHECK-LABEL: func.func @two_sizes
// CHECK-COUNT-1: arith.select
// CHECK-COUNT-3: scf.if
func.func @two_sizes(%c: tensor<?xi1> {onnx.dim_params = ["n"]}, %x: tensor<?xf32> {onnx.dim_params = ["n"]},
                     %y: tensor<?xf32> {onnx.dim_params = ["m"]}) -> tensor<?xf32> {
  %0 = "onnx.Where"(%c, %x, %y) : (tensor<?xi1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Batch dims of a MatMul named alike: no stretching of either side.
// CHECK-LABEL: func.func @matmul_batch
// CHECK-NOT: scf.if
// CHECK: return
func.func @matmul_batch(%a: tensor<?x3x4xf32> {onnx.dim_params = ["b", "", ""]},
                        %b: tensor<?x4x5xf32> {onnx.dim_params = ["b", "", ""]}) -> tensor<?x3x5xf32> {
  %0 = "onnx.MatMul"(%a, %b) {onnx.dim_params = ["b", "", ""]} : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// Expand to a run-time shape whose result dim has the input's name: the dim keeps the
// input's size (no check whether it is 1), 0 after a failed check of the shape.
// CHECK-LABEL: func.func @expand_same_name
// CHECK-NOT: scf.if
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x1x5xf32>
// CHECK: cf.assert %{{.*}}, "Expand at {{.*}}: shape [?, ?, ?] does not broadcast with the input's [?, 1, 5]"
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %[[N]], %{{.*}} : index
// CHECK: tensor.empty(%[[S]]) : tensor<?x5x5xf32>
// CHECK-NOT: scf.if
// CHECK: return
func.func @expand_same_name(%x: tensor<?x1x5xf32> {onnx.dim_params = ["batch", "", ""]}, %s: tensor<3xi64>) -> tensor<?x5x5xf32> {
  %0 = "onnx.Expand"(%x, %s) {onnx.dim_params = ["batch", "", ""]} : (tensor<?x1x5xf32>, tensor<3xi64>) -> tensor<?x5x5xf32>
  return %0 : tensor<?x5x5xf32>
}

// -----

// Without the name the input's dim may be 1 and stretch to the shape's.
// CHECK-LABEL: func.func @expand_unnamed
// CHECK: scf.if
func.func @expand_unnamed(%x: tensor<?x1x5xf32> {onnx.dim_params = ["batch", "", ""]}, %s: tensor<3xi64>) -> tensor<?x5x5xf32> {
  %0 = "onnx.Expand"(%x, %s) : (tensor<?x1x5xf32>, tensor<3xi64>) -> tensor<?x5x5xf32>
  return %0 : tensor<?x5x5xf32>
}

// -----

// An argument name that shape inference would quote is not trusted (a name must be
// written the same way in both places to say one size).
// CHECK-LABEL: func.func @odd_argument_names
// CHECK: scf.if
func.func @odd_argument_names(%a: tensor<?xf32> {onnx.dim_params = ["2*n"]},
                              %b: tensor<?xf32> {onnx.dim_params = ["2*n"]}) -> tensor<?xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A Reshape whose `?` dims are named as dims of its input takes their sizes; the shape
// operand, read at run time, is checked against them (see [Note: shape checks]) but
// does not decide them: the named dims stay out of the reshaped band, as static ones do.
// CHECK-LABEL: func.func @reshape_named
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x128x384xf32>
// CHECK: tensor.extract %arg1
// CHECK: cf.assert %{{.*}}, "Reshape at {{.*}}: shape [?, ?, ?, ?] does not reshape the input [?, 128, 384] into the result's dims [?, 128, 12, 32]"
// CHECK-NEXT: tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [%[[N]], 128, 12, 32] : tensor<?x128x384xf32> into tensor<?x128x12x32xf32>
func.func @reshape_named(%x: tensor<?x128x384xf32> {onnx.dim_params = ["batch", "", ""]}, %s: tensor<4xi64>) -> tensor<?x128x12x32xf32> {
  %0 = "onnx.Reshape"(%x, %s) {onnx.dim_params = ["batch", "", "", ""]} : (tensor<?x128x384xf32>, tensor<4xi64>) -> tensor<?x128x12x32xf32>
  return %0 : tensor<?x128x12x32xf32>
}

// -----

// One `?` dim left, the others static: it is what the element count leaves, 0 when
// that count does not divide evenly (a failed check).
// CHECK-LABEL: func.func @reshape_one_unknown
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x384xf32>
// CHECK: %[[T:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[B:.*]] = arith.floordivsi %[[T]], %{{.*}} : index
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %[[B]], %{{.*}} : index
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%[[S]], 128, 384] : tensor<?x384xf32> into tensor<?x128x384xf32>
func.func @reshape_one_unknown(%x: tensor<?x384xf32> {onnx.dim_params = ["128*batch", ""]}, %s: tensor<3xi64>) -> tensor<?x128x384xf32> {
  %0 = "onnx.Reshape"(%x, %s) {onnx.dim_params = ["batch", "", ""]} : (tensor<?x384xf32>, tensor<3xi64>) -> tensor<?x128x384xf32>
  return %0 : tensor<?x128x384xf32>
}

// -----

// Two unknown dims: the shape operand says what they are.
// CHECK-LABEL: func.func @reshape_from_operand
// CHECK: tensor.extract %arg1
func.func @reshape_from_operand(%x: tensor<?x384xf32>, %s: tensor<3xi64>) -> tensor<?x?x384xf32> {
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x384xf32>, tensor<3xi64>) -> tensor<?x?x384xf32>
  return %0 : tensor<?x?x384xf32>
}
