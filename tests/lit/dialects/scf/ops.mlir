// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect | strata-opt --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s
// (--allow-unregistered-dialect: for the #gpu mapping attribute of scf.forall)

// CHECK-LABEL: func.func @for_loops
func.func @for_loops(%lb: index, %ub: index, %step: index, %x: f32, %i: i32) -> f32 {
  // The implicit scf.yield is added by the parser and left out by the printer.
  // CHECK-NEXT: scf.for %arg5 = %arg0 to %arg1 step %arg2 {
  // CHECK-NEXT:   %3 = arith.addi %arg5, %arg5 : index
  // CHECK-NEXT: }
  scf.for %iv = %lb to %ub step %step {
    %0 = arith.addi %iv, %iv : index
  }
  // CHECK-NEXT: scf.for %arg5 = %arg0 to %arg1 step %arg2 {
  // CHECK-NEXT: }
  scf.for %iv = %lb to %ub step %step {
  }
  // CHECK-NEXT: %0 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3) -> (f32) {
  // CHECK-NEXT:   %3 = arith.addf %arg6, %arg3 : f32
  // CHECK-NEXT:   scf.yield %3 : f32
  // CHECK-NEXT: }
  %sum = scf.for %iv = %lb to %ub step %step iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  // A non-index induction variable is spelled after the types (two spaces before it).
  // CHECK-NEXT: %1:2 = scf.for %arg5 = %arg4 to %arg4 step %arg4 iter_args(%arg6 = %arg3, %arg7 = %arg4) -> (f32, i32)  : i32 {
  // CHECK-NEXT:   scf.yield %arg6, %arg7 : f32, i32
  // CHECK-NEXT: }
  %r:2 = scf.for %iv = %i to %i step %i iter_args(%a = %x, %b = %i) -> (f32, i32) : i32 {
    scf.yield %a, %b : f32, i32
  }
  // CHECK-NEXT: scf.for %arg5 = %arg4 to %arg4 step %arg4  : i32 {
  // CHECK-NEXT: }
  scf.for %iv = %i to %i step %i : i32 {
  }
  // CHECK-NEXT: scf.for unsigned %arg5 = %arg0 to %arg1 step %arg2 {
  // CHECK-NEXT: } {tag = 1 : i64}
  scf.for unsigned %iv = %lb to %ub step %step {
  } {tag = 1}
  // The arrow type list may also be written without parentheses.
  // CHECK-NEXT: %2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %0) -> (f32) {
  %w = scf.for %iv = %lb to %ub step %step iter_args(%acc = %sum) -> f32 {
    // Nested loops number their arguments on from the parent's counters.
    // A name hint taken in the parent region (below) gets a suffix here.
    // CHECK-NEXT: %3 = scf.for %arg7 = %arg0 to %arg1 step %arg2 iter_args(%arg8 = %arg6) -> (f32) {
    // CHECK-NEXT:   %c0_0 = arith.constant 0 : index
    // CHECK-NEXT:   scf.yield %arg8 : f32
    // CHECK-NEXT: }
    %in = scf.for %jv = %lb to %ub step %step iter_args(%acc2 = %acc) -> (f32) {
      %c0 = arith.constant 0 : index
      scf.yield %acc2 : f32
    }
    // CHECK-NEXT: %c0 = arith.constant 0 : index
    %c0 = arith.constant 0 : index
    // CHECK-NEXT: scf.yield %3 : f32
    scf.yield %in : f32
  }
  // CHECK: return %2 : f32
  return %w : f32
}

// CHECK-LABEL: func.func @if_ops
func.func @if_ops(%c: i1, %x: f32, %y: f32) -> f32 {
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT: }
  scf.if %c {
  }
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT:   %2 = arith.addf %arg1, %arg1 : f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  scf.if %c {
    %0 = arith.addf %x, %x : f32
  } else {
  }
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %2 = arith.addf %arg1, %arg1 : f32
  // CHECK-NEXT: } {tag}
  scf.if %c {
    scf.yield
  } else {
    %0 = arith.addf %x, %x : f32
    scf.yield
  } {tag}
  // CHECK-NEXT: %0 = scf.if %arg0 -> (f32) {
  // CHECK-NEXT:   scf.yield %arg1 : f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %arg2 : f32
  // CHECK-NEXT: }
  %r = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    scf.yield %y : f32
  }
  // CHECK-NEXT: %1:2 = scf.if %arg0 -> (f32, f32) {
  // CHECK-NEXT:   scf.yield %arg1, %arg2 : f32, f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %arg2, %arg1 : f32, f32
  // CHECK-NEXT: }
  %p:2 = scf.if %c -> (f32, f32) {
    scf.yield %x, %y : f32, f32
  } else {
    scf.yield %y, %x : f32, f32
  }
  // CHECK-NEXT: return %0 : f32
  return %r : f32
}

// CHECK-LABEL: func.func @while_ops
func.func @while_ops(%c: i1, %x: f32, %i: i32) -> f32 {
  // CHECK-NEXT: %0 = scf.while (%arg3 = %arg1) : (f32) -> f32 {
  // CHECK-NEXT:   scf.condition(%arg0) %arg3 : f32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%arg3: f32):
  // CHECK-NEXT:   scf.yield %arg3 : f32
  // CHECK-NEXT: }
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  // Before and after regions may carry different types.
  // CHECK-NEXT: %1:2 = scf.while (%arg3 = %arg1, %arg4 = %arg2) : (f32, i32) -> (i32, f32) {
  // CHECK-NEXT:   scf.condition(%arg0) %arg4, %arg3 : i32, f32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%arg3: i32, %arg4: f32):
  // CHECK-NEXT:   scf.yield %arg4, %arg3 : f32, i32
  // CHECK-NEXT: }
  %s:2 = scf.while (%a = %x, %b = %i) : (f32, i32) -> (i32, f32) {
    scf.condition(%c) %b, %a : i32, f32
  } do {
  ^bb0(%p: i32, %q: f32):
    scf.yield %q, %p : f32, i32
  }
  // CHECK-NEXT: scf.while : () -> () {
  // CHECK-NEXT:   scf.condition(%arg0)
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: } attributes {tag}
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {tag}
  // CHECK-NEXT: return %0 : f32
  return %r : f32
}

// CHECK-LABEL: func.func @execute_region
func.func @execute_region(%c: i1, %x: i64) -> i64 {
  // CHECK-NEXT: %0 = scf.execute_region -> i64 {
  // CHECK-NEXT:   scf.yield %arg1 : i64
  // CHECK-NEXT: }
  %a = scf.execute_region -> i64 {
    scf.yield %x : i64
  }
  // CHECK-NEXT: scf.execute_region no_inline {
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: }
  scf.execute_region no_inline {
    scf.yield
  }
  // Several blocks, with upstream's predecessor comments.
  // CHECK-NEXT: %1:2 = scf.execute_region -> (i64, i64) {
  // CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
  // CHECK-NEXT: ^bb1:  // pred: ^bb0
  // CHECK-NEXT:   cf.br ^bb3(%arg1 : i64)
  // CHECK-NEXT: ^bb2:  // pred: ^bb0
  // CHECK-NEXT:   cf.br ^bb3(%0 : i64)
  // CHECK-NEXT: ^bb3(%2: i64):  // 2 preds: ^bb1, ^bb2
  // CHECK-NEXT:   scf.yield %2, %2 : i64, i64
  // CHECK-NEXT: } {tag}
  %b:2 = scf.execute_region -> (i64, i64) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    cf.br ^bb3(%x : i64)
  ^bb2:
    cf.br ^bb3(%a : i64)
  ^bb3(%v: i64):
    scf.yield %v, %v : i64, i64
  } {tag}
  // CHECK-NEXT: return %1#0 : i64
  return %b#0 : i64
}

// CHECK-LABEL: func.func @index_switch
func.func @index_switch(%idx: index, %v: i32) -> i32 {
  // The printer leaves a space before each case's newline, as upstream's.
  // CHECK-NEXT: %0 = scf.index_switch %arg0 -> i32 {{$}}
  // CHECK-NEXT: case 2 {
  // CHECK-NEXT:   scf.yield %arg1 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: case -5 {
  // CHECK-NEXT:   %c1_i32 = arith.constant 1 : i32
  // CHECK-NEXT:   scf.yield %c1_i32 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT:   scf.yield %arg1 : i32
  // CHECK-NEXT: }
  %r = scf.index_switch %idx -> i32
  case 2 {
    scf.yield %v : i32
  }
  case -5 {
    %c1 = arith.constant 1 : i32
    scf.yield %c1 : i32
  }
  default {
    scf.yield %v : i32
  }
  // The default region's empty yield is implicit; case regions print theirs.
  // CHECK-NEXT: scf.index_switch %arg0 {tag} {{$}}
  // CHECK-NEXT: case 0 {
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT: }
  scf.index_switch %idx {tag}
  case 0 {
    scf.yield
  }
  default {
  }
  // CHECK-NEXT: %1:2 = scf.index_switch %arg0 -> i32, i32 {{$}}
  // CHECK-NEXT: default {
  // CHECK-NEXT:   scf.yield %arg1, %0 : i32, i32
  // CHECK-NEXT: }
  %p:2 = scf.index_switch %idx -> i32, i32
  default {
    scf.yield %v, %r : i32, i32
  }
  // CHECK-NEXT: return %0 : i32
  return %r : i32
}

// CHECK-LABEL: func.func @parallel
func.func @parallel(%lb: index, %ub: index, %st: index, %x: f32) -> f32 {
  // A reduction-free body ends in an implicit, printed `scf.reduce`.
  // CHECK-NEXT: scf.parallel (%arg4, %arg5) = (%arg0, %arg0) to (%arg1, %arg1) step (%arg2, %arg2) {
  // CHECK-NEXT:   %1 = arith.addi %arg4, %arg5 : index
  // CHECK-NEXT:   scf.reduce {{$}}
  // CHECK-NEXT: }
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    %0 = arith.addi %i, %j : index
  }
  // CHECK-NEXT: %0:2 = scf.parallel (%arg4) = (%arg0) to (%arg1) step (%arg2) init (%arg3, %arg3) -> (f32, f32) {
  // CHECK-NEXT:   scf.reduce(%arg3, %arg3 : f32, f32) {
  // CHECK-NEXT:   ^bb0(%arg5: f32, %arg6: f32):
  // CHECK-NEXT:     %1 = arith.addf %arg5, %arg6 : f32
  // CHECK-NEXT:     scf.reduce.return %1 : f32
  // CHECK-NEXT:   }, {
  // CHECK-NEXT:   ^bb0(%arg5: f32, %arg6: f32):
  // CHECK-NEXT:     %1 = arith.mulf %arg5, %arg6 : f32
  // CHECK-NEXT:     scf.reduce.return %1 : f32
  // CHECK-NEXT:   }
  // CHECK-NEXT: } {tag}
  %r:2 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x, %x) -> (f32, f32) {
    scf.reduce(%x, %x : f32, f32) {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.mulf %l, %rr : f32
      scf.reduce.return %s : f32
    }
  } {tag}
  // CHECK-NEXT: return %0#1 : f32
  return %r#1 : f32
}

// CHECK-LABEL: func.func @forall
func.func @forall(%n: index, %t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // Zero lower bounds and unit steps print the short `in` form.
  // CHECK-NEXT: %0 = scf.forall (%arg2, %arg3) in (%arg0, 8) shared_outs(%arg4 = %arg1) -> (tensor<8x8xf32>) {
  // CHECK-NEXT:   %1 = arith.addi %arg2, %arg3 : index
  // CHECK-NEXT:   scf.forall.in_parallel {
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  %r = scf.forall (%i, %j) in (%n, 8) shared_outs(%o = %t) -> (tensor<8x8xf32>) {
    %0 = arith.addi %i, %j : index
    scf.forall.in_parallel {
    }
  }
  // CHECK-NEXT: scf.forall (%arg2) = (%arg0) to (16) step (4) {
  // CHECK-NEXT: } {mapping = [#gpu.thread<x>]}
  scf.forall (%i) = (%n) to (16) step (4) {
  } {mapping = [#gpu.thread<x>]}
  // CHECK-NEXT: scf.forall (%arg2, %arg3) in (4, 2) {
  // CHECK-NEXT: }
  scf.forall (%i, %j) = (0, 0) to (4, 2) step (1, 1) {
    scf.forall.in_parallel {
    }
  }
  // CHECK-NEXT: scf.forall (%arg2) = (-4) to (%arg0) step (2) {
  // CHECK-NEXT: }
  scf.forall (%i) = (-4) to (%n) step (2) {
  }
  // CHECK-NEXT: return %0 : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
