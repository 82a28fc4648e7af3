// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// ===== scf.for

func.func @for_bounds_type(%lb: index, %i: i32) {
  // expected-error @+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %i, %lb) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @for_float_bounds(%f: f32) {
  // expected-error @+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  "scf.for"(%f, %f, %f) ({
  ^bb0(%iv: f32):
    scf.yield
  }) : (f32, f32, f32) -> ()
  return
}

// -----

func.func @for_iv_type(%lb: index) {
  // expected-error @+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%iv: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_result_count(%lb: index) {
  // expected-error @+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
  %r = "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%iv: index):
    scf.yield
  }) : (index, index, index) -> f32
  return
}

// -----

func.func @for_iter_arg_count(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op different number of inits and region iter_args: 1 != 0}}
  %r = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%iv: index):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @for_yielded_count(%lb: index, %ub: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op different number of region iter_args and yielded values: 1 != 2}}
  %r = scf.for %i = %lb to %ub step %lb iter_args(%a = %x) -> (f32) {
    scf.yield %a, %a : f32, f32
  }
  return
}

// -----

func.func @for_no_induction_var(%lb: index) {
  // expected-error @+1 {{'scf.for' op expected body to have at least 1 argument(s) for the induction variable, but got 0}}
  "scf.for"(%lb, %lb, %lb) ({
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_init_type(%lb: index, %ub: index, %i: i32) {
  // expected-error @+2 {{'scf.for' op along control flow edge from parent to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  // expected-note @+1 {{region branch point}}
  %r = "scf.for"(%lb, %ub, %lb, %i) ({
  ^bb0(%iv: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, i32) -> f32
  return
}

// -----

func.func @for_yield_count(%lb: index, %ub: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.for %iv = %lb to %ub step %lb iter_args(%a = %x) -> (f32) {
    // expected-note @+1 {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @for_yield_type(%lb: index, %ub: index, %x: f32, %i: i32) {
  // expected-error @+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.for %iv = %lb to %ub step %lb iter_args(%a = %x) -> (f32) {
    // expected-note @+1 {{region branch point}}
    scf.yield %i : i32
  }
  return
}

// -----

func.func @for_terminator(%lb: index) {
  // expected-error @+2 {{'scf.for' op expects regions to end with 'scf.yield', found 'test.op'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'scf.yield'}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%iv: index):
    "test.op"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_blocks(%lb: index) {
  // expected-error @+1 {{'scf.for' op expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%iv: index):
    scf.yield
  ^bb1:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_parse_mismatch(%lb: index, %x: f32) {
  // expected-error @+1 {{custom op 'scf.for' mismatch in number of loop-carried values and defined values}}
  %r = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x, %b = %x) -> (f32) {
    scf.yield %a : f32
  }
  return
}

// ===== scf.if

// -----

func.func @if_condition_type(%x: i32) {
  // expected-error @+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%x) ({
    scf.yield
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @if_no_else(%c: i1, %x: f32) {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_yield_count(%c: i1, %x: f32) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to Operation scf.if: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    // expected-note @+1 {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @if_yield_type(%c: i1, %x: f32, %i: i32) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to Operation scf.if: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.if %c -> (f32) {
    // expected-note @+1 {{region branch point}}
    scf.yield %i : i32
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_region_args(%c: i1) {
  // expected-error @+1 {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%a: f32):
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @if_then_blocks(%c: i1) {
  // expected-error @+1 {{'scf.if' op region #0 ('thenRegion') failed to verify constraint: region with 1 blocks}}
  "scf.if"(%c) ({
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @if_else_blocks(%c: i1) {
  // expected-error @+1 {{'scf.if' op expects region #1 to have 0 or 1 blocks}}
  "scf.if"(%c) ({
    scf.yield
  }, {
    scf.yield
  ^bb1:
    scf.yield
  }) : (i1) -> ()
  return
}

// ===== scf.while

// -----

func.func @while_before_terminator(%x: f32) {
  // expected-error @+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: f32):
    // expected-note @+1 {{terminator here}}
    "scf.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @while_after_terminator(%x: f32, %c: i1) {
  // expected-error @+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: f32):
    "scf.condition"(%c, %a) : (i1, f32) -> ()
  }, {
  ^bb0(%a: f32):
    // expected-note @+1 {{terminator here}}
    "test.op"() : () -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @while_init_type(%x: f32, %c: i1) {
  // expected-error @+2 {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  // expected-note @+1 {{region branch point}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    "scf.condition"(%c, %x) : (i1, f32) -> ()
  }, {
  ^bb0(%a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @while_condition_results(%x: f32, %c: i1) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to Operation scf.while: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    // expected-note @+1 {{region branch point}}
    scf.condition(%c)
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return
}

// -----

func.func @while_after_args(%x: f32, %c: i1) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    // expected-note @+1 {{region branch point}}
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: i32):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @while_yield_type(%x: f32, %c: i1, %i: i32) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    // expected-note @+1 {{region branch point}}
    scf.yield %i : i32
  }
  return
}

// -----

func.func @while_parse_types(%x: f32, %c: i1) {
  // expected-error @+1 {{custom op 'scf.while' expected as many input types as operands (expected 1 got 2)}}
  %r = scf.while (%a = %x) : (f32, f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return
}

// -----

func.func @condition_parent(%c: i1) {
  // expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}

// ===== scf.yield

// -----

func.func @yield_parent() {
  // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// ===== scf.execute_region

// -----

func.func @execute_region_args() {
  // expected-error @+1 {{'scf.execute_region' op region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%a: f32):
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @execute_region_empty() {
  // expected-error @+1 {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// -----

func.func @execute_region_yield(%c: i1, %x: f32, %i: i32) {
  // expected-error @+1 {{'scf.execute_region' op along control flow edge from Operation scf.yield to Operation scf.execute_region: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.execute_region -> f32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %x : f32
  ^bb2:
    // expected-note @+1 {{region branch point}}
    scf.yield %i : i32
  }
  return
}

// ===== scf.index_switch

// -----

func.func @switch_case_count(%a: index) {
  // expected-error @+1 {{'scf.index_switch' op has 1 case regions but 2 case values}}
  "scf.index_switch"(%a) <{cases = array<i64: 1, 2>}> ({
    scf.yield
  }, {
    scf.yield
  }) : (index) -> ()
  return
}

// -----

func.func @switch_duplicate(%a: index) {
  // expected-error @+1 {{'scf.index_switch' op has duplicate case value: 1}}
  scf.index_switch %a
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
  }
  return
}

// -----

func.func @switch_yield_count(%a: index, %i: i32) {
  // expected-error @+1 {{'scf.index_switch' op expected each region to return 1 values, but case region #0 returns 0}}
  %r = scf.index_switch %a -> i32
  case 1 {
    // expected-note @+1 {{see yield operation here}}
    scf.yield
  }
  default {
    scf.yield %i : i32
  }
  return
}

// -----

func.func @switch_yield_type(%a: index, %i: i32, %x: f32) {
  // expected-error @+1 {{'scf.index_switch' op expected result #0 of each region to be 'i32'}}
  %r = scf.index_switch %a -> i32
  case 1 {
    scf.yield %i : i32
  }
  default {
    // expected-note @+1 {{default region returns 'f32' here}}
    scf.yield %x : f32
  }
  return
}

// -----

func.func @switch_terminator(%a: index) {
  // expected-error @+1 {{'scf.index_switch' op expected region to end with scf.yield, but got test.op}}
  "scf.index_switch"(%a) <{cases = array<i64>}> ({
    "test.op"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @switch_arg_type(%i: i32) {
  // expected-error @+1 {{'scf.index_switch' op operand #0 must be index, but got 'i32'}}
  "scf.index_switch"(%i) <{cases = array<i64>}> ({
    scf.yield
  }) : (i32) -> ()
  return
}

// -----

func.func @switch_empty_case(%a: index) {
  // A case region is not given an implicit terminator.
  // expected-error @+1 {{'scf.index_switch' op region #1 ('caseRegions') failed to verify constraint: region with 1 blocks}}
  scf.index_switch %a
  case 2 {
  }
  default {
  }
  return
}

// ===== scf.parallel

// -----

func.func @parallel_no_bounds() {
  // expected-error @+1 {{'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step}}
  "scf.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
    scf.reduce
  }) : () -> ()
  return
}

// -----

func.func @parallel_step(%a: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%a) to (%a) step (%c0) {
  }
  return
}

// -----

func.func @parallel_iv_count(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects the same number of induction variables: 2 as bound and step values: 1}}
  "scf.parallel"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index, %j: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @parallel_iv_type(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects arguments for the induction variable to be of index type}}
  "scf.parallel"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: i32):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @parallel_terminator(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  "scf.parallel"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    // expected-note @+1 {{terminator here}}
    "test.op"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @parallel_reductions(%a: index, %x: f32) {
  // expected-error @+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    scf.reduce
  }
  return
}

// -----

func.func @parallel_inits(%a: index, %x: f32) {
  // expected-error @+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of initial values: 0}}
  %r = "scf.parallel"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    }
  }) : (index, index, index) -> f32
  return
}

// -----

func.func @parallel_reduction_type(%a: index, %x: f32, %y: i32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'i32' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%y : i32) {
    ^bb0(%l: i32, %rr: i32):
      scf.reduce.return %l : i32
    }
  }
  return
}

// ===== scf.reduce

// -----

func.func @reduce_block_args(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @reduce_empty_body(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{empty block: expect at least a terminator}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
    }
  }
  return
}

// -----

func.func @reduce_terminator(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      "test.op"() : () -> ()
    }
  }
  return
}

// -----

func.func @reduce_blocks(%a: index, %x: f32) {
  %r:2 = "scf.parallel"(%a, %a, %a, %x, %x) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
  ^bb0(%i: index):
    // expected-error @+1 {{'scf.reduce' op region #1 ('reductions') failed to verify constraint: region with 1 blocks}}
    "scf.reduce"(%x, %x) ({
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    ^bb1:
      scf.reduce.return %x : f32
    }) : (f32, f32) -> ()
  }) : (index, index, index, f32, f32) -> (f32, f32)
  return
}

// -----

func.func @reduce_parent(%x: f32) {
  // expected-error @+1 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  scf.reduce(%x : f32) {
  ^bb0(%l: f32, %r: f32):
    scf.reduce.return %l : f32
  }
}

// -----

func.func @reduce_return_type(%a: index, %x: f32, %y: i32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      // expected-error @+1 {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %y : i32
    }
  }
  return
}

// -----

func.func @reduce_return_parent(%x: f32) {
  // expected-error @+1 {{'scf.reduce.return' op expects parent op 'scf.reduce'}}
  scf.reduce.return %x : f32
}

// ===== scf.forall

// -----

func.func @forall_results() {
  // expected-error @+1 {{'scf.forall' op produces 1 results, but has only 0 outputs}}
  %r = "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {}
  }) : () -> tensor<4xf32>
  return
}

// -----

func.func @forall_block_args() {
  // expected-error @+1 {{'scf.forall' op region expects 1 arguments}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index, %j: index):
    scf.forall.in_parallel {}
  }) : () -> ()
  return
}

// -----

func.func @forall_iv_type() {
  // expected-error @+1 {{'scf.forall' op expects 0-th block argument to be an index}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: i32):
    scf.forall.in_parallel {}
  }) : () -> ()
  return
}

// -----

func.func @forall_output_type(%t: tensor<4xf32>) {
  // expected-error @+1 {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index, %o: tensor<5xf32>):
    scf.forall.in_parallel {}
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @forall_output_kind(%x: f32) {
  // expected-error @+1 {{'scf.forall' op operand #0 must be variadic of ranked tensor of any non-token type values, but got 'f32'}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %x) -> (f32) {
  }
  return
}

// -----

func.func @forall_mapping_size() {
  // expected-error @+1 {{'scf.forall' op mapping attribute size must match op rank}}
  scf.forall (%i, %j) in (4, 4) {
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

func.func @forall_mapping_kind() {
  // expected-error @+1 {{'scf.forall' op attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute}}
  scf.forall (%i) in (4) {
  } {mapping = [1 : i32]}
  return
}

// -----

func.func @forall_static_count() {
  // expected-error @+1 {{expected 1 upper bound values, got 2}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4, 4>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {}
  }) : () -> ()
  return
}

// -----

func.func @forall_dynamic_count(%a: index) {
  // expected-error @+1 {{expected 1 dynamic upper bound values}}
  "scf.forall"(%a, %a) <{operandSegmentSizes = array<i32: 0, 2, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {}
  }) : (index, index) -> ()
  return
}

// -----

func.func @forall_terminator() {
  // expected-error @+2 {{'scf.forall' op expects regions to end with 'scf.forall.in_parallel', found 'test.op'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'scf.forall.in_parallel'}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index):
    "test.op"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @in_parallel_parent() {
  // expected-error @+1 {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
  scf.forall.in_parallel {}
  return
}

// -----

func.func @in_parallel_ops(%t: tensor<4xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    // expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      "test.op"() : () -> ()
    }
  }
  return
}

// -----

// A thread's part goes into one of the loop's own shared outputs, never into a tensor
// from outside the loop (whose update would be lost).
func.func @forall_insert_into_outside_tensor(%src: tensor<8xf32>, %dst: tensor<8xf32>) {
  %c4 = arith.constant 4 : index
  %r = scf.forall (%t) in (%c4) shared_outs(%acc = %dst) -> (tensor<8xf32>) {
    %piece = tensor.extract_slice %src[%t] [2] [1] : tensor<8xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      // expected-error @+1 {{'tensor.parallel_insert_slice' op may only insert into an output block argument}}
      tensor.parallel_insert_slice %piece into %src[%t] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return
}

// -----

// A device masking attribute (#gpu.mask) takes no loop dimension of its own.
func.func @forall_one_mask(%out: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %r = scf.forall (%i) in (%n) shared_outs(%o = %out) -> (tensor<8xf32>) {
  } {mapping = [#gpu.thread<x>, #gpu.mask<3>]}
  return %r : tensor<8xf32>
}

// -----

func.func @forall_two_masks(%out: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  // expected-error @+1 {{'scf.forall' op "mapping" supports at most one device masking attribute}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %out) -> (tensor<8xf32>) {
  } {mapping = [#gpu.mask<0x1>, #gpu.thread<x>, #gpu.mask<0x2>]}
  return %r : tensor<8xf32>
}

// -----

func.func @forall_masks_only(%out: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  // expected-error @+1 {{'scf.forall' op mapping attribute size must match op rank}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %out) -> (tensor<8xf32>) {
  } {mapping = [#gpu.mask<0x1>, #gpu.mask<0x2>]}
  return %r : tensor<8xf32>
}
