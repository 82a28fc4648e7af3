"""The `cuda` target: tensor-level IR -> PTX kernels and a host launch plan, run through
the CUDA driver (runtime.py).

    linalg on tensors ──(the cpu target's bufferization)──> linalg on memref buffers
      strata-gpu-tile-contractions                   matmuls, convolutions: shared-memory
                                                     tiled gpu.launch kernels, epilogue
                                                     fused (conversion/gpu_contractions)
      strata-memref-copy-to-linalg{min-elements=1}   every copy a linalg op (a kernel)
      convert-linalg-to-parallel-loops               scf.parallel over the parallel dims
      strata-gpu-launch-sequential                   host loops (not scf.parallel):
                                                     one-thread launches
      strata-gpu-rows-to-warps                       rows with reductions: a warp per
                                                     row, gpu.shuffle reductions
      strata-gpu-linearize-parallel-loops{block-size=256}
                                                     their dims as one: blocks x threads
      gpu-map-parallel-loops                         outer loop -> blocks, inner ->
                                                     threads (#gpu.loop_dim_map)
      convert-parallel-loops-to-gpu                  gpu.launch per mapped loop nest
      gpu-kernel-outlining                           gpu.module @main_kernel + launch_func
      gpu.module(convert-scf-to-cf, canonicalize, arith-expand,
                 strata-math-polynomial-approximation), convert-gpu-to-nvvm
      reconcile-unrealized-casts
    each gpu.module ──llvmir.py (nvptx64)──> LLVM IR ──llvmlite NVPTX──> PTX (ptx.py)
    the host function ──host.py──> native code calling the driver through a shim
                      (convert-to-llvm of the CPU backend, gpu.launch_func -> calls);
                      ──plan.py──> a launch plan run in Python (the fallback)

`CudaTarget.build(module, function)` does all of it without a GPU (ahead of time: CI,
`strata compile --target cuda`); `load` then needs the driver: with none it fails with
one line saying what is missing (runtime.py, [Note: no driver]).

[Note: the cuda architecture]
The PTX is written for one architecture, the option `cuda_arch` ("sm_80", "sm_90"...):
by default that of device 0 when a driver and a device are there, else sm_90. The driver
JIT-compiles PTX for the device it runs on, so PTX for an older architecture runs on a
newer GPU (not the reverse).
"""
from __future__ import annotations

import time

from ...compiler import Target
from ...errors import StrataError
from ..cpu.target import BUFFERIZE_PIPELINE, CpuTarget, _report, _run, signature_of
from .ptx import DEFAULT_ARCH, check_arch

__all__ = ["CudaTarget", "CudaInterpretTarget", "CudaProgram", "GPU_PIPELINE", "KERNEL_PIPELINE", "compile_ahead",
           "kernel_ptx"]

# Buffers -> gpu.launch -> outlined kernels (see the module doc).
GPU_PIPELINE = (
    "strata-linalg-widen-reductions",
    "strata-gpu-tile-contractions",
    "strata-linalg-fuse-row-reductions",
    "strata-memref-copy-to-linalg{min-elements=1}",
    "convert-linalg-to-parallel-loops",
    "strata-gpu-launch-sequential",
    "strata-gpu-rows-to-warps",
    "strata-gpu-linearize-parallel-loops",
    "gpu-map-parallel-loops",
    "convert-parallel-loops-to-gpu",
    "gpu-kernel-outlining",
    "canonicalize",
)
# Inside each gpu.module: down to the llvm and nvvm dialects.
# (the host functions keep their scf.if / scf.for: the launch plan runs them)
KERNEL_PIPELINE = (
    "gpu.module(convert-scf-to-cf,canonicalize,arith-emulate-unsupported-floats,"
    "arith-expand,strata-math-polynomial-approximation)",
    "convert-gpu-to-nvvm",
    "reconcile-unrealized-casts",
)


class CudaProgram:
    """A model compiled for the cuda target, device-independent: the PTX of each
    gpu.module (by name), the host function's launch plan, the runtime signatures of
    the entry functions, and the constant buffers (weights, by memref.global name)."""

    __slots__ = ("arch", "ptx", "plans", "signatures", "weights", "module", "host")

    def __init__(self, arch, ptx, plans, signatures, weights, module, host=None):
        self.arch = arch
        # the host functions as native code (host.py's HostCode, by function)
        self.host = host or {}
        self.ptx = ptx
        self.plans = plans
        self.signatures = signatures
        self.weights = weights
        self.module = module

    @property
    def kernels(self) -> list:
        """(gpu.module, kernel) names of every kernel the plans launch."""
        return sorted({(s.module, s.kernel) for p in self.plans.values()
                       for s in p.launches()})


class CudaTarget(Target):
    name = "cuda"
    # Inputs may be arrays on the GPU (strata.compiler, [Note: the call path]).
    device_inputs = True
    # The tensor-level pipeline is the cpu target's (what every native target starts from).
    pipeline = CpuTarget.pipeline
    # (strata.compile(m, target="cuda", cuda_arch="sm_80"): Target.with_options)
    OPTIONS = ("cuda_arch", "opt_level", "verify_each", "block_size", "allow_tf32",
               "precision", "cuda_graphs")

    def __init__(self, cuda_arch: str | None = None, opt_level: int = 3,
                 verify_each: bool = False, block_size: int = 256,
                 allow_tf32: bool = False, precision: str = "f32",
                 cuda_graphs: bool = False):
        if cuda_arch is not None:
            check_arch(cuda_arch)
        # None: the device's, else DEFAULT_ARCH (see [Note: the cuda architecture]).
        self.cuda_arch = cuda_arch
        self.opt_level = opt_level
        self.verify_each = verify_each
        # Threads per block of the mapped parallel loops (a multiple of the warp, at most
        # the 1024 threads a block may have).
        self.block_size = int(block_size)
        # f32 contractions on tensor cores as TF32 (conversion/gpu_contractions.py)
        self.allow_tf32 = bool(allow_tf32)
        self.precision = precision
        self.pipeline = precision_pipeline(precision)
        # Capture the launch sequence as a CUDA graph per input shape, replay it
        # (runtime.py, [Note: CUDA graphs]).
        self.cuda_graphs = bool(cuda_graphs)
        if not 32 <= self.block_size <= 1024 or self.block_size % 32:
            raise StrataError(f"block_size {block_size} is not a multiple of 32 from 32 to "
                              "1024 (threads per CUDA block)")

    def arch(self) -> str:
        """The architecture PTX is written for (see [Note: the cuda architecture])."""
        if self.cuda_arch is not None:
            return self.cuda_arch
        from .runtime import device_arch
        return device_arch() or DEFAULT_ARCH

    def gpu_pipeline(self) -> tuple:
        opts = {"strata-gpu-linearize-parallel-loops": f"{{block-size={self.block_size}}}",
                "strata-gpu-tile-contractions":
                    "{allow-tf32=true}" if self.allow_tf32 else ""}
        return tuple(p + opts.get(p, "") for p in GPU_PIPELINE)

    def passes_before(self, stop: str) -> list:
        """The target's passes from the tensor level up to (not including) the first
        one named `stop` (a prefix to run and check in the interpreter)."""
        passes = list(BUFFERIZE_PIPELINE) + list(self.gpu_pipeline()) + list(KERNEL_PIPELINE)
        names = [p.partition("{")[0].partition("(")[0] for p in passes]
        if stop not in names:
            raise StrataError(f"the cuda pipeline has no pass '{stop}'")
        return passes[:names.index(stop)]

    # -- tensor level -> kernels and a host plan
    def build(self, module, functions, instrumentation=None, timings=None,
              arch: str | None = None) -> CudaProgram:
        """Lower the tensor-level `module` in place and compile its kernels (no GPU
        needed): a CudaProgram for the entry functions in `functions`."""
        from ...ir.symbol_table import symbol_name
        from .plan import build_plan
        timings = {} if timings is None else timings
        arch = check_arch(arch or self.arch())
        _run(BUFFERIZE_PIPELINE, module, instrumentation, timings, "bufferize",
             self.verify_each)
        entries = [op for op in module.regions[0].ops
                   if op.name == "func.func" and symbol_name(op) in functions]
        signatures = {symbol_name(op): signature_of(op) for op in entries}
        _run(self.gpu_pipeline(), module, instrumentation, timings, "gpu",
             self.verify_each)
        _run(KERNEL_PIPELINE, module, instrumentation, timings, "nvvm", self.verify_each)
        t0 = time.perf_counter()
        module.verify()
        timings["verify"] = time.perf_counter() - t0
        ptx = {}
        for op in list(module.regions[0].ops):
            if op.name == "gpu.module":
                name = symbol_name(op)
                ptx[name] = kernel_ptx(op, arch, self.opt_level, instrumentation, timings)
        t0 = time.perf_counter()
        plans = {symbol_name(op): build_plan(op, module) for op in entries}
        weights = {}
        for p in plans.values():
            weights.update(p.weights)
        timings["plan"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        host = {}
        if len(entries) == 1:
            from .host import lower_host
            # (on a copy without the kernels: `module` stays the gpu/nvvm module, what
            # --emit=mlir writes)
            body = module.regions[0].blocks[0]
            kernels = [(op, op.next) for op in list(body.ops) if op.name == "gpu.module"]
            for op, _ in kernels:
                op.detach()
            try:
                copy = module.clone()
            finally:
                for op, nxt in reversed(kernels):
                    if nxt is None:
                        body.append(op)
                    else:
                        body.insert_before(nxt, op)
            host[symbol_name(entries[0])] = lower_host(copy, symbol_name(entries[0]))
        timings["host"] = time.perf_counter() - t0
        return CudaProgram(arch, ptx, plans, signatures, weights, module, host)

    def load(self, module, function: str, instrumentation=None, timings=None):
        from .runtime import CudaModel, driver
        drv = driver()   # no driver / no device: one line, before compiling anything
        timings = {} if timings is None else timings
        arch = self.cuda_arch or drv.device_arch()
        program = self.build(module, {function}, instrumentation, timings, arch)
        t0 = time.perf_counter()
        model = CudaModel(drv, program, function, cuda_graphs=self.cuda_graphs)
        timings["load"] = time.perf_counter() - t0
        return model.run


class CudaInterpretTarget(Target):
    """The cuda target's passes, stopped before `stop`, then the reference interpreter:
    how the GPU pipeline is checked by execution without a GPU (the ONNX node suite:
    `onnx_node_runner.py --target cuda-interpret`). `stop` defaults to
    $STRATA_CUDA_INTERPRET_STOP, else convert-gpu-to-nvvm (the interpreter then runs
    the outlined kernels: the gpu dialect)."""

    name = "cuda-interpret"
    reads_ir_constants = True
    pipeline = CpuTarget.pipeline
    OPTIONS = ("stop", "block_size", "allow_tf32", "precision")

    def __init__(self, stop: str | None = None, block_size: int = 256,
                 allow_tf32: bool = False, precision: str = "f32"):
        import os
        self.stop = stop or os.environ.get("STRATA_CUDA_INTERPRET_STOP") or \
            "convert-gpu-to-nvvm"
        self.block_size = int(block_size)
        self.allow_tf32 = bool(allow_tf32)
        self.precision = precision
        self.pipeline = precision_pipeline(precision)
        CudaTarget(block_size=self.block_size).passes_before(self.stop)   # checks `stop`

    def load(self, module, function: str, instrumentation=None, timings=None):
        from ...interpreter import Interpreter
        passes = CudaTarget(block_size=self.block_size,
                            allow_tf32=self.allow_tf32).passes_before(self.stop)
        _run(passes, module, instrumentation, timings, "gpu", False)
        module.verify()
        interp = Interpreter(module)

        def run(*values):
            return interp.call(function, *values)
        return run


def precision_pipeline(precision: str) -> tuple:
    """The tensor-level pipeline for `precision`: "f32" (the model's), or "f16" (an f32
    model run in f16: transforms/onnx_to_f16.py after shape inference)."""
    base = tuple(CpuTarget.pipeline)
    if precision == "f32":
        return base
    if precision != "f16":
        raise StrataError(f"precision '{precision}' is not 'f32' or 'f16'")
    i = base.index("onnx-shape-inference") + 1
    return base[:i] + ("strata-onnx-to-f16",) + base[i:]


def compile_ahead(model, function=None, instrumentation=None, arch=None, opt_level=3,
                  **target_options) -> CudaProgram:
    """`model` (what strata.compile takes) compiled for the cuda target without a GPU:
    its CudaProgram, PTX for `arch` (default sm_90)."""
    from ...compiler import _entry, build_pipeline, load_module, target_pipeline
    from ...ir.symbol_table import symbol_name
    module = load_module(model)
    target = CudaTarget(cuda_arch=arch or DEFAULT_ARCH, opt_level=opt_level,
                        **target_options)
    name = symbol_name(_entry(module, function))
    build_pipeline(list(target_pipeline(target, module))).run(module, instrumentation)
    return target.build(module, {name}, instrumentation)


def kernel_ptx(gpu_module, arch: str, opt_level: int = 3, instrumentation=None,
               timings=None) -> str:
    """The PTX of a gpu.module lowered to the llvm and nvvm dialects (its LLVM IR and
    PTX are reported to `instrumentation` as <name>.ll and <name>.ptx)."""
    from ...ir.symbol_table import symbol_name
    from ..cpu.llvmir import translate_to_llvmir
    from .ptx import NVPTX_TRIPLE, emit_ptx, nvptx_datalayout
    timings = {} if timings is None else timings
    name = symbol_name(gpu_module)
    t0 = time.perf_counter()
    ir = translate_to_llvmir(gpu_module, triple=NVPTX_TRIPLE, datalayout=nvptx_datalayout(),
                             module_name=name)
    timings["translate"] = timings.get("translate", 0.0) + time.perf_counter() - t0
    _report(instrumentation, "artefact", f"{name}.ll", ir)
    text = emit_ptx(ir, arch, opt_level, timings)
    _report(instrumentation, "artefact", f"{name}.ptx", text)
    return text


def _register():
    from ...compiler import TARGETS, register_target
    if "cuda" not in TARGETS:
        register_target(CudaTarget())
    if "cuda-interpret" not in TARGETS:
        register_target(CudaInterpretTarget())


_register()
