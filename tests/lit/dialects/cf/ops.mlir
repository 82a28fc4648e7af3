// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-LABEL: func.func @branches
func.func @branches(%a: i32, %c: i1, %f: f32) -> i32 {
  // CHECK-NEXT: cf.assert %arg1, "must hold"
  cf.assert %c, "must hold"
  // CHECK-NEXT: cf.assert %arg1, "quote \22 and newline \0A" {tag}
  cf.assert %c, "quote \" and newline \n" {tag}
  // CHECK-NEXT: cf.br ^bb1(%arg0, %arg2 : i32, f32)
  cf.br ^bb1(%a, %f : i32, f32)
// Block labels carry upstream's predecessor comments.
// CHECK-NEXT: ^bb1(%0: i32, %1: f32):  // pred: ^bb0
^bb1(%x: i32, %y: f32):
  // CHECK-NEXT: cf.cond_br %arg1, ^bb2(%0 : i32), ^bb3
  cf.cond_br %c, ^bb2(%x : i32), ^bb3
// CHECK-NEXT: ^bb2(%2: i32):  // pred: ^bb1
^bb2(%z: i32):
  // CHECK-NEXT: cf.cond_br %arg1 weights([3, 1]), ^bb3, ^bb4(%2, %2 : i32, i32) {tag}
  cf.cond_br %c weights([3, 1]), ^bb3, ^bb4(%z, %z : i32, i32) {tag}
// CHECK-NEXT: ^bb3:  // 2 preds: ^bb1, ^bb2
^bb3:
  // CHECK-NEXT: cf.br ^bb4(%arg0, %arg0 : i32, i32) {tag}
  cf.br ^bb4(%a, %a : i32, i32) {tag}
// CHECK-NEXT: ^bb4(%3: i32, %4: i32):  // 2 preds: ^bb2, ^bb3
^bb4(%p: i32, %q: i32):
  // CHECK-NEXT: return %3 : i32
  return %p : i32
// CHECK-NEXT: ^bb5:  // no predecessors
^bb5:
  // CHECK-NEXT: cf.br ^bb6
  cf.br ^bb6
// CHECK-NEXT: ^bb6:  // 2 preds: ^bb5, ^bb6
^bb6:
  // CHECK-NEXT: cf.br ^bb6
  cf.br ^bb6
}

// CHECK-LABEL: func.func @switches
func.func @switches(%flag: i32, %a: i32, %b: i8, %t: i1) {
  // CHECK-NEXT: cf.switch %arg0 : i32, [
  // CHECK-NEXT:   default: ^bb1(%arg1 : i32),
  // CHECK-NEXT:   42: ^bb2,
  // CHECK-NEXT:   -7: ^bb1(%arg0 : i32)
  // CHECK-NEXT: ]
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    42: ^bb2,
    -7: ^bb1(%flag : i32)
  ]
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
^bb1(%x: i32):
  // Case values are printed sign-extended from the flag's width.
  // CHECK-NEXT: cf.switch %arg2 : i8, [
  // CHECK-NEXT:   default: ^bb2,
  // CHECK-NEXT:   -1: ^bb3(%0 : i32),
  // CHECK-NEXT:   -128: ^bb2
  // CHECK-NEXT: ] {tag}
  cf.switch %b : i8, [
    default: ^bb2,
    255: ^bb3(%x : i32),
    -128: ^bb2
  ] {tag}
// CHECK-NEXT: ^bb2:  // 3 preds: ^bb0, ^bb1, ^bb1
^bb2:
  // Without cases the closing bracket follows the default.
  // CHECK-NEXT: cf.switch %arg3 : i1, [
  // CHECK-NEXT:   default: ^bb3(%arg1 : i32)]
  cf.switch %t : i1, [ default: ^bb3(%a : i32) ]
// CHECK-NEXT: ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
^bb3(%y: i32):
  // CHECK-NEXT: cf.switch %arg3 : i1, [
  // CHECK-NEXT:   default: ^bb4,
  // CHECK-NEXT:   -1: ^bb4,
  // CHECK-NEXT:   0: ^bb4
  // CHECK-NEXT: ]
  cf.switch %t : i1, [ default: ^bb4, 1: ^bb4, 0: ^bb4 ]
// CHECK-NEXT: ^bb4:  // 3 preds: ^bb3, ^bb3, ^bb3
^bb4:
  // CHECK-NEXT: return
  return
}

// Nested regions start their block and value numbers from the parent's counters.
// CHECK-LABEL: func.func @nested
func.func @nested(%c: i1, %x: i64) -> i64 {
  // CHECK-NEXT: %0 = scf.execute_region -> i64 {
  // CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i64)
  // CHECK-NEXT: ^bb1:  // pred: ^bb0
  // CHECK-NEXT:   %c1_i64 = arith.constant 1 : i64
  // CHECK-NEXT:   cf.br ^bb2(%c1_i64 : i64)
  // CHECK-NEXT: ^bb2(%2: i64):  // 2 preds: ^bb0, ^bb1
  // CHECK-NEXT:   scf.yield %2 : i64
  // CHECK-NEXT: }
  %r = scf.execute_region -> i64 {
    cf.cond_br %c, ^bb1, ^bb2(%x : i64)
  ^bb1:
    %one = arith.constant 1 : i64
    cf.br ^bb2(%one : i64)
  ^bb2(%v: i64):
    scf.yield %v : i64
  }
  // CHECK-NEXT: %1 = arith.addi %0, %0 : i64
  %s = arith.addi %r, %r : i64
  // CHECK-NEXT: return %1 : i64
  return %s : i64
}

// A case value may be written as the signed or the unsigned reading of the flag's width;
// it prints as the signed one.
// CHECK-LABEL: func.func @switch_case_extremes
func.func @switch_case_extremes(%b: i8, %t: i1) {
  // CHECK-NEXT: cf.switch %arg0 : i8, [
  // CHECK-NEXT:   default: ^bb1,
  // CHECK-NEXT:   -128: ^bb1,
  // CHECK-NEXT:   -1: ^bb2
  // CHECK-NEXT: ]
  cf.switch %b : i8, [
    default: ^bb1,
    -128: ^bb1,
    255: ^bb2
  ]
^bb1:
  // CHECK: cf.switch %arg1 : i1, [
  // CHECK-NEXT:   default: ^bb2,
  // CHECK-NEXT:   -1: ^bb2
  // CHECK-NEXT: ]
  cf.switch %t : i1, [
    default: ^bb2,
    1: ^bb2
  ]
^bb2:
  return
}
