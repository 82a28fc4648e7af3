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

[Note: lowering asserts outside the conversion driver]
Issue 16's run-time checks put hundreds of cf.assert in a model's entry function (276 in
MiniLM with all of them). Lowered one at a time by the conversion pattern, each assert
split its block through the dialect-conversion driver: every op after the assert moved
into the new block with a rollback record (the rest of the entry block, thousands of
ops, per assert), and the message global and the declaration of @strata_assert_fail
were each found by scanning the whole module: quadratic, seconds of a compile with many
checks (with the driver's branch index, see [Note: branch index] in
strata/rewrite/conversion_log.py, convert-to-llvm of a model of 2700 checks went from
7-9 s to 3-4 s, of 900 checks from 1.4 s to 0.9-1.0 s).
The lowering needs nothing from the driver (the condition is an i1 before and after
type conversion, the new blocks have no arguments), so `lower_asserts` runs it as a
plain walk before convert-cf-to-llvm's and convert-to-llvm's conversion, for the
asserts of function bodies: per block it splits from the last assert back to the
first, so every op moves once; the module's symbol names are read once; the new
blocks go into the region's list at once. The result is the pattern's, op for op,
block for block and name for name (tests/unit/test_cf_assert_lowering.py compares the
two). AssertLowering stays for the asserts the walk leaves (in regions of other ops,
as upstream lowers them there too), with the same module-wide lookups cached per run.
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...ir.builder import Builder, InsertionPoint
from ...ir.core import Block
from ...passes.pass_manager import Option, Pass
from .builder import LLVMBuilder, llvm_op
from .common import (LLVMPattern, insert_string_global, lookup_or_declare,
                     run_llvm_conversion)
from .memref import CHUNK_ATTR
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertCFToLLVM", "cf_patterns", "ASSERT_FAIL", "ASSERT_FAIL_VALUES", "GUARD_ABORT",
           "lower_asserts"]

ASSERT_FAIL = "strata_assert_fail"
# void strata_assert_fail_values(const char *msg, const int64_t *values): see [Note:
# failed checks report their values] in dialects/cf.py
ASSERT_FAIL_VALUES = "strata_assert_fail_values"
GUARD_ABORT = "strata_guard_abort"
# The attribute marking a parallel loop's chunk function (memref.py's CHUNK_ATTR where
# checked allocations are; convert-scf-to-strata-cpu sets it).
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
    """See [Note: cf.assert]; asserts of function bodies are lowered before the
    conversion (see [Note: lowering asserts outside the conversion driver])."""

    root = "cf.assert"

    def __init__(self, tc, root=None, **options):
        super().__init__(tc, root, **options)
        self.symbols = _Symbols()

    def match_and_rewrite(self, op, operands, rewriter):
        block = op.parent
        cont = rewriter.split_block(block, op.next) if op.next is not None else None
        if cont is None:
            return rewriter.notify_match_failure(op, "assert is the last op of its block")
        fail = rewriter.create_block(block.parent, before=cont)
        b = LLVMBuilder(rewriter, op.loc)
        body = _module_body(op)
        msg = self.symbols.message_global(rewriter, body, op)
        ptr = b.create("llvm.mlir.addressof", [], [LT.ptr],
                       {"global_name": A.SymbolRefAttr(msg)}).results[0]
        lookup_or_declare(rewriter, op, ASSERT_FAIL, LT.LLVMFunctionType(LT.void, [LT.ptr]),
                          self.symbols.declared)
        b.call(ASSERT_FAIL, [ptr])
        if self.options.get("checked_alloc") and not _in_chunk(_function_of(op)):
            lookup_or_declare(rewriter, op, GUARD_ABORT, LT.LLVMFunctionType(LT.void, []),
                              self.symbols.declared)
            b.call(GUARD_ABORT, [])
        b.create("llvm.br", [], [], successors=[cont])
        rewriter.ip = InsertionPoint.at_end(block)
        b.create("llvm.cond_br", [operands[0]], [], dict(_COND_BR_PROPS),
                 successors=[cont, fail])
        rewriter.erase_op(op)
        return True


_COND_BR_PROPS = {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])}
_FUNCTIONS = ("func.func", "llvm.func", "gpu.func")


def _function_of(op):
    f = op.parent_op
    while f is not None and f.name not in _FUNCTIONS:
        f = f.parent_op
    return f


def _in_chunk(func) -> bool:
    """Whether `func` is a parallel loop's chunk function, which may run on a pool
    worker (no guard abort there)."""
    return func is not None and func.get_attr(CHUNK_ATTR) is not None


def _module_body(op):
    from .common import symbol_table_body
    return symbol_table_body(op)


class _Symbols:
    """The names of a module's top-level symbols, read once per module and run, for
    naming the message globals `assert_msg_<i>` (the lowest free i, as before)."""

    __slots__ = ("names", "next", "declared")

    def __init__(self):
        self.names = {}      # id(module body) -> (body, set of names)
        self.next = {}       # id(module body) -> the lowest i that may be free
        self.declared = {}   # lookup_or_declare's cache

    def fresh(self, body) -> str:
        entry = self.names.get(id(body))
        if entry is None or entry[0] is not body:
            names = {o._props["sym_name"].value for o in body.ops if "sym_name" in o._props}
            entry = self.names[id(body)] = (body, names)
            self.next[id(body)] = 0
        names = entry[1]
        i = self.next[id(body)]
        while f"assert_msg_{i}" in names:
            i += 1
        name = f"assert_msg_{i}"
        names.add(name)
        self.next[id(body)] = i + 1
        return name

    def message_global(self, builder, body, op, text=None) -> str:
        """A private constant global holding the assert's message (or `text`)
        NUL-terminated, at the start of `body` (inserted through `builder`): its name."""
        name = self.fresh(body)
        insert_string_global(builder, body, name,
                             op._props["msg"].value if text is None else text, op.loc)
        return name


def lower_asserts(root, checked_alloc=False, fail=None, values=False) -> int:
    """Lower every cf.assert directly in the body of a function under `root` (a module,
    or an op inside one) as AssertLowering does, without the conversion driver; returns
    how many. `checked_alloc`: the fail blocks also stop the call (see [Note:
    cf.assert]). See [Note: lowering asserts outside the conversion driver]. `fail`:
    (function name, its !llvm.func type, args(builder, message pointer, assert op) ->
    argument values) of the call a failed assert makes, instead of strata_assert_fail
    (GPU kernels call CUDA's __assertfail: conversion/gpu_to_nvvm.py). `values`: a
    failed assert whose condition compares values reports them, through
    strata_assert_fail_values ([Note: failed checks report their values] in
    dialects/cf.py; not with `fail`)."""
    from ...dialects.cf import check_leaves, encode_check_message
    fail_name, fail_type, fail_args = fail or (
        ASSERT_FAIL, LT.LLVMFunctionType(LT.void, [LT.ptr]), lambda b, ptr, a: [ptr])
    by_block: dict = {}          # block -> its asserts, in order (dict: blocks in order)
    aborts = set()               # the blocks whose fail blocks call strata_guard_abort
    functions = {}               # block -> its function op (values: its scratch array)
    stack = [root]
    while stack:                 # pre-order, as the conversion driver visits them
        op = stack.pop()
        nested = []
        for r in op.regions:
            for b in r.blocks:
                for o in b.ops:
                    if o.regions:
                        nested.append(o)
                    elif o.name == "cf.assert" and op.name in _FUNCTIONS and \
                            o.next is not None:
                        by_block.setdefault(b, []).append(o)
                        functions[b] = op
                        if checked_alloc and not _in_chunk(op):
                            aborts.add(b)
        stack.extend(reversed(nested))
    if not by_block:
        return 0
    # Globals and the declaration in the order the pattern creates them (each at the
    # start of the module): the i-th assert's message, the declaration after the first.
    body = _module_body(root)
    symbols = _Symbols()
    builder = Builder()
    messages = {}
    leaves = {}                  # assert -> the comparisons it reports ([] for none)
    declared = abort_declared = values_declared = False
    values = values and fail is None
    for block, asserts in by_block.items():
        for a in asserts:
            found = check_leaves(a.operand(0)) if values else []
            leaves[a] = found
            messages[a] = symbols.message_global(
                builder, body, a, encode_check_message(a._props["msg"].value,
                                                       [p for p, *_ in found]))
            if not declared:
                lookup_or_declare(builder, a, fail_name, fail_type, symbols.declared)
                declared = True
            if found and not values_declared:
                lookup_or_declare(builder, a, ASSERT_FAIL_VALUES,
                                  LT.LLVMFunctionType(LT.void, [LT.ptr, LT.ptr]),
                                  symbols.declared)
                values_declared = True
            if block in aborts and not abort_declared:
                lookup_or_declare(builder, a, GUARD_ABORT, LT.LLVMFunctionType(LT.void, []),
                                  symbols.declared)
                abort_declared = True
    n = 0
    new_blocks = {}              # block -> [fail, cont, fail, cont, ...] to follow it
    scratch = {}                 # function -> its array of int64 for the values
    for block, asserts in by_block.items():
        abort = block in aborts
        after = []
        for a in reversed(asserts):    # last first: every op moves once
            cont = Block()
            o = a.next
            while o is not None:
                nxt = o.next
                block._unlink(o)
                cont.append(o)
                o = nxt
            fail = Block()
            b = LLVMBuilder(Builder.at_end(fail), a.loc)
            ptr = b.create("llvm.mlir.addressof", [], [LT.ptr],
                           {"global_name": A.SymbolRefAttr(messages[a])}).results[0]
            if leaves[a]:
                f = functions[block]
                if f not in scratch:
                    scratch[f] = _scratch_array(f, a.loc)
                _store_values(b, scratch[f], leaves[a])
                b.call(ASSERT_FAIL_VALUES, [ptr, scratch[f]])
            else:
                b.call(fail_name, fail_args(b, ptr, a))
            if abort:
                b.call(GUARD_ABORT, [])
            b.create("llvm.br", [], [], successors=[cont])
            cond = a.operand(0)
            a.erase()
            LLVMBuilder(Builder.at_end(block), a.loc).create(
                "llvm.cond_br", [cond], [], dict(_COND_BR_PROPS), successors=[cont, fail])
            after[:0] = [fail, cont]
            n += 1
        new_blocks[block] = after
    regions = {}
    for block in new_blocks:
        regions.setdefault(block.parent, None)
    for region in regions:
        blocks = []
        for block in region.blocks:
            blocks.append(block)
            extra = new_blocks.get(block)
            if extra:
                for x in extra:
                    x.parent = region
                blocks.extend(extra)
        region.blocks = blocks
    return n


def _scratch_array(func, loc):
    """An array of 3 * MAX_CHECK_LEAVES int64 on the stack of `func` (an alloca at the
    start of its entry block): where its fail blocks write the values they report."""
    from ...dialects.cf import MAX_CHECK_LEAVES
    b = LLVMBuilder(Builder.at_start(func.regions[0].blocks[0]), loc)
    n = b.const(3 * MAX_CHECK_LEAVES, A.i64)
    return b.alloca(n, A.i64, 8)


def _store_values(b, array, leaves):
    """(held, lhs, rhs) of each comparison as int64 into `array` (at the fail block's
    end, before the call): the values are still of their arith types (index, iN), cast
    with arith ops that the conversion then lowers."""
    from ...dialects.arith import ExtSIOp, ExtUIOp, IndexCastOp, TruncIOp
    k = 0
    for pred, lhs, rhs, held in leaves:
        for v, unsigned in ((held, True), (lhs, pred.startswith("u")),
                            (rhs, pred.startswith("u"))):
            t = v.type
            if type(t) is A.IndexType:
                cls = IndexCastOp
            elif t.width < 64:
                cls = ExtUIOp if unsigned or t.width == 1 else ExtSIOp
            elif t.width > 64:
                cls = TruncIOp
            else:
                cls = None
            if cls is not None:
                v = b.b.insert(cls.create([v], [A.i64], None, None, (), 0, b.loc)).results[0]
            b.store(v, b.gep(array, [k], A.i64) if k else array, 8)
            k += 1


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
        lower_asserts(op)
        run_llvm_conversion(op, cf_patterns(tc))

