// RUN: strata-opt %s --convert-to-llvm | filecheck %s
// RUN: strata-opt %s --convert-to-llvm=fold-ops=false | filecheck %s --check-prefix=NOFOLD
// RUN: strata-opt %s --convert-to-llvm="fold-aggregates=true fold-ops=false" | filecheck %s --check-prefix=FA

// memref.global ops are lowered after the conversion driver ([Note: globals lowered
// directly]): each llvm.mlir.global takes its memref.global's place, nested modules
// included, as the driver placed them. fold-ops=false (ours, the CPU target's; [Note:
// no folding while lowering]) converts foldable ops by their patterns instead of folding
// them first (upstream's driver folds: the default).

// CHECK:       llvm.func @use(
// CHECK-NEXT:  llvm.mlir.global private constant @w(dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x f32>>
// CHECK-NEXT:  llvm.func @f() -> i32 {
// CHECK:         llvm.mlir.addressof @w : !llvm.ptr
// CHECK:         %[[C:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:    llvm.return %[[C]] : i32
// CHECK:       llvm.mlir.global external @state() {addr_space = 0 : i32} : !llvm.array<4 x i32> {
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : !llvm.array<4 x i32>
// CHECK-NEXT:    llvm.return %[[U]] : !llvm.array<4 x i32>
// CHECK:       llvm.mlir.global private @s(7 : i64) {addr_space = 0 : i32, alignment = 64 : i64} : i64
// CHECK-NEXT:  module @inner {
// CHECK-NEXT:    llvm.mlir.global private constant @v(dense<[1, 2]> : tensor<2xi8>) {addr_space = 0 : i32} : !llvm.array<2 x i8>
// CHECK-NOT:   memref.global

// NOFOLD:      llvm.func @f() -> i32 {
// NOFOLD:        %[[A:.*]] = llvm.mlir.constant(2 : i32) : i32
// NOFOLD-NEXT:   %[[B:.*]] = llvm.mlir.constant(3 : i32) : i32
// NOFOLD-NEXT:   %[[S:.*]] = llvm.add %[[A]], %[[B]] : i32
// NOFOLD-NEXT:   llvm.return %[[S]] : i32

// the global's descriptor only taken apart: its fields passed, no struct, no byte size
// FA:          llvm.func @f() -> i32 {
// FA-NOT:        llvm.mlir.zero
// FA:            %[[R:.*]] = llvm.mlir.addressof @w : !llvm.ptr
// FA-NEXT:       %[[P:.*]] = llvm.getelementptr %[[R]][0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
// FA-NEXT:       %[[X:.*]] = llvm.mlir.constant(3735928559 : i64) : i64
// FA-NEXT:       %[[BAD:.*]] = llvm.inttoptr %[[X]] : i64 to !llvm.ptr
// FA-NEXT:       %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// FA-NEXT:       llvm.call @use(%[[BAD]], %[[P]], %[[Z]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64) -> ()
// FA-NOT:        llvm.insertvalue
// FA-NOT:        llvm.ptrtoint
// FA:            llvm.add
// FA:          llvm.mlir.global external @state()

func.func private @use(%m: memref<2x3xf32>)
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
func.func @f() -> i32 {
  %m = memref.get_global @w : memref<2x3xf32>
  call @use(%m) : (memref<2x3xf32>) -> ()
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
memref.global @state : memref<4xi32> = uninitialized
memref.global "private" @s : memref<i64> = dense<7> alignment = 64
module @inner {
  memref.global "private" constant @v : memref<2xi8> = dense<[1, 2]>
}
