"""Custom syntax shared by function-like ops (func.func, ml_program.func, ...):

    func.func private @name(%arg0: i32 {attr}, %arg1: f32) -> (i32 {attr}) attributes {...} {

as upstream's function_interface_impl prints it.
"""
from __future__ import annotations

from ..ir import attributes as A
from .lexer import PERCENT, PUNCT

_SIGNATURE_ATTRS = frozenset({"sym_name", "function_type", "sym_visibility", "arg_attrs",
                              "res_attrs"})


def parse_function_op(p, st, allow_variadic=False):
    if p.kind == 9:  # visibility string, e.g. "private"? upstream uses a keyword
        pass
    for vis in ("private", "public", "nested"):
        if p.parse_optional_keyword(vis):
            st.properties["sym_visibility"] = A.StringAttr(vis)
            break
    st.properties["sym_name"] = A.StringAttr(p.parse_symbol_name())
    p.expect("(")
    args = []  # (key, offset, type, loc) when named
    arg_types, arg_attrs = [], []
    named = None
    if not p.consume_if(")"):
        while True:
            if p.kind == PERCENT:
                if named is False:
                    p.error(p._custom_prefix() + "expected type instead of SSA identifier", p.tok_start)
                named = True
                ref = p.parse_operand()
                p.expect(":")
                t = p.parse_type()
                attrs = _opt_dict(p)
                loc = p.parse_optional_trailing_loc()
                args.append((ref[0], ref[1], t, loc))
            else:
                if named:
                    p.error(p._custom_prefix() + "expected SSA identifier", p.tok_start)
                named = False
                t = p.parse_type()
                attrs = _opt_dict(p)
            arg_types.append(t)
            arg_attrs.append(attrs)
            if not p.consume_if(","):
                break
        p.expect(")")
    res_types, res_attrs = [], []
    if p.consume_if("->"):
        if p.at("("):
            p._next()
            if not p.consume_if(")"):
                while True:
                    res_types.append(p.parse_type())
                    res_attrs.append(_opt_dict(p))
                    if not p.consume_if(","):
                        break
                p.expect(")")
        else:
            res_types.append(p.parse_type())
            res_attrs.append(None)
    st.properties["function_type"] = A.TypeAttr(A.FunctionType(arg_types, res_types))
    inferred = {name: st.properties.get(name) for name in _INFERRED}
    dict_start = p.tok_start
    p.parse_optional_attr_dict(st, with_keyword=True)
    for name in _INFERRED:
        if st.properties.get(name) is not inferred[name]:
            p.error(p._custom_prefix() + f"'{name}' is an inferred attribute and should not "
                    "be specified in the explicit attribute dictionary", dict_start)
    # Attributes written in the signature are added after the dictionary, as upstream:
    # the dictionary may hold arg_attrs/res_attrs only when the signature has none.
    for key, given in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
        if any(given):
            if key in st.properties:
                p.error(p._custom_prefix() + f"attribute '{key}' occurs more than once in "
                        "the attribute list", getattr(p, "custom_op_offset", dict_start))
            st.properties[key] = A.ArrayAttr(A.DictionaryAttr(d or {}) for d in given)
    if p.kind == PUNCT and p.tok == "{":
        # Arguments given by type alone (`@f(f32) {`): the body names them in its own
        # entry block header (`^bb0(%a: f32):`), as upstream allows; the verifier
        # checks that block against the signature.
        r = p.parse_region(args=args if named else None, isolated=True, op_cls=st.cls)
        if not r.blocks:
            p.error("expected non-empty function body")
        st.regions.append(r)
    else:
        from ..ir.core import Region
        st.regions.append(Region())


# What the function syntax itself says (name, visibility keyword, signature): as upstream,
# `attributes {...}` may not restate them (it would silently override what is written).
_INFERRED = ("sym_visibility", "sym_name", "function_type")


def _opt_dict(p):
    if p.kind == PUNCT and p.tok == "{":
        return p.parse_attr_dict_body()
    return None


def print_function_op(op, pr):
    out = pr.out
    out.append(pr.op_name(op))
    props = op.properties
    vis = props.get("sym_visibility")
    if vis is not None:
        out.append(" " + vis.value)
    out.append(" " + A.print_symbol_name(props["sym_name"].value))
    ft = props["function_type"].value
    arg_attrs = props.get("arg_attrs")
    res_attrs = props.get("res_attrs")
    body = op.regions[0]
    parts = []
    entry = body.blocks[0] if body.blocks else None
    for i, t in enumerate(ft.inputs):
        s = f"{pr.value(entry.args[i])}: {pr.type_str(t)}" if entry is not None else \
            pr.type_str(t)
        if arg_attrs is not None and i < len(arg_attrs) and len(arg_attrs[i]):
            s += " " + pr.attr_str(arg_attrs[i])
        if entry is not None and pr.options.debuginfo and entry.args[i].loc is not None:
            s += " " + pr.loc_str(entry.args[i].loc)
        parts.append(s)
    out.append("(" + ", ".join(parts) + ")")
    if ft.results:
        rs = []
        any_attr = False
        for i, t in enumerate(ft.results):
            s = pr.type_str(t)
            if res_attrs is not None and i < len(res_attrs) and len(res_attrs[i]):
                s += " " + pr.attr_str(res_attrs[i])
                any_attr = True
            rs.append(s)
        if len(rs) == 1 and not any_attr and not isinstance(ft.results[0], A.FunctionType):
            out.append(" -> " + rs[0])
        else:
            out.append(" -> (" + ", ".join(rs) + ")")
    extra = {k: v for k, v in props.items() if k not in _SIGNATURE_ATTRS}
    extra.update(op.attributes)
    pr.print_optional_attr_dict(extra, with_keyword=True)
    if body.blocks:
        out.append(" ")
        pr.print_region(body, print_entry_args=False, print_terminators=True)
