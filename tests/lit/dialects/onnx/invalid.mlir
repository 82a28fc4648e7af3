// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @element_type(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'onnx.Add' op operand #1 ('B') of type 'tensor<3xi32>' and operand #0 ('A') of type 'tensor<3xf32>' must have the same element type (type constraint 'T')}}
  %0 = "onnx.Add"(%a, %b) : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @result_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Relu' op result #0 ('Y') of type 'tensor<3xf64>' and operand #0 ('X') of type 'tensor<3xf32>' must have the same element type (type constraint 'T')}}
  %0 = "onnx.Relu"(%a) : (tensor<3xf32>) -> tensor<3xf64>
  return
}

// -----

func.func @not_allowed(%a: tensor<3xi1>) {
  // expected-error @+1 {{'onnx.Relu' op operand #0 ('X') must be tensor of i8, i16, i32, i64, f16, bf16, f32 or f64 values (type constraint 'T'), but got 'tensor<3xi1>'}}
  %0 = "onnx.Relu"(%a) : (tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @not_a_tensor(%a: f32) {
  // expected-error @+1 {{'onnx.Abs' op operand #0 ('X') must be tensor of}}
  %0 = "onnx.Abs"(%a) : (f32) -> f32
  return
}

// -----

func.func @literal_type(%a: tensor<2x3xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'onnx.Reshape' op operand #1 ('shape') must be tensor of i64 values, but got 'tensor<2xi32>'}}
  %0 = "onnx.Reshape"(%a, %s) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  return
}

// -----

func.func @too_few(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Add' op expected 2 operands, but found 1}}
  %0 = "onnx.Add"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @too_many(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Clip' op expected 1 to 3 operands, but found 4}}
  %0 = "onnx.Clip"(%a, %a, %a, %a) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @variadic(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Concat' op expected 1 or more operands, but found 0}}
  %0 = "onnx.Concat"() <{axis = 0 : i64}> : () -> tensor<3xf32>
  return
}

// -----

func.func @required_none(%a: tensor<3xf32>) {
  %n = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{'onnx.Add' op operand #1 ('B') is required, but got 'none'}}
  %0 = "onnx.Add"(%a, %n) : (tensor<3xf32>, none) -> tensor<3xf32>
  return
}

// -----

func.func @required_attribute(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Concat' op requires attribute 'axis'}}
  %0 = "onnx.Concat"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @attribute_kind(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Concat' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "onnx.Concat"(%a, %a) <{axis = 0 : i32}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @attribute_ints(%a: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'kernel_shape' failed to satisfy constraint: 64-bit integer array attribute}}
  %0 = "onnx.MaxPool"(%a) <{kernel_shape = [2.0 : f32]}> : (tensor<1x1x4xf32>) -> tensor<1x1x3xf32>
  return
}

// -----

func.func @attribute_float(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.LeakyRelu' op attribute 'alpha' failed to satisfy constraint: 32-bit float attribute}}
  %0 = "onnx.LeakyRelu"(%a) <{alpha = 0.1 : f64}> : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// `axes` became an input of ReduceSum in opset 13: not an attribute any more.
module attributes {onnx.opset_import = {ai.onnx = 13 : i64}} {
  func.func @attribute_of_older_version(%a: tensor<3xf32>) {
    // expected-error @+1 {{'onnx.ReduceSum' op has no attribute 'axes' in opset 13 of 'ai.onnx'}}
    %0 = "onnx.ReduceSum"(%a) <{axes = [0]}> : (tensor<3xf32>) -> tensor<1xf32>
    return
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
  func.func @types_of_older_version(%a: tensor<3xf32>, %b: tensor<3xbf16>) {
    %0 = "onnx.ReduceSum"(%a) <{axes = [0]}> : (tensor<3xf32>) -> tensor<1xf32>
    // bf16 came to Relu in opset 14.
    // expected-error @+1 {{'onnx.Relu' op operand #0 ('X') must be tensor of f16, f32 or f64 values (type constraint 'T'), but got 'tensor<3xbf16>'}}
    %1 = "onnx.Relu"(%b) : (tensor<3xbf16>) -> tensor<3xbf16>
    return
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
  func.func @newer_op(%a: tensor<3xf32>) {
    // expected-error @+1 {{'onnx.Gelu' op is not defined in opset 11 of 'ai.onnx' (it first appears in opset 20)}}
    %0 = "onnx.Gelu"(%a) : (tensor<3xf32>) -> tensor<3xf32>
    return
  }
}

// -----

func.func @unknown_property(%a: tensor<3xf32>) {
  // expected-error @+1 {{'onnx.Relu' op does not have a property 'alpha'}}
  %0 = "onnx.Relu"(%a) <{alpha = 1.0 : f32}> : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @sequence_for_tensor(%s: !onnx.Seq<tensor<?xf32>>) {
  // expected-error @+1 {{'onnx.Relu' op operand #0 ('X') must be tensor of}}
  %0 = "onnx.Relu"(%s) : (!onnx.Seq<tensor<?xf32>>) -> tensor<?xf32>
  return
}

// -----

func.func @sequence_element(%s: !onnx.Seq<!onnx.Seq<tensor<?xf32>>>) {
  // expected-error @+1 {{'onnx.SequenceLength' op operand #0 ('input_sequence') must be sequence of tensors of}}
  %0 = "onnx.SequenceLength"(%s) : (!onnx.Seq<!onnx.Seq<tensor<?xf32>>>) -> tensor<i64>
  return
}

// -----

func.func @regions_count(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op requires 2 regions (then_branch, else_branch), but found 1}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @region_empty(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op region #1 ('else_branch') is required and must not be empty}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @region_terminator(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.If' op region #0 ('then_branch') must end with 'onnx.Yield'}}
  %0 = "onnx.If"(%c) ({
    func.return %x : tensor<2xf32>
  }, {
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @no_regions(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Relu' op requires zero regions}}
  %0 = "onnx.Relu"(%x) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @yield_parent(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Yield' op expects parent op to be an onnx op with a graph attribute}}
  "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
}

// -----

func.func @no_value(%x: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.NoValue' op result #0 must be none type, but got 'tensor<2xf32>'}}
  %n = "onnx.NoValue"() : () -> tensor<2xf32>
  return
}

// -----

// expected-error @+1 {{unknown type 'Tuple' in dialect 'onnx'}}
func.func @bad_type(%x: !onnx.Tuple<f32>) {
  return
}

// -----

// expected-error @+1 {{map key type must be an ONNX element type, got 'tensor<2xf32>'}}
func.func @bad_map(%x: !onnx.Map<tensor<2xf32>, f32>) {
  return
}

// -----

func.func @custom_form(%x: tensor<2xf32>) {
  // expected-error @+1 {{custom op 'onnx.Relu' has no custom assembly form}}
  %0 = onnx.Relu %x : tensor<2xf32>
  return
}
