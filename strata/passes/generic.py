"""The generic passes every pipeline uses, with upstream names and behaviour."""
from __future__ import annotations

from .canonicalize import Canonicalize
from .cse import CSE
from .inline import Inline
from .licm import LoopInvariantCodeMotion
from .print_op_stats import PrintOpStats
from .remove_dead_values import RemoveDeadValues
from .sccp import SCCP
from .strip_debuginfo import StripDebugInfo
from .symbol_dce import SymbolDCE
from .symbol_privatize import SymbolPrivatize

PASSES = [Canonicalize, StripDebugInfo, PrintOpStats, CSE, RemoveDeadValues, SymbolDCE,
          SymbolPrivatize, Inline, LoopInvariantCodeMotion, SCCP]
