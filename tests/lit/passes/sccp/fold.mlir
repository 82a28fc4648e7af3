// RUN: strata-opt %s --sccp --allow-unregistered-dialect | filecheck %s

// Folding: ops fold their operands' constants (and values: x + 0 is x); a fold that
// would change the op in place does not count.

// CHECK-LABEL: func.func @commute(%arg0: i32) -> i32 {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.addi %c1_i32, %arg0 : i32
// CHECK-NEXT: %1 = arith.muli %0, %c1_i32 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @commute(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %c1, %x : i32
  %s = arith.muli %r, %c1 : i32
  return %s : i32
}
// CHECK-LABEL: func.func @tensors() -> (tensor<4xi32>, vector<2xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<[1.000000e+00, 4.000000e+00]> : vector<2xf32>
// CHECK-NEXT: %cst_0 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>
// CHECK-NEXT: %cst_1 = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT: %cst_2 = arith.constant dense<2> : tensor<4xi32>
// CHECK-NEXT: return %cst_1, %cst : tensor<4xi32>, vector<2xf32>
// CHECK-NEXT: }
func.func @tensors() -> (tensor<4xi32>, vector<2xf32>) {
  %a = arith.constant dense<2> : tensor<4xi32>
  %b = arith.addi %a, %a : tensor<4xi32>
  %v = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %w = arith.mulf %v, %v : vector<2xf32>
  return %b, %w : tensor<4xi32>, vector<2xf32>
}
// CHECK-LABEL: func.func @cmp_select(%arg0: i32) -> i32 {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.select %true, %arg0, %c2_i32 : i32
// CHECK-NEXT: %1 = arith.addi %0, %c1_i32 : i32
// CHECK-NEXT: return %1 : i32
// CHECK-NEXT: }
func.func @cmp_select(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %p = arith.cmpi slt, %c1, %c2 : i32
  %s = arith.select %p, %x, %c2 : i32
  %t = arith.select %p, %c1, %c2 : i32
  %u = arith.addi %s, %t : i32
  return %u : i32
}
// CHECK-LABEL: func.func @index_cast() -> (index, i64) {
// CHECK-NEXT: %c3_i64 = arith.constant 3 : i64
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: return %c3, %c3_i64 : index, i64
// CHECK-NEXT: }
func.func @index_cast() -> (index, i64) {
  %c3 = arith.constant 3 : i32
  %i = arith.index_cast %c3 : i32 to index
  %e = arith.extsi %c3 : i32 to i64
  return %i, %e : index, i64
}
// CHECK-LABEL: func.func @nested_in_unknown(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = "test.region"() ({
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: "test.yield"(%c2_i32) : (i32) -> ()
// CHECK-NEXT: }) : () -> i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @nested_in_unknown(%x: i32) -> i32 {
  %r = "test.region"() ({
    %c1 = arith.constant 1 : i32
    %c2 = arith.addi %c1, %c1 : i32
    "test.yield"(%c2) : (i32) -> ()
  }) : () -> i32
  return %r : i32
}
