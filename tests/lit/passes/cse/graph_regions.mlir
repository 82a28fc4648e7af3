// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --cse | filecheck %s

// A module body is a graph region (no SSA dominance): a duplicate's uses are replaced
// only where their owner has no known equivalent yet (%d was already recorded, so it
// keeps %c_0, which then stays).
// CHECK:       %0 = arith.addi %c1_i32_0, %c1_i32_0 : i32
// CHECK-NEXT:  "test.use"(%1) : (i32) -> ()
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT:  %1 = arith.muli %c1_i32, %c1_i32 : i32
// CHECK-NEXT:  "test.use"(%0, %c1_i32) : (i32, i32) -> ()
// CHECK-NEXT:  %2 = arith.addi %c1_i32, %c1_i32 : i32
// CHECK-NEXT:  "test.use"(%2) : (i32) -> ()
%d = arith.addi %c_0, %c_0 : i32
"test.use"(%e) : (i32) -> ()
%c = arith.constant 1 : i32
%c_0 = arith.constant 1 : i32
%e = arith.muli %c_0, %c : i32
"test.use"(%d, %c_0) : (i32, i32) -> ()
%d2 = arith.addi %c, %c : i32
"test.use"(%d2) : (i32) -> ()

// -----

// The body of ml_program.subgraph is a graph region too; a use before the definition
// still sees the replacement.
// CHECK-LABEL: ml_program.subgraph @sg(%arg0: i32) -> (i32, i32, i32) {
// CHECK-NEXT:    %0 = arith.muli %1, %1 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    ml_program.output %0, %0, %1 : i32, i32, i32
// CHECK-NEXT:  }
ml_program.subgraph @sg(%a: i32) -> (i32, i32, i32) {
  %x = arith.muli %b, %b : i32
  %b = arith.addi %a, %a : i32
  %b2 = arith.addi %a, %a : i32
  %y = arith.muli %b2, %b2 : i32
  ml_program.output %x, %y, %b2 : i32, i32, i32
}
