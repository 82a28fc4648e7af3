// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s

// CHECK: #extern = #ml_program.extern : tensor<4xi32>
// CHECK-NEXT: #extern1 = #ml_program.extern
// CHECK-NEXT: module {

// CHECK-NEXT: ml_program.global private @const(dense<4> : tensor<4xi32>) : tensor<?xi32>
ml_program.global private @const(dense<4> : tensor<4xi32>) : tensor<?xi32>
// CHECK-NEXT: ml_program.global private mutable @ext(#extern) : tensor<?xi32>
ml_program.global private mutable @ext(#ml_program.extern : tensor<4xi32>) : tensor<?xi32>
// CHECK-NEXT: ml_program.global public @ext2(#extern) : tensor<4xi32>
ml_program.global public @ext2(#ml_program.extern : tensor<4xi32>) : tensor<4xi32>
// CHECK-NEXT: ml_program.global nested @untyped_ext(#extern1) : tensor<2xf32>
ml_program.global nested @untyped_ext(#ml_program.extern) : tensor<2xf32>
// CHECK-NEXT: ml_program.global private mutable @state : tensor<?xi32>
ml_program.global private mutable @state : tensor<?xi32>
// CHECK-NEXT: ml_program.global public @weights(dense_resource<blob1> : tensor<2xi32>) : tensor<2xi32>
ml_program.global public @weights(dense_resource<blob1> : tensor<2xi32>) : tensor<2xi32>
// CHECK-NEXT: ml_program.global private mutable @scalar(1 : i32) : i32 {tag}
ml_program.global private mutable @scalar(1 : i32) : i32 {tag}

// CHECK-NEXT: ml_program.func @load_store(%arg0: i32) -> i32 {
// CHECK-NEXT:   %state = ml_program.global_load @state : tensor<?xi32>
// CHECK-NEXT:   %weights = ml_program.global_load_const @weights : tensor<2xi32>
// CHECK-NEXT:   %const = ml_program.global_load_const @const : tensor<?xi32>
// CHECK-NEXT:   ml_program.global_store @state = %state : tensor<?xi32>
// CHECK-NEXT:   ml_program.global_store @scalar = %arg0 : i32 {tag}
// CHECK-NEXT:   ml_program.return %arg0 : i32
// CHECK-NEXT: }
ml_program.func @load_store(%arg0: i32) -> i32 {
  %0 = ml_program.global_load @state : tensor<?xi32>
  %1 = ml_program.global_load_const @weights : tensor<2xi32>
  %2 = ml_program.global_load_const @const : tensor<?xi32>
  ml_program.global_store @state = %0 : tensor<?xi32>
  ml_program.global_store @scalar = %arg0 : i32 {tag}
  ml_program.return %arg0 : i32
}

// CHECK-NEXT: ml_program.func private @decl(i32) -> i32
ml_program.func private @decl(i32) -> i32
// CHECK-NEXT: ml_program.func @no_results() attributes {tag} {
// CHECK-NEXT:   ml_program.return
// CHECK-NEXT: }
ml_program.func @no_results() attributes {tag} {
  ml_program.return
}
// CHECK-NEXT: ml_program.func @cfg(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   ml_program.return %arg1 : i32
// CHECK-NEXT: ^bb2:  // pred: ^bb0
// CHECK-NEXT:   ml_program.return %arg1 : i32
// CHECK-NEXT: }
ml_program.func @cfg(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  ml_program.return %a : i32
^bb2:
  ml_program.return %a : i32
}

// CHECK-NEXT: ml_program.subgraph @graph(%arg0: i32) -> (i32, tensor<?xi32>) {
// CHECK-NEXT:   %0 = ml_program.token
// CHECK-NEXT:   %result, %produceToken = ml_program.global_load_graph @state ordering(() -> !ml_program.token) : tensor<?xi32>
// CHECK-NEXT:   %result_0, %produceToken_1 = ml_program.global_load_graph @state ordering(%0, %produceToken -> !ml_program.token) : tensor<?xi32>
// CHECK-NEXT:   %1 = ml_program.global_store_graph @state = %result ordering(%produceToken_1 -> !ml_program.token) : tensor<?xi32>
// CHECK-NEXT:   ml_program.output %arg0, %result_0 : i32, tensor<?xi32>
// CHECK-NEXT: }
ml_program.subgraph @graph(%arg0: i32) -> (i32, tensor<?xi32>) {
  %t = ml_program.token
  %0, %tok = ml_program.global_load_graph @state ordering(() -> !ml_program.token) : tensor<?xi32>
  %1, %tok2 = ml_program.global_load_graph @state ordering(%t, %tok -> !ml_program.token) : tensor<?xi32>
  %tok3 = ml_program.global_store_graph @state = %0 ordering(%tok2 -> !ml_program.token) : tensor<?xi32>
  ml_program.output %arg0, %1 : i32, tensor<?xi32>
}

// Graph regions: a value may be used before its definition.
// CHECK-NEXT: ml_program.subgraph private @use_before_def(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %1, %1 : i32
// CHECK-NEXT:   %1 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   ml_program.output %0 : i32
// CHECK-NEXT: }
ml_program.subgraph private @use_before_def(%arg0: i32) -> i32 {
  %a = arith.addi %b, %b : i32
  %b = arith.addi %arg0, %arg0 : i32
  ml_program.output %a : i32
}

// CHECK-NEXT: ml_program.subgraph @empty_graph() {
// CHECK-NEXT:   ml_program.output
// CHECK-NEXT: }
ml_program.subgraph @empty_graph() {
  ml_program.output
}

// CHECK-NEXT: module @nested {
// CHECK-NEXT:   ml_program.global public mutable @inner : tensor<4xf32>
// CHECK-NEXT: }
module @nested {
  ml_program.global public mutable @inner : tensor<4xf32>
}
// CHECK-NEXT: ml_program.func @nested_ref() -> tensor<4xf32> {
// CHECK-NEXT:   %inner = ml_program.global_load @nested::@inner : tensor<4xf32>
// CHECK-NEXT:   ml_program.return %inner : tensor<4xf32>
// CHECK-NEXT: }
ml_program.func @nested_ref() -> tensor<4xf32> {
  %0 = ml_program.global_load @nested::@inner : tensor<4xf32>
  ml_program.return %0 : tensor<4xf32>
}

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x040000000100000002000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
