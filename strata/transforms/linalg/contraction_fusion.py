"""`strata-linalg-fold-into-contractions`: folds into a contraction (a linalg op of the
contraction interface on tensors: matmul, batch_matmul, their generic forms) the
transposes of its operands and the additions to its result, so that the CPU target's
GEMM kernels read the operands where they are and start from the addends (C += A.B).

    %t = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>)
             permutation = [1, 0]
    %r = linalg.matmul ins(%q, %t : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z ...)
  becomes
    %r = linalg.generic {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (n, k),
                                          (m, n, k) -> (m, n)], ...}
             ins(%q, %k : tensor<4x16xf32>, tensor<8x16xf32>) outs(%z ...)

    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>)
    %r = linalg.matmul ins(%a, %b ...) outs(%z ...)
    %y = linalg.generic {... (d0, d1) -> (d1), (d0, d1) -> (d0, d1) ...}
             ins(%bias, %r ...) { %s = arith.addf %in, %in_0 : f32; linalg.yield %s }
  becomes
    %c = linalg.generic {... (d0, d1) -> (d1), (d0, d1) -> (d0, d1) ...}
             ins(%bias ...) outs(%e ...) { linalg.yield %in : f32 }
    %y = linalg.matmul ins(%a, %b ...) outs(%c ...)

[Note: transposes]
An input of a contraction produced by a transpose (linalg.transpose, or a linalg.generic
that only copies its input through a permutation) that nothing else reads is read by the
contraction itself through the composed map: a named contraction becomes the
linalg.generic with its maps. A collapse_shape between the two (ONNX MatMul collapses
batch dims) swaps with the transpose first when the permutation moves whole groups:
collapse(transpose(x)) = transpose(collapse(x)). The fold is made only where the
contraction still reads the operand along its innermost dim the way the kernels do
(A along the reduction, B along the reduction or the result's innermost dim);
otherwise materializing the transpose once is cheaper.

[Note: addends]
A linalg.generic on tensors, all parallel, whose one result is a contraction's result
plus other values (a chain of arith.addf / addi from the contraction's element, each
intermediate used once, yielded), read and written through the same map, and that is
the contraction result's only user, is folded: the addends (the payload ops they need,
cloned) are computed by a new generic into the contraction's init (instead of its zero
fill; added to another init), and the contraction's result replaces the generic. On
buffers this is one pass writing C with the bias or residual and the kernel
accumulating into it (accumulate = 1), instead of the kernel writing C and a pass
reading it back. Floating-point additions are reassociated: (0 + A.B) + b becomes
b + A.B.
"""
from __future__ import annotations

from ...dialects.linalg import GenericOp, StructuredOp, TransposeOp
from ...dialects.linalg.named_base import contraction_error
from ...dialects.tensor import CollapseShapeOp, ExpandShapeOp
from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap, AffineMapAttr
from ...ir.builder import InsertionPoint
from ...ir.core import BlockArgument, OpResult
from ...passes.pass_manager import Pass
from ...rewrite.folding import constant_value
from ...rewrite.pattern import RewritePattern
from ...syntax.dynamic_index_list import reassociation_indices

__all__ = ["FoldIntoContractions", "fold_into_contractions_patterns", "is_contraction"]

_ADDS = ("arith.addf", "arith.addi")


def is_contraction(op) -> bool:
    """A structured op of the contraction interface on tensors."""
    return isinstance(op, StructuredOp) and op.has_pure_tensor_semantics() and \
        contraction_error(op) is None


def _sole_use(v):
    """The one OpOperand using `v`, or None."""
    uses = iter(v.uses)
    u = next(uses, None)
    return u if u is not None and next(uses, None) is None else None


def _sole_user(v):
    """The one OpOperand using `v` besides tensor.dim ops (which can read the sizes
    elsewhere, see `_dims_from`), or None."""
    found = None
    for u in v.uses:
        if u.owner.name != "tensor.dim":
            if found is not None:
                return None
            found = u
    return found


def _dims_from(v, other, rewriter):
    """The tensor.dim ops of `v` read those of `other` (a value of the same sizes that
    dominates them: the init of the op making `v`)."""
    for u in list(v.uses):
        if u.owner.name == "tensor.dim":
            rewriter.set_operand(u.owner, u.index, other)


# ====================================================================== transposes


def _permutation(op):
    """The permutation p of a transpose-like op (result dim j = input dim p[j]), or
    None."""
    if type(op) is TransposeOp:
        return list(op._props["permutation"].value)
    if type(op) is not GenericOp or op.num_dps_inputs() != 1 or op.num_dps_inits != 1 or \
            not op.has_pure_tensor_semantics():
        return None
    if any(k != "parallel" for k in op.iterator_types_list()):
        return None
    block = op.body
    y = block.last
    if y is not block.first or len(y.operands) != 1 or y.operand(0) is not block.args[0]:
        return None
    m_in, m_out = op.indexing_maps_list()
    if not m_out.is_identity() or not m_in.is_permutation():
        return None
    # input dim i is read at loop (= result dim) m_in[i]
    p = [0] * len(m_in.results)
    for i, r in enumerate(m_in.results):
        p[r.position] = i
    return p


def _swap_with_collapse(groups, p):
    """For collapse(transpose(x, p), groups): (groups of x, p') such that it equals
    transpose(collapse(x, groups of x), p'); None unless each group's dims come from
    consecutive dims of x, in order."""
    runs = []
    for g in groups:
        src = [p[j] for j in g]
        if src != list(range(src[0], src[0] + len(src))):
            return None
        runs.append(src)
    order = sorted(range(len(runs)), key=lambda q: runs[q][0])
    where = {q: i for i, q in enumerate(order)}
    return [runs[q] for q in order], [where[q] for q in range(len(runs))]


def _kernel_reads(maps, iterators, index, last) -> bool:
    """Whether input `index`, read along loop expression `last` in its innermost dim,
    is read as the GEMM kernels read A (along the reduction) or B (along the reduction
    or the result's innermost dim)."""
    if type(last) is not AffineDimExpr:
        return False
    if iterators[last.position] == "reduction":
        return True
    out = maps[-1].results
    return index == 1 and bool(out) and out[-1] == last


class FoldTransposeIntoContraction(RewritePattern):
    """See [Note: transposes]; rooted at the contraction."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not is_contraction(op):
            return False
        maps = op.indexing_maps_list()
        iterators = op.iterator_types_list()
        for i, v in enumerate(op.dps_inputs):
            found = self._source(v)
            if found is None:
                continue
            src, collapse, p = found
            res = maps[i].results
            if collapse is not None:
                groups = reassociation_indices(collapse.properties["reassociation"])
                swapped = _swap_with_collapse(groups, p)
                if swapped is None:
                    # the source's innermost dim comes from a whole group: expand the
                    # contraction to read the transpose itself (then fold it)
                    q = next(q for q, g in enumerate(groups) if p.index(len(p) - 1) in g)
                    if len(groups[q]) != 1 or \
                            not _kernel_reads(maps, iterators, i, res[q]) or \
                            not self._expand(op, i, collapse, rewriter):
                        continue
                    return True
                collapse, p = swapped
            # the consumer reads result dim j at maps[i][j]; source dim p[j] is that dim
            new_res = [None] * len(p)
            for j, e in enumerate(res):
                new_res[p[j]] = e
            new_map = AffineMap(maps[i].num_dims, maps[i].num_symbols, new_res)
            new_maps = maps[:i] + [new_map] + maps[i + 1:]
            if not _kernel_reads(new_maps, iterators, i, new_res[-1]):
                continue
            self._rewrite(op, i, src, collapse, new_maps, rewriter)
            return True
        return False

    @staticmethod
    def _source(v):
        """(source, the collapse_shape between or None, permutation) when `v` is a
        transpose (or a collapse_shape of one) only the contraction reads."""
        if not isinstance(v, OpResult):
            return None
        collapse = None
        d = v.owner
        if type(d) is CollapseShapeOp:
            inner = d.operand(0)
            if _sole_use(v) is None or not isinstance(inner, OpResult) or \
                    _sole_user(inner) is None:
                return None
            collapse, d = d, inner.owner
        elif _sole_user(v) is None:
            return None
        p = _permutation(d)
        return None if p is None else (d.operand(0), collapse, p)

    @staticmethod
    def _expand(op, i, collapse, rewriter) -> bool:
        from .reshape_fusion import (fuse_with_reshape_by_expansion,
                                     is_fusable_with_reshape_by_expansion)
        if not is_fusable_with_reshape_by_expansion(op, i):
            return False
        values = fuse_with_reshape_by_expansion(op, collapse, i, rewriter)
        if values is None:
            return False
        rewriter.replace_op(op, values)
        return True

    @staticmethod
    def _rewrite(op, i, src, groups, maps, rewriter):
        from .generalize import generalize
        from .reshape_fusion import _collapse
        t = op.operand(i).owner
        if type(t) is CollapseShapeOp:
            t = t.operand(0).owner
        _dims_from(t.results[0], t.dps_inits[0], rewriter)
        if groups is not None:
            t = src.type
            shape = []
            for g in groups:
                n = 1
                for j in g:
                    n = A.DYNAMIC if A.DYNAMIC in (n, t.shape[j]) else n * t.shape[j]
                shape.append(n)
            rewriter.ip = InsertionPoint.before_op(op)
            src = _collapse(rewriter, src, groups,
                            A.RankedTensorType(shape, t.element_type, t.encoding), op.loc)
        if type(op) is not GenericOp:
            op = generalize(op, rewriter)
        rewriter.set_operand(op, i, src)
        props = dict(op.properties)
        props["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
        rewriter.modify_op_in_place(op, lambda: setattr(op, "properties", props))


# ====================================================================== addends


def _zero_fill(v):
    """The linalg.fill of a zero that produces `v` for its one user, or None."""
    f = v.defining_op
    if f is None or f.name != "linalg.fill" or _sole_user(v) is None:
        return None
    c = constant_value(f.operand(0))
    if isinstance(c, A.FloatAttr) and c.value == 0.0:
        return f
    if isinstance(c, A.IntegerAttr) and c.value == 0:
        return f
    return None


def _addend_chain(arg, yld):
    """([add ops], [addends]) of the chain of additions from block argument `arg` to
    the yield `yld`, each value on it used once; None if not of that form."""
    ops, addends = [], []
    cur = arg
    while True:
        u = _sole_use(cur)
        if u is None:
            return None
        o = u.owner
        if o is yld:
            return (ops, addends) if ops else None
        if o.name not in _ADDS or o.parent is not arg.owner:
            return None
        ops.append(o)
        addends.append(o.operand(1 - u.index))
        cur = o.results[0]


def _slice(block, values, forbidden):
    """The ops of `block` the `values` depend on (block order), or None if they reach a
    block argument in `forbidden` or an op with regions."""
    seen, work = set(), list(values)
    while work:
        v = work.pop()
        if isinstance(v, BlockArgument):
            if v.owner is block and v in forbidden:
                return None
            continue
        o = v.owner
        if o.parent is not block or o in seen:
            continue
        if o.regions:
            return None
        seen.add(o)
        work.extend(o.operands)
    return [o for o in block.ops if o in seen]


class FoldAddIntoContractionInit(RewritePattern):
    """See [Note: addends]; rooted at the generic op that adds."""

    root = "linalg.generic"

    def match_and_rewrite(self, g, rewriter) -> bool:
        if not g.has_pure_tensor_semantics() or len(g.results) != 1 or \
                any(k != "parallel" for k in g.iterator_types_list()):
            return False
        maps = g.indexing_maps_list()
        block = g.body
        yld = block.last
        n_in = g.num_dps_inputs()
        for i, v in enumerate(g.dps_inputs):
            c = v.defining_op
            reshape = None
            if type(c) is ExpandShapeOp and _sole_user(v) is not None and \
                    not c.operands[1:]:   # the contraction's result, expanded
                reshape, v = c, c.operand(0)
                c = v.defining_op
            if not is_contraction(c) or len(c.results) != 1 or _sole_user(v) is None or \
                    maps[i] != maps[-1] or g.dps_inputs[i].type != g.results[0].type:
                continue
            chain = _addend_chain(block.args[i], yld)
            if chain is None:
                continue
            ops, addends = chain
            sl = _slice(block, addends, {block.args[i], block.args[n_in]})
            if sl is None:
                continue
            used = set()
            for o in sl:
                used.update(x for x in o.operands if isinstance(x, BlockArgument))
            used.update(x for x in addends if isinstance(x, BlockArgument))
            kept = [j for j in range(n_in) if j != i and block.args[j] in used]
            init = c.dps_inits[0]
            fill = _zero_fill(init)
            dest = fill.dps_inits[0] if fill is not None else init
            # the new init is made just before the contraction, moved next to `g` if
            # what it reads is made after the contraction
            if c.parent is not g.parent or (reshape is not None and
                                            reshape.parent is not g.parent):
                continue
            if fill is not None:
                _dims_from(init, dest, rewriter)
            self._rewrite(g, c, i, kept, sl, ops, addends, dest, fill is None, reshape,
                          rewriter)
            return True
        return False

    @staticmethod
    def _rewrite(g, c, i, kept, sl, ops, addends, dest, add_init, reshape, rewriter):
        from .reshape_fusion import _collapse, _expand
        from ...dialects.linalg import make_generic
        maps = g.indexing_maps_list()
        block = g.body
        chain_in = [block.args[i]] + [o.results[0] for o in ops[:-1]]

        def body(b, args):
            mapping = {block.args[j]: a for j, a in zip(kept, args)}
            for o in sl:
                new = b.insert(o.clone(mapping))
                mapping.update(zip(o.results, new.results))
            acc = args[-1] if add_init else None
            for o, prev, x in zip(ops, chain_in, addends):
                nx = mapping.get(x, x)
                acc = nx if acc is None else \
                    b.insert(o.clone({prev: acc, x: nx})).results[0]
            return acc
        for o in (c, reshape):
            if o is not None:
                o.move_before(g)
                rewriter.modify_op_in_place(o)
        rewriter.ip = InsertionPoint.before_op(c)
        if reshape is not None:   # the addends in the expanded shape, collapsed back
            groups = reassociation_indices(reshape.properties["reassociation"])
            t = reshape.results[0].type
            dest = _expand(rewriter, dest, groups, list(t.shape), t, g.loc)
        init = make_generic(rewriter, [g.dps_inputs[j] for j in kept], [dest],
                            [maps[j] for j in kept] + [maps[i]],
                            ["parallel"] * len(g.iterator_types_list()), body,
                            loc=g.loc).results[0]
        if reshape is not None:
            init = _collapse(rewriter, init, groups, c.results[0].type, g.loc)
        rewriter.set_operand(c, c.num_dps_inputs(), init)
        rewriter.replace_op(g, [g.dps_inputs[i]])


# ====================================================================== pass


def fold_into_contractions_patterns() -> list:
    """The pass's patterns, and the reshape folds that clean up after an expansion."""
    from ...dialects.linalg import LINALG
    from .reshape_fusion import reshape_canonicalization_patterns
    return [FoldAddIntoContractionInit(), *reshape_canonicalization_patterns()] + [
        FoldTransposeIntoContraction(name) for name, cls in LINALG.ops.items()
        if issubclass(cls, StructuredOp)]


class FoldIntoContractions(Pass):
    name = "strata-linalg-fold-into-contractions"
    summary = ("Fold transposes of a contraction's operands into its indexing maps and "
               "additions to its result into its init")
    display_name = "StrataLinalgFoldIntoContractionsPass"

    def run(self, op):
        from ...rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        apply_patterns_greedily(op, fold_into_contractions_patterns(),
                                GreedyRewriteConfig(top_down=True))
