// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 tile-choice=default" | filecheck %s

// A product on packed weights followed by an elementwise bias add and/or ReLU
// (max(x, +0.0)) of its result calls strata_sgemm_packed_epi_f32: the kernel applies
// them with its last K block (flags: 1 bias, the activation code << 4: 16 ReLU) and writes the generic's output;
// the generic and the product's own buffer go. A bias broadcast into the product's init
// before it becomes the epilogue's bias too (the product then overwrites).
//       CHECK: func.func private @strata_sgemm_packed_epi_f32(i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr, i32, i64)
// (the constant biases of @plus_zero and @minus_two_relu, below)
//       CHECK: memref.global "private" constant @[[ZERO:w_bias[_0-9]*]] : memref<6xf32> = dense_resource<[[ZERO]]>
//       CHECK: memref.global "private" constant @[[MTWO:w_bias[_0-9]*]] : memref<6xf32> = dense_resource<[[MTWO]]>
memref.global "private" constant @w : memref<8x6xf32> = dense<1.0>
memref.global "private" constant @b : memref<6xf32> = dense<0.5>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @bias_relu(
//   CHECK-NOT: linalg.
//       CHECK: %[[B:.*]] = memref.get_global @b : memref<6xf32>
//       CHECK: %[[D:.*]] = memref.alloc() : memref<4x6xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32(%c4_i64, %c6_i64, %c8_i64, %{{.*}}, %c8_i64, %{{.*}}, %{{.*}}, %c6_i64, %c0_i32, %{{.*}}, %c17_i32, %c0_i64)
//   CHECK-NOT: linalg.
//   CHECK-NOT: memref.alloc
//       CHECK: return %[[D]]
func.func @bias_relu(%a: memref<4x8xf32>) -> memref<4x6xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %b = memref.get_global @b : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  %d = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : memref<4x6xf32>, memref<6xf32>) outs(%d : memref<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<4x6xf32>
  return %d : memref<4x6xf32>
}

// The bias as the product's init, then a ReLU in place: flags 17, overwriting.
// CHECK-LABEL: func.func @init_bias_relu(
//   CHECK-NOT: linalg.
//       CHECK: call @strata_sgemm_packed_epi_f32(%c4_i64, %c6_i64, %c8_i64, %{{.*}}, %c8_i64, %{{.*}}, %{{.*}}, %c6_i64, %c0_i32, %{{.*}}, %c17_i32, %c0_i64)
//   CHECK-NOT: linalg.
func.func @init_bias_relu(%a: memref<4x8xf32>, %c: memref<4x6xf32>) {
  %w = memref.get_global @w : memref<8x6xf32>
  %b = memref.get_global @b : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%y: f32, %o: f32):
    linalg.yield %y : f32
  }
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// Accumulating into an argument, then a ReLU into another buffer: the product's result
// is still needed (its init was read), so nothing is fused.
// CHECK-LABEL: func.func @accumulating(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @accumulating(%a: memref<4x8xf32>, %c: memref<4x6xf32>, %d: memref<4x6xf32>) {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%d : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// max with -0.0 is a ReLU but for the sign of a zero (it keeps a -0.0 the kernel's +0.0
// would not): zeros compare equal whatever their sign ([Note: recognizing activations]),
// so it is fused, flags 16.
// CHECK-LABEL: func.func @negative_zero(
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c16_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
func.func @negative_zero(%a: memref<4x8xf32>) -> memref<4x6xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %nz : f32
    linalg.yield %r : f32
  }
  return %c : memref<4x6xf32>
}

// A constant added after the product (x + 0.0: a zero bias folded to a scalar, as
// HF's freshly initialized Linear layers export) is a bias of N copies of it, one
// global per value and size: the kernel adds the 0 (exact, a -0.0 sum becomes +0.0 as
// in the generic) and writes the generic's output. x - c is the bias -c (exact).
// CHECK-LABEL: func.func @plus_zero(
//   CHECK-NOT: linalg.
//       CHECK: %[[D:.*]] = memref.alloc() : memref<4x6xf32>
//       CHECK: memref.get_global @[[ZERO]] : memref<6xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32(%c4_i64, %c6_i64, %c8_i64, %{{.*}}, %c8_i64, %{{.*}}, %{{.*}}, %c6_i64, %c0_i32, %{{.*}}, %c1_i32, %c0_i64)
//   CHECK-NOT: linalg.
//   CHECK-NOT: memref.alloc
//       CHECK: return %[[D]]
func.func @plus_zero(%a: memref<4x8xf32>) -> memref<4x6xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  %d = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%d : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %zero : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<4x6xf32>
  return %d : memref<4x6xf32>
}

// relu(x - 2): the bias -2 (0xC0000000) and ReLU, flags 17.
// CHECK-LABEL: func.func @minus_two_relu(
//   CHECK-NOT: linalg.
//       CHECK: memref.get_global @[[MTWO]] : memref<6xf32>
//       CHECK: call @strata_sgemm_packed_epi_f32(%c4_i64, %c6_i64, %c8_i64, %{{.*}}, %c8_i64, %{{.*}}, %{{.*}}, %c6_i64, %c0_i32, %{{.*}}, %c17_i32, %c0_i64)
//   CHECK-NOT: linalg.
func.func @minus_two_relu(%a: memref<4x8xf32>) -> memref<4x6xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %x, %two : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return %c : memref<4x6xf32>
}

// Near miss: 2x + 2 is no bias add (a scale first): the generic stays.
// CHECK-LABEL: func.func @scaled_not_fused(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
func.func @scaled_not_fused(%a: memref<4x8xf32>) -> memref<4x6xf32> {
  %w = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %c = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.matmul ins(%a, %w : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    %s = arith.addf %m, %two : f32
    linalg.yield %s : f32
  }
  return %c : memref<4x6xf32>
}

// The biases' values: six 0.0, six -2.0.
//       CHECK: [[ZERO]]: "0x40000000000000000000000000000000000000000000000000000000"
//       CHECK: [[MTWO]]: "0x40000000000000C0000000C0000000C0000000C0000000C0000000C0"
