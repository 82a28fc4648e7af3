"""What each op does to the buffers of its tensor operands: upstream's
BufferizableOpInterface, as data for the One-Shot analysis (analysis.py).

A model answers, for one tensor OpOperand of its op:

    reads(st, u)             does the op read the operand's buffer?
    writes(st, u)            does it write it (when bufferized in place)?
    aliasing_values(st, u)   which tensor results (or block arguments) share the buffer,
                             as [Alias(value, equivalent, definite)]

and, for a tensor value it defines: `aliasing_operands` (the inverse relation; block
arguments of region ops have none unless the model says so), `result_writes` (the value
is a *definition*: its contents are written by the op), `is_writable` and `allocates`.
`st` is the analysis state (queries like `st.is_value_read(v)` are allowed).

Ops without a model are *unknown*: they read and write every tensor operand, all their
tensor results may alias every operand, their values are not writable and the use-def
traversals stop at them (upstream's conservative treatment).

[Note: deviations from upstream]
- Function arguments are read-only unless marked `bufferization.writable = true`
  (upstream: writable unless `false`): a compiled model must not clobber its caller's
  inputs, and results are fresh buffers owned by the caller anyway, so read-only
  arguments never cost a copy that writable ones would save.
- func.call results never alias the call's operands (callees return fresh buffers).
- tensor.bitcast (no upstream model) bufferizes to a new buffer filled elementwise by
  arith.bitcast; ml_program globals (no upstream model in iree-opt) become memref
  globals.
"""
from __future__ import annotations

from ...ir import attributes as A

__all__ = ["Alias", "AliasOperand", "Model", "UNKNOWN", "model_of", "MODELS",
           "is_tensor", "constant_int"]


def is_tensor(t) -> bool:
    return type(t) is A.RankedTensorType or type(t) is A.UnrankedTensorType


class Alias:
    """A value sharing the buffer of an operand: `equivalent` (the very same buffer, not
    a part of it) and `definite` (always, not only on some paths)."""

    __slots__ = ("value", "equivalent", "definite")

    def __init__(self, value, equivalent=True, definite=True):
        self.value = value
        self.equivalent = equivalent
        self.definite = definite


class AliasOperand:
    __slots__ = ("operand", "equivalent", "definite")

    def __init__(self, operand, equivalent=True, definite=True):
        self.operand = operand
        self.equivalent = equivalent
        self.definite = definite


def constant_int(v):
    """The integer value of `v` when an arith.constant defines it, else None."""
    op = v.defining_op
    if op is None or op.name != "arith.constant":
        return None
    a = op.properties.get("value")
    return a.value if type(a) is A.IntegerAttr else None


class Model:
    """A bufferizable op whose tensor operands are read, not written, not aliased."""

    bufferizable = True
    # An op whose regions run repeatedly (loops) / are mutually exclusive (if, switch).
    repetitive = False
    exclusive_regions = False
    # Whether aliasing_values depends on the analysis' equivalence classes (loops).
    equivalence_dependent = False

    def reads(self, st, u) -> bool:
        return True

    def writes(self, st, u) -> bool:
        return False

    def aliasing_values(self, st, u) -> list:
        return []

    def must_inplace(self, st, u) -> bool:
        return False

    def is_writable(self, st, value) -> bool:
        return True

    def allocates(self, value) -> bool:
        return False

    def elementwise(self, st, op, operands) -> bool:
        return False

    def aliasing_operands(self, st, value) -> list:
        """The inverse of aliasing_values for an op result; none for block arguments."""
        op = value.defining_op
        if op is None:
            return []
        out = []
        for u in op._operands:
            if is_tensor(u.value.type):
                for a in st.aliasing_values(u):
                    if a.value is value:
                        out.append(AliasOperand(u, a.equivalent, a.definite))
        return out

    def result_writes(self, st, result) -> bool:
        """resultBufferizesToMemoryWrite: a result with no aliasing operand is written
        (a new value); one aliasing a written operand too; else one whose aliasing
        operands are written inside the op's regions."""
        aliases = st.aliasing_operands(result)
        if not aliases:
            return True
        if any(st.writes(a.operand) for a in aliases):
            return True
        owner = result.owner

        def written_inside(v):
            o = st.owner_op(v)
            return owner.is_ancestor(o) and st.value_writes(v)
        for a in aliases:
            if st.find_in_chain(a.operand, written_inside, always_include_leaves=False):
                return True
        return False


class Unknown(Model):
    bufferizable = False

    def writes(self, st, u):
        return True

    def aliasing_values(self, st, u):
        return [Alias(r, False, False) for r in u.owner.results if is_tensor(r.type)]

    def is_writable(self, st, value):
        return False


UNKNOWN = Unknown()


class _Allocation(Model):
    """A new buffer (tensor.empty, generate, from_elements, splat, pad, concat...)."""

    def allocates(self, value):
        return True


class _Empty(_Allocation):
    """tensor.empty / bufferization.alloc_tensor: a buffer with undefined contents (or a
    copy of alloc_tensor's `copy` operand)."""

    def result_writes(self, st, result):
        op = result.owner
        return op.name == "bufferization.alloc_tensor" and any(
            is_tensor(u.value.type) for u in op._operands)


class _ReadOnlyValue(Model):
    """arith.constant and loads of constant globals: a definition that must not be
    written."""

    def is_writable(self, st, value):
        return False


class _Equivalent(Model):
    """A view that neither reads nor writes: the result is the operand's buffer
    (tensor.cast, expand_shape, tensor-to-tensor unrealized casts)."""

    def reads(self, st, u):
        return False

    def aliasing_values(self, st, u):
        return [Alias(u.owner.results[0])]


class _CollapseShape(_Equivalent):
    # May copy (a collapse of a non-contiguous buffer): conservatively a read.
    def reads(self, st, u):
        return True


class _Reshape(Model):
    """tensor.reshape: the source is viewed (or copied), the shape operand read."""

    def reads(self, st, u):
        return u is u.owner._operands[1]

    def aliasing_values(self, st, u):
        if u is u.owner._operands[0]:
            return [Alias(u.owner.results[0])]
        return []


class _ExtractSlice(Model):
    def reads(self, st, u):
        return False

    def aliasing_values(self, st, u):
        return [Alias(u.owner.results[0], equivalent=False)]


class _MetadataOnly(Model):
    """tensor.dim, tensor.rank: read the shape, not the contents."""

    def reads(self, st, u):
        return False


class _Destination(Model):
    """A destination-style op: inits are read (unless `init_read` says no), written in
    place and equivalent to their tied results; inputs are read."""

    def is_init(self, u) -> bool:
        raise NotImplementedError

    def tied_result(self, u):
        raise NotImplementedError

    def reads(self, st, u):
        return True

    def writes(self, st, u):
        return self.is_init(u)

    def aliasing_values(self, st, u):
        if self.is_init(u):
            r = self.tied_result(u)
            return [Alias(r)] if r is not None else []
        return []


class _Insert(_Destination):
    """tensor.insert: the destination (operand 1) is read and written."""

    def is_init(self, u):
        return u is u.owner._operands[1]

    def tied_result(self, u):
        return u.owner.results[0]


def _static_list(op, name):
    a = op.properties.get(name)
    return list(a.value) if a is not None else []


class _InsertSlice(_Insert):
    """tensor.insert_slice: the destination is not read when the slice covers it all.
    A subset insertion (see analysis.non_conflicting_subsets)."""

    subset_insertion = True

    def reads(self, st, u):
        op = u.owner
        if u is op._operands[0]:
            return True
        return not full_overwrite(op)

    @staticmethod
    def source_operand(op):
        return op._operands[0]

    @staticmethod
    def dest_operand(op):
        return op._operands[1]

    @staticmethod
    def is_equivalent_subset(op, candidate, equivalent) -> bool:
        """Whether `candidate` is an extract_slice of (a value equivalent to) this op's
        destination at the same offsets, sizes and strides."""
        x = candidate.defining_op
        if x is None or x.name != "tensor.extract_slice":
            return False
        if not equivalent(x.operand(0), op.operand(1)):
            return False
        return same_slice(x, op)


def same_slice(a, b) -> bool:
    """Same static offsets/sizes/strides and the same dynamic values."""
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if _static_list(a, name) != _static_list(b, name):
            return False
    return a.offsets == b.offsets and a.sizes == b.sizes and a.strides == b.strides


def full_overwrite(op) -> bool:
    """An insert_slice whose slice is the whole destination (offsets 0, sizes the static
    destination shape, strides 1)."""
    if op.offsets or op.sizes or op.strides:
        return False
    shape = list(op.results[0].type.shape)
    return (all(o == 0 for o in _static_list(op, "static_offsets"))
            and _static_list(op, "static_sizes") == shape and A.DYNAMIC not in shape
            and all(s == 1 for s in _static_list(op, "static_strides")))


class _ReadsAll(_Allocation):
    """An op reading its tensor operands into a new buffer (pad, concat, bitcast)."""


class _Linalg(_Destination):
    """Structured linalg ops: an operand is read when the payload uses it."""

    def is_init(self, u):
        return u.index >= u.owner.num_dps_inputs()

    def tied_result(self, u):
        op = u.owner
        k = u.index - op.num_dps_inputs()
        return op.results[k] if k < len(op.results) else None

    def reads(self, st, u):
        op = u.owner
        regs = op.regions
        if not regs or not regs[0].blocks:
            return True
        args = regs[0].blocks[0].args
        i = u.index
        return i >= len(args) or args[i].first_use is not None

    def elementwise(self, st, op, operands):
        iters = op.iterator_types_list()
        if any(t != "parallel" for t in iters):
            return False
        maps = op.indexing_maps_list()
        for u in operands:
            if u.owner is op and is_tensor(u.value.type) and not maps[u.index].is_identity():
                return False
        return True


class _LinalgOther(_Destination):
    """linalg.softmax (operand 1 is the output, not read)."""

    def is_init(self, u):
        return u is u.owner._operands[1]

    def tied_result(self, u):
        return u.owner.results[0] if u.owner.results else None

    def reads(self, st, u):
        return not self.is_init(u)


class _Select(Model):
    """arith.select on tensors: with an i1 condition the result is one of the two
    buffers; with a tensor condition (elementwise) a new buffer."""

    @staticmethod
    def elementwise_condition(op) -> bool:
        return is_tensor(op._operands[0].value.type)

    def reads(self, st, u):
        return self.elementwise_condition(u.owner)

    def aliasing_values(self, st, u):
        if u.index == 0 or self.elementwise_condition(u.owner):
            return []
        return [Alias(u.owner.results[0], True, False)]

    def allocates(self, value):
        return self.elementwise_condition(value.owner)


def may_have_zero_iterations(op) -> bool:
    lb, ub = constant_int(op.operand(0)), constant_int(op.operand(1))
    return lb is None or ub is None or ub <= lb


class _For(Model):
    repetitive = True
    equivalence_dependent = True

    @staticmethod
    def _index(u):
        return u.index - 3

    def reads(self, st, u):
        op = u.owner
        if may_have_zero_iterations(op):
            return True
        return st.is_value_read(op.regions[0].blocks[0].args[1 + self._index(u)])

    def writes(self, st, u):
        return True

    def aliasing_values(self, st, u):
        op = u.owner
        i = self._index(u)
        r = op.results[i]
        eq = self.yield_equivalent(st, op, i)
        return [Alias(r, eq, eq)]

    @staticmethod
    def yield_equivalent(st, op, i) -> bool:
        body = op.regions[0].blocks[0]
        return st.are_equivalent(body.args[1 + i], body.last.operand(i))


class _While(Model):
    repetitive = True
    equivalence_dependent = True

    def writes(self, st, u):
        return True

    def aliasing_values(self, st, u):
        op = u.owner
        i = u.index
        if i >= len(op.results) or u.value.type is not op.results[i].type:
            return []
        eq = self.equivalent(st, op, i)
        return [Alias(op.results[i], eq, eq)]

    @staticmethod
    def equivalent(st, op, i) -> bool:
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        if i >= len(before.args) or before.args[i].type is not op.results[i].type:
            return False
        cond, yld = before.last, after.last
        return (st.are_equivalent(before.args[i], cond.operand(1 + i))
                and st.are_equivalent(after.args[i], yld.operand(i)))


class _If(Model):
    """scf.if / scf.index_switch: a result is one of the yielded values."""

    exclusive_regions = True

    def aliasing_operands(self, st, value):
        op = value.defining_op
        if op is None:
            return []
        i = value.index
        return [AliasOperand(r.blocks[0].last._operands[i], True, False)
                for r in op.regions if r.blocks]


class _ExecuteRegion(Model):
    def aliasing_operands(self, st, value):
        op = value.defining_op
        if op is None:
            return []
        yields = [b.last for b in op.regions[0].blocks
                  if b.last is not None and b.last.name == "scf.yield"]
        if len(yields) != 1:
            return []
        return [AliasOperand(yields[0]._operands[value.index])]


class _Yield(Model):
    def must_inplace(self, st, u):
        return True

    def aliasing_values(self, st, u):
        p = u.owner.parent_op
        if p is None:
            return []
        if p.name in ("scf.if", "scf.index_switch"):
            return [Alias(p.results[u.index], True, False)]
        if p.name == "scf.execute_region":
            return [Alias(p.results[u.index])]
        return []


class _Condition(Model):
    def must_inplace(self, st, u):
        return True


class _Return(Model):
    """func.return (function boundaries bufferized): returned buffers are read (copied
    when they are not fresh)."""


class _Call(Model):
    """func.call: operands are read; written only when the callee marks the argument
    `bufferization.writable = true`; results are fresh buffers. Without function
    boundaries bufferized, a call is an unknown op."""

    def writes(self, st, u):
        if not st.options.function_boundaries:
            return True
        return st.callee_arg_writable(u.owner, u.index)

    def aliasing_values(self, st, u):
        if not st.options.function_boundaries:
            return UNKNOWN.aliasing_values(st, u)
        return []

    def is_writable(self, st, value):
        return st.options.function_boundaries


class _FuncOp(Model):
    """func.func: its entry block arguments (see [Note: deviations from upstream])."""

    def is_writable(self, st, value):
        return st.func_arg_writable(value)


class _ToTensor(Model):
    def is_writable(self, st, value):
        return "writable" in value.owner._props


class _GlobalLoad(_Allocation):
    """ml_program.global_load of a mutable global: a private copy of its value."""


_LINALG_OTHER = ("linalg.softmax",)


def _linalg_model(name):
    from ...dialects.linalg import LINALG, StructuredOp
    cls = LINALG.ops.get(name)
    if cls is None:
        return None
    if issubclass(cls, StructuredOp):
        return _LINALG
    if name in _LINALG_OTHER:
        return _LINALG_OTHER_MODEL
    return None


_LINALG = _Linalg()
_LINALG_OTHER_MODEL = _LinalgOther()
_EMPTY = _Empty()
_EQUIV = _Equivalent()

MODELS = {
    "tensor.empty": _EMPTY, "bufferization.alloc_tensor": _EMPTY,
    "tensor.generate": _Allocation(), "tensor.from_elements": _Allocation(),
    "tensor.splat": _Allocation(), "tensor.pad": _ReadsAll(), "tensor.concat": _ReadsAll(),
    "tensor.bitcast": _ReadsAll(),
    "arith.constant": _ReadOnlyValue(), "ml_program.global_load_const": _ReadOnlyValue(),
    "ml_program.global_load": _GlobalLoad(), "ml_program.global_store": Model(),
    "tensor.extract": Model(), "tensor.insert": _Insert(),
    "tensor.insert_slice": _InsertSlice(), "tensor.extract_slice": _ExtractSlice(),
    "tensor.dim": _MetadataOnly(), "tensor.rank": _MetadataOnly(),
    "tensor.cast": _EQUIV, "tensor.expand_shape": _EQUIV,
    "tensor.collapse_shape": _CollapseShape(), "tensor.reshape": _Reshape(),
    "builtin.unrealized_conversion_cast": _EQUIV,
    "arith.select": _Select(),
    "scf.for": _For(), "scf.while": _While(), "scf.if": _If(),
    "scf.index_switch": _If(), "scf.execute_region": _ExecuteRegion(),
    "scf.yield": _Yield(), "scf.condition": _Condition(),
    "func.return": _Return(), "func.call": _Call(), "func.func": _FuncOp(),
    "bufferization.to_tensor": _ToTensor(),
}


def model_of(op) -> Model:
    """The model of `op` (UNKNOWN for ops bufferization does not handle)."""
    name = op.name
    m = MODELS.get(name)
    if m is not None:
        if name == "builtin.unrealized_conversion_cast" and not _tensor_to_tensor(op):
            return UNKNOWN
        return m
    if name.startswith("linalg."):
        m = _linalg_model(name)
        if m is not None:
            MODELS[name] = m
            return m
    return UNKNOWN


def _tensor_to_tensor(op) -> bool:
    return (len(op._operands) == 1 and len(op.results) == 1
            and is_tensor(op._operands[0].value.type) and is_tensor(op.results[0].type))
