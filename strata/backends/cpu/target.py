"""The `cpu` target: tensor-level IR -> native code for the host CPU, in this process
(JIT) or as a standalone shared library.

    linalg on tensors ──linalg-fuse-elementwise-ops (contractions kept for the kernels),
    strata-linalg-fold-into-contractions──> one-shot-bufferize ──> deallocation
    ──> (weights externalized) ──> convert-linalg-to-loops ──> convert-scf-to-cf
    ──> convert-to-llvm ──> LLVM IR text ──llvmlite──> machine code

[Note: weights]
Constant buffers bigger than WEIGHT_MIN_BYTES are not written into the LLVM IR (a 90 MB
model would make hundreds of MB of IR text): after bufferization their memref.global
loses its initial value, becoming an external declaration with a unique symbol, and the
data is kept as a NumPy array. The JIT binds each symbol to its array's address (the
arrays live as long as the loaded module; the compiled code never writes into a constant
global); a shared library gets them linked in as a data section (`.incbin`, see aot.py).

[Note: threads]
Loop nests whose outer loops are parallel (convert-linalg-to-parallel-loops) become
strata_cpu.parallel_for of chunk functions when they have enough work
(convert-scf-to-strata-cpu), run by the thread pool of threadpool.py, as are the GEMM
and convolution kernels; a call of the model stays one native call. The module holds its
thread count in the i32 global NUM_THREADS_SYMBOL (the option num_threads, 0 for the
process's count: $STRATA_NUM_THREADS, else the CPUs available); its C entry points run
with it (strata_threads_enter / exit: a count of the calling thread, so models with
different counts can run at once on different threads). A loaded model changes it with
CompiledModel.num_threads (CpuTarget.set_num_threads_of writes the global); a shared
library with strata_model_set_num_threads.
"""
from __future__ import annotations

import itertools
import os
import time
import weakref

import numpy as np

from ...compiler import Target, build_pipeline
from ...errors import StrataError
from .heap import WEIGHT_ALIGNMENT, place_weights  # noqa: F401 (WEIGHT_ALIGNMENT: tests)

# Constant buffers at least this big are bound at load time instead of being compiled
# into the code (see [Note: weights]).
WEIGHT_MIN_BYTES = 256

BUFFERIZE_PIPELINE = (
    "strata-linalg-depthwise-channels-last",
    "linalg-fuse-elementwise-ops{keep-contractions=true}",
    "strata-linalg-fold-into-contractions",
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=true}",
    "strata-concat-in-place",
    "buffer-deallocation-simple",
    "canonicalize",
)
# Between the two: f32 matrix products and convolutions become calls of the GEMM
# micro-kernels (kernels.py), constant weights packed for them (see `_kernel_pass`).
# Parallel loops (see [Note: threads]) come from convert-linalg-to-parallel-loops and
# convert-scf-to-strata-cpu; CpuTarget(parallel=False) keeps every loop sequential.
# Chains of ops over the same rows (softmax, layer norm) run as one loop over the rows
# first (strata-linalg-fuse-row-reductions, linalg_row_fusion.py); large buffer copies
# (padding) become linalg copies, parallel loops too (strata-memref-copy-to-linalg). Loops
# over contiguous memory merge (strata-linalg-collapse-dims): long inner loops LLVM vectorizes.
LLVM_PIPELINE = (
    "strata-linalg-fuse-row-reductions",
    "strata-memref-copy-to-linalg",
    "strata-outline-linalg-ops",
    "strata-linalg-block-transposes",
    "strata-linalg-collapse-dims",
    "convert-linalg-to-parallel-loops{interchange-for-locality=true}",
    "strata-outline-loop-nests",
    "convert-scf-to-strata-cpu",
    "convert-scf-to-cf",
    "canonicalize",
    "arith-emulate-unsupported-floats",
    "strata-math-polynomial-approximation",
    "arith-expand",
    "convert-strata-cpu-to-llvm",
    "convert-to-llvm{safe-division=true fold-aggregates=true checked-alloc=true "
    "assert-values=true fold-ops=false}",
    "reconcile-unrealized-casts",
    "strata-cpu-fold-trampolines",
)
_SERIAL = {"convert-linalg-to-parallel-loops{interchange-for-locality=true}":
           "convert-linalg-to-loops{interchange-for-locality=true}",
           "strata-linalg-fuse-row-reductions": "strata-linalg-fuse-row-reductions"
                                                "{parallel=false}",
           "convert-scf-to-strata-cpu": None, "convert-strata-cpu-to-llvm": None,
           "strata-cpu-fold-trampolines": None}
# The i32 global of a compiled module holding its thread count (0: the process's).
NUM_THREADS_SYMBOL = "strata_model_num_threads"

_uid = itertools.count()


class CpuTarget(Target):
    name = "cpu"
    # The tensor-level pipeline is the interpreter's (see strata.compiler); this target's
    # own passes run in `lower`.
    # onnx-fold-constants runs again after shape inference, which makes the exporter's
    # shape arithmetic static ([Note: shape arithmetic] in frontends/onnx/fold_constants.py)
    # onnx-hoist-pointwise-conv: [Note: a pointwise convolution before the resize]
    # (transforms/onnx_pointwise_conv.py; needs the static shapes and constant sizes).
    pipeline = ("onnx-decompose{keep-lowered=true}", "onnx-fold-constants",
                "onnx-shape-inference", "onnx-fold-constants", "onnx-fold-batch-norm",
                "onnx-hoist-pointwise-conv",
                "convert-onnx-to-linalg",
                # arith/math on tensors (hand-written MLIR): bufferization knows linalg
                "convert-elementwise-to-linalg", "canonicalize")

    def __init__(self, opt_level: int = 3, verify_each: bool = False, num_threads: int = 0,
                 parallel: bool = True, tune: bool = False, tune_time: float = 0.0):
        self.opt_level = opt_level
        # Verifying after every backend pass took a quarter of a compile; the module is
        # verified once at the end of the tensor-level pipeline (strata.compile) and
        # once, in llvm form, before translation ($STRATA_VERIFY_EACH=1 or
        # verify_each=True checks after each pass, to find a pass that breaks the IR).
        self.verify_each = verify_each or os.environ.get("STRATA_VERIFY_EACH") == "1"
        # Threads a compiled model runs on (see [Note: threads]); 0: the process's count.
        self.num_threads = max(int(num_threads or 0), 0)
        self.parallel = parallel
        # Tile words of the GEMM / convolution calls measured (autotune.py) instead of
        # the cost model's; `tune_time` seconds per candidate (0: the default).
        self.tune = bool(tune)
        self.tune_time = float(tune_time or 0.0)

    # (strata.compile(model, num_threads=2): Target.with_options)
    OPTIONS = ("opt_level", "verify_each", "num_threads", "parallel", "tune", "tune_time")

    def llvm_pipeline(self) -> tuple:
        if self.parallel:
            return LLVM_PIPELINE
        return tuple(_SERIAL.get(p, p) for p in LLVM_PIPELINE if _SERIAL.get(p, p))

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
        from .kernels import attention_pass, microkernel_pass, winograd_pass
        kernel_passes = (attention_pass(), winograd_pass(),
                         microkernel_pass(num_threads=self.num_threads))
        if self.tune:
            from .autotune import run_tuned
            run_tuned(kernel_passes, module, instrumentation, timings, self.verify_each,
                      self.num_threads, self.tune_time)
        else:
            _run(kernel_passes, module, instrumentation, timings, "microkernels",
                 self.verify_each)
        t0 = time.perf_counter()
        weights = externalize_weights(module, WEIGHT_MIN_BYTES, f"__strata_w{next(_uid)}_")
        if timings is not None:
            timings["weights"] = time.perf_counter() - t0
        _report(instrumentation, "note", "externalize-weights", module)
        _run(self.llvm_pipeline(), module, instrumentation, timings, "to-llvm",
             self.verify_each)
        mark_straight_line_optnone(module)
        mark_outlined_noinline(module)
        add_thread_scope(module, functions, self.num_threads)
        from .guard import add_allocation_guard
        add_allocation_guard(module, functions, signatures)
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
        # [Note: identical functions merged] (jit.py): callers find the entry points
        # and their C interfaces by name
        from .jit import merge_identical_functions
        ir, timings["merged_functions"] = merge_identical_functions(
            ir, frozenset(functions) | {"_mlir_ciface_" + f for f in functions})
        timings["translate"] = time.perf_counter() - t0
        _report(instrumentation, "artefact", "module.ll", ir)
        return ir, signatures, weights

    def load(self, module, function: str, instrumentation=None, timings=None):
        from .jit import JitModule
        timings = {} if timings is None else timings
        ir, signatures, weights = self.lower_to_llvmir(module, {function}, instrumentation,
                                                       timings)
        symbols = _symbols(weights)
        t0 = time.perf_counter()
        jit = JitModule(ir, opt_level=self.opt_level, symbols=symbols, keep_object=True)
        timings["llvm"] = time.perf_counter() - t0
        return _native_run(jit, signatures, weights, function)

    # -- the compiled-model cache ([Note: the compiled-model cache], strata/cache.py)
    def cache_token(self) -> dict:
        """What besides the model decides the code this target makes: its options, the
        host CPU, the kernels' ISA, LLVM, the thread count tile choices assume and the
        environment variables read while compiling."""
        import llvmlite
        import llvmlite.binding as llvm

        from .jit import _llvm
        from .kernels import default_threads, host_isa
        _llvm()
        try:
            features = llvm.get_host_cpu_features().flatten()
        except RuntimeError:
            features = ""
        return {"target": self.name, "opt_level": self.opt_level,
                "num_threads": self.num_threads, "parallel": self.parallel,
                "tune": self.tune, "tune_time": self.tune_time,
                "cpu": llvm.get_host_cpu_name(), "features": features,
                "triple": llvm.get_process_triple(), "isa": repr(host_isa()),
                "llvmlite": llvmlite.__version__,
                "llvm": ".".join(map(str, llvm.llvm_version_info)),
                "threads": default_threads() if not self.num_threads else None,
                "env": {k: os.environ.get(k) for k in ("STRATA_LLVM_SLP",)}}

    def cache_entry(self, run):
        """(manifest, blobs) that `load_cached` loads `run` (a callable this target's
        `load` returned) from: the object code, the weights' bytes, the entry point's
        signature. None when `run` is not one. The object is dropped from the JIT."""
        fn = getattr(run, "__self__", None)
        native = getattr(fn, "_owner", None)
        jit = getattr(native, "jit", None)
        if not getattr(jit, "objects", None):
            return None
        blobs = {f"object{i}": obj for i, obj in enumerate(jit.objects)}
        jit.objects = None
        weights = []
        for i, (name, a) in enumerate(native.weights.items()):
            blobs[f"w{i}"] = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
            weights.append({"symbol": name, "dtype": _dtype_to_json(a.dtype),
                            "shape": list(a.shape)})
        sig = fn.signature
        return ({"function": fn.name, "weights": weights,
                 "objects": len(blobs) - len(weights),
                 "args": [_spec_to_json(s) for s in sig.args],
                 "results": [_spec_to_json(s) for s in sig.results]}, blobs)

    def load_cached(self, manifest: dict, blobs: dict):
        """The callable `load` returned, from what `cache_entry` stored (KeyError,
        ValueError or TypeError if the manifest does not fit)."""
        from ...runtime import Signature
        from .jit import JitModule
        weights = {}
        for i, w in enumerate(manifest["weights"]):
            dtype = _dtype_from_json(w["dtype"])
            if dtype.kind not in "biufc" and dtype.isbuiltin != 2:
                raise ValueError(f"weights of dtype {dtype}")
            a = blobs[f"w{i}"].view(dtype)
            weights[str(w["symbol"])] = a.reshape([int(n) for n in w["shape"]])
        function = str(manifest["function"])
        sig = Signature([_spec_from_json(s) for s in manifest["args"]],
                        [_spec_from_json(s) for s in manifest["results"]])
        objects = [blobs[f"object{i}"].tobytes() for i in range(int(manifest["objects"]))]
        jit = JitModule.from_objects(objects, _symbols(weights))
        return _native_run(jit, {function: sig}, weights, function)

    # -- threads of a loaded model (CompiledModel.num_threads)
    def num_threads_of(self, run) -> int:
        """The thread count the model loaded as `run` runs with."""
        n = _count_cell(run).value
        if n > 0:
            return n
        from .kernels import load_kernels
        return int(load_kernels().get_num_threads())

    def set_num_threads_of(self, run, n: int) -> None:
        """Run the model loaded as `run` on `n` threads (n <= 0: the process's count)."""
        _count_cell(run).value = max(int(n), 0)


def _symbols(weights) -> dict:
    """The external symbols of a compiled model's code: its weights (by address), the
    runtime's hooks, support functions, the kernels and the thread pool (every module
    calls strata_threads_enter)."""
    from ...runtime import runtime_symbols
    from .kernels import kernel_symbols
    from .support import support_symbols
    symbols = {name: a.ctypes.data for name, a in weights.items()}
    symbols.update(runtime_symbols())
    for name, addr in support_symbols().items():
        symbols.setdefault(name, addr)
    symbols.update(kernel_symbols())
    return symbols


def _native_run(jit, signatures, weights, function):
    """The checked-arguments-skipping callable of `function` in the loaded `jit`:
    strata.compile has checked the arguments against the signature already (see
    NativeFunction.run)."""
    from ...runtime import NativeModule
    from .heap import keep_freed_memory
    keep_freed_memory()     # [Note: freed memory kept]
    fn = NativeModule(jit, signatures, weights).function(function)
    _THREAD_COUNTS[fn] = jit.address_of(NUM_THREADS_SYMBOL)
    return fn.run


def _dtype_to_json(dtype) -> str:
    """How a manifest names `dtype`: NumPy's own by its byte-order string ('<f4'), a
    type NumPy lacks (ml_dtypes' bfloat16, float8_*, int4: their `str` is a bare '<V2')
    by its name."""
    return dtype.name if dtype.isbuiltin == 2 else dtype.str


def _dtype_from_json(text: str):
    """The dtype `_dtype_to_json` wrote as `text` (ValueError or TypeError otherwise):
    ml_dtypes' names are looked up as its attributes, never evaluated."""
    text = str(text)
    if text[:1] in "<>|=":
        return np.dtype(text)
    import ml_dtypes
    t = getattr(ml_dtypes, text, None) if text.isidentifier() else None
    if not (isinstance(t, type) and issubclass(t, np.generic)):
        raise ValueError(f"unknown dtype {text!r}")
    return np.dtype(t)


def _spec_to_json(s) -> dict:
    return {"dtype": _dtype_to_json(s.dtype), "shape": list(s.shape), "dims": list(s.dims),
            "scalar": s.scalar}


def _spec_from_json(d):
    from ...runtime import MemRefSpec
    return MemRefSpec(_dtype_from_json(d["dtype"]),
                      [None if n is None else int(n) for n in d["shape"]],
                      [None if n is None else str(n) for n in d["dims"]], bool(d["scalar"]))


# NativeFunction -> address of its module's NUM_THREADS_SYMBOL
_THREAD_COUNTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _count_cell(run):
    import ctypes
    addr = _THREAD_COUNTS.get(getattr(run, "__self__", None))
    if addr is None:
        raise StrataError("this callable was not loaded by the cpu target")
    return ctypes.c_int32.from_address(addr)


def add_thread_scope(module, functions, num_threads: int) -> None:
    """Give the llvm-dialect `module` its thread count, the i32 global
    NUM_THREADS_SYMBOL (initially `num_threads`), and make the C interface of each entry
    point in `functions` run with it (see [Note: threads])."""
    from ...conversion.to_llvm.builder import LLVMBuilder, llvm_op
    from ...dialects.llvm import types as LT
    from ...ir import attributes as A
    from ...ir.builder import Builder
    body = module.regions[0].blocks[0]
    loc = module.loc
    body.append(llvm_op("llvm.mlir.global").new(
        NUM_THREADS_SYMBOL, A.i32, A.IntegerAttr(num_threads, A.i32), alignment=4, loc=loc))
    for name, ftype in (("strata_threads_enter", LT.LLVMFunctionType(A.i32, [A.i32])),
                        ("strata_threads_exit", LT.LLVMFunctionType(LT.void, [A.i32]))):
        body.append(llvm_op("llvm.func").new(name, ftype, body=False, loc=loc))
    wrappers = {"_mlir_ciface_" + f for f in functions}
    for op in body.ops:
        if op.name != "llvm.func" or op._props["sym_name"].value not in wrappers or \
                not op.regions[0].blocks:
            continue
        b = LLVMBuilder(Builder.at_start(op.regions[0].blocks[0], op.loc), op.loc)
        g = b.create("llvm.mlir.addressof", [], [LT.ptr],
                     {"global_name": A.SymbolRefAttr(NUM_THREADS_SYMBOL)}).results[0]
        prev = b.call("strata_threads_enter", [b.load(g, A.i32, alignment=4)], A.i32)
        for blk in op.regions[0].blocks:
            if blk.last is not None and blk.last.name == "llvm.return":
                LLVMBuilder(Builder.before(blk.last), op.loc).call("strata_threads_exit",
                                                                   [prev])


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
        if op.name == "llvm.func" and op.get_attr(OUTLINED_ATTR) is not None and \
                "optimize_none" not in op._props:   # noinline already
            props = dict(op.properties)
            props["passthrough"] = noinline
            op.properties = props


def mark_straight_line_optnone(module) -> None:
    """Have LLVM compile the functions without loops as they are (`optnone`: no IR
    optimization, the fast instruction selector and register allocator).

    [Note: straight-line code at O0]
    After outlining, the loops are in functions of their own; what is left without a
    loop is glue run once per call of the model: a model's entry function (one long
    block of allocations, descriptor fields and calls: MiniLM's is 60% of the LLVM IR
    and took a third of LLVM's time at O3) and the functions handing a loop nest to the
    thread pool. At O0 that code costs a few hundred nanoseconds more per call of the
    model (every value through the stack); optimizing it bought nothing else."""
    from ...ir import attributes as A
    for op in module.regions[0].blocks[0].ops:
        if op.name != "llvm.func" or not op.regions[0].blocks or \
                _has_cycle(op.regions[0].blocks):
            continue
        props = dict(op.properties)
        # LLVM requires noinline with optnone; so does the llvm dialect's verifier
        props["optimize_none"] = props["no_inline"] = A.UnitAttr()
        op.properties = props


def _has_cycle(blocks) -> bool:
    """Whether the CFG of `blocks` (entry first) has a cycle (a loop)."""
    state = {blocks[0]: 1}      # block -> 1 on the DFS stack, 2 done
    stack = [(blocks[0], iter(blocks[0].last.successors))]
    while stack:
        b, succs = stack[-1]
        s = next(succs, None)
        if s is None:
            state[b] = 2
            stack.pop()
        elif state.get(s) == 1:
            return True
        elif s not in state:
            state[s] = 1
            stack.append((s, iter(s.last.successors)))
    return False


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
    named `prefix + i`; returns their data by new symbol (see [Note: weights]), copied
    into one block, each at a multiple of WEIGHT_ALIGNMENT bytes ([Note: weights placed
    alike in every process], heap.py; a weight read in place from an ONNX file, [Note:
    weights read in place], lay wherever its bytes lay in the file; one read in place
    from a torch tensor, lent, is copied: [Note: lent blobs] in strata/ir/dense.py)."""
    from ...interpreter.values import attr_to_value, dtype_of
    from ...ir import attributes as A
    from ...ir.dense import BLOBS, DenseResourceElementsAttr
    from ...ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    renamed, weights, lent = {}, {}, []
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
        if isinstance(init, DenseResourceElementsAttr) and BLOBS.lent(init.handle):
            lent.append(len(weights))   # a torch tensor's storage: copied (a snapshot)
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
    return dict(zip(weights, place_weights(weights.values(), lent)))



def _register():
    from ...compiler import TARGETS, register_target
    if "cpu" not in TARGETS:
        register_target(CpuTarget())


_register()
