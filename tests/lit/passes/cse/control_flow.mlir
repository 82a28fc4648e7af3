// RUN: strata-opt %s --cse | filecheck %s

// A block sees what its dominators computed, not its siblings.
// CHECK-LABEL: func.func @cfg(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:    cf.br ^bb3(%1 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    %2 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    cf.br ^bb3(%2 : i32)
// CHECK-NEXT:  ^bb3(%3: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    %4 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    %5 = arith.addi %3, %4 : i32
// CHECK-NEXT:    return %5 : i32
// CHECK-NEXT:  }
func.func @cfg(%c: i1, %a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %1, %1 : i32
  cf.br ^bb3(%2 : i32)
^bb2:
  %3 = arith.muli %0, %0 : i32
  %4 = arith.muli %a, %a : i32
  cf.br ^bb3(%4 : i32)
^bb3(%r: i32):
  %5 = arith.muli %a, %a : i32
  %6 = arith.addi %r, %5 : i32
  return %6 : i32
}

// Loop blocks see the header's values; the header does not see the body's.
// CHECK-LABEL: func.func @loop(%arg0: index, %arg1: i32) -> i32 {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    cf.br ^bb1(%c0, %arg1 : index, i32)
// CHECK-NEXT:  ^bb1(%0: index, %1: i32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %2 = arith.cmpi slt, %0, %arg0 : index
// CHECK-NEXT:    cf.cond_br %2, ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    %3 = arith.addi %0, %c1 : index
// CHECK-NEXT:    %4 = arith.muli %1, %1 : i32
// CHECK-NEXT:    cf.br ^bb1(%3, %4 : index, i32)
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    %5 = arith.muli %1, %1 : i32
// CHECK-NEXT:    return %5 : i32
// CHECK-NEXT:  }
func.func @loop(%n: index, %a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %a : index, i32)
^bb1(%i: index, %acc: i32):
  %c1_0 = arith.constant 1 : index
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3
^bb2:
  %c0_1 = arith.constant 0 : index
  %next = arith.addi %i, %c1_0 : index
  %sq = arith.muli %acc, %acc : i32
  cf.br ^bb1(%next, %sq : index, i32)
^bb3:
  %sq2 = arith.muli %acc, %acc : i32
  return %sq2 : i32
}

// Unreachable blocks are not in the dominator tree: left alone.
// CHECK-LABEL: func.func @unreachable(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  ^bb1:  // no predecessors
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %2 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %3 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    return %2 : i32
// CHECK-NEXT:  }
func.func @unreachable(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
^bb1:
  %1 = arith.addi %a, %a : i32
  %2 = arith.addi %a, %a : i32
  %3 = arith.muli %a, %a : i32
  return %2 : i32
}
