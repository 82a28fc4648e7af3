"""Interpreter implementations of the linalg dialect."""
