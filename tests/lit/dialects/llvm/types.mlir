// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// The llvm dialect's types: pointers with address spaces, literal, packed and identified
// structs, arrays, used in signatures (nested llvm types lose their !llvm. prefix).
// CHECK: module {
// CHECK-NEXT: llvm.func @f(!llvm.ptr<1>, !llvm.struct<packed (i8, i32)>, !llvm.struct<"foo", (i32, ptr<3>)>, !llvm.array<2 x array<3 x vector<4xf32>>>, !llvm.struct<()>, !llvm.ptr, !llvm.struct<"pk", packed (i8)>, !llvm.struct<(struct<(i32)>, ptr)>, !llvm.struct<"x", ()>) -> !llvm.struct<(i32, f64)>
// CHECK-NEXT: llvm.func @h(!llvm.struct<(ptr, ptr, i64)>, !llvm.array<2 x i64>)
// CHECK-NEXT: }

llvm.func @f(!llvm.ptr<1>, !llvm.struct<packed (i8, i32)>, !llvm.struct<"foo", (i32, ptr<3>)>, !llvm.array<2 x array<3 x vector<4xf32>>>, !llvm.struct<()>, !llvm.ptr<0>, !llvm.struct<"pk", packed (i8)>, !llvm.struct<(struct<(i32)>, !llvm.ptr)>, !llvm.struct<"x", ()>) -> !llvm.struct<(i32, f64)>
llvm.func @h(!llvm.struct<(ptr, ptr, i64)>, !llvm.array<2 x i64>) -> !llvm.void
