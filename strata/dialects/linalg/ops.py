"""The structured ops with their own syntax: `linalg.map`, `linalg.reduce`,
`linalg.transpose`, `linalg.broadcast` and `linalg.elementwise`; and the destination-style
ops that are not structured: `linalg.softmax`, `linalg.pack`, `linalg.unpack`.

map and reduce print a one-op payload in short form, `linalg.map { arith.addf } ins(...)`
(`fastmath = none` left out), and parse it back to the same region: map's payload takes
the input elements, reduce's the accumulator first, then the inputs.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.affine import AffineMap, AffineMapAttr
from ...ir.core import Block, Region
from ...ir.enum_attr import EnumAttr
from ...ir.ods import Op, Operand, Prop, RegionDef, VarOperand, VarResult
from ...syntax.lexer import BARE, PUNCT
from .attrs import ELEMENTWISE_KIND, TERNARY_FNS, UNARY_FNS, enum_constraint
from .generic import AffineMapArrayAttr
from .named_base import NamedStructuredOp
from .structured import (StructuredOp, all_attrs, block_arg_type, has_buffer_operands,
                         ins_outs_single,
                         inverse_permutation, parse_attr_dict_checked, parse_i64_list,
                         parse_ins_outs_single, parse_maps, parse_structured_parts,
                         print_ins_outs, verify_destination_style)

__all__ = ["MapOp", "ReduceOp", "TransposeOp", "BroadcastOp", "ElementwiseOp", "SoftmaxOp",
           "OTHER_OPS"]

TensorOrMemref = C.Constraint(
    lambda t: type(t) is A.MemRefType or type(t) is A.RankedTensorType,
    "memref of any non-token type values or ranked tensor of any non-token type values")
AnyTensorResult = C.Constraint(
    lambda t: isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)),
    "tensor of any type values")
SortedDims = C.Constraint(
    lambda a: type(a) is A.DenseArrayAttr and a.element_type is A.i64 and
    all(x < y for x, y in zip(a.value, a.value[1:])),
    "i64 dense array attribute should be in increasing order")

_DPS_TRAITS = (T.SingleBlockImplicitTerminator("linalg.yield"), T.RecursiveMemoryEffects)


def _shape(t):
    return tuple(t.shape) if isinstance(t, A.ShapedType) and t.has_rank else ()


def _dims(shape) -> str:
    return ", ".join(str(d) for d in shape)


# ====================================================================== syntax helpers


def _parse_dst_style(p, st, required=None):
    """parseDstStyleOp: ins/outs, result types (the ranked tensor outputs), the required
    `name = [...]` array, then an optional attribute dictionary."""
    in_types, out_types = parse_structured_parts(p, st, segment_sizes=False)
    st.types = [t for t in out_types if type(t) is A.RankedTensorType]
    preset = set(st.properties)
    if required is not None:
        p.parse_keyword(required)
        p.expect("=")
        st.properties[required] = parse_i64_list(p)
        preset.add(required)
    parse_attr_dict_checked(p, st, preset)
    return in_types, out_types


def _print_int_list(pr, name, values):
    pr.out.append(f" {name} = [" + ", ".join(str(v) for v in values) + "] ")


def _value_loc(v):
    """Value::getLoc: a block argument's location or the defining op's."""
    from ...ir.location import UnknownLoc
    owner = getattr(v, "owner", None)
    loc = v.loc if isinstance(owner, Block) else getattr(owner, "loc", None)
    return loc if loc is not None else UnknownLoc()


def _identity_region(loc, values):
    """buildIdentityRegion: a block (its arguments at the locations of the operands)
    yielding its first argument."""
    from .generic import YieldOp
    region = Region()
    b = region.add_block(Block([block_arg_type(v.type) for v in values],
                               [_value_loc(v) for v in values]))
    if b.args:
        b.append(YieldOp.create([b.args[0]], [], None, None, (), 0, loc))
    return region


def _parse_short_form(p):
    """`{ dialect.op {attrs}? }` before ins/outs: (op name, attributes) or None."""
    if not (p.kind == PUNCT and p.tok == "{"):
        return None
    p._next()
    at = p.tok_start
    if p.kind != BARE:
        p.error("expected bare identifier or keyword")
    name = p.parse_keyword()
    cls = p.ctx.get_op(name)
    if cls is None:
        p.error(f"custom op '{p.custom_op_name}' unregistered operation '{name}' found in "
                "short form", at)
    attrs = p.parse_attr_dict_body() if (p.kind == PUNCT and p.tok == "{") else {}
    p.expect("}")
    return cls, attrs


def _short_form_region(cls, attrs, operand_types, loc, init_first):
    """addBodyWithPayloadOp: the payload op over the block arguments (the inputs for map;
    the accumulator then the inputs for reduce) and a yield of its result."""
    from .generic import YieldOp
    from ...ir.location import UnknownLoc
    region = Region()
    types = [block_arg_type(t) for t in operand_types]
    b = region.add_block(Block(types, [UnknownLoc()] * len(types)))
    args = list(b.args)
    operands = [args[-1]] + args[:-1] if init_first else args[:-1]
    props = {k: v for k, v in attrs.items() if k in getattr(cls, "_prop_names", ())}
    rest = {k: v for k, v in attrs.items() if k not in props}
    for k, default in getattr(cls, "_stored_defaults", ()):
        if props.get(k) is default:  # absent means default (see the generic parser)
            del props[k]
    op = cls.create(operands, [types[-1]], props, rest, (), 0, loc)
    b.append(op)
    b.append(YieldOp.create(list(op.results), [], None, None, (), 0, loc))
    return region


def _payload_op(block, init_first):
    """findPayloadOp: the single op of a short-form body, or None."""
    first = block.first
    if first is None or first.next is not block.last or first.regions:
        return None
    args = block.args
    ops = first.operands
    if init_first:
        if not ops or len(ops) != len(args) or ops[0] is not args[-1] or \
                any(a is not b for a, b in zip(ops[1:], args[:-1])):
            return None
    elif not ops or len(ops) != len(args) - 1 or any(a is not b for a, b in zip(ops, args)):
        return None
    y = block.last
    if len(first.results) != 1 or y.operands != list(first.results):
        return None
    return first


def _print_short_form(pr, op):
    pr.out.append(" { " + op.name)
    attrs = dict(pr.generic_properties(op))  # with the defaults upstream materializes
    attrs.update(op._attrs)
    for k, v in attrs.items():
        if isinstance(v, EnumAttr) and v.kind.mnemonic == "fastmath" and v.value == "none":
            del attrs[k]
            break
    pr.print_optional_attr_dict(attrs)
    pr.out.append(" }")


def _print_mapper(pr, region):
    """A full payload: on a new line, `(%in: f32, ...) { ... }`."""
    old = pr.indent
    pr.indent = old + "  "
    b = region.blocks[0]
    pr.out.append("\n" + pr.indent + "(" + ", ".join(pr._block_arg(a) for a in b.args) + ") ")
    pr.print_region(region, print_entry_args=False, print_terminators=True)
    pr.indent = old


def _parse_mapper(p, st, op_cls):
    if not (p.kind == PUNCT and p.tok == "("):
        p.error("expected '(' in argument list")
    args = p.parse_block_arg_list("(")
    st.regions.append(p.parse_region(args=args, op_cls=op_cls))


# ====================================================================== map / reduce


class _DstStructured(StructuredOp):
    """map, reduce, transpose, broadcast: structured ops with `input`/`init` operands."""

    traits = _DPS_TRAITS
    _out_arg_name = "init"

    @property
    def inputs(self):
        return self.dps_inputs

    @property
    def outputs(self):
        return self.dps_inits

    @property
    def init(self):
        return self.operand(len(self._operands) - 1)

    def init_rank(self):
        return len(_shape(self.init.type)) if self._operands else 0


class _WithPayload(_DstStructured):
    """map and reduce: a payload written out or in short form, `name = [...]` (reduce's
    dimensions) after the outs."""

    _init_first = False  # the short form's payload takes the accumulator first
    _array = None

    @classmethod
    def parse(cls, p, st):
        short = _parse_short_form(p)
        _parse_dst_style(p, st, cls._array)
        if short is None:
            _parse_mapper(p, st, cls)
        elif st.operands:
            st.regions.append(_short_form_region(
                short[0], short[1], [v.type for v in st.operands],
                p.loc_at(p.custom_op_offset), cls._init_first))
        else:
            st.regions.append(Region())

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        region = self.regions[0]
        payload = _payload_op(region.blocks[0], self._init_first) if region.blocks else None
        if payload is not None:
            _print_short_form(pr, payload)
        out.append(print_ins_outs(pr, self.dps_inputs, self.dps_inits))
        attrs = all_attrs(self)
        if self._array:
            _print_int_list(pr, self._array, list(attrs.pop(self._array).value))
        pr.print_optional_attr_dict(attrs)
        if payload is None and region.blocks:
            _print_mapper(pr, region)


class MapOp(_WithPayload):
    """`%r = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
    outs(%c : tensor<4xf32>)`: the payload applied to the elements of the inputs."""

    name = "linalg.map"
    inputs = VarOperand(TensorOrMemref)
    init = Operand(TensorOrMemref)
    result_ = VarResult(AnyTensorResult)  # upstream's `result` ([Note: field names])
    mapper = RegionDef(single_block=True)

    def asm_result_names(self):
        return ["mapped"]

    @classmethod
    def new(cls, inputs, init, body, loc=None):
        """`linalg.map` over `inputs` into `init`; `body(b, args)` builds the payload as
        for make_generic (args: the input elements, then the init's)."""
        from .structured import fill_payload
        inputs = list(inputs)
        results = [init.type] if type(init.type) is A.RankedTensorType else []
        op = cls.create(inputs + [init], results, None, None, (), 1, loc)
        fill_payload(op.regions[0], [v.type for v in inputs + [init]], body, loc)
        return op

    def num_dps_inputs(self):
        return len(self._operands) - 1

    def indexing_maps_list(self):
        ident = AffineMap.identity(self.init_rank())
        return [ident] * len(self._operands)

    def iterator_types_list(self):
        return ["parallel"] * self.init_rank()

    def verify_(self):
        block = self.regions[0].blocks[0]
        ins = self.dps_inputs
        if len(ins) + 1 != len(block.args):
            return ("expects number of operands to match the arity of mapper, but got: "
                    f"{len(ins) + 1} and {len(block.args)}")
        for a, v in zip(block.args, ins):
            et = v.type.element_type
            if a.type is not et:
                return f"expected element type of input '{et}' to match bbArg type '{a.type}'"
        out = _shape(self.init.type)
        for v in ins:
            if _shape(v.type) != out:
                return (f"expected shape of input ({_dims(_shape(v.type))}) to match shape "
                        f"of output ({_dims(out)})")
        return None



class ReduceOp(_WithPayload):
    """`%r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>)
    outs(%c : tensor<4xf32>) dimensions = [1]`"""

    name = "linalg.reduce"
    # Inputs then inits, as many of each (SameVariadicOperandSize).
    inputs_and_inits = VarOperand(TensorOrMemref)
    dimensions = Prop(SortedDims)
    result_ = VarResult(AnyTensorResult)  # upstream's `result` ([Note: field names])
    combiner = RegionDef(single_block=True)

    _init_first = True
    _array = "dimensions"

    def asm_result_names(self):
        return ["reduced"]

    @classmethod
    def new(cls, inputs, inits, dimensions, body, loc=None):
        """`linalg.reduce` of `inputs` along `dimensions` into `inits`; `body(b, args)`
        combines (args: the input elements, then the accumulators)."""
        from .structured import fill_payload
        inputs, inits = list(inputs), list(inits)
        results = [v.type for v in inits if type(v.type) is A.RankedTensorType]
        op = cls.create(inputs + inits, results,
                        {"dimensions": A.DenseArrayAttr(A.i64, list(dimensions))}, None, (),
                        1, loc)
        fill_payload(op.regions[0], [v.type for v in inputs + inits], body, loc)
        return op

    def num_dps_inputs(self):
        return len(self._operands) // 2

    @property
    def inits(self):
        return self.dps_inits

    def _reduced(self):
        return list(self._props["dimensions"].value)

    def _rank(self):
        return len(_shape(self.operand(0).type)) if self._operands else 0

    def iterator_types_list(self):
        red = set(self._reduced())
        return ["reduction" if d in red else "parallel" for d in range(self._rank())]

    def indexing_maps_list(self):
        from ...ir.affine import AffineDimExpr
        n = self._rank()
        red = set(self._reduced())
        ident = AffineMap.identity(n)
        init = AffineMap(n, 0, [AffineDimExpr(d) for d in range(n) if d not in red])
        k = self.num_dps_inputs()
        return [ident] * k + [init] * (len(self._operands) - k)

    def verify_(self):
        ins, inits = self.dps_inputs, self.dps_inits
        for i in range(1, len(ins)):
            if _shape(ins[i].type) != _shape(ins[0].type):
                return ("expects all inputs to have the same shapes. Shape at input-index "
                        f"{i} is not equal to the shape at input-index 0.")
        for i in range(1, len(inits)):
            if _shape(inits[i].type) != _shape(inits[0].type):
                return ("expects all outputs to have the same shapes. Shape at "
                        f"output-index {i} is not equal to the shape at output-index 0.")
        in_shape, init_shape = _shape(ins[0].type), _shape(inits[0].type)
        rank = len(in_shape)
        dims = self._reduced()
        for d in dims:
            if d < 0 or d >= rank:
                return f"dimensions for reduction should be in the range [0, {rank - 1}]."
        kept = [s for i, s in enumerate(in_shape) if i not in set(dims)]
        if len(kept) != len(init_shape):
            return (f"number of dimensions after reduction {len(kept)} doesn't match the "
                    f"init rank {len(init_shape)}")
        if tuple(kept) != init_shape:
            return (f"init dimensions [{_dims(init_shape)}] doesn't match input dimensions "
                    f"after reduction [{_dims(kept)}]")
        block = self.regions[0].blocks[0]
        if len(block.args) != len(self._operands):
            return "mismatching number of operands and block arguments"
        for v, a in zip(ins, block.args):
            if v.type.element_type is not a.type:
                return (f"input element type '{v.type.element_type}' does not match "
                        f"corresponding block argument type '{a.type}'")
        for v, a in zip(inits, block.args[len(block.args) - len(inits):]):
            if v.type.element_type is not a.type:
                return (f"output element type '{v.type.element_type}' does not match "
                        f"corresponding block argument type '{a.type}'")
        return None



# ====================================================================== transpose / broadcast


class _Identity(_DstStructured):
    """transpose and broadcast: an identity payload, `name = [...]` after outs."""

    input = Operand(TensorOrMemref)
    init = Operand(TensorOrMemref)
    result_ = VarResult(AnyTensorResult)  # upstream's `result` ([Note: field names])
    region = RegionDef(single_block=True)
    _array = ""

    def num_dps_inputs(self):
        return 1

    def iterator_types_list(self):
        return ["parallel"] * self.init_rank()

    @classmethod
    def new(cls, input, init, values, loc=None):
        """The op with its identity payload; `values` the permutation or dimensions."""
        results = [init.type] if type(init.type) is A.RankedTensorType else []
        op = cls.create([input, init], results, {cls._array: A.DenseArrayAttr(A.i64, values)},
                        None, (), [_identity_region(loc, [input, init])], loc)
        return op

    @classmethod
    def parse(cls, p, st):
        _parse_dst_style(p, st, cls._array)
        st.regions.append(_identity_region(p.loc_at(p.custom_op_offset), st.operands))

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        out.append(print_ins_outs(pr, self.dps_inputs, self.dps_inits))
        _print_int_list(pr, self._array, list(self._props[self._array].value))
        attrs = all_attrs(self)
        attrs.pop(self._array, None)
        pr.print_optional_attr_dict(attrs)


class TransposeOp(_Identity):
    """`%t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>)
    permutation = [1, 0]`: init[i, j] = input[j, i]."""

    name = "linalg.transpose"
    permutation = Prop(C.DenseI64Array)
    _array = "permutation"

    def asm_result_names(self):
        return ["transposed"]

    def fold(self, operands):
        """TransposeOp::fold: a transpose of a tensor by the identity permutation is its
        input (else the memref.cast fold of every linalg op)."""
        perm = list(self._props["permutation"].value)
        if type(self.operand(0).type) is A.RankedTensorType and \
                perm == list(range(len(perm))):
            return [self.operand(0)]
        return super().fold(operands)

    def indexing_maps_list(self):
        perm = list(self._props["permutation"].value)
        n = self.init_rank()
        if sorted(perm) != list(range(len(perm))):
            return [AffineMap.identity(n)] * 2
        inv = inverse_permutation(AffineMap.get_permutation_map(perm))
        return [inv, AffineMap.identity(n)]

    def verify_(self):
        perm = list(self._props["permutation"].value)
        if sorted(perm) != list(range(len(perm))):
            return "permutation is not valid"
        a, b = _shape(self.operand(0).type), _shape(self.operand(1).type)
        if len(a) != len(b):
            return f"input rank ({len(a)}) does not match init rank ({len(b)})"
        if len(a) != len(perm):
            return f"size of permutation {len(perm)} does not match the argument rank {len(a)}"
        for i, p in enumerate(perm):
            if a[p] != b[i]:
                return (f"dim(result, {i}) = {b[i]} doesn't match dim(input, permutation[{i}]) "
                        f"= {a[p]}")
        return None


class BroadcastOp(_Identity):
    """`%b = linalg.broadcast ins(%a : tensor<4xf32>) outs(%c : tensor<4x8xf32>)
    dimensions = [1]`: the input repeated along the added dimensions."""

    name = "linalg.broadcast"
    dimensions = Prop(C.DenseI64Array)
    _array = "dimensions"

    def asm_result_names(self):
        return ["broadcasted"]

    def indexing_maps_list(self):
        from ...ir.affine import AffineDimExpr
        n = self.init_rank()
        added = set(self._props["dimensions"].value)
        return [AffineMap(n, 0, [AffineDimExpr(d) for d in range(n) if d not in added]),
                AffineMap.identity(n)]

    def verify_(self):
        dims = list(self._props["dimensions"].value)
        a, b = _shape(self.operand(0).type), _shape(self.operand(1).type)
        if len(a) + len(dims) != len(b):
            return ("input rank plus added dimensions does not match init rank. input rank: "
                    f"{len(a)}, dimensions size: {len(dims)}, init rank: {len(b)}")
        for i, d in enumerate(dims):
            if d < 0 or d >= len(b):
                return (f"dimension {i} is out of range. expected range: [0, {len(b) - 1}], "
                        f"got: {d}")
        kept = [d for d in range(len(b)) if d not in dims]
        for i, d in enumerate(kept):
            if a[i] != b[d]:
                return (f"input dim {i} should match init dim {d}. input: {a[i]}, init: "
                        f"{b[d]}")
        return None


# ====================================================================== elementwise


def _arity(kind: str) -> int:
    if kind in UNARY_FNS:
        return 1
    return 3 if kind in TERNARY_FNS else 2


class ElementwiseOp(NamedStructuredOp):
    """`%r = linalg.elementwise <add> ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
    outs(%c : tensor<4xf32>) -> tensor<4xf32>`: an elementwise function (with optional
    `indexing_maps = [...]` for transposed or broadcast operands)."""

    name = "linalg.elementwise"
    kind = Prop(enum_constraint(ELEMENTWISE_KIND, "allowed 32-bit signless integer cases: "
                                + ", ".join(str(i) for i in range(36))))
    indexing_maps = Prop(AffineMapArrayAttr, default=A.ArrayAttr([]))
    _elided = ("operandSegmentSizes", "kind", "indexing_maps")

    @classmethod
    def payload(cls, b, args, props):
        k = props["kind"].value
        n = _arity(k)
        if n == 1:
            return b.unary(k, args[0])
        if n == 2:
            return b.binary(k, args[0], args[1])
        return b.ternary(k, args[0], args[1], args[2])

    @classmethod
    def region_arg_count(cls, st):
        return _arity(st.properties["kind"].value) + 1

    @classmethod
    def default_maps(cls, arity, rank):
        return [AffineMap.identity(rank)] * (arity + 1)

    @classmethod
    def default_properties(cls, props):
        return {}

    def compute_indexing_maps(self):
        a = self._props.get("indexing_maps")
        return [m.value for m in a.value] if a is not None else []

    def iterator_types_list(self):
        return ["parallel"] * self.init_rank()

    @classmethod
    def parse_prefix(cls, p, st):
        st.properties["kind"] = ELEMENTWISE_KIND.parse_body(p)
        maps = parse_maps(p, st)
        if maps is not None:
            st.properties["indexing_maps"] = maps

    @classmethod
    def parse_suffix(cls, p, st):
        if "indexing_maps" not in st.properties:
            last = st.operands[-1].type if st.operands else None
            if not isinstance(last, A.ShapedType):
                p.error(f"custom op '{cls.name}' return type needs to be shaped type")
            maps = cls.default_maps(_arity(st.properties["kind"].value), last.rank)
            st.properties["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])

    @classmethod
    def new(cls, inputs, outputs, result_types=None, loc=None, attributes=None, **props):
        """`kind` (a name or the attribute) is required; identity maps by default."""
        kind = props.get("kind")
        if isinstance(kind, str):
            props["kind"] = ELEMENTWISE_KIND(kind)
        if props.get("indexing_maps") is None and outputs:
            rank = len(_shape(list(outputs)[0].type))
            maps = cls.default_maps(_arity(props["kind"].value), rank)
            props["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
        return super().new(inputs, outputs, result_types, loc, attributes, **props)

    def print_prefix(self, pr):
        kind = self._props.get("kind")
        pr.out.append(f" <{kind.value}>")
        maps = self.compute_indexing_maps()
        if maps != self.default_maps(_arity(kind.value), self.init_rank()):
            from .contraction import maps_text
            pr.out.append(maps_text(pr, self._props["indexing_maps"]))


# ====================================================================== softmax


class SoftmaxOp(Op):
    """`%r = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>)
    outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>`"""

    name = "linalg.softmax"
    traits = (T.NoMemoryEffect,)  # on tensors; operand_memory_effects adds buffers
    input = Operand(C.AnyShaped)
    output = Operand(C.AnyShaped)
    dimension = Prop(C.I64Attr)
    result_ = VarResult(C.AnyRankedTensor)  # upstream's `result` ([Note: field names])

    def num_dps_inputs(self):
        return 1

    def operand_memory_effects(self) -> bool:
        """Like every linalg op: effects on buffers only, so a dead softmax on tensors
        is erased."""
        return has_buffer_operands(self)

    @classmethod
    def new(cls, input, output, dimension, loc=None):
        results = [output.type] if type(output.type) is A.RankedTensorType else []
        return cls.create([input, output], results,
                          {"dimension": A.IntegerAttr(dimension, A.i64)}, None, (), 0, loc)

    def verify_(self):
        err = verify_destination_style(self)
        if err:
            return err
        a, b = self.operand(0).type, self.operand(1).type
        sa, sb = _shape(a), _shape(b)
        if len(sa) != len(sb) or any(x != y and x != A.DYNAMIC and y != A.DYNAMIC
                                     for x, y in zip(sa, sb)):
            return "incompatible output shape"
        d = self._props["dimension"].value
        if d < 0 or d >= len(sa):
            return "incorrect dimension specified"
        return None

    @staticmethod
    def parse(p, st):
        p.parse_optional_attr_dict(st)
        p.parse_keyword("dimension")
        p.expect("(")
        st.properties["dimension"] = A.IntegerAttr(p.parse_integer(), A.i64)
        p.expect(")")
        st.operands = parse_ins_outs_single(p)
        if p.consume_if("->"):
            st.types = p.parse_type_list()

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        pr.print_optional_attr_dict(self.attributes)
        out.append(f" dimension({self._props['dimension'].value})")
        out.append(ins_outs_single(pr, *self.operands))
        if self.results:
            out.append(" -> " + ", ".join(pr.type_str(r.type) for r in self.results))


OTHER_OPS = [MapOp, ReduceOp, TransposeOp, BroadcastOp, ElementwiseOp, SoftmaxOp]
