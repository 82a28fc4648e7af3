"""Strata: a Python-native, MLIR-compatible, multi-level compiler for ML models."""
__version__ = "0.1.0"

from .errors import StrataError  # noqa: E402  (imports nothing: keeps `import strata` light)


def compile(model, target: str = "cpu", function: str | None = None, pipeline=None,
            **options):
    """Compile `model` (a path to an .onnx or .mlir file, an onnx.ModelProto or a Strata
    module) for `target`; returns a callable: `outputs = f(*arrays, **by_input_name)`.
    See strata/compiler.py (imported on first use: `import strata` stays light)."""
    from .ir.gc_pause import gc_paused
    # the compiler's first import too ([Note: no collector while compiling])
    with gc_paused(promote=True):
        from .compiler import compile as _compile
        return _compile(model, target=target, function=function, pipeline=pipeline,
                        **options)
