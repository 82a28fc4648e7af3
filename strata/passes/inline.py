"""`inline`: inline calls to functions, as upstream's InlinerPass.

    func.func private @add1(%x: i32) -> i32 { ... }      // erased once inlined everywhere
    %r = func.call @add1(%a) : (i32) -> i32             // becomes @add1's body

[Note: the inliner's algorithm]
It follows upstream's (mlir/lib/Transforms/Utils/Inliner.cpp) so that the output is the
same op for op:
  * The call graph (passes/call_graph.py) is built once. Its strongly connected
    components are visited callees first. For each: run the optimization pipeline
    (`default-pipeline`, canonicalize by default; `op-pipelines` per callable op name) on
    each of its callables, then inline the calls inside them; repeat while something was
    inlined, at most `max-iterations` times.
  * A call is inlined unless it is a terminator, its callee's node has a call edge to
    itself or to the caller (direct recursion: the edges are those of the graph as
    built, never updated), the callee contains the call, the callee has several blocks
    and the caller's region may only have one, or the op-count ratio exceeds
    `inlining-threshold` percent. Calls that appear by inlining are tried too, in the
    same sweep, but never into a function already inlined along their chain (the
    inline history), which ends mutual recursion. The history stays on the calls left
    behind for the next iterations over the component (upstream since LLVM 24).
  * Legality: the call (`no_inline`) and callee say yes (`is_legal_to_inline_call`);
    every op of the body, nested ones included, belongs to a dialect with an inliner
    interface upstream (`_INLINABLE_DIALECTS`, or the op class's own
    `is_legal_to_inline(dest_region, would_be_cloned)`); unregistered ops never are.
  * The body is cloned, or moved when this is the last use of a private callee (which
    is then erased). A one-block body replaces the call's results by what its
    terminator returns; a multi-block body goes between the two halves of the caller's
    block split after the call, returns becoming `cf.br` to the second half, whose new
    arguments replace the results (the terminator's `handle_inlined_terminator`).
    Inlined ops get `callsite(callee_loc at call_loc)` locations (an existing call
    chain is extended at its caller end).
  * Private functions whose last use disappeared are erased at the end; so are dead
    private callables met on the way (upstream's CGUseList counts symbol uses).
"""
from __future__ import annotations

from ..ir import traits as T
from ..ir.attributes import SymbolRefAttr
from ..ir.core import Block, UnregisteredOp
from ..ir.location import CallSiteLoc, UnknownLoc
from .call_graph import (CHILD, CallGraph, SymbolTableCollection, callable_region,
                         is_call, is_callable, is_symbol, symbol_uses, visibility,
                         walk_symbol_tables)
from .pass_manager import Option, Pass

__all__ = ["Inline", "inline_call", "is_legal_to_inline_op"]

# Dialects whose ops upstream's inliner may move into another region (those registering
# a DialectInlinerInterface that accepts every op). An op class can decide for itself
# with `is_legal_to_inline(dest_region, would_be_cloned)`.
_INLINABLE_DIALECTS = frozenset({
    "affine", "arith", "bufferization", "cf", "complex", "func", "linalg", "llvm", "math",
    "memref", "ml_program", "scf", "tensor", "tosa", "ub", "vector"})


def is_legal_to_inline_op(op, dest, would_be_cloned: bool) -> bool:
    """Whether `op` (and everything nested in it) may be inlined into region `dest`."""
    if op.name == "builtin.unrealized_conversion_cast":
        ok = True  # inlinable, though the builtin dialect has no interface
    elif type(op) is UnregisteredOp:
        return False
    else:
        hook = getattr(op, "is_legal_to_inline", None)
        ok = hook(dest, would_be_cloned) if hook is not None else \
            op.dialect_name in _INLINABLE_DIALECTS
    if not ok:
        return False
    for r in op.regions:
        for b in r.blocks:
            for inner in b.ops:
                if not is_legal_to_inline_op(inner, dest, would_be_cloned):
                    return False
    return True


def _resolved(loc):
    return loc.resolve() if hasattr(loc, "resolve") else loc


def _remap_locations(blocks, call_loc, memo) -> None:
    """Every inlined op and block argument gets `callsite(its loc at call_loc)`."""
    call_loc = _resolved(call_loc)

    def remap(loc):
        return _stack_locations(_resolved(loc if loc is not None else UnknownLoc()),
                                call_loc, memo)

    def visit_block(b):
        for a in b.args:
            a.loc = remap(a.loc)
        for op in b.ops:
            op.loc = remap(op.loc)
            for r in op.regions:
                for nb in r.blocks:
                    visit_block(nb)
    for b in blocks:
        visit_block(b)


def _stack_locations(callee, caller, memo):
    """`callsite(a at b)` inlined at `c` is `callsite(a at callsite(b at c))`: the
    call chain grows at its outer end. `memo` maps (loc, caller) to the result, so that
    chains sharing a tail (all the ops inlined from one place) are rebuilt once."""
    chain = []
    loc = callee
    while True:
        result = memo.get((loc, caller))
        if result is not None:
            break
        if not isinstance(loc, CallSiteLoc):
            result = memo[(loc, caller)] = CallSiteLoc(loc, caller)
            break
        chain.append(loc)
        loc = _resolved(loc.caller)
    for c in reversed(chain):
        result = memo[(c, caller)] = CallSiteLoc(_resolved(c.callee), result)
    return result


def _clone_blocks(region, mapping) -> list:
    """Copies of `region`'s blocks; entry arguments already in `mapping` get none."""
    new_blocks = []
    for b in region.blocks:
        nb = Block()
        for a in b.args:
            if a not in mapping:
                mapping[a] = nb.add_argument(a.type, a.loc)
        mapping[b] = nb
        new_blocks.append(nb)
    for b, nb in zip(region.blocks, new_blocks):
        for op in b.ops:
            nb.append(op.clone(mapping))
    # Uses of values defined in a later block were cloned before their definitions.
    for nb in new_blocks:
        for op in nb.ops:
            _remap_operands(op, mapping)
    return new_blocks


def _remap_operands(op, mapping) -> None:
    for o in op.op_operands:
        nv = mapping.get(o.value)
        if nv is not None and nv is not o.value:
            o.set(nv)
    for r in op.regions:
        for b in r.blocks:
            for inner in b.ops:
                _remap_operands(inner, mapping)


def _split_after(op) -> Block:
    """Move the ops after `op` into a new block right after `op`'s block."""
    block = op.parent
    region = block.parent
    post = Block()
    region.insert_block(region.blocks.index(block) + 1, post)
    cur = op.next
    while cur is not None:
        nxt = cur.next
        cur.detach()
        post.append(cur)
        cur = nxt
    return post


def inline_call(call, callable_op, src, clone: bool = True, on_new_blocks=None,
                loc_memo=None) -> bool:
    """Inline region `src` of `callable_op` in place of `call` (upstream's inlineCall);
    the call itself is left for the caller to erase. Returns False, changing nothing,
    when it cannot. `loc_memo` (a dict) may be shared by many calls to save work."""
    if not src.blocks:
        return False
    entry = src.blocks[0]
    args = list(call.call_arg_operands())
    results = list(call.results)
    result_types = callable_op.callable_result_types()
    if len(args) != len(entry.args) or len(results) != len(result_types):
        return False
    # Upstream asks the dialect to materialize a cast for a type mismatch; func has none.
    if any(a.type is not b.type for a, b in zip(args, entry.args)) or \
            any(r.type is not t for r, t in zip(results, result_types)):
        return False
    legal = getattr(callable_op, "is_legal_to_inline_call", None)
    if legal is not None and not legal(call, clone):
        return False
    block = call.parent
    dest = block.parent if block is not None else None
    if dest is None:
        return False
    if callable_op.dialect_name not in _INLINABLE_DIALECTS:
        return False
    for b in src.blocks:
        for op in b.ops:
            if not is_legal_to_inline_op(op, dest, clone):
                return False
    single = len(src.blocks) == 1
    if single and not hasattr(src.blocks[0].last, "handle_inlined_terminator"):
        return False

    mapping = dict(zip(entry.args, args))
    post = _split_after(call)
    if clone:
        new_blocks = _clone_blocks(src, mapping)
    else:
        new_blocks = list(src.blocks)
        src.blocks = []
        for b in new_blocks:
            b.parent = None
    at = dest.blocks.index(post)
    for i, b in enumerate(new_blocks):
        dest.insert_block(at + i, b)
    if not isinstance(_resolved(call.loc), UnknownLoc):
        _remap_locations(new_blocks, call.loc, loc_memo if loc_memo is not None else {})
    if not clone:
        for b in new_blocks:
            for op in b.ops:
                _remap_operands(op, mapping)
    if on_new_blocks is not None:
        on_new_blocks(new_blocks)

    first = new_blocks[0]
    if single:
        term = first.last
        term.handle_inlined_terminator(results)
        term.erase()
        _move_ops_to_end(post, first)
        dest.blocks.remove(post)
        post.parent = None
    else:
        for r in results:
            r.replace_all_uses_with(post.add_argument(r.type, call.loc))
        for b in new_blocks:
            hook = getattr(b.last, "handle_inlined_terminator", None)
            if hook is not None:
                hook(post)
    _move_ops_to_end(first, block)
    dest.blocks.remove(first)
    first.parent = None
    return True


def _move_ops_to_end(src: Block, dst: Block) -> None:
    cur = src.first
    while cur is not None:
        nxt = cur.next
        cur.detach()
        dst.append(cur)
        cur = nxt


# ------------------------------------------------------------------------ use counts


class _UseList:
    """Symbol uses of the callables that may be erased once unused (CGUseList)."""

    def __init__(self, top, cg: CallGraph, symbols: SymbolTableCollection):
        self.cg = cg
        self.symbols = symbols
        self.discardable: dict = {}   # node -> number of uses
        self.inner: dict = {}         # user node -> {node: uses inside its body}
        self.top_level: dict = {}     # user node -> {node} referenced by the op itself
        always_live = {}

        def visit_table(table, all_visible):
            for op in table.regions[0].ops if table.regions[0].blocks else ():
                if is_callable(op):
                    node = cg.lookup(callable_region(op))
                    if node is not None:
                        # Upstream also asks canDiscardOnUseEmpty: private symbols.
                        if is_symbol(op) and visibility(op) == "private":
                            self.discardable.setdefault(node, 0)
                        continue
                self._walk_refs(op, always_live, lambda n, user: None)
        walk_symbol_tables(top, top.parent is None, visit_table)
        for node in always_live.values():
            if node is not None:
                self.discardable.pop(node, None)
        for node in cg.nodes.values():
            self.recompute(node)

    def _walk_refs(self, op, resolved: dict, fn) -> None:
        uses = symbol_uses(op)
        table_op = op.parent_op
        for user, ref in uses or ():
            if ref not in resolved:
                target = self.symbols.lookup_nearest(table_op, ref) \
                    if table_op is not None else None
                node = None
                if target is not None and is_callable(target):
                    node = self.cg.lookup(callable_region(target))
                resolved[ref] = node
            node = resolved[ref]
            if node is not None:
                fn(node, user)

    def _decrement(self, node) -> None:
        for n, count in self.inner.get(node, {}).items():
            self.discardable[n] = self.discardable.get(n, 0) - count
        for n in self.top_level.get(node, ()):
            self.discardable[n] = self.discardable.get(n, 0) - 1

    def recompute(self, node) -> None:
        op = node.op
        self._decrement(node)
        inner, top = {}, set()
        self.inner[node] = inner
        self.top_level[node] = top

        def count(ref_node, user):
            if ref_node not in self.discardable:
                return
            if user is not op:
                inner[ref_node] = inner.get(ref_node, 0) + 1
            elif ref_node in top:
                return
            else:
                top.add(ref_node)
            self.discardable[ref_node] += 1
        self._walk_refs(op, {}, count)

    def drop_call_uses(self, user_node, call) -> None:
        refs = self.inner.setdefault(user_node, {})

        def drop(node, _user):
            if node not in refs:
                return
            refs[node] -= 1
            self.discardable[node] = self.discardable.get(node, 0) - 1
        self._walk_refs(call, {}, drop)

    def merge_after_inlining(self, callee, caller) -> None:
        dst = self.inner.setdefault(caller, {})
        for n, count in self.inner.get(callee, {}).items():
            dst[n] = dst.get(n, 0) + count
            self.discardable[n] = self.discardable.get(n, 0) + count

    def erase_node(self, node) -> None:
        for kind, child in node.edges:
            if kind == CHILD:
                self.erase_node(child)
        self._decrement(node)
        self.inner.pop(node, None)
        self.top_level.pop(node, None)
        self.discardable.pop(node, None)

    def has_one_use_and_discardable(self, node) -> bool:
        return self.discardable.get(node) == 1

    def is_dead(self, node) -> bool:
        op = node.op
        if not is_symbol(op):
            from ..rewrite.folding import would_be_trivially_dead
            return all(not r.has_uses() for r in op.results) and would_be_trivially_dead(op)
        return self.discardable.get(node, -1) == 0


# ------------------------------------------------------------------------ the pass


class Inline(Pass):
    name = "inline"
    summary = "Inline function calls"
    display_name = "InlinerPass"
    default_pipeline = Option(str, "canonicalize",
                              "The optimizer pipeline used for callables that do not have a "
                              "dedicated optimizer pipeline in opPipelineList")
    op_pipelines = Option(str, [], "Callable operation specific optimizer pipelines (in the "
                          "form of `dialect.op(pipeline)`)", is_list=True)
    max_iterations = Option(int, 4, "Maximum number of iterations when inlining within an "
                            "SCC")
    inlining_threshold = Option(int, 4294967295, "If the ratio between the number of the "
                                "operations in the callee and the number of the operations "
                                "in the caller exceeds this value (in percentage), then the "
                                "callee is not inlined even if it is legal to inline it")

    def initialize(self):
        from .pipeline import PipelineError, parse_pipeline
        self._pipelines = {}
        for text in self.op_pipelines:
            try:
                pm = parse_pipeline(text)
            except PipelineError as e:
                self.signal_failure(f"invalid op pipeline '{text}': {e}")
            if pm.anchor is None:
                self.signal_failure(f"op pipeline '{text}' must be nested on an op name")
            self._pipelines[pm.anchor] = pm
        self._default_text = self.default_pipeline
        if self._default_text:
            try:  # fail early on a bad pipeline, as upstream's option parser does
                parse_pipeline(self._default_text, root_anchor="func.func")
            except PipelineError as e:
                self.signal_failure(f"invalid default-pipeline '{self._default_text}': {e}")
        for pm in self._pipelines.values():
            self._initialize_passes(pm)

    def _initialize_passes(self, pm):
        for p in pm.all_passes():
            p.instrumentation = self.instrumentation
            p.initialize()

    def _pipeline_for(self, op_name):
        from .pipeline import parse_pipeline
        if not hasattr(self, "_pipelines"):
            self.initialize()
        pm = self._pipelines.get(op_name)
        if pm is None and self._default_text:
            pm = self._pipelines[op_name] = parse_pipeline(self._default_text,
                                                           root_anchor=op_name)
            self._initialize_passes(pm)
        return pm

    def run(self, op):
        if T.SymbolTable not in type(op).traits:
            self.signal_failure(f"'{op.name}' op  was scheduled to run under the inliner, "
                                "but does not define a symbol table", op)
        self._symbols = SymbolTableCollection()
        cg = self._cg = CallGraph(op, self._symbols)
        uses = self._uses = _UseList(op, cg, self._symbols)
        self._dead_callables = []
        self._history, self._op_history = [], {}
        self._loc_memo = {}
        for scc in cg.sccs():
            scc = [n for n in scc]
            iteration = 0
            while True:
                self._optimize_scc(scc)
                if not self._inline_calls_in_scc(scc, uses):
                    break
                iteration += 1
                if iteration >= self.max_iterations:
                    break
        for node in self._dead_callables:
            node.op.erase()

    # -- optimization between inlining rounds

    def _optimize_scc(self, scc):
        nodes = []
        for node in scc:
            if node.is_external or node.has_children:
                continue
            if T.IsolatedFromAbove not in type(node.op).traits:
                continue
            nodes.append(node)
        for node in nodes:
            pm = self._pipeline_for(node.op.name)
            if pm is None:
                continue
            self.run_pipeline(pm, node.op)
        for node in nodes:
            self._uses.recompute(node)

    # -- inlining

    def _collect_calls(self, blocks, source, out, traverse_nested):
        """Calls in `blocks` (with the node they are in), in upstream's order: a stack of
        blocks, so the last block first, nested regions after their block."""
        cg = self._cg
        work = [(b, source) for b in blocks]
        while work:
            block, src = work.pop()
            for op in block.ops:
                if is_call(op):
                    callee = op.call_callee()
                    if isinstance(callee, SymbolRefAttr) and callee.nested:
                        continue  # nested references are not inlined
                    target = cg.resolve(op)
                    if not target.is_external:
                        out.append([op, src, target])
                    continue
                for r in op.regions:
                    nested = cg.lookup(r)
                    if traverse_nested or nested is None:
                        node = nested if nested is not None else src
                        work.extend((b, node) for b in r.blocks)

    def _should_inline(self, call, source, target) -> bool:
        if T.Terminator in type(call).traits:
            return False
        for kind, n in target.edges:
            if n is target or n is source:
                return False
        region = target.region
        # The callee contains the call: inlining would recurse.
        r = call.parent_region
        while r is not None:
            if r is region:
                return False
            p = r.parent
            r = p.parent_region if p is not None else None
        if len(region.blocks) > 1:
            parent = call.parent_op
            same = parent is not None and parent.name == region.parent.name
            single_block = parent is None or type(parent) is UnregisteredOp or any(
                t is T.SingleBlock or isinstance(t, T.SingleBlockImplicitTerminator)
                for t in type(parent).traits)
            if not same and single_block:
                return False
        return self._profitable(source, target)

    def _profitable(self, source, target) -> bool:
        if self.inlining_threshold == 4294967295:
            return True

        def count(region):
            return sum(1 for b in region.blocks for op in b.ops for _ in op.walk())
        caller_ops = count(source.region)
        if caller_ops == 0:
            return True
        return count(target.region) * 100 // caller_ops <= self.inlining_threshold

    def _inline_calls_in_scc(self, scc, uses) -> bool:
        calls = []
        dead = []
        for node in scc:
            if node.is_external:
                continue
            if uses.is_dead(node):
                dead.append(node)
            else:
                self._collect_calls(node.region.blocks, node, calls, False)
        # The inline history outlives this sweep: a call left by an earlier iteration
        # keeps the chain of functions it was inlined from (upstream since LLVM 24).
        history = self._history           # (node inlined, parent history index)
        op_history = self._op_history     # call op -> history index
        call_history = [op_history.get(c[0]) for c in calls]
        inlined_any = False
        i = 0
        while i < len(calls):
            call, source, target = calls[i]
            hid = call_history[i]
            i += 1
            if source in dead:
                continue
            if _in_history(target, hid, history) or not self._should_inline(call, source,
                                                                              target):
                continue
            prev = len(calls)
            in_place = uses.has_one_use_and_discardable(target)

            def on_new_blocks(blocks, call=call):
                # The closest node around the inlined blocks collects their calls.
                region = blocks[0].parent
                node = self._cg.lookup(region)
                while node is None:
                    region = region.parent.parent_region
                    node = self._cg.lookup(region)
                self._collect_calls(blocks, node, calls, True)
            if not inline_call(call, target.op, target.region, clone=not in_place,
                               on_new_blocks=on_new_blocks, loc_memo=self._loc_memo):
                continue
            inlined_any = True
            history.append((target, hid))
            new_id = len(history) - 1
            call_history.extend([new_id] * (len(calls) - prev))
            for c in calls[prev:]:
                op_history[c[0]] = new_id
            uses.drop_call_uses(source, call)
            uses.merge_after_inlining(target, source)
            call.erase()
            if in_place:
                uses.erase_node(target)
                if target not in dead:
                    dead.append(target)
        for node in dead:
            if node in scc:
                scc.remove(node)
            if node not in self._dead_callables:
                self._dead_callables.append(node)
        return inlined_any


def _in_history(node, hid, history) -> bool:
    while hid is not None:
        n, parent = history[hid]
        if n is node:
            return True
        hid = parent
    return False
