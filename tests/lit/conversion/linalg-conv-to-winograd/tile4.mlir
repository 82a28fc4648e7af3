// RUN: strata-opt %s --strata-linalg-conv-to-winograd=tile4-min-tiles=5 | filecheck %s
// RUN: strata-opt %s --strata-linalg-conv-to-winograd | filecheck %s --check-prefix=OFF

// With tile4-min-tiles=K, images of at least K 4x4 output tiles run as F(4x4, 3x3):
// U is 36 x F x C floats (G g G^T, G 6 x 3) and the kernel gets flag 16 (TILE4).
// Here the 8x9 output has 2 x 3 tiles; the 6x5 one, 2 x 2, keeps F(2x2, 3x3): U 16 x F x C.
//   CHECK-DAG: memref.global "private" constant @big_winograd : memref<4608xf32>
//   CHECK-DAG: memref.global "private" constant @small_winograd : memref<2048xf32>
//         OFF: memref.global "private" constant @big_winograd : memref<2048xf32>
memref.global "private" constant @big : memref<16x8x3x3xf32> = dense<1.0>
memref.global "private" constant @small : memref<16x8x3x3xf32> = dense<0.5>

// CHECK-LABEL: func.func @tiles
//       CHECK: memref.get_global @big_winograd : memref<4608xf32>
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c16_i32)
//       CHECK: memref.get_global @small_winograd : memref<2048xf32>
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c0_i32{{(_[0-9]+)?}})
//   OFF-LABEL: func.func @tiles
//         OFF: call @strata_conv2d_winograd_f32({{.*}}, %c0_i32{{(_[0-9]+)?}})
func.func @tiles(%x: memref<1x8x10x11xf32>, %y: memref<1x16x8x9xf32>,
                 %x2: memref<1x8x8x7xf32>, %z: memref<1x16x6x5xf32>) {
  %w = memref.get_global @big : memref<16x8x3x3xf32>
  %n = memref.get_global @small : memref<16x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x16x8x9xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x10x11xf32>, memref<16x8x3x3xf32>) outs(%y : memref<1x16x8x9xf32>)
  linalg.fill ins(%zero : f32) outs(%z : memref<1x16x6x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x2, %n : memref<1x8x8x7xf32>, memref<16x8x3x3xf32>) outs(%z : memref<1x16x6x5xf32>)
  return
}
