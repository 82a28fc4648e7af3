"""`remove-dead-values`: remove values that nothing live needs, using a liveness analysis
over the whole op, in the spirit of upstream's RemoveDeadValues pass.

    func.func private @f(%a: i32, %unused: i32) -> (i32, i32) { ... }
    %r:2 = call @f(%x, %y) ...    // only %r#0 used
      ->  func.func private @f(%a: i32) -> i32 { ... };  %r = call @f(%x) ...

[Note: liveness]
A value is live when something that must stay reads it:
- an operand of an op with memory effects (or unknown effects) is live, and so are the
  operands of the terminators that leave its regions (a loop that stores keeps what its
  `scf.yield` passes on);
- an operand of an effect-free op is live once one of the op's results is live (with the
  operands of the terminators leaving its regions);
- what the `func.return` of a public function (or of one whose uses are not all calls)
  returns is live; for a private function whose every use is a `func.call`, returned
  value #i is live once result #i of some call is live, and a call operand is live once
  the callee's matching argument is;
- a branch operand forwarded to a block argument is live once the argument is; the
  other operands of branch ops (conditions, switch flags) are live.
Liveness spreads backwards with a worklist, so the analysis is linear in the IR.

[Note: what is removed]
- effect-free ops (not terminators, symbols or calls) whose results are all dead, region
  ops included;
- arguments and results of private functions (with a body, used only by calls): dead
  arguments go with the matching call operands, a result goes when it is dead at every
  call site (with the matching return operands);
- dead arguments of non-entry blocks, with the operands their predecessors' branch ops
  forward to them.
Not done (upstream's part (C)): dropping unused results, operands and region arguments
of region-branch ops that stay (an scf.for whose only some iter_args are dead), and
functions other than `func.func`.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import traits as T
from ..ir.attributes import StringAttr, SymbolRefAttr
from ..ir.core import BlockArgument, IRError, OpResult
from .cse import is_memory_effect_free
from .pass_manager import Pass
from .symbol_dce import symbol_refs, visibility

__all__ = ["RemoveDeadValues"]

_FUNC, _CALL, _RETURN = "func.func", "func.call", "func.return"


def _is_branch(op) -> bool:
    return hasattr(op, "successor_operand_range") and bool(op.successors)


class _SymbolIndex:
    """Resolves symbol references from any op to the symbol ops they name."""

    def __init__(self):
        self.tables: dict = {}

    def _table(self, table_op) -> dict:
        t = self.tables.get(table_op)
        if t is None:
            t = self.tables[table_op] = {}
            for r in table_op.regions[:1]:
                for b in r.blocks:
                    for child in b.ops:
                        a = child._props.get("sym_name") or child._attrs.get("sym_name")
                        if isinstance(a, StringAttr):
                            t.setdefault(a.value, child)
        return t

    def resolve(self, from_op, ref: SymbolRefAttr):
        table_op = from_op.parent_op
        while table_op is not None and T.SymbolTable not in type(table_op).traits:
            table_op = table_op.parent_op
        if table_op is None:
            return None
        sym = self._table(table_op).get(ref.root)
        for name in ref.nested:
            if sym is None or T.SymbolTable not in type(sym).traits:
                return None
            sym = self._table(sym).get(name)
        return sym


class _Analysis:
    def __init__(self, root):
        self.root = root
        self.live: set = set()
        self.worklist: list = []
        self.activated: set = set()
        # Private functions whose signature may change -> their call ops.
        self.callers: dict = {}
        self.callee_of: dict = {}          # call op -> modifiable callee
        self.returns: dict = {}            # func -> [func.return ops]
        self.block_preds: dict = {}        # block -> [(branch op, successor index)]
        self.fixed_blocks: set = set()     # blocks with a predecessor we cannot rewrite

    # ------------------------------------------------------------------ setup
    def find_functions(self):
        index = _SymbolIndex()
        uses: dict = {}
        for op in self.root.walk():
            for key, d in (("p", op._props), ("a", op._attrs)):
                if not d:
                    continue
                for name, attr in d.items():
                    refs: list = []
                    symbol_refs(attr, refs)
                    for ref in refs:
                        sym = index.resolve(op, ref)
                        if sym is not None and sym.name == _FUNC:
                            is_call = op.name == _CALL and name == "callee" and key == "p"
                            uses.setdefault(sym, []).append(op if is_call else None)
        for op in self.root.walk():
            if op.name != _FUNC or not op.regions[0].blocks or visibility(op) == "public":
                continue
            calls = uses.get(op, [])
            if any(c is None for c in calls):
                continue  # referenced other than by calls: its signature must stay
            self.callers[op] = calls
            for c in calls:
                self.callee_of[c] = op
            self.returns[op] = [b.last for b in op.regions[0].blocks
                                if b.last is not None and b.last.name == _RETURN]

    # ------------------------------------------------------------------ liveness
    def mark(self, v):
        if v not in self.live:
            self.live.add(v)
            self.worklist.append(v)

    def activate(self, op):
        """`op` must stay: what it reads, and what leaves its regions, is live."""
        if op in self.activated:
            return
        self.activated.add(op)
        for o in op._operands:
            self.mark(o.value)
        if op.name == _FUNC:
            return  # its returns are handled per function
        for r in op.regions:
            for b in r.blocks:
                t = b.last
                if t is not None and T.Terminator in type(t).traits and not _is_branch(t):
                    for o in t._operands:
                        self.mark(o.value)

    def seed(self):
        for op in self.root.walk(post_order=False):
            if op is self.root:
                continue
            cls = type(op)
            if op.name == _CALL:
                if op not in self.callee_of:
                    self.activate(op)
                continue
            if _is_branch(op):
                self._seed_branch(op)
                continue
            if op.name == _RETURN:
                f = op.parent_op
                if f not in self.callers:
                    for o in op._operands:
                        self.mark(o.value)
                continue
            if T.Terminator in cls.traits:
                if op.successors:  # an unknown branch: its targets keep their arguments
                    for s in op.successors:
                        self.fixed_blocks.add(s)
                    self.activate(op)
                continue  # region exits are handled with their parent op
            if not is_memory_effect_free(op):
                self.activate(op)
        # Forwarded operands to blocks we cannot rewrite stay.
        for b in self.fixed_blocks:
            for br, i in self.block_preds.get(b, ()):
                start, n = br.successor_operand_range(i)
                for o in br._operands[start:start + n]:
                    self.mark(o.value)

    def _seed_branch(self, op):
        forwarded = set()
        for i, dest in enumerate(op.successors):
            self.block_preds.setdefault(dest, []).append((op, i))
            start, n = op.successor_operand_range(i)
            forwarded.update(range(start, start + n))
        for j, o in enumerate(op._operands):
            if j not in forwarded:
                self.mark(o.value)

    def propagate(self):
        while self.worklist:
            v = self.worklist.pop()
            if isinstance(v, OpResult):
                op = v.owner
                callee = self.callee_of.get(op)
                if callee is not None:
                    for ret in self.returns[callee]:
                        if v.index < len(ret._operands):
                            self.mark(ret._operands[v.index].value)
                elif op.name != _CALL:
                    self.activate(op)
            elif isinstance(v, BlockArgument):
                block = v.owner
                region = block.parent
                parent = region.parent if region is not None else None
                if parent is not None and parent in self.callers and \
                        block is region.blocks[0]:
                    for call in self.callers[parent]:
                        if v.index < len(call._operands):
                            self.mark(call._operands[v.index].value)
                    continue
                for br, i in self.block_preds.get(block, ()):
                    start, n = br.successor_operand_range(i)
                    if v.index < n:
                        self.mark(br._operands[start + v.index].value)

    def run(self):
        self.find_functions()
        self.seed()
        self.propagate()


def _filter_array(attr, keep):
    if attr is None:
        return None
    return A.ArrayAttr([a for a, k in zip(attr.value, keep) if k])


def _erase_operands(op, drop: set):
    """Remove the operands at positions `drop`, keeping segment sizes in step."""
    if not drop:
        return
    segs = op._props.get("operandSegmentSizes") if T.AttrSizedOperandSegments in \
        type(op).traits else None
    if segs is not None:
        sizes = list(segs.value)
        pos = 0
        for g, n in enumerate(list(sizes)):
            sizes[g] -= sum(1 for j in range(pos, pos + n) if j in drop)
            pos += n
        op.properties["operandSegmentSizes"] = A.DenseArrayAttr(segs.element_type, sizes)
    case = op._props.get("case_operand_segments")
    if case is not None and hasattr(op, "successor_operand_range"):
        # cf.switch: the case operands are further split per case destination.
        new = []
        for i in range(1, len(op.successors)):
            start, n = op.successor_operand_range(i)
            new.append(n - sum(1 for j in range(start, start + n) if j in drop))
        op.properties["case_operand_segments"] = A.DenseArrayAttr(case.element_type, new)
    op.set_operands([o.value for j, o in enumerate(op._operands) if j not in drop])


class RemoveDeadValues(Pass):
    name = "remove-dead-values"
    summary = "Remove dead values"

    def run(self, op):
        an = _Analysis(op)
        an.run()
        live = an.live

        # 1. Effect-free ops whose results are all dead go first (their uses with them).
        dead = []
        for o in op.walk(post_order=False):
            if o is op or o.name == _CALL or T.Terminator in type(o).traits or \
                    T.Symbol in type(o).traits:
                continue
            if any(r in live for r in o.results):
                continue
            if is_memory_effect_free(o):
                dead.append(o)
        for o in dead:
            for operand in o._operands:
                operand._unlink()
            o._operands = []
        for o in reversed(dead):
            if o.parent is not None:
                o.detach()
                o._drop_references()

        # 2. Operands that forward dead values: call operands and results, returned
        #    values of private functions, branch operands of dead block arguments. The
        #    block arguments themselves go last, once nothing forwards to them.
        args_to_erase = []
        for f, calls in an.callers.items():
            entry = self._clean_function(f, calls, an)
            if entry is not None:
                args_to_erase.append(entry)
        for block, preds in an.block_preds.items():
            if block in an.fixed_blocks or block.parent is None or \
                    block is block.parent.blocks[0]:
                continue
            drop = [a.index for a in block.args if a not in live]
            if not drop:
                continue
            for br, i in preds:
                start, _ = br.successor_operand_range(i)
                _erase_operands(br, {start + j for j in drop})
            args_to_erase.append((block, drop))
        for block, drop in args_to_erase:
            for j in sorted(drop, reverse=True):
                if block.args[j].first_use is not None:
                    raise IRError("a dead block argument is still used")
                block.erase_argument(j)
        for o in dead:
            if any(r.first_use is not None for r in o.results):
                raise IRError(f"a result of the erased '{o.name}' is still used")
        if not dead and not args_to_erase:
            self.mark_all_analyses_preserved()

    def _clean_function(self, f, calls, an):
        """Drop dead arguments and results of `f` from its type, returns and calls;
        returns (entry block, argument indices to erase) or None if nothing changes."""
        live = an.live
        entry = f.regions[0].blocks[0]
        ftype = f.type
        keep_args = [a in live for a in entry.args]
        keep_res = [any(c.results[i] in live for c in calls)
                    for i in range(len(ftype.results))]
        if all(keep_args) and all(keep_res):
            return None
        drop_args = {i for i, k in enumerate(keep_args) if not k}
        drop_res = {i for i, k in enumerate(keep_res) if not k}
        props = f.properties
        props["function_type"] = A.TypeAttr(A.FunctionType(
            [t for t, k in zip(ftype.inputs, keep_args) if k],
            [t for t, k in zip(ftype.results, keep_res) if k]))
        for key, keep in (("arg_attrs", keep_args), ("res_attrs", keep_res)):
            if key in props:
                props[key] = _filter_array(props[key], keep)
        for ret in an.returns[f]:
            if len(ret._operands) == len(keep_res):
                _erase_operands(ret, drop_res)
        for call in calls:
            _erase_operands(call, drop_args)
            if "arg_attrs" in call._props:
                call.properties["arg_attrs"] = _filter_array(call._props["arg_attrs"],
                                                             keep_args)
            if drop_res:
                self._drop_call_results(call, keep_res)
        return entry, sorted(drop_args)

    @staticmethod
    def _drop_call_results(call, keep):
        props = dict(call._props)
        for key, k in (("res_attrs", keep),):
            if key in props:
                props[key] = _filter_array(props[key], k)
        new = type(call).create(
            operands=call.operands,
            result_types=[r.type for r, k in zip(call.results, keep) if k],
            properties=props, attributes=call._attrs, loc=call.loc)
        call.parent.insert_before(call, new)
        it = iter(new.results)
        for r, k in zip(call.results, keep):
            if k:
                r.replace_all_uses_with(next(it))
            elif r.first_use is not None:
                raise IRError("a dead call result is still used")
        call.erase()
