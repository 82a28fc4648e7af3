// RUN: strata-opt %s --onnx-shape-inference | filecheck %s

// Body arguments of Loop and Scan take the types of the op's operands (iteration
// number i64 and condition i1 scalars, loop-carried values, scan input slices); a
// loop-carried value whose shape changes across iterations ends up with the common
// type of all iterations.
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {

// CHECK-LABEL: func.func @carried_from_init
// CHECK: ^bb0(%arg3: tensor<i64>, %arg4: tensor<i1>, %arg5: tensor<f32>):
// CHECK-NEXT: "onnx.Add"(%arg5, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?xf32>)
func.func @carried_from_init(%n: tensor<i64>, %c: tensor<i1>, %d: tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "onnx.Loop"(%n, %c, %d) ({
  ^bb0(%i: tensor<*xi64>, %cond: tensor<*xi1>, %v: tensor<*xf32>):
    %w = "onnx.Add"(%v, %d) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
    "onnx.Yield"(%cond, %w, %v) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// A value that grows each iteration: its static dim becomes `?` in the body and in the
// result, the body inferred again under that assumption.
// CHECK-LABEL: func.func @growing
// CHECK: ^bb0(%arg2: tensor<i64>, %arg3: tensor<i1>, %arg4: tensor<?x3xf32>):
// CHECK-NEXT: "onnx.Concat"(%arg4, %arg4) <{axis = 0 : i64}> : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<?x3xf32>
func.func @growing(%n: tensor<i64>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %0 = "onnx.Loop"(%n, %t, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<*xf32>):
    %w = "onnx.Concat"(%v, %v) <{axis = 0 : i64}> : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    "onnx.Yield"(%cond, %w) : (tensor<i1>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A value whose rank grows: unranked in the body; nested ops are reset between rounds.
// CHECK-LABEL: func.func @rank_changes
// CHECK: ^bb0(%arg2: tensor<i64>, %arg3: tensor<i1>, %arg4: tensor<*xf32>):
// CHECK: "onnx.Unsqueeze"(%arg4, %{{.*}}) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
// CHECK: "onnx.If"(%arg3) ({
// CHECK-NEXT: "onnx.Neg"(%{{.*}}) : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: }) : (tensor<i64>, none, tensor<4xf32>) -> tensor<*xf32>
func.func @rank_changes(%n: tensor<i64>, %x: tensor<4xf32>) -> tensor<*xf32> {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Loop"(%n, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<*xf32>):
    %axes = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %w = "onnx.Unsqueeze"(%v, %axes) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
    %u = "onnx.If"(%cond) ({
      %a = "onnx.Neg"(%w) : (tensor<*xf32>) -> tensor<*xf32>
      "onnx.Yield"(%a) : (tensor<*xf32>) -> ()
    }, {
      "onnx.Yield"(%w) : (tensor<*xf32>) -> ()
    }) : (tensor<i1>) -> tensor<*xf32>
    "onnx.Yield"(%cond, %u) : (tensor<i1>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, none, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// A constant trip count and a condition that stays true: scan outputs have that many
// rows. A condition the body computes leaves the count unknown.
// CHECK-LABEL: func.func @trip_count
// CHECK: }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
// CHECK: }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
func.func @trip_count(%x: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %m = "onnx.Constant"() <{value = dense<5> : tensor<i64>}> : () -> tensor<i64>
  %0:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<*xf32>):
    %c = "onnx.Identity"(%cond) : (tensor<i1>) -> tensor<*xi1>
    "onnx.Yield"(%c, %v, %v) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %1:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<*xf32>):
    %c = "onnx.Less"(%i, %m) : (tensor<i64>, tensor<i64>) -> tensor<*xi1>
    "onnx.Yield"(%c, %v, %v) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#1, %1#1 : tensor<*xf32>, tensor<*xf32>
}

// Scan: state variables as given, scan inputs without their scan axis.
// CHECK-LABEL: func.func @scan
// CHECK: ^bb0(%arg2: tensor<3xf32>, %arg3: tensor<3xf32>):
// CHECK-NEXT: "onnx.Add"(%arg2, %arg3) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: }) : (tensor<3xf32>, tensor<3x5xf32>) -> (tensor<3xf32>, tensor<5x3xf32>)
func.func @scan(%s: tensor<3xf32>, %x: tensor<3x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "onnx.Scan"(%s, %x) <{num_scan_inputs = 1 : i64, scan_input_axes = [1]}> ({
  ^bb0(%acc: tensor<*xf32>, %e: tensor<*xf32>):
    %a = "onnx.Add"(%acc, %e) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    "onnx.Yield"(%a, %a) : (tensor<*xf32>, tensor<*xf32>) -> ()
  }) : (tensor<3xf32>, tensor<3x5xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

}

// An If whose condition a shape computation decides is replaced by the branch it takes
// (the other may not be lowerable).
// CHECK-LABEL: func.func @known_if
// CHECK-NOT: "onnx.If"
// CHECK: %[[N:.*]] = "onnx.Neg"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[N]] : tensor<4xf32>
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @known_if(%x: tensor<4xf32>) -> tensor<*xf32> {
  %s = "onnx.Size"(%x) : (tensor<4xf32>) -> tensor<i64>
  %four = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %c = "onnx.Equal"(%s, %four) : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %0 = "onnx.If"(%c) ({
    %a = "onnx.Neg"(%x) : (tensor<4xf32>) -> tensor<*xf32>
    "onnx.Yield"(%a) : (tensor<*xf32>) -> ()
  }, {
    %b = "onnx.Squeeze"(%x) : (tensor<4xf32>) -> tensor<*xf32>
    "onnx.Yield"(%b) : (tensor<*xf32>) -> ()
  }) : (tensor<i1>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
}
