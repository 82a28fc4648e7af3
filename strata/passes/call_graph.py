"""Calls, callables and the call graph (MLIR's CallOpInterface, CallableOpInterface and
CallGraph), shared by `inline` and `sccp`.

[Note: call and callable ops]
An op is a *call* when its class defines `call_callee()` (a SymbolRefAttr, or the Value
holding the function for an indirect call) and `call_arg_operands()` (the values passed
to the callee's entry block): func.call and func.call_indirect. An op is *callable* when
its class defines `callable_region()` (the body, or None for a declaration) and
`callable_result_types()`: func.func.

[Note: the call graph]
One node per callable region (declarations have none), in the order the ops appear.
Each node keeps its outgoing edges without duplicates, in the order they were found:
a *call* edge per call inside the region (to the callee's node, or to the "unknown"
node when the callee cannot be resolved or has no body), a *child* edge to each
callable nested in it. The "external" node has an *abstract* edge to every top-level
callable. Strongly connected components come out callees first (Tarjan's algorithm from
the external node, as llvm::scc_iterator walks it), which is the order the inliner
visits them in.
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.attributes import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr
from ..ir.core import Operation, Region, UnregisteredOp

__all__ = ["is_call", "is_callable", "callable_region", "CallGraph", "CallGraphNode",
           "SymbolTableCollection", "symbol_uses", "is_symbol", "visibility",
           "walk_symbol_tables"]

CALL, CHILD, ABSTRACT = "call", "child", "abstract"


def is_call(op: Operation) -> bool:
    return hasattr(type(op), "call_callee")


def is_callable(op: Operation) -> bool:
    return hasattr(type(op), "callable_region")


def callable_region(op: Operation) -> Region | None:
    fn = getattr(op, "callable_region", None)
    return fn() if fn is not None else None


# ------------------------------------------------------------------------ symbols


def is_symbol(op: Operation) -> bool:
    """A Symbol op with a `sym_name` (builtin.module's name is optional)."""
    if T.Symbol not in type(op).traits and op.name != "builtin.module":
        return False
    a = op._props.get("sym_name") or op._attrs.get("sym_name")
    return isinstance(a, StringAttr)


def visibility(op: Operation) -> str:
    v = op._props.get("sym_visibility") or op._attrs.get("sym_visibility")
    if isinstance(v, StringAttr) and v.value in ("private", "nested"):
        return v.value
    return "public"


def _symbol_name(op):
    a = op._props.get("sym_name") or op._attrs.get("sym_name")
    return a.value if isinstance(a, StringAttr) else None


def _is_symbol_table(op) -> bool:
    return T.SymbolTable in type(op).traits


def _refs(attr, out):
    if isinstance(attr, SymbolRefAttr):
        out.append(attr)
    elif isinstance(attr, ArrayAttr):
        for a in attr.value:
            _refs(a, out)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.value.values():
            _refs(a, out)


def _op_refs(op):
    out = []
    for d in (op._props, op._attrs):
        if d:
            for a in d.values():
                _refs(a, out)
    return out


def symbol_uses(op: Operation):
    """(user, SymbolRefAttr) for every symbol reference on `op` and the ops nested in it,
    not looking inside nested symbol tables (each is a scope of its own); None when an
    unregistered op with regions (maybe a symbol table) hides what is inside it."""
    if type(op) is UnregisteredOp and op.regions:
        return None
    out = [(op, r) for r in _op_refs(op)]
    if _is_symbol_table(op):
        return out
    stack = [op]
    while stack:
        cur = stack.pop()
        nested = []
        for region in cur.regions:
            for block in region.blocks:
                for inner in block.ops:
                    nested.append(inner)
        for inner in nested:
            if type(inner) is UnregisteredOp and inner.regions:
                return None
            out.extend((inner, r) for r in _op_refs(inner))
            if not _is_symbol_table(inner):
                stack.append(inner)
    return out


def walk_symbol_tables(op: Operation, all_uses_visible: bool, fn) -> None:
    """Call `fn(table_op, all_uses_visible)` for every symbol table under `op` (inner
    ones first), as upstream's SymbolTable::walkSymbolTables: uses of a table's symbols
    are all visible when the table is private, not a symbol, or below a non-table op."""
    is_table = _is_symbol_table(op)
    if is_table:
        all_uses_visible |= not is_symbol(op) or visibility(op) == "private"
    else:
        all_uses_visible = True
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                walk_symbol_tables(inner, all_uses_visible, fn)
    if is_table:
        fn(op, all_uses_visible)


class SymbolTableCollection:
    """Cached name -> op maps of symbol tables (valid while no symbol is added or
    removed)."""

    def __init__(self):
        self.tables: dict = {}

    def _table(self, op):
        t = self.tables.get(op)
        if t is None:
            t = {}
            if op.regions and op.regions[0].blocks:
                for child in op.regions[0].ops:
                    name = _symbol_name(child)
                    if name is not None:
                        t.setdefault(name, child)
            self.tables[op] = t
        return t

    def lookup_in(self, table_op, ref: SymbolRefAttr):
        op = self._table(table_op).get(ref.root)
        for n in ref.nested:
            if op is None or not _is_symbol_table(op):
                return None
            op = self._table(op).get(n)
        return op

    def lookup_nearest(self, from_op, ref: SymbolRefAttr):
        op = from_op if _is_symbol_table(from_op) else from_op.parent_op
        while op is not None and not _is_symbol_table(op):
            op = op.parent_op
        if op is None:
            return None
        return self.lookup_in(op, ref)

    def resolve_call(self, call):
        """The op a call names: the symbol it references, or the op defining the
        function value of an indirect call (a func.constant, which is no callable)."""
        callee = call.call_callee()
        if isinstance(callee, SymbolRefAttr):
            return self.lookup_nearest(call, callee)
        owner = getattr(callee, "owner", None)
        return owner if isinstance(owner, Operation) else None


# ------------------------------------------------------------------------ graph


class CallGraphNode:
    __slots__ = ("region", "edges", "_edge_keys")

    def __init__(self, region: Region | None):
        self.region = region
        self.edges: list = []      # (kind, target node), no duplicates, found order
        self._edge_keys: set = set()

    @property
    def is_external(self) -> bool:
        return self.region is None

    @property
    def op(self) -> Operation | None:
        return self.region.parent if self.region is not None else None

    def add_edge(self, kind: str, target: "CallGraphNode") -> None:
        key = (kind, id(target))
        if key not in self._edge_keys:
            self._edge_keys.add(key)
            self.edges.append((kind, target))

    @property
    def has_children(self) -> bool:
        return any(k == CHILD for k, _ in self.edges)

    def __repr__(self):
        if self.region is None:
            return "<CallGraphNode external>"
        return f"<CallGraphNode @{_symbol_name(self.op)}>"


class CallGraph:
    def __init__(self, op: Operation, symbols: SymbolTableCollection | None = None):
        self.symbols = symbols or SymbolTableCollection()
        self.nodes: dict = {}  # Region -> CallGraphNode, in the order found
        self.external = CallGraphNode(None)
        self.unknown = CallGraphNode(None)
        # Two walks, as upstream: every callable is known before calls are resolved.
        self._compute(op, None, False)
        self._compute(op, None, True)

    def lookup(self, region: Region | None) -> CallGraphNode | None:
        return self.nodes.get(region) if region is not None else None

    def _node(self, region, parent):
        node = self.nodes.get(region)
        if node is None:
            node = self.nodes[region] = CallGraphNode(region)
            if parent is not None:
                parent.add_edge(CHILD, node)
            else:
                self.external.add_edge(ABSTRACT, node)
        return node

    def _compute(self, op, parent, resolve):
        if is_call(op):
            if resolve and parent is not None:
                parent.add_edge(CALL, self.resolve(op))
            return
        if is_callable(op):
            region = callable_region(op)
            if region is None:
                return
            parent = self._node(region, parent)
        for r in op.regions:
            for b in r.blocks:
                for inner in b.ops:
                    self._compute(inner, parent, resolve)

    def resolve(self, call) -> CallGraphNode:
        """The node of the callee of `call`, or the unknown node."""
        target = self.symbols.resolve_call(call)
        if target is not None and is_callable(target):
            node = self.lookup(callable_region(target))
            if node is not None:
                return node
        return self.unknown

    def sccs(self) -> list:
        """Strongly connected components, callees before callers (post-order from the
        external node, as llvm::scc_iterator)."""
        order = {}        # node id -> visit number (None once its SCC is done)
        node_stack = []
        out = []
        counter = 0

        def visit_one(n):
            nonlocal counter
            counter += 1
            order[id(n)] = counter
            node_stack.append(n)
            visit_stack.append([n, iter(n.edges), counter])

        visit_stack: list = []
        visit_one(self.external)
        while visit_stack:
            # DFSVisitChildren
            while True:
                top = visit_stack[-1]
                child = next(top[1], None)
                if child is None:
                    break
                target = child[1]
                num = order.get(id(target), 0)
                if num == 0:
                    visit_one(target)
                    continue
                if num is not None and top[2] > num:
                    top[2] = num
            n, _, min_num = visit_stack.pop()
            if visit_stack and visit_stack[-1][2] > min_num:
                visit_stack[-1][2] = min_num
            if min_num != order[id(n)]:
                continue
            scc = []
            while True:
                m = node_stack.pop()
                order[id(m)] = None
                scc.append(m)
                if m is n:
                    break
            out.append(scc)
        return out
