"""ONNX operator schemas as objects, read from the generated table (schemas.py).

`lookup(op_type, domain, version)` is the schema that applies at an opset version: the
newest one whose since_version is not above it. Domains are named as in ONNX ("" is the
default domain, "ai.onnx" is accepted for it). A schema's text is parsed into an
`OpSchema` the first time it is asked for.
"""
from __future__ import annotations

import json

from .schemas import OPSET_VERSIONS, SCHEMAS, TYPE_SETS

__all__ = ["OpSchema", "Formal", "AttrDef", "SINGLE", "OPTIONAL", "VARIADIC", "lookup",
           "versions", "latest_opset", "canonical_domain", "op_types", "DOMAINS"]

SINGLE, OPTIONAL, VARIADIC = 0, 1, 2

DOMAINS = tuple(SCHEMAS)


def canonical_domain(domain: str) -> str:
    """ONNX's name of a domain: "ai.onnx" is the default domain ""."""
    return "" if domain == "ai.onnx" else domain


def latest_opset(domain: str = "") -> int | None:
    """The newest opset version of `domain` that onnx (the table's source) knows."""
    return OPSET_VERSIONS.get(canonical_domain(domain))


class Formal:
    """An input or output of a schema. `allowed` is the set of ONNX type strings it
    accepts; `homogeneous` (variadic ones) says whether all its values share one type."""

    __slots__ = ("name", "type_str", "option", "homogeneous", "allowed")

    def __init__(self, text, constraints):
        name, _, t = text.partition(":")
        self.homogeneous = True
        if t.endswith("*~"):
            t, self.option, self.homogeneous = t[:-2], VARIADIC, False
        elif t.endswith("*"):
            t, self.option = t[:-1], VARIADIC
        elif t.endswith("?"):
            t, self.option = t[:-1], OPTIONAL
        else:
            self.option = SINGLE
        self.name = name
        self.type_str = t
        self.allowed = constraints.get(t) or frozenset((t,))

    @property
    def is_optional(self):
        return self.option == OPTIONAL

    @property
    def is_variadic(self):
        return self.option == VARIADIC

    def __repr__(self):
        return f"<Formal {self.name}: {self.type_str}{('', '?', '*')[self.option]}>"


class AttrDef:
    """An attribute of a schema: `kind` as ONNX's AttributeProto type names ("INT",
    "FLOATS", "GRAPH"...), `default` a Python value (lists for the plural kinds)."""

    __slots__ = ("name", "kind", "required", "_default")

    def __init__(self, text):
        name, _, rest = text.partition(":")
        kind, eq, default = rest.partition("=")
        self.required = kind.endswith("!")
        self.kind = kind.rstrip("!")
        self.name = name
        self._default = json.loads(default) if eq else None

    @property
    def default(self):
        d = self._default
        return list(d) if isinstance(d, list) else d

    def __repr__(self):
        return f"<AttrDef {self.name}: {self.kind}{'!' if self.required else ''}>"


class OpSchema:
    """One version of an ONNX operator."""

    __slots__ = ("domain", "op_type", "since_version", "flags", "min_inputs", "max_inputs",
                 "min_outputs", "max_outputs", "inputs", "outputs", "attributes",
                 "type_constraints", "regions", "plan")

    def __init__(self, domain, text):
        f = text.split(" | ")
        op_type, since, flags = f[0].split()
        self.domain = domain
        self.op_type = op_type
        self.since_version = int(since)
        self.flags = int(flags)
        self.min_inputs, self.max_inputs, self.min_outputs, self.max_outputs = \
            map(int, f[1].split())
        tcs = {}
        for c in f[5].split():
            name, _, idx = c.partition(":")
            tcs[name] = frozenset(t.replace(",", ", ") for t in TYPE_SETS[int(idx)].split())
        self.type_constraints = tcs
        self.inputs = tuple(Formal(x, tcs) for x in f[2].split())
        self.outputs = tuple(Formal(x, tcs) for x in f[3].split())
        self.attributes = {a.name: a for a in map(AttrDef, f[4].split())}
        self.regions = tuple(f[6].split())
        self.plan = None  # the verifier's cache

    @property
    def has_function(self) -> bool:
        return bool(self.flags & 1)

    @property
    def has_context_dependent_function(self) -> bool:
        return bool(self.flags & 2)

    @property
    def deprecated(self) -> bool:
        return bool(self.flags & 4)

    @property
    def deterministic(self) -> bool:
        return not self.flags & 8

    def __repr__(self):
        d = f"{self.domain}." if self.domain else ""
        return f"<OpSchema {d}{self.op_type}-{self.since_version}>"


# (domain, op_type) -> [[since_version, text or OpSchema], ...] ascending
_INDEX: dict = {}
# (domain, op_type) -> [attribute names of all versions, any version has regions,
#                       flags of the newest version]
_SUMMARY: dict = {}


def _build_index():
    for domain, texts in SCHEMAS.items():
        for text in texts:
            head, _, rest = text.partition(" | ")
            op_type, since, flags = head.split()
            key = (domain, op_type)
            _INDEX.setdefault(key, []).append([int(since), text])
            fields = rest.split(" | ")
            summary = _SUMMARY.get(key)
            if summary is None:
                summary = _SUMMARY[key] = [set(), False, 0]
            if fields[3]:
                summary[0].update(a.partition(":")[0] for a in fields[3].split())
            if fields[5].strip():
                summary[1] = True
            summary[2] = int(flags)


_build_index()


def op_types():
    """(domain, op_type, attribute names of all versions, whether some version has
    regions, whether the newest version is deterministic) of every operator."""
    for key, (names, regions, flags) in _SUMMARY.items():
        yield key[0], key[1], frozenset(names), regions, not flags & 8


def versions(op_type: str, domain: str = "") -> list[int]:
    """The since_versions of an operator, ascending ([] when unknown)."""
    return [v for v, _ in _INDEX.get((canonical_domain(domain), op_type), ())]


def lookup(op_type: str, domain: str = "", version: int | None = None) -> OpSchema | None:
    """The schema of `op_type` that applies at opset `version` of `domain` (the newest
    by default); None when the operator is unknown or newer than `version`."""
    domain = canonical_domain(domain)
    entries = _INDEX.get((domain, op_type))
    if not entries:
        return None
    chosen = None
    if version is None:
        chosen = entries[-1]
    else:
        for e in reversed(entries):
            if e[0] <= version:
                chosen = e
                break
        if chosen is None:
            return None
    s = chosen[1]
    if type(s) is str:
        s = chosen[1] = OpSchema(domain, s)
    return s
