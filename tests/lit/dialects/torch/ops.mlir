// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// The torch dialect in its custom form; the CHECK lines are what iree-opt prints
// (tests/unit/test_torch_dialect.py compares the whole output, custom and generic,
// with iree-opt's).

// CHECK: module {

// CHECK-LABEL: func.func @types(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.vtensor<*,f32>, %arg2: !torch.vtensor, %arg3: !torch.tensor<[3],si64>, %arg4: !torch.vtensor<[2,3],unk>, %arg5: !torch.vtensor, %arg6: !torch.tensor<[?,?],bf16>, %arg7: !torch.vtensor<[],i1>, %arg8: !torch.vtensor<[4],complex<f32>>, %arg9: !torch.vtensor<[2],ui8>, %arg10: !torch.vtensor<[2],!torch.qint8>, %arg11: !torch.vtensor<[2],f8E4M3FN>) {
func.func @types(%a: !torch.vtensor<[2,?],f32>, %b: !torch.vtensor<*,f32>, %c: !torch.vtensor, %d: !torch.tensor<[3],si64>, %e: !torch.vtensor<[2,3],unk>, %f: !torch.vtensor<*,unk>, %g: !torch.tensor<[?,-1],bf16>, %h: !torch.vtensor<[],i1>, %i: !torch.vtensor<[4],complex<f32>>, %j: !torch.vtensor<[2],ui8>, %k: !torch.vtensor<[2],!torch.qint8>, %l: !torch.vtensor<[2],f8E4M3FN>) {
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func private @scalar_types(!torch.int, !torch.float, !torch.bool, !torch.str, !torch.none, !torch.Device, !torch.number, !torch.Generator, !torch.any, !torch.LinearParams, !torch.quint8, !torch.qint32)
func.func private @scalar_types(!torch.int, !torch.float, !torch.bool, !torch.str, !torch.none, !torch.Device, !torch.number, !torch.Generator, !torch.any, !torch.LinearParams, !torch.quint8, !torch.qint32)

// CHECK-LABEL: func.func private @container_types(!torch.list<int>, !torch.list<vtensor<[2],f32>>, !torch.optional<list<optional<vtensor>>>, !torch.tuple<>, !torch.tuple<int, bool>, !torch.union<int, float>, !torch.dict<str, tensor>, !torch.nn.Module<"__torch__.M">, !torch.list<list<int>>)
func.func private @container_types(!torch.list<int>, !torch.list<vtensor<[2],f32>>, !torch.optional<list<optional<vtensor>>>, !torch.tuple<>, !torch.tuple<int,bool>, !torch.union<int, float>, !torch.dict<str,tensor>, !torch.nn.Module<"__torch__.M">, !torch.list<list<int>>)

// CHECK-LABEL: func.func @constants() {
func.func @constants() {
// CHECK-NEXT:   %int1 = torch.constant.int 1
  %0 = torch.constant.int 1
// CHECK-NEXT:   %int-3 = torch.constant.int -3
  %1 = torch.constant.int -3
// CHECK-NEXT:   %int9223372036854775807 = torch.constant.int 9223372036854775807
  %2 = torch.constant.int 9223372036854775807
// CHECK-NEXT:   %int1_0 = torch.constant.int 1
  %3 = torch.constant.int 1
// CHECK-NEXT:   %float1.000000e00 = torch.constant.float 1.000000e+00
  %4 = torch.constant.float 1.0
// CHECK-NEXT:   %float-2.500000e10 = torch.constant.float -2.500000e+10
  %5 = torch.constant.float -2.5e10
// CHECK-NEXT:   %float1.000000e-01 = torch.constant.float 1.000000e-01
  %6 = torch.constant.float 0.1
// CHECK-NEXT:   %float9.999990e-08 = torch.constant.float 9.9999999999999995E-8
  %7 = torch.constant.float 1.0e-7
// CHECK-NEXT:   %float1.234570e08 = torch.constant.float 0x419D6F3454000000
  %8 = torch.constant.float 123456789.0
// CHECK-NEXT:   %floatInf = torch.constant.float 0x7FF0000000000000
  %9 = torch.constant.float 0x7FF0000000000000
// CHECK-NEXT:   %float-Inf = torch.constant.float 0xFFF0000000000000
  %10 = torch.constant.float 0xFFF0000000000000
// CHECK-NEXT:   %floatNaN = torch.constant.float 0x7FF8000000000000
  %11 = torch.constant.float 0x7FF8000000000000
// CHECK-NEXT:   %float0.000000e00 = torch.constant.float 0.000000e+00
  %12 = torch.constant.float 0.0
// CHECK-NEXT:   %float-0.000000e00 = torch.constant.float -0.000000e+00
  %13 = torch.constant.float -0.0
// CHECK-NEXT:   %float9.999990e06 = torch.constant.float 9999999.9000000004
  %14 = torch.constant.float 9.9999999e+6
// CHECK-NEXT:   %float4.940660e-324 = torch.constant.float 4.940660e-324
  %15 = torch.constant.float 5.0e-324
// CHECK-NEXT:   %true = torch.constant.bool true
  %16 = torch.constant.bool true
// CHECK-NEXT:   %false = torch.constant.bool false
  %17 = torch.constant.bool false
// CHECK-NEXT:   %none = torch.constant.none
  %18 = torch.constant.none
// CHECK-NEXT:   %str = torch.constant.str "hello"
  %19 = torch.constant.str "hello"
// CHECK-NEXT:   %str_1 = torch.constant.str "a \22quoted\22 str"
  %20 = torch.constant.str "a \"quoted\" str"
// CHECK-NEXT:   %cpu = torch.constant.device "cpu"
  %21 = torch.constant.device "cpu"
// CHECK-NEXT:   %cuda3A0 = torch.constant.device "cuda:0"
  %22 = torch.constant.device "cuda:0"
// CHECK-NEXT:   %cuda3A0_2 = torch.constant.device "cuda:0"
  %23 = torch.constant.device "cuda:0"
// CHECK-NEXT:   %0 = "torch.constant.number"() <{value = 1 : i64}> : () -> !torch.number
  %24 = "torch.constant.number"() <{value = 1 : i64}> : () -> !torch.number
// CHECK-NEXT:   %1 = "torch.constant.number"() <{value = 1.500000e+00 : f64}> : () -> !torch.number
  %25 = "torch.constant.number"() <{value = 1.5 : f64}> : () -> !torch.number
// CHECK-NEXT:   %int7 = torch.constant.int 7 {tag}
  %26 = torch.constant.int 7 {tag}
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @aten(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.tensor<[2,?],f32>, %arg2: !torch.int, %arg3: !torch.str) -> !torch.vtensor<[2,?],f32> {
func.func @aten(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.tensor<[2,?],f32>, %arg2: !torch.int, %arg3: !torch.str) -> !torch.vtensor<[2,?],f32> {
// CHECK-NEXT:   %int1 = torch.constant.int 1
  %int1 = torch.constant.int 1
// CHECK-NEXT:   %true = torch.constant.bool true
  %true = torch.constant.bool true
// CHECK-NEXT:   %none = torch.constant.none
  %none = torch.constant.none
// CHECK-NEXT:   %float2.500000e00 = torch.constant.float 2.500000e+00
  %float = torch.constant.float 2.5
// CHECK-NEXT:   %0 = torch.aten.add.Tensor %arg0, %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f32>
  %0 = torch.aten.add.Tensor %arg0, %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f32>
// CHECK-NEXT:   %1 = torch.aten.add.Tensor %arg0, %arg0, %float2.500000e00 {tag = 1 : i64} : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.float -> !torch.vtensor<[2,?],f32>
  %1 = torch.aten.add.Tensor %arg0, %arg0, %float {tag = 1 : i64} : !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,?],f32>, !torch.float -> !torch.vtensor<[2,?],f32>
// CHECK-NEXT:   %values, %indices = torch.aten.max.dim %arg0, %int1, %true : !torch.vtensor<[2,?],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
  %2:2 = torch.aten.max.dim %arg0, %int1, %true : !torch.vtensor<[2,?],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
// CHECK-NEXT:   %2 = torch.prim.ListConstruct %arg2 : (!torch.int) -> !torch.list<int>
  %4 = torch.prim.ListConstruct %arg2 : (!torch.int) -> !torch.list<int>
// CHECK-NEXT:   %result0, %result1, %result2 = torch.aten.native_layer_norm %arg0, %2, %none, %none, %float2.500000e00 : !torch.vtensor<[2,?],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float -> !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],f32>
  %3:3 = torch.aten.native_layer_norm %arg0, %4, %none, %none, %float : !torch.vtensor<[2,?],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float -> !torch.vtensor<[2,?],f32>, !torch.vtensor<[2,1],f32>, !torch.vtensor<[2,1],f32>
// CHECK-NEXT:   %3 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.int
  %5 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.int
// CHECK-NEXT:   %4 = torch.aten.add_.Tensor %arg1, %arg1, %int1 : !torch.tensor<[2,?],f32>, !torch.tensor<[2,?],f32>, !torch.int -> !torch.tensor<[2,?],f32>
  %6 = torch.aten.add_.Tensor %arg1, %arg1, %int1 : !torch.tensor<[2,?],f32>, !torch.tensor<[2,?],f32>, !torch.int -> !torch.tensor<[2,?],f32>
// CHECK-NEXT:   torch.aten._assert_scalar %arg2, %arg3 : !torch.int, !torch.str
  torch.aten._assert_scalar %arg2, %arg3 : !torch.int, !torch.str
// CHECK-NEXT:   %5 = torch.aten.mean.dim %arg0, %none, %true, %none : !torch.vtensor<[2,?],f32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[1,1],f32>
  %7 = torch.aten.mean.dim %arg0, %none, %true, %none : !torch.vtensor<[2,?],f32>, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[1,1],f32>
// CHECK-NEXT:   %6 = torch.aten.split.Tensor %arg0, %int1, %int1 : !torch.vtensor<[2,?],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %8 = torch.aten.split.Tensor %arg0, %int1, %int1 : !torch.vtensor<[2,?],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
// CHECK-NEXT:   %7 = torch.prims.convert_element_type %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f16>
  %9 = torch.prims.convert_element_type %arg0, %int1 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f16>
// CHECK-NEXT:   %8 = torch.aten.item %5 : !torch.vtensor<[1,1],f32> -> !torch.number
  %10 = torch.aten.item %7 : !torch.vtensor<[1,1],f32> -> !torch.number
// CHECK-NEXT:   return %0 : !torch.vtensor<[2,?],f32>
  return %0 : !torch.vtensor<[2,?],f32>
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @prim(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.int, %arg2: !torch.bool) {
func.func @prim(%arg0: !torch.vtensor<[2,?],f32>, %arg1: !torch.int, %arg2: !torch.bool) {
// CHECK-NEXT:   %0 = torch.prim.ListConstruct %arg1, %arg1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.prim.ListConstruct %arg1, %arg1 : (!torch.int, !torch.int) -> !torch.list<int>
// CHECK-NEXT:   %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
// CHECK-NEXT:   %2 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,?],f32>) -> !torch.list<vtensor>
  %2 = torch.prim.ListConstruct %arg0 : (!torch.vtensor<[2,?],f32>) -> !torch.list<vtensor>
// CHECK-NEXT:   %3:2 = torch.prim.ListUnpack %0 : !torch.list<int> -> !torch.int, !torch.int
  %3:2 = torch.prim.ListUnpack %0 : !torch.list<int> -> !torch.int, !torch.int
// CHECK-NEXT:   %4 = torch.prim.TupleConstruct %arg1, %arg2 : !torch.int, !torch.bool -> !torch.tuple<int, bool>
  %4 = torch.prim.TupleConstruct %arg1, %arg2 : !torch.int, !torch.bool -> !torch.tuple<int, bool>
// CHECK-NEXT:   %5 = torch.prim.TupleIndex %4, %arg1 : !torch.tuple<int, bool>, !torch.int -> !torch.bool
  %5 = torch.prim.TupleIndex %4, %arg1 : !torch.tuple<int, bool>, !torch.int -> !torch.bool
// CHECK-NEXT:   %6:2 = torch.prim.TupleUnpack %4 : !torch.tuple<int, bool> -> !torch.int, !torch.bool
  %6:2 = torch.prim.TupleUnpack %4 : !torch.tuple<int, bool> -> !torch.int, !torch.bool
// CHECK-NEXT:   %7 = torch.prim.NumToTensor.Scalar %arg1 : !torch.int -> !torch.vtensor<[],si64>
  %7 = torch.prim.NumToTensor.Scalar %arg1 : !torch.int -> !torch.vtensor<[],si64>
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @literals() {
func.func @literals() {
// CHECK-NEXT:   %0 = torch.vtensor.literal(dense<1.000000e+00> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
  %0 = torch.vtensor.literal(dense<1.0> : tensor<2x3xf32>) : !torch.vtensor<[2,3],f32>
// CHECK-NEXT:   %1 = torch.vtensor.literal(dense<[1, 2]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
  %1 = torch.vtensor.literal(dense<[1, 2]> : tensor<2xi64>) : !torch.vtensor<[2],si64>
// CHECK-NEXT:   %2 = torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>) : !torch.vtensor<[2],i1>
  %2 = torch.vtensor.literal(dense<[true, false]> : tensor<2xi1>) : !torch.vtensor<[2],i1>
// CHECK-NEXT:   %3 = torch.vtensor.literal(dense<7> : tensor<ui8>) : !torch.vtensor<[],ui8>
  %3 = torch.vtensor.literal(dense<7> : tensor<ui8>) : !torch.vtensor<[],ui8>
// CHECK-NEXT:   %4 = torch.vtensor.literal(dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>) : !torch.vtensor<[2],f32>
  %4 = torch.vtensor.literal(dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>) : !torch.vtensor<[2],f32>
// CHECK-NEXT:   %5 = torch.tensor.literal(dense<1> : tensor<2xsi64>) : !torch.tensor<[2],si64>
  %5 = torch.tensor.literal(dense<1> : tensor<2xsi64>) : !torch.tensor<[2],si64>
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @symbolic(%arg0: !torch.vtensor<[?,4],f32>) {
func.func @symbolic(%arg0: !torch.vtensor<[?,4],f32>) {
// CHECK-NEXT:   %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
// CHECK-NEXT:   %1 = torch.symbolic_int "s1 + 1" {min_val = 3, max_val = 9223372036854775807} : !torch.int
  %1 = torch.symbolic_int "s1 + 1" {min_val = 3, max_val = 9223372036854775807} : !torch.int
// CHECK-NEXT:   torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,4],f32>
// CHECK-NEXT:   torch.bind_symbolic_shape %arg0, [%0, %1], affine_map<()[s0, s1] -> (s0 * 2 + s1, 4)> {tag} : !torch.vtensor<[?,4],f32>
  torch.bind_symbolic_shape %arg0, [%0, %1], affine_map<()[s0, s1] -> (s0 * 2 + s1, 4)> {tag} : !torch.vtensor<[?,4],f32>
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @operator(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.int) {
func.func @operator(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.int) {
// CHECK-NEXT:   %0 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%arg0, %arg1) : (!torch.vtensor<[2],f32>, !torch.int) -> !torch.vtensor<[2],f32>
  %0 = torch.operator "torch.aten._native_batch_norm_legit_no_training"(%arg0, %arg1) : (!torch.vtensor<[2],f32>, !torch.int) -> !torch.vtensor<[2],f32>
// CHECK-NEXT:   torch.operator "foo.bar"(%arg0) {a = 1 : i64} : (!torch.vtensor<[2],f32>) -> ()
  torch.operator "foo.bar"(%arg0) {a = 1 : i64} : (!torch.vtensor<[2],f32>) -> ()
// CHECK-NEXT:   %1:2 = torch.operator "foo.baz"() : () -> (!torch.int, !torch.int)
  %1:2 = torch.operator "foo.baz"() : () -> (!torch.int, !torch.int)
// CHECK-NEXT:   %2 = torch.operator "foo.region"(%arg0) : (!torch.vtensor<[2],f32>) -> !torch.int {
  %2 = torch.operator "foo.region"(%arg0) : (!torch.vtensor<[2],f32>) -> !torch.int {
// CHECK-NEXT:     torch.operator_terminator %arg1 : !torch.int
    torch.operator_terminator %arg1 : !torch.int
// CHECK-NEXT:   }
  }
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @copies(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32> {
func.func @copies(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32> {
// CHECK-NEXT:   %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,?],f32>
  %0 = torch.copy.to_tensor %arg0 : !torch.tensor<[2,?],f32>
// CHECK-NEXT:   torch.overwrite.tensor.contents %arg0 overwrites %0 : !torch.vtensor<[2,?],f32>, !torch.tensor<[2,?],f32>
  torch.overwrite.tensor.contents %arg0 overwrites %0 : !torch.vtensor<[2,?],f32>, !torch.tensor<[2,?],f32>
// CHECK-NEXT:   %1 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,?],f32>
  %1 = torch.copy.to_vtensor %0 : !torch.vtensor<[2,?],f32>
// CHECK-NEXT:   return %1 : !torch.vtensor<[2,?],f32>
  return %1 : !torch.vtensor<[2,?],f32>
// CHECK-NEXT: }
}

// CHECK-LABEL: func.func @control_flow(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.bool, %arg2: !torch.int) -> !torch.vtensor<[2],f32> {
func.func @control_flow(%arg0: !torch.vtensor<[2],f32>, %arg1: !torch.bool, %arg2: !torch.int) -> !torch.vtensor<[2],f32> {
// CHECK-NEXT:   %0 = torch.prim.Loop %arg2, %arg1, init(%arg0) {
  %0 = torch.prim.Loop %arg2, %arg1, init(%arg0) {
// CHECK-NEXT:   ^bb0(%arg3: !torch.int, %arg4: !torch.vtensor<[2],f32>):
  ^bb0(%i: !torch.int, %x: !torch.vtensor<[2],f32>):
// CHECK-NEXT:     torch.prim.Loop.condition %arg1, iter(%arg4 : !torch.vtensor<[2],f32>)
    torch.prim.Loop.condition %arg1, iter(%x : !torch.vtensor<[2],f32>)
// CHECK-NEXT:   } : (!torch.int, !torch.bool, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  } : (!torch.int, !torch.bool, !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
// CHECK-NEXT:   torch.prim.Loop %arg2, %arg1, init() {
  torch.prim.Loop %arg2, %arg1, init() {
// CHECK-NEXT:   ^bb0(%arg3: !torch.int):
  ^bb0(%i: !torch.int):
// CHECK-NEXT:     torch.prim.Loop.condition %arg1, iter()
    torch.prim.Loop.condition %arg1, iter()
// CHECK-NEXT:   } : (!torch.int, !torch.bool) -> ()
  } : (!torch.int, !torch.bool) -> ()
// CHECK-NEXT:   %1 = torch.prim.If %arg1 -> (!torch.vtensor<[2],f32>) {
  %1 = torch.prim.If %arg1 -> (!torch.vtensor<[2],f32>) {
// CHECK-NEXT:     torch.prim.If.yield %arg0 : !torch.vtensor<[2],f32>
    torch.prim.If.yield %arg0 : !torch.vtensor<[2],f32>
// CHECK-NEXT:   } else {
  } else {
// CHECK-NEXT:     torch.prim.If.yield %0 : !torch.vtensor<[2],f32>
    torch.prim.If.yield %0 : !torch.vtensor<[2],f32>
// CHECK-NEXT:   }
  }
// CHECK-NEXT:   torch.prim.If %arg1 -> () {
  torch.prim.If %arg1 -> () {
// CHECK-NEXT:     torch.prim.If.yield
    torch.prim.If.yield
// CHECK-NEXT:   } else {
  } else {
// CHECK-NEXT:     torch.prim.If.yield
    torch.prim.If.yield
// CHECK-NEXT:   }
  }
// CHECK-NEXT:   return %1 : !torch.vtensor<[2],f32>
  return %1 : !torch.vtensor<[2],f32>
// CHECK-NEXT: }
}


// CHECK-LABEL: func.func @name_hints() {
func.func @name_hints() {
// CHECK-NEXT:   %0 = torch.constant.device ""
  %0 = torch.constant.device ""
// CHECK-NEXT:   %a_b2FcA = torch.constant.device "a b/c\0A"
  %1 = torch.constant.device "a b/c\0A"
// CHECK-NEXT:   %_1cpu = torch.constant.device "1cpu"
  %2 = torch.constant.device "1cpu"
// CHECK-NEXT:   %_C3A9tC3A9 = torch.constant.device "\C3\A9t\C3\A9"
  %3 = torch.constant.device "\C3\A9t\C3\A9"
// CHECK-NEXT:   %int-9223372036854775808 = torch.constant.int -9223372036854775808
  %4 = torch.constant.int -9223372036854775808
// CHECK-NEXT:   return
  return
// CHECK-NEXT: }
}
// CHECK-NEXT: }
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F0000803F"
    }
  }
#-}
