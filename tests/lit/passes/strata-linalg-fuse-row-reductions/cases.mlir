// RUN: strata-opt %s --strata-linalg-fuse-row-reductions | filecheck %s

// What fuses and what does not (see [Note: what a group is] in linalg_row_fusion.py).

// CHECK-LABEL: func.func @leading_reduction(
//   CHECK-NOT:   scf.
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//       CHECK:   return

// CHECK-LABEL: func.func @call_between(
//   CHECK-NOT:   scf.
//       CHECK:   linalg.generic
//       CHECK:   call @effect()
//       CHECK:   linalg.generic
//       CHECK:   return

// CHECK-LABEL: func.func @other_rows(
//   CHECK-NOT:   scf.
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//       CHECK:   return

// The exponentials escape: written to their buffer and read back from it; the sums are
// loop-carried.
// CHECK-LABEL: func.func @escaping(
//       CHECK:   %[[E:.*]] = memref.alloc() : memref<8x16xf32>
//  CHECK-NEXT:   %[[Y:.*]] = memref.alloc() : memref<8x16xf32>
//       CHECK:   scf.parallel (%[[R:.*]]) =
//  CHECK-NEXT:     %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args
//  CHECK-NEXT:       memref.load %arg0[%[[R]], %[[K]]]
//  CHECK-NEXT:       %[[EX:.*]] = math.exp
//  CHECK-NEXT:       memref.store %[[EX]], %[[E]][%[[R]], %[[K]]]
//  CHECK-NEXT:       arith.addf %{{.*}}, %[[EX]] fastmath<reassoc>
//  CHECK-NEXT:       scf.yield
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.for %[[K:.*]] =
//  CHECK-NEXT:       %[[V:.*]] = memref.load %[[E]][%[[R]], %[[K]]]
//  CHECK-NEXT:       %[[Q:.*]] = arith.divf %[[V]], %[[S]]
//  CHECK-NEXT:       memref.store %[[Q]], %[[Y]][%[[R]], %[[K]]]
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[E]], %[[Y]]

// The masked product is reduced where it is made: no buffer for it, though a row of it
// (64 KiB) is larger than MAX_ROW_BYTES; the fill of the sums moves to the row's start.
// CHECK-LABEL: func.func @forwarded(
//   CHECK-NOT:   memref.alloc() : memref<2x256x64xf32>
//       CHECK:   %[[S:.*]] = memref.alloc() : memref<2x64xf32>
//       CHECK:   scf.parallel (%[[R:.*]]) =
//  CHECK-NEXT:     scf.for %[[J:.*]] =
//  CHECK-NEXT:       memref.store %{{.*}}, %[[S]][%[[R]], %[[J]]]
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.for %[[I:.*]] =
//  CHECK-NEXT:       scf.for %[[J:.*]] =
//  CHECK-NEXT:         %[[X:.*]] = memref.load %arg0[%[[R]], %[[I]], %[[J]]]
//  CHECK-NEXT:         %[[M:.*]] = memref.load %{{.*}}[%[[R]], %[[I]], %{{.*}}] : memref<2x256x1xf32>
//  CHECK-NEXT:         %[[P:.*]] = arith.mulf %[[X]], %[[M]]
//  CHECK-NEXT:         %[[A:.*]] = memref.load %[[S]][%[[R]], %[[J]]]
//  CHECK-NEXT:         %[[B:.*]] = arith.addf %[[A]], %[[P]] fastmath<reassoc>
//  CHECK-NEXT:         memref.store %[[B]], %[[S]][%[[R]], %[[J]]]
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:     scf.reduce

// A write that does not index the rows (the last row wins) stays a linalg op, before
// the fused sum of squares that follows it.
// CHECK-LABEL: func.func @unindexed_write(
//       CHECK:   linalg.generic {indexing_maps = [#map, #map1]
//       CHECK:   scf.parallel
//   CHECK-NOT:   linalg.generic
//       CHECK:   return

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#r2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @effect() {
  return
}

// A reduction over the leading dim has no rows: nothing changes.
func.func @leading_reduction(%x: memref<8x16xf32>) -> memref<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<16xf32>)
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x16xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %y = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<8x16xf32>, memref<16xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %s : memref<16xf32>
  return %y : memref<8x16xf32>
}

// A call between the ops ends the group: the reduced values live on, nothing fuses.
func.func @call_between(%x: memref<8x16xf32>) -> memref<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x16xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  func.call @effect() : () -> ()
  %y = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<8x16xf32>, memref<8xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %s : memref<8xf32>
  return %y : memref<8x16xf32>
}

// The consumer reads the intermediate transposed (other rows): not fused.
func.func @other_rows(%x: memref<16x16xf32>) -> memref<16x16xf32> {
  %t = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<16x16xf32>) outs(%t : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %y = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %t : memref<16x16xf32>, memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.addf %a, %b : f32
    linalg.yield %q : f32
  }
  memref.dealloc %t : memref<16x16xf32>
  return %y : memref<16x16xf32>
}

// The exponentials are a result: they stay a whole buffer, the sums are per row.
func.func @escaping(%x: memref<8x16xf32>) -> (memref<8x16xf32>, memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32>) outs(%e : memref<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  }
  %s = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<8x16xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %y = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<8x16xf32>, memref<8xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %s : memref<8xf32>
  return %e, %y : memref<8x16xf32>, memref<8x16xf32>
}

// Mean over the middle dim of a masked product: the product (64 KiB a row) is never
// stored, each element is reduced where it is made.
func.func @forwarded(%x: memref<2x256x64xf32>, %m: memref<2x256xf32>) -> memref<2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x256x64xf32>
  %mv = memref.expand_shape %m [[0], [1, 2]] output_shape [2, 256, 1] : memref<2x256xf32> into memref<2x256x1xf32>
  linalg.generic {indexing_maps = [#id3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mv : memref<2x256x64xf32>, memref<2x256x1xf32>) outs(%p : memref<2x256x64xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %q = arith.mulf %in, %k : f32
    linalg.yield %q : f32
  }
  %s = memref.alloc() : memref<2x64xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x64xf32>)
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "reduction", "parallel"]} ins(%p : memref<2x256x64xf32>) outs(%s : memref<2x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  memref.dealloc %p : memref<2x256x64xf32>
  return %s : memref<2x64xf32>
}

func.func @unindexed_write(%x: memref<8x16xf32>) -> (memref<16xf32>, memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %last = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32>) outs(%last : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %sq = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32>) outs(%sq : memref<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  %s = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%sq : memref<8x16xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  memref.dealloc %sq : memref<8x16xf32>
  return %last, %s : memref<16xf32>, memref<8xf32>
}

// Two interleaved chains: the group's rows are the one dim both share, each part then
// runs over its own rows (4 x 8 for the first, 4 for the second).
// CHECK-LABEL: func.func @interleaved(
//       CHECK:   scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}})
//       CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}})
//   CHECK-NOT:   linalg.
//       CHECK:   return
func.func @interleaved(%a: memref<4x8x16xf32>, %b: memref<4x32xf32>) -> (memref<4x8x16xf32>, memref<4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %sa = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%sa : memref<4x8xf32>)
  %sb = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%sb : memref<4xf32>)
  linalg.generic {indexing_maps = [#id3, #r2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : memref<4x8x16xf32>) outs(%sa : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%b : memref<4x32xf32>) outs(%sb : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  %ya = memref.alloc() : memref<4x8x16xf32>
  linalg.generic {indexing_maps = [#id3, #r2, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %sa : memref<4x8x16xf32>, memref<4x8xf32>) outs(%ya : memref<4x8x16xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  %yb = memref.alloc() : memref<4x32xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %sb : memref<4x32xf32>, memref<4xf32>) outs(%yb : memref<4x32xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %sa : memref<4x8xf32>
  memref.dealloc %sb : memref<4xf32>
  return %ya, %yb : memref<4x8x16xf32>, memref<4x32xf32>
}
