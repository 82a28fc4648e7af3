// RUN: strata-opt %s --convert-scf-to-cf --split-input-file --verify-diagnostics

// scf.forall with shared outputs (on tensors) must be bufferized first: as upstream,
// the conversion fails and leaves the IR as it was.
func.func @forall_outputs(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{failed to legalize operation 'scf.forall' that was explicitly marked illegal}}
  // expected-note @+1 {{while running pass 'convert-scf-to-cf'}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> tensor<4xf32> {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<4xf32>
}
