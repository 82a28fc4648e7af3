"""Run-time checks of data-dependent indices: the lowerings that read or write a tensor
at a position taken from another tensor's values (Gather, Scatter, MaxUnpool...).

[Note: index checks]
An index out of range is an error in ONNX, and compiled code must not read or write out
of bounds because of one. A lowering that accesses data at a data-dependent index:

1. checks every index in one pass over the index tensor: `index_ranges` makes linalg
   reductions computing the minimum and maximum index (in parallel blocks and lanes,
   see _min_max; per column of the last dim when the columns index different axes, as
   GatherND's), compared with the valid range outside the loops; `assert_ok` turns
   each flag into
       cf.assert %ok, "Gather at g0: index out of range [-5, 5) on data axis 0"
   (the interpreter raises it; compiled CPU code calls `strata_assert_fail`, which the
   runtime raises as RuntimeFailure after the call, and a shared library reports through
   `strata_last_error`; see convert-cf-to-llvm). Constant indices are checked at compile
   time: no code when they are in range.
2. keeps the access in bounds when the check failed, since execution goes on after a
   failed cf.assert: a gather (a parallel linalg.generic, which cannot hold the assert)
   clamps each index in its payload with one `arith.minui` against `max(n - 1, 0)`
   (`clamp`, after negative indices wrapped: what is still negative becomes the
   maximum); where a clamped dim can be empty (no index exists) it does not run, zeros
   stand for its result (`clamp_bounds`, `unless_empty`: an scf.if only when the dim
   is dynamic); a scatter (sequential scf.for loops) runs no iteration when a check
   failed (`guarded`), which costs nothing in the loop.

The results after a failed check are unspecified (the caller raises); only the memory
accesses are defined.

[Note: shape checks]
A run-time value that decides a shape (Reshape's shape, Expand's, Tile's repeats,
ConstantOfShape's dims, Range's start/limit/delta, Slice's starts/ends/axes/steps, Pad's
pads and axes) is checked against the op's rule with scalar arith ops before the op's
loops, one `cf.assert` per rule:

    %ok = arith.cmpi sge, %d, %c-1 : index
    cf.assert %ok, "Reshape at r0: shape has a value below -1"

(`require`: a rule known to fail at compile time is a lowering error instead, one known
to hold emits nothing). Sizes multiply with an overflow check (`checked_product`: `a *
b` overflows int64 when b > INT64_MAX / a, the quotient a constant when `a` is known;
a zero factor makes any product fit) and add with one (`checked_sum`). A dim that the
result type knows statically (from shape inference, or a declared graph output) is
compared with the one computed at run time (`result_sizes`). Checks cost no more than
the values need: an operand built from sizes (Shape -> Gather -> Concat, as exporters
write) is read through to the tensor.dim Values themselves (`_shape_util.element_of`),
and `Ix` folds what sizes imply (a tensor.dim is >= 0, two tensor.dim of one dim are
equal), so such checks vanish at compile time; a Reshape whose sizes the type decides
checks its operand with one flag. Since execution goes on
after a failed assert, every size Value the op then allocates or reads with is sent to
0 by one `arith.select` on the conjunction of its flags (`when_ok`): nothing is read
out of bounds and nothing large is allocated; an op whose result is all static runs in
an scf.if instead (`unless_empty`).

[Note: integer division checks]
Integer Div and Mod by zero, and signed Div of the minimum by -1, are errors (onnxruntime
fails; x86 traps on both). `division_checks` asserts before the division, at no cost
per element:
  - a zero divisor: the unsigned minimum of the divisor tensor is 0 (one _min_max pass
    over the divisor, which also gives its unsigned maximum);
  - the minimum divided by -1 (signed Div only; Mod's result is 0 there): only pairs
    of elements decide it, and only when the divisor holds a -1 (its unsigned maximum
    is all ones), so an scf.if on that runs an elementwise test of the broadcast pair
    and a reduction of it; a divisor without -1 costs nothing more.
Constant divisors are checked at compile time: a zero is a compile error, no -1 (or a
constant dividend without the minimum) leaves nothing to check at run time.
The division itself stays defined after a failed check: the CPU target divides by a
sanitized divisor (see [Note: safe division] in to_llvm/arith.py).
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir.location import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from ._shape_util import Ix
from .common import constant_array, scalars

__all__ = ["label", "index_ranges", "assert_ok", "all_of", "any_of", "wrap", "clamp",
           "clamp_bounds", "unless_empty", "guarded", "range_text", "check_dims", "require",
           "checked_product", "checked_sum", "when_ok", "result_sizes", "distinct",
           "INT64_MAX", "shape_text", "checked_build", "nonnegative", "division_checks",
           "when"]

INT64_MAX = (1 << 63) - 1


# ------------------------------------------------------------------ messages


def _names(loc, out):
    t = type(loc)
    if t is NameLoc:
        out.append(loc.name)
    elif t is FusedLoc:
        for part in loc.locations:
            _names(part, out)
    elif t is CallSiteLoc:
        _names(loc.callee, out)


def label(cx) -> str:
    """`<OpType> at <node name>` (the file position when the location has no name; a
    PyTorch op's also names the user's file:line, which compiled code's messages carry
    no other way: `aten.gather at gather (model.py:42)`)."""
    aten = getattr(cx, "aten", None)
    op_type = aten or cx.op.name.partition(".")[2] or cx.op.name
    names: list = []
    _names(cx.op.loc, names)
    if names:
        if aten:
            flc = cx.op.loc.file_line_col()
            if isinstance(flc, FileLineColLoc):
                return f"{op_type} at {names[0]} ({flc.filename}:{flc.line})"
        return f"{op_type} at {names[0]}"
    flc = cx.op.loc.file_line_col()
    if isinstance(flc, FileLineColLoc):
        return f"{op_type} at {flc.filename}:{flc.line}:{flc.col}"
    return op_type


def range_text(lo, hi, n_name="n") -> str:
    """`[lo, hi)` with a dynamic bound spelled through `n_name` (hi is n, lo -n or 0)."""
    if Ix.known(lo, hi):
        return f"[{int(lo)}, {int(hi)})"
    return f"[{'-' + n_name if not Ix.known(lo) else int(lo)}, {n_name})"


# ------------------------------------------------------------------ checks


def index_ranges(cx, i, bounds, signed=True):
    """Whether every element of index operand `i` lies in its range: `bounds` is one
    (lo, hi) pair of mixed index values for all elements, or one pair per column of
    the last dim (its static size). Returns one flag per pair: True when known in range
    at compile time, False when known out of range, else an i1 Value (see [Note: index
    checks])."""
    return values_in_ranges(cx, cx.operands[i], bounds, signed, cx.op.operands[i])


def values_in_ranges(cx, ind, bounds, signed=True, orig=None):
    """index_ranges of the index tensor `ind` (a converted Value; `orig`: the value it
    was converted from, read for constants first)."""
    t = ind.type
    if not bounds:
        return []
    per_column = len(bounds) > 1
    a = constant_array(orig) if orig is not None else None
    if a is None:
        a = constant_array(ind)
    if a is not None and all(Ix.known(lo, hi) for lo, hi in bounds):
        a = np.asarray(a).astype(np.int64 if signed else np.uint64).astype(object)
        cols = [a.reshape(-1)] if not per_column else \
            [a.reshape(-1, len(bounds))[:, j] for j in range(len(bounds))]
        return [bool(all(lo <= int(v) < hi for v in c)) for c, (lo, hi) in zip(cols, bounds)]
    if any(d == 0 for d in t.shape):
        return [True] * len(bounds)
    mins, maxs = _min_max(cx, ind, per_column, signed)
    s = scalars(cx)
    ix = Ix(s)
    flags = []
    maybe_empty = any(d == A.DYNAMIC for d in t.shape)
    for (lo, hi), mn, mx in zip(bounds, mins, maxs):
        ok = s.and_(s.cmp("ge", s.cast(mn, A.index, signed), ix.v(lo)),
                    s.cmp("lt", s.cast(mx, A.index, signed), ix.v(hi)))
        if maybe_empty:  # then min > max (the identities): nothing to check
            ok = s.or_(ok, s.cmp("gt", mn, mx, signed))
        flags.append(ok)
    return flags


# The reduction over all indices (see _min_max): blocks of BLOCK_ROWS x LANES indices
# reduced in parallel (a block per iteration of the outer loop, which the CPU target
# splits among threads), LANES independent accumulators in each (a vectorized inner
# loop: one accumulator is a chain of dependent load-min-store steps).
LANES = 16
BLOCK_ROWS = 256


def _min_max(cx, ind, per_column, signed):
    """Scalar Values (min, max) of the index tensor, one pair per column of its last dim
    when `per_column` (one linalg.generic reducing over the rest; such index tensors
    are small).

    Over all elements, the indices seen as a 1-D view are cut into: blocks of
    BLOCK_ROWS x LANES (reduced in parallel to LANES lanes per block, then the blocks
    to LANES lanes), rows of LANES (into the same lanes), the rest (fewer than LANES).
    Then the lanes and the rest to scalars."""
    from ._linalg_util import filled
    from ._shape_util import collapse, sizes
    s = scalars(cx)
    t = ind.type
    elt = t.element_type
    if t.rank == 0:
        v = s.op1("tensor.extract", [ind], elt)
        return [v], [v]
    hi = s.highest(elt, signed)
    lo = s.lowest(elt) if signed else s.zero(elt)

    def init(shape):
        return filled(cx, shape, elt, hi), filled(cx, shape, elt, lo)
    if per_column:
        k = t.shape[-1]
        mn, mx = _reduce(cx, ind, ind, *init([k]), signed)
        return ([s.op1("tensor.extract", [mn, s.index(j)], elt) for j in range(k)],
                [s.op1("tensor.extract", [mx, s.index(j)], elt) for j in range(k)])
    flat = collapse(cx, ind, [list(range(t.rank))])
    ix = Ix(s)
    n = sizes(cx, flat)[0]
    block = BLOCK_ROWS * LANES
    blocks = ix.floordiv(n, block)
    done = ix.mul(blocks, block)
    rows = ix.floordiv(ix.sub(n, done), LANES)
    end = ix.add(done, ix.mul(rows, LANES))
    lanes = None
    if not (Ix.known(blocks) and blocks == 0):
        part = _view(cx, flat, 0, [blocks, BLOCK_ROWS, LANES])
        per_block = _reduce(cx, part, part, *init([blocks, LANES]), signed)
        lanes = _reduce(cx, *per_block, *init([LANES]), signed)
    if not (Ix.known(rows) and rows == 0):
        part = _view(cx, flat, done, [rows, LANES])
        lanes = _reduce(cx, part, part, *(lanes or init([LANES])), signed)
    mn, mx = init([])
    if lanes is not None:
        mn, mx = _reduce(cx, *lanes, mn, mx, signed)
    if not (Ix.known(n, end) and n == end):
        rest = _view(cx, flat, end, [ix.sub(n, end)])
        mn, mx = _reduce(cx, rest, rest, mn, mx, signed)
    return [s.op1("tensor.extract", [mn], elt)], [s.op1("tensor.extract", [mx], elt)]


def _view(cx, flat, offset, shape):
    """The elements of 1-D `flat` from `offset` on, as a row-major tensor of `shape`."""
    from ._shape_util import expand, extract_slice
    ix = Ix(scalars(cx))
    count = 1
    for d in shape:
        count = ix.mul(count, d)
    part = extract_slice(cx, flat, [offset], [count])
    return part if len(shape) == 1 else expand(cx, part, [list(range(len(shape)))], shape)


def _reduce(cx, a, b, mn, mx, signed):
    """min of `a` into `mn` and max of `b` into `mx` (a and b of one shape, or one
    tensor; the outputs keep its leading and its last dims as their rank says, the
    rest is reduced): one linalg.generic."""
    from ._linalg_util import map_text
    from .common import generic_op
    r, k = a.type.rank, mn.type.rank
    kept = ([0] if k == 2 else []) + ([r - 1] if k else [])
    its = ["parallel" if d in kept else "reduction" for d in range(r)]
    full, out = map_text(r, list(range(r))), map_text(r, kept)
    ins = [a] if a is b else [a, b]

    def body(sb, _, args):
        u, v, lo, hi = args if len(args) == 4 else (args[0], *args)
        return [sb.min(lo, u, signed), sb.max(hi, v, signed)]
    return generic_op(cx, ins, [mn, mx], [full] * len(ins) + [out, out], its, body)


def check_dims(cx, pairs):
    """Shape conditions of an access: each (a, b, pred, message) says mixed sizes
    `a <pred> b` (pred `le` or `eq`) must hold; cf.assert of each not known to hold,
    NotLowerable(message) for one known to fail. Returns the flags (True or i1)."""
    from . import NotLowerable
    ix = Ix(scalars(cx))
    flags = []
    for a, b, pred, message in pairs:
        f = ix.cmp(pred, a, b)
        if f is False:
            raise NotLowerable(f"{message} ({a} vs {b})")
        assert_ok(cx, f, message)
        flags.append(f)
    return flags


def require(cx, flag, message: str):
    """A rule of the op: nothing when `flag` is True, a lowering error (NotLowerable)
    when False, else `cf.assert` of the i1 Value (see [Note: shape checks]). Returns
    `flag`."""
    from . import NotLowerable
    if flag is False:
        raise NotLowerable(message)
    assert_ok(cx, flag, message)
    return flag


def shape_text(values) -> str:
    """`[2, ?, -1]`: known values, `?` for those known at run time only."""
    return "[" + ", ".join(str(int(v)) if Ix.known(v) and v != A.DYNAMIC else "?"
                           for v in values) + "]"


def checked_product(cx, dims):
    """(product, fits) of mixed non-negative sizes `dims`: `fits` says the exact
    product is at most INT64_MAX (True / False when known, else an i1 Value); any zero
    factor makes it fit. The product wraps when it does not fit."""
    s = scalars(cx)
    ix = Ix(s)
    known, dyn = 1, []
    for d in dims:
        if Ix.known(d):
            known *= int(d)
        else:
            dyn.append(d)
    if known == 0:
        return 0, True
    if not dyn:
        return known, known <= INT64_MAX
    # `acc * d` overflows when d > INT64_MAX / acc (acc > 0); a known acc over the
    # limit has overflowed already (unless a later factor is 0)
    acc, over = known, [known > INT64_MAX]
    for d in dyn:
        if not Ix.known(acc):
            q = s.op1("arith.divsi", [s.index(INT64_MAX), ix.v(ix.max(acc, 1))], A.index)
            over.append(s.cmp("gt", d, q))
        elif 1 < acc <= INT64_MAX:
            over.append(s.cmp("gt", d, s.index(INT64_MAX // acc)))
        acc = ix.mul(acc if not Ix.known(acc) or acc <= INT64_MAX else 0, d)
    zero = any_of(cx, [ix.cmp("eq", d, 0) for d in dyn])
    return acc, any_of(cx, [not_(cx, any_of(cx, over)), zero])


def checked_sum(cx, terms):
    """(sum, fits) of mixed non-negative values: `fits` as in checked_product."""
    s = scalars(cx)
    ix = Ix(s)
    acc, flags = 0, []
    for d in terms:
        if Ix.known(acc, d):
            flags.append(int(acc) + int(d) <= INT64_MAX)
        else:
            flags.append(ix.cmp("le", d, ix.sub(INT64_MAX, acc)))
        acc = ix.add(acc, d)
    return acc, all_of(cx, flags)


def not_(cx, flag):
    """The negation of a flag (a bool or an i1 Value)."""
    if isinstance(flag, (bool, np.bool_)):
        return not flag
    return scalars(cx).not_(flag)


def any_of(cx, flags):
    """The disjunction of flags (bools and i1 Values): a bool when known."""
    s = scalars(cx)
    acc = False
    for f in flags:
        if f is False:
            continue
        if f is True:
            return True
        acc = f if acc is False else s.or_(acc, f)
    return acc


def distinct(cx, values):
    """Whether mixed `values` are pairwise different (a flag)."""
    ix = Ix(scalars(cx))
    return all_of(cx, [ix.cmp("ne", a, b) for k, a in enumerate(values)
                       for b in values[k + 1:]])


def when_ok(cx, ok, values, otherwise=0):
    """Mixed `values` where `ok` holds; each Value among them becomes `otherwise` where
    it does not (see [Note: shape checks]). Known values stay: they were checked at
    compile time."""
    if ok is True:
        return list(values)
    ix = Ix(scalars(cx))
    return [v if Ix.known(v) else ix.select(ok, v, otherwise) for v in values]


def result_sizes(cx, computed, i=0, what="shape"):
    """`computed` mixed sizes of result `i` checked against the dims its type knows
    statically (a declared output, or shape inference): (the sizes, with the static
    dims, and the flag that they agree). A rule of the op (`require`)."""
    ix = Ix(scalars(cx))
    rt = cx.result_type(i)
    if type(rt) is not A.RankedTensorType or rt.rank != len(computed):
        return list(computed), True
    out, flags = [], []
    for k, (d, c) in enumerate(zip(rt.shape, computed)):
        if d == A.DYNAMIC:
            out.append(c)
            continue
        out.append(d)
        f = ix.cmp("eq", c, d)
        if f is False:
            from . import NotLowerable
            raise NotLowerable(f"{what} gives {c} for dim {k} of the result, typed {d}")
        flags.append(f)
    ok = all_of(cx, flags)
    assert_ok(cx, ok, f"{what} differs from the result's static dims {shape_text(rt.shape)}")
    return out, ok


def nonnegative(cx, values, what):
    """`require` that mixed `values` (named `what`, as [..] text) are all >= 0."""
    ix = Ix(scalars(cx))
    return require(cx, all_of(cx, [ix.cmp("ge", v, 0) for v in values]),
                   f"{what} {shape_text(values)} has a negative value")


def checked_build(cx, ok, out, elt, build):
    """`build(sizes)`, a tensor of mixed sizes `out` (element type `elt`), made with its
    Values sent to 0 unless `ok` (see [Note: shape checks]): an empty tensor after a
    failed check. When every size is known there is none to send to 0: `build` then runs
    in an scf.if on `ok`, zeros of `out` in the other branch."""
    out = when_ok(cx, ok, out)
    if ok is True or not Ix.known(*out):
        return build(out)
    from ._linalg_util import filled
    from ._shape_util import fit
    from .common import tensor_type
    t = tensor_type(out, elt)
    return unless_empty(cx, not_(cx, ok), t, lambda: filled(cx, out, elt),
                        lambda: fit(cx, build(out), t))


def assert_ok(cx, flag, message: str):
    """`cf.assert` of `flag` (nothing when it is True) with `label(cx): message`."""
    from ...dialects.cf import AssertOp
    if flag is True:
        return
    if flag is False:
        flag = scalars(cx).const(False, A.i1)
    cx.create(AssertOp, arg=flag, msg=A.StringAttr(f"{label(cx)}: {message}"))


def all_of(cx, flags):
    """The conjunction of flags (bools and i1 Values): a bool when known."""
    s = scalars(cx)
    acc = True
    for f in flags:
        if f is True:
            continue
        if f is False:
            return False
        acc = f if acc is True else s.and_(acc, f)
    return acc


# ------------------------------------------------------------------ staying in bounds


def wrap(s, i, n):
    """Index Value `i` counted from the end when negative (ONNX's [-n, n))."""
    ix = Ix(s)
    return s.select(s.cmp("lt", i, s.index(0)), ix.v(ix.add(i, n)), i)


def clamp(s, i, hi):
    """Index Value `i` brought into [0, hi] (`hi` >= 0, computed outside the payload):
    one unsigned minimum, which also sends negative values to `hi`."""
    return s.op1("arith.minui", [i, Ix(s).v(hi)], A.index)


def last_index(cx, n):
    """max(n - 1, 0) for a mixed size `n` (made at the lowering's point)."""
    ix = Ix(scalars(cx))
    return ix.max(ix.sub(n, 1), 0)


def clamp_bounds(cx, dims, axes):
    """For a gather reading data of mixed sizes `dims` at clamped positions along
    `axes`: ({axis: its last valid index, max(n - 1, 0)}, whether one of those dims is
    empty: None when known not, True when known, else an i1 Value). An empty dim has no
    position to read: `unless_empty` then skips the gather."""
    s = scalars(cx)
    his = {a: last_index(cx, dims[a]) for a in axes}
    if any(Ix.known(dims[a]) and dims[a] == 0 for a in axes):
        return his, True
    empty = None
    for a in axes:
        if not Ix.known(dims[a]):
            z = s.cmp("eq", dims[a], s.index(0))
            empty = z if empty is None else s.or_(empty, z)
    return his, empty


def unless_empty(cx, empty, t, instead, build):
    """`build()` (a tensor Value of type `t` made at the lowering's point), or
    `instead()` (one of type `t` too) where `empty` (from clamp_bounds) holds: at
    compile time, or by an scf.if whose branches make one each (the gather does not run
    on an empty dim; the values then do not matter, a check has failed)."""
    from ...dialects.scf import IfOp, YieldOp
    if empty is None:
        return build()
    if empty is True:
        return instead()
    op = cx.b.insert(IfOp.new(empty, [t], with_else=True, loc=cx.loc))
    saved = cx.b.ip
    for region, make in zip(op.regions, (instead, build)):
        cx.b.set_insertion_point_to_end(region.blocks[0])
        cx.b.insert(YieldOp.build(values=[make()], loc=cx.loc))
    cx.b.ip = saved
    return op.results[0]


def guarded(cx, ubs, ok):
    """Loop bounds `ubs` (mixed) running no iteration unless `ok`: the first bound is 0
    when a check failed. No loops (a single access) become one loop of one iteration."""
    if ok is True:
        return list(ubs)
    ubs = list(ubs) or [1]
    ix = Ix(scalars(cx))
    ubs[0] = 0 if ok is False else ix.select(ok, ubs[0], 0)
    return ubs


# ------------------------------------------------------------------ integer division


def when(cx, cond, build):
    """`build()` (an i1 Value or bool made at the lowering's point) where `cond` holds,
    True otherwise: by an scf.if when `cond` is an i1 Value."""
    from ...dialects.scf import IfOp, YieldOp
    if cond is False:
        return True
    if cond is True:
        return build()
    s = scalars(cx)
    op = cx.b.insert(IfOp.new(cond, [A.i1], with_else=True, loc=cx.loc))
    saved = cx.b.ip
    cx.b.set_insertion_point_to_end(op.regions[0].blocks[0])
    f = build()
    cx.b.insert(YieldOp.build(values=[s.const(bool(f), A.i1) if isinstance(f, bool) else f],
                              loc=cx.loc))
    cx.b.set_insertion_point_to_end(op.regions[1].blocks[0])
    cx.b.insert(YieldOp.build(values=[s.const(True, A.i1)], loc=cx.loc))
    cx.b.ip = saved
    return op.results[0]


def _constant(cx, i):
    """Operand `i`'s value as an array when known at compile time, else None."""
    a = constant_array(cx.op.operands[i])
    if a is None:
        a = constant_array(cx.operands[i])
    return None if a is None else np.asarray(a)


def division_checks(cx, xi, yi, signed=True, overflow=True):
    """Checks of an integer division of operand `xi` by operand `yi` (broadcast
    together; `overflow`: signed Div, whose minimum / -1 overflows): see [Note:
    integer division checks]. NotLowerable when a constant divisor holds a zero."""
    from . import NotLowerable
    from .common import elementwise
    y = cx.operands[yi]
    elt = y.type.element_type
    if type(elt) is not A.IntegerType or elt.width == 1:
        return
    w = elt.width
    ones = (1 << w) - 1
    overflow = overflow and signed
    s = scalars(cx)
    b = _constant(cx, yi)
    minus_one = False
    if b is not None:
        b = b.astype(np.int64 if signed else np.uint64)
        if np.any(b == 0):
            raise NotLowerable("division by zero (a constant divisor holds 0)")
        minus_one = bool(overflow and np.any(b == -1))
    elif not any(d == 0 for d in y.type.shape):
        (mn,), (mx,) = _min_max(cx, y, False, False)
        assert_ok(cx, s.cmp("ne", mn, s.zero(elt)), "division by zero")
        if overflow:
            minus_one = s.cmp("eq", mx, s.const(ones, elt))
    if minus_one is False:
        return
    x = cx.operands[xi]
    lowest = -(1 << (w - 1))
    a = _constant(cx, xi)
    if a is not None:
        a = a.astype(np.int64)
        if not np.any(a == lowest):
            return
        if b is not None:
            a, b = np.broadcast_arrays(a, b)
            if np.any((a == lowest) & (b == -1)):
                raise NotLowerable("integer overflow (the minimum value divided by -1)")
            return

    def pairs():
        bad = elementwise(cx, [x, y], A.i8, lambda sb, u, v: sb.cast(sb.and_(
            sb.cmp("eq", u, sb.const(lowest, elt)),
            sb.cmp("eq", v, sb.const(-1, elt))), A.i8, False))
        if any(d == 0 for d in bad.type.shape):
            return True
        (_,), (most,) = _min_max(cx, bad, False, False)
        return s.cmp("eq", most, s.zero(A.i8))
    assert_ok(cx, when(cx, minus_one, pairs),
              "integer overflow (the minimum value divided by -1)")
