// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" --buffer-deallocation-simple | filecheck %s

// buffer-deallocation-simple after one-shot-bufferize: each buffer a block owns is freed
// after the last op of the block using it or a view of it (a use nested in a loop or an if
// counts for that op), unless the block gives it away (returned, yielded by a loop that
// carries new buffers, yielded by each branch of an if). A loop body frees the buffer of
// its iteration when it yields a new one. A copy into a new buffer of a buffer dead after
// the copy is dropped (the buffer itself is used): in @branches and @grow_in_loop the
// branch that keeps the old buffer yields it and the other branch frees it, so a growing
// buffer is copied only when it grows.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @straight_line(%arg0: memref<8xf32>) -> (memref<4xf32>, f32) {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<8xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : memref<8xf32>) outs(%alloc : memref<8xf32>) {
//       CHECK: %1 = arith.negf %in : f32
//       CHECK: linalg.yield %1 : f32
//       CHECK: %subview = memref.subview %alloc[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%subview : memref<4xf32, strided<[1], offset: 4>>) outs(%alloc_0 : memref<4xf32>) {
//       CHECK: %1 = arith.mulf %in, %in : f32
//       CHECK: linalg.yield %1 : f32
//       CHECK: %0 = memref.load %subview[%c0] : memref<4xf32, strided<[1], offset: 4>>
//       CHECK: memref.dealloc %alloc : memref<8xf32>
//       CHECK: return %alloc_0, %0 : memref<4xf32>, f32
func.func @straight_line(%a: tensor<8xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %s = tensor.extract_slice %x[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %v : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %f = tensor.extract %s[%c0] : tensor<4xf32>
  return %r, %f : tensor<4xf32>, f32
}

// CHECK-LABEL: func.func @loops(%arg0: memref<4xf32>, %arg1: index) -> f32 {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %cst = arith.constant 1.000000e+00 : f32
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.copy ins(%arg0 : memref<4xf32>) outs(%alloc : memref<4xf32>)
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: memref.copy %arg0, %alloc_0 : memref<4xf32> to memref<4xf32>
//       CHECK: %0:2 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %alloc, %arg4 = %alloc_0) -> (memref<4xf32>, memref<4xf32>) {
//       CHECK: memref.store %cst, %arg3[%c0] : memref<4xf32>
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg4 : memref<4xf32>) outs(%alloc_1 : memref<4xf32>) {
//       CHECK: %4 = math.tanh %in : f32
//       CHECK: linalg.yield %4 : f32
//       CHECK: memref.dealloc %arg4 : memref<4xf32>
//       CHECK: scf.yield %arg3, %alloc_1 : memref<4xf32>, memref<4xf32>
//       CHECK: %1 = memref.load %0#0[%c0] : memref<4xf32>
//       CHECK: memref.dealloc %alloc : memref<4xf32>
//       CHECK: %2 = memref.load %0#1[%c0] : memref<4xf32>
//       CHECK: memref.dealloc %0#1 : memref<4xf32>
//       CHECK: %3 = arith.addf %1, %2 : f32
//       CHECK: return %3 : f32
func.func @loops(%a: tensor<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %h = %a) -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tensor.insert %one into %acc[%c0] : tensor<4xf32>
    %e2 = tensor.empty() : tensor<4xf32>
    %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%h : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = math.tanh %v : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    scf.yield %x, %h2 : tensor<4xf32>, tensor<4xf32>
  }
  %u = tensor.extract %r#0[%c0] : tensor<4xf32>
  %v = tensor.extract %r#1[%c0] : tensor<4xf32>
  %s = arith.addf %u, %v : f32
  return %s : f32
}

// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: memref<4xf32>) -> f32 {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.copy ins(%arg1 : memref<4xf32>) outs(%alloc : memref<4xf32>)
//       CHECK: %0 = scf.if %arg0 -> (memref<4xf32>) {
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%alloc : memref<4xf32>) outs(%alloc_0 : memref<4xf32>) {
//       CHECK: %2 = arith.negf %in : f32
//       CHECK: linalg.yield %2 : f32
//       CHECK: memref.dealloc %alloc : memref<4xf32>
//       CHECK: scf.yield %alloc_0 : memref<4xf32>
//       CHECK: } else {
//       CHECK: scf.yield %alloc : memref<4xf32>
//       CHECK: %1 = memref.load %0[%c0] : memref<4xf32>
//       CHECK: memref.dealloc %0 : memref<4xf32>
//       CHECK: return %1 : f32
func.func @branches(%c: i1, %a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %b = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %c -> (tensor<4xf32>) {
    %e2 = tensor.empty() : tensor<4xf32>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.negf %v : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %x = tensor.extract %r[%c0] : tensor<4xf32>
  return %x : f32
}

// CHECK-LABEL: func.func @grow_in_loop(%arg0: index) -> memref<?xf32> {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %c1 = arith.constant 1 : index
//       CHECK: %c2 = arith.constant 2 : index
//       CHECK: %cst = arith.constant 1.000000e+00 : f32
//       CHECK: %alloc = memref.alloc(%c1) alignment = 64 : memref<?xf32>
//       CHECK: %0 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %alloc) -> (memref<?xf32>) {
//       CHECK: %dim = memref.dim %arg2, %c0 : memref<?xf32>
//       CHECK: %1 = arith.cmpi sge, %arg1, %dim : index
//       CHECK: %2 = scf.if %1 -> (memref<?xf32>) {
//       CHECK: %3 = arith.muli %dim, %c2 : index
//       CHECK: %alloc_0 = memref.alloc(%3) alignment = 64 : memref<?xf32>
//       CHECK: %subview = memref.subview %alloc_0[0] [%dim] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
//       CHECK: memref.copy %arg2, %subview : memref<?xf32> to memref<?xf32, strided<[1]>>
//       CHECK: memref.dealloc %arg2 : memref<?xf32>
//       CHECK: scf.yield %alloc_0 : memref<?xf32>
//       CHECK: } else {
//       CHECK: scf.yield %arg2 : memref<?xf32>
//       CHECK: memref.store %cst, %2[%arg1] : memref<?xf32>
//       CHECK: scf.yield %2 : memref<?xf32>
//       CHECK: return %0 : memref<?xf32>
func.func @grow_in_loop(%n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%c1) : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %e) -> (tensor<?xf32>) {
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
    scf.yield %w : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
