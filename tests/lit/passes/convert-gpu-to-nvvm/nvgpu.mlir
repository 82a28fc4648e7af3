// RUN: strata-opt %s --convert-gpu-to-nvvm --reconcile-unrealized-casts | filecheck %s

// The tensor core ops: nvgpu.ldmatrix -> nvvm.ldmatrix on the lane's row address in
// shared memory (layout col when transposed), each i32 register bitcast to
// vector<2xf16> in the fragment's !llvm.array; nvgpu.mma.sync -> nvvm.mma.sync on the
// registers (f32 accumulators as four scalars, TF32 operands as i32), the struct it
// returns put back into the array. The fragment vectors' constant, broadcast and
// extract become array / element operations ([Note: fragment vectors in kernels]).

// CHECK-LABEL: llvm.func @mma(
// CHECK: %[[A:.*]] = nvvm.ldmatrix %{{.*}}, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[3] : !llvm.array<4 x vector<2xf16>>
// CHECK: nvvm.ldmatrix %{{.*}}, num = 2, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>
// CHECK: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.insertelement
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<2xf32>>
// CHECK: llvm.extractelement %{{.*}}[%{{.*}} : i64] : vector<2xf32>
// CHECK: llvm.bitcast %{{.*}} : f32 to i32
// CHECK: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  shape = <m = 16, n = 8, k = 8>, layout_a = row, layout_b = col, multiplicand_a_ptx_type = tf32, multiplicand_b_ptx_type = tf32 : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.
// CHECK-NOT: vector.
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %d: memref<32x4xf32>, %at: memref<32x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %sa = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<16x8xf16, #gpu.address_space<workgroup>>
      %r = arith.remui %t, %c16 : index
      %half = arith.divui %t, %c16 : index
      %col = arith.muli %half, %c8 : index
      %av = nvgpu.ldmatrix %sa[%r, %col] numTiles = 4 transpose = false : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %bv = nvgpu.ldmatrix %sb[%r, %c0] numTiles = 2 transpose = true : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %dv = nvgpu.mma.sync (%av, %bv, %z) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %x0 = vector.extract %dv[0, 0] : f32 from vector<2x2xf32>
      %x3 = vector.extract %dv[1, 1] : f32 from vector<2x2xf32>
      memref.store %x0, %d[%t, %c0] : memref<32x4xf32>
      memref.store %x3, %d[%t, %c3] : memref<32x4xf32>
      %f = memref.load %at[%t, %c0] : memref<32x4xf32>
      %fa = vector.broadcast %f : f32 to vector<4x1xf32>
      %fb = vector.broadcast %f : f32 to vector<2x1xf32>
      %e = nvgpu.mma.sync (%fa, %fb, %dv) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %y = vector.extract %e[0, 1] : f32 from vector<2x2xf32>
      memref.store %y, %d[%t, %c1] : memref<32x4xf32>
      gpu.return
    }
  }
}
