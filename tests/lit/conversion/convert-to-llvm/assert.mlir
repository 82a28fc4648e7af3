// RUN: strata-opt %s --convert-to-llvm | filecheck %s
// RUN: strata-opt %s --convert-cf-to-llvm | filecheck %s --check-prefix=CF

// cf.assert (see [Note: cf.assert]): a failed assertion calls @strata_assert_fail with
// its message and execution goes on after it. Several asserts in one block split it at
// each; the fail blocks come out of line, before the block they continue in; each
// message is a private global named assert_msg_<i> (the lowest free i).

llvm.mlir.global private constant @assert_msg_1("taken\00") {addr_space = 0 : i32}

// CHECK-DAG:   llvm.mlir.global private constant @assert_msg_0("x must be positive\00")
// CHECK-DAG:   llvm.mlir.global private constant @assert_msg_2("y must be positive\00")
// CHECK-DAG:   llvm.mlir.global private constant @assert_msg_3("in bb1\00")
// CHECK-DAG:   llvm.func @strata_assert_fail(!llvm.ptr)
// CHECK-LABEL: llvm.func @f(%arg0: i32, %arg1: i32) -> i32 {
// CHECK:         %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[PX:.*]] = llvm.icmp "sgt" %arg0, %[[Z]] : i32
// CHECK-NEXT:    llvm.cond_br %[[PX]], ^bb2, ^bb1
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[M0:.*]] = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
// CHECK-NEXT:    llvm.call @strata_assert_fail(%[[M0]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %[[PY:.*]] = llvm.icmp "sgt" %arg1, %[[Z]] : i32
// CHECK-NEXT:    llvm.cond_br %[[PY]], ^bb4, ^bb3
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    %[[M2:.*]] = llvm.mlir.addressof @assert_msg_2 : !llvm.ptr
// CHECK-NEXT:    llvm.call @strata_assert_fail(%[[M2]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.br ^bb4
// CHECK-NEXT:  ^bb4:
// CHECK-NEXT:    llvm.cond_br %[[PX]], ^bb5, ^bb8(%arg1 : i32)
// CHECK-NEXT:  ^bb5:
// CHECK-NEXT:    llvm.cond_br %[[PY]], ^bb7, ^bb6
// CHECK-NEXT:  ^bb6:
// CHECK-NEXT:    %[[M3:.*]] = llvm.mlir.addressof @assert_msg_3 : !llvm.ptr
// CHECK-NEXT:    llvm.call @strata_assert_fail(%[[M3]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.br ^bb7
// CHECK-NEXT:  ^bb7:
// CHECK-NEXT:    llvm.br ^bb8(%arg0 : i32)
// CHECK-NEXT:  ^bb8(%[[R:.*]]: i32):
// CHECK-NEXT:    llvm.return %[[R]] : i32

// CF-LABEL: func.func @f(
// CF:         llvm.cond_br %{{.*}}, ^bb2, ^bb1
// CF:         llvm.call @strata_assert_fail(
// CF-NOT:     cf.assert
// CF:         llvm.br ^bb8(%arg0 : i32)
// CF:       ^bb8(%[[R:.*]]: i32):
// CF-NEXT:    return %[[R]] : i32
func.func @f(%x: i32, %y: i32) -> i32 {
  %z = arith.constant 0 : i32
  %px = arith.cmpi sgt, %x, %z : i32
  cf.assert %px, "x must be positive"
  %py = arith.cmpi sgt, %y, %z : i32
  cf.assert %py, "y must be positive"
  cf.cond_br %px, ^bb1, ^bb2(%y : i32)
^bb1:
  cf.assert %py, "in bb1"
  cf.br ^bb2(%x : i32)
^bb2(%r: i32):
  return %r : i32
}
