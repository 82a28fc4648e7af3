// RUN: strata-opt %s --inline='default-pipeline=' --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --inline='default-pipeline=' --allow-unregistered-dialect | filecheck %s --check-prefix=ERASED

// Inlining without the default canonicalize pipeline: what the inliner itself does.

// A one-block callee used twice: cloned into the first call, moved into the last one
// (it is private), then erased.
func.func private @add1(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  return %0 : i32
}
// CHECK-LABEL: func.func @twice(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %1 = arith.addi %0, %c1_i32_0 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @twice(%x: i32) -> i32 {
  %0 = call @add1(%x) : (i32) -> i32
  %1 = call @add1(%0) : (i32) -> i32
  return %1 : i32
}

// Several results, and a callee without any.
func.func private @pair(%a: i32) -> (i32, i32) {
  %0 = arith.muli %a, %a : i32
  return %0, %a : i32, i32
}
func.func private @nothing(%a: i32) {
  return
}
// CHECK-LABEL: func.func @results(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT: %1 = arith.addi %0, %arg0 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @results(%a: i32) -> i32 {
  %0:2 = call @pair(%a) : (i32) -> (i32, i32)
  call @nothing(%0#1) : (i32) -> ()
  %1 = arith.addi %0#0, %0#1 : i32
  return %1 : i32
}

// A multi-block callee splits the caller's block; its returns become branches to the
// second half, whose argument stands for the result.
// CHECK-LABEL: func.func private @select_like(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i32)
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: cf.br ^bb2(%c5_i32 : i32)
// CHECK-NEXT: ^bb2(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @select_like(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2(%a : i32)
^bb1:
  %c5 = arith.constant 5 : i32
  cf.br ^bb2(%c5 : i32)
^bb2(%v: i32):
  return %v : i32
}
// CHECK-LABEL: func.func @multi_block(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i32)
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: cf.br ^bb2(%c5_i32 : i32)
// CHECK-NEXT: ^bb2(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: cf.br ^bb3(%0 : i32)
// CHECK-NEXT: ^bb3(%1: i32):  // pred: ^bb2
// CHECK-NEXT: %2 = arith.muli %1, %1 : i32
// CHECK-NEXT: return %2 : i32
// CHECK-NEXT: }
func.func @multi_block(%c: i1, %a: i32) -> i32 {
  %0 = call @select_like(%c, %a) : (i1, i32) -> i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}

// Several blocks cannot go into the single-block region of scf.if; they can into
// scf.execute_region.
// CHECK-LABEL: func.func @multi_block_in_regions(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT: %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT: %2 = func.call @select_like(%arg0, %arg1) : (i1, i32) -> i32
// CHECK-NEXT: scf.yield %2 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg1 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = scf.execute_region -> i32 {
// CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2(%0 : i32)
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: cf.br ^bb2(%c5_i32 : i32)
// CHECK-NEXT: ^bb2(%2: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: cf.br ^bb3(%2 : i32)
// CHECK-NEXT: ^bb3(%3: i32):  // pred: ^bb2
// CHECK-NEXT: scf.yield %3 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @multi_block_in_regions(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> i32 {
    %x = func.call @select_like(%c, %a) : (i1, i32) -> i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %e = scf.execute_region -> i32 {
    %x = func.call @select_like(%c, %r) : (i1, i32) -> i32
    scf.yield %x : i32
  }
  return %e : i32
}

// Calls nested in regions are inlined too.
func.func private @square(%a: index) -> index {
  %0 = arith.muli %a, %a : index
  return %0 : index
}
// CHECK-LABEL: func.func @in_loop(%arg0: index, %arg1: index, %arg2: index) -> index {
// CHECK-NEXT: %0 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %arg0) -> (index) {
// CHECK-NEXT: %1 = arith.muli %arg3, %arg3 : index
// CHECK-NEXT: %2 = arith.addi %arg4, %1 : index
// CHECK-NEXT: scf.yield %2 : index
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : index
// CHECK-NEXT: }
func.func @in_loop(%lb: index, %ub: index, %s: index) -> index {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %lb) -> (index) {
    %q = func.call @square(%i) : (index) -> index
    %n = arith.addi %acc, %q : index
    scf.yield %n : index
  }
  return %r : index
}

// `no_inline` on the function or on the call keeps the call.
// CHECK-LABEL: func.func private @kept() -> i32 attributes {no_inline} {
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: return %c3_i32 : i32
// CHECK-NEXT: }
func.func private @kept() -> i32 attributes {no_inline} {
  %c3 = arith.constant 3 : i32
  return %c3 : i32
}
// CHECK-LABEL: func.func private @sometimes(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = arith.subi %arg0, %arg0 : i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @sometimes(%a: i32) -> i32 {
  %0 = arith.subi %a, %a : i32
  return %0 : i32
}
// CHECK-LABEL: func.func @no_inline() -> i32 {
// CHECK-NEXT: %0 = call @kept() : () -> i32
// CHECK-NEXT: %1 = call @sometimes(%0) <no_inline> : (i32) -> i32
// CHECK-NEXT: %2 = arith.subi %1, %1 : i32
// CHECK-NEXT: return %2 : i32
// CHECK-NEXT: }
func.func @no_inline() -> i32 {
  %0 = call @kept() : () -> i32
  %1 = call @sometimes(%0) <no_inline> : (i32) -> i32
  %2 = call @sometimes(%1) : (i32) -> i32
  return %2 : i32
}

// Ops of unregistered dialects cannot be inlined.
// CHECK-LABEL: func.func private @opaque(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = "test.op"(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @opaque(%a: i32) -> i32 {
  %0 = "test.op"(%a) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func @unregistered(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @opaque(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @unregistered(%a: i32) -> i32 {
  %0 = call @opaque(%a) : (i32) -> i32
  return %0 : i32
}

// Declarations and indirect calls stay; a function whose symbol is used otherwise stays.
// CHECK-LABEL: func.func private @external(i32) -> i32
func.func private @external(i32) -> i32
// CHECK-LABEL: func.func private @by_value(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func private @by_value(%a: i32) -> i32 {
  return %a : i32
}
// CHECK-LABEL: func.func @not_direct(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @external(%arg0) : (i32) -> i32
// CHECK-NEXT: %f = constant @by_value : (i32) -> i32
// CHECK-NEXT: %1 = call_indirect %f(%0) : (i32) -> i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @not_direct(%a: i32) -> i32 {
  %0 = call @external(%a) : (i32) -> i32
  %f = func.constant @by_value : (i32) -> i32
  %1 = func.call_indirect %f(%0) : (i32) -> i32
  return %1 : i32
}

// Unused private functions go; public ones stay.
func.func private @unused(%a: i32) -> i32 {
  return %a : i32
}
// CHECK-LABEL: func.func @public_unused(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func @public_unused(%a: i32) -> i32 {
  return %a : i32
}

// Nested symbol tables are handled on their own.
module @inner {
  func.func private @leaf(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    return %0 : i32
  }
  // CHECK-LABEL: func.func @root(%arg0: i32) -> i32 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32
  // CHECK-NEXT: return %0 : i32
  // CHECK-NEXT: }
  func.func @root(%a: i32) -> i32 {
    %0 = call @leaf(%a) : (i32) -> i32
    return %0 : i32
  }
}

// ERASED-NOT: @add1(
// ERASED-NOT: @leaf(
// ERASED-NOT: @nothing(
// ERASED-NOT: @pair(
// ERASED-NOT: @square(
// ERASED-NOT: @unused(
