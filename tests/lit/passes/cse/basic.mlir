// RUN: strata-opt %s --cse | filecheck %s

// Equal constants of one type become one; other types and values stay.
// CHECK-LABEL: func.func @constants() -> (i32, i32, i64, f32, f32, index) {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    return %c1_i32, %c1_i32, %c1_i64, %cst, %cst, %c0 : i32, i32, i64, f32, f32, index
// CHECK-NEXT:  }
func.func @constants() -> (i32, i32, i64, f32, f32, index) {
  %c1 = arith.constant 1 : i32
  %c1_0 = arith.constant 1 : i32
  %c1_i64 = arith.constant 1 : i64
  %f = arith.constant 1.0 : f32
  %f2 = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  return %c1, %c1_0, %c1_i64, %f, %f2, %i : i32, i32, i64, f32, f32, index
}

// Commutative ops match with their operands swapped; subi does not.
// CHECK-LABEL: func.func @commutative(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    %2 = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT:    %3 = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT:    return %0, %0, %1, %2, %3, %3 : i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @commutative(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.subi %a, %b : i32
  %3 = arith.subi %b, %a : i32
  %4 = arith.muli %a, %b : i32
  %5 = arith.muli %b, %a : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// Properties (overflow flags, predicates) take part in the match.
// CHECK-LABEL: func.func @attrs(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i1, i1, i1) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %2 = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:    %3 = arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK-NEXT:    return %0, %1, %1, %2, %3, %2 : i32, i32, i32, i1, i1, i1
// CHECK-NEXT:  }
func.func @attrs(%a: i32, %b: i32) -> (i32, i32, i32, i1, i1, i1) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.addi %a, %b overflow<nsw> : i32
  %3 = arith.cmpi slt, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi slt, %a, %b : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i1, i1, i1
}

// So do discardable attributes.
// CHECK-LABEL: func.func @discardable(%arg0: i32) -> (i32, i32, i32) {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 {tag = 1 : i32} : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg0 {tag = 2 : i32} : i32
// CHECK-NEXT:    return %0, %1, %0 : i32, i32, i32
// CHECK-NEXT:  }
func.func @discardable(%a: i32) -> (i32, i32, i32) {
  %0 = arith.addi %a, %a {tag = 1 : i32} : i32
  %1 = arith.addi %a, %a {tag = 2 : i32} : i32
  %2 = arith.addi %a, %a {tag = 1 : i32} : i32
  return %0, %1, %2 : i32, i32, i32
}

// An unused pure op is erased (only the last of a dead chain: one walk).
// CHECK-LABEL: func.func @dead(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.muli %0, %arg1 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @dead(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %b : i32
  %2 = arith.subi %1, %a : i32
  %3 = arith.addi %a, %b : i32
  return %3 : i32
}

// A duplicate chain folds into the first one, op by op.
// CHECK-LABEL: func.func @chain(%arg0: f32) -> (f32, f32) {
// CHECK-NEXT:    %0 = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:    %1 = arith.addf %0, %arg0 : f32
// CHECK-NEXT:    %2 = math.sqrt %1 : f32
// CHECK-NEXT:    return %2, %2 : f32, f32
// CHECK-NEXT:  }
func.func @chain(%a: f32) -> (f32, f32) {
  %0 = arith.mulf %a, %a : f32
  %1 = arith.addf %0, %a : f32
  %2 = math.sqrt %1 : f32
  %3 = arith.mulf %a, %a : f32
  %4 = arith.addf %3, %a : f32
  %5 = math.sqrt %4 : f32
  return %2, %5 : f32, f32
}

// Ops with several results are replaced as a whole.
// CHECK-LABEL: func.func @multi(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
// CHECK-NEXT:    return %low, %high, %low, %high : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @multi(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %l, %h = arith.mulsi_extended %a, %b : i32
  %l2, %h2 = arith.mulsi_extended %b, %a : i32
  return %l, %h, %l2, %h2 : i32, i32, i32, i32
}

// tensor.dim / extract / empty are pure: CSE'd.
// CHECK-LABEL: func.func @tensors(%arg0: tensor<?x4xf32>, %arg1: index) -> (index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
// CHECK-NEXT:    %extracted = tensor.extract %arg0[%arg1, %c0] : tensor<?x4xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?x4xf32>
// CHECK-NEXT:    return %dim, %dim, %extracted, %extracted, %0, %0 : index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>
// CHECK-NEXT:  }
func.func @tensors(%t: tensor<?x4xf32>, %i: index) -> (index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x4xf32>
  %d1 = tensor.dim %t, %c0 : tensor<?x4xf32>
  %e0 = tensor.extract %t[%i, %c0] : tensor<?x4xf32>
  %e1 = tensor.extract %t[%i, %c0] : tensor<?x4xf32>
  %g0 = tensor.empty(%d0) : tensor<?x4xf32>
  %g1 = tensor.empty(%d1) : tensor<?x4xf32>
  return %d0, %d1, %e0, %e1, %g0, %g1 : index, index, f32, f32, tensor<?x4xf32>, tensor<?x4xf32>
}

// Functions are isolated: nothing is shared between them.
// CHECK-LABEL: func.func @f1() -> i32 {
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    return %c7_i32 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @f2() -> (i32, i32) {
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    return %c7_i32, %c7_i32 : i32, i32
// CHECK-NEXT:  }
// CHECK-NEXT:  module @inner {
// CHECK-NEXT:    func.func @f3() -> i32 {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      return %c7_i32 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @f1() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
func.func @f2() -> (i32, i32) {
  %c = arith.constant 7 : i32
  %d = arith.constant 7 : i32
  return %c, %d : i32, i32
}
module @inner {
  func.func @f3() -> i32 {
    %c = arith.constant 7 : i32
    return %c : i32
  }
}
