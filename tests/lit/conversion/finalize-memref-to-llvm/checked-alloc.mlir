// RUN: strata-opt %s --finalize-memref-to-llvm='checked-alloc=true' | filecheck %s
// RUN: strata-opt %s --convert-to-llvm='checked-alloc=true' | filecheck %s --check-prefix=ALL

// [Note: checked allocations]: memref.alloc -> strata_alloc(bytes, site), the bytes -1
// when the size overflows (checked in 128 bits with a dynamic dim, at compile time
// without), -2 when a dynamic size is negative; inside a parallel chunk
// strata_alloc_or_null and a return on NULL.

// CHECK-DAG: llvm.mlir.global private constant @[[ROW:alloc_site_[0-9]+]]("node row\00")
// CHECK-DAG: llvm.mlir.global private constant @[[BIG:alloc_site_[0-9]+]]("node big\00")
// CHECK-DAG: llvm.mlir.global private constant @[[RELU:alloc_site_[0-9]+]]("node relu_1\00")
// CHECK-DAG: llvm.mlir.global private constant @[[FILL:alloc_site_[0-9]+]]("node fill\00")
// CHECK-DAG: llvm.func @strata_alloc(i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @strata_alloc_or_null(i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @strata_free(!llvm.ptr)
// CHECK-DAG: llvm.func @free(!llvm.ptr)

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%n: index) {
  // CHECK: %[[BYTES:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
  // CHECK: %[[CAP:.*]] = llvm.mlir.constant(9223372036854775808 : i128) : i128
  // CHECK: %[[ROWS:.*]] = llvm.mlir.constant(4 : i128) : i128
  // CHECK: %[[N:.*]] = llvm.zext %{{.*}} : i64 to i128
  // CHECK: %[[P:.*]] = llvm.mul %[[ROWS]], %[[N]] : i128
  // CHECK: %[[SAT:.*]] = llvm.icmp "ugt" %[[P]], %[[CAP]] : i128
  // CHECK: %[[COUNT:.*]] = llvm.select %[[SAT]], %[[CAP]], %[[P]] : i1, i128
  // CHECK: llvm.mul %[[COUNT]], %{{.*}} : i128
  // CHECK: %[[TOTAL:.*]] = llvm.add %{{.*}}, %{{.*}} : i128
  // CHECK: %[[OVER:.*]] = llvm.icmp "ugt" %[[TOTAL]], %{{.*}} : i128
  // CHECK: %[[NEG:.*]] = llvm.mlir.constant(-1 : i64) : i64
  // CHECK: %[[CHECKED:.*]] = llvm.select %[[OVER]], %[[NEG]], %[[BYTES]] : i1, i64
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[SIGN:.*]] = llvm.icmp "slt" %{{.*}}, %[[ZERO]] : i64
  // CHECK: %[[NEG2:.*]] = llvm.mlir.constant(-2 : i64) : i64
  // CHECK: %[[ASK:.*]] = llvm.select %[[SIGN]], %[[NEG2]], %[[CHECKED]] : i1, i64
  // CHECK: %[[SITE:.*]] = llvm.mlir.addressof @[[FILL]] : !llvm.ptr
  // CHECK: llvm.call @strata_alloc(%[[ASK]], %[[SITE]]) : (i64, !llvm.ptr) -> !llvm.ptr
  %m = memref.alloc(%n) alignment = 64 : memref<?x4xf32> loc("fill")
  // CHECK: llvm.call @strata_free
  memref.dealloc %m : memref<?x4xf32>
  return
}

// A small static size needs no check; the node is the first name of a fused location.
// CHECK-LABEL: func.func @static
func.func @static() {
  // CHECK-NOT: i128
  // CHECK: llvm.mlir.addressof @[[RELU]]
  // CHECK-NEXT: llvm.call @strata_alloc(
  %m = memref.alloc() : memref<16xf32> loc(fused["relu_1", "x.onnx":3:4])
  memref.dealloc %m : memref<16xf32>
  return
}

// 2^62 x 4 floats: the 64-bit size wraps to 0; -1 is asked for instead.
// CHECK-LABEL: func.func @huge
func.func @huge() {
  // CHECK: %[[OVER:.*]] = llvm.icmp "ugt"
  // CHECK: %[[ASK:.*]] = llvm.select %[[OVER]], %{{.*}}, %{{.*}} : i1, i64
  // CHECK: llvm.call @strata_alloc(%[[ASK]], %{{.*}})
  %m = memref.alloc() : memref<4611686018427387904x4xf32> loc("big")
  memref.dealloc %m : memref<4611686018427387904x4xf32>
  return
}

// CHECK-LABEL: func.func private @chunk
func.func private @chunk(%n: index, %lo: index, %hi: index) attributes {strata.parallel_chunk} {
  // CHECK: %[[P:.*]] = llvm.call @strata_alloc_or_null(%{{.*}}, %{{.*}})
  // CHECK: %[[NULL:.*]] = llvm.icmp "eq" %[[P]], %{{.*}} : !llvm.ptr
  // CHECK: llvm.cond_br %[[NULL]], ^[[FAIL:.*]], ^[[GO:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK-NEXT: llvm.return
  // CHECK: ^[[GO]]:
  // CHECK: llvm.call @free(
  %m = memref.alloc(%n) : memref<?xf32> loc("row")
  memref.dealloc %m : memref<?xf32>
  return
}

// ALL-NOT: @malloc
// ALL-LABEL: llvm.func @dynamic
// ALL: llvm.call @strata_alloc(
// ALL-LABEL: llvm.func @chunk
// ALL: llvm.call @strata_alloc_or_null(
// ALL: llvm.return
