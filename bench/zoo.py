"""Benchmark: a zoo of real architectures, Strata's CPU code vs onnxruntime and OpenVINO.

    python bench/zoo.py [--models REGEX] [--threads 2] [--rounds 5] [--repeat 20]
                        [--compile-only] [--peers ort,openvino,strata] [--cache DIR]
                        [--dynamic] [--list]

Every model is built in code with seeded random weights (HF `transformers` configs, or
bench/zoo_architectures.py for what transformers lacks; nothing is downloaded),
exported by `torch.onnx.export` at opset 18 (the TorchScript exporter, the dynamo one
where it fails), batch 1, static shapes (--dynamic: the batch dim dynamic, as
bench/models.py exports), and cached with its inputs and PyTorch eager's
outputs under --cache (default `$STRATA_ZOO_CACHE` or `~/.cache/strata/zoo`), keyed by
the model's name, the torch version and the builder's parameters:

    resnet18 resnet50 resnext50_32x4d densenet121 regnet_y_400mf regnet_x_1_6gf
    mobilenet_v1 mobilenet_v2 efficientnet_b0 mobilevit_xs mobilevit_s convnext_t
    swin_t vit_b16 deit_s bert_base minilm gpt2 llama_small whisper_tiny_enc
    whisper_base_enc segformer_b0 deeplab_small

Peers, each given --threads threads: onnxruntime (CPU provider, intra-op threads),
OpenVINO (CPU plugin, `INFERENCE_PRECISION_HINT` f32, `INFERENCE_NUM_THREADS`, latency
hint) and Strata (`strata.compile(path, num_threads=...)`). Per model: each peer's
compile seconds (ONNX file -> callable), its median ms (timed in --rounds interleaved
rounds, as bench/models.py does: the machine's slow phases fall on every peer), Strata's
ratio to the fastest other peer, and each peer's accuracy: the largest difference from
eager over all outputs, relative to the output's largest magnitude
(max|y - ref| / max|ref|; the target is 1e-4). Geometric means at the bottom.

Fairness between peers in one process: each peer runs with its own defaults (onnxruntime's
intra-op workers spin after each call, as its users get them); what one peer's threads
still burn after its calls is waited out before the next peer is timed (bench/models.py's
`settle`, [Note: peers' threads between peers]: onnxruntime's spin used to fall on the
peer timed after it), and a wait over 0.1 s is reported on stderr. All models run in one
process, as a user's several models would; bench/one_process.py measures what a model
loses to the models and peers run before it in its process.

--compile-only compiles every peer and checks its accuracy, without timing (for a loaded
machine). A peer that fails to compile or run a model shows `FAIL` and its error under
the table; the exit status is 1 when Strata failed or missed 1e-4 on any model.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import math
import os
import re
import sys
import time
import traceback
import warnings

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
from models import interleaved_medians_ms  # noqa: E402  (bench/models.py: the same timing)

TOLERANCE = 1e-4


# --------------------------------------------------------------------------- builders
# Each builder: (torch, input names, **params) -> nn.Module whose forward takes the model's
# inputs in order and returns one tensor (or a tuple of tensors).

def _hf_first(torch, model, names):
    """`model` (an HF PreTrainedModel) as a module taking the inputs `names` in order
    (passed by keyword: the models' positional orders differ) and returning its first
    output tensor (logits, or the last hidden state of a bare encoder)."""
    class First(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args):
            return self.model(**dict(zip(names, args)), return_dict=False)[0]
    return First().eval()


def hf_vision(torch, names, cls, config, **params):
    import transformers
    from zoo_architectures import randomize_batch_norms
    cfg = getattr(transformers, config)(**params)
    model = getattr(transformers, cls)(cfg)
    return _hf_first(torch, randomize_batch_norms(torch, model), names)


def hf_text(torch, names, cls, config, **params):
    import transformers
    cfg = getattr(transformers, config)(**params)
    cfg.use_cache = False
    return _hf_first(torch, getattr(transformers, cls)(cfg).eval(), names)


def whisper_encoder(torch, names, **params):
    import transformers
    from transformers.models.whisper.modeling_whisper import WhisperEncoder
    return _hf_first(torch, WhisperEncoder(transformers.WhisperConfig(**params)).eval(), names)


def hand_written(torch, names, fn, **params):
    import zoo_architectures
    return getattr(zoo_architectures, fn)(torch, **params)


def image(size, channels=3):
    return {"pixel_values": ("f32", (1, channels, size, size))}


def tokens(seq, mask=True, vocab=30522):
    spec = {"input_ids": ("ids", (1, seq), vocab)}
    if mask:
        spec["attention_mask"] = ("mask", (1, seq))
    return spec


# name -> (builder, builder parameters, input spec)
ZOO = {
    "resnet18": (hf_vision, dict(cls="ResNetForImageClassification", config="ResNetConfig",
                                 layer_type="basic", depths=[2, 2, 2, 2],
                                 hidden_sizes=[64, 128, 256, 512]), image(224)),
    "resnet50": (hf_vision, dict(cls="ResNetForImageClassification", config="ResNetConfig"),
                 image(224)),
    "resnext50_32x4d": (hand_written, dict(fn="resnext"), image(224)),
    "densenet121": (hand_written, dict(fn="densenet"), image(224)),
    "regnet_y_400mf": (hf_vision, dict(cls="RegNetForImageClassification",
                                       config="RegNetConfig", layer_type="y",
                                       depths=[1, 3, 6, 6], hidden_sizes=[48, 104, 208, 440],
                                       groups_width=8), image(224)),
    "regnet_x_1_6gf": (hf_vision, dict(cls="RegNetForImageClassification",
                                       config="RegNetConfig", layer_type="x",
                                       depths=[2, 4, 10, 2], hidden_sizes=[72, 168, 408, 912],
                                       groups_width=24), image(224)),
    "mobilenet_v1": (hf_vision, dict(cls="MobileNetV1ForImageClassification",
                                     config="MobileNetV1Config"), image(224)),
    "mobilenet_v2": (hf_vision, dict(cls="MobileNetV2ForImageClassification",
                                     config="MobileNetV2Config"), image(224)),
    "efficientnet_b0": (hf_vision, dict(cls="EfficientNetForImageClassification",
                                        config="EfficientNetConfig", width_coefficient=1.0,
                                        depth_coefficient=1.0, image_size=224, hidden_dim=1280,
                                        dropout_rate=0.2), image(224)),
    "mobilevit_xs": (hf_vision, dict(cls="MobileViTForImageClassification",
                                     config="MobileViTConfig", hidden_sizes=[96, 120, 144],
                                     neck_hidden_sizes=[16, 32, 48, 64, 80, 96, 384]),
                     image(256)),
    "mobilevit_s": (hf_vision, dict(cls="MobileViTForImageClassification",
                                    config="MobileViTConfig"), image(256)),
    "convnext_t": (hf_vision, dict(cls="ConvNextForImageClassification",
                                   config="ConvNextConfig"), image(224)),
    "swin_t": (hf_vision, dict(cls="SwinForImageClassification", config="SwinConfig"),
               image(224)),
    "vit_b16": (hf_vision, dict(cls="ViTForImageClassification", config="ViTConfig"),
                image(224)),
    "deit_s": (hf_vision, dict(cls="ViTForImageClassification", config="ViTConfig",
                               hidden_size=384, num_attention_heads=6,
                               intermediate_size=1536), image(224)),
    "bert_base": (hf_text, dict(cls="BertModel", config="BertConfig"), tokens(128)),
    "minilm": (hf_text, dict(cls="BertModel", config="BertConfig", hidden_size=384,
                             num_hidden_layers=6, num_attention_heads=12,
                             intermediate_size=1536), tokens(128)),
    # the decoders take a mask: without one transformers' mask builder looks for packed
    # sequences with aten::diff, which the TorchScript exporter lacks
    "gpt2": (hf_text, dict(cls="GPT2Model", config="GPT2Config"), tokens(128, vocab=50257)),
    "llama_small": (hf_text, dict(cls="LlamaForCausalLM", config="LlamaConfig",
                                  hidden_size=512, intermediate_size=1376,
                                  num_hidden_layers=4, num_attention_heads=8,
                                  num_key_value_heads=2, vocab_size=32000),
                    tokens(128, vocab=32000)),
    "whisper_tiny_enc": (whisper_encoder, dict(d_model=384, encoder_layers=4,
                                               encoder_attention_heads=6, encoder_ffn_dim=1536,
                                               num_mel_bins=80, max_source_positions=1500),
                         {"input_features": ("f32", (1, 80, 3000))}),
    "whisper_base_enc": (whisper_encoder, dict(d_model=512, encoder_layers=6,
                                               encoder_attention_heads=8, encoder_ffn_dim=2048,
                                               num_mel_bins=80, max_source_positions=1500),
                         {"input_features": ("f32", (1, 80, 3000))}),
    "segformer_b0": (hf_vision, dict(cls="SegformerForSemanticSegmentation",
                                     config="SegformerConfig", num_labels=150), image(512)),
    "deeplab_small": (hand_written, dict(fn="fcn_head"), image(256)),
}


def make_inputs(spec, seed=0):
    rng = np.random.default_rng(seed)
    out = {}
    for name, (kind, shape, *extra) in spec.items():
        if kind == "f32":
            out[name] = rng.standard_normal(shape).astype(np.float32)
        elif kind == "ids":
            out[name] = rng.integers(0, extra[0], shape).astype(np.int64)
        else:  # an attention mask: the last quarter of the sequence is padding
            m = np.ones(shape, np.int64)
            m[..., shape[-1] * 3 // 4:] = 0
            out[name] = m
    return out


# --------------------------------------------------------------------------- export + cache

def default_cache():
    return os.environ.get("STRATA_ZOO_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "strata", "zoo")


def cache_key(name, torch, dynamic=False):
    builder, params, spec = ZOO[name]
    text = repr((name, torch.__version__, builder.__name__, sorted(params.items()),
                 sorted(spec.items()), 18) + (("dynamic-batch",) if dynamic else ()))
    return f"{name}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _export(torch, module, args, names, path, dynamic=False):
    """torch.onnx.export at opset 18: the TorchScript exporter, the dynamo one where it
    fails (the batch dim of every input dynamic with `dynamic`). Returns which one wrote
    the file."""
    errors = []
    for dynamo in (False, True):
        try:
            axes = {"dynamic_axes": {n: {0: "batch"} for n in names}} if dynamic and \
                not dynamo else {}
            if dynamic and dynamo:
                batch = torch.export.Dim("batch")
                axes = {"dynamic_shapes": tuple({0: batch} for _ in names)}
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")
                torch.onnx.export(module, args, path, input_names=names, opset_version=18,
                                  dynamo=dynamo, external_data=False, **axes)
            return "dynamo" if dynamo else "torchscript"
        except Exception as e:  # noqa: BLE001 - try the other exporter, report both
            errors.append(f"{'dynamo' if dynamo else 'torchscript'}: "
                          f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    raise RuntimeError("export failed: " + "; ".join(errors))


def prepare(name, torch, cache, dynamic=False):
    """(onnx path, inputs dict, eager outputs list, exporter) of zoo model `name`, from
    the cache or built, run eagerly and exported now."""
    folder = os.path.join(cache, cache_key(name, torch, dynamic))
    path = os.path.join(folder, "model.onnx")
    ref_path = os.path.join(folder, "io.npz")
    if os.path.exists(path) and os.path.exists(ref_path):
        data = np.load(ref_path)
        inputs = {k[3:]: data[k] for k in data.files if k.startswith("in_")}
        order = list(ZOO[name][2])
        inputs = {k: inputs[k] for k in order}
        outs = [data[f"out_{i}"] for i in range(sum(k.startswith("out_") for k in data.files))]
        return path, inputs, outs, str(data["exporter"])
    builder, params, spec = ZOO[name]
    torch.manual_seed(0)
    module = builder(torch, list(spec), **params)
    inputs = make_inputs(spec)
    args = tuple(torch.from_numpy(v) for v in inputs.values())
    with torch.no_grad():
        y = module(*args)
    outs = [t.numpy() for t in (y if isinstance(y, (tuple, list)) else (y,))]
    os.makedirs(folder, exist_ok=True)
    tmp = path + ".part"
    exporter = _export(torch, module, args, list(inputs), tmp, dynamic)
    os.replace(tmp, path)
    np.savez(ref_path, exporter=exporter, **{f"in_{k}": v for k, v in inputs.items()},
             **{f"out_{i}": v for i, v in enumerate(outs)})
    return path, inputs, outs, exporter


# --------------------------------------------------------------------------- peers

def compile_peer(peer, path, inputs, threads):
    """A zero-argument callable running `peer`'s compiled model on `inputs` and returning
    its outputs as a list of arrays."""
    values = list(inputs.values())
    if peer == "strata":
        import strata
        f = strata.compile(path, num_threads=threads)
        return lambda: f(*values)
    if peer == "ort":
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        feed = dict(zip((i.name for i in sess.get_inputs()), values))
        return lambda: sess.run(None, feed)
    if peer == "openvino":
        import openvino as ov
        core = ov.Core()
        compiled = core.compile_model(core.read_model(path), "CPU", {
            "INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads,
            "PERFORMANCE_HINT": "LATENCY"})
        request = compiled.create_infer_request()
        feed = dict(zip((p.any_name for p in compiled.inputs), values))

        def run():
            request.infer(feed)
            return [request.get_output_tensor(i).data for i in range(len(compiled.outputs))]
        return run
    raise SystemExit(f"unknown peer {peer!r}")


def relative_error(outs, refs):
    """max |y - ref| / max |ref| over every output (inf when a shape differs)."""
    worst = 0.0
    if len(outs) != len(refs):
        return math.inf
    for y, r in zip(outs, refs):
        y = np.asarray(y)
        if y.shape != r.shape:
            return math.inf
        scale = max(float(np.max(np.abs(r))), 1e-30) if r.size else 1.0
        d = np.abs(y.astype(np.float64) - r.astype(np.float64))
        worst = max(worst, float(np.max(d)) / scale if r.size else 0.0)
        if not np.all(np.isfinite(y)):
            return math.inf
    return worst


def short_error(e):
    text = f"{type(e).__name__}: {e}"
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n      ".join(lines[:6])


# --------------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=".*", help="regex over the zoo's model names")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--compile-only", action="store_true",
                    help="compile and check accuracy against eager, no timing")
    ap.add_argument("--peers", default="ort,openvino,strata")
    ap.add_argument("--dynamic", action="store_true",
                    help="export with a dynamic batch dim (run at batch 1)")
    ap.add_argument("--cache", default=default_cache())
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    ap.add_argument("--traceback", action="store_true",
                    help="print the whole traceback of a peer's failure")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    names = [n for n in ZOO if re.search(args.models, n)]
    if args.list:
        print("\n".join(names))
        return 0
    if not names:
        ap.error(f"no zoo model matches {args.models!r}")
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    torch.set_num_threads(args.threads)
    sys.path.insert(0, os.path.join(_HERE, ".."))

    rows, failures = [], []
    for name in names:
        row = {"model": name}
        rows.append(row)
        try:
            t = time.perf_counter()
            path, inputs, refs, exporter = prepare(name, torch, args.cache, args.dynamic)
            row["export"] = exporter
            print(f"  {name}: ready ({exporter}, {time.perf_counter() - t:.1f} s)",
                  file=sys.stderr, flush=True)
        except Exception as e:  # noqa: BLE001 - one model's failure does not stop the zoo
            failures.append((name, "export", short_error(e)))
            continue
        fns = {}
        for peer in peers:
            try:
                t = time.perf_counter()
                fn = compile_peer(peer, path, inputs, args.threads)
                row[peer + "_compile"] = time.perf_counter() - t
                row[peer + "_err"] = relative_error(fn(), refs)
                fns[peer] = fn
            except Exception as e:  # noqa: BLE001
                failures.append((name, peer, traceback.format_exc() if args.traceback
                                 else short_error(e)))
            done = (f"ok ({row[peer + '_compile']:.1f} s, err {row[peer + '_err']:.1e})"
                    if peer in fns else "FAIL")
            print(f"  {name}: {peer} {done}", file=sys.stderr, flush=True)
        if not args.compile_only and fns:
            settled = {}
            with torch.inference_mode():
                row.update(interleaved_medians_ms(fns, args.repeat, args.rounds,
                                                  settled=settled))
            spun = ", ".join(f"{p} {s * 1e3:.0f} ms" for p, s in settled.items() if s > 0.1)
            if spun:   # [Note: peers' threads between peers] (bench/models.py)
                print(f"  {name}: threads still busy after a peer's calls (waited out): "
                      f"{spun}", file=sys.stderr, flush=True)
        fns.clear()

    print_table(rows, peers, args)
    for name, peer, err in failures:
        print(f"\nFAIL {name} [{peer}]\n      {err}")
    bad = [r["model"] for r in rows if "strata" in peers
           and not r.get("strata_err", math.inf) <= TOLERANCE]
    if bad:
        print(f"\nStrata failed or missed {TOLERANCE:g} on: {', '.join(bad)}")
    return 1 if bad else 0


def _geomean(xs):
    xs = [x for x in xs if x is not None and math.isfinite(x) and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def print_table(rows, peers, args):
    timed = not args.compile_only
    others = [p for p in peers if p != "strata"]
    head = f"{'model':<18}" + "".join(f" {p[:8] + ' s':>10}" for p in peers)
    if timed:
        head += "".join(f" {p[:8] + ' ms':>11}" for p in peers)
        if "strata" in peers and others:
            head += f" {'/best':>6}"
    head += "".join(f" {p[:8] + ' err':>12}" for p in peers)
    print(("\ncompile only" if not timed else
           f"\nmedian latency ({args.repeat}+ runs in {args.rounds} interleaved rounds)")
          + f", {args.threads} threads; err = max|y - eager| / max|eager|\n")
    print(head)

    def num(r, k, fmt, width):
        v = r.get(k)
        return f" {format(v, fmt) if v is not None else 'FAIL':>{width}}"
    for r in rows:
        line = f"{r['model']:<18}" + "".join(num(r, p + "_compile", ".2f", 10) for p in peers)
        if timed:
            line += "".join(num(r, p, ".3f", 11) for p in peers)
            if "strata" in peers and others:
                best = min((r[p] for p in others if p in r), default=None)
                r["ratio"] = r["strata"] / best if best and "strata" in r else None
                line += num(r, "ratio", ".2f", 6)
        line += "".join(num(r, p + "_err", ".1e", 12) for p in peers)
        print(line)
    line = f"{'geomean':<18}" + "".join(
        f" {_geomean([r.get(p + '_compile') for r in rows]):>10.2f}" for p in peers)
    if timed:
        line += "".join(f" {_geomean([r.get(p) for r in rows]):>11.3f}" for p in peers)
        if "strata" in peers and others:
            line += f" {_geomean([r.get('ratio') for r in rows]):>6.2f}"
    print(line)
    if timed and "strata" in peers:
        for p in others:
            ratios = [r["strata"] / r[p] for r in rows if "strata" in r and p in r]
            print(f"strata / {p}: geomean {_geomean(ratios):.2f}x over {len(ratios)} models")


if __name__ == "__main__":
    sys.exit(main())
