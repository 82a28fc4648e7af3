"""The `torch.compile` backend: `torch.compile(model, backend="strata")`.

    model = torch.compile(model, backend="strata", dynamic=True,
                          options={"num_threads": 2, "target": "cpu"})
    loss = loss_fn(model(x), y)
    loss.backward()                 # the backward graph runs Strata-compiled code too

The backend is registered under the name "strata" through the `torch_dynamo_backends`
entry point (pyproject.toml), so torch finds it without `import strata`. Dynamo hands it
each FX graph it captured; AOTAutograd (`aot_autograd`, the core ATen decompositions)
splits it into a forward and a backward graph of ATen ops, and `compile_graph` compiles
each: import (strata.frontends.torch.importer.import_graph, [Note: importing a graph
module]) to the torch dialect, then `strata.compile` on the chosen target (the torch
pipeline, convert-torch-to-linalg and the target's own):

    def forward(self, primals_1, primals_2, primals_3, primals_4):    # AOTAutograd's
        permute = torch.ops.aten.permute.default(primals_1, [1, 0])
        addmm = torch.ops.aten.addmm.default(primals_2, primals_4, permute)
        ...
  ->
    func.func @main(%arg0: !torch.vtensor<[8,4],f32>, ..., %arg2: !torch.int,
                    %arg3: !torch.vtensor<[?,4],f32>) -> (...) {
      %1 = torch.aten.permute %arg0, %0 : ... -> !torch.vtensor<[4,8],f32>
      ...

[Note: backend options]
`torch.compile(..., options={...})` reaches the backend as `options`: "target" (a
Strata target name, default "cpu"), "fallback" (default True, see [Note: eager
fallback]) and "symbolic_shapes" (default True: dynamic dims bound to their symbols, so
the lowering knows which dims are one size); every other key is an option of the target
(cpu: "num_threads", "opt_level", "parallel", "tune"...). An unknown key is refused by
the target when the first graph is compiled, with the target's message.

[Note: eager fallback]
A graph Strata cannot compile (an op without a lowering, one the importer does not
take) runs as AOTAutograd traced it, on PyTorch's eager kernels, and the backend warns
once for that graph (a StrataFallbackWarning naming the op, the FX node and the user's
line, the diagnostic's first line). With options={"fallback": False} the failure is
raised instead, as the StrataError (TorchImportError, or the pass's DiagnosticError)
Strata gave. Graph breaks are Dynamo's business: each graph it hands over is compiled
on its own, and only that graph falls back.

[Note: dynamic shapes]
With `dynamic=True` (or torch._dynamo.mark_dynamic, or Dynamo's automatic dynamic
shapes after a second size) the graphs hold symbolic sizes: FakeTensors of shape
`(s33, 4)`, and the sizes themselves as int inputs. Such a graph is compiled once for
every size: the dims are `?` in the imported module, bound to their symbol
(torch.bind_symbolic_shape), and the compiled code reads the size from its inputs.
`COUNTERS` counts the graphs compiled ("forward", "backward", "inference") and those
that fell back ("fallback"), as torch._dynamo.utils.counters does for Dynamo.
"""
from __future__ import annotations

import collections
import warnings

from ...errors import StrataError

__all__ = ["strata_backend", "compile_graph", "decompositions", "StrataFallbackWarning",
           "COUNTERS"]

COUNTERS: collections.Counter = collections.Counter()

_BACKEND_OPTIONS = ("target", "fallback", "symbolic_shapes")


class StrataFallbackWarning(UserWarning):
    """A graph that torch.compile(backend="strata") runs eagerly ([Note: eager
    fallback])."""


def strata_backend(gm, example_inputs, options=None, mode=None):
    """The torch.compile backend "strata": AOTAutograd with Strata as forward and
    backward compiler (see the module docstring and [Note: backend options])."""
    from torch._dynamo.backends.common import aot_autograd
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from ...compiler import DEFAULT_TARGET, get_target
    options = dict(options or {})
    # A wrong target or option is the user's to fix, not a reason to fall back.
    get_target(options.get("target", DEFAULT_TARGET)).with_options(
        **{k: v for k, v in options.items() if k not in _BACKEND_OPTIONS})

    def forward(fx, inputs):
        return compile_graph(fx, inputs, options, "forward")

    def backward(fx, inputs):
        return compile_graph(fx, inputs, options, "backward")

    def inference(fx, inputs):
        return compile_graph(fx, inputs, options, "inference")

    backend = aot_autograd(fw_compiler=forward, bw_compiler=backward,
                           inference_compiler=inference, decompositions=decompositions())
    with sdpa_kernel(SDPBackend.MATH):  # [Note: attention under AOTAutograd]
        return backend(gm, example_inputs)


# [Note: attention under AOTAutograd]
# scaled_dot_product_attention picks a kernel when it runs; while AOTAutograd traces
# the joint graph on the CPU it would pick `_scaled_dot_product_flash_attention_for_cpu`,
# whose core ATen decomposition computes the output but returns the attention weights
# in place of the logsumexp its backward op reads: the gradients of q, k and v came out
# wrong (by ~3 on a TransformerEncoderLayer, with the backward run eagerly too). The
# backend traces with the MATH kernel instead (torch.nn.attention.sdpa_kernel), so
# autograd differentiates the attention's matmuls and softmax, and both graphs hold
# only ops Strata lowers.


def decompositions() -> dict:
    """The decomposition table AOTAutograd traces with: the core ATen opset less the
    ops Strata lowers whole (the table import_program trims, [Note: ops Strata lowers
    whole] in importer.py), the backward ops whose decomposition torch has outside it
    (max_pool2d_with_indices_backward: a scatter_add of the gradient at the forward's
    indices), and nn.TransformerEncoderLayer's fused inference op (_encoder_layer)."""
    import torch
    from torch._decomp import core_aten_decompositions, get_decompositions

    from .importer import without_kept_whole
    table = without_kept_whole(core_aten_decompositions())
    table.update(get_decompositions([torch.ops.aten.max_pool2d_with_indices_backward]))
    table[torch.ops.aten._transformer_encoder_layer_fwd.default] = _encoder_layer
    return table


def _encoder_layer(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
                   proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
                   norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
                   ffn_bias_2, mask=None, mask_type=None):
    """aten._transformer_encoder_layer_fwd (nn.TransformerEncoderLayer's inference fast
    path, which torch decomposes nowhere) in ops of the core opset, as ATen computes it
    (transformer.cpp): attention of one fused qkv projection, residuals and layer norms
    before or after each block. An attention mask falls back (NotImplemented: the op
    stays and the graph runs eagerly)."""
    import torch
    F = torch.nn.functional
    if mask is not None or src.dim() != 3:
        return NotImplemented
    b, n, e = src.shape
    h = num_heads
    d = embed_dim // h

    def norm(x, w, bias):
        return F.layer_norm(x, (embed_dim,), w, bias, eps)

    def attention(x):
        q, k, v = F.linear(x, qkv_weight, qkv_bias).split(embed_dim, dim=-1)
        q, k, v = (t.reshape(b, n, h, d).transpose(1, 2) for t in (q, k, v))
        w = torch.softmax(q @ k.transpose(-2, -1) / (d ** 0.5), dim=-1)
        return F.linear((w @ v).transpose(1, 2).reshape(b, n, e), proj_weight, proj_bias)

    def ffn(x):
        y = F.linear(x, ffn_weight_1, ffn_bias_1)
        y = F.gelu(y) if use_gelu else torch.relu(y)
        return F.linear(y, ffn_weight_2, ffn_bias_2)
    x = src
    if norm_first:
        x = x + attention(norm(x, norm_weight_1, norm_bias_1))
        return x + ffn(norm(x, norm_weight_2, norm_bias_2))
    x = norm(x + attention(x), norm_weight_1, norm_bias_1)
    return norm(x + ffn(x), norm_weight_2, norm_bias_2)


def compile_graph(gm, example_inputs, options=None, kind: str = "inference"):
    """The boxed callable (AOTAutograd's calling convention: one list of inputs) that
    runs the ATen graph `gm` as Strata compiled it; or, when it cannot be compiled and
    options allow, `gm` itself ([Note: eager fallback])."""
    from torch._functorch.aot_autograd import make_boxed_func
    options = dict(options or {})
    fallback = options.pop("fallback", True)
    try:
        run = _compile(gm, example_inputs, options)
    except StrataError as e:
        if not fallback:
            raise
        COUNTERS["fallback"] += 1
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        warnings.warn(f"strata: the {kind} graph runs eagerly: {first}",
                      StrataFallbackWarning, stacklevel=2)
        return make_boxed_func(gm.forward)
    COUNTERS[kind] += 1
    return run


def _compile(gm, example_inputs, options):
    import torch

    from ...compiler import DEFAULT_TARGET
    from ...compiler import compile as strata_compile
    from .importer import import_graph
    target = options.pop("target", DEFAULT_TARGET)
    symbolic = options.pop("symbolic_shapes", True)
    module = import_graph(gm, example_inputs, symbolic_shapes=symbolic)
    compiled = strata_compile(module, target=target, **options)
    # Where each output of the graph comes from: a result of @main, a None (left out
    # of @main, [Note: importing a graph module]) or a size (an int for AOTAutograd).
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    out = out if isinstance(out, (list, tuple)) else [out]
    slots = []
    for a in out:
        if a is None:
            slots.append(None)
            continue
        val = a.meta.get("val") if isinstance(a, torch.fx.Node) else a
        slots.append("bool" if isinstance(val, (bool, torch.SymBool)) else
                     "int" if isinstance(val, (int, torch.SymInt)) else
                     "float" if isinstance(val, (float, torch.SymFloat)) else "tensor")
    single = not isinstance(next(n for n in gm.graph.nodes if n.op == "output").args[0],
                            (list, tuple))

    def run(args):
        values = compiled(*args)
        args.clear()  # the boxed convention: the inputs are ours to free
        results, it = [], iter(values)
        for s in slots:
            if s is None:
                results.append(None)
            elif s == "tensor":
                results.append(next(it))
            else:
                v = next(it)
                v = v.item() if hasattr(v, "item") else v
                results.append({"int": int, "float": float, "bool": bool}[s](v))
        return results[0] if single else results

    run._boxed_call = True
    return run
