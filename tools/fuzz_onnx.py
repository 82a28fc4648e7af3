"""A differential fuzzer: random valid ONNX graphs through Strata against onnxruntime.

Each case is a random graph of 2-8 ops of the common op set (elementwise unary and binary
with broadcasting, MatMul/Gemm, Conv, pooling, data movement, reductions, Softmax,
LayerNormalization, Where and comparisons, Cast, Clip, ...), on float and int tensors,
with static shapes or inputs whose dims are `dim_param`s, built from one integer seed.
The graph is checked (onnx.checker, strict shape inference, onnxruntime runs it), then
compiled with Strata for `interpret` and `cpu` and run on the same random inputs; the
outputs are compared with onnxruntime's (shapes and dtypes exactly, ints and bools
exactly, floats within a tolerance of the dtype and of the magnitudes the graph went
through, see [Note: fuzz tolerances]). A case of `--seed S` is reproduced alone by
`--seed S+i --count 1`.

    $ python tools/fuzz_onnx.py --count 500 --seed 0 --jobs 2 --out fuzz_out
    [    0] pass       Neg Reshape Softmax ReduceSumSquare
    [    7] mismatch   ReduceL2 Floor LayerNormalization Mean
            interpret: output #0 (y7): 1/20 elements differ (rtol 1e-07, ...) ...
    ...
    500 cases in 1800 s: crash 0  hang 0  traceback 0  mismatch 1  refusal 0  ...

Every case runs in its own process (forked from a parent that imported everything once,
see [Note: one process per case]); a case that dies of a signal is a `crash`, one past
`--timeout` a `hang`. The categories, worst first:

    crash       the process died of a signal (segfault, abort)
    hang        it ran past --timeout
    traceback   an exception that is not a StrataError (a bug in Strata)
    mismatch    outputs differ from onnxruntime's
    refusal     a clean StrataError on a valid model that no entry of REFUSALS documents
    documented  a refusal in REFUSALS or a difference in DIFFERENCES (each with a reason)
    invalid     the generator made a model onnx or onnxruntime rejects (a fuzzer bug)
    pass

Findings (every category but pass and documented) are saved to `--out`/seed_<S>/: the
model, the inputs (`inputs.npz`) and `finding.txt` with the messages.

[Note: one process per case]
A crash in compiled code must not take the fuzzer down and a hang must be stoppable, so
each case runs in a child process. Forking from a parent that imported numpy, onnx,
onnxruntime and strata (and started no thread: no onnxruntime session, no compiled
model) makes a case cost its work, not a second of imports. The child reports each stage
it reaches on a pipe ("ort", "interpret", "cpu") and its result as one JSON line last;
the parent knows from the last stage where a signal or a timeout struck.

[Note: fuzz tolerances]
Ints and bools compare exactly. Floats compare as |strata - ort| <= atol + rtol * |ort|
with atol = k * mag, where mag is the largest magnitude any tensor upstream of the
output can take (the generator tracks an interval per tensor): rounding errors scale
with the values an output was computed from, not with the output (Sub of two large
nearly equal sums). k and rtol are larger for f32 graphs with accumulations (MatMul,
Conv, reductions, normalizations: other summation orders, Winograd, FMA). Ops whose
output jumps on a rounding difference (Floor, Round, Sign, comparisons, ArgMax, casts to
int) only get inputs computed exactly (inputs, data movement, Relu, Max, ...), so that
both sides see the same bits; domains are kept (Log of positives above 0.1, Exp below
10, divisors away from 0, ints far from overflow) so the models are well defined.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import select
import signal
import sys
import time
import traceback

import numpy as np

# ---------------------------------------------------------------- documented behaviour

# Clean refusals a valid model may get: (message substring, reason).
REFUSALS = [
    ("Squeeze without axes needs a static input shape",
     "Squeeze without axes on a dynamic input: which dims are 1 is only known at run "
     "time and would decide the result's rank; Strata's tensors have a static rank"),
]

# Deliberate semantic differences from onnxruntime: (name, predicate on an onnx
# NodeProto, reason). A mismatch of a case holding such a node is `documented` when
# Strata's outputs then match the ONNX reference implementation's (onnx.reference):
# Strata follows the ONNX definition where onnxruntime departs from it. Any other
# mismatch stays a mismatch.
def _attr(node, name, default=None):
    from onnx import helper
    for a in node.attribute:
        if a.name == name:
            v = helper.get_attribute_value(a)
            return v.decode() if isinstance(v, bytes) else v
    return default


DIFFERENCES = [
    ("resize-align-corners-scales",
     lambda n: n.op_type == "Resize" and _attr(n, "coordinate_transformation_mode") ==
     "align_corners" and (len(n.input) < 4 or not n.input[3]),
     "Resize with scales and align_corners: ONNX maps x_resized to x_resized * "
     "(in - 1) / (in * scale - 1), the length the scale gives (onnx.reference); "
     "onnxruntime divides by the floored output length minus 1 instead, so it picks "
     "other source pixels when in * scale is not an integer"),
]


# ---------------------------------------------------------------- the generator

FLOATS = ("float32", "float64")
F32 = ("float32",)  # onnxruntime has no double kernel of some activations
INTS = ("int32", "int64")
_LIMIT = {"int32": 2.0 ** 24, "int64": 2.0 ** 40, "float32": 1e6, "float64": 1e6,
          "bool": 1.0}
_ACCUM = {"MatMul", "Gemm", "Conv", "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1",
          "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp", "Softmax", "LogSoftmax",
          "LayerNormalization", "BatchNormalization", "InstanceNormalization",
          "AveragePool", "GlobalAveragePool", "Mean", "Sum", "Pow", "CumSum"}


class Tensor:
    """A value of the graph being built: its concrete (run-time) shape, an interval
    holding every element, whether it is computed exactly (the same bits in any correct
    implementation) and the largest magnitude upstream of it."""
    __slots__ = ("name", "dtype", "shape", "lo", "hi", "exact", "mag", "f32")

    def __init__(self, name, dtype, shape, lo, hi, exact, mag=0.0, f32=False):
        self.name, self.dtype, self.shape = name, dtype, tuple(int(d) for d in shape)
        self.lo, self.hi, self.exact = float(lo), float(hi), exact
        self.mag = max(mag, abs(self.lo), abs(self.hi))
        # computed in float32 somewhere upstream (a float64 Cast of it keeps f32 error)
        self.f32 = f32 or dtype == "float32"

    @property
    def rank(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


def _bcast(a, b):
    r = max(len(a), len(b))
    a, b = (1,) * (r - len(a)) + tuple(a), (1,) * (r - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 1 in (x, y) else x)
    return tuple(out)


class Skip(Exception):
    """The op drawn cannot apply here; draw another."""


class Gen:
    """Builds one random graph from a seed (see the module docstring)."""

    def __init__(self, seed, ops=None, nodes=(2, 8)):
        import onnx  # noqa: F401
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.opset = int(self.rng.choice([17, 18, 18, 21]))
        self.dynamic = self.rng.random() < 0.5
        # Some graphs get larger tensors: the CPU kernels' vector tails, packing,
        # threading and Winograd paths start past the small sizes.
        self.big = self.rng.random() < 0.2
        self.nodes, self.inits, self.inputs, self.feeds = [], [], [], {}
        self.pool: list[Tensor] = []
        self.consumed: set[str] = set()
        self.ops_used: list[str] = []
        self.n = 0
        self.table = {k: v for k, v in OPS.items() if ops is None or k in ops}
        if not self.table:
            raise SystemExit(f"no known op in {ops}")
        self.nodes_range = nodes

    # -- names, values, inputs

    def name(self, p="t"):
        self.n += 1
        return f"{p}{self.n}"

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def values(self, dtype, shape, lo=None, hi=None):
        r = self.rng
        if dtype == "bool":
            return np.asarray(r.random(shape) < 0.5)
        if dtype in INTS:
            lo = -9 if lo is None else int(lo)
            hi = 9 if hi is None else int(hi)
            return r.integers(lo, hi + 1, size=shape).astype(dtype)
        if lo is not None:
            v = r.uniform(lo, hi, size=shape)
        else:
            v = r.standard_normal(shape) * self.choice([1.0, 1.0, 3.0])
        if r.random() < 0.3:  # a coarse grid: ties for comparisons, exact sums
            v = np.round(v * 2) / 2
            if lo is not None:
                v = np.clip(v, lo, hi)
        return np.asarray(v, dtype=dtype)

    def leaf(self, dtype, shape, const=None, lo=None, hi=None, nonzero=False):
        """A new graph input (or initializer when `const`, or at random)."""
        from onnx import helper, numpy_helper
        shape = tuple(int(d) for d in shape)
        v = self.values(dtype, shape, lo, hi)
        if nonzero and dtype in INTS:
            v = np.where(v == 0, 1, v).astype(dtype)
        if nonzero and dtype in FLOATS:
            v = np.where(np.abs(v) < 0.5, np.where(v < 0, -0.5, 0.5) + v, v).astype(dtype)
        if const is None:
            const = self.rng.random() < 0.4
        name = self.name("w" if const else "x")
        if const:
            self.inits.append(numpy_helper.from_array(v, name))
        else:
            dims = []
            for i, d in enumerate(shape):
                if self.dynamic and self.rng.random() < 0.5:
                    dims.append(f"n{d}" if self.rng.random() < 0.6 else f"u{self.n}_{i}")
                else:
                    dims.append(d)
            self.inputs.append(helper.make_tensor_value_info(name, _ELEM[dtype], dims))
            self.feeds[name] = v
        lo_, hi_ = (float(v.min()), float(v.max())) if v.size else (0.0, 0.0)
        t = Tensor(name, dtype, shape, lo_, hi_, True)
        return t

    def const(self, array, dtype="int64"):
        from onnx import numpy_helper
        name = self.name("c")
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype=dtype), name))
        return name

    def rand_shape(self, rank=None, lo=1, hi=5):
        if self.big and rank is None and self.rng.random() < 0.5:
            rank = int(self.rng.integers(1, 4))
            hi = {1: 300, 2: 40, 3: 16}[rank]
        rank = int(self.rng.integers(0, 5)) if rank is None else rank
        return tuple(int(d) if self.rng.random() > 0.2 else 1
                     for d in self.rng.integers(lo, hi + 1, size=rank))

    # -- operands

    def pick(self, ok=lambda t: True, make=None):
        """A tensor of the pool satisfying `ok` (unconsumed and recent ones first), else
        `make()` (a new leaf)."""
        cands = [t for t in self.pool if ok(t)]
        if cands and (make is None or self.rng.random() < 0.85):
            w = np.array([(3.0 if t.name not in self.consumed else 1.0) * (1 + i)
                          for i, t in enumerate(cands)])
            return cands[int(self.rng.choice(len(cands), p=w / w.sum()))]
        if make is None:
            raise Skip
        t = make()
        if not ok(t):
            raise Skip
        return t

    def pick_float(self, ok=lambda t: True, rank=None):
        dt = "float32" if self.rng.random() < 0.85 else "float64"
        return self.pick(lambda t: t.dtype in FLOATS and (rank is None or t.rank in rank)
                         and ok(t),
                         lambda: self.leaf(dt, self.rand_shape(
                             None if rank is None else self.choice(list(rank)))))

    def pick_num(self, ok=lambda t: True):
        dt = self.choice(["float32", "float32", "float64", "int64", "int64", "int32"])
        return self.pick(lambda t: t.dtype != "bool" and ok(t),
                         lambda: self.leaf(dt, self.rand_shape()))

    def partner(self, a, dtype=None, unidirectional=False, **kw):
        """A second operand broadcasting with `a` (from the pool or new)."""
        dtype = dtype or a.dtype
        ok = (lambda t: t.dtype == dtype and (_bcast(a.shape, t.shape) == a.shape
                                              if unidirectional else
                                              _bcast(a.shape, t.shape) is not None))
        cands = [t for t in self.pool if ok(t)]
        if cands and not kw and self.rng.random() < 0.5:
            return self.choice(cands)
        r = a.rank
        nr = int(self.rng.integers(max(0, r - 2), r + (1 if unidirectional else 2)))
        shape = []
        for i in range(nr):
            j = r - nr + i
            if j < 0:
                shape.append(int(self.rng.integers(1, 4)))
            elif self.rng.random() < 0.3:
                shape.append(1)
            else:
                shape.append(a.shape[j])
        if not unidirectional and self.rng.random() < 0.2:
            # a's 1-dims grow to the partner's
            shape = [int(self.rng.integers(2, 4)) if j >= 0 and a.shape[j] == 1 and
                     self.rng.random() < 0.5 else s
                     for s, j in zip(shape, range(r - nr, r))]
        return self.leaf(dtype, shape, **kw)

    # -- nodes

    def node(self, op, ins, dtype, shape, lo, hi, exact, n_out=1, **attrs):
        from onnx import helper
        outs = [self.name("y") for _ in range(n_out)]
        names = [i.name if isinstance(i, Tensor) else i for i in ins]
        self.nodes.append(helper.make_node(op, names, outs, name=f"{op}_{len(self.nodes)}",
                                           **attrs))
        mag = max([i.mag for i in ins if isinstance(i, Tensor)] + [0.0])
        f32 = any(i.f32 and not i.exact for i in ins if isinstance(i, Tensor))
        for i in ins:
            if isinstance(i, Tensor):
                self.consumed.add(i.name)
        lim = _LIMIT[dtype]
        if not (abs(lo) <= lim and abs(hi) <= lim) or math.isnan(lo) or math.isnan(hi):
            raise Skip
        t = Tensor(outs[0], dtype, shape, lo, hi, exact, mag, f32)
        self.pool.append(t)
        self.ops_used.append(op)
        return t

    def build(self):
        """(model, feeds): the graph, checked by onnx (checker, strict inference)."""
        import onnx
        from onnx import helper
        lo, hi = self.nodes_range
        want = int(self.rng.integers(lo, hi + 1))
        names = sorted(self.table)
        w = np.array([1.0 if n in _UNARY else 3.0 for n in names])
        w /= w.sum()
        tries = 0
        while len(self.ops_used) < want and tries < 200:
            tries += 1
            op = names[int(self.rng.choice(len(names), p=w))]
            state = (len(self.nodes), len(self.inits), len(self.inputs), dict(self.feeds),
                     len(self.pool), set(self.consumed), len(self.ops_used), self.n)
            try:
                self.table[op](self)
            except (Skip, OverflowError, ZeroDivisionError, ValueError):
                (n_nodes, n_inits, n_inputs, self.feeds, n_pool, self.consumed,
                 n_ops, self.n) = state
                del self.nodes[n_nodes:], self.inits[n_inits:], self.inputs[n_inputs:]
                del self.pool[n_pool:], self.ops_used[n_ops:]
        outs = [t for t in self.pool if t.name not in self.consumed]
        if not outs:
            raise SystemExit(f"seed {self.seed}: the generator made no node")
        # As exporters do: an intermediate that is also an output (its buffer returned
        # while other ops read it), now and then first.
        inner = [t for t in self.pool if t.name in self.consumed]
        if inner and self.rng.random() < 0.3:
            outs.insert(int(self.rng.integers(len(outs) + 1)), self.choice(inner))
        if not self.inputs:  # a model with no input is folded whole; keep one
            self.leaf_input_for(outs)
        g = helper.make_graph(self.nodes, f"fuzz_{self.seed}", self.inputs,
                              [helper.make_tensor_value_info(t.name, _ELEM[t.dtype], None)
                               for t in outs], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", self.opset)],
                              producer_name="strata-fuzz")
        m.ir_version = 8 if self.opset <= 18 else 10
        inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True)
        # Half the outputs declare the inferred type (as exporters do), half only the
        # dtype and rank.
        for o, io, t in zip(m.graph.output, inferred.graph.output, outs):
            o.CopyFrom(io)
            if not o.type.tensor_type.HasField("shape"):
                o.type.tensor_type.shape.SetInParent()
                for _ in t.shape:
                    o.type.tensor_type.shape.dim.add()
            if self.rng.random() < 0.5:
                for d in o.type.tensor_type.shape.dim:
                    d.Clear()
        onnx.checker.check_model(m, full_check=True)
        self.outputs = outs
        return m, self.feeds

    def leaf_input_for(self, outs):
        """Turn one initializer into a graph input."""
        from onnx import helper, numpy_helper
        init = self.inits.pop(0)
        v = numpy_helper.to_array(init)
        self.inputs.append(helper.make_tensor_value_info(
            init.name, init.data_type, list(v.shape)))
        self.feeds[init.name] = v


def _elem():
    from onnx import TensorProto as TP
    return {"float32": TP.FLOAT, "float64": TP.DOUBLE, "int32": TP.INT32,
            "int64": TP.INT64, "bool": TP.BOOL}


class _Elem(dict):
    def __missing__(self, k):
        self.update(_elem())
        return self[k]


_ELEM = _Elem()


# ---------------------------------------------------------------- the ops

def _mono(f):
    return lambda lo, hi: (f(lo), f(hi))


# name: (dtypes, domain check(t), interval(lo, hi), exact-preserving, needs exact input,
#        attributes(gen))
_UNARY = {
    "Relu": (FLOATS + INTS[:1], None, lambda lo, hi: (max(lo, 0), max(hi, 0)), True, False, None),
    "Neg": (FLOATS + INTS, None, lambda lo, hi: (-hi, -lo), True, False, None),
    "Abs": (FLOATS + INTS, None,
            lambda lo, hi: (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)),
                            max(abs(lo), abs(hi))), True, False, None),
    "Identity": (FLOATS + INTS + ("bool",), None, lambda lo, hi: (lo, hi), True, False, None),
    "Exp": (FLOATS, lambda t: t.hi <= 10, _mono(math.exp), False, False, None),
    "Log": (FLOATS, lambda t: t.lo >= 0.1, _mono(math.log), False, False, None),
    "Sqrt": (FLOATS, lambda t: t.lo >= 0.01 or (t.exact and t.lo >= 0), _mono(math.sqrt),
             False, False, None),
    "Reciprocal": (FLOATS, lambda t: t.lo >= 0.1 or t.hi <= -0.1,
                   lambda lo, hi: (1 / hi, 1 / lo), False, False, None),
    "Tanh": (FLOATS, None, lambda lo, hi: (-1, 1), False, False, None),
    "Sigmoid": (FLOATS, None, lambda lo, hi: (0, 1), False, False, None),
    "Erf": (F32, None, lambda lo, hi: (-1, 1), False, False, None),
    "Sin": (FLOATS, lambda t: max(abs(t.lo), abs(t.hi)) < 100, lambda lo, hi: (-1, 1),
            False, False, None),
    "Cos": (FLOATS, lambda t: max(abs(t.lo), abs(t.hi)) < 100, lambda lo, hi: (-1, 1),
            False, False, None),
    "Softsign": (F32, None, lambda lo, hi: (-1, 1), False, False, None),
    "Softplus": (F32, lambda t: t.hi <= 30, lambda lo, hi: (0, max(hi, 0) + 1),
                 False, False, None),
    "Floor": (FLOATS, None, lambda lo, hi: (math.floor(lo), math.floor(hi)), True, True, None),
    "Ceil": (FLOATS, None, lambda lo, hi: (math.ceil(lo), math.ceil(hi)), True, True, None),
    "Round": (FLOATS, None, lambda lo, hi: (round(lo) - 1, round(hi) + 1), True, True, None),
    "Sign": (FLOATS + INTS, None, lambda lo, hi: (-1, 1), True, True, None),
    "LeakyRelu": (F32, None, lambda lo, hi: (min(lo, 0), max(hi, 0)), False, False,
                  lambda g: {"alpha": float(g.choice([0.01, 0.1, 0.5]))}),
    "Elu": (F32, lambda t: t.hi <= 30, lambda lo, hi: (-2, max(hi, 0)), False, False,
            lambda g: {"alpha": float(g.choice([1.0, 0.5]))}),
    "Selu": (F32, lambda t: t.hi <= 30, lambda lo, hi: (-2, 1.06 * max(hi, 0)), False,
             False, None),
    "HardSigmoid": (F32, None, lambda lo, hi: (0, 1), False, False,
                    lambda g: {"alpha": float(g.choice([0.2, 0.5])),
                               "beta": float(g.choice([0.5, 0.3]))}),
    "HardSwish": (F32, None, lambda lo, hi: (-1, max(hi, 0)), False, False, None),
    "Not": (("bool",), None, lambda lo, hi: (0, 1), True, False, None),
}


def _unary(op):
    dtypes, dom, iv, keeps, needs, attrs = _UNARY[op]

    def gen(g):
        a = g.pick(lambda t: t.dtype in dtypes and (dom is None or dom(t))
                   and (not needs or t.exact),
                   None if op == "Not" else
                   (lambda: g.leaf(g.choice([d for d in dtypes if d != "bool"]),
                                   g.rand_shape(), lo=0.2 if op in ("Log", "Sqrt",
                                                                   "Reciprocal") else None,
                                   hi=5 if op in ("Log", "Sqrt", "Reciprocal") else None)))
        if a.dtype not in dtypes or (dom is not None and not dom(a)) or (needs and not a.exact):
            raise Skip
        lo, hi = iv(a.lo, a.hi)
        g.node(op, [a], a.dtype, a.shape, lo, hi, keeps and a.exact,
               **(attrs(g) if attrs else {}))
    return gen


def _products(a, b):
    ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(ps), max(ps)


def _binary(op):
    def gen(g):
        if op in ("And", "Or", "Xor"):
            a = g.pick(lambda t: t.dtype == "bool")
            b = g.partner(a)
            return g.node(op, [a, b], "bool", _bcast(a.shape, b.shape), 0, 1, True)
        a = g.pick_num()
        if op in ("Greater", "Less", "Equal", "GreaterOrEqual", "LessOrEqual"):
            if not a.exact:
                raise Skip
            b = g.partner(a)
            if not b.exact:
                raise Skip
            return g.node(op, [a, b], "bool", _bcast(a.shape, b.shape), 0, 1, True)
        if op in ("Div", "Mod"):
            if op == "Mod" and a.dtype not in INTS:
                raise Skip
            b = g.partner(a, const=g.rng.random() < 0.5, nonzero=True)
            if b.dtype in INTS and b.lo <= 0 <= b.hi or b.dtype in FLOATS and \
                    b.lo < 0.1 and b.hi > -0.1:
                raise Skip
            if op == "Mod":
                m = max(abs(b.lo), abs(b.hi))
                lo, hi = -m, m
                attrs = {}
            else:
                inv = Tensor("", b.dtype, (), 1 / b.hi, 1 / b.lo, False)
                lo, hi = _products(a, inv)
                if a.dtype in INTS:
                    lo, hi = min(lo, 0) - 1, max(hi, 0) + 1
                attrs = {}
            return g.node(op, [a, b], a.dtype, _bcast(a.shape, b.shape), lo, hi,
                          a.dtype in INTS, **attrs)
        if op == "Pow":
            if a.dtype not in FLOATS or a.lo < 0.1 or a.hi > 10:
                raise Skip
            e = float(g.choice([2.0, 0.5, 3.0, -1.0, 1.5]))
            b = g.const(np.array(e), a.dtype) if g.rng.random() < 0.5 else \
                g.const(np.full(g.partner_shape(a), e), a.dtype)
            vals = [a.lo ** e, a.hi ** e]
            return g.node(op, [a, b], a.dtype, a.shape, min(vals), max(vals), False)
        if op == "PRelu":
            if a.dtype != "float32":
                raise Skip
            b = g.partner(a, unidirectional=True, const=True)
            lo, hi = _products(a, b)
            return g.node(op, [a, b], a.dtype, a.shape, min(lo, a.lo, 0), max(hi, a.hi, 0),
                          False)
        b = g.partner(a)
        shape = _bcast(a.shape, b.shape)
        if op == "Add":
            lo, hi = a.lo + b.lo, a.hi + b.hi
        elif op == "Sub":
            lo, hi = a.lo - b.hi, a.hi - b.lo
        elif op == "Mul":
            lo, hi = _products(a, b)
        elif op == "Max":
            lo, hi = max(a.lo, b.lo), max(a.hi, b.hi)
        elif op == "Min":
            lo, hi = min(a.lo, b.lo), min(a.hi, b.hi)
        exact = a.dtype in INTS or (op in ("Max", "Min") and a.exact and b.exact)
        return g.node(op, [a, b], a.dtype, shape, lo, hi, exact)
    return gen


def _partner_shape(g, a):
    return a.shape[-int(g.rng.integers(0, a.rank + 1)):] if a.rank else ()


Gen.partner_shape = _partner_shape


def _variadic(op):
    def gen(g):
        # onnxruntime's Mean is float only, ONNX's Sum floats only
        ok = {"Mean": F32, "Sum": FLOATS}.get(op)
        a = g.pick_num(lambda t: ok is None or t.dtype in ok)
        ins = [a] + [g.partner(a) for _ in range(int(g.rng.integers(1, 3)))]
        shape = a.shape
        for b in ins[1:]:
            shape = _bcast(shape, b.shape)
            if shape is None:
                raise Skip
        if op == "Sum":
            lo, hi = sum(t.lo for t in ins), sum(t.hi for t in ins)
        elif op == "Mean":
            lo, hi = min(t.lo for t in ins), max(t.hi for t in ins)
        elif op == "Max":
            lo, hi = max(t.lo for t in ins), max(t.hi for t in ins)
        else:
            lo, hi = min(t.lo for t in ins), min(t.hi for t in ins)
        exact = a.dtype in INTS or (op in ("Max", "Min") and all(t.exact for t in ins))
        g.node(op, ins, a.dtype, shape, lo, hi, exact)
    return gen


def op_where(g):
    c = g.pick(lambda t: t.dtype == "bool",
               lambda: g.leaf("bool", g.rand_shape()))
    x = g.pick_num()
    y = g.partner(x)
    shape = _bcast(_bcast(x.shape, y.shape), c.shape) if _bcast(x.shape, y.shape) else None
    if shape is None:
        raise Skip
    g.node("Where", [c, x, y], x.dtype, shape, min(x.lo, y.lo), max(x.hi, y.hi),
           x.exact and y.exact)


def op_matmul(g):
    a = g.pick_float(lambda t: t.rank >= 1 and t.shape[-1] <= 300, rank=(1, 2, 3, 4))
    k = a.shape[-1]
    n = int(g.rng.integers(1, 49 if g.big else 9))
    if a.rank == 1:
        bshape = (k,) if g.rng.random() < 0.3 else (k, n)
    else:
        batch = a.shape[:-2] if g.rng.random() < 0.4 else ()
        batch = tuple(1 if g.rng.random() < 0.3 else d for d in batch)
        bshape = (k,) if not batch and g.rng.random() < 0.1 else batch + (k, n)
    b = g.leaf(a.dtype, bshape, const=g.rng.random() < 0.6)
    a2 = a.shape if a.rank > 1 else (1,) + a.shape
    b2 = bshape if len(bshape) > 1 else bshape + (1,)
    batch = _bcast(a2[:-2], b2[:-2])
    shape = batch + (a2[-2], b2[-1])
    if a.rank == 1:
        shape = shape[:-2] + shape[-1:]
    if len(bshape) == 1:
        shape = shape[:-1]
    m = k * max(abs(a.lo), abs(a.hi)) * max(abs(b.lo), abs(b.hi))
    g.node("MatMul", [a, b], a.dtype, shape, -m, m, False)


def op_gemm(g):
    a = g.pick_float(lambda t: t.rank == 2, rank=(2,))
    ta, tb = int(g.rng.random() < 0.3), int(g.rng.random() < 0.4)
    m_, k = a.shape[::-1] if ta else a.shape
    n = int(g.rng.integers(1, 49 if g.big else 9))
    b = g.leaf(a.dtype, (n, k) if tb else (k, n), const=g.rng.random() < 0.7)
    ins = [a, b]
    alpha = float(g.choice([1.0, 1.0, 0.5, 2.0]))
    beta = float(g.choice([1.0, 1.0, 0.5]))
    mag = k * abs(alpha) * max(abs(a.lo), abs(a.hi)) * max(abs(b.lo), abs(b.hi))
    if g.rng.random() < 0.7:
        cshape = g.choice([(), (n,), (1, n), (m_, 1), (m_, n)])
        c = g.leaf(a.dtype, cshape, const=g.rng.random() < 0.7)
        ins.append(c)
        mag += abs(beta) * max(abs(c.lo), abs(c.hi))
    g.node("Gemm", ins, a.dtype, (m_, n), -mag, mag, False, alpha=alpha, beta=beta,
           transA=ta, transB=tb)


def _window(g, n, k, s, d, pads, ceil):
    ek = (k - 1) * d + 1
    span = n + pads[0] + pads[1] - ek
    if span < 0:
        return None
    if ceil:
        out = -(-span // s) + 1
        if (out - 1) * s >= n + pads[0]:
            # The last window starts in the end padding: onnxruntime and onnx.reference
            # drop it, ONNX shape inference keeps it (issue 16 item 6); the model's
            # inferred types would contradict its run, so not generated.
            raise Skip
    else:
        out = span // s + 1
    return out


def _spatial(g, x, weighted):
    """Random kernel/strides/pads/dilations for x's spatial dims, with output dims."""
    sp = x.shape[2:]
    ks, ss, ds, pb, pe, outs = [], [], [], [], [], []
    ceil = int(not weighted and g.rng.random() < 0.2)
    square = weighted and g.big and min(sp) >= 3 and g.rng.random() < 0.6  # Winograd's
    for n in sp:
        k = int(g.rng.integers(1, min(n, 3) + 1 + (g.rng.random() < 0.2)))
        s = int(g.rng.integers(1, 3))
        if square:
            k, s = 3, 1
        d = int(g.rng.integers(1, 3)) if g.rng.random() < 0.2 else 1
        p0 = int(g.rng.integers(0, k)) if g.rng.random() < 0.4 else 0
        p1 = int(g.rng.integers(0, k)) if g.rng.random() < 0.4 else 0
        o = _window(g, n, k, s, d, (p0, p1), ceil)
        if o is None or o < 1:
            raise Skip
        ks.append(k), ss.append(s), ds.append(d), pb.append(p0), pe.append(p1), outs.append(o)
    return ks, ss, ds, pb + pe, outs, ceil


def _image(g, rank=(3, 4)):
    r = g.choice(list(rank))
    if g.big and r == 4 and g.rng.random() < 0.6:
        hw = int(g.choice([7, 13, 14, 28, 30]))
        shape = (1, int(g.choice([3, 8, 16])), hw, hw + int(g.rng.integers(0, 3)))
    else:
        shape = (int(g.rng.integers(1, 3)), int(g.rng.integers(1, 5))) + \
            tuple(int(g.rng.integers(2, 9)) for _ in range(r - 2))
    cap = 16384 if g.big else 4096
    return g.pick(lambda t: t.dtype == "float32" and t.rank in rank and
                  all(d <= 32 for d in t.shape[2:]) and t.size <= cap,
                  lambda: g.leaf("float32", shape))


def op_conv(g):
    x = _image(g)
    n, c = x.shape[:2]
    group = int(g.choice([gr for gr in (1, 2, c) if c % gr == 0])) if g.rng.random() < 0.3 \
        else 1
    m = group * int(g.rng.integers(1, 4)) * (int(g.choice([1, 4, 8])) if g.big else 1)
    ks, ss, ds, pads, outs, _ = _spatial(g, x, True)
    w = g.leaf("float32", (m, c // group) + tuple(ks), const=g.rng.random() < 0.8)
    ins = [x, w]
    mag = (c // group) * int(np.prod(ks)) * max(abs(x.lo), abs(x.hi)) * \
        max(abs(w.lo), abs(w.hi))
    if g.rng.random() < 0.6:
        b = g.leaf("float32", (m,), const=True)
        ins.append(b)
        mag += max(abs(b.lo), abs(b.hi))
    attrs = dict(kernel_shape=ks, strides=ss, dilations=ds, group=group)
    if g.rng.random() < 0.15:
        attrs["auto_pad"] = "VALID"
        outs = [_window(g, nn, k, s, d, (0, 0), 0) for nn, k, s, d in
                zip(x.shape[2:], ks, ss, ds)]
        if any(o is None or o < 1 for o in outs):
            raise Skip
    else:
        attrs["pads"] = pads
    g.node("Conv", ins, "float32", (n, m) + tuple(outs), -mag, mag, False, **attrs)


def _pool(op):
    def gen(g):
        x = _image(g)
        if op.startswith("Global"):
            return g.node(op, [x], "float32", x.shape[:2] + (1,) * (x.rank - 2), x.lo, x.hi,
                          op == "GlobalMaxPool" and x.exact)
        ks, ss, ds, pads, outs, ceil = _spatial(g, x, False)
        attrs = dict(kernel_shape=ks, strides=ss, pads=pads, ceil_mode=ceil)
        if op == "MaxPool":
            attrs["dilations"] = ds
        elif any(d != 1 for d in ds):
            raise Skip
        else:
            attrs["count_include_pad"] = int(g.rng.random() < 0.3)
        lo, hi = x.lo, x.hi
        if op == "MaxPool" and any(pads):
            lo = min(lo, hi)
        if op == "AveragePool":
            lo, hi = min(lo, 0), max(hi, 0)
        g.node(op, [x], "float32", x.shape[:2] + tuple(outs), lo, hi,
               op == "MaxPool" and x.exact, **attrs)
    return gen


def _factor(g, total, rank):
    dims = [1] * rank
    rest = total
    primes = []
    p = 2
    while rest > 1:
        while rest % p == 0:
            primes.append(p)
            rest //= p
        p += 1
    for q in primes:
        dims[int(g.rng.integers(rank))] *= q
    return dims


def op_reshape(g):
    a = g.pick(lambda t: t.size <= 4096, lambda: g.leaf("float32", g.rand_shape()))
    rank = int(g.rng.integers(1, 5))
    dims = _factor(g, a.size, rank)
    spec = list(dims)
    for i, d in enumerate(dims):
        if i < a.rank and a.shape[i] == d and g.rng.random() < 0.25:
            spec[i] = 0
    if g.rng.random() < 0.4:
        spec[int(g.rng.integers(rank))] = -1
        if spec.count(-1) != 1 or (0 in spec and a.size == 0):
            raise Skip
    g.node("Reshape", [a, g.const(spec)], a.dtype, dims, a.lo, a.hi, a.exact)


def op_transpose(g):
    a = g.pick(lambda t: t.rank >= 2)
    perm = [int(p) for p in g.rng.permutation(a.rank)]
    attrs = {} if g.rng.random() < 0.15 else {"perm": perm}
    if not attrs:
        perm = list(range(a.rank))[::-1]
    g.node("Transpose", [a], a.dtype, tuple(a.shape[p] for p in perm), a.lo, a.hi, a.exact,
           **attrs)


def op_concat(g):
    a = g.pick(lambda t: t.rank >= 1)
    ax = int(g.rng.integers(a.rank))
    ins = [a]
    total = a.shape[ax]
    for _ in range(int(g.rng.integers(1, 3))):
        shape = list(a.shape)
        same = [t for t in g.pool if t.dtype == a.dtype and t.rank == a.rank and
                all(x == y for i, (x, y) in enumerate(zip(t.shape, a.shape)) if i != ax)]
        if same and g.rng.random() < 0.4:
            b = g.choice(same)
        else:
            shape[ax] = int(g.rng.integers(1, 4))
            b = g.leaf(a.dtype, shape)
        ins.append(b)
        total += b.shape[ax]
    shape = list(a.shape)
    shape[ax] = total
    axis = ax - a.rank if g.rng.random() < 0.3 else ax
    g.node("Concat", ins, a.dtype, shape, min(t.lo for t in ins), max(t.hi for t in ins),
           all(t.exact for t in ins), axis=axis)


def op_slice(g):
    a = g.pick(lambda t: t.rank >= 1)
    axes = sorted(int(x) for x in g.rng.choice(a.rank, size=int(g.rng.integers(1, a.rank + 1)),
                                               replace=False))
    starts, ends, steps, shape = [], [], [], list(a.shape)
    for ax in axes:
        d = a.shape[ax]
        step = int(g.choice([1, 1, 1, 2, -1, -2]))
        s = int(g.rng.integers(-d - 1, d + 2))
        e = int(g.rng.integers(-d - 1, d + 2))
        if g.rng.random() < 0.5:
            e = s + step * int(g.rng.integers(1, d + 1))
        if g.rng.random() < 0.15:
            e = 2 ** 62 if step > 0 else -2 ** 62
        n = len(range(*slice(s, e, step).indices(d)))
        if n < 1:
            raise Skip
        starts.append(s), ends.append(e), steps.append(step)
        shape[ax] = n
    ins = [a, g.const(starts), g.const(ends)]
    if g.rng.random() < 0.8 or any(st != 1 for st in steps):
        ins.append(g.const([x - a.rank if g.rng.random() < 0.3 else x for x in axes]))
        if g.rng.random() < 0.7 or any(st != 1 for st in steps):
            ins.append(g.const(steps))
    elif axes != list(range(len(axes))):
        raise Skip
    g.node("Slice", ins, a.dtype, shape, a.lo, a.hi, a.exact)


def op_gather(g):
    a = g.pick(lambda t: t.rank >= 1)
    ax = int(g.rng.integers(a.rank))
    d = a.shape[ax]
    ishape = g.rand_shape(int(g.rng.integers(0, 3)))
    idx = g.rng.integers(-d, d, size=ishape)
    ins = g.const(idx, g.choice(["int64", "int64", "int32"]))
    shape = a.shape[:ax] + tuple(ishape) + a.shape[ax + 1:]
    g.node("Gather", [a, ins], a.dtype, shape, a.lo, a.hi, a.exact,
           axis=ax - a.rank if g.rng.random() < 0.3 else ax)


def op_expand(g):
    a = g.pick(lambda t: t.size <= 256)
    extra = int(g.rng.integers(0, 3))
    target = [int(g.rng.integers(1, 4)) for _ in range(extra)]
    for d in a.shape:
        target.append(int(g.rng.integers(2, 4)) if d == 1 and g.rng.random() < 0.6 else
                      (1 if g.rng.random() < 0.2 else d))
    shape = _bcast(a.shape, target)
    if shape is None or int(np.prod(shape)) > 4096:
        raise Skip
    g.node("Expand", [a, g.const(target)], a.dtype, shape, a.lo, a.hi, a.exact)


def op_squeeze(g):
    a = g.pick(lambda t: 1 in t.shape)
    ones = [i for i, d in enumerate(a.shape) if d == 1]
    if g.rng.random() < 0.15:
        axes = None
    else:
        axes = sorted(int(x) for x in g.rng.choice(ones, size=int(g.rng.integers(1, len(ones) + 1)),
                                                   replace=False))
    keep = [d for i, d in enumerate(a.shape) if not (d == 1 and (axes is None or i in axes))]
    ins = [a] if axes is None else [a, g.const([x - a.rank if g.rng.random() < 0.3 else x
                                                for x in axes])]
    g.node("Squeeze", ins, a.dtype, keep, a.lo, a.hi, a.exact)


def op_unsqueeze(g):
    a = g.pick(lambda t: t.rank <= 4)
    k = int(g.rng.integers(1, 3))
    r = a.rank + k
    axes = sorted(int(x) for x in g.rng.choice(r, size=k, replace=False))
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    g.node("Unsqueeze", [a, g.const([x - r if g.rng.random() < 0.3 else x for x in axes])],
           a.dtype, shape, a.lo, a.hi, a.exact)


def op_flatten(g):
    a = g.pick()
    ax = int(g.rng.integers(0, a.rank + 1))
    shape = (int(np.prod(a.shape[:ax], dtype=np.int64)),
             int(np.prod(a.shape[ax:], dtype=np.int64)))
    g.node("Flatten", [a], a.dtype, shape, a.lo, a.hi, a.exact,
           axis=ax - a.rank if ax < a.rank and g.rng.random() < 0.3 else ax)


def op_tile(g):
    a = g.pick(lambda t: t.rank >= 1 and t.size <= 256)
    reps = [int(g.rng.integers(1, 4)) for _ in a.shape]
    g.node("Tile", [a, g.const(reps)], a.dtype, [d * r for d, r in zip(a.shape, reps)],
           a.lo, a.hi, a.exact)


def op_pad(g):
    a = g.pick(lambda t: t.rank >= 1 and t.dtype != "bool")
    mode = g.choice(["constant", "constant", "reflect", "edge"])
    pads = []
    for d in a.shape:
        hi = d - 1 if mode == "reflect" else 3
        pads.append(int(g.rng.integers(0, hi + 1)) if hi > 0 else 0)
    pads += [int(g.rng.integers(0, (d - 1 if mode == "reflect" else 3) + 1))
             if (d - 1 if mode == "reflect" else 3) > 0 else 0 for d in a.shape]
    if mode == "constant" and g.rng.random() < 0.3 and a.rank > 1 and g.rng.random() < 0.3:
        pass
    shape = [d + pads[i] + pads[i + a.rank] for i, d in enumerate(a.shape)]
    ins = [a, g.const(pads)]
    lo, hi = a.lo, a.hi
    if mode == "constant":
        cv = float(g.choice([0, 1.5, -2])) if a.dtype in FLOATS else int(g.choice([0, 3]))
        if g.rng.random() < 0.7:
            ins.append(g.const(np.array(cv), a.dtype))
        else:
            cv = 0
        lo, hi = min(lo, cv), max(hi, cv)
    g.node("Pad", ins, a.dtype, shape, lo, hi, a.exact, mode=mode)


_REDUCE = ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
           "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp")


def _reduce(op):
    def gen(g):
        ints_ok = op in ("ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceMean")
        a = g.pick(lambda t: t.rank >= 1 and t.dtype != "bool" and
                   (ints_ok or t.dtype in FLOATS) and
                   (op != "ReduceLogSumExp" or t.hi <= 10) and
                   (op != "ReduceProd" or max(abs(t.lo), abs(t.hi)) <= 2),
                   lambda: g.leaf("float32", g.rand_shape(int(g.rng.integers(1, 5)))))
        if op == "ReduceProd" and max(abs(a.lo), abs(a.hi)) > 2:
            raise Skip
        if op == "ReduceLogSumExp" and a.hi > 10:
            raise Skip
        if op == "ReduceMean" and a.dtype in INTS:
            raise Skip  # onnxruntime has no integer ReduceMean
        r = a.rank
        keep = int(g.rng.random() < 0.5)
        mode = g.rng.random()
        if mode < 0.15:
            axes = None
        else:
            axes = sorted(int(x) for x in g.rng.choice(r, size=int(g.rng.integers(1, r + 1)),
                                                       replace=False))
        red = list(range(r)) if axes is None else axes
        n = int(np.prod([a.shape[i] for i in red], dtype=np.int64))
        shape = [1 if i in red else d for i, d in enumerate(a.shape)] if keep else \
            [d for i, d in enumerate(a.shape) if i not in red]
        m = max(abs(a.lo), abs(a.hi))
        lo, hi = {"ReduceSum": (n * min(a.lo, 0), n * max(a.hi, 0)),
                  "ReduceMean": (a.lo, a.hi), "ReduceMax": (a.lo, a.hi),
                  "ReduceMin": (a.lo, a.hi), "ReduceProd": (-m ** n, m ** n),
                  "ReduceL1": (0, n * m), "ReduceL2": (0, math.sqrt(n) * m),
                  "ReduceSumSquare": (0, n * m * m),
                  "ReduceLogSumExp": (a.lo, a.hi + math.log(n))}[op]
        exact = a.dtype in INTS or (op in ("ReduceMax", "ReduceMin") and a.exact)
        ins = [a]
        attrs = {"keepdims": keep}
        neg = [x - r if g.rng.random() < 0.3 else x for x in (axes or [])]
        if g.opset >= 18 or op == "ReduceSum":
            if axes is not None:
                ins.append(g.const(neg))
        elif axes is not None:
            attrs["axes"] = neg
        g.node(op, ins, a.dtype, shape, lo, hi, exact, **attrs)
    return gen


def _arg(op):
    def gen(g):
        a = g.pick(lambda t: t.rank >= 1 and t.dtype != "bool" and t.exact)
        ax = int(g.rng.integers(a.rank))
        keep = int(g.rng.random() < 0.5)
        shape = [1 if i == ax else d for i, d in enumerate(a.shape)] if keep else \
            [d for i, d in enumerate(a.shape) if i != ax]
        g.node(op, [a], "int64", shape, 0, a.shape[ax], True,
               axis=ax - a.rank if g.rng.random() < 0.3 else ax, keepdims=keep,
               select_last_index=int(g.rng.random() < 0.3))
    return gen


def _softmax(op):
    def gen(g):
        a = g.pick_float(lambda t: t.rank >= 1 and t.hi - t.lo < 60)
        if a.rank < 1 or a.hi - a.lo >= 60:
            raise Skip
        ax = int(g.rng.integers(a.rank))
        n = a.shape[ax]
        lo, hi = (0, 1) if op == "Softmax" else (a.lo - a.hi - math.log(n) - 1, 0)
        g.node(op, [a], a.dtype, a.shape, lo, hi, False,
               axis=ax - a.rank if g.rng.random() < 0.4 else ax)
    return gen


def op_layernorm(g):
    a = g.pick_float(lambda t: t.rank >= 1)
    if a.rank < 1:
        raise Skip
    ax = int(g.rng.integers(a.rank))
    norm = a.shape[ax:]
    scale = g.leaf(a.dtype, norm, const=g.rng.random() < 0.8)
    ins = [a, scale]
    n = int(np.prod(norm))
    m = math.sqrt(n) * max(abs(scale.lo), abs(scale.hi))
    if g.rng.random() < 0.7:
        b = g.leaf(a.dtype, norm, const=True)
        ins.append(b)
        m += max(abs(b.lo), abs(b.hi))
    g.node("LayerNormalization", ins, a.dtype, a.shape, -m, m, False,
           axis=ax - a.rank if g.rng.random() < 0.4 else ax,
           epsilon=float(g.choice([1e-5, 1e-3])))


def op_batchnorm(g):
    a = g.pick_float(lambda t: t.rank >= 2 and t.dtype == "float32")
    if a.rank < 2 or a.dtype != "float32":
        raise Skip
    c = a.shape[1]
    s, b, mu = (g.leaf("float32", (c,), const=True) for _ in range(3))
    var = g.leaf("float32", (c,), const=True, lo=0.5, hi=2)
    m = (max(abs(a.lo), abs(a.hi)) + max(abs(mu.lo), abs(mu.hi))) / math.sqrt(0.5) * \
        max(abs(s.lo), abs(s.hi)) + max(abs(b.lo), abs(b.hi))
    g.node("BatchNormalization", [a, s, b, mu, var], a.dtype, a.shape, -m, m, False,
           epsilon=1e-5)


def op_instnorm(g):
    a = g.pick_float(lambda t: t.rank >= 3 and t.dtype == "float32")
    if a.rank < 3 or a.dtype != "float32":
        raise Skip
    c = a.shape[1]
    s, b = (g.leaf("float32", (c,), const=True) for _ in range(2))
    n = int(np.prod(a.shape[2:]))
    m = math.sqrt(n) * max(abs(s.lo), abs(s.hi)) + max(abs(b.lo), abs(b.hi))
    g.node("InstanceNormalization", [a, s, b], a.dtype, a.shape, -m, m, False,
           epsilon=float(g.choice([1e-5, 1e-2])))


def op_cast(g):
    a = g.pick()
    to = g.choice(["float32", "float64", "int32", "int64", "bool"])
    if to == a.dtype:
        raise Skip
    if a.dtype in FLOATS and to in INTS + ("bool",) and not a.exact:
        raise Skip
    if to == "int32" and max(abs(a.lo), abs(a.hi)) >= 2 ** 31:
        raise Skip
    lo, hi = a.lo, a.hi
    if to in INTS:
        lo, hi = math.floor(lo), math.ceil(hi)
    if to == "bool":
        lo, hi = 0, 1
    if a.dtype == "bool":
        lo, hi = 0, 1
    exact = a.exact or (to in INTS + ("bool",))
    if a.dtype == "float64" and to == "float32":
        exact = False
    g.node("Cast", [a], to, a.shape, lo, hi, exact, to=_ELEM[to])


def op_clip(g):
    a = g.pick_num()
    ins = [a]
    lo, hi = a.lo, a.hi
    cmin = cmax = None
    if g.rng.random() < 0.8:
        cmin = a.lo + (a.hi - a.lo) * g.rng.random() * 0.5
        if a.dtype in INTS:
            cmin = math.floor(cmin)
        ins.append(g.const(np.array(cmin), a.dtype))
    elif g.rng.random() < 0.5:
        ins.append("")
    if g.rng.random() < 0.8:
        cmax = a.hi - (a.hi - a.lo) * g.rng.random() * 0.5
        if a.dtype in INTS:
            cmax = math.ceil(cmax)
        if len(ins) == 1:
            ins.append("")
        ins.append(g.const(np.array(cmax), a.dtype))
    while ins and ins[-1] == "":
        ins.pop()
    if cmin is not None:
        lo, hi = max(lo, cmin), max(hi, cmin)
    if cmax is not None:
        lo, hi = min(lo, cmax), min(hi, cmax)
    g.node("Clip", ins, a.dtype, a.shape, lo, hi, a.exact)


def op_cumsum(g):
    a = g.pick_num(lambda t: t.rank >= 1 and t.dtype != "int32")
    if a.rank < 1 or a.dtype == "int32":
        raise Skip
    ax = int(g.rng.integers(a.rank))
    n = a.shape[ax]
    g.node("CumSum", [a, g.const(np.array(ax - a.rank if g.rng.random() < 0.3 else ax))],
           a.dtype, a.shape, n * min(a.lo, 0), n * max(a.hi, 0), a.dtype in INTS,
           exclusive=int(g.rng.random() < 0.3), reverse=int(g.rng.random() < 0.3))


def op_shape_reshape(g):
    """Reshape to the run-time shape of another tensor of as many elements (Shape ->
    Reshape): a shape known only when the graph runs."""
    a = g.pick(lambda t: t.rank >= 1 and t.size <= 4096)
    others = [t for t in g.pool if t.size == a.size and t is not a]
    if others:
        b = g.choice(others)
    else:
        b = g.leaf("float32", _factor(g, a.size, int(g.rng.integers(1, 4))), const=False)
    sh = g.node("Shape", [b], "int64", (b.rank,), 0, max(b.shape + (1,)), True)
    g.pool.remove(sh)
    g.ops_used.pop()
    g.node("Reshape", [a, sh], a.dtype, b.shape, a.lo, a.hi, a.exact)


def op_split(g):
    a = g.pick(lambda t: t.rank >= 1 and max(t.shape) >= 2)
    axes = [i for i, d in enumerate(a.shape) if d >= 2]
    ax = g.choice(axes)
    d = a.shape[ax]
    ins, attrs = [a], {"axis": ax - a.rank if g.rng.random() < 0.3 else ax}
    if g.opset >= 18 and g.rng.random() < 0.5:
        k = int(g.rng.integers(2, min(d, 4) + 1))
        attrs["num_outputs"] = k
        q = -(-d // k)
        parts = [q] * (d // q) + ([d % q] if d % q else [])
        if len(parts) != k:
            raise Skip
    else:
        k = int(g.rng.integers(2, min(d, 4) + 1))
        cuts = sorted(int(x) for x in g.rng.choice(np.arange(1, d), size=k - 1, replace=False))
        parts = [b - a_ for a_, b in zip([0] + cuts, cuts + [d])]
        ins.append(g.const(parts))
    first = g.node("Split", ins, a.dtype, a.shape[:ax] + (parts[0],) + a.shape[ax + 1:],
                   a.lo, a.hi, a.exact, n_out=len(parts), **attrs)
    node = g.nodes[-1]
    for name, n in zip(node.output[1:], parts[1:]):
        g.pool.append(Tensor(name, a.dtype, a.shape[:ax] + (n,) + a.shape[ax + 1:], a.lo,
                             a.hi, a.exact, first.mag, first.f32))


def op_topk(g):
    a = g.pick(lambda t: t.rank >= 1 and t.dtype in FLOATS + INTS and t.exact)
    ax = int(g.rng.integers(a.rank))
    d = a.shape[ax]
    k = int(g.rng.integers(1, d + 1))
    shape = a.shape[:ax] + (k,) + a.shape[ax + 1:]
    v = g.node("TopK", [a, g.const([k])], a.dtype, shape, a.lo, a.hi, True, n_out=2,
               axis=ax - a.rank if g.rng.random() < 0.3 else ax,
               largest=int(g.rng.random() < 0.7), sorted=1)
    g.pool.append(Tensor(g.nodes[-1].output[1], "int64", shape, 0, d, True))


def op_constant_of_shape(g):
    """ConstantOfShape of a run-time shape (Shape of a tensor)."""
    a = g.pick(lambda t: t.size <= 1024)
    sh = g.node("Shape", [a], "int64", (a.rank,), 0, max(a.shape + (1,)), True)
    g.pool.remove(sh)
    g.ops_used.pop()
    from onnx import numpy_helper
    dt = g.choice(["float32", "int64", "int32", "float64"])
    val = g.choice([0, 1, 2])
    g.node("ConstantOfShape", [sh], dt, a.shape, val, val, True,
           value=numpy_helper.from_array(np.array([val], dtype=dt)))


def op_range(g):
    dt = g.choice(["int64", "int32", "int64"])
    start = int(g.rng.integers(-5, 5))
    delta = int(g.choice([1, 2, 3, -1, -2]))
    n = int(g.rng.integers(1, 9))
    limit = start + delta * n - (int(np.sign(delta)) if g.rng.random() < 0.5 else 0)
    n = max(0, -(-(limit - start) // delta))
    if n < 1:
        raise Skip
    ins = [g.const(np.array(v), dt) for v in (start, limit, delta)]
    vals = [start, start + delta * (n - 1)]
    g.node("Range", ins, dt, (n,), min(vals), max(vals), True)


def op_export_reshape(g):
    """What exporters emit for x.view(x.size(0), -1): Shape, Gather, Unsqueeze, Concat,
    Reshape: a shape computed at run time."""
    a = g.pick(lambda t: t.rank >= 2)
    keep = int(g.rng.integers(1, a.rank))
    sh = g.node("Shape", [a], "int64", (a.rank,), 0, max(a.shape), True)
    g.pool.remove(sh)
    g.ops_used.pop()
    dims = []
    for i in range(keep):
        d = g.node("Gather", [sh, g.const(np.array(i))], "int64", (), 0, a.shape[i], True,
                   axis=0)
        u = g.node("Unsqueeze", [d, g.const([0])], "int64", (1,), 0, a.shape[i], True)
        for t in (d, u):
            g.pool.remove(t)
            g.ops_used.pop()
        dims.append(u)
    cat = g.node("Concat", dims + [g.const([-1])], "int64", (keep + 1,), -1, max(a.shape),
                 True, axis=0)
    g.pool.remove(cat)
    g.ops_used.pop()
    rest = int(np.prod(a.shape[keep:]))
    g.node("Reshape", [a, cat], a.dtype, a.shape[:keep] + (rest,), a.lo, a.hi, a.exact)


def op_gather_elements(g):
    a = g.pick(lambda t: t.rank >= 1)
    ax = int(g.rng.integers(a.rank))
    d = a.shape[ax]
    shape = tuple(int(g.rng.integers(1, x + 1)) for x in a.shape)
    shape = shape[:ax] + (int(g.rng.integers(1, 5)),) + shape[ax + 1:]
    idx = g.const(g.rng.integers(-d, d, size=shape))
    g.node("GatherElements", [a, idx], a.dtype, shape, a.lo, a.hi, a.exact,
           axis=ax - a.rank if g.rng.random() < 0.3 else ax)


def op_trilu(g):
    a = g.pick(lambda t: t.rank >= 2 and t.dtype != "bool")
    ins = [a]
    if g.rng.random() < 0.6:
        ins.append(g.const(np.array(int(g.rng.integers(-3, 4)))))
    g.node("Trilu", ins, a.dtype, a.shape, min(a.lo, 0), max(a.hi, 0), a.exact,
           upper=int(g.rng.random() < 0.5))


def op_conv_transpose(g):
    x = _image(g)
    n, c = x.shape[:2]
    group = 2 if c % 2 == 0 and g.rng.random() < 0.3 else 1
    m = group * int(g.rng.integers(1, 3))
    sp = x.shape[2:]
    ks = [int(g.rng.integers(1, 4)) for _ in sp]
    ss = [int(g.rng.integers(1, 3)) for _ in sp]
    ds = [1 for _ in sp]
    pads = [int(g.rng.integers(0, k)) for k in ks] + [int(g.rng.integers(0, k)) for k in ks]
    op_ = [int(g.rng.integers(0, s)) for s in ss] if g.rng.random() < 0.3 else [0] * len(sp)
    outs = [s * (i - 1) + o + (k - 1) * d + 1 - p0 - p1 for i, s, o, k, d, p0, p1 in
            zip(sp, ss, op_, ks, ds, pads[:len(sp)], pads[len(sp):])]
    if any(o < 1 for o in outs):
        raise Skip
    w = g.leaf("float32", (c, m // group) + tuple(ks), const=True)
    ins = [x, w]
    mag = c * int(np.prod(ks)) * max(abs(x.lo), abs(x.hi)) * max(abs(w.lo), abs(w.hi))
    if g.rng.random() < 0.5:
        b = g.leaf("float32", (m,), const=True)
        ins.append(b)
        mag += max(abs(b.lo), abs(b.hi))
    g.node("ConvTranspose", ins, "float32", (n, m) + tuple(outs), -mag, mag, False,
           kernel_shape=ks, strides=ss, pads=pads, group=group,
           **({"output_padding": op_} if any(op_) else {}))


def op_resize(g):
    x = _image(g, rank=(3, 4))
    mode = g.choice(["nearest", "linear"])
    scales = [1.0, 1.0] + [float(g.choice([0.5, 1.0, 2.0, 1.5, 3.0])) for _ in x.shape[2:]]
    outs = [int(math.floor(d * s)) for d, s in zip(x.shape, scales)]
    if min(outs) < 1:
        raise Skip
    ctm = g.choice(["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"])
    attrs = dict(mode=mode, coordinate_transformation_mode=ctm)
    if mode == "nearest":
        attrs["nearest_mode"] = g.choice(["round_prefer_floor", "floor", "ceil"])
    if g.rng.random() < 0.5:
        ins = [x, "", g.const(np.array(scales), "float32")]
    else:
        ins = [x, "", "", g.const(outs)]
    g.node("Resize", ins, "float32", outs, x.lo, x.hi, False, **attrs)


def op_depth_to_space(g):
    x = _image(g, rank=(4,))
    b = int(g.choice([2, 2, 3]))
    c = x.shape[1]
    if c % (b * b):
        x = g.leaf("float32", (x.shape[0], b * b * int(g.rng.integers(1, 3))) + x.shape[2:])
        c = x.shape[1]
    g.node("DepthToSpace", [x], "float32",
           (x.shape[0], c // (b * b), x.shape[2] * b, x.shape[3] * b), x.lo, x.hi, x.exact,
           blocksize=b, mode=g.choice(["DCR", "CRD"]))


def op_einsum(g):
    a = g.pick_float(lambda t: t.rank in (2, 3) and t.dtype == "float32", rank=(2, 3))
    if a.dtype != "float32":
        raise Skip
    n = int(g.rng.integers(1, 6))
    if a.rank == 2:
        eq, bshape, shape = g.choice([("ij,jk->ik", (a.shape[1], n), (a.shape[0], n)),
                                      ("ij,kj->ik", (n, a.shape[1]), (a.shape[0], n)),
                                      ("ij,ij->i", a.shape, (a.shape[0],)),
                                      ("ij->ji", None, a.shape[::-1])])
    else:
        eq, bshape, shape = g.choice([("bij,bjk->bik", (a.shape[0], a.shape[2], n),
                                       (a.shape[0], a.shape[1], n)),
                                      ("bij->bj", None, (a.shape[0], a.shape[2]))])
    ins = [a]
    m = max(abs(a.lo), abs(a.hi)) * max(a.shape)
    if bshape is not None:
        b = g.leaf("float32", bshape)
        ins.append(b)
        m *= max(abs(b.lo), abs(b.hi))
    g.node("Einsum", ins, "float32", shape, -m, m, False, equation=eq)


def op_onehot(g):
    # onnxruntime's OneHot kernels: int64 indices with an int64 depth
    a = g.pick(lambda t: t.dtype == "int64" and t.size <= 64 and t.rank >= 1,
               lambda: g.leaf("int64", g.rand_shape(int(g.rng.integers(1, 3)))))
    depth = int(g.rng.integers(2, 8))
    if max(abs(a.lo), abs(a.hi)) >= depth and g.rng.random() < 0.5:
        raise Skip
    ax = int(g.rng.integers(-1, a.rank + 1))
    vals = g.const([0, 1] if g.rng.random() < 0.5 else [-1, 3], "float32")
    r = a.rank + 1
    axn = ax % r
    shape = a.shape[:axn] + (depth,) + a.shape[axn:]
    g.node("OneHot", [a, g.const(np.array(depth)), vals], "float32", shape, -1, 3, True,
           axis=ax)


OPS = {}
for _op in _UNARY:
    OPS[_op] = _unary(_op)
for _op in ("Add", "Sub", "Mul", "Div", "Mod", "Pow", "PRelu", "Max", "Min", "Greater", "Less",
            "Equal", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor"):
    OPS[_op if _op not in ("Max", "Min") else _op] = _binary(_op)
for _op in ("Sum", "Mean"):
    OPS[_op] = _variadic(_op)
OPS["Max3"] = _variadic("Max")
for _op in _REDUCE:
    OPS[_op] = _reduce(_op)
for _op in ("ArgMax", "ArgMin"):
    OPS[_op] = _arg(_op)
for _op in ("Softmax", "LogSoftmax"):
    OPS[_op] = _softmax(_op)
for _op in ("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"):
    OPS[_op] = _pool(_op)
OPS.update(Where=op_where, MatMul=op_matmul, Gemm=op_gemm, Conv=op_conv, Reshape=op_reshape,
           Transpose=op_transpose, Concat=op_concat, Slice=op_slice, Gather=op_gather,
           Expand=op_expand, Squeeze=op_squeeze, Unsqueeze=op_unsqueeze, Flatten=op_flatten,
           Tile=op_tile, Pad=op_pad, LayerNormalization=op_layernorm,
           BatchNormalization=op_batchnorm, InstanceNormalization=op_instnorm, Cast=op_cast,
           Clip=op_clip, CumSum=op_cumsum, ShapeReshape=op_shape_reshape, Split=op_split,
           TopK=op_topk, ConstantOfShape=op_constant_of_shape, Range=op_range,
           ExportReshape=op_export_reshape, GatherElements=op_gather_elements, Trilu=op_trilu,
           ConvTranspose=op_conv_transpose, Resize=op_resize, DepthToSpace=op_depth_to_space,
           Einsum=op_einsum, OneHot=op_onehot)


def generate(seed, ops=None, nodes=(2, 8)):
    """(model, feeds, gen) of case `seed`."""
    g = Gen(seed, ops, nodes)
    m, feeds = g.build()
    return m, feeds, g


# ---------------------------------------------------------------- one case

def _tolerance(t: Tensor, accum: bool):
    """(rtol, atol) for float output `t` (see [Note: fuzz tolerances])."""
    if t.dtype == "float64" and not t.f32:
        rtol, k = (1e-9, 1e-10) if not accum else (1e-7, 1e-8)
    else:
        rtol, k = (2e-5, 2e-6) if not accum else (2e-4, 2e-5)
    return rtol, k * max(t.mag, 1.0)


def compare(ref, got, t: Tensor, accum: bool):
    """None, or what differs between onnxruntime's `ref` and Strata's `got`."""
    if not isinstance(got, np.ndarray):
        return f"got a {type(got).__name__}, not an array"
    if got.dtype != ref.dtype:
        return f"dtype {got.dtype}, onnxruntime {ref.dtype}"
    if got.shape != ref.shape:
        return f"shape {got.shape}, onnxruntime {ref.shape}"
    if ref.dtype.kind in "biu":
        bad = got != ref
        if not bad.any():
            return None
        i = tuple(int(x) for x in np.argwhere(bad)[0])
        return f"{int(bad.sum())}/{bad.size} elements differ, first at {i}: {got[i]} vs {ref[i]}"
    rtol, atol = _tolerance(t, accum)
    nan_ok = np.isnan(ref) & np.isnan(got)
    same = (ref == got) | nan_ok
    diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
    ok = same | (diff <= atol + rtol * np.abs(ref.astype(np.float64)))
    if ok.all():
        return None
    bad = ~ok
    i = tuple(int(x) for x in np.argwhere(bad)[0])
    return (f"{int(bad.sum())}/{bad.size} elements differ (rtol {rtol:g}, atol {atol:g}), "
            f"max |diff| {np.nanmax(np.where(bad, diff, 0)):.4g}, first at {i}: "
            f"{got[i]!r} vs {ref[i]!r}")


def _documented_refusal(msg):
    for sub, reason in REFUSALS:
        if sub in msg:
            return reason
    return None


def _documented_difference(model, feeds, outs, g, accum):
    """The reason of a DIFFERENCES entry explaining a mismatch: some node of `model`
    matches it and Strata's outputs `outs` match onnx.reference's; else None."""
    hits = [(name, reason) for name, pred, reason in DIFFERENCES
            if any(pred(n) for n in model.graph.node)]
    if not hits:
        return None
    from onnx.reference import ReferenceEvaluator
    try:
        refs = ReferenceEvaluator(model).run(None, feeds)
    except Exception:
        return None
    if len(refs) != len(outs) or any(
            compare(np.asarray(r), o, t, accum) for r, o, t in zip(refs, outs, g.outputs)):
        return None
    return "; ".join(f"{name}: {reason}" for name, reason in hits)


def run_case(seed, ops, nodes, targets, report):
    """Run case `seed`; `report(dict)` gets stage notices and the result. Returns the
    result: {"seed", "ops", "results": {target: (category, message)}, "category"}."""
    t0 = time.time()
    res = {"seed": seed, "ops": [], "results": {}}
    try:
        model, feeds, g = generate(seed, ops, nodes)
    except Exception as e:  # the generator's own checks (onnx.checker, inference)
        res.update(category="invalid", message=f"generator: {type(e).__name__}: {e}"[:2000])
        return res
    res["ops"] = g.ops_used
    report({"stage": "ort"})
    import onnxruntime as ort
    try:
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        sess = ort.InferenceSession(model.SerializeToString(), so,
                                    providers=["CPUExecutionProvider"])
        refs = sess.run(None, feeds)
    except Exception as e:
        res.update(category="invalid", message=f"onnxruntime: {type(e).__name__}: {e}"[:2000])
        return res
    for r, t in zip(refs, g.outputs):
        if r.shape != t.shape:
            res.update(category="invalid", message=f"generator: {t.name} tracked as "
                       f"{t.shape}, onnxruntime gives {r.shape}")
            return res
    accum = bool(_ACCUM & set(g.ops_used))
    import strata
    from strata.errors import StrataError
    for target in targets:
        report({"stage": target})
        try:
            f = strata.compile(model, target=target)
            outs = f(**feeds)
        except StrataError as e:
            # The located diagnostic (node name, notes) where the error carries one.
            msg = f"{type(e).__name__}: {getattr(e, 'diag', None) or e}"
            if getattr(e, "kind", None) == "crash":
                # a pass raised: an internal error the pass manager wrapped, not a refusal
                res["results"][target] = ("traceback", msg[:4000])
                continue
            why = _documented_refusal(msg)
            res["results"][target] = ("documented" if why else "refusal",
                                      msg[:3000] + (f"\n  documented: {why}" if why else ""))
            continue
        except Exception as e:
            res["results"][target] = ("traceback", "".join(traceback.format_exception(e))[-4000:])
            continue
        errs = []
        if len(outs) != len(refs):
            errs.append(f"{len(outs)} outputs, onnxruntime {len(refs)}")
        else:
            for i, (r, o, t) in enumerate(zip(refs, outs, g.outputs)):
                e = compare(r, o, t, accum)
                if e:
                    errs.append(f"output #{i} ({t.name}): {e}")
        if errs:
            why = _documented_difference(model, feeds, outs, g, accum)
            res["results"][target] = ("documented" if why else "mismatch",
                                      "; ".join(errs) + (f"\n  documented: {why}" if why else ""))
        else:
            res["results"][target] = ("pass", "")
    res["seconds"] = round(time.time() - t0, 2)
    return res


# ---------------------------------------------------------------- the driver

ORDER = ["crash", "hang", "traceback", "mismatch", "refusal", "invalid", "documented", "pass"]


def _worst(cats):
    return min(cats, key=ORDER.index) if cats else "pass"


class _Child:
    __slots__ = ("seed", "pid", "fd", "buf", "start", "stage", "result", "err")


def _spawn(seed, ops, nodes, targets):
    """Fork a child running case `seed` (see [Note: one process per case])."""
    import tempfile
    fd_err, err = tempfile.mkstemp(prefix=f"strata-fuzz-{seed}-", suffix=".stderr")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        # Its stderr (a fatal signal's Python stack, LLVM's messages) goes with a finding.
        sys.stderr.flush()
        os.dup2(fd_err, 2)
        import faulthandler
        faulthandler.enable(os.fdopen(2, "w", closefd=False))
        out = os.fdopen(w, "w", buffering=1)
        code = 0
        try:
            res = run_case(seed, ops, nodes, targets,
                           lambda d: (out.write(json.dumps(d) + "\n"), out.flush()))
            out.write(json.dumps({"result": res}) + "\n")
            out.flush()
        except BaseException:
            traceback.print_exc()
            code = 3
        os._exit(code)
    os.close(w)
    os.close(fd_err)
    c = _Child()
    c.err = err
    c.seed, c.pid, c.fd, c.buf, c.start, c.stage, c.result = seed, pid, r, b"", time.time(), \
        "generate", None
    os.set_blocking(r, False)
    return c


def _finish(c, status, timed_out, targets):
    if c.result is not None:
        res = c.result
    else:
        res = {"seed": c.seed, "ops": [], "results": {}}
    if timed_out:
        res["results"][c.stage] = ("hang", f"no result after the timeout, in stage {c.stage}")
    elif c.result is None:
        if os.WIFSIGNALED(status):
            sig = signal.Signals(os.WTERMSIG(status)).name
            res["results"][c.stage] = ("crash", f"killed by {sig} in stage {c.stage}")
        else:
            res["results"][c.stage] = ("crash", f"exited with {os.WEXITSTATUS(status)} "
                                       f"in stage {c.stage} without a result")
    if "category" not in res:
        res["category"] = _worst([v[0] for v in res["results"].values()])
    try:
        with open(c.err, errors="replace") as f:
            tail = f.read()[-3000:]
        os.unlink(c.err)
    except OSError:
        tail = ""
    if tail.strip() and res["category"] in ("crash", "hang", "traceback"):
        res["stderr"] = tail
    return res


def run_cases(seeds, ops=None, nodes=(2, 8), targets=("interpret", "cpu"), jobs=1,
              timeout=120.0, on_result=None):
    """Run every case of `seeds` in its own process, `jobs` at a time; returns the
    results in seed order."""
    import onnx  # noqa: F401  (imported once, before the forks)
    import onnxruntime  # noqa: F401
    import strata  # noqa: F401
    import strata.compiler  # noqa: F401
    import strata.backends.cpu.target  # noqa: F401
    pending = list(seeds)
    running: dict[int, _Child] = {}
    done = {}
    while pending or running:
        while pending and len(running) < jobs:
            c = _spawn(pending.pop(0), ops, nodes, targets)
            running[c.fd] = c
        rl, _, _ = select.select(list(running), [], [], 0.5)
        for fd in rl:
            c = running[fd]
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if chunk:
                c.buf += chunk
                while b"\n" in c.buf:
                    line, c.buf = c.buf.split(b"\n", 1)
                    try:
                        d = json.loads(line)
                    except ValueError:
                        continue
                    if "stage" in d:
                        c.stage = d["stage"]
                    if "result" in d:
                        c.result = d["result"]
                continue
            # EOF: the child is done (or died)
            _, status = os.waitpid(c.pid, 0)
            os.close(fd)
            del running[fd]
            done[c.seed] = _finish(c, status, False, targets)
            if on_result:
                on_result(done[c.seed])
        now = time.time()
        for fd, c in list(running.items()):
            if now - c.start > timeout:
                os.kill(c.pid, signal.SIGKILL)
                os.waitpid(c.pid, 0)
                os.close(fd)
                del running[fd]
                done[c.seed] = _finish(c, 0, True, targets)
                if on_result:
                    on_result(done[c.seed])
    return [done[s] for s in seeds]


def save_finding(res, out_dir, ops=None, nodes=(2, 8)):
    """Write the model, its inputs and the messages of a finding to out_dir/seed_<S>/."""
    d = os.path.join(out_dir, f"seed_{res['seed']}")
    os.makedirs(d, exist_ok=True)
    try:
        model, feeds, _ = generate(res["seed"], ops, nodes)
        import onnx
        onnx.save(model, os.path.join(d, "model.onnx"))
        np.savez(os.path.join(d, "inputs.npz"), **feeds)
    except Exception as e:
        feeds = None
        with open(os.path.join(d, "generator_error.txt"), "w") as f:
            f.write(f"{type(e).__name__}: {e}\n")
    with open(os.path.join(d, "finding.txt"), "w") as f:
        f.write(f"seed {res['seed']}: {res['category']}\nops: {' '.join(res['ops'])}\n"
                f"replay: python tools/fuzz_onnx.py --seed {res['seed']} --count 1"
                + (f" --ops {','.join(sorted(ops))}" if ops else "")
                + (f" --nodes {nodes[0]}-{nodes[1]}" if tuple(nodes) != (2, 8) else "")
                + "\n")
        if "message" in res:
            f.write(res["message"] + "\n")
        for t, (cat, msg) in res["results"].items():
            f.write(f"[{t}] {cat}\n{msg}\n")
        if "stderr" in res:
            f.write(f"--- the case's stderr (tail)\n{res['stderr']}\n")
    return d


def _line(res):
    def short(cat, m):
        lines = m.splitlines()
        if cat == "traceback":
            return lines[-1]
        # a refusal's first note says why
        return " / ".join(lines[:2]) if cat in ("refusal", "documented") else lines[0]
    msgs = [f"{t}: {short(cat, m)}"
            for t, (cat, m) in res["results"].items() if cat not in ("pass",) and m]
    if "message" in res:
        msgs.append(res["message"].splitlines()[0])
    return (f"[{res['seed']:5d}] {res['category']:<10} {' '.join(res['ops'])}"
            + ("".join(f"\n        {m[:300]}" for m in msgs) if msgs else ""))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0, help="the first case's seed")
    p.add_argument("--count", type=int, default=100, help="cases (seeds seed..seed+count-1)")
    p.add_argument("--ops", default=None,
                   help="comma-separated op types to draw from (default: all; --list-ops)")
    p.add_argument("--nodes", default="2-8", help="ops per graph, MIN-MAX")
    p.add_argument("--targets", default="interpret,cpu")
    p.add_argument("--jobs", type=int, default=1, help="cases run at once")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds per case")
    p.add_argument("--out", default="fuzz_out", help="folder for the findings")
    p.add_argument("--list-ops", action="store_true")
    p.add_argument("--print-model", action="store_true",
                   help="print each case's graph (onnx.printer) instead of running it")
    a = p.parse_args(argv)
    if a.list_ops:
        print(" ".join(sorted(OPS)))
        return 0
    ops = set(a.ops.split(",")) if a.ops else None
    if ops and ops - set(OPS):
        p.error(f"unknown ops {sorted(ops - set(OPS))} (--list-ops)")
    lo, _, hi = a.nodes.partition("-")
    nodes = (int(lo), int(hi or lo))
    seeds = range(a.seed, a.seed + a.count)
    if a.print_model:
        import onnx
        for s in seeds:
            m, feeds, _ = generate(s, ops, nodes)
            print(f"# seed {s}\n{onnx.printer.to_text(m)}")
        return 0
    counts = dict.fromkeys(ORDER, 0)
    t0 = time.time()

    def on_result(res):
        counts[res["category"]] += 1
        if res["category"] not in ("pass",):
            if res["category"] != "documented":
                res["saved"] = save_finding(res, a.out, ops, nodes)
        print(_line(res), flush=True)

    results = run_cases(seeds, ops, nodes, tuple(a.targets.split(",")), a.jobs, a.timeout,
                        on_result)
    print(f"\n{len(results)} cases in {time.time() - t0:.0f} s: "
          + "  ".join(f"{k} {v}" for k, v in counts.items()))
    findings = [r for r in results if r["category"] not in ("pass", "documented")]
    if findings:
        print(f"findings saved under {a.out}/: "
              + " ".join(str(r["seed"]) for r in findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
