"""`linalg-fold-unit-extent-dims`: loops of trip count one, and operand dims of size one
read at index 0, are dropped from linalg.generic ops on tensors (upstream's
LinalgFoldUnitExtentDimsPass with its default strategy, reassociative reshapes):

    %0 = linalg.generic {maps (d0, d1) -> (d0, d1)} ins(%a : tensor<1x8xf32>) ...
  becomes
    %c = tensor.collapse_shape %a [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
    %r = linalg.generic {maps (d0) -> (d0)} ins(%c : tensor<8xf32>) ...
    %0 = tensor.expand_shape %r [[0, 1]] output_shape [1, 8] : ...

so that fewer, longer loops remain for convert-linalg-to-loops. The patterns:

  DropUnitDims              the rewrite above; linalg.index of a dropped loop is 0,
                            the others are renumbered;
  MoveInitOperandsToInput   an all-parallel op reading its init reads it as an input
                            and writes a tensor.empty instead;
  FoldFillWith...           a reshape, transpose or copy of a fill is a fill, a copy into
                            a fill's result copies into its init, an extract of it is
                            the fill value (FillOp's canonicalizations);
  FoldEmptyWithReshape      a reshape of a tensor.empty is a tensor.empty;
  and the reshape folds and compositions of reshape_fusion.py.

Operands that cannot be collapsed (memrefs, tensors with an encoding, scalars) keep their
rank and read the dropped loops at 0. Upstream's rank-reducing slice patterns (for
tensor.extract_slice / insert_slice / pad) are not here.
"""
from __future__ import annotations

from ...dialects.linalg import CopyOp, FillOp, IndexOp
from ...dialects.tensor import EmptyOp, ExpandShapeOp
from ...ir import attributes as A
from ...ir.affine import DIM, AffineConstantExpr, AffineDimExpr, AffineMap
from ...ir.builder import InsertionPoint
from ...ir.core import BlockArgument
from ...passes.pass_manager import Pass
from ...rewrite.pattern import RewritePattern
from ...syntax.dynamic_index_list import mixed_values, reassociation_indices
from .elementwise_fusion import (_index_constant, _insert, _maps, _new_generic, _pure_tensor,
                                 _shapes_to_loops, _take_block, pruned_attributes)
from .reshape_fusion import _collapse, _expand, reshape_canonicalization_patterns

__all__ = ["LinalgFoldUnitExtentDims", "fold_unit_extent_dims_patterns", "drop_unit_dims"]

DYN = A.DYNAMIC
GENERIC = "linalg.generic"


def _shape(t):
    return list(t.shape) if isinstance(t, A.ShapedType) and t.has_rank else []


def _collapsible(t) -> bool:
    return type(t) is A.RankedTensorType and t.encoding is None


def _operand_metadata(m, shape, old_to_new, repl):
    """dropUnitExtentFromOperandMetadata: the operand's new map, shape and the groups
    collapsing it (each kept dim with the unit dims after it; leading unit dims join the
    first group)."""
    exprs = m.results

    def unit(k):
        e = exprs[k]
        if e.kind == DIM:
            return e.position not in old_to_new and shape[k] == 1
        return shape[k] == 1 and type(e) is AffineConstantExpr and e.value == 0

    groups, new_exprs, target = [], [], []
    group, k, n = [], 0, len(shape)
    while k < n and unit(k):
        group.append(k)
        k += 1
    while k < n:
        group.append(k)
        new_exprs.append(exprs[k].replace_dims_and_symbols(repl, ()))
        target.append(shape[k])
        k += 1
        while k < n and unit(k):
            group.append(k)
            k += 1
        groups.append(group)
        group = []
    return AffineMap(len(old_to_new), m.num_symbols, new_exprs), target, groups


def _constant_unit_dim(t, m) -> bool:
    """Whether a collapsible operand has a dim of size 1 read at constant 0."""
    if not _collapsible(t):
        return False
    return any(d == 1 and type(e) is AffineConstantExpr and e.value == 0
               for d, e in zip(t.shape, m.results))


def drop_unit_dims(op, rewriter):
    """linalg::dropUnitDims on a linalg.generic `op`: the replacement values of its
    results (expand_shapes where they were collapsed), or None, having changed nothing."""
    maps = _maps(op)
    if not maps:
        return None
    inv = _shapes_to_loops(maps)
    if inv is None:
        return None
    vals = op.operands
    sizes = [d for v in vals for d in _shape(v.type)]
    unit = {i for i, r in enumerate(inv.results) if r.kind == DIM and sizes[r.position] == 1}
    if not unit and not any(_constant_unit_dim(v.type, m) for v, m in zip(vals, maps)):
        return None  # nothing would change (the quick test of the common case)
    its = op._props["iterator_types"].value
    repl, old_to_new, new_its = [], {}, []
    for i, t in enumerate(its):
        if i in unit:
            repl.append(AffineConstantExpr(0))
        else:
            old_to_new[i] = len(new_its)
            repl.append(AffineDimExpr(len(new_its)))
            new_its.append(t)
    new_maps, plans = [], []
    for v, m in zip(vals, maps):
        shape = _shape(v.type)
        if not _collapsible(v.type):
            new_maps.append(AffineMap(len(new_its), 0, [
                e.replace_dims_and_symbols(repl, ()) for e in m.results]))
            plans.append(None)
            continue
        nm, target, groups = _operand_metadata(m, shape, old_to_new, repl)
        new_maps.append(nm)
        plans.append((target, groups) if nm.num_results != m.num_results else None)
    if new_maps == maps or _shapes_to_loops(new_maps) is None:
        return None

    loc = op.loc
    rewriter.ip = InsertionPoint.before_op(op)
    operands = []
    for v, p in zip(vals, plans):
        if p is None:
            operands.append(v)
        else:
            nt = A.RankedTensorType(p[0], v.type.element_type)
            operands.append(_collapse(rewriter, v, p[1], nt, loc))
    n_in = op.num_dps_inputs()
    inputs, outputs = operands[:n_in], operands[n_in:]
    block = _take_block(op)
    new = _new_generic(rewriter, op, inputs, outputs, new_maps, A.ArrayAttr(new_its),
                       [v.type for v in outputs[:len(op.results)]], block, loc)
    for x in [x for x in block.ops if type(x) is IndexOp]:
        d = x._props["dim"].value
        rewriter.ip = InsertionPoint.before_op(x)
        if d in unit:
            rewriter.replace_op(x, _insert(rewriter, _index_constant(0, x.loc)).results)
        elif old_to_new[d] != d:
            rewriter.replace_op(x, _insert(rewriter, IndexOp.create(
                [], [A.index], {"dim": A.IntegerAttr(old_to_new[d], A.i64)}, None, (), 0,
                x.loc)).results)
    rewriter.ip = InsertionPoint.before_op(op)
    out = []
    for k, r in enumerate(new.results):
        p = plans[n_in + k]
        if p is None:
            out.append(r)
            continue
        dest = vals[n_in + k]
        shape = [s if s != DYN else _dest_dim(rewriter, dest, i, loc)
                 for i, s in enumerate(dest.type.shape)]
        out.append(_expand(rewriter, r, p[1], shape, dest.type, loc))
    return out


def _dest_dim(rewriter, dest, k, loc):
    from .reshape_fusion import _dim_value
    ip = rewriter.ip
    v = _dim_value(rewriter, dest, k, loc)
    rewriter.ip = ip
    return v


class DropUnitDims(RewritePattern):
    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        values = drop_unit_dims(op, rewriter)
        if values is None:
            return False
        rewriter.replace_op(op, values)
        return True


def _empty_like(rewriter, v, loc):
    """tensor.empty with `v`'s sizes (tensor::getMixedSizes: tensor.dim where dynamic)."""
    from .reshape_fusion import _dim_value
    t = v.type
    dyn = [_dim_value(rewriter, v, k, loc) for k, d in enumerate(t.shape) if d == DYN]
    return _insert(rewriter, EmptyOp.create(dyn, [A.RankedTensorType(t.shape, t.element_type)],
                                            None, None, (), 0, loc)).results[0]


class MoveInitOperandsToInput(RewritePattern):
    """An all-parallel generic op on tensors that reads an init reads it as an extra
    input instead, and writes a tensor.empty created right after the init's value."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _pure_tensor(op) or any(a.value != "parallel"
                                       for a in op._props["iterator_types"].value):
            return False
        n_in = op.num_dps_inputs()
        args = op.body.args
        vals = op.operands
        cand = [k for k in range(len(vals) - n_in) if args[n_in + k].first_use is not None]
        if not cand:
            return False
        maps = _maps(op)
        new_maps = maps[:n_in] + [maps[n_in + k] for k in cand] + maps[n_in:]
        inputs = vals[:n_in] + [vals[n_in + k] for k in cand]
        outputs = list(vals[n_in:])
        loc = op.loc
        for k in cand:
            v = outputs[k]
            if isinstance(v, BlockArgument):
                rewriter.ip = InsertionPoint(v.owner, v.owner.first)
            else:
                rewriter.ip = InsertionPoint.after_op(v.owner)
            outputs[k] = _empty_like(rewriter, v, loc)
        block = _take_block(op)
        moved = [args[n_in + k] for k in cand]
        fresh = []
        for k in cand:
            a = args[n_in + k]
            fresh.append(BlockArgument(a.type, block, 0, loc))
        new_args = list(args[:n_in]) + moved
        it = iter(fresh)
        for k in range(len(vals) - n_in):
            new_args.append(next(it) if k in cand else args[n_in + k])
        from .elementwise_fusion import _set_args
        _set_args(block, new_args)
        for a in new_args:
            a.loc = loc
        attrs = pruned_attributes(op)
        new = _new_generic(rewriter, op, inputs, outputs, new_maps,
                           op._props["iterator_types"], [r.type for r in op.results], block,
                           loc, attrs)
        rewriter.replace_op(op, new.results)
        return True


class FoldFillWithReshape(RewritePattern):
    """FoldFillWithTensorReshape: reshape(fill(v, init)) is fill(v, reshape(init))."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        fill = op.operand(0).defining_op
        if type(fill) is not FillOp or not fill.results:
            return False
        groups = reassociation_indices(op.properties["reassociation"])
        rt = op.results[0].type
        init = fill.operand(1)
        if type(op) is ExpandShapeOp:
            shape = mixed_values(list(op.properties["static_output_shape"].value),
                                 op.operands[1:])
            new_init = _expand(rewriter, init, groups, shape, rt, fill.loc)
        else:
            new_init = _collapse(rewriter, init, groups, rt, fill.loc)
        new = FillOp.new([fill.operand(0)], [new_init], loc=op.loc)
        rewriter.replace_op(op, _insert(rewriter, new).results)
        return True


class FoldFillWithCopy(RewritePattern):
    """copy of a fill is a fill of the copy's init; a copy into a fill's result copies
    into the fill's init (the fill is overwritten)."""

    root = "linalg.copy"

    def match_and_rewrite(self, op, rewriter) -> bool:
        src, dst = op.operand(0), op.operand(1)
        fill = src.defining_op
        if type(fill) is FillOp and fill.operand(0).type is getattr(dst.type,
                                                                   "element_type", None):
            new = FillOp.new([fill.operand(0)], [dst], [r.type for r in op.results],
                             loc=op.loc)
        else:
            fill = dst.defining_op
            if type(fill) is not FillOp:
                return False
            cast = op._props.get("cast")
            new = CopyOp.new([src], [fill.operand(1)], [r.type for r in op.results],
                             loc=op.loc, **({"cast": cast} if cast is not None else {}))
        rewriter.replace_op(op, _insert(rewriter, new).results)
        return True


class FoldFillWithTranspose(RewritePattern):
    """A transpose of a fill is a fill of the transpose's init."""

    root = "linalg.transpose"

    def match_and_rewrite(self, op, rewriter) -> bool:
        fill = op.operand(0).defining_op
        if type(fill) is not FillOp:
            return False
        new = FillOp.new([fill.operand(0)], [op.operand(1)], [r.type for r in op.results],
                         loc=op.loc)
        rewriter.replace_op(op, _insert(rewriter, new).results)
        return True


class FoldFillWithTensorExtract(RewritePattern):
    """tensor.extract of a fill's result is the fill value."""

    root = "tensor.extract"

    def match_and_rewrite(self, op, rewriter) -> bool:
        fill = op.operand(0).defining_op
        if type(fill) is not FillOp:
            return False
        rewriter.replace_op(op, [fill.operand(0)])
        return True


class FoldEmptyWithReshape(RewritePattern):
    """FoldEmptyTensorWithReshapeOp: a reshape of a tensor.empty is a tensor.empty of the
    result type (sizes from an expand_shape's output shape; a dynamic collapsed dim only
    when it is the one dynamic dim of its group, all others of size 1)."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        empty = op.operand(0).defining_op
        if type(empty) is not EmptyOp:
            return False
        rt = op.results[0].type
        if type(op) is ExpandShapeOp:
            dyn = list(op.operands[1:])
        else:
            src_t = op.operand(0).type
            src_dyn = iter(empty.operands)
            sizes = [next(src_dyn) if d == DYN else d for d in src_t.shape]
            dyn = []
            for g, d in zip(reassociation_indices(op.properties["reassociation"]),
                            rt.shape):
                if d != DYN:
                    continue
                parts = [sizes[i] for i in g]
                values = [p for p in parts if not isinstance(p, int)]
                if len(values) != 1 or any(p != 1 for p in parts if isinstance(p, int)):
                    return False
                dyn.append(values[0])
        new = _insert(rewriter, EmptyOp.create(dyn, [rt], None, None, (), 0, op.loc))
        rewriter.replace_op(op, new.results)
        return True


def fold_unit_extent_dims_patterns() -> list:
    """populateFoldUnitExtentDimsPatterns (reshape strategy, without the slice and pad
    patterns) and populateMoveInitOperandsToInputPattern."""
    return [DropUnitDims(), FoldFillWithCopy(), FoldFillWithTensorExtract(),
            FoldFillWithReshape("tensor.collapse_shape"),
            FoldFillWithReshape("tensor.expand_shape"), FoldFillWithTranspose(),
            *reshape_canonicalization_patterns(),
            FoldEmptyWithReshape("tensor.expand_shape"),
            FoldEmptyWithReshape("tensor.collapse_shape"),
            MoveInitOperandsToInput()]


class LinalgFoldUnitExtentDims(Pass):
    name = "linalg-fold-unit-extent-dims"
    summary = "Remove unit-extent dimension in Linalg ops on tensors"
    display_name = "LinalgFoldUnitExtentDimsPass"

    def run(self, op):
        from ...rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        # Upstream's default driver configuration: bottom-up.
        apply_patterns_greedily(op, fold_unit_extent_dims_patterns(),
                                GreedyRewriteConfig(top_down=False))

