"""The cuda target checked without a GPU (issue 19, item 4) on small models: an MLP, a
CNN (convolution, batch norm, pooling, softmax), softmax and layer norm alone.

(a) every PTX the pipeline writes is assembled by ptxas (PyPI nvidia-cuda-nvcc) for
    sm_80 and sm_90;
(b) the pipeline's IR, stopped before a pass, runs in the reference interpreter and
    matches onnxruntime: before convert-gpu-to-nvvm (the outlined kernels and their
    launches: the interpreter runs the gpu dialect, every thread, warp shuffles too),
    and before strata-gpu-rows-to-warps (buffers, fused rows, parallel loops)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

ort = pytest.importorskip("onnxruntime")

import strata  # noqa: E402
from models import cnn, mlp  # noqa: E402
from strata.backends.cuda import ptxas  # noqa: E402
from strata.backends.cuda.target import CudaTarget, compile_ahead  # noqa: E402
from strata.compiler import build_pipeline, load_module, target_pipeline  # noqa: E402


def _single(op, shape, **attrs):
    inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)]
    inits = []
    names = ["input"]
    if op == "LayerNormalization":
        rng = np.random.default_rng(3)
        for n in ("scale", "bias"):
            inits.append(helper.make_tensor(n, TensorProto.FLOAT, [shape[-1]],
                                            rng.standard_normal(shape[-1]).tolist()))
            names.append(n)
    node = helper.make_node(op, names, ["output"], name=f"{op}_0", **attrs)
    g = helper.make_graph([node], op.lower(), inputs,
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, shape)],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


MODELS = {
    "mlp": (mlp, (3, 64)),
    "cnn": (cnn, (1, 3, 16, 16)),
    "softmax": (lambda: _single("Softmax", ["N", 37], axis=-1), (5, 37)),
    "layer_norm": (lambda: _single("LayerNormalization", ["N", 48], axis=-1,
                                   epsilon=1e-5), (4, 48)),
}


@pytest.fixture(scope="module")
def programs():
    return {(name, arch): compile_ahead(build(), arch=arch)
            for name, (build, _) in MODELS.items() for arch in ("sm_80", "sm_90")}


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_ptxas_assembles_every_kernel(programs, name, arch):
    program = programs[(name, arch)]
    assert program.arch == arch and program.ptx
    launched = {m for m, _ in program.kernels}
    assert launched == set(program.ptx)      # every module is launched, and only those
    for module, text in program.ptx.items():
        assert f".target {arch}" in text
        ptxas.check(text, arch, f"{name}/{module}.ptx")


def _interpreted(name, stop):
    build, shape = MODELS[name]
    model = build()
    target = CudaTarget()
    module = load_module(model)
    build_pipeline(list(target_pipeline(target, module))).run(module)
    build_pipeline(",".join(target.passes_before(stop))).run(module)
    from strata.interpreter import Interpreter
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    got = Interpreter(module).call("main", x)[0]
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    ref = sess.run(None, {"input": x})[0]
    return np.asarray(got), ref


@pytest.mark.parametrize("name", ["layer_norm", "softmax"])
def test_mapped_loops_match_onnxruntime(name):
    # (an intermediate stage, on the small models: the interpreter runs these loops one
    # iteration at a time; the outlined kernels below run all threads at once)
    got, ref = _interpreted(name, "strata-gpu-rows-to-warps")
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_outlined_kernels_match_onnxruntime(name):
    got, ref = _interpreted(name, "convert-gpu-to-nvvm")
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


def test_compile_ahead_from_the_command_line(tmp_path, capsys):
    from strata.tools.cli import main
    path = tmp_path / "softmax.onnx"
    path.write_bytes(MODELS["softmax"][0]().SerializeToString())
    out = tmp_path / "kernels"
    assert main(["compile", str(path), "--target", "cuda", "--cuda-arch", "sm_80",
                 "--emit=ptx", "-o", str(out), "--dump-dir", str(tmp_path / "dump")]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files and all(f.endswith(".ptx") for f in files)
    assert ".target sm_80" in (out / files[0]).read_text()
    dumped = sorted(p.name for p in (tmp_path / "dump").iterdir())
    assert any(d.endswith("-gpu-kernel-outlining.mlir") for d in dumped)
    assert sum(d.endswith(".ptx") for d in dumped) == len(files)
    assert main(["compile", str(path), "--target", "cuda", "-o", str(tmp_path / "m.so")]) == 0
    assert (tmp_path / "m.so").exists() and "strata_model_run" in (tmp_path / "m.h").read_text()
    assert main(["compile", str(path), "--target", "cuda", "--emit=asm", "-o", "x.s"]) == 1
    assert "not --emit=asm" in capsys.readouterr().err
    assert main(["compile", str(path), "--cuda-arch", "sm_80", "-o", "x.so"]) == 1
    assert "--cuda-arch needs --target cuda" in capsys.readouterr().err
    assert main(["compile", str(path), "--target", "cuda", "--cuda-arch", "sm_12",
                 "--emit=ptx", "-o", str(out)]) == 1
    assert "unknown CUDA architecture 'sm_12'" in capsys.readouterr().err


def test_unknown_option():
    with pytest.raises(strata.StrataError, match="target 'cuda' has no option 'threads'"):
        strata.compile(mlp(), target="cuda", threads=2)


def _chain():
    nodes = [helper.make_node("Add", ["input", "input"], ["a"], name="add"),
             helper.make_node("Relu", ["a"], ["b"], name="relu"),
             helper.make_node("Mul", ["b", "a"], ["c"], name="mul"),
             helper.make_node("Sigmoid", ["c"], ["output"], name="sigmoid")]
    g = helper.make_graph(nodes, "chain",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 64])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                                         ["N", 64])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


@pytest.mark.parametrize("name,launches", [("chain", 1), ("softmax", 1), ("layer_norm", 1)])
def test_fused_into_one_kernel(programs, name, launches):
    """An elementwise chain is one kernel (linalg-fuse-elementwise-ops); a softmax or a
    layer norm too (strata-linalg-fuse-row-reductions, then a warp per row whose
    reductions are shuffles: strata-gpu-rows-to-warps)."""
    if name != "chain":
        assert "shfl.sync.bfly" in next(iter(programs[(name, "sm_90")].ptx.values()))
    program = compile_ahead(_chain()) if name == "chain" else programs[(name, "sm_90")]
    assert len(program.plans["main"].launches()) == launches


@pytest.mark.parametrize("bad", [0, 16, 100, 2048])
def test_block_size_is_checked(bad):
    with pytest.raises(strata.StrataError, match=f"block_size {bad} is not a multiple of 32"):
        compile_ahead(mlp(), block_size=bad)


def test_block_size_sizes_the_launches():
    program = compile_ahead(MODELS["softmax"][0](), block_size=64)
    launch = program.plans["main"].launches()[0]
    plan = program.plans["main"]
    consts = {s[1]: s[2] for s in plan.steps if s[0] == "const"}
    assert consts[launch.block[0]] == 64


MATH_OPS = ["Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh",
            "Atanh", "Erf", "Exp", "Log", "Sqrt", "Softplus", "Round", "Gelu", "Mish",
            "Sign", "Abs", "HardSwish"]


@pytest.mark.skipif(ptxas.find() is None, reason="ptxas not found: pip install "
                                                 "nvidia-cuda-nvcc (a test dependency)")
@pytest.mark.parametrize("elem", [TensorProto.FLOAT, TensorProto.DOUBLE])
def test_math_ops_assemble(elem):
    """Every elementwise math op of ONNX in one model (one kernel): instructions,
    Strata's polynomials or libdevice, never a function the GPU lacks."""
    nodes, x = [], "input"
    for i, op in enumerate(MATH_OPS + ["Pow", "Mod"]):
        ins = [x, "input"] if op in ("Pow", "Mod") else [x]
        nodes.append(helper.make_node(op, ins, [f"t{i}"], name=op,
                                      **({"fmod": 1} if op == "Mod" else {})))
        x = f"t{i}"
    nodes[-1].output[0] = "output"
    g = helper.make_graph(nodes, "math", [helper.make_tensor_value_info("input", elem,
                                                                        [4, 40])],
                          [helper.make_tensor_value_info("output", elem, [4, 40])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    program = compile_ahead(model)
    assert len(program.ptx) == 1
    for name, text in program.ptx.items():
        ptxas.check(text, "sm_90", f"{name}.ptx")
