"""Type conversion for dialect conversion: `TypeConverter` (how types convert, and the
materializations that bridge converted and original values) and `SignatureConversion`
(how the arguments of a block or function map to converted ones)."""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.core import Block, Operation, Region, Value

__all__ = ["SignatureConversion", "TypeConverter"]


class SignatureConversion:
    """How the arguments of a block (or function signature) map to new ones: each
    original input becomes 0..N new inputs, or is replaced by an existing value."""

    __slots__ = ("_map", "_types")

    def __init__(self, num_orig_inputs: int):
        self._map: list = [None] * num_orig_inputs  # (input_no, size, replacement)
        self._types: list = []

    def add_inputs(self, orig_or_types, types=None):
        """`add_inputs(i, [t...])`: input `i` becomes these types; `add_inputs([t...])`:
        append new inputs that no original one maps to."""
        if types is None:
            self._types.extend(orig_or_types)
            return
        types = list(types)
        self._map[orig_or_types] = (len(self._types), len(types), None)
        self._types.extend(types)

    def remap_input(self, orig: int, replacement: Value):
        """Drop input `orig`, using `replacement` wherever it was used."""
        self._map[orig] = (0, 0, replacement)

    @property
    def converted_types(self) -> list:
        return list(self._types)

    def input_mapping(self, orig: int):
        """(first new input, count, replacement value) or None if the input was dropped."""
        return self._map[orig]

    @property
    def num_orig_inputs(self) -> int:
        return len(self._map)


class TypeConverter:
    """Converts types for a conversion: a list of callbacks `fn(type)` returning a Type,
    a list of types (1:N; [] drops the value), None (not mine: try the next) or False
    (this type cannot be converted). The most recently added callback is tried first,
    as upstream.

    Materializations bridge a converted value and a use that expects another type:
    source ones rebuild an original-type value from converted ones, target ones make
    legal-type values from others. Callbacks `fn(builder, type, inputs, loc)` return a
    Value or None (a target callback asked for several types gets a list of types and
    returns a list). When none applies, `builtin.unrealized_conversion_cast` is used
    (unless `default_materializations` is False).
    """

    def __init__(self, default_materializations: bool = True):
        self._conversions: list = []
        self._source_mats: list = []
        self._target_mats: list = []
        self._cache: dict = {}
        self.default_materializations = default_materializations

    def add_conversion(self, fn):
        self._conversions.append(fn)
        self._cache.clear()
        return fn

    def add_source_materialization(self, fn):
        self._source_mats.append(fn)
        return fn

    def add_target_materialization(self, fn):
        self._target_mats.append(fn)
        return fn

    # ------------------------------------------------------------ converting
    def convert_types(self, t) -> list | None:
        """The types `t` converts to (possibly none), or None if it cannot be."""
        cached = self._cache.get(t, _MISSING)
        if cached is not _MISSING:
            return None if cached is None else list(cached)
        result = None
        for fn in reversed(self._conversions):
            r = fn(t)
            if r is None:
                continue
            if r is False:
                break
            if isinstance(r, A.Type):
                result = (r,)
            else:
                result = tuple(r)
                for x in result:
                    if not isinstance(x, A.Type):
                        raise TypeError(f"type conversion of {t} returned {x!r}, not a type")
            break
        self._cache[t] = result
        return None if result is None else list(result)

    def convert_type(self, t):
        """The one type `t` converts to, or None (not convertible, or not 1:1)."""
        r = self.convert_types(t)
        return r[0] if r is not None and len(r) == 1 else None

    def is_legal(self, x) -> bool:
        """Whether a type (or the types of a list, an op's operands and results, or a
        region's / block's arguments) converts to itself."""
        if isinstance(x, A.Type):
            return self.convert_type(x) is x
        if isinstance(x, Operation):
            return all(self.is_legal(o.value.type) for o in x._operands) and \
                all(self.is_legal(r.type) for r in x.results)
        if isinstance(x, Region):
            return all(self.is_legal(b) for b in x.blocks)
        if isinstance(x, Block):
            return all(self.is_legal(a.type) for a in x.args)
        return all(self.is_legal(t) for t in x)

    def is_signature_legal(self, ft: A.FunctionType) -> bool:
        return self.is_legal(ft.inputs) and self.is_legal(ft.results)

    def convert_signature_arg(self, index: int, t, conversion: SignatureConversion) -> bool:
        types = self.convert_types(t)
        if types is None:
            return False
        if types:
            conversion.add_inputs(index, types)
        return True

    def convert_signature_args(self, types, conversion: SignatureConversion,
                               start: int = 0) -> bool:
        return all(self.convert_signature_arg(start + i, t, conversion)
                   for i, t in enumerate(types))

    def convert_block_signature(self, block: Block) -> SignatureConversion | None:
        sc = SignatureConversion(len(block.args))
        if not self.convert_signature_args(block.arg_types, sc):
            return None
        return sc

    # ------------------------------------------------------------ materializing
    def materialize_source_conversion(self, builder, loc, type, inputs, allow_default=True):
        """A value of (original) `type` made from converted `inputs`, or None."""
        inputs = list(inputs)
        for fn in reversed(self._source_mats):
            v = fn(builder, type, inputs, loc)
            if v is not None:
                return v
        if allow_default and self.default_materializations:
            return _build_cast(builder, inputs, [type], loc)[0]
        return None

    def materialize_target_conversion(self, builder, loc, types, inputs, original_type=None,
                                      allow_default=True):
        """Values of the legal `types` (a type or a list) made from `inputs`, or None."""
        inputs = list(inputs)
        many = isinstance(types, (list, tuple))
        for fn in reversed(self._target_mats):
            v = fn(builder, types if many and len(types) != 1 else
                   (types[0] if many else types), inputs, loc)
            if v is not None:
                return list(v) if isinstance(v, (list, tuple)) else [v]
        if allow_default and self.default_materializations:
            return _build_cast(builder, inputs, list(types) if many else [types], loc)
        return None


_MISSING = object()


def _build_cast(builder, inputs, types, loc):
    from ..dialects.builtin import UnrealizedConversionCastOp
    op = UnrealizedConversionCastOp.create(list(inputs), list(types), loc=loc)
    builder.insert(op)
    return list(op.results)


