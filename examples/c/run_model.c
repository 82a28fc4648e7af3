/* Runs a model compiled by `strata compile model.onnx -o model.so` from C.

   The model: one float input of shape [batch, features] and one float output of
   shape [batch, n] (an MLP, say). Build and run:

     strata compile mlp.onnx -o mlp.so              # writes mlp.h too
     cc -O2 -I. -include mlp.h run_model.c ./mlp.so -o run_model
     ./run_model 3 4                                # batch 3, 4 features

   The input is filled with a fixed pattern (x[i] = (i % 7) * 0.25 - 0.5) and the output
   printed one row per line, so a test can compare it with another runtime.

   It calls the checked entry point, strata_model_run: the library checks the input
   against the model (type, rank, dims, the buffer's element count, NULL...) before
   running it and returns a status, the message in strata_last_error(); a features
   count the model does not take is reported, not run. Each output comes back as
   contiguous data in a block of its own (`allocated`) that the caller frees.
   (_mlir_ciface_main, the raw entry point, checks nothing.)

   A library for the GPU has the same entry points and header:
     strata compile mlp.onnx --target cuda -o mlp.so   # PTX and weights embedded
   it opens libcuda.so.1 at its first call (no CUDA toolkit needed to build or link);
   without a driver strata_model_run returns an error status and says so. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int64_t batch = argc > 1 ? atoll(argv[1]) : 1;
  int64_t features = argc > 2 ? atoll(argv[2]) : 4;
  if (batch < 0 || features <= 0 || batch > (1 << 20) || features > (1 << 20)) {
    fprintf(stderr, "usage: %s [batch] [features]\n", argv[0]);
    return 2;
  }
  float *x = malloc(sizeof(float) * (size_t)(batch * features + 1));
  if (!x) return 2;
  for (int64_t i = 0; i < batch * features; ++i) x[i] = (float)(i % 7) * 0.25f - 0.5f;

  /* The input: its data, how many elements the buffer holds, rank and shape (strides
     NULL: contiguous row-major) and element type (checked against the model's). */
  strata_tensor input = {x, batch * features, 2, {batch, features}, NULL, NULL,
                         STRATA_TYPE_FLOAT};
  strata_tensor output;
  int status = strata_model_run(&input, 1, &output, 1);
  free(x);
  if (status != STRATA_OK) {
    fprintf(stderr, "run failed (status %d): %s\n", status, strata_last_error());
    return 1;
  }
  const float *y = (const float *)output.data;
  printf("%lld %lld\n", (long long)output.shape[0], (long long)output.shape[1]);
  for (int64_t i = 0; i < output.shape[0]; ++i) {
    for (int64_t j = 0; j < output.shape[1]; ++j)
      printf(j ? " %.9g" : "%.9g", y[i * output.shape[1] + j]);
    printf("\n");
  }
  free(output.allocated); /* outputs are the caller's: the block data lies in */
  return 0;
}
