// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-LABEL: func.func @binary
func.func @binary(%a: i32, %b: f32) -> i32 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : i32
  %0 = arith.addi %a, %a : i32
  // CHECK-NEXT: %1 = arith.addf %arg1, %arg1 fastmath<fast> : f32
  %1 = arith.addf %b, %b fastmath<fast> : f32
  // CHECK-NEXT: %2 = arith.cmpi slt, %0, %arg0 : i32
  %2 = arith.cmpi slt, %0, %a : i32
  // CHECK-NEXT: %3 = arith.addi %0, %0 overflow<nsw, nuw> : i32
  %3 = arith.addi %0, %0 overflow<nsw, nuw> : i32
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  %c = arith.constant 0 : index
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
  %d = arith.constant 1.5 : f32
  // CHECK-NEXT: return %0 : i32
  return %0 : i32
}
