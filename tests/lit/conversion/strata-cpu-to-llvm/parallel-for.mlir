// RUN: strata-opt %s --convert-strata-cpu-to-llvm | filecheck %s
// RUN: strata-opt %s --convert-strata-cpu-to-llvm --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | filecheck %s --check-prefix=LLVM

// strata_cpu.parallel_for -> strata_parallel_for(trampoline, context, count, grain): the
// operands packed in a struct on the stack (one slot per function and type), a
// trampoline per chunk function unpacking them and calling it. convert-to-llvm then
// expands the memref descriptor into the chunk function's arguments (upstream's ABI).

// CHECK-LABEL: llvm.func @strata_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-LABEL: func.func private @chunk(%arg0: memref<?x4xf32>, %arg1: f32, %arg2: index, %arg3: index, %arg4: index) {
// CHECK-NEXT:   return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func @chunk__tramp(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) {
// CHECK-NEXT:   %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %1 = llvm.extractvalue %0[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %2 = builtin.unrealized_conversion_cast %1 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x4xf32>
// CHECK-NEXT:   %3 = llvm.extractvalue %0[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %4 = llvm.extractvalue %0[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %5 = builtin.unrealized_conversion_cast %4 : i64 to index
// CHECK-NEXT:   %6 = builtin.unrealized_conversion_cast %arg1 : i64 to index
// CHECK-NEXT:   %7 = builtin.unrealized_conversion_cast %arg2 : i64 to index
// CHECK-NEXT:   func.call @chunk(%2, %3, %5, %6, %7) : (memref<?x4xf32>, f32, index, index, index) -> ()
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @empty(%arg0: index, %arg1: index) {
// CHECK-NEXT:   return
// CHECK-NEXT: }
// CHECK-LABEL: llvm.func @empty__tramp(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) {
// CHECK-NEXT:   %0 = builtin.unrealized_conversion_cast %arg1 : i64 to index
// CHECK-NEXT:   %1 = builtin.unrealized_conversion_cast %arg2 : i64 to index
// CHECK-NEXT:   func.call @empty(%0, %1) : (index, index) -> ()
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
// CHECK-LABEL: func.func @run(%arg0: memref<?x4xf32>, %arg1: f32, %arg2: index, %arg3: index) {
// CHECK-NEXT:   %0 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:   %1 = llvm.alloca %0 x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)> : (i64) -> !llvm.ptr
// CHECK-NEXT:   %c16 = arith.constant 16 : index
// CHECK-NEXT:   %2 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %3 = builtin.unrealized_conversion_cast %arg0 : memref<?x4xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:   %4 = llvm.insertvalue %3, %2[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %5 = llvm.insertvalue %arg1, %4[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %6 = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT:   %7 = llvm.insertvalue %6, %5[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   llvm.store %7, %1 : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>, !llvm.ptr
// CHECK-NEXT:   %8 = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
// CHECK-NEXT:   %9 = builtin.unrealized_conversion_cast %arg3 : index to i64
// CHECK-NEXT:   %10 = builtin.unrealized_conversion_cast %c16 : index to i64
// CHECK-NEXT:   llvm.call @strata_parallel_for(%8, %1, %9, %10) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:   %11 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %12 = builtin.unrealized_conversion_cast %arg0 : memref<?x4xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:   %13 = llvm.insertvalue %12, %11[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %14 = llvm.insertvalue %arg1, %13[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   %15 = builtin.unrealized_conversion_cast %arg3 : index to i64
// CHECK-NEXT:   %16 = llvm.insertvalue %15, %14[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// CHECK-NEXT:   llvm.store %16, %1 : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>, !llvm.ptr
// CHECK-NEXT:   %17 = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
// CHECK-NEXT:   %18 = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT:   %19 = builtin.unrealized_conversion_cast %c16 : index to i64
// CHECK-NEXT:   llvm.call @strata_parallel_for(%17, %1, %18, %19) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:   %20 = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:   %21 = llvm.mlir.addressof @empty__tramp : !llvm.ptr
// CHECK-NEXT:   %22 = builtin.unrealized_conversion_cast %arg3 : index to i64
// CHECK-NEXT:   %23 = builtin.unrealized_conversion_cast %c16 : index to i64
// CHECK-NEXT:   llvm.call @strata_parallel_for(%21, %20, %22, %23) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:   return
// CHECK-NEXT: }

// LLVM-LABEL: llvm.func @strata_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// LLVM-LABEL: llvm.func @chunk(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: f32, %arg8: i64, %arg9: i64, %arg10: i64) {
// LLVM-NEXT:   llvm.return
// LLVM-NEXT: }
// LLVM-LABEL: llvm.func @chunk__tramp(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) {
// LLVM-NEXT:   %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %1 = llvm.extractvalue %0[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %2 = llvm.extractvalue %0[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %3 = llvm.extractvalue %0[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %4 = llvm.extractvalue %1[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %5 = llvm.extractvalue %1[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %6 = llvm.extractvalue %1[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %7 = llvm.extractvalue %1[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %8 = llvm.extractvalue %1[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %9 = llvm.extractvalue %1[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %10 = llvm.extractvalue %1[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   llvm.call @chunk(%4, %5, %6, %7, %8, %9, %10, %2, %3, %arg1, %arg2) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, f32, i64, i64, i64) -> ()
// LLVM-NEXT:   llvm.return
// LLVM-NEXT: }
// LLVM-LABEL: llvm.func @empty(%arg0: i64, %arg1: i64) {
// LLVM-NEXT:   llvm.return
// LLVM-NEXT: }
// LLVM-LABEL: llvm.func @empty__tramp(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) {
// LLVM-NEXT:   llvm.call @empty(%arg1, %arg2) : (i64, i64) -> ()
// LLVM-NEXT:   llvm.return
// LLVM-NEXT: }
// LLVM-LABEL: llvm.func @run(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: f32, %arg8: i64, %arg9: i64) {
// LLVM-NEXT:   %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %2 = llvm.insertvalue %arg1, %1[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %3 = llvm.insertvalue %arg2, %2[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %4 = llvm.insertvalue %arg3, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %5 = llvm.insertvalue %arg4, %4[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %6 = llvm.insertvalue %arg5, %5[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %7 = llvm.insertvalue %arg6, %6[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-NEXT:   %8 = llvm.mlir.constant(1 : i64) : i64
// LLVM-NEXT:   %9 = llvm.alloca %8 x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)> : (i64) -> !llvm.ptr
// LLVM-NEXT:   %10 = llvm.mlir.constant(16 : i64) : i64
// LLVM-NEXT:   %11 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %12 = llvm.insertvalue %7, %11[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %13 = llvm.insertvalue %arg7, %12[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %14 = llvm.insertvalue %arg8, %13[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   llvm.store %14, %9 : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>, !llvm.ptr
// LLVM-NEXT:   %15 = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
// LLVM-NEXT:   llvm.call @strata_parallel_for(%15, %9, %arg9, %10) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// LLVM-NEXT:   %16 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %17 = llvm.insertvalue %7, %16[0] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %18 = llvm.insertvalue %arg7, %17[1] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   %19 = llvm.insertvalue %arg9, %18[2] : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>
// LLVM-NEXT:   llvm.store %19, %9 : !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, f32, i64)>, !llvm.ptr
// LLVM-NEXT:   %20 = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
// LLVM-NEXT:   llvm.call @strata_parallel_for(%20, %9, %arg8, %10) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// LLVM-NEXT:   %21 = llvm.mlir.zero : !llvm.ptr
// LLVM-NEXT:   %22 = llvm.mlir.addressof @empty__tramp : !llvm.ptr
// LLVM-NEXT:   llvm.call @strata_parallel_for(%22, %21, %arg9, %10) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// LLVM-NEXT:   llvm.return
// LLVM-NEXT: }

func.func private @chunk(%a: memref<?x4xf32>, %x: f32, %k: index, %lo: index, %hi: index) {
  return
}

func.func private @empty(%lo: index, %hi: index) {
  return
}

func.func @run(%a: memref<?x4xf32>, %x: f32, %k: index, %n: index) {
  %g = arith.constant 16 : index
  strata_cpu.parallel_for @chunk(%a, %x, %k) count(%n) grain(%g) : (memref<?x4xf32>, f32, index)
  strata_cpu.parallel_for @chunk(%a, %x, %n) count(%k) grain(%g) : (memref<?x4xf32>, f32, index)
  strata_cpu.parallel_for @empty() count(%n) grain(%g) : ()
  return
}
