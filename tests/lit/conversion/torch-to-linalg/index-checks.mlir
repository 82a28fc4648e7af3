// RUN: strata-opt %s --split-input-file --convert-torch-to-linalg | filecheck %s

// [Note: torch.export's run-time assertions]: _assert_scalar (its flag as an int, as
// torch.export writes it) and _assert_async.msg (a 0-d bool tensor) become cf.asserts
// with torch's message.

// CHECK-LABEL: func.func @asserts
// CHECK:         arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK:         cf.assert %{{.*}}, "aten._assert_scalar at {{.*}}: Runtime assertion failed for expression u0 >= 0"
// CHECK:         %[[B:.*]] = tensor.extract %arg1[] : tensor<i1>
// CHECK:         %[[NZ:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i1
// CHECK:         cf.assert %[[NZ]], "aten._assert_async.msg at {{.*}}: one_hot: Class values must be non-negative."
func.func @asserts(%arg0: !torch.vtensor<[],si64>, %arg1: !torch.vtensor<[],i1>) {
  %0 = torch.aten.Int.Tensor %arg0 : !torch.vtensor<[],si64> -> !torch.int
  %int0 = torch.constant.int 0
  %1 = torch.aten.ge.int %0, %int0 : !torch.int, !torch.int -> !torch.bool
  %2 = torch.aten.Int.bool %1 : !torch.bool -> !torch.int
  %str = torch.constant.str "Runtime assertion failed for expression u0 >= 0"
  torch.aten._assert_scalar %2, %str : !torch.int, !torch.str
  %str_0 = torch.constant.str "one_hot: Class values must be non-negative."
  torch.operator "torch.aten._assert_async.msg"(%arg1, %str_0) : (!torch.vtensor<[],i1>, !torch.str) -> ()
  return
}

// -----

// [Note: negative indices]: ATen's gather refuses a negative index, so its check's
// range is [0, 5) (ONNX's GatherElements, the same builder, takes [-5, 5)).

// CHECK-LABEL: func.func @gather
// CHECK:         cf.assert %{{.*}}, "aten.gather at {{.*}}: index out of range [0, 5) on data axis 1"
func.func @gather(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[4,1],si64>) -> !torch.vtensor<[4,1],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.gather %arg0, %int1, %arg1, %false : !torch.vtensor<[4,5],f32>, !torch.int, !torch.vtensor<[4,1],si64>, !torch.bool -> !torch.vtensor<[4,1],f32>
  return %0 : !torch.vtensor<[4,1],f32>
}
