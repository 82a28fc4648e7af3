// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// Expected output: iree-opt's (custom and generic forms), line for line.

// CHECK: module {
// CHECK-NEXT: func.func @f(%arg0: memref<4xf32>, %arg1: tensor<4xf32>, %arg2: index, %arg3: i1, %arg4: memref<*xf32>) {
// CHECK-NEXT: %0 = bufferization.to_tensor %arg0 : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT: %1 = bufferization.to_tensor %arg0 restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT: %2 = bufferization.to_buffer %arg1 : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT: %3 = bufferization.to_buffer %arg1 read_only : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT: %4 = bufferization.alloc_tensor(%arg2) : tensor<?xf32>
// CHECK-NEXT: %5 = bufferization.alloc_tensor() copy(%arg1) : tensor<4xf32>
// CHECK-NEXT: %6 = bufferization.alloc_tensor(%arg2) size_hint=%arg2 : tensor<?xf32>
// CHECK-NEXT: %7 = bufferization.alloc_tensor() <{memory_space = 1 : i64}> {foo} : tensor<4xf32>
// CHECK-NEXT: %8 = bufferization.materialize_in_destination %arg1 in %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: bufferization.materialize_in_destination %arg1 in restrict writable %arg0 : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: %9 = bufferization.clone %arg0 : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: %10 = bufferization.dealloc (%arg0, %arg0 : memref<4xf32>, memref<4xf32>) if (%arg3, %arg3) retain (%arg0 : memref<4xf32>)
// CHECK-NEXT: bufferization.dealloc (%arg0 : memref<4xf32>) if (%arg3)
// CHECK-NEXT: bufferization.dealloc
// CHECK-NEXT: bufferization.dealloc_tensor %arg1 : tensor<4xf32>
// CHECK-NEXT: %11 = bufferization.to_tensor %arg4 : memref<*xf32> to tensor<*xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @g(%arg0: memref<4xf32>, %arg1: i1, %arg2: index) {
// CHECK-NEXT: %0 = bufferization.dealloc retain (%arg0 : memref<4xf32>)
// CHECK-NEXT: %1 = bufferization.dealloc (%arg0 : memref<4xf32>) if (%arg1) retain (%arg0 : memref<4xf32>) {foo}
// CHECK-NEXT: %2 = bufferization.alloc_tensor() size_hint=%arg2 : tensor<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "func.func"() <{function_type = (memref<4xf32>, tensor<4xf32>, index, i1, memref<*xf32>) -> (), sym_name = "f"}> ({
// GENERIC-NEXT: ^bb0(%arg3: memref<4xf32>, %arg4: tensor<4xf32>, %arg5: index, %arg6: i1, %arg7: memref<*xf32>):
// GENERIC-NEXT: %3 = "bufferization.to_tensor"(%arg3) : (memref<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: %4 = "bufferization.to_tensor"(%arg3) <{restrict, writable}> : (memref<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: %5 = "bufferization.to_buffer"(%arg4) : (tensor<4xf32>) -> memref<4xf32>
// GENERIC-NEXT: %6 = "bufferization.to_buffer"(%arg4) <{read_only}> : (tensor<4xf32>) -> memref<4xf32>
// GENERIC-NEXT: %7 = "bufferization.alloc_tensor"(%arg5) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (index) -> tensor<?xf32>
// GENERIC-NEXT: %8 = "bufferization.alloc_tensor"(%arg4) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: %9 = "bufferization.alloc_tensor"(%arg5, %arg5) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (index, index) -> tensor<?xf32>
// GENERIC-NEXT: %10 = "bufferization.alloc_tensor"() <{memory_space = 1 : i64, operandSegmentSizes = array<i32: 0, 0, 0>}> {foo} : () -> tensor<4xf32>
// GENERIC-NEXT: %11 = "bufferization.materialize_in_destination"(%arg4, %arg4) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: "bufferization.materialize_in_destination"(%arg4, %arg3) <{restrict, writable}> : (tensor<4xf32>, memref<4xf32>) -> ()
// GENERIC-NEXT: %12 = "bufferization.clone"(%arg3) : (memref<4xf32>) -> memref<4xf32>
// GENERIC-NEXT: %13 = "bufferization.dealloc"(%arg3, %arg3, %arg6, %arg6, %arg3) <{operandSegmentSizes = array<i32: 2, 2, 1>}> : (memref<4xf32>, memref<4xf32>, i1, i1, memref<4xf32>) -> i1
// GENERIC-NEXT: "bufferization.dealloc"(%arg3, %arg6) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (memref<4xf32>, i1) -> ()
// GENERIC-NEXT: "bufferization.dealloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
// GENERIC-NEXT: "bufferization.dealloc_tensor"(%arg4) : (tensor<4xf32>) -> ()
// GENERIC-NEXT: %14 = "bufferization.to_tensor"(%arg7) : (memref<*xf32>) -> tensor<*xf32>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (memref<4xf32>, i1, index) -> (), sym_name = "g"}> ({
// GENERIC-NEXT: ^bb0(%arg0: memref<4xf32>, %arg1: i1, %arg2: index):
// GENERIC-NEXT: %0 = "bufferization.dealloc"(%arg0) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (memref<4xf32>) -> i1
// GENERIC-NEXT: %1 = "bufferization.dealloc"(%arg0, %arg1, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 1>}> {foo} : (memref<4xf32>, i1, memref<4xf32>) -> i1
// GENERIC-NEXT: %2 = "bufferization.alloc_tensor"(%arg2) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (index) -> tensor<4xf32>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>, %n: index, %c: i1, %u: memref<*xf32>) {
  %0 = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %1 = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
  %2 = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  %3 = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %4 = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %5 = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>
  %6 = bufferization.alloc_tensor(%n) size_hint=%n : tensor<?xf32>
  %7 = "bufferization.alloc_tensor"() <{memory_space = 1 : i64, operandSegmentSizes = array<i32: 0, 0, 0>}> {foo} : () -> tensor<4xf32>
  %8 = bufferization.materialize_in_destination %t in %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %t in restrict writable %m : (tensor<4xf32>, memref<4xf32>) -> ()
  %9 = bufferization.clone %m : memref<4xf32> to memref<4xf32>
  %10 = bufferization.dealloc (%m, %m : memref<4xf32>, memref<4xf32>) if (%c, %c) retain (%m : memref<4xf32>)
  bufferization.dealloc (%m : memref<4xf32>) if (%c)
  bufferization.dealloc
  bufferization.dealloc_tensor %t : tensor<4xf32>
  %11 = bufferization.to_tensor %u : memref<*xf32> to tensor<*xf32>
  return
}
func.func @g(%m: memref<4xf32>, %c: i1, %n: index) {
  %0 = bufferization.dealloc retain (%m : memref<4xf32>)
  %1 = bufferization.dealloc (%m : memref<4xf32>) if (%c) retain (%m : memref<4xf32>) {foo}
  %2 = "bufferization.alloc_tensor"(%n) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (index) -> tensor<4xf32>
  return
}
