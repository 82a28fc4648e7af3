// RUN: strata-opt %s --allow-unregistered-dialect --convert-scf-to-cf | filecheck %s

// scf.if without results: the continuation block is the block after the op.
// CHECK-LABEL: func.func @if_no_results(%arg0: i1) {
//  CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: "test.then"() : () -> ()
//  CHECK-NEXT: cf.br ^bb2
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT: "test.after"() : () -> ()
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @if_no_results(%c: i1) {
  scf.if %c {
    "test.then"() : () -> ()
  }
  "test.after"() : () -> ()
  return
}

// With results: the branches meet in a block taking them as arguments, which
// branches to the continuation.
// CHECK-LABEL: func.func @if_results(%arg0: i1, %arg1: f32) -> f32 {
//  CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: %0 = arith.addf %arg1, %arg1 : f32
//  CHECK-NEXT: cf.br ^bb3(%0 : f32)
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT: cf.br ^bb3(%arg1 : f32)
//  CHECK-NEXT: ^bb3(%1: f32):  // 2 preds: ^bb1, ^bb2
//  CHECK-NEXT: cf.br ^bb4
//  CHECK-NEXT: ^bb4:  // pred: ^bb3
//  CHECK-NEXT: return %1 : f32
//  CHECK-NEXT: }
func.func @if_results(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    %y = arith.addf %x, %x : f32
    scf.yield %y : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}

// Nested conditionals.
// CHECK-LABEL: func.func @nested_if(%arg0: i1, %arg1: i1, %arg2: i32) -> i32 {
//  CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb6
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: cf.cond_br %arg1, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.br ^bb4(%arg2 : i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: %0 = arith.addi %arg2, %arg2 : i32
//  CHECK-NEXT: cf.br ^bb4(%0 : i32)
//  CHECK-NEXT: ^bb4(%1: i32):  // 2 preds: ^bb2, ^bb3
//  CHECK-NEXT: cf.br ^bb5
//  CHECK-NEXT: ^bb5:  // pred: ^bb4
//  CHECK-NEXT: cf.br ^bb7(%1 : i32)
//  CHECK-NEXT: ^bb6:  // pred: ^bb0
//  CHECK-NEXT: "test.else"() : () -> ()
//  CHECK-NEXT: cf.br ^bb7(%arg2 : i32)
//  CHECK-NEXT: ^bb7(%2: i32):  // 2 preds: ^bb5, ^bb6
//  CHECK-NEXT: cf.br ^bb8
//  CHECK-NEXT: ^bb8:  // pred: ^bb7
//  CHECK-NEXT: return %2 : i32
//  CHECK-NEXT: }
func.func @nested_if(%c: i1, %d: i1, %x: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %s = scf.if %d -> (i32) {
      scf.yield %x : i32
    } else {
      %y = arith.addi %x, %x : i32
      scf.yield %y : i32
    }
    scf.yield %s : i32
  } else {
    "test.else"() : () -> ()
    scf.yield %x : i32
  }
  return %r : i32
}

// scf.index_switch: a cf.switch on the index cast to i64; the cases, then the
// default region, then the continuation block taking the results.
// CHECK-LABEL: func.func @index_switch(%arg0: index, %arg1: i32, %arg2: i32) -> i32 {
//  CHECK-NEXT: %0 = arith.index_cast %arg0 : index to i64
//  CHECK-NEXT: cf.switch %0 : i64, [
//  CHECK-NEXT:   default: ^bb3,
//  CHECK-NEXT:   2: ^bb1,
//  CHECK-NEXT:   -5: ^bb2
//  CHECK-NEXT: ]
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: cf.br ^bb4(%arg1 : i32)
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT: %1 = arith.addi %arg1, %arg2 : i32
//  CHECK-NEXT: cf.br ^bb4(%1 : i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb0
//  CHECK-NEXT: cf.br ^bb4(%arg2 : i32)
//  CHECK-NEXT: ^bb4(%2: i32):  // 3 preds: ^bb1, ^bb2, ^bb3
//  CHECK-NEXT: return %2 : i32
//  CHECK-NEXT: }
func.func @index_switch(%i: index, %x: i32, %y: i32) -> i32 {
  %r = scf.index_switch %i -> i32
  case 2 {
    scf.yield %x : i32
  }
  case -5 {
    %s = arith.addi %x, %y : i32
    scf.yield %s : i32
  }
  default {
    scf.yield %y : i32
  }
  return %r : i32
}

// Only a default region.
// CHECK-LABEL: func.func @index_switch_default(%arg0: index) {
//  CHECK-NEXT: %0 = arith.index_cast %arg0 : index to i64
//  CHECK-NEXT: cf.switch %0 : i64, [
//  CHECK-NEXT:   default: ^bb1]
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: "test.default"() : () -> ()
//  CHECK-NEXT: cf.br ^bb2
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @index_switch_default(%i: index) {
  scf.index_switch %i
  default {
    "test.default"() : () -> ()
  }
  return
}

// scf.execute_region: a branch into its (possibly multi-block) region; each
// scf.yield branches to the continuation block, which takes the results.
// CHECK-LABEL: func.func @execute_region(%arg0: i1, %arg1: i32) -> i32 {
//  CHECK-NEXT: cf.br ^bb1
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT: cf.cond_br %arg0, ^bb2, ^bb7
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.cond_br %arg0, ^bb3, ^bb4
//  CHECK-NEXT: ^bb3:  // pred: ^bb2
//  CHECK-NEXT: cf.br ^bb5(%arg1 : i32)
//  CHECK-NEXT: ^bb4:  // pred: ^bb2
//  CHECK-NEXT: %0 = arith.addi %arg1, %arg1 : i32
//  CHECK-NEXT: cf.br ^bb5(%0 : i32)
//  CHECK-NEXT: ^bb5(%1: i32):  // 2 preds: ^bb3, ^bb4
//  CHECK-NEXT: cf.br ^bb6
//  CHECK-NEXT: ^bb6:  // pred: ^bb5
//  CHECK-NEXT: cf.br ^bb8(%1 : i32)
//  CHECK-NEXT: ^bb7:  // pred: ^bb1
//  CHECK-NEXT: cf.br ^bb8(%arg1 : i32)
//  CHECK-NEXT: ^bb8(%2: i32):  // 2 preds: ^bb6, ^bb7
//  CHECK-NEXT: return %2 : i32
//  CHECK-NEXT: }
func.func @execute_region(%c: i1, %x: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %a = scf.if %c -> i32 {
      scf.yield %x : i32
    } else {
      %y = arith.addi %x, %x : i32
      scf.yield %y : i32
    }
    scf.yield %a : i32
  ^bb2:
    scf.yield %x : i32
  }
  return %r : i32
}

// Conditionals and switches inside a loop.
// CHECK-LABEL: func.func @if_in_for(%arg0: index, %arg1: index, %arg2: index, %arg3: i1, %arg4: f32) -> f32 {
//  CHECK-NEXT: cf.br ^bb1(%arg0, %arg4 : index, f32)
//  CHECK-NEXT: ^bb1(%0: index, %1: f32):  // 2 preds: ^bb0, ^bb9
//  CHECK-NEXT: %2 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %2, ^bb2, ^bb10
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.cond_br %arg3, ^bb3, ^bb4
//  CHECK-NEXT: ^bb3:  // pred: ^bb2
//  CHECK-NEXT: %3 = arith.addf %1, %1 : f32
//  CHECK-NEXT: cf.br ^bb5(%3 : f32)
//  CHECK-NEXT: ^bb4:  // pred: ^bb2
//  CHECK-NEXT: cf.br ^bb5(%1 : f32)
//  CHECK-NEXT: ^bb5(%4: f32):  // 2 preds: ^bb3, ^bb4
//  CHECK-NEXT: cf.br ^bb6
//  CHECK-NEXT: ^bb6:  // pred: ^bb5
//  CHECK-NEXT: %5 = arith.index_cast %0 : index to i64
//  CHECK-NEXT: cf.switch %5 : i64, [
//  CHECK-NEXT:   default: ^bb8,
//  CHECK-NEXT:   0: ^bb7
//  CHECK-NEXT: ]
//  CHECK-NEXT: ^bb7:  // pred: ^bb6
//  CHECK-NEXT: cf.br ^bb9(%4 : f32)
//  CHECK-NEXT: ^bb8:  // pred: ^bb6
//  CHECK-NEXT: %6 = arith.mulf %4, %arg4 : f32
//  CHECK-NEXT: cf.br ^bb9(%6 : f32)
//  CHECK-NEXT: ^bb9(%7: f32):  // 2 preds: ^bb7, ^bb8
//  CHECK-NEXT: %8 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%8, %7 : index, f32)
//  CHECK-NEXT: ^bb10:  // pred: ^bb1
//  CHECK-NEXT: return %1 : f32
//  CHECK-NEXT: }
func.func @if_in_for(%lb: index, %ub: index, %step: index, %c: i1, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %x) -> (f32) {
    %b = scf.if %c -> (f32) {
      %y = arith.addf %a, %a : f32
      scf.yield %y : f32
    } else {
      scf.yield %a : f32
    }
    %s = scf.index_switch %i -> f32
    case 0 {
      scf.yield %b : f32
    }
    default {
      %z = arith.mulf %b, %x : f32
      scf.yield %z : f32
    }
    scf.yield %s : f32
  }
  return %r : f32
}
