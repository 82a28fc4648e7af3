// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.blockaddress / llvm.blocktag: upstream's verifier wording.
llvm.func @t0() -> !llvm.ptr {
  %0 = llvm.blockaddress <function = @t0, tag = <id = 1>> : !llvm.ptr
  llvm.blocktag <id = 1>
  llvm.br ^bb1
^bb1:
  // expected-error @+1 {{duplicate block tag '1' in the same function: }}
  llvm.blocktag <id = 1>
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.func @t1() -> !llvm.ptr {
  // expected-error @+1 {{'llvm.blockaddress' op expects an existing block label target in the referenced function}}
  %0 = llvm.blockaddress <function = @t1, tag = <id = 1>> : !llvm.ptr
  llvm.br ^bb1
^bb1:
  llvm.return %0 : !llvm.ptr
}

// -----

// expected-error @+1 {{'llvm.blockaddress' op expects an existing block label target in the referenced function}}
%0 = llvm.blockaddress <function = @missing_func, tag = <id = 1>> : !llvm.ptr

// -----

llvm.func @t1() -> i32 {
  // expected-error @+1 {{'llvm.blockaddress' op result #0 must be LLVM pointer type, but got 'i32'}}
  %0 = llvm.blockaddress <function = @t1, tag = <id = 1>> : i32
  llvm.br ^bb1
^bb1:
  llvm.blocktag <id = 1>
  llvm.return %0 : i32
}

// -----

llvm.mlir.global external @g(1 : i32) : i32
llvm.func @t1() {
  // expected-error @+1 {{'llvm.blockaddress' op expects an existing block label target in the referenced function}}
  %0 = llvm.blockaddress <function = @g, tag = <id = 1>> : !llvm.ptr
  llvm.return
}
