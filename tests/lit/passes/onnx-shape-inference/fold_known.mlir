// RUN: strata-opt %s --onnx-shape-inference | filecheck %s

// [Note: known values become constants]: the exporter's shape arithmetic on a tensor
// with a `?` dim. What reads only static dims becomes constants (the Shape goes with
// its last use); what reads the `?` dim stays, its static part a constant.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
// CHECK-LABEL: func.func @dynamic_batch
func.func @dynamic_batch(%x: tensor<?x128x768xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: %[[S:.*]] = "onnx.Shape"(%arg0) : (tensor<?x128x768xf32>) -> tensor<3xi64>
  // CHECK-NEXT: %[[C0:.*]] = "onnx.Constant"() <{value = dense<0> : tensor<i64>}>
  // CHECK-NEXT: %[[B:.*]] = "onnx.Gather"(%[[S]], %[[C0]]) <{axis = 0 : i64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  // CHECK-NEXT: %[[AX:.*]] = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}>
  // CHECK-NEXT: %[[UB:.*]] = "onnx.Unsqueeze"(%[[B]], %[[AX]]) {{.*}} -> tensor<1xi64>
  // CHECK-NEXT: %[[K:.*]] = "onnx.Constant"() <{value = dense<[128, 12, 64]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK-NEXT: %[[T:.*]] = "onnx.Concat"(%[[UB]], %[[K]]) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<3xi64>) -> tensor<4xi64>
  // CHECK-NEXT: "onnx.Reshape"(%arg0, %[[T]]) {{.*}} -> tensor<?x128x12x64xf32>
  // CHECK-NEXT: %[[F:.*]] = "onnx.Constant"() <{value = dense<[128, 768]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK-NEXT: "onnx.Reshape"(%arg0, %[[F]])
  // CHECK-NOT: onnx.Gather
  // CHECK: return
  %s = "onnx.Shape"(%x) : (tensor<?x128x768xf32>) -> tensor<*xi64>
  %c0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %b = "onnx.Gather"(%s, %c0) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %ub = "onnx.Unsqueeze"(%b, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %c1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %n = "onnx.Gather"(%s, %c1) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %un = "onnx.Unsqueeze"(%n, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %h = "onnx.Constant"() <{value = dense<[12, 64]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %nh = "onnx.Concat"(%un, %h) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %t = "onnx.Concat"(%ub, %nh) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %t) : (tensor<?x128x768xf32>, tensor<*xi64>) -> tensor<*xf32>
  // Shape with start: only static dims
  %s2 = "onnx.Shape"(%x) <{start = 1 : i64}> : (tensor<?x128x768xf32>) -> tensor<*xi64>
  %r2 = "onnx.Reshape"(%x, %s2) : (tensor<?x128x768xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r, %r2 : tensor<*xf32>, tensor<*xf32>
}

// Not folded: inside a Loop body (its types are assumptions while it is inferred).
// CHECK-LABEL: func.func @in_loop
func.func @in_loop(%x: tensor<2x3xf32>, %n: tensor<i64>, %c: tensor<i1>) -> tensor<*xf32> {
  // CHECK: "onnx.Loop"
  // CHECK: "onnx.Shape"
  // CHECK: "onnx.Yield"
  %r = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: tensor<*xf32>):
    %s = "onnx.Shape"(%acc) : (tensor<*xf32>) -> tensor<*xi64>
    %y = "onnx.Reshape"(%acc, %s) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
    "onnx.Yield"(%cond, %y) : (tensor<i1>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
}
