// scf canonicalization patterns and folders (strata/dialects/scf_patterns.py and the
// region branch patterns of strata/rewrite/region_branch.py). The CHECK lines are what
// `iree-opt --canonicalize` prints for this file; tests/unit/test_cf_scf_canonicalize.py
// also diffs the whole output against it.
// RUN: strata-opt %s --split-input-file --allow-unregistered-dialect --canonicalize | filecheck %s

// scf.if: unused results go with what the regions yield for them.
func.func private @effect()
// CHECK-LABEL: func.func @if_unused_results(
//  CHECK-NEXT:   %0 = scf.if %arg0 -> (index) {
//  CHECK-NEXT:     func.call @effect() : () -> ()
//  CHECK-NEXT:     %1 = "test.a"() : () -> index
//  CHECK-NEXT:     %2 = "test.b"() : () -> index
//  CHECK-NEXT:     scf.yield %2 : index
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %1 = "test.d"() : () -> index
//  CHECK-NEXT:     %2 = "test.e"() : () -> index
//  CHECK-NEXT:     scf.yield %2 : index
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : index
//  CHECK-NEXT: }
func.func @if_unused_results(%c: i1) -> index {
  %0, %1 = scf.if %c -> (index, index) {
    func.call @effect() : () -> ()
    %a = "test.a"() : () -> index
    %b = "test.b"() : () -> index
    scf.yield %a, %b : index, index
  } else {
    %d = "test.d"() : () -> index
    %e = "test.e"() : () -> index
    scf.yield %d, %e : index, index
  }
  return %1 : index
}

// CHECK-LABEL: func.func @if_all_unused(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     func.call @effect() : () -> ()
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     func.call @effect() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_all_unused(%c: i1) {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %0, %1 = scf.if %c -> (index, index) {
    func.call @effect() : () -> ()
    scf.yield %k0, %k1 : index, index
  } else {
    func.call @effect() : () -> ()
    scf.yield %k0, %k1 : index, index
  }
  return
}

// Empty scf.if ops go; an empty else region goes.
// CHECK-LABEL: func.func @if_empty(
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_empty(%c: i1) {
  scf.if %c {
  }
  scf.if %c {
  } else {
  }
  return
}

// CHECK-LABEL: func.func @if_empty_else(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     func.call @effect() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_empty_else(%c: i1) {
  scf.if %c {
    func.call @effect() : () -> ()
  } else {
  }
  return
}

// -----

// Results yielded from outside become arith.select (or the value itself).
// CHECK-LABEL: func.func @if_to_select(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %0 = arith.select %arg0, %c0, %c1 : index
//  CHECK-NEXT:   return %0 : index
//  CHECK-NEXT: }
func.func @if_to_select(%c: i1) -> index {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %0 = scf.if %c -> index {
    scf.yield %k0 : index
  } else {
    scf.yield %k1 : index
  }
  return %0 : index
}

// CHECK-LABEL: func.func @if_to_select_same(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %0 = arith.select %arg0, %c0, %c1 : index
//  CHECK-NEXT:   return %0, %c1 : index, index
//  CHECK-NEXT: }
func.func @if_to_select_same(%c: i1) -> (index, index) {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %0, %1 = scf.if %c -> (index, index) {
    scf.yield %k0, %k1 : index, index
  } else {
    scf.yield %k1, %k1 : index, index
  }
  return %0, %1 : index, index
}

// CHECK-LABEL: func.func @if_to_select_with_body(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %0 = arith.select %arg0, %c0, %c1 : index
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     "test.op"() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : index
//  CHECK-NEXT: }
func.func @if_to_select_with_body(%c: i1) -> index {
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %0 = scf.if %c -> index {
    "test.op"() : () -> ()
    scf.yield %k0 : index
  } else {
    scf.yield %k1 : index
  }
  return %0 : index
}

// CHECK-LABEL: func.func @if_to_select_partial(
//  CHECK-NEXT:   %cst = arith.constant 2.000000e+00 : f32
//  CHECK-NEXT:   %0 = arith.select %arg0, %arg1, %cst : f32
//  CHECK-NEXT:   %1 = arith.select %arg0, %arg1, %cst : f32
//  CHECK-NEXT:   %2 = scf.if %arg0 -> (f32) {
//  CHECK-NEXT:     %3 = "test.make"() : () -> f32
//  CHECK-NEXT:     scf.yield %3 : f32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     scf.yield %arg1 : f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %2, %1 : f32, f32, f32
//  CHECK-NEXT: }
func.func @if_to_select_partial(%c: i1, %x: f32) -> (f32, f32, f32) {
  %0:3 = scf.if %c -> (f32, f32, f32) {
    %n = "test.make"() : () -> f32
    scf.yield %x, %n, %x : f32, f32, f32
  } else {
    %y = arith.constant 2.0 : f32
    scf.yield %y, %x, %y : f32, f32, f32
  }
  return %0#0, %0#1, %0#2 : f32, f32, f32
}

// A result yielding true / false is the condition.
// CHECK-LABEL: func.func @if_yields_condition(
//  CHECK-NEXT:   %0 = scf.if %arg0 -> (f32) {
//  CHECK-NEXT:     %1 = "test.then"() : () -> f32
//  CHECK-NEXT:     scf.yield %1 : f32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %1 = "test.else"() : () -> f32
//  CHECK-NEXT:     scf.yield %1 : f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %arg0, %0 : i1, f32
//  CHECK-NEXT: }
func.func @if_yields_condition(%c: i1) -> (i1, f32) {
  %t = arith.constant true
  %f = arith.constant false
  %0:2 = scf.if %c -> (i1, f32) {
    %v = "test.then"() : () -> f32
    scf.yield %t, %v : i1, f32
  } else {
    %w = "test.else"() : () -> f32
    scf.yield %f, %w : i1, f32
  }
  return %0#0, %0#1 : i1, f32
}

// The condition is true inside `then` (nested regions too) and false inside `else`.
// CHECK-LABEL: func.func @if_condition_propagation(
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     "test.then"(%true) : (i1) -> ()
//  CHECK-NEXT:     scf.if %arg1 {
//  CHECK-NEXT:       "test.nested"(%true) : (i1) -> ()
//  CHECK-NEXT:     }
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     "test.else"(%false) : (i1) -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   "test.after"(%arg0) : (i1) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_condition_propagation(%c: i1, %d: i1) {
  scf.if %c {
    "test.then"(%c) : (i1) -> ()
    scf.if %d {
      "test.nested"(%c) : (i1) -> ()
    }
  } else {
    "test.else"(%c) : (i1) -> ()
  }
  "test.after"(%c) : (i1) -> ()
  return
}

// -----

// A constant condition inlines the region it picks.
// CHECK-LABEL: func.func @if_const_true(
//  CHECK-NEXT:   "test.op"() : () -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_const_true() {
  %t = arith.constant true
  scf.if %t {
    "test.op"() : () -> ()
  }
  return
}

// CHECK-LABEL: func.func @if_const_false(
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_const_false() {
  %f = arith.constant false
  scf.if %f {
    "test.op"() : () -> ()
  }
  return
}

// CHECK-LABEL: func.func @if_const_values(
//  CHECK-NEXT:   %0 = "test.op"() : () -> i32
//  CHECK-NEXT:   %1 = "test.other"() : () -> i32
//  CHECK-NEXT:   return %0, %1 : i32, i32
//  CHECK-NEXT: }
func.func @if_const_values(%x: i32) -> (i32, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = scf.if %t -> (i32) {
    %1 = "test.op"() : () -> i32
    scf.yield %1 : i32
  } else {
    %2 = "test.other"() : () -> i32
    scf.yield %2 : i32
  }
  %3 = scf.if %f -> (i32) {
    %4 = "test.op"() : () -> i32
    scf.yield %4 : i32
  } else {
    %5 = "test.other"() : () -> i32
    scf.yield %5 : i32
  }
  return %0, %3 : i32, i32
}

// -----

// An scf.if alone in the `then` of another merges with it (arith.andi).
// CHECK-LABEL: func.func @if_nested_merge(
//  CHECK-NEXT:   %0 = arith.andi %arg0, %arg1 : i1
//  CHECK-NEXT:   scf.if %0 {
//  CHECK-NEXT:     "test.op"() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_nested_merge(%a: i1, %b: i1) {
  scf.if %a {
    scf.if %b {
      "test.op"() : () -> ()
    }
  }
  return
}

// CHECK-LABEL: func.func @if_nested_merge_yield(
//  CHECK-NEXT:   %0 = "test.p0"() : () -> i32
//  CHECK-NEXT:   %1 = "test.p1"() : () -> f32
//  CHECK-NEXT:   %2 = "test.p2"() : () -> i32
//  CHECK-NEXT:   %3 = "test.p3"() : () -> i8
//  CHECK-NEXT:   %4 = arith.andi %arg0, %arg1 : i1
//  CHECK-NEXT:   %5:2 = scf.if %4 -> (f32, i32) {
//  CHECK-NEXT:     %6 = "test.i0"() : () -> i32
//  CHECK-NEXT:     %7 = "test.i1"() : () -> f32
//  CHECK-NEXT:     scf.yield %7, %6 : f32, i32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     scf.yield %1, %2 : f32, i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %5#0, %5#1, %3 : i32, f32, i32, i8
//  CHECK-NEXT: }
func.func @if_nested_merge_yield(%a: i1, %b: i1) -> (i32, f32, i32, i8) {
  %p0 = "test.p0"() : () -> i32
  %p1 = "test.p1"() : () -> f32
  %p2 = "test.p2"() : () -> i32
  %p3 = "test.p3"() : () -> i8
  %r:4 = scf.if %a -> (i32, f32, i32, i8) {
    %in:2 = scf.if %b -> (f32, i32) {
      %i0 = "test.i0"() : () -> i32
      %i1 = "test.i1"() : () -> f32
      scf.yield %i1, %i0 : f32, i32
    } else {
      scf.yield %p1, %p2 : f32, i32
    }
    scf.yield %p0, %in#0, %in#1, %p3 : i32, f32, i32, i8
  } else {
    scf.yield %p0, %p1, %p2, %p3 : i32, f32, i32, i8
  }
  return %r#0, %r#1, %r#2, %r#3 : i32, f32, i32, i8
}

// The inner else yields something else than the outer one: no merge.
// CHECK-LABEL: func.func @if_nested_no_merge(
//  CHECK-NEXT:   %0 = "test.p"() : () -> i32
//  CHECK-NEXT:   %1 = scf.if %arg0 -> (i32) {
//  CHECK-NEXT:     %2 = scf.if %arg1 -> (i32) {
//  CHECK-NEXT:       %3 = "test.i"() : () -> i32
//  CHECK-NEXT:       scf.yield %3 : i32
//  CHECK-NEXT:     } else {
//  CHECK-NEXT:       %3 = "test.j"() : () -> i32
//  CHECK-NEXT:       scf.yield %3 : i32
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.yield %2 : i32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     scf.yield %0 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %1 : i32
//  CHECK-NEXT: }
func.func @if_nested_no_merge(%a: i1, %b: i1) -> i32 {
  %p = "test.p"() : () -> i32
  %r = scf.if %a -> (i32) {
    %in = scf.if %b -> (i32) {
      %i = "test.i"() : () -> i32
      scf.yield %i : i32
    } else {
      %j = "test.j"() : () -> i32
      scf.yield %j : i32
    }
    scf.yield %in : i32
  } else {
    scf.yield %p : i32
  }
  return %r : i32
}

// -----

// Consecutive scf.if ops on the same (or the negated) condition merge.
// CHECK-LABEL: func.func @if_combine(
//  CHECK-NEXT:   %0:2 = scf.if %arg0 -> (i32, i32) {
//  CHECK-NEXT:     %1 = "test.a"() : () -> i32
//  CHECK-NEXT:     %2 = "test.x"(%1) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1, %2 : i32, i32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %1 = "test.b"() : () -> i32
//  CHECK-NEXT:     %2 = "test.y"(%1) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1, %2 : i32, i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0, %0#1 : i32, i32
//  CHECK-NEXT: }
func.func @if_combine(%c: i1) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %a = "test.a"() : () -> i32
    scf.yield %a : i32
  } else {
    %b = "test.b"() : () -> i32
    scf.yield %b : i32
  }
  %1 = scf.if %c -> (i32) {
    %x = "test.x"(%0) : (i32) -> i32
    scf.yield %x : i32
  } else {
    %y = "test.y"(%0) : (i32) -> i32
    scf.yield %y : i32
  }
  return %0, %1 : i32, i32
}

// Uses of the first scf.if's results inside the second read the yielded values.
// CHECK-LABEL: func.func @if_combine_with_uses(
//  CHECK-NEXT:   %0:2 = scf.if %arg0 -> (i32, i32) {
//  CHECK-NEXT:     %1 = "test.a"() : () -> i32
//  CHECK-NEXT:     %2 = "test.x"(%1, %arg1) : (i32, i32) -> i32
//  CHECK-NEXT:     scf.yield %arg1, %2 : i32, i32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %1 = "test.b"() : () -> i32
//  CHECK-NEXT:     %2 = "test.y"(%1) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1, %2 : i32, i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0, %0#1 : i32, i32
//  CHECK-NEXT: }
func.func @if_combine_with_uses(%c: i1, %p: i32) -> (i32, i32) {
  %0:2 = scf.if %c -> (i32, i32) {
    %a = "test.a"() : () -> i32
    scf.yield %a, %p : i32, i32
  } else {
    %b = "test.b"() : () -> i32
    scf.yield %b, %b : i32, i32
  }
  %1 = scf.if %c -> (i32) {
    %x = "test.x"(%0#0, %0#1) : (i32, i32) -> i32
    scf.yield %x : i32
  } else {
    %y = "test.y"(%0#1) : (i32) -> i32
    scf.yield %y : i32
  }
  return %0#1, %1 : i32, i32
}

// CHECK-LABEL: func.func @if_combine_negated(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     "test.first"() : () -> ()
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     "test.second"() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_combine_negated(%c: i1) {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  scf.if %c {
    "test.first"() : () -> ()
  }
  scf.if %n {
    "test.second"() : () -> ()
  }
  return
}

// CHECK-LABEL: func.func @if_combine_no_else(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     "test.one"() : () -> ()
//  CHECK-NEXT:     "test.two"() : () -> ()
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     "test.three"() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_combine_no_else(%c: i1) {
  scf.if %c {
    "test.one"() : () -> ()
  }
  scf.if %c {
    "test.two"() : () -> ()
  } else {
    "test.three"() : () -> ()
  }
  return
}

// CHECK-LABEL: func.func @if_combine_prev_negated(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     "test.four"() : () -> ()
//  CHECK-NEXT:     "test.two"() : () -> ()
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     "test.one"() : () -> ()
//  CHECK-NEXT:     "test.three"() : () -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @if_combine_prev_negated(%c: i1) {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  scf.if %n {
    "test.one"() : () -> ()
  } else {
    "test.four"() : () -> ()
  }
  scf.if %c {
    "test.two"() : () -> ()
  } else {
    "test.three"() : () -> ()
  }
  return
}

// Folder: `scf.if (not %c)` swaps its regions.
// CHECK-LABEL: func.func @if_swap_regions(
//  CHECK-NEXT:   %0 = scf.if %arg0 -> (i32) {
//  CHECK-NEXT:     %1 = "test.b"() : () -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %1 = "test.a"() : () -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @if_swap_regions(%c: i1) -> i32 {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  %r = scf.if %n -> (i32) {
    %a = "test.a"() : () -> i32
    scf.yield %a : i32
  } else {
    %b = "test.b"() : () -> i32
    scf.yield %b : i32
  }
  return %r : i32
}

// -----

// scf.for: an iteration argument yielded back unchanged is its initial value.
func.func private @make() -> i32

// CHECK-LABEL: func.func @for_yield_arg(
//  CHECK-NEXT:   %0 = call @make() : () -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_yield_arg(%lb: index, %ub: index, %st: index) -> i32 {
  %a = func.call @make() : () -> i32
  %b = scf.for %i = %lb to %ub step %st iter_args(%x = %a) -> i32 {
    scf.yield %x : i32
  }
  return %b : i32
}

// CHECK-LABEL: func.func @for_yields_mixed(
//  CHECK-NEXT:   %0 = call @make() : () -> i32
//  CHECK-NEXT:   %1 = call @make() : () -> i32
//  CHECK-NEXT:   %2 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %0) -> (i32) {
//  CHECK-NEXT:     %3 = func.call @make() : () -> i32
//  CHECK-NEXT:     scf.yield %3 : i32
//  CHECK-NEXT:   } {keep_me}
//  CHECK-NEXT:   return %0, %2, %1 : i32, i32, i32
//  CHECK-NEXT: }
func.func @for_yields_mixed(%lb: index, %ub: index, %st: index) -> (i32, i32, i32) {
  %a = func.call @make() : () -> i32
  %b = func.call @make() : () -> i32
  %r:3 = scf.for %i = %lb to %ub step %st iter_args(%x = %a, %y = %a, %z = %b) -> (i32, i32, i32) {
    %c = func.call @make() : () -> i32
    scf.yield %x, %c, %z : i32, i32, i32
  } {keep_me}
  return %r#0, %r#1, %r#2 : i32, i32, i32
}

// Runs at least once and always yields the same outer value: that value.
// CHECK-LABEL: func.func @for_twice_outer_value(
//  CHECK-NEXT:   %c4_i32 = arith.constant 4 : i32
//  CHECK-NEXT:   return %c4_i32 : i32
//  CHECK-NEXT: }
func.func @for_twice_outer_value() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = arith.constant 3 : i32
  %b = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> i32 {
    scf.yield %b : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @for_const_iter_arg(
//  CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
//  CHECK-NEXT:   scf.for %arg3 = %arg0 to %arg1 step %arg2 {
//  CHECK-NEXT:     "test.use"(%c0_i32) : (i32) -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @for_const_iter_arg(%lb: index, %ub: index, %st: index) {
  %k = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%x = %k) -> i32 {
    "test.use"(%x) : (i32) -> ()
    scf.yield %k : i32
  }
  return
}

// An iteration argument goes only when neither it nor its result is used.
// CHECK-LABEL: func.func @for_unused_iter_args(
//  CHECK-NEXT:   %0:2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3, %arg7 = %arg4) -> (f32, f32) {
//  CHECK-NEXT:     %1 = arith.addf %arg6, %arg6 : f32
//  CHECK-NEXT:     "test.use"(%1) : (f32) -> ()
//  CHECK-NEXT:     %2 = arith.mulf %arg7, %arg7 : f32
//  CHECK-NEXT:     scf.yield %1, %2 : f32, f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0 : f32
//  CHECK-NEXT: }
func.func @for_unused_iter_args(%lb: index, %ub: index, %st: index, %a: f32, %b: f32) -> f32 {
  %r:3 = scf.for %i = %lb to %ub step %st iter_args(%x = %a, %y = %b, %z = %a) -> (f32, f32, f32) {
    %n = arith.addf %x, %x : f32
    "test.use"(%n) : (f32) -> ()
    %m = arith.mulf %y, %y : f32
    scf.yield %n, %m, %z : f32, f32, f32
  }
  return %r#0 : f32
}

// CHECK-LABEL: func.func @for_dup_iter_args(
//  CHECK-NEXT:   %0 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (f32) {
//  CHECK-NEXT:     %1 = arith.addf %arg5, %arg5 : f32
//  CHECK-NEXT:     scf.yield %1 : f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %0 : f32, f32
//  CHECK-NEXT: }
func.func @for_dup_iter_args(%lb: index, %ub: index, %st: index, %a: f32) -> (f32, f32) {
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%x = %a, %y = %a) -> (f32, f32) {
    %n = arith.addf %x, %y : f32
    scf.yield %n, %n : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// CHECK-LABEL: func.func @for_swap_carried(
//  CHECK-NEXT:   %0:2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3, %arg7 = %arg4) -> (f32, f32) {
//  CHECK-NEXT:     "test.use"(%arg6, %arg7) : (f32, f32) -> ()
//  CHECK-NEXT:     scf.yield %arg7, %arg6 : f32, f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0, %0#1 : f32, f32
//  CHECK-NEXT: }
func.func @for_swap_carried(%lb: index, %ub: index, %st: index, %a: f32, %b: f32) -> (f32, f32) {
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%x = %a, %y = %b) -> (f32, f32) {
    "test.use"(%x, %y) : (f32, f32) -> ()
    scf.yield %y, %x : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// A tensor.cast losing static sizes moves into the loop.
// CHECK-LABEL: func.func @for_cast_iter_arg(
//  CHECK-NEXT:   %0 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (tensor<4x8xf32>) {
//  CHECK-NEXT:     %cast_0 = tensor.cast %arg5 : tensor<4x8xf32> to tensor<?x?xf32>
//  CHECK-NEXT:     %1 = "test.f"(%cast_0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
//  CHECK-NEXT:     %cast_1 = tensor.cast %1 : tensor<?x?xf32> to tensor<4x8xf32>
//  CHECK-NEXT:     scf.yield %cast_1 : tensor<4x8xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %cast = tensor.cast %0 : tensor<4x8xf32> to tensor<?x?xf32>
//  CHECK-NEXT:   return %cast : tensor<?x?xf32>
//  CHECK-NEXT: }
func.func @for_cast_iter_arg(%lb: index, %ub: index, %st: index, %t: tensor<4x8xf32>) -> tensor<?x?xf32> {
  %c = tensor.cast %t : tensor<4x8xf32> to tensor<?x?xf32>
  %r = scf.for %i = %lb to %ub step %st iter_args(%x = %c) -> (tensor<?x?xf32>) {
    %n = "test.f"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
    scf.yield %n : tensor<?x?xf32>
  }
  return %r : tensor<?x?xf32>
}

// -----

// A loop running once is inlined (the induction variable is the lower bound); one
// running zero times is its initial values.
// CHECK-LABEL: func.func @for_once(
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %c3_i32 = arith.constant 3 : i32
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c3_i32 : i32
//  CHECK-NEXT:   "test.use"(%c3) : (index) -> ()
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_once(%a: i32) -> i32 {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c3 to %c4 step %c1 iter_args(%x = %a) -> i32 {
    %j = arith.index_cast %i : index to i32
    %s = arith.addi %x, %j : i32
    "test.use"(%i) : (index) -> ()
    scf.yield %s : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @for_once_big_step(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %0 = "test.f"(%arg0, %c0) : (i32, index) -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_once_big_step(%a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c4 step %c8 iter_args(%x = %a) -> i32 {
    %s = "test.f"(%x, %i) : (i32, index) -> i32
    scf.yield %s : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @for_zero_trip(
//  CHECK-NEXT:   return %arg0 : i32
//  CHECK-NEXT: }
func.func @for_zero_trip(%a: i32, %v: index) -> i32 {
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c4 to %c4 step %c1 iter_args(%x = %a) -> i32 {
    %s = "test.f"(%x) : (i32) -> i32
    scf.yield %s : i32
  }
  scf.for %i = %v to %v step %c1 {
    "test.g"() : () -> ()
  }
  return %r : i32
}

// CHECK-LABEL: func.func @for_i32_once(
//  CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c7_i32 : i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_i32_once(%a: i32) -> i32 {
  %lb = arith.constant 7 : i32
  %ub = arith.constant 8 : i32
  %st = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%x = %a) -> (i32) : i32 {
    %s = arith.addi %x, %i : i32
    scf.yield %s : i32
  }
  return %r : i32
}

// Bounds compare unsigned or signed as the loop says.
// CHECK-LABEL: func.func @for_unsigned(
//  CHECK-NEXT:   %c1_i8 = arith.constant 1 : i8
//  CHECK-NEXT:   %c-1_i8 = arith.constant -1 : i8
//  CHECK-NEXT:   %0 = scf.for unsigned %arg1 = %c1_i8 to %c-1_i8 step %c1_i8 iter_args(%arg2 = %arg0) -> (i8)  : i8 {
//  CHECK-NEXT:     %1 = "test.f"(%arg2, %arg1) : (i8, i8) -> i8
//  CHECK-NEXT:     scf.yield %1 : i8
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %arg0 : i8
//  CHECK-NEXT: }
func.func @for_unsigned(%a: i8) -> i8 {
  %lb = arith.constant 1 : i8
  %ub = arith.constant -1 : i8
  %st = arith.constant 1 : i8
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%x = %a) -> (i8) : i8 {
    %s = "test.f"(%x, %i) : (i8, i8) -> i8
    scf.yield %s : i8
  }
  %r2 = scf.for %i = %lb to %ub step %st iter_args(%x = %a) -> (i8) : i8 {
    %s = "test.f"(%x, %i) : (i8, i8) -> i8
    scf.yield %s : i8
  }
  return %r2 : i8
}

// Unknown trip counts: a zero or unknown step.
// CHECK-LABEL: func.func @for_step_zero(
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c2 = arith.constant 2 : index
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %0 = scf.for %arg1 = %c1 to %c2 step %c0 iter_args(%arg2 = %arg0) -> (i32) {
//  CHECK-NEXT:     %1 = "test.f"(%arg2) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_step_zero(%a: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c1 to %c2 step %c0 iter_args(%x = %a) -> i32 {
    %s = "test.f"(%x) : (i32) -> i32
    scf.yield %s : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @for_unknown_step(
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c2 = arith.constant 2 : index
//  CHECK-NEXT:   %0 = scf.for %arg2 = %c1 to %c2 step %arg1 iter_args(%arg3 = %arg0) -> (i32) {
//  CHECK-NEXT:     %1 = "test.f"(%arg3) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_unknown_step(%a: i32, %s: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c1 to %c2 step %s iter_args(%x = %a) -> i32 {
    %t = "test.f"(%x) : (i32) -> i32
    scf.yield %t : i32
  }
  return %r : i32
}

// `ub = lb + 1` without wrap: one iteration.
// CHECK-LABEL: func.func @for_ub_plus_one(
//  CHECK-NEXT:   %0 = "test.f"(%arg1, %arg0) : (i32, index) -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @for_ub_plus_one(%lb: index, %a: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %lb, %c1 overflow<nsw> : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%x = %a) -> i32 {
    %s = "test.f"(%x, %i) : (i32, index) -> i32
    scf.yield %s : i32
  }
  return %r : i32
}

// -----

// scf.while: the condition forwarded to `after` is true there; so are comparisons
// repeating it (their inverse: false).
// CHECK-LABEL: func.func @while_condition_truth(
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   scf.while (%arg1 = %arg0) : (i1) -> () {
//  CHECK-NEXT:     %0 = "test.cond"(%arg1) : (i1) -> i1
//  CHECK-NEXT:     scf.condition(%0)
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:     "test.use"(%true) : (i1) -> ()
//  CHECK-NEXT:     scf.yield %true : i1
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @while_condition_truth(%a: i1) {
  %r = scf.while (%x = %a) : (i1) -> i1 {
    %c = "test.cond"(%x) : (i1) -> i1
    scf.condition(%c) %c : i1
  } do {
  ^bb0(%y: i1):
    "test.use"(%y) : (i1) -> ()
    scf.yield %y : i1
  }
  return
}

// CHECK-LABEL: func.func @while_cmp_cond(
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     %1 = arith.cmpi slt, %arg2, %arg1 : i32
//  CHECK-NEXT:     scf.condition(%1) %arg2 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32):
//  CHECK-NEXT:     %1 = arith.cmpi eq, %arg2, %arg1 : i32
//  CHECK-NEXT:     "test.use"(%true, %false, %1) : (i1, i1, i1) -> ()
//  CHECK-NEXT:     %2 = "test.next"(%arg2) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %2 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @while_cmp_cond(%a: i32, %n: i32) {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %same = arith.cmpi slt, %y, %n : i32
    %inv = arith.cmpi sge, %y, %n : i32
    %other = arith.cmpi eq, %y, %n : i32
    "test.use"(%same, %inv, %other) : (i1, i1, i1) -> ()
    %z = "test.next"(%y) : (i32) -> i32
    scf.yield %z : i32
  }
  return
}

// Unused results and arguments go; invariant ones become the outer value.
// CHECK-LABEL: func.func @while_unused_results(
//  CHECK-NEXT:   %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     %1 = "test.cond"(%arg2) : (i32) -> i1
//  CHECK-NEXT:     scf.condition(%1) %arg2 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32):
//  CHECK-NEXT:     %1 = "test.next"(%arg2) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @while_unused_results(%a: i32, %b: f32) -> i32 {
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, f32) -> (i32, f32) {
    %c = "test.cond"(%x) : (i32) -> i1
    scf.condition(%c) %x, %y : i32, f32
  } do {
  ^bb0(%p: i32, %q: f32):
    %n = "test.next"(%p) : (i32) -> i32
    scf.yield %n, %q : i32, f32
  }
  return %r#0 : i32
}

// CHECK-LABEL: func.func @while_invariant_arg(
//  CHECK-NEXT:   %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     %1 = "test.cond"(%arg2, %arg1) : (i32, i32) -> i1
//  CHECK-NEXT:     scf.condition(%1) %arg2 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32):
//  CHECK-NEXT:     %1 = "test.next"(%arg2) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @while_invariant_arg(%a: i32, %b: i32) -> i32 {
  %r = scf.while (%x = %a, %y = %b) : (i32, i32) -> i32 {
    %c = "test.cond"(%x, %y) : (i32, i32) -> i1
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%p: i32):
    %n = "test.next"(%p) : (i32) -> i32
    scf.yield %n, %b : i32, i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @while_invariant_through_both(
//  CHECK-NEXT:   %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     %1 = "test.cond"(%arg2) : (i32) -> i1
//  CHECK-NEXT:     scf.condition(%1) %arg2 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32):
//  CHECK-NEXT:     %1 = "test.next"(%arg2, %arg1) : (i32, i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %arg1 : i32, i32
//  CHECK-NEXT: }
func.func @while_invariant_through_both(%a: i32, %b: i32) -> (i32, i32) {
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
    %c = "test.cond"(%x) : (i32) -> i1
    scf.condition(%c) %x, %y : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    %n = "test.next"(%p, %q) : (i32, i32) -> i32
    scf.yield %n, %q : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// CHECK-LABEL: func.func @while_dup_results(
//  CHECK-NEXT:   %0 = scf.while (%arg1 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     %1 = "test.cond"(%arg1) : (i32) -> i1
//  CHECK-NEXT:     scf.condition(%1) %arg1 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg1: i32):
//  CHECK-NEXT:     %1 = "test.next"(%arg1, %arg1) : (i32, i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %0 : i32, i32
//  CHECK-NEXT: }
func.func @while_dup_results(%a: i32) -> (i32, i32) {
  %r:2 = scf.while (%x = %a) : (i32) -> (i32, i32) {
    %c = "test.cond"(%x) : (i32) -> i1
    scf.condition(%c) %x, %x : i32, i32
  } do {
  ^bb0(%p: i32, %q: i32):
    %n = "test.next"(%p, %q) : (i32, i32) -> i32
    scf.yield %n : i32
  }
  return %r#0, %r#1 : i32, i32
}

// scf.condition forwards the `before` arguments in their order.
// CHECK-LABEL: func.func @while_align_args(
//  CHECK-NEXT:   %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, f32) -> (i32, f32) {
//  CHECK-NEXT:     %1 = "test.cond"(%arg2, %arg3) : (i32, f32) -> i1
//  CHECK-NEXT:     scf.condition(%1) %arg2, %arg3 : i32, f32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32, %arg3: f32):
//  CHECK-NEXT:     %1:2 = "test.next"(%arg2, %arg3) : (i32, f32) -> (i32, f32)
//  CHECK-NEXT:     scf.yield %1#0, %1#1 : i32, f32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#1, %0#0 : f32, i32
//  CHECK-NEXT: }
func.func @while_align_args(%a: i32, %b: f32) -> (f32, i32) {
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, f32) -> (f32, i32) {
    %c = "test.cond"(%x, %y) : (i32, f32) -> i1
    scf.condition(%c) %y, %x : f32, i32
  } do {
  ^bb0(%p: f32, %q: i32):
    %n:2 = "test.next"(%q, %p) : (i32, f32) -> (i32, f32)
    scf.yield %n#0, %n#1 : i32, f32
  }
  return %r#0, %r#1 : f32, i32
}

// A constant false condition runs `before` once (inlined); true keeps the loop.
// CHECK-LABEL: func.func @while_false(
//  CHECK-NEXT:   %0 = "test.f"(%arg0) : (i32) -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @while_false(%a: i32) -> i32 {
  %f = arith.constant false
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %n = "test.f"(%x) : (i32) -> i32
    scf.condition(%f) %n : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @while_true(
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %0 = scf.while (%arg1 = %arg0) : (i32) -> i32 {
//  CHECK-NEXT:     "test.before"(%arg1) : (i32) -> ()
//  CHECK-NEXT:     scf.condition(%true) %arg1 : i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg1: i32):
//  CHECK-NEXT:     %1 = "test.next"(%arg1) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @while_true(%a: i32) -> i32 {
  %t = arith.constant true
  %r = scf.while (%x = %a) : (i32) -> i32 {
    "test.before"(%x) : (i32) -> ()
    scf.condition(%t) %x : i32
  } do {
  ^bb0(%y: i32):
    %n = "test.next"(%y) : (i32) -> i32
    scf.yield %n : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @while_false_uses_args(
//  CHECK-NEXT:   "test.before"(%arg0, %arg1) : (i32, f32) -> ()
//  CHECK-NEXT:   return %arg0, %arg1 : i32, f32
//  CHECK-NEXT: }
func.func @while_false_uses_args(%a: i32, %b: f32) -> (i32, f32) {
  %f = arith.constant false
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, f32) -> (i32, f32) {
    "test.before"(%x, %y) : (i32, f32) -> ()
    scf.condition(%f) %x, %y : i32, f32
  } do {
  ^bb0(%p: i32, %q: f32):
    "test.after"(%p) : (i32) -> ()
    scf.yield %p, %q : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// An scf.if on the loop condition right before scf.condition moves into `after`.
// CHECK-LABEL: func.func @while_move_if_down(
//  CHECK-NEXT:   %0:2 = scf.while (%arg2 = %arg0) : (i32) -> (i32, i32) {
//  CHECK-NEXT:     %1 = "test.cond"(%arg2) : (i32) -> i1
//  CHECK-NEXT:     %2 = arith.addi %arg2, %arg1 : i32
//  CHECK-NEXT:     scf.condition(%1) %arg2, %2 : i32, i32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg2: i32, %arg3: i32):
//  CHECK-NEXT:     %1 = arith.muli %arg3, %arg3 : i32
//  CHECK-NEXT:     "test.inside"(%1) : (i32) -> ()
//  CHECK-NEXT:     "test.body"(%1) : (i32) -> ()
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0 : i32
//  CHECK-NEXT: }
func.func @while_move_if_down(%a: i32, %k: i32) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = "test.cond"(%x) : (i32) -> i1
    %v = arith.addi %x, %k : i32
    %w = scf.if %c -> (i32) {
      %m = arith.muli %v, %v : i32
      "test.inside"(%m) : (i32) -> ()
      scf.yield %m : i32
    } else {
      scf.yield %x : i32
    }
    scf.condition(%c) %w : i32
  } do {
  ^bb0(%y: i32):
    "test.body"(%y) : (i32) -> ()
    scf.yield %y : i32
  }
  return %r : i32
}


// The values the moved `then` region reads from `before` become extra arguments.
// CHECK-LABEL: func.func @while_move_if_down_values(
//  CHECK-NEXT:   %0:4 = scf.while (%arg5 = %arg0) : (i32) -> (i32, i32, i32, f32) {
//  CHECK-NEXT:     %1 = "test.cond"(%arg5) : (i32) -> i1
//  CHECK-NEXT:     %2 = arith.addi %arg5, %arg1 : i32
//  CHECK-NEXT:     %3 = "test.u"(%arg5) : (i32) -> f32
//  CHECK-NEXT:     %4 = "test.q"() : () -> i32
//  CHECK-NEXT:     scf.condition(%1) %arg5, %4, %2, %3 : i32, i32, i32, f32
//  CHECK-NEXT:   } do {
//  CHECK-NEXT:   ^bb0(%arg5: i32, %arg6: i32, %arg7: i32, %arg8: f32):
//  CHECK-NEXT:     scf.for %arg9 = %arg2 to %arg3 step %arg4 {
//  CHECK-NEXT:       "test.inner"(%arg6, %arg7) : (i32, i32) -> ()
//  CHECK-NEXT:     }
//  CHECK-NEXT:     %1 = arith.muli %arg7, %arg7 : i32
//  CHECK-NEXT:     "test.inside"(%1, %arg8, %arg5) : (i32, f32, i32) -> ()
//  CHECK-NEXT:     "test.body"(%1) : (i32) -> ()
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0#0 : i32
//  CHECK-NEXT: }
func.func @while_move_if_down_values(%a: i32, %k: i32, %lb: index, %ub: index, %s: index) -> i32 {
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = "test.cond"(%x) : (i32) -> i1
    %v = arith.addi %x, %k : i32
    %u = "test.u"(%x) : (i32) -> f32
    %q = "test.q"() : () -> i32
    %w = scf.if %c -> (i32) {
      scf.for %i = %lb to %ub step %s {
        "test.inner"(%q, %v) : (i32, i32) -> ()
      }
      %m = arith.muli %v, %v : i32
      "test.inside"(%m, %u, %x) : (i32, f32, i32) -> ()
      scf.yield %m : i32
    } else {
      scf.yield %x : i32
    }
    scf.condition(%c) %w : i32
  } do {
  ^bb0(%y: i32):
    "test.body"(%y) : (i32) -> ()
    scf.yield %y : i32
  }
  return %r : i32
}

// -----

// scf.execute_region: a single block is inlined (not with no_inline); several blocks
// are inlined as blocks of a function body.
// CHECK-LABEL: func.func @exec_single(
//  CHECK-NEXT:   "test.before"() : () -> ()
//  CHECK-NEXT:   %0 = "test.val"(%arg0) : (i32) -> i32
//  CHECK-NEXT:   "test.after"(%0) : (i32) -> ()
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @exec_single(%a: i32) -> i32 {
  "test.before"() : () -> ()
  %r = scf.execute_region -> i32 {
    %n = "test.val"(%a) : (i32) -> i32
    scf.yield %n : i32
  }
  "test.after"(%r) : (i32) -> ()
  return %r : i32
}

// CHECK-LABEL: func.func @exec_no_inline(
//  CHECK-NEXT:   %0 = scf.execute_region -> i32 no_inline {
//  CHECK-NEXT:     %1 = "test.val"(%arg0) : (i32) -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @exec_no_inline(%a: i32) -> i32 {
  %r = scf.execute_region -> i32 no_inline {
    %n = "test.val"(%a) : (i32) -> i32
    scf.yield %n : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @exec_nested(
//  CHECK-NEXT:   %0 = "test.v"(%arg0) : (i32) -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @exec_nested(%a: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    %s = scf.execute_region -> i32 {
      %v = "test.v"(%a) : (i32) -> i32
      scf.yield %v : i32
    }
    scf.yield %s : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @exec_multi(
//  CHECK-NEXT:   "test.before"() : () -> ()
//  CHECK-NEXT:   %0 = "test.cmp"() : () -> i1
//  CHECK-NEXT:   cf.cond_br %0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   %1 = "test.v1"() : () -> i32
//  CHECK-NEXT:   cf.br ^bb3(%1 : i32)
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   %2 = "test.v2"() : () -> i32
//  CHECK-NEXT:   cf.br ^bb3(%2 : i32)
//  CHECK-NEXT: ^bb3(%3: i32):  // 2 preds: ^bb1, ^bb2
//  CHECK-NEXT:   "test.after"(%3) : (i32) -> ()
//  CHECK-NEXT:   return %3 : i32
//  CHECK-NEXT: }
func.func @exec_multi(%a: i32) -> i32 {
  "test.before"() : () -> ()
  %r = scf.execute_region -> i32 {
    %c = "test.cmp"() : () -> i1
    cf.cond_br %c, ^x, ^y
  ^x:
    %v1 = "test.v1"() : () -> i32
    cf.br ^z(%v1 : i32)
  ^y:
    %v2 = "test.v2"() : () -> i32
    cf.br ^z(%v2 : i32)
  ^z(%v: i32):
    scf.yield %v : i32
  }
  "test.after"(%r) : (i32) -> ()
  return %r : i32
}

// Not directly in a function body: kept.
// CHECK-LABEL: func.func @exec_multi_in_loop(
//  CHECK-NEXT:   scf.for %arg3 = %arg0 to %arg1 step %arg2 {
//  CHECK-NEXT:     %0 = scf.execute_region -> index {
//  CHECK-NEXT:       %1 = "test.c"() : () -> i1
//  CHECK-NEXT:       cf.cond_br %1, ^bb1, ^bb2
//  CHECK-NEXT:     ^bb1:  // pred: ^bb0
//  CHECK-NEXT:       scf.yield %arg3 : index
//  CHECK-NEXT:     ^bb2:  // pred: ^bb0
//  CHECK-NEXT:       %2 = "test.j"() : () -> index
//  CHECK-NEXT:       scf.yield %2 : index
//  CHECK-NEXT:     }
//  CHECK-NEXT:     "test.use"(%0) : (index) -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @exec_multi_in_loop(%lb: index, %ub: index, %st: index) {
  scf.for %i = %lb to %ub step %st {
    %r = scf.execute_region -> index {
      %c = "test.c"() : () -> i1
      cf.cond_br %c, ^a, ^b
    ^a:
      scf.yield %i : index
    ^b:
      %j = "test.j"() : () -> index
      scf.yield %j : index
    }
    "test.use"(%r) : (index) -> ()
  }
  return
}

// Inside an scf.if (not a function body): the multi-block region stays.
// CHECK-LABEL: func.func @exec_multi_in_if(
//  CHECK-NEXT:   scf.if %arg0 {
//  CHECK-NEXT:     %0 = scf.execute_region -> i32 {
//  CHECK-NEXT:       %1 = "test.cmp"() : () -> i1
//  CHECK-NEXT:       cf.cond_br %1, ^bb1, ^bb2
//  CHECK-NEXT:     ^bb1:  // pred: ^bb0
//  CHECK-NEXT:       %2 = "test.v1"() : () -> i32
//  CHECK-NEXT:       scf.yield %2 : i32
//  CHECK-NEXT:     ^bb2:  // pred: ^bb0
//  CHECK-NEXT:       %3 = "test.v2"() : () -> i32
//  CHECK-NEXT:       scf.yield %3 : i32
//  CHECK-NEXT:     }
//  CHECK-NEXT:     "test.use"(%0) : (i32) -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @exec_multi_in_if(%c: i1) {
  scf.if %c {
    %r = scf.execute_region -> i32 {
      %k = "test.cmp"() : () -> i1
      cf.cond_br %k, ^x, ^y
    ^x:
      %v1 = "test.v1"() : () -> i32
      scf.yield %v1 : i32
    ^y:
      %v2 = "test.v2"() : () -> i32
      scf.yield %v2 : i32
    }
    "test.use"(%r) : (i32) -> ()
  }
  return
}

// CHECK-LABEL: func.func @exec_unused_result(
//  CHECK-NEXT:   scf.execute_region no_inline {
//  CHECK-NEXT:     %0 = "test.v"() : () -> i32
//  CHECK-NEXT:     scf.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   "test.use"(%arg0) : (i32) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @exec_unused_result(%a: i32) {
  %r:2 = scf.execute_region -> (i32, i32) no_inline {
    %v = "test.v"() : () -> i32
    scf.yield %v, %a : i32, i32
  }
  "test.use"(%r#1) : (i32) -> ()
  return
}

// -----

// scf.index_switch: a constant picks the region; unused, invariant and duplicate
// results go.
// CHECK-LABEL: func.func @switch_const(
//  CHECK-NEXT:   %0 = "test.one"(%arg0) : (i32) -> i32
//  CHECK-NEXT:   %1 = "test.default"() : () -> i32
//  CHECK-NEXT:   return %0, %1 : i32, i32
//  CHECK-NEXT: }
func.func @switch_const(%a: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.index_switch %c1 -> i32
  case 1 {
    %n = "test.one"(%a) : (i32) -> i32
    scf.yield %n : i32
  }
  case 2 {
    scf.yield %a : i32
  }
  default {
    %d = "test.default"() : () -> i32
    scf.yield %d : i32
  }
  %s = scf.index_switch %c9 -> i32
  case 1 {
    %n = "test.one"(%a) : (i32) -> i32
    scf.yield %n : i32
  }
  default {
    %d = "test.default"() : () -> i32
    scf.yield %d : i32
  }
  return %r, %s : i32, i32
}

// CHECK-LABEL: func.func @switch_unused(
//  CHECK-NEXT:   scf.index_switch %arg0 
//  CHECK-NEXT:   case 1 {
//  CHECK-NEXT:     %0 = "test.one"() : () -> i32
//  CHECK-NEXT:     scf.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   default {
//  CHECK-NEXT:     %0 = "test.default"() : () -> i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %arg1 : i32
//  CHECK-NEXT: }
func.func @switch_unused(%i: index, %a: i32) -> i32 {
  %r:2 = scf.index_switch %i -> i32, i32
  case 1 {
    %n = "test.one"() : () -> i32
    scf.yield %n, %a : i32, i32
  }
  default {
    %d = "test.default"() : () -> i32
    scf.yield %d, %a : i32, i32
  }
  return %r#1 : i32
}

// CHECK-LABEL: func.func @switch_same_result(
//  CHECK-NEXT:   %0 = scf.index_switch %arg0 -> i32 
//  CHECK-NEXT:   case 0 {
//  CHECK-NEXT:     "test.zero"() : () -> ()
//  CHECK-NEXT:     scf.yield %arg2 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   case 5 {
//  CHECK-NEXT:     "test.five"() : () -> ()
//  CHECK-NEXT:     scf.yield %arg1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   default {
//  CHECK-NEXT:     scf.yield %arg2 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %arg1, %0 : i32, i32
//  CHECK-NEXT: }
func.func @switch_same_result(%i: index, %a: i32, %b: i32) -> (i32, i32) {
  %r:2 = scf.index_switch %i -> i32, i32
  case 0 {
    "test.zero"() : () -> ()
    scf.yield %a, %b : i32, i32
  }
  case 5 {
    "test.five"() : () -> ()
    scf.yield %a, %a : i32, i32
  }
  default {
    scf.yield %a, %b : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// CHECK-LABEL: func.func @switch_dup_results(
//  CHECK-NEXT:   %0 = scf.index_switch %arg0 -> i32 
//  CHECK-NEXT:   case 0 {
//  CHECK-NEXT:     %1 = "test.v0"() : () -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   default {
//  CHECK-NEXT:     %1 = "test.v1"() : () -> i32
//  CHECK-NEXT:     scf.yield %1 : i32
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %0 : i32, i32
//  CHECK-NEXT: }
func.func @switch_dup_results(%i: index) -> (i32, i32) {
  %r:2 = scf.index_switch %i -> i32, i32
  case 0 {
    %v = "test.v0"() : () -> i32
    scf.yield %v, %v : i32, i32
  }
  default {
    %w = "test.v1"() : () -> i32
    scf.yield %w, %w : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// CHECK-LABEL: func.func @switch_no_cases(
//  CHECK-NEXT:   %0 = "test.default"(%arg1) : (i32) -> i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @switch_no_cases(%i: index, %a: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  default {
    %d = "test.default"(%a) : (i32) -> i32
    scf.yield %d : i32
  }
  return %r : i32
}

// -----

// scf.parallel: dimensions running once go (all: the body and reductions are
// inlined); one running zero times makes the loop its initial values.
// CHECK-LABEL: func.func @parallel_some_single(
//  CHECK-NEXT:   %c42_i32 = arith.constant 42 : i32
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c2 = arith.constant 2 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %c6 = arith.constant 6 : index
//  CHECK-NEXT:   %c7 = arith.constant 7 : index
//  CHECK-NEXT:   scf.parallel (%arg0) = (%c3) to (%c6) step (%c2) {
//  CHECK-NEXT:     "test.store"(%c42_i32, %c0, %arg0, %c7) : (i32, index, index, index) -> ()
//  CHECK-NEXT:     scf.reduce 
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @parallel_some_single() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j, %k) = (%c0, %c3, %c7) to (%c1, %c6, %c10) step (%c1, %c2, %c3) {
    %v = arith.constant 42 : i32
    "test.store"(%v, %i, %j, %k) : (i32, index, index, index) -> ()
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @parallel_all_single(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %c7 = arith.constant 7 : index
//  CHECK-NEXT:   "test.store"(%c0, %c3, %c7) : (index, index, index) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @parallel_all_single() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j, %k) = (%c0, %c3, %c7) to (%c1, %c6, %c10) step (%c1, %c3, %c3) {
    "test.store"(%i, %j, %k) : (index, index, index) -> ()
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @parallel_single_reduce(
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c1 : index
//  CHECK-NEXT:   %1 = arith.muli %arg1, %c3 : index
//  CHECK-NEXT:   return %0, %1 : index, index
//  CHECK-NEXT: }
func.func @parallel_single_reduce(%a: index, %b: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %r:2 = scf.parallel (%i, %j) = (%c1, %c3) to (%c2, %c6) step (%c1, %c3) init (%a, %b) -> (index, index) {
    scf.reduce(%i, %j : index, index) {
    ^bb0(%l: index, %r: index):
      %s = arith.addi %l, %r : index
      scf.reduce.return %s : index
    }, {
    ^bb0(%l: index, %r: index):
      %p = arith.muli %l, %r : index
      scf.reduce.return %p : index
    }
  }
  return %r#0, %r#1 : index, index
}

// CHECK-LABEL: func.func @parallel_zero_trip(
//  CHECK-NEXT:   return %arg0 : f32
//  CHECK-NEXT: }
func.func @parallel_zero_trip(%a: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.parallel (%i, %j) = (%c0, %c1) to (%n, %c1) step (%c1, %c1) init (%a) -> f32 {
    %v = "test.v"(%i) : (index) -> f32
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// Nested loops merge unless the inner bounds use the outer induction variables.
// CHECK-LABEL: func.func @parallel_nested(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   scf.parallel (%arg3, %arg4, %arg5) = (%c0, %c0, %c0) to (%arg0, %arg1, %arg2) step (%c1, %c1, %c1) {
//  CHECK-NEXT:     "test.body"(%arg3, %arg4, %arg5) : (index, index, index) -> ()
//  CHECK-NEXT:     scf.reduce 
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @parallel_nested(%n: index, %m: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%m) step (%c1) {
      scf.parallel (%l) = (%c0) to (%k) step (%c1) {
        "test.body"(%i, %j, %l) : (index, index, index) -> ()
        scf.reduce
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @parallel_nested_dependent(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   scf.parallel (%arg1) = (%c0) to (%arg0) step (%c1) {
//  CHECK-NEXT:     scf.parallel (%arg2) = (%c0) to (%arg1) step (%c1) {
//  CHECK-NEXT:       "test.body"(%arg1, %arg2) : (index, index) -> ()
//  CHECK-NEXT:       scf.reduce 
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce 
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @parallel_nested_dependent(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%i) step (%c1) {
      "test.body"(%i, %j) : (index, index) -> ()
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// scf.forall: constant bounds become static.
// CHECK-LABEL: func.func @forall_static_bounds(
//  CHECK-NEXT:   %0 = scf.forall (%arg1) = (0) to (16) step (4) shared_outs(%arg2 = %arg0) -> (tensor<16xf32>) {
//  CHECK-NEXT:     %1 = "test.slice"(%arg2, %arg1) : (tensor<16xf32>, index) -> tensor<4xf32>
//  CHECK-NEXT:     scf.forall.in_parallel {
//  CHECK-NEXT:       tensor.parallel_insert_slice %1 into %arg2[%arg1] [4] [1] : tensor<4xf32> into tensor<16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : tensor<16xf32>
//  CHECK-NEXT: }
func.func @forall_static_bounds(%t: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.forall (%i) = (%c0) to (%c16) step (%c4) shared_outs(%o = %t) -> (tensor<16xf32>) {
    %s = "test.slice"(%o, %i) : (tensor<16xf32>, index) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    }
  }
  return %r : tensor<16xf32>
}

// Shared outputs nobody reads, or that the body never writes, go.
// CHECK-LABEL: func.func @forall_unused_out(
//  CHECK-NEXT:   %0 = scf.forall (%arg3) in (%arg2) shared_outs(%arg4 = %arg0) -> (tensor<16xf32>) {
//  CHECK-NEXT:     %1 = "test.slice"(%arg4, %arg1, %arg3) : (tensor<16xf32>, tensor<16xf32>, index) -> tensor<4xf32>
//  CHECK-NEXT:     scf.forall.in_parallel {
//  CHECK-NEXT:       tensor.parallel_insert_slice %1 into %arg4[%arg3] [4] [1] : tensor<4xf32> into tensor<16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0 : tensor<16xf32>
//  CHECK-NEXT: }
func.func @forall_unused_out(%t: tensor<16xf32>, %u: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %r:2 = scf.forall (%i) in (%n) shared_outs(%o = %t, %p = %u) -> (tensor<16xf32>, tensor<16xf32>) {
    %s = "test.slice"(%o, %p, %i) : (tensor<16xf32>, tensor<16xf32>, index) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
      tensor.parallel_insert_slice %s into %p[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    }
  }
  return %r#0 : tensor<16xf32>
}

// CHECK-LABEL: func.func @forall_unwritten_out(
//  CHECK-NEXT:   %0 = scf.forall (%arg3) in (%arg2) shared_outs(%arg4 = %arg0) -> (tensor<16xf32>) {
//  CHECK-NEXT:     %1 = "test.slice"(%arg4, %arg1, %arg3) : (tensor<16xf32>, tensor<16xf32>, index) -> tensor<4xf32>
//  CHECK-NEXT:     scf.forall.in_parallel {
//  CHECK-NEXT:       tensor.parallel_insert_slice %1 into %arg4[%arg3] [4] [1] : tensor<4xf32> into tensor<16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %0, %arg1 : tensor<16xf32>, tensor<16xf32>
//  CHECK-NEXT: }
func.func @forall_unwritten_out(%t: tensor<16xf32>, %u: tensor<16xf32>, %n: index) -> (tensor<16xf32>, tensor<16xf32>) {
  %r:2 = scf.forall (%i) in (%n) shared_outs(%o = %t, %p = %u) -> (tensor<16xf32>, tensor<16xf32>) {
    %s = "test.slice"(%o, %p, %i) : (tensor<16xf32>, tensor<16xf32>, index) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    }
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}

// Dimensions running once or zero times (not when mapped: there only the induction
// variable becomes the bound).
// CHECK-LABEL: func.func @forall_single_dims(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   scf.forall (%arg1) in (%arg0) {
//  CHECK-NEXT:     "test.body"(%c0, %arg1, %c0) : (index, index, index) -> ()
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @forall_single_dims(%n: index) {
  scf.forall (%i, %j, %k) in (1, %n, 1) {
    "test.body"(%i, %j, %k) : (index, index, index) -> ()
  }
  return
}

// CHECK-LABEL: func.func @forall_zero_dim(
//  CHECK-NEXT:   return %arg0 : tensor<16xf32>
//  CHECK-NEXT: }
func.func @forall_zero_dim(%t: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %r = scf.forall (%i, %j) in (0, %n) shared_outs(%o = %t) -> (tensor<16xf32>) {
    "test.body"(%i, %j) : (index, index) -> ()
  }
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @forall_all_single(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %0 = "test.slice"(%arg0, %c0, %c0) : (tensor<16xf32>, index, index) -> tensor<4xf32>
//  CHECK-NEXT:   %inserted_slice = tensor.insert_slice %0 into %arg0[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
//  CHECK-NEXT:   return %inserted_slice : tensor<16xf32>
//  CHECK-NEXT: }
func.func @forall_all_single(%t: tensor<16xf32>) -> tensor<16xf32> {
  %r = scf.forall (%i, %j) in (1, 1) shared_outs(%o = %t) -> (tensor<16xf32>) {
    %s = "test.slice"(%o, %i, %j) : (tensor<16xf32>, index, index) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
    }
  }
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @forall_mapped_single(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   scf.forall (%arg1, %arg2) in (1, %arg0) {
//  CHECK-NEXT:     "test.body"(%c0, %arg2) : (index, index) -> ()
//  CHECK-NEXT:   } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @forall_mapped_single(%n: index) {
  scf.forall (%i, %j) in (1, %n) {
    "test.body"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  return
}

// CHECK-LABEL: func.func @forall_mixed_bounds(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c3 = arith.constant 3 : index
//  CHECK-NEXT:   "test.body"(%c0, %c3) : (index, index) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @forall_mixed_bounds(%n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  scf.forall (%i, %j) = (%c0, 3) to (%c1, 4) step (1, 1) {
    "test.body"(%i, %j) : (index, index) -> ()
  }
  scf.forall (%i) = (%n) to (%n) step (1) {
    "test.never"(%i) : (index) -> ()
  }
  return
}

// tensor.dim of a result reads the shared output; a cast output moves inside.
// CHECK-LABEL: func.func @forall_dim_of(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   scf.forall (%arg2) in (%arg1) {
//  CHECK-NEXT:     %0 = "test.slice"(%arg0, %arg2) : (tensor<?xf32>, index) -> tensor<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %dim = tensor.dim %arg0, %c0 : tensor<?xf32>
//  CHECK-NEXT:   return %dim : index
//  CHECK-NEXT: }
func.func @forall_dim_of(%t: tensor<?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<?xf32>) {
    %s = "test.slice"(%o, %i) : (tensor<?xf32>, index) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [4] [1] : tensor<4xf32> into tensor<?xf32>
    }
  }
  %d = tensor.dim %r, %c0 : tensor<?xf32>
  return %d : index
}

// CHECK-LABEL: func.func @forall_cast_out(
//  CHECK-NEXT:   %0 = scf.forall (%arg2) in (%arg1) shared_outs(%arg3 = %arg0) -> (tensor<8x16xf32>) {
//  CHECK-NEXT:     %cast_0 = tensor.cast %arg3 : tensor<8x16xf32> to tensor<?x?xf32>
//  CHECK-NEXT:     %1 = "test.slice"(%cast_0, %arg2) : (tensor<?x?xf32>, index) -> tensor<1x16xf32>
//  CHECK-NEXT:     scf.forall.in_parallel {
//  CHECK-NEXT:       tensor.parallel_insert_slice %1 into %arg3[%arg2, 0] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<8x16xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %cast = tensor.cast %0 : tensor<8x16xf32> to tensor<?x?xf32>
//  CHECK-NEXT:   return %cast : tensor<?x?xf32>
//  CHECK-NEXT: }
func.func @forall_cast_out(%t: tensor<8x16xf32>, %n: index) -> tensor<?x?xf32> {
  %c = tensor.cast %t : tensor<8x16xf32> to tensor<?x?xf32>
  %r = scf.forall (%i) in (%n) shared_outs(%o = %c) -> (tensor<?x?xf32>) {
    %s = "test.slice"(%o, %i) : (tensor<?x?xf32>, index) -> tensor<1x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<?x?xf32>
    }
  }
  return %r : tensor<?x?xf32>
}

// -----

// The writes into cast outputs need not come in the outputs' order: each keeps its own
// destination once the casts move out of the loop.
// CHECK-LABEL: func.func @forall_casts_out_of_order(%arg0: tensor<16xf32>, %arg1: tensor<8xf32>, %arg2: tensor<32xf32>, %arg3: tensor<64xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
//  CHECK-NEXT:   %0:2 = scf.forall (%arg4) in (4) shared_outs(%arg5 = %arg2, %arg6 = %arg3) -> (tensor<32xf32>, tensor<64xf32>) {
//  CHECK-NEXT:     scf.forall.in_parallel {
//  CHECK-NEXT:       tensor.parallel_insert_slice %arg0 into %arg6[%arg4] [16] [1] : tensor<16xf32> into tensor<64xf32>
//  CHECK-NEXT:       tensor.parallel_insert_slice %arg1 into %arg5[%arg4] [8] [1] : tensor<8xf32> into tensor<32xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %cast = tensor.cast %0#0 : tensor<32xf32> to tensor<?xf32>
//  CHECK-NEXT:   %cast_0 = tensor.cast %0#1 : tensor<64xf32> to tensor<?xf32>
//  CHECK-NEXT:   return %cast, %cast_0 : tensor<?xf32>, tensor<?xf32>
//  CHECK-NEXT: }
func.func @forall_casts_out_of_order(%a: tensor<16xf32>, %b: tensor<8xf32>, %o0: tensor<32xf32>, %o1: tensor<64xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = tensor.cast %o0 : tensor<32xf32> to tensor<?xf32>
  %c1 = tensor.cast %o1 : tensor<64xf32> to tensor<?xf32>
  %r:2 = scf.forall (%i) in (4) shared_outs(%x = %c0, %y = %c1) -> (tensor<?xf32>, tensor<?xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %a into %y[%i] [16] [1] : tensor<16xf32> into tensor<?xf32>
      tensor.parallel_insert_slice %b into %x[%i] [8] [1] : tensor<8xf32> into tensor<?xf32>
    }
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}
