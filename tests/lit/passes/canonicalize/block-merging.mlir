// canonicalize{region-simplify=aggressive}: identical blocks merge, and block
// arguments every predecessor passes the same value for are dropped. Dialect
// patterns are off so that only region simplification acts.
// RUN: strata-opt %s --split-input-file --canonicalize="enable-patterns=none region-simplify=aggressive" | filecheck %s
// RUN: strata-opt %s --split-input-file --canonicalize="enable-patterns=none" | filecheck %s --check-prefix=NORMAL

// Two blocks with the same ops and successors merge; the values they used from
// outside (%arg1, %arg2) become an argument of the merged block. The merged block is
// then the only predecessor of the exit block, whose argument always receives %[[M]]:
// it is dropped.
// CHECK-LABEL: func.func @merge_with_new_argument
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb1(%arg2 : i32)
// CHECK-NEXT:  ^bb1(%[[V:.*]]: i32):
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[V]], %[[V]] : i32
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return %[[M]] : i32
// NORMAL-LABEL: func.func @merge_with_new_argument
// NORMAL-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
func.func @merge_with_new_argument(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = arith.muli %x, %x : i32
  cf.br ^bb3(%0 : i32)
^bb2:
  %1 = arith.muli %y, %y : i32
  cf.br ^bb3(%1 : i32)
^bb3(%r: i32):
  return %r : i32
}

// -----

// Blocks that differ in an op do not merge.
// CHECK-LABEL: func.func @no_merge
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK:         arith.muli
// CHECK:         arith.addi
func.func @no_merge(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = arith.muli %x, %x : i32
  cf.br ^bb3(%0 : i32)
^bb2:
  %1 = arith.addi %x, %x : i32
  cf.br ^bb3(%1 : i32)
^bb3(%r: i32):
  return %r : i32
}

// -----

// The same value from every predecessor: the argument is replaced by the value
// (here %p is always %arg1). The two forwarding blocks then merge.
// CHECK-LABEL: func.func @redundant_arguments
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg2 : i32), ^bb1(%arg1 : i32)
// CHECK-NEXT:  ^bb1(%[[Q:.*]]: i32):
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %[[S:.*]] = arith.addi %arg1, %[[Q]] : i32
// CHECK-NEXT:    return %[[S]] : i32
func.func @redundant_arguments(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb1(%a: i32, %b: i32):
  cf.br ^bb3(%a, %b : i32, i32)
^bb2:
  cf.br ^bb3(%x, %x : i32, i32)
^bb3(%p: i32, %q: i32):
  %0 = arith.addi %p, %q : i32
  return %0 : i32
}
