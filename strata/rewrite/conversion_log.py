"""The bookkeeping of a dialect conversion (see [Note: how a conversion runs and how it
is undone] in conversion.py): the records of every change, which roll back or commit;
the journal that makes the commit itself undoable; the value mapping; and `_Impl`, the
state one conversion shares between its rewriter and its legalizer."""
from __future__ import annotations

from ..ir.builder import InsertionPoint
from ..ir.core import Block, BlockArgument, IRError, OpResult
from .pattern import Listener

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


def _replace_block_uses(old: Block, new: Block, index=None):
    """Point every successor reference to `old` (in its region) at `new`: in the last op
    of each block of the region; `index` (a _BranchIndex) finds those ops without a
    scan of the region."""
    changed = []
    region = old.parent
    if region is None:
        return changed
    if index is None:
        terminators = [b.last for b in region.blocks]
    else:
        terminators = index.branches_to(old, region)
    for t in terminators:
        if t is None:
            continue
        succ = t.successors
        # (`in` compares blocks by identity, Block defining no __eq__; a C loop where
        # a generator per terminator cost seconds in functions of thousands of blocks)
        if succ and old in succ:
            succ = list(succ)
            for i, s in enumerate(succ):
                if s is old:
                    succ[i] = new
                    changed.append((t, i))
            t.successors = succ
            if index is not None:
                index.add(t, new)
    return changed


class _BranchIndex:
    """Which ops may branch to a block, so that converting a block's signature does not
    scan every block of its region (quadratic in a function of thousands of blocks:
    a model's entry function holds two per run-time check).

    [Note: branch index]
    An entry `block -> [op, ...]` says the op had the block among its successors at some
    point; entries are never removed, so a lookup keeps only the ops that are still the
    last op of a block of the region and still branch there: what the scan would find,
    provided every op that does is listed. It is: a region is indexed whole (every op
    with successors) the first time a block of it is looked up, and every later change
    is a record in `impl.rewrites` (an op created, modified, moved; a block created,
    moved, erased): the records since the last lookup are indexed before each lookup
    (a modified op under its old successors too, in case the change is undone), and
    a record undone is indexed again after its rollback (blocks and ops back where
    they were)."""

    __slots__ = ("impl", "index", "regions", "upto")

    def __init__(self, impl):
        self.impl = impl
        self.index: dict = {}
        self.regions: set = set()
        self.upto = 0            # the records of impl.rewrites indexed so far

    def add(self, op, block):
        lst = self.index.get(block)
        if lst is None:
            self.index[block] = [op]
        elif lst[-1] is not op:
            lst.append(op)

    def add_op(self, op):
        succ = op.successors
        if succ:
            for s in succ:
                self.add(op, s)

    def add_block(self, block):
        for op in block.ops:
            if op.successors:
                self.add_op(op)

    def add_record(self, r):
        t = type(r)
        if t is _CreateOp:
            self.add_op(r.op)
        elif t is _ModifyOp:
            self.add_op(r.op)
            if r.successors:
                for s in r.successors:
                    self.add(r.op, s)
        elif t is _MoveOp:
            for op in r.ops:
                self.add_op(op)
        elif t is _CreateBlock or t is _MoveBlock or t is _EraseBlock:
            self.add_block(r.block)
        elif t is _BlockTypeConversion:
            for op, _ in r.changed:
                self.add(op, r.orig)
                self.add_op(op)

    def rolled_back(self, st_rewrites):
        if self.upto > st_rewrites:
            self.upto = st_rewrites

    def branches_to(self, block, region) -> list:
        rw = self.impl.rewrites
        for k in range(self.upto, len(rw)):
            self.add_record(rw[k])
        self.upto = len(rw)
        if region not in self.regions:
            self.regions.add(region)
            for b in region.blocks:
                self.add_block(b)
        out = []
        seen = set()
        for t in self.index.get(block, ()):
            p = t.parent
            if p is not None and p.parent is region and p.last is t and t not in seen:
                seen.add(t)
                out.append(t)
        return out


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
        # uses unlinked by `erase` already: forget them first, then take the ops apart
        # ([Note: erased ops are freed by reference counting] in ir/core.py)
        erased = self.erased
        for op in erased:
            op._operands = []
        for op in erased:
            op._forget()


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
        self.branch_index = None     # a _BranchIndex once a block signature is converted

    # ------------------------------------------------------------ state
    def state(self) -> _State:
        return _State(len(self.rewrites), len(self.ignored), len(self.replaced))

    def reset(self, st: _State):
        rw = self.rewrites
        bi = self.branch_index
        if bi is not None and len(rw) > st.rewrites:
            bi.rolled_back(st.rewrites)
            while len(rw) > st.rewrites:
                r = rw.pop()
                r.rollback(self)
                bi.add_record(r)     # see [Note: branch index]
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
        if self.branch_index is None:
            self.branch_index = _BranchIndex(self)
        self.rewrites.append(_BlockTypeConversion(
            block, new, _replace_block_uses(block, new, self.branch_index)))
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


