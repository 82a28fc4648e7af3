// RUN: strata-opt %s --split-input-file --convert-torch-to-linalg | filecheck %s

// Complex tensors as real pairs (torch_to_linalg/complex.py, [Note: complex as real
// pairs]): a complex<f32> vtensor is a tensor with a trailing dim of 2, at the function
// boundary too; view_as_complex and view_as_real are the value itself; a complex
// multiply is one generic reading each operand's real (0) and imaginary (1) part, its
// last loop dim picking which part it writes.
// CHECK-LABEL: func.func @rotary(%arg0: tensor<2x4x2xf32>, %arg1: tensor<4x2xf32>) -> tensor<2x4x2xf32>
// CHECK:         linalg.generic {indexing_maps = [#map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}, #map{{[0-9]*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg0, %arg1, %arg1 : tensor<2x4x2xf32>, tensor<2x4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) outs(%{{.*}} : tensor<2x4x2xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.subf
// CHECK:           arith.addf
// CHECK:           linalg.index 2 : index
// CHECK:           arith.select
// CHECK-NOT:     torch.
func.func @rotary(%x: !torch.vtensor<[2,4,2],f32>, %f: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[2,4,2],f32> {
  %0 = torch.aten.view_as_complex %x : !torch.vtensor<[2,4,2],f32> -> !torch.vtensor<[2,4],complex<f32>>
  %1 = torch.aten.mul.Tensor %0, %f : !torch.vtensor<[2,4],complex<f32>>, !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[2,4],complex<f32>>
  %2 = torch.aten.view_as_real %1 : !torch.vtensor<[2,4],complex<f32>> -> !torch.vtensor<[2,4,2],f32>
  return %2 : !torch.vtensor<[2,4,2],f32>
}

// -----

// Layout ops run the real lowering on the pairs, their dims read against the complex
// rank: permute's dims get the pair dim last, a view's sizes end with 2, dim -1 of a
// slice is the complex tensor's last dim, not the pair dim.
// CHECK-LABEL: func.func @layout(%arg0: tensor<2x3x2xf32>) -> tensor<1x2x2xf32>
// CHECK:         linalg.transpose ins(%arg0 : tensor<2x3x2xf32>) outs(%{{.*}} : tensor<3x2x2xf32>) permutation = [1, 0, 2]
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<3x2x2xf32> into tensor<6x2xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 3, 2] : tensor<6x2xf32> into tensor<2x3x2xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0] [1, 3, 2] [1, 1, 1] : tensor<2x3x2xf32> to tensor<1x3x2xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 1, 0] [1, 2, 2] [1, 1, 1] : tensor<1x3x2xf32> to tensor<1x2x2xf32>
// CHECK-NOT:     torch.
func.func @layout(%x: !torch.vtensor<[2,3],complex<f32>>) -> !torch.vtensor<[1,2],complex<f32>> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int-1 = torch.constant.int -1
  %p = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.permute %x, %p : !torch.vtensor<[2,3],complex<f32>>, !torch.list<int> -> !torch.vtensor<[3,2],complex<f32>>
  %s = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %0, %s : !torch.vtensor<[3,2],complex<f32>>, !torch.list<int> -> !torch.vtensor<[2,3],complex<f32>>
  %2 = torch.aten.slice.Tensor %1, %int0, %int0, %int1, %int1 : !torch.vtensor<[2,3],complex<f32>>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[1,3],complex<f32>>
  %3 = torch.aten.slice.Tensor %2, %int-1, %int1, %int3, %int1 : !torch.vtensor<[1,3],complex<f32>>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[1,2],complex<f32>>
  return %3 : !torch.vtensor<[1,2],complex<f32>>
}

// -----

// abs of complex values: a real result (no pair dim), |z| as a scaled hypot.
// CHECK-LABEL: func.func @abs(%arg0: tensor<5x2xf32>) -> tensor<5xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0, %arg0 : tensor<5x2xf32>, tensor<5x2xf32>) outs(%{{.*}} : tensor<5xf32>)
// CHECK:           math.sqrt
func.func @abs(%x: !torch.vtensor<[5],complex<f32>>) -> !torch.vtensor<[5],f32> {
  %0 = torch.aten.abs %x : !torch.vtensor<[5],complex<f32>> -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// rfft (aten._fft_r2c, onesided): the DFT builder ONNX's DFT uses; N static, so a
// product of the 8 samples with the constant [8, 5 * 2] table of twiddles ([Note:
// twiddle tables]), the bins' pairs expanded back.
// CHECK-LABEL: func.func @rfft(%arg0: tensor<3x8xf32>) -> tensor<3x5x2xf32>
// CHECK:         %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<8x10xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[T]] : tensor<3x8xf32>, tensor<8x10xf32>) outs(%{{.*}} : tensor<3x10xf32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [3, 5, 2] : tensor<3x10xf32> into tensor<3x5x2xf32>
// CHECK-NOT:     torch.
func.func @rfft(%x: !torch.vtensor<[3,8],f32>) -> !torch.vtensor<[3,5],complex<f32>> {
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %1 = torch.operator "torch.aten._fft_r2c"(%x, %0, %int0, %true) : (!torch.vtensor<[3,8],f32>, !torch.list<int>, !torch.int, !torch.bool) -> !torch.vtensor<[3,5],complex<f32>>
  return %1 : !torch.vtensor<[3,5],complex<f32>>
}

// -----

// A complex dense literal: its pairs as a real constant.
// CHECK-LABEL: func.func @literal(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:         arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [-3.000000e+00, 5.000000e-01]]> : tensor<2x2xf32>
func.func @literal(%x: !torch.vtensor<[2],complex<f32>>) -> !torch.vtensor<[2],complex<f32>> {
  %0 = torch.vtensor.literal(dense<[(1.000000e+00,2.000000e+00), (-3.000000e+00,5.000000e-01)]> : tensor<2xcomplex<f32>>) : !torch.vtensor<[2],complex<f32>>
  %int1 = torch.constant.int 1
  %1 = torch.aten.add.Tensor %x, %0, %int1 : !torch.vtensor<[2],complex<f32>>, !torch.vtensor<[2],complex<f32>>, !torch.int -> !torch.vtensor<[2],complex<f32>>
  return %1 : !torch.vtensor<[2],complex<f32>>
}
