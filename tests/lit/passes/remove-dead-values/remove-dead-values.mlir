// RUN: strata-opt %s --split-input-file --remove-dead-values | filecheck %s

// A private function called only by func.call loses its dead argument (and the call
// operand) and the result no call site uses; dead pure ops go.
// CHECK-LABEL: func.func private @f(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @main(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = call @f(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func private @f(%a: i32, %unused: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %unused, %unused : i32
  return %0, %1 : i32, i32
}
func.func @main(%x: i32, %y: i32) -> i32 {
  %dead = arith.subi %x, %y : i32
  %r:2 = func.call @f(%x, %y) : (i32, i32) -> (i32, i32)
  return %r#0 : i32
}

// -----

// Ops with effects stay, with what they read; an effect-free region op whose results are
// dead goes whole; one with a store inside stays.
// CHECK:  ml_program.global private mutable @g(0 : i32) : i32
// CHECK-LABEL: func.func @effects(%arg0: i32, %arg1: i1) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    ml_program.global_store @g = %0 : i32
// CHECK-NEXT:    scf.if %arg1 {
// CHECK-NEXT:      %1 = arith.subi %arg0, %arg0 : i32
// CHECK-NEXT:      ml_program.global_store @g = %1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
ml_program.global private mutable @g(0 : i32) : i32
func.func @effects(%x: i32, %c: i1) {
  %0 = arith.addi %x, %x : i32
  ml_program.global_store @g = %0 : i32
  %1 = arith.muli %x, %x : i32
  %r = scf.if %c -> i32 {
    %2 = arith.addi %1, %1 : i32
    scf.yield %2 : i32
  } else {
    scf.yield %x : i32
  }
  scf.if %c {
    %3 = arith.subi %x, %x : i32
    ml_program.global_store @g = %3 : i32
  }
  return
}

// -----

// Dead arguments of non-entry blocks go, with the operands branches forward to them.
// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%0 : i32)
// CHECK-NEXT:  ^bb2(%1: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%1 : i32)
// CHECK-NEXT:  ^bb3(%2: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %2 : i32
// CHECK-NEXT:  }
func.func @branches(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2(%y : i32)
^bb1(%a: i32, %b: i32):
  cf.br ^bb3(%a, %b : i32, i32)
^bb2(%d: i32):
  cf.br ^bb3(%d, %d : i32, i32)
^bb3(%p: i32, %q: i32):
  return %p : i32
}

// -----

// A function referenced other than by calls keeps its signature.
// CHECK-LABEL: func.func private @g(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @refers_to_g() attributes {ref = @g} {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func private @g(%a: i32) -> i32 {
  return %a : i32
}
func.func @refers_to_g() attributes {ref = @g} {
  return
}

// -----

// Recursion: the dead argument stays live through the region op holding the recursive
// call, which has effects (a known gap: region-branch ops are not narrowed).
// CHECK-LABEL: func.func private @rec(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %0 = arith.cmpi eq, %arg0, %c0_i32 : i32
// CHECK-NEXT:    %1:2 = scf.if %0 -> (i32, i32) {
// CHECK-NEXT:      scf.yield %arg0, %arg1 : i32, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:      %2 = arith.subi %arg0, %c1_i32 : i32
// CHECK-NEXT:      %3:2 = func.call @rec(%2, %arg1) : (i32, i32) -> (i32, i32)
// CHECK-NEXT:      scf.yield %3#0, %3#1 : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %1#0, %1#1 : i32, i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @use_rec(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0:2 = call @rec(%arg0, %arg0) : (i32, i32) -> (i32, i32)
// CHECK-NEXT:    return %0#0 : i32
// CHECK-NEXT:  }
func.func private @rec(%n: i32, %junk: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %done = arith.cmpi eq, %n, %c0 : i32
  %r:2 = scf.if %done -> (i32, i32) {
    scf.yield %n, %junk : i32, i32
  } else {
    %c1 = arith.constant 1 : i32
    %m = arith.subi %n, %c1 : i32
    %s:2 = func.call @rec(%m, %junk) : (i32, i32) -> (i32, i32)
    scf.yield %s#0, %s#1 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
func.func @use_rec(%n: i32) -> i32 {
  %r:2 = func.call @rec(%n, %n) : (i32, i32) -> (i32, i32)
  return %r#0 : i32
}

// -----

// A private function without callers loses all its results and dead arguments.
// CHECK-LABEL: func.func private @no_callers() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func private @no_callers(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
