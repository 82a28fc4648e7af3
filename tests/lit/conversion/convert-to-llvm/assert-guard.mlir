// RUN: strata-opt %s --split-input-file --convert-to-llvm=checked-alloc=true | filecheck %s
// RUN: strata-opt %s --split-input-file --convert-to-llvm | filecheck %s --check-prefix=PLAIN

// Under the CPU runtime's guard (checked-alloc, ours) a failed cf.assert records its
// message and then stops the call (strata_guard_abort); without it execution goes on
// after the message, as before. Not in a parallel loop's chunk function.

// CHECK-LABEL: llvm.func @check
// CHECK: llvm.cond_br %{{.*}}, ^[[OK:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK: ^[[FAIL]]:
// CHECK-NEXT: llvm.mlir.addressof @assert_msg_0
// CHECK-NEXT: llvm.call @strata_assert_fail(
// CHECK-NEXT: llvm.call @strata_guard_abort() : () -> ()
// CHECK-NEXT: llvm.br ^[[OK]]
// PLAIN-LABEL: llvm.func @check
// PLAIN: llvm.call @strata_assert_fail(
// PLAIN-NOT: strata_guard_abort
func.func @check(%ok: i1) {
  cf.assert %ok, "bad shape"
  return
}

// -----

// CHECK-LABEL: llvm.func @chunk
// CHECK: llvm.call @strata_assert_fail(
// CHECK-NOT: strata_guard_abort
func.func @chunk(%ok: i1) attributes {strata.parallel_chunk} {
  cf.assert %ok, "bad index"
  return
}
