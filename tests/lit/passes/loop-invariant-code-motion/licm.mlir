// RUN: strata-opt %s --loop-invariant-code-motion --allow-unregistered-dialect | filecheck %s

// Loop-invariant ops with no memory effects that cannot fault move in front of the loop;
// inner loops first, so an op can leave a nest one level at a time.

// CHECK-LABEL: func.func @nest(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32, %arg5: tensor<?xf32>, %arg6: i32) -> i32 {
// CHECK-NEXT: %0 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT: %1 = arith.muli %0, %0 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %2 = arith.divsi %arg3, %c3_i32 : i32
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %dim = tensor.dim %arg5, %c0 : tensor<?xf32>
// CHECK-NEXT: %3 = arith.addi %arg3, %0 : i32
// CHECK-NEXT: %4 = arith.cmpi slt, %arg3, %arg4 : i32
// CHECK-NEXT: %5 = scf.if %4 -> (i32) {
// CHECK-NEXT: %8 = arith.addi %arg3, %arg3 : i32
// CHECK-NEXT: scf.yield %8 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg4 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %6 = scf.for %arg7 = %arg0 to %arg1 step %c1 iter_args(%arg8 = %arg3) -> (i32) {
// CHECK-NEXT: %8 = arith.addi %arg8, %arg4 : i32
// CHECK-NEXT: scf.yield %8 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %7 = scf.for %arg7 = %arg0 to %arg1 step %arg2 iter_args(%arg8 = %arg6) -> (i32) {
// CHECK-NEXT: %8 = arith.addi %1, %arg8 : i32
// CHECK-NEXT: %9 = arith.divsi %arg3, %arg4 : i32
// CHECK-NEXT: %dim_0 = tensor.dim %arg5, %arg0 : tensor<?xf32>
// CHECK-NEXT: %10 = arith.index_cast %arg7 : index to i32
// CHECK-NEXT: %11 = arith.addi %8, %10 : i32
// CHECK-NEXT: %12 = scf.for %arg9 = %arg0 to %arg1 step %arg2 iter_args(%arg10 = %11) -> (i32) {
// CHECK-NEXT: %17 = arith.addi %arg10, %3 : i32
// CHECK-NEXT: scf.yield %17 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %13 = arith.addi %12, %5 : i32
// CHECK-NEXT: %14 = arith.addi %13, %6 : i32
// CHECK-NEXT: %15 = arith.addi %14, %9 : i32
// CHECK-NEXT: %16 = arith.addi %15, %2 : i32
// CHECK-NEXT: scf.yield %16 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %7 : i32
// CHECK-NEXT: }
func.func @nest(%lb: index, %ub: index, %step: index, %x: i32, %y: i32, %t: tensor<?xf32>, %i0: i32) -> i32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %i0) -> i32 {
    %a = arith.addi %x, %y : i32
    %b = arith.muli %a, %a : i32
    %c = arith.addi %b, %acc : i32
    %d = arith.divsi %x, %y : i32
    %c3 = arith.constant 3 : i32
    %e = arith.divsi %x, %c3 : i32
    %dim = tensor.dim %t, %lb : tensor<?xf32>
    %c0 = arith.constant 0 : index
    %dim0 = tensor.dim %t, %c0 : tensor<?xf32>
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %c, %ii : i32
    %inner = scf.for %j = %lb to %ub step %step iter_args(%q = %s) -> i32 {
      %z = arith.addi %x, %a : i32
      %w = arith.addi %q, %z : i32
      scf.yield %w : i32
    }
    %cond = arith.cmpi slt, %x, %y : i32
    %if = scf.if %cond -> i32 {
      %k = arith.addi %x, %x : i32
      scf.yield %k : i32
    } else {
      scf.yield %y : i32
    }
    %c1 = arith.constant 1 : index
    %lp = scf.for %j = %lb to %ub step %c1 iter_args(%q = %x) -> i32 {
      %w = arith.addi %q, %y : i32
      scf.yield %w : i32
    }
    %t2 = arith.addi %inner, %if : i32
    %t3 = arith.addi %t2, %lp : i32
    %t4 = arith.addi %t3, %d : i32
    %t5 = arith.addi %t4, %e : i32
    scf.yield %t5 : i32
  }
  return %r : i32
}

// CHECK-LABEL: func.func @ops_and_loops(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32, %arg5: tensor<?xf32>, %arg6: f32) {
// CHECK-NEXT: %extracted = tensor.extract %arg5[%arg0] : tensor<?xf32>
// CHECK-NEXT: %0 = tensor.empty(%arg0) : tensor<?xf32>
// CHECK-NEXT: %1 = math.sqrt %arg6 : f32
// CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT: %2 = arith.divui %arg3, %c7_i32 : i32
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %3 = arith.ceildivsi %arg3, %c7_i32 : i32
// CHECK-NEXT: %4 = arith.floordivsi %arg3, %c7_i32 : i32
// CHECK-NEXT: %5 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT: %6 = arith.muli %arg3, %arg4 : i32
// CHECK-NEXT: scf.for %arg7 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT: %9 = scf.index_switch %arg0 -> i32
// CHECK-NEXT: case 2 {
// CHECK-NEXT: scf.yield %arg3 : i32
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK-NEXT: scf.yield %arg4 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %10 = scf.execute_region -> i32 {
// CHECK-NEXT: scf.yield %arg3 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %11 = arith.remsi %arg3, %arg4 : i32
// CHECK-NEXT: %12 = arith.divui %arg3, %arg4 : i32
// CHECK-NEXT: %13 = arith.divsi %arg3, %c-1_i32 : i32
// CHECK-NEXT: %14 = scf.while (%arg8 = %arg3) : (i32) -> i32 {
// CHECK-NEXT: %17 = arith.cmpi slt, %arg8, %arg4 : i32
// CHECK-NEXT: scf.condition(%17) %arg8 : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg8: i32):
// CHECK-NEXT: scf.yield %arg8 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %15 = "test.foo"(%arg3) : (i32) -> i32
// CHECK-NEXT: scf.parallel (%arg8) = (%arg0) to (%arg1) step (%arg2) {
// CHECK-NEXT: %17 = arith.index_cast %arg8 : index to i32
// CHECK-NEXT: %18 = arith.addi %17, %5 : i32
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: %16 = scf.forall (%arg8) in (%arg1) shared_outs(%arg9 = %arg5) -> (tensor<?xf32>) {
// CHECK-NEXT: scf.forall.in_parallel {
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: "test.use"(%9, %10, %extracted, %0, %1, %11, %12, %2, %13, %3, %4, %14, %15, %16) : (i32, i32, f32, tensor<?xf32>, f32, i32, i32, i32, i32, i32, i32, i32, i32, tensor<?xf32>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: %7 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT: %8 = arith.muli %arg3, %arg4 : i32
// CHECK-NEXT: scf.while (%arg7 = %arg3) : (i32) -> () {
// CHECK-NEXT: %9 = arith.cmpi slt, %arg7, %7 : i32
// CHECK-NEXT: scf.condition(%9)
// CHECK-NEXT: } do {
// CHECK-NEXT: "test.use"(%8) : (i32) -> ()
// CHECK-NEXT: scf.yield %arg3 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @ops_and_loops(%lb: index, %ub: index, %step: index, %x: i32, %y: i32, %t: tensor<?xf32>, %f: f32) {
  scf.for %i = %lb to %ub step %step {
    %sw = scf.index_switch %lb -> i32
    case 2 {
      scf.yield %x : i32
    }
    default {
      scf.yield %y : i32
    }
    %er = scf.execute_region -> i32 {
      scf.yield %x : i32
    }
    %ex = tensor.extract %t[%lb] : tensor<?xf32>
    %em = tensor.empty(%lb) : tensor<?xf32>
    %sq = math.sqrt %f : f32
    %rs = arith.remsi %x, %y : i32
    %du = arith.divui %x, %y : i32
    %c = arith.constant 7 : i32
    %du2 = arith.divui %x, %c : i32
    %cm1 = arith.constant -1 : i32
    %ds = arith.divsi %x, %cm1 : i32
    %ce = arith.ceildivsi %x, %c : i32
    %fl = arith.floordivsi %x, %c : i32
    %wh = scf.while (%a = %x) : (i32) -> i32 {
      %cond = arith.cmpi slt, %a, %y : i32
      scf.condition(%cond) %a : i32
    } do {
    ^bb0(%a: i32):
      scf.yield %a : i32
    }
    %p = "test.foo"(%x) : (i32) -> i32
    scf.parallel (%j) = (%lb) to (%ub) step (%step) {
      %k = arith.addi %x, %y : i32
      %kk = arith.index_cast %j : index to i32
      %kkk = arith.addi %kk, %k : i32
      scf.reduce
    }
    %fa = scf.forall (%j) in (%ub) shared_outs(%o = %t) -> tensor<?xf32> {
      %k = arith.muli %x, %y : i32
      scf.forall.in_parallel {
      }
    }
    "test.use"(%sw, %er, %ex, %em, %sq, %rs, %du, %du2, %ds, %ce, %fl, %wh, %p, %fa) : (i32, i32, f32, tensor<?xf32>, f32, i32, i32, i32, i32, i32, i32, i32, i32, tensor<?xf32>) -> ()
  }
  scf.while (%a = %x) : (i32) -> () {
    %k = arith.addi %x, %y : i32
    %cond = arith.cmpi slt, %a, %k : i32
    scf.condition(%cond)
  } do {
    %k2 = arith.muli %x, %y : i32
    "test.use"(%k2) : (i32) -> ()
    scf.yield %x : i32
  }
  return
}
