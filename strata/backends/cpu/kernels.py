"""fp32 GEMM and convolution kernels for the CPU target, generated as LLVM IR text for the
host's vector ISA, compiled once per machine and called by compiled models (the pass
strata-linalg-to-microkernels, strata/conversion/linalg_to_microkernels.py, emits the
calls). The IR is written by kernels_gemm.py and kernels_conv.py (helpers: kernel_ir.py).

    C[M,N] (+)= A[M,K] . B[K,N]        strata_sgemm_f32(M, N, K, A, lda, B, ldb, C, ldc, acc,
                                                        tile)
    C[M,N] (+)= A[M,K] . Bt[N,K]^T     strata_sgemm_nt_f32(... same arguments ...)
    C[M,N] (+)= A[M,K] . packed(B)     strata_sgemm_packed_f32(M, N, K, A, lda, Bp, C, ldc,
                                                               acc, tile)
    the same, then C = act(C + bias)   strata_sgemm_packed_epi_f32(M, N, K, A, lda, Bp, C,
    (flags: EPI_BIAS, the activation's     ldc, acc, bias, flags, tile); K >= 1
    code << ACT_SHIFT, cpu_kernel_abi)
    batches of the first two           strata_sgemm[_nt]_batched_f32(batch, M, N, K,
                                           A, lda, strideA, B, ldb, strideB, C, ldc,
                                           strideC, acc, tile)
    B -> packed(B) (once, for weights) strata_sgemm_pack_b_f32(K, N, B, ldb, Bp)
    depthwise 2-D convolutions         strata_dwconv2d_nchw_f32 / _nhwc_f32
                                       (kernels_depthwise.py: the padding read as
                                       zeros, bias and activation)
    2-D convolutions                   strata_conv2d_nchw_f32 / strata_conv2d_nhwc_f32
                                       (NCHW: the padding read as zeros);
                                       strata_conv2d_nchw_packed_f32 (nchw's arguments,
                                       the filter in MR-row panels: pack_a_panels);
                                       strata_conv2d_nchw_packed_epi_f32 (+ bias, flags
                                       before the tile word: the epilogue, K >= 1);
                                       strata_conv2d_nchw_packed_pro_f32 (+ scale,
                                       shift, code: the image read as act(x * s + t),
                                       kernels_conv.py's [Note: input prologues]);
                                       strata_conv2d_nchw_packed_t_f32 (the epi
                                       kernel's arguments, the filter as NR-filter
                                       panels of its transpose: pack_b_panels; small
                                       images, kernels_conv.py);
                                       strata_conv2d_nchw_grouped[_packed[_epi]]_f32
                                       (the same per image and group, with G and the
                                       input's group stride: kernels_conv.py)
    the thread pool                    strata_parallel_for(fn, ctx, n, grain),
                                       strata_set_num_threads(n), strata_get_num_threads(),
                                       strata_threads_enter(n), strata_threads_exit(prev)
    checked allocations (guard.py)     strata_alloc(nbytes, site), strata_free(p),
                                       strata_alloc_or_null(nbytes, site), the guard of
                                       an entry point (strata_guard_enter / exit / check)

All matrices are row-major fp32 with unit inner stride and leading dimensions in elements
(i64); `acc` (i32) != 0 adds to C, 0 overwrites it; `tile` (i64) is the blocking and
thread split of the call (0: the defaults, see below). A batch stride may be 0 (a broadcast
operand). Plain C ABI; the kernels need malloc/free, the thread pool (threadpool.py, in
the same module) pthreads and, on Linux, the futex system call.

[Note: GEMM kernel design]
In the style of BLIS (Van Zee & van de Geijn) and IREE's microkernels:
- The micro-kernel computes an MR x NR tile of C (NR = NV vectors of W floats) with the
  MR*NV accumulators as <W x float> phis of the K loop: per k, NV row vectors of B are
  loaded, each of the MR elements of A's column is broadcast and fused-multiply-added.
  AVX2 (W=8, 16 registers): 6 x 16 (12 accumulators + 2 B vectors + 1 broadcast);
  AVX-512 (W=16, 32 registers): 8 x 32; SSE: 6 x 8; NEON (32 registers): 8 x 12. M tails
  use smaller MR variants (one function per mr; with few rows the unrolled K loop
  rotates over several accumulator sets to hide the FMA latency), N tails masked
  loads/stores (llvm.masked.*), a tail of one vector or less through the narrow
  micro-kernels (one vector per row, [Note: narrow micro-kernels] in kernels_gemm.py).
- Big problems (M >= pack_min_m): the blocked driver, loops jc (NC) / pc (KC) / ic (MC)
  / jr (NR) / ir (MR). B[pc:pc+kc, jc:jc+nc] is packed into NR-wide panels (kc x NR
  contiguous, zero padded; panel by panel, each just before its use, when A has one
  block of rows: [Note: B packed panel by panel] in kernels_gemm.py) that the
  micro-kernel streams from L1; the A block (mc x kc)
  is packed into MR-row panels (when N >= pack_a_min_n, or as the tile word's apack
  field says: the cost model reads A in place for few column panels) and stays in L2;
  C accumulates over the pc blocks. A.B^T only packs differently (W x W transposes in
  registers), and so does a convolution (B packed straight from the image: implicit
  im2col; an image of a few panels is packed whole once, not once per slice of the
  filters; a constant filter comes packed in MR-row panels of the whole K).
- Small M (batch 1, a few rows): packing B would cost as much as the product. A.B runs
  as rows of C updated by a few rows of B at a time (axpy-like, all streams contiguous);
  A.B^T as dot products vectorized along K with a horizontal sum at the end; A.packed(B)
  (weights) with at most GEMV_MAX_ROWS rows streams several packed panels at once, the
  whole K in registers, the threads splitting the panels ([Note: few rows on packed B]
  in kernels_gemm.py).
- packed(B) is the panel layout for the whole K (panel p = B[:, p*NR:(p+1)*NR] as
  K x NR, zero padded), so weights are packed once at compile time (the pass, with
  `weight-panel-width`) and strata_sgemm_packed_f32 skips the packing step. With an A
  of a panel of rows, or of at most WHOLE_K_A_FLOATS, it runs the whole K in one block
  whatever the tile word says (kernels_gemm._packed_b_kc). Weights come from L3 or
  memory, so the first row panel's pass over a B panel would wait on them: row panels 1
  to 4 (AVX2) each prefetch a part of the next B panel into L2 (strata_ukr_<MR>p[e]_pf).
  Likewise filters packed at compile time (A of the "convp" and "pp" drivers): on the
  first column panel's pass each row panel prefetches the next (strata_ukr_<MR>p[e]_pf2).
- Threads: from PAR_MIN_MACS multiply-adds, the blocked driver splits C's columns (or
  rows) into slices (up to SLICES_PER_THREAD a thread), run by the persistent thread pool
  of threadpool.py (strata_parallel_for); two or more column slices share
  one packing of A, made before they start (by the pool too, in chunks of MR-row panels:
  strata_gemm_prepack); batches of small products run in parallel chunks of the batch.
  The count is strata_get_num_threads(): a model's own, else the process default, else
  $STRATA_NUM_THREADS, else the CPUs available.
- KC, MC, NC and the split above are the defaults: each call of a public kernel that
  reaches the blocked driver passes a tile word (its last argument, [Note: the tile
  word] in kernels_gemm.py) choosing them at run time; the compiler takes it from the
  cost model (cost_model.py) or from measurements (autotune.py, `tune=True`).
"""
from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

__all__ = ["Isa", "host_isa", "isa_for", "sgemm_ir", "kernels_fingerprint", "generator_digest",
           "kernel_library_ir", "KERNELS",
           "pack_b", "packed_b_size", "kernel_object", "kernel_assembly", "load_kernels",
           "kernel_symbols", "KernelLibrary", "default_threads", "microkernel_pass",
           "attention_pass",
           "winograd_pass"]


@dataclass(frozen=True)
class Isa:
    """The vector ISA the kernels are written for, and the blocking parameters."""

    name: str              # "avx512", "avx2", "sse", "neon"
    width: int             # floats per vector register (W)
    mr: int                # rows of the micro-tile
    nv: int                # vectors per row of the micro-tile (NR = nv * width)
    kc: int = 256          # K block (a B panel kc x NR stays in L1)
    mc: int = 144          # M block (the A block mc x kc stays in L2)
    nc: int = 2048         # N block (packed B block kc x nc)
    pack_min_m: int = 8    # A.B: the blocked driver from this M up (else _small)
    pack_min_m_nt: int = 16  # A.Bt: the blocked driver from this M up (else dot products)
    pack_a_min_n: int = 64  # pack A (in the blocked driver) when N is at least this
    unroll: int = 4        # K-loop unroll of the micro-kernel
    cpu: str = ""          # "target-cpu" attribute of the kernels ("" = none)
    features: str = ""     # "target-features" attribute of the kernels

    @property
    def nr(self) -> int:
        return self.nv * self.width


_TABLE = {"avx512": dict(width=16, mr=8, nv=2),
          "avx2": dict(width=8, mr=6, nv=2),
          "sse": dict(width=4, mr=6, nv=2),
          "neon": dict(width=4, mr=8, nv=3)}


def isa_for(name: str, cpu: str = "", features: str = "", **overrides) -> Isa:
    """The Isa named `name` (a key of the table above), with blocking `overrides`."""
    if name not in _TABLE:
        raise ValueError(f"unknown kernel ISA {name!r} (known: {', '.join(_TABLE)})")
    nr = _TABLE[name]["width"] * _TABLE[name]["nv"]
    params = dict(_TABLE[name], nc=max(nr, 2048 // nr * nr), cpu=cpu, features=features)
    params.update(overrides)
    return Isa(name, **params)


@functools.lru_cache(maxsize=None)
def host_isa() -> Isa:
    """The best Isa for the machine this process runs on (from llvmlite's host info)."""
    import llvmlite.binding as llvm
    llvm.initialize_native_target()
    cpu = llvm.get_host_cpu_name()
    feats = llvm.get_host_cpu_features()
    triple = llvm.get_process_triple()
    on = {k for k, v in feats.items() if v}
    if "avx512f" in on:
        name = "avx512"
    elif {"avx2", "fma"} <= on:
        name = "avx2"
    elif triple.startswith(("aarch64", "arm64")):
        name = "neon"
    else:
        name = "sse"
    return isa_for(name, cpu=cpu, features=feats.flatten())


# ---------------------------------------------------------------- the library


# Public kernels and the internal functions each one needs.
KERNELS = ("strata_sgemm_f32", "strata_sgemm_nt_f32", "strata_sgemm_packed_f32",
           "strata_sgemm_packed_epi_f32",
           "strata_sgemm_batched_f32", "strata_sgemm_nt_batched_f32",
           "strata_sgemm_pack_b_f32", "strata_conv2d_nchw_f32",
           "strata_conv2d_nchw_packed_f32", "strata_conv2d_nchw_packed_epi_f32",
           "strata_conv2d_nchw_packed_pro_f32",
           "strata_conv2d_nchw_packed_t_f32",
           "strata_conv2d_nchw_grouped_f32", "strata_conv2d_nchw_grouped_packed_f32",
           "strata_conv2d_nchw_grouped_packed_epi_f32",
           "strata_conv2d_nhwc_f32",
           "strata_conv2d_winograd_f32", "strata_dwconv2d_nchw_f32", "strata_dwconv2d_nhwc_f32",
           "strata_attention_f32",
           "strata_parallel_for", "strata_set_num_threads", "strata_get_num_threads",
           "strata_threads_enter", "strata_threads_exit",
           "strata_alloc", "strata_alloc_or_null", "strata_free", "strata_guard_enter",
           "strata_guard_exit", "strata_guard_check", "strata_guard_active",
           "strata_test_fail_alloc")


@functools.lru_cache(maxsize=8)
def sgemm_ir(isa: Isa | None = None) -> str:
    """LLVM IR text of a module defining all the KERNELS for `isa` (default: the host's).
    No target triple or data layout: it is meant to be linked into the model's module."""
    from .kernel_ir import attributes, declarations
    from .kernels_attention import attention_functions
    from .kernels_conv import conv_functions
    from .kernels_depthwise import depthwise_functions, depthwise_nhwc_functions
    from .kernels_gemm import gemm_functions
    from .kernels_winograd import winograd_functions
    from .guard import guard_ir
    from .threadpool import threadpool_ir
    isa = isa or host_isa()
    head = (f"; Strata fp32 GEMM kernels for {isa.name}: MR={isa.mr} NR={isa.nr} "
            f"KC={isa.kc} MC={isa.mc} NC={isa.nc}\n")
    return "\n".join([head, declarations(isa), *gemm_functions(isa), *conv_functions(isa),
                      *winograd_functions(isa), *depthwise_functions(isa),
                      *depthwise_nhwc_functions(isa),
                      *attention_functions(isa),
                      threadpool_ir(), guard_ir(), attributes(isa)])


def kernel_library_ir(names=KERNELS, isa: Isa | None = None) -> str:
    """The LLVM IR module that defines the kernels `names` (a subset of KERNELS), to be
    parsed on its own and linked into the model's module (llvmlite: `mod.link_in(lib)`);
    its internal helpers are private (internal linkage)."""
    unknown = set(names) - set(KERNELS)
    if unknown:
        raise ValueError(f"unknown kernels: {', '.join(sorted(unknown))}")
    # One module holds them all; the linker and LLVM's global DCE drop what is unused.
    return sgemm_ir(isa)


# ---------------------------------------------------------------- packing weights ahead


def packed_b_size(K: int, N: int, isa: Isa | None = None) -> int:
    """Floats in packed(B) for a K x N matrix."""
    nr = (isa or host_isa()).nr
    return -(-N // nr) * nr * K


def pack_b(b, isa: Isa | None = None):
    """packed(B) of a K x N float32 array (NumPy), as strata_sgemm_pack_b_f32 writes it:
    a flat float32 array of packed_b_size(K, N) elements."""
    from ...conversion.cpu_kernel_abi import pack_b_panels
    return pack_b_panels(b, (isa or host_isa()).nr)


# ---------------------------------------------------------------- standalone use


def _ctypes_signatures() -> dict:
    """{public function: (ctypes result type, [ctypes argument types])}."""
    from ...conversion.cpu_kernel_abi import KERNEL_SIGNATURES
    from .guard import GUARD_FUNCTIONS
    from .threadpool import POOL_FUNCTIONS
    kinds = {"i64": ctypes.c_int64, "i32": ctypes.c_int32, "ptr": ctypes.c_void_p,
             "f32": ctypes.c_float, "void": None}
    out = {n: (None, [kinds[t] for t in ts]) for n, ts in KERNEL_SIGNATURES.items()}
    out.update({n: (kinds[r], [kinds[t] for t in ts]) for n, (r, ts) in
                POOL_FUNCTIONS.items()})
    out.update({n: (kinds[r], [kinds[t] for t in ts]) for n, (r, ts) in
                GUARD_FUNCTIONS.items()})
    return out


def _target_machine(isa: Isa, jit: bool = False):
    import llvmlite.binding as llvm
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(
        cpu=isa.cpu or llvm.get_host_cpu_name(), features=isa.features, opt=3,
        reloc="default" if jit else "pic", codemodel="jitdefault" if jit else "default",
        jit=jit)


def _optimized(isa: Isa):
    """The kernels' module, optimized (O3 without the loop and SLP vectorizers: the
    code is vector code already, and they only cost compile time)."""
    import llvmlite.binding as llvm
    tm = _target_machine(isa)
    mod = llvm.parse_assembly(sgemm_ir(isa))
    mod.verify()
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    return mod, tm


def _cache_dir() -> str | None:
    """Where the kernels and tuning results are kept (strata/cache.py owns the rule)."""
    from ...cache import cache_dir
    return cache_dir()


@functools.lru_cache(maxsize=8)
def kernels_fingerprint(isa: Isa | None = None) -> str:
    """A digest that changes whenever the kernels' IR for `isa` may: the text of the
    modules that generate it (every module of this package, and linalg_to_microkernels,
    whose epilogue flags they use), the Isa and the platform; the IR text itself where a
    source cannot be read. Generating the IR (1.4 MB) to key the caches of what is built
    from it took 0.28 s of each process's first compile."""
    import hashlib
    import os
    import platform
    import sys
    isa = isa or host_isa()
    h = hashlib.sha256(f"{isa!r} {sys.platform} {platform.machine()}".encode())
    try:
        h.update(generator_digest(os.path.dirname(os.path.abspath(__file__))).encode())
    except OSError:     # not installed as files (a zip): the IR itself
        h.update(sgemm_ir(isa).encode())
    return h.hexdigest()


def generator_digest(here: str) -> str:
    """The digest of the kernels' generating sources: the .py files of the package at
    `here` (strata/backends/cpu), ../../conversion/linalg_to_microkernels.py,
    ../../conversion/cpu_kernel_abi.py (the flags the kernels read) and
    ../../transforms/math/polynomial.py (the approximations kernel_ir writes into them)."""
    import hashlib
    import os
    h = hashlib.sha256()
    paths = sorted(os.path.join(here, n) for n in os.listdir(here) if n.endswith(".py"))
    paths.append(os.path.join(here, "..", "..", "conversion", "linalg_to_microkernels.py"))
    paths.append(os.path.join(here, "..", "..", "conversion", "cpu_kernel_abi.py"))
    # kernel_ir's vector exp, activations and the softmax's exp2 are its polynomials
    paths.append(os.path.join(here, "..", "..", "transforms", "math", "polynomial.py"))
    for path in paths:
        with open(path, "rb") as fh:
            h.update(os.path.basename(path).encode() + b"\0" + fh.read() + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=4)
def kernel_object(isa: Isa | None = None) -> bytes:
    """The kernels as a relocatable, position-independent object file for the host
    (link it into a shared library, or load it into a JIT). Built once per machine: kept
    in $STRATA_CACHE_DIR (default ~/.cache/strata; "off" disables), keyed by
    kernels_fingerprint and the LLVM version."""
    import hashlib
    import os

    import llvmlite
    isa = isa or host_isa()
    key = hashlib.sha256("\0".join([kernels_fingerprint(isa), llvmlite.__version__, isa.cpu,
                                     isa.features]).encode()).hexdigest()[:24]
    d = _cache_dir()
    path = os.path.join(d, f"sgemm-{isa.name}-{key}.o") if d else None
    if path and os.path.isfile(path):
        with open(path, "rb") as fh:
            return fh.read()
    from ... import progress
    with progress.step("building CPU kernels (first use, ~8 s)", estimate=8.0):
        mod, tm = _optimized(isa)
        obj = tm.emit_object(mod)
    if path:
        try:
            os.makedirs(d, exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "wb") as fh:
                fh.write(obj)
            os.replace(tmp, path)
        except OSError:   # a read-only home: no cache, no harm
            pass
    return obj


def kernel_assembly(isa: Isa | None = None) -> str:
    """The kernels' host assembly (for reading)."""
    from ... import progress
    with progress.step("building the CPU kernels' assembly (~8 s)", estimate=8.0):
        mod, tm = _optimized(isa or host_isa())
        return tm.emit_assembly(mod)


# Every KernelLibrary ever loaded: their code must outlive them (the thread pool's
# workers run in it until the process ends).
_LOADED: list = []


class KernelLibrary:
    """The kernels loaded in this process (MCJIT, from `kernel_object`): `symbols` maps
    each public kernel name to its address (give them to a JIT'd module that calls
    them); attributes named after the kernels without `strata_` and `_f32`
    (`lib.sgemm`, `lib.sgemm_nt`, ..., `lib.parallel_for`, `lib.set_num_threads`) are
    ctypes functions taking integers and addresses (`array.ctypes.data`), for tests and
    benchmarks. Each library has its own thread pool (threadpool.py); its count is
    automatic (default_threads()) until set_num_threads says otherwise. A library is
    never unloaded."""

    def __init__(self, isa: Isa | None = None):
        import llvmlite.binding as llvm
        self.isa = isa or host_isa()
        obj = kernel_object(self.isa)
        tm = _target_machine(self.isa, jit=True)
        # the runtime's failure hook the checked allocations call (guard.py)
        from ...runtime import runtime_symbols
        from .guard import OOM_REPORT
        llvm.add_symbol(OOM_REPORT, runtime_symbols()[OOM_REPORT])
        # one block for the object's code, data and GOT: its 32-bit PC-relative
        # references need it ([Note: a JIT'd object's sections kept together], jit.py)
        from .jit import mcjit_engine
        self._engine = mcjit_engine(tm)
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self._engine.finalize_object()
        _LOADED.append(self._engine)
        self.symbols = {}
        for name, (res, args) in _ctypes_signatures().items():
            addr = self._engine.get_function_address(name)
            self.symbols[name] = addr
            fn = ctypes.CFUNCTYPE(res, *args)(addr)
            setattr(self, name.removeprefix("strata_").removesuffix("_f32"), fn)
        import os
        if os.environ.get("STRATA_PERF_MAP"):
            from .jit import write_perf_map
            write_perf_map(_all_functions(obj, self.symbols))


def _all_functions(obj: bytes, public: dict) -> dict:
    """{name: address} of every function of the loaded ELF object `obj` (internal ones
    too: a profile names the micro-kernels), placed from the addresses of the `public`
    ones in the same sections; just `public` for other object formats."""
    import struct
    if obj[:6] != b"\x7fELF\x02\x01":      # 64-bit little-endian ELF only
        return dict(public)
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize)
                for i in range(shnum)]
    funcs = {}
    for _, kind, _, _, off, size, link, _, _, entsize in sections:
        if kind != 2:                         # SHT_SYMTAB
            continue
        strtab = sections[link][4]
        for k in range(size // entsize):
            name, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", obj, off + k * entsize)
            if info & 0xF == 2:               # STT_FUNC
                end = obj.index(b"\0", strtab + name)
                funcs[obj[strtab + name:end].decode()] = (shndx, value)
    base = {funcs[n][0]: a - funcs[n][1] for n, a in public.items() if n in funcs and a}
    out = {n: base[sh] + v for n, (sh, v) in funcs.items() if sh in base}
    out.update(public)
    return out


def default_threads() -> int:
    """$STRATA_NUM_THREADS, else the CPUs this process may run on."""
    import os
    env = os.environ.get("STRATA_NUM_THREADS", "")
    if env.strip().isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@functools.lru_cache(maxsize=4)
def load_kernels(isa: Isa | None = None) -> KernelLibrary:
    """A KernelLibrary for `isa` (default: the host's), loaded once per process."""
    return KernelLibrary(isa)


def microkernel_pass(isa: Isa | None = None, num_threads: int = 0) -> str:
    """The pipeline entry of strata-linalg-to-microkernels for these kernels: constant
    weights packed for their NR-column panels, convolution filters for their MR-row
    panels, tile words chosen for `num_threads`
    threads (0: the process's default)."""
    threads = f" num-threads={num_threads}" if num_threads else ""
    isa = isa or host_isa()
    return (f"strata-linalg-to-microkernels{{weight-panel-width={isa.nr} "
            f"filter-panel-rows={isa.mr}{threads}}}")


def attention_pass() -> str:
    """The pipeline entry of strata-linalg-attention-to-microkernels (attention over
    long sequences as calls of the fused kernel, kernels_attention.py)."""
    return "strata-linalg-attention-to-microkernels"


# Images of this many 4x4 output tiles and up (28x28) run as Winograd F(4x4, 3x3):
# measured 1.2-1.9x faster than F(2x2, 3x3) there, slower on 14x14 (16 tiles) and below
WINOGRAD_TILE4_MIN_TILES = 49
# Images of fewer 2x2 output tiles than this (7x7 and below) whose U is over
# WINOGRAD_FEW_TILES_MAX_U floats (4 MiB: 256 x 256 channels) keep the direct product
# ([Note: Winograd on small images] in conv_to_winograd.py)
WINOGRAD_FEW_TILES, WINOGRAD_FEW_TILES_MAX_U = 25, 1 << 20


def winograd_pass(isa: Isa | None = None) -> str:
    """The pipeline entry of strata-linalg-conv-to-winograd for these kernels (filters
    packed for their NR-filter panels where the transposed products pay, F(4x4, 3x3) on
    large images)."""
    return (f"strata-linalg-conv-to-winograd{{panel-width={(isa or host_isa()).nr} "
            f"tile4-min-tiles={WINOGRAD_TILE4_MIN_TILES} few-tiles={WINOGRAD_FEW_TILES} "
            f"few-tiles-max-u={WINOGRAD_FEW_TILES_MAX_U}}}")


def kernel_symbols() -> dict:
    """{kernel name: address} of the host kernels loaded in this process: the symbols a
    JIT'd model module that calls them needs (see strata.backends.cpu.jit.JitModule)."""
    return dict(load_kernels().symbols)
