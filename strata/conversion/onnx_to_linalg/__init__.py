"""`convert-onnx-to-linalg`: the onnx dialect lowered to linalg, tensor, arith, math and scf.

Each ONNX op (or family of ops) has a lowering function, registered with `@lowering`:

    @lowering("Relu")
    def _relu(cx: Lowering) -> list[Value]:
        return [elementwise(cx, [cx.operands[0]], lambda b, x: ...)]

A lowering gets a `Lowering` context: the onnx op (`cx.op`, with its original types and
properties), its operands already converted (`cx.operands`), a rewriter positioned before
the op (`cx.b`) and the converted result types (`cx.result_type(i)`). It returns the
replacement values, or raises `NotLowerable(reason)` when this instance cannot be lowered
(an unsupported attribute value, a shape that must be static...): the op is then left
alone and the conversion reports it with the reason.

[Note: signless integers]
ONNX distinguishes int8 and uint8; arith and linalg work on signless integers, with the
signedness in the op (divsi/divui, extsi/extui, cmpi slt/ult). The type converter makes
every `uiN`/`siN` element type signless (`iN`); lowerings read the signedness from the
onnx op's original operand and result types (`cx.op.operands[i].type`), which stay
intact. A function's original signature is what strata.compile uses to give outputs
their ONNX dtype back.

The families live in sibling modules (elementwise, reduction, contraction, data movement,
control flow...); `_load_families` imports them all, so registering is just defining.
"""
from __future__ import annotations

import importlib
import pkgutil

from ...ir import attributes as A
from ...passes.pass_manager import Option, Pass
from ...rewrite.conversion import (ConversionConfig, ConversionPattern, ConversionTarget,
                                   apply_full_conversion, apply_partial_conversion)
from ...rewrite.func_conversion import populate_function_signature_conversion
from ...rewrite.type_conversion import TypeConverter

__all__ = ["lowering", "Lowering", "NotLowerable", "LOWERINGS", "ConvertOnnxToLinalg",
           "signless", "make_type_converter", "lowered_op_names"]

# onnx op name ("onnx.Add") -> lowering function
LOWERINGS: dict = {}


def lowering(*op_types: str):
    """Register the decorated function as the lowering of `onnx.<op_type>` ops."""
    def deco(fn):
        for t in op_types:
            name = t if t.startswith("onnx.") else "onnx." + t
            if name in LOWERINGS and LOWERINGS[name] is not fn:
                raise ValueError(f"two lowerings registered for '{name}'")
            LOWERINGS[name] = fn
        return fn
    return deco


class NotLowerable(Exception):
    """Raised by a lowering when this op instance cannot be lowered (with the reason)."""


_LOADED_PACKAGES: set = set()


def load_families(package: str, path, skip=()) -> None:
    """Import once every public module of the lowering package `package` (its
    `__path__` is `path`) but `skip`: each family module registers its lowerings when
    imported. Shared by onnx_to_linalg and torch_to_linalg."""
    if package in _LOADED_PACKAGES:
        return
    _LOADED_PACKAGES.add(package)
    for m in pkgutil.iter_modules(path):
        if not m.name.startswith("_") and m.name not in skip:
            importlib.import_module(f"{package}.{m.name}")


def _load_families():
    load_families(__name__, __path__)


def lowered_op_names() -> frozenset:
    """The onnx op names that have a lowering (used by onnx-decompose's `keep` default:
    an op lowered directly need not be expanded into its function body)."""
    _load_families()
    return frozenset(n for n in LOWERINGS if n != "onnx.Yield")  # a terminator, not an op


# ------------------------------------------------------------------ types


def signless(t):
    """The element type `t` with its signedness dropped (`ui8` -> `i8`); others as is."""
    if type(t) is A.IntegerType and t.signedness != A.IntegerType.SIGNLESS:
        return A.IntegerType(t.width)
    return t


def _convert(t):
    if type(t) is A.IntegerType:
        return signless(t)
    if type(t) is A.RankedTensorType:
        e = signless(t.element_type)
        return t if e is t.element_type else A.RankedTensorType(t.shape, e, t.encoding)
    if type(t) is A.UnrankedTensorType:
        e = signless(t.element_type)
        return t if e is t.element_type else A.UnrankedTensorType(e)
    return t


def make_type_converter() -> TypeConverter:
    tc = TypeConverter()
    tc.add_conversion(_convert)
    return tc


# ------------------------------------------------------------------ the pattern


class Lowering:
    """What a lowering function works with (see the module docstring)."""

    __slots__ = ("op", "operands", "b", "tc")

    def __init__(self, op, operands, rewriter, tc):
        self.op = op
        self.operands = operands
        self.b = rewriter
        self.tc = tc

    @property
    def loc(self):
        return self.op.loc

    def result_type(self, i: int = 0):
        return self.tc.convert_type(self.op.results[i].type)

    def orig_type(self, i: int):
        """The onnx-level (unconverted) type of operand `i`."""
        return self.op.operands[i].type

    def has_operand(self, i: int) -> bool:
        """Whether optional input `i` is given (present and not a `none` value)."""
        return i < len(self.operands) and type(self.op.operands[i].type) is not A.NoneType

    def attr(self, name: str, default=None):
        """ONNX attribute `name` as a Python value (int, float, str, list, ndarray), or
        `default` when the node does not set it."""
        a = self.op.properties.get(name) if self.op._props else None
        return default if a is None else attr_value(a)

    def create(self, op_cls, **kw):
        kw.setdefault("loc", self.op.loc)
        return self.b.create(op_cls, **kw)

    def dim_names(self, value):
        """The names of the dims of source-level `value` (an operand or result of the op
        being lowered): two dims of one name have one size at run time (see [Note: dim
        symbols] in common.py); a list with a name or None per dim, or None."""
        from .common import dim_symbols
        return dim_symbols(value)


def attr_value(a):
    """The Python value of an ONNX attribute held as an MLIR attribute."""
    t = type(a)
    if t is A.IntegerAttr:
        return a.value
    if t is A.FloatAttr:
        return a.value
    if t is A.StringAttr:
        return a.value
    if t is A.ArrayAttr:
        return [attr_value(x) for x in a.value]
    if t is A.TypeAttr:
        return a.value
    from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr
    if isinstance(a, DenseElementsAttr):
        return a.array
    if isinstance(a, DenseResourceElementsAttr):
        return a.array(BLOBS)
    return a


class _LowerOnnxOp(ConversionPattern):
    """One pattern for every onnx op: dispatches to the registered lowering function."""

    root = None
    # A lowering may create onnx ops (SequenceMap copies its body per element): they
    # are lowered by this same pattern, inside its own application.
    has_bounded_rewrite_recursion = True

    def match_and_rewrite(self, op, operands, rewriter):
        if op.name == "onnx.NoValue":
            # Only onnx ops use it ("this optional input is absent"); they are all
            # lowered too, so by the end nothing uses it.
            rewriter.erase_op(op)
            return True
        fn = LOWERINGS.get(op.name)
        if fn is None:
            return rewriter.notify_match_failure(op, "no lowering for this op")
        cx = Lowering(op, operands, rewriter, self.type_converter)
        try:
            values = fn(cx)
        except NotLowerable as e:
            return rewriter.notify_match_failure(op, str(e))
        if values is None:
            return rewriter.notify_match_failure(op, "lowering declined")
        clash = _static_clash(cx, values)
        if clash:
            return rewriter.notify_match_failure(op, clash)
        rewriter.replace_op(op, list(values))
        return True


def _static_clash(cx, values):
    """Why the lowered `values` cannot stand for the op's results (a static dim of the
    computed shape differs from the result type's: a cast would make a wrong buffer of
    it), or None."""
    for i, v in enumerate(values):
        if v is None or i >= len(cx.op.results):
            continue
        want = cx.result_type(i)
        got = v.type
        if type(want) is A.RankedTensorType and type(got) is A.RankedTensorType and (
                len(want.shape) != len(got.shape) or any(
                    a != b and A.DYNAMIC not in (a, b) for a, b in zip(got.shape, want.shape))):
            return f"it computes {got} where result #{i} is typed {want}"
    return None


def _is_onnx(op) -> bool:
    return op.name.startswith("onnx.")


class ConvertOnnxToLinalg(Pass):
    name = "convert-onnx-to-linalg"
    summary = "Lower the onnx dialect to linalg, tensor, arith, math and scf"
    partial = Option(bool, False, "Leave onnx ops that cannot be lowered in place (listed "
                     "in a warning) instead of failing")

    def run(self, op):
        _load_families()
        tc = make_type_converter()
        target = ConversionTarget()
        target.add_legal_dialect("linalg", "tensor", "arith", "math", "scf", "cf",
                                 "builtin", "ml_program")
        target.add_illegal_dialect("onnx")
        patterns = [_LowerOnnxOp(tc)]
        populate_function_signature_conversion(patterns, tc, target)
        from .globals import populate_global_conversion
        populate_global_conversion(patterns, tc, target)
        if not self.partial:
            apply_full_conversion([op], target, patterns, type_converter=tc)
            return
        config = ConversionConfig(fail_on_illegal=False)
        result = apply_partial_conversion([op], target, patterns, type_converter=tc,
                                          config=config)
        left = sorted({o.name for o in result.unlegalized_ops if _is_onnx(o)})
        if left:
            self.emit_warning(f"{len(left)} onnx op kinds left unlowered: "
                              + ", ".join(left), op)


from ...passes.registry import register_pass  # noqa: E402

register_pass(ConvertOnnxToLinalg)
