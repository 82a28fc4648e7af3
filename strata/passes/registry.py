"""The one registry of passes. `all_pass_classes()` lists Strata's own passes (the
`PASSES` list of passes/generic.py) and those downstream code added:

    from strata.passes.pass_manager import Pass
    from strata.passes.registry import register_pass

    @register_pass
    class MyPass(Pass):
        name = "my-pass"
        summary = "What it does"
        def run(self, op): ...

A registered pass can be named in pipelines (`builtin.module(func.func(my-pass))`) and,
when registered before strata-opt parses its command line (a module given with
`--load-pass-plugin=`), used as a flag (`--my-pass=opt=1`).
"""
from __future__ import annotations

import re

_EXTRA: dict = {}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")

# Passes of the layers above strata/passes, by the module whose import registers them:
# imported when such a pass is first asked for (or all passes are listed), so that
# `import strata` stays light.
_LAZY = {"onnx-decompose": "strata.frontends.onnx.decompose",
         "onnx-fold-constants": "strata.frontends.onnx.fold_constants",
         "onnx-shape-inference": "strata.transforms.onnx_shape_inference",
         "torch-externalize-weights": "strata.frontends.torch.externalize",
         "torch-fold-batch-norm": "strata.frontends.torch.fold_batch_norm",
         "onnx-fold-batch-norm": "strata.frontends.onnx.fold_batch_norm",
         "convert-onnx-to-linalg": "strata.conversion.onnx_to_linalg",
         "convert-torch-to-linalg": "strata.conversion.torch_to_linalg",
         "strata-outline-loop-nests": "strata.transforms.outline_loop_nests",
         "strata-outline-linalg-ops": "strata.transforms.outline_linalg_ops",
         "strata-memref-copy-to-linalg": "strata.transforms.memref_copy_to_linalg",
         "strata-linalg-block-transposes": "strata.transforms.block_transposes",
         "onnx-hoist-pointwise-conv": "strata.transforms.onnx_pointwise_conv",
         "convert-elementwise-to-linalg": "strata.conversion.elementwise_to_linalg",
         "convert-scf-to-strata-cpu": "strata.conversion.scf_to_strata_cpu",
         "convert-strata-cpu-to-llvm": "strata.conversion.strata_cpu_to_llvm",
         "strata-cpu-fold-trampolines": "strata.conversion.strata_cpu_to_llvm",
         **{name: "strata.conversion.bufferize" for name in (
             "one-shot-bufferize", "buffer-deallocation-simple", "buffer-usage-report",
             "strata-concat-in-place")},
         "convert-scf-to-cf": "strata.conversion.scf_to_cf",
         "convert-linalg-to-loops": "strata.conversion.linalg_to_loops",
         "convert-linalg-to-parallel-loops": "strata.conversion.linalg_to_loops",
         "strata-linalg-to-microkernels": "strata.conversion.linalg_to_microkernels",
         "strata-linalg-attention-to-microkernels":
             "strata.conversion.attention_to_microkernels",
         "strata-linalg-fuse-row-reductions": "strata.conversion.linalg_row_fusion",
         "strata-linalg-conv-to-winograd": "strata.conversion.conv_to_winograd",
         **{name: "strata.conversion.tosa_to_linalg" for name in (
             "tosa-to-linalg", "tosa-to-linalg-named", "tosa-to-tensor", "tosa-to-arith",
             "tosa-to-linalg-pipeline")},
         **{name: "strata.transforms.linalg" for name in (
             "linalg-generalize-named-ops", "linalg-fuse-elementwise-ops",
             "linalg-fold-unit-extent-dims",
             "strata-linalg-fold-into-contractions",
             "strata-linalg-depthwise-channels-last", "strata-linalg-collapse-dims")},
         **{name: "strata.conversion.to_llvm" for name in (
             "convert-arith-to-llvm", "convert-math-to-llvm", "convert-index-to-llvm",
             "convert-cf-to-llvm", "finalize-memref-to-llvm", "convert-func-to-llvm",
             "reconcile-unrealized-casts", "convert-to-llvm")},
         **{name: "strata.conversion.scf_to_gpu" for name in (
             "strata-gpu-rows-to-warps", "strata-gpu-linearize-parallel-loops",
             "gpu-map-parallel-loops",
             "convert-parallel-loops-to-gpu", "strata-gpu-launch-sequential")},
         "gpu-kernel-outlining": "strata.transforms.gpu_kernel_outlining",
         "convert-gpu-to-nvvm": "strata.conversion.gpu_to_nvvm",
         "strata-gpu-tile-contractions": "strata.conversion.gpu_contractions",
         "strata-linalg-widen-reductions": "strata.conversion.linalg_widen_reductions",
         "strata-onnx-to-f16": "strata.transforms.onnx_to_f16",
         "arith-emulate-unsupported-floats": "strata.transforms.arith",
         "arith-expand": "strata.transforms.arith",
         "strata-math-polynomial-approximation": "strata.transforms.math"}


def _load_lazy(name: str | None = None) -> None:
    import importlib
    for pass_name, module in _LAZY.items():
        if (name is None or name == pass_name) and pass_name not in _EXTRA:
            importlib.import_module(module)


def _builtin_passes():
    from . import generic
    return generic.PASSES


def all_pass_classes() -> dict:
    _load_lazy()
    out = {c.name: c for c in _builtin_passes()}
    out.update(_EXTRA)
    return out


def register_pass(cls):
    """Make `cls` available to pipelines and strata-opt flags (usable as a decorator)."""
    from .pass_manager import Pass
    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        raise TypeError(f"register_pass expects a Pass subclass, not {cls!r}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name == "<pass>":
        raise ValueError(f"pass class {cls.__name__} needs a `name` usable in pipelines "
                         f"(letters, digits, '-', '_', '.'), not {name!r}")
    if name in _EXTRA or name in {c.name for c in _builtin_passes()}:
        raise ValueError(f"pass '{name}' registered twice")
    _EXTRA[name] = cls
    return cls


def unregister_pass(name: str) -> None:
    """Remove a pass `register_pass` added (for tests and reloading plugins)."""
    _EXTRA.pop(name, None)


def get_pass_class(name: str):
    if name in _LAZY:
        _load_lazy(name)
    cls = _EXTRA.get(name)
    if cls is not None:
        return cls
    for c in _builtin_passes():
        if c.name == name:
            return c
    return None
