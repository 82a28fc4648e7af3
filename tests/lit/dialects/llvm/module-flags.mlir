// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.module_flags: integer, string and CG Profile flags.
// CHECK: module {
// CHECK-NEXT:   llvm.func @foo()
// CHECK-NEXT:   llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>, #llvm.mlir.module_flag<max, "PIC Level", 2 : i32>, #llvm.mlir.module_flag<append, "CG Profile", [#llvm.cgprofile_entry<from = @foo, to = @foo, count = 222>]>, #llvm.mlir.module_flag<warning, "s", "x">]
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "foo", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "llvm.module_flags"() <{flags = [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>, #llvm.mlir.module_flag<max, "PIC Level", 2 : i32>, #llvm.mlir.module_flag<append, "CG Profile", [#llvm.cgprofile_entry<from = @foo, to = @foo, count = 222>]>, #llvm.mlir.module_flag<warning, "s", "x">]}> : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @foo()
llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>, #llvm.mlir.module_flag<max, "PIC Level", 2 : i32>, #llvm.mlir.module_flag<append, "CG Profile", [#llvm.cgprofile_entry<from = @foo, to = @foo, count = 222>]>, #llvm.mlir.module_flag<warning, "s", "x">]
