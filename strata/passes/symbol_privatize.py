"""`symbol-privatize`: make the symbols directly inside the op private, as upstream.

    // strata-opt --symbol-privatize=exclude=main
    func.func @helper()   ->   func.func private @helper()
    func.func @main()     ->   func.func @main()          (excluded)
"""
from __future__ import annotations

from ..ir.attributes import StringAttr
from .pass_manager import Option, Pass
from .symbol_dce import _name_attr, is_symbol

__all__ = ["SymbolPrivatize"]


class SymbolPrivatize(Pass):
    name = "symbol-privatize"
    summary = "Mark symbols private"
    exclude = Option(str, [], "Comma separated list of symbols that should not be marked "
                     "private", is_list=True)

    def run(self, op):
        excluded = set(self.exclude or ())
        private = StringAttr("private")
        for r in op.regions:
            for b in r.blocks:
                for child in b.ops:
                    if not is_symbol(child) or _name_attr(child).value in excluded:
                        continue
                    child.set_attr("sym_visibility", private)
