"""New constant `ml_program.global`s made by a compile-time fold (batch norms folded into
filters: torch-fold-batch-norm, onnx-fold-batch-norm), and the old ones it stops reading.

    g = ConstantGlobals(module)
    name, t = g.new("conv.weight_bn", folded, before=old_global_op, loc=loc)
    v = g.load(name, t, before=conv, loc=loc)   # ml_program.global_load_const @name
    g.released.add("conv.weight")
    ...
    g.drop_unread()     # erase released globals no symbol reference reads any more

gives, next to the old global,

    ml_program.global private @conv.weight_bn(dense_resource<conv.weight_bn> :
        tensor<8x3x3x3xf32>) : tensor<8x3x3x3xf32>

The data go into the resource blobs (64-byte aligned, read-only), as the importers put
weights, so later passes (filter packing, bufferization) see them as any weight.
"""
from __future__ import annotations

from ..ir import attributes as A

__all__ = ["ConstantGlobals", "fold_each"]

_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64"}


class ConstantGlobals:
    """New constant globals of a module: unique names, data in the resource blobs."""

    __slots__ = ("block", "taken", "released")

    def __init__(self, module):
        self.block = module.regions[0].block
        self.released = set()   # globals a fold stopped reading
        self.taken = {op.properties["sym_name"].value for op in self.block.ops
                      if "sym_name" in op.properties}

    @staticmethod
    def supports(elt) -> bool:
        """Whether globals of element type `elt` can be made (f16, f32, f64)."""
        return getattr(elt, "name", None) in _DTYPES and isinstance(elt, A.FloatType)

    def new(self, base: str, data, before, loc, elt=A.f32):
        """A private constant global named after `base` holding `data` rounded to float
        type `elt` (put before op `before` of the module's body), and its type."""
        import numpy as np

        from ..dialects.ml_program import GlobalOp
        from ..ir.dense import BLOBS, DenseResourceElementsAttr
        name, i = base, 0
        while name in self.taken:
            i += 1
            name = f"{base}_{i}"
        self.taken.add(name)
        flat = np.ascontiguousarray(data, _DTYPES[elt.name]).reshape(-1)
        flat.flags.writeable = False
        handle = BLOBS.add(name, memoryview(flat.view(np.uint8)), alignment=64)
        t = A.RankedTensorType(list(np.shape(data)), elt)
        g = GlobalOp.new(name, t, value=DenseResourceElementsAttr(t, handle),
                         visibility="private", loc=loc)
        self.block.insert_before(before, g)
        return name, t

    @staticmethod
    def load(sym: str, t, before, loc):
        """`ml_program.global_load_const @sym` of type `t`, put before op `before`."""
        from ..dialects.ml_program import GlobalLoadConstOp
        load = GlobalLoadConstOp.build(loc=loc, result_types=[t],
                                       **{"global": A.SymbolRefAttr(sym)})
        before.parent.insert_before(before, load)
        return load.results[0]

    def drop_unread(self) -> None:
        """Erase the released globals (old filters, biases, statistics) that no symbol
        reference of the module reads any more."""
        from ..dialects.ml_program import drop_unread_globals
        drop_unread_globals(self.block, self.released)


def fold_each(module, matches, fold) -> int:
    """Call `fold(op, globals)` (True when it folded) on each op of the module's functions
    for which `matches(op)`, then erase the globals the folds released and nothing reads;
    returns how many folded."""
    globals_ = ConstantGlobals(module)
    count = 0
    for top in list(globals_.block.ops):
        if top.name == "builtin.module":
            continue
        for op in [o for o in top.walk() if matches(o)]:
            count += bool(fold(op, globals_))
    if count:
        globals_.drop_unread()
    return count
