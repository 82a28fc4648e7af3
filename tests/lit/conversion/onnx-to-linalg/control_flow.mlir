// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

module attributes {onnx.opset_import = {ai.onnx = 19 : i64}} {
// Branches of different static shapes yield their common type.
// CHECK-LABEL: func.func @if_shapes
// CHECK: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[R:.*]] = scf.if %[[C]] -> (tensor<?xf32>) {
// CHECK:   linalg.generic
// CHECK:   %[[A:.*]] = tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
// CHECK:   scf.yield %[[A]] : tensor<?xf32>
// CHECK: } else {
// CHECK:   %[[B:.*]] = tensor.cast %arg2 : tensor<2xf32> to tensor<?xf32>
// CHECK:   scf.yield %[[B]] : tensor<?xf32>
// CHECK: return %[[R]]
func.func @if_shapes(%c: tensor<i1>, %x: tensor<3xf32>, %y: tensor<2xf32>) -> tensor<?xf32> {
  %r = "onnx.If"(%c) ({
    %a = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%a) : (tensor<3xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A trip count without a condition: scf.for; the scan output is preallocated (M rows)
// and written row by row; the body runs in an scf.execute_region (canonicalize inlines).
// CHECK-LABEL: func.func @loop_for
// CHECK: %[[M:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[N:.*]] = arith.maxsi %[[M]], %{{.*}} : index
// CHECK: %[[BUF:.*]] = tensor.empty(%[[N]]) : tensor<?x2xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[V:.*]] = %arg1, %[[S:.*]] = %[[BUF]]) -> (tensor<2xf32>, tensor<?x2xf32>) {
// CHECK:   %[[IT:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   tensor.from_elements %[[IT]] : tensor<i64>
// CHECK:   %[[R:.*]]:3 = scf.execute_region -> (tensor<i1>, tensor<2xf32>, tensor<2xf32>) {
// CHECK:     arith.negf
// CHECK:     scf.yield %{{.*}}, %{{.*}}, %[[V]] : tensor<i1>, tensor<2xf32>, tensor<2xf32>
// CHECK:   %[[W:.*]] = tensor.insert_slice %[[R]]#2 into %[[S]][%[[I]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<?x2xf32>
// CHECK:   scf.yield %[[R]]#1, %[[W]] : tensor<2xf32>, tensor<?x2xf32>
func.func @loop_for(%m: tensor<i64>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %r:2 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>):
    %n = "onnx.Neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%c, %n, %a) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<?x2xf32>
}

// A reverse scan along axis 1 reads column 4 - t.
// CHECK-LABEL: func.func @scan_reverse
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c5 step %{{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %{{.*}}) -> (tensor<2xf32>, tensor<5x2xf32>) {
// CHECK:   %[[J:.*]] = arith.subi %c4, %[[T]] : index
// CHECK:   tensor.extract_slice %arg1[0, %[[J]]] [2, 1] [1, 1] : tensor<2x5xf32> to tensor<2xf32>
// CHECK:   tensor.insert_slice %{{.*}} into %{{.*}}[%[[T]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<5x2xf32>
func.func @scan_reverse(%s: tensor<2xf32>, %x: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  %r:2 = "onnx.Scan"(%s, %x) <{num_scan_inputs = 1 : i64, scan_input_axes = [1], scan_input_directions = [1]}> ({
  ^bb0(%a: tensor<2xf32>, %e: tensor<2xf32>):
    %n = "onnx.Add"(%a, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n, %n) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<2xf32>, tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<5x2xf32>
}

// A sequence of a static length is its elements, packed where it leaves the function.
// CHECK-LABEL: func.func @sequence
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0[0, 0] [1, 3] [1, 1]
// CHECK: %[[B:.*]] = tensor.extract_slice %arg0[1, 0] [1, 3] [1, 1]
// CHECK: %[[S:.*]] = builtin.unrealized_conversion_cast %[[A]], %[[B]] : tensor<1x3xf32>, tensor<1x3xf32> to !onnx.Seq<tensor<?x3xf32>>
// CHECK: %[[N:.*]] = arith.constant dense<2> : tensor<i64>
// CHECK: return %[[S]], %[[N]]
func.func @sequence(%x: tensor<2x3xf32>) -> (!onnx.Seq<tensor<?x3xf32>>, tensor<i64>) {
  %s = "onnx.SplitToSequence"(%x) <{axis = 0 : i64}> : (tensor<2x3xf32>) -> !onnx.Seq<tensor<?x3xf32>>
  %n = "onnx.SequenceLength"(%s) : (!onnx.Seq<tensor<?x3xf32>>) -> tensor<i64>
  return %s, %n : !onnx.Seq<tensor<?x3xf32>>, tensor<i64>
}
}
