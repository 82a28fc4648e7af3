// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-simple --buffer-usage-report -o /dev/null 2>&1 | filecheck %s

// Allocations, copies and the peak of live buffer bytes per function: in @mlp the two
// 4x16 buffers (matmul, relu: 256 bytes each) are live together; the first is freed
// before the 4x8 result (128 bytes) is allocated. The size of a dynamically shaped buffer
// is unknown.
// CHECK: Buffer usage:
// CHECK-NEXT: @mlp: 3 allocations (640 bytes), 0 copies (0 bytes), peak 512 bytes
// CHECK-NEXT: @dynamic: 1 allocations (0 bytes + 1 dynamic), 0 copies (0 bytes), peak unknown (dynamic shapes)
// CHECK-NEXT: globals: 0 bytes
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = linalg.matmul ins(%r, %w2 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @dynamic(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  return %e : tensor<?xf32>
}
