"""tosa-to-linalg checked by execution: every function runs in the reference interpreter
(TOSA ops after the specification, strata/interpreter/tosa.py) before and after
`tosa-to-linalg-pipeline`, on random inputs and on inputs chosen for edge cases, and the
outputs must agree. After the pipeline no tosa op but const_shape may remain."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.passes.pass_manager import PassFailure
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

PIPELINE = "tosa-to-linalg-pipeline"

ZF = "%zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>"

CASES = {
    "elementwise_f32": """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %c: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.sub %c, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %s = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %s : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %3 = tosa.maximum %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %4 = tosa.minimum %a, %b nan_mode<IGNORE> : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.abs %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.pow %5, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %zf = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %7 = tosa.negate %2, %zf, %zf : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}""",
    "unary_f32": """
func.func @main(%a: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %0 = tosa.exp %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = tosa.log %0 : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = tosa.sin %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = tosa.cos %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %4 = tosa.tanh %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %5 = tosa.sigmoid %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %6 = tosa.erf %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %7 = tosa.reciprocal %0 : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %8 = tosa.rsqrt %0 : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %9 = tosa.ceil %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %10 = tosa.floor %a : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}""",
    "integer": """
func.func @main(%a: tensor<2x3xi32>, %b: tensor<1x3xi32>, %s: tensor<2x3xi32>, %p: tensor<2x3xi1>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>) {
  %c = tosa.const values(dense<[[1, 2, 3], [1, 4, 2]]> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
  %sh = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %1 = tosa.mul %a, %b, %sh : (tensor<2x3xi32>, tensor<1x3xi32>, tensor<1xi8>) -> tensor<2x3xi32>
  %2 = tosa.intdiv %a, %c : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = tosa.bitwise_and %a, %b : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %4 = tosa.bitwise_xor %a, %s : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = tosa.logical_left_shift %a, %c : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %6 = tosa.arithmetic_right_shift %a, %c round(true) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = tosa.logical_right_shift %a, %c : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %8 = tosa.greater_equal %a, %b : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  %9 = tosa.logical_xor %8, %p : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %10 = tosa.select %9, %a, %s : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %11 = tosa.clamp %a min_val(-3 : i32) max_val(4 : i32) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %12 = tosa.abs %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %13 = tosa.equal %a, %s : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>
}""",
    "mul_shift_and_narrow": """
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %x: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi8>) {
  %sh = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %sh : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %1 = tosa.mul %x, %x, %z : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  %2 = tosa.negate %x, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %3 = tosa.clz %x : (tensor<4xi8>) -> tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi8>
}""",
    "casts": """
func.func @main(%f: tensor<6xf32>, %i: tensor<6xi8>, %b: tensor<6xi1>) -> (tensor<6xi32>, tensor<6xi8>, tensor<6xf32>, tensor<6xi1>, tensor<6xf16>, tensor<6xi16>, tensor<6xf32>, tensor<6xi1>) {
  %0 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xi32>
  %1 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xi8>
  %2 = tosa.cast %i : (tensor<6xi8>) -> tensor<6xf32>
  %3 = tosa.cast %i : (tensor<6xi8>) -> tensor<6xi1>
  %4 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xf16>
  %5 = tosa.cast %i : (tensor<6xi8>) -> tensor<6xi16>
  %6 = tosa.cast %b : (tensor<6xi1>) -> tensor<6xf32>
  %7 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<6xi32>, tensor<6xi8>, tensor<6xf32>, tensor<6xi1>, tensor<6xf16>, tensor<6xi16>, tensor<6xf32>, tensor<6xi1>
}""",
    "reductions": """
func.func @main(%a: tensor<2x3x4xf32>, %i: tensor<2x3xi32>, %b: tensor<3x2xi1>) -> (tensor<2x1x4xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x1x4xf32>, tensor<2x1xi32>, tensor<3x1xi1>, tensor<1x2xi1>, tensor<2x4xi32>, tensor<3xi32>, tensor<1x3x4xf32>) {
  %0 = tosa.reduce_sum %a axis(1) : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = tosa.reduce_max %a axis(0) : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %2 = tosa.reduce_min %a axis(2) : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %3 = tosa.reduce_product %a axis(1) : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %4 = tosa.reduce_sum %i axis(1) : (tensor<2x3xi32>) -> tensor<2x1xi32>
  %5 = tosa.reduce_all %b axis(1) : (tensor<3x2xi1>) -> tensor<3x1xi1>
  %6 = tosa.reduce_any %b axis(0) : (tensor<3x2xi1>) -> tensor<1x2xi1>
  %7 = tosa.argmax %a axis(1) : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  %8 = tosa.argmax %i axis(0) : (tensor<2x3xi32>) -> tensor<3xi32>
  %9 = tosa.reduce_max %a axis(0) nan_mode<IGNORE> : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<2x1x4xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x1x4xf32>, tensor<2x1xi32>, tensor<3x1xi1>, tensor<1x2xi1>, tensor<2x4xi32>, tensor<3xi32>, tensor<1x3x4xf32>
}""",
    "matmul": """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<3x4xf32>, %d: tensor<4x2xf32>, %e: tensor<1x4x5xf32>) -> (tensor<2x3x5xf32>, tensor<3x2xf32>, tensor<2x3x5xf32>) {
  """ + ZF + """
  %0 = tosa.matmul %a, %b, %zf, %zf : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %1 = tosa.matmul %c, %d, %zf, %zf : (tensor<3x4xf32>, tensor<4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2xf32>
  %2 = tosa.matmul %a, %e, %zf, %zf : (tensor<2x3x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<3x2xf32>, tensor<2x3x5xf32>
}""",
    "matmul_i8_zero_points": """
func.func @main(%a: tensor<1x3x4xi8>, %b: tensor<1x4x2xi8>) -> (tensor<1x3x2xi32>, tensor<1x3x2xi32>) {
  %za = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %zb = tosa.const values(dense<-2> : tensor<1xi8>) : () -> tensor<1xi8>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
  %1 = tosa.matmul %a, %b, %z, %z : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
  return %0, %1 : tensor<1x3x2xi32>, tensor<1x3x2xi32>
}""",
    "conv2d": """
func.func @main(%x: tensor<1x5x6x3xf32>, %w: tensor<4x3x2x3xf32>, %b: tensor<4xf32>) -> (tensor<1x5x6x4xf32>, tensor<1x2x3x4xf32>, tensor<1x1x5x4xf32>) {
  """ + ZF + """
  %0 = tosa.conv2d %x, %w, %b, %zf, %zf pad([1, 1, 0, 1]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6x4xf32>
  %1 = tosa.conv2d %x, %w, %b, %zf, %zf pad([0, 0, 0, 0]) stride([2, 2]) dilation([1, 1]) acc_type(f32) : (tensor<1x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x4xf32>
  %2 = tosa.conv2d %x, %w, %b, %zf, %zf pad([0, 0, 0, 0]) stride([2, 1]) dilation([2, 1]) acc_type(f32) : (tensor<1x5x6x3xf32>, tensor<4x3x2x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x5x4xf32>
  return %0, %1, %2 : tensor<1x5x6x4xf32>, tensor<1x2x3x4xf32>, tensor<1x1x5x4xf32>
}""",
    "conv2d_i8": """
func.func @main(%x: tensor<1x4x4x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>) -> (tensor<1x4x4x3xi32>) {
  %zx = tosa.const values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %zw = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %zx, %zw pad([1, 0, 1, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x4x4x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x3xi32>
  return %0 : tensor<1x4x4x3xi32>
}""",
    "depthwise_conv2d": """
func.func @main(%x: tensor<2x5x5x3xf32>, %w: tensor<3x2x3x2xf32>, %b: tensor<6xf32>) -> (tensor<2x3x4x6xf32>) {
  """ + ZF + """
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zf, %zf pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<2x5x5x3xf32>, tensor<3x2x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}""",
    "conv3d": """
func.func @main(%x: tensor<1x3x4x4x2xf32>, %w: tensor<3x2x2x2x2xf32>, %b: tensor<1xf32>) -> (tensor<1x2x3x3x3xf32>) {
  """ + ZF + """
  %0 = tosa.conv3d %x, %w, %b, %zf, %zf pad([0, 0, 0, 0, 0, 0]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32) : (tensor<1x3x4x4x2xf32>, tensor<3x2x2x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x3x3xf32>
  return %0 : tensor<1x2x3x3x3xf32>
}""",
    "pooling": """
func.func @main(%x: tensor<1x6x6x2xf32>, %i: tensor<1x4x4x2xi8>) -> (tensor<1x6x6x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x2x2x2xi8>) {
  """ + ZF + """
  %0 = tosa.max_pool2d %x kernel([3, 3]) stride([1, 1]) pad([1, 1, 1, 1]) : (tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %1 = tosa.avg_pool2d %x, %zf, %zf kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x6x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %2 = tosa.avg_pool2d %x, %zf, %zf kernel([3, 3]) stride([2, 2]) pad([1, 0, 1, 0]) acc_type(f32) : (tensor<1x6x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %3 = tosa.max_pool2d %i kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
  return %0, %1, %2, %3 : tensor<1x6x6x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x2x2x2xi8>
}""",
    "data_layout": """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x1x4xf32>) -> (tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<24xf32>, tensor<2x4x4xf32>, tensor<1x2x3xf32>, tensor<3x5x6xf32>, tensor<4x3x8xf32>, tensor<2x3x4xf32>, tensor<4x6xf32>) {
  %0 = tosa.transpose %a perms([2, 0, 1]) : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %s1 = tosa.const_shape values(dense<[6, 4]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %1 = tosa.reshape %a, %s1 : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  %s2 = tosa.const_shape values(dense<[2, -1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %2 = tosa.reshape %a, %s2 : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<2x12xf32>
  %s3 = tosa.const_shape values(dense<[24]> : tensor<1xindex>) : () -> !tosa.shape<1>
  %3 = tosa.reshape %a, %s3 : (tensor<2x3x4xf32>, !tosa.shape<1>) -> tensor<24xf32>
  %4 = tosa.concat %a, %b axis(1) : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
  %st = tosa.const_shape values(dense<[0, 1, 1]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %sz = tosa.const_shape values(dense<[1, 2, -1]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %5 = tosa.slice %a, %st, %sz : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %pads = tosa.const_shape values(dense<[1, 0, 0, 2, 1, 1]> : tensor<6xindex>) : () -> !tosa.shape<6>
  %pc = tosa.const values(dense<1.5> : tensor<1xf32>) : () -> tensor<1xf32>
  %6 = tosa.pad %a, %pads, %pc : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<3x5x6xf32>
  %m = tosa.const_shape values(dense<[2, 1, 2]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %7 = tosa.tile %a, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<4x3x8xf32>
  %8 = tosa.reverse %a axis(2) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s4 = tosa.const_shape values(dense<[4, 6]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %9 = tosa.reshape %a, %s4 : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<2x12xf32>, tensor<24xf32>, tensor<2x4x4xf32>, tensor<1x2x3xf32>, tensor<3x5x6xf32>, tensor<4x3x8xf32>, tensor<2x3x4xf32>, tensor<4x6xf32>
}""",
    "dynamic_shapes": """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>, %m: tensor<?x4x2xf32>, %x: tensor<?x5x5x2xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<4x?xf32>, tensor<?x4x4xf32>, tensor<?x4x3x3xf32>, tensor<?x4x4x2xf32>) {
  """ + ZF + """
  %s = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %s : (tensor<?x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  %1 = tosa.reduce_sum %0 axis(1) : (tensor<?x4xf32>) -> tensor<?x1xf32>
  %2 = tosa.argmax %a axis(1) : (tensor<?x4xf32>) -> tensor<?xi32>
  %3 = tosa.transpose %a perms([1, 0]) : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %t = tosa.transpose %m perms([0, 2, 1]) : (tensor<?x4x2xf32>) -> tensor<?x2x4xf32>
  %4 = tosa.matmul %m, %t, %zf, %zf : (tensor<?x4x2xf32>, tensor<?x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x4xf32>
  %w = tosa.const values(dense<[[[[1.0, -1.0]], [[0.5, 2.0]]], [[[0.0, 1.0]], [[1.0, 1.0]]], [[[2.0, 0.5]], [[-1.0, 0.0]]]]> : tensor<3x2x1x2xf32>) : () -> tensor<3x2x1x2xf32>
  %bias = tosa.const values(dense<[0.5, 1.0, -1.0]> : tensor<3xf32>) : () -> tensor<3xf32>
  %5 = tosa.conv2d %x, %w, %bias, %zf, %zf pad([0, 0, 0, 0]) stride([1, 2]) dilation([1, 1]) acc_type(f32) : (tensor<?x5x5x2xf32>, tensor<3x2x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x3x3xf32>
  %6 = tosa.max_pool2d %x kernel([2, 2]) stride([1, 1]) pad([0, 0, 0, 0]) : (tensor<?x5x5x2xf32>) -> tensor<?x4x4x2xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<4x?xf32>, tensor<?x4x4xf32>, tensor<?x4x3x3xf32>, tensor<?x4x4x2xf32>
}""",
    "quantized": """
func.func @main(%x: tensor<2x3xi32>, %y: tensor<2x3xi8>, %u: tensor<2x3xi8>, %h: tensor<4xi16>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi16>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<4xi32>) {
  %m = tosa.const values(dense<1518500250> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %mc = tosa.const values(dense<[1073741824, 1518500250, 2147483647]> : tensor<3xi32>) : () -> tensor<3xi32>
  %sc = tosa.const values(dense<[30, 31, 34]> : tensor<3xi8>) : () -> tensor<3xi8>
  %m16 = tosa.const values(dense<[16384]> : tensor<1xi16>) : () -> tensor<1xi16>
  %s16 = tosa.const values(dense<[13]> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %z8 = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %z16 = tosa.const values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %zu = tosa.const values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  %1 = tosa.rescale %x, %mc, %sc, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  %2 = tosa.rescale %y, %m16, %s16, %z8, %z16 scale32(false) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<2x3xi16>
  %3 = tosa.rescale %u, %m, %s, %zu, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(true) output_unsigned(false) : (tensor<2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
  %ts = tosa.const_shape values(dense<32> : tensor<1xindex>) : () -> !tosa.shape<1>
  %ts16 = tosa.const_shape values(dense<128> : tensor<1xindex>) : () -> !tosa.shape<1>
  %t = tosa.const values(dense<[-128, -100, -50, 0, 10, 20, 30, 40]> : tensor<8xi8>) : () -> tensor<8xi8>
  %tab = tosa.tile %t, %ts : (tensor<8xi8>, !tosa.shape<1>) -> tensor<256xi8>
  %4 = tosa.table %y, %tab : (tensor<2x3xi8>, tensor<256xi8>) -> tensor<2x3xi8>
  %t16 = tosa.const values(dense<[-1000, 200, 3000, -70]> : tensor<4xi16>) : () -> tensor<4xi16>
  %tab16 = tosa.tile %t16, %ts16 : (tensor<4xi16>, !tosa.shape<1>) -> tensor<512xi16>
  %one = tosa.const values(dense<7> : tensor<1xi16>) : () -> tensor<1xi16>
  %tab513 = tosa.concat %tab16, %one axis(0) : (tensor<512xi16>, tensor<1xi16>) -> tensor<513xi16>
  %5 = tosa.table %h, %tab513 : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi16>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<4xi32>
}""",
    "gather_and_constants": """
func.func @main(%v: tensor<2x5x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x2xi32>) {
  %i = tosa.const values(dense<[[0, 4, 2, 2], [1, 1, 3, 0]]> : tensor<2x4xi32>) : () -> tensor<2x4xi32>
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  %c = tosa.const values(dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>) : () -> tensor<2x2xi32>
  %1 = tosa.identity %c : (tensor<2x2xi32>) -> tensor<2x2xi32>
  return %0, %1 : tensor<2x4x3xf32>, tensor<2x2xi32>
}""",
}


def _lower(text):
    from strata.compiler import build_pipeline
    m = parse_source(text, default_context(), "<test>")
    build_pipeline(PIPELINE).run(m)
    return m


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowering_preserves_semantics(name):
    check_pass_preserves_semantics(CASES[name], PIPELINE, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_tosa_op_left(name):
    m = _lower(CASES[name])
    left = {op.name for op in m.walk() if op.name.startswith("tosa.")}
    assert left <= {"tosa.const_shape"}, left


EDGE_INPUTS = {
    "quantized": [np.array([[2147483647, -2147483648, 5], [-5, 1 << 20, -(1 << 20)]], np.int32),
                  np.array([[-128, 127, 0], [3, -3, 100]], np.int8),
                  np.array([[-1, 127, 0], [-128, 1, 2]], np.int8),
                  np.array([-32768, 32767, 0, -129], np.int16)],
    # NaN propagation and ignoring, ties, saturating casts, -128 negated
    "elementwise_f32": [np.array([[np.nan, 1.0, -2.0], [0.5, np.nan, 3.0]], np.float32),
                        np.array([[1.0, np.nan, -2.0]], np.float32),
                        np.array([[np.nan], [2.0]], np.float32)],
    "casts": [np.array([0.5, 1.5, -2.5, 3e9, -3e9, 200.0], np.float32),
              np.array([-128, 127, 0, 1, -1, 5], np.int8),
              np.array([True, False, True, True, False, False])],
    "mul_shift_and_narrow": [np.array([1 << 20, -(1 << 20), 7, -7], np.int32),
                             np.array([3, 3, 1, 1], np.int32),
                             np.array([-128, 127, 0, -1], np.int8)],
    "reductions": None,
}


@pytest.mark.parametrize("name", [k for k, v in EDGE_INPUTS.items() if v is not None])
def test_edge_values(name):
    check_pass_preserves_semantics(CASES[name], PIPELINE, inputs=EDGE_INPUTS[name],
                                   rtol=1e-4, atol=1e-5)


def test_argmax_and_reductions_with_nan():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    a[0, 1, 2] = np.nan
    a[1, :, 3] = np.nan
    i = np.array([[3, 3, 1], [2, 5, 5]], np.int32)
    b = np.array([[True, False], [True, True], [False, False]])
    check_pass_preserves_semantics(CASES["reductions"], PIPELINE, inputs=[a, i, b])


APPLY_SCALE = """
func.func @main(%v: i32, %m: i32, %s: i8, %t: tensor<4xi32>, %u: tensor<4xi8>) -> (i32, i32, tensor<4xi32>) {
  %0 = tosa.apply_scale %v, %m, %s rounding_mode<SINGLE_ROUND> : (i32, i32, i8) -> i32
  %1 = tosa.apply_scale %v, %m, %s rounding_mode<DOUBLE_ROUND> : (i32, i32, i8) -> i32
  %2 = tosa.apply_scale %t, %t, %u rounding_mode<DOUBLE_ROUND> : (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  return %0, %1, %2 : i32, i32, tensor<4xi32>
}"""


@pytest.mark.parametrize("values", [
    [np.int32(1 << 30), np.int32(1518500250), np.int8(33), np.array([7, -7, 1 << 20, 3], np.int32),
     np.array([2, 3, 40, 32], np.int8)],
    [np.int32(-12345), np.int32(2147483647), np.int8(40), np.array([-1, 0, 5, 9], np.int32),
     np.array([1, 2, 3, 4], np.int8)]])
def test_apply_scale_to_arith(values):
    check_pass_preserves_semantics(APPLY_SCALE, "tosa-to-arith", inputs=values)


def test_unlowerable_op_is_reported_at_the_op():
    text = """
func.func @main(%x: tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8> {
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %z, %z kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x4x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}"""
    with pytest.raises(PassFailure) as e:
        _lower(text)
    d = e.value.diag
    assert "failed to legalize operation 'tosa.avg_pool2d'" in d.message
    assert d.loc.file_line_col().line == 4
    assert any("integer avg_pool2d" in n.message for n in d.notes)
