"""Differential test of `canonicalize` against upstream: `iree-opt --canonicalize`.

Each case of CORPUS is canonicalized by both tools (with the same options); Strata's
output is then printed again by iree-opt, so that the comparison sees the IR, not the
printers (and Strata's output must be valid for upstream). The two texts must be
identical: the same ops, in the same order, with the same constants hoisted in the
same order. Cases that cannot match yet are listed in KNOWN_DIFFERENCES with the reason
(they run as strict xfails, so one that starts passing shows up).

iree-opt missing: every case is skipped with a message.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

IREE = shutil.which("iree-opt")

# name -> (options of --canonicalize, input)
CORPUS: dict[str, tuple[str, str]] = {}


def case(name, text, options=""):
    CORPUS[name] = (options, text)


# ---------------------------------------------------------------- constant folding

case("fold_int_chain", """
func.func @f() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %c1 : i32
  %3 = arith.divsi %2, %c2 : i32
  return %3 : i32
}
""")

case("fold_identities", """
func.func @f(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %x, %c1 : i32
  %2 = arith.muli %x, %c0 : i32
  %3 = arith.subi %x, %x : i32
  %4 = arith.divui %x, %c1 : i32
  %5 = arith.ori %x, %c0 : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}
""")

case("fold_bitwise", """
func.func @f(%x: i8) -> (i8, i8, i8, i8, i8) {
  %m1 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  %0 = arith.andi %x, %x : i8
  %1 = arith.andi %x, %m1 : i8
  %2 = arith.xori %x, %x : i8
  %3 = arith.ori %x, %m1 : i8
  %4 = arith.shli %x, %c0 : i8
  return %0, %1, %2, %3, %4 : i8, i8, i8, i8, i8
}
""")

case("fold_overflow_wraps", """
func.func @f() -> (i8, i8, i8) {
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %m = arith.constant -128 : i8
  %0 = arith.addi %a, %b : i8
  %1 = arith.muli %a, %a : i8
  %2 = arith.subi %m, %b : i8
  return %0, %1, %2 : i8, i8, i8
}
""")

case("fold_div_rem", """
func.func @f() -> (i32, i32, i32, i32, i32, i32) {
  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %0 = arith.divsi %a, %b : i32
  %1 = arith.remsi %a, %b : i32
  %2 = arith.ceildivsi %a, %b : i32
  %3 = arith.floordivsi %a, %b : i32
  %4 = arith.divui %a, %b : i32
  %5 = arith.remui %a, %b : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}
""")

case("fold_div_by_zero_kept", """
func.func @f(%x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.divsi %c5, %c0 : i32
  %1 = arith.remui %x, %c0 : i32
  return %0, %1 : i32, i32
}
""")

case("fold_cmpi", """
func.func @f(%x: i32) -> (i1, i1, i1, i1, i1) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.cmpi eq, %x, %x : i32
  %1 = arith.cmpi slt, %x, %x : i32
  %2 = arith.cmpi ult, %c3, %c4 : i32
  %3 = arith.cmpi sge, %c3, %c4 : i32
  %4 = arith.cmpi ne, %c3, %c3 : i32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}
""")

case("fold_select", """
func.func @f(%a: i32, %b: i32, %c: i1) -> (i32, i32, i32) {
  %t = arith.constant true
  %false = arith.constant false
  %0 = arith.select %t, %a, %b : i32
  %1 = arith.select %false, %a, %b : i32
  %2 = arith.select %c, %a, %a : i32
  return %0, %1, %2 : i32, i32, i32
}
""")

case("fold_casts", """
func.func @f() -> (i64, i64, i8, index, i32, f32) {
  %a = arith.constant -3 : i32
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.extui %a : i32 to i64
  %2 = arith.trunci %a : i32 to i8
  %3 = arith.index_cast %a : i32 to index
  %4 = arith.index_cast %3 : index to i32
  %5 = arith.sitofp %a : i32 to f32
  return %0, %1, %2, %3, %4, %5 : i64, i64, i8, index, i32, f32
}
""")

case("fold_float", """
func.func @f(%x: f32) -> (f32, f32, f32, f32, f32) {
  %m0 = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.25 : f32
  %0 = arith.addf %x, %m0 : f32
  %1 = arith.mulf %x, %one : f32
  %2 = arith.addf %a, %b : f32
  %3 = arith.mulf %a, %b : f32
  %4 = arith.divf %x, %one : f32
  return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}
""")

case("fold_float_cmp_minmax", """
func.func @f() -> (i1, f32, f32, f64) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -2.0 : f32
  %0 = arith.cmpf olt, %a, %b : f32
  %1 = arith.maximumf %a, %b : f32
  %2 = arith.minimumf %a, %b : f32
  %3 = arith.extf %a : f32 to f64
  return %0, %1, %2, %3 : i1, f32, f32, f64
}
""")

case("fold_minmax_int", """
func.func @f(%x: i32) -> (i32, i32, i32, i32) {
  %a = arith.constant 5 : i32
  %b = arith.constant -9 : i32
  %0 = arith.maxsi %a, %b : i32
  %1 = arith.minui %a, %b : i32
  %2 = arith.maxsi %x, %x : i32
  %3 = arith.minsi %a, %b : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}
""")

case("fold_tensor_splats", """
func.func @f() -> (tensor<4xi32>, tensor<2x2xf32>) {
  %a = arith.constant dense<3> : tensor<4xi32>
  %b = arith.constant dense<4> : tensor<4xi32>
  %0 = arith.addi %a, %b : tensor<4xi32>
  %1 = arith.muli %0, %a : tensor<4xi32>
  %c = arith.constant dense<1.5> : tensor<2x2xf32>
  %2 = arith.addf %c, %c : tensor<2x2xf32>
  return %1, %2 : tensor<4xi32>, tensor<2x2xf32>
}
""")

case("fold_vector_elementwise", """
func.func @f() -> vector<3xi16> {
  %a = arith.constant dense<[1, 2, 3]> : vector<3xi16>
  %b = arith.constant dense<[10, 20, 30]> : vector<3xi16>
  %0 = arith.addi %a, %b : vector<3xi16>
  %1 = arith.subi %0, %a : vector<3xi16>
  return %1 : vector<3xi16>
}
""")

case("fold_extended_multi_result", """
func.func @f() -> (i8, i1, i8, i8) {
  %a = arith.constant 200 : i8
  %b = arith.constant 100 : i8
  %sum, %ovf = arith.addui_extended %a, %b : i8, i1
  %lo, %hi = arith.mului_extended %a, %b : i8
  return %sum, %ovf, %lo, %hi : i8, i1, i8, i8
}
""")

case("fold_math", """
func.func @f(%x: f32) -> (f32, f32, f32) {
  %a = arith.constant 4.0 : f32
  %0 = math.sqrt %a : f32
  %1 = math.absf %a : f32
  %2 = math.absf %x : f32
  %3 = math.absf %2 : f32
  return %0, %1, %3 : f32, f32, f32
}
""")

case("commutative_constant_moves_right", """
func.func @f(%x: i32, %y: f32) -> (i32, f32, i32) {
  %c7 = arith.constant 7 : i32
  %f = arith.constant 2.0 : f32
  %0 = arith.addi %c7, %x : i32
  %1 = arith.mulf %f, %y : f32
  %2 = arith.andi %c7, %x : i32
  return %0, %1, %2 : i32, f32, i32
}
""")

# ---------------------------------------------------------------- the driver

case("constant_uniquing_and_order", """
func.func @f(%x: i32) -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %1 = arith.muli %0, %c2 : i32
  %c1b = arith.constant 1 : i32
  %2 = arith.subi %1, %c1b : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %3 = arith.addi %c5, %c6 : i32
  return %2, %3, %c2 : i32, i32, i32
}
""")

case("constants_per_function", """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  return %0 : i32
}
func.func @g(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.muli %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %1 = arith.addi %0, %c2 : i32
  return %1 : i32
}
""")

case("dead_code_chains", """
func.func @f(%x: i32, %y: f32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %x, %c3 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.sitofp %1 : i32 to f32
  %3 = arith.addf %2, %y : f32
  %4 = arith.xori %x, %c3 : i32
  return %4 : i32
}
""")

case("side_effects_kept", """
func.func private @effect(i32) -> i32
func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = func.call @effect(%x) : (i32) -> i32
  %1 = func.call @effect(%c0) : (i32) -> i32
  %2 = arith.addi %0, %c0 : i32
  return %2 : i32
}
""")

case("bottom_up_order", """
func.func @f(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %1 = arith.addi %c2, %c3 : i32
  %2 = arith.muli %0, %1 : i32
  %c4 = arith.constant 4 : i32
  return %2, %c4 : i32, i32
}
""", "top-down=false")

case("constants_hoisted_out_of_scf", """
func.func @f(%c: i1, %x: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    %c7 = arith.constant 7 : i32
    %1 = arith.addi %x, %c7 : i32
    scf.yield %1 : i32
  } else {
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %2 = arith.muli %x, %c8 : i32
    %3 = arith.addi %2, %c7 : i32
    scf.yield %3 : i32
  }
  return %0 : i32
}
""")

case("scf_for_body_folds", """
func.func @f(%n: index, %init: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {
    %z = arith.constant 0 : i32
    %a = arith.addi %acc, %z : i32
    %d = arith.muli %a, %a : i32
    scf.yield %a : i32
  }
  return %r : i32
}
""")

case("scf_if_constant_condition", """
func.func @f(%x: i32) -> i32 {
  %t = arith.constant true
  %0 = scf.if %t -> (i32) {
    scf.yield %x : i32
  } else {
    %c1 = arith.constant 1 : i32
    scf.yield %c1 : i32
  }
  return %0 : i32
}
""")

case("hoist_from_nested_regions", """
func.func @f(%c: i1, %n: index, %x: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %s = arith.addi %c3, %c4 : i32
      %a = arith.addi %acc, %s : i32
      scf.yield %a : i32
    }
    scf.yield %r : i32
  } else {
    %c9 = arith.constant 9 : i32
    scf.yield %c9 : i32
  }
  return %0 : i32
}
""")

case("bottom_up_nested", """
func.func @f(%c: i1, %x: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %0 = scf.if %c -> (i32) {
    %c2 = arith.constant 2 : i32
    %1 = arith.muli %x, %c2 : i32
    %2 = arith.addi %1, %c5 : i32
    scf.yield %2 : i32
  } else {
    %c2 = arith.constant 2 : i32
    scf.yield %c2 : i32
  }
  return %0 : i32
}
""", "top-down=false")

case("max_num_rewrites_zero", """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c1b = arith.constant 1 : i32
  %1 = arith.addi %c1, %c1b : i32
  %2 = arith.muli %0, %1 : i32
  %dead = arith.subi %x, %x : i32
  return %2 : i32
}
""", "max-num-rewrites=0")

case("module_level_constants", """
%k = arith.constant 4 : i32
%k2 = arith.constant 4 : i32
func.func @f(%x: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %x, %c4 : i32
  return %0 : i32
}
""")

case("scf_for_zero_trip_and_single_trip", """
func.func @f(%x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r0 = scf.for %i = %c4 to %c4 step %c1 iter_args(%a = %x) -> (i32) {
    %y = arith.addi %a, %a : i32
    scf.yield %y : i32
  }
  %r1 = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (i32) {
    %y = arith.muli %a, %a : i32
    scf.yield %y : i32
  }
  return %r0, %r1 : i32, i32
}
""")

case("scf_if_same_and_unused_results", """
func.func @f(%c: i1, %x: i32, %y: i32) -> i32 {
  %0, %1 = scf.if %c -> (i32, i32) {
    %a = arith.addi %x, %y : i32
    scf.yield %x, %a : i32, i32
  } else {
    %b = arith.muli %x, %y : i32
    scf.yield %x, %b : i32, i32
  }
  return %0 : i32
}
""")

case("scf_nested_constant_conditions", """
func.func @f(%x: i32) -> i32 {
  %t = arith.constant true
  %c5 = arith.constant 5 : i32
  %0 = scf.if %t -> (i32) {
    %cond = arith.cmpi slt, %c5, %x : i32
    %1 = scf.if %cond -> (i32) {
      %2 = arith.addi %x, %c5 : i32
      scf.yield %2 : i32
    } else {
      scf.yield %x : i32
    }
    scf.yield %1 : i32
  } else {
    scf.yield %c5 : i32
  }
  return %0 : i32
}
""")

case("scf_execute_region_and_while", """
func.func @f(%x: i32, %n: i32) -> (i32, i32) {
  %0 = scf.execute_region -> i32 {
    %a = arith.addi %x, %x : i32
    scf.yield %a : i32
  }
  %1 = scf.while (%i = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%j: i32):
    %c1 = arith.constant 1 : i32
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  return %0, %1 : i32, i32
}
""")

case("cf_switch_and_same_destinations", """
func.func @f(%c: i1, %x: i32, %y: i32) -> i32 {
  %c7 = arith.constant 7 : i32
  cf.switch %c7 : i32, [
    default: ^bb1(%x : i32),
    7: ^bb2
  ]
^bb1(%a: i32):
  return %a : i32
^bb2:
  cf.cond_br %c, ^bb3(%x : i32), ^bb3(%x : i32)
^bb3(%b: i32):
  return %b : i32
}
""")

# ---------------------------------------------------------------- regions

# Region simplification on its own: no dialect pattern may fire (upstream's cf patterns
# would fold most of these branches first), folding still does.
NO_PATTERNS = "enable-patterns=no-such-pattern"

case("unreachable_blocks", """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  return %x : i32
^bb1:
  %0 = arith.addi %x, %c1 : i32
  cf.br ^bb2(%0 : i32)
^bb2(%a: i32):
  return %a : i32
}
""")

case("unreachable_self_use", """
func.func @f(%x: i32) -> i32 {
  return %x : i32
^bb1:
  %0 = arith.addi %0, %0 : i32
  cf.br ^bb1
}
""")

case("dead_block_arguments", """
func.func @f(%c: i1, %x: i32, %y: f32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, f32), ^bb2(%x : i32)
^bb1(%a: i32, %b: f32):
  %0 = arith.addf %b, %b : f32
  cf.br ^bb3(%a, %0 : i32, f32)
^bb2(%d: i32):
  cf.br ^bb3(%d, %y : i32, f32)
^bb3(%r: i32, %unused: f32):
  return %r : i32
}
""", NO_PATTERNS)

case("dead_loop_carried_value", """
func.func @f(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  cf.br ^loop(%c0, %f : i32, f32)
^loop(%i: i32, %acc: f32):
  %next = arith.addf %acc, %acc : f32
  %i1 = arith.addi %i, %c1 : i32
  %done = arith.cmpi sge, %i1, %n : i32
  cf.cond_br %done, ^exit, ^loop(%i1, %next : i32, f32)
^exit:
  return %i1 : i32
}
""", NO_PATTERNS)

case("region_simplify_disabled", """
func.func @f(%c: i1, %x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%x : i32)
^bb1(%a: i32):
  %0 = arith.addi %a, %c0 : i32
  cf.br ^bb3(%0 : i32)
^bb2(%b: i32):
  cf.br ^bb3(%b : i32)
^bb3(%r: i32):
  return %r : i32
}
""", "region-simplify=disabled " + NO_PATTERNS)

case("aggressive_block_merging", """
func.func @f(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = arith.muli %x, %x : i32
  cf.br ^bb3(%0 : i32)
^bb2:
  %1 = arith.muli %y, %y : i32
  cf.br ^bb3(%1 : i32)
^bb3(%r: i32):
  return %r : i32
}
""", "region-simplify=aggressive " + NO_PATTERNS)

case("aggressive_redundant_arguments", """
func.func @f(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb1(%a: i32, %b: i32):
  cf.br ^bb3(%a, %b : i32, i32)
^bb2:
  cf.br ^bb3(%x, %x : i32, i32)
^bb3(%p: i32, %q: i32):
  %0 = arith.addi %p, %q : i32
  return %0 : i32
}
""", "region-simplify=aggressive " + NO_PATTERNS)

case("cf_constant_branch", """
func.func @f(%x: i32) -> i32 {
  %t = arith.constant true
  cf.cond_br %t, ^bb1, ^bb2
^bb1:
  return %x : i32
^bb2:
  %c1 = arith.constant 1 : i32
  return %c1 : i32
}
""")

case("cf_full_patterns", """
func.func @f(%c: i1, %x: i32, %y: f32) -> i32 {
  %c0 = arith.constant 0 : i32
  cf.cond_br %c, ^bb1(%x, %y : i32, f32), ^bb2(%x : i32)
^bb1(%a: i32, %b: f32):
  %0 = arith.addi %a, %c0 : i32
  cf.br ^bb3(%0, %b : i32, f32)
^bb2(%d: i32):
  cf.br ^bb3(%d, %y : i32, f32)
^bb3(%r: i32, %unused: f32):
  return %r : i32
}
""")

case("cf_loop_with_patterns", """
func.func @f(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %i1 = arith.addi %i, %c1 : i32
  %done = arith.cmpi sge, %i1, %n : i32
  cf.cond_br %done, ^exit(%i1 : i32), ^loop(%i1 : i32)
^exit(%r: i32):
  return %r : i32
}
""", "region-simplify=aggressive")

case("cse_between_iterations", """
func.func @f(%x: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %a = arith.muli %x, %c3 : i32
  %b = arith.muli %x, %c3 : i32
  %d = arith.subi %a, %b : i32
  %e = arith.addi %d, %x : i32
  return %e : i32
}
""", "cse-between-iterations=true")

case("max_iterations_one", """
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.muli %x, %0 : i32
  return %1 : i32
}
""", "max-iterations=1")


# Cases that cannot match upstream yet, with the reason. Keep this list short: each
# entry is a gap (usually a missing canonicalization pattern in a dialect).
KNOWN_DIFFERENCES: dict[str, str] = {
}


def _run(cmd, text):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def _canon_flag(options):
    return "--canonicalize" + (f"={options}" if options else "")


def _strata(options, text):
    """strata-opt --canonicalize, in-process: (exit code, stdout, stderr)."""
    import contextlib
    import io
    import os
    import tempfile
    from strata.tools.opt import main
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([f.name, _canon_flag(options)])
    finally:
        os.unlink(f.name)
    return rc, out.getvalue(), err.getvalue()


SPLIT = "// -----"


def _iree_batch(options, texts):
    """iree-opt on many inputs in one run (starting it costs about a second):
    [(ok, output)] per input."""
    rc, out, err = _run([IREE, "--split-input-file"] + ([_canon_flag(options)]
                        if options is not None else []),
                        ("\n" + SPLIT + "\n").join(texts))
    pieces = out.split(SPLIT + "\n")
    if len(pieces) != len(texts):  # a chunk failed: fall back to one run per input
        return [_iree_one(options, t) for t in texts]
    return [(True, p.strip() + "\n") for p in pieces]


def _iree_one(options, text):
    rc, out, err = _run([IREE] + ([_canon_flag(options)] if options is not None else []),
                        text)
    return (rc == 0, out.strip() + "\n" if rc == 0 else err)


@functools.lru_cache(maxsize=None)
def _results():
    """name -> (iree-opt's result, Strata's result, Strata's result through iree-opt);
    each (ok, text). iree-opt runs batched per option set, Strata in-process."""
    names = list(CORPUS)
    groups: dict = {}
    for n in names:
        groups.setdefault(CORPUS[n][0], []).append(n)
    expected = {}
    with ThreadPoolExecutor(max_workers=4) as ex:
        for opts, outs in zip(groups, ex.map(
                lambda o: _iree_batch(o, [CORPUS[n][1] for n in groups[o]]), groups)):
            expected.update(zip(groups[opts], outs))
    ours = {}
    for n in names:
        rc, out, err = _strata(*CORPUS[n])
        ours[n] = (rc == 0, out.strip() + "\n" if rc == 0 else err)
    good = [n for n in names if ours[n][0]]
    normalized = dict(zip(good, _iree_batch(None, [ours[n][1] for n in good])))
    return {n: (expected[n], ours[n], normalized.get(n, ours[n])) for n in names}


@pytest.mark.skipif(IREE is None, reason="iree-opt is not installed (pip install "
                    "iree-base-compiler): canonicalize is not compared with upstream")
@pytest.mark.parametrize("name", list(CORPUS))
def test_canonicalize_matches_upstream(name, request):
    if name in KNOWN_DIFFERENCES:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=True))
    (ok, expected), (ok2, ours), (ok3, normalized) = _results()[name]
    assert ok, f"iree-opt failed on the input:\n{expected}"
    assert ok2, f"strata-opt failed:\n{ours}"
    assert ok3, f"iree-opt rejects Strata's output:\n{normalized}\n--- Strata printed:\n{ours}"
    assert normalized == expected, (f"--- iree-opt:\n{expected}\n--- strata (normalized "
                                    f"by iree-opt):\n{normalized}")
    # Strata prints its result as upstream does, too.
    assert ours == expected


def test_known_differences_are_cases():
    assert not set(KNOWN_DIFFERENCES) - set(CORPUS)


def test_corpus_size():
    assert len(CORPUS) >= 30
