"""`linalg.matmul`, `linalg.batch_matmul`, `linalg.batch_reduce_matmul` and
`linalg.contract`: contractions whose indexing maps are a property, so that transposed and
broadcast operands need no extra op.

    %r = linalg.matmul indexing_maps = [#mapA, #mapB, #mapC] ins(%a, %b : ...) outs(...)

The matmul family defaults its maps (and the custom form leaves the default out);
`linalg.contract` always spells them. The payload is `C += cast(A) * cast(B)` with the
`cast` type function.
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.affine import AffineDimExpr, AffineMapAttr, parse_affine_map_body
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ...ir.ods import OptProp, Prop
from .attrs import TypeFnAttr
from .generic import AffineMapArrayAttr
from .named_base import MEMO_ATTR, NamedStructuredOp, cast_fn
from .structured import parse_maps

__all__ = ["MatmulOp", "BatchMatmulOp", "BatchReduceMatmulOp", "ContractOp"]


def _mac_cast(b, args, props):
    a, k, o = args
    fn = cast_fn(props)
    t = o.type
    return b.binary("add", o, b.binary("mul", b.type_fn(fn, t, a), b.type_fn(fn, t, k)))


def maps_text(pr, attr) -> str:
    """` indexing_maps = [#map, ...]` (llvm::interleaved_array of the attributes)."""
    return " indexing_maps = [" + ", ".join(pr.attr_str(m) for m in attr.value) + "]"


def _is_function_of_dim(e, d) -> bool:
    return any(type(x) is AffineDimExpr and x.position == d for x in e.walk())


def _subset(sub, full) -> bool:
    """areResultExprsSubsetOf: every result of `sub` is one of `full`'s."""
    return set(sub.results) <= set(full.results)


def _fail(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


class _MapsProperty(NamedStructuredOp):
    """Contractions with an `indexing_maps` property and a `cast` type function."""

    indexing_maps = OptProp(AffineMapArrayAttr)
    cast = OptProp(TypeFnAttr)
    _contraction = True
    _elided = ("operandSegmentSizes", MEMO_ATTR, "indexing_maps")
    _default_text: tuple = ()
    _iterators = ""
    _defaults = None

    @classmethod
    def payload(cls, b, args, props):
        return _mac_cast(b, args, props)

    @classmethod
    def default_maps(cls) -> list:
        if cls._defaults is None:
            cls._defaults = [parse_affine_map_body(t) for t in cls._default_text]
        return cls._defaults

    @classmethod
    def default_properties(cls, props):
        if "indexing_maps" in props:
            return {}
        return {"indexing_maps": A.ArrayAttr([AffineMapAttr(m) for m in cls.default_maps()])}

    def compute_indexing_maps(self):
        a = self._props.get("indexing_maps")
        if a is None:
            return list(self.default_maps())
        return [m.value for m in a.value]

    def iterator_types_list(self):
        return ["parallel" if c == "p" else "reduction" for c in self._iterators]

    def has_user_defined_maps(self) -> bool:
        return self.compute_indexing_maps() != self.default_maps()

    @classmethod
    def parse_prefix(cls, p, st):
        maps = parse_maps(p, st)
        st.properties["indexing_maps"] = maps if maps is not None else \
            cls.default_properties({})["indexing_maps"]

    def print_prefix(self, pr):
        a = self._props.get("indexing_maps")
        if a is not None and [m.value for m in a.value] != self.default_maps():
            pr.out.append(maps_text(pr, a))


class MatmulOp(_MapsProperty):
    """`%r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
    outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>`"""

    name = "linalg.matmul"
    _default_text = ("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
                     "(d0, d1, d2) -> (d0, d1)")
    _iterators = "ppr"

    def verify_(self):
        if not self.has_user_defined_maps():
            return None
        maps, defaults = self.compute_indexing_maps(), self.default_maps()
        for i in range(2):
            if i >= len(maps):
                break
            m, d = maps[i], defaults[i]
            if not _subset(m, d):
                return "Unexpected dim expression in map result."
            if m.num_results < d.num_results:
                if m.num_results != 1 or not _is_function_of_dim(m.results[0],
                                                                 m.num_dims - 1):
                    return "Invalid broadcast requested, should be (d2)."
        return None


class _BatchVariant(_MapsProperty):
    """batch_matmul and batch_reduce_matmul share their map checks."""

    _out_rank = 3

    def _valid_broadcast(self, m, is_lhs) -> bool:
        raise NotImplementedError

    def _valid_output(self, m) -> bool:
        raise NotImplementedError

    def verify_(self):
        if not self.has_user_defined_maps():
            return None
        maps, defaults = self.compute_indexing_maps(), self.default_maps()
        for i in range(3):
            if len(maps) != 3:
                return "Indexing_map attribute must have 3 affine maps."
            m = maps[i]
            if i == 2:
                if m.num_results != self._out_rank:
                    return f"expects {self._out_rank} dims, but got ({m.num_results})."
                if not self._valid_output(m):
                    return "Invalid output map result dimension."
                continue
            if not _subset(m, defaults[i]):
                return ("Unexpected result dim expression (outside the set of default "
                        "result dims).")
            if m.num_results > 3:
                return "no. of result dim expressions exceeds 3."
            if m.num_results < defaults[i].num_results:
                if not self._valid_broadcast(m, i == 0):
                    return "Invalid broadcast requested."
            elif not _is_function_of_dim(m.results[0], 0):
                return "Invalid batch dimension expression."
        return None


def _fod(e, d):
    return _is_function_of_dim(e, d)


class BatchMatmulOp(_BatchVariant):
    """`%r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
    outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>`"""

    name = "linalg.batch_matmul"
    _default_text = ("(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
                     "(d0, d1, d2, d3) -> (d0, d1, d2)")
    _iterators = "pppr"

    def _valid_broadcast(self, m, is_lhs):
        r = m.results
        if len(r) == 1:
            return _fod(r[0], 3)
        if len(r) == 2:
            if is_lhs:
                return (_fod(r[0], 0) or _fod(r[0], 1)) and _fod(r[1], 3)
            return (_fod(r[0], 0) and _fod(r[1], 3)) or (_fod(r[0], 3) and _fod(r[1], 2))
        return False

    def _valid_output(self, m):
        r = m.results
        return _fod(r[0], 0) and _fod(r[1], 1) and _fod(r[2], 2)


class BatchReduceMatmulOp(_BatchVariant):
    """`%r = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x4x8xf32>,
    tensor<2x8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>`"""

    name = "linalg.batch_reduce_matmul"
    _default_text = ("(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
                     "(d0, d1, d2, d3) -> (d1, d2)")
    _iterators = "rppr"
    _out_rank = 2

    _valid_broadcast = BatchMatmulOp._valid_broadcast

    def _valid_output(self, m):
        r = m.results
        return _fod(r[0], 1) and _fod(r[1], 2)


class ContractOp(_MapsProperty):
    """`%r = linalg.contract indexing_maps = [#a, #b, #c] ins(%a, %b : ...) outs(%c : ...)
    -> ...`: a contraction given only by its maps (einsum-like)."""

    name = "linalg.contract"
    indexing_maps = Prop(AffineMapArrayAttr)

    @classmethod
    def default_properties(cls, props):
        return {}

    @classmethod
    def parse_prefix(cls, p, st):
        st.properties["indexing_maps"] = parse_maps(p, st, True)

    def print_prefix(self, pr):
        a = self._props.get("indexing_maps")
        if a is not None:
            pr.out.append(maps_text(pr, a))

    def compute_indexing_maps(self):
        a = self._props.get("indexing_maps")
        return [m.value for m in a.value] if a is not None else []

    def has_user_defined_maps(self):
        return True

    def iterator_types_list(self):
        maps = self.compute_indexing_maps()
        if not maps:
            return []
        out = {r.position for r in maps[-1].results if type(r) is AffineDimExpr}
        return ["parallel" if d in out else "reduction" for d in range(maps[-1].num_dims)]

    def verify_(self):
        n_dims = -1
        ins, outs = [], []
        types = self.operand_types
        for i, (m, t) in enumerate(zip(self.compute_indexing_maps(), types)):
            if not m.is_projected_permutation():
                _fail(self, "provided affine_map is not a projected permutation")
            if isinstance(t, A.ShapedType):
                if m.num_results != t.rank:
                    _fail(self, "ranks of shaped operand and results of corresponding "
                                "affine_map differ")
            elif m.num_results:
                _fail(self, "affine_map specifies shaped access while operand has "
                            "non-shaped type")
            if n_dims == -1:
                n_dims = m.num_dims
                ins, outs = [0] * n_dims, [0] * n_dims
            elif n_dims != m.num_dims:
                _fail(self, "iteration spaces of provided affine_maps differ")
            for r in m.results:
                (ins if i < 2 else outs)[r.position] += 1
        contracting = False
        for d in range(max(n_dims, 0)):
            contracting |= ins[d] == 2 and outs[d] == 0
            if ins[d] == 0 and outs[d] == 0:
                _fail(self, f"iteration space dim at index {d} not used to access any "
                            "operand")
            if ins[d] == 1 and outs[d] != 1:
                _fail(self, f"iteration space dim at index {d} is neither a contracting "
                            "dim nor of parallel iteration type")
        if not contracting:
            _fail(self, "'indexing_maps' do not specify a contracting dimension")
        return None


CONTRACTION_OPS = [MatmulOp, BatchMatmulOp, BatchReduceMatmulOp, ContractOp]
