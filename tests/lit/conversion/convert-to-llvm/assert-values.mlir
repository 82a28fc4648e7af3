// RUN: strata-opt %s --convert-to-llvm=assert-values=true | filecheck %s
// RUN: strata-opt %s --convert-to-llvm | filecheck %s --check-prefix=PLAIN

// assert-values (ours, the CPU target's): a failed cf.assert whose condition compares
// values (arith.cmpi under arith.andi) reports them: the message carries the
// predicates after \1E, and the fail block writes (held, lhs, rhs) per comparison as
// i64 into a stack array of the function's, then calls strata_assert_fail_values
// ([Note: failed checks report their values] in strata/dialects/cf.py).

// CHECK-DAG: llvm.mlir.global private constant @[[MSG:assert_msg_[0-9]+]]("index out of range\1Esge\1Fslt\00")
// CHECK-DAG: llvm.mlir.global private constant @{{assert_msg_[0-9]+}}("k too large\1Eult\00")
// CHECK-DAG: llvm.func @strata_assert_fail_values(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @check(%arg0: i64, %arg1: i64, %arg2: i32)
// CHECK: %[[ARR:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[LO:.*]] = llvm.icmp "sge" %arg0
// CHECK: %[[HI:.*]] = llvm.icmp "slt" %arg0, %arg1
// CHECK: llvm.cond_br %{{.*}}, ^[[OK:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK: ^[[FAIL]]:
// CHECK: %[[M:.*]] = llvm.mlir.addressof @[[MSG]]
// CHECK: %[[H0:.*]] = llvm.zext %[[LO]] : i1 to i64
// CHECK: llvm.store %[[H0]], %[[ARR]]
// CHECK: llvm.store %arg0,
// CHECK: %[[H1:.*]] = llvm.zext %[[HI]] : i1 to i64
// CHECK: llvm.store %arg1,
// CHECK: llvm.call @strata_assert_fail_values(%[[M]], %[[ARR]])
// CHECK-NEXT: llvm.br ^[[OK]]
// CHECK: llvm.zext %arg2 : i32 to i64
// CHECK: llvm.call @strata_assert_fail_values(
// PLAIN-NOT: strata_assert_fail_values
// PLAIN: llvm.mlir.global private constant @{{assert_msg_[0-9]+}}("index out of range\00")
func.func @check(%i: index, %n: index, %k: i32) {
  %c0 = arith.constant 0 : index
  %lo = arith.cmpi sge, %i, %c0 : index
  %hi = arith.cmpi slt, %i, %n : index
  %ok = arith.andi %lo, %hi : i1
  cf.assert %ok, "index out of range"
  %c7 = arith.constant 7 : i32
  %small = arith.cmpi ult, %k, %c7 : i32
  cf.assert %small, "k too large"
  return
}
