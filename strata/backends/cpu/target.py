"""The `cpu` target: tensor-level IR -> native code for the host CPU, in this process
(JIT) or as a standalone shared library.

    linalg on tensors ──linalg-fuse-elementwise-ops──> one-shot-bufferize ──> deallocation
    ──> (weights externalized) ──> convert-linalg-to-loops ──> convert-scf-to-cf
    ──> convert-to-llvm ──> LLVM IR text ──llvmlite──> machine code

[Note: weights]
Constant buffers bigger than WEIGHT_MIN_BYTES are not written into the LLVM IR (a 90 MB
model would make hundreds of MB of IR text): after bufferization their memref.global
loses its initial value, becoming an external declaration with a unique symbol, and the
data is kept as a NumPy array. The JIT binds each symbol to its array's address (the
arrays live as long as the loaded module; the compiled code never writes into a constant
global); a shared library gets them linked in as a data section (`.incbin`, see aot.py).
"""
from __future__ import annotations

import itertools
import os
import time

import numpy as np

from ...compiler import Target, build_pipeline
from ...errors import StrataError

# Constant buffers at least this big are bound at load time instead of being compiled
# into the code (see [Note: weights]).
WEIGHT_MIN_BYTES = 256

BUFFERIZE_PIPELINE = (
    "linalg-fuse-elementwise-ops",
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=true}",
    "buffer-deallocation-simple",
    "canonicalize",
)
# Between the two: f32 matrix products and convolutions become calls of the GEMM
# micro-kernels (kernels.py), constant weights packed for them (see `_kernel_pass`).
LLVM_PIPELINE = (
    "convert-linalg-to-loops{interchange-for-locality=true}",
    "strata-outline-loop-nests",
    "convert-scf-to-cf",
    "canonicalize",
    "arith-emulate-unsupported-floats",
    "arith-expand",
    "convert-to-llvm{safe-division=true}",
    "reconcile-unrealized-casts",
)

_uid = itertools.count()


class CpuTarget(Target):
    name = "cpu"
    # The tensor-level pipeline is the interpreter's (see strata.compiler); this target's
    # own passes run in `lower`.
    pipeline = ("onnx-decompose{keep-lowered=true}", "onnx-fold-constants",
                "onnx-shape-inference", "convert-onnx-to-linalg", "canonicalize")

    def __init__(self, opt_level: int = 3, verify_each: bool = False):
        self.opt_level = opt_level
        # Verifying after every backend pass took a quarter of a compile; the module is
        # verified once, in llvm form, before translation ($STRATA_VERIFY_EACH=1 or
        # verify_each=True checks after each pass, to find a pass that breaks the IR).
        self.verify_each = verify_each or os.environ.get("STRATA_VERIFY_EACH") == "1"

    # -- tensor level -> llvm dialect
    def lower(self, module, functions, instrumentation=None, timings=None):
        """Lower `module` (tensor level) to the llvm dialect in place; returns
        (signatures by function, weights by symbol)."""
        from ...ir import attributes as A
        from ...ir.symbol_table import symbol_name
        entries = [op for op in module.regions[0].ops
                   if op.name == "func.func" and symbol_name(op) in functions]
        for op in entries:
            op.set_attr("llvm.emit_c_interface", A.UnitAttr())
        _run(BUFFERIZE_PIPELINE, module, instrumentation, timings, "bufferize",
             self.verify_each)
        signatures = {symbol_name(op): signature_of(op) for op in module.regions[0].ops
                      if op.name == "func.func" and symbol_name(op) in functions}
        if timings is not None:
            # Bytes of intermediate buffers live at once (known when shapes are static).
            from ...conversion.bufferize import peak_buffer_bytes
            for op in module.regions[0].ops:
                if op.name == "func.func" and symbol_name(op) in functions:
                    try:
                        peak = peak_buffer_bytes(op)
                    except StrataError:  # a buffer structure the report does not follow
                        peak = None
                    if peak is not None:
                        timings["peak_buffer_bytes"] = peak
        from .kernels import microkernel_pass
        _run((microkernel_pass(),), module, instrumentation, timings, "microkernels",
             self.verify_each)
        t0 = time.perf_counter()
        weights = externalize_weights(module, WEIGHT_MIN_BYTES, f"__strata_w{next(_uid)}_")
        if timings is not None:
            timings["weights"] = time.perf_counter() - t0
        _report(instrumentation, "note", "externalize-weights", module)
        _run(LLVM_PIPELINE, module, instrumentation, timings, "to-llvm", self.verify_each)
        mark_outlined_noinline(module)
        t0 = time.perf_counter()
        module.verify()
        if timings is not None:
            timings["verify"] = time.perf_counter() - t0
        return signatures, weights

    def lower_to_llvmir(self, module, functions, instrumentation=None, timings=None):
        """`lower`, then the LLVM IR text: (ir, signatures, weights). Shared by the JIT
        (`load`) and shared libraries (aot.py)."""
        from . import llvmir
        timings = {} if timings is None else timings
        signatures, weights = self.lower(module, functions, instrumentation, timings)
        t0 = time.perf_counter()
        ir = llvmir.translate_to_llvmir(module)
        timings["translate"] = time.perf_counter() - t0
        _report(instrumentation, "artefact", "module.ll", ir)
        return ir, signatures, weights

    def load(self, module, function: str, instrumentation=None, timings=None):
        from ...runtime import NativeModule, runtime_symbols
        from .jit import JitModule
        timings = {} if timings is None else timings
        ir, signatures, weights = self.lower_to_llvmir(module, {function}, instrumentation,
                                                       timings)
        symbols = {name: a.ctypes.data for name, a in weights.items()}
        symbols.update(runtime_symbols())
        from .support import support_symbols
        for name, addr in support_symbols().items():
            symbols.setdefault(name, addr)
        if "strata_sgemm" in ir or "strata_conv2d" in ir:
            from .kernels import kernel_symbols
            symbols.update(kernel_symbols())
        t0 = time.perf_counter()
        jit = JitModule(ir, opt_level=self.opt_level, symbols=symbols)
        timings["llvm"] = time.perf_counter() - t0
        # strata.compile has checked the arguments against the signature already: the
        # callable skips the runtime's own check (see NativeFunction.run).
        return NativeModule(jit, signatures, weights).function(function).run


def mark_outlined_noinline(module) -> None:
    """Keep LLVM from inlining the outlined loop nests back (see outline_loop_nests.py).

    [Known issue] Giving every function but the `_mlir_ciface_` entry points internal
    linkage would let LLVM drop and specialize them, but with it LLVM's interprocedural
    passes at O2+ broke one lowered MiniLM layer (a segfault that external linkage, or O1,
    does not show; a poison value crossing a call is suspected). Until that is found,
    functions keep external linkage; a shared library still exports only its entry points
    (version script, aot.py)."""
    from ...ir import attributes as A
    from ...transforms.outline_loop_nests import OUTLINED_ATTR
    noinline = A.ArrayAttr([A.StringAttr("noinline")])
    for op in module.regions[0].blocks[0].ops:
        if op.name == "llvm.func" and op.get_attr(OUTLINED_ATTR) is not None:
            props = dict(op.properties)
            props["passthrough"] = noinline
            op.properties = props

def _report(instrumentation, what, name, x):
    """Tell a CompileInstrumentation about a step that is not a pass, or an artefact."""
    f = getattr(instrumentation, what, None)
    if f is not None:
        f(name, x)


def _run(passes, module, instrumentation, timings, phase, verify_each=True):
    pm = build_pipeline(",".join(passes))
    pm.verify_each = verify_each
    t0 = time.perf_counter()
    pm.run(module, instrumentation)
    if timings is not None:
        timings[phase] = time.perf_counter() - t0


def signature_of(func_op):
    """The runtime Signature of a bufferized func.func (memref arguments/results)."""
    from ...interpreter.values import dtype_of
    from ...ir import attributes as A
    from ...runtime import MemRefSpec, Signature
    ftype = func_op.properties["function_type"].value
    arg_attrs = func_op.properties.get("arg_attrs")

    def spec(t, attrs=None):
        if isinstance(t, (A.IntegerType, A.FloatType, A.IndexType)):
            try:
                return MemRefSpec(dtype_of(t), (), scalar=True)
            except (StrataError, TypeError):
                pass
        if not isinstance(t, A.MemRefType):
            raise StrataError(f"@{_name(func_op)}: the CPU target cannot pass values of "
                              f"type '{t}' across the native boundary")
        dims = None
        if attrs is not None:
            p = attrs.get("onnx.dim_params")
            if p is not None:
                dims = [s.value or None for s in p.value]
                if len(dims) != len(t.shape):
                    dims = None
        shape = [None if d == A.DYNAMIC else d for d in t.shape]
        return MemRefSpec(dtype_of(t.element_type), shape, dims)

    attrs = list(arg_attrs.value) if arg_attrs is not None else [None] * len(ftype.inputs)
    return Signature([spec(t, a) for t, a in zip(ftype.inputs, attrs)],
                     [spec(t) for t in ftype.results])


def _name(op):
    from ...ir.symbol_table import symbol_name
    return symbol_name(op)


def externalize_weights(module, min_bytes: int, prefix: str) -> dict:
    """Turn constant memref.globals of at least `min_bytes` into external declarations
    named `prefix + i`; returns their data by new symbol (see [Note: weights])."""
    from ...interpreter.values import attr_to_value, dtype_of
    from ...ir import attributes as A
    from ...ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    renamed, weights = {}, {}
    for op in list(body.ops):
        if op.name != "memref.global" or "constant" not in op.properties:
            continue
        init = op.properties.get("initial_value")
        t = op.properties["type"].value
        if init is None or not isinstance(t, A.MemRefType) or not t.has_static_shape:
            continue
        nbytes = int(np.prod(t.shape, dtype=np.int64)) * dtype_of(t.element_type).itemsize
        if nbytes < min_bytes:
            continue
        value = np.asarray(attr_to_value(init, A.RankedTensorType(
            t.shape, t.element_type)))
        new = f"{prefix}{len(weights)}"
        weights[new] = np.ascontiguousarray(value).reshape(t.shape)
        renamed[symbol_name(op)] = new
        props = dict(op.properties)
        del props["initial_value"]
        props.pop("constant", None)
        props.pop("sym_visibility", None)
        props["sym_name"] = A.StringAttr(new)
        op.properties = props
    if renamed:
        for op in module.walk():
            if op.name == "memref.get_global":
                new = renamed.get(op.properties["name"].root)
                if new is not None:
                    props = dict(op.properties)
                    props["name"] = A.SymbolRefAttr(new)
                    op.properties = props
    return weights



def _register():
    from ...compiler import TARGETS, register_target
    if "cpu" not in TARGETS:
        register_target(CpuTarget())


_register()
