"""Parallel loop nests: convert-linalg-to-parallel-loops, convert-scf-to-strata-cpu
(strata_cpu.parallel_for of outlined chunk functions) checked by the interpreter before
and after, and compiled to native code run by the thread pool (1 and 3 threads) against
the interpreter; the cpu target's num_threads option."""
from __future__ import annotations

import numpy as np
import pytest

from strata.testing import check_pass_preserves_semantics

_PIPELINE = ("convert-linalg-to-parallel-loops{interchange-for-locality=true},"
             "strata-outline-loop-nests,convert-scf-to-strata-cpu{min-chunk-work=64}")

# linalg on buffers: elementwise with a dynamic batch, a reduction over the last dim, a
# matmul (reduction between parallel loops), and a write to an output that a parallel
# dim does not index (stays sequential: the last write wins).
_LINALG = """
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#last = affine_map<(d0, d1) -> (d1)>
func.func @ew(%a: memref<?x6x40xf32>) -> memref<?x6x40xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x6x40xf32>
  %b = memref.alloc(%n) : memref<?x6x40xf32>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : memref<?x6x40xf32>) outs(%b : memref<?x6x40xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return %b : memref<?x6x40xf32>
}
func.func @rowsum(%a: memref<3x10x50xf32>) -> memref<3x10xf32> {
  %z = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<3x10xf32>
  linalg.fill ins(%z : f32) outs(%s : memref<3x10xf32>)
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : memref<3x10x50xf32>) outs(%s : memref<3x10xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %acc, %x : f32
    linalg.yield %r : f32
  }
  return %s : memref<3x10xf32>
}
func.func @mm(%a: memref<20x30xf32>, %b: memref<30x24xf32>) -> memref<20x24xf32> {
  %z = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<20x24xf32>
  linalg.fill ins(%z : f32) outs(%c : memref<20x24xf32>)
  linalg.matmul ins(%a, %b : memref<20x30xf32>, memref<30x24xf32>) outs(%c : memref<20x24xf32>)
  return %c : memref<20x24xf32>
}
func.func @last_row(%a: memref<16x64xf32>) -> memref<64xf32> {
  %o = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id2, #last], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x64xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return %o : memref<64xf32>
}
"""


def _parse(text):
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    return parse_source(text, default_context(), "<test>")


def test_pass_preserves_semantics():
    check_pass_preserves_semantics(_LINALG, _PIPELINE, inputs={
        "ew": [np.random.default_rng(0).standard_normal((2, 6, 40), np.float32)]})


def test_what_is_parallel():
    from strata.compiler import build_pipeline
    from strata.syntax.printer import print_op
    m = _parse(_LINALG)
    build_pipeline(_PIPELINE).run(m)
    text = print_op(m)
    for f in ("ew", "rowsum", "mm"):
        assert f"strata_cpu.parallel_for @{f}__nest" in text, f
    # the write a parallel dimension does not index stays a loop of its own
    last = text[text.index("func.func private @last_row__nest"):]
    assert "scf.parallel" in last.split("return")[0]
    assert "parallel_for @last_row" not in text


@pytest.fixture(scope="module")
def llvmlite():
    return pytest.importorskip("llvmlite")


_TENSOR = """
func.func @main(%x: tensor<?x64x96xf32>, %w: tensor<96x80xf32>) -> (tensor<?x64x80xf32>, tensor<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64x96xf32>
  %e0 = tensor.empty(%n) : tensor<?x64x96xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x64x96xf32>) outs(%e0 : tensor<?x64x96xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.tanh %v : f32
    linalg.yield %s : f32
  } -> tensor<?x64x96xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty(%n) : tensor<?x64x80xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x64x80xf32>) -> tensor<?x64x80xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c, k) -> (a, b, k)>, affine_map<(a, b, c, k) -> (k, c)>, affine_map<(a, b, c, k) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%t, %w : tensor<?x64x96xf32>, tensor<96x80xf32>) outs(%f1 : tensor<?x64x80xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<?x64x80xf32>
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t : tensor<?x64x96xf32>) outs(%f2 : tensor<?x64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %q = arith.maximumf %acc, %v : f32
    linalg.yield %q : f32
  } -> tensor<?x64xf32>
  return %y, %r : tensor<?x64x80xf32>, tensor<?x64xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_native_matches_interpreter(llvmlite, threads):
    import strata
    x = np.random.default_rng(1).standard_normal((3, 64, 96), np.float32)
    w = np.random.default_rng(2).standard_normal((96, 80), np.float32)
    ref = strata.compile(_parse(_TENSOR), target="interpret")(x, w)
    f = strata.compile(_parse(_TENSOR), num_threads=threads)
    assert f.num_threads == threads
    for _ in range(3):
        got = f(x, w)
        for g, r in zip(got, ref):
            np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-4)


def test_num_threads_option(llvmlite):
    import strata
    from strata.backends.cpu.kernels import default_threads
    f = strata.compile(_parse(_TENSOR))
    assert f.num_threads == default_threads()
    f.num_threads = 2
    assert f.num_threads == 2
    f.num_threads = 0
    assert f.num_threads == default_threads()
    serial = strata.compile(_parse(_TENSOR), parallel=False)
    x = np.ones((1, 64, 96), np.float32)
    w = np.ones((96, 80), np.float32)
    for a, b in zip(f(x, w), serial(x, w)):
        np.testing.assert_allclose(a, b, rtol=1e-5)
    with pytest.raises(strata.StrataError, match="no option 'threads'"):
        strata.compile(_parse(_TENSOR), threads=2)
    with pytest.raises(strata.StrataError, match="runs on one thread"):
        strata.compile(_parse(_TENSOR), target="interpret").num_threads = 2
