"""Interpreter implementations of the onnx dialect."""
