"""The glue around a compiled model's loops (see [Note: one nest] in
outline_loop_nests.py, [Note: trampolines folded] in strata_cpu_to_llvm.py and
[Note: straight-line code at O0] in backends/cpu/target.py): one function per loop
nest (no wrapper, no trampoline), and the functions without loops compiled at O0."""
from __future__ import annotations

import re

import numpy as np
import pytest

from test_parallel_loops import _TENSOR, _parse


def _defines(ll: str) -> dict:
    """name -> (define line, body) of the functions of LLVM IR text `ll`."""
    out = {}
    for m in re.finditer(r"^define [^\n]*@([\w.$]+)\(([^\n]*)\n(.*?)^}", ll, re.S | re.M):
        out[m.group(1)] = (m.group(0).split("\n", 1)[0], m.group(3))
    return out


def test_functions_of_a_compiled_model(tmp_path):
    pytest.importorskip("llvmlite")
    import strata
    f = strata.compile(_parse(_TENSOR), dump_dir=tmp_path)
    ll = next(p for p in tmp_path.iterdir() if p.name.endswith("module.ll")).read_text()
    fns = _defines(ll)
    assert "optnone" in fns["main"][0]
    assert "optnone" in fns["_mlir_ciface_main"][0]
    chunks = [n for n in fns if "__chunk" in n]
    assert chunks
    for n in chunks:        # the loops: optimized, and no trampoline in front of them
        line, body = fns[n]
        assert "optnone" not in line and "noinline" in line
        assert re.match(r"define void @[\w.$]+\(ptr %arg0, i64 %arg1, i64 %arg2\)", line)
    assert not [n for n in fns if n.endswith("__tramp") or "__nest" in n]
    x = np.random.default_rng(1).standard_normal((3, 64, 96), np.float32)
    w = np.random.default_rng(2).standard_normal((96, 80), np.float32)
    ref = strata.compile(_parse(_TENSOR), target="interpret")(x, w)
    for g, r in zip(f(x, w), ref):
        np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-4)


_LLVM = """
llvm.func @diamond(%c: i1) -> i64 {
  llvm.cond_br %c, ^a, ^b
^a:
  %x = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^j(%x : i64)
^b:
  %y = llvm.mlir.constant(2 : i64) : i64
  llvm.br ^j(%y : i64)
^j(%r: i64):
  llvm.return %r : i64
}
llvm.func @loop(%n: i64) {
  %z = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^h(%z : i64)
^h(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^b, ^e
^b:
  %one = llvm.mlir.constant(1 : i64) : i64
  %k = llvm.add %i, %one : i64
  llvm.br ^h(%k : i64)
^e:
  llvm.return
}
llvm.func @decl(i64)
"""


def test_only_functions_without_loops_are_optnone():
    from strata.backends.cpu.target import mark_straight_line_optnone
    m = _parse(_LLVM)
    mark_straight_line_optnone(m)
    fns = {op.properties["sym_name"].value: op for op in m.regions[0].blocks[0].ops}
    assert "optimize_none" in fns["diamond"].properties
    assert "optimize_none" not in fns["loop"].properties
    assert "optimize_none" not in fns["decl"].properties
    m.verify()
