"""Benchmark: a convolution or GEMM layer followed by an activation (issue 18 item 2), with
the activation in the kernel's epilogue (as compiled today) against the same layer
compiled the way it was before (the activation a separate elementwise pass over the
output; 1x1 stride-1 convolutions on the unpacked filter), and onnxruntime; one
process, interleaved rounds, medians.

    python bench/epilogue_layers.py [--layers REGEX] [--threads 1,2] [--rounds 5]

Layers (batch 1, ONNX, a bias, then the activation):

    mbv2_*       MobileNetV2's 1x1 expansions + Clip(0, 6) (ReLU6)
    effnet_*     EfficientNet-B0's 1x1 expansions + x * Sigmoid(x) (SiLU)
    mbv3_*       MobileNetV3-Large's 1x1 expansions + HardSwish
    bert_fc1     BERT-base's FC1: 128 x 768 . 768 x 3072 + Gelu (erf, as exported)
    vit_fc1      ViT-B/16's FC1: 197 x 768 . 768 x 3072 + Gelu
    gpt2_fc1     GPT-2's FC1: 128 x 768 . 768 x 3072 + Gelu (tanh form)

    python bench/epilogue_layers.py --zoo REGEX [--threads 1,2] [--rounds 5]

--zoo: whole models of bench/zoo.py instead (their cached ONNX exports under
`$STRATA_ZOO_CACHE` or ~/.cache/strata/zoo, whose names match REGEX; run bench/zoo.py
once to make them), timed as bench/models.py times its peers, fused's error against
eager checked.

Per layer (model) and thread count: median ms of `before`, `fused` and `ort`, the ratios
fused/before and fused/ort. On a loaded machine the figures move by 2-5x between
rounds: only the ratios inside one round mean much.
"""
from __future__ import annotations

import argparse
import re
import statistics
import time

import numpy as np

# name: ("conv", C in, C out, H = W, activation) or ("gemm", M, K, N, activation)
LAYERS = {
    "mbv2_112": ("conv", 16, 96, 112, "relu6"),
    "mbv2_56": ("conv", 24, 144, 56, "relu6"),
    "mbv2_28": ("conv", 32, 192, 28, "relu6"),
    "mbv2_14": ("conv", 64, 384, 14, "relu6"),
    "mbv2_7": ("conv", 160, 960, 7, "relu6"),
    "effnet_112": ("conv", 16, 96, 112, "silu"),
    "effnet_56": ("conv", 24, 144, 56, "silu"),
    "effnet_14": ("conv", 80, 480, 14, "silu"),
    "mbv3_28": ("conv", 40, 240, 28, "hardswish"),
    "mbv3_14": ("conv", 80, 480, 14, "hardswish"),
    "bert_fc1": ("gemm", 128, 768, 3072, "gelu"),
    "vit_fc1": ("gemm", 197, 768, 3072, "gelu"),
    "gpt2_fc1": ("gemm", 128, 768, 3072, "gelu_tanh"),
}


def _act_nodes(act, x, y):
    from onnx import helper
    if act == "relu6":
        return [helper.make_node("Clip", [x, "lo", "hi"], [y])]
    if act == "silu":
        return [helper.make_node("Sigmoid", [x], ["s"]), helper.make_node("Mul", [x, "s"], [y])]
    if act == "hardswish":
        return [helper.make_node("HardSwish", [x], [y])]
    # GELU as torch.onnx.export writes it: x * 0.5 * (1 + erf(x / sqrt 2)), or tanh's
    if act == "gelu":
        return [helper.make_node("Div", [x, "s2"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
                helper.make_node("Add", ["e", "one"], ["a"]),
                helper.make_node("Mul", [x, "a"], ["m"]),
                helper.make_node("Mul", ["m", "half"], [y])]
    return [helper.make_node("Gelu", [x], [y], approximate="tanh")]


def model(spec):
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    kind, a, b, c, act = spec
    consts = {"lo": np.array(0, np.float32), "hi": np.array(6, np.float32),
              "s2": np.array(1.4142135, np.float32), "one": np.array(1, np.float32),
              "half": np.array(0.5, np.float32)}
    if kind == "conv":
        w = (rng.standard_normal((b, a, 1, 1)) / np.sqrt(a)).astype(np.float32)
        nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"])]
        shape = [1, a, c, c]
        bias = rng.standard_normal(b).astype(np.float32)
    else:
        w = (rng.standard_normal((b, c)) / np.sqrt(b)).astype(np.float32)
        nodes = [helper.make_node("MatMul", ["x", "w"], ["p"]),
                 helper.make_node("Add", ["p", "b"], ["c"])]
        shape = [1, a, b]
        bias = rng.standard_normal(c).astype(np.float32)
    nodes += _act_nodes(act, "c", "y")
    # the scalars as Constant nodes, as torch.onnx.export writes them
    used = {i for n in nodes for i in n.input}
    nodes = [helper.make_node("Constant", [], [k], value=numpy_helper.from_array(v, k))
             for k, v in consts.items() if k in used] + nodes
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(bias, "b")]
    g = helper.make_graph(nodes, "layer",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
    return m, rng.standard_normal(shape).astype(np.float32)


def compile_before(m, threads):
    """The layer compiled without this work: only ReLU (and a bias) recognized after a
    product, 1x1 stride-1 filters left unpacked (their kernel had no epilogue)."""
    import strata
    from strata.conversion import linalg_to_microkernels as lm
    act_of, panels = lm._activation_of, lm._Weights.filter_panels

    def relu_only(tree, names):
        found = act_of(tree, names)
        return found if found is not None and found[0] in ("none", "relu") else None

    def unpacked_points(self, w, groups=1):
        if all(k == 1 for k in w.type.shape[-2:]):
            return None
        return panels(self, w, groups)
    lm._activation_of, lm._Weights.filter_panels = relu_only, unpacked_points
    try:
        return strata.compile(m, num_threads=threads, cache=False)
    finally:
        lm._activation_of, lm._Weights.filter_panels = act_of, panels


def median_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


def zoo(regex, threads_list, rounds, repeat):
    import glob
    import os
    import sys

    import onnxruntime as ort

    import strata
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from models import interleaved_medians_ms
    cache = os.environ.get("STRATA_ZOO_CACHE", os.path.expanduser("~/.cache/strata/zoo"))
    print(f"{'model':22} {'thr':>3} {'before':>8} {'fused':>8} {'ort':>8} "
          f"{'fused/before':>12} {'fused/ort':>9} {'error':>8}")
    for folder in sorted(glob.glob(os.path.join(cache, "*"))):
        name = os.path.basename(folder)
        path = os.path.join(folder, "model.onnx")
        if not re.search(regex, name) or not os.path.exists(path):
            continue
        data = np.load(os.path.join(folder, "io.npz"))
        feeds = {k[3:]: data[k] for k in data.files if k.startswith("in_")}
        ref = data["out_0"]
        for threads in threads_list:
            before = compile_before(path, threads)
            fused = strata.compile(path, num_threads=threads, cache=False)
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.log_severity_level = 3
            sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
            got = np.asarray(fused(**feeds)[0], np.float64)
            err = float(np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30))
            t = interleaved_medians_ms({"before": lambda: before(**feeds),
                                        "fused": lambda: fused(**feeds),
                                        "ort": lambda: sess.run(None, feeds)},
                                       repeat, rounds)
            b, f, o = t["before"], t["fused"], t["ort"]
            print(f"{name:22} {threads:3d} {b:8.2f} {f:8.2f} {o:8.2f} {f / b:12.2f} "
                  f"{f / o:9.2f} {err:8.1e}", flush=True)


def main():
    import onnxruntime as ort

    import strata
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoo", default=None)
    ap.add_argument("--layers", default=".")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    if args.zoo:
        return zoo(args.zoo, list(map(int, args.threads.split(","))), args.rounds,
                   args.repeat)
    print(f"{'layer':12} {'thr':>3} {'before':>8} {'fused':>8} {'ort':>8} "
          f"{'fused/before':>12} {'fused/ort':>9}")
    for name, spec in LAYERS.items():
        if not re.search(args.layers, name):
            continue
        m, x = model(spec)
        for threads in map(int, args.threads.split(",")):
            before = compile_before(m, threads)
            fused = strata.compile(m, num_threads=threads, cache=False)
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.log_severity_level = 3
            sess = ort.InferenceSession(m.SerializeToString(), so,
                                        providers=["CPUExecutionProvider"])
            want = sess.run(None, {"x": x})[0]
            for f in (before, fused):
                got = f(x)[0]
                assert np.allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
            runs = {"before": lambda: before(x), "fused": lambda: fused(x),
                    "ort": lambda: sess.run(None, {"x": x})}
            t = {k: [] for k in runs}
            for _ in range(args.rounds):
                for k, fn in runs.items():
                    t[k].append(median_ms(fn, args.repeat))
            b, f, o = (statistics.median(t[k]) for k in ("before", "fused", "ort"))
            print(f"{name:12} {threads:3d} {b:8.3f} {f:8.3f} {o:8.3f} {f / b:12.2f} "
                  f"{f / o:9.2f}", flush=True)


if __name__ == "__main__":
    main()
