"""The interpreter: runs functions of a module op by op, with NumPy values.

    interp = Interpreter(module)
    y, = interp.call("main", x)            # or interp.call("main", X=x) by arg name

[Note: execution model]
A call gets a fresh frame (a dict Value -> value). Ops run in block order; an op's
implementation gets the values of its operands and returns the values of its results.
A value is dropped from the frame after the last op of its block that uses it (when all
its uses are in that block), so a long function holds only its live tensors.
Regions nested in an op (scf.for bodies, linalg bodies, onnx.If branches) run in the
frame of the enclosing call, so they see the values defined around them, as SSA scoping
says. `run_region(region, args)` runs a region from its entry block: a terminator with
successors (cf.br, cf.cond_br, cf.switch) jumps to another block of the region; any
other terminator ends the region and its operand values are the region's results.

[Note: op implementations]
One registry maps op names to implementations `fn(interp, op, args) -> list`, added with
the `@impl("dialect.op")` decorator. The modules holding Strata's own implementations are
listed once, in `_IMPL_MODULES`, and loaded the first time an Interpreter is made;
downstream code registers more the same way (registering a name twice is an error).

[Note: errors]
Everything that goes wrong while running an op becomes an `InterpreterError` located at
that op (a DiagnosticError: `file:line:col: error: 'tensor.extract' op index 4 is out
of bounds...`), with "called from" notes for the func.call chain. That includes
undefined behaviour MLIR leaves undiagnosed (integer division by zero, out-of-bounds
indices, poison shapes): a reference interpreter reports it rather than picking a value.
"""
from __future__ import annotations

import importlib

import numpy as np

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.core import OpResult
from ..ir.diagnostics import Diagnostic, DiagnosticError, ERROR
from ..ir.symbol_table import symbol_name
from .values import ValueMismatch, check_value, dtype_of, shape_fits

__all__ = ["Interpreter", "InterpreterError", "impl", "Jump", "IMPLS", "registered_ops"]

IMPLS: dict = {}

# Strata's own implementation modules (strata/interpreter/<name>.py), loaded once.
_IMPL_MODULES = ("ops_builtin", "ops_arith", "ops_math", "ops_scf", "ops_tensor",
                 "ops_linalg", "ops_onnx", "tosa", "ops_memref", "ops_strata_cpu",
                 "ops_gpu", "ops_vector", "ops_nvgpu")
_loaded = False


def impl(*names):
    """Register the decorated `fn(interp, op, args) -> list of result values` as the
    implementation of the ops named `names`."""
    def deco(fn):
        for n in names:
            if n in IMPLS:
                raise ValueError(f"interpreter implementation of '{n}' registered twice")
            IMPLS[n] = fn
        return fn
    return deco


def _load_impls():
    global _loaded
    if not _loaded:
        _loaded = True
        for m in _IMPL_MODULES:
            importlib.import_module(f"{__package__}.{m}")


def registered_ops() -> list[str]:
    """Names of every op the interpreter can run."""
    _load_impls()
    return sorted(IMPLS)


class InterpreterError(DiagnosticError):
    """An op could not be run (unknown op, undefined behaviour, bad input values)."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag)

    @classmethod
    def at(cls, op, message: str) -> "InterpreterError":
        if op is None:
            from ..ir.location import UnknownLoc
            return cls(Diagnostic(ERROR, UnknownLoc(), message))
        return cls(op.emit_error(message))


class Jump:
    """What a branch terminator's implementation returns: go to `block` with `args`."""

    __slots__ = ("block", "args")

    def __init__(self, block, args):
        self.block = block
        self.args = args


def fail(op, message: str):
    """Raise an InterpreterError at `op` (for implementations)."""
    raise InterpreterError.at(op, message)


class Interpreter:
    """Runs the functions of `module` (a builtin.module or any op with a symbol table).
    `check_types` checks every op's results against their types (dtype, static dims):
    it catches lowerings (and implementations) that produce values of the wrong type."""

    def __init__(self, module, check_types: bool = True):
        _load_impls()
        self.module = module
        self.check_types = check_types
        self.env: dict = {}
        self.globals: dict = {}      # mutable ml_program.global state: name -> value
        self.cache: dict = {}        # per-op memo for implementations (onnx runners...)
        self._symbols: dict | None = None
        # > 0 while a linalg body runs vectorized: values then are arrays for scalar types
        self.vectorized = 0
        # The loop indices of the running structured (linalg) ops, innermost last: one
        # value (or, vectorized, one index array) per loop, for linalg.index.
        self.loop_indices: list = []

    # ------------------------------------------------------------ symbols

    def lookup(self, name: str):
        if self._symbols is None:
            self._symbols = {}
            body = self.module.regions[0] if self.module.regions else None
            for op in (body.ops if body is not None and body.blocks else ()):
                n = symbol_name(op)
                if n is not None:
                    self._symbols.setdefault(n, op)
        return self._symbols.get(name)

    def functions(self) -> list[str]:
        self.lookup("")
        return [n for n, op in self._symbols.items() if op.regions and
                op.name in ("func.func", "ml_program.func", "ml_program.subgraph")]

    # ------------------------------------------------------------ calls

    def call(self, name: str, *args, **named) -> list:
        """Run function `name` on `args` (positional) and/or `named` (by argument name:
        the `onnx.name` argument attribute, else `argN`); returns its results."""
        f = self.lookup(name)
        if f is None or not f.regions:
            known = ", ".join("@" + n for n in self.functions()) or "none"
            raise InterpreterError.at(None, f"no function @{name} in the module "
                                            f"(functions: {known})")
        if not f.regions[0].blocks:
            raise InterpreterError.at(f, f"function @{name} is a declaration, it has no body")
        ftype = f.properties["function_type"].value
        values = bind_arguments(f, ftype, args, named)
        with np.errstate(all="ignore"):
            results = self.call_function(f, values)
        for i, (v, t) in enumerate(zip(results, ftype.results)):
            self._check_result(f, v, t, f"result #{i}")
        return results

    def call_function(self, f, args) -> list:
        """Run function op `f` on already checked argument values, in a fresh frame."""
        saved = self.env
        self.env = {}
        try:
            return self.run_region(f.regions[0], args)
        finally:
            self.env = saved

    # ------------------------------------------------------------ regions and ops

    def run_region(self, region, args) -> list:
        """Run `region` from its entry block with block arguments `args`; returns the
        values its terminator yields."""
        env = self.env
        block = region.blocks[0]
        while True:
            bargs = block.args
            if len(bargs) != len(args):
                raise InterpreterError.at(region.parent, f"region block expects {len(bargs)} "
                                                         f"arguments, got {len(args)}")
            for a, v in zip(bargs, args):
                env[a] = v
            last = block.last
            if last is None:
                return []
            op = block.first
            frees = self._frees(block)
            while op is not last:
                self.run_op(op)
                dead = frees.get(op)
                if dead:
                    for v in dead:
                        env.pop(v, None)
                op = op.next
            if T.Terminator not in type(last).traits:
                self.run_op(last)
                return []
            try:
                vals = [env[o.value] for o in last._operands]
            except KeyError:
                raise InterpreterError.at(last, "uses a value that has not been computed "
                                                "(a graph region?)") from None
            fn = IMPLS.get(last.name)
            if fn is None:  # yield-like terminators
                return vals
            r = self._invoke(fn, last, vals)
            if type(r) is Jump:
                block, args = r.block, r.args
                continue
            return r

    def _frees(self, block) -> dict:
        """op -> the values defined in `block` that are dead once the op has run: every
        use is in the block (or nested in its ops) and the op is the last user. Values
        used elsewhere (successor blocks) are kept. See [Note: execution model]."""
        key = ("frees", block)
        out = self.cache.get(key)
        if out is not None:
            return out
        out = {}
        pos = {}
        for i, op in enumerate(block.ops):
            pos[op] = i
        defs = list(block.args) + [r for op in block.ops for r in op.results]
        where = {}
        for v in defs:
            last, last_i = None, -1
            for u in v.uses:
                o = u.owner
                while o is not None and o.parent is not block:
                    o = o.parent_op
                if o is None:
                    last = None
                    break
                i = pos[o]
                if i > last_i:
                    last, last_i = o, i
            else:
                if last is None and isinstance(v, OpResult):
                    last = v.owner  # never used: dead at once
            if last is not None and last is not block.last:
                out.setdefault(last, []).append(v)
                where[v] = last
        # the values a check compares live until it has run: a failed one reports them
        # ([Note: failed checks report their values] in dialects/cf.py)
        for op in block.ops:
            if op.name == "cf.assert":
                from ..dialects.cf import check_leaves
                for _, lhs, rhs, _ in check_leaves(op.operand(0)):
                    for v in (lhs, rhs):
                        w = where.get(v)
                        if w is not None and pos[w] < pos[op]:
                            out[w].remove(v)
                            out.setdefault(op, []).append(v)
                            where[v] = op
        self.cache[key] = out
        return out

    def run_region_vectorized(self, region, args) -> list:
        """Run a region whose scalar block arguments are given as arrays (one element per
        point of an iteration space): each op computes all points at once. Only for
        regions `vectorizable` says yes to."""
        self.vectorized += 1
        try:
            return self.run_region(region, args)
        finally:
            self.vectorized -= 1

    def vectorizable(self, region) -> bool:
        """Whether every op of `region` computes elementwise on arrays standing for
        scalars: no nested regions, no calls, single block."""
        key = ("vectorizable", region)
        ok = self.cache.get(key)
        if ok is None:
            ok = len(region.blocks) == 1 and all(
                not op.regions and op.name not in _NOT_VECTORIZABLE for op in region.ops)
            self.cache[key] = ok
        return ok

    def run_op(self, op) -> list:
        """Run one op in the current frame; records and returns its results."""
        env = self.env
        fn = IMPLS.get(op.name)
        if fn is None:
            raise InterpreterError.at(op, "has no interpreter implementation")
        try:
            args = [env[o.value] for o in op._operands]
        except KeyError:
            raise InterpreterError.at(op, "uses a value that has not been computed "
                                          "(a graph region?)") from None
        res = self._invoke(fn, op, args)
        results = op.results
        if len(res) != len(results):
            raise InterpreterError.at(op, f"implementation returned {len(res)} values for "
                                          f"{len(results)} results")
        check = self.check_types and not self.vectorized
        for r, v in zip(results, res):
            if check:
                self._check_result(op, v, r.type, f"result #{r.index}")
            env[r] = v
        return res

    def _invoke(self, fn, op, args):
        try:
            return fn(self, op, args)
        except InterpreterError:
            raise
        except RecursionError:
            raise InterpreterError.at(op, "recursion too deep") from None
        except Exception as e:  # an implementation's bug or NumPy's complaint: locate it
            raise InterpreterError.at(op, f"failed: {type(e).__name__}: {e}") from e

    def _check_result(self, op, v, t, what):
        """`v` is a value of type `t`: the dtype, and the static dims of a shaped type."""
        try:
            d = dtype_of(t)
        except TypeError:
            return  # sequences, optionals, tokens...: not checked
        shaped = isinstance(t, A.ShapedType)
        tv = type(v)
        if tv is np.ndarray:
            if v.dtype == d and (shape_fits(v.shape, t) if shaped else v.ndim == 0):
                return
        elif not shaped and isinstance(v, np.generic) and v.dtype == d:
            return
        if v is None:
            raise InterpreterError.at(op, f"{what} of type '{t}' has no value")
        if shaped and tv is not np.ndarray:
            raise InterpreterError.at(op, f"{what} of type '{t}' is not an array "
                                          f"({tv.__name__})")
        if not shaped and tv is np.ndarray and v.ndim != 0:
            raise InterpreterError.at(op, f"{what} of type '{t}' is an array of shape "
                                          f"{v.shape}")
        try:
            check_value(v, t, what)
        except ValueMismatch as e:
            raise InterpreterError.at(op, f"produced a wrong value: {e}") from None
        raise InterpreterError.at(op, f"{what} of type '{t}' is a {tv.__name__} of "
                                      f"{getattr(v, 'dtype', '?')}")

    def value(self, v):
        """The current value of SSA value `v`."""
        return self.env[v]


def bind_arguments(f, ftype, args, named) -> list:
    """Match positional and keyword arguments to the parameters of function `f`
    (keyword names: the `onnx.name` argument attribute, else `arg0`, `arg1`...)."""
    names = arg_names(f)
    n = len(ftype.inputs)
    fname = symbol_name(f)
    if len(args) > n:
        raise InterpreterError.at(f, f"@{fname} takes {n} argument{'s' * (n != 1)}, got "
                                     f"{len(args)}")
    vals = list(args) + [_MISSING] * (n - len(args))
    for k, v in named.items():
        if k not in names:
            raise InterpreterError.at(f, f"@{fname} has no argument named '{k}' (arguments: "
                                         f"{', '.join(names)})")
        i = names.index(k)
        if vals[i] is not _MISSING:
            raise InterpreterError.at(f, f"argument '{k}' of @{fname} given twice")
        vals[i] = v
    missing = [names[i] for i, v in enumerate(vals) if v is _MISSING]
    if missing:
        raise InterpreterError.at(f, f"@{fname} takes {n} argument{'s' * (n != 1)}; "
                                     f"missing: "
                                     f"{', '.join(missing)}")
    out = []
    for i, (v, t) in enumerate(zip(vals, ftype.inputs)):
        try:
            out.append(check_value(v, t, f"argument #{i} ('{names[i]}') of @{fname}"))
        except ValueMismatch as e:
            raise InterpreterError.at(f, str(e)) from None
    return out


_MISSING = object()
# Ops that cannot take arrays where their operands are scalars.
_NOT_VECTORIZABLE = frozenset({"func.call", "func.call_indirect", "tensor.insert",
                               "cf.assert", "ml_program.global_store",
                               "ml_program.global_store_graph"})


def arg_names(f) -> list[str]:
    """The name of each argument of function op `f`: its `onnx.name` (or `strata.name`:
    a PyTorch program's input, see [Note: input names] in frontends/torch/importer.py)
    attribute, else `argN`."""
    return _names(f, "arg_attrs", f.properties["function_type"].value.inputs, "arg")


def result_names(f) -> list[str]:
    """The name of each result of `f`: its `onnx.name` attribute, else `resultN`."""
    return _names(f, "res_attrs", f.properties["function_type"].value.results, "result")


def _names(f, key, types, prefix):
    attrs = f.properties.get(key)
    out = []
    for i in range(len(types)):
        d = attrs[i] if attrs is not None and i < len(attrs) else None
        n = None
        if isinstance(d, A.DictionaryAttr):
            n = d.value.get("onnx.name") or d.value.get("strata.name")
        out.append(n.value if isinstance(n, A.StringAttr) else f"{prefix}{i}")
    return out
