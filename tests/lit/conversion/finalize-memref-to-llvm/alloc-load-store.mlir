// RUN: strata-opt %s --finalize-memref-to-llvm | filecheck %s

// CHECK: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @alloc_load
func.func @alloc_load(%n: index, %i: index, %j: index) -> f32 {
  // CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: llvm.mul %[[C4]], %{{.*}} : i64
  // CHECK: llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK: llvm.ptrtoint
  // CHECK: llvm.mlir.constant(64 : i64) : i64
  // CHECK: llvm.call @malloc
  // CHECK: llvm.urem
  // CHECK: llvm.inttoptr
  // CHECK: llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  %m = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
  // CHECK: llvm.mul %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
  // CHECK: llvm.add %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
  // CHECK: llvm.getelementptr inbounds|nuw %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
  %v = memref.load %m[%i, %j] : memref<?x4xf32>
  // CHECK: llvm.extractvalue %{{.*}}[0]
  // CHECK: llvm.call @free
  memref.dealloc %m : memref<?x4xf32>
  return %v : f32
}
