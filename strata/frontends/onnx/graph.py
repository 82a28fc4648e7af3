"""ONNX graphs and nodes -> onnx dialect ops: the 1:1 translation the importer and
`onnx-decompose` share.

[Note: node translation]
A node becomes one op `onnx.<OpType>`: operands are its inputs in order (an omitted input
in the middle is the result of an `onnx.NoValue` op, trailing omitted inputs are dropped),
results its outputs (an omitted output has type `none`), properties its attributes, and
regions its GRAPH attributes (in the dialect's region order), each one block whose
arguments are the subgraph's inputs and whose `onnx.Yield` yields its outputs. Subgraph
bodies use values of the enclosing graphs directly.

Before a node is translated it is checked against its schema at the model's opset: the
domain must be imported, the op must exist there (and not be deprecated), the input and
output counts must fit, every attribute must be known and of its declared kind, required
attributes present, and input/output types must satisfy the type constraints. Every
problem raises OnnxImportError naming the node.

[Note: order and scope]
ONNX wants nodes sorted topologically, but models in the wild are not always; nodes are
translated in a topological order (the given one when it is already valid). A node
depends on the producers of its inputs and of the outer-scope names its subgraphs use.
Duplicate definitions, undefined names and cycles are errors.
"""
from __future__ import annotations

import heapq

from ...ir import attributes as A
from ...ir.core import Block, Region
from ...ir.location import FusedLoc, NameLoc
from . import _dialect as D
from .errors import OnnxImportError, describe_node
from .tensors import TensorError, check_sparse, check_tensor, sparse_attr, tensor_attr
from ...dialects.onnx import element_type_of_name
from .types import UnknownType, convert_type, element_type

__all__ = ["Scope", "GraphImporter", "RESOURCE_MIN_ELEMENTS", "free_names", "attr_kind"]

# A TENSOR attribute with more elements than this (and not a splat) becomes a
# dense_resource unless constants are inlined: what MLIR would print as hex anyway.
RESOURCE_MIN_ELEMENTS = 101

# AttributeProto.AttributeType values.
_FLOAT, _INT, _STRING, _TENSOR, _GRAPH, _FLOATS, _INTS, _STRINGS, _TENSORS, _GRAPHS = \
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10
_SPARSE_TENSOR, _SPARSE_TENSORS, _TYPE_PROTO, _TYPE_PROTOS = 11, 12, 13, 14
_KIND_NAMES = {_FLOAT: "FLOAT", _INT: "INT", _STRING: "STRING", _TENSOR: "TENSOR",
               _GRAPH: "GRAPH", _FLOATS: "FLOATS", _INTS: "INTS", _STRINGS: "STRINGS",
               _TENSORS: "TENSORS", _GRAPHS: "GRAPHS", _SPARSE_TENSOR: "SPARSE_TENSOR",
               _SPARSE_TENSORS: "SPARSE_TENSORS", _TYPE_PROTO: "TYPE_PROTO",
               _TYPE_PROTOS: "TYPE_PROTOS"}
_FIELDS = (("f", _FLOAT), ("i", _INT), ("s", _STRING), ("t", _TENSOR), ("g", _GRAPH),
           ("sparse_tensor", _SPARSE_TENSOR), ("tp", _TYPE_PROTO), ("floats", _FLOATS),
           ("ints", _INTS), ("strings", _STRINGS), ("tensors", _TENSORS),
           ("graphs", _GRAPHS), ("sparse_tensors", _SPARSE_TENSORS),
           ("type_protos", _TYPE_PROTOS))


class Scope:
    """The values visible in one (sub)graph: name -> Value, then the enclosing scope's."""

    __slots__ = ("parent", "values", "types")

    def __init__(self, parent: "Scope | None" = None, types: dict | None = None):
        self.parent = parent
        self.values: dict = {}
        self.types: dict = types if types is not None else {}  # name -> TypeProto

    def lookup(self, name: str):
        s = self
        while s is not None:
            v = s.values.get(name)
            if v is not None:
                return v
            s = s.parent
        return None


def _type_from_string(s: str):
    """The Strata type (unknown shape) of a schema type string, or None."""
    if s.startswith("tensor(") and s.endswith(")"):
        et = element_type_of_name(s[7:-1])
        return A.UnrankedTensorType(et) if et is not None else None
    for prefix, make in (("seq(", D.SeqType), ("optional(", D.OptType)):
        if s.startswith(prefix) and s.endswith(")"):
            inner = _type_from_string(s[len(prefix):-1])
            return inner and make(inner)
    return None


def _known_type(tp):
    """The Strata type of TypeProto `tp`, or None when it is absent or incomplete."""
    if tp is None:
        return None
    try:
        return convert_type(tp)
    except UnknownType:
        return None


def _erase_shape(t):
    if isinstance(t, A.RankedTensorType):
        return A.UnrankedTensorType(t.element_type)
    return t


def free_names(g) -> set:
    """The names a GraphProto uses but does not define (its outer-scope references)."""
    defined = {i.name for i in g.input}
    defined.update(t.name for t in g.initializer)
    defined.update(t.values.name for t in g.sparse_initializer)
    used = set()
    for n in g.node:
        used.update(x for x in n.input if x)
        for a in n.attribute:
            for sg in _subgraphs(a):
                used |= free_names(sg)
        defined.update(n.output)
    used.update(o.name for o in g.output)
    return used - defined


def _trimmed(names) -> list:
    """Node inputs or outputs without the trailing omitted ("") ones."""
    names = list(names)
    while names and not names[-1]:
        names.pop()
    return names


def _check_split(n, inputs, outputs, desc):
    """Split's output count against its attributes (ONNX's shape inference indexes
    past the end of the outputs otherwise)."""
    for a in n.attribute:
        if a.name == "num_outputs" and a.i != len(outputs):
            raise OnnxImportError(f"num_outputs is {a.i}, but the node has {len(outputs)} "
                                  f"output{'' if len(outputs) == 1 else 's'}", desc)
        if a.name == "split" and len(a.ints) != len(outputs):
            raise OnnxImportError(f"'split' has {len(a.ints)} sizes, but the node has "
                                  f"{len(outputs)} output{'' if len(outputs) == 1 else 's'}",
                                  desc)


def _check_unique(names, what: str, where: str):
    seen = set()
    for name in names:
        if name in seen:
            raise OnnxImportError(f"{what} '{name}' is defined twice{where}" if what ==
                                  "initializer" else f"{what} '{name}' is listed twice{where}")
        seen.add(name)


def _count(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _check_elem_types(tp, required: bool = False):
    """Raise UnknownType for an element type of TypeProto `tp` (nested in sequences,
    optionals, maps) that ONNX does not define; 0 (not given) only where `required`
    (a graph input's), else it is left to the places that need one."""
    while True:
        which = tp.WhichOneof("value")
        if which in ("tensor_type", "sparse_tensor_type"):
            code = getattr(tp, which).elem_type
            if code:
                element_type(code)
            elif required:
                raise UnknownType("tensor type without an element type")
            return
        if which == "sequence_type":
            tp = tp.sequence_type.elem_type
        elif which == "optional_type":
            tp = tp.optional_type.elem_type
        elif which == "map_type":
            element_type(tp.map_type.key_type)
            tp = tp.map_type.value_type
        else:
            return


def _subgraphs(a):
    if a.HasField("g"):
        return [a.g]
    return list(a.graphs)


def attr_kind(a) -> int:
    """The AttributeProto type of `a` (from its `type`, else from the field it sets)."""
    if a.type:
        return a.type
    found = [k for f, k in _FIELDS if (a.HasField(f) if k <= _GRAPH or k in (_SPARSE_TENSOR,
                                                                              _TYPE_PROTO)
                                       else len(getattr(a, f)))]
    return found[0] if len(found) == 1 else 0


class GraphImporter:
    """Translates ONNX graphs (node by node) into ops.

    `opsets` maps ONNX domains ("" the default) to the opset version the model imports;
    `module_block` receives the `ml_program.global`s of subgraph initializers (`symbols`
    holds the symbol names already taken); `reader` reads external tensor data; `loc`
    makes the location of a node from its name (`loc_override`, when set, is used for
    every op instead)."""

    def __init__(self, opsets: dict, *, reader=None, inline_constants: bool = False,
                 module_block=None, symbols: set | None = None, file_loc=None,
                 loc_override=None):
        self.opsets = opsets
        self.reader = reader
        self.inline_constants = inline_constants
        self.module_block = module_block
        self.symbols = symbols if symbols is not None else set()
        self.file_loc = file_loc
        self.loc_override = loc_override
        # op -> its node's description, until the dialect's verifier has checked it
        # (ops of subgraphs are checked with their top-level ancestor, see check()).
        self.descriptions: dict = {}
        # Set once validate() has checked the graphs to import: nodes are not checked
        # again one by one, and the dialect's verifier runs once, on the whole module
        # (see error_of()).
        self.validated = False

    # ------------------------------------------------------------ locations, symbols

    def loc(self, name: str):
        if self.loc_override is not None:
            return self.loc_override
        n = NameLoc(name)
        return FusedLoc([n, self.file_loc]) if self.file_loc is not None else n

    def fresh_symbol(self, name: str) -> str:
        sym, i = name or "const", 0
        while sym in self.symbols:
            i += 1
            sym = f"{name}_{i}"
        self.symbols.add(sym)
        return sym

    # ------------------------------------------------------------ graphs

    def define_initializers(self, g, scope: Scope, block, anchor=None, skip=()):
        """`ml_program.global` constants for the initializers of `g` (not those named in
        `skip`), each loaded with `ml_program.global_load_const` into `block`."""
        for t in g.initializer:
            if t.name not in skip:
                self._initializer(t.name, t, None, scope, block, anchor)
        for sp in g.sparse_initializer:
            if sp.values.name not in skip:
                self._initializer(sp.values.name, None, sp, scope, block, anchor)

    def make_global(self, name: str, t=None, sp=None) -> tuple[str, object]:
        """A private constant global holding initializer `t` (or sparse `sp`); returns
        its symbol name and type."""
        from ...dialects.ml_program import GlobalOp
        sym = self.fresh_symbol(name)
        resource = None if self.inline_constants else sym
        try:
            value = tensor_attr(t, self.reader, resource) if t is not None else \
                sparse_attr(sp, self.reader, resource)
        except TensorError as e:
            raise OnnxImportError(f"initializer '{name}': {e}") from None
        g = GlobalOp.new(sym, value.type, value=value, visibility="private",
                         loc=self.loc(name))
        self.module_block.append(g)
        return sym, value.type

    def _initializer(self, name, t, sp, scope, block, anchor):
        from ...dialects.ml_program import GlobalLoadConstOp
        if not name:
            raise OnnxImportError("an initializer has no name")
        if name in scope.values:
            raise OnnxImportError(f"initializer '{name}' is defined twice")
        sym, type_ = self.make_global(name, t, sp)
        load = GlobalLoadConstOp.build(loc=self.loc(name), result_types=[type_],
                                       **{"global": A.SymbolRefAttr(sym)})
        self._insert(block, anchor, load)
        scope.values[name] = load.results[0]

    def graph_types(self, g) -> dict:
        """name -> TypeProto from a graph's value_info, inputs and outputs."""
        types = {}
        for vi in g.value_info:
            types[vi.name] = vi.type
        for vi in list(g.input) + list(g.output):
            if vi.HasField("type") and vi.type.WhichOneof("value"):
                types[vi.name] = vi.type
        return types

    def import_nodes(self, g, scope: Scope, block, anchor=None, where: str = "",
                     check: bool = True):
        """Translate the nodes of GraphProto `g` into `block` (before `anchor`); with
        `check` (a block already inside the module) each op is verified at once."""
        defined = scope.values.__contains__
        for index in self._order(g, defined, lambda x: scope.lookup(x) is not None, where):
            self.node(g.node[index], index, scope, block, anchor, where, check)

    def validate(self, g, outer: frozenset = frozenset(), where: str = "", functions=(),
                 lazy_above: int | None = None):
        """Check GraphProto `g` and its subgraphs before any of ONNX's own C++ code
        (shape inference, the inliner) sees it, which may crash on what it does not
        expect: names defined once and before use (in some order), graph outputs
        defined (and the model's listed once), the element types of the declared types, every
        tensor's size against its data (see [Note: sizes checked first] in tensors.py),
        every node's op, counts and attributes (check_node). `outer` holds the names of
        the enclosing graphs; `functions` the (domain, name) of the model-local
        functions nodes may call; initializers of more than `lazy_above` elements have
        their raw data's length checked when imported."""
        self.check_graph_data(g, where, lazy_above)
        own = set()
        for name in [vi.name for vi in g.input] + [t.name for t in g.initializer] + \
                [t.values.name for t in g.sparse_initializer]:
            if not name or not isinstance(name, str):
                raise OnnxImportError(f"a graph input or initializer has no (UTF-8) "
                                      f"name{where}")
            own.add(name)
        _check_unique([vi.name for vi in g.input], "graph input", where)
        _check_unique([t.name for t in g.initializer] +
                      [t.values.name for t in g.sparse_initializer], "initializer", where)
        visible = outer | own
        inner = None
        for i in self._order(g, own.__contains__, visible.__contains__, where):
            n = g.node[i]
            desc = describe_node(n.name, n.op_type, i, where)
            self.check_node(n, desc, functions)
            for a in n.attribute:
                for sg in _subgraphs(a):
                    if inner is None:
                        inner = frozenset(visible | {o for m in g.node for o in m.output if o})
                    self.validate(sg, inner, f" in graph '{sg.name}' of {desc}", functions)
        produced = {o for n in g.node for o in n.output if o}
        for o in g.output:
            if not isinstance(o.name, str):
                raise OnnxImportError(f"graph output name {o.name!r} is not valid UTF-8")
        if not where:  # the model's outputs are named results (a subgraph's are positional:
            # it may yield one value twice, as onnxruntime allows)
            _check_unique([o.name for o in g.output], "graph output", where)
        for o in g.output:
            if o.name not in produced and o.name not in visible:
                raise OnnxImportError(f"output '{o.name}' of graph '{g.name}' is not "
                                      f"defined{where}" if where else
                                      f"graph output '{o.name}' is not defined")

    def check_graph_data(self, g, where: str = "", lazy_above: int | None = None):
        """The declared types of `g`'s inputs, outputs and value_info (known element
        types) and its initializers' sizes against their data (nothing large read:
        see [Note: sizes checked first] in tensors.py)."""
        for what, infos in (("graph input", g.input), ("graph output", g.output),
                            ("value_info", g.value_info)):
            for vi in infos:
                try:
                    _check_elem_types(vi.type, what == "graph input")
                except UnknownType as e:
                    raise OnnxImportError(f"{what} '{vi.name}'{where}: {e}") from None
        for t in g.initializer:
            exact = lazy_above is None or _count(t.dims) <= lazy_above
            try:
                check_tensor(t, self.reader, exact)
            except TensorError as e:
                raise OnnxImportError(f"initializer '{t.name}'{where}: {e}") from None
        for sp in g.sparse_initializer:
            try:
                check_sparse(sp, self.reader)
            except TensorError as e:
                raise OnnxImportError(f"initializer '{sp.values.name}'{where}: {e}") from None

    def check_attribute_data(self, n, desc: str):
        """The tensors of node `n`'s attributes, sizes against data (nothing large
        read: see [Note: sizes checked first] in tensors.py); subgraphs not entered."""
        for a in n.attribute:
            try:
                kind = attr_kind(a)
                if kind == _TENSOR:
                    check_tensor(a.t, self.reader)
                elif kind == _TENSORS:
                    for t in a.tensors:
                        check_tensor(t, self.reader)
                elif kind == _SPARSE_TENSOR:
                    check_sparse(a.sparse_tensor, self.reader)
                elif kind == _SPARSE_TENSORS:
                    for sp in a.sparse_tensors:
                        check_sparse(sp, self.reader)
                elif kind == _TYPE_PROTO:
                    _check_elem_types(a.tp)
                elif kind == _TYPE_PROTOS:
                    for tp in a.type_protos:
                        _check_elem_types(tp)
            except (TensorError, UnknownType) as e:
                raise OnnxImportError(f"attribute '{a.name}': {e}", desc) from None

    def _order(self, g, defined, visible, where: str) -> list[int]:
        """A topological order of g's node indices (see [Note: order and scope]):
        `defined(name)` tells the names g defines besides its nodes (inputs,
        initializers), `visible(name)` those it may use besides its nodes' outputs."""
        nodes = g.node
        producer: dict = {}
        for i, n in enumerate(nodes):
            for o in n.output:
                if not o:
                    continue
                if o in producer:
                    j = producer[o]
                    raise OnnxImportError(
                        f"output '{o}' is already produced by "
                        f"{describe_node(nodes[j].name, nodes[j].op_type, j)}",
                        describe_node(n.name, n.op_type, i, where))
                if defined(o):
                    raise OnnxImportError(f"output '{o}' redefines a graph input or "
                                          "initializer", describe_node(n.name, n.op_type, i, where))
                producer[o] = i
        deps = []
        in_order = True
        for i, n in enumerate(nodes):
            names = [x for x in n.input if x]
            for a in n.attribute:
                for sg in _subgraphs(a):
                    names.extend(free_names(sg))
            d = []
            for x in names:
                j = producer.get(x)
                if j is not None:
                    d.append(j)
                    in_order = in_order and j < i
                elif not visible(x):
                    raise OnnxImportError(f"input '{x}' is not defined",
                                          describe_node(n.name, n.op_type, i, where))
            deps.append(d)
        if in_order:
            return range(len(nodes))
        users = [[] for _ in nodes]
        indegree = [0] * len(nodes)
        for i, d in enumerate(deps):
            for j in set(d):
                users[j].append(i)
                indegree[i] += 1
        ready = [i for i, k in enumerate(indegree) if k == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            i = heapq.heappop(ready)
            order.append(i)
            for u in users[i]:
                indegree[u] -= 1
                if indegree[u] == 0:
                    heapq.heappush(ready, u)
        if len(order) != len(nodes):
            i = min(i for i, k in enumerate(indegree) if k)
            n = nodes[i]
            raise OnnxImportError("the node is part of a cycle: it depends on its own "
                                  "outputs", describe_node(n.name, n.op_type, i, where))
        return order

    def subgraph(self, g, scope: Scope, where: str, arg_types=None) -> Region:
        """A region for GraphProto `g`: one block with its inputs as arguments, its
        initializers loaded, its nodes, and `onnx.Yield` of its outputs. `arg_types`
        fills in inputs that have no type."""
        inner = Scope(scope, self.graph_types(g))
        types = []
        for k, vi in enumerate(g.input):
            tp = inner.types.get(vi.name)
            t = None
            if tp is not None:
                try:
                    t = convert_type(tp)
                except UnknownType:
                    t = None
            if t is None and arg_types is not None and k < len(arg_types):
                t = arg_types[k]
            if t is None:
                raise OnnxImportError(f"input '{vi.name}' of graph '{g.name}' has no type"
                                      f"{where}")
            types.append(t)
        block = Block(types, [self.loc(vi.name) for vi in g.input])
        for vi, arg in zip(g.input, block.args):
            if vi.name in inner.values:
                raise OnnxImportError(f"graph '{g.name}' has two inputs named '{vi.name}'"
                                      f"{where}")
            inner.values[vi.name] = arg
        self.define_initializers(g, inner, block)
        self.import_nodes(g, inner, block, None, f" in graph '{g.name}'{where}", check=False)
        outs = []
        for o in g.output:
            v = inner.lookup(o.name)
            if v is None:
                raise OnnxImportError(f"output '{o.name}' of graph '{g.name}' is not "
                                      f"defined{where}")
            outs.append(v)
        block.append(D.create_op("onnx.Yield", outs, loc=self.loc(g.name or "yield")))
        return Region([block])

    # ------------------------------------------------------------ nodes

    @staticmethod
    def _insert(block, anchor, op):
        if anchor is None:
            block.append(op)
        else:
            block.insert_before(anchor, op)

    def schema(self, n, desc: str):
        """The schema of node `n` at the imported opset (errors for unknown ops)."""
        domain = D.domain_of_key(n.domain)
        version = self.opsets.get(domain)
        if version is None:
            raise OnnxImportError(f"domain '{D.domain_key(domain)}' is not in the model's "
                                  "opset_import", desc)
        s = D.lookup_schema(n.op_type, domain, version)
        if s is None:
            first = D.schema_versions(n.op_type, domain)
            if first:
                raise OnnxImportError(f"'{n.op_type}' does not exist in opset {version} of "
                                      f"domain '{D.domain_key(domain)}' (it first appears "
                                      f"in opset {first[0]})", desc)
            raise OnnxImportError(f"unknown op '{n.op_type}' in domain "
                                  f"'{D.domain_key(domain)}'", desc)
        if s.deprecated:
            raise OnnxImportError(f"'{n.op_type}' is deprecated in opset {version}", desc)
        return s

    def check_node(self, n, desc: str, functions=()):
        """The checks of a node that need no types: its op exists at the imported opset,
        input/output counts, unique output names, attributes known, of their declared
        kinds, the required ones present. Returns (schema, inputs, outputs) with
        trailing omitted ones dropped; the schema is None for a call of a model-local
        function (named in `functions`)."""
        inputs, outputs = _trimmed(n.input), _trimmed(n.output)
        named = [o for o in outputs if o]
        if len(set(named)) != len(named):
            raise OnnxImportError("the node names one output twice", desc)
        for x in (n.op_type, n.domain, n.name, *n.input, *n.output):
            if not isinstance(x, str):  # protobuf hands invalid UTF-8 over as bytes
                raise OnnxImportError(f"name {x!r} is not valid UTF-8", desc)
        if (n.domain, n.op_type) in functions:
            return None, inputs, outputs
        s = self.schema(n, desc)
        for what, names, lo, hi in (("input", inputs, s.min_inputs, s.max_inputs),
                                    ("output", outputs, s.min_outputs, s.max_outputs)):
            if not lo <= len(names) <= hi:
                count = f"{lo}" if lo == hi else f"{lo} to {hi}" if hi < 2 ** 31 - 1 else \
                    f"at least {lo}"
                raise OnnxImportError(f"'{n.op_type}' takes {count} {what}"
                                      f"{'' if count == '1' else 's'}, the node has "
                                      f"{len(names)}", desc)
        seen = set()
        for a in n.attribute:
            if a.name in seen:
                raise OnnxImportError(f"attribute '{a.name}' is given twice", desc)
            seen.add(a.name)
            if a.ref_attr_name:
                raise OnnxImportError(f"attribute '{a.name}' refers to attribute "
                                      f"'{a.ref_attr_name}' of a function, outside any "
                                      "function", desc)
            sa = s.attributes.get(a.name)
            if sa is None:
                raise OnnxImportError(f"unknown attribute '{a.name}' of '{n.op_type}'", desc)
            kind = attr_kind(a)
            if _KIND_NAMES.get(kind) != sa.kind:
                got = _KIND_NAMES.get(kind, "a value of no kind")
                raise OnnxImportError(f"attribute '{a.name}' must be {sa.kind}, got {got}",
                                      desc)
        for name, sa in s.attributes.items():
            if sa.required and name not in seen:
                raise OnnxImportError(f"required attribute '{name}' is missing", desc)
        self.check_attribute_data(n, desc)
        if n.op_type == "Split" and s.domain == "":
            _check_split(n, inputs, outputs, desc)
        return s, inputs, outputs

    def node(self, n, index: int, scope: Scope, block, anchor=None, where: str = "",
             check: bool = True):
        """Translate node `n` (number `index` of its graph) into `block` (before
        `anchor`); the op is checked by the dialect's verifier once it is in place."""
        desc = describe_node(n.name, n.op_type, index, where)
        if self.validated:
            s = self.schema(n, desc)
            inputs, outputs = _trimmed(n.input), _trimmed(n.output)
        else:
            s, inputs, outputs = self.check_node(n, desc)
        named = [o for o in outputs if o]
        loc = self.loc(n.name or (named[0] if named else n.op_type))
        operands = []
        for x in inputs:
            if not x:
                nv = D.create_op("onnx.NoValue", (), [A.NoneType()], loc=loc)
                self._insert(block, anchor, nv)
                operands.append(nv.results[0])
                continue
            v = scope.lookup(x)
            if v is None:
                raise OnnxImportError(f"input '{x}' is not defined", desc)
            operands.append(v)
        props, graphs = self.attributes(n, desc)
        result_types = self._result_types(n, s, outputs, operands, scope, desc)
        regions = []
        if s.regions:
            arg_types = _body_arg_types(n.op_type, operands, props)
            sub_where = f" of {desc}"
            for name in s.regions:
                g = graphs.get(name)
                regions.append(self.subgraph(g, scope, sub_where, arg_types) if g is not None
                               else Region())
        op = D.create_op(D.op_name(n.op_type, s.domain), operands, result_types, props,
                         regions, loc)
        self._insert(block, anchor, op)
        self.descriptions[op] = desc
        if check and not self.validated:
            self.check(op)
        for name, r in zip(outputs, op.results):
            if name:
                scope.values[name] = r
        return op

    def error_of(self, e) -> OnnxImportError:
        """The import error for the verifier's DiagnosticError `e`: it names the node
        of the op that failed, when the op came from one."""
        op = getattr(e.diag, "op", None)
        desc = self.descriptions.get(op)
        msg = e.diag.message
        if desc is None:
            return OnnxImportError(f"the imported module does not verify: {e}")
        prefix = f"'{op.name}' op "
        return OnnxImportError(msg[len(prefix):] if msg.startswith(prefix) else msg, desc)

    def check(self, op):
        """Run the dialect's verifier on `op` and the onnx ops nested in it (now that
        they are inside the module, so that their opset is known); a failure names the
        node the op came from."""
        for o in op.walk():
            desc = self.descriptions.pop(o, None)
            if desc is None:
                continue
            err = o.verify_invariants()
            if err:
                raise OnnxImportError(err, desc)

    def _result_types(self, n, s, outputs, operands, scope, desc):
        """Result types: from the graph's (inferred) value_info, else from inferring this
        node alone, else what the schema implies."""
        out = []
        node_types = None
        for i, name in enumerate(outputs):
            if not name:
                out.append(A.NoneType())
                continue
            t = _known_type(scope.types.get(name))
            if t is None:
                if node_types is None:
                    node_types = self._infer_node(n, s, operands)
                t = _known_type(node_types.get(name))
            if t is None:
                t = _schema_result_type(s, i, operands)
            if t is None:
                raise OnnxImportError(f"the type of output '{name}' is unknown (shape "
                                      "inference found none)", desc)
            out.append(t)
        return out

    def _infer_node(self, n, s, operands) -> dict:
        """ONNX's type inference for node `n` alone, given its operand types."""
        import onnx
        import onnx.defs
        import onnx.shape_inference
        from .types import to_type_proto
        types = {}
        for x, v in zip(n.input, operands):
            if x and not isinstance(v.type, A.NoneType):
                try:
                    types[x] = to_type_proto(v.type)
                except UnknownType:
                    return {}
        opsets = [onnx.helper.make_opsetid(d, v) for d, v in self.opsets.items()]
        try:
            schema = onnx.defs.get_schema(n.op_type, s.since_version, s.domain)
            inferred = onnx.shape_inference.infer_node_outputs(schema, n, types,
                                                               opset_imports=opsets)
        except Exception:  # inference is a help; the schema is the fallback
            return {}
        from .pool_shapes import mend_node_types  # see [Note: ceil_mode windows]
        t = operands[0].type if operands else None
        shape = getattr(t, "shape", None)
        dims = [None if d == A.DYNAMIC else d for d in shape] if shape is not None else None
        return mend_node_types(n, inferred, dims)

    # ------------------------------------------------------------ attributes

    def attributes(self, n, desc: str):
        """(properties, {name: GraphProto}) of node `n` (already checked)."""
        props, graphs = {}, {}
        for a in n.attribute:
            kind = attr_kind(a)
            if kind == _GRAPH:
                graphs[a.name] = a.g
                continue
            try:
                props[a.name] = self.attribute_value(a, kind, n)
            except (TensorError, UnknownType) as e:
                raise OnnxImportError(f"attribute '{a.name}': {e}", desc) from None
        return props, graphs

    def _tensor(self, t, hint: str):
        """A TENSOR attribute: dense, or a resource when large (RESOURCE_MIN_ELEMENTS)."""
        if self.inline_constants:
            return tensor_attr(t, self.reader)
        return tensor_attr(t, self.reader, hint or "tensor", RESOURCE_MIN_ELEMENTS)

    def attribute_value(self, a, kind: int, n=None):
        """The property of a non-graph AttributeProto (see the dialect's mapping)."""
        if kind == _INT:
            return A.IntegerAttr(a.i, A.i64)
        if kind == _FLOAT:
            return A.FloatAttr(a.f, A.f32)
        if kind == _STRING:
            return A.StringAttr(a.s.decode("utf-8", "surrogateescape"))
        if kind == _INTS:
            return A.ArrayAttr([A.IntegerAttr(v, A.i64) for v in a.ints])
        if kind == _FLOATS:
            return A.ArrayAttr([A.FloatAttr(v, A.f32) for v in a.floats])
        if kind == _STRINGS:
            return A.ArrayAttr([A.StringAttr(v.decode("utf-8", "surrogateescape"))
                                for v in a.strings])
        hint = (n.output[0] if n is not None and n.output and n.output[0] else a.name)
        if kind == _TENSOR:
            return self._tensor(a.t, hint)
        if kind == _TENSORS:
            return A.ArrayAttr([self._tensor(t, hint) for t in a.tensors])
        if kind == _SPARSE_TENSOR:
            return sparse_attr(a.sparse_tensor, self.reader)
        if kind == _SPARSE_TENSORS:
            return A.ArrayAttr([sparse_attr(t, self.reader) for t in a.sparse_tensors])
        if kind == _TYPE_PROTO:
            return A.TypeAttr(convert_type(a.tp))
        if kind == _TYPE_PROTOS:
            return A.ArrayAttr([A.TypeAttr(convert_type(t)) for t in a.type_protos])
        raise UnknownType(f"unsupported attribute kind {kind}")


# ---------------------------------------------------------------- schema helpers


def _formal(params, i):
    """The formal parameter of actual position i (the last one repeats if variadic)."""
    if i < len(params):
        return params[i]
    if params and params[-1].is_variadic:
        return params[-1]
    return None


def _schema_result_type(s, i: int, operands):
    """A result type the schema implies when shape inference found none: a fixed type,
    a constraint with one allowed type, or the type of an input of the same constraint
    (with its shape unknown)."""
    p = _formal(s.outputs, i)
    if p is None:
        return None
    if p.type_str in s.type_constraints:
        for k, v in enumerate(operands):
            q = _formal(s.inputs, k)
            if q is not None and q.type_str == p.type_str and \
                    not isinstance(v.type, A.NoneType):
                return _erase_shape(v.type)
    if len(p.allowed) == 1:
        return _type_from_string(next(iter(p.allowed)))
    return None


def _body_arg_types(op_type: str, operands, props):
    """Types of a Loop / Scan / SequenceMap body's inputs, for bodies that leave them
    out (shape inference usually fills them in)."""
    types = [v.type for v in operands]
    if op_type == "Loop":
        return [A.RankedTensorType([], A.i64), A.RankedTensorType([], A.i1)] + types[2:]
    if op_type == "Scan":
        nscan = props.get("num_scan_inputs")
        if nscan is None:
            return None
        nscan = nscan.value
        nstate = len(types) - nscan
        axes = props.get("scan_input_axes")
        axes = [a.value for a in axes] if axes is not None else [0] * nscan
        out = types[:nstate]
        for t, ax in zip(types[nstate:], axes):
            if isinstance(t, A.RankedTensorType) and t.shape:
                shape = list(t.shape)
                del shape[ax % len(shape)]
                t = A.RankedTensorType(shape, t.element_type)
            out.append(t)
        return out
    if op_type == "SequenceMap":
        return [t.element_type if isinstance(t, D.SeqType) else t for t in types]
    return None
