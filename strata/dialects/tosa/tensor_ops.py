"""TOSA tensor operators: argmax, matmul, convolutions, pooling, FFTs and reductions.

Layouts are TOSA's: activations NHWC (NDHWC for conv3d), conv2d weights OHWI,
depthwise weights HWCM, transpose_conv2d weights OHWI; `pad` lists before/after per
spatial dim (`[top, bottom, left, right]`).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir import traits as T
from ...ir.ods import Operand, Prop, Result
from . import base as B
from .base import DYN, TosaOp, dims_str, elt, idiv_check, ranked


class ArgMaxOp(TosaOp):
    """`%r = tosa.argmax %x axis(1) : (tensor<2x3xf32>) -> tensor<2xi32>`"""

    name = "tosa.argmax"
    traits = (T.NoMemoryEffect,)
    input = Operand(B.TensorAtLeast1D)
    axis = B.i32_prop()
    nan_mode = B.nan_mode_prop()
    output = Result(B.Tensor)

    def verify_op(self):
        rt = self.output.type
        re = elt(rt)
        if type(re) not in (A.IntegerType, A.IndexType):
            return "result tensor is not of integer type"
        it = self.input.type
        if not ranked(it):
            return None
        axis = self.axis.value
        if axis < 0 or axis >= it.rank:
            return "specified axis is outside the rank of the tensor"
        if not ranked(rt):
            return None
        expected = list(it.shape)
        del expected[axis]
        if not B.compatible_dims(expected, rt.shape):
            return (f"expected output shape '{_x(expected)}', got '{_x(rt.shape)}'")
        return None


def _x(shape):
    return "x".join("?" if d == DYN else str(d) for d in shape)


# ---------------------------------------------------------------- matmul


class MatMulOp(TosaOp):
    """`%c = tosa.matmul %a, %b, %a_zp, %b_zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>,
    tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>`: batched [..., H, C] x [..., C, W]
    with broadcast batch dims."""

    name = "tosa.matmul"
    traits = (T.NoMemoryEffect,)
    a = Operand(B.TensorAtLeast2D)
    b = Operand(B.TensorAtLeast2D)
    a_zp = Operand(B.ScalarIntOrFloatTensor)
    b_zp = Operand(B.ScalarIntOrFloatTensor)
    output = Result(B.TensorAtLeast2D)
    b_transposed = False

    def verify_op(self):
        a, b = self.a.type, self.b.type
        for v, zp, vn, zn in ((self.a, self.a_zp, "a", "a_zp"),
                              (self.b, self.b_zp, "b", "b_zp")):
            if elt(v.type) is not elt(zp.type):
                return (f"expect input {vn} and {zn} have the same element type, got "
                        f"'{elt(v.type)}' and '{elt(zp.type)}'")
        err = B.zp_value_errors(((self.a_zp, "A"), (self.b_zp, "B")))
        if err:
            return err
        if not (ranked(a) and ranked(b)):
            return None
        ba, bb = a.shape[:-2], b.shape[:-2]
        batch = B.broadcast_shapes(ba, bb)
        if batch is None:
            return (f"expected batch dimensions of a and b to be broadcast compatible, got "
                    f"a=[{dims_str(ba)}] and b=[{dims_str(bb)}]")
        c = a.shape[-1]
        # b is [..., C, W]; matmul_t's is [..., W, C]
        cb, w = (b.shape[-1], b.shape[-2]) if self.b_transposed else (b.shape[-2], b.shape[-1])
        if c != DYN and cb != DYN and c != cb:
            return f"expected channels of b to match size {c}, got {cb}"
        rt = self.output.type
        if ranked(rt):
            return B.output_shape_error(rt.shape, list(batch) + [a.shape[-2], w])
        return None


class MatMulTOp(MatMulOp):
    """`%c = tosa.matmul_t %a, %b, %a_zp, %b_zp : (tensor<1x2x3xf32>, tensor<1x4x3xf32>,
    tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>`: matmul with b transposed,
    [..., H, C] x [..., W, C] -> [..., H, W]."""

    name = "tosa.matmul_t"
    b_transposed = True


# ---------------------------------------------------------------- convolutions


def _conv_size_error(inp, kernel, out, pb, pa, stride, dil, dim, axis, bname, aname):
    """verifyConvOutputSize."""
    if inp == DYN or kernel == DYN:
        return None
    q = idiv_check(inp - 1 + pb + pa - (kernel - 1) * dil, stride)
    if q is None:
        return (f"expected input_{dim} - 1 + pad_{bname} + pad_{aname} - (kernel_{dim} - 1) "
                f"* dilation_{axis} to be wholly divisible by stride_{axis}, got ({inp} - 1 "
                f"+ {pb} + {pa} - ({kernel} - 1) * {dil}) / {stride}")
    if out != DYN and q + 1 != out:
        return f"calculated output {dim} did not match expected: calculated={q + 1}, expected={out}"
    return None


_SPATIAL = (("height", "y", "top", "bottom"), ("width", "x", "left", "right"))
_SPATIAL3 = (("depth", "d", "front", "back"),) + _SPATIAL


class _ConvBase(TosaOp):
    __slots__ = ()
    traits = (T.NoMemoryEffect,)

    def _verify_types(self):
        """verifyConvOp."""
        ie, we = elt(self.input.type), elt(self.weight.type)
        be, re = elt(self.bias.type), elt(self.output.type)
        if B.is_float(be) and B.is_float(re) and be is not re:
            return f"expect both bias and result to have same element type, got '{be}' and '{re}'"
        f8 = ("f8E5M2", "f8E4M3FN")
        if getattr(ie, "name", None) in f8 or getattr(we, "name", None) in f8:
            if ie is not we:
                return (f"expect both input and weight to have same element type, got '{ie}' "
                        f"and '{we}'")
        if B.is_float(ie) != B.is_float(we):
            return (f"expect both input and weight to be float or not together, got '{ie}' "
                    f"and '{we}'")
        return (B.zp_type_error(ie, self.input_zp, "input") or
                B.zp_type_error(we, self.weight_zp, "weight") or
                B.zp_value_errors(((self.input_zp, "Input"), (self.weight_zp, "Weight"))))

    def _verify_bias(self, out_channels):
        bt = self.bias.type
        if not ranked(bt):
            return None
        bc = bt.shape[0]
        if bc == DYN or out_channels == DYN:
            return None
        if bc != out_channels and bc != 1:
            return (f"bias channels expected to be equal to output channels ({out_channels}) "
                    f"or 1, got {bc}")
        return None


class _Conv(_ConvBase):
    """conv2d, conv3d, depthwise_conv2d: verifyConvOp + verifyConvOpErrorIf."""

    __slots__ = ()
    _spatial = _SPATIAL

    def _kernel_dims(self, wt):
        return [wt.shape[i + 1] for i in range(len(self._spatial))]

    def verify_op(self):
        err = self._verify_types()
        if err:
            return err
        pad, stride, dil = (list(self.pad.value), list(self.stride.value),
                            list(self.dilation.value))
        if any(p < 0 for p in pad):
            return f"expect all padding values to be >= 0, got {dims_str(pad)}"
        if any(s < 1 for s in stride):
            return f"expect all stride values to be >= 1, got {dims_str(stride)}"
        if any(d < 1 for d in dil):
            return f"expect all dilation values to be >= 1, got {dims_str(dil)}"
        ot = self.output.type
        if not ranked(ot):
            return None
        it, wt = self.input.type, self.weight.type
        if ranked(it) and ranked(wt):
            kernel = self._kernel_dims(wt)
            for i, names in enumerate(self._spatial):
                err = _conv_size_error(it.shape[i + 1], kernel[i], ot.shape[i + 1],
                                       pad[2 * i], pad[2 * i + 1], stride[i], dil[i], *names)
                if err:
                    return err
        return self._verify_bias(ot.shape[-1])


class _Conv2DOperands(_ConvBase):
    """The operands of the 2-D convolutions (NHWC input)."""

    __slots__ = ()
    input = Operand(B.Tensor4D)
    weight = Operand(B.Tensor4D)
    bias = Operand(B.Tensor1D)
    input_zp = Operand(B.ScalarIntOrFloatTensor)
    weight_zp = Operand(B.ScalarIntOrFloatTensor)
    output = Result(B.Tensor4D)


class _Conv2D(_Conv2DOperands, _Conv):
    __slots__ = ()
    pad = B.int_array_prop(4)
    stride = B.int_array_prop(2)
    dilation = B.int_array_prop(2)
    acc_type = B.acc_type_prop()
    local_bound = B.bool_prop(optional=True)


class Conv2DOp(_Conv2D):
    """`%r = tosa.conv2d %x, %w, %b, %x_zp, %w_zp pad([0, 0, 0, 0]) stride([1, 1])
    dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<8x1x1x3xf32>,
    tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>`"""

    name = "tosa.conv2d"


class DepthwiseConv2DOp(_Conv2D):
    """`%r = tosa.depthwise_conv2d %x, %w, %b, %x_zp, %w_zp pad([0, 0, 0, 0])
    stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x4x4x3xf32>,
    tensor<1x1x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) ->
    tensor<1x4x4x6xf32>` (weights HWCM, output channels C*M)"""

    name = "tosa.depthwise_conv2d"

    def _kernel_dims(self, wt):
        return [wt.shape[0], wt.shape[1]]


class Conv3DOp(_Conv):
    """`%r = tosa.conv3d %x, %w, %b, %x_zp, %w_zp pad([0, 0, 0, 0, 0, 0])
    stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(f32) : ...` (NDHWC, weights ODHWI)"""

    name = "tosa.conv3d"
    _spatial = _SPATIAL3
    input = Operand(B.Tensor5D)
    weight = Operand(B.Tensor5D)
    bias = Operand(B.Tensor1D)
    input_zp = Operand(B.ScalarIntOrFloatTensor)
    weight_zp = Operand(B.ScalarIntOrFloatTensor)
    pad = B.int_array_prop(6)
    stride = B.int_array_prop(3)
    dilation = B.int_array_prop(3)
    acc_type = B.acc_type_prop()
    local_bound = B.bool_prop(optional=True)
    output = Result(B.Tensor5D)


class TransposeConv2DOp(_Conv2DOperands):
    """`%r = tosa.transpose_conv2d %x, %w, %b, %x_zp, %w_zp out_pad([0, 0, 0, 0])
    stride([1, 1]) acc_type(f32) : ...` (weights OHWI)"""

    name = "tosa.transpose_conv2d"
    out_pad = B.int_array_prop(4)
    stride = B.int_array_prop(2)
    acc_type = B.acc_type_prop()
    local_bound = B.bool_prop(optional=True)

    def verify_op(self):
        err = self._verify_types()
        if err:
            return err
        stride = list(self.stride.value)
        if stride[0] < 1 or stride[1] < 1:
            return f"expect all stride values to be >= 1, got [{dims_str(stride)}]"
        pad = list(self.out_pad.value)
        wt, it, ot = self.weight.type, self.input.type, self.output.type
        names = (("out_pad_top", "KH", 1), ("out_pad_bottom", "KH", 1),
                 ("out_pad_left", "KW", 2), ("out_pad_right", "KW", 2))
        if ranked(wt):
            for p, (pn, kn, dim) in zip(pad, names):
                k = wt.shape[dim]
                if k != DYN and p <= -k:
                    return f"expected {pn} > -{kn}, but got: {pn}={p} and {kn}={k}"
        if not ranked(ot):
            return None
        if ranked(it) and ranked(wt):
            for dim, (o, i, k, s, p0, p1), (on, ins, sn, kn, pn0, pn1) in (
                    (1, (ot.shape[1], it.shape[1], wt.shape[1], stride[0], pad[0], pad[1]),
                     ("OH", "IH", "stride_y", "KH", "out_pad_top", "out_pad_bottom")),
                    (2, (ot.shape[2], it.shape[2], wt.shape[2], stride[1], pad[2], pad[3]),
                     ("OW", "IW", "stride_x", "KW", "out_pad_left", "out_pad_right"))):
                if i != DYN and o != DYN and o != (i - 1) * s + p0 + p1 + k:
                    return (f"dimension mismatch: expected {on} == ({ins} - 1) * {sn} + "
                            f"{pn0} + {pn1} + {kn}, but got {o} != ({i} - 1) * {s} + {p0} "
                            f"+ {p1} + {k}")
        return self._verify_bias(ot.shape[3])


# ---------------------------------------------------------------- pooling


def _pool_error(op, kernel, stride, pad):
    """verifyPoolingOpImpl."""
    err = B.same_element_types(op.input.type, op.output.type)
    if err:
        return err
    if any(k < 1 for k in kernel):
        return f"expect all kernel values to be >= 1, got {dims_str(kernel)}"
    if any(s < 1 for s in stride):
        return f"expect all stride values to be >= 1, got {dims_str(stride)}"
    if any(p < 0 for p in pad):
        return f"expect all padding values to be >= 0, got {dims_str(pad)}"
    if pad[3] >= kernel[1] or pad[2] >= kernel[1]:
        return ("expected left/right padding to be less than the width of the kernel, got "
                f"pad_left={pad[2]}, pad_right={pad[3]}, kernel_x={kernel[1]}")
    if pad[0] >= kernel[0] or pad[1] >= kernel[0]:
        return ("expected top/bottom padding to be less than the height of the kernel, got "
                f"pad_top={pad[0]}, pad_bottom={pad[1]}, kernel_y={kernel[0]}")
    it, ot = op.input.type, op.output.type
    if not ranked(it) or not ranked(ot):
        return None
    for i, (dim, axis, bn, an) in enumerate(_SPATIAL):
        size = it.shape[i + 1]
        if size == DYN:
            continue
        q = idiv_check(size + pad[2 * i] + pad[2 * i + 1] - kernel[i], stride[i])
        if q is None:
            return (f"expected input_{dim} + pad_{bn} + pad_{an} - kernel_{axis} to be wholly "
                    f"divisible by stride_{axis}, got ({size} + {pad[2 * i]} + "
                    f"{pad[2 * i + 1]} - {kernel[i]}) / {stride[i]}")
        out = ot.shape[i + 1]
        if out != DYN and q + 1 != out:
            return (f"calculated output {dim} did not match expected: calculated={q + 1}, "
                    f"expected={out}")
    return None


class AvgPool2dOp(TosaOp):
    """`%r = tosa.avg_pool2d %x, %in_zp, %out_zp kernel([2, 2]) stride([2, 2])
    pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x3xf32>, tensor<1xf32>,
    tensor<1xf32>) -> tensor<1x2x2x3xf32>`"""

    name = "tosa.avg_pool2d"
    traits = (T.NoMemoryEffect,)
    input = Operand(B.Tensor4D)
    input_zp = Operand(B.ScalarIntOrFloatTensor)
    output_zp = Operand(B.ScalarIntOrFloatTensor)
    kernel = B.int_array_prop(2)
    stride = B.int_array_prop(2)
    pad = B.int_array_prop(4)
    acc_type = B.acc_type_prop()
    output = Result(B.Tensor4D)

    def verify_op(self):
        err = _pool_error(self, list(self.kernel.value), list(self.stride.value),
                          list(self.pad.value))
        if err:
            return err
        ie, re = elt(self.input.type), elt(self.output.type)
        acc = self.acc_type.value
        if type(ie) is A.IntegerType and acc is not A.i32:
            return "accumulator type for integer tensor is not i32"
        if ie is A.f16 and acc not in (A.f16, A.f32):
            return "accumulator type for f16 tensor is not f16/f32"
        if ie is A.bf16 and acc is not A.f32:
            return "accumulator type for bf16 tensor is not f32"
        if ie is A.f32 and acc is not A.f32:
            return "accumulator type for f32 tensor is not f32"
        return (B.zp_type_error(ie, self.input_zp, "input") or
                B.zp_type_error(re, self.output_zp, "output") or
                B.zp_value_errors(((self.input_zp, "Input"), (self.output_zp, "Output"))))


class MaxPool2dOp(TosaOp):
    """`%r = tosa.max_pool2d %x kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) :
    (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>`"""

    name = "tosa.max_pool2d"
    traits = (T.Pure,)
    input = Operand(B.Tensor4D)
    kernel = B.int_array_prop(2)
    stride = B.int_array_prop(2)
    pad = B.int_array_prop(4)
    nan_mode = B.nan_mode_prop()
    output = Result(B.Tensor4D)

    def verify_op(self):
        return _pool_error(self, list(self.kernel.value), list(self.stride.value),
                           list(self.pad.value))


# ---------------------------------------------------------------- FFT


def _power_of_two_error(size, what):
    if size != DYN and (size <= 0 or size & (size - 1)):
        return f"expected {what} to be a power of two, got {size}"
    return None


class FFT2dOp(TosaOp):
    """`%re, %im = tosa.fft2d %xr, %xi inverse(false) : (tensor<1x4x8xf32>,
    tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)`"""

    name = "tosa.fft2d"
    traits = (T.Pure, B.SameOperandsAndResultElementType, B.SameOperandsAndResultShape)
    input_real = Operand(B.Tensor3D)
    input_imag = Operand(B.Tensor3D)
    inverse = B.bool_prop()
    local_bound = B.bool_prop(optional=True)
    output_real = Result(B.Tensor3D)
    output_imag = Result(B.Tensor3D)

    def asm_result_names(self):
        return ["output_real", "output_imag"]

    def verify_op(self):
        a, b = self.input_real.type, self.input_imag.type
        if not B.is_float(elt(a)):
            return "requires a floating point type"
        if not ranked(a) or not ranked(b):
            return None
        h = a.shape[1] if a.shape[1] == DYN else b.shape[1]
        w = a.shape[2] if a.shape[2] == DYN else b.shape[2]
        return _power_of_two_error(h, "height") or _power_of_two_error(w, "width")


class RFFT2dOp(TosaOp):
    """`%re, %im = tosa.rfft2d %x : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>,
    tensor<1x4x5xf32>)`"""

    name = "tosa.rfft2d"
    traits = (T.Pure, B.SameOperandsAndResultElementType)
    input_real = Operand(B.Tensor3D)
    local_bound = B.bool_prop(optional=True)
    output_real = Result(B.Tensor3D)
    output_imag = Result(B.Tensor3D)

    def asm_result_names(self):
        return ["output_real", "output_imag"]

    def verify_op(self):
        if not B.is_float(elt(self.input_real.type)):
            return "requires a floating point type"
        o1, o2 = self.output_real.type, self.output_imag.type
        if not B.compatible_types(o1, o2):
            return f"expected output shapes to match, got '{o1}', '{o2}'"
        it = self.input_real.type
        if not ranked(it):
            return None
        err = _power_of_two_error(it.shape[1], "height") or \
            _power_of_two_error(it.shape[2], "width")
        if err or not ranked(o1):
            return err
        if not B.compatible_dims(it.shape[:-1], o1.shape[:-1]):
            return ("expected batch and height dimensions of input/output to match, got "
                    f"input='{it}' output='{o1}'")
        w, ow = it.shape[2], o1.shape[2]
        if w != DYN and ow != DYN and ow != w // 2 + 1:
            return f"expected output width to be equal to input_width / 2 + 1, got {ow}"
        return None


# ---------------------------------------------------------------- reductions


class _Reduce(TosaOp):
    __slots__ = ()
    traits = (T.Pure,)
    infers_type = True
    input = Operand(B.TensorAtLeast1D)
    axis = B.i32_prop()
    output = Result(B.TensorAtLeast1D)

    def verify_op(self):
        """verifyReduceOp."""
        it, ot = self.input.type, self.output.type
        axis = self.axis.value
        if axis < 0:
            return "reduce axis must not be negative"
        if ranked(it) and axis >= it.rank and (axis != 0 or it.rank != 0):
            return f"expect input tensor rank ({it.rank}) to be larger than reduce axis ({axis})"
        if ranked(ot):
            if ranked(it) and ot.rank != it.rank:
                return "expect output tensor rank to be equal to input tensor rank"
            if axis >= ot.rank and (axis != 0 or ot.rank != 0):
                return (f"expect output tensor rank ({ot.rank}) to be larger than reduce "
                        f"axis ({axis})")
            if ot.rank and ot.shape[axis] != DYN and ot.shape[axis] != 1:
                return f"expect reduced dimension size to be 1, got {ot.shape[axis]}"
        return None

    def inferred_types(self):
        it = self.input.type
        axis = self.axis.value
        if not ranked(it) or it.rank <= axis:
            return [A.UnrankedTensorType(it.element_type)]
        shape = list(it.shape)
        shape[axis] = 1
        return [A.RankedTensorType(shape, it.element_type)]


class ReduceAllOp(_Reduce):
    """`%r = tosa.reduce_all %x axis(0) : (tensor<2x3xi1>) -> tensor<1x3xi1>`"""
    name = "tosa.reduce_all"


class ReduceAnyOp(_Reduce):
    """`%r = tosa.reduce_any %x axis(0) : (tensor<2x3xi1>) -> tensor<1x3xi1>`"""
    name = "tosa.reduce_any"


class ReduceMaxOp(_Reduce):
    """`%r = tosa.reduce_max %x axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>`"""
    name = "tosa.reduce_max"
    nan_mode = B.nan_mode_prop()


class ReduceMinOp(_Reduce):
    """`%r = tosa.reduce_min %x axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>`"""
    name = "tosa.reduce_min"
    nan_mode = B.nan_mode_prop()


class ReduceProductOp(_Reduce):
    """`%r = tosa.reduce_product %x axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>`"""
    name = "tosa.reduce_product"
    traits = (T.NoMemoryEffect,)


class ReduceSumOp(_Reduce):
    """`%r = tosa.reduce_sum %x axis(1) : (tensor<2x3xf32>) -> tensor<2x1xf32>`"""
    name = "tosa.reduce_sum"
    traits = (T.NoMemoryEffect,)


OPS = [ArgMaxOp, MatMulOp, MatMulTOp, Conv2DOp, Conv3DOp, DepthwiseConv2DOp, TransposeConv2DOp,
       AvgPool2dOp, MaxPool2dOp, FFT2dOp, RFFT2dOp, ReduceAllOp, ReduceAnyOp, ReduceMaxOp,
       ReduceMinOp, ReduceProductOp, ReduceSumOp]
