"""One-Shot Bufferize: the rewrite from tensors to memrefs, after the analysis.

[Note: how ops are rewritten]
Ops are visited in program order (regions in place, inside their ops). Every tensor
value gets a buffer (`Bufferizer.buf`: tensor value -> memref value); an op's rule
(rules.py, or the scf/func rules here) creates its memref form before it, records the
buffers of its tensor results and replaces its other results; the tensor ops are erased
at the end. A tensor operand the analysis put out of place gets a new buffer first
(`operand_buffer`: memref.alloc, and memref.copy unless the old contents are never
read), except for view ops (extract_slice, casts, reshapes), whose *result* is copied.
Region ops move their regions into their memref form, so block arguments are retyped
in place (the analysis keeps working on the same Value objects).

[Note: buffer ownership]
Deallocation (deallocation.py) relies on a convention about who owns a buffer, which
this rewrite establishes:
  * a memref.alloc is owned by the block it is in; so is a result of func.call (callees
    return fresh buffers) and a result of a region op in OWNED mode;
  * a function returns buffers its caller owns: a returned buffer that is not a
    transferable owned buffer of the function's entry block (an argument, a global, a
    view, one returned twice) is copied into a new one first;
  * each tensor result of scf.if / scf.index_switch / scf.execute_region, and each
    tensor value carried by scf.for / scf.while, is either in ALIAS mode (every yield
    passes a buffer that lives outside the region: loops in place on their init, an if
    choosing between outer buffers) or in OWNED mode: every region yields a buffer it
    owns and gives up (copying one it does not own), the op's result is owned by the
    parent block, a loop's init is a buffer the loop may free (a copy), and a loop body
    owns its iteration's block argument (and frees it unless it yields it).
The deallocation pass reads the mode back from the IR (what each terminator passes).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.builder import Builder
from ...ir.core import BlockArgument, OpResult
from .analysis import Analysis, AnalysisOptions, BufferizationError
from .models import constant_int, is_tensor

__all__ = ["Bufferizer", "BufferizeOptions", "run_one_shot_bufferize", "memref_type_for"]

ALIAS, OWNED = "alias", "owned"


class BufferizeOptions(AnalysisOptions):
    __slots__ = ("buffer_alignment", "test_analysis_only", "identity_layout")

    def __init__(self, buffer_alignment=64, test_analysis_only=False, identity_layout=True,
                 **kw):
        super().__init__(**kw)
        self.buffer_alignment = buffer_alignment
        self.test_analysis_only = test_analysis_only
        self.identity_layout = identity_layout


def memref_type_for(t, layout=None):
    """The identity-layout memref type of tensor type `t`."""
    if type(t) is A.UnrankedTensorType:
        return A.UnrankedMemRefType(t.element_type)
    return A.MemRefType(t.shape, t.element_type, layout)


def fully_dynamic_type(t):
    """The memref type of `t` with a fully dynamic strided layout."""
    n = len(t.shape)
    return A.MemRefType(t.shape, t.element_type,
                        A.StridedLayoutAttr([A.DYNAMIC] * n, A.DYNAMIC))


def _memref():
    from ...dialects import memref
    return memref


class Bufferizer:
    """Rewrites the tensor ops under a module into memref ops (see the notes above)."""

    def __init__(self, module, analysis: Analysis, options: BufferizeOptions):
        self.module = module
        self.st = analysis
        self.options = options
        self.buf: dict = {}           # tensor value -> memref value
        self.dead: list = []          # tensor ops to erase, in visiting order
        self.dead_set: set = set()
        self.roots: dict = {}         # memref value -> tuple of root buffers it may alias
        self.owner_block: dict = {}   # owned root buffer -> the block that owns it
        self.consumed: set = set()    # owned roots given away (returned, yielded)
        self.retyped: dict = {}       # block argument retyped to a memref -> tensor type
        self._globals = None
        self.M = _memref()
        # What the rewrite needs from the analysis, computed before the IR changes:
        # out-of-place operand -> (the op only creates an alias, the copy can be left
        # uninitialized); loop op -> ALIAS/OWNED per carried value.
        self.plan: dict = {}
        self.modes: dict = {}
        self._plan()

    def _plan(self):
        from .scf_rules import loop_modes
        st = self.st
        for op in self.module.walk():
            for u in op._operands:
                if is_tensor(u.value.type) and u not in st.inplace:
                    self.plan[u] = (st.alias_only(u), st.can_omit_copy(u))
            if op.name in ("scf.for", "scf.while"):
                self.modes[op] = loop_modes(st, op)

    # ---------------------------------------------------------------- entry

    def run(self):
        body = self.module.regions[0].blocks[0] if self.module.regions and \
            self.module.regions[0].blocks else None
        if body is None:
            return
        from .rules import convert_ml_program_globals
        for op in list(body.ops):
            if op.name == "func.func":
                self.bufferize_function(op)
            elif op.regions:
                for r in op.regions:
                    for b in r.blocks:
                        self.bufferize_block(b)
        convert_ml_program_globals(self, body)
        self.erase_dead()
        self.fold_unused_allocs()

    def fold_unused_allocs(self):
        """Erase the allocations nothing reads (a tensor.empty whose user bufferized out
        of place gets a buffer of its own): memref.dim of them becomes the size."""
        for buf in list(self.owner_block):
            op = buf.defining_op
            if op is None or op.name != "memref.alloc" or op.parent is None:
                continue
            dims = []
            for u in buf.uses:
                if u.owner.name != "memref.dim" or u.index != 0:
                    break
                dims.append(u.owner)
            else:
                for d in dims:
                    i = constant_int(d.operand(1))
                    if i is None:
                        break
                    shape = buf.type.shape
                    if shape[i] == A.DYNAMIC:
                        k = sum(1 for x in shape[:i] if x == A.DYNAMIC)
                        d.results[0].replace_all_uses_with(op.operand(k))
                    else:
                        from .rules import _arith
                        c = _arith("arith.constant").create(
                            [], [A.index], {"value": A.IntegerAttr(shape[i], A.index)},
                            None, (), 0, d.loc)
                        d.parent.insert_before(d, c)
                        d.results[0].replace_all_uses_with(c.results[0])
                    idx = d.operand(1)
                    d.erase()
                    if idx.first_use is None:
                        idx.defining_op.erase()
                if buf.first_use is None:
                    op.erase()

    # ---------------------------------------------------------------- buffers

    def ttype(self, v):
        """The tensor type of `v` (before a block argument was retyped)."""
        return self.retyped.get(v, v.type)

    def was_tensor(self, v) -> bool:
        return v in self.retyped or is_tensor(v.type)

    def retype(self, arg, t):
        """Give tensor block argument `arg` its memref type `t`."""
        self.retyped[arg] = arg.type
        arg.type = t

    def buffer(self, v):
        """The buffer of tensor value `v` (a memref value passes through)."""
        b = self.buf.get(v)
        if b is not None:
            return b
        t = v.type
        if isinstance(t, (A.MemRefType, A.UnrankedMemRefType)):
            return v
        owner = self.st.owner_op(v)
        if owner is not None and not self.st.model(owner).bufferizable and \
                self.options.allow_unknown_ops:
            return self.to_buffer(v)
        if type(v) is BlockArgument and owner is not None and owner.name == "func.func" \
                and not self.options.function_boundaries:
            return self.to_buffer(v)  # a tensor argument of an unconverted signature
        raise BufferizationError.at(owner if owner is not None else self.module,
                                    "op was not bufferized", bare=True)

    def set_buffer(self, v, b, roots=None):
        self.buf[v] = b
        if roots is not None:
            self.roots[b] = roots

    def roots_of(self, b):
        r = self.roots.get(b)
        if r is None:
            r = self.roots[b] = (b,)
        return r

    def view(self, source, result):
        """Record that memref `result` is a view of `source`."""
        self.roots[result] = self.roots_of(source)
        return result

    def own(self, b, block):
        """Make `b` an owned root of `block`."""
        self.roots[b] = (b,)
        self.owner_block[b] = block
        return b

    def transferable(self, b, block) -> bool:
        return self.owner_block.get(b) is block and b not in self.consumed

    # ---------------------------------------------------------------- builders

    def index(self, b: Builder, i: int):
        from ...dialects.arith import ConstantOp
        return b.insert(ConstantOp.create([], [A.index], {"value": A.IntegerAttr(i, A.index)},
                                          None, (), 0, b.loc)).results[0]

    def dim(self, b: Builder, buffer, i: int):
        return b.insert(self.M.DimOp.create([buffer, self.index(b, i)], [A.index], None,
                                            None, (), 0, b.loc)).results[0]

    def dynamic_sizes(self, b, buffer, shape):
        return [self.dim(b, buffer, i) for i, d in enumerate(shape) if d == A.DYNAMIC]

    def alloc(self, b: Builder, t, dyn_sizes=()):
        """memref.alloc of memref type `t` (a tensor type is converted), owned by the
        block it is created in."""
        if is_tensor(t):
            t = memref_type_for(t)
        dyn_sizes = list(dyn_sizes)
        props = {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(dyn_sizes), 0])}
        if self.options.buffer_alignment:
            props["alignment"] = A.IntegerAttr(self.options.buffer_alignment, A.i64)
        op = b.insert(self.M.AllocOp.create(dyn_sizes, [t], props, None, (), 0, b.loc))
        return self.own(op.results[0], b.ip.block)

    def alloc_like(self, b, buffer, tensor_type=None):
        """A new identity-layout buffer with the shape of `buffer` (static dims from
        `tensor_type` where given)."""
        bt = buffer.type
        shape = tensor_type.shape if tensor_type is not None else bt.shape
        t = A.MemRefType(shape, bt.element_type)
        return self.alloc(b, t, self.dynamic_sizes(b, buffer, shape))

    def copy(self, b, src, dst):
        b.insert(self.M.CopyOp.create([src, dst], [], None, None, (), 0, b.loc))

    def clone(self, b, buffer, tensor_type=None):
        """A copy of `buffer` in a new identity-layout buffer owned by the current
        block."""
        new = self.alloc_like(b, buffer, tensor_type)
        self.copy(b, buffer, new)
        return new

    def cast(self, b, buffer, t):
        if buffer.type is t:
            return buffer
        r = b.insert(self.M.CastOp.create([buffer], [t], None, None, (), 0, b.loc)).results[0]
        return self.view(buffer, r)

    def to_buffer(self, v):
        """bufferization.to_buffer of a tensor made by an op bufferization does not know
        (allow-unknown-ops)."""
        op = self.st.owner_op(v)
        if type(v) is OpResult:
            b = Builder.after(op)
        else:
            b = Builder.at_start(v.owner, op.loc if op is not None else None)
        t = fully_dynamic_type(v.type) if type(v.type) is A.RankedTensorType else \
            memref_type_for(v.type)
        r = b.insert(_bufferization_op("bufferization.to_buffer", [v], [t], b.loc)).results[0]
        self.buf[v] = r
        self.roots[r] = (r,)
        return r

    def to_tensor(self, b, buffer, tensor_type):
        return b.insert(_bufferization_op("bufferization.to_tensor", [buffer], [tensor_type],
                                          b.loc, {"restrict": A.UnitAttr()})).results[0]

    # ---------------------------------------------------------------- operands

    def operand_buffer(self, b, u):
        """The buffer an op uses for tensor operand `u`: its value's buffer when in
        place, else a new buffer (a copy unless the contents are never read)."""
        buf = self.buffer(u.value)
        p = self.plan.get(u)
        if p is None:
            return buf
        if p[0]:
            return buf  # a view op: its rule copies the result instead (view_result)
        new = self.alloc_like(b, buf, self.ttype(u.value))
        if not p[1]:
            self.copy(b, buf, new)
        return new

    def view_result(self, b, u, source, view):
        """The buffer of a view op's result: the view, or (operand out of place) a copy
        of it in a new buffer."""
        self.view(source, view)
        p = self.plan.get(u)
        if p is None:
            return view
        new = self.alloc_like(b, view)
        if not p[1]:
            self.copy(b, view, new)
        return new

    # ---------------------------------------------------------------- ops

    def replace(self, op, values):
        """Record the replacement of `op`'s results (buffers for tensor results) and
        mark it dead."""
        for r, v in zip(op.results, values):
            if is_tensor(r.type):
                self.buf[r] = v
            elif v is not r:
                r.replace_all_uses_with(v)
        self.kill(op)

    def kill(self, op):
        self.dead.append(op)
        self.dead_set.add(op)

    def bufferize_block(self, block, skip_terminator=False):
        from .rules import RULES, linalg_rule
        op = block.first
        last = block.last if skip_terminator else None
        while op is not None:
            nxt = op.next
            if op is last:
                break
            rule = RULES.get(op.name)
            if rule is None and op.name.startswith("linalg."):
                rule = linalg_rule(op)
            tensors = self.has_tensors(op)
            if rule is not None and tensors:
                rule(self, op)
            elif tensors:
                self.unknown_op(op)
            else:
                for r in op.regions:
                    for blk in r.blocks:
                        self.bufferize_block(blk)
            op = nxt

    def has_tensors(self, op) -> bool:
        retyped = self.retyped
        for u in op._operands:
            v = u.value
            if is_tensor(v.type) or v in retyped:
                return True
        for r in op.results:
            if is_tensor(r.type):
                return True
        return False

    def unknown_op(self, op):
        if not self.options.allow_unknown_ops:
            raise BufferizationError.at(op, "op was not bufferized", bare=True)
        b = Builder.before(op)
        for u in op._operands:
            if is_tensor(u.value.type) and type(u.value.type) is A.RankedTensorType:
                buf = self.buffer(u.value)
                if u.value in self.buf or buf is not u.value:
                    u.set(self.to_tensor(b, buf, u.value.type))
        for r in op.regions:
            for blk in r.blocks:
                self.bufferize_block(blk)

    # ---------------------------------------------------------------- functions

    def bufferize_function(self, f):
        ft = f.properties["function_type"].value
        if not self.options.function_boundaries:
            if f.regions[0].blocks:
                self._bufferize_body_without_boundaries(f)
            return
        inputs = [self.arg_type(t) if is_tensor(t) else t for t in ft.inputs]
        results = [memref_type_for(t) if is_tensor(t) else t for t in ft.results]
        if f.regions[0].blocks:
            entry = f.regions[0].blocks[0]
            for a in entry.args:
                if is_tensor(a.type):
                    self.retype(a, self.arg_type(a.type))
                    self.roots[a] = (a,)
            self.bufferize_block(entry, skip_terminator=True)
            ret = entry.last
            if ret is not None and ret.name == "func.return":
                self.return_owned(ret, entry)
        f.properties["function_type"] = A.TypeAttr(A.FunctionType(inputs, results))
        _drop_bufferization_arg_attrs(f)

    def arg_type(self, t):
        """The memref type of a tensor function argument: identity layout, or fully
        dynamic (function-boundary-type-conversion other than identity-layout-map)."""
        if self.options.identity_layout or type(t) is not A.RankedTensorType:
            return memref_type_for(t)
        return fully_dynamic_type(t)

    def return_owned(self, ret, block):
        """Point func.return at buffers its caller owns (see [Note: buffer ownership])."""
        b = Builder.before(ret)
        for u in ret._operands:
            if not self.was_tensor(u.value):
                continue
            buf = self.buffer(u.value)
            want = memref_type_for(self.ttype(u.value))
            if self.transferable(buf, block) and buf.type is want:
                self.consumed.add(buf)
            else:
                buf = self.clone(b, buf, self.ttype(u.value))
                self.consumed.add(buf)
            u.set(buf)

    def _bufferize_body_without_boundaries(self, f):
        """bufferize-function-boundaries=false: the signature keeps its tensors; tensor
        arguments are read through bufferization.to_buffer, returned buffers go back
        through bufferization.to_tensor."""
        entry = f.regions[0].blocks[0]
        self.bufferize_block(entry, skip_terminator=True)
        ret = entry.last
        if ret is None or ret.name != "func.return":
            return
        b = Builder.before(ret)
        for u in ret._operands:
            if self.was_tensor(u.value):
                buf = self.buffer(u.value)
                if self.owner_block.get(buf) is entry:
                    self.consumed.add(buf)
                u.set(self.to_tensor(b, buf, u.value.type))

    # ---------------------------------------------------------------- erasure

    def erase_dead(self):
        dead = self.dead_set
        for op in self.dead:
            for r in op.results:
                for u in r.uses:
                    o = u.owner
                    while o is not None and o not in dead:
                        o = o.parent_op
                    if o is None:
                        raise BufferizationError.at(
                            u.owner, f"uses a tensor of '{op.name}', which was bufferized "
                                     "(op was not bufferized)", bare=True)
        for op in reversed(self.dead):
            op._drop_references()
        for op in self.dead:
            if op.parent is not None:
                op.detach()
        self.dead = []
        self.dead_set = set()




def _drop_bufferization_arg_attrs(f):
    """Upstream drops `bufferization.writable` (and the like) once arguments are
    buffers."""
    attrs = f._props.get("arg_attrs")
    if attrs is None:
        return
    dicts = []
    for d in attrs.value:
        kept = {k: v for k, v in d.value.items() if not k.startswith("bufferization.")}
        dicts.append(A.DictionaryAttr(kept))
    if all(not d.value for d in dicts):
        del f.properties["arg_attrs"]
    else:
        f.properties["arg_attrs"] = A.ArrayAttr(dicts)


def _bufferization_op(name, operands, result_types, loc, props=None):
    from ...dialects import all_dialects
    for d in all_dialects():
        if d.name == "bufferization":
            cls = d.ops.get(name)
            if cls is not None:
                return cls.create(operands, result_types, props, None, (), 0, loc)
    from ...ir.core import Operation
    return Operation.create(operands, result_types, props, None, (), 0, loc, name=name)


def run_one_shot_bufferize(module, options: BufferizeOptions | None = None) -> Analysis:
    """Analyze and bufferize `module` in place; returns the analysis (with
    `test_analysis_only` the IR is only annotated)."""
    options = options or BufferizeOptions()
    st = Analysis(module, options)
    st.run()  # (with copy_before_write: every write out of place, no conflict search)
    if options.test_analysis_only:
        st.annotate()
        return st
    Bufferizer(module, st, options).run()
    return st
