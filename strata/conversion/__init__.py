"""Lowerings between dialects (onnx -> linalg, tosa -> linalg, ... -> llvm): each is a
pass made of conversion patterns applied by strata.rewrite.conversion."""
