"""`strata-onnx-to-f16`: an f32 ONNX model run in f16 (the cuda target's
`precision="f16"`): weights and activations become f16 at the tensor level, the
functions keep their f32 inputs and outputs (cast on the way in and out).

    func.func @main(%x: tensor<?x64xf32>) -> tensor<?x10xf32> {
      %w = ml_program.global_load_const @w : tensor<10x64xf32>
      %0 = "onnx.Gemm"(%x, %w, ...) : (...) -> tensor<?x10xf32>
      return %0 : tensor<?x10xf32>
    }
=>
    func.func @main(%x: tensor<?x64xf32>) -> tensor<?x10xf32> {
      %h = "onnx.Cast"(%x) <{to = 10 : i64}> : (tensor<?x64xf32>) -> tensor<?x64xf16>
      %w = ml_program.global_load_const @w : tensor<10x64xf16>     // @w's data in f16
      %0 = "onnx.Gemm"(%h, %w, ...) : (...) -> tensor<?x10xf16>
      %1 = "onnx.Cast"(%0) <{to = 1 : i64}> : (tensor<?x10xf16>) -> tensor<?x10xf32>
      return %1 : tensor<?x10xf32>
    }

It runs after onnx-shape-inference (every value typed) and before convert-onnx-to-linalg:
ONNX ops are polymorphic in their float type, so every f32 tensor value becomes f16, f32
constants and globals are converted (rounded to nearest), and casts to f32 inside the
graph cast to f16. What f16 loses is left to the lowering: matmuls and convolutions
accumulate in f32 on tensor cores, sums in f32 (strata-linalg-widen-reductions).
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from ..passes.pass_manager import Pass

__all__ = ["OnnxToF16"]

_FLOAT, _FLOAT16 = 1, 10      # ONNX TensorProto data types


def _half(t):
    if isinstance(t, A.RankedTensorType) and t.element_type is A.f32:
        return A.RankedTensorType(t.shape, A.f16, t.encoding)
    if isinstance(t, A.UnrankedTensorType) and t.element_type is A.f32:
        return A.UnrankedTensorType(A.f16)
    return t


def _half_value(attr):
    """An f32 dense attribute's value in f16 (a new blob for a resource)."""
    from ..ir import dense as D
    t = attr.type
    ht = _half(t)
    if isinstance(attr, D.DenseElementsAttr):
        arr = np.frombuffer(attr.raw, np.float32).astype(np.float16)
        return D.DenseElementsAttr.from_raw(ht, arr.tobytes())
    if isinstance(attr, D.DenseResourceElementsAttr):
        arr = np.asarray(attr.array(), np.float32).astype(np.float16)
        name = D.BLOBS.add(attr.handle + "_f16", arr.tobytes(), 8)
        return D.DenseResourceElementsAttr(ht, name)
    return None


def _cast(x, to, loc, t):
    from ..conversion.scalar_builders import op_class
    return op_class("onnx.Cast").create([x], [t], {"to": A.IntegerAttr(to, A.i64)}, None,
                                        (), 0, loc)


class OnnxToF16(Pass):
    name = "strata-onnx-to-f16"
    summary = "Run an f32 ONNX model in f16 (weights and activations), f32 in and out"

    def run(self, op):
        from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
        if not any(o.name.startswith("onnx.") for o in op.walk()):
            return          # (a module from another frontend: nothing of ONNX's to retype)
        for g in list(op.walk()):
            if g.name == "ml_program.global":
                t = g.properties["type"].value
                if _half(t) is t:
                    continue
                v = g.properties.get("value")
                hv = _half_value(v) if v is not None else None
                if v is not None and hv is None:
                    raise DiagnosticError(Diagnostic(
                        ERROR, g.loc, f"cannot convert the value of global to f16: {v}"))
                g.properties["type"] = A.TypeAttr(_half(t))
                if hv is not None:
                    g.properties["value"] = hv
        for f in [o for o in op.walk() if o.name == "func.func"]:
            if not f.regions[0].blocks:
                continue
            entry = f.regions[0].blocks[0]
            first = entry.first
            casts = set()
            for a in entry.args:
                ht = _half(a.type)
                if ht is a.type:
                    continue
                c = _cast(a, _FLOAT16, a.loc if hasattr(a, "loc") else f.loc, ht)
                entry.insert_before(first, c) if first is not None else entry.append(c)
                casts.add(c)
                a.replace_uses_where(c.results[0], lambda u, c=c: u.owner is not c)
            for o in list(f.walk()):
                if o is f or o in casts:
                    continue
                if o.name == "func.return":
                    ftype = f.properties["function_type"].value
                    for i, (v, want) in enumerate(zip(o.operands, ftype.results)):
                        if v.type is not want and _half(want) is v.type:
                            c = _cast(v, _FLOAT, o.loc, want)
                            o.parent.insert_before(o, c)
                            o.set_operand(i, c.results[0])
                    continue
                if o.name == "onnx.Cast" and o.properties["to"].value == _FLOAT:
                    o.properties["to"] = A.IntegerAttr(_FLOAT16, A.i64)
                if o.name == "onnx.Constant" and "value" in o.properties:
                    v = o.properties["value"]
                    if getattr(v, "type", None) is not None and _half(v.type) is not v.type:
                        o.properties["value"] = _half_value(v)
                for r in o.results:
                    r.type = _half(r.type)
                for reg in o.regions:
                    for blk in reg.blocks:
                        for a in blk.args:
                            a.type = _half(a.type)


from ..passes.registry import register_pass  # noqa: E402

register_pass(OnnxToF16)
