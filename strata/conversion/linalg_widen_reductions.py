"""`strata-linalg-widen-reductions`: sums of f16 / bf16 elements on buffers accumulated
in f32, rounded to the element type once at the end (as onnxruntime and PyTorch
accumulate half-precision reductions; an f16 accumulator loses a bit per few dozen
terms and saturates at 65504).

    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x37xf16>) outs(%s : memref<4xf16>) {
      ^bb0(%in: f16, %out: f16):
        %v = arith.addf %out, %in : f16
        linalg.yield %v : f16
    }
=>
    %acc = memref.alloc() : memref<4xf32>
    linalg.generic ins(%s : memref<4xf16>) outs(%acc : memref<4xf32>) { arith.extf }
    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x37xf16>) outs(%acc : memref<4xf32>) {
      ^bb0(%in: f16, %out: f32):
        %e = arith.extf %in : f16 to f32
        %v = arith.addf %out, %e : f32
        linalg.yield %v : f32
    }
    linalg.generic ins(%acc : memref<4xf32>) outs(%s : memref<4xf16>) { arith.truncf }
    memref.dealloc %acc : memref<4xf32>

A reduction is taken when its payload yields `out + v` (out used there only, v computed
from the inputs: the term is computed in the element type as before, only the running
sum is wider). The GPU pipeline runs it first, so that the row fusion that follows puts
the widening, the sum and the rounding of a row in one kernel.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.affine import AffineMap
from ..ir.builder import Builder
from ..passes.pass_manager import Pass

__all__ = ["WidenReductions", "HALF_TYPES"]

HALF_TYPES = (A.f16, A.bf16)


def _term(op):
    """The value added to the accumulator by `op`'s payload, or None."""
    body = op.body
    term = body.last
    if len(term.operands) != 1:
        return None
    out = body.args[-1]
    add = term.operands[0].defining_op
    if add is None or add.name != "arith.addf" or add.parent is not body or \
            out not in add.operands or out.num_uses() != 1:
        return None
    return add.operands[1] if add.operands[0] is out else add.operands[0]


def _candidate(op) -> bool:
    if op.name != "linalg.generic" or len(op.operands) - op.num_dps_inputs() != 1:
        return False
    out = op.operands[-1]
    if type(out.type) is not A.MemRefType or out.type.element_type not in HALF_TYPES:
        return False
    if not any("reduction" in str(getattr(i, "value", i)) for i in op.iterator_types_list()):
        return False
    if any(o.name == "linalg.index" or o.regions for o in op.body.ops):
        return False
    return _term(op) is not None


def widen(op) -> None:
    """Rewrite the reduction `op` to accumulate in f32 (see the module doc)."""
    from ..dialects.linalg import make_generic
    out = op.operands[-1]
    t = out.type
    et = t.element_type
    rank = len(t.shape)
    b = Builder.before(op, op.loc)
    dyn = []
    for i, n in enumerate(t.shape):
        if n == A.DYNAMIC:
            c = b.insert(_const(i, op.loc)).results[0]
            dyn.append(b.insert(_op("memref.dim", [out, c], A.index, None, op.loc)).results[0])
    acc_t = A.MemRefType(t.shape, A.f32)
    acc = b.insert(_op("memref.alloc", dyn, acc_t, {
        "operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(dyn), 0])}, op.loc)).results[0]
    ident = AffineMap.identity(rank)
    par = ["parallel"] * rank
    make_generic(b, [out], [acc], [ident, ident], par,
                 lambda pb, a: pb._op("arith.extf", [a[0]], A.f32), loc=op.loc)
    ins = list(op.operands[:-1])
    maps = op.indexing_maps_list()
    its = [str(getattr(i, "value", i)).rsplit(".", 1)[-1].strip("<>#") for i in
           op.iterator_types_list()]
    its = ["reduction" if "reduction" in i else "parallel" for i in its]
    old = op.body
    term_v = _term(op)
    add = old.last.operands[0].defining_op

    def payload(pb, args):
        mapping = dict(zip(old.args[:-1], args[:-1]))
        o = old.first
        while o is not add:
            c = o.clone(mapping)
            pb.insert(c)
            for r, n in zip(o.results, c.results):
                mapping[r] = n
            o = o.next
        v = mapping.get(term_v, term_v)
        e = pb._op("arith.extf", [v], A.f32)
        props = {k: a for k, a in add.properties.items() if k == "fastmath"}
        return pb._op("arith.addf", [args[-1], e], A.f32, props or None)
    make_generic(b, ins, [acc], maps, its, payload, loc=op.loc)
    make_generic(b, [acc], [out], [ident, ident], par,
                 lambda pb, a: pb._op("arith.truncf", [a[0]], et), loc=op.loc)
    b.insert(_op("memref.dealloc", [acc], None, None, op.loc))
    op.erase()


def _op(name, operands, result, props, loc):
    from .scalar_builders import op_class
    return op_class(name).create(list(operands), [result] if result is not None else [],
                                 props, None, (), 0, loc)


def _const(n, loc):
    return _op("arith.constant", [], A.index, {"value": A.IntegerAttr(n, A.index)}, loc)


class WidenReductions(Pass):
    name = "strata-linalg-widen-reductions"
    summary = "Accumulate f16 / bf16 sums on buffers in f32"

    def run(self, op):
        for o in [o for o in op.walk() if _candidate(o)]:
            widen(o)


from ..passes.registry import register_pass  # noqa: E402

register_pass(WidenReductions)
