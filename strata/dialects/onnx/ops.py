"""The onnx dialect's ops: one class per ONNX operator, made from the schema table.

[Note: ops from the schema table]
ONNX has a few hundred operators, each with versions that differ in inputs, attributes
and allowed types. Rather than declaring each op by hand, `make_op_classes()` makes one
`OnnxOp` subclass per (domain, op type) of the table: `onnx.Add`, `onnx.LabelEncoder`
(an op type defined in two domains keeps the plain name for the default domain and
`onnx.<domain suffix>.<OpType>` for the other, e.g. `onnx.ml.X`). The class knows its
op type and domain and the names of its attributes in every version (so that the parser
knows its properties); everything else comes from the schema of the version in force
(`opset_version(op)`: the enclosing module's `onnx.opset_import`), which is what the
verifier checks against:

  - operand and result counts within the schema's bounds; a `none` value (from
    `onnx.NoValue`, or a result for an omitted output) only where the formal parameter
    is optional;
  - every type allowed by its type constraint, and values of one constraint of one type
    (except in heterogeneous variadic parameters);
  - attributes known to the version, of the right kind, the required ones present;
  - one region per GRAPH attribute (in the table's region order), each empty (absent
    optional graph) or one block ending in `onnx.Yield`.

Ops print and parse in the generic form only:
    %0 = "onnx.Add"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ...ir.ods import Op, Result, VarOperand
from . import table
from .types import ONNX_ELEMENT_NAMES, elements_from_numpy, elements_to_numpy, \
    onnx_type_string

__all__ = ["OnnxOp", "NoValueOp", "YieldOp", "make_op_classes", "opset_version",
           "schema_of", "attr", "attribute_from_python", "python_value", "domain_key"]

_NONE = A.NoneType()


def domain_key(domain: str) -> str:
    """How a domain is named in `onnx.opset_import` and in messages ("" is "ai.onnx")."""
    return domain or "ai.onnx"


def opset_version(op, domain: str | None = None) -> int:
    """The opset version in force for `op` (for `domain`, by default the op's): the
    nearest enclosing op's `onnx.opset_import` entry, else the newest version known."""
    if domain is None:
        domain = getattr(type(op), "domain", "")
    domain = table.canonical_domain(domain)
    key = domain_key(domain)
    m = op
    while m is not None:
        imp = m._attrs.get("onnx.opset_import") if m._attrs else None
        if type(imp) is A.DictionaryAttr:
            v = imp.get(key)
            if v is None and not domain:
                v = imp.get("")
            if type(v) is A.IntegerAttr:
                return v.value
            break
        m = m.parent_op
    return table.latest_opset(domain) or 1


def schema_of(op):
    """The OpSchema that applies to an onnx op (None if none does at its opset)."""
    cls = type(op)
    return table.lookup(cls.op_type, cls.domain, opset_version(op))


# ---------------------------------------------------------------- attributes

def _ints(a):
    return type(a) is A.ArrayAttr and all(
        type(x) is A.IntegerAttr and x.type is A.i64 for x in a.value)


def _floats(a):
    return type(a) is A.ArrayAttr and all(
        type(x) is A.FloatAttr and x.type is A.f32 for x in a.value)


def _strings(a):
    return type(a) is A.ArrayAttr and all(type(x) is A.StringAttr for x in a.value)


def _elements(a):
    return isinstance(a, (DenseElementsAttr, DenseResourceElementsAttr))


def _types(a):
    return type(a) is A.ArrayAttr and all(type(x) is A.TypeAttr for x in a.value)


def _tensors(a):
    return type(a) is A.ArrayAttr and all(_elements(x) for x in a.value)


_ATTR_KINDS = {
    "INT": C.I64Attr,
    "FLOAT": C.F32Attr,
    "STRING": C.StrAttr,
    "INTS": C.Constraint(_ints, "64-bit integer array attribute"),
    "FLOATS": C.Constraint(_floats, "32-bit float array attribute"),
    "STRINGS": C.Constraint(_strings, "string array attribute"),
    "TENSOR": C.Constraint(_elements, "constant vector/tensor attribute"),
    "SPARSE_TENSOR": C.Constraint(_elements, "constant vector/tensor attribute"),
    "TENSORS": C.Constraint(_tensors, "array of constant tensor attributes"),
    "SPARSE_TENSORS": C.Constraint(_tensors, "array of constant tensor attributes"),
    "TYPE_PROTO": C.TypeAttrC,
    "TYPE_PROTOS": C.Constraint(_types, "type array attribute"),
}


def python_value(a):
    """An attribute as Python data: int, float, str, list (arrays), NumPy array (dense
    elements), Type (type attributes)."""
    t = type(a)
    if t is A.IntegerAttr or t is A.FloatAttr or t is A.StringAttr:
        return a.value
    if t is A.ArrayAttr:
        return [python_value(x) for x in a.value]
    if t is A.TypeAttr:
        return a.value
    if isinstance(a, (DenseElementsAttr, DenseResourceElementsAttr)):
        return elements_to_numpy(a)
    return a


def attr(op, name: str):
    """The value of ONNX attribute `name` of `op` as Python data (`python_value`), or
    the schema's default when absent (None when it has none)."""
    a = op._props.get(name)
    if a is not None:
        return python_value(a)
    s = schema_of(op)
    d = s.attributes.get(name) if s is not None else None
    return d.default if d is not None else None


def attribute_from_python(kind: str, value):
    """The attribute of ONNX kind `kind` ("INT", "FLOATS", "TENSOR"...) holding the
    Python value (Attributes pass through)."""
    if isinstance(value, A.Attribute):
        return value
    if kind == "INT":
        return A.IntegerAttr(int(value), A.i64)
    if kind == "FLOAT":
        return A.FloatAttr(float(value), A.f32)
    if kind == "STRING":
        return A.StringAttr(value.decode() if isinstance(value, bytes) else str(value))
    if kind in ("INTS", "FLOATS", "STRINGS", "TENSORS", "SPARSE_TENSORS", "TYPE_PROTOS"):
        one = {"INTS": "INT", "FLOATS": "FLOAT", "STRINGS": "STRING",
               "TYPE_PROTOS": "TYPE_PROTO"}.get(kind, "TENSOR")
        return A.ArrayAttr([attribute_from_python(one, v) for v in value])
    if kind in ("TENSOR", "SPARSE_TENSOR"):
        return elements_from_numpy(value)
    if kind == "TYPE_PROTO":
        return A.TypeAttr(value)
    raise ValueError(f"no attribute of kind {kind} for {value!r}")


# ---------------------------------------------------------------- type descriptions

# ONNX element names in the order messages list them.
_ORDER = {n: i for i, n in enumerate((
    "bool", "int2", "int4", "int8", "int16", "int32", "int64", "uint2", "uint4", "uint8",
    "uint16", "uint32", "uint64", "float4e2m1", "float6e2m3", "float6e3m2", "float8e4m3fn",
    "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float8e8m0", "float16", "bfloat16",
    "float", "double", "complex64", "complex128", "string"))}
_MLIR_NAMES: dict = {}
_CONTAINERS = {"": "tensor of {} values", "seq(": "sequence of tensors of {} values",
               "optional(": "optional tensor of {} values",
               "optional(seq(": "optional sequence of tensors of {} values"}
_DESCRIPTIONS: dict = {}


def _mlir_name(onnx_name):
    if not _MLIR_NAMES:
        from .types import ONNX_TO_MLIR_ELEMENT
        for k, n in ONNX_ELEMENT_NAMES.items():
            _MLIR_NAMES[n] = str(ONNX_TO_MLIR_ELEMENT[k])
    return _MLIR_NAMES.get(onnx_name, onnx_name)


def describe_types(allowed) -> str:
    """A set of ONNX type strings in words, element types spelled as in MLIR:
    "tensor of f16, f32 or f64 values"."""
    d = _DESCRIPTIONS.get(allowed)
    if d is not None:
        return d
    groups: dict = {}
    other = []
    for s in allowed:
        i = s.find("tensor(")
        prefix = s[:i] if i >= 0 else None
        if prefix in _CONTAINERS and s.endswith(")" * (prefix.count("(") + 1)):
            groups.setdefault(prefix, []).append(s[i + 7:len(s) - prefix.count("(") - 1])
        else:
            other.append(s)
    parts = []
    for prefix in _CONTAINERS:
        names = groups.get(prefix)
        if names:
            names.sort(key=lambda n: _ORDER.get(n, 99))
            names = [_mlir_name(n) for n in names]
            listed = names[0] if len(names) == 1 else \
                ", ".join(names[:-1]) + " or " + names[-1]
            parts.append(_CONTAINERS[prefix].format(listed))
    parts.extend(sorted(other))
    d = _DESCRIPTIONS[allowed] = " or ".join(parts)
    return d


# ---------------------------------------------------------------- verification

def _count_text(lo, hi, what):
    if lo == hi:
        return f"{lo} {what}{'' if lo == 1 else 's'}"
    if hi >= 2 ** 31 - 1:
        return f"{lo} or more {what}s"
    return f"{lo} to {hi} {what}s"


def _check_values(values, formals, lo, hi, what, bound):
    """Counts, optional/none and type constraints of operands or results."""
    n = len(values)
    if n < lo or n > hi:
        return f"expected {_count_text(lo, hi, what)}, but found {n}"
    nf = len(formals)
    for i, v in enumerate(values):
        if i < nf:
            f = formals[i]
        elif nf and formals[-1].option == table.VARIADIC:
            f = formals[-1]
        else:
            return f"expected {_count_text(lo, min(hi, nf), what)}, but found {n}"
        t = v.type
        if t is _NONE:
            if f.option != table.OPTIONAL:
                return f"{what} #{i} ('{f.name}') is required, but got 'none'"
            continue
        s = onnx_type_string(t)
        if s not in f.allowed:
            c = f" (type constraint '{f.type_str}')" if len(f.allowed) > 1 else ""
            return (f"{what} #{i} ('{f.name}') must be {describe_types(f.allowed)}{c}, "
                    f"but got '{t}'")
        if not f.homogeneous:
            continue
        prev = bound.get(f.type_str)
        if prev is None:
            bound[f.type_str] = (s, what, i, f.name, t)
        elif prev[0] != s:
            return (f"{what} #{i} ('{f.name}') of type '{t}' and {prev[1]} #{prev[2]} "
                    f"('{prev[3]}') of type '{prev[4]}' must have the same element type "
                    f"(type constraint '{f.type_str}')")
    return None


def _verify(op, schema, version):
    props = op._props
    attrs = schema.attributes
    for name, v in props.items():
        d = attrs.get(name)
        if d is None:
            return (f"has no attribute '{name}' in opset {version} of "
                    f"'{domain_key(schema.domain)}'")
        if d.kind == "GRAPH":
            return f"attribute '{name}' is a graph: it must be given as a region"
        c = _ATTR_KINDS.get(d.kind)
        if c is not None and not c.check(v):
            return f"attribute '{name}' failed to satisfy constraint: {c.summary}"
    for d in attrs.values():
        if d.required and d.kind != "GRAPH" and d.name not in props:
            return f"requires attribute '{d.name}'"
    bound = {}
    err = _check_values([o.value for o in op._operands], schema.inputs, schema.min_inputs,
                        schema.max_inputs, "operand", bound)
    if err:
        return err
    err = _check_values(op.results, schema.outputs, schema.min_outputs, schema.max_outputs,
                        "result", bound)
    if err:
        return err
    names = schema.regions
    regions = op.regions
    if len(regions) != len(names):
        if not names:
            return "requires zero regions"
        return (f"requires {len(names)} region{'s' if len(names) > 1 else ''} "
                f"({', '.join(names)}), but found {len(regions)}")
    for i, (r, name) in enumerate(zip(regions, names)):
        blocks = r.blocks
        if not blocks:
            if attrs[name].required:
                return f"region #{i} ('{name}') is required and must not be empty"
            continue
        if len(blocks) != 1:
            return (f"region #{i} ('{name}') failed to verify constraint: region with 1 "
                    "blocks")
        last = blocks[0].last
        if last is not None and type(last) is not YieldOp:
            return f"region #{i} ('{name}') must end with 'onnx.Yield'"
    return None


class OnnxOp(Op):
    """Base of the ONNX operator ops (made by `make_op_classes`)."""

    __slots__ = ()
    op_type: str = ""
    domain: str = ""

    def __init_subclass__(cls, **kw):
        # Declared by the schema table, not by ODS definitions: skip Op's scan.
        pass

    @property
    def schema(self):
        return schema_of(self)

    @classmethod
    def build(cls, operands=(), result_types=(), attributes=None, regions=0, loc=None,
              discardable=None, version=None):
        """Create the op; `attributes` maps ONNX attribute names to Attributes or
        Python values (converted by the kind the schema of opset `version` gives)."""
        props = {}
        if attributes:
            s = table.lookup(cls.op_type, cls.domain, version)
            for k, v in attributes.items():
                if v is None:
                    continue
                if not isinstance(v, A.Attribute):
                    d = s.attributes.get(k) if s is not None else None
                    if d is None:
                        raise ValueError(f"{cls.name} has no attribute '{k}'")
                    v = attribute_from_python(d.kind, v)
                props[k] = v
        return cls.create(operands, result_types, props, discardable, (), regions, loc)

    def verify_invariants(self):
        cls = type(self)
        version = opset_version(self)
        schema = table.lookup(cls.op_type, cls.domain, version)
        if schema is None:
            first = table.versions(cls.op_type, cls.domain)[0]
            return (f"is not defined in opset {version} of '{domain_key(cls.domain)}' "
                    f"(it first appears in opset {first})")
        return _verify(self, schema, version)


class NoValueOp(Op):
    """`%n = "onnx.NoValue"() : () -> none`: an omitted optional input."""

    name = "onnx.NoValue"
    traits = (T.Pure,)
    result = Result(C.Constraint(lambda t: t is _NONE, "none type"))


class YieldOp(Op):
    """`"onnx.Yield"(%a, %b) : (tensor<f32>, tensor<i1>) -> ()`: the outputs of an ONNX
    subgraph (a region of If, Loop, Scan...)."""

    name = "onnx.Yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator)
    operands_ = VarOperand()

    def verify_(self):
        if not isinstance(self.parent_op, OnnxOp):
            return "expects parent op to be an onnx op with a graph attribute"
        return None


def _suffix(domain):
    return domain[len("ai.onnx."):] if domain.startswith("ai.onnx.") else domain


def _class_name(op_name):
    return "".join(p[:1].upper() + p[1:] for p in op_name.split(".")[1:]) + "Op"


def make_op_classes():
    """One OnnxOp subclass per operator of the table: {(domain, op_type): class}."""
    entries = list(table.op_types())
    in_default = {e[1] for e in entries if e[0] == ""}
    domains_of = {}
    for e in entries:
        domains_of.setdefault(e[1], []).append(e[0])
    classes = {}
    for dom, op_type, attr_names, regions, deterministic in entries:
        if dom and (op_type in in_default or len(domains_of[op_type]) > 1):
            name = f"onnx.{_suffix(dom)}.{op_type}"
        else:
            name = f"onnx.{op_type}"
        if regions:
            traits = (T.RecursiveMemoryEffects,)
        elif deterministic:
            traits = (T.Pure,)
        else:
            traits = ()
        doc = f"ONNX operator {op_type} of domain {domain_key(dom)}: `{name}`."
        classes[(dom, op_type)] = type(OnnxOp)(_class_name(name), (OnnxOp,), {
            "__slots__": (), "__doc__": doc, "__module__": __name__, "name": name,
            "op_type": op_type, "domain": dom, "traits": traits,
            "_prop_names": attr_names})
    return classes
