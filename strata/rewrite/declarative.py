"""Declarative rewrite patterns: match a small DAG of ops, check constraints, build the
replacement (what MLIR's DRR and PDLL do, written as Python expressions).

    X, Y = Var(), Var()
    PATTERNS = [
        # x + 0 -> x
        Pat(match=Op("arith.addi", X, Const(0)), rewrite=X),
        # x * c -> x  when c == 1
        Pat(match=Op("arith.muli", X, C := ConstInt()), where=lambda C: C.value == 1,
            rewrite=X),
        # (x + y) - y -> x
        Pat(match=Op("arith.subi", Op("arith.addi", X, Y), Y), rewrite=X),
        # a replacement built by Python code
        Pat(match=Op("arith.subi", X, Op("arith.subi", Y, X)),
            rewrite=lambda r, X, Y: r.create(arith.SubIOp, lhs=...).result),
    ]

A `Pat` is a RewritePattern rooted at the outer op: give it to the greedy driver
(`apply_patterns_greedily`), to dialect conversion, or return it from an op's
`canonicalization_patterns()`.

[Note: captures and names]
Match nodes capture what they match: a `Var` the Value, an `Op` the Operation, a
`Const`/`ConstInt`/`ConstFloat` a `Constant` (its `.value`, `.attr`, `.type` and the SSA
`.result`), an `Attr` the attribute. A node used twice must match the same thing
(`Y` above). `where` callables and `rewrite` callables receive captures by parameter
name; `op` is the root op, and one further parameter of a rewrite callable (by
convention `r` or `rewriter`) receives the rewriter. Nodes get their names from
`Var("X")`, or else from the variables they are bound to where the `Pat` is written
(`X = Var()`, `C := ConstInt()`), which `Pat` looks up in its caller's frame.

[Note: matching]
Operands are matched left to right with backtracking, so `commutative=True` tries both
orders of a binary op and later constraints can reject an earlier choice. `one_use=True`
on a nested `Op` (or `single_use=True` on the Pat for all of them) requires the matched
intermediate value to have exactly one use, so that the rewrite does not duplicate
work. The default benefit is the number of ops in the match, as DRR's.
"""
from __future__ import annotations

import inspect
import math
import sys

from ..ir import attributes as A
from ..ir.core import Operation, OpResult, UnregisteredOp, Value
from ..ir.traits import ConstantLike
from .folding import constant_value
from .pattern import RewritePattern

__all__ = ["Node", "Var", "Op", "Const", "ConstInt", "ConstFloat", "Attr", "Constant",
           "Pat"]


class Node:
    """A node of a match or rewrite DAG."""

    __slots__ = ("name", "where")

    def __init__(self, name=None, where=None):
        self.name = name
        self.where = where

    def _key(self):
        return self.name if self.name is not None else self

    def _label(self):
        return self.name or type(self).__name__


class Var(Node):
    """Any value (optionally of a type: a Type, a Type class, a Constraint, a predicate
    or a tuple of those); binds the Value."""

    __slots__ = ("type",)

    def __init__(self, name=None, type=None, where=None):
        super().__init__(name, where)
        self.type = type

    def __repr__(self):
        return f"Var({self.name!r})"


class Op(Node):
    """An op named `op` (a name or an op class) whose operands match `operands` (nodes;
    a final `...` accepts any further operands). In a match: `attrs` constrains
    attributes (an Attribute to equal, an `Attr` to capture, or a predicate), `type`
    the result type, `one_use` the number of uses of a nested op's result,
    `commutative` lets two operands match in either order. In a rewrite: builds the op;
    `attrs` values are Attributes, captures or callables over captures, and `type` gives
    the result type(s) (a Type, a list, a capture whose type to use, or a callable)
    when the op cannot infer it."""

    __slots__ = ("op", "operands", "attrs", "type", "one_use", "commutative")

    def __init__(self, op, *operands, attrs=None, type=None, one_use=False,
                 commutative=False, name=None, where=None):
        super().__init__(name, where)
        self.op = op
        self.operands = operands
        self.attrs = dict(attrs or {})
        self.type = type
        self.one_use = one_use
        self.commutative = commutative
        for x in operands:
            if x is not Ellipsis and not isinstance(x, Node):
                raise TypeError(f"operand pattern of '{self.op_name}' must be a node, not "
                                f"{x!r}")
        if Ellipsis in operands[:-1]:
            raise TypeError("`...` may only end an operand list")

    @property
    def op_name(self) -> str:
        return self.op if isinstance(self.op, str) else self.op.name

    def __repr__(self):
        return f"Op({self.op_name!r}, ...)"


CONSTANT_DEFINER = _CONST = object()  # operand requirement: defined by a ConstantLike op


def _operand_requirements(match):
    """What `match` (an Op node) needs of the ops defining the root's operands, checked
    before the matcher runs: (operand count, whether exact, whether the two operands
    may swap, ((position, op name or _CONST, nested requirements or None), ...)), or
    None when it needs nothing. A necessary condition only: the matcher decides."""
    reqs = []
    for i, n in enumerate(match.operands):
        if n is Ellipsis:
            break
        if isinstance(n, Op):
            reqs.append((i, n.op_name, _operand_requirements(n)))
        elif isinstance(n, (Const, ConstInt, ConstFloat)):
            reqs.append((i, _CONST, None))
    if not reqs:
        return None
    n_fixed = sum(1 for n in match.operands if n is not Ellipsis)
    exact = Ellipsis not in match.operands
    return n_fixed, exact, match.commutative and n_fixed == 2, tuple(reqs)


def _meets(op, requirements) -> bool:
    """Whether the definers of `op`'s operands satisfy `requirements` (see above)."""
    n_fixed, exact, swap, reqs = requirements
    ops = op._operands
    if len(ops) < n_fixed or (exact and len(ops) != n_fixed):
        return False
    for flip in ((False, True) if swap else (False,)):
        for i, kind, nested in reqs:
            d = getattr(ops[1 - i if flip else i].value, "owner", None)
            if kind is _CONST:
                if ConstantLike not in getattr(type(d), "traits", ()):
                    break
            elif getattr(d, "name", None) != kind or not isinstance(d, Operation) or \
                    (nested is not None and not _meets(d, nested)):
                break
        else:
            return True
    return False


class Const(Node):
    """A value defined by a constant op equal to `value` (an int, float, bool, or an
    Attribute); splat tensor/vector constants match by their element. Integers compare
    as bit patterns of the type's width (-1 matches all ones); floats compare exactly,
    sign of zero included, and NaN matches NaN."""

    __slots__ = ("value", "type")

    def __init__(self, value, type=None, name=None, where=None):
        super().__init__(name, where)
        self.value = value
        self.type = type

    def __repr__(self):
        return f"Const({self.value!r})"


class ConstInt(Node):
    """Any integer (or index) constant, scalar or splat; optionally equal to `value`."""

    __slots__ = ("value", "type")

    def __init__(self, value=None, type=None, name=None, where=None):
        super().__init__(name, where)
        self.value = value
        self.type = type


class ConstFloat(Node):
    """Any floating-point constant, scalar or splat; optionally equal to `value`."""

    __slots__ = ("value", "type")

    def __init__(self, value=None, type=None, name=None, where=None):
        super().__init__(name, where)
        self.value = value
        self.type = type


class Attr(Node):
    """In an `attrs={...}` entry: captures the attribute (None if absent, unless
    `required`), optionally checked by `where(attr)`."""

    __slots__ = ("required",)

    def __init__(self, name=None, where=None, required=True):
        super().__init__(name, where)
        self.required = required


class Constant:
    """What a constant node captures: `.value` (a Python int or float: the splat element
    for shaped constants), `.attr` (the constant's attribute), `.type` and `.result`
    (the SSA value) and `.op` (the constant op)."""

    __slots__ = ("value", "attr", "type", "result")

    def __init__(self, value, attr, type, result):
        self.value = value
        self.attr = attr
        self.type = type
        self.result = result

    @property
    def op(self):
        return self.result.owner

    def __repr__(self):
        return f"Constant({self.value!r} : {self.type})"


# ============================================================================ constraints


def _type_ok(spec, t) -> bool:
    if spec is None:
        return True
    if isinstance(spec, (tuple, list)):
        return any(_type_ok(s, t) for s in spec)
    if isinstance(spec, A.Type):
        return t == spec
    if isinstance(spec, type) and issubclass(spec, A.Attribute):
        return isinstance(t, spec)
    check = getattr(spec, "check", None)
    if check is not None:
        return bool(check(t))
    return bool(spec(t))


def _attr_ok(spec, a) -> bool:
    if isinstance(spec, A.Attribute):
        return a == spec
    if isinstance(spec, type) and issubclass(spec, A.Attribute):
        return isinstance(a, spec)
    if isinstance(spec, (int, float, str)) and not isinstance(spec, bool):
        return getattr(a, "value", _NO) == spec
    return bool(spec(a))


_NO = object()


def _elem_type(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


def _width(t):
    e = _elem_type(t)
    return 64 if isinstance(e, A.IndexType) else getattr(e, "width", 64)


def _int_of(attr):
    from ..dialects.constant_fold import int_splat
    if isinstance(attr, A.IntegerAttr) and isinstance(attr.type, (A.IntegerType, A.IndexType)):
        return attr.value
    if isinstance(attr, A.IntegerAttr):
        return None
    return int_splat(attr) if isinstance(_elem_type(attr.type),
                                         (A.IntegerType, A.IndexType)) else None


def _float_of(attr):
    from ..dialects.constant_fold import float_splat
    if isinstance(attr, A.FloatAttr):
        return attr.value
    r = float_splat(attr) if hasattr(attr, "type") else None
    return None if r is None else r[0]


def _same_float(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _const_capture(node, value: Value):
    """The Constant `value` is, if it satisfies `node`, else None."""
    attr = constant_value(value)
    if attr is None or not hasattr(attr, "type"):
        return None
    t = value.type
    if getattr(node, "type", None) is not None and not _type_ok(node.type, t):
        return None
    want = node.value
    if isinstance(node, ConstFloat) or (isinstance(node, Const) and isinstance(want, float)):
        x = _float_of(attr)
        if x is None or (want is not None and not _same_float(x, float(want))):
            return None
        return Constant(x, attr, t, value)
    if isinstance(node, Const) and isinstance(want, A.Attribute):
        return Constant(_int_of(attr) if _int_of(attr) is not None else _float_of(attr),
                        attr, t, value) if attr == want else None
    x = _int_of(attr)
    if x is None:
        return None
    if want is not None:
        w = _width(t)
        mask = (1 << w) - 1
        if (x & mask) != (int(want) & mask):
            return None
    return Constant(x, attr, t, value)


# ============================================================================ matching


def _walk(node):
    """Every node of a DAG (each once)."""
    seen, out, stack = set(), [], [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, Node) or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        if isinstance(n, Op):
            stack.extend(reversed([x for x in n.operands if x is not Ellipsis]))
            stack.extend(v for v in n.attrs.values() if isinstance(v, Node))
            if isinstance(n.type, Node):
                stack.append(n.type)
    return out


def _bind(binds, node, obj):
    """`binds` extended with node -> obj, or None if the node is bound to another."""
    k = node._key()
    cur = binds.get(k, _NO)
    if cur is not _NO:
        return binds if cur is obj or _same_capture(cur, obj) else None
    if node.where is not None and not node.where(obj):
        return None
    new = dict(binds)
    new[k] = obj
    return new


def _same_capture(a, b):
    if isinstance(a, Constant) and isinstance(b, Constant):
        return a.result is b.result
    return False


class _Matcher:
    __slots__ = ("single_use",)

    def __init__(self, single_use):
        self.single_use = single_use

    def value(self, node, v, binds):
        """Bindings under which `node` matches value `v` (a generator)."""
        if isinstance(node, Var):
            if node.type is not None and not _type_ok(node.type, v.type):
                return
            b = _bind(binds, node, v)
            if b is not None:
                yield b
            return
        if isinstance(node, Op):
            d = v.owner if isinstance(v, OpResult) else None
            if d is None or d.name != node.op_name:
                return
            if (node.one_use or self.single_use) and not v.has_one_use():
                return
            yield from self.op(node, d, binds)
            return
        if isinstance(node, (Const, ConstInt, ConstFloat)):
            c = _const_capture(node, v)
            if c is None:
                return
            b = _bind(binds, node, c)
            if b is not None:
                yield b
            return
        raise TypeError(f"{type(node).__name__} cannot match a value")

    def op(self, node: Op, op: Operation, binds):
        if op.name != node.op_name:
            return
        if node.type is not None:
            if isinstance(node.type, Node):
                raise TypeError("a match node's `type` is a constraint, not a capture")
            if len(op.results) != 1 or not _type_ok(node.type, op.results[0].type):
                return
        for k, spec in node.attrs.items():
            a = op.get_attr(k)
            if isinstance(spec, Attr):
                if a is None and spec.required:
                    return
                binds = _bind(binds, spec, a)
                if binds is None:
                    return
            elif a is None or not _attr_ok(spec, a):
                return
        binds = _bind(binds, node, op)
        if binds is None:
            return
        pats = list(node.operands)
        vals = op.operands
        if pats and pats[-1] is Ellipsis:
            pats.pop()
            if len(vals) < len(pats):
                return
            vals = vals[:len(pats)]
        elif len(vals) != len(pats):
            return
        yield from self.seq(pats, vals, 0, binds)
        if node.commutative and len(pats) == 2:
            yield from self.seq([pats[1], pats[0]], vals, 0, binds)

    def seq(self, pats, vals, i, binds):
        if i == len(pats):
            yield binds
            return
        for b in self.value(pats[i], vals[i], binds):
            yield from self.seq(pats, vals, i + 1, b)


# ============================================================================ the pattern


def _params(fn):
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def _caller_frame():
    f = sys._getframe(1)
    while f is not None and f.f_globals.get("__name__") == __name__:
        f = f.f_back
    return f


def _name_nodes(nodes, frame):
    """Give unnamed nodes the names of the variables that hold them in `frame`."""
    unnamed = {id(n): n for n in nodes if n.name is None}
    if not unnamed or frame is None:
        return
    for scope in (frame.f_locals, frame.f_globals):
        for k, v in list(scope.items()):
            n = unnamed.get(id(v))
            if n is not None and n.name is None and not k.startswith("_"):
                n.name = k


class Pat(RewritePattern):
    """A declarative rewrite pattern (see the module docstring).

    match:   an `Op` node: the root op and the DAG below it.
    rewrite: a capture (its value replaces the root's result; an Op capture gives its
             results), an `Op` node to build, a callable `(r, <captures>...)` returning
             a Value, a list of Values or an Operation (or None to decline, before
             changing anything), or a list of those for a multi-result root.
    where:   a callable over captures (by parameter name), or a list of them: all must
             hold.
    benefit: defaults to the number of ops in `match`.
    single_use: every nested op of the match must have one use.
    name:    the pattern's debug name (for --canonicalize disable/enable lists).
    """

    def __init__(self, match: Op, rewrite, where=None, benefit=None, name=None,
                 single_use=False, generated_ops=None):
        if not isinstance(match, Op):
            raise TypeError("Pat(match=...) must be an Op node: the root of the match")
        self.match = match
        self.rewrite = rewrite
        self.where = list(where) if isinstance(where, (list, tuple)) else \
            ([where] if where is not None else [])
        self.root = match.op_name
        nodes = _walk(match)
        self.benefit = benefit if benefit is not None else \
            sum(1 for n in nodes if isinstance(n, Op))
        rw_nodes = []
        for r in (rewrite if isinstance(rewrite, (list, tuple)) else [rewrite]):
            if isinstance(r, Node):
                rw_nodes.extend(_walk(r))
        _name_nodes(nodes + rw_nodes, _caller_frame())
        self._matcher = _Matcher(single_use)
        # Checked before the matcher runs; FrozenPatternSet also uses the first level
        # to skip the pattern for ops whose operand definers cannot match.
        self.operand_requirements = _operand_requirements(match)
        self._names = {n.name for n in nodes if n.name is not None}
        matched = {id(n) for n in nodes}

        def captured(n):
            return id(n) in matched or (n.name is not None and n.name in self._names)

        self._builds = [n for n in rw_nodes if isinstance(n, Op) and not captured(n)]
        for n in rw_nodes:
            if not captured(n) and not isinstance(n, Op):
                raise ValueError(f"rewrite uses {n._label()}, which the match does not "
                                 "capture")
        self._where_params = [self._check_params(w, "where") for w in self.where]
        self._rw_param = None
        for r in (rewrite if isinstance(rewrite, (list, tuple)) else [rewrite]):
            if callable(r) and not isinstance(r, Node):
                self._check_params(r, "rewrite", rewriter_ok=True)
        for n in self._builds:
            for v in list(n.attrs.values()) + [n.type]:
                if callable(v) and not isinstance(v, (Node, A.Attribute, type)):
                    self._check_params(v, "rewrite")
        self.generated_ops = tuple(generated_ops) if generated_ops is not None else \
            tuple(dict.fromkeys(n.op_name for n in self._builds))
        self._name = name

    def _check_params(self, fn, what, rewriter_ok=False):
        params = _params(fn)
        extra = [p for p in params if p not in self._names and p != "op"]
        if rewriter_ok and len(extra) <= 1:
            return params
        if extra:
            raise ValueError(f"{what} callable of pattern on '{self.root}' takes "
                             f"{', '.join(extra)}, which the match does not capture "
                             f"(captures: {', '.join(sorted(self._names)) or 'none'})")
        return params

    @property
    def debug_name(self):
        return self._name or f"Pat<{self.root}>"

    # ------------------------------------------------------------ applying
    def match_and_rewrite(self, op, rewriter) -> bool:
        req = self.operand_requirements
        if req is not None and not _meets(op, req):
            return False
        for binds in self._matcher.op(self.match, op, {}):
            caps = {k: v for k, v in binds.items() if isinstance(k, str)}
            caps["op"] = op
            if not all(w(**{p: caps[p] for p in params})
                       for w, params in zip(self.where, self._where_params)):
                continue
            values = self._replacement(rewriter, caps, binds, op)
            if values is None:
                continue
            rewriter.replace_op(op, values)
            return True
        return False

    def _replacement(self, rewriter, caps, binds, op):
        items = self.rewrite if isinstance(self.rewrite, (list, tuple)) else [self.rewrite]
        values = []
        for item in items:
            if isinstance(item, Node):
                values.extend(_as_values(self._build(item, rewriter, caps, binds, op)))
                continue
            params = _params(item)
            kw = {}
            for p in params:
                kw[p] = caps[p] if p in caps else rewriter
            out = item(**kw)
            if out is None:
                return None
            values.extend(_as_values(out))
        if len(values) != len(op.results):
            raise ValueError(f"pattern '{self.debug_name}' gives {len(values)} values for "
                             f"the {len(op.results)} results of '{op.name}'")
        return values

    def _build(self, node, rewriter, caps, binds, root):
        k = node._key()
        if k in binds:
            return binds[k]
        if not isinstance(node, Op):
            raise ValueError(f"{node._label()} is not captured by the match")
        operands = []
        for x in node.operands:
            if x is Ellipsis:
                raise ValueError("`...` cannot appear in a rewrite")
            operands.extend(_as_values(self._build(x, rewriter, caps, binds, root)))
        cls = _op_class(node.op)
        props, attrs = {}, {}
        prop_names = getattr(cls, "_prop_names", ())
        for name, spec in node.attrs.items():
            a = _eval(spec, rewriter, caps, binds, self)
            if isinstance(a, Constant):
                a = a.attr
            if a is None:
                continue
            (props if name in prop_names else attrs)[name] = a
        if cls is not None and _has_segments(cls) and "operandSegmentSizes" not in props:
            raise ValueError(f"pattern '{self.debug_name}': build '{node.op_name}' (an op "
                             "with operand segments) in a rewrite callable")
        types = self._result_types(node, cls, operands, props, caps, binds, root, rewriter)
        if cls is None:
            new = UnregisteredOp.create(operands, types, properties=props,
                                        attributes=attrs, loc=root.loc, name=node.op_name)
        else:
            new = cls.create(operands, types, properties=props, attributes=attrs,
                             loc=root.loc)
        rewriter.insert(new)
        return new

    def _result_types(self, node, cls, operands, props, caps, binds, root, rewriter):
        spec = node.type
        if spec is not None:
            t = _eval(spec, rewriter, caps, binds, self)
            if isinstance(t, Value):
                return [t.type]
            if isinstance(t, Constant):
                return [t.type]
            if isinstance(t, Operation):
                return [r.type for r in t.results]
            return list(t) if isinstance(t, (list, tuple)) else [t]
        if cls is not None and getattr(cls, "_result_defs", None) is not None:
            if not cls._result_defs:
                return []
            try:
                return list(cls.infer_result_types(operands, props))
            except TypeError:
                pass
        if node is self.rewrite or (isinstance(self.rewrite, (list, tuple)) and
                                    node in self.rewrite and len(self.rewrite) == 1):
            return [r.type for r in root.results]
        if operands:
            return [operands[0].type]
        raise ValueError(f"pattern '{self.debug_name}': give the result type of "
                         f"'{node.op_name}' with type=...")


def _eval(spec, rewriter, caps, binds, pat):
    if isinstance(spec, Node):
        k = spec._key()
        if k not in binds:
            raise ValueError(f"{spec._label()} is not captured by the match")
        return binds[k]
    if isinstance(spec, (A.Attribute, list, tuple)) or isinstance(spec, type):
        return spec
    if callable(spec):
        return spec(**{p: caps[p] if p in caps else rewriter for p in _params(spec)})
    return spec


def _as_values(x):
    if isinstance(x, Value):
        return [x]
    if isinstance(x, Operation):
        return list(x.results)
    if isinstance(x, Constant):
        return [x.result]
    if isinstance(x, (list, tuple)):
        out = []
        for y in x:
            out.extend(_as_values(y))
        return out
    raise TypeError(f"not a replacement value: {x!r}")


def _has_segments(cls):
    from ..ir.traits import AttrSizedOperandSegments
    return AttrSizedOperandSegments in getattr(cls, "traits", ())


_OP_CLASSES: dict = {}


def _op_class(op):
    if not isinstance(op, str):
        return op
    cls = _OP_CLASSES.get(op, _NO)
    if cls is _NO:
        from ..dialects import default_context
        cls = _OP_CLASSES[op] = default_context().get_op(op)
    return cls
