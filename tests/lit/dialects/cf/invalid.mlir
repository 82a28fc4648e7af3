// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @br_operand_count(%a: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #0, but target block has 0}}
  cf.br ^bb1(%a : i32)
^bb1:
  return
}

// -----

func.func @br_operand_type(%a: i32) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #0}}
  cf.br ^bb1(%a : i32)
^bb1(%x: f32):
  return
}

// -----

func.func @cond_br_operand_count(%c: i1, %a: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #1, but target block has 0}}
  cf.cond_br %c, ^bb1, ^bb1(%a : i32)
^bb1:
  return
}

// -----

func.func @cond_br_operand_type(%c: i1, %a: i32) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #0}}
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i64):
  return
^bb2:
  return
}

// -----

func.func @cond_br_condition_type(%c: i32) {
  // expected-error @+1 {{'cf.cond_br' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.cond_br"(%c)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @cond_br_segments(%c: i1, %a: i32) {
  // expected-error @+1 {{'cf.cond_br' op operand count (2) does not match with the total size (1) specified in attribute 'operandSegmentSizes'}}
  "cf.cond_br"(%c, %a)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1, i32) -> ()
^bb1:
  return
}

// -----

func.func @cond_br_weight_count(%c: i1) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  cf.cond_br %c weights([1, 2, 3]), ^bb1, ^bb1
^bb1:
  return
}

// -----

func.func @cond_br_zero_weights(%c: i1) {
  // expected-error @+1 {{branch weights cannot all be zero}}
  cf.cond_br %c weights([0, 0]), ^bb1, ^bb1
^bb1:
  return
}

// -----

func.func @assert_condition_type(%a: i32) {
  // expected-error @+1 {{'cf.assert' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.assert"(%a) <{msg = "x"}> : (i32) -> ()
  return
}

// -----

func.func @switch_case_value_type(%a: i32) {
  // expected-error @+1 {{'cf.switch' op 'flag' type ('i32') should match case value type ('i64')}}
  "cf.switch"(%a)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[42]> : vector<1xi64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_case_count(%a: i32) {
  // expected-error @+1 {{'cf.switch' op number of case values (2) should match number of case destinations (1)}}
  "cf.switch"(%a)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0, 0>, case_values = dense<[42, 43]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_case_operands(%a: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #1, but target block has 0}}
  cf.switch %a : i32, [
    default: ^bb1,
    42: ^bb1(%a : i32)
  ]
^bb1:
  return
}

// -----

func.func @switch_case_operand_segments(%a: i32) {
  // expected-error @+1 {{'cf.switch' op caseOperands count (1) does not match with the total size (0) specified in attribute 'case_operand_segments'}}
  "cf.switch"(%a, %a)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<42> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_flag_type(%a: index) {
  // expected-error @+1 {{custom op 'cf.switch' invalid kind of type specified: expected builtin.integer, but found 'index'}}
  cf.switch %a : index, [
    default: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_flag_generic(%a: f32) {
  // expected-error @+1 {{'cf.switch' op operand #0 must be signless integer, but got 'f32'}}
  "cf.switch"(%a)[^bb1] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (f32) -> ()
^bb1:
  return
}

// -----

func.func @br_not_last(%a: i32) {
  // expected-error @+1 {{operation with block successors must terminate its parent block}}
  "cf.br"()[^bb1] : () -> ()
  return
^bb1:
  return
}

// -----

// Case values beyond both readings of the flag's width are refused where they are written.
func.func @switch_case_past_unsigned_max(%f: i16) {
  cf.switch %f : i16, [
    default: ^bb1,
    // expected-error @+1 {{custom op 'cf.switch' case value is out of range for 'i16'}}
    65536: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_case_below_signed_min(%f: i1) {
  cf.switch %f : i1, [
    default: ^bb1,
    0: ^bb1,
    // expected-error @+1 {{case value is out of range for 'i1'}}
    -2: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_case_wide(%f: i64) {
  cf.switch %f : i64, [
    default: ^bb1,
    // expected-error @+1 {{case value is out of range for 'i64'}}
    -9223372036854775809: ^bb1
  ]
^bb1:
  return
}
