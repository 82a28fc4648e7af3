// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'ml_program.global' op immutable global must have an initial value}}
ml_program.global private @no_value : tensor<4xi32>

// -----

// expected-error @+1 {{expected 'public', 'private', or 'nested'}}
ml_program.global @no_visibility(dense<4> : tensor<4xi32>) : tensor<4xi32>

// -----

// expected-error @+1 {{unknown attribute `intern` in dialect `ml_program`}}
ml_program.global private @bad_attr(#ml_program.intern : tensor<4xi32>) : tensor<4xi32>

// -----

ml_program.func @undefined() -> tensor<4xi32> {
  // expected-error @+1 {{'ml_program.global_load' op undefined global: @nope}}
  %0 = ml_program.global_load @nope : tensor<4xi32>
  ml_program.return %0 : tensor<4xi32>
}

// -----

func.func @not_a_global() {
  return
}
ml_program.func @load_func() -> tensor<4xi32> {
  // expected-error @+1 {{'ml_program.global_load' op undefined global: @not_a_global}}
  %0 = ml_program.global_load @not_a_global : tensor<4xi32>
  ml_program.return %0 : tensor<4xi32>
}

// -----

ml_program.global private mutable @g : tensor<?xi32>
ml_program.func @load_type() -> tensor<4xi32> {
  // expected-error @+1 {{'ml_program.global_load' op cannot load from global typed 'tensor<?xi32>' as 'tensor<4xi32>'}}
  %0 = ml_program.global_load @g : tensor<4xi32>
  ml_program.return %0 : tensor<4xi32>
}

// -----

ml_program.global private mutable @g : tensor<4xi32>
ml_program.func @load_const_mutable() -> tensor<4xi32> {
  // expected-error @+1 {{'ml_program.global_load_const' op cannot load as const from mutable global @g}}
  %0 = ml_program.global_load_const @g : tensor<4xi32>
  ml_program.return %0 : tensor<4xi32>
}

// -----

ml_program.global private @g(dense<1> : tensor<4xi32>) : tensor<4xi32>
ml_program.func @load_const_type() -> tensor<?xi32> {
  // expected-error @+1 {{'ml_program.global_load_const' op cannot load from global typed 'tensor<4xi32>' as 'tensor<?xi32>'}}
  %0 = ml_program.global_load_const @g : tensor<?xi32>
  ml_program.return %0 : tensor<?xi32>
}

// -----

ml_program.global private @g(dense<1> : tensor<4xi32>) : tensor<4xi32>
ml_program.func @store_immutable(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ml_program.global_store' op cannot store to an immutable global @g}}
  ml_program.global_store @g = %a : tensor<4xi32>
  ml_program.return
}

// -----

ml_program.global private mutable @g(dense<1> : tensor<4xi32>) : tensor<4xi32>
ml_program.func @store_type(%a: tensor<3xi32>) {
  // expected-error @+1 {{'ml_program.global_store' op cannot store to a global typed 'tensor<4xi32>' from 'tensor<3xi32>'}}
  ml_program.global_store @g = %a : tensor<3xi32>
  ml_program.return
}

// -----

ml_program.subgraph @store_graph_undefined(%a: i32) -> i32 {
  %0 = ml_program.token
  // expected-error @+1 {{'ml_program.global_store_graph' op undefined global: @nope}}
  %1 = ml_program.global_store_graph @nope = %a ordering(%0 -> !ml_program.token) : i32
  ml_program.output %a : i32
}

// -----

ml_program.global private @g(dense<1> : tensor<4xi32>) : tensor<4xi32>
ml_program.subgraph @store_graph_immutable(%a: tensor<4xi32>) {
  // expected-error @+1 {{'ml_program.global_store_graph' op cannot store to an immutable global @g}}
  %1 = ml_program.global_store_graph @g = %a ordering(() -> !ml_program.token) : tensor<4xi32>
  ml_program.output
}

// -----

ml_program.global private mutable @g(dense<1> : tensor<4xi32>) : tensor<4xi32>
ml_program.subgraph @load_graph_type() -> tensor<3xi32> {
  // expected-error @+1 {{'ml_program.global_load_graph' op cannot load from global typed 'tensor<4xi32>' as 'tensor<3xi32>'}}
  %0, %1 = ml_program.global_load_graph @g ordering(() -> !ml_program.token) : tensor<3xi32>
  ml_program.output %0 : tensor<3xi32>
}

// -----

ml_program.func @return_count(%a: i32) -> i32 {
  // expected-error @+1 {{'ml_program.return' op has 0 operands, but enclosing function (@return_count) returns 1}}
  ml_program.return
}

// -----

ml_program.func @return_type(%a: i32) -> f32 {
  // expected-error @+1 {{type of return operand 0 ('i32') doesn't match function result type ('f32') in function @return_type}}
  ml_program.return %a : i32
}

// -----

ml_program.subgraph @output_count(%a: i32) -> f32 {
  // expected-error @+1 {{'ml_program.output' op has 0 operands, but enclosing function (@output_count) outputs 1}}
  ml_program.output
}

// -----

ml_program.subgraph @output_type(%a: i32) -> f32 {
  // expected-error @+1 {{type of output operand 0 ('i32') doesn't match function result type ('f32') in function @output_type}}
  ml_program.output %a : i32
}

// -----

ml_program.func @output_in_func(%a: i32) -> i32 {
  // expected-error @+1 {{'ml_program.output' op expects parent op 'ml_program.subgraph'}}
  ml_program.output %a : i32
}

// -----

ml_program.subgraph @return_in_subgraph(%a: i32) -> i32 {
  // expected-error @+1 {{'ml_program.return' op expects parent op 'ml_program.func'}}
  ml_program.return %a : i32
}

// -----

// expected-error @+1 {{'ml_program.func' op symbol declaration cannot have public visibility}}
ml_program.func @public_decl(i32) -> i32

// -----

ml_program.subgraph @output_not_last(%a: i32) -> i32 {
  // expected-error @+1 {{'ml_program.output' op must be the last operation in the parent block}}
  ml_program.output %b : i32
  %b = arith.addi %a, %a : i32
}

// -----

ml_program.subgraph @no_terminator(%a: i32) -> i32 {
  // expected-error @+1 {{block with no terminator}}
  %b = arith.addi %a, %a : i32
}
