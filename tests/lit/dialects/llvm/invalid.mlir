// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'llvm.func' op external functions must have 'external' or 'extern_weak' linkage}}
llvm.func private @decl(i32)

// -----

llvm.func @extract_out_of_bounds(%s: !llvm.struct<(i32, f32)>) {
  %0 = llvm.extractvalue %s[2] : !llvm.struct<(i32, f32)>
  // (reported at the token after the type, as upstream)
  // expected-error @+1 {{custom op 'llvm.extractvalue' position out of bounds: 2}}
  llvm.return
}

// -----

llvm.func @insert_wrong_type(%s: !llvm.struct<(i32, f32)>, %x: f32) {
  // expected-error @+1 {{'llvm.insertvalue' op Type mismatch: cannot insert 'f32' into '!llvm.struct<(i32, f32)>'}}
  %0 = "llvm.insertvalue"(%s, %x) <{position = array<i64: 0>}> : (!llvm.struct<(i32, f32)>, f32) -> !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @g(i32) -> i32
llvm.func @call_operand_type(%x: f32) {
  // expected-error @+1 {{'llvm.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  %0 = llvm.call @g(%x) : (f32) -> i32
  llvm.return
}

// -----

llvm.func @g(i32) -> i32
llvm.func @call_operand_count(%x: i32) {
  // expected-error @+1 {{'llvm.call' op incorrect number of operands for callee: expected 1, but got 2}}
  %0 = llvm.call @g(%x, %x) : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @g(i32) -> i32
llvm.func @call_result_type(%x: i32) {
  // expected-error @+1 {{'llvm.call' op result type mismatch: 'f32' != 'i32'}}
  %0 = llvm.call @g(%x) : (i32) -> f32
  llvm.return
}

// -----

llvm.func @call_unknown(%x: i32) {
  // expected-error @+1 {{'llvm.call' op 'nope' does not reference a symbol in the current scope}}
  %0 = llvm.call @nope(%x) : (i32) -> f32
  llvm.return
}

// -----

// expected-error @+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global private constant @str("hello") : !llvm.array<6 x i8>

// -----

// expected-error @+1 {{'llvm.mlir.global' op cannot have both initializer value and region}}
llvm.mlir.global external @g(1 : i32) : i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @return_type(%x: i32) -> f32 {
  // expected-error @+1 {{'llvm.return' op mismatching result types}}
  llvm.return %x : i32
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @return_void(%x: i32) {
  // expected-error @+1 {{'llvm.return' op expected no operands}}
  llvm.return %x : i32
}

// -----

llvm.func @gep_dynamic_struct_index(%p: !llvm.ptr, %i: i64) {
  // expected-error @+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %0 = "llvm.getelementptr"(%p, %i) <{elem_type = !llvm.struct<(i32, f32)>, rawConstantIndices = array<i32: 0, -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @gep_struct_out_of_bounds(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.getelementptr' op index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @sext_narrower(%x: i32) {
  // expected-error @+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %0 = llvm.sext %x : i32 to i16
  llvm.return
}

// -----

llvm.func @zext_to_vector(%x: i32) {
  // expected-error @+1 {{input type is an integer but output type is a vector}}
  %0 = llvm.zext %x : i32 to vector<2xi64>
  llvm.return
}

// -----

llvm.func @bitcast_pointer(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.bitcast' op can only cast pointers from and to pointers}}
  %0 = llvm.bitcast %p : !llvm.ptr to i64
  llvm.return
}

// -----

llvm.func @constant_kind() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected integer type}}
  %0 = llvm.mlir.constant(1 : i32) : f32
  llvm.return
}

// -----

llvm.func @constant_width() {
  // expected-error @+1 {{'llvm.mlir.constant' op attribute and type have different integer types: 'i64' vs. 'i32'}}
  %0 = llvm.mlir.constant(1 : i64) : i32
  llvm.return
}

// -----

llvm.func @constant_string() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array type of 3 i8 elements for the string constant}}
  %0 = llvm.mlir.constant("abc") : i32
  llvm.return
}

// -----

llvm.func @addressof_unknown() {
  // expected-error @+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @nothing : !llvm.ptr
  llvm.return
}

// -----

llvm.func @load_ordering(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.load' op unsupported ordering 'acq_rel'}}
  %0 = llvm.load %p atomic acq_rel <alignment = 4> : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @load_atomic_alignment(%p: !llvm.ptr) {
  // expected-error @+1 {{'llvm.load' op expected alignment for atomic access}}
  %0 = llvm.load %p atomic monotonic : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @fadd_int(%x: i32) {
  // expected-error @+1 {{'llvm.fadd' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'}}
  %0 = llvm.fadd %x, %x : i32
  llvm.return
}

// -----

llvm.func @icmp_float(%x: f32) {
  // expected-error @+1 {{custom op 'llvm.icmp' 'lhs' must be signless integer or LLVM dialect-compatible vector of signless integer or LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type, but got 'f32'}}
  %0 = llvm.icmp "slt" %x, %x : f32
  llvm.return
}

// -----

llvm.func @switch_operands(%x: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #1, but target block has 0}}
  llvm.switch %x : i32, ^bb1 [
    1: ^bb1(%x : i32)
  ]
^bb1:
  llvm.return
}

// -----

llvm.func @extractelement_position(%x: vector<4xf32>, %v: vector<2xf32>) {
  // expected-error @+1 {{custom op 'llvm.extractelement' invalid kind of type specified: expected builtin.integer, but found 'vector<2xf32>'}}
  %1 = llvm.extractelement %x[%v : vector<2xf32>] : vector<4xf32>
  llvm.return
}

// -----

llvm.func @f() -> !llvm.struct<(i32, f32)> {
  // expected-error @below {{expected array attribute of size 2}}
  %0 = llvm.mlir.constant([1 : i32]) : !llvm.struct<(i32, f32)>
  llvm.return %0 : !llvm.struct<(i32, f32)>
}

// -----

llvm.func @f() -> !llvm.struct<(i32, f32)> {
  // expected-error @below {{struct element at index 1 is of wrong type}}
  %0 = llvm.mlir.constant([1 : i32, 2.0 : f64]) : !llvm.struct<(i32, f32)>
  llvm.return %0 : !llvm.struct<(i32, f32)>
}

// -----

llvm.func @f() -> !llvm.struct<(i32, array<2 x i8>)> {
  // expected-error @below {{expected struct element types to be floating point type or integer type}}
  %0 = llvm.mlir.constant([1 : i32, 2 : i32]) : !llvm.struct<(i32, array<2 x i8>)>
  llvm.return %0 : !llvm.struct<(i32, array<2 x i8>)>
}

// -----

llvm.func @f() -> i64 {
  // expected-error @below {{expected integer type of width 32}}
  %0 = llvm.mlir.constant(1.0 : f32) : i64
  llvm.return %0 : i64
}

// -----

llvm.func @f() -> vector<2xf32> {
  // expected-error @below {{attribute and type have different float semantics}}
  %0 = llvm.mlir.constant(dense<1.0> : vector<2xf64>) : vector<2xf32>
  llvm.return %0 : vector<2xf32>
}

// -----

llvm.func @f() -> !llvm.array<3 x i32> {
  // expected-error @below {{type and attribute have a different number of elements: 3 vs. 2}}
  %0 = llvm.mlir.constant(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<3 x i32>
  llvm.return %0 : !llvm.array<3 x i32>
}

// -----

llvm.func @f() -> vector<[2]xi32> {
  // expected-error @below {{scalable vector type requires a splat attribute}}
  %0 = llvm.mlir.constant(dense<[1, 2]> : tensor<2xi32>) : vector<[2]xi32>
  llvm.return %0 : vector<[2]xi32>
}

// -----

llvm.func @f() -> !llvm.array<2 x struct<(i32)>> {
  // expected-error @below {{array attribute size does not match array type size in dimension 0: 1 vs. 2}}
  %0 = llvm.mlir.constant([[1 : i32]]) : !llvm.array<2 x struct<(i32)>>
  llvm.return %0 : !llvm.array<2 x struct<(i32)>>
}

// -----

llvm.func @f() -> !llvm.array<1 x struct<(i32, i32)>> {
  // expected-error @below {{nested array attribute size for struct element at index 0 must match struct size: 1 vs. 2}}
  %0 = llvm.mlir.constant([[1 : i32]]) : !llvm.array<1 x struct<(i32, i32)>>
  llvm.return %0 : !llvm.array<1 x struct<(i32, i32)>>
}

// -----

llvm.func @f() -> !llvm.array<2 x i32> {
  // expected-error @below {{for array with an array attribute must have a struct element type}}
  %0 = llvm.mlir.constant([1 : i32, 2 : i32]) : !llvm.array<2 x i32>
  llvm.return %0 : !llvm.array<2 x i32>
}

// -----

llvm.func @f() -> !llvm.array<1 x ptr> {
  // expected-error @below {{pointer array element at index 0 must be a flat symbol reference, zero, undef, or poison}}
  %0 = llvm.mlir.constant([2 : i32]) : !llvm.array<1 x ptr>
  llvm.return %0 : !llvm.array<1 x ptr>
}

// -----

func.func @f(%v: f32, %i: i32) {
  // expected-error @+1 {{custom op 'llvm.insertelement' invalid kind of type specified: expected builtin.vector, but found 'f32'}}
  %0 = llvm.insertelement %v, %v[%i : i32] : f32
  return
}

// -----

func.func @f(%v: vector<2xf32>, %i: i32) -> vector<2xf32> {
  // expected-error @+1 {{failed to verify that result type matches vector element type}}
  %0 = "llvm.extractelement"(%v, %i) : (vector<2xf32>, i32) -> vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @f(%v: vector<[2]xf32>) {
  // expected-error @+1 {{expected a splat operation for scalable vectors}}
  %0 = llvm.shufflevector %v, %v [1, 1] : vector<[2]xf32>
  return
}

// -----

llvm.func @g(i32, ...)

llvm.func @f(%a: i32) {
  // expected-error @+1 {{missing var_callee_type attribute for vararg call}}
  "llvm.call"(%a) <{callee = @g}> {operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>} : (i32) -> ()
  llvm.return
}

// -----

llvm.func @f(%callee: !llvm.ptr, %a: i32) {
  // expected-error @+1 {{var_callee_type parameter type mismatch: 'i64' != 'i32'}}
  llvm.call %callee(%a) vararg(!llvm.func<void (i64, ...)>) : !llvm.ptr, (i32) -> ()
  llvm.return
}

// -----

llvm.func @f(%callee: !llvm.ptr, %a: i32) {
  // expected-error @+1 {{expected var_callee_type to have at most 1 parameters}}
  llvm.call %callee(%a) vararg(!llvm.func<void (i32, i32, ...)>) : !llvm.ptr, (i32) -> ()
  llvm.return
}

// -----

llvm.func @g(i32, ...) -> i32

llvm.func @f(%a: i32) {
  // expected-error @+1 {{var_callee_type return type mismatch: 'i8' != 'i32'}}
  %0 = llvm.call @g(%a) vararg(!llvm.func<i8 (i32, ...)>) : (i32) -> (i32)
  llvm.return
}

// -----

llvm.func @f(%callee: !llvm.ptr) {
  // expected-error @+1 {{expected function with 0 or 1 result}}
  %0:2 = llvm.call %callee() : !llvm.ptr, () -> (i32, i32)
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{calling function with void result must not produce values}}
  %0 = llvm.call @g() : () -> i32
  llvm.return
}

// a function returning `()` is a void function
llvm.func @g() -> ()

// -----

llvm.func @f(%a: i32) {
  // expected-error @below {{expected no operands}}
  // expected-note @above {{when returning from function}}
  llvm.return %a : i32
}

// -----

// expected-error @below {{no_inline and always_inline attributes are incompatible}}
llvm.func @f() attributes {always_inline, no_inline} {
  llvm.return
}

// -----

// expected-error @below {{'llvm.func' op with optimize_none must also be no_inline}}
llvm.func @f() attributes {optimize_none} {
  llvm.return
}

// -----

llvm.mlir.global @g(0 : i32) : i32
// expected-error @below {{expected comdat symbol}}
llvm.func @f() comdat(@g) {
  llvm.return
}

// -----

llvm.mlir.global internal @g() : i32 {
  %0 = llvm.mlir.constant(1 : i64) : i64
  // expected-error @below {{ops with side effects not allowed in global initializers}}
  %1 = llvm.alloca %0 x i32 : (i64) -> !llvm.ptr
  %2 = llvm.load %1 : !llvm.ptr -> i32
  llvm.return %2 : i32
}

// -----

func.func @f(%callee: !llvm.func<i8 (i8)>, %a: i8) {
  // expected-error @+1 {{indirect call expects a pointer as callee: '!llvm.func<i8 (i8)>'}}
  llvm.call %callee(%a) : !llvm.func<i8 (i8)>, (i8) -> (i8)
  return
}

// -----

func.func @f(%a: i64) {
  // expected-error @below {{expects case value type to match condition value type}}
  "llvm.switch"(%a)[^bb1, ^bb2] <{case_operand_segments = array<i32: 0>, case_values = dense<7> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i64) -> ()
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

func.func @f(%a: vector<2x2xf32>) {
  // (LLVM vectors have one dimension)
  // expected-error @below {{op operand #0 must be LLVM-compatible non-aggregate type, but got 'vector<2x2xf32>'}}
  %0 = llvm.bitcast %a : vector<2x2xf32> to vector<2x2xi32>
  return
}

// -----

func.func @f(%n: i64) {
  // expected-error @+1 {{expected trailing function type with one argument and one result}}
  %0 = llvm.alloca %n x i32 : (i64, i64) -> !llvm.ptr
  return
}

// -----

func.func @f(%n: i64) {
  // expected-error @+1 {{expected integer alignment}}
  %0 = llvm.alloca %n x i32 {alignment = 2.0} : (i64) -> !llvm.ptr
  return
}
