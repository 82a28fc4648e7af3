"""Benchmark: single convolution layers of the zoo's CNNs (issue 18), Strata's CPU kernels
against onnxruntime and OpenVINO, in one process, interleaved rounds, medians.

    python bench/conv_layers.py [--layers REGEX] [--threads 1,2] [--rounds 5] [--repeat 3]
    python bench/conv_layers.py --model resnet50 [--threads 1,2] [--clock cpu] [--cold] ...

Built-in layers (ONNX Conv with a bias, then Relu for the 2-D ones; batch 1; ResNeXt-50
32x4d and RegNet-X-1.6GF 3x3 grouped convolutions at 224x224 input, the Whisper
encoder's two Conv1d over 3000 frames):

    resnext_s1 .. resnext_s4[_down]    C = 128 .. 1024, 32 groups, 56x56 .. 7x7
    regnetx_s1 .. regnetx_s4[_down]    C = 72 .. 912, groups of 24, 56x56 .. 7x7
    whisper_conv1, whisper_conv2        80 -> 384 k3, 384 -> 384 k3 stride 2

`--model NAME` (a zoo model exported by bench/zoo.py, looked up as NAME-*/model.onnx
with a static batch of 1 under ~/.cache/strata/zoo, or an .onnx path) takes the model's
distinct Conv nodes instead (each as Conv + bias + Relu, batch 1, with how often it
occurs), and also times the whole model in the same rounds: the per-layer times
weighted by their counts, summed, against the whole model's time, say how much of each
peer's time is convolutions and how much the rest (adds, ReLUs the peers did not fuse,
pooling, copies, the head).

Reading the `ort` column: onnxruntime (graph optimizations at ORT_ENABLE_ALL, its
default) runs CNNs in its blocked NCHWc layout (channels in vectors of 16 on AVX-512),
reordering at the graph's edges: a single layer pays a reorder in and out, a chain of
layers does not, so the per-layer times overstate its convolutions inside the model
(MobileNetV2 at 1 thread: 7.9 ms whole, 17.3 ms at ORT_ENABLE_EXTENDED, NCHW; Strata 8.2).

Per layer and thread count: the median ms of Strata (`strata`, cache off), onnxruntime
(`ort`) and OpenVINO (`ov`, CPU plugin, f32 hint, latency mode) and the ratios
strata/ort, strata/ov. Every peer's output is checked against onnxruntime's first.
"""
from __future__ import annotations

import argparse
import collections
import glob
import os
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
PEERS = ("strata", "ort", "ov")


def layer_model(cin, cout, group, k, stride, spatial, pad=None, dilation=1):
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    nd = len(spatial)
    pad = k // 2 if pad is None else pad
    w = (rng.standard_normal((cout, cin // group) + (k,) * nd) * 0.1).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c" if nd == 2 else "y"],
                              group=group, strides=[stride] * nd, pads=[pad] * 2 * nd,
                              dilations=[dilation] * nd)]
    if nd == 2:
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
    g = helper.make_graph(nodes, "layer", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, cin, *spatial])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def model_path(name: str) -> str:
    """The .onnx of zoo model `name` with a static batch of 1 (or `name` itself)."""
    if name.endswith(".onnx"):
        return name
    import onnx
    root = os.environ.get("STRATA_ZOO_CACHE", os.path.expanduser("~/.cache/strata/zoo"))
    for p in sorted(glob.glob(os.path.join(root, f"{name}-*", "model.onnx"))):
        dims = onnx.load(p, load_external_data=False).graph.input[0].type.tensor_type
        if dims.shape.dim[0].dim_value == 1:
            return p
    raise SystemExit(f"no cached zoo model {name!r} with batch 1 under {root} "
                     f"(run bench/zoo.py --models {name} first)")


def model_layers(path: str) -> dict:
    """{name: (spec, count)} of the distinct Conv nodes of the ONNX model at `path` (2-D,
    square kernels, strides, dilations and symmetric pads), named by their shape."""
    import onnx
    from onnx import numpy_helper, shape_inference
    m = shape_inference.infer_shapes(onnx.load(path))
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(m.graph.value_info) + list(m.graph.input)}
    convs = [n.input[0] for n in m.graph.node if n.op_type == "Conv"]
    if any(0 in shapes.get(v, [0]) for v in convs):
        shapes.update(_run_shapes(m, convs))
    inits = {t.name: t.dims for t in m.graph.initializer}
    found = collections.Counter()
    for n in m.graph.node:
        if n.op_type != "Conv":
            continue
        a = {x.name: onnx.helper.get_attribute_value(x) for x in n.attribute}
        wdims = list(inits[n.input[1]])
        x = shapes[n.input[0]]
        k, s, p = wdims[2], a.get("strides", [1, 1]), a.get("pads", [0] * 4)
        d = a.get("dilations", [1, 1])
        if wdims[2] != wdims[3] or len(set(s)) != 1 or len(set(p)) != 1 or len(set(d)) != 1:
            continue
        g = a.get("group", 1)
        found[(x[1], wdims[0], g, k, s[0], tuple(x[2:]), p[0], d[0])] += 1
    del numpy_helper
    out = {}
    for (cin, cout, g, k, s, sp, p, d), count in found.items():
        name = f"c{cin}_{cout}{f'_g{g}' if g > 1 else ''}_k{k}s{s}" \
               f"{f'd{d}' if d > 1 else ''}_{sp[0]}px"
        out[name] = ((cin, cout, g, k, s, sp, p, d), count)
    return out


def _run_shapes(m, names) -> dict:
    """{name: shape} of the values `names` of model `m`, found by running it once in
    onnxruntime (shapes the exporter computes at run time, as HF's TF-style padding's
    Pad before every Conv, leave ONNX's shape inference with none)."""
    import onnx
    import onnxruntime as ort
    m = onnx.ModelProto.FromString(m.SerializeToString())
    have = {o.name for o in m.graph.output}
    m.graph.output.extend(onnx.helper.make_empty_tensor_value_info(v) for v in
                          dict.fromkeys(names) if v not in have)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {i.name: np.zeros([d if isinstance(d, int) else 1 for d in i.shape], np.float32)
             for i in sess.get_inputs()}
    outs = sess.run(None, feeds)
    return {o.name: list(v.shape) for o, v in zip(sess.get_outputs(), outs)}


def peer(kind: str, model, threads: int):
    """A callable running `model` (an onnx ModelProto or path) on one input x."""
    data = model if isinstance(model, str) else model.SerializeToString()
    if kind == "strata":
        import strata
        f = strata.compile(model, num_threads=threads, cache=False)
        return lambda x: f(x)[0]
    if kind == "ort":
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        sess = ort.InferenceSession(data, opts, providers=["CPUExecutionProvider"])
        name = sess.get_inputs()[0].name
        return lambda x: sess.run(None, {name: x})[0]
    import openvino as ov
    core = ov.Core()
    ovm = core.read_model(model) if isinstance(model, str) else core.read_model(
        data, ov.Tensor(np.zeros(0, np.uint8)))
    compiled = core.compile_model(ovm, "CPU", {
        "INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads,
        "PERFORMANCE_HINT": "LATENCY"})
    req = compiled.create_infer_request()

    def run(x):
        req.infer({0: x})
        return req.get_output_tensor(0).data
    return run


# The clock _time reads: wall time, or the process's CPU time (`--clock cpu`: on a loaded
# machine at 1 thread, what each peer computes whatever the other processes do; at 2
# threads it also counts a peer's spinning threads).
CLOCK = {"wall": time.perf_counter, "cpu": time.process_time}


# `--cold`: before each timed run, every cache line of this many bytes is written, so
# that the layer's filter and image come from the last-level cache or memory, as in a
# whole model (where 25-100 MB of weights pass between two runs of a layer), not from
# the core's L2 where a layer run again and again keeps them.
EVICT_BYTES = 64 << 20
_evict = None


def _time(fn, repeat, clock=time.perf_counter, cold=False):
    global _evict
    if cold and _evict is None:
        _evict = np.zeros(EVICT_BYTES // 4, np.float32)
    best = float("inf")
    for _ in range(repeat):
        if cold:
            _evict[::16] += 1.0
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best * 1e3


def measure(model, x, threads, rounds, repeat, peers=PEERS, clock=time.perf_counter,
            cold=False):
    """{peer: median ms} of `model` on x, the peers interleaved; outputs checked."""
    runs = {p: peer(p, model, threads) for p in peers}
    want = runs["ort"](x) if "ort" in runs else None
    for p, f in runs.items():
        got = f(x)
        if want is not None:
            err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
            assert err < 1e-4, (p, err)
    times = {p: [] for p in runs}
    for _ in range(rounds):
        for p, f in runs.items():
            times[p].append(_time(lambda f=f: f(x), repeat, clock, cold))
    return {p: statistics.median(v) for p, v in times.items()}


def _row(name, t, gmacs, count, med):
    s = med["strata"]
    cols = " ".join(f"{med[p]:8.3f}" for p in PEERS)
    return (f"{name:26} {t:>2} {gmacs:6.3f} {count:>3} {cols} {s / med['ort']:6.2f} "
            f"{s / med['ov']:6.2f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layers", default=".")
    ap.add_argument("--model", default=None)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--clock", choices=sorted(CLOCK), default="wall")
    ap.add_argument("--cold", action="store_true", help="evict the caches before each "
                    "timed run of a layer (see EVICT_BYTES)")
    args = ap.parse_args(argv)
    clock = CLOCK[args.clock]
    if args.model:
        path = model_path(args.model)
        layers = model_layers(path)
    else:
        path, layers = None, {n: ((*s, None, 1), 1) for n, s in LAYERS.items()}
    threads = [int(v) for v in args.threads.split(",")]
    print(f"{'layer':26} {'t':>2} {'GMAC':>6} {'n':>3} " +
          " ".join(f"{p:>8}" for p in PEERS) + f" {'s/ort':>6} {'s/ov':>6}", flush=True)
    total = {t: dict.fromkeys(PEERS, 0.0) for t in threads}
    for name, (spec, count) in layers.items():
        if not re.search(args.layers, name):
            continue
        cin, cout, group, k, stride, spatial, pad, dil = spec
        model = layer_model(*spec)
        pad = k // 2 if pad is None else pad
        out = [(s + 2 * pad - dil * (k - 1) - 1) // stride + 1 for s in spatial]
        gmacs = cout * cin // group * k ** len(spatial) * int(np.prod(out)) / 1e9
        x = np.random.default_rng(1).standard_normal((1, cin, *spatial)).astype(np.float32)
        for t in threads:
            med = measure(model, x, t, args.rounds, args.repeat, clock=clock, cold=args.cold)
            for p in PEERS:
                total[t][p] += count * med[p]
            print(_row(name, t, gmacs, count, med), flush=True)
    if path:
        import onnx
        inp = onnx.load(path, load_external_data=False).graph.input[0].type.tensor_type
        x = np.random.default_rng(1).standard_normal(
            [d.dim_value for d in inp.shape.dim]).astype(np.float32)
        for t in threads:
            whole = measure(path, x, t, args.rounds, args.repeat, clock=clock)
            print(f"{'whole model':26} {t:>2} " + " ".join(
                f"{p}={whole[p]:.2f} ms (convs {total[t][p]:.2f}, rest "
                f"{whole[p] - total[t][p]:.2f})" for p in PEERS) +
                f"; strata/ort {whole['strata'] / whole['ort']:.2f}, strata/ov "
                f"{whole['strata'] / whole['ov']:.2f}", flush=True)


if __name__ == "__main__":
    main()
