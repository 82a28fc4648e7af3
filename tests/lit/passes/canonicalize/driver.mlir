// The greedy driver of canonicalize (upstream's GreedyPatternRewriteDriver):
// folding, constant uniquing and hoisting, dead code, worklist order.
// RUN: strata-opt %s --split-input-file --canonicalize | filecheck %s
// RUN: strata-opt %s --split-input-file --canonicalize=top-down=false | filecheck %s --check-prefix=BOTTOMUP

// Folded constants are uniqued: the first of each value stays (at the start of the
// function), later duplicates are replaced by it. A constant found after other code
// moves to the very start, before the ones hoisted so far.
// CHECK-LABEL: func.func @uniquing
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C1]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[A]], %[[C2]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[B]], %[[C1]] : i32
// CHECK-NEXT:    return %[[D]], %[[C2]] : i32, i32
func.func @uniquing(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %1 = arith.muli %0, %c2 : i32
  %c1b = arith.constant 1 : i32
  %2 = arith.subi %1, %c1b : i32
  return %2, %c2 : i32, i32
}

// -----

// Folding to a constant creates it before the folded op; the next iteration hoists
// it. Chains fold in one run, and the constants they used die.
// CHECK-LABEL: func.func @fold_chain
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    return %[[C]] : i32
func.func @fold_chain() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %c1 : i32
  %3 = arith.divsi %2, %c2 : i32
  return %3 : i32
}

// -----

// Values folded away: x + 0, x * 1, x - x. Ops whose results are unused and that have
// no side effects go, chains of them too; calls stay.
// CHECK-LABEL: func.func @identities_and_dead_code
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = call @effect(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %arg0, %arg0, %[[Z]], %[[R]] : i32, i32, i32, i32
func.func private @effect(i32) -> i32
func.func @identities_and_dead_code(%x: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %x, %c1 : i32
  %2 = arith.subi %x, %x : i32
  %d1 = arith.muli %0, %1 : i32
  %d2 = arith.sitofp %d1 : i32 to f32
  %r = func.call @effect(%x) : (i32) -> i32
  return %0, %1, %2, %r : i32, i32, i32, i32
}

// -----

// Constants are uniqued per function (each is isolated from above) and hoisted out
// of nested regions to the start of the function.
// CHECK-LABEL: func.func @per_function
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    arith.addi %arg0, %[[C1]]
// CHECK-LABEL: func.func @nested_regions
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %[[A:.*]] = arith.addi %arg1, %[[C7]] : i32
// CHECK-NEXT:      scf.yield %[[A]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[B:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:      %[[D:.*]] = arith.maxsi %[[B]], %[[C7]] : i32
// CHECK-NEXT:      %[[E:.*]] = arith.minsi %[[D]], %[[C3]] : i32
// CHECK-NEXT:      scf.yield %[[E]] : i32
func.func @per_function(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  return %0 : i32
}
func.func @nested_regions(%c: i1, %x: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    %c7 = arith.constant 7 : i32
    %1 = arith.addi %x, %c7 : i32
    scf.yield %1 : i32
  } else {
    %c7 = arith.constant 7 : i32
    %2 = arith.muli %x, %x : i32
    %3 = arith.maxsi %2, %c7 : i32
    %c3 = arith.constant 3 : i32
    %4 = arith.minsi %3, %c3 : i32
    scf.yield %4 : i32
  }
  return %0 : i32
}

// -----

// Commutative ops move their constant operand to the right (the trait's fold).
// CHECK-LABEL: func.func @commutative
// CHECK:         arith.addi %arg0, %{{.*}} : i32
// CHECK:         arith.mulf %arg1, %{{.*}} : f32
func.func @commutative(%x: i32, %y: f32) -> (i32, f32) {
  %c7 = arith.constant 7 : i32
  %f = arith.constant 2.0 : f32
  %0 = arith.addi %c7, %x : i32
  %1 = arith.mulf %f, %y : f32
  return %0, %1 : i32, f32
}

// -----

// Each iteration re-seeds the worklist and re-hoists: the constant 5 that folding
// created next to its use moves to the very start, before 4 and 1 (hoisted before it).
// Bottom-up seeding (post-order) gives the same here.
// CHECK-LABEL: func.func @order
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C1]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[A]], %[[C5]] : i32
// CHECK-NEXT:    return %[[M]], %[[C4]] : i32, i32
// BOTTOMUP-LABEL: func.func @order
// BOTTOMUP-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// BOTTOMUP-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// BOTTOMUP-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
func.func @order(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %1 = arith.addi %c2, %c3 : i32
  %2 = arith.muli %0, %1 : i32
  %c4 = arith.constant 4 : i32
  return %2, %c4 : i32, i32
}
