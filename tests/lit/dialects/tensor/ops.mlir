// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK-LABEL: func.func @casts
func.func @casts(%t: tensor<4x?xf32>, %u: tensor<*xf32>, %q: tensor<4xui32>) {
  // CHECK-NEXT: %0 = tensor.bitcast %arg2 : tensor<4xui32> to tensor<4xi32>
  %0 = tensor.bitcast %q : tensor<4xui32> to tensor<4xi32>
  // CHECK-NEXT: %cast = tensor.cast %arg0 : tensor<4x?xf32> to tensor<?x?xf32>
  %1 = tensor.cast %t : tensor<4x?xf32> to tensor<?x?xf32>
  // CHECK-NEXT: %cast_0 = tensor.cast %arg1 : tensor<*xf32> to tensor<4x?xf32>
  %2 = tensor.cast %u : tensor<*xf32> to tensor<4x?xf32>
  // CHECK-NEXT: %cast_1 = tensor.cast %arg0 : tensor<4x?xf32> to tensor<*xf32>
  %3 = tensor.cast %t : tensor<4x?xf32> to tensor<*xf32>
  // CHECK-NEXT: %1 = tensor.bitcast %arg1 : tensor<*xf32> to tensor<*xi32>
  %4 = tensor.bitcast %u : tensor<*xf32> to tensor<*xi32>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%t: tensor<4x?xf32>, %u: tensor<*xf32>, %i: index) -> (index, index, index) {
  // CHECK-NEXT: %dim = tensor.dim %arg0, %arg2 : tensor<4x?xf32>
  %0 = tensor.dim %t, %i : tensor<4x?xf32>
  // CHECK-NEXT: %dim_0 = tensor.dim {tag} %arg1, %arg2 : tensor<*xf32>
  %1 = tensor.dim {tag} %u, %i : tensor<*xf32>
  // CHECK-NEXT: %rank = tensor.rank %arg1 : tensor<*xf32>
  %2 = tensor.rank %u : tensor<*xf32>
  // CHECK-NEXT: return %dim, %dim_0, %rank : index, index, index
  return %0, %1, %2 : index, index, index
}

// CHECK-LABEL: func.func @construction
func.func @construction(%i: index, %f: f32, %x: i32) {
  // CHECK-NEXT: %0 = tensor.empty(%arg0) : tensor<4x?xf32>
  %0 = tensor.empty(%i) : tensor<4x?xf32>
  // CHECK-NEXT: %1 = tensor.empty() : tensor<4x5xf32, "enc">
  %1 = tensor.empty() : tensor<4x5xf32, "enc">
  // CHECK-NEXT: %from_elements = tensor.from_elements %arg1, %arg1 : tensor<2xf32>
  %2 = tensor.from_elements %f, %f : tensor<2xf32>
  // CHECK-NEXT: %from_elements_0 = tensor.from_elements %arg2 : tensor<i32>
  %3 = tensor.from_elements %x : tensor<i32>
  // CHECK-NEXT: %from_elements_1 = tensor.from_elements  : tensor<0xf32>
  %4 = tensor.from_elements : tensor<0xf32>
  // CHECK-NEXT: %splat = tensor.splat %arg1 : tensor<8x16xf32>
  %5 = tensor.splat %f : tensor<8x16xf32>
  // CHECK-NEXT: %splat_2 = tensor.splat %arg1[%arg0, %arg0] : tensor<?x16x?xf32>
  %6 = tensor.splat %f[%i, %i] : tensor<?x16x?xf32>
  // CHECK-NEXT: %splat_3 = tensor.splat %arg0 : tensor<2xindex>
  %7 = tensor.splat %i : tensor<2xindex>
  // CHECK-NEXT: %generated = tensor.generate %arg0 {
  // CHECK-NEXT: ^bb0(%arg3: index, %arg4: index):
  // CHECK-NEXT:   %[[S:.*]] = arith.addf %arg1, %arg1 : f32
  // CHECK-NEXT:   tensor.yield %[[S]] : f32
  // CHECK-NEXT: } : tensor<?x3xf32>
  %8 = tensor.generate %i {
  ^bb0(%a: index, %b: index):
    %s = arith.addf %f, %f : f32
    tensor.yield %s : f32
  } : tensor<?x3xf32>
  // CHECK-NEXT: %generated_4 = tensor.generate  {
  // CHECK-NEXT: ^bb0(%arg3: index):
  // CHECK-NEXT:   tensor.yield %arg3 : index
  // CHECK-NEXT: } {tag} : tensor<4xindex>
  %9 = tensor.generate {
  ^bb0(%a: index):
    tensor.yield %a : index
  } {tag} : tensor<4xindex>
  return
}

// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<8x16x4xf32>, %b: tensor<?x16x4xf32>) {
  // CHECK-NEXT: %concat = tensor.concat dim(0) %arg0, %arg0 : (tensor<8x16x4xf32>, tensor<8x16x4xf32>) -> tensor<16x16x4xf32>
  %0 = tensor.concat dim(0) %a, %a : (tensor<8x16x4xf32>, tensor<8x16x4xf32>) -> tensor<16x16x4xf32>
  // CHECK-NEXT: %concat_0 = tensor.concat dim(0) %arg0, %arg1 : (tensor<8x16x4xf32>, tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
  %1 = tensor.concat dim(0) %a, %b : (tensor<8x16x4xf32>, tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
  // CHECK-NEXT: %concat_1 = tensor.concat dim(2) %arg1 : (tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
  %2 = tensor.concat dim(2) %b : (tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
  return
}

// CHECK-LABEL: func.func @elements
func.func @elements(%t: tensor<4x?xf32>, %r: tensor<f32>, %i: index, %j: index, %f: f32) {
  // CHECK-NEXT: %extracted = tensor.extract %arg0[%arg2, %arg3] : tensor<4x?xf32>
  %0 = tensor.extract %t[%i, %j] : tensor<4x?xf32>
  // CHECK-NEXT: %extracted_0 = tensor.extract %arg1[] : tensor<f32>
  %1 = tensor.extract %r[] : tensor<f32>
  // CHECK-NEXT: %inserted = tensor.insert %arg4 into %arg0[%arg2, %arg3] : tensor<4x?xf32>
  %2 = tensor.insert %f into %t[%i, %j] : tensor<4x?xf32>
  // CHECK-NEXT: %inserted_1 = tensor.insert %extracted into %arg1[] : tensor<f32>
  %3 = tensor.insert %0 into %r[] : tensor<f32>
  return
}

// CHECK-LABEL: func.func @slices
func.func @slices(%s: tensor<8x16x4xf32>, %d: tensor<8x?x4xf32>, %i: index, %j: index) {
  // CHECK-NEXT: %extracted_slice = tensor.extract_slice %arg0[0, %arg2, 0] [1, 16, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<16x4xf32>
  %0 = tensor.extract_slice %s[0, %i, 0] [1, 16, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<16x4xf32>
  // CHECK-NEXT: %extracted_slice_0 = tensor.extract_slice %arg1[%arg2, 0, 0] [2, %arg3, 4] [1, %arg2, 1] : tensor<8x?x4xf32> to tensor<2x?x4xf32>
  %1 = tensor.extract_slice %d[%i, 0, 0] [2, %j, 4] [1, %i, 1] : tensor<8x?x4xf32> to tensor<2x?x4xf32>
  // CHECK-NEXT: %extracted_slice_1 = tensor.extract_slice %arg0[0, 0, 0] [1, 1, 1] [1, 1, 1] {tag} : tensor<8x16x4xf32> to tensor<f32>
  %2 = tensor.extract_slice %s[0, 0, 0] [1, 1, 1] [1, 1, 1] {tag} : tensor<8x16x4xf32> to tensor<f32>
  // CHECK-NEXT: %extracted_slice_2 = tensor.extract_slice %arg0[0, 0, 0] [1, 16, 1] [1, 1, 1] : tensor<8x16x4xf32> to tensor<1x16xf32>
  %3 = tensor.extract_slice %s[0, 0, 0] [1, 16, 1] [1, 1, 1] : tensor<8x16x4xf32> to tensor<1x16xf32>
  // CHECK-NEXT: %inserted_slice = tensor.insert_slice %extracted_slice into %arg0[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<16x4xf32> into tensor<8x16x4xf32>
  %4 = tensor.insert_slice %0 into %s[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<16x4xf32> into tensor<8x16x4xf32>
  // CHECK-NEXT: %inserted_slice_3 = tensor.insert_slice %extracted_slice_0 into %arg1[%arg3, %arg2, 0] [2, %arg3, 4] [1, 1, 1] : tensor<2x?x4xf32> into tensor<8x?x4xf32>
  %5 = tensor.insert_slice %1 into %d[%j, %i, 0] [2, %j, 4] [1, 1, 1] : tensor<2x?x4xf32> into tensor<8x?x4xf32>
  return
}

// CHECK-LABEL: func.func @reshapes
func.func @reshapes(%t: tensor<4x?xf32>, %s: tensor<8x16x4xf32>, %sh: tensor<1xi32>, %dsh: tensor<?xindex>, %i: index, %one: tensor<1x1xf32>) {
  // CHECK-NEXT: %reshape = tensor.reshape %arg0(%arg2) : (tensor<4x?xf32>, tensor<1xi32>) -> tensor<?xf32>
  %0 = tensor.reshape %t(%sh) : (tensor<4x?xf32>, tensor<1xi32>) -> tensor<?xf32>
  // CHECK-NEXT: %reshape_0 = tensor.reshape %arg1(%arg3) : (tensor<8x16x4xf32>, tensor<?xindex>) -> tensor<*xf32>
  %1 = tensor.reshape %s(%dsh) : (tensor<8x16x4xf32>, tensor<?xindex>) -> tensor<*xf32>
  // CHECK-NEXT: %collapsed = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<8x16x4xf32> into tensor<128x4xf32>
  %2 = tensor.collapse_shape %s [[0, 1], [2]] : tensor<8x16x4xf32> into tensor<128x4xf32>
  // CHECK-NEXT: %collapsed_1 = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  %3 = tensor.collapse_shape %t [[0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  // CHECK-NEXT: %collapsed_2 = tensor.collapse_shape %arg5 [] : tensor<1x1xf32> into tensor<f32>
  %4 = tensor.collapse_shape %one [] : tensor<1x1xf32> into tensor<f32>
  // CHECK-NEXT: %expanded = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [2, 2, %arg4] : tensor<4x?xf32> into tensor<2x2x?xf32>
  %5 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 2, %i] : tensor<4x?xf32> into tensor<2x2x?xf32>
  // CHECK-NEXT: %expanded_3 = tensor.expand_shape %collapsed_2 [] output_shape [1, 1] {tag} : tensor<f32> into tensor<1x1xf32>
  %6 = tensor.expand_shape %4 [] output_shape [1, 1] {tag} : tensor<f32> into tensor<1x1xf32>
  return
}

// CHECK-LABEL: func.func @pad
func.func @pad(%t: tensor<4x?xf32>, %i: index, %f: f32) {
  // CHECK-NEXT: %padded = tensor.pad %arg0 low[1, %arg1] high[2, 3] {
  // CHECK-NEXT: ^bb0(%arg3: index, %arg4: index):
  // CHECK-NEXT:   tensor.yield %arg2 : f32
  // CHECK-NEXT: } : tensor<4x?xf32> to tensor<7x?xf32>
  %0 = tensor.pad %t low[1, %i] high[2, 3] {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<4x?xf32> to tensor<7x?xf32>
  // CHECK-NEXT: %padded_0 = tensor.pad %arg0 nofold low[0, 0] high[%arg1, 0] {
  // CHECK-NEXT: ^bb0(%arg3: index, %arg4: index):
  // CHECK-NEXT:   tensor.yield %arg2 : f32
  // CHECK-NEXT: } {tag} : tensor<4x?xf32> to tensor<?x?xf32>
  %1 = tensor.pad %t nofold low[0, 0] high[%i, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } {tag} : tensor<4x?xf32> to tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%s: tensor<4x5x6xf32>, %idx: tensor<1x2x3xindex>, %idx2: tensor<7x2xi32>) {
  // CHECK-NEXT: %gather = tensor.gather %arg0[%arg1] gather_dims([0, 1, 2]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  %0 = tensor.gather %s[%idx] gather_dims([0, 1, 2]) : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  // CHECK-NEXT: %gather_0 = tensor.gather %arg0[%arg1] gather_dims([0, 1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2xf32>
  %1 = tensor.gather %s[%idx] gather_dims([0, 1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<1x2xf32>
  // CHECK-NEXT: %gather_1 = tensor.gather %arg0[%arg2] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x5xf32>
  %2 = tensor.gather %s[%idx2] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x5xf32>
  // CHECK-NEXT: %scatter = tensor.scatter %gather into %arg0[%arg1] scatter_dims([0, 1, 2]) unique : (tensor<1x2x1x1x1xf32>, tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<4x5x6xf32>
  %3 = tensor.scatter %0 into %s[%idx] scatter_dims([0, 1, 2]) unique : (tensor<1x2x1x1x1xf32>, tensor<4x5x6xf32>, tensor<1x2x3xindex>) -> tensor<4x5x6xf32>
  // CHECK-NEXT: %scatter_2 = tensor.scatter %gather_1 into %arg0[%arg2] scatter_dims([0, 2]) unique {tag} : (tensor<7x5xf32>, tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<4x5x6xf32>
  %4 = tensor.scatter %2 into %s[%idx2] scatter_dims([0, 2]) unique {tag} : (tensor<7x5xf32>, tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<4x5x6xf32>
  return
}

// CHECK-LABEL: func.func @parallel_insert_slice
func.func @parallel_insert_slice(%t: tensor<8x?xf32>, %s: tensor<2x?xf32>, %n: index) -> tensor<8x?xf32> {
  // CHECK-NEXT: %0 = scf.forall (%arg3) in (4) shared_outs(%arg4 = %arg0) -> (tensor<8x?xf32>) {
  // CHECK-NEXT:   scf.forall.in_parallel {
  // CHECK-NEXT:     tensor.parallel_insert_slice %arg1 into %arg4[%arg3, 0] [2, %arg2] [1, 1] : tensor<2x?xf32> into tensor<8x?xf32>
  // CHECK-NEXT:     tensor.parallel_insert_slice %arg1 into %arg4[%arg3, 0] [2, %arg2] [1, 1] {tag} : tensor<2x?xf32> into tensor<8x?xf32>
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8x?xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [2, %n] [1, 1] : tensor<2x?xf32> into tensor<8x?xf32>
      tensor.parallel_insert_slice %s into %o[%i, 0] [2, %n] [1, 1] {tag} : tensor<2x?xf32> into tensor<8x?xf32>
    }
  }
  return %r : tensor<8x?xf32>
}

// The splatted value may be of any type the tensor holds, a vector included (as
// upstream); running such IR is refused later, at the op, not here.
// CHECK-LABEL: func.func @splat_of_vectors
func.func @splat_of_vectors(%v: vector<4xi8>) -> tensor<2x3xvector<4xi8>> {
  // CHECK-NEXT: %splat = tensor.splat %arg0 : tensor<2x3xvector<4xi8>>
  %0 = tensor.splat %v : tensor<2x3xvector<4xi8>>
  return %0 : tensor<2x3xvector<4xi8>>
}
