"""onnx-shape-inference's symbolic dims on every ONNX backend node-test model.

Each model is imported (static types from onnx's inference of the whole model), then its
function's arguments are made fully dynamic, each dim named in `onnx.dim_params`, and
every onnx op result is made unranked; onnx-shape-inference runs again. It must not
fail, and what it says must hold at the test's real sizes:
- the static dims it infers are the ones onnx inferred with every size known (symbols
  cancel in Reshape's -1, Flatten/Reshape round trips...);
- every dim name it writes (`onnx.dim_params` on ops: names, products `2*n`, fresh
  `?k`) evaluates to the dim's real size, the arguments' names standing for their real
  sizes and each fresh name for one size.
Names are given per size (equal sizes share a name: the paths where two dims are one
symbol) and per argument dim (all distinct: the paths where they are not).
"""
from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("onnx")

from test_onnx_shape_inference_nodes import ONNX_WRONG, _Capture, _erase  # noqa: E402

from strata.frontends.onnx import import_model  # noqa: E402
from strata.ir import attributes as A  # noqa: E402
from strata.transforms.onnx_shape_inference import OnnxShapeInference  # noqa: E402
from strata.transforms.onnx_shape_inference.core import refine  # noqa: E402

_PART = re.compile(r"(.+?)(?:\^(\d+))?\Z")


def _symbolize(module, by_size):
    """Make the arguments of the module's functions dynamic, with dim names; returns the
    real size of each name."""
    sizes = {}
    for fn in module.regions[0].blocks[0].ops:
        if fn.name != "func.func" or not fn.regions[0].blocks:
            continue
        block = fn.regions[0].blocks[0]
        ft = fn.properties["function_type"].value
        old = fn.properties.get("arg_attrs")
        attrs = list(old.value) if old is not None else [A.DictionaryAttr({})] * len(ft.inputs)
        inputs = list(ft.inputs)
        for i, arg in enumerate(block.args):
            t = arg.type
            if type(t) is not A.RankedTensorType or not t.shape:
                continue
            names = [f"d{d}" if by_size else f"a{i}_{k}" for k, d in enumerate(t.shape)]
            sizes.update(zip(names, t.shape))
            arg.type = inputs[i] = A.RankedTensorType([A.DYNAMIC] * t.rank, t.element_type)
            d = dict(attrs[i].value)
            d["onnx.dim_params"] = A.ArrayAttr([A.StringAttr(n) for n in names])
            attrs[i] = A.DictionaryAttr(d)
        fn.properties["function_type"] = A.TypeAttr(A.FunctionType(inputs, ft.results))
        fn.properties["arg_attrs"] = A.ArrayAttr(attrs)
    return sizes


def _names(op, r):
    a = op.attributes.get("onnx.dim_params")
    if a is None:
        return None
    if len(op.results) > 1:
        a = a.value[list(op.results).index(r)]
    return [s.value for s in a.value]


def _value(name, sizes, fresh):
    """The size a written name stands for (None: a fresh name not yet seen alone)."""
    n = 1
    for part in name.split("*"):
        if part.isdigit():
            n *= int(part)
            continue
        atom, exp = _PART.match(part).groups()
        v = sizes.get(atom, fresh.get(atom))
        if v is None:
            return None
        n *= v ** int(exp or 1)
    return n


def _check_case(case, by_size, problems):
    try:
        module = import_model(case.model)
    except Exception:  # noqa: BLE001 - the importer's tests judge that
        return 0
    erased = _erase(module)
    sizes = _symbolize(module, by_size)
    p = OnnxShapeInference()
    p.instrumentation = _Capture()
    try:
        p.run(module)
    except Exception as e:  # noqa: BLE001 - reported with the others
        problems.append(f"{case.name}: {type(e).__name__}: {e}")
        return 0
    named, fresh = [], {}
    for r, t in erased.items():
        if r.owner is None:     # its op was folded away by the pass: nothing inferred
            continue
        _, conflict = refine(r.type, t)
        if conflict and case.name not in ONNX_WRONG:
            problems.append(f"{case.name}: {r.owner.name} inferred {r.type}, onnx {t}")
            continue
        names = _names(r.owner, r) if type(t) is A.RankedTensorType else None
        for name, real in zip(names or (), t.shape if names else ()):
            if name and real != A.DYNAMIC:
                named.append((r, name, real))
                if name.startswith("?") and "*" not in name and "^" not in name:
                    if fresh.setdefault(name, real) != real:
                        problems.append(f"{case.name}: {name} is {fresh[name]} and {real}")
    for r, name, real in named:
        v = _value(name, sizes, fresh)
        if v is not None and v != real:
            problems.append(f"{case.name}: {r.owner.name} dim {name} = {v}, really {real}")
    return len(named)


@pytest.mark.parametrize("by_size", [True, False], ids=["names_per_size", "names_per_dim"])
def test_symbols_hold_at_the_real_sizes(by_size):
    from onnx.backend.test.loader import load_node_model_tests
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = load_node_model_tests()
    problems, named = [], 0
    for case in cases:
        named += _check_case(case, by_size, problems)
    assert not problems, "\n".join(problems[:50])
    assert named > 5000
