// Malformed builtin types, attributes and locations: each is rejected with upstream's
// message at upstream's place (this file also passes `iree-opt --verify-diagnostics`).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
func.func private @f(i16777216)

// -----

// expected-error @+1 {{expected non-function type}}
func.func private @f(vector<?xf32>)

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 2, 0}}
func.func private @f(vector<2x0xf32>)

// -----

// expected-error @+1 {{invalid dimension}}
func.func private @f(vector<4x[?]xf32>)

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
func.func private @f(vector<2xcomplex<f32>>)

// -----

// expected-error @+1 {{invalid tensor element type}}
func.func private @f(tensor<4xnone>)

// -----

// expected-error @+1 {{invalid tensor element type}}
func.func private @f(tensor<2xtuple<i32>>)

// -----

// expected-error @+1 {{invalid memref element type}}
func.func private @f(memref<4xtensor<4xf32>>)

// -----

// expected-error @+1 {{invalid element type for complex}}
func.func private @f(complex<index>)

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
func.func private @f(tensor<4x4>)

// -----

// expected-error @+1 {{memref layout mismatch between rank and affine map: 1 != 2}}
func.func private @f(memref<4xf32, affine_map<(d0, d1) -> (d0)>>)

// -----

// expected-error @+1 {{expected the number of strides to match the rank}}
func.func private @f(memref<4xf32, strided<[1, 1]>>)

// -----

// expected-error @+1 {{cannot have affine map for unranked memref type}}
func.func private @f(memref<*xf32, affine_map<(d0) -> (d0)>>)

// -----

// expected-error @+1 {{undefined symbol alias id 'missing'}}
func.func private @f(!missing)

// -----

// expected-error @+1 {{dialect 'arith' provides no type parsing hook}}
func.func private @f(!arith.thing)

// -----

// expected-error @+1 {{type created with unregistered dialect}}
func.func private @f(!unknown.thing<"x">)

// -----

// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
func.func private @f(!foo.bar<[1>)

// -----

// expected-error @+1 {{expected '>' to close an array attribute}}
func.func private @f() attributes {a = array<i64: 1, 2}

// -----

// expected-error @+1 {{expected integer or float type, got: 'none'}}
func.func private @f() attributes {a = array<none: 1>}

// -----

// expected-error @+1 {{expected 'true' or 'false' values for i1 type}}
func.func private @f() attributes {a = array<i1: true, 1>}

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
func.func private @f() attributes {a = 3 : f32}

// -----

// expected-error @+1 {{floating point value not valid for specified type}}
func.func private @f() attributes {a = 1.5 : i32}

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
func.func private @f() attributes {a = 300 : i8}

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
func.func private @f() attributes {a = -1 : ui8}

// -----

// expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
func.func private @f() attributes {a = -0x3C00 : f16}

// -----

// expected-error @+1 {{expected '"' in string literal}}
func.func private @f() attributes {a = "unterminated}

// -----

// expected-error @+1 {{unknown escape in string literal}}
func.func private @f() attributes {a = "bad \q escape"}

// -----

// expected-error @+1 {{expected ',' or ']'}}
func.func private @f() attributes {a = [1, 2}

// -----

// expected-error @+1 {{duplicate key 'b' in dictionary attribute}}
func.func private @f() attributes {a = {b = 1, b = 2}}

// -----

// expected-error @+1 {{@ identifier expected to start with letter or '_'}}
func.func private @f() attributes {a = @}

// -----

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
func.func private @f() attributes {a = dense<[1, 2]> : tensor<3xi32>}

// -----

// expected-error @+1 {{elements literal must be a shaped type}}
func.func private @f() attributes {a = dense<1> : i32}

// -----

// expected-error @+1 {{expected a 64-bit signed integer or '?'}}
func.func private @f() attributes {a = strided<[1], offset: x>}

// -----

// expected-error @+1 {{referenced attribute does not match previous definition: 1 : i64}}
func.func private @f() attributes {a = distinct[0]<1>, b = distinct[0]<2>}

// -----

// expected-error @+1 {{operation location alias was never defined}}
func.func private @f() loc(#undefined)

// -----

// expected-error @+2 {{expected location, but found '1 : i64'}}
#one = 1
func.func private @f() loc(#one)

// -----

// expected-error @+1 {{expected 'at' in callsite location}}
func.func private @f() loc(callsite("a" "b"))

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
func.func private @f() loc("a":x)

// -----

// expected-error @+1 {{undefined symbol alias id 'later'}}
func.func private @f() loc(fused[#later])
#later = loc("a":1:2)

// -----

#a = 1
// expected-error @+1 {{redefinition of attribute alias id 'a'}}
#a = 2

// -----

// expected-error @+1 {{attribute names with a '.' are reserved for dialect-defined names}}
#a.b = 1

// -----

// expected-error @+1 {{expected '=' in type alias definition}}
!t

// -----

// A negation whose operand fails gets upstream's second error.
// expected-error @+2 {{no expression inside parentheses}}
// expected-error @+1 {{missing operand of negation}}
#m = affine_map<(d0) -> (-(), d0)>

// -----

// expected-error @+2 {{missing left operand of binary op}}
// expected-error @+1 {{missing operand of negation}}
#m = affine_map<(d0) -> (d0, -*d0)>

// -----

// builtin.module's attr-dict holds discardable attributes only (strict properties).
// expected-error @+1 {{custom op 'builtin.module' inherent attribute 'sym_name' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
module @m attributes {sym_name = "n"} {}

// -----

// expected-error @+1 {{custom op 'builtin.module' inherent attribute 'sym_visibility' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
module attributes {sym_visibility = "private"} {}
