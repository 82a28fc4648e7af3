"""Complex tensors lowered as real pairs: every `complex<f32>` (`complex<f64>`) value
tensor becomes a real tensor with a trailing dim of 2, torch's `view_as_real` layout,
and each ATen op on complex values becomes real computations on that form.

    %2 = torch.aten.view_as_complex %1 : !torch.vtensor<[2,4,2],f32>
           -> !torch.vtensor<[2,4],complex<f32>>
    %3 = torch.aten.mul.Tensor %2, %c : !torch.vtensor<[2,4],complex<f32>>, ...
  becomes
    (view_as_complex: %1 itself, tensor<2x4x2xf32>)
    %3 = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1, 0),
                                          (d0, d1, d2) -> (d0, d1, 1), ...]}
           ... ^bb0(%ar, %ai, %br, %bi, %out):  re = ar*br - ai*bi, im = ar*bi + ai*br,
           yield (d2 == 0 ? re : im)          -> tensor<2x4x2xf32>

[Note: complex as real pairs]
- The type converter ([Note: torch types], types.py) gives `!torch.vtensor<[2,4],
  complex<f32>>` the builtin type `tensor<2x4x2xf32>`, at the function boundary too:
  the compiled function takes and gives the pairs, and strata.compile passes complex
  arrays and tensors as views of their pairs, no copy ([Note: complex inputs and
  outputs as pairs] in compiler.py). The pairs are exactly the bytes of a complex
  array, so a complex weight's blob is read as the pairs as it is
  (torch-externalize-weights).
- convert-torch-to-linalg dispatches an op that takes or gives a complex tensor to
  COMPLEX_LOWERINGS (this module), never to the real lowering: an op without an entry
  here fails the pass with a located error naming it.
- Layout ops (view, permute, slice, cat, expand, select, squeeze, flip, pad, clone...)
  run the real lowering on the pairs, their dim arguments read against the complex
  rank (a negative dim never names the pair dim) and their size lists given the pair
  dim: the pair dim stays last. Indexing by leading dims (index.Tensor, index_put,
  index_select) needs nothing more.
- Arithmetic (add/sub/mul/div, exp, log, sqrt, reciprocal, sgn, conj, abs, angle,
  where, polar, complex...) is one linalg.generic over the result's pairs reading each
  complex operand twice, at component 0 and 1 (`celementwise`), broadcast as NumPy;
  the result's last loop dim picks the real or the imaginary part. Real operands and
  scalars mix in as complex numbers with no imaginary part.
- Products (mm/bmm/matmul) are four real products; sum/mean reduce the complex dims.
- FFTs (`aten._fft_r2c/_c2c/_c2r`) are DFTs along each dim, the DFT builder that ONNX's
  DFT uses (conversion/onnx_to_linalg/signal.py, `dft`).
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ..onnx_to_linalg._linalg_util import filled, map_text
from ..onnx_to_linalg._shape_util import Ix, finish, sizes
from ..onnx_to_linalg.common import (DYN, broadcast_groups, broadcast_shapes, empty,
                                     generic_op, ranked, scalars)
from ..scalar_builders import is_float
from . import DYNAMIC_ARG, LOWERINGS, NotLowerable, TorchLowering, lowering

__all__ = ["COMPLEX_LOWERINGS", "complex_lowering", "is_complex", "has_complex",
           "celementwise"]

# "aten.mul.Tensor" -> lowering of the op when it takes or gives complex tensors
COMPLEX_LOWERINGS: dict = {}


def complex_lowering(*names: str):
    def deco(fn):
        for n in names:
            if n in COMPLEX_LOWERINGS and COMPLEX_LOWERINGS[n] is not fn:
                raise ValueError(f"two complex lowerings registered for '{n}'")
            COMPLEX_LOWERINGS[n] = fn
        return fn
    return deco


def is_complex(t) -> bool:
    """Whether torch type `t` is a tensor of complex elements."""
    return type(getattr(t, "dtype", None)) is A.ComplexType


def has_complex(op) -> bool:
    """Whether torch op `op` takes or gives a complex tensor (a list of them too)."""
    for v in op.results:
        if is_complex(v.type):
            return True
    for v in op.operands:
        t = v.type
        if is_complex(t):
            return True
        if type(t).__name__ == "ListType":
            d = v.defining_op
            if d is not None and d.name == "torch.prim.ListConstruct" and \
                    any(is_complex(x.type) for x in d.operands):
                return True
    return False


def _rank(v) -> int:
    """The (complex) rank of torch-level tensor Value `v`."""
    sz = getattr(v.type, "sizes", None)
    if sz is None:
        raise NotLowerable(f"a tensor of unknown rank ({v.type})")
    return len(sz)


def _axis(d: int, r: int) -> int:
    n = max(r, 1)
    if not -n <= d < n:
        raise NotLowerable(f"dim {d} out of range for rank {r}")
    return d % n


# ------------------------------------------------------------------ layout ops


class PairLowering(TorchLowering):
    """A real lowering's context for an op on pairs: argument `i` in `given` is read as
    that value instead of the op's constant (dims against the complex rank, size lists
    with the pair dim), and complex operands' types are their pairs'."""

    __slots__ = ("given", "swapped")

    def result_type(self, i: int = 0):
        """The result's pairs; with `swapped`, the pair dim before the last dim (what a
        lowering that appends a dim computes: diagonal, unfold)."""
        t = super().result_type(i)
        if getattr(self, "swapped", False) and type(t) is A.RankedTensorType and t.rank > 1:
            sh = list(t.shape)
            sh[-1], sh[-2] = sh[-2], sh[-1]
            return A.RankedTensorType(tuple(sh), t.element_type)
        return t

    def arg(self, i):
        g = self.given.get(i, _MISSING)
        if g is _MISSING:
            return super().arg(i)
        if isinstance(g, list):
            return [x if isinstance(x, int) else DYNAMIC_ARG for x in g]
        return g

    def sizes(self, i, what="sizes"):
        g = self.given.get(i, _MISSING)
        return list(g) if g is not _MISSING else super().sizes(i, what)

    def is_none(self, i):
        if i in self.given:
            return self.given[i] is None
        return super().is_none(i)

    def orig_type(self, i):
        t = self.op.operands[i].type
        return self.tc.convert_type(t) if is_complex(t) else super().orig_type(i)

    def orig_result_type(self, i=0):
        t = self.op.results[i].type
        return self.tc.convert_type(t) if is_complex(t) else super().orig_result_type(i)

    def dim_names(self, value):
        names = super().dim_names(value)
        return names + [None] if names is not None and is_complex(value.type) else names


_MISSING = object()


def _dims_arg(cx, i, r, extra=()):
    """Argument `i`, a dim or a list of dims, normalized against complex rank `r`."""
    v = cx.arg(i)
    if isinstance(v, list):
        return [_axis(cx.ints(i, "dims")[k], r) for k in range(len(v))] + list(extra)
    return _axis(cx.int_(i, "dim"), r)


def _sizes_arg(cx, i):
    return cx.sizes(i, "size") + [2]


# op -> the arguments given to its real lowering: fn(cx, complex rank of operand 0)
_LAYOUT = {
    "aten.view": lambda cx, r: {1: _sizes_arg(cx, 1)},
    "aten.unsqueeze": lambda cx, r: {1: _axis(cx.int_(1, "dim"), r + 1)},
    "aten.squeeze": lambda cx, r: {},
    "aten.squeeze.dim": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.squeeze.dims": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.permute": lambda cx, r: {1: _dims_arg(cx, 1, r, extra=(r,))},
    "aten.transpose.int": lambda cx, r: {1: _dims_arg(cx, 1, r), 2: _dims_arg(cx, 2, r)},
    "aten.expand": lambda cx, r: {1: _sizes_arg(cx, 1)},
    "aten.slice.Tensor": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.select.int": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.index_select": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.flip": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.repeat": lambda cx, r: {1: cx.ints(1, "repeats") + [1]},
    "aten.cumsum": lambda cx, r: {1: _dims_arg(cx, 1, r)},
    "aten.clone": lambda cx, r: {},
    "aten.alias": lambda cx, r: {},
    "aten.detach": lambda cx, r: {},
    "aten.lift_fresh_copy": lambda cx, r: {},
    "aten.contiguous": lambda cx, r: {},
    "aten.index.Tensor": lambda cx, r: {},
    "aten._unsafe_index.Tensor": lambda cx, r: {},
    "aten.index_put": lambda cx, r: {},
    "aten._index_put_impl": lambda cx, r: {},
    "aten._assert_tensor_metadata": lambda cx, r: {},
}
for _n in ("aten._unsafe_view", "aten.reshape"):
    _LAYOUT[_n] = _LAYOUT["aten.view"]
_LAYOUT["aten.broadcast_to"] = _LAYOUT["aten.expand"]
for _n in ("aten.split_with_sizes", "aten.split_with_sizes_copy", "aten.split.Tensor",
           "aten.split_copy.Tensor"):
    _LAYOUT[_n] = lambda cx, r: {2: _dims_arg(cx, 2, r)} if len(cx.op.operands) > 2 else {}
for _n in ("aten.index.Tensor_hacked_twin", "aten.index_put.hacked_twin"):
    _LAYOUT[_n] = _LAYOUT["aten.index.Tensor"]


def _pad_arg(cx, r):
    v = cx.arg(2) if len(cx.op.operands) > 2 else 0
    if v not in (0, 0.0, None):
        raise NotLowerable(f"padding a complex tensor with {v!r}")
    return {1: [0, 0] + cx.ints(1, "pad")}


_LAYOUT["aten.constant_pad_nd"] = _pad_arg
for _n in ("aten.slice_scatter", "aten.select_scatter"):
    _LAYOUT[_n] = lambda cx, r: {2: _dims_arg(cx, 2, r)} if len(cx.op.operands) > 2 else {}


def _roll_arg(cx, r):
    if len(cx.op.operands) < 3 or not cx.ints(2, "dims"):
        raise NotLowerable("rolling a complex tensor without dims")
    return {2: _dims_arg(cx, 2, r)}


_LAYOUT["aten.roll"] = _roll_arg


def _cat_arg(cx, r):
    first = cx.op.operands[0].defining_op.operands[0]
    return {1: _axis(cx.int_(1, "dim"), _rank(first))} if len(cx.op.operands) > 1 else {}


_LAYOUT["aten.cat"] = _LAYOUT["aten.concat"] = _cat_arg


def _layout(cx):
    name = cx.aten
    fn = LOWERINGS.get(name)
    if fn is None:
        raise NotLowerable(f"no lowering for {name}")
    src = cx.op.operands[0]
    r = _rank(src) if getattr(src.type, "sizes", None) is not None else 0
    operands = list(cx.operands)
    if any(is_complex(t.type) for t in cx.op.results):
        # real values written into complex ones (index_put's values, slice_scatter's
        # source) as pairs with no imaginary part; integer operands are indices
        for i, v in enumerate(operands):
            if isinstance(v.type, A.ShapedType) and is_float(v.type.element_type) and \
                    not is_complex(cx.op.operands[i].type):
                operands[i] = celementwise(cx, [(v, False)], lambda s, z: (z[0], s.zero(
                    z[0].type)), _pair_elt(cx), fit=False)
    pcx = PairLowering(cx.op, operands, cx.b, cx.tc)
    pcx.given = _LAYOUT[name](cx, r)
    return fn(pcx)


for _n in _LAYOUT:
    complex_lowering(_n)(_layout)


def _appending(dims_of):
    """A layout op that appends a dim (diagonal's, unfold's windows): the real lowering
    on the pairs gives [..., 2, n], transposed to [..., n, 2]."""
    def lower(cx):
        from ..onnx_to_linalg._linalg_util import transpose
        r = _rank(cx.op.operands[0])
        pcx = PairLowering(cx.op, cx.operands, cx.b, cx.tc)
        pcx.given = dims_of(cx, r)
        pcx.swapped = True
        (y,) = LOWERINGS[cx.aten](pcx)
        k = y.type.rank
        return [finish(cx, transpose(cx, y, list(range(k - 2)) + [k - 1, k - 2]))]
    return lower


complex_lowering("aten.diagonal", "aten.diagonal_copy")(_appending(
    lambda cx, r: {2: _dims_arg(cx, 2, r) if len(cx.op.operands) > 2 else 0,
                   3: _dims_arg(cx, 3, r) if len(cx.op.operands) > 3 else 1}))
complex_lowering("aten.unfold", "aten.unfold_copy")(_appending(
    lambda cx, r: {1: _dims_arg(cx, 1, r)}))


@complex_lowering("aten.linalg_vector_norm")
def _vector_norm(cx):
    """The norm of complex values: the real norm of their magnitudes (ATen's)."""
    x = cx.operands[0]
    mag = celementwise(cx, [(x, True)], cabs, _pair_elt(cx), out_complex=False, fit=False)
    return LOWERINGS[cx.aten](TorchLowering(cx.op, [mag] + list(cx.operands[1:]), cx.b,
                                            cx.tc))


@complex_lowering("prim.ListUnpack")
def _list_unpack(cx):
    """The complex tensors of a list: a ListConstruct's items, or the parts of a split
    (its dim read against the complex rank)."""
    from . import aten_name
    from .views import _SPLITS, _parts, _split_lengths
    src = cx.op.operands[0].defining_op
    if src is None or aten_name(src) not in _SPLITS:
        return LOWERINGS["prim.ListUnpack"](cx)
    operands = [cx.remapped(v) if isinstance(cx.tc.convert_type(v.type), A.ShapedType)
                else None for v in src.operands]
    pcx = PairLowering(src, operands, cx.b, cx.tc)
    pcx.given = _LAYOUT[aten_name(src)](TorchLowering(src, operands, cx.b, cx.tc),
                                        _rank(src.operands[0]))
    x = operands[0]
    lengths, d = _split_lengths(pcx, x, len(cx.op.results))
    if len(lengths) != len(cx.op.results):
        raise NotLowerable(f"{len(lengths)} parts for {len(cx.op.results)} results")
    return _parts(cx, x, d, lengths)


# ------------------------------------------------------------------ elementwise


def _pair_elt(cx, i=0):
    """The real element type of result `i`'s pairs (or of its real elements)."""
    t = cx.result_type(i)
    ranked(cx, t, "result")
    return t.element_type


def celementwise(cx, items, fn, elt, out_complex=True, out=None, fit=True):
    """One linalg.generic over the broadcast (NumPy's) complex shape of `items`: each a
    converted tensor and whether it holds pairs. `fn(s, *parts)` gets each item as an
    (re, im) pair of scalars in `elt` (a real item's im is None) and returns the
    result's (re, im), or, when not `out_complex`, its real value (of element type
    `out`, default `elt`). `fit`: the value is the op's result (its type)."""
    values = [v for v, _ in items]
    shapes = []
    for v, pair in items:
        ranked(cx, v.type)
        shapes.append(list(v.type.shape[:-1] if pair else v.type.shape))
    shape = broadcast_shapes(shapes)
    rank = len(shape)
    groups = [[(i, len(sh) - rank + k) for i, sh in enumerate(shapes)
               if len(sh) - rank + k >= 0] for k in range(rank)]
    values, out_sz = broadcast_groups(cx, values, groups, shape)
    loops = rank + (1 if out_complex else 0)
    maps, ins, reads = [], [], []
    for v, (_, pair), sh in zip(values, items, shapes):
        off = rank - len(sh)
        pos = ["0" if d == 1 else off + j for j, d in enumerate(sh)]
        reads.append((len(ins), pair, not _unsigned_tensor(cx, v)))
        for c in (["0", "1"] if pair else [None]):
            maps.append(map_text(loops, pos + ([c] if c is not None else [])))
            ins.append(v)
    maps.append(map_text(loops, list(range(loops))))
    out_elt = elt if out_complex or out is None else out

    def body(s, b, a):
        parts = [(s.cast(a[k], elt, sg), s.cast(a[k + 1], elt) if p else None)
                 for k, p, sg in reads]
        r = fn(s, *parts)
        if not out_complex:
            return [r if r.type is out_elt else s.cast(r, out_elt)]
        re, im = r
        return [s.select(s.cmp("eq", b.index(rank), s.index(0)), re, im)]
    y = generic_op(cx, ins, [empty(cx, list(out_sz) + ([2] if out_complex else []),
                                   out_elt)], maps, ["parallel"] * loops, body)[0]
    return finish(cx, y) if fit else y


def _unsigned_tensor(cx, v):
    e = getattr(v.type, "element_type", None)
    if type(e) is not A.IntegerType:
        return False
    for i, x in enumerate(cx.operands):
        if x is v:
            t = cx.orig_type(i)
            e = getattr(t, "element_type", None)
            return type(e) is A.IntegerType and e.signedness == A.IntegerType.UNSIGNED
    return False


def _items(cx, indices):
    """(converted tensor, holds pairs) of the tensor operands at `indices`; scalars
    are read as (re, None) constants by `_scalar_parts`."""
    out = []
    for i in indices:
        v = cx.operands[i]
        if isinstance(v.type, A.ShapedType):
            out.append((v, is_complex(cx.op.operands[i].type)))
    return out


def _operand_parts(cx, indices, elt):
    """For each operand at `indices`: ("t", k) for the k-th tensor item, or ("s",
    (re, im)) for a scalar argument."""
    plan, k = [], 0
    for i in indices:
        v = cx.operands[i]
        if isinstance(v.type, A.ShapedType):
            plan.append(("t", k))
            k += 1
        else:
            plan.append(("s", _scalar_pair(cx, i, elt)))
    return plan


def _scalar_pair(cx, i, elt):
    """Scalar argument `i` as (re, im) Values of `elt` (im None: a real number; Python
    complex constants are not imported, as torch-mlir's importer does not)."""
    return cx.scalar(i, elt), None


def _binary(cx, fn, indices=(0, 1), out_complex=True):
    elt = _pair_elt(cx)
    items = _items(cx, indices)
    plan = _operand_parts(cx, indices, elt)
    if not items:
        raise NotLowerable("an elementwise op needs a tensor operand")

    def body(s, *parts):
        vals = [parts[p] if kind == "t" else p for kind, p in plan]
        return fn(s, *vals)
    return [celementwise(cx, items, body, elt, out_complex)]


def _im(s, z):
    return z[1] if z[1] is not None else s.zero(z[0].type)


def cadd(s, a, b, sub=False):
    op = s.sub if sub else s.add
    if a[1] is None and b[1] is None:
        return op(a[0], b[0]), s.zero(a[0].type)
    return op(a[0], b[0]), op(_im(s, a), _im(s, b))


def cmul(s, a, b):
    if b[1] is None:
        a, b = b, a
    if a[1] is None:   # real * complex
        return s.mul(a[0], b[0]), s.mul(a[0], _im(s, b))
    return (s.sub(s.mul(a[0], b[0]), s.mul(a[1], b[1])),
            s.add(s.mul(a[0], b[1]), s.mul(a[1], b[0])))


def cdiv(s, a, b):
    """a / b by Smith's algorithm (no overflow of |b|^2; ATen's c10::complex divides
    so too)."""
    ar, ai = a[0], _im(s, a)
    if b[1] is None:
        return s.div(ar, b[0]), s.div(ai, b[0])
    br, bi = b
    absr, absi = s.math("absf", br), s.math("absf", bi)
    big_r = s.cmp("ge", absr, absi)
    # |br| >= |bi|: r = bi/br, den = br + bi*r; else r = br/bi, den = br*r + bi
    rat = s.select(big_r, s.div(bi, br), s.div(br, bi))
    den = s.select(big_r, s.add(br, s.mul(bi, rat)), s.add(s.mul(br, rat), bi))
    re1 = s.div(s.add(ar, s.mul(ai, rat)), den)
    im1 = s.div(s.sub(ai, s.mul(ar, rat)), den)
    re2 = s.div(s.add(s.mul(ar, rat), ai), den)
    im2 = s.div(s.sub(s.mul(ai, rat), ar), den)
    return s.select(big_r, re1, re2), s.select(big_r, im1, im2)


def cabs(s, z):
    """|z| as hypot: scaled by the larger part (no overflow or underflow of squares)."""
    x, y = s.math("absf", z[0]), s.math("absf", _im(s, z))
    hi, lo = s.max(x, y), s.min(x, y)
    zero = s.zero(hi.type)
    q = s.div(lo, s.select(s.cmp("eq", hi, zero), s.one(hi.type), hi))
    r = s.mul(hi, s.math("sqrt", s.add(s.one(hi.type), s.mul(q, q))))
    # inf in either part is inf (even beside a NaN, as C's hypot)
    inf = s.const(math.inf, hi.type)
    return s.select(s.or_(s.cmp("eq", x, inf), s.cmp("eq", y, inf)), inf, r)


def _alpha(cx, i, elt):
    if i >= len(cx.op.operands) or cx.is_none(i):
        return None
    v = cx.arg(i)
    if v == 1:
        return None
    return _scalar_pair(cx, i, elt)


def _add_like(sub):
    def lower(cx):
        elt = _pair_elt(cx)
        alpha = _alpha(cx, 2, elt)

        def fn(s, a, b):
            if alpha is not None:
                b = cmul(s, b, alpha)
            return cadd(s, a, b, sub)
        return _binary(cx, fn)
    return lower


complex_lowering("aten.add.Tensor", "aten.add.Scalar")(_add_like(False))
complex_lowering("aten.sub.Tensor", "aten.sub.Scalar")(_add_like(True))


@complex_lowering("aten.rsub.Tensor", "aten.rsub.Scalar")
def _rsub(cx):
    elt = _pair_elt(cx)
    alpha = _alpha(cx, 2, elt)

    def fn(s, a, b):
        if alpha is not None:
            a = cmul(s, a, alpha)
        return cadd(s, b, a, True)
    return _binary(cx, fn)


@complex_lowering("aten.mul.Tensor", "aten.mul.Scalar")
def _mul(cx):
    return _binary(cx, cmul)


@complex_lowering("aten.div.Tensor", "aten.div.Scalar", "aten.true_divide.Tensor",
                  "aten.true_divide.Scalar")
def _div(cx):
    return _binary(cx, cdiv)


def _unary(names, fn, out_complex=True):
    def lower(cx):
        return _binary(cx, fn, (0,), out_complex)
    complex_lowering(*names)(lower)


def _cexp(s, z):
    e = s.math("exp", z[0])
    y = _im(s, z)
    return s.mul(e, s.math("cos", y)), s.mul(e, s.math("sin", y))


def _clog(s, z):
    return s.math("log", cabs(s, z)), s.op1("math.atan2", [_im(s, z), z[0]], z[0].type)


def _csqrt(s, z):
    """The principal root: sqrt((|z| + |re|) / 2) on one part, im / (2 that) on the
    other (no cancellation)."""
    x, y = z[0], _im(s, z)
    zero, half = s.zero(x.type), s.const(0.5, x.type)
    t = s.math("sqrt", s.mul(s.add(cabs(s, z), s.math("absf", x)), half))
    is_zero = s.cmp("eq", t, zero)
    other = s.select(is_zero, zero, s.div(y, s.mul(s.const(2.0, x.type), t)))
    pos = s.cmp("ge", x, zero)
    re = s.select(pos, t, s.math("absf", other))
    im = s.select(pos, other, s.math("copysign", t, y))
    return re, im


def _crecip(s, z):
    return cdiv(s, (s.one(z[0].type), s.zero(z[0].type)), (z[0], _im(s, z)))


def _csgn(s, z):
    a = cabs(s, z)
    zero = s.zero(a.type)
    is_zero = s.cmp("eq", a, zero)
    d = s.select(is_zero, s.one(a.type), a)
    return (s.select(is_zero, zero, s.div(z[0], d)),
            s.select(is_zero, zero, s.div(_im(s, z), d)))


def _csin(s, z):
    x, y = z[0], _im(s, z)
    return (s.mul(s.math("sin", x), s.math("cosh", y)),
            s.mul(s.math("cos", x), s.math("sinh", y)))


def _ccos(s, z):
    x, y = z[0], _im(s, z)
    return (s.mul(s.math("cos", x), s.math("cosh", y)),
            s.neg(s.mul(s.math("sin", x), s.math("sinh", y))))


def _ctanh(s, z):
    """(sinh 2x + i sin 2y) / (cosh 2x + cos 2y); tanh(x) +- 0i beyond |x| = 20, where
    the quotient overflows and tanh is 1 to the last bit."""
    x, y = z[0], _im(s, z)
    two = s.const(2.0, x.type)
    den = s.add(s.math("cosh", s.mul(two, x)), s.math("cos", s.mul(two, y)))
    re = s.div(s.math("sinh", s.mul(two, x)), den)
    im = s.div(s.math("sin", s.mul(two, y)), den)
    far = s.cmp("gt", s.math("absf", x), s.const(20.0, x.type))
    return (s.select(far, s.math("tanh", x), re),
            s.select(far, s.math("copysign", s.zero(x.type), im), im))


def _csigmoid(s, z):
    one = (s.one(z[0].type), s.zero(z[0].type))
    e = _cexp(s, (s.neg(z[0]), s.neg(_im(s, z))))
    return cdiv(s, one, cadd(s, one, e))


def _clog1p(s, z):
    """log(1 + z) without the cancellation of 1 + z for small z: log|1 + z| as
    log1p(2x + x^2 + y^2) / 2."""
    x, y = z[0], _im(s, z)
    t = s.add(s.mul(s.const(2.0, x.type), x), s.add(s.mul(x, x), s.mul(y, y)))
    near = s.cmp("lt", s.math("absf", t), s.const(0.5, x.type))
    far = cabs(s, (s.add(x, s.one(x.type)), y))
    re = s.select(near, s.mul(s.const(0.5, x.type), s.math("log1p", t)),
                  s.math("log", far))
    return re, s.op1("math.atan2", [y, s.add(x, s.one(x.type))], x.type)


def _cexpm1(s, z):
    """exp(z) - 1: expm1(x) cos y - 2 sin^2(y / 2) + i e^x sin y."""
    x, y = z[0], _im(s, z)
    h = s.math("sin", s.mul(y, s.const(0.5, x.type)))
    re = s.sub(s.mul(s.math("expm1", x), s.math("cos", y)),
               s.mul(s.const(2.0, x.type), s.mul(h, h)))
    return re, s.mul(s.math("exp", x), s.math("sin", y))


def _cpow_real(s, z, p):
    """z ** p for a real exponent: |z|^p (cos p*arg z + i sin p*arg z); 0 ** p is 0
    for p > 0, 1 for p = 0."""
    x, y = z[0], _im(s, z)
    r = cabs(s, (x, y))
    t = s.op1("math.atan2", [y, x], x.type)
    m = s.math("powf", r, p)
    pt = s.mul(p, t)
    re, im = s.mul(m, s.math("cos", pt)), s.mul(m, s.math("sin", pt))
    zero = s.zero(x.type)
    is_zero = s.and_(s.cmp("eq", r, zero), s.cmp("gt", p, zero))
    return s.select(is_zero, zero, re), s.select(is_zero, zero, im)


@complex_lowering("aten.pow.Tensor_Scalar")
def _pow(cx):
    """z ** p, p a real number: the products torch gives for p = 2 and 3, the root for
    0.5, the reciprocal for -1, else the polar form."""
    v = cx.arg(1)
    if v is not DYNAMIC_ARG and not isinstance(v, (int, float)):
        raise NotLowerable("a complex power of a non-number")
    if v == 1:
        return _binary(cx, lambda s, z: (z[0], _im(s, z)), (0,))
    if v == 2:
        return _binary(cx, lambda s, z: cmul(s, z, z), (0,))
    if v == 3:
        return _binary(cx, lambda s, z: cmul(s, cmul(s, z, z), z), (0,))
    if v == 0.5:
        return _binary(cx, _csqrt, (0,))
    if v == -1:
        return _binary(cx, _crecip, (0,))
    elt = _pair_elt(cx)
    p = cx.scalar(1, elt)
    return _binary(cx, lambda s, z: _cpow_real(s, z, p), (0,))


_unary(("aten.exp",), _cexp)
_unary(("aten.tanh",), _ctanh)
_unary(("aten.sigmoid",), _csigmoid)
_unary(("aten.log1p",), _clog1p)
_unary(("aten.expm1",), _cexpm1)
_unary(("aten.rsqrt",), lambda s, z: _crecip(s, _csqrt(s, z)))
_unary(("aten.log",), _clog)
_unary(("aten.sqrt",), _csqrt)
_unary(("aten.reciprocal",), _crecip)
_unary(("aten.sgn", "aten.sign"), _csgn)
_unary(("aten.sin",), _csin)
_unary(("aten.cos",), _ccos)
_unary(("aten.neg",), lambda s, z: (s.neg(z[0]), s.neg(_im(s, z))))
_unary(("aten._conj", "aten.conj_physical", "aten._conj_physical", "aten.conj",
        "aten._conj_copy"),
       lambda s, z: (z[0], s.neg(_im(s, z))))
_unary(("aten.resolve_conj", "aten.resolve_neg", "aten.positive"),
       lambda s, z: (z[0], _im(s, z)))
_unary(("aten.square",), lambda s, z: cmul(s, z, z))
_unary(("aten.abs",), cabs, out_complex=False)
_unary(("aten.angle",), lambda s, z: s.op1("math.atan2", [_im(s, z), z[0]], z[0].type),
       out_complex=False)
_unary(("aten.real",), lambda s, z: z[0], out_complex=False)


@lowering("aten.angle")
def _real_angle(cx):
    """angle of real numbers: pi below 0, else 0 (NaN stays NaN), in the result's
    (floating) type."""
    from .elementwise import ew

    def body(s, x):
        zero = s.zero(x.type)
        pi = s.select(s.cmp("lt", x, zero), s.const(math.pi, x.type), zero)
        return s.select(s.cmp("uno", x, x), x, pi)
    return [ew(cx, [0], body)]
_unary(("aten.imag",), lambda s, z: _im(s, z), out_complex=False)


@complex_lowering("aten.isnan")
def _isnan(cx):
    x = cx.operands[0]
    return [celementwise(cx, [(x, True)],
                         lambda s, z: s.or_(s.cmp("uno", z[0], z[0]),
                                            s.cmp("uno", z[1], z[1])),
                         x.type.element_type, out_complex=False, out=A.i1)]


@complex_lowering("aten.eq.Tensor", "aten.ne.Tensor", "aten.eq.Scalar", "aten.ne.Scalar")
def _eq(cx):
    ne = cx.aten.startswith("aten.ne")
    elt = next(v.type.element_type for v in cx.operands if isinstance(v.type, A.ShapedType))
    if not is_float(elt):
        elt = A.f64
    items = _items(cx, (0, 1))
    plan = _operand_parts(cx, (0, 1), elt)

    def fn(s, *parts):
        a, b = [parts[p] if kind == "t" else p for kind, p in plan]
        same = s.and_(s.cmp("eq", a[0], b[0]), s.cmp("eq", _im(s, a), _im(s, b)))
        return s.not_(same) if ne else same
    return [celementwise(cx, items, fn, elt, out_complex=False, out=A.i1)]


@complex_lowering("aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther",
                  "aten.where.Scalar")
def _where(cx):
    elt = _pair_elt(cx)
    c = cx.operands[0]
    if not isinstance(c.type, A.ShapedType):
        raise NotLowerable("where() with a scalar condition")
    items = [(c, False)] + _items(cx, (1, 2))
    plan = _operand_parts(cx, (1, 2), elt)

    def fn(s, cond, *parts):
        a, b = [parts[p] if kind == "t" else p for kind, p in plan]
        flag = s.cmp("ne", cond[0], s.zero(elt))
        return s.select(flag, a[0], b[0]), s.select(flag, _im(s, a), _im(s, b))
    return [celementwise(cx, items, fn, elt)]


@complex_lowering("aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
def _masked_fill(cx):
    elt = _pair_elt(cx)
    x, m = cx.operands[0], cx.operands[1]
    v = cx.operands[2]
    items = [(x, True), (m, False)]
    if isinstance(v.type, A.ShapedType):
        items.append((v, is_complex(cx.op.operands[2].type)))
        fill = None
    else:
        fill = _scalar_pair(cx, 2, elt)

    def fn(s, a, mask, *rest):
        f = rest[0] if rest else fill
        flag = s.cmp("ne", mask[0], s.zero(elt))
        return s.select(flag, f[0], a[0]), s.select(flag, _im(s, f), a[1])
    return [celementwise(cx, items, fn, elt)]


@complex_lowering("aten.copy")
def _copy(cx):
    """copy(self, src): src (complex, or real: no imaginary part) in self's shape and
    type."""
    elt = _pair_elt(cx)
    items = [(cx.operands[0], True),
             (cx.operands[1], is_complex(cx.op.operands[1].type))]
    return [celementwise(cx, items, lambda s, a, b: (b[0], _im(s, b)), elt)]


@complex_lowering("aten.complex")
def _complex(cx):
    return _binary(cx, lambda s, a, b: (a[0], b[0]))


@complex_lowering("aten.polar")
def _polar(cx):
    return _binary(cx, lambda s, r, t: (s.mul(r[0], s.math("cos", t[0])),
                                        s.mul(r[0], s.math("sin", t[0]))))


@complex_lowering("aten.view_as_real", "aten.view_as_complex", "aten.view_as_real_copy",
                  "aten.view_as_complex_copy")
def _view_as(cx):
    """The pairs are the real view's elements: the value itself."""
    return [finish(cx, cx.operands[0])]


@complex_lowering("aten._to_copy", "aten.to.dtype", "aten._to_dtype", "aten.type_as",
                  "aten.to.dtype_layout")
def _to_copy(cx):
    """complex -> complex (another precision), real -> complex (imaginary part 0),
    complex -> real (the real part, as ATen casts)."""
    src_c = is_complex(cx.op.operands[0].type)
    dst_c = is_complex(cx.op.results[0].type)
    elt = _pair_elt(cx)
    x = cx.operands[0]
    if dst_c:
        return [celementwise(cx, [(x, src_c)], lambda s, z: (z[0], _im(s, z)), elt)]
    return [celementwise(cx, [(x, src_c)], lambda s, z: s.cast(z[0], elt), elt,
                         out_complex=False)]


# ------------------------------------------------------------------ creation


# factory -> (its sizes: a list argument's index, or "like" argument 0's; the fill: the
#             index of a value argument ("arg", i), a constant, or None for empty)
_FILLS = {"aten.full": (0, ("arg", 1)), "aten.zeros": (0, 0), "aten.ones": (0, 1),
          "aten.empty.memory_format": (0, None), "aten.empty": (0, None),
          "aten.full_like": ("like", ("arg", 1)), "aten.zeros_like": ("like", 0),
          "aten.ones_like": ("like", 1), "aten.empty_like": ("like", None),
          "aten.new_full": (1, ("arg", 2)), "aten.new_zeros": (1, 0),
          "aten.new_ones": (1, 1), "aten.new_empty": (1, None),
          "aten.empty_strided": (0, None), "aten.empty_permuted": (0, None),
          "aten.new_empty_strided": (1, None), "aten.scalar_tensor": ("scalar", ("arg", 0))}


@complex_lowering(*_FILLS)
def _factory(cx):
    where, fill = _FILLS[cx.aten]
    elt = _pair_elt(cx)
    if where == "scalar":
        sz = [2]
    elif where == "like":
        sz = sizes(cx, cx.operands[0])
        if not is_complex(cx.op.operands[0].type):
            sz = sz + [2]
    else:
        sz = cx.sizes(where, "size") + [2]
    rt = cx.result_type()
    if rt.rank != len(sz):
        raise NotLowerable(f"{len(sz)} sizes for a result of type {rt}")
    sz = [d if d != DYN else g for d, g in zip(rt.shape, sz)]
    if fill is None:
        return [finish(cx, empty(cx, sz, elt))]
    s = scalars(cx)
    if isinstance(fill, tuple):
        re, im = _scalar_pair(cx, fill[1], elt)
    else:
        re, im = s.const(float(fill), elt), None
    im = im if im is not None else s.zero(elt)
    n = len(sz)
    y = generic_op(cx, [], [empty(cx, sz, elt)], [map_text(n, list(range(n)))],
                   ["parallel"] * n,
                   lambda s, b, a: [s.select(s.cmp("eq", b.index(n - 1), s.index(0)),
                                             re, im)])[0]
    return [finish(cx, y)]


@complex_lowering("vtensor.literal")
def _literal(cx):
    """A complex literal's elements as their pairs (the same bytes)."""
    import numpy as np

    from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
    attr = cx.op.properties["value"]
    rt = cx.result_type()
    if isinstance(attr, DenseResourceElementsAttr):
        attr = DenseResourceElementsAttr(rt, attr.handle)
    elif isinstance(attr, DenseElementsAttr):
        arr = np.ascontiguousarray(attr.array)
        pairs = arr.view(arr.real.dtype).reshape(tuple(arr.shape) + (2,))
        attr = DenseElementsAttr(rt, pairs)
    else:
        raise NotLowerable(f"a literal of {attr}")
    return [scalars(cx).op1("arith.constant", [], rt, {"value": attr})]


# ------------------------------------------------------------------ reductions, products


def _reduced_dims(cx, r):
    """The dims a sum/mean reduces (argument 1: None or [] for all) and keepdim."""
    if cx.aten in ("aten.sum", "aten.mean"):
        return list(range(r)), False
    if len(cx.op.operands) < 2 or cx.is_none(1) or not cx.ints(1, "dim"):
        dims = list(range(r))
    else:
        dims = sorted({_axis(d, r) for d in cx.ints(1, "dim")})
    keep = cx.bool_(2, "keepdim") if len(cx.op.operands) > 2 else False
    return dims, keep


@complex_lowering("aten.sum", "aten.sum.dim_IntList", "aten.mean", "aten.mean.dim")
def _sum(cx):
    from .nn import _mean, _reduce
    x = cx.operands[0]
    r = _rank(cx.op.operands[0])
    dims, keep = _reduced_dims(cx, r)
    elt = _pair_elt(cx)
    if x.type.element_type is not elt:
        x = _cast_pairs(cx, x, elt)
    if cx.aten.startswith("aten.mean"):
        return [finish(cx, _mean(cx, x, dims, keep, elt))]
    return [finish(cx, _reduce(cx, x, dims, keep, elt, lambda s, e: s.zero(e),
                               lambda s, a, v: s.add(a, v)))]


def _cast_pairs(cx, x, elt):
    from ..onnx_to_linalg.common import elementwise
    return elementwise(cx, [x], elt, lambda s, v: s.cast(v, elt))


def _component(cx, x, c):
    """Component `c` (0 real, 1 imaginary) of pairs `x`, a real tensor."""
    r = x.type.rank - 1
    elt = x.type.element_type
    y = generic_op(cx, [x], [empty(cx, sizes(cx, x)[:-1], elt)],
                   [map_text(r, list(range(r)) + [str(c)]), map_text(r, list(range(r)))],
                   ["parallel"] * r, lambda s, b, a: [a[0]])[0]
    return y


def _pairs(cx, re, im):
    """Pairs of real tensors `re` and `im` (one shape)."""
    r = re.type.rank
    elt = re.type.element_type
    y = generic_op(cx, [re, im], [empty(cx, sizes(cx, re) + [2], elt)],
                   [map_text(r + 1, list(range(r)))] * 2 + [map_text(r + 1,
                                                                     list(range(r + 1)))],
                   ["parallel"] * (r + 1),
                   lambda s, b, a: [s.select(s.cmp("eq", b.index(r), s.index(0)),
                                             a[0], a[1])])[0]
    return y


@complex_lowering("aten.mm", "aten.bmm", "aten.matmul")
def _matmul(cx):
    """(ar + i ai)(br + i bi) = (ar br - ai bi) + i (ar bi + ai br): four real
    products (two for a real operand)."""
    elt = _pair_elt(cx)
    pairs = [is_complex(cx.op.operands[i].type) for i in (0, 1)]
    return [finish(cx, _complex_product(cx, cx.operands[0], cx.operands[1], pairs, elt))]


@complex_lowering("aten.addmm")
def _addmm(cx):
    """beta * bias + alpha * (a @ b), on complex values (real beta and alpha)."""
    from .nn import _number
    elt = _pair_elt(cx)
    prod = _complex_product(cx, cx.operands[1], cx.operands[2],
                            [is_complex(cx.op.operands[i].type) for i in (1, 2)], elt)
    beta, alpha = _number(cx, 3), _number(cx, 4)
    items = [(prod, True)]
    if beta != 0:
        items.append((cx.operands[0], is_complex(cx.op.operands[0].type)))
    s = scalars(cx)
    a_ = s.const(float(alpha if alpha is not None else 1), elt)
    b_ = s.const(float(beta if beta is not None else 1), elt)

    def fn(s, p, *bias):
        y = (s.mul(p[0], a_), s.mul(p[1], a_))
        if bias:
            y = cadd(s, y, (s.mul(bias[0][0], b_),
                            s.mul(_im(s, bias[0]), b_)))
        return y
    return [celementwise(cx, items, fn, elt)]


def _complex_product(cx, a, b, pairs, elt):
    """a @ b (matmul's broadcasting) of converted operands, complex where `pairs` says:
    the pairs of the product."""
    from ..onnx_to_linalg.contraction import matmul
    parts = []
    for v, pair in zip((a, b), pairs):
        if v.type.element_type is not elt:
            v = _cast_pairs(cx, v, elt)
        parts.append((_component(cx, v, 0), _component(cx, v, 1)) if pair else (v, None))
    (ar, ai), (br, bi) = parts
    re = matmul(cx, ar, br, elt)
    im = None
    if bi is not None:
        im = matmul(cx, ar, bi, elt)
        if ai is not None:
            re = _combine(cx, re, matmul(cx, ai, bi, elt), True)
    if ai is not None:
        t = matmul(cx, ai, br, elt)
        im = t if im is None else _combine(cx, im, t, False)
    return _pairs(cx, re, im)


def _combine(cx, a, b, sub):
    from ..onnx_to_linalg.common import elementwise
    return elementwise(cx, [a, b], a.type.element_type,
                       lambda s, x, y: s.sub(x, y) if sub else s.add(x, y))


# ------------------------------------------------------------------ FFTs


def _norm_scale(mode, n):
    """torch's normalization code (0: none, 1: 1/sqrt(n), 2: 1/n) as a factor."""
    if mode == 0:
        return None
    return 1.0 / math.sqrt(n) if mode == 1 else 1.0 / n


def _fft_dims(cx, r):
    dims = [_axis(d, r) for d in cx.ints(1, "dim")]
    if len(set(dims)) != len(dims):
        raise NotLowerable(f"repeated FFT dims {dims}")
    return dims


def _signal_sizes(x, dims):
    """The number of samples an FFT over `dims` of `x` transforms (the norm's n)."""
    n = 1
    for d in dims:
        sz = x.type.shape[d]
        if sz == DYN:
            raise NotLowerable("a normalized FFT over a dim of run-time size")
        n *= sz
    return n


@complex_lowering("aten._fft_c2c")
def _fft_c2c(cx):
    from ..onnx_to_linalg.signal import dft
    x = cx.operands[0]
    r = _rank(cx.op.operands[0])
    dims = _fft_dims(cx, r)
    mode = cx.int_(2, "normalization")
    forward = cx.bool_(3, "forward")
    scale = _norm_scale(mode, _signal_sizes(x, dims)) if mode else None
    elt = _pair_elt(cx)
    for k, d in enumerate(dims):
        x = dft(cx, x, d, inverse=not forward, elt=elt,
                scale=scale if k == len(dims) - 1 else None)
    return [finish(cx, x)]


@complex_lowering("aten._fft_r2c")
def _fft_r2c(cx):
    from ..onnx_to_linalg._shape_util import expand as expand_shape
    from ..onnx_to_linalg.signal import dft
    x = cx.operands[0]
    r = _rank(cx.op.operands[0])
    dims = _fft_dims(cx, r)
    mode = cx.int_(2, "normalization")
    onesided = cx.bool_(3, "onesided")
    scale = _norm_scale(mode, _signal_sizes(x, dims)) if mode else None
    elt = _pair_elt(cx)
    # the real signal as pairs of one component ([..., 1]: the DFT builder's real form)
    x = expand_shape(cx, x, [[k] for k in range(r - 1)] + [[r - 1, r]] if r else [[0]],
                     sizes(cx, x) + [1]) if r else x
    last = dims[-1]
    x = dft(cx, x, last, inverse=False, onesided=onesided, elt=elt,
            scale=scale if len(dims) == 1 else None)
    for k, d in enumerate(dims[:-1]):
        x = dft(cx, x, d, inverse=False, elt=elt,
                scale=scale if k == len(dims) - 2 else None)
    return [finish(cx, x)]


@complex_lowering("aten._fft_c2r")
def _fft_c2r(cx):
    from ..onnx_to_linalg._shape_util import collapse
    from ..onnx_to_linalg.signal import dft
    x = cx.operands[0]
    r = _rank(cx.op.operands[0])
    dims = _fft_dims(cx, r)
    mode = cx.int_(2, "normalization")
    n_last = cx.int_(3, "last_dim_size")
    if n_last < 1:
        raise NotLowerable(f"invalid last_dim_size {n_last}")
    scale = _norm_scale(mode, _signal_sizes(x, dims[:-1]) * n_last) if mode else None
    elt = _pair_elt(cx)
    for d in dims[:-1]:
        x = dft(cx, x, d, inverse=True, elt=elt)
    y = dft(cx, x, dims[-1], inverse=True, onesided=True, length=n_last, elt=elt,
            scale=scale)
    # [..., 1] -> the real result
    return [finish(cx, collapse(cx, y, [[k] for k in range(r - 1)] + [[r - 1, r]]))]
