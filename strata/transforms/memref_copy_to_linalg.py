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
zero-bordered buffer): 8 MB a run, on the calling thread alone before this pass. Copies
of rank 0, of unranked memrefs, or smaller than `min-elements` stay as they are.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass, Statistic

__all__ = ["MemrefCopyToLinalg", "memref_copy_to_linalg"]


def _elements(t) -> int | None:
    n = 1
    for d in t.shape:
        if d == A.DYNAMIC:
            return None
        n *= d
    return n


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
