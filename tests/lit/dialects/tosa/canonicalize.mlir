// Folders and canonicalization patterns of tosa ops (folds.py), checked against
// upstream's output (iree-opt --canonicalize gives the same text): forwarding folds
// need the result type exactly, constants fold only as splats, integer add/sub give
// up on overflow, i32 mul applies its shift; clamp, transpose, concat, cast, slice and
// pad patterns.
// RUN: strata-opt %s --canonicalize --split-input-file | filecheck %s

// CHECK-LABEL: func.func @add_zero(
// CHECK-NEXT: %0 = tosa.const  values(dense<1.000000e+00> : tensor<4x3xf32>) : () -> tensor<4x3xf32>
// CHECK-NEXT: return %arg0, %arg0, %0 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<4x3xf32>
func.func @add_zero(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<4x3xf32>) {
  %z = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %a = tosa.add %z, %x : (tensor<1x1xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %b = tosa.sub %x, %z : (tensor<2x3xi32>, tensor<1x1xi32>) -> tensor<2x3xi32>
  %f = "tosa.const"() <{values = dense<-0.0> : tensor<4x3xf32>}> : () -> tensor<4x3xf32>
  %y = "tosa.const"() <{values = dense<1.0> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
  %c = tosa.add %y, %f : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %a, %b, %c : tensor<2x3xi32>, tensor<2x3xi32>, tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @add_sub_splats(
// CHECK-NEXT: %0 = tosa.const  values(dense<-1.000000e-01> : tensor<2xf32>) : () -> tensor<2xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<[1, 2]> : tensor<2xi8>) : () -> tensor<2xi8>
// CHECK-NEXT: %2 = tosa.const  values(dense<4> : tensor<2xui8>) : () -> tensor<2xui8>
// CHECK-NEXT: %3 = tosa.const  values(dense<3> : tensor<2xui8>) : () -> tensor<2xui8>
// CHECK-NEXT: %4 = tosa.const  values(dense<100> : tensor<2xi8>) : () -> tensor<2xi8>
// CHECK-NEXT: %5 = tosa.const  values(dense<27> : tensor<2xi8>) : () -> tensor<2xi8>
// CHECK-NEXT: %6 = tosa.const  values(dense<28> : tensor<2xi8>) : () -> tensor<2xi8>
// CHECK-NEXT: %7 = tosa.const  values(dense<127> : tensor<2xi8>) : () -> tensor<2xi8>
// CHECK-NEXT: %8 = tosa.add %4, %6 : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
// CHECK-NEXT: %9 = tosa.sub %3, %2 : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
// CHECK-NEXT: %10 = tosa.add %1, %5 : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
// CHECK-NEXT: return %7, %8, %0, %9, %10 : tensor<2xi8>, tensor<2xi8>, tensor<2xf32>, tensor<2xui8>, tensor<2xi8>
func.func @add_sub_splats() -> (tensor<2xi8>, tensor<2xi8>, tensor<2xf32>, tensor<2xui8>, tensor<2xi8>) {
  %a = "tosa.const"() <{values = dense<100> : tensor<2xi8>}> : () -> tensor<2xi8>
  %b = "tosa.const"() <{values = dense<27> : tensor<2xi8>}> : () -> tensor<2xi8>
  %c = "tosa.const"() <{values = dense<28> : tensor<2xi8>}> : () -> tensor<2xi8>
  %0 = tosa.add %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %1 = tosa.add %a, %c : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %f = "tosa.const"() <{values = dense<0.1> : tensor<2xf32>}> : () -> tensor<2xf32>
  %g = "tosa.const"() <{values = dense<0.2> : tensor<2xf32>}> : () -> tensor<2xf32>
  %2 = tosa.sub %f, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %u = "tosa.const"() <{values = dense<3> : tensor<2xui8>}> : () -> tensor<2xui8>
  %v = "tosa.const"() <{values = dense<4> : tensor<2xui8>}> : () -> tensor<2xui8>
  %3 = tosa.sub %u, %v : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %d = "tosa.const"() <{values = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %4 = tosa.add %d, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %0, %1, %2, %3, %4 : tensor<2xi8>, tensor<2xi8>, tensor<2xf32>, tensor<2xui8>, tensor<2xi8>
}

// -----

// CHECK-LABEL: func.func @mul(
// CHECK-NEXT: %0 = tosa.const  values(dense<5> : tensor<1x3xi32>) : () -> tensor<1x3xi32>
// CHECK-NEXT: %1 = tosa.const  values(dense<0.000000e+00> : tensor<2x3xf32>) : () -> tensor<2x3xf32>
// CHECK-NEXT: %2 = tosa.const  values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %3 = tosa.const  values(dense<1> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
// CHECK-NEXT: %4 = tosa.mul %arg0, %3, %2 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
// CHECK-NEXT: return %4, %arg0, %arg0, %1, %0 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x3xi32>
func.func @mul(%x: tensor<2x3xi32>, %y: tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x3xi32>) {
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s2 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %one = "tosa.const"() <{values = dense<1> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %four = "tosa.const"() <{values = dense<4> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %0 = tosa.mul %x, %one, %s2 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  %1 = tosa.mul %four, %x, %s2 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %2 = tosa.mul %y, %zf, %s0 : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %a = "tosa.const"() <{values = dense<7> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
  %b = "tosa.const"() <{values = dense<3> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
  %3 = tosa.mul %a, %b, %s2 : (tensor<1x3xi32>, tensor<1x3xi32>, tensor<1xi8>) -> tensor<1x3xi32>
  %4 = tosa.mul %x, %one, %s0 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  return %0, %1, %4, %2, %3 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x3xi32>
}

// -----

// CHECK-LABEL: func.func @mul_shift_overflow(
// CHECK-NEXT: %0 = tosa.const  values(dense<2147483647> : tensor<i32>) : () -> tensor<i32>
// CHECK-NEXT: %1 = tosa.const  values(dense<1> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %2 = tosa.mul %0, %0, %1 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
// CHECK-NEXT: %3 = tosa.mul %0, %0, %arg0 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
// CHECK-NEXT: return %2, %3 : tensor<i32>, tensor<i32>
func.func @mul_shift_overflow(%s: tensor<1xi8>) -> (tensor<i32>, tensor<i32>) {
  %a = "tosa.const"() <{values = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
  %s1 = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %a, %s1 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  %1 = tosa.mul %a, %a, %s : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  return %0, %1 : tensor<i32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @cast(
// CHECK-NEXT: %0 = tosa.const  values(dense<127> : tensor<4xi8>) : () -> tensor<4xi8>
// CHECK-NEXT: %1 = tosa.const  values(dense<true> : tensor<4xi1>) : () -> tensor<4xi1>
// CHECK-NEXT: %2 = tosa.const  values(dense<-2.000000e+00> : tensor<4xf32>) : () -> tensor<4xf32>
// CHECK-NEXT: %3 = tosa.const  values(dense<-2> : tensor<4xi32>) : () -> tensor<4xi32>
// CHECK-NEXT: %4 = tosa.const  values(dense<2.500000e+00> : tensor<4xf16>) : () -> tensor<4xf16>
// CHECK-NEXT: return %arg0, %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xf16>
func.func @cast(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xf16>) {
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xf32>
  %big = "tosa.const"() <{values = dense<300.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = tosa.cast %big : (tensor<4xf32>) -> tensor<4xi8>
  %i = "tosa.const"() <{values = dense<-2> : tensor<4xi8>}> : () -> tensor<4xi8>
  %2 = tosa.cast %i : (tensor<4xi8>) -> tensor<4xi1>
  %3 = tosa.cast %i : (tensor<4xi8>) -> tensor<4xf32>
  %4 = tosa.cast %i : (tensor<4xi8>) -> tensor<4xi32>
  %h = "tosa.const"() <{values = dense<2.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %5 = tosa.cast %h : (tensor<4xf32>) -> tensor<4xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi8>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @select(
// CHECK-NEXT: %0 = tosa.const  values(dense<true> : tensor<2x3xi1>) : () -> tensor<2x3xi1>
// CHECK-NEXT: %1 = tosa.select %arg0, %arg2, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = tosa.select %0, %arg3, %arg1 : (tensor<2x3xi1>, tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %arg1, %arg1, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
func.func @select(%p: tensor<2x3xi1>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tosa.select %p, %a, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = "tosa.const"() <{values = dense<true> : tensor<2x3xi1>}> : () -> tensor<2x3xi1>
  %1 = tosa.select %t, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = tosa.logical_not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = tosa.select %n, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.select %t, %c, %a : (tensor<2x3xi1>, tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<6> : tensor<1xindex>) : () -> !tosa.shape<1>
// CHECK-NEXT: %1 = tosa.const  values(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[3, 4]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %3 = tosa.reshape %arg1, %2 : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
// CHECK-NEXT: %4 = tosa.reshape %1, %0 : (tensor<2x3xi32>, !tosa.shape<1>) -> tensor<6xi32>
// CHECK-NEXT: return %arg0, %3, %1, %4 : tensor<?x4xf32>, tensor<3x4xf32>, tensor<2x3xi32>, tensor<6xi32>
func.func @reshape(%x: tensor<?x4xf32>, %y: tensor<2x6xf32>) -> (tensor<?x4xf32>, tensor<3x4xf32>, tensor<2x3xi32>, tensor<6xi32>) {
  %s0 = "tosa.const_shape"() <{values = dense<[-1, 4]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s0 : (tensor<?x4xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  %s1 = "tosa.const_shape"() <{values = dense<[12]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %s2 = "tosa.const_shape"() <{values = dense<[3, 4]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = tosa.reshape %y, %s1 : (tensor<2x6xf32>, !tosa.shape<1>) -> tensor<12xf32>
  %2 = tosa.reshape %1, %s2 : (tensor<12xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  %c = "tosa.const"() <{values = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>}> : () -> tensor<6xi32>
  %s3 = "tosa.const_shape"() <{values = dense<[2, 3]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = tosa.reshape %c, %s3 : (tensor<6xi32>, !tosa.shape<2>) -> tensor<2x3xi32>
  %d = "tosa.const"() <{values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %s4 = "tosa.const_shape"() <{values = dense<[6]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %4 = tosa.reshape %d, %s4 : (tensor<2x3xi32>, !tosa.shape<1>) -> tensor<6xi32>
  %5 = tosa.add %d, %d : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0, %2, %3, %4 : tensor<?x4xf32>, tensor<3x4xf32>, tensor<2x3xi32>, tensor<6xi32>
}

// -----

// CHECK-LABEL: func.func @unary(
// CHECK-NEXT: %0 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tosa.abs %arg0 : (tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK-NEXT: %2 = tosa.negate %arg1, %0, %0 : (tensor<?x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2xi8>
// CHECK-NEXT: %3 = tosa.negate %2, %0, %0 : (tensor<?x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2xi8>
// CHECK-NEXT: return %arg0, %1, %3 : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xi8>
func.func @unary(%x: tensor<?x2xf32>, %i: tensor<?x2xi8>) -> (tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xi8>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.negate %x, %z, %z : (tensor<?x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2xf32>
  %1 = tosa.negate %0, %z, %z : (tensor<?x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2xf32>
  %2 = tosa.abs %x : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %3 = tosa.abs %2 : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %zi = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = tosa.negate %i, %zi, %zi : (tensor<?x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2xi8>
  %5 = tosa.negate %4, %zi, %zi : (tensor<?x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2xi8>
  return %1, %3, %5 : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xi8>
}

// -----

// CHECK-LABEL: func.func @layout(
// CHECK-NEXT: %0 = tosa.argmax %arg0 axis(2) : (tensor<2x1x3xf32>) -> tensor<2x1xi32>
// CHECK-NEXT: return %arg0, %arg0, %arg1, %arg1, %arg1, %arg1, %arg0, %0 : tensor<2x1x3xf32>, tensor<2x1x3xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x1x3xf32>, tensor<2x1xi32>
func.func @layout(%x: tensor<2x1x3xf32>, %y: tensor<3x4xf32>) -> (tensor<2x1x3xf32>, tensor<2x1x3xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x1x3xf32>, tensor<2x1xi32>) {
  %0 = "tosa.reduce_sum"(%x) <{axis = 1 : i32}> : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %1 = "tosa.reduce_max"(%x) <{axis = 0 : i32}> : (tensor<2x1x3xf32>) -> tensor<1x1x3xf32>
  %m = "tosa.const_shape"() <{values = dense<1> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.tile"(%y, %m) : (tensor<3x4xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  %3 = "tosa.transpose"(%y) <{perms = array<i32: 0, 1>}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %st = "tosa.const_shape"() <{values = dense<0> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %sz = "tosa.const_shape"() <{values = dense<[3, 4]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %4 = "tosa.slice"(%y, %st, %sz) : (tensor<3x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x4xf32>
  %pz = "tosa.const_shape"() <{values = dense<0> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %pc = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %5 = "tosa.pad"(%y, %pz, %pc) : (tensor<3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  %6 = "tosa.reverse"(%x) <{axis = 1 : i32}> : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %7 = "tosa.argmax"(%x) <{axis = 1 : i32}> : (tensor<2x1x3xf32>) -> tensor<2x3xi32>
  %8 = "tosa.argmax"(%x) <{axis = 2 : i32}> : (tensor<2x1x3xf32>) -> tensor<2x1xi32>
  %s4 = "tosa.const_shape"() <{values = dense<[3, 4, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %9 = "tosa.slice"(%y, %st, %sz) : (tensor<3x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %0, %6, %2, %3, %4, %5, %x, %8 : tensor<2x1x3xf32>, tensor<2x1x3xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x1x3xf32>, tensor<2x1xi32>
}

// -----

// CHECK-LABEL: func.func @layout_consts(
// CHECK-NEXT: %0 = tosa.const  values(dense<5> : tensor<4xi8>) : () -> tensor<4xi8>
// CHECK-NEXT: %1 = tosa.const  values(dense<6> : tensor<1x1xi32>) : () -> tensor<1x1xi32>
// CHECK-NEXT: %2 = tosa.const  values(dense<7> : tensor<2x2xi32>) : () -> tensor<2x2xi32>
// CHECK-NEXT: %3 = tosa.const  values(dense<1.500000e+00> : tensor<3x2xf32>) : () -> tensor<3x2xf32>
// CHECK-NEXT: return %2, %1, %3, %0, %1 : tensor<2x2xi32>, tensor<1x1xi32>, tensor<3x2xf32>, tensor<4xi8>, tensor<1x1xi32>
func.func @layout_consts() -> (tensor<2x2xi32>, tensor<1x1xi32>, tensor<3x2xf32>, tensor<4xi8>, tensor<1x1xi32>) {
  %c = "tosa.const"() <{values = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %st = "tosa.const_shape"() <{values = dense<[1, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %s11 = "tosa.const_shape"() <{values = dense<1> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %0 = "tosa.slice"(%c, %st, %s11) : (tensor<2x3xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi32>
  %sp = "tosa.const"() <{values = dense<7> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %z = "tosa.const_shape"() <{values = dense<0> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %s22 = "tosa.const_shape"() <{values = dense<2> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = "tosa.slice"(%sp, %z, %s22) : (tensor<2x3xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi32>
  %f = "tosa.const"() <{values = dense<1.5> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %2 = "tosa.transpose"(%f) <{perms = array<i32: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = "tosa.const"() <{values = dense<5> : tensor<4xi8>}> : () -> tensor<4xi8>
  %3 = "tosa.reverse"(%r) <{axis = 0 : i32}> : (tensor<4xi8>) -> tensor<4xi8>
  return %1, %0, %2, %3, %0 : tensor<2x2xi32>, tensor<1x1xi32>, tensor<3x2xf32>, tensor<4xi8>, tensor<1x1xi32>
}

// -----

// CHECK-LABEL: func.func @compare(
// CHECK-NEXT: %0 = tosa.const  values(dense<false> : tensor<2xi1>) : () -> tensor<2xi1>
// CHECK-NEXT: %1 = tosa.const  values(dense<true> : tensor<2xi1>) : () -> tensor<2xi1>
// CHECK-NEXT: %2 = tosa.equal %arg1, %arg1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
// CHECK-NEXT: return %1, %2, %0, %1, %1 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
func.func @compare(%x: tensor<2xi32>, %f: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %0 = tosa.equal %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %1 = tosa.equal %f, %f : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %a = "tosa.const"() <{values = dense<-3> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tosa.const"() <{values = dense<2> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = tosa.greater %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %3 = tosa.greater_equal %b, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %u = "tosa.const"() <{values = dense<0.5> : tensor<2xf32>}> : () -> tensor<2xf32>
  %v = "tosa.const"() <{values = dense<0.25> : tensor<2xf32>}> : () -> tensor<2xf32>
  %4 = tosa.greater %u, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @intdiv(
// CHECK-NEXT: %0 = tosa.const  values(dense<-3> : tensor<2xi32>) : () -> tensor<2xi32>
// CHECK-NEXT: %1 = tosa.const  values(dense<-7> : tensor<2xi32>) : () -> tensor<2xi32>
// CHECK-NEXT: %2 = tosa.const  values(dense<0> : tensor<2xi32>) : () -> tensor<2xi32>
// CHECK-NEXT: %3 = tosa.intdiv %2, %arg0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: %4 = tosa.intdiv %1, %2 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: return %arg0, %3, %0, %4 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
func.func @intdiv(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %one = "tosa.const"() <{values = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = tosa.intdiv %x, %one : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = tosa.intdiv %z, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %a = "tosa.const"() <{values = dense<-7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tosa.const"() <{values = dense<2> : tensor<2xi32>}> : () -> tensor<2xi32>
  %2 = tosa.intdiv %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %3 = tosa.intdiv %a, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: %0 = tosa.concat %arg0, %arg1, %arg0 axis(0) : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %0 : tensor<3x2xf32>
func.func @concat(%x: tensor<1x2xf32>, %y: tensor<1x2xf32>) -> tensor<3x2xf32> {
  %0 = "tosa.concat"(%x, %y) <{axis = 0 : i32}> : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %1 = "tosa.concat"(%0, %x) <{axis = 0 : i32}> : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @clamp(
// CHECK-NEXT: %0 = tosa.clamp %arg1 min_val(-2 : i8) max_val(100 : i8) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %1 = tosa.clamp %0 min_val(0 : i8) max_val(120 : i8) nan_mode<IGNORE> : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %2 = tosa.clamp %arg0 min_val(0.000000e+00 : f32) max_val(6.000000e+00 : f32) nan_mode<IGNORE> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = tosa.clamp %arg1 min_val(0 : i8) max_val(5 : i8) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %4 = tosa.clamp %3 min_val(6 : i8) max_val(9 : i8) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: return %arg0, %arg1, %arg2, %1, %2, %4 : tensor<4xf32>, tensor<4xi8>, tensor<4xui8>, tensor<4xi8>, tensor<4xf32>, tensor<4xi8>
func.func @clamp(%f: tensor<4xf32>, %i: tensor<4xi8>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi8>, tensor<4xui8>, tensor<4xi8>, tensor<4xf32>, tensor<4xi8>) {
  %0 = "tosa.clamp"(%f) <{min_val = 0xFF800000 : f32, max_val = 0x7F800000 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tosa.clamp"(%i) <{min_val = -128 : i8, max_val = 127 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  %2 = "tosa.clamp"(%u) <{min_val = 0 : ui8, max_val = 255 : ui8}> : (tensor<4xui8>) -> tensor<4xui8>
  %3 = "tosa.clamp"(%i) <{min_val = -2 : i8, max_val = 100 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  %4 = "tosa.clamp"(%3) <{min_val = 0 : i8, max_val = 120 : i8, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4xi8>) -> tensor<4xi8>
  %5 = "tosa.clamp"(%f) <{min_val = -1.0 : f32, max_val = 6.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "tosa.clamp"(%5) <{min_val = 0.0 : f32, max_val = 8.0 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "tosa.clamp"(%i) <{min_val = 0 : i8, max_val = 5 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  %8 = "tosa.clamp"(%7) <{min_val = 6 : i8, max_val = 9 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  %9 = "tosa.clamp"(%f) <{min_val = 0xFF800000 : f32, max_val = 1.0 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  %10 = "tosa.clamp"(%9) <{min_val = 0.0 : f32, max_val = 2.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %4, %6, %8 : tensor<4xf32>, tensor<4xi8>, tensor<4xui8>, tensor<4xi8>, tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[1, 4, 1, 5]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %1 = tosa.reshape %arg0, %0 : (tensor<1x4x5x1xf32>, !tosa.shape<4>) -> tensor<1x4x1x5xf32>
// CHECK-NEXT: %2 = tosa.transpose %arg1 perms([2, 0, 1]) : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %3 = tosa.transpose %arg2 perms([1, 2, 0]) : (tensor<2x1x?xf32>) -> tensor<1x?x2xf32>
// CHECK-NEXT: return %1, %2, %3 : tensor<1x4x1x5xf32>, tensor<4x2x3xf32>, tensor<1x?x2xf32>
func.func @transpose(%x: tensor<1x4x5x1xf32>, %y: tensor<2x3x4xf32>, %z: tensor<2x1x?xf32>) -> (tensor<1x4x1x5xf32>, tensor<4x2x3xf32>, tensor<1x?x2xf32>) {
  %0 = "tosa.transpose"(%x) <{perms = array<i32: 0, 1, 3, 2>}> : (tensor<1x4x5x1xf32>) -> tensor<1x4x1x5xf32>
  %1 = "tosa.transpose"(%y) <{perms = array<i32: 1, 2, 0>}> : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %2 = "tosa.transpose"(%1) <{perms = array<i32: 1, 2, 0>}> : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  %3 = "tosa.transpose"(%z) <{perms = array<i32: 1, 2, 0>}> : (tensor<2x1x?xf32>) -> tensor<1x?x2xf32>
  return %0, %2, %3 : tensor<1x4x1x5xf32>, tensor<4x2x3xf32>, tensor<1x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @concat_one(
// CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<1x2xf32> to tensor<?x2xf32>
// CHECK-NEXT: return %arg0, %cast : tensor<1x2xf32>, tensor<?x2xf32>
func.func @concat_one(%x: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<?x2xf32>) {
  %0 = "tosa.concat"(%x) <{axis = 0 : i32}> : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %1 = "tosa.concat"(%x) <{axis = 0 : i32}> : (tensor<1x2xf32>) -> tensor<?x2xf32>
  return %0, %1 : tensor<1x2xf32>, tensor<?x2xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool(
// CHECK-NEXT: return %arg0 : tensor<3x1x1x4xf32>
func.func @max_pool(%x: tensor<3x1x1x4xf32>) -> tensor<3x1x1x4xf32> {
  %0 = "tosa.max_pool2d"(%x) <{kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<3x1x1x4xf32>) -> tensor<3x1x1x4xf32>
  return %0 : tensor<3x1x1x4xf32>
}

// -----

// CHECK-LABEL: func.func @casts(
// CHECK-NEXT: %0 = tosa.cast %arg0 input_unsigned(false) : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT: %1 = tosa.cast %arg0 input_unsigned(false) : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-NEXT: return %0, %arg0, %1 : tensor<4xi32>, tensor<4xi8>, tensor<4xi16>
func.func @casts(%x: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi8>, tensor<4xi16>) {
  %0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xi16>
  %1 = tosa.cast %0 : (tensor<4xi16>) -> tensor<4xi32>
  %2 = tosa.cast %0 : (tensor<4xi16>) -> tensor<4xi8>
  %3 = tosa.cast %1 : (tensor<4xi32>) -> tensor<4xi16>
  return %1, %2, %3 : tensor<4xi32>, tensor<4xi8>, tensor<4xi16>
}

// -----

// CHECK-LABEL: func.func @slices(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[2, 60, 58, -1]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[0, 0, 1, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[0, 2, 0, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<[1, 5, 12, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %4 = tosa.slice %arg0, %2, %3 : (tensor<1x12x12x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x5x12x1xf32>
// CHECK-NEXT: %5 = tosa.slice %arg2, %1, %0 : (tensor<2x60x59x?xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x60x58x?xf32>
// CHECK-NEXT: return %arg1, %4, %5 : tensor<1x12x12x1xf32>, tensor<1x5x12x1xf32>, tensor<2x60x58x?xf32>
func.func @slices(%a: tensor<1x12x12x1xf32>, %b: tensor<1x12x12x1xf32>, %d: tensor<2x60x59x?xf32>) -> (tensor<1x12x12x1xf32>, tensor<1x5x12x1xf32>, tensor<2x60x58x?xf32>) {
  %c = "tosa.concat"(%a, %b) <{axis = 3 : i32}> : (tensor<1x12x12x1xf32>, tensor<1x12x12x1xf32>) -> tensor<1x12x12x2xf32>
  %s0 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %z0 = "tosa.const_shape"() <{values = dense<[1, 12, 12, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %0 = "tosa.slice"(%c, %s0, %z0) : (tensor<1x12x12x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x12x12x1xf32>
  %s1 = "tosa.const_shape"() <{values = dense<[0, 2, 0, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %z1 = "tosa.const_shape"() <{values = dense<[1, 5, 12, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.slice"(%c, %s1, %z1) : (tensor<1x12x12x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x5x12x1xf32>
  %s2 = "tosa.const_shape"() <{values = dense<[0, 0, 1, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %z2 = "tosa.const_shape"() <{values = dense<[-1, 60, 58, -1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %2 = "tosa.slice"(%d, %s2, %z2) : (tensor<2x60x59x?xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x60x58x?xf32>
  return %0, %1, %2 : tensor<1x12x12x1xf32>, tensor<1x5x12x1xf32>, tensor<2x60x58x?xf32>
}

// -----

// CHECK-LABEL: func.func @pad_conv(
// CHECK-NEXT: %0 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>) : () -> !tosa.shape<8>
// CHECK-NEXT: %2 = tosa.pad %arg0, %1, %0 : (tensor<1x8x4x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x10x6x3xf32>
// CHECK-NEXT: %3 = tosa.conv2d %arg0, %arg1, %arg2, %0, %0 pad([1, 2, 1, 2]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(false) : (tensor<1x8x4x3xf32>, tensor<1x3x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x5x1xf32>
// CHECK-NEXT: %4 = tosa.max_pool2d %2 kernel([3, 3]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<1x10x6x3xf32>) -> tensor<1x8x4x3xf32>
// CHECK-NEXT: %5 = tosa.max_pool2d %arg0 kernel([3, 3]) stride([1, 1]) pad([1, 1, 1, 1]) : (tensor<1x8x4x3xf32>) -> tensor<1x8x4x3xf32>
// CHECK-NEXT: return %3, %4, %5 : tensor<1x9x5x1xf32>, tensor<1x8x4x3xf32>, tensor<1x8x4x3xf32>
func.func @pad_conv(%input: tensor<1x8x4x3xf32>, %weight: tensor<1x3x3x3xf32>, %bias: tensor<1xf32>) -> (tensor<1x9x5x1xf32>, tensor<1x8x4x3xf32>, tensor<1x8x4x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %ps = "tosa.const_shape"() <{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %pc = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = "tosa.pad"(%input, %ps, %pc) : (tensor<1x8x4x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x10x6x3xf32>
  %c = "tosa.conv2d"(%p, %weight, %bias, %zp, %zp) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>}> : (tensor<1x10x6x3xf32>, tensor<1x3x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x5x1xf32>
  %m = "tosa.max_pool2d"(%p) <{kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x10x6x3xf32>) -> tensor<1x8x4x3xf32>
  %ps2 = "tosa.const_shape"() <{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %pcm = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p2 = "tosa.pad"(%input, %ps2, %pcm) : (tensor<1x8x4x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x10x6x3xf32>
  %m2 = "tosa.max_pool2d"(%p2) <{kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x10x6x3xf32>) -> tensor<1x8x4x3xf32>

  return %c, %m, %m2 : tensor<1x9x5x1xf32>, tensor<1x8x4x3xf32>, tensor<1x8x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_slice(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[0, 1, 0, 0]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %1 = tosa.const_shape  values(dense<[1, 14, 18, 3]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %2 = tosa.const  values(dense<0.000000e+00> : tensor<1xf32>) : () -> tensor<1xf32>
// CHECK-NEXT: %3 = tosa.const_shape  values(dense<[0, 0, 0, 0, 1, 1, 0, 0]> : tensor<8xindex>) : () -> !tosa.shape<8>
// CHECK-NEXT: %4 = tosa.pad %arg0, %3, %2 : (tensor<1x16x16x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x16x18x3xf32>
// CHECK-NEXT: %5 = tosa.slice %4, %0, %1 : (tensor<1x16x18x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x14x18x3xf32>
// CHECK-NEXT: return %5 : tensor<1x14x18x3xf32>
func.func @pad_slice(%x: tensor<1x16x16x3xf32>) -> tensor<1x14x18x3xf32> {
  %ps = "tosa.const_shape"() <{values = dense<[0, 0, 1, 1, 2, 2, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %pc = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = "tosa.pad"(%x, %ps, %pc) : (tensor<1x16x16x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x18x20x3xf32>
  %st = "tosa.const_shape"() <{values = dense<[0, 2, 1, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %sz = "tosa.const_shape"() <{values = dense<[1, 14, 18, 3]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %s = "tosa.slice"(%p, %st, %sz) : (tensor<1x18x20x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x14x18x3xf32>
  return %s : tensor<1x14x18x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_conv_int(
// CHECK-NEXT: %0 = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %2 = tosa.const_shape  values(dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>) : () -> !tosa.shape<8>
// CHECK-NEXT: %3 = tosa.pad %arg0, %2, %0 : (tensor<1x8x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x10x6x3xi8>
// CHECK-NEXT: %4 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) local_bound(true) : (tensor<1x8x4x3xi8>, tensor<1x3x3x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x1xi32>
// CHECK-NEXT: %5 = tosa.conv2d %3, %arg1, %arg2, %1, %1 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x10x6x3xi8>, tensor<1x3x3x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x1xi32>
// CHECK-NEXT: %6 = tosa.depthwise_conv2d %arg0, %arg3, %arg2, %0, %1 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) local_bound(false) : (tensor<1x8x4x3xi8>, tensor<3x3x3x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x3xi32>
// CHECK-NEXT: return %4, %5, %6 : tensor<1x8x4x1xi32>, tensor<1x8x4x1xi32>, tensor<1x8x4x3xi32>
func.func @pad_conv_int(%input: tensor<1x8x4x3xi8>, %weight: tensor<1x3x3x3xi8>, %bias: tensor<1xi32>, %dw: tensor<3x3x3x1xi8>) -> (tensor<1x8x4x1xi32>, tensor<1x8x4x1xi32>, tensor<1x8x4x3xi32>) {
  %zp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ps = "tosa.const_shape"() <{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %p = "tosa.pad"(%input, %ps, %zp) : (tensor<1x8x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x10x6x3xi8>
  %c = "tosa.conv2d"(%p, %weight, %bias, %zp, %wzp) <{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, local_bound = true}> : (tensor<1x10x6x3xi8>, tensor<1x3x3x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x1xi32>
  %c2 = "tosa.conv2d"(%p, %weight, %bias, %wzp, %wzp) <{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x10x6x3xi8>, tensor<1x3x3x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x1xi32>
  %d = "tosa.depthwise_conv2d"(%p, %dw, %bias, %zp, %wzp) <{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x10x6x3xi8>, tensor<3x3x3x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x4x3xi32>
  return %c, %c2, %d : tensor<1x8x4x1xi32>, tensor<1x8x4x1xi32>, tensor<1x8x4x3xi32>
}

// -----

// CHECK-LABEL: func.func @pad_pool_nofold(
// CHECK-NEXT: %0 = tosa.const_shape  values(dense<[1, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xindex>) : () -> !tosa.shape<8>
// CHECK-NEXT: %1 = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %2 = tosa.max_pool2d %arg0 kernel([5, 3]) stride([1, 1]) pad([2, 2, 1, 1]) nan_mode<IGNORE> : (tensor<1x8x4x3xi8>) -> tensor<1x8x4x3xi8>
// CHECK-NEXT: %3 = tosa.pad %arg0, %0, %1 : (tensor<1x8x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<2x8x4x3xi8>
// CHECK-NEXT: %4 = tosa.max_pool2d %3 kernel([3, 3]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<2x8x4x3xi8>) -> tensor<2x6x2x3xi8>
// CHECK-NEXT: return %2, %4 : tensor<1x8x4x3xi8>, tensor<2x6x2x3xi8>
func.func @pad_pool_nofold(%input: tensor<1x8x4x3xi8>) -> (tensor<1x8x4x3xi8>, tensor<2x6x2x3xi8>) {
  %lo = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ps = "tosa.const_shape"() <{values = dense<[0, 0, 2, 2, 1, 1, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %p = "tosa.pad"(%input, %ps, %lo) : (tensor<1x8x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x12x6x3xi8>
  %m = "tosa.max_pool2d"(%p) <{kernel = array<i64: 5, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x12x6x3xi8>) -> tensor<1x8x4x3xi8>
  %ps2 = "tosa.const_shape"() <{values = dense<[1, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %p2 = "tosa.pad"(%input, %ps2, %lo) : (tensor<1x8x4x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<2x8x4x3xi8>
  %m2 = "tosa.max_pool2d"(%p2) <{kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<2x8x4x3xi8>) -> tensor<2x6x2x3xi8>
  return %m, %m2 : tensor<1x8x4x3xi8>, tensor<2x6x2x3xi8>
}
