// RUN: strata-opt %s --onnx-shape-inference | filecheck %s

module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {

// If: what both branches agree on; Loop: carried values as far as the body keeps
// them, scan outputs stacked on a leading `?`. Ops inside regions are refined too.
// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%c: tensor<i1>, %x: tensor<2x3xf32>, %y: tensor<4x3xf32>, %n: tensor<i64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: "onnx.If"(%arg0) ({
  // CHECK-NEXT: "onnx.Neg"(%arg1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: }) : (tensor<i1>) -> tensor<?x3xf32>
  %0 = "onnx.If"(%c) ({
    %a = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<*xf32>
    "onnx.Yield"(%a) : (tensor<*xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<4x3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<*xf32>
  %none = "onnx.NoValue"() : () -> none
  // CHECK: "onnx.Loop"
  // CHECK: "onnx.Add"(%{{.*}}, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: }) : (tensor<i64>, none, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<?x2x3xf32>)
  %1:2 = "onnx.Loop"(%n, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2x3xf32>):
    %w = "onnx.Add"(%v, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
    "onnx.Yield"(%cond, %w, %w) : (tensor<i1>, tensor<*xf32>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0, %1#0, %1#1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Ops without a Python rule go to onnx's own inference, constants included.
// CHECK-LABEL: func.func @fallback
func.func @fallback(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %i: tensor<4xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: "onnx.Einsum"{{.*}} -> tensor<2x5xf32>
  %0 = "onnx.Einsum"(%a, %b) <{equation = "ij,jk->ik"}> : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  %depth = "onnx.Constant"() <{value = dense<7> : tensor<1xi64>}> : () -> tensor<1xi64>
  %values = "onnx.Constant"() <{value = dense<[0.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK: "onnx.OneHot"{{.*}} -> tensor<4x7xf32>
  %1 = "onnx.OneHot"(%i, %depth, %values) : (tensor<4xi64>, tensor<1xi64>, tensor<2xf32>) -> tensor<*xf32>
  %none = "onnx.NoValue"() : () -> none
  %scales = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK: "onnx.Resize"{{.*}} -> tensor<2x6xf32>
  %2 = "onnx.Resize"(%a, %none, %scales) : (tensor<2x3xf32>, none, tensor<2xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Initializers (ml_program globals) are constants too.
ml_program.global private @shape(dense<[3, 2]> : tensor<2xi64>) : tensor<2xi64>
// CHECK-LABEL: func.func @globals
// CHECK-SAME: -> tensor<3x2xf32>
func.func @globals(%x: tensor<6xf32>) -> tensor<*xf32> {
  %s = ml_program.global_load_const @shape : tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A refined value used outside the onnx dialect is cast back to its old type there.
// CHECK-LABEL: func.func @other_users
func.func @other_users(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // CHECK-NEXT: %0 = "onnx.Relu"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %cast = tensor.cast %0 : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: tensor.dim %cast
  %0 = "onnx.Relu"(%x) : (tensor<2x3xf32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %0, %c0 : tensor<?x?xf32>
  %1 = "onnx.Neg"(%0) : (tensor<?x?xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// A function called elsewhere keeps its signature: the return casts back.
// CHECK-LABEL: func.func @callee(%arg0: tensor<4xf32>) -> tensor<?xf32>
// CHECK-NEXT: "onnx.Abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %cast = tensor.cast %0 : tensor<4xf32> to tensor<?xf32>
// CHECK-NEXT: return %cast : tensor<?xf32>
func.func @callee(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = "onnx.Abs"(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

}

// The opset in force decides between versions: Squeeze's axes attribute (opset 11).
// CHECK-LABEL: func.func @opset11
// CHECK: "onnx.Squeeze"(%arg0) <{axes = [0]}> : (tensor<1x3xf32>) -> tensor<3xf32>
module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
func.func @opset11(%x: tensor<1x3xf32>) -> tensor<*xf32> {
  %0 = "onnx.Squeeze"(%x) <{axes = [0]}> : (tensor<1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
}
