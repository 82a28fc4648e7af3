"""Ahead-of-time compilation: a model as a standalone shared library with a C header.

    strata compile model.onnx -o model.so        # also writes model.h beside it

The library holds the code, the weights (linked in as a read-only data section with the
assembler's `.incbin`, no IR text for them), the kernels and their thread pool
(kernels.py, threadpool.py) and a tiny C runtime part (`strata_assert_fail`,
`strata_oom_report`, `strata_last_error`, `strata_model_set_num_threads`,
`strata_model_get_num_threads`).
Its entry point is upstream MLIR's C interface, `_mlir_ciface_<function>`, taking memref
descriptors (see strata.runtime);
the header declares the descriptor structs and the entry point and says, for every
input and output, its element type, shape and ONNX name. Output buffers are allocated
by the library with malloc: the caller frees `result.allocated`.

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
/* A failure reported on a thread without a model call of its own (kernels run outside
   the entry point's guard): taken by the next strata_last_error(). */
static const char *strata_shared_error = NULL;
static int strata_shared_claimed = 0;
__attribute__((visibility("default"))) void strata_assert_fail(const char *message) {
  if (!strata_error) strata_error = message ? message : "assertion failed";
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
            "strata_model_get_num_threads")


def _cc():
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or \
        shutil.which("clang")
    if not cc:
        raise StrataError("building a shared library needs a C compiler (cc); none found "
                          "(set $CC)")
    return cc


def _weights_asm(weights: dict, bin_path: str) -> str:
    """An assembler file defining each weight symbol over its bytes in `bin_path`."""
    lines = ['\t.section .rodata.strata_weights,"a"']
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
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    return "\n".join(lines) + "\n"


def header_text(function: str, signature, input_names=(), output_names=()) -> str:
    """The C header of a library's entry point."""
    ranks = sorted({s.rank for s in signature.args + signature.results})
    guard = f"STRATA_{function.upper()}_H"
    out = [f"/* Generated by Strata: the C interface of @{function}. */",
           f"#ifndef {guard}", f"#define {guard}", "#include <stdbool.h>",
           "#include <stdint.h>", "", "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
           "/* A memref descriptor (upstream MLIR's layout): the buffer as malloc gave it, the",
           "   aligned data pointer, an offset, sizes and strides, in elements. */"]
    for r in ranks:
        dims = f"  int64_t sizes[{r}];\n  int64_t strides[{r}];\n" if r else ""
        out.append(f"typedef struct {{\n  void *allocated;\n  void *aligned;\n"
                   f"  int64_t offset;\n{dims}}} strata_memref{r}d;")
    out.append("")

    def describe(s, name):
        dims = "x".join("?" if d is None else str(d) for d in s.shape) or "scalar"
        ctype = _C_TYPES.get(s.dtype.name, f"{s.dtype.itemsize}-byte elements")
        return f"{name}: {dims} {ctype}"

    params, doc = [], []
    res = signature.results
    if len(res) == 1:
        params.append(f"strata_memref{res[0].rank}d *result")
    elif res:
        fields = "".join(f"  strata_memref{s.rank}d r{i};\n" for i, s in enumerate(res))
        out.append(f"typedef struct {{\n{fields}}} strata_{function}_results;\n")
        params.append(f"strata_{function}_results *results")
    for i, s in enumerate(signature.args):
        name = input_names[i] if i < len(input_names) else f"input{i}"
        params.append(f"strata_memref{s.rank}d *arg{i}")
        doc.append(f" *   arg{i}    {describe(s, repr(name))}")
    for i, s in enumerate(res):
        name = output_names[i] if i < len(output_names) else f"output{i}"
        doc.append(f" *   result{'' if len(res) == 1 else f' r{i}'} "
                   f"{describe(s, repr(name))}")
    out += ["/* Runs @" + function + ".", " * Inputs are contiguous row-major buffers; "
            "outputs are allocated with malloc",
            " * (free `allocated` of each). After a call, strata_last_error() is NULL, or",
            " * the message of a failed run-time check.", *doc, " */",
            f"void _mlir_ciface_{function}({', '.join(params)});",
            "const char *strata_last_error(void);", "",
            "/* The threads the model runs on: n, or with n <= 0 $STRATA_NUM_THREADS, else",
            "   the CPUs available (the default, unless compiled with --num-threads). */",
            "void strata_model_set_num_threads(int32_t n);",
            "int32_t strata_model_get_num_threads(void);", "",
            f"#define STRATA_{function.upper()}"
            f"_NUM_INPUTS {len(signature.args)}",
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
    from ...compiler import _entry, build_pipeline, load_module
    from ...interpreter.core import arg_names, result_names
    from ...ir.symbol_table import symbol_name
    from .target import CpuTarget

    target = CpuTarget(opt_level, num_threads=num_threads, tune=tune, tune_time=tune_time)
    module = load_module(model)
    entry = _entry(module, function)
    fname = symbol_name(entry)
    inputs, outputs = arg_names(entry), result_names(entry)
    build_pipeline(list(target.pipeline)).run(module, instrumentation)
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
    {"library", "header", "function", "signature"}."""
    from .jit import emit_object
    low = lower_to_llvm(model, function, instrumentation, timings, opt_level, num_threads,
                        tune, tune_time)
    fname, weights = low["function"], low["weights"]
    obj = emit_object(low["ir"], opt_level=opt_level)
    header = header or os.path.splitext(output)[0] + ".h"
    cc = _cc()
    with tempfile.TemporaryDirectory(prefix="strata-aot-") as tmp:
        paths = {k: os.path.join(tmp, k) for k in ("model.o", "weights.s", "runtime.c",
                                                   "weights.bin", "kernels.o")}
        with open(paths["model.o"], "wb") as f:
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
        with open(paths["runtime.c"], "w") as f:
            f.write(_RUNTIME_C)
        # The library exports its entry point and the runtime part, nothing else.
        paths["exports.map"] = os.path.join(tmp, "exports.map")
        with open(paths["exports.map"], "w") as f:
            f.write(f"{{ global: _mlir_ciface_{fname}; {'; '.join(_EXPORTS)}; "
                    "local: *; };\n")
        cmd = [cc, "-shared", "-fPIC", "-O2", "-o", os.path.abspath(output),
               paths["model.o"], paths["kernels.o"], paths["support.o"], paths["weights.s"],
               paths["runtime.c"],
               "-lm", "-lpthread", "-Wl,-z,nodelete",
               f"-Wl,--version-script={paths['exports.map']}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise StrataError(f"linking {output} failed ({' '.join(cmd)}):\n"
                              f"{r.stderr.strip()}")
    with open(header, "w", encoding="utf-8") as f:
        f.write(header_text(fname, low["signature"], low["inputs"], low["outputs"]))
    return {"library": output, "header": header, "function": fname,
            "signature": low["signature"]}
