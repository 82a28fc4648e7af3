"""ai.onnx.preview.training optimizers: Adagrad, Momentum, Adam — elementwise updates of
each (X, G, state...) group, with the scalar learning rate R and step count T read from
0-d tensors."""
from __future__ import annotations

from ..scalar_builders import element_type
from . import NotLowerable, lowering
from .common import elementwise


def _groups(cx, per):
    ops = list(cx.operands)
    n, rest = divmod(len(ops) - 2, per)
    if rest or n == 0:
        raise NotLowerable(f"expected R, T and {per} tensors per optimized input")
    return ops[0], ops[1], [[ops[2 + k * n + i] for k in range(per)] for i in range(n)], n


def _f(s, v, t):
    return s.const(v, t)


@lowering("Adagrad")
def _adagrad(cx):
    r, t, groups, n = _groups(cx, 3)
    decay, eps, norm = (cx.attr("decay_factor", 0.0), cx.attr("epsilon", 1e-6),
                        cx.attr("norm_coefficient", 0.0))
    xs, hs = [], []
    for x, g, h in groups:
        elt = element_type(x.type)

        def common(s, r_, t_, x_, g_, h_):
            rr = s.div(r_, s.add(s.one(elt), s.mul(s.cast(t_, elt), _f(s, decay, elt))))
            gr = s.add(s.mul(_f(s, norm, elt), x_), g_)
            hn = s.add(h_, s.mul(gr, gr))
            return rr, gr, hn
        xs.append(elementwise(cx, [r, t, x, g, h], elt, lambda s, *a: (lambda rr, gr, hn: s.sub(
            a[2], s.div(s.mul(rr, gr), s.add(s.math("sqrt", hn), _f(s, eps, elt)))))(
                *common(s, *a))))
        hs.append(elementwise(cx, [r, t, x, g, h], elt,
                              lambda s, *a: common(s, *a)[2]))
    return xs + hs


@lowering("Momentum")
def _momentum(cx):
    r, t, groups, n = _groups(cx, 3)
    alpha, beta = cx.attr("alpha", 0.0), cx.attr("beta", 0.0)
    norm, nesterov = cx.attr("norm_coefficient", 0.0), cx.attr("mode", "standard") == "nesterov"
    xs, vs = [], []
    for x, g, v in groups:
        elt = element_type(x.type)

        def vnew(s, r_, t_, x_, g_, v_):
            gr = s.add(s.mul(_f(s, norm, elt), x_), g_)
            b = s.select(s.cmp("gt", t_, s.zero(t_.type)), _f(s, beta, elt), s.one(elt))
            return gr, s.add(s.mul(_f(s, alpha, elt), v_), s.mul(b, gr))

        def xnew(s, r_, t_, x_, g_, v_):
            gr, vn = vnew(s, r_, t_, x_, g_, v_)
            step = s.add(gr, s.mul(_f(s, alpha, elt), vn)) if nesterov else vn
            return s.sub(x_, s.mul(r_, step))
        xs.append(elementwise(cx, [r, t, x, g, v], elt, xnew))
        vs.append(elementwise(cx, [r, t, x, g, v], elt, lambda s, *a: vnew(s, *a)[1]))
    return xs + vs


@lowering("Adam")
def _adam(cx):
    from ...ir import attributes as A
    r, t, groups, n = _groups(cx, 4)
    alpha, beta = cx.attr("alpha", 0.9), cx.attr("beta", 0.999)
    eps, norm = cx.attr("epsilon", 1e-6), cx.attr("norm_coefficient", 0.0)
    post = cx.attr("norm_coefficient_post", 0.0)
    xs, vs, hs = [], [], []
    for x, g, v, h in groups:
        elt = element_type(x.type)

        def state(s, r_, t_, x_, g_, v_, h_):
            gr = s.add(s.mul(_f(s, norm, elt), x_), g_)
            vn = s.add(s.mul(_f(s, alpha, elt), v_), s.mul(_f(s, 1 - alpha, elt), gr))
            hn = s.add(s.mul(_f(s, beta, elt), h_), s.mul(_f(s, 1 - beta, elt), s.mul(gr, gr)))
            return vn, hn

        def xnew(s, r_, t_, x_, g_, v_, h_):
            vn, hn = state(s, r_, t_, x_, g_, v_, h_)
            hs_ = s.add(s.math("sqrt", hn), _f(s, eps, elt))
            # the bias correction in double, as the reference computes it
            tf = s.cast(t_, A.f64)
            r64 = s.cast(r_, A.f64)
            corr = s.div(s.mul(r64, s.math("sqrt", s.sub(s.one(A.f64),
                                                         s.math("powf", _f(s, beta, A.f64), tf)))),
                         s.sub(s.one(A.f64), s.math("powf", _f(s, alpha, A.f64), tf)))
            radj = s.select(s.cmp("gt", t_, s.zero(t_.type)), corr, r64)
            xn = s.sub(s.cast(x_, A.f64), s.mul(radj, s.cast(s.div(vn, hs_), A.f64)))
            return s.cast(s.mul(_f(s, 1 - post, A.f64), xn), elt)
        xs.append(elementwise(cx, [r, t, x, g, v, h], elt, xnew))
        vs.append(elementwise(cx, [r, t, x, g, v, h], elt, lambda s, *a: state(s, *a)[0]))
        hs.append(elementwise(cx, [r, t, x, g, v, h], elt, lambda s, *a: state(s, *a)[1]))
    return xs + vs + hs
