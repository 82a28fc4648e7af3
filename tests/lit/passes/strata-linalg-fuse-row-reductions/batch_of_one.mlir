// RUN: strata-opt %s --strata-linalg-fuse-row-reductions | filecheck %s

// A global average pool over a batch of one (squeeze-excitation's; ONNX's
// GlobalAveragePool lowers so): the sum into a [1, C] buffer, then the division. The
// buffers' leading size-1 dim, indexed by 0, is no row: the rows are the C channels (see
// [Note: what a group is]), the sum a loop-carried value added with fastmath<reassoc>
// (vectorizable), the [1, C] intermediate gone.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#s = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#b2 = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @pool(
//  CHECK-SAME:     %[[X:.*]]: memref<1x16x7x7xf32>
//       CHECK:   %[[Y:.*]] = memref.alloc() {{.*}}: memref<1x16xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   scf.parallel (%[[C:.*]]) =
//       CHECK:     scf.for {{.*}} iter_args
//       CHECK:       scf.for {{.*}} iter_args
//       CHECK:         memref.load %[[X]][%{{.*}}, %[[C]], %{{.*}}, %{{.*}}]
//       CHECK:         arith.addf {{.*}} fastmath<reassoc> : f32
//       CHECK:     arith.divf
//       CHECK:     memref.store {{.*}}, %[[Y]][%{{.*}}, %[[C]]]
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return %[[Y]]
func.func @pool(%x: memref<1x16x7x7xf32>) -> memref<1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 49.0 : f32
  %sum = memref.alloc() alignment = 64 : memref<1x16xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1x16xf32>)
  linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : memref<1x16x7x7xf32>) outs(%sum : memref<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  %y = memref.alloc() alignment = 64 : memref<1x16xf32>
  linalg.generic {indexing_maps = [#b2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sum : memref<1x16xf32>) outs(%y : memref<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %sum : memref<1x16xf32>
  return %y : memref<1x16xf32>
}

// Two rows of eight in a [1, 2, 8] buffer: the rows are its dims after the leading
// size-1 one, the exponentials one row (memref<8xf32>) on the stack.
// CHECK-LABEL: func.func @softmax_batch_of_one(
//       CHECK:   scf.parallel
//       CHECK:     memref.alloca() {{.*}}: memref<8xf32>
//   CHECK-NOT:   linalg.
//       CHECK:   return
#r3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @softmax_batch_of_one(%x: memref<1x2x8xf32>) -> memref<1x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = memref.alloc() : memref<1x2x8xf32>
  linalg.generic {indexing_maps = [#r3, #r3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<1x2x8xf32>) outs(%e : memref<1x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  %s = memref.alloc() : memref<1x2xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<1x2xf32>)
  linalg.generic {indexing_maps = [#r3, #m3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : memref<1x2x8xf32>) outs(%s : memref<1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  %y = memref.alloc() : memref<1x2x8xf32>
  linalg.generic {indexing_maps = [#r3, #m3, #r3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %s : memref<1x2x8xf32>, memref<1x2xf32>) outs(%y : memref<1x2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %e : memref<1x2x8xf32>
  memref.dealloc %s : memref<1x2xf32>
  return %y : memref<1x2x8xf32>
}
