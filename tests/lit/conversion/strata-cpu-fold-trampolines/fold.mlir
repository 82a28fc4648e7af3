// RUN: strata-opt %s --strata-cpu-fold-trampolines | filecheck %s

// A trampoline (one block: the context unpacked, a call, a return) takes the body of
// the chunk function it calls when nothing else refers to that function: the merged
// function has the chunk's name and attributes and the trampoline's signature; what
// the chunk does not use of the context is dropped, and references to the trampoline
// name the merged function.

// CHECK-LABEL: llvm.func @chunk(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) attributes {strata.outlined} {
// CHECK-NEXT:   %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.struct<(ptr, f32)>
// CHECK-NEXT:   %1 = llvm.extractvalue %0[0] : !llvm.struct<(ptr, f32)>
// CHECK-NEXT:   llvm.br ^bb1(%arg1 : i64)
// CHECK-NEXT: ^bb1(%2: i64):
// CHECK-NEXT:   %3 = llvm.icmp "slt" %2, %arg2 : i64
// CHECK-NEXT:   llvm.cond_br %3, ^bb2, ^bb3
// CHECK-NEXT: ^bb2:
// CHECK-NEXT:   %4 = llvm.getelementptr %1[%2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:   %5 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:   llvm.store %5, %4 : f32, !llvm.ptr
// CHECK-NEXT:   %6 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:   %7 = llvm.add %2, %6 : i64
// CHECK-NEXT:   llvm.br ^bb1(%7 : i64)
// CHECK-NEXT: ^bb3:
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
// CHECK-NOT: @chunk__tramp
// CHECK-LABEL: llvm.func @shared(
// CHECK-LABEL: llvm.func @shared__tramp(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) {
// CHECK-NEXT:   llvm.call @shared(%arg1, %arg2) : (i64, i64) -> ()
// CHECK-LABEL: llvm.func @run(
// CHECK:   %[[F:.*]] = llvm.mlir.addressof @chunk : !llvm.ptr
// CHECK:   llvm.call @strata_parallel_for(%[[F]], %arg0, %arg1, %arg1)
// CHECK:   %[[G:.*]] = llvm.mlir.addressof @shared__tramp : !llvm.ptr
// CHECK:   llvm.call @strata_parallel_for(%[[G]], %{{.*}}, %arg1, %arg1)
// CHECK:   llvm.call @shared(%arg1, %arg1)
llvm.func @strata_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)

llvm.func @chunk(%p: !llvm.ptr, %x: f32, %lo: i64, %hi: i64) attributes {strata.outlined} {
  llvm.br ^loop(%lo : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %hi : i64
  llvm.cond_br %c, ^body, ^done
^body:
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %one = llvm.mlir.constant(1.0 : f32) : f32
  llvm.store %one, %q : f32, !llvm.ptr
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %n = llvm.add %i, %c1 : i64
  llvm.br ^loop(%n : i64)
^done:
  llvm.return
}

llvm.func @chunk__tramp(%ctx: !llvm.ptr, %lo: i64, %hi: i64) {
  %s = llvm.load %ctx : !llvm.ptr -> !llvm.struct<(ptr, f32)>
  %p = llvm.extractvalue %s[0] : !llvm.struct<(ptr, f32)>
  %x = llvm.extractvalue %s[1] : !llvm.struct<(ptr, f32)>
  llvm.call @chunk(%p, %x, %lo, %hi) : (!llvm.ptr, f32, i64, i64) -> ()
  llvm.return
}

// called directly too: kept
llvm.func @shared(%lo: i64, %hi: i64) {
  llvm.return
}

llvm.func @shared__tramp(%ctx: !llvm.ptr, %lo: i64, %hi: i64) {
  llvm.call @shared(%lo, %hi) : (i64, i64) -> ()
  llvm.return
}

llvm.func @run(%ctx: !llvm.ptr, %n: i64) {
  %f = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
  llvm.call @strata_parallel_for(%f, %ctx, %n, %n) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
  %g = llvm.mlir.addressof @shared__tramp : !llvm.ptr
  %z = llvm.mlir.zero : !llvm.ptr
  llvm.call @strata_parallel_for(%g, %z, %n, %n) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
  llvm.call @shared(%n, %n) : (i64, i64) -> ()
  llvm.return
}
