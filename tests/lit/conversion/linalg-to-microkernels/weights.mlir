// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 tile-choice=default" | filecheck %s
// RUN: strata-opt %s --strata-linalg-to-microkernels=tile-choice=default | filecheck %s --check-prefix=NOPACK

// Constant weights are packed at compile time into panels of 4 columns (K x 4 each, zero
// padded), in a new global; the products call the packed kernel and the original
// globals, unread now, go. Bt (ONNX Gemm transB=1) is transposed first.
// CHECK-LABEL: module {
//  CHECK-NEXT: func.func private @strata_sgemm_packed_f32(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i32, i64)
//  CHECK-NEXT: memref.global "private" constant @w_packed : memref<16xf32> = dense_resource<w_packed> alignment = 64
//  CHECK-NEXT: memref.global "private" constant @wt_packed : memref<16xf32> = dense_resource<wt_packed> alignment = 64
//  CHECK-NEXT: memref.global "private" constant @shared_packed : memref<8xf32> = dense_resource<shared_packed> alignment = 64
//  CHECK-NEXT: memref.global "private" constant @shared : memref<2x3xf32>
//   CHECK-NOT: memref.global

// NOPACK-NOT: packed
// NOPACK: call @strata_sgemm_f32(
// NOPACK: call @strata_sgemm_nt_f32(
memref.global "private" constant @w : memref<2x5xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]]>
memref.global "private" constant @wt : memref<5x2xf32> = dense<[[1.0, 6.0], [2.0, 7.0], [3.0, 8.0], [4.0, 9.0], [5.0, 10.0]]>
memref.global "private" constant @shared : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>

// A batch of products with broadcast weights: one GEMM of 3 x 4 rows on packed(B).
// CHECK-LABEL: func.func @weights(
//  CHECK-NEXT: %0 = memref.get_global @w_packed : memref<16xf32>
//       CHECK: %c12_i64 = arith.constant 12 : i64
//  CHECK-NEXT: %c5_i64 = arith.constant 5 : i64
//  CHECK-NEXT: %c2_i64 = arith.constant 2 : i64
//  CHECK-NEXT: %c0_i64{{(_[0-9]+)?}} = arith.constant 0 : i64
//  CHECK-NEXT: call @strata_sgemm_packed_f32(%c12_i64, %c5_i64, %c2_i64, %2, %c2_i64, %4, %6, %c5_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
//       CHECK: memref.get_global @wt_packed : memref<16xf32>
//       CHECK: call @strata_sgemm_packed_f32(%c4_i64, %c5_i64_{{[0-9]+}}, %c2_i64_{{[0-9]+}},
//   CHECK-NOT: @w :
//   CHECK-NOT: @wt :
func.func @weights(%a: memref<3x4x2xf32>, %c: memref<3x4x5xf32>, %a2: memref<4x2xf32>, %c2: memref<4x5xf32>) {
  %w = memref.get_global @w : memref<2x5xf32>
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %w : memref<3x4x2xf32>, memref<2x5xf32>) outs(%c : memref<3x4x5xf32>)
  %wt = memref.get_global @wt : memref<5x2xf32>
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a2, %wt : memref<4x2xf32>, memref<5x2xf32>) outs(%c2 : memref<4x5xf32>)
  return
}

// A global also read by something else stays beside its packed copy.
// CHECK-LABEL: func.func @shared_weight(
//       CHECK: %0 = memref.get_global @shared_packed : memref<8xf32>
//  CHECK-NEXT: %1 = memref.get_global @shared : memref<2x3xf32>
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: memref.copy %1, %arg2
func.func @shared_weight(%a: memref<4x2xf32>, %c: memref<4x3xf32>, %d: memref<2x3xf32>) {
  %w = memref.get_global @shared : memref<2x3xf32>
  linalg.matmul ins(%a, %w : memref<4x2xf32>, memref<2x3xf32>) outs(%c : memref<4x3xf32>)
  memref.copy %w, %d : memref<2x3xf32> to memref<2x3xf32>
  return
}

// The packed data: panel 0 (columns 0-3) row by row, then panel 1 (column 4, padded).
// CHECK: w_packed: "0x40000000
// CHECK-SAME: 0000803F000000400000404000008040
// CHECK-SAME: 0000C0400000E0400000004100001041
// CHECK-SAME: 0000A040000000000000000000000000
// CHECK-SAME: 00002041000000000000000000000000"
// CHECK: wt_packed: "0x40000000
// CHECK-SAME: 0000803F000000400000404000008040
