"""One-Shot analysis: which tensor OpOperands may bufferize in place.

[Note: the analysis]
This is upstream's One-Shot Analysis (OneShotAnalysis.cpp), driven by the op models of
models.py. Every tensor value starts in its own alias set and equivalence class. Ops are
visited bottom-up (the reverse of a post-order walk, upstream's default heuristic); for
each tensor OpOperand the analysis asks whether bufferizing it in place (its buffer
becomes the buffer of its aliasing results) would

  * write to a buffer that must not be written (a constant, a read-only function
    argument, the result of an unknown op), or
  * create a read-after-write conflict: some read R of an alias is supposed to see the
    value of a definition D (found by following aliasing operands back through views
    until a value the op writes), but an in-place write W of the same buffer happens
    after D and before R.

If neither, the operand is in place and its alias set is merged with its results'; else
it is out of place (bufferization copies it). "Happens before" is op dominance, except
where loops make it meaningless (repetitive regions: scf.for, scf.while) and between the
mutually exclusive branches of scf.if; a read and a write of the same elementwise op
(linalg with identity maps) do not conflict, nor do matching extract_slice /
insert_slice pairs. Operands that must be in place (scf.yield, scf.condition) are marked
first. After the traversal, equivalence classes are merged along in-place operands whose
result is definitely the same buffer.

Only single-block regions are supported (the pass runs before scf-to-cf).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.core import BlockArgument, OpResult
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from .models import UNKNOWN, is_tensor, model_of

__all__ = ["Analysis", "AnalysisOptions", "BufferizationError", "UnionFind"]


class BufferizationError(DiagnosticError):
    """The IR cannot be bufferized (located at the offending op)."""

    @classmethod
    def at(cls, op, message, bare=False):
        text = message if bare else f"'{op.name}' op {message}"
        return cls(Diagnostic(ERROR, op.loc, text))


class AnalysisOptions:
    __slots__ = ("function_boundaries", "allow_return_allocs_from_loops",
                 "copy_before_write", "print_conflicts", "allow_unknown_ops")

    def __init__(self, function_boundaries=True, allow_return_allocs_from_loops=False,
                 copy_before_write=False, print_conflicts=False, allow_unknown_ops=False):
        self.function_boundaries = function_boundaries
        self.allow_return_allocs_from_loops = allow_return_allocs_from_loops
        self.copy_before_write = copy_before_write
        self.print_conflicts = print_conflicts
        self.allow_unknown_ops = allow_unknown_ops


class UnionFind:
    """Disjoint sets of values with their members listed (the alias sets and the
    equivalence classes); the smaller set is merged into the larger."""

    __slots__ = ("parent", "members")

    def __init__(self):
        self.parent = {}
        self.members = {}

    def find(self, v):
        parent = self.parent
        p = parent.get(v)
        if p is None:
            parent[v] = v
            self.members[v] = [v]
            return v
        if p is v:
            return v
        root = p
        while True:
            q = parent[root]
            if q is root:
                break
            root = q
        while parent[v] is not root:  # path compression
            nxt = parent[v]
            parent[v] = root
            v = nxt
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra is rb:
            return
        ma, mb = self.members[ra], self.members[rb]
        if len(ma) < len(mb):
            ra, rb, ma, mb = rb, ra, mb, ma
        self.parent[rb] = ra
        ma.extend(mb)
        del self.members[rb]

    def same(self, a, b) -> bool:
        return self.find(a) is self.find(b)

    def set_of(self, v) -> list:
        return self.members[self.find(v)]


class Analysis:
    """The analysis state of one module or function (see [Note: the analysis])."""

    def __init__(self, root, options: AnalysisOptions | None = None):
        self.root = root
        self.options = options or AnalysisOptions()
        self.aliases = UnionFind()
        self.equivalent = UnionFind()
        self.inplace: set = set()
        self._defs: dict = {}
        self._pos: dict = {}
        self._read_cache: dict = {}
        self._conflicts = 0      # print-conflicts counters (C_n, W_n)
        self._not_writable = 0
        self._writable_cache: dict = {}
        # Per-OpOperand answers of the op models (static, except loops' aliasing).
        self._reads: dict = {}
        self._writes: dict = {}
        self._aliasing: dict = {}

    # ---------------------------------------------------------------- model queries

    def owner_op(self, v):
        """The op defining `v`, or the op whose region has block argument `v`."""
        if type(v) is OpResult:
            return v.owner
        return v.owner.parent_op

    def model(self, op):
        return model_of(op)

    def value_model(self, v):
        op = self.owner_op(v)
        return model_of(op) if op is not None else UNKNOWN

    def reads(self, u) -> bool:
        r = self._reads.get(u)
        if r is None:
            r = self._reads[u] = model_of(u.owner).reads(self, u)
        return r

    def writes(self, u) -> bool:
        w = self._writes.get(u)
        if w is None:
            w = self._writes[u] = model_of(u.owner).writes(self, u)
        return w

    def aliasing_values(self, u) -> list:
        a = self._aliasing.get(u)
        if a is None:
            m = model_of(u.owner)
            a = m.aliasing_values(self, u)
            if not m.equivalence_dependent:  # loops: equivalence grows as decided
                self._aliasing[u] = a
        return a

    def aliasing_operands(self, v) -> list:
        return self.value_model(v).aliasing_operands(self, v)

    def value_writes(self, v) -> bool:
        """bufferizesToMemoryWrite(Value): block arguments and results of unknown ops
        count as definitions."""
        if type(v) is not OpResult:
            return True
        m = model_of(v.owner)
        if not m.bufferizable:
            return True
        return m.result_writes(self, v)

    def is_writable(self, v) -> bool:
        m = self.value_model(v)
        if not m.bufferizable:
            return False
        return m.is_writable(self, v)

    def alias_only(self, u) -> bool:
        return not self.reads(u) and not self.writes(u) and bool(self.aliasing_values(u))

    def are_equivalent(self, a, b) -> bool:
        return self.equivalent.same(a, b)

    def are_aliasing(self, a, b) -> bool:
        return self.aliases.same(a, b)

    def is_inplace(self, u) -> bool:
        return u in self.inplace

    # ---------------------------------------------------------------- function boundaries

    def func_arg_writable(self, arg) -> bool:
        f = arg.owner.parent_op
        if f is None or f.name != "func.func" or arg.owner is not f.regions[0].blocks[0]:
            return True
        if not self.options.function_boundaries:
            return False
        attrs = f._props.get("arg_attrs")
        if attrs is None or arg.index >= len(attrs.value):
            return False
        d = attrs.value[arg.index]
        w = d.value.get("bufferization.writable") if type(d) is A.DictionaryAttr else None
        return w is A.BoolAttr(True)

    def callee_arg_writable(self, call, index) -> bool:
        key = (call, index)
        w = self._writable_cache.get(key)
        if w is None:
            from ...ir.symbol_table import lookup_nearest_symbol_from
            f = lookup_nearest_symbol_from(call, call._props["callee"])
            w = False
            if f is not None and f.name == "func.func" and f.regions[0].blocks:
                args = f.regions[0].blocks[0].args
                w = index < len(args) and self.func_arg_writable(args[index])
            self._writable_cache[key] = w
        return w

    # ---------------------------------------------------------------- use-def chains

    def is_value_read(self, v) -> bool:
        """Whether some use of `v` (through ops that only create aliases) reads it."""
        r = self._read_cache.get(v)
        if r is not None:
            return r
        work = list(v.uses)
        seen = set()
        r = False
        while work:
            u = work.pop()
            if u in seen:
                continue
            seen.add(u)
            if self.reads(u):
                r = True
                break
            if not self.writes(u):
                for a in self.aliasing_values(u):
                    work.extend(a.value.uses)
        self._read_cache[v] = r
        return r

    def find_in_chain(self, start, cond, always_include_leaves=True,
                      equivalent_only=False, inplace_only=False, same_type_only=False):
        """findValueInReverseUseDefChain from OpOperand `start`: the values reached by
        following aliasing operands backwards, stopping at values where `cond` holds
        (returned) and at leaves (returned when `always_include_leaves`)."""
        result = {}
        visited = set()
        work = [start.value]
        while work:
            v = work.pop()
            if v in visited:
                if always_include_leaves:
                    result[v] = None
                continue
            visited.add(v)
            if cond(v):
                result[v] = None
                continue
            m = self.value_model(v)
            if not m.bufferizable:
                if always_include_leaves:
                    result[v] = None
                continue
            aliases = m.aliasing_operands(self, v)
            if not aliases:
                if always_include_leaves:
                    result[v] = None
                continue
            for a in aliases:
                if equivalent_only and not a.equivalent:
                    if always_include_leaves:
                        result[v] = None
                    continue
                if inplace_only and a.operand not in self.inplace:
                    if always_include_leaves:
                        result[v] = None
                    continue
                if same_type_only and a.operand.value.type is not v.type and \
                        not _is_cast(self.owner_op(v)):
                    if always_include_leaves:
                        result[v] = None
                    continue
                work.append(a.operand.value)
        return list(result)

    def find_definitions(self, u) -> list:
        """The values that define the contents of `u`'s value."""
        v = u.value
        d = self._defs.get(v)
        if d is None:
            d = self._defs[v] = self.find_in_chain(u, self.value_writes,
                                                   always_include_leaves=False)
        return d

    def has_undefined_contents(self, u) -> bool:
        v = u.value
        if type(v) is not OpResult or not model_of(v.owner).bufferizable:
            return False
        return not self.find_definitions(u)

    def can_omit_copy(self, u) -> bool:
        """Whether an out-of-place copy of `u` can be an uninitialized buffer."""
        if self.has_undefined_contents(u):
            return True
        if self.writes(u) and not self.reads(u):
            return True
        if not self.reads(u) and not any(self.is_value_read(a.value)
                                         for a in self.aliasing_values(u)):
            return True
        return False

    # ---------------------------------------------------------------- ordering

    def _position(self, op):
        pos = self._pos.get(op)
        if pos is None:
            for i, o in enumerate(op.parent.ops):
                self._pos[o] = i
            pos = self._pos[op]
        return pos

    def properly_dominates(self, a, b) -> bool:
        blk = a.parent
        x = b
        while x is not None and x.parent is not blk:
            x = x.parent_op
        if x is None or x is a:
            return False
        return self._position(a) < self._position(x)

    def happens_before(self, a, b) -> bool:
        while a is not None:
            if a is not b and a.is_ancestor(b):
                return False
            if self.properly_dominates(a, b):
                return True
            a = a.parent_op
        return False

    def repetitive_region(self, region):
        """The closest repetitive region (loop body) that is `region` or encloses it."""
        while region is not None:
            op = region.parent
            if op is None:
                return None
            if model_of(op).repetitive:
                return region
            b = op.parent
            region = b.parent if b is not None else None
        return None

    def enclosing_repetitive_region(self, x):
        if type(x) is BlockArgument:
            return self.repetitive_region(x.owner.parent)
        op = x.owner if type(x) is OpResult else x
        return self.repetitive_region(op.parent_region)

    def next_repetitive_region(self, region):
        op = region.parent
        b = op.parent if op is not None else None
        if b is None or b.parent is None:
            return None
        return self.repetitive_region(b.parent)

    def can_use_dominance(self, u_read, u_write, definitions) -> bool:
        """canUseOpDominanceDueToRegions (blocks are single-block regions here)."""
        r_read0 = self.enclosing_repetitive_region(u_read.owner)
        for d in definitions:
            r_def = self.enclosing_repetitive_region(d)
            r_read = r_read0
            if r_read is r_def:
                continue
            while True:
                nxt = self.next_repetitive_region(r_read)
                if nxt is r_def:
                    break
                if nxt is None:
                    break
                r_read = nxt
            if r_read is not None and r_read.parent.is_ancestor(u_write.owner):
                return False
        return True

    @staticmethod
    def mutually_exclusive(a, b) -> bool:
        regions = {}
        r = a.parent_region
        while r is not None:
            p = r.parent
            regions[p] = r
            r = p.parent_region if p is not None else None
        r = b.parent_region
        while r is not None:
            p = r.parent
            ra = regions.get(p)
            if ra is not None:
                return ra is not r and model_of(p).exclusive_regions
            r = p.parent_region if p is not None else None
        return False

    # ---------------------------------------------------------------- conflicts

    def _equivalent_in_chain(self, start, other) -> bool:
        return bool(self.find_in_chain(start, lambda v: v is other,
                                       always_include_leaves=False, equivalent_only=True,
                                       same_type_only=True))

    def _matches_insert_destination(self, u, op, m) -> bool:
        def matching(v):
            return type(v) is OpResult and m.is_equivalent_subset(op, v, self.are_equivalent)
        leaves = self.find_in_chain(u, matching)
        return all(matching(v) for v in leaves)

    def non_conflicting_subsets(self, u_read, u_write) -> bool:
        rop, wop = u_read.owner, u_write.owner
        m = model_of(rop)
        if getattr(m, "subset_insertion", False):
            if u_read is m.dest_operand(rop) and \
                    self._matches_insert_destination(u_write, rop, m):
                return True
            if u_read is m.source_operand(rop) and u_write is m.dest_operand(rop) and \
                    self._matches_insert_destination(u_read, rop, m):
                return True
        m = model_of(wop)
        if getattr(m, "subset_insertion", False):
            src = m.source_operand(wop)
            if u_write is m.dest_operand(wop) and \
                    self.are_equivalent(u_read.value, src.value) and \
                    self._matches_insert_destination(src, wop, m):
                return True
        return False

    def has_raw_conflict(self, reads, writes) -> bool:
        for u_read in reads:
            rop = u_read.owner
            definitions = self.find_definitions(u_read)
            if not definitions:
                continue
            for u_write in writes:
                wop = u_write.owner
                if self.can_use_dominance(u_read, u_write, definitions):
                    if self.happens_before(rop, wop):
                        continue
                    if u_write is u_read:
                        continue
                    if self.mutually_exclusive(rop, wop):
                        continue
                    if wop is rop and model_of(rop).elementwise(self, rop, (u_read, u_write)):
                        if self._equivalent_in_chain(u_read, u_write.value) or \
                                self._equivalent_in_chain(u_write, u_read.value):
                            continue
                if self.non_conflicting_subsets(u_read, u_write):
                    continue
                for d in definitions:
                    dop = d.owner if type(d) is OpResult else None
                    if dop is not None:
                        if self.happens_before(wop, dop):
                            continue
                        if dop is not wop and dop.is_ancestor(wop):
                            continue
                    else:
                        blk = d.owner
                        x = wop
                        while x is not None and x.parent is not blk:
                            x = x.parent_op
                        if x is None:
                            continue
                    al = self.aliasing_values(u_write)
                    if len(al) == 1 and al[0].value is d:
                        continue
                    if self.options.print_conflicts:
                        self._annotate_conflict(u_read, u_write, d)
                    return True
        return False

    def _aliasing_reads(self, out, root):
        for alias in self.aliases.set_of(root):
            for u in alias.uses:
                if self.reads(u):
                    out[u] = None
                    continue
                if not self.writes(u) and any(self.is_value_read(a.value)
                                              for a in self.aliasing_values(u)):
                    out[u] = None

    def _aliasing_inplace_writes(self, out, root):
        for alias in self.aliases.set_of(root):
            for u in alias.uses:
                if u in self.inplace and self.writes(u):
                    out[u] = None

    def would_create_raw(self, u, consistency_only=False) -> bool:
        reads, writes = {}, {}
        self._aliasing_reads(reads, u.value)
        self._aliasing_inplace_writes(writes, u.value)
        for a in self.aliasing_values(u):
            self._aliasing_reads(reads, a.value)
            self._aliasing_inplace_writes(writes, a.value)
        if not consistency_only and self.writes(u):
            writes[u] = None
        return self.has_raw_conflict(list(reads), list(writes))

    def would_write_read_only(self, u, consistency_only=False) -> bool:
        found = not consistency_only and self.writes(u)
        if not found:
            writes = {}
            self._aliasing_inplace_writes(writes, u.value)
            for a in self.aliasing_values(u):
                self._aliasing_inplace_writes(writes, a.value)
            found = bool(writes)
        if not found:
            return False
        bad = False
        for v in self._all_aliases(u):
            if not self.is_writable(v):
                bad = True
                if self.options.print_conflicts:
                    self._annotate_not_writable(v)
        return bad

    def _all_aliases(self, u):
        out = list(self.aliases.set_of(u.value))
        for a in self.aliasing_values(u):
            out.extend(self.aliases.set_of(a.value))
        return out

    # ---------------------------------------------------------------- decisions

    def bufferize_inplace(self, u):
        if u in self.inplace:
            return
        self.inplace.add(u)
        for a in self.aliasing_values(u):
            self.aliases.union(a.value, u.value)

    def analyze_operand(self, u):
        if self.options.copy_before_write:
            if not self.writes(u):
                self.bufferize_inplace(u)
            return
        if self.would_write_read_only(u) or self.would_create_raw(u):
            return
        self.bufferize_inplace(u)

    def run(self):
        """Analyze every op under the root, then merge equivalence classes."""
        order = []
        for op in self.root.walk():
            if any(is_tensor(u.value.type) for u in op._operands) or \
                    any(is_tensor(r.type) for r in op.results):
                order.append(op)
            if op.name == "scf.execute_region" and sum(
                    1 for b in op.regions[0].blocks
                    if b.last is not None and b.last.name == "scf.yield") != 1:
                raise BufferizationError.at(op, "op without unique scf.yield is not "
                                                "supported")
            if len(op.regions) and any(len(r.blocks) > 1 for r in op.regions) and \
                    op.name != "builtin.module":
                if any(is_tensor(a.type) for r in op.regions for b in r.blocks
                       for a in b.args) or _has_tensor_ops(op):
                    raise BufferizationError.at(
                        op, "op or BufferizableOpInterface implementation does not support "
                            "unstructured control flow, but at least one region has "
                            "multiple blocks")
        self._check_to_tensor(order)
        for op in order:  # operands that must be in place come first
            m = model_of(op)
            for u in op._operands:
                if is_tensor(u.value.type) and m.must_inplace(self, u):
                    self.bufferize_inplace(u)
        for op in reversed(order):
            for u in op._operands:
                if is_tensor(u.value.type) and u not in self.inplace:
                    self.analyze_operand(u)
        self._equivalence_analysis(order)
        self._verify(order)

    @staticmethod
    def _check_to_tensor(order):
        for op in order:
            if op.name == "bufferization.to_tensor" and "restrict" not in op._props and \
                    op.results[0].first_use is not None:
                raise BufferizationError.at(op, "to_tensor ops without `restrict` are not "
                                                "supported by One-Shot Analysis")

    def _equivalence_analysis(self, order):
        for op in order:
            m = model_of(op)
            if not m.bufferizable:
                continue
            for r in op.results:
                if not is_tensor(r.type):
                    continue
                aliases = m.aliasing_operands(self, r)
                if not aliases:
                    continue
                first = aliases[0].operand.value
                all_eq = True
                for a in aliases:
                    inplace = a.operand in self.inplace
                    if a.equivalent and inplace and a.definite:
                        self.equivalent.union(r, a.operand.value)
                        all_eq = False
                        break
                    if not a.equivalent or not inplace:
                        all_eq = False
                    if not self.are_equivalent(a.operand.value, first):
                        all_eq = False
                if all_eq and not m.allocates(r):
                    self.equivalent.union(r, first)

    def _verify(self, order):
        if self.options.allow_return_allocs_from_loops:
            return
        from .models import _For
        for op in order:
            if op.name == "scf.for":
                y = op.regions[0].blocks[0].last
                for i, r in enumerate(op.results):
                    if is_tensor(r.type) and not _For.yield_equivalent(self, op, i):
                        raise BufferizationError.at(
                            y, f"Yield operand #{i} is not equivalent to the corresponding "
                               "iter bbArg", bare=True)
            elif op.name == "scf.while":
                before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
                for blk, term, what, off in ((before, before.last, "Condition arg", 1),
                                             (after, after.last, "Yield operand", 0)):
                    for i, u in enumerate(term._operands[off:]):
                        if not is_tensor(u.value.type):
                            continue
                        if i >= len(blk.args) or not self.are_equivalent(u.value,
                                                                         blk.args[i]):
                            raise BufferizationError.at(
                                term, f"{what} #{i} is not equivalent to the corresponding "
                                      "iter bbArg", bare=True)

    # ---------------------------------------------------------------- annotations

    def _annotate_conflict(self, u_read, u_write, d):
        n = self._conflicts
        self._conflicts += 1
        wop, rop = u_write.owner, u_read.owner
        wop.attributes[f"C_{n}[CONFL-WRITE: {u_write.index}]"] = A.UnitAttr()
        rop.attributes[f"C_{n}[READ: {u_read.index}]"] = A.UnitAttr()
        if type(d) is OpResult:
            d.owner.attributes[f"C_{n}[DEF: result {d.index}]"] = A.UnitAttr()
        else:
            d.owner.parent_op.attributes[f"C_{n}[DEF: bbArg {d.index}]"] = A.UnitAttr()

    def _annotate_not_writable(self, v):
        n = self._not_writable
        self._not_writable += 1
        if type(v) is OpResult:
            v.owner.attributes[f"W_{n}[NOT-WRITABLE: result {v.index}]"] = A.UnitAttr()
        else:
            v.owner.parent_op.attributes[f"W_{n}[NOT-WRITABLE: bbArg {v.index}]"] = \
                A.UnitAttr()

    def annotate(self):
        """test-analysis-only: `__inplace_operands_attr__` on every op with tensor
        operands and `bufferization.access` on tensor function arguments."""
        for op in self.root.walk():
            marks = None
            for i, u in enumerate(op._operands):
                if is_tensor(u.value.type):
                    if marks is None:
                        marks = ["none"] * len(op._operands)
                    marks[i] = "true" if u in self.inplace else "false"
            if marks is not None:
                op.attributes["__inplace_operands_attr__"] = A.ArrayAttr(
                    [A.StringAttr(s) for s in marks])
            if op.name == "func.func" and op.regions[0].blocks and \
                    self.options.function_boundaries:
                self._annotate_access(op)
                self._annotate_equivalent_args(op)

    def _annotate_equivalent_args(self, f):
        """`__equivalent_func_args__` on func.return: per returned value, the argument
        (of the same type) whose buffer it is, or -1."""
        args = f.regions[0].blocks[0].args
        for blk in f.regions[0].blocks:
            ret = blk.last
            if ret is None or ret.name != "func.return":
                continue
            eq = []
            for u in ret._operands:
                v = u.value
                k = -1
                if is_tensor(v.type):
                    for a in args:
                        if a.type is v.type and self.are_equivalent(a, v):
                            k = a.index
                            break
                eq.append(k)
            if any(k >= 0 for k in eq):
                attrs = {"__equivalent_func_args__": A.ArrayAttr(
                    [A.IntegerAttr(k, A.i64) for k in eq])}
                attrs.update(ret.attributes)
                ret.attributes = attrs

    def _annotate_access(self, f):
        args = f.regions[0].blocks[0].args
        if not any(is_tensor(a.type) for a in args):
            return
        old = f._props.get("arg_attrs")
        dicts = list(old.value) if old is not None else [A.DictionaryAttr({})] * len(args)
        for a in args:
            if not is_tensor(a.type):
                continue
            read = self.is_value_read(a)
            written = any(u in self.inplace and self.writes(u)
                          for v in self.aliases.set_of(a) for u in v.uses)
            access = ("read-write" if read and written else "read" if read else
                      "write" if written else "none")
            d = dict(dicts[a.index].value)
            d["bufferization.access"] = A.StringAttr(access)
            dicts[a.index] = A.DictionaryAttr(d)
        f.properties["arg_attrs"] = A.ArrayAttr(dicts)


def _is_cast(op) -> bool:
    return op is not None and op.name in ("tensor.cast", "builtin.unrealized_conversion_cast")


def _has_tensor_ops(op) -> bool:
    for o in op.walk():
        if o is op:
            continue
        if any(is_tensor(u.value.type) for u in o._operands) or \
                any(is_tensor(r.type) for r in o.results):
            return True
    return False
