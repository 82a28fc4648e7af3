"""Interpreter implementations: builtin, func, ml_program and cf ops."""
from __future__ import annotations

import numpy as np

from ..ir.symbol_table import lookup_nearest_symbol_from
from .core import InterpreterError, Jump, fail, impl
from .values import attr_to_value, int_width, to_unsigned

# ---------------------------------------------------------------- builtin


@impl("builtin.unrealized_conversion_cast")
def _unrealized_cast(interp, op, args):
    # A cast to !onnx.Seq / !onnx.Opt packs a sequence's elements / an optional's value
    # (how convert-onnx-to-linalg lowers sequences of a static length).
    t = op.results[0].type if len(op.results) == 1 else None
    kind = getattr(t, "mnemonic", None) if getattr(t, "dialect", None) == "onnx" else None
    if kind == "Seq":
        return [list(args)]
    if kind == "Opt" and len(args) <= 1:
        return [args[0] if args else None]
    if len(args) != len(op.results):
        fail(op, f"cannot interpret a {len(args)} to {len(op.results)} conversion cast")
    return args


# ---------------------------------------------------------------- func


def _callee(op, ref):
    f = lookup_nearest_symbol_from(op, ref)
    if f is None or not f.regions or not f.regions[0].blocks:
        fail(op, f"callee {ref} is not a function with a body")
    return f


def call_with_note(interp, op, f, args):
    """Call function op `f` from `op`; an error inside gets a "called from" note."""
    try:
        return interp.call_function(f, list(args))
    except InterpreterError as e:
        e.diag.attach_note("called from here", op.loc)
        raise


@impl("func.call")
def _call(interp, op, args):
    return call_with_note(interp, op, _callee(op, op.properties["callee"]), args)


@impl("func.constant")
def _func_constant(interp, op, args):
    return [_callee(op, op.properties["value"])]


@impl("func.call_indirect")
def _call_indirect(interp, op, args):
    return call_with_note(interp, op, args[0], args[1:])


# ---------------------------------------------------------------- ml_program


def _global(op):
    g = lookup_nearest_symbol_from(op, op.properties["global"])
    if g is None or g.name != "ml_program.global":
        fail(op, f"undefined global {op.properties['global']}")
    return g


def _initial(op, g):
    v = g.properties.get("value")
    if v is None:
        fail(op, f"global @{g.properties['sym_name'].value} has no initial value")
    if type(v).__name__ == "ExternAttr":
        fail(op, f"global @{g.properties['sym_name'].value} is external: its value is not "
                 "in the module")
    try:
        return attr_to_value(v, g.properties["type"].value)
    except (KeyError, ValueError) as e:  # a dense_resource whose blob is missing
        fail(op, f"cannot read the value of global @{g.properties['sym_name'].value}: {e}")


@impl("ml_program.global_load_const")
def _load_const(interp, op, args):
    g = _global(op)
    v = interp.cache.get(g)
    if v is None:
        v = interp.cache[g] = _initial(op, g)
    return [v]


def _load(interp, op):
    g = _global(op)
    name = g.properties["sym_name"].value
    if name not in interp.globals:
        v = _initial(op, g)
        interp.globals[name] = np.array(v) if isinstance(v, np.ndarray) else v
    return interp.globals[name]


def _store(interp, op, value):
    g = _global(op)
    if "is_mutable" not in g.properties:
        fail(op, "cannot store to an immutable global")
    interp.globals[g.properties["sym_name"].value] = value


@impl("ml_program.global_load")
def _global_load(interp, op, args):
    return [_load(interp, op)]


@impl("ml_program.global_load_graph")
def _global_load_graph(interp, op, args):
    return [_load(interp, op), None]


@impl("ml_program.global_store")
def _global_store(interp, op, args):
    _store(interp, op, args[0])
    return []


@impl("ml_program.global_store_graph")
def _global_store_graph(interp, op, args):
    _store(interp, op, args[0])
    return [None]


@impl("ml_program.token")
def _token(interp, op, args):
    return [None]


# ---------------------------------------------------------------- cf


@impl("cf.assert")
def _assert(interp, op, args):
    if not np.all(args[0]):
        fail(op, f"assertion failed: {_failed_message(interp, op)}")
    return []


def _failed_message(interp, op) -> str:
    """The message of failed check `op` with the values of its comparisons ([Note:
    failed checks report their values] in dialects/cf.py)."""
    from ..dialects.cf import check_leaves, encode_check_message, failed_check_message
    msg = op.properties["msg"].value
    leaves = check_leaves(op.operand(0))
    values = []
    for pred, lhs, rhs, _ in leaves:
        # (the comparison's own result may be freed after its last use: recomputed)
        a, b = _scalar(interp, lhs), _scalar(interp, rhs)
        if a is None or b is None:
            return msg
        if pred.startswith("u"):
            a, b = a & ((1 << 64) - 1), b & ((1 << 64) - 1)
        held = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[pred.lstrip("su") if pred not in ("eq", "ne") else pred]
        values += [int(held), a, b]
    return failed_check_message(encode_check_message(msg, [p for p, *_ in leaves]), values)


def _scalar(interp, v):
    """The int value of scalar Value `v` in `interp` (a constant's from its op), else
    None."""
    x = interp.env.get(v)
    if x is None:
        o = getattr(v, "owner", None)
        if getattr(o, "name", None) != "arith.constant":
            return None
        x = getattr(o.properties.get("value"), "value", None)
    try:
        return int(np.asarray(x).reshape(-1)[0])
    except (TypeError, ValueError, IndexError):
        return None


@impl("cf.br")
def _br(interp, op, args):
    return Jump(op.successors[0], args)


@impl("cf.cond_br")
def _cond_br(interp, op, args):
    i = 0 if bool(args[0]) else 1
    return Jump(op.successors[i], [interp.env[v] for v in op.successor_operands(i)])


@impl("cf.switch")
def _switch(interp, op, args):
    w = int_width(op._operands[0].value.type)
    flag = int(to_unsigned(args[0], w))
    target = 0
    for i, cv in enumerate(op.case_value_list):
        if cv & ((1 << w) - 1) == flag:
            target = i + 1
            break
    return Jump(op.successors[target], [interp.env[v] for v in op.successor_operands(target)])

