// RUN: strata-translate --mlir-to-llvmir %s | filecheck %s

// CHECK: ; ModuleID = 'LLVMDialectModule'
// CHECK: target triple = "x86_64-unknown-linux-gnu"
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  // CHECK: @w = external global [16 x float], align 64
  llvm.mlir.global external @w() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x f32>
  // CHECK: declare ptr @malloc(i64)
  llvm.func @malloc(i64) -> !llvm.ptr

  // CHECK-LABEL: define void @axpy(float %arg0, ptr noalias %arg1, ptr %arg2, i64 %arg3) {
  llvm.func @axpy(%a: f32, %x: !llvm.ptr {llvm.noalias}, %y: !llvm.ptr, %n: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    // CHECK-NEXT: bb0:
    // CHECK-NEXT: br label %bb1
    llvm.br ^loop(%c0 : i64)
  // CHECK-NEXT: bb1:
  // CHECK-NEXT: %t0 = phi i64 [ 0, %bb0 ], [ %t7, %bb2 ]
  ^loop(%i: i64):
    // CHECK-NEXT: %t1 = icmp slt i64 %t0, %arg3
    // CHECK-NEXT: br i1 %t1, label %bb2, label %bb3
    %more = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %more, ^body, ^done
  // CHECK-NEXT: bb2:
  ^body:
    // CHECK-NEXT: %t2 = getelementptr inbounds float, ptr %arg1, i64 %t0
    // CHECK-NEXT: %t3 = load float, ptr %t2, align 4
    // CHECK-NEXT: %t4 = getelementptr inbounds float, ptr %arg2, i64 %t0
    // CHECK-NEXT: %t5 = load float, ptr %t4, align 4
    // CHECK-NEXT: %t6 = call contract float @llvm.fma.f32(float %arg0, float %t3, float %t5)
    // CHECK-NEXT: store float %t6, ptr %t4, align 4
    // CHECK-NEXT: %t7 = add nuw nsw i64 %t0, 1
    %px = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %vx = llvm.load %px <alignment = 4> : !llvm.ptr -> f32
    %py = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %vy = llvm.load %py <alignment = 4> : !llvm.ptr -> f32
    %r = llvm.intr.fma(%a, %vx, %vy) fastmath<contract> : (f32, f32, f32) -> f32
    llvm.store %r, %py <alignment = 4> : f32, !llvm.ptr
    %unused = llvm.mlir.addressof @w : !llvm.ptr
    %next = llvm.add %i, %c1 overflow<nsw, nuw> : i64
    llvm.br ^loop(%next : i64)
  // CHECK: bb3:
  // CHECK-NEXT: ret void
  ^done:
    llvm.return
  }
}
// CHECK: declare float @llvm.fma.f32(float, float, float)
