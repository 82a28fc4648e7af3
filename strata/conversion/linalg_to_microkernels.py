"""`strata-linalg-to-microkernels`: f32 matrix products and 2-D convolutions on buffers
become calls of the CPU target's GEMM kernels (strata/backends/cpu/kernels.py).

    linalg.matmul ins(%A, %B : memref<64x784xf32>, memref<784x1024xf32>)
                  outs(%C : memref<64x1024xf32>)
=>
    %intptr = memref.extract_aligned_pointer_as_index %A : memref<64x784xf32> -> index
    %0 = arith.index_cast %intptr : index to i64
    %1 = llvm.inttoptr %0 : i64 to !llvm.ptr
    ...                                                    (the same for %B and %C)
    call @strata_sgemm_f32(%c64_i64, %c1024_i64, %c784_i64, %1, %c784_i64, %3, ...)
        : (i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i32) -> ()

with `func.func private @strata_sgemm_f32(...)` declared in the module: after
convert-func-to-llvm it is a plain C call of the kernel (the CPU target links the
kernels in). Runs after bufferization, before convert-linalg-to-loops, which lowers
what is left.

[Note: what is matched]
- Contractions: any linalg structured op (linalg.matmul, batch_matmul, contract,
  generic...) with two f32 memref inputs and one f32 memref init, the body
  `out + in0 * in1`, whose maps are loop dims (or 0: a dim an operand is broadcast
  along, ONNX's size-1 batch dims) and whose reduction loops A and B both walk. The
  loops sort into the kernel's (see `Contraction`):
    n      the loop along C's innermost unit-stride dim, A not varying along it, with
           the loops just outside it in C that A does not vary along and that collapse
           with it in B and C (a Reshape after the product split the columns);
    k      the reduction loops, collapsing into one in A and B, A unit-stride along the
           innermost; B unit-stride along n (A . B) or along k (A . B^T: _nt kernels);
    m      the rows: the innermost loops B does not vary along that collapse in A and C
           ([b, s, K] x [K, N] is one GEMM of b*s rows);
    batch  the innermost of the other loops that collapse in A, B and C (an operand that
           varies along none of them has batch stride 0);
    loops  the rest: scf.for loops around the call, advancing the pointers.
  Loops collapse in an operand when the outer one's stride is the inner one's times
  its size: statically, or because the buffer has the identity layout and they are
  adjacent dims of it (dynamic batch dims: attention's batch and heads). Other strides,
  offsets and sizes may be dynamic (read with memref.extract_strided_metadata).
  -> strata_sgemm[_nt][_batched]_f32.
- linalg.conv_2d_nchw_fchw, conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc (f32): the input's
  innermost dim unit-stride, the filter contiguous, each output image contiguous.
  -> strata_conv2d_nchw_f32 (a GEMM packing B straight from the image: implicit
  im2col; _packed_f32 with a packed constant filter) / strata_conv2d_nhwc_f32 (im2col +
  GEMM); 1x1 stride-1 convolutions are a GEMM on the image itself. A zero-padded copy
  of the input is read through the NCHW kernels' pad top / left instead, as the
  depthwise kernel does (see [Note: depthwise convolutions]; [Note: padding in the
  packing] in strata/backends/cpu/kernels_conv.py), grouped and 1-D ones too. A batch
  norm + ReLU / ReLU6 writing a packed 1x1 convolution's input (DenseNet's
  pre-activation layers) becomes the kernel's input prologue,
  strata_conv2d_nchw_packed_pro_f32 (see [Note: input prologues, the match]).
- linalg.conv_1d_ncw_fcw (f32, the same conditions): the NCHW kernels with H = KH =
  OH = 1 ([Note: 1-D convolutions]).
- linalg.conv_2d_ngchw_gfchw (f32, the same conditions; grouped convolutions, group
  < channels): strata_conv2d_nchw_grouped[_packed[_epi]]_f32, one GEMM per image and
  group ([Note: grouped convolutions] in strata/backends/cpu/kernels_conv.py).
- linalg.depthwise_conv_2d_nchw_chw (f32, rows unit-stride, the filter contiguous)
  -> strata_dwconv2d_nchw_f32, linalg.depthwise_conv_2d_nhwc_hwc (f32, channels
  unit-stride, the filter contiguous) -> strata_dwconv2d_nhwc_f32 (see [Note: depthwise
  convolutions]); a per-channel scale
  before a 1x1 convolution moves onto its filter first (see [Note: channel scales]).
Anything else (other element types, transposed A, pooling) stays for
convert-linalg-to-loops.

[Note: 1-D convolutions]
A conv_1d_ncw_fcw over (N, C, W) by (F, C, KW) into (N, F, OW) is the NCHW kernels'
convolution with H = KH = OH = 1: the buffers are passed as they are (no copy, no
view op: a 1-row image), the input's H stride is its W extent (never used to move, it
only lets the kernel see a contiguous image as its own im2col matrix for 1x1 stride-1
windows), the window (1, KW), strides (1, s), dilations (1, d). The filter is packed
and the bias and ReLU fused as for 2-D ones (Whisper's stem: 80 -> 384 k3 and 384 ->
384 k3 s2 over 3000 frames).

[Note: batches and weights]
With `weight-panel-width=NR` (the kernels' NR, which the CPU target passes), a B read
from a constant memref.global with its data (the pass runs before the target
externalizes weights), or a whole view of one (reshapes keep the order of the
elements), that only the k and n loops walk, is packed now, once: a new constant global
holds packed(B) (`pack_b_panels` of the K x N matrix; B^T is transposed first) and the
product calls strata_sgemm_packed_f32, which skips packing B at run time, with its
batch loops as scf.for loops. The old global goes when nothing else reads it.
With `filter-panel-rows=MR` (the kernels' MR), a constant NCHW convolution filter is
packed likewise into MR-row panels of the whole K = C*KH*KW (`pack_a_panels`) for
strata_conv2d_nchw_packed_f32: the filter is read as one sequential stream, with no
packing (or row-strided reads) at run time. 1x1 stride-1 filters too: the kernel
multiplies the panels by the image itself (its "np" GEMM, as fast as the plain GEMM on
the filter in place, 0.94-1.09x per MobileNetV2 layer), and gets the epilogue.

[Note: epilogues]
A product on packed weights (2-D: no loops around the kernel, loops of one step aside,
one N dim, last in C) whose result the next elementwise generic turns into act(C + bias)
or act(C) (bias a constant-size f32 vector along N, or a constant c, C + c or C - c: a
global of N copies of c or -c, one per value and size, made the epilogue's bias, so the
kernel computes what the generic does, x + 0.0 making a -0.0 sum +0.0 too: HF's freshly
initialized Linear layers share one zero bias that the importer folds to a scalar; act
one of the kernels' activations, cpu_kernel_abi's
ACTS: relu, relu6, hardswish, hardsigmoid, silu, sigmoid, gelu, gelu_tanh, or none with
a bias; recognized by the function the body computes, see [Note: recognizing
activations]; constant scalars the body reads, as ONNX Clip's bounds, are constants of
it) calls strata_sgemm_packed_epi_f32 instead: the kernel applies them with its last K
block, while the tile of C is still in registers, and writes the generic's output (C's
type) directly; the generic goes, and C with it unless it is the generic's output
itself. A bias broadcast into C just before the product (its init, from
strata-linalg-fold-into-contractions) becomes the epilogue's bias, the product then
overwriting C. C's old value must not be needed elsewhere: written to another buffer,
the product has to overwrite C. NCHW convolutions on packed filters (1x1 stride-1 ones
included, grouped ones too) do the same through
strata_conv2d_nchw[_grouped]_packed_epi_f32, with a bias per filter (a row of their
GEMM, EPI_ROW_BIAS) from the broadcast before them and the activation after them. A
residual add after the product (with or without an activation): see [Note: residual
epilogues]. Not fused: an activation other than these (LeakyRelu, Elu...), 3x3 stride-1
convolutions on the Winograd kernel (its epilogue has ReLU only).

[Note: residual epilogues]
A product that overwrites C (a zero fill or a bias broadcast before it), followed by an
elementwise generic computing act(C + r) (act any of ACTS, or none: ResNet's Add + Relu
after its last 1x1 convolution, MobileNetV2's Add alone), with r a buffer of C's type
read as the identity does (so of C's sizes), is computed by the kernel accumulating into
r's buffer (accumulate = 1: C = act(r + A.B + bias) in the epilogue, [Note: activation
codes] in cpu_kernel_abi.py), r's buffer then standing for the generic's output: one
read and one write of the feature map, against a write of C, and a read of C and r and
a write of the output. Only where that is safe: r, C and the output are allocs of the
product's block, r is read only before the product (the kernel overwrites it; views of
it read only there too, so the product's input is no view of it), and the output is
used only after the generic (its uses then read r, whose deallocs go: the output's free
it). r a function argument, or read later: the generic stays. A GEMM's generic may also add
a bias, in any order: act(C + bias + r), the bias an f32 vector along N or a constant
(ViT's, DeiT's and BERT's (x + 0.0) + r after the attention output and FC2 projections,
HF's zero biases folded to a scalar, read as a batch of one: (0, d1, d2)), which then is
the epilogue's bias (a constant: N copies of it, as in [Note: epilogues]). A
transformer's residual without an activation is otherwise folded earlier, on tensors
([Note: addends] in strata-linalg-fold-into-contractions); 3x3 stride-1 convolutions on
the Winograd kernel take theirs through its residual pointer
(conversion/conv_to_winograd.py).

[Note: epilogues through reshapes]
An ONNX MatMul of a [1, H, W, C] image (ConvNeXt's Linear layers, channel-last) or of a
[B, S, K] batch by a constant [K, N] weight is a product on a collapsed view, whose
output the importer expands back: the generic after reads the product's C through a
memref.expand_shape (or collapse_shape) of it. When that view keeps N as its last dim
(its own reassociation group), is static and read only by the generic, and C is read by
nothing else, the epilogue is matched on the view as on C (bias along the view's last
dim, the activation, the output of the view's type), and the kernel writes the
generic's output through the reversed reshape of it (a view of C's type made before the
call); the generic, the view and C go. Residual adds through a reshape are not matched.

[Note: depthwise convolutions]
A depthwise convolution becomes one call of strata_dwconv2d_nchw_f32, or of
strata_dwconv2d_nhwc_f32 for a channel-last one (linalg.depthwise_conv_2d_nhwc_hwc, made
by strata-linalg-depthwise-channels-last: ConvNeXt, Segformer;
strata/backends/cpu/kernels_depthwise.py), which also takes over what surrounds it (the
same matches for both layouts, the channels dim 1 or 3):
- the padding: when its input is a fresh buffer filled with +0.0 holding a copy of
  another at offsets (0, 0, pt, pl) ((0, pt, pl, 0) channel-last; ONNX's and torch's
  pads lower so), and nothing else
  reads it, the kernel reads the copied buffer with pt and pl (the padding is read as
  zeros) and the fill, the copy and the padded buffer go (deallocs of the source made
  between the copy and the convolution move after it);
- a bias broadcast into its init just before it (past the filter's reshape), as for
  the GEMMs (the kernel then overwrites its output);
- the elementwise generic right after it, when it computes act(y) or act(y + bias[c])
  with act one of relu, relu6, hardswish, silu, sigmoid (DW_ACTS, recognized by the
  function the body computes: [Note: recognizing activations]), or y + bias[c]: the
  kernel applies it before its
  store and writes the generic's output; the generic goes, and y with it unless it is
  the output. The old value of y must not be needed elsewhere, as for the GEMMs.
  What the activation is applied to may also be any a[c] * y + b[c] computed from
  per-channel constants (an unfolded batch norm, as torch.export leaves it:
  (y - mean) / sqrt(var + eps) * gamma + beta): with a constant filter (and bias), a
  and b are computed now (float64) and folded into new constant globals, the filter
  scaled by a and the bias a * bias + b; the old constants go when nothing else reads
  them.

[Note: channel scales]
Squeeze-excitation ends in z = y * sigmoid(t): the image y (a batch of one) scaled per
channel by a vector t computed from it (pooled, two small products), and z is read by the
1x1 projection. Elementwise fusion leaves the sigmoid inside that multiply, so it ran
once per pixel, and the multiply read y and wrote z whole once more. When z is read only
by a 1x1 stride-1 NCHW convolution, the generic is turned onto that convolution's
filter instead, w'[f, c] = w[f, c] * e(t[c]) (F x C values, e the generic's expression of
t, unchanged), and the convolution reads y itself with w': the same sums, one rounding
apart (MobileNetV3 / EfficientNet blocks of 144 x 56 x 56 measured 17% faster, 240 x 28
x 28 7%). The pass does this first, before matching the products
(`fold_channel_scales`); deallocs of y between the two move after the convolution.
When e is not the identity (SE's sigmoid), e(t) is computed once per channel first, by
a copy of the generic over t alone into a C-vector, and the filter is scaled by that
vector: computed in the filter's loop, e ran F times per channel (EfficientNet-B0: 221k
sigmoids for one 1152 -> 192 projection, 2.4% of the model's time).
Which of the two is scaled is chosen by size: the filter (F x C values) when F <= H x W,
else the image (C x H x W: the generic stays, multiplying y by e(t) computed once per
channel as above; RegNet-Y's 440 x 440 projections on 7x7 maps scaled 9x more filter
than image, 5% of the model's time in that loop). A constant filter the pass packs
(`filter-panel-rows`) is scaled as its packed panels, read as P x C x MR (P = ceil(F /
MR), pack_a_panels), into a buffer the convolution then takes as its packed filter: it
keeps the packed kernel and its epilogue (bias, activation, residual: [Note: residual
epilogues]), where scaling the plain filter lost them to the unpacked kernel, which
packed the filter at run time and left the residual add to a loop of its own (RegNet-Y-
400MF 1 thread 0.94x, EfficientNet-B0 0.94x of the filter-only fold).

[Note: accumulate]
linalg ops accumulate into their init. When the op before the product (skipping ops
without memref operands or regions, whole views and size reads) is `linalg.fill` of
+0.0 into the same buffer (or the buffer the init views), the fill is erased and the
kernel told to overwrite C (accumulate = 0): the kernel's first K block writes C instead
of reading it. An init holding a bias or residual (strata-linalg-fold-into-contractions)
is accumulated into (accumulate = 1).

[Note: tile words]
The GEMM and convolution kernels end with `i64 tile`: the blocking (KC, MC, NC) and the
thread split of the call, packed in one word ([Note: the tile word] in
strata/backends/cpu/kernels_gemm.py; 0 = the kernels' defaults). The pass asks
`choose_tile(kernel, shape, hint)` for each call: `kernel` the symbol called, `shape`
its sizes by name (GEMMs: batch, M, N, K; convolutions: N, C, H, W, F, KH, KW, OH, OW,
sh, sw, dh, dw, and ftrans for NHWC) with None for a size known only at run time,
`hint` the same with each dynamic dim taken as 1 (a batch of one: M = batch x 128 rows
is 128). With `tile-choice=model` (the default) the chooser is the CPU target's cost
model (strata/backends/cpu/cost_model.py) for `kernel-isa`, `num-threads` and
`cache-sizes` (each the host's when not given: lit tests give them, so the printed
constant does not depend on the machine); `tile-choice=default` emits 0.
strata.compile(..., tune=True) replaces the words with measured ones
(strata/backends/cpu/autotune.py, through the pass's `on_call`).
"""
from __future__ import annotations

from ..dialects.linalg.structured import StructuredOp
from ..ir import attributes as A
from ..ir.affine import AffineConstantExpr, AffineDimExpr
from ..passes.pass_manager import Option, Pass
from .cpu_kernel_abi import (EPI_BIAS, EPI_ROW_BIAS, KERNEL_SIGNATURES, PRO_ACTS, _P,
                             conv_transposed, epi_flags, in_panel_memory,
                             pack_a_panels, pack_b_panels, PanelMemory, PANEL_HUGE_BYTES)
from .scalar_builders import op_class

__all__ = ["LinalgToMicrokernels", "lower_to_microkernels", "kernels_used",
           "match_contraction", "match_conv", "global_data"]

_CONVS = {"linalg.conv_2d_nchw_fchw": "nchw", "linalg.conv_2d_nhwc_hwcf": "hwcf",
          "linalg.conv_2d_nhwc_fhwc": "fhwc", "linalg.conv_1d_ncw_fcw": "ncw",
          "linalg.conv_2d_ngchw_gfchw": "ngchw"}


def _llvm_ptr():
    from ..dialects.llvm.types import LLVMPointerType
    return LLVMPointerType()


def _arg_type(t):
    return _llvm_ptr() if t == _P else A.IntegerType(int(t[1:]))


# ---------------------------------------------------------------- matching


def _f32_memref(t) -> bool:
    return type(t) is A.MemRefType and t.element_type == A.f32


def _is_mac_body(op) -> bool:
    """The payload is `yield out + in0 * in1` (either operand order)."""
    if not op.regions or not op.regions[0].blocks:
        return False
    block = op.regions[0].blocks[0]
    args = block.args
    ops = list(block.ops)
    if len(args) != 3 or len(ops) != 3:
        return False
    mul, add, yld = ops
    if mul.name != "arith.mulf" or add.name != "arith.addf" or yld.name != "linalg.yield":
        return False
    m = mul.results[0]
    if {v for v in mul.operands} != {args[0], args[1]} or mul.operands[0] is \
            mul.operands[1]:
        return False
    if set(add.operands) != {args[2], m} or add.operands[0] is add.operands[1]:
        return False
    return len(yld.operands) == 1 and yld.operands[0] is add.results[0]


def _strides(t):
    from ..dialects.memref import strides_and_offset
    so = strides_and_offset(t)
    return (None, None) if so is None else so


def _unit_inner(t) -> bool:
    strides, _ = _strides(t)
    return strides is not None and bool(strides) and strides[-1] == 1


class Contraction:
    """C (+)= A . B over the loops of `op` (see [Note: what is matched]): `pos[x][d]` is
    the memref dim of operand x (0: A, 1: B, 2: C) that loop d walks (None: x does not
    vary along d). The loops are sorted into the kernel's, each a list of loops that
    collapse into one (outer first): `k` (the reduction), `n` (the columns), `m` (the
    rows), `batch`; and `loops` (outer first), run around the call."""

    __slots__ = ("op", "a", "b", "c", "pos", "trans_b", "k", "n", "m", "batch", "loops")

    def __init__(self, op, pos, k, n, trans_b):
        self.op = op
        self.a, self.b = op.dps_inputs
        self.c = op.dps_inits[0]
        self.pos, self.k, self.n, self.trans_b = pos, k, n, trans_b
        self.m, self.batch, self.loops = [], [], []

    @property
    def operands(self):
        return self.a, self.b, self.c


def _operand_dims(m, nloops):
    """{loop: memref dim} of an operand read through map `m` (results dims, or the
    constant 0 for a dim it is broadcast along); None if not of that form."""
    out = [None] * nloops
    for i, r in enumerate(m.results):
        if type(r) is AffineDimExpr:
            if out[r.position] is not None:
                return None
            out[r.position] = i
        elif not (type(r) is AffineConstantExpr and r.value == 0):
            return None
    return out


def _static_unit_stride(t, i) -> bool:
    strides, _ = _strides(t)
    return strides is not None and strides[i] == 1


def _adjacent(t, outer, inner) -> bool:
    """Memref dims `outer` and `inner` of `t` walk as one dim: the outer stride is the
    inner one times its size (statically, or by the identity layout's construction)."""
    from ..dialects.memref_layout import is_identity_layout
    strides, _ = _strides(t)
    so, si, n = strides[outer], strides[inner], t.shape[inner]
    if A.DYNAMIC not in (so, si, n) and so == n * si:
        return True
    return is_identity_layout(t) and outer < inner and \
        all(t.shape[j] == 1 for j in range(outer + 1, inner))


def _joins(ct, outer, inner, operands) -> bool:
    """Loop `outer` collapses onto loop `inner` in each of `operands` (0: A, 1: B, 2: C):
    both walk adjacent dims of it, or neither varies it."""
    for x in operands:
        po, pi = ct.pos[x][outer], ct.pos[x][inner]
        if (po is None) != (pi is None):
            return False
        if po is not None and not _adjacent(ct.operands[x].type, po, pi):
            return False
    return True


def _group(ct, order, operands):
    """The longest run of loops at the end of `order` that collapse into one (in
    `operands`), outer first."""
    if not order:
        return []
    group = [order[-1]]
    for d in reversed(order[:-1]):
        if not _joins(ct, d, group[0], operands):
            break
        group.insert(0, d)
    return group


def match_contraction(op):
    """A Contraction if `op` is one the GEMM kernels compute (see [Note: what is
    matched]), else None."""
    if not isinstance(op, StructuredOp) or op.num_dps_inputs() != 2 or \
            op.num_dps_inits != 1 or len(op.operands) != 3:
        return None
    if not all(_f32_memref(t) for t in op.operand_types) or not _is_mac_body(op):
        return None
    kinds = op.iterator_types_list()
    nloops = len(kinds)
    pos = [_operand_dims(m, nloops) for m in op.indexing_maps_list()]
    if len(pos) != 3 or None in pos:
        return None
    pa, pb, pc = pos
    red = [d for d, kind in enumerate(kinds) if kind == "reduction"]
    if not red or any((pc[d] is None) != (kinds[d] == "reduction") for d in range(nloops)) \
            or any(pa[d] is None or pb[d] is None for d in red):
        return None
    ta, tb, tc = op.operand_types
    # n: the loop along C's innermost unit-stride dim (not of size 1 if there is one)
    inner = [i for i in range(len(tc.shape)) if _static_unit_stride(tc, i)]
    if not inner:
        return None
    wide = [i for i in inner if tc.shape[i] != 1]
    n = pc.index((wide or inner)[-1])
    if pa[n] is not None or pb[n] is None:
        return None
    ct = Contraction(op, pos, [], [], False)
    # the reduction loops collapse into K, A read along the innermost one
    ct.k = _group(ct, sorted(red, key=lambda d: pa[d]), (0, 1))
    k = ct.k[-1]
    if len(ct.k) != len(red) or not _static_unit_stride(ta, pa[k]):
        return None
    if _static_unit_stride(tb, pb[n]):
        ct.trans_b = False
    elif _static_unit_stride(tb, pb[k]):
        ct.trans_b = True
    else:
        return None
    # the other parallel loops in C's order, without those of static extent 1
    rest = sorted((d for d in range(nloops) if d not in red and d != n and
                   tc.shape[pc[d]] != 1), key=lambda d: pc[d])
    # columns: n and the loops A does not vary along just outside it, collapsing in B, C
    ct.n = _group(ct, [d for d in rest if pa[d] is None and pc[d] < pc[n]] + [n], (1, 2))
    rest = [d for d in rest if d not in ct.n]
    # rows: the loops B does not vary along (innermost in C) collapsing in A and C
    ct.m = _group(ct, [d for d in rest if pb[d] is None], (0, 2))
    rest = [d for d in rest if d not in ct.m]
    ct.batch = _group(ct, rest, (0, 1, 2))
    ct.loops = [d for d in rest if d not in ct.batch]
    return ct


def _per_image_contiguous(t) -> bool:
    """Dims 1.. of `t` are row-major contiguous (static strides where it matters)."""
    if t.layout is None:
        return True
    strides, _ = _strides(t)
    if strides is None:
        return False
    expect = 1
    for i in range(len(t.shape) - 1, 0, -1):
        if strides[i] != expect and t.shape[i] != 1:
            return False
        if t.shape[i] == A.DYNAMIC:
            return i == 1   # dim 0's stride is free
        expect *= t.shape[i]
    return True


def match_conv(op):
    """The kernel layout ("nchw", "hwcf", "fhwc") if `op` is a convolution the conv
    kernels compute, else None."""
    from ..dialects.memref import is_contiguous_row_major
    layout = _CONVS.get(op.name)
    if layout is None or not isinstance(op, StructuredOp) or len(op.operands) != 3:
        return None
    if not all(_f32_memref(t) for t in op.operand_types) or not _is_mac_body(op):
        return None
    i, f, o = op.operand_types
    if not _unit_inner(i) or not is_contiguous_row_major(f) or \
            not _per_image_contiguous(o):
        return None
    return layout


# ---------------------------------------------------------------- emitting


class _Emit:
    """Creates ops before the matched op; values of operands' metadata made once."""

    __slots__ = ("block", "before", "loc", "meta", "consts", "prologue")

    def __init__(self, op):
        self.block, self.before, self.loc = op.parent, op, op.loc
        self.meta = {}
        self.consts = {}
        self.prologue = None    # a convolution's input prologue (_input_prologue)

    def v(self, name, operands, result_types, props=None):
        o = op_class(name).create(list(operands), list(result_types), props, None, (), 0,
                                  self.loc)
        self.block.insert_before(self.before, o)
        return o.results

    def const(self, n: int, t):
        key = (int(n), t)
        c = self.consts.get(key)
        if c is None:
            c = self.consts[key] = self.v("arith.constant", [], [t],
                                          {"value": A.IntegerAttr(int(n), t)})[0]
        return c

    def i64(self, n: int):
        return self.const(n, A.i64)

    def i32(self, n: int):
        return self.const(n, A.i32)

    def to_i64(self, x):
        """An i64 from a Python int or an index value (other values as they are)."""
        if isinstance(x, int):
            return self.i64(x)
        if x.type is not A.index:
            return x
        return self.v("arith.index_cast", [x], [A.i64])[0]

    def _metadata(self, m):
        r = self.meta.get(m)
        if r is None:
            t = m.type
            types = [A.MemRefType((), t.element_type, None, t.memory_space)] + \
                [A.index] * (1 + 2 * len(t.shape))
            r = self.meta[m] = self.v("memref.extract_strided_metadata", [m], types)
        return r

    def size(self, m, i):
        d = m.type.shape[i]
        return d if d != A.DYNAMIC else self._metadata(m)[2 + i]

    def stride(self, m, i):
        s = _strides(m.type)[0][i]
        return s if s != A.DYNAMIC else self._metadata(m)[2 + len(m.type.shape) + i]

    def mul(self, x, y):
        """x * y on Python ints or index values."""
        if isinstance(x, int) and isinstance(y, int):
            return x * y
        if x == 1 or y == 1:
            return y if x == 1 else x
        x, y = (self.index(v) if isinstance(v, int) else v for v in (x, y))
        return self.v("arith.muli", [x, y], [A.index])[0]

    def index(self, n: int):
        return self.const(n, A.index)

    def address(self, m):
        """The address (index) of element 0 of memref `m`: aligned pointer + offset."""
        p = self.v("memref.extract_aligned_pointer_as_index", [m], [A.index])[0]
        offset = _strides(m.type)[1]
        if offset == A.DYNAMIC:
            offset = self._metadata(m)[1]
        if offset != 0:
            p = self.add(p, self.bytes(offset))
        return p

    def bytes(self, n):
        """4 * n (f32 elements) as an index value; n a Python int or an index value."""
        n = self.mul(n, 4)
        return self.index(n) if isinstance(n, int) else n

    def add(self, x, y):
        return self.v("arith.addi", [x, y], [A.index])[0]

    def ptr(self, address):
        """An !llvm.ptr from an index address."""
        p = self.v("arith.index_cast", [address], [A.i64])[0]
        return self.v("llvm.inttoptr", [p], [_llvm_ptr()])[0]

    def pointer(self, m):
        """!llvm.ptr to element 0 of memref `m` (aligned pointer + offset)."""
        return self.ptr(self.address(m))

    def loop(self, extent):
        """Open an scf.for from 0 to `extent` (int or index) here; the emitter moves
        into its body. Returns the induction variable."""
        from ..ir.core import Block
        ub = self.index(extent) if isinstance(extent, int) else extent
        f = op_class("scf.for").create([self.index(0), ub, self.index(1)], [], None, None,
                                       (), 1, self.loc)
        body = f.regions[0].add_block(Block([A.index], [self.loc]))
        body.append(op_class("scf.yield").create([], [], None, None, (), 0, self.loc))
        self.block.insert_before(self.before, f)
        self.block, self.before = body, body.last
        return body.args[0]

    def call(self, name, args):
        args = [self.to_i64(a) if isinstance(a, int) or a.type is A.index else a
                for a in args]
        o = op_class("func.call").create(args, [], {"callee": A.SymbolRefAttr(name)}, None,
                                         (), 0, self.loc)
        self.block.insert_before(self.before, o)
        return o


# Ops that may stand between a zero fill and the product it initializes: whole views of
# a buffer and reads of its sizes (see [Note: accumulate]).
_VIEWS = frozenset(("memref.expand_shape", "memref.collapse_shape", "memref.cast"))
_SIZES = frozenset(("memref.dim", "memref.extract_strided_metadata"))


def _whole_root(v):
    """The buffer `v` is a whole view of (through _VIEWS), or v."""
    while v.defining_op is not None and v.defining_op.name in _VIEWS:
        v = v.defining_op.operands[0]
    return v


def _zero_fill_before(op, c):
    """The `linalg.fill` of +0.0 into `c` (or the buffer `c` views, filled through any
    whole view of it) that `op` follows (see [Note: accumulate])."""
    c = _whole_root(c)
    prev = op.prev
    while prev is not None:
        if prev.name == "linalg.fill":
            break
        if prev.regions or (prev.name not in _VIEWS and prev.name not in _SIZES and
                            any(type(t) is A.MemRefType for t in prev.operand_types)):
            return None
        prev = prev.prev
    if prev is None or len(prev.operands) != 2 or _whole_root(prev.operands[1]) is not c:
        return None
    cst = prev.operands[0].defining_op
    if cst is None or cst.name != "arith.constant":
        return None
    val = cst.properties.get("value")
    if not isinstance(val, A.FloatAttr) or val.value != 0.0 or str(val.value)[0] == "-":
        return None
    return prev


def _accumulate(em, op, c):
    fill = _zero_fill_before(op, c)
    if fill is not None:
        fill.erase()
        return em.i32(0)
    return em.i32(1)


class _Pointer:
    """A kernel argument to be the pointer to operand 0, 1 or 2 (A, B, C)."""
    __slots__ = ("operand",)

    def __init__(self, operand):
        self.operand = operand


def _shape(names, values, hints=None) -> tuple:
    """({name: static int or None}, {name: int, a dynamic one as `hints` says, else 1}) of
    a call's sizes (see [Note: tile words])."""
    shape = {n: v if isinstance(v, int) else None for n, v in zip(names, values)}
    hints = hints or {}
    return shape, {n: hints.get(n, 1) if v is None else v for n, v in shape.items()}


def _elementwise(g) -> bool:
    """A linalg.generic on buffers with one init, all loops parallel."""
    return (g is not None and g.name == "linalg.generic" and not g.results and
            all(t == "parallel" for t in g.iterator_types_list()) and
            g.num_dps_inits == 1)


def identity_on(m, t) -> bool:
    """Map `m` reads a buffer of type `t` as the identity does: each result the loop of
    its position, or the constant 0 along a dim of size 1 (the elementwise lowering
    reads a batch of one so: (d0, d1, d2, d3) -> (0, d1, d2, d3))."""
    if m.is_identity():
        return True
    if len(m.results) != len(t.shape) or m.num_dims != len(t.shape):
        return False
    for i, r in enumerate(m.results):
        if not (type(r) is AffineDimExpr and r.position == i or type(r) is
                AffineConstantExpr and r.value == 0 and t.shape[i] == 1):
            return False
    return True


def _drop_if_dead(y) -> None:
    """Erase buffer `y`'s alloc and deallocs when nothing else uses it any more."""
    a = y.defining_op
    if a is None or a.name != "memref.alloc" or any(
            u.owner.name != "memref.dealloc" for u in y.uses):
        return
    for u in list(y.uses):
        u.owner.erase()
    a.erase()


def _after_scalars(op, step):
    """The op `step` ("prev" / "next") of `op`, skipping ops without memref operands or
    regions (constants, index arithmetic)."""
    o = getattr(op, step)
    while o is not None and not o.regions and \
            not any(type(t) is A.MemRefType for t in o.operand_types):
        o = getattr(o, step)
    return o


def broadcast_before(op, y, dim: int, skip=frozenset()):
    """The linalg.generic right before `op` (past scalar ops, and ops named in `skip`)
    writing bias[i] into all of `y` (a contiguous f32 vector broadcast along y's dim
    `dim`: a bias as the product's init), or None."""
    g = _after_scalars(op, "prev")
    while g is not None and g.name in skip:
        g = _after_scalars(g, "prev")
    if not _elementwise(g) or g.num_dps_inputs() != 1 or g.dps_inits[0] is not y:
        return None
    b = g.dps_inputs[0]
    bmap, ymap = g.indexing_maps_list()
    if type(b.type) is not A.MemRefType or tuple(b.type.shape) != (y.type.shape[dim],) or \
            b.type.shape[0] == A.DYNAMIC or b.type.element_type != A.f32 or \
            b.type.layout is not None or not ymap.is_identity() or \
            len(bmap.results) != 1 or getattr(bmap.results[0], "position", None) != dim:
        return None
    ops = list(g.body.ops)
    if len(ops) != 1 or ops[0].operands[0] is not g.body.args[0]:
        return None
    return g


def relu_then_yield(ops, val):
    """(relu, value) when the body ops `ops` are [arith.maximumf(val, +0.0)] and a yield
    of its result (relu True), or just a yield of `val` (relu False); else (False, None)."""
    import math
    relu = False
    if len(ops) == 2 and ops[0].name == "arith.maximumf" and ops[0].operands[0] is val:
        c = ops[0].operands[1].defining_op
        cv = c.properties.get("value") if c is not None and c.name == "arith.constant" \
            else None
        if not isinstance(cv, A.FloatAttr) or cv.value != 0.0 or \
                math.copysign(1.0, cv.value) < 0:
            return False, None
        relu, val, ops = True, ops[0].results[0], ops[1:]
    if len(ops) != 1 or ops[0].name != "linalg.yield" or ops[0].operands[0] is not val:
        return False, None
    return relu, val


def _scalar_constant(v, m):
    """The float a rank-0 f32 input `v` (read by map `m`) of an elementwise generic holds
    when it is a constant memref.global (ONNX's Clip bounds given as initializers), else
    None."""
    t = v.type
    if type(t) is not A.MemRefType or tuple(t.shape) != () or t.element_type != A.f32 or \
            m.results:
        return None
    get = v.defining_op
    if get is None or get.name != "memref.get_global":
        return None
    from ..ir.symbol_table import symbol_name
    module = get
    while module.parent_op is not None:
        module = module.parent_op
    name = get.properties["name"].root
    for o in module.regions[0].blocks[0].ops:
        if o.name == "memref.global" and symbol_name(o) == name:
            data = global_data(o) if "constant" in o.properties and \
                o.properties.get("initial_value") is not None else None
            return None if data is None or data.size != 1 else float(data.reshape(-1)[0])
    return None


def _scalar_leaves(g, skip) -> dict:
    """{block argument: float} of generic `g`'s inputs (but those in `skip`) that are
    constant scalars (_scalar_constant)."""
    maps = g.indexing_maps_list()
    out = {}
    for i, v in enumerate(g.dps_inputs):
        if v not in skip:
            x = _scalar_constant(v, maps[i])
            if x is not None:
                out[g.body.args[i]] = x
    return out


def _op_after(op, c):
    """The op after `op`, past allocs, views of them (a slice of a concatenation's
    buffer: strata-concat-in-place), reads of globals and deallocs of buffers other
    than `c` (the generic an epilogue may take in)."""
    g = op.next
    while g is not None and (g.name in ("memref.alloc", "memref.get_global",
                                        "memref.subview") or (
            g.name == "memref.dealloc" and g.operands[0] is not c) or (
            g.name in ("memref.expand_shape", "memref.collapse_shape") and
            g.operands[0] is c)):
        g = g.next
    return g


def _gemm_epilogue(op, c, n_dim: int, has_bias: bool = False):
    """(generic, bias or None, act, destination) when the op after `op` (past allocs,
    reads of globals, and deallocs of other buffers) is an elementwise generic computing
    act(c + bias) or act(c) (bias a contiguous f32 vector along c's dim `n_dim`, its
    last; n_dim None: no bias; act one of ACTS, recognized by `_activation_of`, not
    "none" without a bias), into c itself or into a buffer of c's type, c then being an
    alloc used by nothing else but deallocs; else None. The GEMM kernel's epilogue
    computes it."""
    g = _op_after(op, c)
    if not _elementwise(g) or n_dim is not None and n_dim != len(c.type.shape) - 1:
        return None
    c_read = c      # c, or the reshape of it g reads ([Note: epilogues through reshapes])
    if c not in g.dps_inputs:
        c_read = _reshape_read(g, op, c)
        if c_read is None:
            return None
        if n_dim is not None:
            n_dim = len(c_read.type.shape) - 1
    found = _gemm_epilogue_of(g, op, c, c_read, n_dim, has_bias)
    if found is None or c_read is c:
        return found
    g, bias, act, d = found
    return g, bias, act, c if d is c_read else _reshaped_like(d, c, c_read, op)


def _reshape_read(g, op, c):
    """The whole view of `c` (one expand_shape or collapse_shape of it, static shapes, the
    last dim kept: N) that elementwise generic `g` reads, used by g alone, when c is an
    identity-layout buffer used by nothing but `op`, that view and deallocs; else None
    (see [Note: epilogues through reshapes])."""
    from ..dialects.memref_layout import is_identity_layout
    t = c.type
    if type(t) is not A.MemRefType or not is_identity_layout(t) or A.DYNAMIC in t.shape:
        return None
    for v in g.dps_inputs:
        r = v.defining_op
        if r is None or r.name not in ("memref.expand_shape", "memref.collapse_shape") or \
                r.operands[0] is not c or not is_identity_layout(v.type) or \
                A.DYNAMIC in v.type.shape or v.type.shape[-1] != t.shape[-1] or \
                r.reassociation_indices[-1] != [len((v.type if r.name == "memref.expand_shape"
                                                     else t).shape) - 1] or \
                any(u.owner is not g for u in v.uses) or \
                any(u.owner is not op and u.owner is not r and
                    u.owner.name != "memref.dealloc" for u in c.uses):
            continue
        return v
    return None


def _reshaped_like(d, c, c_read, op):
    """A view of the epilogue's output `d` (of c_read's type) with c's type, made before
    `op`: the reshape c_read is of c, reversed."""
    r = c_read.defining_op
    groups = A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g])
                          for g in r.reassociation_indices])
    if r.name == "memref.expand_shape":      # c expanded: d collapsed back
        view = op_class("memref.collapse_shape").create(
            [d], [c.type], {"reassociation": groups}, None, (), 0, op.loc)
    else:                                    # c collapsed: d expanded back
        view = op_class("memref.expand_shape").create(
            [d], [c.type], {"reassociation": groups, "static_output_shape":
                            A.DenseArrayAttr(A.i64, list(c.type.shape))}, None, (), 0,
            op.loc)
    op.parent.insert_before(op, view)
    return view.results[0]


def _gemm_epilogue_of(g, op, c, c_read, n_dim, has_bias):
    """_gemm_epilogue's match of generic `g` reading the product's output `c` as
    `c_read` (c, or a reshape of it)."""
    from .cpu_kernel_abi import ACTS
    scalars = _scalar_leaves(g, (c_read,))
    if g.num_dps_inputs() - len(scalars) not in (1, 2):
        return None
    d = g.dps_inits[0]
    maps = g.indexing_maps_list()
    ci = g.dps_inputs.index(c_read)
    if d.type != c_read.type and not _image_strided_output(op, d, c) or \
            not identity_on(maps[ci], c_read.type) or not maps[-1].is_identity():
        return None
    if d is not c_read and (c.defining_op is None or c.defining_op.name != "memref.alloc" or
                            any(u.owner is not g and u.owner is not op and
                                u.owner is not c_read.defining_op and
                                u.owner.name != "memref.dealloc" for u in c.uses)):
        return None
    args = g.body.args
    leaves, bias = {args[ci]: "x", **scalars}, None
    rest = [i for i, a in enumerate(args[:g.num_dps_inputs()]) if a not in leaves]
    if rest:
        bi = rest[0]
        b = g.dps_inputs[bi]
        bmap = maps[bi]
        if has_bias or n_dim is None:       # one bias only, along the columns
            return None
        if b is c_read or b is d or not _bias_along(b, bmap, c_read, n_dim):
            return None
        bias, leaves[args[bi]] = b, "p0"
    scalar = [] if bias is None and not has_bias and n_dim is not None and \
        c_read.type.shape[n_dim] != A.DYNAMIC else None
    act = _epilogue_activation(g, leaves, ACTS, bias is not None, scalar)
    if scalar:      # act(c + constant): the bias is that constant along N
        bias = scalar[0]
    if act is None or act == "none" and bias is None or not _ready_before(d, op) or \
            (type(bias) is not float and bias is not None and
             not (_ready_before(bias, op) or _hoisted_global(bias, op))):
        return None
    return g, bias, act, d


def _image_strided_output(op, d, c) -> bool:
    """An NCHW-family convolution's epilogue may write a `d` of c's shape whose images
    are each contiguous but lie apart (a channel slice of a concatenation's buffer:
    strata-concat-in-place): the conv kernels take the output's image stride alone
    (`_nchw_call`). GEMMs read their strides from c, so they need d of c's type."""
    return _CONVS.get(op.name) in ("nchw", "ncw") and type(d.type) is A.MemRefType and \
        list(d.type.shape) == list(c.type.shape) and \
        d.type.element_type == c.type.element_type and _per_image_contiguous(d.type)


def _yield_tree(g, leaves: dict):
    """The expression tree (`_expr`, leaves `leaves`) of the one value elementwise
    generic `g` yields, or None."""
    ops = list(g.body.ops)
    if not ops or ops[-1].name != "linalg.yield" or len(ops[-1].operands) != 1:
        return None
    return _expr(ops[-1].operands[0], leaves, g.body)


def _yield_activation(g, leaves: dict, names):
    """(act, inner) when the one value generic `g` yields is act(inner) for an activation
    of `names` and inner affine in "x" (`_activation_of`, its leaves `leaves`); else
    None."""
    tree = _yield_tree(g, leaves)
    return _activation_of(tree, names) if tree is not None else None


def _epilogue_activation(g, leaves: dict, names, bias: bool, scalar: list | None = None):
    """The activation (a name of `names`) elementwise generic `g` applies to "x" (its
    block argument's leaf in `leaves`), or to x + "p0" when `bias`; else None. With a
    list `scalar` (and no `bias`), also to x + c or x - c for a constant float c, whose
    bias value (c, or -c: x - c is x + -c exactly) is appended to it ([Note: epilogues])."""
    tree = _yield_tree(g, leaves)
    found = _activation_of(tree, names) if tree is not None else None
    if found is None:
        return None
    act, inner = found
    if inner == "x" and scalar is not None and not bias:
        # x + 0.0 computes x but for a zero's sign: the kernel adds the 0 (exact)
        chains = _chains(tree)
        inner = chains[0][1] if len(chains) == 1 and len(chains[0]) > 1 and \
            chains[0][1][0] in ("arith.addf", "arith.subf") else inner
    if inner in ((("arith.addf", "x", "p0"), ("arith.addf", "p0", "x")) if bias else ("x",)):
        return act
    if scalar is None or bias or not isinstance(inner, tuple) or len(inner) != 3:
        return None
    if inner[0] == "arith.addf" and "x" in inner[1:] and \
            type(inner[2 if inner[1] == "x" else 1]) is float:
        scalar.append(inner[2 if inner[1] == "x" else 1])
        return act
    if inner[0] == "arith.subf" and inner[1] == "x" and type(inner[2]) is float:
        scalar.append(-inner[2])
        return act
    return None


def _epilogue_around(em, op, c, bias_dim: int, after_dim, acc):
    """(epilogue, acc) of product `op` writing `c` (see [Note: epilogues]): a bias
    broadcast along c's `bias_dim` into c right before it (then erased, and the product
    overwrites: acc 0), and a bias add along `after_dim` (None: none) and/or an
    activation after it (_gemm_epilogue). The epilogue: (generic after or None, bias or
    None, activation (a name of ACTS), the output, c), or None."""
    zero = em.consts.get((0, A.i32))
    init = broadcast_before(op, c, bias_dim) if acc is not zero else None
    if init is not None:
        bias = init.dps_inputs[0]
        init.erase()
        acc = zero = em.i32(0)
    epi = _gemm_epilogue(op, c, after_dim, init is not None)
    if epi is not None and epi[3] is not c and zero is not acc:
        v = epi[3].defining_op
        if v is not None and v.name in _VIEWS and not epi[3].has_uses():
            v.erase()   # the output's reshape _gemm_epilogue made
        epi = None      # c's old value is read: the product must write c
    if epi is None and acc is zero:
        res = _residual_after(op, c, None if init is not None else after_dim)
        if res is not None:     # accumulate into the residual's buffer (it is the output)
            epi, acc = (res[0], res[3], res[1], res[2]), em.i32(1)
    if init is not None:
        epi = (None, bias, "none", c) if epi is None else (epi[0], bias, epi[2], epi[3])
    return (None if epi is None else (*epi, c)), acc


def _in_block_after(o, anchor) -> bool:
    """Whether op `o` (or the op of `anchor`'s block it is nested in) comes after op
    `anchor` in its block."""
    while o is not None and o.parent is not anchor.parent:
        o = o.parent_op
    return o is not None and o is not anchor and anchor.is_before_in_block(o)


def _before(o, anchor) -> bool:
    """Whether op `o` (or the op of `anchor`'s block it is nested in) comes before op
    `anchor` in its block."""
    while o is not None and o.parent is not anchor.parent:
        o = o.parent_op
    return o is not None and o is not anchor and o.is_before_in_block(anchor)


def _residual_after(op, c, n_dim=None):
    """(generic, act, r, bias or None) when the op after product `op` (past allocs,
    reads of globals and deallocs of other buffers) is an elementwise generic computing
    act(c + r) or act(c + r + bias) in any order (act one of ACTS, "none" too) of c and a
    residual r, both buffers of c's type read as the identity does (so of its sizes),
    into a buffer d of that type, and the product may accumulate into r (see [Note:
    residual epilogues]): c, r and d allocs of op's block; c used by nothing else but
    deallocs; r by ops before `op` (views of it read only there), size reads, the generic
    and deallocs after it; d by nothing before the generic. The bias (only with `n_dim`,
    c's last dim, its N): a contiguous f32 vector along it, or a constant (a float: ViT's
    and BERT's x + 0.0 + r, HF's zero biases folded). Then r takes d's place (d's uses
    read r, r's deallocs and d's alloc go). Else None."""
    from ..dialects.memref_layout import is_identity_layout
    from .cpu_kernel_abi import ACTS
    g = _op_after(op, c)
    if not _elementwise(g) or c not in g.dps_inputs or \
            type(c.type) is not A.MemRefType or not is_identity_layout(c.type):
        return None
    scalars = _scalar_leaves(g, (c,))
    args, maps = g.body.args, g.indexing_maps_list()
    rest = [i for i, a in enumerate(args[:g.num_dps_inputs()]) if a not in scalars]
    if len(rest) not in (2, 3) or n_dim is not None and n_dim != len(c.type.shape) - 1:
        return None
    ci = g.dps_inputs.index(c)
    rest.remove(ci)
    ri, d = rest[0], g.dps_inits[0]
    r = g.dps_inputs[ri]
    if len(rest) == 2:      # r, and a bias vector along N: which is which
        if r.type != c.type:
            ri = rest[1]
            r = g.dps_inputs[ri]
        bi = rest[1] if ri == rest[0] else rest[0]
        if n_dim is None or not _bias_along(g.dps_inputs[bi], maps[bi], c, n_dim) or \
                not (_ready_before(g.dps_inputs[bi], op) or
                     _hoisted_global(g.dps_inputs[bi], op)):
            return None
    if r is c or d is c or d is r or r.type != c.type or d.type != c.type or \
            not identity_on(maps[ci], c.type) or not identity_on(maps[ri], c.type) or \
            not maps[-1].is_identity():
        return None
    for v in (c, r, d):
        a = v.defining_op
        if a is None or a.name != "memref.alloc" or a.parent is not op.parent:
            return None
    if any(u.owner is not op and u.owner is not g and u.owner.name != "memref.dealloc"
           for u in c.uses):
        return None
    for u in r.uses:
        o = u.owner
        if o is g or o.name == "memref.dim" or \
                o.name == "memref.dealloc" and _in_block_after(o, g):
            continue
        if o.parent is not op.parent or not o.is_before_in_block(op) or any(
                type(x.type) is A.MemRefType and any(not _before(v.owner, op)
                                                     for v in x.uses)
                for x in o.results):
            return None     # read after op (which overwrites it), or a view read there
    if any(u.owner is not g and not _in_block_after(u.owner, g) for u in d.uses):
        return None
    leaves = {args[ci]: "x", args[ri]: "p0", **scalars}
    if len(rest) == 2:
        leaves[args[bi]] = "p1"
    found = _yield_activation(g, leaves, ACTS)
    terms = _sum_terms(found[1]) if found is not None else None
    if terms is None or sorted(t for t in terms if type(t) is str) != \
            (["p0", "p1", "x"] if len(rest) == 2 else ["p0", "x"]):
        return None
    consts = [t for t in terms if type(t) is float]
    if len(consts) > 1 or consts and (n_dim is None or c.type.shape[n_dim] == A.DYNAMIC):
        return None
    bias = g.dps_inputs[bi] if len(rest) == 2 else consts[0] if consts else None
    for u in list(r.uses):
        if u.owner.name == "memref.dealloc":
            u.owner.erase()
    alloc = d.defining_op
    d.replace_all_uses_with(r)
    alloc.erase()
    return g, found[0], r, bias


def _sum_terms(t):
    """The terms of tree `t` when it is a sum (arith.addf, and arith.subf of a float:
    x - c is x + -c exactly) of leaves and floats, else None."""
    if not isinstance(t, tuple):
        return [t]
    if t[0] == "arith.subf" and type(t[2]) is float:
        left = _sum_terms(t[1])
        return None if left is None else left + [-t[2]]
    if t[0] != "arith.addf":
        return None
    a, b = _sum_terms(t[1]), _sum_terms(t[2])
    return None if a is None or b is None else a + b


def _bias_along(b, bmap, c, n_dim: int) -> bool:
    """Buffer `b` read by map `bmap` is a bias vector along c's dim `n_dim`: a contiguous
    f32 vector of its static size, read along that loop."""
    from ..dialects.memref_layout import is_identity_layout
    return type(b.type) is A.MemRefType and b.type.element_type == A.f32 and \
        len(b.type.shape) == 1 and b.type.shape[0] == c.type.shape[n_dim] and \
        b.type.shape[0] != A.DYNAMIC and is_identity_layout(b.type) and \
        len(bmap.results) == 1 and getattr(bmap.results[0], "position", None) == n_dim


def _epilogue_args(em, epi, bias_flag: int, out):
    """The epilogue's kernel arguments: the bias (`out` when none: never read) and the
    flags, `bias_flag` for a bias, the activation's code."""
    flags = epi_flags(bias_flag if epi[1] is not None else 0, epi[2])
    return [em.pointer(epi[1] if epi[1] is not None else out), em.i32(flags)]


def _defined_before(v, op) -> bool:
    d = v.defining_op
    if d is None:
        return True     # a block argument (of the function or a region around op)
    return d.parent is op.parent and d.is_before_in_block(op)


def _ready_before(v, op) -> bool:
    """Whether `v` can be used before `op`: defined before it, or a memref.alloc after it
    (in its block) whose operands are, or a subview of such a value, which then move
    before it."""
    if _defined_before(v, op):
        return True
    a = v.defining_op
    if a is not None and a.name == "memref.subview" and a.parent is op.parent and \
            all(_defined_before(x, op) for x in a.operands[1:]) and \
            _ready_before(a.operands[0], op):     # a view of such an alloc
        a.detach()
        op.parent.insert_before(op, a)
        return True
    if a is None or a.name != "memref.alloc" or a.parent is not op.parent or \
            not all(_defined_before(x, op) for x in a.operands):
        return False
    a.detach()
    op.parent.insert_before(op, a)
    return True


def _lower_contraction(ct: Contraction, weights, choose, on_call) -> str:
    op = ct.op
    em = _Emit(op)
    a, b, c = ct.operands
    acc = _accumulate(em, op, c)
    pa, _, pc = ct.pos

    def extent(d):
        return em.size(a, pa[d]) if d in ct.k else em.size(c, pc[d])

    def static(dims, dynamic_as=None):
        """The product of the extents of `dims`: an int, or None if one is dynamic (or
        with each dynamic extent taken as `dynamic_as`)."""
        r = 1
        for d in dims:
            t, i = (a, pa[d]) if d in ct.k else (c, pc[d])
            n = t.type.shape[i]
            if n == A.DYNAMIC:
                if dynamic_as is None:
                    return None
                n = dynamic_as
            r *= n
        return r

    def stride(x, d):
        p = ct.pos[x][d]
        return 0 if p is None else em.stride(ct.operands[x], p)

    def product(dims):
        r = 1
        for d in dims:
            r = em.mul(r, extent(d))
        return r
    packed = weights.packed(ct)
    if packed is not None:  # B the same for every batch: loops around the packed kernel
        # (but for those of one step: a [1, S, K] . [K, N] product is 2-D, and so may take
        # an epilogue)
        ct.loops, ct.batch = sorted((d for d in ct.loops + ct.batch if static([d]) != 1),
                                    key=lambda d: pc[d]), []
    # An elementwise bias add and/or ReLU after a product on packed weights: the kernel's
    # epilogue, writing the generic's output (c then unused) when c is overwritten.
    # And a bias broadcast into c before it (its init): the epilogue adds it instead.
    epi = None
    if packed is not None and not ct.loops and len(ct.n) == 1 and (static(ct.k) or 0) > 0:
        epi, acc = _epilogue_around(em, op, c, pc[ct.n[0]], pc[ct.n[0]], acc)
    if epi is not None:
        c = epi[3]      # the output: c's type, so sizes and strides read alike
        if type(epi[1]) is float:   # a constant bias: N copies of it, one global
            epi = (epi[0], weights.splat(epi[1], c.type.shape[pc[ct.n[0]]], b, op),
                   *epi[2:])
    batch = product(ct.batch)
    M, N, K = product(ct.m), product(ct.n), product(ct.k)
    lda = stride(0, ct.m[-1]) if ct.m else K
    ldb = stride(1, ct.n[-1] if ct.trans_b else ct.k[-1])
    ldc = em.stride(c, pc[ct.m[-1]]) if ct.m else N
    loops = [(extent(d), [em.bytes(stride(x, d)) if ct.pos[x][d] is not None else None
                          for x in range(3)]) for d in ct.loops]
    make = em.address if loops else em.pointer   # with loops: offsets added inside
    addresses = [make(v) for v in (a, b if packed is None else packed, c)]
    pa_, pb_, pc_ = (_Pointer(x) for x in range(3))   # made last, inside the loops
    dims = {"batch": ct.batch, "M": ct.m, "N": ct.n, "K": ct.k}
    shape = _shape(dims, [static(x) for x in dims.values()],
                   {n: static(x, 1) for n, x in dims.items()})
    if epi is not None:
        name = "strata_sgemm_packed_epi_f32"
        args = [M, N, K, pa_, lda, pb_, pc_, ldc, acc] + _epilogue_args(em, epi, EPI_BIAS, c)
    elif packed is not None:
        name = "strata_sgemm_packed_f32"
        args = [M, N, K, pa_, lda, pb_, pc_, ldc, acc]
    elif ct.batch:
        name = f"strata_sgemm{'_nt' if ct.trans_b else ''}_batched_f32"
        last = ct.batch[-1]   # the batch dims collapse onto the innermost one's strides
        args = [batch, M, N, K, pa_, lda, stride(0, last), pb_, ldb, stride(1, last), pc_,
                ldc, stride(2, last), acc]
    else:
        name = "strata_sgemm_nt_f32" if ct.trans_b else "strata_sgemm_f32"
        args = [M, N, K, pa_, lda, pb_, ldb, pc_, ldc, acc]
    args = [x if type(x) is _Pointer else em.to_i64(x) for x in args]
    word = choose(name, *shape)
    args.append(em.i64(word))
    for extent_d, steps in loops:
        iv = em.loop(extent_d)
        addresses = [p if s is None else em.add(p, em.v("arith.muli", [iv, s], [A.index])[0])
                     for p, s in zip(addresses, steps)]
    if loops:
        addresses = [em.ptr(p) for p in addresses]
    args = [addresses[x.operand] if type(x) is _Pointer else x for x in args]
    call = em.call(name, args)
    if on_call is not None:
        on_call(call, name, *shape, word)
    op.erase()
    if epi is not None and epi[0] is not None:
        epi[0].erase()
        for u in list(epi[4].uses):     # the reshape the generic read c through
            if u.owner.name in _VIEWS and not u.owner.results[0].has_uses():
                u.owner.erase()
        _drop_if_dead(epi[4])
    if packed is not None:
        weights.release(b)
    return name


def global_data(g):
    """The initial value of constant memref.global `g` as a NumPy array, or None (an
    initial value of another kind)."""
    from ..ir.dense import DenseElementsAttr, DenseResourceElementsAttr
    init = g.properties["initial_value"]
    if isinstance(init, DenseResourceElementsAttr):
        return init.array()
    if isinstance(init, DenseElementsAttr):
        return init.array
    return None


def _read_global(g, before):
    """A memref.get_global of global `g`, inserted before op `before` (at its location)."""
    read = op_class("memref.get_global").create(
        [], [g.properties["type"].value],
        {"name": A.SymbolRefAttr(g.properties["sym_name"].value)}, None, (), 0, before.loc)
    before.parent.insert_before(before, read)
    return read.results[0]


class _Weights:
    """Constant 2-D f32 globals packed for the kernels (one packed global per global and
    layout), and the clean-up of what no longer reads the originals."""

    __slots__ = ("module", "nr", "mr", "globals", "made", "dropped", "_taken", "scaled",
                 "_memory")

    def __init__(self, module, nr: int, mr: int = 0):
        self.module, self.nr, self.mr = module, nr, mr
        self._memory = None     # the PanelMemory the new globals' data lies in
        self.globals = None
        # {convolution: its packed filter scaled at run time} ([Note: channel scales])
        self.scaled = {}
        self.made = {}
        self.dropped = []
        self._taken = None      # the module's symbol names, once (then the new ones)

    def _global_of(self, value):
        """The constant memref.global (with its data) `value` is read from, or None."""
        get = value.defining_op
        if get is None or get.name != "memref.get_global":
            return None
        if self.globals is None:
            from ..ir.symbol_table import symbol_name
            body = self.module.regions[0].blocks[0]
            self.globals = {symbol_name(o): o for o in body.ops if o.name == "memref.global"}
        g = self.globals.get(get.properties["name"].root)
        if g is None or "constant" not in g.properties or \
                g.properties.get("initial_value") is None:
            return None
        return g

    def global_under(self, value):
        """(the buffer `value` is a whole view of, or itself; the constant global with its
        data that buffer is read from, or None)."""
        src = _whole_root(value)
        return src, self._global_of(src)

    def packed(self, ct: Contraction):
        """A value holding packed(B) of contraction `ct` (B^T transposed first), or None:
        B must be a constant global, or a whole view of one (reshapes keep the order of
        the elements), walked only by the K and N loops, K's dims before N's (after them
        when B is transposed)."""
        from ..dialects.memref_layout import is_identity_layout
        b, pb = ct.b, ct.pos[1]
        t = b.type
        if not self.nr or not t.has_static_shape or not is_identity_layout(t):
            return None
        walked = {pb[d] for d in ct.k + ct.n}
        if any(n != 1 and i not in walked for i, n in enumerate(t.shape)) or \
                (pb[ct.k[0]] < pb[ct.n[0]]) == ct.trans_b:
            return None
        src, g = self.global_under(b)
        if g is None:
            return None
        k = 1
        for d in ct.k:
            k *= t.shape[pb[d]]
        key = (g, ct.trans_b, k)
        new = self.made.get(key)
        if new is None:
            data = global_data(g)
            if data is None:
                return None
            data = data.reshape((-1, k) if ct.trans_b else (k, -1))
            b2 = data.T if ct.trans_b else data
            new = self.made[key] = self._new_global(g, pack_b_panels(
                b2, self.nr, self.empty(-(-b2.shape[1] // self.nr) * self.nr * k)))
        return _read_global(new, src.defining_op)

    def filter_panels(self, w, groups: int = 1, taps=None, transposed: bool = False):
        """A value holding convolution filter `w` (F x C x KH x KW, a constant global or a
        whole view of one; G x F x C x KH x KW with `groups` G > 1, each group packed on
        its own) packed as MR-row panels (pack_a_panels), or None: no panel rows set, or
        not a constant. `taps` (kh0, kh1, kw0, kw1): only the window's rows kh0..kh1 and
        columns kw0..kw1 ([Note: dead taps]). `transposed` (ungrouped): NR-filter
        panels of the K x F transpose instead (pack_b_panels: the layout of
        strata_conv2d_nchw_packed_t_f32)."""
        if not self.mr or not w.type.has_static_shape:
            return None
        src, g = self.global_under(w)
        if g is None:
            return None
        key = (g, "filter", self.mr, groups, taps, transposed)
        new = self.made.get(key)
        if new is None:
            data = global_data(g)
            if data is None:
                return None
            rows = w.type.shape[0] * (w.type.shape[1] if groups > 1 else 1)
            if taps is not None:
                kh0, kh1, kw0, kw1 = taps
                data = data.reshape(rows, *w.type.shape[-3:])[:, :, kh0:kh1 + 1,
                                                              kw0:kw1 + 1]
            data = data.reshape(rows, -1)
            k = data.shape[1]
            if transposed:
                packed = pack_b_panels(data.T, self.nr,
                                       self.empty(-(-rows // self.nr) * self.nr * k))
            else:
                fg = rows // groups
                packed = pack_a_panels(data, self.mr, groups,
                                       self.empty(groups * -(-fg // self.mr) * self.mr * k))
            new = self.made[key] = self._new_global(g, packed, "_panels")
        return _read_global(new, src.defining_op)

    def empty(self, n: int):
        """n new float32 where the compiled model will bind them ([Note: packed weights
        written once] in cpu_kernel_abi.py)."""
        if self._memory is None:
            total = self._weight_bytes()
            self._memory = PanelMemory(huge=total <= PANEL_HUGE_BYTES, expect=total)
        return self._memory.empty(n)

    def _weight_bytes(self) -> int:
        """Bytes of the module's constant globals with data (its weights)."""
        total = 0
        for o in self.module.regions[0].blocks[0].ops:
            if o.name == "memref.global" and "constant" in o.properties and \
                    o.properties.get("initial_value") is not None:
                t = o.properties["type"].value
                if t.has_static_shape:
                    n = 1
                    for d in t.shape:
                        n *= d
                    total += n * max(getattr(t.element_type, "width", 64), 8) // 8
        return total

    def _new_global(self, g, data, suffix: str = "_packed"):
        import numpy as np

        from ..ir.dense import BLOBS, DenseResourceElementsAttr
        from ..ir.symbol_table import symbol_name
        taken = self._taken
        if taken is None:
            taken = self._taken = {symbol_name(o) for o in
                                   self.module.regions[0].blocks[0].ops}
        name = f"{symbol_name(g)}{suffix}"
        n = 0
        while name in taken:
            n += 1
            name = f"{symbol_name(g)}{suffix}_{n}"
        taken.add(name)
        # the packed array itself, read-only, is the blob (tobytes copied every weight
        # once more: BERT-base's 340 MB); data made elsewhere is copied into panel memory
        flat = data.reshape(-1) if data.dtype == np.float32 and data.flags.c_contiguous \
            and in_panel_memory(data) else None
        if flat is None:
            flat = self.empty(data.size)
            np.copyto(flat, np.asarray(data).reshape(-1), casting="same_kind")
        flat.flags.writeable = False
        handle = BLOBS.add(name, memoryview(flat.view(np.uint8)), alignment=64)
        t = A.MemRefType([data.size], A.f32)
        props = {"sym_name": A.StringAttr(name), "sym_visibility": A.StringAttr("private"),
                 "type": A.TypeAttr(t), "constant": A.UnitAttr(),
                 "initial_value": DenseResourceElementsAttr(
                     A.RankedTensorType([data.size], A.f32), handle),
                 "alignment": A.IntegerAttr(64, A.i64)}
        new = op_class("memref.global").create([], [], props, None, (), 0, g.loc)
        g.parent.insert_before(g, new)
        self.globals[name] = new
        return new

    def splat(self, value: float, n: int, like, before):
        """A value read before op `before` holding `n` copies of `value` (a constant
        global, one per value and size), named after constant global `like` is read from
        (an epilogue's constant bias, [Note: epilogues])."""
        import numpy as np
        key = ("splat", np.float32(value).tobytes(), n)
        new = self.made.get(key)
        if new is None:
            new = self.made[key] = self._new_global(self.global_under(like)[1],
                                                    np.full(n, value, np.float32), "_bias")
        return _read_global(new, before)

    def release(self, b):
        """After `b`'s product no longer reads it: drop its views and get_global if
        unused."""
        while not b.has_uses():
            op = b.defining_op
            if op.name == "memref.get_global":
                self.dropped.append(op.properties["name"].root)
                op.erase()
                return
            b = op.operands[0]
            op.erase()

    def finish(self):
        """Erase the original globals nothing reads any more."""
        if not self.dropped:
            return
        read = {o.properties["name"].root for o in self.module.walk()
                if o.name == "memref.get_global"}
        for name in set(self.dropped) - read:
            g = self.globals.get(name)
            if g is not None:
                g.erase()


def _nchw_call(em, op, layout, weights, acc):
    """(kernel, arguments but the tile word, dims, window, packed filter or None, the
    epilogue or None) of an NCHW-family convolution: conv_2d_nchw_fchw, conv_1d_ncw_fcw
    ([Note: 1-D convolutions]) or conv_2d_ngchw_gfchw ([Note: grouped convolutions] in
    kernels_conv.py)."""
    x, w, y = op.operands
    s = em.size
    grouped = layout == "ngchw"
    if layout == "ncw":
        (sw,), (dw,) = op._window_values("strides"), op._window_values("dilations")
        sh = dh = 1
    else:
        sh, sw = op._window_values("strides")
        dh, dw = op._window_values("dilations")
    wk = w.type.shape[2 if grouped else 1:]         # C, KH, KW (C, KW in 1-D)
    groups = w.type.shape[0] if grouped else 1
    # a filter scaled at run time ([Note: channel scales]) is packed whole; otherwise
    # the taps every output reads in the padding are left out of the packed filter
    panels, taps = weights.scaled.pop(op, None), None
    transposed = False
    if panels is None and groups != A.DYNAMIC:
        taps = _live_taps(op, x, y, grouped) if layout != "ncw" else None
        # a small image: the product transposed ([Note: small images, filters along the
        # vectors] in kernels_conv.py)
        transposed = layout == "nchw" and A.DYNAMIC not in y.type.shape[1:] and \
            w.type.has_static_shape and conv_transposed(
                w.type.shape[0], y.type.shape[2], y.type.shape[3],
                (*w.type.shape[2:], sh, sw), weights.nr)
        panels = weights.filter_panels(w, groups, taps, transposed)
        if panels is None:
            taps, transposed = None, False
    epi = None
    if panels is not None and w.type.has_static_shape and _prod(wk) > 0:
        # the bias broadcast into y before it and a ReLU after it: the epilogue's
        # (see [Note: epilogues]; the bias is per filter, a row of the GEMM)
        epi, acc = (_grouped_epilogue(em, op, y, acc) if grouped else
                    _epilogue_around(em, op, y, 1, None, acc))
    out = y if epi is None else epi[3]
    # the padded copy the input is: the kernel reads its source ([Note: padding in the
    # packing] in kernels_conv.py), unless the copy is what flat rows read (the
    # transposed kernel has none)
    pad = _padding_of(op, x, (y, out), grouped)
    if pad is not None and not transposed and \
            _flat_on_copy(op, x, y, grouped, acc, em, weights.nr):
        pad = None
    pt = pl = 0
    if pad is not None:
        x, pt, pl = pad[0], pad[1], pad[2]
    # the batch norm + ReLU making the input: the kernel's prologue ([Note: input
    # prologues] in kernels_conv.py)
    pro = None
    if layout == "nchw" and panels is not None and pad is None and taps is None and \
            not transposed:
        pro = _input_prologue(op, x, out, weights)
        if pro is not None:
            x = pro[0]
    if layout == "ncw":     # one image row: H = KH = OH = 1, H's stride the W extent
        dims = [s(x, 0), s(x, 1), 1, s(x, 2), s(w, 0), 1, s(w, 2), 1, s(y, 2)]
        strides = [em.stride(x, 0), em.stride(x, 1), s(x, 2)]
    elif grouped and pad is not None:   # the source: N x (G*C) x H x W
        sc = em.stride(x, 1)
        dims = [s(x, 0), s(w, 0), s(w, 2), s(x, 2), s(x, 3), s(w, 1), s(w, 3), s(w, 4),
                s(y, 3), s(y, 4)]
        strides = [em.stride(x, 0), em.mul(dims[2], sc), sc, em.stride(x, 2)]
    elif grouped:           # N, G, C, H, W, F, KH, KW, OH, OW
        dims = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(x, 4), s(w, 1), s(w, 3), s(w, 4),
                s(y, 3), s(y, 4)]
        strides = [em.stride(x, i) for i in range(4)]
    else:                   # N, C, H, W, F, KH, KW, OH, OW
        dims = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), s(w, 0), s(w, 2), s(w, 3), s(y, 2),
                s(y, 3)]
        strides = [em.stride(x, i) for i in range(3)]
    xp = None
    if taps is not None:    # [Note: dead taps]: the window's live rows and columns
        kh0, kh1, kw0, kw1 = taps
        at = 3 if grouped else 2    # H's place in dims; W, then KH, KW at +1, +3, +4
        dims[at + 3], dims[at + 4] = kh1 - kh0 + 1, kw1 - kw0 + 1
        if pad is not None:
            pt, pl = pt - kh0 * dh, pl - kw0 * dw
        else:   # the padded buffer itself, read from its row kh0*dh, column kw0*dw
            dims[at], dims[at + 1] = dims[at] - kh0 * dh, dims[at + 1] - kw0 * dw
            # (x: a static-sized alloc, or its expand: its H stride static)
            shift = kh0 * dh * strides[-1] + kw0 * dw
            xp = em.ptr(em.add(em.address(x), em.bytes(shift)))
    window = [sh, sw, dh, dw, pt, pl]
    args = dims + window + [xp or em.pointer(x)] + strides + [
        em.pointer(w if panels is None else panels), em.pointer(out), em.stride(out, 0), acc]
    kind = "_packed_epi" if epi is not None else "_packed" if panels is not None else ""
    if pro is not None:
        kind = "_packed_pro"
    elif transposed:
        kind = "_packed_t"
    name = f"strata_conv2d_nchw{'_grouped' if grouped else ''}{kind}_f32"
    if epi is not None:
        args += _epilogue_args(em, epi, EPI_ROW_BIAS, out)
    elif transposed:        # no epilogue: the bias never read
        args += [em.pointer(out), em.i32(0)]
    elif pro is not None:   # no epilogue: the bias never read
        args += [em.pointer(out), em.i32(0)]
    if pro is not None:
        scale, shift = (em.v("memref.get_global", [], [g.properties["type"].value],
                             {"name": A.SymbolRefAttr(g.properties["sym_name"].value)})[0]
                        for g in pro[2:4])
        args += [em.pointer(scale), em.pointer(shift), em.i32(PRO_ACTS[pro[4]])]
        em.prologue = pro
    return name, args, dims, window, panels, epi, pad


# [Note: input prologues, the match]
# A packed 1x1, stride-1, unpadded NCHW convolution whose input x is a fresh buffer
# written whole by an elementwise generic g just before (x read by nothing but g, the
# convolution and its deallocs) computing act(a[c] * x0 + b[c]) from one image x0 of
# x's shape (read element for element), a and b computed from constant f32 vectors
# along the channels (and constant scalars: a batch norm's weight, bias, mean and
# variance), act one of PRO_ACTS (recognized by `_activation_of`: NaN kept, so a
# select-based or maxnumf ReLU is not), reads x0 itself with the kernel's prologue:
# scale = a, shift = b, computed now in float64 into two new constant globals, finite
# (a division by a zero variance is not folded: x * inf + -inf is not (x - m) / 0). x0
# must keep its values from g to the convolution (nothing in between uses its buffer;
# its deallocs there move after the call) and not share a buffer with the convolution's
# output (the kernel reads x0 while it writes). g and x are erased.


def _along_channels(t, m, c: int) -> bool:
    """Map `m` reads memref type `t` of `c` elements by the channel loop (d1) alone: a
    [C] vector, or ONNX's broadcast [C, 1, 1] / [1, C, 1, 1] initializers."""
    if t.shape.count(A.DYNAMIC) or _prod(t.shape) != c or len(m.results) != len(t.shape):
        return False
    dims = [r for r in m.results if type(r) is AffineDimExpr]
    return len(dims) == 1 and dims[0].position == 1 and all(
        (type(r) is AffineDimExpr) or (type(r) is AffineConstantExpr and r.value == 0 and
                                       t.shape[i] == 1) for i, r in enumerate(m.results))


def _input_prologue(op, x, out, weights):
    """(x0, generic, scale global, shift global, act, deallocs to move) when input `x`
    of packed NCHW convolution `op` (writing `out`) is the batch norm + activation of
    [Note: input prologues, the match]; else None."""
    import numpy as np
    _, w, _ = op.operands
    if not (w.type.has_static_shape and tuple(w.type.shape[2:]) == (1, 1) and
            tuple(op._window_values("strides")) == (1, 1)):
        return None
    a = x.defining_op
    if a is None or a.name != "memref.alloc" or x.type.shape[1] == A.DYNAMIC:
        return None
    users = [u.owner for u in x.uses]
    gens = [u for u in users if u is not op and u.name != "memref.dealloc"]
    if len(gens) != 1 or not _elementwise(gens[0]):
        return None
    g = gens[0]
    if g.parent is not op.parent or not _before(g, op) or g.dps_inits[0] is not x:
        return None
    maps = g.indexing_maps_list()
    if not _walks_whole(maps[-1], x.type):
        return None
    args = g.body.args
    leaves = _scalar_leaves(g, ())
    x0, chans = None, []
    for i, b in enumerate(g.dps_inputs):
        if args[i] in leaves:
            continue
        if b is x or type(b.type) is not A.MemRefType or b.type.element_type != A.f32:
            return None
        if tuple(b.type.shape) == tuple(x.type.shape) and x0 is None and \
                identity_on(maps[i], b.type):
            x0 = b
            leaves[args[i]] = "x"
            continue
        if not _along_channels(b.type, maps[i], x.type.shape[1]):
            return None
        data = weights.global_under(b)[1]
        data = global_data(data) if data is not None else None
        if data is None:
            return None
        leaves[args[i]] = f"p{len(chans)}"
        chans.append(data.reshape(-1).astype(np.float64))
    found = None if x0 is None or args[-1].has_uses() else \
        _yield_activation(g, leaves, PRO_ACTS)
    if found is None:
        return None
    act, inner = found
    values = {f"p{i}": c for i, c in enumerate(chans)}
    c = x.type.shape[1]
    zero = np.broadcast_to(_evaluate(inner, dict(values, x=np.zeros(1))), (c,))
    scale = np.broadcast_to(_evaluate(inner, dict(values, x=np.ones(1))), (c,)) - zero
    if not (np.isfinite(scale).all() and np.isfinite(zero).all()):
        return None
    if _view_root(x0) is _view_root(out):
        return None
    moved = _freed_between(g, op, [x0])
    if moved is None:
        return None
    src = weights.global_under(w)[1]
    if src is None:
        return None
    return (x0, g, weights._new_global(src, scale.astype(np.float32), "_pro_scale"),
            weights._new_global(src, zero.astype(np.float32), "_pro_shift"), act, moved)


# [Note: dead taps]
# A dilated convolution on a small map reads some rows (or columns) of its window in the
# padding for every output: DeepLab's ASPP 3x3 at dilation 12 or 18 on a 14x14 or 33x33
# map, where every tap but the centre row and column, or all but the centre, is such a
# "dead" tap (ih = oh*sh + kh*dh - pt outside [0, H) for every oh). With a padded copy
# folded ([Note: padding in the packing] in kernels_conv.py), a constant filter and
# static sizes, the live rows kh0..kh1 and columns kw0..kw1 (an interval: ih grows with
# kh) are all the kernel is given: the filter packed with those taps only (K smaller by
# KH*KW / live taps), the window KH' = kh1 - kh0 + 1, the padding pt - kh0*dh (the same
# for W); a 3x3 whose live tap is the centre alone becomes a 1x1 (with padding 0 and
# stride 1: the GEMM on the image itself). When the padded copy must stay after all
# (the product's epilogue writes its source), the kernel reads the padded buffer from
# its row kh0*dh and column kw0*dw. Not when a new padding would be negative, or no tap
# is live (then every output is the bias).


def _live_taps(op, x, y, grouped: bool):
    """(kh0, kh1, kw0, kw1), the live rows and columns of the window of NCHW or grouped
    convolution `op` reading `x`, a padded copy _padding_of folds, into `y` when some
    are dead ([Note: dead taps]); else None."""
    pad = _padding_of(op, x, (y,), grouped)
    if pad is None:
        return None
    src, pt, pl = pad[0], pad[1], pad[2]
    sh, sw = op._window_values("strides")
    dh, dw = op._window_values("dilations")
    h, w_ = src.type.shape[-2:]
    kh, kw = op.operands[1].type.shape[-2:]
    oh, ow = y.type.shape[-2:]
    if A.DYNAMIC in (h, w_, kh, kw, oh, ow) or not x.type.has_static_shape and \
            A.DYNAMIC in x.type.shape[-2:]:
        return None

    def live(n, k, o, st, d, p):
        ts = [t for t in range(k) if t * d - p <= n - 1 and (o - 1) * st + t * d - p >= 0]
        return (ts[0], ts[-1]) if ts and ts[0] * d <= p else None
    rows, cols = live(h, kh, oh, sh, dh, pt), live(w_, kw, ow, sw, dw, pl)
    if rows is None or cols is None or (rows, cols) == ((0, kh - 1), (0, kw - 1)):
        return None
    return rows + cols


def _flat_on_copy(op, x, y, grouped: bool, acc, em, nr: int) -> bool:
    """Whether NCHW or grouped convolution `op`, overwriting `y` (`acc` the constant 0),
    runs as flat rows on its padded input `x` ([Note: flat rows] in kernels_conv.py:
    stride 1, narrow rows, few filters): the padded copy is then kept, the flat rows
    reading it as one contiguous row per channel (folded, the kernel packs row by row:
    ResNeXt's grouped 3x3 at 7x7 measured 1.15x slower)."""
    from .cpu_kernel_abi import conv_flat_rows
    if not nr or acc is not em.consts.get((0, A.i32)) or \
            op._window_values("strides") != [1, 1]:
        return False
    f = op.operands[1].type.shape[1 if grouped else 0]
    oh, ow = y.type.shape[-2:]
    shs = x.type.shape[-1]
    return A.DYNAMIC not in (f, oh, ow, shs) and conv_flat_rows(f, oh, ow, shs, nr)


def _prod(xs) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


def _grouped_epilogue(em, op, y, acc):
    """The epilogue of grouped convolution `op` writing `y` (N x G x F x OH x OW), as
    _epilogue_around finds it for ungrouped ones, through the views the grouped lowering
    puts around it: a (G, F) bias (a view of the per-filter vector) broadcast into y
    before it (past view and scalar ops), a ReLU after it reading y's collapse to
    N x (G*F) x OH x OW into a buffer of that type. Returns ((generic after or None, bias
    or None, activation, output, y) or None, acc)."""
    zero = em.consts.get((0, A.i32))
    init = None
    if acc is not zero:
        g = op.prev
        while g is not None and (g.name in _VIEWS or not g.regions and not any(
                type(t) is A.MemRefType for t in g.operand_types)):
            g = g.prev
        if _elementwise(g) and g.num_dps_inputs() == 1 and g.dps_inits[0] is y:
            b = g.dps_inputs[0]
            bmap, ymap = g.indexing_maps_list()
            ops = list(g.body.ops)
            if type(b.type) is A.MemRefType and \
                    tuple(b.type.shape) == tuple(y.type.shape[1:3]) and \
                    A.DYNAMIC not in b.type.shape and b.type.element_type == A.f32 and \
                    b.type.layout is None and ymap.is_identity() and \
                    [getattr(r, "position", None) for r in bmap.results] == [1, 2] and \
                    len(ops) == 1 and ops[0].operands[0] is g.body.args[0]:
                init = g
    after = _grouped_activation_after(op, y, init, em)
    if after is not None and init is None and acc is not zero:
        after = None        # y's old value is read: the product must write y
    if init is None and after is None:
        return None, acc
    bias = None
    if init is not None:
        bias = init.dps_inputs[0]
        init.erase()
        acc = em.i32(0)
    if after is None:
        return (None, bias, "none", y, y), acc
    return (after[0], bias, after[1], after[0].dps_inits[0], y), acc


def _grouped_activation_after(op, y, init, em=None):
    """(generic, act): the elementwise generic after grouped convolution `op` (past
    allocs, deallocs of other buffers, views and size reads: the view of y it reads, and
    bufferization's dead ones of other buffers) computing act(c) (act
    of ACTS but "none") of c, y itself or its collapse to N x (G*F) x OH x OW, into
    another buffer of c's type; y an alloc that nothing but `op`, `init`, that view and
    deallocs uses. Else None."""
    if y.defining_op is None or y.defining_op.name != "memref.alloc":
        return None
    views = [u.owner for u in y.uses if u.owner.name == "memref.collapse_shape"]
    c = views[0].results[0] if len(views) == 1 else y
    g = op.next
    while g is not None and (g.name in ("memref.alloc", *_SIZES, *_VIEWS) or (
            g.name == "memref.dealloc" and g.operands[0] is not y)):
        g = g.next
    if not _elementwise(g) or g.num_dps_inputs() != 1 + len(_scalar_leaves(g, (c,))) or \
            g.dps_inputs[0] is not c or \
            len(views) > 1 or any(u.owner is not g and u.owner.name not in _SIZES
                                  for u in c.uses if c is not y) or \
            any(u.owner not in (op, init, g, *views) and u.owner.name != "memref.dealloc"
                and u.owner.name not in _SIZES for u in y.uses):
        return None
    d = g.dps_inits[0]
    maps = g.indexing_maps_list()
    if d is c or d.type != c.type or not identity_on(maps[0], c.type) or \
            not maps[1].is_identity():
        return None
    from .cpu_kernel_abi import ACTS
    act = _epilogue_activation(g, {g.body.args[0]: "x", **_scalar_leaves(g, (c,))}, ACTS,
                               False)
    if act is None or act == "none":
        return None
    # a dynamic output's sizes, read after op (memref.dim of c), move before it with
    # its alloc; sizes that cannot (read through a view of a buffer allocated after op)
    # are y's own, read before op (d is of y's type, the generic's maps identities)
    a = d.defining_op
    if a is not None and a.name == "memref.alloc":
        dyn = [i for i, n in enumerate(d.type.shape) if n == A.DYNAMIC]
        for j, v in enumerate(a.operands):
            if not _hoist(v, op):
                if c is not y or j >= len(dyn) or em is None:
                    return None
                a.set_operand(j, em.size(y, dyn[j]))
    return (g, act) if _ready_before(d, op) else None


def _hoist(v, op) -> bool:
    """Whether `v` is defined before `op`, or is made so: a view or size read (of
    values that can be) after it in its block moves before it."""
    if _defined_before(v, op):
        return True
    o = v.defining_op
    if o is None or o.parent is not op.parent or o.name not in _VIEWS | _SIZES or \
            o.regions or not all(_hoist(x, op) for x in o.operands):
        return False
    o.detach()
    op.parent.insert_before(op, o)
    return True


def _lower_conv(op, layout, weights, choose, on_call) -> str:
    em = _Emit(op)
    x, w, y = op.operands
    acc = _accumulate(em, op, y)
    s = em.size
    epi = panels = pad = None
    if layout in ("nchw", "ncw", "ngchw"):
        name, args, dims, window, panels, epi, pad = _nchw_call(em, op, layout, weights,
                                                                acc)
    else:
        sh, sw = op._window_values("strides")
        dh, dw = op._window_values("dilations")
        window = [sh, sw, dh, dw]
        name = "strata_conv2d_nhwc_f32"
        f = s(w, 3) if layout == "hwcf" else s(w, 0)
        kh, kw = (s(w, 0), s(w, 1)) if layout == "hwcf" else (s(w, 1), s(w, 2))
        # N, H, W, C, F, KH, KW, OH, OW
        dims = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), f, kh, kw, s(y, 1), s(y, 2)]
        args = dims + [sh, sw, dh, dw, em.pointer(x), em.stride(x, 0), em.stride(x, 1),
                       em.stride(x, 2), em.pointer(w), em.i32(layout == "fhwc"),
                       em.pointer(y), em.stride(y, 0), acc]
    names = ("N", "H", "W", "C") if layout in ("hwcf", "fhwc") else \
        ("N", "G", "C", "H", "W") if layout == "ngchw" else ("N", "C", "H", "W")
    # (NHWC's window has no padding: zip stops at its dw)
    shape = _shape(names + ("F", "KH", "KW", "OH", "OW", "sh", "sw", "dh", "dw", "pt",
                            "pl"), dims + window)
    if layout in ("hwcf", "fhwc"):
        for d in shape:
            d["ftrans"] = int(layout == "fhwc")
    word = choose(name, *shape)
    args.append(em.i64(word))
    call = em.call(name, args)
    if on_call is not None:
        on_call(call, name, *shape, word)
    op.erase()
    _drop_padded_copy(call, pad)
    pro = em.prologue
    if pro is not None:     # the normalized copy is not made
        xn = pro[1].dps_inits[0]
        pro[1].erase()
        _drop_if_dead(xn)
        for d in pro[5]:
            d.detach()
            call.parent.insert_after(call, d)
    if epi is not None and epi[0] is not None:
        epi[0].erase()
        for u in list(epi[4].uses):     # the view of y the generic read (grouped)
            if u.owner.name in _VIEWS and not u.owner.results[0].has_uses():
                u.owner.erase()
        _drop_if_dead(epi[4])
    if panels is not None:
        weights.release(w)
    return name


# ---------------------------------------------------------------- depthwise convolutions
# (see [Note: depthwise convolutions])

DEPTHWISE = "depthwise"
DEPTHWISE_KERNEL = "strata_dwconv2d_nchw_f32"
DEPTHWISE_NHWC_KERNEL = "strata_dwconv2d_nhwc_f32"


def match_depthwise(op) -> bool:
    """Whether `op` is a depthwise convolution a depthwise kernel computes:
    linalg.depthwise_conv_2d_nchw_chw (strata_dwconv2d_nchw_f32) or
    linalg.depthwise_conv_2d_nhwc_hwc (strata_dwconv2d_nhwc_f32) on f32 memrefs, the
    input's and output's innermost dim (rows; channels) unit-stride, the filter
    contiguous."""
    from ..dialects.memref import is_contiguous_row_major
    if op.name not in _DEPTHWISE_OPS or not isinstance(op, StructuredOp) or \
            len(op.operands) != 3:
        return False
    if not all(_f32_memref(t) for t in op.operand_types) or not _is_mac_body(op):
        return False
    i, f, o = op.operand_types
    return _unit_inner(i) and _unit_inner(o) and is_contiguous_row_major(f)


_DEPTHWISE_OPS = ("linalg.depthwise_conv_2d_nchw_chw", "linalg.depthwise_conv_2d_nhwc_hwc")


_CMPF_NAMES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
               "uge", "ult", "ule", "une", "uno", "true")
_EXPR_OPS = frozenset(("arith.addf", "arith.mulf", "arith.divf", "arith.subf", "arith.negf",
                       "arith.maximumf", "arith.minimumf", "arith.select", "arith.cmpf",
                       "math.exp", "math.sqrt", "math.rsqrt", "math.erf", "math.tanh",
                       "math.absf", "math.powf", "math.copysign"))


def _expr(v, leaves: dict, body, depth: int = 0):
    """The scalar expression computing `v` in generic `body` as a tree: a leaf's name
    (`leaves`: {block arg: name}), a float (an f32 constant), or (op name, operands...)
    ((op name, predicate, a, b) for arith.cmpf); None when it holds anything else."""
    if v in leaves:
        return leaves[v]
    d = v.defining_op
    if d is None or depth > 16:
        return None
    if d.name == "arith.constant":
        val = d.properties.get("value")
        return float(val.value) if isinstance(val, A.FloatAttr) and \
            val.type == A.f32 else None
    if d.name not in _EXPR_OPS or d.parent is not body:
        return None
    kids = [_expr(x, leaves, body, depth + 1) for x in d.operands]
    if any(k is None for k in kids):
        return None
    if d.name == "arith.cmpf":
        return (d.name, _CMPF_NAMES[int(d.properties["predicate"].value)], *kids)
    return (d.name, *kids)


def _uses_x(t) -> bool:
    return t == "x" or (isinstance(t, tuple) and any(_uses_x(a) for a in t[1:]))


def _affine_in_x(t) -> bool:
    """Tree `t` is a * x + b for values a, b that do not depend on x (x's coefficient
    possibly per channel): built by adding, subtracting, negating, and multiplying and
    dividing by x-free trees."""
    if t == "x":
        return True
    if not isinstance(t, tuple):
        return False
    op, args = t[0], t[1:]
    with_x = [a for a in args if _uses_x(a)]
    if len(with_x) != 1 or not _affine_in_x(with_x[0]):
        return False
    if op in ("arith.addf", "arith.subf", "arith.mulf", "arith.negf"):
        return True
    return op == "arith.divf" and _uses_x(args[0])


def _cmpf(pred: str, a, b):
    """arith.cmpf's predicate `pred` on float64 arrays (u...: true where either is NaN)."""
    import numpy as np
    nan = np.isnan(a) | np.isnan(b)
    if pred in ("false", "true"):
        return np.full(np.broadcast(a, b).shape, pred == "true")
    if pred in ("ord", "uno"):
        return ~nan if pred == "ord" else nan
    base = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
            "le": np.less_equal, "ne": lambda x, y: np.less(x, y) | np.greater(x, y)}
    r = base[pred[1:]](a, b)
    return r | nan if pred[0] == "u" else r


def _evaluate(t, values: dict):
    """Tree `t` evaluated in float64 NumPy, its leaves' values in `values` (arith and
    math ops with their semantics: maximumf / minimumf propagate NaN)."""
    import math

    import numpy as np
    if isinstance(t, float):
        return np.float64(t)
    if isinstance(t, str):
        return values[t]
    if t[0] == "arith.cmpf":
        return _cmpf(t[1], _evaluate(t[2], values), _evaluate(t[3], values))
    a = [_evaluate(x, values) for x in t[1:]]
    fns = {"arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
           "arith.divf": np.divide, "arith.negf": np.negative, "arith.maximumf": np.maximum,
           "arith.minimumf": np.minimum, "math.exp": np.exp, "math.sqrt": np.sqrt,
           "math.rsqrt": lambda v: 1 / np.sqrt(v), "arith.select": np.where,
           "math.erf": np.vectorize(math.erf, otypes=[np.float64]), "math.tanh": np.tanh,
           "math.absf": np.abs, "math.powf": np.power, "math.copysign": np.copysign}
    with np.errstate(all="ignore"):
        return fns[t[0]](*a)


# [Note: recognizing activations]
# An epilogue's generic computes act(inner) with inner an affine function of the
# product's element x (x itself, x + bias, a[c] * x + b[c]). `_activation_of` finds
# inner among the affine subtrees around x's occurrences (the smallest one all of them
# share and outside which no other input is read), then evaluates the body with inner
# as its variable u on sample points (a grid over [-12, 12], large |u|, +-inf, NaN,
# +-0) in float64 and compares it with each activation of ACTS (act_reference in
# cpu_kernel_abi.py: ONNX's definitions), NaN where NaN, within 1e-5. So every
# algebraic form the ONNX and torch lowerings and exporters give (hardswish as
# x * hardsigmoid(x) or x * relu6(x + 3) / 6, GELU's x / sqrt 2 or x * (1 / sqrt 2),
# tanh GELU with x * x * x or pow(x, 3), relu6 as the clip's selects or max / min) is
# recognized by the function it computes, by one recognizer for the GEMM, convolution
# and depthwise epilogues; a body whose NaN or infinity handling differs (a ReLU as
# select(x > 0, x, 0) gives 0 for NaN) is not. Zeros compare equal whatever their sign:
# relu6 as selects keeps a -0.0 that max / min make +0.0, max(x, -0.0) keeps one that
# relu's max(x, +0.0) does not; the kernel computes one of the two (as onnxruntime's and
# torch's fused activations, which do not keep the sign of a zero either).

_ACT_SAMPLES = []


def _act_samples():
    if not _ACT_SAMPLES:
        import numpy as np
        _ACT_SAMPLES.append(np.concatenate([
            np.linspace(-12, 12, 193), [-1e4, -100, -40, -20, 20, 40, 100, 1e4, np.inf,
                                        -np.inf, np.nan, 0.0, -0.0, 1e-6, -1e-6]]))
    return _ACT_SAMPLES[0]


def _chains(t, above=(), out=None):
    """For each occurrence of the leaf "x" in tree `t`, its enclosing subtrees that are
    affine in x, innermost first (up to the first that is not)."""
    out = [] if out is None else out
    if t == "x":
        chain = [t]
        for s in reversed(above):
            if not _affine_in_x(s):
                break
            chain.append(s)
        out.append(chain)
    elif isinstance(t, tuple):
        for k in (t[2:] if t[0] == "arith.cmpf" else t[1:]):
            _chains(k, above + (t,), out)
    return out


def _replace(t, inner, leaf: str):
    """Tree `t` with each copy of subtree `inner` replaced by `leaf`."""
    if t == inner:
        return leaf
    if not isinstance(t, tuple):
        return t
    head = 2 if t[0] == "arith.cmpf" else 1
    return t[:head] + tuple(_replace(k, inner, leaf) for k in t[head:])


def _leaves(t, out=None) -> set:
    out = set() if out is None else out
    if isinstance(t, str):
        out.add(t)
    elif isinstance(t, tuple):
        for k in (t[2:] if t[0] == "arith.cmpf" else t[1:]):
            _leaves(k, out)
    return out


def _activation_of(tree, names):
    """(act, inner) when expression tree `tree` (leaves "x", per-channel inputs "p<i>",
    floats) computes act(inner) for an activation `act` of `names` (names of ACTS) and
    inner affine in x (see [Note: recognizing activations]); else None."""
    import numpy as np

    from .cpu_kernel_abi import act_reference
    chains = _chains(tree)
    if not chains:
        return None
    u = _act_samples()
    for inner in [s for s in chains[0] if all(s in c for c in chains[1:])]:
        body = _replace(tree, inner, "u")
        if _leaves(body) != {"u"}:
            continue
        got = np.broadcast_to(_evaluate(body, {"u": u}), u.shape)
        for name in sorted(names, key=lambda n: n != "none"):
            want = act_reference(name, u)
            nan = np.isnan(want)
            if np.array_equal(nan, np.isnan(got)) and np.allclose(
                    got[~nan], want[~nan], rtol=1e-5, atol=1e-6):
                return name, inner
    return None


def _walks_whole(m, t) -> bool:
    """Map `m` reads memref type `t` element for element as the loops go: the identity,
    but for the constant 0 in dims of size 1 (ONNX's broadcast form of a batch of one)."""
    if len(m.results) != len(t.shape) or m.num_dims != len(t.shape):
        return False
    return all((type(r) is AffineDimExpr and r.position == i) or
               (type(r) is AffineConstantExpr and r.value == 0 and t.shape[i] == 1)
               for i, r in enumerate(m.results))


def _depthwise_epilogue(op, y, has_bias: bool, weights=None, cdim: int = 1):
    """(generic, how, activation, destination) when the op after depthwise convolution
    `op` (past allocs, reads of globals, and deallocs of other buffers) is an elementwise
    computing act(y), act(y + bias[c]) or act(a[c] * y + b[c]) (one of DW_ACTS; bias,
    and the vectors a and b are computed from, constant-size f32 vectors along the
    channels; a single-element constant global, such as Clip's bounds read from
    initializers, counts as its value) into y or a buffer of y's type, y then being an
    alloc nothing else reads (the channels: y's dim `cdim`); else None. `how`: None,
    ("bias", the bias buffer: unless `has_bias`), or ("affine", the tree of a[c] * x +
    b[c] (an unfolded batch norm), its leaves "p<i>": the generic's inputs in `chans`, a
    list) for the caller to fold into the filter."""
    from ..dialects.memref_layout import is_identity_layout
    g = op.next
    while g is not None and (g.name in ("memref.alloc", "memref.get_global") or (
            g.name == "memref.dealloc" and g.operands[0] is not y)):
        g = g.next
    if not _elementwise(g):
        return None
    d = g.dps_inits[0]
    maps = g.indexing_maps_list()
    args = g.body.args
    if y in g.dps_inputs:
        yi = g.dps_inputs.index(y)
    elif g.num_dps_inputs() == 0 and d is y:    # in place: y's elements read as its init
        yi = len(args) - 1
    else:
        return None
    if d.type != y.type or not _walks_whole(maps[yi], y.type) or \
            not _walks_whole(maps[-1], y.type):
        return None
    if d is not y and (y.defining_op is None or y.defining_op.name != "memref.alloc" or any(
            u.owner is not g and u.owner is not op and u.owner.name != "memref.dealloc"
            for u in y.uses)):
        return None
    leaves, chans = {args[yi]: "x", **_scalar_leaves(g, (y,))}, []
    for i, b in enumerate(g.dps_inputs):
        if i == yi or args[i] in leaves:
            continue
        bmap = maps[i]
        if b is y or b is d or type(b.type) is not A.MemRefType or \
                b.type.element_type != A.f32 or tuple(b.type.shape) != (y.type.shape[cdim],) or \
                b.type.shape[0] == A.DYNAMIC or not is_identity_layout(b.type) or \
                len(bmap.results) != 1 or getattr(bmap.results[0], "position", None) != cdim \
                or not (_ready_before(b, op) or _hoisted_global(b, op)):
            return None
        leaves[args[i]] = f"p{len(chans)}"
        chans.append(b)
    ops = list(g.body.ops)
    if not ops or ops[-1].name != "linalg.yield" or len(ops[-1].operands) != 1:
        return None
    tree = _expr(ops[-1].operands[0], leaves, g.body)
    if tree is None:
        return None
    from .cpu_kernel_abi import DW_ACTS
    found = _activation_of(tree, DW_ACTS)
    if found is None:
        return None
    act, inner = found
    how = None
    if inner != "x":
        pair = (inner[1:] if inner[0] == "arith.addf" and len(inner) == 3 else ())
        bias = next((c for c in pair if isinstance(c, str) and c.startswith("p")), None)
        if "x" in pair and bias is not None and not has_bias:
            how = ("bias", chans[int(bias[1:])])
        else:
            how = ("affine", inner, chans)
    if (act == "none" and how is None) or not _ready_before(d, op):
        return None
    return g, how, act, d


def _hoisted_global(v, op) -> bool:
    """Whether `v` is a memref.get_global after `op` in its block, then moved before it
    (it reads a symbol: nothing in between changes it)."""
    g = v.defining_op
    if g is None or g.name != "memref.get_global" or g.parent is not op.parent or \
            g.operands:
        return False
    g.detach()
    op.parent.insert_before(op, g)
    return True


def _fold_affine(em, op, weights, w, bias, inner, chans, channels_last: bool = False):
    """(filter, bias) values for act(a[c] * (conv(x, w) + bias[c]) + b[c]) as
    act(conv(x, w * a) + (a * bias + b)), computed now into new constant globals (w,
    the bias if any and the vectors a, b are computed from must be constants), or
    None. The filter is C x KH x KW, or KH x KW x C when `channels_last`."""
    import numpy as np
    src, g = weights.global_under(w)
    data = global_data(g) if g is not None else None
    if data is None:
        return None
    values = {}
    for i, c in enumerate(chans):
        cg = weights.global_under(c)[1]
        cd = global_data(cg) if cg is not None else None
        if cd is None:
            return None
        values[f"p{i}"] = cd.reshape(-1).astype(np.float64)
    nc = w.type.shape[-1 if channels_last else 0]
    b0 = np.zeros(nc)
    if bias is not None:
        bg = weights.global_under(bias)[1]
        bd = global_data(bg) if bg is not None else None
        if bd is None:
            return None
        b0 = bd.reshape(-1).astype(np.float64)
    zero = _evaluate(inner, dict(values, x=np.zeros(1)))
    scale = _evaluate(inner, dict(values, x=np.ones(1))) - zero
    scale, zero = (np.broadcast_to(v, b0.shape) for v in (scale, zero))
    if not (np.isfinite(scale).all() and np.isfinite(zero).all()):
        return None
    filt = (data.reshape(-1, nc).astype(np.float64) * scale[None, :] if channels_last else
            data.reshape(nc, -1).astype(np.float64) * scale[:, None])
    new_w = weights._new_global(g, filt.astype(np.float32).reshape(-1), "_scaled")
    new_b = weights._new_global(g, (scale * b0 + zero).astype(np.float32), "_bias")

    def read(glob):
        return em.v("memref.get_global", [], [glob.properties["type"].value],
                    {"name": A.SymbolRefAttr(glob.properties["sym_name"].value)})[0]
    return read(new_w), read(new_b)


def _zero_fill(o) -> bool:
    """`o` fills its last operand with +0.0 (linalg.fill, or a linalg.map of no input
    yielding the constant)."""
    import math
    if o.name == "linalg.fill" and len(o.operands) == 2:
        c = o.operands[0].defining_op
    elif o.name == "linalg.map" and len(o.operands) == 1:
        ops = list(o.regions[0].blocks[0].ops)
        if len(ops) != 1 or not ops[0].operands:
            return False
        c = ops[0].operands[0].defining_op
    else:
        return False
    val = c.properties.get("value") if c is not None and c.name == "arith.constant" \
        else None
    return isinstance(val, A.FloatAttr) and val.value == 0.0 and \
        math.copysign(1.0, val.value) > 0


def _padding_of(op, x, written=(), grouped: bool = False, channels_last: bool = False):
    """(source, pad top, pad left, ops to erase, deallocs to move after `op`) when `x`,
    the input of convolution `op` (depthwise, NCHW, 1-D NCW), is a fresh buffer filled
    with +0.0 and holding a copy of `source` at offsets (0, 0, pt, pl) ((0, 0, pl) in
    1-D: pt is 0), read by nothing but `op` (a padded copy the kernel need not make), and
    `source` is no view of a buffer the kernel writes (`written`: bufferization may give
    the convolution's output the buffer the copy was made from, the padded copy then
    being the only one of the old values); else None. A `grouped` convolution's `x` is
    such a buffer's expand_shape to N x G x C x H x W (read by nothing but `op`), the
    source then N x (G*C) x H x W. A `channels_last` one (NHWC) holds the copy at
    offsets (0, pt, pl, 0)."""
    from ..dialects.memref import strides_and_offset
    alloc, expand = x.defining_op, None
    if grouped:
        if alloc is None or alloc.name != "memref.expand_shape" or \
                alloc.reassociation_indices != [[0], [1, 2], [3], [4]] or \
                not all(u.owner is op for u in x.uses):
            return None
        expand, x = alloc, alloc.operands[0]
        alloc = x.defining_op
    if alloc is None or alloc.name != "memref.alloc" or alloc.parent is not op.parent:
        return None
    sv, fills, deallocs = None, [], []
    for u in x.uses:
        o = u.owner
        if o is op or o is expand:
            continue
        if o.name == "memref.dealloc":
            deallocs.append(o)
        elif o.name == "memref.subview" and sv is None:
            sv = o
        elif _zero_fill(o) and o.operands[-1] is x and o.parent is op.parent and \
                o.is_before_in_block(op):
            fills.append(o)
        else:
            return None
    # (dynamic sizes are the copy's source's: a dynamic batch; offsets and strides static)
    if sv is None or not fills or sv.operands[0] is not x:
        return None
    offsets = list(sv.properties["static_offsets"].value)
    rank = len(x.type.shape)
    lead = [offsets[0], offsets[-1]] if channels_last else offsets[:2]
    if rank not in (3, 4) or len(offsets) != rank or lead != [0, 0] or \
            (channels_last and rank != 4) or min(offsets) < 0 or \
            list(sv.properties["static_strides"].value) != [1] * rank:
        return None
    uses = list(sv.results[0].uses)
    if len(uses) != 1 or uses[0].owner.name != "memref.copy":
        return None
    copy = uses[0].owner
    src = copy.operands[0]
    if copy.operands[1] is not sv.results[0] or copy.parent is not op.parent or \
            not copy.is_before_in_block(op) or not all(f.is_before_in_block(copy)
                                                       for f in fills) or \
            not _f32_memref(src.type) or tuple(src.type.shape) != \
            tuple(sv.results[0].type.shape) or not _unit_inner(src.type) or \
            strides_and_offset(src.type) is None:
        return None
    if any(_view_root(v) is _view_root(src) for v in written):
        return None
    # the source must stay as copied until op reads it
    moved = _freed_between(copy, op, (src,))
    if moved is None:
        return None
    pt, pl = (0, offsets[2]) if rank == 3 else \
        (offsets[1], offsets[2]) if channels_last else (offsets[2], offsets[3])
    return src, pt, pl, [copy, *fills, sv, *deallocs, *([expand] if expand else []),
                         alloc], moved


def _drop_padded_copy(call, pad) -> None:
    """After `call` reads the source of padded copy `pad` (_padding_of's) in its place:
    the source's deallocs move after the call, the fill, copy and buffer go."""
    if pad is None:
        return
    for d in reversed(pad[4]):
        d.detach()
        call.parent.insert_after(call, d)
    for o in pad[3]:
        o.erase()


def _view_root(v):
    """The buffer `v` is a view of (through any chain of view ops), or `v` itself."""
    from .bufferize.deallocation import VIEW_OPS
    d = v.defining_op
    while d is not None and d.name in VIEW_OPS and d.operands:
        v = d.operands[0]
        d = v.defining_op
    return v


def _freed_between(first, last, bufs):
    """The deallocs of bufs[0]'s buffer (bufs[0] or the buffer it is a view of) between
    ops `first` and `last` (of one block), which may move after `last`, when nothing else
    there uses any of `bufs` or of the buffers they view, or another view of those (none
    writes them, or frees them, before `last` reads them; size reads may: a dynamic
    batch's memref.dim); else None."""
    roots = [_view_root(b) for b in bufs]
    moved, o = [], first.next
    while o is not last:
        if o.name == "memref.dealloc" and o.operands and \
                _view_root(o.operands[0]) is roots[0]:
            moved.append(o)
        elif o.name in _SIZES:
            pass
        elif any(_view_root(v) is r for inner in o.walk() for v in inner.operands
                 for r in roots):
            return None
        o = o.next
    return moved


def _lower_depthwise(op, weights) -> str:
    """The call of strata_dwconv2d_nchw_f32 (strata_dwconv2d_nhwc_f32 for a channel-last
    one) replacing depthwise convolution `op`, with the padding, a bias broadcast before
    and an activation after folded in (see [Note: depthwise convolutions])."""
    from .cpu_kernel_abi import DW_ACT_SHIFT, DW_ACTS, DW_BIAS
    nhwc = op.name == "linalg.depthwise_conv_2d_nhwc_hwc"
    cdim = 3 if nhwc else 1
    em = _Emit(op)
    x, w, y = op.operands
    acc = _accumulate(em, op, y)
    zero = em.i32(0)
    bias = None
    if acc is not zero:
        init = broadcast_before(op, y, cdim, _VIEWS)
        if init is not None:
            bias = init.dps_inputs[0]
            init.erase()
            acc = zero
    epi = _depthwise_epilogue(op, y, bias is not None, weights, cdim)
    if epi is not None and epi[3] is not y and acc is not zero:
        epi = None          # y's old value is read: the kernel must write y
    filt, released = w, []
    if epi is not None and epi[1] is not None and epi[1][0] == "affine":
        # an unfolded batch norm (torch's): folded into the filter and the bias now
        folded = _fold_affine(em, op, weights, w, bias, epi[1][1], epi[1][2], nhwc) \
            if acc is zero else None
        if folded is None:
            epi = None
        else:
            released = [w, *epi[1][2]] + ([bias] if bias is not None else [])
            filt, bias = folded
    out, act = y, "none"
    if epi is not None:
        out, act = epi[3], epi[2]
        if epi[1] is not None and epi[1][0] == "bias":
            bias = epi[1][1]
    pad = _padding_of(op, x, (y, out), channels_last=nhwc)
    pt = pl = 0
    if pad is not None:
        x, pt, pl = pad[0], pad[1], pad[2]
    sh, sw = op._window_values("strides")
    dh, dw = op._window_values("dilations")
    s, st = em.size, em.stride
    out_ptr = em.pointer(out)
    flags = (DW_BIAS if bias is not None else 0) | (DW_ACTS[act] << DW_ACT_SHIFT)
    # (both kernels take the image's sizes and strides in its dims' order, then the
    # window's and the output's rows and columns; NCHW: N, C, H, W; NHWC: N, H, W, C)
    sizes = ((w, 0), (w, 1), (y, 1), (y, 2)) if nhwc else ((w, 1), (w, 2), (y, 2), (y, 3))
    args = [s(x, 0), s(x, 1), s(x, 2), s(x, 3), *(s(v, i) for v, i in sizes),
            sh, sw, dh, dw, pt, pl, em.pointer(x), st(x, 0), st(x, 1), st(x, 2),
            em.pointer(filt), out_ptr, st(out, 0), st(out, 1), st(out, 2), acc,
            em.pointer(bias) if bias is not None else out_ptr, em.i32(flags), em.i64(0)]
    kernel = DEPTHWISE_NHWC_KERNEL if nhwc else DEPTHWISE_KERNEL
    call = em.call(kernel, args)
    op.erase()
    _drop_padded_copy(call, pad)
    if epi is not None:
        epi[0].erase()
        if out is not y:
            _drop_if_dead(y)
    for v in released:      # the constants folded: gone where nothing else reads them
        weights.release(v)
    return kernel


# ---------------------------------------------------------------- channel scales
# (squeeze-excitation's multiply, see [Note: channel scales])


def _scaled_channels(g):
    """(y, t) when generic `g` computes z = y * e(t) over a batch of one, y an image
    (1 x C x H x W) read element for element and e an expression of t alone, a value per
    channel (1 x C x 1 x 1, read as (0, c, 0, 0)); else None."""
    if not _elementwise(g) or g.num_dps_inputs() != 2:
        return None
    z = g.dps_inits[0]
    zt = z.type
    if type(zt) is not A.MemRefType or len(zt.shape) != 4 or zt.shape[0] != 1 or \
            zt.element_type != A.f32 or zt.layout is not None:
        return None
    maps = g.indexing_maps_list()
    args = g.body.args
    ops = list(g.body.ops)
    if len(ops) < 2 or ops[-1].name != "linalg.yield" or ops[-2].name != "arith.mulf" or \
            ops[-1].operands[0] is not ops[-2].results[0] or \
            not _walks_whole(maps[2], zt):
        return None
    for yi in (0, 1):
        y, t = g.dps_inputs[yi], g.dps_inputs[1 - yi]
        tm = maps[1 - yi]
        a, b = ops[-2].operands
        e = b if a is args[yi] else a if b is args[yi] else None
        if e is None or y.type != zt or not _walks_whole(maps[yi], zt) or \
                type(t.type) is not A.MemRefType or \
                tuple(t.type.shape) != (1, zt.shape[1], 1, 1) or \
                [getattr(r, "position", None) if type(r) is AffineDimExpr else r.value
                 for r in tm.results] != [0, 1, 0, 0] or \
                type(tm.results[1]) is not AffineDimExpr:
            continue
        if e is not args[1 - yi] and _expr(e, {args[1 - yi]: "t"}, g.body) is None:
            continue
        return y, t
    return None


def fold_channel_scales(module, weights=None) -> int:
    """Rewrite each z = y * e(t) (a per-channel scale, _scaled_channels) read only by a
    1x1 stride-1 NCHW convolution of F filters into that convolution of y with its
    filter scaled, w'[f, c] = w[f, c] * e(t[c]), when F <= H x W (the filter then the
    smaller; with `weights` packing filters, its packed panels are scaled); else e(t) is
    only computed once per channel first (see [Note: channel scales]). Returns how many
    folded."""
    count = 0
    for g in [o for o in module.walk() if o.name == "linalg.generic"]:
        found = _scaled_channels(g)
        if found is None:
            continue
        y, t = found
        z = g.dps_inits[0]
        conv, deallocs = None, []
        for u in z.uses:
            o = u.owner
            if o is g:
                continue
            if o.name == "memref.dealloc":
                deallocs.append(o)
            elif o.name == "linalg.conv_2d_nchw_fchw" and conv is None and \
                    o.operands[0] is z and o.operands[1] is not z:
                conv = o
            else:
                conv = None
                break
        if conv is None or conv.parent is not g.parent or not g.is_before_in_block(conv) or \
                z.defining_op is None or z.defining_op.name != "memref.alloc":
            continue
        w = conv.operands[1]
        wt = w.type
        if type(wt) is not A.MemRefType or wt.element_type != A.f32 or \
                tuple(wt.shape[2:]) != (1, 1) or wt.shape[1] != z.type.shape[1] or \
                any(n == A.DYNAMIC for n in wt.shape) or \
                conv._window_values("strides") != [1, 1] or not _defined_before(w, g):
            continue
        em = _Emit(g)
        yi = list(g.dps_inputs).index(y)
        if wt.shape[0] > z.type.shape[2] * z.type.shape[3]:
            # more filters than pixels: scaling the image is the less work
            et = _channel_values_first(em, g, yi, t)
            if et is not None:
                free = op_class("memref.dealloc").create([et], [], None, None, (), 0, g.loc)
                g.parent.insert_after(g, free)
            continue
        # y must stay as it is until the convolution reads it
        moved = _freed_between(g, conv, (y, z))
        if moved is None:
            continue
        et = _channel_values_first(em, g, yi, t)
        # (only for a convolution the kernels take: one left to the loops must read w')
        panels = weights.filter_panels(w) if weights is not None and \
            match_conv(conv) == "nchw" else None
        if panels is None:
            # the generic now scales the filter into a new buffer w'
            scaled = _scale_into(em, g, yi, w, list(wt.shape), None)
            conv.set_operand(1, scaled)
        else:
            # ... or its packed panels (P x C x MR: _scaled_panels), the convolution
            # keeping its packed kernel and epilogue
            mr = weights.mr
            shape = [panels.type.shape[0] // (wt.shape[1] * mr), wt.shape[1], mr]
            scaled = _scale_into(em, g, yi, panels, shape, t.type.shape)
            weights.scaled[conv] = scaled
        conv.set_operand(0, y)
        for d in reversed(moved):
            d.detach()
            conv.parent.insert_after(conv, d)
        free = op_class("memref.dealloc").create([scaled], [], None, None, (), 0, conv.loc)
        conv.parent.insert_after(conv, free)
        if et is not None:
            free = op_class("memref.dealloc").create([et], [], None, None, (), 0, g.loc)
            g.parent.insert_after(g, free)
        _drop_if_dead(z)
        count += 1
    return count


def _scale_into(em, g, yi, src, shape, panels_of):
    """Make generic `g` (z = y * s, y its input `yi`, s per channel) compute
    src * s into a new buffer of `shape`, returned: `src` the F x C x 1 x 1 filter
    itself (`panels_of` None), or its packed panels (1-D; `panels_of` the scale's
    type), read as P x C x MR, s indexed by the middle dim."""
    from ..dialects.memref import ExpandShapeOp
    from ..ir.affine import AffineMap, AffineMapAttr
    scaled = em.v("memref.alloc", [], [A.MemRefType(shape, A.f32)],
                  {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [0, 0])})[0]
    maps = g.indexing_maps_list()
    if panels_of is None:
        maps[yi] = maps[2] = AffineMap.identity(4)
    else:
        reassoc = A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in range(3)])])
        view = ExpandShapeOp.create(
            [src], [A.MemRefType(shape, A.f32)],
            {"reassociation": reassoc, "static_output_shape": A.DenseArrayAttr(A.i64, shape)},
            None, (), 0, g.loc)
        g.parent.insert_before(g, view)
        src = view.results[0]
        maps[yi] = maps[2] = AffineMap.identity(3)
        maps[1 - yi] = AffineMap(3, 0, [AffineConstantExpr(0), AffineDimExpr(1),
                                        AffineConstantExpr(0), AffineConstantExpr(0)])
        its = list(g.properties["iterator_types"].value)
        g.properties["iterator_types"] = A.ArrayAttr(its[:3])
    g.properties["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
    g.set_operand(yi, src)
    g.set_operand(2, scaled)
    return scaled


def _channel_values_first(em, g, yi, t):
    """When generic `g` (z = y * e(t), y its input `yi`) computes an expression e of t,
    not t itself: compute e(t) once per channel into a new 1 x C x 1 x 1 buffer (a copy
    of g over t alone, before g) and make g multiply by it; returns that buffer, or None
    (e is t). Scaling an F x C filter, g computed e F times per channel: 221k sigmoids
    for EfficientNet-B0's 1152 x 192 projection (see [Note: channel scales])."""
    args = g.body.args
    mul = list(g.body.ops)[-2]
    k = 1 if mul.operands[0] is args[yi] else 0
    if mul.operands[k] is args[1 - yi]:
        return None
    et = em.v("memref.alloc", [], [t.type],
              {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [0, 0])})[0]
    first = g.clone()
    em.block.insert_before(g, first)
    # the copy: ins(t, t) outs(et), yielding e(t); its y argument is unused
    from ..ir.affine import AffineMap, AffineMapAttr
    first.set_operand(yi, t)
    first.set_operand(2, et)
    first.properties["indexing_maps"] = A.ArrayAttr([AffineMapAttr(AffineMap.identity(4))] * 3)
    fmul = list(first.body.ops)[-2]
    list(first.body.ops)[-1].set_operand(0, fmul.operands[k])
    fmul.erase()
    # g: y * et
    g.set_operand(1 - yi, et)
    e = mul.operands[k]
    mul.set_operand(k, args[1 - yi])
    _erase_dead_body(g.body, e)
    return et


def _erase_dead_body(body, v) -> None:
    """Erase the op defining `v` in `body` and, in turn, those only it used, once unused."""
    work = [v]
    while work:
        d = work.pop().defining_op
        if d is None or d.parent is not body or any(r.has_uses() for r in d.results):
            continue
        ins = list(d.operands)
        d.erase()
        work.extend(ins)


def _declare(module, names) -> None:
    """`func.func private @name(...)` for each kernel called, unless declared."""
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    have = {symbol_name(o) for o in body.ops if o.name == "func.func"}
    first = body.first
    for name in sorted(names - have):
        ftype = A.FunctionType([_arg_type(t) for t in KERNEL_SIGNATURES[name]], [])
        decl = op_class("func.func").create(
            [], [], {"sym_name": A.StringAttr(name), "function_type": A.TypeAttr(ftype),
                     "sym_visibility": A.StringAttr("private")}, None, (), 1, module.loc)
        if first is None:
            body.append(decl)
        else:
            body.insert_before(first, decl)


def _default_tile(kernel, shape, hint) -> int:
    return 0


def lower_to_microkernels(module, weight_panel_width: int = 0, choose_tile=None,
                          on_call=None, filter_panel_rows: int = 0) -> set:
    """Rewrite the matched ops in `module` into kernel calls (see the module doc);
    returns the names of the kernels called. `weight_panel_width` > 0: pack constant
    weights for panels of that many columns (see [Note: batches and weights]).
    `choose_tile(kernel, shape, hint)` gives each call's tile word (see [Note: tile
    words]); default: 0, the kernels' defaults. `on_call(call op, kernel, shape, hint,
    word)` is told of each call made (the autotuner replaces their words later).
    `filter_panel_rows` > 0: pack constant NCHW convolution filters (but 1x1 stride-1
    ones) into panels of that many rows for strata_conv2d_nchw_packed_f32."""
    choose = choose_tile or _default_tile
    used = set()
    weights = _Weights(module, weight_panel_width, filter_panel_rows)
    fold_channel_scales(module, weights)
    todo = []
    for op in module.walk():
        if not isinstance(op, StructuredOp):
            continue
        ct = match_contraction(op)
        if ct is not None:
            todo.append((op, ct))
            continue
        layout = match_conv(op)
        if layout is not None:
            todo.append((op, layout))
        elif match_depthwise(op):
            todo.append((op, DEPTHWISE))
    for op, how in todo:
        if how is DEPTHWISE:
            used.add(_lower_depthwise(op, weights))
            continue
        used.add(_lower_contraction(how, weights, choose, on_call)
                 if isinstance(how, Contraction) else
                 _lower_conv(op, how, weights, choose, on_call))
    weights.finish()
    if used:
        _declare(module, used)
    return used


def kernels_used(module) -> set:
    """The kernel names a (lowered) module declares: what the CPU target must link."""
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    return {n for n in (symbol_name(o) for o in body.ops) if n in KERNEL_SIGNATURES}


class LinalgToMicrokernels(Pass):
    name = "strata-linalg-to-microkernels"
    summary = ("Lower f32 matmuls and 2-D convolutions on buffers to calls of the CPU "
               "GEMM kernels")
    display_name = "StrataLinalgToMicrokernelsPass"
    weight_panel_width = Option(
        int, 0, "Pack constant weights (B of a product, from a memref.global with its data) "
        "at compile time for the kernels' NR-column panels; 0: do not")
    filter_panel_rows = Option(
        int, 0, "Pack constant NCHW convolution filters (but 1x1 stride-1 ones) at compile "
        "time into the kernels' MR-row panels; 0: do not")
    tile_choice = Option(
        str, "model", "The tile word of each call: 'model' (the CPU cost model's choice "
        "for the kernels' ISA, the threads and the caches) or 'default' (0: the kernels' "
        "built-in blocking and thread split)", choices=("model", "default"))
    kernel_isa = Option(str, "", "The kernels' ISA the cost model chooses for (avx512, "
                        "avx2, sse, neon); empty or host: the host's",
                        choices=("", "host", "avx512", "avx2", "sse", "neon"))
    num_threads = Option(int, 0, "Threads the cost model chooses for; 0: the process's "
                         "default ($STRATA_NUM_THREADS, else the CPUs available)")
    cache_sizes = Option(int, [], "L1d, L2 and L3 cache sizes in KiB the cost model "
                         "chooses for; empty: the host's", is_list=True)

    # Python callers may set, on the pass object, `choose_tile(kernel, shape, hint) -> int`
    # (replacing tile-choice) and `on_call` (see lower_to_microkernels; the CPU target's
    # autotuner records the calls so).
    choose_tile = None
    on_call = None

    def run(self, op):
        choose = self.choose_tile
        if choose is None and self.tile_choice == "model":
            # The cost model belongs to the CPU target (like the kernels this pass calls);
            # it is pure Python, imported only here.
            from ..backends.cpu.cost_model import tile_chooser
            choose = tile_chooser(self.kernel_isa or None, self.num_threads,
                                  self.cache_sizes or None)
        lower_to_microkernels(op, self.weight_panel_width, choose, self.on_call,
                              self.filter_panel_rows)


from ..passes.registry import register_pass  # noqa: E402

register_pass(LinalgToMicrokernels)
