"""strata-linalg-fuse-row-reductions: chains of linalg ops over the same rows become one
parallel loop over the rows. The interpreter runs each case before and after the pass
(parallel and serial, reductions reassociated or not); ONNX softmax / layer norm / mean
pooling compiled for the CPU match NumPy, with the row loop in the pipeline."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from strata.testing import check_pass_preserves_semantics

_LIT = Path(__file__).resolve().parents[1] / "lit" / "passes" / \
    "strata-linalg-fuse-row-reductions"
_PASS = "strata-linalg-fuse-row-reductions"
_VARIANTS = [_PASS, _PASS + "{parallel=false reassociate=false}"]


def _parse(text):
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    return parse_source(text, default_context(), "<test>")


def _run(text, pipeline=_PASS):
    from strata.compiler import build_pipeline
    from strata.syntax.printer import print_op
    m = _parse(text)
    build_pipeline(pipeline).run(m)
    m.verify()
    return print_op(m)


@pytest.mark.parametrize("pipeline", _VARIANTS)
@pytest.mark.parametrize("case", ["softmax", "layernorm", "cases"])
def test_lit_inputs_keep_their_values(case, pipeline):
    text = (_LIT / f"{case}.mlir").read_text()
    check_pass_preserves_semantics(text, pipeline, rtol=1e-4, atol=1e-5)


# Reductions of other kinds: an integer max and argmax in one op with two results (ties
# keep the first index: linalg.index of the reduced loop; the max is an intermediate, the
# argmax a result), an accumulation into a row of
# the input buffer itself (in place), a reduction over two inner loops, a fill of a row
# buffer, and rows and row lengths both dynamic (the row buffer stays a whole buffer; the
# reduced values are loop-carried).
_MORE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0)>
func.func @argmax(%x: memref<5x9xi32>) -> (memref<5xindex>, memref<5x9xi32>) {
  %lo = arith.constant -2147483648 : i32
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<5xi32>
  %i = memref.alloc() : memref<5xindex>
  linalg.fill ins(%lo : i32) outs(%m : memref<5xi32>)
  linalg.fill ins(%c0 : index) outs(%i : memref<5xindex>)
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<5x9xi32>) outs(%m, %i : memref<5xi32>, memref<5xindex>) {
  ^bb0(%in: i32, %mo: i32, %io: index):
    %k = linalg.index 1 : index
    %gt = arith.cmpi sgt, %in, %mo : i32
    %nm = arith.select %gt, %in, %mo : i32
    %ni = arith.select %gt, %k, %io : index
    linalg.yield %nm, %ni : i32, index
  }
  %y = memref.alloc() : memref<5x9xi32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<5x9xi32>, memref<5xi32>) outs(%y : memref<5x9xi32>) {
  ^bb0(%in: i32, %mx: i32, %out: i32):
    %d = arith.subi %mx, %in : i32
    linalg.yield %d : i32
  }
  memref.dealloc %m : memref<5xi32>
  return %i, %y : memref<5xindex>, memref<5x9xi32>
}
func.func @in_place(%x: memref<6x8xf32>) -> memref<6x8xf32> {
  %z = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<6xf32>
  linalg.fill ins(%z : f32) outs(%s : memref<6xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<6x8xf32>) outs(%s : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<6x8xf32>, memref<6xf32>) outs(%x : memref<6x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.subf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %s : memref<6xf32>
  return %x : memref<6x8xf32>
}
func.func @two_inner(%x: memref<3x4x5xf32>) -> memref<3x4x5xf32> {
  %z = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<3x4x5xf32>
  linalg.fill ins(%z : f32) outs(%buf : memref<3x4x5xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<3x4x5xf32>) outs(%buf : memref<3x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  %s = memref.alloc() : memref<3xf32>
  linalg.fill ins(%z : f32) outs(%s : memref<3xf32>)
  linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "reduction", "reduction"]} ins(%buf : memref<3x4x5xf32>) outs(%s : memref<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %y = memref.alloc() : memref<3x4x5xf32>
  linalg.generic {indexing_maps = [#id3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%buf, %s : memref<3x4x5xf32>, memref<3xf32>) outs(%y : memref<3x4x5xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %buf : memref<3x4x5xf32>
  memref.dealloc %s : memref<3xf32>
  return %y : memref<3x4x5xf32>
}
func.func @dynamic(%x: memref<?x?xf32>) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %k = memref.dim %x, %c1 : memref<?x?xf32>
  %e = memref.alloc(%n, %k) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<?x?xf32>) outs(%e : memref<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  }
  %s = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%z : f32) outs(%s : memref<?xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  %y = memref.alloc(%n, %k) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %s : memref<?x?xf32>, memref<?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %q = arith.divf %in, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %e : memref<?x?xf32>
  memref.dealloc %s : memref<?xf32>
  return %y : memref<?x?xf32>
}
"""


@pytest.mark.parametrize("pipeline", _VARIANTS)
def test_other_reductions_keep_their_values(pipeline):
    rng = np.random.default_rng(3)
    x = rng.integers(-4, 4, (5, 9)).astype(np.int32)      # ties
    check_pass_preserves_semantics(_MORE, pipeline, rtol=1e-4, atol=1e-5, inputs={
        "argmax": [x],
        "in_place": [rng.standard_normal((6, 8)).astype(np.float32)],
        "two_inner": [rng.standard_normal((3, 4, 5)).astype(np.float32)],
        "dynamic": [rng.standard_normal((3, 7)).astype(np.float32)]})


def test_what_fuses():
    text = _run(_MORE)
    funcs = {}
    for part in text.split("func.func @")[1:]:
        funcs[part.split("(")[0]] = part
    for name in ("argmax", "in_place", "two_inner", "dynamic"):
        assert "scf.parallel" in funcs[name], name
        assert "linalg." not in funcs[name], name
    # one pass over the row (the max loop-carried, the argmax in its buffer), then one
    # over it again
    assert funcs["argmax"].count("scf.for") == 2
    assert "memref<5xi32>" not in funcs["argmax"]
    # exp(x + 0) per element, then sums over both inner loops: the row buffer of 4 x 5
    assert "memref.alloca() alignment = 64 : memref<4x5xf32>" in funcs["two_inner"]
    # a dynamic row length: the exponentials stay a whole buffer, the sums per row
    assert "memref.alloca" not in funcs["dynamic"]
    assert "memref.alloc(%" in funcs["dynamic"]
    assert "iter_args" in funcs["dynamic"]


def test_idempotent_and_quiet_without_candidates():
    text = (_LIT / "cases.mlir").read_text()
    once = _run(text)
    assert _run(once) == once


# ---------------------------------------------------------------------- ONNX on the CPU


def _model(kind, shape):
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", *shape[1:]])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", *shape[1:]])
    inits, nodes = [], []
    d = shape[-1]
    rng = np.random.default_rng(7)
    if kind == "softmax":
        nodes.append(helper.make_node("Softmax", ["x"], ["y"], axis=-1))
    elif kind == "layernorm":
        inits = [helper.make_tensor(n, TensorProto.FLOAT, [d],
                                    rng.standard_normal(d).astype(np.float32).tolist())
                 for n in ("s", "b")]
        nodes.append(helper.make_node("LayerNormalization", ["x", "s", "b"], ["y"],
                                      axis=-1, epsilon=1e-5))
    else:       # mean over the middle axis, as a model pools a sequence
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 1, d])
        nodes.append(helper.make_node("ReduceMean", ["x"], ["y"], axes=[1], keepdims=1))
    graph = helper.make_graph(nodes, kind, [x], [y], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), inits


def _reference(kind, x, inits):
    from onnx import numpy_helper
    d = x.astype(np.float64)
    if kind == "softmax":
        e = np.exp(d - d.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    if kind == "layernorm":
        s, b = (numpy_helper.to_array(t).astype(np.float64) for t in inits)
        m = d.mean(-1, keepdims=True)
        v = ((d - m) ** 2).mean(-1, keepdims=True)
        return (d - m) / np.sqrt(v + 1e-5) * s + b
    return d.mean(1, keepdims=True)


@pytest.mark.parametrize("kind,shape", [("softmax", (3, 4, 40)), ("layernorm", (5, 7, 48)),
                                        ("mean", (2, 33, 24))])
def test_onnx_on_cpu(kind, shape, tmp_path):
    pytest.importorskip("onnx")
    pytest.importorskip("llvmlite")
    import strata
    model, inits = _model(kind, shape)
    x = np.random.default_rng(11).standard_normal(shape).astype(np.float32) * 3
    want = _reference(kind, x, inits)
    f = strata.compile(model, num_threads=2, dump_dir=tmp_path)
    fused = next(p for p in tmp_path.iterdir()
                 if p.name.endswith("strata-linalg-fuse-row-reductions.mlir")).read_text()
    assert "scf.parallel" in fused and "linalg.generic" not in fused.split("func.func")[1]
    for batch in (shape[0], 1):
        np.testing.assert_allclose(_one(f(x[:batch])), want[:batch], rtol=1e-4, atol=1e-5)
    serial = strata.compile(model, parallel=False)
    np.testing.assert_allclose(_one(serial(x)), want, rtol=1e-4, atol=1e-5)


def _one(out):
    return out[0] if isinstance(out, (list, tuple)) else out


def test_a_row_read_through_a_collapse_to_rank_0():
    """Found by tools/fuzz_onnx.py (seed 282): ReduceMin over dim 0 of (1, N) kept as
    (1, N), squeezed to a scalar (memref.collapse_shape to rank 0, no reassociation group) and
    read next to a row chain: the pass failed with an IndexError resolving the
    collapse."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("llvmlite")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto as TP, helper, numpy_helper
    import strata
    nodes = [helper.make_node("ReduceMin", ["x1", "c2"], ["y3"], keepdims=1),
             helper.make_node("Squeeze", ["y3", "c4"], ["y5"]),
             helper.make_node("DepthToSpace", ["x7"], ["y8"], blocksize=2, mode="CRD"),
             helper.make_node("Less", ["y5", "y5"], ["y9"]),
             helper.make_node("Ceil", ["y8"], ["y10"]),
             helper.make_node("LeakyRelu", ["y10"], ["y11"], alpha=0.01)]
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x1", TP.FLOAT, [1, "n1"]),
                     helper.make_tensor_value_info("x7", TP.FLOAT, ["a", "n8", 5, "b"])],
        [helper.make_tensor_value_info("y9", TP.BOOL, []),
         helper.make_tensor_value_info("y11", TP.FLOAT, ["a", None, 10, None])],
        [numpy_helper.from_array(np.array([-2], np.int64), "c2"),
         numpy_helper.from_array(np.array([0, -1], np.int64), "c4")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    m.ir_version = 10
    rng = np.random.default_rng(0)
    feeds = {"x1": rng.standard_normal((1, 1)).astype(np.float32),
             "x7": rng.standard_normal((2, 8, 5, 3)).astype(np.float32)}
    want = ort.InferenceSession(m.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(None, feeds)
    got = strata.compile(m)(**feeds)
    for w, o in zip(want, got):
        np.testing.assert_allclose(o, w, rtol=1e-6)
    assert onnx is not None


def test_rows_past_a_batch_of_one_only_for_narrow_buffers():
    """[1, C] and [1, S, C] buffers have their rows past the batch of one; [1, H, W, C]
    keeps the batch as the rows' first dim (ConvNeXt's layer norms ran 1.5x slower
    fused with rows of H)."""
    from strata.conversion.linalg_row_fusion import _unit_lead
    from strata.ir import attributes as A

    class _V:
        def __init__(self, shape):
            self.type = A.MemRefType(shape, A.f32)

    assert _unit_lead(_V([1, 16])) == 1
    assert _unit_lead(_V([1, 1, 16])) == 2
    assert _unit_lead(_V([1, 2, 8])) == 1
    assert _unit_lead(_V([1, 56, 56, 96])) == 0
    assert _unit_lead(_V([16])) == 0
    assert _unit_lead(_V([4, 16])) == 0
