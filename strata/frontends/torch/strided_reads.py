"""`aten.as_strided` of an FX graph as an index read of the tensor whose storage it
addresses: `strided_reads(graph)`.

[Note: as_strided read through its base]
`as_strided(x, size, stride, offset)` reads x's *storage*, not x's value: for x a view
(`y.t()`, `y[1:]`) the elements it picks depend on where the view sits in its base's
memory, which the torch dialect's value tensors do not carry. torch-mlir's FxImporter
therefore rewrites each such node before importing (its `fx_as_strided` pass), and
Strata imports it the same way, so that the module is the referee's and the read is
right whatever the view: while the graph's fake tensors still know their storage, the
chain of views back to the node that owns the storage (the base: an input, or the
result of an op that copies) is followed through the ops whose result shares its
operand's storage, and each element's storage offset,
`offset - base.storage_offset() + sum(i[d] * stride[d])`, is decoded into coordinates
of the base (its dims by decreasing stride); the node becomes

    %i0 = torch.vtensor.literal(dense_resource<...> : tensor<2x2xsi64>) ...
    %i1 = torch.vtensor.literal(dense_resource<...> : tensor<2x2xsi64>) ...
    %l = torch.prim.ListConstruct %i0, %i1 : ... -> !torch.list<optional<vtensor>>
    %r = torch.aten.index.Tensor %base, %l ...

(one index tensor per dim of the base; the dims of stride 0 share one tensor of
zeros). A 0-d base (no dim to index), sizes, strides or offsets that are not constants, offsets that do not decode
exactly, or coordinates outside the base leave the node as it is (FxImporter refuses
the program; Strata's lowering of as_strided then reads a contiguous operand, and
refuses a view, see conversion/torch_to_linalg/views.py). As in FxImporter, once a node
is rewritten the graph's dead pure nodes are not imported (a view chain that only fed
the rewritten node included).
"""
from __future__ import annotations

__all__ = ["strided_reads"]


class _NoRead(Exception):
    """This as_strided node cannot be read through its base: imported as it is."""


def strided_reads(graph):
    """({as_strided node: (base node, index tensors)}, {dead nodes}) of `graph`
    ([Note: as_strided read through its base]); the graph is left unchanged."""
    import torch
    target = torch.ops.aten.as_strided.default
    plan = {}
    for node in graph.nodes:
        if node.op == "call_function" and node.target is target:
            try:
                plan[node] = _read(node)
            except _NoRead:
                pass
    if not plan:
        return plan, set()
    return plan, _dead_nodes(graph, plan)


def _dead_nodes(graph, plan) -> set:
    """The pure nodes that nothing imported uses once `plan`'s nodes read their base."""
    users = {n: set(n.users) for n in graph.nodes}
    for node, (base, _) in plan.items():
        users[node.args[0]].discard(node)
        users[base].add(node)
    dead = set()
    for n in reversed(list(graph.nodes)):
        if n.op in ("call_function", "call_method", "call_module", "get_attr") and \
                not n.is_impure() and all(u in dead for u in users[n]):
            dead.add(n)
    return dead


def _argument(node, i, name, default=_NoRead):
    if i < len(node.args):
        return node.args[i]
    if name in node.kwargs or default is not _NoRead:
        return node.kwargs.get(name, default)
    raise _NoRead(name)


def _fake(value):
    import torch
    v = value.meta.get("val") if hasattr(value, "meta") else None
    if not isinstance(v, torch.Tensor):
        raise _NoRead("no tensor metadata")
    return v


def _ints(values) -> tuple:
    if isinstance(values, (list, tuple)) and all(type(v) is int for v in values):
        return tuple(values)
    raise _NoRead("not constant")


def _int(value) -> int:
    if type(value) is int:
        return value
    raise _NoRead("not constant")


def _read(node):
    """(base node, index tensors) of as_strided `node`."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    source = _argument(node, 0, "self")
    size = _ints(_argument(node, 1, "size"))
    stride = _ints(_argument(node, 2, "stride"))
    offset = _argument(node, 3, "storage_offset", None)
    offset = _int(_fake(source).storage_offset()) if offset is None else _int(offset)
    base = _storage_owner(source)
    b = _fake(base)
    if b.dim() == 0:
        # A 0-d base has no dim to index: index.Tensor with no index tensors would give
        # the 0-d base, not `size`; as_strided's own lowering reads its one element.
        raise _NoRead
    with unset_fake_temporarily():
        return base, _coordinates(_ints(tuple(b.shape)), _ints(tuple(b.stride())),
                                  _int(b.storage_offset()), size, stride, offset)


def _storage_owner(value):
    """The node whose result owns the storage `value` (a node) views."""
    import torch.fx
    while True:
        storage = _fake(value).untyped_storage()
        operand = next((a for a in _tensor_nodes(list(value.args) +
                                                 list(value.kwargs.values()))
                        if a.meta.get("val") is not None and
                        hasattr(a.meta["val"], "untyped_storage") and
                        a.meta["val"].untyped_storage() is storage), None) \
            if isinstance(value, torch.fx.Node) else None
        if operand is None:
            return value
        value = operand


def _tensor_nodes(items):
    import torch
    import torch.fx
    for a in items:
        if isinstance(a, torch.fx.Node):
            if isinstance(a.meta.get("val"), torch.Tensor):
                yield a
        elif isinstance(a, (list, tuple)):
            yield from _tensor_nodes(a)


def _coordinates(base_shape, base_stride, base_offset, size, stride, offset) -> tuple:
    """Per dim of the base, the int64 tensor (of shape `size`) of the coordinate of
    each element the read takes."""
    import torch
    at = torch.full(size, offset - base_offset, dtype=torch.int64)
    for d, step in enumerate(stride):
        if step:
            shape = [1] * len(size)
            shape[d] = size[d]
            at = at + torch.arange(size[d], dtype=torch.int64).reshape(shape) * step
    zeros = torch.zeros_like(at)
    coords = [zeros] * len(base_shape)
    for d in sorted(range(len(base_shape)), key=lambda k: base_stride[k], reverse=True):
        if base_stride[d]:
            c = torch.div(at, base_stride[d], rounding_mode="floor")
            coords[d] = c
            at = at - c * base_stride[d]
    if at.numel() and bool((at != 0).any()):
        raise _NoRead("offsets between the base's elements")
    for d, c in enumerate(coords):
        if c.numel() and bool(((c < 0) | (c >= base_shape[d])).any()):
            raise _NoRead("outside the base")
    return tuple(coords)
