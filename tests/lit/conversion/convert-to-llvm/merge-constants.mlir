// RUN: strata-opt %s --convert-to-llvm=fold-aggregates=true | filecheck %s
// RUN: strata-opt %s --convert-to-llvm | filecheck %s --check-prefix=UPSTREAM

// fold-aggregates (ours) merges repeated llvm constants (llvm.mlir.constant / zero /
// addressof) as the lowering finishes, see [Note: one constant per value]: within a
// block the first of equal constants serves the later ones; the entry block's serve the
// other blocks; a constant of one branch never serves a sibling branch; a different type
// or value is another constant. Without the option every constant stays, as upstream.

func.func private @use(%x: i64, %y: i64, %z: i32)
func.func private @usep(%p: memref<4xf32>, %q: memref<4xf32>)

memref.global "private" constant @w : memref<4xf32> = dense<1.0>
// CHECK-LABEL: llvm.func @same_block()
// CHECK-NEXT:    %[[A:.*]] = llvm.mlir.constant(7 : i64) : i64
// CHECK-NEXT:    %[[C:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:    llvm.call @use(%[[A]], %[[A]], %[[C]])
// CHECK:         %[[W:.*]] = llvm.mlir.addressof @w : !llvm.ptr
// CHECK-NOT:     llvm.mlir.addressof
// CHECK-NOT:     llvm.mlir.constant(4 : i64)
// CHECK-NOT:     llvm.mlir.constant(1 : i64)
// CHECK:         llvm.return
// UPSTREAM-LABEL: llvm.func @same_block()
// UPSTREAM-NEXT:    llvm.mlir.constant(7 : i64) : i64
// UPSTREAM-NEXT:    llvm.mlir.constant(7 : i64) : i64
// UPSTREAM-NEXT:    llvm.mlir.constant(7 : i32) : i32
// UPSTREAM-COUNT-2: llvm.mlir.addressof @w
func.func @same_block() {
  %a = arith.constant 7 : i64
  %b = arith.constant 7 : i64
  %c = arith.constant 7 : i32
  call @use(%a, %b, %c) : (i64, i64, i32) -> ()
  %p = memref.get_global @w : memref<4xf32>
  %q = memref.get_global @w : memref<4xf32>
  call @usep(%p, %q) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}


// CHECK-LABEL: llvm.func @blocks(
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %[[ONE32:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    llvm.call @use(%[[ONE]], %[[ONE]], %[[ONE32]])
// CHECK-NEXT:    llvm.cond_br
// CHECK:       ^bb1:
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[TWO32:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    llvm.call @use(%[[ONE]], %[[TWO]], %[[TWO32]])
// CHECK:       ^bb2:
// CHECK-NEXT:    %[[TWOB:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[TWO32B:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    llvm.call @use(%[[TWOB]], %[[TWOB]], %[[TWO32B]])
func.func @blocks(%f: i1) {
  %a = arith.constant 1 : i64
  %a32 = arith.constant 1 : i32
  call @use(%a, %a, %a32) : (i64, i64, i32) -> ()
  cf.cond_br %f, ^bb1, ^bb2
^bb1:
  %b = arith.constant 1 : i64
  %c = arith.constant 2 : i64
  %d = arith.constant 2 : i32
  call @use(%b, %c, %d) : (i64, i64, i32) -> ()
  cf.br ^bb3
^bb2:
  %e = arith.constant 2 : i64
  %g = arith.constant 2 : i64
  %h = arith.constant 2 : i32
  call @use(%e, %g, %h) : (i64, i64, i32) -> ()
  cf.br ^bb3
^bb3:
  return
}
