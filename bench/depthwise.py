"""Benchmark: depthwise convolution layers (MobileNetV2's 3x3, EfficientNet-B0's 5x5), each
an ONNX Conv with group = C, its bias and the activation after it, Strata with the
depthwise kernel (strata_dwconv2d_nchw_f32) against Strata without it (the loop nests
of convert-linalg-to-loops, the state before it), onnxruntime and OpenVINO (CPU, f32,
when installed), in the same process.

    python bench/depthwise.py [--threads 1,2] [--rounds 5] [--repeat 20] [--layers REGEX]
                              [--zoo REGEX]

--zoo times whole models of bench/zoo.py's cache instead (run bench/zoo.py once first),
"before" then being Strata without the depthwise kernel and the channel-scale fold.

Per layer and thread count: the median ms of each (interleaved rounds: A, B, C, A, B, C
...; the medians of the rounds' means) and the ratios new/before, new/onnxruntime and
new/OpenVINO.
Geometric means at the bottom. One thread is timed in process CPU time, more in wall
time; timings on a loaded machine are noisy: compare ratios.
"""
from __future__ import annotations

import argparse
import math
import re
import statistics
import time

import numpy as np

# name: (C, H, W, k, stride, activation)
LAYERS = {
    "mbv2_32x112_s1": (32, 112, 112, 3, 1, "relu6"),
    "mbv2_96x112_s2": (96, 112, 112, 3, 2, "relu6"),
    "mbv2_144x56_s1": (144, 56, 56, 3, 1, "relu6"),
    "mbv2_144x56_s2": (144, 56, 56, 3, 2, "relu6"),
    "mbv2_192x28_s1": (192, 28, 28, 3, 1, "relu6"),
    "mbv2_384x14_s1": (384, 14, 14, 3, 1, "relu6"),
    "mbv2_576x14_s2": (576, 14, 14, 3, 2, "relu6"),
    "mbv2_960x7_s1": (960, 7, 7, 3, 1, "relu6"),
    "effb0_144x56_5s2": (144, 56, 56, 5, 2, "silu"),
    "effb0_240x28_5s1": (240, 28, 28, 5, 1, "silu"),
    "effb0_672x14_5s2": (672, 14, 14, 5, 2, "silu"),
    "effb0_1152x7_5s1": (1152, 7, 7, 5, 1, "silu"),
    "effb0_672x14_5s1": (672, 14, 14, 5, 1, "silu"),
    "mbv3_672x14_5s1": (672, 14, 14, 5, 1, "hardswish"),
    "mbv3_960x7_5s1": (960, 7, 7, 5, 1, "hardswish"),
}


def layer_model(c, h, w, k, s, act):
    """The ONNX model of one layer: Conv(group=C, pads k//2, bias) then `act`."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((c, 1, k, k)).astype(np.float32) / k,
                                     "w"),
             numpy_helper.from_array(rng.standard_normal(c).astype(np.float32), "b")]
    p = k // 2
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["y"], group=c, kernel_shape=[k, k],
                              strides=[s, s], pads=[p] * 4)]
    if act == "relu6":
        inits += [numpy_helper.from_array(np.array(0, np.float32), "lo"),
                  numpy_helper.from_array(np.array(6, np.float32), "hi")]
        nodes.append(helper.make_node("Clip", ["y", "lo", "hi"], ["z"]))
    elif act == "hardswish":
        nodes.append(helper.make_node("HardSwish", ["y"], ["z"]))
    else:
        nodes += [helper.make_node("Sigmoid", ["y"], ["g"]),
                  helper.make_node("Mul", ["y", "g"], ["z"])]
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    g = helper.make_graph(nodes, "dw", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, c, h, w])], [helper.make_tensor_value_info(
            "z", TensorProto.FLOAT, [1, c, oh, ow])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def _strata(model, threads, depthwise: bool):
    """Strata's compile of `model`; depthwise=False: without the depthwise kernel and the
    channel-scale fold (the state before them)."""
    import strata
    from strata.conversion import linalg_to_microkernels as l2m
    keep = l2m.match_depthwise, l2m.fold_channel_scales
    if not depthwise:
        l2m.match_depthwise = lambda op: False
        l2m.fold_channel_scales = lambda module, *weights: 0
    try:
        f = strata.compile(model, num_threads=threads, cache=False)
    finally:
        l2m.match_depthwise, l2m.fold_channel_scales = keep
    return lambda x: f(x)[0]


def _ort(model, threads):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    return lambda x: sess.run(None, {name: x})[0]


def _openvino(model, threads):
    """OpenVINO's CPU plugin at f32 on `model`, or None when it is not installed."""
    try:
        import openvino as ov
    except ImportError:
        return None
    core = ov.Core()
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU", {
        "INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads,
        "PERFORMANCE_HINT": "LATENCY"})
    request = compiled.create_infer_request()
    name = compiled.inputs[0].any_name

    def run(x):
        request.infer({name: x})
        return request.get_output_tensor(0).data
    return run


def _zoo_models(pattern):
    """(name, ONNX model, input) of the models bench/zoo.py cached whose names match."""
    import glob
    import os

    import onnx
    root = os.environ.get("STRATA_ZOO_CACHE") or os.path.expanduser("~/.cache/strata/zoo")
    for path in sorted(glob.glob(os.path.join(root, "*", "model.onnx"))):
        name = os.path.basename(os.path.dirname(path)).rsplit("-", 1)[0]
        if re.search(pattern, name):
            m = onnx.load(path)
            dims = [d.dim_value or 1 for d in m.graph.input[0].type.tensor_type.shape.dim]
            x = np.random.default_rng(1).standard_normal(dims).astype(np.float32)
            yield name, m, x


def _time(fn, x, repeat, clock):
    fn(x)
    t = clock()
    for _ in range(repeat):
        fn(x)
    return (clock() - t) / repeat * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--layers", default="")
    ap.add_argument("--zoo", default="", help="regex over bench/zoo.py's cached models: "
                    "time those whole instead of the layers")
    args = ap.parse_args(argv)
    names = [n for n in LAYERS if re.search(args.layers, n)]

    def cases():
        if args.zoo:
            yield from _zoo_models(args.zoo)
            return
        for name in names:
            c, h, w, k, s, act = LAYERS[name]
            x = np.random.default_rng(1).standard_normal((1, c, h, w)).astype(np.float32)
            yield name, layer_model(c, h, w, k, s, act), x
    print(f"{'layer':18} {'t':>2} {'before':>8} {'new':>8} {'ort':>8} {'ov':>8} "
          f"{'new/bef':>8} {'new/ort':>8} {'new/ov':>8}  maxdiff")
    logs = {"before": [], "ort": [], "ov": []}
    for threads in (int(t) for t in args.threads.split(",")):
        for name, m, x in cases():
            peers = {"before": _strata(m, threads, False), "new": _strata(m, threads, True),
                     "ort": _ort(m, threads), "ov": _openvino(m, threads)}
            peers = {p: fn for p, fn in peers.items() if fn is not None}
            ref = peers["ort"](x)
            diff = float(np.abs(peers["new"](x) - ref).max() / np.abs(ref).max())
            times = {p: [] for p in peers}
            # one thread: CPU time (the machine's load does not count), else wall time
            clock = time.process_time if threads == 1 else time.perf_counter
            for _ in range(args.rounds):
                for p, fn in peers.items():
                    times[p].append(_time(fn, x, args.repeat, clock))
            med = {p: statistics.median(v) for p, v in times.items()}
            ratios = {p: med["new"] / med[p] for p in logs if p in med}
            for p, r in ratios.items():
                logs[p].append(math.log(r))
            cols = " ".join(f"{med[p]:8.3f}" if p in med else f"{'-':>8}"
                            for p in ("before", "new", "ort", "ov"))
            rs = " ".join(f"{ratios[p]:8.2f}" if p in ratios else f"{'-':>8}" for p in logs)
            print(f"{name:18} {threads:>2} {cols} {rs}  {diff:.1e}", flush=True)
    print("geomean " + ", ".join(f"new/{p} {math.exp(sum(v) / len(v)):.2f}"
                                 for p, v in logs.items() if v))


if __name__ == "__main__":
    main()
