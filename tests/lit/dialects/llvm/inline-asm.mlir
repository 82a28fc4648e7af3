// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.inline_asm: side effects, stack alignment, dialect, tail call kind; no operands or results.
// CHECK: module {
// CHECK-NEXT:   llvm.func @f(%arg0: i32, %arg1: i32) {
// CHECK-NEXT:     %0 = llvm.inline_asm "foo", "=r,r" %arg0 : (i32) -> i32
// CHECK-NEXT:     %1 = llvm.inline_asm has_side_effects is_align_stack asm_dialect = intel "bar $0, $1", "=r,r,r" %arg0, %arg1 : (i32, i32) -> i32
// CHECK-NEXT:     llvm.inline_asm has_side_effects "nop", ""  : () -> ()
// CHECK-NEXT:     %2 = llvm.inline_asm tail_call_kind = <tail> "foo", "=r,=r,r" %arg0 : (i32) -> !llvm.struct<(i8, i8)>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i32)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32, %arg1: i32):
// GENERIC-NEXT:     %0 = "llvm.inline_asm"(%arg0) <{asm_string = "foo", constraints = "=r,r", tail_call_kind = #llvm.tailcallkind<none>}> : (i32) -> i32
// GENERIC-NEXT:     %1 = "llvm.inline_asm"(%arg0, %arg1) <{asm_dialect = 1 : i64, asm_string = "bar $0, $1", constraints = "=r,r,r", has_side_effects, is_align_stack, tail_call_kind = #llvm.tailcallkind<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     "llvm.inline_asm"() <{asm_string = "nop", constraints = "", has_side_effects, tail_call_kind = #llvm.tailcallkind<none>}> : () -> ()
// GENERIC-NEXT:     %2 = "llvm.inline_asm"(%arg0) <{asm_string = "foo", constraints = "=r,=r,r", tail_call_kind = #llvm.tailcallkind<tail>}> : (i32) -> !llvm.struct<(i8, i8)>
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @f(%a : i32, %b : i32) {
  %0 = llvm.inline_asm "foo", "=r,r" %a : (i32) -> i32
  %1 = llvm.inline_asm has_side_effects is_align_stack asm_dialect = intel "bar $0, $1", "=r,r,r" %a, %b : (i32, i32) -> i32
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  %2 = llvm.inline_asm tail_call_kind = <tail> "foo", "=r,=r,r" %a : (i32) -> !llvm.struct<(i8, i8)>
  llvm.return
}
