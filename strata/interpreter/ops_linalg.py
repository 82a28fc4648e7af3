"""Interpreter implementation of linalg: every structured op through one engine.

[Note: the structured-op engine]
linalg.generic and every named op (matmul, conv, pooling, fill, copy, transpose,
broadcast, reduce, map, elementwise...) expose the same interface: indexing maps,
iterator types and a payload block (strata/dialects/linalg/structured.py). The engine
runs any of them from that interface alone:

  - loop ranges come from the operand shapes through the inverted indexing maps;
  - the payload runs *vectorized*: its block arguments are arrays over a box of the
    iteration space, each op of the body computes all points at once (arith and math
    implementations are elementwise NumPy). An operand whose map is a projected
    permutation is a strided view of the operand (no copy); other maps (convolution
    windows `d1 + d4`, constants) gather through index arrays, bounds-checked;
  - parallel loops are all done at once; reduction loops are walked in order, one
    reduction point per step (the semantics of the loop nest, whatever the payload);
  - when every output is reduced by one associative op (`out = out + f(ins)`, max, min,
    and, or, xor, mul) the contributions `f(ins)` of many reduction points are computed
    at once, folded with NumPy's reduce and combined with the accumulator by the same
    arith implementation (boxes of the iteration space bounded in size);
  - a contraction `out + a * b` (matmul, batch_matmul, matvec, dot...) of f32/f64/i32/i64
    uses np.einsum;
  - a payload that is not elementwise (nested regions, calls) runs point by point.

Floating-point sums in the fast paths are associated differently from the sequential
loop: results agree up to rounding.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..ir import attributes as A
from ..ir.affine import AffineDimExpr
from .core import IMPLS, fail, impl
from .values import int_width, to_unsigned, wrap

# Elements of the iteration box computed at once on the associative-reduction path.
BOX_BUDGET = 1 << 22

# combiner op -> (NumPy reduction ufunc, how contributions are read before reducing)
_COMBINERS = {
    "arith.addf": (np.add, None), "arith.mulf": (np.multiply, None),
    "arith.addi": (np.add, "wide"), "arith.muli": (np.multiply, "wide"),
    "arith.andi": (np.bitwise_and, None), "arith.ori": (np.bitwise_or, None),
    "arith.xori": (np.bitwise_xor, None),
    "arith.maxsi": (np.maximum, None), "arith.minsi": (np.minimum, None),
    "arith.maxui": (np.maximum, "unsigned"), "arith.minui": (np.minimum, "unsigned"),
    "arith.maximumf": (np.maximum, "zeros"), "arith.minimumf": (np.minimum, "zeros"),
    "arith.maxnumf": (np.fmax, "zeros"), "arith.minnumf": (np.fmin, "zeros"),
}
_EINSUM_DTYPES = frozenset(map(np.dtype, (np.float32, np.float64, np.int32, np.int64)))


def _structured_ops():
    """Names of the linalg dialect's structured ops (none while it is not registered)."""
    from ..dialects import all_dialects
    try:
        from ..dialects.linalg.structured import StructuredOp
    except ImportError:
        return []
    return [name for d in all_dialects() if d.name == "linalg"
            for name, cls in d.ops.items() if issubclass(cls, StructuredOp)]


@impl("linalg.index")
def _index(interp, op, args):
    return [interp.loop_indices[-1][op.properties["dim"].value]]


@impl("linalg.softmax")
def _softmax(interp, op, args):
    """As upstream decomposes it: max (maxnumf), x - max, exp, sum, divide."""
    x = np.asarray(args[0])
    d = op.properties["dimension"].value
    m = np.fmax.reduce(x, axis=d, keepdims=True)
    e = np.exp((x - m).astype(np.float64)).astype(x.dtype)
    r = (e / np.add.reduce(e, axis=d, keepdims=True)).astype(x.dtype)
    if isinstance(op._operands[1].value.type, A.MemRefType):
        args[1][...] = r
        return []
    return [r]


def run_structured(interp, op, args):
    """Run a structured op (see [Note: the structured-op engine])."""
    n_in = op.num_dps_inputs()
    ins, inits = args[:n_in], args[n_in:]
    maps = op.indexing_maps_list()
    iters = op.iterator_types_list()
    if len(maps) != len(args):
        fail(op, f"has {len(maps)} indexing maps for {len(args)} operands")
    ranges = _loop_ranges(op, maps, args, len(iters))
    buffers = [i for i, o in enumerate(op._operands) if isinstance(o.value.type, A.MemRefType)]
    if buffers:  # destination-passing style on memrefs: live buffers, writable outs
        from .ops_memref import check_buffers
        check_buffers(interp, op, [args[i] for i in buffers],
                      written=[k for k, i in enumerate(buffers) if i >= n_in])
    outs = []
    for k, (v, m) in enumerate(zip(inits, maps[n_in:])):
        if not isinstance(v, np.ndarray):
            fail(op, f"init #{k} is not a tensor")
        in_place = isinstance(op._operands[n_in + k].value.type, A.MemRefType)
        outs.append(v if in_place else np.array(v, copy=True))
    results = [o for o, v in zip(outs, op._operands[n_in:])
               if not isinstance(v.value.type, A.MemRefType)]
    if 0 in ranges:
        return results
    E = _Engine(interp, op, ins, outs, maps, iters, ranges)
    E.run()
    return results


def _loop_ranges(op, maps, args, n_loops):
    """Trip count of every loop, read off the operand shapes; operands must agree."""
    ranges = [None] * n_loops
    for i, (m, v) in enumerate(zip(maps, args)):
        shape = np.shape(v)
        if len(shape) != m.num_results:
            fail(op, f"operand #{i} has rank {len(shape)}, its indexing map {m} has "
                     f"{m.num_results} results")
        for d, r in enumerate(m.results):
            if type(r) is AffineDimExpr:
                p = r.position
                if ranges[p] is None:
                    ranges[p] = shape[d]
                elif ranges[p] != shape[d]:
                    fail(op, f"operand #{i} dimension {d} has size {shape[d]}, but loop "
                             f"d{p} runs {ranges[p]} times (from the other operands)")
    if None in ranges:
        fail(op, "the indexing maps do not determine every loop range")
    return ranges


class _Engine:
    __slots__ = ("interp", "op", "ins", "outs", "maps", "n_in", "ranges", "L", "par",
                 "red", "grids", "in_views", "out_views", "body", "block")

    def __init__(self, interp, op, ins, outs, maps, iters, ranges):
        self.interp, self.op, self.ins, self.outs, self.maps = interp, op, ins, outs, maps
        self.n_in = len(ins)
        self.ranges = ranges
        self.L = len(ranges)
        self.par = [d for d, t in enumerate(iters) if t == "parallel"]
        self.red = [d for d, t in enumerate(iters) if t != "parallel"]
        self.grids = [np.arange(n, dtype=np.int64).reshape(
            [n if a == d else 1 for a in range(self.L)]) for d, n in enumerate(ranges)]
        self.in_views = [_loop_view(x, m, self.L) if isinstance(x, np.ndarray) else None
                         for x, m in zip(ins, maps)]
        self.out_views = []
        for k, (o, m) in enumerate(zip(outs, maps[self.n_in:])):
            v = _loop_view(o, m, self.L)
            if v is None:
                fail(op, f"output #{k} has indexing map {m}, not a projected permutation")
            if any(v.shape[d] != 1 for d in self.red):
                fail(op, f"output #{k} is indexed by a reduction loop")
            self.out_views.append(v)
        self.body = op.regions[0]
        self.block = self.body.blocks[0]

    # ------------------------------------------------------------ strategy

    def run(self):
        if not self.interp.vectorizable(self.body):
            return self.run_pointwise()
        if self.red and self.try_einsum():
            return None
        combiners = self.combiners() if self.red else None
        if combiners:
            return self.run_reduced(combiners)
        for point in itertools.product(*(range(self.ranges[d]) for d in self.red)):
            box = [slice(None)] * self.L
            for d, i in zip(self.red, point):
                box[d] = slice(i, i + 1)
            ys = self.run_body(box)
            for k, y in enumerate(ys):
                self.write(k, y, box)
        return None

    # ------------------------------------------------------------ operand values on a box

    def box_shape(self, box):
        return tuple(n if s.start is None else s.stop - s.start
                     for n, s in zip(self.ranges, box))

    def input_value(self, i, box):
        x = self.ins[i]
        if not isinstance(x, np.ndarray):
            return x  # a scalar operand
        v = self.in_views[i]
        if v is not None:
            return v[tuple(s if v.shape[d] != 1 else slice(None) for d, s in enumerate(box))]
        return self.gather(i, x, box)

    def gather(self, i, x, box):
        grids = [g[tuple(s if a == d else slice(None) for a in range(self.L))]
                 for d, (g, s) in enumerate(zip(self.grids, box))]
        idx = []
        for d, r in enumerate(self.maps[i].results):
            e = np.asarray(r.eval(grids))
            n = x.shape[d]
            if e.size and (int(e.min()) < 0 or int(e.max()) >= n):
                bad = int(e.min()) if int(e.min()) < 0 else int(e.max())
                fail(self.op, f"operand #{i} is read at index {bad} of dimension {d} (size "
                              f"{n}): its indexing map {self.maps[i]} leaves the tensor")
            idx.append(e)
        return x[tuple(idx)] if idx else x

    def box_indices(self, box):
        return [g[tuple(s if a == d else slice(None) for a in range(self.L))]
                for d, (g, s) in enumerate(zip(self.grids, box))]

    def run_body(self, box):
        args = [self.input_value(i, box) for i in range(self.n_in)] + self.out_views
        interp = self.interp
        interp.loop_indices.append(self.box_indices(box))
        try:
            return interp.run_region_vectorized(self.body, args)
        finally:
            interp.loop_indices.pop()

    def write(self, k, y, box):
        view = self.out_views[k]
        y = np.asarray(y)
        if y.dtype != view.dtype:
            fail(self.op, f"the payload yields {y.dtype} values for output #{k} of "
                          f"{view.dtype}")
        shape = self.box_shape(box)
        y = np.broadcast_to(y, np.broadcast_shapes(y.shape, shape))
        # A parallel loop the output does not depend on: the last iteration's write wins.
        last = tuple(slice(-1, None) if view.shape[d] == 1 and y.shape[d] > 1 else slice(None)
                     for d in range(self.L))
        view[...] = y[last]

    # ------------------------------------------------------------ associative reductions

    def combiners(self):
        """[(combiner op, index of its contribution operand)] when each output is
        `yield comb(out_arg, contribution)` and no other op reads an output, else None."""
        block = self.block
        out_args = block.args[self.n_in:]
        yield_op = block.last
        found = []
        for k, a in enumerate(out_args):
            uses = list(a.uses)
            if len(uses) != 1:
                return None
            comb = uses[0].owner
            if comb.name not in _COMBINERS or comb.parent is not block or \
                    len(comb.results) != 1:
                return None
            r = comb.results[0]
            ru = list(r.uses)
            if len(ru) != 1 or ru[0].owner is not yield_op or \
                    yield_op._operands[k].value is not r:
                return None
            ops = [o.value for o in comb._operands]
            if len(ops) != 2 or ops[0] is ops[1]:
                return None
            found.append((comb, 1 if ops[0] is a else 0))
        return found

    def run_reduced(self, combiners):
        interp = self.interp
        skip = {c for c, _ in combiners} | {self.block.last}
        for box in self.reduction_boxes():
            args = [self.input_value(i, box) for i in range(self.n_in)] + self.out_views
            env = interp.env
            for a, v in zip(self.block.args, args):
                env[a] = v
            interp.loop_indices.append(self.box_indices(box))
            interp.vectorized += 1
            try:
                for o in self.block.ops:
                    if o not in skip:
                        interp.run_op(o)
            finally:
                interp.vectorized -= 1
                interp.loop_indices.pop()
            shape = self.box_shape(box)
            for k, (comb, ci) in enumerate(combiners):
                c = np.broadcast_to(np.asarray(env[comb._operands[ci].value]), shape)
                part = _reduce(comb, c, tuple(self.red))
                acc = self.out_views[k]
                pair = [acc, part] if ci == 1 else [part, acc]
                self.write(k, IMPLS[comb.name](interp, comb, pair)[0],
                           [slice(None) if d in self.par else slice(0, 1)
                            for d in range(self.L)])

    def reduction_boxes(self):
        """Boxes covering the reduction loops in order, each of at most BOX_BUDGET
        iteration points (at least one reduction point)."""
        par_size = int(np.prod([self.ranges[d] for d in self.par], dtype=np.int64))
        allowed = max(1, BOX_BUDGET // max(par_size, 1))
        red = self.red
        sizes = [self.ranges[d] for d in red]
        k = 0  # red[k:] are taken whole
        while int(np.prod(sizes[k:], dtype=np.int64)) > allowed:
            k += 1
        inner = int(np.prod(sizes[k:], dtype=np.int64))
        if k == 0:
            yield [slice(None)] * self.L
            return
        step = max(1, allowed // max(inner, 1))
        outer = [range(n) for n in sizes[:k - 1]]
        for point in itertools.product(*outer):
            for start in range(0, sizes[k - 1], step):
                box = [slice(None)] * self.L
                for d, i in zip(red, point):
                    box[d] = slice(i, i + 1)
                box[red[k - 1]] = slice(start, min(start + step, sizes[k - 1]))
                yield box

    # ------------------------------------------------------------ contractions

    def try_einsum(self):
        """`out + in0 * in1` with projected-permutation maps: np.einsum."""
        if self.n_in != 2 or len(self.outs) != 1:
            return False
        ops = list(self.block.ops)
        if len(ops) != 3:
            return False
        mul, add, yld = ops
        a, b, out = self.block.args
        kinds = {("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi")}
        if (mul.name, add.name) not in kinds or \
                {o.value for o in mul._operands} != {a, b} or a is b or \
                {o.value for o in add._operands} != {out, mul.results[0]} or \
                yld._operands[0].value is not add.results[0]:
            return False
        x, y = self.ins
        o = self.outs[0]
        if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)) or \
                not (x.dtype == y.dtype == o.dtype) or o.dtype not in _EINSUM_DTYPES:
            return False
        letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        if self.L > len(letters):
            return False
        subs = []
        for m in self.maps:
            if any(type(r) is not AffineDimExpr for r in m.results):
                return False
            pos = [r.position for r in m.results]
            if len(set(pos)) != len(pos):
                return False
            subs.append("".join(letters[p] for p in pos))
        if not set(subs[2]) <= set(subs[0]) | set(subs[1]):
            return False
        part = np.einsum(f"{subs[0]},{subs[1]}->{subs[2]}", x, y, optimize=True)
        acc = self.outs[0]
        # The sum joins the accumulator through the payload's own add (its semantics).
        acc[...] = IMPLS[add.name](self.interp, add, [acc, np.asarray(part, acc.dtype)])[0]
        return True

    # ------------------------------------------------------------ point by point

    def run_pointwise(self):
        interp = self.interp
        for point in itertools.product(*(range(n) for n in self.ranges)):
            args = []
            for i, (x, m) in enumerate(zip(self.ins, self.maps)):
                if isinstance(x, np.ndarray):
                    idx = m.eval(point)
                    _check_point(self.op, i, x, idx, m)
                    args.append(x[idx][()] if idx else x[()])
                else:
                    args.append(x)
            out_idx = [m.eval(point) for m in self.maps[self.n_in:]]
            args += [o[idx][()] if idx else o[()] for o, idx in zip(self.outs, out_idx)]
            interp.loop_indices.append([np.int64(i) for i in point])
            try:
                ys = interp.run_region(self.body, args)
            finally:
                interp.loop_indices.pop()
            for o, idx, y in zip(self.outs, out_idx, ys):
                o[idx] = y


def _check_point(op, i, x, idx, m):
    for d, (j, n) in enumerate(zip(idx, x.shape)):
        if not 0 <= j < n:
            fail(op, f"operand #{i} is read at index {j} of dimension {d} (size {n}): its "
                     f"indexing map {m} leaves the tensor")


def _loop_view(x, m, n_loops):
    """`x` as an array over the loop space (size 1 on loops it does not depend on), a
    view, when map `m` is a projected permutation; else None."""
    pos = []
    for r in m.results:
        if type(r) is not AffineDimExpr:
            return None
        pos.append(r.position)
    if len(set(pos)) != len(pos):
        return None
    order = sorted(range(len(pos)), key=pos.__getitem__)
    v = np.transpose(x, order) if order != list(range(len(pos))) else x
    present = {pos[i] for i in order}
    missing = [a for a in range(n_loops) if a not in present]
    return np.expand_dims(v, missing) if missing else v


def _reduce(comb, c, axes):
    """The contributions `c` folded over `axes` (kept, size 1) as `comb` would."""
    ufunc, how = _COMBINERS[comb.name]
    if how == "wide":
        wide = np.uint64 if c.dtype.kind == "u" else np.int64
        return wrap(ufunc.reduce(c.astype(wide), axis=axes, keepdims=True),
                    comb.results[0].type)
    if how == "unsigned":
        t = comb.results[0].type
        return wrap(ufunc.reduce(to_unsigned(c, int_width(t)), axis=axes, keepdims=True), t)
    r = ufunc.reduce(c, axis=axes, keepdims=True)
    if how == "zeros":  # IEEE maximum/minimum: +0 above -0
        want_pos = ufunc in (np.maximum, np.fmax)
        sign = np.signbit(c)
        has = np.any((c == 0) & (~sign if want_pos else sign), axis=axes, keepdims=True)
        zero = np.zeros((), c.dtype)
        signed_zero = np.where(has == want_pos, zero, -zero)
        r = np.where(r == 0, signed_zero, r)
    return r


for _name in _structured_ops():
    impl(_name)(run_structured)


# ---------------------------------------------------------------- pack / unpack


def _relayout_plan(op, interp, unpacked_shape):
    """(tiles, padded shape, split shape, permutation) of a pack/unpack: the unpacked
    tensor, padded to whole tiles, reshaped so that each tiled dim d becomes (outer,
    tile), then transposed to the outer dims (in outer_dims_perm order) and the tiles (in
    inner_dims_pos order)."""
    pos = list(op.properties["inner_dims_pos"].value)
    tiles = [t if isinstance(t, int) else int(interp.value(t)) for t in op.mixed_tiles]
    perm_attr = op.properties.get("outer_dims_perm")
    n = len(unpacked_shape)
    outer_perm = list(perm_attr.value) if perm_attr is not None else list(range(n))
    padded, split, outer_ax, inner_ax = [], [], {}, {}
    for d, size in enumerate(unpacked_shape):
        if d in pos:
            t = tiles[pos.index(d)]
            full = -(-size // t) * t
            padded.append(full)
            split += [full // t, t]
            outer_ax[d], inner_ax[d] = len(split) - 2, len(split) - 1
        else:
            padded.append(size)
            split.append(size)
            outer_ax[d] = len(split) - 1
    perm = [outer_ax[d] for d in outer_perm] + [inner_ax[d] for d in pos]
    return padded, split, perm


@impl("linalg.pack")
def _pack(interp, op, args):
    x = np.asarray(args[0])
    padded, split, perm = _relayout_plan(op, interp, x.shape)
    if list(x.shape) != padded:
        pad_value = args[2] if op.padding_value is not None else None
        if pad_value is None:
            fail(op, "source does not fill whole tiles and the op has no padding value")
        x = np.pad(x, [(0, p - s) for s, p in zip(x.shape, padded)],
                   constant_values=np.asarray(pad_value).item())
    r = np.ascontiguousarray(x.reshape(split).transpose(perm)).astype(x.dtype)
    if isinstance(op.operand(1).type, A.MemRefType):
        args[1][...] = r
        return []
    return [r]


@impl("linalg.unpack")
def _unpack(interp, op, args):
    packed = np.asarray(args[0])
    dest_shape = np.asarray(args[1]).shape
    padded, split, perm = _relayout_plan(op, interp, dest_shape)
    inverse = np.argsort(perm)
    full = packed.transpose(inverse).reshape(padded)
    r = np.ascontiguousarray(full[tuple(slice(0, s) for s in dest_shape)])
    if isinstance(op.operand(1).type, A.MemRefType):
        args[1][...] = r
        return []
    return [r]
