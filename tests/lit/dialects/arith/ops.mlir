// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// Every arith op in its custom form; the CHECK lines are what iree-opt prints.

// CHECK-LABEL: func.func @int_binary(
func.func @int_binary(%a: i32, %b: i32, %v: vector<4xi32>, %t: tensor<?x4xi8>, %i: index) {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : i32
  %0 = arith.addi %a, %b : i32
  // CHECK-NEXT: %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %2 = arith.addi %arg2, %arg2 overflow<nsw, nuw> : vector<4xi32>
  %2 = arith.addi %v, %v overflow<nuw, nsw> : vector<4xi32>
  // CHECK-NEXT: %3 = arith.subi %arg3, %arg3 overflow<nuw> : tensor<?x4xi8>
  %3 = arith.subi %t, %t overflow<nuw> : tensor<?x4xi8>
  // CHECK-NEXT: %4 = arith.muli %arg4, %arg4 : index
  %4 = arith.muli %i, %i overflow<none> : index
  // CHECK-NEXT: %5 = arith.divui %arg0, %arg1 : i32
  %5 = arith.divui %a, %b : i32
  // CHECK-NEXT: %6 = arith.divsi %arg0, %arg1 exact : i32
  %6 = arith.divsi %a, %b exact : i32
  // CHECK-NEXT: %7 = arith.ceildivui %arg0, %arg1 : i32
  %7 = arith.ceildivui %a, %b : i32
  // CHECK-NEXT: %8 = arith.ceildivsi %arg0, %arg1 : i32
  %8 = arith.ceildivsi %a, %b : i32
  // CHECK-NEXT: %9 = arith.floordivsi %arg0, %arg1 : i32
  %9 = arith.floordivsi %a, %b : i32
  // CHECK-NEXT: %10 = arith.remui %arg0, %arg1 : i32
  %10 = arith.remui %a, %b : i32
  // CHECK-NEXT: %11 = arith.remsi %arg2, %arg2 : vector<4xi32>
  %11 = arith.remsi %v, %v : vector<4xi32>
  // CHECK-NEXT: %12 = arith.andi %arg0, %arg1 : i32
  %12 = arith.andi %a, %b : i32
  // CHECK-NEXT: %13 = arith.ori %arg0, %arg1 : i32
  %13 = arith.ori %a, %b : i32
  // CHECK-NEXT: %14 = arith.xori %arg0, %arg1 : i32
  %14 = arith.xori %a, %b : i32
  // CHECK-NEXT: %15 = arith.shli %arg0, %arg1 overflow<nsw> : i32
  %15 = arith.shli %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %16 = arith.shrui %arg0, %arg1 exact : i32
  %16 = arith.shrui %a, %b exact : i32
  // CHECK-NEXT: %17 = arith.shrsi %arg0, %arg1 : i32
  %17 = arith.shrsi %a, %b : i32
  // CHECK-NEXT: %18 = arith.maxsi %arg0, %arg1 : i32
  %18 = arith.maxsi %a, %b : i32
  // CHECK-NEXT: %19 = arith.maxui %arg0, %arg1 : i32
  %19 = arith.maxui %a, %b : i32
  // CHECK-NEXT: %20 = arith.minsi %arg0, %arg1 : i32
  %20 = arith.minsi %a, %b : i32
  // CHECK-NEXT: %21 = arith.minui %arg3, %arg3 : tensor<?x4xi8>
  %21 = arith.minui %t, %t : tensor<?x4xi8>
  // CHECK-NEXT: %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
  %22:2 = arith.addui_extended %a, %b : i32, i1
  // CHECK-NEXT: %diff, %borrow = arith.subui_extended %arg2, %arg2 : vector<4xi32>, vector<4xi1>
  %23:2 = arith.subui_extended %v, %v : vector<4xi32>, vector<4xi1>
  // CHECK-NEXT: %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
  %24:2 = arith.mulsi_extended %a, %b : i32
  // CHECK-NEXT: %low_0, %high_1 = arith.mului_extended %arg2, %arg2 : vector<4xi32>
  %25:2 = arith.mului_extended %v, %v : vector<4xi32>
  // CHECK-NEXT: %22 = arith.cmpi uge, %arg0, %arg1 : i32
  %26 = arith.cmpi uge, %a, %b : i32
  // CHECK-NEXT: %23 = arith.cmpi ne, %arg2, %arg2 : vector<4xi32>
  %27 = arith.cmpi "ne", %v, %v : vector<4xi32>
  // CHECK-NEXT: %24 = arith.divui %arg4, %arg4 exact {tag = "x"} : index
  %28 = arith.divui %i, %i exact {tag = "x"} : index
  // CHECK-NEXT: %25 = arith.addi %arg0, %arg1 overflow<nuw> {tag = [1, 2]} : i32
  %29 = arith.addi %a, %b overflow<nuw> {tag = [1, 2]} : i32
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @float_ops(
func.func @float_ops(%a: f32, %b: f32, %v: vector<4xf16>, %t: tensor<*xbf16>) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  %0 = arith.addf %a, %b : f32
  // CHECK-NEXT: %1 = arith.addf %arg0, %arg1 fastmath<fast> : f32
  %1 = arith.addf %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %2 = arith.subf %arg0, %arg1 upward : f32
  %2 = arith.subf %a, %b upward : f32
  // CHECK-NEXT: %3 = arith.mulf %arg2, %arg2 downward fastmath<nnan,ninf> : vector<4xf16>
  %3 = arith.mulf %v, %v downward fastmath<nnan,ninf> : vector<4xf16>
  // CHECK-NEXT: %4 = arith.divf %arg3, %arg3 toward_zero : tensor<*xbf16>
  %4 = arith.divf %t, %t toward_zero : tensor<*xbf16>
  // CHECK-NEXT: %5 = arith.remf %arg0, %arg1 : f32
  %5 = arith.remf %a, %b : f32
  // CHECK-NEXT: %6 = arith.maximumf %arg0, %arg1 fastmath<nsz> : f32
  %6 = arith.maximumf %a, %b fastmath<nsz> : f32
  // CHECK-NEXT: %7 = arith.maxnumf %arg0, %arg1 : f32
  %7 = arith.maxnumf %a, %b : f32
  // CHECK-NEXT: %8 = arith.minimumf %arg0, %arg1 : f32
  %8 = arith.minimumf %a, %b : f32
  // CHECK-NEXT: %9 = arith.minnumf %arg0, %arg1 : f32
  %9 = arith.minnumf %a, %b : f32
  // CHECK-NEXT: %10 = arith.negf %arg0 fastmath<contract> : f32
  %10 = arith.negf %a fastmath<contract> : f32
  // CHECK-NEXT: %11 = arith.flush_denormals %arg2 : vector<4xf16>
  %11 = arith.flush_denormals %v : vector<4xf16>
  // CHECK-NEXT: %12 = arith.cmpf ogt, %arg0, %arg1 : f32
  %12 = arith.cmpf ogt, %a, %b : f32
  // CHECK-NEXT: %13 = arith.cmpf uno, %arg2, %arg2 fastmath<fast> : vector<4xf16>
  %13 = arith.cmpf uno, %v, %v fastmath<fast> : vector<4xf16>
  // CHECK-NEXT: %14 = arith.addf %arg0, %arg1 fastmath<reassoc,arcp,afn> {tag} : f32
  %14 = arith.addf %a, %b fastmath<reassoc,arcp,afn> {tag} : f32
  // CHECK-NEXT: %15 = arith.addf %arg0, %arg1 : f32
  %15 = arith.addf %a, %b fastmath<none> : f32
  // CHECK-NEXT: %16 = arith.divf %arg0, %arg1 to_nearest_away fastmath<fast> : f32
  %16 = arith.divf %a, %b to_nearest_away fastmath<nnan,ninf,nsz,arcp,contract,afn,reassoc> : f32
  // CHECK-NEXT: %17 = arith.cmpf false, %arg0, %arg1 : f32
  %17 = arith.cmpf false, %a, %b : f32
  // CHECK-NEXT: %18 = arith.cmpf true, %arg0, %arg1 : f32
  %18 = arith.cmpf true, %a, %b : f32
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @casts(
func.func @casts(%i8: i8, %i32: i32, %f16: f16, %f32: f32, %vi: vector<2xi32>, %idx: index, %m: memref<4xi32>, %f4: f4E2M1FN, %s: f8E8M0FNU, %ti: tensor<?xi32>) {
  // CHECK-NEXT: %0 = arith.extui %arg0 : i8 to i32
  %0 = arith.extui %i8 : i8 to i32
  // CHECK-NEXT: %1 = arith.extui %arg0 nneg : i8 to i32
  %1 = arith.extui %i8 nneg : i8 to i32
  // CHECK-NEXT: %2 = arith.extsi %arg4 : vector<2xi32> to vector<2xi64>
  %2 = arith.extsi %vi : vector<2xi32> to vector<2xi64>
  // CHECK-NEXT: %3 = arith.trunci %arg1 : i32 to i8
  %3 = arith.trunci %i32 : i32 to i8
  // CHECK-NEXT: %4 = arith.trunci %arg1 overflow<nsw, nuw> : i32 to i8
  %4 = arith.trunci %i32 overflow<nsw, nuw> : i32 to i8
  // CHECK-NEXT: %5 = arith.extf %arg2 : f16 to f32
  %5 = arith.extf %f16 : f16 to f32
  // CHECK-NEXT: %6 = arith.extf %arg2 fastmath<contract> : f16 to f32
  %6 = arith.extf %f16 fastmath<contract> : f16 to f32
  // CHECK-NEXT: %7 = arith.truncf %arg3 : f32 to f16
  %7 = arith.truncf %f32 : f32 to f16
  // CHECK-NEXT: %8 = arith.truncf %arg3 to_nearest_away fastmath<fast> : f32 to f16
  %8 = arith.truncf %f32 to_nearest_away fastmath<fast> : f32 to f16
  // CHECK-NEXT: %9 = arith.convertf %arg2 : f16 to bf16
  %9 = arith.convertf %f16 : f16 to bf16
  // CHECK-NEXT: %10 = arith.convertf %arg2 downward : f16 to bf16
  %10 = arith.convertf %f16 downward : f16 to bf16
  // CHECK-NEXT: %11 = arith.uitofp %arg1 : i32 to f32
  %11 = arith.uitofp %i32 : i32 to f32
  // CHECK-NEXT: %12 = arith.uitofp %arg1 nneg : i32 to f32
  %12 = arith.uitofp %i32 nneg : i32 to f32
  // CHECK-NEXT: %13 = arith.sitofp %arg4 : vector<2xi32> to vector<2xf64>
  %13 = arith.sitofp %vi : vector<2xi32> to vector<2xf64>
  // CHECK-NEXT: %14 = arith.fptoui %arg3 : f32 to i32
  %14 = arith.fptoui %f32 : f32 to i32
  // CHECK-NEXT: %15 = arith.fptosi %arg2 : f16 to i8
  %15 = arith.fptosi %f16 : f16 to i8
  // CHECK-NEXT: %16 = arith.index_cast %arg1 : i32 to index
  %16 = arith.index_cast %i32 : i32 to index
  // CHECK-NEXT: %17 = arith.index_cast %arg5 : index to i64
  %17 = arith.index_cast %idx : index to i64
  // CHECK-NEXT: %18 = arith.index_castui %arg1 nneg : i32 to index
  %18 = arith.index_castui %i32 nneg : i32 to index
  // CHECK-NEXT: %19 = arith.index_castui %arg5 : index to i8
  %19 = arith.index_castui %idx : index to i8
  // CHECK-NEXT: %20 = arith.index_cast %arg6 : memref<4xi32> to memref<4xindex>
  %20 = arith.index_cast %m : memref<4xi32> to memref<4xindex>
  // CHECK-NEXT: %21 = arith.bitcast %arg3 : f32 to i32
  %21 = arith.bitcast %f32 : f32 to i32
  // CHECK-NEXT: %22 = arith.bitcast %arg4 : vector<2xi32> to vector<2xf32>
  %22 = arith.bitcast %vi : vector<2xi32> to vector<2xf32>
  // CHECK-NEXT: %23 = arith.scaling_extf %arg7, %arg8 : f4E2M1FN, f8E8M0FNU to f32
  %23 = arith.scaling_extf %f4, %s : f4E2M1FN, f8E8M0FNU to f32
  // CHECK-NEXT: %24 = arith.scaling_extf %arg7, %arg8 fastmath<fast> : f4E2M1FN, f8E8M0FNU to f32
  %24 = arith.scaling_extf %f4, %s fastmath<fast> : f4E2M1FN, f8E8M0FNU to f32
  // CHECK-NEXT: %25 = arith.scaling_truncf %arg3, %arg8 : f32, f8E8M0FNU to f4E2M1FN
  %25 = arith.scaling_truncf %f32, %s : f32, f8E8M0FNU to f4E2M1FN
  // CHECK-NEXT: %26 = arith.scaling_truncf %arg3, %arg8 upward fastmath<nnan> : f32, f8E8M0FNU to f4E2M1FN
  %26 = arith.scaling_truncf %f32, %s upward fastmath<nnan> : f32, f8E8M0FNU to f4E2M1FN
  // CHECK-NEXT: %27 = arith.extf %arg2 fastmath<none> : f16 to f32
  %27 = arith.extf %f16 fastmath<none> : f16 to f32
  // CHECK-NEXT: %28 = arith.extsi %arg9 : tensor<?xi32> to tensor<?xi64>
  %28 = arith.extsi %ti : tensor<?xi32> to tensor<?xi64>
  // CHECK-NEXT: %29 = arith.bitcast %arg6 : memref<4xi32> to memref<4xf32>
  %29 = arith.bitcast %m : memref<4xi32> to memref<4xf32>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @select(
func.func @select(%c: i1, %vc: vector<4xi1>, %a: i32, %b: i32, %v: vector<4xf32>, %t: tensor<?xi1>, %tv: tensor<?xi64>) {
  // CHECK-NEXT: %0 = arith.select %arg0, %arg2, %arg3 : i32
  %0 = arith.select %c, %a, %b : i32
  // CHECK-NEXT: %1 = arith.select %arg0, %arg4, %arg4 : vector<4xf32>
  %1 = arith.select %c, %v, %v : vector<4xf32>
  // CHECK-NEXT: %2 = arith.select %arg1, %arg4, %arg4 : vector<4xi1>, vector<4xf32>
  %2 = arith.select %vc, %v, %v : vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %3 = arith.select %arg5, %arg6, %arg6 {tag = 1 : i32} : tensor<?xi1>, tensor<?xi64>
  %3 = arith.select %t, %tv, %tv {tag = 1 : i32} : tensor<?xi1>, tensor<?xi64>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @constants(
func.func @constants() {
  // CHECK-NEXT: %c42_i32 = arith.constant 42 : i32
  %0 = arith.constant 42 : i32
  // CHECK-NEXT: %c-7 = arith.constant -7 : index
  %1 = arith.constant -7 : index
  // CHECK-NEXT: %true = arith.constant true
  %2 = arith.constant true
  // CHECK-NEXT: %false = arith.constant false
  %3 = arith.constant false
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
  %4 = arith.constant 1.5 : f32
  // CHECK-NEXT: %cst_0 = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %5 = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK-NEXT: %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
  %6 = arith.constant dense<0.0> : vector<4xf32>
  // CHECK-NEXT: %cst_2 = arith.constant dense<true> : vector<2xi1>
  %7 = arith.constant dense<true> : vector<2xi1>
  // CHECK-NEXT: %c0_i8 = arith.constant {tag} 0 : i8
  %8 = arith.constant {tag} 0 : i8
  // CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
  %9 = arith.constant 0x7FC00000 : f32
  // CHECK-NEXT: %cst_4 = arith.constant dense<2> : vector<[4]xi32>
  %10 = arith.constant dense<2> : vector<[4]xi32>
  // CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
  %11 = arith.constant 255 : i8
  // CHECK-NEXT: %c42_i32_5 = arith.constant 42 : i32
  %12 = arith.constant 42 : i32
  // CHECK-NEXT: %cst_6 = arith.constant 1.101560e+00 : bf16
  %13 = arith.constant 1.1 : bf16
  // CHECK-NEXT: %cst_7 = arith.constant 9.99999974E-6 : f32
  %14 = arith.constant 1.0e-5 : f32
  // CHECK-NEXT: %cst_8 = arith.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf8E4M3FN>
  %15 = arith.constant dense<[1.0, 0.5]> : tensor<2xf8E4M3FN>
  // CHECK-NEXT: %cst_9 = arith.constant dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
  %16 = arith.constant dense<(1.0, 2.0)> : tensor<complex<f32>>
  // CHECK-NEXT: %cst_10 = arith.constant -0.000000e+00 : f64
  %17 = arith.constant -0.0 : f64
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @generic_input(
func.func @generic_input(%a: f32, %b: i64) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg0 fastmath<nnan> : f32
  %0 = "arith.addf"(%a, %a) <{fastmath = #arith.fastmath<nnan>}> : (f32, f32) -> f32
  // CHECK-NEXT: %1 = arith.truncf %arg0 toward_zero : f32 to f16
  %1 = "arith.truncf"(%a) <{roundingmode = 3 : i32}> : (f32) -> f16
  // CHECK-NEXT: %2 = arith.shrsi %arg1, %arg1 exact : i64
  %2 = "arith.shrsi"(%b, %b) <{isExact}> : (i64, i64) -> i64
  // CHECK-NEXT: %3 = arith.cmpi uge, %arg1, %arg1 : i64
  %3 = "arith.cmpi"(%b, %b) {predicate = 9 : i64} : (i64, i64) -> i1
  // CHECK-NEXT: %c3_i64 = arith.constant 3 : i64
  %4 = "arith.constant"() <{value = 3 : i64}> : () -> i64
  // CHECK-NEXT: return
  return
}
