// RUN: strata-opt %s --convert-onnx-to-linalg --canonicalize | filecheck %s

// TopK: k rounds; each reduces every row to the best element after the previous pick
// and inserts it at position k.
// CHECK-LABEL: func.func @top_k
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[V:.*]] = %{{.*}}, %[[I:.*]] = %{{.*}}, %[[PV:.*]] = %{{.*}}, %[[PI:.*]] = %{{.*}}) -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3xf32>, tensor<3xi64>)
// CHECK: %[[B:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[PV]], %[[PI]] : tensor<3x8xf32>, tensor<3xf32>, tensor<3xi64>)
// CHECK: arith.cmpf uno
// CHECK: tensor.insert_slice %{{.*}} into %[[V]][0, %[[P]]] [3, 1] [1, 1] : tensor<3x1xf32> into tensor<3x2xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[I]][0, %[[P]]] [3, 1] [1, 1] : tensor<3x1xi64> into tensor<3x2xi64>
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[B]]#0, %[[B]]#1
func.func @top_k(%x: tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %k = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %v, %i = "onnx.TopK"(%x, %k) : (tensor<3x8xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi64>
}

// Unique: pairwise comparison of the elements, counts by reductions; the number of
// distinct values is known at run time only.
// CHECK-LABEL: func.func @unique
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg0 : tensor<6xf32>, tensor<6xf32>) outs(%{{.*}} : tensor<6x6xi32>)
// CHECK: %[[N:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[U:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: tensor.empty(%[[U]]) : tensor<?xi64>
// CHECK: tensor.empty(%[[U]]) : tensor<?xf32>
func.func @unique(%x: tensor<6xf32>) -> tensor<?xf32> {
  %0 = "onnx.Unique"(%x) : (tensor<6xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
