"""Attribute, type and location aliases of the printer (`#map = affine_map<...>`).

[Note: aliases like mlir-opt's]
Unless --mlir-print-local-scope is given, mlir-opt names some attributes and types once
at the top of the output and refers to them by name: affine maps (`#map`, `#map1`),
integer sets (`#set`), distinct attributes (`#distinct`), tuples of more than 16 types
(`!tuple`), and with --mlir-print-debuginfo every location (`#loc`, `#loc1`). Strata
follows the same rules so that its output is byte-identical:

* While the module prints, every attribute or type printed is *visited*, in printing
  order, and its sub-elements right after it (pre-order); an op's location is visited
  before the op and may be *deferred* (its alias is printed after the module), anything
  else may not (block argument locations included). Names are only known at the end,
  so the text holds placeholders until then (see [Note: one pass with placeholders]).
* An alias's depth is 1, or one more than the deepest alias nested in it; containers
  without an alias pass the depth of their children through. Aliases are ordered by
  (depth, types before attributes, name) keeping visit order among equals, and numbered
  per name in that order: `#map`, `#map1`, ...
* Non-deferred aliases are printed before the module, deferred ones after it; a
  location printed on an op refers to its alias, one on a block argument is printed
  in full (its nested locations still use aliases).

In the generic form the visit order of an op is: its location, its regions, operand
types, result types, then its properties and attributes merged and sorted by name.

Printing goes through `Attribute.__str__`, which calls `AliasState.text` while a printer
is active (`attributes.set_print_hook`); the attribute classes need not know about
aliases. A dialect attribute or type asks for an alias with an `asm_alias` class
attribute (the name, e.g. "extern") or method (`asm_alias(self) -> str | None`), as
upstream's OpAsmDialectInterface::getAlias.
"""
from __future__ import annotations

import itertools
import re

from ..ir import attributes as A
from ..ir import location as L

__all__ = ["AliasState"]


class _Info:
    __slots__ = ("alias", "depth", "is_type", "deferrable", "children", "order")

    def __init__(self, alias, is_type, deferrable, order):
        self.alias = alias
        self.depth = 1 if alias else 0
        self.is_type = is_type
        self.deferrable = deferrable
        self.children = ()
        self.order = order


# Kinds with nothing nested that can get an alias (MLIR does not visit the type of an
# integer or float attribute either).
_LEAF_KINDS = (A.IntegerAttr, A.FloatAttr, A.DenseArrayAttr, A.UnitAttr, A.SymbolRefAttr,
               A.StridedLayoutAttr, A.OpaqueType, A.IntegerType, A.FloatType, A.IndexType,
               A.NoneType, L.UnknownLoc, L.FileLineColLoc)
_FIELDS: dict = {}


def _slot_fields(cls):
    f = _FIELDS.get(cls)
    if f is None:
        names = []
        for k in reversed(cls.__mro__):
            for n in k.__dict__.get("__slots__", ()):
                if n != "_str" and n not in names:
                    names.append(n)
        f = _FIELDS[cls] = tuple(names)
    return f


def _flatten(v, out):
    if isinstance(v, A.Attribute):
        out.append(v)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _flatten(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _flatten(x, out)


def sub_elements(a) -> list:
    """The attributes and types nested in `a` that the printer prints, in order."""
    if isinstance(a, _LEAF_KINDS):
        return []
    cls = type(a)
    name = cls.__name__
    if name in ("AffineMapAttr", "IntegerSetAttr"):
        return []
    if isinstance(a, A.MemRefType):
        out = [a.element_type]
        lay = a.layout
        if lay is not None and not _is_identity_map(lay):
            out.append(lay)
        if a.memory_space is not None:
            out.append(a.memory_space)
        return out
    if isinstance(a, L.NameLoc):
        return [] if isinstance(a.child, L.UnknownLoc) else [a.child]
    if isinstance(a, L.FusedLoc):
        out = [a.metadata] if a.metadata is not None else []
        return out + list(a.locations)
    if isinstance(a, A.DictionaryAttr):
        return list(a.value.values())
    out = []
    for f in _slot_fields(cls):
        _flatten(getattr(a, f, None), out)
    return out


def _is_identity_map(a):
    return type(a).__name__ == "AffineMapAttr" and a.value.is_identity()


def alias_name(a):
    """The alias prefix MLIR's builtin dialect (or `asm_alias`) gives `a`, or None."""
    if isinstance(a, L.Location):
        return "loc"
    name = type(a).__name__
    if name == "AffineMapAttr":
        return "map"
    if name == "IntegerSetAttr":
        return "set"
    if isinstance(a, A.DistinctAttr):
        return None if isinstance(a.referenced, A.UnitAttr) else "distinct"
    if isinstance(a, A.TupleType):
        return "tuple" if len(a.types) > 16 else None
    n = getattr(a, "asm_alias", None)
    if n is not None and callable(n):
        n = n()
    return _sanitize(n) if n else None


def _sanitize(name: str) -> str:
    out = []
    for c in name:
        if c.isascii() and (c.isalnum() or c in "$_-"):
            out.append(c)
        elif c == " ":
            out.append("_")
        else:
            out.append("%X" % ord(c))
    s = "".join(out)
    if s[0].isdigit():
        s = "_" + s
    if s[-1].isdigit():
        s += "_"
    return s


_SERIAL = itertools.count()
_PLACEHOLDER = re.compile("\x00([0-9]+)([AI])([0-9]+)\x01")


class AliasState:
    """Visits attributes while the module prints, then names and substitutes aliases.

    [Note: one pass with placeholders]
    Alias names depend on everything printed (their order is global), so the printer
    does not know `#map1` when it prints the first op. It prints once: `text(a)` (the
    print hook) records `a` and returns a placeholder `\\0<print>A<k>\\1` for what will
    get an alias, and `distinct[\\0<print>I<k>\\1]` for distinct attributes (numbered in
    final text order). `finish()` names the aliases, adds their definitions and replaces
    the placeholders in one regex pass. Printed text never holds a raw NUL byte (strings
    escape it), and the print serial keeps a stale placeholder from being taken for one
    of this print. Without aliases (local scope) everything prints in final form.
    """

    def __init__(self, use_aliases=True, elide_limit=None):
        self.use_aliases = use_aliases
        self.elide_limit = elide_limit
        self.serial = next(_SERIAL)
        self.infos: dict = {}
        self.aliases: dict = {}   # attribute -> "#map1" once names are assigned
        self.recording = use_aliases
        self.suppress = 0         # > 0: printing without visiting (see Printer)
        self.nesting = 0          # > 0: inside the text of another attribute
        self.distinct_ids: dict = {}
        self.resources: dict = {}
        self.ordered: list = []
        self._dirty: dict = {}
        self._cache: dict = {}
        self._kinds: dict = {}    # attribute -> alias prefix or None (alias_name memo)
        self._slots: dict = {}    # attribute -> placeholder index
        self._objs: list = []     # placeholder index -> attribute
        # attribute -> its final text, for those whose text cannot change during this
        # print (no alias, nothing printer-dependent nested) once they have been visited:
        # the print hook's answer in one lookup. Printers may read it directly.
        self.final: dict = {}

    # ------------------------------------------------------------------ visiting

    def visit(self, a, deferrable=False) -> int:
        """Record `a` and its sub-elements; returns its alias depth."""
        info = self.infos.get(a)
        if info is not None:
            if not deferrable and info.deferrable:
                self._undefer(info)
            return info.depth
        info = _Info(self._kind(a), isinstance(a, A.Type), deferrable, len(self.infos))
        self.infos[a] = info
        kids = sub_elements(a)
        if kids:
            children = []
            deepest = 0
            for c in kids:
                d = self.visit(c, deferrable)
                children.append(self.infos[c])
                if d > deepest:
                    deepest = d
            info.children = children
            if deepest:
                info.depth = deepest + 1
        return info.depth

    def _undefer(self, info):
        stack = [info]
        while stack:
            i = stack.pop()
            if i.deferrable:
                i.deferrable = False
                stack.extend(i.children)

    def _kind(self, a):
        k = self._kinds.get(a, _UNSET)
        if k is _UNSET:
            k = self._kinds[a] = alias_name(a)
        return k

    def assign_names(self) -> bool:
        """Name the aliases in MLIR's order; returns whether there is any."""
        named = [(a, i) for a, i in self.infos.items() if i.alias]
        named.sort(key=lambda p: (p[1].depth, not p[1].is_type, p[1].alias, p[1].order))
        counts: dict = {}
        ordered = []
        for a, i in named:
            n = counts.get(i.alias, 0)
            counts[i.alias] = n + 1
            self.aliases[a] = ("!" if i.is_type else "#") + i.alias + (str(n) if n else "")
            ordered.append(a)
        self.ordered = ordered
        return bool(ordered)

    # ------------------------------------------------------------------ printing

    def _slot(self, a, kind="A") -> str:
        k = self._slots.get((kind, a))
        if k is None:
            k = self._slots[(kind, a)] = len(self._objs)
            self._objs.append(a)
        return f"\x00{self.serial}{kind}{k}\x01"

    def text(self, a) -> str:
        """The print hook: (a placeholder of) the alias of `a`, or its full text."""
        s = self.final.get(a)
        if s is not None:
            return s
        if self.recording and not self.nesting and not self.suppress:
            self.visit(a)
        if self.use_aliases and self._kind(a) is not None:
            return self._slot(a)
        s = self.full_text(a)
        if not self._is_dirty(a) and not (self.recording and self._needs_visit(a)):
            self.final[a] = s
        return s

    def _needs_visit(self, a) -> bool:
        """Whether printing `a` again could still record something: it was not visited
        yet, or only as deferrable (a location)."""
        info = self.infos.get(a)
        return info is None or info.deferrable

    def full_text(self, a) -> str:
        """`a` printed in full (never its own alias; nested ones may be aliases)."""
        r = getattr(a, "resource_key", None)
        if r is not None:
            self.resources[r] = a
        lim = self.elide_limit
        if lim is not None and getattr(a, "is_splat", None) is not None:
            from ..ir import dense
            if isinstance(a, dense.DenseElementsAttr):
                return dense.print_elided(a, lim)
        if isinstance(a, A.DistinctAttr):
            return self._distinct_text(a)
        if not self._is_dirty(a):
            s = a._str
            if s is None:
                self.nesting += 1
                try:
                    s = a._str = a._print()
                finally:
                    self.nesting -= 1
            return s
        s = self._cache.get(a)
        if s is None:
            self.nesting += 1
            try:
                s = self._cache[a] = a._print()
            finally:
                self.nesting -= 1
        return s

    def _distinct_text(self, a):
        if self.use_aliases:
            i = self._slot(a, "I")  # numbered in the order of the final text
        else:
            ids = self.distinct_ids
            i = ids.get(a)
            if i is None:
                i = ids[a] = len(ids)
        ref = a.referenced
        if isinstance(ref, A.UnitAttr):
            return f"distinct[{i}]<>"
        self.nesting += 1
        try:
            return f"distinct[{i}]<{ref}>"
        finally:
            self.nesting -= 1

    def _is_dirty(self, a) -> bool:
        """Whether the text of `a` depends on this printer (aliases, distinct ids or
        resources nested in it), so that the cached `str` cannot be used."""
        d = self._dirty.get(a)
        if d is None:
            if (self.use_aliases and self._kind(a) is not None) or \
                    isinstance(a, A.DistinctAttr) or \
                    getattr(a, "resource_key", None) is not None or \
                    (self.elide_limit is not None and
                     getattr(a, "is_splat", None) is not None):
                d = True
            else:
                d = False
                for c in sub_elements(a):
                    if self._is_dirty(c):
                        d = True
                        break
            self._dirty[a] = d
        return d

    def loc_text(self, loc, allow_alias=True) -> str:
        """`loc(...)` of an op (alias allowed) or a block argument (printed in full)."""
        if allow_alias and self.use_aliases:
            return f"loc({self._slot(loc)})"
        return f"loc({self.full_text(loc)})"

    def alias_definitions(self, deferred: bool) -> str:
        out = []
        for a in self.ordered:
            if self.infos[a].deferrable != deferred:
                continue
            body = self.full_text(a)
            if isinstance(a, L.Location):
                body = f"loc({body})"
            out.append(f"{self._slot(a)} = {body}\n")
        return "".join(out)

    def finish(self, text: str) -> str:
        """Replace the placeholders of this print (see [Note: one pass...])."""
        if "\x00" not in text:
            return text
        serial = str(self.serial)
        objs = self._objs
        aliases = self.aliases
        ids: dict = {}

        def sub(m):
            if m.group(1) != serial:
                raise ValueError("stale placeholder of another print in the output")
            a = objs[int(m.group(3))]
            if m.group(2) == "I":
                i = ids.get(a)
                if i is None:
                    i = ids[a] = len(ids)
                return str(i)
            name = aliases.get(a)
            if name is not None:
                return name
            # Printed but never visited (a printer bypassing the hook): in full.
            body = self.full_text(a)
            return _PLACEHOLDER.sub(sub, body)

        out = _PLACEHOLDER.sub(sub, text)
        if "\x00" in out:
            raise ValueError("unresolved placeholder in the printed text")
        return out


_UNSET = object()
