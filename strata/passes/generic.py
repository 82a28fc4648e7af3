"""The generic passes every pipeline uses, with upstream names and behaviour."""
from __future__ import annotations

from .canonicalize import Canonicalize
from .print_op_stats import PrintOpStats
from .strip_debuginfo import StripDebugInfo

PASSES = [Canonicalize, StripDebugInfo, PrintOpStats]
