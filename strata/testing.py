"""Test helpers: differential checking of passes by execution.

    from strata.testing import check_pass_preserves_semantics

    def test_lowering_keeps_values():
        check_pass_preserves_semantics(MLIR_TEXT, "convert-onnx-to-linalg,canonicalize")

The function(s) of the module run in the reference interpreter on the same inputs
(random ones drawn from the signature unless given) before and after the pipeline, and
the outputs must agree: same dtypes and shapes, integers and booleans exactly, floats
within rtol/atol (NaN where NaN). A mismatch fails with the function, the output and the
IR after the pipeline.
"""
from __future__ import annotations

import numpy as np

__all__ = ["check_pass_preserves_semantics", "random_inputs", "assert_outputs_close"]


def _module(module_or_text):
    from .ir.core import Operation
    if isinstance(module_or_text, Operation):
        return module_or_text
    from .dialects import default_context
    from .syntax.parser import parse_source
    return parse_source(module_or_text, default_context(), "<test>")


def _functions(module, function):
    from .ir.symbol_table import symbol_name
    if function is not None:
        return [function] if isinstance(function, str) else list(function)
    out = []
    for op in module.regions[0].ops:
        if op.name in ("func.func", "ml_program.func") and op.regions[0].blocks:
            vis = op.properties.get("sym_visibility")
            if vis is None or vis.value == "public":
                out.append(symbol_name(op))
    return out


def random_inputs(module, function: str, seed: int = 0, dynamic_size: int = 3) -> list:
    """Random values for the arguments of `function` (see values.random_value)."""
    from .interpreter.values import random_value
    from .ir.symbol_table import SymbolTable
    f = SymbolTable(module).lookup(function)
    if f is None:
        raise ValueError(f"no function @{function}")
    rng = np.random.default_rng(seed)
    return [random_value(t, rng, dynamic_size)
            for t in f.properties["function_type"].value.inputs]


def assert_outputs_close(expected, got, rtol=1e-5, atol=1e-6, what="output"):
    """Outputs (lists of values) agree: dtype, shape, and values (see the module doc)."""
    if len(expected) != len(got):
        raise AssertionError(f"{len(got)} output{'' if len(got) == 1 else 's'}, expected "
                             f"{len(expected)}")
    for i, (e, g) in enumerate(zip(expected, got)):
        _close(e, g, rtol, atol, f"{what} #{i}")


def _close(e, g, rtol, atol, what):
    if isinstance(e, list) or e is None:
        if type(e) is not type(g) or (e is not None and len(e) != len(g)):
            raise AssertionError(f"{what}: {g!r} differs from {e!r}")
        for k, (a, b) in enumerate(zip(e or [], g or [])):
            _close(a, b, rtol, atol, f"{what}[{k}]")
        return
    e, g = np.asarray(e), np.asarray(g)
    if e.dtype.kind in "iu" and g.dtype.kind in "iu" and e.dtype.itemsize == g.dtype.itemsize:
        # a lowering may make `uiN` signless (`iN`): the same bits
        g = g.view(e.dtype)
    if e.dtype != g.dtype:
        raise AssertionError(f"{what}: dtype {g.dtype}, expected {e.dtype}")
    if e.shape != g.shape:
        raise AssertionError(f"{what}: shape {g.shape}, expected {e.shape}")
    if e.dtype.kind in "biuO":
        if not np.array_equal(e, g):
            bad = np.argwhere(e != g)
            raise AssertionError(f"{what}: {len(bad)} elements differ, first at "
                                 f"{tuple(bad[0])}: {g[tuple(bad[0])]!r} != "
                                 f"{e[tuple(bad[0])]!r}")
        return
    wide = np.complex128 if e.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(g.astype(wide), e.astype(wide), rtol=rtol, atol=atol,
                               equal_nan=True, err_msg=what)


def check_pass_preserves_semantics(module_or_text, pipeline, inputs=None, rtol=1e-5,
                                   atol=1e-6, seed=0, function=None):
    """Run the module's public functions (or `function`) in the interpreter before and
    after `pipeline` (pass names, a comma-separated list, or `builtin.module(...)` text)
    and assert the outputs agree. `inputs`: a list of arrays or a dict by argument name
    (for one function), or a dict function name -> such a list/dict; default random
    values from the signature (`seed`). The given module is not changed. Returns
    {function: (outputs before, outputs after)}."""
    from .compiler import build_pipeline
    from .interpreter import Interpreter
    from .syntax.printer import print_op
    before = _module(module_or_text)
    after = before.clone()
    funcs = _functions(before, function)
    if not funcs:
        raise ValueError("the module has no public function with a body to run")
    build_pipeline(pipeline if isinstance(pipeline, str) else list(pipeline)).run(after)
    out = {}
    for name in funcs:
        args = _inputs_for(inputs, name, funcs)
        if args is None:
            args = random_inputs(before, name, seed)
        pos, kw = (([], args) if isinstance(args, dict) else (list(args), {}))
        expected = Interpreter(before).call(name, *_copies(pos), **_copies(kw))
        try:
            got = Interpreter(after).call(name, *_copies(pos), **_copies(kw))
        except Exception as e:
            raise AssertionError(f"@{name} fails to run after '{pipeline}': {e}\n"
                                 f"IR after the pipeline:\n{print_op(after)}") from e
        try:
            assert_outputs_close(expected, got, rtol, atol, f"@{name} result")
        except AssertionError as e:
            raise AssertionError(f"'{pipeline}' changed what @{name} computes: {e}\n"
                                 f"IR after the pipeline:\n{print_op(after)}") from None
        out[name] = (expected, got)
    return out


def _inputs_for(inputs, name, funcs):
    """The inputs given for function `name`: `inputs` itself, or its entry for `name`
    when `inputs` is a dict keyed by function names."""
    if isinstance(inputs, dict) and inputs and set(inputs) <= set(funcs):
        return inputs.get(name)
    return inputs


def _copies(vals):
    """Fresh copies, so that neither run can see what the other did to its inputs."""
    if isinstance(vals, dict):
        return {k: np.array(v) if isinstance(v, np.ndarray) else v for k, v in vals.items()}
    return [np.array(v) if isinstance(v, np.ndarray) else v for v in vals]
