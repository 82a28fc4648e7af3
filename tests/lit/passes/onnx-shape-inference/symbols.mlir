// RUN: strata-opt %s --onnx-shape-inference | filecheck %s
// Running it again changes nothing (the pass rewrites the symbols it wrote).
// RUN: strata-opt %s --onnx-shape-inference > %t.1
// RUN: strata-opt %s --onnx-shape-inference --onnx-shape-inference > %t.2
// RUN: diff %t.1 %t.2

module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {

// Arguments' dims named alike are one size: what they broadcast to keeps the name; a
// named dim against a static 1 keeps it, against a static 4 is 4, against another name
// is unknown (a fresh name).
// CHECK-LABEL: func.func @broadcasting
func.func @broadcasting(%a: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]},
                        %b: tensor<?x4xf32> {onnx.dim_params = ["batch", ""]},
                        %c: tensor<?x4xf32> {onnx.dim_params = ["seq", ""]},
                        %one: tensor<1x4xf32>, %four: tensor<4x4xf32>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: "onnx.Add"(%arg0, %arg1) {onnx.dim_params = ["batch", ""]} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %0 = "onnx.Add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Mul"(%0, %arg3) {onnx.dim_params = ["batch", ""]} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Mul"(%0, %one) : (tensor<*xf32>, tensor<1x4xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Sub"(%1, %arg4) : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "onnx.Sub"(%1, %four) : (tensor<*xf32>, tensor<4x4xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Add"(%arg0, %arg2) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = "onnx.Add"(%a, %c) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<*xf32>
  return %0, %2, %3, %1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// The attention heads of a BERT exported with a dynamic batch:
// Reshape(x, Concat(Shape(x)[0], Shape(x)[1], -1, 32)) divides batch*128*384 by
// batch*128*32. Transpose, MatMul and Softmax carry the batch on.
// CHECK-LABEL: func.func @attention_heads
func.func @attention_heads(%x: tensor<?x128x384xf32> {onnx.dim_params = ["batch", "", ""]}) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<?x128x384xf32>) -> tensor<*xi64>
  %i0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %i1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %n = "onnx.Gather"(%s, %i0) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %l = "onnx.Gather"(%s, %i1) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %n1 = "onnx.Unsqueeze"(%n, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %l1 = "onnx.Unsqueeze"(%l, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m1 = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %d = "onnx.Constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
  %t = "onnx.Concat"(%n1, %l1, %m1, %d) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<*xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Reshape"(%arg0, %{{.*}}) {onnx.dim_params = ["batch", "", "", ""]} : (tensor<?x128x384xf32>, tensor<4xi64>) -> tensor<?x128x12x32xf32>
  %r = "onnx.Reshape"(%x, %t) : (tensor<?x128x384xf32>, tensor<*xi64>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Transpose"{{.*}} {onnx.dim_params = ["batch", "", "", ""]} : (tensor<?x128x12x32xf32>) -> tensor<?x12x128x32xf32>
  %q = "onnx.Transpose"(%r) <{perm = [0, 2, 1, 3]}> : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Transpose"{{.*}} -> tensor<?x12x32x128xf32>
  %k = "onnx.Transpose"(%r) <{perm = [0, 2, 3, 1]}> : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.MatMul"{{.*}} {onnx.dim_params = ["batch", "", "", ""]} : (tensor<?x12x128x32xf32>, tensor<?x12x32x128xf32>) -> tensor<?x12x128x128xf32>
  %qk = "onnx.MatMul"(%q, %k) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Softmax"{{.*}} {onnx.dim_params = ["batch", "", "", ""]}
  %p = "onnx.Softmax"(%qk) <{axis = -1 : i64}> : (tensor<*xf32>) -> tensor<*xf32>
  return %p : tensor<*xf32>
}

// Flatten multiplies names (a product is written `128*batch`); Reshape back to
// Shape(x) divides them again; reductions keep them.
// CHECK-LABEL: func.func @products
func.func @products(%x: tensor<?x128x384xf32> {onnx.dim_params = ["batch", "", ""]}) -> (tensor<*xf32>, tensor<*xi64>) {
  // CHECK: "onnx.Flatten"(%arg0) <{axis = -1 : i64}> {onnx.dim_params = ["128*batch", ""]} : (tensor<?x128x384xf32>) -> tensor<?x384xf32>
  %f = "onnx.Flatten"(%x) <{axis = -1 : i64}> : (tensor<?x128x384xf32>) -> tensor<*xf32>
  // CHECK: "onnx.ReduceMean"{{.*}} {onnx.dim_params = ["128*batch", ""]} : (tensor<?x384xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%f, %one) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Sub"{{.*}} {onnx.dim_params = ["128*batch", ""]} : (tensor<?x384xf32>, tensor<?x1xf32>) -> tensor<?x384xf32>
  %c = "onnx.Sub"(%f, %m) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %s = "onnx.Shape"(%x) : (tensor<?x128x384xf32>) -> tensor<*xi64>
  // CHECK: "onnx.Reshape"{{.*}} {onnx.dim_params = ["batch", "", ""]} : (tensor<?x384xf32>, tensor<3xi64>) -> tensor<?x128x384xf32>
  %r = "onnx.Reshape"(%c, %s) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  // Size and Div of shape values: batch*128*384 / 384 elements per row.
  %n = "onnx.Size"(%r) : (tensor<*xf32>) -> tensor<*xi64>
  %k = "onnx.Constant"() <{value = dense<384> : tensor<i64>}> : () -> tensor<i64>
  %rows = "onnx.Div"(%n, %k) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %rows1 = "onnx.Unsqueeze"(%rows, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK: "onnx.ConstantOfShape"{{.*}} {onnx.dim_params = ["128*batch"]} : (tensor<1xi64>) -> tensor<?xi64>
  %z = "onnx.ConstantOfShape"(%rows1) <{value = dense<0> : tensor<1xi64>}> : (tensor<*xi64>) -> tensor<*xi64>
  return %r, %z : tensor<*xf32>, tensor<*xi64>
}

// torch's `mask.expand(batch, -1, s, s)`: Where(Equal(t, -1), 1, t). Equal(batch, -1)
// is false (a size is never -1), so the Where gives the batch, and the Expand keeps it.
// Range(0, batch) is batch long.
// CHECK-LABEL: func.func @expand_where
func.func @expand_where(%m: tensor<?x1x1x5xf32> {onnx.dim_params = ["batch", "", "", ""]}) -> (tensor<*xf32>, tensor<*xi64>) {
  %s = "onnx.Shape"(%m) : (tensor<?x1x1x5xf32>) -> tensor<*xi64>
  %zero = "onnx.Constant"() <{value_ints = [0]}> : () -> tensor<1xi64>
  %b = "onnx.Gather"(%s, %zero) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %rest = "onnx.Constant"() <{value = dense<[-1, 5, 5]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %t = "onnx.Concat"(%b, %rest) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<3xi64>) -> tensor<*xi64>
  %neg = "onnx.Constant"() <{value = dense<-1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %ones = "onnx.Constant"() <{value = dense<1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %c = "onnx.Equal"(%t, %neg) : (tensor<*xi64>, tensor<4xi64>) -> tensor<*xi1>
  %w = "onnx.Where"(%c, %ones, %t) : (tensor<*xi1>, tensor<4xi64>, tensor<*xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Expand"(%arg0, %{{.*}}) {onnx.dim_params = ["batch", "", "", ""]} : (tensor<?x1x1x5xf32>, tensor<4xi64>) -> tensor<?x1x5x5xf32>
  %e = "onnx.Expand"(%m, %w) : (tensor<?x1x1x5xf32>, tensor<*xi64>) -> tensor<*xf32>
  %n = "onnx.Gather"(%s, %zero) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %i0 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %i1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %ns = "onnx.Squeeze"(%n, %zero) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Range"{{.*}} {onnx.dim_params = ["batch"]} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %r = "onnx.Range"(%i0, %ns, %i1) : (tensor<i64>, tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  return %e, %r : tensor<*xf32>, tensor<*xi64>
}

// Slicing all of a named dim keeps its name; slicing part of it does not.
// CHECK-LABEL: func.func @slices
func.func @slices(%x: tensor<?x10xf32> {onnx.dim_params = ["n", ""]}) -> (tensor<*xf32>, tensor<*xf32>) {
  %s0 = "onnx.Constant"() <{value = dense<[0, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %e0 = "onnx.Constant"() <{value = dense<[9223372036854775807, 6]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %s1 = "onnx.Constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Slice"{{.*}} {onnx.dim_params = ["n", ""]} : ({{.*}}) -> tensor<?x4xf32>
  %a = "onnx.Slice"(%x, %s0, %e0) : (tensor<?x10xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Slice"{{.*}} : ({{.*}}) -> tensor<?x4xf32>
  %b = "onnx.Slice"(%x, %s1, %e0) : (tensor<?x10xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %a, %b : tensor<*xf32>, tensor<*xf32>
}

// BERT's position ids: a [1, 512] table sliced to the sequence length is min(seq, 512),
// a fresh name; broadcast with [batch, seq] it is seq (or the model is in error).
// CHECK-LABEL: func.func @positions
func.func @positions(%ids: tensor<?x?xi64> {onnx.dim_params = ["batch", "seq"]}, %table: tensor<1x512xi64>) -> tensor<*xi64> {
  %s = "onnx.Shape"(%ids) : (tensor<?x?xi64>) -> tensor<*xi64>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %zero = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %seq = "onnx.Gather"(%s, %one) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Slice"{{.*}} {onnx.dim_params = ["", "?{{[0-9]+}}"]} : ({{.*}}) -> tensor<1x?xi64>
  %p = "onnx.Slice"(%table, %zero, %seq, %one) : (tensor<1x512xi64>, tensor<1xi64>, tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK-NEXT: "onnx.Add"{{.*}} {onnx.dim_params = ["batch", "seq"]} : (tensor<?x?xi64>, tensor<1x?xi64>) -> tensor<?x?xi64>
  %a = "onnx.Add"(%ids, %p) : (tensor<?x?xi64>, tensor<*xi64>) -> tensor<*xi64>
  return %a : tensor<*xi64>
}

// LayerNorm as torch exports it: Flatten to [seq*batch, 384], Reshape back to Shape(x).
// Were seq 0, the Reshape would copy 384 there; the input would be empty then, and the
// dim is taken as seq.
// CHECK-LABEL: func.func @flatten_round_trip
func.func @flatten_round_trip(%x: tensor<?x?x384xf32> {onnx.dim_params = ["batch", "seq", ""]}) -> tensor<*xf32> {
  // CHECK: "onnx.Flatten"{{.*}} {onnx.dim_params = ["batch*seq", ""]}
  %f = "onnx.Flatten"(%x) <{axis = -1 : i64}> : (tensor<?x?x384xf32>) -> tensor<*xf32>
  %s = "onnx.Shape"(%x) : (tensor<?x?x384xf32>) -> tensor<*xi64>
  // CHECK: "onnx.Reshape"{{.*}} {onnx.dim_params = ["batch", "seq", ""]} : (tensor<?x384xf32>, tensor<3xi64>) -> tensor<?x?x384xf32>
  %r = "onnx.Reshape"(%f, %s) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Ops with several results get one list per result; Concat adds static sizes along
// its axis and keeps the names of the others.
// CHECK-LABEL: func.func @several_results
func.func @several_results(%x: tensor<?x6xf32> {onnx.dim_params = ["n", ""]}) -> (tensor<*xf32>, tensor<*xf32>) {
  %sizes = "onnx.Constant"() <{value = dense<[2, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Split"{{.*}} {onnx.dim_params = {{\[\["n", ""\], \["n", ""\]\]}}} : (tensor<?x6xf32>, tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x4xf32>)
  %a, %b = "onnx.Split"(%x, %sizes) <{axis = 1 : i64}> : (tensor<?x6xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  // CHECK-NEXT: "onnx.Concat"{{.*}} {onnx.dim_params = ["n", ""]} : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x6xf32>
  %c = "onnx.Concat"(%b, %a) <{axis = 1 : i64}> : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // Along the named axis, n + n is no monomial: a fresh name.
  // CHECK-NEXT: "onnx.Concat"{{.*}} {onnx.dim_params = ["?{{[0-9]+}}", ""]} : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  %d = "onnx.Concat"(%c, %x) <{axis = 0 : i64}> : (tensor<*xf32>, tensor<?x6xf32>) -> tensor<*xf32>
  %e = "onnx.Relu"(%d) : (tensor<*xf32>) -> tensor<*xf32>
  return %c, %e : tensor<*xf32>, tensor<*xf32>
}

// Fresh names skip the numbers names in the IR use; a name that could read as a
// product is quoted. A Reshape to a named size n copies the input's dim where n is 0
// at run time (no allowzero): the dim is n only when the input's is 0 with it.
// CHECK-LABEL: func.func @names
func.func @names(%x: tensor<?x3xf32> {onnx.dim_params = ["?1", ""]},
                 %y: tensor<?x3xf32> {onnx.dim_params = ["2*n", ""]},
                 %z: tensor<?xf32> {onnx.dim_params = ["m"]}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK-NEXT: "onnx.Neg"(%arg0) {onnx.dim_params = ["?1", ""]}
  %0 = "onnx.Neg"(%x) : (tensor<?x3xf32>) -> tensor<*xf32>
  // CHECK-NEXT: "onnx.Neg"(%arg1) {onnx.dim_params = ["\222*n\22", ""]}
  %1 = "onnx.Neg"(%y) : (tensor<?x3xf32>) -> tensor<*xf32>
  %s = "onnx.Shape"(%z) : (tensor<?xf32>) -> tensor<*xi64>
  %three = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %t = "onnx.Concat"(%s, %three) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  // CHECK: "onnx.Reshape"(%arg0, %{{.*}}) {onnx.dim_params = ["?{{[2-9]|[0-9][0-9]+}}", ""]} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %2 = "onnx.Reshape"(%x, %t) : (tensor<?x3xf32>, tensor<*xi64>) -> tensor<*xf32>
  %3 = "onnx.Relu"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

}
