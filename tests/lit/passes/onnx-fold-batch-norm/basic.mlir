// onnx-fold-batch-norm (strata/frontends/onnx/fold_batch_norm.py): an inference
// BatchNormalization after a Conv, ConvTranspose, Gemm or MatMul with constant weights
// goes into those weights. Statistics of every positive case: gamma [1, 2], beta
// [0.5, 1], mean [1, 2], var [3, 0], epsilon 1: s = gamma / sqrt(var + eps) = [0.5, 2],
// t = beta - mean * s = [0, -3].
// RUN: strata-opt %s --split-input-file --onnx-fold-batch-norm | filecheck %s

// Conv: filter [2, 4] * s = [1, 8], bias [1, 1] * s + t = [0.5, -1]; the old globals
// go once unread, the new ones hold the folded values.
// CHECK-LABEL: module attributes
//  CHECK-NEXT:   ml_program.global private @w_bn(dense_resource<w_bn> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
//  CHECK-NEXT:   ml_program.global private @w_bn_bias(dense_resource<w_bn_bias> : tensor<2xf32>) : tensor<2xf32>
//  CHECK-NEXT:   func.func @conv(
//  CHECK-NEXT:     %[[W:.*]] = ml_program.global_load_const @w_bn : tensor<2x1x1x1xf32>
//  CHECK-NEXT:     %[[B:.*]] = ml_program.global_load_const @w_bn_bias : tensor<2xf32>
//  CHECK-NEXT:     %[[Y:.*]] = "onnx.Conv"(%arg0, %[[W]], %[[B]])
//  CHECK-NEXT:     %[[R:.*]] = "onnx.Relu"(%[[Y]])
//  CHECK-NEXT:     return %[[R]]
//  CHECK-NEXT:   }
//  CHECK-NEXT: }
//       CHECK: dialect_resources
//  CHECK-NEXT:   builtin: {
//  CHECK-NEXT:     w_bn: "0x400000000000803F00000041",
//  CHECK-NEXT:     w_bn_bias: "0x400000000000003F000080BF"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @w(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @b(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @conv(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %b = ml_program.global_load_const @b : tensor<2xf32>
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %be = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %y = "onnx.Conv"(%x, %w, %b) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %g, %be, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %r = "onnx.Relu"(%n) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
}

// -----

// Gemm with transB (B's rows are the output channels) and C: B [[2, 2], [4, 4]] ->
// [[1, 1], [8, 8]], C' = beta * C * s + t = 2 * [1, 1] * s + t = [1, 1], beta 1.
// CHECK-LABEL: module attributes
//       CHECK:   func.func @gemm(
//  CHECK-NEXT:     %[[W:.*]] = ml_program.global_load_const @w_bn : tensor<2x2xf32>
//  CHECK-NEXT:     %[[C:.*]] = ml_program.global_load_const @w_bn_bias : tensor<2xf32>
//  CHECK-NEXT:     %[[Y:.*]] = "onnx.Gemm"(%arg0, %[[W]], %[[C]]) <{alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transB = 1 : si64}>
//  CHECK-NEXT:     return %[[Y]]
//       CHECK:     w_bn{{(_[0-9]+)?}}: "0x400000000000803F0000803F0000004100000041",
//  CHECK-NEXT:     w_bn_bias{{(_[0-9]+)?}}: "0x400000000000803F0000803F"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @w(dense<[[2.0, 2.0], [4.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
ml_program.global private @c(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @gemm(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = ml_program.global_load_const @w : tensor<2x2xf32>
  %c = ml_program.global_load_const @c : tensor<2xf32>
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %be = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %y = "onnx.Gemm"(%a, %w, %c) <{alpha = 1.0 : f32, beta = 2.0 : f32, transB = 1 : si64}> : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %n = "onnx.BatchNormalization"(%y, %g, %be, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %n : tensor<3x2xf32>
}
}

// -----

// MatMul of a rank-2 A: B's columns [2, 4] scaled to [1, 8], then an Add of t; a
// ConvTranspose of 2 groups (output channel g is W[g, 0]): [2, 4] -> [1, 8], bias t.
// CHECK-LABEL: module attributes
//       CHECK:   func.func @matmul(
//  CHECK-NEXT:     %[[W:.*]] = ml_program.global_load_const @w_bn : tensor<2x2xf32>
//  CHECK-NEXT:     %[[T:.*]] = ml_program.global_load_const @w_bn_bias : tensor<2xf32>
//  CHECK-NEXT:     %[[Y:.*]] = "onnx.MatMul"(%arg0, %[[W]])
//  CHECK-NEXT:     %[[S:.*]] = "onnx.Add"(%[[Y]], %[[T]]) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
//  CHECK-NEXT:     return %[[S]]
//       CHECK:   func.func @deconv(
//  CHECK-NEXT:     %[[W:.*]] = ml_program.global_load_const @wt_bn : tensor<2x1x1x1xf32>
//  CHECK-NEXT:     %[[B:.*]] = ml_program.global_load_const @wt_bn_bias : tensor<2xf32>
//  CHECK-NEXT:     %[[Y:.*]] = "onnx.ConvTranspose"(%arg0, %[[W]], %[[B]]) <{group = 2 : si64}>
//  CHECK-NEXT:     return %[[Y]]
//       CHECK:     w_bn{{(_[0-9]+)?}}: "0x400000000000803F000000410000803F00000041",
//  CHECK-NEXT:     w_bn_bias{{(_[0-9]+)?}}: "0x4000000000000000000040C0",
//  CHECK-NEXT:     wt_bn: "0x400000000000803F00000041",
//  CHECK-NEXT:     wt_bn_bias: "0x4000000000000000000040C0"
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @w(dense<[[2.0, 4.0], [2.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
ml_program.global private @wt(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @matmul(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = ml_program.global_load_const @w : tensor<2x2xf32>
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %be = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %y = "onnx.MatMul"(%a, %w) : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %n = "onnx.BatchNormalization"(%y, %g, %be, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %n : tensor<3x2xf32>
}
func.func @deconv(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = ml_program.global_load_const @wt : tensor<2x1x1x1xf32>
  %g = ml_program.global_load_const @gamma : tensor<2xf32>
  %be = ml_program.global_load_const @beta : tensor<2xf32>
  %m = ml_program.global_load_const @mean : tensor<2xf32>
  %v = ml_program.global_load_const @var : tensor<2xf32>
  %y = "onnx.ConvTranspose"(%x, %w) <{group = 2 : si64}> : (tensor<1x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %g, %be, %m, %v) <{epsilon = 1.0 : f32}> : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n : tensor<1x2x3x3xf32>
}
}

// -----

// Near misses, each left as it is: statistics that are run-time values; a Conv whose
// result is also returned (folding would change it); a rank-3 MatMul, whose dim 1 (the
// batch norm's channel) is a row, not the product's columns; training mode; a zero
// variance with epsilon 0 (s infinite).
// CHECK-LABEL: module attributes
//  CHECK-NEXT:   ml_program.global private @w(
// CHECK-COUNT-5:   "onnx.BatchNormalization"
//   CHECK-NOT:   _bn
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
ml_program.global private @w(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @w2(dense<[[2.0, 4.0], [2.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
ml_program.global private @s2(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @s3(dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
func.func @runtime_stats(%x: tensor<1x1x3x3xf32>, %m: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %y = "onnx.Conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %s, %s, %m, %s) : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n : tensor<1x2x3x3xf32>
}
func.func @two_uses(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %y = "onnx.Conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %s, %s, %s, %s) : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y, %n : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
func.func @rows(%a: tensor<2x3x2xf32>) -> tensor<2x3x2xf32> {
  %w = ml_program.global_load_const @w2 : tensor<2x2xf32>
  %s = ml_program.global_load_const @s3 : tensor<3xf32>
  %y = "onnx.MatMul"(%a, %w) : (tensor<2x3x2xf32>, tensor<2x2xf32>) -> tensor<2x3x2xf32>
  %n = "onnx.BatchNormalization"(%y, %s, %s, %s, %s) : (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x2xf32>
  return %n : tensor<2x3x2xf32>
}
func.func @training(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %y = "onnx.Conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %s, %s, %s, %s) <{training_mode = 1 : si64}> : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n : tensor<1x2x3x3xf32>
}
func.func @zero_var(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %s = ml_program.global_load_const @s2 : tensor<2xf32>
  %z = "onnx.Constant"() <{value = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %y = "onnx.Conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "onnx.BatchNormalization"(%y, %s, %s, %s, %z) <{epsilon = 0.0 : f32}> : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n : tensor<1x2x3x3xf32>
}
}
