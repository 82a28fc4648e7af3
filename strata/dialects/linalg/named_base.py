"""The base of linalg's named structured ops (`linalg.matmul`, `linalg.conv_2d_nhwc_hwcf`,
`linalg.fill`, ...): an op with `ins(...) outs(...)` syntax whose payload region is implied
by its name and attributes.

[Note: implicit regions]
A named op's custom form has no region: parsing it builds the payload exactly as upstream's
region builders do (same ops, same order, casts to the output element type, unknown
locations), so the generic form (which prints the region) round-trips with mlir-opt's.
Subclasses give `build_body(b, args)`; errors a payload cannot be built with are reported
at the first token after the op name, as upstream.

[Note: memoized indexing maps]
Upstream's OpDSL ops with fixed indexing maps compute them once and cache them in a
discardable attribute `linalg.memoized_indexing_maps` on first use, which is during
verification: after mlir-opt parses such an op, its generic form shows the attribute. The
ops here do the same (`indexing_maps_list`), and trust an attribute already present.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineMapAttr
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.core import Region
from ...ir.ods import RegionDef, VarOperand, VarResult
from .generic import STRUCTURED_TRAITS, RankedTensorResult, ShapedOperand
from .structured import (PayloadError, StructuredOp, all_attrs, arrow_types, fill_payload,
                         operand_rank, parse_arrow_types, parse_structured_parts,
                         print_ins_outs)

MEMO_ATTR = "linalg.memoized_indexing_maps"


class NamedStructuredOp(StructuredOp):
    """A structured op with an implicit payload (see the notes above)."""

    traits = STRUCTURED_TRAITS
    inputs = VarOperand()
    outputs = VarOperand(ShapedOperand)
    result_tensors = VarResult(RankedTensorResult)
    region = RegionDef()

    # How many block arguments the payload has (upstream's getNumRegionArgs).
    num_region_args = 3
    # Attributes the custom form never prints.
    _elided = ("operandSegmentSizes", MEMO_ATTR)
    # Whether indexing maps are cached in MEMO_ATTR (OpDSL ops with fixed maps).
    _memoize = False
    # Whether the op implements ContractionOpInterface (checks its payload).
    _contraction = False

    # -------------------------------------------------------------- payload

    @classmethod
    def payload(cls, b, args, props):
        """Fill the payload: `b` a PayloadBuilder, `args` the block arguments, `props`
        the op's properties; return the values to yield."""
        raise NotImplementedError

    def fill_body(self, loc=None):
        """Build the payload region (it must be empty)."""
        fill_payload(self.regions[0], self.operand_types,
                     lambda b, args: type(self).payload(b, args, self._props), loc)

    @classmethod
    def new(cls, inputs, outputs, result_types=None, loc=None, attributes=None, **props):
        """Create the op with its payload. Result types default to the tensor outputs';
        `props` are the op's properties, as attributes or plain Python values:
        `cast="cast_unsigned"`, `strides=[2, 2]`, `indexing_maps=["(d0, d1, d2) ->
        (d2, d0)", ...]`, `kind="add"`."""
        inputs, outputs = list(inputs), list(outputs)
        if result_types is None:
            result_types = [v.type for v in outputs if type(v.type) is A.RankedTensorType]
        p = {k: coerce_property(k, v) for k, v in props.items() if v is not None}
        p.update(cls.default_properties(p))
        p["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(inputs), len(outputs)])
        op = cls.create(inputs + outputs, result_types, p, attributes, (), 1, loc)
        op.fill_body()
        return op

    @classmethod
    def default_properties(cls, props) -> dict:
        """Properties upstream's builders and parsers always set (matmul's maps)."""
        return {}

    # -------------------------------------------------------------- maps

    def indexing_maps_list(self):
        if self._memoize:
            memo = self._attrs.get(MEMO_ATTR)
            if type(memo) is A.ArrayAttr and all(type(m) is AffineMapAttr for m in memo):
                return [m.value for m in memo]
        maps = self.compute_indexing_maps()
        if self._memoize:
            self.attributes[MEMO_ATTR] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
        return maps

    def compute_indexing_maps(self) -> list:
        raise NotImplementedError

    def init_rank(self) -> int:
        """The rank of the first init (the loop count of rank-polymorphic ops)."""
        inits = self.dps_inits
        return operand_rank(inits[0].type) if inits else 0

    # -------------------------------------------------------------- verification

    def verify_op_regions_(self):
        if self._contraction:
            err = contraction_error(self)
            if err:
                raise DiagnosticError(Diagnostic(ERROR, self.loc, err))
        return None

    # -------------------------------------------------------------- syntax

    @classmethod
    def parse(cls, p, st):
        start = p.tok_start
        cls.parse_prefix(p, st)
        in_types, out_types = parse_structured_parts(p, st)
        st.types = parse_arrow_types(p)
        n = len(in_types) + len(out_types)
        want = cls.region_arg_count(st)
        if n != want:
            p.error(f"custom op '{cls.name}' [parseNamedStructuredOpRegion] ods-gen "
                    f"generated region expects {want} args, got {n}")
        region = Region()
        try:
            fill_payload(region, in_types + out_types,
                         lambda b, args: cls.payload(b, args, st.properties))
        except PayloadError as e:
            d = Diagnostic(ERROR, p.loc_at(start).resolve(), f"custom op '{cls.name}' {e}")
            raise DiagnosticError(d, getattr(e, "warnings", ())) from None
        st.regions.append(region)
        cls.parse_suffix(p, st)

    @classmethod
    def parse_prefix(cls, p, st):
        """What comes before the attribute dictionary (matmul's `indexing_maps = [...]`)."""

    @classmethod
    def parse_suffix(cls, p, st):
        """Completes the state once the op's parts are parsed."""

    @classmethod
    def region_arg_count(cls, st) -> int:
        return cls.num_region_args

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        self.print_prefix(pr)
        attrs = {k: v for k, v in all_attrs(self).items() if k not in self._elided}
        pr.print_optional_attr_dict(attrs)
        out.append(print_ins_outs(pr, self.inputs, self.outputs))
        out.append(arrow_types(pr, [r.type for r in self.results]))

    def print_prefix(self, pr):
        pass


def coerce_property(name, value):
    """An attribute for a named op property given as a Python value (see `new`)."""
    if isinstance(value, A.Attribute):
        return value
    if name == "cast":
        from .attrs import TYPE_FN
        return TYPE_FN(value)
    if name == "kind":
        from .attrs import ELEMENTWISE_KIND
        return ELEMENTWISE_KIND(value)
    if name in ("strides", "dilations"):
        from ...ir.dense import DenseElementsAttr
        vals = [int(v) for v in value]
        return DenseElementsAttr(A.RankedTensorType([len(vals)], A.i64), vals)
    if name == "indexing_maps":
        from ...ir.affine import AffineMapAttr
        from .structured import to_affine_map
        return A.ArrayAttr([AffineMapAttr(to_affine_map(m)) for m in value])
    raise TypeError(f"cannot make the '{name}' property from {value!r}")


def _skip_unary(v):
    """getSourceSkipUnary: through side-effect-free single-operand ops (casts)."""
    from ...ir import traits as T
    op = v.defining_op
    while op is not None and len(op._operands) == 1 and T.Pure in type(op).traits:
        v = op.operand(0)
        op = v.defining_op
    return v


_CONTRACTION_PAIRS = {("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi"),
                      ("complex.mul", "complex.add"), ("arith.andi", "arith.ori")}


def _is_contraction_body(block) -> bool:
    t = block.last
    if t is None or len(block.args) != 3 or len(t._operands) != 1:
        return False
    red = _skip_unary(t.operand(0)).defining_op
    if red is None or len(red.results) != 1 or len(red._operands) != 2:
        return False
    lhs, rhs = _skip_unary(red.operand(0)), _skip_unary(red.operand(1))
    acc = block.args[2]
    if lhs is not acc and rhs is not acc:
        return False
    from ...ir.core import BlockArgument
    contributed = _skip_unary(rhs if isinstance(lhs, BlockArgument) else lhs)
    ew = contributed.defining_op
    if ew is None or len(ew.results) != 1 or len(ew._operands) != 2:
        return False
    if (ew.name, red.name) not in _CONTRACTION_PAIRS:
        return False
    a, b = _skip_unary(ew.operand(0)), _skip_unary(ew.operand(1))
    x, y = block.args[0], block.args[1]
    return (a is x and b is y) or (a is y and b is x)


def contraction_error(op) -> str | None:
    """ContractionOpInterface's verifier (bare messages, as upstream)."""
    if op.num_dps_inputs() != 2 or op.num_dps_inits != 1:
        return "expected op with 2 inputs and 1 output"
    if not op.reduction_dims():
        return "expected at least 1 reduction"
    if any(not m.is_projected_permutation() for m in op.indexing_maps_list()):
        return "expected indexing maps to be projected permutations"
    if not _is_contraction_body(op.body):
        return "expected add/mul op in the body"
    return None


def fill_interface_error(op) -> str | None:
    """FillOpInterface's verifier (bare messages)."""
    if op.num_dps_inputs() != 1 or op.num_dps_inits != 1:
        return "expected op with 1 input and 1 output"
    t = op.operand(0).type
    if isinstance(t, (A.RankedTensorType, A.UnrankedTensorType, A.MemRefType,
                      A.UnrankedMemRefType)):
        return "expected op with scalar input"
    return None


def cast_fn(props) -> str:
    """The `cast` type function of an op's properties (cast_signed by default)."""
    a = props.get("cast")
    return a.value if a is not None else "cast_signed"


class _ConvWalker:
    """ConvAccessExprWalker: classifies the dims of a convolution's input map into
    convolved ones (`oh * s + kh * d`) and unconvolved ones (a bare dim)."""

    __slots__ = ("convolved", "unconvolved", "pairs")

    def __init__(self):
        self.convolved, self.unconvolved, self.pairs = set(), set(), {}

    def _dim_or_mul(self, e):
        from ...ir.affine import CONSTANT, DIM, MUL, SYMBOL
        if e.kind == DIM:
            d = e.position
        elif e.kind == MUL:
            kinds = {e.lhs.kind, e.rhs.kind}
            if DIM not in kinds or not (kinds & {SYMBOL, CONSTANT}):
                return None
            d = (e.lhs if e.lhs.kind == DIM else e.rhs).position
        else:
            return None
        if d in self.convolved or d in self.unconvolved:
            return None
        self.convolved.add(d)
        return d

    def visit(self, e) -> bool:
        from ...ir.affine import ADD, DIM
        if e.kind == DIM:
            if e.position in self.unconvolved or e.position in self.convolved:
                return False
            self.unconvolved.add(e.position)
            return True
        if e.kind != ADD:
            return False
        lhs, rhs = self._dim_or_mul(e.lhs), self._dim_or_mul(e.rhs)
        if lhs is None or rhs is None:
            return False
        self.pairs[lhs], self.pairs[rhs] = rhs, lhs
        return True

    def clear_multi_use(self, m):
        from ...ir.affine import AffineDimExpr
        for d in range(m.num_dims):
            uses = sum(1 for r in m.results
                       if any(type(x) is AffineDimExpr and x.position == d for x in r.walk()))
            if uses > 1:
                self.convolved.discard(d)
                self.unconvolved.discard(d)
                other = self.pairs.pop(d, None)
                if other is not None:
                    self.convolved.discard(other)
                    self.unconvolved.discard(other)
                    self.pairs.pop(other, None)


def convolution_error(op) -> str | None:
    """ConvolutionOpInterface's verifier (isConvolutionInterfaceImpl's classification
    of every loop as batch, output image, output channel, filter, input channel or
    depth multiplier), with upstream's bare messages."""
    from ...ir.affine import AffineDimExpr
    if op.num_dps_inputs() < 2 or op.num_dps_inits != 1:
        return "expected op with 2 inputs and 1 output"
    maps = op.indexing_maps_list()
    w = _ConvWalker()
    for r in maps[0].results:
        if not w.visit(r):
            return "unexpected input index map for convolutions"
    w.clear_multi_use(maps[0])
    if not maps[1].is_projected_permutation() or not maps[-1].is_projected_permutation():
        return "expected output/filter indexing maps to be projected permutations"
    its = op.iterator_types_list()
    out_dims = {r.position for r in maps[-1].results if type(r) is AffineDimExpr}
    filt_dims = {r.position for r in maps[1].results if type(r) is AffineDimExpr}
    conv, unconv = w.convolved, w.unconvolved
    seen = set()
    for r in maps[-1].results:
        d = r.position
        if (d in unconv and d not in filt_dims) or (d in conv and d not in filt_dims) or \
                (d not in conv and d not in unconv and d in filt_dims) or \
                (d in unconv and d in filt_dims):
            if its[d] != "parallel":
                return "expected all iterators used to access outputs to be parallel"
            seen.add(d)
            continue
        return "unexpected loop dimension for convolution op"
    for r in maps[1].results:
        d = r.position
        if d in out_dims and d not in unconv and d not in conv:
            continue
        if (d in conv and d not in out_dims) or (d in unconv and d not in out_dims):
            if its[d] != "reduction":
                return "expected all iterators not used to access outputs to be reduction"
            if d in seen:
                return "unexpected loop dimension for convolution op"
            seen.add(d)
            continue
        if d in unconv and d in out_dims:
            continue
        return "unexpected loop dimension for convolution op"
    if len(seen) != op.num_loops:
        return "unexpected loop dimension for convolution op"
    if not conv:
        return "expected convolved dim to be non-empty"
    return None
