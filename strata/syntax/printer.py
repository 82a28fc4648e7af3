"""The printer: generic and custom op forms, with MLIR's SSA and block naming.

[Note: SSA naming like MLIR's SSANameState]
Names are assigned before printing, region by region: all values of a region get their
names (entry block arguments `%argN`, results `%N` or the op's name hint such as `%c0`
or `%cst`, made unique with `_N`), then the regions nested in it are named, each starting
from the counters where its parent region ended (IsolatedFromAbove ops included: a
function after a top-level `%0` starts at `%1`). The generic form never reuses a number
(upstream prints unique SSA ids there), so sibling regions continue each other's counts.
Block labels carry upstream's `// pred: ^bb0` / `// 2 preds: ...` comments. Printing the
same IR in Strata and in mlir-opt thus gives the same text.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir.core import Block, Operation, Region, UnregisteredOp
from ..ir.gc_pause import gc_paused
from .aliases import AliasState

__all__ = ["Printer", "PrintOptions", "print_op"]


class PrintOptions:
    __slots__ = ("generic", "debuginfo", "local_scope", "elide_elements_if_larger",
                 "print_resources")

    def __init__(self, generic=False, debuginfo=False, local_scope=False,
                 elide_elements_if_larger=None, print_resources=True):
        self.generic = generic
        self.debuginfo = debuginfo
        self.local_scope = local_scope
        self.elide_elements_if_larger = elide_elements_if_larger
        self.print_resources = print_resources


class _Counters:
    __slots__ = ("value", "arg", "conflict")

    def __init__(self, value=0, arg=0, conflict=0):
        self.value = value
        self.arg = arg
        self.conflict = conflict


class Printer:
    def __init__(self, options: PrintOptions | None = None):
        self.options = options or PrintOptions()
        self.out: list[str] = []
        self.indent = ""
        self.names: dict = {}
        self.block_names: dict = {}
        self.resources_used: dict = {}
        self._elide = self.options.elide_elements_if_larger
        self.default_dialect = "builtin"  # of the region being printed, as upstream
        self.alias_state = AliasState(False)  # replaced by print_top
        # Final texts of types and attributes (AliasState.final): custom printers may
        # look a type up here before falling back to str().
        self.texts = self.alias_state.final
        self._group_names = {}
        self._custom_print: dict = {}  # op class -> its custom print function or None
        self._debuginfo = self.options.debuginfo

    # ------------------------------------------------------------------ naming

    def _name_scope(self, op: Operation) -> None:
        """Assign SSA and block names for everything nested in `op`.

        Regions are named from a stack, as upstream's SSANameState: a region's values are
        named, then the regions of its ops are pushed in order, and the last pushed is
        named next. In the custom form each pushed region starts from the counters (and
        the used names) its parent region had when it was pushed, so sibling regions
        reuse the same numbers; IsolatedFromAbove does not reset them. The generic form
        prints unique SSA ids (upstream's printUniqueSSAIDs): counters never go back, so
        the stack order decides the numbers.
        """
        names = self.names
        block_names = self.block_names
        generic = self.options.generic
        c = _Counters()
        # Work list of (region, saved counters, used-names scope of the parent)
        stack = [(r, _Counters(), set()) for r in op.regions]
        nested = []
        hint_fns = {}  # op class -> its asm_result_names or None
        while stack:
            region, saved, used_parent = stack.pop()
            if not generic:
                c = saved
            used = set(used_parent)
            parent = region.parent
            hint_args = None if generic else getattr(parent, "asm_block_arg_names", None)
            for bi, block in enumerate(region.blocks):
                block_names[block] = f"^bb{bi}"
                arg_hints = hint_args(region, block) if (hint_args and bi == 0) else None
                for ai, a in enumerate(block.args):
                    if a in names:
                        continue
                    hint = arg_hints[ai] if arg_hints else None
                    if hint:
                        names[a] = self._unique(hint, used, c)
                    elif bi == 0:
                        nm = f"%arg{c.arg}"
                        c.arg += 1
                        names[a] = nm
                        used.add(nm)
                    else:
                        nm = f"%{c.value}"
                        c.value += 1
                        names[a] = nm
                op_ = block.first
                value = c.value  # c.value lives here while the block's ops are named
                while op_ is not None:
                    res = op_.results
                    if res:
                        cls = type(op_)
                        try:
                            hint_fn = hint_fns[cls]
                        except KeyError:
                            hint_fn = hint_fns[cls] = None if generic else \
                                getattr(cls, "asm_result_names", None)
                        hints = hint_fn(op_) if hint_fn is not None else None
                        if hints:
                            c.value = value
                            if len(hints) == 1 and len(res) > 1:
                                # One name for all of the op's results: a group `%name:N`.
                                nm = self._unique(hints[0], used, c)
                                for i, r in enumerate(res):
                                    names[r] = f"{nm}#{i}"
                                self._group_names[res[0]] = [(nm, len(res))]
                            else:
                                self._name_groups(res, hints, used, c)
                            value = c.value
                        elif len(res) == 1:
                            names[res[0]] = f"%{value}"
                            value += 1
                        else:
                            nm = f"%{value}"
                            value += 1
                            for i, r in enumerate(res):
                                names[r] = f"{nm}#{i}"
                            self._group_names[res[0]] = [(nm, len(res))]
                    if op_.regions:
                        nested.extend(op_.regions)
                    op_ = op_.next
                c.value = value
            # Nested regions, in order; the stack names the last one first.
            for r in nested:
                stack.append((r, _Counters(c.value, c.arg, c.conflict), used))
            nested.clear()

    def _name_groups(self, res, hints, used, c):
        """Name results from one hint per result, as upstream's SSANameState: a result
        with a hint (and the first result) starts a group; a result without one (None)
        joins the group before it, printed `%name:N` and used as `%name#i`."""
        groups = []
        for i, r in enumerate(res):
            h = hints[i] if i < len(hints) else None
            if h or i == 0:
                groups.append([self._unique(h, used, c) if h else self._number(c), 0])
            g = groups[-1]
            self.names[r] = g[0] if g[1] == 0 else f"{g[0]}#{g[1]}"
            g[1] += 1
        if len(groups) != len(res):
            start = 0
            for nm, n in groups:
                if n > 1:
                    self.names[res[start]] = f"{nm}#0"
                start += n
            self._group_names[res[0]] = [tuple(g) for g in groups]

    def _number(self, c):
        nm = f"%{c.value}"
        c.value += 1
        return nm

    def _unique(self, hint: str, used: set, c: _Counters) -> str:
        nm = "%" + _sanitize(hint)
        if nm in used:
            base = nm
            while True:
                nm = f"{base}_{c.conflict}"
                c.conflict += 1
                if nm not in used:
                    break
        used.add(nm)
        return nm

    # ------------------------------------------------------------------ entry

    def print_top(self, op: Operation) -> str:
        """The text of `op`, as Operation::print of mlir-opt: aliases that cannot be
        deferred, the op, a newline, deferred (location) aliases and the resources.
        With --mlir-print-local-scope, or for an op nested in another, only the op
        (without a final newline). See [Note: aliases like mlir-opt's]."""
        self._group_names = {}
        opts = self.options
        scope = op
        if op.parent is not None and not opts.local_scope and (op.results or op._operands):
            # A nested op (printed in a diagnostic note, say) shows the SSA names it has
            # in the whole IR: upstream numbers from the top-most ancestor.
            while scope.parent_op is not None:
                scope = scope.parent_op
        self._name_scope(scope)
        top = not opts.local_scope and op.parent is None
        state = self.alias_state = AliasState(top, opts.elide_elements_if_larger)
        self.texts = state.final
        old = A.set_print_hook(state.text)
        try:
            self.print_operation(op)
            state.recording = False
            if top:
                state.assign_names()
                self.out.insert(0, state.alias_definitions(deferred=False))
                self.out.append("\n")
                self.out.append(state.alias_definitions(deferred=True))
            text = state.finish("".join(self.out))
            self.out = [text]
            self.resources_used = state.resources
            if top:
                self._print_resources()
        finally:
            A.set_print_hook(old)
        return "".join(self.out)

    def _print_resources(self):
        if not self.resources_used or not self.options.print_resources:
            return
        from ..ir.dense import print_resource_section
        self.out.append(print_resource_section(self.resources_used))

    # ------------------------------------------------------------------ ops

    def print_operation(self, op: Operation) -> None:
        out = self.out
        res = op.results
        if res:
            # Only ops with several results have a group name (`%0:2`).
            g = self._group_names.get(res[0]) if len(res) > 1 else None
            if g is not None:
                out.append(", ".join(f"{nm}:{n}" if n > 1 else nm for nm, n in g))
                out.append(" = ")
            elif len(res) == 1:
                out.append(self.names[res[0]])
                out.append(" = ")
            else:
                out.append(", ".join(self.names[r] for r in res))
                out.append(" = ")
        cls = type(op)
        try:
            custom = self._custom_print[cls]
        except KeyError:
            custom = self._custom_print[cls] = None if (
                self.options.generic or cls is UnregisteredOp) else getattr(cls, "print", None)
        if custom is not None and not self._debuginfo:
            custom(op, self)
            return
        loc = None
        if self.options.debuginfo:
            loc = op.loc
            if hasattr(loc, "resolve"):
                loc = loc.resolve()
            st = self.alias_state
            if st.recording:
                st.visit(loc, deferrable=True)  # before the op, as upstream
        if custom is not None:
            custom(op, self)
        else:
            self.print_generic(op)
        if loc is not None:
            out.append(" ")
            out.append(self.alias_state.loc_text(loc, allow_alias=True))

    def loc_str(self, loc) -> str:
        """`loc(...)` of a block argument: printed in full, never as an alias."""
        if hasattr(loc, "resolve"):
            loc = loc.resolve()
        st = getattr(self, "alias_state", None)
        if st is None:
            return f"loc({loc})"
        if st.recording:
            st.visit(loc)
        return st.loc_text(loc, allow_alias=False)

    def print_generic(self, op: Operation) -> None:
        out = self.out
        names = self.names
        out.append('"')
        out.append(A.escape_string(op.name))
        out.append('"(')
        out.append(", ".join([names.get(o.value, "<<UNKNOWN SSA VALUE>>")
                              for o in op._operands]))
        out.append(")")
        if op.successors:
            out.append("[")
            out.append(", ".join(self.block_names.get(b, "<<UNKNOWN BLOCK>>")
                                 for b in op.successors))
            out.append("]")
        # Upstream looks for aliases in regions first, then operand and result types,
        # then properties and attributes by name: record in that order, not as printed.
        st = self.alias_state
        recording = st.recording
        props = self.generic_properties(op)
        if props:
            st.suppress += 1
            out.append(" <{")
            out.append(self.attr_dict_entries(sorted(props.items())))
            out.append("}>")
            st.suppress -= 1
        if op.regions:
            out.append(" (")
            for i, r in enumerate(op.regions):
                if i:
                    out.append(", ")
                self.print_region(r, print_entry_args=True, print_terminators=True,
                                  print_empty_block=True)
            out.append(")")
        st.suppress += 1
        if op._attrs:
            out.append(" {")
            out.append(self.attr_dict_entries(sorted(op._attrs.items())))
            out.append("}")
        out.append(" : ")
        out.append(self.type_str(A.FunctionType([o.value.type for o in op._operands],
                                                [r.type for r in op.results])))
        st.suppress -= 1
        if recording:
            for o in op._operands:
                st.visit(o.value.type)
            for r in op.results:
                st.visit(r.type)
            merged = dict(op._attrs)
            merged.update(props)
            for k in sorted(merged):
                st.visit(merged[k])

    def generic_properties(self, op):
        props = op._props
        stored = getattr(type(op), "_stored_defaults", None)
        if stored:
            props = dict(props)
            for k, v in stored:
                props.setdefault(k, v)
        return props

    # ------------------------------------------------------------------ regions

    def print_region(self, region: Region, print_entry_args=True, print_terminators=True,
                     print_empty_block=False):
        out = self.out
        out.append("{")
        if not region.blocks:
            out.append("\n")
            out.append(self.indent)
            out.append("}")
            return
        old = self.indent
        self.indent = old + "  "
        old_dd = self.default_dialect
        parent = region.parent
        if parent is not None:
            self.default_dialect = getattr(parent, "default_dialect", None)
        blocks = region.blocks
        preds = _predecessors(region) if len(blocks) > 1 else None
        for i, b in enumerate(blocks):
            needs_label = i > 0 or (print_entry_args and b.args) or \
                (print_empty_block and b.first is None) or (i == 0 and _has_preds(b))
            if needs_label:
                out.append("\n")
                out.append(old)
                out.append(self.block_names[b])
                if b.args:
                    out.append("(")
                    out.append(", ".join(self._block_arg(a) for a in b.args))
                    out.append(")")
                out.append(":")
                # Upstream notes the predecessor edges of every labelled block.
                ps = preds.get(b, ()) if preds is not None else ()
                if len(ps) == 1:
                    out.append("  // pred: " + self.block_name(ps[0]))
                elif ps:
                    out.append(f"  // {len(ps)} preds: " +
                               ", ".join(self.block_name(p) for p in ps))
                elif i > 0:
                    out.append("  // no predecessors")
            op = b.first
            last = b.last
            line = "\n" + self.indent
            print_operation = self.print_operation
            names = self.names
            customs = self._custom_print
            plain = not self._debuginfo and not self.options.generic
            while op is not None:
                if op is last and not print_terminators and _elidable_terminator(op):
                    break
                res = op.results
                custom = customs.get(type(op)) if plain and len(res) == 1 else None
                if custom is not None:
                    # print_operation's common case: `%name = ` and the custom form.
                    out.append(f"{line}{names[res[0]]} = ")
                    custom(op, self)
                else:
                    out.append(line)
                    print_operation(op)
                op = op.next
        self.indent = old
        self.default_dialect = old_dd
        out.append("\n")
        out.append(old)
        out.append("}")

    @property
    def default_dialect(self) -> str | None:
        """The default dialect of the region being printed, as upstream: custom forms
        print op names of that dialect without its prefix."""
        return self._default_dialect

    @default_dialect.setter
    def default_dialect(self, dd):
        self._default_dialect = dd
        names = _OP_NAMES.get(dd)
        if names is None:
            names = _OP_NAMES[dd] = {}
        self._op_names = names

    def op_name(self, op) -> str:
        """The op name as custom forms print it: without the default dialect prefix."""
        name = op.name
        s = self._op_names.get(name)
        if s is None:
            dd = self._default_dialect
            s = name
            if dd and name.startswith(dd) and name[len(dd):len(dd) + 1] == ".":
                s = name[len(dd) + 1:]
            self._op_names[name] = s
        return s

    def _block_arg(self, a):
        s = f"{self.names[a]}: {self.type_str(a.type)}"
        if self.options.debuginfo and a.loc is not None:
            s += " " + self.loc_str(a.loc)
        return s

    # ------------------------------------------------------------------ pieces

    def value(self, v) -> str:
        return self.names.get(v, "<<UNKNOWN SSA VALUE>>")

    def write(self, s: str) -> None:
        self.out.append(s)

    def type_str(self, t) -> str:
        return str(t)

    def attr_str(self, a) -> str:
        # Aliases, elision, distinct ids and resources are handled by the print hook
        # that str() goes through while printing (strata/syntax/aliases.py).
        return A.attr_text(a)

    def attr_dict_entries(self, items) -> str:
        parts = []
        for k, v in items:
            key = k if A._is_bare_key(k) else f'"{A.escape_string(k)}"'
            parts.append(key if isinstance(v, A.UnitAttr) else f"{key} = {self.attr_str(v)}")
        return ", ".join(parts)

    def print_optional_attr_dict(self, attrs: dict, elided=(), with_keyword=False):
        items = [(k, v) for k, v in attrs.items() if k not in elided]
        if not items:
            return
        items.sort()
        self.out.append(" attributes {" if with_keyword else " {")
        self.out.append(self.attr_dict_entries(items))
        self.out.append("}")

    def block_name(self, b: Block) -> str:
        return self.block_names.get(b, "<<UNKNOWN BLOCK>>")

    def successor_with_operands(self, b: Block, values) -> str:
        s = self.block_name(b)
        if values:
            s += "(" + ", ".join(self.value(v) for v in values) + " : " + \
                ", ".join(str(v.type) for v in values) + ")"
        return s


_OP_NAMES: dict = {}  # default dialect -> {op name: the name a custom form prints}


def _has_preds(b: Block) -> bool:
    r = b.parent
    if r is None:
        return False
    for other in r.blocks:
        t = other.last
        if t is not None and t.successors and any(s is b for s in t.successors):
            return True
    return False


def _predecessors(region: Region) -> dict:
    """Each block's predecessor edges (one per successor slot), in block order."""
    preds: dict = {}
    for b in region.blocks:
        t = b.last
        if t is not None and t.successors:
            for s in t.successors:
                preds.setdefault(s, []).append(b)
    return preds


def _elidable_terminator(op: Operation) -> bool:
    # Upstream drops the last op of a block whenever it is a terminator, operands or not.
    from ..ir.traits import Terminator
    return Terminator in type(op).traits


_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.-")


def _sanitize(name: str) -> str:
    # Upstream's sanitizeIdentifier: a space becomes `_`, any other byte an identifier
    # cannot hold its hex digits (`cuda:0` -> `cuda3A0`); a name that starts with a
    # digit or with such a byte gets a leading `_`.
    if not name:
        return "_"
    if not all(c in _OK for c in name):
        name = name.encode("utf-8", "surrogateescape").decode("latin-1")
        s = "".join(c if c in _OK else "_" if c == " " else "%X" % ord(c) for c in name)
        first = name[0]
        return "_" + s if first.isdigit() or (first not in _OK and first != " ") else s
    return "_" + name if name[0].isdigit() else name


def print_op(op: Operation, options: PrintOptions | None = None) -> str:
    """The text of `op` and everything nested, as mlir-opt would print it."""
    with gc_paused():
        return Printer(options).print_top(op)


def print_op_in_context(op: Operation, debuginfo: bool = False) -> str:
    """`op` alone in generic form, its SSA values named as in the nearest enclosing
    IsolatedFromAbove op (what mlir-opt shows in "see current operation: ..." notes)."""
    from ..ir.traits import IsolatedFromAbove
    scope = op
    while scope.parent_op is not None and IsolatedFromAbove not in type(scope).traits:
        scope = scope.parent_op
    pr = Printer(PrintOptions(generic=True, local_scope=True, debuginfo=debuginfo))
    pr._group_names = {}
    for i, r in enumerate(scope.results):
        pr.names[r] = f"%{i}" if len(scope.results) == 1 else f"%0#{i}"
    pr._name_scope(scope)
    state = pr.alias_state = AliasState(False, None)
    pr.texts = state.final
    old = A.set_print_hook(state.text)
    try:
        pr.print_operation(op)
    finally:
        A.set_print_hook(old)
    return "".join(pr.out)
