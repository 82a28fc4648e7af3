"""The math dialect (being written)."""
from __future__ import annotations

from ..ir.context import Dialect

MATH = Dialect("math", [])
