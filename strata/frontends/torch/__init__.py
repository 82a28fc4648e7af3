"""The PyTorch frontend: torch.export programs -> the torch dialect (torch-mlir's).

    import torch
    from strata.frontends.torch import import_program
    ep = torch.export.export(model, (x,))
    module = import_program(ep)                 # func.func @main in the torch dialect

`import_program` builds what torch-mlir's FxImporter builds (strata/frontends/torch/
importer.py, [Note: the imported module]); `load_program("model.pt2")` reads a file
written by `torch.export.save`; `export_module(model, args)` runs torch.export with
Strata's error reporting. The `torch-externalize-weights` pass (externalize.py) moves the
frozen weights into `ml_program.global`s. torch is imported only when a program is.
"""
from __future__ import annotations

from .errors import TorchImportError

__all__ = ["import_program", "import_graph", "input_mutations", "mutable_state", "random_draws",
           "load_program", "export_module", "name_inputs", "TorchImportError"]


def import_program(exported_program, *, decompose: bool | None = None,
                   symbolic_shapes: bool = True, checks: bool = False,
                   mutable_buffers: bool = False, random_draws: bool = False):
    """See strata.frontends.torch.importer.import_program."""
    from .importer import import_program as _import
    return _import(exported_program, decompose=decompose, symbolic_shapes=symbolic_shapes,
                   checks=checks, mutable_buffers=mutable_buffers, random_draws=random_draws)


def name_inputs(module, exported_program) -> None:
    """See strata.frontends.torch.importer.name_inputs."""
    from .importer import name_inputs as _name
    _name(module, exported_program)


def input_mutations(module) -> tuple:
    """See strata.frontends.torch.importer.input_mutations."""
    from .importer import input_mutations as _mutations
    return _mutations(module)


def mutable_state(module) -> tuple:
    """See strata.frontends.torch.importer.mutable_state."""
    from .importer import mutable_state as _state
    return _state(module)


def random_draws(module) -> tuple:
    """See strata.frontends.torch.importer.random_draws."""
    from .importer import random_draws as _draws
    return _draws(module)


def import_graph(gm, example_inputs=None, *, symbolic_shapes: bool = True,
                 constants=None, functional=None):
    """See strata.frontends.torch.importer.import_graph."""
    from .importer import import_graph as _import
    return _import(gm, example_inputs, symbolic_shapes=symbolic_shapes,
                   constants=constants, functional=functional)


def load_program(path):
    """See strata.frontends.torch.program.load_program."""
    from .program import load_program as _load
    return _load(path)


def export_module(module, example_args=(), example_kwargs=None, dynamic_shapes=None):
    """See strata.frontends.torch.program.export_module."""
    from .program import export_module as _export
    return _export(module, example_args, example_kwargs, dynamic_shapes)
