// RUN: strata-opt %s --split-input-file --strata-gpu-tile-contractions | filecheck %s
// RUN: strata-opt %s --split-input-file --strata-gpu-tile-contractions=tensor-cores=false | filecheck %s --check-prefix=NOTC

// A matmul whose output is filled with zeros and then read by a bias + ReLU generic:
// one tiled kernel (64x64 block tile of 256 threads, double-buffered 16-deep K steps
// in workgroup memory), the fill and the epilogue inside it, the intermediate buffer
// gone. The grid is ceil(N / 64) x ceil(M / 64), guarded against an empty grid.

// CHECK-LABEL: func.func @gemm_bias_relu
// CHECK-NOT: linalg.
// CHECK: %[[GY:.*]] = arith.ceildivui %{{.*}}, %c64
// CHECK: scf.if
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %[[GY]], %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: memref.alloc() : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[D:.*]][%{{.*}}, %{{.*}}] : memref<?x128xf32>
// CHECK-NOT: memref.alloc(%
// CHECK: memref.dealloc %arg0
// CHECK-NEXT: return
func.func @gemm_bias_relu(%a: memref<?x64xf32>, %w: memref<64x128xf32>, %bias: memref<128xf32>) -> memref<?x128xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x64xf32>
  %c = memref.alloc(%m) : memref<?x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<?x128xf32>)
  linalg.matmul ins(%a, %w : memref<?x64xf32>, memref<64x128xf32>) outs(%c : memref<?x128xf32>)
  memref.dealloc %a : memref<?x64xf32>
  %d = memref.alloc(%m) : memref<?x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<?x128xf32>, memref<128xf32>) outs(%d : memref<?x128xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<?x128xf32>
  return %d : memref<?x128xf32>
}

// -----

// A batch matmul with B transposed and broadcast over the batch, f16 operands
// accumulated in f32: tensor cores. The batch loop only A reads is part of the rows
// (M = 3 x 5 = 15: one block); A's shared tiles are [buf][m][k] for ldmatrix, B's
// [buf][k][n] (ldmatrix transposed); each warp's 2 x 2 m16n8 accumulators start from
// the output (no fill) and are stored element by element. Without tensor cores
// (tensor-cores=false): the SIMT kernel, the payload's extf cloned.

// CHECK-LABEL: func.func @batch_f16
// CHECK-NOT: linalg.
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK: memref.alloc() : memref<2x64x16xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x16x64xf16, #gpu.address_space<workgroup>>
// CHECK: arith.cmpi ult, %{{.*}}, %c15
// CHECK: memref.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x5x9xf32>
// CHECK: vector.insert %{{.*}}, %{{.*}} [1, 1] : f32 into vector<2x2xf32>
// CHECK: scf.for
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] numTiles = 4 transpose = false : memref<2x64x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] numTiles = 2 transpose = true : memref<2x16x64xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-COUNT-4: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: gpu.barrier
// CHECK: vector.extract %{{.*}}[0, 0] : f32 from vector<2x2xf32>
// CHECK: memref.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x5x9xf32>
// NOTC-LABEL: func.func @batch_f16
// NOTC: memref.alloc() : memref<2x16x64xf16, #gpu.address_space<workgroup>>
// NOTC-NOT: nvgpu
// NOTC: arith.extf %{{.*}} : f16 to f32
// NOTC-NOT: nvgpu
// NOTC-LABEL: func.func @not_contractions
func.func @batch_f16(%a: memref<3x5x7xf16>, %b: memref<9x7xf16>, %c: memref<3x5x9xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<3x5x7xf16>, memref<9x7xf16>) outs(%c : memref<3x5x9xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not contractions: a sum over a row (one input) and a max-plus product stay as they
// are (the GPU pipeline maps them a thread per element).

// CHECK-LABEL: func.func @not_contractions
// CHECK-NOT: gpu.launch
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK-NOT: gpu.launch
func.func @not_contractions(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %s: memref<4xf32>, %c: memref<4x4xf32>) {
  linalg.reduce ins(%a : memref<4x8xf32>) outs(%s : memref<4xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %r = arith.addf %x, %y : f32
      linalg.yield %r : f32
    }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.addf %x, %y : f32
    %mx = arith.maximumf %o, %p : f32
    linalg.yield %mx : f32
  }
  return
}

// -----

// The bias broadcast into the output is the accumulators' initial value only when
// nothing writes the bias between: here a fill of the bias buffer comes between, so the
// broadcast stays (its own kernel later) and the kernel reads the output.

// CHECK-LABEL: func.func @bias_written_between
// CHECK: linalg.generic
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<8xf32>)
// CHECK: gpu.launch
// CHECK: memref.load %arg3[
func.func @bias_written_between(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %bias: memref<8xf32>, %c: memref<4x8xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<8xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.fill ins(%one : f32) outs(%bias : memref<8xf32>)
  linalg.matmul ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  return
}
