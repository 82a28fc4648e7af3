"""strata-concat-in-place (strata/conversion/bufferize/in_place.py), checked by execution:
tensor programs with concatenations run in the interpreter before bufferization and
after one-shot-bufferize + the pass + buffer-deallocation-simple (the interpreter
reports a freed buffer used), with the same results; the copies it removes are counted.
Random programs mix concatenations along every dim, chains of them, inputs used twice,
arguments and constants as inputs, and elementwise ops that bufferization may run in
place on a buffer a concatenation copied (which the pass must then leave alone)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from strata.compiler import build_pipeline
from strata.conversion.bufferize import check_deallocation
from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

BUFFERIZE = ("one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map "
             "allow-return-allocs-from-loops}")
WITH = BUFFERIZE + ",strata-concat-in-place,buffer-deallocation-simple"
WITHOUT = BUFFERIZE + ",buffer-deallocation-simple"


def _copies(src, pipeline):
    m = parse_source(src, default_context(), "t.mlir")
    build_pipeline(pipeline).run(m)
    check_deallocation(m)
    return sum(op.name == "memref.copy" for op in m.walk())


def _check(src):
    """Same results with and without the pass; the number of copies it removed."""
    check_pass_preserves_semantics(src, WITH)
    return _copies(src, WITHOUT) - _copies(src, WITH)


# x * x + y: onto `o` (its value y; it may be overwritten in place), or into a new
# tensor (y = 1: a tensor.empty's contents are not to be read)
_ELEMENTWISE = """
  %{r} = linalg.generic {{indexing_maps = [{m}, {m}], iterator_types = [{it}]}}
      ins(%{a} : {t}) outs(%{o} : {t}) {{
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    %e = arith.addf %s, {y} : f32
    linalg.yield %e : f32
  }} -> {t}"""
_REDUCE = """
  %z{i} = tensor.empty() : {to}
  %f{i} = linalg.fill ins(%zero : f32) outs(%z{i} : {to}) -> {to}
  %y{i} = linalg.generic {{indexing_maps = [affine_map<(n, g, h, w, c) -> (n, c, h, w)>,
                                         affine_map<(n, g, h, w, c) -> (n, g, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%a{i} : {t}) outs(%f{i} : {to}) {{
  ^bb0(%in: f32, %out: f32):
    %e = arith.addf %in, %out : f32
    linalg.yield %e : f32
  }} -> {to}"""


def _t(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _map(rank):
    d = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({d}) -> ({d})>"


def dense_block(layers=4, c0=3, growth=2, n=1):
    """DenseNet's block: each layer's output joined to the running concatenation, which
    the next layer reads (here: an elementwise op into a new tensor, then a reduction
    over the channels into `growth` channels, standing for the convolutions). `n`: the
    batch, "?" for a run-time one."""
    body = ["  %zero = arith.constant 0.0 : f32", "  %one = arith.constant 1.0 : f32",
            "  %i0 = arith.constant 0 : index",
            f"  %n = tensor.dim %arg0, %i0 : {_t([n, c0, 4, 4])}"]
    cur, c = "%arg0", c0
    dyn = "%n" if n == "?" else ""
    for i in range(layers):
        t = _t([n, c, 4, 4])
        body.append(f"  %e{i} = tensor.empty({dyn}) : {t}")
        body.append(_ELEMENTWISE.format(r=f"a{i}", a=cur[1:], o=f"e{i}", t=t, m=_map(4),
                                        it=", ".join(['"parallel"'] * 4), y="%one"))
        body.append(_REDUCE.format(i=i, t=t, to=_t([n, growth, 4, 4])).replace(
            "tensor.empty()", f"tensor.empty({dyn})"))
        body.append(f"  %c{i} = tensor.concat dim(1) {cur}, %y{i} : ({t}, "
                    f"{_t([n, growth, 4, 4])}) -> {_t([n, c + growth, 4, 4])}")
        cur, c = f"%c{i}", c + growth
    return (f"func.func @block(%arg0: {_t([n, c0, 4, 4])}) -> {_t([n, c, 4, 4])} {{\n" +
            "\n".join(body) + f"\n  return {cur} : {_t([n, c, 4, 4])}\n}}\n")


@pytest.mark.parametrize("n", [1, "?"])
def test_dense_block_one_buffer(n):
    src = dense_block(n=n)
    # every layer's new channels and every earlier concatenation go in place; the
    # block's input, a function argument, is copied once
    assert _check(src) == 7
    m = parse_source(src, default_context(), "t.mlir")
    build_pipeline(WITH).run(m)
    fn = next(op for op in m.walk() if op.name == "func.func")
    copies = [op for op in m.walk() if op.name == "memref.copy"]
    assert len(copies) == 1 and copies[0].operands[0] is fn.regions[0].blocks[0].args[0]
    shapes = [list(op.results[0].type.shape)[1:] for op in m.walk()
              if op.name == "memref.alloc"]
    # the concatenations of 5, 7, 9 channels are views of the one of 11 (the other
    # buffers of those sizes are the elementwise ops' outputs)
    assert shapes.count([11, 4, 4]) == 1
    assert all(shapes.count([c, 4, 4]) == 1 for c in (5, 7, 9))


SEGFORMER = """
func.func @decoder(%a: tensor<1x2x4x4xf32>, %b: tensor<1x2x2x2xf32>) -> tensor<1x6x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %u0 = linalg.generic {indexing_maps = [
                            affine_map<(n, c, h, w) -> (n, c, h floordiv 2, w floordiv 2)>,
                                         affine_map<(n, c, h, w) -> (n, c, h, w)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<1x2x2x2xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x4x4xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %u1 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                         affine_map<(n, c, h, w) -> (n, c, h, w)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x2x4x4xf32>) outs(%e1 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %in : f32
    linalg.yield %x : f32
  } -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %u0, %u1, %a : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>,
      tensor<1x2x4x4xf32>) -> tensor<1x6x4x4xf32>
  return %c : tensor<1x6x4x4xf32>
}
"""


def test_decoder_concat_of_resized_maps():
    # the two computed maps in place, the argument copied
    assert _check(SEGFORMER) == 2


def _random_program(seed):
    """A random function of concatenations (any dim, chains, inputs twice, arguments,
    constants) and elementwise ops, some of which bufferization runs in place on their
    input (`outs` an earlier value: it is overwritten when nothing reads it later)."""
    rng = random.Random(seed)
    shape = [2, 3, 2]
    vals = [("%arg0", list(shape)), ("%arg1", list(shape)), ("%k", list(shape))]
    lines = [f"  %k = arith.constant dense<1.5> : {_t(shape)}",
             "  %one = arith.constant 1.0 : f32"]
    n = 0
    for _ in range(rng.randint(3, 9)):
        n += 1
        kind = rng.random()
        a_name, a_shape = rng.choice(vals)
        if kind < 0.45:
            same = [v for v in vals if v[1] == a_shape]
            parts = [a_name] + [rng.choice(same)[0] for _ in range(rng.randint(1, 2))]
            dim = rng.randrange(3)
            out = list(a_shape)
            out[dim] *= len(parts)
            if max(out) > 24:
                continue
            lines.append(f"  %v{n} = tensor.concat dim({dim}) {', '.join(parts)} : "
                         f"({', '.join([_t(a_shape)] * len(parts))}) -> {_t(out)}")
            vals.append((f"%v{n}", out))
        else:
            t = _t(a_shape)
            if kind < 0.75:     # into a new tensor
                lines.append(f"  %e{n} = tensor.empty() : {t}")
                init, y = f"%e{n}", "%one"
            else:               # onto an earlier value of the shape: maybe in place
                init, y = rng.choice([v for v in vals if v[1] == a_shape])[0], "%out"
            lines.append(_ELEMENTWISE.format(r=f"v{n}", a=a_name[1:], o=init[1:], t=t, y=y,
                                             m=_map(3), it=", ".join(['"parallel"'] * 3)))
            vals.append((f"%v{n}", a_shape))
    outs = rng.sample(vals[3:], min(len(vals) - 3, 2)) or [vals[0]]
    sig = ", ".join(_t(s) for _, s in outs)
    return (f"func.func @f(%arg0: {_t(shape)}, %arg1: {_t(shape)}) -> ({sig}) {{\n" +
            "\n".join(lines) + f"\n  return {', '.join(v for v, _ in outs)} : {sig}\n}}\n")


@pytest.mark.parametrize("seed", range(40))
def test_random_programs(seed):
    _check(_random_program(seed))


def test_random_programs_place_some():
    # the random programs do exercise the rewrite (not only its refusals)
    assert sum(_check(_random_program(s)) for s in range(40)) >= 10


WRITTEN_AFTER = """
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<2x3xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %one : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %c = tensor.concat dim(0) %a, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // %a is dead after this op: bufferization writes it in place, after the copy
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %c, %r : tensor<4x3xf32>, tensor<2x3xf32>
}
"""


def test_input_overwritten_after_the_concatenation_stays_a_copy():
    assert _check(WRITTEN_AFTER) == 0


RESHAPED = """
func.func @f(%x: tensor<1x2x6xf32>, %y: tensor<1x2x2x3xf32>) -> tensor<1x4x2x3xf32> {
  %e = tensor.empty() : tensor<1x2x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
                                        affine_map<(i, j, k) -> (i, j, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x6xf32>) outs(%e : tensor<1x2x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x2x6xf32>
  %m = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 2, 2, 3]
      : tensor<1x2x6xf32> into tensor<1x2x2x3xf32>
  %c = tensor.concat dim(1) %y, %m : (tensor<1x2x2x3xf32>, tensor<1x2x2x3xf32>)
      -> tensor<1x4x2x3xf32>
  return %c : tensor<1x4x2x3xf32>
}
"""


def test_reshaped_input_written_in_its_slice():
    # Segformer's decoder: a map computed as [N, HW, C]-like, expanded, concatenated
    assert _check(RESHAPED) == 1
