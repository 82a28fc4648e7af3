"""Reshape propagation by expansion, part of `linalg-fuse-elementwise-ops` (upstream's
populateFoldReshapeOpsByExpansionPatterns): a `tensor.expand_shape` of a structured op's
result, or a `tensor.collapse_shape` feeding one of its inputs, is folded into the op by
giving it more loops, so that the reshape moves to the op's other operands (where it may
fold further) and the elementwise ops around it can fuse.

    %0 = linalg.generic ... ins(%a : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>)
    %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 4, 6]
  becomes
    %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 4, 6]
    %y = tensor.expand_shape %e [[0, 1], [2]] output_shape [2, 4, 6]
    %1 = linalg.generic ... ins(%x : tensor<2x4x6xf32>) outs(%y : tensor<2x4x6xf32>)

[Note: expansion]
The reshaped operand's map names, for each of its dims, the loop that walks it; a dim the
reshape splits into k dims splits that loop into k loops (of the reshape's sizes), every
other loop stays one loop of its old extent. Each map then lists the new loops of the old
loops it named, and an operand whose type changes gets an expand_shape; a result whose
type changes is collapsed back for its other users. The op must read and write through
projected permutations; a split loop's parts keep its iterator type. The new op is a
linalg.generic (fill, copy and transpose stay themselves); its linalg.index ops of a
split loop would need affine.apply, which Strata lacks, so such ops are not expanded.

Also here, the reshape canonicalizations the pass uses: a reshape to its source type, of
its inverse, or of a constant folds; two expand_shapes (or collapse_shapes) compose.
"""
from __future__ import annotations

from ...dialects.arith import ConstantOp
from ...dialects.linalg import (CopyOp, FillOp, GenericOp, IndexOp, StructuredOp,
                                TransposeOp)
from ...dialects.linalg.structured import concat_maps, inverse_permutation
from ...dialects.tensor import CollapseShapeOp, DimOp, ExpandShapeOp
from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap
from ...ir.builder import InsertionPoint
from ...ir.core import BlockArgument, OpResult
from ...ir.dense import DenseElementsAttr
from ...rewrite.folding import constant_value
from ...rewrite.pattern import RewritePattern
from ...syntax.dynamic_index_list import mixed_values, reassociation_indices

__all__ = ["reshape_by_expansion_patterns", "reshape_canonicalization_patterns",
           "fuse_with_reshape_by_expansion", "is_fusable_with_reshape_by_expansion"]

DYN = A.DYNAMIC


def _maps(op):
    from .elementwise_fusion import _maps as generic_maps
    return generic_maps(op) if type(op) is GenericOp else op.indexing_maps_list()


def _insert(rewriter, op):
    from .elementwise_fusion import _insert as insert
    return insert(rewriter, op)


def _reassociation_attr(groups):
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(i, A.i64) for i in g]) for g in groups])


def _index_constant(value, loc):
    from .elementwise_fusion import _index_constant as make
    return make(value, loc)


def _dim_value(rewriter, v, k, loc):
    """createOrFold<tensor::DimOp>: `tensor.dim %v, %c<k>` (with its index constant)."""
    c = _insert(rewriter, _index_constant(k, loc))
    return _insert(rewriter, DimOp.create([v, c.results[0]], [A.index], None, None, (), 0,
                                          loc)).results[0]


def _expand(rewriter, src, groups, shape, result_type, loc):
    """tensor.expand_shape of `src` to `result_type`, the sizes `shape` ints or Values."""
    static = [s if isinstance(s, int) else DYN for s in shape]
    dynamic = [s for s in shape if not isinstance(s, int)]
    op = ExpandShapeOp.create([src] + dynamic, [result_type],
                              {"reassociation": _reassociation_attr(groups),
                               "static_output_shape": A.DenseArrayAttr(A.i64, static)},
                              None, (), 0, loc)
    return _insert(rewriter, op).results[0]


def _collapse(rewriter, src, groups, result_type, loc):
    op = CollapseShapeOp.create([src], [result_type],
                                {"reassociation": _reassociation_attr(groups)}, None, (), 0,
                                loc)
    return _insert(rewriter, op).results[0]


def _dominates(v, op) -> bool:
    """Whether value `v` is available before `op` (defined before it in its block or an
    enclosing one, or an argument of one of those blocks)."""
    block = v.owner if isinstance(v, BlockArgument) else v.owner.parent
    anchor = op
    while anchor is not None:
        if anchor.parent is block:
            if isinstance(v, BlockArgument):
                return True
            d = v.owner
            return d is not anchor and d.is_before_in_block(anchor)
        region = anchor.parent.parent if anchor.parent is not None else None
        anchor = region.parent if region is not None else None
    return False


# ====================================================================== preconditions


def is_fusable_with_reshape_by_expansion(op, operand_index) -> bool:
    """isFusableWithReshapeByDimExpansion: tensor semantics, every map a projected
    permutation, the reshaped operand not a scalar (split loops keep their kind)."""
    if not isinstance(op, StructuredOp) or not op.has_pure_tensor_semantics():
        return False
    maps = _maps(op)
    if any(not m.is_projected_permutation() for m in maps):
        return False
    return bool(maps[operand_index].results)


def _index_ops(op):
    if not op.regions or not op.regions[0].blocks:
        return []
    return [x for x in op.regions[0].blocks[0].ops if type(x) is IndexOp]


# ====================================================================== expansion


class _Expansion:
    """ExpansionInfo (see [Note: expansion]): for each old loop, its new loops and their
    sizes (ints, Values, or ("dim", operand number, dim) for an extent still to read)."""

    __slots__ = ("dims", "sizes", "num_dims")

    def __init__(self, fused_map, groups, shape, extents):
        n = fused_map.num_dims
        sizes = [None] * n
        for k, r in enumerate(fused_map.results):
            g = groups[k]
            sizes[r.position] = list(shape[g[0]:g[0] + len(g)])
        for i in range(n):
            if sizes[i] is None:
                sizes[i] = [extents[i]]
        self.sizes = sizes
        self.dims, total = [], 0
        for s in sizes:
            self.dims.append(list(range(total, total + len(s))))
            total += len(s)
        self.num_dims = total

    def map(self, m):
        """getIndexingMapInExpandedOp."""
        return AffineMap(self.num_dims, m.num_symbols,
                         [AffineDimExpr(d) for r in m.results for d in self.dims[r.position]])

    def shape(self, m):
        """The expanded sizes of an operand read through `m`."""
        return [s for r in m.results for s in self.sizes[r.position]]

    def groups(self, m):
        """getReassociationForExpansion."""
        out, n = [], 0
        for r in m.results:
            k = len(self.dims[r.position])
            out.append(list(range(n, n + k)))
            n += k
        return out


def _static(s):
    return s if isinstance(s, int) else DYN


def _compatible(collapsed, expanded, groups) -> bool:
    """reshapeLikeShapesAreCompatible for an expanding reshape."""
    start = 0
    for k, g in enumerate(groups):
        band = expanded[start:start + len(g)]
        start += len(g)
        if DYN in band:
            if collapsed[k] != DYN:
                return False
        else:
            n = 1
            for d in band:
                n *= d
            if collapsed[k] != n:
                return False
    return True


def _loop_extents(op, maps):
    """The extent of each loop as createLoopRanges reads it: the first operand dim the
    loop walks, an int when static, else ("dim", flat index) for a tensor.dim."""
    inv = inverse_permutation(concat_maps(maps))
    if inv is None:
        return None
    flat = []
    for i, o in enumerate(op._operands):
        t = o.value.type
        if isinstance(t, A.ShapedType) and t.has_rank:
            for k, d in enumerate(t.shape):
                flat.append(d if d != DYN else ("dim", len(flat), i, k))
    return [flat[r.position] for r in inv.results]


def fuse_with_reshape_by_expansion(op, reshape, operand_index, rewriter):
    """Expand structured op `op` so that it reads the source of the collapse_shape feeding
    its input `operand_index`, or writes the shape of the expand_shape of its result (its
    init `operand_index`) directly (see is_fusable_with_reshape_by_expansion, which must
    hold). Returns the values replacing the op's results (collapse_shapes where the types
    differ), or None, having changed nothing."""
    maps = _maps(op)
    loc = op.loc
    groups = reassociation_indices(reshape.properties["reassociation"])
    if type(reshape) is ExpandShapeOp:
        shape = mixed_values(list(reshape.properties["static_output_shape"].value),
                             reshape.operands[1:])
        if any(not isinstance(s, int) and not _dominates(s, op) for s in shape):
            return None
        src = reshape.operand(0)
    else:
        src = reshape.operand(0)
        shape = [d if d != DYN else ("src", k) for k, d in enumerate(src.type.shape)]
    extents = _loop_extents(op, maps)
    if extents is None or not groups:
        return None
    info = _Expansion(maps[operand_index], groups, shape, extents)
    for x in _index_ops(op):
        if len(info.dims[x._props["dim"].value]) > 1:
            return None  # would need affine.apply
    new_maps = [info.map(m) for m in maps]
    n_in = op.num_dps_inputs()
    vals = op.operands

    # What each operand becomes: (value to keep) or (value, groups, sizes, new type).
    plan = []
    for i, v in enumerate(vals):
        t = v.type
        if i == operand_index and i < n_in:
            plan.append(src)
            continue
        if type(t) is not A.RankedTensorType:
            if i >= n_in:
                return None
            plan.append(v)
            continue
        sizes = info.shape(maps[i])
        nt = A.RankedTensorType([_static(s) for s in sizes], t.element_type)
        if nt is t:
            plan.append(v)
            continue
        g = info.groups(maps[i])
        if not _compatible(list(t.shape), list(nt.shape), g):
            return None
        plan.append((v, g, sizes, nt))

    # Upstream reads the sizes first: the collapse source's, then the loop extents.
    rewriter.ip = InsertionPoint.before_op(op)
    used = {s for p in plan if type(p) is tuple for s in p[2] if type(s) is tuple}
    made = {}
    for key in sorted((s for s in used if s[0] == "src"), key=lambda s: s[1]):
        made[key] = _dim_value(rewriter, src, key[1], loc)
    for key in sorted((s for s in used if s[0] == "dim"), key=lambda s: s[1]):
        made[key] = _dim_value(rewriter, vals[key[2]], key[3], loc)
    operands = []
    for p in plan:
        if type(p) is tuple:
            v, g, sizes, nt = p
            sizes = [made[s] if type(s) is tuple else s for s in sizes]
            operands.append(_expand(rewriter, v, g, sizes, nt, loc))
        else:
            operands.append(p)
    inputs, outputs = operands[:n_in], operands[n_in:]
    result_types = [v.type for v in outputs]
    its = op.iterator_types_list()
    new_its = ["parallel"] * info.num_dims
    for i, t in enumerate(its):
        for j in info.dims[i]:
            new_its[j] = t
    new = _expanded_op(rewriter, op, inputs, outputs, result_types, new_maps, new_its, info)
    rewriter.ip = InsertionPoint.before_op(op)
    out = []
    for k, r in enumerate(op.results):
        nr = new.results[k]
        if nr.type is r.type:
            out.append(nr)
        else:
            out.append(_collapse(rewriter, nr, info.groups(maps[n_in + k]), r.type, loc))
    return out


def _expanded_op(rewriter, op, inputs, outputs, result_types, maps, iterators, info):
    """createExpandedOp: fill and copy keep their kind, transpose gets the expanded
    permutation, everything else becomes a linalg.generic with the op's payload."""
    from .elementwise_fusion import _new_generic, _take_block, pruned_attributes
    from ...dialects.linalg.structured import to_iterator_attr
    loc = op.loc
    if type(op) in (FillOp, CopyOp):
        props = dict(op._props)
        props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(inputs), len(outputs)])
        attrs = pruned_attributes(op)
        new = type(op).create(inputs + outputs, result_types, props, attrs or None, (), 1,
                              loc)
        new.regions[0].add_block(_take_block(op))
        return _insert(rewriter, new)
    if type(op) is TransposeOp:
        perm = list(op._props["permutation"].value)
        inv = [0] * len(perm)
        for i, p in enumerate(perm):
            inv[p] = i
        new_perm = [d for p in inv for d in info.dims[p]]
        inv2 = [0] * len(new_perm)
        for i, p in enumerate(new_perm):
            inv2[p] = i
        return _insert(rewriter, TransposeOp.new(inputs[0], outputs[0], inv2, loc))
    block = _take_block(op)
    new = _new_generic(rewriter, op, inputs, outputs, maps,
                       A.ArrayAttr([to_iterator_attr(t) for t in iterators]), result_types,
                       block, loc)
    for x in [x for x in block.ops if type(x) is IndexOp]:
        d = x._props["dim"].value
        e = info.dims[d][0]
        if e != d:
            rewriter.ip = InsertionPoint.after_op(x)
            idx = _insert(rewriter, IndexOp.create([], [A.index],
                                                   {"dim": A.IntegerAttr(e, A.i64)}, None,
                                                   (), 0, loc))
            rewriter.replace_op(x, idx.results)
    return new


def _single_user_definer(v) -> bool:
    """The control function: the op defining `v` has no other use."""
    from .elementwise_fusion import _op_uses
    return isinstance(v, OpResult) and _op_uses(v.owner) == 1


class FoldReshapeWithGenericOpByExpansion(RewritePattern):
    """expand_shape of a structured op's result: the op is expanded to produce it.
    `control(op)` (optional) says whether structured op `op` may be expanded."""

    root = "tensor.expand_shape"

    def __init__(self, control=None):
        self.control = control

    def match_and_rewrite(self, op, rewriter) -> bool:
        v = op.operand(0)
        if not isinstance(v, OpResult) or not isinstance(v.owner, StructuredOp):
            return False
        producer = v.owner
        init = producer.num_dps_inputs() + v.index
        if not is_fusable_with_reshape_by_expansion(producer, init) or \
                not _single_user_definer(v) or \
                (self.control is not None and not self.control(producer)):
            return False
        values = fuse_with_reshape_by_expansion(producer, op, init, rewriter)
        if values is None:
            return False
        r = values[v.index]
        if type(r.owner) is CollapseShapeOp:
            r = r.owner.operand(0)
        rewriter.replace_op(op, [r])
        rewriter.replace_op(producer, values)
        return True


class FoldWithProducerReshapeOpByExpansion(RewritePattern):
    """A collapse_shape feeding an input of a structured op: the op is expanded to read
    the collapse's source."""

    def __init__(self, root, control=None):
        self.root = root
        self.control = control

    def match_and_rewrite(self, op, rewriter) -> bool:
        if self.control is not None and not self.control(op):
            return False
        for i in range(op.num_dps_inputs()):
            v = op.operand(i)
            reshape = v.defining_op
            if type(reshape) is not CollapseShapeOp:
                continue
            if not is_fusable_with_reshape_by_expansion(op, i) or \
                    not _single_user_definer(v):
                continue
            values = fuse_with_reshape_by_expansion(op, reshape, i, rewriter)
            if values is None:
                return False
            rewriter.replace_op(op, values)
            return True
        return False


def reshape_by_expansion_patterns(control=None) -> list:
    """populateFoldReshapeOpsByExpansionPatterns (without the tensor.pad ones);
    `control(op)`, if given, says which structured ops may be expanded."""
    from ...dialects.linalg import LINALG
    return [FoldReshapeWithGenericOpByExpansion(control)] + [
        FoldWithProducerReshapeOpByExpansion(name, control)
        for name, cls in LINALG.ops.items() if issubclass(cls, StructuredOp)]


# ====================================================================== canonicalization


class FoldReshape(RewritePattern):
    """The reshape folders: to the source type, of the inverse reshape (same groups, or
    at most one dynamic dim), of a dense constant."""

    benefit = 100  # folding comes before patterns

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        src = op.operand(0)
        rt = op.results[0].type
        if src.type is rt:
            rewriter.replace_op(op, [src])
            return True
        attr = constant_value(src)
        if type(attr) is DenseElementsAttr:
            c = _insert(rewriter, ConstantOp.create(
                [], [rt], {"value": DenseElementsAttr.from_raw(rt, attr.raw)}, None, (), 0,
                op.loc))
            rewriter.replace_op(op, c.results)
            return True
        inverse = CollapseShapeOp if type(op) is ExpandShapeOp else ExpandShapeOp
        d = src.defining_op
        if type(d) is not inverse or d.operand(0).type is not rt:
            return False
        if sum(1 for x in rt.shape if x == DYN) >= 2:
            # As upstream's foldReshapeOp: the same groups, and expanding back what was
            # collapsed only where no group has two dynamic dims ([a, b] -> [a*b] ->
            # [b, a] has the source's type but not its shape).
            if d.properties["reassociation"] is not op.properties["reassociation"]:
                return False
            if type(op) is ExpandShapeOp and any(
                    sum(1 for i in g if rt.shape[i] == DYN) >= 2
                    for g in reassociation_indices(op.properties["reassociation"])):
                return False
        rewriter.replace_op(op, [d.operand(0)])
        return True


def _compose_groups(a, b):
    """composeReassociationIndices: the longer list's groups gathered by the shorter's."""
    if len(a) == len(b):
        return None
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return []
    if sum(len(g) for g in b) != len(a):
        return None
    return [[i for j in g for i in a[j]] for g in b]


class ComposeReshapes(RewritePattern):
    """ComposeReassociativeReshapeOps: expand_shape of expand_shape (collapse of
    collapse) is one reshape of the first one's source."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        d = op.operand(0).defining_op
        if type(d) is not type(op):
            return False
        groups = _compose_groups(reassociation_indices(d.properties["reassociation"]),
                                 reassociation_indices(op.properties["reassociation"]))
        if groups is None:
            return False
        rt = op.results[0].type
        if type(op) is ExpandShapeOp:
            shape = mixed_values(list(op.properties["static_output_shape"].value),
                                 op.operands[1:])
            new = _expand(rewriter, d.operand(0), groups, shape, rt, op.loc)
        else:
            new = _collapse(rewriter, d.operand(0), groups, rt, op.loc)
        rewriter.replace_op(op, [new])
        return True


def reshape_canonicalization_patterns() -> list:
    return [FoldReshape("tensor.expand_shape"), FoldReshape("tensor.collapse_shape"),
            ComposeReshapes("tensor.expand_shape"), ComposeReshapes("tensor.collapse_shape")]
