"""onnx-shape-inference: the Python rules against onnx's own inference, op by op.

Each case is one op on typed operands (some of them constants). The pass runs twice on
it, once with only the Python rules and once with only onnx's inference; the Python
result must agree with onnx's (no contradicting dims or ranks) and know every static
dim onnx knows.
"""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from strata.dialects import default_context  # noqa: E402
from strata.ir import attributes as A  # noqa: E402
from strata.passes.pass_manager import PassFailure, PassManager  # noqa: E402
from strata.syntax.parser import parse_source  # noqa: E402
from strata.transforms.onnx_shape_inference import OnnxShapeInference  # noqa: E402
from strata.transforms.onnx_shape_inference.core import refine  # noqa: E402


def _const(values, elt="i64"):
    vals = ", ".join(str(v) for v in values)
    return f"dense<[{vals}]> : tensor<{len(values)}x{elt}>"


def _scalar(v, elt="i64"):
    return f"dense<{v}> : tensor<{elt}>"


def _module(op, operands, attrs="", results=("f32",), opset=18):
    """`operands`: MLIR types (function arguments) or dense attributes (constants)."""
    args, lines, names, types = [], [], [], []
    for i, o in enumerate(operands):
        if o is None:
            lines.append(f'    %n{i} = "onnx.NoValue"() : () -> none')
            names.append(f"%n{i}")
            types.append("none")
        elif o.startswith("dense"):
            t = o.split(" : ", 1)[1]
            lines.append(f'    %c{i} = "onnx.Constant"() <{{value = {o}}}> : () -> {t}')
            names.append(f"%c{i}")
            types.append(t)
        else:
            args.append(f"%a{i}: {o}")
            names.append(f"%a{i}")
            types.append(o)
    res = ", ".join(f"tensor<*x{r}>" for r in results)
    if len(results) != 1:
        res = f"({res})"
    props = f" <{{{attrs}}}>" if attrs else ""
    lhs = "%r" if len(results) == 1 else f"%r:{len(results)}"
    lines.append(f'    {lhs} = "onnx.{op}"({", ".join(names)}){props} : '
                 f'({", ".join(types)}) -> {res}')
    return (f"module attributes {{onnx.opset_import = {{ai.onnx = {opset} : i64}}}} {{\n"
            f"  func.func @f({', '.join(args)}) {{\n" + "\n".join(lines) +
            "\n    return\n  }\n}\n")


def _infer(text, rules, fallback):
    m = parse_source(text, default_context())
    PassManager("builtin.module", [OnnxShapeInference(rules=rules, fallback=fallback)]).run(m)
    f = m.regions[0].blocks[0].first
    op = f.regions[0].blocks[0].last.prev
    return [r.type for r in op.results]


CASES = [
    # elementwise and broadcasting
    ("Add", ["tensor<2x1x4xf32>", "tensor<3x1xf32>"]),
    ("Mul", ["tensor<?x4xf32>", "tensor<1xf32>"]),
    ("Sub", ["tensor<?x4xf32>", "tensor<5x1xf32>"]),
    ("Where", ["tensor<3x1xi1>", "tensor<4xf32>", "tensor<1x1xf32>"]),
    ("Equal", ["tensor<2x3xi64>", "tensor<3xi64>"], "", ("i1",)),
    ("Sum", ["tensor<2x3xf32>", "tensor<3xf32>", "tensor<1x1xf32>"]),
    ("Max", ["tensor<2x?xf32>", "tensor<3xf32>"]),
    ("Relu", ["tensor<2x?x4xf32>"]),
    ("IsNaN", ["tensor<2x3xf32>"], "", ("i1",)),
    ("Cast", ["tensor<2x3xf32>"], "to = 7 : i64", ("i64",)),
    ("Clip", ["tensor<2x3xf32>", _scalar("0.0", "f32"), _scalar("6.0", "f32")]),
    ("Softmax", ["tensor<2x3xf32>"], "axis = -1 : i64"),
    ("LeakyRelu", ["tensor<7xf32>"]),
    # contractions
    ("MatMul", ["tensor<2x3x4xf32>", "tensor<4x5xf32>"]),
    ("MatMul", ["tensor<4xf32>", "tensor<2x4x5xf32>"]),
    ("MatMul", ["tensor<3x4xf32>", "tensor<4xf32>"]),
    ("MatMul", ["tensor<1x?x3x4xf32>", "tensor<5x1x4x6xf32>"]),
    ("Gemm", ["tensor<4x3xf32>", "tensor<5x4xf32>"], "transA = 1 : i64, transB = 1 : i64"),
    ("Gemm", ["tensor<3x4xf32>", "tensor<4x5xf32>", "tensor<5xf32>"]),
    # convolution and pooling
    ("Conv", ["tensor<1x3x32x32xf32>", "tensor<8x3x3x3xf32>"],
     "pads = [1, 1, 1, 1], strides = [2, 2]"),
    ("Conv", ["tensor<1x4x17x15xf32>", "tensor<8x2x3x5xf32>"],
     "group = 2 : i64, dilations = [2, 1], strides = [3, 2]"),
    ("Conv", ["tensor<1x3x31xf32>", "tensor<8x3x4xf32>"],
     'auto_pad = "SAME_UPPER", strides = [2]'),
    ("Conv", ["tensor<1x3x31xf32>", "tensor<8x3x4xf32>"], 'auto_pad = "VALID", strides = [3]'),
    ("Conv", ["tensor<?x3x?x10xf32>", "tensor<8x3x3x3xf32>"]),
    ("ConvTranspose", ["tensor<1x4x5x6xf32>", "tensor<4x2x3x3xf32>"],
     "strides = [2, 2], pads = [1, 0, 1, 0], output_padding = [1, 1]"),
    ("ConvTranspose", ["tensor<1x4x5x6xf32>", "tensor<4x2x3x3xf32>"],
     "group = 2 : i64, strides = [2, 3]"),
    ("MaxPool", ["tensor<1x3x32x31xf32>"], "kernel_shape = [3, 3], strides = [2, 2]"),
    ("MaxPool", ["tensor<1x3x32x31xf32>"],
     "kernel_shape = [3, 2], strides = [2, 2], ceil_mode = 1 : i64, pads = [1, 0, 1, 1]"),
    ("MaxPool", ["tensor<1x3x32x31xf32>"],
     "kernel_shape = [3, 3], strides = [2, 2], dilations = [2, 2]", ("f32", "i64")),
    ("MaxPool", ["tensor<1x1x4x4xf32>"],
     "kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1 : i64, pads = [1, 1, 1, 1]"),
    # A window starting in the right padding is dropped (onnx's inference before
    # opset 22 keeps it, its reference implementation does not).
    ("MaxPool", ["tensor<1x1x5x6xf32>"],
     "kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1 : i64, pads = [1, 1, 1, 1]",
     ("f32",), 22),
    ("AveragePool", ["tensor<1x3x9x10xf32>"],
     'kernel_shape = [2, 3], auto_pad = "SAME_LOWER", strides = [2, 3]'),
    ("AveragePool", ["tensor<1x3x9x10xf32>"],
     "kernel_shape = [2, 3], ceil_mode = 1 : i64, strides = [2, 2]"),
    ("GlobalAveragePool", ["tensor<2x3x9x10xf32>"]),
    ("LpPool", ["tensor<1x3x9x10xf32>"], "kernel_shape = [3, 3]"),
    # normalization
    ("BatchNormalization", ["tensor<2x3x4xf32>", "tensor<3xf32>", "tensor<3xf32>",
                            "tensor<3xf32>", "tensor<3xf32>"]),
    ("LayerNormalization", ["tensor<2x3x4xf32>", "tensor<4xf32>"], "axis = -1 : i64",
     ("f32", "f32", "f32")),
    ("InstanceNormalization", ["tensor<2x3x4xf32>", "tensor<3xf32>", "tensor<3xf32>"]),
    ("Dropout", ["tensor<2x3xf32>"], "", ("f32", "i1")),
    # shapes and data movement
    ("Reshape", ["tensor<2x3x4xf32>", _const([0, -1])]),
    ("Reshape", ["tensor<2x3x4xf32>", _const([4, 0, 2, -1])]),
    ("Reshape", ["tensor<2x0x4xf32>", _const([0, 4])], "allowzero = 1 : i64"),
    ("Reshape", ["tensor<?x3x4xf32>", _const([-1, 12])]),
    ("Flatten", ["tensor<2x3x4x5xf32>"], "axis = -2 : i64"),
    ("Flatten", ["tensor<2x3x4x5xf32>"], "axis = 0 : i64"),
    ("Transpose", ["tensor<2x3x4xf32>"], "perm = [2, 0, 1]"),
    ("Transpose", ["tensor<2x?x4xf32>"]),
    ("Concat", ["tensor<2x3xf32>", "tensor<2x5xf32>", "tensor<?x1xf32>"], "axis = -1 : i64"),
    ("Split", ["tensor<10x4xf32>", _const([3, 7])], "axis = 0 : i64", ("f32", "f32")),
    ("Split", ["tensor<10x4xf32>"], "axis = 0 : i64, num_outputs = 3 : i64",
     ("f32", "f32", "f32")),
    ("Split", ["tensor<4x9xf32>"], "axis = 1 : i64", ("f32", "f32", "f32")),
    ("Split", ["tensor<6xf32>", "tensor<2xi64>"], "", ("f32", "f32")),
    ("Slice", ["tensor<10x20x30xf32>", _const([1, -5]), _const([8, 1000]), _const([0, 2])]),
    ("Slice", ["tensor<10x20xf32>", _const([-1, 0]), _const([-1000, 20]), _const([0, 1]),
               _const([-2, 3])]),
    ("Slice", ["tensor<10x20xf32>", _const([2]), _const([5])]),
    # a negative step from a start before the dim's beginning: ONNX clamps the start to
    # 0 (one element), Python's slice to -1 (none)
    ("Slice", ["tensor<3x2xf32>", _const([-5]), _const([-9]), _const([1]), _const([-1])]),
    ("Slice", ["tensor<3x4xf32>", _const([-7, 9]), _const([-1000, -1000]), _const([1, 0]),
               _const([-2, -1])]),
    ("Gather", ["tensor<5x6x7xf32>", "tensor<2x3xi64>"], "axis = 1 : i64"),
    ("Gather", ["tensor<5x6x7xf32>", _scalar(2)], "axis = -1 : i64"),
    ("GatherElements", ["tensor<5x6xf32>", "tensor<5x2xi64>"], "axis = 1 : i64"),
    ("Squeeze", ["tensor<1x3x1x4xf32>", _const([0, -2])]),
    ("Squeeze", ["tensor<1x3x1x4xf32>"]),
    ("Unsqueeze", ["tensor<3x4xf32>", _const([0, -1])]),
    ("Unsqueeze", ["tensor<3x4xf32>", _const([1, 3])]),
    ("Expand", ["tensor<3x1xf32>", _const([2, 1, 4])]),
    ("Expand", ["tensor<3x1xf32>", _const([1])]),
    ("Tile", ["tensor<3x4xf32>", _const([2, 3])]),
    ("Pad", ["tensor<3x4xf32>", _const([1, 2, 3, 4])]),
    ("Pad", ["tensor<3x4x5xf32>", _const([1, 2]), None, _const([-1])]),
    ("Shape", ["tensor<2x?x4xf32>"], "", ("i64",)),
    ("Shape", ["tensor<2x3x4x5xf32>"], "start = 1 : i64, end = -1 : i64", ("i64",)),
    ("Size", ["tensor<2x3x4xf32>"], "", ("i64",)),
    ("ConstantOfShape", [_const([2, 3])], "value = dense<1> : tensor<1xi32>", ("i32",)),
    ("Range", [_scalar(1), _scalar(10), _scalar(3)], "", ("i64",)),
    ("Range", [_scalar("0.5", "f32"), _scalar("2.0", "f32"), _scalar("0.25", "f32")]),
    ("DepthToSpace", ["tensor<1x8x3x4xf32>"], "blocksize = 2 : i64"),
    ("SpaceToDepth", ["tensor<1x2x6x4xf32>"], "blocksize = 2 : i64"),
    ("NonZero", ["tensor<3x4xf32>"], "", ("i64",)),
    ("TopK", ["tensor<3x10xf32>", _const([4])], "", ("f32", "i64")),
    ("ArgMax", ["tensor<3x10xf32>"], "axis = 1 : i64, keepdims = 0 : i64", ("i64",)),
    ("ArgMin", ["tensor<3x10xf32>"], "axis = -1 : i64", ("i64",)),
    # reductions
    ("ReduceSum", ["tensor<2x3x4xf32>", _const([1])]),
    ("ReduceSum", ["tensor<2x3x4xf32>", _const([0, -1])], "keepdims = 0 : i64"),
    ("ReduceSum", ["tensor<2x3x4xf32>"], "keepdims = 0 : i64"),
    ("ReduceSum", ["tensor<2x3x4xf32>"], "noop_with_empty_axes = 1 : i64"),
    ("ReduceMean", ["tensor<2x3x4xf32>", _const([1])], "keepdims = 0 : i64"),
    ("ReduceMax", ["tensor<2x?x4xf32>", _const([2])]),
    ("ReduceL2", ["tensor<2x3x4xf32>"]),
]


def _id(case):
    return case[0]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_rules_agree_with_onnx(case):
    op, operands = case[0], case[1]
    attrs = case[2] if len(case) > 2 else ""
    results = case[3] if len(case) > 3 else ("f32",)
    opset = case[4] if len(case) > 4 else 18
    text = _module(op, operands, attrs, results, opset)
    ours = _infer(text, rules=True, fallback=False)
    theirs = _infer(text, rules=False, fallback=True)
    for j, (a, b) in enumerate(zip(ours, theirs)):
        both, conflict = refine(a, b)
        assert conflict is None, f"{op} result #{j}: ours {a}, onnx {b}"
        assert both is a, f"{op} result #{j}: ours {a} knows less than onnx's {b}"


def test_legacy_attribute_versions():
    """Operands that were attributes in older opsets: axes, starts/ends, pads, split."""
    cases = [
        ("Squeeze", ["tensor<1x3x1xf32>"], "axes = [0]", 11, "tensor<3x1xf32>"),
        ("Unsqueeze", ["tensor<3xf32>"], "axes = [0, 2]", 11, "tensor<1x3x1xf32>"),
        ("Slice", ["tensor<10x20xf32>"], "starts = [1], ends = [4], axes = [1]", 9,
         "tensor<10x3xf32>"),
        ("ReduceMean", ["tensor<2x3x4xf32>"], "axes = [1], keepdims = 0 : i64", 13,
         "tensor<2x4xf32>"),
        ("Pad", ["tensor<3x4xf32>"], "pads = [0, 1, 0, 1]", 10, "tensor<3x6xf32>"),
        ("TopK", ["tensor<3x10xf32>"], "k = 2 : i64", 9, "tensor<3x2xf32>"),
    ]
    for op, operands, attrs, opset, want in cases:
        text = _module(op, operands, attrs, ("f32",) if op != "TopK" else ("f32", "i64"),
                       opset=opset)
        got = _infer(text, rules=True, fallback=False)[0]
        assert str(got) == want, (op, got)
        theirs = _infer(text, rules=False, fallback=True)[0]
        assert refine(got, theirs) == (got, None), (op, got, theirs)


def test_slice_of_a_known_shape_follows_onnx_clamping():
    """The values of a sliced shape vector (propagated to later Reshapes) take ONNX's
    clamping too: Shape [2, 3, 4] sliced from -9 down to -10 is [2] (start clamped to 0),
    not Python's []; from 7 down by -2 it is [4, 2]."""
    for start, end, step, want in ((-9, -10, -1, [2]), (7, -1000, -2, [4, 2]),
                                   (-1, -1000, -1, [4, 3, 2]), (5, 9, 1, [])):
        text = (f'module attributes {{onnx.opset_import = {{ai.onnx = 18 : i64}}}} {{\n'
                f'  func.func @f(%x: tensor<2x3x4xf32>) {{\n'
                f'    %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<*xi64>\n'
                f'    %c0 = "onnx.Constant"() <{{value = {_const([start])}}}> : () -> tensor<1xi64>\n'
                f'    %c1 = "onnx.Constant"() <{{value = {_const([end])}}}> : () -> tensor<1xi64>\n'
                f'    %c2 = "onnx.Constant"() <{{value = {_const([0])}}}> : () -> tensor<1xi64>\n'
                f'    %c3 = "onnx.Constant"() <{{value = {_const([step])}}}> : () -> tensor<1xi64>\n'
                f'    %v = "onnx.Slice"(%s, %c0, %c1, %c2, %c3) : (tensor<*xi64>, tensor<1xi64>, '
                f'tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>\n'
                f'    %z = "onnx.ConstantOfShape"(%v) : (tensor<*xi64>) -> tensor<*xf32>\n'
                f'    return\n  }}\n}}\n')
        m = parse_source(text, default_context())
        PassManager("builtin.module", [OnnxShapeInference(fallback=False)]).run(m)
        f = m.regions[0].blocks[0].first
        z = f.regions[0].blocks[0].last.prev
        assert str(z.results[0].type) == f"tensor<{'x'.join(map(str, want + ['f32']))}>" \
            if want else str(z.results[0].type) == "tensor<f32>", (start, end, step, z.results[0].type)


def test_uneven_split_matches_onnx_reference():
    # onnx's inference says [2, 2, 2, -1]; its reference implementation [2, 2, 1, 0].
    text = _module("Split", ["tensor<5xi64>"], "num_outputs = 4 : i64", ("i64",) * 4)
    got = _infer(text, rules=True, fallback=False)
    assert [str(t) for t in got] == ["tensor<2xi64>", "tensor<2xi64>", "tensor<1xi64>",
                                     "tensor<0xi64>"]


def test_conflicting_operands_are_an_error():
    text = _module("Add", ["tensor<3xf32>", "tensor<4xf32>"])
    m = parse_source(text, default_context())
    with pytest.raises(PassFailure) as e:
        PassManager("builtin.module", [OnnxShapeInference()]).run(m)
    assert "dims 3 and 4 cannot be broadcast together" in str(e.value)


def test_every_rule_names_an_op():
    from strata.dialects import onnx as O
    from strata.transforms.onnx_shape_inference.rules import RULES
    assert [n for n in RULES if n not in O.ONNX.ops] == []


def test_refine_keeps_static_dims():
    f32 = A.f32
    t = A.RankedTensorType
    d = A.DYNAMIC
    assert refine(t([2, d], f32), t([d, 3], f32)) == (t([2, 3], f32), None)
    assert refine(A.UnrankedTensorType(f32), t([d, 3], f32)) == (t([d, 3], f32), None)
    kept, msg = refine(t([2, 3], f32), t([2, 4], f32))
    assert kept is t([2, 3], f32) and msg
    kept, msg = refine(t([2, 3], f32), t([6], f32))
    assert kept is t([2, 3], f32) and "rank" in msg
