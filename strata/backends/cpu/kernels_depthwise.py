"""The depthwise convolution kernel's LLVM IR: strata_dwconv2d_nchw_f32, one filter per
channel over NCHW f32 images, the padding read as zeros (no padded copy), with a bias and
an activation applied while the output row is in registers. `depthwise_functions(isa)`
is all of it; strata-linalg-to-microkernels emits the calls
(linalg.depthwise_conv_2d_nchw_chw, see [Note: depthwise convolutions] there):

    call @strata_dwconv2d_nchw_f32(%N, %C, %H, %W, %KH, %KW, %OH, %OW, %sh, %sw, %dh,
        %dw, %pt, %pl, %in, %sn, %sc, %shs, %filter, %out, %osn, %osc, %osh,
        %accumulate, %bias, %flags, %tile)

    out[n, c, oh, ow] = act(bias[c] + (accumulate ? out[n, c, oh, ow] : 0)
                            + sum_{kh, kw} filter[c, kh, kw]
                                           * in[n, c, oh*sh - pt + kh*dh, ow*sw - pl + kw*dw])

with `in` read as 0 outside [0, H) x [0, W) (the padding: pt rows above, pl columns to
the left, as many as the output needs below and to the right), `filter` C x KH x KW
contiguous, the bias used when `flags` has DW_BIAS, the activation `flags >> 4`
(DW_ACTS in conversion/cpu_kernel_abi.py: none, relu, relu6, hardswish, silu,
sigmoid). Strides in elements; the innermost ones are 1.

Its channel-last sibling (linalg.depthwise_conv_2d_nhwc_hwc: ConvNeXt's 7x7 and the
vision transformers' convolutions, see strata-linalg-depthwise-channels-last):

    call @strata_dwconv2d_nhwc_f32(%N, %H, %W, %C, %KH, %KW, %OH, %OW, %sh, %sw, %dh,
        %dw, %pt, %pl, %in, %sn, %shs, %sws, %filter, %out, %osn, %osh, %osw,
        %accumulate, %bias, %flags, %tile)

    out[n, oh, ow, c] = act(bias[c] + (accumulate ? out[n, oh, ow, c] : 0)
                            + sum_{kh, kw} filter[kh, kw, c]
                                           * in[n, oh*sh - pt + kh*dh, ow*sw - pl + kw*dw, c])

the filter KH x KW x C contiguous, the flags as above, `tile` the channels of a work
item (0: the kernel's choice); see [Note: channel-last depthwise kernel].

[Note: depthwise kernel design]
- Work: an item is a block of output rows of one (image, channel) plane (the whole plane
  when there are planes enough for the threads: 8 items per thread at least, else rows
  cut to get there; a non-zero tile word is the rows of an item); the items are split
  over the thread pool (threadpool.py) from DW_PAR_MIN_MACS multiply-adds on, else run
  on the calling thread. The threshold is the GEMMs' PAR_MIN_MACS in time, not in
  multiply-adds: a depthwise multiply-add costs about 8 of the GEMMs' (7-8 G/s on one
  AVX-512 core against 60-65 G/s: 9 taps per output and a load per tap, no reuse
  across channels), so 2^16 of them take as long as the GEMMs' 2^19 (~8 us). At 2^19
  every depthwise layer of MobileNetV1/V2 on 7x7 maps and the stride-2 ones onto
  14x14 and 7x7 (226k-452k multiply-adds, 45-58 us each) ran on one thread of two.
- A row is cut into chunks of output columns: DW_VECTORS vectors of W floats where
  every input column the chunk reads lies inside the row (the interior: plain vector
  loads, DW_VECTORS accumulators), else one vector where that holds, else one vector
  with masked loads (the borders: lanes whose column falls in the padding load nothing
  and count as 0; the row's last chunk also stores masked). Rows of the window outside
  [0, H) are skipped (the range of kh is computed per output row).
- 3x3 windows whose output rows fit one vector and that do not run flat (below) run
  DW_SMALL_ROWS rows at a time instead (one masked vector each, the column masks made
  once per plane, a window row outside the image masked off): row by row, a row's setup
  cost more than its 9 FMAs.
- Small planes (at most DW_FLAT_VECTORS vectors of output pixels: 7x7 to 64x64 maps on
  AVX-512, DW_FLAT_PHASE_VECTORS per phase at stride 2; at most DW_FLAT_TAPS taps) run
  flat: the plane's pixels are one row. At stride 1 with the output rows as long as
  the input's (OW = W, both planes' rows contiguous), output pixel q's tap (kh, kw) is
  input pixel q + (kh dh - pt) W + kw dw - pl, a constant shift, so a tap is one
  masked load per vector of pixels whatever the row boundaries (row by row, a 7-wide
  row wasted 9 of 16 lanes and a 28-wide one took two masked chunks with their
  set-up). At stride 2 the plane is first copied into its
  four phases (even/odd rows x even/odd columns, rows OW long, on the stack: one pass
  of loads and shuffles), where tap (kh, kw) is again a constant shift of q in one
  phase (two loads and a shuffle per tap and vector before). The lane masks (the tap
  reads inside the image: no wrap into the next row, no row outside; the rest of a
  phase is never read) are the same for every plane: made once per call, a table on
  the caller's stack. DW_FLAT_GROUP vectors at a time; 3 and 5 wide windows unrolled
  into two sets of partial sums. An item is a whole plane.
- Stride 1: the taps are vectors at consecutive offsets; stride 2: two vectors and their
  even lanes (a shuffle); other strides: masked gathers. Filters 3 and 5 wide (the taps
  of a row unrolled, each broadcast once per chunk and row) have their own code, for
  strides 1 and 2; other widths run the generic loop (gathers, one vector).
- The epilogue runs on the accumulators before the store: + bias[c] (it is the
  accumulators' initial value, with the old output when accumulating), then the
  activation: relu max(x, 0) (NaN-propagating, as arith.maximumf), relu6 the clip's
  compare-and-selects (NaN kept), hardswish x * min(max(x/6 + 1/2, 0), 1), sigmoid
  1 / (1 + exp(-x)), silu x * sigmoid(x), exp as strata-math-polynomial-approximation
  computes it (the same reduction and coefficients, transforms/math/polynomial.py).
- Checked sizes (the kernel is never told an error): N, C, OH, OW <= 0, or H, W, KH,
  KW < 0, or a stride or dilation <= 0, or an unknown activation: nothing is written.
  Every input read is inside [0, H) x [0, W) of its plane whatever the other sizes say
  (the window rows are clamped, the columns masked or proven inside), so no size
  combination reads outside the image; the output written is N x C x OH x OW through
  its strides.

[Note: channel-last depthwise kernel]
- Vectors of W channels: every tap is a plain vector load (channels are contiguous in
  image, filter and output), the last vector of a row of C masked (C need not be a
  multiple of W; nothing past C is read or written).
- Work: an item is one output row of one image for a chunk of DWN_CHUNK_VECTORS channel
  vectors (the tile word's channels when non-zero); items go to the thread pool from
  DW_PAR_MIN_MACS multiply-adds on. Window rows outside [0, H) are skipped, as in the
  NCHW kernel.
- Windows 3, 5 and 7 wide at stride 1 and dilation 1 (ConvNeXt, Segformer) run
  unrolled, T output pixels at a time (of DWN_TILES: 8, or 7 where a row's last tile
  then wastes fewer pixels): per window row the K filter vectors are
  loaded once, and each of the T + K - 1 input columns the tile reads is loaded once
  and multiplied into every output it feeds (T independent accumulators; a pixel-at-a-
  time loop loaded each column K times and ran one dependent chain, latency-bound on
  7x7 maps). A tile whose taps all fall inside the row runs unmasked; the others
  (the row's edges, rows shorter than a tile) are guarded: a column outside [0, W) and
  a pixel past OW get an empty mask (their addresses are never dereferenced).
- Other windows, strides and dilations run a loop over the window's columns,
  DWN_TILE_ANY pixels at a time inside the row, one at a time at its edges (a tap
  outside [0, W) masked off).
- The epilogue is the NCHW kernel's (bias as the accumulators' initial value, then the
  activation), on vectors of channels.
- Checked sizes: as the NCHW kernel's, and a negative padding: nothing is written.
  Measured (1 thread, 7x7 with bias, ConvNeXt-T's four stages, against the loop nest it
  replaced, onnxruntime and OpenVINO in the same process; a loaded machine): 96 ch at
  56x56 0.37 ms (loop nest 1.20, onnxruntime 0.50, OpenVINO 0.76), 192 at 28x28 0.16
  (0.69, 0.25, 0.48), 384 at 14x14 0.088 (0.35, 0.13, 0.26), 768 at 7x7 0.064 (0.19,
  0.075, 0.18).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...conversion.cpu_kernel_abi import ACT_NAMES, DW_ACTS
from .kernel_ir import Fn, all_of, fma, splat, vactivation, vec_type, vload, vstore
from .kernel_ir import vsplat as _vsplat
from .kernels_gemm import _load_work, _store_work

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["depthwise_functions", "depthwise_nhwc_functions", "DW_VECTORS", "DW_CHAINS",
           "DW_PAR_MIN_MACS", "DWN_TILES"]

# Accumulator vectors of an interior chunk (columns: DW_VECTORS * W).
DW_VECTORS = 4
# Independent accumulator vectors a chunk keeps (vectors x partial sums).
DW_CHAINS = 8
# Rows a plane whose rows fit one vector computes at a time.
DW_SMALL_ROWS = 4
# Below this many multiply-adds a call runs on the calling thread (the GEMMs' PAR_MIN_MACS
# in time: see [Note: depthwise kernel design]).
DW_PAR_MIN_MACS = 1 << 16
# Items per thread the planes are cut into, at least.
_ITEMS_PER_THREAD = 8
# The flat code (see [Note: depthwise kernel design]): planes of at most this many
# vectors of pixels, windows of at most this many taps (the mask table on the stack:
# 12.5 KiB on AVX-512).
DW_FLAT_VECTORS = 256
DW_FLAT_TAPS = 25
# Stride 2: at most this many vectors per phase (4 of them on the stack: 16 KiB on
# AVX-512; larger planes are bound by memory bandwidth, and run no faster flat).
DW_FLAT_PHASE_VECTORS = 64
# Vectors of pixels the flat code computes at a time.
DW_FLAT_GROUP = 4

_FIELDS = ("N", "C", "H", "W", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw", "pt", "pl",
           "in", "sn", "sc", "shs", "filter", "out", "osn", "osc", "osh", "acc", "bias",
           "flags", "rb", "nrb", "variant", "masks")
_TYPES = {"in": "ptr", "filter": "ptr", "out": "ptr", "bias": "ptr", "acc": "i32",
          "flags": "i32", "masks": "ptr"}
# (filter width, stride) of the specialized code; the last entry: any (generic).
_VARIANTS = ((3, 1), (3, 2), (5, 1), (5, 2), (None, None))
# The flat code's variants (numbered after those of _VARIANTS): (filter width: 3, 5,
# any; stride).
_FLAT_KINDS = ((3, 1), (5, 1), (None, 1), (3, 2), (5, 2), (None, 2))
_FLAT = len(_VARIANTS)
_N_VARIANTS = _FLAT + len(_FLAT_KINDS)


def _variant_name(k: int) -> str:
    return f"plane_{k}" if k < _FLAT else f"flat_{k - _FLAT}"


_N_ACTS = len(DW_ACTS)


def _iota(isa: Isa) -> str:
    return f"<{', '.join(f'i64 {i}' for i in range(isa.width))}>"


def _gep(f: Fn, ptr: str, index: str) -> str:
    """ptr + index floats, without `inbounds`: a masked access's base may lie outside."""
    return f(f"getelementptr float, ptr {ptr}, i64 {index}")


def _lanes(f: Fn, isa: Isa, lo: str, hi: str) -> str:
    """<W x i1>: lane l on iff lo <= l < hi, made as an integer's bits (scalar work: a
    mask register's move on AVX-512; comparing vectors of 64-bit positions per tap
    cost more than the tap)."""
    W = isa.width

    def ones_below(n):      # (1 << clamp(n, 0, W)) - 1
        n = f(f"call i64 @llvm.smax.i64(i64 {f.min(n, W)}, i64 0)")
        return f(f"sub i64 {f(f'shl i64 1, {n}')}, 1")
    bits = f(f"and i64 {ones_below(hi)}, {f(f'xor i64 {ones_below(lo)}, -1')}")
    return f(f"bitcast i{W} {f(f'trunc i64 {bits} to i{W}')} to <{W} x i1>")


def _in_row(f: Fn, isa: Isa, pos: str, width: str) -> str:
    """<W x i1>: lane l on iff 0 <= pos + l < width."""
    return _lanes(f, isa, f.sub("0", pos), f.sub(width, pos))


def _div_by(f: Fn, a: str, d: str) -> str:
    """a / d (unsigned; d > 0), without dividing when d is 1."""
    one, many, done = f.label("d1"), f.label("dn"), f.label("dd")
    f.cbr(f.cmp("eq", d, 1), one, many)
    f.start(one)
    f.br(done)
    f.start(many)
    q = f(f"udiv i64 {a}, {d}")
    f.br(done)
    f.start(done)
    return f(f"phi i64 [ {a}, %{one} ], [ {q}, %{many} ]")


def _window_rows(f: Fn, v: dict, oh: str):
    """(ih0, kh0, kh1) of output row `oh`: its window's first input row and the window
    rows [kh0, kh1) inside [0, H) (no division for dilation 1: two per row cost as much
    as a 7-wide row's taps)."""
    ih0 = f.sub(f.mul(oh, v["sh"]), v["pt"])
    dh = v["dh"]
    up = _div_by(f, f.add(f.sub("0", ih0), f.sub(dh, 1)), dh)
    kh0 = f(f"select i1 {f.cmp('slt', ih0, 0)}, i64 {up}, i64 0")
    room = f.sub(f.sub(v["H"], 1), ih0)
    kh1 = f(f"select i1 {f.cmp('slt', room, 0)}, i64 0, i64 "
            f"{f.min(v['KH'], f.add(_div_by(f, room, dh), 1))}")
    return ih0, kh0, kh1


# ---------------------------------------------------------------- the epilogue


def _store_epilogue(f: Fn, isa: Isa, act: str, accs: list, ptrs: list,
                    mask) -> None:
    """Store act(acc) of each accumulator at its pointer (the last masked by `mask`, or
    each by its own when `mask` is a list), switching on the activation code `act`."""
    masks = mask if isinstance(mask, list) else [None] * (len(accs) - 1) + [mask]

    def emit(a):
        for x, p, m in zip(accs, ptrs, masks):
            vstore(f, isa, vactivation(f, isa, ACT_NAMES[a], x), p, m)
    f.switch(act, {a: a for a in range(_N_ACTS)}, emit)


# ---------------------------------------------------------------- the plane function


def _plane_setup(f: Fn, isa: Isa):
    """The work fields of a plane function (%work, %n, %c) and what every one reads
    first: (fields, the plane's input, output and filter, the bias splat, whether to
    accumulate, the activation code)."""
    v = _load_work(f, _FIELDS, _TYPES)
    inp = f.gep(v["in"], f.add(f.mul("%n", v["sn"]), f.mul("%c", v["sc"])))
    outp = f.gep(v["out"], f.add(f.mul("%n", v["osn"]), f.mul("%c", v["osc"])))
    filt = f.gep(v["filter"], f.mul("%c", f.mul(v["KH"], v["KW"])))
    flags = v["flags"]
    bias_on = f(f"icmp ne i32 {f(f'and i32 {flags}, 1')}, 0")
    bptr = f.gep(v["bias"], "%c")
    # (the bias is loaded only when its flag is set: it may point anywhere otherwise)
    yes_b, no_b, join_b = f.label("b"), f.label("nb"), f.label("jb")
    f.cbr(bias_on, yes_b, no_b)
    f.start(yes_b)
    bval = f(f"load float, ptr {bptr}, align 4")
    f.br(join_b)
    f.start(no_b)
    f.br(join_b)
    f.start(join_b)
    b = f(f"phi float [ {bval}, %{yes_b} ], [ 0.0, %{no_b} ]")
    bvec = splat(f, isa, b)
    acc_on = f(f"icmp ne i32 {v['acc']}, 0")
    act = f(f"zext i32 {f(f'lshr i32 {flags}, 4')} to i64")
    return v, inp, outp, filt, bvec, acc_on, act


def _plane(isa: Isa, variant: int) -> str:
    """@strata_dw_plane_<variant>(work, n, c, oh0, oh1): rows [oh0, oh1) of plane (n, c)
    for filter width / stride `_VARIANTS[variant]` (None: any)."""
    kw_s, s_s = _VARIANTS[variant]
    W, V = isa.width, vec_type(isa)
    f = Fn(f"define internal void @strata_dw_plane_{variant}(ptr %work, i64 %n, i64 %c, "
           "i64 %oh0, i64 %oh1) #1")
    v, inp, outp, filt, bvec, acc_on, act = _plane_setup(f, isa)
    sw = v["sw"] if s_s is None else str(s_s)
    kw_n = v["KW"] if kw_s is None else str(kw_s)
    # the span of input columns a chunk of `cols` output columns from j reads, past its
    # first: (cols - 1) * sw + (KW - 1) * dw + (sw - 1) (a stride-2 load reads the odd
    # lane after the last even one)
    reach = f.add(f.mul(f.sub(kw_n, 1), v["dw"]), f.sub(sw, 1))

    def interior(j, cols):
        first = f.sub(f.mul(j, sw), v["pl"])
        last = f.add(f.add(first, f.mul(cols - 1, sw)), reach)
        ok = f(f"and i1 {f.cmp('sge', first, 0)}, {f.cmp('slt', last, v['W'])}")
        return f(f"and i1 {ok}, {f.cmp('sge', f.sub(v['OW'], j), cols)}")

    def row(oh):
        ih0, kh0, kh1 = _window_rows(f, v, oh)
        orow = f.gep(outp, f.mul(oh, v["osh"]))

        def chunk(j, nvec, masked):
            """The chunk of nvec vectors from column j (masked: one vector, `nvalid`
            lanes stored, masked loads)."""
            nvalid = f.min(f.sub(v["OW"], j), W) if masked else None
            smask = _lanes(f, isa, "0", nvalid) if masked else None
            optr = [f.gep(orow, f.add(j, i * W)) for i in range(nvec)]
            init = []
            for i in range(nvec):
                old = vload(f, isa, optr[i], smask if masked else None)
                old = f(f"select i1 {acc_on}, {V} {old}, {V} zeroinitializer")
                init.append(f(f"fadd {V} {old}, {bvec}"))

            # partial sums: tap kw adds into set kw % sets, so that DW_CHAINS chains of
            # FMAs are in flight (one vector's 9 or 25 dependent FMAs waited on each
            # other's latency: small images were latency-bound)
            sets = 1 if kw_s is None else max(1, min(kw_s, DW_CHAINS // nvec))
            init += ["zeroinitializer"] * (nvec * (sets - 1))

            def khrow(kh, accs):
                rowp = f.gep(inp, f.mul(f.add(ih0, f.mul(kh, v["dh"])), v["shs"]))
                taps = f.gep(filt, f.mul(kh, v["KW"]))

                def tap(kw, accs, at=0):
                    t = splat(f, isa, f(f"load float, ptr {f.gep(taps, kw)}, align 4"))
                    out = list(accs)
                    for i in range(nvec):
                        x = _load_taps(f, isa, v, rowp, f.add(j, i * W), kw, sw, s_s,
                                       masked)
                        out[at + i] = fma(f, isa, x, t, accs[at + i])
                    return out
                if kw_s is None:
                    return f.loop("0", v["KW"], 1, tap, [(V, a) for a in accs])
                for kw in range(kw_s):
                    accs = tap(str(kw), accs, (kw % sets) * nvec)
                return accs
            accs = f.loop(kh0, kh1, 1, khrow, [(V, a) for a in init])
            for k in range(1, sets):
                accs[:nvec] = [f(f"fadd {V} {a}, {b}") for a, b in
                               zip(accs[:nvec], accs[k * nvec:(k + 1) * nvec])]
            _store_epilogue(f, isa, act, accs[:nvec], optr, smask)

        # j: interior chunks of DW_VECTORS vectors, then of one, else masked ones
        pre, head, body, done = f.block, f.label("jh"), f.label("jb"), f.label("je")
        f.br(head)
        f.start(head)
        j = f.fresh()
        at = len(f.out)
        f.out.append(None)
        f.cbr(f.cmp("slt", j, v["OW"]), body, done)
        f.start(body)
        nexts = []
        if s_s is not None:
            big, one, edge = f.label("big"), f.label("one"), f.label("edge")
            test1 = f.label("oneq")
            f.cbr(interior(j, DW_VECTORS * W), big, test1)
            f.start(test1)
            f.cbr(interior(j, W), one, edge)
            for lbl, nvec, masked in ((big, DW_VECTORS, False), (one, 1, False),
                                      (edge, 1, True)):
                f.start(lbl)
                chunk(j, nvec, masked)
                nexts.append((f.add(j, nvec * W), f.block))
                f.br(head)
        else:
            chunk(j, 1, True)
            nexts.append((f.add(j, W), f.block))
            f.br(head)
        incoming = ", ".join(f"[ {x}, %{blk} ]" for x, blk in nexts)
        f.out[at] = f"  {j} = phi i64 [ 0, %{pre} ], {incoming}"
        f.start(done)
    if s_s is None or kw_s != 3:
        f.loop("%oh0", "%oh1", 1, row)
    else:
        # 3x3 windows over rows of one vector or less: DW_SMALL_ROWS rows at a time (see
        # [Note: depthwise kernel design]), else row by row (5x5 windows on 7x7 images
        # measured slower so: a third of their window rows are outside the image, which
        # row by row skips)
        small, wide, end = f.label("small"), f.label("wide"), f.label("rows")
        f.cbr(f.cmp("sle", v["OW"], W), small, wide)
        f.start(small)
        _small_rows(f, isa, v, inp, outp, filt, bvec, acc_on, act, kw_s, s_s)
        f.br(end)
        f.start(wide)
        f.loop("%oh0", "%oh1", 1, row)
        f.br(end)
        f.start(end)
    f.do("ret void")
    return f.text()


def _small_rows(f: Fn, isa: Isa, v: dict, inp: str, outp: str, filt: str, bvec: str,
                acc_on: str, act: str, kw_s: int, s_s: int) -> None:
    """Rows [oh0, oh1) of a plane whose output rows fit one vector (OW <= W): blocks of
    DW_SMALL_ROWS rows, one masked vector each, the window rows [0, KH) for all of them
    (a row outside the image loads nothing: its mask is off), each column mask made
    once per plane, each tap broadcast once per block. Row by row, the setup of a row
    cost more than its 9 FMAs (7x7 and 14x14 images)."""
    W, V = isa.width, vec_type(isa)
    R = DW_SMALL_ROWS
    sets = max(1, min(kw_s, DW_CHAINS // R))
    # column masks of tap kw (stride 2: of its two halves), the same for every row
    cols = []
    for kw in range(kw_s):
        pos = f.add(f.sub("0", v["pl"]), f.mul(kw, v["dw"]))
        cols.append([(pos, _in_row(f, isa, f.add(pos, h * W), v["W"])) for h in range(s_s)])
    zero_mask = "zeroinitializer"

    def block(ohb):
        rows = [f.add(ohb, r) for r in range(R)]
        live = [f.cmp("slt", oh, "%oh1") for oh in rows]
        smask = [_lanes(f, isa, "0", f(f"select i1 {ok}, i64 {v['OW']}, i64 0"))
                 for ok in live]
        optr = [f.gep(outp, f.mul(oh, v["osh"])) for oh in rows]
        ih0 = [f.sub(f.mul(oh, v["sh"]), v["pt"]) for oh in rows]
        init = []
        for r in range(R):
            old = vload(f, isa, optr[r], smask[r])
            old = f(f"select i1 {acc_on}, {V} {old}, {V} zeroinitializer")
            init.append(f(f"fadd {V} {old}, {bvec}"))
        init += ["zeroinitializer"] * (R * (sets - 1))

        def khrow(kh, accs):
            taps = f.gep(filt, f.mul(kh, v["KW"]))
            rowp, inside = [], []
            for r in range(R):
                ih = f.add(ih0[r], f.mul(kh, v["dh"]))
                inside.append(f(f"and i1 {f.cmp('sge', ih, 0)}, {f.cmp('slt', ih, v['H'])}"))
                rowp.append(_gep(f, inp, f.mul(ih, v["shs"])))
            out = list(accs)
            for kw in range(kw_s):
                t = splat(f, isa, f(f"load float, ptr {f.gep(taps, str(kw))}, align 4"))
                at = (kw % sets) * R
                for r in range(R):
                    halves = []
                    for pos, m in cols[kw]:
                        m = f(f"select i1 {inside[r]}, <{W} x i1> {m}, <{W} x i1> {zero_mask}")
                        halves.append(vload(f, isa, _gep(f, rowp[r], pos) if not halves else
                                            _gep(f, rowp[r], f.add(pos, W)), m))
                    if s_s == 2:
                        even = ", ".join(f"i32 {2 * i}" for i in range(W))
                        x = f(f"shufflevector {V} {halves[0]}, {V} {halves[1]}, "
                              f"<{W} x i32> <{even}>")
                    else:
                        x = halves[0]
                    out[at + r] = fma(f, isa, x, t, out[at + r])
            return out
        accs = f.loop("0", v["KH"], 1, khrow, [(V, a) for a in init])
        for k in range(1, sets):
            accs[:R] = [f(f"fadd {V} {a}, {b}") for a, b in zip(accs[:R], accs[k * R:(k + 1) * R])]
        _store_epilogue(f, isa, act, accs[:R], optr, smask)
    f.loop("%oh0", "%oh1", R, block)


def _mask_type(isa: Isa) -> str:
    """The integer a <W x i1> tap mask is kept in, in the flat variant's table."""
    return f"i{max(isa.width, 8)}"


def _flat_masks(f: Fn, isa: Isa, table: str) -> None:
    """Fill `table` (DW_FLAT_VECTORS x DW_FLAT_TAPS masks) for the flat variant (see
    [Note: depthwise kernel design]): entry (j, kh * KW + kw) has lane l on iff output
    pixel q = j W + l of a plane is one (q < OH OW) whose tap (kh, kw) reads inside the
    image: 0 <= (q / OW) sh + kh dh - pt < H and 0 <= (q % OW) sw + kw dw - pl < W. Once
    per call; the same for every plane."""
    W = isa.width
    VI = f"<{W} x i64>"
    pixels = f.mul("%OH", "%OW")
    nvec = f(f"sdiv i64 {f.add(pixels, W - 1)}, {W}")
    taps = f.mul("%KH", "%KW")
    owf = splat(f, isa, f("sitofp i64 %OW to float"))
    mt = _mask_type(isa)
    ow_v, h_v, w_v, sh_v, sw_v = (splat(f, isa, x, "i64")
                                  for x in ("%OW", "%H", "%W", "%sh", "%sw"))
    pix_v = splat(f, isa, pixels, "i64")

    def vector(j):
        q = f(f"add {VI} {splat(f, isa, f.mul(j, W), 'i64')}, {_iota(isa)}")
        # q / OW in floats: q < 2^24 and (q + 1/2) / OW lies 1/(2 OW) from an integer
        qf = f(f"sitofp {VI} {q} to {vec_type(isa)}")
        qf = f(f"fadd {vec_type(isa)} {qf}, {_vsplat(isa, 0.5)}")
        oh = f(f"fptosi {vec_type(isa)} {f(f'fdiv {vec_type(isa)} {qf}, {owf}')} to {VI}")
        ow = f(f"sub {VI} {q}, {f(f'mul {VI} {oh}, {ow_v}')}")
        live = f(f"icmp slt {VI} {q}, {pix_v}")
        oh = f(f"mul {VI} {oh}, {sh_v}")
        ow = f(f"mul {VI} {ow}, {sw_v}")
        row0 = f.mul(j, taps)

        def khrow(kh):
            ih = f(f"add {VI} {oh}, {splat(f, isa, f.sub(f.mul(kh, '%dh'), '%pt'), 'i64')}")
            ok = f(f"and <{W} x i1> {live}, "
                   f"{f(f'icmp ult {VI} {ih}, {h_v}')}")
            at = f.add(row0, f.mul(kh, "%KW"))

            def tap(kw):
                iw = f(f"add {VI} {ow}, "
                       f"{splat(f, isa, f.sub(f.mul(kw, '%dw'), '%pl'), 'i64')}")
                m = f(f"and <{W} x i1> {ok}, "
                      f"{f(f'icmp ult {VI} {iw}, {w_v}')}")
                bits = f(f"bitcast <{W} x i1> {m} to i{W}")
                if mt != f"i{W}":
                    bits = f(f"zext i{W} {bits} to {mt}")
                f.do(f"store {mt} {bits}, ptr {f.gep(table, f.add(at, kw), mt)}, align 1")
            f.loop("0", "%KW", 1, tap)
        f.loop("0", "%KH", 1, khrow)
    f.loop("0", nvec, 1, vector)


def _flat(isa: Isa, k: int) -> str:
    """@strata_dw_flat_<k>(work, n, c, oh0, oh1): plane (n, c) whole, its pixels as one
    row (see [Note: depthwise kernel design]; oh0 and oh1 unused), for filters and
    strides `_FLAT_KINDS[k]` (width None: any)."""
    W, V = isa.width, vec_type(isa)
    mt = _mask_type(isa)
    kw_s, stride = _FLAT_KINDS[k]
    f = Fn(f"define internal void @strata_dw_flat_{k}(ptr %work, i64 %n, i64 %c, "
           "i64 %oh0, i64 %oh1) #1")
    phases = None
    if stride == 2:
        phases = f(f"alloca [{4 * DW_FLAT_PHASE_VECTORS * W} x float], align 64")
    v, inp, outp, filt, bvec, acc_on, act = _plane_setup(f, isa)
    pixels = f.mul(v["OH"], v["OW"])
    nvec = f(f"sdiv i64 {f.add(pixels, W - 1)}, {W}")
    taps = f.mul(v["KH"], v["KW"])
    if stride == 2:
        _split_phases(f, isa, v, inp, phases)

    def source(kh, kw):
        """(base, offset) of tap (kh, kw)'s input for output pixel 0."""
        dy = f.sub(f.mul(kh, v["dh"]), v["pt"])
        dx = f.sub(f.mul(kw, v["dw"]), v["pl"])
        if stride == 1:
            return inp, f.add(f.mul(dy, v["W"]), dx)
        phase = f.add(f.mul(f(f"and i64 {dy}, 1"), 2), f(f"and i64 {dx}, 1"))
        base = f.gep(phases, f.mul(phase, DW_FLAT_PHASE_VECTORS * W))
        return base, f.add(f.mul(f(f"ashr i64 {dy}, 1"), v["OW"]), f(f"ashr i64 {dx}, 1"))

    def group(j0, g):
        qs = [f.mul(f.add(j0, i), W) for i in range(g)]
        smask = [_lanes(f, isa, "0", f.sub(pixels, q)) for q in qs]
        optr = [f.gep(outp, q) for q in qs]
        init = []
        for i in range(g):
            old = vload(f, isa, optr[i], smask[i])
            old = f(f"select i1 {acc_on}, {V} {old}, {V} zeroinitializer")
            init.append(f(f"fadd {V} {old}, {bvec}"))
        rows = [f.mul(f.add(j0, i), taps) for i in range(g)]
        # a known width: its taps unrolled, alternately into two sets of partial sums
        # (2 g chains of FMAs in flight)
        sets = 1 if kw_s is None else 2
        init += ["zeroinitializer"] * (g * (sets - 1))

        def khrow(kh, accs):
            at = f.mul(kh, v["KW"])

            def tap(kw, accs, into=0):
                t = f.add(at, kw)
                w = splat(f, isa, f(f"load float, ptr {f.gep(filt, t)}, align 4"))
                base, off = source(kh, kw)
                out = list(accs)
                for i in range(g):
                    bits = f(f"load {mt}, ptr {f.gep(v['masks'], f.add(rows[i], t), mt)}, "
                             "align 1")
                    if mt != f"i{W}":
                        bits = f(f"trunc {mt} {bits} to i{W}")
                    m = f(f"bitcast i{W} {bits} to <{W} x i1>")
                    x = vload(f, isa, _gep(f, base, f.add(qs[i], off)), m)
                    out[into + i] = fma(f, isa, x, w, accs[into + i])
                return out
            if kw_s is None:
                return f.loop("0", v["KW"], 1, tap, [(V, a) for a in accs])
            for kw in range(kw_s):
                accs = tap(str(kw), accs, (kw % sets) * g)
            return accs
        accs = f.loop("0", v["KH"], 1, khrow, [(V, a) for a in init])
        for m in range(1, sets):
            accs[:g] = [f(f"fadd {V} {a}, {b}") for a, b in zip(accs[:g], accs[m * g:(m + 1) * g])]
        _store_epilogue(f, isa, act, accs[:g], optr, smask)
    G = DW_FLAT_GROUP
    main = f.sub(nvec, f(f"srem i64 {nvec}, {G}"))
    f.loop("0", main, G, lambda j: group(j, G))
    f.loop(main, nvec, 1, lambda j: group(j, 1))
    f.do("ret void")
    return f.text()


def _split_phases(f: Fn, isa: Isa, v: dict, inp: str, phases: str) -> None:
    """Copy the plane at `inp` into its four stride-2 phases: phase 2a + b (at
    a * 2 + b times DW_FLAT_PHASE_VECTORS vectors) holds in[2i + a][2j + b] at i OW + j,
    for j < ceil((W - b) / 2) <= OW (the rest is never read: the taps' masks)."""
    W, V = isa.width, vec_type(isa)
    even = ", ".join(f"i32 {2 * i}" for i in range(W))
    odd = ", ".join(f"i32 {2 * i + 1}" for i in range(W))
    cols = [f(f"sdiv i64 {f.sub(f.add(v['W'], 1), b)}, 2") for b in (0, 1)]

    def chunk(j0):
        # the masks of the two loads (input columns 2 j0 ...) and the two stores
        lm = [_lanes(f, isa, "0", f.sub(v["W"], f.add(f.mul(j0, 2), h * W))) for h in (0, 1)]
        sm = [_lanes(f, isa, "0", f.sub(cols[b], j0)) for b in (0, 1)]

        def row(y):
            src = _gep(f, inp, f.add(f.mul(y, v["shs"]), f.mul(j0, 2)))
            lo = vload(f, isa, src, lm[0])
            hi = vload(f, isa, _gep(f, src, str(W)), lm[1])
            a = f(f"and i64 {y}, 1")
            at = f.add(f.mul(f(f"ashr i64 {y}, 1"), v["OW"]), j0)
            for b, sel in ((0, even), (1, odd)):
                x = f(f"shufflevector {V} {lo}, {V} {hi}, <{W} x i32> <{sel}>")
                base = f.mul(f.add(f.mul(a, 2), b), DW_FLAT_PHASE_VECTORS * W)
                vstore(f, isa, x, _gep(f, phases, f.add(base, at)), sm[b])
        f.loop("0", v["H"], 1, row)
    f.loop("0", cols[0], W, chunk)


def _load_taps(f: Fn, isa: Isa, v: dict, rowp: str, j: str, kw: str, sw: str, s_s,
               masked: bool) -> str:
    """The input vector tap kw multiplies for output columns j .. j+W-1 of a row."""
    W, V = isa.width, vec_type(isa)
    pos = f.add(f.sub(f.mul(j, sw), v["pl"]), f.mul(kw, v["dw"]))
    if s_s == 1:
        p = _gep(f, rowp, pos)
        return vload(f, isa, p, _in_row(f, isa, pos, v["W"]) if masked else None)
    if s_s == 2:
        halves = []
        for h in range(2):
            ph = f.add(pos, h * W)
            halves.append(vload(f, isa, _gep(f, rowp, ph),
                                _in_row(f, isa, ph, v["W"]) if masked else None))
        even = ", ".join(f"i32 {2 * i}" for i in range(W))
        return f(f"shufflevector {V} {halves[0]}, {V} {halves[1]}, <{W} x i32> <{even}>")
    # any stride: a masked gather
    lanes = f(f"mul <{W} x i64> {_iota(isa)}, {splat(f, isa, sw, 'i64')}")
    p = f(f"add <{W} x i64> {splat(f, isa, pos, 'i64')}, {lanes}")
    lo = f(f"icmp sge <{W} x i64> {p}, zeroinitializer")
    hi = f(f"icmp slt <{W} x i64> {p}, {splat(f, isa, v['W'], 'i64')}")
    mask = f(f"and <{W} x i1> {lo}, {hi}")
    ptrs = f(f"getelementptr float, ptr {rowp}, <{W} x i64> {p}")
    return f(f"call {V} @llvm.masked.gather.v{W}f32.v{W}p0(<{W} x ptr> {ptrs}, i32 4, "
             f"<{W} x i1> {mask}, {V} zeroinitializer)")


# ---------------------------------------------------------------- driver and entry


def _chunk(isa: Isa) -> str:
    """@strata_dw_chunk(work, lo, hi): items [lo, hi) (see [Note: depthwise kernel
    design]): the plane function of the call's variant on each."""
    f = Fn("define internal void @strata_dw_chunk(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _FIELDS, _TYPES)

    # the first item's (n, c, row block), then counted on: two divisions per item cost
    # more than a 7x7 plane's taps
    plane = f(f"sdiv i64 %lo, {v['nrb']}")
    r0 = f(f"srem i64 %lo, {v['nrb']}")
    n0 = f(f"sdiv i64 {plane}, {v['C']}")
    c0 = f(f"srem i64 {plane}, {v['C']}")
    ty = [("i64", r0), ("i64", c0), ("i64", n0)]

    def item(i, at):
        r, c, n = at
        oh0 = f.mul(r, v["rb"])
        oh1 = f.min(v["OH"], f.add(oh0, v["rb"]))
        f.switch(v["variant"], {k: k for k in range(_N_VARIANTS)}, lambda k: f.do(
            f"call void @strata_dw_{_variant_name(k)}(ptr %work, i64 {n}, i64 {c}, "
            f"i64 {oh0}, i64 {oh1})"))
        r1 = f.add(r, 1)
        wrap = f.cmp("eq", r1, v["nrb"])
        c1 = f.add(c, 1)
        c1 = f(f"select i1 {wrap}, i64 {c1}, i64 {c}")
        wrap_c = f.cmp("eq", c1, v["C"])
        return [f(f"select i1 {wrap}, i64 0, i64 {r1}"),
                f(f"select i1 {wrap_c}, i64 0, i64 {c1}"),
                f(f"select i1 {wrap_c}, i64 {f.add(n, 1)}, i64 {n}")]
    f.loop("%lo", "%hi", 1, item, ty)
    f.do("ret void")
    return f.text()


def _public(isa: Isa) -> str:
    f = Fn("define void @strata_dwconv2d_nchw_f32(i64 %N, i64 %C, i64 %H, i64 %W, i64 %KH, "
           "i64 %KW, i64 %OH, i64 %OW, i64 %sh, i64 %sw, i64 %dh, i64 %dw, i64 %pt, "
           "i64 %pl, ptr %in, i64 %sn, i64 %sc, i64 %shs, ptr %filter, ptr %out, "
           "i64 %osn, i64 %osc, i64 %osh, i32 %acc, ptr %bias, i32 %flags, i64 %tile) #0")
    done = _refuse_bad_sizes(f, ("H", "W", "KH", "KW"))
    v = {x: f"%{x}" for x in _FIELDS}
    # the variant: specialized filter width and stride, else the generic code
    variant = str(len(_VARIANTS) - 1)
    for k, (kw, s) in reversed(list(enumerate(_VARIANTS[:-1]))):
        hit = f(f"and i1 {f.cmp('eq', '%KW', kw)}, {f.cmp('eq', '%sw', s)}")
        variant = f(f"select i1 {hit}, i64 {k}, i64 {variant}")
    # the flat code: stride 1, rows as long as the input's, both planes' rows contiguous,
    # small planes and windows
    pixels = f("mul i64 %OH, %OW")
    taps = f("mul i64 %KH, %KW")
    flat = all_of(f, [f.cmp("eq", "%sh", 1), f.cmp("eq", "%sw", 1), f.cmp("eq", "%OW", "%W"),
                      f.cmp("eq", "%shs", "%W"), f.cmp("eq", "%osh", "%OW"),
                      f.cmp("sle", "%OH", DW_FLAT_VECTORS * isa.width),
                      f.cmp("sle", "%OW", DW_FLAT_VECTORS * isa.width),
                      f.cmp("sle", pixels, DW_FLAT_VECTORS * isa.width),
                      f.cmp("sle", "%KH", DW_FLAT_TAPS), f.cmp("sle", "%KW", DW_FLAT_TAPS),
                      f.cmp("sle", taps, DW_FLAT_TAPS)])
    # the stride-2 flat code: phases of at most DW_FLAT_PHASE_VECTORS vectors (each
    # ceil(H / 2) rows of OW >= ceil(W / 2) pixels), the output no larger
    lim = DW_FLAT_PHASE_VECTORS * isa.width
    half_h = f(f"sdiv i64 {f('add i64 %H, 1')}, 2")
    flat2 = all_of(f, [f.cmp("eq", "%sh", 2), f.cmp("eq", "%sw", 2),
                       f.cmp("eq", "%osh", "%OW"), f.cmp("sle", "%OH", lim),
                       f.cmp("sle", "%OW", lim), f.cmp("sle", pixels, lim),
                       f.cmp("sle", "%H", 2 * lim), f.cmp("sle", "%W", 2 * lim),
                       f.cmp("sle", f(f"sdiv i64 {f('add i64 %W, 1')}, 2"), "%OW"),
                       f.cmp("sle", f(f"mul i64 {half_h}, %OW"), lim),
                       f.cmp("sle", "%KH", DW_FLAT_TAPS), f.cmp("sle", "%KW", DW_FLAT_TAPS),
                       f.cmp("sle", taps, DW_FLAT_TAPS)])
    fv = str(_FLAT + 2)
    for k, (kw, _) in reversed(list(enumerate(_FLAT_KINDS[:2]))):
        fv = f(f"select i1 {f.cmp('eq', '%KW', kw)}, i64 {_FLAT + k}, i64 {fv}")
    fv = f(f"select i1 {flat2}, i64 {f.add(fv, 3)}, i64 {fv}")
    flat = f(f"or i1 {flat}, {flat2}")
    variant = f(f"select i1 {flat}, i64 {fv}, i64 {variant}")
    v["variant"] = variant
    mt = _mask_type(isa)
    table = f(f"alloca [{DW_FLAT_VECTORS * DW_FLAT_TAPS} x {mt}], align 64")
    v["masks"] = table
    fill, filled = f.label("masks"), f.label("filled")
    f.cbr(flat, fill, filled)
    f.start(fill)
    _flat_masks(f, isa, table)
    f.br(filled)
    f.start(filled)
    threads = f(f"sext i32 {f('call i32 @strata_get_num_threads()')} to i64")
    threads = f(f"call i64 @llvm.smax.i64(i64 {threads}, i64 1)")
    planes = f(f"mul i64 %N, %C")
    # rows per item: the tile word's, else the plane's, cut until there are enough items
    want = f(f"mul i64 {threads}, {_ITEMS_PER_THREAD}")
    cut = f(f"sdiv i64 {f(f'mul i64 %OH, {planes}')}, {want}")
    rb = f.min("%OH", f(f"call i64 @llvm.smax.i64(i64 {cut}, i64 1)"))
    rb = f(f"select i1 {f.cmp('sgt', '%tile', 0)}, i64 {f.min('%OH', '%tile')}, i64 {rb}")
    rb = f(f"select i1 {flat}, i64 %OH, i64 {rb}")      # (flat: a plane per item)
    nrb = f(f"sdiv i64 {f.add('%OH', f.sub(rb, 1))}, {rb}")
    v["rb"], v["nrb"] = rb, nrb
    items = f(f"mul i64 {planes}, {nrb}")
    work = _store_work(f, _FIELDS, _TYPES, v)
    _run_items(f, "@strata_dw_chunk", work, items, threads, done)
    return f.text()


def _refuse_bad_sizes(f: Fn, nonneg) -> str:
    """Branch to the returned label (where nothing is done) when N, C, OH, OW, a stride
    or a dilation is <= 0, a size of `nonneg` < 0, or the flags' activation unknown; the
    code after this call runs otherwise."""
    bad = [f.cmp("sle", f"%{x}", 0) for x in ("N", "C", "OH", "OW", "sh", "sw", "dh", "dw")]
    bad += [f.cmp("slt", f"%{x}", 0) for x in nonneg]
    bad.append(f("icmp uge i32 %flags, " + str(_N_ACTS << 4)))
    any_bad = bad[0]
    for b in bad[1:]:
        any_bad = f(f"or i1 {any_bad}, {b}")
    go, done = f.label("go"), f.label("done")
    f.cbr(any_bad, done, go)
    f.start(go)
    return done


def _run_items(f: Fn, chunk: str, work: str, items: str, threads: str, done: str) -> None:
    """Items [0, items) of chunk function `chunk` over `work`: on the thread pool from
    DW_PAR_MIN_MACS multiply-adds on (and more than one thread), else on this thread;
    then `done`, which returns."""
    macs = f(f"mul i64 {f('mul i64 %N, %C')}, {f('mul i64 %OH, %OW')}")
    macs = f(f"mul i64 {macs}, {f('mul i64 %KH, %KW')}")
    serial = f(f"or i1 {f.cmp('sle', threads, 1)}, {f.cmp('slt', macs, DW_PAR_MIN_MACS)}")
    one, many = f.label("one"), f.label("many")
    f.cbr(serial, one, many)
    f.start(one)
    f.do(f"call void {chunk}(ptr {work}, i64 0, i64 {items})")
    f.br(done)
    f.start(many)
    f.do(f"call void @strata_parallel_for(ptr {chunk}, ptr {work}, i64 {items}, i64 1)")
    f.br(done)
    f.start(done)
    f.do("ret void")


def depthwise_functions(isa: Isa) -> list:
    """Every function of the depthwise kernel for `isa`, as LLVM IR text (the intrinsics
    it calls are declared by kernel_ir.declarations)."""
    return [*(_plane(isa, k) for k in range(len(_VARIANTS))),
            *(_flat(isa, k) for k in range(len(_FLAT_KINDS))), _chunk(isa),
            _public(isa)]


# ---------------------------------------------------------------- the channel-last kernel
# (see [Note: channel-last depthwise kernel])

# Output pixels of a row the unrolled channel-last code computes at a time (accumulator
# vectors; with a 7-wide window's filter vectors and the input vector: 16 registers),
# the one of the two that wastes fewer pixels of the row's last tile (7 for ConvNeXt's
# 56, 28, 14 and 7 wide maps). 1 thread, 7x7, against onnxruntime: tiles of 12 pixels
# 0.67 / 0.79 / 0.98 / 1.17x on ConvNeXt-T's four stages, of 8 0.69 / 0.70 / 0.87 /
# 0.80x, of 7 0.76 / 0.64 / 0.70 / 0.79x.
DWN_TILES = (8, 7)
# ... where the window is not unrolled (any width, stride or dilation).
DWN_TILE_ANY = 4
# Channel vectors of an item (a row of output pixels), unless the tile word says.
DWN_CHUNK_VECTORS = 4
# Windows 3, 5 and 7 wide at stride 1, dilation 1: the unrolled row-reuse code, a
# variant per (window width, tile).
_NHWC_WIDTHS = (3, 5, 7)
_NHWC_KINDS = tuple((k, t) for t in DWN_TILES for k in _NHWC_WIDTHS)
_NFIELDS = ("N", "H", "W", "C", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw", "pt", "pl",
            "in", "sn", "shs", "sws", "filter", "out", "osn", "osh", "osw", "acc", "bias",
            "flags", "cch", "nch", "variant")


def _nhwc_row(isa: Isa, variant: int) -> str:
    """@strata_dwn_row_<variant>(work, n, oh, c0): output row oh of image n, the channel
    vectors of [c0, c0 + cch) (clipped at C), for the window width and pixel tile
    `_NHWC_KINDS[variant]` at stride 1 and dilation 1 (the last variant: any window,
    stride, dilation)."""
    W, V = isa.width, vec_type(isa)
    K, T = _NHWC_KINDS[variant] if variant < len(_NHWC_KINDS) else (None, DWN_TILE_ANY)
    f = Fn(f"define internal void @strata_dwn_row_{variant}(ptr %work, i64 %n, i64 %oh, "
           "i64 %c0) #1")
    v = _load_work(f, _NFIELDS, _TYPES)
    inp = f.gep(v["in"], f.mul("%n", v["sn"]))
    orow = f.gep(v["out"], f.add(f.mul("%n", v["osn"]), f.mul("%oh", v["osh"])))
    flags = v["flags"]
    bias_on = f(f"icmp ne i32 {f(f'and i32 {flags}, 1')}, 0")
    acc_on = f(f"icmp ne i32 {v['acc']}, 0")
    act = f(f"zext i32 {f(f'lshr i32 {flags}, 4')} to i64")
    ih0, kh0, kh1 = _window_rows(f, v, "%oh")
    sw, dw, pl, sws = v["sw"], v["dw"], v["pl"], v["sws"]
    # the interior columns [owl, owr): every tap's column inside [0, W)
    owl = f.min(_div_by(f, f.add(pl, f.sub(sw, 1)), sw), v["OW"])
    room = f.add(f.sub(f.sub(v["W"], 1), f.mul(f.sub(v["KW"], 1), dw)), pl)
    owr = f(f"select i1 {f.cmp('slt', room, 0)}, i64 0, i64 "
            f"{f.add(_div_by(f, room, sw), 1)}")
    owr = f(f"call i64 @llvm.smax.i64(i64 {f.min(owr, v['OW'])}, i64 {owl})")
    c1 = f.min(v["C"], f.add("%c0", v["cch"]))

    def channels(c):
        cm = _lanes(f, isa, "0", f.sub(c1, c))
        none = "zeroinitializer"
        bm = f(f"select i1 {bias_on}, <{W} x i1> {cm}, <{W} x i1> {none}")
        bvec = vload(f, isa, f.gep(v["bias"], c), bm)
        filt = f.gep(v["filter"], c)

        def pixels(ow, T, inside):
            """Output pixels [ow, ow + T) of the row; `inside`: all their taps' columns
            are inside the image, else the columns outside are masked off (and, with an
            unrolled window, the pixels past OW: a guarded tile)."""
            guarded = K is not None and not inside
            pm = [cm] * T
            if guarded:
                pm = [f(f"select i1 {f.cmp('slt', f.add(ow, t), v['OW'])}, <{W} x i1> {cm}, "
                        f"<{W} x i1> {none}") for t in range(T)]
            optr = [f.add(f.mul(f.add(ow, t), v["osw"]), c) for t in range(T)]
            optr = [_gep(f, orow, q) if guarded else f.gep(orow, q) for q in optr]
            init = []
            for p, m in zip(optr, pm):
                old = vload(f, isa, p, m)
                old = f(f"select i1 {acc_on}, {V} {old}, {V} zeroinitializer")
                init.append(f(f"fadd {V} {old}, {bvec}"))

            def column_mask(col):
                if inside:
                    return cm
                ok = f(f"and i1 {f.cmp('sge', col, 0)}, {f.cmp('slt', col, v['W'])}")
                return f(f"select i1 {ok}, <{W} x i1> {cm}, <{W} x i1> {none}")

            def khrow(kh, accs):
                rowp = f.gep(inp, f.add(f.mul(f.add(ih0, f.mul(kh, v["dh"])), v["shs"]), c))
                ftaps = f.gep(filt, f.mul(f.mul(kh, v["KW"]), v["C"]))
                first = f.sub(f.mul(ow, sw), pl)
                if K is not None:
                    # row reuse: input column j feeds output t with tap j - t
                    fk = [vload(f, isa, f.gep(ftaps, f.mul(kw, v["C"])), cm)
                          for kw in range(K)]
                    out = list(accs)
                    for j in range(T + K - 1):
                        col = f.add(first, j)
                        # (a masked-off column's address is never dereferenced)
                        x = vload(f, isa, _gep(f, rowp, f.mul(col, sws)), column_mask(col))
                        for t in range(max(0, j - K + 1), min(T, j + 1)):
                            out[t] = fma(f, isa, x, fk[j - t], out[t])
                    return out

                def tap(kw, accs):
                    w = vload(f, isa, f.gep(ftaps, f.mul(kw, v["C"])), cm)
                    out = list(accs)
                    for t in range(T):
                        col = f.add(f.add(first, f.mul(t, sw)), f.mul(kw, dw))
                        x = vload(f, isa, _gep(f, rowp, f(f"mul i64 {col}, {sws}")),
                                  column_mask(col))
                        out[t] = fma(f, isa, x, w, accs[t])
                    return out
                return f.loop("0", v["KW"], 1, tap, [(V, a) for a in accs])
            accs = f.loop(kh0, kh1, 1, khrow, [(V, a) for a in init])
            _store_epilogue(f, isa, act, accs, optr, pm)

        if K is not None:
            # tiles of T pixels, guarded where a tap or a pixel is outside

            def tile(ow):
                yes, no, join = f.label("in"), f.label("edge"), f.label("tiled")
                ok = f(f"and i1 {f.cmp('sge', ow, owl)}, {f.cmp('sle', f.add(ow, T), owr)}")
                f.cbr(ok, yes, no)
                f.start(yes)
                pixels(ow, T, True)
                f.br(join)
                f.start(no)
                pixels(ow, T, False)
                f.br(join)
                f.start(join)
            f.loop("0", v["OW"], T, tile)
            return
        f.loop("0", owl, 1, lambda ow: pixels(ow, 1, False))
        main = f.sub(owr, f(f"srem i64 {f.sub(owr, owl)}, {T}"))
        f.loop(owl, main, T, lambda ow: pixels(ow, T, True))
        f.loop(main, owr, 1, lambda ow: pixels(ow, 1, True))
        f.loop(owr, v["OW"], 1, lambda ow: pixels(ow, 1, False))
    f.loop("%c0", c1, W, channels)
    f.do("ret void")
    return f.text()


def _nhwc_chunk(isa: Isa) -> str:
    """@strata_dwn_chunk(work, lo, hi): items [lo, hi), item i = ((n, oh), channel chunk)
    = (i / nch, i % nch): the row function of the call's variant on each."""
    f = Fn("define internal void @strata_dwn_chunk(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _NFIELDS, _TYPES)

    def item(i):
        row = f(f"sdiv i64 {i}, {v['nch']}")
        c0 = f.mul(f(f"srem i64 {i}, {v['nch']}"), v["cch"])
        n = f(f"sdiv i64 {row}, {v['OH']}")
        oh = f(f"srem i64 {row}, {v['OH']}")
        n_var = len(_NHWC_KINDS) + 1
        f.switch(v["variant"], {k: k for k in range(n_var)}, lambda k: f.do(
            f"call void @strata_dwn_row_{k}(ptr %work, i64 {n}, i64 {oh}, i64 {c0})"))
    f.loop("%lo", "%hi", 1, item)
    f.do("ret void")
    return f.text()


def _nhwc_public(isa: Isa) -> str:
    W = isa.width
    f = Fn("define void @strata_dwconv2d_nhwc_f32(i64 %N, i64 %H, i64 %W, i64 %C, i64 %KH, "
           "i64 %KW, i64 %OH, i64 %OW, i64 %sh, i64 %sw, i64 %dh, i64 %dw, i64 %pt, "
           "i64 %pl, ptr %in, i64 %sn, i64 %shs, i64 %sws, ptr %filter, ptr %out, "
           "i64 %osn, i64 %osh, i64 %osw, i32 %acc, ptr %bias, i32 %flags, i64 %tile) #0")
    done = _refuse_bad_sizes(f, ("H", "W", "KH", "KW", "pt", "pl"))
    v = {x: f"%{x}" for x in _NFIELDS}
    unrolled = all_of(f, [f.cmp("eq", "%sw", 1), f.cmp("eq", "%dw", 1)])
    # the tile wasting fewer pixels of a row: the second when strictly fewer
    waste = []
    for t in DWN_TILES:
        r = f(f"srem i64 %OW, {t}")
        waste.append(f(f"select i1 {f.cmp('eq', r, 0)}, i64 0, i64 {f.sub(str(t), r)}"))
    second = f(f"zext i1 {f.cmp('slt', waste[1], waste[0])} to i64")
    variant = str(len(_NHWC_KINDS))
    for k, kw in reversed(list(enumerate(_NHWC_WIDTHS))):
        hit = f(f"and i1 {unrolled}, {f.cmp('eq', '%KW', kw)}")
        at = f.add(str(k), f.mul(second, len(_NHWC_WIDTHS)))
        variant = f(f"select i1 {hit}, i64 {at}, i64 {variant}")
    v["variant"] = variant
    # channels per item: the tile word's (whole vectors), else DWN_CHUNK_VECTORS vectors
    vecs = f(f"sdiv i64 {f.add('%tile', W - 1)}, {W}")
    vecs = f(f"select i1 {f.cmp('sgt', '%tile', 0)}, i64 {vecs}, i64 {DWN_CHUNK_VECTORS}")
    cch = f.mul(vecs, W)
    nch = f(f"sdiv i64 {f.add('%C', f.sub(cch, 1))}, {cch}")
    v["cch"], v["nch"] = cch, nch
    items = f.mul(f.mul("%N", "%OH"), nch)
    work = _store_work(f, _NFIELDS, _TYPES, v)
    threads = f(f"sext i32 {f('call i32 @strata_get_num_threads()')} to i64")
    _run_items(f, "@strata_dwn_chunk", work, items, threads, done)
    return f.text()


def depthwise_nhwc_functions(isa: Isa) -> list:
    """Every function of the channel-last depthwise kernel for `isa`, as LLVM IR text."""
    return [*(_nhwc_row(isa, k) for k in range(len(_NHWC_KINDS) + 1)), _nhwc_chunk(isa),
            _nhwc_public(isa)]
