// RUN: strata-opt %s --split-input-file --convert-torch-to-linalg | filecheck %s

// View ops of torch_to_linalg/views.py that read or write through strides.

// unfold(x, 2, 3, 2): (8 - 3) // 2 + 1 = 3 windows of 3 along the last dim, the window
// dim appended; each element read at w * 2 + k.
// CHECK-LABEL: func.func @unfold
// CHECK:         linalg.generic
// CHECK:           linalg.index 2
// CHECK:           linalg.index 3
// CHECK:           tensor.extract %arg0
// CHECK:         -> tensor<2x3x3x3xf32>
// CHECK-NOT:     torch.
func.func @unfold(%arg0: !torch.vtensor<[2,3,8],f32>) -> !torch.vtensor<[2,3,3,3],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int2_0 = torch.constant.int 2
  %0 = torch.aten.unfold %arg0, %int2, %int3, %int2_0 : !torch.vtensor<[2,3,8],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,3,3,3],f32>
  return %0 : !torch.vtensor<[2,3,3,3],f32>
}

// -----

// as_strided_scatter(x, src, [2, 3], [6, 2], 1): x's 24 elements flattened, src written
// at 1 + 6 i + 2 j in a loop nest over src, reshaped back (the last position, 12, is
// within 24: no run-time check).
// CHECK-LABEL: func.func @as_strided_scatter
// CHECK:         tensor.collapse_shape %arg0
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             tensor.extract %arg1
// CHECK:             tensor.insert
// CHECK-NOT:     cf.assert
// CHECK:         tensor.expand_shape {{.*}} output_shape [4, 6]
// CHECK-NOT:     torch.
func.func @as_strided_scatter(%arg0: !torch.vtensor<[4,6],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,6],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %int6 = torch.constant.int 6
  %int2_0 = torch.constant.int 2
  %1 = torch.prim.ListConstruct %int6, %int2_0 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %2 = torch.aten.as_strided_scatter %arg0, %arg1, %0, %1, %int1 : !torch.vtensor<[4,6],f32>, !torch.vtensor<[2,3],f32>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[4,6],f32>
  return %2 : !torch.vtensor<[4,6],f32>
}
