"""strata.compile(model, target="interpret"), `strata run --interpret`, and the
differential pass checker strata.testing.check_pass_preserves_semantics."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import strata
from strata.compiler import InputError
from strata.dialects import default_context
from strata.syntax.parser import parse_source
from strata.tools.cli import main as cli

SRC = """
func.func @main(%a: tensor<?x3xf32>, %s: f32) -> (tensor<?x3xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x3xf32>
  %r = arith.mulf %a, %a : tensor<?x3xf32>
  %row = tensor.extract_slice %r[0, 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<3xf32>
  %sp = tensor.splat %s : tensor<3xf32>
  %t = arith.addf %row, %sp : tensor<3xf32>
  return %r, %t : tensor<?x3xf32>, tensor<3xf32>
}
func.func @helper(%x: i32) -> i32 {
  return %x : i32
}
"""

A = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.fixture
def mlir_file(tmp_path):
    p = tmp_path / "m.mlir"
    p.write_text(SRC)
    return p


def test_compile_mlir_file(mlir_file):
    f = strata.compile(str(mlir_file), target="interpret")
    assert f.function == "main" and f.input_names == ["arg0", "arg1"]
    r, t = f(A, 1.5)
    np.testing.assert_array_equal(r, A * A)
    np.testing.assert_array_equal(t, A[0] * A[0] + 1.5)
    assert r.flags.writeable and isinstance(t, np.ndarray)
    assert strata.compile(mlir_file, target="interpret", function="helper")(np.int32(4))[0] == 4


def test_compile_module_leaves_it_unchanged():
    m = parse_source(SRC, default_context())
    before = str(m)
    f = strata.compile(m, target="interpret", pipeline="canonicalize,cse")
    assert str(m) == before and f.module is not m
    np.testing.assert_array_equal(f(arg1=0.0, arg0=A)[0], A * A)


@pytest.mark.parametrize("args,kw,message", [
    ((A,), {}, "missing: arg1"),
    ((A, 1.0, 2.0), {}, "takes 2 inputs"),
    ((A.astype(np.float64), 1.0), {}, "input #0 .'arg0'.: expected dtype float32"),
    ((A.reshape(3, 2), 1.0), {}, r"expected shape \(\?, 3\)"),
    ((A,), {"arg0": A}, "given twice"),
    ((A, 1.0), {"zz": 1}, "no input named 'zz'"),
])
def test_input_errors(mlir_file, args, kw, message):
    f = strata.compile(mlir_file, target="interpret")
    with pytest.raises(InputError, match=message) as e:
        f(*args, **kw)
    assert isinstance(e.value, ValueError) and isinstance(e.value, strata.StrataError)


def test_compile_errors(tmp_path, mlir_file):
    with pytest.raises(strata.StrataError, match="unknown target 'tpu'"):
        strata.compile(mlir_file, target="tpu")
    with pytest.raises(strata.StrataError, match="no function @nope .functions: @main, @helper"):
        strata.compile(mlir_file, function="nope")
    with pytest.raises(strata.StrataError, match="unknown model format"):
        strata.compile(tmp_path / "m.txt")
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {")
    with pytest.raises(strata.StrataError, match="bad.mlir:1:"):
        strata.compile(bad)
    with pytest.raises(TypeError, match="strata.compile takes"):
        strata.compile(42)


def test_compile_onnx_model_through_the_lowering():
    pytest.importorskip("onnx")
    from onnx import TensorProto as TP
    from onnx import helper as h
    from onnx import numpy_helper
    w = np.array([0.5, -1.0, 2.0], np.float32)
    g = h.make_graph([h.make_node("Add", ["X", "W"], ["H"]), h.make_node("Relu", ["H"], ["Y"])],
                     "g", [h.make_tensor_value_info("X", TP.FLOAT, ["N", 3])],
                     [h.make_tensor_value_info("Y", TP.FLOAT, ["N", 3])],
                     [numpy_helper.from_array(w, "W")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    f = strata.compile(m)
    assert f.target == "cpu"  # the default: native code
    assert not any(op.name.startswith("onnx.") for op in f.module.walk())
    np.testing.assert_array_equal(f(X=A)[0], np.maximum(A + w, 0))
    interp = strata.compile(m, target="interpret")
    np.testing.assert_array_equal(interp(X=A)[0], np.maximum(A + w, 0))


def test_lowered_signless_types_keep_the_model_interface():
    """convert-onnx-to-linalg makes ui8 signless; the callable still takes and returns
    uint8 (the same bits)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto as TP
    from onnx import helper as h
    g = h.make_graph([h.make_node("Add", ["A", "B"], ["Y"])], "g",
                     [h.make_tensor_value_info("A", TP.UINT8, [3]),
                      h.make_tensor_value_info("B", TP.UINT8, [3])],
                     [h.make_tensor_value_info("Y", TP.UINT8, [3])])
    f = strata.compile(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]))
    a, b = np.array([250, 1, 128], np.uint8), np.array([10, 2, 128], np.uint8)
    y = f(a, b)[0]
    assert y.dtype == np.uint8
    np.testing.assert_array_equal(y, a + b)
    with pytest.raises(InputError, match="expected dtype uint8"):
        f(a.astype(np.int16), b)


def test_import_strata_stays_light():
    code = ("import sys, strata; "
            "print(sorted(m for m in ('numpy', 'onnx', 'strata.compiler', "
            "'strata.interpreter') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


# ---------------------------------------------------------------- strata run


def test_cli_run_prints_and_saves(mlir_file, tmp_path, capsys):
    np.save(tmp_path / "a.npy", A)
    np.save(tmp_path / "s.npy", np.float32(2))
    assert cli(["run", str(mlir_file), "--interpret", "--input", str(tmp_path / "a.npy"),
                "--input", f"arg1={tmp_path / 's.npy'}"]) == 0
    out = capsys.readouterr().out
    assert "result0: float32[2, 3]" in out and "result1: float32[3]" in out
    outdir = tmp_path / "out"
    assert cli(["run", str(mlir_file), "--interpret", "--input", str(tmp_path / "a.npy"),
                "--input", str(tmp_path / "s.npy"), "--output-dir", str(outdir)]) == 0
    np.testing.assert_array_equal(np.load(outdir / "result1.npy"), A[0] * A[0] + 2)


def test_cli_run_errors_are_clean(mlir_file, tmp_path, capsys):
    np.save(tmp_path / "a.npy", A.astype(np.float64))
    assert cli(["run", str(mlir_file), "--interpret", "--input", str(tmp_path / "a.npy"),
                "--input", str(tmp_path / "a.npy")]) == 1
    err = capsys.readouterr().err
    assert "expected dtype float32" in err and "Traceback" not in err
    assert cli(["run", str(mlir_file), "--interpret", "--input", str(tmp_path / "a.npy")]) == 1
    assert "missing: arg1" in capsys.readouterr().err
    assert cli(["run", str(mlir_file), "--interpret", "--input",
                str(tmp_path / "missing.npy")]) == 1
    assert "cannot read input" in capsys.readouterr().err
    src = tmp_path / "div.mlir"
    src.write_text("""func.func @main(%a: i32, %b: i32) -> i32 {
  %r = arith.divsi %a, %b : i32
  return %r : i32
}""")
    np.save(tmp_path / "one.npy", np.int32(1))
    np.save(tmp_path / "zero.npy", np.int32(0))
    assert cli(["run", str(src), "--interpret", "--pipeline", "", "--input",
                str(tmp_path / "one.npy"),
                "--input", str(tmp_path / "zero.npy")]) == 1
    err = capsys.readouterr().err
    assert "div.mlir:2:8: error: 'arith.divsi' op integer division by zero" in err


# ---------------------------------------------------------------- differential checking


def test_check_pass_preserves_semantics():
    from strata.testing import check_pass_preserves_semantics
    src = """func.func @f(%a: tensor<4xi32>, %b: i32) -> (tensor<4xi32>, i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %x = arith.addi %b, %c0 : i32
      %y = arith.muli %x, %c1 : i32
      %z = arith.addi %a, %a : tensor<4xi32>
      return %z, %y : tensor<4xi32>, i32
    }"""
    out = check_pass_preserves_semantics(src, "canonicalize,cse", seed=3)
    before, after = out["f"]
    np.testing.assert_array_equal(before[0], after[0])
    inputs = [np.arange(4, dtype=np.int32), np.int32(7)]
    assert check_pass_preserves_semantics(src, ["canonicalize"], inputs=inputs)["f"][1][1] == 7


def test_check_pass_preserves_semantics_catches_a_wrong_pass():
    from strata.passes.pass_manager import Pass
    from strata.passes.registry import register_pass, unregister_pass
    from strata.testing import check_pass_preserves_semantics

    class BreakAddf(Pass):
        """Turns every arith.addf into arith.subf: a wrong 'optimization'."""
        name = "test-break-addf"

        def run(self, op):
            from strata.dialects.arith import SubFOp
            for o in list(op.walk()):
                if o.name == "arith.addf":
                    new = SubFOp.create(o.operands, [o.results[0].type], loc=o.loc)
                    o.parent.insert_before(o, new)
                    o.replace_all_uses_with(new.results)
                    o.erase()

    register_pass(BreakAddf)
    try:
        src = """func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
          %r = arith.addf %a, %b : tensor<3xf32>
          return %r : tensor<3xf32>
        }"""
        with pytest.raises(AssertionError, match="changed what @f computes"):
            check_pass_preserves_semantics(src, "test-break-addf")
    finally:
        unregister_pass("test-break-addf")


def test_an_op_that_does_not_lower_names_its_node_and_the_reason():
    """strata.compile's error for an ONNX op no lowering takes carries the node's name
    and the lowering's reason (the diagnostic's notes), not only "failed to legalize"."""
    pytest.importorskip("onnx")
    from onnx import TensorProto as TP
    from onnx import helper as h
    from strata.passes.pass_manager import PassFailure
    n = h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], pads=[-1, 0, 0, 0],
                    name="pool7")
    g = h.make_graph([n], "g", [h.make_tensor_value_info("x", TP.FLOAT, [1, 1, 4, 4])],
                     [h.make_tensor_value_info("y", TP.FLOAT, None)])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    for target in ("cpu", "interpret"):
        with pytest.raises(PassFailure) as e:
            strata.compile(m, target=target)
        text = str(e.value)
        assert text.startswith('loc("pool7"): error: failed to legalize operation '
                               "'onnx.MaxPool'"), text
        assert "negative pads are not supported" in text, text
