"""The torch dialect's types, with torch-mlir's syntax, and the dtype maps.

    !torch.vtensor<[2,?],f32>     a tensor value (value semantics): sizes, dtype
    !torch.vtensor<*,f32>         ... of unknown rank;  !torch.vtensor<[2,3],unk>: no dtype
    !torch.vtensor                neither sizes nor dtype known
    !torch.tensor<[3],si64>       a non-value tensor (may alias and be mutated in place)
    !torch.int  !torch.float  !torch.bool  !torch.str  !torch.none  !torch.number
    !torch.Device  !torch.Generator  !torch.any  !torch.LinearParams
    !torch.list<int>  !torch.optional<vtensor>  !torch.tuple<int, bool>
    !torch.union<int, float>  !torch.dict<str, vtensor>  !torch.nn.Module<"name">
    !torch.qint8  !torch.quint8  !torch.qint16  !torch.qint32   (quantized dtypes)

Inside `<...>` torch types are written without their `!torch.` prefix, as torch-mlir
prints them (`!torch.list<vtensor<[2],f32>>`); a tensor's dtype is a builtin type
(`si64`, `ui8`, `i1`, `f16`, `bf16`, `f32`, `complex<f32>`, `f8E4M3FN`...) or a
quantized torch type written in full (`!torch.qint8`).

[Note: torch dtypes]
torch-mlir keeps the signedness of integer dtypes in the tensor type (`si64`, `ui8`;
`i1` is bool), since PyTorch's type promotion depends on it; the builtin tensors of the
backend side are signless (`tensor<2xi64>`), as torch-mlir's backend type conversion
makes them. `builtin_element_type(dtype)` and `torch_dtype(element, signed=True)` map
between the two; `DTYPES` names each dtype by PyTorch's ScalarType number (what an
`!torch.int` dtype operand holds: 6 is float32), in the order of c10's ScalarType.
Nothing here imports torch.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...syntax.lexer import BARE, INT

__all__ = ["TorchType", "BaseTensorType", "ValueTensorType", "NonValueTensorType",
           "IntType", "FloatType", "BoolType", "StringType", "NoneType", "NumberType",
           "DeviceType", "GeneratorType", "AnyType", "LinearParamsType", "QuantizedType",
           "ListType", "OptionalType", "TupleType", "UnionType", "DictType",
           "NnModuleType", "parse_type", "is_valid_dtype", "builtin_element_type",
           "torch_dtype", "DTYPES", "scalar_type_number", "dtype_of_scalar_type",
           "dtype_of_torch_name",
           "builtin_tensor_type", "vtensor_of_builtin", "UNKNOWN"]

UNKNOWN = -1  # a `?` size


class TorchType(A.Type):
    """Base of the torch dialect's types: `_body()` is the text after `!torch.`, which
    is also how the type is written inside another torch type's `<...>`."""

    __slots__ = ()
    dialect = "torch"

    def _print(self):
        return "!torch." + self._body()

    def _body(self):  # pragma: no cover - every subclass prints
        raise NotImplementedError


def _nested(t) -> str:
    return t._body() if isinstance(t, TorchType) else str(t)


class _Simple(TorchType):
    __slots__ = ()
    mnemonic = ""

    def __new__(cls):
        return A.unique(cls, (), lambda o: None)

    def _body(self):
        return self.mnemonic


class IntType(_Simple):
    """`!torch.int`: a Python int (64-bit signed)."""
    __slots__ = ()
    mnemonic = "int"


class FloatType(_Simple):
    """`!torch.float`: a Python float (64-bit)."""
    __slots__ = ()
    mnemonic = "float"


class BoolType(_Simple):
    """`!torch.bool`."""
    __slots__ = ()
    mnemonic = "bool"


class StringType(_Simple):
    """`!torch.str`."""
    __slots__ = ()
    mnemonic = "str"


class NoneType(_Simple):
    """`!torch.none`: Python's None."""
    __slots__ = ()
    mnemonic = "none"


class NumberType(_Simple):
    """`!torch.number`: an int or a float, not known which (a schema's Scalar)."""
    __slots__ = ()
    mnemonic = "number"


class DeviceType(_Simple):
    """`!torch.Device`."""
    __slots__ = ()
    mnemonic = "Device"


class GeneratorType(_Simple):
    """`!torch.Generator`: a random number generator."""
    __slots__ = ()
    mnemonic = "Generator"


class AnyType(_Simple):
    """`!torch.any`: a value of any type."""
    __slots__ = ()
    mnemonic = "any"


class LinearParamsType(_Simple):
    """`!torch.LinearParams`: packed parameters of a quantized linear layer."""
    __slots__ = ()
    mnemonic = "LinearParams"


class QuantizedType(TorchType):
    """`!torch.qint8`, `!torch.quint8`, `!torch.qint16`, `!torch.qint32`: the element
    types of quantized tensors."""

    __slots__ = ("mnemonic",)
    KINDS = ("qint8", "quint8", "qint16", "qint32")

    def __new__(cls, mnemonic: str):
        def init(o):
            o.mnemonic = mnemonic
        return A.unique(cls, mnemonic, init)

    def _body(self):
        return self.mnemonic


class BaseTensorType(TorchType):
    """A torch tensor type: `sizes` is None (unknown rank) or a tuple of ints with
    UNKNOWN (-1) for `?`; `dtype` is None (unknown) or the element type."""

    __slots__ = ("sizes", "dtype")
    mnemonic = ""

    def __new__(cls, sizes=None, dtype=None):
        if sizes is not None:
            sizes = tuple(UNKNOWN if s is None or s < 0 else int(s) for s in sizes)

        def init(o):
            o.sizes = sizes
            o.dtype = dtype
        return A.unique(cls, (sizes, dtype), init)

    def _body(self):
        if self.sizes is None and self.dtype is None:
            return self.mnemonic
        sizes = "*" if self.sizes is None else \
            "[" + ",".join("?" if s < 0 else str(s) for s in self.sizes) + "]"
        return f"{self.mnemonic}<{sizes},{'unk' if self.dtype is None else self.dtype}>"

    # ---------------------------------------------------------------- accessors

    @property
    def has_sizes(self) -> bool:
        return self.sizes is not None

    @property
    def has_dtype(self) -> bool:
        return self.dtype is not None

    @property
    def rank(self) -> int | None:
        return None if self.sizes is None else len(self.sizes)

    @property
    def shape(self):
        """The sizes with None for `?` (None when the rank is unknown)."""
        return None if self.sizes is None else tuple(None if s < 0 else s
                                                     for s in self.sizes)

    def is_dynamic_dim(self, i: int) -> bool:
        return self.sizes[i] < 0

    @property
    def has_static_shape(self) -> bool:
        return self.sizes is not None and all(s >= 0 for s in self.sizes)

    def with_sizes_and_dtype(self, sizes, dtype):
        return type(self)(sizes, dtype)

    def to_builtin(self):
        """The builtin tensor type of the backend side (signless elements), or None
        when the dtype is unknown."""
        return builtin_tensor_type(self)


class ValueTensorType(BaseTensorType):
    """`!torch.vtensor<[2,?],f32>`: a tensor with value semantics."""

    __slots__ = ()
    mnemonic = "vtensor"

    def without_value_semantics(self):
        return NonValueTensorType(self.sizes, self.dtype)


class NonValueTensorType(BaseTensorType):
    """`!torch.tensor<[2,?],f32>`: a tensor that may alias others or be mutated."""

    __slots__ = ()
    mnemonic = "tensor"

    def with_value_semantics(self):
        return ValueTensorType(self.sizes, self.dtype)


class _Container(TorchType):
    __slots__ = ("element_type",)
    mnemonic = ""

    def __new__(cls, element_type):
        def init(o):
            o.element_type = element_type
        return A.unique(cls, element_type, init)

    def _body(self):
        return f"{self.mnemonic}<{_nested(self.element_type)}>"


class ListType(_Container):
    """`!torch.list<int>`: a list of values of one type."""
    __slots__ = ()
    mnemonic = "list"


class OptionalType(_Container):
    """`!torch.optional<vtensor>`: a value of the type or None."""
    __slots__ = ()
    mnemonic = "optional"


class _Several(TorchType):
    __slots__ = ("types",)
    mnemonic = ""

    def __new__(cls, types=()):
        types = tuple(types)

        def init(o):
            o.types = types
        return A.unique(cls, types, init)

    def _body(self):
        return f"{self.mnemonic}<{', '.join(_nested(t) for t in self.types)}>"


class TupleType(_Several):
    """`!torch.tuple<int, bool>`."""
    __slots__ = ()
    mnemonic = "tuple"


class UnionType(_Several):
    """`!torch.union<int, float>`: one of the types."""
    __slots__ = ()
    mnemonic = "union"


class DictType(TorchType):
    """`!torch.dict<str, vtensor>`."""

    __slots__ = ("key_type", "value_type")

    def __new__(cls, key_type, value_type):
        def init(o):
            o.key_type = key_type
            o.value_type = value_type
        return A.unique(cls, (key_type, value_type), init)

    def _body(self):
        return f"dict<{_nested(self.key_type)}, {_nested(self.value_type)}>"


class NnModuleType(TorchType):
    """`!torch.nn.Module<"name">`: a TorchScript module instance (class name)."""

    __slots__ = ("class_name",)

    def __new__(cls, class_name: str):
        def init(o):
            o.class_name = class_name
        return A.unique(cls, class_name, init)

    def _body(self):
        return f"nn.Module<{A.StringAttr(self.class_name)}>"


# ---------------------------------------------------------------- dtypes

_U, _S = A.IntegerType.UNSIGNED, A.IntegerType.SIGNED


_DTYPE_FLOATS = frozenset(("f16", "bf16", "f32", "f64", "f4E2M1FN", "f8E5M2", "f8E4M3FN",
                           "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E8M0FNU"))


def is_valid_dtype(t) -> bool:
    """Whether `t` may be a torch tensor's dtype (torch-mlir's isValidTorchDtype): f16,
    bf16, f32, f64 or an 8/4-bit float kind, complex of one of those, i1, siN / uiN of
    4 to 64 bits, !torch.str, or a quantized torch type."""
    if isinstance(t, A.ComplexType):
        t = t.element_type
    if isinstance(t, A.FloatType):
        return t.name in _DTYPE_FLOATS
    if isinstance(t, (QuantizedType, StringType)):
        return True
    if isinstance(t, A.IntegerType):
        if t.signedness == A.IntegerType.SIGNLESS:
            return t.width == 1
        return t.width in (4, 8, 16, 32, 64)
    return False


def builtin_element_type(dtype):
    """The builtin (signless) element type of a torch dtype: si64 -> i64, ui8 -> i8;
    floats, complex and i1 are unchanged; a quantized type -> its storage integer."""
    if isinstance(dtype, A.IntegerType) and dtype.signedness != A.IntegerType.SIGNLESS:
        return A.IntegerType(dtype.width)
    if isinstance(dtype, QuantizedType):
        return A.IntegerType(32 if dtype.mnemonic == "qint32" else
                             16 if dtype.mnemonic == "qint16" else 8)
    return dtype


def torch_dtype(element, signed: bool = True):
    """The torch dtype of a builtin element type: signless iN (N > 1) -> siN (uiN when
    not `signed`); others unchanged."""
    if isinstance(element, A.IntegerType) and element.signedness == A.IntegerType.SIGNLESS \
            and element.width != 1:
        return A.IntegerType(element.width, _S if signed else _U)
    return element


def builtin_tensor_type(t):
    """`!torch.vtensor<[2,?],si64>` -> `tensor<2x?xi64>` (`*` -> unranked); None when the
    dtype is unknown."""
    if t.dtype is None:
        return None
    e = builtin_element_type(t.dtype)
    if t.sizes is None:
        return A.UnrankedTensorType(e)
    return A.RankedTensorType([A.DYNAMIC if s < 0 else s for s in t.sizes], e)


def vtensor_of_builtin(t, signed: bool = True):
    """`tensor<2x?xi64>` -> `!torch.vtensor<[2,?],si64>`."""
    e = torch_dtype(t.element_type, signed)
    if isinstance(t, A.UnrankedTensorType):
        return ValueTensorType(None, e)
    return ValueTensorType([UNKNOWN if s == A.DYNAMIC else s for s in t.shape], e)


# PyTorch's ScalarType numbers (c10/core/ScalarType.h), as an `!torch.int` dtype
# operand holds them: number -> (torch name, dtype text).
_SCALAR_TYPES = (
    (0, "uint8", "ui8"), (1, "int8", "si8"), (2, "int16", "si16"), (3, "int32", "si32"),
    (4, "int64", "si64"), (5, "float16", "f16"), (6, "float32", "f32"),
    (7, "float64", "f64"), (8, "complex32", "complex<f16>"),
    (9, "complex64", "complex<f32>"), (10, "complex128", "complex<f64>"),
    (11, "bool", "i1"), (12, "qint8", "!torch.qint8"), (13, "quint8", "!torch.quint8"),
    (14, "qint32", "!torch.qint32"), (15, "bfloat16", "bf16"),
    (23, "float8_e5m2", "f8E5M2"), (24, "float8_e4m3fn", "f8E4M3FN"),
    (25, "float8_e5m2fnuz", "f8E5M2FNUZ"), (26, "float8_e4m3fnuz", "f8E4M3FNUZ"),
    (27, "uint16", "ui16"), (28, "uint32", "ui32"), (29, "uint64", "ui64"),
    (44, "float8_e8m0fnu", "f8E8M0FNU"),
)


def _dtype_of_text(s):
    if s.startswith("!torch."):
        return QuantizedType(s[7:])
    if s.startswith("complex<"):
        return A.ComplexType(A.FloatType(s[8:-1]))
    if s[0] in "su":
        sign = _S if s[0] == "s" else _U
        return A.IntegerType(int(s[2:]), sign)
    if s == "i1":
        return A.i1
    return A.FloatType(s)


DTYPES: dict = {}  # ScalarType number -> (torch name, dtype)
_NUMBER_OF: dict = {}
for _n, _name, _text in _SCALAR_TYPES:
    _t = _dtype_of_text(_text)
    DTYPES[_n] = (_name, _t)
    _NUMBER_OF.setdefault(_t, _n)


_BY_NAME = {name: t for name, t in DTYPES.values()}


def dtype_of_torch_name(name: str):
    """The torch dtype of a PyTorch dtype's name ("float32", "int64", "bool"...; what
    `str(torch.float32)` says after `torch.`), or None."""
    return _BY_NAME.get(name)


def scalar_type_number(dtype) -> int | None:
    """PyTorch's ScalarType number of a torch dtype (si64 -> 4, f32 -> 6), or None."""
    return _NUMBER_OF.get(dtype)


def dtype_of_scalar_type(number: int):
    """The torch dtype of a ScalarType number (6 -> f32), or None."""
    e = DTYPES.get(number)
    return None if e is None else e[1]


# ---------------------------------------------------------------- parsing

_SIMPLE = {c.mnemonic: c for c in (IntType, FloatType, BoolType, StringType, NoneType,
                                   NumberType, DeviceType, GeneratorType, AnyType,
                                   LinearParamsType)}


def parse_type(p, mnemonic):
    """The dialect's type hook: the parser is right after `!torch.<mnemonic>`."""
    at = p.text.rfind(mnemonic, 0, p.tok_start)  # unknown types: at the mnemonic
    return _parse_body(p, mnemonic, at if at >= 0 else p.tok_start)


def _parse_nested(p):
    """A torch type inside `<...>`, written without `!torch.`."""
    start = p.tok_start
    if p.kind == BARE:
        kw = p.tok
        p._next()
        if kw == "nn" and p.at("."):  # nn.Module
            p._next()
            kw = "nn." + p.parse_keyword()
        return _parse_body(p, kw, start)
    p.error("expected valid keyword")


def _parse_body(p, mnemonic, start):
    c = _SIMPLE.get(mnemonic)
    if c is not None:
        return c()
    if mnemonic in QuantizedType.KINDS:
        return QuantizedType(mnemonic)
    if mnemonic in ("vtensor", "tensor"):
        cls = ValueTensorType if mnemonic == "vtensor" else NonValueTensorType
        if not p.at("<"):
            return cls()
        return _parse_tensor(p, cls)
    if mnemonic in ("list", "optional"):
        p.expect("<")
        t = _parse_nested(p)
        p.expect(">")
        return ListType(t) if mnemonic == "list" else OptionalType(t)
    if mnemonic in ("tuple", "union"):
        p.expect("<")
        ts = []
        if not p.at(">"):
            ts.append(_parse_nested(p))
            while p.consume_if(","):
                ts.append(_parse_nested(p))
        p.expect(">")
        return TupleType(ts) if mnemonic == "tuple" else UnionType(ts)
    if mnemonic == "dict":
        p.expect("<")
        k = _parse_nested(p)
        p.expect(",")
        v = _parse_nested(p)
        p.expect(">")
        return DictType(k, v)
    if mnemonic == "nn.Module":
        p.expect("<")
        name = p.parse_string()
        p.expect(">")
        return NnModuleType(name)
    p.error(f"unknown  type `{mnemonic}` in dialect `torch`", start)


def _parse_tensor(p, cls):
    start = p.tok_start  # errors about sizes and dtype point at the `<`, as upstream
    p.expect("<")
    sizes = None
    if not p.consume_if("*"):
        p.expect("[")
        sizes = []
        while True:
            if p.consume_if("?"):
                sizes.append(UNKNOWN)
            elif p.kind == INT or p.at("-"):
                n = p.parse_integer()
                if n < -1:
                    p.error(f"invalid size {n} for !torch.tensor type", start)
                sizes.append(n if n >= 0 else UNKNOWN)
            else:
                break
            if not p.consume_if(","):
                break
        p.expect("]")
    p.expect(",")
    dtype = None
    if p.kind == BARE and p.tok == "unk":
        p._next()
    else:
        dtype = p.parse_type()
        if not is_valid_dtype(dtype):
            p.error(f"invalid dtype '{dtype}' for !torch.tensor type", start)
    p.expect(">")
    return cls(sizes, dtype)
