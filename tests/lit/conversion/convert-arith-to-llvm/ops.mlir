// RUN: strata-opt %s --convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%a: i32, %b: i32, %x: f32, %y: f32, %i: index) -> (i32, f32) {
  // CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
  // CHECK: llvm.add %{{.*}}, %{{.*}} overflow<nsw> : i32
  %0 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK: llvm.sdiv
  %1 = arith.divsi %0, %b : i32
  // CHECK: llvm.fadd %{{.*}}, %{{.*}} fastmath<fast> : f32
  %2 = arith.addf %x, %y fastmath<fast> : f32
  // CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
  %3 = arith.maximumf %2, %y : f32
  // CHECK: llvm.fcmp "ult"
  %4 = arith.cmpf ult, %3, %x : f32
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  %5 = arith.select %4, %2, %3 : f32
  // CHECK: llvm.trunc %[[I]] : i64 to i32
  %6 = arith.index_cast %i : index to i32
  // CHECK: llvm.mlir.constant(5 : i64) : i64
  %c5 = arith.constant 5 : index
  // CHECK: llvm.intr.smax
  %7 = arith.maxsi %6, %1 : i32
  return %7, %5 : i32, f32
}

// CHECK-LABEL: func.func @floordivsi
func.func @floordivsi(%a: i32, %b: i32) -> i32 {
  // CHECK: %[[D:.*]] = llvm.sdiv %arg0, %arg1 : i32
  // CHECK: llvm.mul %[[D]], %arg1 : i32
  // CHECK: llvm.icmp "ne"
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.mlir.constant(-1 : i32) : i32
  // CHECK: llvm.select
  %0 = arith.floordivsi %a, %b : i32
  return %0 : i32
}
