"""`strata-concat-in-place`: a buffer copied whole into a view of a new buffer is
written there from the start (concatenations written in place).

One-shot-bufferize gives `tensor.concat` a new buffer and a copy of each input into its
slice of it (rules.py). When an input is itself a new buffer of the same block that
nothing writes after the copy, its producers can write straight into that slice: the
input's allocation becomes a subview of the concatenation's buffer (whose allocation
moves up to before it), and the copy goes. A chain of concatenations (DenseNet's dense
blocks: each layer's output joined to the block's running concatenation) so becomes one
buffer sized for the block's last concatenation, which every layer writes its channels
into, with no copy of the earlier channels (they were O(L^2) bytes per block):

    %a = memref.alloc() : memref<1x64x56x56xf32>
    linalg.generic ... outs(%a : memref<1x64x56x56xf32>)          // pooling
    %c = memref.alloc() : memref<1x96x56x56xf32>
    %v = memref.subview %c[0, 0, 0, 0] [1, 64, 56, 56] [1, 1, 1, 1] : ...
    memref.copy %a, %v : ...
=>
    %c = memref.alloc() : memref<1x96x56x56xf32>
    %v = memref.subview %c[0, 0, 0, 0] [1, 64, 56, 56] [1, 1, 1, 1] : ...
    linalg.generic ... outs(%v : memref<1x64x56x56xf32, strided<[301056, 3136, 56, 1]>>)

It runs right after one-shot-bufferize, before buffer-deallocation-simple (which then
frees the big buffer after the last use of any of its views). See [Note: copies placed
in place] for when it applies.

[Note: copies placed in place]
`memref.copy %src, %view` is removed, and %src's allocation replaced by a view of %view's
buffer, when:
  * %src is a memref.alloc with the identity layout (not a function argument, a
    global, a constant or a view: their contents are not ours to move) in the copy's
    block, and is not freed there (the pass runs before deallocation); or a
    memref.expand_shape of such an alloc of a static shape (Segformer's decoder: a
    transposed [N, HW, C] map expanded to [N, C, H, W]), which then becomes the slice
    collapsed by the expansion's groups (when the slice collapses so: a channel slice
    does, a slice of the width does not), the expansion's users reading the slice;
    no other reshape of it (its type would change);
  * %view is a chain of memref.subviews with static offsets, unit strides and no rank
    reduction of a memref.alloc %big of the same block (its box in %big is known, but
    for run-time sizes, which count as overlapping anything along their dim), whose
    dynamic sizes, if any, are defined before %src's allocation (%big's allocation moves
    up to there when it is after it); the slice's run-time sizes are %src's (a copy
    joins buffers of one shape), so the view of %big replacing %src takes them;
  * every use of %src or of a subview of it is an op whose effects are known (linalg
    structured ops: inputs read, inits written; memref.copy, load, store, dim); an op
    using it after the copy only reads it (what it reads is then the slice of %big,
    which must still hold the copied values); no other use (a return, a call, a yield,
    a cast or reshape: it would escape or need a new type);
  * no other access to %big's box (through %big or any view of it whose box overlaps)
    comes before the copy, and every one after it only reads (or is the block's
    terminator returning or yielding %big): the slice holds %src's values from %src's
    first write to the end of the block;
  * a convolution writing %src keeps its kernel: the view must then keep each image
    contiguous (a channel slice of NCHW: full extents after dim 1), which the conv
    kernels require of their output (linalg_to_microkernels.match_conv); a
    linalg.transpose writing %src keeps its identity-layout buffer, which
    strata-linalg-block-transposes requires (Segformer's decoder: its stage-1 map's
    transpose into a slice ran as the plain loop nest, the model 9% slower than with
    the copy).
An input concatenated twice is placed once (the second copy's source is then a view, not
an allocation, and stays a copy). Positions are compared in the copy's block (an op
nested in a loop counts at its ancestor there).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...passes.pass_manager import Pass, Statistic

__all__ = ["ConcatInPlace", "place_copies_in_place"]

_VIEW = "memref.subview"
_RESHAPES = ("memref.expand_shape", "memref.collapse_shape")
# Ops whose effects on a memref operand are known: name -> indices of operands only read.
_READS = {"memref.copy": (0,), "memref.load": (0,), "memref.dim": (0,)}
_WRITES = {"memref.copy": (1,), "memref.store": (1,)}
# Terminators that hand the big buffer on (returned, yielded) as the block's last op: the
# block wrote everything before them; its next run allocates the buffer anew.
_HANDED_ON = ("func.return", "scf.yield")


def _static_box(sv):
    """(source, offsets, sizes) of a memref.subview with static offsets, unit strides
    and no rank reduction (sizes DYNAMIC where they are run-time values), else None."""
    p = sv.properties
    offs = list(p["static_offsets"].value)
    sizes = list(p["static_sizes"].value)
    strides = list(p["static_strides"].value)
    if any(s != 1 for s in strides) or A.DYNAMIC in offs or \
            len(sv.operands) != 1 + sizes.count(A.DYNAMIC) or \
            list(sv.results[0].type.shape) != sizes:
        return None
    return sv.operands[0], offs, sizes


def _root_box(v):
    """(alloc op, offsets, sizes) of `v`, a memref.alloc or a chain of static subviews of
    one, else None."""
    offs = None
    while True:
        d = v.defining_op
        if d is None:
            return None
        if d.name == "memref.alloc":
            t = v.type
            if t.layout is not None:
                return None
            shape = list(t.shape)
            if offs is None:
                return d, [0] * len(shape), shape
            return d, offs, sizes
        if d.name != _VIEW:
            return None
        box = _static_box(d)
        if box is None:
            return None
        v, o, s = box
        if offs is None:
            offs, sizes = o, s
        else:
            offs = [a + b for a, b in zip(offs, o)]


def _overlaps(o1, s1, o2, s2) -> bool:
    """Whether two boxes may meet (a run-time size: they may along its dim)."""
    return all(m == A.DYNAMIC or n == A.DYNAMIC or a < b + n and b < a + m
               for a, m, b, n in zip(o1, s1, o2, s2))


def _accesses(value, offs, sizes, out, fixed=False):
    """Append (op, operand index, offsets, sizes) for every non-view use of `value` or of
    views of it; a view whose box is not static, or any view under a reshape
    (`fixed`), counts as the whole of its source's box."""
    for u in list(value.uses):
        o = u.owner
        if o.name == _VIEW and u.index == 0:
            box = None if fixed else _static_box(o)
            if box is None:
                _accesses(o.results[0], offs, sizes, out, fixed)
            else:
                _, so, ss = box
                _accesses(o.results[0], [a + b for a, b in zip(offs, so)], ss, out)
        elif o.name in _RESHAPES:      # the same elements, other dims
            _accesses(o.results[0], offs, sizes, out, True)
        else:
            out.append((o, u.index, offs, sizes))
    return out


def _reshaped(value, allowed) -> bool:
    """Whether a reshape but `allowed` takes `value` or a subview of it."""
    for u in value.uses:
        o = u.owner
        if o.name in _RESHAPES and o is not allowed or \
                o.name == _VIEW and _reshaped(o.results[0], None):
            return True
    return False


def _effect(op, i):
    """'r' if `op` only reads its operand `i`, 'w' if it may write it (inits, copy
    targets, stores), None if its effect is unknown (or the buffer may escape)."""
    n = getattr(op, "num_dps_inputs", None)
    if n is not None and op.name.startswith("linalg."):
        return "r" if i < n() else "w"
    if i in _READS.get(op.name, ()):
        return "r"
    if i in _WRITES.get(op.name, ()):
        return "w"
    return None


class _Order:
    """Positions of the ops of one block (ops moved or created by the rewrite get
    positions between their neighbours')."""

    __slots__ = ("block", "pos")

    def __init__(self, block):
        self.block = block
        self.pos = {op: float(i) for i, op in enumerate(block.ops)}

    def of(self, op):
        """The position of `op`'s ancestor in the block, or None (not in it)."""
        while op is not None and op.parent is not self.block:
            op = op.parent_op
        return None if op is None else self.pos.get(op)


def _is_conv(op) -> bool:
    n = op.name
    return n.startswith("linalg.conv_") or n.startswith("linalg.depthwise_conv")


def _images_contiguous(big_shape, sizes) -> bool:
    return all(s == b != A.DYNAMIC for s, b in zip(sizes[2:], big_shape[2:]))


def _place(copy, order) -> bool:
    src, view = copy.operands[0], copy.operands[1]
    sa = src.defining_op
    block = order.block
    expand = None
    if sa is not None and sa.name == "memref.expand_shape" and sa.parent is block and \
            src.type.has_static_shape:     # a reshaped buffer (a transpose's [N, HW, C])
        expand, src = sa, sa.operands[0]
        sa = src.defining_op
        if not src.type.has_static_shape or any(
                u.owner is not expand and u.owner.name in _RESHAPES for u in src.uses):
            return False
    if sa is None or sa.name != "memref.alloc" or sa.parent is not block or \
            type(src.type) is not A.MemRefType or src.type.layout is not None or \
            view is src:
        return False
    root = _root_box(view)
    if root is None:
        return False
    ba, offs, sizes = root
    big = ba.results[0]
    shape = list((src if expand is None else expand.results[0]).type.shape)
    if ba.parent is not block or ba is sa or sizes != shape or \
            big.type.element_type != src.type.element_type:
        return False
    if expand is not None:
        from ...dialects.memref_layout import collapsed_type, subview_type
        from ...dialects.memref import reassociation_indices
        vt = subview_type(big.type, offs, sizes, [1] * len(sizes))
        ct = collapsed_type(vt, reassociation_indices(expand.properties["reassociation"]))
        if ct is None or list(ct.shape) != list(src.type.shape):
            return False                # the slice does not collapse back
    p_src, p_copy = order.pos[sa], order.pos[copy]
    if p_src > p_copy:
        return False
    # the big buffer's dynamic sizes, where its allocation would move
    moves = []
    early = [_size_before(d, block, order, p_src, moves) for d in ba.operands]
    if any(v is None for v in early):
        return False
    # What uses %src: views made again on the slice (no reshape: its type would change),
    # ops of known effects, only reads after the copy.
    if _reshaped(src, expand) or expand is not None and _reshaped(expand.results[0], None):
        return False
    conv_writes = False
    for o, i, _, _ in _accesses(src, [0] * len(src.type.shape), list(src.type.shape), []):
        if o is copy:
            continue
        e = _effect(o, i)
        p = order.of(o)
        if e is None or p is None or p > p_copy and e != "r":
            return False
        if e == "w" and _is_conv(o):
            conv_writes = True
        if e == "w" and o.name == "linalg.transpose":
            return False                # kept where strata-linalg-block-transposes works
    if conv_writes and not _images_contiguous(list(big.type.shape), sizes):
        return False
    # What else touches the box of %big: nothing before the copy, only reads after it.
    for o, i, bo, bs in _accesses(big, [0] * len(big.type.shape), list(big.type.shape), []):
        if o is copy or not _overlaps(offs, sizes, bo, bs):
            continue
        e = "r" if o.name in _HANDED_ON and o.parent is block else _effect(o, i)
        p = order.of(o)
        if e != "r" or p is None or p < p_copy:
            return False
    for m in moves:                 # sizes read before %src's allocation
        m.move_before(sa)
        order.pos[m] = order.pos[sa] - 0.75
    for i, v in enumerate(early):
        ba.set_operand(i, v)
    _rewrite(copy, sa, ba, offs, sizes, order, expand)
    return True


def _size_before(v, block, order, limit, moves):
    """`v` (an index) if it is defined before position `limit` of `block`, or the same
    size made available there, else None: a memref.dim of an allocation (bufferization
    sizes a concatenation by its first input's dims) is that allocation's size operand;
    a memref.dim by a constant of a buffer defined before `limit` moves there with its
    constant (appended to `moves`)."""
    from .models import constant_int
    d = v.defining_op
    if d is None or d.parent is not block or order.pos[d] < limit:
        return v
    if d.name != "memref.dim":
        return None
    src, idx = d.operands
    a, k = src.defining_op, constant_int(idx)
    if k is None:
        return None
    if a is not None and a.name == "memref.alloc" and \
            0 <= k < len(src.type.shape) and src.type.shape[k] == A.DYNAMIC:
        n = sum(x == A.DYNAMIC for x in src.type.shape[:k])
        return _size_before(a.operands[n], block, order, limit, moves)
    if a is None or a.parent is not block or order.pos[a] < limit:
        c = idx.defining_op
        if c.parent is block and order.pos[c] >= limit:
            moves.append(c)
        moves.append(d)
        return v
    return None


def _rewrite(copy, sa, ba, offs, sizes, order, expand=None):
    from ...dialects.memref import CollapseShapeOp, SubViewOp, reassociation_indices
    from ...dialects.memref_layout import collapsed_type, subview_type
    from ...ir.builder import Builder
    src, view, big = sa.results[0], copy.operands[1], ba.results[0]
    if order.pos[ba] > order.pos[sa]:
        ba.move_before(sa)
        order.pos[ba] = order.pos[sa] - 0.5
    b = Builder.before(sa, sa.loc)
    rank = len(sizes)
    dyn = list(sa.operands)         # %src's run-time sizes: its slice's
    vt = subview_type(big.type, offs, sizes, [1] * rank)
    new = b.insert(SubViewOp.create(
        [big] + dyn, [vt], {"static_offsets": A.DenseArrayAttr(A.i64, offs),
                            "static_sizes": A.DenseArrayAttr(A.i64, sizes),
                            "static_strides": A.DenseArrayAttr(A.i64, [1] * rank),
                            "operandSegmentSizes": A.DenseArrayAttr(A.i32,
                                                                    [1, 0, len(dyn), 0])},
        None, (), 0, sa.loc))
    order.pos[new] = order.pos[sa] - 0.25
    copy.erase()
    if expand is not None:          # %src = expand_shape %alloc: %alloc is the slice,
        r = expand.properties["reassociation"]      # collapsed as the expansion groups
        flat = b.insert(CollapseShapeOp.create(
            [new.results[0]], [collapsed_type(new.results[0].type, reassociation_indices(r))],
            {"reassociation": r}, None, (), 0, sa.loc))
        order.pos[flat] = order.pos[sa] - 0.2
        _retarget(expand.results[0], new.results[0], order)
        expand.erase()
        new = flat
    _retarget(src, new.results[0], order)
    sa.erase()
    vop = view.defining_op
    while vop is not None and vop.name == _VIEW and not vop.results[0].has_uses():
        nxt = vop.operands[0].defining_op
        vop.erase()
        vop = nxt


def _retarget(old, new, order):
    """Every use of `old` now uses `new` (a view of the same shape); subviews of `old`
    are made again on `new` (their layout follows their source's)."""
    from ...dialects.memref_layout import rank_reduced_subview_type
    for u in list(old.uses):
        o = u.owner
        if o.name == _VIEW and u.index == 0:
            p = o.properties
            st = rank_reduced_subview_type(
                list(o.results[0].type.shape), new.type, list(p["static_offsets"].value),
                list(p["static_sizes"].value), list(p["static_strides"].value))
            clone = o.clone()
            o.parent.insert_before(o, clone)
            clone.set_operand(0, new)
            clone.results[0].type = st
            if o in order.pos:
                order.pos[clone] = order.pos[o]
            _retarget(o.results[0], clone.results[0], order)
            o.erase()
        else:
            u.set(new)


def place_copies_in_place(func_op) -> int:
    """Rewrite the copies of `func_op` that [Note: copies placed in place] allows; the
    number rewritten."""
    count = 0
    orders = {}
    for copy in [o for o in func_op.walk() if o.name == "memref.copy"]:
        blk = copy.parent
        order = orders.get(blk)
        if order is None:
            order = orders[blk] = _Order(blk)
        if _place(copy, order):
            count += 1
    return count


class ConcatInPlace(Pass):
    name = "strata-concat-in-place"
    summary = ("Producers of a buffer copied whole into a view of a new buffer write into "
               "that view (concatenations in place); before buffer deallocation")
    num_placed = Statistic("num-placed", "Number of copies removed")

    def run(self, op):
        funcs = [op] if op.name == "func.func" else \
            [o for o in op.walk() if o.name == "func.func" and o.regions[0].blocks]
        self.stat("num-placed", sum(place_copies_in_place(f) for f in funcs))
