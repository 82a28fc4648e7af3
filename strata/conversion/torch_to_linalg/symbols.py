"""The symbolic sizes of a torch-dialect function's inputs (torch.export's symbols, their
ranges and the dims derived from them), read from the entry's bindings, and their
checks emitted into the function by convert-torch-to-linalg:

    func.func @main(%arg0: !torch.vtensor<[?,3],f32>, %arg1: !torch.vtensor<[?,3],f32>) {
      %0 = torch.symbolic_int "s77" {min_val = 1, max_val = 12} {strata.dim_name = "s"}
      torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 3)> : ...
      torch.bind_symbolic_shape %arg1, [%0], affine_map<()[s0] -> (s0 * 2, 3)> : ...
  gives, at the entry of the lowered function,
      %c0 = arith.constant 0 : index
      %s = tensor.dim %arg0, %c0 : tensor<?x3xf32>
      %lo = arith.cmpi sge, %s, %c1 : index
      cf.assert %lo, "input #0 ('x') dim 0 is the size Dim 's' (s77), but the program
                      was exported for s77 in [1, 12]"
      ...
      %y = tensor.dim %arg1, %c0 : tensor<?x3xf32>
      %2s = arith.muli %s, %c2 : index
      %ok = arith.cmpi eq, %y, %2s : index
      cf.assert %ok, "input #1 ('y') dim 0 must be 2*s77 as the program's shapes make
                      it (Dim 's' (s77) from input #0 ('x') dim 0)"

[Note: symbolic sizes checked in the generated code]
The code compiled for `?` dims runs for any size, but the program is only right for
the sizes torch.export traced it for (see [Note: input sizes checked against the
symbols] in frontends/torch/shape_guard.py). The rule that the generated code checks
every run-time value deciding a shape holds for these too: whichever way the module
runs (the shared library's checked entry point, the raw C interface, the JIT, the
interpreter on the linalg level), an input past a Dim's range, a derived dim (2*s, s+1)
that its symbols do not give, or two dims of one symbol that disagree is refused by a
`cf.assert` at the function's entry (a RuntimeFailure in Python, STRATA_ERROR_RUNTIME
and strata_last_error() from a library, the interpreter's error), whose message names
the input (its index and the FX placeholder's name), the dim, the symbol (with the
user's `torch.export.Dim` name where Strata exported the module itself: the
`strata.dim_name` attribute frontends/torch/shape_guard.py writes on the
torch.symbolic_int) and the range or the expression. The order of the checks is the
Python guard's: each symbol takes its value from the first input dim that is the symbol
alone (the others of that symbol must equal it); a symbol seen only in derived dims is
solved from the first one (`a*s + b` with a constant a: n - b must be a non-negative
multiple of a); then the ranges (a maximum at or past 2^62 is torch's unbounded
int_oo: no upper check); then every derived dim is computed and compared. A failed
check does not stop the call (see [Note: cf.assert]): nothing here sizes memory, and
the lowerings treat only dims named by one symbol as equal ([Note: symbolic dims]),
which these checks and the checked entry point's dim groups both hold. Dims that an
expression cannot give back (`s // 2` alone) are left to the checks the lowerings emit.
The Python runtime's ShapeGuard (frontends/torch/shape_guard.py) reads the same
analysis (`SymbolicSizes.of`) and raises an InputError with the sizes themselves
before the call; these checks make the generated code hold the rule on its own.
"""
from __future__ import annotations

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder

__all__ = ["SymbolicSizes", "DIM_NAME_ATTR", "emit_size_checks"]

UNBOUNDED = 1 << 62   # a max_val from here up is torch's int_oo
DIM_NAME_ATTR = "strata.dim_name"   # the user's torch.export.Dim name of a symbol


class SymbolicSizes:
    """The symbols of a function's inputs (see the module docstring)."""

    __slots__ = ("symbols", "ranges", "labels", "inputs", "plain", "derived")

    def __init__(self, symbols, ranges, labels, inputs, plain, derived):
        self.symbols = symbols   # [symbol name]
        self.ranges = ranges     # [(min, max or None)] per symbol
        self.labels = labels     # [the user's Dim name or None] per symbol
        self.inputs = inputs     # [input name] per function argument
        self.plain = plain       # ((input, dim, symbol index), ...)
        # ((input, dim, AffineExpr, (symbol index per position), (positions used)), ...)
        self.derived = derived

    @classmethod
    def of(cls, func_op):
        """The symbolic sizes of func.func `func_op`'s arguments (their
        torch.bind_symbolic_shape uses), or None when none of them has a symbolic
        dim."""
        from ...ir.affine import AffineSymbolExpr
        from ...ir.location import NameLoc
        if not func_op.regions or not func_op.regions[0].blocks:
            return None
        symbols, ranges, labels, index = [], [], [], {}
        plain, derived = [], []
        args = func_op.regions[0].blocks[0].args
        for i, arg in enumerate(args):
            for use in arg.uses:
                op = use.owner
                if op.name != "torch.bind_symbolic_shape" or op.operands[0] is not arg:
                    continue
                positions = []
                for s in op.operands[1:]:
                    d = s.defining_op
                    if d is None or d.name != "torch.symbolic_int":
                        positions.append(None)
                        continue
                    name = d.properties["symbol_name"].value
                    if name not in index:
                        index[name] = len(symbols)
                        symbols.append(name)
                        hi = d.properties["max_val"].value
                        ranges.append((d.properties["min_val"].value,
                                       None if hi >= UNBOUNDED else hi))
                        label = d.attributes.get(DIM_NAME_ATTR)
                        labels.append(label.value if isinstance(label, A.StringAttr)
                                      else None)
                    positions.append(index[name])
                amap = op.properties["shape_expressions"].value
                shape = getattr(arg.type, "sizes", None) or ()
                for dim, e in enumerate(amap.results):
                    used = symbols_of(e)
                    if not used and (dim >= len(shape) or shape[dim] >= 0):
                        continue   # static: the type checks it
                    if any(p >= len(positions) or positions[p] is None for p in used):
                        continue   # not understood
                    if type(e) is AffineSymbolExpr:
                        plain.append((i, dim, positions[e.position]))
                    else:
                        derived.append((i, dim, e, tuple(positions), tuple(sorted(used))))
                break
        if not plain and not derived:
            return None
        inputs = [a.loc.name if isinstance(a.loc, NameLoc) else f"arg{i}"
                  for i, a in enumerate(args)]
        return cls(symbols, ranges, labels, inputs, tuple(plain), tuple(derived))

    # ---------------------------------------------------------------- words

    def what(self, i, d, names=None) -> str:
        """`input #1 ('y') dim 0`."""
        names = names if names is not None else self.inputs
        return f"input #{i} ('{names[i]}') dim {d}"

    def symbol(self, s) -> str:
        """`Dim 'batch' (s77)` where the user named the symbol's Dim, else `s77`."""
        label = self.labels[s]
        return f"Dim '{label}' ({self.symbols[s]})" if label else self.symbols[s]

    def allowed(self, s) -> str:
        lo, hi = self.ranges[s]
        return f"at least {lo}" if hi is None else f"in [{lo}, {hi}]"

    def expr_text(self, e, positions) -> str:
        """`e` printed with the symbols' own names (`2*s77 + 1` rather than `s0 * 2 +
        1`)."""
        import re
        return re.sub(r"\bs(\d+)\b",
                      lambda m: self.symbols[positions[int(m.group(1))]]
                      if int(m.group(1)) < len(positions) and
                      positions[int(m.group(1))] is not None else m.group(0), str(e))

    # ---------------------------------------------------------------- solving

    def solve_plan(self):
        """[(input, dim, e, positions, symbol)]: the derived dims that give a symbol
        no plain dim gives (the first of them per symbol, in order), and the symbol
        each gives; the Python guard and the generated code solve the same ones."""
        known = {s for _, _, s in self.plain}
        plan = []
        for i, d, e, positions, used in self.derived:
            unknown = {positions[p] for p in used if positions[p] not in known}
            if len(unknown) == 1:
                s = unknown.pop()
                plan.append((i, d, e, positions, s))
                known.add(s)
        return plan

    def source(self, s):
        """(input, dim, from-expression-text or None) the value of symbol `s` is read
        from, or None when no input dim gives it."""
        for i, d, t in self.plain:
            if t == s:
                return i, d, None
        for i, d, e, positions, t in self.solve_plan():
            if t == s:
                return i, d, self.expr_text(e, positions)
        return None


def symbols_of(e) -> set:
    """The positions of the symbols expression `e` uses."""
    from ...ir.affine import SYMBOL
    return {x.position for x in e.walk() if x.kind == SYMBOL}


def linear_in(e, positions, s):
    """a when `e` is `a * s + b` with a constant a != 0 (b free of s), tested at
    several values of every symbol; else None."""
    def at(v, others):
        return e.eval((), [v if p == s else others for p in positions])
    a = at(1, 3) - at(0, 3)
    if a == 0:
        return None
    for others in (0, 1, 2, 5, 11):
        b = at(0, others)
        if any(at(v, others) != a * v + b for v in (1, 2, 3, 7, 10)):
            return None
    return a


# ---------------------------------------------------------------- the generated checks


def emit_size_checks(sizes: SymbolicSizes, block, loc) -> None:
    """The checks of [Note: symbolic sizes checked in the generated code] at the start
    of `block` (the lowered function's entry: builtin tensors as arguments)."""
    from ...dialects.cf import AssertOp
    from ...ir.builder import Builder
    b = Builder.at_start(block, loc)
    s = _Indices(b, loc)
    args = block.args
    dims = {}

    def dim(i, d):
        v = dims.get((i, d))
        if v is None:
            t = args[i].type
            n = t.shape[d] if d < len(getattr(t, "shape", ())) else A.DYNAMIC
            v = s.index(n) if n != A.DYNAMIC else \
                s.op1("tensor.dim", [args[i], s.index(d)], A.index)
            dims[i, d] = v
        return v

    def check(flag, message):
        b.create(AssertOp, arg=flag, msg=A.StringAttr(message))

    what = sizes.what
    n_sym = len(sizes.symbols)
    value = [None] * n_sym
    source = [None] * n_sym
    for i, d, k in sizes.plain:
        if value[k] is None:
            value[k], source[k] = dim(i, d), (i, d)
            continue
        i0, d0 = source[k]
        check(s.cmp("eq", dim(i, d), value[k]),
              f"{what(i, d)} must equal {what(i0, d0)}: both are the size "
              f"{sizes.symbol(k)}")
    solved_from, solved_at = {}, set()
    for i, d, e, positions, k in sizes.solve_plan():
        a = linear_in(e, positions, k)
        if a is None:
            continue   # not solvable here: its derived dims go unchecked (see the Note)
        # b = e with the symbol at 0; n - b must be a non-negative multiple of a
        base = _emit_expr(s, e, [s.index(0) if q == k else
                                 value[q] if q is not None else None for q in positions])
        rest = s.sub(dim(i, d), base)
        ca = s.index(a)
        ok = s.and_(s.cmp("eq", s.rem(rest, ca), s.index(0)),
                    s.cmp("ge" if a > 0 else "le", rest, s.index(0)))
        check(ok, f"{what(i, d)} must be a size of the form "
                  f"{sizes.expr_text(e, positions)}")
        value[k], source[k] = s.div(rest, ca), (i, d)
        solved_from[k] = sizes.expr_text(e, positions)
        solved_at.add((i, d))
    for k, (lo, hi) in enumerate(sizes.ranges):
        if value[k] is None:
            continue
        flags = []
        if lo > 0:
            flags.append(s.cmp("ge", value[k], s.index(lo)))
        if hi is not None:
            flags.append(s.cmp("le", value[k], s.index(hi)))
        if not flags:
            continue
        ok = flags[0] if len(flags) == 1 else s.and_(*flags)
        i, d = source[k]
        via = f" (solved from {solved_from[k]})" if k in solved_from else ""
        check(ok, f"{what(i, d)} is the size {sizes.symbol(k)}{via}, but the program "
                  f"was exported for {sizes.symbols[k]} {sizes.allowed(k)}")
    for i, d, e, positions, used in sizes.derived:
        if any(value[positions[p]] is None for p in used):
            continue
        if (i, d) in solved_at:
            continue   # the dim the symbol was solved from: checked above
        want = _emit_expr(s, e, [value[q] if q is not None else None for q in positions])
        if not used:
            check(s.cmp("eq", dim(i, d), want),
                  f"{what(i, d)} must be {e} (a dim torch.export specialized)")
            continue
        got = ", ".join(f"{sizes.symbol(positions[p])} from "
                        f"{what(*source[positions[p]])}" for p in used)
        check(s.cmp("eq", dim(i, d), want),
              f"{what(i, d)} must be {sizes.expr_text(e, positions)} as the program's "
              f"shapes make it ({got})")


class _Indices(ScalarBuilder):
    """A ScalarBuilder making each index constant once."""

    __slots__ = ("consts",)

    def __init__(self, builder, loc):
        super().__init__(builder, loc)
        self.consts = {}

    def index(self, value: int):
        v = self.consts.get(value)
        if v is None:
            v = self.consts[value] = super().index(value)
        return v


def _emit_expr(s, e, syms):
    """Affine expression `e` of symbols as index arithmetic (`syms`: the index Value
    per symbol position); floordiv, ceildiv and mod by constants round as affine's."""
    from ...ir.affine import ADD, CEILDIV, CONSTANT, FLOORDIV, MOD, MUL, SYMBOL
    k = e.kind
    if k == CONSTANT:
        return s.index(e.value)
    if k == SYMBOL:
        v = syms[e.position]
        if v is None:
            raise ValueError(f"symbol s{e.position} has no value")
        return v
    if k not in (ADD, MUL, MOD, FLOORDIV, CEILDIV):
        raise ValueError(f"{e}: not an expression of symbols")
    x, y = _emit_expr(s, e.lhs, syms), _emit_expr(s, e.rhs, syms)
    if k == ADD:
        return s.add(x, y)
    if k == MUL:
        return s.mul(x, y)
    if k == FLOORDIV:
        return s.op1("arith.floordivsi", [x, y], A.index)
    if k == CEILDIV:
        return s.op1("arith.ceildivsi", [x, y], A.index)
    q = s.op1("arith.floordivsi", [x, y], A.index)
    return s.sub(x, s.mul(q, y))
