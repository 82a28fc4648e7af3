"""Locations of FX nodes: the node's name around the user's Python source position.

[Note: node locations]
torch.export records, on each node it traced, the Python stack at the call
(`node.meta["stack_trace"]`, the text of a traceback). torch-mlir's FxImporter turns
its `File "f.py", line N,` frames into `loc("f.py":N:0)`, or, for several frames, a call
site chain whose callee is the innermost frame and whose callers are the outer frames,
innermost first. Strata does the same, with two differences that make every later
diagnostic point at the user's code:
- the innermost frames inside torch's own sources are dropped (`torch/nn/modules/
  linear.py`, where `F.linear` is called, is not where the user wrote `self.fc(x)`), so
  the callee is the user's line; a stack with no user frame at all keeps its innermost;
- frames in Strata's own sources are dropped wherever they are: torch.export records
  the stack from the frame that called the module, which for `strata.compile(module,
  example_args=...)` is Strata's export call (`strata/frontends/torch/__init__.py`),
  never the user's code; kept, it was the only non-torch frame of a module built from
  torch's own layers (`nn.Sequential(nn.Dropout())`), and errors named Strata's file;
  so are the frames of code FX generated (`<eval_with_key>.5`, where Dynamo's graph
  calls a higher-order op such as torch.cond: the user's line is the frame before);
- the FX node's name is put around it, so a diagnostic names both the node and the line:

    loc("addmm"(callsite("model.py":8:0 at "model.py":20:0)))

A node without a stack trace (placeholders, the output, nodes export added) gets only
its name. `user_frame(loc)` is the line to show the user (the callee's, or for a
location made elsewhere the innermost frame outside torch's sources).
"""
from __future__ import annotations

import os
import re

from ...ir.location import CallSiteLoc, FileLineColLoc, NameLoc, UnknownLoc

__all__ = ["stack_location", "node_location", "user_frame"]

_FRAME = re.compile(r'File "([^"]+)", line ([0-9]+),')


def stack_location(stack_trace):
    """The location of a traceback text (see [Note: node locations]); None without one."""
    if not stack_trace:
        return None
    frames = [FileLineColLoc(f, int(n), 0) for f, n in _FRAME.findall(stack_trace)]
    frames = [f for f in frames if not _not_user(f)] or frames
    if not frames:
        return None
    if not all(map(_in_torch, frames)):
        while _in_torch(frames[-1]):
            frames.pop()
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


# torch's own sources: an installed torch (or functorch), or a path relative to torch's
# root as export writes some ("torch/fx/passes/runtime_assert.py").
_TORCH_SOURCE = re.compile(r"(^|/(site|dist)-packages/)(torch|functorch)/")


def _in_torch(frame) -> bool:
    return _TORCH_SOURCE.search(frame.filename.replace("\\", "/")) is not None


# Strata's own package directory (the frames of its calls into torch.export)
_STRATA_SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))).replace("\\", "/") + "/"


def _not_user(frame) -> bool:
    """A frame of Strata's own sources, or of code FX generated."""
    name = frame.filename
    return name.startswith("<eval_with_key>") or \
        os.path.abspath(name).replace("\\", "/").startswith(_STRATA_SOURCE)


def user_frame(loc):
    """The innermost `file:line` of `loc` outside torch's own sources, else the
    innermost one; None when `loc` has no file position."""
    frames = [f for f in _frames(loc) if not _not_user(f)] or list(_frames(loc))
    return next((f for f in frames if not _in_torch(f)), frames[0] if frames else None)
