"""Foundations of the tosa dialect: the `!tosa.shape<N>` type, the enum attributes, the
type constraints of TOSA tensors, the op base class and the checks many ops share.

[Note: TOSA custom forms]
Every TOSA op of the upstream version Strata follows prints as

    %r = tosa.NAME <operands> name(value) ... name<ENUM> ... {attr-dict} : (types) -> types

one `name(value)` per inherent attribute in declaration order (the value without its
type when the attribute kind fixes it: `axis(1)`, `kernel([2, 2])`, `acc_type(f32)`),
enum attributes as `name<CASE>` (omitted when they hold their default), and optional
attributes behind a directive that always takes its leading space, so that an absent
`local_bound` leaves two spaces before the `:` exactly as upstream prints. `TosaOp`
builds that format from the declarations (`_auto_format`); the few ops with their own
syntax (control flow, variables, yield) set `assembly` or `parse`/`print` themselves.

[Note: verification order]
Upstream verifies an op's structure (region, result and operand counts: "requires a
single operand"), then the ODS constraints (attributes, operand and result types), then
its traits in declaration order, then TosaResolvableShapeOperands, then the op's own
verifier, and last the InferTypeOpInterface check of the ops that infer their result
type ("inferred type(s) ... are incompatible with return type(s) of operation ...").
`TosaOp.verify_invariants` and `TosaOp.verify_` follow that order so an op that is wrong
in several ways reports what mlir-opt reports.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.attributes import unique
from ...ir.enum_attr import EnumAttr, EnumAttrKind
from ...ir.ods import OPTIONAL, SINGLE, VARIADIC, Op, Prop
from ...syntax.asm_format import (BareInt, DenseArrayFmt, StrippedAttr, TypeAttrFmt,
                                  install_format)

DYN = A.DYNAMIC

# ---------------------------------------------------------------- types and attributes


class ShapeType(A.Type):
    """`!tosa.shape<N>`: a shape of static rank N whose dims are index values."""

    __slots__ = ("rank",)
    dialect = "tosa"

    def __new__(cls, rank: int):
        def init(o):
            o.rank = rank
        return unique(cls, rank, init)

    def _print(self):
        return f"!tosa.shape<{self.rank}>"


NAN_MODE = EnumAttrKind("tosa", "nan_mode", ["PROPAGATE", "IGNORE"],
                        cpp_name="::mlir::tosa::NanPropagationMode")
ROUNDING_MODE = EnumAttrKind("tosa", "rounding_mode",
                             ["SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND"],
                             cpp_name="::mlir::tosa::RoundingMode")
RESIZE_MODE = EnumAttrKind("tosa", "resize_mode", ["NEAREST_NEIGHBOR", "BILINEAR"],
                           cpp_name="::mlir::tosa::ResizeMode")
ENUM_KINDS = {k.mnemonic: k for k in (NAN_MODE, ROUNDING_MODE, RESIZE_MODE)}
PROPAGATE = NAN_MODE("PROPAGATE")


def parse_attribute(p, mnemonic):
    kind = ENUM_KINDS.get(mnemonic)
    if kind is None:
        p.error(f"unknown attribute `{mnemonic}` in dialect `tosa`")
    return kind.parse_body(p)


def parse_type(p, mnemonic):
    if mnemonic != "shape":
        p.error(f"unknown  type `{mnemonic}` in dialect `tosa`")
    start = p.tok_start
    p.expect("<")
    rank = p.parse_integer()
    p.expect(">")
    if rank < 0:
        p.error(f"invalid rank (must be >= 0): {rank}", start)
    return ShapeType(rank)


def enum_value(attr) -> str | None:
    return attr.value if isinstance(attr, EnumAttr) else None


# ---------------------------------------------------------------- type constraints

def is_int(t) -> bool:
    """Tosa_Int: signless or unsigned integers (signed `si` types are not TOSA's)."""
    return type(t) is A.IntegerType and t.signedness != A.IntegerType.SIGNED


def is_float(t) -> bool:
    return type(t) is A.FloatType


def is_number(t) -> bool:
    return is_int(t) or is_float(t)


def _signless(width):
    return lambda t: type(t) is A.IntegerType and t.signedness == 0 and t.width == width


def _no_zero_dims(t) -> bool:
    return type(t) is A.RankedTensorType and 0 not in t.shape


def _tensor(t) -> bool:
    return type(t) is A.UnrankedTensorType or _no_zero_dims(t)


def tensor_of(elem, what: str, rank=None, prefix=""):
    """A tosa-conformant tensor (no zero dims) of `elem` elements; `rank`: an int, a
    (min,) tuple for "at least", or None; unranked tensors always qualify."""
    if rank is None:
        def check(t):
            return _tensor(t) and elem(t.element_type)
    elif isinstance(rank, tuple):
        lo = rank[0]

        def check(t):
            return _tensor(t) and elem(t.element_type) and (
                type(t) is A.UnrankedTensorType or t.rank >= lo)
    else:
        def check(t):
            return _tensor(t) and elem(t.element_type) and (
                type(t) is A.UnrankedTensorType or t.rank == rank)
    return C.Constraint(check, f"{prefix}tosa-conformant tensor of {what} values")


def scalar_tensor_of(elem, what: str):
    """Tosa_Scalar*Tensor: unranked, or rank 1 with every dim 1."""
    def check(t):
        if type(t) is A.UnrankedTensorType:
            return elem(t.element_type)
        return (type(t) is A.RankedTensorType and t.shape == (1,)
                and elem(t.element_type))
    return C.Constraint(check, f"tosa-conformant scalar tensor of {what} values")


NUMBER = "number"
Tensor = tensor_of(is_number, NUMBER)
I1Tensor = tensor_of(lambda t: t is A.i1, "1-bit signless integer")
FloatTensor = tensor_of(is_float, "floating-point")
Int32Or64Tensor = tensor_of(lambda t: t is A.i32 or t is A.i64,
                            "32-bit signless integer or 64-bit signless integer")
TensorAtLeast1D = tensor_of(is_number, "at least rank 1 of number", rank=(1,))
TensorAtLeast2D = tensor_of(is_number, "at least rank 2 of number", rank=(2,))
Tensor1D = tensor_of(is_number, NUMBER, 1, "1D ")
Tensor3D = tensor_of(is_number, NUMBER, 3, "3D ")
Tensor4D = tensor_of(is_number, NUMBER, 4, "4D ")
Tensor5D = tensor_of(is_number, NUMBER, 5, "5D ")
IndexTensor2D = tensor_of(lambda t: t is A.i32 or t is A.i64,
                          "32-bit signless integer or 64-bit signless integer", 2, "2D ")
Int8Tensor1D = tensor_of(_signless(8), "8-bit signless integer", 1, "1D ")
Int16Or32Tensor1D = tensor_of(lambda t: t is A.i16 or t is A.i32,
                              "16-bit signless integer or 32-bit signless integer", 1, "1D ")
ScalarTensor = scalar_tensor_of(is_number, NUMBER)
ScalarInt8Tensor = scalar_tensor_of(_signless(8), "8-bit signless integer")
ScalarInt32Tensor = scalar_tensor_of(_signless(32), "32-bit signless integer")
ScalarIntOrFloatTensor = scalar_tensor_of(
    is_number, "unsigned integer or signless integer or floating-point")
Shape = C.Constraint(lambda t: type(t) is ShapeType,
                     "Shape with static rank and Index element type")


def shape_of_rank(n):
    return C.Constraint(lambda t: type(t) is ShapeType and t.rank == n,
                        f"Tosa shape type of rank {n}")


# ---------------------------------------------------------------- attribute constraints

# [Note: property storage]
# Upstream stores each inherent attribute in a typed property slot (IntegerAttr,
# DenseI64ArrayAttr, BoolAttr, ...). A generic form giving an attribute of another class
# fails while the properties are converted, before any constraint is checked:
# `invalid properties {...} for op tosa.transpose: Invalid attribute `perms` in property
# conversion: array<i64: 1, 0>`. STORAGE maps a constraint to the class test of its
# slot; `TosaOp.verify_invariants` runs those tests first.
STORAGE: dict = {}


def _stored(constraint, slot):
    STORAGE[constraint] = slot
    return constraint


def _int_attr(a):
    return type(a) is A.IntegerAttr


def _dense_array(et):
    return lambda a: type(a) is A.DenseArrayAttr and a.element_type is et


I32Attr = _stored(C.IntegerAttrOf(32), _int_attr)
BoolAttr = _stored(C.Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i1,
                                "bool attribute"),
                   lambda a: type(a) is A.IntegerAttr and a.type is A.i1)
StrAttr = _stored(C.Constraint(lambda a: type(a) is A.StringAttr, "string attribute"),
                  lambda a: type(a) is A.StringAttr)
_INT_ARRAYS = {}


def int_array(n):
    c = _INT_ARRAYS.get(n)
    if c is None:
        c = _INT_ARRAYS[n] = _stored(C.Constraint(
            lambda a: type(a) is A.DenseArrayAttr and a.element_type is A.i64
            and len(a.value) == n, f"i64 dense array attribute with exactly {n} elements"),
            _dense_array(A.i64))
    return c


DenseI32Array = _stored(C.Constraint(_dense_array(A.i32), "i32 dense array attribute"),
                        _dense_array(A.i32))
_ACC = (A.i32, A.IntegerType(48), A.i64, A.f16, A.f32, A.bf16)
AccType = _stored(C.Constraint(lambda a: type(a) is A.TypeAttr and a.value in _ACC,
                               "type attribute of 32-bit signless integer or 48-bit signless "
                               "integer or 64-bit signless integer or 16-bit float or 32-bit "
                               "float or bfloat16 type"),
                  lambda a: type(a) is A.TypeAttr)
IntOrFloatAttr = C.Constraint(lambda a: type(a) in (A.IntegerAttr, A.FloatAttr),
                              "arbitrary integer attribute or arbitrary float attribute")


def _elements_attr(a):
    from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
    return isinstance(a, (DenseElementsAttr, DenseResourceElementsAttr))


def _int_elements(a):
    from ...ir.dense import DenseElementsAttr
    return isinstance(a, DenseElementsAttr) and type(a.type.element_type) in (
        A.IntegerType, A.IndexType)


ElementsAttr = _stored(C.Constraint(_elements_attr, "constant vector/tensor attribute"),
                       _elements_attr)
IndexElementsAttr = _stored(C.Constraint(
    lambda a: _elements_attr(a) and a.type.element_type is A.index,
    "index elements attribute"), _int_elements)


def enum_constraint(kind, summary):
    def check(a):
        return isinstance(a, EnumAttr) and a.kind is kind
    return _stored(C.Constraint(check, summary), check)


NanModeAttr = enum_constraint(NAN_MODE, "Supported NaN propagation strategies")
RoundingModeAttr = enum_constraint(ROUNDING_MODE, "Supported rounding modes")
ResizeModeAttr = enum_constraint(RESIZE_MODE, "Supported resize/upsampling strategies")


def nan_mode_prop():
    """DefaultValuedAttr<NanPropagationMode, PROPAGATE>: generic forms always show it."""
    return Prop(NanModeAttr, default=PROPAGATE, fmt=StrippedAttr("tosa", "nan_mode"))


def prop(constraint, fmt=None, optional=False):
    return Prop(constraint, optional=optional, fmt=fmt)


def i32_prop():
    return Prop(I32Attr, fmt=BareInt(A.i32))


def int_array_prop(n):
    return Prop(int_array(n), fmt=DenseArrayFmt(A.i64))


def acc_type_prop():
    return Prop(AccType, fmt=TypeAttrFmt())


def bool_prop(optional=False):
    return Prop(BoolAttr, optional=optional)


# ---------------------------------------------------------------- traits

def shape_str(shape) -> str:
    """getShapeString: `'2x?x4'`."""
    return "'" + "x".join("?" if d == DYN else str(d) for d in shape) + "'"


def dims_str(shape) -> str:
    """A shape printed into a diagnostic as upstream's interleaveComma: `1, ?, 4`."""
    return ", ".join("?" if d == DYN else str(d) for d in shape)


def ranked(t) -> bool:
    return type(t) is A.RankedTensorType


def compatible_dims(a, b) -> bool:
    return len(a) == len(b) and all(x == y or x == DYN or y == DYN for x, y in zip(a, b))


def compatible_types(a, b) -> bool:
    """verifyCompatibleShape on types: unranked goes with anything."""
    if not ranked(a) or not ranked(b):
        return True
    return compatible_dims(a.shape, b.shape)


def broadcast_shapes(s1, s2):
    """OpTrait::util::getBroadcastedShape; None when not broadcastable."""
    out = []
    n = max(len(s1), len(s2))
    a = [1] * (n - len(s1)) + list(s1)
    b = [1] * (n - len(s2)) + list(s2)
    for x, y in zip(a, b):
        if x == DYN or y == DYN:
            if x > 1:
                out.append(x)
            elif y > 1:
                out.append(y)
            elif x == 1:
                out.append(y)
            elif y == 1:
                out.append(x)
            else:
                out.append(DYN)
        elif x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return out


def resolve_broadcast(s1, s2):
    """TOSA's resolveBroadcastShape step (size-1 dims broadcast, a static dim wins over a
    dynamic one); None when two static dims differ."""
    n = max(len(s1), len(s2))
    a = [1] * (n - len(s1)) + list(s1)
    b = [1] * (n - len(s2)) + list(s2)
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x != DYN and y != DYN and x != y:
            return None
        else:
            out.append(y if x == DYN else x)
    return out


class _ResultsBroadcastableShape(T.Trait):
    __slots__ = ()

    def verify(self, op):
        shape = []
        for o in op._operands:
            t = o.value.type
            if not ranked(t):
                return None
            shape = broadcast_shapes(shape, t.shape)
            if shape is None:
                return "operands don't have broadcast-compatible shapes"
        for r in op.results:
            t = r.type
            # only the result's trailing dims are compared (a result of another rank is
            # SameOperandsAndResultRank's to report)
            if ranked(t) and not compatible_dims(shape, t.shape[max(0, t.rank - len(shape)):]):
                return (f"result type {shape_str(t.shape)} not broadcast compatible with "
                        f"broadcasted operands's shapes {shape_str(shape)}")
        return None


class _SameOperandsAndResultRank(T.Trait):
    __slots__ = ()

    def verify(self, op):
        rank = None
        for o in op._operands:
            t = o.value.type
            if ranked(t):
                if rank is None:
                    rank = t.rank
                elif t.rank != rank:
                    return "operands don't have matching ranks"
        for r in op.results:
            t = r.type
            if ranked(t):
                if rank is None:
                    rank = t.rank
                elif t.rank != rank:
                    return "result type has different rank than operands"
        return None


ResultsBroadcastableShape = _ResultsBroadcastableShape("ResultsBroadcastableShape")
SameOperandsAndResultRank = _SameOperandsAndResultRank("SameOperandsAndResultRank")
SameOperandsAndResultShape = T.SameOperandsAndResultShape
SameOperandsAndResultElementType = T.SameOperandsAndResultElementType
SameOperandsElementType = T.SameOperandsElementType
ELEMENTWISE = (ResultsBroadcastableShape, SameOperandsAndResultRank)


def elt(t):
    return t.element_type if isinstance(t, A.ShapedType) else t


# ---------------------------------------------------------------- constants


def const_elements(v):
    """The DenseElementsAttr a value is a constant of (tosa.const, arith.constant), or
    None (m_Constant)."""
    from ...ir.dense import DenseElementsAttr
    op = v.defining_op
    if op is None:
        return None
    name = op.name
    if name == "tosa.const":
        a = op.properties.get("values")
    elif name == "arith.constant":
        a = op.properties.get("value")
    else:
        return None
    return a if isinstance(a, DenseElementsAttr) else None


def const_shape_values(v):
    """tosa::getConstShapeValues: the values of a `tosa.const_shape`, else None."""
    from ...ir.dense import DenseElementsAttr
    op = v.defining_op
    if op is None or op.name != "tosa.const_shape":
        return None
    a = op.properties.get("values")
    if not isinstance(a, DenseElementsAttr):
        return None
    return [int(x) for x in a.array.reshape(-1)]


def zero_point(v):
    """getZeroPoint: None when not constant; floats give 0 or -1 (nonzero)."""
    a = const_elements(v)
    if a is None:
        return None
    et = a.element_type
    x = a.array.reshape(-1)
    if x.size == 0:
        return None
    if is_float(et):
        return 0 if float(x[0]) == 0.0 else -1
    if type(et) is A.IntegerType:
        return int(x[0])
    return -1


def verify_zero_point(zp_value, zp, what):
    """verifyZeroPoint: only int8 zero points may be nonzero."""
    if elt(zp_value.type) is not A.i8 and zp != 0:
        return f"{what.lower()} zero point must be zero for non-int8 integer types"
    return None


def zp_type_error(data_elt, zp_value, what):
    """The zero point of `what` must have its element type."""
    ze = elt(zp_value.type)
    if data_elt is not ze:
        return (f"expect both {what} and its zero point are the same element type, got "
                f"'{data_elt}' and '{ze}'")
    return None


def zp_value_errors(checks):
    """verifyZeroPoint over (zero point value, operand name) pairs (constant ones)."""
    for zpv, what in checks:
        zp = zero_point(zpv)
        if zp is not None:
            err = verify_zero_point(zpv, zp, what)
            if err:
                return err
    return None


def same_element_types(a, b, an="input", bn="output"):
    """verifySameElementTypes."""
    ea, eb = elt(a), elt(b)
    if ea is not eb and isinstance(ea, (A.IntegerType, A.IndexType, A.FloatType)) and \
            isinstance(eb, (A.IntegerType, A.IndexType, A.FloatType)):
        return f"expect {an} and {bn} to have same element type, got '{ea}' and '{eb}'"
    return None


def ranks_match(a, b, an, bn):
    if a.rank != b.rank:
        return f"{an} rank ({a.rank}) does not match {bn} rank ({b.rank})"
    return None


def output_shape_error(out_shape, expected, name="output"):
    """verifyOutputShapeCompatibleWithExpected."""
    if compatible_dims(out_shape, expected):
        return None
    return (f"expected {name} shape {dims_str(out_shape)} to be compatible with inferred "
            f"shape {dims_str(expected)}")


def idiv_check(lhs, rhs):
    if rhs == 0 or lhs % rhs != 0:
        return None
    return lhs // rhs


# ---------------------------------------------------------------- the op base

_SHAPE_OPS = frozenset({"tosa.const_shape", "tosa.add_shape", "tosa.sub_shape",
                        "tosa.mul_shape", "tosa.div_ceil_shape", "tosa.div_floor_shape",
                        "tosa.mod_shape", "tosa.max_shape", "tosa.min_shape",
                        "tosa.concat_shape", "tosa.slice_shape", "tosa.dim",
                        "tosa.exp2_shape", "tosa.log2_ceil_shape", "tosa.log2_floor_shape"})


def _count_error(op):
    """The structural traits upstream checks before anything else (see the note)."""
    cls = type(op)
    rdefs = cls._region_defs
    nreg = len(op.regions)
    if not rdefs:
        if nreg:
            return "requires zero regions"
    elif nreg != len(rdefs):
        return f"expected {len(rdefs)} regions"
    res = cls._result_defs
    nres = len(op.results)
    if all(d.kind == SINGLE for d in res):
        if len(res) == 0 and nres:
            return "requires zero results"
        if len(res) == 1 and nres != 1:
            return "requires one result"
        if len(res) > 1 and nres != len(res):
            return f"expected {len(res)} results"
    ops = cls._operand_defs
    nops = len(op._operands)
    fixed = sum(1 for d in ops if d.kind == SINGLE)
    if all(d.kind == SINGLE for d in ops):
        if fixed == 0 and nops:
            return "requires zero operands"
        if fixed == 1 and nops != 1:
            return "requires a single operand"
        if fixed > 1 and nops != fixed:
            return f"expected {fixed} operands, but found {nops}"
    elif fixed and nops < fixed:
        return f"expected {fixed} or more operands, but found {nops}"
    return None


def _storage_check(op):
    """The property conversion of the note [property storage]."""
    props = op._props
    if not props:
        return
    for d in type(op)._prop_defs:
        a = props.get(d.name)
        slot = STORAGE.get(d.constraint)
        if a is not None and slot is not None and not slot(a):
            from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
            body = A.print_attr_dict_entries(sorted(props.items()))
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, f"invalid properties {{{body}}} for op {op.name}: Invalid "
                f"attribute `{d.name}` in property conversion: {a}"))


class TosaOp(Op):
    """Base of the tosa ops: upstream's verification order and custom form."""

    __slots__ = ()
    # Ops whose result type InferTypeOpInterface checks: a method giving the inferred
    # types (or None) and `compatible_return(inferred, actual)`.
    infers_type = False

    def verify_invariants(self):
        _storage_check(self)
        err = _count_error(self)
        if err:
            return err
        return Op.verify_invariants(self)

    def verify_(self):
        for o in self._operands:
            v = o.value
            if type(v.type) is ShapeType:
                d = v.defining_op
                if d is None or d.name not in _SHAPE_OPS:
                    return "shape operand is not compile time resolvable"
        err = self.verify_op()
        if err:
            return err
        if self.infers_type:
            inferred = self.inferred_types()
            if inferred is not None:
                actual = [r.type for r in self.results]
                if len(inferred) != len(actual) or not all(
                        self.compatible_return(i, a) for i, a in zip(inferred, actual)):
                    return ("inferred type(s) " + ", ".join(f"'{t}'" for t in inferred) +
                            " are incompatible with return type(s) of operation " +
                            ", ".join(f"'{t}'" for t in actual))
        return None

    def verify_op(self) -> str | None:
        return None

    def inferred_types(self):
        return None

    @staticmethod
    def compatible_return(inferred, actual) -> bool:
        """COMPATIBLE_RETURN_TYPES: same element type, compatible shapes."""
        return elt(inferred) is elt(actual) and compatible_types(inferred, actual)


def _auto_format(cls) -> str:
    """The generated custom form of the note at the top of this module."""
    parts = ["operands"]
    for d in cls._prop_defs:
        fmt = d.fmt
        if isinstance(fmt, StrippedAttr):
            if d.kind == OPTIONAL:
                parts.append(f"(`{d.name}` `` ${d.name}^)?")
            else:
                parts.append(f"`{d.name}` `` ${d.name}")
        elif d.kind == OPTIONAL:
            _install_optional_directive(cls, d.name)
            parts.append(f"custom<Opt_{d.name}>(${d.name})")
        else:
            parts.append(f"`{d.name}` `(` ${d.name} `)`")
    parts.append("attr-dict `:` functional-type(operands, results)")
    return " ".join(parts)


def _install_optional_directive(cls, name):
    """`name(value)` when set, nothing (but its space) when absent."""
    def print_(self, pr, value):
        return "" if value is None else f"{name}({pr.attr_str(value)})"

    def parse_(p, st, ctx, d):
        if p.parse_optional_keyword(name):
            p.expect("(")
            st.properties[name] = p.parse_attribute()
            p.expect(")")

    setattr(cls, f"print_Opt_{name}", print_)
    setattr(cls, f"parse_Opt_{name}", staticmethod(parse_))


def rename_prop(cls, attr, key):
    """Store the property declared as `cls.attr` under `key`: for a property whose name
    collides with the class's own `name` (the op name), as tosa.variable_read's `name`."""
    d = cls.__dict__[attr]
    d.name = key
    cls._prop_names = frozenset(p.name for p in cls._prop_defs)


def finish_class(cls):
    """Give `cls` its custom form and its stored defaults."""
    if cls.__dict__.get("parse") is None and cls.__dict__.get("print") is None:
        if cls.__dict__.get("assembly") is None:
            cls.assembly = _auto_format(cls)
        install_format(cls)
    stored = tuple((d.name, d.default) for d in cls._prop_defs if d.default is not None)
    if stored:
        cls._stored_defaults = stored
    return cls


VARIADIC_KIND = VARIADIC
