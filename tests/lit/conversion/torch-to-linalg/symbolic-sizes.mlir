// RUN: strata-opt %s --convert-torch-to-linalg | filecheck %s

// [Note: symbolic sizes checked in the generated code]: torch.export's symbols and the
// dims derived from them become checks at the lowered entry. %x's dim 0 gives s77 (its
// range [1, 12], with the user's Dim name), %w's dim 0 must equal it, %y's must be
// 2*s77; s50 is given only by %v's dim 0 (2*s50 + 1: solved, n - 1 a non-negative
// multiple of 2); s44 has no upper bound (torch's int_oo) and a minimum of 0: nothing
// to check.

// CHECK-LABEL: func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<?x3xf32>, %arg2: tensor<?x3xf32>, %arg3: tensor<?xf32>, %arg4: tensor<?xf32>)
// CHECK:         %[[X:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[W:.*]] = tensor.dim %arg2, %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[W]], %[[X]] : index
// CHECK:         cf.assert %[[SAME]], "input #2 ('w') dim 0 must equal input #0 ('x') dim 0: both are the size Dim 'batch' (s77)"
// CHECK:         %[[V:.*]] = tensor.dim %arg3, %{{.*}} : tensor<?xf32>
// CHECK:         %[[REST:.*]] = arith.subi %[[V]], %{{.*}} : index
// CHECK:         cf.assert %{{.*}}, "input #3 ('v') dim 0 must be a size of the form s50 * 2 + 1"
// CHECK:         %[[S50:.*]] = arith.divsi %[[REST]], %{{.*}} : index
// CHECK:         %[[GE:.*]] = arith.cmpi sge, %[[X]], %{{.*}} : index
// CHECK:         %[[LE:.*]] = arith.cmpi sle, %[[X]], %{{.*}} : index
// CHECK:         %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK:         cf.assert %[[IN]], "input #0 ('x') dim 0 is the size Dim 'batch' (s77), but the program was exported for s77 in [1, 12]"
// CHECK:         cf.assert %{{.*}}, "input #3 ('v') dim 0 is the size s50 (solved from s50 * 2 + 1), but the program was exported for s50 in [2, 8]"
// CHECK-NOT:     s44 in
// CHECK:         %[[TWICE:.*]] = arith.muli %[[X]], %{{.*}} : index
// CHECK:         %[[Y:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x3xf32>
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[Y]], %[[TWICE]] : index
// CHECK:         cf.assert %[[OK]], "input #1 ('y') dim 0 must be s77 * 2 as the program's shapes make it (Dim 'batch' (s77) from input #0 ('x') dim 0)"
// CHECK-NOT:     cf.assert
// CHECK:         return
func.func @main(%x: !torch.vtensor<[?,3],f32> loc("x"), %y: !torch.vtensor<[?,3],f32> loc("y"), %w: !torch.vtensor<[?,3],f32> loc("w"), %v: !torch.vtensor<[?],f32> loc("v"), %u: !torch.vtensor<[?],f32> loc("u")) -> !torch.vtensor<[?,3],f32> {
  %0 = torch.symbolic_int "s77" {min_val = 1, max_val = 12} {strata.dim_name = "batch"} : !torch.int
  %1 = torch.symbolic_int "s50" {min_val = 2, max_val = 8} : !torch.int
  %2 = torch.symbolic_int "s44" {min_val = 0, max_val = 9223372036854775806} : !torch.int
  torch.bind_symbolic_shape %x, [%0], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %y, [%0], affine_map<()[s0] -> (s0 * 2, 3)> : !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %w, [%0], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %v, [%1], affine_map<()[s0] -> (s0 * 2 + 1)> : !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %u, [%2], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return %x : !torch.vtensor<[?,3],f32>
}
