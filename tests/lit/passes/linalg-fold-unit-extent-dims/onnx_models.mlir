// RUN: strata-opt %s --linalg-fuse-elementwise-ops --linalg-fold-unit-extent-dims | filecheck %s

// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1) -> ()>

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1) -> (0, d1)>

// Lowered ONNX models, fused then with their unit dims dropped.
// CHECK-LABEL: func.func @mlp(%arg0: tensor<4x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x16xf32>, %arg4: tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x32xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:   %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:   %3 = tensor.empty() : tensor<4x32xf32>
// CHECK-NEXT:   %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<4x32xf32>, tensor<32xf32>) outs(%3 : tensor<4x32xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     %11 = arith.maximumf %10, %cst : f32
// CHECK-NEXT:     linalg.yield %11 : f32
// CHECK-NEXT:   } -> tensor<4x32xf32>
// CHECK-NEXT:   %5 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %7 = linalg.matmul ins(%4, %arg3 : tensor<4x32xf32>, tensor<32x16xf32>) outs(%6 : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %8 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %9 = linalg.generic {indexing_maps = [#map, #map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %arg4, %arg0 : tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>) outs(%8 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.addf %in, %in_0 : f32
// CHECK-NEXT:     %11 = arith.addf %10, %in_1 : f32
// CHECK-NEXT:     linalg.yield %11 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %9 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @mlp(%arg0: tensor<4x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x16xf32>, %arg4: tensor<16xf32>) -> (tensor<4x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %3 = tensor.empty() : tensor<4x32xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<4x32xf32>, tensor<32xf32>) outs(%3 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %14 = arith.addf %in, %in_0 : f32
    linalg.yield %14 : f32
  } -> tensor<4x32xf32>
  %5 = tensor.empty() : tensor<4x32xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x32xf32>) outs(%5 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %14 = arith.maximumf %in, %cst : f32
    linalg.yield %14 : f32
  } -> tensor<4x32xf32>
  %7 = tensor.empty() : tensor<4x16xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %9 = linalg.matmul ins(%6, %arg3 : tensor<4x32xf32>, tensor<32x16xf32>) outs(%8 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %10 = tensor.empty() : tensor<4x16xf32>
  %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %arg4 : tensor<4x16xf32>, tensor<16xf32>) outs(%10 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %14 = arith.addf %in, %in_0 : f32
    linalg.yield %14 : f32
  } -> tensor<4x16xf32>
  %12 = tensor.empty() : tensor<4x16xf32>
  %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %arg0 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%12 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %14 = arith.addf %in, %in_0 : f32
    linalg.yield %14 : f32
  } -> tensor<4x16xf32>
  return %13 : tensor<4x16xf32>
}

// The keepdims reductions lose their unit dim: reductions over 4x16 into 4.
// CHECK-LABEL: func.func @layernorm(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %cst = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT:   %cst_0 = arith.constant 1.600000e+01 : f32
// CHECK-NEXT:   %cst_1 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %8 = arith.addf %out, %in : f32
// CHECK-NEXT:     linalg.yield %8 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %3 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %4 = linalg.fill ins(%cst_1 : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %5 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%4 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %8 = arith.mulf %in, %in : f32
// CHECK-NEXT:     %9 = arith.addf %out, %8 : f32
// CHECK-NEXT:     linalg.yield %9 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %6 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %7 = linalg.generic {indexing_maps = [#map, #map2, #map2, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %2, %5, %arg1, %arg2 : tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>, tensor<16xf32>, tensor<16xf32>) outs(%6 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_2: f32, %in_3: f32, %in_4: f32, %in_5: f32, %out: f32):
// CHECK-NEXT:     %8 = arith.divf %in_2, %cst_0 : f32
// CHECK-NEXT:     %9 = arith.mulf %8, %8 : f32
// CHECK-NEXT:     %10 = arith.divf %in_3, %cst_0 : f32
// CHECK-NEXT:     %11 = arith.subf %10, %9 : f32
// CHECK-NEXT:     %12 = arith.addf %11, %cst : f32
// CHECK-NEXT:     %13 = math.sqrt %12 : f32
// CHECK-NEXT:     %14 = arith.subf %in, %8 : f32
// CHECK-NEXT:     %15 = arith.divf %14, %13 : f32
// CHECK-NEXT:     %16 = arith.mulf %15, %in_4 : f32
// CHECK-NEXT:     %17 = arith.addf %16, %in_5 : f32
// CHECK-NEXT:     linalg.yield %17 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %7 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @layernorm(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> (tensor<4x16xf32>) {
  %cst = arith.constant 1.600000e+01 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant dense<9.99999974E-6> : tensor<f32>
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %2 = tensor.empty() : tensor<4xf32>
  %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x16xf32>) outs(%3 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.addf %out, %in : f32
    linalg.yield %32 : f32
  } -> tensor<4xf32>
  %5 = tensor.empty() : tensor<4xf32>
  %6 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%4 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.divf %in, %cst : f32
    linalg.yield %32 : f32
  } -> tensor<4xf32>
  %expanded = tensor.expand_shape %6 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %7 = tensor.empty() : tensor<4x16xf32>
  %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%7 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.mulf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x16xf32>
  %9 = tensor.empty() : tensor<4xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<4xf32>) -> tensor<4xf32>
  %11 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%8 : tensor<4x16xf32>) outs(%10 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.addf %out, %in : f32
    linalg.yield %32 : f32
  } -> tensor<4xf32>
  %12 = tensor.empty() : tensor<4xf32>
  %13 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%11 : tensor<4xf32>) outs(%12 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.divf %in, %cst : f32
    linalg.yield %32 : f32
  } -> tensor<4xf32>
  %expanded_2 = tensor.expand_shape %13 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %14 = tensor.empty() : tensor<4x1xf32>
  %15 = linalg.generic {indexing_maps = [#map4, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded : tensor<4x1xf32>, tensor<4x1xf32>) outs(%14 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.mulf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x1xf32>
  %16 = tensor.empty() : tensor<4x1xf32>
  %17 = linalg.generic {indexing_maps = [#map4, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_2, %15 : tensor<4x1xf32>, tensor<4x1xf32>) outs(%16 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.subf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x1xf32>
  %18 = tensor.empty() : tensor<4x1xf32>
  %19 = linalg.generic {indexing_maps = [#map4, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%17, %cst_1 : tensor<4x1xf32>, tensor<f32>) outs(%18 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.addf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x1xf32>
  %20 = tensor.empty() : tensor<4x1xf32>
  %21 = linalg.generic {indexing_maps = [#map4, #map], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<4x1xf32>) outs(%20 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = math.sqrt %in : f32
    linalg.yield %32 : f32
  } -> tensor<4x1xf32>
  %22 = tensor.empty() : tensor<4x16xf32>
  %23 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %expanded : tensor<4x16xf32>, tensor<4x1xf32>) outs(%22 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.subf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x16xf32>
  %24 = tensor.empty() : tensor<4x16xf32>
  %25 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%23, %21 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%24 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.divf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x16xf32>
  %26 = tensor.empty() : tensor<4x16xf32>
  %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%25 : tensor<4x16xf32>) outs(%26 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %expanded_3 = tensor.expand_shape %arg1 [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %28 = tensor.empty() : tensor<4x16xf32>
  %29 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%27, %expanded_3 : tensor<4x16xf32>, tensor<1x16xf32>) outs(%28 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.mulf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x16xf32>
  %expanded_4 = tensor.expand_shape %arg2 [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %30 = tensor.empty() : tensor<4x16xf32>
  %31 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%29, %expanded_4 : tensor<4x16xf32>, tensor<1x16xf32>) outs(%30 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %32 = arith.addf %in, %in_5 : f32
    linalg.yield %32 : f32
  } -> tensor<4x16xf32>
  return %31 : tensor<4x16xf32>
}

// Same for the softmax reductions.
// CHECK-LABEL: func.func @softmax(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %cst_0 = arith.constant 0xFF800000 : f32
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %2 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%1 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.maximumf %out, %in : f32
// CHECK-NEXT:     linalg.yield %10 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %3 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %4 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %2 : tensor<4x16xf32>, tensor<4xf32>) outs(%3 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.subf %in, %in_1 : f32
// CHECK-NEXT:     %11 = math.exp %10 : f32
// CHECK-NEXT:     linalg.yield %11 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   %5 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:   %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   %7 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<4x16xf32>) outs(%6 : tensor<4xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.addf %out, %in : f32
// CHECK-NEXT:     linalg.yield %10 : f32
// CHECK-NEXT:   } -> tensor<4xf32>
// CHECK-NEXT:   %8 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %7 : tensor<4x16xf32>, tensor<4xf32>) outs(%8 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_1: f32, %out: f32):
// CHECK-NEXT:     %10 = arith.divf %in, %in_1 : f32
// CHECK-NEXT:     linalg.yield %10 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %9 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @softmax(%arg0: tensor<4x16xf32>) -> (tensor<4x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %12 = arith.maximumf %out, %in : f32
    linalg.yield %12 : f32
  } -> tensor<4xf32>
  %expanded = tensor.expand_shape %2 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %3 = tensor.empty() : tensor<4x16xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<4x16xf32>, tensor<4x1xf32>) outs(%3 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %12 = arith.subf %in, %in_2 : f32
    linalg.yield %12 : f32
  } -> tensor<4x16xf32>
  %5 = tensor.empty() : tensor<4x16xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x16xf32>) outs(%5 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %12 = math.exp %in : f32
    linalg.yield %12 : f32
  } -> tensor<4x16xf32>
  %7 = tensor.empty() : tensor<4xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4xf32>) -> tensor<4xf32>
  %9 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%6 : tensor<4x16xf32>) outs(%8 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %12 = arith.addf %out, %in : f32
    linalg.yield %12 : f32
  } -> tensor<4xf32>
  %expanded_1 = tensor.expand_shape %9 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %10 = tensor.empty() : tensor<4x16xf32>
  %11 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %expanded_1 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%10 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %12 = arith.divf %in, %in_2 : f32
    linalg.yield %12 : f32
  } -> tensor<4x16xf32>
  return %11 : tensor<4x16xf32>
}

// Nothing to drop.
// CHECK-LABEL: func.func @gelu(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>) -> tensor<4x16xf32> {
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:   %1 = linalg.generic {indexing_maps = [#map, #map3, #map3, #map3, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2, %arg3, %arg4 : tensor<4x16xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) outs(%0 : tensor<4x16xf32>) {
// CHECK-NEXT:   ^bb0(%in: f32, %in_0: f32, %in_1: f32, %in_2: f32, %in_3: f32, %out: f32):
// CHECK-NEXT:     %2 = arith.mulf %in, %in : f32
// CHECK-NEXT:     %3 = arith.mulf %2, %in : f32
// CHECK-NEXT:     %4 = arith.mulf %3, %in_0 : f32
// CHECK-NEXT:     %5 = arith.addf %in, %4 : f32
// CHECK-NEXT:     %6 = arith.mulf %5, %in_1 : f32
// CHECK-NEXT:     %7 = math.tanh %6 : f32
// CHECK-NEXT:     %8 = arith.addf %7, %in_2 : f32
// CHECK-NEXT:     %9 = arith.mulf %in, %8 : f32
// CHECK-NEXT:     %10 = arith.mulf %9, %in_3 : f32
// CHECK-NEXT:     linalg.yield %10 : f32
// CHECK-NEXT:   } -> tensor<4x16xf32>
// CHECK-NEXT:   return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @gelu(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>) -> (tensor<4x16xf32>) {
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %2 = tensor.empty() : tensor<4x16xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %arg0 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%2 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %4 = tensor.empty() : tensor<4x16xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg1 : tensor<4x16xf32>, tensor<f32>) outs(%4 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %6 = tensor.empty() : tensor<4x16xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %5 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%6 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.addf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %8 = tensor.empty() : tensor<4x16xf32>
  %9 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %arg2 : tensor<4x16xf32>, tensor<f32>) outs(%8 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %10 = tensor.empty() : tensor<4x16xf32>
  %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<4x16xf32>) outs(%10 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %18 = math.tanh %in : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %12 = tensor.empty() : tensor<4x16xf32>
  %13 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %arg3 : tensor<4x16xf32>, tensor<f32>) outs(%12 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.addf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %14 = tensor.empty() : tensor<4x16xf32>
  %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %13 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%14 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  %16 = tensor.empty() : tensor<4x16xf32>
  %17 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %arg4 : tensor<4x16xf32>, tensor<f32>) outs(%16 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %18 = arith.mulf %in, %in_0 : f32
    linalg.yield %18 : f32
  } -> tensor<4x16xf32>
  return %17 : tensor<4x16xf32>
}
