"""The llvm dialect: LLVM IR in MLIR form, with upstream MLIR's syntax.

Types and attributes are in `types.py`, structural ops (functions, globals, calls,
aggregates, control flow) in `ops.py`, getelementptr, load, store and alloca in
`memory.py`, atomicrmw, cmpxchg and fence in `atomics.py`, static constructors and aliases
in `module_ops.py`, invoke / landingpad / resume in `exceptions.py`, arithmetic, casts and vector element ops in
`arith_ops.py`, intrinsics in `intrinsics.py`. The dialect is what the `*-to-llvm`
conversions produce and what strata/backends/cpu/llvmir.py translates to LLVM IR text.
"""
from __future__ import annotations

from ...ir.context import Dialect
from .arith_ops import *  # noqa: F401,F403
from .arith_ops import ARITH_OPS
from .atomics import *  # noqa: F401,F403
from .atomics import ATOMIC_OPS
from .intrinsics import INTRINSIC_OPS, IntrOp  # noqa: F401
from .memory import *  # noqa: F401,F403
from .exceptions import *  # noqa: F401,F403
from .exceptions import EXCEPTION_OPS
from .memory import MEMORY_OPS
from .module_ops import *  # noqa: F401,F403
from .module_ops import MODULE_OPS
from .ops import *  # noqa: F401,F403
from .ops import STRUCTURE_OPS
from .types import *  # noqa: F401,F403
from .types import parse_attribute, parse_type


def _materialize_constant(builder, value, result_type, loc=None):
    """Folded values of llvm ops become llvm.mlir.constant."""
    from ...ir import attributes as A
    from .ops import ConstantOp
    if not isinstance(value, (A.IntegerAttr, A.FloatAttr)) or value.type is not result_type:
        return None
    return builder.create(ConstantOp, value=value, res=result_type, loc=loc)


LLVM = Dialect("llvm", STRUCTURE_OPS + EXCEPTION_OPS + MODULE_OPS + MEMORY_OPS + ATOMIC_OPS + ARITH_OPS + INTRINSIC_OPS,
               parse_attribute=parse_attribute, parse_type=parse_type,
               materialize_constant=_materialize_constant)
