// torch-fold-batch-norm (strata/frontends/torch/fold_batch_norm.py): an inference batch
// norm after a convolution with constant weights becomes the convolution's filter and
// bias: s = gamma / sqrt(var + eps) = [0.5, 2], filter [2, 4] * s = [1, 8], bias
// (0 - mean) * s + beta = [0, -3]; the old globals go once unread.
// RUN: strata-opt %s --split-input-file --torch-fold-batch-norm | filecheck %s

// CHECK-LABEL: module {
//  CHECK-NEXT:   ml_program.global private @w_bn(dense_resource<w_bn> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
//  CHECK-NEXT:   ml_program.global private @w_bn_bias(dense_resource<w_bn_bias> : tensor<2xf32>) : tensor<2xf32>
//  CHECK-NEXT:   func.func @main(
//       CHECK:     %w_bn = ml_program.global_load_const @w_bn : tensor<2x1x1x1xf32>
//  CHECK-NEXT:     %[[W:.*]] = torch_c.from_builtin_tensor %w_bn
//  CHECK-NEXT:     %w_bn_bias = ml_program.global_load_const @w_bn_bias : tensor<2xf32>
//  CHECK-NEXT:     %[[B:.*]] = torch_c.from_builtin_tensor %w_bn_bias : tensor<2xf32> -> !torch.vtensor<[2],f32>
//  CHECK-NEXT:     %[[Y:.*]] = torch.aten.convolution %arg0, %[[W]], %[[B]],
//  CHECK-NEXT:     %[[R:.*]] = torch.aten.relu %[[Y]]
//  CHECK-NEXT:     return %[[R]]
//   CHECK-NOT:   _native_batch_norm_legit_no_training
//       CHECK: dialect_resources
//  CHECK-NEXT:   builtin: {
//  CHECK-NEXT:     w_bn: "0x400000000000803F00000041",
//  CHECK-NEXT:     w_bn_bias: "0x4000000000000000000040C0"
ml_program.global private @w(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @main(%x: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %w0 = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %w = torch_c.from_builtin_tensor %w0 : tensor<2x1x1x1xf32> -> !torch.vtensor<[2,1,1,1],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %y = torch.aten.convolution %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %g0 = ml_program.global_load_const @gamma : tensor<2xf32>
  %g = torch_c.from_builtin_tensor %g0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %b0 = ml_program.global_load_const @beta : tensor<2xf32>
  %b = torch_c.from_builtin_tensor %b0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %m0 = ml_program.global_load_const @mean : tensor<2xf32>
  %m = torch_c.from_builtin_tensor %m0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %v0 = ml_program.global_load_const @var : tensor<2xf32>
  %v = torch_c.from_builtin_tensor %v0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e+00
  %n:3 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%y, %g, %b, %m, %v, %momentum, %eps) : (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.float, !torch.float) -> (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>)
  %r = torch.aten.relu %n#0 : !torch.vtensor<[1,2,3,3],f32> -> !torch.vtensor<[1,2,3,3],f32>
  return %r : !torch.vtensor<[1,2,3,3],f32>
}

// -----

// The convolution's result is also returned: folding would change it, so the batch
// norm stays (and so do the globals).
// CHECK-LABEL: module {
//  CHECK-NEXT:   ml_program.global private @w(
//       CHECK:   torch.aten.convolution
//       CHECK:   torch.operator "torch.aten._native_batch_norm_legit_no_training"
ml_program.global private @w(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @two_readers(%x: !torch.vtensor<[1,1,3,3],f32>) -> (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>) {
  %w0 = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %w = torch_c.from_builtin_tensor %w0 : tensor<2x1x1x1xf32> -> !torch.vtensor<[2,1,1,1],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %y = torch.aten.convolution %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %m0 = ml_program.global_load_const @mean : tensor<2xf32>
  %m = torch_c.from_builtin_tensor %m0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %v0 = ml_program.global_load_const @var : tensor<2xf32>
  %v = torch_c.from_builtin_tensor %v0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e+00
  %n:3 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%y, %none, %none, %m, %v, %momentum, %eps) : (!torch.vtensor<[1,2,3,3],f32>, !torch.none, !torch.none, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.float, !torch.float) -> (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32>)
  return %n#0, %y : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[1,2,3,3],f32>
}

// -----

// The forms torch.export's program holds, imported without decomposing: aten.conv2d
// and aten.batch_norm with training false fold the same way.
// CHECK-LABEL: module {
//  CHECK-NEXT:   ml_program.global private @w_bn(dense_resource<w_bn{{.*}}> : tensor<2x1x1x1xf32>)
//  CHECK-NEXT:   ml_program.global private @w_bn_bias(
//   CHECK-NOT:   torch.aten.batch_norm
//       CHECK:     %[[W:.*]] = torch_c.from_builtin_tensor %w_bn
//  CHECK-NEXT:     %w_bn_bias = ml_program.global_load_const @w_bn_bias
//  CHECK-NEXT:     %[[B:.*]] = torch_c.from_builtin_tensor %w_bn_bias
//  CHECK-NEXT:     %[[Y:.*]] = torch.aten.conv2d %arg0, %[[W]], %[[B]],
//  CHECK-NEXT:     return %[[Y]]
//       CHECK: dialect_resources
//  CHECK-NEXT:   builtin: {
//  CHECK-NEXT:     w_bn: "0x400000000000803F00000041",
//  CHECK-NEXT:     w_bn_bias: "0x4000000000000000000040C0"
ml_program.global private @w(dense<[[[[2.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
ml_program.global private @gamma(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @beta(dense<[0.5, 1.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @mean(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @var(dense<[3.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
func.func @main(%x: !torch.vtensor<[1,1,3,3],f32>) -> !torch.vtensor<[1,2,3,3],f32> {
  %w0 = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
  %w = torch_c.from_builtin_tensor %w0 : tensor<2x1x1x1xf32> -> !torch.vtensor<[2,1,1,1],f32>
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %ones = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %y = torch.aten.conv2d %x, %w, %none, %ones, %zeros, %ones, %int1 : !torch.vtensor<[1,1,3,3],f32>, !torch.vtensor<[2,1,1,1],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,3,3],f32>
  %g0 = ml_program.global_load_const @gamma : tensor<2xf32>
  %g = torch_c.from_builtin_tensor %g0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %b0 = ml_program.global_load_const @beta : tensor<2xf32>
  %b = torch_c.from_builtin_tensor %b0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %m0 = ml_program.global_load_const @mean : tensor<2xf32>
  %m = torch_c.from_builtin_tensor %m0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %v0 = ml_program.global_load_const @var : tensor<2xf32>
  %v = torch_c.from_builtin_tensor %v0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e+00
  %n = torch.aten.batch_norm %y, %g, %b, %m, %v, %false, %momentum, %eps, %false : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,2,3,3],f32>
  return %n : !torch.vtensor<[1,2,3,3],f32>
}
