// RUN: strata-opt %s --loop-invariant-code-motion --allow-unregistered-dialect | filecheck %s

// Integer division and remainder are hoisted only with a constant divisor that cannot
// trap: not zero, and not -1 for the signed divisions that overflow on it.

// CHECK-LABEL: func.func @constant_divisors(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: vector<4xi32>, %arg5: tensor<4xi32>) {
// CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %cst = arith.constant dense<7> : vector<4xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<7> : tensor<4xi32>
// CHECK-NEXT: %0 = arith.remsi %arg3, %c7_i32 : i32
// CHECK-NEXT: %1 = arith.remui %arg3, %c7_i32 : i32
// CHECK-NEXT: %2 = arith.floordivsi %arg3, %c-1_i32 : i32
// CHECK-NEXT: %3 = arith.ceildivui %arg3, %c7_i32 : i32
// CHECK-NEXT: %4 = arith.divui %arg4, %cst : vector<4xi32>
// CHECK-NEXT: %5 = arith.divsi %arg5, %cst_0 : tensor<4xi32>
// CHECK-NEXT: %6 = arith.ceildivui %arg3, %c-1_i32 : i32
// CHECK-NEXT: %7 = arith.divui %arg3, %c-1_i32 : i32
// CHECK-NEXT: scf.for %arg6 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT: %8 = arith.ceildivsi %arg3, %c-1_i32 : i32
// CHECK-NEXT: %9 = arith.divui %arg3, %c0_i32 : i32
// CHECK-NEXT: "test.use"(%0, %1, %8, %2, %3, %9, %4, %5, %6, %7) : (i32, i32, i32, i32, i32, i32, vector<4xi32>, tensor<4xi32>, i32, i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @constant_divisors(%lb: index, %ub: index, %step: index, %x: i32, %v: vector<4xi32>, %t: tensor<4xi32>) {
  %c7 = arith.constant 7 : i32
  %cm1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %cv = arith.constant dense<7> : vector<4xi32>
  %ct = arith.constant dense<7> : tensor<4xi32>
  scf.for %i = %lb to %ub step %step {
    %1 = arith.remsi %x, %c7 : i32
    %2 = arith.remui %x, %c7 : i32
    %3 = arith.ceildivsi %x, %cm1 : i32
    %4 = arith.floordivsi %x, %cm1 : i32
    %5 = arith.ceildivui %x, %c7 : i32
    %6 = arith.divui %x, %c0 : i32
    %7 = arith.divui %v, %cv : vector<4xi32>
    %8 = arith.divsi %t, %ct : tensor<4xi32>
    %9 = arith.ceildivui %x, %cm1 : i32
    %10 = arith.divui %x, %cm1 : i32
    "test.use"(%1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (i32, i32, i32, i32, i32, i32, vector<4xi32>, tensor<4xi32>, i32, i32) -> ()
  }
  return
}

// CHECK-LABEL: func.func @floordiv_and_rem(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32) {
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %0 = arith.floordivsi %arg3, %arg4 : i32
// CHECK-NEXT: %1 = arith.remsi %arg3, %c-1_i32 : i32
// CHECK-NEXT: scf.for %arg5 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT: %2 = arith.ceildivui %arg3, %arg4 : i32
// CHECK-NEXT: "test.use"(%0, %1, %2) : (i32, i32, i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @floordiv_and_rem(%lb: index, %ub: index, %step: index, %x: i32, %y: i32) {
  %cm1 = arith.constant -1 : i32
  scf.for %i = %lb to %ub step %step {
    %1 = arith.floordivsi %x, %y : i32
    %2 = arith.remsi %x, %cm1 : i32
    %3 = arith.ceildivui %x, %y : i32
    "test.use"(%1, %2, %3) : (i32, i32, i32) -> ()
  }
  return
}
