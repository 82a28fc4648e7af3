// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 tile-choice=default" | filecheck %s

// A weight read through a reshape (a Reshape after the product split its columns in
// two): the columns collapse back, and the global's data, in the same order, is the
// K x N matrix packed (2 x 6 in panels of 4 columns); the view and the original go.
// CHECK-LABEL: module {
//  CHECK-NEXT: func.func private @strata_sgemm_packed_f32(
//  CHECK-NEXT: memref.global "private" constant @wv_packed : memref<16xf32> = dense_resource<wv_packed> alignment = 64
//   CHECK-NOT: memref.global
// CHECK-LABEL: func.func @viewed_weight(
//  CHECK-NEXT: %0 = memref.get_global @wv_packed : memref<16xf32>
//   CHECK-NOT: memref.expand_shape
//       CHECK: call @strata_sgemm_packed_f32(%c4_i64, %c6_i64, %c2_i64, %2, %c2_i64, %4, %6, %c6_i64, %c1_i32, %c0_i64{{(_[0-9]+)?}})
// Panel 0: rows [1 2 3 4], [7 8 9 10]; panel 1: [5 6 0 0], [11 12 0 0].
// CHECK: wv_packed: "0x40000000
// CHECK-SAME: 0000803F000000400000404000008040
// CHECK-SAME: 0000E040000000410000104100002041
// CHECK-SAME: 0000A0400000C0400000000000000000
// CHECK-SAME: 00003041000040410000000000000000"
memref.global "private" constant @wv : memref<2x6xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]]>
func.func @viewed_weight(%a: memref<4x2xf32>, %c: memref<4x2x3xf32>) {
  %w = memref.get_global @wv : memref<2x6xf32>
  %v = memref.expand_shape %w [[0], [1, 2]] output_shape [2, 2, 3] : memref<2x6xf32> into memref<2x2x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %v : memref<4x2xf32>, memref<2x2x3xf32>) outs(%c : memref<4x2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  }
  return
}
