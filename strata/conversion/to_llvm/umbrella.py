"""convert-to-llvm: every *-to-llvm lowering of this package (arith, math, index, cf,
memref, func) in one conversion, as upstream's generic convert-to-llvm; options
`safe-division`, `emit-c-wrappers` and `checked-alloc` are passed on, `fold-aggregates`
reads descriptor fields from what built them (ours; see [Note: fold-aggregates])."""
from __future__ import annotations

from ...passes.pass_manager import Option, Pass
from .arith import arith_patterns
from .builder import is_packed, unpack_packed_struct
from .cf import cf_patterns, lower_asserts
from .common import run_llvm_conversion
from .func import func_patterns
from .index import index_patterns
from .math import math_patterns
from .memref import lower_globals, memref_patterns
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertToLLVM", "all_patterns", "erase_dead_llvm_ops"]


def all_patterns(tc, safe_division=False, emit_c_wrappers=False,
                 checked_alloc=False) -> list:
    return (arith_patterns(tc, safe_division) + math_patterns(tc) + index_patterns(tc) +
            cf_patterns(tc, checked_alloc) + memref_patterns(tc, checked_alloc) +
            func_patterns(tc, emit_c_wrappers))


class ConvertToLLVM(Pass):
    name = "convert-to-llvm"
    summary = "Convert to LLVM via dialect interfaces found in the input IR"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")
    safe_division = Option(bool, False, "(Strata) defined integer division by zero, see "
                           "convert-arith-to-llvm")
    emit_c_wrappers = Option(bool, False, "(Strata) C interface wrappers for every function")
    fold_aggregates = Option(bool, False, "(Strata) read the fields of memref descriptors "
                             "from the values they were built of; erase what is left "
                             "unused")
    fold_ops = Option(bool, True, "(Strata) try each op's folder before its patterns, as "
                      "upstream's conversion driver; false where the input was just "
                      "canonicalized (the CPU target: no folder ever applied there, see "
                      "[Note: no folding while lowering])")
    checked_alloc = Option(bool, False, "(Strata) checked allocations, and failed "
                           "cf.asserts that stop the call, under the CPU runtime's guard: "
                           "see finalize-memref-to-llvm and convert-cf-to-llvm")
    assert_values = Option(bool, False, "(Strata) a failed cf.assert reports the values "
                           "its condition compares, through strata_assert_fail_values "
                           "(see dialects/cf.py)")

    def run(self, op):
        # see [Note: lowering asserts outside the conversion driver]; the option
        # checked_alloc comes with checked allocations (the CPU target's guard)
        lower_asserts(op, self.checked_alloc, values=self.assert_values)
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        tc.fold_aggregates = self.fold_aggregates
        # memref.global: lowered once the driver is done ([Note: globals lowered
        # directly] in memref.py); fold-ops=false: no folder tried first
        run_llvm_conversion(op, all_patterns(tc, self.safe_division, self.emit_c_wrappers,
                                             self.checked_alloc), legal=("memref.global",),
                            fold=self.fold_ops)
        lower_globals(op, tc)
        if self.fold_aggregates:
            # dead ones first: fewer for the merge to look at (3,148 -> 1,501 merges on
            # RegNet-Y-400MF), the same result; the packed structs still read whole
            # become their insertvalue chains ([Note: structs packed lazily])
            erase_dead_llvm_ops(op)
            merge_llvm_constants(op)


# [Note: no folding while lowering]
# Upstream's conversion driver tries an illegal op's folder before its patterns. On the
# CPU target convert-to-llvm runs on IR canonicalized a few passes before, and the
# attempt (a snapshot of the op for a rollback, the folder, the rollback) cost 8% of the
# pass for nothing: over MobileNetV2, ResNet-50, DenseNet-121, EfficientNet-B0, DeiT-S,
# MiniLM and Swin-T, 15,000 attempts, of which 12 folded, in place: EfficientNet-B0's
# `c * x` became `x * c` (the constant moved to the right). LLVM orders the operands
# of its fmul itself: EfficientNet-B0's, DenseNet-121's and MiniLM's machine code is
# the same byte for byte without the attempts. The CPU target sets fold-ops=false:
# every op goes to its patterns.

# llvm ops without operands or effects whose result only depends on their properties and
# type: one per value suffices (see [Note: one constant per value])
_MERGEABLE = frozenset(("llvm.mlir.constant", "llvm.mlir.zero", "llvm.mlir.addressof"))


def merge_llvm_constants(root) -> int:
    """Replace each llvm constant (llvm.mlir.constant / zero / addressof) that repeats
    one seen before it where it is visible by that one, and erase it; returns how many.

    [Note: one constant per value]
    Patterns build the constants they need where they need them (an index, a stride,
    a global's address), as upstream's do, and leave the repeats to CSE: after lowering
    RegNet-Y-400MF, 1,365 of the 6,407 llvm ops were a constant repeated in its block,
    which verification and translation then read one by one (LLVM itself never sees
    them: its constants are operands). Under fold-aggregates they are merged as the
    lowering finishes: within a block the first of equal constants (same op, properties
    and type) serves the later ones; the entry block's constants also serve the
    region's other blocks (the entry block dominates them). Nested regions start afresh
    (a constant of theirs never replaces an outer one). The result is the same program
    with a quarter fewer ops (RegNet-Y 6,407 -> 4,906, MiniLM 5,471 -> 4,027): the
    llvm-dialect verification took 15-20% less CPU and the translation 10-20% less, for
    ~5 ms of merging (RegNet-Y, MiniLM, DeiT-S; a few ms a model in all)."""
    n = 0
    stack = [root]
    while stack:
        op = stack.pop()
        for r in op.regions:
            entry = _NONE
            for b in r.blocks:
                seen = {}
                o = b.first
                while o is not None:
                    nxt = o.next
                    if o.regions:
                        stack.append(o)
                    elif o.name in _MERGEABLE and not o._operands and \
                            len(o.results) == 1:
                        res = o.results[0]
                        key = (o.name, res.type, tuple(o._props.items()))
                        first = entry.get(key)
                        if first is None:
                            first = seen.get(key)
                        if first is None:
                            seen[key] = res
                        else:
                            res.replace_all_uses_with(first)
                            o.erase()
                            n += 1
                    o = nxt
                if entry is _NONE:
                    entry = seen
    return n


_NONE: dict = {}


def erase_dead_llvm_ops(root) -> int:
    """Erase the llvm dialect ops without effects whose results are unused, in every
    block under `root` (last to first, so chains go at once); returns how many. Lazily
    packed structs ([Note: structs packed lazily]) are erased when unread and become
    their insertvalue chains where read.

    [Note: fold-aggregates]
    Lowering a model's entry function builds a descriptor (an insertvalue chain) for each
    buffer and view and takes it apart again (extractvalue) for every call passing it:
    MiniLM's entry function became 21,000 llvm ops, most of them that. With the option,
    an extractvalue of a field the chain sets is the inserted value, and the chains,
    constants and casts left unused are erased: the IR the later steps (verification,
    translation, LLVM) read is a third as big. A memref access at a constant 0 index
    adds no `0 * stride` term to its address either. The result is the same program; the
    printed form differs from upstream's, so the option is off by default."""
    from ...rewrite.folding import is_trivially_dead
    n = 0
    stack = [root]
    while stack:
        op = stack.pop()
        for r in op.regions:
            for b in r.blocks:
                o = b.last
                while o is not None:
                    prev = o.prev
                    if o.regions:
                        stack.append(o)
                    elif o.name.startswith("llvm.") and is_trivially_dead(o):
                        o.erase()
                        n += 1
                    elif is_packed(o):
                        # unread: erased; read whole: its insertvalue chain, which this
                        # walk (going up from `prev`) does not see again
                        unpack_packed_struct(o)
                    o = prev
    return n
