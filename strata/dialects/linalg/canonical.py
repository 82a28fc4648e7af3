"""linalg's canonicalization patterns (upstream's, by name): what `--canonicalize` does to
linalg ops, byte for byte as `mlir-opt --canonicalize` does.

    %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>)
           permutation = [1, 0]
    %u = linalg.transpose ins(%t : tensor<8x4xf32>) outs(%c : tensor<4x8xf32>)
           permutation = [1, 0]
    =>  %u is %a (FoldTransposeWithTranspose, then TransposeOp::fold)

    %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    %x = tensor.extract %f[%i, %j] : tensor<2x3xf32>
    =>  %x is %z (FoldFillWithTensorExtract)

The patterns are registered with the dialect (`LINALG.canonical_patterns`); the folds
(TransposeOp::fold, the memref.cast fold of every structured op) live on the ops.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.core import BlockArgument
from ...rewrite.pattern import RewritePattern

__all__ = ["canonical_patterns", "preserves_static_information"]

DYN = A.DYNAMIC
_TENSORS = (A.RankedTensorType, A.UnrankedTensorType)


def _insert(rewriter, op):
    return rewriter.insert(op)


def _is_tensor(t) -> bool:
    return type(t) is A.RankedTensorType


def preserves_static_information(source, target) -> bool:
    """upstream's tensor::preservesStaticInformation: `target` has at least the static
    information of `source` (same element type, rank and encoding)."""
    if type(source) is not A.RankedTensorType or type(target) is not A.RankedTensorType:
        return False
    if source.element_type != target.element_type or source.rank != target.rank:
        return False
    if getattr(source, "encoding", None) != getattr(target, "encoding", None):
        return False
    return all(not (s != DYN and t == DYN) for s, t in zip(source.shape, target.shape))


def _foldable_cast(v):
    """The tensor.cast defining `v` when it only drops static information (upstream's
    tensor::canFoldIntoConsumerOp), else None."""
    from ..tensor import CastOp
    if isinstance(v, BlockArgument):
        return None
    c = v.defining_op
    if type(c) is not CastOp:
        return None
    return c if preserves_static_information(c.results[0].type, c.operand(0).type) else None


def _cast_compatible(a, b) -> bool:
    """tensor.cast's areCastCompatible: same element type, compatible shapes."""
    from ..tensor import _compatible_shapes
    return isinstance(a, _TENSORS) and isinstance(b, _TENSORS) and \
        a.element_type == b.element_type and _compatible_shapes(a, b)


def _cast(rewriter, value, t, loc):
    from ..tensor import CastOp
    return _insert(rewriter, CastOp.create([value], [t], None, None, (), 0, loc)).results[0]


# ============================================================================ structured


class _Rooted(RewritePattern):
    """A pattern registered once per root op name (upstream's templated patterns and
    interface patterns), named by its class."""

    def __init__(self, root):
        self.root = root

    @property
    def debug_name(self):
        return type(self).__name__


class EraseIdentityLinalgOp(_Rooted):
    """A generic (or broadcast) whose maps are all equal and whose body only yields block
    arguments is its operands (tensors, cast where the result is more static); on buffers
    a copy of a buffer onto itself is erased."""


    def match_and_rewrite(self, op, rewriter):
        maps = op.indexing_maps_list()
        if any(m != maps[0] for m in maps[1:]):
            return False
        if not op.regions or not op.regions[0].blocks:
            return False
        body = op.regions[0].blocks[0]
        y = body.first
        if y is None or y is not body.last or y.name != "linalg.yield":
            return False
        if op.has_pure_buffer_semantics():
            ins, inits = op.dps_inputs, op.dps_inits
            if len(ins) != 1 or len(inits) != 1 or ins[0] is not inits[0]:
                return False
            rewriter.erase_op(op)
            return True
        if not op.has_pure_tensor_semantics():
            return False
        values = []
        for k, v in enumerate(y.operands):
            if not isinstance(v, BlockArgument) or v.owner is not body:
                return False
            arg = op.operand(v.index)
            rt = op.results[k].type if k < len(op.results) else None
            if rt is None:
                return False
            if arg.type != rt:
                if not _cast_compatible(arg.type, rt):
                    return False
                arg = _cast(rewriter, arg, rt, op.loc)
            values.append(arg)
        if len(values) != len(op.results):
            return False
        rewriter.replace_op(op, values)
        return True


class EraseSelfCopy(RewritePattern):
    """linalg.copy of a value onto itself: erased on buffers, its input on tensors."""

    root = "linalg.copy"

    def match_and_rewrite(self, op, rewriter):
        if op.dps_inputs != op.dps_inits:
            return False
        if op.has_pure_buffer_semantics():
            rewriter.erase_op(op)
        else:
            rewriter.replace_op(op, op.dps_inputs)
        return True


class _LinalgOpPattern(_Rooted):
    """A pattern of upstream's LinalgOp interface: one instance per structured op name,
    registered ahead of the ops' own patterns as upstream's dialect patterns are."""


def _clone_with(rewriter, op, operands, result_types):
    """upstream's clone(b, linalgOp, resultTypes, operands): the op with its attributes
    and region, new operands and result types."""
    new = op.clone()
    for i, v in enumerate(operands):
        new.set_operand(i, v)
    for r, t in zip(new.results, result_types):
        r.type = t
    return _insert(rewriter, new)


class InferStaticShapeOfOperands(_LinalgOpPattern):
    """A dynamic size of an operand that another operand fixes through the indexing
    maps (projected permutations, tensors) becomes static: the operand is cast to the
    more static type, and a changed result cast back."""

    def match_and_rewrite(self, op, rewriter):
        if not op.has_pure_tensor_semantics():
            return False
        maps = op.indexing_maps_list()
        if any(not m.is_projected_permutation() for m in maps):
            return False
        from ...ir.affine import AffineDimExpr
        sizes = {}
        for o, m in zip(op.operands, maps):
            t = o.type
            if type(t) is not A.RankedTensorType:
                continue
            for i, d in enumerate(t.shape):
                e = m.results[i]
                if d != DYN and type(e) is AffineDimExpr and e.position not in sizes:
                    sizes[e.position] = d
        n_in = op.num_dps_inputs()
        new_operands, result_types, changed = [], [], False
        for k, (o, m) in enumerate(zip(op.operands, maps)):
            t = o.type
            new_operands.append(o)
            if type(t) is not A.RankedTensorType:
                continue
            is_init = k >= n_in
            if is_init and all(d != DYN for d in t.shape):
                result_types.append(t)
                continue
            shape, needed = [], False
            for i, d in enumerate(t.shape):
                e = m.results[i]
                if d == DYN and type(e) is AffineDimExpr and e.position in sizes:
                    shape.append(sizes[e.position])
                    needed = True
                else:
                    shape.append(d)
            nt = A.RankedTensorType(shape, t.element_type, getattr(t, "encoding", None)) \
                if getattr(t, "encoding", None) is not None else \
                A.RankedTensorType(shape, t.element_type)
            if needed:
                changed = True
                new_operands[k] = _cast(rewriter, o, nt, op.loc)
            if is_init:
                result_types.append(nt)
        if not changed:
            return False
        new = _clone_with(rewriter, op, new_operands, result_types)
        values = [nr if nr.type == old.type else _cast(rewriter, nr, old.type, op.loc)
                  for old, nr in zip(op.results, new.results)]
        rewriter.replace_op(op, values)
        return True


class FoldTensorCastConsumerOp(RewritePattern):
    """A tensor.cast adding static information to a result of a structured op in its
    block moves onto that result's init: the op computes the static type, the other
    users get it cast back."""

    root = "tensor.cast"

    def match_and_rewrite(self, op, rewriter):
        from .structured import StructuredOp
        src = op.operand(0)
        if isinstance(src, BlockArgument):
            return False
        lop = src.defining_op
        rt = op.results[0].type
        if not isinstance(lop, StructuredOp) or not preserves_static_information(src.type, rt):
            return False
        if op.parent is not lop.parent:
            return False
        from ...ir.builder import InsertionPoint
        rewriter.ip = InsertionPoint.before_op(lop)
        k = src.index
        inits = lop.dps_inits
        if k >= len(inits):
            return False
        new_init = _cast(rewriter, inits[k], rt, lop.loc)
        ins = lop.dps_inputs
        outs = list(inits)
        outs[k] = new_init
        types = [r.type for r in lop.results]
        types[k] = rt
        new = _clone_with(rewriter, lop, ins + outs, types)
        back = _cast(rewriter, new.results[k], src.type, lop.loc)
        values = list(new.results)
        values[k] = back
        rewriter.replace_op(lop, values)
        rewriter.replace_op(op, [new.results[k]])
        return True


class FoldTensorCastProducerOp(_LinalgOpPattern):
    """A structured op reading a tensor.cast that only drops static information reads
    the cast's source; a result whose init became more static is cast back."""

    def match_and_rewrite(self, op, rewriter):
        n_in = op.num_dps_inputs()
        casts = [_foldable_cast(o.value) for o in op._operands]
        if not any(casts):
            return False
        new_operands = [c.operand(0) if c is not None else o.value
                        for c, o in zip(casts, op._operands)]
        new = op.clone()
        for i, v in enumerate(new_operands):
            new.set_operand(i, v)
        k = 0
        for v in new_operands[n_in:]:
            if _is_tensor(v.type) and k < len(new.results):
                new.results[k].type = v.type
                k += 1
        _insert(rewriter, new)
        values = []
        for old, nr in zip(op.results, new.results):
            values.append(nr if nr.type == old.type else _cast(rewriter, nr, old.type, op.loc))
        rewriter.replace_op(op, values)
        return True


# ============================================================================ transpose


class FoldTransposeWithTranspose(RewritePattern):
    """transpose(transpose(x)) is one transpose of x, by the composed permutation."""

    root = "linalg.transpose"

    def match_and_rewrite(self, op, rewriter):
        from .ops import TransposeOp
        d = op.operand(0).defining_op
        if type(d) is not TransposeOp:
            return False
        inner = list(d._props["permutation"].value)
        perm = [inner[p] for p in op._props["permutation"].value]
        new = _insert(rewriter, TransposeOp.new(d.operand(0), op.operand(1), perm, op.loc))
        new._attrs = dict(op._attrs) if op._attrs else new._attrs
        rewriter.replace_op(op, new.results)
        return True


def _drop_dims(perm, dims):
    """upstream's dropDims: `perm` without the entries in `dims`, renumbered densely."""
    kept = [p for p in perm if p not in dims]
    return [p - sum(1 for d in dims if d < p) for p in kept]


class SwapTransposeWithBroadcast(RewritePattern):
    """transpose(broadcast(x)) is broadcast(transpose(x)): the transpose moves to the
    smaller tensor."""

    root = "linalg.transpose"

    def match_and_rewrite(self, op, rewriter):
        from ..tensor import DimOp, EmptyOp
        from .ops import BroadcastOp, TransposeOp
        src = op.operand(0)
        b = src.defining_op
        if type(b) is not BroadcastOp or not src.has_one_use():
            return False
        dims = list(b._props["dimensions"].value)
        perm = list(op._props["permutation"].value)
        result_perm = _drop_dims(perm, dims)
        inv = [0] * len(perm)
        for i, p in enumerate(perm):
            inv[p] = i
        result_dims = [inv[d] for d in dims]
        x = b.operand(0)
        xt = x.type
        if type(xt) is not A.RankedTensorType:
            return False
        from ..arith import ConstantOp
        sizes = []
        for i, s in enumerate(xt.shape):
            if s == DYN:
                c = _insert(rewriter, ConstantOp.create(
                    [], [A.index], {"value": A.IntegerAttr(i, A.index)}, None, (), 0,
                    op.loc)).results[0]
                sizes.append(_insert(rewriter, DimOp.create([x, c], [A.index], None, None,
                                                            (), 0, op.loc)).results[0])
            else:
                sizes.append(s)
        tsizes = [sizes[p] for p in result_perm]
        shape = [s if isinstance(s, int) else DYN for s in tsizes]
        dyn = [s for s in tsizes if not isinstance(s, int)]
        et = A.RankedTensorType(shape, xt.element_type)
        init = _insert(rewriter, EmptyOp.create(dyn, [et], None, None, (), 0, op.loc))
        t = _insert(rewriter, TransposeOp.new(x, init.results[0], result_perm, op.loc))
        new = _insert(rewriter, BroadcastOp.new(t.results[0], op.operand(1), result_dims,
                                                op.loc))
        rewriter.replace_op(op, new.results)
        return True


# ============================================================================ fill


def _fill_of(v):
    from .named import FillOp
    d = v.defining_op if not isinstance(v, BlockArgument) else None
    return d if type(d) is FillOp else None


def _new_fill(rewriter, value, init, result_types, loc):
    from .named import FillOp
    return _insert(rewriter, FillOp.new([value], [init], result_types, loc))


def _replace_by_fill(rewriter, op, fill, init) -> bool:
    """`op` (reading `fill`) becomes the fill of `init` with the fill's value."""
    new = _new_fill(rewriter, fill.operand(0), init, [r.type for r in op.results], op.loc)
    rewriter.replace_op(op, new.results)
    return True


class FoldFillWithTensorExtract(RewritePattern):
    """An element of a fill is the fill value."""

    root = "tensor.extract"

    def match_and_rewrite(self, op, rewriter):
        f = _fill_of(op.operand(0))
        if f is not None:
            rewriter.replace_op(op, [f.operand(0)])
        return f is not None


class FoldFillWithTensorReshape(_Rooted):
    """reshape(fill(v, init)) is fill(v, reshape(init))."""


    def match_and_rewrite(self, op, rewriter):
        f = _fill_of(op.operand(0))
        if f is None:
            return False
        new_init = op.clone()
        new_init.set_operand(0, f.operand(1))
        new_init.loc = f.loc
        _insert(rewriter, new_init)
        new = _new_fill(rewriter, f.operand(0), new_init.results[0],
                        [op.results[0].type], op.loc)
        rewriter.replace_op(op, new.results)
        return True


class FoldFillWithCopy(RewritePattern):
    """copy(fill(v), init) is fill(v, init); copy(x, fill(...)) writes into the fill's
    init instead."""

    root = "linalg.copy"

    def match_and_rewrite(self, op, rewriter):
        from .named import CopyOp
        ins, outs = op.dps_inputs, op.dps_inits
        if not ins or not outs:
            return False
        f = _fill_of(ins[0])
        if f is not None:
            return _replace_by_fill(rewriter, op, f, outs[0])
        f = _fill_of(outs[0])
        if f is not None:
            types = [r.type for r in op.results]
            new = _insert(rewriter, CopyOp.new(ins, [f.operand(1)], types, op.loc))
            rewriter.replace_op(op, new.results)
            return True
        return False


class FoldFillWithTranspose(RewritePattern):
    """transpose(fill(v), init) is fill(v, init)."""

    root = "linalg.transpose"

    def match_and_rewrite(self, op, rewriter):
        f = _fill_of(op.operand(0))
        return f is not None and _replace_by_fill(rewriter, op, f, op.operand(1))


def _same_value_or_constant(a, b) -> bool:
    """upstream's isEqualConstantIntOrValue: the same value, or equal constants."""
    if a is b:
        return True
    from ...rewrite.folding import constant_value
    ca, cb = constant_value(a), constant_value(b)
    return ca is not None and ca == cb and type(ca) is A.IntegerAttr


class FoldFillWithPack(RewritePattern):
    """pack(fill(v)) into a dest used only there is fill(v, dest) (a padding value, if
    any, must be v)."""

    root = "linalg.pack"

    def match_and_rewrite(self, op, rewriter):
        f = _fill_of(op.operand(0))
        if f is None:
            return False
        pad = op.padding_value
        if pad is not None and not _same_value_or_constant(pad, f.operand(0)):
            return False
        dest = op.operand(1)
        return dest.has_one_use() and _replace_by_fill(rewriter, op, f, dest)


def _constant_padding_value(pad):
    """upstream's PadOp::getConstantPaddingValue: the yielded value when it is a constant
    or defined outside the pad's body, else None."""
    from ...rewrite.folding import constant_value
    body = pad.regions[0].blocks[0]
    y = body.last
    if y is None or y.name != "tensor.yield" or not y.operands:
        return None
    v = y.operand(0)
    if constant_value(v) is not None:
        return v
    owner = v.owner if isinstance(v, BlockArgument) else (v.defining_op.parent
                                                             if v.defining_op else None)
    return None if owner is body else v


def _index_array(values):
    return A.DenseArrayAttr(A.i64, list(values))


class FoldFillWithPad(RewritePattern):
    """A pad of a fill by the fill's own value is a fill of a new tensor of the padded
    size (static sizes: a dynamic one would need affine.apply)."""

    root = "tensor.pad"

    def match_and_rewrite(self, op, rewriter):
        from ..tensor import EmptyOp
        f = _fill_of(op.operand(0))
        if f is None:
            return False
        v = _constant_padding_value(op)
        rt = op.results[0].type
        if v is None or v is not f.operand(0) or any(d == DYN for d in rt.shape):
            return False
        empty = _insert(rewriter, EmptyOp.create([], [rt], None, None, (), 0, op.loc))
        new = _new_fill(rewriter, v, empty.results[0], [rt], f.loc)
        rewriter.replace_op(op, new.results)
        return True


def _static_range(op, i):
    """(first, last) element of dimension i an insert_slice writes, or None if dynamic."""
    o, z, st = op.mixed_offsets[i], op.mixed_sizes[i], op.mixed_strides[i]
    if not all(isinstance(x, int) for x in (o, z, st)):
        return None
    return o, o + (z - 1) * st


class FoldInsertPadIntoFill(RewritePattern):
    """insert_slice(pad(x), ...) into a chain of disjoint insert_slices over a fill by
    the pad value inserts x itself, at the offsets moved by the low padding (static
    offsets: dynamic ones would need affine.apply)."""

    root = "tensor.insert_slice"

    def match_and_rewrite(self, op, rewriter):
        from ..tensor import DimOp, InsertSliceOp, PadOp
        from ..arith import ConstantOp
        src = op.operand(0)
        pad = src.defining_op if not isinstance(src, BlockArgument) else None
        if type(pad) is not PadOp:
            return False
        rank = op.results[0].type.rank
        if rank != src.type.rank:
            return False
        first = op.operand(1)
        while True:
            prev = first.defining_op if not isinstance(first, BlockArgument) else None
            if type(prev) is not InsertSliceOp:
                break
            if prev.results[0].type.rank != prev.operand(0).type.rank:
                return False
            disjoint = False
            for i in range(prev.results[0].type.rank):
                a, b = _static_range(op, i), _static_range(prev, i)
                if a is None or b is None:
                    continue
                if b[1] < a[0] or a[1] < b[0]:
                    disjoint = True
                    break
            if not disjoint:
                break
            first = prev.operand(1)
        f = _fill_of(first)
        v = _constant_padding_value(pad)
        if f is None or v is None or v is not f.operand(0):
            return False
        from ...syntax.dynamic_index_list import mixed_values
        lows = mixed_values(list(pad._props["static_low"].value), pad.low)
        offsets = []
        for lo, off in zip(lows, op.mixed_offsets):
            if not isinstance(lo, int) or not isinstance(off, int):
                return False
            offsets.append(lo + off)
        x = pad.operand(0)
        sizes, dyn_sizes = [], []
        for i, d in enumerate(x.type.shape):
            if d == DYN:
                c = _insert(rewriter, ConstantOp.create(
                    [], [A.index], {"value": A.IntegerAttr(i, A.index)}, None, (), 0,
                    op.loc)).results[0]
                dyn_sizes.append(_insert(rewriter, DimOp.create(
                    [x, c], [A.index], None, None, (), 0, op.loc)).results[0])
            sizes.append(d)
        strides = op.mixed_strides
        new = InsertSliceOp.build(
            source=x, dest=op.operand(1), offsets=[], sizes=dyn_sizes,
            strides=[s for s in strides if not isinstance(s, int)],
            static_offsets=_index_array(offsets), static_sizes=_index_array(sizes),
            static_strides=_index_array(s if isinstance(s, int) else DYN for s in strides),
            result_types=[op.results[0].type], loc=op.loc)
        _insert(rewriter, new)
        rewriter.replace_op(op, new.results)
        return True


class FoldConcatsOfFill(RewritePattern):
    """A concat of fills by one value is a fill of the concat of their inits."""

    root = "tensor.concat"

    def match_and_rewrite(self, op, rewriter):
        fills = [_fill_of(v) for v in op.operands]
        if not fills or any(f is None for f in fills):
            return False
        v = fills[0].operand(0)
        if any(f.operand(0) is not v for f in fills[1:]):
            return False
        new_concat = op.clone()
        for i, f in enumerate(fills):
            new_concat.set_operand(i, f.operand(1))
        _insert(rewriter, new_concat)
        new = _new_fill(rewriter, v, new_concat.results[0], [op.results[0].type], op.loc)
        rewriter.replace_op(op, new.results)
        return True


# ============================================================================ pack / unpack


def _is_identity_perm(perm) -> bool:
    return list(perm) == list(range(len(perm)))


def _same_inner_outer(pack, unpack) -> bool:
    if list(pack._props["inner_dims_pos"].value) != list(unpack._props["inner_dims_pos"].value):
        return False
    a, b = pack._perm(), unpack._perm()
    return a == b or (_is_identity_perm(a) and _is_identity_perm(b))


def _same_tiles(pack, unpack) -> bool:
    ta, tb = pack.mixed_tiles, unpack.mixed_tiles
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if isinstance(x, int) != isinstance(y, int):
            return False
        if (x != y) if isinstance(x, int) else (x is not y):
            return False
    return True


def _padding_not_needed(op) -> bool:
    """upstream's paddingIsNotNeeded: the tiled source dims and the tiles are static and
    no tile needs padding (PackOp's requirePaddingValue)."""
    st, dt = op.operand(0).type, op.operand(1).type
    pos = list(op._props["inner_dims_pos"].value)
    tiles = list(op._props["static_inner_tiles"].value)
    if any(st.shape[p] == DYN for p in pos) or any(t == DYN for t in tiles):
        return False
    return not op._needs_padding(st, dt)


def _infer_static_shapes(op, is_pack):
    """upstream's inferStaticShape of pack / unpack: an untiled dim static on one side and
    dynamic on the other (through outer_dims_perm) takes the static size on both.
    Returns the (source, dest) shapes, or None when nothing changes."""
    st, dt = op.operand(0).type, op.operand(1).type
    if type(st) is not A.RankedTensorType or type(dt) is not A.RankedTensorType:
        return None
    src, dst = list(st.shape), list(dt.shape)
    inner = set(op._props["inner_dims_pos"].value)
    perm = op._perm()
    inv = [0] * len(perm)
    for i, q in enumerate(perm):
        inv[q] = i
    changed = False
    unpacked, packed = (src, dst) if is_pack else (dst, src)
    for i in range(len(unpacked)):
        if i in inner:
            continue
        j = inv[i] if perm else i
        if (unpacked[i] == DYN) == (packed[j] == DYN):
            continue
        size = unpacked[i] if unpacked[i] != DYN else packed[j]
        unpacked[i] = packed[j] = size
        changed = True
    return (src, dst) if changed else None


def _cast_to_inferred_shapes(rewriter, op, is_pack):
    """The source and dest of a pack / unpack, cast where `_infer_static_shapes` makes
    them more static; None when it changes nothing."""
    from .relayout import _with_shape
    shapes = _infer_static_shapes(op, is_pack)
    if shapes is None:
        return None
    out = []
    for v, shape in zip((op.operand(0), op.operand(1)), shapes):
        if shape != list(v.type.shape):
            v = _cast(rewriter, v, _with_shape(v.type, shape), op.loc)
        out.append(v)
    return out


class FoldTensorCastPackOp(_Rooted):
    """A pack or unpack reading a tensor.cast that only drops static information reads
    the cast's source; tiles the new packed type makes static become static; the result
    is cast back if its type changed (FoldTensorCastPackOp / FoldTensorCastUnPackOp)."""

    @property
    def debug_name(self):
        return "FoldTensorCastPackOp" if self.root == "linalg.pack" else \
            "FoldTensorCastUnPackOp"

    def match_and_rewrite(self, op, rewriter):
        casts = [_foldable_cast(o.value) for o in op._operands]
        if not any(casts):
            return False
        operands = [c.operand(0) if c is not None else o.value
                    for c, o in zip(casts, op._operands)]
        is_pack = op.name == "linalg.pack"
        source, dest = operands[0], operands[1]
        packed = dest.type if is_pack else source.type
        tiles = op.mixed_tiles
        tail = packed.shape[len(packed.shape) - len(tiles):]
        new_tiles = [t if d == DYN or isinstance(t, int) else d for d, t in zip(tail, tiles)]
        pad = op.padding_value if is_pack else None
        new = type(op).new(source, dest, list(op._props["inner_dims_pos"].value), new_tiles,
                           op._perm() or None, pad, op.loc)
        if op._attrs:
            # setDiscardableAttrs: pack's segment sizes are a property; the parsed
            # unpack's an attribute, carried over as upstream does
            new._attrs = dict(op._attrs)
        _insert(rewriter, new)
        values = [r if r.type == old.type else _cast(rewriter, r, old.type, op.loc)
                  for old, r in zip(op.results, new.results)]
        rewriter.replace_op(op, values)
        return True


class PackCanonical(RewritePattern):
    """pack(unpack(x)) with the same tiles and layout, and no padding, is x; a padding
    value no tile needs is dropped."""

    root = "linalg.pack"
    debug_name = "PackOp"

    def match_and_rewrite(self, op, rewriter):
        from .relayout import UnPackOp
        u = op.operand(0).defining_op if not isinstance(op.operand(0), BlockArgument) \
            else None
        if type(u) is UnPackOp:
            if u.operand(0).type != op.operand(1).type or op.padding_value is not None:
                return False
            if not _same_inner_outer(op, u) or not _same_tiles(op, u):
                return False
            rewriter.replace_op(op, [u.operand(0)])
            return True
        if op.padding_value is not None and _padding_not_needed(op):
            def drop():
                seg = list(op._props["operandSegmentSizes"].value)
                op.set_operands([v for i, v in enumerate(op.operands) if i != 2])
                seg[2] = 0
                op._props = dict(op._props)
                op._props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, seg)
            rewriter.modify_op_in_place(op, drop)
            return True
        inferred = _cast_to_inferred_shapes(rewriter, op, True)
        if inferred is None:
            return False
        source, dest = inferred
        dst_t = op.operand(1).type
        retype = dest.type != dst_t

        def update():
            op.set_operand(0, source)
            op.set_operand(1, dest)
            if op.results:
                op.results[0].type = dest.type
        rewriter.modify_op_in_place(op, update)
        if retype and op.results:
            from ...ir.builder import InsertionPoint
            rewriter.ip = InsertionPoint.after_op(op)
            back = _cast(rewriter, op.results[0], dst_t, op.loc)
            rewriter.replace_uses_where(op.results[0], back,
                                        lambda use: use.owner is not back.defining_op)
        return True


class UnPackCanonical(RewritePattern):
    """unpack(pack(x)) with the same tiles and layout, and no padding, is x; an unpack
    into a result of a destination-style op writes into that op's init instead."""

    root = "linalg.unpack"
    debug_name = "UnPackOp"

    def match_and_rewrite(self, op, rewriter):
        from .relayout import PackOp, UnPackOp
        src = op.operand(0)
        p = src.defining_op if not isinstance(src, BlockArgument) else None
        if type(p) is PackOp:
            if p.operand(0).type != op.operand(1).type or p.padding_value is not None:
                return False
            if not _same_inner_outer(p, op) or not _same_tiles(p, op):
                return False
            rewriter.replace_op(op, [p.operand(0)])
            return True
        dest = op.operand(1)
        d = dest.defining_op if not isinstance(dest, BlockArgument) else None
        inits = getattr(d, "dps_inits", None) if d is not None else None
        if inits is not None:
            k = list(d.results).index(dest)
            tensor_inits = [v for v in inits if _is_tensor(v.type)]
            if k < len(tensor_inits):
                rewriter.modify_op_in_place(op, lambda: op.set_operand(1, tensor_inits[k]))
                return True
        inferred = _cast_to_inferred_shapes(rewriter, op, False)
        if inferred is None:
            return False
        source, dest = inferred
        new = _insert(rewriter, UnPackOp.new(source, dest,
                                             list(op._props["inner_dims_pos"].value),
                                             op.mixed_tiles, op._perm() or None,
                                             loc=op.loc))
        rewriter.replace_op(op, [_cast(rewriter, new.results[0], op.results[0].type,
                                       op.loc)])
        return True


# ============================================================================ registry


def canonical_patterns():
    """The dialect's patterns, in upstream's registration order: the LinalgOp interface
    patterns first (for every structured op), then the ops' own."""
    from . import OPS
    from .structured import StructuredOp
    names = [c.name for c in OPS if issubclass(c, StructuredOp)]
    out = [FoldTensorCastConsumerOp(), FoldTensorCastPackOp("linalg.pack"),
           FoldTensorCastPackOp("linalg.unpack")]
    for n in names:
        out += [FoldTensorCastProducerOp(n), InferStaticShapeOfOperands(n)]
    return out + [EraseIdentityLinalgOp("linalg.generic"), EraseIdentityLinalgOp("linalg.broadcast"),
            EraseSelfCopy(), FoldFillWithCopy(), FoldFillWithTensorExtract(),
            FoldFillWithTensorReshape("tensor.collapse_shape"),
            FoldFillWithTensorReshape("tensor.expand_shape"), FoldFillWithPack(),
            FoldFillWithPad(), FoldInsertPadIntoFill(), FoldConcatsOfFill(),
            FoldFillWithTranspose(), FoldTransposeWithTranspose(),
            SwapTransposeWithBroadcast(), PackCanonical(), UnPackCanonical()]
