"""Custom directives shared by shaped ops: mixed static/dynamic index lists and
reassociation lists.

`custom<DynamicIndexList>($offsets, $static_offsets)` reads `[%a, 0, 4]`: each entry is
an SSA value of type `index` or an integer. The integers go to a dense i64 array property
(`static_offsets = array<i64: -9223372036854775808, 0, 4>`) where DYNAMIC marks the
positions taken, in order, by the values of the matching variadic operand group. The
same list syntax serves tensor.extract_slice, tensor.pad (`low[...]`), memref.subview,
tensor.expand_shape (`output_shape [...]`) and the linalg/vector ops; options cover the
variants upstream has: another delimiter, scalable entries `[[4]]` (vector) and typed
values `%v : index` (transform).

`[[0, 1], [2]]` (ReassociationIndices) is an ArrayAttr of ArrayAttrs of i64 integers;
`parse_reassociation` / `print_reassociation` read and write it as upstream prints it.

Ops that use the assembly-format engine inherit `DynamicIndexListDirective`, which
provides the `parse_DynamicIndexList` / `print_DynamicIndexList` hooks the engine calls.
"""
from __future__ import annotations

from ..ir import attributes as A
from .lexer import INT, PERCENT

__all__ = ["parse_dynamic_index_list", "print_dynamic_index_list", "DynamicIndexListDirective",
           "parse_reassociation", "print_reassociation", "mixed_values", "count_dynamic"]

_CLOSE = {"[": "]", "(": ")", "<": ">", "{": "}"}


def parse_dynamic_index_list(p, delimiter="[", allow_scalable=False, with_types=False):
    """Parse `[%a, 0, [4], %b : index]`.

    Returns (operand refs, integers with DYNAMIC for each value, scalable flags, value
    types or None). Scalable entries (`[4]` inside the list) are only read when
    `allow_scalable`; typed values only when `with_types`."""
    close = _CLOSE[delimiter]
    refs, ints, scalable, types = [], [], [], [] if with_types else None
    if not p.at(delimiter):
        p.error(f"expected '{delimiter}' in dynamic index list")
    p._next()
    if p.consume_if(close):
        return refs, ints, scalable, types
    while True:
        bracket = allow_scalable and p.at("[")
        if bracket:
            p._next()
        scalable.append(bracket)
        if p.kind == PERCENT:
            refs.append(p.parse_operand())
            ints.append(A.DYNAMIC)
            if with_types:
                p.expect(":")
                types.append(p.parse_type())
        elif p.kind == INT or p.at("-"):
            ints.append(p.parse_integer())
        else:
            p.error("expected SSA value or integer")
        if bracket:
            p.expect("]")
        if not p.consume_if(","):
            break
    p.expect(close, "in dynamic index list")
    return refs, ints, scalable, types


def print_dynamic_index_list(pr, values, ints, scalable=None, types=None,
                             delimiter="[") -> str:
    """The text of a mixed list: integers as written, DYNAMIC entries as the next value."""
    parts = []
    k = 0
    for i, v in enumerate(ints):
        if v == A.DYNAMIC:
            s = pr.value(values[k]) if k < len(values) else "<<MISSING VALUE>>"
            if types is not None and k < len(types):
                s += " : " + pr.type_str(types[k])
            k += 1
        else:
            s = str(v)
        if scalable and i < len(scalable) and scalable[i]:
            s = f"[{s}]"
        parts.append(s)
    return delimiter + ", ".join(parts) + _CLOSE[delimiter]


def count_dynamic(ints) -> int:
    return sum(1 for v in ints if v == A.DYNAMIC)


def mixed_values(ints, values):
    """OpFoldResult-like list: the integer, or the SSA value where the entry is dynamic."""
    out = []
    k = 0
    for v in ints:
        if v == A.DYNAMIC and k < len(values):
            out.append(values[k])
            k += 1
        else:
            out.append(v)
    return out


class DynamicIndexListDirective:
    """Mixin for ops whose assembly format has `custom<DynamicIndexList>($vals, $static)`.

    The dynamic values are always of type `index`."""

    __slots__ = ()

    @staticmethod
    def parse_DynamicIndexList(p, st, ctx, operand_def, prop_def, *rest):
        refs, ints, _, _ = parse_dynamic_index_list(p)
        ctx.operands[operand_def.name] = refs
        ctx.types[operand_def.name] = [A.index] * len(refs)
        st.properties[prop_def.name] = A.DenseArrayAttr(A.i64, ints)

    def print_DynamicIndexList(self, pr, values, attr, *rest):
        ints = attr.value if isinstance(attr, A.DenseArrayAttr) else ()
        return print_dynamic_index_list(pr, values or [], ints)


# ---------------------------------------------------------------- reassociation

def parse_reassociation(p):
    """`[[0, 1], [2]]` -> ArrayAttr of ArrayAttr of i64 IntegerAttr."""
    p.expect("[")
    groups = []
    if not p.consume_if("]"):
        while True:
            p.expect("[")
            group = []
            if not p.consume_if("]"):
                while True:
                    group.append(A.IntegerAttr(p.parse_integer(), A.i64))
                    if not p.consume_if(","):
                        break
                p.expect("]")
            groups.append(A.ArrayAttr(group))
            if not p.consume_if(","):
                break
        p.expect("]")
    return A.ArrayAttr(groups)


def print_reassociation(attr) -> str:
    return "[" + ", ".join(
        "[" + ", ".join(str(getattr(i, "value", i)) for i in g) + "]" for g in attr) + "]"


def reassociation_indices(attr):
    """The groups as lists of ints (None if the attribute has another shape)."""
    out = []
    for g in getattr(attr, "value", ()):
        if type(g) is not A.ArrayAttr:
            return None
        group = []
        for i in g.value:
            if type(i) is not A.IntegerAttr:
                return None
            group.append(i.value)
        out.append(group)
    return out
