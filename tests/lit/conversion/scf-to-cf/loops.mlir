// RUN: strata-opt %s --allow-unregistered-dialect --convert-scf-to-cf | filecheck %s

// The loop: a condition block taking the induction variable and the iteration
// arguments, the body, and a latch stepping the induction variable.
// CHECK-LABEL: func.func @simple_for(%arg0: index, %arg1: index, %arg2: index) {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : index)
//  CHECK-NEXT: ^bb1(%0: index):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %1, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: "test.use"(%0) : (index) -> ()
//  CHECK-NEXT: %2 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%2 : index)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @simple_for(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// Loop-carried values are arguments of the condition block; the results are those
// arguments after the loop.
// CHECK-LABEL: func.func @for_iter_args(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: i32) -> (f32, i32) {
//  CHECK-NEXT: cf.br ^bb1(%arg0, %arg3, %arg4 : index, f32, i32)
//  CHECK-NEXT: ^bb1(%0: index, %1: f32, %2: i32):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %3 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %3, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: %4 = arith.addf %1, %1 : f32
//  CHECK-NEXT: %5 = arith.addi %2, %2 : i32
//  CHECK-NEXT: %6 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%6, %4, %5 : index, f32, i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: return %1, %2 : f32, i32
//  CHECK-NEXT: }
func.func @for_iter_args(%lb: index, %ub: index, %step: index, %x: f32, %y: i32) -> (f32, i32) {
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%a = %x, %b = %y) -> (f32, i32) {
    %a2 = arith.addf %a, %a : f32
    %b2 = arith.addi %b, %b : i32
    scf.yield %a2, %b2 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

// Nested loops nest their blocks: the inner loop sits between the outer body's
// first block and its latch.
// CHECK-LABEL: func.func @nested_for(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
//  CHECK-NEXT: cf.br ^bb1(%arg0, %arg3 : index, f32)
//  CHECK-NEXT: ^bb1(%0: index, %1: f32):  // 2 preds: ^bb0, ^bb5
//  CHECK-NEXT: %2 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %2, ^bb2, ^bb6
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: %3 = arith.addf %1, %arg3 : f32
//  CHECK-NEXT: cf.br ^bb3(%0, %3 : index, f32)
//  CHECK-NEXT: ^bb3(%4: index, %5: f32):  // 2 preds: ^bb2, ^bb4
//  CHECK-NEXT: %6 = arith.cmpi slt, %4, %arg1 : index
//  CHECK-NEXT: cf.cond_br %6, ^bb4, ^bb5
//  CHECK-NEXT: ^bb4:  // pred: ^bb3
//  CHECK-NEXT: %7 = arith.mulf %5, %5 : f32
//  CHECK-NEXT: %8 = arith.addi %4, %arg2 : index
//  CHECK-NEXT: cf.br ^bb3(%8, %7 : index, f32)
//  CHECK-NEXT: ^bb5:  // pred: ^bb3
//  CHECK-NEXT: %9 = arith.subf %5, %arg3 : f32
//  CHECK-NEXT: %10 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%10, %9 : index, f32)
//  CHECK-NEXT: ^bb6:  // pred: ^bb1
//  CHECK-NEXT: return %1 : f32
//  CHECK-NEXT: }
func.func @nested_for(%lb: index, %ub: index, %step: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %x) -> (f32) {
    %pre = arith.addf %a, %x : f32
    %s = scf.for %j = %i to %ub step %step iter_args(%b = %pre) -> (f32) {
      %m = arith.mulf %b, %b : f32
      scf.yield %m : f32
    }
    %post = arith.subf %s, %x : f32
    scf.yield %post : f32
  }
  return %r : f32
}

// Unsigned loops compare with `ult`; llvm attributes of the loop (loop annotations)
// go to the latch branch, the others are dropped.
// CHECK-LABEL: func.func @unsigned_for(%arg0: i32, %arg1: i32, %arg2: i32) {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
//  CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %1 = arith.cmpi ult, %0, %arg1 : i32
//  CHECK-NEXT: cf.cond_br %1, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: "test.use"(%0) : (i32) -> ()
//  CHECK-NEXT: %2 = arith.addi %0, %arg2 : i32
//  CHECK-NEXT: cf.br ^bb1(%2 : i32) {llvm.loop_annotation = #{{.*}}loop_annotation{{.*}}}
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @unsigned_for(%lb: i32, %ub: i32, %step: i32) {
  scf.for unsigned %i = %lb to %ub step %step : i32 {
    "test.use"(%i) : (i32) -> ()
  } {llvm.loop_annotation = #llvm.loop_annotation<disableNonforced = true>, other = 1 : i32}
  return
}

// Two loops one after the other: the second starts in the first's exit block.
// CHECK-LABEL: func.func @sequential_for(%arg0: index, %arg1: index, %arg2: index) {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : index)
//  CHECK-NEXT: ^bb1(%0: index):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %arg1 : index
//  CHECK-NEXT: cf.cond_br %1, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: "test.first"(%0) : (index) -> ()
//  CHECK-NEXT: %2 = arith.addi %0, %arg2 : index
//  CHECK-NEXT: cf.br ^bb1(%2 : index)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: "test.between"() : () -> ()
//  CHECK-NEXT: cf.br ^bb4(%arg0 : index)
//  CHECK-NEXT: ^bb4(%3: index):  // 2 preds: ^bb3, ^bb5
//  CHECK-NEXT: %4 = arith.cmpi slt, %3, %arg1 : index
//  CHECK-NEXT: cf.cond_br %4, ^bb5, ^bb6
//  CHECK-NEXT: ^bb5:  // pred: ^bb4
//  CHECK-NEXT: "test.second"(%3) : (index) -> ()
//  CHECK-NEXT: %5 = arith.addi %3, %arg2 : index
//  CHECK-NEXT: cf.br ^bb4(%5 : index)
//  CHECK-NEXT: ^bb6:  // pred: ^bb4
//  CHECK-NEXT: "test.after"() : () -> ()
//  CHECK-NEXT: return
//  CHECK-NEXT: }
func.func @sequential_for(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    "test.first"(%i) : (index) -> ()
  }
  "test.between"() : () -> ()
  scf.for %i = %lb to %ub step %step {
    "test.second"(%i) : (index) -> ()
  }
  "test.after"() : () -> ()
  return
}

// A while loop: the `before` region computes the condition, `after` is the body.
// CHECK-LABEL: func.func @while_loop(%arg0: i32, %arg1: i32) -> i32 {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
//  CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %arg1 : i32
//  CHECK-NEXT: cf.cond_br %1, ^bb2(%0 : i32), ^bb3
//  CHECK-NEXT: ^bb2(%2: i32):  // pred: ^bb1
//  CHECK-NEXT: %3 = arith.addi %2, %2 : i32
//  CHECK-NEXT: cf.br ^bb1(%3 : i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: return %0 : i32
//  CHECK-NEXT: }
func.func @while_loop(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %a, %n : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %b2 = arith.addi %b, %b : i32
    scf.yield %b2 : i32
  }
  return %r : i32
}

// Results of a different type than the iteration arguments.
// CHECK-LABEL: func.func @while_results(%arg0: i32, %arg1: i32) -> (i32, f32) {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
//  CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT: %1 = arith.cmpi slt, %0, %arg1 : i32
//  CHECK-NEXT: %2 = arith.sitofp %0 : i32 to f32
//  CHECK-NEXT: cf.cond_br %1, ^bb2(%0, %2 : i32, f32), ^bb3
//  CHECK-NEXT: ^bb2(%3: i32, %4: f32):  // pred: ^bb1
//  CHECK-NEXT: %5 = arith.addi %3, %3 : i32
//  CHECK-NEXT: cf.br ^bb1(%5 : i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT: return %0, %2 : i32, f32
//  CHECK-NEXT: }
func.func @while_results(%x: i32, %n: i32) -> (i32, f32) {
  %r:2 = scf.while (%a = %x) : (i32) -> (i32, f32) {
    %c = arith.cmpi slt, %a, %n : i32
    %f = arith.sitofp %a : i32 to f32
    scf.condition(%c) %a, %f : i32, f32
  } do {
  ^bb0(%b: i32, %g: f32):
    %b2 = arith.addi %b, %b : i32
    scf.yield %b2 : i32
  }
  return %r#0, %r#1 : i32, f32
}

// An `after` region that only forwards its arguments: a do-while loop, branching
// back to `before` directly.
// CHECK-LABEL: func.func @do_while(%arg0: i32, %arg1: i32) -> i32 {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
//  CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT: %1 = arith.addi %0, %0 : i32
//  CHECK-NEXT: %2 = arith.cmpi slt, %1, %arg1 : i32
//  CHECK-NEXT: cf.cond_br %2, ^bb1(%1 : i32), ^bb2 {llvm.loop_annotation = #{{.*}}loop_annotation{{.*}}}
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT: return %1 : i32
//  CHECK-NEXT: }
func.func @do_while(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %a2 = arith.addi %a, %a : i32
    %c = arith.cmpi slt, %a2, %n : i32
    scf.condition(%c) %a2 : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  } attributes {llvm.loop_annotation = #llvm.loop_annotation<disableNonforced = true>}
  return %r : i32
}

// A loop nest inside the `before` region of a while loop.
// CHECK-LABEL: func.func @for_in_while(%arg0: i32, %arg1: i32) -> i32 {
//  CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
//  CHECK-NEXT: ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb5
//  CHECK-NEXT: cf.br ^bb2(%arg0, %0 : i32, i32)
//  CHECK-NEXT: ^bb2(%1: i32, %2: i32):  // 2 preds: ^bb1, ^bb3
//  CHECK-NEXT: %3 = arith.cmpi slt, %1, %arg1 : i32
//  CHECK-NEXT: cf.cond_br %3, ^bb3, ^bb4
//  CHECK-NEXT: ^bb3:  // pred: ^bb2
//  CHECK-NEXT: %4 = arith.addi %2, %1 : i32
//  CHECK-NEXT: %5 = arith.addi %1, %arg0 : i32
//  CHECK-NEXT: cf.br ^bb2(%5, %4 : i32, i32)
//  CHECK-NEXT: ^bb4:  // pred: ^bb2
//  CHECK-NEXT: %6 = arith.cmpi slt, %2, %arg1 : i32
//  CHECK-NEXT: cf.cond_br %6, ^bb5(%2 : i32), ^bb6
//  CHECK-NEXT: ^bb5(%7: i32):  // pred: ^bb4
//  CHECK-NEXT: %8 = arith.muli %7, %7 : i32
//  CHECK-NEXT: cf.br ^bb1(%8 : i32)
//  CHECK-NEXT: ^bb6:  // pred: ^bb4
//  CHECK-NEXT: return %2 : i32
//  CHECK-NEXT: }
func.func @for_in_while(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %b = scf.for %i = %x to %n step %x iter_args(%q = %a) -> (i32) : i32 {
      %z = arith.addi %q, %i : i32
      scf.yield %z : i32
    }
    %c = arith.cmpi slt, %b, %n : i32
    scf.condition(%c) %b : i32
  } do {
  ^bb0(%p: i32):
    %p2 = arith.muli %p, %p : i32
    scf.yield %p2 : i32
  }
  return %r : i32
}
