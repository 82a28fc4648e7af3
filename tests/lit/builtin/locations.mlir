// Locations: parsed in every form, printed with --mlir-print-debuginfo as aliases
// defined after the module (or inline with --mlir-print-local-scope).
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | strata-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=NOLOC

// Block argument locations are printed in full (their alias is still defined at the
// top, as upstream does), and so are aliases also used as attribute values.
// CHECK: #[[ARG:loc[0-9]*]] = loc("args.py":3:4)
// CHECK-NEXT: #[[UNK:loc[0-9]*]] = loc(unknown)
// CHECK-NEXT: #[[FILE:loc[0-9]*]] = loc("a.mlir":1:2)
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%arg0: i32 loc("args.py":3:4), %arg1: i32 loc(unknown))
// LOCAL: func.func @f(%arg0: i32 loc("args.py":3:4), %arg1: i32 loc(unknown))
// NOLOC: func.func @f(%arg0: i32, %arg1: i32) {
func.func @f(%a: i32 loc("args.py":3:4), %b: i32 loc(unknown)) {
  // CHECK-NEXT: "test.unknown"() : () -> () loc(#[[UNK]])
  // LOCAL-NEXT: "test.unknown"() : () -> () loc(unknown)
  "test.unknown"() : () -> () loc(unknown)
  // CHECK-NEXT: "test.file"() : () -> () loc(#[[FILE]])
  // LOCAL-NEXT: "test.file"() : () -> () loc("a.mlir":1:2)
  "test.file"() : () -> () loc("a.mlir":1:2)
  // CHECK-NEXT: "test.range"() : () -> () loc(#[[RANGE:loc[0-9]*]])
  // LOCAL-NEXT: "test.range"() : () -> () loc("a.mlir":1:2 to 3:4)
  "test.range"() : () -> () loc("a.mlir":1:2 to 3:4)
  // CHECK-NEXT: "test.range_line"() : () -> () loc(#[[RANGE1:loc[0-9]*]])
  // LOCAL-NEXT: "test.range_line"() : () -> () loc("a.mlir":1:2 to :9)
  "test.range_line"() : () -> () loc("a.mlir":1:2 to :9)
  // CHECK-NEXT: "test.name"() : () -> () loc(#[[NAME:loc[0-9]*]])
  // LOCAL-NEXT: "test.name"() : () -> () loc("conv1")
  "test.name"() : () -> () loc("conv1")
  // CHECK-NEXT: "test.name_child"() : () -> () loc(#[[NAMEC:loc[0-9]*]])
  // LOCAL-NEXT: "test.name_child"() : () -> () loc("conv1"("model.onnx":7:0))
  "test.name_child"() : () -> () loc("conv1"("model.onnx":7:0))
  // CHECK-NEXT: "test.callsite"() : () -> () loc(#[[CALL:loc[0-9]*]])
  // LOCAL-NEXT: "test.callsite"() : () -> () loc(callsite("foo"("a.mlir":1:2) at "b.mlir":3:4))
  "test.callsite"() : () -> () loc(callsite("foo"("a.mlir":1:2) at "b.mlir":3:4))
  // CHECK-NEXT: "test.fused"() : () -> () loc(#[[FUSED:loc[0-9]*]])
  // LOCAL-NEXT: "test.fused"() : () -> () loc(fused["a.mlir":1:2, "b.mlir":3:4])
  "test.fused"() : () -> () loc(fused["a.mlir":1:2, "b.mlir":3:4])
  // CHECK-NEXT: "test.fused_md"() : () -> () loc(#[[FUSEDMD:loc[0-9]*]])
  // LOCAL-NEXT: "test.fused_md"() : () -> () loc(fused<"meta">["a.mlir":1:2])
  "test.fused_md"() : () -> () loc(fused<"meta">["a.mlir":1:2, unknown])
  // An op without a location gets the position of its name in the input.
  // CHECK-NEXT: "test.implicit"() : () -> () loc(#[[IMPL:loc[0-9]*]])
  // LOCAL-NEXT: "test.implicit"() : () -> () loc("{{.*}}locations.mlir":{{[0-9]+}}:3)
  "test.implicit"() : () -> ()
  // A location alias may be used before it is defined.
  // CHECK-NEXT: "test.alias"() : () -> () loc(#[[FILE]])
  // LOCAL-NEXT: "test.alias"() : () -> () loc("a.mlir":1:2)
  "test.alias"() : () -> () loc(#later)
  // A location can also be an attribute value.
  // CHECK-NEXT: "test.attr"() {where = #[[FILE]]} : () -> ()
  // LOCAL-NEXT: "test.attr"() {where = loc("a.mlir":1:2)} : () -> ()
  "test.attr"() {where = loc("a.mlir":1:2)} : () -> ()
  return
}
#later = loc("a.mlir":1:2)

// Deferred aliases follow the module; nested locations refer to their parts' aliases.
// CHECK: } loc(#loc)
// CHECK-NEXT: #loc = loc("{{.*}}locations.mlir":0:0)
// CHECK: #[[RANGE]] = loc("a.mlir":1:2 to 3:4)
// CHECK-NEXT: #[[RANGE1]] = loc("a.mlir":1:2 to :9)
// CHECK-NEXT: #[[NAME]] = loc("conv1")
// CHECK-NEXT: #[[CHILD:loc[0-9]*]] = loc("model.onnx":7:0)
// CHECK: #[[NAMEC]] = loc("conv1"(#[[CHILD]]))
// CHECK: #[[CALL]] = loc(callsite(#{{loc[0-9]*}} at #{{loc[0-9]*}}))

// Fusion drops unknown locations and duplicates, flattens nested fusions with the same
// metadata, and a single remaining location stands for itself.
// LOCAL-LABEL: func.func @fusion
func.func @fusion() {
  // LOCAL-NEXT: "test.a"() : () -> () loc("a.mlir":1:2)
  "test.a"() : () -> () loc(fused[unknown, "a.mlir":1:2, "a.mlir":1:2])
  // LOCAL-NEXT: "test.b"() : () -> () loc(unknown)
  "test.b"() : () -> () loc(fused[unknown])
  // LOCAL-NEXT: "test.c"() : () -> () loc(fused["a.mlir":1:2, "b.mlir":3:4, "c.mlir":5:6])
  "test.c"() : () -> () loc(fused["a.mlir":1:2, fused["b.mlir":3:4, "c.mlir":5:6]])
  // LOCAL-NEXT: "test.d"() : () -> () loc(fused<"m">[unknown])
  "test.d"() : () -> () loc(fused<"m">[unknown])
  return
}
// LOCAL: } loc("{{.*}}locations.mlir":0:0)
