"""What training graphs need beyond inference ones, for torch.compile(backend="strata")
(strata/frontends/torch/dynamo.py): random ops drawn by torch's own generator, the
decompositions of the ops an optimizer step traces to, and of ops torch decomposes
nowhere that Strata does not lower (nn.EmbeddingBag's gradient, [Note: bags of
embeddings]; replication padding's gradient, [Note: replication padding's gradient]).

Random draws ([Note: random draws by torch's generator]): `hoist_random(gm)` takes each
random ATen op of AOTAutograd's graph out of it; the draw becomes a graph input that
the compiled callable fills, on each call, by the same ATen call eager makes:

    native_dropout = torch.ops.aten.native_dropout.default(relu, 0.3, True)
    getitem = native_dropout[0];  getitem_1 = native_dropout[1]
  ->
    strata_draw_0 = placeholder            # torch.empty_like(relu).bernoulli_(0.7)
    mul = torch.ops.aten.mul.Tensor(strata_draw_0, 1.4285714285714286)
    getitem = torch.ops.aten.mul.Tensor(relu, mul)
    getitem_1 = torch.ops.aten.ne.Scalar(strata_draw_0, 0)

Optimizer steps ([Note: optimizer graphs]): `decompositions()` is the table the
backend adds to AOTAutograd's: Dynamo's `prims.fma` (its form of addcmul_, which the
torch dialect has no op for), and the `_foreach_` ops (clip_grad_norm_, foreach=True
optimizers) as their element op over the lists:

    _foreach_norm = torch.ops.aten._foreach_norm.Scalar([g1, g2], 2)
  ->
    linalg_vector_norm = torch.ops.aten.linalg_vector_norm.default(g1, 2)
    linalg_vector_norm_1 = torch.ops.aten.linalg_vector_norm.default(g2, 2)
"""
from __future__ import annotations

from ...errors import StrataError

__all__ = ["hoist_random", "decompositions"]


# [Note: random draws by torch's generator]
# A compiled graph that draws random numbers (dropout in training mode, rand_like...)
# cannot draw them as eager does inside Strata's code: CPU ATen draws from its
# mt19937 generator through MKL's Bernoulli, and a Strata RNG would give other masks
# (Inductor's own philox does too; its `fallback_random` calls the ATen ops). Here the
# draw stays ATen's: each random op of the graph becomes an input (`strata_draw_k`),
# and the compiled callable makes it before running the compiled code, with the ATen
# call eager makes for that op, in graph order (a graph's random ops run in its order
# in eager too, and nothing else draws between them): `torch.empty_like(x).bernoulli_
# (1 - p)` for dropout (what ATen's CPU dropout, `_dropout_impl`, draws: F.dropout
# reaches AOTAutograd as native_dropout), the op itself on an empty tensor of the
# argument's shape for rand_like, randn_like, randint_like and bernoulli.p, and on the
# evaluated sizes for rand, randn and randint. So under the same seed the compiled model
# draws exactly the masks eager draws and its losses match eager's, dropout included;
# the values the op computes from its draw (x * mask / (1 - p), the saved mask the
# backward graph reads) are Strata's. A dropout of p = 1 draws nothing (ATen's neither):
# its result is zeros. Sizes that are symbols (dynamic shapes) are evaluated on each
# call from the inputs' sizes (each symbol is the size of an input dim or an int input
# of the graph); a random op with an explicit generator, or a size bound to nothing, is
# left as it is (the lowering then names it, and the graph falls back to eager).


def _random_ops():
    import torch
    aten = torch.ops.aten
    # op -> (the index of the argument whose shape the draw has, or None: a size list
    # at `size_at`), as the draw is made
    like = {aten.rand_like.default, aten.randn_like.default, aten.randint_like.default,
            aten.randint_like.low_dtype, aten.bernoulli.p}
    sized = {aten.rand.default: 0, aten.randn.default: 0, aten.randint.default: 1,
             aten.randint.low: 2}
    return aten, like, sized


def hoist_random(gm, constants=()):
    """(`gm`, []) when `gm` has no random op it takes, else (a copy of `gm` whose random
    ops read new trailing inputs, [one draw(args) -> tensor per new input]) ([Note:
    random draws by torch's generator]). The new placeholders carry fake values, so the
    importer types them. A draw reads the sizes it needs from the call's inputs: those
    of `gm` less the `constants` (placeholder indices the compiled code holds)."""
    import torch
    aten, like, sized = _random_ops()

    def takes(n):
        if n.op != "call_function" or n.kwargs.get("generator") is not None:
            return False
        if n.target is aten.native_dropout.default:
            return len(n.args) < 3 or n.args[2] is not False
        return n.target in like or n.target in sized
    if not any(takes(n) for n in gm.graph.nodes):
        return gm, []
    graph = torch.fx.Graph()
    out = graph.graph_copy(gm.graph, {})
    graph.output(out)
    places = [n for n in graph.nodes if n.op == "placeholder"]
    bind = _symbol_places([n for i, n in enumerate(places) if i not in constants])
    last = places[-1] if places else None
    draws, changed = [], False
    for node in list(graph.nodes):
        if not takes(node):
            continue
        val = node.meta.get("val")
        if node.target is aten.native_dropout.default:
            val = val[0] if isinstance(val, (tuple, list)) else val
        if not isinstance(val, torch.Tensor):
            continue
        try:
            shape = _run_shape(val.shape, bind)
        except _Unbound:
            continue
        if node.target is aten.native_dropout.default:
            if float(node.args[1]) >= 1.0:
                _dropout_all(graph, node)
                changed = True
                continue
            draw = _dropout_draw(float(node.args[1]), val.dtype, val.device, shape,
                                 _layout(node.args[0]))
        else:
            draw = _op_draw(node, shape, bind, like)
        with graph.inserting_after(last) if last is not None else \
                graph.inserting_before(next(iter(graph.nodes))):
            place = graph.placeholder(f"strata_draw_{len(draws)}")
        place.meta["val"] = _fake_like(val)
        last = place
        draws.append(draw)
        if node.target is aten.native_dropout.default:
            _dropout_from(graph, node, place)
        else:
            node.replace_all_uses_with(place)
            graph.erase_node(node)
    if not draws and not changed:
        return gm, []
    graph.lint()
    return torch.fx.GraphModule(gm, graph), draws


class _Unbound(Exception):
    """A size of the draw is a symbol no input gives."""


def _symbol_places(places):
    """{sympy symbol: (placeholder index, dim or None)}: where each symbol of the graph
    is found on a call (an int input, or a dim of a tensor input)."""
    import torch
    bind = {}
    for i, n in enumerate(places):
        val = n.meta.get("val")
        if isinstance(val, torch.SymInt) and val.node.expr.is_Symbol:
            bind.setdefault(val.node.expr, (i, None))
        elif isinstance(val, torch.Tensor):
            for d, s in enumerate(val.shape):
                if isinstance(s, torch.SymInt) and s.node.expr.is_Symbol:
                    bind.setdefault(s.node.expr, (i, d))
    return bind


def _run_shape(shape, bind):
    """A callable args -> the concrete sizes of `shape` on a call (its symbols read
    from the inputs that `bind` names); raises _Unbound."""
    import torch
    dims = []
    for s in shape:
        if isinstance(s, torch.SymInt):
            expr = s.node.expr
            if not expr.free_symbols <= set(bind):
                raise _Unbound()
            dims.append(expr)
        else:
            dims.append(int(s))
    if all(isinstance(d, int) for d in dims):
        return lambda args: dims

    def sizes(args):
        values = {}
        for sym, (i, d) in bind.items():
            a = args[i]
            values[sym] = int(a) if d is None else a.shape[d]
        return [d if isinstance(d, int) else int(d.xreplace(values)) for d in dims]
    return sizes


# [Note: draws in the input's layout]
# Eager's draws fill an `empty_like(x)`, which keeps x's layout: for a permuted x
# (nn.MultiheadAttention's batch_first output is a transposed view, dropout1 of
# nn.TransformerEncoderLayer reads it) the numbers fill memory in x's order, so the
# mask as indexed differs from that of a contiguous draw of the same shape. A draw is
# therefore made in the layout the traced value had: dims ordered by their strides
# (`_layout`), drawn contiguous in that order, then permuted back (what empty_like
# gives for a dense permuted tensor); eager's masks under one seed, not only the right
# distribution.


def _layout(arg):
    """The order of the dims of FX value `arg` from outermost to innermost in memory
    (by its traced strides), or None when it is the dims' own order or unknown."""
    import torch
    val = arg.meta.get("val") if hasattr(arg, "meta") else None
    if not isinstance(val, torch.Tensor) or val.dim() < 2:
        return None
    try:
        strides = [int(getattr(st, "node", None).hint if isinstance(st, torch.SymInt)
                       else st) for st in val.stride()]
        sizes = [int(getattr(sz, "node", None).hint if isinstance(sz, torch.SymInt)
                     else sz) for sz in val.shape]
    except (TypeError, ValueError, AttributeError):
        return None
    order = sorted(range(len(strides)), key=lambda d: (-strides[d], d))
    moving = [d for d in order if sizes[d] != 1]    # size-1 dims order nothing
    return None if moving == sorted(moving) else order


def _empty_in(layout, sizes, dtype, device):
    """An empty tensor of `sizes` laid out in memory as `layout` orders the dims."""
    import torch
    if layout is None:
        return torch.empty(sizes, dtype=dtype, device=device)
    t = torch.empty([sizes[d] for d in layout], dtype=dtype, device=device)
    inverse = [0] * len(layout)
    for i, d in enumerate(layout):
        inverse[d] = i
    return t.permute(inverse)


def _dropout_draw(p, dtype, device, shape, layout=None):
    keep = 1.0 - p

    def draw(args):
        return _empty_in(layout, shape(args), dtype, device).bernoulli_(keep)
    return draw


def _op_draw(node, shape, bind, like):
    """The draw of a random op: the op itself, called as the graph calls it, with an
    empty tensor of the draw's shape for its tensor argument (like ops) or the sizes
    evaluated (sized ops)."""
    import torch
    target, args, kwargs = node.target, list(node.args), dict(node.kwargs)
    if target in like:
        like_val = node.args[0].meta["val"]
        dtype, device = like_val.dtype, like_val.device
        layout = _layout(node.args[0])     # [Note: draws in the input's layout]

        def draw(call):
            a = list(args)
            a[0] = _empty_in(layout, shape(call), dtype, device)
            return target(*a, **kwargs)
        return draw
    _, _, sized = _random_ops()
    at = sized[target]

    def draw(call):
        a = list(args)
        a[at] = shape(call)
        return target(*a, **kwargs)
    return draw


def _fake_like(val):
    """A fake tensor of `val`'s shape and dtype, contiguous, in its fake mode."""
    import torch
    mode = getattr(val, "fake_mode", None)
    if mode is None:
        return torch.empty(val.shape, dtype=val.dtype, device=val.device)
    with mode:
        return torch.empty(val.shape, dtype=val.dtype, device=val.device)


def _dropout_from(graph, node, draw):
    """native_dropout(x, p, True) -> (x * (draw * 1/(1-p)), draw != 0): its two results
    (getitem users) rebound to ops of the drawn Bernoulli tensor."""
    import operator

    import torch
    aten = torch.ops.aten
    x, p = node.args[0], float(node.args[1])
    with graph.inserting_before(node):
        scaled = _call(graph, aten.mul.Tensor, draw, 1.0 / (1.0 - p))
        out = _call(graph, aten.mul.Tensor, x, scaled)
        mask = _call(graph, aten.ne.Scalar, draw, 0)
    _rebind(graph, node, (out, mask), operator)


def _dropout_all(graph, node):
    """native_dropout of p >= 1: (x * 0, all false), no draw (ATen's CPU dropout draws
    none either)."""
    import operator

    import torch
    aten = torch.ops.aten
    x = node.args[0]
    with graph.inserting_before(node):
        out = _call(graph, aten.mul.Tensor, x, 0.0)
        # x * 0 is 0 or NaN: never 1, the mask all false
        mask = _call(graph, aten.eq.Scalar, out, 1.0)
    _rebind(graph, node, (out, mask), operator)


def _call(graph, target, *args):
    """A node of `target(*args)` with its fake value (the importer types it)."""
    import torch
    node = graph.call_function(target, args)
    vals = [a.meta["val"] if isinstance(a, torch.fx.Node) else a for a in args]
    mode = next(v.fake_mode for v in vals if hasattr(v, "fake_mode"))
    with mode:
        node.meta["val"] = target(*vals)
    return node


def _rebind(graph, node, results, operator):
    for user in list(node.users):
        if user.op != "call_function" or user.target is not operator.getitem:
            raise StrataError(f"native_dropout's result used whole by {user.name}")
        user.replace_all_uses_with(results[user.args[1]])
        graph.erase_node(user)
    graph.erase_node(node)


# [Note: optimizer graphs]
# A compiled function that calls `optimizer.step()` (or a model whose forward updates
# state) hands the backend a graph of the step's arithmetic, with the parameters and
# the optimizer's state as inputs AOTAutograd writes back (input mutations). SGD with
# momentum traces to mul/add, Adam's moving averages to lerp (the core table's
# decomposition: where, mul, add). Dynamo itself writes `addcmul_`, `addcdiv_` and
# `add_` of a tensor alpha (Adam's second moment, Adagrad, RMSprop...) as `prims.fma`
# of Inductor's prims (torch/_dynamo/variables/tensor.py, under
# `enable_dynamo_decompositions`): no ATen op, the torch dialect has none, and the
# graph fell back; decomposed here as a * b + c (ATen's addcmul rounds the product
# too). Torch decomposes none of the `_foreach_` ops that clip_grad_norm_
# (`_foreach_norm`, `_foreach_mul_`) and the foreach=True optimizers trace to; each is
# its element op (`torch.<name>`; norm: vector_norm) on each position of its lists, the
# other arguments the same for every position, as ATen's slow path
# (ForeachOpsKernels.cpp) computes it; the in-place ones write each tensor in place,
# which AOTAutograd then functionalizes.


def decompositions() -> dict:
    """{op: decomposition} for the ops of training graphs ([Note: optimizer graphs])."""
    import torch
    table = {}
    # Dynamo's own: registered where Dynamo traced an addcmul_ / addcdiv_ / add_
    fma = getattr(getattr(torch.ops.prims, "fma", None), "default", None) \
        if hasattr(torch.ops.prims, "fma") else None
    if fma is not None:
        table[fma] = _fma
    table.update(_foreach_decompositions())
    aten = torch.ops.aten
    # [Note: bags of embeddings]: the forward is lowered whole, its gradient decomposed
    table[aten._embedding_bag_backward.default] = _embedding_bag_backward
    table[aten._embedding_bag_dense_backward.default] = _embedding_bag_dense_backward
    table[aten._embedding_bag_per_sample_weights_backward.default] = \
        _embedding_bag_per_sample_weights_backward
    for n in (1, 2, 3):   # [Note: replication padding's gradient]
        table[getattr(torch.ops.aten, f"replication_pad{n}d_backward").default] = \
            _replication_pad_backward
    return table


# [Note: bags of embeddings]
# nn.EmbeddingBag (F.embedding_bag: the sums, means or maxima of bags of embedding rows,
# a bag the indices from one offset to the next) reaches AOTAutograd as
# `_embedding_bag`, with `_embedding_bag_backward` for its gradient; torch decomposes
# neither. The forward is kept whole: convert-torch-to-linalg lowers all four of its
# results with the builder the export path uses ([Note: bags of embeddings, lowered]
# in conversion/torch_to_linalg/views.py: the bags, offset2bag, bag_size and
# max_indices), so both frontends compute nn.EmbeddingBag once. The backward is
# decomposed here from what the forward returned, for dense gradients of every mode:
#   offset2bag  as the forward gave it; where the forward gave none (ATen's sum mode
#               without padding_idx), the count of bag starts (offsets[1:]) at or
#               before each position, as ATen's backward makes it
#   sum, mean   grad_w = zeros(num_weights, D).index_put(indices, grad[offset2bag] (/
#               the bag's size for a mean; * per_sample_weights; 0 at padding_idx),
#               accumulate)
#   max         grad_w[max_indices[b, c], c] += grad[b, c] for the bags with rows
#               (a scatter_add; an empty bag's max_indices, 0, adds 0)
# sparse gradients and scale_grad_by_freq are left as they are (NotImplemented: the
# graph falls back).


def _offset2bag(indices, offsets, offset2bag, include_last_offset=False):
    """offset2bag as the forward gave it, or made from the offsets where it is empty."""
    import torch
    if offset2bag.numel() == indices.numel():
        return offset2bag
    nb = offsets.shape[0] - (1 if include_last_offset else 0)
    pos = torch.arange(indices.shape[0], device=indices.device)
    return (offsets[1:nb].unsqueeze(0) <= pos.unsqueeze(1)).sum(1)


def _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size,
                            maximum_indices, num_weights, scale_grad_by_freq, mode,
                            sparse, per_sample_weights, padding_idx=-1):
    if sparse:
        return NotImplemented
    nb = grad.shape[0]
    last = offsets.shape[0] == nb + 1
    return _embedding_bag_dense_backward(grad, indices,
                                         _offset2bag(indices, offsets, offset2bag, last),
                                         bag_size, maximum_indices, num_weights,
                                         scale_grad_by_freq, mode, per_sample_weights,
                                         padding_idx)


def _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
                                  num_weights, scale_grad_by_freq, mode,
                                  per_sample_weights, padding_idx=-1):
    import torch
    if mode not in (0, 1, 2) or scale_grad_by_freq:
        return NotImplemented
    zeros = torch.zeros(num_weights, grad.shape[1], dtype=grad.dtype, device=grad.device)
    if mode == 2:
        nonempty = (bag_size > 0).unsqueeze(1).to(grad.dtype)
        return zeros.scatter_add(0, maximum_indices.clamp_min(0), grad * nonempty)
    g = grad.index_select(0, offset2bag)
    if mode == 1:
        g = g / bag_size.index_select(0, offset2bag).clamp_min(1).unsqueeze(1).to(g.dtype)
    if per_sample_weights is not None:
        g = g * per_sample_weights.unsqueeze(1).to(g.dtype)
    if padding_idx >= 0:
        g = g * (indices != padding_idx).unsqueeze(1).to(g.dtype)
    return torch.index_put(zeros, (indices,), g, accumulate=True)


def _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets,
                                               offset2bag, mode, padding_idx=-1):
    """d out / d per_sample_weights[i] = grad[bag of i] . weight[indices[i]] (sum mode
    only, as ATen)."""
    if mode != 0:
        return NotImplemented
    last = offsets.shape[0] == grad.shape[0] + 1
    o2b = _offset2bag(indices, offsets, offset2bag, last)
    r = (grad.index_select(0, o2b) * weight.index_select(0, indices)).sum(1)
    if padding_idx >= 0:
        r = r * (indices != padding_idx).to(r.dtype)
    return r


# [Note: replication padding's gradient]
# replication_pad{1,2,3}d_backward (a convolution of padding_mode="replicate", F.pad
# mode "replicate"), which torch decomposes nowhere: along each padded dim of size W
# (its output W' = lo + W + hi), input 0 takes the gradient of output positions 0..lo
# (all clamp to it), input W - 1 those of lo + W - 1..W' - 1, every other input i the
# one of position lo + i; dim by dim from the last, as sums of slices and a concat.


def _replication_pad_backward(grad, x, padding):
    import torch
    n = len(padding) // 2
    if any(p < 0 for p in padding):
        return NotImplemented
    g = grad
    for k in range(n):
        dim = g.dim() - 1 - k
        lo, hi = padding[2 * k], padding[2 * k + 1]
        w = x.shape[dim]
        if w == 1:
            g = g.sum(dim, keepdim=True)
            continue
        first = g.narrow(dim, 0, lo + 1).sum(dim, keepdim=True)
        last = g.narrow(dim, lo + w - 1, hi + 1).sum(dim, keepdim=True)
        g = torch.cat([first, g.narrow(dim, lo + 1, w - 2), last], dim)
    return g


_FOREACH_TABLE = None
# `_foreach_<name>` ops whose element op is not `torch.<name>`
_FOREACH_SPECIAL = {"max": "amax"}


def _foreach_decompositions() -> dict:
    """{aten._foreach_*: the op mapped over its lists} ([Note: optimizer graphs]):
    torch decomposes none of the `_foreach_` ops (clip_grad_norm_'s _foreach_norm and
    _foreach_mul_, the steps of optimizers made with foreach=True)."""
    global _FOREACH_TABLE
    if _FOREACH_TABLE is not None:
        return _FOREACH_TABLE
    import torch
    table = {}
    names = {n.split("::")[1].split(".")[0] for n in torch._C._dispatch_get_all_op_names()
             if n.startswith("aten::_foreach_")}
    for name in names:
        base = name[len("_foreach_"):]
        in_place = base.endswith("_")
        base = base.rstrip("_")
        if base in ("powsum", "mm"):
            continue
        packet = getattr(torch.ops.aten, name)
        for overload in packet.overloads():
            if overload.endswith("out"):
                continue
            table[getattr(packet, overload)] = _foreach(base, in_place)
    _FOREACH_TABLE = table
    return table


def _foreach(base, in_place):
    """The decomposition of `_foreach_<base>` (`_` after: in place): the element op on
    each position of its lists (a list of scalars, or of tensors, zipped; any other
    argument the same for every position)."""
    def element(i, args, n):
        return [a[i] if isinstance(a, (list, tuple)) and len(a) == n else a for a in args]

    def decomposition(*args, **kwargs):
        import torch
        n = next(len(a) for a in args if isinstance(a, (list, tuple)))
        out = []
        for i in range(n):
            a = element(i, args, n)
            if base in ("addcmul", "addcdiv") and len(a) > 3:   # value: ScalarList/Tensor
                v = a.pop(3)
                kwargs = dict(kwargs, value=v.item() if isinstance(v, torch.Tensor) and
                              v.dim() == 0 else v)
            if in_place:
                first, rest = a[0], a[1:]
                if base == "zero":
                    first.zero_()
                elif base in ("maximum", "minimum") and not isinstance(rest[0],
                                                                       torch.Tensor):
                    getattr(first, "clamp_min_" if base == "maximum" else
                            "clamp_max_")(*rest)
                else:
                    getattr(first, base + "_")(*rest, **kwargs)
                continue
            if base == "zero":
                out.append(torch.zeros_like(a[0]))
            elif base == "copy":
                out.append(torch.ops.aten.copy(a[0], a[1]))
            elif base == "clone":
                out.append(a[0].clone())
            elif base == "norm":
                out.append(torch.linalg.vector_norm(*a, **kwargs))
            elif base in ("maximum", "minimum") and not isinstance(a[1], torch.Tensor):
                out.append((torch.clamp_min if base == "maximum" else torch.clamp_max)(*a))
            else:
                fn = getattr(torch, _FOREACH_SPECIAL.get(base, base))
                out.append(fn(*a, **kwargs))
        return None if in_place else out
    return decomposition


def _fma(a, b, c):
    """prims.fma(a, b, c) = a * b + c (Dynamo's form of `c.addcmul_(x, y, value=v)`:
    fma(x * y, v, c)), rounded after the product as ATen's addcmul on the CPU."""
    return a * b + c


