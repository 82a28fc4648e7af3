"""convert-func-to-llvm: func.func / func.return / func.call -> llvm.func / llvm.return /
llvm.call, with upstream's calling convention (see [Note: the memref descriptor and
the function ABI] in type_converter.py).

    func.func @f(%m: memref<?xf32>, %i: index) -> f32
      -> llvm.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64,
                      %arg4: i64, %arg5: i64) -> f32
         (the body rebuilds the descriptor: llvm.mlir.poison + llvm.insertvalue)

A function with the unit attribute `llvm.emit_c_interface` (or every function, with
the option `emit-c-wrappers`) also gets a wrapper `_mlir_ciface_<name>` that takes
each memref as a pointer to its descriptor and, when the result is a struct (a memref,
or several results), a pointer to storage for it as first argument:

    llvm.func @_mlir_ciface_f(%arg0: !llvm.ptr, %arg1: i64) -> f32
    llvm.func @_mlir_ciface_g(%res: !llvm.ptr, %arg0: !llvm.ptr)   // g: memref -> memref

For a declaration with the attribute, the roles swap: `@f` gets a body that calls the
external `@_mlir_ciface_f`.
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...passes.pass_manager import Option, Pass
from .builder import llvm_op
from .common import LLVMPattern, run_llvm_conversion
from .type_converter import LLVMTypeConverter, MemRefDescriptor

__all__ = ["ConvertFuncToLLVM", "func_patterns"]

_DROPPED_ATTRS = frozenset(("sym_name", "function_type", "arg_attrs", "res_attrs",
                            "sym_visibility", "llvm.linkage"))
_MEMREFS = (A.MemRefType, A.UnrankedMemRefType)


def _is_memref(t):
    return type(t) in _MEMREFS


class FuncLowering(LLVMPattern):
    root = "func.func"

    def match_and_rewrite(self, op, operands, rewriter):
        ft = op._props["function_type"].value
        conv = self.tc.convert_function_signature(ft)
        if conv is None:
            return rewriter.notify_match_failure(op, "could not convert the signature")
        lft, sc = conv
        name = op._props["sym_name"].value
        attrs = {k: v for k, v in op._attrs.items() if k not in _DROPPED_ATTRS}
        linkage = op._attrs.get("llvm.linkage")
        new = llvm_op("llvm.func").new(name, lft, body=False, loc=op.loc,
                                       attributes=attrs or None)
        if linkage is not None:
            new.properties["linkage"] = linkage
        _copy_arg_attrs(op, new, sc)
        rewriter.insert(new)
        region = op.regions[0]
        declaration = not region.blocks
        if region.blocks:
            rewriter.inline_region_before(region, new.regions[0], 0)
            if rewriter.convert_region_types(new.regions[0], self.tc, sc) is None:
                return rewriter.notify_match_failure(op, "could not convert block types")
        if self.options.get("emit_c_wrappers") or "llvm.emit_c_interface" in op._attrs:
            _emit_c_wrapper(self.tc, rewriter, op, new, ft, lft, declaration)
        rewriter.erase_op(op)
        return True


def _copy_arg_attrs(op, new, sc):
    arg_attrs = op._props.get("arg_attrs")
    res_attrs = op._props.get("res_attrs")
    if arg_attrs is not None:
        out = [A.DictionaryAttr({})] * len(sc.converted_types)
        for i, a in enumerate(arg_attrs):
            m = sc.input_mapping(i)
            if m is not None and m[1] == 1:
                out[m[0]] = a
        if any(len(getattr(a, "value", {}) or {}) for a in out):
            new.properties["arg_attrs"] = A.ArrayAttr(out)
    ft = op._props["function_type"].value
    if res_attrs is not None and len(ft.results) == 1:
        new.properties["res_attrs"] = res_attrs


# ---------------------------------------------------------------- C interface


def c_wrapper_type(tc, ft):
    """(!llvm.func type of `_mlir_ciface_<f>`, whether the result goes through a
    pointer argument) for a func.func type."""
    res = tc.pack_function_results(ft.results)
    params = []
    by_ptr = isinstance(res, LT.LLVMStructType)
    if by_ptr:
        params.append(LT.ptr)
    for t in ft.inputs:
        params.append(LT.ptr if _is_memref(t) else tc.convert_type(t))
    return LT.LLVMFunctionType(LT.void if by_ptr else res, params), by_ptr


def _emit_c_wrapper(tc, rewriter, op, fn, ft, lft, declaration):
    from .builder import LLVMBuilder
    name = op._props["sym_name"].value
    wty, by_ptr = c_wrapper_type(tc, ft)
    attrs = {k: v for k, v in op._attrs.items() if k not in _DROPPED_ATTRS}
    if declaration:
        # `@f` calls the external `@_mlir_ciface_f`.
        wrapper = llvm_op("llvm.func").new("_mlir_ciface_" + name, wty, body=False,
                                           loc=op.loc, attributes=attrs or None)
        rewriter.insert(wrapper)
        from ...ir.core import Block
        entry = Block(list(lft.params))
        fn.regions[0].add_block(entry)
        b = LLVMBuilder(_AtEnd(rewriter, entry), op.loc)
        _call_c_interface(tc, b, ft, lft, wty, by_ptr, entry.args, wrapper)
        return
    wrapper = llvm_op("llvm.func").new("_mlir_ciface_" + name, wty, body=True, loc=op.loc,
                                       attributes=attrs or None)
    rewriter.insert(wrapper)
    entry = wrapper.regions[0].blocks[0]
    b = LLVMBuilder(_AtEnd(rewriter, entry), op.loc)
    args = list(entry.args)
    out_ptr = args.pop(0) if by_ptr else None
    call_args = []
    for t, a in zip(ft.inputs, args):
        if _is_memref(t):
            st = tc.convert_type(t)
            d = b.load(a, st)
            if type(t) is A.MemRefType:
                call_args += MemRefDescriptor(d).unpack(b)
            else:
                call_args += [b.extractvalue(d, [0]), b.extractvalue(d, [1])]
        else:
            call_args.append(a)
    r = b.call(name, call_args, lft.result)
    if by_ptr:
        b.store(r, out_ptr)
        b.create("llvm.return", [])
    else:
        b.create("llvm.return", [r] if r is not None else [])


def _call_c_interface(tc, b, ft, lft, wty, by_ptr, args, wrapper):
    """Body of a declared `@f` with a C interface: promote memref descriptors to the
    stack and call `@_mlir_ciface_f`."""
    args = list(args)
    idx = tc.index_type
    one = b.index_const(1, idx)
    call_args = []
    out = None
    if by_ptr:
        out = b.alloca(one, lft.result)
        call_args.append(out)
    k = 0
    for t in ft.inputs:
        if _is_memref(t):
            st = tc.convert_type(t)
            n = len(tc.memref_fields(t))
            if type(t) is A.MemRefType:
                d = MemRefDescriptor.pack(b, st, args[k:k + n]).value
            else:
                d = b.insertvalue(b.insertvalue(b.poison(st), args[k], [0]), args[k + 1], [1])
            slot = b.alloca(one, st)
            b.store(d, slot)
            call_args.append(slot)
            k += n
        else:
            call_args.append(args[k])
            k += 1
    r = b.call(wrapper._props["sym_name"].value, call_args, wty.result)
    if by_ptr:
        r = b.load(out, lft.result)
    b.create("llvm.return", [r] if r is not None else [])


class _AtEnd:
    """Inserts at the end of `block` through `rewriter` (recorded for rollback)."""

    __slots__ = ("rw", "block")

    def __init__(self, rw, block):
        self.rw = rw
        self.block = block

    def insert(self, op):
        from ...ir.builder import InsertionPoint
        saved = self.rw.ip
        self.rw.ip = InsertionPoint.at_end(self.block)
        try:
            return self.rw.insert(op)
        finally:
            self.rw.ip = saved


# ---------------------------------------------------------------- return / call


class ReturnLowering(LLVMPattern):
    root = "func.return"

    def match_and_rewrite(self, op, operands, rewriter):
        b = self.builder(rewriter, op)
        vals = list(operands)
        if len(vals) > 1:
            st = LT.LLVMStructType([v.type for v in vals])
            d = b.poison(st)
            for i, v in enumerate(vals):
                d = b.insertvalue(d, v, [i])
            vals = [d]
        b.create("llvm.return", vals)
        rewriter.erase_op(op)
        return True


class CallLowering(LLVMPattern):
    root = "func.call"

    def match_and_rewrite(self, op, operands, rewriter):
        b = self.builder(rewriter, op)
        args = []
        for v, orig in zip(operands, op.operands):
            if type(orig.type) is A.MemRefType:
                args += MemRefDescriptor(v).unpack(b)
            elif type(orig.type) is A.UnrankedMemRefType:
                args += [b.extractvalue(v, [0]), b.extractvalue(v, [1])]
            else:
                args.append(v)
        res = self.tc.pack_function_results([r.type for r in op.results])
        if res is None:
            return rewriter.notify_match_failure(op, "cannot convert result types")
        callee = op._props["callee"].root if hasattr(op._props["callee"], "root") \
            else op._props["callee"].value
        r = b.call(callee, args, res)
        if len(op.results) > 1:
            rewriter.replace_op(op, [b.extractvalue(r, [i]) for i in range(len(op.results))])
        else:
            rewriter.replace_op(op, [r] if op.results else [])
        return True


def func_patterns(tc, emit_c_wrappers=False) -> list:
    return [FuncLowering(tc, emit_c_wrappers=emit_c_wrappers), ReturnLowering(tc),
            CallLowering(tc)]


class ConvertFuncToLLVM(Pass):
    name = "convert-func-to-llvm"
    summary = "Convert from the Func dialect to the LLVM dialect"
    anchor = "builtin.module"
    use_bare_ptr_memref_call_conv = Option(bool, False, "Replace FuncOp's MemRef arguments "
                                           "with bare pointers to the MemRef element types "
                                           "(not supported by Strata)")
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")
    emit_c_wrappers = Option(bool, False, "(Strata) emit C interface wrappers for every "
                             "function, as if each had llvm.emit_c_interface")

    def run(self, op):
        if self.use_bare_ptr_memref_call_conv:
            self.signal_failure("use-bare-ptr-memref-call-conv is not supported", op)
            return
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, func_patterns(tc, self.emit_c_wrappers),
                            illegal=("func.func", "func.return", "func.call"))
