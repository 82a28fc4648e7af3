"""one-shot-bufferize + buffer-deallocation-simple, checked by execution: every op family
on small functions and lowered ONNX models runs in the interpreter before (tensors) and
after (buffers) with the same results, no buffer is used after it is freed (the
interpreter reports that), none is leaked, and the static checker agrees."""
from __future__ import annotations

import numpy as np
import pytest

from strata.compiler import build_pipeline
from strata.conversion.bufferize import (check_deallocation, peak_buffer_bytes,
                                         run_one_shot_bufferize, BufferizeOptions)
from strata.dialects import default_context
from strata.interpreter import Interpreter, InterpreterError
from strata.interpreter.core import IMPLS
from strata.ir.symbol_table import SymbolTable
from strata.syntax.parser import parse_source
from strata.testing import check_pass_preserves_semantics

PIPELINE = ("one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map "
            "allow-return-allocs-from-loops},buffer-deallocation-simple")


def parse(src):
    return parse_source(src, default_context(), "t.mlir")


def bufferized(src_or_module, pipeline=PIPELINE):
    m = parse(src_or_module) if isinstance(src_or_module, str) else src_or_module.clone()
    build_pipeline(pipeline).run(m)
    return m


class LeakTracker:
    """Records every memref.alloc a run makes; `leaked(results)` are those neither freed
    nor returned."""

    def __init__(self, monkeypatch):
        self.roots = []
        alloc = IMPLS["memref.alloc"]

        def tracking(interp, op, args):
            r = alloc(interp, op, args)
            self.roots.append((interp, r[0]))
            return r
        monkeypatch.setitem(IMPLS, "memref.alloc", tracking)

    def leaked(self, results):
        from strata.interpreter.ops_memref import _root, heap
        returned = {id(_root(r)) for r in results if isinstance(r, np.ndarray)}
        out = []
        for interp, a in self.roots:
            h = heap(interp)
            if h._get(h.freed, _root(a)) is None and id(_root(a)) not in returned:
                out.append(a)
        return out


def check(src, inputs=None, function=None, monkeypatch=None):
    """Same results before and after the pipeline, statically and dynamically no leak."""
    out = check_pass_preserves_semantics(src, PIPELINE, inputs=inputs, function=function)
    after = bufferized(src)
    assert check_deallocation(after) == []
    if monkeypatch is not None:
        from strata.testing import random_inputs
        before = parse(src) if isinstance(src, str) else src
        tracker = LeakTracker(monkeypatch)
        interp = Interpreter(after)
        for name in out:
            args = inputs if inputs is not None else random_inputs(before, name)
            got = interp.call(name, *[np.array(a) for a in args])
            assert tracker.leaked(got) == [], f"@{name} leaks buffers"
    return after


ID1 = "affine_map<(d0) -> (d0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"

TENSOR_OPS = f"""
func.func @views(%t: tensor<2x3x4xf32>, %i: index) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>,
    tensor<?x3x4xf32>, tensor<3x4xf32>, f32) {{
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] :
    tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %k = tensor.cast %t : tensor<2x3x4xf32> to tensor<?x3x4xf32>
  %s = tensor.extract_slice %t[1, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<3x4xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0, %c0] : tensor<3x4xf32>
  return %c, %e, %k, %s, %x : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x3x4xf32>,
    tensor<3x4xf32>, f32
}}
func.func @collapse_strided(%t: tensor<4x6xf32>) -> tensor<6xf32> {{
  %s = tensor.extract_slice %t[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %c : tensor<6xf32>
}}
func.func @insert_ops(%t: tensor<8x8xf32>, %s: tensor<2x3xf32>, %v: f32) -> (tensor<8x8xf32>,
    tensor<8x8xf32>, f32) {{
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert_slice %s into %t[%c1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x8xf32>
  %q = tensor.insert %v into %r[%c2, %c2] : tensor<8x8xf32>
  %old = tensor.extract %t[%c1, %c2] : tensor<8x8xf32>
  return %r, %q, %old : tensor<8x8xf32>, tensor<8x8xf32>, f32
}}
func.func @reshape(%t: tensor<2x3xf32>) -> tensor<3x2xf32> {{
  %shape = arith.constant dense<[3, 2]> : tensor<2xi64>
  %r = tensor.reshape %t(%shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}}
func.func @concat_pad(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> (tensor<3x3xf32>, tensor<6x5xf32>) {{
  %cst = arith.constant 7.0 : f32
  %c = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %p = tensor.pad %c low[1, 0] high[2, 2] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  }} : tensor<3x3xf32> to tensor<6x5xf32>
  return %c, %p : tensor<3x3xf32>, tensor<6x5xf32>
}}
func.func @generators(%a: f32, %b: f32) -> (tensor<2x3xindex>, tensor<2x2xf32>, tensor<3xf32>) {{
  %g = tensor.generate {{
  ^bb0(%i: index, %j: index):
    %x = arith.muli %i, %j : index
    tensor.yield %x : index
  }} : tensor<2x3xindex>
  %f = tensor.from_elements %a, %b, %b, %a : tensor<2x2xf32>
  %s = tensor.splat %a : tensor<3xf32>
  return %g, %f, %s : tensor<2x3xindex>, tensor<2x2xf32>, tensor<3xf32>
}}
func.func @bitcast_dim(%t: tensor<3xf32>, %u: tensor<?xf32>) -> (tensor<3xi32>, index) {{
  %b = tensor.bitcast %t : tensor<3xf32> to tensor<3xi32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %u, %c0 : tensor<?xf32>
  return %b, %d : tensor<3xi32>, index
}}
func.func @select_cast(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xi1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {{
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %e = arith.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>
  %d = tensor.cast %s : tensor<4xf32> to tensor<?xf32>
  %u = builtin.unrealized_conversion_cast %d : tensor<?xf32> to tensor<4xf32>
  return %s, %e, %u : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}}
"""


@pytest.mark.parametrize("fn", ["views", "collapse_strided", "insert_ops", "reshape",
                                "concat_pad", "generators", "bitcast_dim", "select_cast"])
def test_tensor_ops(fn, monkeypatch):
    check(TENSOR_OPS, function=fn, monkeypatch=monkeypatch)


LINALG = f"""
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {{indexing_maps = [{ID2}, affine_map<(d0, d1) -> (d1)>, {ID2}],
      iterator_types = ["parallel", "parallel"]}} ins(%m, %bias : tensor<4x16xf32>, tensor<16xf32>)
      outs(%m : tensor<4x16xf32>) {{
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  }} -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}}
func.func @reduce_into_constant(%a: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {{
  %init = arith.constant dense<1.0> : tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {{
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }}
  return %r, %init : tensor<4xf32>, tensor<4xf32>
}}
func.func @conv_pool_softmax(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
    ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x3x2x2xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %p = linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
    ins(%c, %k : tensor<1x3x4x4xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %e3 = tensor.empty() : tensor<1x3x2x2xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<1x3x2x2xf32>) outs(%e3 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %s : tensor<1x3x2x2xf32>
}}
func.func @transpose_gather(%t: tensor<5x4xf32>, %idx: tensor<3xi64>) -> (tensor<4x5xf32>, tensor<3x4xf32>) {{
  %e = tensor.empty() : tensor<4x5xf32>
  %tr = linalg.transpose ins(%t : tensor<5x4xf32>) outs(%e : tensor<4x5xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x4xf32>
  %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0)>, {ID2}],
      iterator_types = ["parallel", "parallel"]}} ins(%idx : tensor<3xi64>) outs(%e2 : tensor<3x4xf32>) {{
  ^bb0(%i: i64, %o: f32):
    %ii = arith.index_cast %i : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%ii, %j] : tensor<5x4xf32>
    linalg.yield %v : f32
  }} -> tensor<3x4xf32>
  return %tr, %g : tensor<4x5xf32>, tensor<3x4xf32>
}}
func.func @read_after_inplace_write(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {{
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %y = linalg.fill ins(%one : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}}
"""


@pytest.mark.parametrize("fn", [
    "mlp", "reduce_into_constant", "conv_pool_softmax",
    pytest.param("transpose_gather", marks=pytest.mark.xfail(
        reason="the interpreter runs linalg payloads vectorized, and its memref.load "
               "takes scalar indices only", strict=False)),
    "read_after_inplace_write"])
def test_linalg(fn, monkeypatch):
    inputs = None
    if fn == "transpose_gather":
        inputs = [np.arange(20, dtype=np.float32).reshape(5, 4),
                  np.array([4, 0, 2], np.int64)]
    check(LINALG, inputs=inputs, function=fn, monkeypatch=monkeypatch)


def test_inputs_are_not_written():
    """Arguments are read-only: a write into one goes to a copy."""
    src = """func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
      %c1 = arith.constant 1 : index
      %x = tensor.insert %v into %t[%c1] : tensor<4xf32>
      return %x : tensor<4xf32>
    }"""
    t = np.arange(4, dtype=np.float32)
    r, = Interpreter(bufferized(src)).call("f", t, np.float32(9))
    assert list(r) == [0, 9, 2, 3] and list(t) == [0, 1, 2, 3]


SCF = f"""
func.func @for_in_place(%n: index) -> tensor<8xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<8xf32>) {{
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    %x = tensor.insert %v into %a[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  }}
  return %r : tensor<8xf32>
}}
func.func @for_new_buffers(%h: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %h, %b = %h) -> (tensor<4xf32>, tensor<4xf32>) {{
    %e = tensor.empty() : tensor<4xf32>
    %x = linalg.generic {{indexing_maps = [{ID1}, {ID1}, {ID1}], iterator_types = ["parallel"]}}
        ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {{
    ^bb0(%v: f32, %w: f32, %o: f32):
      %y = arith.addf %v, %w : f32
      linalg.yield %y : f32
    }} -> tensor<4xf32>
    scf.yield %x, %a : tensor<4xf32>, tensor<4xf32>
  }}
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}}
func.func @if_alias_owned(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (f32, tensor<4xf32>) {{
  %c0 = arith.constant 0 : index
  %r = scf.if %c -> (tensor<4xf32>) {{
    scf.yield %a : tensor<4xf32>
  }} else {{
    scf.yield %b : tensor<4xf32>
  }}
  %x = tensor.extract %r[%c0] : tensor<4xf32>
  %s = scf.if %c -> (tensor<4xf32>) {{
    %e = tensor.empty() : tensor<4xf32>
    %n = linalg.generic {{indexing_maps = [{ID1}, {ID1}], iterator_types = ["parallel"]}}
        ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {{
    ^bb0(%v: f32, %o: f32):
      %y = arith.negf %v : f32
      linalg.yield %y : f32
    }} -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }} else {{
    scf.yield %r : tensor<4xf32>
  }}
  return %x, %s : f32, tensor<4xf32>
}}
func.func @while_grow(%n: index) -> tensor<?xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty(%c1) : tensor<?xf32>
  %r:2 = scf.while (%i = %c0, %buf = %e) : (index, tensor<?xf32>) -> (index, tensor<?xf32>) {{
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %buf : index, tensor<?xf32>
  }} do {{
  ^bb0(%i: index, %buf: tensor<?xf32>):
    %d = tensor.dim %buf, %c0 : tensor<?xf32>
    %full = arith.cmpi sge, %i, %d : index
    %g = scf.if %full -> (tensor<?xf32>) {{
      %d2 = arith.muli %d, %c2 : index
      %big = tensor.empty(%d2) : tensor<?xf32>
      %copied = tensor.insert_slice %buf into %big[0] [%d] [1] : tensor<?xf32> into tensor<?xf32>
      scf.yield %copied : tensor<?xf32>
    }} else {{
      scf.yield %buf : tensor<?xf32>
    }}
    %ii = arith.index_cast %i : index to i64
    %v = arith.sitofp %ii : i64 to f32
    %w = tensor.insert %v into %g[%i] : tensor<?xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %j, %w : index, tensor<?xf32>
  }}
  %out = tensor.extract_slice %r#1[0] [%r#0] [1] : tensor<?xf32> to tensor<?xf32>
  return %out : tensor<?xf32>
}}
"""


@pytest.mark.parametrize("fn,inputs", [
    ("for_in_place", [np.int64(5)]), ("for_new_buffers", None),
    ("if_alias_owned", [np.bool_(True)] + [np.arange(4, dtype=np.float32)] * 2),
    ("if_alias_owned", [np.bool_(False), np.arange(4, dtype=np.float32),
                        np.ones(4, np.float32)]),
    ("while_grow", [np.int64(9)])])
def test_scf(fn, inputs, monkeypatch):
    if fn == "for_new_buffers":
        inputs = [np.arange(4, dtype=np.float32), np.int64(3)]
    out = check(SCF, inputs=inputs, function=fn, monkeypatch=monkeypatch)
    if fn == "while_grow":
        r, = Interpreter(out).call("while_grow", np.int64(9))
        assert list(r) == list(range(9))


GLOBALS = """
ml_program.global private @w(dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
ml_program.global private mutable @state(dense<0.0> : tensor<3xf32>) : tensor<3xf32>
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %w = ml_program.global_load_const @w : tensor<3xf32>
  %c = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w, %x : tensor<3xf32>,
      tensor<3xf32>) outs(%c : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    %z = arith.addf %y, %o : f32
    linalg.yield %z : f32
  } -> tensor<3xf32>
  %old = ml_program.global_load @state : tensor<3xf32>
  ml_program.global_store @state = %s : tensor<3xf32>
  return %s, %w, %old : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
"""


def test_constants_and_globals(monkeypatch):
    """Constant globals are never written (the interpreter rejects writes into them):
    an `outs` constant is copied first."""
    check(GLOBALS, monkeypatch=monkeypatch)


COPY_THEN_READ = """func.func @f(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  return %v : f32
}"""


def test_use_after_free_is_caught():
    """The checker and the interpreter both catch a dealloc placed too early."""
    m = bufferized(COPY_THEN_READ)
    f = SymbolTable(m).lookup("f")
    ops = list(f.regions[0].blocks[0].ops)
    dealloc = next(o for o in ops if o.name == "memref.dealloc")
    copy = next(o for o in ops if o.name == "linalg.copy")
    dealloc.move_after(copy)  # now before the load
    assert any("used after" in p for p in check_deallocation(m))
    with pytest.raises(InterpreterError, match="freed"):
        Interpreter(m).call("f", np.ones(4, np.float32))


def test_leak_is_reported():
    m = bufferized(COPY_THEN_READ)
    for op in list(m.walk()):
        if op.name == "memref.dealloc":
            op.erase()
    problems = check_deallocation(m)
    assert len(problems) == 1 and "never freed" in problems[0]


def test_peak_buffer_bytes():
    m = bufferized(LINALG)
    f = SymbolTable(m).lookup("mlp")
    assert peak_buffer_bytes(f) == 4 * 16 * 4
    f = SymbolTable(m).lookup("conv_pool_softmax")
    # while pooling: the conv result (192 B), the window (16 B) and the pooled result
    # (48 B); both first ones are freed before the softmax result (48 B) is made
    assert peak_buffer_bytes(f) == 192 + 16 + 48
    dyn = bufferized("""func.func @d(%n: index) -> tensor<?xf32> {
      %e = tensor.empty(%n) : tensor<?xf32>
      return %e : tensor<?xf32>
    }""")
    assert peak_buffer_bytes(SymbolTable(dyn).lookup("d")) is None


def test_analysis_only_annotates():
    m = parse("""func.func @f(%a: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
      %one = arith.constant 1.0 : f32
      %x = linalg.fill ins(%one : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
      return %x : tensor<4xf32>
    }""")
    run_one_shot_bufferize(m, BufferizeOptions(test_analysis_only=True))
    fill = next(o for o in m.walk() if o.name == "linalg.fill")
    assert [a.value for a in fill.attributes["__inplace_operands_attr__"].value] == \
        ["none", "true"]


# ----------------------------------------------------------------- lowered ONNX models

def _onnx_model(nodes, inputs, outputs, inits=()):
    onnx = pytest.importorskip("onnx")
    h = onnx.helper
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def _models():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto as T, helper as h, numpy_helper as nh
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    gemm = _onnx_model(
        [h.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1),
         h.make_node("Relu", ["g"], ["y"])],
        [h.make_tensor_value_info("x", T.FLOAT, [3, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [3, 4])],
        [nh.from_array(f32(4, 8), "w"), nh.from_array(f32(4), "b")])
    conv = _onnx_model(
        [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         h.make_node("MaxPool", ["c"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
         h.make_node("Flatten", ["p"], ["y"])],
        [h.make_tensor_value_info("x", T.FLOAT, [1, 2, 6, 6])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 27])],
        [nh.from_array(f32(3, 2, 3, 3), "w")])
    softmax = _onnx_model(
        [h.make_node("MatMul", ["x", "w"], ["m"]),
         h.make_node("Softmax", ["m"], ["s"], axis=-1),
         h.make_node("Concat", ["s", "x"], ["y"], axis=1)],
        [h.make_tensor_value_info("x", T.FLOAT, [2, 5])],
        [h.make_tensor_value_info("y", T.FLOAT, [2, 10])],
        [nh.from_array(f32(5, 5), "w")])
    return {"gemm_relu": (gemm, [f32(3, 8)]), "conv_pool": (conv, [f32(1, 2, 6, 6)]),
            "matmul_softmax_concat": (softmax, [f32(2, 5)])}


@pytest.mark.parametrize("name", ["gemm_relu", "conv_pool", "matmul_softmax_concat"])
def test_lowered_onnx_models(name, monkeypatch):
    """A model through the interpreter target's pipeline (linalg on tensors), then
    bufferized: same outputs, no leak, peak memory known."""
    import strata
    from strata.compiler import TARGETS
    model, inputs = _models()[name]
    compiled = strata.compile(model, target="interpret")
    module = compiled.module
    assert TARGETS["interpret"].pipeline  # the tensor-level pipeline ran
    after = check(module, inputs=inputs, function="main", monkeypatch=monkeypatch)
    assert peak_buffer_bytes(SymbolTable(after).lookup("main")) > 0


@pytest.mark.parametrize("src,fn,inputs", [
    (SCF, "for_in_place", [np.int64(5)]),
    (SCF, "while_grow", [np.int64(9)]),
    (TENSOR_OPS, "insert_ops", None),
    (LINALG, "read_after_inplace_write", None)])
def test_copy_before_write(src, fn, inputs):
    """copy-before-write: every write goes to a new buffer; same results, no leak."""
    pipeline = PIPELINE.replace("allow-return-allocs-from-loops",
                                "allow-return-allocs-from-loops copy-before-write")
    check_pass_preserves_semantics(src, pipeline, inputs=inputs, function=fn)
    assert check_deallocation(bufferized(src, pipeline)) == []


BRANCH_VIEW = f"""
func.func @f(%c: i1, %a: tensor<4xf32>) -> (tensor<2x2xf32>, f32) {{
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %v = tensor.expand_shape %x [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %r = scf.if %c -> (tensor<2x2xf32>) {{
    %n = tensor.empty() : tensor<2x2xf32>
    %y = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
        ins(%v : tensor<2x2xf32>) outs(%n : tensor<2x2xf32>) {{
    ^bb0(%p: f32, %o: f32):
      %q = arith.negf %p : f32
      linalg.yield %q : f32
    }} -> tensor<2x2xf32>
    scf.yield %y : tensor<2x2xf32>
  }} else {{
    scf.yield %v : tensor<2x2xf32>
  }}
  %s = scf.if %c -> (tensor<2x2xf32>) {{
    scf.yield %r : tensor<2x2xf32>
  }} else {{
    %n = tensor.empty() : tensor<2x2xf32>
    %z = linalg.copy ins(%r : tensor<2x2xf32>) outs(%n : tensor<2x2xf32>) -> tensor<2x2xf32>
    scf.yield %z : tensor<2x2xf32>
  }}
  %t = tensor.extract %s[%c0, %c0] : tensor<2x2xf32>
  return %s, %t : tensor<2x2xf32>, f32
}}
"""


@pytest.mark.parametrize("cond", [True, False])
def test_branch_yields_parent_view(cond, monkeypatch):
    """A branch keeping (a view of) a parent buffer dead after the if yields it instead
    of a copy; the other branch frees it; no copy is left, nothing leaks."""
    m = check(BRANCH_VIEW, inputs=[np.bool_(cond), np.arange(4, dtype=np.float32)],
              monkeypatch=monkeypatch)
    assert not any(op.name == "memref.copy" for op in m.walk())
