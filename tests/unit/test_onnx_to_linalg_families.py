"""convert-onnx-to-linalg, checked by execution: each op runs in the interpreter at the
onnx level (ONNX's own reference semantics) and after the lowering, on the same random
inputs (strata.testing.check_pass_preserves_semantics). Covers the elementwise,
activation, reduction, normalization, quantization, cumulative and training families,
with static and dynamic dims and unsigned types."""
from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from strata.testing import check_pass_preserves_semantics  # noqa: E402

HEAD = 'module attributes {onnx.opset_import = {ai.onnx = 21 : i64}} {\n'


def _fn(body, args, results):
    return (HEAD + f"func.func @main({args}) -> ({results}) {{\n{body}\n}}\n}}\n")


UNARY_F = ["Abs", "Neg", "Exp", "Log", "Sqrt", "Ceil", "Floor", "Tanh", "Sin", "Cos", "Erf",
           "Sigmoid", "Relu", "Softplus", "Softsign", "Elu", "Selu", "Celu", "Mish",
           "HardSwish", "Round", "Reciprocal", "Sign", "Gelu"]


@pytest.mark.parametrize("op", UNARY_F)
def test_unary_float(op):
    t = "tensor<3x?xf32>"
    check_pass_preserves_semantics(
        _fn(f'%0 = "onnx.{op}"(%a) : ({t}) -> {t}\nreturn %0 : {t}', f"%a: {t}", t),
        "convert-onnx-to-linalg", rtol=1e-5, atol=1e-6)


BINARY = [("Add", "f32"), ("Sub", "i32"), ("Mul", "ui8"), ("Div", "f32"), ("Div", "i32"),
          ("Max", "ui16"), ("Min", "f32"), ("Pow", "f32"), ("BitwiseXor", "i16")]


@pytest.mark.parametrize("op,elt", BINARY)
def test_binary_broadcasting(op, elt):
    a, b, r = f"tensor<2x1x4x{elt}>", f"tensor<3x1x{elt}>", f"tensor<2x3x4x{elt}>"
    text = _fn(f'%0 = "onnx.{op}"(%a, %b) : ({a}, {b}) -> {r}\nreturn %0 : {r}',
               f"%a: {a}, %b: {b}", r)
    inputs = None
    if op == "Div" and elt == "i32":
        import numpy as np
        rng = np.random.default_rng(0)
        inputs = [rng.integers(-50, 50, (2, 1, 4)).astype(np.int32),
                  rng.integers(1, 9, (3, 1)).astype(np.int32)]
    check_pass_preserves_semantics(text, "convert-onnx-to-linalg", inputs=inputs)


@pytest.mark.parametrize("op", ["Equal", "Less", "GreaterOrEqual"])
@pytest.mark.parametrize("elt", ["f32", "ui8", "i64"])
def test_compare(op, elt):
    a, r = f"tensor<5x{elt}>", "tensor<5xi1>"
    check_pass_preserves_semantics(
        _fn(f'%0 = "onnx.{op}"(%a, %b) : ({a}, {a}) -> {r}\nreturn %0 : {r}',
            f"%a: {a}, %b: {a}", r), "convert-onnx-to-linalg")


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                                "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSumExp",
                                "ReduceSumSquare"])
@pytest.mark.parametrize("keepdims", [0, 1])
def test_reductions(op, keepdims):
    r = "tensor<2x1x4xf32>" if keepdims else "tensor<2x4xf32>"
    text = _fn('%axes = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : '
               '() -> tensor<1xi64>\n'
               f'%0 = "onnx.{op}"(%a, %axes) <{{keepdims = {keepdims} : i64}}> : '
               f'(tensor<2x3x4xf32>, tensor<1xi64>) -> {r}\nreturn %0 : {r}',
               "%a: tensor<2x3x4xf32>", r)
    check_pass_preserves_semantics(text, "convert-onnx-to-linalg", rtol=1e-5, atol=1e-5)


def test_reduction_with_axes_known_at_run_time():
    import numpy as np
    text = _fn('%0 = "onnx.ReduceMean"(%a, %axes) <{keepdims = 0 : i64}> : '
               '(tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>\n'
               'return %0 : tensor<2x4xf32>', "%a: tensor<2x3x4xf32>, %axes: tensor<1xi64>",
               "tensor<2x4xf32>")
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    check_pass_preserves_semantics(text, "convert-onnx-to-linalg",
                                   inputs=[x, np.array([-2], np.int64)], atol=1e-6)


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin", "Hardmax", "LpNormalization"])
def test_axis_ops(op):
    t = "tensor<3x5xf32>"
    r = {"ArgMax": "tensor<3x1xi64>", "ArgMin": "tensor<3x1xi64>"}.get(op, t)
    props = "<{axis = 1 : i64}>"
    check_pass_preserves_semantics(
        _fn(f'%0 = "onnx.{op}"(%a) {props} : ({t}) -> {r}\nreturn %0 : {r}', f"%a: {t}", r),
        "convert-onnx-to-linalg", atol=1e-6)


def test_batch_and_instance_norm():
    x, c = "tensor<2x3x4x4xf32>", "tensor<3xf32>"
    body = (f'%0 = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : ({x}, {c}, {c}, {c}, {c})'
            f' -> {x}\n'
            f'%1 = "onnx.InstanceNormalization"(%0, %s, %b) : ({x}, {c}, {c}) -> {x}\n'
            f'return %1 : {x}')
    import numpy as np
    rng = np.random.default_rng(0)
    ins = [rng.standard_normal((2, 3, 4, 4)).astype(np.float32)] + \
        [rng.standard_normal(3).astype(np.float32) for _ in range(3)] + \
        [(rng.random(3) + 0.5).astype(np.float32)]
    check_pass_preserves_semantics(
        _fn(body, f"%x: {x}, %s: {c}, %b: {c}, %m: {c}, %v: {c}", x),
        "convert-onnx-to-linalg", inputs=ins, rtol=1e-4, atol=1e-5)


def test_quantize_dequantize_per_axis():
    x, s, z, q = "tensor<2x3xf32>", "tensor<3xf32>", "tensor<3xui8>", "tensor<2x3xui8>"
    body = (f'%0 = "onnx.QuantizeLinear"(%x, %s, %z) <{{axis = 1 : i64}}> : ({x}, {s}, {z})'
            f' -> {q}\n'
            f'%1 = "onnx.DequantizeLinear"(%0, %s, %z) <{{axis = 1 : i64}}> : ({q}, {s}, {z})'
            f' -> {x}\nreturn %0, %1 : {q}, {x}')
    import numpy as np
    rng = np.random.default_rng(0)
    ins = [(rng.standard_normal((2, 3)) * 50).astype(np.float32),
           np.array([0.5, 1.0, 2.0], np.float32), np.array([0, 128, 250], np.uint8)]
    check_pass_preserves_semantics(_fn(body, f"%x: {x}, %s: {s}, %z: {z}", f"{q}, {x}"),
                                   "convert-onnx-to-linalg", inputs=ins)


@pytest.mark.parametrize("attrs", ["", "<{exclusive = 1 : i64, reverse = 1 : i64}>"])
def test_cumsum(attrs):
    t = "tensor<3x4xf32>"
    body = ('%ax = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>\n'
            f'%0 = "onnx.CumSum"(%a, %ax) {attrs} : ({t}, tensor<i64>) -> {t}\n'
            f'return %0 : {t}')
    check_pass_preserves_semantics(_fn(body, f"%a: {t}", t), "convert-onnx-to-linalg",
                                   atol=1e-5)


def test_clip_and_where_and_cast():
    t = "tensor<6xf32>"
    body = ('%lo = "onnx.Constant"() <{value = dense<-0.5> : tensor<f32>}> : () -> tensor<f32>\n'
            f'%0 = "onnx.Clip"(%a, %lo) : ({t}, tensor<f32>) -> {t}\n'
            f'%c = "onnx.Less"(%a, %b) : ({t}, {t}) -> tensor<6xi1>\n'
            f'%1 = "onnx.Where"(%c, %0, %b) : (tensor<6xi1>, {t}, {t}) -> {t}\n'
            f'%2 = "onnx.Cast"(%1) <{{to = 2 : i64}}> : ({t}) -> tensor<6xui8>\n'
            f'return %1, %2 : {t}, tensor<6xui8>')
    import numpy as np
    rng = np.random.default_rng(0)
    ins = [(rng.standard_normal(6) * 3).astype(np.float32),
           (rng.random(6) * 9).astype(np.float32)]
    check_pass_preserves_semantics(_fn(body, f"%a: {t}, %b: {t}", f"{t}, tensor<6xui8>"),
                                   "convert-onnx-to-linalg", inputs=ins)
