"""`strata compile --target cuda -o model.so`: a model compiled for the cuda target as a
host library with a C header, built without a GPU or a CUDA toolkit.

    strata compile model.onnx --target cuda [--cuda-arch sm_80] -o model.so   # + model.h

The library holds: the PTX of every gpu.module (embedded with the assembler's
`.incbin`), the weights (likewise, in host memory: uploaded to the device once), the
host code (host.py: the host function through the CPU backend, calling the shim), the
shim, and a C part (`_CUDA_C`) that opens libcuda.so.1 with dlopen at the first call
(`$STRATA_LIBCUDA` names another file, as runtime.py's loader), resolves the driver
entry points, retains device 0's primary context, creates a stream, loads the PTX with
cuModuleLoadData (the driver JIT-compiles it for the device), looks up each launch
site's kernel and uploads the weights. Its entry points are the CPU library's
(strata/backends/cpu/aot.py, [Note: the checked entry point]): `strata_model_run`
checks the inputs against the model and returns each output in a malloc'd block, and
`strata_last_error()` says what failed; the header is the same. The raw
`_mlir_ciface_<f>` takes and returns memref descriptors of HOST memory here: the C part
copies inputs to the device, runs the host code, copies the outputs back.

[Note: the host library's failures]
Nothing in the library ends the process: no driver, no device, a driver too old (an
entry point missing), PTX the driver cannot load, a failed launch, out of memory, a
failed run-time check each make `strata_model_run` return STRATA_ERROR_RUNTIME with one
line in strata_last_error() ("the cuda target needs an NVIDIA driver: libcuda.so.1 was
not found ...", "kernel main_kernel::main_kernel (from Mul_0) failed to launch: ..."),
no output left allocated. A failed start is remembered (the next call fails the same
way, without trying again). Calls are serialized by a mutex (one stream, one state).
"""
from __future__ import annotations

import os
import subprocess
import tempfile

from ...errors import StrataError

__all__ = ["build_host_library", "cuda_library_c"]

# The C part (see the module doc); STRATA_CUDA_* macros and the tables come before it.
_CUDA_C = r"""
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
typedef void *CUptr;
void strata_assert_fail(const char *message);
/* (the CPU library's thread-count functions exist for the shared header; a cuda model
   has no host threads to count) */
int32_t strata_model_num_threads = 0;
int32_t strata_get_num_threads(void) { return 1; }
int32_t strata_guard_active(void) { return 1; }

/* the shim's state (host.py, [Note: the host runtime shim]) */
extern void *__strata_cuda_launch_fn, *__strata_cuda_alloc_fn, *__strata_cuda_free_fn,
    *__strata_cuda_read_fn, *__strata_cuda_sync_fn, *__strata_cuda_stream,
    *__strata_cuda_kernels, *__strata_cuda_weights;
extern int32_t __strata_cuda_status;
extern int64_t __strata_cuda_site, __strata_cuda_bytes, __strata_cuda_alloc_site;
extern const char *__strata_cuda_message;

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(int *, int);
  CUresult (*DevicePrimaryCtxRetain)(CUptr *, int);
  CUresult (*CtxPushCurrent)(CUptr);
  CUresult (*CtxPopCurrent)(CUptr *);
  CUresult (*StreamCreate)(CUptr *, unsigned);
  CUresult (*StreamSynchronize)(CUptr);
  CUresult (*ModuleLoadData)(CUptr *, const void *);
  CUresult (*ModuleGetFunction)(CUptr *, CUptr, const char *);
  CUresult (*MemAlloc)(uint64_t *, size_t);
  CUresult (*MemcpyHtoDAsync)(uint64_t, const void *, size_t, CUptr);
  CUresult (*MemcpyDtoHAsync)(void *, uint64_t, size_t, CUptr);
  CUresult (*MemAllocAsync)(uint64_t *, size_t, CUptr);
  CUresult (*MemFreeAsync)(uint64_t, CUptr);
  CUresult (*DeviceGetDefaultMemPool)(CUptr *, int);
  CUresult (*MemPoolSetAttribute)(CUptr, int, void *);
  CUresult (*LaunchKernel)(CUptr, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, CUptr, void **, void **);
  CUresult (*GetErrorName)(CUresult, const char **);
} cu;
static const char *const strata_cu_names[] = {
  "cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuCtxPushCurrent_v2",
  "cuCtxPopCurrent_v2", "cuStreamCreate", "cuStreamSynchronize", "cuModuleLoadData",
  "cuModuleGetFunction", "cuMemAlloc_v2", "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2",
  "cuMemAllocAsync", "cuMemFreeAsync", "cuDeviceGetDefaultMemPool",
  "cuMemPoolSetAttribute", "cuLaunchKernel", "cuGetErrorName"};

static pthread_mutex_t strata_cuda_lock = PTHREAD_MUTEX_INITIALIZER;
static int strata_cuda_state = 0;            /* 0 not started, 1 ready, -1 failed */
static char strata_cuda_failure[512];
static CUptr strata_ctx, strata_stream, strata_modules[STRATA_CUDA_MODULES + 1];
static CUptr strata_kernels[STRATA_CUDA_SITES + 1];
static uint64_t strata_weight_ptrs[STRATA_CUDA_WEIGHTS + 1];
static _Thread_local char strata_cuda_message[640];
/* (the checked entry point's message: "@main: <the driver's failure>", not a check's) */
#define STRATA_FAILURE_KIND(failure) \
  ((failure) == strata_cuda_message ? "" : "run-time check failed: ")

static const char *strata_cu_error(CUresult c) {
  const char *name = NULL;
  if (cu.GetErrorName) cu.GetErrorName(c, &name);
  return name ? name : "CUDA error";
}

static int strata_cuda_fail(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(strata_cuda_message, sizeof strata_cuda_message, format, ap);
  va_end(ap);
  strata_assert_fail(strata_cuda_message);
  return 1;
}

static int strata_cuda_start_failed(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(strata_cuda_failure, sizeof strata_cuda_failure, format, ap);
  va_end(ap);
  strata_cuda_state = -1;
  return 1;
}

/* The first call: the driver, the context, the stream, the PTX, the weights. */
static int strata_cuda_start(void) {
  const char *name = getenv("STRATA_LIBCUDA");
  if (!name || !*name) name = "libcuda.so.1";
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return strata_cuda_start_failed("the cuda target needs an NVIDIA driver: %s was not "
                                    "found (no GPU driver installed on this machine)", name);
  void **slots = (void **)&cu;
  for (size_t i = 0; i < sizeof strata_cu_names / sizeof *strata_cu_names; ++i) {
    slots[i] = dlsym(lib, strata_cu_names[i]);
    if (!slots[i])
      return strata_cuda_start_failed("the CUDA driver library lacks %s; update the NVIDIA "
                                      "driver", strata_cu_names[i]);
  }
  CUresult c = cu.Init(0);
  if (c == 100)
    return strata_cuda_start_failed("the cuda target needs an NVIDIA GPU: the driver finds "
                                    "no device");
  if (c) return strata_cuda_start_failed("the CUDA driver did not start: %s",
                                         strata_cu_error(c));
  int dev = 0;
  CUptr pool = NULL;
  uint64_t keep = UINT64_MAX;
  if ((c = cu.DeviceGet(&dev, 0)) || (c = cu.DevicePrimaryCtxRetain(&strata_ctx, dev)))
    return strata_cuda_start_failed("the CUDA driver has no usable device 0: %s",
                                    strata_cu_error(c));
  cu.CtxPushCurrent(strata_ctx);
  if ((c = cu.StreamCreate(&strata_stream, 1)) ||
      (c = cu.DeviceGetDefaultMemPool(&pool, dev)) ||
      (c = cu.MemPoolSetAttribute(pool, 4 /* release threshold */, &keep))) {
    cu.CtxPopCurrent(&pool);
    return strata_cuda_start_failed("the CUDA driver could not make a stream: %s",
                                    strata_cu_error(c));
  }
  int failed = 0;
  for (int m = 0; m < STRATA_CUDA_MODULES && !failed; ++m)
    if ((c = cu.ModuleLoadData(&strata_modules[m], strata_ptx[m])))
      failed = strata_cuda_start_failed("the CUDA driver could not load the PTX of @%s "
                                        "(arch %s): %s", strata_module_names[m],
                                        STRATA_CUDA_ARCH, strata_cu_error(c));
  for (int s = 0; s < STRATA_CUDA_SITES && !failed; ++s)
    if ((c = cu.ModuleGetFunction(&strata_kernels[s], strata_modules[strata_site_module[s]],
                                  strata_site_kernel[s])))
      failed = strata_cuda_start_failed("kernel %s::%s: %s",
                                        strata_module_names[strata_site_module[s]],
                                        strata_site_kernel[s], strata_cu_error(c));
  for (int w = 0; w < STRATA_CUDA_WEIGHTS && !failed; ++w) {
    size_t n = strata_weight_bytes[w] ? strata_weight_bytes[w] : 1;
    if ((c = cu.MemAlloc(&strata_weight_ptrs[w], n)) ||
        (c = cu.MemcpyHtoDAsync(strata_weight_ptrs[w], strata_weight_data[w], n,
                                strata_stream)))
      failed = strata_cuda_start_failed("uploading the weights (%zu bytes): %s", n,
                                        strata_cu_error(c));
  }
  if (!failed && (c = cu.StreamSynchronize(strata_stream)))
    failed = strata_cuda_start_failed("uploading the weights: %s", strata_cu_error(c));
  cu.CtxPopCurrent(&pool);
  if (failed) return 1;
  __strata_cuda_launch_fn = (void *)cu.LaunchKernel;
  __strata_cuda_alloc_fn = (void *)cu.MemAllocAsync;
  __strata_cuda_free_fn = (void *)cu.MemFreeAsync;
  __strata_cuda_read_fn = (void *)cu.MemcpyDtoHAsync;
  __strata_cuda_sync_fn = (void *)cu.StreamSynchronize;
  __strata_cuda_stream = strata_stream;
  __strata_cuda_kernels = strata_kernels;
  __strata_cuda_weights = strata_weight_ptrs;
  strata_cuda_state = 1;
  return 0;
}

/* The product of a descriptor's sizes (words: allocated, aligned, offset, sizes,
   strides) and whether its strides are the row-major ones. */
static int64_t strata_count(const int64_t *d, int rank, int *row_major) {
  int64_t n = 1, expect = 1;
  *row_major = 1;
  for (int k = rank - 1; k >= 0; --k) {
    if (d[3 + k] != 1 && d[3 + rank + k] != expect) *row_major = 0;
    expect *= d[3 + k];
    n *= d[3 + k];
  }
  if (n == 0) *row_major = 1;   /* (an empty view: no element to address) */
  return n;
}

/* A call: inputs (host descriptors) to the device, the host code, outputs back into
   malloc'd host blocks (descriptors rewritten). */
static void strata_cuda_run(int64_t *results, int64_t *const *args) {
  int64_t dargs[STRATA_CUDA_ARG_WORDS + 1];
  int64_t dres[STRATA_CUDA_RES_WORDS + 1];
  uint64_t staged[STRATA_CUDA_ARGS + 1];
  int nstaged = 0;
  CUptr old;
  CUresult c = 0;
  memset(results, 0, sizeof(int64_t) * STRATA_CUDA_RES_WORDS);
  pthread_mutex_lock(&strata_cuda_lock);
  if (strata_cuda_state == 0) strata_cuda_start();
  if (strata_cuda_state < 0) {
    strata_cuda_fail("%s", strata_cuda_failure);
    pthread_mutex_unlock(&strata_cuda_lock);
    return;
  }
  cu.CtxPushCurrent(strata_ctx);
  int failed = 0;
  for (int i = 0, at = 0; i < STRATA_CUDA_ARGS; at += 3 + 2 * strata_arg_rank[i], ++i) {
    const int64_t *h = args[i];
    int rank = strata_arg_rank[i], row_major;
    int64_t n = strata_count(h, rank, &row_major) * strata_arg_item[i];
    memcpy(&dargs[at], h, sizeof(int64_t) * (3 + 2 * rank));
    uint64_t d = 0;
    if (!failed && ((c = cu.MemAllocAsync(&d, n ? (size_t)n : 1, strata_stream)) ||
                    (staged[nstaged++] = d, 0) ||
                    (n && (c = cu.MemcpyHtoDAsync(d, (const char *)h[1] +
                                                  h[2] * strata_arg_item[i], (size_t)n,
                                                  strata_stream)))))
      failed = strata_cuda_fail("copying input #%d to the device (%lld bytes): %s", i,
                                (long long)n, strata_cu_error(c));
    dargs[at] = dargs[at + 1] = (int64_t)d;
    dargs[at + 2] = 0;
    if (!row_major && !failed)
      failed = strata_cuda_fail("input #%d is strided: pass it contiguous", i);
  }
  if (!failed) {
    __strata_cuda_status = 0;
    __strata_cuda_site = -1;
    __strata_cuda_alloc_site = -1;
    __strata_cuda_message = NULL;
    STRATA_CUDA_CALL;
    if (__strata_cuda_status == -1) {
      strata_assert_fail(__strata_cuda_message ? __strata_cuda_message
                                                : "a run-time check failed");
      failed = 1;
    } else if (__strata_cuda_status > 0) {
      int64_t s = __strata_cuda_site;
      if (s >= 0)
        failed = strata_cuda_fail("kernel %s::%s (from %s) failed to launch: %s",
                                  strata_module_names[strata_site_module[s]],
                                  strata_site_kernel[s], strata_site_origin[s],
                                  strata_cu_error(__strata_cuda_status));
      else if (s == -2)
        failed = strata_cuda_fail("reading a device value back failed: %s",
                                  strata_cu_error(__strata_cuda_status));
      else
        failed = strata_cuda_fail("out of device memory allocating %lld bytes for %s: %s",
                                  (long long)__strata_cuda_bytes,
                                  __strata_cuda_alloc_site >= 0 &&
                                  __strata_cuda_alloc_site < STRATA_CUDA_ALLOCS
                                      ? strata_alloc_origin[__strata_cuda_alloc_site]
                                      : "a buffer",
                                  strata_cu_error(__strata_cuda_status));
    }
    if ((c = cu.StreamSynchronize(strata_stream)) && !failed)
      failed = strata_cuda_fail("a kernel of @%s failed: %s", STRATA_CUDA_FUNCTION,
                                strata_cu_error(c));
    /* outputs back to the host; every device block of the call freed */
    uint64_t freed[STRATA_CUDA_RESULTS + 1];
    int nfreed = 0;
    for (int o = 0, at = 0; o < STRATA_CUDA_RESULTS; at += 3 + 2 * strata_res_rank[o], ++o) {
      int64_t *d = &dres[at], *h = &results[at];
      int rank = strata_res_rank[o], row_major;
      int64_t n = strata_count(d, rank, &row_major) * strata_res_item[o];
      if (!failed && !row_major)
        failed = strata_cuda_fail("output #%d is a strided view: not supported yet", o);
      if (!failed) {
        char *block = malloc(n ? (size_t)n : 1);
        if (!block) failed = strata_cuda_fail("out of memory copying output #%d", o);
        else if (n && (c = cu.MemcpyDtoHAsync(block, (uint64_t)d[1] + d[2] *
                                              strata_res_item[o], (size_t)n,
                                              strata_stream))) {
          free(block);
          failed = strata_cuda_fail("copying output #%d: %s", o, strata_cu_error(c));
        } else {
          memcpy(h, d, sizeof(int64_t) * (3 + 2 * rank));
          h[0] = h[1] = (int64_t)(uintptr_t)block;
          h[2] = 0;
        }
      }
      /* the device block, unless an input's, a weight's or freed already */
      uint64_t a = (uint64_t)d[0];
      int own = a != 0;
      for (int k = 0; k < nstaged && own; ++k) own = staged[k] != a;
      for (int k = 0; k < STRATA_CUDA_WEIGHTS && own; ++k) own = strata_weight_ptrs[k] != a;
      for (int k = 0; k < nfreed && own; ++k) own = freed[k] != a;
      if (own) cu.MemFreeAsync(freed[nfreed++] = a, strata_stream);
    }
    if (!failed && (c = cu.StreamSynchronize(strata_stream)))
      strata_cuda_fail("copying the outputs: %s", strata_cu_error(c));
    /* (after a failure the checked entry point frees the host blocks made) */
  }
  for (int k = 0; k < nstaged; ++k) cu.MemFreeAsync(staged[k], strata_stream);
  cu.CtxPopCurrent(&old);
  pthread_mutex_unlock(&strata_cuda_lock);
}
"""


def cuda_library_c(fname, signature, host, program) -> str:
    """The C part of the host library of entry `fname` (see the module doc): this
    model's tables (modules, launch sites, weights, argument ranks and sizes), the
    engine `_CUDA_C`, and the raw entry point `_mlir_ciface_<fname>` on host memory."""
    from ..cpu.aot import _c_string
    modules = sorted(program.ptx)
    args, res = signature.args, signature.results
    arg_words = sum(3 + 2 * s.rank for s in args)
    res_words = sum(3 + 2 * s.rank for s in res)
    weights = list(host.weights)
    lines = [
        f"#define STRATA_CUDA_MODULES {len(modules)}",
        f"#define STRATA_CUDA_SITES {len(host.sites)}",
        f"#define STRATA_CUDA_WEIGHTS {len(weights)}",
        f"#define STRATA_CUDA_ALLOCS {len(host.allocs)}",
        "static const char *const strata_alloc_origin[] = {" +
        ", ".join([_c_string(w) for w in host.allocs] or ['""']) + "};",
        f"#define STRATA_CUDA_ARGS {len(args)}", f"#define STRATA_CUDA_RESULTS {len(res)}",
        f"#define STRATA_CUDA_ARG_WORDS {arg_words}",
        f"#define STRATA_CUDA_RES_WORDS {res_words}",
        f"#define STRATA_CUDA_ARCH {_c_string(program.arch)}",
        f"#define STRATA_CUDA_FUNCTION {_c_string(fname)}",
        *[f"extern const char strata_ptx_{i}[];" for i in range(len(modules))],
        "static const char *const strata_ptx[] = {" +
        ", ".join([f"strata_ptx_{i}" for i in range(len(modules))] or ["0"]) + "};",
        "static const char *const strata_module_names[] = {" +
        ", ".join(map(_c_string, modules or [""])) + "};",
        "static const int strata_site_module[] = {" +
        ", ".join([str(modules.index(m)) for m, _, _ in host.sites] or ["0"]) + "};",
        "static const char *const strata_site_kernel[] = {" +
        ", ".join([_c_string(k) for _, k, _ in host.sites] or ['""']) + "};",
        "static const char *const strata_site_origin[] = {" +
        ", ".join([_c_string(w) for _, _, w in host.sites] or ['""']) + "};",
        *[f"extern const char {w}[];" for w in weights],
        "static const void *const strata_weight_data[] = {" +
        ", ".join(weights or ["0"]) + "};",
        "static const size_t strata_weight_bytes[] = {" +
        ", ".join([str(host.weights[w].nbytes) for w in weights] or ["0"]) + "};",
        "static const int strata_arg_rank[] = {" +
        ", ".join([str(s.rank) for s in args] or ["0"]) + "};",
        "static const int64_t strata_arg_item[] = {" +
        ", ".join([str(s.dtype.itemsize) for s in args] or ["0"]) + "};",
        "static const int strata_res_rank[] = {" +
        ", ".join([str(s.rank) for s in res] or ["0"]) + "};",
        "static const int64_t strata_res_item[] = {" +
        ", ".join([str(s.dtype.itemsize) for s in res] or ["0"]) + "};",
        # the host code's entry (host.py's _mlir_ciface_, renamed): device descriptors
        "void strata_cuda_device_entry(" +
        ", ".join(["void *"] * (1 + len(args))) + ");",
    ]
    offsets, at = [], 0
    for s in args:
        offsets.append(at)
        at += 3 + 2 * s.rank
    call = "strata_cuda_device_entry(dres" + "".join(f", &dargs[{o}]" for o in offsets) + ")"
    lines.append(f"#define STRATA_CUDA_CALL {call}")
    lines.append(_CUDA_C)
    params = ", ".join(["int64_t *results"] + [f"int64_t *arg{i}" for i in range(len(args))])
    lines += [
        f"__attribute__((visibility(\"default\"))) void _mlir_ciface_{fname}({params}) {{",
        "  int64_t *const args[] = {" +
        ", ".join([f"arg{i}" for i in range(len(args))] or ["0"]) + "};",
        "  strata_cuda_run(results, args);", "}"]
    return "\n".join(lines) + "\n"


def _ptx_asm(ptx: dict, tmp: str) -> str:
    """Assembler defining strata_ptx_<i> over each PTX text (NUL-terminated)."""
    lines = ['\t.section .rodata.strata_ptx,"a"']
    for i, name in enumerate(sorted(ptx)):
        path = os.path.join(tmp, f"module{i}.ptx")
        with open(path, "w", encoding="utf-8") as f:
            f.write(ptx[name])
        lines += ["\t.balign 16", f"\t.globl strata_ptx_{i}", f"\t.hidden strata_ptx_{i}",
                  f"strata_ptx_{i}:", f'\t.incbin "{path}"', "\t.byte 0"]
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    return "\n".join(lines) + "\n"


def build_host_library(model, output: str, function: str | None = None,
                       header: str | None = None, arch: str | None = None,
                       opt_level: int = 3, instrumentation=None) -> dict:
    """Compile `model` for the cuda target into the host library `output` and its C
    header (default: `output` with .h). No GPU, driver or CUDA toolkit needed: a C
    compiler links it. Returns {"library", "header", "function", "signature", "arch"}."""
    from ...compiler import _entry, load_module
    from ...interpreter.core import arg_names, result_names
    from ...ir.symbol_table import symbol_name
    from ..cpu.aot import _RUNTIME_C, _cc, _weights_asm, checked_entry_c, header_text
    from ..cpu.jit import emit_objects
    from .host import SHIM_IR
    from .target import compile_ahead
    module = load_module(model)
    entry = _entry(module, function)
    fname = symbol_name(entry)
    inputs, outputs = arg_names(entry), result_names(entry)
    program = compile_ahead(module, fname, instrumentation, arch=arch, opt_level=opt_level)
    host = program.host.get(fname)
    if host is None or host.ir is None:
        raise StrataError("the cuda host library needs the host function as native code: "
                          f"{host.fallback if host is not None else 'none was made'}")
    signature = program.signatures[fname]
    if any(s.scalar for s in signature.args + signature.results):
        raise StrataError("the cuda host library takes and returns tensors only")
    ciface = f"define void @_mlir_ciface_{fname}("
    if host.ir.count(ciface) != 1:
        raise StrataError(f"the host code has no entry @_mlir_ciface_{fname}")
    host_ir = host.ir.replace(ciface, "define void @strata_cuda_device_entry(")
    header = header or os.path.splitext(output)[0] + ".h"
    checked = checked_entry_c(fname, signature, inputs, outputs)
    cc = _cc()
    with tempfile.TemporaryDirectory(prefix="strata-cuda-aot-") as tmp:
        objects = emit_objects(host_ir, opt_level=opt_level) + \
            emit_objects(SHIM_IR, opt_level=2)
        paths = []
        for i, obj in enumerate(objects):
            p = os.path.join(tmp, f"host{i}.o")
            with open(p, "wb") as f:
                f.write(obj)
            paths.append(p)
        for name, text in (("weights.s", _weights_asm(host.weights,
                                                       os.path.join(tmp, "weights.bin"))),
                           ("ptx.s", _ptx_asm(program.ptx, tmp)),
                           ("runtime.c", _RUNTIME_C + cuda_library_c(
                               fname, signature, host, program) + (checked or ""))):
            p = os.path.join(tmp, name)
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
            paths.append(p)
        exports = ["strata_last_error", "strata_model_set_num_threads",
                   "strata_model_get_num_threads"] + (["strata_model_run"] if checked else [])
        emap = os.path.join(tmp, "exports.map")
        with open(emap, "w") as f:
            f.write(f"{{ global: _mlir_ciface_{fname}; {'; '.join(exports)}; local: *; }};\n")
        cmd = [cc, "-shared", "-fPIC", "-O2", "-std=gnu11", "-o", os.path.abspath(output),
               *paths, "-ldl", "-lpthread", "-lm", f"-Wl,--version-script={emap}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise StrataError(f"linking {output} failed ({' '.join(cmd)}):\n"
                              f"{r.stderr.strip()}")
    text = header_text(fname, signature, inputs, outputs, checked is not None)
    text = text.replace(
        "UNCHECKED (upstream MLIR's C interface): nothing about the",
        "UNCHECKED (upstream MLIR's C interface; the cuda target's takes\n * and "
        "returns descriptors of HOST memory, copied to and from the device): nothing "
        "about the", 1)
    with open(header, "w", encoding="utf-8") as f:
        f.write(text)
    return {"library": output, "header": header, "function": fname,
            "signature": signature, "arch": program.arch}
