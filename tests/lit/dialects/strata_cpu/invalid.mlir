// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @no_callee(%n: index) {
  // expected-error @+1 {{'strata_cpu.parallel_for' op 'missing' does not reference a valid function}}
  strata_cpu.parallel_for @missing() count(%n) grain(%n) : ()
  return
}

// -----

func.func private @chunk(%a: memref<8xf32>, %lo: index, %hi: index) {
  return
}

func.func @wrong_operands(%a: memref<4xf32>, %n: index) {
  // expected-error @+1 {{'strata_cpu.parallel_for' op expects @chunk to have type (memref<4xf32>, index, index) -> (), not (memref<8xf32>, index, index) -> ()}}
  strata_cpu.parallel_for @chunk(%a) count(%n) grain(%n) : (memref<4xf32>)
  return
}

// -----

func.func private @chunk(%lo: index, %hi: index) -> index {
  return %lo : index
}

func.func @results(%n: index) {
  // expected-error @+1 {{'strata_cpu.parallel_for' op expects @chunk to have type (index, index) -> (), not (index, index) -> index}}
  strata_cpu.parallel_for @chunk() count(%n) grain(%n) : ()
  return
}

// -----

func.func private @chunk(%lo: index, %hi: index) {
  return
}

func.func @count_type(%n: i64, %g: index) {
  // expected-error @+1 {{'strata_cpu.parallel_for' op operand #0 must be index, but got 'i64'}}
  "strata_cpu.parallel_for"(%n, %g) <{callee = @chunk}> : (i64, index) -> ()
  return
}
