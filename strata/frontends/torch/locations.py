"""Locations of FX nodes: the node's name around the user's Python source position.

[Note: node locations]
torch.export records, on each node it traced, the Python stack at the call
(`node.meta["stack_trace"]`, the text of a traceback). torch-mlir's FxImporter turns
its `File "f.py", line N,` frames into `loc("f.py":N:0)`, or, for several frames, a call
site chain whose callee is the innermost frame (the line that called the op) and whose
callers are the outer frames, innermost first. Strata does the same and puts the FX node's
name around it, so a diagnostic names both the node and the user's line:

    loc("relu"(callsite("model.py":8:0 at "model.py":20:0)))

A node without a stack trace (placeholders, the output, nodes export added) gets only
its name. `user_frame(loc)` finds the line to show the user: the innermost frame outside
torch's own sources (`torch/nn/modules/linear.py` is not where the user wrote `self.fc`).
"""
from __future__ import annotations

import re

from ...ir.location import CallSiteLoc, FileLineColLoc, NameLoc, UnknownLoc

__all__ = ["stack_location", "node_location", "user_frame"]

_FRAME = re.compile(r'File "([^"]+)", line ([0-9]+),')


def stack_location(stack_trace):
    """The location of a traceback text (see [Note: node locations]); None without one."""
    if not stack_trace:
        return None
    frames = [FileLineColLoc(f, int(n), 0) for f, n in _FRAME.findall(stack_trace)]
    if not frames:
        return None
    caller = frames[0]
    for f in frames[1:-1]:
        caller = CallSiteLoc(f, caller)
    return CallSiteLoc(frames[-1], caller) if len(frames) > 1 else frames[0]


def node_location(node):
    """`loc("<node name>"(<its stack location>))` for FX node `node`."""
    return NameLoc(node.name, stack_location(node.meta.get("stack_trace")) or UnknownLoc())


def _frames(loc):
    """The file positions of a location, innermost first."""
    if isinstance(loc, NameLoc):
        yield from _frames(loc.child)
    elif isinstance(loc, CallSiteLoc):
        yield from _frames(loc.callee)
        yield from _frames(loc.caller)
    elif isinstance(loc, FileLineColLoc):
        yield loc


_TORCH_SOURCE = re.compile(r"(^|/)(torch|torch/_[a-z_]+|functorch)/")


def user_frame(loc):
    """The innermost `file:line` of `loc` outside torch's own sources, else the
    innermost one; None when `loc` has no file position."""
    frames = list(_frames(loc))
    for f in frames:
        if not _TORCH_SOURCE.search(f.filename.replace("\\", "/")):
            return f
    return frames[0] if frames else None
