// RUN: strata-opt %s --sccp | filecheck %s

// Constants through unstructured control flow: only live edges feed block arguments;
// constants are re-created at the top of the function (the last one first) and the ops
// they replace erased. Dead blocks stay: sccp leaves them to canonicalize.

// CHECK-LABEL: func.func @simple_branch(%arg0: i1) -> i32 {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: cf.cond_br %true, ^bb1(%c1_i32 : i32), ^bb2(%arg0 : i1)
// CHECK-NEXT: ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT: cf.br ^bb3(%c2_i32 : i32)
// CHECK-NEXT: ^bb2(%1: i1):  // pred: ^bb0
// CHECK-NEXT: %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT: cf.br ^bb3(%c5_i32 : i32)
// CHECK-NEXT: ^bb3(%2: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT: return %c2_i32 : i32
// CHECK-NEXT: }
func.func @simple_branch(%arg0: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  cf.cond_br %true, ^bb1(%c1 : i32), ^bb2(%arg0 : i1)
^bb1(%a: i32):
  %b = arith.addi %a, %a : i32
  cf.br ^bb3(%b : i32)
^bb2(%x: i1):
  %c5 = arith.constant 5 : i32
  cf.br ^bb3(%c5 : i32)
^bb3(%r: i32):
  return %r : i32
}
// CHECK-LABEL: func.func @loop(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: cf.br ^bb1(%c0_i32, %c1_i32 : i32, i32)
// CHECK-NEXT: ^bb1(%0: i32, %1: i32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT: %2 = arith.cmpi slt, %0, %arg0 : i32
// CHECK-NEXT: cf.cond_br %2, ^bb2, ^bb3
// CHECK-NEXT: ^bb2:  // pred: ^bb1
// CHECK-NEXT: %3 = arith.addi %0, %c1_i32 : i32
// CHECK-NEXT: cf.br ^bb1(%3, %c1_i32 : i32, i32)
// CHECK-NEXT: ^bb3:  // pred: ^bb1
// CHECK-NEXT: return %c1_i32 : i32
// CHECK-NEXT: }
func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^header(%c0, %c1 : i32, i32)
^header(%i: i32, %k: i32):
  %cond = arith.cmpi slt, %i, %n : i32
  cf.cond_br %cond, ^body, ^exit
^body:
  %i2 = arith.addi %i, %c1 : i32
  %k2 = arith.muli %k, %c1 : i32
  cf.br ^header(%i2, %k2 : i32, i32)
^exit:
  return %k : i32
}
// CHECK-LABEL: func.func @switch(%arg0: i32) -> i32 {
// CHECK-NEXT: %c14_i32 = arith.constant 14 : i32
// CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: cf.switch %c2_i32 : i32, [
// CHECK-NEXT: default: ^bb1(%arg0 : i32),
// CHECK-NEXT: 2: ^bb2(%c7_i32 : i32),
// CHECK-NEXT: 3: ^bb1(%c2_i32 : i32)
// CHECK-NEXT: ]
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: ^bb2(%1: i32):  // pred: ^bb0
// CHECK-NEXT: return %c14_i32 : i32
// CHECK-NEXT: }
func.func @switch(%f: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c7 = arith.constant 7 : i32
  cf.switch %c2 : i32, [
    default: ^bb1(%f : i32),
    2: ^bb2(%c7 : i32),
    3: ^bb1(%c2 : i32)
  ]
^bb1(%a: i32):
  return %a : i32
^bb2(%b: i32):
  %x = arith.addi %b, %b : i32
  return %x : i32
}
// CHECK-LABEL: func.func @unknown_cond(%arg0: i1) -> i32 {
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: cf.cond_br %arg0, ^bb1(%c1_i32 : i32), ^bb1(%c1_i32 : i32)
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT: return %c-1_i32 : i32
// CHECK-NEXT: }
func.func @unknown_cond(%c: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  cf.cond_br %c, ^bb1(%c1 : i32), ^bb1(%c1 : i32)
^bb1(%a: i32):
  %b = arith.subi %a, %c2 : i32
  return %b : i32
}
// CHECK-LABEL: func.func @overdefined(%arg0: i1) -> i32 {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: cf.cond_br %arg0, ^bb1(%c1_i32 : i32), ^bb1(%c2_i32 : i32)
// CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT: %1 = arith.addi %0, %c2_i32 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @overdefined(%c: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  cf.cond_br %c, ^bb1(%c1 : i32), ^bb1(%c2 : i32)
^bb1(%a: i32):
  %b = arith.addi %a, %c2 : i32
  return %b : i32
}
// CHECK-LABEL: func.func @fold_values(%arg0: i32, %arg1: f32) -> (i32, f32, i32) {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT: return %0, %cst, %c0_i32 : i32, f32, i32
// CHECK-NEXT: }
func.func @fold_values(%x: i32, %f: f32) -> (i32, f32, i32) {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  %z = arith.muli %x, %c0 : i32
  %cf = arith.constant 4.0 : f32
  %s = math.sqrt %cf : f32
  return %y, %s, %z : i32, f32, i32
}
