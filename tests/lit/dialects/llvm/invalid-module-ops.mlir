// RUN: strata-opt %s --split-input-file --verify-diagnostics

// global_ctors / global_dtors and llvm.mlir.alias: upstream's verifier wording.
llvm.func @ctor() {
  llvm.return
}
// expected-error @+1 {{ctors, priorities, and data must have the same number of elements}}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [], data = [#llvm.zero]

// -----

llvm.func @dtor() {
  llvm.return
}
// expected-error @+1 {{dtors, priorities, and data must have the same number of elements}}
llvm.mlir.global_dtors dtors = [@dtor], priorities = [0 : i32, 32767 : i32], data = [#llvm.zero]

// -----

// expected-error @+1 {{'llvm.mlir.global_ctors' op 'ctor' does not reference a valid LLVM function}}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.func @dtor()
// expected-error @+1 {{'llvm.mlir.global_dtors' op 'dtor' does not have a definition}}
llvm.mlir.global_dtors dtors = [@dtor], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.func @dtor() {
  llvm.return
}
// expected-error @+1 {{data element must be symbol or #llvm.zero}}
llvm.mlir.global_dtors dtors = [@dtor], priorities = [0 : i32], data = [0 : i32]

// -----

llvm.func @dtor() {
  llvm.return
}
// expected-error @+1 {{'llvm.mlir.global_dtors' op attribute 'priorities' failed to satisfy constraint: 32-bit integer array attribute}}
llvm.mlir.global_dtors dtors = [@dtor], priorities = [0 : i64], data = [#llvm.zero]

// -----

llvm.func @dtor() {
  llvm.return
}
// expected-error @+1 {{'llvm.mlir.global_dtors' op attribute 'dtors' failed to satisfy constraint: flat symbol ref array attribute}}
llvm.mlir.global_dtors dtors = ["dtor"], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.global_dtors' op 'x' does not reference a valid LLVM function}}
llvm.mlir.global_dtors dtors = [@x], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.alias' op expects type to be a valid element type for an LLVM global alias}}
llvm.mlir.alias external @y : !llvm.label {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.alias' op 'appending' linkage not supported in aliases, available options: private, internal, linkonce, weak, linkonce_odr, weak_odr, external or available_externally}}
llvm.mlir.alias appending @y2 : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// expected-error @+1 {{'llvm.mlir.alias' op initializer region must always return a pointer}}
llvm.mlir.alias external @y3 : i32 {
  %c = llvm.mlir.constant(42 : i64) : i64
  llvm.return %c : i64
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
llvm.mlir.alias external @y4 : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  // expected-error @+1 {{ops with side effects are not allowed in alias initializers}}
  %2 = llvm.load %0 : !llvm.ptr -> i32
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.alias' op initializer region must always return a pointer}}
llvm.mlir.alias external @y4 : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.alias' op expects type to be a valid element type for an LLVM global alias}}
llvm.mlir.alias external @y4 : tensor<2xf32> {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
llvm.mlir.alias external @y5 : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.addressof' op pointer address space must match address space of the referenced global or alias}}
  %0 = llvm.mlir.addressof @y5 : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error @+1 {{'llvm.mlir.alias' op expects region #0 to have 0 or 1 blocks}}
llvm.mlir.alias external @y5 : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.br ^bb1
^bb1:
  llvm.return %0 : !llvm.ptr
}
