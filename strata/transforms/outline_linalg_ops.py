"""`strata-outline-linalg-ops`: every linalg op on buffers becomes a call of a private
function holding just that op; ops that compute the same thing from their operands
share one function.

    func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.generic {...} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {...}
      linalg.generic {...} ins(%b : memref<4xf32>) outs(%a : memref<4xf32>) {...}
=>
    func.func @main(...) {
      call @main__op0(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
      call @main__op0(%b, %a) : (memref<4xf32>, memref<4xf32>) -> ()
    }
    func.func private @main__op0(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
      linalg.generic {...} ins(%arg0 : ...) outs(%arg1 : ...) {...}
      return
    }

[Note: why outline before lowering to loops]
A transformer repeats the same layer: MiniLM's 680 linalg ops are 87 different
computations. Everything after this pass (loops, cf, the llvm dialect, LLVM itself)
then works on the 87 functions once, instead of on 680 loop nests in one function
that is deduplicated only at the end. The functions are ordinary functions: the loop
nests they hold after convert-linalg-to-loops are outlined (and parallelized) by
strata-outline-loop-nests like any other, and LLVM is free to inline the thin wrapper.

Values the op uses from outside (operands, and scalars its payload captures) become
arguments in first-use order; constants are cloned in, so that the loops see static
trip counts and values. Ops with results (linalg on tensors) are left alone.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..passes.pass_manager import Option, Pass, Statistic

__all__ = ["OutlineLinalgOps", "outline_linalg_ops"]


def _key(func, fname: str) -> str:
    """The text of an outlined function without its name."""
    from ..syntax.printer import PrintOptions, print_op
    text = print_op(func, PrintOptions(generic=True, local_scope=True))
    return text.replace(f'"{fname}"', '""', 1)


def _linalg_ops(func):
    """The linalg ops (not those nested in another linalg op) of `func`, in program
    order."""
    out = []

    def ops_of(op):
        for r in op.regions:
            for b in r.blocks:
                yield from b.ops
    stack = [ops_of(func)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
        elif op.name.startswith("linalg."):
            out.append(op)
        elif op.regions:
            stack.append(ops_of(op))
    return out


def outline_linalg_ops(module, dedupe: bool = True) -> tuple[int, int]:
    """Outline the linalg ops of every function of `module`: (ops outlined, functions
    made)."""
    from ..dialects.func import CallOp, FuncOp, ReturnOp
    from ..ir.symbol_table import SymbolTable, symbol_name
    from .outline_loop_nests import OUTLINED_ATTR, _captured, _is_constant
    body = module.regions[0].blocks[0]
    taken = set(SymbolTable(module).symbols)
    outlined: dict[str, str] = {}
    ops_done = funcs_made = 0
    for func in list(body.ops):
        if func.name != "func.func" or not func.regions[0].blocks or \
                func.get_attr(OUTLINED_ATTR) is not None:
            continue
        base = symbol_name(func)
        n = 0
        anchor = func
        for op in _linalg_ops(func):
            if op.results:
                continue
            captured = _captured(op)
            consts = [v for v in captured if _is_constant(v)]
            args = [v for v in captured if not _is_constant(v)]
            ftype = A.FunctionType([v.type for v in args], [])
            fname = f"{base}__op{n}"
            while fname in taken:
                n += 1
                fname = f"{base}__op{n}"
            new = FuncOp.new(fname, ftype, visibility="private", loc=op.loc)
            entry = new.regions[0].blocks[0]
            mapping = dict(zip(args, entry.args))
            for c in consts:
                mapping[c] = entry.append(c.defining_op.clone()).results[c.index]
            entry.append(op.clone(mapping))
            entry.append(ReturnOp.build(loc=op.loc, operands_=[]))
            key = _key(new, fname) if dedupe else None
            if key is not None and key in outlined:
                fname = outlined[key]
            else:
                if key is not None:
                    outlined[key] = fname
                taken.add(fname)
                body.insert_after(anchor, new)
                anchor = new
                n += 1
                funcs_made += 1
            call = CallOp.build(loc=op.loc, callee=A.SymbolRefAttr(fname),
                                operands_=args, result_types=[])
            op.parent.insert_before(op, call)
            op.erase()
            ops_done += 1
    return ops_done, funcs_made


class OutlineLinalgOps(Pass):
    name = "strata-outline-linalg-ops"
    summary = "Move each linalg op on buffers into a function of its own (shared by " \
              "identical ops)"
    anchor = "builtin.module"
    dedupe = Option(bool, True, "Call one function for identical ops")
    num_ops = Statistic("num-ops", "Number of linalg ops outlined")
    num_funcs = Statistic("num-functions", "Number of functions made")

    def run(self, op):
        ops, funcs = outline_linalg_ops(op, self.dedupe)
        self.stat("num-ops", ops)
        self.stat("num-functions", funcs)


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(OutlineLinalgOps.name) is None:
        register_pass(OutlineLinalgOps)


_register()
