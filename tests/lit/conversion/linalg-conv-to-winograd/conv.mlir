// RUN: strata-opt %s --strata-linalg-conv-to-winograd | filecheck %s
// RUN: strata-opt %s --strata-linalg-conv-to-winograd=min-channels=4 | filecheck %s --check-prefix=FOUR
// RUN: strata-opt %s --strata-linalg-conv-to-winograd=fuse=false | filecheck %s --check-prefix=NOFUSE

// NOFUSE-LABEL: func.func @fused
//       NOFUSE: linalg.generic
//       NOFUSE: call @strata_conv2d_winograd_f32({{.*}}, %c1_i32, {{.*}}, %c0_i32)
//       NOFUSE: linalg.generic

// A 3x3 stride-1 convolution with a constant filter calls the Winograd kernel with the
// filter transformed at compile time (16 x F x C floats, a new global; the original
// stays: @kept reads it); the zero fill before it is erased (overwrite).
//       CHECK: func.func private @strata_conv2d_winograd_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32)
//  CHECK-NEXT: memref.global "private" constant @w_winograd : memref<1024xf32> = dense_resource<w_winograd> alignment = 64
//  CHECK-NEXT: memref.global "private" constant @w : memref<8x8x3x3xf32>
//  CHECK-NEXT: memref.global "private" constant @small : memref<4x8x3x3xf32>
//   CHECK-NOT: memref.global
memref.global "private" constant @w : memref<8x8x3x3xf32> = dense<1.0>
memref.global "private" constant @small : memref<4x8x3x3xf32> = dense<1.0>

// CHECK-LABEL: func.func @overwrite
//   CHECK-NOT: linalg.
//       CHECK: %[[U:.*]] = memref.get_global @w_winograd : memref<1024xf32>
//       CHECK: call @strata_conv2d_winograd_f32(%c2_i64, %c8_i64, %c10_i64, %c12_i64, %c8_i64, %c8_i64, %c10_i64, %c0_i64, %c0_i64, %{{.*}}, %c960_i64, %c120_i64, %c12_i64, %{{.*}}, %[[Y:.*]], %c640_i64, %c80_i64, %c10_i64, %c0_i32, %[[Y]], %[[Y]], %c0_i64, %c0_i64, %c0_i64, %c0_i32)
func.func @overwrite(%x: memref<2x8x10x12xf32>, %y: memref<2x8x8x10xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2x8x8x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x8x10x12xf32>, memref<8x8x3x3xf32>) outs(%y : memref<2x8x8x10xf32>)
  return
}

// Without a zero fill the kernel accumulates into the output (a bias); a second
// convolution with the same filter shares its transformed global.
// CHECK-LABEL: func.func @accumulate
//       CHECK: memref.get_global @w_winograd
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c1_i32, %{{.*}}, %{{.*}}, %c0_i64, %c0_i64, %c0_i64, %c0_i32)
func.func @accumulate(%x: memref<1x8x6x6xf32>, %y: memref<1x8x4x4xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// Not rewritten: stride 2, dilation 2, a filter that is an argument, fewer than
// min-channels output channels (4 < 8; with min-channels=4 it is rewritten).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: linalg.conv_2d_nchw_fchw
//   CHECK-NOT: strata_conv2d_winograd_f32
//  FOUR-LABEL: func.func @kept
//  FOUR-COUNT-3: linalg.conv_2d_nchw_fchw
//        FOUR: call @strata_conv2d_winograd_f32
func.func @kept(%x: memref<1x8x9x9xf32>, %arg: memref<8x8x3x3xf32>, %y: memref<1x8x4x4xf32>,
                %y7: memref<1x8x7x7xf32>, %y5: memref<1x8x5x5xf32>, %y4: memref<1x4x7x7xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %s = memref.get_global @small : memref<4x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x9x9xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x9x9xf32>, memref<8x8x3x3xf32>) outs(%y5 : memref<1x8x5x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %arg : memref<1x8x9x9xf32>, memref<8x8x3x3xf32>) outs(%y7 : memref<1x8x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %s : memref<1x8x9x9xf32>, memref<4x8x3x3xf32>) outs(%y4 : memref<1x4x7x7xf32>)
  return
}

// The bias broadcast before the convolution, and the residual add and ReLU after it,
// become the kernel's epilogue (flags 1 | 2 | 4 = 7): the kernel writes the generic's
// output (its alloc moves before the call), the conv's own buffer goes.
// CHECK-LABEL: func.func @fused
//   CHECK-NOT: linalg.generic
//       CHECK: %[[B:.*]] = memref.get_global @bias : memref<8xf32>
//       CHECK: %[[Z:.*]] = memref.alloc() : memref<1x8x4x4xf32>
//       CHECK: %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
//       CHECK: %[[RI:.*]] = memref.extract_aligned_pointer_as_index %arg1
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c6_i64, %c6_i64, %c8_i64, %c4_i64, %c4_i64, %c0_i64, %c0_i64, %{{.*}}, %c288_i64, %c36_i64, %c6_i64, %{{.*}}, %{{.*}}, %c128_i64, %c16_i64, %c4_i64, %c0_i32, %{{.*}}, %{{.*}}, %c128_i64, %c16_i64, %c4_i64, %c7_i32)
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[Z]]
memref.global "private" constant @bias : memref<8xf32> = dense<0.5>
func.func @fused(%x: memref<1x8x6x6xf32>, %r: memref<1x8x4x4xf32>) -> memref<1x8x4x4xf32> {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %b = memref.get_global @bias : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x8x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<8xf32>) outs(%y : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  %z = memref.alloc() : memref<1x8x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %r : memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x8x4x4xf32>
  return %z : memref<1x8x4x4xf32>
}

// Not fused: an epilogue that is not add/ReLU (a multiply); a ReLU after a convolution
// that accumulates into its output (the kernel must then write that buffer); fuse=false.
// CHECK-LABEL: func.func @unfused
//       CHECK: call @strata_conv2d_winograd_f32
//       CHECK: linalg.generic
//       CHECK: arith.mulf
func.func @unfused(%x: memref<1x8x6x6xf32>, %z: memref<1x8x4x4xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %y = memref.alloc() : memref<1x8x4x4xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x8x4x4xf32>
  return
}

// CHECK-LABEL: func.func @accumulating
//       CHECK: call @strata_conv2d_winograd_f32({{.*}}, %c1_i32, {{.*}}, %c0_i32)
//       CHECK: linalg.generic
//       CHECK: arith.maximumf
func.func @accumulating(%x: memref<1x8x6x6xf32>, %y: memref<1x8x4x4xf32>, %z: memref<1x8x4x4xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// ReLU'd output only padded for the next convolution (a zero-filled buffer, the output
// copied into its interior): the kernel writes the interior itself (its strides), the
// fill moves before the call and keeps to the border (rows 0 and 5, then columns 0 and 5
// of the rows between), the copy and the intermediate buffers go.
// CHECK-LABEL: func.func @padded
//       CHECK: %[[P:.*]] = memref.alloc() : memref<1x8x6x6xf32>
//  CHECK-NEXT: %[[T:.*]] = memref.subview %[[P]][0, 0, 0, 0] [1, 8, 1, 6] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] :
//  CHECK-NEXT: %[[B:.*]] = memref.subview %[[P]][0, 0, 5, 0] [1, 8, 1, 6] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] :
//  CHECK-NEXT: %[[L:.*]] = memref.subview %[[P]][0, 0, 1, 0] [1, 8, 4, 1] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[L]] :
//  CHECK-NEXT: %[[R:.*]] = memref.subview %[[P]][0, 0, 1, 5] [1, 8, 4, 1] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
//  CHECK-NEXT: %[[S:.*]] = memref.subview %[[P]][0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1]
//       CHECK: memref.extract_aligned_pointer_as_index %[[S]]
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c6_i64, %c6_i64, %c8_i64, %c4_i64, %c4_i64, %c0_i64, %c0_i64, %{{.*}}, %c288_i64, %c36_i64, %c6_i64, %{{.*}}, %{{.*}}, %c288_i64, %c36_i64, %c6_i64, %c0_i32, %{{.*}}, %{{.*}}, %c0_i64, %c0_i64, %c0_i64, %c4_i32)
//   CHECK-NOT: memref.copy
//   CHECK-NOT: memref.alloc
//       CHECK: return %[[P]]
func.func @padded(%x: memref<1x8x6x6xf32>) -> memref<1x8x6x6xf32> {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x8x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  %z = memref.alloc() : memref<1x8x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x8x4x4xf32>
  %p = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x6xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %z, %s : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.dealloc %z : memref<1x8x4x4xf32>
  return %p : memref<1x8x6x6xf32>
}

// An input that is a zero-filled copy of an image with its padding around it (a padded
// ONNX Conv, bufferized): the kernel reads the image (H = 4, W = 5: the source's) with
// pt = 1, pl = 2 ([Note: Winograd's padding]); the fill, the copy and the padded buffer
// go, the source's dealloc moves after the call.
// CHECK-LABEL: func.func @padded_input
//       CHECK: %[[X:.*]] = memref.alloc() : memref<1x8x4x5xf32>
//  CHECK-NEXT: memref.copy %arg0, %[[X]]
//   CHECK-NOT: memref.copy
//   CHECK-NOT: linalg.fill
//   CHECK-NOT: memref.alloc
//       CHECK: memref.extract_aligned_pointer_as_index %[[X]] :
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c4_i64, %c5_i64, %c8_i64, %c4_i64, %c6_i64, %c1_i64, %c2_i64, %{{.*}}, %c160_i64, %c20_i64, %c5_i64,
//  CHECK-NEXT: memref.dealloc %[[X]] : memref<1x8x4x5xf32>
//   CHECK-NOT: memref.alloc() : memref<1x8x6x8xf32>
//       CHECK: return
func.func @padded_input(%a: memref<1x8x4x5xf32>, %y: memref<1x8x4x6xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<1x8x4x5xf32>
  memref.copy %a, %x : memref<1x8x4x5xf32> to memref<1x8x4x5xf32>
  %p = memref.alloc() : memref<1x8x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x8xf32>)
  %s = memref.subview %p[0, 0, 1, 2] [1, 8, 4, 5] [1, 1, 1, 1] : memref<1x8x6x8xf32> to memref<1x8x4x5xf32, strided<[384, 48, 8, 1], offset: 10>>
  memref.copy %x, %s : memref<1x8x4x5xf32> to memref<1x8x4x5xf32, strided<[384, 48, 8, 1], offset: 10>>
  memref.dealloc %x : memref<1x8x4x5xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x8x4x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : memref<1x8x6x8xf32>, memref<8x8x3x3xf32>) outs(%y : memref<1x8x4x6xf32>)
  memref.dealloc %p : memref<1x8x6x8xf32>
  return
}

// The padded copy's source is the buffer the convolution writes (bufferization reusing
// it): the copy is the only one of the old values, so it stays and the kernel reads it.
// CHECK-LABEL: func.func @padded_source_written
//       CHECK: memref.copy %arg0, %{{.*}} : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided
//       CHECK: call @strata_conv2d_winograd_f32(%c1_i64, %c8_i64, %c6_i64, %c6_i64, %c8_i64, %c4_i64, %c4_i64, %c0_i64, %c0_i64,
func.func @padded_source_written(%a: memref<1x8x4x4xf32>) {
  %w = memref.get_global @w : memref<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x6xf32>)
  %s = memref.subview %p[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %a, %s : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  linalg.fill ins(%zero : f32) outs(%a : memref<1x8x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%a : memref<1x8x4x4xf32>)
  memref.dealloc %p : memref<1x8x6x6xf32>
  return
}
