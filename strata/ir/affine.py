"""Affine expressions, affine maps and integer sets, as MLIR builds and prints them.

[Note: construction-time simplification]
MLIR never stores `d0 + 0` or `4 + d0`: every `+ * floordiv ceildiv mod` goes through
simplifyAdd/simplifyMul/... in mlir/lib/IR/AffineExpr.cpp, which fold constants, move
constants (then symbols) to the right, merge `c1 * e + c2 * e`, recognise `e - (e floordiv
c) * c` as `e mod c`, and order `d1 + d0` as `d0 + d1`. The printed form of a map depends
on the exact order of those rewrites, so the functions below follow upstream step by step
(the one in iree-base-compiler 3.13) rather than doing any smarter normalisation. Constants
are int64: folds of two constants are skipped on overflow (the expression stays as built),
while the merges of nested constants wrap, as the C++ does.

Like attributes, every expression, map and set is uniqued (see [Note: uniquing] in
attributes.py): `is` is equality, and `_str` caches the printed form.
"""
from __future__ import annotations

import math
import operator
import re
from enum import IntEnum

from .attributes import Attribute, unique
from .location import wrong_token_offset

__all__ = [
    "AffineExprKind", "AffineExpr", "AffineDimExpr", "AffineSymbolExpr", "AffineConstantExpr",
    "AffineBinaryOpExpr", "get_affine_binary_op_expr", "AffineMap", "IntegerSet",
    "AffineMapAttr", "IntegerSetAttr", "AffineParseError", "parse_affine_map_body",
    "parse_integer_set_body", "parse_affine_map_or_integer_set_body", "parse_affine_prefix",
]

_MIN, _MAX = -(1 << 63), (1 << 63) - 1


def _wrap(v: int) -> int:
    """Two's complement int64 wrap-around, for the C++ folds that do not check overflow."""
    return ((v - _MIN) & 0xFFFFFFFFFFFFFFFF) + _MIN


# Same order as mlir::AffineExprKind: binary kinds first, so `kind < CONSTANT` is binary.
AffineExprKind = IntEnum("AffineExprKind", "ADD MUL MOD FLOORDIV CEILDIV CONSTANT DIM SYMBOL",
                         start=0)
ADD, MUL, MOD, FLOORDIV, CEILDIV, CONSTANT, DIM, SYMBOL = AffineExprKind
_SPELLING = {ADD: " + ", MUL: " * ", MOD: " mod ", FLOORDIV: " floordiv ", CEILDIV: " ceildiv "}


# ------------------------------------------------------------------------ expressions


class _Uniqued:
    """Common behaviour of uniqued values: printed once, never copied."""

    __slots__ = ("_str",)

    def __str__(self) -> str:
        s = self._str
        if s is None:
            s = self._str = self._print()
        return s

    __repr__ = __str__

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class AffineExpr(_Uniqued):
    """Base of affine expressions. Two facts every simplification step asks for are
    computed once per node: `symbolic` (MLIR's isSymbolicOrConstant) and `divisor`
    (getLargestKnownDivisor)."""

    __slots__ = ("symbolic", "divisor")
    kind: AffineExprKind

    def _print(self):
        # An explicit stack of pending strings and (expr, strong) pairs rather than
        # recursion, and no caching of the subexpressions: parsed sums are left-nested
        # chains as deep as they are long, so both would be quadratic or overflow.
        out, stack = [], [(self, False)]
        while stack:
            item = stack.pop()
            if type(item) is str:
                out.append(item)
                continue
            e, strong = item
            k = e.kind
            if k >= CONSTANT:
                out.append(str(e.value) if k == CONSTANT else
                           ("d" if k == DIM else "s") + str(e.position))
            elif e._str is not None and not strong:
                out.append(e._str)
            else:
                parts = _print_parts(e)
                stack.extend(reversed((["("] + parts + [")"]) if strong else parts))
        return "".join(out)

    # Python operators; ints become constants. `2 * e` is `e * 2` as in C++.
    def __add__(self, other):
        return _add(self, _as_expr(other))

    def __radd__(self, other):
        return _add(_as_expr(other), self)

    def __sub__(self, other):
        return _sub(self, _as_expr(other))

    def __rsub__(self, other):
        return _sub(_as_expr(other), self)

    def __neg__(self):
        return _mul(self, AffineConstantExpr(-1))

    def __mul__(self, other):
        return _mul(self, _as_expr(other))

    __rmul__ = __mul__

    def __mod__(self, other):
        return _mod(self, _as_expr(other))

    def floordiv(self, other):
        return _floordiv(self, _as_expr(other))

    __floordiv__ = floordiv

    def ceildiv(self, other):
        return _ceildiv(self, _as_expr(other))

    def walk(self):
        """All subexpressions, children before parents."""
        stack = [(self, False)]
        while stack:
            e, expanded = stack.pop()
            if expanded or e.kind >= CONSTANT:
                yield e
            else:
                stack += ((e, True), (e.rhs, False), (e.lhs, False))

    # Both below run on a value stack over walk(), not by recursion (see _print).
    def replace_dims_and_symbols(self, dims=(), syms=()) -> AffineExpr:
        """Substitute d_i by dims[i] and s_i by syms[i] (those out of range are kept),
        re-simplifying on the way up."""
        out = []
        for e in self.walk():
            k = e.kind
            if k < CONSTANT:
                r, l = out.pop(), out.pop()
                out.append(e if l is e.lhs and r is e.rhs else _BUILDERS[k](l, r))
            elif k == CONSTANT:
                out.append(e)
            else:
                new = dims if k == DIM else syms
                out.append(new[e.position] if e.position < len(new) else e)
        return out[0]

    def eval(self, dims=(), syms=()) -> int:
        """Evaluate with integer dims and symbols (floor semantics for floordiv and mod)."""
        vals = []
        for e in self.walk():
            k = e.kind
            if k < CONSTANT:
                b, a = vals.pop(), vals.pop()
                vals.append(_EVAL[k](a, b))
            else:
                vals.append(e.value if k == CONSTANT else
                            (dims if k == DIM else syms)[e.position])
        return vals[0]


def _as_expr(v) -> AffineExpr:
    if isinstance(v, AffineExpr):
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return AffineConstantExpr(v)
    raise TypeError(f"cannot use {type(v).__name__} in an affine expression")


class _PositionExpr(AffineExpr):
    """Shared code of dims and symbols, which differ only in `kind`."""

    __slots__ = ("position",)

    def __new__(cls, position: int):
        def init(o):
            o.position = position
            o.symbolic = cls.kind == SYMBOL
            o.divisor = 1
        return unique(cls, position, init)


class AffineDimExpr(_PositionExpr):
    __slots__ = ()
    kind = DIM


class AffineSymbolExpr(_PositionExpr):
    __slots__ = ()
    kind = SYMBOL


def _abs64(v: int) -> int:
    return v if v == _MIN else abs(v)  # std::abs(INT64_MIN) stays negative


class AffineConstantExpr(AffineExpr):
    __slots__ = ("value",)
    kind = CONSTANT

    def __new__(cls, value: int):
        value = int(value)
        if not _MIN <= value <= _MAX:
            raise OverflowError(f"affine constant {value} does not fit in 64 bits")

        def init(o):
            o.value = value
            o.symbolic = True
            o.divisor = _abs64(value)
        return unique(cls, value, init)


class AffineBinaryOpExpr(AffineExpr):
    """`lhs <kind> rhs`. Calling the class simplifies like mlir::getAffineBinaryOpExpr;
    the stored node, as given, is only made by `_make`."""

    __slots__ = ("kind", "lhs", "rhs")

    def __new__(cls, kind, lhs, rhs):
        return get_affine_binary_op_expr(kind, lhs, rhs)

    @classmethod
    def _make(cls, kind, lhs, rhs):
        def init(o):
            o.kind = kind
            o.lhs = lhs
            o.rhs = rhs
            o.symbolic = lhs.symbolic and rhs.symbolic
            o.divisor = _largest_known_divisor(kind, lhs, rhs)
        return unique(cls, (kind, lhs, rhs), init)


_EVAL = {ADD: operator.add, MUL: operator.mul, FLOORDIV: operator.floordiv,
         MOD: operator.mod, CEILDIV: lambda a, b: -(-a // b)}


def _largest_known_divisor(kind, lhs, rhs) -> int:
    """AffineExpr::getLargestKnownDivisor, int64 overflow included."""
    if kind == MUL:
        return _wrap(lhs.divisor * rhs.divisor)
    if kind == ADD or kind == MOD:
        m = 0xFFFFFFFFFFFFFFFF
        return _wrap(math.gcd(lhs.divisor & m, rhs.divisor & m))
    # A floordiv/ceildiv by a constant that divides the lhs divisor keeps the quotient.
    if rhs.kind == CONSTANT and rhs.value != 0 and _trunc_rem(lhs.divisor, rhs.value) == 0:
        return _abs64(_wrap(_trunc_div(lhs.divisor, rhs.value)))
    return 1


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


def get_affine_binary_op_expr(kind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _BUILDERS[kind](lhs, rhs)


def _const(v: int) -> AffineConstantExpr:
    return AffineConstantExpr(_wrap(v))


# The node made when nothing simplifies has its bare dims/symbols ordered (d0 + d1, not
# d1 + d0; dims before symbols), which upstream does in operator+ and operator*.
def _add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _simplify_add(lhs, rhs) or AffineBinaryOpExpr._make(ADD,
                                                               *_order_commutative(lhs, rhs))


def _mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _simplify_mul(lhs, rhs) or AffineBinaryOpExpr._make(MUL,
                                                               *_order_commutative(lhs, rhs))


def _sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    # A constant is negated as an integer so that `d0 - 9223372036854775808` (how d0 +
    # INT64_MIN prints) reads back; anything else is `lhs + rhs * -1`.
    if rhs.kind == CONSTANT:
        return _add(lhs, _const(-rhs.value))
    return _add(lhs, _mul(rhs, AffineConstantExpr(-1)))


def _floordiv(lhs, rhs):
    return _simplify_div(lhs, rhs, False) or AffineBinaryOpExpr._make(FLOORDIV, lhs, rhs)


def _ceildiv(lhs, rhs):
    return _simplify_div(lhs, rhs, True) or AffineBinaryOpExpr._make(CEILDIV, lhs, rhs)


def _mod(lhs, rhs):
    return _simplify_mod(lhs, rhs) or AffineBinaryOpExpr._make(MOD, lhs, rhs)


_BUILDERS = {ADD: _add, MUL: _mul, MOD: _mod, FLOORDIV: _floordiv, CEILDIV: _ceildiv}


def _order_commutative(a, b):
    """Dims before symbols, each by position (only for two bare dims/symbols)."""
    ka, kb = a.kind, b.kind
    if ka == kb and ka in (DIM, SYMBOL):
        return (a, b) if a.position < b.position else (b, a)
    if ka == SYMBOL and kb == DIM:
        return b, a
    return a, b


def _mul_by_const(e):
    """(x, c) when e is `x * c` with a constant c, else (e, 1)."""
    if e.kind == MUL and e.rhs.kind == CONSTANT:
        return e.lhs, e.rhs.value
    return e, 1


def _simplify_add(lhs, rhs):
    lk, rk = lhs.kind, rhs.kind
    if lk == CONSTANT and rk == CONSTANT:
        s = lhs.value + rhs.value
        return AffineConstantExpr(s) if _MIN <= s <= _MAX else None
    # Constants go right; if only one side is symbolic, it goes right.
    if lk == CONSTANT or (lhs.symbolic and not rhs.symbolic):
        return _add(rhs, lhs)
    if rk == CONSTANT and rhs.value == 0:
        return lhs
    # (d0 + 2) + 3 -> d0 + 5
    if lk == ADD and rk == CONSTANT and lhs.rhs.kind == CONSTANT:
        return _add(lhs.lhs, _const(lhs.rhs.value + rhs.value))
    # c1 * e + c2 * e -> e * (c1 + c2)
    first, c1 = _mul_by_const(lhs)
    second, c2 = _mul_by_const(rhs)
    if first is second:
        return _mul(first, _const(c1 + c2))
    # (d0 + 2) + d1 -> (d0 + d1) + 2
    if lk == ADD and lhs.rhs.kind == CONSTANT:
        return _add(_add(lhs.lhs, rhs), lhs.rhs)
    # e + ((e floordiv q) * q) * -1 -> e mod q, and e + (e floordiv c) * -c -> e mod c.
    if not isinstance(rhs, AffineBinaryOpExpr):
        return None
    lrhs, rrhs = rhs.lhs, rhs.rhs
    if rrhs.kind == CONSTANT and rrhs.value == -1 and lrhs.kind == MUL:
        llrhs, rlrhs = lrhs.lhs, lrhs.rhs
        if llrhs.kind != FLOORDIV:
            return None
        if llrhs.rhs is rlrhs and lhs is llrhs.lhs:
            return _mod(lhs, rlrhs)
    if lrhs.kind != FLOORDIV or rk != MUL:
        return None
    llrhs, rlrhs = lrhs.lhs, lrhs.rhs
    if (rlrhs.kind == CONSTANT and rlrhs.value > 0 and lhs is llrhs
            and rlrhs is _neg_const(rrhs)):
        return _mod(lhs, rlrhs)
    # (a + e) + (e floordiv c) * -c -> a + e mod c: retry with the last summand.
    if lk == ADD:
        e = _simplify_add(lhs.rhs, rhs)
        if e is not None:
            return _add(lhs.lhs, e)
    return None


def _neg_const(e):
    """`-e` for comparing with a divisor; only a constant can be equal to a constant."""
    if e.kind == CONSTANT:
        v = -e.value
        return AffineConstantExpr(v) if v <= _MAX else None
    return None


def _simplify_mul(lhs, rhs):
    lk, rk = lhs.kind, rhs.kind
    if lk == CONSTANT and rk == CONSTANT:
        p = lhs.value * rhs.value
        return AffineConstantExpr(p) if _MIN <= p <= _MAX else None
    if not lhs.symbolic and not rhs.symbolic:
        return None  # semi-affine d0 * d1: kept as built
    # The constant (or else symbolic) factor goes right.
    if not rhs.symbolic or lk == CONSTANT:
        return _mul(rhs, lhs)
    if rk == CONSTANT:
        if rhs.value == 1:
            return lhs
        if rhs.value == 0:
            return rhs
    if lk == MUL and lhs.rhs.kind == CONSTANT:
        if rk == CONSTANT:  # (d0 * 2) * 3 -> d0 * 6
            return _mul(lhs.lhs, _const(lhs.rhs.value * rhs.value))
        # (d0 * 2) * s0 -> (d0 * s0) * 2
        return _mul(_mul(lhs.lhs, rhs), lhs.rhs)
    return None


def _is_zero(e):
    return e.kind == CONSTANT and e.value == 0


def _same_non_constant(lhs, rhs):
    # `x floordiv x`, `x ceildiv x` and `x mod x` fold for a non-constant x; constants
    # fold (or, for a zero or negative modulus, stay) by the rules below.
    return lhs is rhs and rhs.kind != CONSTANT


def _simplify_div(lhs, rhs, ceil):
    if _same_non_constant(lhs, rhs):
        return AffineConstantExpr(1)
    if rhs.kind != CONSTANT or rhs.value == 0:
        return None  # division by zero or by a symbol is kept as written
    c = rhs.value
    if lhs.kind == CONSTANT:
        a = lhs.value
        if a == _MIN and c == -1:
            return None
        return AffineConstantExpr(-(-a // c) if ceil else a // c)
    if c == 1:
        return lhs
    # (e * 128) floordiv 64 -> e * 2
    if lhs.kind == MUL and lhs.rhs.kind == CONSTANT and _trunc_rem(lhs.rhs.value, c) == 0:
        return _mul(lhs.lhs, _const(_trunc_div(lhs.rhs.value, c)))
    # (e1 + e2) floordiv c -> e1 floordiv c + e2 floordiv c when either is a multiple of c
    # (floordiv only: ceildiv does not distribute).
    if not ceil and lhs.kind == ADD:
        if (_trunc_rem(lhs.lhs.divisor, c) == 0
                or _trunc_rem(lhs.rhs.divisor, c) == 0):
            return _add(_floordiv(lhs.lhs, rhs), _floordiv(lhs.rhs, rhs))
    return None


def _simplify_mod(lhs, rhs):
    if _same_non_constant(lhs, rhs):
        return AffineConstantExpr(0)
    if rhs.kind != CONSTANT or rhs.value < 1:
        return None  # mod by a non-positive number or a symbol is kept as written
    c = rhs.value
    if lhs.kind == CONSTANT:
        return AffineConstantExpr(lhs.value % c)
    # (i * 128) mod 64 -> 0
    if _trunc_rem(lhs.divisor, c) == 0:
        return AffineConstantExpr(0)
    # (e1 + e2) mod c -> e2 mod c when e1 is a multiple of c (and symmetrically).
    if lhs.kind == ADD:
        if _trunc_rem(lhs.lhs.divisor, c) == 0:
            return _mod(lhs.rhs, rhs)
        if _trunc_rem(lhs.rhs.divisor, c) == 0:
            return _mod(lhs.lhs, rhs)
    # (e mod a) mod b -> e mod b when b divides a.
    if lhs.kind == MOD and lhs.rhs.kind == CONSTANT:
        a = lhs.rhs.value
        if a >= 1 and a % c == 0:
            return _mod(lhs.lhs, rhs)
    return None


# ------------------------------------------------------------------------ printing


def _print_parts(e) -> list:
    """AsmPrinter::printAffineExprInternal for a binary `e`, one level deep: strings and
    (operand, strong) pairs, where a strongly bound binary operand gets parentheses."""
    k, lhs, rhs = e.kind, e.lhs, e.rhs
    if k != ADD:
        if k == MUL and rhs.kind == CONSTANT and rhs.value == -1:
            return ["-", (lhs, True)]
        return [(lhs, True), _SPELLING[k], (rhs, True)]
    # An added product by a negative constant, or a negative constant, is a subtraction.
    if rhs.kind == MUL and rhs.rhs.kind == CONSTANT:
        c = rhs.rhs.value
        if c == -1:
            return [(lhs, False), " - ", (rhs.lhs, rhs.lhs.kind == ADD)]
        if c < -1:
            return [(lhs, False), " - ", (rhs.lhs, True), f" * {-c}"]
    if rhs.kind == CONSTANT and rhs.value < 0:
        return [(lhs, False), f" - {-rhs.value}"]
    return [(lhs, False), " + ", (rhs, False)]


def _print_ids(num_dims: int, num_symbols: int) -> str:
    s = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_symbols:
        s += "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]"
    return s


def _check_ids(exprs, num_dims, num_symbols, what):
    for root in exprs:
        for e in root.walk():
            if (e.kind == DIM and e.position >= num_dims) or (
                    e.kind == SYMBOL and e.position >= num_symbols):
                raise ValueError(f"{e} out of range in {what} with {num_dims} dims "
                                 f"and {num_symbols} symbols")


# ------------------------------------------------------------------------ maps and sets


class AffineMap(_Uniqued):
    """`(d0, d1)[s0] -> (d0 + s0, d1)`: a list of results over dims and symbols."""

    __slots__ = ("num_dims", "num_symbols", "results")

    def __new__(cls, num_dims: int, num_symbols: int, results=()):
        results = tuple(map(_as_expr, results))

        def init(o):
            _check_ids(results, num_dims, num_symbols, "affine map")
            o.num_dims = num_dims
            o.num_symbols = num_symbols
            o.results = results
        return unique(cls, (num_dims, num_symbols, results), init)

    def _print(self):
        return (_print_ids(self.num_dims, self.num_symbols) + " -> ("
                + ", ".join(map(str, self.results)) + ")")

    # Constructors (AffineMap::get*Map).
    @classmethod
    def identity(cls, num_dims: int, num_symbols: int = 0) -> AffineMap:
        return cls(num_dims, num_symbols, [AffineDimExpr(i) for i in range(num_dims)])

    @classmethod
    def constant_map(cls, *values: int) -> AffineMap:
        return cls(0, 0, [AffineConstantExpr(v) for v in values])

    @classmethod
    def minor_identity(cls, num_dims: int, num_results: int) -> AffineMap:
        """(d0, ..., d{n-1}) -> the last `num_results` dims."""
        if num_results > num_dims:
            raise ValueError("a minor identity cannot have more results than dims")
        return cls(num_dims, 0, [AffineDimExpr(i)
                                 for i in range(num_dims - num_results, num_dims)])

    @classmethod
    def get_permutation_map(cls, permutation) -> AffineMap:
        permutation = list(permutation)
        if sorted(permutation) != list(range(len(permutation))):
            raise ValueError(f"{permutation} is not a permutation")
        return cls(len(permutation), 0, [AffineDimExpr(p) for p in permutation])

    # Properties.
    @property
    def num_results(self) -> int:
        return len(self.results)

    def is_identity(self) -> bool:
        return (self.num_dims == len(self.results)
                and all(r is AffineDimExpr(i) for i, r in enumerate(self.results)))

    def is_projected_permutation(self, allow_zero_in_results: bool = False) -> bool:
        if self.num_symbols:
            return False
        seen = set()
        for r in self.results:
            if r.kind == DIM:
                if r.position in seen:
                    return False
                seen.add(r.position)
            elif not (allow_zero_in_results and _is_zero(r)):
                return False
        return True

    def is_permutation(self) -> bool:
        return self.num_dims == len(self.results) and self.is_projected_permutation()

    def is_single_constant(self) -> bool:
        return len(self.results) == 1 and self.results[0].kind == CONSTANT

    def replace_dims_and_symbols(self, dims, syms, num_dims, num_symbols) -> AffineMap:
        return AffineMap(num_dims, num_symbols,
                         [r.replace_dims_and_symbols(dims, syms) for r in self.results])

    def compose(self, other: AffineMap) -> AffineMap:
        """`self ∘ other` (AffineMap::compose): other's results feed self's dims; the
        symbols are self's followed by other's."""
        if self.num_dims != other.num_results:
            raise ValueError(f"cannot compose {self} with {other}: "
                             f"{self.num_dims} dims but {other.num_results} results")
        nd, ns = other.num_dims, self.num_symbols + other.num_symbols
        shifted = other.replace_dims_and_symbols(
            [AffineDimExpr(i) for i in range(nd)],
            [AffineSymbolExpr(i) for i in range(self.num_symbols, ns)], nd, ns)
        return AffineMap(nd, ns, [r.replace_dims_and_symbols(shifted.results)
                                  for r in self.results])

    def eval(self, dims=(), syms=()) -> tuple[int, ...]:
        if len(dims) != self.num_dims or len(syms) != self.num_symbols:
            raise ValueError(f"{self} takes {self.num_dims} dims and "
                             f"{self.num_symbols} symbols")
        return tuple(r.eval(dims, syms) for r in self.results)


class IntegerSet(_Uniqued):
    """`(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`: constraints `e >= 0` or `e == 0`."""

    __slots__ = ("num_dims", "num_symbols", "constraints", "eq_flags")

    def __new__(cls, num_dims: int, num_symbols: int, constraints, eq_flags):
        constraints = tuple(map(_as_expr, constraints))
        eq_flags = tuple(bool(f) for f in eq_flags)
        if len(constraints) != len(eq_flags):
            raise ValueError("an integer set needs one eq flag per constraint")

        def init(o):
            _check_ids(constraints, num_dims, num_symbols, "integer set")
            o.num_dims = num_dims
            o.num_symbols = num_symbols
            o.constraints = constraints
            o.eq_flags = eq_flags
        return unique(cls, (num_dims, num_symbols, constraints, eq_flags), init)

    @classmethod
    def empty_set(cls, num_dims: int, num_symbols: int) -> IntegerSet:
        """The canonical empty set `1 == 0` (IntegerSet::getEmptySet)."""
        return cls(num_dims, num_symbols, [AffineConstantExpr(1)], [True])

    def _print(self):
        cs = (f"{c} {'==' if eq else '>='} 0" for c, eq in zip(self.constraints, self.eq_flags))
        return _print_ids(self.num_dims, self.num_symbols) + " : (" + ", ".join(cs) + ")"

    @property
    def num_constraints(self) -> int:
        return len(self.constraints)

    def is_empty_integer_set(self) -> bool:
        return self is IntegerSet.empty_set(self.num_dims, self.num_symbols)

    def contains(self, dims=(), syms=()) -> bool:
        """Whether the integer point satisfies every constraint."""
        for c, eq in zip(self.constraints, self.eq_flags):
            v = c.eval(dims, syms)
            if (v != 0) if eq else (v < 0):
                return False
        return True


class _WrapperAttr(Attribute):
    __slots__ = ("value",)
    keyword: str

    def __new__(cls, value):
        def init(o):
            o.value = value
        return unique(cls, value, init)

    def _print(self):
        return f"{self.keyword}<{self.value}>"


class AffineMapAttr(_WrapperAttr):
    """`affine_map<(d0) -> (d0)>`; `value` is the AffineMap."""
    __slots__ = ()
    keyword = "affine_map"


class IntegerSetAttr(_WrapperAttr):
    """`affine_set<(d0) : (d0 >= 0)>`; `value` is the IntegerSet."""
    __slots__ = ()
    keyword = "affine_set"


# ------------------------------------------------------------------------ parsing


class AffineParseError(ValueError):
    """A syntax error in an affine map or set; `offset` indexes the parsed text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset
        # Errors upstream emits after this one, on the way out: (message, offset).
        self.follow_ups = []


# MLIR's lexer, reduced to the tokens an affine body can hold. `->` is one token; `>=`,
# `<=` and `==` are two (as in MLIR, where `d0 > = 0` parses).
_TOKEN = re.compile(r"""
    (?P<ws>(?:\s|//[^\n]*)+)
  | (?P<float>[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)
  | (?P<int>0x[0-9a-fA-F]+|[0-9]+)
  | (?P<id>[A-Za-z_][A-Za-z0-9_$.]*)
  | (?P<ssa>%[A-Za-z0-9_$.\-]+)
  | (?P<punct>->|[-+*(),\[\]:<>=])
  | (?P<bad>.)
""", re.VERBOSE | re.DOTALL)

_HIGH_OPS = {"*": MUL, "floordiv": FLOORDIV, "ceildiv": CEILDIV, "mod": MOD}
_SEMI_AFFINE = "non-affine expression: {} has to be either a constant or symbolic"


class _AffineParser:
    """A port of mlir/lib/AsmParser/AffineParser.cpp; the recursion on operators is a
    loop here (same association and construction order) so long sums do not hit
    Python's recursion limit."""

    __slots__ = ("text", "end", "names", "kind", "spelling", "loc")

    def __init__(self, text: str, pos: int = 0):
        self.text = text
        self.end = pos  # where the current token ends
        self.names: dict[str, AffineExpr] = {}
        self.advance()

    def advance(self):
        """Lex the next token: `kind`, `spelling` and `loc` (offset) describe it. Lexing
        is lazy so that parsing can stop at the `>` that closes the body, whatever
        follows it."""
        text, pos = self.text, self.end
        while True:
            m = _TOKEN.match(text, pos)
            if m is None:  # end of text
                self.kind, self.spelling, self.loc = "eof", "", pos
                return
            kind = m.lastgroup
            if kind != "ws":
                break
            pos = m.end()
        s = m.group()
        if kind == "bad":
            raise AffineParseError(f"unexpected character '{s}'", pos)
        self.kind, self.spelling, self.loc, self.end = (s if kind == "punct" else kind), s, \
            pos, m.end()

    def error(self, message, offset=None):
        raise AffineParseError(message, self.loc if offset is None else offset)

    def wrong_token_error(self, message):
        # Parser::emitWrongTokenError reports a missing token where it was due: right
        # after the previous text, skipping back over blanks, newlines and `//` comments.
        self.error(message, wrong_token_offset(self.text, self.loc))

    def consume_if(self, kind) -> bool:
        if self.kind == kind:
            self.advance()
            return True
        return False

    def expect(self, kind, message):
        if not self.consume_if(kind):
            self.wrong_token_error(message)

    def comma_list(self, open_, close, parse_elt, context):
        self.expect(open_, f"expected '{open_}'{context}")
        if self.consume_if(close):
            return
        parse_elt()
        while self.consume_if(","):
            parse_elt()
        self.expect(close, f"expected '{close}'{context}")

    # Header: dim and symbol identifiers.
    def parse_id_lists(self):
        counts = [0, 0]

        def define(which, make):
            if self.kind != "id":
                self.wrong_token_error("expected bare identifier")
            name = self.spelling
            if name in self.names:
                self.error(f"redefinition of identifier '{name}'")
            self.advance()
            self.names[name] = make(counts[which])
            counts[which] += 1

        self.comma_list("(", ")", lambda: define(0, AffineDimExpr),
                        " in dimensional identifier list")
        if self.kind == "[":
            self.comma_list("[", "]", lambda: define(1, AffineSymbolExpr), " in symbol list")
        return counts

    # Expressions.
    def parse_operand(self, has_lhs: bool) -> AffineExpr:
        k = self.kind
        if k == "id":
            if self.spelling == "symbol":  # `symbol(%x)` is for SSA operands only
                self.advance()
                self.expect("(", "expected '(' at start of SSA symbol")
                self.wrong_token_error("unexpected ssa identifier")
            e = self.names.get(self.spelling)
            if e is None:
                self.wrong_token_error("use of undeclared identifier")
            self.advance()
            return e
        if k == "int":
            # decimal with leading zeros allowed (`03` is 3, as MLIR's lexer reads it),
            # or hexadecimal
            sp = self.spelling
            v = int(sp, 16) if sp[:2] in ("0x", "0X") else int(sp, 10)
            if v > 1 << 63:
                self.error("constant too large for index")
            self.advance()
            # 2**63 is accepted: the printer writes `d0 + INT64_MIN` as `d0 - 2**63`.
            return AffineConstantExpr(_wrap(v))
        if k == "(":
            self.advance()
            if self.kind == ")":
                self.error("no expression inside parentheses")
            e = self.parse_expr()
            self.expect(")", "expected ')'")
            return e
        if k == "-":
            self.advance()
            try:
                operand = self.parse_operand(has_lhs)
            except AffineParseError as e:  # upstream adds this error to the operand's
                e.follow_ups.append(("missing operand of negation", self.loc))
                raise
            return _mul(operand, AffineConstantExpr(-1))
        if k == "ssa":
            self.wrong_token_error("unexpected ssa identifier")
        if k in ("+", "*"):
            self.error("missing right operand of binary operator" if has_lhs
                       else "missing left operand of binary operator")
        self.error("missing right operand of binary operator" if has_lhs
                   else "expected affine expression")

    def high_op(self):
        """The multiplicative operator at the current token, if any."""
        k = self.kind
        if k == "*":
            return MUL
        if k == "id":
            return _HIGH_OPS.get(self.spelling)
        return None

    def combine_high(self, op, lhs, rhs, op_loc):
        if op == MUL:
            if not lhs.symbolic and not rhs.symbolic:
                self.error(_SEMI_AFFINE.format("at least one of the multiply operands"),
                           op_loc)
        elif not rhs.symbolic:
            self.error(_SEMI_AFFINE.format(f"right operand of{_SPELLING[op].rstrip()}"),
                       op_loc)
        return _BUILDERS[op](lhs, rhs)

    def parse_term(self, has_lhs: bool) -> AffineExpr:
        """operand (high-op operand)*, left associative."""
        e = self.parse_operand(has_lhs)
        op = self.high_op()
        if op is None:
            return e
        op_loc = self.loc
        self.advance()
        while True:
            rhs = self.parse_operand(True)
            nxt = self.high_op()
            if nxt is None:
                return self.combine_high(op, e, rhs, op_loc)
            # MLIR reports a semi-affine error at the operator after the operands.
            nxt_loc = self.loc
            e = self.combine_high(op, e, rhs, nxt_loc)
            self.advance()
            op, op_loc = nxt, nxt_loc

    def parse_expr(self) -> AffineExpr:
        e = self.parse_term(False)
        while self.kind in ("+", "-"):
            sub = self.kind == "-"
            self.advance()
            rhs = self.parse_term(True)
            e = _sub(e, rhs) if sub else _add(e, rhs)
        return e

    def parse_constraint(self):
        lhs = self.parse_expr()
        if self.consume_if(">") and self.consume_if("="):
            return _sub(lhs, self.parse_expr()), False
        if self.consume_if("<") and self.consume_if("="):
            return _sub(self.parse_expr(), lhs), False
        if self.consume_if("=") and self.consume_if("="):
            return _sub(lhs, self.parse_expr()), True
        self.error("expected '== affine-expr' or '>= affine-expr' at end of affine "
                   "constraint")

    # Whole bodies.
    def parse_map_or_set(self):
        nd, ns = self.parse_id_lists()
        items = []
        if self.consume_if("->"):
            self.comma_list("(", ")", lambda: items.append(self.parse_expr()),
                            " in affine map range")
            return AffineMap(nd, ns, items)
        self.expect(":", "expected '->' or ':'")
        self.comma_list("(", ")", lambda: items.append(self.parse_constraint()),
                        " in integer set constraint list")
        # `()` is the always-true set `0 == 0`.
        cs, eqs = zip(*items) if items else ((AffineConstantExpr(0),), (True,))
        return IntegerSet(nd, ns, cs, eqs)

    def expect_end(self, what):
        # The body is followed by the closing `>` of `affine_map<...>`/`affine_set<...>`.
        if self.kind != "eof":
            self.wrong_token_error(f"expected '>' in {what}")


def _parse(text, pos, want, whole):
    p = _AffineParser(text, pos)
    start = p.loc
    r = p.parse_map_or_set()
    if want is not None and not isinstance(r, want):
        got, exp = ("IntegerSet", "AffineMap") if want is AffineMap else ("AffineMap",
                                                                        "IntegerSet")
        raise AffineParseError(f"expected {exp}, but got {got}", start)
    if whole:
        p.expect_end("affine map" if isinstance(r, AffineMap) else "integer set")
    return r, p.loc


def parse_affine_map_or_integer_set_body(text: str) -> AffineMap | IntegerSet:
    """Parse `(d0)[s0] -> (...)` or `(d0)[s0] : (...)`, the text inside `affine_map<>` or
    `affine_set<>`. Raises AffineParseError."""
    return _parse(text, 0, None, True)[0]


def parse_affine_map_body(text: str) -> AffineMap:
    return _parse(text, 0, AffineMap, True)[0]


def parse_integer_set_body(text: str) -> IntegerSet:
    return _parse(text, 0, IntegerSet, True)[0]


def parse_affine_prefix(text: str, pos: int = 0, want=None):
    """Parse a map or set body that starts at `text[pos]` (after `affine_map<`) and
    return it with the offset of the token after it, where the caller expects the
    closing `>`. A body holds `->` and `>=`, so the `>` cannot be found beforehand.
    `want` (AffineMap or IntegerSet) checks the kind. Error offsets index `text`."""
    return _parse(text, pos, want, False)
