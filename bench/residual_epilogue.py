"""Benchmark: the residual epilogue (issue 18; [Note: residual epilogues] in
strata/conversion/linalg_to_microkernels.py) on whole zoo models: Strata with it, Strata
without it (the lowering's match switched off in this process), and onnxruntime, in one
process, interleaved rounds, medians.

    python bench/residual_epilogue.py [--models resnet50,resnext50_32x4d] [--threads 1]
                                      [--rounds 7] [--repeat 3]

Models are the batch-1 ONNX exports bench/zoo.py caches under ~/.cache/strata/zoo
(NAME-*/model.onnx with io.npz). Prints per model how many convolution / GEMM calls
accumulate into a residual (accumulate = 1 with an epilogue), the elementwise loops
left, each build's error against onnxruntime, the median ms of each and the ratios
with/without and against onnxruntime.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import statistics
import tempfile
import time

import numpy as np

ZOO = os.path.expanduser("~/.cache/strata/zoo")


def _model(name):
    import onnx
    for p in sorted(glob.glob(os.path.join(ZOO, f"{name}-*", "model.onnx"))):
        dim = onnx.load(p, load_external_data=False).graph.input[0].type.tensor_type.shape.dim
        if dim and dim[0].dim_value == 1:
            return p
    raise SystemExit(f"no batch-1 export of {name} under {ZOO}: run bench/zoo.py first")


def run(name, threads, rounds, repeat):
    import onnxruntime as ort

    import strata
    import strata.conversion.linalg_to_microkernels as lowering
    path = _model(name)
    io = np.load(os.path.join(os.path.dirname(path), "io.npz"))
    feeds = {k[3:]: io[k] for k in io if k.startswith("in_")}
    with tempfile.TemporaryDirectory() as d:
        new = strata.compile(path, num_threads=threads, cache=False, dump_dir=d)
        lowered = open(glob.glob(os.path.join(d, "*strata-linalg-to-microkernels.mlir"))[0]
                       ).read()
    fused = len(re.findall(r"call @strata_\w+_epi_f32\(.*%c1_i32(?:_\d+)?, %\w+, %c\d+_i32",
                           lowered))
    match = lowering._residual_after
    lowering._residual_after = lambda op, c: None
    try:
        old = strata.compile(path, num_threads=threads, cache=False)
    finally:
        lowering._residual_after = match
    so = ort.SessionOptions()
    so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    ref = sess.run(None, feeds)[0]
    errs = {k: float(np.abs(fn(**feeds)[0] - ref).max() / np.abs(ref).max())
            for k, fn in (("with", new), ("without", old))}
    fns = {"with": lambda: new(**feeds), "without": lambda: old(**feeds),
           "ort": lambda: sess.run(None, feeds)}
    times = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            fn()
            t0 = time.perf_counter()
            for _ in range(repeat):
                fn()
            times[k].append((time.perf_counter() - t0) / repeat * 1e3)
    m = {k: statistics.median(v) for k, v in times.items()}
    print(f"{name} {threads}T: residual epilogues {fused}, loops left "
          f"{lowered.count('linalg.generic')}, err with {errs['with']:.1e} without "
          f"{errs['without']:.1e}; ms with {m['with']:.1f} without {m['without']:.1f} "
          f"ort {m['ort']:.1f}; with/without {m['with'] / m['without']:.3f}, with/ort "
          f"{m['with'] / m['ort']:.3f}, without/ort {m['without'] / m['ort']:.3f}",
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="resnet50,resnext50_32x4d,regnet_x_1_6gf")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for t in (int(x) for x in args.threads.split(",")):
        for name in args.models.split(","):
            run(name, t, args.rounds, args.repeat)


if __name__ == "__main__":
    main()
