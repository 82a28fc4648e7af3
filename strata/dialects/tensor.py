"""The tensor dialect (being written)."""
from __future__ import annotations

from ..ir.context import Dialect

TENSOR = Dialect("tensor", [])
