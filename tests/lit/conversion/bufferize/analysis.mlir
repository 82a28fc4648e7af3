// RUN: strata-opt %s --one-shot-bufferize="bufferize-function-boundaries test-analysis-only" | filecheck %s

// In-place decisions of the One-Shot analysis (__inplace_operands_attr__), function
// argument accesses and equivalent results: the text iree-opt prints for this file. The
// arguments are marked writable (without the attribute they are read-only here; see
// read_only_arguments in function-boundaries.mlir).

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @fill_then_read(%arg0: tensor<4xf32> {bufferization.access = "read", bufferization.writable = true}) -> (tensor<4xf32>, f32) {
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "false"]} ins(%cst : f32) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: %extracted = tensor.extract %arg0[%c0] {__inplace_operands_attr__ = ["true", "none"]} : tensor<4xf32>
//       CHECK: return {__inplace_operands_attr__ = ["true", "none"]} %0, %extracted : tensor<4xf32>, f32
func.func @fill_then_read(%a: tensor<4xf32> {bufferization.writable = true}) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  return %f, %x : tensor<4xf32>, f32
}

// CHECK-LABEL: func.func @read_then_fill(%arg0: tensor<4xf32> {bufferization.access = "read-write", bufferization.writable = true}) -> (tensor<4xf32>, f32) {
//       CHECK: %extracted = tensor.extract %arg0[%c0] {__inplace_operands_attr__ = ["true", "none"]} : tensor<4xf32>
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: return {__equivalent_func_args__ = [0, -1], __inplace_operands_attr__ = ["true", "none"]} %0, %extracted : tensor<4xf32>, f32
func.func @read_then_fill(%a: tensor<4xf32> {bufferization.writable = true}) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %f, %x : tensor<4xf32>, f32
}

// CHECK-LABEL: func.func @elementwise_inplace(%arg0: tensor<4xf32> {bufferization.access = "read-write", bufferization.writable = true}) -> tensor<4xf32> {
//       CHECK: %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%arg0 : tensor<4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "true"]} {
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %0 : tensor<4xf32>
func.func @elementwise_inplace(%a: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @transpose_not_inplace(%arg0: tensor<4x4xf32> {bufferization.access = "read", bufferization.writable = true}) -> tensor<4x4xf32> {
//       CHECK: %0 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg0 : tensor<4x4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "false"]} {
//       CHECK: return {__inplace_operands_attr__ = ["true"]} %0 : tensor<4x4xf32>
func.func @transpose_not_inplace(%a: tensor<4x4xf32> {bufferization.writable = true}) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @two_writes(%arg0: tensor<4xf32> {bufferization.access = "write", bufferization.writable = true}) -> (tensor<4xf32>, tensor<4xf32>) {
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "false"]} ins(%cst : f32) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: %1 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst_0 : f32) outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: return {__equivalent_func_args__ = [-1, 0], __inplace_operands_attr__ = ["true", "true"]} %0, %1 : tensor<4xf32>, tensor<4xf32>
func.func @two_writes(%a: tensor<4xf32> {bufferization.writable = true}) -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %f1 = linalg.fill ins(%c1 : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %f2 = linalg.fill ins(%c2 : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %f1, %f2 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @slice_insert(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: index) -> tensor<8xf32> {
//       CHECK: %extracted_slice = tensor.extract_slice %arg0[%arg1] [4] [1] {__inplace_operands_attr__ = ["true", "none"]} : tensor<8xf32> to tensor<4xf32>
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%extracted_slice : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: %inserted_slice = tensor.insert_slice %0 into %arg0[%arg1] [4] [1] {__inplace_operands_attr__ = ["true", "true", "none"]} : tensor<4xf32> into tensor<8xf32>
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %inserted_slice : tensor<8xf32>
func.func @slice_insert(%t: tensor<8xf32> {bufferization.writable = true}, %i: index) -> tensor<8xf32> {
  %c1 = arith.constant 1.0 : f32
  %s = tensor.extract_slice %t[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %f = linalg.fill ins(%c1 : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %f into %t[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @slice_insert_other(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: index, %arg2: index) -> tensor<8xf32> {
//       CHECK: %extracted_slice = tensor.extract_slice %arg0[%arg1] [4] [1] {__inplace_operands_attr__ = ["false", "none"]} : tensor<8xf32> to tensor<4xf32>
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%extracted_slice : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: %inserted_slice = tensor.insert_slice %0 into %arg0[%arg2] [4] [1] {__inplace_operands_attr__ = ["true", "true", "none"]} : tensor<4xf32> into tensor<8xf32>
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %inserted_slice : tensor<8xf32>
func.func @slice_insert_other(%t: tensor<8xf32> {bufferization.writable = true}, %i: index, %j: index) -> tensor<8xf32> {
  %c1 = arith.constant 1.0 : f32
  %s = tensor.extract_slice %t[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %f = linalg.fill ins(%c1 : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %f into %t[%j] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @loop_inplace(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: index) -> tensor<8xf32> {
//       CHECK: %inserted = tensor.insert %cst into %arg3[%arg2] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %inserted : tensor<8xf32>
//       CHECK: } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %0 : tensor<8xf32>
func.func @loop_inplace(%t: tensor<8xf32> {bufferization.writable = true}, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %x = tensor.insert %cst into %a[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @loop_read_init_after(%arg0: tensor<8xf32> {bufferization.access = "read", bufferization.writable = true}, %arg1: index) -> (tensor<8xf32>, f32) {
//       CHECK: %inserted = tensor.insert %cst into %arg3[%arg2] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %inserted : tensor<8xf32>
//       CHECK: } {__inplace_operands_attr__ = ["none", "none", "none", "false"]}
//       CHECK: %extracted = tensor.extract %arg0[%c0] {__inplace_operands_attr__ = ["true", "none"]} : tensor<8xf32>
//       CHECK: return {__inplace_operands_attr__ = ["true", "none"]} %0, %extracted : tensor<8xf32>, f32
func.func @loop_read_init_after(%t: tensor<8xf32> {bufferization.writable = true}, %n: index) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %x = tensor.insert %cst into %a[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  }
  %e = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %e : tensor<8xf32>, f32
}

// CHECK-LABEL: func.func @loop_outer_value(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: tensor<8xf32> {bufferization.access = "read", bufferization.writable = true}, %arg2: index) -> tensor<8xf32> {
//       CHECK: %inserted = tensor.insert %cst into %arg1[%arg3] {__inplace_operands_attr__ = ["none", "false", "none"]} : tensor<8xf32>
//       CHECK: %extracted = tensor.extract %inserted[%c0] {__inplace_operands_attr__ = ["true", "none"]} : tensor<8xf32>
//       CHECK: %inserted_0 = tensor.insert %extracted into %arg4[%arg3] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %inserted_0 : tensor<8xf32>
//       CHECK: } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %0 : tensor<8xf32>
func.func @loop_outer_value(%t: tensor<8xf32> {bufferization.writable = true}, %u: tensor<8xf32> {bufferization.writable = true}, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %x = tensor.insert %cst into %u[%i] : tensor<8xf32>
    %y = tensor.extract %x[%c0] : tensor<8xf32>
    %z = tensor.insert %y into %a[%i] : tensor<8xf32>
    scf.yield %z : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @if_yield(%arg0: tensor<8xf32> {bufferization.access = "read", bufferization.writable = true}, %arg1: tensor<8xf32> {bufferization.access = "read", bufferization.writable = true}, %arg2: i1, %arg3: index) -> (tensor<8xf32>, f32) {
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %arg0 : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %arg1 : tensor<8xf32>
//       CHECK: %inserted = tensor.insert %cst into %0[%arg3] {__inplace_operands_attr__ = ["none", "false", "none"]} : tensor<8xf32>
//       CHECK: %extracted = tensor.extract %arg0[%arg3] {__inplace_operands_attr__ = ["true", "none"]} : tensor<8xf32>
//       CHECK: return {__inplace_operands_attr__ = ["true", "none"]} %inserted, %extracted : tensor<8xf32>, f32
func.func @if_yield(%t: tensor<8xf32> {bufferization.writable = true}, %u: tensor<8xf32> {bufferization.writable = true}, %c: i1, %i: index) -> (tensor<8xf32>, f32) {
  %cst = arith.constant 1.0 : f32
  %r = scf.if %c -> (tensor<8xf32>) {
    scf.yield %t : tensor<8xf32>
  } else {
    scf.yield %u : tensor<8xf32>
  }
  %x = tensor.insert %cst into %r[%i] : tensor<8xf32>
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %x, %e : tensor<8xf32>, f32
}

// CHECK-LABEL: func.func @if_write_branches(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: i1, %arg2: index) -> tensor<8xf32> {
//       CHECK: %inserted = tensor.insert %cst into %arg0[%arg2] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %inserted : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["true"]} %arg0 : tensor<8xf32>
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %0 : tensor<8xf32>
func.func @if_write_branches(%t: tensor<8xf32> {bufferization.writable = true}, %c: i1, %i: index) -> (tensor<8xf32>) {
  %cst = arith.constant 1.0 : f32
  %r = scf.if %c -> (tensor<8xf32>) {
    %x = tensor.insert %cst into %t[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  } else {
    scf.yield %t : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @empty_chain(%arg0: tensor<4x8xf32> {bufferization.access = "read"}, %arg1: tensor<8x4xf32> {bufferization.access = "read"}) -> tensor<4x4xf32> {
//       CHECK: %1 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%0 : tensor<4x4xf32>) -> tensor<4x4xf32>
//       CHECK: %2 = linalg.matmul {__inplace_operands_attr__ = ["true", "true", "true"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
//       CHECK: %3 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "true"]} {
//       CHECK: return {__inplace_operands_attr__ = ["true"]} %3 : tensor<4x4xf32>
func.func @empty_chain(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.maximumf %x, %cst : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @expand_write(%arg0: tensor<8xf32> {bufferization.access = "read", bufferization.writable = true}) -> (tensor<2x4xf32>, tensor<8xf32>) {
//       CHECK: %expanded = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {__inplace_operands_attr__ = ["false"]} : tensor<8xf32> into tensor<2x4xf32>
//       CHECK: %0 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%expanded : tensor<2x4xf32>) -> tensor<2x4xf32>
//       CHECK: return {__equivalent_func_args__ = [-1, 0], __inplace_operands_attr__ = ["true", "true"]} %0, %arg0 : tensor<2x4xf32>, tensor<8xf32>
func.func @expand_write(%a: tensor<8xf32> {bufferization.writable = true}) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %f, %a : tensor<2x4xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @while_loop(%arg0: tensor<8xf32> {bufferization.access = "read-write", bufferization.writable = true}, %arg1: index) -> tensor<8xf32> {
//       CHECK: scf.condition(%1) {__inplace_operands_attr__ = ["none", "none", "true"]} %arg2, %arg3 : index, tensor<8xf32>
//       CHECK: %inserted = tensor.insert %cst into %arg3[%arg2] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<8xf32>
//       CHECK: scf.yield {__inplace_operands_attr__ = ["none", "true"]} %1, %inserted : index, tensor<8xf32>
//       CHECK: } attributes {__inplace_operands_attr__ = ["none", "true"]}
//       CHECK: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %0#1 : tensor<8xf32>
func.func @while_loop(%t: tensor<8xf32> {bufferization.writable = true}, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %cond = arith.cmpi slt, %i, %n : index
    scf.condition(%cond) %i, %a : index, tensor<8xf32>
  } do {
  ^bb0(%i: index, %a: tensor<8xf32>):
    %x = tensor.insert %cst into %a[%i] : tensor<8xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %j, %x : index, tensor<8xf32>
  }
  return %r#1 : tensor<8xf32>
}

// CHECK-LABEL: func.func @select_alias(%arg0: tensor<4xf32> {bufferization.access = "read", bufferization.writable = true}, %arg1: tensor<4xf32> {bufferization.access = "write", bufferization.writable = true}, %arg2: i1) -> (tensor<4xf32>, tensor<4xf32>) {
//       CHECK: %0 = arith.select %arg2, %arg0, %arg1 {__inplace_operands_attr__ = ["none", "false", "true"]} : tensor<4xf32>
//       CHECK: %1 = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
//       CHECK: return {__equivalent_func_args__ = [-1, 0], __inplace_operands_attr__ = ["true", "true"]} %1, %arg0 : tensor<4xf32>, tensor<4xf32>
func.func @select_alias(%a: tensor<4xf32> {bufferization.writable = true}, %b: tensor<4xf32> {bufferization.writable = true}, %c: i1) -> (tensor<4xf32>, tensor<4xf32>) {
  %cst = arith.constant 0.0 : f32
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  return %f, %a : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @constant_out(%arg0: tensor<4xf32> {bufferization.access = "read"}) -> tensor<4xf32> {
//       CHECK: %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%cst : tensor<4xf32>) attrs =  {__inplace_operands_attr__ = ["true", "false"]} {
//       CHECK: return {__inplace_operands_attr__ = ["true"]} %0 : tensor<4xf32>
func.func @constant_out(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @pad_concat(%arg0: tensor<2x3xf32> {bufferization.access = "read"}, %arg1: tensor<2x3xf32> {bufferization.access = "read"}) -> tensor<4x5xf32> {
//       CHECK: %concat = tensor.concat dim(0) %arg0, %arg1 {__inplace_operands_attr__ = ["true", "true"]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
//       CHECK: } {__inplace_operands_attr__ = ["true"]} : tensor<4x3xf32> to tensor<4x5xf32>
//       CHECK: return {__inplace_operands_attr__ = ["true"]} %padded : tensor<4x5xf32>
func.func @pad_concat(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %c = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %p = tensor.pad %c low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x3xf32> to tensor<4x5xf32>
  return %p : tensor<4x5xf32>
}
