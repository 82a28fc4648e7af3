"""`symbol-dce`: erase symbols that nothing live references, as upstream's SymbolDCE.

    module {
      func.func private @unused()   // erased: private and never referenced
      func.func @main()             // kept: public symbols are roots
    }

A symbol is live when it cannot be discarded (public; or any symbol of a symbol table
that is visible from outside, unless private) or when a live op references it through a
SymbolRefAttr anywhere in its attributes, its nested ops' attributes (not looking into
nested symbol tables, which are scopes of their own) included. Non-symbol ops of a symbol
table are always live. Liveness propagates with a worklist; nested symbol tables are
solved when their op becomes live, hidden (discardable non-public symbols) when their
parent is hidden, when they are not a symbol or when they are private. Then every
symbol table under the pass's op drops its dead symbols, innermost first (num-dce'd
counts every erased symbol, those inside erased symbol tables included).
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.attributes import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr
from .pass_manager import Pass, Statistic

__all__ = ["SymbolDCE", "is_symbol", "visibility", "symbol_refs", "nested_symbol_uses"]


def _name_attr(op):
    a = op._props.get("sym_name")
    if a is None:
        a = op._attrs.get("sym_name")
    return a


def is_symbol(op) -> bool:
    """Whether `op` defines a symbol: a Symbol op (builtin.module is an optional one)
    that has a `sym_name`, as upstream's SymbolOpInterface classof."""
    if T.Symbol not in type(op).traits and op.name != "builtin.module":
        return False
    return isinstance(_name_attr(op), StringAttr)


def visibility(op) -> str:
    """"public", "private" or "nested" (the `sym_visibility` attribute)."""
    v = op._props.get("sym_visibility")
    if v is None:
        v = op._attrs.get("sym_visibility")
    if isinstance(v, StringAttr) and v.value in ("private", "nested"):
        return v.value
    return "public"


def _is_symbol_table(op) -> bool:
    return T.SymbolTable in type(op).traits


def symbol_refs(attr, out: list) -> None:
    """Append the SymbolRefAttrs inside `attr` (not the nested parts of a reference)."""
    if isinstance(attr, SymbolRefAttr):
        out.append(attr)
    elif isinstance(attr, ArrayAttr):
        for a in attr.value:
            symbol_refs(a, out)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.value.values():
            symbol_refs(a, out)


def _op_refs(op, out):
    for d in (op._props, op._attrs):
        if d:
            for a in d.values():
                symbol_refs(a, out)


def _unknown_symbol_table(op) -> bool:
    """An op of an unregistered dialect with one region may be a symbol table: its
    uses cannot be known (upstream's isPotentiallyUnknownSymbolTable)."""
    return type(op).__name__ == "UnregisteredOp" and len(op.regions) == 1


def nested_symbol_uses(op) -> list | None:
    """The SymbolRefAttrs that `op` holds: its own attributes (unless it is a symbol
    table) and those of the ops in its regions, not looking into nested symbol tables.
    None when an op that may be an unknown symbol table is in the way."""
    out: list = []
    if not _is_symbol_table(op):
        _op_refs(op, out)
    stack = list(op.regions)
    while stack:
        for b in stack.pop().blocks:
            inner = b.first
            while inner is not None:
                if _unknown_symbol_table(inner):
                    return None
                _op_refs(inner, out)
                if not _is_symbol_table(inner):
                    stack.extend(inner.regions)
                inner = inner.next
    return out


def _lookup_flat(table_op, name):
    for r in table_op.regions[:1]:
        for b in r.blocks:
            op = b.first
            while op is not None:
                a = _name_attr(op)
                if isinstance(a, StringAttr) and a.value == name:
                    return op
                op = op.next
    return None


def _resolve_all(table_op, ref: SymbolRefAttr) -> list | None:
    """Every symbol along `ref` from `table_op` (@a::@b gives @a and @b), or None."""
    if not _is_symbol_table(table_op):
        return None
    sym = _lookup_flat(table_op, ref.root)
    if sym is None:
        return None
    found = [sym]
    for name in ref.nested:
        if not _is_symbol_table(sym):
            return None
        sym = _lookup_flat(sym, name)
        if sym is None:
            return None
        found.append(sym)
    return found


class SymbolDCE(Pass):
    name = "symbol-dce"
    summary = "Eliminate dead symbols"
    num_dce = Statistic("num-dce'd", "Number of symbols DCE'd")

    def run(self, op):
        if not _is_symbol_table(op):
            self.signal_failure(f"'{op.name}' op  was scheduled to run under SymbolDCE, "
                                "but does not define a symbol table", op)
        hidden = True
        if op.parent_op is not None and is_symbol(op):
            hidden = visibility(op) == "private"
        live: set = set()
        self._liveness(op, hidden, live)
        tables = [t for t in op.walk() if _is_symbol_table(t)]
        erased = 0
        for t in tables:
            for b in t.regions[0].blocks if t.regions else ():
                child = b.first
                while child is not None:
                    nxt = child.next
                    if is_symbol(child) and child not in live:
                        child.erase()
                        erased += 1
                    child = nxt
        self.stat("num-dce'd", erased)
        if not erased:
            self.mark_all_analyses_preserved()

    def _liveness(self, table_op, hidden: bool, live: set) -> None:
        worklist = []
        for b in table_op.regions[0].blocks if table_op.regions else ():
            for child in b.ops:
                if not is_symbol(child):
                    worklist.append(child)
                    continue
                vis = visibility(child)
                discardable = (hidden or vis == "private") and vis != "public"
                if not discardable and child not in live:
                    live.add(child)
                    worklist.append(child)
        while worklist:
            op = worklist.pop()
            if _is_symbol_table(op):
                inner_hidden = hidden or not is_symbol(op) or visibility(op) == "private"
                self._liveness(op, inner_hidden, live)
            else:
                # Symbol tables nested in a live non-table op are solved on their own.
                for r in op.regions:
                    for b in r.blocks:
                        for inner in b.ops:
                            if inner.regions:
                                worklist.append(inner)
            parent = op.parent_op
            if parent is None or not _is_symbol_table(parent):
                continue
            refs = nested_symbol_uses(op)
            if refs is None:
                self.signal_failure("operation contains potentially unknown symbol table, "
                                    "meaning that we can't reliable compute symbol uses", op)
            for ref in refs:
                found = _resolve_all(parent, ref)
                if found is None:
                    continue  # references to unknown symbols are ignored
                for sym in found:
                    if sym not in live:
                        live.add(sym)
                        worklist.append(sym)
