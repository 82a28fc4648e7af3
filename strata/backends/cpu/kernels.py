"""fp32 GEMM micro-kernels for the CPU target, written as LLVM IR text for the host's
vector width (the compiled model links them in; see `kernel_library_ir`).

    C[M,N] (+)= A[M,K] . B[K,N]        strata_sgemm_f32(M, N, K, A, lda, B, ldb, C, ldc, acc)
    C[M,N] (+)= A[M,K] . Bt[N,K]^T     strata_sgemm_nt_f32(... same arguments ...)
    C[M,N] (+)= A[M,K] . packed(B)     strata_sgemm_packed_f32(M, N, K, A, lda, Bp, C, ldc, acc)
    batches of the first two           strata_sgemm[_nt]_batched_f32(batch, M, N, K,
                                           A, lda, strideA, B, ldb, strideB, C, ldc, strideC, acc)
    B -> packed(B) (e.g. once, for weights)   strata_sgemm_pack_b_f32(K, N, B, ldb, Bp)

All matrices are row-major fp32 with unit inner stride and leading dimensions in elements
(i64); `acc` (i32) != 0 adds to C, 0 overwrites it. A batch stride may be 0 (a broadcast
operand). Plain C ABI, no runtime needed besides malloc/free.

[Note: GEMM kernel design]
In the style of BLIS (Van Zee & van de Geijn) and IREE's microkernels:
- The micro-kernel computes an MR x NR tile of C (NR = NV vectors of W floats) with the
  MR*NV accumulators as <W x float> phis of the K loop: per k, NV row vectors of B are
  loaded, each of the MR elements of A's column is broadcast and fused-multiply-added.
  AVX2 (W=8, 16 registers): 6 x 16 (12 accumulators + 2 B vectors + 1 broadcast);
  AVX-512 (W=16, 32 registers): 8 x 32; SSE/NEON (W=4): 6 x 8. M tails use smaller MR
  variants (one function per mr), N tails masked loads/stores (llvm.masked.*).
- Big problems (M >= PACK_MIN_M): blocked driver jc (NC) / pc (KC) / ic (MC) / jr (NR) /
  ir (MR). B[pc:pc+kc, jc:jc+nc] is packed into NR-wide panels (kc x NR contiguous, zero
  padded) so the micro-kernel streams one panel from L1 while the A block (mc x kc, read
  in place) stays in L2; C is accumulated over the pc blocks. The transposed variant only
  packs differently (W x W transposes in registers).
- Small M (batch 1, a few rows): packing B would cost as much as the product, so the
  micro-kernel reads B in place (B row vectors at stride ldb; A.B^T uses dot-product
  kernels vectorized along K with a horizontal sum at the end).
- packed(B) is the panel layout for the whole K (panel p = B[:, p*NR:(p+1)*NR] as
  K x NR, zero padded), so weights can be packed once ahead of time (`pack_b`) and the
  blocked driver then skips its packing step.
"""
from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

__all__ = ["Isa", "host_isa", "isa_for", "sgemm_ir", "kernel_library_ir", "KERNELS",
           "pack_b", "packed_b_size", "kernel_object", "kernel_assembly", "load_kernels",
           "kernel_symbols", "KernelLibrary", "default_threads", "microkernel_pass"]


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


# ---------------------------------------------------------------- IR writing helpers


class _Fn:
    """One LLVM function being written: numbered temporaries and labels, and the block
    being filled (for phis)."""

    __slots__ = ("out", "n", "block")

    def __init__(self, header: str):
        self.out = [header + " {", "entry:"]
        self.n = 0
        self.block = "entry"

    def __call__(self, rhs: str) -> str:
        """Emit `%tN = rhs`; returns %tN."""
        t = self.fresh()
        self.out.append(f"  {t} = {rhs}")
        return t

    def fresh(self) -> str:
        self.n += 1
        return f"%t{self.n}"

    def do(self, line: str) -> None:
        self.out.append("  " + line)

    def label(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def start(self, label: str) -> None:
        self.out.append(f"{label}:")
        self.block = label

    def br(self, label: str) -> None:
        self.do(f"br label %{label}")

    def cbr(self, cond: str, yes: str, no: str) -> None:
        self.do(f"br i1 {cond}, label %{yes}, label %{no}")

    def text(self) -> str:
        return "\n".join(self.out) + "\n}\n"

    # -- small idioms
    def gep(self, ptr: str, index: str, elt: str = "float") -> str:
        return self(f"getelementptr inbounds {elt}, ptr {ptr}, i64 {index}")

    def mul(self, a: str, b) -> str:
        return self(f"mul nsw i64 {a}, {b}")

    def add(self, a: str, b) -> str:
        return self(f"add nsw i64 {a}, {b}")

    def sub(self, a: str, b) -> str:
        return self(f"sub nsw i64 {a}, {b}")

    def min(self, a: str, b) -> str:
        return self(f"call i64 @llvm.smin.i64(i64 {a}, i64 {b})")

    def cmp(self, pred: str, a: str, b) -> str:
        return self(f"icmp {pred} i64 {a}, {b}")

    def loop(self, lo, hi, step, body, carried=()):
        """for (iv = lo; iv < hi; iv += step) { carried = body(iv, carried) }; `carried`
        is a list of (type, initial value); returns the carried values at the exit."""
        pre = self.block
        head, inside, done = self.label("head"), self.label("body"), self.label("exit")
        self.br(head)
        self.start(head)
        iv = self.fresh()
        phis = [self.fresh() for _ in carried]
        at = len(self.out)
        self.out.extend([None] * (1 + len(carried)))
        self.cbr(self(f"icmp slt i64 {iv}, {hi}"), inside, done)
        self.start(inside)
        new = body(iv, phis) if carried else (body(iv), [])[1]
        nxt = self.add(iv, step)
        latch = self.block
        self.br(head)
        self.out[at] = f"  {iv} = phi i64 [ {lo}, %{pre} ], [ {nxt}, %{latch} ]"
        for i, ((t, init), p, v) in enumerate(zip(carried, phis, new)):
            self.out[at + 1 + i] = f"  {p} = phi {t} [ {init}, %{pre} ], [ {v}, %{latch} ]"
        self.start(done)
        return phis

    def switch(self, value: str, cases: dict, emit) -> None:
        """switch i64 value over `cases` {constant: key}; emit(key) fills each case, all
        of which then continue after the switch (the last case is the default)."""
        keys = list(cases)
        labels = {k: self.label("case") for k in keys}
        done = self.label("join")
        table = " ".join(f"i64 {k}, label %{labels[k]}" for k in keys[:-1])
        self.do(f"switch i64 {value}, label %{labels[keys[-1]]} [ {table} ]")
        for k in keys:
            self.start(labels[k])
            emit(cases[k])
            self.br(done)
        self.start(done)


def _vec(isa: Isa) -> str:
    return f"<{isa.width} x float>"


def _splat(f: _Fn, isa: Isa, scalar: str, elt: str = "float") -> str:
    vt = f"<{isa.width} x {elt}>"
    one = f(f"insertelement {vt} poison, {elt} {scalar}, i64 0")
    return f(f"shufflevector {vt} {one}, {vt} poison, <{isa.width} x i32> zeroinitializer")


def _lane_mask(f: _Fn, isa: Isa, n: str) -> str:
    """<W x i1>: lane l is on iff l < n (n an i64, any value)."""
    iota = ", ".join(f"i64 {i}" for i in range(isa.width))
    return f(f"icmp slt <{isa.width} x i64> <{iota}>, {_splat(f, isa, n, 'i64')}")


def _vload(f: _Fn, isa: Isa, ptr: str, mask: str | None = None, align: int = 4) -> str:
    V, W = _vec(isa), isa.width
    if mask is None:
        return f(f"load {V}, ptr {ptr}, align {align}")
    return f(f"call {V} @llvm.masked.load.v{W}f32.p0(ptr align 4 {ptr}, <{W} x i1> {mask}, "
             f"{V} zeroinitializer)")


def _vstore(f: _Fn, isa: Isa, value: str, ptr: str, mask: str | None = None,
            align: int = 4) -> None:
    V, W = _vec(isa), isa.width
    if mask is None:
        f.do(f"store {V} {value}, ptr {ptr}, align {align}")
    else:
        f.do(f"call void @llvm.masked.store.v{W}f32.p0({V} {value}, ptr align 4 {ptr}, "
             f"<{W} x i1> {mask})")


def _fma(f: _Fn, isa: Isa, a: str, b: str, c: str) -> str:
    V = _vec(isa)
    return f(f"call {V} @llvm.fmuladd.v{isa.width}f32({V} {a}, {V} {b}, {V} {c})")


def _attrs(isa: Isa) -> str:
    parts = ["nounwind"]
    if isa.cpu:
        parts.append(f'"target-cpu"="{isa.cpu}"')
    if isa.features:
        parts.append(f'"target-features"="{isa.features}"')
    # internal helpers stay functions of their own: inlining them all into the drivers
    # makes LLVM's optimizer take seconds and the code no faster
    return (f"attributes #0 = {{ {' '.join(parts)} }}\n"
            f"attributes #1 = {{ noinline {' '.join(parts)} }}\n")


def _decls(isa: Isa) -> str:
    W, V = isa.width, _vec(isa)
    return "\n".join([
        f"declare {V} @llvm.fmuladd.v{W}f32({V}, {V}, {V})",
        f"declare {V} @llvm.masked.load.v{W}f32.p0(ptr, <{W} x i1>, {V})",
        f"declare void @llvm.masked.store.v{W}f32.p0({V}, ptr, <{W} x i1>)",
        f"declare float @llvm.vector.reduce.fadd.v{W}f32(float, {V})",
        "declare i64 @llvm.smin.i64(i64, i64)",
        "declare i32 @llvm.smin.i32(i32, i32)",
        "declare ptr @malloc(i64)",
        "declare i32 @pthread_create(ptr, ptr, ptr, ptr)",
        "declare i32 @pthread_join(i64, ptr)",
        "declare void @free(ptr)", ""])


_ARGS = "i64 %M, i64 %N, i64 %K, ptr noalias %A, i64 %lda, ptr noalias %B, i64 %ldb, " \
        "ptr noalias %C, i64 %ldc"
# The blocked drivers' arguments: a GEMM's, accumulate, and the convolution's (see _blocked).
_BLOCKED_ARGS = _ARGS + ", i1 %acc, ptr %cd, i64 %q0"
_BLOCKED_KINDS = {"n": 0, "t": 1, "": 2, "conv": 3}


# ---------------------------------------------------------------- micro-kernels


# Independent accumulator chains a micro-kernel keeps at least (FMA latency x FMA units).
_MIN_CHAINS = 8


def _ukr_name(mr: int, apack: bool) -> str:
    return f"@strata_ukr_{mr}{'p' if apack else 'a'}"


def _ukr(isa: Isa, mr: int, apack: bool) -> str:
    """C[mr, :nvalid] (+)= A[mr, K] . Bp[K, NR], Bp a packed panel (rows of NR floats,
    zero padded past nvalid). A is packed (element (i, k) at A + k*MR + i) or in place
    (at A + i*lda + k)."""
    W, V, nv, nr = isa.width, _vec(isa), isa.nv, isa.nr
    f = _Fn(f"define internal void {_ukr_name(mr, apack)}(i64 %K, ptr noalias %A, "
            f"i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc, i64 %nvalid, i1 %acc) #1")
    arow = [f.gep("%A", i if apack else f.mul("%lda", i)) if i else "%A" for i in range(mr)]
    crow = [f.gep("%C", f.mul("%ldc", i)) if i else "%C" for i in range(mr)]
    masks = [_lane_mask(f, isa, f.sub("%nvalid", v * W) if v else "%nvalid")
             for v in range(nv)]
    full = f.cmp("eq", "%nvalid", nr)
    cptr = [[f.gep(crow[i], v * W) if v else crow[i] for v in range(nv)] for i in range(mr)]

    # accumulators start from C (acc) or zero
    load_c, load_full, load_part, kloop = (f.label(s) for s in ("ldc", "ldf", "ldm", "k"))
    entry = f.block
    f.cbr("%acc", load_c, kloop)
    f.start(load_c)
    f.cbr(full, load_full, load_part)
    inits = {}
    for lbl, masked in ((load_full, False), (load_part, True)):
        f.start(lbl)
        inits[lbl] = [_vload(f, isa, cptr[i][v], masks[v] if masked else None)
                      for i in range(mr) for v in range(nv)]
        f.br(kloop)
    f.start(kloop)
    acc0 = [f(f"phi {V} [ zeroinitializer, %{entry} ], [ {inits[load_full][j]}, "
              f"%{load_full} ], [ {inits[load_part][j]}, %{load_part} ]")
            for j in range(mr * nv)]

    def step(k, accs):
        ak = f.mul(k, isa.mr) if apack else k
        b_k = f.gep("%B", f.mul(k, nr))
        bv = [_vload(f, isa, f.gep(b_k, v * W) if v else b_k) for v in range(nv)]
        out = list(accs)
        for i in range(mr):
            a = _splat(f, isa, f(f"load float, ptr {f.gep(arow[i], ak)}, align 4"))
            for v in range(nv):
                out[i * nv + v] = _fma(f, isa, a, bv[v], out[i * nv + v])
        return out

    # Few rows: too few accumulators to hide the FMA latency, so the unrolled k steps
    # rotate over `sets` independent sets of them, summed after the loop.
    u = max(isa.unroll, 1)
    sets = max(1, min(u, _MIN_CHAINS // (mr * nv)))
    while u % sets:
        sets -= 1
    n = mr * nv
    carried = [(V, a) for a in acc0] + [(V, "zeroinitializer")] * (n * (sets - 1))
    if u > 1:
        kmain = f.sub("%K", f(f"srem i64 %K, {u}"))

        def unrolled(k, accs):
            accs = list(accs)
            for j in range(u):
                s0 = (j % sets) * n
                accs[s0:s0 + n] = step(f.add(k, j) if j else k, accs[s0:s0 + n])
            return accs
        accs = f.loop("0", kmain, u, unrolled, carried)
        for j in range(1, sets):
            accs[:n] = [f(f"fadd {V} {x}, {y}") for x, y in zip(accs[:n], accs[j * n:j * n + n])]
        accs = f.loop(kmain, "%K", 1, step, [(V, a) for a in accs[:n]])
    else:
        accs = f.loop("0", "%K", 1, step, carried)

    st_full, st_part, done = f.label("stf"), f.label("stm"), f.label("done")
    f.cbr(full, st_full, st_part)
    for lbl, masked in ((st_full, False), (st_part, True)):
        f.start(lbl)
        for i in range(mr):
            for v in range(nv):
                _vstore(f, isa, accs[i * nv + v], cptr[i][v], masks[v] if masked else None)
        f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


def _rows_name(apack: bool) -> str:
    return f"@strata_rows_{'p' if apack else 'a'}"


def _rows(isa: Isa, apack: bool) -> str:
    """The ir loop: C[M, :nvalid] (+)= A[M, K] . Bp, MR rows at a time (the last rows
    through the smaller micro-kernels). Packed A: panel p (rows p*MR..) at A + p*MR*K."""
    mr = isa.mr
    f = _Fn(f"define internal void {_rows_name(apack)}(i64 %M, i64 %K, ptr %A, i64 %lda, "
            f"ptr %B, ptr %C, i64 %ldc, i64 %nvalid, i1 %acc) #1")

    def body(i):
        rows = f.min(f.sub("%M", i), mr)
        a = f.gep("%A", f.mul(i, "%K" if apack else "%lda"))
        c = f.gep("%C", f.mul(i, "%ldc"))
        f.switch(rows, {m: m for m in range(1, mr + 1)}, lambda m: f.do(
            f"call void {_ukr_name(m, apack)}(i64 %K, ptr {a}, i64 %lda, ptr %B, ptr {c}, "
            f"i64 %ldc, i64 %nvalid, i1 %acc)"))
    f.loop("0", "%M", mr, body)
    f.do("ret void")
    return f.text()


# ---------------------------------------------------------------- packing


def _transpose(f: _Fn, isa: Isa, rows: list) -> list:
    """Transpose W vectors of W floats: log2(W) rounds, each swapping one bit of the row
    index with the same bit of the lane index (two shuffles per pair of vectors)."""
    W, V = isa.width, _vec(isa)
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


def _pack_n(isa: Isa) -> str:
    """Bp[p][k][0:NR] = B[k, p*NR : p*NR+NR] (zero padded) for k < kc, columns < nc;
    panel p at Bp + p*kc*NR."""
    W, nv, nr = isa.width, isa.nv, isa.nr
    f = _Fn("define internal void @strata_pack_n(i64 %kc, i64 %nc, ptr noalias %B, i64 %ldb, "
            "ptr noalias %Bp) #1")

    def panel(j):
        dst = f.gep("%Bp", f.mul(j, "%kc"))
        left = f.sub("%nc", j)
        masks = [_lane_mask(f, isa, f.sub(left, v * W) if v else left) for v in range(nv)]
        full = f.cmp("sge", left, nr)
        src = f.gep("%B", j)
        fast, slow, done = f.label("pf"), f.label("pm"), f.label("pd")
        f.cbr(full, fast, slow)
        for lbl, masked in ((fast, False), (slow, True)):
            f.start(lbl)

            def row(k):
                s = f.gep(src, f.mul(k, "%ldb"))
                d = f.gep(dst, f.mul(k, nr))
                for v in range(nv):
                    x = _vload(f, isa, f.gep(s, v * W), masks[v] if masked else None)
                    _vstore(f, isa, x, f.gep(d, v * W))
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
    f = _Fn("define internal void @strata_pack_t(i64 %kc, i64 %nc, ptr noalias %B, i64 %ldb, "
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
                vecs = [_vload(f, isa, f.gep(rowp[r], k)) for r in range(W)]
                vecs = [f(f"select i1 {valid[r]}, {_vec(isa)} {vecs[r]}, {_vec(isa)} "
                          "zeroinitializer") for r in range(W)]
                for t, x in enumerate(_transpose(f, isa, vecs)):
                    d = f.gep(dst, f.add(f.mul(f.add(k, t), nr), v * W))
                    _vstore(f, isa, x, d)
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


def _pack_a(isa: Isa) -> str:
    """Ap[p][k][0:MR] = A[p*MR : p*MR+MR, k] for rows < mc, k < kc (panel p at
    Ap + p*kc*MR; the rows past mc of the last panel are left unwritten)."""
    mr = isa.mr
    f = _Fn("define internal void @strata_pack_a(i64 %mc, i64 %kc, ptr noalias %A, "
            "i64 %lda, ptr noalias %Ap) #1")

    def panel(i):
        dst = f.gep("%Ap", f.mul(i, "%kc"))
        rows = f.min(f.sub("%mc", i), mr)
        src = f.gep("%A", f.mul(i, "%lda"))

        def copy(m):
            srow = [f.gep(src, f.mul("%lda", r)) if r else src for r in range(m)]

            def col(k):
                d = f.gep(dst, f.mul(k, mr))
                for r in range(m):
                    x = f(f"load float, ptr {f.gep(srow[r], k)}, align 4")
                    f.do(f"store float {x}, ptr {f.gep(d, r) if r else d}, align 4")
            f.loop("0", "%kc", 1, col)
        f.switch(rows, {m: m for m in range(1, mr + 1)}, copy)
    f.loop("0", "%mc", mr, panel)
    f.do("ret void")
    return f.text()


def _pack_b_public(isa: Isa) -> str:
    """strata_sgemm_pack_b_f32(K, N, B, ldb, Bp): packed(B) for the whole of K (panels
    K x NR, panel p at Bp + p*K*NR); Bp holds packed_b_size(K, N) floats, 64-byte
    aligned."""
    f = _Fn("define void @strata_sgemm_pack_b_f32(i64 %K, i64 %N, ptr noalias %B, i64 %ldb, "
            "ptr noalias %Bp) #0")
    f.do("call void @strata_pack_n(i64 %K, i64 %N, ptr %B, i64 %ldb, ptr %Bp)")
    f.do("ret void")
    return f.text()


# ---------------------------------------------------------------- drivers


def _zero(isa: Isa) -> str:
    f = _Fn("define internal void @strata_zero(i64 %M, i64 %N, ptr %C, i64 %ldc) #1")

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
    W, V = isa.width, _vec(isa)
    f = _Fn(f"define internal void {_axpy_name(m, kb)}(i64 %N, ptr noalias %A, i64 %lda, "
            f"ptr noalias %B, i64 %ldb, ptr noalias %C, i64 %ldc, i1 %first) #1")
    arow = [f.gep("%A", f.mul("%lda", i)) if i else "%A" for i in range(m)]
    a = [[_splat(f, isa, f(f"load float, ptr {f.gep(arow[i], t)}, align 4"))
          for t in range(kb)] for i in range(m)]
    brow = [f.gep("%B", f.mul("%ldb", t)) if t else "%B" for t in range(kb)]
    crow = [f.gep("%C", f.mul("%ldc", i)) if i else "%C" for i in range(m)]

    def vector(j, mask=None):
        cs = []
        for i in range(m):
            c = _vload(f, isa, f.gep(crow[i], j), mask)
            cs.append(f(f"select i1 %first, {V} zeroinitializer, {V} {c}"))
        for t in range(kb):
            b = _vload(f, isa, f.gep(brow[t], j), mask)
            cs = [_fma(f, isa, a[i][t], b, cs[i]) for i in range(m)]
        for i in range(m):
            _vstore(f, isa, cs[i], f.gep(crow[i], j), mask)
    nmain = f.sub("%N", f(f"srem i64 %N, {W}"))
    f.loop("0", nmain, W, vector)
    tail, done = f.label("tail"), f.label("done")
    f.cbr(f.cmp("slt", nmain, "%N"), tail, done)
    f.start(tail)
    vector(nmain, _lane_mask(f, isa, f.sub("%N", nmain)))
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


_AXPY_TILES = ((4, 2), (2, 4), (1, 8))


def _small(isa: Isa) -> str:
    """Small M, B in place: blocks of NB columns; in each, groups of rows (4, 2, 1) pass
    over the rows of B kb at a time (see _axpy), the first pass writing C unless acc."""
    nb = 512
    f = _Fn(f"define internal void @strata_gemm_small({_ARGS}, i1 %acc) #1")
    noacc = f("xor i1 %acc, true")

    def nblock(jb):
        ncur = f.min(f.sub("%N", jb), nb)
        lo = "0"
        for m, kb in _AXPY_TILES:
            hi = f.sub("%M", f(f"srem i64 %M, {m}")) if m > 1 else "%M"
            if m == 4:
                hi_prev = hi
            elif m == 2:   # rows left after the groups of 4: 0..3, two at a time
                hi = f.sub("%M", f(f"srem i64 %M, 2"))

            def rows(i, m=m, kb=kb):
                a = f.gep("%A", f.mul(i, "%lda"))
                c = f.gep("%C", f.add(f.mul(i, "%ldc"), jb))
                kmain = f.sub("%K", f(f"srem i64 %K, {kb}"))

                def ks(k, kb=kb):
                    first = f(f"and i1 {noacc}, {f.cmp('eq', k, 0)}")
                    f.do(f"call void {_axpy_name(m, kb)}(i64 {ncur}, ptr {f.gep(a, k)}, "
                         f"i64 %lda, ptr {f.gep('%B', f.add(f.mul(k, '%ldb'), jb))}, "
                         f"i64 %ldb, ptr {c}, i64 %ldc, i1 {first})")
                f.loop("0", kmain, kb, ks)
                if kb > 1:
                    f.loop(kmain, "%K", 1, lambda k: ks(k, 1))
            f.loop(lo, hi, m, rows)
            lo = hi
    f.loop("0", "%N", nb, nblock)
    f.do("ret void")
    return f.text()


def _blocked(isa: Isa, pack: str) -> str:
    """The blocked driver (see [Note: GEMM kernel design]). pack "n": B is K x N, "t": B
    is given as Bt (N x K), "": B is already packed(B) (ldb unused), "conv": B is the
    implicit im2col matrix of the NCHW image B (see _pack_conv; %cd its parameters), from
    its column %q0 on. A blocks are packed
    too when N is at least isa.pack_a_min_n (else the copy costs more than it saves)."""
    mr, nr, kc, mc, nc = isa.mr, isa.nr, isa.kc, isa.mc, isa.nc
    name = {"n": "@strata_gemm_blocked_n", "t": "@strata_gemm_blocked_t",
            "": "@strata_gemm_blocked_p", "conv": "@strata_gemm_blocked_conv"}[pack]
    f = _Fn(f"define internal void {name}({_BLOCKED_ARGS}) #1")
    b_floats = kc * nc if pack else 0
    a_floats = -(-mc // mr) * mr * kc
    raw = f(f"call ptr @malloc(i64 {(b_floats + a_floats + nr) * 4 + 64})")
    addr = f(f"ptrtoint ptr {raw} to i64")
    buf = f.gep(raw, f(f"sub i64 64, {f(f'and i64 {addr}, 63')}"), "i8")
    abuf = f.gep(buf, b_floats)
    packa = f.cmp("sge", "%N", isa.pack_a_min_n)

    def jblock(jc):
        ncur = f.min(f.sub("%N", jc), nc)

        def kblock(pc):
            kcur = f.min(f.sub("%K", pc), kc)
            acc = f(f"or i1 %acc, {f.cmp('sgt', pc, 0)}")
            if pack == "n":
                src = f.gep("%B", f.add(f.mul(pc, "%ldb"), jc))
            elif pack == "t":
                src = f.gep("%B", f.add(f.mul(jc, "%ldb"), pc))
            if pack == "conv":
                f.do(f"call void @strata_pack_conv(i64 {kcur}, i64 {ncur}, i64 {pc}, "
                     f"i64 {f.add(jc, '%q0')}, ptr %B, ptr %cd, ptr {buf})")
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
                    if apack:
                        f.do(f"call void @strata_pack_a(i64 {mcur}, i64 {kcur}, ptr {a}, "
                             f"i64 %lda, ptr {abuf})")

                    def panel(jr, apack=apack):
                        nvalid = f.min(f.sub(ncur, jr), nr)
                        if pack:
                            b = f.gep(buf, f.mul(jr, kcur))
                        else:   # panel (jc+jr)/NR of packed(B), rows from pc
                            b = f.gep("%B", f.add(f.mul(f.add(jc, jr), "%K"), f.mul(pc, nr)))
                        c = f.gep("%C", f.add(f.mul(ic, "%ldc"), f.add(jc, jr)))
                        f.do(f"call void {_rows_name(apack)}(i64 {mcur}, i64 {kcur}, "
                             f"ptr {abuf if apack else a}, i64 %lda, ptr {b}, ptr {c}, "
                             f"i64 %ldc, i64 {nvalid}, i1 {acc})")
                    f.loop("0", ncur, nr, panel)
                    f.br(join)
                f.start(join)
            f.loop("0", "%M", mc, iblock)
        f.loop("0", "%K", kc, kblock)
    f.loop("0", "%N", nc, jblock)
    f.do(f"call void @free(ptr {raw})")
    f.do("ret void")
    return f.text()


# Threads: the blocked drivers split C's columns (or rows, when it has few columns)
# between `strata_num_threads` threads (pthreads, created per call) for products of at
# least _PAR_MIN_MACS multiply-adds.
_PAR_MIN_MACS = 1 << 21
_MAX_THREADS = 64
_WORK_FIELDS = ("kind", "M", "N", "K", "A", "lda", "B", "ldb", "C", "ldc", "acc", "cd", "q0")


def _threads_ir() -> str:
    return "\n".join([
        "@strata_num_threads = internal global i32 1, align 4",
        "define void @strata_set_num_threads(i32 %n) #0 {",
        "  %c = icmp slt i32 %n, 1",
        "  %v = select i1 %c, i32 1, i32 %n",
        f"  %w = call i32 @llvm.smin.i32(i32 %v, i32 {_MAX_THREADS})",
        "  store atomic i32 %w, ptr @strata_num_threads monotonic, align 4",
        "  ret void", "}",
        "define i32 @strata_get_num_threads() #0 {",
        "  %n = load atomic i32, ptr @strata_num_threads monotonic, align 4",
        "  ret i32 %n", "}", ""])


def _call_blocked(f: _Fn, kind: str, v: dict) -> None:
    """switch on the kind value, calling that blocked driver with the values `v`."""
    names = {0: "n", 1: "t", 2: "p", 3: "conv"}
    args = (f"i64 {v['M']}, i64 {v['N']}, i64 {v['K']}, ptr {v['A']}, i64 {v['lda']}, "
            f"ptr {v['B']}, i64 {v['ldb']}, ptr {v['C']}, i64 {v['ldc']}, i1 {v['acc']}, "
            f"ptr {v['cd']}, i64 {v['q0']}")
    f.switch(kind, {k: k for k in names}, lambda k: f.do(
        f"call void @strata_gemm_blocked_{names[k]}({args})"))


def _parallel(isa: Isa) -> str:
    """strata_gemm_parallel(kind, <blocked driver arguments>): the blocked driver of
    `kind` (see _BLOCKED_KINDS) on slices of C, one per thread."""
    mr, nr = isa.mr, isa.nr
    F = len(_WORK_FIELDS)
    f = _Fn(f"define internal void @strata_gemm_parallel(i64 %kind, {_BLOCKED_ARGS}) #1")
    v = {x: f"%{x}" for x in _WORK_FIELDS}
    nthreads = f("load atomic i32, ptr @strata_num_threads monotonic, align 4")
    t_req = f(f"sext i32 {nthreads} to i64")
    macs = f.mul(f.mul("%M", "%N"), "%K")
    by_n = f.cmp("sge", "%N", f.mul(t_req, 2 * nr))
    by_m = f.cmp("sge", "%M", f.mul(t_req, 2 * mr))
    go = _all(f, [f.cmp("sgt", t_req, 1), f.cmp("sge", macs, _PAR_MIN_MACS),
                  f(f"or i1 {by_n}, {by_m}")])
    one, many, done = f.label("one"), f.label("many"), f.label("done")
    f.cbr(go, many, one)
    f.start(one)
    _call_blocked(f, "%kind", v)
    f.br(done)
    f.start(many)
    work, tids = _thread_slots(f, F)
    # slices: multiples of NR columns, else of MR rows
    size = f(f"select i1 {by_n}, i64 %N, i64 %M")
    unit = f(f"select i1 {by_n}, i64 {nr}, i64 {mr}")
    per = f.mul(f(f"sdiv i64 {f.sub(f.add(size, f.mul(t_req, unit)), 1)}, "
                  f"{f.mul(t_req, unit)}"), unit)

    def slice_values(t):
        lo = f.min(f.mul(t, per), size)
        n = f.sub(f.min(f.add(lo, per), size), lo)
        w = dict(v)
        # along N: B and C move by lo columns (B's step depends on its layout), q0 too
        # B's elements per column: n 1, t ldb, packed K (panels of K x NR), conv 0
        packed_step = f(f"select i1 {f.cmp('eq', '%kind', 2)}, i64 %K, i64 1")
        bstep = f(f"select i1 {f.cmp('eq', '%kind', 1)}, i64 %ldb, i64 {packed_step}")
        bstep = f(f"select i1 {f.cmp('eq', '%kind', 3)}, i64 0, i64 {bstep}")
        w["N"] = f(f"select i1 {by_n}, i64 {n}, i64 %N")
        w["M"] = f(f"select i1 {by_n}, i64 %M, i64 {n}")
        boff = f(f"select i1 {by_n}, i64 {f.mul(lo, bstep)}, i64 0")
        coff = f(f"select i1 {by_n}, i64 {lo}, i64 {f.mul(lo, '%ldc')}")
        aoff = f(f"select i1 {by_n}, i64 0, i64 {f.mul(lo, '%lda')}")
        w["A"] = f.gep("%A", aoff)
        w["B"] = f.gep("%B", boff)
        w["C"] = f.gep("%C", coff)
        w["q0"] = f(f"select i1 {by_n}, i64 {f.add('%q0', lo)}, i64 %q0")
        return w, n

    def spawn(t):
        w, n = slice_values(t)
        w["kind"] = "%kind"
        _spawn(f, work, tids, t, [(w[x], _FIELD_TYPES.get(x, "i64")) for x in _WORK_FIELDS],
               n, "@strata_gemm_worker")
    f.loop("1", t_req, 1, spawn)
    w0, _ = slice_values("0")
    _call_blocked(f, "%kind", w0)
    _join_all(f, tids, t_req)
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


_FIELD_TYPES = {"A": "ptr", "B": "ptr", "C": "ptr", "cd": "ptr", "acc": "i1"}


def _thread_slots(f: _Fn, fields: int) -> tuple:
    """Allocas for the threads' argument slots (`fields` i64s each) and their ids."""
    return (f(f"alloca [{_MAX_THREADS * fields} x i64], align 8"),
            f(f"alloca [{_MAX_THREADS} x i64], align 8"))


def _spawn(f: _Fn, work: str, tids: str, t: str, values: list, n: str, worker: str):
    """Thread t runs `worker` on `values` [(value, type)] stored as i64s in its slot,
    when n > 0; if no thread can be made, the work is done here."""
    slot = f.gep(work, f.mul(t, len(values)), "i64")
    for i, (val, ty) in enumerate(values):
        if ty == "ptr":
            val = f(f"ptrtoint ptr {val} to i64")
        elif ty != "i64":
            val = f(f"zext {ty} {val} to i64")
        f.do(f"store i64 {val}, ptr {f.gep(slot, i, 'i64')}, align 8")
    tid = f.gep(tids, t, "i64")
    f.do(f"store i64 0, ptr {tid}, align 8")
    yes, no = f.label("sp"), f.label("ns")
    f.cbr(f.cmp("sgt", n, 0), yes, no)
    f.start(yes)
    rc = f(f"call i32 @pthread_create(ptr {tid}, ptr null, ptr {worker}, ptr {slot})")
    failed, ok = f.label("sf"), f.label("so")
    f.cbr(f(f"icmp ne i32 {rc}, 0"), failed, ok)
    f.start(failed)       # no thread: do it here
    f.do(f"store i64 0, ptr {tid}, align 8")
    f.do(f"call ptr {worker}(ptr {slot})")
    f.br(ok)
    f.start(ok)
    f.br(no)
    f.start(no)


def _join_all(f: _Fn, tids: str, count: str) -> None:
    def join(t):
        tid = f(f"load i64, ptr {f.gep(tids, t, 'i64')}, align 8")
        yes, no = f.label("jy"), f.label("jn")
        f.cbr(f.cmp("ne", tid, 0), yes, no)
        f.start(yes)
        f.do(f"call i32 @pthread_join(i64 {tid}, ptr null)")
        f.br(no)
        f.start(no)
    f.loop("1", count, 1, join)


def _load_work(f: _Fn, fields, types) -> dict:
    """The worker side of _spawn: the fields of slot %work as values."""
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


def _worker() -> str:
    """The thread body: one slice of strata_gemm_parallel, its arguments as i64s."""
    f = _Fn("define internal ptr @strata_gemm_worker(ptr %work) #1")
    v = _load_work(f, _WORK_FIELDS, _FIELD_TYPES)
    _call_blocked(f, v["kind"], v)
    f.do("ret ptr null")
    return f.text()


# The batched kernels run their products in parallel chunks of the batch when each one is
# too small to be split (below _PAR_MIN_MACS) but all of them are not.
_BATCH_FIELDS = ("nt", "count", "M", "N", "K", "A", "lda", "sA", "B", "ldb", "sB", "C",
                 "ldc", "sC", "accumulate")
_BATCH_TYPES = {"A": "ptr", "B": "ptr", "C": "ptr", "accumulate": "i32"}
_BATCH_ARGS = ("i64 %nt, i64 %count, i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, i64 %sA, "
               "ptr %B, i64 %ldb, i64 %sB, ptr %C, i64 %ldc, i64 %sC, i32 %accumulate")


def _batch_ir() -> str:
    """strata_batch_range (count products in a row), its thread body, and the two
    public batched kernels."""
    out = []
    f = _Fn(f"define internal void @strata_batch_range({_BATCH_ARGS}) #1")
    nt = f.cmp("ne", "%nt", 0)

    def one(b):
        args = (f"i64 %M, i64 %N, i64 %K, ptr {f.gep('%A', f.mul(b, '%sA'))}, i64 %lda, "
                f"ptr {f.gep('%B', f.mul(b, '%sB'))}, i64 %ldb, "
                f"ptr {f.gep('%C', f.mul(b, '%sC'))}, i64 %ldc, i32 %accumulate")
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

    f = _Fn("define internal ptr @strata_batch_worker(ptr %work) #1")
    v = _load_work(f, _BATCH_FIELDS, _BATCH_TYPES)
    f.do(f"call void @strata_batch_range({_batch_args(v)})")
    f.do("ret ptr null")
    out.append(f.text())

    for name, nt_value in (("strata_sgemm_batched_f32", 0), ("strata_sgemm_nt_batched_f32", 1)):
        f = _Fn(f"define void @{name}(i64 %batch, i64 %M, i64 %N, i64 %K, ptr %A, i64 %lda, "
                "i64 %sA, ptr %B, i64 %ldb, i64 %sB, ptr %C, i64 %ldc, i64 %sC, "
                "i32 %accumulate) #0")
        v = {x: f"%{x}" for x in _BATCH_FIELDS}
        v["nt"], v["count"] = str(nt_value), "%batch"
        nthreads = f("load atomic i32, ptr @strata_num_threads monotonic, align 4")
        t_req = f.min(f(f"sext i32 {nthreads} to i64"), "%batch")
        item = f.mul(f.mul("%M", "%N"), "%K")
        go = _all(f, [f.cmp("sgt", t_req, 1), f.cmp("slt", item, _PAR_MIN_MACS),
                      f.cmp("sge", f.mul(item, "%batch"), _PAR_MIN_MACS)])
        one_l, many, done = f.label("one"), f.label("many"), f.label("done")
        f.cbr(go, many, one_l)
        f.start(one_l)
        f.do(f"call void @strata_batch_range({_batch_args(v)})")
        f.br(done)
        f.start(many)
        work, tids = _thread_slots(f, len(_BATCH_FIELDS))
        per = f(f"sdiv i64 {f.sub(f.add('%batch', t_req), 1)}, {t_req}")

        def chunk(t, v=v, per=per):
            lo = f.min(f.mul(t, per), "%batch")
            w = dict(v)
            w["count"] = f.sub(f.min(f.add(lo, per), "%batch"), lo)
            for x in "ABC":
                w[x] = f.gep(f"%{x}", f.mul(lo, f"%s{x}"))
            return w

        def spawn(t, work=work, tids=tids, chunk=chunk):
            w = chunk(t)
            _spawn(f, work, tids, t, [(w[x], _BATCH_TYPES.get(x, "i64"))
                                      for x in _BATCH_FIELDS], w["count"],
                   "@strata_batch_worker")
        f.loop("1", t_req, 1, spawn)
        f.do(f"call void @strata_batch_range({_batch_args(chunk('0'))})")
        _join_all(f, tids, t_req)
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
    W, V = isa.width, _vec(isa)
    f = _Fn(f"define internal void {_dot_name(dm, dn)}(i64 %K, ptr noalias %A, i64 %lda, "
            f"ptr noalias %B, i64 %ldb, ptr noalias %C, i64 %ldc, i1 %acc) #1")
    arow = [f.gep("%A", f.mul("%lda", i)) if i else "%A" for i in range(dm)]
    brow = [f.gep("%B", f.mul("%ldb", j)) if j else "%B" for j in range(dn)]
    kmain = f.sub("%K", f(f"srem i64 %K, {W}"))

    def step(k, accs, mask=None):
        av = [_vload(f, isa, f.gep(arow[i], k), mask) for i in range(dm)]
        out = list(accs)
        for j in range(dn):
            b = _vload(f, isa, f.gep(brow[j], k), mask)
            for i in range(dm):
                out[i * dn + j] = _fma(f, isa, av[i], b, out[i * dn + j])
        return out
    accs = f.loop("0", kmain, W, step, [(V, "zeroinitializer")] * (dm * dn))
    mask = _lane_mask(f, isa, f.sub("%K", kmain))
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
    f = _Fn(f"define internal void @strata_gemm_dot({_ARGS}, i1 %acc) #1")

    def tiles(dm, dn, m_lo, m_hi):
        def rows(i):
            a = f.gep("%A", f.mul(i, "%lda"))
            c0 = f.gep("%C", f.mul(i, "%ldc"))
            nmain = f.sub("%N", f(f"srem i64 %N, {dn}"))

            def cols(j, one=dn):
                f.do(f"call void {_dot_name(dm, one)}(i64 %K, ptr {a}, i64 %lda, "
                     f"ptr {f.gep('%B', f.mul(j, '%ldb'))}, i64 %ldb, ptr {f.gep(c0, j)}, "
                     f"i64 %ldc, i1 %acc)")
            f.loop("0", nmain, dn, cols)
            if dn > 1:
                f.loop(nmain, "%N", 1, lambda j: cols(j, 1))
        f.loop(m_lo, m_hi, dm, rows)
    mpair = f.sub("%M", f(f"srem i64 %M, 2"))
    tiles(2, 4, "0", mpair)
    tiles(1, 8, mpair, "%M")
    f.do("ret void")
    return f.text()


def _public(isa: Isa) -> str:
    out = []
    for name, small, big, pmin in (("strata_sgemm_f32", "@strata_gemm_small", "n",
                                    isa.pack_min_m),
                                   ("strata_sgemm_nt_f32", "@strata_gemm_dot", "t",
                                    isa.pack_min_m_nt)):
        f = _Fn(f"define void @{name}({_ARGS}, i32 %accumulate) #0")
        _prologue(f, pmin, small, big, "%B, i64 %ldb")
        out.append(f.text())
    f = _Fn("define void @strata_sgemm_packed_f32(i64 %M, i64 %N, i64 %K, ptr noalias %A, "
            "i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc, i32 %accumulate) #0")
    _prologue(f, 0, "", "", "%B, i64 0")
    out.append(f.text())
    return "\n".join(out)


def _prologue(f: _Fn, pmin: int, small: str, big: str, bargs: str) -> None:
    """Empty C -> nothing; K == 0 -> zero C unless accumulating; M < pmin -> `small`,
    else the blocked driver of kind `big` (through _parallel)."""
    empty = f(f"or i1 {f.cmp('sle', '%M', 0)}, {f.cmp('sle', '%N', 0)}")
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
    f.do(f"call void @strata_gemm_parallel(i64 {_BLOCKED_KINDS[big]}, {args}, ptr null, "
         "i64 0)")
    f.br(ret)
    f.start(ret)
    f.do("ret void")


# ---------------------------------------------------------------- convolutions


def _copy(f: _Fn, isa: Isa, src: str, dst: str, n: str) -> None:
    """dst[0:n] = src[0:n]: vectors, then one masked vector."""
    W = isa.width
    nmain = f.sub(n, f(f"srem i64 {n}, {W}"))
    f.loop("0", nmain, W, lambda j: _vstore(f, isa, _vload(f, isa, f.gep(src, j)),
                                            f.gep(dst, j)))
    tail, done = f.label("ct"), f.label("cd")
    f.cbr(f.cmp("slt", nmain, n), tail, done)
    f.start(tail)
    mask = _lane_mask(f, isa, f.sub(n, nmain))
    _vstore(f, isa, _vload(f, isa, f.gep(src, nmain), mask), f.gep(dst, nmain), mask)
    f.br(done)
    f.start(done)


def _im2col_nhwc(isa: Isa) -> str:
    """col[oh*OW + ow][(kh*KW + kw)*C + c] = in[oh*sh + kh*dh, ow*sw + kw*dw, c] (one
    image; in's C stride is 1, its H and W strides shs and sws)."""
    f = _Fn("define internal void @strata_im2col_nhwc(i64 %C, i64 %KH, i64 %KW, i64 %OH, "
            "i64 %OW, i64 %sh, i64 %sw, i64 %dh, i64 %dw, ptr noalias %in, i64 %shs, "
            "i64 %sws, ptr noalias %col) #1")
    k = f.mul(f.mul("%KH", "%KW"), "%C")

    def orow(oh):
        def ocol(ow):
            dst_row = f.gep("%col", f.mul(f.add(f.mul(oh, "%OW"), ow), k))

            def krow(kh):
                y = f.add(f.mul(oh, "%sh"), f.mul(kh, "%dh"))

                def kcol(kw):
                    x = f.add(f.mul(ow, "%sw"), f.mul(kw, "%dw"))
                    src = f.gep("%in", f.add(f.mul(y, "%shs"), f.mul(x, "%sws")))
                    dst = f.gep(dst_row, f.mul(f.add(f.mul(kh, "%KW"), kw), "%C"))
                    _copy(f, isa, src, dst, "%C")
                f.loop("0", "%KW", 1, kcol)
            f.loop("0", "%KH", 1, krow)
        f.loop("0", "%OW", 1, ocol)
    f.loop("0", "%OH", 1, orow)
    f.do("ret void")
    return f.text()


# The parameters of an NCHW convolution the implicit-im2col packing reads (i64 each).
_CONV_PARAMS = ("C", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw", "sc", "shs")


def _pack_conv(isa: Isa) -> str:
    """Pack block [pc, pc+kc) x [jc, jc+nc) of the im2col matrix of an NCHW image as
    _pack_n packs B, straight from the image (no im2col buffer): row k = (c, kh, kw),
    column q = (oh, ow), element in[c, oh*sh + kh*dh, ow*sw + kw*dw]. The image offset of
    each row is computed once per block; the columns of each panel are cut once into
    pieces that stay in one output row; then every row of the panel copies its pieces
    (sw = 1 or 2: masked loads, for 2 their even lanes, whole-vector stores in increasing
    order, each store's excess overwritten by the next one; the buffer has NR floats of
    slack at its end; other strides one element at a time)."""
    W, nv, nr = isa.width, isa.nv, isa.nr
    f = _Fn("define internal void @strata_pack_conv(i64 %kc, i64 %nc, i64 %pc, i64 %jc, "
            "ptr noalias %in, ptr noalias %cd, ptr noalias %Bp) #1")
    p = {n: f(f"load i64, ptr {f.gep('%cd', i, 'i64')}, align 8")
         for i, n in enumerate(_CONV_PARAMS)}
    offs = f(f"alloca [{isa.kc} x i64], align 8")
    pieces = {x: f(f"alloca [{nr} x i64], align 8") for x in ("src", "dst", "len")}
    khw = f.mul(p["KH"], p["KW"])
    # the last panel's columns past nc are zeroed (strided copies do not write them)
    tail = f(f"srem i64 %nc, {nr}")
    ztail, zdone = f.label("z"), f.label("zd")
    f.cbr(f.cmp("ne", tail, 0), ztail, zdone)
    f.start(ztail)
    last = f.gep("%Bp", f.mul(f.sub("%nc", tail), "%kc"))
    f.loop("0", f.mul("%kc", nv), 1, lambda i: _vstore(
        f, isa, "zeroinitializer", f.gep(last, f.mul(i, W))))
    f.br(zdone)
    f.start(zdone)

    def row_offset(k):
        kk = f.add("%pc", k)
        r = f(f"srem i64 {kk}, {khw}")
        off = f.add(f.add(f.mul(f(f"sdiv i64 {kk}, {khw}"), p["sc"]),
                          f.mul(f.mul(f(f"sdiv i64 {r}, {p['KW']}"), p["dh"]), p["shs"])),
                    f.mul(f(f"srem i64 {r}, {p['KW']}"), p["dw"]))
        f.do(f"store i64 {off}, ptr {f.gep(offs, k, 'i64')}, align 8")
    f.loop("0", "%kc", 1, row_offset)

    def panel(jr):
        width = f.min(f.sub("%nc", jr), nr)
        q0 = f.add("%jc", jr)
        oh0 = f(f"sdiv i64 {q0}, {p['OW']}")
        ow0 = f(f"srem i64 {q0}, {p['OW']}")
        # cut [0, width) into pieces within one output row: (src offset, dst, length)
        pre, head, body, done = f.block, f.label("ph"), f.label("pb"), f.label("pe")
        f.br(head)
        f.start(head)
        j, oh, ow, cnt = f.fresh(), f.fresh(), f.fresh(), f.fresh()
        at = len(f.out)
        f.out.extend([None] * 4)
        f.cbr(f.cmp("slt", j, width), body, done)
        f.start(body)
        n = f.min(f.sub(p["OW"], ow), f.sub(width, j))
        src = f.add(f.mul(f.mul(oh, p["sh"]), p["shs"]), f.mul(ow, p["sw"]))
        for x, v in (("src", src), ("dst", j), ("len", n)):
            f.do(f"store i64 {v}, ptr {f.gep(pieces[x], cnt, 'i64')}, align 8")
        ow1 = f.add(ow, n)
        wrap = f.cmp("eq", ow1, p["OW"])
        nxt = (f.add(j, n), f(f"select i1 {wrap}, i64 {f.add(oh, 1)}, i64 {oh}"),
               f(f"select i1 {wrap}, i64 0, i64 {ow1}"), f.add(cnt, 1))
        latch = f.block
        f.br(head)
        for i, (v, init, x) in enumerate(zip((j, oh, ow, cnt), ("0", oh0, ow0, "0"), nxt)):
            f.out[at + i] = f"  {v} = phi i64 [ {init}, %{pre} ], [ {x}, %{latch} ]"
        f.start(done)
        count = cnt
        dst_panel = f.gep("%Bp", f.mul(jr, "%kc"))

        def row(k):
            base = f.gep("%in", f(f"load i64, ptr {f.gep(offs, k, 'i64')}, align 8"))
            dst_row = f.gep(dst_panel, f.mul(k, nr))

            def piece(i):
                s_ = f.gep(base, f(f"load i64, ptr {f.gep(pieces['src'], i, 'i64')}, "
                                   "align 8"))
                d_ = f.gep(dst_row, f(f"load i64, ptr {f.gep(pieces['dst'], i, 'i64')}, "
                                      "align 8"))
                n_ = f(f"load i64, ptr {f.gep(pieces['len'], i, 'i64')}, align 8")
                yes, two, no, joined = (f.label(x) for x in ("pu", "p2", "ps", "pj"))
                f.do(f"switch i64 {p['sw']}, label %{no} [ i64 1, label %{yes} "
                     f"i64 2, label %{two} ]")
                f.start(yes)
                for v in range(nv):
                    m = _lane_mask(f, isa, f.sub(n_, v * W) if v else n_)
                    _vstore(f, isa, _vload(f, isa, f.gep(s_, v * W), m), f.gep(d_, v * W))
                f.br(joined)
                f.start(two)    # stride 2: two vectors, their even lanes
                m2 = f.sub(f.add(n_, n_), 1)     # elements 0 .. 2n-2 are read
                even = ", ".join(f"i32 {2 * t}" for t in range(W))
                for v in range(nv):
                    lo, hi = (_vload(f, isa, f.gep(s_, (2 * v + h) * W), _lane_mask(
                        f, isa, f.sub(m2, (2 * v + h) * W) if 2 * v + h else m2))
                        for h in (0, 1))
                    x = f(f"shufflevector {_vec(isa)} {lo}, {_vec(isa)} {hi}, "
                          f"<{W} x i32> <{even}>")
                    _vstore(f, isa, x, f.gep(d_, v * W))
                f.br(joined)
                f.start(no)

                def one(t):
                    x = f(f"load float, ptr {f.gep(s_, f.mul(t, p['sw']))}, align 4")
                    f.do(f"store float {x}, ptr {f.gep(d_, t)}, align 4")
                f.loop("0", n_, 1, one)
                f.br(joined)
                f.start(joined)
            f.loop("0", count, 1, piece)
        f.loop("0", "%kc", 1, row)
    f.loop("0", "%nc", nr, panel)
    f.do("ret void")
    return f.text()


def _conv_public() -> str:
    """strata_conv2d_nchw_f32: per image, the blocked GEMM filter . im2col(image) with
    B packed straight from the image (_pack_conv). strata_conv2d_nhwc_f32: per image,
    im2col into a scratch buffer (rows = output pixels) and one GEMM with the filter as
    B (FHWC: transposed). A 1x1, stride-1 convolution over a contiguous image is the GEMM
    on the image itself."""
    out = []
    f = _Fn("define void @strata_conv2d_nchw_f32(i64 %N, i64 %C, i64 %H, i64 %W, i64 %F, "
            f"{_WINDOW}, ptr %in, i64 %sn, i64 %sc, i64 %shs, ptr %filter, ptr %out, "
            "i64 %osn, i32 %accumulate) #0")
    p, k, direct = _conv_sizes(f, f.cmp("eq", "%shs", "%W"),
                               f.cmp("eq", "%sc", f.mul("%H", "%W")))

    def gemm(n, b):
        f.do(f"call void @strata_sgemm_f32(i64 %F, i64 {p}, i64 {k}, ptr %filter, "
             f"i64 {k}, ptr {b}, i64 {p}, ptr {f.gep('%out', f.mul(n, '%osn'))}, i64 {p}, "
             "i32 %accumulate)")
    done = _direct_images(f, direct, gemm)
    # the rest: the blocked driver packing B straight from each image (_pack_conv)
    cd = f(f"alloca [{len(_CONV_PARAMS)} x i64], align 8")
    for i, name in enumerate(_CONV_PARAMS):
        f.do(f"store i64 %{name}, ptr {f.gep(cd, i, 'i64')}, align 8")
    acc = f("icmp ne i32 %accumulate, 0")
    nothing = f(f"or i1 {f.cmp('sle', '%F', 0)}, {f.cmp('sle', p, 0)}")
    go, zero, done2 = f.label("go"), f.label("k0"), f.label("skip")
    f.cbr(nothing, done, go)
    f.start(go)
    f.cbr(f.cmp("sle", k, 0), zero, done2)
    f.start(zero)
    f.cbr(acc, done, f"{zero}z")
    f.start(f"{zero}z")
    f.loop("0", "%N", 1, lambda n: f.do(
        f"call void @strata_zero(i64 %F, i64 {p}, ptr {f.gep('%out', f.mul(n, '%osn'))}, "
        f"i64 {p})"))
    f.br(done)
    f.start(done2)
    f.loop("0", "%N", 1, lambda n: f.do(
        f"call void @strata_gemm_parallel(i64 {_BLOCKED_KINDS['conv']}, i64 %F, i64 {p}, "
        f"i64 {k}, ptr %filter, i64 {k}, ptr {f.gep('%in', f.mul(n, '%sn'))}, i64 0, "
        f"ptr {f.gep('%out', f.mul(n, '%osn'))}, i64 {p}, i1 {acc}, ptr {cd}, i64 0)"))
    f.br(done)
    f.start(done)
    f.do("ret void")
    out.append(f.text())

    f = _Fn("define void @strata_conv2d_nhwc_f32(i64 %N, i64 %H, i64 %W, i64 %C, i64 %F, "
            f"{_WINDOW}, ptr %in, i64 %sn, i64 %shs, i64 %sws, ptr %filter, i32 %ftrans, "
            "ptr %out, i64 %osn, i32 %accumulate) #0")
    p, k, direct = _conv_sizes(f, f.cmp("eq", "%sws", "%C"),
                               f.cmp("eq", "%shs", f.mul("%W", "%C")))
    trans = f("icmp ne i32 %ftrans, 0")

    def gemm_nhwc(n, a):
        c = f.gep("%out", f.mul(n, "%osn"))
        yes, no, done = f.label("t"), f.label("n"), f.label("g")
        f.cbr(trans, yes, no)
        for lbl, name, ldb in ((yes, "strata_sgemm_nt_f32", k), (no, "strata_sgemm_f32", "%F")):
            f.start(lbl)
            f.do(f"call void @{name}(i64 {p}, i64 %F, i64 {k}, ptr {a}, i64 {k}, "
                 f"ptr %filter, i64 {ldb}, ptr {c}, i64 %F, i32 %accumulate)")
            f.br(done)
        f.start(done)

    def im2col_nhwc(n, col):
        f.do(f"call void @strata_im2col_nhwc(i64 %C, i64 %KH, i64 %KW, i64 %OH, i64 %OW, "
             f"i64 %sh, i64 %sw, i64 %dh, i64 %dw, ptr {f.gep('%in', f.mul(n, '%sn'))}, "
             f"i64 %shs, i64 %sws, ptr {col})")
    _conv_body(f, direct, f.mul(k, p), gemm_nhwc, im2col_nhwc)
    out.append(f.text())
    return "\n".join(out)


_WINDOW = ("i64 %KH, i64 %KW, i64 %OH, i64 %OW, i64 %sh, i64 %sw, i64 %dh, i64 %dw")


def _conv_sizes(f: _Fn, *contiguous) -> tuple:
    """(output pixels, C*KH*KW, whether the image is its own im2col matrix: a 1x1,
    stride-1 window over an image whose `contiguous` stride checks hold)."""
    p = f.mul("%OH", "%OW")
    k = f.mul(f.mul("%C", "%KH"), "%KW")
    direct = _all(f, [f.cmp("eq", "%KH", 1), f.cmp("eq", "%KW", 1), f.cmp("eq", "%sh", 1),
                      f.cmp("eq", "%sw", 1), f.cmp("eq", "%OW", "%W"), *contiguous])
    return p, k, direct


def _all(f: _Fn, conds: list) -> str:
    acc = conds[0]
    for c in conds[1:]:
        acc = f(f"and i1 {acc}, {c}")
    return acc


def _direct_images(f: _Fn, direct: str, gemm) -> str:
    """When `direct`: gemm(n, image n) for each image, then the returned label (not yet
    started); the code after this call is the other case."""
    yes, no, done = f.label("direct"), f.label("other"), f.label("ret")
    f.cbr(direct, yes, no)
    f.start(yes)
    f.loop("0", "%N", 1, lambda n: gemm(n, f.gep("%in", f.mul(n, "%sn"))))
    f.br(done)
    f.start(no)
    return done


def _conv_body(f: _Fn, direct: str, col_floats: str, gemm, im2col) -> None:
    """for each image n: gemm(n, image n) when `direct`, else im2col(n, col) and
    gemm(n, col) with a scratch buffer of col_floats floats."""
    done = _direct_images(f, direct, gemm)
    col = f(f"call ptr @malloc(i64 {f.mul(col_floats, 4)})")

    def image(n):
        im2col(n, col)
        gemm(n, col)
    f.loop("0", "%N", 1, image)
    f.do(f"call void @free(ptr {col})")
    f.br(done)
    f.start(done)
    f.do("ret void")


# ---------------------------------------------------------------- the library


# Public kernels and the internal functions each one needs.
KERNELS = ("strata_sgemm_f32", "strata_sgemm_nt_f32", "strata_sgemm_packed_f32",
           "strata_sgemm_batched_f32", "strata_sgemm_nt_batched_f32",
           "strata_sgemm_pack_b_f32", "strata_conv2d_nchw_f32", "strata_conv2d_nhwc_f32",
           "strata_set_num_threads", "strata_get_num_threads")


@functools.lru_cache(maxsize=8)
def sgemm_ir(isa: Isa | None = None) -> str:
    """LLVM IR text of a module defining all the KERNELS for `isa` (default: the host's).
    No target triple or data layout: it is meant to be linked into the model's module."""
    isa = isa or host_isa()
    parts = [f"; Strata fp32 GEMM kernels for {isa.name}: MR={isa.mr} NR={isa.nr} "
             f"KC={isa.kc} MC={isa.mc} NC={isa.nc}\n", _decls(isa)]
    for apack in (True, False):
        parts.extend(_ukr(isa, mr, apack) for mr in range(1, isa.mr + 1))
        parts.append(_rows(isa, apack))
    parts.extend(_dot(isa, dm, dn) for dm, dn in _DOT_TILES)
    parts.extend(_axpy(isa, m, kb) for m, _ in _AXPY_TILES for kb in (_, 1))
    parts.append(_small(isa))
    parts.extend([_pack_n(isa), _pack_t(isa), _pack_a(isa), _pack_b_public(isa),
                  _zero(isa), _blocked(isa, "n"), _blocked(isa, "t"), _blocked(isa, ""),
                  _dot_driver(isa), _public(isa), _im2col_nhwc(isa), _pack_conv(isa),
                  _blocked(isa, "conv"), _parallel(isa), _worker(), _threads_ir(),
                  _batch_ir(),
                  _conv_public(), _attrs(isa)])
    return "\n".join(parts)


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
    from ...conversion.linalg_to_microkernels import pack_b_panels
    return pack_b_panels(b, (isa or host_isa()).nr)


# ---------------------------------------------------------------- standalone use


def _ctypes_signatures() -> dict:
    from ...conversion.linalg_to_microkernels import KERNEL_SIGNATURES
    kinds = {"i64": ctypes.c_int64, "i32": ctypes.c_int32, "ptr": ctypes.c_void_p}
    out = {n: [kinds[t] for t in ts] for n, ts in KERNEL_SIGNATURES.items()}
    out["strata_set_num_threads"] = [ctypes.c_int32]
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
    import os
    d = os.environ.get("STRATA_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "strata")
    return None if d in ("", "0", "off") else d


@functools.lru_cache(maxsize=4)
def kernel_object(isa: Isa | None = None) -> bytes:
    """The kernels as a relocatable, position-independent object file for the host
    (link it into a shared library, or load it into a JIT). Built once per machine: kept
    in $STRATA_CACHE_DIR (default ~/.cache/strata; "off" disables), keyed by the IR
    text and the LLVM version."""
    import hashlib
    import os

    import llvmlite
    isa = isa or host_isa()
    key = hashlib.sha256("\0".join([sgemm_ir(isa), llvmlite.__version__, isa.cpu,
                                     isa.features]).encode()).hexdigest()[:24]
    d = _cache_dir()
    path = os.path.join(d, f"sgemm-{isa.name}-{key}.o") if d else None
    if path and os.path.isfile(path):
        with open(path, "rb") as fh:
            return fh.read()
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
    mod, tm = _optimized(isa or host_isa())
    return tm.emit_assembly(mod)


class KernelLibrary:
    """The kernels loaded in this process (MCJIT, from `kernel_object`): `symbols` maps
    each public kernel name to its address (give them to a JIT'd module that calls
    them); attributes named after the kernels without `strata_` and `_f32`
    (`lib.sgemm`, `lib.sgemm_nt`, ..., `lib.set_num_threads`) are ctypes functions
    taking integers and addresses (`array.ctypes.data`), for tests and benchmarks. The
    kernels use default_threads() threads until told otherwise."""

    def __init__(self, isa: Isa | None = None):
        import llvmlite.binding as llvm
        self.isa = isa or host_isa()
        obj = kernel_object(self.isa)
        tm = _target_machine(self.isa, jit=True)
        self._engine = llvm.create_mcjit_compiler(
            llvm.parse_assembly(f'target triple = "{tm.triple}"\n'), tm)
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self._engine.finalize_object()
        self.symbols = {}
        for name, args in _ctypes_signatures().items():
            addr = self._engine.get_function_address(name)
            self.symbols[name] = addr
            fn = ctypes.CFUNCTYPE(None, *args)(addr)
            setattr(self, name.removeprefix("strata_").removesuffix("_f32"), fn)
        addr = self._engine.get_function_address("strata_get_num_threads")
        self.symbols["strata_get_num_threads"] = addr
        self.get_num_threads = ctypes.CFUNCTYPE(ctypes.c_int32)(addr)
        self.set_num_threads(default_threads())


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


def microkernel_pass(isa: Isa | None = None) -> str:
    """The pipeline entry of strata-linalg-to-microkernels for these kernels: constant
    weights packed for their NR-column panels."""
    return f"strata-linalg-to-microkernels{{weight-panel-width={(isa or host_isa()).nr}}}"


def kernel_symbols() -> dict:
    """{kernel name: address} of the host kernels loaded in this process: the symbols a
    JIT'd model module that calls them needs (see strata.backends.cpu.jit.JitModule)."""
    return dict(load_kernels().symbols)
