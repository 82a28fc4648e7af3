// `sparse<indices, values> : type` attributes: parsed, verified and printed as upstream
// (an index or value list of equal elements prints as a splat; `sparse<>` is empty).
// RUN: strata-opt %s --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --split-input-file --allow-unregistered-dialect | filecheck %s

// CHECK: a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>
// CHECK-SAME: b = sparse<> : tensor<0xi32>
// CHECK-SAME: c = sparse<1, -2.000000e+00> : tensor<2x2xf32>
// CHECK-SAME: d = sparse<1, 3> : tensor<4xi64>
// CHECK-SAME: e = sparse<[[0, 1], [2, 3]], 7> : tensor<4x4xi8>
// CHECK-SAME: g = sparse<[[0], [2]], [true, false]> : vector<4xi1>
"test.op"() {a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>, b = sparse<> : tensor<0xi32>, c = sparse<[[1, 1]], [-2.0]> : tensor<2x2xf32>, d = sparse<[1], [3]> : tensor<4xi64>, e = sparse<[[0, 1], [2, 3]], 7> : tensor<4x4xi8>, g = sparse<[[0], [2]], [true, false]> : vector<4xi1>} : () -> ()

// -----

// CHECK: arith.constant sparse<[[0, 1]], 2.500000e+00> : tensor<2x2xf32>
func.func @f() -> tensor<2x2xf32> {
  %0 = arith.constant sparse<[[0, 1]], [2.5]> : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
