"""convert-linalg-to-loops / convert-linalg-to-parallel-loops: the functions compute the
same before and after (the interpreter runs linalg on buffers and the loops), the loop
order of interchange-for-locality, and errors. The printed forms are checked against
upstream in tests/lit/conversion/linalg-to-loops."""
import numpy as np
import pytest

from strata.conversion.linalg_to_loops import (LinalgToLoopsPattern, locality_loop_order,
                                               lower_linalg_to_loops)
from strata.dialects import default_context
from strata.interpreter.core import registered_ops
from strata.ir.diagnostics import DiagnosticError
from strata.passes.registry import get_pass_class
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

needs_memref_interpreter = pytest.mark.skipif(
    "memref.load" not in registered_ops(), reason="the interpreter does not run memref yet")

LOOPS, PARALLEL = "convert-linalg-to-loops", "convert-linalg-to-parallel-loops"
LOCALITY = "convert-linalg-to-loops{interchange-for-locality=true}"


def _parse(text):
    return parse_source(text, default_context(), "<test>")


def _names(m):
    return [o.name for o in m.walk()]


def _check_all(text, inputs=None, pipelines=(LOOPS, PARALLEL, LOCALITY), **kw):
    for p in pipelines:
        check_pass_preserves_semantics(text, f"{p},convert-scf-to-cf", inputs=inputs, **kw)
        m = _parse(text)
        lower_linalg_to_loops(m, parallel=p == PARALLEL,
                              interchange_for_locality=p == LOCALITY)
        m.verify()
        assert not [n for n in _names(m) if n.startswith("linalg.")], p


def _fn(name, args, result, body):
    """A function on buffer arguments that returns a fresh buffer `%out` it fills."""
    return (f"func.func @{name}({args}) -> {result} {{\n"
            f"  %out = memref.alloc() : {result}\n{body}\n  return %out : {result}\n}}\n")


MATMUL = _fn("matmul", "%a: memref<3x5xf32>, %b: memref<5x4xf32>", "memref<3x4xf32>", """
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<3x4xf32>)
  linalg.matmul ins(%a, %b : memref<3x5xf32>, memref<5x4xf32>) outs(%out : memref<3x4xf32>)""")

CONV = _fn("conv", "%i: memref<1x2x5x5xf32>, %f: memref<2x2x3x3xf32>", "memref<1x2x2x2xf32>", """
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<1x2x2x2xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %f : memref<1x2x5x5xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x2x2xf32>)""")

POOL = _fn("pool", "%i: memref<1x6x6x3xf32>, %k: memref<3x3xf32>", "memref<1x2x2x3xf32>", """
  %z = arith.constant -1.0e30 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<1x2x2x3xf32>)
  linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : memref<1x6x6x3xf32>, memref<3x3xf32>) outs(%out : memref<1x2x2x3xf32>)""")

GENERIC = _fn("gen", "%a: memref<4x6xf32>, %b: memref<6xf32>", "memref<4xf32>", """
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<4x6xf32>, memref<6xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %k = arith.index_cast %ij : index to i32
    %kf = arith.sitofp %k : i32 to f32
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %p, %kf : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }""")

RELAYOUT = _fn("relayout", "%a: memref<2x3x4xf32>", "memref<3x4x2xf32>", """
  %t = memref.alloc() : memref<4x2x3xf32>
  linalg.transpose ins(%a : memref<2x3x4xf32>) outs(%t : memref<4x2x3xf32>) permutation = [2, 0, 1]
  %s = memref.alloc() : memref<4xf32>
  linalg.reduce ins(%t : memref<4x2x3xf32>) outs(%s : memref<4xf32>) dimensions = [1, 2]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  linalg.broadcast ins(%s : memref<4xf32>) outs(%out : memref<3x4x2xf32>) dimensions = [0, 2]
  linalg.map ins(%out : memref<3x4x2xf32>) outs(%out : memref<3x4x2xf32>)
    (%x: f32, %o: f32) {
      %r = arith.negf %x : f32
      linalg.yield %r : f32
    }""")


@needs_memref_interpreter
@pytest.mark.parametrize("text", [MATMUL, CONV, POOL, GENERIC],
                         ids=["matmul", "conv_2d_nchw_fchw", "pooling", "generic_index"])
def test_preserves_semantics(text):
    _check_all(text)


DYNAMIC = """
func.func @dyn(%a: memref<?x?xf32>, %b: memref<?xf32>) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %out = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %out : memref<?x?xf32>
}
"""


@needs_memref_interpreter
def test_dynamic_shapes_and_broadcasting_maps():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 5)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    _check_all(DYNAMIC, inputs=[a, b])


ZERO_D = _fn("zero_d", "%a: memref<f32>, %b: memref<f32>", "memref<f32>", """
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : memref<f32>, memref<f32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  }""")


@needs_memref_interpreter
def test_zero_d():
    _check_all(ZERO_D)


SOFTMAX_PACK = """
func.func @softmax(%a: memref<2x?x5xf32>) -> memref<2x?x5xf32> {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c1 : memref<2x?x5xf32>
  %out = memref.alloc(%n) : memref<2x?x5xf32>
  linalg.softmax dimension(1) ins(%a : memref<2x?x5xf32>) outs(%out : memref<2x?x5xf32>)
  return %out : memref<2x?x5xf32>
}
func.func @pack(%a: memref<5x7xf32>, %p: f32) -> memref<5x7xf32> {
  %packed = memref.alloc() : memref<3x2x3x4xf32>
  linalg.pack %a padding_value(%p : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 4] into %packed : memref<5x7xf32> -> memref<3x2x3x4xf32>
  %out = memref.alloc() : memref<5x7xf32>
  linalg.unpack %packed outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 4] into %out : memref<3x2x3x4xf32> -> memref<5x7xf32>
  return %out : memref<5x7xf32>
}
"""


@needs_memref_interpreter
def test_softmax_pack_unpack():
    _check_all(SOFTMAX_PACK, pipelines=(LOOPS,))


@needs_memref_interpreter
def test_transpose_reduce_broadcast_map():
    _check_all(RELAYOUT)


# ---------------------------------------------------------------------- structure


def _op(text, name):
    m = _parse(text)
    return m, next(o for o in m.walk() if o.name == name)


def test_locality_order():
    assert locality_loop_order(_op(MATMUL, "linalg.matmul")[1]) == [0, 2, 1]
    # conv nchw: ow (loop 3) innermost, after the reduction loops c, kh, kw
    assert locality_loop_order(_op(CONV, "linalg.conv_2d_nchw_fchw")[1]) == \
        [0, 1, 2, 4, 5, 6, 3]
    # a row reduction keeps its order (the output's dim is strided in the input)
    assert locality_loop_order(_op(GENERIC, "linalg.generic")[1]) == [0, 1]
    # nhwc pooling: the channel loop goes inside the window loops
    assert locality_loop_order(_op(POOL, "linalg.pooling_nhwc_max")[1]) == \
        [0, 1, 2, 4, 5, 3]


def test_tensor_ops_are_left_alone():
    text = """
func.func @t(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    m = _parse(text)
    lower_linalg_to_loops(m)
    assert "linalg.copy" in _names(m)


def test_parallel_loops_nest():
    m = _parse(MATMUL)
    lower_linalg_to_loops(m, parallel=True)
    names = _names(m)
    # fill: one scf.parallel; matmul: scf.parallel (i, j) around an scf.for (k)
    assert names.count("scf.parallel") == 2 and names.count("scf.for") == 1


def test_registered_with_option():
    cls = get_pass_class(LOOPS)
    assert cls is not None and cls.from_options_text(
        "interchange-for-locality=true").interchange_for_locality is True
    assert get_pass_class(PARALLEL) is not None
    assert LinalgToLoopsPattern().root is None


def test_many_ops_lower_quickly():
    # 200 matmuls: each lowered once, constants uniqued at the top of the function.
    body = "\n".join(f"  linalg.matmul ins(%a, %b : memref<3x5xf32>, memref<5x4xf32>) "
                     f"outs(%c : memref<3x4xf32>)" for _ in range(200))
    text = (f"func.func @f(%a: memref<3x5xf32>, %b: memref<5x4xf32>, %c: memref<3x4xf32>) "
            f"{{\n{body}\n  return\n}}\n")
    m = _parse(text)
    lower_linalg_to_loops(m)
    names = _names(m)
    assert names.count("scf.for") == 600 and names.count("arith.constant") == 5
