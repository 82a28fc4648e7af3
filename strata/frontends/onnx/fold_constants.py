"""`onnx-fold-constants`: onnx ops computed from constants become constants.

    strata-opt model.mlir --onnx-fold-constants
    strata-opt model.mlir --onnx-fold-constants=max-elements=4096

An onnx op is folded when
  - every operand is a compile-time constant: the result of an `onnx.Constant` holding a
    `value` tensor (dense or dense_resource), or of `onnx.NoValue`;
  - it has no (non-empty) region (If, Loop, Scan... are left alone);
  - it is deterministic: not RandomNormal, RandomUniform, their *Like forms, Bernoulli,
    Multinomial, nor a Dropout in training mode (a `training_mode` operand that is true,
    or `is_test` = 0 before opset 7);
  - each result is a statically shaped tensor of a numeric element type with at most
    `max-elements` elements (or `none`, an omitted optional output).
Its results are computed by the reference interpreter's implementation of the op (ONNX's
own semantics, through onnx.reference: strata/interpreter/ops_onnx.py), and each used
result is replaced by an `onnx.Constant` with that value, at the op's location (fused or
not: the op's own). An op the reference cannot run on those values (an error it would
report at run time) stays as it is, so that running the module still reports it.

[Note: one walk]
Ops are visited once, in program order (walk order of the module): a folded op's
constants are in place before the ops after it are looked at, so a chain of foldable ops
(Shape -> Gather -> Concat -> Reshape) folds in that one walk, to a fixpoint. Operand
constants that have no use left afterwards are erased.
"""
from __future__ import annotations

from ...dialects.onnx import NoValueOp, OnnxOp, elements_from_numpy, onnx_op_class, \
    opset_version
from ...dialects.onnx.types import StringType
from ...ir import attributes as A
from ...ir.dense import DenseElementsAttr, DenseResourceElementsAttr
from ...passes.pass_manager import Option, Pass, Statistic
from ...passes.registry import register_pass
from .decompose import _module_of

__all__ = ["OnnxFoldConstants", "fold_constants"]

# Op types whose results are random draws: never folded.
_RANDOM = frozenset({"RandomNormal", "RandomUniform", "RandomNormalLike",
                     "RandomUniformLike", "Bernoulli", "Multinomial"})


def _constant_value_attr(op):
    """The `value` tensor of an onnx.Constant op (None for anything else)."""
    if op is None or not isinstance(op, OnnxOp) or type(op).op_type != "Constant" \
            or type(op).domain != "":
        return None
    v = op._props.get("value")
    return v if isinstance(v, (DenseElementsAttr, DenseResourceElementsAttr)) else None


def _is_constant(value) -> bool:
    d = value.defining_op
    return isinstance(d, NoValueOp) or _constant_value_attr(d) is not None


def _foldable_type(t, max_elements: int) -> bool:
    if isinstance(t, A.NoneType):
        return True
    if not isinstance(t, A.RankedTensorType) or isinstance(t.element_type, StringType):
        return False
    if any(d == A.DYNAMIC for d in t.shape):
        return False
    et = t.element_type
    if not isinstance(et, (A.IntegerType, A.FloatType, A.ComplexType, A.IndexType)):
        return False
    return t.num_elements <= max_elements


def _candidate(op, max_elements: int) -> bool:
    """Whether `op` may be folded, as far as its own kind, regions and result types go
    (its operands are checked by the caller)."""
    if not isinstance(op, OnnxOp):
        return False
    cls = type(op)
    if (cls.op_type == "Constant" and cls.domain == "") or cls.op_type in _RANDOM:
        return False
    if any(r.blocks for r in op.regions):
        return False
    return all(_foldable_type(r.type, max_elements) for r in op.results)


def _training_dropout(op, interp) -> bool:
    """Whether a Dropout op (of the default domain) draws a random mask."""
    cls = type(op)
    if cls.op_type != "Dropout" or cls.domain != "":
        return False
    if opset_version(op) < 7:
        is_test = op._props.get("is_test")
        return not (isinstance(is_test, A.IntegerAttr) and is_test.value != 0)
    if len(op._operands) < 3:
        return False
    import numpy as np
    mode = interp.env.get(op._operands[2].value)  # None for an omitted training_mode
    return mode is not None and bool(np.any(mode))


class _Folder:
    """Folds the ops of one module (see the module docstring)."""

    __slots__ = ("interp", "max_elements", "folded", "constant_cls")

    def __init__(self, module, max_elements: int):
        from ...interpreter import Interpreter
        self.interp = Interpreter(_module_of(module))
        self.max_elements = max_elements
        self.folded = 0
        self.constant_cls = onnx_op_class("Constant")

    def _operand_values(self, op) -> bool:
        """Put the value of each operand of `op` in the interpreter's frame; False when
        one cannot be had."""
        from ...interpreter import InterpreterError
        env = self.interp.env
        for o in op._operands:
            v = o.value
            if v in env:
                continue
            try:
                self.interp.run_op(v.defining_op)
            except InterpreterError:
                return False
        return True

    def fold(self, op) -> bool:
        import numpy as np

        from ...interpreter import InterpreterError
        if not _candidate(op, self.max_elements):
            return False
        if not all(_is_constant(o.value) for o in op._operands):
            return False
        if not self._operand_values(op) or _training_dropout(op, self.interp):
            return False
        try:
            with np.errstate(all="ignore"):
                values = self.interp.run_op(op)
        except InterpreterError:
            return False  # left for the run to report
        block = op.parent
        news = []
        for r, v in zip(op.results, values):
            if not r.has_uses():
                news.append(None)
                continue
            if isinstance(r.type, A.NoneType):
                c = NoValueOp.create((), [r.type], None, None, (), 0, op.loc)
            else:
                attr = elements_from_numpy(np.asarray(v), r.type)
                c = self.constant_cls.create((), [r.type], {"value": attr}, None, (), 0,
                                             op.loc)
            block.insert_before(op, c)
            self.interp.env[c.results[0]] = v
            news.append(c.results[0])
        defs = {o.value.defining_op for o in op._operands}
        for r, n in zip(op.results, news):
            if n is not None:
                r.replace_all_uses_with(n)
        for r in op.results:
            self.interp.env.pop(r, None)
        op.erase()
        for d in defs:
            if d is not None and d.parent is not None and \
                    not any(r.has_uses() for r in d.results):
                for r in d.results:
                    self.interp.env.pop(r, None)
                d.erase()
        self.folded += 1
        return True


def fold_constants(module, max_elements: int = 1 << 20) -> int:
    """Fold every foldable onnx op nested in `module` (see the module docstring);
    returns how many ops were folded."""
    folder = _Folder(module, max_elements)
    for op in list(module.walk()):
        if op.parent is not None and op is not module:
            folder.fold(op)
    return folder.folded


@register_pass
class OnnxFoldConstants(Pass):
    name = "onnx-fold-constants"
    summary = "Replace onnx ops whose operands are all constants by the constants they compute"
    display_name = "OnnxFoldConstantsPass"
    max_elements = Option(int, 1 << 20, "Fold only ops whose results have at most this "
                          "many elements each")
    folded = Statistic("num-folded", "Number of ops folded")

    def run(self, op):
        self.stat("num-folded", fold_constants(op, self.max_elements))
