// RUN: strata-opt %s --split-input-file --verify-diagnostics

// atomicrmw, cmpxchg and fence: upstream's verifier and parser wording.
llvm.func @f(%p : !llvm.ptr, %v : vector<2xi32>) {
  // expected-error @+1 {{'llvm.atomicrmw' op unexpected LLVM IR type for 'xchg' bin_op}}
  %0 = llvm.atomicrmw xchg %p, %v monotonic : !llvm.ptr, vector<2xi32>
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{'llvm.atomicrmw' op expected at least 'monotonic' ordering}}
  %0 = llvm.atomicrmw add %p, %v unordered : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i128) {
  // expected-error @+1 {{'llvm.atomicrmw' op expected LLVM IR integer type}}
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i128
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : vector<[2]xf32>) {
  // expected-error @+1 {{custom op 'llvm.atomicrmw' 'val' must be floating point LLVM type or LLVM pointer type or signless integer or LLVM dialect-compatible fixed-length vector type, but got 'vector<[2]xf32>'}}
  %0 = llvm.atomicrmw xchg %p, %v monotonic : !llvm.ptr, vector<[2]xf32>
  llvm.return
}

// -----

llvm.func @f(%p : i32, %v : i32) {
  // expected-error @+1 {{'llvm.atomicrmw' op operand #0 must be LLVM pointer type, but got 'i32'}}
  %0 = llvm.atomicrmw add %p, %v monotonic : i32, i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{custom op 'llvm.atomicrmw' expected string or keyword containing one of the following enum values for attribute 'bin_op' [xchg, add, sub, _and, nand, _or, _xor, max, min, umax, umin, fadd, fsub, fmax, fmin, uinc_wrap, udec_wrap, usub_cond, usub_sat, fmaximum, fminimum, fmaximumnum, fminimumnum]}}
  %0 = llvm.atomicrmw foo %p, %v monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{custom op 'llvm.atomicrmw' expected string or keyword containing one of the following enum values for attribute 'ordering' [not_atomic, unordered, monotonic, acquire, release, acq_rel, seq_cst]}}
  %0 = llvm.atomicrmw add %p, %v foo : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{'llvm.cmpxchg' op ordering must be at least 'monotonic'}}
  %0 = llvm.cmpxchg %p, %v, %v not_atomic monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : f16) {
  // expected-error @+1 {{custom op 'llvm.cmpxchg' 'val' must be signless integer or LLVM pointer type, but got 'f16'}}
  %0 = llvm.cmpxchg %p, %v, %v monotonic monotonic : !llvm.ptr, f16
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{'llvm.cmpxchg' op result #0 must be LLVM structure type, but got 'i32'}}
  %0 = "llvm.cmpxchg"(%p, %v, %v) <{failure_ordering = 2 : i64, success_ordering = 2 : i64}> : (!llvm.ptr, i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : vector<2xi32>) {
  // expected-error @+1 {{custom op 'llvm.cmpxchg' 'val' must be signless integer or LLVM pointer type, but got 'vector<2xi32>'}}
  %0 = llvm.cmpxchg %p, %v, %v monotonic monotonic : !llvm.ptr, vector<2xi32>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.fence' op can be given only acquire, release, acq_rel, and seq_cst orderings}}
  llvm.fence syncscope("x") monotonic
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : f32) {
  // expected-error @+1 {{'llvm.atomicrmw' op failed to verify that result #0 and operand #1 have the same type}}
  %0 = "llvm.atomicrmw"(%p, %v) <{bin_op = 11 : i64, ordering = 2 : i64}> : (!llvm.ptr, f32) -> i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : f32) {
  // expected-error @+1 {{'llvm.atomicrmw' op requires attribute 'ordering'}}
  %0 = "llvm.atomicrmw"(%p, %v) <{bin_op = 11 : i64}> : (!llvm.ptr, f32) -> f32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i32) {
  // expected-error @+1 {{'llvm.cmpxchg' op failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool}}
  %0 = "llvm.cmpxchg"(%p, %v, %v) <{failure_ordering = 2 : i64, success_ordering = 2 : i64}> : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i8)>
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i24) {
  // expected-error @+1 {{'llvm.atomicrmw' op unexpected LLVM IR type for 'xchg' bin_op}}
  %0 = llvm.atomicrmw xchg %p, %v monotonic : !llvm.ptr, i24
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %v : i24) {
  // expected-error @+1 {{'llvm.cmpxchg' op unexpected LLVM IR type}}
  %0 = llvm.cmpxchg %p, %v, %v monotonic monotonic : !llvm.ptr, i24
  llvm.return
}
