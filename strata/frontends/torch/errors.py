"""The error a PyTorch import raises on a program it cannot take."""
from __future__ import annotations

from ...errors import StrataError

__all__ = ["TorchImportError"]


class TorchImportError(StrataError):
    """A program that cannot be imported: torch.export failed, an FX node whose op the
    torch dialect lacks, an argument of a kind the importer does not know...

    `str(e)` reads `model.py:42: node 'add_1' (aten.add.Tensor): what is wrong` when one
    FX node is at fault (its user source line first, when the node has one), else just
    what is wrong. `node`, `where` (file:line) and `detail` are kept apart for tools."""

    def __init__(self, detail: str, node: str | None = None, where: str | None = None):
        self.detail = detail
        self.node = node
        self.where = where
        super().__init__(self._text())

    def _text(self) -> str:
        s = f"{self.node}: {self.detail}" if self.node else self.detail
        return f"{self.where}: {s}" if self.where else s

    def __str__(self):
        return self._text()
