"""The one registry of passes. `all_pass_classes()` lists Strata's own passes;
downstream code adds its passes with `register_pass(cls)`."""
from __future__ import annotations

_EXTRA: dict = {}


def _builtin_passes():
    from . import generic
    return generic.PASSES


def all_pass_classes() -> dict:
    out = {c.name: c for c in _builtin_passes()}
    out.update(_EXTRA)
    return out


def register_pass(cls):
    """Make `cls` available to pipelines and strata-opt flags (usable as a decorator)."""
    if cls.name in _EXTRA or cls.name in {c.name for c in _builtin_passes()}:
        raise ValueError(f"pass '{cls.name}' registered twice")
    _EXTRA[cls.name] = cls
    return cls


def get_pass_class(name: str):
    return all_pass_classes().get(name)
