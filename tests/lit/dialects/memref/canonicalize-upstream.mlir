// RUN: strata-opt %s --canonicalize | filecheck %s
// Expected output: iree-opt's with the same options, line for line: reshape compositions,
// reinterpret_cast and extract_strided_metadata folds, dim of reshape, transpose and
// memory_space_cast chains, zero strides left dynamic, dead realloc.

// CHECK: module {
// CHECK-NEXT:   func.func @reinterpret_constants(%arg0: memref<?xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
// CHECK-NEXT:     %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [3, 3], strides: [3, 1] : memref<?xf32> to memref<3x3xf32, strided<[3, 1]>>
// CHECK-NEXT:     %cast = memref.cast %reinterpret_cast : memref<3x3xf32, strided<[3, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:     return %cast : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @reinterpret_chain(%arg0: memref<4x4xf32>, %arg1: index) -> memref<?xf32> {
// CHECK-NEXT:     %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1], strides: [1] : memref<4x4xf32> to memref<?xf32>
// CHECK-NEXT:     return %reinterpret_cast : memref<?xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @reinterpret_noop_shape(%arg0: memref<2x3xf32>) -> memref<2x3xf32> {
// CHECK-NEXT:     return %arg0 : memref<2x3xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @metadata_partial(%arg0: memref<4x?xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
// CHECK-NEXT:     %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg0 : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
// CHECK-NEXT:     %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%sizes#1, 4], strides: [%strides#0, 1] : memref<4x?xf32> to memref<?x4xf32, strided<[?, 1]>>
// CHECK-NEXT:     %cast = memref.cast %reinterpret_cast : memref<?x4xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:     return %cast : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @metadata_used(%arg0: memref<4x?xf32>) -> (index, index, index) {
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg0 : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
// CHECK-NEXT:     return %c4, %sizes#1, %strides#0 : index, index, index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @dim_of_reshape_nested(%arg0: memref<*xf32>, %arg1: memref<?xindex>, %arg2: index) -> index {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %0 = memref.load %arg1[%arg2] : memref<?xindex>
// CHECK-NEXT:     %1 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %c0) -> (index) {
// CHECK-NEXT:       %2 = arith.addi %arg4, %0 : index
// CHECK-NEXT:       scf.yield %2 : index
// CHECK-NEXT:     }
// CHECK-NEXT:     return %1 : index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @collapse_of_expand_to_expand(%arg0: memref<?x?xf32>, %arg1: index, %arg2: index) -> memref<?x?x5xf32> {
// CHECK-NEXT:     %expand_shape = memref.expand_shape %arg0 [[0, 1], [2, 3]] output_shape [%arg1, 4, %arg2, 5] : memref<?x?xf32> into memref<?x4x?x5xf32>
// CHECK-NEXT:     %collapse_shape = memref.collapse_shape %expand_shape [[0], [1, 2], [3]] : memref<?x4x?x5xf32> into memref<?x?x5xf32>
// CHECK-NEXT:     return %collapse_shape : memref<?x?x5xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @collapse_of_expand_to_collapse(%arg0: memref<2x3x4xf32>) -> memref<24xf32> {
// CHECK-NEXT:     %collapse_shape = memref.collapse_shape %arg0 [[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK-NEXT:     return %collapse_shape : memref<24xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @expand_of_expand(%arg0: memref<24xf32>) -> memref<2x3x2x2xf32> {
// CHECK-NEXT:     %expand_shape = memref.expand_shape %arg0 [[0, 1, 2, 3]] output_shape [2, 3, 2, 2] : memref<24xf32> into memref<2x3x2x2xf32>
// CHECK-NEXT:     return %expand_shape : memref<2x3x2x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @collapse_of_strided_expand(%arg0: memref<6xf32, strided<[2]>>) -> memref<6xf32, strided<[2]>> {
// CHECK-NEXT:     return %arg0 : memref<6xf32, strided<[2]>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @collapse_of_cast_same(%arg0: memref<2x3xf32>) -> memref<6xf32> {
// CHECK-NEXT:     %collapse_shape = memref.collapse_shape %arg0 [[0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK-NEXT:     return %collapse_shape : memref<6xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @transposes(%arg0: memref<2x3xf32>) -> memref<2x3xf32> {
// CHECK-NEXT:     return %arg0 : memref<2x3xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @atomic_of_cast(%arg0: memref<4xi32>, %arg1: i32, %arg2: index) -> i32 {
// CHECK-NEXT:     %0 = memref.atomic_rmw addi %arg1, %arg0[%arg2] : (i32, memref<4xi32>) -> i32
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @spaces(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32, 2>) {
// CHECK-NEXT:     %memspacecast = memref.memory_space_cast %arg0 : memref<4xf32> to memref<4xf32, 2>
// CHECK-NEXT:     return %arg0, %memspacecast : memref<4xf32>, memref<4xf32, 2>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @zero_stride(%arg0: memref<8xf32>) -> memref<2xf32, strided<[?], offset: 1>> {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %subview = memref.subview %arg0[1] [2] [%c0] : memref<8xf32> to memref<2xf32, strided<[?], offset: 1>>
// CHECK-NEXT:     return %subview : memref<2xf32, strided<[?], offset: 1>>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @realloc_dead(%arg0: memref<2xf32>, %arg1: f32) {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func @reinterpret_constants(%m: memref<?xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %m to offset: [%c0], sizes: [%c3, %c3], strides: [%c3, %c1] : memref<?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %r : memref<?x?xf32, strided<[?, ?], offset: ?>>
}
func.func @reinterpret_chain(%m: memref<4x4xf32>, %n: index) -> memref<?xf32> {
  %s = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  %r = memref.reinterpret_cast %s to offset: [0], sizes: [%n], strides: [1] : memref<2x2xf32, strided<[4, 1]>> to memref<?xf32>
  return %r : memref<?xf32>
}
func.func @reinterpret_noop_shape(%m: memref<2x3xf32>) -> memref<2x3xf32> {
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<2x3xf32> to memref<2x3xf32>
  return %r : memref<2x3xf32>
}
func.func @metadata_partial(%m: memref<4x?xf32>) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %b, %o, %s:2, %st:2 = memref.extract_strided_metadata %m : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  %r = memref.reinterpret_cast %b to offset: [%o], sizes: [%s#1, %s#0], strides: [%st#0, %st#1] : memref<f32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return %r : memref<?x?xf32, strided<[?, ?], offset: ?>>
}
func.func @metadata_used(%m: memref<4x?xf32>) -> (index, index, index) {
  %b, %o, %s:2, %st:2 = memref.extract_strided_metadata %m : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  return %s#0, %s#1, %st#0 : index, index, index
}
func.func @dim_of_reshape_nested(%m: memref<*xf32>, %shape: memref<?xindex>, %n: index) -> index {
  %r = memref.reshape %m(%shape) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %d = memref.dim %r, %n : memref<*xf32>
    %a = arith.addi %acc, %d : index
    scf.yield %a : index
  }
  return %s : index
}
func.func @collapse_of_expand_to_expand(%m: memref<?x?xf32>, %a: index, %b: index) -> memref<?x?x5xf32> {
  %e = memref.expand_shape %m [[0, 1], [2, 3]] output_shape [%a, 4, %b, 5] : memref<?x?xf32> into memref<?x4x?x5xf32>
  %c = memref.collapse_shape %e [[0], [1, 2], [3]] : memref<?x4x?x5xf32> into memref<?x?x5xf32>
  return %c : memref<?x?x5xf32>
}
func.func @collapse_of_expand_to_collapse(%m: memref<2x3x4xf32>) -> memref<24xf32> {
  %e = memref.expand_shape %m [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : memref<2x3x4xf32> into memref<2x3x2x2xf32>
  %c = memref.collapse_shape %e [[0, 1, 2, 3]] : memref<2x3x2x2xf32> into memref<24xf32>
  return %c : memref<24xf32>
}
func.func @expand_of_expand(%m: memref<24xf32>) -> memref<2x3x2x2xf32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
  %f = memref.expand_shape %e [[0, 1], [2, 3]] output_shape [2, 3, 2, 2] : memref<6x4xf32> into memref<2x3x2x2xf32>
  return %f : memref<2x3x2x2xf32>
}
func.func @collapse_of_strided_expand(%m: memref<6xf32, strided<[2]>>) -> memref<6xf32, strided<[2]>> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<6xf32, strided<[2]>> into memref<2x3xf32, strided<[6, 2]>>
  %c = memref.collapse_shape %e [[0, 1]] : memref<2x3xf32, strided<[6, 2]>> into memref<6xf32, strided<[2]>>
  return %c : memref<6xf32, strided<[2]>>
}
func.func @collapse_of_cast_same(%m: memref<2x3xf32>) -> memref<6xf32> {
  %c = memref.cast %m : memref<2x3xf32> to memref<2x?xf32>
  %d = memref.collapse_shape %c [[0, 1]] : memref<2x?xf32> into memref<?xf32>
  %e = memref.cast %d : memref<?xf32> to memref<6xf32>
  return %e : memref<6xf32>
}
func.func @transposes(%m: memref<2x3xf32>) -> memref<2x3xf32> {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  %u = memref.transpose %t (d0, d1) -> (d1, d0) : memref<3x2xf32, strided<[1, 3]>> to memref<2x3xf32>
  return %u : memref<2x3xf32>
}
func.func @atomic_of_cast(%m: memref<4xi32>, %v: i32, %i: index) -> i32 {
  %c = memref.cast %m : memref<4xi32> to memref<?xi32>
  %r = memref.atomic_rmw addi %v, %c[%i] : (i32, memref<?xi32>) -> i32
  return %r : i32
}
func.func @spaces(%m: memref<4xf32>) -> (memref<4xf32>, memref<4xf32, 2>) {
  %a = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32>
  %b = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>
  %c = memref.memory_space_cast %b : memref<4xf32, 1> to memref<4xf32, 2>
  return %a, %c : memref<4xf32>, memref<4xf32, 2>
}
func.func @zero_stride(%m: memref<8xf32>) -> memref<2xf32, strided<[?], offset: 1>> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %s = memref.subview %m[1] [%c2] [%c0] : memref<8xf32> to memref<?xf32, strided<[?], offset: 1>>
  %t = memref.cast %s : memref<?xf32, strided<[?], offset: 1>> to memref<2xf32, strided<[?], offset: 1>>
  return %t : memref<2xf32, strided<[?], offset: 1>>
}
func.func @realloc_dead(%m: memref<2xf32>, %v: f32) {
  %r = memref.realloc %m : memref<2xf32> to memref<4xf32>
  %c = arith.constant 3 : index
  memref.store %v, %r[%c] : memref<4xf32>
  memref.dealloc %r : memref<4xf32>
  return
}
