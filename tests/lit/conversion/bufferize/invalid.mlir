// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --one-shot-bufferize="bufferize-function-boundaries"

// Inputs one-shot-bufferize rejects, with the errors iree-opt gives for the first three.

func.func @unknown_op(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{op was not bufferized}}
  // expected-note @+1 {{while running pass 'one-shot-bufferize'}}
  %r = "test.op"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @loop_yields_new_buffer(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %x = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+2 {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    // expected-note @+1 {{while running pass 'one-shot-bufferize'}}
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @execute_region_two_yields(%t: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-error @+2 {{'scf.execute_region' op op without unique scf.yield is not supported}}
  // expected-note @+1 {{while running pass 'one-shot-bufferize'}}
  %r = scf.execute_region -> tensor<4xf32> {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %t : tensor<4xf32>
  ^bb2:
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Unlike upstream, functions with several blocks are not bufferized (the CPU pipeline
// bufferizes before scf-to-cf).
// expected-error @+2 {{'func.func' op op or BufferizableOpInterface implementation does not support unstructured control flow, but at least one region has multiple blocks}}
// expected-note @+1 {{while running pass 'one-shot-bufferize'}}
func.func @unstructured(%t: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %t : tensor<4xf32>
^bb2:
  return %t : tensor<4xf32>
}
