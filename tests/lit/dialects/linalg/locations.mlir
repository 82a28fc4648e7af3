func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>, %t: tensor<8x4xf32>) {
  %0 = linalg.map { math.exp } ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  %1 = linalg.transpose ins(%0 : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// RUN: strata-opt %s --mlir-print-op-generic --mlir-print-debuginfo | filecheck %s
// (The IR comes first so that its line numbers are those checked below.)
// Payload locations as upstream gives them: unknown in named ops and short forms, the
// operands' locations for transpose's block arguments.

// CHECK: #loc2 = loc("{{.*}}locations.mlir":1:14)
// CHECK-NEXT: #loc3 = loc("{{.*}}locations.mlir":1:35)
// CHECK-NEXT: #loc4 = loc("{{.*}}locations.mlir":1:56)
// CHECK-NEXT: #loc5 = loc("{{.*}}locations.mlir":1:77)
// CHECK-NEXT: #loc6 = loc("{{.*}}locations.mlir":2:8)
// CHECK-NEXT: #loc7 = loc(unknown)
// CHECK-NEXT: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{function_type = (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>) -> (), sym_name = "f"}> ({
// CHECK-NEXT: ^bb0(%arg0: tensor<4x8xf32> loc("{{.*}}locations.mlir":1:14), %arg1: tensor<8x4xf32> loc("{{.*}}locations.mlir":1:35), %arg2: tensor<4x4xf32> loc("{{.*}}locations.mlir":1:56), %arg3: tensor<8x4xf32> loc("{{.*}}locations.mlir":1:77)):
// CHECK-NEXT: %0 = "linalg.map"(%arg0, %arg0) ({
// CHECK-NEXT: ^bb0(%arg9: f32 loc(unknown), %arg10: f32 loc(unknown)):
// CHECK-NEXT: %5 = "math.exp"(%arg9) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32 loc(#loc6)
// CHECK-NEXT: "linalg.yield"(%5) : (f32) -> () loc(#loc6)
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc6)
// CHECK-NEXT: %1 = "linalg.transpose"(%0, %arg3) <{permutation = array<i64: 1, 0>}> ({
// CHECK-NEXT: ^bb0(%arg7: f32 loc("{{.*}}locations.mlir":2:8), %arg8: f32 loc("{{.*}}locations.mlir":1:77)):
// CHECK-NEXT: "linalg.yield"(%arg7) : (f32) -> () loc(#loc8)
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> loc(#loc8)
// CHECK-NEXT: %2 = "linalg.matmul"(%arg0, %arg1, %arg2) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
// CHECK-NEXT: ^bb0(%arg4: f32 loc(unknown), %arg5: f32 loc(unknown), %arg6: f32 loc(unknown)):
// CHECK-NEXT: %3 = "arith.mulf"(%arg4, %arg5) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc7)
// CHECK-NEXT: %4 = "arith.addf"(%arg6, %3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(#loc7)
// CHECK-NEXT: "linalg.yield"(%4) : (f32) -> () loc(#loc7)
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc(#loc9)
// CHECK-NEXT: "func.return"() : () -> () loc(#loc10)
// CHECK-NEXT: }) : () -> () loc(#loc1)
// CHECK-NEXT: }) : () -> () loc(#loc)
// CHECK-NEXT: #loc = loc("{{.*}}locations.mlir":0:0)
// CHECK-NEXT: #loc1 = loc("{{.*}}locations.mlir":1:1)
// CHECK-NEXT: #loc8 = loc("{{.*}}locations.mlir":3:8)
// CHECK-NEXT: #loc9 = loc("{{.*}}locations.mlir":4:8)
// CHECK-NEXT: #loc10 = loc("{{.*}}locations.mlir":5:3)
