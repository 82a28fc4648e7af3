"""`strata-linalg-collapse-dims`: structured ops on buffers run over fewer, longer loops:
loops of trip count one are dropped, and adjacent loops that every operand reads as one
contiguous run of memory are merged into one loop, the operands viewed through
memref.collapse_shape (upstream's idea: IREE's CollapseDimensions and
linalg::collapseOpIterationDims, MLIR's linalg-fold-unit-extent-dims).

    linalg.generic {indexing_maps = [(d0, d1, d2, d3) -> (0, d1, d2, d3),
                                     (d0, d1, d2, d3) -> (d1, 0, 0),
                                     (d0, d1, d2, d3) -> (d0, d1, d2, d3)], ...}
        ins(%x, %bias : memref<1x960x7x7xf32>, memref<960x1x1xf32>)
        outs(%y : memref<1x960x7x7xf32>)
=>
    %0 = memref.collapse_shape %x [[0, 1], [2, 3]] : memref<1x960x7x7xf32> into memref<960x49xf32>
    %1 = memref.collapse_shape %bias [[0, 1, 2]] : memref<960x1x1xf32> into memref<960xf32>
    %2 = memref.collapse_shape %y [[0, 1], [2, 3]] : ... into memref<960x49xf32>
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0),
                                     (d0, d1) -> (d0, d1)], ...}
        ins(%0, %1 : ...) outs(%2 : memref<960x49xf32>)

[Note: why collapse loops on the CPU]
LLVM's loop vectorizer works on the innermost loop. An elementwise op over a 7x7 or
14x14 feature map lowered as loops over (C, H, W) has an inner loop of 7 or 14
iterations: too short for vectors of 8 or 16 floats, so it stays scalar (EfficientNet-B0's
SiLU and bias ops on 14x14 maps ran one float at a time). Collapsed, the same op is a
loop of 49 / 196 (bias broadcast along the channel) or of C*H*W (fully elementwise):
long inner loops the vectorizer takes, fewer loop headers, and fewer index computations.

[Note: when two loops merge]
Adjacent loops d_i, d_{i+1} (adjacent in the op's iteration order, which is the order of
the loop nest convert-linalg-to-loops builds) of the same iterator type merge when, for
EVERY shaped operand, either
  - neither loop appears in its indexing map, or
  - both appear, each exactly once, as plain results `d_i`, `d_{i+1}` at positions p < q
    with only unit dims (size 1, read at 0) between them, and the memory of p and q is
    one run: an identity layout (static or dynamic sizes), or static strides with
    stride_p == stride_q * size_q.
A loop read only by one of the two (a broadcast along one dim: a bias [C] against
[C, H, W] cannot merge C with H), read in another order (a transpose), in an affine
expression (convolution windows), or read by a `linalg.index` of the payload is not
merged. Reductions merge with reductions (a sum over H and W is one sum over H*W).
Loops of static trip count one are dropped first (their index is 0), and operand dims of
size one read at index 0 are folded into their neighbours, so that [1, C, H, W] + [C, 1, 1]
becomes [C, H*W] + [C]. Dynamic strides are never assumed contiguous (upstream's
strict `isGuaranteedCollapsible`), and a view whose collapse would lose a static stride
is left alone.

Named structured ops (linalg.fill, linalg.copy, linalg.transpose, pooling...) that have
something to collapse become linalg.generic first (`generalize`). Ops on tensors collapse
too, as upstream's collapseOpIterationDims does them: operands through
tensor.collapse_shape, results expanded back with tensor.expand_shape (any adjacent dims
of a tensor are contiguous); the compile pipelines leave tensors to
linalg-fold-unit-extent-dims and the fusion's reshape propagation, and run this pass on
buffers only: in the CPU pipeline, the last pass before the loops (backends/cpu/target.py):
the passes that match linalg ops by name or shape (the kernels' contractions, outlining,
blocked transposes of linalg.transpose) see them as they were. Merging adjacent loops
never changes the order of the iterations, only how the loops count them.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap, AffineMapAttr
from ...passes.pass_manager import Pass, Statistic

__all__ = ["LinalgCollapseDims", "collapse_dims", "collapse_plan"]

DYN = A.DYNAMIC
_ZERO = AffineConstantExpr(0)


class _Plan:
    """What collapsing one op means: the new loops (groups of old ones), and per operand
    its reassociation groups (None: unchanged) and new map."""

    __slots__ = ("loop_groups", "dropped", "operand_groups", "maps", "types")

    def __init__(self, loop_groups, dropped, operand_groups, maps, types):
        self.loop_groups = loop_groups
        self.dropped = dropped
        self.operand_groups = operand_groups
        self.maps = maps
        self.types = types


def _uses_dim(e, d: int) -> bool:
    return any(type(x) is AffineDimExpr and x.position == d for x in e.walk())


def _index_ops(op) -> list:
    """The linalg.index ops reading `op`'s loops (in nested regions too, but not in a
    linalg op nested in the payload: those read its own loops)."""
    out = []
    for r in op.regions:
        for b in r.blocks:
            for o in b.ops:
                if o.name == "linalg.index":
                    out.append(o)
                elif o.regions and not o.name.startswith("linalg."):
                    out.extend(_index_ops(o))
    return out


def _contiguous(t, p: int, q: int) -> bool:
    """Whether dims p < q of memref type `t` (only unit dims between) are one run."""
    from ...dialects.memref_layout import is_identity_layout, strides_and_offset
    if type(t) is A.RankedTensorType or is_identity_layout(t):
        return True
    so = strides_and_offset(t)
    if so is None:
        return False
    strides = so[0]
    sp, sq, nq = strides[p], strides[q], t.shape[q]
    return DYN not in (sp, sq, nq) and sp == sq * nq


def collapse_plan(op):
    """The _Plan collapsing `op` (a structured op whose shaped operands are all ranked
    memrefs), or None when no loop would be dropped or merged (see the module doc)."""
    from ...dialects.linalg.structured import StructuredOp
    from ...dialects.memref_layout import collapsed_type, strides_and_offset
    if not isinstance(op, StructuredOp) or not op.regions or not op.regions[0].blocks:
        return None
    # on buffers, or on tensors (every init a tensor with its result)
    shaped = A.MemRefType
    if op.results:
        if len(op.results) != op.num_dps_inits or not op.has_pure_tensor_semantics():
            return None
        shaped = A.RankedTensorType
    try:
        maps = op.indexing_maps_list()
        iters = op.iterator_types_list()
    except (NotImplementedError, KeyError, TypeError):
        return None
    operands = op.operands
    if len(maps) != len(operands):
        return None
    n = len(iters)
    types = [v.type for v in operands]
    for t, m in zip(types, maps):
        if isinstance(t, A.ShapedType):
            if type(t) is not shaped or len(t.shape) != m.num_results or \
                    shaped is A.RankedTensorType and t.encoding is not None:
                return None
        elif m.num_results:
            return None
        if m.num_symbols or m.num_dims != n:
            return None
    if n == 0:
        return None
    sizes = _loop_sizes(maps, types, n)
    # 1. unit loops, dropped (at least one loop stays)
    dropped = {d for d in range(n) if sizes[d] == 1}
    if len(dropped) == n:
        dropped.discard(n - 1)
    if dropped:
        repl = [(_ZERO if d in dropped else AffineDimExpr(d)) for d in range(n)]
        exprs = [[e.replace_dims_and_symbols(repl, ()) for e in m.results] for m in maps]
        if not _ranges_kept(maps, exprs, types, sizes):
            return None
    else:
        exprs = [list(m.results) for m in maps]
    unit = [[isinstance(t, A.ShapedType) and t.shape[k] == 1 and
             type(e) is AffineConstantExpr and e.value == 0
             for k, e in enumerate(es)] for t, es in zip(types, exprs)]
    # 2. adjacent loops merged (see [Note: when two loops merge])
    indexed = {ix.properties["dim"].value for ix in _index_ops(op)}
    loops = [d for d in range(n) if d not in dropped]
    groups = [[loops[0]]]
    for a, b in zip(loops, loops[1:]):
        if _mergeable(a, b, iters, indexed, types, exprs, unit):
            groups[-1].append(b)
        else:
            groups.append([b])
    if len(groups) == n:
        return None
    # 3. the new maps and each operand's reassociation
    new_of = {}
    for j, g in enumerate(groups):
        for d in g:
            new_of[d] = j
    repl2 = [(_ZERO if d in dropped else AffineDimExpr(new_of[d])) for d in range(n)]
    new_maps, operand_groups, new_types = [], [], []
    for t, es, us in zip(types, exprs, unit):
        if not isinstance(t, A.ShapedType):
            new_maps.append(AffineMap(len(groups), 0, ()))
            operand_groups.append(None)
            new_types.append(t)
            continue
        ogroups, oexprs = [], []
        prev_loop = None
        for k, e in enumerate(es):
            if us[k]:
                if ogroups:
                    ogroups[-1].append(k)
                else:
                    ogroups.append([k])
                    oexprs.append(None)
                continue
            loop = e.position if type(e) is AffineDimExpr else None
            if loop is not None and prev_loop is not None and new_of[loop] == \
                    new_of[prev_loop] and oexprs[-1] is not None:
                ogroups[-1].append(k)       # the next loop of a merged group
            elif ogroups and oexprs[-1] is None:
                ogroups[-1].append(k)       # leading unit dims join the first kept dim
                oexprs[-1] = e.replace_dims_and_symbols(repl2, ())
            else:
                ogroups.append([k])
                oexprs.append(e.replace_dims_and_symbols(repl2, ()))
            prev_loop = loop
        if not ogroups:                     # rank 0 stays rank 0
            new_maps.append(AffineMap(len(groups), 0, ()))
            operand_groups.append(None)
            new_types.append(t)
            continue
        oexprs = [_ZERO if e is None else e for e in oexprs]
        new_maps.append(AffineMap(len(groups), 0, oexprs))
        if len(ogroups) == len(es):
            operand_groups.append(None)
            new_types.append(t)
            continue
        if shaped is A.RankedTensorType:
            ct = A.RankedTensorType(_collapsed_shape(t.shape, ogroups), t.element_type)
        else:
            ct = collapsed_type(t, ogroups)
            if ct is None or not _keeps_strides(t, ct, ogroups, strides_and_offset):
                return None
        operand_groups.append(ogroups)
        new_types.append(ct)
    return _Plan(groups, dropped, operand_groups, new_maps, new_types)


def _collapsed_shape(shape, groups) -> list:
    out = []
    for g in groups:
        n = 1
        for k in g:
            n = DYN if DYN in (n, shape[k]) else n * shape[k]
        out.append(n)
    return out


def _loop_sizes(maps, types, n) -> list:
    """Static trip count per loop (DYN where no operand gives it as a plain dim)."""
    sizes = [DYN] * n
    for t, m in zip(types, maps):
        if not isinstance(t, A.ShapedType):
            continue
        for k, e in enumerate(m.results):
            if type(e) is AffineDimExpr and sizes[e.position] == DYN and t.shape[k] != DYN:
                sizes[e.position] = t.shape[k]
    return sizes


def _ranges_kept(maps, exprs, types, sizes) -> bool:
    """Whether no window expression became a plain loop index over a dim that is not
    that loop's extent: the loops take their ranges from the plain dims of the operands,
    so a max-pool window `d2 * 2 + d5` over a 2-wide image with d2 dropped must not
    become a 2-iteration loop `d5` when the window is 1 wide."""
    for t, m, es in zip(types, maps, exprs):
        for k, (old, e) in enumerate(zip(m.results, es)):
            if type(e) is AffineDimExpr and type(old) is not AffineDimExpr and \
                    (t.shape[k] == DYN or t.shape[k] != sizes[e.position]):
                return False
    return True


def _mergeable(a, b, iters, indexed, types, exprs, unit) -> bool:
    if iters[a] != iters[b] or a in indexed or b in indexed:
        return False
    for t, es, us in zip(types, exprs, unit):
        if not isinstance(t, A.ShapedType):
            continue
        pa, pb = [], []
        for k, e in enumerate(es):
            if type(e) is AffineDimExpr:
                if e.position == a:
                    pa.append(k)
                elif e.position == b:
                    pb.append(k)
            elif _uses_dim(e, a) or _uses_dim(e, b):
                return False                # in an affine expression (windows)
        if not pa and not pb:
            continue
        if len(pa) != 1 or len(pb) != 1:
            return False                    # broadcast along one of them, or repeated
        p, q = pa[0], pb[0]
        if q <= p or not all(us[k] for k in range(p + 1, q)):
            return False                    # transposed, or other dims between
        if not _contiguous(t, p, q):
            return False
    return True


def _keeps_strides(t, ct, groups, strides_and_offset) -> bool:
    """Whether the collapsed view `ct` still knows each group's innermost static stride
    (a dynamic-size unit-dim fold under a strided layout would make it `?`)."""
    if ct.layout is None:
        return True
    src = strides_and_offset(t)
    new = strides_and_offset(ct)
    if src is None or new is None:
        return False
    for g, s in zip(groups, new[0]):
        kept = [k for k in g if t.shape[k] != 1] or [g[-1]]
        if src[0][kept[-1]] != DYN and s != src[0][kept[-1]]:
            return False
    return True


def apply_plan(op, plan, rewriter=None):
    """Rewrite `op` by `plan` (from collapse_plan); returns the linalg.generic."""
    from ...dialects.linalg import GenericOp
    from ...dialects.linalg.structured import to_iterator_attr
    from ...dialects.memref import CollapseShapeOp
    from ...ir.builder import Builder
    from ...rewrite.pattern import PatternRewriter
    from .generalize import generalize
    from .reshape_fusion import _reassociation_attr
    iters = op.iterator_types_list()
    if type(op) is not GenericOp:
        rewriter = rewriter or PatternRewriter()
        op = generalize(op, rewriter)
    if op.results:
        return _apply_on_tensors(op, plan, iters, rewriter or PatternRewriter())
    b = Builder.before(op, op.loc)
    for i, (g, t) in enumerate(zip(plan.operand_groups, plan.types)):
        if g is None:
            continue
        view = b.insert(CollapseShapeOp.create([op.operand(i)], [t],
                                               {"reassociation": _reassociation_attr(g)},
                                               None, (), 0, op.loc)).results[0]
        op.set_operand(i, view)
    props = op.properties
    props["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in plan.maps])
    props["iterator_types"] = A.ArrayAttr([to_iterator_attr(iters[g[0]])
                                           for g in plan.loop_groups])
    if "linalg.memoized_indexing_maps" in op.attributes:
        del op.attributes["linalg.memoized_indexing_maps"]
    _renumber_index_ops(op, plan)
    return op


def _apply_on_tensors(op, plan, iters, rewriter):
    """Operands through tensor.collapse_shape, a new generic op, its results expanded
    back to the old types (tensor.expand_shape; dynamic sizes from the inits)."""
    from ...dialects.linalg.structured import to_iterator_attr
    from ...ir.builder import InsertionPoint
    from .elementwise_fusion import _new_generic, _take_block, pruned_attributes
    from .reshape_fusion import _collapse, _expand
    from .unit_dims import _dest_dim
    loc = op.loc
    rewriter.ip = InsertionPoint.before_op(op)
    vals = op.operands
    operands = [v if g is None else _collapse(rewriter, v, g, t, loc)
                for v, g, t in zip(vals, plan.operand_groups, plan.types)]
    n_in = op.num_dps_inputs()
    its = A.ArrayAttr([to_iterator_attr(iters[g[0]]) for g in plan.loop_groups])
    new = _new_generic(rewriter, op, operands[:n_in], operands[n_in:], plan.maps, its,
                       [v.type for v in operands[n_in:]], _take_block(op), loc,
                       pruned_attributes(op))
    _renumber_index_ops(new, plan)
    rewriter.ip = InsertionPoint.before_op(op)
    out = []
    for k, r in enumerate(new.results):
        g, dest = plan.operand_groups[n_in + k], vals[n_in + k]
        if g is None:
            out.append(r)
            continue
        shape = [d if d != DYN else _dest_dim(rewriter, dest, i, loc)
                 for i, d in enumerate(dest.type.shape)]
        out.append(_expand(rewriter, r, g, shape, dest.type, loc))
    rewriter.replace_op(op, out)
    return new


def _renumber_index_ops(op, plan):
    """linalg.index of a dropped loop is 0; the others read their new loop."""
    from ...ir.builder import Builder, InsertionPoint
    from .reshape_fusion import _index_constant
    new_of = {d: j for j, g in enumerate(plan.loop_groups) for d in g}
    for ix in _index_ops(op):
        d = ix.properties["dim"].value
        if d in plan.dropped:
            zero = _index_constant(0, ix.loc)
            Builder(InsertionPoint.before_op(ix)).insert(zero)
            ix.results[0].replace_all_uses_with(zero.results[0])
            ix.erase()
        else:
            ix.properties["dim"] = A.IntegerAttr(new_of[d], A.i64)


def collapse_dims(root) -> tuple:
    """Collapse every structured op on buffers under `root` (see the module doc);
    returns (ops rewritten, loops removed)."""
    from ...dialects.linalg.structured import StructuredOp
    ops = [o for o in root.walk() if isinstance(o, StructuredOp)]
    count = removed = 0
    for op in ops:
        plan = collapse_plan(op)
        if plan is None:
            continue
        before = len(op.iterator_types_list())
        apply_plan(op, plan)
        count += 1
        removed += before - len(plan.loop_groups)
    return count, removed


class LinalgCollapseDims(Pass):
    name = "strata-linalg-collapse-dims"
    summary = ("Drop unit loops and merge adjacent loops over contiguous memory of linalg "
               "ops on buffers (memref.collapse_shape views)")
    num_ops = Statistic("num-ops", "Number of linalg ops collapsed")
    num_loops = Statistic("num-loops", "Number of loops removed")

    def run(self, op):
        count, removed = collapse_dims(op)
        self.stat("num-ops", count)
        self.stat("num-loops", removed)
