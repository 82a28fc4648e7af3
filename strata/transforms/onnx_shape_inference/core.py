"""What shape inference knows about values, and what a rule sees of an op.

A shape is a tuple of dims, each an int, a `Sym` (a `?` dim known symbolically, see
[Note: symbolic dims] in symbols.py) or None (unknown), or None for an unknown rank.
Small integer (and float) tensors, the data of shape computations, may also have a
`Partial` value: their elements, each an int/float, a Sym or None (`Shape` gives the
dims of its operand, `Gather`/`Concat`/`Unsqueeze`... carry them on, `Reshape` reads
them), as ONNX's data propagation does.
"""
from __future__ import annotations

from ...dialects import onnx as O
from ...ir import attributes as A
from . import symbols as S
from .symbols import Sym

__all__ = ["Partial", "Conflict", "InferContext", "shape_of", "make_type", "broadcast",
           "refine", "MAX_PARTIAL", "static", "statics", "differ", "Sym"]

DYN = A.DYNAMIC
NONE_TYPE = A.NoneType()
# Values with more elements are not tracked element by element.
MAX_PARTIAL = 1024


class Conflict(Exception):
    """The operands contradict each other (incompatible shapes): a located error."""


class Partial:
    """A tensor value known element by element: `shape` and the flat `vals` (row-major),
    each a Python int/float, a Sym (a size known symbolically) or None when unknown."""

    __slots__ = ("shape", "vals")

    def __init__(self, shape, vals):
        self.shape = tuple(shape)
        self.vals = list(vals)

    @property
    def known(self) -> bool:
        """Whether every element is a number."""
        return all(v is not None and type(v) is not Sym for v in self.vals)

    def __repr__(self):
        return f"Partial({self.shape}, {self.vals})"


def shape_of(t):
    """The dims of a tensor type (None entries for `?`), or None (unranked / not a
    tensor)."""
    if type(t) is A.RankedTensorType:
        return tuple(None if d == DYN else d for d in t.shape)
    return None


def make_type(shape, element_type):
    """A tensor type of `shape` (None: unranked) and `element_type`."""
    if shape is None:
        return A.UnrankedTensorType(element_type)
    return A.RankedTensorType([d if type(d) is int else DYN for d in shape], element_type)


def static(d):
    """`d` if it is a static size, else None (symbols forgotten)."""
    return d if type(d) is int else None


def statics(shape):
    """`shape` with its symbolic dims forgotten (None), for rules that compute on sizes."""
    return None if shape is None else tuple(d if type(d) is int else None for d in shape)


def differ(a, b) -> bool:
    """Whether two dims are known to be different sizes."""
    return type(a) is int and type(b) is int and a != b


def broadcast_dim(a, b):
    """Two dims broadcast together (multidirectional, numpy-style); raises Conflict.
    A `?` dim may be 1 at run time: against a static size it gives that size, against
    the same symbol that symbol, against anything else an unknown."""
    if a == 1:
        return b
    if b == 1:
        return a
    if a == b or S.bounded_by(b, a):
        return a
    if S.bounded_by(a, b):
        return b
    if type(a) is int and type(b) is int:
        raise Conflict(f"dims {a} and {b} cannot be broadcast together")
    if type(a) is int:
        return a
    if type(b) is int:
        return b
    return None


def broadcast(*shapes):
    """The broadcast of several shapes (None when a rank is unknown)."""
    if any(s is None for s in shapes):
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        off = rank - len(s)
        for i, d in enumerate(s):
            out[off + i] = broadcast_dim(out[off + i], d)
    return tuple(out)


def merge_dims(a, b):
    """What two shapes that must be equal tell together (None: unknown rank)."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise Conflict(f"ranks {len(a)} and {len(b)} differ")
    out = []
    for x, y in zip(a, b):
        if differ(x, y):
            raise Conflict(f"dims {x} and {y} differ")
        out.append(_merge_dim(x, y))
    return tuple(out)


def _merge_dim(x, y):
    """What two dims that must be equal tell: a static size first, then a symbol."""
    if type(x) is int or y is None or S.bounded_by(y, x):
        return x
    if type(y) is int or x is None or S.bounded_by(x, y):
        return y
    return x


def join(a, b):
    """The most precise type both `a` and `b` are instances of (If branches, loop
    carried values): equal dims stay, different ones become `?`, ranks unknown when
    they differ. None when their element types differ."""
    if a is b:
        return a
    if isinstance(a, (O.SeqType, O.OptType)) and type(a) is type(b):
        inner = join(a.element_type, b.element_type)
        return None if inner is None else type(a)(inner)
    if not isinstance(a, (A.RankedTensorType, A.UnrankedTensorType)) or \
            not isinstance(b, (A.RankedTensorType, A.UnrankedTensorType)) or \
            a.element_type is not b.element_type:
        return None
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None or len(sa) != len(sb):
        return A.UnrankedTensorType(a.element_type)
    return make_type([x if x == y else None for x, y in zip(sa, sb)], a.element_type)


def refine(old, new):
    """`old` refined by what `new` says: (type, conflict message or None). Static dims
    of `old` are kept; a contradiction keeps `old` and is reported."""
    if new is None or new is old:
        return old, None
    if isinstance(old, (O.SeqType, O.OptType)):
        if type(new) is not type(old):
            return old, f"inferred '{new}'"
        inner, msg = refine(old.element_type, new.element_type)
        return type(old)(inner), msg
    if not isinstance(old, (A.RankedTensorType, A.UnrankedTensorType)) or \
            not isinstance(new, (A.RankedTensorType, A.UnrankedTensorType)):
        return old, None
    so, sn = shape_of(old), shape_of(new)
    et = old.element_type
    if et is not new.element_type:
        if so is not None:
            return old, f"inferred element type '{new.element_type}'"
        et = new.element_type  # an unranked placeholder: trust the schema
    if so is None:
        return make_type(sn, et), None
    if sn is None:
        return make_type(so, et), None
    if len(so) != len(sn):
        return old, f"inferred rank {len(sn)}"
    dims = []
    for i, (x, y) in enumerate(zip(so, sn)):
        if x is not None and y is not None and x != y:
            return old, f"inferred '{new}'"
        dims.append(x if x is not None else y)
    return make_type(dims, et), None


def norm_axis(axis, rank):
    """A possibly negative axis in [0, rank); raises Conflict when out of range."""
    a = axis + rank if axis < 0 else axis
    if not 0 <= a < max(rank, 1):
        raise Conflict(f"axis {axis} is out of range for rank {rank}")
    return a


def product(dims):
    """The product of dims: an int, a Sym, or None when a dim is unknown."""
    return S.product(dims)


class InferContext:
    """What a rule sees of one op: operand types, shapes and values, attributes (with
    schema defaults), the opset version. A rule returns one entry per result: a shape
    (tuple, or None for an unknown rank: the element type comes from the schema or
    `self.elem[j]`), a full Type, or ... (Ellipsis) for nothing known."""

    __slots__ = ("op", "version", "types", "elem", "values", "state", "schema")

    def __init__(self, op, version, schema, state):
        self.op = op
        self.version = version
        self.schema = schema
        self.state = state
        self.types = [o.value.type for o in op._operands]
        self.elem = [None] * len(op.results)   # element type overrides, per result
        self.values = {}                        # result index -> Partial

    # ---------------------------------------------------------------- operands

    @property
    def n(self):
        return len(self.types)

    def has(self, i) -> bool:
        return i < len(self.types) and self.types[i] is not NONE_TYPE

    def type(self, i):
        return self.types[i] if self.has(i) else None

    def shape(self, i):
        """The operand's dims (ints, and Syms for `?` dims), or None (unranked, absent
        or not a tensor)."""
        if i >= len(self.types) or type(self.types[i]) is not A.RankedTensorType:
            return None
        return self.state.dims(self.op.operand(i))

    def rank(self, i):
        s = self.shape(i)
        return None if s is None else len(s)

    def element(self, i):
        t = self.type(i)
        return getattr(t, "element_type", None)

    def value(self, i) -> Partial | None:
        """The operand's elements as far as they are known (constants and shape
        computations), or None."""
        if not self.has(i):
            return None
        return self.state.partial(self.op.operand(i))

    def ints(self, i):
        """The operand's elements when all known numbers, as a list of ints; else None."""
        p = self.value(i)
        if p is None or not p.known:
            return None
        return [int(v) for v in p.vals]

    def dims_value(self, i):
        """The operand's elements as dims (ints, Syms, None where unknown), or None when
        nothing is followed: a shape operand (Reshape, Expand, ConstantOfShape)."""
        p = self.value(i)
        if p is None:
            return None
        return [v if v is None or type(v) is Sym else int(v) for v in p.vals]

    def scalar(self, i):
        """A one-element operand's value when it is a known number, else None."""
        p = self.value(i)
        if p is None or len(p.vals) != 1 or p.vals[0] is None or type(p.vals[0]) is Sym:
            return None
        return p.vals[0]

    def dim_scalar(self, i):
        """A one-element operand's value as a dim (an int, a Sym) when known, else None."""
        p = self.value(i)
        if p is None or len(p.vals) != 1:
            return None
        v = p.vals[0]
        return v if type(v) in (int, Sym) else None

    def length(self, i):
        """The static number of elements of a 1-D operand, else None."""
        s = self.shape(i)
        if s is None or len(s) != 1 or type(s[0]) is not int:
            return None
        return s[0]

    # ---------------------------------------------------------------- attributes

    def attr(self, name):
        a = self.op._props.get(name)
        if a is not None:
            return O.python_value(a)
        d = self.schema.attributes.get(name)
        return d.default if d is not None else None

    def has_attr(self, name) -> bool:
        return name in self.op._props

    # ---------------------------------------------------------------- results

    @property
    def num_results(self):
        return len(self.op.results)

    def set_value(self, j, shape, vals):
        """Result `j`'s elements (a static `shape`; vals: ints, floats, Syms, None)."""
        if len(vals) <= MAX_PARTIAL and all(type(d) is int for d in shape):
            self.values[j] = Partial(shape, vals)
