"""strata-linalg-collapse-dims: each case runs in the interpreter before and after the pass
(functions return their buffers, so every value written is compared; ops on tensors
too); the plan merges
exactly the loops [Note: when two loops merge] allows; the CPU pipeline runs the pass
after the kernels' matching and before the loops."""
from __future__ import annotations

import pytest

from strata.testing import check_pass_preserves_semantics

_PASS = "strata-linalg-collapse-dims"

_BIAS = """
func.func @f(%x: memref<1x8x7x7xf32>, %b: memref<8x1x1xf32>) -> memref<1x8x7x7xf32> {
  %y = memref.alloc() : memref<1x8x7x7xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : memref<1x8x7x7xf32>, memref<8x1x1xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    %c0 = arith.constant 0.0 : f32
    %1 = arith.maximumf %0, %c0 : f32
    linalg.yield %1 : f32
  }
  return %y : memref<1x8x7x7xf32>
}
"""

# Written into the interior of a padded buffer (rows not contiguous), and into a slice of
# whole channels (contiguous): the whole buffer is returned.
_VIEWS = """
func.func @f(%x: memref<4x5x6xf32>) -> (memref<4x7x8xf32>, memref<8x5x6xf32>) {
  %z = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<4x7x8xf32>
  linalg.fill ins(%z : f32) outs(%p : memref<4x7x8xf32>)
  %s = memref.subview %p[0, 1, 1] [4, 5, 6] [1, 1, 1]
      : memref<4x7x8xf32> to memref<4x5x6xf32, strided<[56, 8, 1], offset: 9>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<4x5x6xf32>) outs(%s : memref<4x5x6xf32, strided<[56, 8, 1], offset: 9>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %q = memref.alloc() : memref<8x5x6xf32>
  linalg.fill ins(%z : f32) outs(%q : memref<8x5x6xf32>)
  %t = memref.subview %q[2, 0, 0] [4, 5, 6] [1, 1, 1]
      : memref<8x5x6xf32> to memref<4x5x6xf32, strided<[30, 6, 1], offset: 60>>
  linalg.copy ins(%x : memref<4x5x6xf32>) outs(%t : memref<4x5x6xf32, strided<[30, 6, 1], offset: 60>>)
  return %p, %q : memref<4x7x8xf32>, memref<8x5x6xf32>
}
"""

_TRANSPOSE_AND_BROADCAST = """
func.func @f(%x: memref<3x4x5xf32>, %c: memref<3xf32>, %r: memref<5xf32>)
    -> (memref<3x5x4xf32>, memref<3x4x5xf32>) {
  %t = memref.alloc() : memref<3x5x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<3x4x5xf32>) outs(%t : memref<3x5x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %y = memref.alloc() : memref<3x4x5xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0)>,
                                   affine_map<(d0, d1, d2) -> (d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %c, %r : memref<3x4x5xf32>, memref<3xf32>, memref<5xf32>)
      outs(%y : memref<3x4x5xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %in, %a : f32
    %1 = arith.addf %0, %b : f32
    linalg.yield %1 : f32
  }
  return %t, %y : memref<3x5x4xf32>, memref<3x4x5xf32>
}
"""

_DYNAMIC = """
func.func @f(%x: memref<?x?x3xf32>) -> memref<?x?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?x3xf32>
  %m = memref.dim %x, %c1 : memref<?x?x3xf32>
  %y = memref.alloc(%n, %m) : memref<?x?x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x?x3xf32>) outs(%y : memref<?x?x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  return %y : memref<?x?x3xf32>
}
"""

_REDUCTION_AND_INDEX = """
func.func @f(%x: memref<1x6x4x5xf32>) -> (memref<6xf32>, memref<1x6x20xf32>) {
  %z = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<6xf32>
  linalg.fill ins(%z : f32) outs(%s : memref<6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d1)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<1x6x4x5xf32>) outs(%s : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  %y = memref.alloc() : memref<1x6x20xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%y : memref<1x6x20xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %j, %c7 : index
    %b = arith.addi %a, %k : index
    %c = arith.addi %b, %i : index
    %d = arith.index_cast %c : index to i32
    %e = arith.sitofp %d : i32 to f32
    linalg.yield %e : f32
  }
  return %s, %y : memref<6xf32>, memref<1x6x20xf32>
}
"""

_POOL = """
func.func @f(%x: memref<2x3x6x6xf32>) -> memref<2x3x4x4xf32> {
  %w = memref.alloc() : memref<3x3xf32>
  %lo = arith.constant -1.0e30 : f32
  %y = memref.alloc() : memref<2x3x4x4xf32>
  linalg.fill ins(%lo : f32) outs(%y : memref<2x3x4x4xf32>)
  linalg.pooling_nchw_max ins(%x, %w : memref<2x3x6x6xf32>, memref<3x3xf32>)
      outs(%y : memref<2x3x4x4xf32>)
  return %y : memref<2x3x4x4xf32>
}
"""

_NHWC = """
func.func @f(%x: memref<1x5x3x4xf32>) -> memref<1x3x4x5xf32> {
  %y = memref.alloc() : memref<1x3x4x5xf32>
  linalg.transpose ins(%x : memref<1x5x3x4xf32>) outs(%y : memref<1x3x4x5xf32>)
      permutation = [0, 2, 3, 1]
  return %y : memref<1x3x4x5xf32>
}
"""

_TENSORS = """
func.func @f(%a: tensor<1x?x3x4xf32>, %b: tensor<?x1x1xf32>, %s: tensor<2x5x6xf32>)
    -> (tensor<1x?x3x4xf32>, tensor<2xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x?x3x4xf32>, tensor<?x1x1xf32>) outs(%a : tensor<1x?x3x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x?x3x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%s : tensor<2x5x6xf32>) outs(%i : tensor<2xf32>) dimensions = [1, 2]
    (%in: f32, %init: f32) {
      %1 = arith.addf %in, %init : f32
      linalg.yield %1 : f32
    }
  return %0, %r : tensor<1x?x3x4xf32>, tensor<2xf32>
}
"""

# ONNX's maxpool_2d_ceil_output_size_reduce_by_one: a 1x1 window at stride 2, every loop
# of trip count one; the window loop must not become a 2-iteration loop over the image.
_UNIT_WINDOW = """
func.func @f(%x: memref<1x1x2x2xf32>) -> memref<1x1x1x1xf32> {
  %lo = arith.constant -1.0e30 : f32
  %w = memref.alloc() : memref<1x1xf32>
  %y = memref.alloc() : memref<1x1x1x1xf32>
  linalg.fill ins(%lo : f32) outs(%y : memref<1x1x1x1xf32>)
  linalg.generic {indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>,
      affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>,
      affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction",
                        "reduction"]}
      ins(%x, %w : memref<1x1x2x2xf32>, memref<1x1xf32>) outs(%y : memref<1x1x1x1xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  }
  return %y : memref<1x1x1x1xf32>
}
"""

_CASES = {"nhwc": _NHWC, "unit_window": _UNIT_WINDOW, "tensors": _TENSORS, "bias": _BIAS, "views": _VIEWS, "transpose_and_broadcast": _TRANSPOSE_AND_BROADCAST,
          "dynamic": _DYNAMIC, "reduction_and_index": _REDUCTION_AND_INDEX, "pool": _POOL}


def _parse(text):
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    return parse_source(text, default_context(), "<test>")


def _loops_after(text):
    """Loop counts of the linalg ops of @f after the pass (program order)."""
    from strata.compiler import build_pipeline
    from strata.dialects.linalg.structured import StructuredOp
    m = _parse(text)
    build_pipeline(_PASS).run(m)
    m.verify()
    return [o.num_loops for o in m.walk() if isinstance(o, StructuredOp)]


@pytest.mark.parametrize("case", sorted(_CASES))
def test_values_kept(case):
    check_pass_preserves_semantics(_CASES[case], _PASS, rtol=1e-6, atol=1e-6)


def test_dynamic_values_kept_at_other_sizes():
    import numpy as np
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 2, 3)).astype(np.float32)
    check_pass_preserves_semantics(_DYNAMIC, _PASS, inputs=[x])
    a = rng.standard_normal((1, 6, 3, 4)).astype(np.float32)
    b = rng.standard_normal((6, 1, 1)).astype(np.float32)
    s = rng.standard_normal((2, 5, 6)).astype(np.float32)
    check_pass_preserves_semantics(_TENSORS, _PASS, inputs=[a, b, s])


def test_what_merges():
    # bias: unit batch dropped, H and W merged
    assert _loops_after(_BIAS) == [2]
    # padded interior: 3 loops; fill of the padded buffer: 1; slice of whole channels
    # (fill, copy): 1 each
    assert _loops_after(_VIEWS) == [1, 3, 1, 1]
    # transpose: nothing; d0 broadcast and d2 broadcast: nothing merges
    assert _loops_after(_TRANSPOSE_AND_BROADCAST) == [3, 3]
    assert _loops_after(_DYNAMIC) == [1]
    # fill 1; sum over H, W: (C, H*W); indexed loops stay apart, the unit one dropped
    assert _loops_after(_REDUCTION_AND_INDEX) == [1, 2, 2]
    # tensors: (C, H*W); the fill of a rank-1 init stays; the reduction (2, 30)
    assert _loops_after(_TENSORS) == [2, 1, 2]
    # NCHW -> NHWC: (H*W, C)
    assert _loops_after(_NHWC) == [2]
    # pooling: batch and channel merge, windows stay
    assert _loops_after(_POOL) == [1, 5]


def test_cpu_pipeline_order():
    """After the kernels' matching, the copy rewrite (whose copies it collapses) and
    every pass that matches linalg ops by name or shape (outlining compares the ops'
    text), just before the loops."""
    from strata.backends.cpu.target import LLVM_PIPELINE
    names = [p.split("{")[0] for p in LLVM_PIPELINE]
    i = names.index(_PASS)
    assert names.index("strata-memref-copy-to-linalg") < i
    assert names.index("strata-linalg-fuse-row-reductions") < i
    assert names.index("strata-outline-linalg-ops") < i
    assert names[i + 1] == "convert-linalg-to-parallel-loops"
