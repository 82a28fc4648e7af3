"""Integer bit manipulation that converts f32/f64 values to and from the small float
formats LLVM has no type for (f8*, f6*, f4*, and bf16), built from arith ops.

Rounding is to nearest, ties to even (f8E8M0FNU: ties up, as ml_dtypes), on the bit
patterns; overflow, infinities and NaN follow each format (ml_dtypes' behaviour, which
the interpreter uses):

    IEEE-like (f8E5M2, f8E4M3, f8E3M4, bf16)  overflow -> inf, NaN -> quiet NaN (sign kept)
    *FN (f8E4M3FN)                            overflow, inf, NaN -> NaN (S.1111.111)
    *FNUZ                                     overflow, inf, NaN -> 0x80; no negative zero
    f8E8M0FNU (exponent only, unsigned)       0 -> 0x00 (2^-127), negative/NaN/inf -> 0xFF
    f6*FN, f4E2M1FN (no inf, no NaN)          overflow, inf -> saturate; NaN -> -0/+0
"""
from __future__ import annotations

from ...conversion.scalar_builders import op_class
from ...ir import attributes as A
from ...ir import dense as D

__all__ = ["FORMATS", "is_emulated_float", "emit_trunc", "emit_ext"]

# name -> (exponent bits, mantissa bits, bias, kind)
FORMATS = {
    "f8E5M2": (5, 2, 15, "ieee"), "f8E4M3": (4, 3, 7, "ieee"), "f8E3M4": (3, 4, 3, "ieee"),
    "f8E4M3FN": (4, 3, 7, "fn"), "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"), "f8E4M3B11FNUZ": (4, 3, 11, "fnuz"),
    "f8E8M0FNU": (8, 0, 127, "e8m0"), "f6E2M3FN": (2, 3, 1, "sat"),
    "f6E3M2FN": (3, 2, 3, "sat"), "f4E2M1FN": (2, 1, 1, "sat"), "bf16": (8, 7, 127, "ieee"),
}
_SOURCE = {32: (8, 23, 127), 64: (11, 52, 1023)}


def is_emulated_float(t, include_bf16=True) -> bool:
    return type(t) is A.FloatType and t.name in FORMATS and (include_bf16 or t.name != "bf16")


class _B:
    """arith ops on scalars or vectors (constants are splats of the value type)."""

    __slots__ = ("b", "loc", "shape")

    def __init__(self, builder, loc, like):
        self.b = builder
        self.loc = loc
        self.shape = like.shape if type(like) is A.VectorType else None

    def ty(self, e):
        return A.VectorType(self.shape, e) if self.shape is not None else e

    def op(self, name, operands, t, props=None):
        o = op_class(name).create(list(operands), [t], props, loc=self.loc)
        self.b.insert(o)
        return o.results[0]

    def c(self, v, e):
        t = self.ty(e)
        a = A.IntegerAttr(v, e) if type(e) is A.IntegerType else A.FloatAttr(v, e)
        if self.shape is not None:
            a = D.DenseElementsAttr(t, v)
        return self.op("arith.constant", [], t, {"value": a})

    def bin(self, name, x, y):
        return self.op("arith." + name, [x, y], x.type)

    def cmp(self, pred, x, y):
        from ...dialects.arith import CMPI_PREDICATES
        return self.op("arith.cmpi", [x, y], self.ty(A.i1),
                       {"predicate": A.IntegerAttr(CMPI_PREDICATES.index(pred), A.i64)})

    def sel(self, c, x, y):
        return self.op("arith.select", [c, x, y], x.type)

    def cast(self, name, x, e):
        return self.op("arith." + name, [x], self.ty(e))


def emit_trunc(builder, loc, x, dst):
    """`x` (f16, bf16, f32 or f64, scalar or vector) rounded to the small float `dst`."""
    src = x.type.element_type if type(x.type) is A.VectorType else x.type
    b = _B(builder, loc, x.type)
    if src.name in ("f16", "bf16"):
        x = b.cast("extf", x, A.f32)
        src = A.f32
    W = src.width
    Es, Ms, Bs = _SOURCE[W]
    E, M, B, kind = FORMATS[dst.name]
    I = A.IntegerType(W)
    bits = b.cast("bitcast", x, I)
    sign = b.bin("shrui", bits, b.c(W - 1, I))
    absb = b.bin("andi", bits, b.c((1 << (W - 1)) - 1, I))
    es = b.bin("shrui", absb, b.c(Ms, I))
    # normal results: round the mantissa to M bits, rebias the exponent
    shift = Ms - M
    half = 1 << (shift - 1)
    if kind == "e8m0":
        r = b.bin("addi", absb, b.c(half, I))
    else:
        lsb = b.bin("andi", b.bin("shrui", absb, b.c(shift, I)), b.c(1, I))
        r = b.bin("addi", b.bin("addi", absb, b.c(half - 1, I)), lsb)
    norm = b.bin("subi", b.bin("shrui", r, b.c(shift, I)), b.c((Bs - B) << M, I))
    # subnormal results: shift the mantissa (implicit bit included) right
    mant = b.bin("andi", absb, b.c((1 << Ms) - 1, I))
    zero_e = b.cmp("eq", es, b.c(0, I))
    mant = b.sel(zero_e, mant, b.bin("ori", mant, b.c(1 << Ms, I)))
    e_eff = b.bin("maxui", es, b.c(1, I))
    sh = b.bin("subi", b.c(shift + 1 - B + Bs, I), e_eff)
    sh = b.bin("minui", sh, b.c(Ms + 2, I))
    hsub = b.bin("shli", b.c(1, I), b.bin("subi", sh, b.c(1, I)))
    lsub = b.bin("andi", b.bin("shrui", mant, sh), b.c(1, I))
    sub = b.bin("shrui", b.bin("addi", b.bin("addi", mant, b.bin("subi", hsub, b.c(1, I))),
                               lsub), sh)
    is_sub = b.cmp("ult", es, b.c(Bs - B + 1, I))
    out = b.sel(is_sub, sub, norm)
    inf_bits = b.c(((1 << Es) - 1) << Ms, I)
    is_nan = b.cmp("ugt", absb, inf_bits)
    n = E + M
    if kind == "ieee":
        inf_code = ((1 << E) - 1) << M
        out = b.bin("minui", out, b.c(inf_code, I))
        out = b.sel(is_nan, b.c(inf_code | (1 << (M - 1)), I), out)
        out = b.bin("ori", out, b.bin("shli", sign, b.c(n, I)))
    elif kind == "fn":
        out = b.bin("minui", out, b.c((1 << n) - 1, I))
        out = b.bin("ori", out, b.bin("shli", sign, b.c(n, I)))
    elif kind == "fnuz":
        ovf = b.cmp("ugt", out, b.c((1 << n) - 1, I))
        signed = b.sel(b.cmp("eq", out, b.c(0, I)), out,
                       b.bin("ori", out, b.bin("shli", sign, b.c(n, I))))
        out = b.sel(ovf, b.c(1 << n, I), signed)
    elif kind == "e8m0":
        out = b.bin("minui", out, b.c(0xFF, I))
        bad = b.bin("ori", b.cmp("ne", sign, b.c(0, I)), b.cmp("uge", absb, inf_bits))
        out = b.sel(bad, b.c(0xFF, I), out)
        out = b.sel(b.cmp("eq", absb, b.c(0, I)), b.c(0, I), out)
    else:  # sat
        out = b.bin("minui", out, b.c((1 << n) - 1, I))
        out = b.bin("ori", out, b.bin("shli", sign, b.c(n, I)))
        flipped = b.bin("shli", b.bin("xori", sign, b.c(1, I)), b.c(n, I))
        out = b.sel(is_nan, flipped, out)
    width = dst.width
    small = b.cast("trunci", out, A.IntegerType(width))
    return b.cast("bitcast", small, dst)


def emit_ext(builder, loc, x, dst):
    """The small float `x` as the wider float type `dst` (exact, then rounded to dst if
    it is narrower than f32)."""
    src = x.type.element_type if type(x.type) is A.VectorType else x.type
    b = _B(builder, loc, x.type)
    E, M, B, kind = FORMATS[src.name]
    n = E + M
    I = A.i32
    code = b.cast("bitcast", x, A.IntegerType(src.width))
    ci = b.cast("extui", code, I)
    if src.name == "bf16":
        bits = b.bin("shli", ci, b.c(16, I))
    else:
        e = b.bin("andi", b.bin("shrui", ci, b.c(M, I)), b.c((1 << E) - 1, I))
        m = b.bin("andi", ci, b.c((1 << M) - 1, I))
        nan = b.c(0x7FC00000, I)
        if kind == "e8m0":
            bits = b.sel(b.cmp("eq", e, b.c(0, I)), b.c(0x00400000, I),
                         b.bin("shli", e, b.c(23, I)))
            bits = b.sel(b.cmp("eq", e, b.c(0xFF, I)), nan, bits)
        else:
            normal = b.bin("ori", b.bin("shli", b.bin("addi", e, b.c(127 - B, I)),
                                        b.c(23, I)),
                           b.bin("shli", m, b.c(23 - M, I)))
            scale = b.c(2.0 ** (1 - B - M), A.f32)
            subf = b.bin("mulf", b.cast("uitofp", m, A.f32), scale)
            sub = b.cast("bitcast", subf, I)
            bits = b.sel(b.cmp("eq", e, b.c(0, I)), sub, normal)
            top = b.cmp("eq", e, b.c((1 << E) - 1, I))
            if kind == "ieee":
                special = b.sel(b.cmp("eq", m, b.c(0, I)), b.c(0x7F800000, I), nan)
                bits = b.sel(top, special, bits)
            elif kind == "fn":
                is_nan = b.bin("andi", top, b.cmp("eq", m, b.c((1 << M) - 1, I)))
                bits = b.sel(is_nan, nan, bits)
            sign = b.bin("shli", b.bin("shrui", ci, b.c(n, I)), b.c(31, I))
            bits = b.bin("ori", bits, sign)
            if kind == "fnuz":
                bits = b.sel(b.cmp("eq", ci, b.c(1 << n, I)), nan, bits)
    f = b.cast("bitcast", bits, A.f32)
    dname = dst.name
    if dname == "f32":
        return f
    if dname in ("f64", "f80", "f128"):
        return b.cast("extf", f, dst)
    if dname in FORMATS:
        return emit_trunc(builder, loc, f, dst)
    return b.cast("truncf", f, dst)
