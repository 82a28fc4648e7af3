// An unregistered op's blocks need no terminator (nothing is known of the op): an
// empty entry block, an empty block with arguments, blocks ending in any op.
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s

// CHECK:      "test.empty"() ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: }) : () -> ()
"test.empty"() ({
^bb0:
}) : () -> ()
// CHECK:      "test.args"() ({
// CHECK-NEXT: ^bb0(%arg0: i32):
// CHECK-NEXT: }) : () -> ()
"test.args"() ({
^bb0(%x: i32):
}) : () -> ()
// CHECK:      "test.open"() ({
// CHECK-NEXT:   "test.x"() : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT:   "test.y"() : () -> ()
// CHECK-NEXT: }) : () -> ()
"test.open"() ({
  "test.x"() : () -> ()
^bb1:
  "test.y"() : () -> ()
}) : () -> ()
