// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries test-analysis-only print-conflicts" | filecheck %s

// print-conflicts names the read, the conflicting write and the definition of each
// read-after-write conflict (C_n) and each buffer that must not be written (W_n), as
// iree-opt does for this file.

// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32> {bufferization.access = "read", bufferization.writable = true}, %arg1: tensor<4xf32> {bufferization.access = "read", bufferization.writable = true}) -> tensor<4xf32> attributes {"C_0[DEF: bbArg 0]"} {
//       CHECK: %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<4xf32>, tensor<4xf32>) outs(%0 : tensor<4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "true", "true"]} {
//       CHECK: %cst = arith.constant {"W_0[NOT-WRITABLE: result 0]"} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
//       CHECK: %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<4xf32>) outs(%cst : tensor<4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "false"]} {
//       CHECK: %inserted = tensor.insert %cst_0 into %arg0[%c1] {"C_0[CONFL-WRITE: 1]", __inplace_operands_attr__ = ["none", "false", "none"]} : tensor<4xf32>
//       CHECK: %extracted = tensor.extract %inserted[%c1] {__inplace_operands_attr__ = ["true", "none"]} : tensor<4xf32>
//       CHECK: %extracted_1 = tensor.extract %arg0[%c1] {"C_0[READ: 0]", __inplace_operands_attr__ = ["true", "none"]} : tensor<4xf32>
//       CHECK: return {__inplace_operands_attr__ = ["true"]} %2 : tensor<4xf32>
func.func @f(%a: tensor<4xf32> {bufferization.writable = true}, %b: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %i = arith.constant 1 : index
  %f = arith.constant 5.0 : f32
  %ins = tensor.insert %f into %a[%i] : tensor<4xf32>
  %x = tensor.extract %ins[%i] : tensor<4xf32>
  %y = tensor.extract %a[%i] : tensor<4xf32>
  return %r2 : tensor<4xf32>
}
