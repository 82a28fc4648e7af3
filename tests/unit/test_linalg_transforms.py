"""linalg-generalize-named-ops, linalg-fuse-elementwise-ops and linalg-fold-unit-extent-dims
(strata/transforms/linalg):
differential checks through the interpreter (the lit inputs, dynamic shapes, index users,
both ways the payload blocks move), the Python API, and ONNX models lowered with the
interpreter pipeline (fusion keeps their results and removes linalg ops)."""
from __future__ import annotations

import os

import numpy as np
import pytest

from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op
from strata.testing import check_pass_preserves_semantics

LIT = os.path.join(os.path.dirname(__file__), "..", "lit", "passes")
GENERALIZE = "linalg-generalize-named-ops"
FUSE = "linalg-fuse-elementwise-ops"
UNIT = "linalg-fold-unit-extent-dims"


def _lit(folder, name):
    with open(os.path.join(LIT, folder, name), encoding="utf-8") as f:
        return f.read()


def _parse(text):
    return parse_source(text, default_context(), "<test>")


def _count(module, names=None):
    """Linalg ops of the module (those named in `names` when given)."""
    return sum(1 for op in module.walk() if op.name.startswith("linalg.") and
               op.name not in ("linalg.yield", "linalg.index") and
               (names is None or op.name in names))


def _run(module, pipeline):
    from strata.compiler import build_pipeline
    build_pipeline(pipeline).run(module)
    return module


# ------------------------------------------------------------------ generalization


def test_generalize_lit_input_keeps_results():
    check_pass_preserves_semantics(_lit(GENERALIZE, "named_ops.mlir"), GENERALIZE)


def test_generalize_leaves_only_generic():
    m = _run(_parse(_lit(GENERALIZE, "named_ops.mlir")), GENERALIZE)
    names = {op.name for op in m.walk() if op.name.startswith("linalg.")}
    assert names == {"linalg.generic", "linalg.yield", "linalg.index", "linalg.softmax"}


BUFFERS = """
func.func @f(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.transpose ins(%a : memref<4x8xf32>) outs(%b : memref<8x4xf32>) permutation = [1, 0]
  linalg.softmax dimension(1) ins(%c : memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
"""


def test_generalize_api_on_buffers():
    """generalize(op, rewriter): buffers give a generic op without results; ops that are
    not named structured ops (softmax, generic) give None and stay."""
    from strata.dialects.linalg import GenericOp
    from strata.rewrite.pattern import PatternRewriter
    from strata.transforms.linalg import generalize
    m = _parse(BUFFERS)
    f = m.regions[0].blocks[0].first
    ops = list(f.regions[0].blocks[0].ops)
    rewriter = PatternRewriter()
    g0 = generalize(ops[0], rewriter)
    g1 = generalize(ops[1], rewriter)
    assert isinstance(g0, GenericOp) and isinstance(g1, GenericOp)
    assert not g0.results and g0.iterator_types_list() == ["parallel", "parallel",
                                                            "reduction"]
    assert [str(x) for x in g1.indexing_maps_list()] == ["(d0, d1) -> (d1, d0)",
                                                         "(d0, d1) -> (d0, d1)"]
    assert generalize(ops[2], rewriter) is None and generalize(g0, rewriter) is None
    assert [op.name for op in f.regions[0].blocks[0].ops] == [
        "linalg.generic", "linalg.generic", "linalg.softmax", "func.return"]
    m.verify()


# ------------------------------------------------------------------ fusion

_ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def _generic(result, ins, in_types, out, out_type, maps, iters, body, arg_types):
    """Text of one linalg.generic."""
    args = ", ".join(f"%b{i}: {t}" for i, t in enumerate(arg_types))
    return (f"  {result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{', '.join(repr(i).replace(chr(39), chr(34)) for i in iters)}]}}"
            f" ins({', '.join(ins)} : {', '.join(in_types)}) outs({out} : {out_type}) {{\n"
            f"  ^bb0({args}):\n{body}\n  }} -> {out_type}\n")


def test_fusion_lit_input_keeps_results():
    text = _lit(FUSE, "fusion.mlir")
    funcs = ["chain", "broadcast_producer", "transposed_result", "consumer_broadcasts",
             "multi_use", "two_results", "constants", "fill_input", "dedup", "reductions",
             "const_map", "reads_out", "scalars"]
    check_pass_preserves_semantics(text, FUSE, function=funcs)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 8), np.float32), rng.standard_normal((4, 8), np.float32)
    check_pass_preserves_semantics(text, FUSE, function="identity", inputs=[a, b])
    check_pass_preserves_semantics(text, FUSE, function="outs_dep", inputs=[a, b])


DYNAMIC = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dyn(%a: tensor<?x?xf32>, %v: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %0 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %i, %j : index
    %c = arith.index_cast %d : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %v : tensor<?x?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e3 = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e3 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %f : f32
    %t = arith.addf %s, %o : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
"""


def test_fusion_dynamic_shapes_and_index_users():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 3)).astype(np.float32)
    v = rng.standard_normal(5).astype(np.float32)
    check_pass_preserves_semantics(DYNAMIC, FUSE, inputs=[a, v])
    m = _run(_parse(DYNAMIC), FUSE)
    assert _count(m, ("linalg.generic",)) == 1


def _long_chain(n, width=4):
    """A chain of n elementwise ops; op i also reads the argument (broadcast every
    third op, through a transposed map every fifth)."""
    t = f"tensor<{width}x{width}xf32>"
    lines = ["func.func @chain(%a: " + t + ", %v: tensor<" + str(width) + "xf32>) -> " + t +
             " {", f"  %e = tensor.empty() : {t}"]
    prev = "%a"
    for i in range(n):
        if i % 3 == 0:
            other, ot, m = "%v", f"tensor<{width}xf32>", "affine_map<(d0, d1) -> (d1)>"
        elif i % 5 == 0:
            other, ot, m = "%a", t, "affine_map<(d0, d1) -> (d1, d0)>"
        else:
            other, ot, m = "%a", t, _ID2
        op = ("arith.addf", "arith.mulf", "arith.subf")[i % 3]
        body = f"    %s = {op} %b0, %b1 : f32\n    %r = math.tanh %s : f32\n" \
               "    linalg.yield %r : f32"
        lines.append(_generic(f"%v{i}", [prev, other], [t, ot], "%e", t, [_ID2, m, _ID2],
                              ["parallel", "parallel"], body, ["f32", "f32", "f32"]))
        prev = f"%v{i}"
    lines.append(f"  return {prev} : {t}\n}}")
    return "\n".join(lines)


def test_fusion_long_chain_is_one_op():
    text = _long_chain(60)
    check_pass_preserves_semantics(text, FUSE)
    m = _run(_parse(text), FUSE)
    assert _count(m) == 1
    g = next(op for op in m.walk() if op.name == "linalg.generic")
    # Deduplicated inputs: %a (identity and transposed) and %v.
    assert len(g.inputs) == 3
    assert len(list(g.body.ops)) == 2 * 60 + 1


WIDE_CONSUMER = """
#id = affine_map<(d0) -> (d0)>
func.func @wide(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %0 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.mulf %x, %y : f32
    %t = arith.addf %s, %f : f32
    %u = math.sin %t : f32
    %w = arith.mulf %u, %y : f32
    linalg.yield %w : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


def test_fusion_into_larger_consumer():
    """The consumer's block is the larger: the producer's ops move in front of it."""
    check_pass_preserves_semantics(WIDE_CONSUMER, FUSE)
    m = _run(_parse(WIDE_CONSUMER), FUSE)
    g = next(op for op in m.walk() if op.name == "linalg.generic")
    assert [op.name for op in g.body.ops][:3] == ["math.exp", "linalg.index",
                                                  "arith.index_cast"]


def test_fusion_api_with_custom_control():
    """fuse_elementwise_ops with a control function that fuses producers with other
    uses: the producer stays for them and a copy of its payload is fused."""
    from strata.rewrite.greedy import apply_patterns_greedily
    from strata.transforms.linalg.elementwise_fusion import elementwise_fusion_patterns
    text = _lit(FUSE, "fusion.mlir")
    m = _parse(text)
    apply_patterns_greedily(m, elementwise_fusion_patterns(control=lambda op, i: True))
    m.verify()
    f = next(op for op in m.regions[0].blocks[0].ops
             if op.properties["sym_name"].value == "multi_use")
    body = list(f.regions[0].blocks[0].ops)
    assert [op.name for op in body].count("linalg.generic") == 2
    fused = [op for op in body if op.name == "linalg.generic"][1]
    assert [op.name for op in fused.body.ops] == ["math.exp", "arith.negf", "linalg.yield"]
    from strata.interpreter import Interpreter
    a = np.random.default_rng(2).standard_normal((4, 8)).astype(np.float32)
    before = Interpreter(_parse(text)).call("multi_use", a)
    after = Interpreter(m).call("multi_use", a)
    for x, y in zip(before, after):
        np.testing.assert_allclose(x, y, rtol=1e-6)


def test_fusable_predicate():
    from strata.transforms.linalg.elementwise_fusion import are_elementwise_ops_fusable
    m = _parse(_lit(FUSE, "fusion.mlir"))
    funcs = {op.properties["sym_name"].value: op for op in m.regions[0].blocks[0].ops}
    gens = [op for op in funcs["reductions"].walk() if op.name == "linalg.generic"]
    assert not are_elementwise_ops_fusable(gens[1], 0)  # the producer reduces
    gens = [op for op in funcs["chain"].walk() if op.name == "linalg.generic"]
    assert are_elementwise_ops_fusable(gens[1], 0)
    assert not are_elementwise_ops_fusable(gens[1], 1)  # an init, not an input


def test_reshape_propagation_keeps_results():
    text = _lit(FUSE, "reshapes.mlir")
    rng = np.random.default_rng(3)
    static = ["gen_expand", "collapse_gen", "mm_expand", "fill_expand", "collapse_reduce",
              "copy_expand", "transpose_expand", "collapse_transpose", "map_expand",
              "bcast_expand", "two_uses", "transposed_expand", "reduce_dim_collapse",
              "other_user", "reshape_chain", "splat_reshape", "chain_through_reshape"]
    check_pass_preserves_semantics(text, FUSE, function=static)
    a = rng.standard_normal((12, 6)).astype(np.float32)
    check_pass_preserves_semantics(text, FUSE, function="dyn_expand",
                                   inputs=[a, np.int64(3)])
    a = rng.standard_normal((5, 4, 6)).astype(np.float32)
    b = rng.standard_normal((20, 6)).astype(np.float32)
    check_pass_preserves_semantics(text, FUSE, function="dyn_collapse", inputs=[a, b])
    check_pass_preserves_semantics(_lit(FUSE, "index_expansion.mlir"), FUSE)
    check_pass_preserves_semantics(_lit(FUSE, "onnx_models.mlir"), FUSE)


# ------------------------------------------------------------------ unit dims


def test_fold_unit_extent_dims_keeps_results():
    text = _lit(UNIT, "unit_dims.mlir")
    funcs = ["unit", "bcast", "reads_out", "named", "reduce", "mixed", "all_unit", "chain",
             "transposed", "scalar", "fill_reshape"]
    check_pass_preserves_semantics(text, UNIT, function=funcs)
    rng = np.random.default_rng(4)
    check_pass_preserves_semantics(
        text, UNIT, function="fill_folds",
        inputs=[np.float32(1.5), rng.standard_normal((4, 8)).astype(np.float32),
                rng.standard_normal((8, 4)).astype(np.float32), np.int64(2)])
    a = rng.standard_normal((5, 1)).astype(np.float32)
    check_pass_preserves_semantics(text, UNIT, function="dyn", inputs=[a])
    check_pass_preserves_semantics(text, UNIT, function="dyn_empty", inputs=[np.int64(3)])


def test_fold_unit_extent_dims_drops_unit_loops():
    m = _run(_parse(_lit(UNIT, "unit_dims.mlir")), UNIT)
    for op in m.walk():
        if op.name == "linalg.generic":
            for v in op.operands:
                assert 1 not in getattr(v.type, "shape", ()), print_op(op)


# ------------------------------------------------------------------ random graphs


_UNARY = ("math.exp", "math.tanh", "arith.negf", "math.sqrt", "math.absf")
_BINARY = ("arith.addf", "arith.mulf", "arith.subf", "arith.divf")


def _tensor(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def _random_graph(seed):
    """A random ONNX-like graph of R x C tensors: elementwise ops, keepdims row sums
    (fill, reduction, expand_shape to R x 1), broadcast reads of those, splat constants."""
    import random
    r = random.Random(seed)
    rows, cols = r.choice([2, 3, 4]), r.choice([3, 5])
    full, col, vec = _tensor([rows, cols]), _tensor([rows, 1]), _tensor([rows])
    lines, fulls, columns = [f"  %e = tensor.empty() : {full}",
                             f"  %ev = tensor.empty() : {vec}",
                             "  %zero = arith.constant 0.0 : f32"], ["%a"], []
    for i in range(r.choice([4, 7, 10])):
        x = r.choice(fulls)
        if r.random() < 0.2:
            body = "    %s = arith.addf %b1, %b0 : f32\n    linalg.yield %s : f32"
            lines.append(f"  %f{i} = linalg.fill ins(%zero : f32) outs(%ev : {vec}) -> {vec}")
            lines.append(_generic(f"%r{i}", [x], [full], f"%f{i}", vec,
                                  [_ID2, "affine_map<(d0, d1) -> (d0)>"],
                                  ["parallel", "reduction"], body, ["f32", "f32"]))
            lines.append(f"  %x{i} = tensor.expand_shape %r{i} [[0, 1]] output_shape "
                         f"[{rows}, 1] : {vec} into {col}")
            columns.append(f"%x{i}")
            continue
        ins, types, maps = [x], [full], [_ID2]
        if columns and r.random() < 0.5:
            ins.append(r.choice(columns))
            types.append(col)
            maps.append("affine_map<(d0, d1) -> (d0, 0)>")
        elif r.random() < 0.3:
            lines.append(f"  %c{i} = arith.constant dense<{r.choice([0.5, 2.0, -1.0])}> : "
                         f"{full}")
            ins.append(f"%c{i}")
            types.append(full)
            maps.append(_ID2)
        elif r.random() < 0.3:
            ins.append(r.choice(fulls))
            types.append(full)
            maps.append(_ID2)
        body, cur = [], "%b0"
        for j in range(1, len(ins)):
            body.append(f"    %t{j} = {r.choice(_BINARY)} {cur}, %b{j} : f32")
            cur = f"%t{j}"
        if r.random() < 0.6:
            body.append(f"    %u = {r.choice(_UNARY)} {cur} : f32")
            cur = "%u"
        body.append(f"    linalg.yield {cur} : f32")
        lines.append(_generic(f"%g{i}", ins, types, "%e", full, maps + [_ID2],
                              ["parallel", "parallel"], "\n".join(body),
                              ["f32"] * (len(ins) + 1)))
        fulls.append(f"%g{i}")
    return (f"func.func @f(%a: {full}) -> {full} {{\n" + "\n".join(lines) +
            f"\n  return {fulls[-1]} : {full}\n}}\n")


@pytest.mark.parametrize("seed", range(8))
def test_random_graphs_keep_results(seed):
    """(The same graphs, 40 seeds, print byte-identical to iree-opt's output.)"""
    text = _random_graph(seed)
    check_pass_preserves_semantics(text, FUSE, rtol=1e-4, atol=1e-5)
    check_pass_preserves_semantics(text, f"{FUSE},{UNIT}", rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------------ ONNX models

onnx = pytest.importorskip("onnx")


def _onnx_model(nodes, inputs, outputs, inits=()):
    from onnx import helper as h
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(*i) for i in inputs],
                     [h.make_tensor_value_info(*o) for o in outputs],
                     initializer=list(inits))
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def _weights(rng, name, shape):
    from onnx import numpy_helper as nh
    return nh.from_array(rng.standard_normal(shape).astype(np.float32), name)


def _mlp():
    from onnx import TensorProto as T
    from onnx import helper as h
    r = np.random.default_rng(0)
    nodes = [h.make_node("Gemm", ["x", "w1", "b1"], ["h"]), h.make_node("Relu", ["h"], ["r"]),
             h.make_node("Gemm", ["r", "w2", "b2"], ["o"]), h.make_node("Add", ["o", "x"], ["y"])]
    return _onnx_model(nodes, [("x", T.FLOAT, [4, 16])], [("y", T.FLOAT, [4, 16])],
                       [_weights(r, "w1", (16, 32)), _weights(r, "b1", (32,)),
                        _weights(r, "w2", (32, 16)), _weights(r, "b2", (16,))])


def _layernorm():
    from onnx import TensorProto as T
    from onnx import helper as h
    r = np.random.default_rng(1)
    nodes = [h.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1,
                         epsilon=1e-5)]
    return _onnx_model(nodes, [("x", T.FLOAT, [4, 16])], [("y", T.FLOAT, [4, 16])],
                       [_weights(r, "g", (16,)), _weights(r, "b", (16,))])


def _softmax():
    from onnx import TensorProto as T
    from onnx import helper as h
    nodes = [h.make_node("Softmax", ["x"], ["y"], axis=-1)]
    return _onnx_model(nodes, [("x", T.FLOAT, [4, 16])], [("y", T.FLOAT, [4, 16])])


def _gelu():
    """The tanh approximation, one ONNX op per step."""
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    def c(n, v):
        return nh.from_array(np.array(v, np.float32), n)
    nodes = [h.make_node("Mul", ["x", "x"], ["x2"]), h.make_node("Mul", ["x2", "x"], ["x3"]),
             h.make_node("Mul", ["x3", "k"], ["kx3"]), h.make_node("Add", ["x", "kx3"], ["i"]),
             h.make_node("Mul", ["i", "s"], ["si"]), h.make_node("Tanh", ["si"], ["t"]),
             h.make_node("Add", ["t", "one"], ["t1"]), h.make_node("Mul", ["x", "t1"], ["xt"]),
             h.make_node("Mul", ["xt", "half"], ["y"])]
    return _onnx_model(nodes, [("x", T.FLOAT, [4, 16])], [("y", T.FLOAT, [4, 16])],
                       [c("k", 0.044715), c("s", 0.7978845608), c("one", 1.0),
                        c("half", 0.5)])


def _lowered(model):
    from strata.compiler import InterpretTarget, load_module
    return _run(load_module(model), list(InterpretTarget.pipeline))


# model -> (linalg ops after lowering, after fusion) as measured; fusion must keep the
# results and not do worse. (LayerNorm's stable variance, E[(x - E[x])^2], reads the
# mean before the second reduction: one more fused op than E[x^2] - E[x]^2 took. The
# lowering's canonicalization erases LayerNorm's two identity copies, as upstream's
# EraseIdentityLinalgOp does.)
MODELS = {"mlp": (_mlp, 8, 6), "layernorm": (_layernorm, 7, 6),
          "softmax": (_softmax, 7, 6), "gelu": (_gelu, 9, 1)}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_fusion_on_lowered_onnx_models(name):
    make, n_before, n_after = MODELS[name]
    m = _lowered(make())
    assert _count(m) == n_before
    text = print_op(m)
    check_pass_preserves_semantics(text, FUSE)
    check_pass_preserves_semantics(text, f"{GENERALIZE},{FUSE}")
    check_pass_preserves_semantics(text, f"{FUSE},{UNIT}")
    fused = _run(_parse(text), FUSE)
    assert _count(fused) <= n_after


# ---------------------------------------------------------- strata-linalg-depthwise-channels-last

_CHANNELS_LAST = """
func.func @tokens(%x: tensor<1x48x16xf32>, %w: tensor<16x3x3xf32>, %bias: tensor<16xf32>) -> tensor<1x48x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x48xf32>
  %t = linalg.transpose ins(%x : tensor<1x48x16xf32>) outs(%e : tensor<1x16x48xf32>) permutation = [0, 2, 1]
  %v = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [1, 16, 6, 8] : tensor<1x16x48xf32> into tensor<1x16x6x8xf32>
  %p = tensor.pad %v low[0, 0, 1, 2] high[0, 0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x16x6x8xf32> to tensor<1x16x8x10xf32>
  %e1 = tensor.empty() : tensor<1x16x6x8xf32>
  %i = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%e1 : tensor<1x16x6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x6x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x16x8x10xf32>, tensor<16x3x3xf32>) outs(%i : tensor<1x16x6x8xf32>) -> tensor<1x16x6x8xf32>
  %f = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<1x16x6x8xf32> into tensor<1x16x48xf32>
  %e2 = tensor.empty() : tensor<1x48x16xf32>
  %t2 = linalg.transpose ins(%f : tensor<1x16x48xf32>) outs(%e2 : tensor<1x48x16xf32>) permutation = [0, 2, 1]
  return %t2 : tensor<1x48x16xf32>
}

func.func @image(%x: tensor<1x9x11x16xf32>, %w: tensor<16x3x3xf32>) -> tensor<1x16x4x3xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x9x11xf32>
  %t = linalg.transpose ins(%x : tensor<1x9x11x16xf32>) outs(%e : tensor<1x16x9x11xf32>) permutation = [0, 3, 1, 2]
  %e1 = tensor.empty() : tensor<1x16x4x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e1 : tensor<1x16x4x3xf32>) -> tensor<1x16x4x3xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} ins(%t, %w : tensor<1x16x9x11xf32>, tensor<16x3x3xf32>) outs(%z : tensor<1x16x4x3xf32>) -> tensor<1x16x4x3xf32>
  return %c : tensor<1x16x4x3xf32>
}
"""


def test_depthwise_channels_last_preserves_semantics():
    """Token-major image with an uneven padding and a bias init; an NHWC image with
    strides and dilations whose NCHW result is returned."""
    results = check_pass_preserves_semantics(_CHANNELS_LAST,
                                             "strata-linalg-depthwise-channels-last")
    assert set(results) == {"tokens", "image"}
    m = _run(_parse(_CHANNELS_LAST), "strata-linalg-depthwise-channels-last")
    assert _count(m, {"linalg.depthwise_conv_2d_nhwc_hwc"}) == 2
    assert _count(m, {"linalg.depthwise_conv_2d_nchw_chw"}) == 0
    # the filters' transposes and @image's result (returned as NCHW)
    assert _count(m, {"linalg.transpose"}) == 3
