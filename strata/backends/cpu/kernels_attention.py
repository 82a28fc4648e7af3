"""The fused attention kernel's LLVM IR (flash-style, f32): softmax(Q K^T * scale + mask) V
without the seq x seq matrix in memory. `attention_functions(isa)` is all of it, as
function definitions; the signature is `KERNEL_SIGNATURES["strata_attention_f32"]`
(strata/conversion/cpu_kernel_abi.py), the call comes from strata/conversion/
attention_to_microkernels.py:

    strata_attention_f32(B1, B2, M, N, D, E,
                         Q, q1, q2, ldq,          Q[b1,b2,i,d]  at Q + b1 q1 + b2 q2 + i ldq + d
                         K, k1, k2, kj, kd,       K[b1,b2,j,d]  at K + b1 k1 + b2 k2 + j kj + d kd
                         V, v1, v2, vj, ve,       V[b1,b2,j,e]  likewise
                         O, o1, o2, ldo,          O[b1,b2,i,e]  at O + b1 o1 + b2 o2 + i ldo + e
                         scale,                   f32
                         mask, m1, m2, mi, mj,    an additive mask (null: none; strides may
                                                  be 0: broadcast)
                         flags)                   ATTN_SAFE_SOFTMAX: a row whose scores are
                                                  all -inf gives 0, not NaN;
                                                  ATTN_NAN_TO_ZERO: that, and a row
                                                  with a NaN or +inf score too;
                                                  ATTN_CAUSAL: key j of row i masked
                                                  when j > i (no mask read for it)

    O[b1,b2,i,:] = sum_j softmax_j(scale * Q[i,:].K[j,:] + mask[i,j]) V[j,:]

[Note: flash attention on the CPU]
- Phase 1 (parallel over the B1*B2 heads): K^T and V of each head are packed into the
  GEMM micro-kernels' NR-wide panels (kernels_gemm.py): K^T as ceil(N/NR) panels of
  D x NR (the "B" of S = Q K^T), V as ceil(E/NR) panels of N x NR (the "B" of O += P V),
  zero padded. Packing once per head (not once per block of queries) keeps its cost at
  1/(query rows) of the products'.
- Phase 2 (parallel over heads x blocks of ATTN_BM query rows): the block's output rows
  are the accumulator. For each block of ATTN_BN keys: S = Q K^T (the micro-kernels
  strata_ukr_<mr>a, MR rows at a time, S in a BM x BN scratch that stays in L1/L2);
  per row, s = S * scale + mask, the running max m and sum l updated online (m' =
  max(m, max_j s), alpha = exp(m - m'), l = l alpha + sum_j exp(s - m'), the row of O
  scaled by alpha) and P = exp(s - m') written over S (exp as below); then O += P V
  (the micro-kernels again, accumulating, K = the block's keys). At the end O /= l.
  The rows of a block run in one of three loops, chosen once: no mask, a contiguous
  mask row, a strided one (gathered).
- Causal (ATTN_CAUSAL, torch's is_causal: key j of query row i masked when j > i): a
  task stops at the key block after its last row, so about half the products and
  softmax work is never done; the blocks the task's diagonal crosses run the row loops
  with a lane compare (key index > row index -> -inf) in the score, the others none.
  A NaN in a masked key's score or value therefore never reaches the row (torch's own
  CPU flash kernel for is_causal skips those blocks likewise; its math form, bias added
  to every score, would give NaN).
- Numerics as the decomposed graph computes them (ONNX Softmax, torch's math SDPA):
  max and the exp of a masked (-inf) score is 0; while every score so far is -inf the
  running max is taken as 0 (exp(-inf - -inf) would be NaN); a row with no finite score
  ends with l = 0: 0/0 = NaN as a plain softmax gives, or 0 with ATTN_SAFE_SOFTMAX
  (torch's _safe_softmax) or ATTN_NAN_TO_ZERO (the ONNX exporter's where(isnan(p), 0,
  p), which also zeroes a row whose sum is NaN: a NaN or +inf score). A NaN score makes
  the whole row NaN, as in the reference: the running max skips it (a compare and
  select per vector, one vmaxps, not llvm.maximum's NaN-propagating expansion), but its
  exp(NaN - m) is NaN, so is the row's sum and every output of the row (NaN * V);
  a +inf score gives max +inf and inf - inf = NaN likewise.
- The softmax runs in the log2 domain: the scale is multiplied by log2(e) once, the
  mask by it in the score's FMA, and exp(s - m) is 2**(s' - m')
  (kernel_ir.vsoftmax_exp2: polynomial.py's softmax_exp2, a degree-5 polynomial and
  one product, 1.1e-7 relative, exactly 0 below 2**-126, the least normal, and at
  -inf, NaN kept): about half the operations of the general exp, and no subnormal is ever produced (each costs a microcode assist:
  a quarter of the keys masked made the old kernel 30% slower). Pass 1 takes the max of
  the scores without storing them (pass 2 computes them again: an FMA is cheaper than
  a store and a load), except a gathered mask's, written back once. The row of O is
  rescaled only when its max grew (alpha exactly 1 otherwise: most key blocks after
  the first few).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...conversion.cpu_kernel_abi import ATTN_CAUSAL, ATTN_NAN_TO_ZERO, ATTN_SAFE_SOFTMAX
from .guard import checked_bytes, checked_malloc
from .kernel_ir import (Fn, f32_const, fma, lane_mask, splat, vec_type, vload,
                        vsoftmax_exp2, vsplat, vstore)
from .kernels_gemm import _load_work, _store_work

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["attention_functions", "ATTN_BM", "ATTN_BN"]

# Query rows per task and keys per block (multiples of every ISA's MR / NR: 48 = 6*8,
# 256 = 16*16 = 32*8 = 12*...; rounded per ISA below). 256 keys, not 64: the per row and
# block work (two horizontal reductions, alpha, O's rescale, the accumulator tile of
# O += P V loaded and stored) is a quarter; S (48 x 256 floats, 48 KiB) stays in L2.
# Attention alone at 1 thread, 6 heads of 64, vs OpenVINO in the same loop: seq 1500
# 1.22 -> 0.96, 512 1.00 -> 0.85 (BN 128 1.06 / 0.91, 512 like 256).
ATTN_BM = 48
ATTN_BN = 256

_ARGS = ("i64 %B1, i64 %B2, i64 %M, i64 %N, i64 %D, i64 %E, "
         "ptr %Q, i64 %q1, i64 %q2, i64 %ldq, ptr %K, i64 %k1, i64 %k2, i64 %kj, i64 %kd, "
         "ptr %V, i64 %v1, i64 %v2, i64 %vj, i64 %ve, ptr %O, i64 %o1, i64 %o2, i64 %ldo, "
         "float %scale, ptr %mask, i64 %m1, i64 %m2, i64 %mi, i64 %mj, i32 %flags")
_FIELDS = ("B1", "B2", "M", "N", "D", "E", "Q", "q1", "q2", "ldq", "K", "k1", "k2", "kj",
           "kd", "V", "v1", "v2", "vj", "ve", "O", "o1", "o2", "ldo", "scale", "mask", "m1",
           "m2", "mi", "mj", "flags", "KP", "VP", "kpn", "vpn", "bm", "bn")
_TYPES = {"Q": "ptr", "K": "ptr", "V": "ptr", "O": "ptr", "mask": "ptr", "KP": "ptr",
          "VP": "ptr", "flags": "i32", "scale": "i32"}


def _bn(isa: Isa) -> int:
    return max(isa.nr, ATTN_BN // isa.nr * isa.nr)


def _bm(isa: Isa) -> int:
    return max(isa.mr, ATTN_BM // isa.mr * isa.mr)


def _pack(isa: Isa) -> str:
    """strata_attn_pack(work, lo, hi): K^T and V panels of heads lo..hi-1 (phase 1)."""
    nr = isa.nr
    f = Fn("define internal void @strata_attn_pack(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _FIELDS, _TYPES)

    def head(h):
        b1 = f(f"sdiv i64 {h}, {v['B2']}")
        b2 = f(f"srem i64 {h}, {v['B2']}")
        kb = f.gep(v["K"], f.add(f.mul(b1, v["k1"]), f.mul(b2, v["k2"])))
        vb = f.gep(v["V"], f.add(f.mul(b1, v["v1"]), f.mul(b2, v["v2"])))
        kp = f.gep(v["KP"], f.mul(h, v["kpn"]))
        vp = f.gep(v["VP"], f.mul(h, v["vpn"]))
        # K^T: panel p = keys p*NR.., D x NR
        npk = f(f"sdiv i64 {f.add(v['N'], nr - 1)}, {nr}")

        def kpanel(p):
            base = f.gep(kp, f.mul(f.mul(p, v["D"]), nr))
            j0 = f.mul(p, nr)
            nj = f.min(f.sub(v["N"], j0), nr)

            def dstep(d):
                row = f.gep(base, f.mul(d, nr))
                src = f.gep(kb, f.add(f.mul(j0, v["kj"]), f.mul(d, v["kd"])))
                def copy(jj):
                    x = f(f"load float, ptr {f.gep(src, f.mul(jj, v['kj']))}, align 4")
                    f.do(f"store float {x}, ptr {f.gep(row, jj)}, align 4")
                f.loop("0", nj, 1, copy)
                f.loop(nj, str(nr), 1, lambda jj: f.do(
                    f"store float 0.0, ptr {f.gep(row, jj)}, align 4"))
            f.loop("0", v["D"], 1, dstep)
        f.loop("0", npk, 1, kpanel)
        # V: panel q = columns q*NR.., N x NR
        npv = f(f"sdiv i64 {f.add(v['E'], nr - 1)}, {nr}")

        def vpanel(q):
            base = f.gep(vp, f.mul(f.mul(q, v["N"]), nr))
            e0 = f.mul(q, nr)
            ne = f.min(f.sub(v["E"], e0), nr)
            unit = f.cmp("eq", v["ve"], 1)

            def jstep(j):
                row = f.gep(base, f.mul(j, nr))
                src = f.gep(vb, f.add(f.mul(j, v["vj"]), f.mul(e0, v["ve"])))
                fast, slow, done = f.label("vf"), f.label("vs"), f.label("vd")
                f.cbr(unit, fast, slow)
                f.start(fast)
                for k in range(isa.nv):
                    m = lane_mask(f, isa, f.sub(ne, k * isa.width) if k else ne)
                    x = vload(f, isa, f.gep(src, k * isa.width) if k else src, m)
                    vstore(f, isa, x, f.gep(row, k * isa.width) if k else row)
                f.br(done)
                f.start(slow)
                def copy(e):
                    x = f(f"load float, ptr {f.gep(src, f.mul(e, v['ve']))}, align 4")
                    f.do(f"store float {x}, ptr {f.gep(row, e)}, align 4")
                f.loop("0", ne, 1, copy)
                f.loop(ne, str(nr), 1, lambda e: f.do(
                    f"store float 0.0, ptr {f.gep(row, e)}, align 4"))
                f.br(done)
                f.start(done)
            f.loop("0", v["N"], 1, jstep)
        f.loop("0", npv, 1, vpanel)
    f.loop("%lo", "%hi", 1, head)
    f.do("ret void")
    return f.text()


def _call_ukr(f: Fn, isa: Isa, mr: str, args: str) -> None:
    """switch on the row count `mr` (1..MR) calling strata_ukr_<mr>a(args)."""
    f.switch(mr, {k: k for k in range(1, isa.mr + 1)},
             lambda k: f.do(f"call void @strata_ukr_{k}a({args})"))


def _tasks(isa: Isa) -> str:
    """strata_attn_tasks(work, lo, hi): tasks lo..hi-1 of phase 2 (task t: head t / nqb,
    query rows (t % nqb) * BM ..)."""
    W, V, nr, MR = isa.width, vec_type(isa), isa.nr, isa.mr
    bm, bn = _bm(isa), _bn(isa)
    f = Fn("define internal void @strata_attn_tasks(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _FIELDS, _TYPES)
    scale = f(f"bitcast i32 {v['scale']} to float")
    vscale = splat(f, isa, f(f"fmul float {scale}, {f32_const(math.log2(math.e))}"))
    vlog2e = vsplat(isa, math.log2(math.e))
    flags = v["flags"]
    safe = f(f"icmp ne i32 {f(f'and i32 {flags}, {ATTN_SAFE_SOFTMAX}')}, 0")
    nan0 = f(f"icmp ne i32 {f(f'and i32 {flags}, {ATTN_NAN_TO_ZERO}')}, 0")
    causal = f(f"icmp ne i32 {f(f'and i32 {flags}, {ATTN_CAUSAL}')}, 0")
    lanes = f"<{', '.join(f'i32 {k}' for k in range(W))}>"
    vninf = vsplat(isa, -math.inf)
    has_mask = f(f"icmp ne ptr {v['mask']}, null")
    no_keys = f.cmp("sle", v["N"], 0)
    mj_unit = f.cmp("eq", v["mj"], 1)
    # scratch: S (BM x BN), the running max and sum (BM each)
    scratch = checked_malloc(f, str((bm * bn + 2 * bm) * 4 + 64), "attention")
    S = scratch
    mrow = f.gep(S, bm * bn)
    lrow = f.gep(mrow, bm)
    nqb = f(f"sdiv i64 {f.add(v['M'], bm - 1)}, {bm}")
    npv = f(f"sdiv i64 {f.add(v['E'], nr - 1)}, {nr}")
    ninf = "0xFFF0000000000000"

    def task(t):
        h = f(f"sdiv i64 {t}, {nqb}")
        i0 = f.mul(f(f"srem i64 {t}, {nqb}"), bm)
        rows = f.min(f.sub(v["M"], i0), bm)
        b1 = f(f"sdiv i64 {h}, {v['B2']}")
        b2 = f(f"srem i64 {h}, {v['B2']}")
        qb = f.gep(v["Q"], f.add(f.add(f.mul(b1, v["q1"]), f.mul(b2, v["q2"])),
                                 f.mul(i0, v["ldq"])))
        ob = f.gep(v["O"], f.add(f.add(f.mul(b1, v["o1"]), f.mul(b2, v["o2"])),
                                 f.mul(i0, v["ldo"])))
        mb = f.gep(v["mask"], f.add(f.add(f.mul(b1, v["m1"]), f.mul(b2, v["m2"])),
                                    f.mul(i0, v["mi"])))
        kp = f.gep(v["KP"], f.mul(h, v["kpn"]))
        vp = f.gep(v["VP"], f.mul(h, v["vpn"]))

        def init_row(r):
            f.do(f"store float {ninf}, ptr {f.gep(mrow, r)}, align 4")
            f.do(f"store float 0.0, ptr {f.gep(lrow, r)}, align 4")
            orow = f.gep(ob, f.mul(r, v["ldo"]))
            _row_vectors(f, isa, v["E"], lambda at, m: vstore(
                f, isa, "zeroinitializer", f.gep(orow, at), m))
        f.loop("0", rows, 1, init_row)

        def kblock(j0):
            n = f.min(f.sub(v["N"], j0), bn)
            npk = f(f"sdiv i64 {f.add(n, nr - 1)}, {nr}")
            kp0 = f.gep(kp, f.mul(f(f"sdiv i64 {j0}, {nr}"), f.mul(v["D"], nr)))

            # S = Q K^T for the block
            def rgroup(r0):
                mr = f.min(f.sub(rows, r0), MR)
                a = f.gep(qb, f.mul(r0, v["ldq"]))

                def panel(p):
                    nv = f.min(f.sub(n, f.mul(p, nr)), nr)
                    _call_ukr(f, isa, mr,
                              f"i64 {v['D']}, ptr {a}, i64 {v['ldq']}, "
                              f"ptr {f.gep(kp0, f.mul(f.mul(p, v['D']), nr))}, "
                              f"ptr {f.gep(S, f.add(f.mul(r0, bn), f.mul(p, nr)))}, "
                              f"i64 {bn}, i64 {nv}, i1 false")
                f.loop("0", npk, 1, panel)
            f.loop("0", rows, MR, rgroup)

            # the online softmax, row by row, in the log2 domain ([Note: flash
            # attention on the CPU]: scores * log2(e), exp2)
            def srow(r, mode, diag):
                srow_p = f.gep(S, f.mul(r, bn))
                mrow_p = f.gep(mb, f.add(f.mul(r, v["mi"]), f.mul(j0, v["mj"])))
                if diag:
                    # causal, a block the row's diagonal crosses: keys at > i - j0 masked
                    # (the limit clamped to [-1, BN]: i32 lanes)
                    lim = f.min(f.sub(f.add(i0, r), j0), bn)
                    lim = f(f"call i64 @llvm.smax.i64(i64 {lim}, i64 -1)")
                    vlim = splat(f, isa, f(f"trunc i64 {lim} to i32"), "i32")

                def score(at, m, shift=None):
                    # (s * scale + mask) * log2(e) - shift; mode: no mask / a contiguous
                    # row of it / a strided one (gathered), decided once per block
                    s = vload(f, isa, f.gep(srow_p, at), m)
                    x = f(f"fmul {V} {s}, {vscale}") if shift is None else \
                        fma(f, isa, s, vscale, shift)
                    if mode != "none":
                        mx = vload(f, isa, f.gep(mrow_p, at), m) if mode == "unit" else \
                            _gather(f, isa, mrow_p, at, v["mj"], m)
                        x = fma(f, isa, mx, vlog2e, x)
                    if diag:
                        at32 = splat(f, isa, f(f"trunc i64 {at} to i32"), "i32")
                        j = f(f"add <{W} x i32> {at32}, {lanes}")
                        after = f(f"icmp sgt <{W} x i32> {j}, {vlim}")
                        x = f(f"select <{W} x i1> {after}, {V} {vninf}, {V} {x}")
                    return x

                # pass 1: the scores' max (a gathered mask's scores written back: read
                # once); the others are computed again in pass 2 (cheaper than a store)
                def pass1(at, m, acc):
                    s = score(at, m)
                    if mode == "gather":
                        vstore(f, isa, s, f.gep(srow_p, at), m)
                    s = s if m is None else f(f"select <{W} x i1> {m}, {V} {s}, {V} "
                                              f"{splat(f, isa, ninf)}")
                    # the running max without NaN: one vmaxps, not maximum's expansion
                    # ([Note: flash attention on the CPU]: a NaN still reaches the row)
                    gt = f(f"fcmp ogt {V} {s}, {acc}")
                    return f(f"select <{W} x i1> {gt}, {V} {s}, {V} {acc}")
                vmax = _row_fold(f, isa, n, pass1, splat(f, isa, ninf))
                bmax = f(f"call float @llvm.vector.reduce.fmaximum.v{W}f32({V} {vmax})")
                m_old = f(f"load float, ptr {f.gep(mrow, r)}, align 4")
                m_new = f(f"call float @llvm.maximum.f32(float {m_old}, float {bmax})")
                none = f(f"fcmp oeq float {m_new}, {ninf}")
                m_safe = f(f"select i1 {none}, float 0.0, float {m_new}")
                vm = splat(f, isa, m_safe)
                neg_vm = f(f"fneg {V} {vm}")
                d = f(f"fsub float {m_old}, {m_safe}")
                alpha = f(f"extractelement {V} {vsoftmax_exp2(f, isa, splat(f, isa, d))}, "
                          f"i64 0")

                # pass 2: P = 2**(s - m) over S, its sum
                def pass2(at, m, acc):
                    if mode == "gather":
                        x = f(f"fsub {V} {vload(f, isa, f.gep(srow_p, at), m)}, {vm}")
                    else:
                        x = score(at, m, neg_vm)
                    p = vsoftmax_exp2(f, isa, x)
                    if m is not None:
                        p = f(f"select <{W} x i1> {m}, {V} {p}, {V} zeroinitializer")
                    vstore(f, isa, p, f.gep(srow_p, at), m)
                    return f(f"fadd {V} {acc}, {p}")
                vsum = _row_fold(f, isa, n, pass2, "zeroinitializer")
                bsum = f(f"call float @llvm.vector.reduce.fadd.v{W}f32(float 0.0, {V} {vsum})")
                l_old = f(f"load float, ptr {f.gep(lrow, r)}, align 4")
                l_new = f(f"call float @llvm.fmuladd.f32(float {l_old}, float {alpha}, "
                          f"float {bsum})")
                f.do(f"store float {l_new}, ptr {f.gep(lrow, r)}, align 4")
                f.do(f"store float {m_new}, ptr {f.gep(mrow, r)}, align 4")
                # O's row *= alpha, unless the max stayed (alpha exactly 1: most blocks
                # after the first few)
                orow = f.gep(ob, f.mul(r, v["ldo"]))
                va = splat(f, isa, alpha)
                def rescale(at, m):
                    x = vload(f, isa, f.gep(orow, at), m)
                    vstore(f, isa, f(f"fmul {V} {x}, {va}"), f.gep(orow, at), m)
                go, skip = f.label("rescale"), f.label("kept")
                f.cbr(f(f"fcmp oeq float {d}, 0.0"), skip, go)
                f.start(go)
                _row_vectors(f, isa, v["E"], rescale)
                f.br(skip)
                f.start(skip)
            unit = f(f"and i1 {has_mask}, {mj_unit}")
            # causal: the block crosses the diagonal of a row of the task (a key after
            # the first row's own)
            diag = f(f"and i1 {causal}, {f.cmp('sgt', f.add(j0, f.sub(n, 1)), i0)}")
            done = f.label("rowsdone")
            plain, diagonal = f.label("plain"), f.label("diagonal")
            f.cbr(diag, diagonal, plain)
            for is_diag, start in ((False, plain), (True, diagonal)):
                f.start(start)
                modes = {"none": f.label("nomask"), "unit": f.label("umask"),
                         "gather": f.label("gmask")}
                pick = f.label("pickmask")
                f.cbr(unit, modes["unit"], pick)
                f.start(pick)
                f.cbr(has_mask, modes["gather"], modes["none"])
                for mode, lab in modes.items():
                    f.start(lab)
                    f.loop("0", rows, 1, lambda r, mode=mode, d=is_diag: srow(r, mode, d))
                    f.br(done)
            f.start(done)

            # O += P V_block
            def rgroup2(r0):
                mr = f.min(f.sub(rows, r0), MR)
                a = f.gep(S, f.mul(r0, bn))

                def panel(q):
                    ne = f.min(f.sub(v["E"], f.mul(q, nr)), nr)
                    b = f.gep(vp, f.add(f.mul(f.mul(q, v["N"]), nr), f.mul(j0, nr)))
                    c = f.gep(ob, f.add(f.mul(r0, v["ldo"]), f.mul(q, nr)))
                    _call_ukr(f, isa, mr, f"i64 {n}, ptr {a}, i64 {bn}, ptr {b}, ptr {c}, "
                                          f"i64 {v['ldo']}, i64 {ne}, i1 true")
                f.loop("0", npv, 1, panel)
            f.loop("0", rows, MR, rgroup2)
        # causal: no key after the task's last row is read (every one is masked)
        kend = f(f"select i1 {causal}, i64 {f.min(v['N'], f.add(i0, rows))}, i64 {v['N']}")
        f.loop("0", kend, bn, kblock)

        # O /= l (l = 0: NaN, or 0 with ATTN_SAFE_SOFTMAX)
        def finish(r):
            lv = f(f"load float, ptr {f.gep(lrow, r)}, align 4")
            lzero = f(f"fcmp oeq float {lv}, 0.0")
            zero = f(f"and i1 {f(f'or i1 {safe}, {nan0}')}, {lzero}")
            lnan = f(f"fcmp uno float {lv}, 0.0")
            zero = f(f"or i1 {zero}, {f(f'and i1 {nan0}, {lnan}')}")
            # no keys at all: an empty sum, 0 (not the 0/0 of masked keys)
            zero = f(f"or i1 {zero}, {no_keys}")
            inv = f(f"fdiv float 1.0, {lv}")
            orow = f.gep(ob, f.mul(r, v["ldo"]))
            vi = splat(f, isa, inv)

            def scale_row(at, m):
                x = vload(f, isa, f.gep(orow, at), m)
                # x / l, as x * (1/l) with 0 * inf = NaN for the 0/0 of an empty row
                q = f(f"fdiv {V} {x}, {splat(f, isa, lv)}")
                y = f(f"select i1 {lzero}, {V} {q}, {V} {f(f'fmul {V} {x}, {vi}')}")
                y = f(f"select i1 {zero}, {V} zeroinitializer, {V} {y}")
                vstore(f, isa, y, f.gep(orow, at), m)
            _row_vectors(f, isa, v["E"], scale_row)
        f.loop("0", rows, 1, finish)
    f.loop("%lo", "%hi", 1, task)
    f.do(f"call void @free(ptr {scratch})")
    f.do("ret void")
    return f.text()


def _gather(f: Fn, isa: Isa, base: str, at: str, stride: str, mask) -> str:
    """<W x float> of base[(at + l) * stride] for the lanes l (those of `mask` only)."""
    W, V = isa.width, vec_type(isa)
    x = "zeroinitializer"
    for lane in range(W):
        idx = f.mul(f.add(at, lane) if lane else at, stride)
        # lanes past the row read lane 0's element (in bounds), then masked off
        if mask is not None:
            on = f(f"extractelement <{W} x i1> {mask}, i64 {lane}")
            idx = f(f"select i1 {on}, i64 {idx}, i64 {f.mul(at, stride)}")
        e = f(f"load float, ptr {f.gep(base, idx)}, align 4")
        x = f(f"insertelement {V} {x}, float {e}, i64 {lane}")
    return x


def _row_vectors(f: Fn, isa: Isa, n: str, body) -> None:
    """body(at, mask) over the vectors of a row of n floats (mask None: whole vectors; the
    tail with a lane mask)."""
    W = isa.width
    main = f.sub(n, f(f"srem i64 {n}, {W}"))
    f.loop("0", main, W, lambda at: body(at, None))
    tail, done = f.label("tail"), f.label("tdone")
    f.cbr(f.cmp("slt", main, n), tail, done)
    f.start(tail)
    body(main, lane_mask(f, isa, f.sub(n, main)))
    f.br(done)
    f.start(done)


def _row_fold(f: Fn, isa: Isa, n: str, body, init: str) -> str:
    """acc = body(at, mask, acc) over the vectors of a row of n floats; returns acc."""
    W, V = isa.width, vec_type(isa)
    main = f.sub(n, f(f"srem i64 {n}, {W}"))
    (acc,) = f.loop("0", main, W, lambda at, c: [body(at, None, c[0])], [(V, init)])
    pre = f.block
    tail, done = f.label("tail"), f.label("tdone")
    f.cbr(f.cmp("slt", main, n), tail, done)
    f.start(tail)
    acc2 = body(main, lane_mask(f, isa, f.sub(n, main)), acc)
    end = f.block
    f.br(done)
    f.start(done)
    return f(f"phi {V} [ {acc2}, %{end} ], [ {acc}, %{pre} ]")


def _public(isa: Isa) -> str:
    nr = isa.nr
    f = Fn(f"define void @strata_attention_f32({_ARGS}) #0")
    v = {x: f"%{x}" for x in _FIELDS}
    heads = f.mul("%B1", "%B2")
    empty = f(f"or i1 {f.cmp('sle', heads, 0)}, {f.cmp('sle', '%M', 0)}")
    empty = f(f"or i1 {empty}, {f.cmp('sle', '%E', 0)}")
    go, out = f.label("go"), f.label("out")
    f.cbr(empty, out, go)
    f.start(go)
    npk = f(f"sdiv i64 {f.add('%N', nr - 1)}, {nr}")
    npv = f(f"sdiv i64 {f.add('%E', nr - 1)}, {nr}")
    v["kpn"] = f.mul(f.mul(npk, "%D"), nr)
    v["vpn"] = f.mul(f.mul(npv, "%N"), nr)
    per = f.add(v["kpn"], v["vpn"])
    buf = checked_malloc(f, checked_bytes(f, [heads, f.add(per, 16), "4"]), "attention_kv")
    v["KP"] = buf
    v["VP"] = f.gep(buf, f.mul(heads, v["kpn"]))
    v["scale"] = f("bitcast float %scale to i32")
    v["bm"], v["bn"] = str(_bm(isa)), str(_bn(isa))
    work = _store_work(f, _FIELDS, _TYPES, v)
    f.do(f"call void @strata_parallel_for(ptr @strata_attn_pack, ptr {work}, i64 {heads}, "
         f"i64 1)")
    nqb = f(f"sdiv i64 {f.add('%M', _bm(isa) - 1)}, {_bm(isa)}")
    f.do(f"call void @strata_parallel_for(ptr @strata_attn_tasks, ptr {work}, "
         f"i64 {f.mul(heads, nqb)}, i64 1)")
    f.do(f"call void @free(ptr {buf})")
    f.br(out)
    f.start(out)
    f.do("ret void")
    return f.text()


def attention_functions(isa: Isa) -> list:
    """The attention kernel for `isa`, as LLVM IR text (the intrinsics it calls are
    declared by kernel_ir.declarations)."""
    return [_pack(isa), _tasks(isa), _public(isa)]
