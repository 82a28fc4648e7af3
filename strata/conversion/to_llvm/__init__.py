"""Lowerings to the llvm dialect, as upstream MLIR's *ToLLVM conversions.

    convert-arith-to-llvm     arith -> llvm (arith.py); option safe-division (ours)
    convert-math-to-llvm      math -> llvm intrinsics, or libm calls (math.py)
    convert-index-to-llvm     index dialect -> llvm (index.py)
    convert-cf-to-llvm        cf -> llvm.br/cond_br/switch; cf.assert -> strata_assert_fail
    finalize-memref-to-llvm   memref -> descriptors, malloc/free, GEPs (memref.py)
    convert-func-to-llvm      func -> llvm.func, _mlir_ciface_ wrappers (func.py)
    reconcile-unrealized-casts  fold away builtin.unrealized_conversion_cast (reconcile.py)
    convert-to-llvm           all of the above, in one conversion

The type converter and the memref descriptor (the ABI) are in type_converter.py.
"""
from __future__ import annotations

from ...passes.registry import register_pass
from .arith import ConvertArithToLLVM
from .cf import ConvertCFToLLVM
from .func import ConvertFuncToLLVM
from .index import ConvertIndexToLLVM
from .math import ConvertMathToLLVM
from .memref import FinalizeMemRefToLLVM
from .reconcile import ReconcileUnrealizedCasts
from .umbrella import ConvertToLLVM

PASSES = (ConvertArithToLLVM, ConvertMathToLLVM, ConvertIndexToLLVM, ConvertCFToLLVM,
          FinalizeMemRefToLLVM, ConvertFuncToLLVM, ReconcileUnrealizedCasts, ConvertToLLVM)

for _p in PASSES:
    register_pass(_p)

__all__ = [p.__name__ for p in PASSES] + ["PASSES"]
