"""Strata: a Python-native, MLIR-compatible, multi-level compiler for ML models."""
__version__ = "0.1.0"

from .errors import StrataError  # noqa: E402  (imports nothing: keeps `import strata` light)
