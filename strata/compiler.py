"""`strata.compile(model, target=...)`: a model in, a callable on NumPy arrays out.

    f = strata.compile("model.onnx")                # or .mlir, an onnx.ModelProto, a module
    y, = f(x)                                       # positional, or f(X=x) by input name

The model is brought to one Strata module (ONNX through the importer, MLIR text through
the parser; a given module is cloned, never changed), the target's pass pipeline runs on
it, and the target loads the result as a callable. Inputs are checked against the entry
function's signature (count, dtype, static dims) before the target sees them.

[Note: the call path]
An input is a NumPy array, any object with `__dlpack__` on the CPU (a PyTorch tensor:
imported without a copy), or Python numbers and lists (converted); see the runtime's
[Note: inputs] (strata/runtime). A call first tries `match_inputs`: every value already an
array (or DLPack object) of exactly the dtype and shape of its input, dynamic dims of one
ONNX dim param agreeing, checked with tuples worked out once (`_prepare_calls`). Anything
else takes `bind`, the one slow path, which converts what it can and raises InputError
naming the input otherwise; every target shares it. A target with `device_inputs` (cuda)
also takes arrays on the GPU (`__cuda_array_interface__`: a torch CUDA tensor), checked
by shape and dtype and passed on without a copy. Outputs are NumPy arrays the caller
owns: the cpu target's own their malloc'd buffers and go to PyTorch without a copy with
`torch.from_dlpack(y)`.

[Note: targets]
A target is a `Target`: a name, the pass pipeline that brings a module to what the
target executes, and `load(module, function) -> callable(*values) -> list`. TARGETS is
the one registry of them (`register_target` adds one). "interpret" runs the module with
the NumPy reference interpreter after lowering ONNX to linalg; "cpu" (native code) comes
with the CPU backend, "cuda" (NVIDIA GPUs) with backends/cuda.
"""
from __future__ import annotations

import os
import weakref

import numpy as np

from .errors import StrataError
from .passes.instrumentation import Instrumentation
# InputError: inputs that do not fit the compiled function (a StrataError and a ValueError),
# the runtime's; its input checks and conversions serve every target.
from .runtime import InputError, match_inputs

__all__ = ["compile", "CompiledModel", "TorchCompiledModel", "Target", "InterpretTarget",
           "TARGETS", "register_target", "load_module", "InputError", "DEFAULT_TARGET",
           "target_pipeline", "TORCH_PIPELINE"]

DEFAULT_TARGET = "cpu"


class Target:
    """A compilation target (see [Note: targets])."""

    name: str = ""
    # Pass names run in order after import, from the pass registry: they bring the
    # model to the tensor level (linalg on tensors), the level every target starts from.
    pipeline: tuple[str, ...] = ()
    # Whether the callable `load` returns reads the module's constants when it runs (an
    # interpreter): the module's lent blobs are then copied before `load`, so that the
    # compiled model keeps the weights of compile time ([Note: lent blobs] in
    # strata/ir/dense.py; a target that binds or uploads its weights at load copies
    # them itself).
    reads_ir_constants: bool = False
    # Whether that pipeline verifies the IR after each pass (False: once, at its end).
    verify_each: bool = True

    def load(self, module, function: str, instrumentation=None, timings=None):
        """A callable running `function` of the tensor-level `module` on checked values.
        The target lowers the module to what it runs (its own passes, reported to
        `instrumentation`; phase times in seconds into the `timings` dict)."""
        raise NotImplementedError

    # The constructor's keyword arguments `with_options` may change (kept as attributes
    # of the same names); none by default.
    OPTIONS: tuple = ()

    def with_options(self, **options) -> "Target":
        """This target with `options` (the extra keyword arguments of strata.compile,
        e.g. the cpu target's num_threads): a new one of its class, its other OPTIONS
        as they are."""
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = f" (options: {', '.join(self.OPTIONS)})" if self.OPTIONS else ""
            raise StrataError(f"target '{self.name}' has no option "
                              f"{', '.join(map(repr, unknown))}{known}")
        if not options:
            return self
        kw = {k: getattr(self, k) for k in self.OPTIONS}
        kw.update(options)
        return type(self)(**kw)


class InterpretTarget(Target):
    """The NumPy reference interpreter, on the module lowered to linalg."""

    name = "interpret"
    reads_ir_constants = True
    # (fold again once shapes are inferred: [Note: shape arithmetic], fold_constants.py)
    pipeline = ("onnx-decompose{keep-lowered=true}", "onnx-fold-constants",
                "onnx-shape-inference", "onnx-fold-constants", "onnx-fold-batch-norm",
                "convert-onnx-to-linalg",
                "canonicalize")

    def load(self, module, function: str, instrumentation=None, timings=None):
        from .interpreter import Interpreter
        interp = Interpreter(module)

        def run(*values):
            return interp.call(function, *values)
        return run


TARGETS: dict[str, Target] = {}


def register_target(target: Target) -> Target:
    if not target.name or target.name in TARGETS:
        raise ValueError(f"target {target.name!r} has no name or is registered twice")
    TARGETS[target.name] = target
    return target


register_target(InterpretTarget())

# Targets defined above this module (backends), by the module whose import registers them.
_LAZY_TARGETS = {"cpu": "strata.backends.cpu.target",
                 "cuda": "strata.backends.cuda.target",
                 "cuda-interpret": "strata.backends.cuda.target"}


def get_target(name: str) -> Target:
    if name not in TARGETS and name in _LAZY_TARGETS:
        import importlib
        importlib.import_module(_LAZY_TARGETS[name])
    t = TARGETS.get(name)
    if t is None:
        known = sorted(set(TARGETS) | set(_LAZY_TARGETS))
        raise StrataError(f"unknown target '{name}' (targets: {', '.join(known)})")
    return t


# ---------------------------------------------------------------- loading models


def load_module(model, example_args=None, example_kwargs=None, dynamic_shapes=None):
    """A Strata module for `model`: a path to an .onnx, .pt2 or .mlir file, an
    onnx.ModelProto, a torch.nn.Module (exported with `example_args`, `example_kwargs`
    and `dynamic_shapes` by torch.export), a torch.export.ExportedProgram, or a Strata
    module op (cloned)."""
    return _load(model, example_args, example_kwargs, dynamic_shapes)[0]


def _torch_kind(model):
    """"module" or "program" when `model` is a torch.nn.Module or an ExportedProgram
    (without importing torch: a torch object means torch is imported), else None."""
    import sys
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    if isinstance(model, torch.nn.Module):
        return "module"
    export = getattr(torch, "export", None)
    if export is not None and isinstance(model, export.ExportedProgram):
        return "program"
    return None


def _load(model, example_args=None, example_kwargs=None, dynamic_shapes=None,
          mutable_state=False):
    """(module, the ExportedProgram it was imported from or None): see load_module.
    `mutable_state`: a module's or program's buffers it writes become inputs written
    back, and its random ops read draws made on each call ([Note: mutated inputs
    written back], [Note: random draws in a compiled program] in
    frontends/torch/importer.py)."""
    from .ir.core import Operation
    if isinstance(model, Operation):
        return model.clone(), None
    kind = _torch_kind(model)
    if kind is not None:
        from .frontends.torch import export_module, import_program, name_inputs
        if kind == "module":
            if example_args is None and not example_kwargs:
                raise StrataError(f"compiling a {type(model).__name__} (a torch.nn.Module) "
                                  "needs example inputs to export it with: "
                                  "strata.compile(model, example_args=(x,))")
            ep = export_module(model, example_args if example_args is not None else (),
                               example_kwargs, dynamic_shapes)
            module = import_program(ep, checks=True, mutable_buffers=mutable_state,
                                    random_draws=mutable_state)
            name_inputs(module, ep)   # [Note: input names]
            # the user's Dim names in the size checks' messages ([Note: Dim names])
            from .frontends.torch.shape_guard import name_dims
            name_dims(module, ep, model, example_args if example_args is not None else (),
                      example_kwargs, dynamic_shapes)
            return module, ep
        module = import_program(model, checks=True, mutable_buffers=mutable_state,
                                random_draws=mutable_state)
        name_inputs(module, model)
        return module, model
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        ext = os.path.splitext(path)[1].lower()
        if ext == ".pt2":
            from .frontends.torch import import_program, load_program, name_inputs
            ep = load_program(path)
            module = import_program(ep, checks=True)
            name_inputs(module, ep)
            return module, ep
        if ext == ".onnx":
            if not os.path.isfile(path):
                raise StrataError(f"{path}: no such file")
            from .frontends.onnx import import_model
            return import_model(path), None
        if ext == ".mlir":
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise StrataError(f"{path}: cannot read: {e.strerror}") from None
            from .dialects import default_context
            from .syntax.parser import parse_source
            return parse_source(text, default_context(), path), None
        raise StrataError(f"{path}: unknown model format (expected a .onnx, .pt2 or .mlir "
                          "file)")
    if type(model).__name__ == "ModelProto" and type(model).__module__.startswith("onnx"):
        from .frontends.onnx import import_model
        return import_model(model), None
    raise TypeError("strata.compile takes a path to an .onnx, .pt2 or .mlir file, an "
                    "onnx.ModelProto, a torch.nn.Module, a torch.export.ExportedProgram or "
                    f"a Strata module, not {type(model).__name__}")


# ---------------------------------------------------------------- pipelines


# [Note: the torch pipeline]
# A module in the torch dialect (a PyTorch model) reaches linalg on tensors through its
# own passes: weights into ml_program globals (as ONNX initializers are), inference
# batch norms folded into the convolutions before them (as the ONNX exporter folds them:
# [Note: batch norm folded into the convolution] in frontends/torch/fold_batch_norm.py),
# then convert-torch-to-linalg. The rest of the target's pipeline then runs as for ONNX; its
# ONNX-only passes are left out.
TORCH_PIPELINE = ("torch-externalize-weights", "torch-fold-batch-norm",
                  "convert-torch-to-linalg")
_ONNX_PASSES = frozenset({"onnx-decompose", "onnx-fold-constants", "onnx-shape-inference",
                          "onnx-fold-batch-norm", "onnx-hoist-pointwise-conv",
                          "convert-onnx-to-linalg"})


def _is_torch_module(module) -> bool:
    """Whether `module`'s functions are in the torch dialect (an imported PyTorch
    program): their signature holds torch types."""
    for op in module.regions[0].ops if module.regions else ():
        if op.name == "func.func":
            ft = op.properties["function_type"].value
            if any(getattr(t, "dialect", None) == "torch"
                   for t in list(ft.inputs) + list(ft.results)):
                return True
    return False


def target_pipeline(target, module):
    """The pass names that bring `module` to the tensor level for `target`: the
    target's pipeline, or for a torch-dialect module [Note: the torch pipeline]."""
    if not _is_torch_module(module):
        return tuple(target.pipeline)
    return TORCH_PIPELINE + tuple(p for p in target.pipeline
                                  if p.partition("{")[0] not in _ONNX_PASSES)


def _available_passes(names):
    """[Transitional] The passes of a target pipeline that are registered, in order.
    Passes still being written are skipped so that the rest of the pipeline runs; this
    is the only place that tolerates a missing pass (remove once they all exist)."""
    from .passes.registry import get_pass_class
    return [n for n in names if get_pass_class(n.partition("{")[0]) is not None]


def build_pipeline(pipeline):
    """A PassManager on builtin.module from pass names, or from pipeline text
    (`builtin.module(...)`, or a comma-separated list of passes)."""
    from .passes.pass_manager import PassManager
    from .passes.pipeline import parse_pipeline, pass_from_flag
    if isinstance(pipeline, str):
        text = pipeline.strip()
        if text.startswith("builtin.module("):
            return parse_pipeline(text)
        return parse_pipeline(text, root_anchor="builtin.module") if text else \
            PassManager("builtin.module")
    pm = PassManager("builtin.module")
    for item in pipeline:
        name, _, opts = item.partition("{")
        pm.add(pass_from_flag(name, opts[:-1].replace(" ", ",") if opts else ""),
               nest_implicitly=True)
    return pm


# ---------------------------------------------------------------- the callable


def _entry(module, function):
    """The function op to run: `function`, else @main, else the only function."""
    from .ir.symbol_table import symbol_name
    funcs = {}
    for op in module.regions[0].ops if module.regions else ():
        if op.name in ("func.func", "ml_program.func") and op.regions[0].blocks:
            funcs[symbol_name(op)] = op
    if function is not None:
        if function not in funcs:
            raise StrataError(f"the model has no function @{function} (functions: "
                              f"{', '.join('@' + n for n in funcs) or 'none'})")
        return funcs[function]
    if "main" in funcs:
        return funcs["main"]
    if len(funcs) == 1:
        return next(iter(funcs.values()))
    names = ", ".join("@" + n for n in funcs)
    what = f"several functions ({names})" if funcs else "no function"
    raise StrataError(f"the model has {what}; name the one to run with function=...")


class CompiledModel:
    """A compiled function: call it with arrays (NumPy, DLPack objects such as PyTorch
    CPU tensors, or Python lists: see [Note: the call path]), positionally or by input
    name as keywords; it returns the list of outputs (NumPy arrays).

    Its interface is the entry function's signature *before* the pipeline: a lowering
    may change types the caller should not see (ONNX's uint8 becomes signless i8 in
    linalg), so inputs are checked against the original types, passed on in the lowered
    ones, and outputs given back in the original ones (the same bits)."""

    # a check of the inputs' sizes beyond their types (a compiled PyTorch program's
    # symbolic shapes: [Note: input sizes checked against the symbols]), or None
    _shape_guard = None

    def __init__(self, module, interface_op, function_op, target: Target,
                 instrumentation=None, cached=None):
        from .interpreter.core import arg_names, result_names
        self.module = module
        self.target = target.name
        self._target = target
        # Seconds per phase of the target's lowering and code generation.
        self.timings: dict[str, float] = {}
        # Whether the code came from the compiled-model cache (then `module` is None).
        self.from_cache = cached is not None
        if cached is not None:
            # loaded from the compiled-model cache: (interface, callable)
            interface, self._run = cached
            self._set_interface(**interface)
            self._prepare_calls()
            return
        from .ir.symbol_table import symbol_name
        ftype = interface_op.properties["function_type"].value
        lowered = function_op.properties["function_type"].value
        if len(lowered.inputs) != len(ftype.inputs) or \
                len(lowered.results) != len(ftype.results):
            raise StrataError(f"the pipeline changed the number of inputs or outputs of "
                              f"@{symbol_name(function_op)}: {ftype} became {lowered}")
        self._set_interface(symbol_name(function_op), list(ftype.inputs),
                            list(ftype.results), arg_names(interface_op),
                            result_names(interface_op), list(lowered.inputs),
                            list(lowered.results), _dim_groups(interface_op))
        if target.reads_ir_constants:
            from .ir.dense import own_lent_blobs
            own_lent_blobs(module)
        self._run = target.load(module, self.function, instrumentation, self.timings)
        self._prepare_calls()

    def _set_interface(self, function, input_types, output_types, input_names,
                       output_names, lowered_inputs, lowered_outputs, dim_groups):
        self.function = function
        self.input_types = input_types
        self.output_types = output_types
        self.input_names = input_names
        self.output_names = output_names
        self._lowered_inputs = lowered_inputs
        self._lowered_outputs = lowered_outputs
        self._dim_groups = dim_groups

    def _interface_json(self) -> dict:
        """The interface as the compiled-model cache keeps it (types as text)."""
        return {"function": self.function,
                "input_types": [str(t) for t in self.input_types],
                "output_types": [str(t) for t in self.output_types],
                "input_names": list(self.input_names),
                "output_names": list(self.output_names),
                "lowered_inputs": [str(t) for t in self._lowered_inputs],
                "lowered_outputs": [str(t) for t in self._lowered_outputs],
                "dim_groups": [[p, [list(m) for m in ms]] for p, ms in self._dim_groups]}

    def _prepare_calls(self):
        """What a call needs, worked out once (see [Note: the call path])."""
        from .ir import attributes as A
        from .runtime import input_spec
        self._specs = tuple(_input_spec(t, input_spec) for t in self.input_types)
        self._groups = tuple(tuple(m) for _, m in self._dim_groups)
        self._retype_in = tuple((i, a, b) for i, (a, b) in
                                enumerate(zip(self.input_types, self._lowered_inputs))
                                if _may_retype(a, b))
        retype_out = [(i, a, b) for i, (a, b) in
                      enumerate(zip(self._lowered_outputs, self.output_types))]
        owner = getattr(self._run, "__self__", None)
        if getattr(owner, "owns_outputs", False):
            # Arrays owning their buffers already: only retyped or scalar outputs change.
            retype_out = [(i, a, b) for i, a, b in retype_out
                          if _may_retype(a, b) or not isinstance(b, A.ShapedType)]
        self._fix_out = tuple(retype_out)

    def bind(self, args, kwargs) -> list:
        """Checked argument values in signature order (raises InputError)."""
        from .interpreter.values import ValueMismatch, check_value
        from .runtime import plural
        n = len(self.input_types)
        names = self.input_names
        if len(args) > n:
            raise InputError(f"@{self.function} takes {plural(n, 'input')} "
                             f"({', '.join(names)}), got {len(args)}")
        vals = dict(enumerate(args))
        for k, v in kwargs.items():
            if k not in names:
                raise InputError(f"@{self.function} has no input named '{k}' (inputs: "
                                 f"{', '.join(names)})")
            i = names.index(k)
            if i in vals:
                raise InputError(f"input '{k}' given twice")
            vals[i] = v
        missing = [names[i] for i in range(n) if i not in vals]
        if missing:
            raise InputError(f"@{self.function} takes {plural(n, 'input')}; missing: "
                             f"{', '.join(missing)}")
        out, shapes = [], []
        device = getattr(self._target, "device_inputs", False)
        if device:
            from .runtime.dlpack import cuda_view, is_cuda_dlpack
        for i, t in enumerate(self.input_types):
            what = f"input #{i} ('{names[i]}')"
            v = vals[i]
            try:
                if device and is_cuda_dlpack(v):
                    # DLPack only (JAX...): seen through the CUDA array interface
                    # ([Note: DLPack device inputs] in strata/runtime/dlpack.py)
                    v = cuda_view(v, what)
                if device and hasattr(v, "__cuda_array_interface__"):
                    # on the GPU: checked by its shape and dtype, passed on as it is
                    # (the target takes it without a copy; see [Note: the call path])
                    shadow = _device_shadow(v, what)
                    check_value(shadow, t, what, given=v)
                    out.append(v)
                    shapes.append(shadow.shape)
                    continue
                out.append(check_value(_input_value(v, t, what), t, what, given=v))
                shapes.append(np.shape(out[-1]))
            except ValueMismatch as e:
                raise InputError(str(e)) from None
        for param, members in self._dim_groups:
            sizes = {shapes[i][d] for i, d in members}
            if len(sizes) > 1:
                where = ", ".join(f"'{names[i]}' dim {d} = {shapes[i][d]}"
                                  for i, d in members)
                raise InputError(f"inputs disagree on dynamic dim '{param}': {where}")
        return out

    def __call__(self, *args, **kwargs) -> list:
        values = None
        if not kwargs and len(args) == len(self._specs):
            values = match_inputs(args, self._specs, self._groups)
        if values is None:  # converts, or explains what does not fit
            values = self.bind(args, kwargs)
        if self._shape_guard is not None:
            self._shape_guard(values, self.input_names)
        for i, a, b in self._retype_in:
            values[i] = _retype(values[i], a, b)
        results = self._run(*values)
        for i, a, b in self._fix_out:
            results[i] = _output(_retype(results[i], a, b))
        return results

    @property
    def num_threads(self) -> int:
        """The threads this model's calls run on; set it to change that (0: the process's
        count, $STRATA_NUM_THREADS or the CPUs available). 1 for targets without
        threads."""
        get = getattr(self._target, "num_threads_of", None)
        return 1 if get is None else get(self._run)

    @num_threads.setter
    def num_threads(self, n: int) -> None:
        set_ = getattr(self._target, "set_num_threads_of", None)
        if set_ is None:
            raise StrataError(f"target '{self.target}' runs on one thread")
        set_(self._run, n)

    def __repr__(self):
        sig = ", ".join(f"{n}: {t}" for n, t in zip(self.input_names, self.input_types))
        return f"<CompiledModel @{self.function}({sig}) target={self.target}>"


def _dim_groups(func_op):
    """[(dim param, [(input, dim), ...])] for ONNX dim params shared by several dynamic
    dims of the inputs (`onnx.dim_params` argument attributes): their sizes must agree."""
    from .ir import attributes as A
    ftype = func_op.properties["function_type"].value
    arg_attrs = func_op.properties.get("arg_attrs")
    names = []
    for i, attrs in enumerate(arg_attrs.value if arg_attrs is not None else ()):
        params = attrs.get("onnx.dim_params") if isinstance(attrs, A.DictionaryAttr) else None
        names.append(None if params is None else
                     [p.value if isinstance(p, A.StringAttr) and p.value else None
                      for p in params.value])
    return _named_dim_groups(names, ftype.inputs)


def _named_dim_groups(names, types):
    """The dim groups of inputs of `types` whose dims are named by `names` (per input,
    a list with a name or None per dim, or None): dynamic dims of one name, in groups
    of more than one."""
    from .ir import attributes as A
    groups: dict[str, list] = {}
    for i, (dims, t) in enumerate(zip(names, types)):
        if dims is None or not isinstance(t, A.RankedTensorType):
            continue
        for d, (p, size) in enumerate(zip(dims, t.shape)):
            if size == A.DYNAMIC and p:
                groups.setdefault(p, []).append((i, d))
    return [(p, m) for p, m in groups.items() if len(m) > 1]


def _input_value(v, t, what):
    """An input as the value `check_value` checks against type `t`: an onnx TensorProto
    as its array; for a type with a dtype, arrays as they are, DLPack objects imported
    without a copy, Python numbers and lists converted (see strata.runtime.as_array);
    other values (sequences, None for a `none` or optional input) unchanged."""
    from .interpreter.values import dtype_of
    from .ir import attributes as A
    from .runtime import as_array
    if type(v).__name__ == "TensorProto" and type(v).__module__.startswith("onnx"):
        from onnx import numpy_helper
        return numpy_helper.to_array(v)
    try:
        d = dtype_of(t)
    except TypeError:
        d = None
    if d is not None and not isinstance(t, A.NoneType):
        return as_array(v, d, what)  # (None: an InputError saying so)
    return as_array(v, None, what) if hasattr(v, "__dlpack__") else v


def _device_shadow(v, what):
    """A memory-less array of the shape and dtype of `v`, an array on the GPU (its
    `__cuda_array_interface__`), for the input checks."""
    cai = v.__cuda_array_interface__
    try:
        dtype = np.dtype(cai["typestr"])
        shape = tuple(int(d) for d in cai["shape"])
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"{what}: unreadable __cuda_array_interface__ ({e})") from None
    return np.broadcast_to(np.empty((), dtype), shape)


def _input_spec(t, input_spec):
    """The runtime's fast check for an input of type `t` (a ranked tensor with a dtype),
    else None (its inputs take the slow path, `bind`)."""
    from .interpreter.values import dtype_of
    from .ir import attributes as A
    if not isinstance(t, A.RankedTensorType):
        return None
    try:
        d = dtype_of(t)
    except TypeError:
        return None
    if d.kind == "O":
        return None
    return input_spec(d, [None if n == A.DYNAMIC else n for n in t.shape])


def _may_retype(src, dst) -> bool:
    """Whether `_retype` may change a value of type `src` given as `dst`."""
    if src is dst:
        return False
    if _complex_elements(src) or _complex_elements(dst):
        return True     # [Note: complex inputs and outputs as pairs]
    from .interpreter.values import dtype_of
    try:
        return dtype_of(src) != dtype_of(dst)
    except TypeError:
        return False


def _retype(v, src, dst):
    """A value of type `src` as one of type `dst` where a lowering changed only the
    signedness of integer elements (uiN <-> iN: the same bits) or made complex elements
    real pairs (`_complex_pairs`); else unchanged."""
    if src is dst:
        return v
    if _complex_elements(src) or _complex_elements(dst):
        return _complex_pairs(v, src, dst)
    device = not isinstance(v, (np.ndarray, np.generic))
    if device and not hasattr(v, "as_dtype"):
        return v
    from .interpreter.values import dtype_of, element_type, wrap
    try:
        if dtype_of(src) == dtype_of(dst):
            return v
    except TypeError:
        return v
    a, b = element_type(src), element_type(dst)
    from .ir import attributes as A
    if isinstance(a, A.IntegerType) and isinstance(b, A.IntegerType) and a.width == b.width:
        if device:              # an output on a device: the same bits, viewed
            return v.as_dtype(dtype_of(dst))
        r = wrap(v, dst)
        return r if isinstance(dst, A.ShapedType) else r[()]
    return v


def _complex_elements(t) -> bool:
    from .ir import attributes as A
    return type(getattr(t, "element_type", None)) is A.ComplexType


def _complex_pairs(v, src, dst):
    """[Note: complex inputs and outputs as pairs]
    A lowered PyTorch program takes and gives complex tensors as their real pairs
    (`tensor<3x4xcomplex<f32>>` as `tensor<3x4x2xf32>`, torch's `view_as_real`: [Note:
    complex as real pairs] in conversion/torch_to_linalg/complex.py). A complex array
    (a torch tensor read in place, a NumPy array) is passed as the view of its pairs,
    no copy (a non-contiguous one copied first); a result's pairs are given back as the
    complex view of them (a torch tensor through `torch.from_numpy`, no copy); NumPy
    has no complex32, so complex<f16> results are torch's `view_as_complex` of them."""
    if not isinstance(v, np.ndarray):
        return v
    if _complex_elements(src):      # complex -> pairs
        v = np.ascontiguousarray(v)
        return v.view(v.real.dtype).reshape(v.shape + (2,))
    if v.ndim == 0 or v.shape[-1] != 2:
        return v
    v = np.ascontiguousarray(v)
    if v.dtype == np.float16:
        import sys
        torch = sys.modules.get("torch")
        return torch.view_as_complex(torch.from_numpy(v)) if torch is not None else v
    return v.view(np.result_type(v.dtype, np.complex64)).reshape(v.shape[:-1])


def _output(v):
    """Outputs are arrays the caller owns (sequences stay lists, absent optionals None)."""
    if v is None or isinstance(v, list):
        return v
    if isinstance(v, np.ndarray):
        return v if v.flags.writeable else np.array(v)
    if hasattr(v, "__dlpack_device__") and not isinstance(v, np.generic):
        return v                # an array on a device stays there
    return np.asarray(v)


def compile(model, target: str = DEFAULT_TARGET, function: str | None = None,
            pipeline=None, *, example_args=None, example_kwargs=None, dynamic_shapes=None,
            print_ir_after_all: bool = False, dump_dir=None,
            out=None, progress: bool | None = None, cache: bool | None = None,
            **target_options) -> CompiledModel:
    """Compile `model` (a path to an .onnx, .pt2 or .mlir file, an onnx.ModelProto, a
    torch.nn.Module, a torch.export.ExportedProgram or a Strata module) for `target`;
    returns a callable on NumPy arrays (and PyTorch tensors: see TorchCompiledModel,
    whose outputs come in the model's own structure, a tensor, tuple, dict...). A
    torch.nn.Module is exported with torch.export.export(model, `example_args`,
    `example_kwargs`, dynamic_shapes=`dynamic_shapes`). `function` picks the entry
    function (default @main, or the only one); `pipeline` replaces the pass pipeline to
    the tensor level (pass names or pipeline text; "" runs no pass). `print_ir_after_all`
    prints the IR after every pass (to `out`, default stderr); `dump_dir` writes it there
    as numbered files, with the target's artefacts (LLVM IR, assembly). Other keywords
    are the target's options (cpu: `num_threads`, `parallel`, `opt_level`, `tune`: the
    kernels' tile sizes and thread splits measured on this machine and cached, see
    strata/backends/cpu/autotune.py, `tune_time`). `progress` turns the notices of slow
    steps on stderr on (True) or off (False); None: on when stderr is a terminal, as
    $STRATA_PROGRESS / $STRATA_QUIET say (see [Note: when Strata speaks] in
    strata/progress.py). `cache`: whether a model compiled before, in any process, is
    loaded from the compiled-model cache instead of compiled again, and a new one kept
    there (None: unless $STRATA_CACHE=0; see [Note: the compiled-model cache] in
    strata/cache.py); printing or dumping the IR compiles anyway."""
    from . import progress as _progress
    from .ir.frame_room import with_frame_room
    from .ir.gc_pause import gc_paused
    # [Note: no collector while compiling]
    # A compile builds and drops IR (ops, values, uses: reference cycles) by the hundred
    # thousand while what stays alive grows: the cyclic collector ran ~180 times in a
    # MiniLM compile (0.18-0.3 s of its ~2.4 s of CPU). It is paused until the callable
    # is made; it then runs once over what the compile left (0.18 s for MiniLM, 0.23 s
    # for BERT-base), so the saving is small: MiniLM 2.60 -> 2.48 s of CPU (medians of 4
    # interleaved runs on a loaded machine), peak memory +2%. What it leaves is promoted
    # to the oldest generation as the pause ends, not scanned by a young collection
    # ([Note: what a pause leaves], ir/gc_pause.py: 0.05-0.1 s less per compile).
    # (the notice is made inside `settings`: it reads whether notices are on when made)
    # (on a frame-stack chunk of its own, whatever the caller's depth: [Note: frame-stack
    # room] in ir/frame_room.py; torch.compile's backend runs ~50 frames deep)
    with _progress.settings(progress), gc_paused(promote=True), \
            _progress.step(f"compiling {_model_label(model)}", after=_progress.LONG_COMPILE_S):
        return with_frame_room(_compile, model, target, function, pipeline,
                               print_ir_after_all, dump_dir, out, target_options,
                               (example_args, example_kwargs, dynamic_shapes), cache)


def _model_label(model) -> str:
    """How a notice names the model being compiled."""
    if isinstance(model, (str, os.PathLike)):
        return os.path.basename(os.fspath(model))
    if _torch_kind(model) == "module":
        return f"{type(model).__name__}"
    graph = getattr(model, "graph", None)
    if graph is not None and getattr(graph, "name", ""):
        return f"model '{graph.name}'"
    return "the model"


def _compile(model, target, function, pipeline, print_ir_after_all, dump_dir, out,
             target_options, export_args=(None, None, None), cache=None) -> CompiledModel:
    t = get_target(target)
    if target_options:
        t = t.with_options(**target_options)
    from . import cache as _cache
    # [Note: the compiled-model cache] (strata/cache.py)
    use_cache = _cache.models_enabled(cache) and hasattr(t, "cache_token") and \
        not print_ir_after_all and dump_dir is None
    key = None
    if use_cache:
        digest = _file_model_digest(model)
        if digest is not None:
            key = _cache_key(digest, t, function, pipeline)
            hit = _load_cached(key, t)
            if hit is not None:
                return CompiledModel(None, None, None, t, cached=hit)
    module, program = _load(model, *export_args, mutable_state=True)
    if program is not None and _is_torch_module(module):
        _strip_none_results(module, function)
    digest = _module_digest(module) if use_cache and key is None else None
    if digest is not None:
        key = _cache_key(digest, t, function, pipeline)
        hit = _load_cached(key, t)
        if hit is not None:
            if _is_torch_module(module):
                return TorchCompiledModel(None, None, None, t, None, program,
                                          _torch_input_shapes(module, function), cached=hit,
                                          mutations=_torch_input_mutations(module),
                                          state=_torch_mutable_state(module),
                                          kinds=_RESULT_KINDS.get(module),
                                          draws=_torch_random_draws(module))
            return CompiledModel(None, None, None, t, cached=hit)
    compiled = _compile_module(module, program, t, function, pipeline, print_ir_after_all,
                               dump_dir, out)
    if key is not None:
        _store_cached(key, t, compiled)
    return compiled


# [Note: None and scalar results]
# A PyTorch program may return None (`return logits, None`, a dataclass or tuple with
# an unset field) and Python numbers (`return y, 3`, `x.shape[0]`): torch.export keeps
# them as user outputs (ConstantArgument, or a symbolic int), the importer as
# `!torch.none`, `!torch.int`, `!torch.float` and `!torch.bool` results. No target
# passes a `!torch.none` across its boundary (the CPU target refused the model, the
# interpreter failed inside), so the compiled function does not return them:
# `_strip_none_results` takes them out of @main before the pipeline and records, per
# result of the imported function, its kind; the compiled model puts None back in its
# place, and gives the scalar results as the Python int, float or bool eager returns
# (not 0-d tensors). The kinds are kept by the imported module, so a compiled-model
# cache hit has them too.

_RESULT_KINDS = weakref.WeakKeyDictionary()
_SCALAR_KINDS = {"!torch.none": "none", "!torch.int": "int", "!torch.float": "float",
                 "!torch.bool": "bool"}


def _strip_none_results(module, function) -> None:
    """Take the `!torch.none` results out of the entry of torch-dialect `module`,
    recording every result's kind ([Note: None and scalar results])."""
    entry = _entry(module, function)
    ft = entry.properties["function_type"].value
    kinds = tuple(_SCALAR_KINDS.get(str(t)) for t in ft.results)
    if not any(kinds):
        return
    _RESULT_KINDS[module] = kinds
    if "none" not in kinds:
        return
    from .ir import attributes as A
    for block in entry.regions[0].blocks:
        ret = block.last
        if ret is not None and ret.name == "func.return":
            ret.set_operands([v for v, k in zip(ret.operands, kinds) if k != "none"])
    entry.properties["function_type"] = A.TypeAttr(A.FunctionType(
        list(ft.inputs), [t for t, k in zip(ft.results, kinds) if k != "none"]))


def _torch_input_shapes(module, function):
    """Per input of the entry of torch-dialect `module`, torch.export's symbol per dim,
    and the check of the inputs' sizes against the symbols (a ShapeGuard or None)."""
    entry = _entry(module, function)
    if not entry.regions[0].blocks:
        return None
    from .conversion.torch_to_linalg import symbolic_dims
    from .frontends.torch.shape_guard import ShapeGuard
    return [symbolic_dims(a) for a in entry.regions[0].blocks[0].args], \
        ShapeGuard.of(entry)


def _compile_module(module, program, t, function, pipeline, print_ir_after_all, dump_dir,
                    out) -> CompiledModel:
    entry = _entry(module, function)
    torch_module = _is_torch_module(module)
    # The signature the caller sees (see CompiledModel): a body-less copy of the entry
    # (torch types as the builtin tensors they hold, [Note: torch tensors in and out]).
    props = dict(entry.properties)
    if torch_module:
        props["function_type"] = _torch_interface_type(props["function_type"].value)
    interface = type(entry).create(properties=props, loc=entry.loc)
    shapes = _torch_input_shapes(module, function) if torch_module else None
    inst = CompileInstrumentation(print_ir_after_all, dump_dir, out) \
        if print_ir_after_all or dump_dir else None
    pm = build_pipeline(_available_passes(target_pipeline(t, module)) if pipeline is None
                        else pipeline)
    pm.verify_each = t.verify_each
    pm.run(module, inst)
    if not t.verify_each:
        module.verify()
    from .ir.symbol_table import SymbolTable, symbol_name
    lowered = SymbolTable(module).lookup(symbol_name(entry))
    if lowered is None:
        raise StrataError(f"the pipeline removed the entry function @{symbol_name(entry)}")
    if torch_module:
        return TorchCompiledModel(module, interface, lowered, t, inst, program, shapes)
    return CompiledModel(module, interface, lowered, t, inst)


# ---------------------------------------------------------------- the model cache
# [Note: the compiled-model cache] (strata/cache.py): the key, and what is kept.


def _file_model_digest(model) -> str | None:
    """The digest of an ONNX model given as bytes: an .onnx file (its external data files
    too), an onnx.ModelProto; None for other models (their imported module is hashed:
    `_module_digest`; an .mlir file may hold a torch-dialect module, which compiles to a
    TorchCompiledModel)."""
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if os.path.splitext(path)[1].lower() != ".onnx" or not os.path.isfile(path):
            return None
        try:
            # (the path too: the ONNX importer names the file in the ops' locations)
            return f"onnx:{os.path.realpath(path)}:{_onnx_file_digest(path)}"
        except OSError:
            return None
    if type(model).__name__ == "ModelProto" and type(model).__module__.startswith("onnx"):
        from . import cache as _cache
        try:
            data = model.SerializeToString()
        except Exception:  # noqa: BLE001 - over protobuf's 2 GB: keyed by its module
            return None
        return "onnx-proto:" + _cache.digest_bytes(data)
    return None


def _onnx_file_digest(path) -> str:
    """The digest of an .onnx file and of the external data files it names (each
    remembered by its size and mtime)."""
    from . import cache as _cache
    path = os.path.realpath(path)
    entry = _cache.remembered([path], lambda: _onnx_contents(path))
    parts = [entry["digest"]]
    folder = os.path.dirname(path)
    for loc in entry["external"]:
        full = os.path.realpath(os.path.join(folder, loc))
        parts.append(f"{loc}={_cache.file_digest(full) if os.path.isfile(full) else '-'}")
    return ";".join(parts)


def _onnx_contents(path) -> dict:
    """{"digest": the file's (cache.digest_bytes), "external": the external data files it
    names}."""
    from . import cache as _cache
    with open(path, "rb") as f:
        data = f.read()
    external = []
    if b"location" in data:   # (the key of external data entries)
        try:
            import onnx
            from onnx.external_data_helper import _get_all_tensors, uses_external_data
            m = onnx.load_model_from_string(data)
            external = sorted({e.value for t in _get_all_tensors(m)
                               if uses_external_data(t)
                               for e in t.external_data if e.key == "location"})
        except Exception:  # noqa: BLE001 - the importer reports a bad file
            external = []
    return {"digest": _cache.digest_bytes(data), "external": external}


def _module_digest(module) -> str | None:
    """The digest of a Strata module: its text with locations, each resource blob named
    by its place among them (a process names a blob "w_1" when "w" is taken: the name
    means nothing) and its bytes; None (not cached) if a blob cannot be found."""
    import hashlib
    import re
    from .ir.dense import BLOBS
    from .ir.gc_pause import gc_paused
    from .syntax.lexer import unescape
    from .syntax.printer import Printer, PrintOptions
    p = Printer(PrintOptions(generic=True, debuginfo=True, print_resources=False))
    with gc_paused():
        text = p.print_top(module)
    order: dict[str, int] = {}

    def place(m):
        name = m.group(1)
        name = unescape(name[1:-1]) if name.startswith('"') else name
        return f"dense_resource<#{order.setdefault(name, len(order))}>"
    text = re.sub(r'dense_resource<("(?:[^"\\]|\\.)*"|[^>]*)>', place, text)
    h = hashlib.sha256(text.encode())
    if any(name not in BLOBS for name in order):
        return None
    # (sha256 lets go of the GIL: a model's blobs, GBs for an LLM, on every CPU)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max(1, min(os.cpu_count() or 1, 8, len(order)))) as pool:
        digests = pool.map(lambda name: hashlib.sha256(BLOBS[name]).digest(), order)
        for name, d in zip(order, digests):
            h.update(f"\0{BLOBS.alignment(name)}\0{len(BLOBS[name])}\0".encode() + d)
    return "module:" + h.hexdigest()


def _cache_key(digest, target, function, pipeline) -> str:
    import hashlib
    import json
    from . import cache as _cache
    if pipeline is not None and not isinstance(pipeline, str):
        pipeline = [str(p) for p in pipeline]
    text = json.dumps({"format": _cache.FORMAT, "model": digest, "function": function,
                       "pipeline": pipeline, "target": target.cache_token(),
                       "strata": _cache.source_fingerprint()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _load_cached(key, target):
    """(interface, callable) of the cached model `key`, or None (a miss; an entry that
    does not load is removed)."""
    from . import cache as _cache
    got = _cache.read_entry(key)
    if got is None:
        return None
    manifest, blobs = got
    try:
        interface = manifest["interface"]
        run = target.load_cached(manifest["code"], blobs)
        return _interface_from_json(interface), run
    except (KeyError, ValueError, TypeError, IndexError, StrataError):
        _cache.remove_entry(key)
        return None


def _store_cached(key, target, compiled) -> None:
    """Keep `compiled` in the cache under `key` (nothing when the target cannot; a cache
    that cannot be written is no error of the compile)."""
    from . import cache as _cache
    try:
        got = target.cache_entry(compiled._run)
        if got is None:
            return
        code, blobs = got
        _cache.write_entry_later(key, {"interface": compiled._interface_json(),
                                       "code": code}, blobs)
    except (OSError, RuntimeError, ValueError, TypeError):   # (no thread to spare...)
        return


def _interface_from_json(d) -> dict:
    """CompiledModel._set_interface's arguments from CompiledModel._interface_json's."""
    types = _parse_types
    return {"function": str(d["function"]),
            "input_types": types(d["input_types"]),
            "output_types": types(d["output_types"]),
            "input_names": [str(n) for n in d["input_names"]],
            "output_names": [str(n) for n in d["output_names"]],
            "lowered_inputs": types(d["lowered_inputs"]),
            "lowered_outputs": types(d["lowered_outputs"]),
            "dim_groups": [(str(p), [(int(i), int(k)) for i, k in ms])
                           for p, ms in d["dim_groups"]]}


def _parse_types(texts) -> list:
    """Types from their text (builtin types need no dialect; others load them all)."""
    from .ir.context import Context
    from .ir.diagnostics import DiagnosticError
    from .syntax.attr_parser import AttrParser
    out = []
    for text in texts:
        try:
            out.append(AttrParser(text, Context()).parse_type())
        except DiagnosticError:
            from .dialects import default_context
            try:
                out.append(AttrParser(text, default_context()).parse_type())
            except DiagnosticError:
                raise ValueError(f"cannot read type {text!r}") from None
    return out


# ---------------------------------------------------------------- PyTorch models
# [Note: torch tensors in and out]
# A compiled PyTorch model is called like any compiled model (NumPy arrays, DLPack
# objects), and with torch tensors: a CPU tensor is read in place (`Tensor.numpy()`, the
# same memory; one that requires grad is detached first: the compiled code computes no
# gradient), a non-contiguous one is copied to a contiguous array by the runtime. When
# any input is a torch tensor the outputs are torch tensors on the device of the first
# tensor input, as eager PyTorch gives them (and CPU torch tensors when no input is an
# array at all: a program of Python numbers or of no inputs, such as the graph of
# constants Dynamo hands over before a graph break, `torch.arange(n)[:, None] -
# torch.arange(n)` in DeBERTa's relative positions; a NumPy array there would reach the
# user's torch code): sharing the outputs' memory where they are
# already there (`torch.from_numpy` of a CPU output, `torch.from_dlpack` of a cuda
# target's DeviceArray when the inputs are CUDA tensors, no copy), else copied there (a
# cuda target's output downloaded for CPU inputs: what follows in the user's program, or
# in AOTAutograd's graph under torch.compile, runs on the inputs' device). The inputs are checked against the program's tensor
# types (dtype, rank, static dims; dynamic dims that torch.export named by one symbol
# must agree, [Note: symbolic dims]; each symbol within its Dim's range and every
# derived dim, 2*s or s+1, as the symbols make it: [Note: input sizes checked against
# the symbols] in frontends/torch/shape_guard.py) and an InputError names the input
# by its Python name; the outputs are the program's user outputs (buffers that a training-mode
# module mutates are returned by the exported graph too, left out here and written back
# into the module's buffers: [Note: mutated inputs written back]), in the
# model's own structure ([Note: the user's structure in and out]).


def _torch_interface_type(ft):
    """The function type a caller sees for torch-typed function type `ft`: each value
    tensor as the builtin tensor of its dtype, signed integers kept (`si64` -> int64
    arrays, `ui8` -> uint8), scalars as their builtin types."""
    from .conversion.torch_to_linalg.types import signed_tensor_type
    from .ir import attributes as A
    return A.TypeAttr(A.FunctionType([signed_tensor_type(t) for t in ft.inputs],
                                     [signed_tensor_type(t) for t in ft.results]))


class TorchCompiledModel(CompiledModel):
    """A compiled PyTorch program (see [Note: torch tensors in and out])."""

    def __init__(self, module, interface_op, function_op, target, instrumentation=None,
                 program=None, shapes=None, cached=None, mutations=None, state=None,
                 kinds=None, draws=None):
        # the results that are inputs' new contents ([Note: mutated inputs written back]),
        # of the imported module: `module` itself, or given with a cached model
        self._mutations = mutations if mutations is not None else \
            _torch_input_mutations(module) if module is not None else ()
        # the trailing inputs that are buffers the program writes: (input name, tensor)
        state = state if state is not None else \
            _torch_mutable_state(module) if module is not None else ()
        self._state = ()
        # the random draws the program's `strata_draw_k` inputs take ([Note: random
        # draws in a compiled program] in frontends/torch/importer.py)
        self._draws = tuple(draws if draws is not None else
                            _torch_random_draws(module) if module is not None else ())
        self._n_user = 0    # the user's inputs, before the draws and the buffers
        # per result of the imported function: "none", "int", "float", "bool" or None (a
        # tensor) ([Note: None and scalar results]); () when all are tensors
        self._kinds = kinds if kinds is not None else \
            _RESULT_KINDS.get(module, ()) if module is not None else ()
        self._nones = tuple(i for i, k in enumerate(self._kinds) if k == "none")
        super().__init__(module, interface_op, function_op, target, instrumentation,
                         cached)
        if self._nones:     # the names of all results, numbered as the program's
            names = iter(enumerate(self.output_names))
            full = []
            for i, kind in enumerate(self._kinds):
                j, name = (None, None) if kind == "none" else next(names)
                full.append(f"result{i}" if j is None or name == f"result{j}" else name)
            self.output_names = full
        dim_names = None
        if shapes:   # (torch.export's symbol per input dim, their ShapeGuard)
            dim_names, self._shape_guard = shapes
        if dim_names:
            # inputs whose dims torch.export named by one symbol must agree on them
            self._dim_groups = _named_dim_groups(dim_names, self.input_types)
            self._prepare_calls()
        self._user_outputs = None
        self._in_spec = self._out_spec = None
        self._constants = ()
        if program is not None:
            if state:
                tensors = {**(getattr(program, "constants", None) or {}),
                           **program.state_dict}
                self._state = tuple((name, tensors[target]) for name, target in state)
            self._n_user = len(_program_input_names(program))
            names = _program_input_names(program) + \
                [f"strata_draw_{k}" for k in range(len(self._draws))] + \
                [name for name, _ in self._state]
            if len(names) == len(self.input_names):
                self.input_names = names
            self._user_outputs = _program_user_outputs(
                program, len(self._kinds) or len(self.output_types))
            self._in_spec, self._out_spec = _program_specs(
                program, len(self.input_names) - len(self._state) - len(self._draws))
            self._constants = _program_constant_inputs(program) \
                if len(names) == len(self.input_names) else ()
            if self._out_spec is not None:
                n = len(self._user_outputs) if self._user_outputs is not None else \
                    len(self.output_names)
                keys = _output_keys(self._out_spec)
                if len(keys) == n:
                    base = self.output_names[-n:] if n else []
                    self.output_names = self.output_names[:len(self.output_names) - n] + \
                        [k or b for k, b in zip(keys, base)]

    def __call__(self, *args, **kwargs):
        """The model's outputs, in its own structure ([Note: the user's structure in and
        out]); a module compiled without its program gives the list of outputs."""
        results = self.flat(*args, **kwargs)
        if self._out_spec is not None:
            from torch.utils._pytree import tree_unflatten
            return tree_unflatten(results, self._out_spec)
        return results

    def flat(self, *args, **kwargs) -> list:
        """The list of the program's user outputs, flattened in the order of its
        out_spec (what `strata run` prints, named by `output_names`)."""
        import sys
        torch = sys.modules.get("torch")
        given_torch = None          # the device of the first torch tensor input
        given = (args, kwargs)      # what a mutated input is written back into
        if torch is not None:
            def unwrap(v):
                nonlocal given_torch
                if isinstance(v, torch.Tensor):
                    if given_torch is None:
                        given_torch = v.device
                    return v.detach() if v.requires_grad else v
                return v
            if self._in_spec is not None:
                args, kwargs = self._flatten_inputs(torch, args, kwargs)
                given = (args, kwargs)
            args = tuple(unwrap(a) for a in args)
            kwargs = {k: unwrap(v) for k, v in kwargs.items()}
            if given_torch is None and not any(
                    isinstance(v, np.ndarray) or hasattr(v, "__dlpack__")
                    for v in (*args, *kwargs.values())):
                given_torch = torch.device("cpu")   # no array in: torch tensors out
            # (after the user's inputs decided what comes out: NumPy in, NumPy out)
            if self._draws:     # torch's generator draws, as eager draws them
                kwargs = {**kwargs, **self._drawn(args, kwargs)}
            if self._state:     # the buffers the program writes, as they are now
                kwargs = {**kwargs, **dict(self._state)}
                given = (given[0], {**given[1], **dict(self._state)})
        if self._constants:
            self._check_constants(args, kwargs)
        results = super().__call__(*args, **kwargs)
        if self._kinds:
            results = self._with_scalars(results)
        if self._mutations:
            self._write_back(given, results)
        if self._user_outputs is not None:
            results = [results[i] for i in self._user_outputs]
        if given_torch is not None:
            results = [_to_torch(torch, r, given_torch) for r in results]
        return results

    def _drawn(self, args, kwargs) -> dict:
        """{strata_draw_k: its draw for this call} (the draws read sizes off the user's
        inputs, given by position or by name; a missing one is left to bind())."""
        names = self.input_names[len(args):self._n_user]
        inputs = list(args[:self._n_user]) + [kwargs.get(n) for n in names]
        try:
            return {f"strata_draw_{k}": d(inputs) for k, d in enumerate(self._draws)}
        except (TypeError, IndexError, AttributeError):
            return {}     # an input missing or of no shape: bind() names it

    def _with_scalars(self, results) -> list:
        """The results with the Nones the compiled function does not return put back,
        and scalar results as Python numbers ([Note: None and scalar results])."""
        results = list(results)
        for i in self._nones:
            results.insert(i, None)
        for i, kind in enumerate(self._kinds):
            if kind in ("int", "float", "bool") and results[i] is not None:
                results[i] = {"int": int, "float": float, "bool": bool}[kind](
                    np.asarray(results[i]).item())
        return results

    def _interface_json(self) -> dict:
        d = super()._interface_json()   # the compiled function's names: no None's
        d["output_names"] = [n for i, n in enumerate(self.output_names)
                             if i not in self._nones]
        return d

    def _flatten_inputs(self, torch, args, kwargs):
        """The user's nested inputs (a list or dict of tensors for one argument) as the
        program's flat inputs, when they have the structure it was exported with
        ([Note: the user's structure in and out])."""
        from torch.utils._pytree import tree_flatten
        try:
            flat, spec = tree_flatten((tuple(args), dict(kwargs)))
        except Exception:  # noqa: BLE001 - not a pytree: the plain checks explain
            return args, kwargs
        if spec != self._in_spec:
            if any(isinstance(v, (list, tuple, dict)) for v in (*args, *kwargs.values())):
                raise InputError(f"@{self.function}: the inputs' structure differs from "
                                 f"the example inputs' the program was exported with:\n"
                                 f"  given:    {spec}\n  exported: {self._in_spec}")
            return args, kwargs     # flat inputs, by position or by name
        return tuple(flat), {}

    def _check_constants(self, args, kwargs) -> None:
        """The int, float, bool and str inputs torch.export specialized are given their
        exported values ([Note: specialized scalar inputs])."""
        names = self.input_names
        for i, value in self._constants:
            if i < len(args):
                v = args[i]
            elif names[i] in kwargs:
                v = kwargs[names[i]]
            else:
                continue        # missing: bind() says so
            if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biuf":
                v = v.item()    # a 0-d array (`strata run --input n=n.npy`): its number
            if type(v) is not type(value) and not (
                    isinstance(v, (int, float)) and isinstance(value, (int, float)) and
                    not isinstance(v, bool) and not isinstance(value, bool)) or v != value:
                raise InputError(
                    f"input #{i} ('{names[i]}'): the program was exported with "
                    f"{names[i]} = {value!r}, a constant of the program (torch.export "
                    f"specializes {type(value).__name__} inputs), got {v!r}; export it "
                    f"with this value, or mark the input dynamic (dynamic_shapes: "
                    f"torch.export.Dim.DYNAMIC)")

    def _write_back(self, given, results) -> None:
        """Copy the new contents of the inputs the program writes in place into what the
        caller passed for them ([Note: mutated inputs written back] in
        frontends/torch/importer.py): a torch tensor or a writable NumPy array; a Python
        value has no memory to write."""
        args, kwargs = given
        for r, i in self._mutations:
            if i < len(args):
                target = args[i]
            elif i < len(self.input_names) and self.input_names[i] in kwargs:
                target = kwargs[self.input_names[i]]
            else:
                continue
            new = results[r]
            if isinstance(target, np.ndarray):
                if target.flags.writeable:
                    np.copyto(target, new, casting="unsafe")
            elif hasattr(target, "copy_") and hasattr(target, "detach"):
                import torch
                new = np.asarray(new)
                if not new.flags.c_contiguous:   # (not ascontiguousarray: 0-d stays 0-d)
                    new = np.array(new, order="C")
                with torch.no_grad():
                    target.copy_(torch.from_numpy(new))


def _torch_input_mutations(module) -> tuple:
    from .frontends.torch import input_mutations
    return input_mutations(module)


def _torch_random_draws(module) -> tuple:
    from .frontends.torch import random_draws
    return random_draws(module)


def _torch_mutable_state(module) -> tuple:
    from .frontends.torch import mutable_state
    return mutable_state(module)


# NumPy extension dtypes (ml_dtypes) -> the torch dtype of the same bits
_TORCH_EXTENSION_DTYPES = {"bfloat16": "bfloat16", "float8_e4m3fn": "float8_e4m3fn",
                           "float8_e5m2": "float8_e5m2", "float8_e4m3fnuz": "float8_e4m3fnuz",
                           "float8_e5m2fnuz": "float8_e5m2fnuz"}


def _to_torch(torch, r, device=None):
    """Output `r` as a torch tensor on `device` ([Note: torch tensors in and out]):
    sharing its memory where it is there already (`torch.from_numpy`; an ml_dtypes
    array, which torch cannot read, through an unsigned view of its bits; a device
    output through DLPack), copied to `device` otherwise."""
    on_host = device is None or device.type == "cpu"
    if isinstance(r, torch.Tensor):     # complex32 ([Note: complex inputs and outputs as
        return r if on_host else r.to(device)   # pairs])
    if not isinstance(r, np.ndarray):
        if not hasattr(r, "__dlpack_device__"):
            return r                                   # a Python scalar
        if r.__dlpack_device__()[0] == 1:              # kDLCPU
            t = torch.from_dlpack(r)
        elif not on_host:
            t = torch.from_dlpack(r)                   # device memory, no copy
        else:
            r = np.asarray(r)                          # downloaded for CPU inputs
            return _to_torch(torch, r, device)
        return t if on_host or t.device == device else t.to(device)
    if r.dtype.isbuiltin == 1:
        t = torch.from_numpy(r)
    else:
        name = _TORCH_EXTENSION_DTYPES.get(r.dtype.name)
        if name is None or not hasattr(torch, name):
            return r
        bits = r.view(np.uint16 if r.dtype.itemsize == 2 else np.uint8)
        t = torch.from_numpy(bits).view(getattr(torch, name))
    return t if on_host else t.to(device)


def _program_input_names(program) -> list:
    """The Python names of an ExportedProgram's user inputs, in order."""
    names = []
    for spec in program.graph_signature.input_specs:
        if spec.kind.name == "USER_INPUT":
            names.append(getattr(spec.arg, "name", f"arg{len(names)}"))
    return names


# [Note: the user's structure in and out]
# torch.export flattens a model's inputs and outputs (tuples, lists, dicts, dataclasses
# registered with torch.export.register_dataclass, HF's ModelOutput) into the graph's
# flat inputs and outputs, and keeps their structure as the program's pytree specs
# (`ep.call_spec.in_spec`, `out_spec`). A compiled program gives its outputs back in
# that structure, as the model returns them (a tensor, a tuple, a dict...), and takes
# inputs in the structure it was exported with (a list of tensors for one argument) as
# well as flat. A module imported without its program (an .mlir file) returns the list
# of outputs, as every compiled model does.


def _program_specs(program, n_inputs):
    """(in_spec or None, out_spec or None) of an ExportedProgram ([Note: the user's
    structure in and out]): in_spec only when the user's inputs are nested (a flat call
    needs no flattening), out_spec when it fits the program's user outputs."""
    spec = getattr(program, "call_spec", None)
    in_spec, out_spec = getattr(spec, "in_spec", None), getattr(spec, "out_spec", None)
    try:
        users = sum(1 for s in program.graph_signature.output_specs
                    if s.kind.name == "USER_OUTPUT")
        if out_spec is not None and out_spec.num_leaves != users:
            out_spec = None
        if in_spec is not None:
            args, kwargs = in_spec.children() if in_spec.num_children == 2 else \
                (None, None)
            flat = args is not None and all(c.is_leaf() for c in args.children()) and \
                all(c.is_leaf() for c in kwargs.children())
            if flat or in_spec.num_leaves != n_inputs:
                in_spec = None
    except Exception:  # noqa: BLE001 - a spec of another torch: the flat interface
        return None, None
    return in_spec, out_spec


def _output_keys(spec) -> list:
    """Per leaf of output spec `spec`, its path as a name where a dict key or a field
    names it (`logits`, `hidden.0`), else None ([Note: the user's structure in and
    out])."""
    from torch.utils import _pytree as P
    try:
        tree = P.tree_unflatten(list(range(spec.num_leaves)), spec)
        paths = P.tree_flatten_with_path(tree)[0]
    except Exception:  # noqa: BLE001 - a container that will not hold ints: no names
        return [None] * spec.num_leaves
    keys = []
    for path, _ in paths:
        if not any(isinstance(k, (P.MappingKey, P.GetAttrKey)) for k in path):
            keys.append(None)
            continue
        keys.append(".".join(str(k.key) if isinstance(k, P.MappingKey) else
                             k.name if isinstance(k, P.GetAttrKey) else
                             str(getattr(k, "idx", k)) for k in path))
    return keys


# [Note: specialized scalar inputs]
# torch.export keeps an int, float, bool or str argument of forward as an input of the
# program, but as the constant it was given (a ConstantArgument: the graph computes
# with that value, and torch's own `ep.module()` refuses another one). The compiled
# program's input is there, unused: a call with another value would silently compute
# with the exported one, so it is an InputError naming the input, as torch's guard is.


def _program_constant_inputs(program) -> tuple:
    """((user input position, value), ...) of the inputs torch.export specialized
    ([Note: specialized scalar inputs])."""
    out = []
    users = [s for s in program.graph_signature.input_specs if s.kind.name == "USER_INPUT"]
    for i, s in enumerate(users):
        if type(s.arg).__name__ == "ConstantArgument" and \
                isinstance(s.arg.value, (bool, int, float, str)):
            out.append((i, s.arg.value))
    return tuple(out)


def _program_user_outputs(program, n):
    """The positions of an ExportedProgram's user outputs among the `n` outputs of its
    imported graph (None: all of them). Decomposition functionalizes in-place updates
    of buffers and inputs into extra outputs, which torch.export puts before the user
    outputs."""
    users = sum(1 for s in program.graph_signature.output_specs
                if s.kind.name == "USER_OUTPUT")
    if users >= n:
        return None
    return list(range(n - users, n))


class CompileInstrumentation(Instrumentation):
    """Reports of a compilation: the IR after each pass (printed, or written to
    `dump_dir` as NN-<pass>.mlir) and the target's artefacts (LLVM IR, assembly)."""

    def __init__(self, print_after_all=False, dump_dir=None, out=None):
        super().__init__(print_after_all=print_after_all, out=out)
        self.dump_dir = os.fspath(dump_dir) if dump_dir is not None else None
        self.count = 0
        if self.dump_dir is not None:
            os.makedirs(self.dump_dir, exist_ok=True)

    def after_pass(self, p, op):
        super().after_pass(p, op)
        self.note(p.name, op)

    def note(self, name, op):
        """The IR after a step that is not a pass (or after pass `name`)."""
        if self.dump_dir is None:
            return
        root = op
        while root.parent_op is not None:
            root = root.parent_op
        self.artefact(f"{name}.mlir", self._print(root), print_it=False)

    def artefact(self, name, text, print_it=True):
        """A file the target made (LLVM IR, assembly), printed and/or dumped."""
        if print_it and self.print_after_all:
            self.out.write(f"// -----// {name} //----- //\n{text}\n\n")
        if self.dump_dir is not None:
            self.count += 1
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
            with open(os.path.join(self.dump_dir, f"{self.count:02d}-{safe}"), "w",
                      encoding="utf-8") as f:
                f.write(text)
