// RUN: strata-opt %s --split-input-file --onnx-decompose | filecheck %s
// RUN: strata-opt %s --split-input-file --onnx-decompose=keep=Celu | filecheck %s --check-prefix=KEEP

// Celu (a fixed function body) expands into its ops; its alpha reaches the body, the
// nested Elu (a function op too) expands as well, and uses move to the new values.
// CHECK-LABEL: func.func @celu
// CHECK: %[[A:.*]] = "onnx.Constant"() <{value = dense<2.000000e+00> : tensor<1xf32>}>
// CHECK: %[[X:.*]] = "onnx.Div"(%arg0, %[[A]])
// CHECK-NOT: onnx.Elu
// CHECK: "onnx.Exp"(%[[X]])
// CHECK: %[[R:.*]] = "onnx.Mul"(%[[A]], %{{.*}}) : (tensor<1xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NOT: onnx.Celu
// CHECK: return %[[R]] : tensor<3xf32>
// KEEP-LABEL: func.func @celu
// KEEP: "onnx.Celu"(%arg0) <{alpha = 2.000000e+00 : f32}>
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
  func.func @celu(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "onnx.Celu"(%arg0) <{alpha = 2.000000e+00 : f32}> : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}

// -----

// A context-dependent body (built for the node's types), with an omitted input.
// CHECK-LABEL: func.func @clip
// CHECK: %[[L:.*]] = "onnx.Less"(%arg1, %arg0) : (tensor<f32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[W:.*]] = "onnx.Where"(%[[L]], %arg1, %arg0)
// CHECK: return %[[W]]
// KEEP-LABEL: func.func @clip
// KEEP-NOT: onnx.Clip
module attributes {onnx.opset_import = {ai.onnx = 13 : i64}} {
  func.func @clip(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %none = "onnx.NoValue"() : () -> none
    %0 = "onnx.Clip"(%arg0, %none, %arg1) : (tensor<4xf32>, none, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// Relu has a function body only from opset 18 on; ops in regions expand in place.
// CHECK-LABEL: func.func @relu_in_if
// CHECK: "onnx.If"
// CHECK: "onnx.Relu"
// CHECK: "onnx.Yield"
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @relu_in_if(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "onnx.If"(%c) ({
      %1 = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%1) : (tensor<2xf32>) -> ()
    }, {
      "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// CHECK-LABEL: func.func @relu_in_if_18
// CHECK: "onnx.If"
// CHECK-NOT: onnx.Relu
// CHECK: "onnx.Max"(%arg1, %{{.*}})
// CHECK: "onnx.Yield"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
  func.func @relu_in_if_18(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "onnx.If"(%c) ({
      %1 = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%1) : (tensor<2xf32>) -> ()
    }, {
      "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// LayerNormalization's body computes its variance as E[x^2] - E[x]^2, which cancels in
// float32 (NaN at mean 100): it becomes E[(x - E[x])^2] (see [Note: stable variance]).
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[M:.*]] = "onnx.ReduceMean"(%[[X:.*]], %[[AX:.*]]) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[D:.*]] = "onnx.Sub"(%[[X]], %[[M]])
// CHECK-NEXT: %[[D2:.*]] = "onnx.Mul"(%[[D]], %[[D]])
// CHECK-NEXT: %[[V:.*]] = "onnx.ReduceMean"(%[[D2]], %[[AX]])
// CHECK-NEXT: "onnx.Add"(%[[V]], %{{.*}})
// CHECK-NOT: "onnx.Mul"(%[[M]], %[[M]])
// CHECK: return
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
  func.func @layer_norm(%x: tensor<2x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
    %0 = "onnx.LayerNormalization"(%x, %s, %b) <{axis = -1 : si64}> : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

// -----

// MeanVarianceNormalization squares with Pow(., 2): the same rewrite, and no Pow left.
// CHECK-LABEL: func.func @mvn
// CHECK: %[[M:.*]] = "onnx.ReduceMean"(%arg0, %[[AX:.*]]) :
// CHECK-NEXT: %[[D:.*]] = "onnx.Sub"(%arg0, %[[M]])
// CHECK-NEXT: %[[D2:.*]] = "onnx.Mul"(%[[D]], %[[D]])
// CHECK-NEXT: %[[V:.*]] = "onnx.ReduceMean"(%[[D2]], %[[AX]])
// CHECK-NEXT: "onnx.Sqrt"(%[[V]])
// CHECK-NOT: onnx.Pow
// CHECK: return
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
  func.func @mvn(%x: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
    %0 = "onnx.MeanVarianceNormalization"(%x) : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    return %0 : tensor<2x3x4x4xf32>
  }
}
