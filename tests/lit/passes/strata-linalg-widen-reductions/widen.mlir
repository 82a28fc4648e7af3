// RUN: strata-opt %s --split-input-file --strata-linalg-widen-reductions | filecheck %s

// An f16 row sum accumulates in an f32 buffer: the initial values widened, the terms
// extended as they are added, the sums rounded back once.

// CHECK-LABEL: func.func @row_sum
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<4xf32>
// CHECK: linalg.generic {{.*}} ins(%arg1 : memref<4xf16>) outs(%[[ACC]] : memref<4xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0 : memref<4x37xf16>) outs(%[[ACC]] : memref<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[IN]], %[[IN]] : f16
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[SQ]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[OUT]], %[[E]] fastmath<reassoc> : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[ACC]] : memref<4xf32>) outs(%arg1 : memref<4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.dealloc %[[ACC]] : memref<4xf32>
func.func @row_sum(%x: memref<4x37xf16>, %s: memref<4xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x37xf16>) outs(%s : memref<4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %sq = arith.mulf %in, %in : f16
    %v = arith.addf %out, %sq fastmath<reassoc> : f16
    linalg.yield %v : f16
  }
  return
}

// -----

// A dynamic output gets a buffer of its sizes; f32 sums and f16 maxima stay as they are.

// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]] = memref.dim %arg1, %c0 : memref<?xbf16>
// CHECK: memref.alloc(%[[D]]) : memref<?xf32>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: memref.alloc
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
func.func @dynamic(%x: memref<?x8xbf16>, %s: memref<?xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x8xbf16>) outs(%s : memref<?xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %v = arith.addf %out, %in : bf16
    linalg.yield %v : bf16
  }
  return
}
func.func @untouched(%x: memref<4x8xf16>, %m: memref<4xf16>, %y: memref<4x8xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf16>) outs(%m : memref<4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %v = arith.maximumf %out, %in : f16
    linalg.yield %v : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<4x8xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %out, %in : f32
    linalg.yield %v : f32
  }
  return
}
