// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s
// RUN: strata-opt %s | strata-opt --mlir-print-op-generic | filecheck %s
// Named ops build their payload as upstream does: the generic form shows it.

// CHECK-DAG: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #map3 = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>
// CHECK-DAG: #map5 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #map6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #map7 = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #map8 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #map9 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: sym_name = "casts"
// CHECK-NEXT: ^bb0(%arg54: tensor<4x8xi8>, %arg55: tensor<8x4xi8>, %arg56: tensor<4x4xi32>, %arg57: tensor<4x8xf16>, %arg58: tensor<8x4xbf16>, %arg59: tensor<4x4xf32>):
// CHECK-NEXT: %57 = "linalg.matmul"(%arg54, %arg55, %arg56) <{cast = #linalg.type_fn<cast_unsigned>, indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
// CHECK-NEXT: ^bb0(%arg63: i8, %arg64: i8, %arg65: i32):
// CHECK-NEXT: %63 = "arith.extui"(%arg63) : (i8) -> i32
// CHECK-NEXT: %64 = "arith.extui"(%arg64) : (i8) -> i32
// CHECK-NEXT: %65 = "arith.muli"(%63, %64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %66 = "arith.addi"(%arg65, %65) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: "linalg.yield"(%66) : (i32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xi8>, tensor<8x4xi8>, tensor<4x4xi32>) -> tensor<4x4xi32>
// CHECK-NEXT: %58 = "linalg.matmul"(%arg57, %arg58, %arg59) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
// CHECK-NEXT: ^bb0(%arg60: f16, %arg61: bf16, %arg62: f32):
// CHECK-NEXT: %59 = "arith.extf"(%arg60) : (f16) -> f32
// CHECK-NEXT: %60 = "arith.extf"(%arg61) : (bf16) -> f32
// CHECK-NEXT: %61 = "arith.mulf"(%59, %60) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: %62 = "arith.addf"(%arg62, %61) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%62) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf16>, tensor<8x4xbf16>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: "func.return"(%57, %58) : (tensor<4x4xi32>, tensor<4x4xf32>) -> ()
func.func @casts(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>, %f: tensor<4x8xf16>, %g: tensor<8x4xbf16>, %h: tensor<4x4xf32>) -> (tensor<4x4xi32>, tensor<4x4xf32>) {
  %0 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  %1 = linalg.matmul ins(%f, %g : tensor<4x8xf16>, tensor<8x4xbf16>) outs(%h : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xi32>, tensor<4x4xf32>
}

// CHECK-LABEL: sym_name = "quantized"
// CHECK-NEXT: ^bb0(%arg44: tensor<4x8xi8>, %arg45: tensor<8x4xi8>, %arg46: i32, %arg47: i32, %arg48: tensor<4x4xi32>):
// CHECK-NEXT: %50 = "linalg.quantized_matmul"(%arg44, %arg45, %arg46, %arg47, %arg48) <{operandSegmentSizes = array<i32: 4, 1>}> ({
// CHECK-NEXT: ^bb0(%arg49: i8, %arg50: i8, %arg51: i32, %arg52: i32, %arg53: i32):
// CHECK-NEXT: %51 = "arith.extsi"(%arg49) : (i8) -> i32
// CHECK-NEXT: %52 = "arith.subi"(%51, %arg51) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %53 = "arith.extsi"(%arg50) : (i8) -> i32
// CHECK-NEXT: %54 = "arith.subi"(%53, %arg52) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %55 = "arith.muli"(%52, %54) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %56 = "arith.addi"(%arg53, %55) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: "linalg.yield"(%56) : (i32) -> ()
// CHECK-NEXT: }) {linalg.memoized_indexing_maps = [#map, #map1, #map3, #map3, #map2]} : (tensor<4x8xi8>, tensor<8x4xi8>, i32, i32, tensor<4x4xi32>) -> tensor<4x4xi32>
// CHECK-NEXT: "func.return"(%50) : (tensor<4x4xi32>) -> ()
func.func @quantized(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %za: i32, %zb: i32, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %0 = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x8xi8>, tensor<8x4xi8>, i32, i32) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

// CHECK-LABEL: sym_name = "pooling"
// CHECK-NEXT: ^bb0(%arg35: tensor<1x8x8x3xi8>, %arg36: tensor<2x2xi8>, %arg37: tensor<1x7x7x3xi32>):
// CHECK-NEXT: %44 = "linalg.pooling_nhwc_max_unsigned"(%arg35, %arg36, %arg37) <{operandSegmentSizes = array<i32: 2, 1>}> ({
// CHECK-NEXT: ^bb0(%arg41: i8, %arg42: i8, %arg43: i32):
// CHECK-NEXT: %48 = "arith.extui"(%arg41) : (i8) -> i32
// CHECK-NEXT: %49 = "arith.maxui"(%arg43, %48) : (i32, i32) -> i32
// CHECK-NEXT: "linalg.yield"(%49) : (i32) -> ()
// CHECK-NEXT: }) {linalg.memoized_indexing_maps = [#map4, #map5, #map6]} : (tensor<1x8x8x3xi8>, tensor<2x2xi8>, tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32>
// CHECK-NEXT: %45 = "linalg.pooling_nhwc_sum"(%arg35, %arg36, %44) <{dilations = dense<1> : tensor<2xi64>, operandSegmentSizes = array<i32: 2, 1>, strides = dense<1> : tensor<2xi64>}> ({
// CHECK-NEXT: ^bb0(%arg38: i8, %arg39: i8, %arg40: i32):
// CHECK-NEXT: %46 = "arith.extsi"(%arg38) : (i8) -> i32
// CHECK-NEXT: %47 = "arith.addi"(%arg40, %46) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: "linalg.yield"(%47) : (i32) -> ()
// CHECK-NEXT: }) {linalg.memoized_indexing_maps = [#map4, #map5, #map6]} : (tensor<1x8x8x3xi8>, tensor<2x2xi8>, tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32>
// CHECK-NEXT: "func.return"(%45) : (tensor<1x7x7x3xi32>) -> ()
func.func @pooling(%i: tensor<1x8x8x3xi8>, %w: tensor<2x2xi8>, %o: tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32> {
  %0 = linalg.pooling_nhwc_max_unsigned ins(%i, %w : tensor<1x8x8x3xi8>, tensor<2x2xi8>) outs(%o : tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32>
  %1 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : tensor<1x8x8x3xi8>, tensor<2x2xi8>) outs(%0 : tensor<1x7x7x3xi32>) -> tensor<1x7x7x3xi32>
  return %1 : tensor<1x7x7x3xi32>
}

// CHECK-LABEL: sym_name = "fill_copy"
// CHECK-NEXT: ^bb0(%arg28: f32, %arg29: tensor<4x8xf32>, %arg30: tensor<4x8xi32>):
// CHECK-NEXT: %41 = "linalg.fill"(%arg28, %arg29) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg33: f32, %arg34: f32):
// CHECK-NEXT: "linalg.yield"(%arg33) : (f32) -> ()
// CHECK-NEXT: }) : (f32, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %42 = "linalg.copy"(%41, %arg30) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg31: f32, %arg32: i32):
// CHECK-NEXT: %43 = "arith.fptosi"(%arg31) : (f32) -> i32
// CHECK-NEXT: "linalg.yield"(%43) : (i32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NEXT: "func.return"(%42) : (tensor<4x8xi32>) -> ()
func.func @fill_copy(%v: f32, %t: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = linalg.fill ins(%v : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.copy ins(%0 : tensor<4x8xf32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %1 : tensor<4x8xi32>
}

// CHECK-LABEL: sym_name = "random"
// CHECK-NEXT: ^bb0(%arg20: f64, %arg21: f64, %arg22: i32, %arg23: tensor<4x8xf32>):
// CHECK-NEXT: %12 = "linalg.fill_rng_2d"(%arg20, %arg21, %arg22, %arg23) <{operandSegmentSizes = array<i32: 3, 1>}> ({
// CHECK-NEXT: ^bb0(%arg24: f64, %arg25: f64, %arg26: i32, %arg27: f32):
// CHECK-NEXT: %13 = "arith.constant"() <{value = 2147483647 : i64}> : () -> i64
// CHECK-NEXT: %14 = "arith.sitofp"(%13) : (i64) -> f64
// CHECK-NEXT: %15 = "linalg.index"() <{dim = 1 : i64}> : () -> index
// CHECK-NEXT: %16 = "arith.index_cast"(%15) : (index) -> i32
// CHECK-NEXT: %17 = "linalg.index"() <{dim = 0 : i64}> : () -> index
// CHECK-NEXT: %18 = "arith.index_cast"(%17) : (index) -> i32
// CHECK-NEXT: %19 = "arith.addi"(%18, %arg26) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %20 = "arith.constant"() <{value = 1103515245 : i64}> : () -> i64
// CHECK-NEXT: %21 = "arith.trunci"(%20) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
// CHECK-NEXT: %22 = "arith.muli"(%19, %21) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %23 = "arith.constant"() <{value = 12345 : i64}> : () -> i64
// CHECK-NEXT: %24 = "arith.trunci"(%23) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
// CHECK-NEXT: %25 = "arith.addi"(%22, %24) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %26 = "arith.addi"(%16, %25) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %27 = "arith.constant"() <{value = 1103515245 : i64}> : () -> i64
// CHECK-NEXT: %28 = "arith.trunci"(%27) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
// CHECK-NEXT: %29 = "arith.muli"(%26, %28) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %30 = "arith.constant"() <{value = 12345 : i64}> : () -> i64
// CHECK-NEXT: %31 = "arith.trunci"(%30) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
// CHECK-NEXT: %32 = "arith.addi"(%29, %31) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT: %33 = "arith.sitofp"(%32) : (i32) -> f64
// CHECK-NEXT: %34 = "arith.addf"(%14, %33) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// CHECK-NEXT: %35 = "arith.subf"(%arg25, %arg24) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// CHECK-NEXT: %36 = "arith.constant"() <{value = 2.3283063999999999E-10 : f64}> : () -> f64
// CHECK-NEXT: %37 = "arith.mulf"(%35, %36) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// CHECK-NEXT: %38 = "arith.mulf"(%34, %37) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// CHECK-NEXT: %39 = "arith.addf"(%38, %arg24) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// CHECK-NEXT: %40 = "arith.truncf"(%39) : (f64) -> f32
// CHECK-NEXT: "linalg.yield"(%40) : (f32) -> ()
// CHECK-NEXT: }) {linalg.memoized_indexing_maps = [#map7, #map7, #map7, #map8]} : (f64, f64, i32, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: "func.return"(%12) : (tensor<4x8xf32>) -> ()
func.func @random(%lo: f64, %hi: f64, %seed: i32, %t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: sym_name = "elementwise"
// CHECK-NEXT: ^bb0(%arg10: tensor<4xf32>, %arg11: tensor<4xi1>):
// CHECK-NEXT: %5 = "linalg.elementwise"(%arg10, %arg10) <{indexing_maps = [#map9, #map9], kind = #linalg.elementwise_kind<reciprocal>, operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg18: f32, %arg19: f32):
// CHECK-NEXT: %10 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// CHECK-NEXT: %11 = "arith.divf"(%10, %arg18) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%11) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %6 = "linalg.elementwise"(%5, %arg10) <{indexing_maps = [#map9, #map9], kind = #linalg.elementwise_kind<square>, operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg16: f32, %arg17: f32):
// CHECK-NEXT: %9 = "arith.mulf"(%arg16, %arg16) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%9) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %7 = "linalg.elementwise"(%arg11, %6, %arg10, %arg10) <{indexing_maps = [#map9, #map9, #map9, #map9], kind = #linalg.elementwise_kind<select>, operandSegmentSizes = array<i32: 3, 1>}> ({
// CHECK-NEXT: ^bb0(%arg12: i1, %arg13: f32, %arg14: f32, %arg15: f32):
// CHECK-NEXT: %8 = "arith.select"(%arg12, %arg13, %arg14) : (i1, f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%8) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "func.return"(%7) : (tensor<4xf32>) -> ()
func.func @elementwise(%a: tensor<4xf32>, %c: tensor<4xi1>) -> tensor<4xf32> {
  %0 = linalg.elementwise <reciprocal> ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.elementwise <square> ins(%0 : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.elementwise <select> ins(%c, %1, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: sym_name = "short_forms"
// CHECK-NEXT: ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>, %arg2: tensor<8x4xf32>):
// CHECK-NEXT: %0 = "linalg.map"(%arg0, %arg0, %arg0) ({
// CHECK-NEXT: ^bb0(%arg7: f32, %arg8: f32, %arg9: f32):
// CHECK-NEXT: %4 = "arith.mulf"(%arg7, %arg8) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%4) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "linalg.reduce"(%0, %arg1) <{dimensions = array<i64: 1>}> ({
// CHECK-NEXT: ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT: %3 = "arith.minimumf"(%arg6, %arg5) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// CHECK-NEXT: "linalg.yield"(%3) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = "linalg.transpose"(%0, %arg2) <{permutation = array<i64: 1, 0>}> ({
// CHECK-NEXT: ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT: "linalg.yield"(%arg3) : (f32) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: "func.return"(%1, %2) : (tensor<4xf32>, tensor<8x4xf32>) -> ()
func.func @short_forms(%a: tensor<4x8xf32>, %b: tensor<4xf32>, %t: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8x4xf32>) {
  %0 = linalg.map { arith.mulf } ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  %1 = linalg.reduce { arith.minimumf } ins(%0 : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [1]
  %2 = linalg.transpose ins(%0 : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
  return %1, %2 : tensor<4xf32>, tensor<8x4xf32>
}
