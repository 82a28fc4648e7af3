"""Dense elements attributes: `dense<...>`, `dense_resource<...>` and resource blobs.

[Note: raw data]
A `DenseElementsAttr` of integers, floats or complex numbers is its type plus the raw
little-endian buffer MLIR keeps (DenseIntOrFPElementsAttr::getRawData): each element
takes ceil(bitwidth / 8) bytes (i1 one byte, i33 five, f80 ten, index eight), a complex
element is its real part followed by its imaginary part, and a splat keeps one element
only. The attribute is uniqued by (type, raw bytes), so `dense<[1, 1]>` and `dense<1>` are
the same object, as upstream. Bytes read from a hex literal are kept as written (MLIR does
not canonicalize `dense<"0xFF00"> : tensor<2xi1>` either, and prints the same hex back).
The NumPy view is decoded lazily, read-only.

[Note: float printing]
MLIR prints each float with APFloat::toString(6, 0, false) when that text parses back
to the same bits, else with APFloat::toString() (shortest form with a '.'), else as the
hex bit pattern. APFloat's algorithm truncates before it rounds, so f32 1e-5 prints as
9.99999974E-6, not as C's %.6e would suggest; `_apfloat_to_string` ports it exactly.
Decimal literals are rounded straight to the target semantics (no detour through f64).
"""
from __future__ import annotations

import math
import re
import struct
import weakref
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .attributes import (
    FLOAT_KINDS, WEAKLY_UNIQUED, Attribute, ComplexType, FloatType, IndexType, IntegerType,
    MemRefType, RankedTensorType, ShapedType, VectorType, unique,
)

__all__ = [
    "DenseParseError", "DenseElementsAttr", "DenseStringElementsAttr",
    "DenseResourceElementsAttr", "SparseElementsAttr", "ResourceBlobs", "DenseLiteral", "parse_dense_literal",
    "parse_dense_body", "print_dense", "print_elided", "encode_blob", "decode_blob",
    "dense_from_numpy", "to_numpy", "format_float_bits", "DEFAULT_HEX_LIMIT", "BLOBS",
    "attach_resources", "print_resource_section", "own_lent_blobs",
]

# Non-splat attributes with more elements than this print as a hex string, as MLIR's
# --mlir-print-elementsattrs-with-hex-if-larger default.
DEFAULT_HEX_LIMIT = 100


class DenseParseError(ValueError):
    """An error in a dense literal. `offset` indexes the parsed text; None means MLIR
    reports it at the `dense` keyword (shape and size checks of the whole literal)."""

    def __init__(self, message: str, offset: int | None, note: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.note = note


class _ElemError(ValueError):
    """An element value is invalid; the caller knows the token offset."""

    def __init__(self, message, note=None):
        self.message = message
        self.note = note


# ------------------------------------------------------------------ float semantics

# name -> (exponent bits, stored fraction bits, bias, non-finite kind, explicit int bit)
# Kinds follow APFloat: "ieee" has inf and NaN; "fn" has NaN = all ones, no inf; "fnuz"
# has NaN = 0x80 and no negative zero; "finite" has neither; "e8m0" is unsigned.
_FMT = {
    "f16": (5, 10, 15, "ieee", False), "bf16": (8, 7, 127, "ieee", False),
    "f32": (8, 23, 127, "ieee", False), "f64": (11, 52, 1023, "ieee", False),
    "tf32": (8, 10, 127, "ieee", False), "f80": (15, 63, 16383, "ieee", True),
    "f128": (15, 112, 16383, "ieee", False), "f8E5M2": (5, 2, 15, "ieee", False),
    "f8E4M3": (4, 3, 7, "ieee", False), "f8E3M4": (3, 4, 3, "ieee", False),
    "f8E4M3FN": (4, 3, 7, "fn", False), "f8E5M2FNUZ": (5, 2, 16, "fnuz", False),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz", False), "f8E4M3B11FNUZ": (4, 3, 11, "fnuz", False),
    "f8E8M0FNU": (8, 0, 127, "e8m0", False), "f6E2M3FN": (2, 3, 1, "finite", False),
    "f6E3M2FN": (3, 2, 3, "finite", False), "f4E2M1FN": (2, 1, 1, "finite", False),
}


def _layout(name):
    eb, mb, bias, kind, explicit = _FMT[name]
    eshift = mb + explicit  # f80 stores its integer bit explicitly above the fraction
    return eb, mb, bias, kind, explicit, eshift, FLOAT_KINDS[name]


def _decode_float(bits: int, name: str):
    """-> ("nan"|"inf", neg) or ("num", neg, significand, exp2) with value sig * 2**exp2."""
    eb, mb, bias, kind, explicit, eshift, width = _layout(name)
    neg = kind != "e8m0" and bool(bits >> (width - 1) & 1)
    frac = bits & ((1 << mb) - 1)
    e = bits >> eshift & ((1 << eb) - 1)
    top = (1 << eb) - 1
    if kind == "e8m0":
        return ("nan", False) if e == top else ("num", False, 1, e - bias)
    if ((kind == "ieee" and e == top) or (kind == "fn" and e == top and frac == (1 << mb) - 1)
            or (kind == "fnuz" and bits == 1 << (width - 1))):
        return ("inf", neg) if kind == "ieee" and frac == 0 else ("nan", neg)
    if e == 0:
        return ("num", neg, frac, 1 - bias - mb)
    return ("num", neg, frac | 1 << mb, e - bias - mb)


def _float_value(bits: int, name: str) -> float:
    d = _decode_float(bits, name)
    try:
        v = math.nan if d[0] == "nan" else math.inf if d[0] == "inf" else math.ldexp(d[2], d[3])
    except OverflowError:  # f80 / f128 beyond f64's range
        v = math.inf
    return -v if d[1] else v


def _encode_float(name: str, neg: bool, q) -> int:
    """Round `q` (a non-negative Fraction, or "inf"/"nan") to `name` as APFloat does with
    round-to-nearest-even, including each kind's overflow behaviour."""
    eb, mb, bias, kind, explicit, eshift, width = _layout(name)
    sign = (1 << (width - 1)) if neg and kind != "e8m0" else 0
    top, mmask = (1 << eb) - 1, (1 << mb) - 1
    ibit = (1 << mb) if explicit else 0
    nan = (sign | top << eshift | ibit | 1 << (mb - 1) if kind == "ieee" else
           sign | top << eshift | mmask if kind == "fn" else
           1 << (width - 1) if kind == "fnuz" else top if kind == "e8m0" else None)
    if q == "nan":
        if nan is None:
            raise _ElemError(f"{name} has no NaN")
        return nan
    if q == "inf" or q != 0:
        if q == "inf":
            field, sig = top + 1, 0  # forces the overflow path below
        else:
            n, d = q.numerator, q.denominator
            e = n.bit_length() - d.bit_length()
            if (n << max(0, -e)) < (d << max(0, e)):
                e -= 1  # now 2**e <= q < 2**(e+1)
            e = max(e, -bias if kind == "e8m0" else 1 - bias)
            num, den = (n, d << (e - mb)) if e >= mb else (n << (mb - e), d)
            sig, rem = divmod(num, den)
            if 2 * rem > den or (2 * rem == den and sig & 1):
                sig += 1
            if sig >> (mb + 1):
                sig, e = sig >> 1, e + 1
            if sig == 0:
                return 0 if kind in ("fnuz", "e8m0") else sign
            field = e + bias if (sig >> mb or kind == "e8m0") else 0
        limit = top - 1 if kind in ("ieee", "e8m0") else top
        if field > limit or (kind == "fn" and field == top and sig & mmask == mmask):
            if kind == "ieee":
                return sign | top << eshift | ibit
            if kind == "finite":
                return sign | top << eshift | mmask
            return nan
        return sign | field << eshift | (ibit if field else 0) | (sig & mmask)
    return 0 if kind in ("fnuz", "e8m0") else sign


def _apfloat_to_string(neg, sig, exp, prec_bits, fmt_prec, max_pad, trunc_zero) -> str:
    """Port of APFloat's toStringImpl for a non-zero finite value sig * 2**exp."""
    if not fmt_prec:
        fmt_prec = 2 + prec_bits * 59 // 196
    tz = (sig & -sig).bit_length() - 1
    sig, exp = sig >> tz, exp + tz
    if exp > 0:
        sig, exp = sig << exp, 0
    elif exp < 0:
        sig *= 5 ** -exp  # sig * 2**exp == (sig * 5**-exp) * 10**exp
    # AdjustToPrecision on the integer: drop (by truncation) digits it cannot need.
    bits, required = sig.bit_length(), (fmt_prec * 196 + 58) // 59
    if bits > required:
        tens = (bits - required) * 59 // 196
        if tens:
            sig, exp = sig // 10 ** tens, exp + tens
    d = str(sig)
    s = d.rstrip("0")
    exp, d = exp + len(d) - len(s), s
    # AdjustToPrecision on the digits: round half up.
    n = len(d)
    if n > fmt_prec:
        keep = d[:fmt_prec]
        if d[fmt_prec] < "5":
            d = keep.rstrip("0")
            exp += n - len(d)
        else:
            k = len(keep.rstrip("9"))
            d = keep[:k - 1] + chr(ord(keep[k - 1]) + 1) if k else "1"
            exp += n - k if k else n
    nd = len(d)
    if not max_pad:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_pad or nd + exp > fmt_prec
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_pad
    out = "-" if neg else ""
    if scientific:
        exp += nd - 1
        out += d[0] + "." + ("0" if nd == 1 and trunc_zero else d[1:])
        if not trunc_zero and fmt_prec > nd - 1:
            out += "0" * (fmt_prec - nd + 1)
        digits = str(abs(exp))
        if not trunc_zero and len(digits) < 2:
            digits = "0" + digits
        return out + ("E" if trunc_zero else "e") + ("+" if exp >= 0 else "-") + digits
    if exp >= 0:
        return out + d + "0" * exp
    whole = exp + nd
    if whole > 0:
        return out + d[:whole] + "." + d[whole:]
    return out + "0." + "0" * -whole + d


@lru_cache(maxsize=65536)
def format_float_bits(bits: int, name: str) -> str:
    """Print the float with bit pattern `bits` of float type `name` as MLIR's
    printFloatValue does (see [Note: float printing])."""
    d = _decode_float(bits, name)
    if d[0] == "num" and d[2] == 0:
        return ("-" if d[1] else "") + "0.000000e+00"
    if d[0] == "num":
        _, neg, sig, exp = d
        prec = _FMT[name][1] + 1
        s = _apfloat_to_string(neg, sig, exp, prec, 6, 0, False)
        if _decimal_bits(name, s.lstrip("-"), neg) == bits:
            return s
        s = _apfloat_to_string(neg, sig, exp, prec, 0, 3, True)
        if "." in s:
            return s
    return "0x%X" % bits


def _negate(name, bits):
    kind, width = _FMT[name][3], FLOAT_KINDS[name]
    if kind == "fnuz" and bits & ((1 << (width - 1)) - 1) == 0:
        return bits  # zero and NaN have no negative counterpart
    return bits ^ (1 << (width - 1))


@lru_cache(maxsize=65536)
def _decimal_bits(name: str, spelling: str, neg: bool = False) -> int:
    """Bits of the decimal literal `spelling` rounded to float type `name`."""
    if name == "f64":
        x = float(spelling)
        return struct.unpack("<Q", struct.pack("<d", -x if neg else x))[0]
    if neg and _FMT[name][3] == "e8m0":
        raise _ElemError("negative floating point literal for a type with no signed "
                         "representation")
    bits = _encode_float(name, False, Fraction(spelling))
    return _negate(name, bits) if neg else bits


# ------------------------------------------------------------------ element storage


def _is_numeric(t) -> bool:
    return isinstance(t, (IntegerType, IndexType, FloatType, ComplexType))


@lru_cache(maxsize=None)
def _scalar_info(t):
    """-> (bytes per element, numpy dtype or object, kind, bit width) of a scalar type.
    kind: "bool", "int" (signed/signless), "uint", "float" (numpy native) or "bits"
    (other float kinds, held as unsigned bit patterns)."""
    if isinstance(t, IndexType):
        return 8, np.dtype("<i8"), "int", 64
    if isinstance(t, IntegerType):
        w = t.width
        if w == 0:
            raise ValueError("dense elements of i0 are not supported")
        if w == 1:
            return 1, np.dtype(np.bool_), "bool", 1
        kind = "uint" if t.signedness == IntegerType.UNSIGNED else "int"
    elif isinstance(t, FloatType):
        w = t.width
        if t.name in ("f16", "f32", "f64"):
            return w // 8, np.dtype("<f%d" % (w // 8)), "float", w
        kind = "bits"
    else:
        raise TypeError(f"not a dense element type: {t}")
    k = (w + 7) // 8
    return k, _int_dtype(k, kind == "int"), kind, w


def _int_dtype(k, signed=False):
    """The NumPy integer dtype holding k-byte values (object beyond 8 bytes)."""
    size = next((s for s in (1, 2, 4, 8) if s >= k), None)
    return np.dtype(("<i%d" if signed else "<u%d") % size) if size else np.dtype(object)


def _nbytes(t) -> int:
    if isinstance(t, ComplexType):
        return 2 * _scalar_info(t.element_type)[0]
    return _scalar_info(t)[0]


def _readonly(a):
    a.flags.writeable = False
    return a


def _unpack_uints(raw, count, k, width, signed, dtype):
    """Decode `count` little-endian k-byte integers of `width` bits (masked and, when
    `signed`, sign-extended: hex data may hold junk above the width)."""
    if width == 8 * k and k in (1, 2, 4, 8):
        return np.frombuffer(raw, dtype, count)
    if dtype == object:
        mask, out = (1 << width) - 1, np.empty(count, object)
        for i in range(count):
            v = int.from_bytes(raw[i * k:(i + 1) * k], "little") & mask
            out[i] = v - (1 << width) if signed and v >> (width - 1) else v
        return _readonly(out)
    if k in (1, 2, 4, 8):
        u = np.frombuffer(raw, "<u%d" % k, count).astype(np.uint64)
    else:
        b = np.zeros((count, 8), np.uint8)
        b[:, :k] = np.frombuffer(raw, np.uint8, count * k).reshape(count, k)
        u = b.view("<u8").reshape(count)
    u = u & np.uint64((1 << width) - 1)
    if signed:
        s = np.uint64(64 - width)
        u = (u << s).view(np.int64) >> s.astype(np.int64)
    return _readonly(u.astype(dtype))


def _pack_uints(values, k) -> bytes:
    """Little-endian k-byte encoding of non-negative ints (a list or uint64 array)."""
    if k > 8:
        return b"".join(int(v).to_bytes(k, "little") for v in values)
    u = np.asarray(values, dtype=np.uint64)
    if k in (1, 2, 4, 8):
        return u.astype("<u%d" % k).tobytes()
    return np.ascontiguousarray(u.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :k]).tobytes()


def _decode(t, raw: bytes, count: int):
    """NumPy array of `count` elements of type `t` (complex: complex dtype for f32/f64,
    else a trailing axis of 2)."""
    if isinstance(t, ComplexType):
        et = t.element_type
        if isinstance(et, FloatType) and et.name in ("f32", "f64"):
            return np.frombuffer(raw, "<c%d" % (et.width // 4), count)
        return _decode(et, raw, 2 * count).reshape(count, 2)
    k, dtype, kind, w = _scalar_info(t)
    if kind == "float":
        return np.frombuffer(raw, dtype, count)
    if kind == "bool":
        return _readonly(np.frombuffer(raw, np.uint8, count) != 0)
    return _unpack_uints(raw, count, k, w, kind == "int", dtype)


def _encode(t, a: np.ndarray) -> bytes:
    """Raw bytes of the flat array `a` of elements of type `t`."""
    if isinstance(t, ComplexType):
        if np.iscomplexobj(a):
            a = np.stack([a.real, a.imag], -1)
        if a.shape[-1:] != (2,):
            raise ValueError(f"complex elements need complex values or pairs, got {a.shape}")
        return _encode(t.element_type, a.reshape(-1))
    k, dtype, kind, w = _scalar_info(t)
    if kind == "float":
        return np.ascontiguousarray(a, dtype=dtype).tobytes()
    if kind == "bits" and a.dtype.kind in "fc":
        name = t.name
        out = []
        for x in a.astype(np.float64).tolist():
            q = "nan" if x != x else "inf" if abs(x) == float("inf") else Fraction(abs(x))
            neg = math.copysign(1.0, x) < 0
            out.append(_encode_float(name, neg, q))
        return _pack_uints(out, k)
    if a.dtype.kind not in "iub" and not (a.dtype == object and all(
            isinstance(v, (int, np.integer)) for v in a.tolist())):
        raise TypeError(f"expected integer values for {t}, got {a.dtype}")
    if kind == "bool":
        return (a != 0).astype(np.uint8).tobytes()
    # Signless integers accept both the signed and the unsigned range, as MLIR's parser.
    signed = isinstance(t, IndexType) or (kind == "int" and t.signedness == IntegerType.SIGNED)
    lo = -(1 << (w - 1)) if kind == "int" else 0
    hi = (1 << (w - 1)) - 1 if signed else (1 << w) - 1
    if a.size and (int(a.min()) < lo or int(a.max()) > hi):
        raise ValueError(f"value out of range for {t}")
    if w > 64 or a.dtype == object:
        mask = (1 << w) - 1
        return _pack_uints([int(v) & mask for v in a.tolist()], k)
    u = a.astype(np.uint64) if a.dtype.kind == "u" else a.astype(np.int64).view(np.uint64)
    return _pack_uints(u & np.uint64((1 << w) - 1) if w < 64 else u, k)


def _py(t, v):
    """A stored element as a Python value."""
    if isinstance(t, ComplexType):
        if np.iscomplexobj(v):
            return complex(v)
        return complex(_py(t.element_type, v[0]), _py(t.element_type, v[1]))
    kind = _scalar_info(t)[2]
    if kind == "bool":
        return bool(v)
    if kind == "float":
        return float(v)
    if kind == "bits":
        return _float_value(int(v), t.name)
    return int(v)


def _check_shaped(type):
    if not isinstance(type, (RankedTensorType, VectorType, MemRefType)):
        raise TypeError(f"dense elements need a ranked tensor or vector type, got {type}")
    if not type.has_static_shape:
        raise ValueError(f"dense elements need a static shape, got {type}")


# ------------------------------------------------------------------ attributes


class DenseElementsAttr(Attribute):
    """`dense<...>` of integer, index, float or complex elements (see [Note: raw data]).
    `DenseElementsAttr(type, data)` takes an array-like of the type's shape, of its
    element count, or a single value (a splat). For float kinds NumPy lacks (bf16,
    f8...), integer data is taken as bit patterns and `array` holds bit patterns; float
    data is rounded to the type. Other element types give a DenseStringElementsAttr."""

    __slots__ = ("type", "raw", "is_splat", "_elems")

    def __new__(cls, type, data):
        _check_shaped(type)
        if not _is_numeric(type.element_type):
            return DenseStringElementsAttr(type, data)
        a = np.asarray(data)
        et = type.element_type
        pair = isinstance(et, ComplexType) and not np.iscomplexobj(a)
        size = a.size // 2 if pair else a.size
        if size not in (1, type.num_elements):
            raise ValueError(f"{size} values for {type}")
        return cls.from_raw(type, _encode(et, a.reshape((size, 2) if pair else size)))

    @classmethod
    def from_raw(cls, type, raw) -> DenseElementsAttr:
        """The attribute holding MLIR's raw buffer `raw`: one element (a splat) or all."""
        _check_shaped(type)
        raw, k, n = bytes(raw), _nbytes(type.element_type), type.num_elements
        if len(raw) != k and len(raw) != n * k:
            raise ValueError(f"{len(raw)} bytes of data for {type}")
        if n > 1 and len(raw) == n * k and raw == raw[:k] * n:
            raw = raw[:k]

        def init(o):
            o.type = type
            o.raw = raw
            o.is_splat = len(raw) == k
            o._elems = None
        return unique(DenseElementsAttr, (type, raw), init)

    @property
    def element_type(self):
        return self.type.element_type

    @property
    def shape(self):
        return self.type.shape

    @property
    def num_elements(self):
        return self.type.num_elements

    def _stored(self):
        """The stored elements, flat: one for a splat."""
        if self._elems is None:
            count = 1 if self.is_splat else self.num_elements
            self._elems = _decode(self.element_type, self.raw, count)
        return self._elems

    @property
    def array(self) -> np.ndarray:
        """Read-only array of the full shape (complex pairs add a trailing axis of 2)."""
        e = self._stored()
        shape = self.shape + e.shape[1:]
        if self.is_splat:
            return np.broadcast_to(e.reshape((1,) * len(self.shape) + e.shape[1:]), shape)
        return e.reshape(shape)

    def _value(self, x):
        return _py(self.element_type, x)

    @property
    def splat_value(self):
        if not self.is_splat:
            raise ValueError("not a splat")
        return self._value(self._stored()[0])

    @property
    def values(self):
        """Iterator over all elements as Python values (bool, int, float, complex; bytes
        for strings)."""
        e = self._stored()
        if self.is_splat:
            v = self._value(e[0])
            return (v for _ in range(self.num_elements))
        return map(self._value, e)

    def _element_strings(self) -> list[str]:
        t = self.element_type
        st = t.element_type if isinstance(t, ComplexType) else t
        count = len(self.raw) // _scalar_info(st)[0]
        if isinstance(st, FloatType):
            k = _scalar_info(st)[0]
            bits = _unpack_uints(self.raw, count, k, st.width, False, _int_dtype(k))
            strs = [format_float_bits(b, st.name) for b in bits.tolist()]
        else:
            vals = _decode(st, self.raw, count).tolist()
            if st.width == 1:
                strs = ["true" if v else "false" for v in vals]
            else:
                strs = list(map(str, vals))
        if isinstance(t, ComplexType):
            strs = [f"({strs[i]},{strs[i + 1]})" for i in range(0, len(strs), 2)]
        return strs

    def print_body(self, hex_limit: int | None = DEFAULT_HEX_LIMIT) -> str:
        """The text between `dense<` and `>`; hex when not a splat and it has more than
        `hex_limit` elements (None or -1: never)."""
        if (not self.is_splat and hex_limit is not None and hex_limit >= 0
                and self.num_elements > hex_limit):
            return '"0x' + self.raw.hex().upper() + '"'
        return _nest(self._element_strings(), self.shape, self.is_splat)

    def _print(self):
        return print_dense(self)


def _nest(strs, shape, splat) -> str:
    if splat:
        return strs[0]
    if not strs:
        return ""
    for d in reversed(shape[1:]):
        strs = ["[" + ", ".join(strs[i:i + d]) + "]" for i in range(0, len(strs), d)]
    return "[" + ", ".join(strs) + "]"


def _escape_bytes(b: bytes) -> str:
    # llvm::printEscapedString: backslash doubled, printable ASCII but '"' kept, else \XX.
    return "".join("\\\\" if c == 92 else chr(c) if 32 <= c < 127 and c != 34 else "\\%02X" % c
                   for c in b)


def _to_bytes(v) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    raise TypeError(f"string elements must be str or bytes, got {type(v).__name__}")


class DenseStringElementsAttr(DenseElementsAttr):
    """`dense<"abc">` / `dense<["a", "b"]>`: elements of any type that is not a number
    (a string type of some dialect). Values are stored as bytes (str is UTF-8 encoded)."""

    __slots__ = ("strings",)

    def __new__(cls, type, data):
        _check_shaped(type)
        if isinstance(data, (str, bytes)):
            vals = (_to_bytes(data),)
        else:
            vals = tuple(_to_bytes(v) for v in np.asarray(data, dtype=object).reshape(-1).tolist())
        n = type.num_elements
        if len(vals) not in (1, n):
            raise ValueError(f"{len(vals)} strings for {type}")
        if n > 1 and vals.count(vals[0]) == n:
            vals = vals[:1]

        def init(o):
            o.type = type
            o.strings = vals
            o.raw = None
            o.is_splat = len(vals) == 1
            o._elems = None
        return unique(cls, (type, vals), init)

    def _stored(self):
        if self._elems is None:
            e = np.empty(len(self.strings), object)
            e[:] = self.strings
            self._elems = _readonly(e)
        return self._elems

    def _value(self, x):
        return x

    def print_body(self, hex_limit=DEFAULT_HEX_LIMIT) -> str:
        # String elements never print as hex.
        return _nest(['"' + _escape_bytes(s) + '"' for s in self.strings], self.shape,
                     self.is_splat)


def print_dense(attr, hex_limit: int | None = DEFAULT_HEX_LIMIT) -> str:
    """`dense<...> : type` as MLIR prints it under --mlir-print-elementsattrs-with-hex-
    if-larger=hex_limit (default 100; -1 or None: never hex)."""
    if isinstance(attr, DenseElementsAttr):
        return f"dense<{attr.print_body(hex_limit)}> : {attr.type}"
    return str(attr)


def print_elided(attr, limit: int = 0, hex_limit: int | None = DEFAULT_HEX_LIMIT) -> str:
    """The attribute as --mlir-elide-elementsattrs-if-larger=limit prints it: a non-splat
    dense attribute of more than `limit` elements becomes `dense_resource<__elided__>`."""
    if isinstance(attr, DenseElementsAttr) and not attr.is_splat and attr.num_elements > limit:
        return f"dense_resource<__elided__> : {attr.type}"
    return print_dense(attr, hex_limit)


_BARE = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*\Z")


def _keyword_or_string(name: str) -> str:
    return name if _BARE.match(name) else '"' + _escape_bytes(_to_bytes(name)) + '"'


class DenseResourceElementsAttr(Attribute):
    """`dense_resource<handle> : type`: elements kept in the blob `handle` of the
    builtin dialect's resources (a `ResourceBlobs`), not in the attribute. Uniqued
    weakly: its blob lives as long as one of them does ([Note: blob lifetimes])."""

    __slots__ = ("type", "handle", "__weakref__")

    def __new__(cls, type, handle: str):
        _check_shaped(type)
        key = (type, handle)
        o = _RESOURCE_ATTRS.get(key)
        if o is None:
            o = object.__new__(cls)
            o._str = None
            o.type = type
            o.handle = handle
            _RESOURCE_ATTRS[key] = o
            _USERS[handle] = _USERS.get(handle, 0) + 1
            weakref.finalize(o, _attr_gone, handle).atexit = False
        return o

    def _print(self):
        return f"dense_resource<{_keyword_or_string(self.handle)}> : {self.type}"

    @property
    def resource_key(self):
        """(dialect, name) of the blob: what the printer collects for the {-# #-} section."""
        return ("builtin", self.handle)

    def array(self, blobs: ResourceBlobs | None = None) -> np.ndarray:
        """Read-only NumPy view of the blob's data in the attribute's shape (from `blobs`,
        by default the process-wide BLOBS)."""
        data, t = (BLOBS if blobs is None else blobs)[self.handle], self.type
        et, n = t.element_type, t.num_elements
        if len(data) != n * _nbytes(et):
            raise ValueError(f"resource '{self.handle}' has {len(data)} bytes, {t} needs "
                             f"{n * _nbytes(et)}")
        e = _decode(et, data, n)
        return e.reshape(t.shape + e.shape[1:])


# [Note: blob lifetimes]
# A blob (BLOBS, the builtin dialect's resources) is data the IR refers to by name: a
# model's weights, read in place from an ONNX file or lent by a torch tensor's storage,
# or packed by a pass. Every compile adds blobs to the process-wide table, so a process
# that compiles many models (torch.compile's recompiles, a server) must release them:
# a blob lives as long as a `dense_resource` attribute naming it does. Those
# attributes are uniqued weakly (`_RESOURCE_ATTRS`, not the strong table of the other
# attributes), held by the ops whose properties hold them: the IR of a module, and so
# a compiled model, which keeps its module (the interpreter reads the weights from it,
# the CPU target's bound weights are its blobs' memory or copies of it); one loaded
# from the compiled-model cache holds none. When the last attribute naming a blob
# dies, its module and any compiled model of it gone, the blob goes (`_attr_gone`).
# A blob that no attribute ever named (a resource printed but unused) stays, as before.
# Releasing a lent blob also releases the torch tensor storage it read in place.
_RESOURCE_ATTRS = weakref.WeakValueDictionary()   # (type, handle) -> the attribute
WEAKLY_UNIQUED.add(DenseResourceElementsAttr)
_USERS: dict = {}                                 # handle -> live attributes naming it


def _attr_gone(handle):
    n = _USERS.get(handle, 0) - 1
    if n > 0:
        _USERS[handle] = n
        return
    _USERS.pop(handle, None)
    BLOBS.discard(handle)


def encode_blob(data: bytes, alignment: int) -> str:
    """MLIR's text form of a resource blob: "0x" + little-endian u32 alignment + data."""
    return "0x" + (struct.pack("<I", alignment) + bytes(data)).hex().upper()


def decode_blob(hexstr: str, key: str | None = None) -> tuple[int, bytes]:
    """Inverse of encode_blob (quotes around the string are accepted); errors are
    worded as upstream's, naming the resource `key` when given. As MLIR's parser, a blob
    without data is the empty blob whatever alignment it states (alignment 0, printed
    "0x00000000"); one with data needs a power-of-2 alignment."""
    s = hexstr[1:-1] if hexstr[:1] == '"' and hexstr[-1:] == '"' else hexstr
    what = "expected hex string blob" + (f" for key '{key}'" if key is not None else "")
    if not s.startswith("0x") or len(s) % 2 or not re.fullmatch("[0-9a-fA-F]*", s[2:]):
        raise ValueError(what)
    raw = bytes.fromhex(s[2:])
    if len(raw) < 4:
        raise ValueError(what + " to encode alignment in first 4 bytes")
    align = struct.unpack("<I", raw[:4])[0]
    if len(raw) == 4:
        return 0, b""
    if align == 0 or align & (align - 1):
        raise ValueError(what + " to encode alignment in first 4 bytes, but got "
                         f"non-power-of-2 value: {align}")
    return align, raw[4:]


def _blob_bytes(data):
    """`data` as a blob holds it: bytes, or a read-only flat memoryview of bytes as it is
    (the weights an ONNX file holds, read in place: no copy; frontends/onnx/wire.py)."""
    if type(data) is bytes:
        return data
    if isinstance(data, memoryview) and data.readonly and data.ndim == 1 and \
            data.format == "B" and data.c_contiguous:
        return data
    return bytes(data)


def _same_bytes(a, b) -> bool:
    """Whether blob data `a` and `b` hold the same bytes: a memcmp-speed comparison, a
    MiB at a time (memoryviews compare element by element: 0.12 s for the 154 MB of a
    packed GPT-2 lm_head compiled twice in one process)."""
    if a is b:
        return True
    if len(a) != len(b):
        return False
    if type(a) is bytes and type(b) is bytes:
        return a == b
    x, y = np.frombuffer(a, np.uint8), np.frombuffer(b, np.uint8)
    step = 1 << 20
    return all(np.array_equal(x[i:i + step], y[i:i + step]) for i in range(0, x.size, step))


class ResourceBlobs:
    """The builtin dialect's resources: name -> (alignment, bytes), in insertion order
    (a blob's data is bytes or a read-only memoryview of bytes: see _blob_bytes).

    [Note: lent blobs]
    A blob set with `lent=True` reads memory that is not the blob's own and that its
    owner may write after the compile: a torch tensor's storage, read in place by the
    torch importer ([Note: tensor literals]). Its bytes are the weight while the compile
    runs (nothing in a compile writes a blob), but whatever keeps them past the compile
    (a target binding a compiled model's weights: cpu's externalize_weights) copies
    them first, so a compiled model holds the weights as they were at compile time.
    Bytes from a file or a bytes object are not lent: nobody writes them."""

    def __init__(self, entries=None):
        self._blobs: dict[str, tuple[int, bytes]] = {}
        self._lent: set[str] = set()
        for name, text in (entries or {}).items():
            self._blobs[name] = decode_blob(text)

    def add(self, name: str, data: bytes, alignment: int = 8) -> str:
        """Add a blob; returns the name used (`name`, or `name_N` when taken by other
        data, as MLIR renames conflicting resources)."""
        data, base, i = _blob_bytes(data), name, 0
        while name in self._blobs and not (self._blobs[name][0] == alignment and
                                           _same_bytes(self._blobs[name][1], data)):
            i += 1
            name = f"{base}_{i}"
        self._blobs[name] = (alignment, data)
        self._lent.discard(name)
        return name

    def set(self, name: str, data: bytes, alignment: int = 8, lent: bool = False) -> None:
        """Add or replace the blob `name` (a read-only flat memoryview of bytes is kept
        as it is, not copied; `lent`: see [Note: lent blobs])."""
        self._blobs[name] = (alignment, _blob_bytes(data))
        if lent:
            self._lent.add(name)
        else:
            self._lent.discard(name)

    def discard(self, name) -> None:
        """Remove blob `name` if present ([Note: blob lifetimes])."""
        self._blobs.pop(name, None)
        self._lent.discard(name)

    def lent(self, name) -> bool:
        """Whether blob `name`'s bytes are lent ([Note: lent blobs]): to be copied by
        whatever keeps them past the compile."""
        return name in self._lent

    def __getitem__(self, name) -> bytes:
        return self._blobs[name][1]

    def alignment(self, name) -> int:
        return self._blobs[name][0]

    def __contains__(self, name):
        return name in self._blobs

    def __iter__(self):
        # (a snapshot: a blob may go while the caller iterates, [Note: blob lifetimes])
        return iter(list(self._blobs))

    def __len__(self):
        return len(self._blobs)

    def entries(self, names=None) -> dict[str, str]:
        """name -> blob text, for `names` (default all) in that order."""
        return {n: encode_blob(self._blobs[n][1], self._blobs[n][0])
                for n in (list(self._blobs) if names is None else names)}

    def print_section(self, names=None) -> str:
        """The `{-# dialect_resources: {builtin: {...}} #-}` block iree-opt prints after
        the module (without the blank line before it); "" when there is nothing."""
        ent = self.entries(names)
        if not ent:
            return ""
        lines = ",\n".join(f'      {_keyword_or_string(n)}: "{v}"' for n, v in ent.items())
        return ("{-#\n  dialect_resources: {\n    builtin: {\n" + lines +
                "\n    }\n  }\n#-}")


def own_lent_blobs(top, blobs: ResourceBlobs | None = None) -> int:
    """Give every lent blob ([Note: lent blobs]) that an op in `top` (itself included)
    reads through a `dense_resource` property a copy of its bytes as its own: what a
    target that reads the IR's constants when the compiled model runs (an interpreter)
    does before loading. Returns the number of blobs copied."""
    blobs = BLOBS if blobs is None else blobs
    if not blobs._lent:
        return 0
    n = 0
    for op in top.walk():
        for v in op.properties.values():
            if isinstance(v, DenseResourceElementsAttr) and blobs.lent(v.handle):
                blobs.set(v.handle, bytes(blobs[v.handle]), blobs.alignment(v.handle))
                n += 1
    return n


# The builtin dialect's blobs, process-wide like attribute uniquing (MLIR keeps them in
# the context). The text parser fills it, dense_resource attributes read from it.
BLOBS = ResourceBlobs()


def attach_resources(top, resources, external=None) -> None:
    """Record the resources of a parsed `{-# ... #-}` section. `resources` maps
    (dialect, name) -> (value, offset of the value in the text) for the
    `dialect_resources` entries: the builtin dialect's are blobs, kept in BLOBS (a name
    already known gets the new data: the last parsed module wins, where MLIR would
    rename the new blob). `external` maps owner -> {name: (value, offset)} for the
    `external_resources` entries, which nothing here interprets: they are kept with
    `top` and printed back after it, as upstream's fallback resource map does (a
    "0x..." string is a blob, printed in upper case; others strings or booleans)."""
    for (owner, name), (value, offset) in resources.items():
        if owner == "builtin":
            if not isinstance(value, str):
                raise DenseParseError(f"expected hex string blob for key '{name}'", offset)
            try:
                alignment, data = decode_blob(value, name)
            except ValueError as e:
                raise DenseParseError(str(e), offset) from None
            BLOBS.set(name, data, alignment)
    if not external:
        return
    kept = {}
    for owner, entries in external.items():
        out = kept.setdefault(owner, {})
        for name, (value, offset) in entries.items():
            if isinstance(value, str) and value.startswith("0x"):
                try:
                    value = encode_blob(*reversed(decode_blob(value, name)))
                except ValueError as e:
                    raise DenseParseError(str(e), offset) from None
                value = _Blob(value)
            elif not isinstance(value, (str, bool)):
                raise DenseParseError(f"expected string value for key '{name}'", offset)
            out[name] = value
    kept = {o: e for o, e in kept.items() if e}
    if top is not None and kept:
        try:
            _EXTERNAL[top] = kept
        except TypeError:  # an op class without weak references: not a module
            pass


class _Blob(str):
    """The hex text of an external resource blob (printed without escaping)."""


# The external resources of parsed top-level ops (upstream keeps them in the parser
# config's fallback resource map, printed with the IR).
_EXTERNAL = weakref.WeakKeyDictionary()


def print_resource_section(used, top=None) -> str:
    """The section printed after a module: "\n{-#...#-}\n" for the builtin blobs in
    `used` (resource keys, in first-use order) that BLOBS holds and the external
    resources parsed with `top`, else ""."""
    names = [n for d, n in used if d == "builtin" and n in BLOBS]
    try:
        external = _EXTERNAL.get(top) if top is not None else None
    except TypeError:  # not weakly referenceable: cannot have any
        external = None
    if not names and not external:
        return ""
    sections = []
    if names:
        sections.append(BLOBS.print_section(names)[len("{-#\n"):-len("\n#-}")])
    if external:
        groups = []
        for owner, entries in external.items():
            lines = ",\n".join(f"      {_keyword_or_string(k)}: {_resource_value(v)}"
                               for k, v in entries.items())
            groups.append(f"    {_keyword_or_string(owner)}: {{\n{lines}\n    }}")
        sections.append("  external_resources: {\n" + ",\n".join(groups) + "\n  }")
    return "\n{-#\n" + ",\n".join(sections) + "\n#-}\n"


def _resource_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, _Blob):
        return f'"{v}"'
    return '"' + _escape_bytes(_to_bytes(v)) + '"'


# ------------------------------------------------------------------ parsing

_SKIP = re.compile(r"(?:[ \t\r\n]+|//[^\n]*)*")
_NUMBER = re.compile(r"0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?")
_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*")
# A string literal up to its closing quote (MLIR's escapes: \" \\ \n \t \XX).
_STRING = re.compile(r'"(?:[^"\\\n]|\\["\\nt]|\\[0-9a-fA-F]{2})*')
_ESCAPE = re.compile(rb'\\(["\\nt]|[0-9a-fA-F]{2})')
_PUNCT = set("[](),<>{}:=?*+|@#%^!")


def _lex(text: str, pos: int):
    """The token at `pos` (after whitespace/comments): (kind, start, end)."""
    pos = _SKIP.match(text, pos).end()
    if pos >= len(text):
        return "eof", pos, pos
    c = text[pos]
    if "0" <= c <= "9":
        m = _NUMBER.match(text, pos)
        return ("float" if "." in m.group() else "integer"), pos, m.end()
    if c.isascii() and (c.isalpha() or c == "_"):
        end = _IDENT.match(text, pos).end()
        word = text[pos:end]
        return ("kw_" + word if word in ("true", "false") else "ident"), pos, end
    if c == '"':
        end = text.find('"', pos + 1)  # fast path for long hex strings: no escapes
        if end > 0 and text.find("\\", pos, end) < 0 and text.find("\n", pos, end) < 0:
            return "string", pos, end + 1
        end = _STRING.match(text, pos).end()
        if text[end:end + 1] == '"':
            return "string", pos, end + 1
        if text[end:end + 1] == "\\":
            raise DenseParseError("unknown escape in string literal", end)
        raise DenseParseError("expected '\"' in string literal", pos)
    if c == "-":
        return ("arrow" if text[pos + 1:pos + 2] == ">" else "minus"), pos, pos + 1
    if c == ".":
        if text.startswith("...", pos):
            return "ellipsis", pos, pos + 3
        raise DenseParseError("expected three consecutive dots for an ellipsis", pos + 1)
    if c in _PUNCT:
        return c, pos, pos + 1
    raise DenseParseError("unexpected character", pos)


def _string_value(spelling: str) -> bytes:
    """The bytes a string token stands for."""
    def esc(m):
        e = m[1]
        return {b"n": b"\n", b"t": b"\t"}.get(e, e) if len(e) == 1 else bytes([int(e, 16)])
    return _ESCAPE.sub(esc, spelling[1:-1].encode("utf-8", "surrogateescape"))


class DenseLiteral:
    """A parsed `dense<...>` body, before its type is known (the type follows the
    literal in the text). `build(type)` checks it against the type, as MLIR's
    TensorLiteralParser::getAttr does."""

    __slots__ = ("shape", "storage", "hex")

    def __init__(self):
        self.shape: tuple = ()       # from brackets; () for a bare element or empty body
        self.storage: list = []      # (negated, kind, offset, spelling) per scalar
        self.hex = None              # (offset, spelling) of a top-level string

    def build(self, type) -> DenseElementsAttr:
        if not isinstance(type, ShapedType):
            raise DenseParseError("elements literal must be a shaped type", None)
        if not type.has_rank or not type.has_static_shape:
            raise DenseParseError("elements literal type must have static shape", None)
        et, n = type.element_type, type.num_elements
        if self.hex is not None and _is_numeric(et):
            return self._build_hex(type)
        if self.shape and self.shape != type.shape:
            raise DenseParseError(
                f"inferred shape of elements literal ([{', '.join(map(str, self.shape))}]) "
                f"does not match type ([{', '.join(map(str, type.shape))}])", None)
        if self.hex is None and not self.storage and n:
            raise DenseParseError(
                f"parsed zero elements, but type ('{type}') expected at least 1", None)
        count = len(self.storage)
        if isinstance(et, ComplexType):
            if not self.shape and n and count != 2:
                raise DenseParseError(
                    f"parsed {count} elements, but type ('{et}') expected 2 elements", None)
            if self.shape and count != 2 * n:
                raise DenseParseError(f"parsed {count} elements, but type ('{type}') "
                                      f"expected {2 * n} elements", None)
            count //= 2
        elif not _is_numeric(et):
            return self._build_strings(type)
        elif count not in (1, n):
            raise DenseParseError(f"parsed {count} elements, but type ('{type}') "
                                  f"expected {n} elements", None)
        st = et.element_type if isinstance(et, ComplexType) else et
        k = _scalar_info(st)[0]
        convert = _float_element if isinstance(st, FloatType) else _int_element
        vals = []
        for neg, kind, off, sp in self.storage:
            try:
                vals.append(convert(st, neg, kind, sp))
            except _ElemError as e:
                raise DenseParseError(e.message, off, e.note) from None
        return DenseElementsAttr.from_raw(type, _pack_uints(vals, k))

    def _build_hex(self, type):
        off, sp = self.hex
        try:
            raw = bytes.fromhex(sp[3:-1]) if sp.startswith('"0x') else None
        except ValueError:
            raw = None
        if raw is None or 2 * len(raw) != len(sp) - 4:  # (fromhex skips blanks)
            raise DenseParseError("expected string containing hex digits starting with `0x`", off)
        k = _nbytes(type.element_type)
        if len(raw) != k and len(raw) != k * type.num_elements:
            raise DenseParseError(
                f"elements hex data size is invalid for provided type: '{type}'", None)
        return DenseElementsAttr.from_raw(type, raw)

    def _build_strings(self, type):
        if self.hex is not None:
            return DenseStringElementsAttr(type, _string_value(self.hex[1]))
        for neg, kind, off, sp in self.storage:
            if kind != "string":
                raise DenseParseError(f"expected string token, got {sp}", None)
        return DenseStringElementsAttr(type, [_string_value(s[3]) for s in self.storage])


def _int_element(t, neg, kind, sp) -> int:
    """The element as an unsigned int of t's width (MLIR's buildAttributeAPInt)."""
    unsigned = isinstance(t, IntegerType) and t.signedness == IntegerType.UNSIGNED
    if neg and unsigned:
        raise _ElemError("expected unsigned integer elements, but parsed negative value")
    if kind == "float":
        raise _ElemError("expected integer elements, but parsed floating-point")
    if kind in ("kw_true", "kw_false"):
        if not (isinstance(t, IntegerType) and t.width == 1):
            raise _ElemError("expected i1 type for 'true' or 'false' values")
        return int(kind == "kw_true")
    if kind != "integer":
        raise _ElemError("integer constant out of range for type")
    v = int(sp, 16 if sp[1:2] == "x" else 10)
    w = t.width
    signed = isinstance(t, IndexType) or t.signedness == IntegerType.SIGNED
    if v >> w or (neg and not 1 <= v <= 1 << (w - 1)) or (not neg and signed and v >> (w - 1)):
        raise _ElemError("integer constant out of range for type")
    return (-v if neg else v) & ((1 << w) - 1)


def _float_element(t, neg, kind, sp) -> int:
    """The element's bit pattern (MLIR's parseFloatFromLiteral)."""
    name = t.name
    if kind == "float":
        return _decimal_bits(name, sp, neg)
    if kind != "integer":
        raise _ElemError("expected floating point literal")
    if sp[1:2] != "x":
        raise _ElemError("unexpected decimal integer literal for a floating point value",
                         "add a trailing dot to make the literal a float")
    if neg:
        raise _ElemError("hexadecimal float literal should not have a leading minus")
    v = int(sp, 16)
    if v.bit_length() > FLOAT_KINDS[name]:
        raise _ElemError("hexadecimal float constant out of range for type")
    return v


def _wrong_token_offset(text, pos, kind):
    """Where MLIR's emitWrongTokenError reports a missing token: just after the previous
    token, backing over blanks, line ends and `//` comments."""
    if kind == "eof":
        pos = max(pos - 1, 0)
    orig = pos
    while True:
        while pos and text[pos - 1] in " \t":
            pos -= 1
        if not pos:
            return orig
        if text[pos - 1] not in "\n\r":
            return pos
        pos -= 1
        comment = text.find("//", max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos), 0), pos)
        if comment >= 0:
            pos = comment


class _Parser:
    def __init__(self, text, pos):
        self.text = text
        self.kind, self.start, self.end = _lex(text, pos)
        self.lit = DenseLiteral()

    def advance(self):
        self.kind, self.start, self.end = _lex(self.text, self.end)

    def expect(self, kind, message):
        if self.kind != kind:
            raise DenseParseError(message, _wrong_token_offset(self.text, self.start, self.kind))
        self.advance()

    def element(self):
        k = self.kind
        if k in ("kw_true", "kw_false", "float", "integer", "string"):
            self.lit.storage.append((False, k, self.start, self.text[self.start:self.end]))
            self.advance()
        elif k == "minus":
            self.advance()
            if self.kind not in ("float", "integer"):
                raise DenseParseError("expected integer or floating point literal", self.start)
            self.lit.storage.append((True, self.kind, self.start,
                                     self.text[self.start:self.end]))
            self.advance()
        elif k == "(":
            self.advance()
            self.element()
            self.expect(",", "expected ',' between complex elements")
            self.element()
            self.expect(")", "expected ')' after complex elements")
        else:
            raise DenseParseError("expected element literal of primitive type", self.start)

    def list(self) -> tuple:
        self.advance()  # '['
        if self.kind == "]":
            self.advance()
            return (0,)
        size, inner = 0, None
        while True:
            if self.kind == "[":
                dims = self.list()
            else:
                self.element()
                dims = ()
            size += 1
            if inner is None:
                inner = dims
            elif dims != inner:
                raise DenseParseError(
                    "tensor literal is invalid; ranks are not consistent between elements",
                    self.start)
            if self.kind != ",":
                break
            self.advance()
        self.expect("]", "expected ']'")
        return (size,) + inner


def parse_dense_literal(text: str, pos: int = 0, closer: str = ">"
                        ) -> tuple[DenseLiteral, int]:
    """Parse a dense literal starting at `pos` (just after `dense<`) through its closing
    `>` (or `closer`: `,` after the indices of `sparse<`); returns the literal and the
    offset after the closer. Error offsets index `text`."""
    p = _Parser(text, pos)
    if p.kind != closer and not (closer == "," and p.kind == ">"):
        if p.kind == "string":
            p.lit.hex = (p.start, text[p.start:p.end])
            p.advance()
        elif p.kind == "[":
            p.lit.shape = p.list()
        else:
            p.element()
    if p.kind != closer:  # not expect(): the text after `>` is not ours to lex
        raise DenseParseError(f"expected '{closer}'",
                              _wrong_token_offset(text, p.start, p.kind))
    return p.lit, p.end


class SparseElementsAttr(Attribute):
    """`sparse<indices, values> : type`: a shaped constant that is zero but at
    `indices` (an N x rank i64 dense attribute, or N for rank 1), which hold `values`
    (N elements). `sparse<> : type` is all zeros.

        sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>

    As upstream, a literal given as one element stands for one index (or one value
    per index), and equal elements print as a splat (`sparse<1, 3> : tensor<4xi64>`)."""

    __slots__ = ("type", "indices", "values")

    def __new__(cls, type, indices, values):
        def init(o):
            o.type = type
            o.indices = indices
            o.values = values
        return unique(cls, (type, indices, values), init)

    def _print(self):
        if self.indices.num_elements == 0:
            return f"sparse<> : {self.type}"
        return (f"sparse<{self.indices.print_body(None)}, {self.values.print_body()}> : "
                f"{self.type}")

    def verify(self):
        """Upstream's SparseElementsAttr::verify: the message, or None."""
        t, it, vt = self.type, self.indices.type, self.values.type
        if len(vt.shape) != 1:
            return "expected 1-d tensor for sparse element values"

        def dims(shape):
            return ", ".join(map(str, shape))
        shape_error = (f"expected shape ([{dims(t.shape)}]); inferred shape of indices "
                       f"literal ([{dims(it.shape)}]); inferred shape of values literal "
                       f"([{dims(vt.shape)}])")
        rank = len(t.shape)
        if len(it.shape) == 2:
            if it.shape[1] != rank:
                return shape_error
        elif len(it.shape) != 1 or rank != 1:
            return shape_error
        if it.shape[0] != vt.shape[0]:
            return shape_error
        idx = np.asarray(self.indices.array).reshape(it.shape[0], rank)
        for n, index in enumerate(idx.tolist()):
            if any(i < 0 or (d >= 0 and i >= d) for i, d in zip(index, t.shape)):
                return (f"sparse index #{n} is not contained within the value shape, with "
                        f"index=[{', '.join(map(str, index))}], and type='{t}'")
        return None


def parse_sparse_body(text: str, pos: int, type_of):
    """`sparse<` ... `>` starting at `pos` (after the `<`): returns (indices literal,
    values literal, offset after the `>`), either None for `sparse<>`."""
    p = _Parser(text, pos)
    if p.kind == ">":
        return None, None, p.end
    indices, end = parse_dense_literal(text, pos, ",")
    if indices.hex is not None:
        raise DenseParseError("hex string should not be used for sparse indices",
                              indices.hex[0])
    values, end = parse_dense_literal(text, end)
    return indices, values, end


def build_sparse(type, indices, values) -> SparseElementsAttr:
    """The attribute from its parsed literals (None, None: `sparse<>`), shaped as
    upstream shapes them; raises DenseParseError or ValueError."""
    rank = len(type.shape)
    et = type.element_type
    i64 = IntegerType(64)
    if indices is None:
        return SparseElementsAttr(type, DenseElementsAttr(RankedTensorType((0, rank), i64),
                                                          np.zeros(0, np.int64)),
                                  DenseElementsAttr(RankedTensorType((0,), et),
                                                    np.zeros(0, np.int64)))
    ishape = indices.shape if indices.shape else (1, rank)
    ind = indices.build(RankedTensorType(ishape, i64))
    vshape = values.shape if values.shape else (ishape[0],)
    val = values.build(RankedTensorType(vshape, et))
    return SparseElementsAttr(type, ind, val)


def parse_dense_body(text: str, type) -> DenseElementsAttr:
    """The attribute `dense<text> : type`; raises DenseParseError."""
    lit, end = parse_dense_literal(text + ">")
    if end != len(text) + 1:  # a '>' inside text ended the literal early
        raise DenseParseError("expected ':'", end)
    return lit.build(type)


# ------------------------------------------------------------------ NumPy helpers

def _ml_dtype_float(dtype: np.dtype):
    """The float kind of an ml_dtypes dtype (float8_e4m3fn -> f8E4M3FN), else None.
    Such arrays are passed on as bit patterns; ml_dtypes itself is not needed."""
    if dtype.name == "bfloat16":
        return "bf16"
    m = re.fullmatch(r"float(\d)_(e\w+)", dtype.name)
    name = m and f"f{m[1]}{m[2].upper()}"
    return name if name in _FMT else None


def _element_type_for(dtype: np.dtype, signless: bool):
    if _ml_dtype_float(dtype):
        return FloatType(_ml_dtype_float(dtype))
    if dtype.kind == "b":
        return IntegerType(1)
    if dtype.kind in "iu":
        sign = IntegerType.UNSIGNED if dtype.kind == "u" and not signless else 0
        return IntegerType(dtype.itemsize * 8, sign)
    if dtype.kind == "f" and dtype.itemsize in (2, 4, 8):
        return FloatType("f%d" % (dtype.itemsize * 8))
    if dtype.kind == "c" and dtype.itemsize in (8, 16):
        return ComplexType(FloatType("f%d" % (dtype.itemsize * 4)))
    raise TypeError(f"no MLIR element type for NumPy dtype {dtype}; pass a type")


def dense_from_numpy(array, type=None, signless: bool = True) -> DenseElementsAttr:
    """A dense attribute holding `array`; without `type`, a tensor of the array's shape
    whose element type follows the dtype (unsigned ints are signless unless asked)."""
    a = np.asarray(array)
    if type is None:
        type = RankedTensorType(a.shape, _element_type_for(a.dtype, signless))
    if _ml_dtype_float(a.dtype):
        a = a.view("u%d" % a.dtype.itemsize)
    return DenseElementsAttr(type, a)


def to_numpy(attr, blobs: ResourceBlobs | None = None) -> np.ndarray:
    """The read-only array of a dense (or, given its blobs, dense_resource) attribute."""
    if isinstance(attr, DenseResourceElementsAttr):
        if blobs is None:
            raise ValueError("dense_resource needs the resource blobs")
        return attr.array(blobs)
    return attr.array
