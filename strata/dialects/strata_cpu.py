"""The strata_cpu dialect: what Strata's CPU code generation needs beyond upstream's
dialects. One op so far:

    strata_cpu.parallel_for @chunk(%a, %b) count(%n) grain(%g) : (memref<64x384xf32>,
                                                                  memref<64x384xf32>)

calls `@chunk(%a, %b, %lo, %hi)` for ranges [lo, hi) that partition [0, %n), each at
least %g long (but the last), possibly at once on several threads and in any order; all
of them have returned when the op completes. `@chunk` is a func.func taking the op's
operands then two `index`es, returning nothing; the ranges must be independent (no
range writes what another one reads or writes). The pass convert-scf-to-strata-cpu makes
it from scf.parallel loops; convert-strata-cpu-to-llvm lowers it to a call of the CPU
runtime's thread pool (strata_parallel_for).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir.context import Dialect
from ..ir.ods import Op, Operand, Prop, VarOperand
from ..syntax.asm_format import SymbolRef, install_format

__all__ = ["STRATA_CPU", "ParallelForOp"]


class ParallelForOp(Op):
    """`strata_cpu.parallel_for @f(%a) count(%n) grain(%g) : (memref<8xf32>)`: @f(%a,
    %lo, %hi) over a partition of [0, %n) in ranges of at least %g (see the module doc)."""

    name = "strata_cpu.parallel_for"
    callee = Prop(C.FlatSymbolRefAttr)
    callee.fmt = SymbolRef()
    count = Operand(C.Index)
    grain = Operand(C.Index)
    args = VarOperand()
    assembly = ("$callee `(` $args `)` `count` `(` $count `)` `grain` `(` $grain `)` "
                "attr-dict `:` `(` type($args) `)`")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name in ("count", "grain") else None

    @classmethod
    def new(cls, callee: str, args, count, grain, loc=None):
        return cls.create([count, grain, *args], (),
                          {"callee": A.SymbolRefAttr(callee)}, None, (), 0, loc)

    def verify_symbol_uses(self):
        """The callee is a func.func taking the operands and two indices, returning
        nothing."""
        from ..ir.symbol_table import lookup_nearest_symbol_from
        ref = self.properties["callee"]
        fn = lookup_nearest_symbol_from(self, ref)
        if fn is None or fn.name != "func.func":
            return f"'{ref.root}' does not reference a valid function"
        ft = fn.properties["function_type"].value
        want = [v.type for v in self.args] + [A.index, A.index]
        if list(ft.inputs) != want or ft.results:
            sig = ", ".join(str(t) for t in want)
            return f"expects @{ref.root} to have type ({sig}) -> (), not {ft}"
        return None


install_format(ParallelForOp)

STRATA_CPU = Dialect("strata_cpu", [ParallelForOp])
