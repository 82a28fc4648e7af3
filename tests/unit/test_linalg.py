"""linalg from Python: building ops (make_generic, named ops' `new`), the structured-op
interface, and payload building errors. The printed forms themselves are checked against
mlir-opt by the lit tests in tests/lit/dialects/linalg."""
from __future__ import annotations

import pytest

from strata.dialects import default_context
from strata.dialects import linalg as L
from strata.dialects.func import FuncOp
from strata.ir import attributes as A
from strata.ir.builder import Builder
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op

T48 = A.RankedTensorType([4, 8], A.f32)
T4 = A.RankedTensorType([4], A.f32)


def _roundtrip(op):
    """Print `op` in both forms and parse them back (verifying)."""
    ctx = default_context()
    for generic in (False, True):
        text = print_op(op, PrintOptions(generic=generic))
        parse_source(text, ctx)


def _module_with(build, arg_types, result_types):
    rets = [f"%a{list(arg_types).index(t)}" for t in result_types]
    text = (f"func.func @f({', '.join(f'%a{i}: {t}' for i, t in enumerate(arg_types))}) -> "
            f"({', '.join(map(str, result_types))}) {{\n  return " + ", ".join(rets)
            + " : " + ", ".join(map(str, result_types)) + "\n}")
    m = parse_source(text, default_context())
    func = next(op for op in m.regions[0].blocks[0].ops if isinstance(op, FuncOp))
    body = func.regions[0].blocks[0]
    b = Builder.before(body.last)
    results = build(b, body.args)
    body.last.set_operands(results)
    m.verify()
    return m


def test_make_generic_row_sum():
    def build(b, args):
        x, init = args
        op = L.make_generic(b, [x], [init], ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)"],
                            ["parallel", "reduction"],
                            lambda pb, a: pb.binary("add", a[0], a[1]))
        return list(op.results)
    m = _module_with(build, [T48, T4], [T4])
    text = print_op(m)
    assert 'linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", ' \
           '"reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg1 : tensor<4xf32>) {' in text
    assert "^bb0(%in: f32, %out: f32):" in text
    assert "%1 = arith.addf %in, %out : f32" in text
    op = next(o for o in m.walk() if isinstance(o, L.GenericOp))
    assert op.num_loops == 2
    assert op.iterator_types_list() == ["parallel", "reduction"]
    assert [str(m_) for m_ in op.indexing_maps_list()] == ["(d0, d1) -> (d0, d1)",
                                                           "(d0, d1) -> (d0)"]
    assert op.static_loop_ranges() == [4, 8]
    assert op.reduction_dims() == [1]
    assert op.inputs == [op.operand(0)] and op.outputs == [op.operand(1)]
    assert op.body.args[0].type is A.f32


def test_make_generic_casts_and_index():
    ti = A.RankedTensorType([4, 8], A.i8)

    def body(b, args):
        x, _ = args
        i = b.cast(A.f32, b.cast(A.i32, b.index(1)))
        return b.binary("mul", b.cast(A.f32, x), i)

    def build(b, args):
        op = L.make_generic(b, [args[0]], [args[1]], ["(d0, d1) -> (d0, d1)"] * 2,
                            ["parallel"] * 2, body, doc="scale")
        return list(op.results)
    m = _module_with(build, [ti, T48], [T48])
    text = print_op(m)
    assert "linalg.index 1 : index" in text
    assert "arith.index_cast" in text and "arith.sitofp" in text
    assert 'doc = "scale"' in text
    _roundtrip(m)


def test_named_ops_new():
    def build(b, args):
        a, w, c, v = args
        fill = b.insert(L.FillOp.new([v], [c]))
        mm = b.insert(L.MatmulOp.new([a, w], [fill.results[0]]))
        return list(mm.results)
    t88 = A.RankedTensorType([8, 8], A.f32)
    m = _module_with(build, [T48, t88, T48, A.f32], [T48])
    text = print_op(m)
    assert "linalg.fill ins(%arg3 : f32) outs(%arg2 : tensor<4x8xf32>) -> tensor<4x8xf32>" \
        in text
    assert "linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%0 : " \
        "tensor<4x8xf32>) -> tensor<4x8xf32>" in text
    generic = print_op(m, PrintOptions(generic=True))
    assert '"arith.mulf"' in generic and '"arith.addf"' in generic
    mm = next(o for o in m.walk() if isinstance(o, L.MatmulOp))
    assert mm.iterator_types_list() == ["parallel", "parallel", "reduction"]
    assert mm.static_loop_ranges() == [4, 8, 8]


def test_conv_maps_follow_strides():
    ctx = default_context()
    m = parse_source("""
func.func @f(%i: tensor<1x9x9x3xf32>, %k: tensor<3x3x3x8xf32>, %o: tensor<1x4x4x8xf32>)
    -> tensor<1x4x4x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<2> : tensor<2xi64>}
    ins(%i, %k : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x4x4x8xf32>)
    -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}""", ctx)
    conv = next(o for o in m.walk() if o.name == "linalg.conv_2d_nhwc_hwcf")
    assert str(conv.indexing_maps_list()[0]) == \
        "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)"
    assert conv.static_loop_ranges() == [1, 4, 4, 8, 3, 3, 3]
    # Verification memoized the maps, as upstream does.
    assert "linalg.memoized_indexing_maps" in conv.attributes


def test_payload_errors_are_python_errors_from_builders():
    def build(b, args):
        L.make_generic(b, [args[0]], [args[1]], ["(d0) -> (d0)"] * 2, ["parallel"],
                       lambda pb, a: pb.binary("max_unsigned", a[0], a[1]))
        return [args[1]]
    with pytest.raises(L.PayloadError, match="unsigned max not on uint"):
        _module_with(build, [T4, T4], [T4])


def test_every_structured_op_has_the_interface():
    for cls in L.OPS:
        if issubclass(cls, L.StructuredOp):
            for m in ("indexing_maps_list", "iterator_types_list", "num_dps_inputs"):
                assert getattr(cls, m) is not getattr(L.StructuredOp, m) or \
                    m == "num_dps_inputs", (cls.name, m)


def test_builders_take_python_values():
    t9 = A.RankedTensorType([1, 9, 9, 3], A.f32)
    tk = A.RankedTensorType([3, 3, 3, 8], A.f32)
    to = A.RankedTensorType([1, 4, 4, 8], A.f32)
    t84 = A.RankedTensorType([8, 4], A.f32)

    def build(b, args):
        x, k, o, a, at = args
        conv = b.insert(L.named_op_class("conv_2d_nhwc_hwcf").new(
            [x, k], [o], strides=[2, 2], dilations=[1, 1]))
        mm = b.insert(L.MatmulOp.new(
            [at, at], [a], cast="cast_signed",
            indexing_maps=["(d0, d1, d2) -> (d2, d0)", "(d0, d1, d2) -> (d2, d1)",
                           "(d0, d1, d2) -> (d0, d1)"]))
        ew = b.insert(L.ElementwiseOp.new([mm.results[0]], [a], kind="exp"))
        return [conv.results[0], ew.results[0]]
    t44 = A.RankedTensorType([4, 4], A.f32)
    m = _module_with(build, [t9, tk, to, t44, t84], [to, t44])
    text = print_op(m)
    assert "linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = " \
        "dense<2> : tensor<2xi64>}" in text
    assert "linalg.matmul indexing_maps = [#map, #map1, #map2] {cast = " \
        "#linalg.type_fn<cast_signed>} ins" in text
    assert "linalg.elementwise <exp> ins" in text
    _roundtrip(m)


def test_map_reduce_softmax_pack_builders():
    def build(b, args):
        a, c, s, d = args
        mp = b.insert(L.MapOp.new([a, a], a, lambda pb, v: pb.binary("mul", v[0], v[1])))
        rd = b.insert(L.ReduceOp.new([mp.results[0]], [c], [1],
                                     lambda pb, v: pb.binary("add", v[1], v[0])))
        sm = b.insert(L.SoftmaxOp.new(mp.results[0], a, 1))
        pk = b.insert(L.PackOp.new(sm.results[0], d, [0, 1], [2, 4]))
        return [rd.results[0], pk.results[0]]
    t24 = A.RankedTensorType([2, 4, 2, 4], A.f32)
    m = _module_with(build, [A.RankedTensorType([4, 16], A.f32), T4, A.f32, t24], [T4, t24])
    text = print_op(m)
    assert "%mapped = linalg.map { arith.mulf } ins(%arg0, %arg0 : tensor<4x16xf32>, " \
        "tensor<4x16xf32>) outs(%arg0 : tensor<4x16xf32>)" in text
    assert "%reduced = linalg.reduce { arith.addf } ins(%mapped : tensor<4x16xf32>) " \
        "outs(%arg1 : tensor<4xf32>) dimensions = [1]" in text
    assert "linalg.softmax dimension(1) ins(%mapped" in text
    assert "%pack = linalg.pack %0 inner_dims_pos = [0, 1] inner_tiles = [2, 4] into " \
        "%arg3 : tensor<4x16xf32> -> tensor<2x4x2x4xf32>" in text
    red = next(o for o in m.walk() if isinstance(o, L.ReduceOp))
    assert red.iterator_types_list() == ["parallel", "reduction"]
    assert [str(x) for x in red.indexing_maps_list()] == ["(d0, d1) -> (d0, d1)",
                                                          "(d0, d1) -> (d0)"]
    _roundtrip(m)
