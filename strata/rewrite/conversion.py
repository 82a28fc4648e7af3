"""Dialect conversion: legalize ops for a target with patterns, converting types on the way.

    target = ConversionTarget()
    target.add_legal_dialect("arith", "func")
    target.add_illegal_dialect("toy")
    tc = TypeConverter()
    tc.add_conversion(lambda t: t)                        # every type is legal ...
    tc.add_conversion(lambda t: i64 if t is i32 else None)   # ... except i32 (tried first)
    apply_full_conversion(module, target, [LowerToyAdd(tc)])

This follows MLIR's DialectConversion: the same legality model, the same driver and the
same error messages, written anew for Strata's Python IR.

[Note: how a conversion runs and how it is undone]
The ops to convert are collected first (pre-order, blocks in dominance order). Each one is
legalized: kept if the target says it is legal, else folded, else rewritten by the first
pattern (ordered by the cost model below) whose result can itself be legalized - the ops
a pattern creates or modifies are legalized recursively, and if that fails the pattern's
changes are undone and the next pattern is tried. A pattern is never applied again
inside its own recursion (unless `has_bounded_rewrite_recursion`), and a depth limit
stops runaway chains.

Nothing is destroyed while converting. Every change made through the
ConversionPatternRewriter is recorded as a rewrite object that can be rolled back:
created ops and blocks are removed again, moved ones put back, modified ops restored
from a snapshot. Replacing or erasing an op only marks it and maps its results to the
replacement values in a value mapping; the IR keeps pointing at the old values until
the conversion commits. Patterns see the new values through their adaptor (`operands`
of `match_and_rewrite`), converted to the pattern's legal types: where the mapped
value has another type, an `unrealized_conversion_cast` (an "unresolved
materialization") bridges the gap.

On success the rewrites are committed (uses are redirected, replaced ops unlinked),
casts that cancel out are folded away, and the casts still used are handed to the type
converter's materializations. The commit itself is journaled, so that when a
materialization fails the journal and then every rewrite are undone: a failed
conversion leaves the input exactly as it was, and raises a DiagnosticError.

[Note: the cost model]
Patterns declare `generated_ops`. A pattern whose generated ops can neither be legal nor
be legalized by other patterns is dropped; the others are ordered per root by
legalization depth (how many pattern applications reach legal ops), then by benefit.
Without declared generated ops a pattern is assumed to reach legal ops directly.
"""
from __future__ import annotations

import enum
from contextlib import contextmanager

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.builder import Builder, InsertionPoint
from ..ir.core import Block, BlockArgument, IRError, Operation, OpResult, Region, Value
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from .folding import fold_op
from .pattern import Listener, PatternRewriter, RewritePattern

__all__ = [
    "LegalizationAction", "LegalOpDetails", "ConversionTarget", "SignatureConversion",
    "TypeConverter", "ConversionPattern", "OpConversionPattern", "OpAdaptor",
    "ConversionPatternRewriter", "ConversionConfig", "ConversionResult",
    "apply_partial_conversion", "apply_full_conversion", "apply_analysis_conversion",
    "reconcile_unrealized_casts", "populate_function_signature_conversion",
    "FuncSignatureConversion", "FuncReturnTypeConversion", "FuncCallTypeConversion",
]

_CAST = "builtin.unrealized_conversion_cast"


def _op_name(x) -> str:
    """An op name from a name or a registered op class."""
    return x if isinstance(x, str) else x.name


def _names(ops):
    out = []
    for x in ops:
        if isinstance(x, (list, tuple, set, frozenset)):
            out.extend(_op_name(y) for y in x)
        else:
            out.append(_op_name(x))
    return out


# ============================================================================ target


class LegalizationAction(enum.Enum):
    LEGAL = "legal"
    DYNAMIC = "dynamic"
    ILLEGAL = "illegal"


LEGAL = LegalizationAction.LEGAL
DYNAMIC = LegalizationAction.DYNAMIC
ILLEGAL = LegalizationAction.ILLEGAL


class LegalOpDetails:
    """What `ConversionTarget.is_legal` says of a legal op."""

    __slots__ = ("is_recursively_legal",)

    def __init__(self, is_recursively_legal=False):
        self.is_recursively_legal = is_recursively_legal


class ConversionTarget:
    """Which ops may remain after a conversion.

    An op is legal, illegal or dynamically legal (a callback `fn(op) -> bool | None`
    decides; None defers to the dialect's callback, then to the unknown-op callback).
    An op-specific action wins over its dialect's; ops with neither have unknown
    legality, which `mark_unknown_op_dynamically_legal` can decide. Ops and dialects are
    given by name ("arith.addi", "arith") or, for ops, by class.
    """

    def __init__(self):
        self._ops: dict[str, tuple] = {}       # op name -> (action, callback)
        self._dialects: dict[str, tuple] = {}  # dialect name -> (action, callback)
        self._unknown_fn = None
        self._recursive: dict[str, object] = {}  # op name -> callback or True

    # ------------------------------------------------------------ ops
    def set_op_action(self, op, action: LegalizationAction, fn=None):
        self._ops[_op_name(op)] = (action, fn)

    def add_legal_op(self, *ops):
        for n in _names(ops):
            self._ops[n] = (LEGAL, None)

    def add_illegal_op(self, *ops):
        for n in _names(ops):
            self._ops[n] = (ILLEGAL, None)

    def add_dynamically_legal_op(self, ops, fn):
        """`fn(op)` returns True (legal), False (illegal) or None (ask the dialect's
        callback, then the unknown-op callback)."""
        for n in _names([ops]):
            prev = self._ops.get(n)
            if prev is not None and prev[0] is DYNAMIC and prev[1] is not None:
                fn = _compose(fn, prev[1])
            self._ops[n] = (DYNAMIC, fn)

    def mark_op_recursively_legal(self, ops, fn=None):
        """Legal instances of these ops are legal with everything nested in them (when
        `fn(op)`, if given, returns True); nested ops are then not converted."""
        for n in _names([ops]):
            if n not in self._ops:
                self._ops[n] = (LEGAL, None)
            self._recursive[n] = fn if fn is not None else True

    # ------------------------------------------------------------ dialects
    def add_legal_dialect(self, *names):
        for n in names:
            self._dialects[n] = (LEGAL, None)

    def add_illegal_dialect(self, *names):
        for n in names:
            self._dialects[n] = (ILLEGAL, None)

    def add_dynamically_legal_dialect(self, names, fn):
        if isinstance(names, str):
            names = [names]
        for n in names:
            self._dialects[n] = (DYNAMIC, fn)

    def mark_unknown_op_dynamically_legal(self, fn):
        """Decide ops with no op or dialect action: `fn(op) -> bool | None`."""
        self._unknown_fn = fn

    # ------------------------------------------------------------ queries
    def get_op_action(self, name: str):
        """The action for an op name (op-specific, else its dialect's), or None."""
        info = self._ops.get(name)
        if info is not None:
            return info[0]
        info = self._dialects.get(name.split(".", 1)[0])
        if info is not None:
            return info[0]
        return DYNAMIC if self._unknown_fn is not None else None

    def _dynamic_legality(self, op):
        """The legality callbacks' verdict for `op`: True, False or None."""
        info = self._ops.get(op.name)
        if info is not None and info[0] is DYNAMIC and info[1] is not None:
            r = info[1](op)
            if r is not None:
                return bool(r)
        d = self._dialects.get(op.dialect_name)
        if d is not None and d[0] is DYNAMIC and d[1] is not None:
            r = d[1](op)
            if r is not None:
                return bool(r)
        if self._unknown_fn is not None:
            r = self._unknown_fn(op)
            if r is not None:
                return bool(r)
        return None

    def _action(self, op):
        info = self._ops.get(op.name)
        if info is not None:
            return info[0]
        d = self._dialects.get(op.dialect_name)
        if d is not None:
            return d[0]
        return DYNAMIC if self._unknown_fn is not None else None

    def is_legal(self, op) -> LegalOpDetails | None:
        """Details if `op` is legal, else None (illegal or of unknown legality)."""
        action = self._action(op)
        if action is None or action is ILLEGAL:
            return None
        if action is DYNAMIC and not self._dynamic_legality(op):
            return None
        rec = self._recursive.get(op.name)
        if rec is None:
            return LegalOpDetails(False)
        return LegalOpDetails(True if rec is True else bool(rec(op)))

    def is_illegal(self, op) -> bool:
        """True if `op` was explicitly marked illegal (or a callback said so)."""
        action = self._action(op)
        if action is ILLEGAL:
            return True
        if action is DYNAMIC:
            return self._dynamic_legality(op) is False
        return False


def _compose(new, old):
    def fn(op):
        r = new(op)
        return old(op) if r is None else r
    return fn


# ============================================================================ types


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


# ============================================================================ patterns


class OpAdaptor(list):
    """The converted operands of an op, in order, also by declared name
    (`operands.lhs`): what upstream's OpAdaptor gives a conversion pattern."""

    __slots__ = ("op",)

    def __init__(self, values, op):
        super().__init__(values)
        self.op = op

    def __getattr__(self, name):
        op = object.__getattribute__(self, "op")
        for d in getattr(type(op), "_operand_defs", ()):
            if d.name == name:
                start, size = op._segment(d.index, False)
                if d.kind == 0:  # single
                    return self[start]
                if d.kind == 2:  # optional
                    return self[start] if size else None
                return list(self[start:start + size])
        raise AttributeError(f"'{op.name}' has no operand named '{name}'")


class ConversionPattern(RewritePattern):
    """A pattern for dialect conversion: `match_and_rewrite(op, operands, rewriter)` gets
    the op's operands as already converted (an OpAdaptor of Values; with `one_to_n =
    True`, of lists of Values). With a type converter the operands are converted to its
    legal types, and the pattern fails to match if an operand type cannot be converted.

        class LowerToyAdd(ConversionPattern):
            root = "toy.add"
            generated_ops = ("arith.addi",)
            def match_and_rewrite(self, op, operands, rewriter):
                rewriter.replace_op_with_new(op, arith.AddIOp, lhs=operands[0],
                                             rhs=operands[1])
                return True
    """

    type_converter: TypeConverter | None = None
    one_to_n = False
    has_bounded_rewrite_recursion = False

    def __init__(self, type_converter: TypeConverter | None = None, benefit=None,
                 root=None):
        if type_converter is not None:
            self.type_converter = type_converter
        if benefit is not None:
            self.benefit = benefit
        if root is not None:
            self.root = _op_name(root)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        root = cls.__dict__.get("root")
        if root is not None and not isinstance(root, str):
            cls.root = root.name
        gen = cls.__dict__.get("generated_ops")
        if gen:
            cls.generated_ops = tuple(_op_name(g) for g in gen)

    def match_and_rewrite(self, op, operands, rewriter) -> bool:
        raise NotImplementedError


OpConversionPattern = ConversionPattern


# ============================================================================ rewrites
# One class per kind of recorded change; `rollback` undoes it (newest first), `commit`
# finishes it once the conversion succeeded, `cleanup` frees what it unlinked.


class _Rewrite:
    __slots__ = ()

    def rollback(self, impl):
        pass

    def commit(self, impl, journal):
        pass

    def cleanup(self, impl):
        pass


class _CreateOp(_Rewrite):
    __slots__ = ("op",)

    def __init__(self, op):
        self.op = op

    def rollback(self, impl):
        op = self.op
        if op.parent is not None:
            op.detach()
        op._drop_references()


class _MoveOp(_Rewrite):
    """Ops moved out of `block` (where they sat, in order, before `next_op`)."""
    __slots__ = ("ops", "block", "next_op")

    def __init__(self, ops, block, next_op):
        self.ops = ops
        self.block = block
        self.next_op = next_op

    def rollback(self, impl):
        for op in self.ops:
            op.detach()
            if self.next_op is None:
                self.block.append(op)
            else:
                self.block.insert_before(self.next_op, op)


class _ModifyOp(_Rewrite):
    __slots__ = ("op", "operands", "props", "attrs", "successors", "loc", "types")

    def __init__(self, op):
        self.op = op
        self.operands = op.operands
        self.props = dict(op._props) if op._props else op._props
        self.attrs = dict(op._attrs) if op._attrs else op._attrs
        self.successors = list(op.successors) if op.successors else op.successors
        self.loc = op.loc
        self.types = [r.type for r in op.results]

    def rollback(self, impl):
        op = self.op
        if op.operands != self.operands:
            op.set_operands(self.operands)
        op._props = self.props
        op._attrs = self.attrs
        op.successors = self.successors
        op.loc = self.loc
        for r, t in zip(op.results, self.types):
            r.type = t


class _MapValue(_Rewrite):
    """A plain entry in the value mapping."""
    __slots__ = ("key", "prev")

    def __init__(self, key, prev):
        self.key = key
        self.prev = prev

    def rollback(self, impl):
        impl.mapping.restore(self.key, self.prev)


class _ReplaceOp(_Rewrite):
    __slots__ = ("op", "converter", "prev")

    def __init__(self, op, converter, prev):
        self.op = op
        self.converter = converter
        self.prev = prev  # [(result, previous mapping)]

    def rollback(self, impl):
        for r, p in reversed(self.prev):
            impl.mapping.restore(r, p)

    def commit(self, impl, journal):
        op = self.op
        repls = [impl.find_or_build_replacement(r, self.converter) for r in op.results]
        for r, v in zip(op.results, repls):
            if v is not None:
                journal.rauw(r, v)
        journal.erase(op)


class _CreateBlock(_Rewrite):
    __slots__ = ("block",)

    def __init__(self, block):
        self.block = block

    def rollback(self, impl):
        b = self.block
        if b.parent is not None:
            b.parent.blocks.remove(b)
            b.parent = None


class _MoveBlock(_Rewrite):
    __slots__ = ("block", "region", "next_block")

    def __init__(self, block, region, next_block):
        self.block = block
        self.region = region
        self.next_block = next_block

    def rollback(self, impl):
        b = self.block
        if b.parent is not None:
            b.parent.blocks.remove(b)
        _insert_block(self.region, b, self.next_block)


class _EraseBlock(_Rewrite):
    """The block was unlinked from `region` (it sat before `next_block`)."""
    __slots__ = ("block", "region", "next_block")

    def __init__(self, block, region, next_block):
        self.block = block
        self.region = region
        self.next_block = next_block

    def rollback(self, impl):
        _insert_block(self.region, self.block, self.next_block)

    def cleanup(self, impl):
        for op in list(self.block.ops):
            op._drop_references()
        for a in self.block.args:
            for u in list(a.uses):
                u._unlink()


class _BlockTypeConversion(_Rewrite):
    __slots__ = ("orig", "new", "changed")

    def __init__(self, orig, new, changed):
        self.orig = orig
        self.new = new
        self.changed = changed  # [(terminator, successor index)]

    def rollback(self, impl):
        for op, i in self.changed:
            succ = list(op.successors)
            succ[i] = self.orig
            op.successors = succ


class _ReplaceBlockArg(_Rewrite):
    __slots__ = ("arg", "converter", "key", "prev")

    def __init__(self, arg, converter, key, prev):
        self.arg = arg
        self.converter = converter
        self.key = key
        self.prev = prev

    def rollback(self, impl):
        if self.key is not None:
            impl.mapping.restore(self.key, self.prev)

    def commit(self, impl, journal):
        arg = self.arg
        repl = impl.find_or_build_replacement(arg, self.converter)
        if repl is None:
            return
        if isinstance(repl, BlockArgument):
            journal.rauw(arg, repl)
            return
        # Keep the uses that feed the replacement itself (an op of its block before it).
        rop = repl.owner
        rblock = rop.parent
        journal.rauw(arg, repl, lambda u: u.owner.parent is not rblock or
                     rop.is_before_in_block(u.owner))


class _Materialization(_Rewrite):
    """An unrealized_conversion_cast the driver inserted to bridge two types."""
    __slots__ = ("op", "converter", "kind", "original_type", "key", "prev")

    def __init__(self, op, converter, kind, original_type, key, prev):
        self.op = op
        self.converter = converter
        self.kind = kind  # "source" | "target"
        self.original_type = original_type
        self.key = key
        self.prev = prev

    def rollback(self, impl):
        if self.key is not None:
            impl.mapping.restore(self.key, self.prev)
        impl.unresolved.pop(self.op, None)
        impl.n_to_1.discard(self.op)
        if self.op.parent is not None:
            self.op.detach()
        self.op._drop_references()


def _insert_block(region, block, next_block):
    idx = len(region.blocks)
    if next_block is not None:
        for i, b in enumerate(region.blocks):
            if b is next_block:
                idx = i
                break
    region.insert_block(idx, block)


def _replace_block_uses(old: Block, new: Block):
    """Point every successor reference to `old` (in its region) at `new`."""
    changed = []
    region = old.parent
    if region is None:
        return changed
    for b in region.blocks:
        t = b.last
        if t is None or not t.successors:
            continue
        succ = t.successors
        if any(s is old for s in succ):
            succ = list(succ)
            for i, s in enumerate(succ):
                if s is old:
                    succ[i] = new
                    changed.append((t, i))
            t.successors = succ
    return changed


# ============================================================================ commit journal


def _link(o):
    """Re-thread an unlinked OpOperand on its value's use list."""
    v = o.value
    o.prev_use = None
    nxt = o.next_use = v.first_use
    if nxt is not None:
        nxt.prev_use = o
    v.first_use = o


class _Journal:
    """Undo log of the commit phase, so a late failure still restores the input."""

    def __init__(self):
        self.entries = []
        self.erased = set()

    def set_use(self, operand, value):
        self.entries.append(("use", operand, operand.value))
        operand.set(value)

    def rauw(self, old, new, pred=None):
        if old is new:
            return
        for u in list(old.uses):
            if pred is None or pred(u):
                self.set_use(u, new)

    def detach(self, op):
        self.entries.append(("detach", op, op.parent, op.next))
        op.detach()

    def erase(self, op):
        """Unlink `op` and the operand uses of everything in it (kept, to be relinked
        on undo), so that what it used counts as unused from now on."""
        if op.parent is not None:
            self.detach(op)
        for inner in op.walk():
            if inner in self.erased:
                continue
            for o in inner._operands:
                o._unlink()
            self.entries.append(("unlinked", inner))
            self.erased.add(inner)

    def inserted(self, op):
        self.entries.append(("insert", op))

    def undo(self):
        for e in reversed(self.entries):
            kind = e[0]
            if kind == "use":
                e[1].set(e[2])
            elif kind == "detach":
                _, op, block, nxt = e
                if op.parent is not None:
                    op.detach()
                if nxt is None:
                    block.append(op)
                else:
                    block.insert_before(nxt, op)
            elif kind == "unlinked":
                for o in e[1]._operands:
                    _link(o)
            elif kind == "insert":
                op = e[1]
                if op.parent is not None:
                    op.detach()
                op._drop_references()
        self.entries = []
        self.erased = set()

    def finish(self):
        for op in self.erased:
            op._operands = []


class _JournalListener(Listener):
    def __init__(self, journal):
        self.journal = journal

    def notify_op_inserted(self, op):
        self.journal.inserted(op)


# ============================================================================ state


class _ValueMapping:
    """Replaced value -> its replacement, followed transitively on lookup."""

    __slots__ = ("map", "mapped_to")

    def __init__(self):
        self.map: dict = {}
        self.mapped_to: set = set()

    def lookup_or_default(self, v, desired=None):
        """The most recent replacement of `v` of type `desired` (any type if None; the
        most recent one if none has that type), or `v` itself if not replaced."""
        found = None
        get = self.map.get
        for _ in range(100000):
            if desired is None or v.type == desired:
                found = v
            nxt = get(v)
            if nxt is None:
                break
            v = nxt
        return found if found is not None else v

    def lookup_or_null(self, v, desired=None):
        r = self.lookup_or_default(v, desired)
        if r is v or (desired is not None and r.type != desired):
            return None
        return r

    def map_value(self, old, new):
        """Map and return the previous entry (for rollback)."""
        probe = new
        while probe is not None:
            if probe is old:
                raise IRError("dialect conversion: cyclic value mapping")
            probe = self.map.get(probe)
        prev = self.map.get(old)
        self.map[old] = new
        self.mapped_to.add(new)
        return prev

    def restore(self, key, prev):
        if prev is None:
            self.map.pop(key, None)
        else:
            self.map[key] = prev


class _State:
    __slots__ = ("rewrites", "ignored", "replaced")

    def __init__(self, rewrites, ignored, replaced):
        self.rewrites = rewrites
        self.ignored = ignored
        self.replaced = replaced


def _value_loc(v):
    if isinstance(v, OpResult):
        return v.owner.loc
    if v.loc is not None:
        return v.loc
    p = v.owner.parent_op
    return p.loc if p is not None else None


def _ip_after_def(v) -> InsertionPoint:
    """Right after `v` is defined: after its op, or at the start of its block."""
    if isinstance(v, OpResult):
        return InsertionPoint(v.owner.parent, v.owner.next)
    return InsertionPoint(v.owner, v.owner.first)


class _Impl:
    """The bookkeeping of one conversion (upstream's ConversionPatternRewriterImpl)."""

    def __init__(self, config):
        self.config = config
        self.rewrites: list = []
        self.mapping = _ValueMapping()
        self.ignored: list = []
        self.ignored_set: set = set()
        self.replaced: list = []
        self.replaced_set: set = set()
        self.unresolved: dict = {}   # cast op -> _Materialization
        self.n_to_1: set = set()     # casts that pack N converted values into one
        self.current_converter = None
        self.region_converter: dict = {}
        self.match_failures: list = []  # (op, reason)

    # ------------------------------------------------------------ state
    def state(self) -> _State:
        return _State(len(self.rewrites), len(self.ignored), len(self.replaced))

    def reset(self, st: _State):
        rw = self.rewrites
        while len(rw) > st.rewrites:
            rw.pop().rollback(self)
        while len(self.ignored) > st.ignored:
            self.ignored_set.discard(self.ignored.pop())
        while len(self.replaced) > st.replaced:
            self.replaced_set.discard(self.replaced.pop())

    def undo_all(self):
        self.reset(_State(0, 0, 0))

    def is_ignored(self, op) -> bool:
        return op in self.replaced_set or op in self.ignored_set

    def add_ignored(self, op):
        if op not in self.ignored_set:
            self.ignored_set.add(op)
            self.ignored.append(op)

    # ------------------------------------------------------------ materializations
    def build_materialization(self, kind, ip, loc, key, inputs, out_types, original_type,
                              converter):
        """Values of `out_types` from `inputs`: the inputs themselves when the types
        already match, else an unresolved unrealized_conversion_cast. `key`, if given,
        is mapped to the (single) result."""
        inputs = list(inputs)
        if [v.type for v in inputs] == list(out_types):
            if key is not None:
                self.rewrites.append(_MapValue(key, self.mapping.map_value(key, inputs[0])))
            return inputs
        from ..dialects.builtin import UnrealizedConversionCastOp
        cast = UnrealizedConversionCastOp.create(inputs, list(out_types), loc=loc)
        if ip.before is None:
            ip.block.append(cast)
        else:
            ip.block.insert_before(ip.before, cast)
        prev = self.mapping.map_value(key, cast.results[0]) if key is not None else None
        rec = _Materialization(cast, converter, kind, original_type, key, prev)
        self.rewrites.append(rec)
        self.unresolved[cast] = rec
        return list(cast.results)

    def insert_n_to_1(self, ip, loc, replacements, original, converter):
        """Map `original` to its replacement: the value itself (1:1), or a cast packing
        the values of a 1:N conversion (unpacked again for 1:N-aware patterns)."""
        replacements = list(replacements)
        if len(replacements) == 1:
            prev = self.mapping.map_value(original, replacements[0])
            self.rewrites.append(_MapValue(original, prev))
            return
        vals = self.build_materialization("source", ip, loc, original, replacements,
                                          [original.type], None, converter)
        d = vals[0].owner if isinstance(vals[0], OpResult) else None
        if d is not None and d in self.unresolved:
            self.n_to_1.add(d)

    def unpack(self, v) -> list:
        d = v.owner if isinstance(v, OpResult) else None
        if d is None or d not in self.n_to_1:
            return [v]
        out = []
        for o in d.operands:
            out.extend(self.unpack(o))
        return out

    def find_or_build_replacement(self, value, converter):
        """At commit: what the uses of replaced `value` should use instead (a source
        materialization back to its type when only other-typed replacements exist), or
        None when it has no live uses."""
        repl = self.mapping.lookup_or_null(value, value.type)
        if repl is not None:
            return repl
        if all(u.owner in self.replaced_set for u in value.uses) and \
                value not in self.mapping.mapped_to:
            return None
        repl = self.mapping.lookup_or_null(value)
        if repl is None:
            return None
        return self.build_materialization("source", _ip_after_def(repl), _value_loc(value),
                                          value, [repl], [value.type], None, converter)[0]

    # ------------------------------------------------------------ operands
    def remap(self, op, values, one_to_n):
        """The converted operands a pattern sees, or None (with a match failure)."""
        conv = self.current_converter
        out = []
        for i, v in enumerate(values):
            repl = self.mapping.lookup_or_default(v)
            if conv is None:
                out.append(self.unpack(repl) if one_to_n else repl)
                continue
            legal = conv.convert_types(v.type)
            if legal is None:
                self.match_failures.append(
                    (op, f"unable to convert type for operand #{i}, type was {v.type}"))
                return None
            if len(legal) != 1:
                if not one_to_n:
                    self.match_failures.append(
                        (op, f"operand #{i} of type {v.type} converts to {len(legal)} "
                         "values, which this 1:1 pattern does not support"))
                    return None
                unpacked = self.unpack(repl)
                if [u.type for u in unpacked] == legal:
                    out.append(unpacked)
                else:
                    out.append(self.build_materialization(
                        "target", _ip_after_def(repl), op.loc, None, unpacked, legal,
                        v.type, conv))
                continue
            desired = legal[0]
            new = self.mapping.lookup_or_default(v, desired)
            if new.type != desired:
                new = self.build_materialization(
                    "target", _ip_after_def(new), op.loc, new, self.unpack(repl),
                    [desired], v.type, conv)[0]
            out.append([new] if one_to_n else new)
        return out

    # ------------------------------------------------------------ replacement
    def notify_op_replaced(self, op, groups):
        if op in self.replaced_set:
            raise IRError(f"dialect conversion: '{op.name}' was already replaced or erased")
        is_mat = op in self.unresolved
        prev = []
        for r, vals in zip(op.results, groups):
            if not vals:
                if is_mat:
                    continue
                # Dropped: a value "out of thin air" that must end up unused.
                self.build_materialization("source", _ip_after_def(r), op.loc, r, [],
                                           [r.type], None, self.current_converter)
                continue
            if len(vals) == 1:
                prev.append((r, self.mapping.map_value(r, vals[0])))
            else:
                self.insert_n_to_1(_ip_after_def(r), op.loc, vals, r, self.current_converter)
        self.rewrites.append(_ReplaceOp(op, self.current_converter, prev))
        for inner in op.walk(post_order=False):
            if inner not in self.replaced_set:
                self.replaced_set.add(inner)
                self.replaced.append(inner)

    # ------------------------------------------------------------ blocks
    def apply_signature_conversion(self, rewriter, block, converter, sc):
        types = sc.converted_types
        if block.arg_types == types:
            return block
        locs = [None] * len(types)
        for i, a in enumerate(block.args):
            m = sc.input_mapping(i)
            if m is None or m[2] is not None:
                continue
            for j in range(m[1]):
                locs[m[0] + j] = a.loc
        region = block.parent
        new = Block(types, locs)
        region.insert_block(region.blocks.index(block) + 1, new)
        self.rewrites.append(_CreateBlock(new))
        ops = list(block.ops)
        if ops:
            self.rewrites.append(_MoveOp(ops, block, None))
            for op in ops:
                op.detach()
                new.append(op)
        self.rewrites.append(_BlockTypeConversion(block, new, _replace_block_uses(block, new)))
        for i, a in enumerate(block.args):
            m = sc.input_mapping(i)
            ip = InsertionPoint(new, new.first)
            if m is None:
                self.build_materialization("source", ip, _value_loc(a), a, [], [a.type],
                                           None, converter)
            elif m[2] is not None:
                self.rewrites.append(_MapValue(a, self.mapping.map_value(a, m[2])))
            else:
                self.insert_n_to_1(ip, _value_loc(a), new.args[m[0]:m[0] + m[1]], a,
                                   converter)
            self.rewrites.append(_ReplaceBlockArg(a, converter, None, None))
        rewriter.erase_block(block, _ops_replaced=False)
        return new


# ============================================================================ rewriter


class ConversionPatternRewriter(PatternRewriter):
    """The rewriter conversion patterns get: every change is recorded so that it can be
    undone; replaced and erased ops stay in place (their results remapped) until the
    conversion commits. Make every change through it."""

    __slots__ = ("impl",)

    def __init__(self, impl: _Impl):
        super().__init__(Listener())
        self.impl = impl

    # ------------------------------------------------------------ creation
    def insert(self, op: Operation) -> Operation:
        if self.ip is None:
            return op
        Builder.insert(self, op)
        self._record_created(op)
        return op

    def _record_created(self, op):
        self.impl.rewrites.append(_CreateOp(op))
        for r in op.regions:
            for b in r.blocks:
                for inner in b.ops:
                    self._record_created(inner)

    def create_block(self, region, arg_types=(), arg_locs=None, before: Block | None = None):
        b = Block(arg_types, arg_locs)
        if before is None:
            region.add_block(b)
        else:
            region.insert_block(region.blocks.index(before), b)
        self.impl.rewrites.append(_CreateBlock(b))
        self.ip = InsertionPoint.at_end(b)
        return b

    # ------------------------------------------------------------ replacement
    def replace_op(self, op: Operation, values) -> None:
        if isinstance(values, Operation):
            values = values.results
        values = list(values)
        if len(values) != len(op.results):
            raise ValueError(f"replace_op: {len(values)} values for {len(op.results)} "
                             f"results of '{op.name}'")
        self.impl.notify_op_replaced(op, [[v] if v is not None else [] for v in values])

    def replace_op_with_multiple(self, op: Operation, groups) -> None:
        """Replace each result by a list of values (1:N conversion)."""
        groups = [list(g) for g in groups]
        if len(groups) != len(op.results):
            raise ValueError(f"replace_op_with_multiple: {len(groups)} groups for "
                             f"{len(op.results)} results of '{op.name}'")
        self.impl.notify_op_replaced(op, groups)

    def erase_op(self, op: Operation) -> None:
        self.impl.notify_op_replaced(op, [[] for _ in op.results])

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        if isinstance(old, BlockArgument):
            self.replace_uses_of_block_argument(old, new)
            return
        for u in list(old.uses):
            self.start_op_modification(u.owner)
            u.set(new)

    def replace_uses_where(self, old: Value, new: Value, pred) -> None:
        for u in list(old.uses):
            if pred(u):
                self.start_op_modification(u.owner)
                u.set(new)

    def replace_uses_of_block_argument(self, arg: BlockArgument, value: Value) -> None:
        impl = self.impl
        key = impl.mapping.lookup_or_default(arg)
        prev = impl.mapping.map_value(key, value)
        impl.rewrites.append(_ReplaceBlockArg(arg, impl.current_converter, key, prev))

    # ------------------------------------------------------------ in place
    def start_op_modification(self, op: Operation) -> None:
        """Snapshot `op` before changing it directly (operands, attributes, successors,
        location, result types) so that the change can be undone."""
        if op in self.impl.replaced_set:
            raise IRError(f"dialect conversion: modifying replaced/erased '{op.name}'")
        self.impl.rewrites.append(_ModifyOp(op))

    def finalize_op_modification(self, op: Operation) -> None:
        pass

    def cancel_op_modification(self, op: Operation) -> None:
        rw = self.impl.rewrites
        for i in range(len(rw) - 1, -1, -1):
            if isinstance(rw[i], _ModifyOp) and rw[i].op is op:
                rw.pop(i).rollback(self.impl)
                return
        raise IRError(f"no modification of '{op.name}' was started")

    @contextmanager
    def modifying(self, op: Operation):
        self.start_op_modification(op)
        yield op

    def modify_op_in_place(self, op: Operation, fn=None) -> None:
        if fn is None:
            raise IRError("dialect conversion cannot undo a change it did not see: pass "
                          "the change as modify_op_in_place(op, fn), or call "
                          "start_op_modification(op) before changing the op")
        self.start_op_modification(op)
        fn()

    def set_operand(self, op: Operation, i: int, value: Value) -> None:
        self.start_op_modification(op)
        op.set_operand(i, value)

    # ------------------------------------------------------------ moving
    def _move(self, op, block, before):
        self.impl.rewrites.append(_MoveOp([op], op.parent, op.next))
        op.detach()
        if before is None:
            block.append(op)
        else:
            block.insert_before(before, op)

    def move_op_before(self, op: Operation, anchor: Operation) -> None:
        self._move(op, anchor.parent, anchor)

    def move_op_after(self, op: Operation, anchor: Operation) -> None:
        self._move(op, anchor.parent, anchor.next)

    # ------------------------------------------------------------ blocks
    def erase_block(self, block: Block, _ops_replaced=True) -> None:
        if _ops_replaced:
            for op in reversed(list(block.ops)):
                if op not in self.impl.replaced_set:
                    self.erase_op(op)
        region = block.parent
        if region is None:
            return
        i = region.blocks.index(block)
        nxt = region.blocks[i + 1] if i + 1 < len(region.blocks) else None
        region.blocks.pop(i)
        block.parent = None
        self.impl.rewrites.append(_EraseBlock(block, region, nxt))

    def _inline(self, source, dest, before, args):
        args = list(args)
        if len(args) != len(source.args):
            raise ValueError(f"inlining a block of {len(source.args)} arguments with "
                             f"{len(args)} values")
        for a, v in zip(source.args, args):
            self.replace_uses_of_block_argument(a, v)
        ops = list(source.ops)
        if ops:
            self.impl.rewrites.append(_MoveOp(ops, source, None))
            for op in ops:
                op.detach()
                if before is None:
                    dest.append(op)
                else:
                    dest.insert_before(before, op)
        self.erase_block(source, _ops_replaced=False)

    def inline_block_before(self, source: Block, op: Operation, args=()) -> None:
        self._inline(source, op.parent, op, args)

    def inline_block_at_end(self, source: Block, dest: Block, args=()) -> None:
        self._inline(source, dest, None, args)

    def merge_blocks(self, source: Block, dest: Block, args=()) -> None:
        self._inline(source, dest, None, args)

    def inline_region_before(self, region: Region, dest: Region, index: int) -> None:
        for i, b in enumerate(list(region.blocks)):
            nxt = region.blocks[1] if len(region.blocks) > 1 else None
            region.blocks.pop(0)
            b.parent = None
            self.impl.rewrites.append(_MoveBlock(b, region, nxt))
            dest.insert_block(index + i, b)

    def split_block(self, block: Block, before: Operation) -> Block:
        region = block.parent
        new = Block()
        region.insert_block(region.blocks.index(block) + 1, new)
        self.impl.rewrites.append(_CreateBlock(new))
        ops = []
        op = before
        while op is not None:
            ops.append(op)
            op = op.next
        if ops:
            self.impl.rewrites.append(_MoveOp(ops, block, None))
            for o in ops:
                o.detach()
                new.append(o)
        return new

    # ------------------------------------------------------------ types
    def get_remapped_value(self, v: Value) -> Value | None:
        r = self.impl.remap(None, [v], False)
        return None if r is None else r[0]

    def get_remapped_values(self, values) -> list | None:
        return self.impl.remap(None, list(values), False)

    def apply_signature_conversion(self, block: Block, conversion: SignatureConversion,
                                   converter: TypeConverter | None = None) -> Block:
        """Give `block` the converted argument types (a new block replaces it)."""
        return self.impl.apply_signature_conversion(self, block, converter, conversion)

    def convert_region_types(self, region: Region, converter: TypeConverter,
                             entry_conversion: SignatureConversion | None = None):
        """Convert the argument types of every block of `region` (the entry block with
        `entry_conversion` if given). Returns the new entry block, or None on failure.
        Blocks later moved into this region are converted with `converter` too."""
        impl = self.impl
        impl.region_converter[region] = converter
        if not region.blocks:
            return None
        for b in list(region.blocks[1:]):
            sc = converter.convert_block_signature(b)
            if sc is None:
                return None
            impl.apply_signature_conversion(self, b, converter, sc)
        entry = region.blocks[0]
        sc = entry_conversion or converter.convert_block_signature(entry)
        if sc is None:
            return None
        return impl.apply_signature_conversion(self, entry, converter, sc)

    def notify_match_failure(self, op: Operation, reason: str) -> bool:
        self.impl.match_failures.append((op, reason))
        return False


# ============================================================================ legalizer


class ConversionConfig:
    """Options of a conversion run.

    fold: try an illegal op's folder before patterns (as upstream).
    build_materializations: hand casts still used after the conversion to the type
      converter (else they stay as unrealized_conversion_cast ops).
    notes: attach the known reasons of a failure (pattern match failures, generated ops
      that could not be legalized) to the error as notes.
    max_depth: limit of nested legalizations (pattern results legalized recursively).
    dialects: the dialects whose constant materializers folding uses (default: all).
    """

    def __init__(self, fold=True, build_materializations=True, notes=True, max_depth=64,
                 dialects=None):
        self.fold = fold
        self.build_materializations = build_materializations
        self.notes = notes
        self.max_depth = max_depth
        self.dialects = dialects


class ConversionResult:
    """What a successful conversion reports: the ops that could not be legalized (a
    partial conversion leaves them), or those that could (an analysis)."""

    __slots__ = ("unlegalized_ops", "legalizable_ops")

    def __init__(self, unlegalized_ops=(), legalizable_ops=()):
        self.unlegalized_ops = list(unlegalized_ops)
        self.legalizable_ops = set(legalizable_ops)


def _flatten_patterns(patterns):
    if hasattr(patterns, "by_root") and hasattr(patterns, "any_root"):
        out = []
        for lst in patterns.by_root.values():
            out.extend(lst)
        out.extend(patterns.any_root)
        return out
    return list(patterns)


def _root(p):
    r = p.root
    return r if r is None or isinstance(r, str) else r.name


def _generated(p):
    return tuple(_op_name(g) for g in (getattr(p, "generated_ops", ()) or ()))


class _Legalizer:
    def __init__(self, target: ConversionTarget, patterns, config, impl, converter):
        self.target = target
        self.config = config
        self.impl = impl
        self.converter = converter
        self.applied: set = set()
        self.depth = 0
        self.reasons: dict = {}  # op -> [(message, loc)]
        self._dialects = None
        self._build(_flatten_patterns(patterns))

    # ------------------------------------------------------------ cost model
    def _build(self, patterns):
        target = self.target
        order = {id(p): i for i, p in enumerate(patterns)}
        patterns = sorted(patterns, key=lambda p: (-p.benefit, order[id(p)]))
        legal_by_root: dict = {}
        any_root: list = []
        parents: dict = {}
        invalid: dict = {}
        worklist: list = []
        for p in patterns:
            root = _root(p)
            if root is None:
                any_root.append(p)
                continue
            if target.get_op_action(root) is LEGAL:
                continue
            invalid.setdefault(root, []).append(p)
            for g in _generated(p):
                parents.setdefault(g, set()).add(root)
            worklist.append(p)
        if any_root:
            for p in worklist:
                legal_by_root.setdefault(_root(p), []).append(p)
        else:
            # Patterns reaching legal ops (directly or through others) are kept.
            pending = list(reversed(worklist))
            queued = set(map(id, pending))
            while pending:
                p = pending.pop()
                queued.discard(id(p))
                root = _root(p)
                if any(g not in legal_by_root and target.get_op_action(g) in (None, ILLEGAL)
                       for g in _generated(p)):
                    continue
                legal_by_root.setdefault(root, []).append(p)
                invalid[root].remove(p)
                for parent in parents.get(root, ()):
                    for q in invalid.get(parent, ()):
                        if id(q) not in queued:
                            queued.add(id(q))
                            pending.append(q)
        depth: dict = {}

        def op_depth(name):
            if name in depth:
                return depth[name]
            lst = legal_by_root.get(name)
            if not lst:
                return 0
            depth[name] = 1 << 30  # in progress: a cycle counts as unreachable
            depth[name] = order_patterns(lst)
            return depth[name]

        def order_patterns(lst):
            scored = []
            for p in lst:
                d = 1
                for g in _generated(p):
                    d = max(d, op_depth(g) + 1)
                scored.append((d, -p.benefit, order[id(p)], p))
            scored.sort(key=lambda x: x[:3])
            lst[:] = [x[3] for x in scored]
            return min(x[0] for x in scored) if scored else 0

        for name in list(legal_by_root):
            op_depth(name)
        if any_root:
            order_patterns(any_root)
        self.by_root = legal_by_root
        self.any_root = any_root

    def patterns_for(self, op):
        lst = self.by_root.get(op.name, ())
        anys = self.any_root
        if not anys:
            return lst
        if not lst:
            return anys
        # Merge by rank (a pattern's distance from the end of its list), op-specific
        # patterns first on ties.
        out, i, j = [], 0, 0
        while i < len(lst) or j < len(anys):
            if j >= len(anys) or (i < len(lst) and len(lst) - i >= len(anys) - j):
                out.append(lst[i])
                i += 1
            else:
                out.append(anys[j])
                j += 1
        return out

    # ------------------------------------------------------------ legalization
    def _reason(self, op, message, loc=None):
        lst = self.reasons.setdefault(op, [])
        if len(lst) < 8 and all(m != message for m, _ in lst):
            lst.append((message, loc if loc is not None else op.loc))

    def legalize(self, op, rw) -> bool:
        info = self.target.is_legal(op)
        if info is not None:
            if info.is_recursively_legal:
                for inner in op.walk(post_order=False):
                    if inner is not op:
                        self.impl.add_ignored(inner)
            return True
        if self.impl.is_ignored(op):
            return True
        if self.depth >= self.config.max_depth:
            self._reason(op, f"legalization exceeded the maximum depth "
                             f"({self.config.max_depth})")
            return False
        self.depth += 1
        try:
            if self.config.fold and self._legalize_with_fold(op, rw):
                return True
            return self._legalize_with_patterns(op, rw)
        finally:
            self.depth -= 1

    def _legalize_with_fold(self, op, rw) -> bool:
        if T.ConstantLike in type(op).traits or getattr(op, "fold", None) is None:
            return False
        impl = self.impl
        st = impl.state()
        # Snapshot first: a folder may update the op in place.
        impl.rewrites.append(_ModifyOp(op))
        try:
            res = fold_op(op)
        except Exception:
            impl.reset(st)
            raise
        if res is None:
            impl.reset(st)
            return False
        if all(v is r for v, r in zip(res, op.results)):
            if self.legalize(op, rw):
                return True
            impl.reset(st)
            return False
        impl.rewrites.pop()  # not modified in place after all
        rw.ip = InsertionPoint.before_op(op)
        rw.loc = op.loc
        values = []
        for v, r in zip(res, op.results):
            if isinstance(v, Value):
                values.append(v)
                continue
            d = self._dialect(op.dialect_name)
            mat = getattr(d, "materialize_constant", None) if d is not None else None
            c = mat(rw, v, r.type, op.loc) if mat is not None else None
            if c is None:
                impl.reset(st)
                return False
            values.append(c.results[0])
        rw.replace_op(op, values)
        for r in impl.rewrites[st.rewrites:]:
            if isinstance(r, _CreateOp) and not self.legalize(r.op, rw):
                impl.reset(st)
                return False
        return True

    def _dialect(self, name):
        if self._dialects is None:
            ds = self.config.dialects
            if ds is None:
                from ..dialects import all_dialects
                ds = all_dialects()
            self._dialects = {d.name: d for d in ds}
        return self._dialects.get(name)

    def _legalize_with_patterns(self, op, rw) -> bool:
        impl = self.impl
        st = impl.state()
        for p in self.patterns_for(op):
            bounded = getattr(p, "has_bounded_rewrite_recursion", False)
            if not bounded:
                if p in self.applied:
                    continue
                self.applied.add(p)
            nfail = len(impl.match_failures)
            try:
                ok = self._apply(p, op, rw)
                if not ok:
                    for _, why in impl.match_failures[nfail:]:
                        self._reason(op, f"pattern '{p.debug_name}' did not apply: {why}")
                    impl.reset(st)
                    continue
                new = impl.rewrites[st.rewrites:]
                if op not in impl.replaced_set and not any(
                        isinstance(r, _ModifyOp) and r.op is op for r in new):
                    raise IRError(f"pattern '{p.debug_name}' returned success but neither "
                                  f"replaced nor updated '{op.name}' in place")
                bad = self._legalize_result(op, rw, new)
                if bad is None:
                    return True
                what, culprit = bad
                self._reason(op, f"pattern '{p.debug_name}' {what} '{culprit.name}', which "
                                 "could not be legalized", culprit.loc)
                impl.reset(st)
            finally:
                del impl.match_failures[nfail:]
                if not bounded:
                    self.applied.discard(p)
        return False

    def _apply(self, p, op, rw) -> bool:
        impl = self.impl
        rw.ip = InsertionPoint.before_op(op)
        rw.loc = op.loc
        if not isinstance(p, ConversionPattern):
            saved, impl.current_converter = impl.current_converter, None
            try:
                return bool(p.match_and_rewrite(op, rw))
            finally:
                impl.current_converter = saved
        conv = p.type_converter if p.type_converter is not None else self.converter
        saved, impl.current_converter = impl.current_converter, conv
        try:
            operands = impl.remap(op, op.operands, p.one_to_n)
            if operands is None:
                return False
            rw.ip = InsertionPoint.before_op(op)
            return bool(p.match_and_rewrite(op, OpAdaptor(operands, op), rw))
        finally:
            impl.current_converter = saved

    def _legalize_result(self, op, rw, new):
        """Legalize what a pattern made: blocks it created or moved elsewhere, ops it
        updated in place, ops it created. Returns None, or (what, op) that failed."""
        impl = self.impl
        skip = None
        for r in new:
            if not isinstance(r, (_CreateBlock, _MoveBlock)):
                continue
            b = r.block
            parent = b.parent_op
            if parent is None or parent is op or not b.args:
                continue
            conv = impl.region_converter.get(b.parent)
            if conv is not None:
                sc = conv.convert_block_signature(b)
                if sc is None:
                    return ("moved a block into", parent)
                impl.apply_signature_conversion(rw, b, conv, sc)
                continue
            if skip is None:
                skip = {x.op for x in new if isinstance(x, _CreateOp)}
            if parent not in skip:
                skip.add(parent)
                if not self.legalize(parent, rw):
                    return ("changed the blocks of", parent)
        for r in new:
            if isinstance(r, _ModifyOp) and not self.legalize(r.op, rw):
                return ("updated", r.op)
        for r in new:
            if isinstance(r, _CreateOp) and not self.legalize(r.op, rw):
                return ("created", r.op)
        return None


# ============================================================================ driver


def _preorder_ops(root, target):
    """`root` and its nested ops, pre-order, blocks in dominance order, not entering
    recursively legal ops."""
    out = []
    stack = [root]
    while stack:
        op = stack.pop()
        out.append(op)
        info = target.is_legal(op)
        if info is not None and info.is_recursively_legal:
            continue
        children = []
        for r in op.regions:
            for b in _dominance_order(r):
                children.extend(b.ops)
        stack.extend(reversed(children))
    return out


def _dominance_order(region):
    blocks = region.blocks
    if len(blocks) < 2:
        return list(blocks)
    seen = set()
    post = []
    stack = [(blocks[0], iter(blocks[0].successors))]
    seen.add(blocks[0])
    while stack:
        b, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            post.append(b)
        elif nxt not in seen and nxt.parent is region:
            seen.add(nxt)
            stack.append((nxt, iter(nxt.successors)))
    order = list(reversed(post))
    order.extend(b for b in blocks if b not in seen)
    return order


def _op_text(op) -> str:
    from ..syntax.printer import PrintOptions, print_op
    try:
        return print_op(op, PrintOptions(generic=True)).rstrip("\n")
    except Exception:  # a half-converted op the printer cannot show: name it at least
        return f"'{op.name}'"


def _types_text(types) -> str:
    return "(" + ", ".join(f"'{t}'" for t in types) + ")"


_PARTIAL, _FULL, _ANALYSIS = "partial", "full", "analysis"


def _run(ops, target, patterns, type_converter, config, mode) -> ConversionResult:
    if isinstance(ops, Operation):
        ops = [ops]
    ops = list(ops)
    config = config or ConversionConfig()
    impl = _Impl(config)
    rw = ConversionPatternRewriter(impl)
    legalizer = _Legalizer(target, patterns, config, impl, type_converter)
    to_convert = []
    for op in ops:
        to_convert.extend(_preorder_ops(op, target))
    unlegalized, legalizable = [], set()
    try:
        for op in to_convert:
            if legalizer.legalize(op, rw):
                if mode == _ANALYSIS:
                    legalizable.add(op)
                continue
            if mode == _FULL:
                diag = _failure(op, f"failed to legalize operation '{op.name}'", legalizer)
            elif mode == _PARTIAL and target.is_illegal(op):
                diag = _failure(op, f"failed to legalize operation '{op.name}' that was "
                                    "explicitly marked illegal", legalizer)
            else:
                if mode == _PARTIAL:
                    unlegalized.append(op)
                continue
            impl.undo_all()
            raise DiagnosticError(diag)
    except DiagnosticError:
        raise
    except BaseException:
        impl.undo_all()
        raise
    if mode == _ANALYSIS:
        impl.undo_all()
        return ConversionResult(legalizable_ops=legalizable)
    _commit(impl, config)
    return ConversionResult(unlegalized_ops=[o for o in unlegalized
                                             if o not in impl.replaced_set])


def _failure(op, message, legalizer) -> Diagnostic:
    d = Diagnostic(ERROR, op.loc, message)
    if legalizer.config.notes:
        for msg, loc in legalizer.reasons.get(op, ()):
            d.attach_note(msg, loc)
    return d


def _commit(impl: _Impl, config: ConversionConfig) -> None:
    journal = _Journal()
    try:
        i = 0
        while i < len(impl.rewrites):  # commits may add materializations
            impl.rewrites[i].commit(impl, journal)
            i += 1
        casts = [c for c in impl.unresolved if _attached(c, impl)]
        remaining = reconcile_unrealized_casts(casts, journal)
        if config.build_materializations:
            for cast in remaining:
                diag = _legalize_materialization(cast, impl.unresolved[cast], journal)
                if diag is not None:
                    journal.undo()
                    impl.undo_all()
                    raise DiagnosticError(diag)
    except DiagnosticError:
        raise
    except BaseException:
        journal.undo()
        impl.undo_all()
        raise
    for r in impl.rewrites:
        r.cleanup(impl)
    journal.finish()


def _attached(op, impl) -> bool:
    """Whether `op` is still part of the converted IR (not inside an erased block or a
    replaced op, which the cleanup drops)."""
    while True:
        b = op.parent
        if b is None:
            return False
        if b.parent is None:
            return False
        op = b.parent.parent
        if op is None:
            return True
        if op in impl.replaced_set:
            return False
        if op.parent is None:
            return True


def _legalize_materialization(cast, rec, journal) -> Diagnostic | None:
    conv = rec.converter
    if conv is not None:
        b = PatternRewriter(_JournalListener(journal), InsertionPoint.before_op(cast))
        b.loc = cast.loc
        inputs = cast.operands
        types = [r.type for r in cast.results]
        if rec.kind == "target":
            vals = conv.materialize_target_conversion(
                b, cast.loc, types, inputs, rec.original_type, allow_default=False)
        else:
            v = conv.materialize_source_conversion(b, cast.loc, types[0], inputs,
                                                   allow_default=False)
            vals = None if v is None else [v]
        if vals is not None:
            if [v.type for v in vals] != types:
                raise IRError(f"materialization produced {[str(v.type) for v in vals]}, "
                              f"expected {[str(t) for t in types]}")
            for r, v in zip(cast.results, vals):
                journal.rauw(r, v)
            journal.erase(cast)
            return None
        if conv.default_materializations:
            return None  # keep the cast itself
    d = Diagnostic(ERROR, cast.loc, "failed to legalize unresolved materialization from "
                   f"{_types_text(cast.operand_types)} to "
                   f"{_types_text([r.type for r in cast.results])} that remained live "
                   "after conversion")
    user = next(iter(cast.results[0].users), None)
    if user is not None:
        d.attach_note(f"see existing live user here: {_op_text(user)}", user.loc)
    return d


def reconcile_unrealized_casts(casts, journal=None) -> list:
    """Fold away `unrealized_conversion_cast` ops among `casts`: unused ones are erased,
    and a chain A -> B -> A is replaced by its input. Returns the casts that remain."""
    casts = list(casts)
    erase = journal.erase if journal is not None else _erase_now
    rauw = journal.rauw if journal is not None else (lambda a, b: a.replace_all_uses_with(b))
    work = dict.fromkeys(casts)
    erased = set()

    def enqueue_inputs(c):
        for v in c.operands:
            d = v.owner if isinstance(v, OpResult) else None
            if d is not None and d.name == _CAST and d not in erased:
                work[d] = None

    def input_cast(c):
        ins = c.operands
        if not ins or not isinstance(ins[0], OpResult):
            return None
        d = ins[0].owner
        if d.name != _CAST or list(d.results) != ins:
            return None
        return d

    while work:
        c = work.popitem()[0]
        if c in erased:
            continue
        if not any(r.has_uses() for r in c.results):
            enqueue_inputs(c)
            erase(c)
            erased.add(c)
            continue
        want = [r.type for r in c.results]
        nxt = c
        while nxt is not None:
            if nxt.operand_types == want:
                enqueue_inputs(c)
                for r, v in zip(c.results, nxt.operands):
                    rauw(r, v)
                erase(c)
                erased.add(c)
                break
            nxt = input_cast(nxt)
    return [c for c in casts if c not in erased]


def _erase_now(op):
    op.detach()
    op._drop_references()


def apply_partial_conversion(ops, target: ConversionTarget, patterns,
                             type_converter: TypeConverter | None = None,
                             config: ConversionConfig | None = None) -> ConversionResult:
    """Legalize what can be legalized in `ops` (an op or a list; nested ops included).
    Ops that cannot be legalized stay, listed in the result's `unlegalized_ops`, unless
    the target marked them illegal: then (as upstream) the whole conversion is undone
    and a DiagnosticError "failed to legalize operation '...' that was explicitly marked
    illegal" is raised. `type_converter` serves conversion patterns that have none."""
    return _run(ops, target, patterns, type_converter, config, _PARTIAL)


def apply_full_conversion(ops, target: ConversionTarget, patterns,
                          type_converter: TypeConverter | None = None,
                          config: ConversionConfig | None = None) -> ConversionResult:
    """Legalize every op in `ops` (nested ones included) or change nothing: on failure
    the input is restored and a DiagnosticError "failed to legalize operation '...'" is
    raised at the op that could not be legalized."""
    return _run(ops, target, patterns, type_converter, config, _FULL)


def apply_analysis_conversion(ops, target: ConversionTarget, patterns,
                              type_converter: TypeConverter | None = None,
                              config: ConversionConfig | None = None) -> set:
    """The ops (among `ops` and nested ones) that the patterns could legalize; the IR
    is left unchanged."""
    return _run(ops, target, patterns, type_converter, config, _ANALYSIS).legalizable_ops


# ============================================================================ func signatures


class FuncSignatureConversion(ConversionPattern):
    """Converts the signature of a `func.func` and the argument types of its blocks."""

    root = "func.func"

    def match_and_rewrite(self, op, operands, rewriter):
        tc = self.type_converter
        ft = op.type
        sc = SignatureConversion(len(ft.inputs))
        for i, t in enumerate(ft.inputs):
            if not tc.convert_signature_arg(i, t, sc):
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of argument #{i} ({t})")
        results, counts = [], []
        for i, t in enumerate(ft.results):
            r = tc.convert_types(t)
            if r is None:
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of result #{i} ({t})")
            results.extend(r)
            counts.append(len(r))
        new_ft = A.FunctionType(sc.converted_types, results)
        if op.regions[0].blocks and \
                rewriter.convert_region_types(op.regions[0], tc, sc) is None:
            return rewriter.notify_match_failure(op, "unable to convert block arguments")

        def update():
            op.properties["function_type"] = A.TypeAttr(new_ft)
            arg_attrs = op._props.get("arg_attrs")
            if arg_attrs is not None:
                new = [None] * len(sc.converted_types)
                for i, a in enumerate(arg_attrs):
                    m = sc.input_mapping(i)
                    if m is not None:
                        for j in range(m[1]):
                            new[m[0] + j] = a
                empty = A.DictionaryAttr({})
                op.properties["arg_attrs"] = A.ArrayAttr([a or empty for a in new])
            res_attrs = op._props.get("res_attrs")
            if res_attrs is not None:
                out = []
                for a, n in zip(res_attrs, counts):
                    out.extend([a] * n)
                op.properties["res_attrs"] = A.ArrayAttr(out)

        rewriter.modify_op_in_place(op, update)
        return True


class FuncReturnTypeConversion(ConversionPattern):
    """`func.return` takes the converted operands."""

    root = "func.return"
    one_to_n = True

    def match_and_rewrite(self, op, operands, rewriter):
        flat = [v for vs in operands for v in vs]
        rewriter.modify_op_in_place(op, lambda: op.set_operands(flat))
        return True


class FuncCallTypeConversion(ConversionPattern):
    """`func.call` takes the converted operands and returns the converted types."""

    root = "func.call"
    one_to_n = True
    generated_ops = ("func.call",)

    def match_and_rewrite(self, op, operands, rewriter):
        tc = self.type_converter
        types, counts = [], []
        for r in op.results:
            t = tc.convert_types(r.type)
            if t is None:
                return rewriter.notify_match_failure(
                    op, f"unable to convert the type of result #{r.index} ({r.type})")
            types.extend(t)
            counts.append(len(t))
        flat = [v for vs in operands for v in vs]
        new = type(op).create(flat, types, properties=op._props, attributes=op._attrs,
                              loc=op.loc)
        rewriter.insert(new)
        groups, k = [], 0
        for n in counts:
            groups.append(list(new.results[k:k + n]))
            k += n
        rewriter.replace_op_with_multiple(op, groups)
        return True


def populate_function_signature_conversion(patterns: list, type_converter: TypeConverter,
                                           target: ConversionTarget | None = None) -> list:
    """Add the patterns converting `func.func` signatures (and block arguments),
    `func.return` operands and `func.call` operands and results with `type_converter`.
    With `target`, also make those ops legal exactly when their types are."""
    patterns.extend([FuncSignatureConversion(type_converter),
                     FuncReturnTypeConversion(type_converter),
                     FuncCallTypeConversion(type_converter)])
    if target is not None:
        tc = type_converter
        target.add_dynamically_legal_op(
            "func.func", lambda op: tc.is_signature_legal(op.type) and
            tc.is_legal(op.regions[0]))
        target.add_dynamically_legal_op(["func.return", "func.call"],
                                        lambda op: tc.is_legal(op))
    return patterns
