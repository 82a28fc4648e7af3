"""TOSA to linalg, tensor and arith: the passes of upstream's TosaToLinalg family.

    tosa-to-linalg-named   conv2d, conv3d, depthwise_conv2d, matmul, max_pool2d,
                           avg_pool2d, transpose  -> linalg named ops (named.py)
    tosa-to-linalg         elementwise ops (with broadcasting), clamp, cast, rescale,
                           table, reductions, argmax, gather, tile, reverse, identity ->
                           linalg.generic, linalg.reduce (elementwise.py, reduction.py,
                           data.py)
    tosa-to-tensor         reshape, slice, pad, concat -> tensor ops (tensor.py)
    tosa-to-arith          const -> arith.constant, apply_scale -> i64 arith (tensor.py)
    tosa-to-linalg-pipeline  all four, in upstream's order

As upstream, `tosa-to-linalg` is a full conversion that leaves the ops the other passes
own (const, const_shape, reshape, slice, pad, concat, cond_if, while_loop, variables)
in place and fails on any other tosa op it cannot lower; the other passes are partial.

Each op has a lowering function registered with `@lowering(PASS, "tosa.name")`. It gets
a `Lowering` context (the op, its operands, a rewriter before it; see common.py) and
returns the replacement values, or raises `NotLowerable(reason)` for an instance it
cannot lower (a dynamic shape it needs static, an unsupported element type...), which
the conversion then reports at the op.

Broadcasting follows TOSA: operands have the result's rank and a static size-1 dim is
read at index 0 (`(d0, d1) -> (0, d1)`); dynamic dims are taken to match (upstream
inserts runtime broadcast checks there; Strata does not).
"""
from __future__ import annotations

import importlib

from ...passes.pass_manager import Pass
from ...rewrite.conversion import (ConversionConfig, ConversionPattern, ConversionTarget,
                                   apply_full_conversion, apply_partial_conversion)
from .common import Lowering, NotLowerable

__all__ = ["lowering", "LOWERINGS", "TosaToLinalg", "TosaToLinalgNamed", "TosaToTensor",
           "TosaToArith", "TosaToLinalgPipeline", "NotLowerable"]

NAMED, LINALG, TENSOR, ARITH = "named", "linalg", "tensor", "arith"
# pass -> {"tosa.op": lowering function}
LOWERINGS: dict = {NAMED: {}, LINALG: {}, TENSOR: {}, ARITH: {}}
_FAMILIES = ("elementwise", "reduction", "data", "named", "tensor")
_loaded = False


def lowering(which: str, *names: str):
    """Register the decorated function as the lowering of `names` in pass `which`."""
    def deco(fn):
        table = LOWERINGS[which]
        for n in names:
            if n in table:
                raise ValueError(f"two lowerings registered for '{n}' in {which}")
            table[n] = fn
        return fn
    return deco


def _load():
    global _loaded
    if not _loaded:
        _loaded = True
        for m in _FAMILIES:
            importlib.import_module(f"{__name__}.{m}")


class _Lower(ConversionPattern):
    """One pattern per pass: dispatches to the op's registered lowering function."""

    root = None

    def __init__(self, table, pass_name):
        super().__init__()
        self.table = table
        self.pass_name = pass_name

    @property
    def debug_name(self):
        return f"{self.pass_name} lowering"

    def match_and_rewrite(self, op, operands, rewriter):
        fn = self.table.get(op.name)
        if fn is None:
            return rewriter.notify_match_failure(op, "no lowering for this op")
        try:
            values = fn(Lowering(op, operands, rewriter))
        except NotLowerable as e:
            return rewriter.notify_match_failure(op, str(e))
        rewriter.replace_op(op, list(values))
        return True


# Ops tosa-to-linalg leaves to the other passes (upstream's legal ops of TosaToLinalg).
_LEFT_FOR_OTHERS = ("tosa.const", "tosa.const_shape", "tosa.apply_scale", "tosa.cond_if",
                    "tosa.while_loop", "tosa.yield", "tosa.reshape", "tosa.slice",
                    "tosa.pad", "tosa.concat", "tosa.variable", "tosa.variable_read",
                    "tosa.variable_write", "tosa.custom")


_PASS_NAMES = {NAMED: "tosa-to-linalg-named", LINALG: "tosa-to-linalg",
               TENSOR: "tosa-to-tensor", ARITH: "tosa-to-arith"}


def _run(op, which, full=False):
    _load()
    table = LOWERINGS[which]
    pattern = _Lower(table, _PASS_NAMES[which])
    target = ConversionTarget()
    target.add_legal_dialect("linalg", "tensor", "arith", "math", "scf", "builtin", "func")
    if full:
        target.add_illegal_dialect("tosa")
        target.add_legal_op(*_LEFT_FOR_OTHERS)
        apply_full_conversion([op], target, [pattern])
        return
    target.add_illegal_op(*table)
    apply_partial_conversion([op], target, [pattern],
                             config=ConversionConfig(fail_on_illegal=True))


class TosaToLinalgNamed(Pass):
    name = "tosa-to-linalg-named"
    summary = "Lower TOSA convolutions, pooling, matmul and transpose to linalg named ops"

    def run(self, op):
        _run(op, NAMED)


class TosaToLinalg(Pass):
    name = "tosa-to-linalg"
    summary = "Lower TOSA to LinAlg on tensors"

    def run(self, op):
        _run(op, LINALG, full=True)


class TosaToTensor(Pass):
    name = "tosa-to-tensor"
    summary = "Lower TOSA to the Tensor dialect"

    def run(self, op):
        _run(op, TENSOR)


class TosaToArith(Pass):
    name = "tosa-to-arith"
    summary = "Lower TOSA to the Arith dialect"

    def run(self, op):
        _run(op, ARITH)


class TosaToLinalgPipeline(Pass):
    name = "tosa-to-linalg-pipeline"
    summary = ("tosa-to-linalg-named, tosa-to-linalg, tosa-to-tensor and tosa-to-arith, in "
               "that order")

    def run(self, op):
        for which, full in ((NAMED, False), (LINALG, True), (TENSOR, False), (ARITH, False)):
            _run(op, which, full)


from ...passes.registry import register_pass  # noqa: E402

for _p in (TosaToLinalgNamed, TosaToLinalg, TosaToTensor, TosaToArith, TosaToLinalgPipeline):
    register_pass(_p)
