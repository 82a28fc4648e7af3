// RUN: not strata-opt %s --split-input-file --convert-torch-to-linalg 2>&1 | filecheck %s

// An op without a lowering fails the pass at its location (the importer's: the
// user's Python line), naming the ATen op, also when it is a generic torch.operator.
// CHECK: model.py:12:0: error: no lowering to linalg for the ATen op 'aten.special_bessel_j0' (torch.operator)
func.func @no_lowering(%a: !torch.vtensor<[12],f32>) -> !torch.vtensor<[12],f32> {
  %0 = torch.operator "torch.aten.special_bessel_j0"(%a) : (!torch.vtensor<[12],f32>) -> !torch.vtensor<[12],f32> loc(fused["model.py":12:0, "special_bessel_j0"])
  return %0 : !torch.vtensor<[12],f32>
}

// -----

// A lowering that declines says why, at the op.
// CHECK: unlowerable.mlir:[[# @LINE + 5]]:8: error: failed to legalize operation 'torch.aten.view'
// CHECK: note: pattern '_LowerTorchOp' did not apply: aten.view: only one dimension can be inferred
func.func @two_holes(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[?,?],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-1, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %a, %0 : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[?,?],f32>
  return %1 : !torch.vtensor<[?,?],f32>
}

// -----

// A static size that contradicts the input is refused at compile time.
// CHECK: unlowerable.mlir:[[# @LINE + 5]]:8: error: failed to legalize operation 'torch.aten.view'
// CHECK: note: pattern '_LowerTorchOp' did not apply: aten.view: {{.*}}
func.func @wrong_count(%a: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[7],f32> {
  %int7 = torch.constant.int 7
  %0 = torch.prim.ListConstruct %int7 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.view %a, %0 : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[7],f32>
  return %1 : !torch.vtensor<[7],f32>
}

// -----

// An op on complex tensors ([Note: complex as real pairs]) that has no complex lowering
// is named as such: the real lowering never runs on the pairs.
// CHECK: model.py:20:0: error: no lowering to linalg for the ATen op 'aten.tan' on complex tensors (torch.aten.tan)
func.func @complex_without_lowering(%x: !torch.vtensor<[5],complex<f32>>) -> !torch.vtensor<[5],complex<f32>> {
  %0 = torch.aten.tan %x : !torch.vtensor<[5],complex<f32>> -> !torch.vtensor<[5],complex<f32>> loc(fused["model.py":20:0, "tan"])
  return %0 : !torch.vtensor<[5],complex<f32>>
}
