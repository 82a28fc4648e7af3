// RUN: strata-opt %s --split-input-file --convert-torch-to-linalg | filecheck %s

// The composite ops of torch.export's training IR (torch_to_linalg/composite.py),
// lowered to what their decompositions reach.

// conv2d (training IR): the convolution builder of aten.convolution: padding 1 on both ends,
// stride 2, the bias broadcast into the init.
// CHECK-LABEL: func.func @conv2d
// CHECK:         tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK:         -> tensor<1x4x4x4xf32>
// CHECK-NOT:     torch.
func.func @conv2d(%arg0: !torch.vtensor<[1,2,7,7],f32>, %arg1: !torch.vtensor<[4,2,3,3],f32>, %arg2: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,4,4],f32> {
  %int2 = torch.constant.int 2
  %int2_0 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int1_1 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1, %int1_1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_2 = torch.constant.int 1
  %int1_3 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1_2, %int1_3 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_4 = torch.constant.int 1
  %3 = torch.aten.conv2d %arg0, %arg1, %arg2, %0, %1, %2, %int1_4 : !torch.vtensor<[1,2,7,7],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.vtensor<[4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,4],f32>
  return %3 : !torch.vtensor<[1,4,4,4],f32>
}

// -----

// conv2d.padding "same" with an even kernel (2x4): dilation * (k - 1) padded in all, the
// odd one at the end.
// CHECK-LABEL: func.func @conv2d_same
// CHECK:         tensor.pad %arg0 low[0, 0, 0, 1] high[0, 0, 1, 2]
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         -> tensor<1x3x6x6xf32>
// CHECK-NOT:     torch.
func.func @conv2d_same(%arg0: !torch.vtensor<[1,2,6,6],f32>, %arg1: !torch.vtensor<[3,2,2,4],f32>) -> !torch.vtensor<[1,3,6,6],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int1_0 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int1_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %str = torch.constant.str "same"
  %int1_1 = torch.constant.int 1
  %int1_2 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1_1, %int1_2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_3 = torch.constant.int 1
  %2 = torch.aten.conv2d.padding %arg0, %arg1, %none, %0, %str, %1, %int1_3 : !torch.vtensor<[1,2,6,6],f32>, !torch.vtensor<[3,2,2,4],f32>, !torch.none, !torch.list<int>, !torch.str, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,6,6],f32>
  return %2 : !torch.vtensor<[1,3,6,6],f32>
}

// -----

// conv_transpose2d.input: the transposed convolution of aten.convolution(transposed=true).
// CHECK-LABEL: func.func @conv_transpose2d
// CHECK:         tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 2]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         -> tensor<1x2x6x6xf32>
// CHECK-NOT:     torch.
func.func @conv_transpose2d(%arg0: !torch.vtensor<[1,4,3,3],f32>, %arg1: !torch.vtensor<[4,2,3,3],f32>) -> !torch.vtensor<[1,2,6,6],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int2_0 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %int1_1 = torch.constant.int 1
  %1 = torch.prim.ListConstruct %int1, %int1_1 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_2 = torch.constant.int 1
  %int1_3 = torch.constant.int 1
  %2 = torch.prim.ListConstruct %int1_2, %int1_3 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1_4 = torch.constant.int 1
  %int1_5 = torch.constant.int 1
  %int1_6 = torch.constant.int 1
  %3 = torch.prim.ListConstruct %int1_5, %int1_6 : (!torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.aten.conv_transpose2d.input %arg0, %arg1, %none, %0, %1, %2, %int1_4, %3 : !torch.vtensor<[1,4,3,3],f32>, !torch.vtensor<[4,2,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int, !torch.list<int> -> !torch.vtensor<[1,2,6,6],f32>
  return %4 : !torch.vtensor<[1,2,6,6],f32>
}

// -----

// batch_norm in inference: normalization.batch_norm with the running statistics
// (arguments 3 and 4), eps 1e-3.
// CHECK-LABEL: func.func @batch_norm
// CHECK:         ins(%arg0, %arg3, %arg4, %arg1, %arg2 :
// CHECK:         math.sqrt
// CHECK:         arith.divf
// CHECK-NOT:     torch.
func.func @batch_norm(%arg0: !torch.vtensor<[2,3,4,4],f32>, %arg1: !torch.vtensor<[3],f32>, %arg2: !torch.vtensor<[3],f32>, %arg3: !torch.vtensor<[3],f32>, %arg4: !torch.vtensor<[3],f32>) -> !torch.vtensor<[2,3,4,4],f32> {
  %false = torch.constant.bool false
  %float1.000000e-01 = torch.constant.float 1.000000e-01
  %float1.000000e-03 = torch.constant.float 1.000000e-03
  %false_0 = torch.constant.bool false
  %0 = torch.aten.batch_norm %arg0, %arg3, %arg4, %arg1, %arg2, %false, %float1.000000e-01, %float1.000000e-03, %false_0 : !torch.vtensor<[2,3,4,4],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,4],f32>
  return %0 : !torch.vtensor<[2,3,4,4],f32>
}

// -----

// layer_norm: native_layer_norm's computation, its first result only.
// CHECK-LABEL: func.func @layer_norm
// CHECK:         iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         math.rsqrt
// CHECK:         return %{{.*}} : tensor<2x5x8xf32>
// CHECK-NOT:     torch.
func.func @layer_norm(%arg0: !torch.vtensor<[2,5,8],f32>, %arg1: !torch.vtensor<[8],f32>, %arg2: !torch.vtensor<[8],f32>) -> !torch.vtensor<[2,5,8],f32> {
  %int8 = torch.constant.int 8
  %0 = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %float1.000000e-05 = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %1 = torch.aten.layer_norm %arg0, %0, %arg1, %arg2, %float1.000000e-05, %false : !torch.vtensor<[2,5,8],f32>, !torch.list<int>, !torch.vtensor<[8],f32>, !torch.vtensor<[8],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,5,8],f32>
  return %1 : !torch.vtensor<[2,5,8],f32>
}

// -----

// dropout in eval is its input; flatten(1, 2) one collapse_shape.
// CHECK-LABEL: func.func @dropout_flatten
// CHECK:         %collapsed = tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2], [3]] : tensor<2x3x4x5xf32> into tensor<2x12x5xf32>
// CHECK:         return %collapsed
// CHECK-NOT:     torch.
func.func @dropout_flatten(%arg0: !torch.vtensor<[2,3,4,5],f32>) -> !torch.vtensor<[2,12,5],f32> {
  %float3.000000e-01 = torch.constant.float 3.000000e-01
  %false = torch.constant.bool false
  %0 = torch.aten.dropout %arg0, %float3.000000e-01, %false : !torch.vtensor<[2,3,4,5],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,3,4,5],f32>
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %1 = torch.aten.flatten.using_ints %0, %int1, %int2 : !torch.vtensor<[2,3,4,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,12,5],f32>
  return %1 : !torch.vtensor<[2,12,5],f32>
}

// -----

// scaled_dot_product_attention with a bool mask ([Note: attention lowered whole]): q @ k^T,
// the mask as 0 / -inf, scale and mask in one generic, softmax, zeros for rows that
// are all -inf (torch's _safe_softmax, as its decomposition writes it: some score of the
// row is not -inf), then @ v.
// CHECK-LABEL: func.func @sdpa_bool_mask
// CHECK:         linalg.transpose ins(%arg1 : tensor<1x2x6x8xf32>) outs(%{{.*}} : tensor<1x2x8x6xf32>) permutation = [0, 1, 3, 2]
// CHECK:         linalg.batch_matmul
// CHECK:         arith.select %in, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:         arith.maximumf
// CHECK:         math.exp
// CHECK:         arith.cmpf oeq
// CHECK:         arith.xori
// CHECK:         arith.ori
// CHECK:         arith.select
// CHECK:         linalg.batch_matmul
// CHECK:         return %{{.*}} : tensor<1x2x4x8xf32>
// CHECK-NOT:     torch.
func.func @sdpa_bool_mask(%arg0: !torch.vtensor<[1,2,4,8],f32>, %arg1: !torch.vtensor<[1,2,6,8],f32>, %arg2: !torch.vtensor<[1,2,6,8],f32>, %arg3: !torch.vtensor<[1,1,4,6],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0.000000e00 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %false_0 = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3, %float0.000000e00, %false, %none, %false_0 : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,1,4,6],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// scaled_dot_product_attention of rank-3 q, k, v with an explicit scale, no mask: no
// _safe_softmax select.
// CHECK-LABEL: func.func @sdpa_scale
// CHECK:         linalg.batch_matmul ins(%arg0, %transposed
// CHECK:         arith.mulf %in, %{{.*}} : f32
// CHECK:         math.exp
// CHECK:         arith.divf
// CHECK:         linalg.batch_matmul
// CHECK:         -> tensor<2x4x8xf32>
// CHECK-NOT:     torch.
func.func @sdpa_scale(%arg0: !torch.vtensor<[2,4,8],f32>, %arg1: !torch.vtensor<[2,6,8],f32>, %arg2: !torch.vtensor<[2,6,8],f32>) -> !torch.vtensor<[2,4,8],f32> {
  %none = torch.constant.none
  %float0.000000e00 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %float5.000000e-01 = torch.constant.float 5.000000e-01
  %false_0 = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %none, %float0.000000e00, %false, %float5.000000e-01, %false_0 : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,6,8],f32>, !torch.vtensor<[2,6,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[2,4,8],f32>
  return %0 : !torch.vtensor<[2,4,8],f32>
}

// -----

// to.device (with a dtype) is a cast; __and__.Tensor is bitwise_and.
// CHECK-LABEL: func.func @to_and
// CHECK:         arith.extf %{{.*}} : f32 to f64
// CHECK:         arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NOT:     torch.
func.func @to_and(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.vtensor<[3],i1>, %arg2: !torch.vtensor<[3],i1>) -> !torch.vtensor<[3],f64> {
  %none = torch.constant.none
  %none_0 = torch.constant.none
  %int6 = torch.constant.int 6
  %cpu = torch.constant.device "cpu"
  %int0 = torch.constant.int 0
  torch.aten._assert_tensor_metadata %arg0, %none, %none_0, %int6, %cpu, %int0 : !torch.vtensor<[3],f32>, !torch.none, !torch.none, !torch.int, !torch.Device, !torch.int
  %cpu_1 = torch.constant.device "cpu"
  %int7 = torch.constant.int 7
  %false = torch.constant.bool false
  %false_2 = torch.constant.bool false
  %none_3 = torch.constant.none
  %0 = torch.aten.to.device %arg0, %cpu_1, %int7, %false, %false_2, %none_3 : !torch.vtensor<[3],f32>, !torch.Device, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],f64>
  %1 = torch.aten.__and__.Tensor %arg1, %arg2 : !torch.vtensor<[3],i1>, !torch.vtensor<[3],i1> -> !torch.vtensor<[3],i1>
  %none_4 = torch.constant.none
  %none_5 = torch.constant.none
  %int11 = torch.constant.int 11
  %cpu_6 = torch.constant.device "cpu"
  %int0_7 = torch.constant.int 0
  torch.aten._assert_tensor_metadata %1, %none_4, %none_5, %int11, %cpu_6, %int0_7 : !torch.vtensor<[3],i1>, !torch.none, !torch.none, !torch.int, !torch.Device, !torch.int
  %int7_8 = torch.constant.int 7
  %false_9 = torch.constant.bool false
  %false_10 = torch.constant.bool false
  %none_11 = torch.constant.none
  %2 = torch.aten.to.dtype %1, %int7_8, %false_9, %false_10, %none_11 : !torch.vtensor<[3],i1>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3],f64>
  %int1 = torch.constant.int 1
  %3 = torch.aten.add.Tensor %0, %2, %int1 : !torch.vtensor<[3],f64>, !torch.vtensor<[3],f64>, !torch.int -> !torch.vtensor<[3],f64>
  return %3 : !torch.vtensor<[3],f64>
}

// -----

// diff(n=2, dim=1, prepend): the prepended values first, then twice a[1:] - a[:-1].
// CHECK-LABEL: func.func @diff
// CHECK:         tensor.concat dim(1) %arg1, %arg0
// CHECK:         tensor.extract_slice %concat[0, 1] [2, 5] [1, 1]
// CHECK:         tensor.extract_slice %concat[0, 0] [2, 5] [1, 1]
// CHECK:         arith.subf
// CHECK:         arith.subf
// CHECK:         return %{{.*}} : tensor<2x4xf32>
// CHECK-NOT:     torch.
func.func @diff(%arg0: !torch.vtensor<[2,5],f32>, %arg1: !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,4],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.operator "torch.aten.diff"(%arg0, %int2, %int1, %arg1, %none) : (!torch.vtensor<[2,5],f32>, !torch.int, !torch.int, !torch.vtensor<[2,1],f32>, !torch.none) -> !torch.vtensor<[2,4],f32> 
  return %0 : !torch.vtensor<[2,4],f32>
}
// -----

// is_causal: -inf added to the score of key j for query i where j > i, in the scaling
// generic (as torch's math kernel adds its bias).
// CHECK-LABEL: func.func @sdpa_causal
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.index 1 : index
// CHECK:         linalg.index 2 : index
// CHECK:         arith.mulf
// CHECK:         arith.cmpi sle
// CHECK:         arith.select
// CHECK:         arith.addf
// CHECK:         math.exp
// CHECK:         linalg.batch_matmul
// CHECK-NOT:     torch.
func.func @sdpa_causal(%arg0: !torch.vtensor<[2,3,4],f32>, %arg1: !torch.vtensor<[2,5,4],f32>, %arg2: !torch.vtensor<[2,5,4],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %none = torch.constant.none
  %float0.000000e00 = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %none_0 = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %none, %float0.000000e00, %true, %none_0, %false : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,5,4],f32>, !torch.vtensor<[2,5,4],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}
