"""LLVM IR text -> machine code with llvmlite (LLVM 22): a JIT'd module or an object file.

    jit = JitModule(llvm_ir, opt_level=3, symbols={"weights": array.ctypes.data})
    f = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(jit.address_of("_mlir_ciface_main"))
    jit.timings      # {"parse": s, "optimize": s, "codegen": s}

    jit = JitModule(llvm_ir, keep_object=True)    # jit.object: the machine code as an
    again = JitModule.from_object(jit.object, symbols)   # object file, loaded again

    obj = emit_object(llvm_ir)        # a PIC object for `cc -shared`
    asm = emit_assembly(llvm_ir)      # for reading

Code is generated for the host CPU with all of its features (AVX2, AVX-512, NEON...),
optimized by LLVM's new pass manager at the O-level asked (loop and SLP vectorization
on from O2). llvmlite is imported inside these functions only: `import strata` does not
load LLVM.
"""
from __future__ import annotations

import os
import time

from ...errors import StrataError

__all__ = ["JitModule", "emit_object", "emit_assembly", "host_target_machine", "optimize",
           "host_triple_and_layout", "LLVMError"]


class LLVMError(StrataError):
    """LLVM rejected the IR (parse or verification error) or could not compile it."""


_STATE: dict = {}


def _llvm():
    """llvmlite.binding with the native target and asm printer initialized, once."""
    llvm = _STATE.get("llvm")
    if llvm is None:
        import llvmlite.binding as llvm
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        llvm.initialize_native_asmparser()
        _STATE["llvm"] = llvm
    return llvm


def host_target_machine(opt_level: int = 3, reloc: str = "pic", jit: bool = False):
    """A TargetMachine for the host: its triple, CPU name and every feature it has."""
    llvm = _llvm()
    key = ("tm", opt_level, reloc, jit)
    # An MCJIT engine takes ownership of its TargetMachine and destroys it with itself:
    # JIT machines are made fresh for each engine, never cached.
    tm = None if jit else _STATE.get(key)
    if tm is None:
        triple = llvm.get_process_triple()
        target = llvm.Target.from_triple(triple)
        try:
            features = llvm.get_host_cpu_features().flatten()
        except RuntimeError:  # some hosts cannot list their features
            features = ""
        tm = target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=features,
                                          opt=min(max(opt_level, 0), 3), reloc=reloc,
                                          codemodel="jitdefault" if jit else "default",
                                          jit=jit)
        if not jit:
            _STATE[key] = tm
    return tm


def host_triple_and_layout() -> tuple[str, str]:
    """(target triple, data layout string) of the host, for the header of LLVM IR text."""
    r = _STATE.get("triple_layout")
    if r is None:
        tm = host_target_machine()
        r = _STATE["triple_layout"] = (tm.triple, str(tm.target_data))
    return r


def optimize(module_ref, opt_level: int = 3, target_machine=None) -> None:
    """Run LLVM's default O<opt_level> pipeline (new pass manager) on `module_ref`, with
    loop vectorization on from O2 (SLP vectorization only with $STRATA_LLVM_SLP=1)."""
    if opt_level <= 0:
        return
    llvm = _llvm()
    tm = target_machine or host_target_machine(opt_level)
    pto = llvm.create_pipeline_tuning_options(speed_level=min(opt_level, 3))
    vectorize = opt_level >= 2
    pto.loop_vectorization = vectorize
    # No SLP vectorization: a model's main function is one long block of allocations and
    # calls, where the SLP vectorizer spent 85% of main's optimization time (MiniLM:
    # 10.9 s of 12.8 s under load) for nothing; the loop nests are vectorized as loops.
    pto.slp_vectorization = vectorize and os.environ.get("STRATA_LLVM_SLP") == "1"
    # No loop unrolling: on a model's hundreds of loop nests it multiplied the code five
    # times and the compile time four (the vectorizer still interleaves, and the GEMM
    # kernels, where unrolling pays, are compiled once, separately).
    pto.loop_unrolling = False
    pto.loop_interleaving = True
    pb = llvm.create_pass_builder(tm, pto)
    mpm = pb.getModulePassManager()
    mpm.run(module_ref, pb)


def write_perf_map(addresses: dict) -> None:
    """Append `addresses` (name -> start) to /tmp/perf-<pid>.map, the file `perf report`
    reads to name JIT'd code ($STRATA_PERF_MAP=1 turns this on for every JIT'd module).
    MCJIT does not say how long a function is: each is taken to end where the next
    one begins (at most 1 MiB)."""
    starts = sorted((a, n) for n, a in addresses.items() if a)
    with open(f"/tmp/perf-{os.getpid()}.map", "a") as out:
        for (a, n), nxt in zip(starts, starts[1:] + [(starts[-1][0] + 4096, "")]):
            out.write(f"{a:x} {min(nxt[0] - a, 1 << 20):x} {n}\n")


def _parse(llvm_ir: str, timings: dict):
    llvm = _llvm()
    t0 = time.perf_counter()
    try:
        mod = llvm.parse_assembly(llvm_ir)
        mod.verify()
    except RuntimeError as e:
        raise LLVMError(f"invalid LLVM IR: {str(e).strip()}") from None
    timings["parse"] = time.perf_counter() - t0
    return mod


class JitModule:
    """A module compiled in memory for the host (MCJIT). `symbols` (name -> address)
    resolve external globals and functions (weights bound at load time, runtime
    helpers) before code is finalized. Everything stays alive as long as this object.
    With `keep_object`, `self.object` is the machine code MCJIT generated, as the object
    file (relocations unresolved) that `JitModule.from_object` loads in another process
    (the compiled-model cache, strata/cache.py)."""

    def __init__(self, llvm_ir: str, opt_level: int = 3, symbols: dict | None = None,
                 keep_object: bool = False):
        llvm = _llvm()
        self.timings: dict = {}
        self.opt_level = opt_level
        self.object = None
        _add_symbols(llvm, symbols)
        mod = _parse(llvm_ir, self.timings)
        tm = host_target_machine(opt_level, reloc="default", jit=True)
        t0 = time.perf_counter()
        optimize(mod, opt_level, tm)
        self.timings["optimize"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            engine = llvm.create_mcjit_compiler(mod, tm)
            if keep_object:
                def keep(_module, buf):
                    self.object = bytes(buf)
                engine.set_object_cache(keep)
            engine.finalize_object()
            engine.run_static_constructors()
        except RuntimeError as e:
            raise LLVMError(f"LLVM could not compile the module: {e}") from None
        self.timings["codegen"] = time.perf_counter() - t0
        self._module = mod
        self._engine = engine
        self._tm = tm
        if os.environ.get("STRATA_PERF_MAP"):
            write_perf_map({f.name: engine.get_function_address(f.name)
                            for f in mod.functions if not f.is_declaration})

    @classmethod
    def from_object(cls, obj: bytes, symbols: dict | None = None) -> "JitModule":
        """The module whose machine code is the object file `obj` (a `JitModule`'s
        `object`, from this process or another on the same CPU and LLVM), loaded with
        `symbols` bound: no LLVM IR, no optimization, no code generation."""
        llvm = _llvm()
        self = cls.__new__(cls)
        self.timings, self.opt_level, self.object = {}, None, obj
        _add_symbols(llvm, symbols)
        t0 = time.perf_counter()
        tm = host_target_machine(reloc="default", jit=True)
        try:
            engine = llvm.create_mcjit_compiler(
                llvm.parse_assembly(f'target triple = "{tm.triple}"\n'), tm)
            engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            engine.finalize_object()
        except RuntimeError as e:
            raise LLVMError(f"LLVM could not load the object code: {e}") from None
        self.timings["load"] = time.perf_counter() - t0
        self._module, self._engine, self._tm = None, engine, tm
        return self

    @property
    def module_ref(self):
        """The optimized llvmlite ModuleRef (owned by the engine)."""
        return self._module

    @property
    def optimized_ir(self) -> str:
        return str(self._module)

    def address_of(self, name: str) -> int:
        """The address of function or global `name`; StrataError if it is not there."""
        addr = self._engine.get_function_address(name) or \
            self._engine.get_global_value_address(name)
        if not addr:
            raise StrataError(f"symbol '{name}' is not defined by the JIT'd module")
        return addr

    def close(self):
        engine = getattr(self, "_engine", None)
        if engine is not None:
            try:
                engine.run_static_destructors()
            except Exception:  # pragma: no cover - best effort at teardown
                pass
            self._engine = None


def _add_symbols(llvm, symbols):
    """Bind external names before code is finalized (the engine resolves them then)."""
    for name, addr in (symbols or {}).items():
        llvm.add_symbol(name, int(addr))


def _emit(llvm_ir, opt_level, timings, what):
    """Parse, optimize and generate code with the PIC host target machine: `what` is
    "object" (bytes) or "assembly" (text)."""
    timings = {} if timings is None else timings
    mod = _parse(llvm_ir, timings)
    tm = host_target_machine(opt_level, reloc="pic")
    t0 = time.perf_counter()
    optimize(mod, opt_level, tm)
    timings["optimize"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = tm.emit_object(mod) if what == "object" else tm.emit_assembly(mod)
    timings["codegen"] = time.perf_counter() - t0
    return out


def emit_object(llvm_ir: str, opt_level: int = 3, timings: dict | None = None) -> bytes:
    """A relocatable, position-independent object file (ELF/Mach-O) of `llvm_ir` for the
    host, ready to link into a shared library."""
    return _emit(llvm_ir, opt_level, timings, "object")


def emit_assembly(llvm_ir: str, opt_level: int = 3, timings: dict | None = None) -> str:
    """The host assembly of `llvm_ir` after optimization (for reading)."""
    return _emit(llvm_ir, opt_level, timings, "assembly")
