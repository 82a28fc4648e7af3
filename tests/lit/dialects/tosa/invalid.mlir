// Verifier and custom-form parse errors, worded as upstream's (every case here gives the
// same diagnostic under `iree-opt --split-input-file --verify-diagnostics`).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.add' op operands don't have matching ranks}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.add' op operands don't have broadcast-compatible shapes}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tosa.add' op result type '2x4' not broadcast compatible with broadcasted operands's shapes '2x3'}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'tosa.add' op requires the same element type for all operands and results}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'tosa.add' op result type '1x3' not broadcast compatible with broadcasted operands's shapes '2x3'}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3x1xf32> {
  // expected-error @+1 {{'tosa.add' op result type '2x3x1' not broadcast compatible with broadcasted operands's shapes '2x3'}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3x1xf32>
  return %0 : tensor<2x3x1xf32>
}

// -----

func.func @f(%a: tensor<2x0xf32>) -> tensor<2x0xf32> {
  // expected-error @+1 {{'tosa.abs' op operand #0 must be tosa-conformant tensor of number values, but got 'tensor<2x0xf32>'}}
  %0 = tosa.abs %a : (tensor<2x0xf32>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tosa.abs' op requires the same shape for all operands and results}}
  %0 = tosa.abs %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'tosa.abs' op requires the same element type for all operands and results}}
  %0 = tosa.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

func.func @f(%a: tensor<2x3xindex>) -> tensor<2x3xindex> {
  // expected-error @+1 {{'tosa.abs' op operand #0 must be tosa-conformant tensor of number values, but got 'tensor<2x3xindex>'}}
  %0 = tosa.abs %a : (tensor<2x3xindex>) -> tensor<2x3xindex>
  return %0 : tensor<2x3xindex>
}

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'tosa.sin' op operand #0 must be tosa-conformant tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = tosa.sin %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'tosa.greater' op requires the same element type for all operands}}
  %0 = tosa.greater %a, %b : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'tosa.equal' op requires the same element type for all operands}}
  %0 = tosa.equal %a, %b : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.equal' op result #0 must be tosa-conformant tensor of 1-bit signless integer values, but got 'tensor<2x3xf32>'}}
  %0 = tosa.equal %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.sub' op operands don't have matching ranks}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xi1>, %b: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.select' op operands don't have matching ranks}}
  %0 = tosa.select %a, %b, %c : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xi1>, %b: tensor<2x3xf32>, %c: tensor<2x3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.select' op expect input and output to have same element type, got 'f16' and 'f32'}}
  %0 = tosa.select %a, %b, %c : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.reduce_sum' op expect reduced dimension size to be 1, got 3}}
  %0 = tosa.reduce_sum %a axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'tosa.reduce_sum' op expect input tensor rank (2) to be larger than reduce axis (2)}}
  %0 = tosa.reduce_sum %a axis(2) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'tosa.reduce_sum' op reduce axis must not be negative}}
  %0 = tosa.reduce_sum %a axis(-1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tosa.reduce_sum' op expect output tensor rank to be equal to input tensor rank}}
  %0 = tosa.reduce_sum %a axis(1) : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.reduce_max' op expect reduced dimension size to be 1, got 3}}
  %0 = tosa.reduce_max %a axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'tosa.concat' op requires sum of axis dimensions of input1 equal to output axis dimension, got 4 and 5}}
  %0 = tosa.concat %a, %a axis(0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tosa.concat' op expect axis to be within range 0 < axis < rank(input1[firstRankedTensorIdx]), got 2}}
  %0 = tosa.concat %a, %a axis(2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tosa.concat' op expect all operand shapes to have the same sizes on non-axis dimensions, but got 4 vs 3 at index 1 on operands 0 and 1}}
  %0 = tosa.concat %a, %b axis(0) : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tosa.concat' op expect input and output to have same element type, got 'i32' and 'f32'}}
  %0 = tosa.concat %a, %b axis(0) : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'tosa.concat' op expect all operands to have the same rank, but got 2 vs 1 on operands 0 and 1}}
  %0 = tosa.concat %a, %b axis(0) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<4x3x1xf32> {
  // expected-error @+1 {{'tosa.concat' op expect output rank to match inputs rank, got 3 vs 2}}
  %0 = tosa.concat %a, %a axis(0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3x1xf32>
  return %0 : tensor<4x3x1xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'tosa.argmax' op expected output shape '3', got '2'}}
  %0 = tosa.argmax %a axis(0) : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tosa.argmax' op result tensor is not of integer type}}
  %0 = tosa.argmax %a axis(0) : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{'tosa.argmax' op specified axis is outside the rank of the tensor}}
  %0 = tosa.argmax %a axis(2) : (tensor<2x3xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tosa.transpose' op expected output tensor dim 0 to match input dim 0 with value of 2}}
  %0 = tosa.transpose %a perms([0, 1]) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tosa.transpose' op expected perms attribute to have size 2 (input rank) but got size 3}}
  %0 = tosa.transpose %a perms([1, 0, 2]) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tosa.transpose' op expected valid permutation indices}}
  %0 = tosa.transpose %a perms([1, 1]) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'tosa.transpose' op expected input1 and output to have same numbers of elements, got 6 and 9}}
  %0 = tosa.transpose %a perms([1, 0]) : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xi32> {
  // expected-error @+1 {{'tosa.transpose' op failed to verify that all of {input1, output} have same element type}}
  %0 = tosa.transpose %a perms([1, 0]) : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %s = tosa.const_shape values(dense<[5]> : tensor<1xindex>) : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.reshape' op new shape is inconsistent with result shape}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %s = tosa.const_shape values(dense<[6, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op new shape does not match result rank}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  %s = tosa.const_shape values(dense<[7]> : tensor<1xindex>) : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.reshape' op cannot reshape 6 elements into 7}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %s: !tosa.shape<1>) -> tensor<6xf32> {
  // expected-error @+1 {{'tosa.reshape' op shape operand is not compile time resolvable}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<6xi32> {
  %s = tosa.const_shape values(dense<[6]> : tensor<1xindex>) : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.reshape' op expect input and output to have same element type, got 'f32' and 'i32'}}
  %0 = tosa.reshape %a, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @f() -> !tosa.shape<2> {
  // expected-error @+1 {{'tosa.const_shape' op expect number of elements in attribute values (1) to be equal to the rank (2) for the result shape type}}
  %s = tosa.const_shape values(dense<[6]> : tensor<1xindex>) : () -> !tosa.shape<2>
  return %s : !tosa.shape<2>
}

// -----

func.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{'tosa.const' op expected same attr/result element types}}
  %s = tosa.const values(dense<[6, 1]> : tensor<2xi32>) : () -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

func.func @f() -> tensor<3xi32> {
  // expected-error @+1 {{'tosa.const' op failed to verify that all of {values, output} have same shape}}
  %s = tosa.const values(dense<[6, 1]> : tensor<2xi32>) : () -> tensor<3xi32>
  return %s : tensor<3xi32>
}

// -----

// expected-error @+1 {{invalid rank (must be >= 0): -1}}
func.func @f() -> !tosa.shape<-1> {
  %s = tosa.const_shape values(dense<[6]> : tensor<1xindex>) : () -> !tosa.shape<-1>
  return %s : !tosa.shape<-1>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<1x4x5xf32>, %z: tensor<1xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected channels of b to match size 3, got 4}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<1x3x5xf32>, %z: tensor<1xf32>) -> tensor<1x2x6xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected output shape 1, 2, 6 to be compatible with inferred shape 1, 2, 5}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<1x3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<2x3x5xf32>, %z: tensor<1xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected output shape 1, 2, 5 to be compatible with inferred shape 2, 2, 5}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<2x3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<1x3x5xf32>, %z: tensor<1xi8>) -> tensor<1x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expect input a and a_zp have the same element type, got 'f32' and 'i8'}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<1x3x5xf32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xi16>, %b: tensor<1x3x5xi16>) -> tensor<1x2x5xi48> {
  %z = tosa.const values(dense<3> : tensor<1xi16>) : () -> tensor<1xi16>
  // expected-error @+1 {{'tosa.matmul' op a zero point must be zero for non-int8 integer types}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xi16>, tensor<1x3x5xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x2x5xi48>
  return %0 : tensor<1x2x5xi48>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<1x3x5xf32>) -> tensor<1x2x5xf32> {
  %z = tosa.const values(dense<3.0> : tensor<1xf32>) : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op a zero point must be zero for non-int8 integer types}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<1x3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xf32>, %b: tensor<1x3x5xf32>, %z: tensor<2xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op operand #2 must be tosa-conformant scalar tensor of unsigned integer or signless integer or floating-point values, but got 'tensor<2xf32>'}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x2x3xf32>, tensor<1x3x5xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x2x3xi32>, %z: tensor<1xi32>) -> tensor<1x2x3xi32> {
  %c = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.negate' op input1 zero point must be zero for non-int8 integer types}}
  %0 = tosa.negate %a, %c, %z : (tensor<1x2x3xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

func.func @f(%a: tensor<1x2x3xi32>, %z: tensor<1xi8>) -> tensor<1x2x3xi32> {
  // expected-error @+1 {{'tosa.negate' op expect both input1 and its zero point are the same element type, got 'i32' and 'i8'}}
  %0 = tosa.negate %a, %z, %z : (tensor<1x2x3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

func.func @f(%a: tensor<2x3xi32>, %s: tensor<1xi8>) -> tensor<2x3xi16> {
  // expected-error @+1 {{'tosa.mul' op invalid data type size for operands or result}}
  %0 = tosa.mul %a, %a, %s : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi16>
  return %0 : tensor<2x3xi16>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = tosa.const values(dense<1> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op require shift to be 0 for float type}}
  %0 = tosa.mul %a, %a, %s : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<1xi8>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.mul' op a and b operands don't have matching ranks, got 2 and 1}}
  %0 = tosa.mul %a, %b, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %s: tensor<1xi8>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.mul' op a and b operands don't have broadcast-compatible shapes, got 'tensor<2x3xf32>' and 'tensor<4x3xf32>'}}
  %0 = tosa.mul %a, %b, %s : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %s: tensor<1xi8>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tosa.mul' op expected output shape 2, 4 to be compatible with inferred shape 2, 3}}
  %0 = tosa.mul %a, %b, %s : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %s: tensor<1xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.mul' op operand #2 must be tosa-conformant scalar tensor of 8-bit signless integer values, but got 'tensor<1xi32>'}}
  %0 = tosa.mul %a, %a, %s : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.clamp' op expected min_val <= max_val, got min_val=6.000000e+00 : f32, max_val=0.000000e+00 : f32}}
  %0 = tosa.clamp %a min_val(6.0 : f32) max_val(0.0 : f32) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.clamp' op min/max attributes types are incompatible with input/output element types.}}
  %0 = tosa.clamp %a min_val(0 : i32) max_val(6 : i32) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'tosa.clamp' op requires the same element type for all operands and results}}
  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(6.0 : f32) : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.clamp' op min/max attributes should not be 'NaN', got min_val=0.000000e+00 : f32, max_val=0x7FC00000 : f32}}
  %0 = tosa.clamp %a min_val(0.0 : f32) max_val(0x7FC00000 : f32) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xi32> {
  // expected-error @+1 {{'tosa.cast' op requires the same shape for all operands and results}}
  %0 = tosa.cast %a : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<3x2xi32> {
  // expected-error @+1 {{'tosa.reverse' op requires the same shape for all operands and results}}
  %0 = tosa.reverse %a axis(0) : (tensor<2x3xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'tosa.reverse' op expect input tensor rank (2) to be larger than reverse axis (2)}}
  %0 = tosa.reverse %a axis(2) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>, %z: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.matmul' op operand #0 must be tosa-conformant tensor of at least rank 2 of number values, but got 'tensor<2xf32>'}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %z: tensor<1xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected output shape 2, 6 to be compatible with inferred shape 2, 5}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %z: tensor<1xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected output shape 1, 2, 5 to be compatible with inferred shape 2, 5}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %z: tensor<1xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op calculated output height did not match expected: calculated=2, expected=4}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op expect all padding values to be >= 0, got 0, 0, 0, -1}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, -1]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op expected input_height - 1 + pad_top + pad_bottom - (kernel_height - 1) * dilation_y to be wholly divisible by stride_y, got (4 - 1 + 0 + 0 - (3 - 1) * 1) / 2}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([2, 2]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<7xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op bias channels expected to be equal to output channels (8) or 1, got 7}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op attribute 'dilation' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xi8>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xi32>, %z: tensor<1xi8>, %zf: tensor<1xf32>) -> tensor<1x2x2x8xi32> {
  // expected-error @+1 {{'tosa.conv2d' op expect both input and weight to be float or not together, got 'i8' and 'f32'}}
  %0 = tosa.conv2d %a, %w, %b, %z, %zf pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x4x4x3xi8>, tensor<8x3x3x3xf32>, tensor<8xi32>, tensor<1xi8>, tensor<1xf32>) -> tensor<1x2x2x8xi32>
  return %0 : tensor<1x2x2x8xi32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf16>, %z: tensor<1xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'tosa.conv2d' op expect both bias and result to have same element type, got 'f16' and 'f32'}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf16>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x5xf32> {
  // expected-error @+1 {{'tosa.depthwise_conv2d' op bias channels expected to be equal to output channels (5) or 1, got 6}}
  %0 = tosa.depthwise_conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x5xf32>
  return %0 : tensor<1x2x2x5xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>, %z: tensor<1xf32>) -> tensor<1x3x2x6xf32> {
  // expected-error @+1 {{'tosa.depthwise_conv2d' op calculated output height did not match expected: calculated=2, expected=3}}
  %0 = tosa.depthwise_conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2x6xf32>
  return %0 : tensor<1x3x2x6xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x9xf32> {
  // expected-error @+1 {{'tosa.conv2d' op bias channels expected to be equal to output channels (9) or 1, got 8}}
  %0 = tosa.conv2d %a, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x9xf32>
  return %0 : tensor<1x2x2x9xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @+1 {{'tosa.max_pool2d' op expected left/right padding to be less than the width of the kernel, got pad_left=0, pad_right=2, kernel_x=2}}
  %0 = tosa.max_pool2d %a kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 2]) : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @+1 {{'tosa.max_pool2d' op expected input_height + pad_top + pad_bottom - kernel_y to be wholly divisible by stride_y, got (4 + 0 + 0 - 3) / 2}}
  %0 = tosa.max_pool2d %a kernel([3, 3]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>) -> tensor<1x3x2x3xf32> {
  // expected-error @+1 {{'tosa.max_pool2d' op calculated output height did not match expected: calculated=2, expected=3}}
  %0 = tosa.max_pool2d %a kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x3xf32>) -> tensor<1x3x2x3xf32>
  return %0 : tensor<1x3x2x3xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xi8>, %z: tensor<1xi8>) -> tensor<1x2x2x3xi8> {
  // expected-error @+1 {{'tosa.avg_pool2d' op accumulator type for integer tensor is not i32}}
  %0 = tosa.avg_pool2d %a, %z, %z kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %0 : tensor<1x2x2x3xi8>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>, %z: tensor<1xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @+1 {{'tosa.avg_pool2d' op expect all kernel values to be >= 1, got 0, 2}}
  %0 = tosa.avg_pool2d %a, %z, %z kernel([0, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %z: tensor<1xf32>) -> tensor<3x4xf32> {
  %p = tosa.const_shape values(dense<[0, 1, 1, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.pad' op mismatch in output shape at dimension 1: expected 3 + 1 + 1 = 5, but got 4}}
  %0 = tosa.pad %a, %p, %z : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %z: tensor<1xf32>) -> tensor<3x4xf32> {
  %p = tosa.const_shape values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.pad' op padding tensor must have 2 * 2 = 4 elements, but got 2}}
  %0 = tosa.pad %a, %p, %z : (tensor<2x3xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %z: tensor<1xf32>) -> tensor<3x4xf32> {
  %p = tosa.const_shape values(dense<[0, -2, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.pad' op invalid padding values at dimension 0: values must be non-negative or -1 for dynamic padding, got [0, -2]}}
  %0 = tosa.pad %a, %p, %z : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %z: tensor<1xi32>) -> tensor<3x4xf32> {
  %p = tosa.const_shape values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.pad' op expect input and output to have same element type, got 'i32' and 'f32'}}
  %0 = tosa.pad %a, %p, %z : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %z: tensor<1xf32>) -> tensor<3x4x1xf32> {
  %p = tosa.const_shape values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.pad' op input rank (2) does not match output rank (3)}}
  %0 = tosa.pad %a, %p, %z : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4x1xf32>
  return %0 : tensor<3x4x1xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<1x2xf32> {
  %s = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %t = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op start + size must be less than or equal to input dimension size, got start=2, size=2 vs input dim size=3 at dimension 1}}
  %0 = tosa.slice %a, %s, %t : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %s = tosa.const_shape values(dense<[1, 0]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %t = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op expected output shape to match size values, got 'tensor<1x3xf32>' vs [1, 2]}}
  %0 = tosa.slice %a, %s, %t : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<1xf32> {
  %s = tosa.const_shape values(dense<[1]> : tensor<1xindex>) : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.slice' op expect input1 and output to have the same ranks, got 2 and 1}}
  %0 = tosa.slice %a, %s, %s : (tensor<2x3xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %m = tosa.const_shape values(dense<[1, 2, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
  // expected-error @+1 {{'tosa.tile' op expect 'multiples' to have rank 2 but got 3.}}
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %m = tosa.const_shape values(dense<[1, 0]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.tile' op expect element of 'multiples' to be positive integer or -1.}}
  %0 = tosa.tile %a, %m : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @f(%v: tensor<1x5x3xf32>, %i: tensor<2x2xi32>) -> tensor<1x2x3xf32> {
  // expected-error @+1 {{'tosa.gather' op requires indices dimension 0 to have size 1, got 2}}
  %0 = tosa.gather %v, %i : (tensor<1x5x3xf32>, tensor<2x2xi32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

func.func @f(%v: tensor<1x5x3xf32>, %i: tensor<1x2xi32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{'tosa.gather' op requires output dimension 2 to have size 3, got 4}}
  %0 = tosa.gather %v, %i : (tensor<1x5x3xf32>, tensor<1x2xi32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @f(%v: tensor<1x5x3xf32>, %i: tensor<1x2xf32>) -> tensor<1x2x3xf32> {
  // expected-error @+1 {{'tosa.gather' op operand #1 must be 2D tosa-conformant tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<1x2xf32>'}}
  %0 = tosa.gather %v, %i : (tensor<1x5x3xf32>, tensor<1x2xf32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

func.func @f(%v: tensor<1x5x3xf32>, %i: tensor<1x6xi32>, %in: tensor<1x6x3xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'tosa.scatter' op requires dimensions K >= W, got K=5 and W=6}}
  %0 = tosa.scatter %v, %i, %in : (tensor<1x5x3xf32>, tensor<1x6xi32>, tensor<1x6x3xf32>) -> tensor<1x5x3xf32>
  return %0 : tensor<1x5x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xi8>, %t: tensor<256xi8>) -> tensor<2x4xi8> {
  // expected-error @+1 {{'tosa.table' op dim(result, 1) = 4 doesn't match dim(input, 1) = 3}}
  %0 = tosa.table %a, %t : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

func.func @f(%a: tensor<2x3xi8>, %t: tensor<256xi8>) -> tensor<2x3x1xi8> {
  // expected-error @+1 {{'tosa.table' op input rank (2) does not match result rank (3)}}
  %0 = tosa.table %a, %t : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3x1xi8>
  return %0 : tensor<2x3x1xi8>
}

// -----

func.func @f(%c: tensor<2xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.cond_if' op 'condition' must be a size 1 tensor, got 'tensor<2xi1>'}}
  %0 = tosa.cond_if %c : tensor<2xi1> -> tensor<2x3xf32> {
    tosa.yield %a : tensor<2x3xf32>
  } else {
    tosa.yield %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tosa.cond_if' op require same shapes for 'then_graph' results ('tensor<2x3xf32>') and 'output_list' ('tensor<2x4xf32>')}}
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2x4xf32> {
    tosa.yield %a : tensor<2x3xf32>
  } else {
    tosa.yield %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @f(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.cond_if' op require same element type for 'then_graph' arguments ('i32') and 'input_list' ('f32')}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<1xi1> (tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%x: tensor<2x3xi32>):
    tosa.yield %a : tensor<2x3xf32>
  } else {
  ^bb0(%x: tensor<2x3xf32>):
    tosa.yield %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.cond_if' op region #1 ('else_graph') failed to verify constraint: region with 1 blocks}}
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2x3xf32> {
    tosa.yield %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.cond_if' op require same number of values in 'else_graph' results (0) and 'output_list' (1)}}
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2x3xf32> {
    tosa.yield %a : tensor<2x3xf32>
  } else {
    "tosa.yield"() : () -> ()
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.clamp' op attribute 'min_val' failed to satisfy constraint: arbitrary integer attribute or arbitrary float attribute}}
  %0 = "tosa.clamp"(%a) <{min_val = "x", max_val = 6.0 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'tosa.argmax' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0 = "tosa.argmax"(%a) <{axis = 1 : i64}> : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{invalid properties {perms = array<i64: 1, 0>} for op tosa.transpose: Invalid attribute `perms` in property conversion: array<i64: 1, 0>}}
  %0 = "tosa.transpose"(%a) <{perms = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{invalid properties {values = 1.000000e+00 : f32} for op tosa.const: Invalid attribute `values` in property conversion: 1.000000e+00 : f32}}
  %0 = "tosa.const"() <{values = 1.0 : f32}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @+1 {{invalid properties {kernel = array<i64: 2, 2>, nan_mode = 1 : i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} for op tosa.max_pool2d: Invalid attribute `nan_mode` in property conversion: 1 : i32}}
  %0 = "tosa.max_pool2d"(%a) <{kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, nan_mode = 1 : i32}> : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{invalid properties {round = 1 : i32} for op tosa.arithmetic_right_shift: Invalid attribute `round` in property conversion: 1 : i32}}
  %0 = "tosa.arithmetic_right_shift"(%a, %a) <{round = 1 : i32}> : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{invalid properties {domain_name = "x", implementation_attrs = "", operator_name = 1 : i32} for op tosa.custom: Invalid attribute `operator_name` in property conversion: 1 : i32}}
  %0 = "tosa.custom"(%a) <{operator_name = 1 : i32, domain_name = "x", implementation_attrs = ""}> : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// expected-error @+1 {{'tosa.variable' op attribute 'var_shape' failed to satisfy constraint: index elements attribute}}
"tosa.variable"() <{sym_name = "v1", type = f32, var_shape = dense<[-1, 3]> : tensor<2xi32>}> : () -> ()

// -----

func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'tosa.reshape' op operand #1 must be Shape with static rank and Index element type, but got 'tensor<2x3xi32>'}}
  %0 = "tosa.reshape"(%a, %a) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @f(%a: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error @+1 {{custom op 'tosa.max_pool2d' expected 'pad'}}
  %0 = tosa.max_pool2d %a kernel([2, 2]) stride([2, 2]) : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @g(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2x3xf32> {
    tosa.yield %a : tensor<2x3xf32>
  } else {
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @g(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2x3xf32> {
    tosa.yield %a : tensor<2x3xf32>
  } else {
    // expected-error @+1 {{block with no terminator, has %1 = "tosa.abs"(%arg1) : (tensor<2x3xf32>) -> tensor<2x3xf32>}}
    %b = tosa.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

func.func @g(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tosa.variable_read' op 'nope' has not been declared by 'tosa.variable'}}
  %r = tosa.variable_read @nope : tensor<2x3xf32>
  return
}

// -----

module {
tosa.variable @v : tensor<2x3xf32>
func.func @g(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'tosa.variable_write' op require same element type for 'input1' ('i32') and the input tensor ('f32')}}
  tosa.variable_write @v, %a : tensor<2x3xi32>
  return
}
}

// -----

module {
tosa.variable @v : tensor<2x3xf32>
func.func @g(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'tosa.variable_write' op require same shapes for 'input1' ('tensor<3x3xf32>') and the input tensor ('tensor<2x3xf32>')}}
  tosa.variable_write @v, %a : tensor<3x3xf32>
  return
}
}

// -----

func.func @g(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tosa.while_loop' op 'cond_graph' result must be a size 1 tensor, got 'tensor<2x3xf32>'}}
  %w = tosa.while_loop (%x = %a) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
    tosa.yield %x : tensor<2x3xf32>
  } do {
  ^bb0(%y: tensor<2x3xf32>):
    tosa.yield %y : tensor<2x3xf32>
  }
  return %w : tensor<2x3xf32>
}

// -----

func.func @g(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{custom op 'tosa.while_loop' expected as many input types as operands (expected 1 got 2)}}
  %w = tosa.while_loop (%x = %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
    tosa.yield %x : tensor<2x3xf32>
  } do {
  ^bb0(%y: tensor<2x3xf32>):
    tosa.yield %y : tensor<2x3xf32>
  }
  return %w : tensor<2x3xf32>
}

// -----

func.func @g(%a: tensor<2x3xf32>, %c: tensor<1xi1>) -> tensor<2x3xf32> {
  %w = tosa.while_loop (%x = %a) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%y: tensor<2x3xf32>):
    // expected-error @+1 {{block with no terminator, has %1 = "tosa.abs"(%arg2) : (tensor<2x3xf32>) -> tensor<2x3xf32>}}
    %z = tosa.abs %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  }
  return %w : tensor<2x3xf32>
}

// -----

func.func @f(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>, %z: tensor<1xf32>) -> tensor<2x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected batch dimensions of a and b to be broadcast compatible, got a=[2] and b=[3]}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x2x3xf32>, tensor<3x3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x5xf32>
  return %0 : tensor<2x2x5xf32>
}

// -----

func.func @f(%a: tensor<2x2x3xf32>, %b: tensor<3x5xf32>, %z: tensor<1xf32>) -> tensor<3x2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected output shape 3, 2, 5 to be compatible with inferred shape 2, 2, 5}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x2x3xf32>, tensor<3x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2x5xf32>
  return %0 : tensor<3x2x5xf32>
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, %z: tensor<1xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'tosa.matmul' op expected channels of b to match size 3, got 4}}
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x3xf32>, tensor<4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @f(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{'tosa.add_shape' op operand #0 must be Shape with static rank and Index element type, but got 'tensor<2x3xf32>'}}
  %0 = "tosa.add_shape"(%t, %t) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %t: tensor<2xf32>) {
  // expected-error @+1 {{'tosa.slice_shape' op operand #1 must be tosa-conformant scalar tensor of 32-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = "tosa.slice_shape"(%a, %t, %t) : (!tosa.shape<2>, tensor<2xf32>, tensor<2xf32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%t: tensor<2xf32>) {
  // expected-error @+1 {{'tosa.dim' op expect axis to be in the range [0, 1), got 1}}
  %0 = "tosa.dim"(%t) <{axis = 1 : i32}> : (tensor<2xf32>) -> !tosa.shape<1>
  return
}

// -----

func.func @f(%t: tensor<2xf32>) {
  // expected-error @+1 {{'tosa.dim' op expect output shape type to contain one element, got '!tosa.shape<2>'}}
  %0 = "tosa.dim"(%t) <{axis = 0 : i32}> : (tensor<2xf32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %b: !tosa.shape<3>) {
  // expected-error @+1 {{'tosa.add_shape' op operands don't have matching ranks}}
  %0 = "tosa.add_shape"(%a, %b) : (!tosa.shape<2>, !tosa.shape<3>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %b: !tosa.shape<2>) {
  // expected-error @+1 {{'tosa.add_shape' op result shape has different rank than operands}}
  %0 = "tosa.add_shape"(%a, %b) : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<3>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %b: !tosa.shape<2>) {
  // expected-error @+1 {{'tosa.concat_shape' op shape operand is not compile time resolvable}}
  %0 = "tosa.concat_shape"(%a, %b) : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<3>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %b: !tosa.shape<0>) {
  // expected-error @+1 {{'tosa.concat_shape' op shape operand is not compile time resolvable}}
  %0 = "tosa.concat_shape"(%a, %b) : (!tosa.shape<2>, !tosa.shape<0>) -> !tosa.shape<2>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tosa.concat_shape' op requires at least one input shape}}
  %0 = "tosa.concat_shape"() : () -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<4>) {
  %s = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op shape operand is not compile time resolvable}}
  %0 = "tosa.slice_shape"(%a, %s, %z) : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<4>) {
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op shape operand is not compile time resolvable}}
  %0 = "tosa.slice_shape"(%a, %s, %z) : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f(%a: !tosa.shape<2>) {
  // expected-error @+1 {{'tosa.assert_equal_shape' op shape operand is not compile time resolvable}}
  "tosa.assert_equal_shape"(%a, %a) <{allow_broadcast = true}> : (!tosa.shape<2>, !tosa.shape<2>) -> ()
  return
}

// -----

func.func @f(%a: !tosa.shape<2>, %b: !tosa.shape<3>) {
  // expected-error @+1 {{'tosa.assert_equal_shape' op operands don't have matching ranks}}
  "tosa.assert_equal_shape"(%a, %b) <{allow_broadcast = true}> : (!tosa.shape<2>, !tosa.shape<3>) -> ()
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %b = tosa.const_shape values(dense<[4, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.concat_shape' op requires output shape rank to be equal to the sum of the input shape ranks (4), got 3}}
  %0 = tosa.concat_shape %a, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<3>
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %b = tosa.const_shape values(dense<> : tensor<0xindex>) : () -> !tosa.shape<0>
  // expected-error @+1 {{'tosa.concat_shape' op requires all inputs shapes have a rank greater than 0}}
  %0 = tosa.concat_shape %a, %b : (!tosa.shape<2>, !tosa.shape<0>) -> !tosa.shape<2>
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3, 4, 5]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %s = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op expected start + size to be less than or equal to input shape rank (4), got 5}}
  %0 = tosa.slice_shape %a, %s, %z : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3, 4, 5]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op expected output type size to be equal to size attribute, got 2 vs 3}}
  %0 = tosa.slice_shape %a, %s, %z : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3, 4, 5]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %s = "tosa.const"() <{values = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op expected non-negative start index, got -1}}
  %0 = tosa.slice_shape %a, %s, %z : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<3>
  return
}

// -----

func.func @f() {
  %a = tosa.const_shape values(dense<[2, 3, 4, 5]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.slice_shape' op expected positive size, got 0}}
  %0 = tosa.slice_shape %a, %s, %z : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<0>
  return
}

// -----

func.func @f(%a: tensor<1x4x6xf32>, %b: tensor<1x5x7xf32>) -> tensor<1x4x5xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul_t' op expected channels of b to match size 6, got 7}}
  %0 = tosa.matmul_t %a, %b, %z, %z : (tensor<1x4x6xf32>, tensor<1x5x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @f(%a: tensor<1x4x6xf32>, %b: tensor<1x5x6xf32>) -> tensor<1x4x6xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul_t' op expected output shape 1, 4, 6 to be compatible with inferred shape 1, 4, 5}}
  %0 = tosa.matmul_t %a, %b, %z, %z : (tensor<1x4x6xf32>, tensor<1x5x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  return %0 : tensor<1x4x6xf32>
}

// -----

func.func @f(%v: tensor<2x7x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x7x3xf32> {
  %r = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.row_gather' op requires output dimension to be equal to indices[1]*row_count (8), got 7}}
  %0 = tosa.row_gather %v, %i, %r : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x7x3xf32>
  return %0 : tensor<2x7x3xf32>
}

// -----

func.func @f(%v: tensor<2x7x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x8x3xf32> {
  %r = "tosa.const"() <{values = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.row_gather' op requires row_count to be > 0, got -1}}
  %0 = tosa.row_gather %v, %i, %r : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}

// -----

func.func @f(%v: tensor<2x7x3xf32>, %i: tensor<3x4xi32>, %r: tensor<1xi32>) -> tensor<2x8x3xf32> {
  // expected-error @+1 {{'tosa.row_gather' op expected batch of indices to match size 2, got 3}}
  %0 = tosa.row_gather %v, %i, %r : (tensor<2x7x3xf32>, tensor<3x4xi32>, tensor<1xi32>) -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}

// -----

func.func @f(%v: tensor<2x7x3xf32>, %i: tensor<2x4xi32>, %r: tensor<1xi32>) -> tensor<2x8x4xf32> {
  // expected-error @+1 {{'tosa.row_gather' op expected channels of output to match size 3, got 4}}
  %0 = tosa.row_gather %v, %i, %r : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// -----

module {
  tosa.variable @stored_var : tensor<*xi8>
  // expected-error@+1 {{custom op 'tosa.variable' expected ranked type}}
}

// -----

module {
  tosa.variable @v : i8
  // expected-error@+1 {{custom op 'tosa.variable' expected shaped type}}
}

// -----

module {
  tosa.variable @v = 3 : i8
  // expected-error@+1 {{custom op 'tosa.variable' expected shaped type}}
}

// -----

module {
  // expected-error@+1 {{elements literal type must have static shape}}
  tosa.variable @stored_var = dense<0> : tensor<*xi8>
  // expected-error@+1 {{custom op 'tosa.variable' expected attribute}}
}

// -----

func.func @f(%a: tensor<1x21x3xf32>, %b: tensor<13x21x3xf32>) -> tensor<1x13x21x3xf32> {
  // (the result's trailing dims broadcast: its rank is what is wrong)
  // expected-error @+1 {{'tosa.sub' op result type has different rank than operands}}
  %0 = tosa.sub %a, %b : (tensor<1x21x3xf32>, tensor<13x21x3xf32>) -> tensor<1x13x21x3xf32>
  return %0 : tensor<1x13x21x3xf32>
}

// -----

func.func @f(%a: tensor<1x21x3xf32>, %b: tensor<13x21x3xf32>) -> tensor<2x21x3xf32> {
  // expected-error @+1 {{'tosa.add' op result type '2x21x3' not broadcast compatible with broadcasted operands's shapes '13x21x3'}}
  %0 = tosa.add %a, %b : (tensor<1x21x3xf32>, tensor<13x21x3xf32>) -> tensor<2x21x3xf32>
  return %0 : tensor<2x21x3xf32>
}

// -----

func.func @f(%a: tensor<1x5x8xi16>) -> (tensor<1x4x5xi16>, tensor<1x4x5xi16>) {
  // expected-error @+1 {{'tosa.rfft2d' op requires a floating point type}}
  %0, %1 = tosa.rfft2d %a : (tensor<1x5x8xi16>) -> (tensor<1x4x5xi16>, tensor<1x4x5xi16>)
  return %0, %1 : tensor<1x4x5xi16>, tensor<1x4x5xi16>
}

// -----

func.func @f(%a: tensor<1x4x8xi32>, %b: tensor<1x4x8xi32>) -> (tensor<1x4x8xi32>, tensor<1x4x8xi32>) {
  // expected-error @+1 {{'tosa.fft2d' op requires a floating point type}}
  %0, %1 = tosa.fft2d %a, %b inverse(false) : (tensor<1x4x8xi32>, tensor<1x4x8xi32>) -> (tensor<1x4x8xi32>, tensor<1x4x8xi32>)
  return %0, %1 : tensor<1x4x8xi32>, tensor<1x4x8xi32>
}
