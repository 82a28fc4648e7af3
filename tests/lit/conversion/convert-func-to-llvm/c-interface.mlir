// RUN: strata-opt %s --pass-pipeline="builtin.module(convert-func-to-llvm,reconcile-unrealized-casts)" | filecheck %s

// CHECK-LABEL: llvm.func @id(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> attributes {llvm.emit_c_interface}
// CHECK: llvm.mlir.poison
// CHECK: llvm.insertvalue %arg0
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_id(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {llvm.emit_c_interface}
// CHECK: llvm.load %arg1
// CHECK: llvm.call @id
// CHECK: llvm.store %{{.*}}, %arg0
func.func @id(%m: memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface} {
  return %m : memref<?xf32>
}

// CHECK-LABEL: llvm.func @two(%arg0: i32, %arg1: f32) -> !llvm.struct<(i32, f32)>
// CHECK: llvm.insertvalue %arg0, %{{.*}}[0] : !llvm.struct<(i32, f32)>
func.func @two(%a: i32, %b: f32) -> (i32, f32) {
  return %a, %b : i32, f32
}
