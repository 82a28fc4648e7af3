// Round trip of every TOSA 1.0 op in its custom form (and through the generic form).
// (An operand-less tosa.yield is left out: upstream prints it as `tosa.yield  : `,
// which its own parser rejects.)
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK: tosa.variable @var : tensor<2x3xf32>
// CHECK: tosa.variable @var_init = dense<[1, 2]> : tensor<2xi32>
// CHECK: tosa.variable @var_dyn {tag} : tensor<?x3xf32>
tosa.variable @var : tensor<2x3xf32>
tosa.variable @var_init = dense<[1, 2]> : tensor<2xi32>
tosa.variable @var_dyn {tag} : tensor<?x3xf32>

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %2 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %3 = tosa.abs %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %4 = tosa.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %5 = tosa.sub %arg1, %arg0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %6 = tosa.mul %arg2, %arg2, %1 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
// CHECK-NEXT: %7 = tosa.pow %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %8 = tosa.maximum %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %9 = tosa.minimum %arg0, %arg0 nan_mode<IGNORE> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %10 = tosa.arithmetic_right_shift %arg2, %arg2 round(true) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %11 = tosa.bitwise_and %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %12 = tosa.bitwise_or %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %13 = tosa.bitwise_xor %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %14 = tosa.bitwise_not %arg2 : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %15 = tosa.logical_left_shift %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %16 = tosa.logical_right_shift %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %17 = tosa.intdiv %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %18 = tosa.logical_and %arg3, %arg3 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %19 = tosa.logical_or %arg3, %arg3 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %20 = tosa.logical_xor %arg3, %arg3 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %21 = tosa.logical_not %arg3 : (tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %22 = tosa.equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %23 = tosa.greater %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %24 = tosa.greater_equal %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT: %25 = tosa.select %arg3, %arg0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %26 = tosa.ceil %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %27 = tosa.floor %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %28 = tosa.clz %arg2 : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %29 = tosa.exp %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %30 = tosa.log %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %31 = tosa.reciprocal %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %32 = tosa.rsqrt %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %33 = tosa.sin %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %34 = tosa.cos %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %35 = tosa.tanh %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %36 = tosa.sigmoid %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %37 = tosa.erf %arg5 : (tensor<*xf32>) -> tensor<*xf32>
// CHECK-NEXT: %38 = tosa.negate %arg0, %0, %0 : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %39 = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %40 = tosa.clamp %arg4 min_val(-128 : i8) max_val(127 : i8) nan_mode<IGNORE> : (tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %41 = tosa.cast %arg0  : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT: %42 = tosa.cast %arg4 input_unsigned(true) : (tensor<2x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: %43 = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %44 = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %45 = tosa.rescale %arg2, %43, %44, %2, %1 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %46 = tosa.const  values(dense<1> : tensor<256xi8>) : () -> tensor<256xi8>
// CHECK-NEXT: %47 = tosa.table %arg4, %46 : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %48 = tosa.const  values(dense<2> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
// CHECK-NEXT: %49 = tosa.const  values(dense<2> : tensor<2x3xi8>) : () -> tensor<2x3xi8>
// CHECK-NEXT: %50 = tosa.apply_scale %arg2, %48, %49 rounding_mode<SINGLE_ROUND> : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT: return
func.func @elementwise(%f: tensor<2x3xf32>, %g: tensor<1x3xf32>, %i: tensor<2x3xi32>, %b: tensor<2x3xi1>, %i8: tensor<2x3xi8>, %u: tensor<*xf32>) {
  %zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %zi8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %zi32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %0 = tosa.abs %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.add %f, %g : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.sub %g, %f : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.mul %i, %i, %zi8 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  %4 = tosa.pow %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.maximum %f, %g : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.minimum %f, %f nan_mode<IGNORE> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.arithmetic_right_shift %i, %i round(true) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %8 = tosa.bitwise_and %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %9 = tosa.bitwise_or %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %10 = tosa.bitwise_xor %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %11 = tosa.bitwise_not %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %12 = tosa.logical_left_shift %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %13 = tosa.logical_right_shift %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %14 = tosa.intdiv %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %15 = tosa.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %16 = tosa.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %17 = tosa.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %18 = tosa.logical_not %b : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %19 = tosa.equal %f, %g : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %20 = tosa.greater %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %21 = tosa.greater_equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %22 = tosa.select %b, %f, %g : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %23 = tosa.ceil %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = tosa.floor %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = tosa.clz %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %26 = tosa.exp %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = tosa.log %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %28 = tosa.reciprocal %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %29 = tosa.rsqrt %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %30 = tosa.sin %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %31 = tosa.cos %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %32 = tosa.tanh %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %33 = tosa.sigmoid %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %34 = tosa.erf %u : (tensor<*xf32>) -> tensor<*xf32>
  %35 = tosa.negate %f, %zf, %zf : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %36 = tosa.clamp %f min_val(0.0 : f32) max_val(6.0 : f32) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %37 = tosa.clamp %i8 min_val(-128 : i8) max_val(127 : i8) nan_mode<IGNORE> : (tensor<2x3xi8>) -> tensor<2x3xi8>
  %38 = tosa.cast %f : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %39 = tosa.cast %i8 input_unsigned(true) : (tensor<2x3xi8>) -> tensor<2x3xf32>
  %mult = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %shift = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %40 = tosa.rescale %i, %mult, %shift, %zi32, %zi8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  %table = tosa.const values(dense<1> : tensor<256xi8>) : () -> tensor<256xi8>
  %41 = tosa.table %i8, %table : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3xi8>
  %ms = tosa.const values(dense<2> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
  %sh = tosa.const values(dense<2> : tensor<2x3xi8>) : () -> tensor<2x3xi8>
  %42 = tosa.apply_scale %i, %ms, %sh rounding_mode<SINGLE_ROUND> : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi8>) -> tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @tensor_ops(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<1.000000e+00> : tensor<8x3x3x3xf32>) : () -> tensor<8x3x3x3xf32>
// CHECK-NEXT: %2 = tosa.const  values(dense<1.000000e+00> : tensor<8x1x1x1x3xf32>) : () -> tensor<8x1x1x1x3xf32>
// CHECK-NEXT: %3 = tosa.const  values(dense<1.000000e+00> : tensor<3x3x3x2xf32>) : () -> tensor<3x3x3x2xf32>
// CHECK-NEXT: %4 = tosa.const  values(dense<1.000000e+00> : tensor<8xf32>) : () -> tensor<8xf32>
// CHECK-NEXT: %5 = tosa.const  values(dense<1.000000e+00> : tensor<6xf32>) : () -> tensor<6xf32>
// CHECK-NEXT: %6 = tosa.argmax %arg4 axis(1) : (tensor<2x3xf32>) -> tensor<2xi32>
// CHECK-NEXT: %7 = tosa.argmax %arg4 axis(0) nan_mode<IGNORE> : (tensor<2x3xf32>) -> tensor<3xi32>
// CHECK-NEXT: %8 = tosa.matmul %arg2, %arg3, %0, %0 : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
// CHECK-NEXT: %9 = tosa.conv2d %arg0, %1, %4, %0, %0 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(f32)  : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %10 = tosa.conv2d %arg6, %1, %4, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) : (tensor<?x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2x2x8xf32>
// CHECK-NEXT: %11 = tosa.conv3d %arg1, %2, %4, %0, %0 pad([0, 0, 0, 0, 0, 0]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32)  : (tensor<1x4x4x4x3xf32>, tensor<8x1x1x1x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4x8xf32>
// CHECK-NEXT: %12 = tosa.depthwise_conv2d %arg0, %3, %5, %0, %0 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32)  : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x6xf32>
// CHECK-NEXT: %13 = tosa.transpose_conv2d %arg0, %1, %4, %0, %0 out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(f32)  : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
// CHECK-NEXT: %14 = tosa.avg_pool2d %arg0, %0, %0 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x3xf32>
// CHECK-NEXT: %15 = tosa.max_pool2d %arg0 kernel([3, 3]) stride([1, 1]) pad([1, 1, 1, 1]) : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
// CHECK-NEXT: %16 = tosa.max_pool2d %arg0 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) nan_mode<IGNORE> : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
// CHECK-NEXT: %17 = tosa.reduce_all %arg5 axis(0) : (tensor<2x3xi1>) -> tensor<1x3xi1>
// CHECK-NEXT: %18 = tosa.reduce_any %arg5 axis(1) : (tensor<2x3xi1>) -> tensor<2x1xi1>
// CHECK-NEXT: %19 = tosa.reduce_max %arg4 axis(0) nan_mode<IGNORE> : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %20 = tosa.reduce_min %arg4 axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %21 = tosa.reduce_product %arg4 axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %22 = tosa.reduce_sum %arg4 axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %23 = tosa.const  values(dense<1.000000e+00> : tensor<1x4x8xf32>) : () -> tensor<1x4x8xf32>
// CHECK-NEXT: %output_real, %output_imag = tosa.fft2d %23, %23 inverse(false)  : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK-NEXT: %output_real_0, %output_imag_1 = tosa.rfft2d %23 local_bound(false) : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
// CHECK-NEXT: return
func.func @tensor_ops(%a: tensor<1x4x4x3xf32>, %a5: tensor<1x4x4x4x3xf32>, %m: tensor<1x2x3xf32>, %m2: tensor<1x3x4xf32>, %f: tensor<2x3xf32>, %b: tensor<2x3xi1>, %d: tensor<?x4x4x3xf32>) {
  %zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %w = tosa.const values(dense<1.0> : tensor<8x3x3x3xf32>) : () -> tensor<8x3x3x3xf32>
  %w5 = tosa.const values(dense<1.0> : tensor<8x1x1x1x3xf32>) : () -> tensor<8x1x1x1x3xf32>
  %dw = tosa.const values(dense<1.0> : tensor<3x3x3x2xf32>) : () -> tensor<3x3x3x2xf32>
  %bias = tosa.const values(dense<1.0> : tensor<8xf32>) : () -> tensor<8xf32>
  %bias6 = tosa.const values(dense<1.0> : tensor<6xf32>) : () -> tensor<6xf32>
  %0 = tosa.argmax %f axis(1) : (tensor<2x3xf32>) -> tensor<2xi32>
  %1 = tosa.argmax %f axis(0) nan_mode<IGNORE> : (tensor<2x3xf32>) -> tensor<3xi32>
  %2 = tosa.matmul %m, %m2, %zf, %zf : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %3 = tosa.conv2d %a, %w, %bias, %zf, %zf pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  %4 = tosa.conv2d %d, %w, %bias, %zf, %zf pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) : (tensor<?x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2x2x8xf32>
  %5 = tosa.conv3d %a5, %w5, %bias, %zf, %zf pad([0, 0, 0, 0, 0, 0]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32) : (tensor<1x4x4x4x3xf32>, tensor<8x1x1x1x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4x8xf32>
  %6 = tosa.depthwise_conv2d %a, %dw, %bias6, %zf, %zf pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x6xf32>
  %7 = tosa.transpose_conv2d %a, %w, %bias, %zf, %zf out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  %8 = tosa.avg_pool2d %a, %zf, %zf kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x3xf32>
  %9 = tosa.max_pool2d %a kernel([3, 3]) stride([1, 1]) pad([1, 1, 1, 1]) : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %10 = tosa.max_pool2d %a kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) nan_mode<IGNORE> : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  %11 = tosa.reduce_all %b axis(0) : (tensor<2x3xi1>) -> tensor<1x3xi1>
  %12 = tosa.reduce_any %b axis(1) : (tensor<2x3xi1>) -> tensor<2x1xi1>
  %13 = tosa.reduce_max %f axis(0) nan_mode<IGNORE> : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %14 = tosa.reduce_min %f axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %15 = tosa.reduce_product %f axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %16 = tosa.reduce_sum %f axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %rin = tosa.const values(dense<1.0> : tensor<1x4x8xf32>) : () -> tensor<1x4x8xf32>
  %17:2 = tosa.fft2d %rin, %rin inverse(false) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %18:2 = tosa.rfft2d %rin local_bound(false) : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  return
}

// CHECK-LABEL: func.func @data_ops(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<-1> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %4 = tosa.const_shape  values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %5 = tosa.const_shape  values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %6 = tosa.const_shape  values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %7 = tosa.concat %arg0, %arg0 axis(0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %8 = tosa.pad %arg0, %5, %0 : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %9 = tosa.reshape %arg0, %1 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
// CHECK-NEXT: %10 = tosa.reshape %arg0, %2 : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
// CHECK-NEXT: %11 = tosa.reverse %arg0 axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %12 = tosa.slice %arg0, %3, %4 : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
// CHECK-NEXT: %13 = tosa.tile %arg0, %4 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
// CHECK-NEXT: %14 = tosa.transpose %arg0 perms([1, 0]) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %15 = tosa.gather %arg2, %arg3 : (tensor<1x5x3xf32>, tensor<1x2xi32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %16 = tosa.scatter %arg2, %arg3, %arg4 : (tensor<1x5x3xf32>, tensor<1x2xi32>, tensor<1x2x3xf32>) -> tensor<1x5x3xf32>
// CHECK-NEXT: %17 = tosa.resize %arg1, %6, %3, %3 mode<NEAREST_NEIGHBOR> : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x3xf32>
// CHECK-NEXT: %18 = tosa.resize %arg1, %6, %3, %3 mode<BILINEAR> : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x3xf32>
// CHECK-NEXT: %19 = tosa.identity %arg5 : (tensor<*xf32>) -> tensor<*xf32>
// CHECK-NEXT: %20:2 = tosa.custom %arg0, %arg5 operator_name("op") domain_name("dom") implementation_attrs("k=1") : (tensor<2x3xf32>, tensor<*xf32>) -> (tensor<2x3xf32>, tensor<*xf32>)
// CHECK-NEXT: tosa.custom  operator_name("sink") domain_name("dom") implementation_attrs("") : () -> ()
// CHECK-NEXT: %21 = tosa.const  values(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>) {note = "weights"} : () -> tensor<2x3xi32>
// CHECK-NEXT: return
func.func @data_ops(%f: tensor<2x3xf32>, %a: tensor<1x4x4x3xf32>, %vals: tensor<1x5x3xf32>, %idx: tensor<1x2xi32>, %in: tensor<1x2x3xf32>, %u: tensor<*xf32>) {
  %zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %s32 = tosa.const_shape values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %sm1 = tosa.const_shape values(dense<[-1]> : tensor<1xindex>) : () -> !tosa.shape<1>
  %s00 = tosa.const_shape values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
  %s12 = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %pads = tosa.const_shape values(dense<[0, 1, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %scale = tosa.const_shape values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %0 = tosa.concat %f, %f axis(0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = tosa.pad %f, %pads, %zf : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  %2 = tosa.reshape %f, %s32 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  %3 = tosa.reshape %f, %sm1 : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  %4 = tosa.reverse %f axis(1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.slice %f, %s00, %s12 : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  %6 = tosa.tile %f, %s12 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
  %7 = tosa.transpose %f perms([1, 0]) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %8 = tosa.gather %vals, %idx : (tensor<1x5x3xf32>, tensor<1x2xi32>) -> tensor<1x2x3xf32>
  %9 = tosa.scatter %vals, %idx, %in : (tensor<1x5x3xf32>, tensor<1x2xi32>, tensor<1x2x3xf32>) -> tensor<1x5x3xf32>
  %10 = tosa.resize %a, %scale, %s00, %s00 mode<NEAREST_NEIGHBOR> : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x3xf32>
  %11 = tosa.resize %a, %scale, %s00, %s00 mode<BILINEAR> : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x3xf32>
  %12 = tosa.identity %u : (tensor<*xf32>) -> tensor<*xf32>
  %13:2 = tosa.custom %f, %u operator_name("op") domain_name("dom") implementation_attrs("k=1") : (tensor<2x3xf32>, tensor<*xf32>) -> (tensor<2x3xf32>, tensor<*xf32>)
  tosa.custom operator_name("sink") domain_name("dom") implementation_attrs("") : () -> ()
  %14 = tosa.const values(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>) {note = "weights"} : () -> tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @control(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %2 = tosa.cond_if %arg0 (%arg2 = %arg1) : tensor<1xi1> (tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: ^bb0(%arg2: tensor<2x3xf32>):
// CHECK-NEXT: tosa.yield %arg2 : tensor<2x3xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: ^bb0(%arg2: tensor<2x3xf32>):
// CHECK-NEXT: %7 = tosa.negate %arg2, %0, %0 : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: tosa.yield %7 : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %3 = tosa.cond_if %arg0 : tensor<1xi1> -> tensor<2x3xf32> {
// CHECK-NEXT: tosa.yield %arg1 : tensor<2x3xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: tosa.yield %2 : tensor<2x3xf32>
// CHECK-NEXT: } {tag}
// CHECK-NEXT: %4:2 = tosa.while_loop (%arg2 = %1, %arg3 = %3) : (tensor<1xi32>, tensor<2x3xf32>) -> (tensor<1xi32>, tensor<2x3xf32>) {
// CHECK-NEXT: %7 = tosa.const  values(dense<3> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %8 = tosa.greater %7, %arg2 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK-NEXT: tosa.yield %8 : tensor<1xi1>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg2: tensor<1xi32>, %arg3: tensor<2x3xf32>):
// CHECK-NEXT: %7 = tosa.const  values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %8 = tosa.add %arg2, %7 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT: tosa.yield %8, %arg3 : tensor<1xi32>, tensor<2x3xf32>
// CHECK-NEXT: } attributes {tag}
// CHECK-NEXT: %5 = tosa.variable_read @var : tensor<2x3xf32>
// CHECK-NEXT: tosa.variable_write @var, %4#1 : tensor<2x3xf32>
// CHECK-NEXT: %6 = tosa.variable_read @var_dyn {tag} : tensor<?x3xf32>
// CHECK-NEXT: return %5 : tensor<2x3xf32>
func.func @control(%c: tensor<1xi1>, %f: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %zi = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %0 = tosa.cond_if %c (%x = %f) : tensor<1xi1> (tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%x: tensor<2x3xf32>):
    tosa.yield %x : tensor<2x3xf32>
  } else {
  ^bb0(%x: tensor<2x3xf32>):
    %n = tosa.negate %x, %zf, %zf : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    tosa.yield %n : tensor<2x3xf32>
  }
  %1 = tosa.cond_if %c : tensor<1xi1> -> (tensor<2x3xf32>) {
    tosa.yield %f : tensor<2x3xf32>
  } else {
    tosa.yield %0 : tensor<2x3xf32>
  } {tag}
  %2:2 = tosa.while_loop (%k = %zi, %x = %1) : (tensor<1xi32>, tensor<2x3xf32>) -> (tensor<1xi32>, tensor<2x3xf32>) {
    %lim = tosa.const values(dense<3> : tensor<1xi32>) : () -> tensor<1xi32>
    %cc = tosa.greater %lim, %k : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %cc : tensor<1xi1>
  } do {
  ^bb0(%k: tensor<1xi32>, %x: tensor<2x3xf32>):
    %one = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
    %k2 = tosa.add %k, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    tosa.yield %k2, %x : tensor<1xi32>, tensor<2x3xf32>
  } attributes {tag}
  %3 = tosa.variable_read @var : tensor<2x3xf32>
  tosa.variable_write @var, %2#1 : tensor<2x3xf32>
  %4 = tosa.variable_read @var_dyn {tag} : tensor<?x3xf32>
  return %3 : tensor<2x3xf32>
}


// The shape operators beside TOSA 1.0.
// CHECK-LABEL: func.func @shape_ops(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[2, 3]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[4, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %2 = tosa.add_shape %0, %1 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %3 = tosa.sub_shape %2, %0 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %4 = tosa.mul_shape %3, %1 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %5 = tosa.div_ceil_shape %4, %0 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %6 = tosa.div_floor_shape %5, %0 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %7 = tosa.mod_shape %6, %1 {tag} : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %8 = tosa.max_shape %7, %0 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %9 = tosa.min_shape %8, %1 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %10 = tosa.exp2_shape %9 : (!tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %11 = tosa.log2_ceil_shape %10 : (!tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %12 = tosa.log2_floor_shape %11 {tag} : (!tosa.shape<2>) -> !tosa.shape<2>
// CHECK-NEXT: %13 = tosa.concat_shape %12, %0, %1 : (!tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<6>
// CHECK-NEXT: %14 = tosa.slice_shape %13, %arg1, %arg2 : (!tosa.shape<6>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
// CHECK-NEXT: %15 = tosa.dim %arg0 axis(1) : (tensor<2x3xf32>) -> !tosa.shape<1>
// CHECK-NEXT: tosa.assert_equal_shape %14, %0 allow_broadcast(true) : (!tosa.shape<2>, !tosa.shape<2>) -> ()
// CHECK-NEXT: tosa.assert_equal_shape %0, %1 allow_broadcast(false) {tag} : (!tosa.shape<2>, !tosa.shape<2>) -> ()
// CHECK-NEXT: return %14, %15 : !tosa.shape<2>, !tosa.shape<1>
func.func @shape_ops(%t: tensor<2x3xf32>, %s0: tensor<1xi32>, %s1: tensor<1xi32>) -> (!tosa.shape<2>, !tosa.shape<1>) {
  %a = tosa.const_shape values(dense<[2, 3]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %b = tosa.const_shape values(dense<[4, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %0 = tosa.add_shape %a, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %1 = tosa.sub_shape %0, %a : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %2 = tosa.mul_shape %1, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %3 = tosa.div_ceil_shape %2, %a : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %4 = tosa.div_floor_shape %3, %a : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %5 = tosa.mod_shape %4, %b {tag} : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %6 = tosa.max_shape %5, %a : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %7 = tosa.min_shape %6, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %8 = tosa.exp2_shape %7 : (!tosa.shape<2>) -> !tosa.shape<2>
  %9 = tosa.log2_ceil_shape %8 : (!tosa.shape<2>) -> !tosa.shape<2>
  %10 = tosa.log2_floor_shape %9 {tag} : (!tosa.shape<2>) -> !tosa.shape<2>
  %11 = tosa.concat_shape %10, %a, %b : (!tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<6>
  %12 = tosa.slice_shape %11, %s0, %s1 : (!tosa.shape<6>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  %13 = tosa.dim %t axis(1) : (tensor<2x3xf32>) -> !tosa.shape<1>
  tosa.assert_equal_shape %12, %a allow_broadcast(true) : (!tosa.shape<2>, !tosa.shape<2>) -> ()
  tosa.assert_equal_shape %a, %b allow_broadcast(false) {tag} : (!tosa.shape<2>, !tosa.shape<2>) -> ()
  return %12, %13 : !tosa.shape<2>, !tosa.shape<1>
}

// matmul_t takes b as [N, W, C]; row_gather gathers row_count rows per index.
// CHECK-LABEL: func.func @matmul_t_row_gather(
// CHECK: = tosa.matmul_t %arg0, %arg1, %0, %0 : (tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// CHECK: = tosa.row_gather %arg2, %arg3, %2 : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x8x3xf32>
// CHECK: = tosa.row_gather %arg2, %arg3, %arg4 : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x?x3xf32>
func.func @matmul_t_row_gather(%a: tensor<2x3x4xf32>, %b: tensor<1x5x4xf32>, %v: tensor<2x7x3xf32>, %i: tensor<2x4xi32>, %n: tensor<1xi32>) -> (tensor<2x3x5xf32>, tensor<2x8x3xf32>, tensor<2x?x3xf32>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul_t %a, %b, %z, %z : (tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %r = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = tosa.row_gather %v, %i, %r : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x8x3xf32>
  %2 = tosa.row_gather %v, %i, %n : (tensor<2x7x3xf32>, tensor<2x4xi32>, tensor<1xi32>) -> tensor<2x?x3xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<2x8x3xf32>, tensor<2x?x3xf32>
}
