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
The generated code holds the same checks on its own ([Note: symbolic sizes checked in
the generated code] in conversion/torch_to_linalg/symbols.py, whose analysis of the
bindings this guard reads): this guard comes first for its message, which gives the
sizes themselves.

[Note: Dim names]
torch.export names its symbols `s77`; the user named the `torch.export.Dim`s. When
Strata exports a module itself (`strata.compile(module, example_args=...,
dynamic_shapes=...)`) it knows where each Dim sits, and `name_dims` writes the Dim's
name on the symbol's torch.symbolic_int (`{strata.dim_name = "batch"}`; a derived
Dim `2 * batch` names its root's symbol), so that every message says "Dim 'batch'
(s77)". A program given as an ExportedProgram (or a .pt2) has no Dim names: its
messages keep the symbol and say which input dim it was read from.
"""
from __future__ import annotations

__all__ = ["ShapeGuard", "name_dims"]


class ShapeGuard:
    """The symbolic-size checks of a compiled program's inputs (see the module
    docstring): call it with the input values (anything with `.shape`) in signature
    order and their names."""

    __slots__ = ("sizes",)

    def __init__(self, sizes):
        self.sizes = sizes   # conversion/torch_to_linalg/symbols.py's SymbolicSizes

    @classmethod
    def of(cls, func_op):
        """The guard of func.func `func_op`'s arguments (their torch.bind_symbolic_shape
        uses), or None when none of them has a symbolic dim."""
        from ...conversion.torch_to_linalg.symbols import SymbolicSizes
        sizes = SymbolicSizes.of(func_op)
        return cls(sizes) if sizes is not None else None

    def __call__(self, values, names) -> None:
        from ...runtime import InputError
        z = self.sizes
        shapes = [getattr(v, "shape", None) for v in values]

        def what(i, d):
            return z.what(i, d, names)

        known = [None] * len(z.symbols)
        source = [None] * len(z.symbols)
        for i, d, s in z.plain:
            n = int(shapes[i][d])
            if known[s] is None:
                known[s], source[s] = n, (i, d)
            elif known[s] != n:
                raise InputError(f"{what(i, d)} is {n}, but {what(*source[s])} is "
                                 f"{known[s]}: both are the size {z.symbol(s)}")
        for i, d, e, positions, s in z.solve_plan():
            value = _solve(e, positions, s, known, int(shapes[i][d]))
            if value is None:
                raise InputError(f"{what(i, d)} is {int(shapes[i][d])}, which is no "
                                 f"size of the form {z.expr_text(e, positions)}")
            known[s], source[s] = value, (i, d)
        for s, (lo, hi) in enumerate(z.ranges):
            n = known[s]
            if n is None or (lo <= n and (hi is None or n <= hi)):
                continue
            i, d = source[s]
            derived_from = "" if any(p == (i, d, s) for p in z.plain) else \
                f" (from {z.symbols[s]} = {n})"
            raise InputError(f"{what(i, d)} gives the size {z.symbol(s)} = {n}"
                             f"{derived_from}, but the program was exported for "
                             f"{z.symbols[s]} {z.allowed(s)}")
        for i, d, e, positions, used in z.derived:
            if any(known[positions[p]] is None for p in used):
                continue
            want = e.eval((), [0 if p is None or known[p] is None else known[p]
                               for p in positions])
            n = int(shapes[i][d])
            if n != want and not used:
                raise InputError(f"{what(i, d)} is {n}, but the program was exported for "
                                 f"{want} there (a dim torch.export specialized)")
            if n != want:
                got = ", ".join(f"{z.symbol(positions[p])} = {known[positions[p]]} "
                                f"from {what(*source[positions[p]])}"
                                for p in used)
                raise InputError(f"{what(i, d)} is {n}, but the program's shapes make it "
                                 f"{z.expr_text(e, positions)} = {want} ({got})")


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


def name_dims(module, ep, model, example_args, example_kwargs, dynamic_shapes) -> None:
    """Write the user's Dim names on the symbols of `module` (imported from `ep`, which
    torch.export made of `model` with these example inputs and `dynamic_shapes`): see
    [Note: Dim names]. What cannot be matched (a structure torch's own mapping refuses,
    a dim torch specialized) keeps its symbol alone."""
    names = _symbol_dim_names(ep, model, example_args, example_kwargs, dynamic_shapes)
    if not names:
        return
    from ...conversion.torch_to_linalg.symbols import DIM_NAME_ATTR
    from ...ir import attributes as A
    for f in module.regions[0].blocks[0].ops if module.regions else ():
        if f.name != "func.func" or not f.regions or not f.regions[0].blocks:
            continue
        for op in f.regions[0].blocks[0].ops:
            if op.name == "torch.symbolic_int":
                name = names.get(op.properties["symbol_name"].value)
                if name is not None:
                    op.set_attr(DIM_NAME_ATTR, A.StringAttr(name))


def _symbol_dim_names(ep, model, args, kwargs, dynamic_shapes) -> dict:
    """{torch.export's symbol name: the user's Dim name} for the dims `dynamic_shapes`
    gives a Dim (a derived Dim names its root's symbol), matched with the program's user
    inputs through the example tensors themselves (torch.export flattens (args, kwargs)
    into its user inputs in pytree order)."""
    if not dynamic_shapes:
        return {}
    import torch
    from torch.export import dynamic_shapes as ds
    from torch.utils._pytree import tree_leaves
    args = args if isinstance(args, tuple) else tuple(args) if isinstance(args, list) \
        else (args,)
    kwargs = kwargs or {}
    try:
        combined = ds._combine_args(model, args, kwargs)
        if isinstance(dynamic_shapes, (tuple, list)):
            combined = type(dynamic_shapes)(combined.values())
        specs = []
        ds._tree_map_with_path(lambda path, t, spec: specs.append((t, spec)), combined,
                               dynamic_shapes, tree_name="inputs")
    except Exception:   # a structure torch's own mapping refuses: no names
        return {}
    position = {}
    for k, leaf in enumerate(tree_leaves((args, kwargs))):
        if isinstance(leaf, torch.Tensor):
            position.setdefault(id(leaf), k)
    from torch.export.graph_signature import InputKind
    user = [s.arg.name for s in ep.graph_signature.input_specs
            if s.kind == InputKind.USER_INPUT]
    nodes = {n.name: n for n in ep.graph.nodes if n.op == "placeholder"}
    names = {}
    for t, spec in specs:
        k = position.get(id(t)) if isinstance(t, torch.Tensor) else None
        if k is None or k >= len(user) or spec is None:
            continue
        val = nodes[user[k]].meta.get("val") if user[k] in nodes else None
        shape = getattr(val, "shape", None)
        if shape is None:
            continue
        items = spec.items() if isinstance(spec, dict) else enumerate(spec) \
            if isinstance(spec, (tuple, list)) else ()
        for d, dim in items:
            if not isinstance(dim, ds.Dim) or not isinstance(d, int) or d >= len(shape):
                continue
            expr = getattr(getattr(shape[d], "node", None), "expr", None)
            free = getattr(expr, "free_symbols", None)
            if not free or len(free) != 1:
                continue
            root = getattr(dim, "root", None)
            label = root.__name__ if isinstance(root, ds.Dim) else dim.__name__
            if root is None and not expr.is_Symbol:
                continue
            names.setdefault(str(next(iter(free))), label)
    return names
