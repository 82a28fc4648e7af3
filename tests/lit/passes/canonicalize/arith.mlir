// Arith canonicalization patterns (strata/dialects/arith_canonicalize.py). The CHECK
// lines are what `iree-opt --canonicalize` prints for this file;
// tests/unit/test_arith_canonicalize.py also diffs the whole output against it.
// RUN: strata-opt %s --split-input-file --canonicalize | filecheck %s

// addi: constants reassociate (scalars only), flags kept only where both ops had them.
// CHECK-LABEL: func.func @addi_add_const(
//  CHECK-NEXT:   %c-1 = arith.constant -1 : index
//  CHECK-NEXT:   %cst = arith.constant dense<3> : vector<4xi32>
//  CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c7_i32 overflow<nsw> : i32
//  CHECK-NEXT:   %1 = arith.addi %arg1, %c-1 : index
//  CHECK-NEXT:   %2 = arith.addi %arg2, %cst : vector<4xi32>
//  CHECK-NEXT:   %3 = arith.addi %2, %cst : vector<4xi32>
//  CHECK-NEXT:   return %0, %1, %3 : i32, index, vector<4xi32>
func.func @addi_add_const(%x: i32, %i: index, %v: vector<4xi32>) -> (i32, index, vector<4xi32>) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %x, %c3 overflow<nsw, nuw> : i32
  %1 = arith.addi %0, %c4 overflow<nsw> : i32
  %i3 = arith.constant 3 : index
  %i4 = arith.constant -4 : index
  %2 = arith.addi %i, %i3 : index
  %3 = arith.addi %2, %i4 : index
  %v3 = arith.constant dense<3> : vector<4xi32>
  %4 = arith.addi %v, %v3 : vector<4xi32>
  %5 = arith.addi %4, %v3 : vector<4xi32>
  return %1, %3, %5 : i32, index, vector<4xi32>
}

// -----

// CHECK-LABEL: func.func @addi_sub_const(
//  CHECK-NEXT:   %c-36_i8 = arith.constant -36 : i8
//  CHECK-NEXT:   %c13_i64 = arith.constant 13 : i64
//  CHECK-NEXT:   %c7_i64 = arith.constant 7 : i64
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c7_i64 overflow<nsw> : i64
//  CHECK-NEXT:   %1 = arith.subi %c13_i64, %arg0 : i64
//  CHECK-NEXT:   %2 = arith.subi %c-36_i8, %arg1 : i8
//  CHECK-NEXT:   return %0, %1, %2 : i64, i64, i8
func.func @addi_sub_const(%x: i64, %y: i8) -> (i64, i64, i8) {
  %c3 = arith.constant 3 : i64
  %c10 = arith.constant 10 : i64
  %0 = arith.subi %x, %c3 overflow<nsw> : i64
  %1 = arith.addi %0, %c10 overflow<nsw> : i64
  %2 = arith.subi %c3, %x overflow<nuw> : i64
  %3 = arith.addi %2, %c10 overflow<nsw> : i64
  %c100 = arith.constant 100 : i8
  %c120 = arith.constant 120 : i8
  %4 = arith.subi %c100, %y : i8
  %5 = arith.addi %4, %c120 : i8
  return %1, %3, %5 : i64, i64, i8
}

// -----

// CHECK-LABEL: func.func @addi_mul_minus_one(
//  CHECK-NEXT:   %0 = arith.subi %arg0, %arg1 : i32
//  CHECK-NEXT:   %1 = arith.subi %arg1, %arg0 : i32
//  CHECK-NEXT:   %2 = arith.subi %arg2, %arg3 : vector<4xi16>
//  CHECK-NEXT:   return %0, %1, %2 : i32, i32, vector<4xi16>
func.func @addi_mul_minus_one(%x: i32, %y: i32, %a: vector<4xi16>, %b: vector<4xi16>) -> (i32, i32, vector<4xi16>) {
  %m1 = arith.constant -1 : i32
  %0 = arith.muli %y, %m1 overflow<nsw> : i32
  %1 = arith.addi %x, %0 overflow<nsw> : i32
  %2 = arith.muli %x, %m1 : i32
  %3 = arith.addi %2, %y : i32
  %vm1 = arith.constant dense<-1> : vector<4xi16>
  %4 = arith.muli %b, %vm1 : vector<4xi16>
  %5 = arith.addi %a, %4 : vector<4xi16>
  return %1, %3, %5 : i32, i32, vector<4xi16>
}

// -----

// CHECK-LABEL: func.func @subi_const(
//  CHECK-NEXT:   %c13_i32 = arith.constant 13 : i32
//  CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
//  CHECK-NEXT:   %c-7_i32 = arith.constant -7 : i32
//  CHECK-NEXT:   %0 = arith.addi %arg0, %c-7_i32 : i32
//  CHECK-NEXT:   %1 = arith.subi %c7_i32, %arg0 overflow<nuw> : i32
//  CHECK-NEXT:   %2 = arith.subi %arg0, %c13_i32 overflow<nsw> : i32
//  CHECK-NEXT:   %3 = arith.subi %c-7_i32, %arg0 : i32
//  CHECK-NEXT:   %4 = arith.subi %c13_i32, %arg0 : i32
//  CHECK-NEXT:   %5 = arith.addi %arg0, %c7_i32 overflow<nsw> : i32
//  CHECK-NEXT:   return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
func.func @subi_const(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %0 = arith.addi %x, %c3 overflow<nsw> : i32
  %1 = arith.subi %0, %c10 overflow<nsw> : i32
  %2 = arith.addi %x, %c3 overflow<nuw> : i32
  %3 = arith.subi %c10, %2 overflow<nuw> : i32
  %4 = arith.subi %x, %c3 overflow<nsw> : i32
  %5 = arith.subi %4, %c10 overflow<nsw, nuw> : i32
  %6 = arith.subi %c3, %x : i32
  %7 = arith.subi %6, %c10 : i32
  %8 = arith.subi %x, %c3 : i32
  %9 = arith.subi %c10, %8 : i32
  %10 = arith.subi %c3, %x overflow<nsw> : i32
  %11 = arith.subi %c10, %10 overflow<nsw> : i32
  return %1, %3, %5, %7, %9, %11 : i32, i32, i32, i32, i32, i32
}

// -----

// subi(subi(a, b), a) -> subi(0, b); not for a dynamic shape (no zero constant).
// CHECK-LABEL: func.func @subi_sub_lhs(
//  CHECK-NEXT:   %cst = arith.constant dense<0> : vector<4xi32>
//  CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
//  CHECK-NEXT:   %0 = arith.subi %c0_i32, %arg1 overflow<nsw> : i32
//  CHECK-NEXT:   %1 = arith.subi %cst, %arg3 : vector<4xi32>
//  CHECK-NEXT:   %2 = arith.subi %arg4, %arg5 : tensor<?xi32>
//  CHECK-NEXT:   %3 = arith.subi %2, %arg4 : tensor<?xi32>
//  CHECK-NEXT:   return %0, %1, %3 : i32, vector<4xi32>, tensor<?xi32>
func.func @subi_sub_lhs(%a: i32, %b: i32, %v: vector<4xi32>, %w: vector<4xi32>, %t: tensor<?xi32>, %u: tensor<?xi32>) -> (i32, vector<4xi32>, tensor<?xi32>) {
  %0 = arith.subi %a, %b overflow<nsw> : i32
  %1 = arith.subi %0, %a overflow<nsw> : i32
  %2 = arith.subi %v, %w : vector<4xi32>
  %3 = arith.subi %2, %v : vector<4xi32>
  %4 = arith.subi %t, %u : tensor<?xi32>
  %5 = arith.subi %4, %t : tensor<?xi32>
  return %1, %3, %5 : i32, vector<4xi32>, tensor<?xi32>
}

// -----

// CHECK-LABEL: func.func @muli_mul_const(
//  CHECK-NEXT:   %cst = arith.constant dense<5> : vector<4xi16>
//  CHECK-NEXT:   %cst_0 = arith.constant dense<3> : vector<4xi16>
//  CHECK-NEXT:   %c63_i16 = arith.constant 63 : i16
//  CHECK-NEXT:   %0 = arith.muli %arg0, %c63_i16 overflow<nsw> : i16
//  CHECK-NEXT:   %1 = arith.muli %arg1, %cst_0 : vector<4xi16>
//  CHECK-NEXT:   %2 = arith.muli %1, %cst : vector<4xi16>
//  CHECK-NEXT:   return %0, %2 : i16, vector<4xi16>
func.func @muli_mul_const(%x: i16, %v: vector<4xi16>) -> (i16, vector<4xi16>) {
  %c7 = arith.constant 7 : i16
  %c9 = arith.constant 9 : i16
  %0 = arith.muli %x, %c7 overflow<nsw> : i16
  %1 = arith.muli %0, %c9 overflow<nsw, nuw> : i16
  %v3 = arith.constant dense<3> : vector<4xi16>
  %v5 = arith.constant dense<5> : vector<4xi16>
  %2 = arith.muli %v, %v3 : vector<4xi16>
  %3 = arith.muli %2, %v5 : vector<4xi16>
  return %1, %3 : i16, vector<4xi16>
}

// -----

// The extended ops with an unused second result are the plain ops.
// CHECK-LABEL: func.func @extended_unused(
//  CHECK-NEXT:   %0 = arith.addi %arg0, %arg1 : i32
//  CHECK-NEXT:   %1 = arith.subi %arg0, %arg1 : i32
//  CHECK-NEXT:   %2 = arith.muli %arg0, %arg1 : i32
//  CHECK-NEXT:   %3 = arith.muli %arg0, %arg1 : i32
//  CHECK-NEXT:   %sum, %overflow = arith.addui_extended %0, %arg1 : i32, i1
//  CHECK-NEXT:   return %0, %1, %2, %3, %overflow : i32, i32, i32, i32, i1
func.func @extended_unused(%x: i32, %y: i32) -> (i32, i32, i32, i32, i1) {
  %s, %o = arith.addui_extended %x, %y : i32, i1
  %d, %b = arith.subui_extended %x, %y : i32, i1
  %l, %h = arith.mulsi_extended %x, %y : i32
  %l2, %h2 = arith.mului_extended %x, %y : i32
  %s3, %o3 = arith.addui_extended %s, %y : i32, i1
  return %s, %d, %l, %l2, %o3 : i32, i32, i32, i32, i1
}

// -----

// mulsi_extended(x, 1): the high half is the sign; not for i1, where 1 is -1.
// CHECK-LABEL: func.func @mulsi_extended_one(
//  CHECK-NEXT:   %c0_i64 = arith.constant 0 : i64
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %cst = arith.constant dense<0> : vector<4xi32>
//  CHECK-NEXT:   %0 = arith.cmpi slt, %arg0, %cst : vector<4xi32>
//  CHECK-NEXT:   %1 = arith.extsi %0 : vector<4xi1> to vector<4xi32>
//  CHECK-NEXT:   %low, %high = arith.mulsi_extended %arg1, %true : i1
//  CHECK-NEXT:   %2 = arith.cmpi slt, %arg2, %c0_i64 : i64
//  CHECK-NEXT:   %3 = arith.extsi %2 : i1 to i64
//  CHECK-NEXT:   return %arg0, %1, %low, %high, %3 : vector<4xi32>, vector<4xi32>, i1, i1, i64
func.func @mulsi_extended_one(%x: vector<4xi32>, %y: i1, %z: i64) -> (vector<4xi32>, vector<4xi32>, i1, i1, i64) {
  %c1 = arith.constant dense<1> : vector<4xi32>
  %lo, %hi = arith.mulsi_extended %x, %c1 : vector<4xi32>
  %t = arith.constant true
  %l2, %h2 = arith.mulsi_extended %y, %t : i1
  %one = arith.constant 1 : i64
  %l3, %h3 = arith.mulsi_extended %z, %one : i64
  return %lo, %hi, %l2, %h2, %h3 : vector<4xi32>, vector<4xi32>, i1, i1, i64
}

// -----

// CHECK-LABEL: func.func @bitwise_const(
//  CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
//  CHECK-NEXT:   %c1_i32 = arith.constant 1 : i32
//  CHECK-NEXT:   %cst = arith.constant dense<5> : vector<4xi32>
//  CHECK-NEXT:   %cst_0 = arith.constant dense<3> : vector<4xi32>
//  CHECK-NEXT:   %c6_i32 = arith.constant 6 : i32
//  CHECK-NEXT:   %0 = arith.xori %arg0, %c6_i32 : i32
//  CHECK-NEXT:   %1 = arith.andi %arg0, %c1_i32 : i32
//  CHECK-NEXT:   %2 = arith.ori %arg0, %c7_i32 : i32
//  CHECK-NEXT:   %3 = arith.xori %arg1, %cst_0 : vector<4xi32>
//  CHECK-NEXT:   %4 = arith.xori %3, %cst : vector<4xi32>
//  CHECK-NEXT:   return %0, %1, %2, %4 : i32, i32, i32, vector<4xi32>
func.func @bitwise_const(%x: i32, %v: vector<4xi32>) -> (i32, i32, i32, vector<4xi32>) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.xori %x, %c3 : i32
  %1 = arith.xori %0, %c5 : i32
  %2 = arith.andi %x, %c3 : i32
  %3 = arith.andi %2, %c5 : i32
  %4 = arith.ori %x, %c3 : i32
  %5 = arith.ori %4, %c5 : i32
  %v3 = arith.constant dense<3> : vector<4xi32>
  %v5 = arith.constant dense<5> : vector<4xi32>
  %6 = arith.xori %v, %v3 : vector<4xi32>
  %7 = arith.xori %6, %v5 : vector<4xi32>
  return %1, %3, %5, %7 : i32, i32, i32, vector<4xi32>
}

// -----

// CHECK-LABEL: func.func @xori_not_cmpi(
//  CHECK-NEXT:   %cst = arith.constant dense<true> : vector<4xi1>
//  CHECK-NEXT:   %0 = arith.cmpi sge, %arg0, %arg1 : i32
//  CHECK-NEXT:   %1 = arith.cmpi ult, %arg0, %arg1 : i32
//  CHECK-NEXT:   %2 = arith.cmpi ne, %arg0, %arg1 : i32
//  CHECK-NEXT:   %3 = arith.cmpi sle, %arg2, %arg3 : vector<4xi32>
//  CHECK-NEXT:   %4 = arith.xori %3, %cst : vector<4xi1>
//  CHECK-NEXT:   return %0, %1, %2, %4 : i1, i1, i1, vector<4xi1>
func.func @xori_not_cmpi(%a: i32, %b: i32, %v: vector<4xi32>, %w: vector<4xi32>) -> (i1, i1, i1, vector<4xi1>) {
  %true = arith.constant true
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %true : i1
  %2 = arith.cmpi uge, %a, %b : i32
  %3 = arith.xori %true, %2 : i1
  %4 = arith.cmpi eq, %a, %b : i32
  %5 = arith.xori %4, %true : i1
  %vt = arith.constant dense<true> : vector<4xi1>
  %6 = arith.cmpi sle, %v, %w : vector<4xi32>
  %7 = arith.xori %6, %vt : vector<4xi1>
  return %1, %3, %5, %7 : i1, i1, i1, vector<4xi1>
}

// -----

// and/or/xor of two equal extensions narrow; nneg stays only if both had it.
// CHECK-LABEL: func.func @bitwise_of_ext(
//  CHECK-NEXT:   %0 = arith.extui %arg0 nneg : i8 to i32
//  CHECK-NEXT:   %1 = arith.extsi %arg0 : i8 to i32
//  CHECK-NEXT:   %2 = arith.extui %arg2 : i16 to i32
//  CHECK-NEXT:   %3 = arith.andi %arg0, %arg1 : i8
//  CHECK-NEXT:   %4 = arith.extui %3 nneg : i8 to i32
//  CHECK-NEXT:   %5 = arith.andi %arg0, %arg1 : i8
//  CHECK-NEXT:   %6 = arith.extsi %5 : i8 to i32
//  CHECK-NEXT:   %7 = arith.ori %arg0, %arg1 : i8
//  CHECK-NEXT:   %8 = arith.extui %7 : i8 to i32
//  CHECK-NEXT:   %9 = arith.ori %arg0, %arg1 : i8
//  CHECK-NEXT:   %10 = arith.extsi %9 : i8 to i32
//  CHECK-NEXT:   %11 = arith.xori %arg0, %arg1 : i8
//  CHECK-NEXT:   %12 = arith.extui %11 nneg : i8 to i32
//  CHECK-NEXT:   %13 = arith.xori %arg0, %arg1 : i8
//  CHECK-NEXT:   %14 = arith.extsi %13 : i8 to i32
//  CHECK-NEXT:   %15 = arith.andi %0, %2 : i32
//  CHECK-NEXT:   %16 = arith.ori %0, %1 : i32
//  CHECK-NEXT:   return %4, %6, %8, %10, %12, %14, %15, %16 : i32, i32, i32, i32, i32, i32, i32, i32
func.func @bitwise_of_ext(%x: i8, %y: i8, %z: i16) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %0 = arith.extui %x nneg : i8 to i32
  %1 = arith.extui %y nneg : i8 to i32
  %2 = arith.extui %y : i8 to i32
  %3 = arith.extsi %x : i8 to i32
  %4 = arith.extsi %y : i8 to i32
  %5 = arith.extui %z : i16 to i32
  %6 = arith.andi %0, %1 : i32
  %7 = arith.andi %3, %4 : i32
  %8 = arith.ori %0, %2 : i32
  %9 = arith.ori %3, %4 : i32
  %10 = arith.xori %0, %1 : i32
  %11 = arith.xori %3, %4 : i32
  %12 = arith.andi %0, %5 : i32
  %13 = arith.ori %0, %3 : i32
  return %6, %7, %8, %9, %10, %11, %12, %13 : i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @cmpi_of_ext(
//  CHECK-NEXT:   %0 = arith.extsi %arg0 : i8 to i64
//  CHECK-NEXT:   %1 = arith.extsi %arg1 : i8 to i64
//  CHECK-NEXT:   %2 = arith.cmpi ne, %arg0, %arg1 : i8
//  CHECK-NEXT:   %3 = arith.extui %arg1 : i8 to i64
//  CHECK-NEXT:   %4 = arith.cmpi eq, %arg0, %arg1 : i8
//  CHECK-NEXT:   %5 = arith.cmpi slt, %0, %1 : i64
//  CHECK-NEXT:   %6 = arith.extsi %arg2 : i16 to i64
//  CHECK-NEXT:   %7 = arith.cmpi eq, %0, %6 : i64
//  CHECK-NEXT:   %8 = arith.cmpi eq, %0, %3 : i64
//  CHECK-NEXT:   return %2, %4, %5, %7, %8 : i1, i1, i1, i1, i1
func.func @cmpi_of_ext(%a: i8, %b: i8, %c: i16) -> (i1, i1, i1, i1, i1) {
  %0 = arith.extsi %a : i8 to i64
  %1 = arith.extsi %b : i8 to i64
  %2 = arith.cmpi ne, %0, %1 : i64
  %3 = arith.extui %a : i8 to i64
  %4 = arith.extui %b : i8 to i64
  %5 = arith.cmpi eq, %3, %4 : i64
  %6 = arith.cmpi slt, %0, %1 : i64
  %7 = arith.extsi %c : i16 to i64
  %8 = arith.cmpi eq, %0, %7 : i64
  %9 = arith.cmpi eq, %0, %4 : i64
  return %2, %5, %6, %8, %9 : i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @addf_of_negf(
//  CHECK-NEXT:   %0 = arith.negf %arg0 fastmath<nnan> : f32
//  CHECK-NEXT:   %1 = arith.subf %arg1, %arg0 fastmath<fast> : f32
//  CHECK-NEXT:   %2 = arith.subf %arg0, %arg1 upward fastmath<nsz> : f32
//  CHECK-NEXT:   %3 = arith.subf %0, %arg1 : f32
//  CHECK-NEXT:   %4 = arith.addf %arg0, %arg1 : f32
//  CHECK-NEXT:   return %1, %2, %3, %4 : f32, f32, f32, f32
func.func @addf_of_negf(%x: f32, %y: f32) -> (f32, f32, f32, f32) {
  %0 = arith.negf %x fastmath<nnan> : f32
  %1 = arith.addf %0, %y fastmath<fast> : f32
  %2 = arith.negf %y : f32
  %3 = arith.addf %x, %2 upward fastmath<nsz> : f32
  %4 = arith.addf %2, %0 : f32
  %5 = arith.addf %x, %y : f32
  return %1, %3, %4, %5 : f32, f32, f32, f32
}

// -----

// subf(-0.0, x) -> negf(x), only without a rounding mode; subf(+0.0, x) stays.
// CHECK-LABEL: func.func @subf_neg_zero(
//  CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:   %cst_0 = arith.constant -0.000000e+00 : f32
//  CHECK-NEXT:   %0 = arith.negf %arg0 fastmath<nsz> : f32
//  CHECK-NEXT:   %1 = arith.negf %arg1 : vector<4xf64>
//  CHECK-NEXT:   %2 = arith.subf %cst, %arg0 : f32
//  CHECK-NEXT:   %3 = arith.subf %cst_0, %arg0 downward : f32
//  CHECK-NEXT:   return %0, %1, %2, %3 : f32, vector<4xf64>, f32, f32
func.func @subf_neg_zero(%x: f32, %v: vector<4xf64>) -> (f32, vector<4xf64>, f32, f32) {
  %c = arith.constant -0.0 : f32
  %0 = arith.subf %c, %x fastmath<nsz> : f32
  %cv = arith.constant dense<-0.0> : vector<4xf64>
  %1 = arith.subf %cv, %v : vector<4xf64>
  %c0 = arith.constant 0.0 : f32
  %2 = arith.subf %c0, %x : f32
  %3 = arith.subf %c, %x downward : f32
  return %0, %1, %2, %3 : f32, vector<4xf64>, f32, f32
}

// -----

// CHECK-LABEL: func.func @mulf_divf_of_negf(
//  CHECK-NEXT:   %0 = arith.negf %arg0 fastmath<nnan> : f32
//  CHECK-NEXT:   %1 = arith.negf %arg1 : f32
//  CHECK-NEXT:   %2 = arith.mulf %arg0, %arg1 fastmath<ninf> : f32
//  CHECK-NEXT:   %3 = arith.divf %arg0, %arg1 fastmath<fast> : f32
//  CHECK-NEXT:   %4 = arith.mulf %0, %1 to_nearest_even : f32
//  CHECK-NEXT:   %5 = arith.divf %0, %1 upward : f32
//  CHECK-NEXT:   %6 = arith.mulf %arg0, %arg0 : f32
//  CHECK-NEXT:   return %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32
func.func @mulf_divf_of_negf(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32) {
  %0 = arith.negf %x fastmath<nnan> : f32
  %1 = arith.negf %y : f32
  %2 = arith.mulf %0, %1 fastmath<ninf> : f32
  %3 = arith.divf %0, %1 fastmath<fast> : f32
  %4 = arith.mulf %0, %1 to_nearest_even : f32
  %5 = arith.divf %0, %1 upward : f32
  %6 = arith.mulf %0, %0 : f32
  return %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @ext_and_trunc(
//  CHECK-NEXT:   %0 = arith.extui %arg0 nneg : i8 to i64
//  CHECK-NEXT:   %1 = arith.extui %arg0 : i8 to i64
//  CHECK-NEXT:   %2 = arith.extsi %arg0 : i8 to i32
//  CHECK-NEXT:   %3 = arith.extui %arg0 nneg : i8 to i16
//  CHECK-NEXT:   %4 = arith.trunci %arg1 : i32 to i16
//  CHECK-NEXT:   return %0, %1, %2, %3, %4, %arg0 : i64, i64, i32, i16, i16, i8
func.func @ext_and_trunc(%x: i8, %y: i32, %z: i64) -> (i64, i64, i32, i16, i16, i8) {
  %0 = arith.extui %x nneg : i8 to i32
  %1 = arith.extsi %0 : i32 to i64
  %2 = arith.extui %x : i8 to i32
  %3 = arith.extsi %2 : i32 to i64
  %4 = arith.extsi %x : i8 to i64
  %5 = arith.trunci %4 overflow<nsw> : i64 to i32
  %6 = arith.extui %x nneg : i8 to i64
  %7 = arith.trunci %6 : i64 to i16
  %8 = arith.extsi %y : i32 to i64
  %9 = arith.trunci %8 : i64 to i16
  %10 = arith.trunci %6 : i64 to i8
  return %1, %3, %5, %7, %9, %10 : i64, i64, i32, i16, i16, i8
}

// -----

// trunci(shrsi(x, c)) -> trunci(shrui(x, c)) when c is the number of dropped bits.
// CHECK-LABEL: func.func @trunci_shrsi(
//  CHECK-NEXT:   %cst = arith.constant dense<16> : vector<4xi32>
//  CHECK-NEXT:   %c15_i32 = arith.constant 15 : i32
//  CHECK-NEXT:   %c16_i32 = arith.constant 16 : i32
//  CHECK-NEXT:   %0 = arith.shrui %arg0, %c16_i32 exact : i32
//  CHECK-NEXT:   %1 = arith.trunci %0 overflow<nuw> : i32 to i16
//  CHECK-NEXT:   %2 = arith.shrsi %arg0, %c15_i32 : i32
//  CHECK-NEXT:   %3 = arith.trunci %2 : i32 to i16
//  CHECK-NEXT:   %4 = arith.shrui %arg1, %cst : vector<4xi32>
//  CHECK-NEXT:   %5 = arith.trunci %4 : vector<4xi32> to vector<4xi16>
//  CHECK-NEXT:   return %1, %3, %5 : i16, i16, vector<4xi16>
func.func @trunci_shrsi(%x: i32, %v: vector<4xi32>) -> (i16, i16, vector<4xi16>) {
  %c16 = arith.constant 16 : i32
  %0 = arith.shrsi %x, %c16 exact : i32
  %1 = arith.trunci %0 overflow<nuw> : i32 to i16
  %c15 = arith.constant 15 : i32
  %2 = arith.shrsi %x, %c15 : i32
  %3 = arith.trunci %2 : i32 to i16
  %vc = arith.constant dense<16> : vector<4xi32>
  %4 = arith.shrsi %v, %vc : vector<4xi32>
  %5 = arith.trunci %4 : vector<4xi32> to vector<4xi16>
  return %1, %3, %5 : i16, i16, vector<4xi16>
}

// -----

// trunc(max/min(ext a, ext b)) -> max/min(a, b): one use, the narrow type, the
// matching extension; for floats only with nnan.
// CHECK-LABEL: func.func @narrow_int_extremum(
//  CHECK-NEXT:   %0 = arith.extsi %arg0 : i8 to i32
//  CHECK-NEXT:   %1 = arith.extsi %arg1 : i8 to i32
//  CHECK-NEXT:   %2 = arith.maxsi %arg0, %arg1 : i8
//  CHECK-NEXT:   %3 = arith.extui %arg0 : i8 to i32
//  CHECK-NEXT:   %4 = arith.extui %arg1 : i8 to i32
//  CHECK-NEXT:   %5 = arith.minui %arg0, %arg1 : i8
//  CHECK-NEXT:   %6 = arith.minsi %0, %1 : i32
//  CHECK-NEXT:   %7 = arith.trunci %6 : i32 to i16
//  CHECK-NEXT:   %8 = arith.maxui %0, %1 : i32
//  CHECK-NEXT:   %9 = arith.trunci %8 : i32 to i8
//  CHECK-NEXT:   %10 = arith.extsi %arg2 : i16 to i32
//  CHECK-NEXT:   %11 = arith.maxsi %0, %10 : i32
//  CHECK-NEXT:   %12 = arith.trunci %11 : i32 to i8
//  CHECK-NEXT:   %13 = arith.maxui %3, %4 : i32
//  CHECK-NEXT:   %14 = arith.trunci %13 : i32 to i8
//  CHECK-NEXT:   %15 = arith.minsi %arg3, %arg4 : vector<4xi8>
//  CHECK-NEXT:   return %2, %5, %7, %9, %12, %14, %15, %13 : i8, i8, i16, i8, i8, i8, vector<4xi8>, i32
func.func @narrow_int_extremum(%a: i8, %b: i8, %c: i16, %va: vector<4xi8>, %vb: vector<4xi8>) -> (i8, i8, i16, i8, i8, i8, vector<4xi8>, i32) {
  %0 = arith.extsi %a : i8 to i32
  %1 = arith.extsi %b : i8 to i32
  %2 = arith.maxsi %0, %1 : i32
  %3 = arith.trunci %2 overflow<nsw> : i32 to i8
  %4 = arith.extui %a : i8 to i32
  %5 = arith.extui %b : i8 to i32
  %6 = arith.minui %4, %5 : i32
  %7 = arith.trunci %6 : i32 to i8
  %8 = arith.minsi %0, %1 : i32
  %9 = arith.trunci %8 : i32 to i16
  %10 = arith.maxui %0, %1 : i32
  %11 = arith.trunci %10 : i32 to i8
  %12 = arith.extsi %c : i16 to i32
  %13 = arith.maxsi %0, %12 : i32
  %14 = arith.trunci %13 : i32 to i8
  %15 = arith.maxui %4, %5 : i32
  %16 = arith.trunci %15 : i32 to i8
  %17 = arith.extsi %va : vector<4xi8> to vector<4xi32>
  %18 = arith.extsi %vb : vector<4xi8> to vector<4xi32>
  %19 = arith.minsi %17, %18 : vector<4xi32>
  %20 = arith.trunci %19 : vector<4xi32> to vector<4xi8>
  return %3, %7, %9, %11, %14, %16, %20, %15 : i8, i8, i16, i8, i8, i8, vector<4xi8>, i32
}

// -----

// CHECK-LABEL: func.func @narrow_float_extremum(
//  CHECK-NEXT:   %0 = arith.extf %arg0 : f16 to f32
//  CHECK-NEXT:   %1 = arith.extf %arg1 : f16 to f32
//  CHECK-NEXT:   %2 = arith.maximumf %arg0, %arg1 fastmath<nnan> : f16
//  CHECK-NEXT:   %3 = arith.minnumf %arg0, %arg1 fastmath<fast> : f16
//  CHECK-NEXT:   %4 = arith.maxnumf %0, %1 fastmath<ninf,nsz> : f32
//  CHECK-NEXT:   %5 = arith.truncf %4 : f32 to f16
//  CHECK-NEXT:   %6 = arith.extf %arg2 : bf16 to f32
//  CHECK-NEXT:   %7 = arith.minimumf %0, %6 fastmath<nnan> : f32
//  CHECK-NEXT:   %8 = arith.truncf %7 : f32 to f16
//  CHECK-NEXT:   %9 = arith.minimumf %arg0, %arg1 fastmath<nnan> : f16
//  CHECK-NEXT:   %10 = arith.extf %arg0 : f16 to f64
//  CHECK-NEXT:   %11 = arith.extf %arg1 : f16 to f64
//  CHECK-NEXT:   %12 = arith.maxnumf %10, %11 fastmath<nnan> : f64
//  CHECK-NEXT:   %13 = arith.truncf %12 : f64 to f32
//  CHECK-NEXT:   return %2, %3, %5, %8, %9, %13 : f16, f16, f16, f16, f16, f32
func.func @narrow_float_extremum(%a: f16, %b: f16, %c: bf16) -> (f16, f16, f16, f16, f16, f32) {
  %0 = arith.extf %a : f16 to f32
  %1 = arith.extf %b : f16 to f32
  %2 = arith.maximumf %0, %1 fastmath<nnan> : f32
  %3 = arith.truncf %2 : f32 to f16
  %4 = arith.minnumf %0, %1 fastmath<fast> : f32
  %5 = arith.truncf %4 upward : f32 to f16
  %6 = arith.maxnumf %0, %1 fastmath<ninf,nsz> : f32
  %7 = arith.truncf %6 : f32 to f16
  %8 = arith.extf %c : bf16 to f32
  %9 = arith.minimumf %0, %8 fastmath<nnan> : f32
  %10 = arith.truncf %9 : f32 to f16
  %11 = arith.minimumf %0, %1 fastmath<nnan> : f32
  %12 = arith.truncf %11 : f32 to f16
  %13 = arith.extf %a : f16 to f64
  %14 = arith.extf %b : f16 to f64
  %15 = arith.maxnumf %13, %14 fastmath<nnan> : f64
  %16 = arith.truncf %15 : f64 to f32
  return %3, %5, %7, %10, %12, %16 : f16, f16, f16, f16, f16, f32
}

// -----

// truncf(sitofp/uitofp(x)) -> one conversion, only without a rounding mode.
// CHECK-LABEL: func.func @truncf_of_int_to_fp(
//  CHECK-NEXT:   %0 = arith.sitofp %arg0 : i32 to f32
//  CHECK-NEXT:   %1 = arith.sitofp %arg0 : i32 to f16
//  CHECK-NEXT:   %2 = arith.uitofp %arg0 nneg : i32 to f16
//  CHECK-NEXT:   %3 = arith.truncf %0 to_nearest_even : f32 to f16
//  CHECK-NEXT:   return %1, %2, %3 : f16, f16, f16
func.func @truncf_of_int_to_fp(%x: i32) -> (f16, f16, f16) {
  %0 = arith.sitofp %x : i32 to f32
  %1 = arith.truncf %0 fastmath<fast> : f32 to f16
  %2 = arith.uitofp %x nneg : i32 to f32
  %3 = arith.truncf %2 : f32 to f16
  %4 = arith.truncf %0 to_nearest_even : f32 to f16
  return %1, %3, %4 : f16, f16, f16
}

// -----

// CHECK-LABEL: func.func @int_to_fp_of_ext(
//  CHECK-NEXT:   %0 = arith.uitofp %arg0 nneg : i8 to f32
//  CHECK-NEXT:   %1 = arith.uitofp %arg0 : i8 to f32
//  CHECK-NEXT:   %2 = arith.uitofp %arg0 nneg : i8 to f32
//  CHECK-NEXT:   %3 = arith.extsi %arg0 : i8 to i64
//  CHECK-NEXT:   %4 = arith.sitofp %arg0 : i8 to f32
//  CHECK-NEXT:   %5 = arith.uitofp %3 : i64 to f32
//  CHECK-NEXT:   return %0, %1, %2, %4, %5 : f32, f32, f32, f32, f32
func.func @int_to_fp_of_ext(%x: i8) -> (f32, f32, f32, f32, f32) {
  %0 = arith.extui %x nneg : i8 to i32
  %1 = arith.uitofp %0 : i32 to f32
  %2 = arith.extui %x : i8 to i32
  %3 = arith.uitofp %2 nneg : i32 to f32
  %4 = arith.sitofp %0 : i32 to f32
  %5 = arith.extsi %x : i8 to i64
  %6 = arith.sitofp %5 : i64 to f32
  %7 = arith.uitofp %5 : i64 to f32
  return %1, %3, %4, %6, %7 : f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @index_cast_of_ext(
//  CHECK-NEXT:   %0 = arith.index_cast %arg0 : i8 to index
//  CHECK-NEXT:   %1 = arith.extui %arg0 nneg : i8 to i32
//  CHECK-NEXT:   %2 = arith.index_castui %arg0 nneg : i8 to index
//  CHECK-NEXT:   %3 = arith.index_cast %1 : i32 to index
//  CHECK-NEXT:   %4 = arith.index_cast %arg1 : vector<4xi16> to vector<4xindex>
//  CHECK-NEXT:   return %0, %2, %3, %4 : index, index, index, vector<4xindex>
func.func @index_cast_of_ext(%x: i8, %v: vector<4xi16>) -> (index, index, index, vector<4xindex>) {
  %0 = arith.extsi %x : i8 to i32
  %1 = arith.index_cast %0 : i32 to index
  %2 = arith.extui %x nneg : i8 to i32
  %3 = arith.index_castui %2 : i32 to index
  %4 = arith.index_cast %2 : i32 to index
  %5 = arith.extsi %v : vector<4xi16> to vector<4xi64>
  %6 = arith.index_cast %5 : vector<4xi64> to vector<4xindex>
  return %1, %3, %4, %6 : index, index, index, vector<4xindex>
}

// -----

// CHECK-LABEL: func.func @bitcast_of_bitcast(
//  CHECK-NEXT:   %0 = arith.bitcast %arg0 : i32 to f32
//  CHECK-NEXT:   return %arg0, %arg1, %0 : i32, vector<4xf32>, f32
func.func @bitcast_of_bitcast(%x: i32, %v: vector<4xf32>) -> (i32, vector<4xf32>, f32) {
  %0 = arith.bitcast %x : i32 to f32
  %1 = arith.bitcast %0 : f32 to i32
  %2 = arith.bitcast %v : vector<4xf32> to vector<4xi32>
  %3 = arith.bitcast %2 : vector<4xi32> to vector<4xf32>
  return %1, %3, %0 : i32, vector<4xf32>, f32
}

// -----

// select patterns: redundant nested selects, a negated condition, i1 and integer
// selects of constants, selects of comparisons that are min/max.
// CHECK-LABEL: func.func @select_nested(
//  CHECK-NEXT:   %0 = arith.select %arg0, %arg1, %arg3 : i32
//  CHECK-NEXT:   %1 = arith.select %arg0, %arg3, %arg2 : i32
//  CHECK-NEXT:   %2 = arith.select %arg0, %arg2, %arg1 : i32
//  CHECK-NEXT:   %3 = arith.select %arg0, %arg2, %arg1 : i32
//  CHECK-NEXT:   return %0, %1, %2, %3 : i32, i32, i32, i32
func.func @select_nested(%c: i1, %x: i32, %y: i32, %z: i32) -> (i32, i32, i32, i32) {
  %0 = arith.select %c, %x, %y : i32
  %1 = arith.select %c, %0, %z : i32
  %2 = arith.select %c, %z, %0 : i32
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  %3 = arith.select %n, %x, %y : i32
  %4 = arith.xori %true, %c : i1
  %5 = arith.select %4, %x, %y : i32
  return %1, %2, %3, %5 : i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @select_of_constants(
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %cst = arith.constant dense<0> : vector<4xi32>
//  CHECK-NEXT:   %cst_0 = arith.constant dense<1> : vector<4xi32>
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %c1 = arith.constant 1 : index
//  CHECK-NEXT:   %0 = arith.extui %arg0 : i1 to i64
//  CHECK-NEXT:   %1 = arith.xori %arg0, %true : i1
//  CHECK-NEXT:   %2 = arith.extui %1 : i1 to i64
//  CHECK-NEXT:   %3 = arith.select %arg0, %c1, %c0 : index
//  CHECK-NEXT:   %4 = arith.xori %arg0, %true : i1
//  CHECK-NEXT:   %5 = arith.select %arg0, %cst_0, %cst : vector<4xi32>
//  CHECK-NEXT:   return %0, %2, %3, %4, %arg0, %5 : i64, i64, index, i1, i1, vector<4xi32>
func.func @select_of_constants(%c: i1) -> (i64, i64, index, i1, i1, vector<4xi32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %0 = arith.select %c, %c1, %c0 : i64
  %1 = arith.select %c, %c0, %c1 : i64
  %i1 = arith.constant 1 : index
  %i0 = arith.constant 0 : index
  %2 = arith.select %c, %i1, %i0 : index
  %true = arith.constant true
  %false = arith.constant false
  %3 = arith.select %c, %false, %true : i1
  %4 = arith.select %c, %true, %false : i1
  %v1 = arith.constant dense<1> : vector<4xi32>
  %v0 = arith.constant dense<0> : vector<4xi32>
  %5 = arith.select %c, %v1, %v0 : vector<4xi32>
  return %0, %1, %2, %3, %4, %5 : i64, i64, index, i1, i1, vector<4xi32>
}

// -----

// CHECK-LABEL: func.func @select_cmp_min_max(
//  CHECK-NEXT:   %c10_i32 = arith.constant 10 : i32
//  CHECK-NEXT:   %0 = arith.maxsi %arg0, %arg1 : i32
//  CHECK-NEXT:   %1 = arith.minsi %arg0, %arg1 : i32
//  CHECK-NEXT:   %2 = arith.cmpi slt, %arg0, %arg1 : i32
//  CHECK-NEXT:   %3 = arith.minsi %arg0, %arg1 : i32
//  CHECK-NEXT:   %4 = arith.maxsi %arg0, %arg1 : i32
//  CHECK-NEXT:   %5 = arith.maxui %arg2, %arg3 : vector<4xi32>
//  CHECK-NEXT:   %6 = arith.maxui %arg4, %arg5 : index
//  CHECK-NEXT:   %7 = arith.maxsi %arg0, %c10_i32 : i32
//  CHECK-NEXT:   return %0, %1, %3, %4, %5, %6, %7, %arg1, %2 : i32, i32, i32, i32, vector<4xi32>, index, i32, i32, i1
func.func @select_cmp_min_max(%a: i32, %b: i32, %va: vector<4xi32>, %vb: vector<4xi32>, %ia: index, %ib: index) -> (i32, i32, i32, i32, vector<4xi32>, index, i32, i32, i1) {
  %0 = arith.cmpi sge, %a, %b : i32
  %1 = arith.select %0, %a, %b : i32
  %2 = arith.select %0, %b, %a : i32
  %3 = arith.cmpi slt, %a, %b : i32
  %4 = arith.select %3, %a, %b : i32
  %5 = arith.select %3, %b, %a : i32
  %6 = arith.cmpi ule, %va, %vb : vector<4xi32>
  %7 = arith.select %6, %vb, %va : vector<4xi1>, vector<4xi32>
  %8 = arith.cmpi ugt, %ia, %ib : index
  %9 = arith.select %8, %ia, %ib : index
  %c10 = arith.constant 10 : i32
  %10 = arith.cmpi sgt, %a, %c10 : i32
  %11 = arith.select %10, %a, %c10 : i32
  %12 = arith.cmpi ne, %a, %b : i32
  %13 = arith.select %12, %b, %a : i32
  return %1, %2, %4, %5, %7, %9, %11, %13, %3 : i32, i32, i32, i32, vector<4xi32>, index, i32, i32, i1
}

// -----

// cmpf of an int-to-float conversion and a constant is an integer comparison, or a
// constant when the range of the integer decides it.
// CHECK-LABEL: func.func @cmpf_int_to_fp_const(
//  CHECK-NEXT:   %c-56_i8 = arith.constant -56 : i8
//  CHECK-NEXT:   %true = arith.constant true
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   %c-4_i8 = arith.constant -4 : i8
//  CHECK-NEXT:   %cst = arith.constant 0x4B800000 : f32
//  CHECK-NEXT:   %c4_i8 = arith.constant 4 : i8
//  CHECK-NEXT:   %0 = arith.cmpi slt, %arg0, %c4_i8 : i8
//  CHECK-NEXT:   %1 = arith.cmpi sle, %arg0, %c4_i8 : i8
//  CHECK-NEXT:   %2 = arith.cmpi sge, %arg0, %c-4_i8 : i8
//  CHECK-NEXT:   %3 = arith.cmpi ule, %arg0, %c-56_i8 : i8
//  CHECK-NEXT:   %4 = arith.sitofp %arg1 : i32 to f32
//  CHECK-NEXT:   %5 = arith.cmpf oeq, %4, %cst : f32
//  CHECK-NEXT:   return %0, %1, %2, %false, %false, %true, %true, %3, %5, %true, %true : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @cmpf_int_to_fp_const(%x: i8, %y: i32, %z: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = arith.sitofp %x : i8 to f32
  %c4 = arith.constant 4.0 : f32
  %1 = arith.cmpf olt, %0, %c4 : f32
  %c44 = arith.constant 4.4 : f32
  %2 = arith.cmpf ult, %0, %c44 : f32
  %cm44 = arith.constant -4.4 : f32
  %3 = arith.cmpf oge, %0, %cm44 : f32
  %4 = arith.cmpf oeq, %0, %c44 : f32
  %c200 = arith.constant 200.0 : f32
  %5 = arith.cmpf ogt, %0, %c200 : f32
  %6 = arith.cmpf ord, %0, %c4 : f32
  %7 = arith.uitofp %x : i8 to f32
  %8 = arith.cmpf ugt, %7, %cm44 : f32
  %9 = arith.cmpf ole, %7, %c200 : f32
  %10 = arith.sitofp %y : i32 to f32
  %big = arith.constant 16777217.0 : f32
  %11 = arith.cmpf oeq, %10, %big : f32
  %12 = arith.cmpf one, %10, %c44 : f32
  %13 = arith.sitofp %z : i64 to f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %14 = arith.cmpf olt, %13, %inf : f64
  %nan = arith.constant 0x7FC00000 : f32
  %15 = arith.cmpf uno, %0, %nan : f32
  return %1, %2, %3, %4, %5, %6, %8, %9, %11, %12, %14 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// Casts of constants fold for every float kind, through exact values (f80 and f128
// included), NaN payloads moving with the significand; inexact values, lost payload
// bits and signaling NaNs are left to run.
// CHECK-LABEL: func.func @float_casts_any_kind(
//  CHECK-NEXT:   %cst = arith.constant 0xFFF8000000000000 : f64
//  CHECK-NEXT:   %cst_0 = arith.constant 0x7FFF8000000000000000000000000000 : f128
//  CHECK-NEXT:   %cst_1 = arith.constant 0x7FF8000020000000 : f64
//  CHECK-NEXT:   %c-7_i32 = arith.constant -7 : i32
//  CHECK-NEXT:   %cst_2 = arith.constant 0x7FF4000000000000 : f64
//  CHECK-NEXT:   %cst_3 = arith.constant 0x7FFF8000000000000000000000000001 : f128
//  CHECK-NEXT:   %cst_4 = arith.constant 1.000000e+300 : f80
//  CHECK-NEXT:   %cst_5 = arith.constant dense<[0.000000e+00, 1.000000e+00]> : vector<2xf128>
//  CHECK-NEXT:   %cst_6 = arith.constant 3.500000e+00 : f80
//  CHECK-NEXT:   %0 = arith.truncf %cst_4 : f80 to f64
//  CHECK-NEXT:   %1 = arith.truncf %cst_3 : f128 to f32
//  CHECK-NEXT:   %2 = arith.truncf %cst_2 : f64 to f32
//  CHECK-NEXT:   return %cst_5, %cst_6, %0, %c-7_i32, %cst_1, %cst_0, %cst, %1, %2 : vector<2xf128>, f80, f64, i32, f64, f128, f64, f32, f32
//  CHECK-NEXT: }
func.func @float_casts_any_kind() -> (vector<2xf128>, f80, f64, i32, f64, f128, f64, f32, f32) {
  %v = arith.constant dense<[0.0, 1.0]> : vector<2xf80>
  %0 = arith.extf %v : vector<2xf80> to vector<2xf128>
  %a = arith.constant 3.5 : f128
  %1 = arith.truncf %a : f128 to f80
  %b = arith.constant 1.0e300 : f80
  %2 = arith.truncf %b : f80 to f64
  %c = arith.constant -7.75 : f80
  %3 = arith.fptosi %c : f80 to i32
  %n = arith.constant 0x7FC00001 : f32
  %4 = arith.extf %n : f32 to f64
  %x = arith.constant 0x7FFFC000000000000000 : f80
  %5 = arith.extf %x : f80 to f128
  %y = arith.constant 0xFFFFC000000000000000 : f80
  %6 = arith.truncf %y : f80 to f64
  %p = arith.constant 0x7FFF8000000000000000000000000001 : f128
  %7 = arith.truncf %p : f128 to f32
  %s = arith.constant 0x7FF4000000000000 : f64
  %8 = arith.truncf %s : f64 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : vector<2xf128>, f80, f64, i32, f64, f128, f64, f32, f32
}

// -----

// 0 % x folds to a new zero, 0 / x to the zero operand: the constants end up in
// upstream's order (the folded xori's `false` first here, the zero first below).
// CHECK-LABEL: func.func @rem_of_zero(
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   return %c0, %false : index, i1
func.func @rem_of_zero(%x: index, %b: i1) -> (index, i1) {
  %c0 = arith.constant 0 : index
  %f = arith.xori %b, %b : i1
  %r = arith.remui %c0, %x : index
  return %r, %f : index, i1
}

// CHECK-LABEL: func.func @div_of_zero(
//  CHECK-NEXT:   %c0 = arith.constant 0 : index
//  CHECK-NEXT:   %false = arith.constant false
//  CHECK-NEXT:   return %c0, %false : index, i1
func.func @div_of_zero(%x: index, %b: i1) -> (index, i1) {
  %c0 = arith.constant 0 : index
  %f = arith.xori %b, %b : i1
  %r = arith.divui %c0, %x : index
  return %r, %f : index, i1
}
