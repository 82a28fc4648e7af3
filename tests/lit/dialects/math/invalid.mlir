// RUN: strata-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the math ops; the messages are upstream's.

func.func @float_operand(%a: i32) {
  // expected-error @+1 {{'math.sin' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.sin"(%a) : (i32) -> i32
  return
}

// -----

func.func @integer_operand(%a: f32) {
  // expected-error @+1 {{'math.ctlz' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "math.ctlz"(%a) : (f32) -> f32
  return
}

// -----

func.func @same_type(%a: f32, %b: f64) {
  // expected-error @+1 {{'math.atan2' op requires the same type for all operands and results}}
  %0 = "math.atan2"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @same_type_integer(%a: i32) {
  // expected-error @+1 {{'math.ipowi' op requires the same type for all operands and results}}
  %0 = "math.ipowi"(%a, %a) : (i32, i32) -> i64
  return
}

// -----

func.func @elementwise(%a: vector<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'math.ipowi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "math.ipowi"(%a, %b) : (vector<4xi32>, tensor<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @fastmath_attr(%a: f32) {
  // expected-error @+1 {{'math.exp' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "math.exp"(%a) {fastmath = unit} : (f32) -> f32
  return
}

// -----

func.func @inherent_attr_in_attr_dict(%a: f32) {
  // expected-error @+1 {{custom op 'math.absf' inherent attribute 'fastmath' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = math.absf %a {fastmath = #arith.fastmath<fast>} : f32
  return
}

// -----

func.func @classification_bool_like(%a: f32) {
  // expected-error @+1 {{'math.isnan' op result #0 must be bool-like, but got 'f32'}}
  %0 = "math.isnan"(%a) : (f32) -> f32
  return
}

// -----

func.func @classification_shape(%a: vector<4xf32>) {
  // expected-error @+1 {{'math.isinf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isinf"(%a) : (vector<4xf32>) -> vector<3xi1>
  return
}

// -----

func.func @sincos_same_type(%a: f32) {
  // expected-error @+1 {{'math.sincos' op requires the same type for all operands and results}}
  %0:2 = "math.sincos"(%a) : (f32) -> (f32, f64)
  return
}

// -----

func.func @fpowi_types_match(%a: f32, %b: i32) {
  // expected-error @+1 {{'math.fpowi' op failed to verify that all of {lhs, result} have same type}}
  %0 = "math.fpowi"(%a, %b) : (f32, i32) -> f64
  return
}

// -----

func.func @fpowi_shape(%a: vector<4xf32>, %b: i32) {
  // expected-error @+1 {{'math.fpowi' op requires the same shape for all operands and results}}
  %0 = "math.fpowi"(%a, %b) : (vector<4xf32>, i32) -> vector<4xf32>
  return
}

// -----

func.func @fpowi_power(%a: f32) {
  // expected-error @+1 {{'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'}}
  %0 = "math.fpowi"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @clampf_result(%a: f32) {
  // expected-error @+1 {{'math.clampf' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.clampf"(%a, %a, %a) : (f32, f32, f32) -> i32
  return
}

// -----

func.func @fma_operands(%a: f32) {
  // expected-error @+1 {{'math.fma' op expected 3 operands, but found 2}}
  %0 = "math.fma"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @fma_unknown_rounding(%x: f32) {
  // expected-error @+1 {{expected ':'}}
  %0 = math.fma %x, %x, %x sideways : f32
  return
}
