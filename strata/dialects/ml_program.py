"""The ml_program dialect (being written)."""
from __future__ import annotations

from ..ir.context import Dialect

ML_PROGRAM = Dialect("ml_program", [])
