"""strata-linalg-block-transposes ([Note: blocked transposes]): transposes on buffers
copied in T x T blocks. The pass alone under the interpreter (memref level, every tile
size and rank), and whole CPU compiles of transposes big enough for the pipeline to
block them, at 1 and 2 threads, against NumPy (exact: a copy)."""
from __future__ import annotations

import numpy as np
import pytest

import strata
from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

CASES = [((64, 48), (1, 0)), ((2, 32, 40, 16), (0, 3, 1, 2)), ((3, 16, 24, 8), (0, 2, 3, 1)),
         ((16, 4, 128), (2, 1, 0)), ((2, 8, 3, 16, 32), (0, 4, 2, 1, 3)),
         ((2, 32, 3, 48), (3, 2, 0, 1))]


def _ty(kind, shape):
    return f"{kind}<" + "x".join(map(str, shape)) + "xf32>"


def _text(kind, shape, perm):
    out = [shape[p] for p in perm]
    if kind == "memref":
        return f"""func.func @main(%x: {_ty(kind, shape)}, %y: {_ty(kind, out)}) {{
  linalg.transpose ins(%x : {_ty(kind, shape)}) outs(%y : {_ty(kind, out)}) permutation = {list(perm)}
  return
}}"""
    return f"""func.func @main(%x: {_ty(kind, shape)}) -> {_ty(kind, out)} {{
  %e = tensor.empty() : {_ty(kind, out)}
  %t = linalg.transpose ins(%x : {_ty(kind, shape)}) outs(%e : {_ty(kind, out)}) permutation = {list(perm)}
  return %t : {_ty(kind, out)}
}}"""


@pytest.mark.parametrize("shape,perm", CASES)
def test_pass_preserves_semantics(shape, perm):
    from strata.transforms.block_transposes import block_transposes
    text = _text("memref", shape, perm)
    m = parse_source(text, default_context(), "<t>")
    assert block_transposes(m, min_elements=1) == 1
    assert "linalg.generic" in str(m) and "memref.expand_shape" in str(m)
    check_pass_preserves_semantics(text, "strata-linalg-block-transposes{min-elements=1}")


def test_left_alone():
    """The innermost dim kept in place, sizes no tile divides, a strided buffer."""
    from strata.transforms.block_transposes import block_transposes
    for text in (_text("memref", (8, 16, 32), (1, 0, 2)), _text("memref", (20, 36), (1, 0)),
                 """func.func @main(%x: memref<32x32xf32, strided<[64, 1]>>, %y: memref<32x32xf32>) {
  linalg.transpose ins(%x : memref<32x32xf32, strided<[64, 1]>>) outs(%y : memref<32x32xf32>) permutation = [1, 0]
  return
}"""):
        assert block_transposes(parse_source(text, default_context(), "<t>"), 1) == 0


@pytest.mark.parametrize("shape,perm", [((2, 32, 40, 16), (0, 3, 1, 2)),
                                        ((1, 64, 32, 48), (0, 2, 3, 1)),
                                        ((2, 8, 3, 16, 32), (0, 4, 2, 1, 3)),
                                        ((256, 128), (1, 0))])
def test_compiled(shape, perm):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    m = parse_source(_text("tensor", shape, perm), default_context(), "<t>")
    for threads in (1, 2):
        f = strata.compile(m, num_threads=threads, cache=False)
        assert np.array_equal(np.asarray(f(x)[0]), x.transpose(perm))


@pytest.mark.parametrize("shape,perm", [(("?", 32, 40, 16), (0, 3, 1, 2)),
                                        (("?", 8, "?", 16, 32), (0, 4, 2, 1, 3))])
def test_dynamic_untiled_dims(shape, perm):
    """Dynamic dims outside the two tiled ones (a dynamic batch): blocked, sized by
    memref.dim, and the same copy under the interpreter and compiled, for several
    sizes of the dynamic dims."""
    from strata.transforms.block_transposes import block_transposes
    m = parse_source(_text("memref", shape, perm), default_context(), "<t>")
    assert block_transposes(m, min_elements=1) == 1
    assert "memref.dim" in str(m)
    rng = np.random.default_rng(0)
    for fill in (1, 3):
        x = rng.standard_normal([fill if d == "?" else d for d in shape]).astype(np.float32)
        check_pass_preserves_semantics(_text("memref", shape, perm),
                                       "strata-linalg-block-transposes{min-elements=1}",
                                       inputs=[x, np.zeros(x.transpose(perm).shape, np.float32)])
        for threads in (1, 2):
            f = strata.compile(parse_source(_dynamic_tensor_text(shape, perm),
                                            default_context(), "<t>"),
                               num_threads=threads, cache=False)
            assert np.array_equal(np.asarray(f(x)[0]), x.transpose(perm))


def _dynamic_tensor_text(shape, perm):
    out = [shape[p] for p in perm]
    dims = "\n".join(f"  %c{p} = arith.constant {p} : index\n"
                      f"  %d{p} = tensor.dim %x, %c{p} : {_ty('tensor', shape)}"
                      for p in perm if shape[p] == "?")
    sizes = ", ".join(f"%d{p}" for p in perm if shape[p] == "?")
    return f"""func.func @main(%x: {_ty('tensor', shape)}) -> {_ty('tensor', out)} {{
{dims}
  %e = tensor.empty({sizes}) : {_ty('tensor', out)}
  %t = linalg.transpose ins(%x : {_ty('tensor', shape)}) outs(%e : {_ty('tensor', out)}) permutation = {list(perm)}
  return %t : {_ty('tensor', out)}
}}"""
