"""The CPU cost model: the tile word (blocking and thread split, see [Note: the tile word]
in kernels_gemm.py) of each GEMM / convolution kernel call, from the call's sizes, the
threads, the kernels' ISA and the host's caches. Pure Python and cheap (microseconds a
call, memoized); strata-linalg-to-microkernels asks it for every call it emits
(`tile-choice=model`), and the autotuner (autotune.py) measures candidates around its
choice.

    tile_chooser(isa_name=None, threads=0, caches_kib=None)(kernel, shape, hint) -> word
    choose_tile(kernel, shape, threads, isa, caches) -> word
    explain(kernel, shape, threads, isa, caches) -> the decision, readable

[Note: the cost model]
A product C[M,N] += A[M,K] . B[K,N] on the blocked driver (loops NC / KC / MC / NR / MR)
is modelled as BLIS's analysis says (Low et al., "Analytical modeling is enough for
high-performance BLIS", 2016), simplified:
- KC: the B micro-panel (KC x NR floats) the micro-kernel streams for every MR rows stays
  in L1: it takes at most half of it (the other half for A's micro-panel and C's tile).
  K is cut into the fewest such blocks, of equal size (multiples of the vector width):
  K = 384 is 2 x 192, not 256 + 128, whose second block would run half-length K loops.
  Convolutions keep KC <= Isa.kc (their packing's stack bound). A product on pre-packed
  weights with a small A runs the whole K whatever KC says (the kernel's own rule,
  measured faster: _packed_b_kc in kernels_gemm.py).
- MC: the packed A block (MC x KC) stays in L2 while all of B's panels stream past: at
  most 30% of L2 (BLIS's ratio for Zen: B's panel, C's lines and the prefetches share
  the rest); the rows (of a thread's slice) are cut into equal blocks of MR multiples.
  But where the whole B block (KC x NC) takes at most RESIDENT_B_SHARE of L2 (small K
  and N: ConvNeXt's and Swin's MLPs, 3136 x 96 x 384, 784 x 768 x 192), B stays in L2
  for every A block anyway, and a big A block only spreads each B panel's pass over C
  across many rows (likely: a TLB page per row of C, and C's lines leave L1 and L2
  before the next panel writes beside them): MC is then at most MC_RESIDENT_B rows
  (rounded up to MR), measured 4-10% faster at one thread on AVX-512 (3136 x 96 x 384:
  146 -> 161 GFLOP/s; 784 x 192 x 768: 166 -> 178); a B block of 1.2 MB (196 x 384 x
  1536) keeps the L2 rule (MC 200: 179 against 154 at MC 32).
- A in place: the micro-kernels read MR strided rows of A instead of its packed panel,
  measured ~10% slower per multiply-add on AVX-512 (196 x 384 x 1536: 177 -> 161
  GFLOP/s), IN_PLACE_A_COST of the compute; packing A costs m x K x PACK_A_CYCLES per
  NC block. A strata_sgemm* product reads A in place (the word's apack = APACK_NO)
  where that costs less: few column panels (N < 2W / IN_PLACE_A_COST, 320 on AVX-512:
  3136 x 384 x 96 151 -> 173 GFLOP/s, 784 x 768 x 192 169 -> 174 at one thread);
  convolutions keep the kernels' rule (N >= Isa.pack_a_min_n). The split is chosen
  without it (A packed once either way).
- A convolution's filter (A) is weights: it comes from L3 or memory on every call (a
  model's other layers pass between two calls), and every slice of a thread split that
  uses its rows reads them again: m x K x FILTER_READ_CYCLES per slice and NC block where
  A is not packed at run time (a filter packed at compile time, the `_packed` kernels,
  or read in place), the packing's cost otherwise (which reads it). The packed kernels
  pack nothing: the model once charged them the packing of A for every column slice of
  64 columns or more and nothing for narrower ones, so it cut 14x14 images' 1x1
  convolutions into five column slices of 48, 48, 48, 48 and 4 pixels at 2 threads,
  each reading the whole filter (1 MB for ResNet-50's 1024 -> 256) from L3
  ([Note: the filter's reads] for what was measured).
- NC: the packed B block (KC x NC) stays in the thread's share of half of L3, NC at most
  NC_MAX columns (every NC block packs A again); the columns of a slice are cut into
  equal blocks of NR multiples.
- The thread split: for each way (one thread; slices of NR-column units; slices of MR-row
  units; 1 to 4 slices per thread) the time is estimated in cycles and the least wins:
    compute   ceil(m/MR)*MR x ceil(n/NR)*NR x K / (2 W)   (two FMA units; the M and N
              tails cost whole micro-tiles: tail waste)
    packing   B: K x n x PACK_B_CYCLES per slice (twice that for a convolution's
              implicit im2col, nothing for a pre-packed B), A: m x K x PACK_A_CYCLES
              per slice and NC block (when N >= Isa.pack_a_min_n, nothing for a
              filter packed at compile time): slicing along N packs A again per
              slice, along M packs B again per slice (the cycles per element
              measured on a Zen 3 core: B 0.4 to 0.6, A 0.9 to 1.2); a convolution
              over an image of SMALL_IMAGE_PANELS panels or less packs it whole,
              once, on the calling thread before the slices: charged once, outside
              the slices (7x7 images: row slices looked dearer than they are)
    filter    m x K x FILTER_READ_CYCLES per slice and NC block, a convolution's A
              not packed at run time (read from L3 by each slice)
    C         m x n x (K blocks) x 2 / W (read and written once per K block)
    overhead  SLICE_CYCLES per slice, PARALLEL_CYCLES to wake the pool
  Slices are claimed by the threads as they finish (threadpool.py), so the time of a
  split is the greedy schedule's makespan over `threads` threads (load balance), plus
  STRAGGLE times its largest slice: on a shared machine a thread starts late or is
  preempted, and the others can take over no less than a slice (more, smaller slices
  are safer, at the price of packing A, or B, again for each).
A size known only at run time (None) keeps the kernels' defaults for what depends on it
(the run-time split rule, SPLIT_AUTO, and the largest block that fits).

[Note: the filter's reads]
What changed at 2 threads (AVX-512, 2 MB L2; 1 thread: no word changed): ResNet-50's
1024 -> 256 and 28 -> 14 stride-2 3x3 convolutions from 5 column slices to the run-time
rule (one column slice per thread: 112 + 84 pixels), 256 -> 1024 at 14x14 to row
slices (2 per thread), ResNeXt-50's 14x14 1x1s likewise; 7x7 layers kept their splits.
Measured per layer at 2 threads (process CPU time, the caches evicted before each run as
in a whole model, 30 interleaved rounds, medians against the old 5-slice word) on a
machine of 2 cores at load 17-21, where the same word timed twice differed by up to
15%: the stride-2 3x3 1.00 against 1.22 (best runs 1.00 against 1.20); 1024 -> 256:
one column slice per thread 0.91 and 1.03 in two runs; 256 -> 1024: rows 0.87-1.07,
one column slice per thread 0.80-1.02. Whole models, new against old words, same
process, interleaved: ResNet-50 CPU 0.95 (10 rounds) and 1.00 (25 rounds), wall 1.03
and 1.05; ResNeXt-50 CPU 0.88, wall 0.87 (15 rounds); but at 1 thread, where the two
compiles' words are the same, the same comparison read 1.05 (ResNet-50) and 0.91
(ResNeXt-50): whole-model effects of these layers are within that load's noise, neither
a gain nor a loss shown. FILTER_READ_CYCLES (~16 bytes a cycle from
L3) is an estimate, not a measurement (no hardware counters on that machine).
The same holds for a product's pre-packed B (strata_sgemm_packed*: weights, read again
by each row slice), which the model does not charge yet.
"""
from __future__ import annotations

import functools
import os

from .kernels_conv import SMALL_IMAGE_PANELS
from .kernels_gemm import (APACK_NO, APACK_YES, GEMV_MAX_ROWS, PAR_MIN_MACS,
                           SLICE_MIN_UNITS,
                           SLICES_PER_THREAD, SPLIT_AUTO, SPLIT_M, SPLIT_N, SPLIT_NONE,
                           tile_fields, tile_word)

__all__ = ["Caches", "host_caches", "tile_chooser", "choose_tile", "explain",
           "gemm_problem", "neighbours", "reaches_blocked"]

# Fractions of each cache a block may take (see [Note: the cost model]).
L1_SHARE, L2_SHARE, L3_SHARE = 0.5, 0.3, 0.5
# A thread may start late or be preempted (a shared machine): a split is charged this
# many of its largest slices on top of its makespan.
STRAGGLE = 0.25
NC_MAX = 4096
# Cycles per element packed (B: vector copies, A: scalar copies).
PACK_B_CYCLES, PACK_A_CYCLES = 0.5, 1.0
# Cycles per float of a convolution's filter read from L3 by a slice that does not pack
# it (~16 bytes a cycle; see [Note: the cost model]).
FILTER_READ_CYCLES = 0.25
# Cycles of fixed cost: one slice (a call of the blocked driver: its buffers, the
# micro-kernel calls' set-up), waking the pool's workers for a parallel call.
SLICE_CYCLES = 2000
PARALLEL_CYCLES = 8000
MAX_SLICES_PER_THREAD = 3
# A B block (KC x NC) of at most this share of L2 stays there for all the A blocks: the
# A blocks then take MC_RESIDENT_B rows at most (see [Note: the cost model]).
RESIDENT_B_SHARE, MC_RESIDENT_B = 0.5, 128
# What reading A in place (MR strided rows per micro-kernel) costs, as a fraction of the
# product's FMA cycles (see [Note: the cost model]).
IN_PLACE_A_COST = 0.1
# Another split replaces the kernels' run-time rule when it is estimated this much faster.
AUTO_MARGIN = 0.15


class Caches:
    """Data cache sizes in bytes: L1d and L2 per core, L3 and how many CPUs share it."""

    __slots__ = ("l1", "l2", "l3", "l3_sharing")

    def __init__(self, l1: int, l2: int, l3: int, l3_sharing: int = 1):
        self.l1, self.l2, self.l3 = int(l1), int(l2), int(l3)
        self.l3_sharing = max(int(l3_sharing), 1)

    def key(self) -> tuple:
        return (self.l1, self.l2, self.l3, self.l3_sharing)

    def __eq__(self, other):
        return isinstance(other, Caches) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return (f"Caches(l1={self.l1 >> 10}K, l2={self.l2 >> 10}K, l3={self.l3 >> 10}K "
                f"shared by {self.l3_sharing})")


# Where the host does not say: a common x86 core of the last years.
FALLBACK = Caches(32 << 10, 512 << 10, 8 << 20, 4)


def _size(text: str) -> int:
    text = text.strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text.rstrip("KMG")) * mult


def _cpu_count(cpu_list: str) -> int:
    n = 0
    for part in cpu_list.strip().split(","):
        lo, _, hi = part.partition("-")
        if lo:
            n += int(hi or lo) - int(lo) + 1
    return n


@functools.lru_cache(maxsize=1)
def host_caches() -> Caches:
    """The host's data caches: /sys/devices/system/cpu/cpu0/cache (Linux), else sysconf's
    _SC_LEVEL*_CACHE_SIZE where Python knows them, else FALLBACK, per level."""
    found = {}
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in sorted(os.listdir(base)):
            d = os.path.join(base, entry)
            try:
                with open(os.path.join(d, "type")) as f:
                    kind = f.read().strip()
                if kind == "Instruction":
                    continue
                with open(os.path.join(d, "level")) as f:
                    level = int(f.read())
                with open(os.path.join(d, "size")) as f:
                    size = _size(f.read())
                sharing = 1
                try:
                    with open(os.path.join(d, "shared_cpu_list")) as f:
                        sharing = _cpu_count(f.read())
                except OSError:
                    pass
                found[level] = (size, sharing)
            except (OSError, ValueError):
                continue
    except OSError:
        pass
    for level, name in ((1, "SC_LEVEL1_DCACHE_SIZE"), (2, "SC_LEVEL2_CACHE_SIZE"),
                        (3, "SC_LEVEL3_CACHE_SIZE")):
        if level not in found and name in getattr(os, "sysconf_names", {}):
            try:
                size = os.sysconf(name)
            except (OSError, ValueError):
                size = 0
            if size > 0:
                found[level] = (size, 1)
    l1 = found.get(1, (FALLBACK.l1, 1))[0]
    l2 = found.get(2, (FALLBACK.l2, 1))[0]
    l3, sharing = found.get(3, (FALLBACK.l3, FALLBACK.l3_sharing))
    return Caches(l1, l2, l3, sharing)


def _isa(name):
    """The Isa named `name` (None or "host": the host's); ValueError if unknown."""
    from .kernels import host_isa, isa_for
    return host_isa() if name in (None, "", "host") else isa_for(name)


def tile_chooser(isa_name: str | None = None, threads: int = 0, caches_kib=None):
    """The chooser strata-linalg-to-microkernels calls, `(kernel, shape, hint) -> word`,
    for the kernels' ISA `isa_name` (None: the host's), `threads` (0: the process's
    default) and `caches_kib` ([L1d, L2, L3] in KiB, None: the host's)."""
    from .kernels import default_threads
    isa = _isa(isa_name)
    threads = int(threads) or default_threads()
    if caches_kib:
        sizes = [int(x) << 10 for x in caches_kib] + [0] * 3
        caches = Caches(sizes[0] or FALLBACK.l1, sizes[1] or FALLBACK.l2,
                        sizes[2] or FALLBACK.l3, 1)
    else:
        caches = host_caches()

    def choose(kernel, shape, hint=None):
        return choose_tile(kernel, shape, threads, isa, caches)
    return choose


# ---------------------------------------------------------------- the problem


class Problem:
    """Blocked-driver products as the kernels run them: `kind` "n", "t", "packed" or
    "conv"; M, N, K (None: known at run time only); `threads` a product may split over
    (1 inside a batch run in parallel chunks); `batch` products of a batched kernel
    that runs them one after the other, each split, or in parallel chunks of the batch
    (SPLIT_NONE), 1 for the others."""

    __slots__ = ("kind", "M", "N", "K", "threads", "batch", "gemm", "filter")

    def __init__(self, kind, M, N, K, threads, batch=1, gemm=False, filter=None):
        self.kind, self.M, self.N, self.K, self.threads = kind, M, N, K, threads
        self.batch = batch
        # a strata_sgemm* call: the word's apack field is the model's to choose
        self.gemm = gemm
        # a convolution's: None (A is not a filter), "packed" (packed at compile time:
        # the `_packed` kernels) or "raw" (packed at run time or read in place)
        self.filter = filter

    def __repr__(self):
        return (f"Problem({self.kind}, M={self.M}, N={self.N}, K={self.K}, "
                f"t={self.threads}, batch={self.batch})")


def _prod(*xs):
    r = 1
    for x in xs:
        if x is None:
            return None
        r *= x
    return r


def gemm_problem(kernel: str, shape: dict, threads: int, isa):
    """The Problem the call of `kernel` with sizes `shape` runs on the blocked driver, or
    None when it never reaches it (a few rows: the small-M paths)."""
    g = shape.get
    if kernel == "strata_conv2d_nchw_packed_t_f32":
        return None     # its own loops (kernels_conv.py), no tile word read
    if kernel.startswith("strata_conv2d_"):
        P = _prod(g("OH"), g("OW"))
        K = _prod(g("C"), g("KH"), g("KW"))
        if kernel == "strata_conv2d_nhwc_f32":
            kind = "t" if g("ftrans") else "n"
            return _small_or(Problem(kind, P, g("F"), K, threads), isa)
        # (padded NCHW ones never: [Note: padding in the packing] in kernels_conv.py)
        direct = (g("KH"), g("KW"), g("sh"), g("sw")) == (1, 1, 1, 1) and \
            g("OW") is not None and g("OW") == g("W") and not (g("pt") or g("pl")) and \
            not (g("OH") is not None and g("H") is not None and g("OH") > g("H"))
        if "_grouped" in kernel:
            # items in parallel, one thread each, as the kernel decides at run time
            from .kernels_conv import groups_in_parallel
            items = _prod(g("N") or 1, g("G"))
            macs = _prod(g("F"), K, P)
            if items is None or macs is None or groups_in_parallel(items, macs, threads):
                threads = 1
        return _small_or(Problem("n" if direct else "conv", g("F"), P, K, threads,
                                 filter="packed" if "_packed" in kernel else "raw"), isa)
    kind = {"strata_sgemm_f32": "n", "strata_sgemm_batched_f32": "n",
            "strata_sgemm_nt_f32": "t", "strata_sgemm_nt_batched_f32": "t",
            "strata_sgemm_packed_f32": "packed",
            "strata_sgemm_packed_epi_f32": "packed"}.get(kernel)
    if kind is None:
        return None
    M, N, K = g("M"), g("N"), g("K")
    batch = 1
    if "batched" in kernel:
        # products below PAR_MIN_MACS run whole, in parallel chunks of the batch
        macs = _prod(M, N, K)
        if macs is not None and macs < PAR_MIN_MACS and g("batch") != 1:
            threads = 1
        else:
            batch = g("batch") or 1
    return _small_or(Problem(kind, M, N, K, threads, batch, gemm=True), isa)


def reaches_blocked(kernel: str, shape: dict, isa) -> bool:
    """Whether a call of `kernel` with sizes `shape` runs the blocked driver (its tile
    word matters)."""
    return gemm_problem(kernel, shape, 1, isa) is not None


def _small_or(p: Problem, isa):
    # (pre-packed B: the few-rows path up to GEMV_MAX_ROWS rows, [Note: few rows on
    # packed B] in kernels_gemm.py, blocks nothing and splits as the kernel decides)
    pmin = {"n": isa.pack_min_m, "t": isa.pack_min_m_nt,
            "packed": GEMV_MAX_ROWS + 1}.get(p.kind, 0)
    if p.M is not None and p.M < pmin:
        return None
    if 0 in (p.M, p.N, p.K):
        return None
    return p


# ---------------------------------------------------------------- blocking


def _cdiv(a, b):
    return -(-a // b)


def _up(a, m):
    return _cdiv(a, m) * m


def _even_blocks(n, most, multiple):
    """Block size cutting n into the fewest blocks of at most `most`, equal, rounded up
    to `multiple`."""
    return _up(_cdiv(n, _cdiv(n, most)), multiple)


def _kc(p: Problem, isa, caches) -> int:
    W, nr = isa.width, isa.nr
    most = max(W, int(caches.l1 * L1_SHARE) // (4 * nr) // W * W)
    most = min(most, 1024)
    if p.kind == "conv":
        most = min(most, isa.kc)
    if p.K is None:
        return most
    return min(_even_blocks(p.K, most, W), most if p.kind == "conv" else 1 << 16)


def _mc_most(kc: int, isa, caches, nc: int = 0) -> int:
    """The most rows of an A block (MC) for K blocks of kc; with `nc`, the columns of the
    B block: one that stays in L2 takes MC_RESIDENT_B rows at most, rounded up to MR
    ([Note: the cost model])."""
    mr = isa.mr
    most = min(int(caches.l2 * L2_SHARE) // (4 * kc), 4096)
    if nc and 4 * kc * nc <= caches.l2 * RESIDENT_B_SHARE:
        most = min(most, _up(MC_RESIDENT_B, mr))     # (128 rows: one block on AVX2)
    return max(mr, most // mr * mr)


def _nc_most(kc: int, threads: int, isa, caches) -> int:
    nr = isa.nr
    share = int(caches.l3 * L3_SHARE) // max(1, min(threads, caches.l3_sharing))
    return max(nr, min(share // (4 * kc), NC_MAX) // nr * nr)


# ---------------------------------------------------------------- the split


def _slice_cycles(p: Problem, m: int, n: int, kc: int, mc: int, nc: int, isa) -> float:
    """Estimated cycles of the blocked driver on an m x n slice (see [Note: the cost
    model])."""
    W, mr, nr, K = isa.width, isa.mr, isa.nr, p.K
    compute = _up(m, mr) * _cols(n, isa) * K / (2 * W)
    if p.kind == "packed" or _image_packed_whole(p, isa):
        pack_b = 0.0
    else:
        pack_b = K * _up(n, nr) * PACK_B_CYCLES * (2.0 if p.kind == "conv" else 1.0)
    packs_a = n >= isa.pack_a_min_n and p.filter != "packed"
    pack_a = m * K * _cdiv(n, nc) * PACK_A_CYCLES if packs_a else 0.0
    # a filter this slice does not pack: read from L3 all the same
    filter_reads = m * K * _cdiv(n, nc) * FILTER_READ_CYCLES \
        if p.filter and not packs_a else 0.0
    c_traffic = m * n * _cdiv(K, kc) * 2 / W
    return compute + pack_b + pack_a + filter_reads + c_traffic + SLICE_CYCLES


def _image_packed_whole(p: Problem, isa) -> bool:
    """Whether a convolution's im2col matrix is packed whole before the product, on the
    calling thread, once (images of SMALL_IMAGE_PANELS panels or less: _products in
    kernels_conv.py), not by each slice."""
    return p.kind == "conv" and p.N <= SMALL_IMAGE_PANELS * isa.nr


def _a_in_place(p: Problem, isa) -> bool:
    """Whether a strata_sgemm* product reads A in place (APACK_NO) where the kernels' rule
    would pack it: packing A (once: NC blocks are the whole N on one thread, column
    slices share one packing) costs more than the in-place micro-kernel loses on the
    whole product (see [Note: the cost model])."""
    if not p.gemm or p.N < isa.pack_a_min_n or p.M < isa.mr:
        return False
    compute = _up(p.M, isa.mr) * _cols(p.N, isa) * p.K / (2 * isa.width)
    return p.M * p.K * PACK_A_CYCLES > compute * IN_PLACE_A_COST


def _cols(n: int, isa) -> int:
    """The columns the micro-kernels compute for n: whole NR panels, but a last panel of
    one vector or less through the narrow micro-kernels ([Note: narrow micro-kernels]
    in kernels_gemm.py)."""
    tail = n % isa.nr
    if isa.nv > 1 and 0 < tail <= isa.width:
        return n - tail + isa.width
    return _up(n, isa.nr)


def _makespan(costs: list, threads: int) -> float:
    """The time `threads` threads take on slices of `costs`, each taking the next slice
    when it finishes (slices in order, as the pool hands them out)."""
    loads = [0.0] * max(1, min(threads, len(costs)))
    for c in costs:
        i = loads.index(min(loads))
        loads[i] += c
    return max(loads)


def _splits(p: Problem, kc: int, isa, caches):
    """(estimated cycles, split, slices per thread, mc, nc) of each way to run `p`."""
    t = p.threads
    out = []
    for cycles, split, k, mc, nc in _product_splits(p, kc, isa, caches):
        if split == SPLIT_NONE and p.batch > 1 and t > 1:
            # one thread per product, the batch in parallel chunks
            cycles = _makespan([cycles] * p.batch, t) + PARALLEL_CYCLES + STRAGGLE * cycles
        else:
            cycles *= p.batch
        out.append((cycles, split, k, mc, nc))
    return out


def _product_splits(p: Problem, kc: int, isa, caches):
    """_splits of one product."""
    t = p.threads
    out = []
    ways = [(SPLIT_AUTO, 0), (SPLIT_NONE, 1)]
    if t > 1:
        ways += [(s, k) for s in (SPLIT_N, SPLIT_M) for k in range(1, MAX_SLICES_PER_THREAD + 1)]
    for split, k in ways:
        min_units = 1
        if split == SPLIT_AUTO:    # the kernels' run-time rule
            split, k, min_units = _auto(p, isa), SLICES_PER_THREAD, SLICE_MIN_UNITS
            auto = True
        else:
            auto = False
        size, unit = (p.N, isa.nr) if split == SPLIT_N else (p.M, isa.mr)
        if split == SPLIT_NONE:
            pieces = [p.N]
        else:
            units = _cdiv(size, unit)
            # as the kernel computes it (min_units = 1: exactly k per thread if it can)
            k_rt = max(1, min(units // (t * min_units), k))
            if split == SPLIT_N and p.kind in ("n", "t", "conv") and isa.nv > 1 and \
                    not (p.kind == "conv" and size <= SMALL_IMAGE_PANELS * unit):
                unit = isa.width    # cut in vectors (B packed at run time, not whole)
                units = _cdiv(size, unit)
            per = _cdiv(units, t * k_rt) * unit
            pieces = [min(per, size - lo) for lo in range(0, size, per)]
            if k_rt != k and not auto:
                continue       # the same as a smaller k
        costs = []
        for piece in pieces:
            m, n = (p.M, piece) if split == SPLIT_N else \
                ((piece, p.N) if split == SPLIT_M else (p.M, p.N))
            threads = 1 if split == SPLIT_NONE else t
            nc = min(_even_blocks(n, _nc_most(kc, threads, isa, caches), isa.nr),
                     _nc_most(kc, threads, isa, caches))
            most = _mc_most(kc, isa, caches, nc)
            mc = min(_even_blocks(m, most, isa.mr), most)
            costs.append((_slice_cycles(p, m, n, kc, mc, nc, isa), mc, nc))
        total = _makespan([c for c, _, _ in costs], 1 if split == SPLIT_NONE else t)
        if _image_packed_whole(p, isa):     # before the slices, once
            total += p.K * p.N * PACK_B_CYCLES * 2.0
        if split != SPLIT_NONE:
            total += PARALLEL_CYCLES + STRAGGLE * max(c for c, _, _ in costs)
        mc = max(c[1] for c in costs)
        nc = max(c[2] for c in costs)
        out.append((total, SPLIT_AUTO if auto else split, k, mc, nc))
    return out


def _auto(p: Problem, isa) -> int:
    """The split the kernels' run-time rule (SPLIT_AUTO) makes of a product of `p`."""
    t = p.threads
    if t <= 1 or p.M * p.N * p.K < PAR_MIN_MACS:
        return SPLIT_NONE
    if p.N >= t * 2 * isa.nr:
        return SPLIT_N
    return SPLIT_M if p.M >= t * 2 * isa.mr else SPLIT_NONE


# ---------------------------------------------------------------- the choice


def choose_tile(kernel: str, shape: dict, threads: int, isa, caches: Caches) -> int:
    """The tile word of a call of `kernel` with sizes `shape` ({name: int or None}, see
    [Note: tile words] in linalg_to_microkernels.py) on `threads` threads."""
    key = (kernel, tuple(sorted(shape.items())), int(threads), isa, caches)
    return _choose(key)


@functools.lru_cache(maxsize=4096)
def _choose(key) -> int:
    kernel, shape, threads, isa, caches = key
    return _decide(kernel, dict(shape), threads, isa, caches)["word"]


def _decide(kernel, shape, threads, isa, caches) -> dict:
    p = gemm_problem(kernel, shape, max(int(threads), 1), isa)
    if p is None:
        return {"word": 0, "why": "never reaches the blocked driver (a few rows)"}
    kc = _kc(p, isa, caches)
    if p.M is None or p.N is None or p.K is None:
        # a run-time size: the run-time split rule, the largest blocks that fit
        mc = _mc_most(kc, isa, caches)
        nc = _nc_most(kc, p.threads, isa, caches)
        if p.M is not None:
            mc = min(mc, _up(p.M, isa.mr))
        if p.N is not None:
            nc = min(nc, _even_blocks(p.N, nc, isa.nr))
        return {"word": tile_word(kc=kc, mc=mc, nc=nc), "problem": p,
                "why": "a size known at run time only: the run-time split rule"}
    ways = sorted(_splits(p, kc, isa, caches), key=lambda w: w[0])
    auto = next(w for w in ways if w[1] == SPLIT_AUTO)
    best = ways[0]
    # the run-time rule unless another way is clearly better (it was measured well on
    # shared machines; the model's margins are not that precise)
    cycles, split, k, mc, nc = best if best[0] * (1 + AUTO_MARGIN) < auto[0] else auto
    fields = dict(kc=kc, mc=mc, nc=nc, split=split)
    if _a_in_place(p, isa):
        fields["apack"] = APACK_NO
    if split not in (SPLIT_NONE, SPLIT_AUTO):
        fields.update(slices=k, min_units=1)
    return {"word": tile_word(**fields), "problem": p, "cycles": cycles, "ways": ways}


def explain(kernel: str, shape: dict, threads: int, isa=None, caches=None) -> str:
    """The cost model's decision for a call, as text (for reading and debugging)."""
    isa = isa or _isa(None)
    caches = caches or host_caches()
    d = _decide(kernel, shape, threads, isa, caches)
    lines = [f"{kernel} {shape} on {threads} threads, {isa.name}, {caches}:",
             f"  word {d['word']:#x} = {tile_fields(d['word'])}"]
    if "ways" not in d:
        lines.append(f"  {d['why']}")
        return "\n".join(lines)
    names = {SPLIT_NONE: "one thread", SPLIT_N: "columns", SPLIT_M: "rows",
             SPLIT_AUTO: "run-time"}
    for cycles, split, k, mc, nc in d["ways"][:6]:
        lines.append(f"  {cycles:12.0f} cycles  {names[split]:<10} {k} per thread  "
                     f"mc={mc} nc={nc}")
    return "\n".join(lines)


def neighbours(word: int, kernel: str, shape: dict, threads: int, isa,
               dynamic: bool = False) -> list:
    """Tile words around `word` for the autotuner: `word` first, the kernels' defaults
    (0), then one change each: KC halved or doubled (or all of K), MC halved or doubled,
    A in place or packed (strata_sgemm* products, [Note: the tile word]), the other
    splits and slices per thread. Distinct, valid words. `dynamic`: the sizes `shape`
    gives are guesses for dims known at run time only (timed at 1): only changes that stay
    good at other sizes (smaller KC, MC halved or doubled; the run-time split
    rule), since a block grown past a cache or a fixed split that pays at the guess
    loses at the real size (a batch of 64 where 1 was timed)."""
    f = tile_fields(word)
    p = gemm_problem(kernel, shape, max(int(threads), 1), isa)
    out = [word, 0]
    if p is None:
        return out[:1]
    W, mr, nr = isa.width, isa.mr, isa.nr
    kc = f["kc"] or isa.kc
    mc = f["mc"] or isa.mc
    kcs = {max(W, _up(kc // 2, W))}
    if not dynamic:
        kcs.add(_up(kc * 2, W) if p.kind != "conv" else isa.kc)
        if p.K is not None and p.K <= 1024 and p.kind != "conv":
            kcs.add(_up(p.K, W))
    for k in sorted(kcs):
        out.append(tile_word(**dict(f, kc=min(k, 4096))))
    for m in (max(mr, _up(mc // 2, mr)), _up(mc * 2, mr)):
        out.append(tile_word(**dict(f, mc=min(m, 4096))))
    if p.gemm and not dynamic:     # A in place where it was packed, or the other way
        out.append(tile_word(**dict(f, apack=APACK_YES if f["apack"] == APACK_NO
                                    else APACK_NO)))
    if threads > 1 and p.M is not None and p.N is not None and not dynamic:
        for split in (SPLIT_N, SPLIT_M):
            for k in (1, 2, 3):
                out.append(tile_word(**dict(f, split=split, slices=k, min_units=1)))
        out.append(tile_word(**dict(f, split=SPLIT_NONE, slices=0, min_units=0)))
        out.append(tile_word(**dict(f, split=SPLIT_AUTO, slices=SLICES_PER_THREAD,
                                    min_units=SLICE_MIN_UNITS)))
    seen, uniq = set(), []
    for w in out:
        if w not in seen:
            seen.add(w)
            uniq.append(w)
    return uniq
