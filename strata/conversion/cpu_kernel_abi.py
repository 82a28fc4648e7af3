"""The CPU kernels' C ABI, in one place: the signature of every kernel the compiled code
calls, the epilogue flags, and the packed layouts of constant weights.

Two sides meet here. `strata-linalg-to-microkernels` (and the passes beside it:
conv_to_winograd) emit calls and pack weights at compile time; the CPU target's kernel
sources (strata/backends/cpu/kernels*.py) define the functions and read the packed
layouts. Both import this module and nothing of each other, so a kernel's contract is
changed here and nowhere else. The lowering emits, for example

    call @strata_sgemm_packed_epi_f32(%M, %N, %K, %A, %lda, %Bp, %C, %ldc, %acc, %bias,
                                      %flags, %tile)
        : (i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr, i32,
           i64) -> ()

whose argument types are `KERNEL_SIGNATURES["strata_sgemm_packed_epi_f32"]`, with
`%flags` a combination of EPI_BIAS / EPI_ROW_BIAS and an activation code (ACTS) shifted
left by ACT_SHIFT (`epi_flags`), and `%Bp` laid out by `pack_b_panels`.

To add a kernel: its signature here, its LLVM IR in a kernels_*.py of the CPU backend
(listed by strata/backends/cpu/kernels.py), the call from a lowering in strata/conversion.
"""
from __future__ import annotations

__all__ = ["KERNEL_SIGNATURES", "EPI_BIAS", "EPI_RELU", "EPI_ROW_BIAS", "ACTS", "ACT_SHIFT",
           "ACT_NAMES", "epi_flags", "act_reference", "pack_b_panels",
           "pack_a_panels", "DW_BIAS", "DW_ACT_SHIFT", "DW_ACTS", "ATTN_SAFE_SOFTMAX",
           "ATTN_NAN_TO_ZERO", "ATTN_CAUSAL", "conv_flat_rows", "PRO_ACTS",
           "PanelMemory", "in_panel_memory", "PANEL_ALIGNMENT", "PANEL_HUGE_BYTES"]

_P = "ptr"
# Argument types of the kernels' C ABI ("ptr" = !llvm.ptr), as the kernels define them
# (all return void).
# The kernels that reach the blocked GEMM driver end with `i64 tile`, the tile word of
# the call (blocking and thread split, see [Note: the tile word] in
# strata/backends/cpu/kernels_gemm.py; 0: the kernels' defaults).
KERNEL_SIGNATURES = {
    "strata_sgemm_f32": ["i64"] * 3 + [_P, "i64"] * 3 + ["i32", "i64"],
    "strata_sgemm_nt_f32": ["i64"] * 3 + [_P, "i64"] * 3 + ["i32", "i64"],
    "strata_sgemm_packed_f32": ["i64"] * 3 + [_P, "i64", _P, _P, "i64", "i32", "i64"],
    "strata_sgemm_packed_epi_f32": ["i64"] * 3 + [_P, "i64", _P, _P, "i64", "i32", _P, "i32",
                                                  "i64"],
    "strata_sgemm_batched_f32": ["i64"] * 4 + [_P, "i64", "i64"] * 3 + ["i32", "i64"],
    "strata_sgemm_nt_batched_f32": ["i64"] * 4 + [_P, "i64", "i64"] * 3 + ["i32", "i64"],
    "strata_sgemm_pack_b_f32": ["i64", "i64", _P, "i64", _P],
    # NCHW: N, C, H, W, F, KH, KW, OH, OW, sh, sw, dh, dw, pad top, pad left (the
    # unpadded image is read, taps outside it are zeros: [Note: padding in the packing]
    # in kernels_conv.py); in, its N, C and H strides; filter, out, out's N stride, acc
    "strata_conv2d_nchw_f32": ["i64"] * 15 + [_P, "i64", "i64", "i64", _P, _P, "i64", "i32",
                                              "i64"],
    "strata_conv2d_nchw_packed_f32": ["i64"] * 15 + [_P, "i64", "i64", "i64", _P, _P, "i64",
                                                     "i32", "i64"],
    "strata_conv2d_nchw_packed_epi_f32": ["i64"] * 15 + [_P, "i64", "i64", "i64", _P, _P,
                                                         "i64", "i32", _P, "i32", "i64"],
    # ... the filter packed as NR-filter panels of its K x F transpose (pack_b_panels), the
    # product computed transposed ([Note: small images, filters along the vectors] in
    # kernels_conv.py)
    "strata_conv2d_nchw_packed_t_f32": ["i64"] * 15 + [_P, "i64", "i64", "i64", _P, _P,
                                                       "i64", "i32", _P, "i32", "i64"],
    # ... and an input prologue ([Note: input prologues] in kernels_conv.py): the
    # image read as act(in[c] * scale[c] + shift[c]) (a batch norm and ReLU before the
    # convolution), after the epilogue's bias and flags: scale, shift (C floats each),
    # the prologue's activation code (PRO_ACTS), then the tile word
    "strata_conv2d_nchw_packed_pro_f32": ["i64"] * 15 + [_P, "i64", "i64", "i64", _P, _P,
                                                         "i64", "i32", _P, "i32", _P, _P,
                                                         "i32", "i64"],
    # grouped (see [Note: grouped convolutions] in kernels_conv.py): N, G, C and F per
    # group, the window and padding; in, its N, G, C and H strides; filter, out, out's N
    # stride, acc
    "strata_conv2d_nchw_grouped_f32": ["i64"] * 16 + [_P, "i64", "i64", "i64", "i64", _P,
                                                      _P, "i64", "i32", "i64"],
    "strata_conv2d_nchw_grouped_packed_f32": ["i64"] * 16 + [_P, "i64", "i64", "i64", "i64",
                                                             _P, _P, "i64", "i32", "i64"],
    "strata_conv2d_nchw_grouped_packed_epi_f32": ["i64"] * 16 + [
        _P, "i64", "i64", "i64", "i64", _P, _P, "i64", "i32", _P, "i32", "i64"],
    "strata_conv2d_nhwc_f32": ["i64"] * 13 + [_P, "i64", "i64", "i64", _P, "i32", _P, "i64",
                                              "i32", "i64"],
    "strata_conv2d_winograd_f32": ["i64"] * 9 + [_P, "i64", "i64", "i64", _P, _P, "i64",
                                                  "i64", "i64", "i32", _P, _P, "i64", "i64",
                                                  "i64", "i32"],
    # N, C, H, W, KH, KW, OH, OW, sh, sw, dh, dw, pad top, pad left, in, its N, C and H
    # strides, filter (C x KH x KW), out, its N, C and H strides, accumulate, bias, flags
    # (DW_BIAS | act << DW_ACT_SHIFT), tile (rows per work item; 0: the kernel's choice)
    "strata_dwconv2d_nchw_f32": ["i64"] * 14 + [_P, "i64", "i64", "i64", _P, _P, "i64",
                                                "i64", "i64", "i32", _P, "i32", "i64"],
    # channel-last: N, H, W, C, KH, KW, OH, OW, sh, sw, dh, dw, pad top, pad left, in, its
    # N, H and W strides (C unit-stride), filter (KH x KW x C), out, its N, H and W
    # strides, accumulate, bias, flags (as nchw's), tile (channels per work item; 0: the
    # kernel's choice)
    "strata_dwconv2d_nhwc_f32": ["i64"] * 14 + [_P, "i64", "i64", "i64", _P, _P, "i64",
                                                "i64", "i64", "i32", _P, "i32", "i64"],
    # softmax(Q K^T * scale + mask) V, flash-style (strata/backends/cpu/kernels_attention.py):
    # B1, B2, M, N, D, E; Q, q1, q2, ldq; K, k1, k2, kj, kd; V, v1, v2, vj, ve;
    # O, o1, o2, ldo; scale (f32); mask (null: none), m1, m2, mi, mj; flags (i32)
    "strata_attention_f32": ["i64"] * 6 + [_P] + ["i64"] * 3 + [_P] + ["i64"] * 4 + [_P] +
    ["i64"] * 4 + [_P] + ["i64"] * 3 + ["f32", _P] + ["i64"] * 4 + ["i32"],
}

# The flags of strata_attention_f32: a row whose scores are all -inf (every key masked)
# gives 0 (torch's _safe_softmax) instead of NaN (a plain softmax's 0/0).
ATTN_SAFE_SOFTMAX = 1
# ... and a row whose sum is NaN too (a NaN or +inf score: the ONNX exporter's
# where(isnan(softmax), 0, softmax) zeroes such rows whole)
ATTN_NAN_TO_ZERO = 2
# ... and key j of query row i is masked (-inf added) when j > i: torch's is_causal
# (top-left aligned), read from the flags, not from a mask buffer; any mask is added too
ATTN_CAUSAL = 4

# [Note: activation codes]
# The activation a kernel applies before its store, one code for every kernel that has
# an epilogue (the GEMM / convolution epilogues and the depthwise kernel), in bits
# ACT_SHIFT and up of its flags word. Each is the function the ONNX op (and torch's
# aten op) computes, NaN in giving NaN out (strata/backends/cpu/kernel_ir.py's
# `vactivation` computes them, linalg_to_microkernels.py's `_activation_of` recognizes
# them):
#   relu         max(x, 0)                   relu6        min(max(x, 0), 6) (clip 0..6)
#   hardswish    x * hardsigmoid(x)          hardsigmoid  min(max(x / 6 + 1/2, 0), 1)
#   silu         x * sigmoid(x)              sigmoid      1 / (1 + exp(-x))
#   gelu         x/2 (1 + erf(x / sqrt 2))   gelu_tanh    x/2 (1 + tanh(sqrt(2/pi)
#                                                                  (x + 0.044715 x^3)))
ACTS = {"none": 0, "relu": 1, "relu6": 2, "hardswish": 3, "silu": 4, "sigmoid": 5,
        "hardsigmoid": 6, "gelu": 7, "gelu_tanh": 8}
ACT_NAMES = {code: name for name, code in ACTS.items()}
ACT_SHIFT = 4


def act_reference(name: str, x):
    """The activation `name` (of ACTS) of float64 NumPy array x, as the Note defines it
    (what the kernels compute to f32 accuracy; the lowering's recognizer compares an
    elementwise body with it)."""
    import math

    import numpy as np
    with np.errstate(over="ignore", invalid="ignore"):
        if name in ("sigmoid", "silu"):
            s = 1 / (1 + np.exp(-x))
            return s if name == "sigmoid" else x * s
        if name in ("hardsigmoid", "hardswish"):
            h = np.minimum(np.maximum(x / 6 + 0.5, 0), 1)
            return h if name == "hardsigmoid" else x * h
        if name == "gelu":
            erf = np.vectorize(math.erf, otypes=[np.float64])
            return 0.5 * x * (1 + erf(x / math.sqrt(2)))
        if name == "gelu_tanh":
            return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        return {"none": lambda: x, "relu": lambda: np.maximum(x, 0),
                "relu6": lambda: np.minimum(np.maximum(x, 0), 6)}[name]()

# The epilogue flags of strata_sgemm_packed_epi_f32 and strata_conv2d_nchw_packed_epi_f32
# (and the grouped one): C = act(C + bias), with the bias a float per column of C
# (EPI_BIAS) or per row (EPI_ROW_BIAS: a convolution's per filter), the activation's
# code (ACTS) shifted left by ACT_SHIFT; EPI_RELU is the ReLU's. A code past the table:
# the kernel writes nothing.
EPI_BIAS, EPI_ROW_BIAS = 1, 4
EPI_RELU = ACTS["relu"] << ACT_SHIFT


def epi_flags(bias: int, act: str) -> int:
    """The flags word of bias flag `bias` (0, EPI_BIAS or EPI_ROW_BIAS) and activation
    `act` (a name of ACTS)."""
    return bias | ACTS[act] << ACT_SHIFT


# The activations an input prologue applies (strata_conv2d_nchw_packed_pro_f32's last
# i32, a code of ACTS): the cheap ones a batch norm is followed by. Another code: the
# kernel writes nothing.
PRO_ACTS = {name: ACTS[name] for name in ("none", "relu", "relu6")}

# The flags of strata_dwconv2d_nchw_f32 and strata_dwconv2d_nhwc_f32: DW_BIAS (bias[c]
# added), and the activation applied after it, its code (ACTS: the first six) shifted
# left by DW_ACT_SHIFT (see strata/backends/cpu/kernels_depthwise.py).
DW_BIAS, DW_ACT_SHIFT = 1, ACT_SHIFT
DW_ACTS = {name: code for name, code in ACTS.items() if code < 6}

# [Note: packed weights written once]
# The packers write the panels straight into the memory the compiled model binds them
# at (`out`, from a PanelMemory), one pass over the weight: no padded copy first, no
# contiguous copy after. Each is one or two NumPy copies whose destination is
# contiguous (numpy's strided copy, measured against a plain copy of the weight on this
# project's machine, warm: 0.27-0.48 ms for GPT-2's 768 x 2304 against 0.22 ms, 19-27 ms
# for its 154 MB lm_head against 13 ms: a native packing kernel would save little). What
# cost the packing its time was the memory written: fresh pages of the C heap, each
# faulted in (GPT-2's 490 MB of packed weights: 0.93 s of CPU into np.empty arrays,
# 0.19 s into private anonymous mappings, 0.07 s into mappings advised onto huge pages).
# So a PanelMemory hands out 64-byte-aligned pieces of mappings of its own, on huge pages
# for a model of at most PANEL_HUGE_BYTES of weights (as the CPU target's weight block
# is, heap.py: the same placement, so the same run-time speed) and off them past it
# (GPT-2's 490 MB on huge pages: 0.79 s of CPU to pack, the kernel compacting memory,
# against 0.15 s off them; NumPy's arrays had put 77% of GPT-2's weights and 59% of
# BERT's on huge pages, NumPy advising its large arrays onto them, but they bought little
# at run time: 0.7% and 0.4% of the CPU per call, interleaved in one process, 2 threads,
# within the noise), and the CPU target binds the arrays lying there where they are
# (`in_panel_memory`): placed already ([Note: weights placed alike in every process] in
# strata/backends/cpu/heap.py).

# Every array a PanelMemory hands out starts at a multiple of this (a cache line)
PANEL_ALIGNMENT = 64
# The granule of its mappings (a huge page), and what it maps at least at once
_HUGE_PAGE = 2 << 20
_CHUNK = 32 << 20
# A model with at most this many bytes of weights has them on huge pages (the CPU
# target's PLACE_MAX_BYTES)
PANEL_HUGE_BYTES = 128 << 20


def _mapping_class():
    import mmap

    class _PanelMap(mmap.mmap):
        """A private anonymous mapping of a PanelMemory (its type marks its arrays)."""
    return _PanelMap


_PANEL_MAP = []


def _panel_map_type():
    if not _PANEL_MAP:
        _PANEL_MAP.append(_mapping_class())
    return _PANEL_MAP[0]


class PanelMemory:
    """Memory for packed weights ([Note: packed weights written once]): `empty(n)` is a
    new array of n float32 (or `dtype`) at a multiple of PANEL_ALIGNMENT bytes, cut from
    private anonymous mappings aligned to 2 MiB and advised onto huge pages (`huge`, and
    $STRATA_HUGE_WEIGHTS is not 0) or off them, each of at least `expect` bytes less
    those handed out before (what the caller expects to ask for in all: a model's
    weights), and 32 MiB. Expecting less than a huge page in all (a small model, or a
    test's), the arrays are cut from NumPy's heap instead, not panel memory: a mapping
    of its own for each would hold a huge page. A mapping lives as long as an array cut
    from it."""

    __slots__ = ("_raw", "_at", "_given", "huge", "expect")

    def __init__(self, huge: bool = True, expect: int = _CHUNK):
        self._raw = None        # the current mapping's bytes (uint8), or None
        self._at = 0            # the first free byte in it
        self._given = 0         # bytes handed out so far
        self.huge, self.expect = huge, expect

    def empty(self, n: int, dtype="float32"):
        import numpy as np
        dtype = np.dtype(dtype)
        nbytes = -(-max(n * dtype.itemsize, 1) // PANEL_ALIGNMENT) * PANEL_ALIGNMENT
        if self._raw is None or self._at + nbytes > self._raw.size:
            self._raw, self._at = self._map(nbytes), 0
        out = self._raw[self._at:self._at + n * dtype.itemsize].view(dtype)
        self._at += nbytes
        self._given += nbytes
        return out

    def _map(self, nbytes: int):
        import os

        import numpy as np
        size = max(nbytes, self.expect - self._given)
        m = None
        if self.expect >= _HUGE_PAGE:
            size = max(_CHUNK, -(-size // _HUGE_PAGE) * _HUGE_PAGE)
            try:
                import mmap
                m = _panel_map_type()(-1, size + _HUGE_PAGE,
                                      flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            except (ImportError, OSError, ValueError, AttributeError):
                m = None        # no such mapping here
        if m is None:
            raw = np.empty(size + PANEL_ALIGNMENT, np.uint8)
            skip = -raw.ctypes.data % PANEL_ALIGNMENT
            return raw[skip:skip + size]
        raw = np.frombuffer(m, np.uint8)
        skip = -raw.ctypes.data % _HUGE_PAGE
        huge = self.huge and os.environ.get("STRATA_HUGE_WEIGHTS", "1") != "0"
        advice = getattr(mmap, "MADV_HUGEPAGE" if huge else "MADV_NOHUGEPAGE", None)
        if advice is not None:
            try:
                m.madvise(advice, skip, size)
            except (OSError, ValueError):
                pass
        return raw[skip:skip + size]


def in_panel_memory(a) -> bool:
    """Whether NumPy array `a` lies in memory a PanelMemory handed out (through views
    and memoryviews of it)."""
    if not _PANEL_MAP:
        return False
    obj = a
    while True:
        base = getattr(obj, "base", None) if not isinstance(obj, memoryview) else obj.obj
        if base is None or base is obj:
            return False
        if isinstance(base, _PANEL_MAP[0]):
            return True
        obj = base


def pack_b_panels(b, nr: int, out=None):
    """packed(B) of a K x N float32 array: panel p = B[:, p*NR:(p+1)*NR] as K x NR
    (zero padded), panels one after another, flat (the layout strata_sgemm_packed_f32
    reads, see strata/backends/cpu/kernels.py), written into `out` (ceil(N/NR)*NR*K
    float32, contiguous; default a new array) and returned ([Note: packed weights
    written once])."""
    import numpy as np
    k, n = b.shape
    p, full = -(-n // nr), n // nr
    if out is None:
        out = np.empty(p * nr * k, np.float32)
    panels = out.reshape(p, k, nr)
    if b.T.flags.c_contiguous and not b.flags.c_contiguous:
        # B^T held row-major (N x K: an nn.Linear weight, a transposed contraction): the
        # panels from its rows, reading along K (reading B down its columns: ViT-B/16's
        # 73 weights took 2.7 of its 3.6 s in the microkernels pass)
        rows = b.T
        np.copyto(panels[:full], rows[:full * nr].reshape(full, nr, k).transpose(0, 2, 1))
        if full < p:
            panels[full, :, n - full * nr:] = 0
            np.copyto(panels[full, :, :n - full * nr], rows[full * nr:].T)
        return out
    np.copyto(panels[:full], b[:, :full * nr].reshape(k, full, nr).transpose(1, 0, 2))
    if full < p:
        panels[full, :, n - full * nr:] = 0
        np.copyto(panels[full, :, :n - full * nr], b[:, full * nr:])
    return out


def pack_a_panels(a, mr: int, groups: int = 1, out=None):
    """An F x K float32 array (a convolution's filter, F x C*KH*KW) as MR-row panels of
    the whole K: panel p = a[p*MR:(p+1)*MR, :] transposed (K x MR, zero padded past F),
    panels one after another, flat (the layout strata_conv2d_nchw_packed_f32 reads).
    `groups` G > 1: the rows are G groups of F/G filters (a grouped convolution's), each
    packed so on its own, group after group (ceil(F/G/MR)*MR*K floats each: the layout
    strata_conv2d_nchw_grouped_packed_f32 reads). Written into `out` (that many float32,
    contiguous; default a new array) and returned."""
    import numpy as np
    f, k = a.shape
    fg = f // groups
    p, full = -(-fg // mr), fg // mr
    # one copy: the panels written in place (padding A first, then transposing the
    # padded copy, copied every filter twice)
    g = a.reshape(groups, fg, k)
    if out is None:
        out = np.empty(groups * p * k * mr, np.float32)
    panels = out.reshape(groups, p, k, mr)
    panels[:, :full] = g[:, :full * mr].reshape(groups, full, mr, k).transpose(0, 1, 3, 2)
    if full < p:
        panels[:, full] = 0
        panels[:, full, :, :fg - full * mr] = g[:, full * mr:].transpose(0, 2, 1)
    return out


# strata_conv2d_nchw_packed_t_f32 ([Note: small images, filters along the vectors] in
# strata/backends/cpu/kernels_conv.py) runs convolutions of at least CONV_T_MIN_PANELS
# NR-filter panels over at most CONV_T_MAX_PANELS NR-pixel panels of output (the NCHW
# kernels' SMALL_IMAGE_PANELS: images packed whole)
CONV_T_MIN_PANELS, CONV_T_MAX_PANELS = 2, 4


def conv_transposed(f: int, oh: int, ow: int, window: tuple, nr: int) -> bool:
    """Whether an NCHW convolution of `f` filters into oh x ow outputs, `window` its (KH,
    KW, sh, sw), runs transposed, strata_conv2d_nchw_packed_t_f32 on its filter packed as
    pack_b_panels(filter^T): a small image (ResNet's 7x7 stage) and filters for two
    panels or more; not a 1x1 stride-1 window, which the other kernels compute on the
    image itself (no im2col to pack)."""
    return nr > 0 and f >= CONV_T_MIN_PANELS * nr and \
        0 < oh * ow <= CONV_T_MAX_PANELS * nr and tuple(window) != (1, 1, 1, 1)


def conv_flat_rows(f: int, oh: int, ow: int, shs: int, nr: int) -> bool:
    """Whether the NCHW convolution kernels run a stride-1, overwriting, unpadded
    convolution of `f` filters (a group's, grouped) into oh x ow outputs, over an image
    whose rows are `shs` floats apart, as flat rows ([Note: flat rows] in
    strata/backends/cpu/kernels_conv.py; the kernels decide so at run time, with `nr`
    their NR): rows of NR/2 pixels or less, and ceil(pf/NR) (F + 2) < ceil(P/NR) (F + 3
    (NR/OW + 1)), pf = (OH-1) shs + OW, P = OH OW. The lowering keeps a padded copy
    these read flat rather than folding its padding ([Note: padding in the packing])."""
    pf, p = (oh - 1) * shs + ow, oh * ow
    pieces = nr // max(ow, 1) + 1
    return 2 * ow <= nr and -(-pf // nr) * (f + 2) < -(-p // nr) * (f + 3 * pieces)
