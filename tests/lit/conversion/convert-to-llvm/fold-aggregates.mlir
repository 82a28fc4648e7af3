// RUN: strata-opt %s --convert-to-llvm=fold-aggregates=true | filecheck %s
// RUN: strata-opt %s --convert-to-llvm | filecheck %s --check-prefix=UPSTREAM

// fold-aggregates (ours): the fields of a descriptor built in the same conversion are
// read from the values it was built of (no extractvalue), and the descriptors, casts
// and constants left unused are erased; an access at constant 0 indices reads the
// aligned pointer itself (no `0 * stride` terms). Without the option the output is
// upstream's.

// CHECK-LABEL: llvm.func @main(%arg0: i64) {
// CHECK:         %[[P:.*]] = llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    llvm.call @use(%[[P]], %[[P]], %[[Z]], %arg0, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64) -> ()
// CHECK-NEXT:    llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds|nuw %[[P]][%arg0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.load %[[Q]] : !llvm.ptr -> f32
// CHECK:         llvm.call @free(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NOT:     llvm.insertvalue
// CHECK-NOT:     llvm.extractvalue
// CHECK-NOT:     llvm.mlir.poison
// CHECK:         llvm.return

// UPSTREAM-LABEL: llvm.func @main(
// UPSTREAM:         llvm.mlir.poison
// UPSTREAM:         llvm.insertvalue
// UPSTREAM:         llvm.extractvalue
func.func private @use(%m: memref<?x4xf32>)

func.func @main(%n: index) {
  %a = memref.alloc(%n) : memref<?x4xf32>
  call @use(%a) : (memref<?x4xf32>) -> ()
  %v = memref.expand_shape %a [[0], [1, 2]] output_shape [%n, 2, 2] : memref<?x4xf32> into memref<?x2x2xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0, %c0, %c0] : memref<?x2x2xf32>
  %y = memref.load %a[%c0, %n] : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}
