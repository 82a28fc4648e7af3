"""`buffer-deallocation-simple`: free every buffer a function allocates and does not
return, once, after its last use.

[Note: the deallocation scheme]
One-shot-bufferize leaves memref IR in which every buffer has an owner block (see
[Note: buffer ownership] in bufferize.py). `Ownership` reads that back from the IR:

  * roots: every memref value maps to the buffers it may be a view of (subview, cast,
    reshapes... and arith.select of either); a memref.alloc, a func.call result and an
    OWNED region result or loop argument is a root *owned* by its block; arguments,
    globals and alloca are roots nobody here frees;
  * modes: a loop value is ALIAS when the body passes its own iteration argument back
    (the loop works in place on its init buffer: its argument and result are views of
    the init), else OWNED (the loop takes the init buffer, each iteration owns its
    argument, the result is a new owned buffer); an scf.if result is OWNED when the
    branches yield buffers they own, ALIAS when they yield outside buffers.
  * consumers: an owned root given away by func.return, by a terminator at an OWNED
    position, as an OWNED loop init, or by an existing memref.dealloc.

In each block, every owned root that is not given away gets a memref.dealloc after the
last op of the block that uses it or any of its views (uses nested in regions count for
the op holding them). Before that, copies into a fresh buffer from an owned buffer that
is dead after the copy are forwarded (the buffer is reused, the alloc and copy erased):
this removes the copies bufferization makes to give buffers away.

`check_deallocation(op)` checks the result statically (every owned root freed or given
away exactly once, nothing used after), `peak_buffer_bytes` (usage.py) measures it.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.core import BlockArgument, OpResult
from .analysis import BufferizationError

__all__ = ["Ownership", "deallocate", "check_deallocation", "forward_copies",
           "VIEW_OPS", "is_memref"]

ALIAS, OWNED = "alias", "owned"

VIEW_OPS = frozenset({
    "memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
    "memref.reshape", "memref.reinterpret_cast", "memref.transpose", "memref.view",
    "memref.assume_alignment", "memref.memory_space_cast",
    "builtin.unrealized_conversion_cast"})
_BRANCHES = ("scf.if", "scf.index_switch", "scf.execute_region")


def is_memref(t) -> bool:
    return type(t) is A.MemRefType or type(t) is A.UnrankedMemRefType


def _error(op, message):
    raise BufferizationError.at(op, message)


class Ownership:
    """Roots, owners, modes and consumers of the buffers of a function (see the
    note)."""

    def __init__(self, func):
        self.func = func
        self.roots: dict = {}
        self.owner: dict = {}      # owned root -> its block
        self.modes: dict = {}      # region op -> modes (per result / carried value)
        self.owned: dict = {}      # block -> owned roots in definition order
        if func.regions and func.regions[0].blocks:
            entry = func.regions[0].blocks[0]
            for a in entry.args:
                if is_memref(a.type):
                    self.roots[a] = (a,)
            self._block(entry)

    # ---------------------------------------------------------------- roots

    def roots_of(self, v):
        r = self.roots.get(v)
        if r is None:
            r = self.roots[v] = (v,)
        return r

    def _own(self, v, block):
        self.roots[v] = (v,)
        self.owner[v] = block
        self.owned.setdefault(block, []).append(v)

    def _block(self, block):
        for op in block.ops:
            name = op.name
            if name == "scf.for":
                self._for(op, block)
            elif name == "scf.while":
                self._while(op, block)
            elif name in _BRANCHES:
                self._branches(op, block)
            else:
                for r in op.regions:
                    for b in r.blocks:
                        self._block(b)
                self._results(op, block)

    def _results(self, op, block):
        name = op.name
        for r in op.results:
            if not is_memref(r.type):
                continue
            if name in ("memref.alloc", "memref.realloc", "func.call"):
                self._own(r, block)
            elif name in VIEW_OPS and op._operands and is_memref(op._operands[0].value.type):
                self.roots[r] = self.roots_of(op._operands[0].value)
            elif name == "arith.select":
                self.roots[r] = self.roots_of(op.operand(1)) + self.roots_of(op.operand(2))
            else:  # alloca, get_global, unknown ops: nobody here frees them
                extra = tuple(x for u in op._operands if is_memref(u.value.type)
                              for x in self.roots_of(u.value))
                self.roots[r] = (r,) + extra

    def _carry(self, arg, mode, init_roots, block):
        if mode == OWNED:
            self._own(arg, block)
        else:
            self.roots[arg] = init_roots

    def _for(self, op, block):
        body = op.regions[0].blocks[0]
        y = body.last
        modes = []
        for i, r in enumerate(op.results):
            init = op.operand(3 + i)
            if not is_memref(init.type):
                modes.append(None)
                continue
            arg = body.args[1 + i]
            mode = ALIAS if y.operand(i) is arg else OWNED
            modes.append(mode)
            self._carry(arg, mode, self.roots_of(init), body)
        self.modes[op] = modes
        self._block(body)
        for r, mode in zip(op.results, modes):
            if mode is not None:
                self._carry(r, mode, self.roots_of(op.operand(3 + r.index)), block)

    def _while(self, op, block):
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        cond, y = before.last, after.last
        bm = []
        for i, a in enumerate(before.args):
            if not is_memref(a.type):
                bm.append(None)
                continue
            alias = (i < len(after.args) and i + 1 < len(cond._operands)
                     and cond.operand(1 + i) is a and i < len(y._operands)
                     and y.operand(i) is after.args[i])
            bm.append(ALIAS if alias else OWNED)
            self._carry(a, bm[-1], self.roots_of(op.operand(i)), before)
        am = []
        for j, a in enumerate(after.args):
            if not is_memref(a.type):
                am.append(None)
                continue
            am.append(ALIAS if j < len(bm) and bm[j] == ALIAS else OWNED)
            self._carry(a, am[-1], self.roots.get(before.args[j]) if am[-1] == ALIAS
                        else None, after)
        self.modes[op] = (bm, am)
        self._block(before)
        self._block(after)
        for r, mode in zip(op.results, am):
            if mode is not None:
                self._carry(r, mode, self.roots.get(before.args[r.index])
                            if mode == ALIAS else None, block)

    def _parent_owned(self, v, block):
        """The root `block` owns that yielded value `v` is (or is a view of)."""
        r = self.roots_of(v)
        if len(r) == 1 and self.owner.get(r[0]) is block:
            return r[0]
        return None

    def _branches(self, op, block):
        regions = [r for r in op.regions if r.blocks]
        for r in regions:
            for b in r.blocks:
                self._block(b)
        modes = []
        for i, r in enumerate(op.results):
            if not is_memref(r.type):
                modes.append(None)
                continue
            vals = [(reg.blocks[0], reg.blocks[0].last.operand(i)) for reg in regions]
            # a branch yields a buffer it owns, or one its parent block owns and gives
            # to the op (the other branches free it: see forward_copies)
            owned = [self.owner.get(v) is b or self._parent_owned(v, block)
                     for b, v in vals]
            if all(owned):
                modes.append(OWNED)
                self._own(r, block)
                continue
            if any(owned):
                _error(op, f"result #{i} is a buffer some regions own and others do not")
            roots = tuple(x for _, v in vals for x in self.roots_of(v))
            for x in roots:
                if self.owner.get(x) is not None and op.is_ancestor(_def_op(x)):
                    _error(op, f"result #{i} is a view of a buffer allocated inside "
                               "the op")
            modes.append(ALIAS)
            self.roots[r] = roots
        self.modes[op] = modes

    # ---------------------------------------------------------------- consumers

    def consumed_operands(self, op):
        """The operands whose buffer `op` takes over."""
        name = op.name
        if name in ("func.return", "memref.dealloc", "bufferization.to_tensor"):
            # (a buffer made a tensor again lives on as that tensor: not freed here)
            return [u.value for u in op._operands if is_memref(u.value.type)]
        if name == "scf.yield":
            p = op.parent_op
            m = self.modes.get(p)
            if m is None:
                return []
            if p.name == "scf.while":
                m = m[0]
            out = [u.value for u, mode in zip(op._operands, m) if mode == OWNED]
            if p.name in _BRANCHES:  # those of the parent block are the op's to give
                out = [v for v in out if self._parent_owned(v, p.parent) is None]
            return out
        if name in _BRANCHES:
            m = self.modes.get(op, ())
            out = []
            for r in op.regions:
                if r.blocks:
                    for u, mode in zip(r.blocks[0].last._operands, m):
                        x = self._parent_owned(u.value, op.parent) \
                            if mode == OWNED else None
                        if x is not None and x not in out:
                            out.append(x)
            return out
        if name == "scf.condition":
            m = self.modes.get(op.parent_op)
            if m is None:
                return []
            return [u.value for u, mode in zip(op._operands[1:], m[1]) if mode == OWNED]
        if name == "scf.for":
            m = self.modes.get(op, ())
            return [op.operand(3 + i) for i, mode in enumerate(m) if mode == OWNED]
        if name == "scf.while":
            m = self.modes.get(op, ((), ()))[0]
            return [op.operand(i) for i, mode in enumerate(m) if mode == OWNED]
        return []

    def block_uses(self, block):
        """(position of each op, last user op per root, consumer op per owned root) of
        the ops of `block` (nested uses count for the op holding them)."""
        pos, last, first, consumed = {}, {}, {}, {}
        for i, op in enumerate(block.ops):
            pos[op] = i
            for o in op.walk():
                for u in o._operands:
                    v = u.value
                    if is_memref(v.type):
                        for x in self.roots_of(v):
                            last[x] = op
                            first.setdefault(x, op)
            for v in self.consumed_operands(op):
                if self.owner.get(v) is not block:
                    if op.name in ("memref.dealloc", "bufferization.to_tensor"):
                        continue
                    _error(op, "gives away a buffer its block does not own")
                if v in consumed:
                    _error(op, "gives away a buffer that was already given away")
                consumed[v] = op
        return pos, last, first, consumed


def _def_op(v):
    return v.owner.parent_op if type(v) is BlockArgument else v.owner


def _blocks(op):
    """Every block under `op`, inner blocks after the op holding them."""
    for o in op.walk(post_order=False):
        for r in o.regions:
            yield from r.blocks


def _functions(op):
    if op.name == "func.func":
        return [op]
    return [o for o in op.walk() if o.name == "func.func" and o.regions[0].blocks]


def forward_copies(func) -> int:
    """Reuse an owned buffer dead after it is copied into a fresh buffer (see the
    note); returns the number of copies removed."""
    removed = 0
    while True:
        own = Ownership(func)
        done = set()
        n = 0
        for block in _blocks(func):
            if not own.owned.get(block):
                continue
            pos, last, first, consumed = own.block_uses(block)
            for op in list(block.ops):
                if op.name != "memref.copy":
                    continue
                src, dst = op.operand(0), op.operand(1)
                d = dst.defining_op
                # (a loop's own argument is not reused: a body passing it back would
                # turn the loop from carrying new buffers to working in place)
                if (d is None or d.name != "memref.alloc" or d.parent is not block
                        or type(src) is BlockArgument
                        or own.owner.get(dst) is not block
                        or own.owner.get(src) is not block or src.type is not dst.type
                        or src in consumed or last.get(src) is not op
                        or first.get(dst) is not op or src in done or dst in done):
                    continue
                done.update((src, dst))
                op.erase()
                dst.replace_all_uses_with(src)
                _erase_alloc(d)
                n += 1
        n += _forward_into_branches(func, own, done)
        if not n:
            return removed
        removed += n


def _defined_in(v, op) -> bool:
    return op.is_ancestor(_def_op(v))


def _erase_alloc(alloc):
    """Erase a memref.alloc and the memref.dim ops (and their index constants) that
    only computed its sizes."""
    sizes = alloc.operands
    alloc.erase()
    for v in sizes:
        d = v.defining_op
        if d is None or d.name != "memref.dim" or v.first_use is not None:
            continue
        idx = d.operand(1)
        d.erase()
        c = idx.defining_op
        if c is not None and c.name == "arith.constant" and idx.first_use is None:
            c.erase()


def _forward_into_branches(func, own, done) -> int:
    """An scf.if result some branches make by copying a buffer of the parent block (R,
    or a view V of R of the result's type) that is dead after the if: those branches
    yield R (V) itself, the others free R. Freeing the result then frees R: a view
    keeps its buffer's allocated pointer, which is what memref.dealloc frees."""
    from ...dialects.memref import DeallocOp
    n = 0
    for block in _blocks(func):
        ifs = [op for op in block.ops if op.name in _BRANCHES and
               OWNED in own.modes.get(op, ())]
        if not ifs:
            continue
        _, last, _, consumed = own.block_uses(block)
        for x in ifs:
            branches = [r.blocks[0] for r in x.regions if r.blocks]
            uses = {k: own.block_uses(k) for k in branches}
            for i, mode in enumerate(own.modes[x]):
                if mode != OWNED:
                    continue
                cands, src = {}, None
                for k in branches:
                    v = k.last.operand(i)
                    d = v.defining_op
                    if d is None or d.name != "memref.alloc" or d.parent is not k:
                        continue
                    c = uses[k][2].get(v)  # the first user of the new buffer
                    if c is None or c.name != "memref.copy" or c.operand(1) is not v:
                        continue
                    if src is not None and c.operand(0) is not src:
                        cands = {}
                        break
                    src = c.operand(0)
                    cands[k] = (c, d, v)
                roots = own.roots_of(src) if cands else ()
                root = roots[0] if len(roots) == 1 else None
                if (root is None or root in done or own.owner.get(root) is not block
                        or _defined_in(src, x) or root in consumed
                        or last.get(root) is not x
                        or any(src.type is not v.type for _, _, v in cands.values())
                        or any(uses[k][1].get(root) is not c
                               for k, (c, _, _) in cands.items())):
                    continue
                done.add(root)
                for k, (c, d, v) in cands.items():
                    c.erase()
                    v.replace_all_uses_with(src)
                    _erase_alloc(d)
                for k in branches:
                    if k in cands:
                        continue
                    lu = uses[k][1].get(root)
                    f = DeallocOp.create([root], [], None, None, (), 0, x.loc)
                    if lu is None:
                        k.prepend(f)
                    else:
                        k.insert_after(lu, f)
                n += 1
    return n


def deallocate(func, forward=True) -> int:
    """Insert the memref.dealloc ops of `func` (see the note); returns how many."""
    from ...dialects.memref import DeallocOp
    if forward:
        forward_copies(func)
    own = Ownership(func)
    n = 0
    for block in _blocks(func):
        roots = own.owned.get(block)
        if not roots:
            continue
        pos, last, _, consumed = own.block_uses(block)
        after: dict = {}
        for r in roots:
            c = consumed.get(r)
            lu = last.get(r)
            if c is not None:
                if lu is not None and lu is not c and pos[lu] > pos[c]:
                    _error(lu, "uses a buffer after it was given away")
                continue
            if lu is None:
                lu = r.owner if type(r) is OpResult else None
            if lu is not None and lu is block.last and lu.next is None and \
                    _is_terminator(lu):
                _error(lu, "passes a buffer its block owns to its parent without giving "
                           "it away (it would never be freed)")
            after.setdefault(lu, []).append(r)
        for lu, rs in after.items():
            anchor = lu
            for r in rs:
                d = DeallocOp.create([r], [], None, None, (), 0,
                                     (anchor or r.owner.parent_op).loc
                                     if anchor is not None else func.loc)
                if anchor is None:
                    block.prepend(d)
                else:
                    block.insert_after(anchor, d)
                anchor = d
                n += 1
    return n


def _is_terminator(op) -> bool:
    from ...ir import traits as T
    return T.Terminator in type(op).traits


def check_deallocation(op) -> list:
    """Problems with the deallocation of the functions under `op`: an owned buffer
    never freed nor given away, freed or given away twice, or used after; an empty list
    when there is none."""
    problems = []
    for f in _functions(op):
        try:
            own = Ownership(f)
        except BufferizationError as e:
            problems.append(str(e))
            continue
        for block in _blocks(f):
            roots = own.owned.get(block)
            if not roots:
                continue
            try:
                pos, last, _, consumed = own.block_uses(block)
            except BufferizationError as e:
                problems.append(str(e))
                continue
            for r in roots:
                c = consumed.get(r)
                where = _describe(r)
                if c is None:
                    problems.append(f"{where} is never freed")
                    continue
                lu = last.get(r)
                if lu is not None and lu is not c and pos[lu] > pos[c]:
                    problems.append(f"{where} is used after '{c.name}'")
    return problems


def _describe(v) -> str:
    from ...ir.symbol_table import symbol_name
    op = _def_op(v)
    f = op
    while f is not None and f.name != "func.func":
        f = f.parent_op
    fn = f"@{symbol_name(f)}" if f is not None else "?"
    what = f"result of '{v.owner.name}'" if type(v) is OpResult else \
        f"block argument #{v.index} of '{op.name}'"
    return f"in {fn}: the buffer ({what} at {op.loc})"
