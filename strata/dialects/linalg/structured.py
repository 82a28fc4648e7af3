"""What every linalg structured op shares: the structured-op interface, its verifier,
the `ins(...) outs(...)` syntax and the payload builder.

[Note: the structured op interface]
A structured op (linalg.generic, the named ops, map, reduce, transpose, broadcast,
elementwise, contract) is a loop nest over `num_loops` iteration dimensions: each operand
has an indexing map from the loop indices to its element, each loop is parallel or a
reduction (`iterator_types_list()`), and the payload block computes the outputs' elements
from one element of every operand (block arguments: inputs then outputs). Passes and the
interpreter use only this interface (`StructuredOp`), never op-specific attributes:

    op.inputs / op.outputs           operand values (destination-passing style)
    op.indexing_maps_list()          one AffineMap per operand
    op.iterator_types_list()         "parallel" / "reduction" per loop
    op.num_loops, op.body            the payload block (named ops build theirs)
    op.static_loop_ranges()          loop trip counts from static shapes (A.DYNAMIC)

[Note: when upstream verifies]
Upstream checks the destination-style and structured-op invariants in interface verifiers
that run *after* the ops of the region (verifyWithRegions), so a bad `linalg.yield` is
reported before a bad indexing map. `verify_regions_` mirrors that order.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMap, AffineMapAttr, parse_affine_map_body
from ...ir.builder import Builder
from ...ir.core import Block
from ...ir.diagnostics import ERROR, WARNING, Diagnostic, DiagnosticError
from ...ir.enum_attr import EnumAttr
from ...ir.ods import Op
from ...syntax.lexer import PUNCT
from ..scf import _arrow_types as arrow_types  # printOptionalArrowTypeList
from .attrs import ITERATOR_TYPE

DYNAMIC = A.DYNAMIC

__all__ = ["StructuredOp", "PayloadBuilder", "PayloadError", "to_affine_map",
           "to_iterator_attr", "concat_maps", "inverse_permutation", "block_arg_type",
           "parse_structured_parts", "print_ins_outs", "arrow_types", "parse_arrow_types"]


# ====================================================================== affine helpers


def to_affine_map(m) -> AffineMap:
    """An AffineMap from an AffineMap, an AffineMapAttr or text like `(d0, d1) -> (d1)`
    (`affine_map<...>` around it is optional)."""
    if isinstance(m, AffineMap):
        return m
    if isinstance(m, AffineMapAttr):
        return m.value
    if isinstance(m, str):
        s = m.strip()
        if s.startswith("affine_map<") and s.endswith(">"):
            s = s[len("affine_map<"):-1]
        return parse_affine_map_body(s)
    raise TypeError(f"not an affine map: {m!r}")


def to_iterator_attr(it) -> EnumAttr:
    """`#linalg.iterator_type<...>` from "parallel"/"reduction" or the attribute."""
    if isinstance(it, EnumAttr):
        return it
    return ITERATOR_TYPE(str(it))


def concat_maps(maps) -> AffineMap:
    """concatAffineMaps: all results over the largest dim count, symbols shifted."""
    results, num_dims, num_syms = [], 0, 0
    from ...ir.affine import AffineSymbolExpr
    for m in maps:
        if m.num_symbols and num_syms:
            shift = [AffineSymbolExpr(i + num_syms) for i in range(m.num_symbols)]
            results += [r.replace_dims_and_symbols((), shift) for r in m.results]
        else:
            results += m.results
        num_syms += m.num_symbols
        num_dims = max(num_dims, m.num_dims)
    return AffineMap(num_dims, num_syms, results)


def inverse_permutation(m: AffineMap) -> AffineMap | None:
    """inversePermutation: for each dim the first result that is exactly that dim; None
    when some dim is never one (the empty map is its own inverse)."""
    if m.num_dims == 0 and m.num_symbols == 0 and not m.results:
        return m
    first = [None] * m.num_dims
    for i, r in enumerate(m.results):
        if type(r) is AffineDimExpr and first[r.position] is None:
            first[r.position] = AffineDimExpr(i)
    seen = [e for e in first if e is not None]
    if len(seen) != m.num_dims + m.num_symbols:
        return None
    return AffineMap(len(m.results), 0, seen)


def _eval_map(m: AffineMap, values):
    """AffineMap::compose(ArrayRef<int64_t>): the results with the dims set to values."""
    vals = list(values)[:m.num_dims]
    vals += [0] * (m.num_dims - len(vals))
    return [r.eval(vals, [0] * m.num_symbols) for r in m.results]


# ====================================================================== types


def _is_tensor(t) -> bool:
    return isinstance(t, (A.RankedTensorType, A.UnrankedTensorType))


def _is_memref(t) -> bool:
    return isinstance(t, (A.MemRefType, A.UnrankedMemRefType))


def block_arg_type(t):
    """The payload block argument type for an operand type: the element type of a
    ranked tensor or memref, else the type itself (scalars)."""
    if type(t) is A.RankedTensorType or type(t) is A.MemRefType:
        return t.element_type
    return t


def operand_shape(t):
    """The static shape of an operand (empty for scalars): ranked tensors and memrefs are
    shaped; a vector is a scalar element (upstream's LinalgOp getRank / getShape)."""
    if type(t) is A.RankedTensorType or type(t) is A.MemRefType:
        return tuple(t.shape)
    return ()


def operand_rank(t) -> int:
    return len(operand_shape(t))


# ====================================================================== the interface


def has_buffer_operands(op) -> bool:
    for v in op.operands:
        if type(v.type) is A.MemRefType or type(v.type) is A.UnrankedMemRefType:
            return True
    return False


class StructuredOp(Op):
    """Base of linalg ops implementing LinalgStructuredInterface (see the note above).

    Subclasses give `num_dps_inputs()`, `indexing_maps_list()` and
    `iterator_types_list()`; the region is their only one."""

    def operand_memory_effects(self) -> bool:
        """On buffers the op reads its inputs and writes its outputs (upstream's
        getEffects of linalg ops); on tensors it has no effects of its own."""
        return has_buffer_operands(self)

    def fold(self, operands):
        """Every LinalgOp's fold (upstream's memref::foldMemRefCast): an operand read
        through a memref.cast (not from an unranked memref) reads its source, in place."""
        folded = False
        for o in self._operands:
            c = o.value.defining_op
            if c is not None and c.name == "memref.cast" and \
                    type(c.operand(0).type) is not A.UnrankedMemRefType:
                o.set(c.operand(0))
                folded = True
        return list(self.results) if folded else None

    # Whether the payload's yield is checked and block arguments named like generic's
    # (`%in`, `%out`); map and reduce name theirs `%in`, `%init`.
    _out_arg_name = "out"

    # -------------------------------------------------------------- operands

    def num_dps_inputs(self) -> int:
        seg = self._props.get("operandSegmentSizes")
        if seg is not None and len(seg.value) == 2:
            return seg.value[0]
        return len(self._operands) - 1

    @property
    def num_dps_inits(self) -> int:
        return len(self._operands) - self.num_dps_inputs()

    @property
    def dps_inputs(self) -> list:
        return [o.value for o in self._operands[:self.num_dps_inputs()]]

    @property
    def dps_inits(self) -> list:
        return [o.value for o in self._operands[self.num_dps_inputs():]]

    def tied_result(self, init_index: int):
        """The result tied to the `init_index`-th init (tensor inits only), or None."""
        n = 0
        for i, v in enumerate(self.dps_inits):
            if _is_tensor(v.type):
                if i == init_index:
                    return self.results[n] if n < len(self.results) else None
                n += 1
        return None

    def has_pure_tensor_semantics(self) -> bool:
        return all(not (_is_tensor(t) or _is_memref(t)) or type(t) is A.RankedTensorType
                   for t in self.operand_types)

    def has_pure_buffer_semantics(self) -> bool:
        return all(not (_is_tensor(t) or _is_memref(t)) or type(t) is A.MemRefType
                   for t in self.operand_types)

    # -------------------------------------------------------------- loops and maps

    def indexing_maps_list(self) -> list:
        raise NotImplementedError

    def iterator_types_list(self) -> list:
        raise NotImplementedError

    @property
    def num_loops(self) -> int:
        return len(self.iterator_types_list())

    def matching_indexing_map(self, operand_index: int) -> AffineMap:
        return self.indexing_maps_list()[operand_index]

    def reduction_dims(self) -> list:
        return [i for i, t in enumerate(self.iterator_types_list()) if t == "reduction"]

    def parallel_dims(self) -> list:
        return [i for i, t in enumerate(self.iterator_types_list()) if t == "parallel"]

    def loops_to_shapes_map(self) -> AffineMap:
        return concat_maps(self.indexing_maps_list())

    def shapes_to_loops_map(self) -> AffineMap | None:
        return inverse_permutation(self.loops_to_shapes_map())

    def static_shapes(self) -> list:
        """All operand dims in operand order (A.DYNAMIC for `?`)."""
        out = []
        for t in self.operand_types:
            out.extend(operand_shape(t))
        return out

    def static_loop_ranges(self) -> list | None:
        """The trip count of each loop read off the operand shapes (A.DYNAMIC where
        unknown); None when the indexing maps do not determine the loops."""
        inv = self.shapes_to_loops_map()
        if inv is None:
            return None
        shapes = self.static_shapes()
        return [shapes[r.position] if type(r) is AffineDimExpr and r.position < len(shapes)
                else DYNAMIC for r in inv.results]

    # -------------------------------------------------------------- payload

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def region_input_args(self) -> list:
        return self.body.args[:self.num_dps_inputs()]

    @property
    def region_output_args(self) -> list:
        n = self.num_dps_inits
        return self.body.args[len(self.body.args) - n:] if n else []

    def block_arg_for_operand(self, operand_index: int):
        return self.body.args[operand_index]

    def asm_block_arg_names(self, region, block):
        n_in = self.num_dps_inputs()
        n_out = len(self._operands) - n_in
        names = [None] * len(block.args)
        for i in range(min(n_in, len(names))):
            names[i] = "in"
        for i in range(max(len(names) - n_out, 0), len(names)):
            names[i] = self._out_arg_name
        return names

    # -------------------------------------------------------------- verification

    def verify_regions_(self):
        return verify_destination_style(self) or verify_structured(self) or \
            self.verify_op_regions_()

    def verify_op_regions_(self):
        """Op-specific checks after the structured ones (upstream's op verifier)."""
        return None


def verify_destination_style(op, n_inits=None) -> str | None:
    """DestinationStyleOpInterface: inits (the operands after the inputs, or the
    `n_inits` ones there) are tensors or memrefs, one result per tensor init, of the
    init's type."""
    n_in = op.num_dps_inputs()
    end = len(op._operands) if n_inits is None else n_in + n_inits
    tensor_inits = []
    for i, o in enumerate(op._operands[n_in:end], n_in):
        t = o.value.type
        if _is_tensor(t):
            tensor_inits.append((i, t))
        elif not _is_memref(t):
            return f"expected that operand #{i} is a tensor or a memref"
    n_res = sum(1 for r in op.results if _is_tensor(r.type))
    if n_res != len(tensor_inits):
        return (f"expected the number of tensor results ({n_res}) to be equal to the "
                f"number of output tensors ({len(tensor_inits)})")
    for (i, t), r in zip(tensor_inits, op.results):
        if r.type is not t:
            return (f"expected type of operand #{i} ('{t}') to match type of corresponding "
                    f"result ('{r.type}')")
    return None


def verify_structured(op) -> str | None:
    """verifyStructuredOpInterface (with IndexingMapOpInterface's checks), in upstream's
    order and wording."""
    types = op.operand_types
    if types and not op.has_pure_tensor_semantics() and not op.has_pure_buffer_semantics():
        return "expected to have pure tensor or buffer semantics"
    err = op.verify_indexing_map_attrs()
    if err:
        return err
    maps = op.indexing_maps_list()
    if len(maps) != len(types):
        return (f"expected the number of indexing_map ({len(maps)}) to be equal to the "
                f"number of input/output operands ({len(types)})")
    shapes = []
    for i, (m, t) in enumerate(zip(maps, types)):
        if m.num_symbols:
            return f"unexpected symbols in indexing_map #{i}"
        shape = operand_shape(t)
        if m.num_results != len(shape):
            return (f"expected operand #{i} rank ({len(shape)}) to match the result rank of "
                    f"indexing_map ({m.num_results})")
        shapes.append(shape)
    loops_to_shapes = concat_maps(maps)
    inverted = inverse_permutation(loops_to_shapes)
    if inverted is None:
        return f"invalid indexing maps are non-invertible: ({loops_to_shapes})"
    flat = [d for s in shapes for d in s]
    ends = [flat[r.position] for r in inverted.results]
    if DYNAMIC not in ends:
        ends = [e - 1 for e in ends]
        starts = [0] * len(ends)
        for i, (m, shape) in enumerate(zip(maps, shapes)):
            lo, hi = _eval_map(m, starts), _eval_map(m, ends)
            for d, size in enumerate(shape):
                if size == DYNAMIC or size == 0:
                    continue
                inferred = max(lo[d], hi[d]) + 1
                if min(lo[d], hi[d]) < 0:
                    return f"unexpected result less than 0 at expression #{d} in {m}"
                if type(m.results[d]) is AffineDimExpr:
                    if inferred != size:
                        return (f"inferred input/output operand #{i} has shape's dimension "
                                f"#{d} to be {inferred}, but found {size}")
                elif inferred > size:
                    return (f"inferred input/output operand #{i} has shape's dimension "
                            f"#{d} to be greater than or equal to {inferred}, but found "
                            f"{size}")
    num_loops = op.num_loops
    for i, m in enumerate(maps):
        if m.num_dims != num_loops:
            return (f"expected indexing_map #{i} to have {num_loops} dim(s) to match the "
                    "number of loops")
    regions = op.regions
    if len(regions) != 1 or len(regions[0].blocks) != 1:
        return "expects to have 1 region with 1 block"
    block = regions[0].blocks[0]
    if len(block.args) != len(types):
        return ("expected as many non-induction variable region arguments as the number "
                "of input/output operands")
    for i, t in enumerate(types):
        et = block_arg_type(t)
        at = block.args[i].type
        if at is not et:
            return (f"expected type of bb argument #{i} ({at}) to match element or self "
                    f"type of the corresponding operand ({et})")
    return None


def _no_map_attrs(op):
    return None


StructuredOp.verify_indexing_map_attrs = _no_map_attrs


# ====================================================================== payload builder


class PayloadError(ValueError):
    """A payload the region builder cannot make (upstream aborts on these)."""


def _is_float(t) -> bool:
    return type(t) is A.FloatType


def _is_int(t) -> bool:
    return type(t) is A.IntegerType


class PayloadBuilder(Builder):
    """A Builder for the scalar payload of a structured op, with the functions of
    upstream's RegionBuilderHelper (OpDSL's unary/binary/type functions):

        b.binary("add", x, y)    arith.addf / addi / ori on i1
        b.unary("exp", x)        math.exp, ...
        b.cast(f32, x)           arith.extf / sitofp / ... (convertScalarToDtype)
        b.constant(FloatAttr(1.0, f32)), b.index(0), b.yield_(v)
    """

    __slots__ = ("warnings",)

    def _op(self, name, operands, result_type, props=None):
        cls = _op_class(name)
        return self.insert(cls.create(list(operands), [result_type], props, None, (), 0,
                                      self.loc)).results[0]

    def constant(self, attr):
        from ..arith import ConstantOp
        return self.insert(ConstantOp.create([], [attr.type], {"value": attr}, None, (), 0,
                                             self.loc)).results[0]

    def index(self, dim: int):
        from .generic import IndexOp
        return self.insert(IndexOp.create([], [A.index], {"dim": A.IntegerAttr(dim, A.i64)},
                                          None, (), 0, self.loc)).results[0]

    def yield_(self, *values):
        from .generic import YieldOp
        if len(values) == 1 and isinstance(values[0], (list, tuple)):
            values = values[0]
        return self.insert(YieldOp.create(list(values), [], None, None, (), 0, self.loc))

    # -------------------------------------------------------------- OpDSL functions

    def unary(self, fn: str, x):
        """OpDSL's unary functions (math.exp, arith.negf, ...); like upstream, a
        non-float operand still gets the op (and fails its verifier)."""
        t = x.type
        if fn == "reciprocal":
            if not _is_float(t):
                raise PayloadError(f"unsupported non numeric type '{t}' for reciprocal")
            one = self.constant(A.FloatAttr(1.0, t))
            return self._op("arith.divf", [one, x], t)
        if fn == "square":
            return self._op("arith.mulf", [x, x], t)
        name = _UNARY_OPS.get(fn)
        if name is None:
            raise PayloadError(f"unsupported unary function '{fn}'")
        return self._op(name, [x], t)

    def binary(self, fn: str, a, b):
        """OpDSL's binary functions, with upstream's choice of op per element type
        (i1 add/mul are ori/andi) and its messages for the impossible ones."""
        ta, tb = a.type, b.type
        floats = _is_float(ta) and _is_float(tb)
        ints = _is_int(ta) and _is_int(tb)
        bools = ints and ta.width == 1 and tb.width == 1
        if isinstance(ta, A.ComplexType) and isinstance(tb, A.ComplexType):
            raise PayloadError("complex element types are not supported")
        if not floats and not ints:
            raise PayloadError("Cannot build binary Linalg operation: expects allComplex, "
                               f"allFloatingPoint, or allInteger, got '{ta}' and '{tb}'")
        if fn == "powf":
            return self._op("math.powf", [a, b], ta)
        names = _BINARY_OPS.get(fn)
        if names is None:
            raise PayloadError(f"unsupported binary function '{fn}'")
        fop, iop, bop = names
        if floats:
            name = fop
        elif bools and bop != "":
            name = bop
        else:
            name = iop
        if name is None:
            raise PayloadError(_BINARY_ERRORS[fn])
        return self._op(name, [a, b], ta)

    def ternary(self, fn: str, a, b, c):
        if fn != "select":
            raise PayloadError(f"unsupported ternary function '{fn}'")
        return self._op("arith.select", [a, b, c], b.type)

    def type_fn(self, fn: str, to_type, x):
        """`cast_signed` / `cast_unsigned` (a #linalg.type_fn attribute or its name)."""
        if isinstance(fn, EnumAttr):
            fn = fn.value
        return self.cast(to_type, x, unsigned=(fn == "cast_unsigned"))

    def cast(self, to_type, x, unsigned: bool = False):
        """convertScalarToDtype: x converted to `to_type` (unchanged if already)."""
        t = x.type
        if t is to_type:
            return x
        if _is_int(to_type):
            if _is_float(t):
                return self._op("arith.fptoui" if unsigned else "arith.fptosi", [x], to_type)
            if type(t) is A.IndexType:
                return self._op("arith.index_cast", [x], to_type)
            if _is_int(t):
                if to_type.width > t.width:
                    return self._op("arith.extui" if unsigned else "arith.extsi", [x],
                                    to_type)
                if to_type.width < t.width:
                    return self._op("arith.trunci", [x], to_type)
                return x
        elif _is_float(to_type):
            if _is_int(t):
                return self._op("arith.uitofp" if unsigned else "arith.sitofp", [x],
                                to_type)
            if _is_float(t):
                if to_type.width > t.width:
                    return self._op("arith.extf", [x], to_type)
                if to_type.width < t.width:
                    return self._op("arith.truncf", [x], to_type)
                return self._op("arith.convertf", [x], to_type)
        # Upstream warns "could not cast operand" (at an unknown location) and goes on
        # with the operand as is; the warnings come out with the error that follows.
        w = getattr(self, "warnings", None)
        if w is None:
            w = self.warnings = []
        w.append(Diagnostic(WARNING, None,
                            f"could not cast operand of type '{t}' to '{to_type}'"))
        return x


_UNARY_OPS = {
    "exp": "math.exp", "log": "math.log", "abs": "math.absf", "ceil": "math.ceil",
    "floor": "math.floor", "negf": "arith.negf", "round": "math.round",
    "sqrt": "math.sqrt", "rsqrt": "math.rsqrt", "tanh": "math.tanh", "erf": "math.erf",
    "sin": "math.sin", "cos": "math.cos", "tan": "math.tan", "acos": "math.acos",
    "acosh": "math.acosh", "asin": "math.asin", "asinh": "math.asinh",
    "atan": "math.atan", "atanh": "math.atanh", "log10": "math.log10",
    "log1p": "math.log1p", "log2": "math.log2",
}

# fn -> (float op, integer op, i1 op): None where upstream refuses ("" for the
# integer op). The unsigned ones refuse bools too: i1 is no uint to upstream.
_BINARY_OPS = {
    "add": ("arith.addf", "arith.addi", "arith.ori"),
    "sub": ("arith.subf", "arith.subi", None),
    "mul": ("arith.mulf", "arith.muli", "arith.andi"),
    "div": ("arith.divf", "arith.divsi", None),
    "div_unsigned": (None, "arith.divui", None),
    "max_signed": ("arith.maximumf", "arith.maxsi", ""),
    "min_signed": ("arith.minimumf", "arith.minsi", ""),
    "max_unsigned": (None, "arith.maxui", None),
    "min_unsigned": (None, "arith.minui", None),
}
_BINARY_ERRORS = {
    "sub": "unsupported operation: sub with bools",
    "div": "unsupported operation: div with bools",
    "div_unsigned": "unsupported operation: unsigned div not on uint",
    "max_unsigned": "unsupported operation: unsigned max not on uint",
    "min_unsigned": "unsupported operation: unsigned min not on uint",
}

_OP_CLASSES: dict = {}


def _op_class(name):
    cls = _OP_CLASSES.get(name)
    if cls is None:
        from ..arith import ARITH
        from ..math import MATH
        _OP_CLASSES.update(ARITH.ops)
        _OP_CLASSES.update(MATH.ops)
        cls = _OP_CLASSES[name]
    return cls


def fill_payload(region, operand_types, build, loc=None):
    """Create the payload block of `region` (one argument per operand, see
    block_arg_type) and fill it with `build(builder, args) -> yielded values`: a
    PayloadBuilder whose ops and block arguments get `loc` (unknown by default, as in
    upstream's region builders)."""
    from ...ir.location import UnknownLoc
    if loc is None:
        loc = UnknownLoc()
    types = [block_arg_type(t) for t in operand_types]
    block = region.add_block(Block(types, [loc] * len(types)))
    b = PayloadBuilder.at_end(block, loc)
    try:
        values = build(b, list(block.args))
    except PayloadError as e:
        e.warnings = getattr(b, "warnings", None) or []
        raise
    if values is not None:
        if not isinstance(values, (list, tuple)):
            values = [values]
        b.yield_(list(values))
    return block


# ====================================================================== syntax


def _bare_error(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def parse_attr_dict_checked(p, st, preset=()):
    """An optional `{...}` into the state (inherent attributes become properties); a key
    the custom parser already set (`preset`) is upstream's "occurs more than once"
    error at the op name."""
    if not (p.kind == PUNCT and p.tok == "{"):
        return {}
    d = p.parse_attr_dict_body()
    for k in d:
        if k in preset:
            p.error(f"custom op '{st.cls.name}' attribute '{k}' occurs more than once in "
                    "the attribute list", p.custom_op_offset)
    names = st.cls._prop_names
    for k, v in d.items():
        (st.properties if k in names else st.attributes)[k] = v
    return d


def _dense_int(a) -> bool:
    from ...ir.dense import DenseElementsAttr
    return isinstance(a, DenseElementsAttr) and type(a.type.element_type) is A.IntegerType


def _enum_of(kind_name):
    def fits(a):
        from .attrs import KINDS
        return isinstance(a, EnumAttr) and a.kind is KINDS[kind_name]
    return fits


# Property slots whose attribute class upstream's property conversion checks before any
# constraint (the window attributes are DenseIntElementsAttr slots, `cast` a TypeFnAttr,
# `indexing_maps` an ArrayAttr): `<{strides = dense<2.0> : vector<2xf32>}>` fails there,
# `{strides = ...}` at the constraint.
_PROPERTY_STORAGE = {"strides": _dense_int, "dilations": _dense_int,
                     "cast": _enum_of("type_fn"), "kind": _enum_of("elementwise_kind"),
                     "indexing_maps": lambda a: type(a) is A.ArrayAttr}


def _check_property_storage(p, name, given):
    """The properties written in `<{...}>` (and the segment sizes the parser adds), as
    upstream's conversion sees them before the builder adds defaults."""
    for k, fits in _PROPERTY_STORAGE.items():
        v = given.get(k)
        if v is not None and not fits(v):
            body = A.print_attr_dict_entries(sorted(given.items()))
            p.error(f"invalid properties {{{body}}} for op {name}: Invalid attribute "
                    f"`{k}` in property conversion: {v}", p.custom_op_offset)


def parse_structured_parts(p, st, segment_sizes=True):
    """parseCommonStructuredOpParts: `<{props}>`? attr-dict? `ins(%a, %b : t, u)`?
    `outs(%c : v)`?; sets the operands (and operandSegmentSizes) and checks the
    inherent attributes of the attribute dictionary. Returns (input types, output
    types)."""
    name = st.cls.name
    given = None
    if p.kind == PUNCT and p.tok == "<":
        given = dict(p._parse_props())
        st.properties.update(given)
    attrs_at = p.tok_start
    preset = set(st.properties) | set(st.attributes)
    if segment_sizes:
        preset.add("operandSegmentSizes")
    parse_attr_dict_checked(p, st, preset)
    in_refs, in_types, out_refs, out_types = [], [], [], []
    in_at = out_at = p.tok_start
    if p.parse_optional_keyword("ins"):
        p.expect("(")
        in_at = p.tok_start
        in_refs = p.parse_operand_list()
        p.expect(":")
        in_types = p.parse_type_list()
        p.expect(")")
    if p.parse_optional_keyword("outs"):
        out_at = p.tok_start
        p.expect("(")
        out_refs = p.parse_operand_list()
        p.expect(":")
        out_types = p.parse_type_list()
        p.expect(")")
    st.operands = p.resolve_operands(in_refs, in_types, in_at) + \
        p.resolve_operands(out_refs, out_types, out_at)
    if segment_sizes:
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(in_refs), len(out_refs)])
    if given is not None:
        if segment_sizes:
            given["operandSegmentSizes"] = st.properties["operandSegmentSizes"]
        _check_property_storage(p, st.cls.name, given)
    else:
        for d in st.cls._prop_defs:
            v = st.properties.get(d.name)
            if v is not None and not d.constraint.check(v):
                p.error(f"custom op '{name}' '{name}' op attribute '{d.name}' failed to "
                        f"satisfy constraint: {d.constraint.summary}", attrs_at)
    return in_types, out_types


def parse_maps(p, st, required=False):
    """`indexing_maps = [#map, ...]` of matmul, contract and elementwise: the ArrayAttr,
    or None when absent (an error if `required`)."""
    if not p.parse_optional_keyword("indexing_maps"):
        if required:
            p.error(f"custom op '{st.cls.name}' expected 'indexing_maps' attribute")
        return None
    p.expect("=")
    a = p.parse_attribute()
    if type(a) is not A.ArrayAttr:
        p.error(f"custom op '{st.cls.name}' expected 'indexing_maps' to be an array",
                p.tok_start)
    for m in a.value:
        if type(m) is not AffineMapAttr:
            p.error(f"custom op '{st.cls.name}' element of indexing_maps array is not an "
                    "affine_map", p.tok_start)
    return a


def parse_arrow_types(p):
    """parseOptionalArrowTypeList: `-> t` or `-> (t, u)`."""
    return p.parse_function_result_types() if p.consume_if("->") else []


def parse_i64_list(p):
    """`[1, 2, 3]` as a dense i64 array attribute."""
    p.expect("[")
    vals = []
    if not p.consume_if("]"):
        while True:
            vals.append(p.parse_integer())
            if not p.consume_if(","):
                break
        p.expect("]")
    return A.DenseArrayAttr(A.i64, vals)


def parse_ins_outs_single(p, parse_type=None):
    """`ins(%a : t) outs(%b : u)` (one value each): the resolved operands."""
    values = []
    for kw in ("ins", "outs"):
        p.parse_keyword(kw)
        p.expect("(")
        ref = p.parse_operand()
        p.expect(":")
        values.append((ref, parse_type(p) if parse_type else p.parse_type()))
        p.expect(")")
    return [p.resolve_operand(r, t) for r, t in values]


def ins_outs_single(pr, a, b) -> str:
    return (f" ins({pr.value(a)} : {pr.type_str(a.type)}) outs({pr.value(b)} : "
            f"{pr.type_str(b.type)})")


def print_ins_outs(pr, inputs, outputs) -> str:
    """printCommonStructuredOpParts: ` ins(%a : t) outs(%b : u)` (empty lists left out)."""
    s = ""
    if inputs:
        s += " ins(" + ", ".join(pr.value(v) for v in inputs) + " : " + \
            ", ".join(pr.type_str(v.type) for v in inputs) + ")"
    if outputs:
        s += " outs(" + ", ".join(pr.value(v) for v in outputs) + " : " + \
            ", ".join(pr.type_str(v.type) for v in outputs) + ")"
    return s


def all_attrs(op) -> dict:
    """Properties and discardable attributes together (upstream's getAttrs())."""
    d = dict(op._props)
    d.update(op._attrs)
    return d


def iterator_names(attr) -> list:
    """The names of an iterator_types ArrayAttr (strings for malformed entries)."""
    out = []
    for a in attr.value if type(attr) is A.ArrayAttr else ():
        out.append(a.value if isinstance(a, EnumAttr) else str(a))
    return out
