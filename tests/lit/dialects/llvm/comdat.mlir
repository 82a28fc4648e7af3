// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.comdat with selectors, referenced by a global and a function.
// CHECK: module {
// CHECK-NEXT:   llvm.comdat @__llvm_comdat {
// CHECK-NEXT:     llvm.comdat_selector @any any
// CHECK-NEXT:     llvm.comdat_selector @nd nodeduplicate
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.mlir.global external @g(1 : i32) comdat(@__llvm_comdat::@any) {addr_space = 0 : i32} : i32
// CHECK-NEXT:   llvm.func @f() comdat(@__llvm_comdat::@any) {
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.comdat"() <{sym_name = "__llvm_comdat"}> ({
// GENERIC-NEXT:     "llvm.comdat_selector"() <{comdat = 0 : i64, sym_name = "any"}> : () -> ()
// GENERIC-NEXT:     "llvm.comdat_selector"() <{comdat = 3 : i64, sym_name = "nd"}> : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.mlir.global"() <{addr_space = 0 : i32, comdat = @__llvm_comdat::@any, global_type = i32, linkage = #llvm.linkage<external>, sym_name = "g", tls_mode = 0 : i64, unnamed_addr = 0 : i64, value = 1 : i32, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, comdat = @__llvm_comdat::@any, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.comdat @__llvm_comdat {
  llvm.comdat_selector @any any
  llvm.comdat_selector @nd nodeduplicate
}
llvm.mlir.global external @g(1 : i32) comdat(@__llvm_comdat::@any) : i32
llvm.func @f() comdat(@__llvm_comdat::@any) {
  llvm.return
}
