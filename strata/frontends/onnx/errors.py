"""The error an ONNX import (or expansion) raises on a model it cannot take."""
from __future__ import annotations

from ...errors import StrataError

__all__ = ["OnnxImportError", "describe_node"]


class OnnxImportError(StrataError):
    """A model that cannot be imported: malformed bytes, an unknown op, a missing value...

    `str(e)` reads `model.onnx: node 'n3' (Conv, #3): what is wrong` (the file part when the
    model came from a file, the node part when one node is at fault); `filename`, `node`
    (its description) and `detail` (what is wrong) are kept apart for tools."""

    def __init__(self, detail: str, node: str | None = None, filename: str | None = None):
        self.detail = detail
        self.node = node
        self.filename = filename
        super().__init__(self._text())

    def _text(self) -> str:
        s = f"{self.node}: {self.detail}" if self.node else self.detail
        return f"{self.filename}: {s}" if self.filename else s

    def with_filename(self, filename: str | None) -> "OnnxImportError":
        if filename and not self.filename:
            self.filename = filename
            self.args = (self._text(),)
        return self

    def __str__(self):
        return self._text()


def describe_node(name: str, op_type: str, index: int, where: str = "") -> str:
    """`node 'n3' (Conv, #3)`; an unnamed node is `node #3 (Conv)`; `where` follows
    (` in graph 'body' of node 'loop' (Loop, #2)` for a node of a subgraph)."""
    if name:
        return f"node '{name}' ({op_type}, #{index}){where}"
    return f"node #{index} ({op_type}){where}"
