// RUN: strata-opt %s --strata-linalg-to-microkernels="kernel-isa=avx2 num-threads=2 cache-sizes=32,512,32768" | filecheck %s
// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default | filecheck %s --check-prefix=DEFAULT

// The cost model's tile word of each call (strata/backends/cpu/cost_model.py), for AVX2
// kernels (MR x NR = 6 x 16), 2 threads and 32 KiB / 512 KiB / 32 MiB caches. Fields
// (see [Note: the tile word] in kernels_gemm.py): kc | mc << 16 | nc << 32 |
// slices << 48 | split << 52 | min_units << 54 | apack << 60.

// K = 384: two K blocks of 192 (not 256 + 128); 128 rows in one M block of 132;
// columns split by the run-time rule (its slices of 128 columns as the N block):
// 192 | 132 << 16 | 128 << 32.
// CHECK-LABEL: func.func @big(
//       CHECK: %[[W:.*]] = arith.constant 549764464832 : i64
//       CHECK: call @strata_sgemm_f32({{.*}}, %c1_i32, %[[W]])
func.func @big(%A: memref<128x384xf32>, %B: memref<384x512xf32>, %C: memref<128x512xf32>) {
  linalg.matmul ins(%A, %B : memref<128x384xf32>, memref<384x512xf32>) outs(%C : memref<128x512xf32>)
  return
}

// Two rows never reach the blocked driver: 0.
// CHECK-LABEL: func.func @few_rows(
//       CHECK: call @strata_sgemm_f32({{.*}}, %c1_i32, %c0_i64)
func.func @few_rows(%A: memref<2x384xf32>, %B: memref<384x512xf32>, %C: memref<2x512xf32>) {
  linalg.matmul ins(%A, %B : memref<2x384xf32>, memref<384x512xf32>) outs(%C : memref<2x512xf32>)
  return
}

// Rows known at run time only: the run-time split rule, the largest M block that fits
// L2 with K blocks of 200 (784 = 4 x 196): 200 | 192 << 16 | 1024 << 32.
// CHECK-LABEL: func.func @dynamic_rows(
//       CHECK: %[[W:.*]] = arith.constant 4398059094216 : i64
//       CHECK: call @strata_sgemm_f32(%{{.*}}, %c1024_i64, %c784_i64, {{.*}}, %[[W]])
func.func @dynamic_rows(%A: memref<?x784xf32>, %B: memref<784x1024xf32>, %C: memref<?x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<?x784xf32>, memref<784x1024xf32>) outs(%C : memref<?x1024xf32>)
  return
}

// A 3x3 convolution: K = 576 in three blocks of 192, 64 filters in one M block of 66,
// the pixels' slices (528 columns) as the N block: 192 | 66 << 16 | 528 << 32.
// CHECK-LABEL: func.func @conv(
//       CHECK: %[[W:.*]] = arith.constant 2267747057856 : i64
//       CHECK: call @strata_conv2d_nchw_f32({{.*}}, %c1_i32, %[[W]])
func.func @conv(%x: memref<1x64x58x58xf32>, %w: memref<64x64x3x3xf32>, %y: memref<1x64x56x56xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x64x58x58xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x56x56xf32>)
  return
}

// tile-choice=default: 0 everywhere (the kernels' built-in blocking and split).
// DEFAULT-COUNT-5: call @strata_{{.*}}, %c0_i64{{(_[0-9]+)?}}) :
// DEFAULT-NOT: arith.constant {{[1-9][0-9]*}} : i64{{$}}

// Few column panels (N = 96 < 2W / IN_PLACE_A_COST): A is read in place, the word's
// apack field APACK_NO on top of the blocks (K = 384 in two blocks of 192; the B block
// stays in L2, so A blocks of 132 rows) and the split (column slices of one panel, 3 a
// thread): 192 | 132 << 16 | 16 << 32 | 3 << 48 | 1 << 52 | 1 << 54 | 2 << 60.
// CHECK-LABEL: func.func @narrow(
//       CHECK: %[[W:.*]] = arith.constant 2329205501008806080 : i64
//       CHECK: call @strata_sgemm_f32({{.*}}, %c1_i32, %[[W]])
func.func @narrow(%A: memref<3136x384xf32>, %B: memref<384x96xf32>, %C: memref<3136x96xf32>) {
  linalg.matmul ins(%A, %B : memref<3136x384xf32>, memref<384x96xf32>) outs(%C : memref<3136x96xf32>)
  return
}
