// RUN: strata-opt %s --sccp --allow-unregistered-dialect | filecheck %s

// An op of an unregistered dialect with a region might be a symbol table using any
// symbol: then no function's callers are known.

// CHECK-LABEL: func.func private @rec(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.cmpi eq, %arg1, %c0_i32 : i32
// CHECK-NEXT: %1 = scf.if %0 -> (i32) {
// CHECK-NEXT: scf.yield %arg0 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: %2 = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT: %3 = func.call @rec(%arg0, %2) : (i32, i32) -> i32
// CHECK-NEXT: scf.yield %3 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func private @rec(%a: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %cond = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %cond -> i32 {
    scf.yield %a : i32
  } else {
    %m = arith.subi %n, %a : i32
    %x = func.call @rec(%a, %m) : (i32, i32) -> i32
    scf.yield %x : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @use_rec(%arg0: i32) -> i32 {
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: %0 = call @rec(%c5_i32, %arg0) : (i32, i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @use_rec(%n: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %r = call @rec(%c5, %n) : (i32, i32) -> i32
  return %r : i32
}
"test.holder"() ({
  %c = arith.constant 1 : i32
  "test.end"() : () -> ()
}) : () -> ()
