"""Benchmark: concatenations written in place (issue 18; `strata-concat-in-place`,
[Note: copies placed in place] in strata/conversion/bufferize/in_place.py) on whole zoo
models: Strata with the pass, Strata without it (taken out of the CPU target's
bufferization pipeline in this process), onnxruntime and OpenVINO, in one process,
interleaved rounds, medians.

    python bench/concat_in_place.py [--models densenet121,segformer_b0,deeplab_small]
                                    [--threads 1] [--rounds 7] [--repeat 3]

Models are the batch-1 ONNX exports bench/zoo.py caches under ~/.cache/strata/zoo
(NAME-*/model.onnx with io.npz). Prints per model how many copies the pass removed,
each build's error against onnxruntime, the median ms of each peer and the ratios: wall
time in interleaved rounds, and process CPU time of calls in turn (the steadier figure on
a loaded machine; at more threads it also counts spinning pool threads).
Both Strata builds compile cold (cache=False: the compiled-model cache's key does not
see the pipeline change).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
from models import interleaved_medians_ms  # noqa: E402
from residual_epilogue import _model  # noqa: E402  (the batch-1 export's path)
from zoo import compile_peer  # noqa: E402

PASS = "strata-concat-in-place"


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
    path = _model(name)
    io = np.load(os.path.join(os.path.dirname(path), "io.npz"))
    inputs = {k: io[k] for k in io.files if k.startswith("in_")}
    ins = list(inputs.values())
    ort_run = compile_peer("ort", path, inputs, threads)
    ov_run = compile_peer("openvino", path, inputs, threads)
    on, off = _strata(path, threads, True), _strata(path, threads, False)
    ref = ort_run()[0]
    for label, f in (("in place", on), ("copies", off)):
        y = np.asarray(f(*ins)[0])
        err = float(np.abs(y - ref).max() / max(np.abs(ref).max(), 1e-30))
        print(f"{name}: Strata {label} max rel err vs ort {err:.2e}")
    peers = {"in place": lambda: on(*ins), "copies": lambda: off(*ins), "ort": ort_run,
             "openvino": ov_run}
    for label, ms in (("wall", interleaved_medians_ms(peers, repeat=repeat, rounds=rounds)),
                      ("process CPU", _cpu_medians_ms(peers, repeat))):
        print(f"{name} ({threads} thread(s), {label}): " +
              ", ".join(f"{k} {v:.2f} ms" for k, v in ms.items()))
        print(f"  in place / copies {ms['in place'] / ms['copies']:.3f}, "
              f"/ ort {ms['in place'] / ms['ort']:.3f} (copies {ms['copies'] / ms['ort']:.3f}), "
              f"/ openvino {ms['in place'] / ms['openvino']:.3f} "
              f"(copies {ms['copies'] / ms['openvino']:.3f})")


def _cpu_medians_ms(peers, repeat):
    """{peer: median process CPU ms of a call}, the peers called in turn `repeat` times:
    on a loaded machine a call's CPU time varies far less than its wall time (it counts
    every thread of the process: at 1 thread, the work of the call)."""
    import statistics
    import time
    got = {k: [] for k in peers}
    for _ in range(repeat):
        for k, fn in peers.items():
            t = time.process_time()
            fn()
            got[k].append(time.process_time() - t)
    return {k: statistics.median(v) * 1e3 for k, v in got.items()}


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
