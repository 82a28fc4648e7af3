"""`linalg-fuse-elementwise-ops`: producer-consumer fusion of `linalg.generic` ops on
tensors, with upstream's clean-up patterns, in one greedy rewrite (top-down, as
upstream's LinalgElementwiseOpFusionPass).

    %0 = linalg.generic {... ["parallel", "parallel"]} ins(%a, %b) outs(%e) { addf }
    %1 = linalg.generic {... ["parallel", "reduction"]} ins(%0) outs(%acc) { exp; addf }
  becomes
    %1 = linalg.generic {... ["parallel", "reduction"]} ins(%a, %b) outs(%acc)
           { addf; exp; addf }

The patterns, in upstream's order (each rooted on linalg.generic):

  FuseElementwiseOps        an input produced by an all-parallel generic op whose result
                            map is a permutation (and that has no other use) is fused:
                            the producer's inputs join the consumer's, their maps
                            composed into the consumer's loops (see [Note: fused maps]);
  FoldFillWithGeneric       an input produced by linalg.fill reads the fill value;
  FoldScalarOrSplatConstant a splat or scalar constant input becomes an arith.constant
                            in the payload;
  RemoveOutsDependency      an init the payload does not read becomes a tensor.empty;
  DeduplicateAndRemoveDead  unused inputs, repeated (value, map) inputs, dead results
                            and results computed twice are dropped;
  RemoveUnusedCycle         `%x = op %out; yield %x` of a dead result reads nothing;
  (reshape_fusion.py)       expand_shape / collapse_shape next to a structured op folded
                            into it by expanding its loops;
  EraseIdentityGeneric      a generic op that only forwards inputs is its inputs;
  (reshape_fusion.py)       reshape folds and compositions.

[Note: fused maps]
The consumer reads the producer result through map C (consumer loops -> tensor index);
the producer writes it through the permutation R (producer loops -> tensor index). A
producer operand read through map M is read by the fused op through M o R^-1 o C, and
producer loop d is consumer loop expression (R^-1 o C)(d): the producer's linalg.index
ops become linalg.index ops of the fused op (or constants). Upstream uses affine.apply
there; Strata has no affine dialect, so a producer with linalg.index whose loops map to
other expressions is not fused.

[Note: linear-time fusion]
Upstream clones both payloads into a new block per fusion, so fusing a chain of n ops
costs O(n^2). Here the payload blocks move instead: the larger of the two blocks becomes
the fused op's block (its argument objects reused), the other's ops are spliced in
before or after, and only the ops whose operands change are reported to the driver.
The result is the same IR. A producer that has other uses keeps its payload and a copy
is fused (only possible with a custom control function).
"""
from __future__ import annotations

from ...dialects.arith import ConstantOp
from ...dialects.linalg import FillOp, GenericOp, IndexOp, YieldOp
from ...dialects.linalg.structured import concat_maps, inverse_permutation
from ...dialects.tensor import CastOp, DimOp, EmptyOp
from ...ir import attributes as A
from ...ir.affine import CONSTANT, DIM, AffineMapAttr
from ...ir.builder import Builder, InsertionPoint
from ...ir.core import Block, BlockArgument, OpResult, Region
from ...ir.dense import DenseElementsAttr
from ...ir.location import FusedLoc
from ...passes.pass_manager import Option, Pass
from ...rewrite.folding import constant_value
from ...rewrite.pattern import RewritePattern

__all__ = ["LinalgElementwiseOpFusion", "elementwise_fusion_patterns", "fusion_pass_patterns",
           "are_elementwise_ops_fusable", "fuse_elementwise_ops", "default_control",
           "erase_unused_operands_and_results_patterns"]

GENERIC = "linalg.generic"
_PARALLEL = "parallel"


# ====================================================================== helpers


def _maps(op) -> list:
    a = op._props["indexing_maps"]
    maps = _MAPS.get(a)
    if maps is None:
        maps = _MAPS[a] = [m.value for m in a.value]
    return maps


# Memo tables of pure functions of uniqued maps (affine maps and their attributes are
# uniqued, so identity is equality): fusing many ops builds the same maps again and again.
_MAPS: dict = {}        # indexing_maps ArrayAttr -> list of AffineMap
_MAP_ATTRS: dict = {}   # tuple of AffineMap -> indexing_maps ArrayAttr
_LOOPS_OK: dict = {}    # tuple of AffineMap -> inverse of their concatenation (or None)
_INVERSE: dict = {}     # AffineMap -> inverse permutation (or None)
_COMPOSED: dict = {}    # (map, inverse result map, consumer map) -> producer map in fused op


def _map_attr(maps):
    key = tuple(maps)
    a = _MAP_ATTRS.get(key)
    if a is None:
        a = _MAP_ATTRS[key] = A.ArrayAttr([AffineMapAttr(m) for m in maps])
    return a


def _shapes_to_loops(maps):
    """inversePermutation(concatAffineMaps(maps)), memoized (None: not invertible)."""
    key = tuple(maps)
    try:
        return _LOOPS_OK[key]
    except KeyError:
        inv = _LOOPS_OK[key] = inverse_permutation(concat_maps(maps))
        return inv


def _loops_ok(maps) -> bool:
    """Whether the loop bounds follow from `maps` (inversePermutation of their
    concatenation exists; the empty concatenation is its own inverse)."""
    return _shapes_to_loops(maps) is not None


def _inverse(m):
    try:
        return _INVERSE[m]
    except KeyError:
        inv = _INVERSE[m] = inverse_permutation(m)
        return inv


def _pure_tensor(op) -> bool:
    """hasPureTensorSemantics (faster): no memref operand, shaped operands ranked tensors."""
    for o in op._operands:
        t = type(o.value.type)
        if t is not A.RankedTensorType and issubclass(t, A.ShapedType):
            return False
    return True


def _iterators(op) -> list:
    return [a.value for a in op._props["iterator_types"].value]


def _is_tensor(t) -> bool:
    return type(t) is A.RankedTensorType


def _is_any_tensor(t) -> bool:
    return isinstance(t, (A.RankedTensorType, A.UnrankedTensorType))


def _cast_compatible(a, b) -> bool:
    """tensor.cast's areCastCompatible: same element type, shapes that may agree."""
    if not _is_any_tensor(a) or not _is_any_tensor(b) or a.element_type is not b.element_type:
        return False
    if type(a) is not A.RankedTensorType or type(b) is not A.RankedTensorType:
        return True
    return len(a.shape) == len(b.shape) and all(
        x == y or x == A.DYNAMIC or y == A.DYNAMIC for x, y in zip(a.shape, b.shape))


def _uses(v) -> int:
    n, u = 0, v.first_use
    while u is not None:
        n += 1
        u = u.next_use
    return n


def _op_uses(op) -> int:
    return sum(_uses(r) for r in op.results)


def _value_loc(v):
    return v.loc if isinstance(v, BlockArgument) else v.owner.loc


def _invertible(maps, num_loops) -> bool:
    """Whether the loop bounds still follow from `maps` (upstream's
    canOpOperandsBeDropped test): their concatenation is invertible; with no map left,
    only a loop-less op is fine."""
    if not maps:
        return num_loops == 0
    return _loops_ok(maps)


def _set_args(block, args) -> None:
    """Make `args` (argument objects, from any block) the arguments of `block`."""
    for i, a in enumerate(args):
        a.owner = block
        a.index = i
    block.args = list(args)


def _take_block(op) -> Block:
    """Detach the payload block of `op` (left with an empty region)."""
    region = op.regions[0]
    block = region.blocks[0]
    region.blocks = []
    block.parent = None
    return block


def _splice(src, dst, before) -> None:
    """Move every op of `src` into `dst` before op `before` (None: at the end)."""
    first, last = src.first, src.last
    if first is None:
        return
    op = first
    while op is not None:
        op.parent = dst
        op = op.next
    src.first = src.last = None
    if before is None:
        prev = dst.last
        dst.last = last
        last.next = None
    else:
        prev = before.prev
        last.next = before
        before.prev = last
    first.prev = prev
    if prev is None:
        dst.first = first
    else:
        prev.next = first


def _not_larger(a, b) -> bool:
    """Whether block `a` holds at most as many ops as `b` (in O(min) steps)."""
    x, y = a.first, b.first
    while x is not None and y is not None:
        x, y = x.next, y.next
    return x is None


def _new_generic(rewriter, before, inputs, outputs, maps, iterators_attr, result_types,
                 block, loc, attrs=None, extra_props=None):
    """A linalg.generic with `block` as payload, inserted before `before`; only the op
    itself is reported inserted (its payload ops were already in the IR)."""
    props = {"indexing_maps": _map_attr(maps),
             "iterator_types": iterators_attr,
             "operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(inputs), len(outputs)])}
    if extra_props:
        props.update(extra_props)
    op = GenericOp.create(list(inputs) + list(outputs), result_types, props, attrs or None,
                          (), 1, loc)
    op.regions[0].add_block(block)
    before.parent.insert_before(before, op)
    rewriter.listener.notify_op_inserted(op)
    return op


def pruned_attributes(op) -> dict:
    """getPrunedAttributeList: the discardable attributes, less the memoized maps."""
    from ...dialects.linalg.named_base import MEMO_ATTR
    return {k: v for k, v in op._attrs.items() if k != MEMO_ATTR}


def _insert(rewriter, op):
    """Insert `op` at the rewriter's insertion point, reported."""
    Builder.insert(rewriter, op)
    rewriter.listener.notify_op_inserted(op)
    return op


def _index_constant(value, loc):
    return ConstantOp.create([], [A.index], {"value": A.IntegerAttr(value, A.index)}, None,
                             (), 0, loc)


class _IndexOps:
    """The top-level linalg.index ops of payload blocks, found once per block: blocks
    move from op to op during the pass (see [Note: linear-time fusion]), and only
    fusion adds index ops to them."""

    __slots__ = ("known",)

    def __init__(self):
        self.known = {}

    def of(self, block) -> list:
        found = self.known.get(block)
        if found is None:
            found = [op for op in block.ops if type(op) is IndexOp]
        else:
            found = [op for op in found if op.parent is block]
        self.known[block] = found
        return found

    def set(self, block, ops) -> None:
        self.known[block] = ops


# ====================================================================== fusion


def default_control(consumer, operand_index) -> bool:
    """The pass's control function: fuse a producer that has no other use."""
    d = consumer._operands[operand_index].value
    return isinstance(d, OpResult) and _op_uses(d.owner) == 1


def _producer_map(m, inv_result_map, consumer_map):
    """A producer operand's map in the fused op's loops (see [Note: fused maps])."""
    key = (m, inv_result_map, consumer_map)
    r = _COMPOSED.get(key)
    if r is None:
        r = _COMPOSED[key] = m.compose(inv_result_map).compose(consumer_map)
    return r


def are_elementwise_ops_fusable(consumer, operand_index) -> bool:
    """upstream's areElementwiseOpsFusable: whether the producer of the consumer's
    operand can be fused into it (both linalg.generic, the producer all-parallel on
    tensors writing that result through a permutation, the operand an input whose map
    has one result per producer loop, and the fused op's loop bounds computable)."""
    v = consumer._operands[operand_index].value
    if type(consumer) is not GenericOp or not isinstance(v, OpResult):
        return False
    producer = v.owner
    if type(producer) is not GenericOp or not _pure_tensor(producer) or \
            not _is_tensor(v.type):
        return False
    p_iters = _iterators(producer)
    if any(t != _PARALLEL for t in p_iters):
        return False
    n_in = consumer.num_dps_inputs()
    if operand_index >= n_in:
        return False
    c_maps = _maps(consumer)
    c_map = c_maps[operand_index]
    if c_map.num_results != len(p_iters):
        return False
    p_maps = _maps(producer)
    result_map = p_maps[producer.num_dps_inputs() + v.index]
    if not result_map.is_permutation():
        return False
    c_iters = _iterators(consumer)
    if any(t != _PARALLEL for t in c_iters):
        covered = set()
        for o, m in zip(consumer._operands, c_maps):
            if o.value is not v:
                covered.update(r.position for r in m.results if r.kind == DIM)
        inv = _inverse(result_map)
        for m in p_maps[:producer.num_dps_inputs()]:
            covered.update(r.position for r in _producer_map(m, inv, c_map).results
                           if r.kind == DIM)
        if len(covered) != len(c_iters):
            return False
    return True


def _preserved_producer_results(producer, consumer, operand_index) -> list:
    """getPreservedProducerResults: the producer results the fused op must still
    compute (used elsewhere, read by the producer's payload, or needed for its loop
    bounds)."""
    ignored = {(consumer, operand_index)}
    preserved = []
    n_in = producer.num_dps_inputs()
    args = producer.body.args
    p_maps, c_maps = _maps(producer), _maps(consumer)
    for r in producer.results:
        key = (producer, n_in + r.index)
        ignored.add(key)
        maps = [m for i, m in enumerate(p_maps) if (producer, i) not in ignored] + \
            [m for i, m in enumerate(c_maps) if (consumer, i) not in ignored]
        if maps:
            droppable = _loops_ok(maps)
        else:
            droppable = producer.num_loops == 0 and consumer.num_loops == 0
        if args[n_in + r.index].first_use is not None or not droppable or \
                any(u.owner is not consumer for u in r.uses):
            preserved.append(r.index)
            ignored.discard(key)
    return preserved


def fuse_elementwise_ops(consumer, operand_index, rewriter, index_ops=None):
    """Fuse the producer of input `operand_index` of the generic op `consumer` into it
    (see are_elementwise_ops_fusable, which must hold): the fused op replaces the
    consumer and is returned; None, changing nothing, if the fused op's loop bounds
    would not be computable or its producer's linalg.index ops cannot be remapped."""
    v = consumer._operands[operand_index].value
    producer = v.owner
    c_in, p_in = consumer.num_dps_inputs(), producer.num_dps_inputs()
    c_vals = consumer.operands
    p_vals = producer.operands
    c_maps, p_maps = _maps(consumer), _maps(producer)
    c_map = c_maps[operand_index]
    inv = _inverse(p_maps[p_in + v.index])
    preserved = _preserved_producer_results(producer, consumer, operand_index)

    inputs = c_vals[:operand_index] + p_vals[:p_in] + c_vals[operand_index + 1:c_in]
    maps = c_maps[:operand_index] + [_producer_map(m, inv, c_map) for m in p_maps[:p_in]] + \
        c_maps[operand_index + 1:c_in]
    outputs = [p_vals[p_in + k] for k in preserved] + c_vals[c_in:]
    maps += [_producer_map(p_maps[p_in + k], inv, c_map) for k in preserved]
    maps += c_maps[c_in:]
    result_types = [p_vals[p_in + k].type for k in preserved] + \
        [t.type for t in c_vals[c_in:] if not isinstance(t.type, A.MemRefType)]
    if not _loops_ok(maps):
        return None

    index_ops = index_ops or _IndexOps()
    p_block = producer.body
    p_index = index_ops.of(p_block)
    loops = inv.compose(c_map)  # consumer loops -> producer loops
    for op in p_index:
        e = loops.results[op._props["dim"].value]
        if e.kind != DIM and e.kind != CONSTANT:
            return None

    # The payloads: the producer's moves if the consumer is its only user.
    if _op_uses(producer) == 1:
        p_block = _take_block(producer)
    else:
        tmp = Region()
        producer.regions[0].clone_into(tmp, {})
        p_block = tmp.blocks[0]
        tmp.blocks = []
        p_block.parent = None
        p_index = [op for op in p_block.ops if type(op) is IndexOp]
    c_block = _take_block(consumer)
    c_index = index_ops.of(c_block)
    p_args, c_args = p_block.args, c_block.args
    fused_arg = c_args[operand_index]
    p_yield, c_yield = p_block.last, c_block.last
    args = c_args[:operand_index] + p_args[:p_in] + c_args[operand_index + 1:c_in] + \
        [p_args[p_in + k] for k in preserved] + c_args[c_in:]
    for k, a in enumerate(p_args[p_in:]):
        if k not in preserved and a.first_use is not None:
            raise AssertionError("an init the producer's payload reads was dropped")
    if _not_larger(c_block, p_block):
        block = p_block
        _splice(c_block, p_block, None)
    else:
        block = c_block
        _splice(p_block, c_block, c_block.first)
    _set_args(block, args)

    # The producer's loop indices in the consumer's loops.
    index_values = {}
    new_index = []
    remap = []
    first = block.first
    for op in p_index:
        e = loops.results[op._props["dim"].value]
        key = (e.kind, e.position if e.kind == DIM else e.value)
        nv = index_values.get(key)
        if nv is None:
            if e.kind == DIM:
                new = IndexOp.create([], [A.index], {"dim": A.IntegerAttr(e.position, A.i64)},
                                     None, (), 0, producer.loc)
                new_index.append(new)
            else:
                new = _index_constant(e.value, producer.loc)
            nv = index_values[key] = new
        remap.append((op, nv))
    new_index.sort(key=lambda o: o._props["dim"].value)
    for op in new_index + [nv for nv in index_values.values() if type(nv) is ConstantOp]:
        block.insert_before(first, op) if first is not None else block.append(op)

    fused = _new_generic(rewriter, consumer, inputs, outputs, maps,
                         consumer._props["iterator_types"], result_types, block,
                         consumer.loc)
    for op in index_values.values():
        rewriter.listener.notify_op_inserted(op)
    index_ops.set(block, new_index + c_index)
    for op, nv in remap:
        rewriter.replace_op(op, nv.results)
    replacement = p_yield.operand(v.index)
    rewriter.replace_all_uses_with(fused_arg, replacement)
    values = [p_yield.operand(k) for k in preserved] + c_yield.operands
    rewriter.ip = InsertionPoint.at_end(block)
    _insert(rewriter, YieldOp.create(values, [], None, None, (), 0, consumer.loc))
    rewriter.erase_op(c_yield)
    rewriter.erase_op(p_yield)

    results = fused.results
    rewriter.replace_op(consumer, results[len(preserved):])
    if not producer.regions[0].blocks and _op_uses(producer) == 0:
        rewriter.erase_op(producer)
    return fused


class FuseElementwiseOps(RewritePattern):
    """Fuse the first fusable input producer (see fuse_elementwise_ops)."""

    root = GENERIC

    def __init__(self, control=default_control):
        self.control = control
        self.index_ops = _IndexOps()

    def match_and_rewrite(self, op, rewriter) -> bool:
        for i in range(op.num_dps_inputs()):
            if not are_elementwise_ops_fusable(op, i) or not self.control(op, i):
                continue
            return fuse_elementwise_ops(op, i, rewriter, self.index_ops) is not None
        return False


# ====================================================================== other patterns


class FoldFillWithGeneric(RewritePattern):
    """An input produced by linalg.fill: the payload reads the fill value."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _pure_tensor(op):
            return False
        args = op.body.args
        found = False
        for i in range(op.num_dps_inputs()):
            arg = args[i]
            if arg.first_use is None:
                continue
            fill = op._operands[i].value.defining_op
            if type(fill) is not FillOp or not fill.results:
                continue
            found = True
            value = fill.operand(0)
            et = fill.results[0].type.element_type
            if value.type is not et:
                from ...dialects.linalg import PayloadBuilder
                b = PayloadBuilder(rewriter.ip, fill.loc)
                value = b.cast(et, value)
                if value.defining_op is not None and value.defining_op.parent is not None:
                    rewriter.listener.notify_op_inserted(value.defining_op)
            rewriter.replace_all_uses_with(arg, value)
        return found


def _scalar_constant(v):
    """The scalar attribute of a splat (int or float elements) or scalar constant."""
    attr = constant_value(v)
    if type(attr) is DenseElementsAttr:
        et = attr.element_type
        if not attr.is_splat or not isinstance(et, (A.IntegerType, A.FloatType)):
            return None
        x = attr.splat_value
        return A.IntegerAttr(int(x), et) if isinstance(et, A.IntegerType) else \
            A.FloatAttr(float(x), et)
    if type(attr) in (A.IntegerAttr, A.FloatAttr):
        return attr
    return None


class FoldScalarOrSplatConstant(RewritePattern):
    """A splat or scalar constant input becomes an arith.constant read by the payload."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _pure_tensor(op):
            return False
        n_in = op.num_dps_inputs()
        vals = op.operands
        for i in range(n_in):
            d = vals[i]
            if not isinstance(d, OpResult):
                continue
            attr = _scalar_constant(d)
            if attr is None:
                continue
            maps = _maps(op)
            maps = maps[:i] + maps[i + 1:]
            if not _loops_ok(maps):
                return rewriter.notify_match_failure(
                    op, "fused op loop bound computation failed")
            const = _insert(rewriter, ConstantOp.create([], [attr.type], {"value": attr},
                                                        None, (), 0, d.owner.loc))
            inputs = vals[:i] + vals[i + 1:n_in]
            loc = FusedLoc([op.loc] + [_value_loc(x) for x in inputs])
            block = _take_block(op)
            arg = block.args[i]
            _set_args(block, block.args[:i] + block.args[i + 1:])
            new = _new_generic(rewriter, op, inputs, vals[n_in:], maps,
                               op._props["iterator_types"], [r.type for r in op.results],
                               block, loc)
            rewriter.replace_all_uses_with(arg, const.results[0])
            rewriter.replace_op(op, new.results)
            return True
        return False


class RemoveOutsDependency(RewritePattern):
    """An init the payload does not read, not already a tensor.empty, becomes one."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        n_in = op.num_dps_inputs()
        args = op.body.args
        changed = False
        for i in range(n_in, len(op._operands)):
            if args[i].first_use is not None:
                continue
            v = op._operands[i].value
            t = v.type
            if not _is_tensor(t) or type(v.defining_op) is EmptyOp:
                continue
            sizes = []
            for k, n in enumerate(t.shape):
                if n == A.DYNAMIC:
                    c = _insert(rewriter, _index_constant(k, op.loc))
                    sizes.append(_insert(rewriter, DimOp.create(
                        [v, c.results[0]], [A.index], None, None, (), 0, op.loc)).results[0])
            empty = _insert(rewriter, EmptyOp.create(
                sizes, [A.RankedTensorType(t.shape, t.element_type)], None, None, (), 0,
                op.loc))
            op.set_operand(i, empty.results[0])
            changed = True
        if changed:
            rewriter.listener.notify_op_modified(op)
        return changed


def _result_dead(op, k, args, yield_op) -> bool:
    """isResultValueDead: result `k` is unused and its init is not read, or read only
    to be yielded back unchanged at the same position."""
    if op.results[k].first_use is not None:
        return False
    arg = args[op.num_dps_inputs() + k]
    u = arg.first_use
    if u is None:
        return True
    if u.next_use is not None:
        return False
    user = u.owner
    return user is yield_op and user.operand(k) is arg


class DeduplicateAndRemoveDeadOperandsAndResults(RewritePattern):
    """Drop unused inputs, inputs repeated with the same map, dead results and results
    computed twice into the same init, as long as the loop bounds still follow from
    the maps left."""

    root = GENERIC

    def __init__(self, remove_outputs=True):
        self.remove_outputs = remove_outputs

    def _nothing_to_do(self, op, args, n_in, maps) -> bool:
        """A quick sufficient test that no operand or result can go."""
        ops = op._operands
        seen = set()
        for i in range(n_in):
            key = (ops[i].value, maps[i])
            if args[i].first_use is None or key in seen:
                return False
            seen.add(key)
        if self.remove_outputs and _pure_tensor(op):
            seen = set()
            y = op.body.last
            for k, r in enumerate(op.results):
                i = n_in + k
                if r.first_use is None:
                    return False
                if args[i].first_use is None:
                    key = (ops[i].value, maps[i], y.operand(k))
                    if key in seen:
                        return False
                    seen.add(key)
        return True

    def match_and_rewrite(self, op, rewriter) -> bool:
        block = op.body
        args = block.args
        n_in = op.num_dps_inputs()
        maps = _maps(op)
        if self._nothing_to_do(op, args, n_in, maps):
            return False
        vals = op.operands
        n_loops = len(op._props["iterator_types"].value)
        dropped = set()

        def can_drop():
            return _invertible([m for j, m in enumerate(maps) if j not in dropped], n_loops)

        new_in, new_out, new_maps = [], [], []
        in_pos, out_pos = {}, {}
        seen = {}
        for i in range(n_in):
            if args[i].first_use is None:
                dropped.add(i)
                if can_drop():
                    continue
                dropped.discard(i)
            key = (vals[i], maps[i])
            j = seen.get(key)
            if j is not None:
                in_pos[i] = j
                dropped.add(i)
                continue
            in_pos[i] = seen[key] = len(new_in)
            new_in.append(vals[i])
            new_maps.append(maps[i])
        n_out = len(vals) - n_in
        if not _pure_tensor(op) or not self.remove_outputs:
            for k in range(n_out):
                out_pos[k] = k
                new_out.append(vals[n_in + k])
                new_maps.append(maps[n_in + k])
        else:
            y = block.last
            seen = {}
            for k in range(n_out):
                i = n_in + k
                key = (vals[i], maps[i], y.operand(k))
                if _result_dead(op, k, args, y):
                    dropped.add(i)
                    if can_drop():
                        continue
                    dropped.discard(i)
                if args[i].first_use is None:
                    j = seen.get(key)
                    if j is not None:
                        out_pos[k] = j
                        dropped.add(i)
                        continue
                out_pos[k] = seen[key] = len(new_out)
                new_out.append(vals[i])
                new_maps.append(maps[i])
        if len(new_in) + len(new_out) == len(vals):
            return False

        if len(new_out) != n_out:
            y = block.last
            kept = [None] * len(new_out)
            for k, x in enumerate(y.operands):
                j = out_pos.get(k)
                if j is not None:
                    kept[j] = x
            rewriter.ip = InsertionPoint.before_op(y)
            _insert(rewriter, YieldOp.create(kept, [], None, None, (), 0, y.loc))
            rewriter.erase_op(y)
        new_args = [None] * (len(new_in) + len(new_out))
        merged = []
        for pos, base, n in ((in_pos, 0, 0), (out_pos, len(new_in), n_in)):
            for k, j in pos.items():
                a = args[n + k]
                if new_args[base + j] is None:
                    new_args[base + j] = a
                else:
                    merged.append((a, new_args[base + j]))
        block = _take_block(op)
        _set_args(block, new_args)
        props = {k: op._props[k] for k in ("doc", "library_call") if k in op._props}
        new = _new_generic(rewriter, op, new_in, new_out, new_maps,
                           op._props["iterator_types"],
                           [v.type for v in new_out if _is_any_tensor(v.type)],
                           block, op.loc, dict(op._attrs), props)
        for a, b in merged:
            rewriter.replace_all_uses_with(a, b)
        results = new.results
        rewriter.replace_op(op, [results[out_pos[k]] if k in out_pos else None
                                 for k in range(len(op.results))])
        return True


class RemoveUnusedCycle(RewritePattern):
    """RemoveUnusedCycleInGenericOp: for a dead result whose init is read only by one op
    whose only use is the yield at that position, the yield returns the init itself
    (then the result can be dropped)."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        if not _pure_tensor(op):
            return False
        args = op.body.args
        n_in = op.num_dps_inputs()
        changed = False
        for k, r in enumerate(op.results):
            if r.first_use is not None:
                continue
            arg = args[n_in + k]
            u = arg.first_use
            if u is None or u.next_use is not None:
                continue
            cycle = u.owner
            if len(cycle.results) != 1:
                continue
            cu = cycle.results[0].first_use
            if cu is None or cu.next_use is not None:
                continue
            user = cu.owner
            if type(user) is not YieldOp or user.operand(k) is not cycle.results[0]:
                continue
            rewriter.replace_op(cycle, [arg])
            changed = True
        if changed:
            rewriter.modify_op_in_place(op)
        return changed


class EraseIdentityGeneric(RewritePattern):
    """EraseIdentityLinalgOp<GenericOp>: all maps equal and a payload that only yields
    block arguments: the results are the forwarded operands (tensor.cast where the
    types differ); on buffers, a copy of a buffer onto itself goes."""

    root = GENERIC

    def match_and_rewrite(self, op, rewriter) -> bool:
        maps = _maps(op)
        if any(m is not maps[0] for m in maps[1:]):
            return False
        block = op.body
        y = block.first
        if y is None or y is not block.last or type(y) is not YieldOp:
            return False
        if op.has_pure_buffer_semantics():
            vals = op.operands
            n_in = op.num_dps_inputs()
            if n_in != 1 or len(vals) != 2 or vals[0] is not vals[1]:
                return False
            a = y.operand(0) if y.operands else None
            if not isinstance(a, BlockArgument) or a.owner is not block:
                return False
            rewriter.erase_op(op)
            return True
        if not _pure_tensor(op):
            return False
        out = []
        for k, x in enumerate(y.operands):
            if not isinstance(x, BlockArgument) or x.owner is not block:
                return False
            value = op.operand(x.index)
            rt = op.results[k].type
            if value.type is not rt:
                if not _cast_compatible(value.type, rt):
                    return False
                value = _insert(rewriter, CastOp.create([value], [rt], None, None, (), 0,
                                                        op.loc)).results[0]
            out.append(value)
        if len(out) != len(op.results):
            return False
        rewriter.replace_op(op, out)
        return True


# ====================================================================== the pass


def erase_unused_operands_and_results_patterns() -> list:
    """populateEraseUnusedOperandsAndResultsPatterns."""
    return [DeduplicateAndRemoveDeadOperandsAndResults(True), RemoveUnusedCycle()]


def elementwise_fusion_patterns(control=default_control) -> list:
    """populateElementwiseOpsFusionPatterns with `control(consumer, operand_index)`
    deciding which fusable producers fuse."""
    return [FuseElementwiseOps(control), FoldFillWithGeneric(), FoldScalarOrSplatConstant(),
            RemoveOutsDependency(), *erase_unused_operands_and_results_patterns()]


def _not_contraction(op) -> bool:
    from ...dialects.linalg.named_base import contraction_error
    return contraction_error(op) is not None


def _keep_contractions_control(consumer, operand_index) -> bool:
    return default_control(consumer, operand_index) and _not_contraction(consumer)


def fusion_pass_patterns(keep_contractions: bool = False) -> list:
    """What linalg-fuse-elementwise-ops applies, in upstream's order: the fusion
    patterns, reshape propagation by expansion (reshape_fusion.py), then the
    canonicalizations of linalg.generic and the reshapes. `keep_contractions`: no
    producer fuses into a contraction and no reshape folds into one."""
    from .reshape_fusion import (reshape_by_expansion_patterns,
                                 reshape_canonicalization_patterns)
    control = _keep_contractions_control if keep_contractions else default_control
    return [*elementwise_fusion_patterns(control),
            *reshape_by_expansion_patterns(_not_contraction if keep_contractions else None),
            EraseIdentityGeneric(), *reshape_canonicalization_patterns()]


class LinalgElementwiseOpFusion(Pass):
    name = "linalg-fuse-elementwise-ops"
    summary = "Fuse elementwise operations on tensors"
    display_name = "LinalgElementwiseOpFusionPass"
    keep_contractions = Option(
        bool, False, "Strata: leave contractions (linalg ops of the contraction interface: "
        "matmuls, their generic forms) as they are, fusing no producer into them and "
        "folding no reshape into them (the CPU target's GEMM kernels match them)")

    def run(self, op):
        from ...rewrite.greedy import GreedyRewriteConfig, apply_patterns_greedily
        apply_patterns_greedily(op, fusion_pass_patterns(self.keep_contractions),
                                GreedyRewriteConfig(top_down=True))
