// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Globals (linkage, visibility, unnamed_addr, constant, dense_resource values, string
// globals whose type is implied) and functions with linkage, visibility and attributes.
// CHECK: module {
// CHECK-NEXT: llvm.mlir.global internal hidden unnamed_addr constant @g1(1.000000e+00 : f32) {addr_space = 0 : i32, alignment = 8 : i64, section = "foo"} : f32
// CHECK-NEXT: llvm.mlir.global weak_odr local_unnamed_addr @g2(0 : i32) {addr_space = 1 : i32, dso_local, thread_local_} : i32
// CHECK-NEXT: llvm.mlir.global external @r(dense_resource<blob1> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
// CHECK-NEXT: llvm.func internal protected unnamed_addr fastcc @f2(%arg0: i32, %arg1: f64) -> i32 attributes {frame_pointer = #llvm.framePointerKind<all>, no_inline, target_cpu = "x"} {
// CHECK-NEXT: %0 = llvm.add %arg0, %arg0 : i32
// CHECK-NEXT: %1 = llvm.fptrunc %arg1 : f64 to f32
// CHECK-NEXT: %2 = llvm.fpext %1 : f32 to f64
// CHECK-NEXT: %3 = llvm.udiv %arg0, %arg0 : i32
// CHECK-NEXT: %4 = llvm.fadd %arg1, %arg1 : f64
// CHECK-NEXT: %5 = llvm.intr.exp(%arg1) : (f64) -> f64
// CHECK-NEXT: %6 = llvm.intr.pow(%arg1, %arg1) : (f64, f64) -> f64
// CHECK-NEXT: %7 = llvm.mlir.constant(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
// CHECK-NEXT: %8 = llvm.mlir.constant(1.500000e+00 : f64) : f64
// CHECK-NEXT: %9 = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %10 = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT: llvm.return %0 : i32
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @v() {
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @decl(i32 {llvm.noundef}) -> (i32 {llvm.zeroext})
// CHECK-NEXT: }

llvm.mlir.global internal hidden unnamed_addr constant @g1(1.0 : f32) {alignment = 8 : i64, section = "foo"} : f32
llvm.mlir.global weak_odr local_unnamed_addr @g2(0 : i32) {addr_space = 1 : i32, dso_local, thread_local_} : i32
llvm.mlir.global external @r(dense_resource<blob1> : tensor<4xf32>) : !llvm.array<4 x f32>
llvm.func internal protected unnamed_addr fastcc @f2(%a: i32, %b: f64) -> i32 attributes {no_inline, target_cpu = "x", frame_pointer = #llvm.framePointerKind<all>} {
  %0 = "llvm.add"(%a, %a) : (i32, i32) -> i32
  %1 = "llvm.fptrunc"(%b) : (f64) -> f32
  %2 = "llvm.fpext"(%1) : (f32) -> f64
  %3 = "llvm.udiv"(%a, %a) : (i32, i32) -> i32
  %4 = "llvm.fadd"(%b, %b) : (f64, f64) -> f64
  %5 = llvm.intr.exp(%b) : (f64) -> f64
  %6 = llvm.intr.pow(%b, %b) : (f64, f64) -> f64
  %7 = llvm.mlir.constant(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
  %8 = llvm.mlir.constant(1.5 : f64) : f64
  %9 = llvm.mlir.constant(true) : i1
  %10 = llvm.mlir.constant(-1 : i64) : i64
  llvm.return %0 : i32
}
llvm.func @v() {
  llvm.return
}
llvm.func @decl(i32 {llvm.noundef}) -> (i32 {llvm.zeroext})
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
