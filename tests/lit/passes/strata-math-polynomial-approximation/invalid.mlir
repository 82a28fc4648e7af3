// RUN: not strata-opt %s --strata-math-polynomial-approximation=ops=sin 2>&1 | filecheck %s
// CHECK: 'sin' is not one of: exp, exp2, expm1, log, log2, log10, log1p, tanh, erf
func.func @f(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  return %0 : f32
}
