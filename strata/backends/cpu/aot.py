"""Ahead-of-time compilation: a model as a standalone shared library with a C header.

    strata compile model.onnx -o model.so        # also writes model.h beside it

The library holds the code, the weights (linked in as a read-only data section with the
assembler's `.incbin`, no IR text for them), the kernels and their thread pool
(kernels.py, threadpool.py) and a C runtime part compiled with it (`strata_assert_fail`,
`strata_oom_report`, `strata_last_error`, the thread count, and the checked entry
point). It has two entry points:

- `strata_model_run`, checked (the one to call; [Note: the checked entry point]):

      strata_tensor in = {x, count, 2, {batch, 4}};   // data, elements held, rank, shape
      strata_tensor out;
      if (strata_model_run(&in, 1, &out, 1) != STRATA_OK)
        fprintf(stderr, "%s\n", strata_last_error()); // "input 'X' (#0): dim 1 is 5,
      else                                              //  expected 4 (Nx4xfloat32)"
        use(out.data, out.shape), free(out.allocated);

  every input is checked against the model before it runs (rank, dims, dynamic dims
  named alike, element count and byte size, NULL, strides); a failed run-time check
  inside the model returns STRATA_ERROR_RUNTIME; each output is a malloc'd block of its
  own that the caller frees, and none is left after a failure.
- `_mlir_ciface_<function>`, upstream MLIR's C interface, UNCHECKED: memref descriptors
  in and out (see strata.runtime), nothing about them checked; its outputs may alias an
  input, a constant or each other.

The header declares both and says, for every input and output, its element type, shape
(with its dim params) and ONNX name.

The model runs on the threads `--num-threads` (num_threads) says, by default the CPUs
available ($STRATA_NUM_THREADS overrides); strata_model_set_num_threads changes that.
The library is never unloaded (-z nodelete): the pool's workers live in its code.

Building the library needs a C compiler (`cc`, or $CC) to assemble and link.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import numpy as np

from ...errors import StrataError

_C_TYPES = {"float32": "float", "float64": "double", "int8": "int8_t", "int16": "int16_t",
            "int32": "int32_t", "int64": "int64_t", "uint8": "uint8_t", "uint16": "uint16_t",
            "uint32": "uint32_t", "uint64": "uint64_t", "bool": "bool", "float16": "uint16_t"}

# The part of the runtime a library carries: run-time checks record their first message.
_RUNTIME_C = r"""
#include <stddef.h>
static _Thread_local const char *strata_error = NULL;
/* See [Note: failures on the pool's threads]. */
static _Thread_local int strata_in_run = 0;
static int strata_checked_runs = 0;
static const char *strata_pool_error = NULL;
/* A failure reported on a thread without a model call of its own (kernels run outside
   the entry point's guard): taken by the next strata_last_error(). */
static const char *strata_shared_error = NULL;
static int strata_shared_claimed = 0;
__attribute__((visibility("default"))) void strata_assert_fail(const char *message) {
  if (!message) message = "assertion failed";
  if (!strata_error) strata_error = message;
  if (!strata_in_run && __atomic_load_n(&strata_checked_runs, __ATOMIC_SEQ_CST)) {
    const char *none = NULL;
    __atomic_compare_exchange_n(&strata_pool_error, &none, message, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
  }
}
__attribute__((visibility("default"))) const char *strata_last_error(void) {
  const char *e = strata_error;
  strata_error = NULL;
  if (!e && __atomic_load_n(&strata_shared_error, __ATOMIC_ACQUIRE)) {
    e = __atomic_exchange_n(&strata_shared_error, NULL, __ATOMIC_ACQ_REL);
    __atomic_store_n(&strata_shared_claimed, 0, __ATOMIC_RELEASE);
  }
  return e;
}
#include <stdint.h>
#include <stdio.h>
#include <string.h>
/* A failed allocation (backends/cpu/guard.py): the message, in a buffer of the
   reporting thread's own, or without a guard the process-wide one. */
int32_t strata_guard_active(void);
static _Thread_local char strata_oom_text[320];
static char strata_oom_shared[320];
__attribute__((visibility("default"))) void strata_oom_report(int64_t n, const char *what,
                                                              const char *node) {
  int mine = strata_guard_active();
  char *buf = strata_oom_text;
  char where[160];
  if (mine ? strata_error != NULL : __atomic_exchange_n(&strata_shared_claimed, 1,
                                                         __ATOMIC_ACQ_REL))
    return;   /* the first failure is the one reported */
  if (!mine) buf = strata_oom_shared;
  if (!what) what = "a buffer";
  if (node && strncmp(what, "node ", 5) != 0) {
    snprintf(where, sizeof where, "%s (%s)", node, what);
    what = where;
  }
  if (n == -2)
    snprintf(buf, 320, "cannot allocate a buffer with a negative dimension for %s", what);
  else if (n < 0)
    snprintf(buf, 320, "out of memory allocating more than 9223372036854775807 bytes for "
             "%s (the size overflows)", what);
  else
    snprintf(buf, 320, "out of memory allocating %lld bytes for %s", (long long)n, what);
  if (mine) strata_error = buf;
  else __atomic_store_n(&strata_shared_error, (const char *)buf, __ATOMIC_RELEASE);
}
/* A failed check reporting the values it compared ([Note: failed checks report their
   values], strata/dialects/cf.py): `message` is the check's text, \x1e, its comparisons'
   predicates joined by \x1f; `values` (held, lhs, rhs) per comparison. The message is
   written into a buffer of the thread's own, the comparisons that do not hold appended
   ("... (failed: 7 < 5)"), and reported as strata_assert_fail reports. */
static _Thread_local char strata_check_text[512];
__attribute__((visibility("default"))) void strata_assert_fail_values(const char *message,
                                                                      const int64_t *values) {
  const char *end = message ? strchr(message, '\x1e') : NULL;
  char *buf = strata_check_text;
  size_t cap = sizeof strata_check_text, n;
  int k = 0, any = 0;
  if (!end) { strata_assert_fail(message); return; }
  if (strata_error && strata_in_run) return;   /* the first failure is the one reported */
  n = (size_t)(end - message);
  if (n > cap - 1) n = cap - 1;
  memcpy(buf, message, n);
  buf[n] = 0;
  for (const char *p = end + 1; *p; k++) {
    const char *q = strchr(p, '\x1f');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    char pred[4] = {0};
    const char *op;
    int uns = len > 0 && p[0] == 'u';
    memcpy(pred, p, len < 3 ? len : 3);
    op = !strcmp(pred, "eq") ? "==" : !strcmp(pred, "ne") ? "!=" :
         !strcmp(pred + 1, "lt") ? "<" : !strcmp(pred + 1, "le") ? "<=" :
         !strcmp(pred + 1, "gt") ? ">" : ">=";
    if (!values[3 * k] && n < cap - 1) {
      int w = uns ? snprintf(buf + n, cap - n, "%s%llu %s %llu", any ? ", " : " (failed: ",
                             (unsigned long long)values[3 * k + 1], op,
                             (unsigned long long)values[3 * k + 2])
                  : snprintf(buf + n, cap - n, "%s%lld %s %lld", any ? ", " : " (failed: ",
                             (long long)values[3 * k + 1], op, (long long)values[3 * k + 2]);
      if (w > 0) n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
      any = 1;
    }
    p += len + (q ? 1 : 0);
  }
  if (any && n < cap - 1) { buf[n++] = ')'; buf[n] = 0; }
  strata_assert_fail(buf);
}
extern int32_t strata_model_num_threads;   /* the model's count (0: the pool's) */
int32_t strata_get_num_threads(void);
__attribute__((visibility("default"))) void strata_model_set_num_threads(int32_t n) {
  __atomic_store_n(&strata_model_num_threads, n > 0 ? n : 0, __ATOMIC_RELAXED);
}
__attribute__((visibility("default"))) int32_t strata_model_get_num_threads(void) {
  int32_t n = __atomic_load_n(&strata_model_num_threads, __ATOMIC_RELAXED);
  return n > 0 ? n : strata_get_num_threads();
}
"""
# What a library exports besides its entry point.
_EXPORTS = ("strata_last_error", "strata_model_set_num_threads",
            "strata_model_get_num_threads", "strata_model_run")

MAX_RANK = 16  # STRATA_MAX_RANK
# The tensor type and status codes of the checked entry point, in the header and in the
# library's C part alike (guarded: two models' headers may be included together).
_TENSOR_C = r"""#ifndef STRATA_TENSOR_DEFINED
#define STRATA_TENSOR_DEFINED
#define STRATA_MAX_RANK 16
/* A tensor at the checked entry point, strata_model_run. An input: `data` its first
   element, `count` how many elements the buffer holds from `data` on (checked against
   what the shape and strides address), its `rank` and `shape`, `strides` in elements
   (NULL: contiguous row-major; non-negative, any others are copied to a contiguous
   buffer for the call); `allocated` is not read. An output, as the library fills it:
   `data` its `count` elements, contiguous row-major, inside the block `allocated`
   (from malloc; `data` need not be its start), the caller's to free(allocated);
   both NULL when count is 0; its rank and shape; strides NULL. `type`: the element
   type, an ONNX TensorProto.DataType code as onnxruntime's ONNXTensorElementDataType
   (STRATA_TYPE_*); an input's is checked unless 0, an output's is filled in. */
typedef struct strata_tensor {
  void *data;
  int64_t count;
  int64_t rank;
  int64_t shape[STRATA_MAX_RANK];
  const int64_t *strides;
  void *allocated;
  int32_t type;
} strata_tensor;
#define STRATA_TYPE_UNDEFINED 0 /* (an input's type not checked) */
#define STRATA_TYPE_FLOAT 1
#define STRATA_TYPE_UINT8 2
#define STRATA_TYPE_INT8 3
#define STRATA_TYPE_UINT16 4
#define STRATA_TYPE_INT16 5
#define STRATA_TYPE_INT32 6
#define STRATA_TYPE_INT64 7
#define STRATA_TYPE_BOOL 9
#define STRATA_TYPE_FLOAT16 10
#define STRATA_TYPE_DOUBLE 11
#define STRATA_TYPE_UINT32 12
#define STRATA_TYPE_UINT64 13
#define STRATA_TYPE_COMPLEX64 14
#define STRATA_TYPE_COMPLEX128 15
#define STRATA_TYPE_BFLOAT16 16
#define STRATA_OK 0
#define STRATA_ERROR_INPUT 1   /* the arguments do not fit the model: nothing ran */
#define STRATA_ERROR_RUNTIME 2 /* a run-time check inside the model failed */
#define STRATA_ERROR_MEMORY 3  /* out of memory copying an input or an output */
#endif
"""

# [Note: the checked entry point]
# `int strata_model_run(inputs, num_inputs, outputs, num_outputs)` is C in the library
# (the engine below, and per model the tables and the call of the raw entry point that
# `checked_entry_c` writes). Before the model runs it checks, and on the first problem
# returns STRATA_ERROR_INPUT with a message naming the input by its ONNX name:
#   - the counts of inputs and outputs, NULL arrays;
#   - each input's element type where the caller gives it (`type`, ONNX's codes);
#   - each input's rank, every dim >= 0, the static dims, and the dynamic dims that
#     share an ONNX dim_param against each other (MemRefSpec.dims, as the Python
#     runtime: [Note: inputs] in strata/runtime);
#   - the element count and the byte size (and the span the strides address) for
#     overflow of int64, and the buffer's end for wrapping around the address space;
#   - `count` against the elements the shape (and strides) address, a NULL `data`
#     where there is any element, negative strides.
# Inputs the compiled code cannot take as they are (strided, or misaligned for their
# element type) are copied to contiguous buffers, freed after the call: the compiled
# code assumes the identity layout at its boundary. A contiguous aligned input costs
# its checks only (a few dozen integer operations per input).
# After the call, a failed run-time check inside the model (strata_assert_fail, on the
# calling thread or on the pool's) makes it return STRATA_ERROR_RUNTIME with the check's
# message, every block the model allocated freed and the outputs empty (data and
# allocated NULL, count 0): no half-written output leaks. On success every output is
# contiguous row-major data in a malloc'd block of its own (`allocated`, which the caller
# frees; the model's blocks are over-allocated and aligned, so `data` lies a few bytes
# in): an output of the model that is not (a view of an input, a weight or constant, a
# block another output already took, strided data) is copied, and a block of the
# model's that no output took is freed.
# The message stays readable through strata_last_error() until the thread's next run.
#
# [Note: failures on the pool's threads]
# strata_assert_fail records the first message of the thread it runs on (thread-local,
# read by strata_last_error after a raw call). A check failing on one of the pool's
# worker threads would be lost there, so while a checked run is in progress
# (`strata_checked_runs`), a failure on a thread that is not inside strata_model_run
# itself (a worker, as a rule) is also recorded in one process-wide slot, which
# strata_model_run takes after the call when its own thread has none. Only the call
# holding the pool has workers (others run inline on their own thread), but two checked
# calls at once, or a checked and a raw one, may see each other's worker failure there:
# a failure reported twice rather than one lost (the slot is cleared only by a run
# taking it). The raw entry point keeps its thread-local reporting only: a worker's
# failure is not seen after a raw call. (Today's run-time checks run on the calling
# thread: loops holding a cf.assert stay sequential.)
_CHECKED_TYPES_C = r"""
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name;   /* its ONNX name, for messages */
  const char *decl;   /* its declared type, for messages ("Nx4xfloat32") */
  int32_t rank, item, scalar, type;
  int32_t words;      /* where its descriptor lies in the argument block */
  int32_t dims;       /* where its dims lie in strata_in_dims / strata_in_groups */
} strata_in_info;
typedef struct {
  const char *name;
  int32_t rank, item, scalar, type;
  int64_t at;         /* its byte offset in strata_results */
} strata_out_info;

"""
_CHECKED_C = r"""
extern const char strata_weights_begin[], strata_weights_end[];
static _Thread_local char strata_message[1024];
static char strata_empty[64] __attribute__((aligned(64)));  /* data of empty inputs */

static const char *strata_type_name(int32_t type) {
  static const char *const names[] = {STRATA_TYPE_NAMES};
  return type >= 0 && type < (int32_t)(sizeof names / sizeof *names) ? names[type]
                                                                       : "unknown";
}

static int strata_fail(int status, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(strata_message, sizeof strata_message, format, ap);
  va_end(ap);
  strata_error = strata_message;
  return status;
}

/* Copies the elements of a strided tensor (sizes, strides in elements) to dst, row
   major. */
static void strata_copy_strided(char *dst, const char *src, int64_t rank,
                                const int64_t *sizes, const int64_t *strides,
                                int64_t item) {
  int64_t index[STRATA_MAX_RANK] = {0};
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0) return;
  if (rank == 0) {
    memcpy(dst, src, (size_t)item);
    return;
  }
  const int64_t n = sizes[rank - 1], step = strides[rank - 1] * item;
  for (;;) {
    const char *p = src;
    for (int64_t d = 0; d < rank - 1; ++d) p += index[d] * strides[d] * item;
    if (step == item) {
      memcpy(dst, p, (size_t)(n * item));
      dst += n * item;
    } else {
      for (int64_t j = 0; j < n; ++j, dst += item, p += step) memcpy(dst, p, (size_t)item);
    }
    int64_t d = rank - 2;
    while (d >= 0 && ++index[d] == sizes[d]) index[d--] = 0;
    if (d < 0) return;
  }
}

/* Whether strides (elements) are the row-major ones of sizes (dims of size 1 aside). */
static int strata_row_major(int64_t rank, const int64_t *sizes, const int64_t *strides) {
  int64_t expect = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expect) return 0;
    expect *= sizes[d] > 1 ? sizes[d] : 1;
  }
  return 1;
}

/* An output holding nothing (fields set one by one: a memset of the whole struct
   showed up in the profile of a small model's call). */
static void strata_clear(strata_tensor *t, const strata_out_info *out) {
  int32_t rank = out->rank;
  t->data = t->allocated = NULL;
  t->count = 0;
  t->type = out->type;
  t->rank = rank;
  for (int32_t d = 0; d < rank; ++d) t->shape[d] = 0;
  t->strides = NULL;
}

static int strata_in(void *const *set, int n, const void *p) {
  for (int i = 0; i < n; ++i)
    if (set[i] == p) return 1;
  return 0;
}

/* Checks input i and writes its descriptor (or, a scalar, its address) for the call. */
static int strata_take_input(int i, const strata_tensor *t, int64_t *words, void **args,
                             void **copies, int *ncopies, int64_t *group_size,
                             int32_t *group_from) {
  const strata_in_info *in = &strata_inputs[i];
  const int64_t *dims = strata_in_dims + in->dims;
  const int32_t *groups = strata_in_groups + in->dims;
  const char *name = in->name;
  if (t->type != 0 && in->type != 0 && t->type != in->type)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): element type %d (%s), "
                       "expected %d (%s)", name, i, t->type, strata_type_name(t->type),
                       in->type, strata_type_name(in->type));
  if (t->rank != in->rank)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): rank is %lld, expected %d "
                       "(%s)", name, i, (long long)t->rank, in->rank, in->decl);
  int64_t count = 1, span = 1, empty = 0, overflow = 0;
  for (int32_t d = 0; d < in->rank; ++d) {
    int64_t n = t->shape[d];
    if (n < 0)
      return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): dim %d is %lld, sizes "
                         "must be >= 0 (%s)", name, i, d, (long long)n, in->decl);
    if (dims[d] >= 0 && n != dims[d])
      return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): dim %d is %lld, expected "
                         "%lld (%s)", name, i, d, (long long)n, (long long)dims[d],
                         in->decl);
    int32_t g = groups[d];
    if (g >= 0) {
      if (group_size[g] < 0) {
        group_size[g] = n;
        group_from[g] = i * STRATA_MAX_RANK + d;
      } else if (group_size[g] != n) {
        int32_t j = group_from[g] / STRATA_MAX_RANK, e = group_from[g] % STRATA_MAX_RANK;
        return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): dim %d is %lld, but "
                           "input '%s' (#%d) dim %d is %lld: both are the dynamic dim "
                           "'%s'", name, i, d, (long long)n, strata_inputs[j].name, j, e,
                           (long long)group_size[g], strata_group_names[g]);
      }
    }
    if (n == 0) empty = 1;
    if (__builtin_mul_overflow(count, n, &count)) overflow = 1;
  }
  if (overflow)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): its element count "
                       "overflows int64 (%s)", name, i, in->decl);
  if (empty) count = 0;
  int64_t bytes;
  if (__builtin_mul_overflow(count, (int64_t)in->item, &bytes))
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): %lld elements of %d bytes "
                       "overflow int64", name, i, (long long)count, in->item);
  if (t->strides && !empty) {  /* the elements addressed: [0, span) from data */
    for (int32_t d = 0; d < in->rank; ++d) {
      int64_t s = t->strides[d], reach;
      if (s < 0)
        return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): stride %d is %lld, "
                           "strides must be >= 0", name, i, d, (long long)s);
      if (__builtin_mul_overflow(t->shape[d] - 1, s, &reach) ||
          __builtin_add_overflow(span, reach, &span))
        return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): the elements its "
                           "strides address overflow int64", name, i);
    }
    int64_t span_bytes;
    if (__builtin_mul_overflow(span, (int64_t)in->item, &span_bytes))
      return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): the %lld elements its "
                         "strides address overflow int64 bytes", name, i, (long long)span);
  } else {
    span = count;
  }
  if (t->count < 0)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): count is %lld, must be "
                       ">= 0", name, i, (long long)t->count);
  if (t->count < span)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): the buffer holds %lld "
                       "element%s, its shape%s %lld", name, i, (long long)t->count,
                       t->count == 1 ? "" : "s",
                       t->strides ? " and strides address" : " addresses",
                       (long long)span);
  if (span > 0 && !t->data)
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): data is NULL for %lld "
                       "element%s", name, i, (long long)span, span == 1 ? "" : "s");
  uintptr_t end;
  if (span > 0 && __builtin_add_overflow((uintptr_t)t->data,
                                         (uintptr_t)span * (uintptr_t)in->item, &end))
    return strata_fail(STRATA_ERROR_INPUT, "input '%s' (#%d): %lld elements from %p "
                       "wrap around the address space", name, i, (long long)span,
                       t->data);
  if (in->scalar) {  /* passed by value: read from data */
    args[i] = t->data;
    return STRATA_OK;
  }
  int64_t *w = words + in->words;
  char *data = span > 0 ? (char *)t->data : strata_empty;
  int64_t align = in->item >= 16 ? 16 : in->item;
  int misaligned = (align & (align - 1)) == 0 && ((uintptr_t)data & (uintptr_t)(align - 1));
  if (span > 0 && (misaligned ||
                   (t->strides && !strata_row_major(in->rank, t->shape, t->strides)))) {
    char *copy = malloc((size_t)bytes);
    if (!copy)
      return strata_fail(STRATA_ERROR_MEMORY, "out of memory copying input '%s' (#%d) to "
                         "a contiguous buffer (%lld bytes)", name, i, (long long)bytes);
    if (t->strides) {
      strata_copy_strided(copy, data, in->rank, t->shape, t->strides, in->item);
    } else {
      memcpy(copy, data, (size_t)bytes);
    }
    copies[(*ncopies)++] = copy;
    data = copy;
  }
  w[0] = w[1] = (int64_t)(uintptr_t)data;
  w[2] = 0;
  int64_t stride = 1;
  for (int32_t d = in->rank - 1; d >= 0; --d) {
    w[3 + d] = t->shape[d];
    w[3 + in->rank + d] = stride;
    stride *= t->shape[d] > 1 ? t->shape[d] : 1;
  }
  args[i] = w;
  return STRATA_OK;
}

/* Whether a block an output descriptor names is the model's own (malloc'd in the
   call): not a constant's marker, a weight, or an input's buffer. */
static int strata_owned(void *alloc, void *const *inputs, int n) {
  return alloc && (uintptr_t)alloc != 0xDEADBEEF &&
         !((const char *)alloc >= strata_weights_begin &&
           (const char *)alloc < strata_weights_end) && !strata_in(inputs, n, alloc);
}

/* What a failure inside the model is called in its message (the cuda library's own
   failures, a missing driver say, are not run-time checks: it defines this first). */
#ifndef STRATA_FAILURE_KIND
#define STRATA_FAILURE_KIND(failure) "run-time check failed: "
#endif

/* Makes the outputs the caller's (see [Note: the checked entry point]); `failure`: the
   message of a failed run-time check, if any. */
static int strata_take_outputs(char *results, strata_tensor *outputs, void *const *inputs,
                               int nin, const char *failure) {
  void *blocks[STRATA_NUM_OUTPUTS + 1], *claimed[STRATA_NUM_OUTPUTS + 1];
  int nblocks = 0, nclaimed = 0, status = STRATA_OK;
  if (failure)
    status = strata_fail(STRATA_ERROR_RUNTIME, "@%s: %s%s", STRATA_FUNCTION,
                         STRATA_FAILURE_KIND(failure), failure);
  for (int o = 0; o < STRATA_NUM_OUTPUTS; ++o) {
    const strata_out_info *out = &strata_outputs[o];
    strata_tensor *t = &outputs[o];
    const char *at = results + out->at;
    if (out->scalar) {
      if (status) continue;
      void *p = malloc((size_t)out->item);
      if (!p) {
        status = strata_fail(STRATA_ERROR_MEMORY, "out of memory for output '%s' (#%d)",
                             out->name, o);
        continue;
      }
      memcpy(p, at, (size_t)out->item);
      t->data = t->allocated = p;
      t->count = 1;
      continue;
    }
    const int64_t *w = (const int64_t *)at;
    void *alloc = (void *)(uintptr_t)w[0];
    const int64_t *sizes = w + 3, *strides = w + 3 + out->rank;
    char *data = (char *)(uintptr_t)w[1] + w[2] * out->item;
    int owned = strata_owned(alloc, inputs, nin);
    if (owned && !strata_in(blocks, nblocks, alloc)) blocks[nblocks++] = alloc;
    if (status) continue;
    int64_t count = 1, bytes, overflow = 0;
    for (int32_t d = 0; d < out->rank; ++d) {
      if (sizes[d] < 0) overflow = 1;
      if (__builtin_mul_overflow(count, sizes[d], &count)) overflow = 1;
    }
    if (overflow || __builtin_mul_overflow(count, (int64_t)out->item, &bytes)) {
      status = strata_fail(STRATA_ERROR_RUNTIME, "@%s: output '%s' (#%d) came back with "
                           "an invalid shape", STRATA_FUNCTION, out->name, o);
      continue;
    }
    memcpy(t->shape, sizes, sizeof(int64_t) * (size_t)out->rank);
    t->count = count;
    if (count == 0) continue;
    if (owned && strata_row_major(out->rank, sizes, strides) &&
        !strata_in(claimed, nclaimed, alloc)) {
      claimed[nclaimed++] = alloc;
      t->data = data;
      t->allocated = alloc;
      continue;
    }
    char *copy = malloc((size_t)bytes);
    if (!copy) {
      status = strata_fail(STRATA_ERROR_MEMORY, "out of memory copying output '%s' (#%d) "
                           "(%lld bytes)", out->name, o, (long long)bytes);
      continue;
    }
    strata_copy_strided(copy, data, out->rank, sizes, strides, out->item);
    t->data = t->allocated = copy;
  }
  for (int b = 0; b < nblocks; ++b)
    if (!strata_in(claimed, nclaimed, blocks[b])) free(blocks[b]);
  if (status) {
    for (int o = 0; o < STRATA_NUM_OUTPUTS; ++o) {
      free(outputs[o].allocated);
      strata_clear(&outputs[o], &strata_outputs[o]);
    }
  }
  return status;
}

__attribute__((visibility("default"))) int strata_model_run(
    const strata_tensor *inputs, int64_t num_inputs, strata_tensor *outputs,
    int64_t num_outputs) {
  strata_error = NULL;
  if (num_outputs != STRATA_NUM_OUTPUTS)
    return strata_fail(STRATA_ERROR_INPUT, "@%s has %d output%s, got num_outputs = %lld",
                       STRATA_FUNCTION, STRATA_NUM_OUTPUTS,
                       STRATA_NUM_OUTPUTS == 1 ? "" : "s", (long long)num_outputs);
  if (STRATA_NUM_OUTPUTS && !outputs)
    return strata_fail(STRATA_ERROR_INPUT, "@%s: outputs is NULL", STRATA_FUNCTION);
  for (int o = 0; o < STRATA_NUM_OUTPUTS; ++o)
    strata_clear(&outputs[o], &strata_outputs[o]);
  if (num_inputs != STRATA_NUM_INPUTS)
    return strata_fail(STRATA_ERROR_INPUT, "@%s takes %d input%s, got num_inputs = %lld",
                       STRATA_FUNCTION, STRATA_NUM_INPUTS,
                       STRATA_NUM_INPUTS == 1 ? "" : "s", (long long)num_inputs);
  if (STRATA_NUM_INPUTS && !inputs)
    return strata_fail(STRATA_ERROR_INPUT, "@%s: inputs is NULL", STRATA_FUNCTION);
  int64_t words[STRATA_ARG_WORDS + 1];
  void *args[STRATA_NUM_INPUTS + 1], *copies[STRATA_NUM_INPUTS + 1];
  void *buffers[STRATA_NUM_INPUTS + 1];  /* what the model got: outputs may alias them */
  int64_t group_size[STRATA_NUM_GROUPS + 1];
  int32_t group_from[STRATA_NUM_GROUPS + 1];
  int ncopies = 0, nbuffers = 0, status = STRATA_OK;
  for (int g = 0; g < STRATA_NUM_GROUPS; ++g) group_size[g] = -1;
  for (int i = 0; i < STRATA_NUM_INPUTS && !status; ++i) {
    status = strata_take_input(i, &inputs[i], words, args, copies, &ncopies, group_size,
                               group_from);
    if (!status && !strata_inputs[i].scalar) buffers[nbuffers++] = (void *)(uintptr_t)
        ((int64_t *)args[i])[0];
  }
  if (!status) {
    union { strata_results r; int64_t align; } results;
    memset(&results, 0, sizeof results);
    strata_in_run = 1;
    __atomic_fetch_add(&strata_checked_runs, 1, __ATOMIC_SEQ_CST);
    strata_call(&results.r, args);
    __atomic_fetch_sub(&strata_checked_runs, 1, __ATOMIC_SEQ_CST);
    strata_in_run = 0;
    const char *failure = strata_error;
    const char *pool = __atomic_load_n(&strata_pool_error, __ATOMIC_ACQUIRE);
    if (pool) pool = __atomic_exchange_n(&strata_pool_error, NULL, __ATOMIC_ACQ_REL);
    strata_error = NULL;
    status = strata_take_outputs((char *)&results.r, outputs, buffers, nbuffers,
                                 failure ? failure : pool);
  }
  for (int c = 0; c < ncopies; ++c) free(copies[c]);
  return status;
}
"""


# ONNX TensorProto.DataType codes (onnxruntime's ONNXTensorElementDataType) by dtype name.
_ONNX_TYPES = ("undefined", "float32", "uint8", "int8", "uint16", "int16", "int32", "int64",
               "string", "bool", "float16", "float64", "uint32", "uint64", "complex64",
               "complex128", "bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
               "float8_e5m2fnuz", "uint4", "int4", "float4_e2m1fn", "float8_e8m0fnu",
               "uint2", "int2", "float6_e2m3fn", "float6_e3m2fn")


# The codes the header names (STRATA_TYPE_*, as _TENSOR_C defines them).
_TYPE_MACROS = {1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32",
                7: "INT64", 9: "BOOL", 10: "FLOAT16", 11: "DOUBLE", 12: "UINT32",
                13: "UINT64", 14: "COMPLEX64", 15: "COMPLEX128", 16: "BFLOAT16"}


def _type_code(dtype) -> int:
    """The ONNX element type code of a dtype (0 where ONNX has none)."""
    try:
        return _ONNX_TYPES.index(dtype.name)
    except ValueError:
        return 0


# What the header says of strata_model_run (then its inputs and outputs).
_CHECKED_DOC = """\
 * Every input is checked first: the counts, its element type (unless 0), its rank,
 * its dims (>= 0, the static ones, the dynamic ones named alike equal), its element
 * count and byte size (no overflow), `count` against the elements addressed, NULL
 * data, strides (>= 0; strided or misaligned inputs are copied for the call).
 * Returns STRATA_OK, or an error status with the message in strata_last_error()
 * (naming the input; valid until this thread's next run). On STRATA_OK each
 * outputs[i] is contiguous data in a block of its own, the caller's:
 * free(outputs[i].allocated) (not .data, which lies inside it). On an error the
 * outputs hold no block (allocated and data NULL) and the library has freed
 * whatever the run allocated. Calls from several threads at once are fine."""


def _c_string(text: str) -> str:
    """`text` as a C string literal (UTF-8; anything but printable ASCII escaped)."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        if c in '"\\?':
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _comment_safe(text: str) -> str:
    """`text` fit to stand inside a C block comment on one line."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text.replace("*/", "* /").replace("/*", "/ *")


def _type_text(s) -> str:
    """A spec's type as messages show it: ?x4xfloat32 (dim params by name: Nx4xfloat32)."""
    dims = [str(n) if n is not None else (d or "?") for n, d in zip(s.shape, s.dims)]
    return "x".join(dims + [s.dtype.name])


def checked_entry_c(function: str, signature, input_names=(), output_names=()) -> str:
    """The C of `strata_model_run` for `function`: the engine (_CHECKED_C) and this
    model's tables and call of its raw entry point (see [Note: the checked entry
    point]). None when a rank exceeds STRATA_MAX_RANK (the tensor struct's shape)."""
    args, res = signature.args, signature.results
    if any(s.rank > MAX_RANK for s in args + res):
        return None
    in_name = [input_names[i] if i < len(input_names) else f"input{i}"
               for i in range(len(args))]
    out_name = [output_names[i] if i < len(output_names) else f"output{i}"
                for i in range(len(res))]
    groups: list[str] = []
    dims, group_of, infos, word = [], [], [], 0
    for i, s in enumerate(args):
        infos.append(f"  {{{_c_string(in_name[i])}, {_c_string(_type_text(s))}, {s.rank}, "
                     f"{s.dtype.itemsize}, {int(s.scalar)}, {_type_code(s.dtype)}, {word}, "
                     f"{len(dims)}}},")
        for n, d in zip(s.shape, s.dims):
            dims.append(-1 if n is None else n)
            if n is None and d and sum(d == e and m is None for t in args
                                       for m, e in zip(t.shape, t.dims)) > 1:
                if d not in groups:
                    groups.append(d)
                group_of.append(groups.index(d))
            else:
                group_of.append(-1)
        if not s.scalar:
            word += s.words
    # The results as the raw entry point writes them (a struct of descriptors and
    # scalars, upstream's C interface), and its call.
    fields = []
    for i, s in enumerate(res):
        fields.append(f"  {_C_TYPES[s.dtype.name]} r{i};" if s.scalar
                      else f"  int64_t r{i}[{s.words}];")
    params, call_args = [], []
    ret = "void"
    if len(res) == 1 and res[0].scalar:
        ret = _C_TYPES[res[0].dtype.name]
    elif len(res) == 1:
        params.append("void *")
        call_args.append("results->r0")
    elif res:
        params.append("void *")
        call_args.append("results")
    for i, s in enumerate(args):
        if s.scalar:
            ctype = _C_TYPES[s.dtype.name]
            params.append(ctype)
            call_args.append(f"*(const {ctype} *)args[{i}]")
        else:
            params.append("void *")
            call_args.append(f"args[{i}]")
    call = f"strata_raw_entry({', '.join(call_args)})"
    if ret != "void":
        call = f"results->r0 = {call}"
    outs = [f"  {{{_c_string(out_name[i])}, {s.rank}, {s.dtype.itemsize}, "
            f"{int(s.scalar)}, {_type_code(s.dtype)}, offsetof(strata_results, r{i})}},"
            for i, s in enumerate(res)]
    return "\n".join([
        "#include <stdbool.h>", "#include <stddef.h>", _TENSOR_C, _CHECKED_TYPES_C,
        "#define STRATA_TYPE_NAMES " + ", ".join(map(_c_string, _ONNX_TYPES)),
        f"#define STRATA_FUNCTION {_c_string(function)}",
        f"#define STRATA_NUM_INPUTS {len(args)}", f"#define STRATA_NUM_OUTPUTS {len(res)}",
        f"#define STRATA_NUM_GROUPS {len(groups)}", f"#define STRATA_ARG_WORDS {word}",
        "typedef struct {", *(fields or ["  char none;"]), "} strata_results;",
        # (by its symbol: a function's name need not be a C identifier)
        f"{ret} strata_raw_entry({', '.join(params) or 'void'}) "
        f"__asm__({_c_string('_mlir_ciface_' + function)});",
        "static void strata_call(strata_results *results, void *const *args) {",
        "  (void)results; (void)args;", f"  {call};", "}",
        "static const strata_in_info strata_inputs[] = {", *(infos or ["  {0},"]), "};",
        "static const strata_out_info strata_outputs[] = {", *(outs or ["  {0},"]), "};",
        "static const int64_t strata_in_dims[] = {" +
        ", ".join(map(str, dims or [0])) + "};",
        "static const int32_t strata_in_groups[] = {" +
        ", ".join(map(str, group_of or [-1])) + "};",
        "static const char *const strata_group_names[] = {" +
        ", ".join(map(_c_string, groups or [""])) + "};",
        _CHECKED_C])


def _cc():
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or \
        shutil.which("clang")
    if not cc:
        raise StrataError("building a shared library needs a C compiler (cc); none found "
                          "(set $CC)")
    return cc


def _weights_asm(weights: dict, bin_path: str) -> str:
    """An assembler file defining each weight symbol over its bytes in `bin_path`."""
    # strata_weights_begin / _end bound them (the checked entry point never hands a
    # weight to the caller as an output of its own).
    lines = ['\t.section .rodata.strata_weights,"a"', "\t.balign 64",
             "\t.globl strata_weights_begin", "\t.hidden strata_weights_begin",
             "strata_weights_begin:"]
    offset = 0
    with open(bin_path, "wb") as f:
        for name, a in weights.items():
            pad = -offset % 64
            f.write(b"\0" * pad)
            offset += pad
            data = np.ascontiguousarray(a).tobytes()
            f.write(data)
            lines += ["\t.balign 64", f"\t.globl {name}", f"\t.hidden {name}",
                      f"\t.type {name}, @object", f"\t.size {name}, {max(len(data), 1)}",
                      f"{name}:"]
            if data:
                lines.append(f'\t.incbin "{bin_path}", {offset}, {len(data)}')
            else:
                lines.append("\t.zero 1")
            offset += len(data)
    lines += ["\t.globl strata_weights_end", "\t.hidden strata_weights_end",
              "strata_weights_end:", '\t.section .note.GNU-stack,"",@progbits']
    return "\n".join(lines) + "\n"


def header_text(function: str, signature, input_names=(), output_names=(),
                checked: bool = True) -> str:
    """The C header of a library's entry points: the checked `strata_model_run` (unless
    `checked` is False: a rank above STRATA_MAX_RANK) and the raw `_mlir_ciface_`."""
    memref_ranks = sorted({s.rank for s in signature.args + signature.results
                           if not s.scalar})
    guard = f"STRATA_{function.upper()}_H"
    args, res = signature.args, signature.results
    in_name = [input_names[i] if i < len(input_names) else f"input{i}"
               for i in range(len(args))]
    out_name = [output_names[i] if i < len(output_names) else f"output{i}"
                for i in range(len(res))]
    out = [f"/* Generated by Strata: the C interface of @{function}. */",
           f"#ifndef {guard}", f"#define {guard}", "#include <stdbool.h>",
           "#include <stdint.h>", "", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]

    def describe(s, name):
        dims = "x".join("?" if d is None else str(d) for d in s.shape) or \
            ("scalar (by value)" if s.scalar else "rank-0")
        ctype = _C_TYPES.get(s.dtype.name, f"{s.dtype.itemsize}-byte elements")
        named = [f"dim {k} is '{d}'" for k, (n, d) in enumerate(zip(s.shape, s.dims))
                 if n is None and d]
        code = _type_code(s.dtype)
        if code in _TYPE_MACROS:
            named.append(f"type STRATA_TYPE_{_TYPE_MACROS[code]}")
        elif code:
            named.append(f"type {code}")
        return _comment_safe(f"{name}: {dims} {ctype}" +
                             (f" ({', '.join(named)})" if named else ""))

    doc = [f" *   inputs[{i}]  {describe(s, repr(in_name[i]))}" for i, s in enumerate(args)]
    doc += [f" *   outputs[{i}] {describe(s, repr(out_name[i]))}"
            for i, s in enumerate(res)]
    if checked:
        out += [_TENSOR_C,
                f"/* Runs @{function}, checked (the entry point to use).",
                *_CHECKED_DOC.splitlines(),
                *doc, " */",
                "int strata_model_run(const strata_tensor *inputs, int64_t num_inputs,",
                "                     strata_tensor *outputs, int64_t num_outputs);", ""]
    else:
        out += ["/* No strata_model_run: a tensor of this model has a rank above 16, the "
                "checked", " * entry point's limit. */", ""]
    out += ["/* A memref descriptor (upstream MLIR's layout): the buffer as malloc gave "
            "it, the", "   aligned data pointer, an offset, sizes and strides, in elements. */"]
    for r in memref_ranks:
        dims = f"  int64_t sizes[{r}];\n  int64_t strides[{r}];\n" if r else ""
        out.append(f"typedef struct {{\n  void *allocated;\n  void *aligned;\n"
                   f"  int64_t offset;\n{dims}}} strata_memref{r}d;")
    out.append("")

    def ctype(s):
        return _C_TYPES[s.dtype.name] if s.scalar else f"strata_memref{s.rank}d"

    params, raw_doc = [], []
    ret = "void"
    if len(res) == 1 and res[0].scalar:
        ret = ctype(res[0])
    elif len(res) == 1:
        params.append(f"strata_memref{res[0].rank}d *result")
    elif res:
        fields = "".join(f"  {ctype(s)} r{i};\n" for i, s in enumerate(res))
        out.append(f"typedef struct {{\n{fields}}} strata_{function}_results;\n")
        params.append(f"strata_{function}_results *results")
    for i, s in enumerate(args):
        params.append(f"{ctype(s)} arg{i}" if s.scalar else f"{ctype(s)} *arg{i}")
        raw_doc.append(f" *   arg{i}    {describe(s, repr(in_name[i]))}")
    for i, s in enumerate(res):
        raw_doc.append(f" *   result{'' if len(res) == 1 else f' r{i}'} "
                       f"{describe(s, repr(out_name[i]))}")
    out += ["/* Runs @" + function + ", UNCHECKED (upstream MLIR's C interface): nothing "
            "about the", " * inputs is checked (shapes, NULL, sizes, strides, offsets: "
            "a wrong one reads or", " * writes the wrong memory). Inputs are contiguous "
            "row-major buffers (offset 0,", " * strides ignored); outputs are allocated "
            "with malloc, but may alias an input", " * or a constant, or share one block "
            "(the checked entry point sorts that out). After",
            " * a call, strata_last_error() is NULL, or the message of a failed run-time "
            "check", " * on the calling thread.", *raw_doc, " */",
            f"{ret} _mlir_ciface_{function}({', '.join(params) or 'void'});",
            "/* The message of the last failure in this thread (then cleared), or NULL. */",
            "const char *strata_last_error(void);", "",
            "/* The threads the model runs on: n, or with n <= 0 $STRATA_NUM_THREADS, else",
            "   the CPUs available (the default, unless compiled with --num-threads). */",
            "void strata_model_set_num_threads(int32_t n);",
            "int32_t strata_model_get_num_threads(void);", "",
            f"#define STRATA_{function.upper()}"
            f"_NUM_INPUTS {len(args)}",
            f"#define STRATA_{function.upper()}_NUM_OUTPUTS {len(res)}", "",
            "#ifdef __cplusplus", "}", "#endif", f"#endif /* {guard} */", ""]
    return "\n".join(out)


def lower_to_llvm(model, function: str | None = None, instrumentation=None, timings=None,
                  opt_level: int = 3, num_threads: int = 0, tune: bool = False,
                  tune_time: float = 0.0):
    """`model` lowered for the CPU: (llvm-dialect module, LLVM IR text, entry name,
    signature, weights by symbol, input names, output names) as a namespace-like dict;
    `num_threads` (0: the CPUs available) is the model's thread count; `tune`: the
    kernels' tile words measured (autotune.py), `tune_time` seconds per candidate."""
    from ...compiler import (_entry, _is_torch_module, _strip_none_results, build_pipeline,
                             load_module, target_pipeline)
    from ...interpreter.core import arg_names, result_names
    from ...ir.symbol_table import symbol_name
    from .target import CpuTarget

    target = CpuTarget(opt_level, num_threads=num_threads, tune=tune, tune_time=tune_time)
    module = load_module(model)
    if _is_torch_module(module):     # a program's None outputs are not the library's
        _strip_none_results(module, function)   # ([Note: None and scalar results])
    entry = _entry(module, function)
    fname = symbol_name(entry)
    inputs, outputs = arg_names(entry), result_names(entry)
    # ONNX or torch: the passes that bring this module to the tensor level first.
    build_pipeline(list(target_pipeline(target, module))).run(module, instrumentation)
    ir, signatures, weights = target.lower_to_llvmir(module, {fname}, instrumentation,
                                                     timings)
    return {"module": module, "ir": ir, "function": fname, "signature": signatures[fname],
            "weights": weights, "inputs": inputs, "outputs": outputs}


def build_shared_library(model, output: str, function: str | None = None,
                         header: str | None = None, opt_level: int = 3,
                         instrumentation=None, timings=None, num_threads: int = 0,
                         tune: bool = False, tune_time: float = 0.0) -> dict:
    """Compile `model` into the shared library `output` and its C header `header`
    (default: `output` with .h), running on `num_threads` threads (0: the CPUs
    available), its kernels' tile words measured if `tune` (see lower_to_llvm). Returns
    {"library", "header", "function", "signature", "checked"} (checked: whether it has
    strata_model_run, see checked_entry_c)."""
    from .jit import emit_objects
    low = lower_to_llvm(model, function, instrumentation, timings, opt_level, num_threads,
                        tune, tune_time)
    fname, weights = low["function"], low["weights"]
    objects = emit_objects(low["ir"], opt_level=opt_level)
    header = header or os.path.splitext(output)[0] + ".h"
    cc = _cc()
    with tempfile.TemporaryDirectory(prefix="strata-aot-") as tmp:
        paths = {k: os.path.join(tmp, k) for k in ("weights.s", "runtime.c",
                                                   "weights.bin", "kernels.o")}
        models = [os.path.join(tmp, f"model{i}.o") for i in range(len(objects))]
        for path, obj in zip(models, objects):
            with open(path, "wb") as f:
                f.write(obj)
        from .kernels import kernel_object
        from .support import support_object
        with open(paths["kernels.o"], "wb") as f:
            f.write(kernel_object())
        paths["support.o"] = os.path.join(tmp, "support.o")
        with open(paths["support.o"], "wb") as f:
            f.write(support_object())
        with open(paths["weights.s"], "w") as f:
            f.write(_weights_asm(weights, paths["weights.bin"]))
        checked = checked_entry_c(fname, low["signature"], low["inputs"], low["outputs"])
        with open(paths["runtime.c"], "w", encoding="utf-8") as f:
            f.write(_RUNTIME_C + (checked or ""))
        # The library exports its entry points and the runtime part, nothing else.
        exports = [e for e in _EXPORTS if checked or e != "strata_model_run"]
        paths["exports.map"] = os.path.join(tmp, "exports.map")
        with open(paths["exports.map"], "w") as f:
            f.write(f"{{ global: _mlir_ciface_{fname}; {'; '.join(exports)}; "
                    "local: *; };\n")
        cmd = [cc, "-shared", "-fPIC", "-O2", "-std=gnu11", "-o", os.path.abspath(output),
               *models, paths["kernels.o"], paths["support.o"], paths["weights.s"],
               paths["runtime.c"],
               "-lm", "-lpthread", "-Wl,-z,nodelete",
               f"-Wl,--version-script={paths['exports.map']}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise StrataError(f"linking {output} failed ({' '.join(cmd)}):\n"
                              f"{r.stderr.strip()}")
    with open(header, "w", encoding="utf-8") as f:
        f.write(header_text(fname, low["signature"], low["inputs"], low["outputs"],
                            checked is not None))
    return {"library": output, "header": header, "function": fname,
            "signature": low["signature"], "checked": checked is not None}
