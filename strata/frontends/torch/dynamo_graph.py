"""Dynamo's torch-level FX graph rewritten to ATen ops without a trace: `aten_graph(gm)`.

Dynamo hands the torch.compile backend a graph of the calls the model made, at the
level of torch's Python API (functions of torch and torch.nn.functional, Tensor methods,
Python operators), each node with Dynamo's fake result (`example_value`):

    linear = torch._C._nn.linear(x, w, b)
    view = linear.view(1, 128, 12, 64)
    t = view.transpose(1, 2)
    add = t + 1.0
  ->
    linear = torch.ops.aten.linear.default(x, w, b)           # meta["val"]: the fake
    view = torch.ops.aten.view.default(linear, [1, 128, 12, 64])
    t = torch.ops.aten.transpose.int(view, 1, 2)
    add = torch.ops.aten.add.Tensor(t, 1.0)

The result is the graph make_fx's pre-dispatch trace gives ([Note: the pre-dispatch
trace] in dynamo.py) for the calls it knows, so import_graph takes it as it is: see
[Note: rewriting Dynamo's graph].
"""
from __future__ import annotations

import operator

__all__ = ["aten_graph"]

_I64_MAX = (1 << 63) - 1


# [Note: rewriting Dynamo's graph]
# The direct inference path of the torch.compile backend traced Dynamo's graph with
# make_fx (pre-dispatch) to get ATen ops: a second run of the whole model through
# torch's dispatcher, proxies and fake tensors (1 thread, process CPU: ViT-B/16 0.32 s,
# GPT-2 0.40, BERT-base 0.49, Llama 0.40, 7-10% of the first call). Yet each call of
# Dynamo's graph is, at that level, one ATen op whose arguments are the call's (linear,
# layer_norm, scaled_dot_product_attention, conv2d... are kept whole by the pre-dispatch
# trace), and Dynamo has already computed every result's fake tensor. So `aten_graph`
# rewrites the graph call by call, from a table of the Python API's calls to their ATen
# op (the binding's own choice of overload: `t + 1.0` is add.Tensor with a scalar, as
# the trace records it; `t != 1` ne.Scalar; `x[:, 0]` select, `x[None]` unsqueeze,
# `x[i, j]` with tensors index.Tensor), giving each node Dynamo's fake result as its
# `val` (only the intermediate ops of one call, an indexing chain, are run on the fakes).
# What the table does not know -- another call, another form of a known one (an
# in-place method, `.to` to another device, a keyword it does not take), a symbolic
# size -- makes the whole graph go the make_fx way, as before: the rewrite is an
# optimization, never a second semantics. Calls returning their input unchanged in
# value (`contiguous()`, `.to` of the tensor's own dtype and device) are dropped, as the
# trace drops `contiguous()` (it keeps `.to` as an alias, a copy in value semantics).
# tests/e2e/frontends/torch/test_torch_dynamo.py compares, per call form, the module
# imported from the rewrite with the one imported from the trace; the graphs of the
# seven models of bench/torch_models.py import the same ops both ways (Llama's one
# whole-dim slice, an `alias` in the trace, is dropped). Measured (1 thread, process
# CPU, loaded machine): BERT-base's graph 0.43-0.46 s traced, 0.04 s rewritten (3 runs
# each, one process); bench/torch_compile_stages.py's trace stage ViT-B/16 0.32 ->
# 0.04 s, GPT-2 0.40 -> 0.06 s.


class _Unknown(Exception):
    """A call the table does not rewrite."""


def aten_graph(gm):
    """`gm` (Dynamo's graph, static sizes) with every call rewritten to ATen ops, as a
    new torch.fx.GraphModule; None where a call is not in the table ([Note: rewriting
    Dynamo's graph])."""
    import torch
    import torch.fx
    graph = torch.fx.Graph()
    env = {}
    try:
        for node in gm.graph.nodes:
            if node.op == "placeholder":
                new = graph.placeholder(node.name)
                new.meta["val"] = _value(node)
                env[node] = new
            elif node.op == "output":
                graph.output(torch.fx.map_arg(node.args[0], lambda n: env[n]))
            elif node.op == "call_function" and node.target is \
                    torch._C._log_api_usage_once:
                continue   # a module's usage log (torch.nn's): nothing to compute
            elif node.op in ("call_function", "call_method"):
                env[node] = _Rewriter(torch, graph, env, node).run()
            else:
                return None
    except (_Unknown, TypeError, ValueError, IndexError, KeyError, AttributeError):
        # (a call of a form the rules do not expect: an argument they do not take...)
        return None
    return torch.fx.GraphModule(gm, graph)


def _value(node):
    import torch
    v = node.meta.get("example_value")
    if isinstance(v, torch.Tensor):
        if not all(type(d) is int for d in v.shape):
            raise _Unknown("symbolic size")
        return v
    if isinstance(v, (tuple, list)) and all(isinstance(t, torch.Tensor) for t in v):
        if not all(type(d) is int for t in v for d in t.shape):
            raise _Unknown("symbolic size")
        return v
    raise _Unknown("a result that is not a tensor")


class _Rewriter:
    """The ATen node(s) of one call of Dynamo's graph."""

    __slots__ = ("torch", "aten", "graph", "env", "node", "args", "kwargs", "val")

    def __init__(self, torch, graph, env, node):
        self.torch, self.aten, self.graph, self.env, self.node = \
            torch, torch.ops.aten, graph, env, node
        self.args = torch.fx.map_arg(node.args, lambda n: env[n])
        self.kwargs = torch.fx.map_arg(node.kwargs, lambda n: env[n])
        self.val = _value(node)

    def run(self):
        node = self.node
        if node.op == "call_method":
            rule = _METHODS.get(node.target)
        else:
            rule = _FUNCTIONS.get(node.target)
            if rule is None:
                rule = _OPERATORS.get(node.target)
        if rule is None:
            raise _Unknown(f"{node.target}")
        return rule(self, *self.args, **self.kwargs)

    # ------------------------------------------------------------ helpers

    def emit(self, op, args, kwargs=None, val=None):
        """A node calling ATen `op`; its value Dynamo's result, or `val` (an
        intermediate op of the call)."""
        new = self.graph.call_function(op, tuple(args), dict(kwargs or {}))
        new.meta["val"] = self.val if val is None else val
        trace = self.node.meta.get("stack_trace")
        if trace is not None:
            new.meta["stack_trace"] = trace
        return new

    def intermediate(self, op, args, kwargs=None):
        """A node of `op` that is not the call's last: its value computed on the
        fakes."""
        def fake(a):
            return a.meta["val"] if isinstance(a, self.torch.fx.Node) else a
        mode = self.val.fake_mode
        with mode:
            val = op(*[fake(a) for a in args],
                     **{k: fake(v) for k, v in (kwargs or {}).items()})
        return self.emit(op, args, kwargs, val)

    def tensor(self, a) -> bool:
        return isinstance(a, self.torch.fx.Node) and \
            isinstance(a.meta.get("val"), self.torch.Tensor)

    def fake(self, a):
        return a.meta["val"]


def _scalar(a) -> bool:
    return isinstance(a, (int, float, bool)) and not isinstance(a, type)


def _ints(shape) -> list:
    """A size given as `view(2, 3)`, `view((2, 3))` or `view([2, 3])`: a list of ints."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    if not all(type(d) is int for d in shape):
        raise _Unknown("a size that is not ints")
    return list(shape)


def _schema_call(op):
    """A rule calling `op` with the call's arguments, when the schema takes them as
    given (positional ones in order, keywords by name)."""
    def rule(r, *args, **kwargs):
        names = [a.name for a in op._schema.arguments]
        if len(args) > len(names) or any(k not in names[len(args):] for k in kwargs):
            raise _Unknown(f"arguments of {op}")
        return r.emit(op, args, kwargs)
    return rule


# ---------------------------------------------------------------- torch functions


def _layer_norm(r, x, normalized_shape, weight=None, bias=None, eps=1e-5):
    return r.emit(r.aten.layer_norm.default,
                  (x, _ints([normalized_shape]) if isinstance(normalized_shape, int)
                   else _ints((normalized_shape,)), weight, bias, eps,
                   r.torch.backends.cudnn.enabled))


def _dropout(r, x, p=0.5, training=True, inplace=False):
    if inplace is not False:
        raise _Unknown("in-place dropout")
    return r.emit(r.aten.dropout.default, (x, p, training))


def _embedding(r, x, weight, padding_idx=None, max_norm=None, norm_type=2.0,
               scale_grad_by_freq=False, sparse=False):
    if max_norm is not None:
        raise _Unknown("embedding with max_norm (it renormalizes the weight in place)")
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += r.fake(weight).shape[0]
    return r.emit(r.aten.embedding.default, (weight, x, padding_idx, scale_grad_by_freq,
                                             sparse))


def _arange(r, *args, dtype=None, layout=None, device=None, pin_memory=False,
            requires_grad=False):
    if not all(_scalar(a) for a in args) or layout not in (None, r.torch.strided) or \
            requires_grad:
        raise _Unknown("arange of these arguments")
    op = {1: r.aten.arange.default, 2: r.aten.arange.start,
          3: r.aten.arange.start_step}.get(len(args))
    if op is None:
        raise _Unknown("arange of these arguments")
    kwargs = {"device": device, "pin_memory": pin_memory}
    if dtype is not None:
        kwargs["dtype"] = dtype
    return r.emit(op, args, kwargs)


def _pow(r, x, exponent):
    if r.tensor(x) and r.tensor(exponent):
        return r.emit(r.aten.pow.Tensor_Tensor, (x, exponent))
    if r.tensor(x) and _scalar(exponent):
        return r.emit(r.aten.pow.Tensor_Scalar, (x, exponent))
    if _scalar(x) and r.tensor(exponent):
        return r.emit(r.aten.pow.Scalar, (x, exponent))
    raise _Unknown("pow of these arguments")


def _unary(name):
    def rule(r, x):
        if not r.tensor(x):
            raise _Unknown(f"{name} of a non-tensor")
        return r.emit(getattr(r.aten, name).default, (x,))
    return rule


def _activation(name):
    """F.relu / hardswish / silu...: (input, inplace=False); in place, the ATen op's
    in-place form, which import_graph's plan reads as the functional one where only
    the value is rebound (else the graph is traced)."""
    def rule(r, x, inplace=False):
        if not r.tensor(x) or type(inplace) is not bool:
            raise _Unknown(f"{name} of these arguments")
        return r.emit(getattr(r.aten, name + "_" if inplace else name).default, (x,))
    return rule


def _batch_norm(r, x, running_mean, running_var, weight=None, bias=None, training=False,
                momentum=0.1, eps=1e-5):
    return r.emit(r.aten.batch_norm.default,
                  (x, weight, bias, running_mean, running_var, training, momentum, eps,
                   r.torch.backends.cudnn.enabled))


def _pair(v) -> list:
    return _ints([v, v]) if type(v) is int else _ints((v,))


def _max_pool2d(r, x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                return_indices=False):
    if return_indices is not False:
        raise _Unknown("max_pool2d with indices")
    return r.emit(r.aten.max_pool2d.default,
                  (x, _pair(kernel_size), [] if stride is None else _pair(stride),
                   _pair(padding), _pair(dilation), ceil_mode))


def _adaptive_avg_pool2d(r, x, output_size):
    size = [output_size, output_size] if type(output_size) is int else list(output_size)
    shape = r.fake(x).shape
    size = [shape[len(shape) - 2 + i] if s is None else s for i, s in enumerate(size)]
    return r.emit(r.aten.adaptive_avg_pool2d.default, (x, _ints((size,))))


def _gelu(r, x, approximate="none"):
    return r.emit(r.aten.gelu.default, (x,), {} if approximate == "none"
                  else {"approximate": approximate})


def _conv2d(r, x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        raise _Unknown("conv2d with a padding mode")

    return r.emit(r.aten.conv2d.default, (x, weight, bias, _pair(stride), _pair(padding),
                                          _pair(dilation), groups))


def _cat(r, tensors, dim=0):
    if not isinstance(tensors, (list, tuple)) or not all(r.tensor(t) for t in tensors):
        raise _Unknown("cat of these arguments")
    return r.emit(r.aten.cat.default, (list(tensors), dim))


def _flatten(r, x, start_dim=0, end_dim=-1):
    return r.emit(r.aten.flatten.using_ints, (x, start_dim, end_dim))


def _softmax(name):
    def rule(r, x, dim=None, _stacklevel=3, dtype=None):
        if dim is None:
            raise _Unknown(f"{name} without a dim")
        return r.emit(getattr(r.aten, name).int, (x, dim, dtype))
    return rule


def _diff(r, x, n=1, dim=-1, prepend=None, append=None):
    return r.emit(r.aten.diff.default, (x, n, dim, prepend, append))


# ---------------------------------------------------------------- Python operators

# operator -> (ATen name, whether a scalar second operand takes the .Scalar overload)
_BINARY = {operator.add: ("add", False), operator.sub: ("sub", False),
           operator.mul: ("mul", False), operator.truediv: ("div", False),
           operator.eq: ("eq", True), operator.ne: ("ne", True), operator.lt: ("lt", True),
           operator.le: ("le", True), operator.gt: ("gt", True), operator.ge: ("ge", True),
           operator.and_: ("__and__", True), operator.or_: ("__or__", True)}
# a scalar first operand: (operator -> the same op with the operands swapped)
_SWAPPED = {operator.add: operator.add, operator.mul: operator.mul,
            operator.eq: operator.eq, operator.ne: operator.ne, operator.lt: operator.gt,
            operator.le: operator.ge, operator.gt: operator.lt, operator.ge: operator.le,
            operator.and_: operator.and_, operator.or_: operator.or_}


def _binary(fn):
    def rule(r, a, b):
        if r.tensor(a) and r.tensor(b):
            return r.emit(getattr(r.aten, _BINARY[fn][0]).Tensor, (a, b))
        if r.tensor(a) and _scalar(b):
            name, scalar = _BINARY[fn]
            return r.emit(getattr(getattr(r.aten, name), "Scalar" if scalar else "Tensor"),
                          (a, b))
        if _scalar(a) and r.tensor(b):
            if fn is operator.sub:   # s - t
                return r.emit(r.aten.rsub.Scalar, (b, a))
            swapped = _SWAPPED.get(fn)
            if swapped is not None:
                return rule_of(swapped)(r, b, a)
        raise _Unknown(f"{fn.__name__} of these operands")
    return rule


def rule_of(fn):
    return _OPERATORS[fn]


# in-place operators on a tensor: the ATen op's in-place form (see _activation)
_IN_PLACE = {operator.iadd: "add_", operator.isub: "sub_", operator.imul: "mul_"}


def _in_place(fn):
    def rule(r, a, b):
        if not r.tensor(a) or not (r.tensor(b) or _scalar(b)):
            raise _Unknown(f"{fn.__name__} of these operands")
        return r.emit(getattr(r.aten, _IN_PLACE[fn]).Tensor, (a, b))
    return rule


def _neg(r, x):
    if not r.tensor(x):
        raise _Unknown("neg of a non-tensor")
    return r.emit(r.aten.neg.default, (x,))


def _getitem(r, x, index):
    if isinstance(x, (list, tuple)) or not r.tensor(x):
        # an item of a multi-result call (split): Dynamo's value is a tuple of tensors
        if isinstance(x, r.torch.fx.Node) and isinstance(x.meta.get("val"), (list, tuple)) \
                and type(index) is int:
            return r.emit(operator.getitem, (x, index))
        raise _Unknown("getitem of a non-tensor")
    items = list(index) if isinstance(index, tuple) else [index]
    full = slice(None)
    if any(r.tensor(i) for i in items):
        # advanced indexing: tensors, and full slices before them
        if not all(r.tensor(i) or i == full for i in items) or \
                any(r.fake(i).dtype in (r.torch.bool, r.torch.uint8)
                    for i in items if r.tensor(i)):   # masks: a size known by running
            raise _Unknown("this mix of indices")
        indices = [i if r.tensor(i) else None for i in items]
        while indices and indices[-1] is None:
            indices.pop()
        return r.emit(r.aten.index.Tensor, (x, indices))
    if sum(i is Ellipsis for i in items) > 1:
        raise _Unknown("two ellipses")
    shape = r.fake(x).shape
    given = sum(i is not None and i is not Ellipsis for i in items)
    if given > len(shape):
        raise _Unknown("too many indices")
    # dim: the dim of the result so far; axis: the dim of x the index reads
    steps, dim, axis = [], 0, 0
    for i in items:
        if i is None:
            steps.append((r.aten.unsqueeze.default, (dim,)))
            dim += 1
        elif i is Ellipsis:
            dim += len(shape) - given
            axis += len(shape) - given
        elif type(i) is int:
            if not -shape[axis] <= i < shape[axis]:
                raise _Unknown("an index out of range (torch's error to give)")
            steps.append((r.aten.select.int, (dim, i)))
            axis += 1
        elif isinstance(i, slice):
            start, stop, step = i.start, i.stop, 1 if i.step is None else i.step
            if not all(v is None or type(v) is int for v in (start, stop)) or \
                    type(step) is not int or step <= 0:
                raise _Unknown("a slice of these bounds")
            if not _whole(start, stop, step, shape[axis]):
                # (as torch's indexing writes it: 0 and INT64_MAX for an open end)
                steps.append((r.aten.slice.Tensor,
                              (dim, 0 if start is None else start,
                               _I64_MAX if stop is None else stop)
                              + ((step,) if step != 1 else ())))
            dim += 1
            axis += 1
        else:
            raise _Unknown(f"an index of type {type(i).__name__}")
    if not steps:
        return x   # x[:], x[...]: x itself
    for op, args in steps[:-1]:
        x = r.intermediate(op, (x,) + args)
    op, args = steps[-1]
    return r.emit(op, (x,) + args)


def _whole(start, stop, step, n) -> bool:
    """Whether the slice start:stop:step of a dim of size n takes all of it."""
    start = 0 if start is None else min(max(start + n if start < 0 else start, 0), n)
    stop = n if stop is None else min(max(stop + n if stop < 0 else stop, 0), n)
    return step == 1 and start == 0 and stop == n


# ---------------------------------------------------------------- Tensor methods


def _view(name):
    def rule(r, x, *shape):
        if len(shape) == 1 and isinstance(shape[0], r.torch.dtype):
            raise _Unknown(f"{name} as another dtype")
        return r.emit(getattr(r.aten, name).default, (x, _ints(shape)))
    return rule


def _transpose(r, x, dim0, dim1):
    return r.emit(r.aten.transpose.int, (x, dim0, dim1))


def _permute(r, x, *dims):
    return r.emit(r.aten.permute.default, (x, _ints(dims)))


def _contiguous(r, x, memory_format=None):
    if memory_format not in (None, r.torch.contiguous_format):
        raise _Unknown("contiguous in another memory format")
    return x


def _unsqueeze(r, x, dim):
    return r.emit(r.aten.unsqueeze.default, (x, dim))


def _split(r, x, split_size, dim=0):
    if type(split_size) is int:
        return r.emit(r.aten.split.Tensor, (x, split_size, dim))
    return r.emit(r.aten.split_with_sizes.default, (x, _ints((split_size,)), dim))


def _to(r, x, *args, **kwargs):
    """`.to(dtype)` and `.to(device)` of the tensor's own device; other forms (another
    device, copy=, memory_format=, another tensor) are the trace's."""
    fake = r.fake(x)
    dtype, device = kwargs.pop("dtype", None), kwargs.pop("device", None)
    for a in args:
        if isinstance(a, r.torch.dtype) and dtype is None:
            dtype = a
        elif isinstance(a, (r.torch.device, str)) and device is None:
            device = a
        else:
            raise _Unknown(".to of these arguments")
    if kwargs or device is not None and r.torch.device(device) != fake.device:
        raise _Unknown(".to of these arguments")
    if dtype is None or dtype == fake.dtype:
        return x
    return r.emit(r.aten.to.dtype, (x, dtype))


def _float(r, x):
    return _to(r, x, r.torch.float32)


def _gather(r, x, dim, index, sparse_grad=False):
    if sparse_grad is not False:
        raise _Unknown("gather with sparse_grad")
    return r.emit(r.aten.gather.default, (x, dim, index))


def _mean(r, x, dim=None, keepdim=False, dtype=None):
    if dim is None:
        if keepdim:
            raise _Unknown("mean with keepdim and no dim")
        return r.emit(r.aten.mean.default, (x,), {} if dtype is None else {"dtype": dtype})
    dims = [dim] if type(dim) is int else _ints((dim,))
    return r.emit(r.aten.mean.dim, (x, dims, keepdim), {} if dtype is None
                  else {"dtype": dtype})


def _new_ones(r, x, *size, dtype=None, layout=None, device=None, pin_memory=None,
              requires_grad=False):
    if layout not in (None, r.torch.strided) or requires_grad:
        raise _Unknown("new_ones of these arguments")
    kwargs = {k: v for k, v in (("dtype", dtype), ("device", device),
                                ("pin_memory", pin_memory)) if v is not None}
    return r.emit(r.aten.new_ones.default, (x, _ints(size)), kwargs)


def _cumsum(r, x, dim, dtype=None):
    return r.emit(r.aten.cumsum.default, (x, dim), {} if dtype is None
                  else {"dtype": dtype})


def _expand(r, x, *sizes):
    return r.emit(r.aten.expand.default, (x, _ints(sizes)))


def _method_pow(r, x, exponent):
    return _pow(r, x, exponent)


def _tables():
    import torch
    F = torch.nn.functional
    aten = torch.ops.aten
    functions = {
        torch._C._nn.linear: _schema_call(aten.linear.default),
        torch._C._nn.scaled_dot_product_attention:
            _schema_call(aten.scaled_dot_product_attention.default),
        torch._C._nn.gelu: _gelu,
        F.gelu: _gelu,
        F.layer_norm: _layer_norm,
        F.dropout: _dropout,
        F.embedding: _embedding,
        F.relu: _activation("relu"),
        F.silu: _activation("silu"),
        F.softmax: _softmax("softmax"),
        F.hardswish: _activation("hardswish"),
        F.hardsigmoid: _activation("hardsigmoid"),
        F.batch_norm: _batch_norm,
        F.max_pool2d: _max_pool2d,
        F.adaptive_avg_pool2d: _adaptive_avg_pool2d,
        torch.addmm: _schema_call(aten.addmm.default),
        torch.matmul: _schema_call(aten.matmul.default),
        torch.arange: _arange,
        torch.pow: _pow,
        torch.tanh: _unary("tanh"),
        torch.rsqrt: _unary("rsqrt"),
        torch.relu: _unary("relu"),
        torch.sigmoid: _unary("sigmoid"),
        torch.conv2d: _conv2d,
        torch.cat: _cat,
        torch.flatten: _flatten,
        torch.diff: _diff,
        torch.gather: _gather,
    }
    operators = {fn: _binary(fn) for fn in _BINARY}
    operators.update({fn: _in_place(fn) for fn in _IN_PLACE})
    operators[operator.neg] = _neg
    operators[operator.pow] = _pow
    operators[operator.getitem] = _getitem
    methods = {
        "view": _view("view"), "reshape": _view("reshape"), "transpose": _transpose,
        "permute": _permute, "contiguous": _contiguous, "unsqueeze": _unsqueeze,
        "split": _split, "to": _to, "mean": _mean, "new_ones": _new_ones,
        "cumsum": _cumsum, "expand": _expand, "pow": _method_pow, "flatten": _flatten,
        "tanh": _unary("tanh"), "rsqrt": _unary("rsqrt"), "neg": _unary("neg"),
        "cos": _unary("cos"), "sin": _unary("sin"), "float": _float, "gather": _gather,
    }
    return functions, operators, methods


class _LazyTable(dict):
    """One of the tables, built on first use (torch is imported only then)."""

    def __init__(self, which):
        super().__init__()
        self.which, self.built = which, False

    def get(self, key, default=None):
        if not self.built:
            self.update(_tables()[self.which])
            self.built = True
        return super().get(key, default)

    def __getitem__(self, key):
        self.get(key)
        return super().__getitem__(key)


_FUNCTIONS = _LazyTable(0)
_OPERATORS = _LazyTable(1)
_METHODS = _LazyTable(2)
