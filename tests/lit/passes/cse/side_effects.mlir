// RUN: strata-opt %s --allow-unregistered-dialect --cse | filecheck %s

// Reads match only with no write in between; pure loads always.
// CHECK:  ml_program.global private mutable @g(dense<0.000000e+00> : tensor<4xf32>) : tensor<4xf32>
// CHECK-LABEL: ml_program.global private @k(dense<1.000000e+00> : tensor<4xf32>) : tensor<4xf32>
// CHECK-LABEL: func.func @reads(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    %g = ml_program.global_load @g : tensor<4xf32>
// CHECK-NEXT:    %k = ml_program.global_load_const @k : tensor<4xf32>
// CHECK-NEXT:    ml_program.global_store @g = %arg0 : tensor<4xf32>
// CHECK-NEXT:    %g_0 = ml_program.global_load @g : tensor<4xf32>
// CHECK-NEXT:    return %g, %g, %g_0, %g_0, %k, %k : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:  }
ml_program.global private mutable @g(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
ml_program.global private @k(dense<1.0> : tensor<4xf32>) : tensor<4xf32>
func.func @reads(%v: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = ml_program.global_load @g : tensor<4xf32>
  %1 = ml_program.global_load @g : tensor<4xf32>
  %k0 = ml_program.global_load_const @k : tensor<4xf32>
  ml_program.global_store @g = %v : tensor<4xf32>
  %k1 = ml_program.global_load_const @k : tensor<4xf32>
  %2 = ml_program.global_load @g : tensor<4xf32>
  %3 = arith.addf %0, %1 : tensor<4xf32>
  %4 = ml_program.global_load @g : tensor<4xf32>
  return %0, %1, %2, %4, %k0, %k1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Reads are matched only within one block.
// CHECK:  ml_program.global private mutable @h(0 : i32) : i32
// CHECK-LABEL: func.func @reads_cfg(%arg0: i1) -> (i32, i32, i32) {
// CHECK-NEXT:    %h = ml_program.global_load @h : i32
// CHECK-NEXT:    %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      %h_1 = ml_program.global_load @h : i32
// CHECK-NEXT:      scf.yield %h_1 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:      scf.yield %c0_i32 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    %h_0 = ml_program.global_load @h : i32
// CHECK-NEXT:    return %h, %0, %h_0 : i32, i32, i32
// CHECK-NEXT:  }
ml_program.global private mutable @h(0 : i32) : i32
func.func @reads_cfg(%c: i1) -> (i32, i32, i32) {
  %0 = ml_program.global_load @h : i32
  %r = scf.if %c -> i32 {
    %1 = ml_program.global_load @h : i32
    scf.yield %1 : i32
  } else {
    %2 = arith.constant 0 : i32
    scf.yield %2 : i32
  }
  cf.br ^bb1
^bb1:
  %3 = ml_program.global_load @h : i32
  return %0, %r, %3 : i32, i32, i32
}

// Calls and asserts (effects) are never CSE'd.
// CHECK-LABEL: func.func private @callee(i32) -> i32
// CHECK-LABEL: func.func @calls(%arg0: i32, %arg1: i1) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = call @callee(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = call @callee(%arg0) : (i32) -> i32
// CHECK-NEXT:    cf.assert %arg1, "a"
// CHECK-NEXT:    cf.assert %arg1, "a"
// CHECK-NEXT:    %2 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0, %1, %2, %2 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func private @callee(i32) -> i32
func.func @calls(%a: i32, %ok: i1) -> (i32, i32, i32, i32) {
  %0 = func.call @callee(%a) : (i32) -> i32
  %1 = func.call @callee(%a) : (i32) -> i32
  cf.assert %ok, "a"
  cf.assert %ok, "a"
  %2 = arith.addi %a, %a : i32
  %3 = arith.addi %a, %a : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// Unregistered ops have unknown effects: kept.
// CHECK-LABEL: func.func @unreg(%arg0: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = "test.op"(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = "test.op"(%arg0) : (i32) -> i32
// CHECK-NEXT:    %2 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    "test.sink"() : () -> ()
// CHECK-NEXT:    return %0, %1, %2, %2 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @unreg(%a: i32) -> (i32, i32, i32, i32) {
  %0 = "test.op"(%a) : (i32) -> i32
  %1 = "test.op"(%a) : (i32) -> i32
  %2 = arith.addi %a, %a : i32
  "test.sink"() : () -> ()
  %3 = arith.addi %a, %a : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}
