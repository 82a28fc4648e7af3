"""linalg's OpDSL named ops: `linalg.fill`, `linalg.copy`, the contractions (matvec,
vecmat, dot, mmt4d, ...), the convolutions and the poolings.

Each op is one line of `_SPECS`: its loops and indexing maps (dims named, `[...]` the
window strides then dilations of the convolutions, which `strides`/`dilations` attributes
fill in), iterator kinds (`p`arallel / `r`eduction) and payload. The payloads are the
expressions of upstream's OpDSL definitions (mlir/python/.../core_named_ops.py), built in
the same order; `C` is the output (accumulator) element type.
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir.affine import AffineConstantExpr, parse_affine_map_body
from ...ir.dense import DenseElementsAttr
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.ods import OptProp
from .attrs import TypeFnAttr
from .named_base import (NamedStructuredOp, cast_fn, convolution_error,
                         fill_interface_error)
from .structured import block_arg_type, operand_rank

__all__ = ["FillOp", "CopyOp", "NAMED_OPS", "named_op_class"]


# ====================================================================== payloads


def _mac(b, args, props):
    """C += cast(A) * cast(B)"""
    a, k, o = args
    t = o.type
    return b.binary("add", o, b.binary("mul", b.cast(t, a), b.cast(t, k)))


def _mac_q(b, args, props):
    """C += (cast(A) - cast(AZp)) * (cast(B) - cast(BZp))"""
    a, k, azp, kzp, o = args
    t = o.type
    return b.binary("add", o, b.binary(
        "mul", b.binary("sub", b.cast(t, a), b.cast(t, azp)),
        b.binary("sub", b.cast(t, k), b.cast(t, kzp))))


def _pool(fn, unsigned=False):
    def payload(b, args, props):
        i, _, o = args
        return b.binary(fn, o, b.cast(o.type, i, unsigned))
    payload.__doc__ = f"C = {fn}(C, cast(I))"
    return payload


def _fill(b, args, props):
    return args[0]


def _copy(b, args, props):
    i, o = args
    return b.type_fn(cast_fn(props), o.type, i)


def _fill_rng_2d(b, args, props):
    """O = cast(T, (2147483647 + rand(i, j, seed)) * (max - min) * 2^-32 + min)"""
    mn, mx, seed, o = args
    f64, i32 = A.f64, A.i32

    def const(v):
        return b.constant(A.IntegerAttr(v, A.i64))

    def lcg(x):  # x * 1103515245 + 12345 in i32
        return b.binary("add", b.binary("mul", x, b.cast(i32, const(1103515245))),
                        b.cast(i32, const(12345)))
    big = b.cast(f64, const(2147483647))
    j = b.cast(i32, b.index(1))
    inner = lcg(b.binary("add", b.cast(i32, b.index(0)), seed))
    rand = b.cast(f64, lcg(b.binary("add", j, inner)))
    scaled = b.binary("mul", b.binary("add", big, rand), b.binary(
        "mul", b.binary("sub", mx, mn), b.cast(f64, b.constant(
            A.FloatAttr(2.3283063999999999E-10, f64)))))
    return b.cast(o.type, b.binary("add", scaled, mn))


# ====================================================================== op classes


def _i64_elements(n):
    def check(a):
        return (type(a) is DenseElementsAttr and isinstance(a.type, (A.RankedTensorType,
                                                                      A.VectorType))
                and a.type.element_type is A.i64 and tuple(a.type.shape) == (n,))
    return C.Constraint(check, f"64-bit signless int elements attribute of shape [{n}]")


class _OpDSLOp(NamedStructuredOp):
    """An OpDSL op with fixed indexing maps (see `_SPECS`)."""

    # Whether the op implements ConvolutionOpInterface (checks its maps).
    _convolution = False

    def verify_(self):
        if self._convolution:
            err = convolution_error(self)
            if err:
                raise DiagnosticError(Diagnostic(ERROR, self.loc, err))
        return None

    _memoize = True
    _maps_text: tuple = ()
    _window = 0
    _iterators = ""
    _payload = None
    _cache = None

    @classmethod
    def payload(cls, b, args, props):
        return cls._payload(b, args, props)

    def iterator_types_list(self):
        return ["parallel" if c == "p" else "reduction" for c in self._iterators]

    def _window_values(self, name):
        a = self._props.get(name)
        if a is None:
            return [1] * self._window
        return [int(v) for v in np.asarray(a.array).reshape(-1)]

    def compute_indexing_maps(self):
        cls = type(self)
        if cls._cache is None:
            cls._cache = [parse_affine_map_body(t) for t in cls._maps_text]
        maps = cls._cache
        if not self._window:
            return list(maps)
        syms = [AffineConstantExpr(v) for v in
                self._window_values("strides") + self._window_values("dilations")]
        return [m.replace_dims_and_symbols((), syms, m.num_dims, 0) for m in maps]


def _make(name, dims, results, iterators, payload, contraction=False):
    """The op class `linalg.<name>`: `dims` like "(m, n, k)" (with "[s..., d...]" for a
    convolution window), `results` one "(...)" per operand."""
    window = dims.count("[") and (dims.count(",", dims.index("[")) + 1) // 2
    attrs = {
        "name": f"linalg.{name}", "__module__": __name__,
        "__doc__": f"`linalg.{name}`: {payload.__doc__ or ''}".strip(),
        "_maps_text": tuple(f"{dims} -> {r}" for r in results),
        "_iterators": iterators, "_window": window,
        "_payload": staticmethod(payload), "num_region_args": len(results),
        "_contraction": contraction,
        "_convolution": name.startswith(("conv", "depthwise", "pooling")),
    }
    if window:
        attrs["strides"] = OptProp(_i64_elements(window))
        attrs["dilations"] = OptProp(_i64_elements(window))
    cls_name = "".join(p.capitalize() for p in name.split("_")) + "Op"
    return type(cls_name, (_OpDSLOp,), attrs)


class _RankPolymorphic(NamedStructuredOp):
    """fill and copy: identity maps over the output's rank (scalars broadcast)."""

    num_region_args = 2

    def iterator_types_list(self):
        return ["parallel"] * self.init_rank()

    def compute_indexing_maps(self):
        from ...ir.affine import AffineMap
        n = self.init_rank()
        ident = AffineMap.identity(n)
        scalar = AffineMap(n, 0, ())
        out = []
        for t in self.operand_types:
            out.append(ident if operand_rank(t) else scalar)
        return out


class FillOp(_RankPolymorphic):
    """`%r = linalg.fill ins(%v : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>`"""

    name = "linalg.fill"

    @classmethod
    def payload(cls, b, args, props):
        return _fill(b, args, props)

    def verify_(self):
        err = fill_interface_error(self)
        if err:
            raise DiagnosticError(Diagnostic(ERROR, self.loc, err))
        vt = self.operand(0).type
        # getElementTypeOrSelf of the output: a tensor of vectors is filled by a vector
        et = block_arg_type(self.operand(1).type) if len(self._operands) > 1 else vt
        if vt is not et:
            return (f"expected fill value type ('{vt}') to match output element type "
                    f"('{et}')")
        return None


class CopyOp(_RankPolymorphic):
    """`%r = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) ->
    tensor<4xf32>` (casting to the output element type per `cast`)."""

    name = "linalg.copy"
    cast = OptProp(TypeFnAttr)

    @classmethod
    def payload(cls, b, args, props):
        return _copy(b, args, props)


# ====================================================================== the table

_NHWC2 = "(n, oh, ow, f, kh, kw, c)[sh, sw, dh, dw]"
_NCHW2 = "(n, f, oh, ow, c, kh, kw)[sh, sw, dh, dw]"
_I_NHWC = "(n, oh * sh + kh * dh, ow * sw + kw * dw, c)"
_I_NCHW = "(n, c, oh * sh + kh * dh, ow * sw + kw * dw)"
_NGCHW = "(n, g, f, oh, ow, c, kh, kw)[sh, sw, dh, dw]"
_I_NGCHW = "(n, g, c, oh * sh + kh * dh, ow * sw + kw * dw)"
_NHWGC = "(n, oh, ow, g, f, kh, kw, c)[sh, sw, dh, dw]"
_I_NHWGC = "(n, oh * sh + kh * dh, ow * sw + kw * dw, g, c)"
_NDHWC3 = "(n, od, oh, ow, f, kd, kh, kw, c)[sd, sh, sw, dd, dh, dw]"
_I_NDHWC = "(n, od * sd + kd * dd, oh * sh + kh * dh, ow * sw + kw * dw, c)"
_DW2 = "(n, oh, ow, c, kh, kw)[sh, sw, dh, dw]"
_DW2M = "(n, oh, ow, c, m, kh, kw)[sh, sw, dh, dw]"
_DW3 = "(n, od, oh, ow, kd, kh, kw, c)[sd, sh, sw, dd, dh, dw]"
_DW3M = "(n, od, oh, ow, m, kd, kh, kw, c)[sd, sh, sw, dd, dh, dw]"
_POOL_NHWC = ("(n, oh, ow, c, kh, kw)[sh, sw, dh, dw]", [_I_NHWC, "(kh, kw)", "(n, oh, ow, c)"],
              "pppprr")
_POOL_NCHW = ("(n, c, oh, ow, kh, kw)[sh, sw, dh, dw]",
              ["(n, c, oh * sh + kh * dh, ow * sw + kw * dw)", "(kh, kw)", "(n, c, oh, ow)"],
              "pppprr")
_POOL_NWC = ("(n, ow, c, kw)[sw, dw]", ["(n, ow * sw + kw * dw, c)", "(kw)", "(n, ow, c)"],
             "pppr")
_POOL_NCW = ("(n, c, ow, kw)[sw, dw]", ["(n, c, ow * sw + kw * dw)", "(kw)", "(n, c, ow)"],
             "pppr")
_POOL_NDHWC = ("(n, od, oh, ow, c, kd, kh, kw)[sd, sh, sw, dd, dh, dw]",
               [_I_NDHWC, "(kd, kh, kw)", "(n, od, oh, ow, c)"], "ppppprrr")
_Q = ["()", "()"]  # the zero points of quantized ops

# name, dims, operand maps, iterators, payload, contraction
_SPECS = [
    ("quantized_matmul", "(m, n, k)", ["(m, k)", "(k, n)", *_Q, "(m, n)"], "ppr", _mac_q,
     False),
    ("mmt4d", "(m, n, k, m0, n0, k0)", ["(m, k, m0, k0)", "(n, k, n0, k0)", "(m, n, m0, n0)"],
     "pprppr", _mac, True),
    ("batch_mmt4d", "(b, m, n, k, m0, n0, k0)", ["(b, m, k, m0, k0)", "(b, n, k, n0, k0)",
                                                 "(b, m, n, m0, n0)"], "ppprppr", _mac, True),
    ("quantized_batch_matmul", "(b, m, n, k)", ["(b, m, k)", "(b, k, n)", *_Q, "(b, m, n)"],
     "pppr", _mac_q, False),
    ("matvec", "(m, n)", ["(m, n)", "(n)", "(m)"], "pr", _mac, True),
    ("vecmat", "(n, m)", ["(m)", "(m, n)", "(n)"], "pr", _mac, True),
    ("batch_matvec", "(b, m, k)", ["(b, m, k)", "(b, k)", "(b, m)"], "ppr", _mac, True),
    ("batch_vecmat", "(b, n, k)", ["(b, k)", "(b, k, n)", "(b, n)"], "ppr", _mac, True),
    ("dot", "(m)", ["(m)", "(m)", "()"], "r", _mac, True),
    ("conv_1d", "(ow, kw)", ["(ow + kw)", "(kw)", "(ow)"], "pr", _mac, False),
    ("conv_2d", "(oh, ow, kh, kw)", ["(oh + kh, ow + kw)", "(kh, kw)", "(oh, ow)"], "pprr",
     _mac, False),
    ("conv_3d", "(od, oh, ow, kd, kh, kw)", ["(od + kd, oh + kh, ow + kw)", "(kd, kh, kw)",
                                             "(od, oh, ow)"], "ppprrr", _mac, False),
    ("conv_1d_nwc_wcf", "(n, ow, f, kw, c)[sw, dw]",
     ["(n, ow * sw + kw * dw, c)", "(kw, c, f)", "(n, ow, f)"], "ppprr", _mac, False),
    ("conv_1d_ncw_fcw", "(n, f, ow, c, kw)[sw, dw]",
     ["(n, c, ow * sw + kw * dw)", "(f, c, kw)", "(n, f, ow)"], "ppprr", _mac, False),
    ("conv_2d_nhwc_hwcf", _NHWC2, [_I_NHWC, "(kh, kw, c, f)", "(n, oh, ow, f)"], "pppprrr",
     _mac, False),
    ("conv_2d_nhwc_fhwc", _NHWC2, [_I_NHWC, "(f, kh, kw, c)", "(n, oh, ow, f)"], "pppprrr",
     _mac, False),
    ("conv_2d_nhwc_hwcf_q", _NHWC2, [_I_NHWC, "(kh, kw, c, f)", *_Q, "(n, oh, ow, f)"],
     "pppprrr", _mac_q, False),
    ("conv_2d_nhwc_fhwc_q", _NHWC2, [_I_NHWC, "(f, kh, kw, c)", *_Q, "(n, oh, ow, f)"],
     "pppprrr", _mac_q, False),
    ("conv_2d_nchw_fchw_q", _NCHW2, [_I_NCHW, "(f, c, kh, kw)", *_Q, "(n, f, oh, ow)"],
     "pppprrr", _mac_q, False),
    ("conv_2d_nchw_fchw", _NCHW2, [_I_NCHW, "(f, c, kh, kw)", "(n, f, oh, ow)"], "pppprrr",
     _mac, False),
    ("conv_2d_ngchw_fgchw", _NGCHW, [_I_NGCHW, "(f, g, c, kh, kw)", "(n, g, f, oh, ow)"],
     "ppppprrr", _mac, False),
    ("conv_2d_ngchw_gfchw", _NGCHW, [_I_NGCHW, "(g, f, c, kh, kw)", "(n, g, f, oh, ow)"],
     "ppppprrr", _mac, False),
    ("conv_2d_nhwgc_gfhwc", _NHWGC, [_I_NHWGC, "(g, f, kh, kw, c)", "(n, oh, ow, g, f)"],
     "ppppprrr", _mac, False),
    ("conv_2d_nhwgc_gfhwc_q", _NHWGC, [_I_NHWGC, "(g, f, kh, kw, c)", *_Q,
                                       "(n, oh, ow, g, f)"], "ppppprrr", _mac_q, False),
    ("conv_2d_ngchw_gfchw_q", _NGCHW, [_I_NGCHW, "(g, f, c, kh, kw)", *_Q,
                                       "(n, g, f, oh, ow)"], "ppppprrr", _mac_q, False),
    ("conv_3d_ndhwc_dhwcf", _NDHWC3, [_I_NDHWC, "(kd, kh, kw, c, f)", "(n, od, oh, ow, f)"],
     "ppppprrrr", _mac, False),
    ("conv_3d_ndhwc_dhwcf_q", _NDHWC3, [_I_NDHWC, "(kd, kh, kw, c, f)", *_Q,
                                        "(n, od, oh, ow, f)"], "ppppprrrr", _mac_q, False),
    ("conv_3d_ncdhw_fcdhw", "(n, f, od, oh, ow, c, kd, kh, kw)[sd, sh, sw, dd, dh, dw]",
     ["(n, c, od * sd + kd * dd, oh * sh + kh * dh, ow * sw + kw * dw)",
      "(f, c, kd, kh, kw)", "(n, f, od, oh, ow)"], "ppppprrrr", _mac, False),
    ("depthwise_conv_1d_nwc_wc", "(n, ow, c, kw)[sw, dw]",
     ["(n, ow * sw + kw * dw, c)", "(kw, c)", "(n, ow, c)"], "pppr", _mac, False),
    ("depthwise_conv_1d_ncw_cw", "(n, ow, c, kw)[sw, dw]",
     ["(n, c, ow * sw + kw * dw)", "(c, kw)", "(n, c, ow)"], "pppr", _mac, False),
    ("depthwise_conv_1d_nwc_wcm", "(n, ow, c, m, kw)[sw, dw]",
     ["(n, ow * sw + kw * dw, c)", "(kw, c, m)", "(n, ow, c, m)"], "ppppr", _mac, False),
    ("depthwise_conv_2d_nhwc_hwc", _DW2, [_I_NHWC, "(kh, kw, c)", "(n, oh, ow, c)"],
     "pppprr", _mac, False),
    ("depthwise_conv_2d_nchw_chw", _DW2, [_I_NCHW, "(c, kh, kw)", "(n, c, oh, ow)"],
     "pppprr", _mac, False),
    ("depthwise_conv_2d_nhwc_hwc_q", _DW2, [_I_NHWC, "(kh, kw, c)", *_Q, "(n, oh, ow, c)"],
     "pppprr", _mac_q, False),
    ("depthwise_conv_2d_nhwc_hwcm", _DW2M, [_I_NHWC, "(kh, kw, c, m)", "(n, oh, ow, c, m)"],
     "ppppprr", _mac, False),
    ("depthwise_conv_2d_nhwc_hwcm_q", _DW2M, [_I_NHWC, "(kh, kw, c, m)", *_Q,
                                              "(n, oh, ow, c, m)"], "ppppprr", _mac_q, False),
    ("depthwise_conv_3d_ndhwc_dhwc", _DW3, [_I_NDHWC, "(kd, kh, kw, c)",
                                            "(n, od, oh, ow, c)"], "pppprrrp", _mac, False),
    ("depthwise_conv_3d_ncdhw_cdhw", _DW3,
     ["(n, c, od * sd + kd * dd, oh * sh + kh * dh, ow * sw + kw * dw)", "(c, kd, kh, kw)",
      "(n, c, od, oh, ow)"], "pppprrrp", _mac, False),
    ("depthwise_conv_3d_ndhwc_dhwcm", _DW3M, [_I_NDHWC, "(kd, kh, kw, c, m)",
                                              "(n, od, oh, ow, c, m)"], "ppppprrrp", _mac,
     False),
]
_POOL_FNS = {"sum": _pool("add"), "max": _pool("max_signed"),
             "max_unsigned": _pool("max_unsigned", True), "min": _pool("min_signed"),
             "min_unsigned": _pool("min_unsigned", True)}
_ALL_POOLS = ("sum", "max", "max_unsigned", "min", "min_unsigned")
for _layout, (_dims, _maps, _its), _kinds in (
        ("nhwc", _POOL_NHWC, _ALL_POOLS), ("nchw", _POOL_NCHW, ("sum", "max")),
        ("nwc", _POOL_NWC, _ALL_POOLS), ("ncw", _POOL_NCW, ("sum", "max")),
        ("ndhwc", _POOL_NDHWC, ("sum", "max", "min"))):
    for _kind in _kinds:
        _SPECS.append((f"pooling_{_layout}_{_kind}", _dims, _maps, _its, _POOL_FNS[_kind],
                       False))
_SPECS.append(("fill_rng_2d", "(m, n)", ["()", "()", "()", "(m, n)"], "pp", _fill_rng_2d,
               False))

NAMED_OPS = [_make(*s) for s in _SPECS]
_BY_NAME = {c.name: c for c in NAMED_OPS}


def named_op_class(name: str):
    """The class of `linalg.<name>` among the OpDSL ops (None if not one)."""
    return _BY_NAME.get(name if name.startswith("linalg.") else "linalg." + name)
