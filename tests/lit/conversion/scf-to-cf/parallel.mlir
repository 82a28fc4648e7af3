// RUN: strata-opt %s --allow-unregistered-dialect --convert-scf-to-cf | filecheck %s

// scf.parallel becomes a nest of sequential loops, one per induction variable.
// CHECK-LABEL: func.func @parallel(%arg0: index, %arg1: index, %arg2: index) {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : index)
//  CHECK-NEXT: ^bb1(%0: index):  // 2 preds: ^bb0, ^bb5
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %1, ^bb2, ^bb6
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.br ^bb3(%arg0 : index)
//  CHECK-NEXT: ^bb3(%2: index):  // 2 preds: ^bb2, ^bb4
//  CHECK-NEXT: %3 = arith.cmpi slt, %2, %arg1 : index
//  CHECK-NEXT: cf.cond_br %3, ^bb4, ^bb5
//  CHECK-NEXT: ^bb4:  // pred: ^bb3
//  CHECK-NEXT: "test.use"(%0, %2) : (index, index) -> ()
//  CHECK-NEXT: %4 = arith.addi %2, %arg2 : index
//  CHECK-NEXT: cf.br ^bb3(%4 : index)
//  CHECK-NEXT: ^bb5:  // pred: ^bb3
//  CHECK-NEXT: %5 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%5 : index)
//  CHECK-NEXT: ^bb6:  // pred: ^bb1
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @parallel(%lb: index, %ub: index, %step: index) {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// Reductions become iteration arguments threaded through the nest; the reduction
// bodies are inlined after the loop body.
// CHECK-LABEL: func.func @parallel_reduce(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: i32) -> (f32, i32) {
//  CHECK-NEXT: cf.br ^bb1(%arg0, %arg3, %arg4 : index, f32, i32)
//  CHECK-NEXT: ^bb1(%0: index, %1: f32, %2: i32):  // 2 preds: ^bb0, ^bb5
//  CHECK-NEXT: %3 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %3, ^bb2, ^bb6
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.br ^bb3(%arg0, %1, %2 : index, f32, i32)
//  CHECK-NEXT: ^bb3(%4: index, %5: f32, %6: i32):  // 2 preds: ^bb2, ^bb4
//  CHECK-NEXT: %7 = arith.cmpi slt, %4, %arg1 : index
//  CHECK-NEXT: cf.cond_br %7, ^bb4, ^bb5
//  CHECK-NEXT: ^bb4:  // pred: ^bb3
//  CHECK-NEXT: %8 = "test.value"(%0, %4) : (index, index) -> f32
//  CHECK-NEXT: %9 = "test.other"(%0, %4) : (index, index) -> i32
//  CHECK-NEXT: %10 = arith.addf %5, %8 : f32
//  CHECK-NEXT: %11 = arith.muli %6, %9 : i32
//  CHECK-NEXT: %12 = arith.addi %4, %arg2 : index
//  CHECK-NEXT: cf.br ^bb3(%12, %10, %11 : index, f32, i32)
//  CHECK-NEXT: ^bb5:  // pred: ^bb3
//  CHECK-NEXT: %13 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%13, %5, %6 : index, f32, i32)
//  CHECK-NEXT: ^bb6:  // pred: ^bb1
//  CHECK-NEXT: return %1, %2 : f32, i32
//  CHECK-NEXT: }
func.func @parallel_reduce(%lb: index, %ub: index, %step: index, %x: f32, %y: i32) -> (f32, i32) {
  %r:2 = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) init (%x, %y) -> (f32, i32) {
    %v = "test.value"(%i, %j) : (index, index) -> f32
    %w = "test.other"(%i, %j) : (index, index) -> i32
    scf.reduce(%v, %w : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %s = arith.muli %l, %r : i32
      scf.reduce.return %s : i32
    }
  }
  return %r#0, %r#1 : f32, i32
}

// scf.forall without outputs: constant bounds and steps become arith.constant ops,
// then as scf.parallel.
// CHECK-LABEL: func.func @forall(%arg0: index, %arg1: index) {
//  CHECK-NEXT: %c1 = arith.constant 1 : index
//  CHECK-NEXT: %c10 = arith.constant 10 : index
//  CHECK-NEXT: %c2 = arith.constant 2 : index
//  CHECK-NEXT: %c3 = arith.constant 3 : index
//  CHECK-NEXT: cf.br ^bb1(%arg0 : index)
//  CHECK-NEXT: ^bb1(%0: index):  // 2 preds: ^bb0, ^bb8
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %c10 : index
//  CHECK-NEXT: cf.cond_br %1, ^bb2, ^bb9
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: cf.br ^bb3(%c1 : index)
//  CHECK-NEXT: ^bb3(%2: index):  // 2 preds: ^bb2, ^bb7
//  CHECK-NEXT: %3 = arith.cmpi slt, %2, %arg1 : index
//  CHECK-NEXT: cf.cond_br %3, ^bb4, ^bb8
//  CHECK-NEXT: ^bb4:  // pred: ^bb3
//  CHECK-NEXT: %c0 = arith.constant 0 : index
//  CHECK-NEXT: %c5 = arith.constant 5 : index
//  CHECK-NEXT: %c1_0 = arith.constant 1 : index
//  CHECK-NEXT: cf.br ^bb5(%c0 : index)
//  CHECK-NEXT: ^bb5(%4: index):  // 2 preds: ^bb4, ^bb6
//  CHECK-NEXT: %5 = arith.cmpi slt, %4, %c5 : index
//  CHECK-NEXT: cf.cond_br %5, ^bb6, ^bb7
//  CHECK-NEXT: ^bb6:  // pred: ^bb5
//  CHECK-NEXT: "test.use"(%0, %2, %4) : (index, index, index) -> ()
//  CHECK-NEXT: %6 = arith.addi %4, %c1_0 : index
//  CHECK-NEXT: cf.br ^bb5(%6 : index)
//  CHECK-NEXT: ^bb7:  // pred: ^bb5
//  CHECK-NEXT: %7 = arith.addi %2, %c3 : index
//  CHECK-NEXT: cf.br ^bb3(%7 : index)
//  CHECK-NEXT: ^bb8:  // pred: ^bb3
//  CHECK-NEXT: %8 = arith.addi %0, %c2 : index
//  CHECK-NEXT: cf.br ^bb1(%8 : index)
//  CHECK-NEXT: ^bb9:  // pred: ^bb1
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @forall(%lb: index, %ub: index) {
  scf.forall (%i, %j) = (%lb, 1) to (10, %ub) step (2, 3) {
    scf.forall (%k) in (5) {
      "test.use"(%i, %j, %k) : (index, index, index) -> ()
    }
  }
  return
}
