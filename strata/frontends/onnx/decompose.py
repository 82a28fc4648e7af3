"""`onnx-decompose`: ops that ONNX defines by a function become the ops of that function.

    strata-opt model.mlir --onnx-decompose
    strata-opt model.mlir --onnx-decompose=keep=LayerNormalization,Gelu

Many ONNX operators (LayerNormalization, Gelu, Celu, Range, SoftmaxCrossEntropyLoss,
RMSNormalization, Attention...) come with a function body in their schema, fixed or built
for the node at hand (a context-dependent function). This pass replaces each such op by
the nodes of its function at the module's opset, translated by the importer's own node
code (strata/frontends/onnx/graph.py), so lowerings need to know only the primitive ops.
Ops named in `keep` (`LayerNormalization` or `onnx.LayerNormalization`) stay.

[Note: one op at a time]
For each op, a one-node ModelProto is made: the op as a NodeProto (properties back to
attributes), its operand types as typed graph inputs, the module's opset_import. ONNX's
own inliner (`onnx.inliner.inline_selected_functions` with schema functions) expands it,
recursively through nested function ops, binding attribute references and building
context-dependent bodies from the input types; ONNX shape inference types the result; and
its nodes are translated in place of the op, which every use then leaves for the new
values (with the op's own result types, which may be more precise). The new ops keep the
op's location. Ops with a non-empty region (a SequenceMap body, a FlexAttention
score_mod) are left alone: their graph attributes would have to be exported first.

[Note: stable variance]
Several schema functions (LayerNormalization, GroupNormalization,
MeanVarianceNormalization) compute a variance as E[x^2] - E[x]^2, which cancels
catastrophically in float32 when the mean is large against the spread: at mean 10 and
std 0.01 the normalized output is off by 0.1, at mean 100 the difference goes negative
and its square root is NaN, where onnxruntime's LayerNormalization stays within about
eps * mean / std. Before a body is inlined, `_stable_variance` rewrites the pattern

    M = ReduceMean(A, axes)            (keepdims 1)
    Q = ReduceMean(A*A or Pow(A, 2), axes)
    V = Sub(Q, M*M or Pow(M, 2))

into V = ReduceMean((A - M) * (A - M), axes) with the same axes and attributes (the
`A - M` the body computes anyway is merged by cse), and drops the nodes of the old form
that nothing reads any more.
Row fusion (strata-linalg-fuse-row-reductions) still makes one loop over the rows of it:
the second reduction reads the first one's row value, as softmax's sum reads its max.

    %m = onnx.ReduceMean(%x, %axes)          %m = onnx.ReduceMean(%x, %axes)
    %x2 = onnx.Mul(%x, %x)                   %d = onnx.Sub(%x, %m)
    %q = onnx.ReduceMean(%x2, %axes)   ->    %d2 = onnx.Mul(%d, %d)
    %m2 = onnx.Mul(%m, %m)                   %v = onnx.ReduceMean(%d2, %axes)
    %v = onnx.Sub(%q, %m2)
"""
from __future__ import annotations

from functools import lru_cache

from ...dialects.onnx import OnnxOp, opset_version, schema_of
from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ...passes.pass_manager import Option, Pass, Statistic
from ...passes.registry import register_pass
from . import _dialect as D
from .errors import OnnxImportError
from .graph import GraphImporter, Scope
from .pool_shapes import names_read as _names_read
from .types import UnknownType, to_type_proto

__all__ = ["OnnxDecompose", "decompose_module", "expandable"]


def _module_of(op):
    m = op
    while m.parent_op is not None:
        m = m.parent_op
    return m


def _opsets(module) -> dict:
    imp = module.attributes.get("onnx.opset_import") if module._attrs else None
    out = {}
    if isinstance(imp, A.DictionaryAttr):
        for k, v in imp.value.items():
            if isinstance(v, A.IntegerAttr):
                out[D.domain_of_key(k)] = v.value
    return out


@lru_cache(maxsize=None)
def _schema_at(op_type: str, domain: str, version: int):
    """onnx.defs' schema of an operator at an opset version (None when unknown)."""
    import onnx.defs
    try:
        return onnx.defs.get_schema(op_type, version, domain)
    except onnx.defs.SchemaError:
        return None


def _full_schema(op):
    cls = type(op)
    return _schema_at(cls.op_type, cls.domain, opset_version(op))


@lru_cache(maxsize=None)
def _function_at(op_type: str, domain: str, version: int) -> tuple[int | None, bool]:
    s = _schema_at(op_type, domain, version)
    if s is None:
        return None, False
    fixed = [v for v in s.function_opset_versions if v <= version]
    dependent = [v for v in s.context_dependent_function_opset_versions if v <= version]
    if fixed and (not dependent or max(fixed) >= max(dependent)):
        return max(fixed), False
    if dependent:
        return max(dependent), True
    return None, False


def _function_versions(op) -> tuple[int | None, bool]:
    """(the opset version of the function body that applies to `op`, whether it is
    context-dependent); (None, False) when its schema has none at the module's opset."""
    cls = type(op)
    return _function_at(cls.op_type, cls.domain, opset_version(op))


def expandable(op, keep=frozenset()) -> bool:
    """Whether onnx-decompose expands `op` (an onnx op with a schema function at the
    module's opset, not kept, without a non-empty region)."""
    if not isinstance(op, OnnxOp) or op.name in keep:
        return False
    s = schema_of(op)
    if s is None or not (s.has_function or s.has_context_dependent_function):
        return False
    if any(r.blocks for r in op.regions):
        return False
    return _function_versions(op)[0] is not None


# ---------------------------------------------------------------- op -> NodeProto


def _tensor_proto(attr):
    from onnx import numpy_helper

    from ...dialects.onnx import elements_to_numpy
    return numpy_helper.from_array(elements_to_numpy(attr))


def _attribute_proto(name: str, kind: str, a):
    """The AttributeProto of property `a` of ONNX kind `kind`."""
    import onnx
    p = onnx.AttributeProto()
    p.name = name
    p.type = onnx.AttributeProto.AttributeType.Value(kind)
    items = a.value if isinstance(a, A.ArrayAttr) else None
    if kind == "INT":
        p.i = a.value
    elif kind == "FLOAT":
        p.f = a.value
    elif kind == "STRING":
        p.s = a.value.encode("utf-8", "surrogateescape")
    elif kind == "INTS":
        p.ints.extend(x.value for x in items)
    elif kind == "FLOATS":
        p.floats.extend(x.value for x in items)
    elif kind == "STRINGS":
        p.strings.extend(x.value.encode("utf-8", "surrogateescape") for x in items)
    elif kind in ("TENSOR", "SPARSE_TENSOR"):
        p.type = onnx.AttributeProto.TENSOR  # a sparse one was made dense at import
        p.t.CopyFrom(_tensor_proto(a))
    elif kind in ("TENSORS", "SPARSE_TENSORS"):
        p.type = onnx.AttributeProto.TENSORS
        p.tensors.extend(_tensor_proto(x) for x in items)
    elif kind == "TYPE_PROTO":
        p.tp.CopyFrom(to_type_proto(a.value))
    elif kind == "TYPE_PROTOS":
        p.type_protos.extend(to_type_proto(x.value) for x in items)
    else:
        raise UnknownType(f"attribute '{name}' of kind {kind} cannot be exported")
    return p


_DOMAIN = "strata.expand"  # the model-local domain the function is put in


def _stash_like_input(op, fn) -> None:
    """A default stash_type (float) on double data: onnxruntime and onnx.reference
    compute the statistics in double, and so does `fn` after this (its casts to the
    stash type become casts to double; ONNX builds no body for stash_type = double).
    Only where the statistics are not outputs of `op`, whose types say float."""
    import onnx
    t = op.operands[0].type if op.operands else None
    if getattr(t, "element_type", None) is not A.f64:
        return
    if any(not isinstance(r.type, A.NoneType) and r.has_uses() for r in op.results[1:]):
        return
    for n in fn.node:
        if n.op_type == "Cast":
            for a in n.attribute:
                if a.name == "to" and a.i == onnx.TensorProto.FLOAT:
                    a.i = onnx.TensorProto.DOUBLE


def _function_model(op, opsets: dict):
    """A ModelProto calling `op`'s schema function as a model-local function (see
    [Note: one op at a time]), or None when ONNX builds no body for it."""
    import onnx
    from onnx import helper
    cls = type(op)
    s = schema_of(op)
    full = _full_schema(op)
    version, dependent = _function_versions(op)
    inputs, graph_inputs, input_types = [], [], []
    for i, v in enumerate(op.operands):
        if isinstance(v.type, A.NoneType):
            inputs.append("")
            input_types.append(onnx.TypeProto())
            continue
        name = f"in{i}"
        inputs.append(name)
        tp = to_type_proto(v.type)
        input_types.append(tp)
        graph_inputs.append(helper.make_value_info(name, tp))
    outputs = ["" if isinstance(r.type, A.NoneType) else f"out{i}"
               for i, r in enumerate(op.results)]
    node = helper.make_node(cls.op_type, inputs, outputs, domain=cls.domain)
    for name, a in op.properties.items():
        node.attribute.append(_attribute_proto(name, s.attributes[name].kind, a))
    # Function bodies refer to the node's attributes, which may be left at their
    # defaults: spell the defaults out (schema functions declare none).
    for name, sa in full.attributes.items():
        if name not in op.properties and sa.default_value.type != 0:
            node.attribute.append(sa.default_value)
            node.attribute[-1].name = name
    if dependent:
        body = full.get_context_dependent_function_with_opset_version(
            version, node.SerializeToString(), [t.SerializeToString() for t in input_types])
    else:
        body = full.get_function_with_opset_version(version)
    if not body:
        return None
    fn = onnx.FunctionProto.FromString(body)
    _stable_variance(fn)
    if "stash_type" in full.attributes and "stash_type" not in op.properties:
        _stash_like_input(op, fn)
    fn.domain = _DOMAIN
    fn.name = cls.op_type
    # The body's ops run at the module's opset (ONNX registers a new body where an op
    # it uses changed); the inliner wants the versions to agree.
    for imp in fn.opset_import:
        d = D.domain_of_key(imp.domain)
        if d in opsets:
            imp.version = opsets[d]
    node.domain = _DOMAIN
    graph_outputs = [helper.make_value_info(o, to_type_proto(r.type))
                     for o, r in zip(outputs, op.results) if o]
    graph = helper.make_graph([node], "expand", graph_inputs, graph_outputs)
    imports = [helper.make_opsetid(d, v) for d, v in opsets.items()]
    imports.append(helper.make_opsetid(_DOMAIN, 1))
    return helper.make_model(graph, ir_version=onnx.IR_VERSION, opset_imports=imports,
                             functions=[fn])


def _constant_value(node):
    """The scalar value of Constant node `node` (None when not a scalar constant)."""
    import onnx
    from onnx import numpy_helper
    for a in node.attribute:
        if a.ref_attr_name:
            return None
        if a.name == "value" and a.type == onnx.AttributeProto.TENSOR:
            v = numpy_helper.to_array(a.t)
            return v.item() if v.size == 1 else None
        if a.name == "value_float":
            return a.f
        if a.name == "value_int":
            return a.i
    return None


def _stable_variance(fn) -> int:
    """Rewrite E[x^2] - E[x]^2 in function body `fn` into E[(x - E[x])^2] (see [Note:
    stable variance]); returns how many variances were rewritten."""
    from onnx import helper
    producer = {o: n for n in fn.node for o in n.output if o}

    def made_by(name, op_type):
        n = producer.get(name)
        return n if n is not None and n.op_type == op_type and n.domain in ("", "ai.onnx") \
            else None

    def square_of(name):
        """A when `name` is A*A or Pow(A, 2), else None."""
        n = made_by(name, "Mul")
        if n is not None and len(n.input) == 2 and n.input[0] == n.input[1]:
            return n.input[0]
        n = made_by(name, "Pow")
        if n is not None and len(n.input) == 2:
            c = made_by(n.input[1], "Constant")
            if c is not None and _constant_value(c) == 2:
                return n.input[0]
        return None

    def attrs(n):
        return sorted(a.SerializeToString() for a in n.attribute)

    def keeps_dims(n):
        return all(a.i != 0 for a in n.attribute if a.name == "keepdims") and \
            not any(a.name == "keepdims" and a.ref_attr_name for a in n.attribute)

    taken = {x for n in fn.node for x in list(n.input) + list(n.output)}
    taken.update(fn.input)
    taken.update(fn.output)

    def fresh(base):
        name, k = base, 0
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        taken.add(name)
        return name

    done = 0
    nodes = list(fn.node)
    out = []
    replaced = []  # E[x^2], x^2 and E[x]^2 of each rewritten variance
    for n in nodes:
        rewritten = None
        if n.op_type == "Sub" and n.domain in ("", "ai.onnx") and len(n.input) == 2:
            q = made_by(n.input[0], "ReduceMean")
            a = square_of(q.input[0]) if q is not None and q.input else None
            m_name = square_of(n.input[1])
            m = made_by(m_name, "ReduceMean") if m_name else None
            if (a is not None and m is not None and m.input and m.input[0] == a
                    and list(m.input[1:]) == list(q.input[1:])
                    and attrs(m) == attrs(q) and keeps_dims(m)):
                d, d2 = fresh(n.output[0] + "_centered"), fresh(n.output[0] + "_squares")
                rewritten = [helper.make_node("Sub", [a, m_name], [d]),
                             helper.make_node("Mul", [d, d], [d2]),
                             helper.make_node("ReduceMean", [d2, *q.input[1:]],
                                              list(n.output))]
                rewritten[-1].attribute.extend(q.attribute)
                replaced += [q, producer[q.input[0]], producer[n.input[1]]]
        if rewritten is None:
            out.append(n)
        else:
            out.extend(rewritten)
            done += 1
    if not done:
        return 0
    # drop the replaced nodes nothing reads any more (a body's subgraphs read names too)
    while True:
        used = set(fn.output)
        for n in out:
            _names_read(n, used)
        live = {id(n) for n in out}
        dead = [n for n in replaced
                if id(n) in live and not any(o in used for o in n.output)]
        if not dead:
            break
        gone = {id(n) for n in dead}
        out = [n for n in out if id(n) not in gone]
    del fn.node[:]
    fn.node.extend(out)
    return done


# ---------------------------------------------------------------- expansion


def _expand(op, opsets: dict, module, symbols: set) -> list:
    """Replace `op` by the ops of its function; returns the new ops (empty when ONNX
    produced no expansion). Function ops in the body are left to the caller: they
    are typed (and so expandable) only once the body is."""
    import onnx.inliner
    import onnx.shape_inference
    try:
        model = _function_model(op, opsets)
        if model is None:
            return []
        inlined = onnx.inliner.inline_local_functions(model)
    except UnknownType:
        raise
    except Exception as e:  # the C++ function builders' and inliner's errors
        raise OnnxImportError(f"ONNX could not expand it: {e}") from None
    g = inlined.graph
    try:
        g = onnx.shape_inference.infer_shapes(inlined, strict_mode=False,
                                              data_prop=True).graph
    except Exception:  # types then come from node-by-node inference
        pass
    block = op.parent
    gi = GraphImporter(opsets, module_block=module.regions[0].block, symbols=symbols,
                       loc_override=op.loc)
    scope = Scope(None, gi.graph_types(g))
    for i, v in enumerate(op.operands):
        if not isinstance(v.type, A.NoneType):
            scope.values[f"in{i}"] = v
    before = op.prev
    gi.import_nodes(g, scope, block, op, where=f" of the expansion of '{op.name}'")
    created = []
    o = before.next if before is not None else block.first
    while o is not op:
        created.append(o)
        o = o.next
    new_ops = set(created)
    for i, r in enumerate(op.results):
        if isinstance(r.type, A.NoneType):
            continue
        new = scope.lookup(f"out{i}")
        if new is None:
            raise OnnxImportError(f"its expansion does not define output #{i}")
        if new.type is not r.type:
            new = _retype(new, r.type, op, new_ops)
        r.replace_all_uses_with(new)
    op.erase()
    return created


def _retype(value, type_, op, created: set):
    """`value` with the type `type_` the replaced op's result had (whole-model inference
    may know its shape better): a new op's result takes it, any other value goes
    through an `onnx.Identity`. Element types must agree."""
    from ...ir.core import OpResult
    if not _same_elements(value.type, type_):
        raise OnnxImportError(f"its expansion yields {value.type} where the op yields "
                              f"{type_}")
    if isinstance(value, OpResult) and value.defining_op in created:
        value.type = type_
        return value
    ident = D.create_op(D.op_name("Identity", ""), [value], [type_], loc=op.loc)
    op.parent.insert_before(op, ident)
    return ident.results[0]


def _same_elements(a, b) -> bool:
    tensors = (A.RankedTensorType, A.UnrankedTensorType)
    if isinstance(a, tensors) and isinstance(b, tensors):
        return a.element_type is b.element_type
    return a is b


def _keep_names(keep) -> frozenset:
    """The op names in `keep` (`LayerNormalization` or `onnx.LayerNormalization`)."""
    from ...dialects.onnx import ONNX
    names = set()
    for k in keep:
        k = k.strip()
        if not k:
            continue
        cls = ONNX.ops.get(k if k.startswith("onnx.") else "onnx." + k)
        if cls is None or not isinstance(cls, type) or not issubclass(cls, OnnxOp):
            raise OnnxImportError(f"keep: '{k}' is not an onnx op")
        names.add(cls.name)
    return frozenset(names)


def decompose_module(module, keep=()) -> int:
    """Expand every expandable op nested in `module` (see the module docstring); returns
    how many ops were expanded. Raises OnnxImportError naming the op that failed."""
    keep_names = _keep_names(keep)
    top = _module_of(module)
    opsets = _opsets(top)
    # Symbols taken in the module (globals for initializers of expanded subgraphs).
    symbols = {o.properties["sym_name"].value for o in top.regions[0].ops
               if "sym_name" in o.properties} if top.regions else set()
    work = [o for o in module.walk() if isinstance(o, OnnxOp)]
    work.reverse()  # pop() from the end visits ops in walk order
    done = 0
    seen = 0
    while work:
        op = work.pop()
        if op.parent is None or not expandable(op, keep_names):
            continue
        seen += 1
        if seen > 100000:
            raise OnnxImportError("onnx-decompose does not terminate (a function expands "
                                  "into itself?)")
        try:
            created = _expand(op, opsets, top, symbols)
        except (OnnxImportError, UnknownType) as e:
            where = op.loc.full() if op.loc is not None else ""
            raise OnnxImportError(f"cannot expand '{op.name}' {where}: {e}") from None
        if created:
            done += 1
            for o in reversed(created):
                work.extend(x for x in o.walk() if isinstance(x, OnnxOp))
    return done


@register_pass
class OnnxDecompose(Pass):
    name = "onnx-decompose"
    summary = "Expand onnx ops that have an ONNX schema function into that function's ops"
    display_name = "OnnxDecomposePass"
    keep = Option(str, [], "Ops not to expand (LayerNormalization or "
                  "onnx.LayerNormalization)", is_list=True)
    keep_lowered = Option(bool, False, "Also keep every op convert-onnx-to-linalg lowers "
                          "directly (faster code than the function's chain of ops)")
    expanded = Statistic("num-expanded", "Number of ops expanded")

    def run(self, op):
        keep = list(self.keep)
        if self.keep_lowered:
            from ...conversion.onnx_to_linalg import lowered_op_names
            keep.extend(lowered_op_names())
        try:
            n = decompose_module(op, keep)
        except OnnxImportError as e:
            self.signal_failure(str(e), op)
        self.stat("num-expanded", n)
