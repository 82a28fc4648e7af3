"""`strata-memref-copy-to-linalg`: a memref.copy of at least `min-elements` elements (or
of a size known only at run time) becomes the linalg.generic that copies element by
element, so that it is lowered with the other linalg ops: to parallel loops, run on all
cores, where the copy itself would be a memcpy or a loop nest on one thread.

    memref.copy %a, %b : memref<64x56x56xf32> to memref<64x56x56xf32, strided<...>>
=>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, <same>],
                    iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%a : memref<64x56x56xf32>) outs(%b : memref<64x56x56xf32, strided<...>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }

ResNet-18's padded convolution inputs are such copies (an image into the interior of a
zero-bordered buffer): 8 MB a run, on the calling thread alone before this pass. The
fill of the whole buffer before such a copy then keeps to the border (fill_border_only).
Copies of rank 0, of unranked memrefs, or smaller than `min-elements` stay as they are.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass, Statistic

__all__ = ["MemrefCopyToLinalg", "memref_copy_to_linalg", "fill_border_only"]


def _elements(t) -> int | None:
    n = 1
    for d in t.shape:
        if d == A.DYNAMIC:
            return None
        n *= d
    return n


def fill_border_only(fill, interior) -> bool:
    """`fill` (a linalg.fill, or a linalg.map yielding one value, of a whole buffer) when
    its value in `interior` (a unit-stride subview of that buffer, with static offsets,
    static sizes but where it spans a whole dim) is overwritten before anything reads it:
    rewrite it to fill the rest only, the slabs before and after the interior along each
    dim it does not span (ResNet's padded images: the one-element border, not the whole
    image). Returns whether it did."""
    from ..dialects.memref import SubViewOp, same_size
    from ..dialects.memref_layout import subview_type
    from ..ir.builder import Builder
    big = fill.operands[-1]
    if fill.name not in ("linalg.fill", "linalg.map") or interior.operands[0] is not big or \
            interior.name != "memref.subview" or big.defining_op is None or \
            big.defining_op.name != "memref.alloc":
        return False
    offsets = list(interior.properties["static_offsets"].value)
    sizes = list(interior.properties["static_sizes"].value)
    strides = list(interior.properties["static_strides"].value)
    shape = list(big.type.shape)
    dyn_sizes = list(interior.operands[1:])   # no dynamic offsets or strides (below)
    if any(o == A.DYNAMIC for o in offsets) or any(x != 1 for x in strides) or \
            len(shape) != len(sizes) or len(dyn_sizes) != sizes.count(A.DYNAMIC):
        return False
    alloc_dyn = list(big.defining_op.operands)
    full = []           # per dim: the interior spans it (a dynamic size: the alloc's own)
    for d, (o, n, m) in enumerate(zip(offsets, sizes, shape)):
        if n == A.DYNAMIC:
            k = sizes[:d].count(A.DYNAMIC)
            if o != 0 or m != A.DYNAMIC or not same_size(
                    dyn_sizes[k], alloc_dyn[shape[:d].count(A.DYNAMIC)]):
                return False    # (a dynamic batch read twice: [Note: dynamic sizes compared])
            full.append(True)
        else:
            if m == A.DYNAMIC:
                return False
            full.append(o == 0 and n == m)
    b = Builder.before(fill, fill.loc)
    # slabs along each partial dim, within the interior along the dims before it
    for d in range(len(shape)):
        if full[d]:
            continue
        for lo, n in ((0, offsets[d]), (offsets[d] + sizes[d], shape[d] - offsets[d] - sizes[d])):
            if n <= 0:
                continue
            offs, szs, dyn = [], [], []
            for e in range(len(shape)):
                if e == d:
                    offs.append(lo)
                    szs.append(n)
                elif e < d or full[e]:
                    offs.append(offsets[e])
                    szs.append(sizes[e])
                    if sizes[e] == A.DYNAMIC:   # a whole dim: the alloc's size (it
                        dyn.append(alloc_dyn[shape[:e].count(A.DYNAMIC)])  # dominates)
                else:
                    offs.append(0)
                    szs.append(shape[e])
            t = subview_type(big.type, offs, szs, [1] * len(shape))
            props = {"static_offsets": A.DenseArrayAttr(A.i64, offs),
                     "static_sizes": A.DenseArrayAttr(A.i64, szs),
                     "static_strides": A.DenseArrayAttr(A.i64, [1] * len(shape)),
                     "operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, len(dyn), 0])}
            slab = b.insert(SubViewOp.create([big] + dyn, [t], props, None, (), 0,
                                             fill.loc)).results[0]
            part = fill.clone()
            part.set_operand(len(part.operands) - 1, slab)
            b.insert(part)
    fill.erase()
    return True


def _fill_around(copy) -> None:
    """A copy into a subview (read by nothing else) of a buffer filled whole before it,
    with nothing reading the buffer in between: the fill keeps to the border."""
    sv = copy.operands[1].defining_op
    if sv is None or sv.name != "memref.subview" or len(list(sv.results[0].uses)) != 1:
        return
    big = sv.operands[0]
    fills = [u.owner for u in big.uses if u.owner.name in ("linalg.fill", "linalg.map") and
             u.owner.operands[-1] is big and u.owner.parent is copy.parent]
    if len(fills) != 1:
        return
    fill, o = fills[0], fills[0].next
    while o is not None and o is not copy:
        if any(x is big for x in o.operands) and o is not sv:
            return      # something else uses the buffer in between
        o = o.next
    if o is copy:
        fill_border_only(fill, sv)


def memref_copy_to_linalg(module, min_elements: int = 4096) -> int:
    """Rewrite the memref.copy ops of `module` (see the module doc); returns how many."""
    from ..dialects.linalg.generic import make_generic
    from ..ir.builder import Builder
    count = 0
    for op in [o for o in module.walk() if o.name == "memref.copy"]:
        src, dst = op.operands
        t = src.type
        if type(t) is not A.MemRefType or type(dst.type) is not A.MemRefType or \
                not t.shape or len(dst.type.shape) != len(t.shape):
            continue
        n = _elements(t)
        if n is not None and n < min_elements:
            continue
        _fill_around(op)
        rank = len(t.shape)
        ident = "(" + ", ".join(f"d{i}" for i in range(rank)) + ")"
        make_generic(Builder.before(op, op.loc), [src], [dst], [f"{ident} -> {ident}"] * 2,
                     ["parallel"] * rank, lambda b, args: args[0], loc=op.loc)
        op.erase()
        count += 1
    return count


class MemrefCopyToLinalg(Pass):
    name = "strata-memref-copy-to-linalg"
    summary = "Turn large memref.copy ops into linalg.generic copies (parallel loops later)"
    anchor = "builtin.module"
    min_elements = Option(int, 4096, "Fewest elements (when known) a copy must have")
    num_copies = Statistic("num-copies", "Number of memref.copy ops rewritten")

    def run(self, op):
        self.stat("num-copies", memref_copy_to_linalg(op, self.min_elements))


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(MemrefCopyToLinalg.name) is None:
        register_pass(MemrefCopyToLinalg)


_register()
