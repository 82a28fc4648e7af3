"""linalg's Winograd convolution transforms (upstream's winograd_filter_transform,
winograd_input_transform, winograd_output_transform): the three tensor steps of
F(m x m, r x r) convolution, `fmr` naming m and r.

    %f = linalg.winograd_filter_transform fmr(F_4_3) ins(%w : tensor<2x3x3x5xf32>)
           outs(%e : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
    %i = linalg.winograd_input_transform fmr(F_4_3) ins(%x : tensor<2x14x14x5xf32>)
           outs(%e2 : tensor<6x6x3x3x2x5xf32>) -> tensor<6x6x3x3x2x5xf32>
    %o = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<6x6x3x3x2x2xf32>)
           outs(%y : tensor<2x12x12x2xf32>) -> tensor<2x12x12x2xf32>

Layouts: filter FHWC -> (alphaH, alphaW, C, F); input NHWC -> (alphaH, alphaW, tileH,
tileW, N, C); value (alphaH, alphaW, tileH, tileW, N, F) -> output NHWF, where alpha =
m + r - 1 along a transformed dimension and 1 along an untransformed one. Only syntax and
the verifiers are here (no lowering: Strata does not generate these ops).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir.ods import Op, Operand, Prop, Result
from ...syntax.asm_format import EnumFmt, install_format

__all__ = ["WinogradFilterTransformOp", "WinogradInputTransformOp",
           "WinogradOutputTransformOp", "WINOGRAD_OPS"]

DYN = A.DYNAMIC

# WinogradConv2DFmr: case i is F(m, r) = _FMR[i]
FMR_NAMES = ["F_2_3", "F_4_3", "F_2_5"]
_FMR = [(2, 3), (4, 3), (2, 5)]

FmrAttr = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and 0 <= a.value < len(_FMR),
    "allowed 32-bit signless integer cases: 0, 1, 2")


def _tensor_of_rank(n):
    return C.Constraint(lambda t: type(t) is A.RankedTensorType and t.rank == n,
                        f"{n}D tensor of any non-token type values")


def _compatible(expected, actual) -> bool:
    """verifyCompatibleShape: same rank, static sizes equal where both are static."""
    return len(expected) == len(actual) and all(
        a == b or a == DYN or b == DYN for a, b in zip(expected, actual))


class _Winograd(Op):
    """What the three transforms share: one input, one init, one tensor result; the
    operand and init element types agree."""

    fmr = Prop(FmrAttr, fmt=EnumFmt(FMR_NAMES, type=A.i32, what="fmr"))
    _in_name = ""

    def num_dps_inputs(self):
        return 1

    @property
    def dps_inputs(self):
        return [self.operand(0)]

    @property
    def dps_inits(self):
        return [self.operand(1)]

    def m_r(self):
        return _FMR[self._props["fmr"].value]

    def verify_invariants(self):
        """The property conversion (an `fmr` outside the enum's cases never becomes a
        property), OneResult, then the declaration's checks: upstream's order."""
        a = self._props.get("fmr")
        if a is not None and not FmrAttr.check(a):
            from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError
            body = A.print_attr_dict_entries(sorted(self._props.items()))
            raise DiagnosticError(Diagnostic(
                ERROR, self.loc, f"invalid properties {{{body}}} for op {self.name}: "
                f"Invalid attribute `fmr` in property conversion: {a}"))
        if len(self.results) != 1:
            return "requires one result"
        return super().verify_invariants()

    def verify_(self):
        a, b = self.operand(0).type, self.operand(1).type
        if a.element_type is not b.element_type:
            return (f"failed to verify that all of {{{self._in_name}, output}} have same "
                    "element type")
        return self.verify_shapes()


class WinogradFilterTransformOp(_Winograd):
    """The filter transform: FHWC -> (alphaH, alphaW, C, F)."""

    name = "linalg.winograd_filter_transform"
    filter = Operand(_tensor_of_rank(4))
    output = Operand(_tensor_of_rank(4))
    result = Result(_tensor_of_rank(4))
    _in_name = "filter"
    assembly = ("attr-dict `fmr` `(` $fmr `)` `ins` `(` $filter `:` type($filter) `)` "
                "`outs` `(` $output `:` type($output) `)` `->` type($result)")

    def verify_shapes(self):
        m, r = self.m_r()
        f = self.operand(0).type.shape
        h, w = f[1], f[2]
        if h != r and h != 1:
            return "expect filter height either equals to r or 1"
        if w != r and w != 1:
            return "expect filter width either equals to r or 1"
        if h == 1 and w == 1:
            return "expect either filter height or width equals to r"
        expected = [m + r - 1 if h == r else 1, m + r - 1 if w == r else 1, f[3], f[0]]
        if not _compatible(expected, self.operand(1).type.shape):
            return "the output shape is not expected"
        return None


class WinogradInputTransformOp(_Winograd):
    """The input transform: NHWC -> (alphaH, alphaW, tileH, tileW, N, C)."""

    name = "linalg.winograd_input_transform"
    input = Operand(_tensor_of_rank(4))
    output = Operand(_tensor_of_rank(6))
    result = Result(_tensor_of_rank(6))
    _in_name = "input"
    assembly = ("attr-dict `fmr` `(` $fmr `)` `ins` `(` $input `:` type($input) `)` "
                "`outs` `(` $output `:` type($output) `)` `->` type($result)")

    def verify_shapes(self):
        m, r = self.m_r()
        tile = m + r - 1
        x = self.operand(0).type.shape
        out = self.operand(1).type.shape
        expected = [x[1]] * 6
        for alpha, t, size in ((0, 2, x[1]), (1, 3, x[2])):
            transformed = out[alpha] != 1
            if size == DYN:
                expected[alpha], expected[t] = tile, DYN
            else:
                expected[alpha] = tile if transformed else 1
                expected[t] = (size - (r - 1)) // m if transformed else size
        expected[4], expected[5] = x[0], x[3]
        if not _compatible(expected, out):
            return "the output shape is not expected"
        return None


class WinogradOutputTransformOp(_Winograd):
    """The output transform: (alphaH, alphaW, tileH, tileW, N, F) -> NHWF."""

    name = "linalg.winograd_output_transform"
    value = Operand(_tensor_of_rank(6))
    output = Operand(_tensor_of_rank(4))
    result = Result(_tensor_of_rank(4))
    _in_name = "value"
    assembly = ("attr-dict `fmr` `(` $fmr `)` `ins` `(` $value `:` type($value) `)` "
                "`outs` `(` $output `:` type($output) `)` `->` type($result)")

    def verify_shapes(self):
        m, r = self.m_r()
        v = self.operand(0).type.shape
        expected = [v[0]] * 4
        for alpha, t, dim, what in ((0, 2, 1, "height"), (1, 3, 2, "width")):
            transformed = v[alpha] != 1
            if v[alpha] == DYN or v[t] == DYN:
                expected[dim] = DYN
                continue
            if v[alpha] != (m + r - 1 if transformed else 1):
                return f"expect input {what} equals to input tile size"
            expected[dim] = (m if transformed else 1) * v[t]
        expected[0], expected[3] = v[4], v[5]
        if not _compatible(expected, self.operand(1).type.shape):
            return "the output shape is not expected"
        return None


WINOGRAD_OPS = [WinogradFilterTransformOp, WinogradInputTransformOp,
                WinogradOutputTransformOp]
for _cls in WINOGRAD_OPS:
    install_format(_cls)
