"""The GEMM kernels' LLVM IR (see [Note: GEMM kernel design] in kernels.py): micro-kernels,
packing, the small-M, dot-product and blocked drivers, threads, batches, and the public
strata_sgemm* functions. `gemm_functions(isa)` is all of it, as function definitions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...conversion.cpu_kernel_abi import (ACT_NAMES, ACT_SHIFT, EPI_BIAS, EPI_RELU,
                                          EPI_ROW_BIAS, PRO_ACTS)
from .guard import checked_bytes, checked_malloc
from .kernel_ir import (Fn, all_of, fma, lane_mask, splat, vactivation, vec_type, vload,
                        vstore)

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["gemm_functions", "bad_epilogue", "ukr_accumulate", "BLOCKED_KINDS",
           "BLOCKED_ARGS", "EPI_BIAS", "EPI_RELU", "PAR_MIN_MACS",
           "CHUNK_MIN_MACS", "TILE_FIELDS", "tile_word", "tile_fields", "SPLIT_AUTO",
           "SPLIT_N", "SPLIT_M", "SPLIT_NONE", "APACK_AUTO", "APACK_YES", "APACK_NO",
           "SLICES_PER_THREAD", "SLICE_MIN_UNITS",
           "pf_calls", "GEMV_MAX_ROWS", "GEMV_PAR_MIN_FLOATS", "gemv_panels"]

_ARGS = "i64 %M, i64 %N, i64 %K, ptr noalias %A, i64 %lda, ptr noalias %B, i64 %ldb, " \
        "ptr noalias %C, i64 %ldc"
# The blocked drivers' arguments: a GEMM's, accumulate, the convolution's (see _blocked)
# and the tile word (see [Note: the tile word]).
BLOCKED_ARGS = _ARGS + ", i1 %acc, ptr %cd, i64 %q0, i64 %tile, ptr %bias, i32 %epi"
# The epilogue of a product's last K block (`epi` flags; `bias`: a float per column of C,
# or per row): C = act(C + bias), computed as the elementwise generic it replaces would.
# The flags (EPI_BIAS, EPI_ROW_BIAS, the activation code) are the ABI's, defined with the
# kernels' signatures in strata/conversion/cpu_kernel_abi.py ([Note: activation codes]).
# ("npa": "np" with the input prologue of strata_conv2d_nchw_packed_pro_f32, %cd its
# scale, shift and code: see [Note: input prologues] in kernels_conv.py)
BLOCKED_KINDS = {"n": 0, "t": 1, "": 2, "conv": 3, "convp": 4, "pp": 5, "np": 6, "npa": 7}


# ---------------------------------------------------------------- the tile word

# [Note: the tile word]
# The blocking and the thread split of a call are run-time values: the public kernels
# that reach the blocked driver take one trailing `i64 %tile`, a packed word of unsigned
# fields (name, lowest bit, bits), each 0 for the built-in default:
#   kc         K block (default Isa.kc; at most Isa.kc for convolutions, whose packing
#              keeps one offset per row of the block on its stack)
#   mc         M block, rounded up to a multiple of MR (default Isa.mc)
#   nc         N block, rounded up to a multiple of NR (default Isa.nc)
#   slices     slices of C per thread at most (default SLICES_PER_THREAD)
#   split      SPLIT_AUTO: today's rule (columns when C has 2 NR-column units per thread,
#              else rows with 2 MR-row units per thread, from PAR_MIN_MACS multiply-adds);
#              SPLIT_N / SPLIT_M: slices of columns / rows whenever there are 2 threads;
#              SPLIT_NONE: one thread (batched kernels: one per product, the products
#              in parallel chunks of the batch)
#   min_units  NR columns (MR rows) a slice keeps at least (default SLICE_MIN_UNITS)
#   apack      APACK_AUTO: A blocks packed in MR-row panels when N >= Isa.pack_a_min_n
#              (and a panel of rows at least); APACK_YES: packed whenever M >= MR;
#              APACK_NO: read in place (the micro-kernels' MR strided rows; the column
#              slices of the threads then share no packing of A either). Filters
#              packed at compile time ("convp", "pp", "np") are packed whatever it says.
# A word of 0 is the defaults. The buffers are sized at run time (no more than the
# problem needs), so any word computes the same product; the cost model
# (cost_model.py) and the autotuner (autotune.py) choose it per call.
TILE_FIELDS = (("kc", 0, 16), ("mc", 16, 16), ("nc", 32, 16), ("slices", 48, 4),
               ("split", 52, 2), ("min_units", 54, 6), ("apack", 60, 2))
SPLIT_AUTO, SPLIT_N, SPLIT_M, SPLIT_NONE = 0, 1, 2, 3
APACK_AUTO, APACK_YES, APACK_NO = 0, 1, 2
_TILE_AT = {name: (lo, bits) for name, lo, bits in TILE_FIELDS}


def tile_word(**fields) -> int:
    """The tile word of `fields` (names of TILE_FIELDS; missing ones 0 = default)."""
    word = 0
    for name, value in fields.items():
        lo, bits = _TILE_AT[name]
        value = int(value)
        if not 0 <= value < 1 << bits:
            raise ValueError(f"tile field {name}={value} does not fit in {bits} bits")
        word |= value << lo
    return word


def tile_fields(word: int) -> dict:
    """{field: value} of a tile word (0 = the default)."""
    return {name: (int(word) >> lo) & ((1 << bits) - 1) for name, lo, bits in TILE_FIELDS}


def _tile_field(f: Fn, name: str, default: int, word: str = "%tile") -> str:
    """Field `name` of the tile word, `default` where it is 0."""
    lo, bits = _TILE_AT[name]
    x = f(f"lshr i64 {word}, {lo}") if lo else word
    x = f(f"and i64 {x}, {(1 << bits) - 1}")
    return f(f"select i1 {f.cmp('eq', x, 0)}, i64 {default}, i64 {x}")


def _apack(f: Fn) -> str:
    """The tile word's `apack` field (APACK_AUTO, APACK_YES or APACK_NO; 3 reads as
    APACK_AUTO)."""
    lo, bits = _TILE_AT["apack"]
    x = f(f"and i64 {f(f'lshr i64 %tile, {lo}')}, {(1 << bits) - 1}")
    return f(f"select i1 {f.cmp('ugt', x, APACK_NO)}, i64 {APACK_AUTO}, i64 {x}")


def _round_up(f: Fn, x: str, m: int) -> str:
    return f.mul(f(f"udiv i64 {f.add(x, m - 1)}, {m}"), m)


# ---------------------------------------------------------------- micro-kernels


# Independent accumulator chains a micro-kernel keeps at least (FMA latency x FMA units).
_MIN_CHAINS = 8


def _ukr_name(mr: int, apack: bool, epi: bool = False, prefetching: int = 0,
              narrow: bool = False) -> str:
    return f"@strata_ukr_{mr}{'p' if apack else 'a'}{'e' if epi else ''}" \
        f"{'_pf' if prefetching else ''}{prefetching if prefetching > 1 else ''}" \
        f"{'_n1' if narrow else ''}"


def pf_calls(isa: Isa) -> int:
    """Calls of a prefetching micro-kernel that cover a whole B panel (K x NR floats): each
    prefetches a 64-byte line per unrolled K step, K / unroll lines."""
    return max(1, isa.unroll * isa.nr // 16)


def pf_a_lines(isa: Isa) -> int:
    """Lines per unrolled K step a micro-kernel prefetches to cover the next MR-row panel of
    packed A (MR x K floats) within one call."""
    return -(-isa.mr * max(isa.unroll, 1) // 16)


def ukr_accumulate(f: Fn, isa: Isa, mr: int, arow: list, a_step,
                   prefetch_lines: int = 0, nv: int = 0, panels=("%B",)) -> list:
    """The K loop of a micro-kernel: the mr x NR product A[mr, K] . Bp[K, NR] (%K, %B: a
    packed panel, rows of NR floats) as mr * NV vector accumulators, which it returns.
    A's element (i, k) is at arow[i] + a_step(k) floats. prefetch_lines L > 0: each
    iteration of the unrolled loop (k its first step) also prefetches L consecutive
    64-byte lines from %P into L2, lines L k / unroll on: L K / unroll in all. `nv` > 0:
    the first nv vectors of each panel row only (the narrow micro-kernels). `panels`:
    several packed panels at once (the few-rows path, [Note: few rows on packed B]),
    one stream each, the accumulators of row i and panel j at (i * P + j) * nv."""
    W, V, nv, nr = isa.width, vec_type(isa), nv or isa.nv, isa.nr
    P = len(panels)
    acc0 = ["zeroinitializer"] * (mr * nv * P)

    def step(k, accs):
        ak = a_step(k)
        bv = []
        for b in panels:
            b_k = f.gep(b, f.mul(k, nr))
            bv += [vload(f, isa, f.gep(b_k, v * W) if v else b_k) for v in range(nv)]
        out = list(accs)
        for i in range(mr):
            a = splat(f, isa, f(f"load float, ptr {f.gep(arow[i], ak)}, align 4"))
            for v in range(nv * P):
                out[i * nv * P + v] = fma(f, isa, a, bv[v], out[i * nv * P + v])
        return out

    # Few rows: too few accumulators to hide the FMA latency, so the unrolled k steps
    # rotate over `sets` independent sets of them, summed after the loop.
    u = max(isa.unroll, 1)
    sets = max(1, min(u, _MIN_CHAINS // (mr * nv * P)))
    while u % sets:
        sets -= 1
    n = mr * nv * P
    carried = [(V, a) for a in acc0] + [(V, "zeroinitializer")] * (n * (sets - 1))
    if u == 1:
        return f.loop("0", "%K", 1, step, carried)
    kmain = f.sub("%K", f(f"srem i64 %K, {u}"))

    def unrolled(k, accs):
        accs = list(accs)
        if prefetch_lines:
            line0 = f.gep("%P", f.mul(f(f"sdiv i64 {k}, {u}"), 16 * prefetch_lines))
            for j in range(prefetch_lines):
                at = f.gep(line0, 16 * j) if j else line0
                f.do(f"call void @llvm.prefetch.p0(ptr {at}, i32 0, i32 2, i32 1)")
        for j in range(u):
            s0 = (j % sets) * n
            kj = f.add(k, j) if j else k
            accs[s0:s0 + n] = step(kj, accs[s0:s0 + n])
        return accs
    accs = f.loop("0", kmain, u, unrolled, carried)
    for j in range(1, sets):
        accs[:n] = [f(f"fadd {V} {x}, {y}") for x, y in zip(accs[:n], accs[j * n:j * n + n])]
    return f.loop(kmain, "%K", 1, step, [(V, a) for a in accs[:n]])


# [Note: narrow micro-kernels]
# A panel of NR columns whose valid columns fit in one vector (nvalid <= W: N tails such
# as 14x14 = 196 = 6 x 32 + 4 output pixels, 28x28 = 784 = 24 x 32 + 16) runs through
# the variants strata_ukr_<mr>p|a[e]_n1 (`narrow`), which load, multiply and store the
# first vector of each panel row only: half the multiply-adds of the masked full tile
# on AVX-512 (the packed layout is the same, rows of NR floats). The rows driver picks
# them by nvalid (_rows); the column slices of the threads are cut in vectors, not NR
# panels, where B is packed at run time (_parallel), so that two threads on 7 panels
# take 3.5 each instead of 4 and 3.


def _ukr(isa: Isa, mr: int, apack: bool, epi: bool = False, prefetching: int = 0,
         narrow: bool = False) -> str:
    """C[mr, :nvalid] (+)= A[mr, K] . Bp[K, NR], Bp a packed panel (rows of NR floats,
    zero padded past nvalid). A is packed (element (i, k) at A + k*MR + i) or in place
    (at A + i*lda + k). `epi`: the variant with the epilogue (%epi flags, %bias the
    columns' floats) applied to what is stored. `prefetching` L > 0: the variant
    strata_ukr_<mr>p[e]_pf[L](.., P) that also prefetches L * K / unroll consecutive
    64-byte lines from P into L2, L per unrolled K step (a part of the next B panel, or
    the next panel of A, see _rows). `narrow`: the variant strata_ukr_<mr>p|a[e]_n1 for
    panels of at most one vector of valid columns (nvalid <= W), which multiplies and
    stores that vector only ([Note: narrow micro-kernels])."""
    W, V, nv = isa.width, vec_type(isa), 1 if narrow else isa.nv
    extra = (", ptr %bias, i32 %epi" if epi else "") + (", ptr %P" if prefetching else "")
    f = Fn(f"define internal void {_ukr_name(mr, apack, epi, prefetching, narrow)}(i64 %K, "
            f"ptr noalias %A, "
            f"i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc, i64 %nvalid, i1 %acc"
            f"{extra}) #1")
    arow = [f.gep("%A", i if apack else f.mul("%lda", i)) if i else "%A" for i in range(mr)]
    crow = [f.gep("%C", f.mul("%ldc", i)) if i else "%C" for i in range(mr)]
    masks = [lane_mask(f, isa, f.sub("%nvalid", v * W) if v else "%nvalid")
             for v in range(nv)]
    full = f.cmp("eq", "%nvalid", nv * W)
    cptr = [[f.gep(crow[i], v * W) if v else crow[i] for v in range(nv)] for i in range(mr)]

    # The accumulators start at zero; C, prefetched now, is added at the end (its lines
    # arrive while the K loop runs, as BLIS does).
    for i in range(mr):
        for x in [cptr[i][v] for v in range(nv)] + [f.gep(crow[i], nv * W - 1)]:
            f.do(f"call void @llvm.prefetch.p0(ptr {x}, i32 1, i32 3, i32 1)")
    accs = ukr_accumulate(f, isa, mr, arow, (lambda k: f.mul(k, isa.mr)) if apack
                          else (lambda k: k), prefetch_lines=prefetching, nv=nv)
    done = f.label("done")
    if epi:
        _epilogue_store(f, isa, mr, accs, cptr, masks, full, done)
    for masked in (False, True) if not epi else ():
        if not masked:
            labels = [f.label(x) for x in ("fa", "fo", "ma", "mo")]
            f.cbr(full, f"{labels[0]}s", f"{labels[2]}s")
        f.start(f"{labels[2 * masked]}s")
        f.cbr("%acc", labels[2 * masked], labels[2 * masked + 1])
        for lbl, add in ((labels[2 * masked], True), (labels[2 * masked + 1], False)):
            f.start(lbl)
            for i in range(mr):
                for v in range(nv):
                    m = masks[v] if masked else None
                    x = accs[i * nv + v]
                    if add:
                        x = f(f"fadd {V} {x}, {vload(f, isa, cptr[i][v], m)}")
                    vstore(f, isa, x, cptr[i][v], m)
            f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


def bad_epilogue(f: Fn, flags: str) -> str:
    """i1: epilogue flags word `flags` (i32) names an activation past ACTS (the kernels
    then write nothing)."""
    return f(f"icmp uge i32 {flags}, {len(ACT_NAMES) << ACT_SHIFT}")


def _join(f: Fn, V: str, arms: list) -> list:
    """Phis of the values of several arms: `arms` a list of (label, values), each arm
    ending with a branch to the block started now."""
    return [f(f"phi {V} " + ", ".join(f"[ {vals[k]}, %{lbl} ]" for lbl, vals in arms))
            for k in range(len(arms[0][1]))]


def _epilogue_store(f: Fn, isa: Isa, mr: int, accs: list, cptr: list, masks: list,
                    full: str, done: str) -> None:
    """The epilogue micro-kernel's end: x = accs (+ C when %acc), + the bias of its
    columns (%epi has EPI_BIAS; masked past nvalid) or of each of its rows (EPI_ROW_BIAS,
    %bias at its first row), the activation of %epi's code (a switch over ACTS, each
    case on the whole tile in registers: [Note: activation codes] in cpu_kernel_abi.py),
    then stored (masked past nvalid), branching to `done`. One vector of masks per
    vector of a row (one for the narrow variants)."""
    W, V, nv = isa.width, vec_type(isa), len(masks)

    # C's old value, when accumulating (a masked load past nvalid)
    ld, no, ldf, ldm, j = (f.label(x) for x in ("ld", "nold", "ldf", "ldm", "ldj"))
    f.cbr("%acc", ld, no)
    f.start(ld)
    f.cbr(full, ldf, ldm)
    arms = []
    for lbl, masked in ((ldf, False), (ldm, True)):
        f.start(lbl)
        arms.append((lbl, [f(f"fadd {V} {accs[i * nv + v]}, "
                             f"{vload(f, isa, cptr[i][v], masks[v] if masked else None)}")
                           for i in range(mr) for v in range(nv)]))
        f.br(j)
    f.start(no)
    arms.append((no, accs))
    f.br(j)
    f.start(j)
    x = _join(f, V, arms)

    def flag(bit):
        return f(f"icmp ne i32 {f(f'and i32 %epi, {bit}')}, 0")
    by_col, by_row = flag(EPI_BIAS), flag(EPI_ROW_BIAS)

    def guarded(cond, load):
        """load() where cond holds, zeros elsewhere (the bias may be absent)."""
        yes, nb, join = f.label("lb"), f.label("nb"), f.label("jb")
        f.cbr(cond, yes, nb)
        f.start(yes)
        loaded = load()
        f.br(join)
        f.start(nb)
        f.br(join)
        f.start(join)
        return [f(f"phi {V} [ {v}, %{yes} ], [ zeroinitializer, %{nb} ]") for v in loaded]
    col = guarded(by_col, lambda: [vload(f, isa, f.gep("%bias", v * W) if v else "%bias",
                                         masks[v]) for v in range(nv)])
    row = guarded(by_row, lambda: [splat(f, isa, f(
        f"load float, ptr {f.gep('%bias', i) if i else '%bias'}, align 4"))
        for i in range(mr)])
    for i in range(mr):
        for v in range(nv):
            k = i * nv + v
            y = f(f"select i1 {by_col}, {V} {f(f'fadd {V} {x[k]}, {col[v]}')}, {V} {x[k]}")
            x[k] = f(f"select i1 {by_row}, {V} {f(f'fadd {V} {y}, {row[i]}')}, {V} {y}")
    # the activation, one case per code (the kernel's callers check the code)
    code = f(f"lshr i32 %epi, {ACT_SHIFT}")
    cases = {c: f.label(f"act{c}") for c in sorted(ACT_NAMES)}
    after = f.label("acts")
    table = " ".join(f"i32 {c}, label %{lbl}" for c, lbl in list(cases.items())[1:])
    f.do(f"switch i32 {code}, label %{cases[0]} [ {table} ]")
    arms = []
    for c, lbl in cases.items():
        f.start(lbl)
        arms.append((None, [vactivation(f, isa, ACT_NAMES[c], v) for v in x]))
        arms[-1] = (f.block, arms[-1][1])
        f.br(after)
    f.start(after)
    x = _join(f, V, arms)
    sf, sm = f.label("sf"), f.label("sm")
    f.cbr(full, sf, sm)
    for lbl, masked in ((sf, False), (sm, True)):
        f.start(lbl)
        for i in range(mr):
            for v in range(nv):
                vstore(f, isa, x[i * nv + v], cptr[i][v], masks[v] if masked else None)
        f.br(done)


def _rows_name(apack: bool) -> str:
    return f"@strata_rows_{'p' if apack else 'a'}"


def _rows(isa: Isa, apack: bool) -> str:
    """The ir loop: C[M, :nvalid] (+)= A[M, K] . Bp, MR rows at a time (the last rows
    through the smaller micro-kernels). Packed A: panel p (rows p*MR..) at
    A + p*MR*lda (lda: the K of the packing, K itself or more). %nextb, when not null
    (packed A only): the next B panel of K x NR floats, which the whole row panels 1 to
    pf_calls prefetch into L2, a part each (weights come from L3 or memory: the first
    row panel's pass over a B panel waited on them, the later ones run from L2). %pfa
    (packed A only): each whole row panel prefetches the next one instead (filters packed
    at compile time, on the first pass over them)."""
    mr = isa.mr
    f = Fn(f"define internal void {_rows_name(apack)}(i64 %M, i64 %K, ptr %A, i64 %lda, "
            f"ptr %B, ptr %C, i64 %ldc, i64 %nvalid, i1 %acc, ptr %bias, i32 %epi, "
            f"ptr %nextb, i1 %pfa) #1")
    u = max(isa.unroll, 1)
    # lines a call prefetches, K / u, as floats
    part = f.mul(f(f"sdiv i64 %K, {u}"), 16)
    pf_on = f("icmp ne ptr %nextb, null") if apack else "false"
    with_epi = f("icmp ne i32 %epi, 0")
    by_row = f(f"icmp ne i32 {f(f'and i32 %epi, {EPI_ROW_BIAS}')}, 0")

    def body(i, narrow=False):
        rows = f.min(f.sub("%M", i), mr)
        a = f.gep("%A", f.mul(i, "%lda"))
        c = f.gep("%C", f.mul(i, "%ldc"))
        args = f"i64 %K, ptr {a}, i64 %lda, ptr %B, ptr {c}, i64 %ldc, i64 %nvalid, i1 %acc"
        yes, no, join = f.label("epi"), f.label("plain"), f.label("rowsdone")
        f.cbr(with_epi, yes, no)
        for lbl, epi in ((yes, True), (no, False)):
            f.start(lbl)
            extra = ""
            if epi:     # a bias per row starts at this panel's first row
                bias = f(f"getelementptr float, ptr %bias, i64 "
                         f"{f(f'select i1 {by_row}, i64 {i}, i64 0')}")
                extra = f", ptr {bias}, i32 %epi"
            if apack and not narrow:
                whole = f.cmp("eq", rows, mr)
                ga, nga = f.label("pa"), f.label("npa")
                joined = f.label("jpf")
                f.cbr(f(f"and i1 %pfa, {whole}"), ga, nga)
                f.start(ga)
                f.do(f"call void {_ukr_name(mr, apack, epi, pf_a_lines(isa))}({args}{extra}, "
                     f"ptr {f.gep(a, f.mul('%lda', mr))})")
                f.br(joined)
                f.start(nga)
                p = f(f"sdiv i64 {i}, {mr}")
                pf = all_of(f, [pf_on, f.cmp("sge", p, 1), f.cmp("sle", p, pf_calls(isa)),
                                whole])
                at = f.gep("%nextb", f.mul(f.sub(p, 1), part))
                go, plain = f.label("pf"), f.label("npf")
                f.cbr(pf, go, plain)
                f.start(go)
                f.do(f"call void {_ukr_name(mr, apack, epi, 1)}({args}{extra}, "
                     f"ptr {at})")
                f.br(joined)
                f.start(plain)
            f.switch(rows, {m: m for m in range(1, mr + 1)}, lambda m, epi=epi, extra=extra:
                     f.do(f"call void {_ukr_name(m, apack, epi, narrow=narrow)}"
                          f"({args}{extra})"))
            if apack and not narrow:
                f.br(joined)
                f.start(joined)
            f.br(join)
        f.start(join)
    if isa.nv > 1:      # panels of one vector of valid columns: the narrow micro-kernels
        thin, wide, end = f.label("thin"), f.label("wide"), f.label("end")
        f.cbr(f.cmp("sle", "%nvalid", isa.width), thin, wide)
        f.start(thin)
        f.loop("0", "%M", mr, lambda i: body(i, True))
        f.br(end)
        f.start(wide)
    f.loop("0", "%M", mr, body)
    if isa.nv > 1:
        f.br(end)
        f.start(end)
    f.do("ret void")
    return f.text()


# ---------------------------------------------------------------- packing


def _transpose(f: Fn, isa: Isa, rows: list) -> list:
    """Transpose W vectors of W floats: log2(W) rounds, each swapping one bit of the row
    index with the same bit of the lane index (two shuffles per pair of vectors)."""
    W, V = isa.width, vec_type(isa)
    rows = list(rows)
    bit = 1
    while bit < W:
        new = list(rows)
        for i in range(W):
            if i & bit:
                continue
            j = i | bit
            lo = [W + (l ^ bit) if l & bit else l for l in range(W)]
            hi = [W + l if l & bit else l ^ bit for l in range(W)]
            for dst, mask in ((i, lo), (j, hi)):
                m = ", ".join(f"i32 {x}" for x in mask)
                new[dst] = f(f"shufflevector {V} {rows[i]}, {V} {rows[j]}, <{W} x i32> <{m}>")
        rows = new
        bit <<= 1
    return rows


def _pack_n(isa: Isa, pro: str | None = None) -> str:
    """Bp[p][k][0:NR] = B[k, p*NR : p*NR+NR] (zero padded) for k < kc, columns < nc;
    panel p at Bp + p*kc*NR. `pro` (a name of PRO_ACTS): strata_pack_n_<pro>, which
    packs act(B[k, j] * scale[k] + shift[k]) instead ([Note: input prologues] in
    kernels_conv.py; its lanes past nc are act(shift[k]), products nobody stores)."""
    W, nv, nr = isa.width, isa.nv, isa.nr
    name = f"strata_pack_n_{pro}" if pro else "strata_pack_n"
    extra = ", ptr noalias %scale, ptr noalias %shift" if pro else ""
    f = Fn(f"define internal void @{name}(i64 %kc, i64 %nc, ptr noalias %B, i64 %ldb, "
           f"ptr noalias %Bp{extra}) #1")

    def prologue(k):
        if not pro:
            return lambda x: x
        s_, t_ = (splat(f, isa, f(f"load float, ptr {f.gep(v, k)}, align 4"))
                  for v in ("%scale", "%shift"))
        return lambda x: vactivation(f, isa, pro, fma(f, isa, x, s_, t_))

    def panel(j):
        dst = f.gep("%Bp", f.mul(j, "%kc"))
        left = f.sub("%nc", j)
        masks = [lane_mask(f, isa, f.sub(left, v * W) if v else left) for v in range(nv)]
        full = f.cmp("sge", left, nr)
        src = f.gep("%B", j)
        fast, slow, done = f.label("pf"), f.label("pm"), f.label("pd")
        f.cbr(full, fast, slow)
        for lbl, masked in ((fast, False), (slow, True)):
            f.start(lbl)

            def row(k):
                s = f.gep(src, f.mul(k, "%ldb"))
                d = f.gep(dst, f.mul(k, nr))
                pro_k = prologue(k)
                for v in range(nv):
                    x = vload(f, isa, f.gep(s, v * W), masks[v] if masked else None)
                    vstore(f, isa, pro_k(x), f.gep(d, v * W))
                    if not masked:      # the next panel's part of this row (no
                        # `inbounds`: past the last panel it may lie outside B)
                        at = f(f"getelementptr float, ptr {s}, i64 {nr + v * W}")
                        f.do(f"call void @llvm.prefetch.p0(ptr {at}, i32 0, i32 3, i32 1)")
            f.loop("0", "%kc", 1, row)
            f.br(done)
        f.start(done)
    f.loop("0", "%nc", nr, panel)
    f.do("ret void")
    return f.text()


def _pack_t(isa: Isa) -> str:
    """As _pack_n from Bt[N, K] (B transposed): Bp[p][k][j] = Bt[p*NR + j, k]. W x W
    blocks are transposed in registers; the K tail and the rows past nc go one by one."""
    W, nv, nr = isa.width, isa.nv, isa.nr
    f = Fn("define internal void @strata_pack_t(i64 %kc, i64 %nc, ptr noalias %B, i64 %ldb, "
            "ptr noalias %Bp) #1")
    kmain = f.sub("%kc", f(f"srem i64 %kc, {W}"))

    def panel(j):
        dst = f.gep("%Bp", f.mul(j, "%kc"))
        for v in range(nv):
            # rows j+v*W .. j+v*W+W-1 of Bt; past nc they read row nc-1 and are zeroed
            rowp, valid = [], []
            for r in range(W):
                n = f.add(j, v * W + r)
                ok = f.cmp("slt", n, "%nc")
                valid.append(ok)
                rowp.append(f.gep("%B", f.mul(f(f"select i1 {ok}, i64 {n}, i64 0"), "%ldb")))

            def block(k):
                vecs = [vload(f, isa, f.gep(rowp[r], k)) for r in range(W)]
                vecs = [f(f"select i1 {valid[r]}, {vec_type(isa)} {vecs[r]}, {vec_type(isa)} "
                          "zeroinitializer") for r in range(W)]
                for t, x in enumerate(_transpose(f, isa, vecs)):
                    d = f.gep(dst, f.add(f.mul(f.add(k, t), nr), v * W))
                    vstore(f, isa, x, d)
            f.loop("0", kmain, W, block)

            def tail(k):
                for r in range(W):
                    x = f(f"load float, ptr {f.gep(rowp[r], k)}, align 4")
                    x = f(f"select i1 {valid[r]}, float {x}, float 0.0")
                    d = f.gep(dst, f.add(f.mul(k, nr), v * W + r))
                    f.do(f"store float {x}, ptr {d}, align 4")
            f.loop(kmain, "%kc", 1, tail)
    f.loop("0", "%nc", nr, panel)
    f.do("ret void")
    return f.text()


def _interleave(f: Fn, isa: Isa, rows: list) -> str:
    """<len(rows)*W x float>: element k*len(rows)+r is lane k of the vector rows[r] (W
    columns of a row panel, column-major), from a tree of concatenating shuffles and one
    final one (the backend picks the permutes)."""
    w, n = isa.width, len(rows)
    parts = list(rows)
    while len(parts) & (len(parts) - 1):
        parts.append("poison")
    width = w
    while len(parts) > 1:
        t = f"<{width} x float>"
        mask = ", ".join(f"i32 {i}" for i in range(2 * width))
        parts = [f(f"shufflevector {t} {a}, {t} {b}, <{2 * width} x i32> <{mask}>")
                 for a, b in zip(parts[::2], parts[1::2])]
        width *= 2
    t = f"<{width} x float>"
    mask = ", ".join(f"i32 {r * w + k}" for k in range(w) for r in range(n))
    return f(f"shufflevector {t} {parts[0]}, {t} poison, <{n * w} x i32> <{mask}>")


def _pack_a(isa: Isa) -> str:
    """Ap[p][k][0:MR] = A[p*MR : p*MR+MR, k] for rows < mc, k < kc (panel p at
    Ap + p*kc*MR; the rows past mc of the last panel are left unwritten)."""
    mr, w = isa.mr, isa.width
    f = Fn("define internal void @strata_pack_a(i64 %mc, i64 %kc, ptr noalias %A, "
            "i64 %lda, ptr noalias %Ap) #1")

    def panel(i):
        dst = f.gep("%Ap", f.mul(i, "%kc"))
        rows = f.min(f.sub("%mc", i), mr)
        src = f.gep("%A", f.mul(i, "%lda"))

        def copy(m):
            srow = [f.gep(src, f.mul("%lda", r)) if r else src for r in range(m)]

            def cols(k, step):
                d = f.gep(dst, f.mul(k, mr))
                if step == 1:
                    for r in range(m):
                        x = f(f"load float, ptr {f.gep(srow[r], k)}, align 4")
                        f.do(f"store float {x}, ptr {f.gep(d, r) if r else d}, align 4")
                    return
                # a whole panel's W columns: MR vector loads, one interleaving shuffle
                # and one store of MR x W floats (element by element it was ~4% of MLP
                # b64's samples)
                f.do(f"store <{mr * w} x float> "
                     f"{_interleave(f, isa, [vload(f, isa, f.gep(r, k)) for r in srow])}, "
                     f"ptr {d}, align 4")
            if m == mr:
                f.loop_with_tail("%kc", w, cols)
            else:
                f.loop("0", "%kc", 1, lambda k: cols(k, 1))
        f.switch(rows, {m: m for m in range(1, mr + 1)}, copy)
    f.loop("0", "%mc", mr, panel)
    f.do("ret void")
    return f.text()


def _pack_b_public(isa: Isa) -> str:
    """strata_sgemm_pack_b_f32(K, N, B, ldb, Bp): packed(B) for the whole of K (panels
    K x NR, panel p at Bp + p*K*NR); Bp holds packed_b_size(K, N) floats, 64-byte
    aligned."""
    f = Fn("define void @strata_sgemm_pack_b_f32(i64 %K, i64 %N, ptr noalias %B, i64 %ldb, "
            "ptr noalias %Bp) #0")
    f.do("call void @strata_pack_n(i64 %K, i64 %N, ptr %B, i64 %ldb, ptr %Bp)")
    f.do("ret void")
    return f.text()


# ---------------------------------------------------------------- drivers


def _zero(isa: Isa) -> str:
    f = Fn("define internal void @strata_zero(i64 %M, i64 %N, ptr %C, i64 %ldc) #1")

    def row(i):
        c = f.gep("%C", f.mul(i, "%ldc"))
        f.loop("0", "%N", 1, lambda j: f.do(f"store float 0.0, ptr {f.gep(c, j)}, align 4"))
    f.loop("0", "%M", 1, row)
    f.do("ret void")
    return f.text()


def _axpy_name(m: int, kb: int) -> str:
    return f"@strata_axpy_{m}x{kb}"


def _axpy(isa: Isa, m: int, kb: int) -> str:
    """C[m, N] = (first ? 0 : C) + A[m, kb] . B[kb, N]: the m*kb elements of A broadcast
    once, then one pass along the rows of B and C (kb + 2m streams, all contiguous)."""
    W, V = isa.width, vec_type(isa)
    f = Fn(f"define internal void {_axpy_name(m, kb)}(i64 %N, ptr noalias %A, i64 %lda, "
            f"ptr noalias %B, i64 %ldb, ptr noalias %C, i64 %ldc, i1 %first) #1")
    arow = [f.gep("%A", f.mul("%lda", i)) if i else "%A" for i in range(m)]
    a = [[splat(f, isa, f(f"load float, ptr {f.gep(arow[i], t)}, align 4"))
          for t in range(kb)] for i in range(m)]
    brow = [f.gep("%B", f.mul("%ldb", t)) if t else "%B" for t in range(kb)]
    crow = [f.gep("%C", f.mul("%ldc", i)) if i else "%C" for i in range(m)]

    def vector(j, mask=None):
        cs = []
        for i in range(m):
            c = vload(f, isa, f.gep(crow[i], j), mask)
            cs.append(f(f"select i1 %first, {V} zeroinitializer, {V} {c}"))
        for t in range(kb):
            b = vload(f, isa, f.gep(brow[t], j), mask)
            cs = [fma(f, isa, a[i][t], b, cs[i]) for i in range(m)]
        for i in range(m):
            vstore(f, isa, cs[i], f.gep(crow[i], j), mask)
    nmain = f.sub("%N", f(f"srem i64 %N, {W}"))
    f.loop("0", nmain, W, vector)
    tail, done = f.label("tail"), f.label("done")
    f.cbr(f.cmp("slt", nmain, "%N"), tail, done)
    f.start(tail)
    vector(nmain, lane_mask(f, isa, f.sub("%N", nmain)))
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


_AXPY_TILES = ((4, 2), (2, 4), (1, 8))


def _small(isa: Isa) -> str:
    """Small M, B in place: blocks of NB columns; in each, groups of rows (4, 2, 1) pass
    over the rows of B kb at a time (see _axpy), the first pass writing C unless acc."""
    nb = 512
    f = Fn(f"define internal void @strata_gemm_small({_ARGS}, i1 %acc) #1")
    noacc = f("xor i1 %acc, true")

    def nblock(jb):
        ncur = f.min(f.sub("%N", jb), nb)
        lo = "0"
        for m, kb in _AXPY_TILES:
            hi = f.sub("%M", f(f"srem i64 %M, {m}")) if m > 1 else "%M"
            if m == 2:   # rows left after the groups of 4: 0..3, two at a time
                hi = f.sub("%M", f("srem i64 %M, 2"))

            def rows(i, m=m, kb=kb):
                a = f.gep("%A", f.mul(i, "%lda"))
                c = f.gep("%C", f.add(f.mul(i, "%ldc"), jb))

                def ks(k, step):
                    first = f(f"and i1 {noacc}, {f.cmp('eq', k, 0)}")
                    f.do(f"call void {_axpy_name(m, step)}(i64 {ncur}, ptr {f.gep(a, k)}, "
                         f"i64 %lda, ptr {f.gep('%B', f.add(f.mul(k, '%ldb'), jb))}, "
                         f"i64 %ldb, ptr {c}, i64 %ldc, i1 {first})")
                f.loop_with_tail("%K", kb, ks)
            f.loop(lo, hi, m, rows)
            lo = hi
    f.loop("0", "%N", nb, nblock)
    f.do("ret void")
    return f.text()


# Pre-packed B whose A rows hold at most this many floats (2 MB; M = 512 at K = 1024)
# runs the whole K in one block (see _packed_b_kc).
WHOLE_K_A_FLOATS = 1 << 19


def _packed_b_kc(f: Fn, isa: Isa, kc: str) -> str:
    """The K block of a product on pre-packed B (weights), from the tile word's `kc`: the
    whole K for one panel of rows (batch 1: each B panel is used once, K blocks would
    only cut its stream into pieces and reload C; 9-14% faster on MLP-sized GEMVs) and
    for A of at most WHOLE_K_A_FLOATS (MR-rounded rows x K): the B micro-panel outgrows
    L1 and streams from L2 for each row panel, but C is loaded and stored once and the
    micro-kernel runs unbroken; measured 3-7% faster for M = 32 to 512 (MLP b64's and
    MiniLM's products), 11% slower at M = 1024, K = N = 1024. %M and %K: the call's."""
    whole = f("call i64 @llvm.smax.i64(i64 %K, i64 1)")
    rows = f.mul(_round_up(f, "%M", isa.mr), "%K")
    small = f(f"or i1 {f.cmp('sle', '%M', isa.mr)}, {f.cmp('sle', rows, WHOLE_K_A_FLOATS)}")
    return f(f"select i1 {small}, i64 {whole}, i64 {kc}")


# [Note: B packed panel by panel]
# A B read as K x N rows ("n", "np": a 1x1 convolution's image) is packed a K block of
# NC columns at a time, every row block (MC rows of A) then streaming the packed panels.
# With one row block only (M <= MC: MobileNetV2's projections to 16-32 channels, its
# expansions to 96-144), nothing reuses the packed block after its panel's pass: the
# block (up to KC x NC floats, 1.2 MiB for 144 x 2048) only pushed the image out of L2
# while it was packed, and the image's rows were read K streams at a time. There each
# panel is packed just before the row panels use it, into the first panel's place (L1),
# and strata_pack_n prefetches the next panel's part of each row while it copies one.
# Measured at 1 thread (process CPU, onnxruntime in the same loop): 1x1 144 -> 24 on
# 56x56 0.55 -> 0.31 ms (0.85 -> 0.61 x onnxruntime; packing 0.98 of the micro-kernels'
# samples, 0.86 with the prefetch alone, 0.59 with both), 32 -> 16 on 112x112 0.62 ->
# 0.45 x; MobileNetV2 whole: strata_pack_n 11% -> 6% of the samples.
def _blocked(isa: Isa, kind: str) -> str:
    """The blocked driver (see [Note: GEMM kernel design]). kind "n": B is K x N, "t": B
    is given as Bt (N x K), "": B is already packed(B) (ldb unused), "conv": B is the
    implicit im2col matrix of the NCHW image B (see _pack_conv; %cd its parameters), from
    its column %q0 on; "convp", "pp" and "np": "conv", "" and "n" with A (a constant
    filter) packed at compile time whole, MR-row panels of K (pack_a_panels; "np": a 1x1
    stride-1 convolution's, B the image itself). A blocks are packed too when N is at
    least isa.pack_a_min_n (else the copy costs more than it saves)."""
    mr, nr = isa.mr, isa.nr
    prepacked = kind in ("convp", "pp", "np", "npa")
    pack = {"convp": "conv", "pp": "", "np": "n", "npa": "n"}.get(kind, kind)
    name = f"@strata_gemm_blocked_{_KIND_NAMES[BLOCKED_KINDS[kind]]}"
    f = Fn(f"define internal void {name}({BLOCKED_ARGS}) #1")
    # the blocking, from the tile word (see [Note: the tile word])
    kc = _tile_field(f, "kc", isa.kc)
    if pack == "conv":
        kc = f.min(kc, isa.kc)
    if kind in ("", "pp"):      # (pp: a convolution's image packed whole, K x NR panels)
        kc = _packed_b_kc(f, isa, kc)
    mc = _round_up(f, _tile_field(f, "mc", isa.mc), mr)
    nc = _round_up(f, _tile_field(f, "nc", isa.nc), nr)
    by_row = f(f"icmp ne i32 {f(f'and i32 %epi, {EPI_ROW_BIAS}')}, 0")
    # one block of rows: B packed panel by panel ([Note: B packed panel by panel])
    # (not with an input prologue: strata_pack_n_<act> packs the whole block)
    by_panel = f.cmp("sle", "%M", mc) if kind in ("n", "np") else "false"
    # buffers no bigger than the problem needs: B block kcb x ncb, A block mcb x kcb
    kcb = f.min(kc, "%K")
    ncb = f.min(nc, _round_up(f, "%N", nr))
    mcb = f.min(mc, _round_up(f, "%M", mr))
    b_floats = f.mul(kcb, ncb) if pack else "0"
    a_floats = f.mul(mcb, kcb)
    raw = checked_malloc(f, f.add(f.mul(f.add(f.add(b_floats, a_floats), nr), 4), 64),
                         "gemm")
    addr = f(f"ptrtoint ptr {raw} to i64")
    buf = f.gep(raw, f(f"sub i64 64, {f(f'and i64 {addr}, 63')}"), "i8")
    abuf = f.gep(buf, b_floats)
    # (fewer rows than a panel: read in place, each row one stream; packed, they would
    # be strided by MR)
    # (the tile word's apack field may force either: [Note: the tile word])
    if prepacked:
        packa = "true"
    else:
        ap = _apack(f)
        wide = f.cmp("sge", "%N", isa.pack_a_min_n)
        rule = f(f"select i1 {f.cmp('eq', ap, APACK_AUTO)}, i1 {wide}, "
                 f"i1 {f.cmp('eq', ap, APACK_YES)}")
        packa = f(f"and i1 {rule}, {f.cmp('sge', '%M', mr)}")
    if pack != "conv" and not prepacked:
        # %cd, when not null: A packed whole by strata_gemm_parallel (block (ic, pc) at
        # cd + pc * Mp + ic * kcur, see _prepack_a): the slices share it
        pre = f(f"icmp ne ptr %cd, null")
        packa = f(f"or i1 {packa}, {pre}")
        mp = _round_up(f, "%M", mr)

    def jblock(jc):
        ncur = f.min(f.sub("%N", jc), nc)

        def kblock(pc):
            kcur = f.min(f.sub("%K", pc), kc)
            acc = f(f"or i1 %acc, {f.cmp('sgt', pc, 0)}")
            # the epilogue with the last K block only
            epi = f(f"select i1 {f.cmp('sge', f.add(pc, kcur), '%K')}, i32 %epi, i32 0")
            if pack == "n":
                src = f.gep("%B", f.add(f.mul(pc, "%ldb"), jc))
            elif pack == "t":
                src = f.gep("%B", f.add(f.mul(jc, "%ldb"), pc))
            if kind == "npa":   # %cd: scale, shift, the code ([Note: input prologues])
                pro = [f(f"load i64, ptr {f.gep('%cd', i, 'i64')}, align 8")
                       for i in range(3)]
                rows = "".join(
                    f", ptr {f.gep(f(f'inttoptr i64 {pro[i]} to ptr'), pc)}"
                    for i in range(2))
                f.switch(pro[2], {code: name for name, code in PRO_ACTS.items()},
                         lambda name: f.do(
                             f"call void @strata_pack_n_{name}(i64 {kcur}, i64 {ncur}, "
                             f"ptr {src}, i64 %ldb, ptr {buf}{rows})"))
            elif pack == "conv":
                f.do(f"call void @strata_pack_conv(i64 {kcur}, i64 {ncur}, i64 {pc}, "
                     f"i64 {f.add(jc, '%q0')}, ptr %B, ptr %cd, ptr {buf})")
            elif pack == "n":
                # [Note: B packed panel by panel]: one row block, B's panels packed one
                # at a time, just before their use (in `panel`)
                whole, each = f.label("bwhole"), f.label("beach")
                f.cbr(by_panel, each, whole)
                f.start(whole)
                f.do(f"call void @strata_pack_n(i64 {kcur}, i64 {ncur}, ptr {src}, "
                     f"i64 %ldb, ptr {buf})")
                f.br(each)
                f.start(each)
            elif pack:
                f.do(f"call void @strata_pack_{pack}(i64 {kcur}, i64 {ncur}, ptr {src}, "
                     f"i64 %ldb, ptr {buf})")

            def iblock(ic):
                mcur = f.min(f.sub("%M", ic), mc)
                a = f.gep("%A", f.add(f.mul(ic, "%lda"), pc))
                yes, no, join = f.label("pa"), f.label("npa"), f.label("jpa")
                f.cbr(packa, yes, no)
                for lbl, apack in ((yes, True), (no, False)):
                    f.start(lbl)
                    ablk = abuf
                    alda = kcur if apack else "%lda"
                    if prepacked:
                        # MR-row panels of the whole K: rows ic.., columns pc..
                        ablk = f.gep("%A", f.add(f.mul(ic, "%K"), f.mul(pc, mr)))
                        alda = "%K"
                    if apack and pack != "conv" and not prepacked:
                        ablk = f(f"select i1 {pre}, ptr "
                                 f"{f.gep('%cd', f.add(f.mul(pc, mp), f.mul(ic, kcur)))}, "
                                 f"ptr {abuf}")
                        own, packed = f.label("own"), f.label("shared")
                        f.cbr(pre, packed, own)
                        f.start(own)
                    if apack and not prepacked:
                        f.do(f"call void @strata_pack_a(i64 {mcur}, i64 {kcur}, ptr {a}, "
                             f"i64 %lda, ptr {abuf})")
                    if apack and pack != "conv" and not prepacked:
                        f.br(packed)
                        f.start(packed)

                    def panel(jr, apack=apack, ablk=ablk, alda=alda):
                        nvalid = f.min(f.sub(ncur, jr), nr)
                        if pack == "n":
                            b = f.gep(buf, f.mul(jr, kcur))
                            now, later = f.label("bnow"), f.label("bready")
                            f.cbr(by_panel, now, later)
                            f.start(now)
                            f.do(f"call void @strata_pack_n(i64 {kcur}, i64 {nvalid}, ptr "
                                 f"{f.gep(src, jr)}, i64 %ldb, ptr {buf})")
                            f.br(later)
                            f.start(later)
                            b = f(f"select i1 {by_panel}, ptr {buf}, ptr {b}")
                        elif pack:
                            b = f.gep(buf, f.mul(jr, kcur))
                        else:   # panel (jc+jr)/NR of packed(B), rows from pc
                            b = f.gep("%B", f.add(f.mul(f.add(jc, jr), "%K"), f.mul(pc, nr)))
                        c = f.gep("%C", f.add(f.mul(ic, "%ldc"), f.add(jc, jr)))
                        # the bias of the panel's columns, or of the block's rows
                        at = f(f"select i1 {by_row}, i64 {ic}, i64 {f.add(jc, jr)}")
                        bias = f(f"getelementptr float, ptr %bias, i64 {at}")
                        # pre-packed B: the next panel of the block, prefetched
                        nextb = "null"
                        if not pack and apack:
                            nextb = f(f"select i1 {f.cmp('slt', f.add(jr, nr), ncur)}, ptr "
                                      f"{f.gep(b, f.mul('%K', nr))}, ptr null")
                        # filters packed at compile time come from memory on the
                        # first column panel's pass: each row panel prefetches the next
                        # (same process, three distinct filters each: ResNet's stride-2
                        # convolutions 2-5% faster)
                        pfa = f.cmp("eq", jr, 0) if prepacked and apack else "false"
                        f.do(f"call void {_rows_name(apack)}(i64 {mcur}, i64 {kcur}, "
                             f"ptr {ablk if apack else a}, i64 {alda}, ptr {b}, ptr {c}, "
                             f"i64 %ldc, i64 {nvalid}, i1 {acc}, ptr {bias}, i32 {epi}, "
                             f"ptr {nextb}, i1 {pfa})")
                    f.loop("0", ncur, nr, panel)
                    f.br(join)
                f.start(join)
            f.loop("0", "%M", mc, iblock)
        f.loop("0", "%K", kc, kblock)
    f.loop("0", "%N", nc, jblock)
    f.do(f"call void @free(ptr {raw})")
    f.do("ret void")
    return f.text()


# Threads: the blocked drivers split C's columns (or rows, when it has few columns) into
# one slice per thread of the pool (threadpool.py, strata_parallel_for) for products of
# at least PAR_MIN_MACS multiply-adds; batches of smaller products are split by product,
# chunks of at least CHUNK_MIN_MACS.
PAR_MIN_MACS = 1 << 19
SLICES_PER_THREAD = 3
SLICE_MIN_UNITS = 8
CHUNK_MIN_MACS = 1 << 17
_WORK_FIELDS = ("kind", "M", "N", "K", "A", "lda", "B", "ldb", "C", "ldc", "acc", "cd", "q0",
                "tile", "bias", "epi", "by_n", "per")
_FIELD_TYPES = {"A": "ptr", "B": "ptr", "C": "ptr", "cd": "ptr", "acc": "i1", "by_n": "i1",
                "bias": "ptr", "epi": "i32"}


_KIND_NAMES = {0: "n", 1: "t", 2: "p", 3: "conv", 4: "convp", 5: "pp", 6: "np", 7: "npa"}


def _call_blocked(f: Fn, kind: str, v: dict) -> None:
    """switch on the kind value, calling that blocked driver with the values `v`."""
    names = _KIND_NAMES
    args = (f"i64 {v['M']}, i64 {v['N']}, i64 {v['K']}, ptr {v['A']}, i64 {v['lda']}, "
            f"ptr {v['B']}, i64 {v['ldb']}, ptr {v['C']}, i64 {v['ldc']}, i1 {v['acc']}, "
            f"ptr {v['cd']}, i64 {v['q0']}, i64 {v['tile']}, ptr {v['bias']}, "
            f"i32 {v['epi']}")
    f.switch(kind, {k: k for k in names}, lambda k: f.do(
        f"call void @strata_gemm_blocked_{names[k]}({args})"))


def _store_work(f: Fn, fields, types, v: dict) -> str:
    """An alloca holding the values `v` of `fields` as i64s: the context a parallel
    chunk function reads back with _load_work."""
    work = f(f"alloca [{len(fields)} x i64], align 8")
    for i, x in enumerate(fields):
        val, ty = v[x], types.get(x, "i64")
        if ty == "ptr":
            val = f(f"ptrtoint ptr {val} to i64")
        elif ty != "i64":
            val = f(f"zext {ty} {val} to i64")
        f.do(f"store i64 {val}, ptr {f.gep(work, i, 'i64')}, align 8")
    return work


def _pool_call(f: Fn, chunk: str, fields, types, v: dict, n: str, per_item: str,
               min_work: int) -> None:
    """strata_parallel_for of `chunk` over n items of `per_item` work each, the values `v`
    of `fields` its context (_store_work), chunks of at least `min_work`."""
    grain = f(f"sdiv i64 {f.add(per_item, min_work - 1)}, {per_item}")
    work = _store_work(f, fields, types, v)
    f.do(f"call void @strata_parallel_for(ptr {chunk}, ptr {work}, i64 {n}, i64 {grain})")


def _load_work(f: Fn, fields, types) -> dict:
    """The fields stored by _store_work at %work, as values."""
    v = {}
    for i, x in enumerate(fields):
        raw = f(f"load i64, ptr {f.gep('%work', i, 'i64')}, align 8")
        ty = types.get(x, "i64")
        if ty == "ptr":
            raw = f(f"inttoptr i64 {raw} to ptr")
        elif ty != "i64":
            raw = f(f"trunc i64 {raw} to {ty}")
        v[x] = raw
    return v


def _parallel(isa: Isa) -> str:
    """strata_gemm_parallel(kind, <blocked driver arguments>): the blocked driver of
    `kind` (see BLOCKED_KINDS), on slices of C run by the thread pool, split as the tile
    word says (see [Note: the tile word])."""
    mr, nr = isa.mr, isa.nr
    f = Fn(f"define internal void @strata_gemm_parallel(i64 %kind, {BLOCKED_ARGS}) #1")
    v = {x: f"%{x}" for x in _WORK_FIELDS}
    t_req = f(f"sext i32 {f('call i32 @strata_get_num_threads()')} to i64")
    macs = f.mul(f.mul("%M", "%N"), "%K")
    auto_n = f.cmp("sge", "%N", f.mul(t_req, 2 * nr))
    by_m = f.cmp("sge", "%M", f.mul(t_req, 2 * mr))
    auto = all_of(f, [f.cmp("sgt", t_req, 1), f.cmp("sge", macs, PAR_MIN_MACS),
                      f(f"or i1 {auto_n}, {by_m}")])
    split = _tile_field(f, "split", SPLIT_AUTO)
    is_auto = f.cmp("eq", split, SPLIT_AUTO)
    forced = all_of(f, [f.cmp("sgt", t_req, 1), f.cmp("ne", split, SPLIT_NONE)])
    go = f(f"select i1 {is_auto}, i1 {auto}, i1 {forced}")
    by_n = f(f"select i1 {is_auto}, i1 {auto_n}, i1 {f.cmp('eq', split, SPLIT_N)}")
    one, many, done = f.label("one"), f.label("many"), f.label("done")
    f.cbr(go, many, one)
    f.start(one)
    _call_blocked(f, "%kind", v)
    f.br(done)
    f.start(many)
    # slices: multiples of NR columns, else of MR rows; as many per thread (up to
    # SLICES_PER_THREAD: a thread the system runs late takes fewer) as leave each one
    # SLICE_MIN_UNITS units at least (row slices each pack their own A blocks)
    size = f(f"select i1 {by_n}, i64 %N, i64 %M")
    unit = f(f"select i1 {by_n}, i64 {nr}, i64 {mr}")
    units = f(f"sdiv i64 {f.sub(f.add(size, unit), 1)}, {unit}")
    min_units = _tile_field(f, "min_units", SLICE_MIN_UNITS)
    k = f(f"sdiv i64 {units}, {f.mul(t_req, min_units)}")
    k = f.min(k, _tile_field(f, "slices", SLICES_PER_THREAD))
    k = f(f"call i64 @llvm.smax.i64(i64 {k}, i64 1)")
    want = f.mul(t_req, k)
    # column slices of a B packed at run time are cut in vectors (the narrow
    # micro-kernels take a half panel: [Note: narrow micro-kernels]); pre-packed B in
    # whole NR panels
    if isa.nv > 1:
        packed = f(f"or i1 {f.cmp('eq', '%kind', BLOCKED_KINDS[''])}, "
                   f"{f.cmp('eq', '%kind', BLOCKED_KINDS['pp'])}")
        fine = f(f"and i1 {by_n}, {f('xor i1 ' + packed + ', true')}")
        unit = f(f"select i1 {fine}, i64 {isa.width}, i64 {unit}")
        units = f(f"sdiv i64 {f.sub(f.add(size, unit), 1)}, {unit}")
    per = f.mul(f(f"sdiv i64 {f.sub(f.add(units, want), 1)}, {want}"), unit)
    slices = f(f"sdiv i64 {f.sub(f.add(size, per), 1)}, {per}")
    v["by_n"], v["per"] = by_n, per
    # Column slices all read the whole of A: it is packed once here, by all the threads,
    # instead of once per slice (one slice per thread packed it whole on each thread:
    # MiniLM's pack_a 3.7% -> 2.7% of samples; not for convolutions: %cd is theirs)
    share = all_of(f, [by_n, f.cmp("slt", "%kind", BLOCKED_KINDS["conv"]),
                       f.cmp("sge", per, isa.pack_a_min_n), f.cmp("sgt", slices, 1),
                       f.cmp("sge", "%M", mr), f.cmp("ne", _apack(f), APACK_NO)])
    pre_l, run_l = f.label("prepack"), f.label("slices")
    entry = f.block
    f.cbr(share, pre_l, run_l)
    f.start(pre_l)
    kc = _tile_field(f, "kc", isa.kc)
    # the K blocks the blocked driver will use (pre-packed B: see _packed_b_kc)
    kc = f(f"select i1 {f.cmp('eq', '%kind', BLOCKED_KINDS[''])}, i64 "
           f"{_packed_b_kc(f, isa, kc)}, i64 {kc}")
    mp = _round_up(f, "%M", mr)
    apre = checked_malloc(f, checked_bytes(f, [mp, "%K", 4]), "gemm_a")
    # packed by the pool too, MR-row panels in chunks (on the calling thread alone it was
    # ~7% of MLP b64's time, the other thread idle)
    pw = _store_work(f, _PREPACK_FIELDS, _PREPACK_TYPES,
                     {"M": "%M", "K": "%K", "kc": kc, "A": "%A", "lda": "%lda", "Ap": apre,
                      "Mp": mp})
    f.do(f"call void @strata_parallel_for(ptr @strata_gemm_prepack, ptr {pw}, "
         f"i64 {f(f'sdiv i64 {mp}, {mr}')}, i64 {PREPACK_GRAIN})")
    pre_end = f.block
    f.br(run_l)
    f.start(run_l)
    v["cd"] = f(f"phi ptr [ {apre}, %{pre_end} ], [ %cd, %{entry} ]")
    work = _store_work(f, _WORK_FIELDS, _FIELD_TYPES, v)
    f.do(f"call void @strata_parallel_for(ptr @strata_gemm_slices, ptr {work}, "
         f"i64 {slices}, i64 1)")
    freed, kept = f.label("free"), f.label("kept")
    f.cbr(share, freed, kept)
    f.start(freed)
    f.do(f"call void @free(ptr {v['cd']})")
    f.br(kept)
    f.start(kept)
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


# The shared packing of A (strata_gemm_parallel): chunks of at least PREPACK_GRAIN
# MR-row panels.
PREPACK_GRAIN = 2
_PREPACK_FIELDS = ("M", "K", "kc", "A", "lda", "Ap", "Mp")
_PREPACK_TYPES = {"A": "ptr", "Ap": "ptr"}


def _prepack(isa: Isa) -> str:
    """strata_gemm_prepack(work, lo, hi): MR-row panels lo..hi-1 of the A that
    strata_gemm_parallel packs whole for its column slices, each K block pc at
    Ap + pc * Mp (the panels of rows i.. at i * kcur in it, as strata_pack_a lays them)."""
    f = Fn("define internal void @strata_gemm_prepack(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _PREPACK_FIELDS, _PREPACK_TYPES)
    r0 = f.mul("%lo", isa.mr)
    m = f.sub(f.min(f.mul("%hi", isa.mr), v["M"]), r0)

    def kblock(pc):
        kcur = f.min(f.sub(v["K"], pc), v["kc"])
        src = f.gep(v["A"], f.add(f.mul(r0, v["lda"]), pc))
        dst = f.gep(v["Ap"], f.add(f.mul(pc, v["Mp"]), f.mul(r0, kcur)))
        f.do(f"call void @strata_pack_a(i64 {m}, i64 {kcur}, ptr {src}, i64 {v['lda']}, "
             f"ptr {dst})")
    f.loop("0", v["K"], v["kc"], kblock)
    f.do("ret void")
    return f.text()


def _slices() -> str:
    """strata_gemm_slices(work, lo, hi): slices lo..hi-1 of strata_gemm_parallel."""
    f = Fn("define internal void @strata_gemm_slices(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _WORK_FIELDS, _FIELD_TYPES)
    by_n, per = v["by_n"], v["per"]
    size = f(f"select i1 {by_n}, i64 {v['N']}, i64 {v['M']}")
    # along N: B and C move by lo columns (B's step depends on its layout), q0 too;
    # B's elements per column: n 1, t ldb, packed K (panels of K x NR), convolutions 0
    kind = v["kind"]
    packed = f(f"or i1 {f.cmp('eq', kind, 2)}, {f.cmp('eq', kind, 5)}")
    packed_step = f(f"select i1 {packed}, i64 {v['K']}, i64 1")
    bstep = f(f"select i1 {f.cmp('eq', kind, 1)}, i64 {v['ldb']}, i64 {packed_step}")
    conv = f(f"or i1 {f.cmp('eq', kind, 3)}, {f.cmp('eq', kind, 4)}")
    bstep = f(f"select i1 {conv}, i64 0, i64 {bstep}")

    def one(t):
        lo = f.min(f.mul(t, per), size)
        n = f.sub(f.min(f.add(lo, per), size), lo)
        w = dict(v)
        w["N"] = f(f"select i1 {by_n}, i64 {n}, i64 {v['N']}")
        w["M"] = f(f"select i1 {by_n}, i64 {v['M']}, i64 {n}")
        boff = f(f"select i1 {by_n}, i64 {f.mul(lo, bstep)}, i64 0")
        coff = f(f"select i1 {by_n}, i64 {lo}, i64 {f.mul(lo, v['ldc'])}")
        aoff = f(f"select i1 {by_n}, i64 0, i64 {f.mul(lo, v['lda'])}")
        w["A"] = f.gep(v["A"], aoff)
        w["B"] = f.gep(v["B"], boff)
        w["C"] = f.gep(v["C"], coff)
        # a bias per column moves with column slices, one per row with row slices
        epi = v["epi"]
        by_row = f(f"icmp ne i32 {f(f'and i32 {epi}, {EPI_ROW_BIAS}')}, 0")
        moved = f(f"icmp eq i1 {by_n}, {f(f'xor i1 {by_row}, true')}")
        w["bias"] = f(f"getelementptr float, ptr {v['bias']}, "
                      f"i64 {f(f'select i1 {moved}, i64 {lo}, i64 0')}")
        w["q0"] = f(f"select i1 {by_n}, i64 {f.add(v['q0'], lo)}, i64 {v['q0']}")
        _call_blocked(f, kind, w)
    f.loop("%lo", "%hi", 1, one)
    f.do("ret void")
    return f.text()


# The batched kernels run their products in parallel chunks of the batch when each one is
# too small to be split (below PAR_MIN_MACS), or the tile word says SPLIT_NONE.
_BATCH_FIELDS = ("nt", "count", "M", "N", "K", "A", "lda", "sA", "B", "ldb", "sB", "C",
                 "ldc", "sC", "accumulate", "tile")
_BATCH_TYPES = {"A": "ptr", "B": "ptr", "C": "ptr", "accumulate": "i32"}
_BATCH_ARGS = ("i64 %nt, i64 %count, i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, i64 %sA, "
               "ptr %B, i64 %ldb, i64 %sB, ptr %C, i64 %ldc, i64 %sC, i32 %accumulate, "
               "i64 %tile")


def _batch_ir() -> str:
    """strata_batch_range (count products in a row), its chunk function for the pool,
    and the two public batched kernels."""
    out = []
    f = Fn(f"define internal void @strata_batch_range({_BATCH_ARGS}) #1")
    nt = f.cmp("ne", "%nt", 0)

    def one(b):
        args = (f"i64 %M, i64 %N, i64 %K, ptr {f.gep('%A', f.mul(b, '%sA'))}, i64 %lda, "
                f"ptr {f.gep('%B', f.mul(b, '%sB'))}, i64 %ldb, "
                f"ptr {f.gep('%C', f.mul(b, '%sC'))}, i64 %ldc, i32 %accumulate, i64 %tile")
        yes, no, done = f.label("bt"), f.label("bn"), f.label("bd")
        f.cbr(nt, yes, no)
        for lbl, name in ((yes, "strata_sgemm_nt_f32"), (no, "strata_sgemm_f32")):
            f.start(lbl)
            f.do(f"call void @{name}({args})")
            f.br(done)
        f.start(done)
    f.loop("0", "%count", 1, one)
    f.do("ret void")
    out.append(f.text())

    f = Fn("define internal void @strata_batch_chunk(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _BATCH_FIELDS, _BATCH_TYPES)
    v["count"] = f.sub("%hi", "%lo")
    for x in "ABC":
        v[x] = f.gep(v[x], f.mul("%lo", v[f"s{x}"]))
    f.do(f"call void @strata_batch_range({_batch_args(v)})")
    f.do("ret void")
    out.append(f.text())

    for name, nt_value in (("strata_sgemm_batched_f32", 0), ("strata_sgemm_nt_batched_f32", 1)):
        f = Fn(f"define void @{name}(i64 %batch, i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, "
                "i64 %sA, ptr %B, i64 %ldb, i64 %sB, ptr %C, i64 %ldc, i64 %sC, "
                "i32 %accumulate, i64 %tile) #0")
        v = {x: f"%{x}" for x in _BATCH_FIELDS}
        v["nt"], v["count"] = str(nt_value), "%batch"
        item = f(f"call i64 @llvm.smax.i64(i64 {f.mul(f.mul('%M', '%N'), '%K')}, i64 1)")
        one_l, many, done = f.label("one"), f.label("many"), f.label("done")
        # small products, or products the tile word runs on one thread each
        whole = f.cmp("eq", _tile_field(f, "split", SPLIT_AUTO), SPLIT_NONE)
        f.cbr(f(f"or i1 {f.cmp('slt', item, PAR_MIN_MACS)}, {whole}"), many, one_l)
        f.start(one_l)      # big products: one after the other, each split
        f.do(f"call void @strata_batch_range({_batch_args(v)})")
        f.br(done)
        f.start(many)       # small ones: chunks of the batch in parallel
        _pool_call(f, "@strata_batch_chunk", _BATCH_FIELDS, _BATCH_TYPES, v, "%batch",
                   item, CHUNK_MIN_MACS)
        f.br(done)
        f.start(done)
        f.do("ret void")
        out.append(f.text())
    return "\n".join(out)


def _batch_args(v: dict) -> str:
    return ", ".join(f"{_BATCH_TYPES.get(x, 'i64')} {v[x]}" for x in _BATCH_FIELDS)


def _dot_name(dm: int, dn: int) -> str:
    return f"@strata_dot_{dm}x{dn}"


def _dot(isa: Isa, dm: int, dn: int) -> str:
    """C[dm, dn] (+)= A[dm, K] . Bt[dn, K]^T: dm*dn accumulators along K, masked K tail,
    horizontal sums at the end."""
    W, V = isa.width, vec_type(isa)
    f = Fn(f"define internal void {_dot_name(dm, dn)}(i64 %K, ptr noalias %A, i64 %lda, "
            f"ptr noalias %B, i64 %ldb, ptr noalias %C, i64 %ldc, i1 %acc) #1")
    arow = [f.gep("%A", f.mul("%lda", i)) if i else "%A" for i in range(dm)]
    brow = [f.gep("%B", f.mul("%ldb", j)) if j else "%B" for j in range(dn)]
    kmain = f.sub("%K", f(f"srem i64 %K, {W}"))

    def step(k, accs, mask=None):
        av = [vload(f, isa, f.gep(arow[i], k), mask) for i in range(dm)]
        out = list(accs)
        for j in range(dn):
            b = vload(f, isa, f.gep(brow[j], k), mask)
            for i in range(dm):
                out[i * dn + j] = fma(f, isa, av[i], b, out[i * dn + j])
        return out
    accs = f.loop("0", kmain, W, step, [(V, "zeroinitializer")] * (dm * dn))
    mask = lane_mask(f, isa, f.sub("%K", kmain))
    accs = step(kmain, accs, mask)
    for i in range(dm):
        crow = f.gep("%C", f.mul("%ldc", i)) if i else "%C"
        for j in range(dn):
            s = f(f"call reassoc float @llvm.vector.reduce.fadd.v{W}f32(float -0.0, "
                  f"{V} {accs[i * dn + j]})")
            p = f.gep(crow, j)
            old = f(f"load float, ptr {p}, align 4")
            new = f(f"select i1 %acc, float {f(f'fadd float {old}, {s}')}, float {s}")
            f.do(f"store float {new}, ptr {p}, align 4")
    f.do("ret void")
    return f.text()


_DOT_TILES = ((2, 4), (1, 8), (2, 1), (1, 1))


def _dot_driver(isa: Isa) -> str:
    """Small M, B given transposed: 2 rows x 4 columns at a time (1 x 8 for a single
    row), then the tails."""
    f = Fn(f"define internal void @strata_gemm_dot({_ARGS}, i1 %acc) #1")

    def tiles(dm, dn, m_lo, m_hi):
        def rows(i):
            a = f.gep("%A", f.mul(i, "%lda"))
            c0 = f.gep("%C", f.mul(i, "%ldc"))

            def cols(j, step):
                f.do(f"call void {_dot_name(dm, step)}(i64 %K, ptr {a}, i64 %lda, "
                     f"ptr {f.gep('%B', f.mul(j, '%ldb'))}, i64 %ldb, ptr {f.gep(c0, j)}, "
                     f"i64 %ldc, i1 %acc)")
            f.loop_with_tail("%N", dn, cols)
        f.loop(m_lo, m_hi, dm, rows)
    mpair = f.sub("%M", f("srem i64 %M, 2"))
    tiles(2, 4, "0", mpair)
    tiles(1, 8, mpair, "%M")
    f.do("ret void")
    return f.text()


# [Note: few rows on packed B]
# A product of at most GEMV_MAX_ROWS rows on pre-packed B (strata_sgemm_packed[_epi]_f32
# at batch 1: an MLP's Linear layers, a classifier head) is a matrix-vector product:
# each weight is used by those rows only, once, so the time is that of streaming the
# packed panels from L3 or memory (4 MB for 1024 x 1024: MLP 784-1024-1024-10 runs
# 7.3 MB of weights per call), not of the multiply-adds. The blocked driver ran it one
# NR panel after the other (one stream), with a scratch buffer malloc'd per slice and
# the per-panel set-up of the rows driver. strata_gemv_packed instead streams
# gemv_panels panels at once (4 on AVX-512: several sequential streams, which the
# hardware prefetchers run in parallel), the rows' accumulators of all of them in
# registers for the whole K (no K blocks: C is written once, by strata_gemv_store_<m>,
# the micro-kernels' epilogue), allocating nothing. Threads split the panels
# (strata_parallel_for over the panels, chunks of at least GEMV_CHUNK_MIN_FLOATS of B,
# each cut into groups of 4, 2, then single panels) from GEMV_PAR_MIN_FLOATS of packed
# B; smaller products run on the calling thread (waking the pool costs more than half
# of their stream), as do all when the tile word's split field says SPLIT_NONE; the
# word's blocking does not apply (nothing is blocked). The guided schedule's last
# claims are single panels (128 KB at K = 1024), so the threads finish within a few
# microseconds of each other; claims of whole groups of 4 (512 KB) could leave one
# thread idle for ~25 us at the end of each layer (reasoned, not measured: the machine
# was never quiet).
# Measured on the MLP's three products at 1 thread (AVX-512, process CPU time, same
# process, interleaved, 7.3 MB of weights out of L2, a machine at load 10-14): weights
# 64-byte aligned (as a model loaded from the compiled-model cache has them), 0.975-0.985
# of the blocked driver's time (which streamed ~21.5 GB/s already: both bandwidth-bound);
# 16-byte aligned (NumPy's, and a fresh compile's: target.WEIGHT_ALIGNMENT), where the
# single stream's loads split cache lines, 0.88 (blocked 18.1 GB/s, one panel at a time
# without its set-up 19.0, 2 panels 20.3, 4 panels 20.6-21.2; OpenBLAS's sgemv on the
# unpacked weights 20.3-20.5). The whole MLP at batch 1 (bench/models.py's mlp1), fresh
# compiles, 1 thread: 0.96-0.98 of before, 0.91-0.92 x onnxruntime.
GEMV_MAX_ROWS = 4
GEMV_PAR_MIN_FLOATS = 1 << 17
GEMV_CHUNK_MIN_FLOATS = 1 << 15
_GEMV_FIELDS = ("M", "N", "K", "A", "lda", "B", "C", "ldc", "acc", "bias", "epi")
_GEMV_TYPES = {"A": "ptr", "B": "ptr", "C": "ptr", "bias": "ptr", "acc": "i1", "epi": "i32"}
_GEMV_ARGS = ("i64 %M, i64 %N, i64 %K, ptr noalias %A, i64 %lda, ptr noalias %B, "
              "ptr noalias %C, i64 %ldc, i1 %acc, ptr %bias, i32 %epi")


def gemv_panels(isa: Isa, m: int) -> int:
    """Panels a few-rows block of `m` rows streams at once: 4 (2 for 3 or 4 rows), as
    many as leave room in the vector registers for the accumulators (m x panels x NV)."""
    regs = 32 if isa.name in ("avx512", "neon") else 16
    p = 4 if m <= 2 else 2
    while p > 1 and m * p * isa.nv + p * isa.nv + 1 > regs:
        p //= 2
    return p


def _gemv_groups(p: int) -> list:
    """The group sizes a range of panels is cut into, from the widest block's `p` down
    to 2 (then single panels): 4, 2 for 4."""
    out = []
    while p > 1:
        out.append(p)
        p //= 2
    return out


def _gemv_store(isa: Isa, m: int, narrow: bool) -> str:
    """strata_gemv_store_<m>[_n1](C, ldc, nvalid, acc, bias, epi, x...): the m x NR tile
    of accumulators x (m x NV vectors, one per row for _n1) to C as the micro-kernels'
    epilogue stores it (+ C when acc, bias, activation, masked past nvalid)."""
    V, W = vec_type(isa), isa.width
    nv = 1 if narrow else isa.nv
    xs = ", ".join(f"{V} %x{k}" for k in range(m * nv))
    f = Fn(f"define internal void @strata_gemv_store_{m}{'_n1' if narrow else ''}(ptr %C, "
           f"i64 %ldc, i64 %nvalid, i1 %acc, ptr %bias, i32 %epi, {xs}) #1")
    crow = [f.gep("%C", f.mul("%ldc", i)) if i else "%C" for i in range(m)]
    cptr = [[f.gep(crow[i], v * W) if v else crow[i] for v in range(nv)] for i in range(m)]
    masks = [lane_mask(f, isa, f.sub("%nvalid", v * W) if v else "%nvalid")
             for v in range(nv)]
    done = f.label("done")
    _epilogue_store(f, isa, m, [f"%x{k}" for k in range(m * nv)], cptr, masks,
                    f.cmp("eq", "%nvalid", nv * W), done)
    f.start(done)
    f.do("ret void")
    return f.text()


def _gemv_block(isa: Isa, m: int, p: int, narrow: bool) -> str:
    """strata_gemv_<m>x<p>[_n1](K, A, lda, B, C, ldc, N, col, acc, bias, epi): C's m rows
    at the p panels of columns col.. (B and C: at the first of them; B's panels K x NR
    apart) over the whole K, then each panel's tile stored (its valid columns: N - its
    first; the bias of its columns, or of the rows)."""
    nr = isa.nr
    nv = 1 if narrow else isa.nv
    name = f"@strata_gemv_{m}x{p}{'_n1' if narrow else ''}"
    f = Fn(f"define internal void {name}(i64 %K, ptr noalias %A, i64 %lda, ptr noalias %B, "
           f"ptr noalias %C, i64 %ldc, i64 %N, i64 %col, i1 %acc, ptr %bias, i32 %epi) #1")
    step = f.mul("%K", nr)
    panels = ["%B"] + [f.gep("%B", f.mul(step, j)) for j in range(1, p)]
    arow = [f.gep("%A", f.mul("%lda", i)) if i else "%A" for i in range(m)]
    accs = ukr_accumulate(f, isa, m, arow, lambda k: k, nv=nv, panels=panels)
    by_row = f(f"icmp ne i32 {f(f'and i32 %epi, {EPI_ROW_BIAS}')}, 0")
    V = vec_type(isa)
    for j in range(p):
        c0 = f.add("%col", j * nr) if j else "%col"
        nvalid = f.min(f.sub("%N", c0), nr)
        bias = f(f"getelementptr float, ptr %bias, i64 "
                 f"{f(f'select i1 {by_row}, i64 0, i64 {c0}')}")
        xs = ", ".join(f"{V} {accs[(i * p + j) * nv + v]}" for i in range(m)
                       for v in range(nv))
        f.do(f"call void @strata_gemv_store_{m}{'_n1' if narrow else ''}"
             f"(ptr {f.gep('%C', j * nr) if j else '%C'}, i64 %ldc, i64 {nvalid}, "
             f"i1 %acc, ptr {bias}, "
             f"i32 %epi, {xs})")
    f.do("ret void")
    return f.text()


def _gemv_range(isa: Isa) -> str:
    """strata_gemv_range(<_GEMV_ARGS>, lo, hi): the panels lo..hi-1 of the product, by
    the blocks of its row count (1..GEMV_MAX_ROWS): groups of gemv_panels, then of half
    as many..., then one at a time (a last panel of one vector or less through the
    narrow block)."""
    nr, W = isa.nr, isa.width
    f = Fn(f"define internal void @strata_gemv_range({_GEMV_ARGS}, i64 %lo, i64 %hi) #1")

    def rows(m):
        p = gemv_panels(isa, m)
        args = "i64 %K, ptr %A, i64 %lda"
        tail = "i64 %ldc, i64 %N, i64 {col}, i1 %acc, ptr %bias, i32 %epi"

        def call(q, at, narrow=False):
            col = f.mul(at, nr)
            f.do(f"call void @strata_gemv_{m}x{q}{'_n1' if narrow else ''}({args}, "
                 f"ptr {f.gep('%B', f.mul(col, '%K'))}, ptr {f.gep('%C', col)}, "
                 + tail.format(col=col) + ")")
        grouped = "%lo"     # (the end of the groups: where the next ones start)
        for q in _gemv_groups(p):
            n = f.sub("%hi", grouped)
            end = f.add(grouped, f.sub(n, f(f"srem i64 {n}, {q}")))
            f.loop(grouped, end, q, lambda at, q=q: call(q, at))
            grouped = end

        def one(at):
            if isa.nv == 1:
                call(1, at)
                return
            thin, wide, done = f.label("thin"), f.label("wide"), f.label("one")
            f.cbr(f.cmp("sle", f.sub("%N", f.mul(at, nr)), W), thin, wide)
            for lbl, narrow in ((thin, True), (wide, False)):
                f.start(lbl)
                call(1, at, narrow)
                f.br(done)
            f.start(done)
        f.loop(grouped, "%hi", 1, one)
    f.switch("%M", {m: m for m in range(1, GEMV_MAX_ROWS + 1)}, rows)
    f.do("ret void")
    return f.text()


def _gemv_driver(isa: Isa) -> str:
    """strata_gemv_packed(<_GEMV_ARGS>, tile) (1 <= M <= GEMV_MAX_ROWS, N, K >= 1) and
    its chunk function for the pool: see [Note: few rows on packed B]."""
    nr = isa.nr
    out = []
    f = Fn("define internal void @strata_gemv_chunk(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _GEMV_FIELDS, _GEMV_TYPES)
    f.do("call void @strata_gemv_range(" + ", ".join(
        f"{_GEMV_TYPES.get(x, 'i64')} {v[x]}" for x in _GEMV_FIELDS) +
        ", i64 %lo, i64 %hi)")
    f.do("ret void")
    out.append(f.text())

    f = Fn(f"define internal void @strata_gemv_packed({_GEMV_ARGS}, i64 %tile) #1")
    panels = f(f"sdiv i64 {f.add('%N', nr - 1)}, {nr}")
    floats = f.mul(f.mul(panels, nr), "%K")
    t = f(f"sext i32 {f('call i32 @strata_get_num_threads()')} to i64")
    split = _tile_field(f, "split", SPLIT_AUTO)
    par = all_of(f, [f.cmp("sgt", t, 1), f.cmp("sgt", panels, 1),
                     f.cmp("sge", floats, GEMV_PAR_MIN_FLOATS),
                     f.cmp("ne", split, SPLIT_NONE)])
    one, many, done = f.label("one"), f.label("many"), f.label("done")
    f.cbr(par, many, one)
    f.start(one)
    f.do(f"call void @strata_gemv_range({_GEMV_ARGS.replace('noalias ', '')}, i64 0, "
         f"i64 {panels})")
    f.br(done)
    f.start(many)
    _pool_call(f, "@strata_gemv_chunk", _GEMV_FIELDS, _GEMV_TYPES,
               {x: f"%{x}" for x in _GEMV_FIELDS}, panels, f.mul("%K", nr),
               GEMV_CHUNK_MIN_FLOATS)
    f.br(done)
    f.start(done)
    f.do("ret void")
    out.append(f.text())
    return "\n".join(out)


def gemv_functions(isa: Isa) -> list:
    """The few-rows path's functions ([Note: few rows on packed B])."""
    parts = []
    for m in range(1, GEMV_MAX_ROWS + 1):
        parts += [_gemv_store(isa, m, False), _gemv_block(isa, m, 1, False)]
        parts += [_gemv_block(isa, m, q, False) for q in _gemv_groups(gemv_panels(isa, m))]
        if isa.nv > 1:
            parts += [_gemv_store(isa, m, True), _gemv_block(isa, m, 1, True)]
    parts += [_gemv_range(isa), _gemv_driver(isa)]
    return parts


def _public(isa: Isa) -> str:
    out = []
    for name, small, big, pmin in (("strata_sgemm_f32", "@strata_gemm_small", "n",
                                    isa.pack_min_m),
                                   ("strata_sgemm_nt_f32", "@strata_gemm_dot", "t",
                                    isa.pack_min_m_nt)):
        f = Fn(f"define void @{name}({_ARGS}, i32 %accumulate, i64 %tile) #0")
        _prologue(f, pmin, small, big, "%B, i64 %ldb")
        out.append(f.text())
    f = Fn("define void @strata_sgemm_packed_f32(i64 %M, i64 %N, i64 %K, ptr noalias %A, "
            "i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc, i32 %accumulate, "
            "i64 %tile) #0")
    _prologue(f, 0, "", "", "%B, i64 0", few=True)
    out.append(f.text())
    # with the epilogue (K >= 1: it is applied with the last K block)
    f = Fn("define void @strata_sgemm_packed_epi_f32(i64 %M, i64 %N, i64 %K, "
            "ptr noalias %A, i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc, "
            "i32 %accumulate, ptr %bias, i32 %epi, i64 %tile) #0")
    _prologue(f, 0, "", "", "%B, i64 0", "ptr %bias, i32 %epi", few=True)
    out.append(f.text())
    return "\n".join(out)


def _prologue(f: Fn, pmin: int, small: str, big: str, bargs: str,
              epi: str = "ptr null, i32 0", few: bool = False) -> None:
    """Empty C (or an epilogue's unknown activation code) -> nothing; K == 0 -> zero C
    unless accumulating; M < pmin -> `small`, else the blocked driver of kind `big`
    (through _parallel), with the epilogue `epi`; `few` (B pre-packed): M <=
    GEMV_MAX_ROWS -> strata_gemv_packed ([Note: few rows on packed B])."""
    empty = f(f"or i1 {f.cmp('sle', '%M', 0)}, {f.cmp('sle', '%N', 0)}")
    if "%epi" in epi:
        empty = f(f"or i1 {empty}, {bad_epilogue(f, '%epi')}")
    acc = f("icmp ne i32 %accumulate, 0")
    ret, go, nok, zero, small_l, big_l = (f.label(s) for s in
                                          ("ret", "go", "nok", "zero", "small", "big"))
    f.cbr(empty, ret, go)
    f.start(go)
    f.cbr(f.cmp("sle", "%K", 0), nok, small_l if pmin else big_l)
    f.start(nok)
    f.cbr(acc, ret, zero)
    f.start(zero)
    f.do("call void @strata_zero(i64 %M, i64 %N, ptr %C, i64 %ldc)")
    f.br(ret)
    args = f"i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, ptr {bargs}, ptr %C, i64 %ldc, i1 {acc}"
    if pmin:
        f.start(small_l)
        f.cbr(f.cmp("slt", "%M", pmin), f"{small_l}s", big_l)
        f.start(f"{small_l}s")
        f.do(f"call void {small}({args})")
        f.br(ret)
    f.start(big_l)
    if few:
        gemv, blocked = f.label("gemv"), f.label("blocked")
        f.cbr(f.cmp("sle", "%M", GEMV_MAX_ROWS), gemv, blocked)
        f.start(gemv)
        f.do(f"call void @strata_gemv_packed(i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, "
             f"ptr %B, ptr %C, i64 %ldc, i1 {acc}, {epi}, i64 %tile)")
        f.br(ret)
        f.start(blocked)
    f.do(f"call void @strata_gemm_parallel(i64 {BLOCKED_KINDS[big]}, {args}, ptr null, "
         f"i64 0, i64 %tile, {epi})")
    f.br(ret)
    f.start(ret)
    f.do("ret void")


def gemm_functions(isa) -> list:
    """Every GEMM function for `isa` (an Isa of kernels.py), as LLVM IR text."""
    parts = []
    for apack in (True, False):
        parts.extend(_ukr(isa, mr, apack, epi) for mr in range(1, isa.mr + 1)
                     for epi in (False, True))
        if isa.nv > 1:
            parts.extend(_ukr(isa, mr, apack, epi, narrow=True)
                         for mr in range(1, isa.mr + 1) for epi in (False, True))
        if apack:
            parts.extend(_ukr(isa, isa.mr, True, epi, lines) for epi in (False, True)
                         for lines in sorted({1, pf_a_lines(isa)}))
        parts.append(_rows(isa, apack))
    parts.extend(_dot(isa, dm, dn) for dm, dn in _DOT_TILES)
    parts.extend(_axpy(isa, m, kb) for m, _ in _AXPY_TILES for kb in (_, 1))
    parts.append(_small(isa))
    parts.extend(_pack_n(isa, pro) for pro in PRO_ACTS)
    parts.extend([_pack_n(isa), _pack_t(isa), _pack_a(isa), _pack_b_public(isa),
                  _zero(isa), _blocked(isa, "n"), _blocked(isa, "t"), _blocked(isa, ""),
                  _blocked(isa, "conv"), _blocked(isa, "convp"), _blocked(isa, "pp"),
                  _blocked(isa, "np"), _blocked(isa, "npa"),
                  _dot_driver(isa), *gemv_functions(isa), _public(isa), _parallel(isa),
                  _prepack(isa), _slices(), _batch_ir()])
    return parts
