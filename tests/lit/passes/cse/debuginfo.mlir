// RUN: strata-opt %s --cse --mlir-print-debuginfo | filecheck %s

// The op kept takes the location of the duplicate when its own is unknown.
// CHECK-LABEL: func.func @loc(
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32 loc(#[[ADD:loc[0-9]+]])
// CHECK-NEXT:    %1 = arith.muli %arg0, %arg0 : i32 loc(#[[MUL:loc[0-9]+]])
// CHECK-NEXT:    return %0, %0, %1, %1 : i32, i32, i32, i32 loc(#[[UNKNOWN:loc[0-9]*]])
// CHECK:       #[[UNKNOWN]] = loc(unknown)
// CHECK-NEXT:  #[[ADD]] = loc("model.py":3:4)
// CHECK-NEXT:  #[[MUL]] = loc("model.py":5:4)
func.func @loc(%a: i32) -> (i32, i32, i32, i32) {
  %0 = arith.addi %a, %a : i32 loc(unknown)
  %1 = arith.addi %a, %a : i32 loc("model.py":3:4)
  %2 = arith.muli %a, %a : i32 loc("model.py":5:4)
  %3 = arith.muli %a, %a : i32 loc("model.py":6:4)
  return %0, %1, %2, %3 : i32, i32, i32, i32 loc(unknown)
} loc(unknown)
