"""Symbolic dims of onnx-shape-inference (symbols.py): monomial arithmetic, comparisons
of sizes, the names written in the IR, and what the lowering reads back
(onnx_to_linalg.common.dim_symbols)."""
from __future__ import annotations

import pytest

from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.transforms.onnx_shape_inference import OnnxShapeInference
from strata.transforms.onnx_shape_inference import symbols as S
from strata.transforms.onnx_shape_inference.core import broadcast_dim, merge_dims

n, b = S.atom("n"), S.atom("batch")


def test_products_and_exact_quotients():
    nb = S.mul(n, b)
    assert S.mul(b, n) == nb and S.text(nb) == "batch*n"
    assert S.product([b, 128, 384]) == S.mul(S.mul(128, b), 384)
    # Reshape's -1: batch*128*384 / (batch*128*32) is 12, a number
    assert S.div(S.product([b, 128, 384]), S.product([b, 128, 32])) == 12
    assert S.div(S.mul(128, b), 128) == b
    assert S.div(S.mul(n, n), n) == n and S.text(S.mul(n, n)) == "n^2"
    for inexact in [(b, 2), (S.mul(3, b), 2), (b, n), (128, b), (b, 0), (b, -1), (b, None)]:
        assert S.div(*inexact) is None
    assert S.mul(b, 0) == 0 and S.mul(b, -2) is None and S.mul(b, 1.5) is None
    assert S.mul(2, 3) == 6 and S.mul(None, b) is None


def test_sums_only_where_a_monomial_says_it():
    assert S.add(b, 0) == b and S.add(0, b) == b and S.add(2, 3) == 5
    assert S.add(b, 1) is None and S.add(b, b) is None
    assert S.sub(b, b) == 0 and S.sub(b, 0) == b and S.sub(b, n) is None


@pytest.mark.parametrize("pred,rhs,want", [
    ("eq", -1, False), ("ne", -1, True), ("eq", 0, None), ("eq", 5, None),
    ("lt", 0, False), ("lt", 1, None), ("le", -1, False), ("le", 0, None),
    ("gt", -1, True), ("gt", 0, None), ("ge", 0, True), ("ge", 1, None)])
def test_a_size_is_never_negative(pred, rhs, want):
    assert S.compare(pred, b, rhs) is want


def test_comparisons_of_symbols():
    assert S.compare("eq", b, b) is True and S.compare("lt", b, b) is False
    assert S.compare("eq", b, n) is None
    assert S.compare("gt", 0, b) is False       # 0 > batch: never (flipped)
    assert S.compare("le", -3, b) is True
    assert S.compare("lt", 2, 3) is True


def test_broadcasting_and_merging_dims():
    assert broadcast_dim(b, b) == b and broadcast_dim(b, 1) == b and broadcast_dim(1, b) == b
    assert broadcast_dim(b, 4) == 4 and broadcast_dim(4, b) == 4
    assert broadcast_dim(b, n) is None and broadcast_dim(None, b) is None
    assert merge_dims((b, None, n), (4, b, n)) == (4, b, n)


def test_a_slice_bounded_by_a_size_broadcasts_to_it():
    seq = S.atom("seq")
    clamped = S.atom("?1", bound=(seq, 512))    # min(seq, 512)
    assert broadcast_dim(clamped, seq) == seq and broadcast_dim(seq, clamped) == seq
    assert merge_dims((clamped,), (seq,)) == (seq,)
    assert broadcast_dim(clamped, b) is None and broadcast_dim(clamped, 4) == 4
    # min(seq, 1) is 1 (or 0): it stretches, and says nothing of seq
    assert broadcast_dim(S.atom("?2", bound=(seq, 1)), seq) is None


def test_names_in_the_ir():
    assert S.text(S.atom("batch_size")) == "batch_size"
    assert S.text(S.atom("?3")) == "?3"
    assert S.text(S.mul(2, S.atom("seq-len"))) == "2*seq-len"
    # a name that reads as a product (or is not an identifier) is quoted
    assert S.text(S.atom("2*n")) == '"2*n"'
    assert S.text(S.atom('a "b"')) == '"a \\"b\\""'
    assert S.fresh_numbers_in("2*?3*?12") == [3, 12]


def _infer(src):
    m = parse_source(src, default_context())
    OnnxShapeInference().run(m)
    return m


def test_lowering_reads_the_names_back():
    from strata.conversion.onnx_to_linalg.common import dim_symbols
    m = _infer('''
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @f(%x: tensor<?x6xf32> {onnx.dim_params = ["n", ""]}, %y: tensor<?xf32>
             {onnx.dim_params = ["a b"]}) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = "onnx.Constant"() <{value = dense<[2, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %a, %c = "onnx.Split"(%x, %s) <{axis = 1 : i64}>
      : (tensor<?x6xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %t = "onnx.Flatten"(%x) <{axis = 2 : i64}> : (tensor<?x6xf32>) -> tensor<*xf32>
  return %a, %t : tensor<*xf32>, tensor<*xf32>
}
}''')
    fn = next(op for op in m.walk() if op.name == "func.func")
    split = next(op for op in m.walk() if op.name == "onnx.Split")
    flat = next(op for op in m.walk() if op.name == "onnx.Flatten")
    x, y = fn.regions[0].blocks[0].args
    assert dim_symbols(x) == ["n", None]
    assert dim_symbols(y) is None          # not written as is by shape inference
    assert dim_symbols(split.results[0]) == dim_symbols(split.results[1]) == ["n", None]
    assert dim_symbols(flat.results[0]) == ["6*n", None]


def test_fresh_names_of_a_detached_region_avoid_the_names_around_it():
    """A body copied out of its function (SequenceMap's lowering infers such copies):
    values it uses from outside keep their names, fresh ones avoid them."""
    m = _infer('''
module attributes {onnx.opset_import = {ai.onnx = 18 : i64}} {
func.func @f(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a = "onnx.Relu"(%x) : (tensor<?xf32>) -> tensor<*xf32>
  %b = "onnx.Neg"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  %c = "onnx.Relu"(%y) : (tensor<?xf32>) -> tensor<*xf32>
  %d = "onnx.Neg"(%c) : (tensor<*xf32>) -> tensor<*xf32>
  return %b, %d : tensor<*xf32>, tensor<*xf32>
}
}''')
    from strata.dialects.scf import ExecuteRegionOp
    from strata.ir import attributes as A
    from strata.ir.core import Block
    relu = [op for op in m.walk() if op.name == "onnx.Relu"]
    neg = [op for op in m.walk() if op.name == "onnx.Neg"]
    assert [op.attributes["onnx.dim_params"].value[0].value for op in relu] == ["?1", "?2"]
    # the copy: both Negs (their operands from the function) and a Relu of a new value
    holder = ExecuteRegionOp.build(result_types=[])
    holder.attributes["onnx.opset_import"] = m.attributes["onnx.opset_import"]
    block = holder.regions[0].add_block(Block([A.RankedTensorType([A.DYNAMIC], A.f32)]))
    for op in neg:
        block.append(op.clone({}))
    block.append(relu[0].clone({relu[0].operand(0): block.args[0]}))
    OnnxShapeInference().run(holder)
    names = [op.attributes["onnx.dim_params"].value[0].value for op in block.ops]
    assert names == ["?1", "?2", "?3"]
