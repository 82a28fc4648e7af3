"""`torch-externalize-weights`: frozen weights of an imported PyTorch program become
`ml_program.global` constants, as the ONNX importer makes its initializers.

    strata-opt model.mlir --torch-externalize-weights

Before (what strata.frontends.torch.import_program builds, [Note: tensor literals]):

    %0 = torch.vtensor.literal(dense_resource<fc.weight> : tensor<4x3xf32>)
        : !torch.vtensor<[4,3],f32>

After:

    ml_program.global private @fc.weight(dense_resource<fc.weight> : tensor<4x3xf32>)
        : tensor<4x3xf32>
    ...
    %1 = ml_program.global_load_const @fc.weight : tensor<4x3xf32>
    %0 = torch_c.from_builtin_tensor %1 : tensor<4x3xf32> -> !torch.vtensor<[4,3],f32>

[Note: externalized weights]
- Every `torch.vtensor.literal` whose value is a `dense_resource` blob is replaced, at its
  place and location, by a load of the global holding that blob and the conversion from
  the builtin tensor (`torch_c.from_builtin_tensor`, torch-mlir's cast between its value
  tensors and builtin ones). Literals of one blob (each use of one parameter) share one
  global; literals reading one blob as tensors of different types get one global each.
  `dense<...>` literals (one element, or what a pass folded) stay: they are constants,
  not weights. Literals inside nested modules are left to those modules.
- The global's type is the builtin tensor torch-mlir's backend converts the vtensor to:
  the same shape, its element type signless (`si64` -> `i64`, `ui8` -> `i8`); the blob's
  bytes are the same, so the global's `dense_resource` names the same blob.
- The global is named after the blob (the parameter's or buffer's name, `fc.weight`),
  made unique among the module's symbols (`fc.weight_1`), and put before the first
  function. The CPU target then packs and binds these globals as it does an ONNX model's
  initializers ([Note: weights] in backends/cpu/target.py).
- A complex literal's global holds its real pairs (`tensor<6x4x2xf32>`: the same bytes,
  [Note: complex as real pairs] in conversion/torch_to_linalg/complex.py), loaded as
  the real tensor and viewed as complex (`torch.aten.view_as_complex`): no target
  packs or binds complex globals.
"""
from __future__ import annotations

from ...dialects.torch import builtin_element_type
from ...ir import attributes as A
from ...ir.dense import DenseResourceElementsAttr
from ...passes.pass_manager import Pass, Statistic
from ...passes.registry import register_pass
from . import _dialect as D

__all__ = ["TorchExternalizeWeights", "externalize_weights"]


def externalize_weights(module) -> int:
    """Rewrite `module` as [Note: externalized weights] says; returns the number of
    literals replaced."""
    from ...dialects.ml_program import GlobalLoadConstOp, GlobalOp
    block = module.regions[0].block
    symbols = {op.properties["sym_name"].value for op in block.ops
               if "sym_name" in op.properties}
    first = next(iter(block.ops), None)
    globals_: dict = {}  # (blob handle, builtin tensor type) -> (symbol, that type)
    # (the literals of nested modules are theirs: their own symbol tables hold them)
    literals = [op for top in block.ops if top.name != "builtin.module" for op in top.walk()
                if op.name == "torch.vtensor.literal"
                and isinstance(op.properties.get("value"), DenseResourceElementsAttr)]
    for op in literals:
        attr = op.properties["value"]
        elt = attr.type.element_type
        pairs = isinstance(elt, A.ComplexType)
        type_ = A.RankedTensorType(list(attr.type.shape) + [2], elt.element_type) if pairs \
            else A.RankedTensorType(list(attr.type.shape), builtin_element_type(elt))
        entry = globals_.get((attr.handle, type_))
        if entry is None:
            sym, i = attr.handle, 0
            while sym in symbols:
                i += 1
                sym = f"{attr.handle}_{i}"
            symbols.add(sym)
            g = GlobalOp.new(sym, type_, value=DenseResourceElementsAttr(type_, attr.handle),
                             visibility="private", loc=op.loc)
            if first is not None:
                block.insert_before(first, g)
            else:
                block.append(g)
            entry = globals_[(attr.handle, type_)] = (sym, type_)
        sym, type_ = entry
        where = op.parent
        load = GlobalLoadConstOp.build(loc=op.loc, result_types=[type_],
                                       **{"global": A.SymbolRefAttr(sym)})
        vt = op.results[0].type
        if pairs:
            real = type(vt)(list(vt.sizes) + [2], elt.element_type)
            cast = D.create_op("torch_c.from_builtin_tensor", [load.results[0]], [real],
                               loc=op.loc)
            view = D.create_op("torch.aten.view_as_complex", [cast.results[0]], [vt],
                               loc=op.loc)
        else:
            cast = view = D.create_op("torch_c.from_builtin_tensor", [load.results[0]],
                                      [vt], loc=op.loc)
        where.insert_before(op, load)
        where.insert_before(op, cast)
        if view is not cast:
            where.insert_before(op, view)
        op.results[0].replace_all_uses_with(view.results[0])
        op.erase()
    return len(literals)


@register_pass
class TorchExternalizeWeights(Pass):
    name = "torch-externalize-weights"
    summary = "Move the dense_resource weights of torch.vtensor.literal ops into " \
              "ml_program.global constants"
    anchor = "builtin.module"
    num_literals = Statistic("num-literals", "Number of torch.vtensor.literal ops replaced "
                             "by global loads")

    def run(self, op):
        self.stat("num-literals", externalize_weights(op))
