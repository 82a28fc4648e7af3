"""One-node ONNX models compiled by strata.compile(target="interpret") and compared with
a referee: onnxruntime, or ONNX's reference evaluator where onnxruntime lacks the op or
the case (used by the onnx-to-linalg family tests)."""
from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

import strata  # noqa: E402

F, F16, I64, I32 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64, TensorProto.INT32
U8, I8 = TensorProto.UINT8, TensorProto.INT8


def model(op, inputs, outputs, opset=19, **attrs):
    """inputs: (name, elem type, shape with None/str dims), (name, array) for an
    initializer, or None for an omitted input; outputs: (name, elem type, shape)."""
    ins, inits, names = [], [], []
    for spec in inputs:
        if spec is None:
            names.append("")
            continue
        if isinstance(spec[1], np.ndarray):
            inits.append(onnx.numpy_helper.from_array(spec[1], spec[0]))
        else:
            ins.append(helper.make_tensor_value_info(*spec))
        names.append(spec[0])
    outs = [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs]
    node = helper.make_node(op, names, [o[0] for o in outputs], **attrs)
    g = helper.make_graph([node], "g", ins, outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def expected(m, args, ref="ort"):
    feeds = {i.name: a for i, a in zip(m.graph.input, args)}
    if ref == "ort":
        ort = pytest.importorskip("onnxruntime")
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(m).run(None, feeds)


def check(m, *args, ref="ort", want=None, rtol=1e-5, atol=1e-5):
    """Compile and run `m` on `args`; compare with `want` or the referee's outputs."""
    got = strata.compile(m, target="interpret")(*args)
    want = expected(m, args, ref) if want is None else want
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol,
                                   atol=atol)
    return got


def rand(*shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def ints(*shape, lo=-128, hi=128, dtype=np.int8, seed=0):
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(dtype)


def c_example(tmp_path, m):
    """`m` compiled into a shared library (`strata compile`) and examples/c/run_model.c
    built against it: a function running the example with its arguments (batch,
    features) -> the finished process. Skips where no C compiler is found."""
    import shutil
    import subprocess
    from pathlib import Path

    from strata.tools.cli import main as cli
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    assert cli(["compile", str(path), "-o", str(tmp_path / "m.so")]) == 0
    example = Path(__file__).resolve().parents[2] / "examples" / "c" / "run_model.c"
    exe = tmp_path / "run_model"
    subprocess.run([cc, "-O2", "-I", str(tmp_path), "-include", "m.h", str(example),
                    str(tmp_path / "m.so"), "-o", str(exe), f"-Wl,-rpath,{tmp_path}"],
                   check=True)
    return lambda *args: subprocess.run([str(exe), *map(str, args)], capture_output=True,
                                        text=True)


# ------------------------------------------------------------------ run-time checks
# Models compiled once per session for the cpu and interpret targets, run with good and
# bad run-time values (the value-check tests of the onnx-to-linalg lowerings).

CHECK_TARGETS = ["cpu", "interpret"]
_COMPILED: dict = {}


def compiled(key, make, target):
    """(make(), strata.compile of it for `target`), once per test session (keys are per
    test module: `make`'s)."""
    k = (make.__module__, key, target)
    if k not in _COMPILED:
        m = make()
        _COMPILED[k] = (m, strata.compile(m, target=target))
    return _COMPILED[k]


def bad(key, make, target, message, *args):
    """Running on `args` fails with `message` (a regex), as the target's error
    (RuntimeFailure from compiled code, InterpreterError from the interpreter); returns
    the compiled function, whose next good run must not be affected."""
    from strata.interpreter.core import InterpreterError
    from strata.runtime import RuntimeFailure
    _, f = compiled(key, make, target)
    with pytest.raises(RuntimeFailure if target == "cpu" else InterpreterError,
                       match=message):
        f(*args)
    return f


def named(op, inputs, outputs, **attrs):
    """`model(...)` with its node named node0 (the name messages must carry)."""
    m = model(op, inputs, outputs, **attrs)
    m.graph.node[0].name = "node0"
    return m
