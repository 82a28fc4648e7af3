"""Test models built in code with onnx.helper: an MLP, a small CNN (conv, batch norm,
pooling) and a 2-layer transformer encoder. Weights are seeded random numbers.

Each builder returns an onnx.ModelProto with a dynamic batch dimension "N" on its input
(the transformer: batch and sequence length), so the same model runs at any batch size.
"""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = 21


def _init(name, a):
    return numpy_helper.from_array(np.asarray(a, dtype=np.float32), name)


def onnxruntime_outputs(model, feeds):
    """onnxruntime's outputs of `model` (a ModelProto) on `feeds`, on one thread."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"]).run(None, feeds)


def randomize_batch_norms(m):
    """Torch module `m` in eval mode, its BatchNorm2d statistics and affine parameters
    drawn from torch's generator (so that folding them is not a no-op)."""
    import torch
    for p in m.modules():
        if isinstance(p, torch.nn.BatchNorm2d):
            p.running_mean.uniform_(-1, 1)
            p.running_var.uniform_(0.5, 2)
            p.weight.data.uniform_(0.5, 1.5)
            p.bias.data.uniform_(-1, 1)
    return m.eval()


def float_graph(nodes, inputs, outputs, inits=(), opset=18):
    """A model of `nodes` with f32 `inputs` / `outputs` ([(name, shape)]: dims ints or
    names) and f32 initializers `inits` ([(name, array)])."""
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs],
        [_init(n, a) for n, a in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


class _Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.n = 0

    def w(self, *shape, scale=None):
        self.n += 1
        name = f"w{self.n}"
        scale = scale if scale is not None else 1.0 / np.sqrt(max(shape[-1], 1))
        self.inits.append(_init(name, self.rng.standard_normal(shape) * scale))
        return name

    def const(self, value, dtype=np.int64):
        self.n += 1
        name = f"c{self.n}"
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, op_type, inputs, n_out=1, **attrs):
        self.n += 1
        outs = [f"{op_type.lower()}{self.n}_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=f"{op_type}_{self.n}",
                                           **attrs))
        return outs[0] if n_out == 1 else outs

    def model(self, name, inputs, output, out_shape):
        self.nodes[-1].output[0] = "output"
        g = helper.make_graph(self.nodes, name, inputs,
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                                             out_shape)], self.inits)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)],
                                 ir_version=10)


def mlp(seed=0, sizes=(64, 128, 128, 10)):
    g = _Graph(seed)
    x = "input"
    for i in range(len(sizes) - 1):
        x = g.op("Gemm", [x, g.w(sizes[i + 1], sizes[i]), g.w(sizes[i + 1], scale=0.1)],
                 transB=1)
        if i < len(sizes) - 2:
            x = g.op("Relu", [x])
    return g.model("mlp", [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                         ["N", sizes[0]])], x,
                   ["N", sizes[-1]])


def cnn(seed=0):
    g = _Graph(seed)
    x = "input"
    cin = 3
    for cout in (8, 16):
        x = g.op("Conv", [x, g.w(cout, cin, 3, 3, scale=0.3), g.w(cout, scale=0.1)],
                 pads=[1, 1, 1, 1], strides=[1, 1])
        x = g.op("BatchNormalization", [x, g.w(cout, scale=0.2), g.w(cout, scale=0.1),
                                        g.w(cout, scale=0.1),
                                        g.const(np.abs(g.rng.standard_normal(cout)) + 0.5,
                                                np.float32)], epsilon=1e-5)
        x = g.op("Relu", [x])
        x = g.op("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
        cin = cout
    x = g.op("AveragePool", [x], kernel_shape=[2, 2], strides=[1, 1], pads=[0, 0, 1, 1],
             count_include_pad=0)
    x = g.op("GlobalAveragePool", [x])
    x = g.op("Flatten", [x], axis=1)
    x = g.op("Gemm", [x, g.w(10, cin), g.w(10, scale=0.1)], transB=1)
    x = g.op("Softmax", [x], axis=-1)
    return g.model("cnn", [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                         ["N", 3, 16, 16])], x, ["N", 10])


def transformer_encoder(seed=0, d=32, heads=4, ff=64, layers=2):
    g = _Graph(seed)
    x = "input"  # [N, S, d]
    dh = d // heads
    for _ in range(layers):
        # self-attention
        q = g.op("Add", [g.op("MatMul", [x, g.w(d, d)]), g.w(d, scale=0.1)])
        k = g.op("Add", [g.op("MatMul", [x, g.w(d, d)]), g.w(d, scale=0.1)])
        v = g.op("Add", [g.op("MatMul", [x, g.w(d, d)]), g.w(d, scale=0.1)])
        split = g.const([0, 0, heads, dh])

        def heads_first(t):
            return g.op("Transpose", [g.op("Reshape", [t, split])], perm=[0, 2, 1, 3])
        qh, kh, vh = heads_first(q), heads_first(k), heads_first(v)
        scores = g.op("Div", [g.op("MatMul", [qh, g.op("Transpose", [kh], perm=[0, 1, 3, 2])]),
                              g.const(np.sqrt(dh), np.float32)])
        attn = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), vh])
        merged = g.op("Reshape", [g.op("Transpose", [attn], perm=[0, 2, 1, 3]),
                                  g.const([0, 0, d])])
        o = g.op("Add", [g.op("MatMul", [merged, g.w(d, d)]), g.w(d, scale=0.1)])
        x = g.op("LayerNormalization", [g.op("Add", [x, o]), g.w(d, scale=0.2),
                                        g.w(d, scale=0.1)], axis=-1, epsilon=1e-5)
        # feed-forward
        h = g.op("Gelu", [g.op("Add", [g.op("MatMul", [x, g.w(d, ff)]), g.w(ff, scale=0.1)])])
        f = g.op("Add", [g.op("MatMul", [h, g.w(ff, d)]), g.w(d, scale=0.1)])
        x = g.op("LayerNormalization", [g.op("Add", [x, f]), g.w(d, scale=0.2),
                                        g.w(d, scale=0.1)], axis=-1, epsilon=1e-5)
    return g.model("transformer_encoder",
                   [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", "S", d])],
                   x, ["N", "S", d])
