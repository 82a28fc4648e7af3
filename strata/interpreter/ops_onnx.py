"""Interpreter implementation of the onnx dialect: ONNX's own reference semantics.

[Note: onnx ops through onnx.reference]
An onnx op runs through the implementation `onnx.reference` has for its op type, domain
and the module's opset version: the op becomes a NodeProto (properties back to
attributes), the implementation class is loaded as ReferenceEvaluator would (functions
and context-dependent functions of the schema included, given the operand types), and
instantiated once per op (cached in the interpreter). Results are brought to the dtype
of the result type where the reference returns another (it sometimes answers float64,
or a Python scalar). So the onnx level executes as ONNX defines it: it is the referee
the lowerings are compared with.

Ops with graph attributes run their regions through the interpreter (If, Loop, Scan,
SequenceMap), following the ONNX specification; onnx.Constant reads its attribute
directly. `onnx` is imported on first use.
"""
from __future__ import annotations

import numpy as np

from ..ir import attributes as A
from .core import fail, impl
from .values import attr_to_value, dtype_of

_SPECIAL = frozenset({"onnx.If", "onnx.Loop", "onnx.Scan", "onnx.SequenceMap",
                      "onnx.Constant", "onnx.NoValue", "onnx.Yield", "onnx.Optional"})
# Op types onnx.reference lacks that another implementation covers: (op type, version).
_ALIASES = {("", "Scatter"): ("ScatterElements", 11)}


def _onnx_op_names():
    from ..dialects import all_dialects
    return [n for d in all_dialects() if d.name == "onnx" for n in d.ops
            if n not in _SPECIAL]


@impl("onnx.NoValue")
def _no_value(interp, op, args):
    return [None]


@impl("onnx.Optional")
def _optional(interp, op, args):
    # Not delegated: onnx.reference wraps the value in a list, unlike its other ops.
    return [args[0] if args else None]


# ---------------------------------------------------------------- generic delegation


class _Runner:
    """An onnx.reference op instance for one op, and how to convert its results."""

    __slots__ = ("inst", "result_types")

    def __init__(self, inst, result_types):
        self.inst = inst
        self.result_types = result_types


def _node_proto(op):
    """`op` as a NodeProto named in0.. / out0.. (omitted values: empty names)."""
    from onnx import helper

    from ..dialects.onnx import schema_of
    from ..frontends.onnx.decompose import _attribute_proto  # op properties -> attributes
    cls = type(op)
    inputs = ["" if isinstance(o.value.type, A.NoneType) else f"in{i}"
              for i, o in enumerate(op._operands)]
    outputs = ["" if isinstance(r.type, A.NoneType) else f"out{i}"
               for i, r in enumerate(op.results)]
    alias = _ALIASES.get((cls.domain, cls.op_type))
    node = helper.make_node(alias[0] if alias else cls.op_type, inputs, outputs,
                            domain=cls.domain, name=_node_name(op))
    s = schema_of(op)
    for name, a in op._props.items():
        d = s.attributes.get(name) if s is not None else None
        if d is None:
            fail(op, f"attribute '{name}' is not in the schema")
        node.attribute.append(_attribute_proto(name, d.kind, a))
    return node


def _node_name(op):
    """The ONNX node's name: the importer's location is the name fused with the file."""
    from ..ir.location import FusedLoc, NameLoc
    loc = op.loc
    if isinstance(loc, FusedLoc):
        loc = next((x for x in loc.locations if isinstance(x, NameLoc)), None)
    return loc.name if isinstance(loc, NameLoc) else ""


def _opsets(op):
    from ..dialects.onnx import opset_version
    return {d: opset_version(op, d) for d in ("", "ai.onnx.ml", "ai.onnx.preview.training",
                                              "ai.onnx.preview")}


# onnx.reference's class for (domain, op type, version), or _IN_CONTEXT where it depends
# on the node and its input types (a function body the schema builds per context): see
# [Note: reference classes loaded once]
_CLASSES: dict = {}
_IN_CONTEXT = object()


def _load_class(op, node):
    """The onnx.reference implementation class for `op` (as ReferenceEvaluator finds
    it); raises NotImplementedError-like onnx errors when there is none.

    [Note: reference classes loaded once]
    Finding the class (onnx.reference's load_op: schema lookups, version search) took
    ~0.2 ms an op, and constant folding runs ops by the hundred: MobileNetV2's exported
    pads are 52 x 7 shape ops (Reshape, Slice, Concat, ...), 0.075 s of its ~1.1 s
    compile in load_op. A class that only depends on the domain, op type and opset
    version is found once a process; one that depends on the node (an op defined by a
    context-dependent function) is looked up per op as before, without the failed
    first try; an op defined by a function body gets its own evaluator per op, as
    before."""
    from onnx.reference import ReferenceEvaluator
    from onnx.reference.op_run import RuntimeContextError

    from ..dialects.onnx import opset_version
    from ..frontends.onnx.types import to_type_proto
    cls = type(op)
    op_type, version = _ALIASES.get((cls.domain, cls.op_type), (cls.op_type, None))
    version = version or opset_version(op)
    domain = cls.domain
    if domain == "":
        from onnx.reference.ops import load_op
        key = (domain, op_type, version)
        klass = _CLASSES.get(key)
        if klass is None:
            try:
                klass = load_op(domain, op_type, version, evaluator_cls=ReferenceEvaluator)
            except RuntimeContextError:
                klass = _CLASSES[key] = _IN_CONTEXT
            else:
                if isinstance(klass, type):     # (a function body: its own evaluator)
                    _CLASSES[key] = klass
                return klass
        if klass is not _IN_CONTEXT:
            return klass
        types = [to_type_proto(o.value.type) for o in op._operands
                 if not isinstance(o.value.type, A.NoneType)]
        return load_op(domain, op_type, version, node=node, input_types=types,
                       evaluator_cls=ReferenceEvaluator)
    if domain == "ai.onnx.ml":
        from onnx.reference.ops.aionnxml import load_op
    elif domain == "ai.onnx.preview.training":
        from onnx.reference.ops.aionnx_preview_training import load_op
    elif domain == "ai.onnx.preview":
        from onnx.reference.ops.aionnx_preview import load_op
    else:
        fail(op, f"no reference implementation for domain '{domain}'")
    return load_op(domain, cls.op_type, version)


def _runner(interp, op):
    r = interp.cache.get(op)
    if r is None:
        node = _node_proto(op)
        try:
            klass = _load_class(op, node)
        except Exception as e:  # noqa: BLE001 - onnx says why it has no implementation
            fail(op, f"onnx.reference has no implementation: {_first_line(e)}")
        params = {"log": _no_log, "opsets": _opsets(op), "verbose": 0, "new_ops": None,
                  "existing_functions": {}, "evaluator_cls": None}
        try:
            inst = klass(node, params)
        except Exception as e:  # noqa: BLE001
            fail(op, f"onnx.reference cannot build the op: {_first_line(e)}")
        _attach_regions(interp, op, inst)
        r = interp.cache[op] = _Runner(inst, [res.type for res in op.results])
    return r


class _RegionGraph:
    """Stands for a GRAPH attribute's evaluator in an onnx.reference op: running it runs
    the op's region in the interpreter (the only API the reference ops use of it)."""

    has_linked_attribute = False

    def __init__(self, interp, region):
        self.interp = interp
        self.region = region
        self.input_names = [f"arg{i}" for i in range(len(region.blocks[0].args))]

    def run(self, output_names, feeds, attributes=None, **kw):
        return list(self.interp.run_region(self.region, [feeds[n] for n in self.input_names]))


def _attach_regions(interp, op, inst):
    """Hand the op's non-empty regions to the reference op as its graph attributes."""
    from ..dialects.onnx import schema_of
    s = schema_of(op)
    for name, region in zip(s.regions if s is not None else (), op.regions):
        if region.blocks:
            setattr(inst, name, _RegionGraph(interp, region))
            inst.attributes_names_.add(name)


def _no_log(*args):
    return None


def _first_line(e):
    s = str(e).strip().split("\n")[0]
    return f"{type(e).__name__}: {s[:300]}"


def _run_onnx(interp, op, args):
    r = _runner(interp, op)
    try:
        outs = r.inst.run(*args)
    except Exception as e:  # noqa: BLE001 - the reference rejects the values: locate it
        fail(op, f"onnx.reference failed: {_first_line(e)}")
    if not isinstance(outs, (tuple, list)):
        outs = (outs,)
    outs = list(outs) + [None] * (len(r.result_types) - len(outs))
    return [to_value(v, t) for v, t in zip(outs, r.result_types)]


def to_value(v, t):
    """A value the reference returned, in the representation of type `t`."""
    from ..dialects.onnx import OptType, SeqType
    if isinstance(t, A.NoneType):
        return None
    if isinstance(t, SeqType):
        return None if v is None else [to_value(x, t.element_type) for x in v]
    if isinstance(t, OptType):
        return None if v is None else to_value(v, t.element_type)
    if v is None or not isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        return v
    d = dtype_of(t)
    a = np.asarray(v) if not isinstance(v, np.ndarray) else v
    if a.dtype != d:
        a = a.astype(d)
    return a


for _name in _onnx_op_names():
    impl(_name)(_run_onnx)


# ---------------------------------------------------------------- onnx.Constant


_VALUE_KINDS = ("value", "sparse_value", "value_float", "value_floats", "value_int",
                "value_ints", "value_string", "value_strings")


@impl("onnx.Constant")
def _constant(interp, op, args):
    v = interp.cache.get(op)
    if v is not None:
        return [v]
    t = op.results[0].type
    for k in _VALUE_KINDS:
        a = op._props.get(k)
        if a is None:
            continue
        if k in ("value", "sparse_value"):
            v = attr_to_value(a)
        elif k in ("value_float", "value_int", "value_string"):
            v = np.array(_py(a), dtype=dtype_of(t))
        else:
            v = np.array([_py(x) for x in a.value], dtype=dtype_of(t))
        break
    else:
        fail(op, "has no value attribute")
    v = np.asarray(v)
    interp.cache[op] = v
    return [v]


def _py(a):
    return a.value


# ---------------------------------------------------------------- graph attributes


@impl("onnx.If")
def _if(interp, op, args):
    region = op.regions[0] if bool(np.asarray(args[0]).reshape(-1)[0]) else op.regions[1]
    return [to_value(v, r.type) for v, r in zip(interp.run_region(region, []), op.results)]


@impl("onnx.Loop")
def _loop(interp, op, args):
    trip, cond, carried = args[0], args[1], list(args[2:])
    n_carried = len(carried)
    body = op.regions[0]
    limit = None if trip is None else int(np.asarray(trip).reshape(-1)[0])
    keep_going = True if cond is None else bool(np.asarray(cond).reshape(-1)[0])
    scans = [[] for _ in range(len(op.results) - n_carried)]
    if limit is None and cond is None:
        fail(op, "has neither a trip count nor a condition: it would never end")
    i = 0
    while (limit is None or i < limit) and keep_going:
        outs = interp.run_region(body, [np.array(i, np.int64), np.array(keep_going)] + carried)
        keep_going = bool(np.asarray(outs[0]).reshape(-1)[0])
        carried = list(outs[1:1 + n_carried])
        for k, v in enumerate(outs[1 + n_carried:]):
            scans[k].append(np.asarray(v))
        i += 1
    results = carried + [_stack(s, r.type, 0) for s, r in zip(scans, op.results[n_carried:])]
    return [to_value(v, r.type) for v, r in zip(results, op.results)]


def _stack(items, t, axis):
    """Scan outputs stacked along `axis` (an empty list gives a 0-length axis)."""
    if items:
        return np.stack(items, axis=axis)
    shape = [0]
    if isinstance(t, A.RankedTensorType):
        shape = [0 if d == A.DYNAMIC else d for d in t.shape]
        shape[axis] = 0
    return np.zeros(shape, dtype_of(t))


def _ints_attr(op, name, n, default):
    a = op._props.get(name)
    vals = [x.value for x in a.value] if a is not None else []
    return vals + [default] * (n - len(vals))


@impl("onnx.Scan")
def _scan(interp, op, args):
    from ..dialects.onnx import opset_version
    if opset_version(op) < 9:
        return _scan8(interp, op, args)
    m = op._props["num_scan_inputs"].value
    n_state = len(args) - m
    states, xs = list(args[:n_state]), [np.asarray(x) for x in args[n_state:]]
    n_out = len(op.results) - n_state
    in_axes = [a % x.ndim if x.ndim else 0 for a, x in
               zip(_ints_attr(op, "scan_input_axes", m, 0), xs)]
    in_dirs = _ints_attr(op, "scan_input_directions", m, 0)
    out_axes = _ints_attr(op, "scan_output_axes", n_out, 0)
    out_dirs = _ints_attr(op, "scan_output_directions", n_out, 0)
    lengths = {x.shape[a] for x, a in zip(xs, in_axes)}
    if len(lengths) > 1:
        fail(op, f"scan inputs have different sequence lengths {sorted(lengths)}")
    steps = lengths.pop() if lengths else 0
    outs = [[] for _ in range(n_out)]
    for t in range(steps):
        slices = [np.take(x, steps - 1 - t if d else t, axis=a)
                  for x, a, d in zip(xs, in_axes, in_dirs)]
        ys = interp.run_region(op.regions[0], states + slices)
        states = list(ys[:n_state])
        for k, y in enumerate(ys[n_state:]):
            outs[k].append(np.asarray(y))
    results = list(states)
    for k, (items, r) in enumerate(zip(outs, op.results[n_state:])):
        if out_dirs[k]:
            items = items[::-1]
        rank = (items[0].ndim + 1) if items else getattr(r.type, "rank", 1)
        results.append(_stack(items, r.type, out_axes[k] % rank))
    return [to_value(v, r.type) for v, r in zip(results, op.results)]


def _scan8(interp, op, args):
    """Scan-8: a batch axis first, then the sequence axis; optional sequence_lens."""
    m = op._props["num_scan_inputs"].value
    lens, rest = args[0], list(args[1:])
    n_state = len(rest) - m
    states, xs = [np.asarray(v) for v in rest[:n_state]], [np.asarray(x) for x in rest[n_state:]]
    dirs = _ints_attr(op, "directions", m, 0)
    batch = xs[0].shape[0] if xs else states[0].shape[0]
    longest = xs[0].shape[1] if xs else 0
    finals, scans = [[] for _ in range(n_state)], [[] for _ in op.results[n_state:]]
    for b in range(batch):
        steps = longest if lens is None else int(np.asarray(lens).reshape(-1)[b])
        st = [s[b] for s in states]
        outs = [[] for _ in scans]
        for t in range(steps):
            slices = [x[b, steps - 1 - t if d else t] for x, d in zip(xs, dirs)]
            ys = interp.run_region(op.regions[0], st + slices)
            st = list(ys[:n_state])
            for k, y in enumerate(ys[n_state:]):
                outs[k].append(np.asarray(y))
        for k, v in enumerate(st):
            finals[k].append(np.asarray(v))
        for k, items in enumerate(outs):
            a = np.stack(items) if items else None
            if a is not None and steps < longest:  # shorter sequences are padded with 0
                a = np.concatenate([a, np.zeros((longest - steps,) + a.shape[1:], a.dtype)])
            scans[k].append(a)
    results = [np.stack(f) for f in finals] + [np.stack(s) for s in scans]
    return [to_value(v, r.type) for v, r in zip(results, op.results)]


@impl("onnx.SequenceMap")
def _sequence_map(interp, op, args):
    seq, extra = args[0], args[1:]
    n = len(seq)
    for e in extra:
        if isinstance(e, list) and len(e) != n:
            fail(op, f"sequences of different lengths ({n} and {len(e)})")
    outs = [[] for _ in op.results]
    for i in range(n):
        vals = [seq[i]] + [e[i] if isinstance(e, list) else e for e in extra]
        for k, y in enumerate(interp.run_region(op.regions[0], vals)):
            outs[k].append(y)
    return [to_value(v, r.type) for v, r in zip(outs, op.results)]
