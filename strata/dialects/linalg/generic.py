"""`linalg.generic`, its terminator `linalg.yield`, `linalg.index`, and `make_generic`,
the way to build a generic op from Python."""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.affine import AffineMapAttr
from ...ir.ods import Op, OptProp, Prop, RegionDef, Result, VarOperand, VarResult
from ...syntax.asm_format import BareInt
from .attrs import ITERATOR_TYPE, IteratorTypeArrayAttr, is_enum
from .structured import (StructuredOp, all_attrs, arrow_types, fill_payload, iterator_names,
                         parse_arrow_types, parse_structured_parts, print_ins_outs,
                         to_affine_map, to_iterator_attr)

__all__ = ["GenericOp", "YieldOp", "IndexOp", "make_generic", "AffineMapArrayAttr",
           "ShapedOperand", "RankedTensorResult"]

AffineMapArrayAttr = C.Constraint(
    lambda a: type(a) is A.ArrayAttr and all(type(m) is AffineMapAttr for m in a.value),
    "AffineMap array attribute")
ShapedOperand = C.Constraint(lambda t: isinstance(t, A.ShapedType),
                             "shaped of any non-token type values")
RankedTensorResult = C.Constraint(lambda t: type(t) is A.RankedTensorType,
                                  "ranked tensor of any non-token type values")
NonNegI64Attr = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i64 and a.value >= 0,
    "64-bit signless integer attribute whose minimum value is 0")

STRUCTURED_TRAITS = (T.AttrSizedOperandSegments,
                     T.SingleBlockImplicitTerminator("linalg.yield"),
                     T.RecursiveMemoryEffects)

# The attributes of the `{...}` dictionary of the custom form (linalgTraitAttrNames).
_TRAIT_ATTRS = ("doc", "indexing_maps", "iterator_types", "library_call")


class GenericOp(StructuredOp):
    """`%r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
    ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) { ^bb0(%in: f32, %out: f32): ...
    linalg.yield %x : f32 } -> tensor<4xf32>`"""

    name = "linalg.generic"
    traits = STRUCTURED_TRAITS
    inputs = VarOperand()
    outputs = VarOperand(ShapedOperand)
    doc = OptProp(C.StrAttr)
    indexing_maps = Prop(AffineMapArrayAttr)
    iterator_types = Prop(IteratorTypeArrayAttr)
    library_call = OptProp(C.StrAttr)
    result_tensors = VarResult(RankedTensorResult)
    region = RegionDef()

    def indexing_maps_list(self):
        a = self._props.get("indexing_maps")
        return [m.value for m in a.value] if type(a) is A.ArrayAttr else []

    def iterator_types_list(self):
        return iterator_names(self._props.get("iterator_types"))

    @staticmethod
    def parse(p, st):
        from ...syntax.lexer import PUNCT
        name = st.cls.name
        attr_at = p.tok_start
        if p.kind == PUNCT and p.tok == "{":
            d = p.parse_attr_dict_body()
        else:  # an alias of a dictionary (`#trait`)
            a = p.parse_attribute()
            if type(a) is not A.DictionaryAttr:
                p.error(f"custom op '{name}' invalid kind of attribute specified", attr_at)
            d = dict(a.value)
        its = d.get("iterator_types")
        if type(its) is not A.ArrayAttr:
            p.error(f"custom op '{name}' expected \"iterator_types\" array attribute",
                    attr_at)
        enums = []
        for s in its.value:
            v = s.value if type(s) is A.StringAttr else str(s)
            if type(s) is not A.StringAttr or v not in ITERATOR_TYPE.cases:
                p.error(f"custom op '{name}' unexpected iterator_type ({v})", p.tok_start)
            enums.append(ITERATOR_TYPE(v))
        d["iterator_types"] = A.ArrayAttr(enums)
        for k, v in d.items():
            (st.properties if k in st.cls._prop_names else st.attributes)[k] = v
        parse_structured_parts(p, st)
        if p.parse_optional_keyword("attrs"):
            p.expect("=")
            p.parse_optional_attr_dict(st)
        st.regions.append(p.parse_region(op_cls=GenericOp))
        st.types = parse_arrow_types(p)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self) + " ")
        attrs = all_attrs(self)
        trait = {}
        for k in _TRAIT_ATTRS:
            v = attrs.get(k)
            if v is None:
                continue
            if k == "iterator_types" and type(v) is A.ArrayAttr:
                v = A.ArrayAttr([A.StringAttr(x.value) if is_enum(x, ITERATOR_TYPE) else x
                                 for x in v.value])
            trait[k] = v
        if trait:
            out.append("{" + pr.attr_dict_entries(sorted(trait.items())) + "}")
        out.append(print_ins_outs(pr, self.inputs, self.outputs))
        extra = {k: v for k, v in attrs.items()
                 if k not in _TRAIT_ATTRS and k != "operandSegmentSizes"}
        if extra:
            out.append(" attrs = ")
            pr.print_optional_attr_dict(extra)
        region = self.regions[0]
        if region.blocks:
            out.append(" ")
            pr.print_region(region, print_entry_args=True, print_terminators=True)
        out.append(arrow_types(pr, [r.type for r in self.results]))


class YieldOp(Op):
    """`linalg.yield %a, %b : f32, i32`: the payload's element values for the outputs."""

    name = "linalg.yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator)
    values = VarOperand()

    @staticmethod
    def parse(p, st):
        at = p.tok_start
        refs = p.parse_operand_list()
        p.parse_optional_attr_dict(st)
        types = p.parse_colon_type_list() if refs else []
        st.operands = p.resolve_operands(refs, types, at)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        vals = self.operands
        if vals:
            out.append(" " + ", ".join(pr.value(v) for v in vals))
        pr.print_optional_attr_dict(self.attributes)
        if vals:
            out.append(" : " + ", ".join(pr.type_str(v.type) for v in vals))

    def verify_(self):
        parent = self.parent_op
        if parent is None or len(parent.regions) != 1 or not parent.regions[0].blocks:
            return "expected single non-empty parent region"
        if not isinstance(parent, StructuredOp):
            return "expected parent op with LinalgOp interface"
        inits = parent.dps_inits
        vals = self.operands
        if len(vals) != len(inits):
            return (f"expected number of yield values ({len(vals)}) to match the number of "
                    f"inits / outs operands of the enclosing LinalgOp ({len(inits)})")
        for i, (v, init) in enumerate(zip(vals, inits)):
            et = init.type
            if type(et) in (A.RankedTensorType, A.MemRefType):
                et = et.element_type
            if v.type is not et:
                return (f"type of yield operand {i + 1} ('{v.type}') doesn't match the "
                        f"element type of the enclosing linalg.generic op ('{et}')")
        return None


class IndexOp(Op):
    """`%i = linalg.index 0 : index`: the index of loop 0 of the enclosing op."""

    name = "linalg.index"
    traits = (T.Pure,)
    dim = Prop(NonNegI64Attr, fmt=BareInt())
    result = Result(C.Index)
    assembly = "$dim attr-dict `:` type($result)"

    def fold(self, operands):
        """The index of a loop of trip count 1 is 0 (upstream's IndexOp::fold)."""
        parent = self.parent_op
        if not isinstance(parent, StructuredOp):
            return None
        ranges = parent.static_loop_ranges()
        d = self._props["dim"].value
        if ranges is not None and d < len(ranges) and ranges[d] == 1:
            return A.IntegerAttr(0, A.index)
        return None

    def verify_(self):
        parent = self.parent_op
        if not isinstance(parent, StructuredOp):
            return "expected parent op with LinalgOp interface"
        n = parent.num_loops
        d = self._props["dim"].value
        if n <= d:
            return (f"expected dim ({d}) to be lower than the number of loops ({n}) of the "
                    "enclosing LinalgOp")
        return None


def make_generic(builder, inputs, outputs, indexing_maps, iterator_types, body,
                 result_types=None, doc=None, library_call=None, attributes=None, loc=None):
    """Create a `linalg.generic` at `builder`'s insertion point and return it.

    `indexing_maps`: one map per input then output (AffineMap, AffineMapAttr or text such
    as "(d0, d1) -> (d1)"); `iterator_types`: "parallel"/"reduction" per loop.
    `body(b, args)` fills the payload: `b` is a PayloadBuilder (a Builder with
    `binary`/`unary`/`cast`/`constant`/`index` helpers) at the end of the block, `args`
    the block arguments (input elements, then output elements); it returns the value or
    values to yield (or None after yielding itself). Result types default to the types
    of the tensor outputs.

        make_generic(b, [x], [init], ["(d0) -> (d0)"] * 2, ["parallel"],
                     lambda b, (a, o): b.unary("exp", a))
    """
    inputs, outputs = list(inputs), list(outputs)
    maps = A.ArrayAttr([AffineMapAttr(to_affine_map(m)) for m in indexing_maps])
    its = A.ArrayAttr([to_iterator_attr(t) for t in iterator_types])
    if result_types is None:
        result_types = [v.type for v in outputs
                        if isinstance(v.type, (A.RankedTensorType, A.UnrankedTensorType))]
    if loc is None:
        loc = builder.loc
    props = {"indexing_maps": maps, "iterator_types": its}
    if doc is not None:
        props["doc"] = A.StringAttr(doc) if isinstance(doc, str) else doc
    if library_call is not None:
        props["library_call"] = (A.StringAttr(library_call) if isinstance(library_call, str)
                                 else library_call)
    props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(inputs), len(outputs)])
    op = GenericOp.create(inputs + outputs, result_types, props, attributes, (), 1, loc)
    fill_payload(op.regions[0], [v.type for v in inputs + outputs], body, loc)
    builder.insert(op)
    return op
