// RUN: strata-opt %s --strata-linalg-conv-to-winograd=panel-width=8 | filecheck %s
// RUN: strata-opt %s --strata-linalg-conv-to-winograd | filecheck %s --check-prefix=ROWS

// With panel-width=NR, filters of two panels (2 * NR) and 32 input channels up are
// transformed into the PACKED_U layout: each U[xi]^T in panels of NR filters (16 x
// ceil(F / NR) x C x NR floats, zero padded), flag 8 for the kernel's transposed
// products. Smaller filters keep the row-major layout (16 x F x C).
//   CHECK-DAG: memref.global "private" constant @wide_winograd : memref<12288xf32>
//   CHECK-DAG: memref.global "private" constant @narrow_winograd : memref<6144xf32>
//        ROWS: memref.global "private" constant @wide_winograd : memref<10240xf32>
memref.global "private" constant @wide : memref<20x32x3x3xf32> = dense<1.0>
memref.global "private" constant @narrow : memref<12x32x3x3xf32> = dense<1.0>

// CHECK-LABEL: func.func @packed
//       CHECK: memref.get_global @wide_winograd : memref<12288xf32>
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c8_i32)
//       CHECK: memref.get_global @narrow_winograd : memref<6144xf32>
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c0_i32{{(_[0-9]+)?}})
//  ROWS-LABEL: func.func @packed
//        ROWS: call @strata_conv2d_winograd_f32({{.*}}, %c0_i32{{(_[0-9]+)?}})
func.func @packed(%x: memref<1x32x6x6xf32>, %y: memref<1x20x4x4xf32>, %z: memref<1x12x4x4xf32>) {
  %w = memref.get_global @wide : memref<20x32x3x3xf32>
  %n = memref.get_global @narrow : memref<12x32x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x20x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x32x6x6xf32>, memref<20x32x3x3xf32>) outs(%y : memref<1x20x4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%z : memref<1x12x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %n : memref<1x32x6x6xf32>, memref<12x32x3x3xf32>) outs(%z : memref<1x12x4x4xf32>)
  return
}
