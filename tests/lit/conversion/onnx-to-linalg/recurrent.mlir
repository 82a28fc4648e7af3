// RUN: strata-opt %s --convert-onnx-to-linalg | filecheck %s

// The input projection is one matmul before the loop; the loop carries the state and
// does one matmul and one gate generic per step.
// CHECK-LABEL: func.func @rnn
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<5x2x3xf32> into tensor<10x3xf32>
// CHECK: linalg.matmul {{.*}} ins(%[[X]], %{{.*}} : tensor<10x3xf32>, tensor<4x3xf32>)
// CHECK: %[[XW:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [5, 2, 4] : tensor<10x4xf32> into tensor<5x2x4xf32>
// CHECK: %[[H:.*]] = scf.for %[[T:.*]] = %c0 to %c5 step %c1 iter_args(%[[S:.*]] = %{{.*}}) -> (tensor<2x4xf32>) {
// CHECK:   tensor.extract_slice %[[XW]][%[[T]], 0, 0] [1, 2, 4] [1, 1, 1] : tensor<5x2x4xf32> to tensor<2x4xf32>
// CHECK:   linalg.matmul {{.*}} ins(%[[S]], %{{.*}} : tensor<2x4xf32>, tensor<4x4xf32>)
// CHECK:   math.tanh
// CHECK:   scf.yield
// CHECK: tensor.expand_shape %[[H]] {{\[}}[0, 1], [2]] output_shape [1, 2, 4] : tensor<2x4xf32> into tensor<1x2x4xf32>
func.func @rnn(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %0:2 = "onnx.RNN"(%x, %w, %r) <{hidden_size = 4 : i64}> : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (none, tensor<1x2x4xf32>)
  return %0#1 : tensor<1x2x4xf32>
}

// The reverse direction reads step 4 - t.
// CHECK-LABEL: func.func @reverse_gru
// CHECK: scf.for %[[T:.*]] = %c0 to %c5 step %c1
// CHECK:   %[[R:.*]] = arith.subi %c4, %[[T]] : index
// CHECK:   tensor.extract_slice %{{.*}}[%[[R]], 0, 0] [1, 2, 9] [1, 1, 1] : tensor<5x2x9xf32> to tensor<2x9xf32>
func.func @reverse_gru(%x: tensor<5x2x3xf32>, %w: tensor<1x9x3xf32>, %r: tensor<1x9x3xf32>) -> tensor<1x2x3xf32> {
  %0:2 = "onnx.GRU"(%x, %w, %r) <{hidden_size = 3 : i64, direction = "reverse"}> : (tensor<5x2x3xf32>, tensor<1x9x3xf32>, tensor<1x9x3xf32>) -> (none, tensor<1x2x3xf32>)
  return %0#1 : tensor<1x2x3xf32>
}
