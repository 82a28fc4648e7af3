"""Pool output shapes that ONNX's own shape inference gets wrong, mended at import.

[Note: ceil_mode windows]
With ceil_mode, a pool adds a last, partial window where the input does not divide
evenly. onnxruntime and onnx.reference add it only where it starts inside the input or
its begin padding: a window that would start in the end padding or past the input
covers no data and is dropped. ONNX's C++ shape inference (whole-model or node by node)
keeps it, so MaxPool(kernel [1, 2], strides [2, 2], ceil_mode 1) of 1x1x2x4 is typed
1x1x2x2 where it computes 1x1x1x2 (and a kernel wider than the padded input, which
fits no window, gets one where its truncating division makes -1 / 3 + 1 = 1, as
onnxruntime's does; the spec's floor and onnx.reference give an empty dim):

    %y = "onnx.MaxPool"(%x) <{ceil_mode = 1 : si64, kernel_shape = [1, 2],
           strides = [2, 2]}> : (tensor<1x1x2x4xf32>) -> tensor<1x1x2x2xf32>   (ONNX)
                                                   ... -> tensor<1x1x1x2xf32>   (here)

The importer takes result types from that inference, and a static type, once in the IR,
is what every later pass and the compiled code trust. So before the nodes are imported,
`mend_inferred_pools` recounts the windows of every MaxPool, AveragePool and LpPool
from its input's inferred type (pool_out_dim of onnx-shape-inference's
rules, which the lowering follows too), writes the right dims into the pool's outputs,
and forgets what ONNX inferred downstream of a changed one (value_info entries go, a
graph output keeps its rank with unknown dims): those types are then inferred again from
the mended ones, node by node and by onnx-shape-inference. Bodies of If, Loop and Scan
are mended with their enclosing graphs' types, what they read of a forgotten type is
forgotten, and an op whose body changed has its results forgotten in turn.
`mend_node_types` does the same for the node-by-node inference the importer falls back
on.
"""
from __future__ import annotations

__all__ = ["mend_inferred_pools", "mend_node_types"]

_POOLS = frozenset({"MaxPool", "AveragePool", "LpPool"})


def _attrs(node) -> dict:
    from onnx import helper
    out = {}
    for a in node.attribute:
        if a.ref_attr_name:
            return {}
        try:
            out[a.name] = helper.get_attribute_value(a)
        except Exception:  # an attribute of a kind a pool does not have
            continue
    return out


def _is_pool(node) -> bool:
    return node.op_type in _POOLS and node.domain in ("", "ai.onnx")


def _dims(tp):
    """The dims of tensor TypeProto `tp` (int, or None where unknown); None unranked."""
    if tp is None or tp.WhichOneof("value") != "tensor_type" or \
            not tp.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None
            for d in tp.tensor_type.shape.dim]


def pool_dims(node, in_dims):
    """The output dims of pool `node` over input dims `in_dims` (None where unknown), or
    None when its attributes do not say (the checks elsewhere report)."""
    from ...transforms.onnx_shape_inference.rules import pool_out_dim
    if in_dims is None or len(in_dims) < 3:
        return None
    a = _attrs(node)
    n = len(in_dims) - 2
    kernel = a.get("kernel_shape")
    strides = a.get("strides") or [1] * n
    dilations = a.get("dilations") or [1] * n
    pads = a.get("pads") or [0] * (2 * n)
    auto = a.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else str(auto)
    ceil = bool(a.get("ceil_mode", 0))
    if kernel is None or len(kernel) != n or len(strides) != n or len(dilations) != n \
            or len(pads) != 2 * n or min(list(strides) + list(dilations) + list(kernel)) < 1:
        return None
    out = list(in_dims[:2])
    for i in range(n):
        d = in_dims[2 + i]
        if d is None:
            out.append(None)
            continue
        span = (kernel[i] - 1) * dilations[i] + 1
        o = pool_out_dim(d, span, strides[i], pads[i], pads[n + i], auto, ceil)
        if o < 0:  # see _spatial_out in onnx-shape-inference's rules
            lo, hi = (0, 0) if auto == "VALID" else (pads[i], pads[n + i])
            o = 0 if d + lo + hi - span > -2 * strides[i] else None
        out.append(o)
    return out


def _set_dims(tp, dims) -> bool:
    """Write `dims` into the shape of tensor TypeProto `tp` where it states a different
    static size (None: the dim becomes unknown); whether anything changed."""
    shape = tp.tensor_type.shape
    if len(shape.dim) != len(dims):
        return False
    changed = False
    for d, want in zip(shape.dim, dims):
        if d.HasField("dim_value") and d.dim_value != want:
            d.Clear()
            if want is not None:
                d.dim_value = want
            changed = True
    return changed


def _forget(tp):
    """Keep the element type and rank of `tp`, drop what it says of the dims."""
    if tp.WhichOneof("value") == "tensor_type" and tp.tensor_type.HasField("shape"):
        for d in tp.tensor_type.shape.dim:
            d.Clear()


def names_read(node, out: set):
    """Add the names `node` reads, its subgraphs' reads included, to `out` (shared with
    decompose.py)."""
    out.update(x for x in node.input if x)
    for a in node.attribute:
        for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
            for n in g.node:
                names_read(n, out)


def mend_inferred_pools(model) -> int:
    """Mend the inferred types of `model`'s pools and what follows them (see
    [Note: ceil_mode windows]), in place, in subgraphs too; returns how many pool
    results changed."""
    return _mend_graph(model.graph, {}, frozenset())[0]


def _subgraphs(node):
    for a in node.attribute:
        yield from ([a.g] if a.HasField("g") else [])
        yield from a.graphs


def _mend_graph(g, outer: dict, outer_tainted: frozenset):
    """Mend graph `g` given the types of the enclosing graphs' values (`outer`) and the
    names of theirs whose inferred types were mended or forgotten (`outer_tainted`):
    (pool results changed, whether anything in `g` was mended or forgotten)."""
    types = dict(outer)
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        if vi.HasField("type"):
            types[vi.name] = vi.type
    seeds = set()
    changed = 0
    for n in g.node:
        if not _is_pool(n) or not n.input:
            continue
        dims = pool_dims(n, _dims(types.get(n.input[0])))
        if dims is None:
            continue
        for o in n.output[:2]:  # Y and MaxPool's Indices
            tp = types.get(o)
            if o and _dims(tp) is not None and _set_dims(tp, dims):
                seeds.add(o)
                changed += 1
    mended = set(seeds)
    readers = [(n, _reads(n)) for n in g.node]
    nested = [n for n in g.node if any(True for _ in _subgraphs(n))]
    done = set()
    while True:
        # what ONNX inferred from a mended or forgotten type is forgotten (inferred again)
        tainted = set(seeds) | outer_tainted
        frontier = set(tainted)
        while frontier:
            nxt = set()
            for n, reads in readers:
                if reads & frontier:
                    nxt.update(o for o in n.output if o and o not in tainted)
            tainted |= nxt
            frontier = nxt
        # bodies of If, Loop, Scan: a body that changed makes its op's results unknown
        grew = False
        for n in nested:
            if id(n) in done:
                continue
            touched = False
            for sub in _subgraphs(n):
                c, t = _mend_graph(sub, types, frozenset(tainted))
                changed += c
                touched |= t
            if touched:
                done.add(id(n))
                new = {o for o in n.output if o} - seeds
                if new:
                    seeds |= new
                    grew = True
        if not grew:
            break
    forget = tainted - mended - outer_tainted
    if forget:
        keep = [vi for vi in g.value_info if vi.name not in forget]
        del g.value_info[:]
        g.value_info.extend(keep)
        for vi in g.output:
            if vi.name in forget:
                _forget(vi.type)
    return changed, bool(mended or forget)


def _reads(node) -> set:
    out = set()
    names_read(node, out)
    return out


def mend_node_types(node, types: dict, in_dims) -> dict:
    """`types` ({output name: TypeProto}, ONNX's inference of `node` alone) with a
    pool's outputs recounted over input dims `in_dims`."""
    if not _is_pool(node):
        return types
    dims = pool_dims(node, in_dims)
    if dims is not None:
        for o in node.output[:2]:
            tp = types.get(o)
            if o and _dims(tp) is not None:
                _set_dims(tp, dims)
    return types
