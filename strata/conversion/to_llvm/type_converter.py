"""LLVMTypeConverter: how builtin types become llvm dialect types, as upstream's.

    index                    -> i64 (the host's pointer width; `index_bitwidth` option)
    i32, f32, f16, bf16...   -> themselves (signed/unsigned integers -> signless)
    f8*, f6*, f4*            -> the integer of the same width (their bit pattern)
    vector<4xf32>            -> itself; vector<2x4xf32> -> !llvm.array<2 x vector<4xf32>>
    memref<?x4xf32>          -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    memref<f32>              -> !llvm.struct<(ptr, ptr, i64)>
    memref<*xf32>            -> !llvm.struct<(i64, ptr)>
    complex<f32>             -> !llvm.struct<(f32, f32)>

[Note: the memref descriptor and the function ABI]
A ranked memref is a descriptor struct: the allocated pointer (what malloc returned,
given to free), the aligned pointer (where element 0 of the underlying buffer lives),
the offset (in elements) of the view's first element from the aligned pointer, then
the sizes and the strides (in elements), R each. Element (i, j) is at
aligned + offset + i * stride0 + j * stride1.

In a function signature (`convert_function_signature`), a memref argument is expanded
into its fields, 3 + 2R scalars; an unranked memref into (rank, pointer to a ranked
descriptor). Results are not expanded: no result is `!llvm.void`, one result is its
converted type (a memref gives its descriptor struct), several results are packed into
a literal struct of their converted types. The C interface (`_mlir_ciface_<name>`,
see func.py) passes every memref as a pointer to its descriptor instead and, when the
result is a struct, takes a pointer to storage for it as an extra first argument.
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...dialects.memref import is_identity_layout, strides_and_offset
from ...ir import attributes as A
from ...rewrite.type_conversion import SignatureConversion, TypeConverter

__all__ = ["LLVMTypeConverter", "MemRefDescriptor", "UnrankedMemRefDescriptor",
           "strides_and_offset", "is_identity_layout", "descriptor_type",
           "SMALL_FLOATS", "is_small_float"]

DYNAMIC = A.DYNAMIC
# Float types LLVM has no type for: values are carried as their bit pattern.
SMALL_FLOATS = frozenset(("f8E5M2", "f8E4M3", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ",
                          "f8E4M3B11FNUZ", "f8E3M4", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN",
                          "f4E2M1FN"))
_LLVM_FLOATS = frozenset(("f16", "bf16", "f32", "f64", "f80", "f128"))


def is_small_float(t) -> bool:
    return type(t) is A.FloatType and t.name in SMALL_FLOATS


def descriptor_type(rank: int, index_type, addr_space: int = 0):
    p = LT.LLVMPointerType(addr_space)
    if rank == 0:
        return LT.LLVMStructType((p, p, index_type))
    arr = LT.LLVMArrayType(rank, index_type)
    return LT.LLVMStructType((p, p, index_type, arr, arr))


class LLVMTypeConverter(TypeConverter):
    """Builtin types -> llvm dialect types (module doc), with the materializations that
    pack an expanded memref argument back into its descriptor."""

    def __init__(self, index_bitwidth: int = 64):
        super().__init__()
        self.index_type = A.IntegerType(index_bitwidth)
        # Patterns' builders read fields of descriptors they see built (convert-to-llvm's
        # fold-aggregates).
        self.fold_aggregates = False
        # with it, the integer constants made so far ([Note: constants reused while
        # lowering] in builder.py)
        self.constants: dict = {}
        # functions declared by the conversion (common.lookup_or_declare)
        self.declared: dict = {}
        self.add_conversion(self._convert)
        self.add_source_materialization(self._pack_source)
        self.add_target_materialization(self._pack_target)

    # ------------------------------------------------------------ types
    def _convert(self, t):
        c = type(t)
        if c is A.IndexType:
            return self.index_type
        if c is A.IntegerType:
            return t if t.signedness == 0 else A.IntegerType(t.width)
        if c is A.FloatType:
            if t.name in _LLVM_FLOATS:
                return t
            if t.name in SMALL_FLOATS:
                return A.IntegerType(t.width)
            return False
        if c is A.VectorType:
            return self._convert_vector(t)
        if c is A.MemRefType:
            return self.memref_descriptor_type(t) or False
        if c is A.UnrankedMemRefType:
            asp = self.address_space(t)
            if asp is None or self.convert_type(t.element_type) is None:
                return False
            return LT.LLVMStructType((self.index_type, LT.LLVMPointerType(asp)))
        if c is A.ComplexType:
            e = self.convert_type(t.element_type)
            return LT.LLVMStructType((e, e)) if e is not None else False
        if c is A.FunctionType:
            return False
        if LT.is_llvm_type(t):
            return self._convert_llvm(t)
        return None

    def _convert_llvm(self, t):
        if isinstance(t, LT.LLVMStructType) and t.types is not None and t.name is None:
            new = [self.convert_type(x) for x in t.types]
            if any(x is None for x in new):
                return False
            return LT.LLVMStructType(new, t.packed)
        if isinstance(t, LT.LLVMArrayType):
            e = self.convert_type(t.element_type)
            return LT.LLVMArrayType(t.size, e) if e is not None else False
        return t

    def _convert_vector(self, t):
        e = self.convert_type(t.element_type)
        if e is None:
            return False
        shape = list(t.shape)
        if any(getattr(t, "scalable_dims", None) or ()):
            if len(shape) != 1:
                return False
            return A.VectorType(shape, e, t.scalable_dims)
        if not shape:
            return A.VectorType([1], e)
        out = A.VectorType([shape[-1]], e)
        for d in reversed(shape[:-1]):
            out = LT.LLVMArrayType(d, out)
        return out

    def address_space(self, t) -> int | None:
        ms = t.memory_space
        if ms is None:
            return 0
        if type(ms) is A.IntegerAttr:
            return ms.value
        return None

    def memref_descriptor_type(self, t):
        """The descriptor struct of a ranked memref type, or None."""
        if self.convert_type(t.element_type) is None or strides_and_offset(t) is None:
            return None
        asp = self.address_space(t)
        if asp is None:
            return None
        return descriptor_type(len(t.shape), self.index_type, asp)

    def memref_fields(self, t) -> list | None:
        """The types a memref argument expands into in a function signature."""
        if type(t) is A.UnrankedMemRefType:
            s = self.convert_type(t)
            return list(s.types) if s is not None else None
        s = self.memref_descriptor_type(t)
        if s is None:
            return None
        fields = [s.types[0], s.types[1], self.index_type]
        fields += [self.index_type] * (2 * len(t.shape))
        return fields

    # ------------------------------------------------------------ signatures
    def convert_function_signature(self, ft, variadic=False):
        """(the !llvm.func type, the SignatureConversion of the arguments), or None."""
        sc = SignatureConversion(len(ft.inputs))
        for i, t in enumerate(ft.inputs):
            if type(t) in (A.MemRefType, A.UnrankedMemRefType):
                fields = self.memref_fields(t)
                if fields is None:
                    return None
                sc.add_inputs(i, fields)
                continue
            c = self.convert_type(t)
            if c is None:
                return None
            sc.add_inputs(i, [c])
        res = self.pack_function_results(ft.results)
        if res is None:
            return None
        return LT.LLVMFunctionType(res, sc.converted_types, variadic), sc

    def pack_function_results(self, types):
        """void, the one converted type, or a struct of several; None if one fails."""
        if not types:
            return LT.void
        conv = [self.convert_type(t) for t in types]
        if any(c is None for c in conv):
            return None
        if len(conv) == 1:
            return conv[0]
        return LT.LLVMStructType(conv)

    # ------------------------------------------------------------ materializations
    def _pack_source(self, builder, type, inputs, loc):
        """An expanded memref (its fields) used where the memref is still expected:
        pack the descriptor, then cast it to the memref type."""
        if type.__class__ not in (A.MemRefType, A.UnrankedMemRefType) or len(inputs) < 2:
            return None
        desc = self._pack(builder, type, inputs, loc)
        if desc is None:
            return None
        from ...dialects.builtin import UnrealizedConversionCastOp
        op = UnrealizedConversionCastOp.create([desc], [type], loc=loc)
        builder.insert(op)
        return op.results[0]

    def _pack_target(self, builder, types, inputs, loc):
        """Fields of an expanded memref wanted as its descriptor struct."""
        if isinstance(types, (list, tuple)) or len(inputs) < 2:
            return None
        if not isinstance(types, LT.LLVMStructType) or \
                [v.type for v in inputs] != self._flat_fields(types):
            return None
        from .builder import LLVMBuilder
        return _pack_struct(LLVMBuilder(builder, loc, self.fold_aggregates), types,
                            inputs)

    def _flat_fields(self, st):
        out = []
        for t in st.types:
            if isinstance(t, LT.LLVMArrayType):
                out.extend([t.element_type] * t.size)
            else:
                out.append(t)
        return out

    def _pack(self, builder, memref_type, inputs, loc):
        st = self.convert_type(memref_type)
        if st is None or [v.type for v in inputs] != self._flat_fields(st):
            return None
        from .builder import LLVMBuilder
        return _pack_struct(LLVMBuilder(builder, loc, self.fold_aggregates), st, inputs)


def _pack_struct(b, st, values):
    """Struct `st` of `values` (its fields, arrays flattened): see LLVMBuilder.pack."""
    return b.pack(st, values)


# ============================================================================ descriptors


class MemRefDescriptor:
    """Reads and writes the fields of a ranked memref descriptor value (an SSA struct:
    every setter makes a new value, kept in `value`), as upstream's MemRefDescriptor.

        d = MemRefDescriptor.poison(b, struct_type)
        d.set_allocated_ptr(b, p); d.set_aligned_ptr(b, p); d.set_constant_offset(b, 0)
        n = d.size(b, 0)

    A descriptor begun by `poison` with a folding builder (convert-to-llvm's
    fold-aggregates) keeps its fields in a list instead; reading `value` then packs
    them into one struct value ([Note: structs packed lazily] in builder.py)."""

    __slots__ = ("_value", "_fields", "_type", "_b")

    def __init__(self, value):
        self._value = value
        self._fields = None

    @property
    def value(self):
        f = self._fields
        if f is not None:
            self._fields = None
            b = self._b
            if None in f:       # not every field set: the insertvalue chain
                v = b.poison(self._type)
                for k, x in enumerate(f):
                    if x is not None:
                        v = b.insertvalue(v, x, _position(k, self._type))
                self._value = v
            else:
                self._value = b.pack(self._type, f)
        return self._value

    @property
    def type(self):
        return self._type if self._fields is not None else self._value.type

    @property
    def rank(self):
        ts = self.type.types
        return ts[3].size if len(ts) > 3 else 0

    @property
    def index_type(self):
        return self.type.types[2]

    @property
    def element_ptr_type(self):
        return self.type.types[1]

    @classmethod
    def poison(cls, b, struct_type):
        if getattr(b, "fold", False):
            d = cls.__new__(cls)
            d._value = None
            d._type = struct_type
            d._b = b
            ts = struct_type.types
            d._fields = [None] * (3 + 2 * ts[3].size if len(ts) > 3 else 3)
            return d
        return cls(b.poison(struct_type))

    def _get(self, b, pos):
        f = self._fields
        if f is not None:
            k = _field_index(f, pos)
            if k is not None and f[k] is not None:
                return f[k]
        return b.extractvalue(self.value, pos)

    def _set(self, b, pos, v):
        f = self._fields
        if f is not None:
            k = _field_index(f, pos)
            if k is not None:
                f[k] = v
                return
        self._value = b.insertvalue(self.value, v, pos)

    def allocated_ptr(self, b):
        return self._get(b, [0])

    def aligned_ptr(self, b):
        return self._get(b, [1])

    def offset(self, b):
        return self._get(b, [2])

    def size(self, b, i):
        return self._get(b, [3, i])

    def stride(self, b, i):
        return self._get(b, [4, i])

    def sizes_array(self, b):
        return self._get(b, [3])

    def set_allocated_ptr(self, b, v):
        self._set(b, [0], v)

    def set_aligned_ptr(self, b, v):
        self._set(b, [1], v)

    def set_offset(self, b, v):
        self._set(b, [2], v)

    def set_constant_offset(self, b, n):
        self._set(b, [2], b.index_const(n, self.index_type))

    def set_size(self, b, i, v):
        self._set(b, [3, i], v)

    def set_constant_size(self, b, i, n):
        self._set(b, [3, i], b.index_const(n, self.index_type))

    def set_stride(self, b, i, v):
        self._set(b, [4, i], v)

    def set_constant_stride(self, b, i, n):
        self._set(b, [4, i], b.index_const(n, self.index_type))

    # ------------------------------------------------------------ whole descriptors
    def unpack(self, b) -> list:
        """The fields, in signature order (pointers, offset, sizes, strides)."""
        out = [self.allocated_ptr(b), self.aligned_ptr(b), self.offset(b)]
        r = self.rank
        out += [self.size(b, i) for i in range(r)]
        out += [self.stride(b, i) for i in range(r)]
        return out

    @classmethod
    def pack(cls, b, struct_type, fields):
        return cls(_pack_struct(b, struct_type, fields))

    @classmethod
    def from_static_shape(cls, b, struct_type, memref_type, allocated, aligned):
        """A descriptor of a statically shaped, strided memref type."""
        strides, offset = strides_and_offset(memref_type)
        d = cls.poison(b, struct_type)
        d.set_allocated_ptr(b, allocated)
        d.set_aligned_ptr(b, aligned)
        d.set_constant_offset(b, offset)
        for i, n in enumerate(memref_type.shape):
            d.set_constant_size(b, i, n)
            d.set_constant_stride(b, i, strides[i])
        return d


def _field_index(fields, pos):
    """Index in a descriptor's field list (allocated, aligned, offset, sizes, strides)
    of the field at struct position `pos`, or None (a whole array)."""
    if len(pos) == 1:
        return pos[0] if pos[0] < 3 else None
    r = (len(fields) - 3) // 2
    return 3 + pos[1] if pos[0] == 3 else 3 + r + pos[1]


def _position(k, struct_type):
    """The struct position of field `k` of a descriptor (the inverse of _field_index)."""
    if k < 3:
        return [k]
    r = struct_type.types[3].size
    return [3, k - 3] if k < 3 + r else [4, k - 3 - r]


class UnrankedMemRefDescriptor:
    """`!llvm.struct<(i64, ptr)>`: the rank and a pointer to a ranked descriptor."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    @classmethod
    def poison(cls, b, struct_type):
        return cls(b.poison(struct_type))

    def rank(self, b):
        return b.extractvalue(self.value, [0])

    def descriptor_ptr(self, b):
        return b.extractvalue(self.value, [1])

    def set_rank(self, b, v):
        self.value = b.insertvalue(self.value, v, [0])

    def set_descriptor_ptr(self, b, v):
        self.value = b.insertvalue(self.value, v, [1])
