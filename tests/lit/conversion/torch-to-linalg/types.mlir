// RUN: strata-opt %s --convert-torch-to-linalg | filecheck %s

// The backend types at function boundaries: value tensors become builtin tensors with
// signless elements, !torch.int/float/bool become i64/f64/i1; constants become
// arith.constant; an elementwise op casts each operand to the result's element type
// (PyTorch promotion: the si64 operand is converted with sitofp) and alpha scales the
// second operand once, outside the loop.

// CHECK-LABEL: func.func @add(%arg0: tensor<2x3xf32>, %arg1: tensor<3xi64>) -> tensor<2x3xf32>
// CHECK:         %[[ALPHA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xi64>)
// CHECK:           %[[B:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK:           %[[M:.*]] = arith.mulf %[[B]], %[[ALPHA]] : f32
// CHECK:           arith.addf %{{.*}}, %[[M]] : f32
func.func @add(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,3],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.add.Tensor %a, %b, %int2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// A list argument is read from its ListConstruct, which is then erased.
// CHECK-LABEL: func.func @view(%arg0: tensor<?x3xf32>) -> tensor<?xf32>
// CHECK-NOT:     torch.
// CHECK:         tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x3xf32> into tensor<?xf32>
func.func @view(%a: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.view %a, %0 : !torch.vtensor<[?,3],f32>, !torch.list<int> -> !torch.vtensor<[?],f32>
  return %1 : !torch.vtensor<[?],f32>
}

// CHECK-LABEL: func.func @scalars(%arg0: tensor<4xf32>) -> (i64, f64, i1)
// CHECK-DAG:     %[[N:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[F:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK:         return %[[N]], %[[F]], %[[T]] : i64, f64, i1
func.func @scalars(%a: !torch.vtensor<[4],f32>) -> (!torch.int, !torch.float, !torch.bool) {
  %int0 = torch.constant.int 0
  %0 = torch.aten.size.int %a, %int0 : !torch.vtensor<[4],f32>, !torch.int -> !torch.int
  %f = torch.constant.float 2.500000e+00
  %t = torch.constant.bool true
  return %0, %f, %t : !torch.int, !torch.float, !torch.bool
}
