"""Benchmark: concatenations written in place (issue 18; `strata-concat-in-place`,
[Note: copies placed in place] in strata/conversion/bufferize/in_place.py) on whole zoo
models: Strata with the pass, Strata without it (taken out of the CPU target's
bufferization pipeline in this process), onnxruntime and OpenVINO, in one process,
interleaved rounds, medians.

    python bench/concat_in_place.py [--models densenet121,segformer_b0,deeplab_small]
                                    [--threads 1] [--rounds 7] [--repeat 3]

Models are the batch-1 ONNX exports bench/zoo.py caches under ~/.cache/strata/zoo
(NAME-*/model.onnx with io.npz). Prints per model how many copies the pass removed,
each build's error against onnxruntime, the median ms of each peer and the ratios.
Both Strata builds compile cold (cache=False: the compiled-model cache's key does not
see the pipeline change).
"""
from __future__ import annotations

import argparse
import glob
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
from models import interleaved_medians_ms  # noqa: E402

ZOO = os.path.expanduser("~/.cache/strata/zoo")
PASS = "strata-concat-in-place"


def _model(name):
    import onnx
    for p in sorted(glob.glob(os.path.join(ZOO, f"{name}-*", "model.onnx"))):
        dim = onnx.load(p, load_external_data=False).graph.input[0].type.tensor_type.shape.dim
        if dim and dim[0].dim_value == 1:
            return p
    raise SystemExit(f"no batch-1 export of {name} under {ZOO}: run bench/zoo.py first")


def _strata(path, threads, with_pass):
    import strata
    from strata.backends.cpu import target
    saved = target.BUFFERIZE_PIPELINE
    if not with_pass:
        target.BUFFERIZE_PIPELINE = tuple(p for p in saved if p != PASS)
    try:
        return strata.compile(path, num_threads=threads, cache=False)
    finally:
        target.BUFFERIZE_PIPELINE = saved


def run(name, threads, rounds, repeat):
    import onnxruntime as ort
    import openvino as ov
    path = _model(name)
    io = np.load(os.path.join(os.path.dirname(path), "io.npz"))
    ins = [io[k] for k in io.files if k.startswith("in_")]
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    feed = dict(zip((i.name for i in sess.get_inputs()), ins))
    core = ov.Core()
    comp = core.compile_model(core.read_model(path), "CPU", {
        "INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads,
        "PERFORMANCE_HINT": "LATENCY"})
    req = comp.create_infer_request()
    ov_feed = dict(zip((p.any_name for p in comp.inputs), ins))
    on, off = _strata(path, threads, True), _strata(path, threads, False)
    ref = sess.run(None, feed)[0]
    for label, f in (("in place", on), ("copies", off)):
        y = np.asarray(f(*ins)[0])
        err = float(np.abs(y - ref).max() / max(np.abs(ref).max(), 1e-30))
        print(f"{name}: Strata {label} max rel err vs ort {err:.2e}")
    ms = interleaved_medians_ms({
        "in place": lambda: on(*ins), "copies": lambda: off(*ins),
        "ort": lambda: sess.run(None, feed), "openvino": lambda: req.infer(ov_feed)},
        repeat=repeat, rounds=rounds)
    print(f"{name} ({threads} thread(s)): " + ", ".join(f"{k} {v:.2f} ms" for k, v in ms.items()))
    print(f"  in place / copies {ms['in place'] / ms['copies']:.3f}, "
          f"/ ort {ms['in place'] / ms['ort']:.3f} (copies {ms['copies'] / ms['ort']:.3f}), "
          f"/ openvino {ms['in place'] / ms['openvino']:.3f} "
          f"(copies {ms['copies'] / ms['openvino']:.3f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="densenet121,segformer_b0,deeplab_small")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=21)
    a = ap.parse_args()
    for name in a.models.split(","):
        run(name, a.threads, a.rounds, a.repeat)


if __name__ == "__main__":
    main()
