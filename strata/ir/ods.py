"""Declarative op definitions, in the spirit of MLIR's ODS and xDSL's IRDL.

    class AddIOp(Op):
        name = "arith.addi"
        traits = (Pure, Commutative, SameOperandsAndResultType)
        lhs = Operand(SignlessIntegerLike)
        rhs = Operand(SignlessIntegerLike)
        overflowFlags = Prop(OverflowFlagsAttr, default=...)
        result = Result(SignlessIntegerLike)
        assembly = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"

The class body's declarations become the op's accessors (`op.lhs` is the operand value,
`op.overflowFlags` the property) and its verifier: operand/result counts and type
constraints, required properties, region and successor counts, then every trait's check,
then the op's own `verify_()` hook. Errors read like MLIR's.

[Note: field names]
A declared field is a class attribute, so a field named like a member of `Operation` or
`Op` hides that member on every instance of the op: math's unary ops once called their
operand `operand` (upstream's name), and generic code calling `op.operand(0)` on
`math.tanh` got the operand's value and called it ('BlockArgument' object is not callable,
in linalg-fuse-elementwise-ops). So the class statement itself fails when a field's name is
that of a method, property, slot or class setting of `Operation` or `Op`
(`_check_field_names`), naming the op and the field, and so does a subclass member that
hides a field its base declares; such a field takes upstream's name with a trailing
underscore, and its assembly format says `$operand_`:

    class TanhOp(_FloatUnary):
        name = "math.tanh"
        operand_ = Operand(FloatLike)     # upstream's `operand`
        result = Result(FloatLike)
        assembly = "$operand_ (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"

The printed IR does not change: operand, result, region and successor names never appear
in it. A property's name does: a colliding one keeps it as its key,
`name_ = Prop(StrAttr, key="name")` (the assembly format then says `$name`). The one
exception is a single `result` that is the op's only result declaration: it returns
`results[0]` as `Operation.result` does on every op that verifies, so upstream's common
`$result` stays.
"""
from __future__ import annotations

from . import attributes as A
from .constraints import AnyAttr, AnyType, Constraint
from .core import Operation, Region as IRRegion
from .traits import AttrSizedOperandSegments, AttrSizedResultSegments

__all__ = ["Op", "Operand", "VarOperand", "OptOperand", "Result", "VarResult", "OptResult",
           "Prop", "OptProp", "RegionDef", "VarRegionDef", "Successor", "VarSuccessor"]

SINGLE, VARIADIC, OPTIONAL = 0, 1, 2


class _Def:
    __slots__ = ("constraint", "kind", "name", "index")

    def __init__(self, constraint=None, kind=SINGLE):
        self.constraint = constraint
        self.kind = kind
        self.name = None
        self.index = 0


class Operand(_Def):
    __slots__ = ()

    def __init__(self, constraint: Constraint = AnyType, kind=SINGLE):
        super().__init__(constraint, kind)

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if type(op)._fixed_operands:  # every operand single: the index is the position
            return op._operands[self.index].value
        start, size = op._segment(self.index, False)
        if self.kind == SINGLE:
            return op._operands[start].value
        if self.kind == OPTIONAL:
            return op._operands[start].value if size else None
        return [o.value for o in op._operands[start:start + size]]


def VarOperand(constraint: Constraint = AnyType):
    return Operand(constraint, VARIADIC)


def OptOperand(constraint: Constraint = AnyType):
    return Operand(constraint, OPTIONAL)


class Result(_Def):
    __slots__ = ()

    def __init__(self, constraint: Constraint = AnyType, kind=SINGLE):
        super().__init__(constraint, kind)

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if type(op)._fixed_results:  # every result single: the index is the position
            return op.results[self.index]
        start, size = op._segment(self.index, True)
        if self.kind == SINGLE:
            return op.results[start]
        if self.kind == OPTIONAL:
            return op.results[start] if size else None
        return list(op.results[start:start + size])


def VarResult(constraint: Constraint = AnyType):
    return Result(constraint, VARIADIC)


def OptResult(constraint: Constraint = AnyType):
    return Result(constraint, OPTIONAL)


class Prop(_Def):
    """An inherent attribute, stored and printed as a property (`<{...}>`)."""

    __slots__ = ("default", "fmt", "key")

    def __init__(self, constraint: Constraint = AnyAttr, default=None, optional=False,
                 fmt=None, key=None):
        super().__init__(constraint, OPTIONAL if (optional or default is not None) else SINGLE)
        self.default = default
        # How the property appears in a custom assembly format (syntax.asm_format).
        self.fmt = fmt
        # The property's name in the IR when the field's differs (see [Note: field names]).
        self.key = key

    def __get__(self, op, owner=None):
        if op is None:
            return self
        v = op._props.get(self.name)
        return self.default if v is None else v

    def __set__(self, op, value):
        if value is None:
            op.properties.pop(self.name, None)
        else:
            op.properties[self.name] = value


def OptProp(constraint: Constraint = AnyAttr):
    return Prop(constraint, optional=True)


class RegionDef(_Def):
    """A region; `single_block` asks for exactly one block (SizedRegion<1>)."""

    __slots__ = ("single_block",)

    def __init__(self, single_block=False, kind=SINGLE):
        super().__init__(None, kind)
        self.single_block = single_block

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if self.kind == VARIADIC:
            return list(op.regions[self.index:])
        return op.regions[self.index]


def VarRegionDef(single_block=False):
    return RegionDef(single_block, VARIADIC)


class Successor(_Def):
    __slots__ = ()

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if self.kind == VARIADIC:
            return list(op.successors[self.index:])
        return op.successors[self.index]


def VarSuccessor():
    return Successor(None, VARIADIC)


# The declared fields (_Def instances) each class defines itself, by class: a subclass's
# fields are its bases' (from here) and its own, so that the ~800 op classes made on
# import do not each rescan the large dicts of Operation and the ODS base classes.
# (A class's own dict is read when its first subclass is made: fields are declared in
# the class body.)
_OWN_DEFS: dict = {}


def _own_defs(cls) -> tuple:
    defs = _OWN_DEFS[cls] = tuple((k, v) for k, v in cls.__dict__.items()
                                  if isinstance(v, _Def))
    return defs


class Op(Operation):
    """Base of registered ops; subclasses declare their parts as class attributes."""

    __slots__ = ()

    name = "<op>"
    traits: tuple = ()
    assembly: str | None = None
    # OpAsmOpInterface::getDefaultDialect: ops in regions may drop this prefix.
    default_dialect: str | None = None
    _operand_defs: tuple = ()
    _result_defs: tuple = ()
    _prop_defs: tuple = ()
    _prop_names: frozenset = frozenset()
    _region_defs: tuple = ()
    _successor_defs: tuple = ()
    _fixed_operands = True
    _fixed_results = True

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        operands, results, props, regions, succs = [], [], [], [], []
        seen = {}
        for base in reversed(cls.__mro__[1:]):
            defs = _OWN_DEFS.get(base)
            if defs is None:
                defs = _own_defs(base)
            seen.update(defs)
        seen.update(_own_defs(cls))
        for k, v in seen.items():
            v.name = (v.key or k) if isinstance(v, Prop) else k
            if isinstance(v, Operand):
                v.index = len(operands)
                operands.append(v)
            elif isinstance(v, Result):
                v.index = len(results)
                results.append(v)
            elif isinstance(v, Prop):
                props.append(v)
            elif isinstance(v, RegionDef):
                v.index = len(regions)
                regions.append(v)
            elif isinstance(v, Successor):
                v.index = len(succs)
                succs.append(v)
        cls._operand_defs = tuple(operands)
        cls._result_defs = tuple(results)
        cls._prop_defs = tuple(props)
        cls._prop_names = frozenset(p.name for p in props)
        cls._region_defs = tuple(regions)
        cls._successor_defs = tuple(succs)
        cls._fixed_operands = all(d.kind == SINGLE for d in operands)
        cls._fixed_results = all(d.kind == SINGLE for d in results)
        _check_field_names(cls, seen, results)

    # ---------------------------------------------------------------- segments

    def _segment(self, index: int, is_result: bool):
        """(start, size) of the index-th declared operand or result group."""
        cls = type(self)
        if is_result:
            fixed, defs, total = cls._fixed_results, cls._result_defs, len(self.results)
            seg_trait, seg_name = AttrSizedResultSegments, "resultSegmentSizes"
        else:
            fixed, defs, total = cls._fixed_operands, cls._operand_defs, len(self._operands)
            seg_trait, seg_name = AttrSizedOperandSegments, "operandSegmentSizes"
        if fixed:
            return index, 1
        if seg_trait in cls.traits:
            sizes = self._props.get(seg_name)
            if sizes is None:
                sizes = _default_segments(defs, total)
            else:
                sizes = sizes.value
            return sum(sizes[:index]), sizes[index]
        sizes = _default_segments(defs, total)
        return sum(sizes[:index]), sizes[index]

    def value_of(self, name: str):
        """An operand or result by declared name (used by AllTypesMatch)."""
        return getattr(self, name)

    # ---------------------------------------------------------------- building

    @classmethod
    def build(cls, *, loc=None, attributes=None, result_types=None, regions=None,
              successors=(), **kw):
        """Create an op from declared names: operands, properties, result types."""
        operands, seg = [], []
        for d in cls._operand_defs:
            v = kw.pop(d.name, None)
            if d.kind == SINGLE:
                if v is None:
                    raise TypeError(f"{cls.name}: missing operand '{d.name}'")
                operands.append(v)
                seg.append(1)
            elif v is None:
                seg.append(0)
            elif d.kind == OPTIONAL:
                operands.append(v)
                seg.append(1)
            else:
                operands.extend(v)
                seg.append(len(v))
        props = {}
        for d in cls._prop_defs:
            v = kw.pop(d.name, None)
            if v is not None:
                props[d.name] = v
        if AttrSizedOperandSegments in cls.traits:
            props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, seg)
        if result_types is None:
            result_types = []
            for d in cls._result_defs:
                t = kw.pop(d.name, None)
                if t is None:
                    continue
                if d.kind == VARIADIC:
                    result_types.extend(t)
                else:
                    result_types.append(t)
            if not result_types and cls._result_defs:
                result_types = cls.infer_result_types(operands, props)
        if kw:
            raise TypeError(f"{cls.name}: unknown arguments {sorted(kw)}")
        nregions = regions if regions is not None else len(cls._region_defs)
        return cls.create(operands, result_types, props, attributes, successors,
                          nregions, loc)

    @classmethod
    def infer_result_types(cls, operands, properties):
        """InferTypeOpInterface: result types from operands; SameOperandsAndResultType
        ops infer their single result type from the first operand."""
        from .traits import SameOperandsAndResultType
        if SameOperandsAndResultType in cls.traits and operands:
            return [operands[0].type] * len(cls._result_defs)
        raise TypeError(f"{cls.name}: result types must be given")

    # ---------------------------------------------------------------- verification

    def verify_invariants(self) -> str | None:
        """Check the declaration; return the first error message or None."""
        cls = type(self)
        # Properties first, then operands, then results: the order of ODS's generated
        # verifyInvariantsImpl, so that an op wrong in several ways reports the same error.
        rdefs = cls._region_defs
        nreg = len(self.regions)
        if nreg != len(rdefs):
            err = _region_count_error(rdefs, nreg)
            if err:
                return err
        # The count traits (results, then operands: ZeroResults, NOperands,
        # AtLeastNOperands...) come before the properties, as ODS lists them first.
        plan = cls.__dict__.get("_count_plan")
        if plan is None:
            plan = cls._count_plan = (_count_rule(cls._result_defs),
                                      _count_rule(cls._operand_defs))
        (nres, res_var), (nops, ops_var) = plan
        n = len(self.results)
        if n != nres and (n < nres or not res_var):
            return _count_error(cls._result_defs, n, "result")
        n = len(self._operands)
        if n != nops and (n < nops or not ops_var):
            return _count_error(cls._operand_defs, n, "operand")
        props = self._props
        for d in cls._prop_defs:
            v = props.get(d.name)
            if v is None:
                if d.kind == SINGLE:
                    return f"requires attribute '{d.name}'"
                continue
            if not d.constraint.check(v):
                return (f"attribute '{d.name}' failed to satisfy constraint: "
                        f"{d.constraint.summary}")
        fast = cls.__dict__.get("_fast_verify")
        if fast is None:
            fast = cls._fast_verify = _fast_verify_plan(cls)
        if fast and not self.regions and not self.successors:
            # Fixed-shape op (the common case): check counts and constraints directly;
            # the general path below only runs to word an error.
            n_ops, op_checks, n_res, res_checks = fast
            ops = self._operands
            res = self.results
            if len(ops) == n_ops and len(res) == n_res:
                for i, check in op_checks:
                    if not check(ops[i].value.type):
                        break
                else:
                    for i, check in res_checks:
                        if not check(res[i].type):
                            break
                    else:
                        return None
        err = _verify_values(self, cls._operand_defs, [o.value for o in self._operands],
                             "operand", AttrSizedOperandSegments, "operandSegmentSizes")
        if err:
            return err
        err = _verify_values(self, cls._result_defs, self.results, "result",
                             AttrSizedResultSegments, "resultSegmentSizes")
        if err:
            return err
        if rdefs:
            # ODS's predicate traits (AllTypesMatch, PredOpTrait) are checked before the
            # region constraints, as in upstream's generated verifyInvariantsImpl.
            preds = cls.__dict__.get("_pred_traits")
            if preds is None:
                from .traits import AllTypesMatch, PredTrait
                preds = cls._pred_traits = tuple(
                    t for t in cls.traits if isinstance(t, (AllTypesMatch, PredTrait)))
            for t in preds:
                err = t.verify(self)
                if err:
                    return err
            for d in rdefs:
                if not d.single_block:
                    continue
                # SizedRegion<1>: exactly one block (each region of a variadic group).
                last = nreg if d.kind == VARIADIC else d.index + 1
                for i in range(d.index, last):
                    if len(self.regions[i].blocks) != 1:
                        return (f"region #{i} ('{d.name}') failed to verify constraint: "
                                "region with 1 blocks")
        sdefs = cls._successor_defs
        nsucc = len(self.successors)
        if sdefs:
            variadic = sdefs[-1].kind == VARIADIC
            if (nsucc < len(sdefs) - 1) if variadic else nsucc != len(sdefs):
                return f"requires {len(sdefs)} successors"
        elif nsucc:
            return "requires zero successors"
        return None

    def verify_(self) -> str | None:
        """Op-specific checks; return an error message or None."""
        return None


_FIELD_KINDS = {Operand: "operand", Result: "result", Prop: "property",
                RegionDef: "region", Successor: "successor"}  # (kinds by exact class)


def _base_api():
    """Every name a field must not take (see [Note: field names]): the members of
    `Operation` and `Op` (methods, properties, slots, class settings), dunders included."""
    api = _base_api.cache
    if api is None:
        api = _base_api.cache = frozenset(dir(Op)) | frozenset(Operation.__slots__)
    return api


_base_api.cache = None


def _check_field_names(cls, fields, results):
    """Refuse a field that hides a member of the base classes (see [Note: field names])."""
    api = _base_api()
    for k, d in fields.items():
        for base in cls.__mro__:  # what `op.<k>` finds first must be the field itself
            if k in base.__dict__:
                if base.__dict__[k] is not d:
                    raise TypeError(
                        f"op definition {cls.__module__}.{cls.__qualname__}: "
                        f"{base.__qualname__}.{k} hides the {_FIELD_KINDS.get(type(d))} "
                        f"'{k}' it inherits; rename one of them")
                break
        if k not in api:
            continue
        if k == "result" and type(d) is Result and d.kind == SINGLE and len(results) == 1:
            continue  # the same value as Operation.result
        what = _FIELD_KINDS.get(type(d), "field")
        member, owner = None, "Op"
        for base in Op.__mro__:
            if k in base.__dict__:
                member, owner = base.__dict__[k], base.__name__
                break
        kind = ("property" if isinstance(member, property) else
                "slot" if k in Operation.__slots__ else
                "method" if callable(member) or isinstance(member, (classmethod,
                                                                    staticmethod)) else
                "class attribute")
        op_name = cls.__dict__.get("name")
        label = (f"'{op_name}' ({cls.__module__}.{cls.__qualname__})"
                 if isinstance(op_name, str) else f"{cls.__module__}.{cls.__qualname__}")
        fix = (f"declare it as `{k}_ = Prop(..., key='{k}')`" if isinstance(d, Prop) else
               f"name the field '{k}_' (the printed IR does not change)")
        raise TypeError(
            f"op definition {label}: {what} '{k}' hides the {kind} {owner}.{k} that every "
            f"op has; {fix}, see [Note: field names] in strata/ir/ods.py")


def _fast_verify_plan(cls):
    """(operand count, checks, result count, checks) for ops with only fixed operands and
    results and no regions or successors; False otherwise."""
    if not (cls._fixed_operands and cls._fixed_results) or cls._region_defs or \
            cls._successor_defs:
        return False
    def checks(defs):
        return tuple((d.index, d.constraint.check) for d in defs
                     if d.constraint is not None and d.constraint is not AnyType)
    return (len(cls._operand_defs), checks(cls._operand_defs), len(cls._result_defs),
            checks(cls._result_defs))


def _default_segments(defs, total):
    nvar = sum(1 for d in defs if d.kind != SINGLE)
    fixed = len(defs) - nvar
    rest = total - fixed
    sizes = []
    for d in defs:
        if d.kind == SINGLE:
            sizes.append(1)
        elif nvar == 1:
            sizes.append(rest)
        else:  # several optional groups without segment sizes: fill in order
            n = 1 if rest > 0 else 0
            sizes.append(n)
            rest -= n
    return sizes


def _region_count_error(rdefs, nreg):
    """The region-count trait's message (upstream's ZeroRegions, OneRegion, NRegions<N>,
    AtLeastNRegions<N>); these traits are checked before the op's invariants."""
    if not rdefs:
        return "requires zero regions"
    if rdefs[-1].kind == VARIADIC:
        need = len(rdefs) - 1
        return f"expected {need} or more regions" if need and nreg < need else None
    if len(rdefs) == 1:
        return "requires one region"
    return f"expected {len(rdefs)} regions"


_ONE = {"result": "requires one result", "operand": "requires a single operand"}


def _count_rule(defs):
    """(number of single values, whether any group is variadic or optional)."""
    return (sum(1 for d in defs if d.kind == SINGLE),
            any(d.kind != SINGLE for d in defs))


def _count_error(defs, n, what):
    """The wording of ODS's count traits (ZeroOperands, OneResult, NOperands,
    AtLeastNOperands...) for `n` values against `defs`."""
    fixed, variadic = _count_rule(defs)
    if variadic:
        return f"expected {fixed} or more {what}s, but found {n}"
    if not defs:
        return f"requires zero {what}s"
    if len(defs) == 1 and what in _ONE:
        return _ONE[what]
    return f"expected {len(defs)} {what}s, but found {n}"


def _verify_values(op, defs, values, what, seg_trait, seg_name):
    cls = type(op)
    n = len(values)
    if all(d.kind == SINGLE for d in defs):
        if n != len(defs):
            # The ZeroResults/OneResult/NResults (and operand) traits' wording.
            if not defs:
                return f"requires zero {what}s"
            if len(defs) == 1 and what in _ONE:
                return _ONE[what]
            return f"expected {len(defs)} {what}s, but found {n}"
        sizes = None
    elif seg_trait in cls.traits:
        seg = op._props.get(seg_name)
        if seg is None or type(seg) is not A.DenseArrayAttr:
            return f"requires dense i32 array attribute '{seg_name}'"
        sizes = seg.value
        if len(sizes) != len(defs):
            return (f"'{seg_name}' attribute for specifying {what} segments must have "
                    f"{len(defs)} elements, but got {len(sizes)}")
        if sum(sizes) != n:
            return (f"{what} count ({n}) does not match with the total size "
                    f"({sum(sizes)}) specified in attribute '{seg_name}'")
    else:
        fixed = sum(1 for d in defs if d.kind == SINGLE)
        if n < fixed:
            return f"expected {fixed} or more {what}s, but found {n}"
        sizes = _default_segments(defs, n)
    i = 0
    for k, d in enumerate(defs):
        size = 1 if sizes is None else sizes[k]
        if d.kind == OPTIONAL and size > 1:
            return f"{what} group '{d.name}' is optional but has {size} values"
        c = d.constraint
        if c is not None and c is not AnyType:
            for j in range(i, i + size):
                t = values[j].type
                if not c.check(t):
                    summary = ("variadic of " if d.kind == VARIADIC else "") + c.summary
                    return f"{what} #{j} must be {summary}, but got '{t}'"
        i += size
    return None


# Re-export under the ODS-ish name for region declarations.
Region = RegionDef
IRRegion = IRRegion
