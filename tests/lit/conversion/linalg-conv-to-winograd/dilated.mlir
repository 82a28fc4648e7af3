// RUN: strata-opt %s --strata-linalg-conv-to-winograd | filecheck %s

// [Note: dilated convolutions as a mosaic]: a 3x3 stride-1 convolution dilated by 2
// runs as the undilated kernel on the mosaic of the image's 2 x 2 phases (blocks of
// q + 2 = 10 rows and columns, q = 16 / 2). The blocks are full: one generic copies all
// phases (the image viewed 10x2 x 10x2, the mosaic 2x10 x 2x10); the kernel writes the
// valid 18x18 result into a 20x20 buffer (whole blocks, row stride 20), and one generic
// copies each block's 8x8 outputs to every second row and column of the output; both
// scratch buffers go after.
memref.global "private" constant @w : memref<8x8x3x3xf32> = dense<1.0>
memref.global "private" constant @bias : memref<8xf32> = dense<0.5>

//       CHECK: #[[SWAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d2, d5, d4)>
//       CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @mosaic
//   CHECK-NOT: linalg.fill
//       CHECK: %[[Q:.*]] = memref.alloc() {{.*}} : memref<1x8x20x20xf32>
//       CHECK: %[[Q6:.*]] = memref.expand_shape %[[Q]] {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 8, 2, 10, 2, 10]
//       CHECK: %[[X6:.*]] = memref.expand_shape %arg0 {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 8, 10, 2, 10, 2]
//       CHECK: linalg.generic {indexing_maps = [#[[SWAP]], #[[ID]]], {{.*}} ins(%[[X6]] : {{.*}}) outs(%[[Q6]] :
//       CHECK: %[[R:.*]] = memref.alloc() {{.*}} : memref<1x8x20x20xf32>
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c20_i64, %c20_i64, %c8_i64, %c18_i64, %c18_i64, %{{.*}}, %c3200_i64, %c400_i64, %c20_i64, %{{.*}}, %{{.*}}, %c3200_i64, %c400_i64, %c20_i64, %c0_i32, {{.*}}, %c0_i32)
//       CHECK: %[[R6:.*]] = memref.expand_shape %[[R]] {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 8, 2, 10, 2, 10]
//       CHECK: %[[B:.*]] = memref.subview %[[R6]][0, 0, 0, 0, 0, 0] [1, 8, 2, 8, 2, 8] [1, 1, 1, 1, 1, 1]
//       CHECK: %[[Y6:.*]] = memref.expand_shape %arg1 {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 8, 8, 2, 8, 2]
//       CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[SWAP]]], {{.*}} ins(%[[B]] : {{.*}}) outs(%[[Y6]] :
//   CHECK-NOT: memref.copy
//       CHECK: memref.dealloc %[[Q]]
//       CHECK: memref.dealloc %[[R]]
//  CHECK-NEXT: return
func.func @mosaic(%x: memref<1x8x20x20xf32>, %y: memref<1x8x16x16xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x16x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x20x20xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x16x16xf32>)
  return
}

// An odd output (15 rows: phase 0 has 8, phase 1 has 7) over an image one row short of
// the mosaic's: the blocks are zero-filled first (Winograd's tiles mix all 16 inputs of
// their patch: never garbage), and each phase is copied on its own, in and out; dilation 2 along H only, 1 along W (blocks as wide as the
// image, 16 + 2 columns). The bias broadcast is the kernel's (flag 1); the residual add
// and ReLU after it stay a generic (a residual is not read through the mosaic).
// CHECK-LABEL: func.func @odd_bias_residual
//       CHECK: %[[Q:.*]] = memref.alloc() {{.*}} : memref<1x8x20x18xf32>
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[Q]] : memref<1x8x20x18xf32>)
//       CHECK: memref.subview %arg0[0, 0, 0, 0] [1, 8, 10, 18] [1, 1, 2, 1]
//       CHECK: memref.subview %arg0[0, 0, 1, 0] [1, 8, 9, 18] [1, 1, 2, 1]
//       CHECK: memref.subview %[[Q]][0, 0, 10, 0] [1, 8, 9, 18] [1, 1, 1, 1]
//       CHECK: %[[R:.*]] = memref.alloc() {{.*}} : memref<1x8x20x18xf32>
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c20_i64, %c18_i64, %c8_i64, %c18_i64, %c16_i64, {{.*}}, %c1_i32)
//       CHECK: memref.subview %[[R]][0, 0, 0, 0] [1, 8, 8, 16] [1, 1, 1, 1]
//       CHECK: memref.subview %{{.*}}[0, 0, 0, 0] [1, 8, 8, 16] [1, 1, 2, 1]
//       CHECK: memref.subview %[[R]][0, 0, 10, 0] [1, 8, 7, 16] [1, 1, 1, 1]
//       CHECK: memref.subview %{{.*}}[0, 0, 1, 0] [1, 8, 7, 16] [1, 1, 2, 1]
//       CHECK: linalg.generic
//       CHECK: arith.addf
//       CHECK: arith.maximumf
func.func @odd_bias_residual(%x: memref<1x8x19x18xf32>, %r: memref<1x8x15x16xf32>) -> memref<1x8x15x16xf32> {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %b = memref.get_global @bias : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x8x15x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<8xf32>) outs(%y : memref<1x8x15x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x19x18xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x15x16xf32>)
  %z = memref.alloc() : memref<1x8x15x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %r : memref<1x8x15x16xf32>, memref<1x8x15x16xf32>) outs(%z : memref<1x8x15x16xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x8x15x16xf32>
  return %z : memref<1x8x15x16xf32>
}

// Kept direct: a dilation whose mosaic's seams would cost more than MOSAIC_MAX_AREA
// (6 on a 32x32 output: 46x46 results), and a convolution accumulating into its output
// (no zero fill, no bias: the mosaic's result cannot be added through).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
//   CHECK-NOT: strata_conv2d_winograd_f32
func.func @kept(%x: memref<1x8x44x44xf32>, %y: memref<1x8x32x32xf32>,
                %x2: memref<1x8x20x20xf32>, %y2: memref<1x8x16x16xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x32x32xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<6> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x44x44xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x32x32xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x2, %w : memref<1x8x20x20xf32>, memref<8x8x3x3xf32>) outs(%y2 : memref<1x8x16x16xf32>)
  return
}

// A dynamic batch: the same mosaic, the batch read once from the image and given to the
// scratch buffers, the views and the kernel (whole blocks: one generic each way).
// CHECK-LABEL: func.func @mosaic_dynamic_batch
//       CHECK: %{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %[[M:[a-z_0-9]*]]:4, %{{.*}}:4 = memref.extract_strided_metadata %arg0
//       CHECK: %[[Q:.*]] = memref.alloc(%[[M]]#0) {{.*}} : memref<?x8x20x20xf32>
//       CHECK: memref.expand_shape %[[Q]] {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [%{{.*}}, 8, 2, 10, 2, 10]
//       CHECK: memref.expand_shape %arg0 {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [%[[M]]#0, 8, 10, 2, 10, 2]
//       CHECK: linalg.generic
//       CHECK: %[[R:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?x8x20x20xf32>
//       CHECK: call @strata_conv2d_winograd_f32(%{{.*}}, %c8_i64, %c20_i64, %c20_i64, %c8_i64, %c18_i64, %c18_i64,
//       CHECK: memref.expand_shape %[[R]]
//       CHECK: memref.expand_shape %arg1
//       CHECK: linalg.generic
//   CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @mosaic_dynamic_batch(%x: memref<?x8x20x20xf32>, %y: memref<?x8x16x16xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<?x8x16x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x8x20x20xf32>, memref<8x8x3x3xf32>) outs(%y : memref<?x8x16x16xf32>)
  return
}

// A dynamic batch on the odd path: the zero-filled blocks and the copies of each phase
// take the batch as their size.
// CHECK-LABEL: func.func @odd_dynamic_batch
//       CHECK: %{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %[[M:[a-z_0-9]*]]:4, %{{.*}}:4 = memref.extract_strided_metadata %arg0
//       CHECK: %[[Q:.*]] = memref.alloc(%[[M]]#0) {{.*}} : memref<?x8x20x18xf32>
//       CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[Q]] : memref<?x8x20x18xf32>)
//       CHECK: memref.subview %arg0[0, 0, 0, 0] [%[[M]]#0, 8, 10, 18] [1, 1, 2, 1]
//       CHECK: memref.subview %arg0[0, 0, 1, 0] [%[[M]]#0, 8, 9, 18] [1, 1, 2, 1]
//       CHECK: call @strata_conv2d_winograd_f32(
//       CHECK: memref.subview %{{.*}}[0, 0, 1, 0] [%{{.*}}, 8, 7, 16] [1, 1, 2, 1]
func.func @odd_dynamic_batch(%x: memref<?x8x19x18xf32>, %y: memref<?x8x15x16xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<?x8x15x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x8x19x18xf32>, memref<8x8x3x3xf32>) outs(%y : memref<?x8x15x16xf32>)
  return
}
