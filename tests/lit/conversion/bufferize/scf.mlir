// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" | filecheck %s

// scf.for, scf.if and scf.while on buffers. A loop works in place on its init buffer when
// each iteration yields (a value equivalent to) its argument, as iree-opt decides; else it
// carries buffers it owns (see [Note: buffer ownership] in bufferize.py): the init is a
// copy, each iteration yields a new buffer. An scf.if choosing between outer buffers
// yields them; one yielding a new buffer on some branch yields new buffers on all.

// CHECK-LABEL: func.func @for_in_place(%arg0: index) -> memref<8xf32> {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %cst = arith.constant 0.000000e+00 : f32
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<8xf32>
//       CHECK: linalg.fill ins(%cst : f32) outs(%alloc : memref<8xf32>)
//       CHECK: %0 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %alloc) -> (memref<8xf32>) {
//       CHECK: %1 = arith.index_cast %arg1 : index to i32
//       CHECK: %2 = arith.sitofp %1 : i32 to f32
//       CHECK: memref.store %2, %arg2[%arg1] : memref<8xf32>
//       CHECK: scf.yield %arg2 : memref<8xf32>
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<8xf32>
//       CHECK: memref.copy %0, %alloc_0 : memref<8xf32> to memref<8xf32>
//       CHECK: return %alloc_0 : memref<8xf32>
func.func @for_in_place(%n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<8xf32>) {
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    %x = tensor.insert %v into %a[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @for_new_value_each_iteration(%arg0: memref<4xf32>, %arg1: index) -> memref<4xf32> {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: %0 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %alloc) -> (memref<4xf32>) {
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg3 : memref<4xf32>) outs(%alloc_0 : memref<4xf32>) {
//       CHECK: %1 = math.tanh %in : f32
//       CHECK: linalg.yield %1 : f32
//       CHECK: scf.yield %alloc_0 : memref<4xf32>
//       CHECK: return %0 : memref<4xf32>
func.func @for_new_value_each_iteration(%h: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %h) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = math.tanh %v : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @if_choose_argument(%arg0: i1, %arg1: memref<4xf32>, %arg2: memref<4xf32>) -> f32 {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %0 = scf.if %arg0 -> (memref<4xf32>) {
//       CHECK: scf.yield %arg1 : memref<4xf32>
//       CHECK: } else {
//       CHECK: scf.yield %arg2 : memref<4xf32>
//       CHECK: %1 = memref.load %0[%c0] : memref<4xf32>
//       CHECK: return %1 : f32
func.func @if_choose_argument(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %x = tensor.extract %r[%c0] : tensor<4xf32>
  return %x : f32
}

// CHECK-LABEL: func.func @if_new_or_argument(%arg0: i1, %arg1: memref<4xf32>) -> memref<4xf32> {
//       CHECK: %0 = scf.if %arg0 -> (memref<4xf32>) {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg1 : memref<4xf32>) outs(%alloc : memref<4xf32>) {
//       CHECK: %1 = arith.negf %in : f32
//       CHECK: linalg.yield %1 : f32
//       CHECK: scf.yield %alloc : memref<4xf32>
//       CHECK: } else {
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg1, %alloc : memref<4xf32> to memref<4xf32>
//       CHECK: scf.yield %alloc : memref<4xf32>
//       CHECK: return %0 : memref<4xf32>
func.func @if_new_or_argument(%c: i1, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.negf %v : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @while_grow(%arg0: index) -> memref<?xf32> {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %c2 = arith.constant 2 : index
//       CHECK: %cst = arith.constant 1.000000e+00 : f32
//       CHECK: %alloc = memref.alloc(%c1) alignment = 64 : memref<?xf32>
//       CHECK: %c0_0 = arith.constant 0 : index
//       CHECK: %dim = memref.dim %alloc, %c0_0 : memref<?xf32>
//       CHECK: %alloc_1 = memref.alloc(%dim) alignment = 64 : memref<?xf32>
//       CHECK: memref.copy %alloc, %alloc_1 : memref<?xf32> to memref<?xf32>
//       CHECK: %0:2 = scf.while (%arg1 = %c0, %arg2 = %alloc_1) : (index, memref<?xf32>) -> (index, memref<?xf32>) {
//       CHECK: %1 = arith.cmpi slt, %arg1, %arg0 : index
//       CHECK: scf.condition(%1) %arg1, %arg2 : index, memref<?xf32>
//       CHECK: } do {
//       CHECK: %dim_5 = memref.dim %arg2, %c0 : memref<?xf32>
//       CHECK: %1 = arith.cmpi sge, %arg1, %dim_5 : index
//       CHECK: %2 = scf.if %1 -> (memref<?xf32>) {
//       CHECK: %4 = arith.muli %dim_5, %c2 : index
//       CHECK: %alloc_6 = memref.alloc(%4) alignment = 64 : memref<?xf32>
//       CHECK: %subview_7 = memref.subview %alloc_6[0] [%dim_5] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
//       CHECK: memref.copy %arg2, %subview_7 : memref<?xf32> to memref<?xf32, strided<[1]>>
//       CHECK: scf.yield %alloc_6 : memref<?xf32>
//       CHECK: } else {
//       CHECK: %c0_6 = arith.constant 0 : index
//       CHECK: %dim_7 = memref.dim %arg2, %c0_6 : memref<?xf32>
//       CHECK: %alloc_8 = memref.alloc(%dim_7) alignment = 64 : memref<?xf32>
//       CHECK: memref.copy %arg2, %alloc_8 : memref<?xf32> to memref<?xf32>
//       CHECK: scf.yield %alloc_8 : memref<?xf32>
//       CHECK: memref.store %cst, %2[%arg1] : memref<?xf32>
//       CHECK: %3 = arith.addi %arg1, %c1 : index
//       CHECK: scf.yield %3, %2 : index, memref<?xf32>
//       CHECK: %subview = memref.subview %0#1[0] [%0#0] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
//       CHECK: %c0_2 = arith.constant 0 : index
//       CHECK: %dim_3 = memref.dim %subview, %c0_2 : memref<?xf32, strided<[1]>>
//       CHECK: %alloc_4 = memref.alloc(%dim_3) alignment = 64 : memref<?xf32>
//       CHECK: memref.copy %subview, %alloc_4 : memref<?xf32, strided<[1]>> to memref<?xf32>
//       CHECK: return %alloc_4 : memref<?xf32>
func.func @while_grow(%n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%c1) : tensor<?xf32>
  %r:2 = scf.while (%i = %c0, %buf = %e) : (index, tensor<?xf32>) -> (index, tensor<?xf32>) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %buf : index, tensor<?xf32>
  } do {
  ^bb0(%i: index, %buf: tensor<?xf32>):
    %d = tensor.dim %buf, %c0 : tensor<?xf32>
    %full = arith.cmpi sge, %i, %d : index
    %g = scf.if %full -> (tensor<?xf32>) {
      %d2 = arith.muli %d, %c2 : index
      %big = tensor.empty(%d2) : tensor<?xf32>
      %copied = tensor.insert_slice %buf into %big[0] [%d] [1] : tensor<?xf32> into tensor<?xf32>
      scf.yield %copied : tensor<?xf32>
    } else {
      scf.yield %buf : tensor<?xf32>
    }
    %w = tensor.insert %one into %g[%i] : tensor<?xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %j, %w : index, tensor<?xf32>
  }
  %out = tensor.extract_slice %r#1[0] [%r#0] [1] : tensor<?xf32> to tensor<?xf32>
  return %out : tensor<?xf32>
}
