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

from ..ir import traits as T
from ..ir.builder import Builder, InsertionPoint
from ..ir.core import Block, BlockArgument, IRError, Operation, OpResult, Region, Value
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.gc_pause import gc_paused
from .conversion_log import (
    _CreateBlock, _CreateOp, _EraseBlock, _Impl, _Journal, _JournalListener, _ModifyOp,
    _MoveBlock, _MoveOp, _ReplaceBlockArg)
from .folding import fold_op
from .pattern import Listener, PatternRewriter, RewritePattern
from .type_conversion import SignatureConversion, TypeConverter

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


# What `is_legal` answers for a legal op that is not recursively legal (read only).
_LEGAL = LegalOpDetails(False)


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
        # [Note: statically legal op names]
        # Most ops a conversion meets (all it creates: convert-to-llvm makes ~3 per op
        # it converts) are legal by name alone: an op or dialect action LEGAL, no
        # callback, not recursively legal. `is_legal` remembers those names, so that
        # checking one is a set lookup; every change to the target forgets them.
        self._legal_names: set[str] = set()

    # ------------------------------------------------------------ ops
    def set_op_action(self, op, action: LegalizationAction, fn=None):
        self._legal_names.clear()
        self._ops[_op_name(op)] = (action, fn)

    def add_legal_op(self, *ops):
        self._legal_names.clear()
        for n in _names(ops):
            self._ops[n] = (LEGAL, None)

    def add_illegal_op(self, *ops):
        self._legal_names.clear()
        for n in _names(ops):
            self._ops[n] = (ILLEGAL, None)

    def add_dynamically_legal_op(self, ops, fn):
        """`fn(op)` returns True (legal), False (illegal) or None (ask the dialect's
        callback, then the unknown-op callback)."""
        self._legal_names.clear()
        for n in _names([ops]):
            prev = self._ops.get(n)
            if prev is not None and prev[0] is DYNAMIC and prev[1] is not None:
                fn = _compose(fn, prev[1])
            self._ops[n] = (DYNAMIC, fn)

    def mark_op_recursively_legal(self, ops, fn=None):
        """Legal instances of these ops are legal with everything nested in them (when
        `fn(op)`, if given, returns True); nested ops are then not converted."""
        self._legal_names.clear()
        for n in _names([ops]):
            if n not in self._ops:
                self._ops[n] = (LEGAL, None)
            self._recursive[n] = fn if fn is not None else True

    # ------------------------------------------------------------ dialects
    def add_legal_dialect(self, *names):
        self._legal_names.clear()
        for n in names:
            self._dialects[n] = (LEGAL, None)

    def add_illegal_dialect(self, *names):
        self._legal_names.clear()
        for n in names:
            self._dialects[n] = (ILLEGAL, None)

    def add_dynamically_legal_dialect(self, names, fn):
        self._legal_names.clear()
        if isinstance(names, str):
            names = [names]
        for n in names:
            self._dialects[n] = (DYNAMIC, fn)

    def mark_unknown_op_dynamically_legal(self, fn):
        """Decide ops with no op or dialect action: `fn(op) -> bool | None`."""
        self._legal_names.clear()
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
        if op.name in self._legal_names:
            return _LEGAL
        action = self._action(op)
        if action is None or action is ILLEGAL:
            return None
        if action is DYNAMIC and not self._dynamic_legality(op):
            return None
        rec = self._recursive.get(op.name)
        if rec is None:
            if action is LEGAL:
                self._legal_names.add(op.name)
            return _LEGAL
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
        cls = type(op)
        defs = _OPERAND_DEFS.get(cls)
        if defs is None:
            defs = _OPERAND_DEFS[cls] = {d.name: d for d in getattr(cls, "_operand_defs", ())}
        d = defs.get(name)
        if d is None:
            raise AttributeError(f"'{op.name}' has no operand named '{name}'")
        start, size = op._segment(d.index, False)
        if d.kind == 0:  # single
            return self[start]
        if d.kind == 2:  # optional
            return self[start] if size else None
        return list(self[start:start + size])


_OPERAND_DEFS: dict = {}


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
    fail_on_illegal: a partial conversion fails when an op the target marks illegal
      cannot be legalized (upstream's behavior); False leaves such ops too, listed in
      the result's `unlegalized_ops`.
    """

    def __init__(self, fold=True, build_materializations=True, notes=True, max_depth=64,
                 dialects=None, fail_on_illegal=True):
        self.fail_on_illegal = fail_on_illegal
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
        self.folding: set = set()  # ops being legalized after an in-place fold
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
        if T.ConstantLike in type(op).traits or getattr(op, "fold", None) is None or \
                op in self.folding:
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
        if res is None or not op.results:
            impl.reset(st)
            return False
        if all(v is r for v, r in zip(res, op.results)):
            # Updated in place: legalize it again, without folding it again.
            self.folding.add(op)
            try:
                if self.legalize(op, rw):
                    return True
            finally:
                self.folding.discard(op)
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
    with gc_paused():  # many small records stay alive until the end; see gc_pause.py
        return _run_paused(ops, target, patterns, type_converter, config, mode)


def _release(impl, legalizer) -> None:
    """Drop what one conversion kept (its journal, value mapping, legality records)
    once it is over. They hang off the rewriter and legalizer, which refer to each
    other, so without this they waited for the cyclic collector: a model's
    convert-to-llvm left ~100,000 such objects for the next collection to trace."""
    impl.__dict__.clear()
    legalizer.__dict__.clear()


def _run_paused(ops, target, patterns, type_converter, config, mode) -> ConversionResult:
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
        return _convert(to_convert, legalizer, rw, impl, config, mode, unlegalized,
                        legalizable)
    finally:
        _release(impl, legalizer)


def _convert(to_convert, legalizer, rw, impl, config, mode, unlegalized, legalizable):
    try:
        for op in to_convert:
            if legalizer.legalize(op, rw):
                if mode == _ANALYSIS:
                    legalizable.add(op)
                continue
            if mode == _FULL:
                diag = _failure(op, f"failed to legalize operation '{op.name}'", legalizer)
            elif mode == _PARTIAL and config.fail_on_illegal and \
                    legalizer.target.is_illegal(op):
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
    illegal" is raised (unless `config.fail_on_illegal` is False). `type_converter`
    serves conversion patterns that have none."""
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


_FUNC_NAMES = ("FuncSignatureConversion", "FuncReturnTypeConversion",
               "FuncCallTypeConversion", "populate_function_signature_conversion")


def __getattr__(name):
    # Function signature conversion lives in func_conversion.py, which builds on this
    # module; its names are served from here too, loaded on first use.
    if name in _FUNC_NAMES:
        from . import func_conversion
        return getattr(func_conversion, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
