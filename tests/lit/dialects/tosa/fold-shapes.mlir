// Folding of the shape operators (and constant uniquing of tosa.const/const_shape),
// as upstream's folders: a fold gives up on overflow, on a negative dividend or a zero
// divisor, on the logarithm of a non-positive dim, and on exp2 outside [0, 64).
// RUN: strata-opt %s --canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @fold_dims(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<2> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<6> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[6, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<[1, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %4 = tosa.const_shape  values(dense<[128, 32]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %5 = tosa.dim %arg1 axis(0) : (tensor<?x3xf32>) -> !tosa.shape<1>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5 : !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<1>
func.func @fold_dims(%x: tensor<2x3x4xf32>, %y: tensor<?x3xf32>) -> (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<1>) {
  %a = tosa.dim %x axis(0) : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %b = tosa.dim %x axis(1) : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %ab = tosa.mul_shape %a, %b : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %ab, %a : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %k = tosa.const_shape values(dense<[7, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %d = tosa.div_floor_shape %k, %s : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %e = tosa.exp2_shape %k : (!tosa.shape<2>) -> !tosa.shape<2>
  %q = tosa.dim %y axis(0) : (tensor<?x3xf32>) -> !tosa.shape<1>
  return %a, %ab, %s, %d, %e, %q : !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<2>, !tosa.shape<1>
}

// -----

// CHECK-LABEL: func.func @fold_negative(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[-5, 3, 9]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[7, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[14, -2, -14]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<[9, 1, -5]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %4 = tosa.const_shape  values(dense<[7, -1, -7]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %5 = tosa.const_shape  values(dense<2> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %6 = tosa.const_shape  values(dense<[0, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %7 = tosa.div_ceil_shape %4, %5 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %8 = tosa.div_floor_shape %4, %5 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %9 = tosa.mod_shape %4, %5 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %10 = tosa.div_floor_shape %5, %6 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %11 = tosa.log2_ceil_shape %4 : (!tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %12 = tosa.log2_floor_shape %6 : (!tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %13 = tosa.exp2_shape %4 : (!tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: return %7, %8, %9, %10, %11, %12, %13, %3, %2, %1, %0 : !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>
func.func @fold_negative() -> (!tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>,!tosa.shape<3>,!tosa.shape<3>) {
  %k = tosa.const_shape values(dense<[7, -1, -7]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %z = tosa.const_shape values(dense<[2, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %y = tosa.const_shape values(dense<[0, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %a = tosa.div_ceil_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %b = tosa.div_floor_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %c = tosa.mod_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %d = tosa.div_floor_shape %z, %y : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %e = tosa.log2_ceil_shape %k : (!tosa.shape<3>) -> !tosa.shape<3>
  %f = tosa.log2_floor_shape %y : (!tosa.shape<3>) -> !tosa.shape<3>
  %g = tosa.exp2_shape %k : (!tosa.shape<3>) -> !tosa.shape<3>
  %h = tosa.add_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %i = tosa.mul_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %j = tosa.max_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %l = tosa.sub_shape %z, %k : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %l : !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>,!tosa.shape<3>,!tosa.shape<3>
}

// -----

// CHECK-LABEL: func.func @fold_positive(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[2, 1, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[1, 4611686018427387904, -9223372036854775808]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[2, 0, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<[3, 0, 3]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %4 = tosa.const_shape  values(dense<[2, 3, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %5 = tosa.const_shape  values(dense<[0, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %6 = tosa.const_shape  values(dense<[0, 62, 64]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %7 = tosa.const_shape  values(dense<[4, 1, 4]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %8 = tosa.const_shape  values(dense<[3, 0, 4]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %9 = tosa.const_shape  values(dense<[1, 1, 0]> : tensor<3xindex>) : () -> !tosa.shape<3>
// CHECK-NEXT: %10 = tosa.mod_shape %4, %5 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %11 = tosa.exp2_shape %6 : (!tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %12 = tosa.log2_floor_shape %5 : (!tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: %13 = tosa.div_ceil_shape %4, %5 : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
// CHECK-NEXT: return %7, %8, %9, %10, %3, %2, %1, %11, %12, %13, %0 : !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>
func.func @fold_positive() -> (!tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>) {
  %k = tosa.const_shape values(dense<[7, 1, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %z = tosa.const_shape values(dense<[2, 3, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %y = tosa.const_shape values(dense<[0, 2, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %w = tosa.const_shape values(dense<[0, 62, 63]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %v = tosa.const_shape values(dense<[0, 62, 64]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %a = tosa.div_ceil_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %b = tosa.div_floor_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %c = tosa.mod_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %d = tosa.mod_shape %z, %y : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %e = tosa.log2_ceil_shape %k : (!tosa.shape<3>) -> !tosa.shape<3>
  %f = tosa.log2_floor_shape %k : (!tosa.shape<3>) -> !tosa.shape<3>
  %g = tosa.exp2_shape %w : (!tosa.shape<3>) -> !tosa.shape<3>
  %h = tosa.exp2_shape %v : (!tosa.shape<3>) -> !tosa.shape<3>
  %i = tosa.log2_floor_shape %y : (!tosa.shape<3>) -> !tosa.shape<3>
  %j = tosa.div_ceil_shape %z, %y : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %l = tosa.min_shape %k, %z : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %l : !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>,!tosa.shape<3>,!tosa.shape<3>
}

// -----

// CHECK-LABEL: func.func @fold_overflow_slice_concat(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<9223372036854775807> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[1, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %2 = tosa.add_shape %0, %0 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT: %3 = tosa.mul_shape %0, %0 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT: %4 = tosa.concat_shape %1, %2 : (!tosa.shape<2>, !tosa.shape<1>) -> !tosa.shape<3>
// CHECK-NEXT: %5 = tosa.max_shape %0, %2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT: return %1, %2, %3, %4, %5 : !tosa.shape<2>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<3>, !tosa.shape<1>
func.func @fold_overflow_slice_concat(%t: !tosa.shape<1>) -> (!tosa.shape<2>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<3>, !tosa.shape<1>) {
  %k = tosa.const_shape values(dense<[7, 1, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %m = tosa.const_shape values(dense<9223372036854775807> : tensor<1xindex>) : () -> !tosa.shape<1>
  %one = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
  %two = tosa.const values(dense<2> : tensor<1xi32>) : () -> tensor<1xi32>
  %a = tosa.slice_shape %k, %one, %two : (!tosa.shape<3>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  %b = tosa.add_shape %m, %m : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %c = tosa.mul_shape %m, %m : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %d = tosa.concat_shape %a, %b : (!tosa.shape<2>, !tosa.shape<1>) -> !tosa.shape<3>
  %e = tosa.max_shape %m, %b : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  return %a, %b, %c, %d, %e : !tosa.shape<2>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<3>, !tosa.shape<1>
}
