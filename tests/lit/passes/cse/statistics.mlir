// RUN: strata-opt %s --cse --symbol-dce --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s

// CHECK:      CSEPass
// CHECK-NEXT:   (S) 2 num-cse'd - Number of operations CSE'd
// CHECK-NEXT:   (S) 1 num-dce'd - Number of operations DCE'd
// CHECK-NEXT: SymbolDCEPass
// CHECK-NEXT:   (S) 1 num-dce'd - Number of symbols DCE'd
func.func private @unused()
func.func @f(%a: i32, %b: i32) -> (i32, i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.addi %a, %b : i32
  %3 = arith.muli %a, %b : i32
  return %0, %1, %2 : i32, i32, i32
}
