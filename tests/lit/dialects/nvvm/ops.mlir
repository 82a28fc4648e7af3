// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The nvvm dialect (and #nvvm.target) in custom and generic form. The CHECK and GENERIC lines are what
// iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: module {
// CHECK-NEXT: gpu.module @t0 [#nvvm.target, #nvvm.target<chip = "sm_50", features = "+ptx60", flags = {fast}, link = ["a.bc"]>, #nvvm.target<triple = "x", verifyTarget = false>] {
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @t1 [#nvvm.target<O = 0>] {
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @m [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
// CHECK-NEXT: llvm.func @k(%arg0: i32, %arg1: i32, %arg2: !llvm.ptr<3>, %arg3: !llvm.ptr<1>, %arg4: i1, %arg5: f32, %arg6: i32, %arg7: i32) {
// CHECK-NEXT: %0 = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %1 = nvvm.read.ptx.sreg.tid.y : i32
// CHECK-NEXT: %2 = nvvm.read.ptx.sreg.tid.z : i32
// CHECK-NEXT: %3 = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-NEXT: %4 = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT: %5 = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT: %6 = nvvm.read.ptx.sreg.laneid : i32
// CHECK-NEXT: %7 = nvvm.read.ptx.sreg.warpsize : i32
// CHECK-NEXT: %8 = nvvm.read.ptx.sreg.warpid : i32
// CHECK-NEXT: %9 = nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK-NEXT: %10 = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %11 = nvvm.read.ptx.sreg.lanemask.lt : i32
// CHECK-NEXT: %12 = nvvm.read.ptx.sreg.clock64 : i64
// CHECK-NEXT: %13 = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK-NEXT: %14 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
// CHECK-NEXT: %15 = nvvm.read.ptx.sreg.envreg3 : i32
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: nvvm.barrier id = %arg0
// CHECK-NEXT: nvvm.barrier id = %arg0 number_of_threads = %arg1
// CHECK-NEXT: nvvm.barrier id = %arg0 number_of_threads = %arg1 aligned = false
// CHECK-NEXT: nvvm.bar.warp.sync %arg6 : i32
// CHECK-NEXT: %16 = nvvm.shfl.sync bfly %arg6, %arg5, %arg7, %arg1 : f32 -> f32
// CHECK-NEXT: %17 = nvvm.shfl.sync up %arg6, %arg1, %arg7, %arg1 : i32 -> i32
// CHECK-NEXT: %18 = nvvm.shfl.sync down %arg6, %arg5, %arg7, %arg1 return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
// CHECK-NEXT: %19 = nvvm.shfl.sync idx %arg6, %arg5, %arg7, %arg1 : f32 -> f32
// CHECK-NEXT: %20 = nvvm.vote.sync ballot %arg6, %arg4 -> i32
// CHECK-NEXT: %21 = nvvm.vote.sync all %arg6, %arg4 -> i1
// CHECK-NEXT: nvvm.fence.sc.cluster
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: %22 = nvvm.rcp.approx.ftz.f %arg5 : f32
// CHECK-NEXT: nvvm.cp.async.shared.global %arg2, %arg3, 16, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: nvvm.cp.async.shared.global %arg2, %arg3, 16, cache = cg, %arg1 : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: %23 = nvvm.ldmatrix %arg2, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %24 = nvvm.ldmatrix %arg2, num = 1, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @mma(%arg0: vector<2xf16>, %arg1: vector<2xf16>, %arg2: vector<2xf16>, %arg3: vector<2xf16>, %arg4: vector<2xf16>, %arg5: vector<2xf16>, %arg6: f32, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: i32, %arg11: f64, %arg12: f64) {
// CHECK-NEXT: %0 = nvvm.mma.sync A[%arg0, %arg1, %arg2, %arg3]  B[%arg4, %arg5]  C[%arg6, %arg7, %arg8, %arg9]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %1 = nvvm.mma.sync A[%arg10, %arg10]  B[%arg10]  C[%arg6, %arg7, %arg8, %arg9]  shape = <m = 16, n = 8, k = 4>, layout_a = row, layout_b = col, multiplicand_a_ptx_type = tf32, multiplicand_b_ptx_type = tf32 : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %2 = nvvm.mma.sync A[%arg10, %arg10]  B[%arg10]  C[%arg10, %arg10, %arg10, %arg10]  shape = <m = 16, n = 8, k = 16>, int_overflow = satfinite, layout_a = row, layout_b = col, multiplicand_a_ptx_type = s8, multiplicand_b_ptx_type = u8 : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %3 = nvvm.mma.sync A[%arg11]  B[%arg11]  C[%arg11, %arg12]  shape = <m = 8, n = 8, k = 4>, layout_a = row, layout_b = col : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
// CHECK-NEXT: %4 = nvvm.mma.sync A[%arg10, %arg10, %arg10, %arg10]  B[%arg10, %arg10]  C[%arg10, %arg10, %arg10, %arg10]  shape = <m = 16, n = 8, k = 256>, b1_op = xor_popc, layout_a = row, layout_b = col, multiplicand_a_ptx_type = b1, multiplicand_b_ptx_type = b1 : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "gpu.module"() <{sym_name = "t0", targets = [#nvvm.target, #nvvm.target<chip = "sm_50", features = "+ptx60", flags = {fast}, link = ["a.bc"]>, #nvvm.target<triple = "x", verifyTarget = false>]}> ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "gpu.module"() <{sym_name = "t1", targets = [#nvvm.target<O = 0>]}> ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "gpu.module"() <{sym_name = "m", targets = [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]}> ({
// GENERIC-NEXT: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i32, ptr<3>, ptr<1>, i1, f32, i32, i32)>, linkage = #llvm.linkage<external>, sym_name = "k", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg13: i32, %arg14: i32, %arg15: !llvm.ptr<3>, %arg16: !llvm.ptr<1>, %arg17: i1, %arg18: f32, %arg19: i32, %arg20: i32):
// GENERIC-NEXT: %5 = "nvvm.read.ptx.sreg.tid.x"() : () -> i32
// GENERIC-NEXT: %6 = "nvvm.read.ptx.sreg.tid.y"() : () -> i32
// GENERIC-NEXT: %7 = "nvvm.read.ptx.sreg.tid.z"() : () -> i32
// GENERIC-NEXT: %8 = "nvvm.read.ptx.sreg.ntid.x"() : () -> i32
// GENERIC-NEXT: %9 = "nvvm.read.ptx.sreg.ctaid.y"() : () -> i32
// GENERIC-NEXT: %10 = "nvvm.read.ptx.sreg.nctaid.z"() : () -> i32
// GENERIC-NEXT: %11 = "nvvm.read.ptx.sreg.laneid"() : () -> i32
// GENERIC-NEXT: %12 = "nvvm.read.ptx.sreg.warpsize"() : () -> i32
// GENERIC-NEXT: %13 = "nvvm.read.ptx.sreg.warpid"() : () -> i32
// GENERIC-NEXT: %14 = "nvvm.read.ptx.sreg.clusterid.x"() : () -> i32
// GENERIC-NEXT: %15 = "nvvm.read.ptx.sreg.cluster.ctarank"() : () -> i32
// GENERIC-NEXT: %16 = "nvvm.read.ptx.sreg.lanemask.lt"() : () -> i32
// GENERIC-NEXT: %17 = "nvvm.read.ptx.sreg.clock64"() : () -> i64
// GENERIC-NEXT: %18 = "nvvm.read.ptx.sreg.globaltimer"() : () -> i64
// GENERIC-NEXT: %19 = "nvvm.read.ptx.sreg.tid.x"() <{range = #llvm.constant_range<i32, 0, 1024>}> : () -> i32
// GENERIC-NEXT: %20 = "nvvm.read.ptx.sreg.envreg3"() : () -> i32
// GENERIC-NEXT: "nvvm.barrier"() <{aligned = true, operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
// GENERIC-NEXT: "nvvm.barrier"(%arg13) <{aligned = true, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> ()
// GENERIC-NEXT: "nvvm.barrier"(%arg13, %arg14) <{aligned = true, operandSegmentSizes = array<i32: 1, 1>}> : (i32, i32) -> ()
// GENERIC-NEXT: "nvvm.barrier"(%arg13, %arg14) <{aligned = false, operandSegmentSizes = array<i32: 1, 1>}> : (i32, i32) -> ()
// GENERIC-NEXT: "nvvm.bar.warp.sync"(%arg19) : (i32) -> ()
// GENERIC-NEXT: %21 = "nvvm.shfl.sync"(%arg19, %arg18, %arg20, %arg14) <{kind = #nvvm.shfl_kind<bfly>}> : (i32, f32, i32, i32) -> f32
// GENERIC-NEXT: %22 = "nvvm.shfl.sync"(%arg19, %arg14, %arg20, %arg14) <{kind = #nvvm.shfl_kind<up>}> : (i32, i32, i32, i32) -> i32
// GENERIC-NEXT: %23 = "nvvm.shfl.sync"(%arg19, %arg18, %arg20, %arg14) <{kind = #nvvm.shfl_kind<down>, return_value_and_is_valid}> : (i32, f32, i32, i32) -> !llvm.struct<(f32, i1)>
// GENERIC-NEXT: %24 = "nvvm.shfl.sync"(%arg19, %arg18, %arg20, %arg14) <{kind = #nvvm.shfl_kind<idx>}> : (i32, f32, i32, i32) -> f32
// GENERIC-NEXT: %25 = "nvvm.vote.sync"(%arg19, %arg17) <{kind = #nvvm.vote_sync_kind<ballot>}> : (i32, i1) -> i32
// GENERIC-NEXT: %26 = "nvvm.vote.sync"(%arg19, %arg17) <{kind = #nvvm.vote_sync_kind<all>}> : (i32, i1) -> i1
// GENERIC-NEXT: "nvvm.fence.sc.cluster"() : () -> ()
// GENERIC-NEXT: "nvvm.cluster.arrive"() : () -> ()
// GENERIC-NEXT: "nvvm.cluster.arrive.relaxed"() : () -> ()
// GENERIC-NEXT: "nvvm.cluster.wait"() : () -> ()
// GENERIC-NEXT: %27 = "nvvm.rcp.approx.ftz.f"(%arg18) : (f32) -> f32
// GENERIC-NEXT: "nvvm.cp.async.shared.global"(%arg15, %arg16) <{modifier = #nvvm.load_cache_modifier<ca>, size = 16 : i32}> : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
// GENERIC-NEXT: "nvvm.cp.async.shared.global"(%arg15, %arg16, %arg14) <{modifier = #nvvm.load_cache_modifier<cg>, size = 16 : i32}> : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
// GENERIC-NEXT: "nvvm.cp.async.commit.group"() : () -> ()
// GENERIC-NEXT: "nvvm.cp.async.wait.group"() <{n = 0 : i32}> : () -> ()
// GENERIC-NEXT: %28 = "nvvm.ldmatrix"(%arg15) <{eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// GENERIC-NEXT: %29 = "nvvm.ldmatrix"(%arg15) <{eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 1 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}> : (!llvm.ptr<3>) -> i32
// GENERIC-NEXT: "llvm.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32, i32, f64, f64)>, linkage = #llvm.linkage<external>, sym_name = "mma", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg0: vector<2xf16>, %arg1: vector<2xf16>, %arg2: vector<2xf16>, %arg3: vector<2xf16>, %arg4: vector<2xf16>, %arg5: vector<2xf16>, %arg6: f32, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: i32, %arg11: f64, %arg12: f64):
// GENERIC-NEXT: %0 = "nvvm.mma.sync"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}> : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// GENERIC-NEXT: %1 = "nvvm.mma.sync"(%arg10, %arg10, %arg10, %arg6, %arg7, %arg8, %arg9) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, operandSegmentSizes = array<i32: 2, 1, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 4>}> : (i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// GENERIC-NEXT: %2 = "nvvm.mma.sync"(%arg10, %arg10, %arg10, %arg10, %arg10, %arg10, %arg10) <{intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, operandSegmentSizes = array<i32: 2, 1, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}> : (i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// GENERIC-NEXT: %3 = "nvvm.mma.sync"(%arg11, %arg11, %arg11, %arg12) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<f64>, multiplicandBPtxType = #nvvm.mma_type<f64>, operandSegmentSizes = array<i32: 1, 1, 2>, shape = #nvvm.shape<m = 8, n = 8, k = 4>}> : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
// GENERIC-NEXT: %4 = "nvvm.mma.sync"(%arg10, %arg10, %arg10, %arg10, %arg10, %arg10, %arg10, %arg10, %arg10, %arg10) <{b1Op = #nvvm.mma_b1op<xor_popc>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<b1>, multiplicandBPtxType = #nvvm.mma_type<b1>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 256>}> : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// GENERIC-NEXT: "llvm.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

gpu.module @t0 [#nvvm.target, #nvvm.target<chip = "sm_50", features = "+ptx60", flags = {fast}, link = ["a.bc"]>, #nvvm.target<triple = "x", verifyTarget = false>] {
}
gpu.module @t1 [#nvvm.target<O = 0, chip = "sm_75", features = "", triple = "nvptx64-nvidia-cuda">] {
}
gpu.module @m [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
  llvm.func @k(%id: i32, %c: i32, %dst: !llvm.ptr<3>, %src: !llvm.ptr<1>, %p: i1, %x: f32, %m: i32, %o: i32) {
    %0 = nvvm.read.ptx.sreg.tid.x : i32
    %1 = nvvm.read.ptx.sreg.tid.y : i32
    %2 = nvvm.read.ptx.sreg.tid.z : i32
    %3 = nvvm.read.ptx.sreg.ntid.x : i32
    %4 = nvvm.read.ptx.sreg.ctaid.y : i32
    %5 = nvvm.read.ptx.sreg.nctaid.z : i32
    %6 = nvvm.read.ptx.sreg.laneid : i32
    %7 = nvvm.read.ptx.sreg.warpsize : i32
    %8 = nvvm.read.ptx.sreg.warpid : i32
    %9 = nvvm.read.ptx.sreg.clusterid.x : i32
    %10 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %11 = nvvm.read.ptx.sreg.lanemask.lt : i32
    %12 = nvvm.read.ptx.sreg.clock64 : i64
    %13 = nvvm.read.ptx.sreg.globaltimer : i64
    %14 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
    %15 = nvvm.read.ptx.sreg.envreg3 : i32
    nvvm.barrier
    nvvm.barrier id = %id
    nvvm.barrier id = %id number_of_threads = %c
    nvvm.barrier id = %id number_of_threads = %c aligned = false
    nvvm.bar.warp.sync %m : i32
    %s0 = nvvm.shfl.sync bfly %m, %x, %o, %c : f32 -> f32
    %s1 = nvvm.shfl.sync up %m, %c, %o, %c : i32 -> i32
    %s2 = nvvm.shfl.sync down %m, %x, %o, %c return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
    %s3 = nvvm.shfl.sync idx %m, %x, %o, %c : f32 -> f32
    %v0 = nvvm.vote.sync ballot %m, %p -> i32
    %v1 = nvvm.vote.sync all %m, %p -> i1
    nvvm.fence.sc.cluster
    nvvm.cluster.arrive
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %r = nvvm.rcp.approx.ftz.f %x : f32
    nvvm.cp.async.shared.global %dst, %src, 16, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
    nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %c : !llvm.ptr<3>, !llvm.ptr<1>, i32
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 0
    %l = nvvm.ldmatrix %dst, num = 4, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %l1 = nvvm.ldmatrix %dst, num = 1, layout = <col>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32
    llvm.return
  }
  llvm.func @mma(%a0 : vector<2xf16>, %a1 : vector<2xf16>, %a2 : vector<2xf16>, %a3 : vector<2xf16>, %b0 : vector<2xf16>, %b1 : vector<2xf16>, %c0 : f32, %c1 : f32, %c2 : f32, %c3 : f32, %x: i32, %d0: f64, %d1: f64) {
    %0 = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3] shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %1 = nvvm.mma.sync A[%x, %x] B[%x] C[%c0, %c1, %c2, %c3] shape = <m = 16, n = 8, k = 4>, layout_a = row, layout_b = col, multiplicand_a_ptx_type = tf32, multiplicand_b_ptx_type = tf32 : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %2 = nvvm.mma.sync A[%x, %x] B[%x] C[%x, %x, %x, %x] shape = <m = 16, n = 8, k = 16>, int_overflow = satfinite, layout_a = row, layout_b = col, multiplicand_a_ptx_type = s8, multiplicand_b_ptx_type = u8 : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
    %3 = nvvm.mma.sync A[%d0] B[%d0] C[%d0, %d1] shape = <m = 8, n = 8, k = 4>, layout_a = row, layout_b = col : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
    %4 = nvvm.mma.sync A[%x, %x, %x, %x] B[%x, %x] C[%x, %x, %x, %x] shape = <m = 16, n = 8, k = 256>, b1_op = xor_popc, layout_a = row, layout_b = col, multiplicand_a_ptx_type = b1, multiplicand_b_ptx_type = b1 : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
    llvm.return
  }
}
