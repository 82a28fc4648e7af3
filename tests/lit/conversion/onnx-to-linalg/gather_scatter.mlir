// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// Run-time index checks (see [Note: index checks]): one reduction gives the smallest
// and largest index, compared with [-n, n) outside the loops; cf.assert names the op
// and the axis; the gather clamps each index (after wrapping) with one minui.
// CHECK-LABEL: func.func @gather
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%arg1 : tensor<3xi64>) outs(%{{.*}}, %{{.*}} : tensor<i64>, tensor<i64>)
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: %[[MIN:.*]] = tensor.extract %[[R]]#0[] : tensor<i64>
// CHECK: %[[MAX:.*]] = tensor.extract %[[R]]#1[] : tensor<i64>
// CHECK: %[[LO:.*]] = arith.index_cast %[[MIN]] : i64 to index
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[LO]], %c-5 : index
// CHECK: %[[HI:.*]] = arith.index_cast %[[MAX]] : i64 to index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[HI]], %c5 : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: cf.assert %[[OK]], "Gather at {{.*}}gather_scatter.mlir:{{[0-9]+}}:{{[0-9]+}}: index out of range [-5, 5) on data axis 0"
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<3xi64>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: %[[S:.*]] = arith.select
// CHECK: %[[K:.*]] = arith.minui %[[S]], %{{c4.*}} : index
// CHECK: tensor.extract %arg0[%[[K]], %{{.*}}] : tensor<5x4xf32>
func.func @gather(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// The node's name is the location the message gives.
// CHECK-LABEL: func.func @named
// CHECK: cf.assert %{{.*}}, "Gather at embed: index out of range [-5, 5) on data axis 0"
func.func @named(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32> loc(fused["embed", "m.onnx":0:0])
  return %0 : tensor<3x4xf32>
}

// A dynamic axis: the range is [-n, n) with n its run-time size; an empty index
// tensor (min > max) passes; when the axis is empty no index exists and the gather
// does not run (zeros instead: a check has failed unless the result is empty).
// CHECK-LABEL: func.func @gather_dynamic
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// CHECK: %[[NEGN:.*]] = arith.subi %{{.*}}, %[[N]] : index
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK: arith.cmpi sge, %{{.*}}, %[[NEGN]] : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : index
// CHECK: %[[EMPTY:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[OK:.*]] = arith.ori %{{.*}}, %[[EMPTY]] : i1
// CHECK: cf.assert %[[OK]], "Gather at {{.*}}: index out of range [-n, n) on data axis 0 (of run-time size n)"
// CHECK: %[[NM1:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.maxsi %[[NM1]], %{{.*}} : index
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK: %[[R:.*]] = scf.if %[[Z]] -> (tensor<?x4xf32>) {
// CHECK: %[[ZEROS:.*]] = linalg.fill
// CHECK: scf.yield %[[ZEROS]] : tensor<?x4xf32>
// CHECK: } else {
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: %[[K:.*]] = arith.minui %{{.*}}, %[[LAST]] : index
// CHECK: tensor.extract %arg0[%[[K]], %{{.*}}] : tensor<?x4xf32>
// CHECK: scf.yield %[[G]] : tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @gather_dynamic(%x: tensor<?x4xf32>, %i: tensor<?xi32>) -> tensor<?x4xf32> {
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// Constant indices in range: nothing to check, nothing to clamp.
// CHECK-LABEL: func.func @gather_constant
// CHECK-NOT: cf.assert
// CHECK-NOT: arith.minui
// CHECK: return
func.func @gather_constant(%x: tensor<5x4xf32>) -> tensor<2x4xf32> {
  %i = "onnx.Constant"() <{value = dense<[3, -5]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : i64}> : (tensor<5x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Constant indices out of range fail at run time (the branch may never run).
// CHECK-LABEL: func.func @gather_constant_bad
// CHECK: %[[F:.*]] = arith.constant false
// CHECK: cf.assert %[[F]], "GatherElements at {{.*}}: index out of range [-4, 4) on data axis 1"
func.func @gather_constant_bad(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %i = "onnx.Constant"() <{value = dense<[[3], [4]]> : tensor<2x1xi64>}> : () -> tensor<2x1xi64>
  %0 = "onnx.GatherElements"(%x, %i) <{axis = 1 : i64}> : (tensor<2x4xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// GatherElements with dynamic dims: the indices' other dims must not exceed the
// data's (asserted, and the position clamped).
// CHECK-LABEL: func.func @gather_elements
// CHECK: cf.assert %{{.*}}, "GatherElements at {{.*}}: index out of range [-4, 4) on data axis 1"
// CHECK: %[[FIT:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK: cf.assert %[[FIT]], "GatherElements at {{.*}}: indices dim 0 must be <= data dim 0"
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.minui
// CHECK: arith.minui
// CHECK: tensor.extract
func.func @gather_elements(%x: tensor<?x4xf32>, %i: tensor<?x2xi64>) -> tensor<?x2xf32> {
  %0 = "onnx.GatherElements"(%x, %i) <{axis = 1 : i64}> : (tensor<?x4xf32>, tensor<?x2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// GatherND: each column of the indices indexes its own axis: min and max per column
// (a reduction over the rows), one cf.assert per axis.
// CHECK-LABEL: func.func @gather_nd
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%arg1 : tensor<5x2xi64>) outs(%{{.*}}, %{{.*}} : tensor<2xi64>, tensor<2xi64>)
// CHECK: cf.assert %{{.*}}, "GatherND at {{.*}}: index out of range [-2, 2) on data axis 0 (indices[..., 0])"
// CHECK: cf.assert %{{.*}}, "GatherND at {{.*}}: index out of range [-3, 3) on data axis 1 (indices[..., 1])"
// CHECK: arith.minui %{{.*}}, %{{c1.*}} : index
// CHECK: arith.minui %{{.*}}, %{{c2.*}} : index
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x4xf32> {
  %0 = "onnx.GatherND"(%x, %i) : (tensor<2x3x4xf32>, tensor<5x2xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// A scatter writes nothing when a check failed: its loop runs 0 times (no clamping in
// the loop).
// CHECK-LABEL: func.func @scatter_elements
// CHECK: cf.assert %[[OK:.*]], "ScatterElements at {{.*}}: index out of range [-3, 3) on data axis 0"
// CHECK: %[[UB:.*]] = arith.select %[[OK]], %{{c2.*}}, %{{c0.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// CHECK-NOT: arith.minui
// CHECK: tensor.insert
func.func @scatter_elements(%x: tensor<3xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<3xf32> {
  %0 = "onnx.ScatterElements"(%x, %i, %u) <{reduction = "add"}> : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// A single write (indices of one tuple): one loop of one iteration, guarded.
// CHECK-LABEL: func.func @scatter_nd_point
// CHECK: cf.assert %[[A:.*]], "ScatterND at {{.*}}: index out of range [-4, 4) on data axis 0 (indices[..., 0])"
// CHECK: cf.assert %[[B:.*]], "ScatterND at {{.*}}: index out of range [-3, 3) on data axis 1 (indices[..., 1])"
// CHECK: %[[OK:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK: %[[UB:.*]] = arith.select %[[OK]], %{{c1.*}}, %{{c0.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// CHECK: tensor.insert %{{.*}} into %{{.*}} : tensor<4x3xf32>
func.func @scatter_nd_point(%x: tensor<4x3xf32>, %i: tensor<2xi64>, %u: tensor<f32>) -> tensor<4x3xf32> {
  %0 = "onnx.ScatterND"(%x, %i, %u) : (tensor<4x3xf32>, tensor<2xi64>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Updates of a shape the indices do not have: asserted, and no write then.
// CHECK-LABEL: func.func @scatter_nd_shapes
// CHECK: cf.assert %{{.*}}, "ScatterND at {{.*}}: index out of range [-n, n) on data axis 0 (indices[..., 0]) (of run-time size n)"
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: cf.assert %[[EQ]], "ScatterND at {{.*}}: updates dim 0 must equal indices dim 0"
// CHECK: scf.for
func.func @scatter_nd_shapes(%x: tensor<?x3xf32>, %i: tensor<?x1xi64>, %u: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = "onnx.ScatterND"(%x, %i, %u) : (tensor<?x3xf32>, tensor<?x1xi64>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// Other lowerings that access data at positions read from a tensor check them the
// same way (see [Note: index checks]).
// CHECK-LABEL: func.func @reverse_sequence
// CHECK: cf.assert %{{.*}}, "ReverseSequence at {{.*}}: sequence length out of range [0, 4]"
// CHECK: linalg.generic
// CHECK: %[[N:.*]] = arith.minui %{{.*}}, %{{c4.*}} : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : index
func.func @reverse_sequence(%x: tensor<4x2xf32>, %l: tensor<2xi64>) -> tensor<4x2xf32> {
  %0 = "onnx.ReverseSequence"(%x, %l) <{batch_axis = 1 : si64, time_axis = 0 : si64}> : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @max_unpool
// CHECK: cf.assert %[[OK:.*]], "MaxUnpool at {{.*}}: index out of range [0, 16) (flat positions of the output)"
// CHECK: %[[UB:.*]] = arith.select %[[OK]], %{{c4.*}}, %{{c0.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
func.func @max_unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32> {
  %0 = "onnx.MaxUnpool"(%x, %i) <{kernel_shape = [2, 2], strides = [2, 2]}> : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// Dims of one name (onnx.dim_params) are equal: no shape check, no clamp along them.
// CHECK-LABEL: func.func @gather_elements_named_dims
// CHECK: cf.assert %{{.*}}, "GatherElements at {{.*}}: index out of range [-4, 4) on data axis 1"
// CHECK-NOT: cf.assert
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.minui %{{.*}}, %{{c3.*}} : index
// CHECK-NOT: arith.minui
// CHECK: tensor.extract
func.func @gather_elements_named_dims(%x: tensor<?x4xf32> {onnx.dim_params = ["B", ""]}, %i: tensor<?x2xi64> {onnx.dim_params = ["B", ""]}) -> tensor<?x2xf32> {
  %0 = "onnx.GatherElements"(%x, %i) <{axis = 1 : i64}> : (tensor<?x4xf32>, tensor<?x2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
