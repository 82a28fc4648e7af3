"""Recurrent layers: RNN, GRU and LSTM as one `scf.for` over the sequence.

Before the loop, the input projection of every time step is one `linalg.matmul` per
direction: XW[t, b] = X[t, b] @ W^T + Wb (the sequence and batch dims collapsed). The
loop carries the hidden state (and the LSTM cell state) of every direction and the
output sequence Y; a step of direction d reads XW at its time (t, or seq - 1 - t for the
reverse direction), multiplies the state by R^T (`linalg.matmul`) and computes the gates
elementwise, per gate on (batch, hidden) slices (gate orders: GRU z r h, LSTM i o f c).

Spec semantics beyond ONNX's reference: activations (with their alpha/beta, taken in
order by the functions that use them, as onnxruntime does), clip on the inputs of the
gate activations, LSTM input_forget (f = 1 - i), and sequence_lens: a batch entry past
its length keeps its state and outputs zeros; a reverse direction then starts at the
entry's last step (its input is reversed per entry before the loop, its outputs after).
layout 1 (batch first) transposes the inputs and outputs around all this.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type, is_float
from . import Lowering, NotLowerable, lowering
from ._linalg_util import dim_size, filled, generic_maps, map_text, transpose
from ._shape_util import Ix, collapse, expand, extract_slice, insert_slice, loop_nest
from .common import DYN, elementwise, empty, ranked, same_dims, scalars
from .contraction import contract

_DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
# activation -> (default alpha, default beta); None: takes no such parameter
_PARAMS = {"Relu": (None, None), "Tanh": (None, None), "Sigmoid": (None, None),
           "Affine": (1.0, 0.0), "LeakyRelu": (0.01, None), "ThresholdedRelu": (1.0, None),
           "ScaledTanh": (1.0, 1.0), "HardSigmoid": (0.2, 0.5), "Elu": (1.0, None),
           "Softsign": (None, None), "Softplus": (None, None)}


# ------------------------------------------------------------------ activations


def _activations(cx, kind, dirs):
    """Per direction, the list of (name, alpha, beta) of the op's activation functions."""
    names = [str(n) for n in (cx.attr("activations", None) or [])]
    k = len(_DEFAULTS[kind])
    if not names:
        names = _DEFAULTS[kind] * dirs
    elif len(names) == k and dirs == 2:
        names = names * 2
    if len(names) != k * dirs:
        raise NotLowerable(f"{kind} needs {k * dirs} activations, got {len(names)}")
    alphas = list(cx.attr("activation_alpha", None) or [])
    betas = list(cx.attr("activation_beta", None) or [])
    out = []
    for name in names:
        canon = next((n for n in _PARAMS if n.lower() == name.lower()), None)
        if canon is None:
            raise NotLowerable(f"unknown activation '{name}'")
        da, db = _PARAMS[canon]
        a = (alphas.pop(0) if alphas else da) if da is not None else None
        b = (betas.pop(0) if betas else db) if db is not None else None
        out.append((canon, a, b))
    return [out[d * k:(d + 1) * k] for d in range(dirs)]


def _apply(s, act, x):
    name, a, b = act
    t = x.type

    def c(v):
        return s.const(v, t)
    if name == "Tanh":
        return s.math("tanh", x)
    if name == "Sigmoid":
        return s.div(c(1.0), s.add(c(1.0), s.math("exp", s.neg(x))))
    if name == "Relu":
        return s.max(x, c(0.0))
    if name == "Affine":
        return s.add(s.mul(c(a), x), c(b))
    if name == "LeakyRelu":
        return s.select(s.cmp("ge", x, c(0.0)), x, s.mul(c(a), x))
    if name == "ThresholdedRelu":
        return s.select(s.cmp("gt", x, c(a)), x, c(0.0))
    if name == "ScaledTanh":
        return s.mul(c(a), s.math("tanh", s.mul(c(b), x)))
    if name == "HardSigmoid":
        return s.min(s.max(s.add(s.mul(c(a), x), c(b)), c(0.0)), c(1.0))
    if name == "Elu":
        return s.select(s.cmp("ge", x, c(0.0)), x, s.mul(c(a), s.sub(s.math("exp", x),
                                                                     c(1.0))))
    if name == "Softsign":
        return s.div(x, s.add(c(1.0), s.math("absf", x)))
    return s.math("log", s.add(c(1.0), s.math("exp", x)))  # Softplus


# ------------------------------------------------------------------ the layer


class _Layer:
    """What a step of the loop needs of the op (shared by RNN, GRU and LSTM)."""

    __slots__ = ("kind", "hidden", "dirs", "acts", "clip", "seq", "batch", "elt", "lens",
                 "lbr", "input_forget")


def _slice_dir(cx, v, d, sizes):
    """v[d] (d mixed) of a (n, ...) tensor with mixed trailing `sizes`, the leading dim
    dropped."""
    t = A.RankedTensorType([x if isinstance(x, int) else DYN for x in sizes],
                           v.type.element_type)
    return extract_slice(cx, v, [d] + [0] * len(sizes), [1] + list(sizes), result_type=t)


def _gate(cx, v, g, hidden):
    """Columns [g * hidden, (g + 1) * hidden) of a (batch, gates * hidden) tensor."""
    return extract_slice(cx, v, [0, g * hidden], [dim_size(cx, v, 0), hidden])


def _vec(cx, v, g, hidden):
    return extract_slice(cx, v, [g * hidden], [hidden])


def _reverse_by_lengths(cx, v, lens):
    """v (seq, batch, k) with every batch entry's first lens[b] steps reversed (a
    length out of [0, seq], a run-time error, clamped into it: the read stays in
    bounds)."""
    from ...dialects.linalg import make_generic
    dims = [dim_size(cx, v, i) for i in range(3)]
    init = empty(cx, dims, element_type(v.type))

    def body(b, args):
        s = ScalarBuilder(b, cx.loc)
        t, bi, k = b.index(0), b.index(1), b.index(2)
        n = s.op1("arith.minui", [s.cast(args[0], A.index), Ix(s).v(dims[0])], A.index)
        src = s.select(s.cmp("lt", t, n), s.sub(s.sub(n, s.index(1)), t), t)
        return s.op1("tensor.extract", [v, src, bi, k], element_type(v.type))
    return make_generic(cx.b, [lens], [init],
                        generic_maps([map_text(3, [1]), map_text(3, [0, 1, 2])]),
                        ["parallel"] * 3, body, [init.type], loc=cx.loc).results[0]


def _input_projection(cx, x, w, wb, lay):
    """XW (seq, batch, gates * hidden) = X @ W^T + Wb for one direction."""
    from ...dialects import linalg as L
    gh = w.type.shape[0]
    x2 = collapse(cx, x, [[0, 1], [2]])
    x2, w = same_dims(cx, [x2, w], [(0, 1), (1, 1)], "the input sizes", ["X", "W"])
    init = filled(cx, [dim_size(cx, x2, 0), gh], lay.elt)
    xw = contract(cx, L.MatmulOp, [x2, w], init,
                  [map_text(3, [0, 2]), map_text(3, [1, 2]), map_text(3, [0, 1])])
    if wb is not None:
        xw = elementwise(cx, [xw, wb], lay.elt, lambda s, a, b: s.add(a, b))
    return expand(cx, xw, [[0, 1], [2]], [lay.seq, lay.batch, gh])


def _recurrence(cx, h, r):
    """h (batch, hidden) @ r^T (r: (gates * hidden, hidden))."""
    from ...dialects import linalg as L
    init = filled(cx, [dim_size(cx, h, 0), r.type.shape[0]], element_type(h.type))
    return contract(cx, L.MatmulOp, [h, r], init,
                    [map_text(3, [0, 2]), map_text(3, [1, 2]), map_text(3, [0, 1])])


def _pre(s, lay, *terms):
    """Sum of the terms, clipped when the op has `clip`."""
    v = terms[0]
    for t in terms[1:]:
        v = s.add(v, t)
    if lay.clip is not None:
        c = s.const(lay.clip, v.type)
        v = s.min(s.max(v, s.neg(c)), c)
    return v


def _step(cx, lay, d, xw_t, h, c, r, rb, p):
    """(new h, new c) of direction `d` for one step (all (batch, hidden))."""
    hs, acts, elt = lay.hidden, lay.acts[d], lay.elt
    kind = lay.kind

    def ew(vals, fn):
        return elementwise(cx, vals, elt, fn)
    xg = [_gate(cx, xw_t, g, hs) for g in range(_GATES[kind])]
    rbg = [_vec(cx, rb, g, hs) for g in range(_GATES[kind])] if rb is not None else None

    def with_rb(vals, g):
        return vals + ([rbg[g]] if rbg is not None else [])
    if kind == "RNN":
        hr = _recurrence(cx, h, r)
        return ew(with_rb([xg[0], hr], 0), lambda s, *v: _apply(s, acts[0], _pre(s, lay, *v))), None
    if kind == "GRU":
        rzr = extract_slice(cx, r, [0, 0], [2 * hs, hs])
        hr = _recurrence(cx, h, rzr)
        z = ew(with_rb([xg[0], _gate(cx, hr, 0, hs)], 0),
               lambda s, *v: _apply(s, acts[0], _pre(s, lay, *v)))
        rr = ew(with_rb([xg[1], _gate(cx, hr, 1, hs)], 1),
                lambda s, *v: _apply(s, acts[0], _pre(s, lay, *v)))
        rh = extract_slice(cx, r, [2 * hs, 0], [hs, hs])
        if lay.lbr:
            hh = _recurrence(cx, h, rh)
            vals = [xg[2], rr, hh] + ([rbg[2]] if rbg is not None else [])

            def cand(s, x, gr, hv, *b):
                inner = s.add(hv, b[0]) if b else hv
                return _apply(s, acts[1], _pre(s, lay, x, s.mul(gr, inner)))
            hc = ew(vals, cand)
        else:
            rh_h = _recurrence(cx, ew([rr, h], lambda s, a, b: s.mul(a, b)), rh)
            hc = ew(with_rb([xg[2], rh_h], 2), lambda s, *v: _apply(s, acts[1], _pre(s, lay, *v)))
        def mix(s, zv, hv, hp):
            return s.add(s.mul(s.sub(s.const(1.0, zv.type), zv), hv), s.mul(zv, hp))
        return ew([z, hc, h], mix), None
    # LSTM: gates i o f c, peepholes i o f
    hr = _recurrence(cx, h, r)
    hg = [_gate(cx, hr, g, hs) for g in range(4)]
    pv = [_vec(cx, p, g, hs) for g in range(3)] if p is not None else None

    def gate(vals, g, act, state=None):
        """act(sum of vals (+ Rb) (+ peephole * state))."""
        vals = with_rb(vals, g)
        peeped = pv is not None and state is not None
        if peeped:
            vals = vals + [pv[g], state]

        def fn(s, *v):
            terms = list(v[:-2]) + [s.mul(v[-2], v[-1])] if peeped else list(v)
            return _apply(s, act, _pre(s, lay, *terms))
        return ew(vals, fn)
    i = gate([xg[0], hg[0]], 0, acts[0], c)
    if lay.input_forget:
        f = ew([i], lambda s, v: s.sub(s.const(1.0, v.type), v))
    else:
        f = gate([xg[2], hg[2]], 2, acts[0], c)
    g = gate([xg[3], hg[3]], 3, acts[1])
    c_new = ew([f, c, i, g], lambda s, fv, cv, iv, gv: s.add(s.mul(fv, cv), s.mul(iv, gv)))
    o = gate([xg[1], hg[1]], 1, acts[0], c_new)
    h_new = ew([o, c_new], lambda s, ov, cv: s.mul(ov, _apply(s, acts[2], cv)))
    return h_new, c_new


def _masked(cx, lay, t, new, old, zero_else=False):
    """Per batch entry: `new` while t < its sequence length, else `old` (or zeros)."""
    if lay.lens is None:
        return new
    le = element_type(lay.lens.type)
    tl = scalars(cx).cast(t, le)

    def body(s, n, lv, *o):
        keep = s.cmp("lt", tl, lv)
        return s.select(keep, n, o[0] if o else s.zero(n.type))
    vals = [new, lay.lens] + ([] if zero_else else [old])
    return elementwise(cx, vals, lay.elt, body, result_shape=new.type.shape)


def _check_shape(cx, i, shape, what):
    """Optional operand `i` (when given) must have static `shape` where it is known."""
    if i < 0 or not cx.has_operand(i):
        return
    t = ranked(cx, cx.operands[i].type, what)
    if t.rank != len(shape) or any(DYN not in (d, e) and d != e
                                   for d, e in zip(t.shape, shape)):
        raise NotLowerable(f"{what} of type {t} does not have the shape {shape}")


def _recurrent(cx, kind):
    x, w, r = cx.operands[0], cx.operands[1], cx.operands[2]
    for v in (x, w, r):
        ranked(cx, v.type)
    elt = element_type(x.type)
    if not is_float(elt) or x.type.rank != 3 or w.type.rank != 3 or r.type.rank != 3:
        raise NotLowerable(f"{kind} needs float X, W and R of rank 3")
    direction = cx.attr("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise NotLowerable(f"unknown direction '{direction}'")
    dirs = 2 if direction == "bidirectional" else 1
    hs = r.type.shape[-1]
    gh = _GATES[kind] * hs
    if hs == DYN or w.type.shape[1] != gh or r.type.shape[1] != gh or w.type.shape[0] != dirs:
        raise NotLowerable(f"{kind} weights of shapes {w.type} and {r.type} do not match "
                           f"{dirs} direction(s) of a static hidden size")
    if cx.attr("hidden_size", hs) != hs:
        raise NotLowerable(f"hidden_size {cx.attr('hidden_size')} does not match R ({hs})")
    _check_shape(cx, 3, [dirs, 2 * gh], "B")
    _check_shape(cx, 7 if kind == "LSTM" else -1, [dirs, 3 * hs], "P")
    layout = int(cx.attr("layout", 0))
    lay = _Layer()
    lay.kind, lay.hidden, lay.dirs, lay.elt = kind, hs, dirs, elt
    lay.acts = _activations(cx, kind, dirs)
    lay.clip = cx.attr("clip", None)
    lay.lbr = int(cx.attr("linear_before_reset", 0))
    lay.input_forget = int(cx.attr("input_forget", 0))
    if layout:
        x = transpose(cx, x, [1, 0, 2])
    lay.seq, lay.batch = dim_size(cx, x, 0), dim_size(cx, x, 1)
    lay.lens = None
    if cx.has_operand(4):
        lay.lens = expand(cx, cx.operands[4], [[0, 1]], [lay.batch, 1])
        # see [Note: index checks]; the reversed reads clamp the length
        from ._index_check import assert_ok, index_ranges
        ok = index_ranges(cx, 4, [(0, Ix(scalars(cx)).add(lay.seq, 1))])[0]
        assert_ok(cx, ok, "sequence length out of range [0, " + (
            f"{lay.seq}]" if Ix.known(lay.seq) else "T] (T the run-time sequence length)"))

    def state(i):
        if not cx.has_operand(i):
            return [filled(cx, [lay.batch, hs], elt) for _ in range(dirs)]
        v = cx.operands[i]
        _check_shape(cx, i, [DYN, DYN, hs], "an initial state")
        if layout:
            v = transpose(cx, v, [1, 0, 2])
        return [_slice_dir(cx, v, d, [lay.batch, hs]) for d in range(dirs)]
    hs0 = state(5)
    cs0 = state(6) if kind == "LSTM" else []
    per = []
    for d in range(dirs):
        wd = _slice_dir(cx, w, d, [gh, w.type.shape[2]])
        rd = _slice_dir(cx, r, d, [gh, hs])
        wb = rb = p = None
        if cx.has_operand(3):
            bd = _slice_dir(cx, cx.operands[3], d, [2 * gh])
            wb, rb = extract_slice(cx, bd, [0], [gh]), extract_slice(cx, bd, [gh], [gh])
        if kind == "LSTM" and cx.has_operand(7):
            p = _slice_dir(cx, cx.operands[7], d, [3 * hs])
        xw = _input_projection(cx, x, wd, wb, lay)
        reverse = d == 1 or direction == "reverse"
        if reverse and lay.lens is not None:
            xw = _reverse_by_lengths(cx, xw, cx.operands[4])
        per.append((xw, rd, rb, p, reverse))
    want_y = type(cx.op.results[0].type) is not A.NoneType
    y0 = [filled(cx, [lay.seq, dirs, lay.batch, hs], elt)] if want_y else []

    def body(s, ivs, accs):
        inner = Lowering(cx.op, cx.operands, s.b, cx.tc)
        t = ivs[0]
        ix = Ix(s)
        hs_, cs_ = accs[:dirs], accs[dirs:dirs + len(cs0)]
        y = accs[-1] if want_y else None
        new_h, new_c = [], []
        for d, (xw, rd, rb, p, reverse) in enumerate(per):
            tt = ix.sub(ix.sub(lay.seq, 1), t) if reverse and lay.lens is None else t
            xw_t = _slice_dir(inner, xw, tt, [lay.batch, gh])
            h, c = _step(inner, lay, d, xw_t, hs_[d], cs_[d] if cs_ else None, rd, rb, p)
            new_h.append(_masked(inner, lay, t, h, hs_[d]))
            if c is not None:
                new_c.append(_masked(inner, lay, t, c, cs_[d]))
            if want_y:
                yt = _masked(inner, lay, t, h, None, zero_else=True)
                yt = expand(inner, yt, [[0, 1, 2], [3]], [1, 1, lay.batch, hs])
                y = insert_slice(inner, yt, y, [tt, d, 0, 0])
        return new_h + new_c + ([y] if want_y else [])
    outs = loop_nest(cx, [lay.seq], hs0 + cs0 + y0, body)
    hs_f, cs_f = outs[:dirs], outs[dirs:dirs + len(cs0)]
    results = []
    if want_y:
        y = outs[-1]
        if lay.lens is not None:
            for d, item in enumerate(per):
                if item[4]:
                    yd = extract_slice(cx, y, [0, d, 0, 0], [lay.seq, 1, lay.batch, hs])
                    yd3 = collapse(cx, yd, [[0, 1], [2], [3]])
                    yd3 = _reverse_by_lengths(cx, yd3, cx.operands[4])
                    y = insert_slice(cx, expand(cx, yd3, [[0, 1], [2], [3]],
                                                [lay.seq, 1, lay.batch, hs]), y, [0, d, 0, 0])
        results.append(transpose(cx, y, [2, 0, 1, 3]) if layout else y)
    else:
        results.append(None)

    def stack(vals):
        parts = [expand(cx, v, [[0, 1], [2]], [1, lay.batch, hs]) for v in vals]
        out = parts[0]
        if dirs == 2:
            out = filled(cx, [dirs, lay.batch, hs], elt)
            for d, v in enumerate(parts):
                out = insert_slice(cx, v, out, [d, 0, 0])
        return transpose(cx, out, [1, 0, 2]) if layout else out
    for i, vals in ((1, hs_f), (2, cs_f)):
        if i >= len(cx.op.results):
            continue
        if type(cx.op.results[i].type) is A.NoneType:
            results.append(None)
        else:
            results.append(stack(vals))
    return results


@lowering("RNN")
def _rnn(cx):
    return _recurrent(cx, "RNN")


@lowering("GRU")
def _gru(cx):
    return _recurrent(cx, "GRU")


@lowering("LSTM")
def _lstm(cx):
    return _recurrent(cx, "LSTM")
