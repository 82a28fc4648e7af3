"""The run-time check of a compiled PyTorch program's input sizes against its symbolic
shapes: the ranges of torch.export's symbols (`torch.export.Dim("s", min=2, max=16)`)
and the sizes derived from them (`2 * s`, `s + 1`), read from the entry's bindings:

    func.func @main(%arg0: !torch.vtensor<[?,3],f32>, %arg1: !torch.vtensor<[?,3],f32>) {
      %0 = torch.symbolic_int "s77" {min_val = 2, max_val = 16} : !torch.int
      torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 3)> : ...
      torch.bind_symbolic_shape %arg1, [%0], affine_map<()[s0] -> (s0 * 2, 3)> : ...

    guard = ShapeGuard.of(entry)      # None when no input has a symbolic dim
    guard(values, input_names)        # InputError: input #1 ('y') dim 0 is 11, but ...

[Note: input sizes checked against the symbols]
The code compiled for `?` dims runs for any size, but the program is only right for
the sizes torch.export traced it for: its guards assumed the symbols' ranges (a
`Dim(max=16)` may have let export drop a branch) and the derived sizes (`y` has twice
`x`'s rows, so `x.repeat(2, 1) + y` needs no broadcast). torch's own
`ExportedProgram.module()` refuses other inputs ("Guard failed: 2 * x.size()[0] ==
y.size()[0]"); the compiled model does too, before running, with an InputError
naming the input and dim: each symbol takes its value from the first input dim that
is the symbol alone (a symbol seen only in derived dims, `2 * s + 1`, is solved from
one of them: it must divide out), is checked against its range (a maximum at or past
2^62 is torch's unbounded `int_oo`), and each derived dim is then computed and
compared. Dims that an expression cannot give back (`s // 2` alone) are left to the
checks the lowerings emit (broadcasts, views), as everything not on the inputs is.
The entry's dims named by one symbol also form CompiledModel's dim groups (the fast
path's agreement check); this guard repeats that check with the symbols' words.
"""
from __future__ import annotations

__all__ = ["ShapeGuard"]

_UNBOUNDED = 1 << 62   # a max_val from here up is torch's int_oo


class ShapeGuard:
    """The symbolic-size checks of a compiled program's inputs (see the module
    docstring): call it with the input values (anything with `.shape`) in signature
    order and their names."""

    __slots__ = ("symbols", "ranges", "plain", "derived")

    def __init__(self, symbols, ranges, plain, derived):
        self.symbols = symbols   # [symbol name]
        self.ranges = ranges     # [(min, max or None)] per symbol
        self.plain = plain       # ((input, dim, symbol index), ...)
        # ((input, dim, AffineExpr, (symbol index per position), (positions used)), ...)
        self.derived = derived

    @classmethod
    def of(cls, func_op):
        """The guard of func.func `func_op`'s arguments (their torch.bind_symbolic_shape
        uses), or None when none of them has a symbolic dim."""
        from ...ir.affine import AffineSymbolExpr
        if not func_op.regions or not func_op.regions[0].blocks:
            return None
        symbols, ranges, index = [], [], {}
        plain, derived = [], []
        for i, arg in enumerate(func_op.regions[0].blocks[0].args):
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
                                       None if hi >= _UNBOUNDED else hi))
                    positions.append(index[name])
                amap = op.properties["shape_expressions"].value
                shape = getattr(arg.type, "sizes", None) or ()
                for dim, e in enumerate(amap.results):
                    used = _symbols_of(e)
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
        return cls(symbols, ranges, tuple(plain), tuple(derived))

    def __call__(self, values, names) -> None:
        from ...runtime import InputError
        shapes = [getattr(v, "shape", None) for v in values]

        def what(i, d):
            return f"input #{i} ('{names[i]}') dim {d}"

        known = [None] * len(self.symbols)
        source = [None] * len(self.symbols)
        for i, d, s in self.plain:
            n = int(shapes[i][d])
            if known[s] is None:
                known[s], source[s] = n, (i, d)
            elif known[s] != n:
                raise InputError(f"{what(i, d)} is {n}, but {what(*source[s])} is "
                                 f"{known[s]}: both are the size {self.symbols[s]}")
        for i, d, e, positions, used in self.derived:
            unknown = {positions[p] for p in used if known[positions[p]] is None}
            if len(unknown) == 1:
                s = unknown.pop()
                value = _solve(e, positions, s, known, int(shapes[i][d]))
                if value is None:
                    raise InputError(f"{what(i, d)} is {int(shapes[i][d])}, which is no "
                                     f"size of the form {self._text(e, positions)}")
                known[s], source[s] = value, (i, d)
        for s, (lo, hi) in enumerate(self.ranges):
            n = known[s]
            if n is None or (lo <= n and (hi is None or n <= hi)):
                continue
            allowed = f"at least {lo}" if hi is None else f"in [{lo}, {hi}]"
            i, d = source[s]
            derived_from = "" if any(p == (i, d, s) for p in self.plain) else \
                f" (from {self.symbols[s]} = {n})"
            raise InputError(f"{what(i, d)} gives the size {self.symbols[s]} = {n}"
                             f"{derived_from}, but the program was exported for "
                             f"{self.symbols[s]} {allowed}")
        for i, d, e, positions, used in self.derived:
            if any(known[positions[p]] is None for p in used):
                continue
            want = e.eval((), [0 if p is None or known[p] is None else known[p]
                               for p in positions])
            n = int(shapes[i][d])
            if n != want and not used:
                raise InputError(f"{what(i, d)} is {n}, but the program was exported for "
                                 f"{want} there (a dim torch.export specialized)")
            if n != want:
                got = ", ".join(f"{self.symbols[positions[p]]} = {known[positions[p]]} "
                                f"from {what(*source[positions[p]])}"
                                for p in used)
                raise InputError(f"{what(i, d)} is {n}, but the program's shapes make it "
                                 f"{self._text(e, positions)} = {want} ({got})")

    def _text(self, e, positions) -> str:
        return _named(e, positions, self.symbols)


def _symbols_of(e) -> set:
    """The positions of the symbols expression `e` uses."""
    from ...ir.affine import SYMBOL
    return {x.position for x in e.walk() if x.kind == SYMBOL}


def _solve(e, positions, s, known, n):
    """The value of symbol `s` (the only unknown of `e`) that makes `e` equal `n`, when
    `e` is linear in it (`a * s + b`) and the value a whole non-negative number; else
    None."""
    def at(v):
        return e.eval((), [v if p == s else (known[p] if p is not None and
                                                known[p] is not None else 0)
                           for p in positions])
    b = at(0)
    a = at(1) - b
    if a == 0 or any(at(v) != a * v + b for v in (2, 3, 7)):
        return None   # not linear in s (a floordiv, a mod): not solvable here
    if (n - b) % a:
        return None
    v = (n - b) // a
    return v if v >= 0 else None


def _named(e, positions, symbols) -> str:
    """`e` printed with the symbols' own names (`2*s77 + 1` rather than `s0 * 2 + 1`)."""
    import re
    text = str(e)
    return re.sub(r"\bs(\d+)\b",
                  lambda m: symbols[positions[int(m.group(1))]]
                  if int(m.group(1)) < len(positions) and
                  positions[int(m.group(1))] is not None else m.group(0), text)
