"""The IR verifier: declared invariants, traits, terminators and SSA dominance.

[Note: dominance in one walk]
Instead of building dominance info and querying it per operand, the verifier keeps the
set of values that are visible at the current point of the walk: a value enters the set
when it is defined and leaves when the walk leaves its block's dominator subtree.
Entering an op's regions keeps the set (outer values dominate nested uses); an op that
is IsolatedFromAbove starts a fresh set. Graph regions make all of their block's values
visible up front. This checks every use in O(1), so verification is linear.

[Note: symbol lookups while verifying]
The IR does not change while it is verified, so symbol lookups inside (an op's own
`verify_` resolving the global or function it names) read each symbol table from a dict
built once (frozen_symbol_lookups) instead of scanning the table's ops per lookup: the
scan made verification quadratic in the number of globals (DenseNet-121's 858
`ml_program.global_load`s over ~1000 globals: a sixth of its tensor-level verify).
"""
from __future__ import annotations

from .context import OP_ATTRIBUTE_VERIFIERS
from .core import Block, Operation, UnregisteredOp
from .diagnostics import ERROR, Diagnostic, DiagnosticError
from . import traits as T
from .gc_pause import gc_paused
from .symbol_table import frozen_symbol_lookups

__all__ = ["verify", "VerifyError"]

VerifyError = DiagnosticError


def _fail(op: Operation, message: str, notes=()):
    d = Diagnostic(ERROR, op.loc, f"'{op.name}' op {message}")
    d.op = op  # mlir-opt notes "see current operation: ..." (see strata-opt)
    for msg, loc in notes:
        d.attach_note(msg, loc)
    raise DiagnosticError(d)


def verify(op: Operation) -> None:
    """Verify `op` and all nested ops; raise DiagnosticError on the first error."""
    with gc_paused(), frozen_symbol_lookups():  # [Note: symbol lookups while verifying]
        if op._attrs:
            _verify_dialect_attrs(op)
        _verify_op(op, set(), 0)


def _verify_dialect_attrs(op: Operation) -> None:
    """Discardable attributes named `dialect.x` are checked by their dialect (upstream's
    verifyOperationAttribute), before the op itself, as upstream."""
    hooks = OP_ATTRIBUTE_VERIFIERS
    if not hooks:
        return
    for name, attr in op._attrs.items():
        dot = name.find(".")
        if dot > 0:
            hook = hooks.get(name[:dot])
            if hook is not None:
                hook(op, name, attr)


def _is_graph(op: Operation) -> bool:
    return T.GraphRegion in type(op).traits


def _plan(cls):
    """The checks an op class needs: traits whose `verify` does something, and whether
    the class has its own `verify_` hook. Cached per class: no per-op no-op calls."""
    plan = cls.__dict__.get("_verify_plan")
    if plan is None:
        checks = tuple(t.verify for t in cls.traits if type(t).verify is not T.Trait.verify)
        custom = getattr(cls, "verify_", None)
        from .ods import Op
        if custom is Op.verify_:
            custom = None
        plan = (checks, custom)
        cls._verify_plan = plan
    return plan


_FAST: dict = {}  # op class -> its fast verifier (see _fast_verifier), or False


def _fast_verifier(cls):
    """A function `ok(op)` that returns True when an op of `cls` without regions or
    successors is valid, and False when the general path must decide (and word the
    error); False when the class has no such shortcut.

    [Note: verdicts per type signature]
    An op class's declared operand and result constraints and its types-only traits
    (Trait.types_only) depend on nothing but the op's operand and result types, which
    are uniqued: the verdict is remembered per signature (the tuple of those types), so
    a valid op of a known signature costs one set lookup. Properties, the other traits
    and the op's own `verify_` hook are checked on every op, as before."""
    from .ods import SINGLE, Op
    if not (isinstance(cls, type) and issubclass(cls, Op)) or cls is UnregisteredOp or \
            cls.verify_invariants is not Op.verify_invariants:
        return False
    if not (cls._fixed_operands and cls._fixed_results) or cls._region_defs or \
            cls._successor_defs or T.AttrSizedOperandSegments in cls.traits or \
            T.AttrSizedResultSegments in cls.traits:
        return False
    checks, custom = _plan(cls)
    by_types = tuple(c for c in checks if getattr(c.__self__, "types_only", False))
    others = tuple(c for c in checks if not getattr(c.__self__, "types_only", False))
    if custom is not None:
        others += (custom,)
    props = tuple((d.name, d.constraint.check, d.kind == SINGLE) for d in cls._prop_defs)
    required = any(req for _, _, req in props)
    n, m = len(cls._operand_defs), len(cls._result_defs)
    items = [f"o[{i}].value.type" for i in range(n)] + [f"r[{i}].type" for i in range(m)]

    def learn(op):
        if op.verify_invariants() is not None:
            return False
        for c in by_types:
            if c(op):
                return False
        return True

    src = f"""
def fast(op):
    o = op._operands
    r = op.results
    if len(o) != {n} or len(r) != {m} or op.regions or op.successors:
        return False
    key = ({"".join(x + ", " for x in items)})
    if key not in ok:
        if not learn(op):
            return False
        if len(ok) >= 4096:  # bounded: a module with ever new signatures just re-learns
            ok.clear()
        ok.add(key)
    p = op._props
    if p:
        for name, check, req in props:
            v = p.get(name)
            if v is None:
                if req:
                    return False
            elif not check(v):
                return False
    elif required:
        return False
    for c in others:
        if c(op):
            return False
    return True
"""
    env = {"ok": set(), "props": props, "required": required, "others": others,
           "learn": learn}
    exec(src, env)
    fast = env["fast"]
    return fast


def _verify_op(op: Operation, live: set, depth: int) -> None:
    cls = type(op)
    if cls is not UnregisteredOp:
        err = op.verify_invariants()
        if err is None:
            checks, custom = _plan(cls)
            for check in checks:
                err = check(op)
                if err:
                    break
            if err is None and custom is not None:
                err = custom(op)
        if err:
            _fail(op, err)
    if op.successors:
        b = op.parent
        if b is not None and b.last is not op:
            _successor_position_error(op)
        region = b.parent if b is not None else None
        for s in op.successors:
            if region is not None and s.parent is not region:
                _fail(op, "reference to block defined in another region")
    if not op.regions:
        return
    if depth > 2000:
        _fail(op, "nesting too deep to verify")
    if T.IsolatedFromAbove in cls.traits:
        live = set()
    graph = _is_graph(op)
    # Graph regions still need a terminator unless the op says NoTerminator (builtin.module
    # does; ml_program.subgraph does not), as upstream.
    # An unregistered op's blocks need no terminator either: nothing is known of it
    # (upstream's mayBeValidWithoutTerminator).
    no_term = T.NoTerminator in cls.traits or cls is UnregisteredOp
    for idx, region in enumerate(op.regions):
        blocks = region.blocks
        if not blocks:
            continue
        if len(blocks) > 1 and blocks[0].predecessors:
            # Upstream words this one without the "'op' op" prefix or a region number.
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, "entry block of region may not have predecessors"))
        # Nothing is known of an unregistered op's single-block regions: uses may come
        # before definitions there, as upstream (its regions of several blocks keep
        # SSA dominance).
        if len(blocks) == 1:
            _verify_block(op, blocks[0], live, graph or cls is UnregisteredOp, no_term,
                          depth)
        else:
            _verify_cfg_region(op, region, live, graph, no_term, depth)
    # Region traits (e.g. SingleBlockImplicitTerminator's terminator kind), then the
    # op's own region hook: upstream checks these after the nested ops.
    for t in cls.traits:
        vr = getattr(t, "verify_regions", None)
        if vr is not None:
            err = vr(op)
            if err:
                _fail(op, err)
    verify_regions = getattr(op, "verify_regions_", None)
    if verify_regions is not None:
        err = verify_regions()
        if err:
            _fail(op, err)


def _successor_position_error(op):
    d = Diagnostic(ERROR, op.loc,
                   "operation with block successors must terminate its parent block")
    d.op = op
    raise DiagnosticError(d)


def _check_block_entry(block):
    """Upstream checks this when it enters a block, before verifying any of its ops."""
    last = block.last
    op = block.first
    while op is not last:
        if op.successors:
            _successor_position_error(op)
        op = op.next


def _verify_block(parent, block, live, graph, no_term, depth):
    """Verify one block; values it defines are removed from `live` afterwards."""
    _check_block_entry(block)
    added = list(block.args)
    live.update(block.args)
    try:
        if graph:
            for op in block.ops:
                for r in op.results:
                    live.add(r)
                    added.append(r)
        _verify_ops(block, live, None if graph else added, depth)
        _check_terminator(parent, block, no_term)
        return added
    finally:
        live.difference_update(added)


def _verify_ops(block, live, added, depth):
    """Verify the ops of `block` in order: their operands must be in `live`; unless
    `added` is None (a graph region: all were made visible up front), each op's results
    join `live` and `added` after it."""
    fast = _FAST
    op = block.first
    while op is not None:
        for o in op._operands:
            if o.value not in live:
                _dominance_error(op, o)
        if op._attrs:
            _verify_dialect_attrs(op)
        cls = type(op)
        ok = fast.get(cls)
        if ok is None:
            ok = fast[cls] = _fast_verifier(cls)
        if not (ok and ok(op)):
            _verify_op(op, live, depth + 1)
        if added is not None:
            res = op.results
            if res:
                live.update(res)
                added.extend(res)
        op = op.next


def _check_terminator(parent, block, no_term):
    if no_term:
        return
    last = block.last
    if last is None:  # reported at the region's op, without the "'op' op" prefix
        raise DiagnosticError(Diagnostic(ERROR, parent.loc,
                                         "empty block: expect at least a terminator"))
    cls = type(last)
    if cls is not UnregisteredOp and T.Terminator not in cls.traits:
        from ..syntax.printer import print_op_in_context  # lazy: the layer above
        d = Diagnostic(ERROR, last.loc, "block with no terminator, has " +
                       print_op_in_context(last))
        d.op = last
        raise DiagnosticError(d)


def _verify_cfg_region(parent, region, live, graph, no_term, depth):
    blocks = region.blocks
    if graph:
        _verify_graph_multi(parent, region, live, no_term, depth)
        return
    children, reachable = _dominator_tree(blocks)
    # Walk the dominator tree: a block sees the values of its dominators.
    stack = [(blocks[0], False)]
    added_by = {}
    while stack:
        b, leaving = stack.pop()
        if leaving:
            live.difference_update(added_by.pop(b))
            continue
        _check_block_entry(b)
        added = []
        live.update(b.args)
        added.extend(b.args)
        _verify_ops(b, live, added, depth)
        _check_terminator(parent, b, no_term)
        added_by[b] = added
        stack.append((b, True))
        for c in reversed(children.get(b, ())):
            stack.append((c, False))
    # Unreachable blocks are verified without dominance across blocks: every value
    # defined in the region is taken as visible, as MLIR treats them.
    unreachable = [b for b in blocks if b not in reachable]
    if unreachable:
        all_vals = []
        for b in blocks:
            all_vals.extend(b.args)
            for op in b.ops:
                all_vals.extend(op.results)
        live.update(all_vals)
        try:
            for b in unreachable:
                _check_block_entry(b)
                for op in b.ops:
                    _verify_op(op, live, depth + 1)
                _check_terminator(parent, b, no_term)
        finally:
            live.difference_update(all_vals)


def _verify_graph_multi(parent, region, live, no_term, depth):
    vals = []
    for b in region.blocks:
        vals.extend(b.args)
        for op in b.ops:
            vals.extend(op.results)
    live.update(vals)
    try:
        for b in region.blocks:
            for op in b.ops:
                for o in op._operands:
                    if o.value not in live:
                        _dominance_error(op, o)
                _verify_op(op, live, depth + 1)
    finally:
        live.difference_update(vals)


def _dominator_tree(blocks):
    """Immediate-dominator tree (Cooper, Harvey, Kennedy) of a CFG region."""
    entry = blocks[0]
    order, seen = [], {entry}
    stack = [(entry, iter(entry.successors))]
    while stack:  # iterative DFS for reverse post-order
        b, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            order.append(b)
        elif nxt not in seen and nxt.parent is entry.parent:
            seen.add(nxt)
            stack.append((nxt, iter(nxt.successors)))
    rpo = order[::-1]
    num = {b: i for i, b in enumerate(rpo)}
    preds = {b: [] for b in rpo}
    for b in rpo:
        for s in b.successors:
            if s in preds:
                preds[s].append(b)
    idom = {entry: entry}
    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new = None
            for p in preds[b]:
                if p not in idom:
                    continue
                if new is None:
                    new = p
                else:
                    a, c = p, new
                    while a is not c:
                        while num[a] > num[c]:
                            a = idom[a]
                        while num[c] > num[a]:
                            c = idom[c]
                    new = a
            if new is not None and idom.get(b) is not new:
                idom[b] = new
                changed = True
    children = {}
    for b in rpo[1:]:
        children.setdefault(idom[b], []).append(b)
    return children, seen


def _dominance_error(op, operand):
    v = operand.value
    # A value from outside an isolated op's region is a different error than order.
    iso = _enclosing_isolated(op)
    if iso is not None and not _defined_inside(v, iso):
        d = Diagnostic(ERROR, op.loc, f"'{op.name}' op using value defined outside the region")
        d.op = op
        d.attach_note("required by region isolation constraints", iso.loc)
        raise DiagnosticError(d)
    d = Diagnostic(ERROR, op.loc, f"operand #{operand.index} does not dominate this use")
    d.op = op
    owner = getattr(v, "owner", None)
    if isinstance(owner, Operation):
        rel = " in the same block" if op.parent is owner.parent else \
            _relation(op.parent_region, owner.parent_region)
        rel = " (op" + (" is" if rel.startswith(" neither") else "") + rel + ")"
        d.attach_note("operand defined here" + rel, owner.loc)
    elif isinstance(owner, Block) and owner.parent is not None:
        # Upstream places this note on the op that holds the argument's block.
        where = owner.parent.parent.loc if owner.parent.parent is not None else None
        index = owner.parent.blocks.index(owner)
        d.attach_note(f"operand defined as a block argument (block #{index}"
                      + _relation(op.parent_region, owner.parent) + ")", where)
    raise DiagnosticError(d)


def _relation(use_region, def_region):
    """Where a definition's region lies from a use's, in upstream's words."""
    if use_region is def_region:
        return " in the same region"
    if _properly_contains(def_region, use_region):
        return " in a parent region"
    if _properly_contains(use_region, def_region):
        return " in a child region"
    return " neither in a parent nor in a child region"


def _properly_contains(outer, inner):
    r = inner
    while r is not None:
        p = r.parent  # the op holding region r
        r = p.parent_region if p is not None else None
        if r is outer:
            return True
    return False


def _enclosing_isolated(op):
    p = op.parent_op
    while p is not None:
        if T.IsolatedFromAbove in type(p).traits:
            return p
        p = p.parent_op
    return None


def _defined_inside(v, iso_op):
    b = v.parent_block
    op = b.parent_op if b is not None else None
    while op is not None:
        if op is iso_op:
            return True
        op = op.parent_op
    return False
