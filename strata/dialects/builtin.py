"""The builtin dialect: `builtin.module` and `builtin.unrealized_conversion_cast`."""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.ods import Op, OptProp, Prop, RegionDef, VarOperand, VarResult
from ..syntax.asm_format import SymbolName, install_format, parse_strict_attr_dict


class ModuleOp(Op):
    """A top-level container: `module @name attributes {...} { ... }`."""

    name = "builtin.module"
    traits = (T.IsolatedFromAbove, T.NoTerminator, T.SymbolTable, T.SingleBlock,
              T.NoRegionArguments, T.GraphRegion, T.AffineScope)
    default_dialect = "builtin"
    sym_name = OptProp(C.StrAttr)
    sym_visibility = OptProp(C.StrAttr)
    body = RegionDef(single_block=True)

    @classmethod
    def new(cls, ops=(), name=None, loc=None):
        m = cls.build(loc=loc, sym_name=A.StringAttr(name) if name else None)
        b = m.regions[0].add_block()
        for op in ops:
            b.append(op)
        return m

    @property
    def block(self):
        return self.regions[0].block

    def verify_(self):
        for k in self.attributes:
            if "." not in k:
                return (f"can only contain attributes with dialect-prefixed names, found: "
                        f"'{k}'")
        return None

    @staticmethod
    def parse(p, st):
        if p.kind in (3, 11):  # @name
            st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
        if p.at("<"):  # properties: `<sym_visibility = "private">` (or `<{...}>`)
            p._next()
            if p.at("{"):
                st.properties.update(p.parse_attr_dict_body())
            else:
                while True:
                    key = p.parse_keyword()
                    p.expect("=")
                    st.properties[key] = p.parse_attribute()
                    if not p.consume_if(","):
                        break
            p.expect(">")
        parse_strict_attr_dict(p, st, with_keyword=True)  # as its declarative format
        r = p.parse_region(isolated=True, op_cls=ModuleOp)
        if not r.blocks:
            r.add_block()
        st.regions.append(r)

    def print(self, pr):
        out = pr.out
        out.append("module")
        name = self.properties.get("sym_name")
        if name is not None:
            out.append(" " + A.print_symbol_name(name.value))
        props = sorted((k, v) for k, v in self._props.items() if k != "sym_name")
        if props:
            out.append(" <" + pr.attr_dict_entries(props) + ">")
        pr.print_optional_attr_dict(dict(self._attrs), with_keyword=True)
        out.append(" ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=False)


class UnrealizedConversionCastOp(Op):
    """`%r = builtin.unrealized_conversion_cast %a : i32 to i64`"""

    name = "builtin.unrealized_conversion_cast"
    traits = (T.Pure,)
    inputs = VarOperand()
    outputs = VarResult()
    assembly = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"

    def verify_(self):
        if not self.results:
            return "expected at least one result for cast operation"
        return None

    def fold(self, operands):
        """Upstream's fold: a cast to its inputs' own types is its inputs; a cast of all
        the results of another cast, back to that cast's input types, is those inputs.
        Never to one of its own results (a graph region may feed a cast itself)."""
        ins = list(self.operands)
        out_types = [r.type for r in self.results]
        if [v.type for v in ins] == out_types:
            folded = ins
        elif ins:
            inner = ins[0].defining_op
            if type(inner) is not UnrealizedConversionCastOp or \
                    len(inner.results) != len(ins) or \
                    any(a is not b for a, b in zip(inner.results, ins)) or \
                    [v.type for v in inner.operands] != out_types:
                return None
            folded = list(inner.operands)
        else:
            return None
        if any(getattr(v, "owner", None) is self for v in folded):
            return None
        return folded[0] if len(folded) == 1 else folded


install_format(UnrealizedConversionCastOp)

BUILTIN = Dialect("builtin", [ModuleOp, UnrealizedConversionCastOp])
