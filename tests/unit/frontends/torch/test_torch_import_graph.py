"""strata.frontends.torch.import_graph: an ATen fx.GraphModule (AOTAutograd's, make_fx's)
-> the torch dialect ([Note: importing a graph module] in importer.py)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

torch = pytest.importorskip("torch")
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

from strata.frontends.torch import TorchImportError, import_graph  # noqa: E402

IREE_OPT = shutil.which("iree-opt")


def _text(module) -> str:
    return str(module)


def _iree_accepts(text: str):
    if IREE_OPT is None:
        return
    r = subprocess.run([IREE_OPT, "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_static_graph():
    def f(x, w):
        return torch.relu(x @ w) + 1, x.sum()
    x, w = torch.randn(2, 3), torch.randn(3, 4)
    gm = make_fx(f)(x, w)
    text = _text(import_graph(gm, (x, w)))
    assert "func.func @main(%arg0: !torch.vtensor<[2,3],f32>, %arg1: " \
           "!torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[2,4],f32>, " \
           "!torch.vtensor<[],f32>)" in text, text
    assert "torch.aten.mm" in text and "torch.aten.relu" in text
    _iree_accepts(text)


def test_symbolic_sizes_are_bound_to_their_symbols():
    def f(x):
        return x.reshape(-1) * x.shape[0]
    gm = make_fx(f, tracing_mode="symbolic")(torch.randn(3, 4))
    text = _text(import_graph(gm))
    assert "@main(%arg0: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],f32>" in text, \
        text
    assert text.count("torch.symbolic_int") == 2
    assert "affine_map<()[s0, s1] -> (s0 * s1)>" in text
    _iree_accepts(text)


def test_symbolic_int_inputs_and_none_outputs():
    # what AOTAutograd hands a backend: sizes as int inputs, None for no gradient
    def f(n, x):
        return None, x * 2, None
    gm = make_fx(f, tracing_mode="symbolic")(3, torch.randn(3))
    text = _text(import_graph(gm))
    assert "(%arg0: !torch.int, %arg1: !torch.vtensor<[?],f32>) -> " \
           "!torch.vtensor<[?],f32>" in text, text
    assert "torch.constant.none" not in text


def test_not_a_graph_module():
    with pytest.raises(TorchImportError, match="expected a torch.fx.GraphModule, got int"):
        import_graph(3)


def test_example_inputs_of_another_count():
    gm = make_fx(lambda x: x + 1)(torch.randn(2))
    with pytest.raises(TorchImportError, match="the graph has 1 inputs but 2 example "
                                               "inputs were given"):
        import_graph(gm, (torch.randn(2), torch.randn(2)))


def test_a_graph_of_python_calls_is_refused_naming_the_node():
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x)
    gm = torch.fx.symbolic_trace(M())
    with pytest.raises(TorchImportError, match="node 'relu'"):
        import_graph(gm, (torch.randn(2),))


def test_constants_are_weights_not_arguments():
    # what the torch.compile backend does with the frozen parameters of an inference
    # graph ([Note: frozen parameters] in dynamo.py)
    import numpy as np

    import strata

    def f(w, x, b, scale):
        return torch.relu(x @ w.t() + b) * scale
    w, x, b, scale = torch.randn(4, 3), torch.randn(2, 3), torch.randn(4), torch.tensor(3.0)
    gm = make_fx(f)(w, x, b, scale)
    module = import_graph(gm, constants={0: (w, "fc.weight"), 2: (b, "fc.bias"),
                                         3: (scale, "scale")})
    text = _text(module)
    assert "func.func @main(%arg0: !torch.vtensor<[2,3],f32>) -> " \
           "!torch.vtensor<[2,4],f32>" in text, text
    # (blob names are unique in the process: fc.weight, or fc.weight_1... after others)
    assert re.search(r"dense_resource<fc\.weight(_\d+)?> : tensor<4x3xf32>", text), text
    assert re.search(r"dense_resource<fc\.bias(_\d+)?> : tensor<4xf32>", text), text
    assert "dense<3.000000e+00> : tensor<f32>" in text   # one element: a dense literal
    _iree_accepts(text)
    got = strata.compile(module, cache=False)(x)[0]
    np.testing.assert_allclose(np.asarray(got), f(w, x, b, scale).numpy(), rtol=1e-6,
                               atol=1e-6)


@pytest.mark.parametrize("constants, message",
                         [({2: (torch.randn(2), "w")}, "constant input 2 is not an input "
                                                       "of the graph \\(2 inputs\\)"),
                          ({"w": (torch.randn(2), "w")}, "constant input 'w' is not"),
                          ({1: (3, "w")}, "constant input 1 \\('.*'\\) is a int, not a "
                                          "tensor")])
def test_bad_constants(constants, message):
    gm = make_fx(lambda x, w: x + w)(torch.randn(2), torch.randn(2))
    with pytest.raises(TorchImportError, match=message):
        import_graph(gm, constants=constants)


def test_graph_plan_of_a_pre_dispatch_trace():
    # the torch.compile backend's direct path ([Note: the pre-dispatch trace] in
    # dynamo.py): in-place ops that only rebind a value import as their functional form
    from strata.frontends.torch.importer import graph_plan

    def f(x, w):
        h = torch.nn.functional.linear(x, w)
        h += x
        return torch.relu(h)
    x, w = torch.randn(2, 3), torch.randn(3, 3)
    gm = make_fx(f, tracing_mode="fake", pre_dispatch=True)(x, w)
    plan = graph_plan(gm.graph, strict=True)
    assert [str(n.target) for n in plan] == ["aten.add_.Tensor"]
    assert [str(t) for t in plan.values()] == ["aten.add.Tensor"]
    text = _text(import_graph(gm, functional=plan))
    assert "torch.aten.linear" in text and "torch.aten.add.Tensor" in text
    assert "add_" not in text
    _iree_accepts(text)
    # the trace names the written value by the in-place node (y below is `add_`)...
    def g(x):
        y = x.exp()
        return y.add_(1), y
    gm = make_fx(g, pre_dispatch=True)(x)
    assert len(graph_plan(gm.graph, strict=True)) == 1
    # ...but a view taken before the write sees it: not a rebinding
    def h(x):
        y = x.exp()
        v = y.view(-1)
        y.add_(1)
        return v
    assert graph_plan(make_fx(h, pre_dispatch=True)(x).graph, strict=True) is None


def test_graph_plan_strict_refuses_python_calls():
    # a call that is not an ATen op (a grad-mode switch a pre-dispatch trace records)
    # needs the export: strict plans say so; non-strict ones leave it to the importer
    from strata.frontends.torch.importer import graph_plan
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.call_function(torch._C._set_grad_enabled, (False,))
    graph.output(graph.call_function(torch.ops.aten.relu.default, (x,)))
    assert graph_plan(graph) == {}
    assert graph_plan(graph, strict=True) is None
    # no lowering as it is (group_norm is lowered once decomposed): None either way
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output(graph.call_function(torch.ops.aten.group_norm.default, (x, 2)))
    assert graph_plan(graph) is None and graph_plan(graph, strict=True) is None
