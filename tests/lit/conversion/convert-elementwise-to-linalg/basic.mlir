// RUN: strata-opt %s --convert-elementwise-to-linalg | filecheck %s
// RUN: strata-opt %s --convert-elementwise-to-linalg | strata-opt | filecheck %s

// Output checked against iree-opt --convert-elementwise-to-linalg (byte-identical).
// The init is the first operand of the result type, else an empty tensor sized like
// the first tensor operand; a scalar operand (select's condition) is read by a
// `(d0) -> ()` map.

// CHECK-DAG: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:map[0-9]*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ID1:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[RANK0:map[0-9]*]] = affine_map<() -> ()>
// CHECK:   func.func @f(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>, %arg2: tensor<?x4xi1>) -> tensor<?x4xf32> {
// CHECK:     %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x4xf32>, tensor<?x4xf32>) outs(%arg0 : tensor<?x4xf32>) {
// CHECK:     ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK:       %6 = arith.addf %in, %in_0 : f32
// CHECK:       linalg.yield %6 : f32
// CHECK:     } -> tensor<?x4xf32>
// CHECK:     %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) {
// CHECK:     ^bb0(%in: f32, %out: f32):
// CHECK:       %6 = math.exp %in : f32
// CHECK:       linalg.yield %6 : f32
// CHECK:     } -> tensor<?x4xf32>
// CHECK:     %2 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2, %1, %arg0 : tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) outs(%1 : tensor<?x4xf32>) {
// CHECK:     ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
// CHECK:       %6 = arith.select %in, %in_0, %in_1 : f32
// CHECK:       linalg.yield %6 : f32
// CHECK:     } -> tensor<?x4xf32>
// CHECK:     %c0 = arith.constant 0 : index
// CHECK:     %dim = tensor.dim %2, %c0 : tensor<?x4xf32>
// CHECK:     %3 = tensor.empty(%dim) : tensor<?x4xi1>
// CHECK:     %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg0 : tensor<?x4xf32>, tensor<?x4xf32>) outs(%3 : tensor<?x4xi1>) {
// CHECK:     ^bb0(%in: f32, %in_0: f32, %out: i1):
// CHECK:       %6 = arith.cmpf olt, %in, %in_0 : f32
// CHECK:       linalg.yield %6 : i1
// CHECK:     } -> tensor<?x4xi1>
// CHECK:     %5 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %2, %arg1 : tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) outs(%2 : tensor<?x4xf32>) {
// CHECK:     ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
// CHECK:       %6 = arith.select %in, %in_0, %in_1 : f32
// CHECK:       linalg.yield %6 : f32
// CHECK:     } -> tensor<?x4xf32>
// CHECK:     return %5 : tensor<?x4xf32>


func.func @f(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<?x4xi1>) -> tensor<?x4xf32> {
  %0 = arith.addf %a, %b : tensor<?x4xf32>
  %1 = math.exp %0 : tensor<?x4xf32>
  %2 = arith.select %c, %1, %a : tensor<?x4xi1>, tensor<?x4xf32>
  %3 = arith.cmpf olt, %2, %a : tensor<?x4xf32>
  %4 = arith.select %3, %2, %b : tensor<?x4xi1>, tensor<?x4xf32>
  return %4 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @scalar_condition
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[ID1]], #[[ID1]], #[[ID1]]], iterator_types = ["parallel"]} ins(%arg0, %arg1, %arg2 : i1, tensor<4xf32>, tensor<4xf32>) outs(%arg1 : tensor<4xf32>)
// CHECK: arith.select %in, %in_0, %in_1 : f32
// CHECK-LABEL: func.func @rank0
// CHECK: linalg.generic {indexing_maps = [#[[RANK0]], #[[RANK0]]], iterator_types = []} ins(%arg0 : tensor<f32>) outs(%arg0 : tensor<f32>)
// CHECK: math.sqrt %in : f32
func.func @scalar_condition(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.select %c, %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @rank0(%a: tensor<f32>) -> tensor<f32> {
  %0 = math.sqrt %a : tensor<f32>
  return %0 : tensor<f32>
}
