"""`sccp`: sparse conditional constant propagation, as upstream's SCCP pass.

    %c = arith.constant true                     %c1 = arith.constant 1 : i32
    cf.cond_br %c, ^bb1, ^bb2               =>   ...
  ^bb2: ... %x = ... (never runs)                ^bb3(%v): uses of %v become %c1
  ^bb3(%v: i32): ...

[Note: the analysis]
Two analyses run together to a fixed point, as upstream's DeadCodeAnalysis and
SparseConstantPropagation:
  * Liveness: blocks and CFG edges start dead. The entry blocks of the op the pass runs
    on are live; a live op with regions makes its entry blocks live (a region-branch op
    only those its constant operands select, a function only when it has callers or
    unknown callers); a live branch makes live only the edge its constant operands
    select (cf.br, cf.cond_br, cf.switch). Callers of a private function are the calls
    seen in live code; a public function, or one whose symbol is used other than by a
    call, has unknown callers.
  * Values: each is uninitialized (not yet reached), a constant (Attribute and the
    dialect that folded it) or unknown; meeting two different constants gives unknown.
    An op in a live block folds its operands' constants through its `fold` hook
    (in-place folds count as unknown and are undone); ops with regions give unknown,
    except region-branch ops (scf.if, scf.for, scf.while, scf.execute_region,
    scf.index_switch: the `region_successors` interface in dialects/scf.py) whose
    results and region arguments meet the values flowing into them. Block arguments
    meet the operands of live incoming edges; a function's arguments the operands of
    its known calls (unknown for public functions); a call's results what the callee
    returns.
Then every value known to be a constant is replaced by a constant op created at the
start of the entry block of its function (in the dialect that folded it, uniqued, each
new one in front of the previous ones), and ops whose results were all replaced and
that have no side effects are erased. Like upstream, dead blocks are left in place
(canonicalize removes them) and nothing else is simplified.
"""
from __future__ import annotations

from collections import deque

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.builder import Builder, InsertionPoint
from ..ir.core import Operation, UnregisteredOp
from ..ir.location import UnknownLoc
from .call_graph import (SymbolTableCollection, callable_region, is_call, is_callable,
                         is_symbol, symbol_uses, visibility, walk_symbol_tables)
from .pass_manager import Pass

__all__ = ["SCCP", "ConstantPropagation"]

_UNKNOWN = object()


def _is_region_branch(op) -> bool:
    return hasattr(type(op), "region_successors")


def _meet(old, new):
    """Join on the lattice: None is uninitialized, _UNKNOWN the top, else a constant
    (attr, dialect name) pair; constants are equal when their attributes are."""
    if new is None or old is _UNKNOWN:
        return old
    if old is None or new is _UNKNOWN:
        return new
    if old[0] is new[0] or old[0] == new[0]:
        return old
    return _UNKNOWN


def _successor_for_operands(op, consts):
    """BranchOpInterface::getSuccessorForOperands: the one successor the constant
    operands select, or None."""
    fn = getattr(op, "successor_for_operands", None)
    if fn is not None:
        return fn(consts)
    name = op.name
    if name == "cf.br":
        return op.successors[0]
    if name == "cf.cond_br":
        c = consts[0]
        if type(c) is A.IntegerAttr:
            return op.successors[0] if c.value & 1 else op.successors[1]
        return None
    if name == "cf.switch":
        if op.properties.get("case_values") is None:
            return op.successors[0]
        c = consts[0]
        if type(c) is not A.IntegerAttr:
            return None
        w = c.type.width
        want = c.value & ((1 << w) - 1)
        for i, v in enumerate(op.case_value_list):
            if v & ((1 << w) - 1) == want:
                return op.successors[i + 1]
        return op.successors[0]
    return None


def _successor_operands(op, index):
    fn = getattr(op, "successor_operands", None)
    if fn is None:
        return None
    return fn(index)


class ConstantPropagation:
    """The solver: liveness and constant lattices over everything nested in `top`."""

    def __init__(self, top: Operation, dialects: dict):
        self.top = top
        self.dialects = dialects
        self.symbols = SymbolTableCollection()
        self.values: dict = {}          # Value -> lattice state
        self.live_blocks: set = set()
        self.live_edges: set = set()    # (from block, to block)
        self.callsites: dict = {}       # callable op -> [call ops]
        self.unknown_callers: set = set()
        self.returns: dict = {}         # call op -> [return ops]
        self.unknown_returns: set = set()
        self.region_preds: dict = {}    # Region -> [(pred op, inputs)]
        self.result_preds: dict = {}    # region-branch op -> [(pred op, inputs)]
        self.joined_entries: set = set()  # function entry blocks met with their calls
        self.work = deque()           # ops and blocks to (re)visit
        self.queued: set = set()

    # ------------------------------------------------------------------ worklist

    def push(self, item):
        if item not in self.queued:
            self.queued.add(item)
            self.work.append(item)

    def solve(self):
        top = self.top
        for r in top.regions:
            if r.blocks:
                self._mark_block_live(r.blocks[0])
                for a in r.blocks[0].args:
                    self._set(a, _UNKNOWN)
        self._init_symbol_callables()
        for op in top.walk(post_order=False):
            self.push(op)
            for r in op.regions:
                for b in r.blocks:
                    self.push(b)
        work = self.work
        while work:
            item = work.popleft()
            self.queued.discard(item)
            if isinstance(item, Operation):
                self._visit_op(item)
            else:
                self._visit_block(item)

    # ------------------------------------------------------------------ lattice

    def get(self, v):
        return self.values.get(v)

    def _set(self, v, state):
        old = self.values.get(v)
        new = _meet(old, state)
        if new is old:
            return
        self.values[v] = new
        self._value_changed(v)

    def _value_changed(self, v):
        for use in v.uses:
            u = use.owner
            self.push(u)
            if u.successors:
                src = u.parent
                for s in set(u.successors):
                    if (src, s) in self.live_edges:
                        self._join_edge(u, s)
            parent = u.parent_op
            if parent is not None and u.parent is not None and u.parent.last is u:
                if _is_region_branch(parent):
                    self.push(parent)
                    for r in parent.regions:
                        if r.blocks:
                            self.push(r.blocks[0])
                elif is_callable(parent):
                    for call in self.callsites.get(parent, ()):
                        self.push(call)
            if is_call(u):
                callee = self._resolve(u)
                if callee is not None and u in self.callsites.get(callee, ()):
                    self._join_call_args(u, callee)
            if _is_region_branch(u):
                for r in u.regions:
                    if r.blocks:
                        self.push(r.blocks[0])

    def operand_values(self, op):
        """The constant Attribute (or None) of each operand; None when one is not
        reached yet."""
        out = []
        for o in op.op_operands:
            s = self.values.get(o.value)
            if s is None:
                return None
            out.append(None if s is _UNKNOWN else s[0])
        return out

    # ------------------------------------------------------------------ liveness

    def is_live(self, block) -> bool:
        return block in self.live_blocks

    def _mark_block_live(self, block):
        if block in self.live_blocks:
            return
        self.live_blocks.add(block)
        self.push(block)
        for op in block.ops:
            self.push(op)

    def _mark_edge_live(self, src, dst):
        if (src, dst) in self.live_edges:
            return
        self.live_edges.add((src, dst))
        self._mark_block_live(dst)
        self._join_edge(src.last, dst)

    def _join_edge(self, term, dst):
        """Meet what the live edge from `term` forwards into `dst`'s arguments (the
        arguments of a non-entry block meet this over all their live edges)."""
        if not dst.args:
            return
        for i, s in enumerate(term.successors):
            if s is not dst:
                continue
            vals = _successor_operands(term, i)
            if vals is None:
                self._all_unknown(dst.args)
                return
            for v, a in zip(vals, dst.args):
                self._set(a, self.values.get(v))
            for a in dst.args[len(vals):]:
                self._set(a, _UNKNOWN)

    def _mark_entry_blocks_live(self, op):
        for r in op.regions:
            if r.blocks:
                self._mark_block_live(r.blocks[0])

    # ------------------------------------------------------------------ symbols

    def _resolve(self, call):
        callee = call.call_callee()
        if isinstance(callee, A.SymbolRefAttr):
            return self.symbols.lookup_nearest(call, callee)
        owner = getattr(callee, "owner", None)
        return owner if isinstance(owner, Operation) else None

    def _is_external(self, op) -> bool:
        if not self.top.is_ancestor(op):
            return True
        return is_callable(op) and callable_region(op) is None

    def _init_symbol_callables(self):
        top = self.top

        def visit(table, all_visible):
            region = table.regions[0]
            if not region.blocks:
                return
            found = False
            for op in region.blocks[0].ops:
                if not is_callable(op) or callable_region(op) is None or not is_symbol(op):
                    continue
                vis = visibility(op)
                if vis == "public" or (not all_visible and vis == "nested"):
                    self.unknown_callers.add(op)
                found = True
            if not found:
                return
            uses = []
            for b in region.blocks:
                for op in b.ops:
                    u = symbol_uses(op)
                    if u is None:
                        for c in top.walk():
                            if is_callable(c):
                                self.unknown_callers.add(c)
                        return
                    uses.extend(u)
            for user, ref in uses:
                if is_call(user):
                    continue
                sym = self.symbols.lookup_in(top, ref) if T.SymbolTable in type(top).traits \
                    else None
                if sym is not None:
                    self.unknown_callers.add(sym)
        walk_symbol_tables(top, top.parent is None, visit)

    # ------------------------------------------------------------------ ops

    def _visit_op(self, op):
        block = op.parent
        if block is not None and op is not self.top and block not in self.live_blocks:
            return
        self._control_flow(op)
        if op.results:
            self._transfer(op)

    def _control_flow(self, op):
        """DeadCodeAnalysis::visit."""
        if is_call(op):
            callee = self._resolve(op)
            if callee is not None and is_symbol(callee) and not self._is_external(callee):
                sites = self.callsites.setdefault(callee, [])
                if op not in sites:
                    sites.append(op)
                    self._callsites_changed(callee)
                    self._join_call_args(op, callee)
            elif op not in self.unknown_returns:
                self.unknown_returns.add(op)
                self.push(op)
        if op.regions:
            if _is_region_branch(op):
                consts = self.operand_values(op)
                if consts is not None:
                    for target, inputs in op.region_successors(None, consts):
                        self._add_region_pred(op, target, op, inputs)
            elif is_callable(op) and op is not self.top:
                if op in self.unknown_callers or self.callsites.get(op):
                    self._mark_entry_blocks_live(op)
            elif op is not self.top:
                self._mark_entry_blocks_live(op)
        parent = op.parent_op
        block = op.parent
        if parent is not None and not op.successors and block.last is op:
            if _is_region_branch(parent):
                consts = self.operand_values(op)
                if consts is not None:
                    fn = getattr(op, "terminator_successors", None)
                    succs = fn(consts) if fn is not None else \
                        parent.region_successors(block.parent)
                    for target, inputs in succs:
                        self._add_region_pred(parent, target, op, inputs)
            elif is_callable(parent):
                for call in self.callsites.get(parent, ()):
                    self._add_return(call, op)
        if op.successors:
            consts = self.operand_values(op)
            if consts is None:
                return
            succ = _successor_for_operands(op, consts) \
                if hasattr(op, "successor_operand_range") else None
            if succ is not None:
                self._mark_edge_live(block, succ)
            else:
                for s in op.successors:
                    self._mark_edge_live(block, s)

    def _join_call_args(self, call, callee):
        """A known call's operands meet into the callee's arguments (unless its callers
        are unknown: then they are unknown, see _visit_block)."""
        r = callable_region(callee)
        if r is None or not r.blocks or callee in self.unknown_callers:
            return
        if r.blocks[0] not in self.live_blocks:
            return  # done when the block becomes live
        for v, a in zip(call.call_arg_operands(), r.blocks[0].args):
            self._set(a, self.values.get(v))

    def _callsites_changed(self, callee):
        self.push(callee)
        r = callable_region(callee)
        if r is not None:
            if r.blocks:
                self.push(r.blocks[0])
            for b in r.blocks:
                if b.last is not None:
                    self.push(b.last)

    def _add_return(self, call, ret):
        if T.ReturnLike not in type(ret).traits:
            if call not in self.unknown_returns:
                self.unknown_returns.add(call)
                self.push(call)
            return
        lst = self.returns.setdefault(call, [])
        if ret not in lst:
            lst.append(ret)
            self.push(call)

    def _add_region_pred(self, branch, target, pred, inputs):
        if target is None:
            lst = self.result_preds.setdefault(branch, [])
            if not any(p is pred for p, _ in lst):
                lst.append((pred, inputs))
                self.push(branch)
            return
        if not target.blocks:
            return
        self._mark_block_live(target.blocks[0])
        lst = self.region_preds.setdefault(target, [])
        if not any(p is pred for p, _ in lst):
            lst.append((pred, inputs))
            self.push(target.blocks[0])

    def _transfer(self, op):
        """SparseConstantPropagation::visitOperation and the sparse framework around it."""
        if _is_region_branch(op):
            self._join_region_successors(op, None, list(op.results))
            return
        if is_call(op):
            callee = self._resolve(op)
            if callee is not None and is_callable(callee) and callable_region(callee) is None:
                self._all_unknown(op.results)
                return
            if op in self.unknown_returns:
                self._all_unknown(op.results)
                return
            for ret in self.returns.get(op, ()):
                for v, r in zip(ret.operands, op.results):
                    self._set(r, self.values.get(v))
            return
        if op.regions:
            self._all_unknown(op.results)
            return
        consts = self.operand_values(op)
        if consts is None:
            return
        results = self._fold(op, consts)
        if results is None:
            self._all_unknown(op.results)
            return
        dialect = op.dialect_name
        for r, v in zip(op.results, results):
            if isinstance(v, A.Attribute):
                self._set(r, (v, dialect))
            else:
                self._set(r, self.values.get(v))

    def _fold(self, op, consts):
        """Run `op.fold` on the lattice constants without letting it change `op`."""
        fold = getattr(op, "fold", None)
        if fold is None or type(op) is UnregisteredOp:
            return None
        saved_operands = [o.value for o in op.op_operands]
        saved_props = dict(op._props)
        saved_attrs = dict(op._attrs)
        res = fold(consts)
        if res is None:
            return None
        if not isinstance(res, (list, tuple)):
            res = [res]
        if len(res) != len(op.results) or all(v is r for v, r in zip(res, op.results)):
            # An in-place fold: simulated execution may not change the op.
            if any(o.value is not v for o, v in zip(op.op_operands, saved_operands)) or \
                    len(op.op_operands) != len(saved_operands):
                op.set_operands(saved_operands)
            op.properties = saved_props
            op.attributes = saved_attrs
            return None
        return res

    def _all_unknown(self, values):
        for v in values:
            self._set(v, _UNKNOWN)

    def _join_region_successors(self, branch, region, lattices_values):
        """visitRegionSuccessors: meet what the predecessors of the op's results (region
        None) or of `region`'s entry forward into `lattices_values`."""
        preds = self.result_preds.get(branch, ()) if region is None \
            else self.region_preds.get(region, ())
        for pred, inputs in preds:
            if pred is branch:
                operands = branch.entry_successor_operands(region)
            else:
                fn = getattr(pred, "region_successor_operands", None)
                if fn is None:
                    self._all_unknown(lattices_values)
                    return
                operands = fn(region)
            if len(inputs) != len(lattices_values):
                first = lattices_values.index(inputs[0]) if inputs else 0
                for i, v in enumerate(lattices_values):
                    if i < first or i >= first + len(inputs):
                        self._set(v, _UNKNOWN)
            for v, target in zip(operands, inputs):
                self._set(target, self.values.get(v))

    # ------------------------------------------------------------------ blocks

    def _visit_block(self, block):
        if not block.args or block not in self.live_blocks:
            return
        region = block.parent
        parent = region.parent if region is not None else None
        if region is not None and region.blocks[0] is block:
            if parent is None or parent is self.top:
                return  # entry state, set at the start
            if is_callable(parent) and callable_region(parent) is region:
                if parent in self.unknown_callers:
                    self._all_unknown(block.args)
                    return
                if block in self.joined_entries:
                    return  # later calls and operand changes meet in incrementally
                self.joined_entries.add(block)
                for call in self.callsites.get(parent, ()):
                    self._join_call_args(call, parent)
                return
            if _is_region_branch(parent):
                self._join_region_successors(parent, region, list(block.args))
                return
            self._all_unknown(block.args)
        # Other blocks' arguments are met edge by edge (_join_edge), as edges become live
        # and forwarded values change.


# ------------------------------------------------------------------------ rewriting


def _insertion_region(block):
    """Where folded constants go: the closest region whose op is isolated from above,
    unregistered, or the top-level op (upstream's OperationFolder)."""
    while True:
        region = block.parent
        op = region.parent
        if op is None or op.parent is None or type(op) is UnregisteredOp or \
                T.IsolatedFromAbove in type(op).traits:
            return region
        block = op.parent


class _ConstantCache:
    """Constants created by the rewrite, uniqued per insertion region and put at the
    front of its entry block (each new one before the previous ones)."""

    def __init__(self, dialects):
        self.dialects = dialects
        self.tables: dict = {}

    def get_or_create(self, block, dialect_name, value, type):
        region = _insertion_region(block)
        table = self.tables.setdefault(region, {})
        key = (dialect_name, value, type)
        op = table.get(key)
        if op is not None:
            return op.results[0]
        d = self.dialects.get(dialect_name)
        mat = getattr(d, "materialize_constant", None) if d is not None else None
        if mat is None:
            return None
        entry = region.blocks[0]
        b = Builder(InsertionPoint(entry, entry.first))
        op = mat(b, value, type, UnknownLoc())
        if op is None:
            return None
        new_key = (op.dialect_name, value, type)
        if op.dialect_name != dialect_name:
            existing = table.get(new_key)
            if existing is not None:
                op.erase()
                op = existing
            else:
                table[new_key] = op
        table[key] = op
        return op.results[0]


def _rewrite(solver: ConstantPropagation, regions, dialects) -> None:
    from ..rewrite.folding import would_be_trivially_dead
    cache = _ConstantCache(dialects)

    def replace(value, block) -> bool:
        s = solver.values.get(value)
        if s is None or s is _UNKNOWN:
            return False
        c = cache.get_or_create(block, s[1], s[0], value.type)
        if c is None:
            return False
        value.replace_all_uses_with(c)
        return True

    work = []

    def add(rs):
        for r in rs:
            work.extend(reversed(r.blocks))
    add(regions)
    while work:
        block = work.pop()
        op = block.first
        while op is not None:
            nxt = op.next
            replaced_all = bool(op.results)
            for r in op.results:
                replaced_all &= replace(r, block)
            if replaced_all and would_be_trivially_dead(op):
                op.erase()
            else:
                add(op.regions)
            op = nxt
        for a in block.args:
            replace(a, block)


class SCCP(Pass):
    name = "sccp"
    summary = "Sparse Conditional Constant Propagation"

    def run(self, op):
        from ..dialects import all_dialects
        dialects = {d.name: d for d in all_dialects()}
        solver = ConstantPropagation(op, dialects)
        solver.solve()
        _rewrite(solver, op.regions, dialects)
