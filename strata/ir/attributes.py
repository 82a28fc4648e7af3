"""Builtin types and attributes: immutable and uniqued (hash-consed).

[Note: uniquing]
Every type and attribute is created through its class constructor, which looks the
parameters up in one process-wide table and returns the existing object when there is
one. Equality is therefore identity: `is`, `==` and `hash` are the fast object defaults,
and dictionaries keyed by types cost one pointer hash. The printed form of an object is
computed once and cached in `_str`, since the same `i32` or `tensor<4xf32>` is printed
thousands of times in a module.

Types are attributes in the sense that both are uniqued, immutable values, but they are
kept as distinct class trees (`Type` and `Attribute`) as in MLIR so that a type can never
stand where an attribute is expected.
"""
from __future__ import annotations

import math
import struct
from fractions import Fraction

__all__ = [
    "DYNAMIC", "Attribute", "Type", "IntegerType", "IndexType", "NoneType", "FloatType",
    "ComplexType", "TupleType", "FunctionType", "ShapedType", "VectorType",
    "RankedTensorType", "UnrankedTensorType", "MemRefType", "UnrankedMemRefType",
    "OpaqueType", "IntegerAttr", "FloatAttr", "StringAttr", "UnitAttr", "ArrayAttr",
    "DenseArrayAttr", "DictionaryAttr", "TypeAttr", "SymbolRefAttr", "OpaqueAttr",
    "StridedLayoutAttr", "DistinctAttr", "BoolAttr", "unique", "i1", "i8", "i16", "i32",
    "i64", "f16", "bf16", "f32", "f64", "index", "escape_string", "format_float",
]

# The value MLIR uses for a dynamic dimension or offset (ShapedType::kDynamic).
DYNAMIC = -(2 ** 63)

_UNIQUE: dict = {}
# The attribute classes uniqued weakly instead (dense_resource, whose instances decide
# how long their blobs live: [Note: blob lifetimes] in ir/dense.py): memos keyed by
# attributes leave them out.
WEAKLY_UNIQUED: set = set()

# While the printer prints a module it installs a hook here through which every
# `str(attribute)` goes: the hook substitutes aliases (`#map`), numbers distinct
# attributes and records dense resources (see strata/syntax/aliases.py). None otherwise.
_print_hook = None


def set_print_hook(hook):
    """Install `hook(attr) -> str` for str() of every attribute; returns the old hook."""
    global _print_hook
    old = _print_hook
    _print_hook = hook
    return old


def unique(cls, key, init):
    """Return the one instance of `cls` with parameters `key`, creating it with `init`."""
    k = (cls, key)
    obj = _UNIQUE.get(k)
    if obj is None:
        obj = object.__new__(cls)
        obj._str = None
        init(obj)
        _UNIQUE[k] = obj
    return obj


class Attribute:
    """Base of all attributes. Subclasses set their fields once, in `init`."""

    __slots__ = ("_str",)
    # Name of the dialect that owns the attribute kind ("builtin" for these).
    dialect = "builtin"

    def __str__(self) -> str:
        if _print_hook is not None:
            return _print_hook(self)
        s = self._str
        if s is None:
            s = self._str = self._print()
        return s

    def __repr__(self) -> str:
        s = self._str
        if s is None:
            s = self._str = self._print()
        return s

    def _print(self) -> str:  # pragma: no cover - every subclass prints
        raise NotImplementedError

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):  # uniqued values are not pickled
        raise TypeError("strata attributes are not picklable")


class Type(Attribute):
    """Base of all types."""

    __slots__ = ()


# ---------------------------------------------------------------------------- types


class IntegerType(Type):
    __slots__ = ("width", "signedness")
    SIGNLESS, SIGNED, UNSIGNED = 0, 1, 2

    def __new__(cls, width: int, signedness: int = 0):
        def init(o):
            o.width = width
            o.signedness = signedness
        return unique(cls, (width, signedness), init)

    def _print(self):
        return ("i", "si", "ui")[self.signedness] + str(self.width)

    @property
    def is_signless(self):
        return self.signedness == 0


class IndexType(Type):
    __slots__ = ()
    width = 64

    def __new__(cls):
        return unique(cls, (), lambda o: None)

    def _print(self):
        return "index"


class NoneType(Type):
    __slots__ = ()

    def __new__(cls):
        return unique(cls, (), lambda o: None)

    def _print(self):
        return "none"


# name -> (bit width, numpy-ish format, mantissa bits, exponent bits)
FLOAT_KINDS = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19,
    "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
    "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6,
    "f4E2M1FN": 4,
}


class FloatType(Type):
    __slots__ = ("name", "width")

    def __new__(cls, name: str):
        width = FLOAT_KINDS[name]

        def init(o):
            o.name = name
            o.width = width
        return unique(cls, name, init)

    def _print(self):
        return self.name


class ComplexType(Type):
    __slots__ = ("element_type",)

    def __new__(cls, element_type: Type):
        def init(o):
            o.element_type = element_type
        return unique(cls, element_type, init)

    def _print(self):
        return f"complex<{self.element_type}>"


class TupleType(Type):
    __slots__ = ("types",)

    def __new__(cls, types):
        types = tuple(types)

        def init(o):
            o.types = types
        return unique(cls, types, init)

    def _print(self):
        return "tuple<" + ", ".join(map(str, self.types)) + ">"


def _print_type_list(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


class FunctionType(Type):
    __slots__ = ("inputs", "results")

    def __new__(cls, inputs, results):
        inputs = tuple(inputs)
        results = tuple(results)

        def init(o):
            o.inputs = inputs
            o.results = results
        return unique(cls, (inputs, results), init)

    def _print(self):
        res = self.results
        if len(res) == 1 and not isinstance(res[0], FunctionType):
            r = str(res[0])
        else:
            r = _print_type_list(res)
        return _print_type_list(self.inputs) + " -> " + r


def _dims(shape) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


class ShapedType(Type):
    """Common accessors of vector, tensor and memref types."""

    __slots__ = ()
    shape: tuple = ()
    element_type: Type

    @property
    def rank(self):
        return len(self.shape)

    @property
    def has_rank(self):
        return True

    @property
    def has_static_shape(self):
        return DYNAMIC not in self.shape

    @property
    def num_elements(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def is_dynamic_dim(self, i):
        return self.shape[i] == DYNAMIC

    @property
    def num_dynamic_dims(self):
        return sum(1 for d in self.shape if d == DYNAMIC)


class VectorType(ShapedType):
    __slots__ = ("shape", "element_type", "scalable_dims")

    def __new__(cls, shape, element_type, scalable_dims=None):
        shape = tuple(shape)
        sc = tuple(bool(s) for s in scalable_dims) if scalable_dims else (False,) * len(shape)
        if not any(sc):
            sc = (False,) * len(shape)

        def init(o):
            o.shape = shape
            o.element_type = element_type
            o.scalable_dims = sc
        return unique(cls, (shape, element_type, sc), init)

    def _print(self):
        dims = "".join((f"[{d}]" if s else str(d)) + "x"
                       for d, s in zip(self.shape, self.scalable_dims))
        return f"vector<{dims}{self.element_type}>"


class RankedTensorType(ShapedType):
    __slots__ = ("shape", "element_type", "encoding")

    def __new__(cls, shape, element_type, encoding=None):
        shape = tuple(shape)

        def init(o):
            o.shape = shape
            o.element_type = element_type
            o.encoding = encoding
        return unique(cls, (shape, element_type, encoding), init)

    def _print(self):
        enc = f", {self.encoding}" if self.encoding is not None else ""
        return f"tensor<{_dims(self.shape)}{self.element_type}{enc}>"


class UnrankedTensorType(ShapedType):
    __slots__ = ("element_type",)

    def __new__(cls, element_type):
        def init(o):
            o.element_type = element_type
        return unique(cls, element_type, init)

    @property
    def has_rank(self):
        return False

    @property
    def shape(self):
        raise ValueError("unranked tensor has no shape")

    def _print(self):
        return f"tensor<*x{self.element_type}>"


def _memory_space(ms):
    """A memref's memory space as MLIR keeps it: the integer 0 is the default space, so
    `memref<4xf32, 0>` is `memref<4xf32>` (skipDefaultMemorySpace)."""
    if type(ms) is IntegerAttr and ms.value == 0:
        return None
    return ms


class MemRefType(ShapedType):
    __slots__ = ("shape", "element_type", "layout", "memory_space")

    def __new__(cls, shape, element_type, layout=None, memory_space=None):
        shape = tuple(shape)
        memory_space = _memory_space(memory_space)
        # An identity affine map is the default layout: MLIR drops it.
        m = getattr(layout, "value", None)
        if m is not None and type(layout).__name__ == "AffineMapAttr" and \
                m.is_identity() and m.num_dims == len(shape):
            layout = None

        def init(o):
            o.shape = shape
            o.element_type = element_type
            o.layout = layout
            o.memory_space = memory_space
        return unique(cls, (shape, element_type, layout, memory_space), init)

    def _print(self):
        s = f"memref<{_dims(self.shape)}{self.element_type}"
        if self.layout is not None:
            s += f", {self.layout}"
        if self.memory_space is not None:
            s += f", {str_type_elided(self.memory_space)}"
        return s + ">"


class UnrankedMemRefType(ShapedType):
    __slots__ = ("element_type", "memory_space")

    def __new__(cls, element_type, memory_space=None):
        memory_space = _memory_space(memory_space)

        def init(o):
            o.element_type = element_type
            o.memory_space = memory_space
        return unique(cls, (element_type, memory_space), init)

    @property
    def has_rank(self):
        return False

    def _print(self):
        ms = f", {str_type_elided(self.memory_space)}" if self.memory_space is not None else ""
        return f"memref<*x{self.element_type}{ms}>"


class OpaqueType(Type):
    """A type of an unregistered dialect, kept as text: `!dialect.body` or `!dialect<body>`."""

    __slots__ = ("dialect_name", "body")

    def __new__(cls, dialect_name, body):
        def init(o):
            o.dialect_name = dialect_name
            o.body = body
        return unique(cls, (dialect_name, body), init)

    def _print(self):
        return f"!{self.dialect_name}{self.body}"


# ------------------------------------------------------------------------ attributes


def escape_string(s: str) -> str:
    """Escape a string the way MLIR's printEscapedString does (bytes as \\XX hex)."""
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return s
    out = []
    for b in s.encode("utf-8", "surrogateescape"):
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif 0x20 <= b < 0x7F and c != '"':
            out.append(c)
        else:
            out.append("\\%02X" % b)
    return "".join(out)


def _apfloat_scientific(x: float) -> str:
    # APFloat::toString(precision=6, padding=0): d.dddddde+XX
    s = "%.6e" % x
    mant, exp = s.split("e")
    e = int(exp)
    return f"{mant}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def _round_to(x: float, width_name: str) -> float:
    if width_name == "f32":
        return struct.unpack("<f", struct.pack("<f", x))[0]
    if width_name == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    return x


def _apfloat_default(x: float) -> str:
    """APFloat::toString() with shortest digits and max padding 3."""
    r = repr(x)
    if "e" in r or "E" in r:
        mant, exp = r.split("e")
        e = int(exp)
        digits = mant.replace("-", "").replace(".", "")
        neg = mant.startswith("-")
        # Use plain notation when padding with at most 3 zeros suffices.
        if e < 0 and -e - 1 <= 3:
            return ("-" if neg else "") + "0." + "0" * (-e - 1) + digits.rstrip("0")
        if "." not in mant:
            mant = mant + ".0"
        return f"{mant}E{'+' if e >= 0 else '-'}{abs(e):02d}"
    if r.endswith(".0") and len(r) > 2:
        ip = r[:-2].lstrip("-")
        stripped = ip.rstrip("0")
        zeros = len(ip) - len(stripped)
        if zeros > 3 and stripped:
            neg = r.startswith("-")
            digits = stripped
            e = len(ip) - 1
            m = digits[0] + "." + (digits[1:] or "0")
            return f"{'-' if neg else ''}{m}E+{e:02d}"
    return r


def format_float(x: float, type_name: str = "f64", bits: int | None = None) -> str:
    """Print a float the way MLIR's printFloatValue does."""
    if math.isfinite(x) and type_name in ("f64", "f32", "f16"):
        s = _apfloat_scientific(x)
        if _round_to(float(s), type_name) == x and (x != 0 or math.copysign(1, x) ==
                                                     math.copysign(1, float(s))):
            return s
        s = _apfloat_default(x)
        if "." in s:
            return s
    if bits is None:
        bits = float_to_bits(x, type_name)
    w = FLOAT_KINDS.get(type_name, 64)
    return "0x%0*X" % ((w + 3) // 4, bits)


def float_to_bits(x: float, type_name: str) -> int:
    if type_name == "f64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if type_name == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    if type_name == "f16":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if type_name == "bf16":
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    raise ValueError(f"no bit pattern conversion for {type_name}")


def bits_to_float(bits: int, type_name: str) -> float:
    if type_name == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if type_name == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if type_name == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if type_name == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    raise ValueError(f"no bit pattern conversion for {type_name}")


class IntegerAttr(Attribute):
    """An integer of an integer or index type; `i1` integers print as true/false."""

    __slots__ = ("value", "type")

    def __new__(cls, value: int, type: Type):
        value = int(value)
        if isinstance(type, IntegerType) and type.width == 1 and type.signedness == 0:
            value = value & 1  # i1 is a bool (true/false); si1 holds -1 and 0
        else:
            # Keep the value as MLIR's APInt reads back: two's complement of the width,
            # signed for signless/signed types (`255 : i8` is `-1 : i8`), unsigned for ui.
            w = 64 if isinstance(type, IndexType) else getattr(type, "width", 0)
            if w:
                value &= (1 << w) - 1
                if value >> (w - 1) and getattr(type, "signedness", 0) != 2:
                    value -= 1 << w

        def init(o):
            o.value = value
            o.type = type
        return unique(cls, (value, type), init)

    def _print(self):
        t = self.type
        if isinstance(t, IntegerType) and t.width == 1 and t.signedness == 0:
            return "true" if self.value else "false"
        return f"{self.value} : {t}"

    def print_value(self) -> str:
        t = self.type
        if isinstance(t, IntegerType) and t.width == 1 and t.signedness == 0:
            return "true" if self.value else "false"
        return str(self.value)


def BoolAttr(value: bool) -> IntegerAttr:
    return IntegerAttr(1 if value else 0, IntegerType(1))


class FloatAttr(Attribute):
    """A float of a float type. `bits` holds the exact bit pattern (NaN payloads)."""

    __slots__ = ("value", "type", "bits")

    def __new__(cls, value: float, type: Type, bits: int | None = None):
        name = type.name
        if bits is None and name in ("f64", "f32", "f16"):
            try:
                bits = float_to_bits(value, name)
            except OverflowError:
                bits = float_to_bits(math.copysign(math.inf, value), name)
            value = bits_to_float(bits, name)
        elif bits is not None and name in ("f64", "f32", "f16"):
            value = bits_to_float(bits, name)
        else:
            # Other kinds (bf16, f8..., f80) round and decode with dense.py's exact
            # APFloat-like semantics; lazy import, dense.py imports this module.
            from . import dense
            if bits is None:
                x = float(value)
                q = "nan" if x != x else "inf" if math.isinf(x) else Fraction(abs(x))
                bits = dense._encode_float(name, math.copysign(1.0, x) < 0, q)
            value = dense._float_value(bits, name)

        def init(o):
            o.value = value
            o.type = type
            o.bits = bits
        key = (bits, type) if bits is not None else (value, type)
        return unique(cls, key, init)

    def print_value(self) -> str:
        from .dense import format_float_bits  # APFloat's printing, exactly
        return format_float_bits(self.bits, self.type.name)

    def _print(self):
        return f"{self.print_value()} : {self.type}"


class StringAttr(Attribute):
    __slots__ = ("value", "type")

    def __new__(cls, value: str, type: Type | None = None):
        def init(o):
            o.value = value
            o.type = type
        return unique(cls, (value, type), init)

    def _print(self):
        s = f'"{escape_string(self.value)}"'
        if self.type is not None:
            s += f" : {self.type}"
        return s


class UnitAttr(Attribute):
    __slots__ = ()

    def __new__(cls):
        return unique(cls, (), lambda o: None)

    def _print(self):
        return "unit"


def str_type_elided(a) -> str:
    """An attribute where MLIR may elide its type (array elements, memory spaces):
    i64 integers and f64 floats print without `: type`."""
    t = getattr(a, "type", None)
    if t is i64 and isinstance(a, IntegerAttr):
        return str(a.value)
    if t is f64 and isinstance(a, FloatAttr):
        return a.print_value()
    return attr_text(a)


def attr_text(a) -> str:
    """`a` as an attribute value: a location is wrapped in `loc(...)` unless the printer
    gave it an alias (`#loc3`); everything else is `str(a)`."""
    s = str(a)
    # (A printer may hand back a placeholder for the alias: "\x00...", see aliases.py.)
    if getattr(a, "is_location", False) and not s.startswith(("#", "\x00")):
        return f"loc({s})"
    return s


class ArrayAttr(Attribute):
    __slots__ = ("value",)

    def __new__(cls, value=()):
        value = tuple(value)

        def init(o):
            o.value = value
        return unique(cls, value, init)

    def __iter__(self):
        return iter(self.value)

    def __len__(self):
        return len(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def _print(self):
        return "[" + ", ".join(map(str_type_elided, self.value)) + "]"


class DenseArrayAttr(Attribute):
    """`array<i64: 1, 2, 3>`: a dense array of integers or floats (bool for i1)."""

    __slots__ = ("element_type", "value", "bits")

    def __new__(cls, element_type: Type, value=(), bits=None):
        """Floats are kept as their bit patterns in the element type (`bits`, which may
        be given instead of `value`: NaN payloads, small float kinds) and as Python
        floats (`value`), rounded to the type as APFloat does."""
        if isinstance(element_type, IntegerType):
            value = tuple(int(v) for v in value)
            if element_type.width == 1:
                value = tuple(bool(v) for v in value)
            bits = None
            key = (element_type, value)
        else:
            from .dense import _float_value  # lazy: dense builds on this module
            name = element_type.name
            if bits is None:
                bits = tuple(_float_bits(float(v), name) for v in value)
            else:
                bits = tuple(bits)
            value = tuple(_float_value(b, name) for b in bits)
            key = (element_type, bits)

        def init(o):
            o.element_type = element_type
            o.value = value
            o.bits = bits
        return unique(cls, key, init)

    def __iter__(self):
        return iter(self.value)

    def __len__(self):
        return len(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def _print(self):
        et = self.element_type
        if not self.value:
            return f"array<{et}>"
        if isinstance(et, IntegerType):
            if et.width == 1:
                vals = ("true" if v else "false" for v in self.value)
            else:
                vals = map(str, self.value)
        else:
            from .dense import format_float_bits  # APFloat's printing, exactly
            vals = (format_float_bits(b, et.name) for b in self.bits)
        return f"array<{et}: " + ", ".join(vals) + ">"


def _float_bits(x: float, name: str) -> int:
    """The bits of `x` rounded to float type `name` (to nearest even, as APFloat)."""
    from fractions import Fraction
    from .dense import _encode_float
    neg = math.copysign(1.0, x) < 0
    if math.isnan(x):
        q = "nan"
    elif math.isinf(x):
        q = "inf"
    else:
        q = Fraction(abs(x))
    if name == "f64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    return _encode_float(name, neg, q)


def print_attr_dict_entries(items) -> str:
    parts = []
    for k, v in items:
        key = k if _is_bare_key(k) else f'"{escape_string(k)}"'
        parts.append(key if isinstance(v, UnitAttr) else f"{key} = {attr_text(v)}")
    return ", ".join(parts)


_BARE_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_BARE_REST = _BARE_FIRST | frozenset("0123456789$.")


def _is_bare_key(k: str) -> bool:
    return bool(k) and k[0] in _BARE_FIRST and all(c in _BARE_REST for c in k)


class DictionaryAttr(Attribute):
    """A dictionary attribute; entries are kept sorted by name as in MLIR."""

    __slots__ = ("value",)

    def __new__(cls, value=None):
        items = tuple(sorted((value or {}).items()))

        def init(o):
            o.value = dict(items)
        return unique(cls, items, init)

    def __getitem__(self, k):
        return self.value[k]

    def get(self, k, default=None):
        return self.value.get(k, default)

    def __contains__(self, k):
        return k in self.value

    def __len__(self):
        return len(self.value)

    def _print(self):
        return "{" + print_attr_dict_entries(self.value.items()) + "}"


class TypeAttr(Attribute):
    __slots__ = ("value",)

    def __new__(cls, value: Type):
        def init(o):
            o.value = value
        return unique(cls, value, init)

    def _print(self):
        return str(self.value)


def print_symbol_name(name: str) -> str:
    # Bare when it is an identifier (no `-`, as MLIR's lexer reads `@a-b` as `@a` `-`).
    if _is_bare_key(name):
        return "@" + name
    return f'@"{escape_string(name)}"'


class SymbolRefAttr(Attribute):
    """`@root` (flat) or `@root::@nested::@leaf`."""

    __slots__ = ("root", "nested")

    def __new__(cls, root: str, nested=()):
        nested = tuple(nested)

        def init(o):
            o.root = root
            o.nested = nested
        return unique(cls, (root, nested), init)

    @property
    def is_flat(self):
        return not self.nested

    @property
    def leaf(self):
        return self.nested[-1] if self.nested else self.root

    def _print(self):
        return "::".join(print_symbol_name(n) for n in (self.root, *self.nested))


class OpaqueAttr(Attribute):
    """An attribute of an unregistered dialect kept as text: `#dialect<body>`."""

    __slots__ = ("dialect_name", "body", "type")

    def __new__(cls, dialect_name, body, type=None):
        def init(o):
            o.dialect_name = dialect_name
            o.body = body
            o.type = type
        return unique(cls, (dialect_name, body, type), init)

    def _print(self):
        s = f"#{self.dialect_name}{self.body}"
        if self.type is not None:
            s += f" : {self.type}"
        return s


class StridedLayoutAttr(Attribute):
    __slots__ = ("strides", "offset")

    def __new__(cls, strides, offset=0):
        strides = tuple(strides)

        def init(o):
            o.strides = strides
            o.offset = offset
        return unique(cls, (strides, offset), init)

    def _print(self):
        st = ", ".join("?" if s == DYNAMIC else str(s) for s in self.strides)
        s = f"strided<[{st}]"
        if self.offset != 0:
            s += ", offset: " + ("?" if self.offset == DYNAMIC else str(self.offset))
        return s + ">"


class DistinctAttr(Attribute):
    """`distinct[N]<#referenced>`: never uniqued with another distinct attribute."""

    __slots__ = ("referenced", "id")
    _counter = [0]

    def __new__(cls, referenced, id=None):
        if id is None:
            id = ("fresh", cls._counter[0])
            cls._counter[0] += 1

        def init(o):
            o.referenced = referenced
            o.id = id
        return unique(cls, id, init)

    def _print(self):
        # The number printed is assigned by the printer; standalone printing uses 0.
        return f"distinct[0]<{self.referenced}>"


# Common types, for convenience.
i1 = IntegerType(1)
i8 = IntegerType(8)
i16 = IntegerType(16)
i32 = IntegerType(32)
i64 = IntegerType(64)
f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")
index = IndexType()
