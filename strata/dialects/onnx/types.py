"""The onnx dialect's types and the maps between ONNX and MLIR element types.

    !onnx.String              a string element: tensor<2x!onnx.String>
    !onnx.Seq<T>              a sequence of values of type T (ONNX seq(T))
    !onnx.Opt<T>              a value of type T or nothing (ONNX optional(T))
    !onnx.Map<K, V>           ONNX map(K, V); K an element type (i64, !onnx.String...),
                              V a type (an ONNX-ML scalar value is an element type: f32)

ONNX data types (TensorProto.DataType numbers, stable across onnx versions) map to MLIR
element types as in `ONNX_TO_MLIR_ELEMENT`: signed integers become signless `iN`,
unsigned ones `uiN`, bool `i1`. `onnx_type_string(t)` spells a type the way ONNX schemas
name allowed types ("tensor(float)", "seq(tensor(int64))"), which is how the verifier
checks type constraints. Nothing here imports onnx; NumPy's dtypes for the small float
kinds and 2/4-bit integers come from ml_dtypes, imported when first needed.
"""
from __future__ import annotations

from ...ir import attributes as A

__all__ = ["StringType", "SeqType", "OptType", "MapType", "parse_type",
           "ONNX_TO_MLIR_ELEMENT", "ONNX_ELEMENT_NAMES", "mlir_element_to_onnx",
           "element_type_of_name", "onnx_type_string", "numpy_dtype_of",
           "numpy_element_type", "elements_to_numpy", "elements_from_numpy"]


# ---------------------------------------------------------------- types

class StringType(A.Type):
    """`!onnx.String`: the element type of ONNX string tensors."""

    __slots__ = ()
    dialect = "onnx"

    def __new__(cls):
        return A.unique(cls, (), lambda o: None)

    def _print(self):
        return "!onnx.String"


class _Wrapper(A.Type):
    __slots__ = ("element_type",)
    dialect = "onnx"
    mnemonic = ""

    def __new__(cls, element_type: A.Type):
        def init(o):
            o.element_type = element_type
        return A.unique(cls, element_type, init)

    def _print(self):
        return f"!onnx.{self.mnemonic}<{self.element_type}>"


class SeqType(_Wrapper):
    """`!onnx.Seq<tensor<?xf32>>`: an ONNX sequence."""

    __slots__ = ()
    mnemonic = "Seq"


class OptType(_Wrapper):
    """`!onnx.Opt<tensor<?xf32>>`: an ONNX optional value."""

    __slots__ = ()
    mnemonic = "Opt"


class MapType(A.Type):
    """`!onnx.Map<!onnx.String, f32>`: an ONNX map."""

    __slots__ = ("key_type", "value_type")
    dialect = "onnx"

    def __new__(cls, key_type: A.Type, value_type: A.Type):
        def init(o):
            o.key_type = key_type
            o.value_type = value_type
        return A.unique(cls, (key_type, value_type), init)

    def _print(self):
        return f"!onnx.Map<{self.key_type}, {self.value_type}>"


def parse_type(p, mnemonic):
    """The dialect's type hook: the parser is right after `!onnx.<mnemonic>`."""
    if mnemonic == "String":
        return StringType()
    if mnemonic in ("Seq", "Opt"):
        p.expect("<")
        t = p.parse_type()
        p.expect(">")
        return SeqType(t) if mnemonic == "Seq" else OptType(t)
    if mnemonic == "Map":
        p.expect("<")
        start = p.tok_start
        k = p.parse_type()
        if mlir_element_to_onnx(k) is None:
            p.error(f"map key type must be an ONNX element type, got '{k}'", start)
        p.expect(",")
        v = p.parse_type()
        p.expect(">")
        return MapType(k, v)
    p.error(f"unknown type '{mnemonic}' in dialect 'onnx' (expected String, Seq, Opt "
            "or Map)")


# ---------------------------------------------------------------- element types

_U = A.IntegerType.UNSIGNED
# TensorProto.DataType number -> (ONNX name, MLIR element type); hard-coded: the numbers
# are part of the ONNX format.
_ELEMENTS = {
    1: ("float", A.f32), 2: ("uint8", A.IntegerType(8, _U)), 3: ("int8", A.i8),
    4: ("uint16", A.IntegerType(16, _U)), 5: ("int16", A.i16), 6: ("int32", A.i32),
    7: ("int64", A.i64), 8: ("string", StringType()), 9: ("bool", A.i1),
    10: ("float16", A.f16), 11: ("double", A.f64), 12: ("uint32", A.IntegerType(32, _U)),
    13: ("uint64", A.IntegerType(64, _U)), 14: ("complex64", A.ComplexType(A.f32)),
    15: ("complex128", A.ComplexType(A.f64)), 16: ("bfloat16", A.bf16),
    17: ("float8e4m3fn", A.FloatType("f8E4M3FN")),
    18: ("float8e4m3fnuz", A.FloatType("f8E4M3FNUZ")),
    19: ("float8e5m2", A.FloatType("f8E5M2")), 20: ("float8e5m2fnuz", A.FloatType("f8E5M2FNUZ")),
    21: ("uint4", A.IntegerType(4, _U)), 22: ("int4", A.IntegerType(4)),
    23: ("float4e2m1", A.FloatType("f4E2M1FN")), 24: ("float8e8m0", A.FloatType("f8E8M0FNU")),
    25: ("uint2", A.IntegerType(2, _U)), 26: ("int2", A.IntegerType(2)),
    27: ("float6e2m3", A.FloatType("f6E2M3FN")), 28: ("float6e3m2", A.FloatType("f6E3M2FN")),
}

ONNX_TO_MLIR_ELEMENT: dict = {k: t for k, (_, t) in _ELEMENTS.items()}
ONNX_ELEMENT_NAMES: dict = {k: n for k, (n, _) in _ELEMENTS.items()}
_MLIR_TO_ONNX = {t: k for k, t in ONNX_TO_MLIR_ELEMENT.items()}
_NAME_TO_MLIR = {n: t for n, t in _ELEMENTS.values()}


def mlir_element_to_onnx(t) -> int | None:
    """The TensorProto data type number of an MLIR element type (None: not an ONNX one;
    signed `siN` integers are taken as ONNX's intN)."""
    k = _MLIR_TO_ONNX.get(t)
    if k is None and isinstance(t, A.IntegerType) and t.signedness == A.IntegerType.SIGNED:
        k = _MLIR_TO_ONNX.get(A.IntegerType(t.width))
    return k


def element_type_of_name(name: str):
    """The MLIR element type of an ONNX element name ("float", "int64"...), or None."""
    return _NAME_TO_MLIR.get(name)


_TYPE_STRINGS: dict = {}


def onnx_type_string(t) -> str | None:
    """`t` as ONNX spells types in schemas ("tensor(float)", "seq(tensor(int64))",
    "optional(tensor(bool))", "map(string, float)"), or None when it has no ONNX
    counterpart. A map's value that is a tensor or element type is spelled by its
    element name, as the ONNX-ML schemas write them. Cached per (uniqued) type."""
    s = _TYPE_STRINGS.get(t, 0)
    if s == 0:
        s = _TYPE_STRINGS[t] = _type_string(t)
    return s


def _element_name(t):
    k = mlir_element_to_onnx(t)
    return None if k is None else ONNX_ELEMENT_NAMES[k]


def _type_string(t):
    if isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        n = _element_name(t.element_type)
        return None if n is None else f"tensor({n})"
    if isinstance(t, (SeqType, OptType)):
        inner = onnx_type_string(t.element_type)
        if inner is None:
            return None
        return ("seq(" if isinstance(t, SeqType) else "optional(") + inner + ")"
    if isinstance(t, MapType):
        k = _element_name(t.key_type)
        v = t.value_type
        if isinstance(v, (A.RankedTensorType, A.UnrankedTensorType)):
            v = v.element_type
        vs = _element_name(v) or onnx_type_string(v)
        if k is None or vs is None:
            return None
        return f"map({k}, {vs})"
    return None


# ---------------------------------------------------------------- numpy

_ML_DTYPES = {
    "bf16": "bfloat16", "f8E4M3FN": "float8_e4m3fn", "f8E4M3FNUZ": "float8_e4m3fnuz",
    "f8E5M2": "float8_e5m2", "f8E5M2FNUZ": "float8_e5m2fnuz", "f8E8M0FNU": "float8_e8m0fnu",
    "f4E2M1FN": "float4_e2m1fn", "f6E2M3FN": "float6_e2m3fn", "f6E3M2FN": "float6_e3m2fn",
    "f8E4M3": "float8_e4m3", "f8E3M4": "float8_e3m4", "f8E4M3B11FNUZ": "float8_e4m3b11fnuz",
}
_NUMPY_NAMES = {"f16": "float16", "f32": "float32", "f64": "float64"}


def numpy_dtype_of(element_type):
    """The NumPy dtype holding elements of an MLIR element type, as the interpreter uses
    them: i1 -> bool, signless iN -> intN, uiN -> uintN, i2/i4/ui2/ui4 and the float
    kinds NumPy lacks -> ml_dtypes, complex<f32/f64> -> complex64/128, index -> int64,
    !onnx.String -> object."""
    import numpy as np
    t = element_type
    if isinstance(t, A.IndexType):
        return np.dtype(np.int64)
    if isinstance(t, A.IntegerType):
        w, unsigned = t.width, t.signedness == A.IntegerType.UNSIGNED
        if w == 1:
            return np.dtype(np.bool_)
        if w in (8, 16, 32, 64):
            return np.dtype(("uint%d" if unsigned else "int%d") % w)
        if w in (2, 4):
            import ml_dtypes
            return np.dtype(getattr(ml_dtypes, ("uint%d" if unsigned else "int%d") % w))
    elif isinstance(t, A.FloatType):
        name = _NUMPY_NAMES.get(t.name)
        if name is not None:
            return np.dtype(name)
        name = _ML_DTYPES.get(t.name)
        if name is not None:
            import ml_dtypes
            return np.dtype(getattr(ml_dtypes, name))
    elif isinstance(t, A.ComplexType) and isinstance(t.element_type, A.FloatType):
        if t.element_type.name in ("f32", "f64"):
            return np.dtype("complex%d" % (2 * t.element_type.width))
    elif isinstance(t, StringType):
        return np.dtype(object)
    raise TypeError(f"no NumPy dtype for element type '{t}'")


def elements_to_numpy(attr, blobs=None):
    """The value of a dense or dense_resource elements attribute as a NumPy array of the
    element type's dtype (`numpy_dtype_of`): bit patterns of small float kinds are
    reinterpreted, string elements are bytes in an object array. A fresh array."""
    import numpy as np
    from ...ir.dense import DenseResourceElementsAttr
    a = attr.array(blobs) if isinstance(attr, DenseResourceElementsAttr) else attr.array
    et = attr.type.element_type
    dt = numpy_dtype_of(et)
    if a.dtype == dt:
        return np.array(a)
    if isinstance(et, A.FloatType) and et.name in _ML_DTYPES:
        k = dt.itemsize
        return np.ascontiguousarray(a).astype("<u%d" % k).view(dt)
    return np.asarray(a).astype(dt)


def elements_from_numpy(array, type=None):
    """A DenseElementsAttr holding `array` (of type `type`, by default a ranked tensor
    of the array's shape and the element type of its dtype). ml_dtypes floats are
    stored by their bit patterns, as dense.py keeps them."""
    import numpy as np
    from ...ir.dense import DenseElementsAttr
    a = np.asarray(array)
    if type is None:
        type = A.RankedTensorType(a.shape, numpy_element_type(a.dtype))
    et = type.element_type
    if isinstance(et, A.FloatType) and et.name in _ML_DTYPES:
        a = np.asarray(a, dtype=numpy_dtype_of(et))
        a = a.view("<u%d" % a.dtype.itemsize)
    elif isinstance(et, A.IntegerType) and et.width in (2, 4):
        a = a.astype(np.uint8 if et.signedness == A.IntegerType.UNSIGNED else np.int8)
    elif isinstance(et, StringType):
        a = np.asarray(a, dtype=object)
    return DenseElementsAttr(type, a)


_DTYPE_TO_ELEMENT: dict = {}


def numpy_element_type(dtype):
    """The MLIR element type of a NumPy dtype (signed ints signless, object -> string)."""
    import numpy as np
    dtype = np.dtype(dtype)
    if not _DTYPE_TO_ELEMENT:
        for t in ONNX_TO_MLIR_ELEMENT.values():
            try:
                _DTYPE_TO_ELEMENT.setdefault(numpy_dtype_of(t), t)
            except (TypeError, AttributeError):
                pass
        _DTYPE_TO_ELEMENT[np.dtype("U")] = StringType()
    t = _DTYPE_TO_ELEMENT.get(dtype)
    if t is None and dtype.kind in "USO":
        return StringType()
    if t is None:
        raise TypeError(f"no MLIR element type for NumPy dtype {dtype}")
    return t
