"""`convert-strata-cpu-to-llvm`: strata_cpu.parallel_for -> a call of the CPU runtime's
thread pool, `strata_parallel_for(fn, ctx, n, grain)` (strata/backends/cpu/threadpool.py).

    strata_cpu.parallel_for @chunk(%a, %x) count(%n) grain(%g) : (memref<64xf32>, f32)
=>
    %ctx = llvm.alloca %c1 x !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>,
                                                   array<1 x i64>)>, f32)>  // entry block
    %d = builtin.unrealized_conversion_cast %a : memref<64xf32> to !llvm.struct<(...)>
    %s = llvm.insertvalue ... (the operands, converted, in one struct)
    llvm.store %s, %ctx
    %fn = llvm.mlir.addressof @chunk__tramp : !llvm.ptr
    llvm.call @strata_parallel_for(%fn, %ctx, %n64, %g64) : (...) -> ()

    llvm.func @chunk__tramp(%ctx: !llvm.ptr, %lo: i64, %hi: i64) {
      %s = llvm.load %ctx : !llvm.ptr -> !llvm.struct<(...)>
      ... llvm.extractvalue, builtin.unrealized_conversion_cast back to the operand types
      func.call @chunk(%a, %x, %lo_index, %hi_index) : (memref<64xf32>, f32, index, index)
      llvm.return
    }

The operands are packed in a struct of their LLVM types (a memref as its descriptor) on
the caller's stack; the trampoline, one per chunk function, unpacks them and calls the
chunk function. It runs before convert-to-llvm, which then lowers the func.call (with
upstream's calling convention: memref descriptors expanded into their fields) and the
rest; reconcile-unrealized-casts removes the casts.

[Note: trampolines folded]
`strata-cpu-fold-trampolines` then (in the llvm dialect) gives each trampoline the body
of the chunk function it calls when nothing else refers to that function: the merged
function keeps the chunk's name and takes the context itself, unpacking what it uses.
One function per parallel loop nest instead of two (LLVM compiles each function at a
cost: MiniLM had 52 trampolines), and one call fewer per chunk.
"""
from __future__ import annotations

from ..dialects.llvm import types as LT
from ..ir import attributes as A
from ..ir.builder import Builder
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..passes.pass_manager import Pass

__all__ = ["ConvertStrataCpuToLLVM", "FoldTrampolines", "lower_parallel_for",
           "fold_trampolines", "PARALLEL_FOR"]

PARALLEL_FOR = "strata_parallel_for"
_RUNTIME_TYPE = LT.LLVMFunctionType(LT.void, [LT.ptr, LT.ptr, A.i64, A.i64])


def _error(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, f"'{op.name}' op {message}"))


def _cast(b, value, to_type):
    from ..dialects.builtin import UnrealizedConversionCastOp
    if value.type is to_type:
        return value
    op = UnrealizedConversionCastOp.create([value], [to_type], loc=b.loc)
    return b.insert(op).results[0]


def _module_body(op):
    mod = op
    while mod.parent_op is not None:
        mod = mod.parent_op
    return mod.regions[0].blocks[0]


def _symbols(body) -> dict:
    return {o._props["sym_name"].value: o for o in body.ops
            if o._props.get("sym_name") is not None}


def _trampoline(body, symbols, callee, types, ctx_type, loc):
    """The llvm.func unpacking a context of `ctx_type` into the operand `types` and
    calling `callee` (created once per callee)."""
    from ..dialects.func import CallOp
    from .to_llvm.builder import LLVMBuilder, llvm_op
    name = f"{callee}__tramp"
    if name in symbols:
        return name
    fn = llvm_op("llvm.func").new(name, LT.LLVMFunctionType(LT.void, [LT.ptr, A.i64, A.i64]),
                                  loc=loc)
    entry = fn.regions[0].blocks[0]
    b = Builder.at_end(entry, loc)
    lb = LLVMBuilder(b, loc)
    ctx, lo, hi = entry.args
    args = []
    if types:
        packed = lb.load(ctx, ctx_type)
        args = [_cast(b, lb.extractvalue(packed, [i]), t) for i, t in enumerate(types)]
    args += [_cast(b, lo, A.index), _cast(b, hi, A.index)]
    b.insert(CallOp.build(loc=loc, callee=A.SymbolRefAttr(callee), operands_=args,
                          result_types=[]))
    lb.create("llvm.return")
    body.insert_after(symbols[callee], fn)
    symbols[name] = fn
    return name


def lower_parallel_for(module) -> int:
    """Lower every strata_cpu.parallel_for of `module` (see the module doc); returns how
    many."""
    from .to_llvm.builder import LLVMBuilder, llvm_op
    from .to_llvm.type_converter import LLVMTypeConverter
    ops = [o for o in module.walk() if o.name == "strata_cpu.parallel_for"]
    if not ops:
        return 0
    tc = LLVMTypeConverter(64)
    body = _module_body(module)
    symbols = _symbols(body)
    if PARALLEL_FOR not in symbols:
        decl = llvm_op("llvm.func").new(PARALLEL_FOR, _RUNTIME_TYPE, body=False,
                                        loc=ops[0].loc)
        body.insert_before(body.first, decl) if body.first is not None else body.append(decl)
        symbols[PARALLEL_FOR] = decl
    slots = {}
    for op in ops:
        callee = op._props["callee"].root
        if callee not in symbols:
            _error(op, f"calls @{callee}, which is not in the module")
        count, grain, *args = op.operands
        types = [v.type for v in args]
        ltypes = []
        for t in types:
            lt = tc.convert_type(t)
            if lt is None:
                _error(op, f"cannot pass a value of type '{t}' to a parallel chunk")
            ltypes.append(lt)
        ctx_type = LT.struct(*ltypes)
        tramp = _trampoline(body, symbols, callee, types, ctx_type, op.loc)
        b = Builder.before(op, op.loc)
        lb = LLVMBuilder(b, op.loc)
        if args:
            func = op.parent_op
            while func.parent_op is not None and func.parent_op.name != "builtin.module":
                func = func.parent_op
            ctx = slots.get((func, ctx_type))
            if ctx is None:     # one slot per function and type: the calls do not overlap
                fb = LLVMBuilder(Builder.at_start(func.regions[0].blocks[0], op.loc), op.loc)
                ctx = slots[func, ctx_type] = fb.alloca(fb.const(1, A.i64), ctx_type)
            packed = lb.poison(ctx_type)
            for i, (v, lt) in enumerate(zip(args, ltypes)):
                packed = lb.insertvalue(packed, _cast(b, v, lt), [i])
            lb.store(packed, ctx)
        else:
            ctx = lb.zero(LT.ptr)
        fn = lb.create("llvm.mlir.addressof", [], [LT.ptr],
                       {"global_name": A.SymbolRefAttr(tramp)}).results[0]
        lb.call(PARALLEL_FOR, [fn, ctx, _cast(b, count, A.i64), _cast(b, grain, A.i64)])
        op.erase()
    return len(ops)


def fold_trampolines(module) -> int:
    """Merge each trampoline (`<chunk>__tramp`) with the chunk function it calls when
    nothing else refers to that function (see [Note: trampolines folded]); returns how
    many."""
    SymbolRefAttr = A.SymbolRefAttr
    body = _module_body(module)
    funcs = {o._props["sym_name"].value: o for o in body.ops if o.name == "llvm.func"}
    refs: dict = {}     # symbol -> the ops referring to it
    for op in module.walk():
        for v in op._props.values():
            if isinstance(v, SymbolRefAttr):
                refs.setdefault(v.root, []).append(op)
        for v in op._attrs.values():
            if isinstance(v, SymbolRefAttr):
                refs.setdefault(v.root, []).append(op)
    count = 0
    for name, tramp in funcs.items():
        if not name.endswith("__tramp"):
            continue
        call = _only_call(tramp)
        if call is None:
            continue
        chunk = funcs.get(call._props["callee"].root)
        if chunk is None or chunk is tramp or refs.get(chunk._props["sym_name"].value) != \
                [call] or not chunk.regions[0].blocks or \
                not chunk._props["function_type"].value.returns_void:
            continue
        _absorb(tramp, call, chunk)
        # the merged function takes the chunk's name (and attributes)
        new = chunk._props["sym_name"]
        for user in refs.get(name, ()):
            props = dict(user.properties)
            props["global_name" if "global_name" in props else "callee"] = \
                A.SymbolRefAttr(new.value)
            user.properties = props
        props = dict(chunk.properties)
        props["sym_name"] = new
        props["function_type"] = tramp._props["function_type"]
        for key in ("arg_attrs", "res_attrs"):
            props.pop(key, None)
        tramp.properties = props
        for k, v in chunk.attributes.items():
            tramp.set_attr(k, v)
        chunk.erase()
        count += 1
    return count


def _only_call(tramp):
    """The llvm.call ending `tramp` (one block: loads, extractvalues, the call of a
    named function with no results, llvm.return), or None."""
    blocks = tramp.regions[0].blocks
    if len(blocks) != 1:
        return None
    last = blocks[0].last
    call = last.prev if last is not None else None
    if last.name != "llvm.return" or last.operands or call is None or \
            call.name != "llvm.call" or call.results or "callee" not in call._props:
        return None
    op = blocks[0].first
    while op is not call:
        if op.name not in ("llvm.load", "llvm.extractvalue"):
            return None
        op = op.next
    return call


def _absorb(tramp, call, chunk) -> None:
    """Put the body of `chunk` in place of `tramp`'s call of it."""
    entry = tramp.regions[0].blocks[0]
    body = chunk.regions[0].blocks
    first = body[0]
    for arg, v in zip(first.args, [o.value for o in call._operands]):
        arg.replace_all_uses_with(v)
    entry.last.erase()
    unpack = call.prev
    call.erase()
    while unpack is not None:    # what the chunk does not use
        prev = unpack.prev
        if all(r.first_use is None for r in unpack.results):
            unpack.erase()
        unpack = prev
    op = first.first
    while op is not None:
        nxt = op.next
        entry.append(op.detach())
        op = nxt
    region = tramp.regions[0]
    for b in body[1:]:
        b.parent = region
        region.blocks.append(b)
    del body[1:]


class ConvertStrataCpuToLLVM(Pass):
    name = "convert-strata-cpu-to-llvm"
    summary = ("Lower strata_cpu.parallel_for to calls of the CPU runtime's thread pool "
               "(packed operands, a trampoline per chunk function)")
    anchor = "builtin.module"

    def run(self, op):
        lower_parallel_for(op)


class FoldTrampolines(Pass):
    name = "strata-cpu-fold-trampolines"
    summary = ("Merge each parallel chunk trampoline with the chunk function it alone "
               "calls (in the llvm dialect)")
    anchor = "builtin.module"

    def run(self, op):
        fold_trampolines(op)


def _register():
    from ..passes.registry import get_pass_class, register_pass
    for cls in (ConvertStrataCpuToLLVM, FoldTrampolines):
        if get_pass_class(cls.name) is None:
            register_pass(cls)


_register()
