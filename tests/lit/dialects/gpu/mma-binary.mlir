// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The gpu dialect: subgroup MMA, binaries, warp ops. The CHECK and GENERIC lines are what
// iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: gpu.binary @binary_1  [#gpu.object<#nvvm.target, "">]
// CHECK-NEXT: gpu.binary @binary_2 <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">]
// CHECK-NEXT: gpu.binary @binary_5  [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, "">]
// CHECK-NEXT: func.func @f2(%arg0: f32, %arg1: i32, %arg2: memref<32x32xf16, 3>, %arg3: index, %arg4: memref<32x32xf32, 3>) {
// CHECK-NEXT: %0 = gpu.subgroup_mma_load_matrix %arg2[%arg3, %arg3] leadDimension 32 : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK-NEXT: %1 = gpu.subgroup_mma_load_matrix %arg2[%arg3, %arg3] leadDimension 32 transpose : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-NEXT: %2 = gpu.subgroup_mma_constant_matrix %arg0 : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT: %3 = gpu.subgroup_mma_compute %0, %1, %2 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT: %4 = gpu.subgroup_mma_compute %0, %1, %2 a_transpose : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT: %5 = gpu.subgroup_mma_elementwise addf %3, %3 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT: gpu.subgroup_mma_store_matrix %5, %arg4[%arg3, %arg3] leadDimension 32 : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32, 3>
// CHECK-NEXT: %6 = gpu.subgroup_mma_extract_thread_local %5[%arg3] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
// CHECK-NEXT: %7 = gpu.subgroup_mma_insert_thread_local %6, %5[%arg3] : f32, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NEXT: %8 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.set_default_device %arg1
// CHECK-NEXT: %9 = gpu.warp_execute_on_lane_0(%arg3)[32] args(%arg0 : f32) -> (vector<1xf32>) {
// CHECK-NEXT: ^bb0(%arg5: f32):
// CHECK-NEXT: %10 = vector.broadcast %arg5 : f32 to vector<32xf32>
// CHECK-NEXT: gpu.yield %10 : vector<32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @f3(%arg0: f32, %arg1: i32, %arg2: i1, %arg3: memref<*xf32>) {
// CHECK-NEXT: %0 = gpu.subgroup_broadcast %arg0, first_active_lane : f32
// CHECK-NEXT: %1 = gpu.subgroup_broadcast %arg0, specific_lane %arg1 : f32
// CHECK-NEXT: %2 = gpu.ballot %arg2 : i32
// CHECK-NEXT: gpu.host_register %arg3 : memref<*xf32>
// CHECK-NEXT: gpu.host_unregister %arg3 : memref<*xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "">], offloadingHandler = #gpu.select_object, sym_name = "binary_1"}> : () -> ()
// GENERIC-NEXT: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">], offloadingHandler = #gpu.select_object<#nvvm.target<chip = "sm_90">>, sym_name = "binary_2"}> : () -> ()
// GENERIC-NEXT: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, "">], offloadingHandler = #gpu.select_object, sym_name = "binary_5"}> : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (f32, i32, memref<32x32xf16, 3>, index, memref<32x32xf32, 3>) -> (), sym_name = "f2"}> ({
// GENERIC-NEXT: ^bb0(%arg4: f32, %arg5: i32, %arg6: memref<32x32xf16, 3>, %arg7: index, %arg8: memref<32x32xf32, 3>):
// GENERIC-NEXT: %3 = "gpu.subgroup_mma_load_matrix"(%arg6, %arg7, %arg7) <{leadDimension = 32 : index}> : (memref<32x32xf16, 3>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
// GENERIC-NEXT: %4 = "gpu.subgroup_mma_load_matrix"(%arg6, %arg7, %arg7) <{leadDimension = 32 : index, transpose}> : (memref<32x32xf16, 3>, index, index) -> !gpu.mma_matrix<16x16xf16, "BOp">
// GENERIC-NEXT: %5 = "gpu.subgroup_mma_constant_matrix"(%arg4) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
// GENERIC-NEXT: %6 = "gpu.subgroup_mma_compute"(%3, %4, %5) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// GENERIC-NEXT: %7 = "gpu.subgroup_mma_compute"(%3, %4, %5) <{a_transpose}> : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// GENERIC-NEXT: %8 = "gpu.subgroup_mma_elementwise"(%6, %6) <{opType = #gpu.mma_element_wise<addf>}> : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
// GENERIC-NEXT: "gpu.subgroup_mma_store_matrix"(%8, %arg8, %arg7, %arg7) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32, 3>, index, index) -> ()
// GENERIC-NEXT: %9 = "gpu.subgroup_mma_extract_thread_local"(%8, %arg7) : (!gpu.mma_matrix<16x16xf32, "COp">, index) -> f32
// GENERIC-NEXT: %10 = "gpu.subgroup_mma_insert_thread_local"(%9, %8, %arg7) : (f32, !gpu.mma_matrix<16x16xf32, "COp">, index) -> !gpu.mma_matrix<16x16xf32, "COp">
// GENERIC-NEXT: %11 = "gpu.dynamic_shared_memory"() : () -> memref<?xi8, #gpu.address_space<workgroup>>
// GENERIC-NEXT: "gpu.set_default_device"(%arg5) : (i32) -> ()
// GENERIC-NEXT: %12 = "gpu.warp_execute_on_lane_0"(%arg7, %arg4) <{warp_size = 32 : i64}> ({
// GENERIC-NEXT: ^bb0(%arg9: f32):
// GENERIC-NEXT: %13 = "vector.broadcast"(%arg9) : (f32) -> vector<32xf32>
// GENERIC-NEXT: "gpu.yield"(%13) : (vector<32xf32>) -> ()
// GENERIC-NEXT: }) : (index, f32) -> vector<1xf32>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (f32, i32, i1, memref<*xf32>) -> (), sym_name = "f3"}> ({
// GENERIC-NEXT: ^bb0(%arg0: f32, %arg1: i32, %arg2: i1, %arg3: memref<*xf32>):
// GENERIC-NEXT: %0 = "gpu.subgroup_broadcast"(%arg0) <{broadcast_type = #gpu.broadcast<first_active_lane>}> : (f32) -> f32
// GENERIC-NEXT: %1 = "gpu.subgroup_broadcast"(%arg0, %arg1) <{broadcast_type = #gpu.broadcast<specific_lane>}> : (f32, i32) -> f32
// GENERIC-NEXT: %2 = "gpu.ballot"(%arg2) : (i1) -> i32
// GENERIC-NEXT: "gpu.host_register"(%arg3) : (memref<*xf32>) -> ()
// GENERIC-NEXT: "gpu.host_unregister"(%arg3) : (memref<*xf32>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) {gpu.container_module} : () -> ()

module attributes {gpu.container_module} {
  gpu.binary @binary_1 [#gpu.object<#nvvm.target, "">]
  gpu.binary @binary_2 <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">]
  gpu.binary @binary_5 [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, fatbin = "">]
  func.func @f2(%a: f32, %i: i32, %src : memref<32x32xf16, 3>, %x: index, %dst : memref<32x32xf32, 3>) {
    %m = "gpu.subgroup_mma_load_matrix"(%src, %x, %x) {leadDimension = 32 : index} : (memref<32x32xf16, 3>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
    %b = "gpu.subgroup_mma_load_matrix"(%src, %x, %x) {leadDimension = 32 : index, transpose} : (memref<32x32xf16, 3>, index, index) -> !gpu.mma_matrix<16x16xf16, "BOp">
    %c = "gpu.subgroup_mma_constant_matrix"(%a) : (f32) -> !gpu.mma_matrix<16x16xf32, "COp">
    %d = "gpu.subgroup_mma_compute"(%m, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    %d2 = "gpu.subgroup_mma_compute"(%m, %b, %c) {a_transpose} : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    %e = "gpu.subgroup_mma_elementwise"(%d, %d) {opType = #gpu.mma_element_wise<addf>} : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    "gpu.subgroup_mma_store_matrix"(%e, %dst, %x, %x) {leadDimension = 32 : index} : (!gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32, 3>, index, index) -> ()
    %v = "gpu.subgroup_mma_extract_thread_local"(%e, %x) : (!gpu.mma_matrix<16x16xf32, "COp">, index) -> f32
    %w = "gpu.subgroup_mma_insert_thread_local"(%v, %e, %x) : (f32, !gpu.mma_matrix<16x16xf32, "COp">, index) -> !gpu.mma_matrix<16x16xf32, "COp">
    %s = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.set_default_device %i
    %r = gpu.warp_execute_on_lane_0(%x)[32] args(%a : f32) -> (vector<1xf32>) {
    ^bb0(%q: f32):
      %vv = vector.broadcast %q : f32 to vector<32xf32>
      gpu.yield %vv : vector<32xf32>
    }
    return
  }
  func.func @f3(%a: f32, %i: i32, %p: i1, %m: memref<*xf32>) {
    %0 = gpu.subgroup_broadcast %a, first_active_lane : f32
    %1 = gpu.subgroup_broadcast %a, specific_lane %i : f32
    %2 = gpu.ballot %p : i32
    gpu.host_register %m : memref<*xf32>
    gpu.host_unregister %m : memref<*xf32>
    return
  }
}
