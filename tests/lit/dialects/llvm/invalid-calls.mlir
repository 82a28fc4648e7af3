// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.call's trailing types, worded as upstream's parseCallTypeAndResolveOperands
// (reported at the colon, after the type parser's own error), and its operand and
// result constraints.

llvm.func @f(%arg : i8, %p : !llvm.ptr) {
  // expected-error@+2 {{expected '('}}
  // expected-error@+1 {{custom op 'llvm.call' expected trailing function type}}
  %0 = llvm.call %p(%arg) : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @g(i8) -> i8
llvm.func @f(%arg : i8) {
  // expected-error@+2 {{expected '('}}
  // expected-error@+1 {{custom op 'llvm.call' expected direct call to have 1 trailing type}}
  %0 = llvm.call @g(%arg) : !llvm.ptr, (i8) -> i8
  llvm.return
}

// -----

llvm.func @f(%arg : i8, %p : !llvm.ptr) {
  // expected-error@+1 {{custom op 'llvm.call' expected indirect call to have 2 trailing types}}
  %0 = llvm.call %p(%arg) : (i8) -> i8
  llvm.return
}

// -----

llvm.func @f(%arg : i8, %p : !llvm.ptr) {
  // expected-error@+1 {{custom op 'llvm.call' expected function with 0 or 1 result}}
  %0 = llvm.call %p(%arg) : !llvm.ptr, (i8) -> (i8, i8)
  llvm.return
}

// -----

llvm.func @f(%arg : i8, %p : !llvm.ptr) {
  // expected-error@+1 {{custom op 'llvm.call' expected a non-void result type}}
  llvm.call %p(%arg) : !llvm.ptr, (i8) -> !llvm.void
  llvm.return
}

// -----

llvm.func @f() {
  // (the segment sizes are properties: absent, they read as zeros)
  // expected-error@+1 {{'llvm.call' op must have either a `callee` attribute or at least an operand}}
  "llvm.call"() {op_bundle_sizes = array<i32>} : () -> ()
  llvm.return
}

// -----

func.func @f(%arg0 : tensor<*xi32>) {
  // expected-error@+1 {{'llvm.call' op operand #0 must be variadic of LLVM dialect-compatible type, but got 'tensor<*xi32>'}}
  "llvm.call"(%arg0) {operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>} : (tensor<*xi32>) -> ()
  return
}

// -----

func.func @f(%p : !llvm.ptr) {
  // expected-error@+1 {{'llvm.call' op result #0 must be LLVM dialect-compatible type, but got 'tensor<*xi32>'}}
  %0 = llvm.call %p() : !llvm.ptr, () -> (tensor<*xi32>)
  return
}

// -----

func.func @f(%n : index) {
  // expected-error@+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %0 = "memref.alloc"(%n) : (index) -> memref<?xf32>
  return
}
