"""convert-index-to-llvm: the index dialect's ops -> llvm, as upstream's IndexToLLVM.
Strata has no index dialect yet: the pass converts any `index.*` op it knows by name
(add, sub, mul, divs, divu, rems, remu, maxs, mins, maxu, minu, shl, shrs, shru, and,
or, xor, constant, bool.constant, casts, cmp) and leaves the rest."""
from __future__ import annotations

from ...ir import attributes as A
from ...passes.pass_manager import Option, Pass
from .common import LLVMPattern, run_llvm_conversion
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertIndexToLLVM", "index_patterns"]

_BINARY = {"index.add": "llvm.add", "index.sub": "llvm.sub", "index.mul": "llvm.mul",
           "index.divs": "llvm.sdiv", "index.divu": "llvm.udiv", "index.rems": "llvm.srem",
           "index.remu": "llvm.urem", "index.maxs": "llvm.intr.smax",
           "index.mins": "llvm.intr.smin", "index.maxu": "llvm.intr.umax",
           "index.minu": "llvm.intr.umin", "index.shl": "llvm.shl",
           "index.shrs": "llvm.ashr", "index.shru": "llvm.lshr", "index.and": "llvm.and",
           "index.or": "llvm.or", "index.xor": "llvm.xor"}
_CMP = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


class IndexLowering(LLVMPattern):
    def match_and_rewrite(self, op, operands, rewriter):
        b = self.builder(rewriter, op)
        it = self.index_type
        name = op.name
        if name in _BINARY:
            v = b.create(_BINARY[name], list(operands), [it]).results[0]
        elif name == "index.constant":
            v = b.index_const(op._props["value"].value, it)
        elif name == "index.bool.constant":
            v = b.bool_const(op._props["value"].value)
        elif name == "index.cmp":
            v = b.icmp(_CMP[op._props["pred"].value], *operands)
        elif name in ("index.casts", "index.castu"):
            src, dst = operands[0], self.tc.convert_type(op.results[0].type)
            sw, dw = src.type.width, dst.width
            if sw == dw:
                v = src
            elif dw < sw:
                v = b.cast("llvm.trunc", src, dst)
            else:
                v = b.cast("llvm.sext" if name == "index.casts" else "llvm.zext", src, dst)
        else:
            return rewriter.notify_match_failure(op, "no lowering")
        rewriter.replace_op(op, [v])
        return True


INDEX_OPS = tuple(_BINARY) + ("index.constant", "index.bool.constant", "index.cmp",
                              "index.casts", "index.castu")


def index_patterns(tc) -> list:
    return [IndexLowering(tc, root=n) for n in INDEX_OPS]


class ConvertIndexToLLVM(Pass):
    name = "convert-index-to-llvm"
    summary = "Lower the `index` dialect to the `llvm` dialect."
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")

    def run(self, op):
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, index_patterns(tc))


_unused = A
