// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The gpu dialect in custom and generic form. The CHECK and GENERIC lines are what
// iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: gpu.module @kernels {
// CHECK-NEXT: gpu.func @k(%arg0: f32, %arg1: memref<?xf32, 1>) workgroup(%arg2 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg3 : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
// CHECK-NEXT: %thread_id_x = gpu.thread_id x
// CHECK-NEXT: %thread_id_y = gpu.thread_id y upper_bound 64
// CHECK-NEXT: %thread_id_z = gpu.thread_id z
// CHECK-NEXT: %block_id_x = gpu.block_id x
// CHECK-NEXT: %block_dim_x = gpu.block_dim x
// CHECK-NEXT: %grid_dim_z = gpu.grid_dim z
// CHECK-NEXT: %global_id_y = gpu.global_id y
// CHECK-NEXT: %cluster_id_x = gpu.cluster_id x
// CHECK-NEXT: %cluster_dim_y = gpu.cluster_dim y
// CHECK-NEXT: %cluster_block_id_z = gpu.cluster_block_id z
// CHECK-NEXT: %cluster_dim_blocks_x = gpu.cluster_dim_blocks x
// CHECK-NEXT: %0 = gpu.lane_id
// CHECK-NEXT: %1 = gpu.lane_id upper_bound 32
// CHECK-NEXT: %2 = gpu.subgroup_id : index
// CHECK-NEXT: %3 = gpu.num_subgroups : index
// CHECK-NEXT: %4 = gpu.subgroup_size : index
// CHECK-NEXT: %5 = gpu.subgroup_size upper_bound 64 : index
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.barrier memfence [#gpu.address_space<workgroup>]
// CHECK-NEXT: gpu.barrier memfence []
// CHECK-NEXT: gpu.barrier scope <subgroup>
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c32_i32 = arith.constant 32 : i32
// CHECK-NEXT: %shuffleResult, %valid = gpu.shuffle xor %arg0, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %shuffleResult_0, %valid_1 = gpu.shuffle up %arg0, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %shuffleResult_2, %valid_3 = gpu.shuffle down %c1_i32, %c1_i32, %c32_i32 : i32
// CHECK-NEXT: %shuffleResult_4, %valid_5 = gpu.shuffle idx %arg0, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %rotateResult, %valid_6 = gpu.rotate %arg0, 3, 16 : f32
// CHECK-NEXT: %6 = gpu.subgroup_reduce add %arg0 : (f32) -> f32
// CHECK-NEXT: %7 = gpu.subgroup_reduce maximumf %arg0 uniform : (f32) -> f32
// CHECK-NEXT: %8 = gpu.subgroup_reduce minsi %c1_i32 cluster(size = 4) : (i32) -> i32
// CHECK-NEXT: %9 = gpu.subgroup_reduce mul %arg0 cluster(size = 8, stride = 2) : (f32) -> f32
// CHECK-NEXT: %10 = gpu.all_reduce add %arg0 {
// CHECK-NEXT: } : (f32) -> f32
// CHECK-NEXT: %11 = gpu.all_reduce maxnumf %arg0 uniform {
// CHECK-NEXT: } : (f32) -> f32
// CHECK-NEXT: %12 = gpu.all_reduce %arg0 {
// CHECK-NEXT: ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT: %14 = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT: gpu.yield %14 : f32
// CHECK-NEXT: } : (f32) -> f32
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %13 = memref.load %arg1[%thread_id_x] : memref<?xf32, 1>
// CHECK-NEXT: memref.store %13, %arg2[%thread_id_x] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.printf "x = %f", %13 : f32
// CHECK-NEXT: gpu.printf "]"
// CHECK-NEXT: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: gpu.func @device(%arg0: index) -> index {
// CHECK-NEXT: gpu.return %arg0 : index
// CHECK-NEXT: }
// CHECK-NEXT: gpu.func @empty() kernel {
// CHECK-NEXT: gpu.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.module @other {
// CHECK-NEXT: }
// CHECK-NEXT: func.func @host(%arg0: index, %arg1: f32, %arg2: memref<?xf32, 1>, %arg3: memref<?xf32>, %arg4: i32, %arg5: i64) {
// CHECK-NEXT: gpu.launch_func  @kernels::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  args(%arg1 : f32, %arg2 : memref<?xf32, 1>)
// CHECK-NEXT: gpu.launch_func  @kernels::@k clusters in (%arg0, %arg0, %arg0) blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  dynamic_shared_memory_size %arg4 args(%arg1 : f32, %arg2 : memref<?xf32, 1>)
// CHECK-NEXT: gpu.launch_func  @kernels::@empty blocks in (%arg5, %arg5, %arg5) threads in (%arg5, %arg5, %arg5) : i64
// CHECK-NEXT: %0 = gpu.wait async
// CHECK-NEXT: %1 = gpu.launch_func async [%0] @kernels::@empty blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)
// CHECK-NEXT: gpu.launch blocks(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) threads(%arg9, %arg10, %arg11) in (%arg15 = %arg0, %arg16 = %arg0, %arg17 = %arg0) {
// CHECK-NEXT: %6 = arith.addi %arg6, %arg9 : index
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: %2 = gpu.launch async [%1] blocks(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) threads(%arg9, %arg10, %arg11) in (%arg15 = %arg0, %arg16 = %arg0, %arg17 = %arg0) dynamic_shared_memory_size %arg4 workgroup(%arg18 : memref<4xf32, 3>) private(%arg19 : memref<1xf32, 5>) {
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.launch clusters(%arg18, %arg19, %arg20) in (%arg21 = %arg0, %arg22 = %arg0, %arg23 = %arg0) blocks(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) threads(%arg9, %arg10, %arg11) in (%arg15 = %arg0, %arg16 = %arg0, %arg17 = %arg0) module(@mod) function(@fn) {
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: %memref, %asyncToken = gpu.alloc async [%2] (%arg0) : memref<?xf32, 1>
// CHECK-NEXT: %3 = gpu.memset async [%asyncToken] %memref, %arg1 : memref<?xf32, 1>, f32
// CHECK-NEXT: %4 = gpu.memcpy async [%3] %memref, %arg2 : memref<?xf32, 1>, memref<?xf32, 1>
// CHECK-NEXT: gpu.memcpy  %arg3, %memref : memref<?xf32>, memref<?xf32, 1>
// CHECK-NEXT: %5 = gpu.dealloc async [%4] %memref : memref<?xf32, 1>
// CHECK-NEXT: gpu.wait [%5, %0]
// CHECK-NEXT: gpu.wait
// CHECK-NEXT: %memref_0 = gpu.alloc  host_shared () : memref<13xf32, 1>
// CHECK-NEXT: gpu.dealloc  %memref_0 : memref<13xf32, 1>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @tokens(%arg0: !gpu.async.token) -> !gpu.async.token {
// CHECK-NEXT: return %arg0 : !gpu.async.token
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "gpu.module"() <{sym_name = "kernels"}> ({
// GENERIC-NEXT: "gpu.func"() <{function_type = (f32, memref<?xf32, 1>) -> (), kernel, known_block_size = array<i32: 32, 1, 1>, sym_name = "k", workgroup_attributions = 1 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg52: f32, %arg53: memref<?xf32, 1>, %arg54: memref<32xf32, #gpu.address_space<workgroup>>, %arg55: memref<1xf32, #gpu.address_space<private>>):
// GENERIC-NEXT: %9 = "gpu.thread_id"() <{dimension = #gpu.dim<x>}> : () -> index
// GENERIC-NEXT: %10 = "gpu.thread_id"() <{dimension = #gpu.dim<y>, upper_bound = 64 : index}> : () -> index
// GENERIC-NEXT: %11 = "gpu.thread_id"() <{dimension = #gpu.dim<z>}> : () -> index
// GENERIC-NEXT: %12 = "gpu.block_id"() <{dimension = #gpu.dim<x>}> : () -> index
// GENERIC-NEXT: %13 = "gpu.block_dim"() <{dimension = #gpu.dim<x>}> : () -> index
// GENERIC-NEXT: %14 = "gpu.grid_dim"() <{dimension = #gpu.dim<z>}> : () -> index
// GENERIC-NEXT: %15 = "gpu.global_id"() <{dimension = #gpu.dim<y>}> : () -> index
// GENERIC-NEXT: %16 = "gpu.cluster_id"() <{dimension = #gpu.dim<x>}> : () -> index
// GENERIC-NEXT: %17 = "gpu.cluster_dim"() <{dimension = #gpu.dim<y>}> : () -> index
// GENERIC-NEXT: %18 = "gpu.cluster_block_id"() <{dimension = #gpu.dim<z>}> : () -> index
// GENERIC-NEXT: %19 = "gpu.cluster_dim_blocks"() <{dimension = #gpu.dim<x>}> : () -> index
// GENERIC-NEXT: %20 = "gpu.lane_id"() : () -> index
// GENERIC-NEXT: %21 = "gpu.lane_id"() <{upper_bound = 32 : index}> : () -> index
// GENERIC-NEXT: %22 = "gpu.subgroup_id"() : () -> index
// GENERIC-NEXT: %23 = "gpu.num_subgroups"() : () -> index
// GENERIC-NEXT: %24 = "gpu.subgroup_size"() : () -> index
// GENERIC-NEXT: %25 = "gpu.subgroup_size"() <{upper_bound = 64 : index}> : () -> index
// GENERIC-NEXT: "gpu.barrier"() <{scope = #gpu.barrier_scope<workgroup>}> : () -> ()
// GENERIC-NEXT: "gpu.barrier"() <{address_spaces = [#gpu.address_space<workgroup>], scope = #gpu.barrier_scope<workgroup>}> : () -> ()
// GENERIC-NEXT: "gpu.barrier"() <{address_spaces = [], scope = #gpu.barrier_scope<workgroup>}> : () -> ()
// GENERIC-NEXT: "gpu.barrier"() <{scope = #gpu.barrier_scope<subgroup>}> : () -> ()
// GENERIC-NEXT: %26 = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT: %27 = "arith.constant"() <{value = 32 : i32}> : () -> i32
// GENERIC-NEXT: %28:2 = "gpu.shuffle"(%arg52, %26, %27) <{mode = #gpu.shuffle_mode<xor>}> : (f32, i32, i32) -> (f32, i1)
// GENERIC-NEXT: %29:2 = "gpu.shuffle"(%arg52, %26, %27) <{mode = #gpu.shuffle_mode<up>}> : (f32, i32, i32) -> (f32, i1)
// GENERIC-NEXT: %30:2 = "gpu.shuffle"(%26, %26, %27) <{mode = #gpu.shuffle_mode<down>}> : (i32, i32, i32) -> (i32, i1)
// GENERIC-NEXT: %31:2 = "gpu.shuffle"(%arg52, %26, %27) <{mode = #gpu.shuffle_mode<idx>}> : (f32, i32, i32) -> (f32, i1)
// GENERIC-NEXT: %32:2 = "gpu.rotate"(%arg52) <{offset = 3 : i32, width = 16 : i32}> : (f32) -> (f32, i1)
// GENERIC-NEXT: %33 = "gpu.subgroup_reduce"(%arg52) <{cluster_stride = 1 : i32, op = #gpu.all_reduce_op<add>}> : (f32) -> f32
// GENERIC-NEXT: %34 = "gpu.subgroup_reduce"(%arg52) <{cluster_stride = 1 : i32, op = #gpu.all_reduce_op<maximumf>, uniform}> : (f32) -> f32
// GENERIC-NEXT: %35 = "gpu.subgroup_reduce"(%26) <{cluster_size = 4 : i32, cluster_stride = 1 : i32, op = #gpu.all_reduce_op<minsi>}> : (i32) -> i32
// GENERIC-NEXT: %36 = "gpu.subgroup_reduce"(%arg52) <{cluster_size = 8 : i32, cluster_stride = 2 : i32, op = #gpu.all_reduce_op<mul>}> : (f32) -> f32
// GENERIC-NEXT: %37 = "gpu.all_reduce"(%arg52) <{op = #gpu.all_reduce_op<add>}> ({
// GENERIC-NEXT: }) : (f32) -> f32
// GENERIC-NEXT: %38 = "gpu.all_reduce"(%arg52) <{op = #gpu.all_reduce_op<maxnumf>, uniform}> ({
// GENERIC-NEXT: }) : (f32) -> f32
// GENERIC-NEXT: %39 = "gpu.all_reduce"(%arg52) ({
// GENERIC-NEXT: ^bb0(%arg56: f32, %arg57: f32):
// GENERIC-NEXT: %42 = "arith.addf"(%arg56, %arg57) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT: "gpu.yield"(%42) : (f32) -> ()
// GENERIC-NEXT: }) : (f32) -> f32
// GENERIC-NEXT: %40 = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT: %41 = "memref.load"(%arg53, %9) : (memref<?xf32, 1>, index) -> f32
// GENERIC-NEXT: "memref.store"(%41, %arg54, %9) : (f32, memref<32xf32, #gpu.address_space<workgroup>>, index) -> ()
// GENERIC-NEXT: "gpu.printf"(%41) <{format = "x = %f"}> : (f32) -> ()
// GENERIC-NEXT: "gpu.printf"() <{format = "]"}> : () -> ()
// GENERIC-NEXT: "gpu.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "gpu.func"() <{function_type = (index) -> index, sym_name = "device"}> ({
// GENERIC-NEXT: ^bb0(%arg51: index):
// GENERIC-NEXT: "gpu.return"(%arg51) : (index) -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "gpu.func"() <{function_type = () -> (), kernel, sym_name = "empty"}> ({
// GENERIC-NEXT: "gpu.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "gpu.module"() <{sym_name = "other"}> ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (index, f32, memref<?xf32, 1>, memref<?xf32>, i32, i64) -> (), sym_name = "host"}> ({
// GENERIC-NEXT: ^bb0(%arg1: index, %arg2: f32, %arg3: memref<?xf32, 1>, %arg4: memref<?xf32>, %arg5: i32, %arg6: i64):
// GENERIC-NEXT: "gpu.launch_func"(%arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg2, %arg3) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, f32, memref<?xf32, 1>) -> ()
// GENERIC-NEXT: "gpu.launch_func"(%arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg5, %arg2, %arg3) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0>}> : (index, index, index, index, index, index, index, index, index, i32, f32, memref<?xf32, 1>) -> ()
// GENERIC-NEXT: "gpu.launch_func"(%arg6, %arg6, %arg6, %arg6, %arg6, %arg6) <{kernel = @kernels::@empty, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (i64, i64, i64, i64, i64, i64) -> ()
// GENERIC-NEXT: %0 = "gpu.wait"() : () -> !gpu.async.token
// GENERIC-NEXT: %1 = "gpu.launch_func"(%0, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1) <{kernel = @kernels::@empty, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, index, index, index, index, index, index) -> !gpu.async.token
// GENERIC-NEXT: "gpu.launch"(%arg1, %arg1, %arg1, %arg1, %arg1, %arg1) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>}> ({
// GENERIC-NEXT: ^bb0(%arg39: index, %arg40: index, %arg41: index, %arg42: index, %arg43: index, %arg44: index, %arg45: index, %arg46: index, %arg47: index, %arg48: index, %arg49: index, %arg50: index):
// GENERIC-NEXT: %8 = "arith.addi"(%arg39, %arg42) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
// GENERIC-NEXT: "gpu.terminator"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index, index, index, index) -> ()
// GENERIC-NEXT: %2 = "gpu.launch"(%1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg5) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0>, workgroup_attributions = 1 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg25: index, %arg26: index, %arg27: index, %arg28: index, %arg29: index, %arg30: index, %arg31: index, %arg32: index, %arg33: index, %arg34: index, %arg35: index, %arg36: index, %arg37: memref<4xf32, 3>, %arg38: memref<1xf32, 5>):
// GENERIC-NEXT: "gpu.terminator"() : () -> ()
// GENERIC-NEXT: }) : (!gpu.async.token, index, index, index, index, index, index, i32) -> !gpu.async.token
// GENERIC-NEXT: "gpu.launch"(%arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1) <{function = @fn, module = @mod, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}> ({
// GENERIC-NEXT: ^bb0(%arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index, %arg13: index, %arg14: index, %arg15: index, %arg16: index, %arg17: index, %arg18: index, %arg19: index, %arg20: index, %arg21: index, %arg22: index, %arg23: index, %arg24: index):
// GENERIC-NEXT: "gpu.terminator"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index, index, index, index, index, index, index) -> ()
// GENERIC-NEXT: %3:2 = "gpu.alloc"(%2, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!gpu.async.token, index) -> (memref<?xf32, 1>, !gpu.async.token)
// GENERIC-NEXT: %4 = "gpu.memset"(%3#1, %3#0, %arg2) : (!gpu.async.token, memref<?xf32, 1>, f32) -> !gpu.async.token
// GENERIC-NEXT: %5 = "gpu.memcpy"(%4, %3#0, %arg3) : (!gpu.async.token, memref<?xf32, 1>, memref<?xf32, 1>) -> !gpu.async.token
// GENERIC-NEXT: "gpu.memcpy"(%arg4, %3#0) : (memref<?xf32>, memref<?xf32, 1>) -> ()
// GENERIC-NEXT: %6 = "gpu.dealloc"(%5, %3#0) : (!gpu.async.token, memref<?xf32, 1>) -> !gpu.async.token
// GENERIC-NEXT: "gpu.wait"(%6, %0) : (!gpu.async.token, !gpu.async.token) -> ()
// GENERIC-NEXT: "gpu.wait"() : () -> ()
// GENERIC-NEXT: %7 = "gpu.alloc"() <{hostShared, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<13xf32, 1>
// GENERIC-NEXT: "gpu.dealloc"(%7) : (memref<13xf32, 1>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (!gpu.async.token) -> !gpu.async.token, sym_name = "tokens"}> ({
// GENERIC-NEXT: ^bb0(%arg0: !gpu.async.token):
// GENERIC-NEXT: "func.return"(%arg0) : (!gpu.async.token) -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) {gpu.container_module} : () -> ()

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: f32, %arg1: memref<?xf32, 1>) workgroup(%w: memref<32xf32, #gpu.address_space<workgroup>>) private(%p: memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y upper_bound 64
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gdx = gpu.grid_dim z
      %gid = gpu.global_id y
      %cid = gpu.cluster_id x
      %cdim = gpu.cluster_dim y
      %cbid = gpu.cluster_block_id z
      %cdb = gpu.cluster_dim_blocks x
      %l = gpu.lane_id
      %l2 = gpu.lane_id upper_bound 32
      %sgid = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgs = gpu.subgroup_size : index
      %sgs2 = gpu.subgroup_size upper_bound 64 : index
      gpu.barrier
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.barrier memfence []
      gpu.barrier scope <subgroup>
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %r0, %v0 = gpu.shuffle xor %arg0, %c1, %c32 : f32
      %r1, %v1 = gpu.shuffle up %arg0, %c1, %c32 : f32
      %r2, %v2 = gpu.shuffle down %c1, %c1, %c32 : i32
      %r3, %v3 = gpu.shuffle idx %arg0, %c1, %c32 : f32
      %rot, %vr = gpu.rotate %arg0, 3, 16 : f32
      %s0 = gpu.subgroup_reduce add %arg0 : (f32) -> f32
      %s1 = gpu.subgroup_reduce maximumf %arg0 uniform : (f32) -> f32
      %s2 = gpu.subgroup_reduce minsi %c1 cluster(size = 4) : (i32) -> i32
      %s3 = gpu.subgroup_reduce mul %arg0 cluster(size = 8, stride = 2) : (f32) -> f32
      %a0 = gpu.all_reduce add %arg0 {} : (f32) -> (f32)
      %a1 = gpu.all_reduce maxnumf %arg0 uniform {} : (f32) -> f32
      %a2 = gpu.all_reduce %arg0 {
      ^bb(%lhs : f32, %rhs : f32):
        %t = arith.addf %lhs, %rhs : f32
        gpu.yield %t : f32
      } : (f32) -> (f32)
      %c0 = arith.constant 0 : index
      %x = memref.load %arg1[%tx] : memref<?xf32, 1>
      memref.store %x, %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.printf "x = %f", %x : f32
      gpu.printf "]"
      gpu.return
    }
    gpu.func @device(%a: index) -> index {
      gpu.return %a : index
    }
    gpu.func @empty() kernel {
      gpu.return
    }
  }
  gpu.module @other {
  }
  func.func @host(%n: index, %a: f32, %m: memref<?xf32, 1>, %h: memref<?xf32>, %i: i32, %i64: i64) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : f32, %m : memref<?xf32, 1>)
    gpu.launch_func @kernels::@k clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %i args(%a : f32, %m : memref<?xf32, 1>)
    gpu.launch_func @kernels::@empty blocks in (%i64, %i64, %i64) threads in (%i64, %i64, %i64) : i64
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@empty blocks in (%n, %n, %n) threads in (%n, %n, %n)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      %s = arith.addi %bx, %tx : index
      gpu.terminator
    }
    %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %i workgroup(%w : memref<4xf32, 3>) private(%p : memref<1xf32, 5>) {
      gpu.terminator
    }
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %n, %ncy = %n, %ncz = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@mod) function(@fn) {
      gpu.terminator
    }
    %d0, %t3 = gpu.alloc async [%t2] (%n) : memref<?xf32, 1>
    %t4 = gpu.memset async [%t3] %d0, %a : memref<?xf32, 1>, f32
    %t5 = gpu.memcpy async [%t4] %d0, %m : memref<?xf32, 1>, memref<?xf32, 1>
    gpu.memcpy %h, %d0 : memref<?xf32>, memref<?xf32, 1>
    %t6 = gpu.dealloc async [%t5] %d0 : memref<?xf32, 1>
    gpu.wait [%t6, %t0]
    gpu.wait
    %d1 = gpu.alloc host_shared () : memref<13xf32, 1>
    gpu.dealloc %d1 : memref<13xf32, 1>
    return
  }
  func.func @tokens(%t : !gpu.async.token) -> !gpu.async.token {
    return %t : !gpu.async.token
  }
}
