"""The ONNX importer checks every tensor's declared size against its data, and every
declared element type, before ONNX's own C++ code (shape inference, the inliner) sees the
model (see [Note: sizes checked first] in strata/frontends/onnx/tensors.py): a tensor that
declares [2^40] int64 elements over 8 bytes is a clean, located OnnxImportError in a
fraction of a second, without memory; so are unknown element types and a model output
listed twice."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as TP  # noqa: E402
from onnx import helper as h  # noqa: E402

from strata.frontends.onnx import OnnxImportError, import_model  # noqa: E402

BIG = 1 << 40


def vi(name, elem=TP.INT64, shape=None):
    return h.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs=(), outputs=None, inits=(), sparse=(), functions=()):
    g = h.make_graph(nodes, "g", list(inputs), outputs or [vi("Y")], list(inits),
                     sparse_initializer=list(sparse))
    imports = [h.make_opsetid("", 17)] + ([h.make_opsetid("local", 1)] if functions else [])
    return h.make_model(g, opset_imports=imports, functions=list(functions))


def tensor(name="W", dims=(BIG,), dt=TP.INT64, raw=b"\0" * 8):
    t = onnx.TensorProto()
    t.name, t.data_type = name, dt
    t.dims.extend(dims)
    if raw is not None:
        t.raw_data = raw
    return t


def sparse(dims=(BIG,), values=None):
    sp = onnx.SparseTensorProto()
    sp.values.CopyFrom(values if values is not None else tensor("S", (1,)))
    sp.indices.CopyFrom(h.make_tensor("i", TP.INT64, [1], [0]))
    sp.dims.extend(dims)
    return sp


def typed(dims, values, dt=TP.INT64):
    t = tensor(dims=dims, dt=dt, raw=None)
    t.int64_data.extend(values)
    return t


def external(location, **info):
    t = tensor(raw=None)
    t.data_location = TP.EXTERNAL
    for k, v in {"location": location, **info}.items():
        e = t.external_data.add()
        e.key, e.value = k, str(v)
    return t


def _strings():
    t = tensor(dt=TP.STRING, raw=None)
    t.string_data.append(b"a")
    return t


def _if(body_nodes, body_inits=()):
    body = h.make_graph(body_nodes, "b", [], [vi("z")], list(body_inits))
    return [h.make_node("If", ["C"], ["Y"], then_branch=body, else_branch=body)], [
        vi("C", TP.BOOL, [])]


def _local_function():
    f = h.make_function("local", "F", [], ["o"],
                        [h.make_node("Constant", [], ["o"], value=tensor("c"))],
                        [h.make_opsetid("", 17)])
    return model([h.make_node("F", [], ["Y"], domain="local")], functions=[f])


NEEDS = "tensor<1099511627776xi64> needs 8796093022208"

CASES = {
    "initializer": (lambda: model([h.make_node("Identity", ["W"], ["Y"])], inits=[tensor()]),
                    ["initializer 'W'", NEEDS + " bytes, more than a model holds"]),
    "initializer used as a shape": (
        lambda: model([h.make_node("Reshape", ["X", "W"], ["Y"])], [vi("X", shape=[1])],
                      inits=[tensor()]),
        ["initializer 'W'", NEEDS]),
    "initializer of two dims": (
        lambda: model([h.make_node("Identity", ["W"], ["Y"])],
                      inits=[tensor(dims=(1 << 20, 1 << 20))]),
        ["initializer 'W'", "tensor<1048576x1048576xi64> needs 8796093022208 bytes"]),
    "typed values": (lambda: model([h.make_node("Identity", ["W"], ["Y"])],
                                   inits=[typed((BIG,), [1])]),
                     ["initializer 'W'", "tensor has 1 value, tensor<1099511627776xi64> "
                                         "needs 1099511627776"]),
    "small initializer": (lambda: model([h.make_node("Identity", ["W"], ["Y"])],
                                        inits=[tensor(dims=(3,))]),
                          ["initializer 'W'", "tensor has 8 bytes of data, tensor<3xi64> "
                                              "needs 24"]),
    "large initializer, wrong data": (  # (its length is checked when imported)
        lambda: model([h.make_node("Identity", ["W"], ["Y"])], inits=[tensor(dims=(5000,))]),
        ["initializer 'W'", "tensor has 8 bytes of data, tensor<5000xi64> needs 40000"]),
    "Constant": (lambda: model([h.make_node("Constant", [], ["Y"], value=tensor("c"))]),
                 ["node #0 (Constant): attribute 'value'", "tensor has 8 bytes of data, "
                  + NEEDS]),
    "Constant feeding a shape": (
        lambda: model([h.make_node("Constant", [], ["s"], value=tensor("c")),
                       h.make_node("ConstantOfShape", ["s"], ["Y"])]),
        ["node #0 (Constant): attribute 'value'", NEEDS]),
    "ConstantOfShape's value": (
        lambda: model([h.make_node("ConstantOfShape", ["s"], ["Y"], value=tensor("v"))],
                      [vi("s", shape=[1])]),
        ["node #0 (ConstantOfShape): attribute 'value'", NEEDS]),
    "Constant in a subgraph": (
        lambda: model(*_if([h.make_node("Constant", [], ["z"], value=tensor("c"))])),
        ["node #0 (Constant) in graph 'b' of node #0 (If): attribute 'value'", NEEDS]),
    "initializer of a subgraph": (
        lambda: model(*_if([h.make_node("Identity", ["c"], ["z"])], [tensor("c")])),
        ["initializer 'c' in graph 'b' of node #0 (If)", NEEDS]),
    "Constant in a model-local function": (
        _local_function, ["node #0 (Constant) in function 'F' of domain 'local': "
                          "attribute 'value'", NEEDS]),
    "sparse initializer": (
        lambda: model([h.make_node("Identity", ["S"], ["Y"])], sparse=[sparse()]),
        ["initializer 'S'", "sparse tensor of shape [1099511627776] is 8796093022208 bytes "
                            "dense, more than this machine's memory"]),
    "sparse initializer's values": (
        lambda: model([h.make_node("Identity", ["S"], ["Y"])],
                      sparse=[sparse(values=tensor("S"))]),
        ["initializer 'S'", NEEDS]),
    "sparse Constant": (
        lambda: model([h.make_node("Constant", [], ["Y"], sparse_value=sparse())]),
        ["node #0 (Constant): attribute 'sparse_value'", "8796093022208 bytes dense"]),
    "strings": (lambda: model([h.make_node("Identity", ["W"], ["Y"])], outputs=[vi("Y", 8)],
                              inits=[_strings()]),
                ["initializer 'W'", "tensor has 1 strings, tensor<1099511627776x!onnx.String>"
                                    " needs 1099511627776"]),
}


@pytest.fixture
def inference_calls(monkeypatch):
    """The models ONNX's shape inference and inliner were given."""
    import onnx.inliner
    import onnx.shape_inference
    calls = []
    for mod, name in ((onnx.shape_inference, "infer_shapes"),
                      (onnx.inliner, "inline_local_functions")):
        real = getattr(mod, name)

        def spy(m, *a, _real=real, _name=name, **kw):
            calls.append(_name)
            return _real(m, *a, **kw)
        monkeypatch.setattr(mod, name, spy)
    return calls


@pytest.mark.parametrize("case", sorted(CASES))
def test_declared_sizes_are_checked_before_onnx_sees_the_model(case, inference_calls):
    build, fragments = CASES[case]
    start = time.perf_counter()
    with pytest.raises(OnnxImportError) as e:
        import_model(build().SerializeToString())
    assert time.perf_counter() - start < 5
    for f in fragments:
        assert f in str(e.value), str(e.value)
    if case != "large initializer, wrong data":
        assert inference_calls == [], str(e.value)


def test_external_data_is_checked_before_onnx_sees_the_model(tmp_path, inference_calls):
    (tmp_path / "w.bin").write_bytes(b"12345678")
    for t, message in [
            (external("w.bin"), "external data has 8 bytes, the tensor needs 8796093022208"),
            (external("w.bin", length=8), "external data has 8 bytes, the tensor needs"),
            (external("w.bin", offset=4, length=8796093022208), "external data [4, "
                                                                "8796093022212) lies outside"),
            (external("missing.bin"), "cannot read external data file 'missing.bin'")]:
        m = model([h.make_node("Identity", ["W"], ["Y"])], inits=[t])
        with pytest.raises(OnnxImportError, match="initializer 'W'") as e:
            import_model(m.SerializeToString(), base_dir=tmp_path)
        assert message in str(e.value), str(e.value)
    assert inference_calls == []


@pytest.mark.parametrize("build, message", [
    (lambda: model([h.make_node("Identity", ["W"], ["Y"])], inits=[tensor(dims=(1,), dt=999)]),
     "initializer 'W': unknown tensor element type 999"),
    (lambda: model([h.make_node("Identity", ["W"], ["Y"])], inits=[tensor(dims=(1,), dt=0)]),
     "initializer 'W': tensor without an element type"),
    (lambda: model([h.make_node("Identity", ["X"], ["Y"])], [vi("X", 999, [1])]),
     "graph input 'X': unknown tensor element type 999"),
    (lambda: model([h.make_node("Identity", ["X"], ["Y"])], [vi("X", 0, [1])]),
     "graph input 'X': tensor type without an element type"),
    (lambda: model([h.make_node("Identity", ["X"], ["Y"])], [vi("X", shape=[1])],
                   [vi("Y", 999, [1])]),
     "graph output 'Y': unknown tensor element type 999"),
    (lambda: model([h.make_node("Constant", [], ["Y"], value=tensor("c", (1,), 999))]),
     "node #0 (Constant): attribute 'value': unknown tensor element type 999"),
    (lambda: model([h.make_node("Constant", [], ["Y"], value=tensor("c", (1,), 0))]),
     "node #0 (Constant): attribute 'value': tensor without an element type"),
    (lambda: model([h.make_node("Identity", ["X"], ["Y"])],
                   [h.make_tensor_sequence_value_info("X", 999, [1])]),
     "graph input 'X': unknown tensor element type 999"),
    (lambda: model(*_if([h.make_node("Constant", [], ["z"], value=tensor("c", (1,), 999))])),
     "node #0 (Constant) in graph 'b' of node #0 (If): attribute 'value': unknown tensor "
     "element type 999"),
])
def test_unknown_element_types_are_refused(build, message, inference_calls):
    with pytest.raises(OnnxImportError) as e:
        import_model(build().SerializeToString())
    assert message in str(e.value), str(e.value)
    assert inference_calls == []


def test_a_model_output_listed_twice_is_refused(inference_calls):
    m = model([h.make_node("Identity", ["X"], ["Y"])], [vi("X", shape=[1])],
              [vi("Y", shape=[1]), vi("Y", shape=[1])])
    with pytest.raises(OnnxImportError, match="graph output 'Y' is listed twice"):
        import_model(m)
    assert inference_calls == []
    # a subgraph may yield one value twice (its outputs are positional, as in
    # onnxruntime)
    body = h.make_graph([h.make_node("Identity", ["X"], ["z"])], "b", [],
                        [vi("z", shape=[1]), vi("z", shape=[1])])
    m = model([h.make_node("If", ["C"], ["Y", "Y2"], then_branch=body, else_branch=body)],
              [vi("C", TP.BOOL, []), vi("X", shape=[1])], [vi("Y", shape=[1]),
                                                           vi("Y2", shape=[1])])
    import_model(m)


def test_the_2_40_tensor_fails_fast_under_a_memory_limit(tmp_path):
    # In a process allowed 2 GB of address space: onnx's shape inference on the model
    # once wanted 8 GB; now nothing is allocated for the declared size.
    path = tmp_path / "big.onnx"
    onnx.save(CASES["Constant feeding a shape"][0](), path)
    script = textwrap.dedent(f"""
        import resource, time
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        from strata.frontends.onnx import OnnxImportError, import_model
        start = time.perf_counter()
        try:
            import_model({str(path)!r})
        except OnnxImportError as e:
            print("ERR", time.perf_counter() - start, e)
        # this image's peak: VmHWM (ru_maxrss keeps the forking parent's peak across
        # exec on Linux, and a test run that loaded models has it over 1 GB)
        try:
            hwm = [l.split()[1] for l in open("/proc/self/status")
                   if l.startswith("VmHWM:")][0]
        except (OSError, IndexError):
            hwm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("peak KB", hwm)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))] +
        [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0].startswith("ERR") and NEEDS in lines[0], out.stdout + out.stderr[-2000:]
    assert float(lines[0].split()[1]) < 5
    assert int(lines[1].split()[2]) < 1 << 20  # under 1 GB resident
