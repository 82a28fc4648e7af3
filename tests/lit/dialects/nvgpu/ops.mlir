// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The nvgpu dialect's tensor core ops in custom and generic form. The CHECK and GENERIC
// lines are what iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: module {
// CHECK-NEXT:   func.func @f(%arg0: memref<64x64xf16, 3>, %arg1: index, %arg2: vector<4x2xf16>, %arg3: vector<2x2xf16>, %arg4: vector<2x2xf32>, %arg5: vector<4x1xf32>, %arg6: vector<2x1xf32>, %arg7: vector<2x2xf16>, %arg8: memref<16x32xbf16, #gpu.address_space<workgroup>>) -> (vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>) {
// CHECK-NEXT:     %0 = nvgpu.ldmatrix %arg0[%arg1, %arg1] numTiles = 4 transpose = false : memref<64x64xf16, 3> -> vector<4x2xf16>
// CHECK-NEXT:     %1 = nvgpu.ldmatrix %arg0[%arg1, %arg1] numTiles = 2 transpose = true : memref<64x64xf16, 3> -> vector<2x2xf16>
// CHECK-NEXT:     %2 = nvgpu.ldmatrix %arg8[%arg1, %arg1] numTiles = 1 transpose = false : memref<16x32xbf16, #gpu.address_space<workgroup>> -> vector<1x2xbf16>
// CHECK-NEXT:     %3 = nvgpu.mma.sync(%arg2, %arg3, %arg4) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NEXT:     %4 = nvgpu.mma.sync(%arg5, %arg6, %arg4) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NEXT:     %5 = nvgpu.mma.sync(%arg2, %arg3, %arg7) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// CHECK-NEXT:     return %0, %3, %4, %1, %5, %2 : vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (memref<64x64xf16, 3>, index, vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>, vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf16>, memref<16x32xbf16, #gpu.address_space<workgroup>>) -> (vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>), sym_name = "f"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: memref<64x64xf16, 3>, %arg1: index, %arg2: vector<4x2xf16>, %arg3: vector<2x2xf16>, %arg4: vector<2x2xf32>, %arg5: vector<4x1xf32>, %arg6: vector<2x1xf32>, %arg7: vector<2x2xf16>, %arg8: memref<16x32xbf16, #gpu.address_space<workgroup>>):
// GENERIC-NEXT:     %0 = "nvgpu.ldmatrix"(%arg0, %arg1, %arg1) <{numTiles = 4 : i32, transpose = false}> : (memref<64x64xf16, 3>, index, index) -> vector<4x2xf16>
// GENERIC-NEXT:     %1 = "nvgpu.ldmatrix"(%arg0, %arg1, %arg1) <{numTiles = 2 : i32, transpose = true}> : (memref<64x64xf16, 3>, index, index) -> vector<2x2xf16>
// GENERIC-NEXT:     %2 = "nvgpu.ldmatrix"(%arg8, %arg1, %arg1) <{numTiles = 1 : i32, transpose = false}> : (memref<16x32xbf16, #gpu.address_space<workgroup>>, index, index) -> vector<1x2xbf16>
// GENERIC-NEXT:     %3 = "nvgpu.mma.sync"(%arg2, %arg3, %arg4) <{mmaShape = [16, 8, 16]}> : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// GENERIC-NEXT:     %4 = "nvgpu.mma.sync"(%arg5, %arg6, %arg4) <{mmaShape = [16, 8, 8], tf32Enabled}> : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// GENERIC-NEXT:     %5 = "nvgpu.mma.sync"(%arg2, %arg3, %arg7) <{mmaShape = [16, 8, 16]}> : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// GENERIC-NEXT:     "func.return"(%0, %3, %4, %1, %5, %2) : (vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

func.func @f(%sm: memref<64x64xf16, 3>, %i: index, %a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %at: vector<4x1xf32>, %bt: vector<2x1xf32>, %ch: vector<2x2xf16>, %wg: memref<16x32xbf16, #gpu.address_space<workgroup>>) -> (vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>) {
  %r = nvgpu.ldmatrix %sm[%i, %i] numTiles = 4 transpose = false : memref<64x64xf16, 3> -> vector<4x2xf16>
  %r2 = nvgpu.ldmatrix %sm[%i, %i] numTiles = 2 transpose = true : memref<64x64xf16, 3> -> vector<2x2xf16>
  %r3 = nvgpu.ldmatrix %wg[%i, %i] numTiles = 1 transpose = false : memref<16x32xbf16, #gpu.address_space<workgroup>> -> vector<1x2xbf16>
  %d = nvgpu.mma.sync (%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %e = nvgpu.mma.sync (%at, %bt, %c) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %h = nvgpu.mma.sync (%a, %b, %ch) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return %r, %d, %e, %r2, %h, %r3 : vector<4x2xf16>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<1x2xbf16>
}
