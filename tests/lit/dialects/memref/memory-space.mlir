// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// Expected output: iree-opt's, line for line. The integer memory space 0 is the default
// space: MLIR drops it from the type (whatever its integer type), so both casts below
// cast a type to itself, which unranked memrefs allow too.

// CHECK: module {
// CHECK-NEXT: func.func @f(%arg0: memref<2x5xf32>, %arg1: memref<*xf32>, %arg2: memref<4xi8>, %arg3: memref<*xf32, 1>) {
// CHECK-NEXT: %cast = memref.cast %arg1 : memref<*xf32> to memref<*xf32>
// CHECK-NEXT: %cast_0 = memref.cast %arg3 : memref<*xf32, 1> to memref<*xf32, 1>
// CHECK-NEXT: return
// GENERIC: "func.func"() <{function_type = (memref<2x5xf32>, memref<*xf32>, memref<4xi8>, memref<*xf32, 1>) -> (), sym_name = "f"}> ({
func.func @f(%arg0: memref<2x5xf32, 0>, %arg1: memref<*xf32, 0>, %arg2: memref<4xi8, 0 : i32>, %arg3: memref<*xf32, 1>) {
  %cast = memref.cast %arg1 : memref<*xf32, 0> to memref<*xf32>
  %cast_0 = memref.cast %arg3 : memref<*xf32, 1> to memref<*xf32, 1>
  return
}
