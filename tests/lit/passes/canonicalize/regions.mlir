// Region simplification in canonicalize: unreachable blocks, region DCE (dead ops,
// dead block arguments, dead cycles), disabled with region-simplify=disabled. Dialect
// patterns are turned off (enable-patterns names none) so that only the driver acts.
// RUN: strata-opt %s --split-input-file --canonicalize=enable-patterns=none | filecheck %s
// RUN: strata-opt %s --split-input-file --canonicalize="enable-patterns=none region-simplify=disabled" | filecheck %s --check-prefix=DISABLED

// Blocks no branch reaches from the entry are erased, even with region
// simplification disabled (the driver erases them before looking at any op).
// CHECK-LABEL: func.func @unreachable
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// DISABLED-LABEL: func.func @unreachable
// DISABLED-NEXT:    return %arg0 : i32
// DISABLED-NEXT:  }
func.func @unreachable(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  return %x : i32
^bb1:
  %0 = arith.addi %x, %c1 : i32
  cf.br ^bb2(%0 : i32)
^bb2(%a: i32):
  return %a : i32
}

// -----

// Unreachable code may use its own results; it goes before anything looks at it.
// CHECK-LABEL: func.func @unreachable_self_use
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
func.func @unreachable_self_use(%x: i32) -> i32 {
  return %x : i32
^bb1:
  %0 = arith.addi %0, %0 : i32
  cf.br ^bb1
}

// -----

// A block argument that no live op reads goes, with the operands that fed it; so do
// ops only such arguments used.
// CHECK-LABEL: func.func @dead_arguments
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2(%arg1 : i32)
// CHECK-NEXT:  ^bb1(%[[A:.*]]: i32):
// CHECK-NEXT:    cf.br ^bb3(%[[A]] : i32)
// CHECK-NEXT:  ^bb2(%[[D:.*]]: i32):
// CHECK-NEXT:    cf.br ^bb3(%[[D]] : i32)
// CHECK-NEXT:  ^bb3(%[[R:.*]]: i32):
// CHECK-NEXT:    return %[[R]] : i32
// DISABLED-LABEL: func.func @dead_arguments
// DISABLED-NEXT:    cf.cond_br %arg0, ^bb1(%arg1, %arg2 : i32, f32), ^bb2(%arg1 : i32)
// DISABLED:       ^bb3(%{{.*}}: i32, %{{.*}}: f32):
func.func @dead_arguments(%c: i1, %x: i32, %y: f32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, f32), ^bb2(%x : i32)
^bb1(%a: i32, %b: f32):
  %0 = arith.addf %b, %b : f32
  cf.br ^bb3(%a, %0 : i32, f32)
^bb2(%d: i32):
  cf.br ^bb3(%d, %y : i32, f32)
^bb3(%r: i32, %unused: f32):
  return %r : i32
}

// -----

// A value carried around a loop that nothing outside the loop reads is dead, though
// each op of the cycle has a use: region DCE assumes dead until proven live.
// CHECK-LABEL: func.func @dead_cycle
// CHECK:         cf.br ^bb1(%{{.*}} : i32)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: i32):
// CHECK-NEXT:    %[[N:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT:    %[[D:.*]] = arith.cmpi sge, %[[N]], %arg0 : i32
// CHECK-NEXT:    cf.cond_br %[[D]], ^bb2, ^bb1(%[[N]] : i32)
// CHECK-NOT:     arith.addf
// DISABLED-LABEL: func.func @dead_cycle
// DISABLED:         arith.addf
func.func @dead_cycle(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  cf.br ^loop(%c0, %f : i32, f32)
^loop(%i: i32, %acc: f32):
  %next = arith.addf %acc, %acc : f32
  %i1 = arith.addi %i, %c1 : i32
  %done = arith.cmpi sge, %i1, %n : i32
  cf.cond_br %done, ^exit, ^loop(%i1, %next : i32, f32)
^exit:
  return %i1 : i32
}

// -----

// The arguments of entry blocks belong to their op (here the function signature)
// and stay.
// CHECK-LABEL: func.func @entry_arguments_stay(%arg0: i32, %arg1: f32)
// CHECK-NEXT:    return %arg0 : i32
func.func @entry_arguments_stay(%x: i32, %unused: f32) -> i32 {
  return %x : i32
}
