// cf canonicalization patterns (strata/dialects/cf.py). The CHECK lines are what
// `iree-opt --canonicalize` prints for this file; tests/unit/test_cf_scf_canonicalize.py
// also diffs the whole output against it.
// RUN: strata-opt %s --split-input-file --allow-unregistered-dialect --canonicalize | filecheck %s

// cf.br to a block with no other predecessor: the blocks merge.
// CHECK-LABEL: func.func @merge_single_pred(
//  CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c7_i32 : i32
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: }
func.func @merge_single_pred(%a: i32) -> i32 {
  %c = arith.constant 7 : i32
  cf.br ^next(%c : i32)
^next(%x: i32):
  %s = arith.addi %x, %a : i32
  return %s : i32
}

// CHECK-LABEL: func.func @merge_chain(
//  CHECK-NEXT:   "test.before"() : () -> ()
//  CHECK-NEXT:   "test.mid"(%arg0) : (i32) -> ()
//  CHECK-NEXT:   "test.end"(%arg0, %arg1) : (i32, i32) -> ()
//  CHECK-NEXT:   return %arg1 : i32
//  CHECK-NEXT: }
func.func @merge_chain(%a: i32, %b: i32) -> i32 {
  "test.before"() : () -> ()
  cf.br ^one(%a : i32)
^one(%x: i32):
  "test.mid"(%x) : (i32) -> ()
  cf.br ^two(%x, %b : i32, i32)
^two(%y: i32, %z: i32):
  "test.end"(%y, %z) : (i32, i32) -> ()
  return %z : i32
}

// Blocks that only forward their arguments are jumped over.
// CHECK-LABEL: func.func @br_pass_through(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb3(%arg0, %arg1 : i32, i32)
//  CHECK-NEXT: ^bb2(%0: i32):  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb3(%0, %arg1 : i32, i32)
//  CHECK-NEXT: ^bb3(%1: i32, %2: i32):  // 3 preds: ^bb0, ^bb1, ^bb2
//  CHECK-NEXT:   return %1, %2 : i32, i32
//  CHECK-NEXT: }
func.func @br_pass_through(%a: i32, %b: i32) -> (i32, i32) {
  "test.fork"() [^p, ^q, ^r] : () -> ()
^p:
  cf.br ^q(%a : i32)
^q(%x: i32):
  cf.br ^r(%x, %b : i32, i32)
^r(%u: i32, %v: i32):
  return %u, %v : i32, i32
}

// A cycle of forwarding blocks is kept (as one self-loop); a chain that ends is not.
// CHECK-LABEL: func.func @br_cycle(
//  CHECK-NEXT:   cf.br ^bb1
//  CHECK-NEXT: ^bb1:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   cf.br ^bb1
//  CHECK-NEXT: }
func.func @br_cycle() {
  cf.br ^a
^a:
  cf.br ^b
^b:
  cf.br ^c
^c:
  cf.br ^a
}

// CHECK-LABEL: func.func @br_no_cycle(
//  CHECK-NEXT:   %c3_i64 = arith.constant 3 : i64
//  CHECK-NEXT:   return %c3_i64 : i64
//  CHECK-NEXT: }
func.func @br_no_cycle() -> i64 {
  cf.br ^a
^a:
  cf.br ^b
^b:
  cf.br ^c
^c:
  %r = arith.constant 3 : i64
  return %r : i64
}

// CHECK-LABEL: func.func @br_self_loop(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2] : () -> ()
//  CHECK-NEXT: ^bb1:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   cf.br ^bb1
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @br_self_loop(%a: i32) {
  "test.fork"() [^l, ^e] : () -> ()
^l:
  cf.br ^l
^e:
  return
}

// -----

// A constant condition picks the destination.
// CHECK-LABEL: func.func @cond_br_true(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb2(%arg0 : i32)
//  CHECK-NEXT: ^bb2(%0: i32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.y"(%0) : (i32) -> ()
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: ^bb3(%1: i32):  // pred: ^bb0
//  CHECK-NEXT:   "test.z"(%1) : (i32) -> ()
//  CHECK-NEXT:   return %1 : i32
//  CHECK-NEXT: }
func.func @cond_br_true(%a: i32, %b: i32) -> i32 {
  %t = arith.constant true
  "test.fork"() [^x, ^y, ^z] : () -> ()
^x:
  cf.cond_br %t, ^y(%a : i32), ^z(%b : i32)
^y(%p: i32):
  "test.y"(%p) : (i32) -> ()
  return %p : i32
^z(%q: i32):
  "test.z"(%q) : (i32) -> ()
  return %q : i32
}

// CHECK-LABEL: func.func @cond_br_false(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb3(%arg1 : i32)
//  CHECK-NEXT: ^bb2(%0: i32):  // pred: ^bb0
//  CHECK-NEXT:   "test.y"(%0) : (i32) -> ()
//  CHECK-NEXT:   return %0 : i32
//  CHECK-NEXT: ^bb3(%1: i32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.z"(%1) : (i32) -> ()
//  CHECK-NEXT:   return %1 : i32
//  CHECK-NEXT: }
func.func @cond_br_false(%a: i32, %b: i32) -> i32 {
  %f = arith.constant false
  "test.fork"() [^x, ^y, ^z] : () -> ()
^x:
  cf.cond_br %f, ^y(%a : i32), ^z(%b : i32)
^y(%p: i32):
  "test.y"(%p) : (i32) -> ()
  return %p : i32
^z(%q: i32):
  "test.z"(%q) : (i32) -> ()
  return %q : i32
}

// CHECK-LABEL: func.func @cond_br_loop_false(
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @cond_br_loop_false(%c: i1, %a: i32) {
  %f = arith.constant false
  %t = arith.constant true
  cf.cond_br %c, ^one, ^two(%a : i32)
^one:
  cf.cond_br %t, ^three, ^two(%a : i32)
^two(%x: i32):
  cf.cond_br %f, ^two(%x : i32), ^three
^three:
  return
}

// -----

// Both edges to one block: one cf.br, with arith.select for the operands that differ
// when this block is the destination's only predecessor.
// CHECK-LABEL: func.func @same_dest_same_operands(
//  CHECK-NEXT:   "test.use"(%arg1) : (i32) -> ()
//  CHECK-NEXT:   return %arg1 : i32
//  CHECK-NEXT: }
func.func @same_dest_same_operands(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^m(%a : i32), ^m(%a : i32)
^m(%x: i32):
  "test.use"(%x) : (i32) -> ()
  return %x : i32
}

// CHECK-LABEL: func.func @same_dest_selects(
//  CHECK-NEXT:   %0 = arith.select %arg0, %arg1, %arg2 : i32
//  CHECK-NEXT:   %1 = arith.select %arg0, %arg3, %arg4 : tensor<4xf32>
//  CHECK-NEXT:   return %0, %1, %arg2 : i32, tensor<4xf32>, i32
//  CHECK-NEXT: }
func.func @same_dest_selects(%c: i1, %a: i32, %b: i32, %t: tensor<4xf32>, %u: tensor<4xf32>) -> (i32, tensor<4xf32>, i32) {
  cf.cond_br %c, ^m(%a, %t, %b : i32, tensor<4xf32>, i32), ^m(%b, %u, %b : i32, tensor<4xf32>, i32)
^m(%x: i32, %y: tensor<4xf32>, %z: i32):
  return %x, %y, %z : i32, tensor<4xf32>, i32
}

// CHECK-LABEL: func.func @same_dest_other_pred(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb2(%arg1 : i32), ^bb2(%arg2 : i32)
//  CHECK-NEXT: ^bb2(%0: i32):  // 4 preds: ^bb0, ^bb1, ^bb1, ^bb2
//  CHECK-NEXT:   "test.use"(%0) : (i32) -> ()
//  CHECK-NEXT:   cf.br ^bb2(%0 : i32)
//  CHECK-NEXT: }
func.func @same_dest_other_pred(%c: i1, %a: i32, %b: i32) -> i32 {
  "test.fork"() [^s, ^m] : () -> ()
^s:
  cf.cond_br %c, ^m(%a : i32), ^m(%b : i32)
^m(%x: i32):
  "test.use"(%x) : (i32) -> ()
  cf.br ^m(%x : i32)
}

// -----

// Forwarding destinations of cf.cond_br are skipped; the weights stay.
// CHECK-LABEL: func.func @cond_br_pass_through(
//  CHECK-NEXT:   %0 = arith.select %arg3, %arg0, %arg2 : i32
//  CHECK-NEXT:   %1 = arith.select %arg3, %arg1, %arg2 : i32
//  CHECK-NEXT:   return %0, %1 : i32, i32
//  CHECK-NEXT: }
func.func @cond_br_pass_through(%a: i32, %b: i32, %d: i32, %c: i1) -> (i32, i32) {
  cf.cond_br %c, ^p(%a : i32), ^q(%d, %d : i32, i32)
^p(%x: i32):
  cf.br ^q(%x, %b : i32, i32)
^q(%u: i32, %v: i32):
  return %u, %v : i32, i32
}

// CHECK-LABEL: func.func @cond_br_pass_through_weights(
//  CHECK-NEXT:   cf.cond_br %arg2 weights([20, 80]), ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.r"() : () -> ()
//  CHECK-NEXT:   return %arg0 : i32
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   "test.s"() : () -> ()
//  CHECK-NEXT:   return %arg1 : i32
//  CHECK-NEXT: }
func.func @cond_br_pass_through_weights(%a: i32, %b: i32, %c: i1) -> i32 {
  cf.cond_br %c weights([20, 80]), ^p, ^q
^p:
  cf.br ^r
^q:
  cf.br ^s
^r:
  "test.r"() : () -> ()
  return %a : i32
^s:
  "test.s"() : () -> ()
  return %b : i32
}

// Not a pass-through: another op, or an argument used elsewhere.
// CHECK-LABEL: func.func @cond_br_pass_through_blocked(
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.op"() : () -> ()
//  CHECK-NEXT:   cf.br ^bb2
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @cond_br_pass_through_blocked(%c: i1) {
  cf.cond_br %c, ^p, ^q
^p:
  "test.op"() : () -> ()
  cf.br ^q
^q:
  return
}

// CHECK-LABEL: func.func @cond_br_pass_through_arg_used(
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb2, ^bb1
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.q"() : () -> ()
//  CHECK-NEXT:   cf.br ^bb2
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.r"(%arg1) : (i32) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @cond_br_pass_through_arg_used(%c: i1, %a: i32) {
  cf.cond_br %c, ^p(%a : i32), ^q
^p(%x: i32):
  cf.br ^r(%x : i32)
^q:
  "test.q"() : () -> ()
  cf.br ^r(%a : i32)
^r(%y: i32):
  "test.r"(%y) : (i32) -> ()
  return
}

// -----

// A block reached only from a cf.cond_br on the same condition knows it.
// CHECK-LABEL: func.func @cond_br_same_cond(
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   return
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   "test.term"() : () -> ()
//  CHECK-NEXT: }
func.func @cond_br_same_cond(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  cf.cond_br %c, ^d, ^b
^b:
  "test.term"() : () -> ()
^d:
  return
}

// CHECK-LABEL: func.func @cond_br_same_cond_false(
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.term"() : () -> ()
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   "test.op"() : () -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @cond_br_same_cond_false(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  "test.term"() : () -> ()
^b:
  "test.op"() : () -> ()
  cf.cond_br %c, ^a2, ^d
^a2:
  "test.term2"() : () -> ()
^d:
  return
}

// The condition is true in a destination only the true edge reaches (false: likewise).
// CHECK-LABEL: func.func @truth(
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.t"(%true) : (i1) -> ()
//  CHECK-NEXT:   cf.br ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   "test.f"(%false) : (i1) -> ()
//  CHECK-NEXT:   cf.br ^bb3
//  CHECK-NEXT: ^bb3:  // 2 preds: ^bb1, ^bb2
//  CHECK-NEXT:   "test.e"(%arg0) : (i1) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @truth(%c: i1) {
  cf.cond_br %c, ^t, ^f
^t:
  "test.t"(%c) : (i1) -> ()
  cf.br ^e
^f:
  "test.f"(%c) : (i1) -> ()
  cf.br ^e
^e:
  "test.e"(%c) : (i1) -> ()
  return
}

// CHECK-LABEL: func.func @truth_two_preds(
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.t"(%arg0) : (i1) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT:   "test.f"(%false) : (i1) -> ()
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @truth_two_preds(%c: i1) {
  "test.fork"() [^s, ^t] : () -> ()
^s:
  cf.cond_br %c, ^t, ^f
^t:
  "test.t"(%c) : (i1) -> ()
  return
^f:
  "test.f"(%c) : (i1) -> ()
  return
}

// -----

// A destination that is only `ub.unreachable` is never taken.
// CHECK-LABEL: func.func @unreachable_dest(
//  CHECK-NEXT:   return %arg1 : i32
//  CHECK-NEXT: }
func.func @unreachable_dest(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^u, ^ok(%a : i32)
^u:
  "ub.unreachable"() : () -> ()
^ok(%x: i32):
  return %x : i32
}

// -----

// Block arguments that every predecessor feeds the same value are replaced by it.
// CHECK-LABEL: func.func @uniform_args(
//  CHECK-NEXT:   %c3_i32 = arith.constant 3 : i32
//  CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   "test.l"() : () -> ()
//  CHECK-NEXT:   cf.br ^bb3(%arg1 : i32)
//  CHECK-NEXT: ^bb2:  // pred: ^bb0
//  CHECK-NEXT:   "test.r"() : () -> ()
//  CHECK-NEXT:   cf.br ^bb3(%c3_i32 : i32)
//  CHECK-NEXT: ^bb3(%0: i32):  // 2 preds: ^bb1, ^bb2
//  CHECK-NEXT:   %1 = arith.addi %arg1, %0 : i32
//  CHECK-NEXT:   return %1 : i32
//  CHECK-NEXT: }
func.func @uniform_args(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^l, ^r
^l:
  "test.l"() : () -> ()
  cf.br ^j(%a, %a : i32, i32)
^r:
  "test.r"() : () -> ()
  %k = arith.constant 3 : i32
  cf.br ^j(%a, %k : i32, i32)
^j(%x: i32, %y: i32):
  %s = arith.addi %x, %y : i32
  return %s : i32
}

// CHECK-LABEL: func.func @uniform_loop(
//  CHECK-NEXT:   %c1_i32 = arith.constant 1 : i32
//  CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
//  CHECK-NEXT:   cf.br ^bb1(%c0_i32, %arg0 : i32, i32)
//  CHECK-NEXT: ^bb1(%0: i32, %1: i32):  // 2 preds: ^bb0, ^bb2
//  CHECK-NEXT:   %2 = arith.cmpi slt, %0, %1 : i32
//  CHECK-NEXT:   cf.cond_br %2, ^bb2, ^bb3
//  CHECK-NEXT: ^bb2:  // pred: ^bb1
//  CHECK-NEXT:   %3 = arith.addi %0, %c1_i32 : i32
//  CHECK-NEXT:   "test.body"(%3, %1) : (i32, i32) -> ()
//  CHECK-NEXT:   cf.br ^bb1(%3, %1 : i32, i32)
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @uniform_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  cf.br ^h(%c0, %n : i32, i32)
^h(%i: i32, %m: i32):
  %ok = arith.cmpi slt, %i, %m : i32
  cf.cond_br %ok, ^b, ^x
^b:
  %one = arith.constant 1 : i32
  %j = arith.addi %i, %one : i32
  "test.body"(%j, %m) : (i32, i32) -> ()
  cf.br ^h(%j, %m : i32, i32)
^x:
  return
}

// -----

// cf.assert of a constant true goes.
// CHECK-LABEL: func.func @assert_const(
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   cf.assert %false, "always"
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @assert_const() {
  %t = arith.constant true
  %f = arith.constant false
  cf.assert %t, "never"
  cf.assert %f, "always"
  return
}

// CHECK-LABEL: func.func @assert_unknown(
//  CHECK-NEXT:   cf.assert %arg0, "maybe"
//  CHECK-NEXT:   return
//  CHECK-NEXT: }
func.func @assert_unknown(%c: i1) {
  cf.assert %c, "maybe"
  return
}

// -----

// cf.switch: only a default -> cf.br; cases going where the default goes are dropped.
// CHECK-LABEL: func.func @switch_default_only(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb2(%arg1 : f32)
//  CHECK-NEXT: ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.d"(%0) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_default_only(%f: i32, %a: f32) {
  "test.fork"() [^s, ^d] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^d(%a : f32)
  ]
^d(%x: f32):
  "test.d"(%x) : (f32) -> ()
}

// CHECK-LABEL: func.func @switch_drop_default_cases(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.switch %arg0 : i32, [
//  CHECK-NEXT:     default: ^bb2(%arg1 : f32),
//  CHECK-NEXT:     6: ^bb3(%arg2 : f32),
//  CHECK-NEXT:     7: ^bb2(%arg2 : f32)
//  CHECK-NEXT:   ]
//  CHECK-NEXT: ^bb2(%0: f32):  // 3 preds: ^bb0, ^bb1, ^bb1
//  CHECK-NEXT:   "test.d"(%0) : (f32) -> ()
//  CHECK-NEXT: ^bb3(%1: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.e"(%1) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_drop_default_cases(%f: i32, %a: f32, %b: f32) {
  "test.fork"() [^s, ^d, ^e] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^d(%a : f32),
    5: ^d(%a : f32),
    6: ^e(%b : f32),
    7: ^d(%b : f32),
    8: ^d(%a : f32)
  ]
^d(%x: f32):
  "test.d"(%x) : (f32) -> ()
^e(%y: f32):
  "test.e"(%y) : (f32) -> ()
}

// A constant flag picks its case (or the default).
// CHECK-LABEL: func.func @switch_const_hit(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3, ^bb4] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb3(%arg1 : f32)
//  CHECK-NEXT: ^bb2(%0: f32):  // pred: ^bb0
//  CHECK-NEXT:   "test.d"(%0) : (f32) -> ()
//  CHECK-NEXT: ^bb3(%1: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.e"(%1) : (f32) -> ()
//  CHECK-NEXT: ^bb4(%2: f32):  // pred: ^bb0
//  CHECK-NEXT:   "test.g"(%2) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_const_hit(%a: f32, %b: f32, %c: f32) {
  "test.fork"() [^s, ^d, ^e, ^g] : () -> ()
^s:
  %k = arith.constant -2 : i16
  cf.switch %k : i16, [
    default: ^d(%a : f32),
    -2: ^e(%b : f32),
    3: ^g(%c : f32)
  ]
^d(%x: f32):
  "test.d"(%x) : (f32) -> ()
^e(%y: f32):
  "test.e"(%y) : (f32) -> ()
^g(%z: f32):
  "test.g"(%z) : (f32) -> ()
}

// CHECK-LABEL: func.func @switch_const_miss(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb2(%arg0 : f32)
//  CHECK-NEXT: ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.d"(%0) : (f32) -> ()
//  CHECK-NEXT: ^bb3(%1: f32):  // pred: ^bb0
//  CHECK-NEXT:   "test.e"(%1) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_const_miss(%a: f32, %b: f32) {
  "test.fork"() [^s, ^d, ^e] : () -> ()
^s:
  %k = arith.constant 9 : i8
  cf.switch %k : i8, [
    default: ^d(%a : f32),
    -1: ^e(%b : f32)
  ]
^d(%x: f32):
  "test.d"(%x) : (f32) -> ()
^e(%y: f32):
  "test.e"(%y) : (f32) -> ()
}

// Forwarding destinations of cf.switch are skipped.
// CHECK-LABEL: func.func @switch_pass_through(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb3, ^bb4, ^bb5, ^bb6] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.switch %arg0 : i32, [
//  CHECK-NEXT:     default: ^bb5(%arg1 : f32),
//  CHECK-NEXT:     10: ^bb6(%arg2 : f32),
//  CHECK-NEXT:     11: ^bb4(%arg3 : f32)
//  CHECK-NEXT:   ]
//  CHECK-NEXT: ^bb2(%0: f32):  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb5(%0 : f32)
//  CHECK-NEXT: ^bb3(%1: f32):  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb6(%1 : f32)
//  CHECK-NEXT: ^bb4(%2: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.e"(%2) : (f32) -> ()
//  CHECK-NEXT: ^bb5(%3: f32):  // 3 preds: ^bb0, ^bb1, ^bb2
//  CHECK-NEXT:   "test.t1"(%3) : (f32) -> ()
//  CHECK-NEXT: ^bb6(%4: f32):  // 3 preds: ^bb0, ^bb1, ^bb3
//  CHECK-NEXT:   "test.t2"(%4) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_pass_through(%f: i32, %a: f32, %b: f32, %c: f32) {
  "test.fork"() [^s, ^p1, ^p2, ^e, ^t1, ^t2] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^p1(%a : f32),
    10: ^p2(%b : f32),
    11: ^e(%c : f32)
  ]
^p1(%x: f32):
  cf.br ^t1(%x : f32)
^p2(%y: f32):
  cf.br ^t2(%y : f32)
^e(%z: f32):
  "test.e"(%z) : (f32) -> ()
^t1(%u: f32):
  "test.t1"(%u) : (f32) -> ()
^t2(%v: f32):
  "test.t2"(%v) : (f32) -> ()
}

// A switch on the flag of the switch that led here: through a case, the flag is
// known; through the default, the other cases' values are impossible.
// CHECK-LABEL: func.func @switch_same_flag_case(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb4, ^bb5] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.switch %arg0 : i32, [
//  CHECK-NEXT:     default: ^bb2,
//  CHECK-NEXT:     4: ^bb3
//  CHECK-NEXT:   ]
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.d"() : () -> ()
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT:   "test.in"() : () -> ()
//  CHECK-NEXT:   cf.br ^bb5(%arg2 : f32)
//  CHECK-NEXT: ^bb4(%0: f32):  // pred: ^bb0
//  CHECK-NEXT:   "test.x"(%0) : (f32) -> ()
//  CHECK-NEXT: ^bb5(%1: f32):  // 2 preds: ^bb0, ^bb3
//  CHECK-NEXT:   "test.y"(%1) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_same_flag_case(%f: i32, %a: f32, %b: f32) {
  "test.fork"() [^s, ^d, ^x, ^y] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^d,
    4: ^in
  ]
^d:
  "test.d"() : () -> ()
^in:
  "test.in"() : () -> ()
  cf.switch %f : i32, [
    default: ^x(%a : f32),
    4: ^y(%b : f32)
  ]
^x(%p: f32):
  "test.x"(%p) : (f32) -> ()
^y(%q: f32):
  "test.y"(%q) : (f32) -> ()
}

// CHECK-LABEL: func.func @switch_same_flag_default(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2, ^bb4, ^bb5, ^bb6] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.switch %arg0 : i32, [
//  CHECK-NEXT:     default: ^bb3,
//  CHECK-NEXT:     4: ^bb2
//  CHECK-NEXT:   ]
//  CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.o"() : () -> ()
//  CHECK-NEXT: ^bb3:  // pred: ^bb1
//  CHECK-NEXT:   "test.in"() : () -> ()
//  CHECK-NEXT:   cf.switch %arg0 : i32, [
//  CHECK-NEXT:     default: ^bb4(%arg1 : f32),
//  CHECK-NEXT:     5: ^bb6(%arg3 : f32)
//  CHECK-NEXT:   ]
//  CHECK-NEXT: ^bb4(%0: f32):  // 2 preds: ^bb0, ^bb3
//  CHECK-NEXT:   "test.x"(%0) : (f32) -> ()
//  CHECK-NEXT: ^bb5(%1: f32):  // pred: ^bb0
//  CHECK-NEXT:   "test.y"(%1) : (f32) -> ()
//  CHECK-NEXT: ^bb6(%2: f32):  // 2 preds: ^bb0, ^bb3
//  CHECK-NEXT:   "test.z"(%2) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_same_flag_default(%f: i32, %a: f32, %b: f32, %c: f32) {
  "test.fork"() [^s, ^o, ^x, ^y, ^z] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^in,
    4: ^o
  ]
^o:
  "test.o"() : () -> ()
^in:
  "test.in"() : () -> ()
  cf.switch %f : i32, [
    default: ^x(%a : f32),
    4: ^y(%b : f32),
    5: ^z(%c : f32)
  ]
^x(%p: f32):
  "test.x"(%p) : (f32) -> ()
^y(%q: f32):
  "test.y"(%q) : (f32) -> ()
^z(%r: f32):
  "test.z"(%r) : (f32) -> ()
}

// Two edges with the same operand: the argument is replaced first, then the case goes.
// CHECK-LABEL: func.func @switch_uniform(
//  CHECK-NEXT:   "test.fork"()[^bb1, ^bb2] : () -> ()
//  CHECK-NEXT: ^bb1:  // pred: ^bb0
//  CHECK-NEXT:   cf.br ^bb2(%arg1 : f32)
//  CHECK-NEXT: ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
//  CHECK-NEXT:   "test.x"(%0) : (f32) -> ()
//  CHECK-NEXT: }
func.func @switch_uniform(%f: i32, %a: f32) {
  "test.fork"() [^s, ^x] : () -> ()
^s:
  cf.switch %f : i32, [
    default: ^x(%a : f32),
    1: ^x(%a : f32)
  ]
^x(%p: f32):
  "test.x"(%p) : (f32) -> ()
}
