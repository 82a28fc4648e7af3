// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.ptrtoaddr: the result is as wide as the data layout's pointers (64 bits).
llvm.func @f(%p : !llvm.ptr) {
  // expected-error @+1 {{'llvm.ptrtoaddr' op bit-width of integer result type 'i32' must match the pointer bitwidth (64) specified in the datalayout}}
  %0 = llvm.ptrtoaddr %p : !llvm.ptr to i32
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr<3>) {
  // expected-error @+1 {{'llvm.ptrtoaddr' op bit-width of integer result type 'i32' must match the pointer bitwidth (64) specified in the datalayout}}
  %0 = llvm.ptrtoaddr %p : !llvm.ptr<3> to i32
  llvm.return
}

// -----

llvm.func @f(%v : vector<4x!llvm.ptr>) {
  // expected-error @+1 {{'llvm.ptrtoaddr' op bit-width of integer result type 'i32' must match the pointer bitwidth (64) specified in the datalayout}}
  %1 = llvm.ptrtoaddr %v : vector<4x!llvm.ptr> to vector<4xi32>
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr) {
  // expected-error @+1 {{'llvm.ptrtoaddr' op result #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.ptrtoaddr %p : !llvm.ptr to f32
  llvm.return
}
