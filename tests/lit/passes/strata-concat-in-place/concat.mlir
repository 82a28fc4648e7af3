// RUN: strata-opt %s --split-input-file --strata-concat-in-place | filecheck %s

// The inputs of a concatenation (copies into slices of a new buffer, as
// one-shot-bufferize writes tensor.concat) are written in their slices: the new buffer
// is allocated first, each input's buffer becomes a subview of it, the copies go.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @concat(
//  CHECK-NEXT:   %[[CST:.*]] = arith.constant
//  CHECK-NEXT:   %[[C:.*]] = memref.alloc() : memref<4x12xf32>
//  CHECK-NEXT:   %[[S0:.*]] = memref.subview %[[C]][0, 0] [4, 8] [1, 1] : memref<4x12xf32> to memref<4x8xf32, strided<[12, 1]>>
//  CHECK-NEXT:   linalg.generic {{.*}} ins(%arg0 : memref<4x8xf32>) outs(%[[S0]] : memref<4x8xf32, strided<[12, 1]>>)
//       CHECK:   %[[S1:.*]] = memref.subview %[[C]][0, 8] [4, 4] [1, 1] : memref<4x12xf32> to memref<4x4xf32, strided<[12, 1], offset: 8>>
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[S1]] : memref<4x4xf32, strided<[12, 1], offset: 8>>)
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[C]]
func.func @concat(%x: memref<4x8xf32>) -> memref<4x12xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = arith.addf %in, %cst : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<4x4xf32>)
  %c = memref.alloc() : memref<4x12xf32>
  %s0 = memref.subview %c[0, 0] [4, 8] [1, 1] : memref<4x12xf32> to memref<4x8xf32, strided<[12, 1]>>
  memref.copy %a, %s0 : memref<4x8xf32> to memref<4x8xf32, strided<[12, 1]>>
  %s1 = memref.subview %c[0, 8] [4, 4] [1, 1] : memref<4x12xf32> to memref<4x4xf32, strided<[12, 1], offset: 8>>
  memref.copy %b, %s1 : memref<4x4xf32> to memref<4x4xf32, strided<[12, 1], offset: 8>>
  return %c : memref<4x12xf32>
}

// -----

// A chain (DenseNet): the first concatenation, read by an op and then copied into the
// second, becomes a view of the second's buffer; so do its own inputs. One buffer.
// CHECK-LABEL: func.func @chain(
//  CHECK-NEXT:   %[[CST:.*]] = arith.constant
//  CHECK-NEXT:   %[[BIG:.*]] = memref.alloc() : memref<6x4xf32>
//  CHECK-NEXT:   %[[V1:.*]] = memref.subview %[[BIG]][0, 0] [4, 4] [1, 1]
//  CHECK-NEXT:   %[[V0:.*]] = memref.subview %[[V1]][0, 0] [2, 4] [1, 1]
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[V0]] :
//  CHECK-NEXT:   %[[V2:.*]] = memref.subview %[[V1]][2, 0] [2, 4] [1, 1]
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[V2]] :
//  CHECK-NEXT:   %[[R:.*]] = memref.alloc() : memref<4x4xf32>
//  CHECK-NEXT:   linalg.copy ins(%[[V1]] : memref<4x4xf32, strided<[4, 1]>>) outs(%[[R]] : memref<4x4xf32>)
//  CHECK-NEXT:   %[[V3:.*]] = memref.subview %[[BIG]][4, 0] [2, 4] [1, 1]
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[V3]] :
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[BIG]], %[[R]]
func.func @chain() -> (memref<6x4xf32>, memref<4x4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  %b = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<2x4xf32>)
  %c1 = memref.alloc() : memref<4x4xf32>
  %s0 = memref.subview %c1[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s0 : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %s1 = memref.subview %c1[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %b, %s1 : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  %r = memref.alloc() : memref<4x4xf32>
  linalg.copy ins(%c1 : memref<4x4xf32>) outs(%r : memref<4x4xf32>)
  %d = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<2x4xf32>)
  %c2 = memref.alloc() : memref<6x4xf32>
  %t0 = memref.subview %c2[0, 0] [4, 4] [1, 1] : memref<6x4xf32> to memref<4x4xf32, strided<[4, 1]>>
  memref.copy %c1, %t0 : memref<4x4xf32> to memref<4x4xf32, strided<[4, 1]>>
  %t1 = memref.subview %c2[4, 0] [2, 4] [1, 1] : memref<6x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 16>>
  memref.copy %d, %t1 : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 16>>
  return %c2, %r : memref<6x4xf32>, memref<4x4xf32>
}

// -----

// Not in place: an input written after the copy (the slice would change), an input
// that is a function argument or a global (not ours to move), an input returned (it
// escapes), the big buffer written over the slice after the copy.
// CHECK-LABEL: func.func @written_after(
//  CHECK: memref.copy
//  CHECK: linalg.fill
func.func @written_after() -> memref<4x4xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  %c = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<4x4xf32>)
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %r = memref.alloc() : memref<4x4xf32>
  linalg.copy ins(%c : memref<4x4xf32>) outs(%r : memref<4x4xf32>)
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  return %r : memref<4x4xf32>
}

// CHECK-LABEL: func.func @argument(
//  CHECK: memref.copy %arg0
func.func @argument(%a: memref<2x4xf32>) -> memref<4x4xf32> {
  %c = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.subview %c[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %a, %t : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  return %c : memref<4x4xf32>
}

memref.global "private" constant @k : memref<2x4xf32> = dense<2.0>
// CHECK-LABEL: func.func @global(
//  CHECK: %[[G:.*]] = memref.get_global @k
//  CHECK: memref.copy %[[G]]
func.func @global() -> memref<4x4xf32> {
  %g = memref.get_global @k : memref<2x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %g, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.subview %c[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %g, %t : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  return %c : memref<4x4xf32>
}

// CHECK-LABEL: func.func @returned(
//  CHECK: memref.copy %[[A:.*]], %{{.*}}
//  CHECK: return %{{.*}}, %[[A]]
func.func @returned() -> (memref<4x4xf32>, memref<2x4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  %c = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.subview %c[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  linalg.fill ins(%cst : f32) outs(%t : memref<2x4xf32, strided<[4, 1], offset: 8>>)
  return %c, %a : memref<4x4xf32>, memref<2x4xf32>
}

// The big buffer overwritten in place after the concatenation (a ReLU on it) while the
// input is still read: the input must keep its own values.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @big_written_after(
//  CHECK: memref.copy
func.func @big_written_after() -> (memref<4x4xf32>, memref<2x4xf32>) {
  %cst = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  %c = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.subview %c[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  linalg.fill ins(%cst : f32) outs(%t : memref<2x4xf32, strided<[4, 1], offset: 8>>)
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%c : memref<4x4xf32>) {
  ^bb0(%out: f32):
    %m = arith.maximumf %out, %zero : f32
    linalg.yield %m : f32
  }
  %r = memref.alloc() : memref<2x4xf32>
  linalg.copy ins(%a : memref<2x4xf32>) outs(%r : memref<2x4xf32>)
  return %c, %r : memref<4x4xf32>, memref<2x4xf32>
}

// -----

// An input concatenated twice: its first copy is placed, the second stays (a copy from
// the first slice). An input read after the copy is read from its slice.
// CHECK-LABEL: func.func @twice(
//  CHECK-NEXT:   %[[CST:.*]] = arith.constant
//  CHECK-NEXT:   %[[C:.*]] = memref.alloc() : memref<4x4xf32>
//  CHECK-NEXT:   %[[A:.*]] = memref.subview %[[C]][0, 0] [2, 4] [1, 1]
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[A]] :
//  CHECK-NEXT:   %[[T:.*]] = memref.subview %[[C]][2, 0] [2, 4] [1, 1]
//  CHECK-NEXT:   memref.copy %[[A]], %[[T]]
//  CHECK-NEXT:   %[[R:.*]] = memref.alloc() : memref<2x4xf32>
//  CHECK-NEXT:   linalg.copy ins(%[[A]] : {{.*}}) outs(%[[R]] :
func.func @twice() -> (memref<4x4xf32>, memref<2x4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x4xf32>)
  %c = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %a, %s : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.subview %c[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %a, %t : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  %r = memref.alloc() : memref<2x4xf32>
  linalg.copy ins(%a : memref<2x4xf32>) outs(%r : memref<2x4xf32>)
  return %c, %r : memref<4x4xf32>, memref<2x4xf32>
}

// -----

// A convolution keeps its kernel's output form (each image contiguous): its output may
// be a channel slice (dim 1), not a slice of rows (dim 2); any other producer may write
// a slice along any dim (the fill of @rows).
// CHECK-LABEL: func.func @conv_channels(
//       CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : memref<1x2x4x4xf32, strided<[80, 16, 4, 1], offset: 48>>)
//  CHECK-NEXT: memref.subview
//  CHECK-NEXT: memref.copy %arg0
//  CHECK-NEXT: return
func.func @conv_channels(%x: memref<1x3x4x4xf32>, %w: memref<2x3x1x1xf32>) -> memref<1x5x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x3x4x4xf32>, memref<2x3x1x1xf32>) outs(%y : memref<1x2x4x4xf32>)
  %c = memref.alloc() : memref<1x5x4x4xf32>
  %s = memref.subview %c[0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : memref<1x5x4x4xf32> to memref<1x3x4x4xf32, strided<[80, 16, 4, 1]>>
  memref.copy %x, %s : memref<1x3x4x4xf32> to memref<1x3x4x4xf32, strided<[80, 16, 4, 1]>>
  %t = memref.subview %c[0, 3, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x5x4x4xf32> to memref<1x2x4x4xf32, strided<[80, 16, 4, 1], offset: 48>>
  memref.copy %y, %t : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[80, 16, 4, 1], offset: 48>>
  return %c : memref<1x5x4x4xf32>
}

// CHECK-LABEL: func.func @rows(
//       CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[Y:.*]] : memref<1x2x4x4xf32>)
//  CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<1x2x8x4xf32>
//  CHECK-NEXT: %[[V:.*]] = memref.subview %[[C]][0, 0, 4, 0] [1, 2, 4, 4] [1, 1, 1, 1]
//  CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[V]] :
//       CHECK: memref.copy %[[Y]]
func.func @rows(%x: memref<1x3x4x4xf32>, %w: memref<2x3x1x1xf32>) -> memref<1x2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x3x4x4xf32>, memref<2x3x1x1xf32>) outs(%y : memref<1x2x4x4xf32>)
  %z = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<1x2x4x4xf32>)
  %c = memref.alloc() : memref<1x2x8x4xf32>
  %s = memref.subview %c[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x8x4xf32> to memref<1x2x4x4xf32, strided<[64, 32, 4, 1]>>
  memref.copy %y, %s : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 32, 4, 1]>>
  %t = memref.subview %c[0, 0, 4, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x8x4xf32> to memref<1x2x4x4xf32, strided<[64, 32, 4, 1], offset: 16>>
  memref.copy %z, %t : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 32, 4, 1], offset: 16>>
  return %c : memref<1x2x8x4xf32>
}

// -----

// A run-time batch: the slice takes its input's size; the big buffer, sized by a
// memref.dim of its first input (as bufferization writes it), takes that input's
// size operand.
// CHECK-LABEL: func.func @dynamic(
//  CHECK-SAME:     %[[X:.*]]: memref<?x3xf32>, %[[N:.*]]: index
//  CHECK-NEXT:   arith.constant
//  CHECK-NEXT:   %[[BIG:.*]] = memref.alloc(%[[N]]) : memref<?x5xf32>
//  CHECK-NEXT:   %[[A:.*]] = memref.subview %[[BIG]][0, 0] [%[[N]], 2] [1, 1] : memref<?x5xf32> to memref<?x2xf32, strided<[5, 1]>>
//  CHECK-NEXT:   linalg.fill ins(%{{.*}} : f32) outs(%[[A]] :
//       CHECK:   memref.copy %[[X]]
//       CHECK:   return %[[BIG]]
func.func @dynamic(%x: memref<?x3xf32>, %n: index) -> memref<?x5xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x2xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x2xf32>)
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<?x2xf32>
  %big = memref.alloc(%d) : memref<?x5xf32>
  %s = memref.subview %big[0, 0] [%d, 2] [1, 1] : memref<?x5xf32> to memref<?x2xf32, strided<[5, 1]>>
  memref.copy %a, %s : memref<?x2xf32> to memref<?x2xf32, strided<[5, 1]>>
  %e = memref.dim %x, %c0 : memref<?x3xf32>
  %t = memref.subview %big[0, 2] [%e, 3] [1, 1] : memref<?x5xf32> to memref<?x3xf32, strided<[5, 1], offset: 2>>
  memref.copy %x, %t : memref<?x3xf32> to memref<?x3xf32, strided<[5, 1], offset: 2>>
  return %big : memref<?x5xf32>
}

// The big buffer sized by a memref.dim of an argument read after the input's
// allocation: the dim moves up with its constant.
// CHECK-LABEL: func.func @dynamic_dim_moves(
//  CHECK-SAME:     %[[X:.*]]: memref<?x3xf32>, %[[N:.*]]: index
//  CHECK-NEXT:   arith.constant 1.0
//  CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[E:.*]] = memref.dim %[[X]], %[[C0]]
//  CHECK-NEXT:   %[[BIG:.*]] = memref.alloc(%[[E]]) : memref<?x5xf32>
//  CHECK-NEXT:   %[[A:.*]] = memref.subview %[[BIG]][0, 3] [%[[N]], 2] [1, 1]
//  CHECK-NEXT:   linalg.fill ins(%{{.*}} : f32) outs(%[[A]] :
//  CHECK-NEXT:   %[[T:.*]] = memref.subview %[[BIG]][0, 0] [%[[E]], 3] [1, 1]
//  CHECK-NEXT:   memref.copy %[[X]], %[[T]]
//  CHECK-NEXT:   return %[[BIG]]
func.func @dynamic_dim_moves(%x: memref<?x3xf32>, %n: index) -> memref<?x5xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x2xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x2xf32>)
  %c0 = arith.constant 0 : index
  %e = memref.dim %x, %c0 : memref<?x3xf32>
  %big = memref.alloc(%e) : memref<?x5xf32>
  %t = memref.subview %big[0, 0] [%e, 3] [1, 1] : memref<?x5xf32> to memref<?x3xf32, strided<[5, 1]>>
  memref.copy %x, %t : memref<?x3xf32> to memref<?x3xf32, strided<[5, 1]>>
  %s = memref.subview %big[0, 3] [%n, 2] [1, 1] : memref<?x5xf32> to memref<?x2xf32, strided<[5, 1], offset: 3>>
  memref.copy %a, %s : memref<?x2xf32> to memref<?x2xf32, strided<[5, 1], offset: 3>>
  return %big : memref<?x5xf32>
}

// -----

// An input that is a reshaped buffer (Segformer's decoder: a [N, HW, C] map expanded
// to [N, C, H, W] after a transpose): the buffer becomes the slice collapsed as the
// expansion groups it; the expansion's users read the slice.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @reshaped(
//  CHECK-NEXT:   %[[CST:.*]] = arith.constant
//  CHECK-NEXT:   %[[BIG:.*]] = memref.alloc() : memref<1x4x2x3xf32>
//  CHECK-NEXT:   %[[V:.*]] = memref.subview %[[BIG]][0, 2, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x4x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>>
//  CHECK-NEXT:   %[[F:.*]] = memref.collapse_shape %[[V]] {{\[}}[0], [1], [2, 3]] : memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>> into memref<1x2x6xf32, strided<[24, 6, 1], offset: 12>>
//  CHECK-NEXT:   linalg.fill ins(%[[CST]] : f32) outs(%[[F]] :
//  CHECK-NEXT:   %[[R:.*]] = memref.alloc() : memref<1x2x2x3xf32>
//  CHECK-NEXT:   linalg.copy ins(%[[V]] : {{.*}}) outs(%[[R]] :
//       CHECK:   memref.copy %arg0
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[BIG]], %[[R]]
func.func @reshaped(%x: memref<1x2x2x3xf32>) -> (memref<1x4x2x3xf32>, memref<1x2x2x3xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1x2x6xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1x2x6xf32>)
  %e = memref.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 2, 2, 3] : memref<1x2x6xf32> into memref<1x2x2x3xf32>
  %r = memref.alloc() : memref<1x2x2x3xf32>
  linalg.copy ins(%e : memref<1x2x2x3xf32>) outs(%r : memref<1x2x2x3xf32>)
  %big = memref.alloc() : memref<1x4x2x3xf32>
  %s = memref.subview %big[0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x4x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1]>>
  memref.copy %x, %s : memref<1x2x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1]>>
  %t = memref.subview %big[0, 2, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x4x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>>
  memref.copy %e, %t : memref<1x2x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>>
  return %big, %r : memref<1x4x2x3xf32>, memref<1x2x2x3xf32>
}

// Not when the slice does not collapse back (a slice of the width: the group [2, 3] of
// the expansion is not contiguous in it), nor when the buffer has another reshape.
// CHECK-LABEL: func.func @reshaped_width(
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<1x2x2x3xf32> to
// CHECK-LABEL: func.func @reshaped_twice(
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<1x2x2x3xf32> to
func.func @reshaped_width() -> memref<1x2x2x6xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1x2x6xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1x2x6xf32>)
  %e = memref.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 2, 2, 3] : memref<1x2x6xf32> into memref<1x2x2x3xf32>
  %big = memref.alloc() : memref<1x2x2x6xf32>
  %t = memref.subview %big[0, 0, 0, 3] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x2x2x6xf32> to memref<1x2x2x3xf32, strided<[24, 12, 6, 1], offset: 3>>
  memref.copy %e, %t : memref<1x2x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 12, 6, 1], offset: 3>>
  %u = memref.subview %big[0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x2x2x6xf32> to memref<1x2x2x3xf32, strided<[24, 12, 6, 1]>>
  linalg.fill ins(%cst : f32) outs(%u : memref<1x2x2x3xf32, strided<[24, 12, 6, 1]>>)
  return %big : memref<1x2x2x6xf32>
}
func.func @reshaped_twice() -> (memref<1x4x2x3xf32>, memref<12xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1x2x6xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<1x2x6xf32>)
  %e = memref.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 2, 2, 3] : memref<1x2x6xf32> into memref<1x2x2x3xf32>
  %f = memref.collapse_shape %a [[0, 1, 2]] : memref<1x2x6xf32> into memref<12xf32>
  %r = memref.alloc() : memref<12xf32>
  linalg.copy ins(%f : memref<12xf32>) outs(%r : memref<12xf32>)
  %big = memref.alloc() : memref<1x4x2x3xf32>
  %t = memref.subview %big[0, 2, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x4x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>>
  memref.copy %e, %t : memref<1x2x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1], offset: 12>>
  %u = memref.subview %big[0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 1] : memref<1x4x2x3xf32> to memref<1x2x2x3xf32, strided<[24, 6, 3, 1]>>
  linalg.fill ins(%cst : f32) outs(%u : memref<1x2x2x3xf32, strided<[24, 6, 3, 1]>>)
  return %big, %r : memref<1x4x2x3xf32>, memref<12xf32>
}

// -----

// A transpose keeps its own buffer (strata-linalg-block-transposes takes identity
// layouts only): its copy stays.
// CHECK-LABEL: func.func @transposed(
//       CHECK:   linalg.transpose ins(%arg0 : memref<2x3xf32>) outs(%[[T:.*]] : memref<3x2xf32>)
//       CHECK:   memref.copy %[[T]]
func.func @transposed(%x: memref<2x3xf32>) -> memref<6x2xf32> {
  %cst = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<3x2xf32>
  linalg.transpose ins(%x : memref<2x3xf32>) outs(%t : memref<3x2xf32>) permutation = [1, 0]
  %big = memref.alloc() : memref<6x2xf32>
  %s = memref.subview %big[0, 0] [3, 2] [1, 1] : memref<6x2xf32> to memref<3x2xf32, strided<[2, 1]>>
  memref.copy %t, %s : memref<3x2xf32> to memref<3x2xf32, strided<[2, 1]>>
  %u = memref.subview %big[3, 0] [3, 2] [1, 1] : memref<6x2xf32> to memref<3x2xf32, strided<[2, 1], offset: 6>>
  linalg.fill ins(%cst : f32) outs(%u : memref<3x2xf32, strided<[2, 1], offset: 6>>)
  return %big : memref<6x2xf32>
}
