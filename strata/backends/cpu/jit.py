"""LLVM IR text -> machine code with llvmlite (LLVM 22): a JIT'd module or an object file.

    jit = JitModule(llvm_ir, opt_level=3, symbols={"weights": array.ctypes.data})
    f = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(jit.address_of("_mlir_ciface_main"))
    jit.timings      # {"parse": s, "optimize": s, "codegen": s}

    jit = JitModule(llvm_ir, keep_object=True)    # jit.objects: the machine code as
    again = JitModule.from_objects(jit.objects, symbols)  # object files, loaded again

    obj = emit_object(llvm_ir)        # a PIC object for `cc -shared`
    objs = emit_objects(llvm_ir)      # the same in parts, compiled in parallel
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

__all__ = ["JitModule", "emit_object", "emit_objects", "emit_assembly",
           "host_target_machine", "optimize", "host_triple_and_layout", "LLVMError",
           "compile_jobs", "merge_identical_functions", "mcjit_engine"]


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


def host_target_machine(opt_level: int = 3, reloc: str = "pic", jit: bool = False,
                        fresh: bool = False):
    """A TargetMachine for the host: its triple, CPU name and every feature it has
    (`fresh`: a new one, not the cached one, for a thread of its own)."""
    llvm = _llvm()
    key = ("tm", opt_level, reloc, jit)
    # An MCJIT engine takes ownership of its TargetMachine and destroys it with itself:
    # JIT machines are made fresh for each engine, never cached.
    tm = None if jit or fresh else _STATE.get(key)
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
        if not jit and not fresh:
            _STATE[key] = tm
    return tm


# [Note: a JIT'd object's sections kept together]
# An object file loaded into MCJIT is placed section by section by the engine's memory
# manager: LLVM's default one (SectionMemoryManager) maps the code, the read-only data
# and the writable data (and the GOT RuntimeDyld adds for calls to external functions)
# as separate blocks, wherever mmap puts each. The kernel library (kernels.py) is a
# position-independent object of the small code model, built once for `cc -shared` and
# the JIT alike: its code reaches its constant pools, its globals (the thread pool's
# state) and its GOT by 32-bit PC-relative offsets (3,600 relocations), which only
# holds if all of them lie within 2 GiB of each other. In a process whose address space
# is fragmented (PyTorch loaded, large weights allocated and freed), the code block and
# a data block can land further apart: RuntimeDyld then aborts the process
# (`resolveX86_64Relocation: Assertion isInt<32>(RealOffset)`), or, in an LLVM built
# without assertions, truncates the offset and the code reads the wrong memory.
# Every engine is therefore made with llvmlite's memory manager (`use_lmm`, the default
# on AArch64 only), which maps all the sections of an object (stubs and GOT included) as
# one block: whatever the object's code model, its internal references stay in range.
# References between objects (the parts of [Note: parallel code generation], a model's
# calls to the kernels, its weights bound by address) never rely on placement: model
# code is compiled for the JIT's code model (`codemodel="jitdefault"`: the large one on
# x86-64 and AArch64), so they are 64-bit absolute (tests/unit/test_cpu_jit_reloc.py
# checks both halves under a deliberately fragmented address space).


def mcjit_engine(target_machine, module=None):
    """A new MCJIT engine for `target_machine` (which it then owns) over `module` (default:
    an empty module; add object files to it), with each object's sections mapped as one
    block ([Note: a JIT'd object's sections kept together])."""
    llvm = _llvm()
    if module is None:
        module = llvm.parse_assembly(f'target triple = "{target_machine.triple}"\n')
    return llvm.create_mcjit_compiler(module, target_machine, use_lmm=True)


def host_triple_and_layout() -> tuple[str, str]:
    """(target triple, data layout string) of the host, for the header of LLVM IR text."""
    r = _STATE.get("triple_layout")
    if r is None:
        tm = host_target_machine()
        r = _STATE["triple_layout"] = (tm.triple, str(tm.target_data))
    return r


def optimize(module_ref, opt_level: int = 3, target_machine=None,
             unlocked: bool = False) -> None:
    """Run LLVM's default O<opt_level> pipeline (new pass manager) on `module_ref`, with
    loop vectorization on from O2 (SLP vectorization only with $STRATA_LLVM_SLP=1).
    `unlocked`: the pipeline runs without llvmlite's process-wide lock, for a module in
    a context of its own with a target machine of its own ([Note: parallel code
    generation])."""
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
    if unlocked:
        _unlocked("LLVMPY_RunNewModulePassManager")(mpm, module_ref, pb)
    else:
        mpm.run(module_ref, pb)


def _unlocked(name):
    """llvmlite's C function `name` called directly, not behind the lock its wrapper
    takes around every call ([Note: parallel code generation]); ctypes lets go of the
    GIL during the call."""
    from llvmlite.binding import ffi
    fn = getattr(ffi.lib, name)
    return getattr(fn, "_cfn", fn)


def _emit_object_unlocked(tm, module_ref) -> bytes:
    """tm.emit_object(module_ref), code generation without llvmlite's lock (as
    TargetMachine._emit_to_memory does it otherwise)."""
    from ctypes import string_at

    from llvmlite.binding import ffi
    with ffi.OutputString() as err:
        buf = _unlocked("LLVMPY_TargetMachineEmitToMemory")(tm, module_ref, 1, err)
        if not buf:
            raise RuntimeError(str(err))
    try:
        return string_at(ffi.lib.LLVMPY_GetBufferStart(buf), ffi.lib.LLVMPY_GetBufferSize(buf))
    finally:
        ffi.lib.LLVMPY_DisposeMemoryBuffer(buf)


def write_perf_map(addresses: dict) -> None:
    """Append `addresses` (name -> start) to /tmp/perf-<pid>.map, the file `perf report`
    reads to name JIT'd code ($STRATA_PERF_MAP=1 turns this on for every JIT'd module).
    MCJIT does not say how long a function is: each is taken to end where the next
    one begins (at most 1 MiB)."""
    starts = sorted((a, n) for n, a in addresses.items() if a)
    with open(f"/tmp/perf-{os.getpid()}.map", "a") as out:
        for (a, n), nxt in zip(starts, starts[1:] + [(starts[-1][0] + 4096, "")]):
            out.write(f"{a:x} {min(nxt[0] - a, 1 << 20):x} {n}\n")


def _parse(llvm_ir: str, timings: dict, context=None):
    llvm = _llvm()
    t0 = time.perf_counter()
    try:
        mod = llvm.parse_assembly(llvm_ir, context=context)
        mod.verify()
    except RuntimeError as e:
        raise LLVMError(f"invalid LLVM IR: {str(e).strip()}") from None
    timings["parse"] = time.perf_counter() - t0
    return mod


class JitModule:
    """A module compiled in memory for the host (MCJIT). `symbols` (name -> address)
    resolve external globals and functions (weights bound at load time, runtime
    helpers) before code is finalized. Everything stays alive as long as this object.
    A large module is compiled by several threads at once ([Note: parallel code
    generation]; `jobs`, default compile_jobs()). With `keep_object`, `self.objects` is
    the machine code, as object files (relocations unresolved) that
    `JitModule.from_objects` loads in another process (the compiled-model cache,
    strata/cache.py)."""

    def __init__(self, llvm_ir: str, opt_level: int = 3, symbols: dict | None = None,
                 keep_object: bool = False, jobs: int | None = None):
        llvm = _llvm()
        self.timings: dict = {}
        self.opt_level = opt_level
        self.objects = None
        _add_symbols(llvm, symbols)
        parts = _partition(llvm_ir, compile_jobs() if jobs is None else jobs)
        if parts is not None:
            objects = _compile_parallel(parts, opt_level, self.timings)
            self._load_objects(objects)
            self._llvm_ir = llvm_ir     # (for optimized_ir only)
            self.timings["jobs"] = len(parts)
            if keep_object:
                self.objects = objects
            if os.environ.get("STRATA_PERF_MAP"):
                write_perf_map({f[2]: self._engine.get_function_address(f[2])
                                for f in _functions(llvm_ir)})
            return
        mod = _parse(llvm_ir, self.timings)
        tm = host_target_machine(opt_level, reloc="default", jit=True)
        t0 = time.perf_counter()
        optimize(mod, opt_level, tm)
        self.timings["optimize"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            engine = mcjit_engine(tm, mod)
            if keep_object:
                def keep(_module, buf):
                    self.objects = [bytes(buf)]
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

    def _load_objects(self, objects) -> None:
        """Load object files into one engine (their symbols resolve each other)."""
        llvm = _llvm()
        t0 = time.perf_counter()
        tm = host_target_machine(reloc="default", jit=True)
        try:
            engine = mcjit_engine(tm)
            for obj in objects:
                engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            engine.finalize_object()
        except RuntimeError as e:
            raise LLVMError(f"LLVM could not load the object code: {e}") from None
        self.timings["load"] = time.perf_counter() - t0
        self._module, self._engine, self._tm = None, engine, tm

    @classmethod
    def from_objects(cls, objects, symbols: dict | None = None) -> "JitModule":
        """The module whose machine code is the object files `objects` (a `JitModule`'s
        `objects`, from this process or another on the same CPU and LLVM), loaded with
        `symbols` bound: no LLVM IR, no optimization, no code generation."""
        llvm = _llvm()
        self = cls.__new__(cls)
        self.timings, self.opt_level, self.objects = {}, None, list(objects)
        _add_symbols(llvm, symbols)
        self._load_objects(self.objects)
        return self

    @property
    def module_ref(self):
        """The optimized llvmlite ModuleRef (owned by the engine)."""
        return self._module

    @property
    def optimized_ir(self) -> str:
        """The optimized module's text (for a module compiled in parts, the whole module
        optimized again, here, on demand)."""
        if self._module is not None:
            return str(self._module)
        if getattr(self, "_llvm_ir", None) is None:
            raise StrataError("this module was loaded from object code: it has no IR")
        mod = _parse(self._llvm_ir, {})
        optimize(mod, self.opt_level, host_target_machine(self.opt_level, reloc="default",
                                                          jit=True))
        return str(mod)

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


# ---------------------------------------------------------------- parallel code generation
# [Note: parallel code generation]
# LLVM's optimization and code generation of a model's module were a fifth to a quarter
# of a cold compile (ConvNeXt-T: 0.75 s of 2.75 s CPU), all on one core, while a model's
# module is dozens of independent functions (the loop nests outlined, the glue around
# them). A module of at least PARALLEL_MIN_BYTES of IR is split into `jobs` parts by
# function (the largest first, each to the part with the least work; a function at O0,
# `optnone`, weighs a quarter of its text), and each part is optimized and compiled to an
# object file on a thread of its own, this thread doing the first part meanwhile. A part
# is the module's text with the other parts' functions declared instead of defined
# (outlined functions are noinline: no inlining is lost; keeping their bodies as
# `available_externally` made every part optimize every function), globals defined in
# the first part only (`available_externally` in the others: their values still fold),
# and local symbols made external so that parts reach each other's. The objects are
# loaded into one MCJIT engine, which links them (by 64-bit addresses: [Note: a JIT'd
# object's sections kept together]; the compiled-model cache keeps them as they are).
# $STRATA_COMPILE_JOBS sets the number of parts (1: one piece).
# Threads, not processes: llvmlite serializes every LLVM call of a process behind one
# lock, so each part is parsed into an LLVMContext of its own, compiled by a
# TargetMachine and pass builder of its own, and its two long calls (the optimization
# pipeline, code generation) are made to llvmlite's C functions directly, without the
# lock (ctypes lets go of the GIL while they run). LLVM compiles modules of different
# contexts on different threads at once (what its parallel LTO code generation does);
# nothing of a part is shared with another thread, or with a caller's own llvmlite
# work in the global context (which keeps taking the lock). The parts used to be
# compiled by forked children: a fork copies the page tables of the whole process,
# and the parent then takes a copy-on-write fault for each page it writes while the
# child lives. Both grow with the process: in one that had compiled other models first
# (2.8 GB resident), Llama's fork took 0.06 s of CPU and 0.11 s of wall (0.02 s at
# 1 GB), its LLVM step 0.18-0.19 s of process CPU late in the benchmark's process
# against 0.12-0.14 fresh. On threads, in the same state (four models compiled in one
# process, the machine at load ~7, wall): Llama's LLVM step 0.69 -> 0.35 s, GPT-2's
# 0.64 -> 0.32 s, ViT-B/16's 0.49 -> 0.17 s. (Forking a process that runs threads,
# PyTorch's and the kernels' pool, is also what Python 3.12 warns about.)
PARALLEL_MIN_BYTES = 64 * 1024
_LOCAL = ("private", "internal")


def compile_jobs() -> int:
    """Parts a large module is compiled in: $STRATA_COMPILE_JOBS, else the CPUs this
    process may run on (at most 8)."""
    env = os.environ.get("STRATA_COMPILE_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return min(len(os.sched_getaffinity(0)), 8)
    except (AttributeError, OSError):
        return min(os.cpu_count() or 1, 8)


def _functions(llvm_ir: str) -> list:
    """[(start, end, name, cost)] of the function definitions of LLVM IR text: `start` at
    "define", `end` past the closing "}" line."""
    out = []
    at = llvm_ir.find("\ndefine ")
    while at >= 0:
        eol = llvm_ir.find("\n", at + 1)
        close = llvm_ir.find("\n}\n", eol)
        if eol < 0 or close < 0:
            return []
        header = llvm_ir[at + 1:eol]
        name = header[header.find("@") + 1:header.find("(", header.find("@"))]
        size = close - at
        out.append((at + 1, close + 3, name.strip('"'),
                    size / 4 if " optnone" in header else size))
        at = llvm_ir.find("\ndefine ", close)
    return out


# [Note: identical functions merged]
# Outlined loop nests of the same computation on buffers of the same shape come out of
# translation as the same text under different names (DenseNet-121: the batch norm +
# ReLU of each dense layer's 56x56 image is one nest per layer, 374 functions in all of
# which 111 repeat another one: 28% of its LLVM IR, 40% of LLVM's time). Before LLVM
# sees the module, each function whose text equals an earlier one's (its own name left
# out) is dropped, and every reference to it (calls, the function pointers handed to
# the thread pool) names the earlier one instead. Functions named in `keep` (the entry
# points and their C interfaces, which callers find by name) and names that need quotes
# stay as they are. Equal text is equal code: nothing is merged that could differ.
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "_.$-")


def merge_identical_functions(llvm_ir: str, keep=frozenset()) -> tuple[str, int]:
    """(`llvm_ir` with each function that repeats an earlier one's text dropped and its
    references renamed to the earlier one, the number dropped); see [Note: identical
    functions merged]."""
    import re
    funcs = _functions(llvm_ir)
    first: dict[str, str] = {}
    rename: dict[str, str] = {}
    for start, end, name, _ in funcs:
        if name in keep or not name or not set(name) <= _NAME_CHARS:
            continue
        text = llvm_ir[start:end]
        at = text.find("@" + name + "(")
        if at < 0:
            continue
        key = text[:at] + "@(" + text[at + len(name) + 2:]
        if ("@" + name) in key:     # refers to itself (recursion): left alone
            continue
        if key in first:
            rename[name] = first[key]
        else:
            first[key] = name
    if not rename:
        return llvm_ir, 0
    pieces, at = [], 0
    for start, end, name, _ in funcs:
        if name in rename:
            pieces.append(llvm_ir[at:start])
            at = end
    pieces.append(llvm_ir[at:])
    text = "".join(pieces)
    pattern = re.compile(r"@([-\w.$]+)")
    text = pattern.sub(lambda m: "@" + rename[m.group(1)] if m.group(1) in rename
                       else m.group(0), text)
    return text, len(rename)


def _partition(llvm_ir: str, jobs: int):
    """The LLVM IR text of each part, or None to compile in one piece."""
    if jobs <= 1 or len(llvm_ir) < PARALLEL_MIN_BYTES:
        return None
    funcs = _functions(llvm_ir)
    jobs = min(jobs, len(funcs) // 2)
    if jobs <= 1:
        return None
    load = [(0.0, k) for k in range(jobs)]
    owner = {}
    for i in sorted(range(len(funcs)), key=lambda i: -funcs[i][3]):
        w, k = min(load)
        load[k] = (w + funcs[i][3], k)
        owner[i] = k
    parts = []
    for k in range(jobs):
        pieces, at = [], 0
        for i, (start, end, _, _) in enumerate(funcs):
            pieces.append(llvm_ir[at:start])
            if owner[i] == k:
                pieces.append(llvm_ir[start:end])
            else:   # a declaration: the header up to the parameters' ")"
                header = llvm_ir[start:llvm_ir.find("\n", start)]
                name_at = header.find("@")
                close = header.find(")", header.find("(", name_at))
                pieces.append("declare " + _strip_linkage(header[len("define "):name_at]) +
                              header[name_at:close + 1] + "\n")
            at = end
        pieces.append(llvm_ir[at:])
        parts.append("".join(pieces))
    return parts


# Words that may come before a function's return type in a definition, not in a
# declaration.
_DEFINITION_ONLY = {"private", "internal", "linkonce", "linkonce_odr", "weak", "weak_odr",
                    "available_externally", "dso_local", "hidden", "protected"}


def _strip_linkage(prefix: str) -> str:
    words = prefix.split(" ")
    while words and words[0] in _DEFINITION_ONLY:
        words.pop(0)
    return " ".join(words)


def _compile_part(part_ir: str, opt_level: int, first: bool, timings=None,
                  pic: bool = False) -> bytes:
    """The object file of one part's LLVM IR text (its functions defined, the others'
    declared): globals are defined by the first part only, local symbols made external
    (see [Note: parallel code generation]). For the JIT, or position-independent (`pic`)
    for a shared library. The part is parsed into an LLVM context of its own and
    compiled by a target machine of its own, optimization and code generation without
    llvmlite's lock: parts compile on threads side by side."""
    llvm = _llvm()
    timings = {} if timings is None else timings
    context = llvm.create_context()
    mod = _parse(part_ir, timings, context)
    anonymous = 0
    for is_function, values in ((True, mod.functions), (False, mod.global_variables)):
        for v in values:
            if v.is_declaration or v.name.startswith("llvm."):
                continue
            if not v.name:
                anonymous += 1
                v.name = f"__strata_anon_{anonymous}"
            if v.linkage.name in _LOCAL:
                v.linkage = "external"
                v.visibility = "hidden"   # (a shared library: not exported, no GOT)
            if not is_function and not first:
                v.linkage = "available_externally"
    tm = host_target_machine(opt_level, reloc="pic", fresh=True) if pic else \
        host_target_machine(opt_level, reloc="default", jit=True)
    t0 = time.perf_counter()
    optimize(mod, opt_level, tm, unlocked=True)
    timings["optimize"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    try:
        obj = _emit_object_unlocked(tm, mod)
    except RuntimeError as e:
        raise LLVMError(f"LLVM could not compile the module: {e}") from None
    timings["codegen"] = time.perf_counter() - t0
    mod.close()         # (before its context)
    return obj


def _compile_parallel(parts, opt_level: int, timings, pic: bool = False) -> list:
    """The object files of `parts` (LLVM IR text): the first compiled by this thread,
    the others by threads of their own meanwhile (see [Note: parallel code
    generation])."""
    import threading
    _llvm()             # (initialized once, before the threads)
    objects: list = [None] * len(parts)
    errors: list = [None] * len(parts)

    def compile_part(i):
        try:
            objects[i] = _compile_part(parts[i], opt_level, i == 0,
                                       timings if i == 0 else None, pic)
        except BaseException as e:  # noqa: BLE001 - raised by the caller's thread
            errors[i] = e
    threads, here = [], []
    for i in range(1, len(parts)):
        t = threading.Thread(target=compile_part, args=(i,), daemon=True,
                             name=f"strata-llvm-part{i}")
        try:
            t.start()
        except RuntimeError:    # no thread to spare: this part here
            here.append(i)
            continue
        threads.append(t)
    try:
        compile_part(0)
        for i in here:
            compile_part(i)
    finally:
        for t in threads:
            t.join()
    for e in errors:
        if isinstance(e, StrataError):
            raise e
        if e is not None:
            raise LLVMError(f"LLVM could not compile the module: {e}") from e
    return objects


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


def emit_objects(llvm_ir: str, opt_level: int = 3, timings: dict | None = None,
                 jobs: int | None = None) -> list:
    """Relocatable, position-independent object files of `llvm_ir` for the host, to link
    together into a shared library: one, or for a large module one per part compiled in
    parallel ([Note: parallel code generation]; `jobs`, default compile_jobs())."""
    timings = {} if timings is None else timings
    parts = _partition(llvm_ir, compile_jobs() if jobs is None else jobs)
    if parts is None:
        return [emit_object(llvm_ir, opt_level, timings)]
    timings["jobs"] = len(parts)
    return _compile_parallel(parts, opt_level, timings, pic=True)


def emit_object(llvm_ir: str, opt_level: int = 3, timings: dict | None = None) -> bytes:
    """A relocatable, position-independent object file (ELF/Mach-O) of `llvm_ir` for the
    host, ready to link into a shared library."""
    return _emit(llvm_ir, opt_level, timings, "object")


def emit_assembly(llvm_ir: str, opt_level: int = 3, timings: dict | None = None) -> str:
    """The host assembly of `llvm_ir` after optimization (for reading)."""
    return _emit(llvm_ir, opt_level, timings, "assembly")
