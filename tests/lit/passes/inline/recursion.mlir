// RUN: strata-opt %s --inline='default-pipeline=' | filecheck %s
// RUN: strata-opt %s --inline='default-pipeline=' | filecheck %s --check-prefix=ERASED

// Recursion: a callee whose call-graph node calls itself, or calls the caller back, is
// not inlined; longer cycles are unrolled along one chain at most, because a call that
// came from inlining @x is never inlined into @x's copy again, in this sweep or in the
// later iterations over the same strongly connected component.

// CHECK-LABEL: func.func private @self(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @self(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @self(%a: i32) -> i32 {
  %0 = call @self(%a) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func @call_self(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @self(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @call_self(%a: i32) -> i32 {
  %0 = call @self(%a) : (i32) -> i32
  return %0 : i32
}

// CHECK-LABEL: func.func private @ping(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @pong(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @ping(%a: i32) -> i32 {
  %0 = call @pong(%a) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func private @pong(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @ping(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func private @pong(%a: i32) -> i32 {
  %0 = call @ping(%a) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func @call_ping(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @ping(%arg0) : (i32) -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @call_ping(%a: i32) -> i32 {
  %0 = call @ping(%a) : (i32) -> i32
  return %0 : i32
}

// CHECK-LABEL: func.func @a(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @b(%arg0) : (i32) -> i32
// CHECK-NEXT: %1 = arith.muli %0, %arg0 : i32
// CHECK-NEXT: %2 = arith.addi %1, %arg0 : i32
// CHECK-NEXT: return %2 : i32
// CHECK-NEXT: }
func.func @a(%x: i32) -> i32 {
  %0 = call @b(%x) : (i32) -> i32
  return %0 : i32
}
// CHECK-LABEL: func.func private @b(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @b(%arg0) : (i32) -> i32
// CHECK-NEXT: %1 = arith.muli %0, %arg0 : i32
// CHECK-NEXT: %2 = arith.addi %1, %arg0 : i32
// CHECK-NEXT: return %2 : i32
// CHECK-NEXT: }
func.func private @b(%x: i32) -> i32 {
  %0 = call @c(%x) : (i32) -> i32
  %1 = arith.addi %0, %x : i32
  return %1 : i32
}
func.func private @c(%x: i32) -> i32 {
  %0 = call @a(%x) : (i32) -> i32
  %1 = arith.muli %0, %x : i32
  return %1 : i32
}
// CHECK-LABEL: func.func @main(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = call @b(%arg0) : (i32) -> i32
// CHECK-NEXT: %1 = arith.muli %0, %arg0 : i32
// CHECK-NEXT: %2 = arith.addi %1, %arg0 : i32
// CHECK-NEXT: %3 = arith.muli %2, %arg0 : i32
// CHECK-NEXT: %4 = arith.addi %3, %arg0 : i32
// CHECK-NEXT: %5 = call @b(%4) : (i32) -> i32
// CHECK-NEXT: %6 = arith.muli %5, %4 : i32
// CHECK-NEXT: %7 = arith.addi %6, %4 : i32
// CHECK-NEXT: return %7 : i32
// CHECK-NEXT: }
func.func @main(%x: i32) -> i32 {
  %0 = call @a(%x) : (i32) -> i32
  %1 = call @b(%0) : (i32) -> i32
  return %1 : i32
}

// ERASED-NOT: @c(
