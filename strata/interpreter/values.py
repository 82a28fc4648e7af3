"""How IR types map to interpreter values, and conversions between the two.

[Note: value representation]
A value of tensor type is a NumPy array; a scalar (iN, fN, index) is a NumPy scalar (a
0-d array is accepted wherever a scalar is); `none` is None; `!onnx.Seq<T>` is a list;
`!onnx.Opt<T>` is None or the value. Element types map to dtypes as follows:

    i1                  np.bool_
    i2, i4, ui2, ui4    ml_dtypes.int2, int4, uint2, uint4 (as ONNX arrays hold them)
    other iN, siN       the smallest signed int of >= N bits (np.int64 for i33), holding
    (N <= 64)           the value sign-extended from N bits
    other uiN           the smallest unsigned int, holding the value zero-extended
    index               np.int64
    f16 / f32 / f64     np.float16 / np.float32 / np.float64
    bf16, f8*, f6*, f4  the ml_dtypes type of the same name (installed with onnx)
    complex<f32/f64>    np.complex64 / np.complex128

A signless integer carries no sign: the ops that read it unsigned (divui, cmpi ult,
uitofp...) take the unsigned view of the same bits (`to_unsigned`); every result is put
back into canonical form by `wrap`, which is how N-bit two's complement wrap-around is
implemented for every width.
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from ..ir import dense as D

__all__ = ["dtype_of", "element_type", "int_width", "is_unsigned", "to_unsigned", "wrap",
           "attr_to_value", "scalar", "check_value", "shape_fits", "ValueMismatch", "random_value"]

# float kind -> ml_dtypes attribute name
_ML_FLOATS = {
    "bf16": "bfloat16", "f8E5M2": "float8_e5m2", "f8E4M3": "float8_e4m3",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2FNUZ": "float8_e5m2fnuz",
    "f8E4M3FNUZ": "float8_e4m3fnuz", "f8E4M3B11FNUZ": "float8_e4m3b11fnuz",
    "f8E3M4": "float8_e3m4", "f8E8M0FNU": "float8_e8m0fnu", "f6E2M3FN": "float6_e2m3fn",
    "f6E3M2FN": "float6_e3m2fn", "f4E2M1FN": "float4_e2m1fn",
}
_NATIVE_FLOATS = {"f16": np.dtype(np.float16), "f32": np.dtype(np.float32),
                  "f64": np.dtype(np.float64)}
_DTYPES: dict = {}  # element type -> dtype (memo)


class ValueMismatch(ValueError):
    """A value does not fit the type it is bound to (argument checking)."""


def element_type(t):
    """The element type of a shaped type, else the type itself."""
    return t.element_type if isinstance(t, A.ShapedType) else t


def _int_container(width: int, unsigned: bool):
    for bits in (8, 16, 32, 64):
        if width <= bits:
            return np.dtype(("uint%d" if unsigned else "int%d") % bits)
    raise TypeError(f"integers wider than 64 bits are not supported (i{width})")


def dtype_of(t) -> np.dtype:
    """The NumPy dtype holding elements of `t` (a scalar type or a shaped type)."""
    t = element_type(t)
    d = _DTYPES.get(t)
    if d is not None:
        return d
    if isinstance(t, A.IntegerType):
        if t.width == 1 and t.signedness != A.IntegerType.UNSIGNED:
            d = np.dtype(np.bool_)
        elif t.width in (2, 4):
            import ml_dtypes
            unsigned = t.signedness == A.IntegerType.UNSIGNED
            d = np.dtype(getattr(ml_dtypes, ("uint%d" if unsigned else "int%d") % t.width))
        else:
            d = _int_container(t.width, t.signedness == A.IntegerType.UNSIGNED)
    elif isinstance(t, A.IndexType):
        d = np.dtype(np.int64)
    elif isinstance(t, A.FloatType):
        d = _NATIVE_FLOATS.get(t.name)
        if d is None:
            name = _ML_FLOATS.get(t.name)
            if name is None:
                raise TypeError(f"the interpreter does not support {t} values")
            import ml_dtypes
            d = np.dtype(getattr(ml_dtypes, name))
    elif isinstance(t, A.ComplexType) and element_type(t.element_type) in (A.f32, A.f64):
        d = np.dtype(np.complex64 if t.element_type is A.f32 else np.complex128)
    elif type(t).__name__ == "StringType":  # !onnx.String
        d = np.dtype(object)
    else:
        raise TypeError(f"the interpreter does not support {t} values")
    _DTYPES[t] = d
    return d


def int_width(t) -> int:
    """Bit width of an integer or index type (or of a shaped type's elements)."""
    t = element_type(t)
    return 64 if isinstance(t, A.IndexType) else t.width


def is_unsigned(t) -> bool:
    t = element_type(t)
    return isinstance(t, A.IntegerType) and t.signedness == A.IntegerType.UNSIGNED


def to_unsigned(x, width: int):
    """The unsigned reading of N-bit integers `x` (any int dtype, canonical form)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    u = _int_container(width, True)
    y = x.astype(u) if x.dtype != u else x
    if width < u.itemsize * 8:
        y = y & u.type((1 << width) - 1)
    return y


def wrap(x, t):
    """`x` (integers of any dtype, or wider) reduced modulo 2**N into the canonical form
    of integer type `t`: sign-extended for signless/signed, zero-extended for unsigned."""
    et = element_type(t)
    d = dtype_of(et)
    x = np.asarray(x)
    if d == np.bool_:
        return (x & 1).astype(np.bool_) if x.dtype != np.bool_ else x
    w = int_width(et)
    c = _int_container(w, is_unsigned(et))  # where the arithmetic happens
    bits = c.itemsize * 8
    if x.dtype != c:
        x = x.astype(c)  # integer casts keep the low bits (modular)
    if w < bits:
        if c.kind == "u":
            x = x & c.type((1 << w) - 1)
        else:
            s = c.type(bits - w)
            x = (x << s) >> s
    return x if d == c else x.astype(d)


def scalar(x, t):
    """`x` as a value of type `t`: a 0-d result becomes a NumPy scalar for scalar types."""
    if isinstance(t, A.ShapedType):
        return x if isinstance(x, np.ndarray) else np.asarray(x)
    return x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x


# ------------------------------------------------------------------ attributes


def _bits_view(a, et):
    """Elements stored as unsigned bit patterns (bf16, f8...) as their ml_dtypes type."""
    d = dtype_of(et)
    return np.ascontiguousarray(a).astype(np.dtype("uint%d" % (d.itemsize * 8))).view(d)


def attr_to_value(attr, t=None):
    """The value of a constant attribute (IntegerAttr, FloatAttr, dense, dense_resource,
    BoolAttr...) as the interpreter holds it; `t` defaults to the attribute's type."""
    if isinstance(attr, A.IntegerAttr):
        d = dtype_of(attr.type)
        v = attr.value
        if d == np.bool_:
            return np.bool_(v & 1)
        return wrap(np.asarray(v if v >= 0 else v & ((1 << 64) - 1), np.uint64),
                    attr.type)[()]
    if isinstance(attr, A.FloatAttr):
        d = dtype_of(attr.type)
        if attr.type.name in _NATIVE_FLOATS:
            return d.type(attr.value)
        return np.asarray(attr.bits, np.dtype("uint%d" % (d.itemsize * 8))).view(d)[()]
    if isinstance(attr, D.DenseStringElementsAttr):  # ONNX strings are Python str
        return np.array([v.decode("utf-8", "surrogateescape") for v in attr.values],
                        dtype=object).reshape(attr.type.shape)
    if isinstance(attr, (D.DenseElementsAttr, D.DenseResourceElementsAttr)):
        a = attr.array if isinstance(attr, D.DenseElementsAttr) else attr.array()
        at = attr.type
        et = at.element_type
        if isinstance(et, A.FloatType) and et.name not in _NATIVE_FLOATS:
            a = _bits_view(a, et)
        elif isinstance(et, A.ComplexType) and a.ndim == len(at.shape) + 1:
            a = (a[..., 0] + 1j * a[..., 1]).astype(dtype_of(et))
        elif a.dtype != dtype_of(et):
            a = a.astype(dtype_of(et))
        if t is not None and not isinstance(t, A.ShapedType):
            return a.reshape(())[()]
        return a
    raise TypeError(f"not a constant attribute: {attr}")


# ------------------------------------------------------------------ checking inputs


def shape_fits(shape, t) -> bool:
    """Whether an array shape is one of shaped type `t` (its static dims)."""
    if not t.has_rank:
        return True
    dims = t.shape
    if len(shape) != len(dims):
        return False
    for d, n in zip(dims, shape):
        if d != n and d != A.DYNAMIC:
            return False
    return True


_UNSET = object()


def check_value(x, t, what: str, given=_UNSET):
    """`x` converted to a value of type `t` (Python numbers and lists are converted;
    arrays must have the type's dtype, signless integers also accept the unsigned
    dtype of the same width); raises ValueMismatch naming `what` otherwise, and what was
    passed (`given`, when `x` was converted from it; see [Note: input messages] in
    strata/runtime)."""
    from ..runtime import describe, dtype_text, got_shape
    if given is _UNSET:
        given = x
    if isinstance(t, A.NoneType):
        if x is not None:
            raise ValueMismatch(f"{what}: expected None for type 'none', got "
                                f"{describe(given)}")
        return None
    try:
        d = dtype_of(t)
    except TypeError:
        return x  # sequences, optionals, opaque types: passed through
    if x is None:
        raise ValueMismatch(f"{what}: expected a value of type '{t}', got None")
    shaped = isinstance(t, A.ShapedType)
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
        if a.dtype != d:
            et = element_type(t)
            if (isinstance(et, A.IntegerType) and et.signedness == 0 and a.dtype.kind in "iu"
                    and a.dtype.itemsize == d.itemsize and int_width(et) == d.itemsize * 8):
                a = a.view(d)
            else:
                raise ValueMismatch(f"{what}: expected dtype {d} for type '{t}', got "
                                    f"{dtype_text(a.dtype)}")
    else:
        try:
            a = np.asarray(x, dtype=d)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueMismatch(f"{what}: cannot convert {describe(given)} to '{t}': "
                                f"{e}") from None
    if not shaped:
        if a.ndim != 0:
            raise ValueMismatch(f"{what}: expected a scalar of type '{t}', got "
                                f"{got_shape(a, given)}")
        return a[()]
    if not shape_fits(a.shape, t):
        raise ValueMismatch(f"{what}: expected shape {_shape_text(t)} for type '{t}', got "
                            f"{got_shape(a, given)}")
    return a


def _shape_text(t) -> str:
    return "(" + ", ".join("?" if d == A.DYNAMIC else str(d) for d in t.shape) + \
        ("," if len(t.shape) == 1 else "") + ")"


def random_value(t, rng, dynamic_size: int = 3):
    """A random value of type `t` (dynamic dims get `dynamic_size`): floats in [-2, 2),
    integers in a small range, booleans, index values in [0, 4)."""
    if isinstance(t, A.ShapedType):
        if not t.has_rank:
            shape = (dynamic_size,)
        else:
            shape = tuple(dynamic_size if d == A.DYNAMIC else d for d in t.shape)
    else:
        shape = ()
    d = dtype_of(t)
    et = element_type(t)
    if d == np.bool_:
        a = rng.random(shape) < 0.5
    elif isinstance(et, A.IndexType):
        a = rng.integers(0, 4, shape).astype(d)
    elif isinstance(et, A.IntegerType):
        lo = 0 if is_unsigned(et) or int_width(et) < 4 else -8
        a = rng.integers(lo, 8, shape).astype(d)
    elif d.kind == "c":
        a = (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(d)
    else:
        a = rng.uniform(-2, 2, shape).astype(np.float32).astype(d)
    return a if isinstance(t, A.ShapedType) else a[()]
