"""Getting an ExportedProgram: from a module (torch.export.export) or a `.pt2` file
(torch.export.load), with torch's failures reported as TorchImportError.

    ep = export_module(model, (x,), dynamic_shapes={"x": {0: torch.export.Dim("n")}})
    ep = load_program("model.pt2")

A `.pt2` file is a zip archive that torch.export.save writes. Loading one runs
`torch.export.load`, and nothing more: Strata unpickles nothing itself, but torch does
(the program's weights and constants are read with `torch.load(weights_only=False)` and
pickle), so **a .pt2 file can run arbitrary code when loaded: never load one from a source
you do not trust**, exactly as for torch.export.load itself. Before handing the file to
torch, Strata checks only that it is a readable zip archive, so that a wrong file gets a
clear message rather than torch's traceback.
"""
from __future__ import annotations

import os
import warnings
import zipfile

from .errors import TorchImportError

__all__ = ["export_module", "load_program"]


def _torch_message(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return f"{type(e).__name__}: {text}" if type(e).__name__ not in text[:60] else text


def export_module(module, example_args=(), example_kwargs=None, dynamic_shapes=None):
    """`torch.export.export(module, example_args, example_kwargs, dynamic_shapes=...)`;
    its failure is a TorchImportError carrying torch's message."""
    import torch
    if not isinstance(module, torch.nn.Module):
        raise TorchImportError(f"expected a torch.nn.Module to export, got "
                               f"{type(module).__name__}")
    if not isinstance(example_args, tuple):
        example_args = tuple(example_args) if isinstance(example_args, list) else \
            (example_args,)
    try:
        return torch.export.export(module, example_args, example_kwargs,
                                   dynamic_shapes=dynamic_shapes)
    except Exception as e:  # torch's own error, whatever its class
        raise TorchImportError(f"exporting {type(module).__name__} with torch.export.export "
                               f"failed: {_torch_message(e)}") from None


def load_program(path):
    """The ExportedProgram saved in `path` by torch.export.save (see the module
    docstring on what loading runs)."""
    import torch
    path = os.fspath(path)
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise TorchImportError(f"{path}: cannot read the program: {e.strerror}") from None
    if not zipfile.is_zipfile(path):
        raise TorchImportError(f"{path}: not a program saved by torch.export.save (not a "
                               "zip archive)")
    try:
        with warnings.catch_warnings():  # torch's own deprecation notices, not the user's
            warnings.simplefilter("ignore", FutureWarning)
            ep = torch.export.load(path)
    except Exception as e:
        raise TorchImportError(f"{path}: torch.export.load failed: {_torch_message(e)}") \
            from None
    if not isinstance(ep, torch.export.ExportedProgram):
        raise TorchImportError(f"{path}: holds a {type(ep).__name__}, not an ExportedProgram")
    return ep
