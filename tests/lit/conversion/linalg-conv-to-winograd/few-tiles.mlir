// RUN: strata-opt %s --strata-linalg-conv-to-winograd="few-tiles=25 few-tiles-max-u=2048" | filecheck %s
// RUN: strata-opt %s --strata-linalg-conv-to-winograd | filecheck %s --check-prefix=OFF

// With few-tiles=T few-tiles-max-u=U, an image of fewer than T 2x2 output tiles keeps the
// direct product when its U (16 x F x C floats) is over U floats ([Note: Winograd on
// small images]). Here: 7x7 outputs have 16 tiles; a 16x16 filter's U is 4096 floats
// (direct), a 16x8 filter's 2048 (Winograd); a 9x9 output has 25 tiles (Winograd).
//   CHECK-LABEL: func.func @deep_small
//     CHECK-NOT: strata_conv2d_winograd_f32
//         CHECK: linalg.conv_2d_nchw_fchw
//     CHECK-NOT: strata_conv2d_winograd_f32
//         CHECK: return
//     OFF-LABEL: func.func @deep_small
//           OFF: call @strata_conv2d_winograd_f32
func.func @deep_small(%x: memref<1x16x9x9xf32>, %y: memref<1x16x7x7xf32>) {
  %w = memref.get_global @deep : memref<16x16x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x16x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x16x9x9xf32>, memref<16x16x3x3xf32>) outs(%y : memref<1x16x7x7xf32>)
  return
}

//   CHECK-LABEL: func.func @shallow_small
//         CHECK: call @strata_conv2d_winograd_f32
func.func @shallow_small(%x: memref<1x8x9x9xf32>, %y: memref<1x16x7x7xf32>) {
  %w = memref.get_global @shallow : memref<16x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x16x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%y : memref<1x16x7x7xf32>)
  return
}

//   CHECK-LABEL: func.func @deep_larger
//         CHECK: call @strata_conv2d_winograd_f32
func.func @deep_larger(%x: memref<1x16x11x11xf32>, %y: memref<1x16x9x9xf32>) {
  %w = memref.get_global @deep : memref<16x16x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x16x9x9xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x16x11x11xf32>, memref<16x16x3x3xf32>) outs(%y : memref<1x16x9x9xf32>)
  return
}
memref.global "private" constant @deep : memref<16x16x3x3xf32> = dense<1.0>
memref.global "private" constant @shallow : memref<16x8x3x3xf32> = dense<0.5>
