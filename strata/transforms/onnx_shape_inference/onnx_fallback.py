"""Shape inference of one onnx op by onnx itself (for ops without a Python rule).

The op becomes a one-node ModelProto: its operands graph inputs typed from their MLIR
types (dynamic dims left without value or name), the operands whose values are known
also initializers (so that `data_prop` sees Reshape's shape, Resize's scales...), its
properties node attributes, the module's opset for its domain. After
`onnx.shape_inference.infer_shapes(..., data_prop=True)` the node outputs' value_info
give the result types. onnx is imported here, when first needed.
"""
from __future__ import annotations

import numpy as np

from ...dialects import onnx as O
from ...ir import attributes as A

__all__ = ["infer_with_onnx", "type_to_proto", "type_from_proto"]


def type_to_proto(t):
    """The onnx TypeProto of an MLIR type of the onnx dialect (None if it has none)."""
    from onnx import helper
    if isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        k = O.mlir_element_to_onnx(t.element_type)
        if k is None:
            return None
        shape = None
        if isinstance(t, A.RankedTensorType):
            shape = [None if d == A.DYNAMIC else d for d in t.shape]
        return helper.make_tensor_type_proto(k, shape)
    if isinstance(t, (O.SeqType, O.OptType)):
        inner = type_to_proto(t.element_type)
        if inner is None:
            return None
        if isinstance(t, O.SeqType):
            return helper.make_sequence_type_proto(inner)
        return helper.make_optional_type_proto(inner)
    if isinstance(t, O.MapType):
        k = O.mlir_element_to_onnx(t.key_type)
        v = t.value_type
        if O.mlir_element_to_onnx(v) is not None:
            v = A.RankedTensorType((), v)
        vp = type_to_proto(v)
        if k is None or vp is None:
            return None
        return helper.make_map_type_proto(k, vp)
    if isinstance(t, A.Type) and O.mlir_element_to_onnx(t) is not None:
        return helper.make_tensor_type_proto(O.mlir_element_to_onnx(t), [])
    return None


def type_from_proto(tp):
    """The MLIR type of an onnx TypeProto (None when it says nothing usable)."""
    which = tp.WhichOneof("value")
    if which == "tensor_type":
        tt = tp.tensor_type
        et = O.ONNX_TO_MLIR_ELEMENT.get(tt.elem_type)
        if et is None:
            return None
        if not tt.HasField("shape"):
            return A.UnrankedTensorType(et)
        return A.RankedTensorType(
            [d.dim_value if d.HasField("dim_value") else A.DYNAMIC for d in tt.shape.dim], et)
    if which == "sequence_type":
        inner = type_from_proto(tp.sequence_type.elem_type)
        return None if inner is None else O.SeqType(inner)
    if which == "optional_type":
        inner = type_from_proto(tp.optional_type.elem_type)
        return None if inner is None else O.OptType(inner)
    if which == "map_type":
        mt = tp.map_type
        k = O.ONNX_TO_MLIR_ELEMENT.get(mt.key_type)
        v = type_from_proto(mt.value_type)
        if isinstance(v, A.RankedTensorType) and not v.shape or \
                isinstance(v, A.UnrankedTensorType):
            v = v.element_type
        return None if k is None or v is None else O.MapType(k, v)
    return None


def _attribute(name, kind, a):
    from onnx import helper, numpy_helper
    v = O.python_value(a)
    if kind in ("TENSOR", "SPARSE_TENSOR"):
        return helper.make_attribute(name, numpy_helper.from_array(np.asarray(v), name))
    if kind in ("TENSORS", "SPARSE_TENSORS"):
        return helper.make_attribute(name, [numpy_helper.from_array(np.asarray(x))
                                            for x in v])
    if kind == "TYPE_PROTO":
        return helper.make_attribute(name, type_to_proto(v))
    if kind == "TYPE_PROTOS":
        return helper.make_attribute(name, [type_to_proto(x) for x in v])
    return helper.make_attribute(name, v, attr_type=getattr(helper.AttributeProto, kind))


def infer_with_onnx(op, schema, version, constants):
    """Result types of `op` by onnx's shape inference: a list (None where onnx says
    nothing). `constants` maps operand indices to NumPy arrays of known values. Raises
    whatever onnx raises when it finds the node inconsistent."""
    from onnx import helper, numpy_helper, shape_inference
    inputs, inits, names = [], [], []
    for i, o in enumerate(op._operands):
        t = o.value.type
        if t is A.NoneType():
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        tp = type_to_proto(t)
        if tp is None:
            return None
        inputs.append(helper.make_value_info(name, tp))
        c = constants.get(i)
        if c is not None:
            inits.append(numpy_helper.from_array(np.asarray(c), name))
    outputs = ["" if r.type is A.NoneType() else f"out{j}" for j, r in enumerate(op.results)]
    attrs = []
    for name, a in sorted(op._props.items()):
        d = schema.attributes.get(name)
        if d is None or d.kind in ("GRAPH", "GRAPHS"):
            return None
        attrs.append(_attribute(name, d.kind, a))
    cls = type(op)
    node = helper.make_node(cls.op_type, names, outputs, domain=cls.domain or None)
    node.attribute.extend(attrs)
    graph = helper.make_graph([node], "shape_inference", inputs, [], initializer=inits)
    opsets = [helper.make_opsetid(cls.domain, version)]
    if cls.domain:
        opsets.append(helper.make_opsetid("", O.opset_version(op, "")))
    model = helper.make_model(graph, opset_imports=opsets)
    inferred = shape_inference.infer_shapes(model, check_type=False, strict_mode=True,
                                            data_prop=True)
    found = {vi.name: vi.type for vi in inferred.graph.value_info}
    return [type_from_proto(found[n]) if n in found else None for n in outputs]
