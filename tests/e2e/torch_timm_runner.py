"""timm (PyTorch Image Models) architectures through both PyTorch paths of Strata (issue
17, item 7: breadth): per model, eager output vs `strata.compile(model, example_args=(x,))`
(torch.export, path "ep") and vs `torch.compile(model, backend=dynamo.strata_backend,
options={"fallback": False})` (Dynamo + AOTAutograd, path "dynamo"), each within 1e-4
relative (max|a - b| / max|b|), and a per-model table with pass counts:

    PYTHONPATH=$PWD python tests/e2e/torch_timm_runner.py [--set all|ci]
        [--models REGEX] [--paths ep,dynamo] [--timeout S]

    resnet18                      ep      pass  3.1e-07  (6.2 s)
    sequencer2d_s                 dynamo  FAIL  ...  (12.0 s)
    ep: 61/62 pass (1 torch's own)

Models are the smallest variant of each timm family, built with
`timm.create_model(name, pretrained=False, **kwargs)` (nothing is downloaded: no
pretrained weights, HF_HUB_OFFLINE=1), in eval mode, with seeded noise added to every
parameter (layer-scale gammas of 1e-5 and zero-initialized heads would otherwise leave
outputs trivially near zero) and a batch of 2 small images (64x64 where the model takes
it; `img_size` is passed to the models that fix it). A failure raised by torch itself
(torch.export or Dynamo cannot trace the model) is counted apart, as "torch", with
torch's message. Each (model, path) runs in a forked child of its own: a crash or a
hang fails that row only.

The CI shard (`CI`, a few models chosen for the ops they exercise) runs in
tests/e2e/test_torch_timm_models.py.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("STRATA_CACHE", "0")

RTOL = 1e-4

# name -> (timm model name, image size, create_model keyword arguments)
MODELS: dict[str, tuple[str, int, dict]] = {}


def _add(name, size=64, model=None, **kwargs):
    MODELS[name] = (model or name, size, kwargs)


# --- convolutional networks
for _n in ("resnet18", "resnet26d", "resnext26ts", "seresnet18", "ecaresnet26t",
           "gcresnet33ts", "skresnet18", "resnest14d", "res2net50_14w_8s", "res2next50",
           "regnetx_002", "regnety_002", "regnetz_005", "rexnet_100", "ghostnet_050",
           "ghostnetv2_100", "mobilenetv2_050", "mobilenetv3_small_050",
           "mobilenetv4_conv_small_035", "mnasnet_small", "efficientnet_b0",
           "efficientnet_lite0", "efficientnetv2_rw_t", "mixnet_s", "tinynet_e",
           "fbnetc_100", "fbnetv3_b", "hardcorenas_a", "lcnet_035", "densenet121",
           "dla34", "dpn48b", "ese_vovnet19b_dw", "cspresnet50", "cs3darknet_focus_s",
           "darknet17", "hrnet_w18_small", "xception41", "legacy_xception",
           "selecsls42b", "tresnet_m", "nf_resnet26", "nf_regnet_b0", "dm_nfnet_f0",
           "resnetv2_18", "resnetv2_50d_evos", "resnetv2_50d_gn", "vgg11",
           "repvgg_a0", "mobileone_s0", "gernet_s", "lambda_resnet26t", "convnext_atto", "convnextv2_atto", "repvit_m0_9",
           "hgnet_tiny", "hgnetv2_b0", "inception_next_atto", "rdnet_tiny",
           "fastvit_t8", "starnet_s050", "fasternet_t0", "repghostnet_050",
           "efficientvit_b0", "efficientvit_m0", "edgenext_xx_small", "mobilevit_xxs",
           "mobilevitv2_050", "poolformer_s12", "poolformerv2_s12", "caformer_s18",
           "convmixer_768_32",
           "mambaout_femto", "lcnetv2_small", "cspnext_tiny", "shvit_s1",
           "swiftformer_xs", "efficientvim_m1", "lowformer_b0"):
    _add(_n)
_add("inception_v3", 96)
_add("inception_v4", 96)
_add("inception_resnet_v2", 96)
_add("nasnetalarge", 96)
_add("pnasnet5large", 96)
_add("botnet26t_256", 64, img_size=64)
_add("sebotnet33ts_256", 64, img_size=64)
_add("halonet26t", 256)
_add("efficientformer_l1", 224)

# --- vision transformers and hybrids (img_size passed where the model fixes it)
for _n in ("vit_tiny_patch16_224", "deit_tiny_distilled_patch16_224",
           "deit3_small_patch16_224", "cait_xxs24_224", "convit_tiny",
           "xcit_nano_12_p16_224", "beit_base_patch16_224", "eva02_tiny_patch14_224",
           "vit_relpos_small_patch16_224", "vit_small_r26_s32_224", "mixer_s32_224",
           "resmlp_12_224", "gmlp_ti16_224", "pit_ti_224", "visformer_tiny",
           "vitamin_small_224", "tnt_s_patch16_224"):
    _add(_n, 64, img_size=64)
_add("levit_128s", 64, img_size=64)
_add("crossvit_tiny_240", 120, img_size=120)
_add("swin_tiny_patch4_window7_224", 128, img_size=128, window_size=4)
_add("swinv2_tiny_window8_256", 128, img_size=128, window_size=4)
_add("swinv2_cr_tiny_ns_224", 128, img_size=128, window_size=4)
_add("swin_tiny:narrow", 64, "swin_tiny_patch4_window7_224", img_size=64, window_size=4,
     embed_dim=16, depths=(1, 1, 2, 1), num_heads=(1, 2, 2, 4))
_add("pvt_v2_b0", 64)
_add("twins_svt_small", 64)
_add("twins_pcpvt_small", 64)
_add("coat_lite_tiny", 64, img_size=64)
_add("volo_d1_224", 64, img_size=64)
_add("maxvit_nano_rw_256", 64, img_size=64)
_add("coatnet_nano_rw_224", 64, img_size=64)
_add("nest_tiny", 64, img_size=64)
_add("tiny_vit_5m_224", 64)
_add("hiera_tiny_224", 64, img_size=64)
_add("sequencer2d_s", 64)
_add("gcvit_xxtiny", 64, img_size=64)
_add("davit_tiny", 64)
_add("focalnet_tiny_srf", 64)
_add("mvitv2_tiny", 64, img_size=64)
_add("efficientformerv2_s0", 64, img_size=64)
_add("nextvit_small", 64)

# --- options users set on the models above (named <model>:<what>)
_add("vit_tiny:dynamic_img_size", 64, "vit_tiny_patch16_224", dynamic_img_size=True)
_add("vit_tiny:gap_no_cls", 64, "vit_tiny_patch16_224", img_size=64, class_token=False,
     global_pool="avg", fc_norm=True)
_add("test_vit:dynamic_img_size", 64, "test_vit", dynamic_img_size=True)
_add("resnet18:features_only", 64, "resnet18", features_only=True)
_add("test_resnet:features_only", 64, "test_resnet", features_only=True)
_add("resnet18:output_stride8", 64, "resnet18", output_stride=8)
_add("efficientnet_b0:features_only", 64, "efficientnet_b0", features_only=True,
     out_indices=(2, 4))
_add("vit_base_rope:depth2", 64, "vit_base_patch16_rope_224", img_size=64, depth=2)
_add("vit_base_siglip_map:depth2", 64, "vit_base_patch16_siglip_224", img_size=64, depth=2)
_add("samvit_base:depth2", 64, "samvit_base_patch16", img_size=64, depth=2)
for _n in ("vit_little_patch16_reg4_gap_256", "vit_pwee_patch16_reg1_gap_256",
           "vit_dwee_patch16_reg1_gap_256"):
    _add(_n, 64, img_size=64)
for _n in ("convnext_atto_rms", "convnext_atto_ols", "resnetv2_50d_frn", "regnetz_b16_evos",
           "test_efficientnet_evos", "efficientnet_b0_gn", "densenetblur121d",
           "resnetblur18", "tf_efficientnet_b0", "tf_mobilenetv3_small_minimal_100",
           "ghostnetv3_050", "fastvit_mci0", "test_vit", "test_vit2", "test_vit4",
           "test_byobnet", "test_convnext", "test_convnext2", "test_convnext3",
           "test_efficientnet", "test_efficientnet_ln", "test_efficientnet_gn",
           "test_nfnet", "test_resnet", "test_mambaout"):
    _add(_n, 64)
_add("levit_conv_128s", 64, img_size=64)
_add("gmixer_12_224", 64, img_size=64)
_add("test_vit3", 64, img_size=64)
_add("test_vit_relpos", 64, img_size=64)
_add("test_maxvit", 160)
_add("test_coatnet", 160)
_add("maxvit_rmlp_nano_rw_256", 64, img_size=64)
_add("swin_s3_tiny_224", 128, img_size=128)
_add("hieradet_small", 64)
_add("skresnext50_32x4d", 64)
_add("lambda_resnet26rpt_256", 64, img_size=64)
_add("vit_relpos_small:rpn", 64, "vit_relpos_small_patch16_rpn_224", img_size=64)

# the shard tests/e2e/test_torch_timm_models.py runs (both paths): small models that
# together exercise what timm brings beyond the HF and torch.nn breadth cases
CI = ("test_vit:dynamic_img_size",    # F.interpolate(antialias=True) of position embeddings
      "swin_tiny:narrow",             # torch.roll, window partition/reverse, rel-pos table
      "test_efficientnet_evos",       # EvoNorm-S (grouped std), SE, drop path in eval
      "test_convnext",                # LayerNorm2d, layer scale, depthwise 7x7
      "test_byobnet",                 # RepVGG / bottleneck / self-attn blocks mixed
      "test_resnet:features_only")    # FeatureListNet: a list of five feature maps


# ---------------------------------------------------------------- timm import


def import_timm():
    """`import timm`. timm imports torchvision, whose package-index wheel is a CUDA build
    that cannot load its native ops next to the CPU torch pinned here; its Python modules
    (all timm uses: FrozenBatchNorm2d, transforms) import once the two operator schemas
    that torchvision registers fake kernels for at import time exist. The schemas are
    declared only in that case (no kernel: calling torchvision.ops.nms still fails)."""
    try:
        import timm
        return timm
    except RuntimeError as e:
        if "torchvision::" not in str(e):
            raise
    import torch
    for mod in [m for m in sys.modules if m.split(".")[0] in ("torchvision", "timm")]:
        del sys.modules[mod]
    global _TORCHVISION_SCHEMAS
    lib = torch.library.Library("torchvision", "FRAGMENT")
    for op in ("nms", "qnms"):
        if not hasattr(torch.ops.torchvision, op):
            lib.define(f"{op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    _TORCHVISION_SCHEMAS = lib  # kept alive: the schemas go with the Library object
    import timm
    return timm


_TORCHVISION_SCHEMAS = None


def build(name, batch=2, seed=0):
    """(model, (x,)) for MODELS[name]: random seeded weights, perturbed, eval mode."""
    import torch
    timm = import_timm()
    from torch_breadth_cases import _perturbed
    model_name, size, kwargs = MODELS[name]
    torch.manual_seed(seed)
    model = timm.create_model(model_name, pretrained=False, **kwargs).eval()
    _perturbed(model)
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(batch, 3, size, size, generator=g)
    return model, (x,)


_TORCH_FRAMES = ("torch/export", "torch/_export", "torch/_dynamo", "torch/fx",
                 "torch/_subclasses", "torch/_functorch", "torch/_higher_order_ops")


def torchs_own(exc) -> bool:
    """Whether `exc` is torch's own refusal to trace (torch.export or Dynamo), not
    Strata's: Strata prefixes torch.export's errors with what it was doing (the
    cause is torch's), Dynamo's come from inside torch._dynamo."""
    import torch
    seen = exc
    while seen is not None:
        if isinstance(seen, (torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError,
                             torch._dynamo.exc.TorchRuntimeError)):
            return True
        tb = traceback.extract_tb(seen.__traceback__) if seen.__traceback__ else []
        if tb and "strata" not in tb[-1].filename and any(
                f in tb[-1].filename for f in _TORCH_FRAMES):
            return True
        seen = seen.__cause__
    return False


def check(name, path):
    """Compile MODELS[name] through `path` ("ep" or "dynamo") and return max_rel
    against eager; raises AssertionError past RTOL."""
    import torch_breadth_cases as C
    model, args = build(name)
    return C.check(model, args, {}, {"ep": "export", "dynamo": "dynamo"}[path])


def eager_f32_error(name) -> float:
    """max_rel of eager's float32 output against the same model run in float64: the
    reference's own error, shown with a failed comparison (a model whose perturbed
    weights drive its activations to ~1e8 can make float32 eager itself differ)."""
    import copy

    import torch
    model, (x,) = build(name)
    with torch.no_grad():
        want = model(x)
        ref = copy.deepcopy(model).double()(x.double())
    want, ref = [t if isinstance(t, torch.Tensor) else t[-1] for t in (want, ref)]
    return float((want.double() - ref).abs().max() / ref.abs().max())


def _one(name, path, queue):
    import warnings
    warnings.simplefilter("ignore")
    t0 = time.perf_counter()
    try:
        rel = check(name, path)
        queue.put(("pass", f"{rel:.1e}", time.perf_counter() - t0))
    except BaseException as e:  # the table's row, whatever it was
        text = f"{type(e).__name__}: {e}".replace("\n", " | ")
        if not str(e).strip():
            text += " @ " + traceback.format_exc().strip().splitlines()[-3].strip()
        status = "torch" if torchs_own(e) else "FAIL"
        if isinstance(e, AssertionError) and "max_rel" in str(e):
            text += f" (eager float32 vs float64: {eager_f32_error(name):.1e})"
        queue.put((status, text[:400], time.perf_counter() - t0))


def run(name, path, timeout):
    from torch_breadth_runner import run_forked
    return run_forked(_one, (name, path), timeout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="all", choices=("all", "ci"))
    ap.add_argument("--models", default="", help="regex on the model names")
    ap.add_argument("--paths", default="ep,dynamo")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args(argv)
    import_timm()
    import torch_breadth_cases  # noqa: F401
    import strata.frontends.torch.dynamo  # noqa: F401  (imported once, before the forks)
    names = list(MODELS) if a.set == "all" else list(CI)
    names = [n for n in names if re.search(a.models, n)]
    counts = {}
    for name in names:
        for path in a.paths.split(","):
            status, info, secs = run(name, path, a.timeout)
            counts[path, status] = counts.get((path, status), 0) + 1
            print(f"{name:34s} {path:6s} {status:5s} {info}  ({secs:.1f} s)", flush=True)
    for path in a.paths.split(","):
        ok, bad, torch_ = (counts.get((path, s), 0) for s in ("pass", "FAIL", "torch"))
        print(f"{path}: {ok}/{ok + bad + torch_} pass ({torch_} torch's own)")


if __name__ == "__main__":
    main()
