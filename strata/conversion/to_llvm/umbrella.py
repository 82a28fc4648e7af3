"""convert-to-llvm: every *-to-llvm lowering of this package (arith, math, index, cf,
memref, func) in one conversion, as upstream's generic convert-to-llvm; options
`safe-division` and `emit-c-wrappers` are passed on (ours)."""
from __future__ import annotations

from ...passes.pass_manager import Option, Pass
from .arith import arith_patterns
from .cf import cf_patterns
from .common import run_llvm_conversion
from .func import func_patterns
from .index import index_patterns
from .math import math_patterns
from .memref import memref_patterns
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertToLLVM", "all_patterns"]


def all_patterns(tc, safe_division=False, emit_c_wrappers=False) -> list:
    return (arith_patterns(tc, safe_division) + math_patterns(tc) + index_patterns(tc) +
            cf_patterns(tc) + memref_patterns(tc) + func_patterns(tc, emit_c_wrappers))


class ConvertToLLVM(Pass):
    name = "convert-to-llvm"
    summary = "Convert to LLVM via dialect interfaces found in the input IR"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")
    safe_division = Option(bool, False, "(Strata) defined integer division by zero, see "
                           "convert-arith-to-llvm")
    emit_c_wrappers = Option(bool, False, "(Strata) C interface wrappers for every function")

    def run(self, op):
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, all_patterns(tc, self.safe_division, self.emit_c_wrappers))
