// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// The vector dialect in custom and generic form. The CHECK and GENERIC lines are what
// iree-opt (upstream MLIR) prints for this file, line for line.

// CHECK: #map = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%arg0: memref<?x?xf32>, %arg1: index, %arg2: f32, %arg3: vector<4xf32>, %arg4: vector<2x4xf32>, %arg5: tensor<?x?xf32>, %arg6: vector<4xi1>, %arg7: vector<4x8xf32>, %arg8: vector<8x4xf32>, %arg9: vector<4x4xf32>) {
// CHECK-NEXT: %0 = vector.load %arg0[%arg1, %arg1] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT: vector.store %0, %arg0[%arg1, %arg1] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT: %1 = vector.transfer_read %arg0[%arg1, %arg1], %arg2 : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT: %2 = vector.transfer_read %arg0[%arg1, %arg1], %arg2 {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT: %3 = vector.transfer_read %arg5[%arg1, %arg1], %arg2, %arg6 {permutation_map = #map} : tensor<?x?xf32>, vector<4xf32>
// CHECK-NEXT: vector.transfer_write %1, %arg0[%arg1, %arg1] : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT: %4 = vector.transfer_write %1, %arg5[%arg1, %arg1] : vector<4xf32>, tensor<?x?xf32>
// CHECK-NEXT: %5 = vector.broadcast %arg2 : f32 to vector<4xf32>
// CHECK-NEXT: %6 = vector.broadcast %arg3 : vector<4xf32> to vector<2x4xf32>
// CHECK-NEXT: %7 = vector.reduction <add>, %arg3 : vector<4xf32> into f32
// CHECK-NEXT: %8 = vector.reduction <maximumf>, %arg3, %arg2 : vector<4xf32> into f32
// CHECK-NEXT: %9 = vector.fma %arg3, %arg3, %arg3 : vector<4xf32>
// CHECK-NEXT: %10 = vector.extract %arg4[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT: %11 = vector.extract %arg4[1, 2] : f32 from vector<2x4xf32>
// CHECK-NEXT: %12 = vector.extract %arg4[%arg1, 2] : f32 from vector<2x4xf32>
// CHECK-NEXT: %13 = vector.insert %arg2, %arg4 [1, 2] : f32 into vector<2x4xf32>
// CHECK-NEXT: %14 = vector.insert %arg3, %arg4 [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT: %15 = vector.shape_cast %arg4 : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT: %16 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %arg7, %arg8, %arg9 : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
// CHECK-NEXT: %17 = vector.from_elements %arg2, %arg2, %arg2, %arg2 : vector<4xf32>
// CHECK-NEXT: %18 = vector.extract_strided_slice %arg4 offsets = [0, 1], sizes = [2, 2], strides = [1, 1] : vector<2x4xf32> to vector<2x2xf32>
// CHECK-NEXT: %19 = vector.transpose %arg4, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT: %20 = vector.bitcast %arg3 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT: %21 = vector.constant_mask [2] : vector<4xi1>
// CHECK-NEXT: %22 = vector.create_mask %arg1 : vector<4xi1>
// CHECK-NEXT: %23 = vector.maskedload %arg0[%arg1, %arg1], %arg6, %arg3 : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT: vector.maskedstore %arg0[%arg1, %arg1], %arg6, %arg3 : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT: %24 = vector.outerproduct %arg3, %arg3, %arg9 {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %25 = vector.multi_reduction <add>, %arg4, %arg3 [0] : vector<2x4xf32> to vector<4xf32>
// CHECK-NEXT: %26 = vector.step : vector<4xindex>
// CHECK-NEXT: %27 = vector.insert_strided_slice %arg3, %arg4 offsets = [1, 0], strides = [1] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT: %28 = vector.shuffle %arg3, %arg3 [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: vector.print %arg3 : vector<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @g(%arg0: vector<4xf32>, %arg1: f32, %arg2: vector<4x4xf32>, %arg3: vector<4x8xf32>, %arg4: vector<8x4xf32>, %arg5: index, %arg6: vector<2x4xf32>, %arg7: memref<8x8xf32>, %arg8: tensor<8x8xf32>) {
// CHECK-NEXT: %0 = vector.outerproduct %arg0, %arg0 : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %1 = vector.outerproduct %arg0, %arg0, %arg2 {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %2 = vector.outerproduct %arg0, %arg1, %arg0 {kind = #vector.kind<maxnumf>} : vector<4xf32>, f32
// CHECK-NEXT: %3 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %arg3, %arg4, %arg2 : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
// CHECK-NEXT: %4 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %arg3, %arg4, %arg2 : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
// CHECK-NEXT: vector.print %arg0 : vector<4xf32>
// CHECK-NEXT: vector.print %arg1 : f32 punctuation <no_punctuation>
// CHECK-NEXT: vector.print punctuation <comma>
// CHECK-NEXT: vector.print str "hello\0A"
// CHECK-NEXT: %5 = vector.extract %arg6[%arg5, %arg5] : f32 from vector<2x4xf32>
// CHECK-NEXT: %6 = vector.insert %arg1, %arg6 [%arg5, 3] : f32 into vector<2x4xf32>
// CHECK-NEXT: %7 = vector.transfer_read %arg7[%arg5, %arg5], %arg1 {in_bounds = [true, false]} : memref<8x8xf32>, vector<4x4xf32>
// CHECK-NEXT: %8 = vector.transfer_read %arg7[%arg5, %arg5], %arg1 {permutation_map = #map4} : memref<8x8xf32>, vector<4x4xf32>
// CHECK-NEXT: %9 = vector.transfer_write %7, %arg8[%arg5, %arg5] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<8x8xf32>
// CHECK-NEXT: %10 = vector.reduction <mul>, %arg0 fastmath<fast> : vector<4xf32> into f32
// CHECK-NEXT: %11 = vector.multi_reduction <maxnumf>, %arg2, %arg0 [1] : vector<4x4xf32> to vector<4xf32>
// CHECK-NEXT: %12 = vector.broadcast %arg0 : vector<4xf32> to vector<3x4xf32>
// CHECK-NEXT: %13 = vector.extract %arg6[0, 0] : f32 from vector<2x4xf32>
// CHECK-NEXT: %14 = vector.shape_cast %arg2 : vector<4x4xf32> to vector<16xf32>
// CHECK-NEXT: %15 = vector.load %arg7[%arg5, %arg5] : memref<8x8xf32>, vector<8xf32>
// CHECK-NEXT: %16 = vector.create_mask %arg5, %arg5 : vector<4x4xi1>
// CHECK-NEXT: %17 = vector.constant_mask [2, 3] : vector<4x4xi1>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @h(%arg0: vector<4xf32>, %arg1: vector<4x4xf32>) {
// CHECK-NEXT: %0 = vector.outerproduct %arg0, %arg0 : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %1 = vector.outerproduct %arg0, %arg0, %arg1 {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %2 = vector.outerproduct %arg0, %arg0 : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %3 = vector.outerproduct %arg0, %arg0, %arg1 {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: #map = affine_map<(d0, d1) -> (d1)>
// GENERIC-NEXT: #map1 = affine_map<(d0, d1) -> (d0)>
// GENERIC-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
// GENERIC-NEXT: #map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
// GENERIC-NEXT: #map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
// GENERIC-NEXT: #map5 = affine_map<(d0, d1) -> (d0, d1)>
// GENERIC-NEXT: #map6 = affine_map<(d0, d1) -> (d1, d0)>
// GENERIC-NEXT: "builtin.module"() ({
// GENERIC-NEXT: "func.func"() <{function_type = (memref<?x?xf32>, index, f32, vector<4xf32>, vector<2x4xf32>, tensor<?x?xf32>, vector<4xi1>, vector<4x8xf32>, vector<8x4xf32>, vector<4x4xf32>) -> (), sym_name = "f"}> ({
// GENERIC-NEXT: ^bb0(%arg11: memref<?x?xf32>, %arg12: index, %arg13: f32, %arg14: vector<4xf32>, %arg15: vector<2x4xf32>, %arg16: tensor<?x?xf32>, %arg17: vector<4xi1>, %arg18: vector<4x8xf32>, %arg19: vector<8x4xf32>, %arg20: vector<4x4xf32>):
// GENERIC-NEXT: %22 = "vector.load"(%arg11, %arg12, %arg12) : (memref<?x?xf32>, index, index) -> vector<4xf32>
// GENERIC-NEXT: "vector.store"(%22, %arg11, %arg12, %arg12) : (vector<4xf32>, memref<?x?xf32>, index, index) -> ()
// GENERIC-NEXT: %23 = "vector.transfer_read"(%arg11, %arg12, %arg12, %arg13) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<?x?xf32>, index, index, f32) -> vector<4xf32>
// GENERIC-NEXT: %24 = "vector.transfer_read"(%arg11, %arg12, %arg12, %arg13) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map}> : (memref<?x?xf32>, index, index, f32) -> vector<4xf32>
// GENERIC-NEXT: %25 = "vector.transfer_read"(%arg16, %arg12, %arg12, %arg13, %arg17) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 2, 1, 1>, permutation_map = #map1}> : (tensor<?x?xf32>, index, index, f32, vector<4xi1>) -> vector<4xf32>
// GENERIC-NEXT: "vector.transfer_write"(%23, %arg11, %arg12, %arg12) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<4xf32>, memref<?x?xf32>, index, index) -> ()
// GENERIC-NEXT: %26 = "vector.transfer_write"(%23, %arg16, %arg12, %arg12) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map}> : (vector<4xf32>, tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
// GENERIC-NEXT: %27 = "vector.broadcast"(%arg13) : (f32) -> vector<4xf32>
// GENERIC-NEXT: %28 = "vector.broadcast"(%arg14) : (vector<4xf32>) -> vector<2x4xf32>
// GENERIC-NEXT: %29 = "vector.reduction"(%arg14) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<4xf32>) -> f32
// GENERIC-NEXT: %30 = "vector.reduction"(%arg14, %arg13) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<maximumf>}> : (vector<4xf32>, f32) -> f32
// GENERIC-NEXT: %31 = "vector.fma"(%arg14, %arg14, %arg14) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: %32 = "vector.extract"(%arg15) <{static_position = array<i64: 1>}> : (vector<2x4xf32>) -> vector<4xf32>
// GENERIC-NEXT: %33 = "vector.extract"(%arg15) <{static_position = array<i64: 1, 2>}> : (vector<2x4xf32>) -> f32
// GENERIC-NEXT: %34 = "vector.extract"(%arg15, %arg12) <{static_position = array<i64: -9223372036854775808, 2>}> : (vector<2x4xf32>, index) -> f32
// GENERIC-NEXT: %35 = "vector.insert"(%arg13, %arg15) <{static_position = array<i64: 1, 2>}> : (f32, vector<2x4xf32>) -> vector<2x4xf32>
// GENERIC-NEXT: %36 = "vector.insert"(%arg14, %arg15) <{static_position = array<i64: 0>}> : (vector<4xf32>, vector<2x4xf32>) -> vector<2x4xf32>
// GENERIC-NEXT: %37 = "vector.shape_cast"(%arg15) : (vector<2x4xf32>) -> vector<8xf32>
// GENERIC-NEXT: %38 = "vector.contract"(%arg18, %arg19, %arg20) <{fastmath = #arith.fastmath<none>, indexing_maps = [#map2, #map3, #map4], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<4x8xf32>, vector<8x4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %39 = "vector.from_elements"(%arg13, %arg13, %arg13, %arg13) : (f32, f32, f32, f32) -> vector<4xf32>
// GENERIC-NEXT: %40 = "vector.extract_strided_slice"(%arg15) <{offsets = [0, 1], sizes = [2, 2], strides = [1, 1]}> : (vector<2x4xf32>) -> vector<2x2xf32>
// GENERIC-NEXT: %41 = "vector.transpose"(%arg15) <{permutation = array<i64: 1, 0>}> : (vector<2x4xf32>) -> vector<4x2xf32>
// GENERIC-NEXT: %42 = "vector.bitcast"(%arg14) : (vector<4xf32>) -> vector<4xi32>
// GENERIC-NEXT: %43 = "vector.constant_mask"() <{mask_dim_sizes = array<i64: 2>}> : () -> vector<4xi1>
// GENERIC-NEXT: %44 = "vector.create_mask"(%arg12) : (index) -> vector<4xi1>
// GENERIC-NEXT: %45 = "vector.maskedload"(%arg11, %arg12, %arg12, %arg17, %arg14) : (memref<?x?xf32>, index, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: "vector.maskedstore"(%arg11, %arg12, %arg12, %arg17, %arg14) : (memref<?x?xf32>, index, index, vector<4xi1>, vector<4xf32>) -> ()
// GENERIC-NEXT: %46 = "vector.outerproduct"(%arg14, %arg14, %arg20) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %47 = "vector.multi_reduction"(%arg15, %arg14) <{kind = #vector.kind<add>, reduction_dims = array<i64: 0>}> : (vector<2x4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: %48 = "vector.step"() : () -> vector<4xindex>
// GENERIC-NEXT: %49 = "vector.insert_strided_slice"(%arg14, %arg15) <{offsets = [1, 0], strides = [1]}> : (vector<4xf32>, vector<2x4xf32>) -> vector<2x4xf32>
// GENERIC-NEXT: %50 = "vector.shuffle"(%arg14, %arg14) <{mask = array<i64: 0, 4, 1, 5>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: "vector.print"(%arg14) <{punctuation = #vector.punctuation<newline>}> : (vector<4xf32>) -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (vector<4xf32>, f32, vector<4x4xf32>, vector<4x8xf32>, vector<8x4xf32>, index, vector<2x4xf32>, memref<8x8xf32>, tensor<8x8xf32>) -> (), sym_name = "g"}> ({
// GENERIC-NEXT: ^bb0(%arg2: vector<4xf32>, %arg3: f32, %arg4: vector<4x4xf32>, %arg5: vector<4x8xf32>, %arg6: vector<8x4xf32>, %arg7: index, %arg8: vector<2x4xf32>, %arg9: memref<8x8xf32>, %arg10: tensor<8x8xf32>):
// GENERIC-NEXT: %4 = "vector.outerproduct"(%arg2, %arg2) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %5 = "vector.outerproduct"(%arg2, %arg2, %arg4) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %6 = "vector.outerproduct"(%arg2, %arg3, %arg2) <{kind = #vector.kind<maxnumf>}> : (vector<4xf32>, f32, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: %7 = "vector.contract"(%arg5, %arg6, %arg4) <{fastmath = #arith.fastmath<none>, indexing_maps = [#map2, #map3, #map4], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<maxnumf>}> : (vector<4x8xf32>, vector<8x4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %8 = "vector.contract"(%arg5, %arg6, %arg4) <{fastmath = #arith.fastmath<none>, indexing_maps = [#map2, #map3, #map4], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<4x8xf32>, vector<8x4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: "vector.print"(%arg2) <{punctuation = #vector.punctuation<newline>}> : (vector<4xf32>) -> ()
// GENERIC-NEXT: "vector.print"(%arg3) <{punctuation = #vector.punctuation<no_punctuation>}> : (f32) -> ()
// GENERIC-NEXT: "vector.print"() <{punctuation = #vector.punctuation<comma>}> : () -> ()
// GENERIC-NEXT: "vector.print"() <{punctuation = #vector.punctuation<newline>, stringLiteral = "hello\0A"}> : () -> ()
// GENERIC-NEXT: %9 = "vector.extract"(%arg8, %arg7, %arg7) <{static_position = array<i64: -9223372036854775808, -9223372036854775808>}> : (vector<2x4xf32>, index, index) -> f32
// GENERIC-NEXT: %10 = "vector.insert"(%arg3, %arg8, %arg7) <{static_position = array<i64: -9223372036854775808, 3>}> : (f32, vector<2x4xf32>, index) -> vector<2x4xf32>
// GENERIC-NEXT: %11 = "vector.transfer_read"(%arg9, %arg7, %arg7, %arg3) <{in_bounds = [true, false], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map5}> : (memref<8x8xf32>, index, index, f32) -> vector<4x4xf32>
// GENERIC-NEXT: %12 = "vector.transfer_read"(%arg9, %arg7, %arg7, %arg3) <{in_bounds = [false, false], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = #map6}> : (memref<8x8xf32>, index, index, f32) -> vector<4x4xf32>
// GENERIC-NEXT: %13 = "vector.transfer_write"(%11, %arg10, %arg7, %arg7) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = #map5}> : (vector<4x4xf32>, tensor<8x8xf32>, index, index) -> tensor<8x8xf32>
// GENERIC-NEXT: %14 = "vector.reduction"(%arg2) <{fastmath = #arith.fastmath<fast>, kind = #vector.kind<mul>}> : (vector<4xf32>) -> f32
// GENERIC-NEXT: %15 = "vector.multi_reduction"(%arg4, %arg2) <{kind = #vector.kind<maxnumf>, reduction_dims = array<i64: 1>}> : (vector<4x4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: %16 = "vector.broadcast"(%arg2) : (vector<4xf32>) -> vector<3x4xf32>
// GENERIC-NEXT: %17 = "vector.extract"(%arg8) <{static_position = array<i64: 0, 0>}> : (vector<2x4xf32>) -> f32
// GENERIC-NEXT: %18 = "vector.shape_cast"(%arg4) : (vector<4x4xf32>) -> vector<16xf32>
// GENERIC-NEXT: %19 = "vector.load"(%arg9, %arg7, %arg7) : (memref<8x8xf32>, index, index) -> vector<8xf32>
// GENERIC-NEXT: %20 = "vector.create_mask"(%arg7, %arg7) : (index, index) -> vector<4x4xi1>
// GENERIC-NEXT: %21 = "vector.constant_mask"() <{mask_dim_sizes = array<i64: 2, 3>}> : () -> vector<4x4xi1>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = (vector<4xf32>, vector<4x4xf32>) -> (), sym_name = "h"}> ({
// GENERIC-NEXT: ^bb0(%arg0: vector<4xf32>, %arg1: vector<4x4xf32>):
// GENERIC-NEXT: %0 = "vector.outerproduct"(%arg0, %arg0) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %1 = "vector.outerproduct"(%arg0, %arg0, %arg1) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %2 = "vector.outerproduct"(%arg0, %arg0) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: %3 = "vector.outerproduct"(%arg0, %arg0, %arg1) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>, vector<4x4xf32>) -> vector<4x4xf32>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

func.func @f(%m: memref<?x?xf32>, %i: index, %a: f32, %v: vector<4xf32>, %w: vector<2x4xf32>, %t: tensor<?x?xf32>, %mask: vector<4xi1>, %b: vector<4x8xf32>, %c: vector<8x4xf32>, %acc: vector<4x4xf32>) {
  %0 = vector.load %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  vector.store %0, %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
  %1 = vector.transfer_read %m[%i, %i], %a : memref<?x?xf32>, vector<4xf32>
  %2 = vector.transfer_read %m[%i, %i], %a {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
  %3 = vector.transfer_read %t[%i, %i], %a, %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : tensor<?x?xf32>, vector<4xf32>
  vector.transfer_write %1, %m[%i, %i] : vector<4xf32>, memref<?x?xf32>
  %4 = vector.transfer_write %1, %t[%i, %i] {in_bounds = [false]} : vector<4xf32>, tensor<?x?xf32>
  %5 = vector.broadcast %a : f32 to vector<4xf32>
  %6 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %7 = vector.reduction <add>, %v : vector<4xf32> into f32
  %8 = vector.reduction <maximumf>, %v, %a : vector<4xf32> into f32
  %9 = vector.fma %v, %v, %v : vector<4xf32>
  %10 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
  %11 = vector.extract %w[1, 2] : f32 from vector<2x4xf32>
  %12 = vector.extract %w[%i, 2] : f32 from vector<2x4xf32>
  %13 = vector.insert %a, %w[1, 2] : f32 into vector<2x4xf32>
  %14 = vector.insert %v, %w[0] : vector<4xf32> into vector<2x4xf32>
  %15 = vector.shape_cast %w : vector<2x4xf32> to vector<8xf32>
  %16 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %b, %c, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  %17 = vector.from_elements %a, %a, %a, %a : vector<4xf32>
  %19 = "vector.extract_strided_slice"(%w) {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : (vector<2x4xf32>) -> vector<2x2xf32>
  %20 = vector.transpose %w, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %21 = vector.bitcast %v : vector<4xf32> to vector<4xi32>
  %22 = vector.constant_mask [2] : vector<4xi1>
  %23 = vector.create_mask %i : vector<4xi1>
  %24 = vector.maskedload %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.maskedstore %m[%i, %i], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  %25 = vector.outerproduct %v, %v, %acc {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
  %26 = vector.multi_reduction <add>, %w, %v [0] : vector<2x4xf32> to vector<4xf32>
  %27 = vector.step : vector<4xindex>
  %28 = "vector.insert_strided_slice"(%v, %w) {offsets = [1, 0], strides = [1]} : (vector<4xf32>, vector<2x4xf32>) -> vector<2x4xf32>
  %29 = vector.shuffle %v, %v [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}

func.func @g(%v: vector<4xf32>, %a: f32, %acc: vector<4x4xf32>, %b: vector<4x8xf32>, %c: vector<8x4xf32>, %i: index, %w: vector<2x4xf32>, %m: memref<8x8xf32>, %t: tensor<8x8xf32>) {
  %0 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>
  %1 = vector.outerproduct %v, %v, %acc : vector<4xf32>, vector<4xf32>
  %2 = vector.outerproduct %v, %a, %v {kind = #vector.kind<maxnumf>} : vector<4xf32>, f32
  %3 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxnumf>} %b, %c, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  %4 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %b, %c, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  vector.print %v : vector<4xf32>
  vector.print %a : f32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print str "hello\n"
  %5 = vector.extract %w[%i, %i] : f32 from vector<2x4xf32>
  %6 = vector.insert %a, %w [%i, 3] : f32 into vector<2x4xf32>
  %7 = vector.transfer_read %m[%i, %i], %a {in_bounds = [true, false]} : memref<8x8xf32>, vector<4x4xf32>
  %8 = vector.transfer_read %m[%i, %i], %a {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x4xf32>
  %9 = vector.transfer_write %7, %t[%i, %i] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<8x8xf32>
  %10 = vector.reduction <mul>, %v fastmath<fast> : vector<4xf32> into f32
  %11 = vector.multi_reduction <maxnumf>, %acc, %v [1] : vector<4x4xf32> to vector<4xf32>
  %12 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  %13 = vector.extract %w[0, 0] : f32 from vector<2x4xf32>
  %14 = vector.shape_cast %acc : vector<4x4xf32> to vector<16xf32>
  %15 = vector.load %m[%i, %i] : memref<8x8xf32>, vector<8xf32>
  %16 = vector.create_mask %i, %i : vector<4x4xi1>
  %17 = vector.constant_mask [2, 3] : vector<4x4xi1>
  return
}

func.func @h(%v: vector<4xf32>, %acc: vector<4x4xf32>) {
  %0 = "vector.outerproduct"(%v, %v) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>) -> vector<4x4xf32>
  %1 = vector.outerproduct %v, %v, %acc {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
  %2 = vector.outerproduct %v, %v {kind = #vector.kind<add>} : vector<4xf32>, vector<4xf32>
  %3 = vector.outerproduct %v, %v, %acc : vector<4xf32>, vector<4xf32>
  return
}
