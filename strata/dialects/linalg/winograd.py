"""The Winograd convolution transforms: `linalg.winograd_filter_transform`,
`linalg.winograd_input_transform` and `linalg.winograd_output_transform`.

    %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>)
           outs(%o : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>

`fmr` names F(m, r): output tile m, filter size r (a tile of m + r - 1 input elements).
Layouts: filter (F, H, W, C) -> (alphaH, alphaW, C, F); input (N, H, W, C) -> (alphaH,
alphaW, tileH, tileW, N, C); output transform (alphaH, alphaW, tileH, tileW, N, F) ->
(N, H, W, F).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import constraints as C
from ...ir import traits as T
from ...ir.ods import Op, Operand, Prop, Result
from ...syntax.lexer import BARE, STRING
from .structured import parse_attr_dict_checked, verify_destination_style

__all__ = ["WinogradFilterTransformOp", "WinogradInputTransformOp",
           "WinogradOutputTransformOp", "WINOGRAD_OPS"]

DYN = A.DYNAMIC
FMRS = ("F_2_3", "F_4_3", "F_2_5")
_M_R = {0: (2, 3), 1: (4, 3), 2: (2, 5)}

_FmrAttr = C.Constraint(
    lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and 0 <= a.value < len(FMRS),
    "allowed 32-bit signless integer cases: 0, 1, 2")


def _tensor_of_rank(n):
    return C.Constraint(lambda t: type(t) is A.RankedTensorType and t.rank == n,
                        f"{n}D tensor of any non-token type values")


def _compatible(expected, shape) -> bool:
    return len(expected) == len(shape) and all(
        a == b or a == DYN or b == DYN for a, b in zip(expected, shape))


class _Winograd(Op):
    traits = (T.Pure,)
    fmr = Prop(_FmrAttr)
    result = Result(C.AnyRankedTensor)

    def num_dps_inputs(self):
        return 1

    def m_r(self):
        return _M_R[self._props["fmr"].value]

    def verify_(self):
        err = verify_destination_style(self)
        if err:
            return err
        return self.verify_shapes()

    def verify_shapes(self):
        raise NotImplementedError

    @classmethod
    def new(cls, input, output, fmr: str, loc=None):
        return cls.create([input, output], [output.type],
                          {"fmr": A.IntegerAttr(FMRS.index(fmr), A.i32)}, None, (), 0, loc)

    @classmethod
    def parse(cls, p, st):
        parse_attr_dict_checked(p, st)
        p.parse_keyword("fmr")
        p.expect("(")
        at = p.tok_start
        word = p.tok if p.kind == BARE else (p.tok[1:-1] if p.kind == STRING else None)
        if word not in FMRS:
            p.error(f"custom op '{cls.name}' expected string or keyword containing one of "
                    f"the following enum values for attribute 'fmr' [{', '.join(FMRS)}]", at)
        p._next()
        st.properties["fmr"] = A.IntegerAttr(FMRS.index(word), A.i32)
        p.expect(")")
        values = []
        for kw in ("ins", "outs"):
            p.parse_keyword(kw)
            p.expect("(")
            ref = p.parse_operand()
            p.expect(":")
            values.append((ref, _parse_tensor_type(p, cls.name)))
            p.expect(")")
        p.expect("->")
        st.types = [_parse_tensor_type(p, cls.name)]
        st.operands = [p.resolve_operand(r, t) for r, t in values]

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        pr.print_optional_attr_dict(self.attributes)
        a, b = self.operands
        out.append(f" fmr({FMRS[self._props['fmr'].value]}) ins({pr.value(a)} : "
                   f"{pr.type_str(a.type)}) outs({pr.value(b)} : {pr.type_str(b.type)}) -> "
                   f"{pr.type_str(self.results[0].type)}")


def _parse_tensor_type(p, name):
    at = p.tok_start
    t = p.parse_type()
    if not isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
        p.error(f"custom op '{name}' invalid kind of type specified: expected builtin.tensor, "
                f"but found '{t}'", at)
    return t


class WinogradFilterTransformOp(_Winograd):
    """`linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<FxHxWxC>) outs(...)`"""

    name = "linalg.winograd_filter_transform"
    filter = Operand(_tensor_of_rank(4))
    output = Operand(_tensor_of_rank(4))

    def verify_shapes(self):
        f = self.operand(0).type.shape
        m, r = self.m_r()
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
    """`linalg.winograd_input_transform fmr(F_4_3) ins(%i : tensor<NxHxWxC>) outs(...)`"""

    name = "linalg.winograd_input_transform"
    input = Operand(_tensor_of_rank(4))
    output = Operand(_tensor_of_rank(6))

    def verify_shapes(self):
        i = self.operand(0).type.shape
        out = self.operand(1).type.shape
        m, r = self.m_r()
        tile = m + r - 1
        expected = [i[1]] * 6
        for alpha, tdim, size in ((0, 2, i[1]), (1, 3, i[2])):
            if size == DYN:
                expected[alpha], expected[tdim] = tile, DYN
            else:
                transform = out[alpha] != 1
                expected[alpha] = tile if transform else 1
                expected[tdim] = (size - (r - 1)) // m if transform else size
        expected[4], expected[5] = i[0], i[3]
        if not _compatible(expected, out):
            return "the output shape is not expected"
        return None


class WinogradOutputTransformOp(_Winograd):
    """`linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<6x6xTHxTWxNxF>)
    outs(%o : tensor<NxHxWxF>)`"""

    name = "linalg.winograd_output_transform"
    value = Operand(_tensor_of_rank(6))
    output = Operand(_tensor_of_rank(4))

    def verify_shapes(self):
        v = self.operand(0).type.shape
        m, r = self.m_r()
        expected = [v[0]] * 4
        for alpha, tdim, odim, what in ((0, 2, 1, "height"), (1, 3, 2, "width")):
            size, tiles = v[alpha], v[tdim]
            transform = size != 1
            if size == DYN or tiles == DYN:
                expected[odim] = DYN
            else:
                if size != (m + r - 1 if transform else 1):
                    return f"expect input {what} equals to input tile size"
                expected[odim] = (m if transform else 1) * tiles
        expected[0], expected[3] = v[4], v[5]
        if not _compatible(expected, self.operand(1).type.shape):
            return "the output shape is not expected"
        return None


WINOGRAD_OPS = [WinogradFilterTransformOp, WinogradInputTransformOp,
                WinogradOutputTransformOp]
