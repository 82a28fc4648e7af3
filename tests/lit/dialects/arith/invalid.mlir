// RUN: strata-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the arith ops; the messages are upstream's.

func.func @operand_constraint(%a: f32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-non-zero-bitwidth-integer-like, but got 'f32'}}
  %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @float_operand_constraint(%a: i32) {
  // expected-error @+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @same_operands_and_result_type(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}

// -----

func.func @elementwise_base_type(%a: vector<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'arith.addf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.addf"(%a, %b) : (vector<2xf32>, tensor<2xf32>) -> vector<2xf32>
  return
}

// -----

func.func @elementwise_unranked(%a: tensor<*xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'arith.addi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.addi"(%a, %b) : (tensor<*xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @overflow_flags_attr(%a: i32) {
  // expected-error @+1 {{'arith.addi' op attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  %0 = "arith.addi"(%a, %a) {overflowFlags = 1 : i32} : (i32, i32) -> i32
  return
}

// -----

func.func @exact_attr(%a: i32) {
  // expected-error @+1 {{'arith.divsi' op attribute 'isExact' failed to satisfy constraint: unit attribute}}
  %0 = "arith.divsi"(%a, %a) {isExact = true} : (i32, i32) -> i32
  return
}

// -----

func.func @nneg_attr(%a: i32) {
  // expected-error @+1 {{'arith.extui' op attribute 'nonNeg' failed to satisfy constraint: unit attribute}}
  %0 = "arith.extui"(%a) {nonNeg = 1 : i32} : (i32) -> i64
  return
}

// -----

func.func @fastmath_attr(%a: f32) {
  // expected-error @+1 {{'arith.addf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.addf"(%a, %a) {fastmath = 1 : i32} : (f32, f32) -> f32
  return
}

// -----

func.func @rounding_mode_attr(%a: f32) {
  // expected-error @+1 {{'arith.truncf' op attribute 'roundingmode' failed to satisfy constraint: Floating point rounding mode}}
  %0 = "arith.truncf"(%a) {roundingmode = 9 : i32} : (f32) -> f16
  return
}

// -----

func.func @inherent_attr_in_attr_dict(%a: i32) {
  // expected-error @+1 {{custom op 'arith.addi' inherent attribute 'overflowFlags' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = arith.addi %a, %a {overflowFlags = #arith.overflow<nsw>} : i32
  return
}

// -----

func.func @unknown_attr() attributes {
  // expected-error @+1 {{unknown attribute `roundingmode` in dialect `arith`}}
  x = #arith.roundingmode<upward>} {
  return
}

// -----

func.func @cmpi_predicate_keyword(%a: i32) {
  // expected-error @+1 {{custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi bogus, %a, %a : i32
  return
}

// -----

func.func @cmpi_predicate_value(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 42 : i64} : (i32, i32) -> i1
  return
}

// -----

func.func @cmpf_predicate_value(%a: f32) {
  // expected-error @+1 {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 16 : i64} : (f32, f32) -> i1
  return
}

// -----

func.func @cmpi_result_bool_like(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 0 : i64} : (i32, i32) -> i32
  return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  // expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 0 : i64} : (vector<4xi32>, vector<4xi32>) -> vector<5xi1>
  return
}

// -----

func.func @cmpf_same_type_operands(%a: f32, %b: f64) {
  // expected-error @+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %0 = "arith.cmpf"(%a, %b) {predicate = 1 : i64} : (f32, f64) -> i1
  return
}

// -----

func.func @extended_overflow_bool_like(%a: i32) {
  // expected-error @+1 {{'arith.addui_extended' op result #1 must be bool-like, but got 'i32'}}
  %0:2 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @extended_types_match(%a: i32) {
  // expected-error @+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @extsi_narrower(%a: i32) {
  // expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @extui_same_width(%a: i32) {
  // expected-error @+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @trunci_wider(%a: i32) {
  // expected-error @+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @extf_narrower(%a: f32) {
  // expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @truncf_wider(%a: f32) {
  // expected-error @+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @convertf_width(%a: f16) {
  // expected-error @+1 {{'arith.convertf' op operand type 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.convertf %a : f16 to f32
  return
}

// -----

func.func @convertf_same_type(%a: f16) {
  // expected-error @+1 {{'arith.convertf' op operand type 'f16' and result type 'f16' are cast incompatible}}
  %0 = arith.convertf %a : f16 to f16
  return
}

// -----

func.func @index_cast_int_to_int(%a: i32) {
  // expected-error @+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @index_castui_index_to_index(%a: index) {
  // expected-error @+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return
}

// -----

func.func @index_cast_operand(%a: f32) {
  // expected-error @+1 {{'arith.index_cast' op operand #0 must be signless-non-zero-bitwidth-integer-like or memref of signless-integer, but got 'f32'}}
  %0 = "arith.index_cast"(%a) : (f32) -> index
  return
}

// -----

func.func @bitcast_width(%a: i32) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// -----

func.func @bitcast_index(%a: index) {
  // expected-error @+1 {{'arith.bitcast' op operand #0 must be non-zero-bitwidth-signless-integer-or-float-like or memref of non-zero-bitwidth signless integer or float, but got 'index'}}
  %0 = "arith.bitcast"(%a) : (index) -> i64
  return
}

// -----

func.func @cast_encoding(%a: tensor<4xi32, "enc">) {
  // expected-error @+1 {{'arith.extsi' op operand type 'tensor<4xi32, "enc">' and result type 'tensor<4xi64>' are cast incompatible}}
  %0 = "arith.extsi"(%a) : (tensor<4xi32, "enc">) -> tensor<4xi64>
  return
}

// -----

func.func @cast_fixed_width(%a: i32) {
  // expected-error @+1 {{'arith.extsi' op result #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.extsi %a : i32 to index
  return
}

// -----

func.func @sitofp_result(%a: i32) {
  // expected-error @+1 {{'arith.sitofp' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.sitofp %a : i32 to i32
  return
}

// -----

func.func @fptosi_result(%a: f32) {
  // expected-error @+1 {{'arith.fptosi' op result #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = arith.fptosi %a : f32 to f32
  return
}

// -----

func.func @cast_same_shape(%a: vector<4xi32>) {
  // expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<4xi32> to vector<5xi64>
  return
}

// -----

func.func @cast_tensor_dims(%a: tensor<?xi32>) {
  // expected-error @+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extsi %a : tensor<?xi32> to tensor<4xi64>
  return
}

// -----

func.func @scaling_extf_width(%a: f16, %s: f16) {
  // expected-error @+1 {{'arith.scaling_extf' op operand types 'f16', 'f16' and result type 'f16' are cast incompatible}}
  %0 = arith.scaling_extf %a, %s : f16, f16 to f16
  return
}

// -----

func.func @scaling_truncf_width(%a: f32, %s: f16) {
  // expected-error @+1 {{'arith.scaling_truncf' op operand types 'f32', 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.scaling_truncf %a, %s : f32, f16 to f32
  return
}

// -----

func.func @scaling_extf_elementwise(%a: vector<4xf32>, %s: vector<3xf16>) {
  // expected-error @+1 {{'arith.scaling_extf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.scaling_extf %a, %s : vector<4xf32>, vector<3xf16> to vector<4xf64>
  return
}

// -----

func.func @select_condition_bool_like(%a: i32) {
  // expected-error @+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%a, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @select_types_match(%c: i1, %a: i32, %b: f32) {
  // expected-error @+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, f32) -> i32
  return
}

// -----

func.func @select_condition_shape(%c: vector<4xi1>, %a: vector<3xi32>) {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : vector<4xi1>, vector<3xi32>
  return
}

// -----

func.func @select_condition_scalar_result(%c: vector<4xi1>, %a: i32) {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : vector<4xi1>, i32
  return
}

// -----

func.func @constant_signless() {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : si32
  return
}

// -----

func.func @constant_signless_elements() {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant dense<1> : tensor<2xui32>
  return
}

// -----

func.func @constant_value_kind() {
  // expected-error @+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = "arith.constant"() {value = "x" : i32} : () -> i32
  return
}

// -----

func.func @constant_types_match() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() {value = 1 : i64} : () -> i32
  return
}

// -----

func.func @constant_typed_attr() {
  // expected-error @+1 {{'arith.constant' op attribute 'value' failed to satisfy constraint: TypedAttr instance}}
  %0 = "arith.constant"() {value = [1]} : () -> i32
  return
}

// -----

func.func @constant_requires_value() {
  // expected-error @+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return
}

// -----

func.func @constant_scalable_vector() {
  // expected-error @+1 {{'arith.constant' op initializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %0 = arith.constant dense<[1, 2]> : vector<[2]xi32>
  return
}

// -----

func.func @constant_negative_unsigned_float() {
  // A located parse error (it was an internal error), as for a dense element.
  // expected-error @+1 {{negative floating point literal for a type with no signed representation}}
  %0 = arith.constant -2.5 : f8E8M0FNU
  return
}
