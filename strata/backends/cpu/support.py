"""Support functions compiled code may need that the host's C runtime can lack.

LLVM's code generator turns some conversions into calls of compiler-runtime helpers:
float -> bfloat becomes `__truncsfbf2` on CPUs without a bf16 conversion instruction.
GCC's libgcc has it only from GCC 13, so Strata defines it itself, as LLVM IR compiled
once per process (bound into each JIT'd module by name) or into an object file linked
into shared libraries.
"""
from __future__ import annotations

import functools

# float -> bfloat, rounding to nearest even; NaNs stay (quiet) NaNs.
SUPPORT_IR = r"""
define bfloat @__truncsfbf2(float %x) {
entry:
  %bits = bitcast float %x to i32
  %abs = and i32 %bits, 2147483647
  %isnan = icmp ugt i32 %abs, 2139095040
  %lsb = lshr i32 %bits, 16
  %odd = and i32 %lsb, 1
  %bias = add i32 %odd, 32767
  %rounded = add i32 %bits, %bias
  %quiet = or i32 %bits, 4194304
  %pick = select i1 %isnan, i32 %quiet, i32 %rounded
  %hi = lshr i32 %pick, 16
  %h = trunc i32 %hi to i16
  %r = bitcast i16 %h to bfloat
  ret bfloat %r
}

define bfloat @__truncdfbf2(double %x) {
entry:
  %f = fptrunc double %x to float
  %r = call bfloat @__truncsfbf2(float %f)
  ret bfloat %r
}
"""

SUPPORT_FUNCTIONS = ("__truncsfbf2", "__truncdfbf2")


@functools.lru_cache(maxsize=1)
def _jit():
    from .jit import JitModule
    return JitModule(SUPPORT_IR, opt_level=2)


def support_symbols() -> dict[str, int]:
    """{name: address} of the support functions, compiled in this process once."""
    j = _jit()
    return {name: j.address_of(name) for name in SUPPORT_FUNCTIONS}


def support_object() -> bytes:
    """The support functions as a PIC object file (for shared libraries)."""
    from .jit import emit_object
    return emit_object(SUPPORT_IR, opt_level=2)
