"""`strata-linalg-attention-to-microkernels`: attention on buffers, product -> scale ->
mask -> softmax -> product, becomes one call of the CPU target's fused attention kernel
(strata/backends/cpu/kernels_attention.py), which never writes the seq x seq scores.

    linalg.batch_matmul ins(%q, %k : memref<6x1500x64xf32>, memref<6x64x1500xf32>)
                        outs(%s : memref<6x1500x1500xf32>)
    linalg.generic {s * 0.125 + mask}            ins(%s, %sc, %mask) outs(%x)
    linalg.generic {max}  ins(%x) outs(%m)       (after a fill of -inf)
    linalg.generic {exp(x - m)} ins(%x, %m) outs(%e)
    linalg.generic {sum}  ins(%e) outs(%l)       (after a fill of 0)
    linalg.generic {e / l} ins(%e, %l) outs(%p)
    linalg.batch_matmul ins(%p, %v : ...) outs(%o : memref<6x1500x64xf32>)
=>
    call @strata_attention_f32(%c1, %c6, %c1500, %c1500, %c64, %c64, %q, ...,
                               %scale, %mask, ..., %flags)

It runs after bufferization, before strata-linalg-to-microkernels (which would turn the
two products into GEMM calls).

[Note: what attention is matched]
Anchored at the second product (any contraction strata-linalg-to-microkernels matches:
`match_contraction`), walking back through whole views (expand/collapse_shape, cast) of
static-shape buffers:
- P: the product's A, a buffer written only by `e / l`, or `select(any, e / l, 0)`
  (torch's _safe_softmax: `any` the reduction "some score of the row is not -inf" ->
  ATTN_SAFE_SOFTMAX), or `select(isnan(e / l), 0, e / l)` (the ONNX exporter's SDPA:
  a row with a NaN, a +inf or no finite score gives 0 -> ATTN_NAN_TO_ZERO);
- l: the sum of e along the rows (filled with 0 before); e: exp(x - m); m: the max of x
  along the rows (filled with -inf);
- x: the scores, either the first product's C itself or one elementwise generic of it,
  `s`, `s * c`, `c * s`, `s / c`, each optionally `+ mask` (either side): c a scalar
  (a rank-0 or one-element buffer, or a constant), the mask any buffer read through a
  map of loop dims and zeros (its strides per loop: broadcasts are stride 0), or
  torch's is_causal bias computed in the body, `select(j <= i, 0, -inf)` of the
  linalg.index values of the key loop (the last) and the row loop (the one before;
  either operand order, signed or unsigned, or `select(j > i, -inf, 0)`), which
  becomes ATTN_CAUSAL, no buffer (any other mask computed in the body is written to a
  buffer of the loops it varies along);
- the first product S = Q K^T: a contraction whose C is a whole, zero-filled buffer
  [batch, M, N] (K read through any strides: K or a materialized K^T alike).
Every intermediate buffer (S, x, m, e, l, P, the flags) must be used by the chain only
(and its fills, views, deallocs), every elementwise and reduction op must walk them in
the same row-major order (maps of loop dims in order, zeros on unit dims; rows reduce
along the last loop, of extent N), and Q, K, the mask and the scale must not be written
between the two products (the call replaces the second; deallocs of its inputs in
between move after it). The batch of the products (collapsed) is split into the
kernel's B1 x B2 as the mask's loops split it (batch and heads: a mask broadcast along
the heads). A static N must be at least `min-keys` (short sequences keep the two
GEMMs: measured faster there); sizes may be run-time ones ([Note: dynamic sizes]).

[Note: Q and K scaled before the product]
The ONNX exporter's SDPA (and HF's exports of it) scales Q and K by sqrt(scale) each
before the first product (softmax(Q sqrt(s) . (K sqrt(s))^T)), two elementwise
generics over [batch, heads, seq, dim] buffers that keep the transposes before them
from folding into the product: a buffer read only by the first product and written only
by `source * c` (c an f32 constant, the identity walk, the source of the same type and
not written before the chain; or a plain copy, c = 1: HF Whisper's SDPA, whose scale 1.0
the exporter's sqrt folds away) is dropped, the product reading the source, and the
kernel's scale becomes scale * c_q * c_k (q c_q . k c_k rounds differently from
(q . k) c_q c_k: by an ulp or so of the scores, as onnxruntime's attention fusion does).
The source must be an alloc of the block read by nothing after the scaling (its deallocs
go, and the scaled buffer's, after the call, free it) or an argument (the scaled
buffer's deallocs go).

[Note: dynamic sizes]
The matcher reasons on sizes as `_Size`s: an int times a product of run-time sizes,
each named by where it comes from, so that equal sizes compare equal however they are
read. A run-time dim is traced through whole views, rank-preserving subviews and
`memref.dim` to the alloc operand (or expand_shape output size) that sets it; a
function argument's dim named in `onnx.dim_params` is that name (the runtime's and the
native library's entry checks make inputs naming a dim alike agree); any other is its
own. Every size the kernel reads must agree where two operands share a loop (Q's rows
and O's, K's and V's keys, D, E; a mask's dims are 1 or the loop's): what cannot be
shown equal is not fused, and the two products keep the checks their lowering made.
Strides of identity-layout buffers are products of those sizes; the call computes the
run-time ones (memref.extract_strided_metadata, arith.muli), and the memref.dim ops
that read an intermediate's sizes read them from where they come. A run-time N cannot
be compared with `min-keys` here, so it always takes the kernel: below 32 keys the
kernel is about 15-25% slower than the two GEMMs (microseconds: 6 heads x 16 keys,
0.07 vs 0.06 ms at 1 thread; bench/attention.py --seqs 8 16 24 32), equal from ~128.
Masks computed in place get a buffer of run-time size (_make_mask).

[Note: a causal mask in a mask buffer]
HF decoders (GPT-2) exported to ONNX build one run-time mask, select(tril & padding, 0,
-inf): a constant lower-triangular i1 initializer (true where key j <= row i) and the
padding mask. Wherever it lies (a buffer of its own, the first product's init, or, after
fusion, computed in the scores' generic), when the tril is read over the scores' rows
and keys the match drops it from the and: the kernel runs causal (ATTN_CAUSAL) and the
mask keeps select(padding, 0, -inf), over the padding's loops only ([S], not [S, S]).
Exact: a masked score is -inf either way (-inf + -inf = -inf), a row masked whole is
all -inf either way. Only -inf fills: with a finite fill (finfo.min) a row masked whole
is a uniform softmax over every key, not over keys <= i, so such a mask is kept whole;
likewise a triu, a strict triangle or any other constant. A mask buffer read by several
attentions (one per layer) gets its padding part made once (`parts`), the original
erased when no reader is left.
"""
from __future__ import annotations

import math

from ..dialects.arith import CMPI_PREDICATES
from ..dialects.linalg.structured import StructuredOp
from ..ir import attributes as A
from ..ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from ..passes.pass_manager import Option, Pass
from .cpu_kernel_abi import (ATTN_CAUSAL, ATTN_NAN_TO_ZERO, ATTN_SAFE_SOFTMAX,
                             KERNEL_SIGNATURES, _P)
from .linalg_to_microkernels import (_Emit, _strides, _zero_fill_before, global_data,
                                     identity_on, match_contraction)
from .scalar_builders import op_class

__all__ = ["AttentionToMicrokernels", "fuse_attention", "match_attention", "MIN_KEYS"]

KERNEL = "strata_attention_f32"
# Keys (N) from which the fused kernel replaces the two GEMMs (see the module doc).
MIN_KEYS = 32

_VIEWS = frozenset(("memref.expand_shape", "memref.collapse_shape", "memref.cast"))
# Ops that may stand between the two products without writing Q, K, the mask or the scale
_READ_ONLY = frozenset(("memref.alloc", "arith.constant", "memref.dim",
                        "memref.extract_strided_metadata"))


class _NoMatch(Exception):
    pass


def _need(cond, why=""):
    if not cond:
        raise _NoMatch(why)


def _root(v):
    """The buffer `v` is a whole view of (through _VIEWS), and v itself when not one."""
    while v.defining_op is not None and v.defining_op.name in _VIEWS:
        v = v.defining_op.operands[0]
    return v


def _uses_through_views(root):
    """(ops using `root` or a whole view of it, other than the views; the views)."""
    users, views, todo = [], [], [root]
    while todo:
        v = todo.pop()
        for u in v.uses:
            o = u.owner
            if o.name in _VIEWS and o.operands[0] is v:
                views.append(o)
                todo.append(o.results[0])
            else:
                users.append(o)
    return users, views


def _static(t) -> bool:
    return type(t) is A.MemRefType and A.DYNAMIC not in t.shape


class _Size:
    """A size or stride as the matcher reasons about it: c times a product of run-time
    sizes (see [Note: dynamic sizes]). Equal to an int when it has no run-time factor."""

    __slots__ = ("c", "syms")

    def __init__(self, c: int, syms=()):
        self.c = c
        self.syms = tuple(sorted(syms, key=lambda s: repr(s[0])))   # ((key, what), ...)

    @property
    def static(self) -> bool:
        return not self.syms

    def _keys(self):
        return tuple(k for k, _ in self.syms)

    def __eq__(self, o):
        if isinstance(o, int):
            return not self.syms and self.c == o
        if isinstance(o, _Size):
            return self.c == o.c and (self.c == 0 or self._keys() == o._keys())
        return NotImplemented

    def __hash__(self):
        return hash((self.c, self._keys()))

    def __mul__(self, o):
        if isinstance(o, int):
            return _Size(self.c * o, self.syms)
        return _Size(self.c * o.c, self.syms + o.syms)

    __rmul__ = __mul__

    def div(self, o):
        """self / o, exact (else no match)."""
        o = o if isinstance(o, _Size) else _Size(o)
        _need(o.c != 0 and self.c % o.c == 0, "sizes")
        rest = list(self.syms)
        for k, w in o.syms:
            at = [i for i, (k2, _) in enumerate(rest) if k2 == k]
            _need(at, "sizes")
            del rest[at[0]]
        return _Size(self.c // o.c, rest)

    def __repr__(self):
        return f"_Size({self.c}, {self._keys()})"


def _value_size(x) -> _Size:
    """The size an index value holds: a memref.dim of a buffer is that buffer's size
    (so the same run-time size read twice compares equal), a constant its value."""
    d = x.defining_op
    if d is not None and d.name == "memref.dim":
        c = d.operands[1].defining_op
        if c is not None and c.name == "arith.constant":
            return _dim(d.operands[0], c.properties["value"].value)
    if d is not None and d.name == "arith.constant" and x.type is A.index:
        return _Size(d.properties["value"].value)
    return _Size(1, [((id(x), -1), x)])


def _dim(v, i: int) -> _Size:
    """Dim i of memref `v`: static, or traced through views to the alloc (or the
    expand_shape) that sets it, else v's own run-time size."""
    n = v.type.shape[i]
    if n != A.DYNAMIC:
        return _Size(n)
    d = v.defining_op
    if d is not None:
        if d.name == "memref.alloc":
            return _value_size(d.operands[sum(1 for x in v.type.shape[:i]
                                              if x == A.DYNAMIC)])
        if d.name == "memref.cast":
            return _dim(d.operands[0], i)
        if d.name == "memref.expand_shape":
            for j, g in enumerate(d.reassociation_indices):
                if i in g:
                    if all(v.type.shape[x] == 1 for x in g if x != i):
                        return _dim(d.operands[0], j)
                    x = d.mixed_output_shape[i]
                    return _Size(x) if isinstance(x, int) else _value_size(x)
        if d.name == "memref.subview":
            from ..dialects.memref import _static as _static_list, mixed_values
            sizes = mixed_values(_static_list(d, "static_sizes"), d.sizes)
            if len(sizes) == len(v.type.shape):       # no dim dropped
                x = sizes[i]
                return _Size(x) if isinstance(x, int) else _value_size(x)
        if d.name == "memref.collapse_shape":
            size = _Size(1)
            for j in d.reassociation_indices[i]:
                size = size * _dim(d.operands[0], j)
            return size
    name = _dim_param(v, i)
    if name:
        # inputs naming a dim alike are checked equal at the entry (the runtime's and
        # the library's input checks): one size
        return _Size(1, [(("param", name), ("dim", v, i))])
    return _Size(1, [((id(v), i), ("dim", v, i))])


def _dim_param(v, i: int):
    """The `onnx.dim_params` name of dim i of `v`, an argument of a func.func."""
    from ..dialects.func import entry_argument_attr
    names = entry_argument_attr(v, "onnx.dim_params")
    if type(names) is not A.ArrayAttr or len(names.value) != len(v.type.shape):
        return None
    n = names.value[i]
    return n.value if type(n) is A.StringAttr else None


def _shape(v) -> list:
    return [_dim(v, i) for i in range(len(v.type.shape))]


def _numel(v) -> _Size:
    n = _Size(1)
    for d in _shape(v):
        n = n * d
    return n


def _sym_strides(v):
    """The strides of memref `v` as _Sizes: the identity layout's from its (symbolic)
    shape; a strided layout's, each static or v's own run-time stride."""
    t = v.type
    if type(t) is not A.MemRefType:
        return None
    if t.layout is None:
        out, s = [], _Size(1)
        for d in reversed(_shape(v)):
            out.append(s)
            s = s * d
        return out[::-1]
    st, _ = _strides(t)
    if st is None:
        return None
    return [_Size(x) if x != A.DYNAMIC else _Size(1, [((id(v), -2 - i), ("stride", v, i))])
            for i, x in enumerate(st)]


def _value(em, size):
    """An int or an index value holding `size` (an int or a _Size), made with `em`."""
    if isinstance(size, int):
        return size
    out = size.c
    for _, w in size.syms:
        if type(w) is tuple:
            w = em.size(w[1], w[2]) if w[0] == "dim" else em.stride(w[1], w[2])
        out = em.mul(out, w)
    return out


def _index(em, x):
    """An index value from an int or an index value."""
    return em.index(x) if isinstance(x, int) else x


def _local(v) -> bool:
    """A buffer of the chain: a memref.alloc with the identity layout."""
    d = v.defining_op
    return d is not None and d.name == "memref.alloc" and \
        type(v.type) is A.MemRefType and v.type.layout is None


def _walks_in_order(m, shape, extents, skip_last: bool) -> bool:
    """Map `m` of an operand of shape `shape` walks the loops (of `extents`) in order:
    each result a loop dim (of the same extent, increasing) or 0 on a unit dim; every
    loop of extent > 1 walked, but the last when `skip_last` (which must not be)."""
    last = len(extents) - 1
    seen = []
    for r, n in zip(m.results, shape):
        if type(r) is AffineDimExpr:
            if extents[r.position] != n or (seen and r.position <= seen[-1]):
                return False
            seen.append(r.position)
        elif not (type(r) is AffineConstantExpr and r.value == 0 and n == 1):
            return False
    want = [d for d, e in enumerate(extents) if e != 1 and not (skip_last and d == last)]
    if skip_last and last in seen:
        return False
    return [d for d in seen if extents[d] != 1] == want


def _body(op):
    return list(op.regions[0].blocks[0].ops), op.regions[0].blocks[0].args


def _const_value(v):
    d = v.defining_op
    if d is None or d.name != "arith.constant":
        return None
    a = d.properties.get("value")
    return a.value if isinstance(a, A.FloatAttr) else None


class _Chain:
    """What a match found: the ops and buffers to remove, and the kernel's operands."""

    def __init__(self):
        self.ops = []          # linalg ops replaced (the second product last)
        self.roots = []        # intermediate buffers (allocs) to remove
        self.fills = []
        self.scale = ("const", 1.0)   # or ("scalar", a one-element buffer)
        self.inverse = False
        self.mask = None       # (memref value, {loop: stride}, extents) of the scores' op
        self.safe = False
        self.nan_to_zero = False
        self.mask_gen = None   # (generic, loops) of a mask computed into S's init
        self.causal = False    # torch's is_causal bias in the scores' op: ATTN_CAUSAL
        self.causal_loops = None   # the scores' op's loop extents (rows, keys last)
        self.dims = []         # memref.dim ops reading an intermediate's sizes


def _chain_buffer(chain, v, allowed_ops):
    """Check intermediate buffer `v` (root) is used only by `allowed_ops`, fills,
    views and deallocs; record it."""
    _need(_local(v), "an intermediate that is not a local buffer")
    users, _ = _uses_through_views(v)
    for o in users:
        if o.name == "memref.dealloc" or o in allowed_ops:
            continue
        if o.name == "memref.dim":
            chain.dims.append(o)
            continue
        if o.name == "linalg.fill" and _root(o.operands[1]) is v:
            chain.fills.append(o)
            continue
        raise _NoMatch(f"{o.name} also uses an intermediate")
    chain.roots.append(v)


def _check_fills(chain, v, value, before):
    """Buffer `v` is filled once, with `value` (None: never), before op `before`."""
    fills = [f for f in chain.fills if _root(f.operands[1]) is v]
    if value is None:
        _need(not fills, "a filled intermediate")
        return
    _need(len(fills) == 1 and fills[0].is_before_in_block(before), "fill")
    x = fills[0].operands[0]
    d = x.defining_op
    _need(d is not None and d.name == "arith.constant")
    got = d.properties["value"]
    if value is False:
        _need(isinstance(got, A.IntegerAttr) and got.value == 0 and x.type == A.i1)
    else:
        _need(isinstance(got, A.FloatAttr) and got.value == value and x.type == A.f32)


def _writers(v):
    """The linalg ops (not fills) writing buffer root `v` as their init, in order."""
    users, _ = _uses_through_views(v)
    ws = [o for o in users if isinstance(o, StructuredOp) and o.name != "linalg.fill" and
          any(_root(x) is v for x in o.dps_inits)]
    _need(ws and all(o.parent is ws[0].parent for o in ws), "writers")
    return sorted(ws, key=lambda o: sum(1 for p in ws if p.is_before_in_block(o)))


def _writer(v):
    """The one linalg op (not a fill) writing buffer root `v` as its init."""
    ws = _writers(v)
    _need(len(ws) == 1, "no single writer")
    return ws[0]


def _operand_index(op, root):
    ins = [i for i, x in enumerate(op.dps_inputs) if _root(x) is root]
    _need(len(ins) == 1)
    return ins[0]


def _elementwise(op, full_root, total, n):
    """Check an elementwise generic over the flat [rows, n] space: all parallel, one
    init (a whole view walked in order). Returns the loop extents."""
    _need(op.name == "linalg.generic" and op.num_dps_inits == 1, "not a generic")
    kinds = op.iterator_types_list()
    _need(all(k == "parallel" for k in kinds))
    init = op.dps_inits[0]
    maps = op.indexing_maps_list()
    _need(type(init.type) is A.MemRefType and init.type.layout is None)
    extents = _shape(init)
    _need(len(extents) == len(kinds) and _numel(init) == total and extents[-1] == n)
    _need(_walks_in_order(maps[-1], extents, extents, False))
    return extents, maps


def _reduction(op, extents_total, n):
    """A rows reduction: loops parallel but the last (reduction, extent n), one input
    walked whole, one init walked without the last loop. Returns (input, init, body)."""
    _need(op.name == "linalg.generic" and op.num_dps_inits == 1 and
          op.num_dps_inputs() == 1)
    kinds = op.iterator_types_list()
    _need(kinds[-1] == "reduction" and all(k == "parallel" for k in kinds[:-1]))
    x, y = op.dps_inputs[0], op.dps_inits[0]
    _need(type(x.type) is A.MemRefType and type(y.type) is A.MemRefType and
          x.type.layout is None and y.type.layout is None)
    extents = _shape(x)
    mx, my = op.indexing_maps_list()
    _need(len(extents) == len(kinds) and extents[-1] == n and
          _numel(x) == extents_total and _numel(y) * n == extents_total)
    _need(_walks_in_order(mx, extents, extents, False) and
          _walks_in_order(my, _shape(y), extents, True))
    return x, y


def _row_reduction(out, src, combine, total, n):
    """The op writing `out` (a buffer): `combine`(in, out) of `src` along its rows."""
    g = _writer(out)
    x, y = _reduction(g, total, n)
    _need(_root(x) is src and _root(y) is out)
    ops, args = _body(g)
    r = _yield_of(ops)
    _need(len(ops) == 2 and _is(r, combine) and set(r.defining_op.operands) ==
          set(args[:2]))
    return g


def _row_operand(m, v, extents):
    """An operand (a memref value) of an elementwise op holding one value per row."""
    return type(v.type) is A.MemRefType and v.type.layout is None and \
        _walks_in_order(m, _shape(v), extents, True)


def _full_operand(m, v, extents):
    return type(v.type) is A.MemRefType and v.type.layout is None and \
        _walks_in_order(m, _shape(v), extents, False)


def _yield_of(ops):
    _need(ops and ops[-1].name == "linalg.yield" and len(ops[-1].operands) == 1)
    return ops[-1].operands[0]


def _is(v, name):
    d = v.defining_op
    return d is not None and d.name == name


def match_attention(op, min_keys: int = MIN_KEYS):
    """(chain, the kernel's operands) if `op` is the second product of an attention the
    kernel computes (see [Note: what attention is matched]), else None."""
    try:
        return _match(op, min_keys)
    except _NoMatch:
        return None


def _match(pv, min_keys):
    ct2 = match_contraction(pv)
    _need(ct2 is not None and not ct2.trans_b and len(ct2.k) == 1 and
          len(ct2.m) == 1 and len(ct2.n) == 1, "second product")
    chain = _Chain()
    pa, pb, pc = ct2.pos
    kk, mm, nn = ct2.k[0], ct2.m[0], ct2.n[0]
    p_view, v_buf, o_buf = ct2.operands
    N = _dim(p_view, pa[kk])
    M = _dim(p_view, pa[mm])
    E = _dim(o_buf, pc[nn])
    # a run-time N: the kernel (see [Note: dynamic sizes])
    _need(not N.static or N.c >= max(min_keys, 1), "too few keys")
    # P: [batch, M, N] row-major
    P = _root(p_view)
    _need(_local(P))
    total = _numel(P)
    bt = total.div(M * N)
    ps = _sym_strides(p_view)
    _need(ps is not None and ps[pa[kk]] == 1 and ps[pa[mm]] == N, "P layout")
    _flat_levels(ct2, 0, bt, M * N)
    fill_o = _zero_fill_before(pv, o_buf)
    _need(fill_o is not None, "O not zero-filled")

    # P = e / l  (or select(any, e / l, 0))
    g_div = _writer(P)
    ext, maps = _elementwise(g_div, P, total, N)
    ops, args = _body(g_div)
    y = _yield_of(ops)
    any_arg = None
    nan_check = False
    if _is(y, "arith.select"):
        c, t, f = y.defining_op.operands
        if _is(c, "arith.cmpf") and _const_value(t) == 0.0 and _is(f, "arith.divf"):
            # select(isnan(e / l), 0, e / l): the ONNX exporter's SDPA
            from ..dialects.arith import CMPF_PREDICATES
            cd = c.defining_op
            _need(CMPF_PREDICATES[cd.properties["predicate"].value] == "uno" and
                  cd.operands[0] is f and cd.operands[1] is f, "nan check")
            y, nan_check = f, True
            chain.nan_to_zero = True
        else:
            _need(_const_value(f) == 0.0 and c in args and _is(t, "arith.divf"))
            any_arg, y = c, t
            chain.safe = True
    _need(_is(y, "arith.divf"))
    e_arg, l_arg = y.defining_op.operands
    _need(e_arg in args and l_arg in args and
          len(ops) == (4 if nan_check else 3 if any_arg else 2))
    ins = g_div.dps_inputs
    ei, li = args.index(e_arg), args.index(l_arg)
    _need(ei < len(ins) and li < len(ins))
    e_buf, l_buf = _root(ins[ei]), _root(ins[li])
    _need(_full_operand(maps[ei], ins[ei], ext) and
          _row_operand(maps[li], ins[li], ext))
    any_buf = None
    if any_arg is not None:
        ai = args.index(any_arg)
        _need(ai < len(ins) and _row_operand(maps[ai], ins[ai], ext))
        any_buf = _root(ins[ai])

    g_sum = _row_reduction(l_buf, e_buf, "arith.addf", total, N)      # l = sum(e)
    # e = exp(x - m)
    g_exp = _writer(e_buf)
    ext, maps = _elementwise(g_exp, e_buf, total, N)
    ops, args = _body(g_exp)
    ex = _yield_of(ops)
    _need(len(ops) == 3 and _is(ex, "math.exp") and _is(ex.defining_op.operands[0],
                                                         "arith.subf"))
    xa, ma = ex.defining_op.operands[0].defining_op.operands
    _need(xa in args and ma in args)
    ins = g_exp.dps_inputs
    xi, mi = args.index(xa), args.index(ma)
    _need(xi < len(ins) and mi < len(ins) and _full_operand(maps[xi], ins[xi], ext)
          and _row_operand(maps[mi], ins[mi], ext))
    x_buf, m_buf = _root(ins[xi]), _root(ins[mi])
    g_max = _row_reduction(m_buf, x_buf, "arith.maximumf", total, N)  # m = max(x)
    g_any = None
    if any_buf is not None:
        g_any = _writer(any_buf)
        x_, y_ = _reduction(g_any, total, N)
        _need(_root(x_) is x_buf and _root(y_) is any_buf)
        ops, args = _body(g_any)
        r = _yield_of(ops)
        # out | (x != -inf), as torch writes it: out | ((x == -inf) ^ true)
        _need(len(ops) == 4 and _is(r, "arith.ori"))
        a, b = r.defining_op.operands
        xo = b if a is args[1] else a
        _need(args[1] in (a, b) and _is(xo, "arith.xori"))
        c = xo.defining_op.operands[0]
        _need(_is(c, "arith.cmpf") and c.defining_op.operands[0] is args[0] and
              _const_value(c.defining_op.operands[1]) == float("-inf"))
        from ..dialects.arith import CMPF_PREDICATES
        _need(CMPF_PREDICATES[c.defining_op.properties["predicate"].value] == "oeq")
        t = xo.defining_op.operands[1]
        td = t.defining_op
        _need(td is not None and td.name == "arith.constant" and
              td.properties["value"].value in (1, -1, True))

    # x: the scores, or an elementwise op of them
    writers = _writers(x_buf)
    g_pre = None
    if not any(match_contraction(w) is not None for w in writers):
        _need(len(writers) == 1, "no single writer")
        g_pre = writers[0]
        s_buf = _scores_op(chain, g_pre, x_buf, total, N)
    else:
        s_buf = x_buf
    writers = _writers(s_buf)
    qk = writers[-1]
    ct1 = match_contraction(qk)
    g_init = None
    if len(writers) == 2 and g_pre is None:
        # the mask as the product's init (strata-linalg-fold-into-contractions)
        g_init = writers[0]
        _need(g_init.is_before_in_block(qk))
        ext, maps = _elementwise(g_init, s_buf, total, N)
        ops, args = _body(g_init)
        nin = g_init.num_dps_inputs()
        if nin == 1 and len(ops) == 1 and _yield_of(ops) is args[0]:
            chain.mask = _mask_of(g_init.dps_inputs[0], maps[0], ext)
        else:
            _computed_mask(chain, g_init, ext, maps, ops, args)
    else:
        _need(len(writers) == 1, "no single writer")
    _need(ct1 is not None and not ct1.loops and len(ct1.k) == 1 and len(ct1.m) == 1 and
          len(ct1.n) == 1, "first product")
    qa, qb_, qc = ct1.pos
    q_buf, k_buf, s_view = ct1.operands
    _need(_root(s_view) is s_buf, "S")
    _need(g_init is not None or _zero_fill_before(qk, s_buf) is not None,
          "S not zero-filled")
    ss = _sym_strides(s_view)
    k1, m1, n1 = ct1.k[0], ct1.m[0], ct1.n[0]
    _need(ss is not None and _dim(s_view, qc[m1]) == M and _dim(s_view, qc[n1]) == N and
          ss[qc[n1]] == 1 and ss[qc[m1]] == N, "S layout")
    _flat_levels(ct1, 2, bt, M * N)
    _sizes_agree(ct1)
    _sizes_agree(ct2)
    D = _dim(q_buf, qa[k1])

    # the chain's buffers are its own
    chain_ops = [g_init, qk, g_pre, g_max, g_exp, g_sum, g_any, g_div, pv]
    chain_ops = [o for o in chain_ops if o is not None]
    bufs = [s_buf] + ([x_buf] if x_buf is not s_buf else []) + [m_buf, e_buf, l_buf, P] + \
        ([any_buf] if any_buf else [])
    _need(len({id(b) for b in bufs}) == len(bufs), "buffers shared")
    for buf in bufs:
        _chain_buffer(chain, buf, chain_ops)
    _need(all(o.parent is pv.parent for o in chain_ops))
    _need(all(chain_ops[0].is_before_in_block(o) and o.is_before_in_block(pv)
              for o in chain_ops[1:-1]), "order")
    _check_fills(chain, s_buf, None if g_init else 0.0, qk)
    _check_fills(chain, m_buf, float("-inf"), g_max)
    _check_fills(chain, l_buf, 0.0, g_sum)
    if any_buf is not None:
        _check_fills(chain, any_buf, False, g_any)
    if x_buf is not s_buf:
        _check_fills(chain, x_buf, None, None)
    for buf in (e_buf, P):
        _check_fills(chain, buf, None, None)
    chain.ops = chain_ops
    return chain, dict(ct1=ct1, ct2=ct2, M=M, N=N, D=D, E=E, bt=bt, q=q_buf, k=k_buf,
                       v=v_buf, o=o_buf, fill_o=fill_o)


def _sizes_agree(ct) -> None:
    """Every operand of contraction `ct` walking a loop has the same size along it (run-
    time sizes too, symbolically: the kernel reads them all with one size)."""
    seen = {}
    for x, v in enumerate(ct.operands):
        for d, p in enumerate(ct.pos[x]):
            if p is None:
                continue
            n = _dim(v, p)
            _need(seen.setdefault(d, n) == n, "sizes differ")


def _written_by_product(v) -> bool:
    try:
        return match_contraction(_writer(v)) is not None
    except _NoMatch:
        return False


def _scaled_operand(v, product):
    """(generic, source, c) when buffer `v` (Q or K, whole views of it read by `product`)
    is written only by an elementwise generic computing source * c (c an f32 constant,
    either side; source a buffer of v's type, both walked as the identity does), and
    nothing else reads v: the ONNX exporter's SDPA scaling Q and K by sqrt(scale) each
    (see [Note: Q and K scaled before the product]); else None."""
    root = _root(v)
    try:
        g = _writer(root)
    except _NoMatch:
        return None
    if g.name != "linalg.generic" or g.num_dps_inputs() != 1 or g.num_dps_inits != 1 or \
            g.dps_inits[0] is not root or g.parent is not product.parent or \
            not g.is_before_in_block(product) or \
            any(k != "parallel" for k in g.iterator_types_list()) or \
            not all(identity_on(m, root.type) for m in g.indexing_maps_list()):
        return None
    src = g.dps_inputs[0]
    if src.type != root.type or _root(src) is root:
        return None
    ops, args = _body(g)
    if len(ops) == 1 and ops[0].name == "linalg.yield" and ops[0].operands[0] is args[0]:
        factor = 1.0    # a copy: a scaling by sqrt(1.0) folded (HF Whisper's SDPA scale 1)
    else:
        if len(ops) != 2 or ops[-1].name != "linalg.yield" or \
                not _is(ops[-1].operands[0], "arith.mulf"):
            return None
        a, b = ops[0].operands
        x, c = (a, b) if a is args[0] else (b, a)
        if x is not args[0] or c is args[0] or c.type != A.f32 or _const_value(c) is None:
            return None
        factor = float(_const_value(c))
    users, _ = _uses_through_views(root)
    if any(u is not g and u is not product and u.name != "memref.dealloc" for u in users):
        return None
    # the source an alloc of the block whose last reader is g: its deallocs between g and
    # the product go, v's (after the product) free it instead
    a = src.defining_op
    if a is None:       # an argument: never freed here (v's deallocs go)
        return None if any(u.owner.name == "memref.dealloc" for u in src.uses) else \
            (g, src, factor)
    if a.name != "memref.alloc" or a.parent is not g.parent or \
            not any(u.owner.name == "memref.dealloc" for u in root.uses):
        return None
    for u in src.uses:
        o = u.owner
        if o is not g and not (o.name == "memref.dealloc" and _in_between(o, g, product)) \
                and not (o.parent is g.parent and o.is_before_in_block(g)):
            return None
    return g, src, factor


def _written_after(g, root, last) -> bool:
    """Whether an op after `g`, before `last` (same block), may write buffer `root`."""
    o = g.next
    while o is not None and o is not last:
        if o.name != "memref.dealloc" and o.name not in _VIEWS and \
                o.name not in _READ_ONLY:
            if o.regions and not isinstance(o, StructuredOp):
                return True
            written = o.dps_inits if isinstance(o, StructuredOp) else o.operands
            if any(type(x.type) is A.MemRefType and _root(x) is root for x in written):
                return True
        o = o.next
    return o is None


def _in_between(o, first, last) -> bool:
    return o.parent is first.parent and first.is_before_in_block(o) and \
        o.is_before_in_block(last)


def _fold_scaled_operands(found, moved):
    """Drop the generics of `found` (_scaled_operand's, checked): the product reads each
    source in place of the scaled buffer, whose alloc goes; an alloc's deallocs (its
    last reader was the generic) go, the scaled buffer's (after the product, moved after
    the call) free it instead; with an argument, the scaled buffer's go (from `moved`
    too)."""
    for g, src, _ in found:
        root = g.dps_inits[0]
        frees = [u.owner for u in (src.uses if src.defining_op is not None else root.uses)
                 if u.owner.name == "memref.dealloc"]
        for d in frees:
            if d in moved:
                moved.remove(d)
            d.erase()
        g.erase()
        alloc = root.defining_op
        root.replace_all_uses_with(src)
        alloc.erase()


def _scores_op(chain, g, x_buf, total, N):
    """x = f(s) of [Note: what attention is matched]; records the scale and the mask;
    returns s's buffer."""
    ext, maps = _elementwise(g, x_buf, total, N)
    ops, args = _body(g)
    ins = g.dps_inputs
    y = _yield_of(ops)
    roles = {}      # block arg -> "s" | ("scalar", operand) | ("mask", index)
    s_idx = None
    for i, (x, m) in enumerate(zip(ins, maps)):
        if s_idx is None and _full_operand(m, x, ext) and _local(_root(x)) and \
                _numel(_root(x)) == total and _written_by_product(_root(x)):
            roles[args[i]] = "s"
            s_idx = i
        elif all(type(r) is AffineConstantExpr for r in m.results) and \
                _static(x.type) and _numel(x) == 1:
            roles[args[i]] = ("scalar", x)
        else:
            roles[args[i]] = ("mask", i)
    _need(s_idx is not None)

    def leaf(v):
        if v in roles:
            return roles[v]
        c = _const_value(v)
        if c is not None:
            return ("const", c)
        raise _NoMatch("scores body")

    def scaled(v):
        """s, s*c, c*s, s/c -> (scale, inverse)."""
        if v in roles and roles[v] == "s":
            return ("const", 1.0), False
        d = v.defining_op
        _need(d is not None and d.name in ("arith.mulf", "arith.divf"))
        a, b = d.operands
        la, lb = leaf(a), leaf(b)
        if la == "s" and lb[0] in ("scalar", "const"):
            return lb, d.name == "arith.divf"
        if lb == "s" and la[0] in ("scalar", "const") and d.name == "arith.mulf":
            return la, False
        raise _NoMatch("scale")
    mask = None
    d = y.defining_op
    if d is not None and d.name == "arith.addf":
        a, b = d.operands
        for sv, mv in ((a, b), (b, a)):
            lm = roles.get(mv)
            try:
                scale = scaled(sv)
            except _NoMatch:
                continue
            if type(lm) is tuple and lm[0] == "mask":
                mask = lm[1]
                break
            cone = _cone(mv, ops, args, len(ins))
            if cone is not None and _is_causal(mv, cone[0], len(ext)):
                mask = "causal"     # ATTN_CAUSAL: no buffer
                chain.causal = True
                break
            if cone is not None and all(roles.get(x) != "s" for x in cone[1]):
                # a mask computed in the body from the other inputs (a causal mask's
                # index comparison): made into a buffer of its own (_make_mask)
                mask = "computed"
                _computed_mask(chain, g, ext, [maps[i] for i in cone[2]], cone[0], [],
                               check_out=False)
                chain.mask_gen = (g, chain.mask_gen[1], mv, cone)
                break
        else:
            raise _NoMatch("scores body")
    else:
        scale = scaled(y)
    _need(len(ops) <= (3 if mask not in ("computed", "causal") else len(ops)))
    used = {o.operands[k] for o in ops for k in range(len(o.operands))}
    _need(all(a in used for a in args[:len(ins)]), "unused input")
    chain.scale, chain.inverse = scale
    if mask == "causal":
        chain.causal_loops = ext
    elif mask is not None and mask != "computed":
        chain.mask = _mask_of(ins[mask], maps[mask], ext)
    return _root(ins[s_idx])


def _is_causal(mv, cone, nloops):
    """Whether the body value `mv` is torch's is_causal bias over the scores' loops (rows
    the one before last, keys the last): select(j <= i, 0, -inf) or select(j > i, -inf,
    0) of linalg.index values, in any operand order and signedness."""
    if [o.name for o in cone if o.name != "linalg.index"] != ["arith.cmpi", "arith.select"]:
        return False
    sel = cone[-1]
    if sel.results[0] is not mv:
        return False
    cmp_, on_true, on_false = sel.operands
    d = cmp_.defining_op
    if d is None or d.name != "arith.cmpi":
        return False
    dims = []
    for x in d.operands:
        o = x.defining_op
        if o is None or o.name != "linalg.index":
            return False
        dims.append(o.properties["dim"].value)
    pred = CMPI_PREDICATES[d.properties["predicate"].value]
    if dims == [nloops - 2, nloops - 1]:            # i REL j: as j REL' i
        pred = {"sge": "sle", "uge": "ule", "slt": "sgt", "ult": "ugt"}.get(pred)
    elif dims != [nloops - 1, nloops - 2]:
        return False
    t, f = _const_value(on_true), _const_value(on_false)
    if (t, f) == (0.0, -math.inf):                  # kept where j REL i
        return pred in ("sle", "ule")
    return (t, f) == (-math.inf, 0.0) and pred in ("sgt", "ugt")


def _cone(v, ops, args, nin):
    """(the body ops `v` is computed by, in order; the block args they read; their input
    indices), or None if `v` is a block argument or reads the output's."""
    if v in args:
        return None
    need, todo = set(), [v]
    while todo:
        x = todo.pop()
        d = x.defining_op
        if d is None or d not in ops or d in need:
            continue
        need.add(d)
        todo.extend(d.operands)
    cone = [o for o in ops if o in need]
    read = [x for o in cone for x in o.operands if x in args]
    if any(args.index(x) >= nin for x in read):
        return None
    idx = sorted({args.index(x) for x in read})
    return cone, [args[i] for i in idx], idx


def _computed_mask(chain, g, ext, maps, ops, args, check_out=True):
    """A mask computed into the first product's init (a padding mask's where(m, min, 0),
    a causal mask from index comparisons, broadcast by the same generic): the generic
    will write a buffer of only the loops its inputs vary along instead (see _emit)."""
    nin = g.num_dps_inputs() if check_out else len(maps)
    _need(not check_out or not args[nin].has_uses(), "the init's generic reads it")
    # loops the mask varies along: those its inputs' maps read, and those a linalg.index
    # of its body reads (a causal mask's j <= i, computed in the scores' generic)
    varying = set()
    for o in ops:
        if o.name == "linalg.index":
            _need(not check_out, "linalg.index")
            varying.add(o.properties["dim"].value)
    for m in maps[:nin]:
        for r in m.results:
            if type(r) is AffineDimExpr:
                varying.add(r.position)
            else:
                _need(type(r) is AffineConstantExpr, "mask map")
    varying = sorted(varying | {len(ext) - 1})
    per_loop, stride = {}, 1
    for d in reversed(varying):
        per_loop[d] = stride if ext[d] != 1 else 0
        stride *= ext[d]
    chain.mask = (None, per_loop, ext)
    chain.mask_gen = (g, varying)


def _make_mask(chain, pv):
    """Rewrite the generic of _computed_mask to write a new buffer (allocated before it,
    freed after the kernel's call): its loops are those its inputs vary along."""
    from ..dialects.linalg.structured import to_iterator_attr
    from ..ir.affine import AffineMapAttr
    g, varying = chain.mask_gen[:2]
    ext = chain.mask[2]
    em = _Emit(g)
    t = A.MemRefType([ext[d].c if ext[d].static else A.DYNAMIC for d in varying], A.f32)
    sizes = [_index(em, _value(em, ext[d])) for d in varying if not ext[d].static]
    buf = em.v("memref.alloc", sizes, [t], {"alignment": A.IntegerAttr(64, A.i64),
                                           "operandSegmentSizes":
                                           A.DenseArrayAttr(A.i32, [len(sizes), 0])})[0]
    new = {d: i for i, d in enumerate(varying)}
    if len(chain.mask_gen) == 4:        # computed inside the scores' generic
        _, _, mv, (cone, read, idx) = chain.mask_gen
        from ..dialects.linalg import make_generic
        from ..ir.builder import Builder
        old = g.indexing_maps_list()
        maps = [AffineMap(len(varying), 0, [
            AffineDimExpr(new[r.position]) if type(r) is AffineDimExpr else r
            for r in old[i].results]) for i in idx]
        maps.append(AffineMap(len(varying), 0, [AffineDimExpr(i)
                                                for i in range(len(varying))]))

        def body(pb, bargs):
            mapping = dict(zip(read, bargs))
            for o in cone:
                c = o.clone(mapping)
                if o.name == "linalg.index":     # the loop's place in the new generic
                    c.properties["dim"] = A.IntegerAttr(new[o.properties["dim"].value],
                                                        A.i64)
                for r0, r1 in zip(o.results, c.results):
                    mapping[r0] = r1
                pb.insert(c)
            return mapping[mv]
        make_generic(Builder.before(g), [g.dps_inputs[i] for i in idx], [buf], maps,
                     ["parallel"] * len(varying), body, [], loc=g.loc)
        chain.mask = (buf, chain.mask[1], ext)
        return buf
    maps = []
    for m in g.indexing_maps_list()[:-1]:
        maps.append(AffineMap(len(varying), 0, [
            AffineDimExpr(new[r.position]) if type(r) is AffineDimExpr else r
            for r in m.results]))
    maps.append(AffineMap(len(varying), 0, [AffineDimExpr(i) for i in range(len(varying))]))
    g.properties["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
    g.properties["iterator_types"] = A.ArrayAttr([to_iterator_attr("parallel")] *
                                                 len(varying))
    g.set_operand(len(g.operands) - 1, buf)
    chain.ops.remove(g)
    chain.mask = (buf, chain.mask[1], ext)
    return buf


def _causal_in_mask(chain):
    """See [Note: a causal mask in a mask buffer]. (g, the and op or None, the constant's block
    arg) when the mask buffer the scores read is `select(tril & p, 0, -inf)` or
    `select(tril, 0, -inf)` of a constant lower-triangular i1 (HF's causal mask combined
    with the padding mask, exported as one run-time mask), else None."""
    if chain.mask is None or chain.mask[0] is None or chain.mask_gen is not None:
        return None
    view, per_loop, ext = chain.mask
    n = len(ext)
    buf = _root(view)       # the scores may read it through a whole view
    if not _local(buf) or len(buf.type.shape) < 2:
        return None
    # the buffer's last two dims are the scores' rows and keys, contiguous
    if per_loop.get(n - 1) != 1 or per_loop.get(n - 2) != ext[n - 1]:
        return None
    try:
        g = _writer(buf)
    except _NoMatch:
        return None
    if not any(u.owner.name == "memref.dealloc" for u in buf.uses):
        return None
    if g.name != "linalg.generic" or g.num_dps_inits != 1 or g.dps_inits[0] is not buf or \
            any(k != "parallel" for k in g.iterator_types_list()):
        return None
    maps = g.indexing_maps_list()
    k = len(g.iterator_types_list())
    ident = [AffineDimExpr(i) for i in range(k)]
    if list(maps[-1].results) != ident or k != len(buf.type.shape):
        return None
    ops, args = _body(g)
    try:
        y = _yield_of(ops)
    except _NoMatch:
        return None
    d = y.defining_op
    if d is None or d.name != "arith.select" or _const_value(d.operands[1]) != 0.0 or \
            _const_value(d.operands[2]) != -math.inf:
        return None
    c = d.operands[0]
    cands = [(None, c)]
    if _is(c, "arith.andi") and len(ops) == 3:
        a, b = c.defining_op.operands
        cands = [(c.defining_op, a), (c.defining_op, b)]
    elif len(ops) != 2:
        return None
    nin = g.num_dps_inputs()
    for andop, x in cands:
        if x not in args[:nin]:
            continue
        i = args.index(x)
        if _is_tril(g.dps_inputs[i], maps[i], k, buf.type.shape):
            return g, andop, x
    return None


def _causal_in_init(chain):
    """The mask computed into the first product's init (_computed_mask) as HF's export
    folds it there: `select(tril & p, 0, -inf)` of a constant lower-triangular i1 over
    the scores' rows and keys. Returns (generic, its and op, the tril's input index) or
    None; nothing is changed."""
    if chain.mask_gen is None:
        return None
    g = chain.mask_gen[0]
    ops, args = _body(g)
    nin = g.num_dps_inputs()
    maps = g.indexing_maps_list()
    k = len(g.iterator_types_list())
    if len(chain.mask_gen) == 4:        # computed in the scores' generic: its cone
        mv, (cone, _, _) = chain.mask_gen[2:]
        if [o.name for o in cone] != ["arith.andi", "arith.select"] or \
                cone[-1].results[0] is not mv:
            return None
        ops = cone + [ops[-1]]
    elif len(ops) != 3 or not _is(ops[-1].operands[0], "arith.select"):
        return None
    sel = ops[-2]
    c = sel.operands[0]
    if not (_is(c, "arith.andi") and _const_value(sel.operands[1]) == 0.0 and
            _const_value(sel.operands[2]) == -math.inf):
        return None
    ext = chain.mask[2]
    for x in c.defining_op.operands:
        if x in args[:nin]:
            i = args.index(x)
            if ext[k - 1] == ext[-1] and ext[k - 2] == ext[-2] and _is_tril(
                    g.dps_inputs[i], maps[i], k, [ext[-2].c, ext[-1].c]):
                return g, c.defining_op, i
    return None


def _drop_causal_input(chain, g, andop, i):
    """Remove the tril (input i) of the init's mask generic: select(p, 0, -inf), over the
    loops p varies along (_computed_mask again)."""
    from ..ir.affine import AffineMapAttr
    args = g.regions[0].blocks[0].args
    a, b = andop.operands
    andop.results[0].replace_all_uses_with(b if a is args[i] else a)
    andop.erase()
    if len(chain.mask_gen) == 4:
        # the scores' generic (erased with the chain): the cone without the tril
        ops, args = _body(g)
        maps = g.indexing_maps_list()
        mv = chain.mask_gen[2]
        cone = _cone(mv, ops, args, g.num_dps_inputs())
        _computed_mask(chain, g, chain.mask[2], [maps[j] for j in cone[2]], cone[0], [],
                       check_out=False)
        chain.mask_gen = (g, chain.mask_gen[1], mv, cone)
        return
    maps = g.indexing_maps_list()
    del maps[i]
    operands = list(g.operands)
    del operands[i]
    g.set_operands(operands)
    g.properties["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(operands) - 1, 1])
    g.properties["indexing_maps"] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
    g.regions[0].blocks[0].erase_argument(i)
    ops, args = _body(g)
    _computed_mask(chain, g, chain.mask[2], maps, ops, args)


def _is_tril(v, m, k, shape):
    """`v` (read by map `m` of a k-loop generic writing `shape`) is a constant i1 that is
    true exactly where the last loop <= the one before (both loops its last two dims)."""
    import numpy as np
    t = v.type
    if type(t) is not A.MemRefType or t.element_type != A.i1 or len(t.shape) < 2:
        return None
    res = list(m.results)
    if res[-2:] != [AffineDimExpr(k - 2), AffineDimExpr(k - 1)] or any(
            not (type(r) is AffineConstantExpr and r.value == 0 and n == 1)
            for r, n in zip(res[:-2], t.shape[:-2])):
        return False
    src = _root(v)
    get = src.defining_op
    if get is None or get.name != "memref.get_global" or src is not v:
        return False
    from ..ir.symbol_table import symbol_name
    module = get
    while module.parent_op is not None:
        module = module.parent_op
    name = get.properties["name"].root
    glob = next((o for o in module.regions[0].blocks[0].ops if o.name == "memref.global"
                 and symbol_name(o) == name), None)
    if glob is None or "constant" not in glob.properties or \
            glob.properties.get("initial_value") is None:
        return False
    data = global_data(glob)
    if data is None:
        return False
    rows, keys = shape[-2], shape[-1]
    if tuple(data.shape[-2:]) != (rows, keys):
        return False
    want = np.tril(np.ones((rows, keys), dtype=bool))
    return bool(np.array_equal(data.reshape(-1, rows, keys)[0].astype(bool), want))


def _drop_causal_part(chain, parts, g, andop, arg):
    """The padding part of the mask generic `g` of _causal_in_mask (ATTN_CAUSAL does the
    causal one) into a buffer of its own, made once per mask generic (every layer's
    attention reads the same mask): a clone of `g` writing a new buffer, select(p, 0,
    -inf) (or, causal alone, select(true, ...) = 0). The clone goes before `g`, its
    dealloc after the mask's (placed by the caller: returns [(the mask's dealloc, the new
    buffer)]); `g` itself is left to its other readers (erased after the
    call when none is left: _erase_if_unread)."""
    buf = g.dps_inits[0]
    if id(g) in parts and parts[id(g)][0] is g:
        chain.mask = (parts[id(g)][1], chain.mask[1], chain.mask[2])
        return []
    frees = [u.owner for u in buf.uses if u.owner.name == "memref.dealloc"]
    em = _Emit(g)
    new = em.v("memref.alloc", [], [buf.type], {"alignment": A.IntegerAttr(64, A.i64),
                                                "operandSegmentSizes":
                                                A.DenseArrayAttr(A.i32, [0, 0])})[0]
    one = None if andop is not None else \
        em.v("arith.constant", [], [A.i1], {"value": A.IntegerAttr(1, A.i1)})[0]
    c = g.clone({})
    g.parent.insert_before(g, c)
    c.set_operand(len(c.operands) - 1, new)
    ops, args = _body(c)
    x = c.regions[0].blocks[0].args[g.regions[0].blocks[0].args.index(arg)]
    if andop is not None:
        a = next(o for o in ops if o.name == "arith.andi")
        l, r = a.operands
        a.results[0].replace_all_uses_with(r if l is x else l)
        a.erase()
    else:
        _yield_of(ops).defining_op.set_operand(0, one)
    parts[id(g)] = (g, new)
    chain.mask = (new, chain.mask[1], chain.mask[2])
    return [(f, new) for f in frees]


def _erase_if_unread(g):
    """Erase mask generic `g` and its buffer once nothing but deallocs reads it."""
    buf = g.dps_inits[0]
    users, views = _uses_through_views(buf)
    if any(u is not g and u.name != "memref.dealloc" for u in users):
        return
    for u in users:
        if u is not g:
            u.erase()
    g.erase()
    for vw in reversed(views):
        vw.erase()
    buf.defining_op.erase()


def _mask_of(x, m, ext):
    """(x, {loop: stride}, loop extents) of a mask `x` read through map `m`."""
    _need(type(x.type) is A.MemRefType and x.type.element_type == A.f32)
    st = _sym_strides(x)
    _need(st is not None)
    per_loop = {}
    for r, s, n in zip(m.results, st, _shape(x)):
        if type(r) is AffineDimExpr:
            _need(r.position not in per_loop and (n == 1 or n == ext[r.position]),
                  "mask size")
            per_loop[r.position] = s if n != 1 else 0
        else:
            _need(type(r) is AffineConstantExpr and r.value == 0)
    return x, per_loop, ext


def _levels(ct, placed=None):
    """The batch levels of contraction `ct`, outer first: [(extent, [stride of A, B, C])]
    for its scf-loop dims (`ct.loops`, one loop each) and its collapsed batch group,
    extent-1 levels left out (an operand of `placed` read with its strides there:
    [Note: Q, K and O in place])."""
    out = []
    for group in [[d] for d in ct.loops] + ([ct.batch] if ct.batch else []):
        ext = _Size(1)
        for d in group:
            x = 2 if ct.pos[2][d] is not None else 0
            ext = ext * _dim(ct.operands[x], ct.pos[x][d])
        last = group[-1]
        strides = [_operand_strides(x, placed) for x in ct.operands]
        _need(None not in strides)
        st = [0 if ct.pos[x][last] is None else strides[x][ct.pos[x][last]]
              for x in range(3)]
        if ext != 1:
            out.append((ext, st))
    _need(len(out) <= 2, "batch levels")
    return out


def _flat_levels(ct, x, bt, rows):
    """Operand x of `ct` (a whole [batch, M, N] buffer, rows = M * N) is walked by the
    batch levels in its row-major order."""
    lv = _levels(ct)
    total = _Size(1)
    for ext, st in reversed(lv):
        _need(st[x] == rows * total, "batch layout")
        total *= ext
    _need(total == bt, "batch")


def _fit(lv, b1, b2, x):
    """Strides (s1, s2) of operand x for the kernel's (b1, b2) from batch levels `lv`."""
    if not lv:
        return 0, 0
    if len(lv) == 1:
        return b2 * lv[0][1][x], lv[0][1][x]
    (e1, s1), (e2, s2) = lv
    if (e1, e2) == (b1, b2):
        return s1[x], s2[x]
    _need(s1[x] == e2 * s2[x], "batch split")      # the two levels collapse
    return b2 * s2[x], s2[x]


def _split_batch(chain, info):
    """(B1, B2, the mask's strides m1, m2, mi, mj) from the scores op's loops."""
    bt, M, N = info["bt"], info["M"], info["N"]
    if chain.causal:        # the bias's loops are the kernel's rows and keys
        ext = chain.causal_loops
        _need(len(ext) >= 2 and ext[-1] == N and ext[-2] == M, "causal loops")
    if chain.mask is None:
        for ct in (info["ct1"], info["ct2"]):
            lv = _levels(ct)
            if len(lv) == 2:
                return lv[0][0], lv[1][0], (0, 0, 0, 0)
        return 1, bt, (0, 0, 0, 0)
    _, per_loop, ext = chain.mask
    n = len(ext)
    _need(n >= 2 and ext[-1] == N and ext[-2] == M, "mask loops")
    lead = [(ext[d], per_loop.get(d, 0)) for d in range(n - 2) if ext[d] != 1]
    # merge loops that collapse in the mask (outer stride = inner stride * extent)
    while len(lead) > 2:
        for i in range(len(lead) - 1):
            (eo, so), (ei, si) = lead[i], lead[i + 1]
            if so == si * ei:
                lead[i:i + 2] = [(eo * ei, si)]
                break
        else:
            raise _NoMatch("mask batch")
    while len(lead) < 2:
        lead.insert(0, (1, 0))
    (b1, s1), (b2, s2) = lead
    _need(b1 * b2 == bt)
    return b1, b2, (s1, s2, per_loop.get(n - 2, 0), per_loop.get(n - 1, 0))


def _emit(chain, info, parts=None):
    ct1, ct2 = info["ct1"], info["ct2"]
    pv = chain.ops[-1]
    causal_mask = None if chain.causal else _causal_in_mask(chain)
    causal_init = None if chain.causal or causal_mask else _causal_in_init(chain)
    if causal_mask is not None or causal_init is not None:
        chain.causal = True
        chain.causal_loops = chain.mask[2]
    b1, b2, mstrides = _split_batch(chain, info)
    em = _Emit(pv)

    k1, m1, n1 = ct1.k[0], ct1.m[0], ct1.n[0]
    k2, m2, n2 = ct2.k[0], ct2.m[0], ct2.n[0]
    placed = {}

    def stride(ct, x, d):
        p = ct.pos[x][d]
        return 0 if p is None else _operand_strides(ct.operands[x], placed)[p]

    def batch_strides():
        lv1, lv2 = _levels(ct1, placed), _levels(ct2, placed)
        return (_fit(lv1, b1, b2, 0), _fit(lv1, b1, b2, 1), _fit(lv2, b1, b2, 1),
                _fit(lv2, b1, b2, 2))
    q12, k12, v12, o12 = batch_strides()
    _need(stride(ct2, 2, n2) == 1 and stride(ct1, 0, k1) == 1)
    # Q and K scaled by constants before the first product: the sources, the scale
    # multiplied ([Note: Q and K scaled before the product])
    scaled = [f for f in (_scaled_operand(info[x], ct1.op) for x in ("q", "k"))
              if f and not _written_after(f[0], _root(f[1]), pv)]
    # Q, K and the mask are read at the second product: nothing between may write them
    inputs = {_root(info["q"]), _root(info["k"])} | {_root(f[1]) for f in scaled}
    if chain.mask is not None and chain.mask[0] is not None:
        inputs.add(_root(chain.mask[0]))
    if chain.scale[0] == "scalar":
        inputs.add(_root(chain.scale[1]))
    first = chain.ops[0]
    moved = []
    o = first.next
    while o is not pv:
        if o not in chain.ops and o not in chain.fills:
            if o.name == "memref.dealloc":
                if _root(o.operands[0]) in inputs:
                    moved.append(o)
            elif o.name not in _VIEWS and o.name not in _READ_ONLY:
                written = [_root(x) for x in (o.dps_inits if isinstance(o, StructuredOp)
                                              else o.operands)
                           if type(x.type) is A.MemRefType]
                _need(not inputs & set(written), "an input is written in between")
                _need(isinstance(o, StructuredOp) or not o.regions, "region in between")
        o = o.next
    q, k, v, out = info["q"], info["k"], info["v"], info["o"]
    if causal_init is not None:
        _drop_causal_input(chain, *causal_init)
        b1, b2, mstrides = _split_batch(chain, info)
    made = _make_mask(chain, pv) if chain.mask_gen is not None else None
    frees = []
    if causal_mask is not None:
        frees = _drop_causal_part(chain, {} if parts is None else parts, *causal_mask)
    _fold_scaled_operands(scaled, moved)
    # Q and K read where a transpose read them from, O written where a transpose after
    # would have moved it ([Note: Q, K and O in place]): after the scalings went
    for x, ct, i, unit in (("q", ct1, 0, k1), ("k", ct1, 1, None), ("o", ct2, 2, n2)):
        found = _in_place(info[x], ct1.op if i < 2 else pv, pv, i == 2)
        if found is not None and (unit is None or found.strides[ct.pos[i][unit]] == 1):
            placed[info[x]] = found     # (Q and O read along D, E contiguously)
    if placed:
        try:
            q12, k12, v12, o12 = batch_strides()
        except _NoMatch:        # the heads do not split so in place: the copies stay
            placed.clear()
    for x in placed.values():
        x.take(em)

    def pointer(x):
        return em.pointer(placed[x].buffer if x in placed else x)
    args = [b1, b2, info["M"], info["N"], info["D"], info["E"],
            pointer(q), *q12, stride(ct1, 0, m1),
            pointer(k), *k12, stride(ct1, 1, n1), stride(ct1, 1, k1),
            pointer(v), *v12, stride(ct2, 1, k2), stride(ct2, 1, n2),
            pointer(out), *o12, stride(ct2, 2, m2)]
    args = [em.to_i64(_value(em, a)) if isinstance(a, (int, _Size)) else a for a in args]
    kind, val = chain.scale[0], chain.scale[1]
    factor = math.prod(f[2] for f in scaled)
    if kind == "const":
        scale = (1.0 / val if chain.inverse else val) * factor
        sc = em.v("arith.constant", [], [A.f32], {"value": A.FloatAttr(float(scale), A.f32)})[0]
    else:
        buf = val
        idx = [em.index(0)] * len(buf.type.shape)
        sc = em.v("memref.load", [buf] + idx, [A.f32])[0]
        if chain.inverse:
            one = em.v("arith.constant", [], [A.f32], {"value": A.FloatAttr(1.0, A.f32)})[0]
            sc = em.v("arith.divf", [one, sc], [A.f32])[0]
        if scaled:
            fc = em.v("arith.constant", [], [A.f32], {"value": A.FloatAttr(factor, A.f32)})[0]
            sc = em.v("arith.mulf", [sc, fc], [A.f32])[0]
    args.append(sc)
    if chain.mask is not None:
        args.append(em.pointer(chain.mask[0]))
    else:
        args.append(em.v("llvm.mlir.zero", [], [_llvm_ptr()])[0])
    args += [em.to_i64(_value(em, s)) for s in mstrides]
    args.append(em.i32((ATTN_SAFE_SOFTMAX if chain.safe else 0) |
                       (ATTN_NAN_TO_ZERO if chain.nan_to_zero else 0) |
                       (ATTN_CAUSAL if chain.causal else 0)))
    call = em.call(KERNEL, args)
    at = call
    for d in moved:
        d.detach()
        pv.parent.insert_after(at, d)
        at = d
    for f, new in frees:
        f.parent.insert_after(f, op_class("memref.dealloc").create(
            [new], [], None, None, (), 0, f.loc))
    if made is not None:
        pv.parent.insert_after(at, op_class("memref.dealloc").create(
            [made], [], None, None, (), 0, pv.loc))
    # remove the chain: its ops, the fills of its buffers (and of O), its buffers
    fill_o = info["fill_o"]
    for o in reversed(chain.ops):
        o.erase()
    for f in chain.fills:
        f.erase()
    if fill_o is not None:
        fill_o.erase()
    for d in chain.dims:
        # the intermediates' sizes read elsewhere: from where they come (see
        # [Note: dynamic sizes])
        c = d.operands[1].defining_op
        dem = _Emit(d)
        d.results[0].replace_all_uses_with(_index(dem, _value(dem, _dim(
            d.operands[0], c.properties["value"].value))))
        d.erase()
    for r in chain.roots:
        users, views = _uses_through_views(r)
        for u in users:
            u.erase()       # deallocs (everything else is gone)
        for vw in reversed(views):
            vw.erase()
        r.defining_op.erase()
    if causal_mask is not None:
        _erase_if_unread(causal_mask[0])
    for x in placed.values():
        x.finish(call)
    return call


# [Note: Q, K and O in place]
# HF attention exported to ONNX splits the heads with Reshape + Transpose: Q, K and V are
# [S, H, D] rows of their projections' outputs, transposed into [H, S, D] (K into
# [H, D, S]) copies before the products, and the output transposed back from [H, S, D]
# into [S, H, D] for the output projection (V's transpose folds into the second product's
# map already, strata-linalg-fold-into-contractions). The kernel reads Q, K, V and
# writes O through strides (the innermost dim of Q and O of stride 1), so it reads Q and
# K where the transposes read them and writes O where the transpose after it writes:
# three copies of [S, H*D] per layer go. Matched on static shapes: an operand whose
# buffer (an alloc of the block; the operand a whole view of it) is written only by a
# linalg.transpose before the product from a source not written from there to the call
# (deallocs of the source in between move after it), read by nothing else; O's buffer
# read only by one linalg.transpose after the call into a fresh alloc (it moves before
# the call) that nothing uses before the transpose. The operand's strides are the
# source's (the destination's) permuted, then carried through the views between
# (_restride: unit dims and contiguous groups, as a reshape without a copy).


class _Placed:
    """An attention operand read (written) in place of a transposed copy: `buffer` the
    kernel's pointer, `strides` the operand's strides over it (see [Note: Q, K and O in
    place])."""
    __slots__ = ("buffer", "strides", "transpose", "root", "out", "moved")

    def __init__(self, buffer, strides, transpose, root, out, moved):
        self.buffer, self.strides, self.transpose = buffer, strides, transpose
        self.root, self.out, self.moved = root, out, moved

    def take(self, em):
        """Before the call: O's destination made before it."""
        if self.out:
            a = self.buffer.defining_op
            a.detach()
            em.block.insert_before(em.before, a)

    def finish(self, call):
        """After the call: the transpose, the copy's buffer and views go; deallocs of the
        source move after the call."""
        at = call
        for d in self.moved:
            d.detach()
            call.parent.insert_after(at, d)
            at = d
        self.transpose.erase()
        users, views = _uses_through_views(self.root)
        for u in users:
            u.erase()       # deallocs (the chain and the transpose are gone)
        for vw in reversed(views):
            vw.erase()
        self.root.defining_op.erase()


def _restride(shape, strides, new_shape):
    """The strides of a reshape of a (shape, strides) buffer into `new_shape` without a
    copy (dims of size 1 dropped or added, a group of dims merged or split where it is
    contiguous), or None. Static ints."""
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    new = [None] * len(new_shape)
    live = [i for i, n in enumerate(new_shape) if n != 1]
    oi = ni = 0
    while oi < len(old) or ni < len(live):
        if oi >= len(old) or ni >= len(live):
            return None
        og, ng = [oi], [live[ni]]
        po, pn = old[oi][0], new_shape[live[ni]]
        while po != pn:
            if po < pn:
                oi += 1
                if oi >= len(old):
                    return None
                og.append(oi)
                po *= old[oi][0]
            else:
                ni += 1
                if ni >= len(live):
                    return None
                ng.append(live[ni])
                pn *= new_shape[live[ni]]
        for a, b in zip(og, og[1:]):        # contiguous within the group
            if old[a][1] != old[b][1] * old[b][0]:
                return None
        s = old[og[-1]][1]
        for i in reversed(ng):
            new[i] = s
            s *= new_shape[i]
        oi += 1
        ni += 1
    return [1 if x is None else x for x in new]


def _int_strides(v):
    st = _sym_strides(v)
    if st is None or not all(x.static for x in st):
        return None
    return [x.c for x in st]


def _operand_strides(v, placed):
    """The strides of attention operand `v`: its own, or where `placed` puts it."""
    if placed and v in placed:
        return [_Size(x) for x in placed[v].strides]
    return _sym_strides(v)


def _touches(o, root) -> bool:
    """Whether op `o` may write buffer `root` (or free it)."""
    if o.name == "memref.dealloc":
        return _root(o.operands[0]) is root
    if o.name in _VIEWS or o.name in _READ_ONLY or o.name == "memref.get_global":
        return False
    if o.regions and not isinstance(o, StructuredOp):
        return True
    written = o.dps_inits if isinstance(o, StructuredOp) else o.operands
    return any(type(x.type) is A.MemRefType and _root(x) is root for x in written)


def _in_place(v, product, last, output: bool):
    """A _Placed for operand `v` of `product` when it is a transposed copy the kernel can
    read in place (`output`: written, then transposed after `last`), else None (see
    [Note: Q, K and O in place])."""
    from ..dialects.memref_layout import is_identity_layout
    root = _root(v)
    a = root.defining_op
    if a is None or a.name != "memref.alloc" or a.parent is not product.parent or \
            not _static(v.type) or not _static(root.type) or \
            not is_identity_layout(root.type):
        return None
    users, _ = _uses_through_views(root)
    ts = [u for u in users if u.name == "linalg.transpose"]
    if len(ts) != 1:
        return None
    t = ts[0]
    src, dst = t.dps_inputs[0], t.dps_inits[0]
    mine = dst if not output else src     # the copy's side: a whole view of root
    other = src if not output else dst
    if _root(mine) is not root or _root(other) is root or t.parent is not product.parent \
            or not _static(other.type) or not _static(mine.type):
        return None
    perm = [int(x) for x in t.properties["permutation"].value]
    ost = _int_strides(other)
    if ost is None:
        return None
    mst = [0] * len(perm)
    for i, p in enumerate(perm):    # dst dim i is src dim perm[i]
        if output:
            mst[p] = ost[i]
        else:
            mst[i] = ost[p]
    strides = _restride(list(mine.type.shape), mst, list(v.type.shape))
    if strides is None:
        return None
    moved = []
    if output:
        # O: read only by the transpose after the call into a fresh alloc used by nothing
        # before the transpose
        if any(u is not product and u is not t and u.name not in ("memref.dealloc",
                                                                  "linalg.fill")
               for u in users) or not last.is_before_in_block(t):
            return None
        b = dst.defining_op
        if b is None or b.name != "memref.alloc" or b.parent is not t.parent or b.operands \
                or any(u.owner is not t and not t.is_before_in_block(u.owner)
                       for u in dst.uses if u.owner.parent is t.parent) or \
                any(u.owner.parent is not t.parent for u in dst.uses):
            return None
        return _Placed(dst, strides, t, root, True, [])
    # Q or K: written only by the transpose before the product, read only by it
    if any(u is not product and u is not t and u.name != "memref.dealloc" for u in users) \
            or not t.is_before_in_block(product):
        return None
    sroot = _root(src)
    o = t.next
    while o is not None and o is not last:
        if o is not product and _touches(o, sroot):
            if o.name != "memref.dealloc":
                return None
            moved.append(o)
        o = o.next
    if o is None:
        return None
    return _Placed(src, strides, t, root, False, moved)


def _llvm_ptr():
    from ..dialects.llvm.types import LLVMPointerType
    return LLVMPointerType()


def _arg_type(t):
    if t == _P:
        return _llvm_ptr()
    if t == "f32":
        return A.f32
    return A.IntegerType(int(t[1:]))


def _declare(module) -> None:
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    if any(o.name == "func.func" and symbol_name(o) == KERNEL for o in body.ops):
        return
    ftype = A.FunctionType([_arg_type(t) for t in KERNEL_SIGNATURES[KERNEL]], [])
    decl = op_class("func.func").create(
        [], [], {"sym_name": A.StringAttr(KERNEL), "function_type": A.TypeAttr(ftype),
                 "sym_visibility": A.StringAttr("private")}, None, (), 1, module.loc)
    if body.first is None:
        body.append(decl)
    else:
        body.insert_before(body.first, decl)


def fuse_attention(module, min_keys: int = MIN_KEYS) -> int:
    """Replace every matched attention in `module` by a kernel call; returns how many."""
    count = 0
    parts = {}          # mask generic -> its padding part's buffer (_drop_causal_part)
    for op in list(module.walk()):
        if not isinstance(op, StructuredOp) or op.parent is None:
            continue
        m = match_attention(op, min_keys)
        if m is None:
            continue
        try:
            _emit(*m, parts)
        except _NoMatch:
            continue
        count += 1
    if count:
        _declare(module)
    return count


class AttentionToMicrokernels(Pass):
    name = "strata-linalg-attention-to-microkernels"
    summary = ("Fuse attention on buffers (product, scale, mask, softmax, product) into "
               "calls of the CPU's flash-style attention kernel")
    display_name = "StrataLinalgAttentionToMicrokernelsPass"
    min_keys = Option(int, MIN_KEYS, "Fuse only attention over at least this many keys "
                      "(shorter: the two GEMM calls are faster)")

    def run(self, op):
        fuse_attention(op, self.min_keys)


from ..passes.registry import register_pass  # noqa: E402

register_pass(AttentionToMicrokernels)
