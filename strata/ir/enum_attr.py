"""Dialect enum and bit-enum attributes, e.g. `#arith.fastmath<nnan,ninf>`.

An `EnumAttrKind` describes one such attribute (dialect, mnemonic, the case names, and
whether several cases combine as bit flags); `kind(value)` gives the uniqued attribute.
"""
from __future__ import annotations

from .attributes import Attribute, unique


class EnumAttr(Attribute):
    __slots__ = ("kind", "value")

    def __new__(cls, kind: "EnumAttrKind", value: str):
        def init(o):
            o.kind = kind
            o.value = value
        return unique(cls, (kind, value), init)

    @property
    def flags(self) -> frozenset:
        return frozenset(self.value.split(",")) - {self.kind.none}

    def _print(self):
        return f"#{self.kind.dialect}.{self.kind.mnemonic}<{self.value}>"


class EnumAttrKind:
    """cases: names in canonical print order. For bit enums, `none` names the empty set
    and `all_name` the full set (e.g. arith's `fast`), `groups` maps names that stand for
    several flags."""

    def __init__(self, dialect, mnemonic, cases, bit=False, none=None, groups=None,
                 separator=",", cpp_name=None):
        self.dialect = dialect
        # Upstream's C++ enum name, used in its parse errors ("::mlir::arith::FastMathFlags").
        self.cpp_name = cpp_name
        self.mnemonic = mnemonic
        self.cases = list(cases)
        self.bit = bit
        self.none = none
        self.groups = groups or {}
        self.separator = separator

    def __call__(self, value: str | None = None) -> EnumAttr:
        if value is None:
            value = self.none
        return EnumAttr(self, self.canonical(value))

    def canonical(self, value: str) -> str:
        if not self.bit:
            if value not in self.cases:
                raise ValueError(f"expected one of [{', '.join(self.cases)}] for "
                                 f"{self.mnemonic}, got: {value}")
            return value
        flags = set()
        for part in value.replace(" ", "").split(","):  # canonical() re-joins
            if part == self.none:
                continue
            if part in self.groups:
                flags |= set(self.groups[part])
            elif part in self.cases:
                flags.add(part)
            else:
                raise ValueError(f"expected one of [{', '.join([self.none] + self.cases + list(self.groups))}]"
                                 f" for {self.mnemonic}, got: {part}")
        if not flags:
            return self.none
        for name, members in self.groups.items():  # print the group name if it is exact
            if flags == set(members):
                return name
        return self.separator.join(c for c in self.cases if c in flags)

    def parse_body(self, p) -> EnumAttr:
        """Parse `<case, case>` after the mnemonic."""
        p.expect("<")
        parts = []
        while True:
            if p.kind not in (8, 9):
                p.error(f"expected valid keyword or string")
            part = p.tok if p.kind == 8 else p.tok[1:-1]
            if self.cpp_name and part not in self.cases and part != self.none and \
                    part not in self.groups:
                # Upstream's wording, at the offending keyword (custom forms prefix it).
                names = ([self.none] if self.bit else []) + self.cases + list(self.groups)
                op = getattr(p, "custom_op_name", None)
                p.error((f"custom op '{op}' " if op else "") + f"expected {self.cpp_name} "
                        f"to be one of: {', '.join(names)}")
            parts.append(part)
            p._next()
            if not (self.bit and p.consume_if(",")):
                break
        p.expect(">")
        try:
            return self(",".join(parts))
        except ValueError as e:
            p.error(str(e))
