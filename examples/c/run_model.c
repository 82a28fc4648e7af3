/* Runs a model compiled by `strata compile model.onnx -o model.so` from C.

   The model: one float input of shape [batch, features] and one float output of
   shape [batch, n] (an MLP, say). Build and run:

     strata compile mlp.onnx -o mlp.so              # writes mlp.h too
     cc -O2 -I. -include mlp.h run_model.c ./mlp.so -o run_model
     ./run_model 3 4                                # batch 3, 4 features

   The input is filled with a fixed pattern (x[i] = (i % 7) * 0.25 - 0.5) and the output
   printed one row per line, so a test can compare it with another runtime. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int64_t batch = argc > 1 ? atoll(argv[1]) : 1;
  int64_t features = argc > 2 ? atoll(argv[2]) : 4;
  if (batch < 0 || features <= 0) {
    fprintf(stderr, "usage: %s [batch] [features]\n", argv[0]);
    return 2;
  }
  float *x = malloc(sizeof(float) * (size_t)(batch * features + 1));
  if (!x) return 2;
  for (int64_t i = 0; i < batch * features; ++i) x[i] = (float)(i % 7) * 0.25f - 0.5f;

  /* Inputs: contiguous row-major buffers described by memref descriptors. */
  strata_memref2d input = {x, x, 0, {batch, features}, {features, 1}};
  strata_memref2d output;
  _mlir_ciface_main(&output, &input);
  const char *error = strata_last_error();
  if (error) {
    fprintf(stderr, "run failed: %s\n", error);
    free(x);
    return 1;
  }
  const float *y = (const float *)output.aligned + output.offset;
  printf("%lld %lld\n", (long long)output.sizes[0], (long long)output.sizes[1]);
  for (int64_t i = 0; i < output.sizes[0]; ++i) {
    for (int64_t j = 0; j < output.sizes[1]; ++j)
      printf(j ? " %.9g" : "%.9g", y[i * output.strides[0] + j * output.strides[1]]);
    printf("\n");
  }
  free(output.allocated); /* outputs are the caller's */
  free(x);
  return 0;
}
