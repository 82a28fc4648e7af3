"""LLVMBuilder: creates llvm dialect ops before a builder's (or rewriter's) insertion
point, one small method per op, with upstream's property names.

    b = LLVMBuilder(rewriter, op.loc)
    p = b.gep(base, [i], A.f32)              # llvm.getelementptr %base[%i] : ..., f32
    v = b.load(p, A.f32)
    s = b.add(v, b.const(1, A.i64))
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A

__all__ = ["LLVMBuilder", "llvm_op", "GEP_DYNAMIC", "INBOUNDS_NUW", "icmp_predicate",
           "fcmp_predicate", "inserted_value", "PACKED", "flat_field", "is_packed",
           "unpack_packed_struct"]

GEP_DYNAMIC = -(2 ** 31)  # rawConstantIndices marker of a dynamic index
INBOUNDS_NUW = 7  # GEPNoWrapFlags `inbounds|nuw` (inbounds = 3, nuw = 4)
_OPS: dict = {}


def llvm_op(name: str):
    """The registered class of llvm op `name` (looked up once)."""
    cls = _OPS.get(name)
    if cls is None:
        from ..scalar_builders import op_class
        cls = _OPS[name] = op_class(name)
    return cls


def inserted_value(agg, pos):
    """The value the chain of llvm.insertvalue ending in `agg` puts at `pos` (a list of
    indices), or None when no insertion at exactly `pos` decides it (the chain ends, or
    an insertion covers part of the field). A struct packed from its fields (`PACKED`,
    [Note: structs packed lazily]) gives the field at `pos`."""
    pos = tuple(pos)
    first = pos[0]
    d = agg.defining_op
    while d is not None:
        if d.name == "llvm.insertvalue":
            ip = d._props["position"].value
            if ip[0] == first:
                if ip == pos:
                    return d._operands[1].value
                k = min(len(ip), len(pos))
                if ip[:k] == pos[:k]:       # one covers part of the other
                    return None
            d = d._operands[0].value.defining_op
        elif d.name == _CAST and PACKED in d._attrs:
            k = flat_field(d.results[0].type, pos)
            return d._operands[k].value if k is not None else None
        else:
            return None
    return None


_CAST = "builtin.unrealized_conversion_cast"
# [Note: structs packed lazily]
# Under fold-aggregates (convert-to-llvm on the CPU target) a struct built of known
# fields -- a memref descriptor made by an allocation, a global's address, a view, or
# a function argument's fields packed back -- is not built as llvm.mlir.poison and one
# llvm.insertvalue per field (12 ops for a rank-4 memref) while the conversion runs:
# MemRefDescriptor keeps the fields in a list while a pattern fills them, and
# LLVMBuilder.pack makes one op standing for the struct,
#
#     %d = builtin.unrealized_conversion_cast %alloc, %aligned, %c0, %c1, ..., %c1
#            : !llvm.ptr, !llvm.ptr, i64, ... to !llvm.struct<(ptr, ptr, i64, ...)>
#            {strata.packed}
#
# its operands the flattened fields (arrays element by element). An extractvalue of a
# field is that operand (inserted_value), as it was through the chain. Most descriptors
# are only taken apart (a memref access, a kernel call, a call of an outlined loop nest
# passes fields), and such an op, left unread, is erased with the dead llvm ops as the
# conversion ends; the few read whole (a returned memref, a block argument, a C
# interface's stack copy) then become the insertvalue chain they stood for
# (erase_dead_llvm_ops in umbrella.py), so the output is the program the chains made before.
# DenseNet-121: 4,302 insertvalues and 381 poisons made while converting before, of
# which half were erased again unread.
# The discardable attribute marking an unrealized_conversion_cast that stands for a
# struct built of its operands, its fields flattened ([Note: structs packed lazily]).
PACKED = "strata.packed"
_PACKED_ATTRS = {PACKED: A.UnitAttr()}


def is_packed(op) -> bool:
    """Whether `op` is a lazily packed struct ([Note: structs packed lazily])."""
    return op.name == _CAST and PACKED in op._attrs


def flat_field(st, pos):
    """Index among the flattened fields of struct type `st` (arrays of scalars laid out
    element by element, as `_pack_struct` of type_converter.py) of the field at `pos`,
    or None when `pos` names no single scalar field (a whole array)."""
    types = st.types
    i = pos[0]
    if i >= len(types):
        return None
    k = 0
    for t in types[:i]:
        k += t.size if isinstance(t, LT.LLVMArrayType) else 1
    t = types[i]
    if isinstance(t, LT.LLVMArrayType):
        if len(pos) != 2 or pos[1] >= t.size:
            return None
        return k + pos[1]
    return k if len(pos) == 1 else None


def unpack_packed_struct(op) -> None:
    """Replace the lazily packed struct `op` ([Note: structs packed lazily]) by its
    llvm.mlir.poison + llvm.insertvalue chain (built before it) and erase it."""
    from ...ir.builder import Builder, InsertionPoint
    res = op.results[0]
    if res.has_uses():
        lb = LLVMBuilder(Builder(InsertionPoint.before_op(op)), op.loc)
        res.replace_all_uses_with(lb.pack(res.type, [x.value for x in op._operands]))
    op.erase()


_POSITIONS: dict = {}


def _i64a(values):
    """`array<i64: ...>` of an aggregate position (a few distinct ones a model: looked up
    by the tuple, not built and uniqued again per op)."""
    key = tuple(values)
    a = _POSITIONS.get(key)
    if a is None:
        a = _POSITIONS[key] = A.DenseArrayAttr(A.i64, key)
    return a


class LLVMBuilder:
    """`fold`: extractvalue of a field that an insertvalue chain sets is that value,
    no op (see convert-to-llvm's fold-aggregates). `consts`: a dict shared by the
    builders of one conversion, through which integer constants are reused within a
    block ([Note: constants reused while lowering])."""

    __slots__ = ("b", "loc", "fold", "consts")

    def __init__(self, builder, loc=None, fold=False, consts=None):
        self.b = builder
        self.loc = loc
        self.fold = fold
        self.consts = consts

    # ------------------------------------------------------------ plumbing
    def create(self, name, operands=(), results=(), props=None, attrs=None, successors=(),
               regions=0):
        cls = _OPS.get(name) or llvm_op(name)
        op = cls.create(operands if type(operands) in (list, tuple) else list(operands),
                        results if type(results) in (list, tuple) else list(results),
                        props, attrs, successors, regions, self.loc)
        return self.b.insert(op)

    def op1(self, name, operands, result, props=None):
        """The result of a new op `name` with one result (the common case, called
        directly: op creation is most of a lowering's time)."""
        cls = _OPS.get(name) or llvm_op(name)
        op = cls.create(operands, (result,), props, None, (), 0, self.loc)
        return self.b.insert(op).results[0]

    # ------------------------------------------------------------ constants
    def const_attr(self, attr, t):
        return self.op1("llvm.mlir.constant", [], t, {"value": attr})

    def const(self, value, t):
        """`llvm.mlir.constant(value : t) : t` for an integer or float type."""
        if type(t) is A.FloatType:
            return self.const_attr(A.FloatAttr(float(value), t), t)
        return self.int_const(int(value), t)

    def index_const(self, value, t):
        """An index-typed constant of the converted index type `t`."""
        return self.int_const(int(value), t)

    def int_const(self, value: int, t):
        """`llvm.mlir.constant(value : t) : t`, an integer; with `consts`, the one made
        before in this block where there is one.

        [Note: constants reused while lowering]
        Lowering a model's memrefs asks for the same few integers (sizes, strides, 0, 1,
        element sizes) again and again: DenseNet-121's convert-to-llvm made 10,608
        llvm.mlir.constant ops, of which merge_llvm_constants ([Note: one constant per
        value]) then erased 9,000. Under fold-aggregates the builders of one conversion
        share a dict (value, type) -> the last constant made, and reuse it where it is
        still in the block being built (a pattern that failed took its ops back: their
        parent is None) and the insertion point is before an op: the conversion goes
        forward through each block, so that constant is above it. At the end of a
        block (a new block being filled) or in another block a new one is made, as
        before; the merge that follows still makes one per value and region. The
        program is the same as what the merge made of the repeats."""
        cache = self.consts
        if cache is not None:
            ip = self.b.ip
            if ip.before is not None:
                key = (value, t)
                v = cache.get(key)
                if v is not None:
                    d = v.owner
                    if d is not None and d.parent is ip.block:
                        return v
                v = cache[key] = self.const_attr(A.IntegerAttr(value, t), t)
                return v
        return self.const_attr(A.IntegerAttr(value, t), t)

    def bool_const(self, value):
        return self.const_attr(A.IntegerAttr(int(bool(value)), A.i1), A.i1)

    def poison(self, t):
        return self.op1("llvm.mlir.poison", [], t)

    def undef(self, t):
        return self.op1("llvm.mlir.undef", [], t)

    def zero(self, t=LT.ptr):
        return self.op1("llvm.mlir.zero", [], t)

    # ------------------------------------------------------------ arithmetic
    def binary(self, name, lhs, rhs, props=None):
        return self.op1(name, [lhs, rhs], lhs.type, props)

    def add(self, a, b, props=None):
        return self.binary("llvm.add", a, b, props)

    def sub(self, a, b, props=None):
        return self.binary("llvm.sub", a, b, props)

    def mul(self, a, b, props=None):
        return self.binary("llvm.mul", a, b, props)

    def urem(self, a, b):
        return self.binary("llvm.urem", a, b)

    def icmp(self, pred: str, a, b):
        return self.op1("llvm.icmp", [a, b], _i1_like(a.type),
                        {"predicate": icmp_predicate(pred)})

    def select(self, c, a, b):
        return self.op1("llvm.select", [c, a, b], a.type)

    def cast(self, name, v, t):
        return self.op1(name, [v], t)

    def ptrtoint(self, v, t):
        return self.cast("llvm.ptrtoint", v, t)

    def inttoptr(self, v, t=LT.ptr):
        return self.cast("llvm.inttoptr", v, t)

    # ------------------------------------------------------------ aggregates
    def extractvalue(self, agg, pos):
        if self.fold:
            v = inserted_value(agg, pos)
            if v is not None:
                return v
        t = agg.type
        for i in pos:
            t = t.types[i] if isinstance(t, LT.LLVMStructType) else t.element_type
        return self.op1("llvm.extractvalue", [agg], t, {"position": _i64a(pos)})

    def insertvalue(self, agg, v, pos):
        return self.op1("llvm.insertvalue", [agg, v], agg.type, {"position": _i64a(pos)})

    def pack(self, st, values):
        """Struct type `st` made of `values`, its fields flattened (arrays of scalars
        element by element): llvm.mlir.poison + llvm.insertvalue, or with `fold` one
        packed struct that becomes that chain only if something reads it whole
        ([Note: structs packed lazily])."""
        if self.fold:
            op = _OPS.get(_CAST) or llvm_op(_CAST)
            return self.b.insert(op.create(list(values), (st,), None, _PACKED_ATTRS, (), 0,
                                           self.loc)).results[0]
        d = self.poison(st)
        k = 0
        for i, t in enumerate(st.types):
            if isinstance(t, LT.LLVMArrayType):
                for j in range(t.size):
                    d = self.insertvalue(d, values[k], [i, j])
                    k += 1
            else:
                d = self.insertvalue(d, values[k], [i])
                k += 1
        return d

    # ------------------------------------------------------------ memory
    def gep(self, base, indices, elem_type, flags=0, result=None):
        """`llvm.getelementptr base[indices]`: ints are constant indices; `flags` the
        GEPNoWrapFlags bits (INBOUNDS_NUW for `inbounds|nuw`)."""
        raw, dyn = [], []
        for i in indices:
            if isinstance(i, int):
                raw.append(i)
            else:
                raw.append(GEP_DYNAMIC)
                dyn.append(i)
        props = {"rawConstantIndices": A.DenseArrayAttr(A.i32, raw),
                 "elem_type": A.TypeAttr(elem_type)}
        if flags:
            props["noWrapFlags"] = A.IntegerAttr(flags, A.i32)
        return self.op1("llvm.getelementptr", [base] + dyn, result or base.type, props)

    def load(self, ptr, t, alignment=0, nontemporal=False):
        props = {}
        if alignment:
            props["alignment"] = A.IntegerAttr(alignment, A.i64)
        if nontemporal:
            props["nontemporal"] = A.UnitAttr()
        return self.op1("llvm.load", [ptr], t, props)

    def store(self, v, ptr, alignment=0, nontemporal=False):
        props = {}
        if alignment:
            props["alignment"] = A.IntegerAttr(alignment, A.i64)
        if nontemporal:
            props["nontemporal"] = A.UnitAttr()
        return self.create("llvm.store", [v, ptr], [], props)

    def alloca(self, n, elem_type, alignment=0, result=LT.ptr):
        props = {"elem_type": A.TypeAttr(elem_type)}
        if alignment:
            props["alignment"] = A.IntegerAttr(alignment, A.i64)
        return self.op1("llvm.alloca", [n], result, props)

    def size_of(self, elem_type, index_type):
        """sizeof(elem_type) in bytes: ptrtoint(gep null[1])."""
        null = self.zero(LT.ptr)
        return self.ptrtoint(self.gep(null, [1], elem_type), index_type)

    # ------------------------------------------------------------ calls
    def call(self, callee: str, args, result=None):
        op = llvm_op("llvm.call").new(callee, list(args), result, loc=self.loc)
        self.b.insert(op)
        return op.results[0] if op.results else None

    def intr(self, name, args, result=None, props=None):
        """An intrinsic op `llvm.intr.<name>`."""
        return self.create("llvm.intr." + name, args, [result] if result else [], props)


def icmp_predicate(name):
    from ...dialects.llvm.arith_ops import ICMP_PREDICATES
    return A.IntegerAttr(ICMP_PREDICATES.index(name), A.i64)


def fcmp_predicate(name):
    from ...dialects.llvm.arith_ops import FCMP_PREDICATES
    name = {"false": "_false", "true": "_true"}.get(name, name)
    return A.IntegerAttr(FCMP_PREDICATES.index(name), A.i64)


def _i1_like(t):
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, A.i1, getattr(t, "scalable_dims", None))
    return A.i1
