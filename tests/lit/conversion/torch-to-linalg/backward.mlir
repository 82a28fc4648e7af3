// RUN: strata-opt %s --split-input-file --convert-torch-to-linalg | filecheck %s

// convolution_backward (torch_to_linalg/backward.py): grad_input is the transposed
// convolution of grad_output (the stride-2 result spread by an insert_slice of stride
// 2, padded by k - 1), grad_weight a grouped convolution of the input by grad_output
// with stride and dilation swapped ([Note: the weight gradient as a convolution]),
// transposed back to (O, C/g, k...); grad_bias the sum over all dims but the channels.
// CHECK-LABEL: func.func @conv_backward
// CHECK:         tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 2]
// CHECK:         linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK:         linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME:      -> tensor<1x2x2x3x3xf32>
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x4x3x3xf32>) outs(%{{.*}} : tensor<4x1x3x3xf32>) permutation = [1, 0, 2, 3]
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<1x4x3x3xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT:     torch.
func.func @conv_backward(%go: !torch.vtensor<[1,4,3,3],f32>, %x: !torch.vtensor<[1,2,7,7],f32>, %w: !torch.vtensor<[4,1,3,3],f32>) -> (!torch.vtensor<[1,2,7,7],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.vtensor<[4],f32>) {
  %int4 = torch.constant.int 4
  %0 = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %1 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %2 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %3 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %4 = torch.prim.ListConstruct %true, %true, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %go, %x, %w, %0, %1, %2, %3, %false, %2, %int2, %4 : !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[1,2,7,7],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,7,7],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.vtensor<[4],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[1,2,7,7],f32>, !torch.vtensor<[4,1,3,3],f32>, !torch.vtensor<[4],f32>
}

// -----

// A gradient the mask leaves out (a !torch.none result) is not computed: no transposed
// convolution for grad_input.
// CHECK-LABEL: func.func @conv_backward_weight_only
// CHECK-NOT:     tensor.insert_slice
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv
// CHECK:         return %{{.*}} : tensor<3x2x2x2xf32>
func.func @conv_backward_weight_only(%go: !torch.vtensor<[1,3,4,4],f32>, %x: !torch.vtensor<[1,2,5,5],f32>, %w: !torch.vtensor<[3,2,2,2],f32>) -> !torch.vtensor<[3,2,2,2],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %1 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %2 = torch.prim.ListConstruct %false, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %go, %x, %w, %none, %0, %1, %0, %false, %1, %int1, %2 : !torch.vtensor<[1,3,4,4],f32>, !torch.vtensor<[1,2,5,5],f32>, !torch.vtensor<[3,2,2,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.none, !torch.vtensor<[3,2,2,2],f32>, !torch.none
  return %r1 : !torch.vtensor<[3,2,2,2],f32>
}

// -----

// avg_pool2d_backward: grad_output divided by each window's count (here without the
// padding: count_include_pad false, 3x3 input, kernel 2, stride 2, pad 1), spread over
// the windows by a depthwise transposed convolution of ones.
// CHECK-LABEL: func.func @avg_pool_backward
// CHECK:         arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK:         arith.divf
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 4, 2, 2] [1, 1, 2, 2]
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-SAME:      -> tensor<1x4x3x3xf32>
func.func @avg_pool_backward(%go: !torch.vtensor<[1,4,2,2],f32>, %x: !torch.vtensor<[1,4,3,3],f32>) -> !torch.vtensor<[1,4,3,3],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %int1 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %none = torch.constant.none
  %3 = torch.aten.avg_pool2d_backward %go, %x, %0, %1, %2, %false, %false, %none : !torch.vtensor<[1,4,2,2],f32>, !torch.vtensor<[1,4,3,3],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,4,3,3],f32>
  return %3 : !torch.vtensor<[1,4,3,3],f32>
}
// CHECK:         #[[GO:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d1, d6, d7)>
// CHECK-NEXT:    #[[X:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d2, d6 * 2 + d3, d7 * 2 + d4)>

// -----

// Dynamic spatial sizes: grad_input is the transposed convolution with output padding
// stride - 1, cut to the input's run-time sizes; grad_weight one linalg.generic over
// (g, o, c, kh, kw, n, y, x), grad_output read at (n, g, o, y, x), the padded input at
// (n, g, c, y * 2 + kh, x * 2 + kw). (The maps print before the function, so they are
// checked at the end of the previous case's block.)
// CHECK-LABEL: func.func @conv_backward_dynamic
// CHECK:         %[[GI:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [%{{.*}}, 2, %{{.*}}, %{{.*}}] [1, 1, 1, 1] : tensor<?x2x?x?xf32> to tensor<?x2x?x?xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[GO]], #[[X]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:         return %[[GI]], %{{.*}} : tensor<?x2x?x?xf32>, tensor<2x2x3x3xf32>
func.func @conv_backward_dynamic(%go: !torch.vtensor<[?,2,?,?],f32>, %x: !torch.vtensor<[?,2,?,?],f32>, %w: !torch.vtensor<[2,2,3,3],f32>) -> (!torch.vtensor<[?,2,?,?],f32>, !torch.vtensor<[2,2,3,3],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %2 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %3 = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %go, %x, %w, %none, %0, %1, %1, %false, %2, %int1, %3 : !torch.vtensor<[?,2,?,?],f32>, !torch.vtensor<[?,2,?,?],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[?,2,?,?],f32>, !torch.vtensor<[2,2,3,3],f32>, !torch.none
  return %r0, %r1 : !torch.vtensor<[?,2,?,?],f32>, !torch.vtensor<[2,2,3,3],f32>
}

// -----

// The backward of a transposed convolution ([Note: the transposed convolution's
// gradients]): grad_input is the convolution of grad_output by the same weights
// (stride 2, no insert_slice spreading it), grad_weight the convolution's weight
// gradient with input and grad_output swapped (grad_output's channels the batch, the
// input the filters, stride and dilation swapped), transposed to (C_in, C_out, k...).
// CHECK-LABEL: func.func @conv_transpose_backward
// CHECK-NOT:     tensor.insert_slice
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg0, %arg2 : tensor<1x3x6x6xf32>, tensor<2x3x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<3x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%{{.*}} : tensor<3x2x2x2xf32>)
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<3x2x2x2xf32>) outs(%{{.*}} : tensor<2x3x2x2xf32>) permutation = [1, 0, 2, 3]
// CHECK-NOT:     torch.
func.func @conv_transpose_backward(%go: !torch.vtensor<[1,3,6,6],f32>, %x: !torch.vtensor<[1,2,3,3],f32>, %w: !torch.vtensor<[2,3,2,2],f32>) -> (!torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %1 = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %3 = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.convolution_backward %go, %x, %w, %none, %0, %1, %2, %true, %1, %int1, %3 : !torch.vtensor<[1,3,6,6],f32>, !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int, !torch.list<bool> -> !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>, !torch.none
  return %r0, %r1 : !torch.vtensor<[1,2,3,3],f32>, !torch.vtensor<[2,3,2,2],f32>
}
