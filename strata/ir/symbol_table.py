"""Symbol tables: ops with the SymbolTable trait map `sym_name`s to their symbol ops."""
from __future__ import annotations

import threading

from .attributes import StringAttr, SymbolRefAttr
from .core import Operation
from . import traits as T

__all__ = ["SymbolTable", "symbol_name", "lookup_symbol_in", "lookup_nearest_symbol_from",
           "symbol_uses", "frozen_symbol_lookups"]


def symbol_name(op: Operation) -> str | None:
    a = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return a.value if isinstance(a, StringAttr) else None


class SymbolTable:
    """The symbols directly inside `op`'s single region."""

    __slots__ = ("op", "symbols")

    def __init__(self, op: Operation):
        self.op = op
        self.symbols: dict[str, Operation] = {}
        for child in op.regions[0].ops if op.regions and op.regions[0].blocks else ():
            name = symbol_name(child)
            if name is not None:
                self.symbols.setdefault(name, child)

    def lookup(self, name: str) -> Operation | None:
        return self.symbols.get(name)

    def insert(self, sym_op: Operation) -> str:
        """Append `sym_op` to the table's block, renaming it `name_N` if taken."""
        name = symbol_name(sym_op)
        if name in self.symbols:
            i = 0
            while f"{name}_{i}" in self.symbols:
                i += 1
            name = f"{name}_{i}"
            sym_op.properties["sym_name"] = StringAttr(name)
        self.op.regions[0].block.append(sym_op)
        self.symbols[name] = sym_op
        return name

    def erase(self, sym_op: Operation) -> None:
        name = symbol_name(sym_op)
        if self.symbols.get(name) is sym_op:
            del self.symbols[name]
        sym_op.erase()

    def rename(self, sym_op: Operation, new_name: str) -> None:
        """Rename a symbol and every use of it nested under the table's op."""
        old = symbol_name(sym_op)
        del self.symbols[old]
        sym_op.properties["sym_name"] = StringAttr(new_name)
        self.symbols[new_name] = sym_op
        old_ref = SymbolRefAttr(old)
        new_ref = SymbolRefAttr(new_name)
        for op in self.op.walk():
            for d in (op.properties, op.attributes):
                for k, v in list(d.items()):
                    nv = _replace_ref(v, old_ref, new_ref)
                    if nv is not v:
                        d[k] = nv


def _replace_ref(attr, old, new):
    from .attributes import ArrayAttr, DictionaryAttr
    if attr is old:
        return new
    if isinstance(attr, SymbolRefAttr) and attr.root == old.root and attr.nested:
        return SymbolRefAttr(new.root, attr.nested)
    if isinstance(attr, ArrayAttr):
        vals = [_replace_ref(a, old, new) for a in attr.value]
        if any(a is not b for a, b in zip(vals, attr.value)):
            return ArrayAttr(vals)
    if isinstance(attr, DictionaryAttr):
        vals = {k: _replace_ref(a, old, new) for k, a in attr.value.items()}
        if any(vals[k] is not attr.value[k] for k in vals):
            return DictionaryAttr(vals)
    return attr


def lookup_symbol_in(table_op: Operation, ref) -> Operation | None:
    """Resolve a name or SymbolRefAttr (nested refs walk nested tables)."""
    if isinstance(ref, str):
        ref = SymbolRefAttr(ref)
    op = _lookup_flat(table_op, ref.root)
    for n in ref.nested:
        if op is None or T.SymbolTable not in type(op).traits:
            return None
        op = _lookup_flat(op, n)
    return op


def _lookup_flat(table_op, name):
    if not table_op.regions or not table_op.regions[0].blocks:
        return None
    tables = getattr(_FROZEN, "tables", None)
    if tables is not None:
        table = tables.get(table_op)
        if table is None:
            table = tables[table_op] = SymbolTable(table_op).symbols
        return table.get(name)
    for child in table_op.regions[0].ops:
        if symbol_name(child) == name:
            return child
    return None


# While the IR does not change (the verifier's walk over symbol uses), lookups read
# each table's names from a dict built once instead of scanning its ops every time.
_FROZEN = threading.local()


class frozen_symbol_lookups:
    """`with frozen_symbol_lookups(): ...` -- symbol lookups inside (in this thread) may
    cache each table's symbols: the IR must not change until the block ends."""

    __slots__ = ("outer",)

    def __enter__(self):
        self.outer = getattr(_FROZEN, "tables", None)
        if self.outer is None:
            _FROZEN.tables = {}
        return self

    def __exit__(self, *exc):
        if self.outer is None:
            _FROZEN.tables = None
        return False


def lookup_nearest_symbol_from(from_op: Operation, ref) -> Operation | None:
    """Look `ref` up in the closest enclosing symbol table of `from_op`."""
    op = from_op if T.SymbolTable in type(from_op).traits else from_op.parent_op
    while op is not None:
        if T.SymbolTable in type(op).traits:
            return lookup_symbol_in(op, ref)
        op = op.parent_op
    return None


def symbol_uses(root: Operation):
    """(op, attribute name, SymbolRefAttr) for every symbol reference under `root`."""
    from .attributes import ArrayAttr, DictionaryAttr

    def refs(a):
        if isinstance(a, SymbolRefAttr):
            yield a
        elif isinstance(a, ArrayAttr):
            for x in a.value:
                yield from refs(x)
        elif isinstance(a, DictionaryAttr):
            for x in a.value.values():
                yield from refs(x)

    for op in root.walk():
        for d in (op.properties, op.attributes):
            for k, v in d.items():
                for r in refs(v):
                    yield op, k, r
