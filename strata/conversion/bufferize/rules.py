"""The memref form of each tensor-level op (one rule per op; see bufferize.py).

    tensor.empty              memref.alloc
    arith.constant (tensor)   memref.global "private" constant + memref.get_global
    tensor.extract / insert   memref.load / memref.store into the destination buffer
    tensor.dim / rank         memref.dim / memref.rank
    tensor.cast, expand_shape, collapse_shape, extract_slice, reshape
                              memref.cast, expand_shape, collapse_shape (of a copy when
                              the buffer is not contiguous), subview, reshape (of an
                              identity-layout copy when needed)
    tensor.insert_slice       memref.subview of the destination + memref.copy
    tensor.concat             memref.alloc + a subview and a copy per input
    tensor.pad                memref.alloc + linalg.map (the padding body) + subview copy
    tensor.generate / splat   memref.alloc + linalg.map
    tensor.from_elements      memref.alloc + memref.store per element
    tensor.bitcast            memref.alloc + linalg.map of arith.bitcast
    linalg (destination style) the same op on buffers, writing its `outs` buffers
    arith.select              arith.select of buffers (an i1 condition), or memref.alloc
                              + linalg.map of arith.select (a tensor condition)
    unrealized_conversion_cast memref.cast, or the same cast between memrefs
    func.call                 func.call on memrefs (results: fresh buffers)
    ml_program.global(_load_const, _load, _store)
                              memref.global (same name, dense_resource data kept) and
                              memref.get_global (a copy for loads of mutable globals)
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.builder import Builder
from ...ir.core import Block
from .analysis import BufferizationError
from .bufferize import fully_dynamic_type, memref_type_for
from .models import is_tensor

__all__ = ["RULES", "linalg_rule", "convert_ml_program_globals"]

DYN = A.DYNAMIC
RULES: dict = {}


def rule(*names):
    def deco(fn):
        for n in names:
            RULES[n] = fn
        return fn
    return deco


def _static(op, name):
    a = op.properties.get(name)
    return list(a.value) if a is not None else []


def _mixed(static, dynamic):
    """Static values with the dynamic ones (Values) in the DYN places."""
    it = iter(dynamic)
    return [next(it) if s == DYN else s for s in static]


def _i64s(values):
    return A.DenseArrayAttr(A.i64, values)


def _arith(name):
    from ...dialects.arith import ARITH
    return ARITH.ops[name]


def _add(bz, b, *terms):
    """The index sum of ints and Values (ints folded; an int when all are)."""
    const = sum(t for t in terms if isinstance(t, int))
    vals = [t for t in terms if not isinstance(t, int)]
    if not vals:
        return const
    acc = vals[0]
    addi = _arith("arith.addi")
    for v in vals[1:] + ([bz.index(b, const)] if const else []):
        acc = b.insert(addi.create([acc, v], [A.index], None, None, (), 0, b.loc)).results[0]
    return acc


def _as_value(bz, b, x):
    return bz.index(b, x) if isinstance(x, int) else x


def subview(bz, b, source, offsets, sizes, strides, result_shape=None):
    """memref.subview of `source` at mixed (int or Value) offsets, sizes, strides; the
    result is rank-reduced to `result_shape` when given."""
    static = []
    dyn = []
    for lst in (offsets, sizes, strides):
        s = [x if isinstance(x, int) else DYN for x in lst]
        static.append(s)
        dyn.append([x for x in lst if not isinstance(x, int)])
    shape = result_shape if result_shape is not None else static[1]
    M = bz.M
    t = M.rank_reduced_subview_type(list(shape), source.type, *static)
    props = {"static_offsets": _i64s(static[0]), "static_sizes": _i64s(static[1]),
             "static_strides": _i64s(static[2]),
             "operandSegmentSizes": A.DenseArrayAttr(A.i32, [1] + [len(d) for d in dyn])}
    op = M.SubViewOp.create([source] + dyn[0] + dyn[1] + dyn[2], [t], props, None, (), 0,
                            b.loc)
    return bz.view(source, b.insert(op).results[0])


def _mixed_sizes(bz, b, buffer, shape):
    return [bz.dim(b, buffer, i) if d == DYN else d for i, d in enumerate(shape)]


# ==================================================================== allocations

@rule("tensor.empty", "bufferization.alloc_tensor")
def _empty(bz, op):
    r = op.results[0]
    if r.first_use is None:
        bz.kill(op)
        return
    b = Builder.before(op)
    t = r.type
    dyn = [u.value for u in op._operands[:t.num_dynamic_dims]]
    buf = bz.alloc(b, t, dyn)
    if op.name == "bufferization.alloc_tensor" and len(op._operands) > len(dyn):
        bz.copy(b, bz.buffer(op._operands[len(dyn)].value), buf)
    bz.replace(op, [buf])


@rule("arith.constant")
def _constant(bz, op):
    b = Builder.before(op)
    attr = op.properties["value"]
    t = op.results[0].type
    name = bz_globals(bz).constant(attr, memref_type_for(t), op.loc)
    bz.replace(op, [get_global(bz, b, name, memref_type_for(t))])


def get_global(bz, b, name, t):
    r = b.insert(bz.M.GetGlobalOp.create([], [t], {"name": A.SymbolRefAttr(name)}, None,
                                         (), 0, b.loc)).results[0]
    bz.roots[r] = (r,)
    return r


class ConstantGlobals:
    """The memref.global constants of a module: one per distinct value, named
    `__constant_<shape>x<type>` (then `_0`, `_1`...) and inserted at the top of the
    module, as upstream."""

    def __init__(self, bz):
        self.bz = bz
        body = bz.module.regions[0].blocks[0]
        self.body = body
        self.names = set()
        self.by_value = {}
        from ...ir.symbol_table import symbol_name
        for op in body.ops:
            n = symbol_name(op)
            if n is not None:
                self.names.add(n)
            if op.name == "memref.global" and "constant" in op._props:
                v = op._props.get("initial_value")
                if v is not None:
                    self.by_value.setdefault((v, op._props["type"].value), n)

    def unique_name(self, base):
        name = base
        i = 0
        while name in self.names:
            name = f"{base}_{i}"
            i += 1
        self.names.add(name)
        return name

    def constant(self, attr, t, loc):
        key = (attr, t)
        name = self.by_value.get(key)
        if name is not None:
            return name
        dims = "x".join(str(d) for d in t.shape)
        name = self.unique_name(f"__constant_{dims}x{t.element_type}")
        align = self.bz.options.buffer_alignment or None
        g = self.bz.M.GlobalOp.new(name, t, initial_value=attr, constant=True,
                                   visibility="private", alignment=align, loc=loc)
        self.body.prepend(g)
        self.by_value[key] = name
        return name


def bz_globals(bz):
    if bz._globals is None:
        bz._globals = ConstantGlobals(bz)
    return bz._globals


def _new_map(bz, b, init, inputs=()):
    """An empty linalg.map ins(inputs) outs(init) and its block (one argument per
    operand)."""
    from ...dialects.linalg import MapOp
    ops = list(inputs) + [init]
    op = b.insert(MapOp.create(ops, [], None, None, (), 1, b.loc))
    blk = op.regions[0].add_block(Block([v.type.element_type for v in ops]))
    return op, blk


def _linalg_yield(blk, value, loc):
    from ...dialects.linalg import YieldOp
    blk.append(YieldOp.create([value], [], None, None, (), 0, loc))


def _map_from_body(bz, b, init, body_block, loc):
    """linalg.map outs(init) whose payload is `body_block` (a tensor.generate/pad body:
    one index argument per dim, ending in tensor.yield), moved over."""
    from ...dialects.linalg import IndexOp
    _, blk = _new_map(bz, b, init)
    idx = []
    for i in range(len(body_block.args)):
        idx.append(blk.append(IndexOp.create([], [A.index], {"dim": A.IntegerAttr(i, A.i64)},
                                             None, (), 0, loc)).results[0])
    for a, v in zip(body_block.args, idx):
        a.replace_all_uses_with(v)
    term = body_block.last
    for o in list(body_block.ops):
        if o is term:
            break
        o.detach()
        blk.append(o)
    _linalg_yield(blk, term.operand(0), term.loc)
    bz.bufferize_block(blk)


@rule("tensor.generate")
def _generate(bz, op):
    b = Builder.before(op)
    buf = bz.alloc(b, op.results[0].type, op.operands)
    _map_from_body(bz, b, buf, op.regions[0].blocks[0], op.loc)
    bz.replace(op, [buf])


@rule("tensor.splat")
def _splat(bz, op):
    b = Builder.before(op)
    buf = bz.alloc(b, op.results[0].type, op.operands[1:])
    _, blk = _new_map(bz, b, buf)
    _linalg_yield(blk, op.operand(0), op.loc)
    bz.replace(op, [buf])


@rule("tensor.from_elements")
def _from_elements(bz, op):
    b = Builder.before(op)
    t = op.results[0].type
    buf = bz.alloc(b, t)
    shape = list(t.shape)
    consts = {}

    def c(i):
        v = consts.get(i)
        if v is None:
            v = consts[i] = bz.index(b, i)
        return v
    for k, u in enumerate(op._operands):
        idx = []
        rest = k
        for d in reversed(shape):
            idx.append(rest % d)
            rest //= d
        idx.reverse()
        b.insert(bz.M.StoreOp.create([u.value, buf] + [c(i) for i in idx], [], None, None,
                                     (), 0, op.loc))
    bz.replace(op, [buf])


@rule("tensor.pad")
def _pad(bz, op):
    b = Builder.before(op)
    src = bz.buffer(op.operand(0))
    st = src.type
    rt = op.results[0].type
    low = _mixed(_static(op, "static_low"), op.low)
    high = _mixed(_static(op, "static_high"), op.high)
    dyn = []
    for i, d in enumerate(rt.shape):
        if d == DYN:
            size = bz.dim(b, src, i) if st.shape[i] == DYN else st.shape[i]
            dyn.append(_as_value(bz, b, _add(bz, b, size, low[i], high[i])))
    buf = bz.alloc(b, rt, dyn)
    _map_from_body(bz, b, buf, op.regions[0].blocks[0], op.loc)
    sizes = _mixed_sizes(bz, b, src, st.shape)
    view = subview(bz, b, buf, low, sizes, [1] * len(sizes))
    bz.copy(b, src, view)
    bz.replace(op, [buf])


@rule("tensor.concat")
def _concat(bz, op):
    b = Builder.before(op)
    dim = op.properties["dim"].value
    rt = op.results[0].type
    srcs = [bz.buffer(v) for v in op.operands]
    dyn = []
    for k, d in enumerate(rt.shape):
        if d != DYN:
            continue
        if k == dim:
            terms = [bz.dim(b, s, k) if s.type.shape[k] == DYN else s.type.shape[k]
                     for s in srcs]
            dyn.append(_as_value(bz, b, _add(bz, b, *terms)))
        else:
            dyn.append(bz.dim(b, srcs[0], k))
    buf = bz.alloc(b, rt, dyn)
    offset = 0
    for s in srcs:
        if s.type.shape[dim] == 0:  # nothing to copy (and no valid offset past the end)
            continue
        sizes = _mixed_sizes(bz, b, s, s.type.shape)
        offs = [0] * rt.rank
        offs[dim] = offset
        view = subview(bz, b, buf, offs, sizes, [1] * rt.rank)
        bz.copy(b, s, view)
        offset = _add(bz, b, offset, sizes[dim])
    bz.replace(op, [buf])


@rule("tensor.bitcast")
def _bitcast(bz, op):
    b = Builder.before(op)
    src = bz.buffer(op.operand(0))
    rt = op.results[0].type
    buf = bz.alloc(b, rt, bz.dynamic_sizes(b, src, rt.shape))
    _, blk = _new_map(bz, b, buf, [src])
    et = rt.element_type
    if isinstance(et, A.IntegerType) and et.signedness != A.IntegerType.SIGNLESS or \
            isinstance(src.type.element_type, A.IntegerType) and \
            src.type.element_type.signedness != A.IntegerType.SIGNLESS:
        raise BufferizationError.at(op, "bitcast of signed or unsigned integer elements "
                                        "cannot be bufferized")
    cast = blk.append(_arith("arith.bitcast").create([blk.args[0]], [et], None, None, (),
                                                     0, op.loc)).results[0]
    _linalg_yield(blk, cast, op.loc)
    bz.replace(op, [buf])


# ==================================================================== element access

@rule("tensor.extract")
def _extract(bz, op):
    b = Builder.before(op)
    buf = bz.operand_buffer(b, op._operands[0])
    r = b.insert(bz.M.LoadOp.create([buf] + op.operands[1:], [op.results[0].type], None,
                                    None, (), 0, op.loc)).results[0]
    bz.replace(op, [r])


@rule("tensor.insert")
def _insert(bz, op):
    b = Builder.before(op)
    dest = bz.operand_buffer(b, op._operands[1])
    b.insert(bz.M.StoreOp.create([op.operand(0), dest] + op.operands[2:], [], None, None,
                                 (), 0, op.loc))
    bz.replace(op, [dest])


@rule("tensor.dim")
def _dim(bz, op):
    b = Builder.before(op)
    r = b.insert(bz.M.DimOp.create([bz.buffer(op.operand(0)), op.operand(1)], [A.index],
                                   None, None, (), 0, op.loc)).results[0]
    bz.replace(op, [r])


@rule("tensor.rank")
def _rank(bz, op):
    b = Builder.before(op)
    r = b.insert(bz.M.RankOp.create([bz.buffer(op.operand(0))], [A.index], None, None,
                                    (), 0, op.loc)).results[0]
    bz.replace(op, [r])


# ==================================================================== views

def _cast_type(src_type, rt):
    if bz_is_identity(src_type):
        return memref_type_for(rt)
    return A.MemRefType(rt.shape, rt.element_type, src_type.layout, src_type.memory_space)


def bz_is_identity(t) -> bool:
    from ...dialects.memref import is_identity_layout
    return type(t) is A.MemRefType and is_identity_layout(t)


def _castable(a, b) -> bool:
    """memref.cast compatibility for ranked memrefs of the same layout kind."""
    if type(a) is not A.MemRefType or type(b) is not A.MemRefType:
        return False
    if a.element_type is not b.element_type or len(a.shape) != len(b.shape):
        return False
    return all(x == y or x == DYN or y == DYN for x, y in zip(a.shape, b.shape))


@rule("tensor.cast")
def _tensor_cast(bz, op):
    b = Builder.before(op)
    u = op._operands[0]
    src = bz.buffer(u.value)
    rt = op.results[0].type
    if type(rt) is not A.RankedTensorType or type(src.type) is not A.MemRefType:
        raise BufferizationError.at(op, "casts from or to unranked tensors are not "
                                        "supported")
    bz.replace(op, [bz.view_result(b, u, src, bz.cast(b, src, _cast_type(src.type, rt)))])


@rule("builtin.unrealized_conversion_cast")
def _unrealized_cast(bz, op):
    if not (len(op._operands) == 1 and len(op.results) == 1 and
            bz.was_tensor(op.operand(0)) and is_tensor(op.results[0].type)):
        bz.unknown_op(op)
        return
    b = Builder.before(op)
    u = op._operands[0]
    src = bz.buffer(u.value)
    rt = op.results[0].type
    t = _cast_type(src.type, rt) if type(rt) is A.RankedTensorType and \
        type(src.type) is A.MemRefType else memref_type_for(rt)
    if _castable(src.type, t):
        view = bz.cast(b, src, t)
    else:
        view = b.insert(type(op).create([src], [t], None, None, (), 0, op.loc)).results[0]
    bz.replace(op, [bz.view_result(b, u, src, view)])


def _groups(op):
    from ...syntax.dynamic_index_list import reassociation_indices
    return reassociation_indices(op.properties["reassociation"])


def _reshaped_view(bz, op, result_type, memref_op, props, extra=()):
    """A reshape of op's source buffer by `memref_op` to `result_type(source type)`;
    a source it cannot view (None) is copied to an identity-layout buffer first."""
    b = Builder.before(op)
    u = op._operands[0]
    src = bz.buffer(u.value)
    t = result_type(src.type)
    if t is None:
        src = bz.clone(b, src, bz.ttype(u.value))
        t = result_type(src.type)
    view = b.insert(memref_op.create([src] + list(extra), [t], props, None, (), 0,
                                     op.loc)).results[0]
    bz.replace(op, [bz.view_result(b, u, src, view)])


@rule("tensor.expand_shape")
def _expand_shape(bz, op):
    shape, groups = list(op.results[0].type.shape), _groups(op)
    _reshaped_view(bz, op, lambda t: bz.M.expanded_type(t, shape, groups), bz.M.ExpandShapeOp,
             {"reassociation": op.properties["reassociation"],
              "static_output_shape": op.properties["static_output_shape"]},
             op.operands[1:])


@rule("tensor.collapse_shape")
def _collapse_shape(bz, op):
    rt, groups = op.results[0].type, _groups(op)

    def collapsed(t):  # None for a view not known to be contiguous
        c = bz.M.collapsed_type(t, groups)
        # memref.collapse_shape's type takes a dynamic stride as contiguous; a view is
        # collapsed in place only where its strides prove it (upstream's
        # isGuaranteedCollapsible, the strict layout): a slice of a dynamic dim is not.
        if c is None or not bz.M.is_identity_layout(t) and \
                bz.M.collapsed_layout(t, groups, strict=True) is None:
            return None
        if list(c.shape) == list(rt.shape):
            return c
        return A.MemRefType(rt.shape, c.element_type, c.layout, c.memory_space)
    _reshaped_view(bz, op, collapsed, bz.M.CollapseShapeOp,
             {"reassociation": op.properties["reassociation"]})


@rule("tensor.extract_slice")
def _extract_slice(bz, op):
    b = Builder.before(op)
    u = op._operands[0]
    src = bz.buffer(u.value)
    offs = _mixed(_static(op, "static_offsets"), op.offsets)
    sizes = _mixed(_static(op, "static_sizes"), op.sizes)
    strides = _mixed(_static(op, "static_strides"), op.strides)
    view = subview(bz, b, src, offs, sizes, strides, list(op.results[0].type.shape))
    bz.replace(op, [bz.view_result(b, u, src, view)])


@rule("tensor.insert_slice")
def _insert_slice(bz, op):
    b = Builder.before(op)
    dest = bz.operand_buffer(b, op._operands[1])
    src = bz.operand_buffer(b, op._operands[0])
    offs = _mixed(_static(op, "static_offsets"), op.offsets)
    sizes = _mixed(_static(op, "static_sizes"), op.sizes)
    strides = _mixed(_static(op, "static_strides"), op.strides)
    view = subview(bz, b, dest, offs, sizes, strides, list(op.operand(0).type.shape))
    bz.copy(b, src, view)
    bz.replace(op, [dest])


@rule("tensor.reshape")
def _reshape(bz, op):
    b = Builder.before(op)
    u = op._operands[0]
    src = bz.buffer(u.value)
    if not bz_is_identity(src.type):
        src = bz.clone(b, src, bz.ttype(u.value))
    shape = bz.operand_buffer(b, op._operands[1])
    t = memref_type_for(op.results[0].type)
    view = b.insert(bz.M.ReshapeOp.create([src, shape], [t], None, None, (), 0,
                                          op.loc)).results[0]
    bz.replace(op, [bz.view_result(b, u, src, view)])


# ==================================================================== selection

@rule("arith.select")
def _select(bz, op):
    b = Builder.before(op)
    rt = op.results[0].type
    if bz.was_tensor(op.operand(0)):  # elementwise condition: a new buffer
        ins = [bz.buffer(v) for v in op.operands]
        buf = bz.alloc(b, rt, bz.dynamic_sizes(b, ins[1], rt.shape))
        _, blk = _new_map(bz, b, buf, ins)
        v = blk.append(type(op).create(blk.args[:3], [rt.element_type], None, None, (), 0,
                                       op.loc)).results[0]
        _linalg_yield(blk, v, op.loc)
        bz.replace(op, [buf])
        return
    x, y = bz.buffer(op.operand(1)), bz.buffer(op.operand(2))
    if x.type is not y.type:
        t = fully_dynamic_type(rt)
        x, y = bz.cast(b, x, t), bz.cast(b, y, t)
    r = b.insert(type(op).create([op.operand(0), x, y], [x.type], None, None, (), 0,
                                 op.loc)).results[0]
    bz.roots[r] = bz.roots_of(x) + bz.roots_of(y)
    u = op._operands[1]
    if bz.plan.get(u) is not None or bz.plan.get(op._operands[2]) is not None:
        r = bz.clone(b, r, rt)
    bz.replace(op, [r])


# ==================================================================== linalg

def linalg_rule(op):
    from .models import _LINALG, _LINALG_OTHER_MODEL, model_of
    m = model_of(op)
    if m is _LINALG or m is _LINALG_OTHER_MODEL:
        return _destination_style
    return None


def _destination_style(bz, op):
    """A destination-style linalg op on buffers: the same op, its tensor operands
    replaced by their buffers (copies where out of place), no results; the results are
    the `outs` buffers."""
    b = Builder.before(op)
    operands = []
    for u in op._operands:
        operands.append(bz.operand_buffer(b, u) if bz.was_tensor(u.value) else u.value)
    n_in = op.num_dps_inputs() if hasattr(op, "num_dps_inputs") else 1
    new = type(op).create(operands, [], dict(op._props) if op._props else None,
                          dict(op._attrs) if op._attrs else None, (), len(op.regions),
                          op.loc)
    for nr, r in zip(new.regions, op.regions):
        nr.take_body(r)
    b.insert(new)
    for r in new.regions:  # payloads may read tensors (tensor.extract of a gather)
        for blk in r.blocks:
            bz.bufferize_block(blk)
    bz.replace(op, operands[n_in:n_in + len(op.results)])


# ==================================================================== calls

@rule("func.call")
def _call(bz, op):
    if not bz.options.function_boundaries:
        bz.unknown_op(op)
        return
    b = Builder.before(op)
    operands = []
    for u in op._operands:
        v = u.value
        if bz.was_tensor(v):
            tt = bz.ttype(v)
            buf = bz.operand_buffer(b, u)
            want = bz.arg_type(tt)
            if buf.type is not want:
                if not bz_is_identity(buf.type) and bz_is_identity(want):
                    buf = bz.clone(b, buf, tt)
                buf = bz.cast(b, buf, want)
            v = buf
        operands.append(v)
    types = [memref_type_for(r.type) if is_tensor(r.type) else r.type for r in op.results]
    new = b.insert(type(op).create(operands, types, dict(op._props), dict(op._attrs) or None,
                                   (), 0, op.loc))
    for r in new.results:
        if is_tensor(op.results[r.index].type):
            bz.own(r, b.ip.block)
    bz.replace(op, list(new.results))


# ==================================================================== ml_program

@rule("ml_program.global_load_const")
def _global_load_const(bz, op):
    b = Builder.before(op)
    t = memref_type_for(op.results[0].type)
    bz.replace(op, [get_global(bz, b, op.properties["global"].root, t)])


@rule("ml_program.global_load")
def _global_load(bz, op):
    b = Builder.before(op)
    t = memref_type_for(op.results[0].type)
    g = get_global(bz, b, op.properties["global"].root, t)
    bz.replace(op, [bz.clone(b, g, op.results[0].type)])


@rule("ml_program.global_store")
def _global_store(bz, op):
    b = Builder.before(op)
    v = op._operands[0].value
    t = memref_type_for(bz.ttype(v))
    g = get_global(bz, b, op.properties["global"].root, t)
    bz.copy(b, bz.buffer(v), g)
    bz.kill(op)


def convert_ml_program_globals(bz, body):
    """ml_program.global of tensor type -> memref.global of the same name (constant
    unless mutable; an `#ml_program.extern` value becomes an external declaration)."""
    for op in list(body.ops):
        if op.name != "ml_program.global":
            continue
        t = op.properties["type"].value
        if not is_tensor(t):
            continue
        value = op.properties.get("value")
        if value is not None and type(value).__name__ == "ExternAttr":
            value = None
        vis = op.properties.get("sym_visibility")
        g = bz.M.GlobalOp.new(op.properties["sym_name"].value, memref_type_for(t),
                              initial_value=value,
                              constant="is_mutable" not in op._props and value is not None,
                              visibility=vis.value if vis is not None else None,
                              alignment=bz.options.buffer_alignment or None, loc=op.loc)
        body.insert_before(op, g)
        op.erase()


from . import scf_rules  # noqa: E402,F401  (registers the scf rules)
