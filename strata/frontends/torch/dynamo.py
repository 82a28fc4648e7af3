"""The `torch.compile` backend: `torch.compile(model, backend="strata")`.

    model = torch.compile(model, backend="strata", dynamic=True,
                          options={"num_threads": 2, "target": "cpu"})
    loss = loss_fn(model(x), y)
    loss.backward()                 # the backward graph runs Strata-compiled code too

The backend is registered under the name "strata" through the `torch_dynamo_backends`
entry point (pyproject.toml), so torch finds it without `import strata`. Dynamo hands it
each FX graph it captured. An inference graph of static shapes is rewritten to ATen ops
call by call ([Note: rewriting Dynamo's graph] in dynamo_graph.py), else traced to them
by make_fx (or else torch.export), and compiled as strata.compile(ExportedProgram)
compiles a program ([Note: inference graphs exported, not traced by AOTAutograd],
[Note: the pre-dispatch trace]). Any other graph: AOTAutograd (`aot_autograd`, the core ATen
decompositions) splits it into a forward and a backward graph of ATen ops, and
`compile_graph` compiles each: import (strata.frontends.torch.importer.import_graph,
[Note: importing a graph module]) to the torch dialect, then `strata.compile` on the
chosen target (the torch pipeline, convert-torch-to-linalg and the target's own):

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
fallback]), "symbolic_shapes" (default True: dynamic dims bound to their symbols, so
the lowering knows which dims are one size) and "freeze" (default True, see [Note:
frozen parameters]); "cache" and "dump_dir" are strata.compile's (the compiled-model
cache, default on unless $STRATA_CACHE=0; each graph's IR after every pass written to
that folder); every other key is an option of the target (cpu: "num_threads",
"opt_level", "parallel", "tune"...). An unknown key is refused by the target when the
first graph is compiled, with the target's message; "fallback" and "freeze" take a bool.

[Note: frozen parameters]
AOTAutograd hands the backend a module's parameters and buffers as graph inputs (Dynamo
lifts them; in an inference graph they are `arg0_1`...), so as inputs Strata could not
pack the GEMM and convolution filters at compile time (they were packed on every call),
fold the batch norms into the convolutions (torch-fold-batch-norm) or fold constant
work. Inductor's answer is freezing (`torch._inductor.config.freezing`, off by default;
torch/_inductor/freezing.py); this backend freezes by default, because it guards what
it froze:
- Which inputs: only in the inference graph (AOTAutograd's inference path: no output
  requires grad, under torch.no_grad / inference_mode or with parameters that need
  none; training graphs are compiled as before), the inputs Dynamo marked static
  (`fw_metadata.static_input_indices` of the TracingContext: the parameters and buffers
  of nn.Modules) and those AOTAutograd lifted itself (`params_flat`, with Dynamo's
  prepare_freezing), less the ones the graph mutates (a batch norm's running statistics
  in training mode) or an output aliases, as Inductor's replace_params_with_constants
  leaves them. Their real tensors are the backend's example inputs (Dynamo passes the
  module's own tensors), matched to the graph's inputs by position, and only where the
  graph's fake tensor agrees in shape, dtype and device.
- They are imported as weights (import_graph's `constants`: `torch.vtensor.literal`s
  named after the parameter, `fc.weight`), so the torch pipeline externalizes them to
  `ml_program.global`s and the target packs and folds them as on the
  strata.compile(ExportedProgram) path; the compiled function takes the other inputs:

      def forward(self, arg0_1, arg1_1, arg2_1):     # fc.weight, fc.bias, x
          permute = torch.ops.aten.permute.default(arg0_1, [1, 0])
          addmm = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute) ...
    ->
      ml_program.global private @fc.weight(dense_resource<fc.weight> : tensor<3x4xf32>)
      ml_program.global private @fc.bias(dense_resource<fc.bias> : tensor<3xf32>) ...
      func.func @main(%arg0: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,3],f32> {
        %0 = ml_program.global_load_const @fc.weight : tensor<3x4xf32> ...
- The guard: Dynamo still passes every input on every call (it does not guard on
  parameters by default), so each call checks, for each frozen input, that it is the
  same tensor with the same data pointer and version counter (`_version`: every
  in-place write bumps it: `p.add_()`, `optimizer.step()`, `load_state_dict`'s copies;
  `p.data = t` changes the data pointer; a new nn.Parameter is another tensor): three
  C-level reads per frozen tensor, ~0.75 us a tensor on this project's loaded 2-core
  machine (~0.2 ms a call for ResNet-50's 267, well under 1% of its latency;
  Inductor checks nothing). A change never gives a stale answer: the
  first time, the graph is frozen again with the new values (recompiled); if they change
  again, it is recompiled once more with the parameters as inputs, unfrozen for good
  (weights that keep changing are not constants). COUNTERS counts "frozen" graphs,
  "refrozen" and "unfrozen" ones. Tensors without a version counter (inference tensors,
  made under inference_mode) are not frozen.
- options={"freeze": False} compiles inference graphs with the parameters as inputs, as
  before. Frozen weights are copied into the compiled module: the parameters' memory is
  held twice (Inductor's freezing_discard_parameters, which breaks the eager module, is
  not done).

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
import operator
import re
import warnings

from ...errors import StrataError

__all__ = ["strata_backend", "compile_graph", "decompositions", "StrataFallbackWarning",
           "COUNTERS"]

COUNTERS: collections.Counter = collections.Counter()

_BACKEND_OPTIONS = ("target", "fallback", "symbolic_shapes", "freeze", "cache",
                    "dump_dir")


class StrataFallbackWarning(UserWarning):
    """A graph that torch.compile(backend="strata") runs eagerly ([Note: eager
    fallback])."""


def strata_backend(gm, example_inputs, options=None, mode=None):
    """The torch.compile backend "strata": AOTAutograd with Strata as forward and
    backward compiler (see the module docstring and [Note: backend options])."""
    # Dynamo calls it ~50 frames deep: all of it (the trace, AOTAutograd's, the import,
    # strata.compile) on a frame-stack chunk of its own ([Note: frame-stack room],
    # ir/frame_room.py), with the cyclic collector paused ([Note: no collector in the
    # backend])
    from ...ir.frame_room import with_frame_room
    from ...ir.gc_pause import gc_paused
    with gc_paused(promote=True):
        return with_frame_room(_backend, gm, example_inputs, options)


# [Note: no collector in the backend]
# strata.compile runs with the cyclic collector paused ([Note: no collector while
# compiling] in compiler.py); the backend's own work around it allocates as a compile
# does -- the rewrite of Dynamo's graph or make_fx's trace (FX nodes, fake tensors),
# AOTAutograd's joint trace and partition, the import to the torch dialect -- and each
# young collection it triggered scanned what had been made since the last one. The
# whole backend call (and compile_graph, which AOTAutograd calls for a backward graph
# at the first backward, outside the backend) now runs under the same pause: one pause
# from the backend's entry to the compiled callable, the strata.compile inside it
# nested (a nested pause changes nothing), what it made promoted to the oldest
# generation as it ends ([Note: what a pause leaves]). The user's collector state is
# left as found: a collector the user switched off stays off, thresholds and frozen
# objects are not touched, and an exception (fallback=False) switches it back on as a
# return does. Measured (process CPU in gc.callbacks, fresh process, 2-core machine at
# load ~7): a 4-layer Llama's first training step (AOTAutograd's forward, then the
# backward at .backward()) spent 0.36 s collecting inside the backend (158
# collections; 0.41 s in all, of 5.1 s), none with the pause (0.03 s in all, of 4.4
# s); an inference graph on the direct path allocates little outside strata.compile
# (Llama 0.001 s, GPT-2 0.015 s before; the collections of a torch.compile there are
# Dynamo's own trace's, before the backend is called, and young ones). The cost: the
# cyclic garbage of the backend's work (dropped FX graphs and IR) waits for the next
# full collection, and the peak memory of the compile holds it; Inductor pauses
# nothing (Dynamo runs gc.collect(1) after each frame's compile,
# torch._dynamo.config.run_gc_after_compile, which then finds the promoted objects
# out of its reach, as intended).


def _backend(gm, example_inputs, options):
    from torch._dynamo.backends.common import aot_autograd
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from ...compiler import DEFAULT_TARGET, get_target
    options = dict(options or {})
    # A wrong target or option is the user's to fix, not a reason to fall back.
    get_target(options.get("target", DEFAULT_TARGET)).with_options(
        **{k: v for k, v in options.items() if k not in _BACKEND_OPTIONS})
    for key in ("fallback", "freeze"):
        if not isinstance(options.get(key, True), bool):
            raise StrataError(f"torch.compile(backend=\"strata\"): option '{key}' takes "
                              f"True or False, not {options[key]!r}")
    freeze = options.pop("freeze", True)
    real_inputs = list(example_inputs)   # Dynamo's: the module's own tensors
    sources = [_source_name(n) for n in gm.graph.nodes if n.op == "placeholder"]
    direct = _direct_inference(gm, real_inputs, sources, options, freeze)
    if direct is not None:
        return direct

    def forward(fx, inputs):
        return compile_graph(fx, inputs, options, "forward")

    def backward(fx, inputs):
        return compile_graph(fx, inputs, options, "backward")

    def inference(fx, inputs):
        constants = _frozen_inputs(fx, real_inputs, sources) if freeze else {}
        if constants:
            return _FrozenGraph(fx, inputs, options, constants)
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

    from . import training
    from .importer import without_kept_whole
    table = without_kept_whole(core_aten_decompositions())
    table.update(get_decompositions([torch.ops.aten.max_pool2d_with_indices_backward]))
    table.update(training.decompositions())   # [Note: optimizer graphs], training.py
    table[torch.ops.aten._transformer_encoder_layer_fwd.default] = _encoder_layer
    return table


def _encoder_layer(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
                   proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
                   norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
                   ffn_bias_2, mask=None, mask_type=None):
    """aten._transformer_encoder_layer_fwd (nn.TransformerEncoderLayer's inference fast
    path, which torch decomposes nowhere) in ops of the core opset, as ATen computes it
    (transformer.cpp): attention of one fused qkv projection, residuals and layer norms
    before or after each block. A mask is applied as ATen's masked softmax does
    (attention.cpp): a float mask is read as bool (nonzero: masked out, as the module's
    canonical -inf / 0 masks mean), mask_type 1 a (batch, key) padding mask, 0 or a 2-d
    mask one (query, key) mask for every batch and head, 2 a mask per batch and head; a
    row masked whole is all -inf, whose softmax is NaN, as ATen's _masked_softmax gives
    it (so a sequence masked whole is NaN, as eager's fast path; the slow path that
    torch.export traces, scaled_dot_product_attention, gives it zero weights instead)."""
    import torch
    F = torch.nn.functional
    if src.dim() != 3:
        return NotImplemented
    b, n, e = src.shape
    h = num_heads
    d = embed_dim // h
    if mask is not None:
        masked = mask if mask.dtype == torch.bool else mask != 0
        if mask_type == 1 or (mask_type is None and masked.shape == (b, n)):
            masked = masked.view(b, 1, 1, n)
        elif masked.dim() == 3:
            masked = masked.view(b, -1, n, n)

    def norm(x, w, bias):
        return F.layer_norm(x, (embed_dim,), w, bias, eps)

    def attention(x):
        q, k, v = F.linear(x, qkv_weight, qkv_bias).split(embed_dim, dim=-1)
        q, k, v = (t.reshape(b, n, h, d).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / (d ** 0.5)
        if mask is None:
            w = torch.softmax(scores, dim=-1)
        else:
            w = torch.softmax(scores.masked_fill(masked, float("-inf")), dim=-1)
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


def compile_graph(gm, example_inputs, options=None, kind: str = "inference",
                  constants=None):
    """The boxed callable (AOTAutograd's calling convention: one list of inputs) that
    runs the ATen graph `gm` as Strata compiled it; or, when it cannot be compiled and
    options allow, `gm` itself ([Note: eager fallback]), which takes every input. With
    `constants` ({input index: (tensor, name)}, [Note: frozen parameters]) the compiled
    callable takes the other inputs only."""
    from ...ir.gc_pause import gc_paused
    with gc_paused(promote=True):   # [Note: no collector in the backend]
        return _compile_graph(gm, example_inputs, options, kind, constants)[0]


def _compile_graph(gm, example_inputs, options, kind, constants):
    """(compile_graph's callable, whether Strata compiled it: False where it fell back)."""
    from torch._functorch.aot_autograd import make_boxed_func
    options = dict(options or {})
    fallback = options.pop("fallback", True)
    options.pop("freeze", None)
    try:
        run = _compile(gm, example_inputs, options, constants)
    except StrataError as e:
        if not fallback:
            raise
        _warn_fallback(kind, e)
        return make_boxed_func(gm.forward), False
    COUNTERS[kind] += 1
    return run, True


def _warn_fallback(kind, e):
    """Count a graph that runs eagerly and warn once for it ([Note: eager fallback])."""
    COUNTERS["fallback"] += 1
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    warnings.warn(f"strata: the {kind} graph runs eagerly: {first}",
                  StrataFallbackWarning, stacklevel=4)


def _compile(gm, example_inputs, options, constants=None):
    import torch

    from ...compiler import DEFAULT_TARGET
    from ...compiler import _to_torch as to_torch
    from ...compiler import compile as strata_compile
    from ...ir.frame_room import with_frame_room
    from .importer import import_graph
    target = options.pop("target", DEFAULT_TARGET)
    symbolic = options.pop("symbolic_shapes", True)
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    from .training import hoist_random
    # random ops drawn by torch ([Note: random draws by torch's generator], training.py)
    gm, draws = hoist_random(gm, constants or {})
    if draws and example_inputs is not None:
        example_inputs = list(example_inputs) + [None] * len(draws)
    # AOTAutograd calls the compilers under its FakeTensorMode; frozen tensors are read
    # for their data, outside it
    # (a backward graph is compiled at the first backward call, outside the backend:
    # on a frame-stack chunk of its own too, [Note: frame-stack room])
    with unset_fake_temporarily():
        module = with_frame_room(import_graph, gm, example_inputs,
                                 symbolic_shapes=symbolic, constants=constants)
    compiled = strata_compile(module, target=target, cache=options.pop("cache", None),
                              dump_dir=options.pop("dump_dir", None), **options)
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
    views = [k for k, a in enumerate(out) if _view_of_input(torch, a)]
    view_gm = _views_module(torch, gm, views) if views else None
    if view_gm is not None and constants:
        places = sum(1 for n in gm.graph.nodes if n.op == "placeholder")
        given = [i for i in range(places) if i not in constants]

        def all_inputs(args):
            full = [None] * places
            for i, a in zip(given, args):
                full[i] = a
            for i, (t, _) in constants.items():
                full[i] = t
            return full
    else:
        def all_inputs(args):
            return args

    flat = getattr(compiled, "flat", compiled)   # the outputs as a list, not the
                                                 # program's own structure

    def run(args):
        # outputs that are views of inputs: the views themselves ([Note: outputs
        # that view an input])
        drawn = [d(args) for d in draws]     # once: the graph's placeholders last
        seen = view_gm(*all_inputs([*args, *drawn])) if view_gm is not None else None
        values = flat(*args, *drawn)
        args.clear()  # the boxed convention: the inputs are ours to free
        results, it = [], iter(values)
        for s in slots:
            if s is None:
                results.append(None)
            elif s == "tensor":
                v = next(it)
                # a graph of int inputs only (torch.arange(n) of a symbolic size): the
                # compiled model saw no tensor, and gave NumPy arrays
                results.append(v if isinstance(v, torch.Tensor) else to_torch(torch, v))
            else:
                v = next(it)
                v = v.item() if hasattr(v, "item") else v
                results.append({"int": int, "float": float, "bool": bool}[s](v))
        if seen is not None:
            for k, v in zip(views, seen):
                results[k] = v
        return results[0] if single else results

    run._boxed_call = True
    return run


# ------------------------------------------------------------------ direct inference

# [Note: inference graphs exported, not traced by AOTAutograd]
# An inference graph needs none of AOTAutograd's work: no joint graph, no partition, no
# gradients; its metadata pass runs the graph once more under fake tensors, its trace
# decomposes every op the table names (linear, layer_norm, conv2d and the attention
# reach Strata as their pieces, which the lowering then has to match back together).
# Inductor takes AOTAutograd's path for inference too; this backend does not where the
# graph allows: it traces Dynamo's graph once before dispatch (make_fx, [Note: the
# pre-dispatch trace]; else torch.export, non-strict: the same trace, no second
# Dynamo), and compiles it as strata.compile(ExportedProgram) does, with its direct
# import ([Note: importing
# without decomposing] in importer.py: the ops Strata lowers whole stay whole). BERT's
# graph (1 thread, process CPU): AOTAutograd + Strata ~3.9-4.4 s, export + Strata
# ~2.6-3.3 s; the latency is the ep path's.
# The graph goes this way when
# - it is an inference graph: grad mode off, or no input requires grad;
# - every input is a tensor of static shape (a symbolic size, an int input: AOTAutograd's
#   path, which knows Dynamo's symbols), and it has no get_attr (weights Dynamo did not
#   lift to inputs, which the guard of [Note: frozen parameters] could not watch);
# - it returns tensors only, none of them an input or a view of one (AOTAutograd
#   regenerates such outputs as views; Strata's would be copies), and the exported
#   program mutates no input (export would move the write into an output).
# The static inputs (Dynamo's `_dynamo_static_input_type`: the modules' parameters and
# buffers) are frozen as on AOTAutograd's path ([Note: frozen parameters], same guard,
# counters and options): export sees them as buffers of a wrapper module, so they become
# the program's weights. Anything else, or an export or compile that fails, takes
# AOTAutograd's path as before (with its fallback): a graph is never worse off.
# COUNTERS counts the graphs compiled this way as "direct" (and "inference").


def _direct_inference(gm, inputs, sources, options, freeze):
    """The callable Dynamo runs for `gm` compiled through torch.export ([Note: inference
    graphs exported, not traced by AOTAutograd]); None where the graph does not qualify
    or the first compile fails."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor
    if not _direct_eligible(torch, gm, inputs, FakeTensor):
        return None
    places = [n for n in gm.graph.nodes if n.op == "placeholder"]
    constants = {}
    if freeze:
        for i, (t, node) in enumerate(zip(inputs, places)):
            static = (node.meta.get("tensor_dict") or {}).get("_dynamo_static_input_type")
            if static and _freezable(t, t):
                constants[i] = (t, sources[i] or node.name)
    opts = dict(options)
    opts.pop("fallback", None)

    def compile(c):
        run = _compile_direct(gm, inputs, opts, c or {})
        COUNTERS["inference"] += 1
        COUNTERS["direct"] += 1
        return run, True

    try:
        first = compile(constants)
    except (_NotDirect, StrataError):
        return None
    if constants:
        graph = _FrozenGraph(gm, inputs, options, constants,
                             compile=lambda c: _recompile_direct(gm, compile, c),
                             first=first)
    else:
        graph = first[0]
    return lambda *args: graph(list(args))


def _direct_eligible(torch, gm, inputs, FakeTensor) -> bool:
    if torch.is_grad_enabled() and any(getattr(t, "requires_grad", False) for t in inputs):
        return False
    places = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(places) != len(inputs) or any(n.op == "get_attr" for n in gm.graph.nodes):
        return False
    for t, node in zip(inputs, places):
        val = node.meta.get("example_value")
        if type(t) not in (torch.Tensor, torch.nn.Parameter) or isinstance(t, FakeTensor) \
                or not isinstance(val, torch.Tensor) \
                or not all(type(d) is int for d in val.shape):
            return False
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    out = out if isinstance(out, (list, tuple)) else [out]
    if not all(isinstance(a, torch.fx.Node) and isinstance(
            a.meta.get("example_value"), torch.Tensor) for a in out):
        return False
    # the inputs' storages (Dynamo's fake tensors: a view shares its base's): no output
    # in one, no in-place op writing one (torch.export may drop such a write)
    from torch.multiprocessing.reductions import StorageWeakRef

    def storage(node):
        v = node.meta.get("example_value") if isinstance(node, torch.fx.Node) else None
        return StorageWeakRef(v.untyped_storage()) if isinstance(v, torch.Tensor) else None
    held = {storage(n) for n in places}
    if any(storage(a) in held for a in out):
        return False
    return not any(_in_place(n) and n.args and storage(n.args[0]) in held
                   for n in gm.graph.nodes)


_IN_PLACE_OPERATORS = frozenset({
    operator.setitem, operator.iadd, operator.isub, operator.imul, operator.itruediv,
    operator.ifloordiv, operator.imod, operator.ipow, operator.iand, operator.ior,
    operator.ixor, operator.ilshift, operator.irshift, operator.imatmul})
_IN_PLACE_METHODS = frozenset(f"__{f.__name__}__" for f in _IN_PLACE_OPERATORS)


def _in_place(node) -> bool:
    """Whether a Dynamo graph node writes its first argument: `x.mul_(2)`, `x[i] = v`,
    `x += y`, F.relu(x, inplace=True), an `out=`, an ATen op with a mutable schema."""
    if node.op not in ("call_method", "call_function"):
        return False
    if node.kwargs.get("inplace") or "out" in node.kwargs:
        return True
    if node.op == "call_function" and node.target in _IN_PLACE_OPERATORS:
        return True
    schema = getattr(node.target, "_schema", None)
    if schema is not None and schema.is_mutable:
        return True
    name = node.target if node.op == "call_method" else \
        getattr(node.target, "__name__", "")
    return isinstance(name, str) and (
        name.endswith("_") and not name.endswith("__")
        or name in _IN_PLACE_METHODS)


class _NotDirect(Exception):
    """The graph cannot take the direct path (export failed, or its program mutates or
    aliases an input)."""


class _Wrapper:
    """Built on first use: an nn.Module that calls the graph with the frozen tensors as
    its own buffers, at their modules' names (`fc.weight`), so torch.export makes them
    the program's weights under those names."""
    cls = None

    @classmethod
    def make(cls, gm, n, constants):
        import torch
        if cls.cls is None:
            class Frozen(torch.nn.Module):
                def __init__(self, gm, n, constants):
                    super().__init__()
                    self._strata_gm, self.slots = gm, []
                    for i in range(n):
                        t, name = constants.get(i, (None, None))
                        self.slots.append(None if t is None else
                                          _place(self, name, t.detach())
                                          or _place(self, f"frozen_{i}", t.detach()))

                def forward(self, *args):
                    it = iter(args)
                    return self._strata_gm(*[next(it) if a is None else self.get_buffer(a)
                                             for a in self.slots])
            cls.cls = Frozen
        return cls.cls(gm, n, constants)


def _place(root, name, t):
    """Register `t` as a buffer of `root` at the dotted `name`, making the modules on the
    way; its path, or None where the name is taken."""
    import torch
    parts = [re.sub(r"\W", "_", p) or "_" for p in name.split(".")]
    if parts[0] in ("_strata_gm", "slots"):
        return None
    owner = root
    for p in parts[:-1]:
        sub = owner._modules.get(p)
        if sub is None:
            if hasattr(owner, p):
                return None
            sub = torch.nn.Module()
            owner.add_module(p, sub)
        owner = sub
    if hasattr(owner, parts[-1]):
        return None
    owner.register_buffer(parts[-1], t)
    return ".".join(parts)


def _compile_direct(gm, inputs, options, constants):
    """The boxed callable of the inputs not in `constants`: `gm` traced to ATen ops
    ([Note: the pre-dispatch trace]) or else exported around its frozen inputs, and
    compiled by strata.compile. Raises _NotDirect or StrataError."""
    import torch

    from ...compiler import DEFAULT_TARGET
    from ...compiler import compile as strata_compile
    options = dict(options)
    target = options.pop("target", DEFAULT_TARGET)
    options.pop("symbolic_shapes", None)
    model = _pre_dispatch_module(torch, gm, inputs, constants)
    if model is None:
        model = _exported(torch, gm, inputs, constants)
    compiled = strata_compile(model, target=target, cache=options.pop("cache", None),
                              dump_dir=options.pop("dump_dir", None), **options)
    single = not isinstance(next(n for n in gm.graph.nodes if n.op == "output").args[0],
                            (list, tuple))

    flat = getattr(compiled, "flat", compiled)   # the outputs as a list, not the
                                                 # program's own structure

    def run(args):
        values = flat(*args)
        args.clear()  # the boxed convention: the inputs are ours to free
        return values[0] if single else tuple(values)

    run._boxed_call = True
    return run


# [Note: the pre-dispatch trace]
# torch.export of the Dynamo graph (non-strict) was a third of a direct compile's CPU
# (BERT-base, 1 thread: ~1.5 of ~3.8 s; GPT-2 ~2.2 s): besides its trace it fakifies the
# inputs and parameters anew, builds a graph signature, lifts and checks the state and
# runs its verifier and passes. What the import needs is only its trace: `make_fx(gm,
# tracing_mode="fake", pre_dispatch=True)`, the same pre-dispatch tracer export runs,
# gives the same ATen ops (linear, conv2d, layer_norm, scaled_dot_product_attention
# kept whole; the seven models of bench/torch_models.py: the same ops but export's
# `_assert_tensor_metadata` checks) for less (1 thread, process CPU, medians of 4
# interleaved rounds in one process on a loaded machine: GPT-2 trace + import 1.7 s vs
# export 3.7 s, the whole direct compile 0.60x; ResNet-50 2.2 vs 2.2 s, whole 0.86x;
# standalone traces BERT-base 0.8 vs 1.4 s). The trace runs on Dynamo's own fake tensors
# ([Note: traced on Dynamo's fake tensors]). The graph module is then imported as AOTAutograd's graphs are
# (import_graph, [Note: importing a graph module]), with the frozen parameters as its
# `constants` and in-place ops that only rebind a value read as their functional form
# (graph_plan, [Note: importing without decomposing]). Where that trace does not do --
# it fails, a node has no lowering as it is (it needs the core ATen decomposition), a
# call is not an ATen op (`torch._C._set_grad_enabled` of a grad-mode switch inside the
# graph), or an output aliases an input -- the graph is exported as before, and
# strata.compile(ExportedProgram) decomposes what needs it. Before the trace, a graph
# whose calls are all in dynamo_graph.py's table is rewritten to the same ATen graph
# without it ([Note: rewriting Dynamo's graph]); the trace is for the rest.


def _pre_dispatch_module(torch, gm, inputs, constants):
    """`gm` traced to pre-dispatch ATen ops and imported with its frozen `constants`
    ([Note: the pre-dispatch trace]); None where it must be exported instead."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from .importer import graph_plan, import_graph
    fakes, mode = _dynamo_fakes(torch, gm)
    if mode is not None:   # [Note: rewriting Dynamo's graph] (dynamo_graph.py)
        module = _rewritten_module(torch, gm, constants)
        if module is not None:
            return module
    try:
        # outside Dynamo's TracingContext: make_fx would fakify the real inputs in
        # Dynamo's fake mode, whose ShapeEnv makes their sizes symbols (and guards on
        # them); on Dynamo's own fakes (static sizes) it traces in that mode, warm
        # ([Note: traced on Dynamo's fake tensors])
        with warnings.catch_warnings(), torch._guards.tracing(None):
            warnings.simplefilter("ignore")
            if mode is not None:
                with mode:
                    traced = make_fx(gm, tracing_mode="real", pre_dispatch=True)(*fakes)
            else:
                traced = make_fx(gm, tracing_mode="fake", pre_dispatch=True)(*inputs)
    except Exception:  # torch's own failure: the export will say
        return None
    plan = graph_plan(traced.graph, strict=True)
    if plan is None or _aliases_input(torch, traced.graph):
        return None
    return import_graph(traced, symbolic_shapes=False, constants=constants,
                        functional=plan)


def _rewritten_module(torch, gm, constants):
    """`gm` rewritten to ATen ops call by call and imported ([Note: rewriting Dynamo's
    graph] in dynamo_graph.py); None where a call is not in the rewrite's table, or the
    rewritten graph would not import as it is (the trace then decides)."""
    from .dynamo_graph import aten_graph
    from .importer import graph_plan, import_graph
    rewritten = aten_graph(gm)
    if rewritten is None:
        return None
    plan = graph_plan(rewritten.graph, strict=True)
    if plan is None or _aliases_input(torch, rewritten.graph):
        return None
    try:
        module = import_graph(rewritten, symbolic_shapes=False, constants=constants,
                              functional=plan)
    except StrataError:   # the trace's graph may import where this one does not
        return None
    COUNTERS["rewritten"] += 1
    return module


# [Note: traced on Dynamo's fake tensors]
# Dynamo has run the graph once already, on fake tensors of its own FakeTensorMode: each
# placeholder's `example_value`. make_fx(tracing_mode="fake") would make a second fake
# mode and fakify every input anew (ResNet-50's 268 parameters and buffers), and trace
# with that mode's caches cold; traced instead on Dynamo's fakes under Dynamo's mode
# (tracing_mode="real": the fakes are the tensors), the trace reuses what Dynamo's
# propagation computed (its fake-kernel dispatch cache and meta kernels warm). Same ATen
# graph, same node metadata. Measured in fresh processes, 1 thread, process CPU, on
# ResNet-50's Dynamo graph: the first trace of a process 0.53 vs 0.90 s (later ones
# 0.28-0.33 vs 0.34-0.39 s; one run each, loaded machine). Within a whole first call
# (bench/torch_compile_stages.py, after Inductor's compile in the same process) the
# trace stage read 1.51 s before and 1.69 s after, at load 10-15: no gain shown above
# that noise (Dynamo's own stage read 2.8 and 4.6 s in the same two runs). Only the direct path's graphs take it: static sizes (no
# symbol to make, no guard to add to Dynamo's ShapeEnv), every input a plain tensor
# whose fake has its shape, dtype and device; otherwise the real inputs are fakified
# as before.


def _dynamo_fakes(torch, gm):
    """(Dynamo's fake tensor of each input of `gm`, their FakeTensorMode), or (None,
    None) where an input has none or their modes differ ([Note: traced on Dynamo's fake
    tensors])."""
    from torch._subclasses.fake_tensor import FakeTensor
    fakes = [n.meta.get("example_value") for n in gm.graph.nodes if n.op == "placeholder"]
    modes = {id(getattr(f, "fake_mode", None)) for f in fakes}
    if not fakes or len(modes) != 1 or not all(
            isinstance(f, FakeTensor) and all(type(d) is int for d in f.shape)
            for f in fakes):
        return None, None
    return fakes, fakes[0].fake_mode


def _exported(torch, gm, inputs, constants):
    """`gm` exported around its frozen inputs (torch.export.export, non-strict)."""
    args = tuple(t for i, t in enumerate(inputs) if i not in constants)
    module = _Wrapper.make(gm, len(inputs), constants)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ep = torch.export.export(module, args, strict=False)
    except Exception as e:  # torch's own failure: AOTAutograd's path will say
        raise _NotDirect(f"{type(e).__name__}: {e}") from None
    sig = ep.graph_signature
    if sig.buffers_to_mutate or sig.user_inputs_to_mutate or \
            _aliases_input(torch, ep.graph):
        raise _NotDirect("the program mutates or returns an input")
    return ep


def _aliases_input(torch, graph) -> bool:
    """Whether an output of `graph` is an input or a view of one."""
    out = next(n for n in graph.nodes if n.op == "output").args[0]
    return any(_view_of_input(torch, a)
               for a in (out if isinstance(out, (list, tuple)) else [out]))


def _view_of_input(torch, a) -> bool:
    """Whether graph value `a` is an input or a view of one (a chain of ops whose
    schema says their result aliases their first argument: view, permute, slice...)."""
    while isinstance(a, torch.fx.Node) and a.op == "call_function":
        target = a.target
        if target is operator.getitem:
            a = a.args[0]
            continue
        schema = getattr(target, "_schema", None)
        rets = schema.returns if schema is not None else ()
        if not rets or rets[0].alias_info is None or rets[0].alias_info.is_write:
            break
        a = a.args[0]
    return isinstance(a, torch.fx.Node) and a.op == "placeholder"


# [Note: outputs that view an input]
# AOTAutograd gives back an output that is a view of an input (x.narrow(1, 1, n - 1),
# x.t()) as a view of the caller's tensor: it replays the view ops on the input, or,
# where their arguments are symbolic (a dynamic graph), takes `as_strided` of the input
# with the size, strides and storage offset of what the compiled graph returned. Strata
# returns a new contiguous tensor, whose strides and zero offset then read the input
# wrongly (x.narrow(1, 1, s - 1) came back shifted by a row). Such outputs are computed
# as the views they are instead: the graph's nodes that lead to them (view ops and size
# arithmetic only: no data is touched) run eagerly on the inputs, as Inductor's code
# returns them (reinterpret_tensor of the input).


def _views_module(torch, gm, positions):
    """A GraphModule computing only the outputs at `positions` of `gm` (views of its
    inputs: [Note: outputs that view an input]), from all of `gm`'s inputs."""
    graph = torch.fx.Graph()
    mapped = graph.graph_copy(gm.graph, {})
    mapped = mapped if isinstance(mapped, (list, tuple)) else [mapped]
    graph.output(tuple(mapped[k] for k in positions))
    graph.eliminate_dead_code()
    return torch.fx.GraphModule(gm, graph)


def _recompile_direct(gm, compile, constants):
    """A recompile of a direct graph ([Note: frozen parameters]: new values, or none
    frozen); the graph runs eagerly, with a warning, should it fail where it compiled
    before."""
    try:
        return compile(constants)
    except (_NotDirect, StrataError) as e:
        _warn_fallback("inference", e)

        def run(args):
            values = gm(*args)
            args.clear()
            return values
        run._boxed_call = True
        return run, False


# ------------------------------------------------------------------ frozen parameters


def _frozen_inputs(gm, real_inputs, sources) -> dict:
    """{input index of the inference graph `gm`: (tensor, name)}: the inputs [Note:
    frozen parameters] freezes; {} where the TracingContext does not say, or the graph's
    inputs do not match Dynamo's one for one (tensor subclasses, synthetic bases)."""
    import torch
    ctx = torch._guards.TracingContext.try_get()
    meta = getattr(ctx, "fw_metadata", None)
    if meta is None:
        return {}
    lifted = list(ctx.params_flat or [])
    flat = lifted + list(real_inputs)
    names = [None] * len(lifted) + list(sources)
    places = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(flat) != len(places) or len(meta.input_info) != len(places):
        return {}
    static = set(range(len(lifted))) | set(meta.static_input_indices or ())
    aliased = {o.base_idx for o in meta.output_info if o.base_idx is not None}
    frozen = {}
    for i in sorted(static - aliased):
        info, t, fake = meta.input_info[i], flat[i], places[i].meta.get("val")
        if info.mutates_data or info.mutates_metadata or info.mutates_storage_metadata:
            continue
        if _freezable(t, fake):
            frozen[i] = (t, names[i] or places[i].name)
    return frozen


def _freezable(t, fake) -> bool:
    """Whether the real tensor `t` can be frozen for the graph input `fake`: a plain
    dense tensor with a version counter, of the fake's shape, dtype and device."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor
    return type(t) in (torch.Tensor, torch.nn.Parameter) and \
        isinstance(fake, torch.Tensor) and not isinstance(t, FakeTensor) and \
        not t.is_inference() and t.layout == torch.strided and \
        tuple(t.shape) == tuple(fake.shape) and t.dtype == fake.dtype and \
        t.device == fake.device


def _source_name(node) -> str | None:
    """The state name of a Dynamo graph input: `L['self']._modules['fc']._parameters
    ['weight']` -> "fc.weight" (None for an input Dynamo says nothing of)."""
    import re
    arg = node.meta.get("grapharg")
    source = getattr(arg, "source", None)
    try:
        text = source.name if isinstance(getattr(source, "name", None), str) \
            else source.name()
    except Exception:  # a source kind without a name: the placeholder's name will do
        return None
    parts = [a or b for a, b in re.findall(r"\['([^']*)'\]|\.(\w+)", text)]
    parts = [p for p in parts[1:] if p not in ("_modules", "_parameters", "_buffers")]
    return ".".join(parts) or None


class _FrozenGraph:
    """The boxed callable of an inference graph with frozen parameters: checks that
    they are unchanged, then runs the compiled graph on the other inputs ([Note: frozen
    parameters])."""

    __slots__ = ("compile", "inputs", "names", "frozen", "tensors", "versions",
                 "pointers", "pointer_of", "kept", "run", "changes")
    _boxed_call = True

    def __init__(self, gm, inputs, options, constants, compile=None, first=None):
        """`compile(constants)` -> (boxed callable of the inputs left, whether Strata
        compiled it); constants None: none frozen. By default AOTAutograd's graph `gm`
        through compile_graph; `first`: compile(constants)'s result, already made."""
        self.compile = compile or (lambda c: _compile_graph(gm, self.inputs, options,
                                                            "inference", c))
        self.inputs = list(inputs)
        self.names = {i: name for i, (_, name) in constants.items()}
        self.changes = 0
        self._freeze(constants, first)

    def _freeze(self, constants, first=None):
        self.run, compiled = first or self.compile(constants)
        if not compiled:  # it runs eagerly, on every input
            self._unfreeze()
            return
        import torch
        indices = sorted(constants)
        self.pointer_of = torch.Tensor.data_ptr
        self.frozen = _taker(indices)
        self.tensors = tuple(constants[i][0] for i in indices)
        # (the check maps C functions over the tensors: half the time of a Python loop)
        self.versions = list(map(_VERSION, self.tensors))
        self.pointers = list(map(self.pointer_of, self.tensors))
        self.kept = _taker([i for i in range(len(self.inputs)) if i not in constants])
        COUNTERS["frozen"] += 1

    def _unfreeze(self):
        self.frozen = None
        self.kept = _taker(range(len(self.inputs)))

    def __call__(self, args):
        if self.frozen is not None:
            got = self.frozen(args)
            if not (all(map(operator.is_, got, self.tensors))
                    and list(map(_VERSION, got)) == self.versions
                    and list(map(self.pointer_of, got)) == self.pointers):
                self._changed(args)
        kept = list(self.kept(args))
        args.clear()  # the boxed convention: the inputs are ours to free
        return self.run(kept)

    def _changed(self, args):
        """A frozen input changed: freeze the new values the first time, then stop
        freezing this graph ([Note: frozen parameters]); the recompile with the
        collector paused ([Note: no collector in the backend])."""
        from ...ir.gc_pause import gc_paused
        with gc_paused(promote=True):
            self._recompile(args)

    def _recompile(self, args):
        self.changes += 1
        new = {i: (args[i], name) for i, name in self.names.items()}
        if self.changes == 1 and all(_freezable(t, self.inputs[i])
                                     for i, (t, _) in new.items()):
            COUNTERS["refrozen"] += 1
            self._freeze(new)
            return
        COUNTERS["unfrozen"] += 1
        self.run = self.compile(None)[0]
        self._unfreeze()


def _taker(indices):
    """A C-level `args -> tuple(args[i] for i in indices)`."""
    indices = list(indices)
    if len(indices) == 1:
        i = indices[0]
        return lambda args: (args[i],)
    return operator.itemgetter(*indices) if indices else (lambda args: ())


_VERSION = operator.attrgetter("_version")
