"""convert-cf-to-llvm: cf.br / cf.cond_br / cf.switch -> llvm.br / llvm.cond_br /
llvm.switch (same operands, successors and properties), as upstream's
ControlFlowToLLVM; the argument types of their successor blocks are converted.

[Note: cf.assert]
Upstream lowers `cf.assert %c, "msg"` to a branch to a block that prints the message
and calls `abort`. Strata must not kill the process hosting the compiled model, so a
failed assertion calls the external function

    void strata_assert_fail(const char *msg)   // declared: llvm.func @strata_assert_fail(!llvm.ptr)

(the runtime defines or binds it: it records the failure for the caller to raise) and
execution then continues after the assertion:

    llvm.cond_br %c, ^continue, ^fail
  ^fail:
    %m = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr   // "msg\\00", a private constant
    llvm.call @strata_assert_fail(%m) : (!llvm.ptr) -> ()
    llvm.br ^continue

Under the CPU target's guard (convert-to-llvm{checked-alloc=true}) the fail block also
calls `strata_guard_abort()` after `strata_assert_fail`, which ends the call there (a
jump back to the entry point; see [Note: failed checks stop the call] in
strata/backends/cpu/guard.py): compiled code then stops at the first failed check, as
the interpreter does. Not in a parallel loop's chunk function, which may run on a pool
worker; without a guard the call of strata_guard_abort returns.
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...ir.builder import InsertionPoint
from ...ir import dense as D
from ...passes.pass_manager import Option, Pass
from .builder import LLVMBuilder, llvm_op
from .common import LLVMPattern, lookup_or_declare, run_llvm_conversion
from .memref import _in_parallel_chunk
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertCFToLLVM", "cf_patterns", "ASSERT_FAIL"]

ASSERT_FAIL = "strata_assert_fail"
GUARD_ABORT = "strata_guard_abort"
_BRANCHES = {"cf.br": "llvm.br", "cf.cond_br": "llvm.cond_br", "cf.switch": "llvm.switch"}


def converted_successor(tc, rewriter, block):
    """`block` with argument types converted (a new block replaces it if needed)."""
    if tc.is_legal(block) or block.parent is None or block is block.parent.blocks[0]:
        return block
    sc = tc.convert_block_signature(block)
    if sc is None:
        return None
    return rewriter.apply_signature_conversion(block, sc, tc)


class BranchLowering(LLVMPattern):
    def match_and_rewrite(self, op, operands, rewriter):
        succs = []
        for s in op.successors:
            n = converted_successor(self.tc, rewriter, s)
            if n is None:
                return rewriter.notify_match_failure(op, "cannot convert a successor block")
            succs.append(n)
        for v in operands:
            if self.tc.convert_type(v.type) is not v.type:
                return rewriter.notify_match_failure(op, f"operand of type {v.type}")
        new = llvm_op(_BRANCHES[op.name]).create(list(operands), [], dict(op._props),
                                                 dict(op._attrs) or None,
                                                 successors=succs, loc=op.loc)
        rewriter.ip = InsertionPoint.before_op(op)
        rewriter.insert(new)
        rewriter.erase_op(op)
        return True


class AssertLowering(LLVMPattern):
    """See [Note: cf.assert]."""

    root = "cf.assert"

    def match_and_rewrite(self, op, operands, rewriter):
        block = op.parent
        cont = rewriter.split_block(block, op.next) if op.next is not None else None
        if cont is None:
            return rewriter.notify_match_failure(op, "assert is the last op of its block")
        fail = rewriter.create_block(block.parent, before=cont)
        b = LLVMBuilder(rewriter, op.loc)
        msg = _message_global(rewriter, op, op._props["msg"].value)
        ptr = b.create("llvm.mlir.addressof", [], [LT.ptr],
                       {"global_name": A.SymbolRefAttr(msg)}).results[0]
        lookup_or_declare(rewriter, op, ASSERT_FAIL, LT.LLVMFunctionType(LT.void, [LT.ptr]))
        b.call(ASSERT_FAIL, [ptr])
        if self.options.get("checked_alloc") and not _in_parallel_chunk(op):
            lookup_or_declare(rewriter, op, GUARD_ABORT, LT.LLVMFunctionType(LT.void, []))
            b.call(GUARD_ABORT, [])
        b.create("llvm.br", [], [], successors=[cont])
        rewriter.ip = InsertionPoint.at_end(block)
        b.create("llvm.cond_br", [operands[0]], [],
                 {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])},
                 successors=[cont, fail])
        rewriter.erase_op(op)
        return True


def _message_global(rewriter, op, text):
    """A private constant global holding `text` NUL-terminated: its name."""
    mod = op
    while mod.parent_op is not None and mod.name != "builtin.module":
        mod = mod.parent_op
    body = mod.regions[0].blocks[0]
    names = {o._props["sym_name"].value for o in body.ops if "sym_name" in o._props}
    i = 0
    while f"assert_msg_{i}" in names:
        i += 1
    name = f"assert_msg_{i}"
    data = text.encode() + b"\0"
    ty = LT.LLVMArrayType(len(data), A.i8)
    g = llvm_op("llvm.mlir.global").new(name, ty, A.StringAttr(data.decode("latin-1")),
                                        linkage="private", constant=True, loc=op.loc)
    saved = rewriter.ip
    rewriter.ip = InsertionPoint.at_start(body)
    try:
        rewriter.insert(g)
    finally:
        rewriter.ip = saved
    return name


def cf_patterns(tc, checked_alloc=False) -> list:
    """The patterns; `checked_alloc` (the CPU target's guard is present): a failed
    assertion also stops the call, see [Note: cf.assert]."""
    return [BranchLowering(tc, root=n) for n in _BRANCHES] + \
        [AssertLowering(tc, checked_alloc=checked_alloc)]


class ConvertCFToLLVM(Pass):
    name = "convert-cf-to-llvm"
    summary = "Convert ControlFlow operations to the LLVM dialect"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")

    def run(self, op):
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, cf_patterns(tc))


_unused = D
