// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Every diagnostic here is upstream's: iree-opt --split-input-file --verify-diagnostics
// accepts this file too (tests/unit/test_torch_dialect.py runs it).

func.func @operand_type(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.add.Tensor' op operand #1 must be Any Torch tensor type, but got '!torch.int'}}
  %0 = torch.aten.add.Tensor %a, %i, %i : !torch.vtensor<[2],f32>, !torch.int, !torch.int -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @custom_operand_count(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{custom op 'torch.aten.add.Tensor' expected 3 operands}}
  %0 = torch.aten.add.Tensor %a, %a : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @generic_operand_count(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{'torch.aten.add.Tensor' op expected 3 operands, but found 2}}
  %0 = "torch.aten.add.Tensor"(%a, %a) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @single_operand(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{'torch.aten.relu' op requires a single operand}}
  %0 = "torch.aten.relu"(%a, %a) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @one_result(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.add.Tensor' op requires one result}}
  "torch.aten.add.Tensor"(%a, %a, %i) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int) -> ()
  return
}

// -----

func.func @n_results(%a: !torch.vtensor<[2],f32>, %i: !torch.int, %b: !torch.bool) {
  // expected-error @+1 {{'torch.aten.max.dim' op expected 2 results}}
  %0:3 = "torch.aten.max.dim"(%a, %i, %b) : (!torch.vtensor<[2],f32>, !torch.int, !torch.bool) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>)
  return
}

// -----

func.func @zero_results(%i: !torch.int, %s: !torch.str) {
  // expected-error @+1 {{'torch.aten._assert_scalar' op requires zero results}}
  %0 = "torch.aten._assert_scalar"(%i, %s) : (!torch.int, !torch.str) -> !torch.int
  return
}

// -----

func.func @regions(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.add.Tensor' op requires zero regions}}
  %0 = "torch.aten.add.Tensor"(%a, %a, %i) ({}) : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int) -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @result_type(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.add.Tensor' op result #0 must be Optional torch tensor type, but got '!torch.int'}}
  %0 = torch.aten.add.Tensor %a, %a, %i : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.int
  return
}

// -----

func.func @optional_int_list(%a: !torch.vtensor<[2],f32>, %i: !torch.int, %b: !torch.bool, %n: !torch.none) {
  // expected-error @+1 {{'torch.aten.mean.dim' op operand #1 must be Optional torch int list type (int[]?), but got '!torch.int'}}
  %0 = torch.aten.mean.dim %a, %i, %b, %n : !torch.vtensor<[2],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @int_list(%a: !torch.vtensor<[2],f32>, %l: !torch.list<float>) {
  // expected-error @+1 {{'torch.aten.view' op operand #1 must be Int list type (int[]) of Torch IntType values, but got '!torch.list<float>'}}
  %0 = torch.aten.view %a, %l : !torch.vtensor<[2],f32>, !torch.list<float> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @tensor_list(%l: !torch.list<float>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.cat' op operand #0 must be Any int list type (Tensor[]) of Any Torch tensor type values, but got '!torch.list<float>'}}
  %0 = torch.aten.cat %l, %i : !torch.list<float>, !torch.int -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @bool_is_not_a_scalar(%a: !torch.vtensor<[2],f32>, %b: !torch.bool) {
  // expected-error @+1 {{'torch.aten.add.Scalar' op operand #1 must be Any Python numeric type compatible with being the scalar type of a tensor, but got '!torch.bool'}}
  %0 = torch.aten.add.Scalar %a, %b, %b : !torch.vtensor<[2],f32>, !torch.bool, !torch.bool -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @inplace_takes_non_value_tensors(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{'torch.aten.add_.Tensor' op operand #0 must be Multi-dimensional array modeling Torch's Tensor type, but got '!torch.vtensor<[2],f32>'}}
  %0 = torch.aten.add_.Tensor %a, %a, %i : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @custom_type_count(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {
  // expected-error @+1 {{custom op 'torch.aten.add.Tensor' number of operands and types do not match: got 3 operands and 2 types}}
  %0 = torch.aten.add.Tensor %a, %a, %i : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @list_element(%i: !torch.int, %f: !torch.float) {
  // expected-error @+1 {{operand types should have the same type as the list contained type}}
  %0 = torch.prim.ListConstruct %i, %f : (!torch.int, !torch.float) -> !torch.list<int>
  return
}

// -----

func.func @tuple_elements(%i: !torch.int, %f: !torch.float) {
  // expected-error @+1 {{'torch.prim.TupleConstruct' op failed to verify that contained types correspond to operand types}}
  %0 = torch.prim.TupleConstruct %i, %f : !torch.int, !torch.float -> !torch.tuple<int, int>
  return
}

// -----

func.func @to_builtin_tensor(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{operand and result must have the same size and dtype}}
  %0 = torch_c.to_builtin_tensor %a : !torch.vtensor<[2],f32> -> tensor<3xf32>
  return
}

// -----

// expected-error @+1 {{invalid size -3 for !torch.tensor type}}
func.func private @bad_size(!torch.vtensor<[2,-3],f32>)

// -----

// expected-error @+1 {{invalid dtype 'i32' for !torch.tensor type}}
func.func private @signless_dtype(!torch.list<vtensor<[2],i32>>)

// -----

// expected-error @+1 {{unknown  type `foo` in dialect `torch`}}
func.func private @unknown_type(!torch.foo)

// -----

// expected-error @+1 {{expected ']'}}
func.func private @bad_sizes(!torch.vtensor<[a],f32>)

// -----

func.func @copy_sizes(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{'torch.copy.to_tensor' op failed to verify that operand is corresponding !torch.vtensor}}
  %0 = "torch.copy.to_tensor"(%a) : (!torch.vtensor<[2],f32>) -> !torch.tensor<[3],f32>
  return
}

// -----

func.func @bind_symbol_count(%a: !torch.vtensor<[?],f32>) {
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 8} : !torch.int
  // expected-error @+1 {{'torch.bind_symbolic_shape' op requires equal number of shape symbol args and symbol args to the attached affine map, since they are 1:1 mapped}}
  torch.bind_symbolic_shape %a, [%0, %0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return
}

// -----

func.func @bind_symbol_producer(%a: !torch.vtensor<[?],f32>) {
  %i = torch.constant.int 3
  // expected-error @+1 {{'torch.bind_symbolic_shape' op shape symbol must be produced by a SymbolicIntOp}}
  torch.bind_symbolic_shape %a, [%i], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return
}

// -----

func.func @copy_to_vtensor_dtype(%a: !torch.tensor<[2],f32>) {
  // expected-error @+1 {{'torch.copy.to_vtensor' op failed to verify that operand is corresponding !torch.tensor}}
  %0 = "torch.copy.to_vtensor"(%a) : (!torch.tensor<[2],f32>) -> !torch.vtensor<[2],f16>
  return
}

// -----

func.func @list_of_less_static_tensors(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[3],f32>) {
  %0 = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],f32>, !torch.vtensor<[3],f32>) -> !torch.list<vtensor<[?],f32>>
  // expected-error @+1 {{operand types should have the same type as the list contained type}}
  %1 = torch.prim.ListConstruct %a : (!torch.vtensor<[2],f32>) -> !torch.list<vtensor<[?],si64>>
  return
}

// -----

// expected-error @+1 {{invalid dtype 'f80' for !torch.tensor type}}
func.func private @f80_dtype(!torch.vtensor<[2],f80>)

// -----

func.func @permute_duplicate(%x: !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.permute' op has a duplicate dimension (0) in its permutation %1 = "torch.prim.ListConstruct"(%0, %0) : (!torch.int, !torch.int) -> !torch.list<int>.}}
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return
}

// -----

func.func @permute_sizes(%x: !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %l = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.permute' op has a permutation which is not compatible with the input and output shapes. The input shape in dimension 0 is 2, and the output shape in dimension 0 is 3 : they should be the same with this permutation.}}
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[3,2],f32>
  return
}

// -----

func.func @permute_index(%x: !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %int5 = torch.constant.int 5
  %l = torch.prim.ListConstruct %int0, %int5 : (!torch.int, !torch.int) -> !torch.list<int>
  // expected-error @+1 {{observed invalid index in permutation (5) for input tensor of rank 2.}}
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return
}

// -----

func.func @permute_length(%x: !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.permute' op expected permutation to have size equal result tensor rank. The permutation has 1 elements, the output has rank 2.}}
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,3],f32>
  return
}

// -----

func.func @permute_rank(%x: !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  // expected-error @+1 {{'torch.aten.permute' op expected input and output tensors to have same rank, but 2 != 1.}}
  %0 = torch.aten.permute %x, %l : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @bool_out_of_range() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = torch.constant.bool 2
  return
}

// -----

func.func @bool_kind() {
  // expected-error @+1 {{custom op 'torch.constant.bool' invalid kind of attribute specified}}
  %0 = torch.constant.bool "x"
  return
}

// -----

func.func @int_too_large() {
  // expected-error @+1 {{custom op 'torch.constant.int' integer value too large}}
  %0 = torch.constant.int 9223372036854775808
  return
}

// -----

func.func @float_from_integer_literal() {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = torch.constant.float 1
  return
}

// -----

func.func @float_kind() {
  // expected-error @+1 {{custom op 'torch.constant.float' invalid kind of attribute specified}}
  %0 = torch.constant.float "x"
  return
}

// -----

func.func @float_with_type() {
  // expected-error @+1 {{expected operation name in quotes}}
  %0 = torch.constant.float 1.0 : f64
  return
}

// -----

func.func @if_yield_types(%b: !torch.bool, %i: !torch.int, %f: !torch.float) {
  // expected-error @+1 {{'torch.prim.If' op along control flow edge from Operation torch.prim.If.yield to Operation torch.prim.If: successor operand type #0 '!torch.float' should match successor input type #0 '!torch.int'}}
  %0 = torch.prim.If %b -> (!torch.int) {
    torch.prim.If.yield %i : !torch.int
  } else {
    // expected-note @+1 {{region branch point}}
    torch.prim.If.yield %f : !torch.float
  }
  return
}

// -----

func.func @loop_body_arguments(%i: !torch.int, %b: !torch.bool) {
  // expected-error @+2 {{'torch.prim.Loop' op along control flow edge from parent to Region #0: successor operand type #0 '!torch.int' should match successor input type #0 '!torch.float'}}
  // expected-note @+1 {{region branch point}}
  %0 = torch.prim.Loop %i, %b, init(%i) {
  ^bb0(%it: !torch.int, %x: !torch.float):
    torch.prim.Loop.condition %b, iter(%x : !torch.float)
  } : (!torch.int, !torch.bool, !torch.int) -> !torch.int
  return
}

// -----

func.func @loop_results(%i: !torch.int, %b: !torch.bool) {
  // expected-error @+1 {{'torch.prim.Loop' op along control flow edge from Operation torch.prim.Loop.condition to Operation torch.prim.Loop: successor operand type #0 '!torch.int' should match successor input type #0 '!torch.float'}}
  %0 = torch.prim.Loop %i, %b, init(%i) {
  ^bb0(%it: !torch.int, %x: !torch.int):
    // expected-note @+1 {{region branch point}}
    torch.prim.Loop.condition %b, iter(%x : !torch.int)
  } : (!torch.int, !torch.bool, !torch.int) -> !torch.float
  return
}

// -----

func.func @yield_outside_if() {
  // expected-error @+1 {{'torch.prim.If.yield' op expects parent op 'torch.prim.If'}}
  torch.prim.If.yield
  return
}

// -----

func.func @symbolic_int_type() {
  // expected-error @+1 {{custom op 'torch.symbolic_int' invalid kind of type specified: expected torch.int, but found '!torch.float'}}
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 3} : !torch.float
  return
}

// -----

func.func @operator_type(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{custom op 'torch.operator' invalid kind of type specified: expected builtin.function, but found '!torch.int'}}
  torch.operator "x"(%a) : !torch.int
  return
}

// -----

func.func @operator_operand_count(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{custom op 'torch.operator' number of operands and types do not match: got 1 operands and 2 types}}
  torch.operator "x"(%a) : (!torch.vtensor<[2],f32>, !torch.int) -> ()
  return
}

// -----

func.func @literal_kind() {
  // expected-error @+1 {{custom op 'torch.vtensor.literal' invalid kind of attribute specified}}
  %0 = torch.vtensor.literal(1.0 : f32) : !torch.vtensor<[],f32>
  return
}

// -----

func.func @parenthesized_operands(%a: !torch.vtensor<[2],f32>) {
  // expected-error @+1 {{unexpected delimiter}}
  %0 = torch.aten.relu(%a) : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return
}

// -----

func.func @list_result(%i: !torch.int) {
  // expected-error @+1 {{'torch.prim.ListConstruct' op result #0 must be Any Torch list Type of any non-token type values, but got '!torch.int'}}
  %0 = torch.prim.ListConstruct %i : (!torch.int) -> !torch.int
  return
}

// -----

func.func @tuple_result(%i: !torch.int) {
  // expected-error @+1 {{'torch.prim.TupleConstruct' op result #0 must be !torch.tuple<T1, T2, T3>, but got '!torch.int'}}
  %0 = torch.prim.TupleConstruct %i : !torch.int -> !torch.int
  return
}
