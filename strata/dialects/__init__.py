"""Strata's dialects and the one registry of them.

`all_dialects()` lists every dialect Strata ships; `default_context()` makes a Context
that has them all registered (what strata-opt and the compiler use).
"""
from __future__ import annotations

from ..ir.context import Context


def all_dialects():
    from .arith import ARITH
    from .builtin import BUILTIN
    from .bufferization import BUFFERIZATION
    from .cf import CF
    from .func import FUNC
    from .gpu import GPU
    from .linalg import LINALG
    from .llvm import LLVM
    from .math import MATH
    from .memref import MEMREF
    from .ml_program import ML_PROGRAM
    from .nvgpu import NVGPU
    from .nvvm import NVVM
    from .onnx import ONNX
    from .scf import SCF
    from .strata_cpu import STRATA_CPU
    from .tensor import TENSOR
    from .torch import TORCH, TORCH_C
    from .tosa import TOSA
    from .vector import VECTOR
    return [BUILTIN, FUNC, ARITH, MATH, CF, SCF, TENSOR, ML_PROGRAM, ONNX, LINALG, TOSA, LLVM,
            MEMREF, BUFFERIZATION, STRATA_CPU, TORCH, TORCH_C, GPU, NVVM, VECTOR, NVGPU]


def default_context(allow_unregistered: bool = False) -> Context:
    return Context(all_dialects(), allow_unregistered=allow_unregistered)
