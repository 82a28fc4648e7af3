"""The base of every error Strata reports to its user.

Anything a user can get wrong (malformed MLIR, a broken ONNX file, an op that cannot be
lowered, wrong inputs to a compiled model) raises a subclass of `StrataError` carrying a
located, readable message; any other exception escaping Strata is a bug in Strata.
Imports nothing, so every layer can use it.
"""


class StrataError(Exception):
    """A located, user-facing error (see the module docstring)."""
