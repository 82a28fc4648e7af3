"""`strata-linalg-depthwise-channels-last`: a depthwise convolution whose image comes
channel-last through a transpose (token-major activations of a vision transformer, made
an NCHW image for the convolution and back) runs channel-last, so that both transposes
cancel.

    %t = linalg.transpose ins(%x : tensor<1x64x64x128xf32>) outs(%e0 : tensor<1x128x64x64xf32>)
             permutation = [0, 3, 1, 2]
    %p = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] { ... %zero }
    %c = linalg.depthwise_conv_2d_nchw_chw ins(%p, %w : tensor<1x128x66x66xf32>,
             tensor<128x3x3xf32>) outs(%init : tensor<1x128x64x64xf32>)
    %y = linalg.transpose ins(%c ...) outs(...) permutation = [0, 2, 3, 1]
  becomes
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { ... %zero }
    %wt = linalg.transpose ins(%w ...) outs(... tensor<3x3x128xf32>) permutation = [1, 2, 0]
    %it = linalg.generic (the init read through the permutation [0, 2, 3, 1])
    %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%p, %wt ...) outs(%it : tensor<1x64x64x128xf32>)

[Note: channel-last depthwise convolutions]
Segformer's Mix-FFN (Linear -> depthwise 3x3 -> GELU -> Linear) and the other hybrid
vision transformers keep their activations token-major, [N, H*W, C], and reshape them to
an NCHW image only for the depthwise convolution: `transpose(1, 2)` before it and
`flatten(2).transpose(1, 2)` after it. Two full copies of a large feature map with a
strided side each (Segformer-B0: 128 channels at 128x128 px, 8 MiB), and the NCHW
kernel between them; the three took 21% of Segformer-B0's time at 1 thread, the
transposes 20% alone. A depthwise convolution treats every channel alike, so it can read
the image in either layout: rooted at `linalg.depthwise_conv_2d_nchw_chw` on static
tensors whose image is a `[0, 3, 1, 2]` transpose (through a constant `tensor.pad` of
the spatial dims, which is permuted along) that nothing else reads, the pattern makes
the `linalg.depthwise_conv_2d_nhwc_hwc` on the transpose's input, its filter transposed
to [KH, KW, C] (a few hundred floats) and its init read through the permutation (a
generic that elementwise fusion merges with the bias broadcast making the init), and
gives the convolution's users the `[0, 3, 1, 2]` transpose of its result. The users'
own `[0, 2, 3, 1]` transpose then composes with it to the identity (upstream's
transpose(transpose) canonicalization, run by the pass): no transpose is left. Where
the result has other users the transpose moved from the image to the result, no worse.
On buffers the channel-last convolution is a call of strata_dwconv2d_nhwc_f32 (vectors
of channels, contiguous in image, filter and result alike; it was a loop nest LLVM
vectorized along the channels: 1 thread, 128 channels at 128x128 px, 3x3: 4.2 ms against
19.8 for transpose, NCHW kernel and transpose back). The batch may be dynamic (its size
read with tensor.dim); the other sizes must be static. It runs from 16 channels on: with fewer the vector loop is mostly
remainder, and the NCHW kernel vectorizes along the rows instead.

[Note: channel-last residual streams]
ConvNeXt keeps its residual stream NCHW but computes each block channel-last: depthwise
7x7 on the NCHW image, Transpose to NHWC, LayerNorm over the channels, the two Linears,
the layer scale, Transpose back, and the residual add in NCHW. Two transposes of the
feature map per block, and the 7x7 window runs in the NCHW kernel's generic loop (3.3 ms
at 96 channels, 56x56 px, 1 thread, against 1.1 ms channel-last). Two more patterns
make the whole stage channel-last:
- an elementwise `linalg.generic` (all loops parallel, one identity-mapped output made
  by tensor.empty, a body reading neither its output nor linalg.index) with an operand
  that is a `[0, 3, 1, 2]` transpose read only by it runs on the transposes' inputs, in
  NHWC loop order, and its result is transposed back (IREE's transpose propagation,
  sinking): each operand map is the old one with loop i renamed to loop
  `[0, 3, 1, 2][i]`, and a transposed operand reads the transpose's input at the
  permuted map. Its other operands must be smaller than the result (broadcasts: a
  per-channel scale becomes a contiguous read) or have a `[0, 2, 3, 1]` transpose
  before it (read instead); a full NCHW operand read strided would cost what the
  moved transpose saved. The residual add of block k then reads block k-1's
  channel-last add, the transpose moves down to the next depthwise convolution, and the
  first pattern cancels it there.
- a depthwise convolution on an NCHW image that is not a transpose (the 2x2
  downsampling convolution's result opening a stage), whose result is read only through
  a `[0, 2, 3, 1]` transpose, at stride 1 (image and result the same size), with a
  window the NCHW kernel has no specialized code for (not 3 or 5 wide: _NCHW_WIDTHS),
  transposes its image instead of its result and runs channel-last. The stage's first
  residual add reads that NHWC copy.
ConvNeXt-T: 18 of 18 depthwise convolutions channel-last, 44 -> 26 transposes (the
filters' and one pair per stage boundary), 1 thread 101.7 -> 82.2 ms (onnxruntime 81).
"""
from __future__ import annotations

from ...dialects.linalg import GenericOp, TransposeOp
from ...dialects.linalg.structured import StructuredOp
from ...dialects.tensor import EmptyOp, PadOp
from ...ir import attributes as A
from ...ir.builder import InsertionPoint
from ...ir.core import BlockArgument
from ...passes.pass_manager import Option, Pass
from ...rewrite.pattern import RewritePattern

__all__ = ["DepthwiseChannelsLast", "DepthwiseToChannelsLast", "channels_last_patterns"]

# Filter widths the NCHW depthwise kernel has specialized code for (kernels_depthwise's
# variants); it runs others (ConvNeXt's 7x7) in its generic loop, ~3x slower than the
# channel-last loop nest (1 thread, 96 channels at 56x56 px, 7x7: 3.3 ms against 1.1).
_NCHW_WIDTHS = (3, 5)

_TO_NCHW = [0, 3, 1, 2]
_TO_NHWC = [0, 2, 3, 1]


def _static(t) -> bool:
    """A ranked tensor whose sizes are static but for the first (a dynamic batch)."""
    return type(t) is A.RankedTensorType and A.DYNAMIC not in t.shape[1:]


def _size(rewriter, v, i, loc):
    """Dim `i` of `v`: an int, or a tensor.dim Value where it is dynamic."""
    n = v.type.shape[i]
    if n != A.DYNAMIC:
        return n
    from ...dialects.arith import ConstantOp
    from ...dialects.tensor import DimOp
    c = rewriter.insert(ConstantOp.create([], [A.index], {"value": A.IntegerAttr(i, A.index)},
                                          None, (), 0, loc)).results[0]
    return rewriter.insert(DimOp.create([v, c], [A.index], None, None, (), 0, loc)).results[0]


def _permutation_of(op):
    """The permutation of a transpose-like op (see contraction_fusion), or None."""
    from .contraction_fusion import _permutation
    return _permutation(op) if op is not None else None


def _sole_user(v):
    users = list(v.uses)
    return users[0].owner if len(users) == 1 else None


def _empty(rewriter, shape, elt, loc):
    """tensor.empty of mixed sizes `shape` (ints and index Values)."""
    t = A.RankedTensorType([n if isinstance(n, int) else A.DYNAMIC for n in shape], elt)
    dyn = [n for n in shape if not isinstance(n, int)]
    return rewriter.insert(EmptyOp.create(dyn, [t], None, None, (), 0, loc)).results[0]


def _transposed(rewriter, v, perm, loc):
    """linalg.transpose of static tensor `v` by `perm` (result dim i = input dim
    perm[i])."""
    shape = [_size(rewriter, v, p, loc) for p in perm]
    init = _empty(rewriter, shape, v.type.element_type, loc)
    return rewriter.insert(TransposeOp.new(v, init, list(perm), loc)).results[0]


def _permuted_copy(rewriter, v, perm, loc):
    """The same as `_transposed`, as a linalg.generic (which elementwise fusion merges
    with the generic producing `v`)."""
    from ...dialects.linalg.generic import make_generic
    from ...ir.affine import AffineDimExpr, AffineMap
    n = len(perm)
    shape = [_size(rewriter, v, p, loc) for p in perm]
    init = _empty(rewriter, shape, v.type.element_type, loc)
    # loop i is result dim i = input dim perm[i]: the input is read at (.., d_i at perm[i])
    res = [None] * n
    for i, p in enumerate(perm):
        res[p] = AffineDimExpr(i)
    m_in = AffineMap(n, 0, res)
    return make_generic(rewriter, [v], [init], [m_in, AffineMap.identity(n)],
                        ["parallel"] * n, lambda b, args: args[0], loc=loc).results[0]


def _channel_last_source(v):
    """(y, expand) when static `v` = transpose(y', [0, 3, 1, 2]) with y' = y (expand
    None) or y' = expand_shape(y, groups) (expand = (groups, shape of y')): the ONNX
    form `Reshape(Transpose(x [N, HW, C], [0, 2, 1]), [N, C, H, W])`, the expand
    swapped above the transpose. The transpose and the expand have no other user."""
    from ...dialects.tensor import ExpandShapeOp
    from ...syntax.dynamic_index_list import reassociation_indices
    d = v.defining_op
    if _sole_user(v) is None:
        return None
    if _permutation_of(d) == _TO_NCHW:
        y = d.operand(0)
        return (y, None) if _static(y.type) else None
    if type(d) is not ExpandShapeOp:
        return None
    t_val = d.operand(0)
    t = t_val.defining_op
    p = _permutation_of(t)
    if p is None or _sole_user(t_val) is None or not _static(t_val.type):
        return None
    groups = reassociation_indices(d.properties["reassociation"])  # per dim of t
    y = t.operand(0)
    # y dim p[i] is t dim i, expanded to v's dims groups[i]
    where = {p[i]: i for i in range(len(p))}
    start, shape, ygroups = {}, [], []
    for j in range(len(p)):
        g = groups[where[j]]
        start[j] = len(shape)
        ygroups.append(list(range(len(shape), len(shape) + len(g))))
        sizes = [v.type.shape[k] for k in g]
        if A.DYNAMIC in sizes:
            if len(g) != 1 or y.type.shape[j] != A.DYNAMIC:
                return None
            sizes = [("dim", j)]   # y's own dim j, read when the expand is built
        shape.extend(sizes)
    perm = [start[p[i]] + m for i in range(len(p)) for m in range(len(groups[i]))]
    if perm != _TO_NCHW:
        return None
    return y, (ygroups, shape)


class SwapCollapseWithTranspose(RewritePattern):
    """collapse_shape(transpose(z, p)) read only by a transpose is transpose(
    collapse_shape(z), p') (each group from consecutive dims of z), so that the two
    transposes compose: the token-major `flatten(2).transpose(1, 2)` after a
    convolution made channel-last."""

    root = "tensor.collapse_shape"

    def match_and_rewrite(self, op, rewriter) -> bool:
        from ...syntax.dynamic_index_list import reassociation_indices
        from .contraction_fusion import _swap_with_collapse
        from .reshape_fusion import _collapse
        user = _sole_user(op.results[0])
        if _permutation_of(user) is None or not _static(op.results[0].type):
            return False
        t_val = op.operand(0)
        p = _permutation_of(t_val.defining_op)
        if p is None or _sole_user(t_val) is not op or type(t_val.defining_op) is not \
                TransposeOp:
            return False
        swapped = _swap_with_collapse(reassociation_indices(op.properties["reassociation"]),
                                      p)
        if swapped is None:
            return False
        zgroups, q = swapped
        z = t_val.defining_op.operand(0)
        shape = []
        for g in zgroups:
            n = 1
            for j in g:
                if z.type.shape[j] == A.DYNAMIC and len(g) > 1:
                    return False
                n = A.DYNAMIC if z.type.shape[j] == A.DYNAMIC else n * z.type.shape[j]
            shape.append(n)
        rewriter.ip = InsertionPoint.before_op(op)
        c = _collapse(rewriter, z, zgroups, A.RankedTensorType(shape, z.type.element_type),
                      op.loc)
        rewriter.replace_op(op, [_transposed(rewriter, c, q, op.loc)])
        return True


class DepthwiseToChannelsLast(RewritePattern):
    """See [Note: channel-last depthwise convolutions]."""

    root = "linalg.depthwise_conv_2d_nchw_chw"

    def __init__(self, min_channels: int = 16):
        self.min_channels = min_channels

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not isinstance(op, StructuredOp) or not op.has_pure_tensor_semantics():
            return False
        x, w = op.dps_inputs
        init = op.dps_inits[0]
        if not all(_static(v.type) for v in (x, w, init)) or A.DYNAMIC in w.type.shape or \
                x.type.shape[1] < self.min_channels:
            return False
        pad = x.defining_op
        t_val = x
        if type(pad) is PadOp:
            if _sole_user(x) is not op or pad.operands[1:] or not _static(pad.operand(0).type):
                return False   # dynamic padding sizes
            low = list(pad.properties["static_low"].value)
            high = list(pad.properties["static_high"].value)
            if low[:2] != [0, 0] or high[:2] != [0, 0]:
                return False   # padded batch or channels: not a convolution's padding
            y = pad.regions[0].blocks[0].last
            value = y.operand(0)
            d = value.defining_op
            if isinstance(value, BlockArgument) and value.owner is pad.regions[0].blocks[0] \
                    or d is not None and d.parent_op is pad:
                return False   # a padding value computed from the position
            t_val = pad.operand(0)
        else:
            pad = None
        found = _channel_last_source(t_val)
        loc = op.loc
        if found is None:
            if not self._wants_channels_last(op, w):
                return False
            # an NCHW image whose result is read channel-last: transpose the image
            # instead of the result (see [Note: channel-last residual streams])
            rewriter.ip = InsertionPoint.before_op(op)
            found = (_transposed(rewriter, t_val, _TO_NHWC, loc), None)
        src, expand = found
        rewriter.ip = InsertionPoint.before_op(op)
        if expand is not None:
            from .reshape_fusion import _expand
            groups, shape = expand
            shape = [_size(rewriter, src, n[1], loc) if isinstance(n, tuple) else n
                     for n in shape]
            src = _expand(rewriter, src, groups, shape, A.RankedTensorType(
                [n if isinstance(n, int) else A.DYNAMIC for n in shape],
                src.type.element_type), loc)
        image = src
        if pad is not None:
            image = self._pad(rewriter, pad, src, [low[p] for p in _TO_NHWC],
                              [high[p] for p in _TO_NHWC])
        from ...dialects.linalg import named_op_class
        props = {k: op.properties[k] for k in ("strides", "dilations")
                 if k in op.properties}
        wt = _transposed(rewriter, w, [1, 2, 0], loc)
        fill = init.defining_op is not None and init.defining_op.name == "linalg.fill"
        it = (_transposed if fill else _permuted_copy)(rewriter, init, _TO_NHWC, loc)
        conv = rewriter.insert(named_op_class("depthwise_conv_2d_nhwc_hwc").new(
            [image, wt], [it], loc=loc, **props)).results[0]
        rewriter.replace_op(op, [_transposed(rewriter, conv, _TO_NCHW, loc)])
        return True

    @staticmethod
    def _wants_channels_last(op, w) -> bool:
        """Whether the NCHW convolution `op` (filter `w`) reads an image as large as its
        result, read only through a [0, 2, 3, 1] transpose, with a window the NCHW
        kernel has no specialized code for (_NCHW_WIDTHS)."""
        user = _sole_user(op.results[0])
        if type(user) is not TransposeOp or _permutation_of(user) != _TO_NHWC:
            return False
        if any(s != 1 for s in op._window_values("strides")):
            return False
        return w.type.shape[2] not in _NCHW_WIDTHS

    @staticmethod
    def _pad(rewriter, pad, src, low, high):
        from ...ir.core import Block
        shape = [A.DYNAMIC if d == A.DYNAMIC else d + a + b
                 for d, a, b in zip(src.type.shape, low, high)]
        rt = A.RankedTensorType(shape, src.type.element_type)
        new = PadOp.build(source=src, low=[], high=[],
                          static_low=A.DenseArrayAttr(A.i64, low),
                          static_high=A.DenseArrayAttr(A.i64, high), result=rt,
                          loc=pad.loc)
        if "nofold" in pad.properties:
            new.properties = {**new.properties, "nofold": pad.properties["nofold"]}
        block = new.regions[0].add_block(Block([A.index] * len(shape), [pad.loc] * len(shape)))
        old = pad.regions[0].blocks[0].last
        block.append(old.clone({}))
        return rewriter.insert(new).results[0]


class SinkTransposeIntoElementwise(RewritePattern):
    """See [Note: channel-last residual streams]."""

    root = "linalg.generic"

    def match_and_rewrite(self, op, rewriter) -> bool:
        from ...dialects.linalg import IndexOp
        from ...ir.affine import AffineDimExpr, AffineMap
        from .elementwise_fusion import _new_generic, _take_block
        if type(op) is not GenericOp or not op.has_pure_tensor_semantics() or \
                len(op.results) != 1 or len(op.dps_inits) != 1:
            return False
        maps = op.indexing_maps_list()
        init = op.dps_inits[0]
        out = maps[-1]
        if out.num_dims != 4 or not out.is_identity() or not _static(init.type) or \
                type(init.defining_op) is not EmptyOp or \
                any(t != "parallel" for t in op.iterator_types_list()):
            return False
        block = op.regions[0].blocks[0]
        if block.args[-1].first_use is not None or any(type(x) is IndexOp for x in block.ops):
            return False   # the body reads its output or the loop position
        size = _elements(init.type)
        moved = False
        nhwc = {}
        for v in op.dps_inputs:
            d = v.defining_op
            if type(d) is TransposeOp and _permutation_of(d) == _TO_NCHW:
                moved = moved or all(u.owner is op for u in v.uses)
            elif isinstance(v.type, A.RankedTensorType) and _elements(v.type) >= size:
                t = _channel_last_copy(v, op)
                if t is None:
                    return False   # a full NCHW operand would be read strided
                nhwc[v] = t
        if not moved:
            return False
        # old loop i is new loop _TO_NCHW[i] (the new loops walk the NHWC tensor)
        repl = [AffineDimExpr(p) for p in _TO_NCHW]
        new_maps, inputs = [], []
        for v, m in zip(op.dps_inputs, maps):
            exprs = [e.replace_dims_and_symbols(repl, ()) for e in m.results]
            d = v.defining_op
            if type(d) is TransposeOp and _permutation_of(d) == _TO_NCHW:
                # transpose t of y: t[.., i_k, ..] = y[.., at _TO_NCHW[k]: i_k, ..]
                ys = [None] * 4
                for k, e in enumerate(exprs):
                    ys[_TO_NCHW[k]] = e
                exprs, v = ys, d.operand(0)
            elif v in nhwc:
                # read its existing channel-last copy (the same rule the other way)
                ys = [None] * 4
                for k, e in enumerate(exprs):
                    ys[_TO_NCHW[k]] = e
                exprs, v = ys, nhwc[v]
            new_maps.append(AffineMap(4, 0, exprs))
            inputs.append(v)
        new_maps.append(AffineMap.identity(4))
        loc = op.loc
        rewriter.ip = InsertionPoint.before_op(op)
        shape = [_size(rewriter, init, p, loc) for p in _TO_NHWC]
        new_init = _empty(rewriter, shape, init.type.element_type, loc)
        new = _new_generic(rewriter, op, inputs, [new_init], new_maps,
                           op._props["iterator_types"], [new_init.type], _take_block(op),
                           loc)
        rewriter.ip = InsertionPoint.before_op(op)
        rewriter.replace_op(op, [_transposed(rewriter, new.results[0], _TO_NCHW, loc)])
        return True


def _channel_last_copy(v, op):
    """The result of a [0, 2, 3, 1] transpose of `v` placed before `op` in its block
    (the NHWC copy a channel-last depthwise convolution made of it), or None."""
    for u in v.uses:
        t = u.owner
        if type(t) is TransposeOp and t.operand(0) is v and \
                _permutation_of(t) == _TO_NHWC and t.parent is op.parent and \
                t.is_before_in_block(op):
            return t.results[0]
    return None


def _elements(t) -> int:
    """The element count of static-but-batch tensor type `t` (a dynamic batch counts 1)."""
    n = 1
    for d in t.shape:
        n *= d if d != A.DYNAMIC else 1
    return n


class DimOfReshape(RewritePattern):
    """tensor.dim of an expand_shape at a dynamic dim is its output_shape operand, of a
    collapse_shape at a one-dim group its source's dim (upstream's FoldDimOfExpandShape
    and FoldDimOfCollapseShape, for the dynamic batch): the reshapes around the
    convolution then have no reader but the transposes the pass cancels."""

    root = "tensor.dim"

    def match_and_rewrite(self, op, rewriter) -> bool:
        from ...dialects.tensor import CollapseShapeOp, ExpandShapeOp
        from ...rewrite.folding import constant_value
        e = op.operand(0).defining_op
        i = constant_value(op.operand(1))
        if type(i) is not A.IntegerAttr:
            return False
        if type(e) is CollapseShapeOp:
            # a dim of its own group: the source's dim (upstream's FoldDimOfCollapseShape
            # for one-dim groups)
            from ...syntax.dynamic_index_list import reassociation_indices
            groups = reassociation_indices(e.properties["reassociation"])
            if not 0 <= i.value < len(groups) or len(groups[i.value]) != 1:
                return False
            rewriter.ip = InsertionPoint.before_op(op)
            rewriter.replace_op(op, [_size(rewriter, e.operand(0), groups[i.value][0],
                                           op.loc)])
            return True
        if type(e) is not ExpandShapeOp:
            return False
        shape = list(e.properties["static_output_shape"].value)
        if not 0 <= i.value < len(shape) or shape[i.value] != A.DYNAMIC:
            return False
        k = sum(1 for n in shape[:i.value] if n == A.DYNAMIC)
        rewriter.replace_op(op, [e.output_shape[k]])
        return True


def channels_last_patterns(min_channels: int = 16) -> list:
    """The pattern, the transpose canonicalizations that cancel what it leaves, and
    tensor.dim's (a dynamic batch size read where it is known, not off a dead op)."""
    from ...dialects.linalg.canonical import FoldFillWithTranspose, FoldTransposeWithTranspose
    from ...dialects.tensor import DimOp
    return [DepthwiseToChannelsLast(min_channels), SwapCollapseWithTranspose(),
            SinkTransposeIntoElementwise(),
            FoldTransposeWithTranspose(), FoldFillWithTranspose(), DimOfReshape(),
            *DimOp.canonicalization_patterns()]


class DepthwiseChannelsLast(Pass):
    name = "strata-linalg-depthwise-channels-last"
    summary = ("Run depthwise convolutions whose image is a channel-last tensor "
               "transposed to NCHW channel-last, cancelling the transposes around them")
    display_name = "StrataLinalgDepthwiseChannelsLastPass"
    min_channels = Option(int, 16, "The fewest channels to convert (the channel loop is "
                                   "the vectorized one)")

    def run(self, op):
        from ...rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        apply_patterns_greedily(op, channels_last_patterns(self.min_channels),
                                GreedyRewriteConfig(top_down=True))
