// RUN: strata-opt %s --split-input-file --verify-diagnostics

// invoke / landingpad / resume: upstream's verifier wording.
llvm.func @foo(i32) -> i32
llvm.func @f(%a: i32) -> i32 {
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  // expected-error @+1 {{llvm.landingpad needs to be in a function with a personality}}
  %2 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
llvm.func @f(%a: i32) -> i32 attributes {personality = @pers} {
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  // expected-error @+1 {{landingpad instruction expects at least one clause or cleanup attribute}}
  %2 = llvm.landingpad : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
llvm.func @f(%a: i32, %p: !llvm.ptr) -> i32 attributes {personality = @pers} {
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  // expected-error @+1 {{clause #0 is not a known constant - null, addressof, bitcast}}
  %2 = llvm.landingpad (catch %p : !llvm.ptr) : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
llvm.func @f(%a: i32) -> i32 attributes {personality = @pers} {
  // expected-error @+1 {{first operation in unwind destination should be a llvm.landingpad operation}}
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.return %c : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
// expected-error @+1 {{'llvm.resume' should have a consistent input type inside a function}}
llvm.func @f(%a: i32) -> i32 attributes {personality = @pers} {
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  %2 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %a : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
// expected-error @+1 {{'llvm.landingpad' should have a consistent result type inside a function}}
llvm.func @f(%a: i32) -> i32 attributes {personality = @pers} {
  %1 = llvm.invoke @foo(%a) to ^bb1 unwind ^bb2 : (i32) -> i32
^bb1:
  %3 = llvm.invoke @foo(%a) to ^bb3 unwind ^bb4 : (i32) -> i32
^bb2:
  %2 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
^bb3:
  llvm.return %1 : i32
^bb4:
  %4 = llvm.landingpad cleanup : i32
  llvm.resume %4 : i32
}

// -----

llvm.func @foo(i32) -> i32
llvm.func @pers(...) -> i32
llvm.func @f(%a: i32) -> i32 attributes {personality = @pers} {
  // expected-error @+1 {{branch has 1 operands for successor #0, but target block has 0}}
  %1 = llvm.invoke @foo(%a) to ^bb1(%a : i32) unwind ^bb2 : (i32) -> i32
^bb1:
  llvm.return %1 : i32
^bb2:
  %2 = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %2 : !llvm.struct<(ptr, i32)>
}
