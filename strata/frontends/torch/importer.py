"""torch.export.ExportedProgram -> IR module in the torch dialect: `import_program(ep)`.

[Note: the imported module]
The module is the one torch-mlir's FxImporter builds with
`FxImporter().import_frozen_program(ep, import_symbolic_shape_expressions=True)`: the same
ops, operands, types and constants in the same order (tests/e2e/frontends/torch/
test_torch_import_referee.py compares the two through iree-opt; `symbolic_shapes=False`
gives FxImporter's default, without the symbolic shape ops):

    func.func @main(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,4],f32> {
      %0 = torch.symbolic_int "s77" {min_val = 2, max_val = 64} : !torch.int
      torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 3)>
          : !torch.vtensor<[?,3],f32>
      %1 = torch.vtensor.literal(dense_resource<fc.weight> : tensor<4x3xf32>)
          : !torch.vtensor<[4,3],f32>
      %int1 = torch.constant.int 1
      %int0 = torch.constant.int 0
      %2 = torch.prim.ListConstruct %int1, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
      %3 = torch.aten.permute %1, %2 : !torch.vtensor<[4,3],f32>, !torch.list<int>
          -> !torch.vtensor<[3,4],f32>
      ...
      return %7 : !torch.vtensor<[?,4],f32>
    }

- User inputs (tensors, and the ints/floats/bools export keeps as inputs) are the
  arguments of @main, in the graph's order, each located at its placeholder's name;
  the outputs of the graph (user outputs, then mutated inputs and buffers, as export
  lists them after functionalizing in-place ops) are its results.
- Parameters, buffers and lifted constants are frozen: each use reads a
  `torch.vtensor.literal` emitted just before the op that uses it
  ([Note: tensor literals] in literals.py).
- Each `call_function` node becomes one op, its operands the schema's arguments in order:
  given positionally, by keyword, or the schema's default. A Python literal is a
  `torch.constant.*` op (dtypes, layouts and memory formats as their int codes), a list a
  `torch.prim.ListConstruct`, a scalar given where the schema takes a Tensor a
  `torch.prim.NumToTensor.Scalar`, a bool given for an int or float a `torch.aten.Int.bool` /
  `Float.bool`. Constants are emitted before the op, once per use (as upstream).
- `operator.getitem` of a multi-result op is that result; of a list-valued op one
  `torch.prim.ListUnpack` of the whole list. Arithmetic on symbolic sizes
  (`operator.add(sym_size, 1)`) becomes `torch.aten.add.int` and its kin; torch.sym_float,
  sym_int, sym_max, sym_min and sym_not become `torch.aten.Float.Scalar`,
  `torch.prim.max.int`... (FxImporter stops at these).
- Dynamic dims (torch.export.Dim): one `torch.symbolic_int` per symbol of the program's
  range constraints at the top, then a `torch.bind_symbolic_shape` after every value
  whose shape has a symbolic dim, its dims as an affine map of the symbols.
- Every op carries its FX node's location ([Note: node locations] in locations.py).
- `aten.as_strided` reads the tensor owning the storage through index tensors, as
  FxImporter rewrites it ([Note: as_strided read through its base] in strided_reads.py).

[Note: op names]
An ATen overload `aten::add.Tensor` is the op `torch.aten.add.Tensor` (`aten::relu` with
the default overload is `torch.aten.relu`). Strata's torch dialect has an op for every
schema of the installed torch, torch-mlir's only for a subset (recorded by the dialect's
generator: `strata.dialects.torch.table.in_torch_mlir`): an operator outside that subset
is written as upstream writes it,
`torch.operator "torch.aten._native_batch_norm_legit_no_training"(...)`, so that the
module stays readable by upstream tools. An operator the dialect does not have at all
(a custom op, a namespace it does not cover) is an import error naming the node, but for
the custom operators convert-torch-to-linalg lowers by name (transformers'
`grouped_mm_fallback` of mixtures of experts): those are written as torch-mlir's
FxImporter writes any op it has no registration for,
`torch.operator "torch.transformers.grouped_mm_fallback"(...)`.
A few nodes are rewritten first, as upstream does: `lift_fresh_copy` is a `clone`,
`_local_scalar_dense` an `Int.Tensor` / `Float.Tensor`, `_unsafe_index_put` is its
`hacked_twin`, `_assert_async.msg` is dropped, and `mul/div/add/sub.Tensor` given a
scalar second operand are their `.Scalar` overloads. Python `&` / `|` of symbolic bools
are `aten.__and__.bool` / `__or__.bool`, `torch.sym_ite(c, a, b)` of ints
`a * int(c) + b * (1 - int(c))` (export writes both for a narrow's start from
`.item()`; FxImporter imports neither). The compile paths keep
`_assert_async.msg` (`import_program(..., checks=True)`, and `import_graph`, the
torch.compile path, always): decompositions check what ATen checks with it (one_hot's
"Class values must be non-negative."), and the generated code checks it too ([Note:
torch.export's run-time assertions] in conversion/torch_to_linalg/views.py).

Not imported (a TorchImportError naming the node): higher-order operators (torch.cond,
while_loop...), sparse and quantized tensors, script objects. Where FxImporter fails,
Strata may not: buffers that are not persistent (in `ep.constants`, not the state dict)
and tensors given inside list arguments are imported.
One deliberate difference: a complex dtype given as an argument (`x.to(torch.complex64)`)
is its c10::ScalarType code (complex32 8, complex64 9, complex128 10), as torch and
torch-mlir's own dialect (TorchUpstream.h) number them; FxImporter's Python table writes
complex32 as 9 and complex64 as 10 (and has no complex128), which the dialect reads as
complex64 and complex128: the module would compute in the wrong type
(torch_import_referee_runner.py shows it as `differ` on OpInfo's cfloat and chalf).

Errors (anything the program has that the importer cannot take) raise TorchImportError
naming the FX node and the user's source line; torch is imported only when a program is.
"""
from __future__ import annotations

import math
import operator
import weakref

from ...ir import attributes as A
from ...ir.affine import AffineConstantExpr, AffineMap, AffineMapAttr, AffineSymbolExpr
from ...ir.core import Block
from ...ir.diagnostics import DiagnosticError
from ...ir.location import NameLoc, UnknownLoc
from . import _dialect as D
from .errors import TorchImportError
from .literals import (LAYOUT_CODES, MEMORY_FORMAT_CODES, SCALAR_TYPE_CODES, dtype_info,
                       tensor_literal_attr)
from .locations import node_location, stack_location, user_frame
from .strided_reads import strided_reads

__all__ = ["import_program", "import_graph", "input_mutations", "direct_plan",
           "graph_plan"]

_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1

# aten overloads with a Tensor second operand that FX graphs also call with a scalar.
_TENSOR_TO_SCALAR = {"torch.aten.mul.Tensor": ("mul", "Scalar"),
                     "torch.aten.div.Tensor": ("div", "Scalar"),
                     "torch.aten.add.Tensor": ("add", "Scalar"),
                     "torch.aten.sub.Tensor": ("sub", "Scalar"),
                     "torch.aten.floor_divide": ("floor_divide", "Scalar")}

# Python arithmetic on symbolic scalars -> the aten op family.
_BUILTIN_OPS = {"truediv": "div", "mul": "mul", "add": "add", "sub": "sub", "lt": "lt",
                "le": "le", "ge": "ge", "ne": "ne", "gt": "gt", "mod": "fmod", "eq": "eq",
                "floordiv": "floordiv", "neg": "neg", "and_": "__and__", "or_": "__or__"}

# torch.sym_* functions on scalars -> (namespace, op, {operand kind: overload}).
_SYM_FUNCTIONS = {"sym_float": ("aten", "Float", {"int": "Scalar", "float": "Scalar",
                                                  "bool": "Scalar"}),
                  "sym_int": ("aten", "Int", {"float": "float", "int": "Scalar",
                                              "bool": "bool"}),
                  "sym_max": ("prim", "max", {"int": "int", "float": "float"}),
                  "sym_min": ("prim", "min", {"int": "int", "float": "float"}),
                  "sym_not": ("aten", "__not__", {"bool": "default"})}

# math.trunc / ceil / floor of symbolic numbers -> (namespace, op, overloads)
_ROUNDING = {"trunc": ("aten", "Int", {"float": "float", "int": "Scalar"}),
             "ceil": ("aten", "ceil", {"float": "float", "int": "int"}),
             "floor": ("aten", "floor", {"float": "float", "int": "int"})}

_LIST_ELEMENT_TYPES = {"IntType": "int", "SymIntType": "int", "FloatType": "float",
                       "StringType": "str", "BoolType": "bool", "TensorType": "vtensor"}


class _Unsupported(Exception):
    """Something of one node the importer cannot take (becomes a TorchImportError)."""


def import_program(ep, *, decompose: bool | None = None, symbolic_shapes: bool = True,
                   checks: bool = False, mutable_buffers: bool = False,
                   random_draws: bool = False):
    """Import `ep`, a torch.export.ExportedProgram, as a module whose `func.func @main`
    is in the torch dialect (see [Note: the imported module]).

    `decompose`: True runs `ep.run_decompositions()` to the core ATen opset first, less
    the ops Strata lowers whole ([Note: ops Strata lowers whole]); False imports the
    graph as it is; None (the default) imports it as it is when every op has a lowering
    and in-place ops are only rebindings, else decomposes ([Note: importing without
    decomposing]). `symbolic_shapes` emits `torch.symbolic_int` and
    `torch.bind_symbolic_shape` for dynamic dims. `checks` keeps the `_assert_async.msg`
    nodes that FxImporter drops (the compile paths: [Note: op names]). `mutable_buffers`
    makes each buffer the program writes in place (training-mode batch norm's running
    statistics) a trailing input of @main rather than a frozen literal ([Note: mutated
    inputs written back]; `mutable_state(module)` names them). `random_draws` makes each
    random op (training-mode dropout, rand_like...) read a trailing input that torch's
    generator fills on each call ([Note: random draws in a compiled program];
    `random_draws(module)` gives them). `ep` itself is left unchanged.
    Raises TorchImportError."""
    import torch
    if not isinstance(ep, torch.export.ExportedProgram):
        raise TorchImportError(f"expected a torch.export.ExportedProgram, got "
                               f"{type(ep).__name__} (export a module with "
                               "torch.export.export first)")
    functional = None
    if decompose is None:
        functional = direct_plan(ep)
        decompose = functional is None
    if decompose:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        try:
            with sdpa_kernel(SDPBackend.MATH):  # [Note: attention in run_decompositions]
                ep = ep.run_decompositions(decomposition_table())
        except Exception as e:  # torch's own failure, reported with its message
            raise TorchImportError(f"decomposing the program to the core ATen opset "
                                   f"(ExportedProgram.run_decompositions) failed: "
                                   f"{type(e).__name__}: {e}") from None
    graph, draws = ep.graph, []
    if random_draws:
        graph, draws = _hoist_random(ep)
    importer = _ProgramImporter(ep, symbolic_shapes, functional, mutable_buffers, graph)
    importer.checks = checks
    module = importer.run()
    _record_input_mutations(module, ep, importer.mutable, len(draws))
    if draws:
        _RANDOM_DRAWS[module] = tuple(draws)
    return module


# [Note: random draws in a compiled program]
# strata.compile of a module in training mode (dropout), or of one that calls
# torch.rand_like..., draws its random numbers as torch.compile's backend does ([Note:
# random draws by torch's generator] in training.py, whose `hoist_random` does the
# rewrite): each random op of the (decomposed) program reads a new input,
# `strata_draw_k`, after the user's inputs, and the compiled model fills it on each
# call with the ATen call eager makes (`torch.empty_like(x).bernoulli_(1 - p)` for
# dropout), from torch's generator: so `torch.manual_seed` gives the masks eager
# gives, and a dropout scales by 1/(1 - p) what it keeps. Only strata.compile asks for
# this (`random_draws=True`); `strata import` and a shared library keep the random op,
# which has no lowering (the error names it).

_RANDOM_DRAWS = weakref.WeakKeyDictionary()


def _hoist_random(ep):
    """(graph, [draw(user inputs) -> tensor]) of ExportedProgram `ep` with its random
    ops reading new trailing placeholders ([Note: random draws in a compiled program])."""
    from .training import hoist_random
    places = [n for n in ep.graph.nodes if n.op == "placeholder"]
    users = {getattr(s.arg, "name", None) for s in ep.graph_signature.input_specs
             if s.kind.name == "USER_INPUT"}
    state = {i for i, n in enumerate(places) if n.name not in users}
    gm, draws = hoist_random(ep.graph_module, state)
    return gm.graph, draws


def random_draws(module) -> tuple:
    """The draws (callables: the call's user inputs -> a tensor) of the `strata_draw_k`
    inputs of @main of `module`, in order ([Note: random draws in a compiled
    program]); () when none."""
    return _RANDOM_DRAWS.get(module, ())


# [Note: mutated inputs written back]
# A program that writes one of its inputs in place (`x.mul_(2)` in forward) is exported
# with the write as an extra graph output once functionalized (run_decompositions: an
# output spec USER_INPUT_MUTATION naming the input; the direct import refuses such
# programs, [Note: importing without decomposing]). The imported @main returns the new
# value like any result; `input_mutations(module)` says which results are which inputs'
# new contents, and the compiled model (strata.compiler.TorchCompiledModel) copies each
# into the tensor or array the caller passed, as eager PyTorch and torch-mlir's
# `torch.overwrite.tensor.contents` do, before returning the user outputs only.
# Buffers the program writes (training-mode batch norm's running statistics and
# num_batches_tracked: output specs BUFFER_MUTATION) are frozen literals by default, as
# FxImporter's import_frozen_program has them, and their new values plain results.
# With `import_program(ep, mutable_buffers=True)` (strata.compile of a module or a
# program) each such buffer is instead a trailing input of @main, after the user's
# inputs, named by its placeholder (`b_running_mean`): the compiled model passes the
# buffer's current tensor (`ep.state_dict`, the module's own tensor) on each call and
# writes the new value back into it, like a mutated input; so the statistics update as
# eager's do, call after call, rather than being computed from the compile-time values
# and dropped. `mutable_state(module)` gives those buffers' names in the state dict.

_INPUT_MUTATIONS = weakref.WeakKeyDictionary()
_MUTABLE_STATE = weakref.WeakKeyDictionary()


def _record_input_mutations(module, ep, mutable=(), n_draws=0) -> None:
    sig = ep.graph_signature
    users = [getattr(s.arg, "name", None) for s in sig.input_specs
             if s.kind.name == "USER_INPUT"]
    n_users = len(users)
    state = [target for _, target in mutable]
    found = tuple((i, users.index(s.target)) for i, s in enumerate(sig.output_specs)
                  if s.kind.name == "USER_INPUT_MUTATION" and s.target in users) + \
        tuple((i, n_users + n_draws + state.index(s.target))
              for i, s in enumerate(sig.output_specs)
              if s.kind.name == "BUFFER_MUTATION" and s.target in state)
    if found:
        _INPUT_MUTATIONS[module] = found
    if mutable:
        _MUTABLE_STATE[module] = tuple((node.name, target) for node, target in mutable)


def mutable_state(module) -> tuple:
    """((input name, state dict name), ...): the buffers that are the trailing inputs of
    @main of `module` (imported with mutable_buffers=True) and are written back
    ([Note: mutated inputs written back]); () when none."""
    return _MUTABLE_STATE.get(module, ())


# [Note: input names]
# @main's arguments are the program's user inputs in order; torch.export's signature
# names each (the forward's parameter name, `x`, or `a_0`.. for `*args`, and
# `kwargs_name` for keywords). `name_inputs` writes them as the arguments'
# `strata.name` attribute, which the compiled model's input errors and the shared
# library's header read (interpreter.core.arg_names, as ONNX's `onnx.name`). The
# compile paths call it after importing; `import_program` itself leaves the arguments
# bare, as FxImporter does (the referee compares the two).
INPUT_NAME_ATTR = "strata.name"


def name_inputs(module, ep) -> None:
    """Name @main's arguments after `ep`'s user inputs ([Note: input names])."""
    from ...ir import attributes as A
    names = [getattr(s.arg, "name", None) for s in ep.graph_signature.input_specs
             if s.kind.name == "USER_INPUT"]
    for f in module.regions[0].blocks[0].ops if module.regions else ():
        if f.name != "func.func" or f.properties["sym_name"].value != "main":
            continue
        ftype = f.properties["function_type"].value
        # the user inputs lead; buffers written back and random draws (mutable_buffers,
        # random_draws) follow them unnamed
        if len(ftype.inputs) < len(names) or not all(isinstance(n, str) for n in names):
            return
        old = f.properties.get("arg_attrs")
        attrs = []
        for i in range(len(ftype.inputs)):
            d = dict(old[i].value) if old is not None and i < len(old) else {}
            if i < len(names):
                d[INPUT_NAME_ATTR] = A.StringAttr(names[i])
            attrs.append(A.DictionaryAttr(d))
        f.properties["arg_attrs"] = A.ArrayAttr(attrs)


def input_mutations(module) -> tuple:
    """((result position, user input position), ...): the results of @main of `module`
    (as import_program returned it) that are the new contents of an input the program
    writes in place ([Note: mutated inputs written back]); () when none."""
    return _INPUT_MUTATIONS.get(module, ())


# [Note: importing without decomposing]
# `torch.export.export` gives the "training IR": ATen ops as the model called them,
# composite ones kept (conv2d, batch_norm, layer_norm, dropout, linear,
# scaled_dot_product_attention...), in-place ops not functionalized. Decomposing it
# (run_decompositions: a functionalizing retrace of the whole program) was 30-45% of a
# compile (ResNet-50: 1.43 of 3.19 s of CPU from the program to the first call).
# convert-torch-to-linalg lowers the composite ops of such programs itself
# (conversion/torch_to_linalg/composite.py, to the builders their decompositions
# reach), so `direct_plan` imports the program as it is when
# - every ATen op of the graph has a lowering, and the arguments of the few whose
#   lowering covers one mode only are in it (`_DIRECT_REFUSALS`: batch norm and dropout
#   in training mode, attention with dropout or grouped heads);
# - nothing is mutated but intermediate values an in-place op then replaces: for
#   `y = x.add_(z)` where x is made by an op that is not a view, x has no view, and no
#   use of x comes after the in-place op, `add_` reads as `add` (its value is y, the
#   node, which later uses already name). Mutated inputs or buffers (the signature's
#   mutations), in-place ops on views and `copy_` keep the decomposition, whose
#   functionalization writes them as outputs;
# - no higher-order op (torch.cond...) is in it.
# Otherwise (or when the check itself fails) the program is decomposed as before. The
# imported module then holds the training IR's ops (`torch.aten.conv2d`, ...), not the
# core opset's: the FxImporter referee compares decomposed programs
# (`decompose=True`), which stay the same.


def direct_plan(ep):
    """{node: functional overload} of the in-place nodes to import as their functional
    form, when `ep` can be imported without decomposing ([Note: importing without
    decomposing]); None when it must be decomposed first."""
    sig = ep.graph_signature
    if getattr(sig, "buffers_to_mutate", None) or getattr(sig, "user_inputs_to_mutate",
                                                          None):
        return None
    return graph_plan(ep.graph)


def graph_plan(graph, *, strict: bool = False):
    """direct_plan's check of the nodes of an FX graph of ATen ops (torch.export's
    training IR, or make_fx's pre-dispatch trace of it): {in-place node: functional
    overload}, or None when a node needs the decomposition. `strict`: any call that is
    not an ATen op or `operator.getitem` also needs it (a graph with no signature to
    say what its Python calls are: `torch._C._set_grad_enabled`...)."""
    import torch
    from ...conversion.torch_to_linalg import LOWERINGS, _load_families
    _load_families()
    functional = {}
    order = {n: i for i, n in enumerate(graph.nodes)}
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        target = node.target
        if not isinstance(target, torch._ops.OpOverload):
            if isinstance(target, torch._ops.HigherOrderOperator) or \
                    strict and target is not operator.getitem:
                return None
            continue   # getitem, arithmetic on sizes: the importer's own
        if target in _symbolic_ops():
            continue
        target = _canonical(node)[0]
        if target is None:
            continue
        schema = target._schema
        if schema.is_mutable:
            target = _functional_form(node, target, order, functional)
            if target is None:
                return None
            functional[node] = target
            schema = target._schema
        if _op_name(schema)[len("torch."):] not in LOWERINGS and \
                _op_name(schema)[len("torch."):].removesuffix(".default") not in LOWERINGS:
            return None
        refusal = _DIRECT_REFUSALS.get(schema.name + "." + schema.overload_name)
        if refusal is not None and refusal(node):
            return None
    return functional


def _functional_form(node, target, order, functional):
    """The functional overload that in-place `node` (`target`) is imported as, when the
    value it mutates is only rebound ([Note: importing without decomposing]); else
    None."""
    import torch
    schema = target._schema
    args = schema.arguments
    writes = [i for i, a in enumerate(args) if a.alias_info is not None and
              a.alias_info.is_write]
    if writes != [0] or not node.args or schema.name.startswith("aten::copy_"):
        return None
    base = schema.name.partition("::")[2]
    if not base.endswith("_") or base.endswith("__"):
        return None
    packet = getattr(torch.ops.aten, base[:-1], None)
    overload = getattr(packet, schema.overload_name or "default", None) \
        if packet is not None else None
    if overload is None or overload._schema.is_mutable or \
            len(overload._schema.arguments) != len(args):
        return None
    x = node.args[0]
    if not isinstance(x, torch.fx.Node) or x.op != "call_function" or \
            not isinstance(x.target, torch._ops.OpOverload):
        return None
    if x not in functional and any(r.alias_info is not None
                                   for r in x.target._schema.returns):
        return None   # a view (or an in-place op not rebound): the mutation shows
    for user in x.users:
        if user is node:
            continue
        if order[user] > order[node]:
            return None   # x read after the mutation
        if user.op == "call_function" and isinstance(user.target, torch._ops.OpOverload) \
                and any(r.alias_info is not None for r in user.target._schema.returns):
            return None   # a view of x sees the mutation
    return overload


def _argument(node, i, name, default):
    """Argument `i` (keyword `name`) of call `node`, `default` when not given."""
    if len(node.args) > i:
        return node.args[i]
    return node.kwargs.get(name, default)


def _training(i, name):
    """A refusal: argument `i` (`train` / `training`) is not false."""
    def refuse(node):
        return _argument(node, i, name, True) is not False
    return refuse


def _batch_norm_refusal(node):
    """Batch norm in training mode or without running statistics."""
    return _argument(node, 5, "training", True) is not False or \
        _argument(node, 3, "running_mean", None) is None or \
        _argument(node, 4, "running_var", None) is None


def _sdpa_refusal(node):
    """Attention with dropout or grouped heads ([Note: attention lowered whole] in
    conversion/torch_to_linalg/composite.py)."""
    names = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale",
             "enable_gqa")
    given = dict(zip(names, node.args))
    given.update(node.kwargs)
    return given.get("dropout_p", 0.0) != 0.0 or \
        given.get("enable_gqa", False) is not False


# aten op ("aten::name.overload") -> whether a node of it is outside its lowering's mode
_DIRECT_REFUSALS = {"aten::batch_norm.": _batch_norm_refusal,
                    "aten::dropout.": _training(2, "train"),
                    "aten::feature_dropout.": _training(2, "train"),
                    "aten::alpha_dropout.": _training(2, "train"),
                    "aten::feature_alpha_dropout.": _training(2, "train"),
                    "aten::scaled_dot_product_attention.": _sdpa_refusal}


# [Note: ops Strata lowers whole]
# `import_program` decomposes with torch.export's default table (the core ATen opset)
# less the ops convert-torch-to-linalg lowers itself to the linalg their decomposition
# would reach (torch-mlir's "backend-legal ops", which its `torch-decompose-complex-ops`
# leaves alone). Keeping them whole is cheaper twice: torch retraces fewer nodes in
# run_decompositions (BERT-base: 1066 -> 718 nodes, 2.2 -> 1.7 s of CPU) and Strata
# imports and converts fewer ops. Each kept op's lowering uses the builder its
# decomposition reaches (linear: the matmul of the transposed weight plus the bias, as
# permute + addmm; softmax.int with a dtype: the cast, then the row softmax of _softmax;
# silu: x * sigmoid(x)), so the kernels are the same, or better: a 4-d `matmul` of
# attention meets the batched GEMM as ONNX's MatMul does, reading the transposed key and
# the value in place, where its decomposition (expand + view + bmm) copied them first
# (tests/e2e/test_torch_parity.py). An op joins the list only with a lowering of every
# overload kept and of all its arguments (tests/unit/frontends/torch/test_torch_import.py
# checks the table and runs each kept op against eager).
KEPT_WHOLE = ("linear", "matmul", "softmax.int", "log_softmax.int", "t", "transpose.int",
              "silu", "hardswish", "hardsigmoid", "masked_fill.Scalar",
              "masked_fill.Tensor", "rsub.Scalar", "rsub.Tensor", "clamp_min", "clamp_max",
              "where.ScalarSelf", "where.ScalarOther", "where.Scalar",
              # their decompositions lose ATen's index checks ([Note: negative indices])
              "index_add", "index_copy", "index_fill.int_Scalar",
              "index_fill.int_Tensor", "max_unpool2d", "max_unpool3d")


def decomposition_table():
    """The decomposition table `import_program` runs: torch.export's default one without
    the ops of KEPT_WHOLE ([Note: ops Strata lowers whole])."""
    import torch
    return without_kept_whole(torch.export.default_decompositions())


def without_kept_whole(table):
    """`table` (op -> decomposition) without the ops of KEPT_WHOLE, which Strata lowers
    itself ([Note: ops Strata lowers whole]); the torch.compile backend trims its
    AOTAutograd table with it too."""
    import torch
    for name in KEPT_WHOLE:
        packet, _, overload = name.partition(".")
        table.pop(getattr(getattr(torch.ops.aten, packet), overload or "default"), None)
    return table


# [Note: attention in run_decompositions]
# torch.export keeps `aten.scaled_dot_product_attention` whole, with the strides of the
# fused CPU kernel it would run (`_scaled_dot_product_flash_attention_for_cpu`, whose
# meta function lays the output out like the query: for q = x.view(b, n, h, d).
# transpose(1, 2), as HF's GPT-2 writes it, in (b, n, h, d) order, so that the model's
# later `.transpose(1, 2).reshape(b, n, h * d).view(-1, h * d)` is a view). When
# run_decompositions retraces the graph, the composite op picks that kernel again and
# torch's decomposition of it returns the output laid out (n, b, h, d) instead (it fits
# nn.MultiheadAttention's permute): for a batch of more than one, the reshape is then a
# strided view and the model's `view` fails inside torch ("Cannot view a tensor with
# shape [2, 32, 768] and strides (768, 1536, 1)"). The decomposition runs with the MATH
# kernel selected (torch.nn.attention.sdpa_kernel), so the composite op becomes
# `_scaled_dot_product_attention_math` directly: the same ops that decomposition computes
# (matmuls, softmax), a contiguous output, and the reshape a copy where it must be one.
# The torch.compile backend traces with the same choice for its own reason ([Note:
# attention under AOTAutograd] in dynamo.py).


def _is_symbolic(x) -> bool:
    import torch
    return isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool))


def _op_name(schema) -> str:
    ns, _, name = schema.name.partition("::")
    return f"torch.{ns}.{name}" + (f".{schema.overload_name}" if schema.overload_name else "")


def _lowered_custom_op(name: str) -> bool:
    """A custom operator Strata lowers by its qualified name (transformers'
    `grouped_mm_fallback`: [Note: op names])."""
    from ...conversion.torch_to_linalg import lowers
    return lowers(name[len("torch."):])


def describe(node) -> str:
    """`node 'add_1' (aten.add.Tensor)` for FX node `node`."""
    schema = getattr(node.target, "_schema", None)
    if schema is not None:
        what = schema.name.replace("::", ".") + (f".{schema.overload_name}"
                                                 if schema.overload_name else "")
    elif node.op == "call_function":
        what = getattr(node.target, "__name__", None) or str(node.target)
    else:
        what = node.op
    return f"node '{node.name}' ({what})"


class _ProgramImporter:
    """One ExportedProgram -> module. Node values live in `values` under (node, result);
    parameters, buffers and constants in `state` under their placeholder node."""

    checks = False   # keep `_assert_async.msg` ([Note: op names])

    def __init__(self, ep, symbolic_shapes: bool, functional=None, mutable_buffers=False,
                 graph=None):
        self.ep = ep
        self.mutable_buffers = mutable_buffers
        self.mutable: list = []     # [(placeholder, state name)]: buffers made inputs
        self.functional = functional or {}   # in-place node -> its functional overload
        self.graph = graph if graph is not None else ep.graph
        self.symbolic_shapes = symbolic_shapes
        self.values: dict = {}
        self.multi_result: set = set()
        self.unpacked: dict = {}
        self.state: dict = {}       # placeholder node -> (tensor, state name)
        self.literals: dict = {}    # id(tensor) -> (tensor, attribute)
        self.symbols: dict = {}     # sympy symbol name -> torch.symbolic_int value
        self.strided: dict = {}     # as_strided node -> (base node, index tensors)
        self.block = None
        self.loc = UnknownLoc()

    # ------------------------------------------------------------ the program

    def run(self):
        from ...dialects.builtin import ModuleOp
        from ...dialects.func import FuncOp, ReturnOp
        graph = self.graph
        self._bind_state()
        inputs = [n for n in graph.nodes if n.op == "placeholder" and n not in self.state
                  and n not in dict(self.mutable)] + [n for n, _ in self.mutable]
        arg_types = []
        for n in inputs:
            try:
                arg_types.append(self.node_type(n))
            except _Unsupported as e:
                raise self.error(n, f"input of an unsupported kind: {e}") from None
        self.block = Block(arg_types, [NameLoc(n.name) for n in inputs])
        for n, arg in zip(inputs, self.block.args):
            self.values[(n, 0)] = arg
        func_loc = next((loc for loc in (stack_location(n.meta.get("stack_trace"))
                                         for n in graph.nodes) if loc is not None),
                        UnknownLoc())
        func = FuncOp.new("main", A.FunctionType(arg_types, []), loc=func_loc, body=False)
        func.regions[0].add_block(self.block)
        module = ModuleOp.new()
        module.block.append(func)
        if self.symbolic_shapes:
            self._symbolic_ints()
        # [Note: as_strided read through its base] (strided_reads.py)
        self.strided, dead = strided_reads(graph)
        results = None
        for node in graph.nodes:
            if node in dead:
                continue
            self.loc = node_location(node)
            try:
                if node.op == "output":
                    results = self._outputs(node)
                    self.emit_op(ReturnOp.build(loc=self.loc, operands_=results))
                    continue
                if node.op == "call_function":
                    self._call(node)
                elif node.op not in ("placeholder", "get_attr"):
                    raise _Unsupported(f"FX nodes of kind '{node.op}' cannot be imported")
                if self.symbolic_shapes and node not in self.state:
                    self._bind_symbolic_shape(node)
            except TorchImportError:
                raise
            except _Unsupported as e:
                raise self.error(node, str(e)) from None
            except Exception as e:  # a malformed node; never a traceback for the user
                raise self.error(node, f"cannot import it ({type(e).__name__}: {e})") \
                    from None
        if results is None:
            raise TorchImportError("the program's graph has no output node")
        func.properties["function_type"] = A.TypeAttr(
            A.FunctionType(arg_types, [v.type for v in results]))
        try:
            module.verify()
        except DiagnosticError as e:
            raise self._verify_error(e) from None
        return module

    def _verify_error(self, e) -> TorchImportError:
        """The import error for a verifier failure: it names the node of the failing op."""
        op = getattr(e.diag, "op", None)
        loc = getattr(op, "loc", None)
        msg = e.diag.message
        if isinstance(loc, NameLoc):
            node = next((n for n in self.graph.nodes if n.name == loc.name), None)
            if node is not None:
                return self.error(node, f"the imported op does not verify: {msg}")
        return TorchImportError(f"the imported module does not verify: {msg}")

    def error(self, node, detail: str) -> TorchImportError:
        frame = user_frame(node_location(node))
        where = f"{frame.filename}:{frame.line}" if frame is not None else None
        return TorchImportError(detail, describe(node), where)

    def _bind_state(self):
        """Placeholders of parameters, buffers and lifted constants -> their tensors."""
        ep, sig = self.ep, self.ep.graph_signature
        constants = getattr(ep, "constants", {}) or {}
        state_dict = ep.state_dict
        by_name = {n.name: n for n in self.graph.nodes if n.op == "placeholder"}
        mutated = set(getattr(sig, "buffers_to_mutate", {}).values()) \
            if self.mutable_buffers else set()
        for kind, mapping in (("lifted constant", sig.inputs_to_lifted_tensor_constants),
                              ("buffer", sig.inputs_to_buffers),
                              ("parameter", sig.inputs_to_parameters)):
            for input_name, target in mapping.items():
                value = state_dict.get(target)
                if value is None:
                    value = constants.get(target)
                if value is None:
                    raise TorchImportError(f"the program has no value for {kind} '{target}'")
                if kind == "buffer" and target in mutated:
                    self.mutable.append((by_name[input_name], target))
                    continue
                self.state[by_name[input_name]] = (value, target)
        objs = getattr(sig, "inputs_to_lifted_custom_objs", {}) or {}
        if objs:
            raise TorchImportError(f"the program takes script objects "
                                   f"({', '.join(sorted(objs.values()))}), which cannot be "
                                   "imported")

    def _outputs(self, node) -> list:
        out = node.args[0]
        items = out if isinstance(out, (list, tuple)) else [out]
        return [self.argument(a) for a in items]

    # ------------------------------------------------------------ emitting

    def emit(self, name: str, operands=(), result_types=(), properties=None):
        return self.emit_op(D.create_op(name, operands, result_types, properties, self.loc))

    def emit_op(self, op):
        self.block.append(op)
        return op

    # ------------------------------------------------------------ types

    def vtensor_type(self, shape, dtype):
        info = dtype_info(dtype)
        if info is None:
            raise _Unsupported(f"tensors of dtype {dtype} are not supported")
        return D.vtensor([-1 if _is_symbolic(d) else int(d) for d in shape], info[0])

    def value_type(self, val):
        """The IR type of an FX value (a node's meta["val"], or a Python constant)."""
        import torch
        if isinstance(val, torch.Tensor):
            if val.layout != torch.strided:
                raise _Unsupported(f"{val.layout} tensors are not supported")
            if val.is_quantized:
                raise _Unsupported("quantized tensors are not supported")
            return self.vtensor_type(val.shape, val.dtype)
        if isinstance(val, (list, tuple)) and all(isinstance(x, torch.Tensor) for x in val):
            return D.type_of("!torch.list<vtensor>")
        if isinstance(val, (bool, torch.SymBool)):
            return D.type_of("!torch.bool")
        if isinstance(val, (int, torch.SymInt)):
            return D.type_of("!torch.int")
        if isinstance(val, (float, torch.SymFloat)):
            return D.type_of("!torch.float")
        if isinstance(val, str):
            return D.type_of("!torch.str")
        if val is None:
            return D.type_of("!torch.none")
        raise _Unsupported(f"values of type {type(val).__name__} are not supported")

    def node_type(self, node):
        if "val" not in node.meta:
            raise _Unsupported("the node has no value metadata (meta['val'])")
        return self.value_type(node.meta["val"])

    # ------------------------------------------------------------ values

    def node_value(self, node, index: int = 0):
        v = self.values.get((node, index))
        if v is not None:
            return v
        if node in self.state:
            tensor, name = self.state[node]
            return self.tensor_literal(tensor, name)
        if node.op == "get_attr":
            obj = node.graph.owning_module
            for part in node.target.split("."):
                if not hasattr(obj, part):
                    raise _Unsupported(f"the module has no attribute '{node.target}'")
                obj = getattr(obj, part)
            v = self.values[(node, 0)] = self.literal(obj)
            return v
        raise _Unsupported(f"'{node.name}' is used before it is defined")

    def argument(self, arg, jit_type=None):
        """The value of FX argument `arg` for a schema argument of type `jit_type`."""
        import torch
        import torch.fx
        if isinstance(arg, torch.fx.Node):
            if arg in self.multi_result:
                raise _Unsupported(f"'{arg.name}' has several results: it is used only "
                                   "through getitem")
            v = self.node_value(arg)
        elif isinstance(arg, _Value):
            v = arg.value
        elif isinstance(arg, (list, tuple)):
            v = self.list_argument(arg, jit_type)
        elif type(jit_type).__name__ == "TensorType" and not isinstance(arg, torch.Tensor):
            v = self.scalar_tensor(arg)
        else:
            v = self.literal(arg)
        return self.convert_bool(v, jit_type)

    def convert_bool(self, v, jit_type):
        """A `!torch.bool` given where the schema takes a float or an int (or number)."""
        if jit_type is None or v.type is not D.type_of("!torch.bool"):
            return v
        kind = type(jit_type).__name__
        if kind == "FloatType":
            return self.emit("torch.aten.Float.bool", [v],
                             [D.type_of("!torch.float")]).results[0]
        if kind in ("IntType", "SymIntType", "NumberType"):
            return self.emit("torch.aten.Int.bool", [v], [D.type_of("!torch.int")]).results[0]
        return v

    def scalar_tensor(self, arg):
        """A Python scalar where the schema takes a Tensor: a 0-d tensor of its value."""
        import torch
        try:
            dtype = torch.tensor(arg).dtype
        except (TypeError, RuntimeError, OverflowError) as e:
            raise _Unsupported(f"cannot make a tensor of {arg!r}: {e}") from None
        t = self.vtensor_type((), dtype)
        return self.emit("torch.prim.NumToTensor.Scalar", [self.literal(arg)], [t]).results[0]

    def list_argument(self, items, jit_type):
        """`torch.prim.ListConstruct` of the elements of a list argument."""
        import torch
        import torch.fx
        optional = False
        if jit_type is None:
            first = items[0] if items else None
            kind = "vtensor" if isinstance(first, torch.fx.Node) and isinstance(
                first.meta.get("val"), torch.Tensor) else \
                {bool: "bool", int: "int", float: "float", str: "str"}.get(type(first))
            if kind is None:
                raise _Unsupported(f"a list of {type(first).__name__} cannot be imported")
        else:
            elem = jit_type.getElementType()
            if type(elem).__name__ == "ListType":  # Optional[List[T]]
                elem = elem.getElementType()
            if type(elem).__name__ == "OptionalType":
                optional, elem = True, elem.getElementType()
            kind = _LIST_ELEMENT_TYPES.get(type(elem).__name__)
            if kind is None:
                raise _Unsupported(f"lists of {elem} cannot be imported")
        elem_type = D.type_of(f"!torch.{kind}")
        values = []
        for x in items:
            if isinstance(x, torch.fx.Node):
                v = self.node_value(x)
            elif x is None and optional:
                values.append(self.literal(None))
                continue
            elif isinstance(x, torch.Tensor) and kind == "vtensor":
                v = self.tensor_literal(x, None)
            elif kind != "vtensor" and type(x) is {"int": int, "float": float, "str": str,
                                                   "bool": bool}[kind]:
                v = self.literal(x)
            else:
                raise _Unsupported(f"a list of {kind} holds {x!r}")
            if v.type is not elem_type and not (kind == "vtensor" and _is_vtensor(v.type)):
                raise _Unsupported(f"a list of {kind} holds a value of type {v.type}")
            values.append(v)
        inner = f"optional<{kind}>" if optional else kind
        return self.emit("torch.prim.ListConstruct", values,
                         [D.type_of(f"!torch.list<{inner}>")]).results[0]

    def literal(self, value):
        """A Python constant as a `torch.constant.*` op (a tensor as a literal)."""
        import torch
        if value is None:
            return self._constant("torch.constant.none", "!torch.none")
        if isinstance(value, bool):
            return self._constant("torch.constant.bool", "!torch.bool", A.BoolAttr(value))
        if isinstance(value, int):
            if not _I64_MIN <= value <= _I64_MAX:
                raise _Unsupported(f"the integer {value} does not fit in 64 bits")
            return self._constant("torch.constant.int", "!torch.int", A.IntegerAttr(value, A.i64))
        if isinstance(value, float):
            return self._constant("torch.constant.float", "!torch.float",
                                  A.FloatAttr(value, A.f64))
        if isinstance(value, str):
            return self._constant("torch.constant.str", "!torch.str", A.StringAttr(value))
        if isinstance(value, torch.device):
            return self._constant("torch.constant.device", "!torch.Device",
                                  A.StringAttr(str(value)))
        for kind, codes in ((torch.dtype, SCALAR_TYPE_CODES), (torch.layout, LAYOUT_CODES),
                            (torch.memory_format, MEMORY_FORMAT_CODES)):
            if isinstance(value, kind):
                code = codes.get(str(value).rpartition(".")[2])
                if code is None:
                    raise _Unsupported(f"{value} is not supported")
                return self.literal(code)
        if isinstance(value, torch.Tensor):
            return self.tensor_literal(value, None)
        raise _Unsupported(f"constants of type {type(value).__name__} ({value!r}) cannot be "
                           "imported")

    def _constant(self, name, type_text, value=None):
        props = {"value": value} if value is not None else None
        return self.emit(name, (), [D.type_of(type_text)], props).results[0]

    def tensor_literal(self, tensor, name):
        """`torch.vtensor.literal` of a concrete tensor ([Note: tensor literals])."""
        import torch
        if tensor.layout != torch.strided or tensor.is_quantized:
            raise _Unsupported(f"constant tensors of layout {tensor.layout} cannot be imported")
        if isinstance(tensor, torch._subclasses.FakeTensor) or tensor.is_meta:
            raise _Unsupported("a constant tensor has no data (a fake or meta tensor)")
        is_bool = tensor.dtype == torch.bool
        stored = tensor.to(torch.uint8) if is_bool else tensor
        entry = self.literals.get(id(tensor))
        if entry is None or entry[0] is not tensor:
            info = dtype_info(stored.dtype)
            if info is None:
                raise _Unsupported(f"constant tensors of dtype {tensor.dtype} are not "
                                   "supported")
            attr = tensor_literal_attr(stored, info[0], name)
            entry = self.literals[id(tensor)] = (tensor, attr)
        attr = entry[1]
        v = self.emit("torch.vtensor.literal", (), [self.vtensor_type(tensor.shape,
                                                                      stored.dtype)],
                      {"value": attr}).results[0]
        if is_bool:
            code = self.literal(SCALAR_TYPE_CODES["bool"])
            v = self.emit("torch.prims.convert_element_type", [v, code],
                          [self.vtensor_type(tensor.shape, torch.bool)]).results[0]
        return v

    # ------------------------------------------------------------ call_function nodes

    def _call(self, node):
        import torch
        target = node.target
        if target is operator.getitem:
            return self._getitem(node)
        if node in self.strided:
            base, coordinates = self.strided[node]
            return self._overload(node, torch.ops.aten.index.Tensor,
                                  (base, list(coordinates)), {})
        if isinstance(target, torch._ops.OpOverload):
            if node in self.functional:  # [Note: importing without decomposing]
                return self._overload(node, self.functional[node], node.args, node.kwargs)
            if target in _symbolic_ops():
                return self._overload(node, _symbolic_ops()[target], node.args, node.kwargs)
            return self._overload(node, *_canonical(node, self.checks))
        if _is_symbolic(node.meta.get("val")) and type(target).__name__ in (
                "builtin_function_or_method",):
            return self._builtin(node)
        sym = _SYM_FUNCTIONS.get(getattr(target, "__name__", None))
        if sym is not None and getattr(target, "__module__", "").startswith("torch"):
            return self._sym_function(node, sym)
        if getattr(target, "__name__", None) == "sym_ite" and \
                getattr(target, "__module__", "").startswith("torch"):
            return self._sym_ite(node)
        if isinstance(target, torch._ops.HigherOrderOperator):
            raise _Unsupported(f"higher-order operator '{target.name()}' cannot be imported")
        raise _Unsupported(f"calls of {getattr(target, '__name__', target)!s} cannot be "
                           "imported (not an ATen operator)")

    def _overload(self, node, target, args, kwargs):
        import torch
        if target is None:
            return  # dropped ([Note: op names])
        schema = target._schema
        name = _op_name(schema)
        swap = _TENSOR_TO_SCALAR.get(name)
        if swap is not None and len(args) > 1 and _is_scalar_arg(args[1]):
            packet, overload = swap
            schema = getattr(getattr(torch.ops.aten, packet), overload)._schema
            name = _op_name(schema)
        custom = not name.startswith(("torch.aten.", "torch.prims.", "torch.prim."))
        if not D.known_op(name) and not (custom and _lowered_custom_op(name)):
            raise _Unsupported(f"the torch dialect has no op '{name}'"
                               + (" (custom operators are not supported)" if custom
                                  else ""))
        n = len(schema.returns)
        if n == 1:
            result_types = [self.node_type(node)]
        elif n == 0:
            result_types = []
        else:
            result_types = [self.value_type(v) for v in node.meta["val"]]
            self.multi_result.add(node)
        operands = []
        for i, param in enumerate(schema.arguments):
            if i < len(args):
                operands.append(self.argument(args[i], param.type))
            elif param.name in kwargs:
                operands.append(self.argument(kwargs[param.name], param.type))
            elif param.has_default_value():
                operands.append(self.default(param.default_value, param.type))
            else:
                raise _Unsupported(f"argument '{param.name}' of {schema.name} is not given")
        if D.known_op(name) and D.in_torch_mlir(name):
            op = self.emit(name, operands, result_types)
        else:
            op = self.emit("torch.operator", operands, result_types,
                           {"name": A.StringAttr(name)})
        for i, r in enumerate(op.results):
            self.values[(node, i)] = r

    def default(self, value, jit_type):
        if isinstance(value, (list, tuple)):
            return self.list_argument(value, jit_type)
        return self.literal(value)

    def _builtin(self, node):
        """Python arithmetic on symbolic scalars: `operator.add(s, 1)` -> aten.add.int."""
        import torch
        import torch.fx
        if node.target.__name__ in _ROUNDING:
            # math.trunc / ceil / floor of a symbolic float (Dynamo's graph of
            # interpolate by a fractional scale: TruncToInt(1.5*s0); x[:, :ceil(s / 3)]):
            # aten.Int.float, aten.ceil.float, aten.floor.float
            return self._sym_function(node, _ROUNDING[node.target.__name__])
        fam = _BUILTIN_OPS.get(node.target.__name__)
        if fam is None:
            raise _Unsupported(f"'{node.target.__name__}' on symbolic values cannot be "
                               "imported")

        def pytype(a):
            return a.meta["val"].node.pytype if isinstance(a, torch.fx.Node) else type(a)
        args = list(node.args)
        is_int = [pytype(a) is int for a in args]
        if fam in ("__and__", "__or__"):
            if not all(pytype(a) is bool for a in args):
                raise _Unsupported(f"'{node.target.__name__}' of symbolic ints cannot be "
                                   "imported")
            overload = "bool"   # conditions of torch.export's run-time assertions
        elif all(is_int):
            overload = "int"
        elif any(is_int) and fam in ("add", "lt", "ge", "ne", "gt"):
            overload = "float_int"
            if pytype(args[1]) is float:
                args = [args[1], args[0]]
        elif any(is_int):
            overload = "float"
            for i, a in enumerate(args):
                if is_int[i]:
                    args[i] = (self._as_float(a) if isinstance(a, torch.fx.Node)
                               else float(a))
        else:
            overload = "float"
        packet = getattr(torch.ops.aten, fam)
        if overload not in packet.overloads():
            raise _Unsupported(f"aten.{fam} has no '{overload}' overload for these operands")
        self._overload(node, getattr(packet, overload), tuple(args), {})

    def _sym_function(self, node, family):
        """torch.sym_float / sym_int / sym_max / sym_min / sym_not on scalars: the aten
        or prim op of the operands' kind (FxImporter has none of these)."""
        import torch
        import torch.fx

        def kind(a):
            v = a.meta.get("val") if isinstance(a, torch.fx.Node) else a
            return "bool" if isinstance(v, (bool, torch.SymBool)) else \
                "int" if isinstance(v, (int, torch.SymInt)) else "float"
        kinds = {kind(a) for a in node.args}
        ns, name, by_kind = family
        overload = by_kind.get(kinds.pop()) if len(kinds) == 1 else None
        if overload is None:
            raise _Unsupported(f"{node.target.__name__} of these operands cannot be imported")
        self._overload(node, getattr(getattr(getattr(torch.ops, ns), name), overload),
                       node.args, {})

    def _sym_ite(self, node):
        """torch.sym_ite(c, a, b) of ints (a narrow's start known at run time: its
        decomposition picks the wrapped start): a * int(c) + b * (1 - int(c)), of
        aten.Int.bool, mul.int, sub.int and add.int (FxImporter has no sym_ite)."""
        import torch
        import torch.fx
        c, a, b = node.args
        if not all(isinstance(getattr(x, "meta", {}).get("val", x), (int, torch.SymInt))
                   for x in (a, b)):
            raise _Unsupported("sym_ite of values that are not ints cannot be imported")
        t_int = D.type_of("!torch.int")

        def op(name, *vals):
            return self.emit(name, list(vals), [t_int]).results[0]

        def value(x):
            return self.node_value(x) if isinstance(x, torch.fx.Node) else self.literal(x)
        ci = op("torch.aten.Int.bool", value(c))
        not_c = op("torch.aten.sub.int", self.literal(1), ci)
        self.values[(node, 0)] = op("torch.aten.add.int",
                                    op("torch.aten.mul.int", value(a), ci),
                                    op("torch.aten.mul.int", value(b), not_c))

    def _as_float(self, arg):
        """An int symbolic value as a float (aten.Float.Scalar), for mixed arithmetic."""
        v = self.node_value(arg)
        return _Value(self.emit("torch.aten.Float.Scalar", [v],
                                [D.type_of("!torch.float")]).results[0])

    def _getitem(self, node):
        src, index = node.args
        if src in self.multi_result:
            if (src, index) not in self.values:
                raise _Unsupported(f"'{src.name}' has no result {index}")
            self.values[(node, 0)] = self.values[(src, index)]
            return
        results = self.unpacked.get(src)
        if results is None:
            lst = self.node_value(src)
            vals = src.meta.get("val")
            if not isinstance(vals, (list, tuple)):
                raise _Unsupported(f"getitem of '{src.name}', which is not a list")
            types = [self.value_type(v) for v in vals]
            results = self.unpacked[src] = self.emit("torch.prim.ListUnpack", [lst],
                                                     types).results
        if not isinstance(index, int) or not -len(results) <= index < len(results):
            raise _Unsupported(f"getitem index {index!r} of a list of {len(results)} values")
        self.values[(node, 0)] = results[index]

    # ------------------------------------------------------------ symbolic shapes

    def _symbolic_ints(self):
        """One `torch.symbolic_int` per range-constrained symbol (as FxImporter: only when
        some constraint is on integers)."""
        import sympy
        ranges = self._ranges()
        if not any(not r.is_bool and _is_int_bound(r.lower) and _is_int_bound(r.upper)
                   for r in ranges.values()):
            return
        for sym, r in ranges.items():
            lo = _bound(r.lower, math.ceil, sympy)
            hi = _bound(r.upper, math.floor, sympy)
            self.loc = NameLoc(str(sym))
            op = self.emit("torch.symbolic_int", (), [D.type_of("!torch.int")],
                           {"symbol_name": A.StringAttr(str(sym)),
                            "min_val": A.IntegerAttr(lo, A.i64),
                            "max_val": A.IntegerAttr(hi, A.i64)})
            self.symbols[str(sym)] = op.results[0]

    def _ranges(self) -> dict:
        """sympy symbol -> its ValueRanges: the program's range constraints."""
        return getattr(self.ep, "range_constraints", {}) or {}

    def _bind_symbolic_shape(self, node):
        import torch
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor) or not any(_is_symbolic(d) for d in val.shape):
            return
        exprs = [d.node.expr if isinstance(d, torch.SymInt) else int(d) for d in val.shape]
        free = set()
        for e in exprs:
            if not isinstance(e, int):
                free |= e.free_symbols
        names = sorted(str(s) for s in free)
        missing = [s for s in names if s not in self.symbols]
        if missing:
            raise _Unsupported(f"its shape uses the symbol(s) {', '.join(missing)}, which "
                               "the program's range constraints do not define")
        position = {s: i for i, s in enumerate(names)}
        try:
            amap = AffineMap(0, len(names), [_affine(e, position) for e in exprs])
        except _Unsupported:
            # a size no affine map can say (TruncToInt(1.5*s0): interpolate by a
            # fractional scale): the value is left unbound, its dims plain `?`s (the
            # binding only names sizes; the lowering computes them from the op)
            return
        self.emit("torch.bind_symbolic_shape",
                  [self.node_value(node)] + [self.symbols[s] for s in names], (),
                  {"shape_expressions": AffineMapAttr(amap)})


def import_graph(gm, example_inputs=None, *, symbolic_shapes: bool = True,
                 constants=None, functional=None):
    """Import `gm`, a torch.fx.GraphModule of ATen ops (what AOTAutograd hands a
    torch.compile backend), as a module whose `func.func @main` is in the torch dialect;
    see [Note: importing a graph module]. `constants` ({placeholder index: (tensor,
    name)}) are inputs imported as weights instead of arguments ([Note: frozen
    parameters] in dynamo.py). `functional`: graph_plan's {in-place node: functional
    overload} ([Note: importing without decomposing]). Raises TorchImportError."""
    import torch.fx
    if not isinstance(gm, torch.fx.GraphModule):
        raise TorchImportError(f"expected a torch.fx.GraphModule, got {type(gm).__name__}")
    return _GraphImporter(gm, example_inputs, symbolic_shapes, constants, functional).run()


# [Note: importing a graph module]
# A GraphModule that AOTAutograd (or make_fx) traced is imported by the same node
# machinery as an ExportedProgram, with three differences: every placeholder is an
# argument of @main (AOTAutograd lifts parameters and buffers into inputs, and passes
# each symbolic size a shape uses as an int input, `primals_3: Sym(s33)` ->
# `%arg2: !torch.int`); `get_attr` nodes (tensor constants) are literals; `None`
# outputs (the gradients of inputs that need none) are left out of @main's results, so
# the caller puts them back. Placeholders given as `constants` (the frozen parameters
# of an inference graph) are not arguments: each use reads its tensor as a
# `torch.vtensor.literal` named after it, as an ExportedProgram's parameters are, so the
# weights are externalized, packed and folded the same way. The value of each
# placeholder comes from its meta["val"] (a FakeTensor or SymInt), else from the
# matching `example_inputs`; the ranges of the symbols come from the ShapeEnv of their
# fake tensors, as an ExportedProgram's range_constraints:
#
#     func.func @main(%arg0: !torch.int, %arg1: !torch.vtensor<[?,4],f32>) -> ... {
#       %0 = torch.symbolic_int "s33" {min_val = 2, max_val = 9223372036854775806}
#       torch.bind_symbolic_shape %arg1, [%0], affine_map<()[s0] -> (s0, 4)> ...


class _GraphImporter(_ProgramImporter):
    """One fx.GraphModule -> module ([Note: importing a graph module])."""

    checks = True

    def __init__(self, gm, example_inputs, symbolic_shapes: bool, constants=None,
                 functional=None):
        self.gm = gm
        self.constants = dict(constants or {})
        super().__init__(gm, symbolic_shapes, functional)
        self.ep = None
        places = [n for n in gm.graph.nodes if n.op == "placeholder"]
        if example_inputs is not None:
            example_inputs = list(example_inputs)
            if len(example_inputs) != len(places):
                raise TorchImportError(f"the graph has {len(places)} inputs but "
                                       f"{len(example_inputs)} example inputs were given")
            for n, x in zip(places, example_inputs):
                if "val" not in n.meta and x is not None:
                    n.meta["val"] = x
        self.places = places

    def _bind_state(self):
        """Every placeholder is an input, but for the `constants`."""
        for i, (tensor, name) in self.constants.items():
            if not isinstance(i, int) or not 0 <= i < len(self.places):
                raise TorchImportError(f"constant input {i!r} is not an input of the "
                                       f"graph ({len(self.places)} inputs)")
            import torch
            if not isinstance(tensor, torch.Tensor):
                raise TorchImportError(f"constant input {i} ('{self.places[i].name}') is "
                                       f"a {type(tensor).__name__}, not a tensor")
            self.state[self.places[i]] = (tensor, name)

    def _outputs(self, node) -> list:
        out = node.args[0]
        items = out if isinstance(out, (list, tuple)) else [out]
        return [self.argument(a) for a in items if a is not None]

    def _ranges(self) -> dict:
        import torch
        shape_env, free = None, set()
        for n in self.graph.nodes:
            val = n.meta.get("val")
            vals = val if isinstance(val, (list, tuple)) else [val]
            for v in vals:
                dims = list(v.shape) if isinstance(v, torch.Tensor) else [v]
                for d in dims:
                    if isinstance(d, torch.SymInt):
                        shape_env = shape_env or d.node.shape_env
                        free |= d.node.expr.free_symbols
        if shape_env is None:
            return {}
        return {s: shape_env.var_to_range[s] for s in sorted(free, key=str)
                if s in shape_env.var_to_range}


class _Value:
    """An already-imported value standing in an FX argument list (see _as_float)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _is_vtensor(t) -> bool:
    return str(t).startswith("!torch.vtensor")


def _is_scalar_arg(arg) -> bool:
    import torch.fx
    if isinstance(arg, torch.fx.Node):
        arg = arg.meta.get("val")
    return isinstance(arg, (int, float)) or _is_symbolic(arg)


def _is_int_bound(b) -> bool:
    import sympy
    from torch.utils._sympy.numbers import IntInfinity, NegativeIntInfinity
    return isinstance(b, (sympy.Integer, IntInfinity, NegativeIntInfinity))


def _bound(b, rounding, sympy):
    from torch.utils._sympy.numbers import int_oo
    if b in (sympy.oo, int_oo):
        return _I64_MAX
    if b in (-sympy.oo, -int_oo):
        return _I64_MIN
    if isinstance(b, sympy.Integer):
        return int(b)
    return int(rounding(b))


def _affine(e, position):
    """A sympy size expression as an affine expression of the symbols in `position`."""
    import sympy
    from torch.utils._sympy.functions import FloorDiv, Mod
    if isinstance(e, int) or isinstance(e, sympy.Integer):
        return AffineConstantExpr(int(e))
    if isinstance(e, sympy.Symbol):
        return AffineSymbolExpr(position[str(e)])
    if isinstance(e, sympy.Add):
        out = AffineConstantExpr(0)
        for a in e.args:
            out = out + _affine(a, position)
        return out
    if isinstance(e, sympy.Mul):
        out = AffineConstantExpr(1)
        for a in e.args:
            out = out * _affine(a, position)
        return out
    if isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Integer) and e.args[1] > 0:
        out, base = AffineConstantExpr(1), _affine(e.args[0], position)
        for _ in range(int(e.args[1])):
            out = out * base
        return out
    if isinstance(e, (sympy.Mod, Mod)):
        return _affine(e.args[0], position) % _affine(e.args[1], position)
    if isinstance(e, FloorDiv):
        return _affine(e.args[0], position).floordiv(_affine(e.args[1], position))
    raise _Unsupported(f"the size {e} is not an affine expression of the symbols")


_SYMBOLIC_OPS = None


def _symbolic_ops() -> dict:
    """sym_size & co. -> the aten ops that compute the same (`aten.size.int`...)."""
    global _SYMBOLIC_OPS
    if _SYMBOLIC_OPS is None:
        import torch
        aten = torch.ops.aten
        _SYMBOLIC_OPS = {aten.sym_size.default: aten.size.default,
                         aten.sym_size.int: aten.size.int,
                         aten.sym_stride.default: aten.stride.default,
                         aten.sym_stride.int: aten.stride.int,
                         aten.sym_numel.default: aten.numel.default}
    return _SYMBOLIC_OPS


def _canonical(node, checks=False):
    """(target, args, kwargs) a node is imported as ([Note: op names]); target None
    drops the node (`_assert_async.msg` unless `checks`)."""
    import torch
    aten = torch.ops.aten
    t, args, kwargs = node.target, node.args, dict(node.kwargs)
    if t is aten._assert_async.msg and not checks:
        return None, args, kwargs
    if t is aten.lift_fresh_copy.default:
        return aten.clone.default, (args[0],), {"memory_format": None}
    if t is aten.empty.memory_format and len(node.users) == 1 and \
            next(iter(node.users)).target is aten.baddbmm.default:
        return aten.zeros.default, args, kwargs
    if t is aten._local_scalar_dense.default:
        dtype = args[0].meta["val"].dtype
        return (aten.Float.Tensor if dtype.is_floating_point else aten.Int.Tensor), \
            (args[0],), {}
    if t is aten._unsafe_index_put.default:
        return aten._unsafe_index_put.hacked_twin, args, kwargs
    if t is aten._embedding_bag_forward_only.default:
        defaults = (("scale_grad_by_freq", False), ("mode", 0), ("sparse", False),
                    ("per_sample_weights", None), ("include_last_offset", False),
                    ("padding_idx", None))
        for k, v in defaults[max(len(args) - 3, 0):]:
            kwargs.setdefault(k, v)
        return aten.embedding_bag.padding_idx, args, kwargs
    return t, args, kwargs
