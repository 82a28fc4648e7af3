// Every builtin attribute round-trips and prints as mlir-opt prints it.
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s

// Aliases come first, sorted by kind then name, numbered in order of appearance.
// CHECK: #[[D:distinct]] = distinct[0]<42 : i32>
// CHECK-NEXT: #[[MAP0:map]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #[[MAP1:map1]] = affine_map<(d0)[s0] -> (d0 * 2 + s0, d0 floordiv 4, d0 mod 3)>
// CHECK-NEXT: #[[MAP2:map2]] = affine_map<() -> (0)>
// CHECK-NEXT: #[[SET:set]] = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0)>

// Integers: i64 is the default type, i1 prints as a bool, unsigned/signed as written.
// CHECK-LABEL: "test.integers"
// CHECK-SAME: {a = 42 : i64, b = -7 : i32, c = true, d = false, e = 255 : ui8, f = -128 : si8, g = 10 : index, h = 255 : i64, i = 18446744073709551615 : ui64, j = -9223372036854775808 : i64, k = 1 : i1024}
"test.integers"() {a = 42, b = -7 : i32, c = true, d = false, e = 255 : ui8, f = -128 : si8,
                   g = 10 : index, h = 0xFF, i = 18446744073709551615 : ui64,
                   j = -9223372036854775808, k = 1 : i1024} : () -> ()

// Floats: f64 is the default; values print in scientific form when that round-trips,
// else in the shortest form; hex literals give the bits (NaN and inf stay in hex).
// CHECK-LABEL: "test.floats"
// CHECK-SAME: {a = 1.500000e+00 : f64, b = -2.500000e-01 : f32, c = 1.000000e-01 : f64, d = 1.000000e-01 : f32, e = 0x7FC00000 : f32, f = 0x7FF0000000000000 : f64, g = 0xFF800000 : f32, h = -0.000000e+00 : f16, i = 1.000000e+00 : bf16, j = 1.000000e+10 : f64, k = 3.000000e+00 : f64, l = 1.000000e+00 : f16}
"test.floats"() {a = 1.5, b = -0.25 : f32, c = 0.1, d = 0.1 : f32, e = 0x7FC00000 : f32,
                 f = 0x7FF0000000000000 : f64, g = 0xFF800000 : f32, h = -0.0 : f16,
                 i = 1.0 : bf16, j = 1.0e10, k = 3.0 : f64, l = 1.000000e+00 : f16} : () -> ()

// Strings: escapes print as \XX hex, except \\ ; a string may carry a type.
// CHECK-LABEL: "test.strings"
// CHECK-SAME: {a = "plain", b = "quote\22 backslash\\ newline\0A tab\09", c = "\00\FF", d = "", e = "typed" : i32, f = "caf\C3\A9"}
"test.strings"() {a = "plain", b = "quote\" backslash\\ newline\n tab\t", c = "\00\ff",
                  d = "", e = "typed" : i32, f = "café"} : () -> ()

// Unit (bare key), arrays, dictionaries and the keys that need quotes.
// CHECK-LABEL: "test.containers"
// CHECK-SAME: {a, b = [], c = [1, 2.000000e+00, "x", [true, unit]], d = {}, e = {x = 1 : i64, y = [1 : i32]}, "f-g" = 1 : i64, "h i", j = [1 : i32, -1 : i8]}
"test.containers"() {a, b = [], c = [1, 2.0, "x", [true, unit]], d = {}, e = {y = [1 : i32], x = 1},
                     "f-g" = 1, "h i" = unit, j = [1 : i32, -1 : i8]} : () -> ()

// Dense arrays of integers, floats and bools.
// CHECK-LABEL: "test.dense_arrays"
// CHECK-SAME: {a = array<i64: 1, 2, 3>, b = array<i32>, c = array<i1: true, false>, d = array<f32: 1.500000e+00, -2.000000e+00>, e = array<i8: -1, 127>, f = array<f64: 1.000000e-01>}
"test.dense_arrays"() {a = array<i64: 1, 2, 3>, b = array<i32>, c = array<i1: true, false>,
                       d = array<f32: 1.5, -2.0>, e = array<i8: -1, 127>, f = array<f64: 0.1>} : () -> ()

// Types, symbol references (flat, nested, quoted).
// CHECK-LABEL: "test.refs"
// CHECK-SAME: {a = i32, b = @sym, c = @a::@b::@c, d = @"with space", e = [@x, @y::@z], f = @quoted::@"n m"}
"test.refs"() {a = i32, b = @sym, c = @a::@b::@c, d = @"with space", e = [@x, @y::@z],
               f = @"quoted"::@"n m"} : () -> ()

// Affine maps and integer sets print as aliases (defined at the top); strided inline.
// CHECK-LABEL: "test.affine"
// CHECK-SAME: {a = #[[MAP0]], b = #[[MAP1]], c = #[[MAP2]], d = #[[SET]], e = strided<[4, 1], offset: 2>, f = strided<[?, ?], offset: ?>, g = strided<[]>}
"test.affine"() {a = affine_map<(i, j) -> (j, i)>, b = affine_map<(d0)[s0] -> (d0 * 2 + s0, d0 floordiv 4, d0 mod 3)>,
                 c = affine_map<() -> (0)>, d = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, d1 == 0)>,
                 e = strided<[4, 1], offset: 2>, f = strided<[?, ?], offset: ?>, g = strided<[]>} : () -> ()

// Attributes of unregistered dialects are kept as written (with an optional type).
// CHECK-LABEL: "test.opaque"
// CHECK-SAME: {a = #foo.bar, b = #foo.bar<"x", [1, 2]>, c = #foo<"weird body">, d = #foo.baz : i32}
"test.opaque"() {a = #foo.bar, b = #foo.bar<"x", [1, 2]>, c = #foo<"weird body">, d = #foo.baz : i32} : () -> ()

// Distinct attributes are numbered in printing order; those around unit have no alias.
// CHECK-LABEL: "test.distinct"
// CHECK-SAME: {a = #[[D]], b = distinct[1]<>, c = #[[D]]}
"test.distinct"() {a = distinct[7]<42 : i32>, b = distinct[3]<unit>, c = distinct[7]<42 : i32>} : () -> ()

// Dense elements: splats, nested lists, hex, strings, complex.
// CHECK-LABEL: "test.dense"
// CHECK-SAME: a = dense<1.000000e+00> : tensor<4xf32>
// CHECK-SAME: b = dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-SAME: c = dense<[true, false]> : vector<2xi1>
// CHECK-SAME: d = dense<["a", "bc"]> : tensor<2x!foo.str>
// CHECK-SAME: e = dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
// CHECK-SAME: f = dense<> : tensor<0xi8>
// CHECK-SAME: g = dense<[1, 2]> : tensor<2xi16>
"test.dense"() {a = dense<1.0> : tensor<4xf32>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>,
                c = dense<[true, false]> : vector<2xi1>, d = dense<["a", "bc"]> : tensor<2x!foo.str>,
                e = dense<(1.0, 2.0)> : tensor<complex<f32>>, f = dense<> : tensor<0xi8>,
                g = dense<"0x01000200"> : tensor<2xi16>} : () -> ()

// Dense resources refer to blobs in the file metadata section, printed after the module.
// CHECK-LABEL: "test.resource"
// CHECK-SAME: {a = dense_resource<blob1> : tensor<3xi8>}
// CHECK: {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x01000000010203"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
"test.resource"() {a = dense_resource<blob1> : tensor<3xi8>} : () -> ()

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x01000000010203"
    }
  }
#-}
