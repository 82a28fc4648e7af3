// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default | filecheck %s
// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default --mlir-print-op-generic | strata-opt | filecheck %s

// The kernels are declared once, private, with their C ABI types.
// CHECK-LABEL: module {
//  CHECK-NEXT: func.func private @strata_sgemm_batched_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i32, i64)
//  CHECK-NEXT: func.func private @strata_sgemm_f32(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32, i64)
//  CHECK-NEXT: func.func private @strata_sgemm_nt_batched_f32(i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i32, i64)
//  CHECK-NEXT: func.func private @strata_sgemm_nt_f32(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32, i64)

// Static shapes: sizes and leading dimensions are constants; each base pointer is the
// aligned pointer as an !llvm.ptr; the init is accumulated into (accumulate = 1).
// CHECK-LABEL: func.func @matmul(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
//  CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
//  CHECK-NEXT: %intptr = memref.extract_aligned_pointer_as_index %arg0 : memref<4x8xf32> -> index
//  CHECK-NEXT: %0 = arith.index_cast %intptr : index to i64
//  CHECK-NEXT: %1 = llvm.inttoptr %0 : i64 to !llvm.ptr
//  CHECK-NEXT: %intptr_0 = memref.extract_aligned_pointer_as_index %arg1 : memref<8x16xf32> -> index
//  CHECK-NEXT: %2 = arith.index_cast %intptr_0 : index to i64
//  CHECK-NEXT: %3 = llvm.inttoptr %2 : i64 to !llvm.ptr
//  CHECK-NEXT: %intptr_1 = memref.extract_aligned_pointer_as_index %arg2 : memref<4x16xf32> -> index
//  CHECK-NEXT: %4 = arith.index_cast %intptr_1 : index to i64
//  CHECK-NEXT: %5 = llvm.inttoptr %4 : i64 to !llvm.ptr
//  CHECK-NEXT: %c4_i64 = arith.constant 4 : i64
//  CHECK-NEXT: %c16_i64 = arith.constant 16 : i64
//  CHECK-NEXT: %c8_i64 = arith.constant 8 : i64
//  CHECK-NEXT: %c0_i64{{(_[0-9]+)?}} = arith.constant 0 : i64
//  CHECK-NEXT: call @strata_sgemm_f32(%c4_i64, %c16_i64, %c8_i64, %1, %c8_i64, %3, %c16_i64, %5, %c16_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}}) : (i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32, i64) -> ()
//  CHECK-NEXT: return
func.func @matmul(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// A zero fill of the init just before is folded: accumulate = 0, the fill is erased.
// B indexed (n, k) (ONNX Gemm transB=1) -> the _nt kernel with B's row stride as ldb.
// A dynamic size comes from memref.extract_strided_metadata.
// CHECK-LABEL: func.func @fill_matmul_transpose_b(%arg0: memref<?x8xf32>, %arg1: memref<16x8xf32>) -> memref<?x16xf32> {
//   CHECK-NOT: linalg.fill
//       CHECK: %c0_i32 = arith.constant 0 : i32
//  CHECK-NEXT: %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %alloc : memref<?x16xf32> -> memref<f32>, index, index, index, index, index
//       CHECK: %6 = arith.index_cast %sizes#0 : index to i64
//  CHECK-NEXT: %c16_i64 = arith.constant 16 : i64
//  CHECK-NEXT: %c8_i64 = arith.constant 8 : i64
//  CHECK-NEXT: %c0_i64{{(_[0-9]+)?}} = arith.constant 0 : i64
//  CHECK-NEXT: call @strata_sgemm_nt_f32(%6, %c16_i64, %c8_i64, %1, %c8_i64, %3, %c8_i64, %5, %c16_i64, %c0_i32, %c0_i64{{(_[0-9]+)?}})
//   CHECK-NOT: linalg.
//       CHECK: return %alloc
func.func @fill_matmul_transpose_b(%A: memref<?x8xf32>, %B: memref<16x8xf32>) -> memref<?x16xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %d = memref.dim %A, %c0 : memref<?x8xf32>
  %C = memref.alloc(%d) : memref<?x16xf32>
  linalg.fill ins(%cst : f32) outs(%C : memref<?x16xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%A, %B : memref<?x8xf32>, memref<16x8xf32>) outs(%C : memref<?x16xf32>)
  return %C : memref<?x16xf32>
}

// A fill that is not +0.0, or with an op between that touches memory, stays.
// CHECK-LABEL: func.func @fills_kept(
//       CHECK: linalg.fill ins(%cst : f32)
//       CHECK: call @strata_sgemm_f32({{.*}}, %c1_i32, %c0_i64{{(_[0-9]+)?}})
//       CHECK: linalg.fill ins(%cst_0 : f32)
//  CHECK-NEXT: memref.copy
//       CHECK: call @strata_sgemm_f32({{.*}}, %c1_i32{{.*}}, %c0_i64{{(_[0-9]+)?}})
func.func @fills_kept(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>, %D: memref<4x16xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%one : f32) outs(%C : memref<4x16xf32>)
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  linalg.fill ins(%zero : f32) outs(%D : memref<4x16xf32>)
  memref.copy %D, %C : memref<4x16xf32> to memref<4x16xf32>
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%D : memref<4x16xf32>)
  return
}

// batch_matmul with B broadcast over the batch (ONNX MatMul 3-D x 2-D) and A's and C's
// rows contiguous across the batch: one GEMM of 2 x 4 rows. A dynamic stride and offset
// of B come from its metadata (pointer + 4 * offset).
// CHECK-LABEL: func.func @batch_matmul_broadcast(
//       CHECK: %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg1
//       CHECK: %intptr_0 = memref.extract_aligned_pointer_as_index %arg1
//  CHECK-NEXT: %c4 = arith.constant 4 : index
//  CHECK-NEXT: %2 = arith.muli %offset, %c4 : index
//  CHECK-NEXT: %3 = arith.addi %intptr_0, %2 : index
//       CHECK: %c8_i64 = arith.constant 8 : i64
//  CHECK-NEXT: %c16_i64 = arith.constant 16 : i64
//  CHECK-NEXT: %8 = arith.index_cast %strides#0 : index to i64
//  CHECK-NEXT: %c0_i64{{(_[0-9]+)?}} = arith.constant 0 : i64
//  CHECK-NEXT: call @strata_sgemm_f32(%c8_i64, %c16_i64, %c8_i64, %1, %c8_i64, %5, %8, %7, %c16_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
func.func @batch_matmul_broadcast(%A: memref<2x4x8xf32>, %B: memref<8x16xf32, strided<[?, 1], offset: ?>>, %C: memref<2x4x16xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%A, %B : memref<2x4x8xf32>, memref<8x16xf32, strided<[?, 1], offset: ?>>) outs(%C : memref<2x4x16xf32>)
  return
}

// When A's batches are not one after another, the batched kernel, B's batch stride 0.
// CHECK-LABEL: func.func @batch_matmul_broadcast_strided(
//       CHECK: call @strata_sgemm_batched_f32(%c2_i64, %c4_i64, %c16_i64, %c8_i64, %1, %c8_i64, %c40_i64, %3, %c16_i64, %c0_i64, %5, %c16_i64, %c64_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
func.func @batch_matmul_broadcast_strided(%A: memref<2x4x8xf32, strided<[40, 8, 1]>>, %B: memref<8x16xf32>, %C: memref<2x4x16xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%A, %B : memref<2x4x8xf32, strided<[40, 8, 1]>>, memref<8x16xf32>) outs(%C : memref<2x4x16xf32>)
  return
}

// Two batch dims (attention's batch and heads, as fusion leaves them) collapse into one
// batch of 2 x 4; B broadcast along both with A's and C's rows contiguous: one GEMM of
// 2 x 4 x 6 rows. A B broadcast along the first batch dim only cannot collapse it with
// the second: an scf.for over the first around the batched kernel (pointers advanced by
// the first dim's strides in bytes: A 192 x 4, C 144 x 4; B does not move).
// CHECK-LABEL: func.func @two_batch_dims(
//       CHECK: %c8_i64 = arith.constant 8 : i64
//       CHECK: call @strata_sgemm_nt_batched_f32(%c8_i64, %c6_i64, %c6_i64, %c8_i64, %1, %c8_i64, %c48_i64, %3, %c8_i64, %c48_i64, %5, %c6_i64, %c36_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
//       CHECK: call @strata_sgemm_f32(%c48_i64_{{[0-9]+}}, %c6_i64_{{[0-9]+}}, %c8_i64_{{[0-9]+}},
//       CHECK: %c768 = arith.constant 768 : index
//  CHECK-NEXT: %c576 = arith.constant 576 : index
//  CHECK-NEXT: %[[A:.*]] = memref.extract_aligned_pointer_as_index %arg0
//  CHECK-NEXT: %[[B:.*]] = memref.extract_aligned_pointer_as_index %arg4
//  CHECK-NEXT: %[[C:.*]] = memref.extract_aligned_pointer_as_index %arg2
//       CHECK: scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
//  CHECK-NEXT:   %[[OA:.*]] = arith.muli %[[I]], %c768 : index
//  CHECK-NEXT:   %[[PA:.*]] = arith.addi %[[A]], %[[OA]] : index
//  CHECK-NEXT:   %[[OC:.*]] = arith.muli %[[I]], %c576 : index
//  CHECK-NEXT:   %[[PC:.*]] = arith.addi %[[C]], %[[OC]] : index
//  CHECK-NEXT:   arith.index_cast %[[PA]]
//  CHECK-NEXT:   llvm.inttoptr
//  CHECK-NEXT:   arith.index_cast %[[B]]
//  CHECK-NEXT:   llvm.inttoptr
//  CHECK-NEXT:   arith.index_cast %[[PC]]
//  CHECK-NEXT:   llvm.inttoptr
//  CHECK-NEXT:   func.call @strata_sgemm_batched_f32(%c4_i64, %c6_i64_{{[0-9]+}}, %c6_i64_{{[0-9]+}}, %c8_i64_{{[0-9]+}}, %{{.*}}, %c8_i64_{{[0-9]+}}, %c48_i64_{{[0-9]+}}, %{{.*}}, %c6_i64_{{[0-9]+}}, %c48_i64_{{[0-9]+}}, %{{.*}}, %c6_i64_{{[0-9]+}}, %c36_i64_{{[0-9]+}}, %c1_i32_{{[0-9]+}}, %c0_i64{{(_[0-9]+)?}})
//  CHECK-NEXT: }
//   CHECK-NOT: linalg.
func.func @two_batch_dims(%q: memref<2x4x6x8xf32>, %k: memref<2x4x6x8xf32>, %s: memref<2x4x6x6xf32>, %w: memref<8x6xf32>, %wh: memref<4x8x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x4x6x8xf32>, memref<2x4x6x8xf32>) outs(%s : memref<2x4x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %w : memref<2x4x6x8xf32>, memref<8x6xf32>) outs(%s : memref<2x4x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %wh : memref<2x4x6x8xf32>, memref<4x8x6xf32>) outs(%s : memref<2x4x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  }
  return
}

// Batch dims broadcast ONNX's way (maps reading a size-1 dim at 0): the heads (B's)
// are the kernel's batch, A's batch stride 0; the first dim (B broadcast along it)
// cannot collapse with them: a loop (A's pointer + 35 x 4 bytes, C's + 60 x 4).
// CHECK-LABEL: func.func @broadcast_batch_dims(
//       CHECK: %c140 = arith.constant 140 : index
//  CHECK-NEXT: %c240 = arith.constant 240 : index
//       CHECK: scf.for %arg3 = %c0 to %c2 step %c1 {
//       CHECK:   func.call @strata_sgemm_batched_f32(%c3_i64, %c5_i64, %c4_i64, %c7_i64, %5, %c7_i64, %c0_i64, %7, %c4_i64, %c28_i64, %9, %c4_i64, %c20_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
func.func @broadcast_batch_dims(%a: memref<2x1x5x7xf32>, %b: memref<1x3x7x4xf32>, %c: memref<2x3x5x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x1x5x7xf32>, memref<1x3x7x4xf32>) outs(%c : memref<2x3x5x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  }
  return
}

// Dynamic batch dims (attention's batch and heads): identity layouts collapse at run
// time (batch = sizes#0 * sizes#1); the zero fill of the buffer the init views is folded.
// CHECK-LABEL: func.func @dynamic_batch_dims(
//   CHECK-NOT: linalg.fill
//       CHECK: %c0_i32 = arith.constant 0 : i32
//  CHECK-NEXT: %base_buffer, %offset, %sizes:4, %strides:4 = memref.extract_strided_metadata %expand_shape
//  CHECK-NEXT: %0 = arith.muli %sizes#0, %sizes#1 : index
//       CHECK: %7 = arith.index_cast %0 : index to i64
//       CHECK: call @strata_sgemm_batched_f32(%7, %c128_i64, %c128_i64, %c32_i64, %2, %c32_i64, %c4096_i64, %4, %c128_i64, %c4096_i64, %6, %c128_i64, %c16384_i64, %c0_i32, %c0_i64{{(_[0-9]+)?}})
func.func @dynamic_batch_dims(%q: memref<?x?x128x32xf32>, %k: memref<?x?x32x128xf32>, %s: memref<?x128x128xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  linalg.fill ins(%cst : f32) outs(%s : memref<?x128x128xf32>)
  %d0 = memref.dim %q, %c0 : memref<?x?x128x32xf32>
  %d1 = memref.dim %q, %c1 : memref<?x?x128x32xf32>
  %e = memref.expand_shape %s [[0, 1], [2], [3]] output_shape [%d0, %d1, 128, 128] : memref<?x128x128xf32> into memref<?x?x128x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<?x?x128x32xf32>, memref<?x?x32x128xf32>) outs(%e : memref<?x?x128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  }
  return
}

// Columns split in two (a Reshape after the product) and the reduction split in two
// (one before it): each collapses back into one dim: plain GEMMs of 32 x 64 x 64.
// CHECK-LABEL: func.func @split_n_and_k(
//       CHECK: call @strata_sgemm_f32(%c32_i64, %c64_i64, %c64_i64, %1, %c64_i64, %3, %c64_i64, %5, %c64_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
//       CHECK: call @strata_sgemm_f32(%c32_i64_6, %c64_i64_7, %c64_i64_7, %7, %c64_i64_7, %9, %c64_i64_7, %11, %c64_i64_7, %c1_i32_2, %c0_i64{{(_[0-9]+)?}})
//   CHECK-NOT: linalg.
func.func @split_n_and_k(%x: memref<2x16x64xf32>, %w: memref<64x4x16xf32>, %y: memref<2x16x4x16xf32>, %w2: memref<4x16x64xf32>, %z: memref<2x16x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<2x16x64xf32>, memref<64x4x16xf32>) outs(%y : memref<2x16x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%y, %w2 : memref<2x16x4x16xf32>, memref<4x16x64xf32>) outs(%z : memref<2x16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  }
  return
}

// A static offset is added as a constant number of bytes.
// CHECK-LABEL: func.func @static_offset(
//       CHECK: %intptr = memref.extract_aligned_pointer_as_index %arg0 : memref<4x8xf32, strided<[10, 1], offset: 3>> -> index
//  CHECK-NEXT: %c12 = arith.constant 12 : index
//  CHECK-NEXT: %0 = arith.addi %intptr, %c12 : index
//       CHECK: call @strata_sgemm_f32(%c4_i64, %c16_i64, %c8_i64, %2, %c10_i64,
func.func @static_offset(%A: memref<4x8xf32, strided<[10, 1], offset: 3>>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32, strided<[10, 1], offset: 3>>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// A linalg.generic in matmul form (any operand order in the payload), and a batched
// product with B transposed (attention's Q.K^T).
// CHECK-LABEL: func.func @generic_forms(
//       CHECK: call @strata_sgemm_f32(
//       CHECK: call @strata_sgemm_nt_batched_f32(%c3_i64, %c4_i64_6, %c5_i64, %[[K:.*]], %7, %[[K]], %c32_i64, %9, %[[K]], %c40_i64, %11, %c5_i64, %c20_i64, %c1_i32_2, %c0_i64{{(_[0-9]+)?}})
//   CHECK-NOT: linalg.
func.func @generic_forms(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>, %Q: memref<3x4x8xf32>, %K: memref<3x5x8xf32>, %S: memref<3x4x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  }
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%Q, %K : memref<3x4x8xf32>, memref<3x5x8xf32>) outs(%S : memref<3x4x5xf32>)
  return
}

// Left for the loops: other element types, A transposed, a non-unit inner stride, a
// payload that is not multiply-add, two reduction loops.
// CHECK-LABEL: func.func @not_matched(
//  CHECK-NEXT: linalg.matmul ins(%arg0, %arg1 : memref<4x8xf64>, memref<8x16xf64>)
//  CHECK-NEXT: linalg.matmul indexing_maps
//  CHECK-NEXT: linalg.matmul ins(%arg4, %arg3
//  CHECK-NEXT: linalg.generic
//       CHECK: linalg.batch_reduce_matmul
//   CHECK-NOT: call
func.func @not_matched(%A64: memref<4x8xf64>, %B64: memref<8x16xf64>, %C64: memref<4x16xf64>, %B: memref<8x16xf32>, %As: memref<4x8xf32, strided<[16, 2]>>, %C: memref<4x16xf32>, %At: memref<8x4xf32>, %A3: memref<2x4x8xf32>, %B3: memref<2x8x16xf32>) {
  linalg.matmul ins(%A64, %B64 : memref<4x8xf64>, memref<8x16xf64>) outs(%C64 : memref<4x16xf64>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%At, %B : memref<8x4xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  linalg.matmul ins(%As, %B : memref<4x8xf32, strided<[16, 2]>>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%As, %B : memref<4x8xf32, strided<[16, 2]>>, memref<8x16xf32>) outs(%C : memref<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.maximumf %c, %m : f32
    linalg.yield %s : f32
  }
  linalg.batch_reduce_matmul ins(%A3, %B3 : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}
