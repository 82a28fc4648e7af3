"""`convert-elementwise-to-linalg` (upstream's pass of the same name): an
ElementwiseMappable op (arith, math) on ranked tensors becomes a `linalg.generic` that
applies the op to each element.

    %0 = arith.addf %a, %b : tensor<?x4xf32>
=>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [...]}
        ins(%a, %b : tensor<?x4xf32>, tensor<?x4xf32>) outs(%a : tensor<?x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %1 = arith.addf %in, %in_0 : f32
      linalg.yield %1 : f32
    } -> tensor<?x4xf32>

As upstream: ops with ranked tensor results whose operands are ranked tensors or
scalars (read through a `(d0, ...) -> ()` map); each result's init is the first operand
of the result's type, else a `tensor.empty` sized like the first tensor operand.
Bufferization and the loop lowerings know linalg, not arith on tensors: this is what
lets hand-written tensor MLIR with such ops compile for the CPU target.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.affine import AffineMap
from ..passes.pass_manager import Pass

__all__ = ["ConvertElementwiseToLinalg", "convert_elementwise_to_linalg"]

_SHAPED = (A.RankedTensorType, A.UnrankedTensorType, A.VectorType, A.MemRefType)


def _on_ranked_tensors(op) -> bool:
    """Results ranked tensors, operands ranked tensors or scalars (a scalar condition
    of arith.select applies to every element)."""
    if T.ElementwiseMappable not in type(op).traits or not op.results:
        return False
    return all(type(r.type) is A.RankedTensorType for r in op.results) and \
        all(type(v.type) is A.RankedTensorType or not isinstance(v.type, _SHAPED)
            for v in op.operands)


def _init(b, op, rt, loc):
    """The init operand for result type `rt`: an operand of that type, else an empty
    tensor with the first operand's sizes."""
    for v in op.operands:
        if v.type == rt:
            return v
    from ..dialects.arith import ConstantOp
    first = next(v for v in op.operands if type(v.type) is A.RankedTensorType)
    dyn = []
    for i, d in enumerate(rt.shape):
        if d < 0:
            c = b.insert(ConstantOp.create([], [A.index],
                                           {"value": A.IntegerAttr(i, A.index)}, loc=loc))
            dyn.append(b.insert(_op("tensor.dim").create(
                [first, c.results[0]], [A.index], loc=loc)).results[0])
    return b.insert(_op("tensor.empty").create(dyn, [rt], loc=loc)).results[0]


def _op(name):
    from .scalar_builders import op_class
    return op_class(name)


def convert_elementwise_to_linalg(root) -> int:
    """Rewrite every elementwise op on ranked tensors under `root`; returns how many."""
    from ..dialects.linalg import make_generic
    from ..ir.builder import Builder
    ops = [op for op in root.walk() if _on_ranked_tensors(op)]
    for op in ops:
        loc = op.loc
        b = Builder.before(op)
        rank = op.results[0].type.rank
        inits = [_init(b, op, r.type, loc) for r in op.results]
        n_in = len(op.operands)
        cls = type(op)

        def payload(pb, args, op=op, cls=cls, n_in=n_in):
            scalar = pb.insert(cls.create(
                list(args[:n_in]), [r.type.element_type for r in op.results],
                dict(op.properties), dict(op._attrs) or None, loc=op.loc))
            return list(scalar.results)
        ident = AffineMap.identity(rank)
        scalar = AffineMap(rank, 0, ())
        maps = [ident if type(v.type) is A.RankedTensorType else scalar
                for v in op.operands] + [ident] * len(inits)
        g = make_generic(b, list(op.operands), inits, maps, ["parallel"] * rank, payload,
                         loc=loc)
        op.replace_all_uses_with(list(g.results))
        op.erase()
    return len(ops)


class ConvertElementwiseToLinalg(Pass):
    name = "convert-elementwise-to-linalg"
    summary = "Convert ElementwiseMappable ops on ranked tensors to linalg.generic"

    def run(self, op):
        convert_elementwise_to_linalg(op)


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(ConvertElementwiseToLinalg.name) is None:
        register_pass(ConvertElementwiseToLinalg)


_register()
