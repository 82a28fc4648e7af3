"""The Winograd convolution kernel's LLVM IR: strata_conv2d_winograd_f32, a 3x3, stride-1,
undilated NCHW convolution as Winograd's minimal filtering F(2x2, 3x3) or, with flags &
16 (TILE4), F(4x4, 3x3) (Lavin & Gray, "Fast Algorithms for Convolutional Neural
Networks", 2016). `winograd_functions(isa)` is all of it.

    strata_conv2d_winograd_f32(N, C, H, W, F, OH, OW, pt, pl, in, sn, sc, sh, U,
                               out, osn, osc, osh, acc, bias, res, rsn, rsc, rsh, flags)

`in` is the unpadded H x W image, NCHW with unit W stride and strides sn / sc / sh;
output (oh, ow) reads the 3x3 window from row oh - pt, column ow - pl, the taps outside
the image being zeros ([Note: Winograd's padding]);
`out` is N x F x OH x OW with unit W stride and strides osn / osc / osh. U is the
transformed filter, 16 x F x C (U[4*i + j] = (G g G^T)[i][j] for each filter g,
computed at compile time by strata-linalg-conv-to-winograd; 36 x F x C with TILE4).
The epilogue, per output element, in this order: + bias[f] (flags & 1; `bias` F
floats), + res[n, f, oh, ow] (flags & 2; `res` strided as rsn / rsc / rsh, unit W
stride), + the output's old value (acc != 0), max(., 0) (flags & 4: ReLU,
NaN-propagating as arith.maximumf).

[Note: Winograd convolution]
Each 2x2 block of outputs (a tile) of one channel pair is the 4x4 input patch d under it,
transformed: y = A^T [ (G g G^T) * (B^T d B) ] A, an elementwise product of 16 values
where the direct convolution spends 36 multiply-adds. Summed over the input channels,
the 16 elementwise products become 16 matrix products, one per position xi of the 4x4:
M[xi] (F x T) = U[xi] (F x C) . V[xi] (C x T), T = the tiles of the image. So per image:
1. input transform (parallel over channels): V[xi][c][t] = (B^T d B)[xi] for every tile
   t = th * TW + tw, W tiles of a tile row per vector (the patch columns of adjacent
   tiles are two apart: even lanes of two loads), down a column of tiles carrying the
   row transforms of the two input rows adjacent tile rows share; input outside the
   image (its padding, [Note: Winograd's padding]) reads as zeros (masked loads);
   whole-vector stores only (see column_either);
2. the 16 products in parallel, each on the calling thread's GEMM kernel
   (strata_wino_gemm: strata_sgemm_f32 inside a pool chunk runs inline); or, with U
   given in the PACKED_U layout (flags & 8), transposed: M[xi]^T = V[xi]^T . U[xi]^T,
   U[xi]^T packed at compile time in panels of NR filters (strata_wino_gemm_t). Each
   panel is one sequential stream of C x NR floats, read once and reused for every MR
   tiles of V (read in place, no packing at run time), and the tiles of a product need
   no masked N tail (49 tiles = 8 x 6 + 1 rows, not 4 x 16 columns); the micro-kernel
   stores its MR x NR tile transposed into M's rows. Deep convolutions with few tiles
   (ResNet's last stages: a filter element used for 16 or 49 tiles only) run 1.05-1.3x
   faster this way;
3. output transform (parallel over filters): out[f] (+)= A^T M A plus the epilogue, the
   two columns of a tile's outputs interleaved back into rows with shuffles, stores
   masked at the image's edge (the output is the caller's).
2.25x fewer multiply-adds than the direct product (ResNet-18's 3x3 convolutions: 83%
of its work), at the price of the transforms (additions only) and of V and M (16 x C x T
and 16 x F x T floats, a scratch buffer per call). The transform coefficients are 0, +-1
and 1/2: F(2x2, 3x3) loses next to nothing in fp32; larger tiles lose more (see [Note:
Winograd's larger tiles]).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .guard import checked_malloc
from .kernel_ir import Fn, all_of, fma, lane_mask, splat, vec_type, vload, vstore
from .kernels_gemm import pf_calls, ukr_accumulate

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["winograd_functions", "winograd_filter", "transposed_rows", "BIAS", "RESIDUAL", "RELU", "PACKED_U",
           "TILE4"]

# [Note: Winograd's padding]
# The kernel reads the unpadded image; its padding (pt rows above, pl columns left;
# below and right, whatever OH and OW reach past the image) is zeros. ONNX's and torch's
# padded 3x3s were lowered to a zero-filled buffer and a copy of the image into it
# before the call (ResNet-50: 11 copies of 0.4-0.8 MB). The input transform reads patch
# row m th + r - pt, columns m tw + j - pl of each tile: rows outside the image are
# masked off whole (an unsigned compare against H), columns by a range mask per load
# (lanes [pl - m tw - j, W + pl - m tw - j) of the load at m tw + j - pl), as the image's
# right and bottom edges were before. The unmasked path ("full") stays for columns of
# tiles wholly inside; pt <= 2 keeps every row of the tile rows after the first (m th +
# 2 - pt on) inside the top, so the first tile row's two carried rows (-pt, 1 - pt) are
# the only ones that may lie above: loaded from row 0 and replaced by zeros. Negative
# padding is refused (nothing written), as the other convolution kernels do; a padding
# of 3 rows or more runs the masked path. Measured, 1 thread, process time, in one
# process, read in place / padded copy: DenseNet-121 0.875 (its 3x3s read BN + ReLU
# outputs, each copied before), ResNet-18 0.95, ResNet-50 1.00 (its 56-14 px layers
# 0.99-1.04: the copies were L2-resident); compile CPU time ResNet-50 1.75 -> 1.60 s,
# ResNet-18 1.02 -> 0.86 s (medians of 4: a fill and a copy loop nest less per 3x3).

# The fields of the parallel chunk functions' context (i64 each; pointers as integers).
_IN_FIELDS = ("img", "sc", "sh", "H", "W", "TH", "TW", "V", "C", "pt", "pl")
_OUT_FIELDS = ("M", "out", "osc", "osh", "OH", "OW", "TH", "TW", "F", "MF", "acc", "bias",
               "res", "rsc", "rsh", "flags")
# The 16 planes of V and of M are this many floats (a cache line) more apart than their
# size: the transforms touch all 16 at once, and planes a multiple of 4 KiB apart would
# all fall in one set of the L1 cache.
_SKEW = 16     # also the slack whole-vector reads of M may run past the last plane
#                (at least the widest vector: 16 floats)
_GEMM_FIELDS = ("U", "V", "M", "F", "MF", "C", "T", "XI")     # XI: 16 or 36 products
_PTRS = {"img", "V", "M", "out", "U", "bias", "res"}
# Epilogue flags (the `flags` argument): a bias vector, a residual to add, ReLU; the
# layout of U (PACKED_U: the transposed products, see [Note: Winograd convolution]); and
# the tile (TILE4: F(4x4, 3x3), U 36 x F x C, see [Note: Winograd's larger tiles]).
BIAS, RESIDUAL, RELU, PACKED_U, TILE4 = 1, 2, 4, 8, 16


def _context(f: Fn, fields, values: dict) -> str:
    ctx = f(f"alloca [{len(fields)} x i64], align 8")
    for i, name in enumerate(fields):
        v = values[name]
        if name in _PTRS:
            v = f(f"ptrtoint ptr {v} to i64")
        f.do(f"store i64 {v}, ptr {f.gep(ctx, i, 'i64')}, align 8")
    return ctx


def _fields(f: Fn, fields) -> dict:
    out = {}
    for i, name in enumerate(fields):
        v = f(f"load i64, ptr {f.gep('%ctx', i, 'i64')}, align 8")
        out[name] = f(f"inttoptr i64 {v} to ptr") if name in _PTRS else v
    return out


def _fadd(f, V, a, b):
    return f(f"fadd {V} {a}, {b}")


def _fsub(f, V, a, b):
    return f(f"fsub {V} {a}, {b}")


def _either(f: Fn, full: str, emit) -> None:
    """emit(True) where `full` holds (no masks needed), emit(False) elsewhere."""
    yes, no, join = f.label("full"), f.label("masked"), f.label("either")
    f.cbr(full, yes, no)
    for lbl, which in ((yes, True), (no, False)):
        f.start(lbl)
        emit(which)
        f.br(join)
    f.start(join)


def _columns(f: Fn, isa: Isa, p: dict, m: int, column) -> None:
    """column(tw, full) for each column of W tiles of an input transform with m x m
    output tiles, full where no load needs a mask: W whole tiles (tw + W <= TW), the
    first load's start (m tw - pl) and the last load's end (m tw + (m + 1) + mW - 1 - pl,
    patch column m + 1 of the last tile, read by a whole vector) inside the row, and
    every input row inside (m TH + 1 - pt < H; pt <= 2: [Note: Winograd's padding]).
    Whole-vector stores (masked stores are slow on some CPUs): the tiles past a tile
    row's end land on the next tile row's first ones, so the columns go right to left
    (column 0, last, overwrites them); the last tile row's land in the W floats of slack
    that end each channel's row of V."""
    W = isa.width

    def column_either(tw):
        left = f.sub(f.mul(tw, m), p["pl"])
        full = all_of(f, [f.cmp("sle", f.add(tw, W), p["TW"]),
                          f.cmp("sge", left, 0),
                          f.cmp("slt", f.add(left, m * W + m), p["W"]),
                          f.cmp("slt", f.sub(f.add(f.mul(p["TH"], m), 1), p["pt"]), p["H"]),
                          f.cmp("sle", p["pt"], 2)])
        _either(f, full, lambda which: column(tw, which))
    last_col = f.mul(f(f"sdiv i64 {f.sub(p['TW'], 1)}, {W}"), W)
    f.loop("0", f.add(last_col, W), W, lambda i: column_either(f.sub(last_col, i)))


def _patch_loads(f: Fn, isa: Isa, p: dict, base, row, tw, full, m: int, last_row,
                 above: bool = False):
    """For each patch column j (0 .. m + 1) of W tiles from tw with m x m outputs, the m
    vectors loaded from input row `row` at m tw + j - pl on (lane t of the k-th: column
    m (tw + t) + j - pl for the lanes that are that tile's); outside the image, zeros
    (masked loads where not `full`; `above`: a `full` row that may lie above the image,
    read from row 0 and zeroed; see [Note: Winograd's padding])."""
    W, V = isa.width, vec_type(isa)
    zero = None
    if full:
        if above:
            zero = f.cmp("slt", row, 0)
            row = f(f"call i64 @llvm.smax.i64(i64 {row}, i64 0)")
        rp = f.gep(base, f.mul(row, p["sh"]))
    else:
        inside = f(f"icmp ult i64 {row}, {p['H']}")
        clamped = f(f"call i64 @llvm.smax.i64(i64 {f.min(row, last_row)}, i64 0)")
        rp = f.gep(base, f.mul(clamped, p["sh"]))
    cols = []
    for j in range(m + 2):
        start = f.sub(f.add(f.mul(tw, m), j), p["pl"])
        if full:
            src = f.gep(rp, start)
            vecs = [vload(f, isa, f.gep(src, k * W) if k else src) for k in range(m)]
            if zero is not None:
                vecs = [f(f"select i1 {zero}, {V} zeroinitializer, {V} {v}") for v in vecs]
            cols.append(vecs)
        else:
            # the elements inside: lanes [lo, hi) of the loads from start on (none when
            # the row is outside), clamped to [0, mW] (i32 lanes)
            hi = f(f"select i1 {inside}, i64 {f.sub(p['W'], start)}, i64 0")
            lo = f.sub("0", start)
            lo, hi = (f("trunc i64 " + f(f"call i64 @llvm.smax.i64(i64 {f.min(x, m * W)}, "
                                          "i64 0)") + " to i32") for x in (lo, hi))
            lo, hi = (splat(f, isa, x, "i32") for x in (lo, hi))
            # (no inbounds: the first lanes' addresses may lie before the row, masked)
            src = f(f"getelementptr float, ptr {rp}, i64 {start}")
            vecs = []
            for k in range(m):
                iota = f"<{W} x i32> <" + ", ".join(f"i32 {k * W + t}" for t in range(W)) + ">"
                mask = f(f"and <{W} x i1> {f(f'icmp sge {iota}, {lo}')}, "
                         f"{f(f'icmp slt {iota}, {hi}')}")
                vecs.append(vload(f, isa, f(f"getelementptr float, ptr {src}, i64 {k * W}")
                                  if k else src, mask))
            cols.append(vecs)
    return cols


def _input_transform(isa: Isa) -> str:
    """strata_wino_in(ctx, lo, hi): V[xi][c][t] = (B^T d B)[xi] for channels lo..hi-1.
    B^T = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]."""
    W, V = isa.width, vec_type(isa)
    f = Fn("define internal void @strata_wino_in(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _IN_FIELDS)
    even = ", ".join(f"i32 {2 * t}" for t in range(W))
    last_row = f.sub(p["H"], 1)

    def row_t(base, row, tw, full, above=False):
        """t = d B of input row `row` (zeros outside the image) for W tiles from tw:
        [d0 - d2, d1 + d2, d2 - d1, d1 - d3], d_j the patch column j of each tile (the
        even lanes of two loads: adjacent tiles' columns are two apart)."""
        d = [f(f"shufflevector {V} {lo_}, {V} {hi_}, <{W} x i32> <{even}>")
             for lo_, hi_ in _patch_loads(f, isa, p, base, row, tw, full, 2, last_row,
                                          above)]
        return _bt2(f, isa, d)

    _transform_channels(f, isa, p, 2, row_t, _bt2)
    f.do("ret void")
    return f.text()


def _bt2(f: Fn, isa: Isa, d: list) -> list:
    """B^T d for 4 vectors d (F(2x2, 3x3))."""
    V = vec_type(isa)
    return [_fsub(f, V, d[0], d[2]), _fadd(f, V, d[1], d[2]),
            _fsub(f, V, d[2], d[1]), _fsub(f, V, d[1], d[3])]


def _transform_channels(f: Fn, isa: Isa, p: dict, m: int, row_t, col_t) -> None:
    """The loop over channels lo..hi-1 of an input transform with m x m output tiles
    ((m + 2)^2 planes of V): row_t(base, row, tw, full, above) is B^T applied along
    input row `row` for W tiles from tw (m + 2 vectors), col_t(f, isa, vectors) the same
    down a column of them. Tile rows go top to bottom: tile row th reads input rows
    m th - pt .. m th + m + 1 - pt, the next one from m th + m - pt on: the row
    transforms of its last two rows are carried to it (each input row is loaded and
    transformed once)."""
    W, V, n = isa.width, vec_type(isa), m + 2
    Tp = f.add(f.mul(p["TH"], p["TW"]), W)      # floats per channel row of V
    plane = f.add(f.mul(p["C"], Tp), _SKEW)     # floats per xi plane of V

    def channel(c):
        base = f.gep(p["img"], f.mul(c, p["sc"]))
        vc = f.gep(p["V"], f.mul(c, Tp))

        def column(tw, full):
            top = f.sub("0", p["pt"])
            first = row_t(base, top, tw, full, True) + \
                row_t(base, f.add(top, 1), tw, full, True)

            def tile_row(th, carried):
                r2 = f.add(f.mul(th, m), f.sub("2", p["pt"]))
                new = []
                for r in range(m):
                    new += row_t(base, f.add(r2, r) if r else r2, tw, full)
                t = [carried[:n], carried[n:]] + [new[n * r:n * r + n] for r in range(m)]
                at = f.add(f.mul(th, p["TW"]), tw)
                for j in range(n):
                    col = col_t(f, isa, [t[i][j] for i in range(n)])
                    for i in range(n):
                        dst = f.gep(vc, f.add(f.mul(plane, n * i + j), at))
                        vstore(f, isa, col[i], dst)
                return new[(m - 2) * n:]
            f.loop("0", p["TH"], 1, tile_row, [(V, x) for x in first])

        _columns(f, isa, p, m, column)
    f.loop("%lo", "%hi", 1, channel)


def _filter_start(f: Fn, isa: Isa, p: dict, T: str, fi: str, has_res: str, has_bias: str):
    """(M's rows of filter fi, its output image, its residual image, its bias splat)
    for the output transforms."""
    mf = f.gep(p["M"], f.mul(fi, T))
    of = f.gep(p["out"], f.mul(fi, p["osc"]))
    # without a residual, its loads read the output (and are not used)
    rf = f(f"select i1 {has_res}, ptr {f.gep(p['res'], f.mul(fi, p['rsc']))}, ptr {of}")
    with_b, no_b, got_b = f.label("wb"), f.label("nb"), f.label("gb")
    f.cbr(has_bias, with_b, no_b)
    f.start(with_b)
    bval = f(f"load float, ptr {f.gep(p['bias'], fi)}, align 4")
    f.br(got_b)
    f.start(no_b)
    f.br(got_b)
    f.start(got_b)
    return mf, of, rf, splat(f, isa, f(f"phi float [ {bval}, %{with_b} ], [ 0.0, %{no_b} ]"))


def _epilogue_store(f: Fn, isa: Isa, val, rowp, resp, at: int, n, bsplat, has_res, acc,
                    relu):
    """Store an output vector `at` floats into the output row rowp after the epilogue, in
    the order of the ops it replaces: bias (the product's init), the residual add (read
    from the residual row resp), accumulation, ReLU. n: None for a whole vector, else
    the floats of the row left from rowp (n - at lanes stored, maybe none: the address
    then need not be inside); masked loads and stores only for a vector the row ends in
    (masked stores are slow on AMD: the right column of tiles of a 28x28 image, all of
    it, took twice the time per tile)."""
    V, W = vec_type(isa), isa.width

    def emit(dst, rsrc, mk):
        v = _fadd(f, V, val, bsplat)
        res = vload(f, isa, rsrc, mk)
        v = f(f"select i1 {has_res}, {V} {_fadd(f, V, v, res)}, {V} {v}")
        old = vload(f, isa, dst, mk)
        v = f(f"select i1 {acc}, {V} {_fadd(f, V, v, old)}, {V} {v}")
        mx = f(f"call {V} @llvm.maximum.v{W}f32({V} {v}, {V} zeroinitializer)")
        v = f(f"select i1 {relu}, {V} {mx}, {V} {v}")
        vstore(f, isa, v, dst, mk)
    if n is None:
        emit(f.gep(rowp, at) if at else rowp, f.gep(resp, at) if at else resp, None)
        return
    left = f.sub(n, at) if at else n
    whole, part, some, done = (f.label(x) for x in ("whole", "part", "some", "stored"))
    f.cbr(f.cmp("sge", left, W), whole, part)
    f.start(whole)
    emit(f.gep(rowp, at) if at else rowp, f.gep(resp, at) if at else resp, None)
    f.br(done)
    f.start(part)
    f.cbr(f.cmp("sgt", left, 0), some, done)
    f.start(some)
    emit(f(f"getelementptr float, ptr {rowp}, i64 {at}") if at else rowp,
         f(f"getelementptr float, ptr {resp}, i64 {at}") if at else resp,
         lane_mask(f, isa, left))
    f.br(done)
    f.start(done)


def _tile_columns(f: Fn, isa: Isa, p: dict, m: int, th: str, tiles) -> None:
    """tiles(tw, full) for each W tiles of tile row th of an output transform with m x m
    tiles, full where W whole tiles, their m rows and m W columns are inside the output."""
    W = isa.width

    def tiles_either(tw):
        full = all_of(f, [f.cmp("sle", f.add(tw, W), p["TW"]),
                          f.cmp("slt", f.add(f.mul(th, m), m - 1), p["OH"]),
                          f.cmp("sle", f.add(f.mul(tw, m), m * W), p["OW"])])
        _either(f, full, lambda which: tiles(tw, which))
    f.loop("0", p["TW"], W, tiles_either)


def _output_transform(isa: Isa) -> str:
    """strata_wino_out(ctx, lo, hi): out[f] (+)= A^T M[.][f] A for filters lo..hi-1.
    A^T = [[1, 1, 1, 0], [0, 1, -1, -1]]."""
    W, V = isa.width, vec_type(isa)
    f = Fn("define internal void @strata_wino_out(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _OUT_FIELDS)
    T = f.mul(p["TH"], p["TW"])
    plane = f.add(f.mul(p["MF"], T), _SKEW)
    acc = f.cmp("ne", p["acc"], 0)
    flags = p["flags"]
    has_bias, has_res, relu = (f.cmp("ne", f(f"and i64 {flags}, {b}"), 0)
                               for b in (BIAS, RESIDUAL, RELU))
    rsh = f(f"select i1 {has_res}, i64 {p['rsh']}, i64 {p['osh']}")
    half = W // 2
    # lanes (y0[l], y1[l]) -> columns 2l, 2l + 1: the first W columns, then the next W
    inter = [", ".join(f"i32 {x}" for l in range(h * half, (h + 1) * half)
                       for x in (l, W + l)) for h in range(2)]

    def filt(fi):
        mf, of, rf, bsplat = _filter_start(f, isa, p, T, fi, has_res, has_bias)

        def tile_row(th):
            def tiles(tw, full):
                # full: W whole tiles, both output rows and all 2W columns inside.
                # M is read whole vectors at a time: past a row's end lie the next
                # row's tiles (lanes the stores drop), past the last the planes' skew
                at = f.add(f.mul(th, p["TW"]), tw)
                m = [[vload(f, isa, f.gep(mf, f.add(f.mul(plane, 4 * i + j), at)))
                      for j in range(4)] for i in range(4)]
                # rows: A^T m, then columns: (A^T m) A
                a = [[_fadd(f, V, _fadd(f, V, m[0][j], m[1][j]), m[2][j]) for j in range(4)],
                     [_fsub(f, V, _fsub(f, V, m[1][j], m[2][j]), m[3][j]) for j in range(4)]]
                y = [(_fadd(f, V, _fadd(f, V, x[0], x[1]), x[2]),
                      _fsub(f, V, _fsub(f, V, x[1], x[2]), x[3])) for x in a]
                col = f.mul(tw, 2)
                left = f.sub(p["OW"], col)
                for r in range(2):
                    oh = f.add(f.mul(th, 2), r)
                    if not full:
                        inside = f.cmp("slt", oh, p["OH"])
                        n = f(f"select i1 {inside}, i64 {left}, i64 0")
                        oh = f.min(oh, f.sub(p["OH"], 1))
                        col = f.min(col, f.sub(p["OW"], 1))
                    rowp = f.gep(of, f.add(f.mul(oh, p["osh"]), col))
                    resp = f.gep(rf, f.add(f.mul(oh, rsh), col))
                    for h in range(2):
                        val = f(f"shufflevector {V} {y[r][0]}, {V} {y[r][1]}, "
                                f"<{W} x i32> <{inter[h]}>")
                        _epilogue_store(f, isa, val, rowp, resp, h * W,
                                        None if full else n, bsplat, has_res, acc, relu)

            _tile_columns(f, isa, p, 2, th, tiles)
        f.loop("0", p["TH"], 1, tile_row)
    f.loop("%lo", "%hi", 1, filt)
    f.do("ret void")
    return f.text()


# [Note: Winograd's larger tiles]
# F(4x4, 3x3) (flags & TILE4): a tile is 4x4 outputs from the 6x6 input patch under it,
# y = A^T [ (G g G^T) * (B^T d B) ] A with 36 positions (interpolation points 0, +-1,
# +-2, infinity; Lavin & Gray's matrices). 4x fewer multiply-adds than the direct
# product (F(2x2, 3x3): 2.25x), and V and M hold 36/16 floats per output instead of 4:
# 1.78x fewer product flops and less transform traffic. The price is U, 36 x F x C
# (2.25x F(2x2)'s; a filter element is used for T tiles per image, a quarter of the
# outputs: worth it only on large images, which the pass picks) and precision: the
# transforms' coefficients up to 8 (A) and 1/24 (G) cost ~10x F(2x2)'s rounding error,
# ~4e-6 relative in fp32. The kernels follow F(2x2)'s: W tiles per vector, each input row
# loaded and transformed once (tile rows four apart share two), whole-vector stores of
# V; the patch columns of adjacent tiles are four apart (four loads and three shuffles
# per column), and a tile row's four outputs per row are interleaved back with three
# shuffles per vector. _bt4 and _at4 apply
#   B^T = [[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
#          [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]]
#   A^T = [[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1]]
# and winograd_filter G (_G4).
_G4 = ((1 / 4, 0, 0), (-1 / 6, -1 / 6, -1 / 6), (-1 / 6, 1 / 6, -1 / 6),
       (1 / 24, 1 / 12, 1 / 6), (1 / 24, -1 / 12, 1 / 6), (0, 0, 1))


def _const(isa: Isa, c: float) -> str:
    return "<" + ", ".join([f"float {float(c):e}"] * isa.width) + ">"


def _bt4(f: Fn, isa: Isa, d: list) -> list:
    """B^T d for 6 vectors d (shared sums first: 12 adds and multiply-adds)."""
    V = vec_type(isa)
    k = {c: _const(isa, c) for c in (4, -4, -5, 2, -2)}
    q, s = _fadd(f, V, d[1], d[2]), _fadd(f, V, d[3], d[4])
    q2, s2 = _fsub(f, V, d[1], d[2]), _fsub(f, V, d[4], d[3])
    u, w = _fsub(f, V, d[4], d[2]), _fsub(f, V, d[3], d[1])
    return [fma(f, isa, d[0], k[4], fma(f, isa, d[2], k[-5], d[4])),
            fma(f, isa, q, k[-4], s), fma(f, isa, q2, k[4], s2),
            fma(f, isa, w, k[2], u), fma(f, isa, w, k[-2], u),
            fma(f, isa, d[1], k[4], fma(f, isa, d[3], k[-5], d[5]))]


def _at4(f: Fn, isa: Isa, m: list) -> list:
    """A^T m for 6 vectors m."""
    V = vec_type(isa)
    a, b = _fadd(f, V, m[1], m[2]), _fsub(f, V, m[1], m[2])
    c, e = _fadd(f, V, m[3], m[4]), _fsub(f, V, m[3], m[4])
    return [_fadd(f, V, _fadd(f, V, m[0], a), c), fma(f, isa, e, _const(isa, 2), b),
            fma(f, isa, c, _const(isa, 4), a),
            _fadd(f, V, fma(f, isa, e, _const(isa, 8), b), m[5])]


def _input_transform4(isa: Isa) -> str:
    """strata_wino4_in(ctx, lo, hi): V[xi][c][t] = (B^T d B)[xi] of the 6x6 patches, for
    channels lo..hi-1 (F(4x4, 3x3); the layout of strata_wino_in with 36 planes)."""
    W, V = isa.width, vec_type(isa)
    q = W // 4                                  # lanes one load gives a patch column
    f = Fn("define internal void @strata_wino4_in(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _IN_FIELDS)
    pick = ", ".join(f"i32 {x}" for x in [4 * t for t in range(q)] +
                     [W + 4 * t for t in range(q)])
    cat = ", ".join(f"i32 {x}" for x in range(W))
    half = f"<{2 * q} x float>"
    last_row = f.sub(p["H"], 1)

    def row_t(base, row, tw, full, above=False):
        """B^T applied along the row: d_j = column j of the patches of W tiles from tw
        (lanes 0, 4, .. of four loads from 4 tw + j - pl)."""
        d = []
        for ld in _patch_loads(f, isa, p, base, row, tw, full, 4, last_row, above):
            lo_ = f(f"shufflevector {V} {ld[0]}, {V} {ld[1]}, <{2 * q} x i32> <{pick}>")
            hi_ = f(f"shufflevector {V} {ld[2]}, {V} {ld[3]}, <{2 * q} x i32> <{pick}>")
            d.append(f(f"shufflevector {half} {lo_}, {half} {hi_}, <{W} x i32> <{cat}>"))
        return _bt4(f, isa, d)

    _transform_channels(f, isa, p, 4, row_t, _bt4)
    f.do("ret void")
    return f.text()


def _output_transform4(isa: Isa) -> str:
    """strata_wino4_out(ctx, lo, hi): out[f] (+)= A^T M[.][f] A for filters lo..hi-1
    (F(4x4, 3x3)), with strata_wino_out's epilogue."""
    W, V = isa.width, vec_type(isa)
    q = W // 4                                  # tiles per output vector
    f = Fn("define internal void @strata_wino4_out(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _OUT_FIELDS)
    T = f.mul(p["TH"], p["TW"])
    plane = f.add(f.mul(p["MF"], T), _SKEW)
    acc = f.cmp("ne", p["acc"], 0)
    flags = p["flags"]
    has_bias, has_res, relu = (f.cmp("ne", f(f"and i64 {flags}, {b}"), 0)
                               for b in (BIAS, RESIDUAL, RELU))
    rsh = f(f"select i1 {has_res}, i64 {p['rsh']}, i64 {p['osh']}")
    H2 = f"<{2 * q} x float>"
    # output vector h of a row holds tiles h*q .. h*q + q - 1, 4 columns each: pairs
    # (y0, y1) and (y2, y3) interleaved per tile, then the pairs' halves per tile
    pairs = [", ".join(f"i32 {x}" for t in range(h * q, (h + 1) * q) for x in (t, W + t))
             for h in range(4)]
    quad = ", ".join(f"i32 {x}" for t in range(q)
                     for x in (2 * t, 2 * t + 1, 2 * q + 2 * t, 2 * q + 2 * t + 1))

    def filt(fi):
        mf, of, rf, bsplat = _filter_start(f, isa, p, T, fi, has_res, has_bias)

        def tile_row(th):
            def tiles(tw, full):
                at = f.add(f.mul(th, p["TW"]), tw)
                m = [[vload(f, isa, f.gep(mf, f.add(f.mul(plane, 6 * i + j), at)))
                      for j in range(6)] for i in range(6)]
                cols = [_at4(f, isa, [m[i][j] for i in range(6)]) for j in range(6)]
                col = f.mul(tw, 4)
                left = f.sub(p["OW"], col)
                for r in range(4):
                    y = _at4(f, isa, [cols[j][r] for j in range(6)])
                    oh = f.add(f.mul(th, 4), r)
                    c0 = col
                    if not full:
                        inside = f.cmp("slt", oh, p["OH"])
                        n = f(f"select i1 {inside}, i64 {left}, i64 0")
                        oh = f.min(oh, f.sub(p["OH"], 1))
                        c0 = f.min(col, f.sub(p["OW"], 1))
                    rowp = f.gep(of, f.add(f.mul(oh, p["osh"]), c0))
                    resp = f.gep(rf, f.add(f.mul(oh, rsh), c0))
                    for h in range(4):
                        a = f(f"shufflevector {V} {y[0]}, {V} {y[1]}, "
                              f"<{2 * q} x i32> <{pairs[h]}>")
                        b = f(f"shufflevector {V} {y[2]}, {V} {y[3]}, "
                              f"<{2 * q} x i32> <{pairs[h]}>")
                        val = f(f"shufflevector {H2} {a}, {H2} {b}, <{W} x i32> <{quad}>")
                        _epilogue_store(f, isa, val, rowp, resp, h * W,
                                        None if full else n, bsplat, has_res, acc, relu)

            _tile_columns(f, isa, p, 4, th, tiles)
        f.loop("0", p["TH"], 1, tile_row)
    f.loop("%lo", "%hi", 1, filt)
    f.do("ret void")
    return f.text()


def _products(isa: Isa) -> str:
    """strata_wino_gemm(ctx, lo, hi): M[xi] = U[xi] . V[xi] for xi in lo..hi-1, each on
    the calling thread (the 16 products are the parallel work: a GEMM kernel called
    inside a pool chunk runs inline)."""
    f = Fn("define internal void @strata_wino_gemm(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _GEMM_FIELDS)
    W = isa.width

    def one(xi):
        u = f.gep(p["U"], f.mul(xi, f.mul(p["F"], p["C"])))
        tp = f.add(p["T"], W)
        v = f.gep(p["V"], f.mul(xi, f.add(f.mul(p["C"], tp), _SKEW)))
        m = f.gep(p["M"], f.mul(xi, f.add(f.mul(p["MF"], p["T"]), _SKEW)))
        f.do(f"call void @strata_sgemm_f32(i64 {p['F']}, i64 {p['T']}, i64 {p['C']}, "
             f"ptr {u}, i64 {p['C']}, ptr {v}, i64 {tp}, ptr {m}, i64 {p['T']}, i32 0, "
             "i64 0)")
    f.loop("%lo", "%hi", 1, one)
    f.do("ret void")
    return f.text()



def _wino_ukr(isa: Isa, mr: int, prefetching: bool = False,
              accumulate: bool = False) -> str:
    """strata_wino_ukr_<mr>(K, A, lda, B, C, ldc): C^T[NR, mr] = (A[mr, K] . Bp[K, NR])^T,
    A read in place column by column (element (i, k) at A + k*lda + i: mr tiles of a V
    plane's row k), Bp a packed panel of U^T; C's row j (a filter) gets the mr values of
    column j at C + j*ldc (mr tiles of an M plane's row). prefetching: the variant
    strata_wino_ukr_<mr>_pf(.., P) also prefetches K / unroll consecutive 64-byte lines
    from P into L2, one per unrolled K step (a part of the next unit's panel, see
    _products_transposed). accumulate: strata_wino_ukr_<mr>[_pf]_acc adds to C's values
    (a product over K blocks: kernels_conv.py's transposed convolution)."""
    W, nv = isa.width, isa.nv
    f = Fn(f"define internal void @strata_wino_ukr_{mr}{'_pf' if prefetching else ''}"
           f"{'_acc' if accumulate else ''}("
           "i64 %K, ptr noalias %A, i64 %lda, ptr noalias %B, ptr noalias %C, i64 %ldc"
           f"{', ptr %P' if prefetching else ''}) #1")
    arow = [f.gep("%A", i) if i else "%A" for i in range(mr)]

    accs = ukr_accumulate(f, isa, mr, arow, lambda k: f.mul(k, "%lda"),
                          prefetch_lines=1 if prefetching else 0)
    # The transposed store: lane l of the i-th row's accumulators goes to tile i of filter
    # row l. The W x W block of each accumulator column (rows past mr undefined) is
    # transposed in registers, log2(W) rounds of W two-source shuffles; each round swaps
    # one bit of the row index with the same bit of the lane index. Then row l's first
    # mr lanes are one store.
    V = vec_type(isa)
    row_t = f"<{mr} x float>"
    first = ", ".join(f"i32 {i}" for i in range(mr))
    for v in range(nv):
        rows = [accs[i * nv + v] for i in range(mr)] + ["poison"] * (W - mr)
        d = W // 2
        while d:
            lo = ", ".join(f"i32 {l if not l & d else W + l - d}" for l in range(W))
            hi = ", ".join(f"i32 {l + d if not l & d else W + l}" for l in range(W))
            new = list(rows)
            for i in range(W):
                if not i & d:
                    a, b = rows[i], rows[i + d]
                    new[i] = f(f"shufflevector {V} {a}, {V} {b}, <{W} x i32> <{lo}>")
                    new[i + d] = f(f"shufflevector {V} {a}, {V} {b}, <{W} x i32> <{hi}>")
            rows, d = new, d // 2
        for lane in range(W):
            dst = f.gep("%C", f.mul("%ldc", v * W + lane))
            if mr == 1:
                x = f(f"extractelement {V} {rows[lane]}, i64 0")
                if accumulate:
                    x = f(f"fadd float {x}, {f(f'load float, ptr {dst}, align 4')}")
                f.do(f"store float {x}, ptr {dst}, align 4")
            else:
                x = f(f"shufflevector {V} {rows[lane]}, {V} poison, <{mr} x i32> <{first}>")
                if accumulate:
                    x = f(f"fadd {row_t} {x}, {f(f'load {row_t}, ptr {dst}, align 4')}")
                f.do(f"store {row_t} {x}, ptr {dst}, align 4")
    f.do("ret void")
    return f.text()


def transposed_rows(f: Fn, isa: Isa, T: str, call, pf_base: str, part) -> None:
    """The calls of a transposed product's unit over its T rows (tiles, pixels):
    call(MR, t0, prefetch pointer) for the first pf_calls groups of MR rows (each
    prefetching `part` floats on from pf_base: a part of the next panel), call(MR, t0)
    for the other groups, call(r, t0) for the last r < MR rows."""
    mr = isa.mr
    tmain = f.sub(T, f(f"srem i64 {T}, {mr}"))

    def tiles(t0):
        c = f(f"sdiv i64 {t0}, {mr}")
        yes, no, join = f.label("pf"), f.label("npf"), f.label("jpf")
        f.cbr(f.cmp("slt", c, pf_calls(isa)), yes, no)
        f.start(yes)
        call(mr, t0, f.gep(pf_base, f.mul(c, part)))
        f.br(join)
        f.start(no)
        call(mr, t0)
        f.br(join)
        f.start(join)
    f.loop("0", tmain, mr, tiles)
    if mr > 1:
        f.switch(f.sub(T, tmain), {r: r for r in range(mr)},
                 lambda r: call(r, tmain) if r else None)


def _products_transposed(isa: Isa) -> str:
    """strata_wino_gemm_t(ctx, lo, hi): the products as M[xi]^T = V[xi]^T . U[xi]^T for the
    units u in lo..hi-1 (u = xi * P + p: product xi, NR-filter panel p of the P = MF / NR),
    with U^T packed at compile time (winograd_filter(.., panel_width=NR)): each unit
    streams its panel of U once, C x NR floats in a row, and reuses it for every MR tiles
    of V (read in place), writing M[xi][p*NR .. p*NR + NR][t] (M has MF >= F rows)."""
    nr, W = isa.nr, isa.width
    f = Fn("define internal void @strata_wino_gemm_t(ptr %ctx, i64 %lo, i64 %hi) #1")
    p = _fields(f, _GEMM_FIELDS)
    C, T = p["C"], p["T"]
    panels = f(f"sdiv i64 {p['MF']}, {nr}")
    tp = f.add(T, W)

    def panel(u):
        """U^T's panel of unit u."""
        xi = f(f"sdiv i64 {u}, {panels}")
        pn = f(f"srem i64 {u}, {panels}")
        return xi, pn, f.gep(p["U"], f.add(f.mul(xi, f.mul(p["MF"], C)),
                                           f.mul(pn, f.mul(C, nr))))
    last = f.sub(f.mul(panels, p["XI"]), 1)
    # the lines of a part of a panel, C / unroll, as floats
    part = f.mul(f(f"sdiv i64 {C}, {max(isa.unroll, 1)}"), 16)

    def unit(u):
        xi, pn, up = panel(u)
        # the next unit's panel streams into L2 while this one's products run (deep
        # convolutions' U comes from memory, read once for few tiles)
        nxt = panel(f.min(f.add(u, 1), last))[2]
        v = f.gep(p["V"], f.mul(xi, f.add(f.mul(C, tp), _SKEW)))
        m = f.gep(p["M"], f.add(f.mul(xi, f.add(f.mul(p["MF"], T), _SKEW)),
                                f.mul(pn, f.mul(T, nr))))

        def call(rows, t0, pf=None):
            f.do(f"call void @strata_wino_ukr_{rows}{'' if pf is None else '_pf'}("
                 f"i64 {C}, ptr {f.gep(v, t0)}, i64 {tp}, ptr {up}, ptr {f.gep(m, t0)}, "
                 f"i64 {T}{'' if pf is None else f', ptr {pf}'})")

        # the unit's first pf_calls calls of MR tiles prefetch a part of the next unit's
        # panel each (C / unroll lines): the memory stays busy through the unit (the
        # first call prefetching the whole panel left it idle in the others: three
        # 512-channel 7x7 convolutions, U from memory, 5.60 -> 4.91 ms)
        transposed_rows(f, isa, T, call, nxt, part)
    f.loop("%lo", "%hi", 1, unit)
    f.do("ret void")
    return f.text()


def _winograd_public(isa: Isa) -> str:
    f = Fn("define void @strata_conv2d_winograd_f32(i64 %N, i64 %C, i64 %H, i64 %W, "
           "i64 %F, i64 %OH, i64 %OW, i64 %pt, i64 %pl, ptr %in, i64 %sn, i64 %sc, "
           "i64 %sh, ptr %U, "
           "ptr %out, i64 %osn, i64 %osc, i64 %osh, i32 %acc, ptr %bias, ptr %res, "
           "i64 %rsn, i64 %rsc, i64 %rsh, i32 %flags) #0")
    tile4 = f(f"icmp ne i32 {f(f'and i32 %flags, {TILE4}')}, 0")
    tm = f(f"select i1 {tile4}, i64 4, i64 2")             # outputs per tile side
    planes = f(f"select i1 {tile4}, i64 36, i64 16")
    th = f(f"sdiv i64 {f.add('%OH', f.sub(tm, 1))}, {tm}")
    tw = f(f"sdiv i64 {f.add('%OW', f.sub(tm, 1))}, {tm}")
    T = f.mul(th, tw)
    # nothing to compute, or negative padding (refused: nothing written)
    empty = f(f"or i1 {f.cmp('sle', T, 0)}, {f.cmp('sle', '%F', 0)}")
    empty = f(f"or i1 {empty}, {f.cmp('slt', f('or i64 %pt, %pl'), 0)}")
    go, done = f.label("go"), f.label("done")
    f.cbr(empty, done, go)
    f.start(go)
    packed = f(f"icmp ne i32 {f(f'and i32 %flags, {PACKED_U}')}, 0")
    # M has MF rows: F, or F rounded up to whole panels (the transposed products write
    # all of a panel's rows)
    nr = isa.nr
    mf_packed = f.mul(f(f"sdiv i64 {f.add('%F', nr - 1)}, {nr}"), nr)
    mf = f(f"select i1 {packed}, i64 {mf_packed}, i64 %F")
    vfl = f.mul(f.add(f.mul("%C", f.add(T, isa.width)), _SKEW), planes)
    mfl = f.mul(f.add(f.mul(mf, T), _SKEW), planes)
    buf = checked_malloc(f, f.mul(f.add(vfl, mfl), 4), "winograd")
    v = buf
    m = f.gep(buf, vfl)
    # chunks of at least ~2^14 floats of transform work
    grain_in = f(f"call i64 @llvm.smax.i64(i64 {f('sdiv i64 1024, ' + T)}, i64 1)")

    def image(n):
        img = f.gep("%in", f.mul(n, "%sn"))
        ctx = _context(f, _IN_FIELDS, {"img": img, "sc": "%sc", "sh": "%sh", "H": "%H",
                                       "W": "%W", "TH": th, "TW": tw, "V": v, "C": "%C",
                                       "pt": "%pt", "pl": "%pl"})
        _either(f, tile4, lambda yes: f.do(
            f"call void @strata_parallel_for(ptr @strata_wino{'4' if yes else ''}_in, "
            f"ptr {ctx}, i64 %C, i64 {grain_in})"))
        ctx1 = _context(f, _GEMM_FIELDS, {"U": "%U", "V": v, "M": m, "F": "%F", "MF": mf,
                                          "C": "%C", "T": T, "XI": planes})
        units = f.mul(f(f"sdiv i64 {mf}, {nr}"), planes)
        # units of the transposed products: chunks of at least ~2^16 multiply-adds
        grain_t = f(f"call i64 @llvm.smax.i64(i64 "
                    f"{f('sdiv i64 4096, ' + f.mul(T, '%C'))}, i64 1)")
        _either(f, packed, lambda yes: f.do(
            f"call void @strata_parallel_for(ptr @strata_wino_gemm_t, ptr {ctx1}, "
            f"i64 {units}, i64 {grain_t})") if yes else f.do(
            f"call void @strata_parallel_for(ptr @strata_wino_gemm, ptr {ctx1}, "
            f"i64 {planes}, i64 1)"))
        ctx2 = _context(f, _OUT_FIELDS, {
            "M": m, "out": f.gep("%out", f.mul(n, "%osn")), "osc": "%osc", "osh": "%osh",
            "OH": "%OH", "OW": "%OW", "TH": th, "TW": tw, "F": "%F", "MF": mf,
            "acc": f("zext i32 %acc to i64"), "bias": "%bias",
            "res": f(f"getelementptr float, ptr %res, i64 {f.mul(n, '%rsn')}"),
            "rsc": "%rsc", "rsh": "%rsh", "flags": f("zext i32 %flags to i64")})
        _either(f, tile4, lambda yes: f.do(
            f"call void @strata_parallel_for(ptr @strata_wino{'4' if yes else ''}_out, "
            f"ptr {ctx2}, i64 %F, i64 {grain_in})"))
    f.loop("0", "%N", 1, image)
    f.do(f"call void @free(ptr {buf})")
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


def winograd_functions(isa) -> list:
    """Every function of the Winograd kernel for `isa`, as LLVM IR text."""
    return [_input_transform(isa), _output_transform(isa),
            _input_transform4(isa), _output_transform4(isa),
            _products(isa), _products_transposed(isa),
            *(_wino_ukr(isa, mr, accumulate=acc) for mr in range(1, isa.mr + 1)
              for acc in (False, True)),
            _wino_ukr(isa, isa.mr, prefetching=True),
            _wino_ukr(isa, isa.mr, prefetching=True, accumulate=True), _winograd_public(isa)]


# Filters per matrix product of winograd_filter (36 x 9 x 512 stays under OpenBLAS's
# threshold for threads).
_FILTER_BLOCK = 512


def winograd_filter(g, panel_width: int = 0, tile: int = 2):
    """U = G g G^T for each 3x3 filter of an F x C x 3 x 3 float array, as the
    P x F x C float32 array strata_conv2d_winograd_f32 takes (computed in float64):
    tile 2, F(2x2, 3x3): P = 16, G = [[1, 0, 0], [1/2, 1/2, 1/2], [1/2, -1/2, 1/2],
    [0, 0, 1]]; tile 4, F(4x4, 3x3) (the TILE4 flag): P = 36, G = _G4.
    panel_width NR > 0: the PACKED_U layout instead, each U[xi]^T packed into panels of NR
    filters (P x panels x C x NR, panels = ceil(F / NR), zero padded past F).

    All filters as matrix products: U[(i, j), (f, c)] = sum over (k, l) of
    (G kron G)[(i, j), (k, l)] g[f, c, k, l], a P x 9 matrix times the 9 x (F C) filters,
    which lands in the P x F x C layout directly, in blocks of _FILTER_BLOCK filters: the
    float64 block stays in cache, and BLAS runs a product that small on this thread
    (one product of a 512 x 512 layer woke OpenBLAS's threads, which spun on a loaded
    machine: 4x the CPU). ResNet-50's sixteen 3x3 layers at F(4x4): 0.40 s -> 0.09 s,
    the three-operand einsum before them ~0.9 s."""
    import numpy as np
    G = np.array(_G4 if tile == 4 else
                 [[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]], np.float64)
    g = np.asarray(g)
    F, C = g.shape[0], g.shape[1]
    P = len(G) ** 2
    K = np.kron(G, G)
    flat = g.reshape(F * C, 9).astype(np.float64)
    u = np.empty((P, F * C), np.float32)
    for s in range(0, F * C, _FILTER_BLOCK):
        u[:, s:s + _FILTER_BLOCK] = K @ flat[s:s + _FILTER_BLOCK].T
    u = u.reshape(P, F, C)
    if panel_width <= 0:
        return u
    # the panels written in place, one copy (padding U first, then transposing the
    # padded copy, copied it twice)
    panels, full = -(-F // panel_width), F // panel_width
    out = np.empty((P, panels, C, panel_width), np.float32)
    out[:, :full] = u[:, :full * panel_width].reshape(
        P, full, panel_width, C).transpose(0, 1, 3, 2)
    if full < panels:
        out[:, full] = 0
        out[:, full, :, :F - full * panel_width] = u[:, full * panel_width:].transpose(0, 2, 1)
    return out
