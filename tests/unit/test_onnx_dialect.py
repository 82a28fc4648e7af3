"""The onnx dialect: the generated schema table against onnx itself, the type maps, the
helpers other code uses (attr, opset_version, onnx_op_class)."""
from __future__ import annotations

import numpy as np
import pytest

from strata.dialects import default_context
from strata.dialects import onnx as O
from strata.dialects.onnx import ops as onnx_ops
from strata.dialects.onnx import table
from strata.ir import attributes as A
from strata.syntax.parser import parse_source

onnx = pytest.importorskip("onnx")


def _onnx_schemas():
    return onnx.defs.get_all_schemas_with_history()


def _option(f):
    name = f.option.name
    return {"Single": table.SINGLE, "Optional": table.OPTIONAL,
            "Variadic": table.VARIADIC}[name]


def test_table_matches_onnx():
    """Every schema of every domain and version reads back as onnx has it."""
    schemas = _onnx_schemas()
    assert len(schemas) == sum(len(table.versions(op, d)) for d, op, *_ in table.op_types())
    for s in schemas:
        ours = table.lookup(s.name, s.domain, s.since_version)
        assert ours is not None and ours.since_version == s.since_version, s.name
        assert (ours.min_inputs, ours.max_inputs, ours.min_outputs, ours.max_outputs) == \
            (s.min_input, s.max_input, s.min_output, s.max_output), s.name
        for mine, theirs in ((ours.inputs, s.inputs), (ours.outputs, s.outputs)):
            assert [(f.name, f.type_str, f.option) for f in mine] == \
                [(f.name, f.type_str, _option(f)) for f in theirs], s.name
            for f, g in zip(mine, theirs):
                if f.option == table.VARIADIC:
                    assert f.homogeneous == g.is_homogeneous, (s.name, f.name)
        assert {c.type_param_str: frozenset(c.allowed_type_strs)
                for c in s.type_constraints} == ours.type_constraints, s.name
        assert set(ours.attributes) == set(s.attributes), s.name
        for name, a in s.attributes.items():
            d = ours.attributes[name]
            assert (d.kind, d.required) == (a.type.name, a.required), (s.name, name)
            if a.default_value.type:
                v = onnx.helper.get_attribute_value(a.default_value)
                if isinstance(v, bytes):
                    v = v.decode()
                elif isinstance(v, list) and v and isinstance(v[0], bytes):
                    v = [x.decode() for x in v]
                if isinstance(v, float):
                    assert np.float32(d.default) == np.float32(v), (s.name, name)
                else:
                    assert d.default == v, (s.name, name)
            else:
                assert d.default is None, (s.name, name)
        assert ours.has_function == s.has_function
        assert ours.has_context_dependent_function == s.has_context_dependent_function
        assert ours.deprecated == s.deprecated
        graphs = {n for n, a in s.attributes.items() if a.type.name == "GRAPH"}
        assert set(ours.regions) == graphs, s.name
    assert table.lookup("If").regions == ("then_branch", "else_branch")


def test_generated_table_is_up_to_date():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parents[2] / "tools" / "gen_onnx_dialect.py"
    spec = importlib.util.spec_from_file_location("gen_onnx_dialect", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with open(gen.OUT) as f:
        assert f.read() == gen.generate(), "rerun tools/gen_onnx_dialect.py"


def test_lookup_picks_the_version_in_force():
    assert table.lookup("ReduceSum", "", 12).since_version == 11
    assert table.lookup("ReduceSum", "", 13).since_version == 13
    assert table.lookup("ReduceSum", "ai.onnx", 12).since_version == 11
    assert table.lookup("Gelu", "", 19) is None
    assert table.lookup("LabelEncoder", "ai.onnx.ml").since_version == \
        max(table.versions("LabelEncoder", "ai.onnx.ml"))
    assert table.lookup("NoSuchOp") is None
    assert table.latest_opset("") == onnx.defs.onnx_opset_version()


def test_every_operator_has_an_op_class():
    ctx = default_context()
    for domain, op_type, *_ in table.op_types():
        cls = O.onnx_op_class(op_type, domain)
        assert cls is not None and ctx.get_op(cls.name) is cls
        assert (cls.op_type, cls.domain) == (op_type, domain)
    assert O.onnx_op_class("Add").name == "onnx.Add"
    assert O.onnx_op_class("LabelEncoder", "ai.onnx.ml").name == "onnx.LabelEncoder"
    assert O.onnx_op_class("Nope") is None


def test_op_type_in_two_domains_gets_a_domain_prefix(monkeypatch):
    fake = list(table.op_types()) + [("ai.onnx.ml", "Add", frozenset(), False, True)]
    monkeypatch.setattr(table, "op_types", lambda: iter(fake))
    classes = onnx_ops.make_op_classes()
    assert classes[("", "Add")].name == "onnx.Add"
    assert classes[("ai.onnx.ml", "Add")].name == "onnx.ml.Add"


def test_element_type_maps():
    tp = onnx.TensorProto
    for name, number in tp.DataType.items():
        if name == "UNDEFINED":
            continue
        t = O.ONNX_TO_MLIR_ELEMENT[number]
        assert O.mlir_element_to_onnx(t) == number
        assert O.ONNX_ELEMENT_NAMES[number] == \
            onnx.helper.tensor_dtype_to_string(number)[len("TensorProto."):].lower()
        assert O.numpy_dtype_of(t) == onnx.helper.tensor_dtype_to_np_dtype(number), name
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.UINT8]) == "ui8"
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.INT8]) == "i8"
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.BOOL]) == "i1"
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.FLOAT8E4M3FN]) == "f8E4M3FN"
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.COMPLEX64]) == "complex<f32>"
    assert str(O.ONNX_TO_MLIR_ELEMENT[tp.STRING]) == "!onnx.String"
    assert O.mlir_element_to_onnx(A.IntegerType(32, A.IntegerType.SIGNED)) == tp.INT32
    assert O.mlir_element_to_onnx(A.index) is None
    assert O.numpy_dtype_of(A.index) == np.int64


def test_type_strings():
    f32 = A.f32
    t = A.RankedTensorType([2, A.DYNAMIC], f32)
    assert O.onnx_type_string(t) == "tensor(float)"
    assert O.onnx_type_string(A.UnrankedTensorType(A.i1)) == "tensor(bool)"
    assert O.onnx_type_string(O.SeqType(t)) == "seq(tensor(float))"
    assert O.onnx_type_string(O.OptType(O.SeqType(t))) == "optional(seq(tensor(float)))"
    assert O.onnx_type_string(O.MapType(O.StringType(), f32)) == "map(string, float)"
    assert O.onnx_type_string(O.MapType(A.i64, A.RankedTensorType([], f32))) == \
        "map(int64, float)"
    assert O.onnx_type_string(f32) is None
    assert O.onnx_type_string(A.RankedTensorType([2], A.index)) is None


def test_types_print_and_parse():
    ctx = default_context()
    text = ("func.func @f(%a: !onnx.Seq<tensor<?xf32>>, %b: !onnx.Opt<!onnx.Seq<tensor<2x"
            "!onnx.String>>>, %c: !onnx.Map<i64, f32>) {\n  return\n}")
    m = parse_source(text, ctx)
    f = m.regions[0].blocks[0].first
    types = f.type.inputs
    assert types[0] is O.SeqType(A.RankedTensorType([A.DYNAMIC], A.f32))
    assert str(types[1]) == "!onnx.Opt<!onnx.Seq<tensor<2x!onnx.String>>>"
    assert types[2] is O.MapType(A.i64, A.f32)


def test_elements_numpy_round_trip():
    import ml_dtypes
    for dt, et in ((np.float32, A.f32), (ml_dtypes.bfloat16, A.bf16),
                   (ml_dtypes.float8_e4m3fn, A.FloatType("f8E4M3FN")),
                   (ml_dtypes.int4, A.IntegerType(4)), (np.uint8, A.IntegerType(8, 2)),
                   (np.bool_, A.i1)):
        a = np.array([[1, 0, 1], [0, 1, 1]]).astype(dt)
        attr = O.elements_from_numpy(a)
        assert attr.type.element_type is et
        back = O.elements_to_numpy(attr)
        assert back.dtype == np.dtype(dt) and (back == a).all()
    s = O.elements_from_numpy(np.array(["a", "bc"], dtype=object))
    assert s.type is A.RankedTensorType([2], O.StringType())


def _module(body, opset="{ai.onnx = 13 : i64}"):
    text = (f"module attributes {{onnx.opset_import = {opset}}} {{\n"
            f"func.func @f(%x: tensor<2x3xf32>) {{\n{body}\n  return\n}}\n}}")
    m = parse_source(text, default_context())
    f = m.regions[0].blocks[0].first
    return f.regions[0].blocks[0].first


def test_attr_helper_and_defaults():
    op = _module('  %0 = "onnx.Gemm"(%x, %x) <{alpha = 2.0 : f32, transB = 1 : i64}> : '
                 '(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>')
    assert O.attr(op, "alpha") == 2.0
    assert O.attr(op, "transB") == 1
    assert O.attr(op, "beta") == 1.0       # schema default
    assert O.attr(op, "transA") == 0
    assert O.attr(op, "nothing") is None
    assert O.opset_version(op) == 13
    assert O.schema_of(op).since_version == 13
    op = _module('  %0 = "onnx.Constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : '
                 '() -> tensor<2xi64>\n  %1 = "onnx.Transpose"(%x) <{perm = [1, 0]}> : '
                 '(tensor<2x3xf32>) -> tensor<3x2xf32>')
    assert O.attr(op, "value").tolist() == [1, 2]
    assert O.attr(op.next, "perm") == [1, 0]
    assert O.opset_version(op, "ai.onnx.ml") == table.latest_opset("ai.onnx.ml")


def test_build_converts_python_attributes():
    cls = O.onnx_op_class("Gemm")
    x = _module("").parent.args[0]
    op = cls.build([x, x], [A.RankedTensorType([2, 2], A.f32)],
                   {"alpha": 0.5, "transB": 1})
    assert op.properties["alpha"] is A.FloatAttr(0.5, A.f32)
    assert op.properties["transB"] is A.IntegerAttr(1, A.i64)
    assert op.verify_invariants() is None
    with pytest.raises(ValueError):
        cls.build([x, x], [A.f32], {"nope": 1})
