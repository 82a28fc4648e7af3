"""`linalg-generalize-named-ops`: every named structured op (matmul, conv, pooling, fill,
copy, transpose, broadcast, map, reduce, elementwise, contract...) becomes the
`linalg.generic` with its indexing maps, iterator types and payload, as upstream's
generalizeNamedOp.

    %0 = linalg.matmul ins(%a, %b : ...) outs(%c : ...) -> tensor<4x4xf32>
  becomes
    %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = [...]}
           ins(%a, %b : ...) outs(%c : ...) {
         ^bb0(%in: f32, %in_0: f32, %out: f32): ... } -> tensor<4x4xf32>

Every structured op already carries its payload block (named ops build theirs when
parsed or created, see dialects/linalg/named_base.py), so generalizing moves that block
into a generic op. The op's inherent attributes (strides, permutation, kind, ...) are
spent in the maps and payload; its discardable attributes (`linalg.memoized_indexing_maps`
included) go to the generic op's `attrs = {...}`, as upstream.

`generalize(op, rewriter)` is the one entry point (convert-linalg-to-loops uses it too).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineMapAttr
from ...ir.builder import InsertionPoint
from ...passes.pass_manager import Pass
from ...rewrite.pattern import RewritePattern

__all__ = ["generalize", "generalization_patterns", "LinalgGeneralizeNamedOps",
           "is_generalizable"]


def is_generalizable(op) -> bool:
    """Whether `op` is a structured op other than linalg.generic (upstream's
    generalizeNamedOpPrecondition)."""
    from ...dialects.linalg import GenericOp, StructuredOp
    return isinstance(op, StructuredOp) and type(op) is not GenericOp and \
        bool(op.regions) and bool(op.regions[0].blocks)


def generalize(op, rewriter):
    """Replace the named structured op `op` with an equivalent `linalg.generic` (created
    before it through `rewriter`) and return the generic op; None, changing nothing, when
    `op` is not a named structured op."""
    from ...dialects.linalg import GenericOp
    from ...dialects.linalg.structured import to_iterator_attr
    if not is_generalizable(op):
        return None
    maps = op.indexing_maps_list()  # first: may memoize them in a discardable attribute
    iterators = op.iterator_types_list()
    inputs, outputs = op.dps_inputs, op.dps_inits
    result_types = [v.type for v in outputs] if op.has_pure_tensor_semantics() else []
    props = {"indexing_maps": A.ArrayAttr([AffineMapAttr(m) for m in maps]),
             "iterator_types": A.ArrayAttr([to_iterator_attr(t) for t in iterators]),
             "operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(inputs), len(outputs)])}
    new = GenericOp.create(inputs + outputs, result_types, props, op._attrs or None, (), 1,
                           op.loc)
    new.regions[0].take_body(op.regions[0])
    rewriter.ip = InsertionPoint.before_op(op)
    rewriter.insert(new)
    rewriter.replace_op(op, new.results)
    return new


class _Generalize(RewritePattern):
    """LinalgGeneralizationPattern, one per named op (dispatch by name)."""

    def __init__(self, root):
        self.root = root

    def match_and_rewrite(self, op, rewriter) -> bool:
        return generalize(op, rewriter) is not None


def generalization_patterns() -> list:
    """One generalization pattern per named structured op of the linalg dialect."""
    from ...dialects.linalg import LINALG, GenericOp, StructuredOp
    return [_Generalize(name) for name, cls in LINALG.ops.items()
            if issubclass(cls, StructuredOp) and cls is not GenericOp]


class LinalgGeneralizeNamedOps(Pass):
    name = "linalg-generalize-named-ops"
    summary = "Convert `named` and `category` ops into `generic` ops"
    display_name = "LinalgGeneralizeNamedOpsPass"

    def run(self, op):
        from ...rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        # Upstream's default driver configuration: bottom-up.
        apply_patterns_greedily(op, generalization_patterns(),
                                GreedyRewriteConfig(top_down=False))
