// Every builtin type round-trips and prints as mlir-opt prints it.
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s

// CHECK-LABEL: func.func @integers
// CHECK-SAME: (%arg0: i1, %arg1: i8, %arg2: i32, %arg3: i64, %arg4: i1024, %arg5: si8, %arg6: ui16, %arg7: si64, %arg8: ui1, %arg9: i16777215)
func.func @integers(%a: i1, %b: i8, %c: i32, %d: i64, %e: i1024, %f: si8, %g: ui16, %h: si64, %i: ui1, %j: i16777215) {
  return
}

// CHECK-LABEL: func.func @index_none
// CHECK-SAME: (%arg0: index, %arg1: none)
func.func @index_none(%a: index, %b: none) {
  return
}

// CHECK-LABEL: func.func @floats
// CHECK-SAME: (%arg0: f16, %arg1: bf16, %arg2: f32, %arg3: f64, %arg4: f80, %arg5: f128, %arg6: tf32)
func.func @floats(%a: f16, %b: bf16, %c: f32, %d: f64, %e: f80, %f: f128, %g: tf32) {
  return
}

// CHECK-LABEL: func.func @small_floats
// CHECK-SAME: (%arg0: f8E5M2, %arg1: f8E4M3, %arg2: f8E4M3FN, %arg3: f8E5M2FNUZ, %arg4: f8E4M3FNUZ, %arg5: f8E4M3B11FNUZ, %arg6: f8E3M4, %arg7: f8E8M0FNU, %arg8: f6E2M3FN, %arg9: f6E3M2FN, %arg10: f4E2M1FN)
func.func @small_floats(%a: f8E5M2, %b: f8E4M3, %c: f8E4M3FN, %d: f8E5M2FNUZ, %e: f8E4M3FNUZ,
                        %f: f8E4M3B11FNUZ, %g: f8E3M4, %h: f8E8M0FNU, %i: f6E2M3FN,
                        %j: f6E3M2FN, %k: f4E2M1FN) {
  return
}

// CHECK-LABEL: func.func @complex_tuple
// CHECK-SAME: (%arg0: complex<f32>, %arg1: complex<i8>, %arg2: tuple<>, %arg3: tuple<i32>, %arg4: tuple<i32, tuple<f32, index>, none>)
func.func @complex_tuple(%a: complex<f32>, %b: complex<i8>, %c: tuple<>, %d: tuple<i32>,
                         %e: tuple<i32, tuple<f32, index>, none>) {
  return
}

// Function types: a single non-function result prints without parentheses.
// CHECK-LABEL: func.func @function_types
// CHECK-SAME: (%arg0: () -> (), %arg1: (i32) -> i32, %arg2: (i32, f32) -> (i32, f32), %arg3: () -> (() -> ()), %arg4: ((i32) -> i1) -> ((i1) -> i32))
func.func @function_types(%a: () -> (), %b: (i32) -> (i32), %c: (i32, f32) -> (i32, f32),
                          %d: () -> (() -> ()), %e: ((i32) -> i1) -> ((i1) -> i32)) {
  return
}

// CHECK-LABEL: func.func @vectors
// CHECK-SAME: (%arg0: vector<4xf32>, %arg1: vector<2x3x4xi8>, %arg2: vector<[4]xf32>, %arg3: vector<2x[8]xi1>, %arg4: vector<[2]x[2]xf16>, %arg5: vector<1xindex>)
func.func @vectors(%a: vector<4xf32>, %b: vector<2x3x4xi8>, %c: vector<[4]xf32>,
                   %d: vector<2x[8]xi1>, %e: vector<[2]x[2]xf16>, %f: vector<1xindex>) {
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK-SAME: (%arg0: tensor<f32>, %arg1: tensor<4xf32>, %arg2: tensor<?x4x?xi8>, %arg3: tensor<0x4xf32>, %arg4: tensor<*xf32>, %arg5: tensor<4x4xf32, "encoding">, %arg6: tensor<?xf32, {a = 1 : i64}>, %arg7: tensor<2xcomplex<f64>>, %arg8: tensor<2xvector<4xf32>>, %arg9: tensor<2x!foo.bar>)
func.func @tensors(%a: tensor<f32>, %b: tensor<4xf32>, %c: tensor<?x4x?xi8>, %d: tensor<0x4xf32>,
                   %e: tensor<*xf32>, %f: tensor<4x4xf32, "encoding">, %g: tensor<?xf32, {a = 1}>,
                   %h: tensor<2xcomplex<f64>>, %i: tensor<2xvector<4xf32>>, %j: tensor<2x!foo.bar>) {
  return
}

// Memory spaces elide an i64 type; identity layouts are dropped.
// CHECK-LABEL: func.func @memrefs
// CHECK-SAME: (%arg0: memref<f32>, %arg1: memref<4x?xf32>, %arg2: memref<4xf32, 1>, %arg3: memref<4xf32, 3 : i32>, %arg4: memref<4xf32, "shared">, %arg5: memref<*xf32>, %arg6: memref<*xi8, 2>, %arg7: memref<4x4xf32, strided<[4, 1]>>, %arg8: memref<4x4xf32, strided<[?, 1], offset: ?>, 5>, %arg9: memref<4x4xf32>, %arg10: memref<4xvector<4xf32>>)
func.func @memrefs(%a: memref<f32>, %b: memref<4x?xf32>, %c: memref<4xf32, 1>, %d: memref<4xf32, 3 : i32>,
                   %e: memref<4xf32, "shared">, %f: memref<*xf32>, %g: memref<*xi8, 2>,
                   %h: memref<4x4xf32, strided<[4, 1]>>,
                   %i: memref<4x4xf32, strided<[?, 1], offset: ?>, 5>,
                   %j: memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>,
                   %k: memref<4xvector<4xf32>>) {
  return
}

// Types of unregistered dialects are kept as written.
// CHECK-LABEL: func.func @opaque
// CHECK-SAME: (%arg0: !foo.bar, %arg1: !foo.bar<"x", 4>, %arg2: !foo<"a weird body">, %arg3: !foo.baz<i32, [1, 2]>)
func.func @opaque(%a: !foo.bar, %b: !foo.bar<"x", 4>, %c: !foo<"a weird body">,
                  %d: !foo.baz<i32, [1, 2]>) {
  return
}

// Types also appear as attributes and in generic op signatures.
// CHECK-LABEL: func.func @type_attrs
// CHECK: "test.op"() {a = i32, b = tensor<*xf32>, c = () -> (), d = !foo.bar} : () -> (i32, memref<2xf32>)
func.func @type_attrs() {
  %0:2 = "test.op"() {a = i32, b = tensor<*xf32>, c = () -> (), d = !foo.bar} : () -> (i32, memref<2xf32>)
  return
}
