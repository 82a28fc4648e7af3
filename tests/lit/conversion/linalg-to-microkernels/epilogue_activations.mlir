// RUN: strata-opt %s --strata-linalg-to-microkernels="weight-panel-width=4 filter-panel-rows=4 tile-choice=default" | filecheck %s

// Every activation of the kernels' epilogue (cpu_kernel_abi.ACTS: code << 4 in the flags,
// 1 for a bias per column, 4 per filter), recognized by the function its body computes in
// each of the forms the ONNX and torch lowerings and exporters give it (see [Note:
// recognizing activations]): the generic goes and the packed kernel's epilogue computes
// it. Bodies that compute something else (LeakyRelu, a ReLU that drops NaN, Swish with
// beta 2) stay.
memref.global "private" constant @w : memref<8x6xf32> = dense<1.0>
memref.global "private" constant @b : memref<6xf32> = dense<0.5>
memref.global "private" constant @f : memref<6x8x1x1xf32> = dense<1.0>
memref.global "private" constant @fb : memref<6xf32> = dense<0.5>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>

// ONNX Clip(0, 6) (selects) after a bias add: relu6 (2) and the bias: 1 | 2 << 4
// CHECK-LABEL: func.func @relu6_clip_bias(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c33_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @relu6_clip_bias(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  %bv = memref.get_global @b : memref<6xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod, %bv : memref<4x6xf32>, memref<6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %x = arith.addf %in, %bias : f32
    %lt = arith.cmpf olt, %x, %zero : f32
    %a = arith.select %lt, %zero, %x : f32
    %gt = arith.cmpf ogt, %a, %six : f32
    %r = arith.select %gt, %six, %a : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// torch's relu6 / hardtanh(0, 6) (maximumf, minimumf): 2 << 4
// CHECK-LABEL: func.func @relu6_max_min(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c32_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @relu6_max_min(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.maximumf %x, %zero : f32
    %r = arith.minimumf %a, %six : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// ONNX HardSwish: x * min(max(x / 6 + 1/2, 0), 1), with the bias: 1 | 3 << 4
// CHECK-LABEL: func.func @hardswish_onnx(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c49_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @hardswish_onnx(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  %bv = memref.get_global @b : memref<6xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod, %bv : memref<4x6xf32>, memref<6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %x = arith.addf %in, %bias : f32
    %a = arith.mulf %x, %sixth : f32
    %b = arith.addf %a, %half : f32
    %c = arith.maximumf %b, %zero : f32
    %d = arith.minimumf %c, %one : f32
    %r = arith.mulf %x, %d : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// torch's hardswish: x * relu6(x + 3) / 6: 3 << 4
// CHECK-LABEL: func.func @hardswish_torch(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c48_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @hardswish_torch(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.addf %x, %three : f32
    %b = arith.maximumf %a, %zero : f32
    %c = arith.minimumf %b, %six : f32
    %d = arith.mulf %x, %c : f32
    %r = arith.divf %d, %six : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// HardSigmoid(1/6, 1/2) (torch's hardsigmoid): 6 << 4
// CHECK-LABEL: func.func @hardsigmoid(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c96_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @hardsigmoid(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.mulf %x, %sixth : f32
    %b = arith.addf %a, %half : f32
    %c = arith.maximumf %b, %zero : f32
    %r = arith.minimumf %c, %one : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// x * sigmoid(x) after a bias add: 1 | 4 << 4
// CHECK-LABEL: func.func @silu_bias(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c65_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @silu_bias(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  %bv = memref.get_global @b : memref<6xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod, %bv : memref<4x6xf32>, memref<6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %x = arith.addf %in, %bias : f32
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %r = arith.mulf %x, %s : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// sigmoid: 5 << 4
// CHECK-LABEL: func.func @sigmoid(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c80_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @sigmoid(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// ONNX Gelu / torch gelu: x/2 (1 + erf(x / sqrt 2)), with the bias: 1 | 7 << 4
// CHECK-LABEL: func.func @gelu_erf_bias(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c113_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @gelu_erf_bias(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  %bv = memref.get_global @b : memref<6xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod, %bv : memref<4x6xf32>, memref<6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %bias: f32, %o: f32):
    %x = arith.addf %in, %bias : f32
    %a = arith.mulf %x, %rsqrt2 : f32
    %e = math.erf %a : f32
    %h = arith.mulf %half, %x : f32
    %p = arith.addf %one, %e : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// the exporter's GELU: x * (erf(x / 1.4142135) + 1) * 0.5: 7 << 4
// CHECK-LABEL: func.func @gelu_exporter(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c112_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @gelu_exporter(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %a = arith.divf %x, %sqrt2 : f32
    %e = math.erf %a : f32
    %p = arith.addf %e, %one : f32
    %m = arith.mulf %x, %p : f32
    %r = arith.mulf %m, %half : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// GELU's tanh form: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): 8 << 4
// CHECK-LABEL: func.func @gelu_tanh(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c128_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @gelu_tanh(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x, %x2 : f32
    %k = arith.mulf %c044715, %x3 : f32
    %s = arith.addf %x, %k : f32
    %i = arith.mulf %sqrt2pi, %s : f32
    %t = math.tanh %i : f32
    %h = arith.mulf %half, %x : f32
    %p = arith.addf %one, %t : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// GPT-2's GELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 pow(x, 3)))): 8 << 4
// CHECK-LABEL: func.func @gelu_tanh_pow(
//   CHECK-NOT: linalg.generic
//       CHECK: call @strata_sgemm_packed_epi_f32({{.*}}, %c128_i32, %c0_i64)
//   CHECK-NOT: linalg.generic
//       CHECK: return
func.func @gelu_tanh_pow(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %x3 = math.powf %x, %three : f32
    %k = arith.mulf %x3, %c044715 : f32
    %s = arith.addf %x, %k : f32
    %i = arith.mulf %s, %sqrt2pi : f32
    %t = math.tanh %i : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %x, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// LeakyRelu(0.1) is not one of the kernels' activations: not fused
// CHECK-LABEL: func.func @leaky_relu(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
//       CHECK: return
func.func @leaky_relu(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %lt = arith.cmpf olt, %x, %zero : f32
    %m = arith.mulf %x, %tenth : f32
    %r = arith.select %lt, %m, %x : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// select(x > 0, x, 0) gives 0 for NaN where relu keeps it: not fused
// CHECK-LABEL: func.func @relu_select_nan(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
//       CHECK: return
func.func @relu_select_nan(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %gt = arith.cmpf ogt, %x, %zero : f32
    %r = arith.select %gt, %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// x * sigmoid(2 x) (Swish with beta 2) is not SiLU: not fused
// CHECK-LABEL: func.func @swish_beta(
//       CHECK: call @strata_sgemm_packed_f32(
//       CHECK: linalg.generic
//       CHECK: return
func.func @swish_beta(%lhs: memref<4x8xf32>) -> memref<4x6xf32> {
  %wt = memref.get_global @w : memref<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %half = arith.constant 0.5 : f32
  %tenth = arith.constant 0.1 : f32
  %sixth = arith.constant 0.166666672 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %sqrt2pi = arith.constant 0.797884583 : f32
  %c044715 = arith.constant 0.0447149985 : f32
  %prod = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<4x6xf32>)
  linalg.matmul ins(%lhs, %wt : memref<4x8xf32>, memref<8x6xf32>) outs(%prod : memref<4x6xf32>)
  %out = memref.alloc() : memref<4x6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %two : f32
    %n = arith.negf %y : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %r = arith.mulf %x, %s : f32
    linalg.yield %r : f32
  }
  memref.dealloc %prod : memref<4x6xf32>
  return %out : memref<4x6xf32>
}

// A 1x1 stride-1 convolution on a constant filter: packed too, its bias broadcast
// before it and the SiLU after it in the epilogue (4 | 4 << 4).
// CHECK-LABEL: func.func @conv1x1_bias_silu(
//   CHECK-NOT: linalg.
//       CHECK: call @strata_conv2d_nchw_packed_epi_f32({{.*}}, %c68_i32, %c0_i64)
//   CHECK-NOT: linalg.
//       CHECK: return
func.func @conv1x1_bias_silu(%i: memref<1x8x5x5xf32>) -> memref<1x6x5x5xf32> {
  %f = memref.get_global @f : memref<6x8x1x1xf32>
  %fb = memref.get_global @fb : memref<6xf32>
  %one = arith.constant 1.0 : f32
  %y = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%fb : memref<6xf32>) outs(%y : memref<1x6x5x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<1x8x5x5xf32>, memref<6x8x1x1xf32>) outs(%y : memref<1x6x5x5xf32>)
  %z = memref.alloc() : memref<1x6x5x5xf32>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x6x5x5xf32>) outs(%z : memref<1x6x5x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %r = arith.mulf %x, %s : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<1x6x5x5xf32>
  return %z : memref<1x6x5x5xf32>
}
