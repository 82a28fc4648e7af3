// RUN: strata-opt %s --split-input-file | filecheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | filecheck %s --check-prefix=GEN
// RUN: strata-opt %s --split-input-file --convert-math-to-llvm | filecheck %s --check-prefix=LLVM

// math.fma takes arith's optional rounding mode between its operands and its fastmath
// flags; it is the property `roundingmode` (an i32) in the generic form.

// CHECK-LABEL: func.func @modes(
// CHECK-NEXT: math.fma %arg0, %arg1, %arg0 upward : f32
// CHECK-NEXT: math.fma %arg2, %arg2, %arg2 to_nearest_away fastmath<nnan,ninf> : vector<2xf64>
// CHECK-NEXT: math.fma %arg0, %arg0, %arg1 : f32
// GEN: "math.fma"(%arg0, %arg1, %arg0) <{fastmath = #arith.fastmath<none>, roundingmode = 2 : i32}>
// GEN: "math.fma"(%arg2, %arg2, %arg2) <{fastmath = #arith.fastmath<nnan,ninf>, roundingmode = 4 : i32}>
// GEN: "math.fma"(%arg0, %arg0, %arg1) <{fastmath = #arith.fastmath<none>}>
func.func @modes(%x: f32, %y: f32, %v: vector<2xf64>) {
  %0 = math.fma %x, %y, %x upward : f32
  %1 = math.fma %v, %v, %v to_nearest_away fastmath<nnan,ninf> : vector<2xf64>
  %2 = math.fma %x, %x, %y : f32
  return
}

// -----

// Only the default rounding lowers to llvm.intr.fma (which rounds to nearest, ties to
// even); a directed one is left for a later stage to refuse, never computed as nearest.
// LLVM-LABEL: func.func @lowering(
// LLVM: llvm.intr.fma(%arg0, %arg0, %arg0)
// LLVM: math.fma %arg0, %arg0, %arg0 downward : f32
func.func @lowering(%x: f32) -> (f32, f32) {
  %0 = math.fma %x, %x, %x to_nearest_even : f32
  %1 = math.fma %x, %x, %x downward : f32
  return %0, %1 : f32, f32
}

