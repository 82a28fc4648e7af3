"""DepthToSpace and SpaceToDepth: blocks of channels moved to and from the image.

Each is a view change around one transpose (see [Note: space and depth]): the channel
or spatial dims are expanded into their block factors, `linalg.transpose` moves the
factors, and a collapse joins them again. DepthToSpace(blocksize=2, DCR) of a
1x8x2x3 input:

    %e = tensor.expand_shape %x [[0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 2, 3]
        : tensor<1x8x2x3xf32> into tensor<1x2x2x2x2x3xf32>
    %t = linalg.transpose ins(%e : tensor<1x2x2x2x2x3xf32>)
        outs(%i : tensor<1x2x2x2x3x2xf32>) permutation = [0, 3, 4, 1, 5, 2]
    %y = tensor.collapse_shape %t [[0], [1], [2, 3], [4, 5]]
        : tensor<1x2x2x2x3x2xf32> into tensor<1x2x4x6xf32>

[Note: space and depth]
With b the blocksize, DepthToSpace reads channel c' = (i*b + j)*C/b^2 + c (DCR) or
c*b^2 + i*b + j (CRD) at output pixel (h*b + i, w*b + j); SpaceToDepth is DCR's
inverse. Dims may be dynamic: C/b^2 (or H/b, W/b) is then computed at run time, and
that b^2 divides C (b divides H and W) is checked by a cf.assert naming the node, as
onnxruntime refuses such inputs; after a failed check the sizes are rounded down, so
nothing is read out of bounds.
"""
from __future__ import annotations

from . import NotLowerable, lowering
from ._index_check import check_dims
from ._shape_util import Ix, collapse, expand, finish
from .common import empty, ranked, scalars, sizes_of


def _blocksize(cx, x):
    if ranked(cx, x.type).rank != 4:
        raise NotLowerable(f"the input must have rank 4, not {x.type.rank}")
    b = int(cx.attr("blocksize", 0) or 0)
    if b < 1:
        raise NotLowerable(f"blocksize must be positive, not {b}")
    return b


def _transpose(cx, v, perm):
    from ...dialects.linalg import TransposeOp
    dims = sizes_of(cx, v)
    init = empty(cx, [dims[p] for p in perm], v.type.element_type)
    return cx.b.insert(TransposeOp.new(v, init, perm, loc=cx.loc)).results[0]


def _divided(cx, ix, size, by, what):
    """`size // by`, checked to divide exactly."""
    check_dims(cx, [(ix.mod(size, by), 0, "eq", f"{what} must be a multiple of {by}")])
    return ix.floordiv(size, by)


@lowering("DepthToSpace")
def _depth_to_space(cx):
    x = cx.operands[0]
    b = _blocksize(cx, x)
    ix = Ix(scalars(cx))
    n, c, h, w = sizes_of(cx, x)
    cb = _divided(cx, ix, c, b * b, "the channel count")
    if cx.attr("mode", "DCR") == "CRD":
        e = expand(cx, x, [[0], [1, 2, 3], [4], [5]], [n, cb, b, b, h, w])
        perm = [0, 1, 4, 2, 5, 3]
    else:
        e = expand(cx, x, [[0], [1, 2, 3], [4], [5]], [n, b, b, cb, h, w])
        perm = [0, 3, 4, 1, 5, 2]
    t = _transpose(cx, e, perm)
    return [finish(cx, collapse(cx, t, [[0], [1], [2, 3], [4, 5]]))]


@lowering("SpaceToDepth")
def _space_to_depth(cx):
    x = cx.operands[0]
    b = _blocksize(cx, x)
    ix = Ix(scalars(cx))
    n, c, h, w = sizes_of(cx, x)
    hb = _divided(cx, ix, h, b, "the height")
    wb = _divided(cx, ix, w, b, "the width")
    e = expand(cx, x, [[0], [1], [2, 3], [4, 5]], [n, c, hb, b, wb, b])
    # DCR (the default): channel (i*b + j)*C + c; CRD (opset 25's mode): c*b^2 + i*b + j
    crd = cx.attr("mode", "DCR") == "CRD"
    t = _transpose(cx, e, [0, 1, 3, 5, 2, 4] if crd else [0, 3, 5, 1, 2, 4])
    return [finish(cx, collapse(cx, t, [[0], [1, 2, 3], [4], [5]]))]
