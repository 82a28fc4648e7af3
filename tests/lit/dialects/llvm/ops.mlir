// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// A tour of the llvm dialect's ops in their custom forms (as iree-opt prints them).
// CHECK: module {
// CHECK-NEXT: llvm.mlir.global internal constant @g(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x f32>
// CHECK-NEXT: llvm.mlir.global external @w() {addr_space = 0 : i32} : !llvm.array<4 x f32>
// CHECK-NEXT: llvm.mlir.global private constant @str("hello\00") {addr_space = 0 : i32}
// CHECK-NEXT: llvm.mlir.global internal @gi() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {
// CHECK-NEXT: %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: llvm.return %0 : !llvm.struct<(i32, ptr)>
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-NEXT: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-NEXT: llvm.func @free(!llvm.ptr)
// CHECK-NEXT: llvm.func @f(%arg0: i32, %arg1: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) -> i32 attributes {llvm.emit_c_interface, passthrough = ["noinline"]} {
// CHECK-NEXT: %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %1 = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT: %2 = llvm.add %arg0, %0 overflow<nsw> : i32
// CHECK-NEXT: %3 = llvm.sdiv exact %2, %0 : i32
// CHECK-NEXT: %4 = llvm.load %arg1 : !llvm.ptr -> i32
// CHECK-NEXT: llvm.store %4, %arg1 : i32, !llvm.ptr
// CHECK-NEXT: %5 = llvm.getelementptr inbounds %arg1[%2, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, i32, f32)>
// CHECK-NEXT: %6 = llvm.alloca %0 x f32 : (i32) -> !llvm.ptr
// CHECK-NEXT: %7 = llvm.fadd %1, %1 {fastmath = #llvm.fastmath<fast>} : vector<4xf32>
// CHECK-NEXT: %8 = llvm.icmp "slt" %2, %0 : i32
// CHECK-NEXT: %9 = llvm.fcmp "olt" %1, %1 : vector<4xf32>
// CHECK-NEXT: %10 = llvm.select %8, %2, %0 : i1, i32
// CHECK-NEXT: %11 = llvm.sext %2 : i32 to i64
// CHECK-NEXT: %12 = llvm.call @malloc(%11) : (i64) -> !llvm.ptr
// CHECK-NEXT: llvm.call @free(%12) : (!llvm.ptr) -> ()
// CHECK-NEXT: %13 = llvm.call @printf(%12, %2) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
// CHECK-NEXT: %14 = llvm.mlir.addressof @g : !llvm.ptr
// CHECK-NEXT: %15 = llvm.intr.sqrt(%1) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: %16 = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %17 = llvm.mlir.poison : i32
// CHECK-NEXT: %18 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
// CHECK-NEXT: %19 = llvm.insertvalue %2, %18[0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT: %20 = llvm.extractvalue %19[0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT: %21 = llvm.fneg %1 : vector<4xf32>
// CHECK-NEXT: %22 = llvm.freeze %2 : i32
// CHECK-NEXT: %23 = llvm.extractelement %1[%0 : i32] : vector<4xf32>
// CHECK-NEXT: %24 = llvm.insertelement %23, %1[%0 : i32] : vector<4xf32>
// CHECK-NEXT: %25 = llvm.shufflevector %1, %1 [0, 1, 4, 5] : vector<4xf32>
// CHECK-NEXT: "llvm.intr.memcpy"(%12, %arg1, %11) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT: %26 = llvm.intr.fma(%1, %1, %1) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: %27 = "llvm.intr.ctlz"(%2) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT: %28 = llvm.intr.powi(%7, %2) : (vector<4xf32>, i32) -> vector<4xf32>
// CHECK-NEXT: %29 = llvm.ptrtoint %12 : !llvm.ptr to i64
// CHECK-NEXT: %30 = llvm.call %12(%2) : !llvm.ptr, (i32) -> i32
// CHECK-NEXT: llvm.cond_br %8, ^bb1(%2 : i32), ^bb2
// CHECK-NEXT: ^bb1(%31: i32):  // 3 preds: ^bb0, ^bb2, ^bb2
// CHECK-NEXT: llvm.br ^bb2
// CHECK-NEXT: ^bb2:  // 3 preds: ^bb0, ^bb1, ^bb2
// CHECK-NEXT: llvm.switch %2 : i32, ^bb1(%2 : i32) [
// CHECK-NEXT: 1: ^bb1(%0 : i32),
// CHECK-NEXT: 2: ^bb2
// CHECK-NEXT: ]
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func internal fastcc @h() attributes {sym_visibility = "private"} {
// CHECK-NEXT: llvm.unreachable
// CHECK-NEXT: }
// CHECK-NEXT: }

module {
  llvm.mlir.global internal constant @g(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x f32>
  llvm.mlir.global external @w() : !llvm.array<4 x f32>
  llvm.mlir.global private constant @str("hello\00") : !llvm.array<6 x i8>
  llvm.mlir.global internal @gi() : !llvm.struct<(i32, ptr)> {
    %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
    llvm.return %0 : !llvm.struct<(i32, ptr)>
  }
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @free(!llvm.ptr)
  llvm.func @f(%arg0: i32, %arg1: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}) -> i32 attributes {llvm.emit_c_interface, passthrough = ["noinline"]} {
    %c = llvm.mlir.constant(1 : i32) : i32
    %v = llvm.mlir.constant(dense<1.0> : vector<4xf32>) : vector<4xf32>
    %0 = llvm.add %arg0, %c overflow<nsw> : i32
    %1 = llvm.sdiv exact %0, %c : i32
    %2 = llvm.load %arg1 : !llvm.ptr -> i32
    llvm.store %2, %arg1 : i32, !llvm.ptr
    %3 = llvm.getelementptr inbounds %arg1[%0, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, i32, f32)>
    %4 = llvm.alloca %c x f32 : (i32) -> !llvm.ptr
    %5 = llvm.fadd %v, %v {fastmath = #llvm.fastmath<fast>} : vector<4xf32>
    %6 = llvm.icmp "slt" %0, %c : i32
    %7 = llvm.fcmp "olt" %v, %v : vector<4xf32>
    %8 = llvm.select %6, %0, %c : i1, i32
    %9 = llvm.sext %0 : i32 to i64
    %10 = llvm.call @malloc(%9) : (i64) -> !llvm.ptr
    llvm.call @free(%10) : (!llvm.ptr) -> ()
    %11 = llvm.call @printf(%10, %0) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    %12 = llvm.mlir.addressof @g : !llvm.ptr
    %13 = llvm.intr.sqrt(%v) : (vector<4xf32>) -> vector<4xf32>
    %14 = llvm.mlir.zero : !llvm.ptr
    %15 = llvm.mlir.poison : i32
    %u = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %16 = llvm.insertvalue %0, %u[0] : !llvm.struct<(i32, f32)>
    %17 = llvm.extractvalue %16[0] : !llvm.struct<(i32, f32)>
    %18 = llvm.fneg %v : vector<4xf32>
    %19 = llvm.freeze %0 : i32
    %20 = llvm.extractelement %v[%c : i32] : vector<4xf32>
    %21 = llvm.insertelement %20, %v[%c : i32] : vector<4xf32>
    %22 = llvm.shufflevector %v, %v [0, 1, 4, 5] : vector<4xf32>
    "llvm.intr.memcpy"(%10, %arg1, %9) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %23 = llvm.intr.fma(%v, %v, %v) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %24 = "llvm.intr.ctlz"(%0) <{is_zero_poison = false}> : (i32) -> i32
    %25 = llvm.intr.powi(%5, %0) : (vector<4xf32>, i32) -> vector<4xf32>
    %26 = llvm.ptrtoint %10 : !llvm.ptr to i64
    %27 = llvm.call %10(%0) : !llvm.ptr, (i32) -> i32
    llvm.cond_br %6, ^bb1(%0 : i32), ^bb2
  ^bb1(%a: i32):
    llvm.br ^bb2
  ^bb2:
    llvm.switch %0 : i32, ^bb1(%0 : i32) [
      1: ^bb1(%c : i32),
      2: ^bb2
    ]
  }
  llvm.func internal fastcc @h() attributes {sym_visibility = "private"} {
    llvm.unreachable
  }
}
