"""Values, operations, blocks and regions, with use-def chains.

[Note: memory layout]
A module of N ops holds N Operation objects, their results and their operands. Every
class here uses `__slots__`; empty collections are shared tuples or None, never fresh
dicts (ops parsed from the same property text share one read-only mapping, copied on
first write through `properties`); ops in a block form an intrusive doubly linked list
(prev/next) so that insertion and erasure are O(1); each use of a value is an `OpOperand` threaded on the value's use
list (first_use / next_use / prev_use), as in MLIR, so replace-all-uses and "has no uses"
never scan the module.

[Note: erased ops are freed by reference counting]
An op points at its results and each result at its op; an op's regions, blocks and
nested ops point at each other too (parent, first/last, prev/next, argument owners).
Left as they are, every erased op is a reference cycle that only the cyclic collector
frees: over a compile that is most of what it finds (Swin-T: 264k objects, 0.39 s of
collection). So destroying an op (`erase`, `Block.erase`, a conversion's commit) takes
it apart as MLIR destroys it: operand uses unlinked, results ownerless, regions emptied,
nested ops unlinked from their blocks and each other. A destroyed op keeps its name,
properties and location (messages may still name it); its results, like MLIR's, must
not be used: their `owner` is None.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Iterator

from .attributes import Attribute, Type
from .location import Location, UnknownLoc

__all__ = ["Value", "OpResult", "BlockArgument", "OpOperand", "Operation", "Block",
           "Region", "UnregisteredOp", "IRError", "link_operands"]

_EMPTY = ()
# Shared read-only stand-in for an op's empty property / attribute dictionary: most ops
# have neither, and two empty dicts per op would cost more than the op itself.
EMPTY_DICT = MappingProxyType({})


class IRError(Exception):
    """Misuse of the IR API (erasing an op that still has uses, ...)."""


class Value:
    __slots__ = ("type", "first_use")

    @property
    def uses(self) -> Iterator["OpOperand"]:
        u = self.first_use
        while u is not None:
            nxt = u.next_use
            yield u
            u = nxt

    @property
    def users(self) -> Iterator["Operation"]:
        for u in self.uses:
            yield u.owner

    def has_uses(self) -> bool:
        return self.first_use is not None

    def has_one_use(self) -> bool:
        u = self.first_use
        return u is not None and u.next_use is None

    def num_uses(self) -> int:
        n = 0
        u = self.first_use
        while u is not None:
            n += 1
            u = u.next_use
        return n

    def replace_all_uses_with(self, new: "Value") -> None:
        if new is self:
            return
        u = self.first_use
        while u is not None:
            nxt = u.next_use
            u.set(new)
            u = nxt

    def replace_uses_where(self, new: "Value", pred) -> None:
        for u in list(self.uses):
            if pred(u):
                u.set(new)

    @property
    def defining_op(self) -> "Operation | None":
        return None

    @property
    def parent_block(self) -> "Block | None":
        raise NotImplementedError


class OpResult(Value):
    __slots__ = ("owner",)

    def __init__(self, type: Type, owner: "Operation", index: int = 0):
        self.type = type
        self.first_use = None
        self.owner = owner

    @property
    def index(self) -> int:
        """Position among the owner's results (computed: not stored, to save memory)."""
        if self.owner is None:
            raise IRError("result of an erased op")
        res = self.owner.results
        if res[0] is self:
            return 0
        for i, r in enumerate(res):
            if r is self:
                return i
        raise IRError("result is not attached to its owner")

    @property
    def defining_op(self):
        return self.owner

    @property
    def parent_block(self):
        return self.owner.parent

    def __repr__(self):
        if self.owner is None:
            return f"<OpResult of an erased op: {self.type}>"
        return f"<OpResult #{self.index} of {self.owner.name}: {self.type}>"


class BlockArgument(Value):
    __slots__ = ("owner", "index", "loc")

    def __init__(self, type: Type, owner: "Block", index: int, loc: Location | None = None):
        self.type = type
        self.first_use = None
        self.owner = owner
        self.index = index
        self.loc = loc

    @property
    def parent_block(self):
        return self.owner

    def __repr__(self):
        return f"<BlockArgument #{self.index}: {self.type}>"


class OpOperand:
    """One use of a value by an operation, linked into the value's use list."""

    __slots__ = ("value", "owner", "next_use", "prev_use")

    def __init__(self, value: Value, owner: "Operation", index: int = 0):
        self.value = value
        self.owner = owner
        self.prev_use = None
        nxt = self.next_use = value.first_use
        if nxt is not None:
            nxt.prev_use = self
        value.first_use = self

    @property
    def index(self) -> int:
        """Position among the owner's operands (computed: not stored, to save memory)."""
        for i, o in enumerate(self.owner._operands):
            if o is self:
                return i
        raise IRError("operand is not attached to its owner")

    def _unlink(self):
        p, n = self.prev_use, self.next_use
        if p is None:
            self.value.first_use = n
        else:
            p.next_use = n
        if n is not None:
            n.prev_use = p

    def set(self, value: Value):
        self._unlink()
        self.value = value
        self.prev_use = None
        nxt = self.next_use = value.first_use
        if nxt is not None:
            nxt.prev_use = self
        value.first_use = self


def link_operands(op: "Operation", values) -> list:
    """The OpOperands of `op` for `values`, each linked at the head of its value's use
    list (as OpOperand() does, without a call per operand), in an exactly sized list."""
    if type(values) is not list and type(values) is not tuple:
        values = list(values)
    operands = [None] * len(values)
    new = object.__new__
    for i, v in enumerate(values):
        u = operands[i] = new(OpOperand)
        u.value = v
        u.owner = op
        u.prev_use = None
        nxt = u.next_use = v.first_use
        if nxt is not None:
            nxt.prev_use = u
        v.first_use = u
    return operands


class Operation:
    """An operation. Registered ops are subclasses with a class attribute `name`;
    ops of unregistered dialects are `UnregisteredOp` instances that carry their name.

    Inherent attributes live in `properties` (printed as `<{...}>`), discardable ones in
    `attributes`; both map names to uniqued Attribute objects.
    """

    __slots__ = ("_operands", "results", "_props", "_attrs", "successors",
                 "regions", "parent", "prev", "next", "loc")

    name: str = "<unnamed>"
    traits: tuple = ()
    # Ops whose memory effects depend on their operands (upstream's per-op
    # MemoryEffectsOpInterface: linalg ops on buffers read and write them, on tensors they
    # have none) define `operand_memory_effects(self) -> bool`: True when this op has
    # effects beyond what its traits say. The side-effect queries ask it first.
    operand_memory_effects = None

    # ------------------------------------------------------------ construction

    @classmethod
    def create(cls, operands=(), result_types=(), properties=None, attributes=None,
               successors=(), regions=0, loc=None, name=None):
        """Create a detached op. `regions` is a count of fresh empty regions or a list."""
        if cls is UnregisteredOp or (name is not None and name != cls.name):
            op = object.__new__(UnregisteredOp)
            op.name = name
        else:
            op = object.__new__(cls)
        op._operands = link_operands(op, operands) if operands else []
        if not result_types:
            op.results = _EMPTY
        elif type(result_types) in (list, tuple) and len(result_types) == 1:
            op.results = (OpResult(result_types[0], op, 0),)   # (most ops: one result)
        else:
            op.results = tuple(OpResult(t, op, i) for i, t in enumerate(result_types))
        op._props = dict(properties) if properties else EMPTY_DICT
        op._attrs = dict(attributes) if attributes else EMPTY_DICT
        op.successors = list(successors) if successors else _EMPTY
        if regions == 0:
            op.regions = _EMPTY
        else:
            if isinstance(regions, int):
                regs = tuple(Region() for _ in range(regions))
            else:
                regs = tuple(regions)
            for r in regs:
                if r.parent is not None:
                    raise IRError("region already belongs to an operation")
                r.parent = op
            op.regions = regs
        op.parent = op.prev = op.next = None
        op.loc = loc if loc is not None else UnknownLoc()
        return op

    # ------------------------------------------------------------ property storage

    @property
    def properties(self) -> dict:
        """Inherent attributes (a real dict, created on first access: ops may share one
        read-only mapping until then, see [Note: memory layout])."""
        p = self._props
        if type(p) is not dict:
            p = self._props = dict(p)
        return p

    @properties.setter
    def properties(self, value: dict):
        self._props = dict(value) if value else EMPTY_DICT

    @property
    def attributes(self) -> dict:
        """Discardable attributes (a real dict, created on first access)."""
        a = self._attrs
        if type(a) is not dict:
            a = self._attrs = dict(a)
        return a

    @attributes.setter
    def attributes(self, value: dict):
        self._attrs = dict(value) if value else EMPTY_DICT

    # ------------------------------------------------------------ operands/results

    @property
    def operands(self) -> list[Value]:
        return [o.value for o in self._operands]

    @property
    def op_operands(self) -> list[OpOperand]:
        return self._operands

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def operand(self, i: int) -> Value:
        return self._operands[i].value

    def set_operand(self, i: int, value: Value) -> None:
        self._operands[i].set(value)

    def set_operands(self, values) -> None:
        for o in self._operands:
            o._unlink()
        self._operands = link_operands(self, values)

    def drop_all_uses_of_operands(self) -> None:
        for o in self._operands:
            o._unlink()
        self._operands = []

    @property
    def result(self) -> OpResult:
        if len(self.results) != 1:
            raise IRError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    @property
    def operand_types(self) -> list[Type]:
        return [o.value.type for o in self._operands]

    def has_trait(self, trait) -> bool:
        return trait in type(self).traits

    @property
    def dialect_name(self) -> str:
        return self.name.split(".", 1)[0]

    # ------------------------------------------------------------ attributes

    def get_attr(self, name: str, default=None) -> Attribute | None:
        """An inherent (property) or discardable attribute by name."""
        v = self._props.get(name)
        if v is None:
            v = self._attrs.get(name, default)
        return v

    def set_attr(self, name: str, value: Attribute) -> None:
        if name in getattr(type(self), "_prop_names", ()) or name in self._props:
            self.properties[name] = value
        else:
            self.attributes[name] = value

    # ------------------------------------------------------------ structure

    @property
    def parent_region(self) -> "Region | None":
        b = self.parent
        return b.parent if b is not None else None

    @property
    def parent_op(self) -> "Operation | None":
        b = self.parent
        if b is None or b.parent is None:
            return None
        return b.parent.parent

    def ancestors(self) -> Iterator["Operation"]:
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def is_ancestor(self, other: "Operation") -> bool:
        """True if `self` is `other` or contains it."""
        while other is not None:
            if other is self:
                return True
            other = other.parent_op
        return False

    def is_before_in_block(self, other: "Operation") -> bool:
        op = self.next
        while op is not None:
            if op is other:
                return True
            op = op.next
        return False

    def walk(self, post_order: bool = True) -> Iterator["Operation"]:
        """All nested ops and this one; post-order by default, as MLIR's walk. The op
        after the one visited is taken before visiting it, so the visited op (and, in
        post-order, what it holds) may be erased or moved."""
        if not self.regions:
            yield self
            return
        if not post_order:
            yield self
        # Frames: [op whose regions are walked, their blocks, next block index, next
        # op of the current block]: iterative, so deep nesting costs no recursion.
        stack = [[self, [b for r in self.regions for b in r.blocks], 0, None]]
        while stack:
            f = stack[-1]
            op = f[3]
            if op is None:
                blocks = f[1]
                i = f[2]
                if i == len(blocks):
                    stack.pop()
                    if post_order:
                        yield f[0]
                    continue
                f[2] = i + 1
                op = blocks[i].first
                if op is None:
                    continue
            f[3] = op.next
            if op.regions:
                if not post_order:
                    yield op
                stack.append([op, [b for r in op.regions for b in r.blocks], 0, None])
            else:
                yield op

    def detach(self) -> "Operation":
        b = self.parent
        if b is not None:
            b._unlink(self)
        return self

    def erase(self) -> None:
        """Remove and destroy this op; its results must have no uses left."""
        for r in self.results:
            if r.first_use is not None:
                raise IRError(f"cannot erase '{self.name}': result #{r.index} still has uses")
        self.detach()
        self._drop_references()

    def _drop_references(self):
        """Unlink this dead op's operand uses and take it and everything in it apart
        ([Note: erased ops are freed by reference counting])."""
        for o in self._operands:
            o._unlink()
        self._forget()

    def _forget(self):
        """Break the links that make a dead op a reference cycle: its results' owner,
        its regions' blocks and ops (their operand uses unlinked); its own operand uses
        must be unlinked already."""
        self._operands = []
        for r in self.results:
            r.owner = None
        for reg in self.regions:
            for b in reg.blocks:
                b._forget_contents()
            reg.blocks = []
            reg.parent = None

    def move_before(self, other: "Operation") -> None:
        self.detach()
        other.parent.insert_before(other, self)

    def move_after(self, other: "Operation") -> None:
        self.detach()
        other.parent.insert_after(other, self)

    def replace_all_uses_with(self, values) -> None:
        values = list(values)
        if len(values) != len(self.results):
            raise IRError("replacement value count does not match result count")
        for r, v in zip(self.results, values):
            r.replace_all_uses_with(v)

    def clone(self, mapping: dict | None = None) -> "Operation":
        """Deep copy; operands defined outside are remapped through `mapping` when present."""
        if mapping is None:
            mapping = {}
        get = mapping.get
        cls = type(self)
        op = object.__new__(cls)
        if cls is UnregisteredOp:
            op.name = self.name
        op._operands = [OpOperand(get(o.value, o.value), op, i)
                        for i, o in enumerate(self._operands)]
        op.results = tuple(OpResult(r.type, op, r.index) for r in self.results) \
            if self.results else _EMPTY
        for old, new in zip(self.results, op.results):
            mapping[old] = new
        op._props = dict(self._props) if self._props else EMPTY_DICT
        op._attrs = dict(self._attrs) if self._attrs else EMPTY_DICT
        op.successors = [get(s, s) for s in self.successors] if self.successors else _EMPTY
        op.parent = op.prev = op.next = None
        op.loc = self.loc
        regs = []
        for r in self.regions:
            nr = Region()
            nr.parent = op
            r.clone_into(nr, mapping)
            regs.append(nr)
        op.regions = tuple(regs)
        return op

    def verify(self) -> None:
        """Verify this op and everything nested; raise VerifyError on the first error."""
        from .verifier import verify
        verify(self)

    def emit_error(self, message: str):
        from .diagnostics import Diagnostic, ERROR
        d = Diagnostic(ERROR, self.loc, f"'{self.name}' op {message}")
        d.op = self
        return d

    def is_equivalent(self, other: "Operation", ignore_locations: bool = True) -> bool:
        from .equivalence import ops_equivalent
        return ops_equivalent(self, other, ignore_locations)

    def __str__(self) -> str:
        from ..syntax.printer import print_op  # lazy: printing lives in the layer above
        return print_op(self)

    def __repr__(self) -> str:
        return f"<{self.name} op>"


class UnregisteredOp(Operation):
    """An op whose dialect (or name) is not registered: kept generically."""

    __slots__ = ("name",)


class Block:
    __slots__ = ("args", "first", "last", "parent", "__weakref__")

    def __init__(self, arg_types=(), arg_locs=None):
        self.args = [BlockArgument(t, self, i, arg_locs[i] if arg_locs else None)
                     for i, t in enumerate(arg_types)]
        self.first = self.last = None
        self.parent = None

    # -- ops
    @property
    def ops(self) -> Iterator[Operation]:
        op = self.first
        while op is not None:
            nxt = op.next
            yield op
            op = nxt

    def __iter__(self):
        return self.ops

    def __len__(self):
        n = 0
        op = self.first
        while op is not None:
            n += 1
            op = op.next
        return n

    @property
    def is_empty(self):
        return self.first is None

    @property
    def terminator(self) -> Operation | None:
        return self.last

    def append(self, op: Operation) -> Operation:
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        op.parent = self
        last = self.last
        op.prev = last
        op.next = None
        if last is None:
            self.first = op
        else:
            last.next = op
        self.last = op
        return op

    def prepend(self, op: Operation) -> Operation:
        if self.first is None:
            return self.append(op)
        return self.insert_before(self.first, op)

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        op.parent = self
        p = anchor.prev
        op.prev = p
        op.next = anchor
        anchor.prev = op
        if p is None:
            self.first = op
        else:
            p.next = op
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        if anchor.next is None:
            if op.parent is not None:
                raise IRError(f"'{op.name}' is already in a block")
            op.parent = self
            op.prev = anchor
            op.next = None
            anchor.next = op
            self.last = op
            return op
        return self.insert_before(anchor.next, op)

    def _unlink(self, op: Operation):
        p, n = op.prev, op.next
        if p is None:
            self.first = n
        else:
            p.next = n
        if n is None:
            self.last = p
        else:
            n.prev = p
        op.parent = op.prev = op.next = None

    # -- arguments
    def add_argument(self, type: Type, loc: Location | None = None) -> BlockArgument:
        a = BlockArgument(type, self, len(self.args), loc)
        self.args.append(a)
        return a

    def insert_argument(self, index: int, type: Type, loc=None) -> BlockArgument:
        a = BlockArgument(type, self, index, loc)
        self.args.insert(index, a)
        for i, x in enumerate(self.args):
            x.index = i
        return a

    def erase_argument(self, index: int) -> None:
        a = self.args[index]
        if a.first_use is not None:
            raise IRError("cannot erase a block argument that still has uses")
        del self.args[index]
        for i, x in enumerate(self.args):
            x.index = i

    @property
    def arg_types(self):
        return [a.type for a in self.args]

    # -- structure
    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    @property
    def successors(self) -> list["Block"]:
        t = self.last
        return list(t.successors) if t is not None else []

    @property
    def predecessors(self) -> list["Block"]:
        if self.parent is None:
            return []
        return [b for b in self.parent.blocks if any(s is self for s in b.successors)]

    def erase(self) -> None:
        if self.parent is not None:
            self.parent.blocks.remove(self)
        self._forget_contents()

    def _forget_contents(self):
        """Take this dead block apart: its ops dropped (see Operation._drop_references),
        unlinked from it and from each other, its arguments ownerless."""
        op = self.first
        while op is not None:
            nxt = op.next
            op._drop_references()
            op.parent = op.prev = op.next = None
            op = nxt
        self.first = self.last = None
        for a in self.args:
            a.owner = None
        self.parent = None

    def __repr__(self):
        return f"<Block with {len(self.args)} args>"


class Region:
    __slots__ = ("blocks", "parent")

    def __init__(self, blocks=()):
        self.blocks: list[Block] = []
        self.parent = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, block: Block | None = None) -> Block:
        if block is None:
            block = Block()
        if block.parent is not None:
            raise IRError("block already belongs to a region")
        block.parent = self
        self.blocks.append(block)
        return block

    def insert_block(self, index: int, block: Block) -> Block:
        block.parent = self
        self.blocks.insert(index, block)
        return block

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None

    @property
    def block(self) -> Block:
        """The only block of a single-block region (created if missing)."""
        if not self.blocks:
            return self.add_block()
        return self.blocks[0]

    @property
    def is_empty(self):
        return not self.blocks

    @property
    def parent_op(self):
        return self.parent

    @property
    def ops(self) -> Iterator[Operation]:
        for b in self.blocks:
            yield from b.ops

    def walk(self, post_order=True) -> Iterator[Operation]:
        for b in self.blocks:
            for op in list(b.ops):
                yield from op.walk(post_order)

    def clone_into(self, dest: "Region", mapping: dict) -> None:
        new_blocks = []
        for b in self.blocks:
            nb = Block([a.type for a in b.args], [a.loc for a in b.args])
            for a, na in zip(b.args, nb.args):
                mapping[a] = na
            mapping[b] = nb
            new_blocks.append(nb)
        for b, nb in zip(self.blocks, new_blocks):
            for op in b.ops:
                nb.append(op.clone(mapping))
            dest.add_block(nb)
        # Successors and forward references were cloned before their targets existed.
        for nb in new_blocks:
            for op in nb.ops:
                remap_operands(op, mapping)

    def take_body(self, other: "Region") -> None:
        """Move all blocks of `other` into this (empty) region."""
        for b in other.blocks:
            b.parent = self
            self.blocks.append(b)
        other.blocks = []


def remap_operands(op: Operation, mapping: dict) -> None:
    """Point `op`'s operands and successors, and those of the ops nested in it, at their
    replacements in `mapping` (values and blocks not in it stay)."""
    for o in op._operands:
        nv = mapping.get(o.value)
        if nv is not None and nv is not o.value:
            o.set(nv)
    if op.successors:
        op.successors = [mapping.get(s, s) for s in op.successors]
    for r in op.regions:
        for b in r.blocks:
            for inner in b.ops:
                remap_operands(inner, mapping)
