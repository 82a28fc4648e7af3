// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GEN

// The segment sizes of an op with variadic operand groups may be written in the
// attribute dictionary of its generic form, as upstream reads older IR: they become the
// operandSegmentSizes property.

// CHECK-LABEL: func.func @parallel_segments_in_attr_dict(
// CHECK: scf.parallel (%{{.*}}) = (%arg0) to (%arg1) step (%arg0) {
// GEN: "scf.parallel"(%arg0, %arg1, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
func.func @parallel_segments_in_attr_dict(%lo: index, %hi: index) {
  "scf.parallel"(%lo, %hi, %lo) ({
  ^bb0(%i: index):
    scf.reduce
  }) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (index, index, index) -> ()
  return
}
