"""Symbolic dims: what shape inference knows of a `?` dim beyond "unknown".

[Note: symbolic dims]
Every `?` dim has a symbol, a `Sym`: a monomial `coef * a^i * b^j ...` over named sizes
(atoms). Atoms are the `onnx.dim_params` names of the function's arguments (equal names
are equal sizes: the runtime checks it) or fresh names `?1`, `?2`... for any other unknown
size (a `?` argument dim without a name, a NonZero count, a dim no rule knows). Monomials
are enough for what shape computations do with sizes: `Flatten` multiplies them,
`Reshape`'s -1 divides the element count by the other dims (`batch*128*384 /
(batch*128*32)` is 12), Mul/Div of shape values scale them.

Sizes are >= 0, so `Equal(batch, -1)` is false and `batch >= 0` true; `batch == 5` stays
unknown. Anything a monomial cannot say (a sum, an inexact quotient) is unknown (None),
and the dim gets a fresh symbol when it is next read.

A fresh symbol may carry a bound: `min(n, k)` (`Slice(x, 0, n)` of a static dim k, as
BERT exports slice their position ids to the sequence length). Broadcast against `n`
(or merged with it), it is `n`: either they are equal, or `k < n` and the model is in
error there (k >= 2: were it 1, it would stretch).

One liberty: a Reshape (without allowzero) to a shape value holding a named size n
takes n, though were n 0 ONNX would copy the input's dim there, when the input would
then be empty (n divides its element count); so names may be off only for tensors
without elements.

A dim is then an int (static), a Sym, or None (unknown, in rules only). Sym never
compares equal to an int and supports no arithmetic operators: the functions below
(`mul`, `div`, `add`, `sub`, `compare`) say what a computation gives.

In the IR a symbol is written as text (`text`): an atom's name (quoted when it could be
read as a product: `"2*n"`), a product `128*batch`, a power `n^2`. Equal texts are equal
sizes, within one function.
"""
from __future__ import annotations

import re

__all__ = ["Sym", "atom", "bounded_by", "is_sym", "mul", "div", "add", "sub", "compare", "product",
           "text", "fresh_numbers_in", "FRESH"]

# Names written raw; any other is quoted (so that no name reads as a product).
_RAW = re.compile(r"[A-Za-z_?][A-Za-z0-9_?.:\-]*\Z")
# Fresh names: "?" and a number (numbers used by names already in the IR are skipped).
FRESH = "?"
_FRESH_NUMBER = re.compile(r"\?(\d+)")


class Sym:
    """A size known as `coef * name1^e1 * name2^e2 ...` (coef >= 1, at least one atom;
    `atoms` sorted by name)."""

    __slots__ = ("coef", "atoms", "_hash", "bound")

    def __init__(self, coef: int, atoms: tuple, bound=None):
        self.coef = coef
        self.atoms = atoms
        self._hash = hash((coef, atoms))
        self.bound = bound   # (n, k): the size is min(n, k) (a fresh atom's, see the note)

    def __eq__(self, other):
        return type(other) is Sym and other._hash == self._hash and \
            other.coef == self.coef and other.atoms == self.atoms

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Sym({text(self)})"


def is_sym(d) -> bool:
    return type(d) is Sym


def atom(name: str, bound=None) -> Sym:
    return Sym(1, ((name, 1),), bound)


def bounded_by(a, b) -> bool:
    """Whether `a` is min(b, k) for some k >= 2: broadcast with `b`, it is `b`."""
    return type(a) is Sym and a.bound is not None and a.bound[0] == b and a.bound[1] >= 2


def _make(coef, atoms):
    """A monomial, or the int it is when no atom is left."""
    if coef == 0:
        return 0
    return Sym(coef, atoms) if atoms else coef


def _int(d) -> bool:
    return type(d) is int or (isinstance(d, int) and not isinstance(d, bool))


def mul(a, b):
    """a * b for dims (int, Sym; None: unknown)."""
    if a is None or b is None:
        return None
    ta, tb = type(a) is Sym, type(b) is Sym
    if not ta and not tb:
        return a * b
    if not ta:
        a, b = b, a
        tb = type(b) is Sym
    if not tb:   # Sym * int
        if not _int(b) or b < 0:
            return None
        return _make(a.coef * b, a.atoms)
    exps = dict(a.atoms)
    for n, e in b.atoms:
        exps[n] = exps.get(n, 0) + e
    return _make(a.coef * b.coef, tuple(sorted(exps.items())))


def div(a, b):
    """a / b for dims when it is exact (a monomial or an int), else None. Ints are not
    divided here (their rounding is the caller's)."""
    if a is None or b is None or (type(a) is not Sym and type(b) is not Sym):
        return None
    if type(a) is not Sym:
        return None   # an int over a symbol: not a monomial
    if type(b) is not Sym:
        if not _int(b) or b <= 0 or a.coef % b:
            return None
        return _make(a.coef // b, a.atoms)
    if a.coef % b.coef:
        return None
    exps = dict(a.atoms)
    for n, e in b.atoms:
        left = exps.get(n, 0) - e
        if left < 0:
            return None
        if left:
            exps[n] = left
        else:
            del exps[n]
    return _make(a.coef // b.coef, tuple(sorted(exps.items())))


def add(a, b):
    """a + b when a monomial says it (one side 0), else None; ints add."""
    if a is None or b is None:
        return None
    if type(a) is not Sym and type(b) is not Sym:
        return a + b
    if type(b) is not Sym and b == 0:
        return a
    if type(a) is not Sym and a == 0:
        return b
    return None


def sub(a, b):
    """a - b when known (b is 0, or a and b are the same size), else None."""
    if a is None or b is None:
        return None
    if type(a) is not Sym and type(b) is not Sym:
        return a - b
    if a == b:
        return 0
    if type(b) is not Sym and b == 0:
        return a
    return None


_FLIP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def compare(pred: str, a, b):
    """`a <pred> b` (eq, ne, lt, le, gt, ge) as True/False, or None when unknown. A
    symbol is a size: >= 0."""
    if a is None or b is None:
        return None
    if type(a) is not Sym and type(b) is not Sym:
        return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[pred]
    if a == b:
        return pred in ("eq", "le", "ge")
    if type(a) is not Sym:
        a, b, pred = b, a, _FLIP[pred]
    if type(b) is Sym:
        return None
    # a symbol (>= 0) against a number
    if pred in ("eq", "ne"):
        return (pred == "ne") if b < 0 else None
    if pred == "lt":      # a < b is false when b <= 0
        return False if b <= 0 else None
    if pred == "le":
        return False if b < 0 else None
    if pred == "gt":
        return True if b < 0 else None
    return True if b <= 0 else None   # ge


def product(dims):
    """The product of dims (None when one is unknown)."""
    n = 1
    for d in dims:
        n = mul(n, d)
        if n is None:
            return None
    return n


def _name_text(name: str) -> str:
    if _RAW.match(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def text(d: Sym) -> str:
    """The name of a symbol in the IR (see the note)."""
    parts = [] if d.coef == 1 else [str(d.coef)]
    for n, e in d.atoms:
        parts.append(_name_text(n) if e == 1 else f"{_name_text(n)}^{e}")
    return "*".join(parts)


def fresh_numbers_in(name: str):
    """The numbers of the fresh-looking names inside `name` (to be skipped)."""
    return [int(m) for m in _FRESH_NUMBER.findall(name)]
