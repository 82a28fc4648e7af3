// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// Expected output: iree-opt's (custom and generic forms), line for line.

// CHECK: #map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>
// CHECK-NEXT: module {
// CHECK-NEXT: memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: memref.global @u : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global "private" @ext : memref<4xf32>
// CHECK-NEXT: func.func @f(%arg0: memref<4x?xf32>, %arg1: index, %arg2: f32, %arg3: memref<?xi8>) {
// CHECK-NEXT: %alloc = memref.alloc(%arg1) : memref<4x?xf32>
// CHECK-NEXT: %alloc_0 = memref.alloc(%arg1)[%arg1] : memref<4x?xf32, #map>
// CHECK-NEXT: %alloc_1 = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %alloca = memref.alloca(%arg1) : memref<4x?xf32>
// CHECK-NEXT: %0 = memref.load %arg0[%arg1, %arg1] : memref<4x?xf32>
// CHECK-NEXT: memref.store %arg2, %arg0[%arg1, %arg1] : memref<4x?xf32>
// CHECK-NEXT: %dim = memref.dim %arg0, %arg1 : memref<4x?xf32>
// CHECK-NEXT: %1 = memref.rank %arg0 : memref<4x?xf32>
// CHECK-NEXT: %cast = memref.cast %arg0 : memref<4x?xf32> to memref<?x?xf32>
// CHECK-NEXT: memref.copy %arg0, %alloc : memref<4x?xf32> to memref<4x?xf32>
// CHECK-NEXT: %subview = memref.subview %arg0[0, %arg1] [2, 2] [1, 1] : memref<4x?xf32> to memref<2x2xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: %2 = memref.get_global @c : memref<2xf32>
// CHECK-NEXT: %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1, 4], strides: [4, 1] : memref<4x?xf32> to memref<?x4xf32>
// CHECK-NEXT: %expand_shape = memref.expand_shape %alloc_1 [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
// CHECK-NEXT: %collapse_shape = memref.collapse_shape %expand_shape [[0, 1]] : memref<2x2xf32> into memref<4xf32>
// CHECK-NEXT: %view = memref.view %arg3[%arg1][%arg1] : memref<?xi8> to memref<?xf32>
// CHECK-NEXT: %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg0 : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
// CHECK-NEXT: %intptr = memref.extract_aligned_pointer_as_index %arg0 : memref<4x?xf32> -> index
// CHECK-NEXT: %transpose = memref.transpose %arg0 (d0, d1) -> (d1, d0) : memref<4x?xf32> to memref<?x4xf32, #map1>
// CHECK-NEXT: %3 = memref.atomic_rmw addf %arg2, %arg0[%arg1, %arg1] : (f32, memref<4x?xf32>) -> f32
// CHECK-NEXT: %memspacecast = memref.memory_space_cast %arg0 : memref<4x?xf32> to memref<4x?xf32, 1>
// CHECK-NEXT: %4 = memref.realloc %alloc_1 : memref<4xf32> to memref<8xf32>
// CHECK-NEXT: %5 = memref.realloc %alloc_1(%arg1) : memref<4xf32> to memref<?xf32>
// CHECK-NEXT: memref.dealloc %alloc : memref<4x?xf32>
// CHECK-NEXT: %6 = memref.alloca_scope  -> (f32) {
// CHECK-NEXT: memref.alloca_scope.return %arg2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.alloca_scope  {
// CHECK-NEXT: %alloca_2 = memref.alloca() : memref<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %7 = memref.generic_atomic_rmw %arg0[%arg1, %arg1] : memref<4x?xf32> {
// CHECK-NEXT: ^bb0(%arg4: f32):
// CHECK-NEXT: %8 = arith.addf %arg4, %arg2 : f32
// CHECK-NEXT: memref.atomic_yield %8 : f32
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: memref.global "private" constant @c2 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> alignment = 64 {foo}
// CHECK-NEXT: memref.global @d2 : memref<2xf32> = dense<1.000000e+00> alignment = 64 {foo}
// CHECK-NEXT: func.func @g(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) {
// CHECK-NEXT: %0 = memref.load %arg0[%arg1] alignment(16) nontemporal(true) {foo} : memref<4xf32>
// CHECK-NEXT: memref.store %arg2, %arg0[%arg1] nontemporal(true) {foo} : memref<4xf32>
// CHECK-NEXT: %1 = memref.realloc %arg0 alignment = 16 {foo} : memref<4xf32> to memref<8xf32>
// CHECK-NEXT: %alloca = memref.alloca() alignment = 16 {foo} : memref<4xf32, strided<[1]>>
// CHECK-NEXT: %assume_align = memref.assume_alignment %arg0, 16 {foo} : memref<4xf32>
// CHECK-NEXT: %2 = memref.get_global @c2 : memref<2xf32> {foo}
// CHECK-NEXT: %base_buffer, %offset, %sizes, %strides = memref.extract_strided_metadata %arg0 : memref<4xf32> -> memref<f32>, index, index, index {foo}
// CHECK-NEXT: %transpose = memref.transpose %arg0 (d0) -> (d0) {foo} : memref<4xf32> to memref<4xf32, strided<[1]>>
// CHECK-NEXT: %3 = memref.atomic_rmw addf %arg2, %arg0[%arg1] {foo} : (f32, memref<4xf32>) -> f32
// CHECK-NEXT: memref.alloca_scope  {
// CHECK-NEXT: } {foo}
// CHECK-NEXT: %4 = memref.generic_atomic_rmw %arg0[%arg1] : memref<4xf32> {
// CHECK-NEXT: ^bb0(%arg3: f32):
// CHECK-NEXT: memref.atomic_yield %arg3 : f32
// CHECK-NEXT: } {foo}
// CHECK-NEXT: %dim = memref.dim {foo} %arg0, %arg1 : memref<4xf32>
// CHECK-NEXT: memref.copy %arg0, %arg0 {foo} : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @views(%arg0: memref<8x16x4xf32>, %arg1: memref<?x?x?xf32>, %arg2: index, %arg3: memref<8x16xf32, strided<[32, 2], offset: 5>>, %arg4: memref<*xf32>, %arg5: memref<1xindex>) {
// CHECK-NEXT: %subview = memref.subview %arg0[0, 0, 0] [8, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<8x16x4xf32, strided<[64, 4, 1]>>
// CHECK-NEXT: %subview_0 = memref.subview %arg0[1, 2, 3] [1, 4, 1] [1, 2, 1] : memref<8x16x4xf32> to memref<4xf32, strided<[8], offset: 75>>
// CHECK-NEXT: %subview_1 = memref.subview %arg0[%arg2, 0, 0] [1, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<16x4xf32, strided<[4, 1], offset: ?>>
// CHECK-NEXT: %subview_2 = memref.subview %arg1[%arg2, %arg2, %arg2] [%arg2, 2, %arg2] [%arg2, 1, 1] : memref<?x?x?xf32> to memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK-NEXT: %subview_3 = memref.subview %arg3[1, 1] [2, 2] [2, 3] : memref<8x16xf32, strided<[32, 2], offset: 5>> to memref<2x2xf32, strided<[64, 6], offset: 39>>
// CHECK-NEXT: %subview_4 = memref.subview %arg0[0, 0, 0] [1, 1, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<4xf32, strided<[1]>>
// CHECK-NEXT: %subview_5 = memref.subview %arg0[0, 0, 0] [1, 1, 1] [1, 1, 1] : memref<8x16x4xf32> to memref<f32>
// CHECK-NEXT: %subview_6 = memref.subview %arg0[0, 0, 0] [1, 16, 1] [1, 1, 1] : memref<8x16x4xf32> to memref<1x16xf32, strided<[64, 4]>>
// CHECK-NEXT: %expand_shape = memref.expand_shape %arg3 [[0, 1], [2]] output_shape [2, 4, 16] : memref<8x16xf32, strided<[32, 2], offset: 5>> into memref<2x4x16xf32, strided<[128, 32, 2], offset: 5>>
// CHECK-NEXT: %collapse_shape = memref.collapse_shape %arg0 [[0, 1], [2]] : memref<8x16x4xf32> into memref<128x4xf32>
// CHECK-NEXT: %collapse_shape_7 = memref.collapse_shape %subview [[0, 1, 2]] : memref<8x16x4xf32, strided<[64, 4, 1]>> into memref<512xf32, strided<[1]>>
// CHECK-NEXT: %expand_shape_8 = memref.expand_shape %arg1 [[0, 1], [2], [3]] output_shape [%arg2, 4, %arg2, %arg2] : memref<?x?x?xf32> into memref<?x4x?x?xf32>
// CHECK-NEXT: %collapse_shape_9 = memref.collapse_shape %arg1 [[0, 1], [2]] : memref<?x?x?xf32> into memref<?x?xf32>
// CHECK-NEXT: %transpose = memref.transpose %arg0 (d0, d1, d2) -> (d2, d0, d1) : memref<8x16x4xf32> to memref<4x8x16xf32, strided<[1, 64, 4]>>
// CHECK-NEXT: %transpose_10 = memref.transpose %arg1 (d0, d1, d2) -> (d1, d0, d2) : memref<?x?x?xf32> to memref<?x?x?xf32, strided<[?, ?, 1]>>
// CHECK-NEXT: %collapse_shape_11 = memref.collapse_shape %subview_2 [[0, 1, 2]] : memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>> into memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT: %expand_shape_12 = memref.expand_shape %arg0 [[0], [1, 2], [3]] output_shape [8, 4, 4, 4] : memref<8x16x4xf32> into memref<8x4x4x4xf32>
// CHECK-NEXT: %reshape = memref.reshape %arg0(%arg5) : (memref<8x16x4xf32>, memref<1xindex>) -> memref<512xf32>
// CHECK-NEXT: %cast = memref.cast %arg3 : memref<8x16xf32, strided<[32, 2], offset: 5>> to memref<8x16xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: %cast_13 = memref.cast %arg4 : memref<*xf32> to memref<4xf32>
// CHECK-NEXT: %reinterpret_cast = memref.reinterpret_cast %arg4 to offset: [%arg2], sizes: [4, 4], strides: [%arg2, 1] : memref<*xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: %subview_14 = memref.subview %transpose_10[0, 0, 0] [1, 4, 1] [1, 1, 1] : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<4xf32, strided<[?]>>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

// GENERIC: #map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
// GENERIC-NEXT: #map1 = affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>
// GENERIC-NEXT: #map2 = affine_map<(d0, d1) -> (d1, d0)>
// GENERIC-NEXT: #map3 = affine_map<(d0) -> (d0)>
// GENERIC-NEXT: #map4 = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// GENERIC-NEXT: #map5 = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// GENERIC-NEXT: "builtin.module"() ({
// GENERIC-NEXT: "memref.global"() <{constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "c", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
// GENERIC-NEXT: "memref.global"() <{initial_value, sym_name = "u", type = memref<4xi32>}> : () -> ()
// GENERIC-NEXT: "memref.global"() <{sym_name = "ext", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (memref<4x?xf32>, index, f32, memref<?xi8>) -> (), sym_name = "f"}> ({
// GENERIC-NEXT: ^bb0(%arg10: memref<4x?xf32>, %arg11: index, %arg12: f32, %arg13: memref<?xi8>):
// GENERIC-NEXT: %32 = "memref.alloc"(%arg11) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<4x?xf32>
// GENERIC-NEXT: %33 = "memref.alloc"(%arg11, %arg11) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<4x?xf32, #map>
// GENERIC-NEXT: %34 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC-NEXT: %35 = "memref.alloca"(%arg11) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<4x?xf32>
// GENERIC-NEXT: %36 = "memref.load"(%arg10, %arg11, %arg11) : (memref<4x?xf32>, index, index) -> f32
// GENERIC-NEXT: "memref.store"(%arg12, %arg10, %arg11, %arg11) : (f32, memref<4x?xf32>, index, index) -> ()
// GENERIC-NEXT: %37 = "memref.dim"(%arg10, %arg11) : (memref<4x?xf32>, index) -> index
// GENERIC-NEXT: %38 = "memref.rank"(%arg10) : (memref<4x?xf32>) -> index
// GENERIC-NEXT: %39 = "memref.cast"(%arg10) : (memref<4x?xf32>) -> memref<?x?xf32>
// GENERIC-NEXT: "memref.copy"(%arg10, %32) : (memref<4x?xf32>, memref<4x?xf32>) -> ()
// GENERIC-NEXT: %40 = "memref.subview"(%arg10, %arg11) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, -9223372036854775808>, static_sizes = array<i64: 2, 2>, static_strides = array<i64: 1, 1>}> : (memref<4x?xf32>, index) -> memref<2x2xf32, strided<[?, 1], offset: ?>>
// GENERIC-NEXT: %41 = "memref.get_global"() <{name = @c}> : () -> memref<2xf32>
// GENERIC-NEXT: %42 = "memref.reinterpret_cast"(%arg10, %arg11) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808, 4>, static_strides = array<i64: 4, 1>}> : (memref<4x?xf32>, index) -> memref<?x4xf32>
// GENERIC-NEXT: %43 = "memref.expand_shape"(%34) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 2>}> : (memref<4xf32>) -> memref<2x2xf32>
// GENERIC-NEXT: %44 = "memref.collapse_shape"(%43) <{reassociation = [[0, 1]]}> : (memref<2x2xf32>) -> memref<4xf32>
// GENERIC-NEXT: %45 = "memref.view"(%arg13, %arg11, %arg11) : (memref<?xi8>, index, index) -> memref<?xf32>
// GENERIC-NEXT: %46:6 = "memref.extract_strided_metadata"(%arg10) : (memref<4x?xf32>) -> (memref<f32>, index, index, index, index, index)
// GENERIC-NEXT: %47 = "memref.extract_aligned_pointer_as_index"(%arg10) : (memref<4x?xf32>) -> index
// GENERIC-NEXT: %48 = "memref.transpose"(%arg10) <{permutation = #map2}> : (memref<4x?xf32>) -> memref<?x4xf32, #map1>
// GENERIC-NEXT: %49 = "memref.atomic_rmw"(%arg12, %arg10, %arg11, %arg11) <{kind = 0 : i64}> : (f32, memref<4x?xf32>, index, index) -> f32
// GENERIC-NEXT: %50 = "memref.memory_space_cast"(%arg10) : (memref<4x?xf32>) -> memref<4x?xf32, 1>
// GENERIC-NEXT: %51 = "memref.realloc"(%34) : (memref<4xf32>) -> memref<8xf32>
// GENERIC-NEXT: %52 = "memref.realloc"(%34, %arg11) : (memref<4xf32>, index) -> memref<?xf32>
// GENERIC-NEXT: "memref.dealloc"(%32) : (memref<4x?xf32>) -> ()
// GENERIC-NEXT: %53 = "memref.alloca_scope"() ({
// GENERIC-NEXT: "memref.alloca_scope.return"(%arg12) : (f32) -> ()
// GENERIC-NEXT: }) : () -> f32
// GENERIC-NEXT: "memref.alloca_scope"() ({
// GENERIC-NEXT: %56 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xf32>
// GENERIC-NEXT: "memref.alloca_scope.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: %54 = "memref.generic_atomic_rmw"(%arg10, %arg11, %arg11) ({
// GENERIC-NEXT: ^bb0(%arg14: f32):
// GENERIC-NEXT: %55 = "arith.addf"(%arg14, %arg12) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT: "memref.atomic_yield"(%55) : (f32) -> ()
// GENERIC-NEXT: }) : (memref<4x?xf32>, index, index) -> f32
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "c2", sym_visibility = "private", type = memref<2xf32>}> {foo} : () -> ()
// GENERIC-NEXT: "memref.global"() <{alignment = 64 : i64, initial_value = dense<1.000000e+00> : tensor<2xf32>, sym_name = "d2", type = memref<2xf32>}> {foo} : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (memref<4xf32>, index, f32) -> (), sym_name = "g"}> ({
// GENERIC-NEXT: ^bb0(%arg6: memref<4xf32>, %arg7: index, %arg8: f32):
// GENERIC-NEXT: %22 = "memref.load"(%arg6, %arg7) <{alignment = 16 : i64, nontemporal = true}> {foo} : (memref<4xf32>, index) -> f32
// GENERIC-NEXT: "memref.store"(%arg8, %arg6, %arg7) <{nontemporal = true}> {foo} : (f32, memref<4xf32>, index) -> ()
// GENERIC-NEXT: %23 = "memref.realloc"(%arg6) <{alignment = 16 : i64}> {foo} : (memref<4xf32>) -> memref<8xf32>
// GENERIC-NEXT: %24 = "memref.alloca"() <{alignment = 16 : i64, operandSegmentSizes = array<i32: 0, 0>}> {foo} : () -> memref<4xf32, strided<[1]>>
// GENERIC-NEXT: %25 = "memref.assume_alignment"(%arg6) <{alignment = 16 : i32}> {foo} : (memref<4xf32>) -> memref<4xf32>
// GENERIC-NEXT: %26 = "memref.get_global"() <{name = @c2}> {foo} : () -> memref<2xf32>
// GENERIC-NEXT: %27:4 = "memref.extract_strided_metadata"(%arg6) {foo} : (memref<4xf32>) -> (memref<f32>, index, index, index)
// GENERIC-NEXT: %28 = "memref.transpose"(%arg6) <{permutation = #map3}> {foo} : (memref<4xf32>) -> memref<4xf32, strided<[1]>>
// GENERIC-NEXT: %29 = "memref.atomic_rmw"(%arg8, %arg6, %arg7) <{kind = 0 : i64}> {foo} : (f32, memref<4xf32>, index) -> f32
// GENERIC-NEXT: "memref.alloca_scope"() ({
// GENERIC-NEXT: "memref.alloca_scope.return"() : () -> ()
// GENERIC-NEXT: }) {foo} : () -> ()
// GENERIC-NEXT: %30 = "memref.generic_atomic_rmw"(%arg6, %arg7) ({
// GENERIC-NEXT: ^bb0(%arg9: f32):
// GENERIC-NEXT: "memref.atomic_yield"(%arg9) : (f32) -> ()
// GENERIC-NEXT: }) {foo} : (memref<4xf32>, index) -> f32
// GENERIC-NEXT: %31 = "memref.dim"(%arg6, %arg7) {foo} : (memref<4xf32>, index) -> index
// GENERIC-NEXT: "memref.copy"(%arg6, %arg6) {foo} : (memref<4xf32>, memref<4xf32>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (memref<8x16x4xf32>, memref<?x?x?xf32>, index, memref<8x16xf32, strided<[32, 2], offset: 5>>, memref<*xf32>, memref<1xindex>) -> (), sym_name = "views"}> ({
// GENERIC-NEXT: ^bb0(%arg0: memref<8x16x4xf32>, %arg1: memref<?x?x?xf32>, %arg2: index, %arg3: memref<8x16xf32, strided<[32, 2], offset: 5>>, %arg4: memref<*xf32>, %arg5: memref<1xindex>):
// GENERIC-NEXT: %0 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 8, 16, 4>, static_strides = array<i64: 1, 1, 1>}> : (memref<8x16x4xf32>) -> memref<8x16x4xf32, strided<[64, 4, 1]>>
// GENERIC-NEXT: %1 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1, 2, 3>, static_sizes = array<i64: 1, 4, 1>, static_strides = array<i64: 1, 2, 1>}> : (memref<8x16x4xf32>) -> memref<4xf32, strided<[8], offset: 75>>
// GENERIC-NEXT: %2 = "memref.subview"(%arg0, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0, 0>, static_sizes = array<i64: 1, 16, 4>, static_strides = array<i64: 1, 1, 1>}> : (memref<8x16x4xf32>, index) -> memref<16x4xf32, strided<[4, 1], offset: ?>>
// GENERIC-NEXT: %3 = "memref.subview"(%arg1, %arg2, %arg2, %arg2, %arg2, %arg2, %arg2) <{operandSegmentSizes = array<i32: 1, 3, 2, 1>, static_offsets = array<i64: -9223372036854775808, -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: -9223372036854775808, 2, -9223372036854775808>, static_strides = array<i64: -9223372036854775808, 1, 1>}> : (memref<?x?x?xf32>, index, index, index, index, index, index) -> memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>>
// GENERIC-NEXT: %4 = "memref.subview"(%arg3) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1, 1>, static_sizes = array<i64: 2, 2>, static_strides = array<i64: 2, 3>}> : (memref<8x16xf32, strided<[32, 2], offset: 5>>) -> memref<2x2xf32, strided<[64, 6], offset: 39>>
// GENERIC-NEXT: %5 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 1, 1, 4>, static_strides = array<i64: 1, 1, 1>}> : (memref<8x16x4xf32>) -> memref<4xf32, strided<[1]>>
// GENERIC-NEXT: %6 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 1, 1, 1>, static_strides = array<i64: 1, 1, 1>}> : (memref<8x16x4xf32>) -> memref<f32>
// GENERIC-NEXT: %7 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 1, 16, 1>, static_strides = array<i64: 1, 1, 1>}> : (memref<8x16x4xf32>) -> memref<1x16xf32, strided<[64, 4]>>
// GENERIC-NEXT: %8 = "memref.expand_shape"(%arg3) <{reassociation = [[0, 1], [2]], static_output_shape = array<i64: 2, 4, 16>}> : (memref<8x16xf32, strided<[32, 2], offset: 5>>) -> memref<2x4x16xf32, strided<[128, 32, 2], offset: 5>>
// GENERIC-NEXT: %9 = "memref.collapse_shape"(%arg0) <{reassociation = [[0, 1], [2]]}> : (memref<8x16x4xf32>) -> memref<128x4xf32>
// GENERIC-NEXT: %10 = "memref.collapse_shape"(%0) <{reassociation = [[0, 1, 2]]}> : (memref<8x16x4xf32, strided<[64, 4, 1]>>) -> memref<512xf32, strided<[1]>>
// GENERIC-NEXT: %11 = "memref.expand_shape"(%arg1, %arg2, %arg2, %arg2) <{reassociation = [[0, 1], [2], [3]], static_output_shape = array<i64: -9223372036854775808, 4, -9223372036854775808, -9223372036854775808>}> : (memref<?x?x?xf32>, index, index, index) -> memref<?x4x?x?xf32>
// GENERIC-NEXT: %12 = "memref.collapse_shape"(%arg1) <{reassociation = [[0, 1], [2]]}> : (memref<?x?x?xf32>) -> memref<?x?xf32>
// GENERIC-NEXT: %13 = "memref.transpose"(%arg0) <{permutation = #map4}> : (memref<8x16x4xf32>) -> memref<4x8x16xf32, strided<[1, 64, 4]>>
// GENERIC-NEXT: %14 = "memref.transpose"(%arg1) <{permutation = #map5}> : (memref<?x?x?xf32>) -> memref<?x?x?xf32, strided<[?, ?, 1]>>
// GENERIC-NEXT: %15 = "memref.collapse_shape"(%3) <{reassociation = [[0, 1, 2]]}> : (memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>>
// GENERIC-NEXT: %16 = "memref.expand_shape"(%arg0) <{reassociation = [[0], [1, 2], [3]], static_output_shape = array<i64: 8, 4, 4, 4>}> : (memref<8x16x4xf32>) -> memref<8x4x4x4xf32>
// GENERIC-NEXT: %17 = "memref.reshape"(%arg0, %arg5) : (memref<8x16x4xf32>, memref<1xindex>) -> memref<512xf32>
// GENERIC-NEXT: %18 = "memref.cast"(%arg3) : (memref<8x16xf32, strided<[32, 2], offset: 5>>) -> memref<8x16xf32, strided<[?, ?], offset: ?>>
// GENERIC-NEXT: %19 = "memref.cast"(%arg4) : (memref<*xf32>) -> memref<4xf32>
// GENERIC-NEXT: %20 = "memref.reinterpret_cast"(%arg4, %arg2, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: -9223372036854775808, 1>}> : (memref<*xf32>, index, index) -> memref<4x4xf32, strided<[?, 1], offset: ?>>
// GENERIC-NEXT: %21 = "memref.subview"(%14) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 0>, static_sizes = array<i64: 1, 4, 1>, static_strides = array<i64: 1, 1, 1>}> : (memref<?x?x?xf32, strided<[?, ?, 1]>>) -> memref<4xf32, strided<[?]>>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @u : memref<4xi32> = uninitialized
memref.global "private" @ext : memref<4xf32>
func.func @f(%m: memref<4x?xf32>, %i: index, %v: f32, %s: memref<?xi8>) {
  %a = memref.alloc(%i) : memref<4x?xf32>
  %b = memref.alloc(%i)[%i] : memref<4x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %b2 = memref.alloc() : memref<4xf32>
  %c = memref.alloca(%i) : memref<4x?xf32>
  %d = memref.load %m[%i, %i] : memref<4x?xf32>
  memref.store %v, %m[%i, %i] : memref<4x?xf32>
  %e = memref.dim %m, %i : memref<4x?xf32>
  %r = memref.rank %m : memref<4x?xf32>
  %cast = memref.cast %m : memref<4x?xf32> to memref<?x?xf32>
  memref.copy %m, %a : memref<4x?xf32> to memref<4x?xf32>
  %sv = memref.subview %m[0, %i] [2, 2] [1, 1] : memref<4x?xf32> to memref<2x2xf32, strided<[?, 1], offset: ?>>
  %g = memref.get_global @c : memref<2xf32>
  %rc = memref.reinterpret_cast %m to offset: [0], sizes: [%i, 4], strides: [4, 1] : memref<4x?xf32> to memref<?x4xf32>
  %ex = memref.expand_shape %b2 [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  %co = memref.collapse_shape %ex [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %vw = memref.view %s[%i][%i] : memref<?xi8> to memref<?xf32>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<4x?xf32> -> memref<f32>, index, index, index, index, index
  %p = memref.extract_aligned_pointer_as_index %m : memref<4x?xf32> -> index
  %t = memref.transpose %m (i, j) -> (j, i) : memref<4x?xf32> to memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>>
  %x = memref.atomic_rmw addf %v, %m[%i, %i] : (f32, memref<4x?xf32>) -> f32
  %ms = memref.memory_space_cast %m : memref<4x?xf32> to memref<4x?xf32, 1>
  %rl = memref.realloc %b2 : memref<4xf32> to memref<8xf32>
  %rl2 = memref.realloc %b2(%i) : memref<4xf32> to memref<?xf32>
  memref.dealloc %a : memref<4x?xf32>
  %sc = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return %v : f32
  }
  memref.alloca_scope {
    %q = memref.alloca() : memref<2xf32>
  }
  %gr = memref.generic_atomic_rmw %m[%i, %i] : memref<4x?xf32> {
  ^bb0(%cur: f32):
    %n = arith.addf %cur, %v : f32
    memref.atomic_yield %n : f32
  }
  return
}

  memref.global "private" constant @c2 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> alignment = 64 {foo}
  memref.global @d2 : memref<2xf32> = dense<1.000000e+00> alignment = 64 {foo}
  func.func @g(%arg0: memref<4xf32>, %arg1: index, %arg2: f32) {
    %0 = memref.load %arg0[%arg1] alignment(16) nontemporal(true) {foo} : memref<4xf32>
    memref.store %arg2, %arg0[%arg1] nontemporal(true) {foo} : memref<4xf32>
    %1 = memref.realloc %arg0 alignment = 16 {foo} : memref<4xf32> to memref<8xf32>
    %alloca = memref.alloca() alignment = 16 {foo} : memref<4xf32, strided<[1]>>
    %assume_align = memref.assume_alignment %arg0, 16 {foo} : memref<4xf32>
    %2 = memref.get_global @c2 : memref<2xf32> {foo}
    %base_buffer, %offset, %sizes, %strides = memref.extract_strided_metadata %arg0 : memref<4xf32> -> memref<f32>, index, index, index {foo}
    %transpose = memref.transpose %arg0 (d0) -> (d0) {foo} : memref<4xf32> to memref<4xf32, strided<[1]>>
    %3 = memref.atomic_rmw addf %arg2, %arg0[%arg1] {foo} : (f32, memref<4xf32>) -> f32
    memref.alloca_scope  {
    } {foo}
    %4 = memref.generic_atomic_rmw %arg0[%arg1] : memref<4xf32> {
    ^bb0(%arg3: f32):
      memref.atomic_yield %arg3 : f32
    } {foo}
    %dim = memref.dim {foo} %arg0, %arg1 : memref<4xf32>
    memref.copy %arg0, %arg0 {foo} : memref<4xf32> to memref<4xf32>
    return
  }

func.func @views(%m: memref<8x16x4xf32>, %d: memref<?x?x?xf32>, %i: index, %s: memref<8x16xf32, strided<[32, 2], offset: 5>>, %u: memref<*xf32>, %sh: memref<1xindex>) {
  %0 = memref.subview %m[0, 0, 0] [8, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<8x16x4xf32, strided<[64, 4, 1]>>
  %1 = memref.subview %m[1, 2, 3] [1, 4, 1] [1, 2, 1] : memref<8x16x4xf32> to memref<4xf32, strided<[8], offset: 75>>
  %2 = memref.subview %m[%i, 0, 0] [1, 16, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<16x4xf32, strided<[4, 1], offset: ?>>
  %3 = memref.subview %d[%i, %i, %i] [%i, 2, %i] [%i, 1, 1] : memref<?x?x?xf32> to memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>>
  %4 = memref.subview %s[1, 1] [2, 2] [2, 3] : memref<8x16xf32, strided<[32, 2], offset: 5>> to memref<2x2xf32, strided<[64, 6], offset: 39>>
  %5 = memref.subview %m[0, 0, 0] [1, 1, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<4xf32, strided<[1]>>
  %6 = memref.subview %m[0, 0, 0] [1, 1, 1] [1, 1, 1] : memref<8x16x4xf32> to memref<f32>
  %7 = memref.subview %m[0, 0, 0] [1, 16, 1] [1, 1, 1] : memref<8x16x4xf32> to memref<1x16xf32, strided<[64, 4]>>
  %8 = memref.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 16] : memref<8x16xf32, strided<[32, 2], offset: 5>> into memref<2x4x16xf32, strided<[128, 32, 2], offset: 5>>
  %9 = memref.collapse_shape %m [[0, 1], [2]] : memref<8x16x4xf32> into memref<128x4xf32>
  %10 = memref.collapse_shape %0 [[0, 1, 2]] : memref<8x16x4xf32, strided<[64, 4, 1]>> into memref<512xf32, strided<[1]>>
  %11 = memref.expand_shape %d [[0, 1], [2], [3]] output_shape [%i, 4, %i, %i] : memref<?x?x?xf32> into memref<?x4x?x?xf32>
  %12 = memref.collapse_shape %d [[0, 1], [2]] : memref<?x?x?xf32> into memref<?x?xf32>
  %13 = memref.transpose %m (d0, d1, d2) -> (d2, d0, d1) : memref<8x16x4xf32> to memref<4x8x16xf32, strided<[1, 64, 4]>>
  %14 = memref.transpose %d (d0, d1, d2) -> (d1, d0, d2) : memref<?x?x?xf32> to memref<?x?x?xf32, strided<[?, ?, 1]>>
  %15 = memref.collapse_shape %3 [[0, 1, 2]] : memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>> into memref<?xf32, strided<[?], offset: ?>>
  %16 = memref.expand_shape %m [[0], [1, 2], [3]] output_shape [8, 4, 4, 4] : memref<8x16x4xf32> into memref<8x4x4x4xf32>
  %17 = memref.reshape %m(%sh) : (memref<8x16x4xf32>, memref<1xindex>) -> memref<512xf32>
  %18 = memref.cast %s : memref<8x16xf32, strided<[32, 2], offset: 5>> to memref<8x16xf32, strided<[?, ?], offset: ?>>
  %19 = memref.cast %u : memref<*xf32> to memref<4xf32>
  %20 = memref.reinterpret_cast %u to offset: [%i], sizes: [4, 4], strides: [%i, 1] : memref<*xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  %21 = memref.subview %14[0, 0, 0] [1, 4, 1] [1, 1, 1] : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<4xf32, strided<[?]>>
  return
}
