// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK: module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 17 : i64, ai.onnx.ml = 3 : i64}}
module attributes {onnx.opset_import = {ai.onnx = 17 : i64, ai.onnx.ml = 3 : i64}, onnx.ir_version = 10 : i64} {

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<3x?xf32>, %b: tensor<?xf32>) -> tensor<3x?xf32> {
  // CHECK-NEXT: %0 = "onnx.Add"(%arg0, %arg1) : (tensor<3x?xf32>, tensor<?xf32>) -> tensor<3x?xf32>
  %0 = "onnx.Add"(%a, %b) : (tensor<3x?xf32>, tensor<?xf32>) -> tensor<3x?xf32>
  // CHECK-NEXT: %1 = "onnx.NoValue"() : () -> none
  %n = "onnx.NoValue"() : () -> none
  // CHECK-NEXT: %2 = "onnx.Clip"(%0, %1, %arg1) : (tensor<3x?xf32>, none, tensor<?xf32>) -> tensor<3x?xf32>
  %1 = "onnx.Clip"(%0, %n, %b) : (tensor<3x?xf32>, none, tensor<?xf32>) -> tensor<3x?xf32>
  // CHECK-NEXT: return %2
  return %1 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @attributes
func.func @attributes(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  // CHECK-NEXT: "onnx.Conv"(%arg0, %arg1) <{auto_pad = "SAME_UPPER", group = 1 : i64, kernel_shape = [3, 3], strides = [1, 1]}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %0 = "onnx.Conv"(%x, %w) <{auto_pad = "SAME_UPPER", kernel_shape = [3, 3], strides = [1, 1], group = 1 : i64}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  // CHECK-NEXT: "onnx.LeakyRelu"(%0) <{alpha = 2.000000e-01 : f32}>
  %1 = "onnx.LeakyRelu"(%0) <{alpha = 0.2 : f32}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // CHECK-NEXT: "onnx.Constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s = "onnx.Constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK-NEXT: "onnx.Cast"(%1) <{to = 7 : i64}> : (tensor<1x4x8x8xf32>) -> tensor<*xi64>
  %c = "onnx.Cast"(%1) <{to = 7 : i64}> : (tensor<1x4x8x8xf32>) -> tensor<*xi64>
  // CHECK-NEXT: "onnx.Reshape"(%1, %2) : (tensor<1x4x8x8xf32>, tensor<2xi64>) -> tensor<*xf32>
  %r = "onnx.Reshape"(%1, %s) : (tensor<1x4x8x8xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: (%arg0: !onnx.Seq<tensor<?xf32>>, %arg1: !onnx.Opt<tensor<*xi64>>, %arg2: tensor<2x!onnx.String>, %arg3: !onnx.Map<i64, f32>)
func.func @types(%s: !onnx.Seq<tensor<?xf32>>, %o: !onnx.Opt<tensor<*xi64>>, %t: tensor<2x!onnx.String>, %m: !onnx.Map<i64, f32>) -> !onnx.Seq<!onnx.Map<i64, f32>> {
  // CHECK-NEXT: "onnx.SequenceLength"(%arg0) : (!onnx.Seq<tensor<?xf32>>) -> tensor<i64>
  %0 = "onnx.SequenceLength"(%s) : (!onnx.Seq<tensor<?xf32>>) -> tensor<i64>
  // CHECK-NEXT: "onnx.OptionalHasElement"(%arg1) : (!onnx.Opt<tensor<*xi64>>) -> tensor<i1>
  %1 = "onnx.OptionalHasElement"(%o) : (!onnx.Opt<tensor<*xi64>>) -> tensor<i1>
  // CHECK-NEXT: "onnx.StringNormalizer"(%arg2) <{case_change_action = "UPPER"}> : (tensor<2x!onnx.String>) -> tensor<2x!onnx.String>
  %2 = "onnx.StringNormalizer"(%t) <{case_change_action = "UPPER"}> : (tensor<2x!onnx.String>) -> tensor<2x!onnx.String>
  // CHECK-NEXT: "onnx.DictVectorizer"(%arg3) <{int64_vocabulary = [1, 2]}> : (!onnx.Map<i64, f32>) -> tensor<?x2xf32>
  %3 = "onnx.DictVectorizer"(%m) <{int64_vocabulary = [1, 2]}> : (!onnx.Map<i64, f32>) -> tensor<?x2xf32>
  // CHECK-NEXT: "onnx.ZipMap"(%3) <{classlabels_int64s = [1, 2]}> : (tensor<?x2xf32>) -> !onnx.Seq<!onnx.Map<i64, f32>>
  %4 = "onnx.ZipMap"(%3) <{classlabels_int64s = [1, 2]}> : (tensor<?x2xf32>) -> !onnx.Seq<!onnx.Map<i64, f32>>
  return %4 : !onnx.Seq<!onnx.Map<i64, f32>>
}

// CHECK-LABEL: func.func @regions
func.func @regions(%c: tensor<i1>, %x: tensor<2xf32>, %n: tensor<i64>) -> tensor<2xf32> {
  // CHECK: "onnx.If"(%arg0) ({
  // CHECK-NEXT: "onnx.Yield"(%arg1) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %{{.*}} = "onnx.Neg"(%arg1)
  // CHECK-NEXT: "onnx.Yield"
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xf32>
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %y = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%y) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  // CHECK: "onnx.Loop"(%arg2, %{{.*}}, %{{.*}}) ({
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<2xf32>):
  %none = "onnx.NoValue"() : () -> none
  %1 = "onnx.Loop"(%n, %none, %0) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %w = "onnx.Add"(%v, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%cond, %w) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// Operators of other domains; a heterogeneous variadic (Loop) and a literal type
// (LabelEncoder's opset-3 keys).
// CHECK-LABEL: func.func @ml
func.func @ml(%x: tensor<3x!onnx.String>) -> tensor<3xi64> {
  // CHECK-NEXT: "onnx.LabelEncoder"(%arg0) <{keys_strings = ["a", "b"], values_int64s = [1, 2]}>
  %0 = "onnx.LabelEncoder"(%x) <{keys_strings = ["a", "b"], values_int64s = [1, 2]}> : (tensor<3x!onnx.String>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
}
