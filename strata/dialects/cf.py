"""The cf dialect (being written)."""
from __future__ import annotations

from ..ir.context import Dialect

CF = Dialect("cf", [])
