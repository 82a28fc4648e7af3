"""The reference interpreter: runs Strata IR on NumPy values.

    from strata.interpreter import Interpreter
    outputs = Interpreter(module).call("main", x, y)

It implements func, ml_program, builtin, arith, math, cf, scf, tensor, linalg, memref,
bufferization and onnx (onnx ops through `onnx.reference`), so any function can be run
before and after any pass and the results compared
(`strata.testing.check_pass_preserves_semantics`).
"""
from .core import IMPLS, Interpreter, InterpreterError, Jump, impl, registered_ops

__all__ = ["Interpreter", "InterpreterError", "impl", "Jump", "IMPLS", "registered_ops"]
