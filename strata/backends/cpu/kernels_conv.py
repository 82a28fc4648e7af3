"""The convolution kernels' LLVM IR: strata_conv2d_nchw_f32 (the blocked GEMM of
kernels_gemm.py packing B straight from the image: implicit im2col), its grouped form
strata_conv2d_nchw_grouped_f32 (one such GEMM per image and group, the groups in
parallel) and strata_conv2d_nhwc_f32 (im2col + GEMM). Stride-1 convolutions over narrow
images are computed over the image's rows as one flat row ([Note: flat rows]). The NCHW
kernels take the padding and read the unpadded image ([Note: padding in the packing]);
strata_conv2d_nchw_packed_pro_f32 reads it as act(x * scale[c] + shift[c]) ([Note:
input prologues]: DenseNet's batch norm + ReLU before each 1x1, applied while packing);
strata_conv2d_nchw_packed_t_f32 computes a small image's convolution transposed, pixels
along the micro-tile's rows and filters along its vectors ([Note: small images, filters
along the vectors]: ResNet's 7x7 stage).
`conv_functions(isa)` is all of it. A 1-D convolution is the 2-D one with H = KH = OH = 1 (the lowering passes its
buffers as they are: [Note: 1-D convolutions] in linalg_to_microkernels.py).

[Note: grouped convolutions]
linalg.conv_2d_ngchw_gfchw (ONNX and torch convolutions with 1 < group < channels) is
G independent convolutions: input channels [g*C, (g+1)*C), filters [g*F, (g+1)*F). The
grouped kernels take the per-group C and F, the input's group stride `sg` (its channel
stride times C for a plain NCHW image), and run the ungrouped kernel of the same kind
(plain, packed filter, packed with the epilogue) on each (image, group) item with
pointer offsets: the filter by F*C*KH*KW floats (packed: ceil(F/MR)*MR*C*KH*KW, each
group's filter packed on its own, pack_a_panels(groups=G)), the output by F*OH*OW (its
images are contiguous), the bias by F. Items are small GEMMs (ResNeXt-50: F = 4..32,
K = 36..288; RegNet-X: F = 24), too small to split over threads one after the other,
so `groups_in_parallel` decides, as the batched GEMMs do: when an item is below
PAR_MIN_MACS, when there are GROUP_ITEMS_PER_THREAD items per thread or more, or the
tile word says SPLIT_NONE, the items run in parallel chunks of the pool, each on one
thread (its tile word's split forced to SPLIT_NONE); else one after the other, each
split as its tile word says. The cost model applies the same rule (cost_model.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...conversion.cpu_kernel_abi import ACT_SHIFT, ACTS, EPI_BIAS, EPI_ROW_BIAS, PRO_ACTS
from .guard import checked_bytes, checked_malloc
from .kernel_ir import (Fn, all_of, fma, lane_mask, splat, vactivation, vec_type, vload,
                        vstore)
from .kernels_attention import _row_vectors
from .kernels_gemm import (BLOCKED_KINDS, CHUNK_MIN_MACS, PAR_MIN_MACS, SPLIT_NONE,
                           TILE_FIELDS, _load_work, _store_work, _tile_field, bad_epilogue)
from .kernels_winograd import _either, transposed_rows

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["conv_functions", "groups_in_parallel", "GROUP_ITEMS_PER_THREAD"]

def _copy(f: Fn, isa: Isa, src: str, dst: str, n: str) -> None:
    """dst[0:n] = src[0:n]: vectors, then one masked vector."""
    W = isa.width
    nmain = f.sub(n, f(f"srem i64 {n}, {W}"))
    f.loop("0", nmain, W, lambda j: vstore(f, isa, vload(f, isa, f.gep(src, j)),
                                            f.gep(dst, j)))
    tail, done = f.label("ct"), f.label("cd")
    f.cbr(f.cmp("slt", nmain, n), tail, done)
    f.start(tail)
    mask = lane_mask(f, isa, f.sub(n, nmain))
    vstore(f, isa, vload(f, isa, f.gep(src, nmain), mask), f.gep(dst, nmain), mask)
    f.br(done)
    f.start(done)


def _load_or_zero(f: Fn, cond: str, ptr: str) -> str:
    """The float at `ptr` where i1 `cond` holds (nothing read elsewhere), else 0.0."""
    pre, yes, join = f.block, f.label("in"), f.label("inj")
    f.cbr(cond, yes, join)
    f.start(yes)
    y = f(f"load float, ptr {ptr}, align 4")
    f.br(join)
    f.start(join)
    return f(f"phi float [ 0.0, %{pre} ], [ {y}, %{yes} ]")


def _im2col_nhwc(isa: Isa) -> str:
    """col[oh*OW + ow][(kh*KW + kw)*C + c] = in[oh*sh + kh*dh, ow*sw + kw*dw, c] (one
    image; in's C stride is 1, its H and W strides shs and sws)."""
    f = Fn("define internal void @strata_im2col_nhwc(i64 %C, i64 %KH, i64 %KW, i64 %OH, "
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


# The parameters of an NCHW convolution the implicit-im2col packing reads (i64 each):
# the last five only when padded (see [Note: padding in the packing]).
_CONV_PARAMS = ("C", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw", "sc", "shs", "H", "W",
                "pt", "pl", "pad")


# [Note: padding in the packing]
# The NCHW kernels take the padding (pt, pl: rows above, columns left of the image; what
# lies below and right is whatever OH and OW reach past the image) and read the
# unpadded image: the packing writes zeros for the taps outside it, and no padded copy
# of the image is made (ONNX's and torch's padded convolutions lowered to a zero fill
# and a copy into a larger buffer: ~13% of a grouped stride-2 layer, and DeepLab's
# dilated 3x3s copied their whole input). A convolution is "padded" when pt or pl is
# not 0 or its windows reach past the image's last row or column ((OH-1)*sh + (KH-1)*dh
# >= H, the same for W): then strata_pack_conv_pad packs it, whose rows (c, kh, kw)
# read, for a piece of an output row (oh, ow0 .. ow0+n), the image row ih = oh*sh +
# kh*dh - pt at columns iw + t*sw, iw = ow0*sw + kw*dw - pl. Each row of each piece is
# one of three: wholly inside the image (the unpadded copy, its masks hoisted per
# piece: most rows of a large image), wholly outside (zeros stored: ih outside [0, H),
# or every column), or across the left or right edge: masked loads (zeros elsewhere)
# over the lanes [lo, hi) of the elements inside, on i32 lanes (a compare per bound and
# vector); the stores as in the unpadded packing. (Masks computed for every row made
# the fold 1.06-1.34x slower than the padded copy on ResNet's stem and ResNeXt's
# grouped stride-2 layers.) Flat rows ([Note: flat rows]) and the direct 1x1 GEMM on
# the image are off when padded. Every tap is checked against H and W, so
# a padded convolution reads nothing outside the image whatever its sizes: sizes that
# do not fit the image (OH larger than the image gives) are read as padding, never out
# of bounds; negative padding is refused (nothing written), as the depthwise kernel
# does.


def _pack_conv(isa: Isa, padded: bool = False) -> str:
    """Pack block [pc, pc+kc) x [jc, jc+nc) of the im2col matrix of an NCHW image as
    _pack_n packs B, straight from the image (no im2col buffer): row k = (c, kh, kw),
    column q = (oh, ow), element in[c, oh*sh + kh*dh, ow*sw + kw*dw]. The image offset of
    each row is computed once per block; the columns of each panel are cut once into
    pieces that stay in one output row; then every row of the panel copies its pieces
    (sw = 1 or 2: masked loads, for 2 their even lanes, whole-vector stores in increasing
    order, each store's excess overwritten by the next one; the buffer has NR floats of
    slack at its end; other strides one element at a time). `padded`:
    strata_pack_conv_pad, which strata_pack_conv calls when the parameters say padded:
    the taps outside the image are zeros ([Note: padding in the packing])."""
    W, nv, nr = isa.width, isa.nv, isa.nr
    name = "strata_pack_conv_pad" if padded else "strata_pack_conv"
    sig = "(i64 %kc, i64 %nc, i64 %pc, i64 %jc, ptr noalias %in, ptr noalias %cd, " \
          "ptr noalias %Bp)"
    f = Fn(f"define internal void @{name}{sig} #1")
    p = {n: f(f"load i64, ptr {f.gep('%cd', i, 'i64')}, align 8")
         for i, n in enumerate(_CONV_PARAMS)}
    if not padded:
        pad_l, go = f.label("padded"), f.label("plain")
        f.cbr(f.cmp("ne", p["pad"], 0), pad_l, go)
        f.start(pad_l)
        f.do("call void @strata_pack_conv_pad(i64 %kc, i64 %nc, i64 %pc, i64 %jc, "
             "ptr %in, ptr %cd, ptr %Bp)")
        f.do("ret void")
        f.start(go)
    offs = f(f"alloca [{isa.kc} x i64], align 8")
    # padded: each row's kh*dh and kw*dw; each piece's first image row and column
    taps = {x: f(f"alloca [{isa.kc} x i64], align 8") for x in ("th", "tw")} \
        if padded else {}
    pieces = {x: f(f"alloca [{nr} x i64], align 8")
              for x in ("src", "dst", "len") + (("ih", "iw") if padded else ())}

    def gep(ptr, index):        # outside the image when padded: no inbounds
        return f(f"getelementptr float, ptr {ptr}, i64 {index}") if padded else \
            f.gep(ptr, index)
    khw = f.mul(p["KH"], p["KW"])
    # the last panel's columns past nc are zeroed (strided copies do not write them)
    tail = f(f"srem i64 %nc, {nr}")
    ztail, zdone = f.label("z"), f.label("zd")
    f.cbr(f.cmp("ne", tail, 0), ztail, zdone)
    f.start(ztail)
    last = f.gep("%Bp", f.mul(f.sub("%nc", tail), "%kc"))
    f.loop("0", f.mul("%kc", nv), 1, lambda i: vstore(
        f, isa, "zeroinitializer", f.gep(last, f.mul(i, W))))
    f.br(zdone)
    f.start(zdone)

    # row k = (c, kh, kw) of the block: divided out once, then counted (two divisions a
    # row were most of the packing of small images, packed one panel a call)
    r0 = f("srem i64 %pc, " + khw)
    start = (f("sdiv i64 %pc, " + khw), f(f"sdiv i64 {r0}, {p['KW']}"),
             f(f"srem i64 {r0}, {p['KW']}"))
    step_h = f.mul(p["dh"], p["shs"])

    def row_offset(k, at):
        c, kh, kw = at
        off = f.add(f.add(f.mul(c, p["sc"]), f.mul(kh, step_h)), f.mul(kw, p["dw"]))
        f.do(f"store i64 {off}, ptr {f.gep(offs, k, 'i64')}, align 8")
        for x, v in taps.items():
            f.do(f"store i64 {f.mul(kh if x == 'th' else kw, p['d' + x[1]])}, "
                 f"ptr {f.gep(v, k, 'i64')}, align 8")
        kw1 = f.add(kw, 1)
        wrap_w = f.cmp("eq", kw1, p["KW"])
        kh1 = f(f"select i1 {wrap_w}, i64 {f.add(kh, 1)}, i64 {kh}")
        wrap_h = f.cmp("eq", kh1, p["KH"])
        return [f(f"select i1 {wrap_h}, i64 {f.add(c, 1)}, i64 {c}"),
                f(f"select i1 {wrap_h}, i64 0, i64 {kh1}"),
                f(f"select i1 {wrap_w}, i64 0, i64 {kw1}")]
    f.loop("0", "%kc", 1, row_offset, [("i64", x) for x in start])

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
        ih, iw = f.mul(oh, p["sh"]), f.mul(ow, p["sw"])
        if padded:
            ih, iw = f.sub(ih, p["pt"]), f.sub(iw, p["pl"])
        src = f.add(f.mul(ih, p["shs"]), iw)
        for x, v in (("src", src), ("dst", j), ("len", n), ("ih", ih), ("iw", iw)):
            if x in pieces:
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
        dst_panel = f.gep("%Bp", f.mul(jr, "%kc"))

        # pieces outer, rows inner: each piece's masks and stride case are decided once
        # (rows of a panel still see their pieces' stores in increasing order)
        def piece(i):
            s_off = f(f"load i64, ptr {f.gep(pieces['src'], i, 'i64')}, align 8")
            d_off = f(f"load i64, ptr {f.gep(pieces['dst'], i, 'i64')}, align 8")
            n_ = f(f"load i64, ptr {f.gep(pieces['len'], i, 'i64')}, align 8")
            in_p = gep("%in", s_off)
            out_p = f.gep(dst_panel, d_off)
            if padded:
                ih0, iw0 = (f(f"load i64, ptr {f.gep(pieces[x], i, 'i64')}, align 8")
                            for x in ("ih", "iw"))

            if padded:      # the piece's last element, from its first
                reach = f.mul(f.sub(n_, 1), p["sw"])

            def rows(body):
                def row(k):
                    off = f(f"load i64, ptr {f.gep(offs, k, 'i64')}, align 8")
                    s_, d_ = gep(in_p, off), f.gep(out_p, f.mul(k, nr))
                    if not padded:
                        body(s_, d_, None)
                        return
                    # the row's piece inside the image (the unpadded body), outside it
                    # (zeros), or across its edge: the lanes [lo, hi) of the elements
                    # inside
                    th, tw = (f(f"load i64, ptr {f.gep(taps[x], k, 'i64')}, align 8")
                              for x in ("th", "tw"))
                    inside = f(f"icmp ult i64 {f.add(ih0, th)}, {p['H']}")
                    iw_ = f.add(iw0, tw)
                    end = f.add(iw_, reach)
                    full = all_of(f, [inside, f.cmp("sge", iw_, 0), f.cmp("slt", end, p["W"])])
                    away = f(f"or i1 {f.cmp('slt', end, 0)}, {f.cmp('sge', iw_, p['W'])}")
                    none = f(f"or i1 {f(f'xor i1 {inside}, true')}, {away}")
                    in_l, out_l, edge_l, done_l = (f.label(x) for x in ("ri", "ro", "re", "rd"))
                    f.cbr(full, in_l, f"{in_l}n")
                    f.start(f"{in_l}n")
                    f.cbr(none, out_l, edge_l)
                    f.start(in_l)
                    body(s_, d_, None)
                    f.br(done_l)
                    f.start(out_l)
                    body(s_, d_, "zero")
                    f.br(done_l)
                    f.start(edge_l)
                    lo = f(f"call i64 @llvm.smax.i64(i64 {f.sub('0', iw_)}, i64 0)")
                    body(s_, d_, (lo, f.sub(p["W"], iw_), iw_, inside))
                    f.br(done_l)
                    f.start(done_l)
                f.loop("0", "%kc", 1, row)

            def range_masks(span, count, limit):
                """Load masks of `count` vectors: element e on iff lo <= e < hi and
                e < limit (the unpadded masks when not padded)."""
                if span is None:
                    return None
                # lo and hi clamped to [0, limit] (hi is W - iw: iw < W here), so i32
                # lanes: a compare per bound and vector, the bounds splat once a row
                lo, hi = (f(f"trunc i64 {f.min(x, limit)} to i32") for x in span[:2])
                lo, hi = (splat(f, isa, x, "i32") for x in (lo, hi))
                vi = f"<{W} x i32>"
                out = []
                for v in range(count):
                    iota = vi + " <" + ", ".join(f"i32 {v * W + t}" for t in range(W)) + ">"
                    out.append(f(f"and <{W} x i1> {f(f'icmp sge {iota}, {lo}')}, "
                                 f"{f(f'icmp slt {iota}, {hi}')}"))
                return out
            yes, two, no, joined = (f.label(x) for x in ("pu", "p2", "ps", "pj"))
            masks = [lane_mask(f, isa, f.sub(n_, v * W) if v else n_) for v in range(nv)]
            m2 = f.sub(f.add(n_, n_), 1)     # stride 2 reads elements 0 .. 2n-2
            masks2 = [lane_mask(f, isa, f.sub(m2, h * W) if h else m2) for h in range(2 * nv)]
            even = ", ".join(f"i32 {2 * t}" for t in range(W))
            # Stores are whole vectors, their excess within the row overwritten by the
            # row's next piece; a piece that does not start the row would spill into the
            # next row's first pieces, written already: it blends instead.
            blend = f.cmp("ne", d_off, 0)
            short = f.cmp("sle", n_, W)
            f.do(f"switch i64 {p['sw']}, label %{no} [ i64 1, label %{yes} "
                 f"i64 2, label %{two} ]")

            def put(x, d_, v, blended):
                if blended:
                    old = vload(f, isa, f.gep(d_, v * W))
                    x = f(f"select <{W} x i1> {masks[v]}, {vec_type(isa)} {x}, "
                          f"{vec_type(isa)} {old}")
                vstore(f, isa, x, f.gep(d_, v * W))

            # (`vecs`: the piece's vectors; a piece of one vector or less, 7 or 14 pixels of
            # a small image's row, moves its first vector only: the rest would store
            # what the row's next pieces overwrite, or keep by blending)
            def unit(blended, vecs):
                def body(s_, d_, span):
                    if span == "zero":
                        for v in range(vecs):
                            put("zeroinitializer", d_, v, blended)
                        return
                    lm = range_masks(span, vecs, n_) or masks
                    for v in range(vecs):
                        put(vload(f, isa, gep(s_, v * W), lm[v]), d_, v, blended)
                return body

            def stride2(blended, vecs):
                def body(s_, d_, span):
                    if span == "zero":
                        return unit(blended, vecs)(s_, d_, span)
                    lm = range_masks(span, 2 * vecs, m2) or masks2
                    for v in range(vecs):
                        lo, hi = (vload(f, isa, gep(s_, (2 * v + h) * W), lm[2 * v + h])
                                  for h in (0, 1))
                        put(f(f"shufflevector {vec_type(isa)} {lo}, {vec_type(isa)} {hi}, "
                              f"<{W} x i32> <{even}>"), d_, v, blended)
                return body
            for lbl, make in ((yes, unit), (two, stride2)):
                f.start(lbl)
                for vecs in ((1, nv) if nv > 1 else (nv,)):
                    if nv > 1 and vecs == 1:
                        one_l, all_l = f.label("p1"), f.label("pn")
                        f.cbr(short, one_l, all_l)
                        f.start(one_l)
                    plain, blended = f.label("pp"), f.label("pbl")
                    f.cbr(blend, blended, plain)
                    for b, which in ((plain, False), (blended, True)):
                        f.start(b)
                        rows(make(which, vecs))
                        f.br(joined)
                    if nv > 1 and vecs == 1:
                        f.start(all_l)
            f.start(no)

            def strided(s_, d_, span):
                def one(t):
                    e = f.mul(t, p["sw"])
                    if span == "zero":
                        x = "0.0"
                    elif span is None:
                        x = f(f"load float, ptr {gep(s_, e)}, align 4")
                    else:       # a tap outside the image reads nothing: zero
                        col = f(f"icmp ult i64 {f.add(span[2], e)}, {p['W']}")
                        ok = f(f"and i1 {span[3]}, {col}")
                        x = _load_or_zero(f, ok, gep(s_, e))
                    f.do(f"store float {x}, ptr {f.gep(d_, t)}, align 4")
                f.loop("0", n_, 1, one)
            rows(strided)
            f.br(joined)
            f.start(joined)
        f.loop("0", cnt, 1, piece)
    f.loop("0", "%nc", nr, panel)
    f.do("ret void")
    return f.text()


# Images of at most this many NR-pixel panels are packed whole before the product (see
# _conv_nchw).
SMALL_IMAGE_PANELS = 4


def _refuse_bad_window(f: Fn, bad: str = "false") -> None:
    """Return at once (nothing written) when `bad` (i1) or a size or padding of the NCHW
    kernels' window arguments is negative or a stride or dilation below 1."""
    for x in ("N", "C", "H", "W", "F", "KH", "KW", "OH", "OW", "pt", "pl"):
        bad = f(f"or i1 {bad}, {f.cmp('slt', '%' + x, 0)}")
    for x in ("sh", "sw", "dh", "dw"):
        bad = f(f"or i1 {bad}, {f.cmp('slt', '%' + x, 1)}")
    ok = f.label("ok")
    f.cbr(bad, f"{ok}x", ok)
    f.start(f"{ok}x")
    f.do("ret void")
    f.start(ok)


def _padded(f: Fn) -> str:
    """i1: whether a tap of the window may fall outside the image ([Note: padding in the
    packing])."""
    last_h = f.add(f.mul(f.sub("%OH", 1), "%sh"), f.mul(f.sub("%KH", 1), "%dh"))
    last_w = f.add(f.mul(f.sub("%OW", 1), "%sw"), f.mul(f.sub("%KW", 1), "%dw"))
    past = f(f"or i1 {f.cmp('sge', last_h, '%H')}, {f.cmp('sge', last_w, '%W')}")
    return f(f"or i1 {f.cmp('ne', f('or i64 %pt, %pl'), 0)}, {past}")


def _conv_nchw(isa: Isa, name: str, kind: str, epi: bool = False) -> str:
    """strata_conv2d_nchw_f32 (kind "conv"), or strata_conv2d_nchw_packed_f32 (kind
    "convp": the filter given packed whole in MR-row panels, pack_a_panels; a 1x1
    stride-1 window is then the "np" GEMM of the panels and the image); `epi`: with the
    GEMM epilogue's bias (per filter: EPI_ROW_BIAS) and flags before the tile word (K >=
    1)."""
    packed_kind = "pp" if kind == "convp" else ""
    extra = "ptr %bias, i32 %epi, " if epi else ""
    epi_args = "ptr %bias, i32 %epi" if epi else "ptr null, i32 0"
    f = Fn(f"define void @{name}(i64 %N, i64 %C, i64 %H, i64 %W, i64 %F, "
            f"{_WINDOW}, i64 %pt, i64 %pl, ptr %in, i64 %sn, i64 %sc, i64 %shs, "
            f"ptr %filter, ptr %out, i64 %osn, i32 %accumulate, {extra}i64 %tile) #0")
    # an unknown activation code, a negative size or padding, a stride or dilation
    # below 1: nothing written
    _refuse_bad_window(f, bad_epilogue(f, "%epi") if epi else "false")
    padded = _padded(f)
    unpadded = f(f"xor i1 {padded}, true")
    p, k, direct = _conv_sizes(f, f.cmp("eq", "%shs", "%W"),
                               f.cmp("eq", "%sc", f.mul("%H", "%W")), unpadded)

    def gemm(n, b):
        f.do(f"call void @strata_sgemm_f32(i64 %F, i64 {p}, i64 {k}, ptr %filter, "
             f"i64 {k}, ptr {b}, i64 {p}, ptr {f.gep('%out', f.mul(n, '%osn'))}, i64 {p}, "
             "i32 %accumulate, i64 %tile)")
    def gemm_packed(n, b):
        f.do(f"call void @strata_gemm_parallel(i64 {BLOCKED_KINDS['np']}, i64 %F, i64 {p}, "
             f"i64 {k}, ptr %filter, i64 {k}, ptr {b}, i64 {p}, "
             f"ptr {f.gep('%out', f.mul(n, '%osn'))}, i64 {p}, "
             f"i1 {f('icmp ne i32 %accumulate, 0')}, ptr null, i64 0, i64 %tile, "
             f"{epi_args})")
    if kind == "convp":
        # a 1x1 stride-1 window over a contiguous image: the GEMM of the packed filter
        # and the image itself (B packed as a plain K x P matrix: no im2col offsets)
        direct = all_of(f, [direct, f.cmp("sgt", "%F", 0), f.cmp("sgt", p, 0),
                            f.cmp("sgt", k, 0)])
    done = _direct_images(f, direct, gemm_packed if kind == "convp" else gemm)
    # the rest: the blocked driver packing B straight from each image (_pack_conv)
    cd = f(f"alloca [{len(_CONV_PARAMS)} x i64], align 8")
    pad = f(f"zext i1 {padded} to i64")
    for i, param in enumerate(_CONV_PARAMS):
        val = pad if param == "pad" else f"%{param}"
        f.do(f"store i64 {val}, ptr {f.gep(cd, i, 'i64')}, align 8")
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
    nr = isa.nr
    # [Note: flat rows]: stride 1, overwriting, rows of half a panel or less
    pf = f.add(f.mul(f.sub("%OH", 1), "%shs"), "%OW")
    pn_ = f(f"sdiv i64 {f.add(p, nr - 1)}, {nr}")
    pf_ = f(f"sdiv i64 {f.add(pf, nr - 1)}, {nr}")
    pieces = f.add(f(f"sdiv i64 {nr}, {f('call i64 @llvm.smax.i64(i64 %OW, i64 1)')}"), 1)
    cheaper = f.cmp("slt", f.mul(pf_, f.add("%F", 2)),
                    f.mul(pn_, f.add("%F", f.mul(pieces, 3))))
    flat = all_of(f, [f.cmp("eq", "%sh", 1), f.cmp("eq", "%sw", 1), unpadded,
                      f("icmp eq i32 %accumulate, 0"),
                      f.cmp("sle", f.add("%OW", "%OW"), nr), cheaper])
    flat_l, rows_l = f.label("flat"), f.label("rows")
    f.cbr(flat, flat_l, rows_l)
    f.start(flat_l)
    # the image as one row of pf pixels: the row offsets of the packing stay, a panel is
    # one piece; the product lands in tmp (F x pf), whose OW first columns of each shs
    # are copied out
    cdf = f(f"alloca [{len(_CONV_PARAMS)} x i64], align 8")
    for i, param in enumerate(_CONV_PARAMS):
        val = {"OH": "1", "OW": pf, "pad": "0"}.get(param, f"%{param}")
        f.do(f"store i64 {val}, ptr {f.gep(cdf, i, 'i64')}, align 8")
    tmp = checked_malloc(f, f.mul(f.mul("%F", pf), 4), "conv_flat")

    def copy_out(n):
        dst_img = f.gep("%out", f.mul(n, "%osn"))

        def filt(fi):
            def row(oh):
                _copy(f, isa, f.gep(tmp, f.add(f.mul(fi, pf), f.mul(oh, "%shs"))),
                      f.gep(dst_img, f.add(f.mul(fi, p), f.mul(oh, "%OW"))), "%OW")
            f.loop("0", "%OH", 1, row)
        f.loop("0", "%F", 1, filt)
    _products(f, isa, kind, packed_kind, pf, k, cdf, lambda n: tmp, pf, "false", epi_args,
              copy_out)
    f.do(f"call void @free(ptr {tmp})")
    f.br(done)
    f.start(rows_l)
    _products(f, isa, kind, packed_kind, p, k, cd, lambda n: f.gep("%out", f.mul(n, "%osn")),
              p, acc, epi_args, None)
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


# [Note: flat rows]
# A stride-1 convolution reads, for row k = (c, kh, kw) of the im2col matrix and output
# pixel (oh, ow), the input at c*sc + kh*dh*shs + kw*dw + (oh*shs + ow): a fixed offset
# per row plus oh*shs + ow. Computed over q = oh*shs + ow for every q < (OH-1)*shs + OW
# (the columns past OW of each output row are extra outputs, thrown away; the last one
# reads the image's last element), each row of the matrix is one contiguous run of the
# input: the packing copies whole vectors, one piece per panel, where rows of OW < NR
# pixels cut each panel into pieces of a few pixels each, masked and blended (ResNeXt's
# grouped 3x3 at 14x14: strata_pack_conv 23% of the time, as much as the products). The
# products then write a scratch F x pf matrix, copied out row by row. It pays when the
# extra columns cost less than the pieces: ceil(pf/NR) (F + 2) < ceil(P/NR) (F + 3
# (NR/OW + 1)) (a panel row's multiply-adds against its packing, per K row, in units of
# half a vector op), so for few filters (a group's) or no extra panels (7x7); not for
# dilated convolutions with a wide padding (DeepLab's heads); overwriting only (the
# epilogue runs before the copy); rows of NR/2 pixels or less (three pieces a panel and
# more: on 28x28, two a panel, ResNeXt's grouped 3x3 measured 5% slower flat).
# Measured, 1 thread, against onnxruntime in the same process, before -> after:
# ResNeXt-50 grouped 3x3 at 14x14 1.41-1.46 -> 1.22-1.25, at 7x7 1.88 -> 1.40-1.46;
# RegNet-X-1.6GF at 14x14 0.65-0.75 -> 0.60, at 7x7 0.79-0.80 -> 0.61-0.66.


def _products(f: Fn, isa: Isa, kind: str, packed_kind: str, p: str, k: str, cd: str,
              out_of, ldc: str, acc: str, epi_args: str, after) -> None:
    """For each image n: out_of(n) (ldc floats a row) = filter . im2col(image n), p
    columns described by the packing parameters at `cd`, then after(n) when given.
    Images of at most SMALL_IMAGE_PANELS panels are packed whole before the product (the
    threads split the filters, and each slice would pack the whole im2col matrix again:
    packed(B) layout, panel j K x NR at j*NR*K); others pack panels as they go."""
    nr = isa.nr

    def product(n, blocked_kind, b, cdp):
        f.do(f"call void @strata_gemm_parallel(i64 {BLOCKED_KINDS[blocked_kind]}, i64 %F, "
             f"i64 {p}, i64 {k}, ptr %filter, i64 {k}, ptr {b}, i64 0, ptr {out_of(n)}, "
             f"i64 {ldc}, i1 {acc}, ptr {cdp}, i64 0, i64 %tile, {epi_args})")
        if after:
            after(n)
    few = f.cmp("sle", p, SMALL_IMAGE_PANELS * nr)
    small, large, joined = f.label("few"), f.label("many"), f.label("prod")
    f.cbr(few, small, large)
    f.start(small)
    pp = f.mul(f(f"sdiv i64 {f.add(p, nr - 1)}, {nr}"), nr)
    whole = checked_malloc(f, f.mul(f.add(f.mul(k, pp), nr), 4), "conv_image")

    def image_small(n):
        img = f.gep("%in", f.mul(n, "%sn"))

        def panel(j):
            ncur = f.min(f.sub(p, j), nr)
            f.loop("0", k, isa.kc, lambda pc: f.do(
                f"call void @strata_pack_conv(i64 {f.min(f.sub(k, pc), isa.kc)}, "
                f"i64 {ncur}, i64 {pc}, i64 {j}, ptr {img}, ptr {cd}, "
                f"ptr {f.gep(whole, f.add(f.mul(j, k), f.mul(pc, nr)))})"))
        f.loop("0", p, nr, panel)
        product(n, packed_kind, whole, "null")
    f.loop("0", "%N", 1, image_small)
    f.do(f"call void @free(ptr {whole})")
    f.br(joined)
    f.start(large)

    f.loop("0", "%N", 1, lambda n: product(n, kind, f.gep("%in", f.mul(n, "%sn")), cd))
    f.br(joined)
    f.start(joined)


def _conv_public(isa: Isa) -> str:
    """strata_conv2d_nchw_f32: per image, the blocked GEMM filter . im2col(image) with
    B packed straight from the image (_pack_conv). strata_conv2d_nhwc_f32: per image,
    im2col into a scratch buffer (rows = output pixels) and one GEMM with the filter as
    B (FHWC: transposed). A 1x1, stride-1 convolution over a contiguous image is the GEMM
    on the image itself."""
    out = [_conv_nchw(isa, "strata_conv2d_nchw_f32", "conv"),
           _conv_nchw(isa, "strata_conv2d_nchw_packed_f32", "convp"),
           _conv_nchw(isa, "strata_conv2d_nchw_packed_epi_f32", "convp", epi=True)]
    f = Fn("define void @strata_conv2d_nhwc_f32(i64 %N, i64 %H, i64 %W, i64 %C, i64 %F, "
            f"{_WINDOW}, ptr %in, i64 %sn, i64 %shs, i64 %sws, ptr %filter, i32 %ftrans, "
            "ptr %out, i64 %osn, i32 %accumulate, i64 %tile) #0")
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
                 f"ptr %filter, i64 {ldb}, ptr {c}, i64 %F, i32 %accumulate, i64 %tile)")
            f.br(done)
        f.start(done)

    def im2col_nhwc(n, col):
        f.do(f"call void @strata_im2col_nhwc(i64 %C, i64 %KH, i64 %KW, i64 %OH, i64 %OW, "
             f"i64 %sh, i64 %sw, i64 %dh, i64 %dw, ptr {f.gep('%in', f.mul(n, '%sn'))}, "
             f"i64 %shs, i64 %sws, ptr {col})")
    _conv_body(f, direct, [k, p], gemm_nhwc, im2col_nhwc)
    out.append(f.text())
    return "\n".join(out)


_WINDOW = ("i64 %KH, i64 %KW, i64 %OH, i64 %OW, i64 %sh, i64 %sw, i64 %dh, i64 %dw")


def _conv_sizes(f: Fn, *contiguous) -> tuple:
    """(output pixels, C*KH*KW, whether the image is its own im2col matrix: a 1x1,
    stride-1 window over an image whose `contiguous` checks hold: its strides, and for
    NCHW no padding)."""
    p = f.mul("%OH", "%OW")
    k = f.mul(f.mul("%C", "%KH"), "%KW")
    direct = all_of(f, [f.cmp("eq", "%KH", 1), f.cmp("eq", "%KW", 1), f.cmp("eq", "%sh", 1),
                      f.cmp("eq", "%sw", 1), f.cmp("eq", "%OW", "%W"), *contiguous])
    return p, k, direct


def _direct_images(f: Fn, direct: str, gemm) -> str:
    """When `direct`: gemm(n, image n) for each image, then the returned label (not yet
    started); the code after this call is the other case."""
    yes, no, done = f.label("direct"), f.label("other"), f.label("ret")
    f.cbr(direct, yes, no)
    f.start(yes)
    f.loop("0", "%N", 1, lambda n: gemm(n, f.gep("%in", f.mul(n, "%sn"))))
    f.br(done)
    f.start(no)
    return done


def _conv_body(f: Fn, direct: str, col_dims: list, gemm, im2col) -> None:
    """for each image n: gemm(n, image n) when `direct`, else im2col(n, col) and
    gemm(n, col) with a scratch buffer of col_dims[0] x col_dims[1] floats."""
    done = _direct_images(f, direct, gemm)
    col = checked_malloc(f, checked_bytes(f, [*col_dims, 4]), "conv_col")

    def image(n):
        im2col(n, col)
        gemm(n, col)
    f.loop("0", "%N", 1, image)
    f.do(f"call void @free(ptr {col})")
    f.br(done)
    f.start(done)
    f.do("ret void")


# ---------------------------------------------------------------- grouped

# (image, group) items per thread from which a grouped convolution runs its items in
# parallel whatever their size (see [Note: grouped convolutions]).
GROUP_ITEMS_PER_THREAD = 4


def groups_in_parallel(items: int, item_macs: int, threads: int, split: int = 0) -> bool:
    """Whether a grouped convolution of `items` (image, group) items of `item_macs`
    multiply-adds each runs them in parallel, one thread each (see [Note: grouped
    convolutions]); the kernels compute the same at run time."""
    return threads > 1 and items > 1 and (
        split == SPLIT_NONE or item_macs < PAR_MIN_MACS or
        items >= GROUP_ITEMS_PER_THREAD * threads)


_GROUP_FIELDS = ("G", "C", "H", "W", "F", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw",
                 "pt", "pl", "in", "sn", "sg", "sc", "shs", "filter", "fg", "out", "osn",
                 "accumulate", "bias", "epi", "tile")
_GROUP_TYPES = {"in": "ptr", "filter": "ptr", "out": "ptr", "bias": "ptr",
                "accumulate": "i32", "epi": "i32"}
_SPLIT_AT = {name: (lo, bits) for name, lo, bits in TILE_FIELDS}["split"]


def _group_item(f: Fn, base: str, epi: bool, v: dict, t: str) -> None:
    """Call the ungrouped kernel `base` on item t = n * G + g (image n, group g)."""
    n = f(f"sdiv i64 {t}, {v['G']}")
    g = f(f"srem i64 {t}, {v['G']}")
    x = f.gep(v["in"], f.add(f.mul(n, v["sn"]), f.mul(g, v["sg"])))
    w = f.gep(v["filter"], f.mul(g, v["fg"]))
    y = f.gep(v["out"], f.add(f.mul(n, v["osn"]),
                              f.mul(g, f.mul(v["F"], f.mul(v["OH"], v["OW"])))))
    extra = f"ptr {f.gep(v['bias'], f.mul(g, v['F']))}, i32 {v['epi']}, " if epi else ""
    dims = ", ".join(f"i64 {v[x_]}" for x_ in ("C", "H", "W", "F", "KH", "KW", "OH", "OW",
                                                "sh", "sw", "dh", "dw", "pt", "pl"))
    f.do(f"call void @{base}(i64 1, {dims}, ptr {x}, i64 {v['sn']}, i64 {v['sc']}, "
         f"i64 {v['shs']}, ptr {w}, ptr {y}, i64 {v['osn']}, i32 {v['accumulate']}, "
         f"{extra}i64 {v['tile']})")


def _conv_grouped(isa: Isa, base: str, epi: bool) -> str:
    """strata_conv2d_nchw_grouped[_packed[_epi]]_f32 (`base` the ungrouped kernel it
    runs per item) and its chunk function (see [Note: grouped convolutions])."""
    name = base.replace("strata_conv2d_nchw", "strata_conv2d_nchw_grouped")
    chunk = f"{name}_chunk"
    out = []
    f = Fn(f"define internal void @{chunk}(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _GROUP_FIELDS, _GROUP_TYPES)
    f.loop("%lo", "%hi", 1, lambda t: _group_item(f, base, epi, v, t))
    f.do("ret void")
    out.append(f.text())

    extra = "ptr %bias, i32 %epi, " if epi else ""
    f = Fn(f"define void @{name}(i64 %N, i64 %G, i64 %C, i64 %H, i64 %W, i64 %F, "
            f"{_WINDOW}, i64 %pt, i64 %pl, ptr %in, i64 %sn, i64 %sg, i64 %sc, i64 %shs, "
            f"ptr %filter, ptr %out, i64 %osn, i32 %accumulate, {extra}i64 %tile) #0")
    v = {x: f"%{x}" for x in _GROUP_FIELDS}
    # negative image or group counts: nothing written (each item's kernel checks the
    # rest)
    ok = f.label("ok")
    f.cbr(f(f"or i1 {f.cmp('slt', '%N', 0)}, {f.cmp('slt', '%G', 0)}"), f"{ok}x", ok)
    f.start(f"{ok}x")
    f.do("ret void")
    f.start(ok)
    if not epi:
        v["bias"], v["epi"] = "null", "0"
    k = f.mul(f.mul("%C", "%KH"), "%KW")
    # the filter's group stride: F x K floats, or ceil(F/MR)*MR x K packed
    fg = f.mul("%F", k)
    if "packed" in base:
        fg = f.mul(f.mul(f(f"sdiv i64 {f.add('%F', isa.mr - 1)}, {isa.mr}"), isa.mr), k)
    v["fg"] = fg
    items = f.mul("%N", "%G")
    macs = f.mul(f.mul(f.mul("%F", k), "%OH"), "%OW")
    threads = f(f"sext i32 {f('call i32 @strata_get_num_threads()')} to i64")
    split = _tile_field(f, "split", 0)
    par = all_of(f, [f.cmp("sgt", threads, 1), f.cmp("sgt", items, 1)])
    why = f(f"or i1 {f.cmp('eq', split, SPLIT_NONE)}, {f.cmp('slt', macs, PAR_MIN_MACS)}")
    why = f(f"or i1 {why}, {f.cmp('sge', items, f.mul(threads, GROUP_ITEMS_PER_THREAD))}")
    par = f(f"and i1 {par}, {why}")
    many, one, done = f.label("par"), f.label("seq"), f.label("done")
    f.cbr(par, many, one)
    f.start(one)        # one item after the other, each split as the tile word says
    f.loop("0", items, 1, lambda t: _group_item(f, base, epi, v, t))
    f.br(done)
    f.start(many)       # items in parallel chunks, each on one thread
    lo, bits = _SPLIT_AT
    mask = ((1 << bits) - 1) << lo
    v["tile"] = f(f"or i64 {f(f'and i64 %tile, {~mask}')}, {SPLIT_NONE << lo}")
    one_macs = f("call i64 @llvm.smax.i64(i64 " + macs + ", i64 1)")
    grain = f(f"sdiv i64 {f.add(one_macs, CHUNK_MIN_MACS - 1)}, {one_macs}")
    work = _store_work(f, _GROUP_FIELDS, _GROUP_TYPES, v)
    f.do(f"call void @strata_parallel_for(ptr @{chunk}, ptr {work}, i64 {items}, "
         f"i64 {grain})")
    f.br(done)
    f.start(done)
    f.do("ret void")
    out.append(f.text())
    return "\n".join(out)


# [Note: input prologues]
# DenseNet's layers are pre-activation: BN -> ReLU -> 1x1 convolution, on the
# concatenation of every earlier map of the block (strata-concat-in-place: one buffer).
# As a separate elementwise pass, the BN + ReLU reads the growing concatenation and
# writes a normalized copy of it for each layer (O(L^2) traffic per block).
# strata_conv2d_nchw_packed_pro_f32 takes it as a prologue instead: the image is read as
# act(in[c] * scale[c] + shift[c]) (scale, shift: C floats; act a code of PRO_ACTS) and
# no normalized copy is written. For a 1x1, stride-1, unpadded convolution over a
# contiguous image (the GEMM on the image itself: DenseNet's bottlenecks and
# transitions) the prologue is applied where the GEMM packs B anyway: the blocked kind
# "npa" packs each K x NR panel with strata_pack_n_<act> (an FMA and the activation per
# vector; %cd holds scale, shift and the code). Every other convolution the kernel is
# called with (a window, a stride, padding: the padding's zeros are not transformed,
# as the padded normalized map's are not) is computed on a normalized copy of the image
# made first, then the packed-epilogue kernel: the same values, the old cost. The fold
# (linalg_to_microkernels.py's `_input_prologue`) keeps the rounding of x * s + t with
# s, t computed in float64 from the batch norm's constants (as onnxruntime's and
# OpenVINO's folded batch norms), NaN and infinities as the elementwise op gives them
# (the activation keeps NaN; s and t finite).


def _pro_rows(f: Fn, isa: Isa, act: str, src: str, dst: str, n: str, s_: str,
              t_: str) -> None:
    """dst[0:n] = act(src[0:n] * s + t) (s, t: splatted vectors)."""
    def one(j, mask):
        x = vload(f, isa, f.gep(src, j), mask)
        vstore(f, isa, vactivation(f, isa, act, fma(f, isa, x, s_, t_)), f.gep(dst, j),
               mask)
    _row_vectors(f, isa, n, one)


def _conv_pro(isa: Isa) -> str:
    """strata_conv2d_nchw_packed_pro_f32: strata_conv2d_nchw_packed_epi_f32 on the image
    act(in[c] * scale[c] + shift[c]) ([Note: input prologues])."""
    f = Fn("define void @strata_conv2d_nchw_packed_pro_f32(i64 %N, i64 %C, i64 %H, i64 %W, "
           f"i64 %F, {_WINDOW}, i64 %pt, i64 %pl, ptr %in, i64 %sn, i64 %sc, i64 %shs, "
           "ptr %filter, ptr %out, i64 %osn, i32 %accumulate, ptr %bias, i32 %epi, "
           "ptr %scale, ptr %shift, i32 %pro, i64 %tile) #0")
    # an unknown prologue or epilogue code, a bad size: nothing written
    _refuse_bad_window(f, f(f"or i1 {f(f'icmp uge i32 %pro, {len(PRO_ACTS)}')}, "
                            f"{bad_epilogue(f, '%epi')}"))
    code = f("zext i32 %pro to i64")
    # the GEMM on the image itself: 1x1, stride 1, unpadded, contiguous rows and planes
    p, k, direct = _conv_sizes(f, f.cmp("eq", "%shs", "%W"),
                               f.cmp("eq", "%sc", f.mul("%H", "%W")),
                               f.cmp("eq", f("or i64 %pt, %pl"), 0),
                               f.cmp("sle", "%OH", "%H"))
    direct = all_of(f, [direct, f.cmp("sge", "%dh", 1), f.cmp("sge", "%dw", 1),
                        f.cmp("sgt", "%F", 0), f.cmp("sgt", p, 0), f.cmp("sgt", k, 0)])
    cd = f("alloca [3 x i64], align 8")
    for i, v in enumerate((f("ptrtoint ptr %scale to i64"), f("ptrtoint ptr %shift to i64"),
                           code)):
        f.do(f"store i64 {v}, ptr {f.gep(cd, i, 'i64')}, align 8")
    acc = f("icmp ne i32 %accumulate, 0")

    def gemm(n, b):
        f.do(f"call void @strata_gemm_parallel(i64 {BLOCKED_KINDS['npa']}, i64 %F, "
             f"i64 {p}, i64 {k}, ptr %filter, i64 {k}, ptr {b}, i64 {p}, "
             f"ptr {f.gep('%out', f.mul(n, '%osn'))}, i64 {p}, i1 {acc}, ptr {cd}, i64 0, "
             "i64 %tile, ptr %bias, i32 %epi)")
    done = _direct_images(f, direct, gemm)
    # the rest: a normalized copy of the image (N x C x H x W, contiguous), then the
    # packed-epilogue kernel on it
    plane = f.mul("%H", "%W")
    # (no element, or no output: the packed-epilogue kernel on the image as it is)
    empty = f(f"or i1 {f.cmp('eq', f.mul(f.mul('%N', '%C'), plane), 0)}, "
              f"{f.cmp('eq', f.mul('%F', f.mul('%OH', '%OW')), 0)}")
    window = ", ".join(f"i64 %{x}" for x in ("KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw",
                                             "pt", "pl"))

    def base(img, sn, sc, shs):
        f.do(f"call void @strata_conv2d_nchw_packed_epi_f32(i64 %N, i64 %C, i64 %H, "
             f"i64 %W, i64 %F, {window}, ptr {img}, i64 {sn}, i64 {sc}, i64 {shs}, "
             "ptr %filter, ptr %out, i64 %osn, i32 %accumulate, ptr %bias, i32 %epi, "
             "i64 %tile)")
    as_is, copy = f.label("asis"), f.label("copy")
    f.cbr(empty, as_is, copy)
    f.start(as_is)
    base("%in", "%sn", "%sc", "%shs")
    f.br(done)
    f.start(copy)
    tmp = checked_malloc(f, checked_bytes(f, ["%N", "%C", plane, "4"]), "conv_prologue")

    def normalize(act):
        def image(n):
            def chan(c):
                s_, t_ = (splat(f, isa, f(f"load float, ptr {f.gep(v, c)}, align 4"))
                          for v in ("%scale", "%shift"))
                src = f.gep("%in", f.add(f.mul(n, "%sn"), f.mul(c, "%sc")))
                dst = f.gep(tmp, f.mul(f.add(f.mul(n, "%C"), c), plane))
                f.loop("0", "%H", 1, lambda h: _pro_rows(
                    f, isa, act, f.gep(src, f.mul(h, "%shs")), f.gep(dst, f.mul(h, "%W")),
                    "%W", s_, t_))
            f.loop("0", "%C", 1, chan)
        f.loop("0", "%N", 1, image)
    f.switch(code, {c: name for name, c in PRO_ACTS.items()}, normalize)
    base(tmp, f.mul("%C", plane), plane, "%W")
    f.do(f"call void @free(ptr {tmp})")
    f.br(done)
    f.start(done)
    f.do("ret void")
    return f.text()


# [Note: small images, filters along the vectors]
# A convolution over a small image (ResNet's 7x7 stage: 49 output pixels, K = 512 x 9)
# is, in the products above, a GEMM of F filter rows by P = 49 pixel columns: two NR = 32
# pixel panels, the second 17/32 empty (1.31x the multiply-adds), and each MR-row panel
# of the filter streamed from memory (9.4 MB for 512 -> 512: weights a model reads once a
# call) for two micro-kernel calls only. strata_conv2d_nchw_packed_t_f32 computes its
# transpose instead, out^T (P x F) = im2col^T . filter^T, with the filter packed at compile
# time as NR-filter panels of the K x F matrix filter^T (pack_b_panels): each panel
# is one sequential stream of K x NR floats, read once (the prefetching micro-kernel
# fetches its next block into L2 while the current one's products run) and reused for
# every MR pixels (49 = 6 x 8 + 1: no empty lanes but the last call's 7 rows). The K
# loop is cut into blocks of T_KC: a block of the panel (T_KC x NR floats, 16 KB) and
# the MR-pixel rows it meets stay in L1 across the image's pixels (the whole K at once,
# 590 KB a panel, streamed from L2 by each of the 7 calls: 1.41x slower than before;
# 256: 1.0-1.1x; 128: 0.99-1.0x on 512 -> 512, 0.81-0.86x on the 256 -> 512 stride 2).
# The im2col matrix is packed whole first, panel by panel in parallel (strata_pack_conv:
# its NR-pixel panels hold MR-pixel rows at k * NR + i, the micro-kernel's A read in
# place with lda = NR; the other kernels pack a small image on the calling thread), then
# the units (NR-filter panels) run in parallel: the products of a unit accumulate in a
# scratch panel (NR x P; strata_wino_ukr_<mr>[_pf]_acc, the Winograd kernel's transposed
# micro-kernels adding to C), whose rows get the epilogue (+ bias, + the output's old
# value, the activation of [Note: activation codes]) on their way out, hot in L1. The
# lowering takes this kernel where cpu_kernel_abi.conv_transposed says, and reads the
# image unpadded (no padded copy kept for flat rows, which this kernel has not).
# Measured (2 cores shared by 8 sessions at load 11-21: ratios in one process,
# interleaved, medians of 160 calls each, two compiles of each variant), bench/models.py's
# ResNet-18 (5 such layers: three 512 -> 512 3x3 at 7x7, the 3x3 and the 1x1 stride 2
# down to them), this kernel / the old products: 1 thread process CPU 0.95 and 0.99;
# 2 threads process CPU 0.89 and 0.91, wall 0.90 and 0.94. ResNet-50 (zoo, batch 1):
# 1 thread 0.97 and 1.01, 2 threads CPU 0.96 and 0.97: no loss. Per layer, 1 thread,
# caches evicted: 512 -> 512 3x3 at 7x7 0.99-1.02 (the filter's 9.4 MB from memory
# bounds both), 256 -> 512 3x3 stride 2 0.81-0.86, 1x1 stride 2 1.0; on larger images
# it loses (so the rule stops at four pixel panels): 14x14 outputs (128 -> 256 stride
# 2, 3x3 and 1x1) 1.12-1.2, 28x28 1.4-1.6.
T_KC = 128

_T_FIELDS = ("F", "K", "P", "Bp", "filter", "M", "out", "bias", "epi", "acc", "units")
_T_TYPES = {"Bp": "ptr", "filter": "ptr", "M": "ptr", "out": "ptr", "bias": "ptr",
            "epi": "i32"}
_TP_FIELDS = ("K", "P", "img", "cd", "Bp")
_TP_TYPES = {"img": "ptr", "cd": "ptr", "Bp": "ptr"}


def _conv_t_pack(isa: Isa) -> str:
    """strata_conv_t_pack(work, lo, hi): NR-pixel panels lo..hi-1 of an image's im2col
    matrix, packed whole (panel j K x NR at j * NR * K, strata_pack_conv's layout)."""
    f = Fn("define internal void @strata_conv_t_pack(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _TP_FIELDS, _TP_TYPES)
    nr, k = isa.nr, v["K"]

    def panel(jp):
        j = f.mul(jp, nr)
        ncur = f.min(f.sub(v["P"], j), nr)
        f.loop("0", k, isa.kc, lambda pc: f.do(
            f"call void @strata_pack_conv(i64 {f.min(f.sub(k, pc), isa.kc)}, i64 {ncur}, "
            f"i64 {pc}, i64 {j}, ptr {v['img']}, ptr {v['cd']}, "
            f"ptr {f.gep(v['Bp'], f.add(f.mul(j, k), f.mul(pc, nr)))})"))
    f.loop("%lo", "%hi", 1, panel)
    f.do("ret void")
    return f.text()


def _conv_t_units(isa: Isa) -> str:
    """strata_conv_t_units(work, lo, hi): units (NR-filter panels) lo..hi-1 of
    strata_conv2d_nchw_packed_t_f32 ([Note: small images, filters along the vectors]):
    scratch rows M[u*NR ..][0:P] = (im2col^T . filter panel u)^T, then out's rows of the
    unit's filters = act(M + bias (+ out))."""
    nr = isa.nr
    f = Fn("define internal void @strata_conv_t_units(ptr %work, i64 %lo, i64 %hi) #1")
    v = _load_work(f, _T_FIELDS, _T_TYPES)
    k, P = v["K"], v["P"]
    last = f.sub(v["units"], 1)
    kc = T_KC
    part = (kc // max(isa.unroll, 1)) * 16
    panel_floats = f.mul(k, nr)
    epi = v["epi"]
    row_bias = f(f"icmp ne i32 {f(f'and i32 {epi}, {EPI_ROW_BIAS}')}, 0")
    col_bias = f(f"icmp ne i32 {f(f'and i32 {epi}, {EPI_BIAS}')}, 0")
    code = f(f"lshr i32 {epi}, {ACT_SHIFT}")
    acc = f(f"icmp ne i64 {v['acc']}, 0")

    def unit(u):
        up = f.gep(v["filter"], f.mul(u, panel_floats))
        nxt = f.gep(v["filter"], f.mul(f.min(f.add(u, 1), last), panel_floats))
        m = f.gep(v["M"], f.mul(f.mul(u, nr), P))
        # the unit's scratch rows start at zero: the K blocks accumulate
        f.loop("0", f.mul(P, nr), isa.width,
               lambda i: vstore(f, isa, "zeroinitializer", f.gep(m, i)))

        def block(kb):
            kcur = f.min(f.sub(k, kb), kc)
            bp = f.gep(up, f.mul(kb, nr))
            # the next K block of the panel (the next panel's first after the last)
            kn = f.add(kb, kc)
            pf_at = f(f"select i1 {f.cmp('slt', kn, k)}, ptr {f.gep(up, f.mul(kn, nr))}, "
                      f"ptr {nxt}")

            def call(rows, t0, pf=None):
                a = f.gep(v["Bp"], f.add(f.add(f.mul(f(f"sdiv i64 {t0}, {nr}"), panel_floats),
                                               f(f"srem i64 {t0}, {nr}")), f.mul(kb, nr)))
                f.do(f"call void @strata_wino_ukr_{rows}{'' if pf is None else '_pf'}_acc("
                     f"i64 {kcur}, ptr {a}, i64 {nr}, ptr {bp}, ptr {f.gep(m, t0)}, i64 {P}"
                     f"{'' if pf is None else f', ptr {pf}'})")

            # the first calls of MR pixels prefetch a part of the next block each
            transposed_rows(f, isa, P, call, pf_at, part)
        f.loop("0", k, kc, block)
        # the epilogue, row by row of the unit's filters
        f0 = f.mul(u, nr)
        f1 = f.min(f.add(f0, nr), v["F"])

        def epilogue(act):
            def rows(col):
                def row(j):
                    src = f.gep(v["M"], f.mul(j, P))
                    dst = f.gep(v["out"], f.mul(j, P))
                    rbv = splat(f, isa, _load_or_zero(f, row_bias, f.gep(v["bias"], j)))
                    V = vec_type(isa)

                    def one(at, mask):
                        x = f(f"fadd {V} {vload(f, isa, f.gep(src, at), mask)}, {rbv}")
                        if col:
                            x = f(f"fadd {V} {x}, {vload(f, isa, f.gep(v['bias'], at), mask)}")
                        old = vload(f, isa, f.gep(dst, at), mask)
                        x = f(f"select i1 {acc}, {V} {f(f'fadd {V} {x}, {old}')}, {V} {x}")
                        vstore(f, isa, vactivation(f, isa, act, x), f.gep(dst, at), mask)
                    _row_vectors(f, isa, P, one)
                f.loop(f0, f1, 1, row)
            _either(f, col_bias, rows)
        f.switch(f(f"zext i32 {code} to i64"), {c: name for name, c in ACTS.items()},
                 epilogue)
    f.loop("%lo", "%hi", 1, unit)
    f.do("ret void")
    return f.text()


def _conv_t(isa: Isa) -> str:
    """strata_conv2d_nchw_packed_t_f32: strata_conv2d_nchw_packed_epi_f32's arguments, the
    filter packed as NR-filter panels of filter^T (K x F: pack_b_panels), computed as
    out^T = im2col^T . filter^T ([Note: small images, filters along the vectors])."""
    nr = isa.nr
    f = Fn("define void @strata_conv2d_nchw_packed_t_f32(i64 %N, i64 %C, i64 %H, i64 %W, "
           f"i64 %F, {_WINDOW}, i64 %pt, i64 %pl, ptr %in, i64 %sn, i64 %sc, i64 %shs, "
           "ptr %filter, ptr %out, i64 %osn, i32 %accumulate, ptr %bias, i32 %epi, "
           "i64 %tile) #0")
    # an unknown activation code, a negative size or padding, a stride or dilation
    # below 1: nothing written (as strata_conv2d_nchw_packed_epi_f32)
    p = f.mul("%OH", "%OW")
    k = f.mul(f.mul("%C", "%KH"), "%KW")
    # (nothing to write: no filter or no pixel)
    _refuse_bad_window(f, f(f"or i1 {bad_epilogue(f, '%epi')}, "
                            f"{f.cmp('eq', f.mul('%F', p), 0)}"))
    padded = _padded(f)
    cd = f(f"alloca [{len(_CONV_PARAMS)} x i64], align 8")
    for i, param in enumerate(_CONV_PARAMS):
        val = f(f"zext i1 {padded} to i64") if param == "pad" else f"%{param}"
        f.do(f"store i64 {val}, ptr {f.gep(cd, i, 'i64')}, align 8")
    panels = f(f"sdiv i64 {f.add(p, nr - 1)}, {nr}")
    units = f(f"sdiv i64 {f.add('%F', nr - 1)}, {nr}")
    # the packed image (K x NR panels, NR floats of slack: the packing's whole-vector
    # stores) and the scratch rows (units * NR x P)
    whole = checked_malloc(f, checked_bytes(f, [f.add(f.mul(k, f.mul(panels, nr)), nr),
                                                "4"]), "conv_image")
    scratch = checked_malloc(f, checked_bytes(f, [units, str(nr), p, "4"]), "conv_image")
    acc = f("zext i32 %accumulate to i64")
    # chunks of at least ~2^16 multiply-adds of packing or products
    grain_p = f("call i64 @llvm.smax.i64(i64 " +
                f(f"sdiv i64 2048, {f('call i64 @llvm.smax.i64(i64 ' + k + ', i64 1)')}") +
                ", i64 1)")

    def image(n):
        img = f.gep("%in", f.mul(n, "%sn"))
        work = _store_work(f, _TP_FIELDS, _TP_TYPES, {"K": k, "P": p, "img": img, "cd": cd,
                                                      "Bp": whole})
        f.do(f"call void @strata_parallel_for(ptr @strata_conv_t_pack, ptr {work}, "
             f"i64 {panels}, i64 {grain_p})")
        work = _store_work(f, _T_FIELDS, _T_TYPES, {
            "F": "%F", "K": k, "P": p, "Bp": whole, "filter": "%filter", "M": scratch,
            "out": f.gep("%out", f.mul(n, "%osn")), "bias": "%bias", "epi": "%epi",
            "acc": acc, "units": units})
        f.do(f"call void @strata_parallel_for(ptr @strata_conv_t_units, ptr {work}, "
             f"i64 {units}, i64 1)")
    f.loop("0", "%N", 1, image)
    f.do(f"call void @free(ptr {whole})")
    f.do(f"call void @free(ptr {scratch})")
    f.do("ret void")
    return f.text()


def conv_functions(isa) -> list:
    """Every convolution function for `isa`, as LLVM IR text."""
    return [_im2col_nhwc(isa), _pack_conv(isa), _pack_conv(isa, True), _conv_public(isa),
            _conv_pro(isa), _conv_t_pack(isa), _conv_t_units(isa), _conv_t(isa),
            *(_conv_grouped(isa, base, epi) for base, epi in (
                ("strata_conv2d_nchw_f32", False),
                ("strata_conv2d_nchw_packed_f32", False),
                ("strata_conv2d_nchw_packed_epi_f32", True)))]
