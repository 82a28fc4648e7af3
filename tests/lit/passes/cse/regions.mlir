// RUN: strata-opt %s --cse | filecheck %s

// Regions see the expressions of the regions around them.
// CHECK-LABEL: func.func @nested(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:    %0 = arith.addi %arg1, %c2_i32 : i32
// CHECK-NEXT:    %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %4 = arith.muli %0, %0 : i32
// CHECK-NEXT:      scf.yield %4 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %4 = arith.muli %0, %0 : i32
// CHECK-NEXT:      scf.yield %4 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = arith.muli %0, %0 : i32
// CHECK-NEXT:    %3 = arith.addi %1, %2 : i32
// CHECK-NEXT:    return %3 : i32
// CHECK-NEXT:  }
func.func @nested(%c: i1, %a: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %a, %c2 : i32
  %r = scf.if %c -> i32 {
    %c2_0 = arith.constant 2 : i32
    %1 = arith.addi %a, %c2_0 : i32
    %2 = arith.muli %1, %1 : i32
    scf.yield %2 : i32
  } else {
    %3 = arith.muli %0, %0 : i32
    scf.yield %3 : i32
  }
  %4 = arith.muli %0, %0 : i32
  %5 = arith.addi %r, %4 : i32
  return %5 : i32
}

// Sibling regions do not see each other; the op after them neither.
// CHECK-LABEL: func.func @siblings(%arg0: i1, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:    %0:2 = scf.if %arg0 -> (i32, i32) {
// CHECK-NEXT:      %2 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:      scf.yield %2, %2 : i32, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %2 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:      scf.yield %2, %2 : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    return %0#0, %1 : i32, i32
// CHECK-NEXT:  }
func.func @siblings(%c: i1, %a: i32) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x, %x : i32, i32
  } else {
    %y = arith.addi %a, %a : i32
    %y2 = arith.addi %a, %a : i32
    scf.yield %y, %y2 : i32, i32
  }
  %z = arith.addi %a, %a : i32
  return %r#0, %z : i32, i32
}

// Loop bodies are simplified, then identical loops are CSE'd as a whole.
// CHECK-LABEL: func.func @loops(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> (f32, f32) {
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %0 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (f32) {
// CHECK-NEXT:      %1 = arith.addf %arg5, %cst : f32
// CHECK-NEXT:      %2 = arith.mulf %1, %1 : f32
// CHECK-NEXT:      scf.yield %2 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %0 : f32, f32
// CHECK-NEXT:  }
func.func @loops(%lb: index, %ub: index, %st: index, %init: f32) -> (f32, f32) {
  %cst = arith.constant 1.0 : f32
  %r0 = scf.for %i = %lb to %ub step %st iter_args(%acc = %init) -> (f32) {
    %cst_0 = arith.constant 1.0 : f32
    %0 = arith.addf %acc, %cst_0 : f32
    %1 = arith.addf %acc, %cst : f32
    %2 = arith.mulf %0, %1 : f32
    scf.yield %2 : f32
  }
  %r1 = scf.for %i = %lb to %ub step %st iter_args(%acc = %init) -> (f32) {
    %cst_0 = arith.constant 1.0 : f32
    %0 = arith.addf %acc, %cst_0 : f32
    %1 = arith.addf %acc, %cst : f32
    %2 = arith.mulf %0, %1 : f32
    scf.yield %2 : f32
  }
  return %r0, %r1 : f32, f32
}

// Region ops match structurally (commutative ops inside too).
// CHECK-LABEL: func.func @regions(%arg0: i1, %arg1: i32, %arg2: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %3 = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %3 = arith.subi %arg1, %arg2 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %3 = arith.subi %arg2, %arg1 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %0, %1, %2 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @regions(%c: i1, %a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %r1 = scf.if %c -> i32 {
    %x = arith.addi %a, %b : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r2 = scf.if %c -> i32 {
    %x = arith.addi %b, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r3 = scf.if %c -> i32 {
    %x = arith.subi %a, %b : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r4 = scf.if %c -> i32 {
    %x = arith.subi %b, %a : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  return %r1, %r2, %r3, %r4 : i32, i32, i32, i32
}

// Values defined at any depth correspond between the two ops.
// CHECK-LABEL: func.func @deep(%arg0: i1, %arg1: i1, %arg2: i32) -> (i32, i32) {
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %1 = scf.if %arg1 -> (i32) {
// CHECK-NEXT:        %2 = arith.addi %arg2, %arg2 : i32
// CHECK-NEXT:        %3 = arith.muli %2, %2 : i32
// CHECK-NEXT:        scf.yield %3 : i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %arg2 : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %1 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @deep(%c: i1, %d: i1, %a: i32) -> (i32, i32) {
  %r1 = scf.if %c -> i32 {
    %x = scf.if %d -> i32 {
      %q = arith.addi %a, %a : i32
      %w = arith.muli %q, %q : i32
      scf.yield %w : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %r2 = scf.if %c -> i32 {
    %x = scf.if %d -> i32 {
      %q = arith.addi %a, %a : i32
      %w = arith.muli %q, %q : i32
      scf.yield %w : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  return %r1, %r2 : i32, i32
}

// A dead region op is erased without simplifying its body first.
// CHECK-LABEL: func.func @dead_region(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @dead_region(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> i32 {
    %x = arith.addi %a, %a : i32
    %y = arith.addi %a, %a : i32
    %z = arith.addi %x, %y : i32
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// scf.while regions are simplified; identical index_switch ops CSE'd.
// CHECK-LABEL: func.func @while(%arg0: i32, %arg1: i32, %arg2: index) -> (i32, i32, i32) {
// CHECK-NEXT:    %0 = scf.while (%arg3 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:      %2 = arith.cmpi slt, %arg3, %arg1 : i32
// CHECK-NEXT:      scf.condition(%2) %arg3 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg3: i32):
// CHECK-NEXT:      %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:      %2 = arith.addi %arg3, %c1_i32 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.index_switch %arg2 -> i32 
// CHECK-NEXT:    case 2 {
// CHECK-NEXT:      %2 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      scf.yield %arg0 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %1, %1 : i32, i32, i32
// CHECK-NEXT:  }
func.func @while(%a: i32, %n: i32, %s: index) -> (i32, i32, i32) {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    %c_0 = arith.cmpi slt, %x, %n : i32
    scf.condition(%c_0) %x : i32
  } do {
  ^bb0(%y: i32):
    %one = arith.constant 1 : i32
    %one_0 = arith.constant 1 : i32
    %z = arith.addi %y, %one_0 : i32
    scf.yield %z : i32
  }
  %s0 = scf.index_switch %s -> i32
  case 2 {
    %q = arith.addi %a, %a : i32
    scf.yield %q : i32
  }
  default {
    scf.yield %a : i32
  }
  %s1 = scf.index_switch %s -> i32
  case 2 {
    %q = arith.addi %a, %a : i32
    scf.yield %q : i32
  }
  default {
    scf.yield %a : i32
  }
  return %r, %s0, %s1 : i32, i32, i32
}

// scf.execute_region ops CSE structurally; a multi-block body is simplified along dominance.
// CHECK-LABEL: func.func @exec(%arg0: i32, %arg1: i32) -> (i32, i32, i32) {
// CHECK-NEXT:    %0 = scf.execute_region -> i32 {
// CHECK-NEXT:      %2 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:      scf.yield %2 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.execute_region -> i32 {
// CHECK-NEXT:      cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:    ^bb1(%2: i32):  // pred: ^bb0
// CHECK-NEXT:      %3 = arith.addi %2, %arg1 : i32
// CHECK-NEXT:      scf.yield %3 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %0, %0, %1 : i32, i32, i32
// CHECK-NEXT:  }
func.func @exec(%a: i32, %b: i32) -> (i32, i32, i32) {
  %r1 = scf.execute_region -> i32 {
    %x = arith.addi %a, %b : i32
    scf.yield %x : i32
  }
  %r2 = scf.execute_region -> i32 {
    %x = arith.addi %b, %a : i32
    scf.yield %x : i32
  }
  %r3 = scf.execute_region -> i32 {
    cf.br ^bb1(%a : i32)
  ^bb1(%y: i32):
    %z = arith.addi %y, %b : i32
    %z2 = arith.addi %y, %b : i32
    scf.yield %z2 : i32
  }
  return %r1, %r2, %r3 : i32, i32, i32
}
