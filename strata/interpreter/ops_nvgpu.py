"""The nvgpu dialect's tensor core ops in the reference interpreter, inside GPU kernels
(see [Note: SIMT interpretation] in ops_gpu.py), with the PTX ISA's per-lane fragment
layouts, so that a kernel that puts a wrong element in a lane's fragment computes a
wrong answer here, as it would on the device.

    nvgpu.ldmatrix   lanes 8j ... 8j + 7 give the rows of 8x8 matrix j; lane l then
                     holds row l / 4, columns 2 (l % 4), 2 (l % 4) + 1 of each matrix
                     (transposed: rows 2 (l % 4) and 2 (l % 4) + 1, column l / 4)
    nvgpu.mma.sync   each warp's A, B and C assembled from its 32 lanes' fragments,
                     D = A B + C (f16 / bf16 products exact in f32, TF32 operands
                     truncated to 10 mantissa bits), D handed back in C's layout

[Note: mma fragments]
`fragment_layout(shape, operand, dtype)` gives, for each lane and each element of its
fragment vector (register r, element e: `a_{E r + e}` in the ISA's numbering), the row
and column of the matrix it holds (PTX ISA 9.7.14.5.7-8, "Matrix Fragments for
mma.m16n8k8 / mma.m16n8k16"). groupID = lane >> 2, tid = lane % 4:
  m16n8k16 f16/bf16  A: row g + 8 (r & 1), col 2 tid + e + 8 (r >> 1)
                     B: row (k) 2 tid + e + 8 r, col (n) g
  m16n8k8 f16/bf16   A: row g + 8 r, col 2 tid + e;  B: row 2 tid + e, col g
  m16n8k8 tf32       A: row g + 8 (r & 1), col tid + 4 (r >> 1)
                     B: row tid + 4 r, col g
  C / D (all)        row g + 8 r, col 2 tid + e
Every lane of a warp must run the op (mma.sync and ldmatrix are `.aligned`: a warp with
some lanes away is undefined behaviour, reported here).
"""
from __future__ import annotations

import numpy as np

from .core import fail
from .ops_gpu import SUBGROUP_SIZE, _address, simt

__all__ = ["fragment_layout"]

_LANES = np.arange(SUBGROUP_SIZE)


def fragment_layout(shape, operand: str, dtype: str):
    """(rows, cols): int arrays of shape (32, R, E), the matrix element each lane's
    register r, element e holds (see [Note: mma fragments])."""
    g = (_LANES >> 2)[:, None, None]
    t = (_LANES % 4)[:, None, None]
    m, n, k = shape
    if operand == "C":
        r = np.arange(2)[None, :, None]
        e = np.arange(2)[None, None, :]
        return np.broadcast_arrays(g + 8 * r, 2 * t + e)
    if dtype == "f32":                     # tf32, m16n8k8
        if operand == "A":
            r = np.arange(4)[None, :, None]
            return np.broadcast_arrays(g + 8 * (r & 1), t + 4 * (r >> 1))
        r = np.arange(2)[None, :, None]
        return np.broadcast_arrays(t + 4 * r, g)
    e = np.arange(2)[None, None, :]
    if k == 16:
        if operand == "A":
            r = np.arange(4)[None, :, None]
            return np.broadcast_arrays(g + 8 * (r & 1), 2 * t + e + 8 * (r >> 1))
        r = np.arange(2)[None, :, None]
        return np.broadcast_arrays(2 * t + e + 8 * r, g)
    if operand == "A":                     # m16n8k8 f16 / bf16
        r = np.arange(2)[None, :, None]
        return np.broadcast_arrays(g + 8 * r, 2 * t + e)
    return np.broadcast_arrays(2 * t + e + 0 * np.arange(1)[None, :, None], g)


def _warps(k, op, S):
    """The positions in S (or in the chunk) of every active lane, as (warps, 32): every
    lane of each warp must be active."""
    lanes = np.arange(k.L) if S is None else np.asarray(S)
    n = len(lanes)
    lin = k.lin[lanes]
    if n % SUBGROUP_SIZE or k.T % SUBGROUP_SIZE:
        fail(op, f"needs every lane of a warp ({k.where(S)} runs it with some lanes of its "
                 "warp not running it)")
    pos = np.arange(n).reshape(-1, SUBGROUP_SIZE)
    warp_lanes = lanes[pos]
    ok = (lin[pos] % SUBGROUP_SIZE == _LANES) & \
        (warp_lanes - warp_lanes[:, :1] == _LANES)
    if not ok.all():
        bad = int(np.flatnonzero(~ok.all(axis=1))[0])
        fail(op, f"needs every lane of a warp ({k.where(lanes[pos[bad]][:1])} runs it with "
                 "some lanes of its warp not running it)")
    return pos


def _per_lane(k, v, S, shape, dtype):
    x = np.asarray(k.get(v, S))
    n = k.n(S)
    if x.shape != (n,) + shape:
        x = np.broadcast_to(x, (n,) + shape)
    return x.astype(dtype, copy=False)


@simt("nvgpu.ldmatrix")
def _ldmatrix(k, op, S):
    mem = k.get(op._operands[0].value, S)
    idx_vals = [k.get(o.value, S) for o in op._operands[1:]]
    num = op.properties["numTiles"].value
    trans = bool(op.properties["transpose"].value)
    pos = _warps(k, op, S)
    n = k.n(S)
    data, idx = _address(k, op, mem, idx_vals, S, False)
    idx = [np.broadcast_to(np.asarray(i), (n,)) for i in idx]
    # lane l, tile j, element e: row address of lane 8j + (row within the tile)
    lane = _LANES[:, None, None]
    j = np.arange(num)[None, :, None]
    e = np.arange(2)[None, None, :]
    if trans:
        row, col = 2 * (lane % 4) + e, lane // 4 + 0 * e
    else:
        row, col = lane // 4 + 0 * e, 2 * (lane % 4) + e
    src = 8 * j + row                                        # (32, num, 2)
    src_pos = pos[:, src]                                    # (warps, 32, num, 2)
    full = [i[src_pos] for i in idx]
    last = full[-1] + col
    if (last >= data.shape[-1]).any():
        fail(op, f"reads a row past the end of dimension {len(idx_vals) - 1} of size "
                 f"{data.shape[-1]} ({k.where(S)})")
    full[-1] = last
    out = np.empty((n, num, 2), data.dtype)
    out[pos.reshape(-1)] = data[tuple(full)].reshape(-1, num, 2)
    k.set(op.results[0], out, S)


def _tf32(x):
    """f32 values as TF32 (the low 13 mantissa bits dropped, as the tensor cores read
    them)."""
    b = np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return b.view(np.float32)


@simt("nvgpu.mma.sync")
def _mma_sync(k, op, S):
    shape = tuple(a.value for a in op.properties["mmaShape"].value)
    m, nn, kk = shape
    ta = op._operands[0].value.type
    et = str(ta.element_type)
    if et == "f32" and "tf32Enabled" not in op.properties:
        fail(op, "has f32 operands without tf32Enabled: no tensor core runs them")
    pos = _warps(k, op, S)
    w = len(pos)
    mats = []
    for v, operand, rows, cols in ((op._operands[0].value, "A", m, kk),
                                   (op._operands[1].value, "B", kk, nn),
                                   (op._operands[2].value, "C", m, nn)):
        r, c = fragment_layout(shape, operand, et if operand != "C" else "f32")
        frag = _per_lane(k, v, S, tuple(v.type.shape), np.float32)[pos]   # (w, 32, R, E)
        mat = np.zeros((w, rows, cols), np.float32)
        mat[:, r, c] = frag
        mats.append(mat)
    a, b, c = mats
    if et == "f32":
        a, b = _tf32(a), _tf32(b)
    d = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c   # exact products
    rt = op.results[0].type
    r, cc = fragment_layout(shape, "C", "f32")
    out = d[:, r, cc].reshape((-1,) + tuple(rt.shape))
    res = np.empty((k.n(S),) + tuple(rt.shape), np.float16 if str(rt.element_type) == "f16"
                   else np.float32)
    res[pos.reshape(-1)] = out.astype(res.dtype)
    k.set(op.results[0], res, S)


# (outside a kernel: the op needs a warp)
def _outside(interp, op, args):
    fail(op, "runs only inside a GPU kernel (a warp-wide operation)")


from .core import impl  # noqa: E402

for _name in ("nvgpu.ldmatrix", "nvgpu.mma.sync"):
    impl(_name)(_outside)
