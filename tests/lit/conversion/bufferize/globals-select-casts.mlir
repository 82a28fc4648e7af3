// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | filecheck %s

// Tensor constants become private constant memref.globals (one per value, named as
// upstream names them); ml_program globals become memref.globals of the same name,
// dense_resource data kept. A select of two tensors selects their buffers.
// CHECK: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<3.000000e+00> alignment = 64
// CHECK: memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.000000e+00, 2.000000e+00]> alignment = 64
// CHECK: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> alignment = 64
// CHECK: memref.global "private" constant @weights : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> alignment = 64
// CHECK: memref.global "private" constant @blob : memref<2xf32> = dense_resource<blob1> alignment = 64
// CHECK: memref.global "private" @state : memref<2xf32> = dense<0.000000e+00> alignment = 64

ml_program.global private @weights(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private @blob(dense_resource<blob1> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @state(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
// CHECK-LABEL: func.func @constants() -> (memref<2xf32>, memref<2xf32>, memref<f32>, memref<2xf32>) {
//       CHECK: %0 = memref.get_global @__constant_2xf32 : memref<2xf32>
//       CHECK: %1 = memref.get_global @__constant_2xf32_0 : memref<2xf32>
//       CHECK: %2 = memref.get_global @__constant_xf32 : memref<f32>
//       CHECK: %3 = memref.get_global @__constant_2xf32 : memref<2xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%0, %3 : memref<2xf32>, memref<2xf32>) outs(%alloc : memref<2xf32>) {
//       CHECK: %4 = arith.addf %in, %in_3 : f32
//       CHECK: linalg.yield %4 : f32
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: memref.copy %1, %alloc_0 : memref<2xf32> to memref<2xf32>
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<f32>
//       CHECK: memref.copy %2, %alloc_1 : memref<f32> to memref<f32>
//       CHECK: %alloc_2 = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: memref.copy %3, %alloc_2 : memref<2xf32> to memref<2xf32>
//       CHECK: return %alloc, %alloc_0, %alloc_1, %alloc_2 : memref<2xf32>, memref<2xf32>, memref<f32>, memref<2xf32>
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>) {
  %0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = arith.constant dense<[3.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant dense<3.0> : tensor<f32>
  %3 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0, %3 : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2xf32>
  return %s, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @ml_program_globals(%arg0: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>, memref<2xf32>) {
//       CHECK: %0 = memref.get_global @weights : memref<2xf32>
//       CHECK: %1 = memref.get_global @blob : memref<2xf32>
//       CHECK: %2 = memref.get_global @state : memref<2xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: memref.copy %2, %alloc : memref<2xf32> to memref<2xf32>
//       CHECK: %3 = memref.get_global @state : memref<2xf32>
//       CHECK: memref.copy %arg0, %3 : memref<2xf32> to memref<2xf32>
//       CHECK: %alloc_0 = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: memref.copy %0, %alloc_0 : memref<2xf32> to memref<2xf32>
//       CHECK: %alloc_1 = memref.alloc() alignment = 64 : memref<2xf32>
//       CHECK: memref.copy %1, %alloc_1 : memref<2xf32> to memref<2xf32>
//       CHECK: return %alloc_0, %alloc_1, %alloc : memref<2xf32>, memref<2xf32>, memref<2xf32>
func.func @ml_program_globals(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %w = ml_program.global_load_const @weights : tensor<2xf32>
  %b = ml_program.global_load_const @blob : tensor<2xf32>
  %s = ml_program.global_load @state : tensor<2xf32>
  ml_program.global_store @state = %v : tensor<2xf32>
  return %w, %b, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @select(%arg0: i1, %arg1: memref<4xf32>, %arg2: memref<4xf32>, %arg3: memref<4xi1>) -> (f32, memref<4xf32>) {
//       CHECK: %c0 = arith.constant 0 : index
//       CHECK: %0 = arith.select %arg0, %arg1, %arg2 : memref<4xf32>
//       CHECK: %1 = memref.load %0[%c0] : memref<4xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<4xf32>
//       CHECK: linalg.map { arith.select } ins(%arg3, %arg1, %arg2 : memref<4xi1>, memref<4xf32>, memref<4xf32>) outs(%alloc : memref<4xf32>)
//       CHECK: return %1, %alloc : f32, memref<4xf32>
func.func @select(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xi1>) -> (f32, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %x = tensor.extract %s[%c0] : tensor<4xf32>
  %e = arith.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %x, %e : f32, tensor<4xf32>
}

// CHECK-LABEL: func.func @unrealized_cast(%arg0: memref<?xf32>) -> memref<3xf32> {
//       CHECK: %cast = memref.cast %arg0 : memref<?xf32> to memref<3xf32>
//       CHECK: %alloc = memref.alloc() alignment = 64 : memref<3xf32>
//       CHECK: memref.copy %cast, %alloc : memref<3xf32> to memref<3xf32>
//       CHECK: return %alloc : memref<3xf32>
func.func @unrealized_cast(%a: tensor<?xf32>) -> tensor<3xf32> {
  %c = builtin.unrealized_conversion_cast %a : tensor<?xf32> to tensor<3xf32>
  return %c : tensor<3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
