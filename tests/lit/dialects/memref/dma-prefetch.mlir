// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// Expected output: iree-opt's (custom and generic forms), line for line. dma_start reads
// its flat operand list by the ranks of its memrefs (the generic form below swaps
// source and destination).

// CHECK: module {
// CHECK-NEXT:   func.func @dma(%arg0: memref<8x4xf32>, %arg1: memref<32xf32, 1>, %arg2: memref<2xi32>, %arg3: index, %arg4: index) {
// CHECK-NEXT:     memref.dma_start %arg0[%arg3, %arg3], %arg1[%arg3], %arg4, %arg2[%arg3] : memref<8x4xf32>, memref<32xf32, 1>, memref<2xi32>
// CHECK-NEXT:     memref.dma_start %arg0[%arg3, %arg3], %arg1[%arg3], %arg4, %arg2[%arg3], %arg4, %arg3 : memref<8x4xf32>, memref<32xf32, 1>, memref<2xi32>
// CHECK-NEXT:     memref.dma_wait %arg2[%arg3], %arg4 : memref<2xi32>
// CHECK-NEXT:     memref.dma_start %arg1[%arg3], %arg0[%arg3, %arg3], %arg4, %arg2[%arg3] : memref<32xf32, 1>, memref<8x4xf32>, memref<2xi32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @prefetch(%arg0: memref<4x?xf16>, %arg1: index) {
// CHECK-NEXT:     memref.prefetch %arg0[%arg1, %arg1], read, locality<0>, instr : memref<4x?xf16>
// CHECK-NEXT:     memref.prefetch %arg0[%arg1, %arg1], write, locality<3>, data : memref<4x?xf16>
// CHECK-NEXT:     memref.prefetch %arg0[%arg1, %arg1], read, locality<2>, data : memref<4x?xf16>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @distinct(%arg0: memref<?xf32>, %arg1: memref<2xi8>, %arg2: memref<f64>) -> memref<?xf32> {
// CHECK-NEXT:     %0:3 = memref.distinct_objects %arg0, %arg1, %arg2 : memref<?xf32>, memref<2xi8>, memref<f64>
// CHECK-NEXT:     %1 = memref.distinct_objects %arg0 {x} : memref<?xf32>
// CHECK-NEXT:     return %0#0 : memref<?xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "memref.dma_start"(%arg5, %arg8, %arg8, %arg6, %arg8, %arg9, %arg7, %arg8) : (memref<8x4xf32>, index, index, memref<32xf32, 1>, index, index, memref<2xi32>, index) -> ()
// GENERIC: "memref.dma_start"(%arg5, %arg8, %arg8, %arg6, %arg8, %arg9, %arg7, %arg8, %arg9, %arg8) : (memref<8x4xf32>, index, index, memref<32xf32, 1>, index, index, memref<2xi32>, index, index, index) -> ()
// GENERIC: "memref.dma_wait"(%arg7, %arg8, %arg9) : (memref<2xi32>, index, index) -> ()
// GENERIC: "memref.dma_start"(%arg6, %arg8, %arg5, %arg8, %arg8, %arg9, %arg7, %arg8) : (memref<32xf32, 1>, index, memref<8x4xf32>, index, index, index, memref<2xi32>, index) -> ()
// GENERIC: "memref.prefetch"(%arg3, %arg4, %arg4) <{isDataCache = false, isWrite = false, localityHint = 0 : i32}> : (memref<4x?xf16>, index, index) -> ()
// GENERIC: "memref.prefetch"(%arg3, %arg4, %arg4) <{isDataCache = true, isWrite = true, localityHint = 3 : i32}> : (memref<4x?xf16>, index, index) -> ()
// GENERIC: "memref.prefetch"(%arg3, %arg4, %arg4) <{isDataCache = true, isWrite = false, localityHint = 2 : i32}> : (memref<4x?xf16>, index, index) -> ()
// GENERIC: %0:3 = "memref.distinct_objects"(%arg0, %arg1, %arg2) : (memref<?xf32>, memref<2xi8>, memref<f64>) -> (memref<?xf32>, memref<2xi8>, memref<f64>)
// GENERIC: %1 = "memref.distinct_objects"(%arg0) {x} : (memref<?xf32>) -> memref<?xf32>

func.func @dma(%src: memref<8x4xf32>, %dst: memref<32xf32, 1>, %tag: memref<2xi32>, %i: index, %n: index) {
  memref.dma_start %src[%i, %i], %dst[%i], %n, %tag[%i] : memref<8x4xf32>, memref<32xf32, 1>, memref<2xi32>
  memref.dma_start %src[%i, %i], %dst[%i], %n, %tag[%i], %n, %i : memref<8x4xf32>, memref<32xf32, 1>, memref<2xi32>
  memref.dma_wait %tag[%i], %n : memref<2xi32>
  "memref.dma_start"(%dst, %i, %src, %i, %i, %n, %tag, %i) : (memref<32xf32, 1>, index, memref<8x4xf32>, index, index, index, memref<2xi32>, index) -> ()
  return
}
func.func @prefetch(%m: memref<4x?xf16>, %i: index) {
  memref.prefetch %m[%i, %i], read, locality<0>, instr : memref<4x?xf16>
  memref.prefetch %m[%i, %i], write, locality<3>, data : memref<4x?xf16>
  "memref.prefetch"(%m, %i, %i) <{isDataCache = true, isWrite = false, localityHint = 2 : i32}> : (memref<4x?xf16>, index, index) -> ()
  return
}
func.func @distinct(%a: memref<?xf32>, %b: memref<2xi8>, %c: memref<f64>) -> memref<?xf32> {
  %0:3 = memref.distinct_objects %a, %b, %c : memref<?xf32>, memref<2xi8>, memref<f64>
  %1 = memref.distinct_objects %a {x} : memref<?xf32>
  return %0#0 : memref<?xf32>
}
