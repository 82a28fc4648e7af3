"""`strata-outline-loop-nests`: every loop nest at the top level of a function (or a
conditional holding one) becomes a function of its own, called where the nest was.

    func.func @main(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
      scf.for %i = %c0 to %c4 step %c1 { ... memref.store ... %b[%i, %j] }
      ...
=>
    func.func @main(...) { call @main__nest0(%a, %b) : (...) -> () ... }
    func.func private @main__nest0(%a: memref<4x8xf32>, %b: memref<4x8xf32>)
        attributes {strata.outlined} { scf.for ... ; return }

[Note: why]
A lowered model is one function holding hundreds of loop nests. LLVM's optimizer and
code generator are superlinear in the size of a function (a 2-layer transformer took a
minute to compile as one function, a second as one function per nest), so each nest
(one linalg op's loops, typically) is compiled as its own function. The CPU target keeps
LLVM from inlining them back (`noinline`); later, the same functions are the units a
thread pool runs in parallel.

[Note: one nest]
A private function that already holds nothing but one nest (and ops without effects:
constants, memref.dim) is not split
again: it is marked `strata.outlined` itself. strata-outline-linalg-ops makes one such
function per different linalg op; a nest function under each would double the functions
LLVM compiles and put a call passing every memref descriptor field in between (MiniLM:
62 functions, a fifth of LLVM's time).

Values the nest uses from outside become arguments, except constants, which are cloned
into the new function (LLVM then sees the trip counts and strides). Results of the nest
(loop-carried values) are the function's results. Runs on buffers after
convert-linalg-to-loops and before convert-scf-to-cf.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import traits as T
from ..passes.pass_manager import Option, Pass

__all__ = ["OutlineLoopNests", "outline_loop_nests", "OUTLINED_ATTR"]

OUTLINED_ATTR = "strata.outlined"
_NESTS = ("scf.for", "scf.parallel", "scf.while", "scf.forall")
# Conditionals holding loop nests (run-time broadcasting checks) go out of line too.
_GUARDS = ("scf.if", "scf.index_switch", "scf.execute_region")


def _captured(op):
    """Values used inside `op` (its operands included) that are defined outside it, in
    first-use order."""
    inside = set()
    seen, order = set(), []
    stack = [op]
    while stack:
        o = stack.pop()
        for r in o.regions:
            for b in r.blocks:
                inside.update(b.args)
                for inner in b.ops:
                    inside.update(inner.results)
                    stack.append(inner)
    for o in op.walk():
        for v in o.operands:
            if v not in inside and v not in seen:
                seen.add(v)
                order.append(v)
    return order


def _is_constant(v) -> bool:
    d = v.defining_op
    return d is not None and T.ConstantLike in type(d).traits and not d.regions


def _body_key(func, fname: str) -> str:
    """The text of an outlined function without its name: equal keys mean the two
    functions compute the same thing from their arguments."""
    from ..syntax.printer import PrintOptions, print_op
    text = print_op(func, PrintOptions(generic=True, local_scope=True))
    return text.replace(f'"{fname}"', '""', 1)


def _is_nest(op, min_ops: int) -> bool:
    if op.name not in _NESTS and not (
            op.name in _GUARDS and any(o.name in _NESTS for o in op.walk())):
        return False
    return min_ops <= 1 or sum(1 for _ in op.walk()) >= min_ops


def _is_one_nest(func, min_ops: int) -> bool:
    """Whether private `func` is one loop nest without results and a return of nothing,
    but for ops without effects or regions (constants, memref.dim)."""
    from ..passes.call_graph import visibility
    blocks = func.regions[0].blocks
    if len(blocks) != 1 or visibility(func) != "private":
        return False
    nests = 0
    for op in blocks[0].ops:
        if op is blocks[0].last:
            if op.operands:
                return False
        elif _is_nest(op, min_ops) and not op.results:
            nests += 1
        elif op.regions or not (T.Pure in type(op).traits or
                                T.NoMemoryEffect in type(op).traits):
            return False
    return nests == 1


def outline_loop_nests(module, min_ops: int = 1, dedupe: bool = True) -> int:
    """Outline the top-level loop nests of every function of `module`; returns how many.
    With `dedupe`, a nest identical to one outlined before calls that function instead
    of getting its own (a transformer's layers repeat the same nests: MiniLM's 681
    nests are 87 different functions, and LLVM's time follows the function count)."""
    from ..dialects.func import CallOp, FuncOp, ReturnOp
    from ..ir.symbol_table import symbol_name
    body = module.regions[0].blocks[0]
    count = 0
    outlined: dict[str, str] = {}
    for func in list(body.ops):
        if func.name != "func.func" or not func.regions[0].blocks or \
                func.get_attr(OUTLINED_ATTR) is not None:
            continue
        if _is_one_nest(func, min_ops):
            # Already a function of one nest (an op strata-outline-linalg-ops outlined):
            # it is the unit to keep out of line (see [Note: one nest]).
            func.set_attr(OUTLINED_ATTR, A.UnitAttr())
            count += 1
            continue
        name = symbol_name(func)
        n = 0
        anchor = func  # the outlined functions follow their parent, in order
        for block in func.regions[0].blocks:
            for op in list(block.ops):
                if not _is_nest(op, min_ops):
                    continue
                captured = _captured(op)
                consts = [v for v in captured if _is_constant(v)]
                args = [v for v in captured if not _is_constant(v)]
                ftype = A.FunctionType([v.type for v in args],
                                       [r.type for r in op.results])
                fname = f"{name}__nest{n}"
                n += 1
                new = FuncOp.new(fname, ftype, visibility="private", loc=op.loc)
                new.set_attr(OUTLINED_ATTR, A.UnitAttr())
                entry = new.regions[0].blocks[0]
                mapping = dict(zip(args, entry.args))
                for c in consts:
                    mapping[c] = entry.append(c.defining_op.clone()).results[c.index]
                clone = entry.append(op.clone(mapping))
                entry.append(ReturnOp.build(loc=op.loc, operands_=list(clone.results)))
                key = _body_key(new, fname) if dedupe else None
                if key is not None and key in outlined:
                    fname = outlined[key]
                    n -= 1
                else:
                    if key is not None:
                        outlined[key] = fname
                    body.insert_after(anchor, new)
                    anchor = new
                call = CallOp.build(loc=op.loc, callee=A.SymbolRefAttr(fname),
                                    operands_=args, result_types=list(ftype.results))
                block.insert_before(op, call)
                op.replace_all_uses_with(list(call.results))
                op.erase()
                count += 1
    return count


class OutlineLoopNests(Pass):
    name = "strata-outline-loop-nests"
    summary = "Move each top-level loop nest of a function into a function of its own"
    anchor = "builtin.module"
    min_ops = Option(int, 1, "Outline only nests of at least this many ops")
    dedupe = Option(bool, True, "Call one function for identical nests")

    def run(self, op):
        outline_loop_nests(op, self.min_ops, self.dedupe)


def _register():
    from ..passes.registry import get_pass_class, register_pass
    if get_pass_class(OutlineLoopNests.name) is None:
        register_pass(OutlineLoopNests)


_register()
