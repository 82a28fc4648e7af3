"""The scf dialect (being written)."""
from __future__ import annotations

from ..ir.context import Dialect

SCF = Dialect("scf", [])
