// torch-externalize-weights (strata/frontends/torch/externalize.py): the dense_resource
// literals of an imported program become ml_program globals, one per blob, typed as the
// signless builtin tensor, named after the blob unless that symbol is taken (@idx is the
// function); dense literals stay. The output is read back by iree-opt in
// tests/unit/frontends/torch/test_torch_externalize_weights.py.
// RUN: strata-opt %s --split-input-file --torch-externalize-weights | filecheck %s

// CHECK-LABEL: module {
//  CHECK-NEXT:   ml_program.global private @fc.weight(dense_resource<fc.weight> : tensor<2x2xf32>) : tensor<2x2xf32>
//  CHECK-NEXT:   ml_program.global private @idx_1(dense_resource<idx> : tensor<2xi64>) : tensor<2xi64>
//  CHECK-NEXT:   ml_program.global private @idx_0(dense_resource<idx_0> : tensor<2xi64>) : tensor<2xi64>
//  CHECK-NEXT:   func.func @idx(
//  CHECK-NEXT:     %fc.weight = ml_program.global_load_const @fc.weight : tensor<2x2xf32>
//  CHECK-NEXT:     %0 = torch_c.from_builtin_tensor %fc.weight : tensor<2x2xf32> -> !torch.vtensor<[2,2],f32>
//  CHECK-NEXT:     %fc.weight_0 = ml_program.global_load_const @fc.weight : tensor<2x2xf32>
//  CHECK-NEXT:     %1 = torch_c.from_builtin_tensor %fc.weight_0 : tensor<2x2xf32> -> !torch.vtensor<[2,2],f32>
//  CHECK-NEXT:     %int1 = torch.constant.int 1
//  CHECK-NEXT:     %2 = torch.aten.add.Tensor %0, %1, %int1 : !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>, !torch.int -> !torch.vtensor<[2,2],f32>
//  CHECK-NEXT:     %3 = torch.vtensor.literal(dense<2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
//  CHECK-NEXT:     %idx_1 = ml_program.global_load_const @idx_1 : tensor<2xi64>
//  CHECK-NEXT:     %4 = torch_c.from_builtin_tensor %idx_1 : tensor<2xi64> -> !torch.vtensor<[2],si64>
//  CHECK-NEXT:     %idx_0 = ml_program.global_load_const @idx_0 : tensor<2xi64>
//  CHECK-NEXT:     %5 = torch_c.from_builtin_tensor %idx_0 : tensor<2xi64> -> !torch.vtensor<[2],si64>
//  CHECK-NEXT:     return %2, %3, %4, %5 :
//       CHECK: dialect_resources
//  CHECK-NEXT:   builtin: {
//  CHECK-NEXT:     fc.weight: "0x040000000000803F000000400000404000008040",
//  CHECK-NEXT:     idx: "0x0800000001000000000000000000000000000000",
//  CHECK-NEXT:     idx_0: "0x0800000001000000000000000000000000000000"
func.func @idx(%x: !torch.vtensor<[2,2],f32>) -> (!torch.vtensor<[2,2],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>) {
  %w = torch.vtensor.literal(dense_resource<fc.weight> : tensor<2x2xf32>) : !torch.vtensor<[2,2],f32>
  %w2 = torch.vtensor.literal(dense_resource<fc.weight> : tensor<2x2xf32>) : !torch.vtensor<[2,2],f32>
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %w, %w2, %int1 : !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],f32>, !torch.int -> !torch.vtensor<[2,2],f32>
  %c = torch.vtensor.literal(dense<2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %i = torch.vtensor.literal(dense_resource<idx> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  %j = torch.vtensor.literal(dense_resource<idx_0> : tensor<2xsi64>) : !torch.vtensor<[2],si64>
  return %0, %c, %i, %j : !torch.vtensor<[2,2],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
}

{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F000000400000404000008040",
      idx: "0x0800000001000000000000000000000000000000",
      idx_0: "0x0800000001000000000000000000000000000000"
    }
  }
#-}

// -----

// One blob read as tensors of two types: a global for each type.
// CHECK-LABEL: module {
//  CHECK-NEXT:   ml_program.global private @b(dense_resource<b> : tensor<4xf32>) : tensor<4xf32>
//  CHECK-NEXT:   ml_program.global private @b_1(dense_resource<b> : tensor<2x2xf32>) : tensor<2x2xf32>
//  CHECK-NEXT:   func.func @two_types(
//  CHECK-NEXT:     %b = ml_program.global_load_const @b : tensor<4xf32>
//  CHECK-NEXT:     %0 = torch_c.from_builtin_tensor %b : tensor<4xf32> -> !torch.vtensor<[4],f32>
//  CHECK-NEXT:     %b_1 = ml_program.global_load_const @b_1 : tensor<2x2xf32>
//  CHECK-NEXT:     %1 = torch_c.from_builtin_tensor %b_1 : tensor<2x2xf32> -> !torch.vtensor<[2,2],f32>
func.func @two_types() -> (!torch.vtensor<[4],f32>, !torch.vtensor<[2,2],f32>) {
  %0 = torch.vtensor.literal(dense_resource<b> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %1 = torch.vtensor.literal(dense_resource<b> : tensor<2x2xf32>) : !torch.vtensor<[2,2],f32>
  return %0, %1 : !torch.vtensor<[4],f32>, !torch.vtensor<[2,2],f32>
}

{-#
  dialect_resources: {
    builtin: {
      b: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
