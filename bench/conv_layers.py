"""Benchmark: single convolution layers of the zoo's slow models (issue 18), Strata's CPU
kernels against convert-linalg-to-loops (what these convolutions were before the grouped
and 1-D matches of strata-linalg-to-microkernels) and onnxruntime, in one process,
interleaved rounds, medians.

    python bench/conv_layers.py [--layers REGEX] [--threads 1,2] [--rounds 5] [--repeat 3]

Layers (ONNX Conv with a bias, then Relu for the 2-D ones; batch 1; ResNeXt-50 32x4d
and RegNet-X-1.6GF 3x3 grouped convolutions at 224x224 input, the Whisper encoder's two
Conv1d over 3000 frames):

    resnext_s1 .. resnext_s4[_down]    C = 128 .. 1024, 32 groups, 56x56 .. 7x7
    regnetx_s1 .. regnetx_s4[_down]    C = 72 .. 912, groups of 24, 56x56 .. 7x7
    whisper_conv1, whisper_conv2        80 -> 384 k3, 384 -> 384 k3 stride 2

Per layer and thread count: the median ms of `loops` (the layer compiled with the
grouped / 1-D matches switched off), `kernel` (as compiled today) and `ort`, and the
ratios kernel/ort and loops/kernel. `loops` is skipped past --loops-max-gmacs (it takes
seconds a call).
"""
from __future__ import annotations

import argparse
import re
import statistics
import time

import numpy as np

# name: (C in, C out, group, kernel, stride, input spatial shape)
LAYERS = {
    "resnext_s1": (128, 128, 32, 3, 1, (56, 56)),
    "resnext_s2_down": (256, 256, 32, 3, 2, (56, 56)),
    "resnext_s2": (256, 256, 32, 3, 1, (28, 28)),
    "resnext_s3_down": (512, 512, 32, 3, 2, (28, 28)),
    "resnext_s3": (512, 512, 32, 3, 1, (14, 14)),
    "resnext_s4_down": (1024, 1024, 32, 3, 2, (14, 14)),
    "resnext_s4": (1024, 1024, 32, 3, 1, (7, 7)),
    "regnetx_s1_down": (72, 72, 3, 3, 2, (112, 112)),
    "regnetx_s1": (72, 72, 3, 3, 1, (56, 56)),
    "regnetx_s2_down": (168, 168, 7, 3, 2, (56, 56)),
    "regnetx_s2": (168, 168, 7, 3, 1, (28, 28)),
    "regnetx_s3_down": (408, 408, 17, 3, 2, (28, 28)),
    "regnetx_s3": (408, 408, 17, 3, 1, (14, 14)),
    "regnetx_s4_down": (912, 912, 38, 3, 2, (14, 14)),
    "regnetx_s4": (912, 912, 38, 3, 1, (7, 7)),
    "whisper_conv1": (80, 384, 1, 3, 1, (3000,)),
    "whisper_conv2": (384, 384, 1, 3, 2, (3000,)),
}


def layer_model(cin, cout, group, k, stride, spatial):
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    nd = len(spatial)
    w = (rng.standard_normal((cout, cin // group) + (k,) * nd) * 0.1).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c" if nd == 2 else "y"],
                              group=group, strides=[stride] * nd, pads=[k // 2] * 2 * nd)]
    if nd == 2:
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
    g = helper.make_graph(nodes, "layer", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, cin, *spatial])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def _loops(model, threads):
    """The layer compiled with the grouped and 1-D matches off (the loops they replace)."""
    import strata
    from strata.conversion import linalg_to_microkernels as lm
    saved = dict(lm._CONVS)
    for name in ("linalg.conv_1d_ncw_fcw", "linalg.conv_2d_ngchw_gfchw"):
        lm._CONVS.pop(name, None)
    try:
        return strata.compile(model, num_threads=threads, cache=False)
    finally:
        lm._CONVS.clear()
        lm._CONVS.update(saved)


def _time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layers", default=".")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--loops-max-gmacs", type=float, default=0.2)
    args = ap.parse_args(argv)
    import onnxruntime as ort

    import strata
    print(f"{'layer':18} {'t':>2} {'GMAC':>6} {'loops':>9} {'kernel':>8} {'ort':>8} "
          f"{'k/ort':>6} {'loops/k':>8}")
    for name, spec in LAYERS.items():
        if not re.search(args.layers, name):
            continue
        cin, cout, group, k, stride, spatial = spec
        model = layer_model(*spec)
        out = [(s + 2 * (k // 2) - k) // stride + 1 for s in spatial]
        gmacs = cout * cin // group * k ** len(spatial) * int(np.prod(out)) / 1e9
        x = np.random.default_rng(1).standard_normal((1, cin, *spatial)).astype(np.float32)
        for t in [int(v) for v in args.threads.split(",")]:
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = t
            sess = ort.InferenceSession(model.SerializeToString(), opts,
                                        providers=["CPUExecutionProvider"])
            runs = {"kernel": strata.compile(model, num_threads=t, cache=False)}
            if gmacs <= args.loops_max_gmacs:
                runs["loops"] = _loops(model, t)
            runs["ort"] = lambda: sess.run(None, {"x": x})
            want = sess.run(None, {"x": x})[0]
            for key in ("kernel", "loops"):
                if key in runs:
                    f = runs[key]
                    got = f(x)[0]
                    err = np.abs(got - want).max() / np.abs(want).max()
                    assert err < 1e-4, (name, key, err)
                    runs[key] = (lambda f=f: f(x))
            times = {key: [] for key in runs}
            for _ in range(args.rounds):
                for key, fn in runs.items():
                    times[key].append(_time(fn, args.repeat))
            med = {key: statistics.median(v) for key, v in times.items()}
            kern, loops = med["kernel"], med.get("loops")
            lcol = f"{loops:9.2f}" if loops else f"{'-':>9}"
            speedup = f"{loops / kern:8.1f}" if loops else f"{'-':>8}"
            print(f"{name:18} {t:>2} {gmacs:6.3f} {lcol} {kern:8.2f} {med['ort']:8.2f} "
                  f"{kern / med['ort']:6.2f} {speedup}", flush=True)


if __name__ == "__main__":
    main()
