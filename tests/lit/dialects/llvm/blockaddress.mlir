// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.blockaddress and llvm.blocktag.
// CHECK: module {
// CHECK-NEXT:   llvm.func @t0() -> !llvm.ptr {
// CHECK-NEXT:     %0 = llvm.blockaddress <function = @t0, tag = <id = 1>> : !llvm.ptr
// CHECK-NEXT:     llvm.br ^bb1
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     llvm.blocktag <id = 1>
// CHECK-NEXT:     llvm.return %0 : !llvm.ptr
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<ptr ()>, linkage = #llvm.linkage<external>, sym_name = "t0", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:     %0 = "llvm.blockaddress"() <{block_addr = #llvm.blockaddress<function = @t0, tag = <id = 1>>}> : () -> !llvm.ptr
// GENERIC-NEXT:     "llvm.br"()[^bb1] : () -> ()
// GENERIC-NEXT:   ^bb1:  // pred: ^bb0
// GENERIC-NEXT:     "llvm.blocktag"() <{tag = #llvm.blocktag<id = 1>}> : () -> ()
// GENERIC-NEXT:     "llvm.return"(%0) : (!llvm.ptr) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @t0() -> !llvm.ptr {
  %0 = llvm.blockaddress <function = @t0, tag = <id = 1>> : !llvm.ptr
  llvm.br ^bb1
^bb1:
  llvm.blocktag <id = 1>
  llvm.return %0 : !llvm.ptr
}
