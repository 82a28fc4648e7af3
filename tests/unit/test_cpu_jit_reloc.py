"""JIT'd code loads wherever mmap puts it ([Note: a JIT'd object's sections kept
together], strata/backends/cpu/jit.py): the kernel library (a PIC object of the small
code model, 32-bit PC-relative references to its own data and GOT) and a model compiled
in parallel parts load and run right in a process whose address space is fragmented so
that a small mapping and a large one land more than 2 GiB apart (before the fix the
kernel library's load aborted the process in RuntimeDyld:
`resolveX86_64Relocation: Assertion isInt<32>(RealOffset)`); and the model's own objects
refer to each other, to the kernels and to their globals by 64-bit addresses only."""
from __future__ import annotations

import os
import platform
import struct
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("llvmlite.binding")
from strata.backends.cpu.jit import JitModule  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
X86_64_LINUX = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")

# Exit status of the child when it cannot fragment its address space as needed (another
# mmap layout, e.g. the legacy bottom-up one): the precondition, not the code, is missing.
CANNOT_FRAGMENT = 77

CHILD = textwrap.dedent(r'''
    import ctypes, os, sys
    import numpy as np

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    NONE, PRIVATE, ANON, NORESERVE = 0, 0x02, 0x20, 0x4000
    FLAGS = PRIVATE | ANON | NORESERVE
    FAR = 3 << 30

    def fragment():
        """Reserve FAR bytes (PROT_NONE, no memory), fill every gap of 256 KiB or more
        above the reservation, then free 64 KiB there: top-down mmap now puts a small
        block (a section of read-only data, a GOT) above the reservation and a large
        one (an object's code) below it."""
        far = libc.mmap(None, FAR, NONE, FLAGS, -1, 0)
        last = None
        for _ in range(1 << 16):
            p = libc.mmap(None, 256 << 10, NONE, FLAGS, -1, 0)
            if p < far:
                libc.munmap(p, 256 << 10)
                break
            last = p
        if last is not None:
            libc.munmap(last, 64 << 10)
        # the precondition: a small and a large mapping now land over 2 GiB apart
        small = libc.mmap(None, 4096, NONE, FLAGS, -1, 0)
        large = libc.mmap(None, 1 << 20, NONE, FLAGS, -1, 0)
        libc.munmap(small, 4096)
        libc.munmap(large, 1 << 20)
        if abs(small - large) < 1 << 31:
            print(f"cannot fragment: {small:#x} {large:#x}", flush=True)
            sys.exit(CANNOT_FRAGMENT)

    fragment()
    # 1. the kernel library: loaded (this aborted), then a GEMM through its packed,
    # threaded driver (constant pools, the pool's globals, malloc through the GOT)
    from strata.backends.cpu.kernels import load_kernels
    lib = load_kernels()
    rng = np.random.default_rng(0)
    a = rng.standard_normal((96, 80)).astype(np.float32)
    b = rng.standard_normal((80, 72)).astype(np.float32)
    c = np.zeros((96, 72), np.float32)
    lib.sgemm(96, 72, 80, a.ctypes.data, 80, b.ctypes.data, 72, c.ctypes.data, 72, 0, 0)
    assert np.allclose(c, a @ b, rtol=1e-4, atol=1e-4), "kernel GEMM"

    # 2. a module in parallel parts (calls, globals, constants across parts)
    sys.path.insert(0, HERE)
    from test_cpu_jit_parallel import expected, module_ir, run
    from strata.backends.cpu.jit import JitModule
    parts = JitModule(module_ir(), jobs=3)
    assert parts.timings["jobs"] == 3 and run(parts, 5) == expected(5), "parts"

    # 3. a model compiled in parts, calling the kernels, its weights bound by address
    import gc
    import strata
    from onnx import TensorProto, helper, numpy_helper
    nodes, inits, x, d, ref = [], [], "x", 16, rng.standard_normal((8, 16)).astype(np.float32)
    inp = ref
    for i in range(12):
        e = 16 + 4 * (i + 1)
        w = (rng.standard_normal((d, e)) / np.sqrt(d)).astype(np.float32)
        bias = rng.standard_normal(e).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(bias, f"b{i}")]
        nodes += [helper.make_node("MatMul", [x, f"w{i}"], [f"m{i}"]),
                  helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"]),
                  helper.make_node("Tanh", [f"a{i}"], [f"h{i}"])]
        ref = np.tanh(ref @ w + bias)
        x, d = f"h{i}", e
    graph = helper.make_graph(
        nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 16])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [8, d])], inits)
    model = strata.compile(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]),
                           cache=False)
    out = model(inp)
    out = out[0] if isinstance(out, (list, tuple)) else out
    assert np.allclose(out, ref, rtol=1e-4, atol=1e-5), "model"
    jobs = [j.timings.get("jobs", 1) for j in gc.get_objects() if isinstance(j, JitModule)]
    assert max(jobs) > 1, f"the model was not compiled in parts: {jobs}"
    print("OK", flush=True)
''')


@pytest.mark.skipif(not X86_64_LINUX, reason="fragments a Linux x86-64 address space "
                    "(mmap flags and layout)")
def test_kernels_and_a_model_in_parts_load_in_a_fragmented_address_space():
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               STRATA_COMPILE_JOBS="3")
    script = f"HERE = {HERE!r}\nCANNOT_FRAGMENT = {CANNOT_FRAGMENT}\n" + CHILD
    r = subprocess.run([sys.executable, "-c", script], env=env, cwd=REPO,
                       capture_output=True, text=True, timeout=300)
    if r.returncode == CANNOT_FRAGMENT:
        pytest.skip(f"this system's mmap layout cannot be fragmented so: {r.stdout.strip()}")
    assert r.returncode == 0 and "OK" in r.stdout, \
        f"status {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"


# ---------------------------------------------------------------- relocation types

# x86-64 ELF relocations that need no placement: R_X86_64_64, R_X86_64_PC64 (.eh_frame),
# R_X86_64_GOTOFF64, R_X86_64_GOTPC64
FULL_WIDTH = {1, 24, 25, 29}


def relocation_types(obj: bytes) -> set:
    """The relocation types of every SHT_RELA section of a 64-bit little-endian ELF."""
    assert obj[:6] == b"\x7fELF\x02\x01"
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    kinds = set()
    for i in range(shnum):
        _, kind, _, _, off, size, _, _, _, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", obj, shoff + i * shentsize)
        if kind == 4:   # SHT_RELA
            for k in range(size // entsize):
                _, info, _ = struct.unpack_from("<QQq", obj, off + k * entsize)
                kinds.add(info & 0xFFFFFFFF)
    return kinds


# What model code refers to: a switch (a jump table), a float constant (a constant
# pool), a private table, an external global and function (weights and kernels bound by
# address), a function pointer handed on (the thread pool's callbacks), a call to a
# function defined in another part.
EDGE_IR = """
@table = private unnamed_addr constant [4 x i64] [i64 1, i64 2, i64 3, i64 4]
@__test_reloc_weights = external global [16 x float]
declare void @__test_reloc_parallel_for(ptr, ptr, i64, i64)
define internal void @body(ptr %ctx, i64 %lo, i64 %hi) noinline {
  ret void
}
define i64 @pick(i64 %i) noinline {
entry:
  switch i64 %i, label %other [i64 0, label %a  i64 1, label %b  i64 2, label %c
                               i64 3, label %d  i64 4, label %e  i64 5, label %f]
a:
  ret i64 11
b:
  ret i64 12
c:
  ret i64 13
d:
  ret i64 17
e:
  ret i64 19
f:
  ret i64 23
other:
  %s = and i64 %i, 3
  %p = getelementptr [4 x i64], ptr @table, i64 0, i64 %s
  %v = load i64, ptr %p
  ret i64 %v
}
define float @scale(ptr %x) noinline {
  %v = load float, ptr %x
  %w = load float, ptr @__test_reloc_weights
  %m = fmul float %v, 0x400921FB60000000
  %r = fadd float %m, %w
  call void @__test_reloc_parallel_for(ptr @body, ptr %x, i64 4, i64 1)
  %k = call i64 @pick(i64 2)
  ret float %r
}
"""


@pytest.mark.skipif(not X86_64_LINUX, reason="reads x86-64 ELF relocation types")
def test_jit_objects_refer_to_everything_by_64_bit_addresses():
    sys.path.insert(0, HERE)
    from test_cpu_jit_parallel import module_ir
    objects = JitModule(module_ir(), jobs=3, keep_object=True).objects
    objects += JitModule(EDGE_IR, jobs=1, keep_object=True,
                         symbols={"__test_reloc_weights": 4096,
                                  "__test_reloc_parallel_for": 8192}).objects
    assert len(objects) == 4
    for obj in objects:
        kinds = relocation_types(obj)
        assert kinds and kinds <= FULL_WIDTH, f"relocations of limited reach: {kinds - FULL_WIDTH}"
