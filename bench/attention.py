"""Attention on the CPU: the fused flash-style kernel (strata-linalg-attention-to-
microkernels) against the two GEMM calls with a row-fused softmax between (the same
model compiled with the pass off), onnxruntime and OpenVINO (where installed), in
interleaved rounds, medians.

    python bench/attention.py                       # attention alone, seq 128..4096
    python bench/attention.py --whisper-layer       # one Whisper-tiny encoder layer, 1500
    python bench/attention.py --seqs 512 1500 --threads 1 2 --rounds 15

Attention alone: Q, K, V of [1, 6, seq, 64] (Whisper-tiny's heads), scores / 8 + an
additive mask [1, 1, 1, seq], ONNX opset 18 (MatMul, Div, Add, Softmax, MatMul).
--dynamic exports the attention with run-time sequence sizes (the fused kernel takes
them at run time). Not a test: it prints a table (ms; ratios to onnxruntime and to
OpenVINO measured in the same loop).
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def attention_model(heads, seq, dim, mask=True, dynamic=False):
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    nodes = [h.make_node("Transpose", ["K"], ["Kt"], perm=[0, 1, 3, 2]),
             h.make_node("MatMul", ["Q", "Kt"], ["S"]),
             h.make_node("Div", ["S", "sc"], ["Ss"])]
    last = "Ss"
    if mask:
        nodes.append(h.make_node("Add", ["Ss", "M"], ["Sm"]))
        last = "Sm"
    nodes += [h.make_node("Softmax", [last], ["P"], axis=-1),
              h.make_node("MatMul", ["P", "V"], ["O"])]
    s = "s" if dynamic else seq
    ins = [h.make_tensor_value_info(n, T.FLOAT, [1, heads, s, dim]) for n in "QKV"]
    if mask:
        ins.append(h.make_tensor_value_info("M", T.FLOAT, [1, 1, 1, s]))
    g = h.make_graph(nodes, "attention", ins,
                     [h.make_tensor_value_info("O", T.FLOAT, [1, heads, s, dim])],
                     initializer=[onnx.numpy_helper.from_array(
                         np.array(np.sqrt(dim), np.float32), "sc")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)])
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal((1, heads, seq, dim), dtype=np.float32) for n in "QKV"}
    if mask:
        feeds["M"] = np.zeros((1, 1, 1, seq), np.float32)
        feeds["M"][..., seq * 3 // 4:] = -np.inf
    return m.SerializeToString(), feeds


def whisper_layer(frames=1500):
    """One Whisper-tiny encoder layer (d_model 384, 6 heads, FFN 1536) as ONNX bytes."""
    import torch
    import transformers
    from transformers.models.whisper.modeling_whisper import WhisperEncoderLayer
    torch.manual_seed(0)
    cfg = transformers.WhisperConfig(d_model=384, encoder_attention_heads=6,
                                     encoder_ffn_dim=1536)
    cfg._attn_implementation = "sdpa"

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = WhisperEncoderLayer(cfg).eval()

        def forward(self, x):
            out = self.layer(x, None)
            return out[0] if isinstance(out, tuple) else out
    x = torch.randn(1, frames, 384)
    path = os.path.join(tempfile.mkdtemp(), "whisper_layer.onnx")
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(Layer(), (x,), path, input_names=["x"], opset_version=18,
                          dynamo=False)
    with open(path, "rb") as fh:
        return fh.read(), {"x": x.numpy()}


def compiled(model_bytes, threads, fused):
    import onnx

    import strata
    from strata.backends.cpu import kernels
    saved = kernels.attention_pass
    # fused: whatever the length (min-keys=1); not: never
    keys = 1 if fused else 1 << 30
    kernels.attention_pass = lambda: f"strata-linalg-attention-to-microkernels{{min-keys={keys}}}"
    try:
        return strata.compile(onnx.load_from_string(model_bytes), num_threads=threads,
                              cache=False)
    finally:
        kernels.attention_pass = saved


def openvino_call(model_bytes, feeds, threads):
    """OpenVINO's CPU plugin at f32 (as bench/zoo.py runs it), or None if not installed."""
    try:
        import openvino as ov
    except ImportError:
        return None
    path = os.path.join(tempfile.mkdtemp(), "model.onnx")
    with open(path, "wb") as fh:
        fh.write(model_bytes)
    core = ov.Core()
    compiled_model = core.compile_model(core.read_model(path), "CPU", {
        "INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads,
        "PERFORMANCE_HINT": "LATENCY"})
    request = compiled_model.create_infer_request()
    return lambda: request.infer(feeds)


def measure(name, model_bytes, feeds, threads, rounds, check=True):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])
    runs = {"fused": compiled(model_bytes, threads, True),
            "gemms": compiled(model_bytes, threads, False)}
    ref = sess.run(None, feeds)[0]
    calls = {"ort": lambda: sess.run(None, feeds)}
    ov_call = openvino_call(model_bytes, feeds, threads)
    if ov_call is not None:
        calls["ov"] = ov_call
    for k, f in runs.items():
        y = f(**feeds)[0]
        if check:
            err = float(np.max(np.abs(y - ref)) / np.max(np.abs(ref)))
            assert err < 1e-4, (name, k, err)
        calls[k] = (lambda f=f: f(**feeds))
    times = {k: [] for k in calls}
    for _ in range(rounds):
        for k, c in calls.items():
            t0 = time.perf_counter()
            c()
            times[k].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    ov = med.get("ov", math.nan)
    print(f"{name:28s} {threads:2d}  {med['ort']:9.2f} {ov:9.2f} {med['gemms']:9.2f} "
          f"{med['fused']:9.2f}   {med['gemms'] / med['ort']:5.2f} "
          f"{med['fused'] / med['ort']:5.2f} {med['fused'] / ov:5.2f}"
          f"   {med['gemms'] / med['fused']:5.2f}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seqs", type=int, nargs="*", default=[128, 512, 1500, 4096])
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--whisper-layer", action="store_true",
                    help="one Whisper-tiny encoder layer at 1500 frames as well")
    ap.add_argument("--heads", type=int, default=6)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--dynamic", action="store_true",
                    help="the attention alone with a run-time sequence (same sizes run)")
    args = ap.parse_args(argv)
    print(f"{'model':28s} thr  {'ort ms':>9s} {'ov ms':>9s} {'gemms ms':>9s} "
          f"{'fused ms':>9s}   gem/o fus/o fus/ov   gem/fus")
    cases = []
    if args.whisper_layer:
        cases.append(("whisper-tiny layer 1500", *whisper_layer()))
    for s in args.seqs:
        dyn = " dyn" if args.dynamic else ""
        cases.append((f"attention {args.heads}x{s}x{args.dim}{dyn}",
                      *attention_model(args.heads, s, args.dim, dynamic=args.dynamic)))
    for name, m, feeds in cases:
        for t in args.threads:
            measure(name, m, feeds, t, args.rounds)


if __name__ == "__main__":
    main()
