"""`onnx-fold-constants`: onnx ops computed from constants become constants.

    strata-opt model.mlir --onnx-fold-constants
    strata-opt model.mlir --onnx-fold-constants=max-elements=4096

An onnx op is folded when
  - every operand is a compile-time constant: the result of an `onnx.Constant` holding a
    `value` tensor (dense or dense_resource), or of `onnx.NoValue`; or it is a `Shape`
    or `Size` (default domain) of a statically shaped tensor (see [Note: shape
    arithmetic]);
  - it has no (non-empty) region (If, Loop, Scan... are left alone);
  - it is deterministic: not RandomNormal, RandomUniform, their *Like forms, Bernoulli,
    Multinomial, nor a Dropout in training mode (a `training_mode` operand that is true,
    or `is_test` = 0 before opset 7);
  - each result is a tensor of a numeric element type (or `none`, an omitted optional
    output) whose computed value has at most `max-elements` elements and fits its type;
    a result typed with `?` dims (the pass runs before onnx-shape-inference) gets the
    constant's static type when every use of it is an onnx op, and is not folded
    otherwise.
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

[Note: shape arithmetic]
The PyTorch exporter writes every reshape's target as arithmetic on `Shape` of the data
(Swin-T: ~2,700 of its 3,837 imported ops), even where every size is static:

    %s = "onnx.Shape"(%x) : (tensor<1x56x56x96xf32>) -> tensor<4xi64>
    %i = "onnx.Gather"(%s, %c0) {axis = 0} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
    %u = "onnx.Unsqueeze"(%i, %c0) : (tensor<i64>, tensor<1xi64>) -> tensor<?xi64>
    %t = "onnx.Concat"(%u, %k) {axis = 0} : (...) -> tensor<?xi64>
    %r = "onnx.Reshape"(%x, %t) ...

`Shape` and `Size` of a tensor whose type has no `?` dim (nor an unknown rank) are
constants: they are folded like any op whose operands are constants (the interpreter's
own implementation, start/end included, run on a stand-in array of that shape that holds
no data), and the chain after them folds in the same walk. The exporter types the
intermediate results with `?` dims (tensor<?xi64>) or not at all; their values are
known here, so the constants get static types (onnx ops take refined operand types,
as after onnx-shape-inference). The `Reshape` is left with a constant shape, which its
lowering turns into a static expand/collapse. The data `%x` is not a constant and stays.
"""
from __future__ import annotations

from ...dialects.onnx import NoValueOp, OnnxOp, elements_from_numpy, onnx_op_class, \
    opset_version
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


_NUMERIC = (A.IntegerType, A.FloatType, A.ComplexType, A.IndexType)


def _foldable_type(t, max_elements: int) -> bool:
    """Whether a result of type `t` may be folded, before its value is known."""
    if isinstance(t, A.NoneType):
        return True
    if isinstance(t, A.UnrankedTensorType):
        return isinstance(t.element_type, _NUMERIC)
    if not isinstance(t, A.RankedTensorType) or \
            not isinstance(t.element_type, _NUMERIC):
        return False
    return A.DYNAMIC in t.shape or t.num_elements <= max_elements


def _static_tensor(t) -> bool:
    return isinstance(t, A.RankedTensorType) and A.DYNAMIC not in t.shape


def _shape_of_static(op) -> bool:
    """Whether `op` is a Shape or Size of a statically shaped tensor (a constant; see
    [Note: shape arithmetic])."""
    cls = type(op)
    return cls.op_type in ("Shape", "Size") and cls.domain == "" and \
        len(op._operands) == 1 and _static_tensor(op._operands[0].value.type)


def _constant_type(r, value, max_elements: int):
    """The type of the constant replacing result `r` of computed `value` (a NumPy
    array), or None when it may not replace it: too big, a shape `r`'s type contradicts,
    or a refined type a use outside the onnx dialect would not take."""
    t = r.type
    if value.size > max_elements:
        return None
    if _static_tensor(t):
        return t if tuple(t.shape) == value.shape else None
    if isinstance(t, A.RankedTensorType) and (
            len(t.shape) != value.ndim or
            any(d != A.DYNAMIC and d != n for d, n in zip(t.shape, value.shape))):
        return None
    if not all(isinstance(u.owner, OnnxOp) for u in r.uses):
        return None
    return A.RankedTensorType(value.shape, t.element_type)


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
        env = self.interp.env
        if _shape_of_static(op):
            # a stand-in of the data's shape, no data (see [Note: shape arithmetic])
            from ...interpreter.values import dtype_of
            x = op._operands[0].value
            try:
                stand_in = np.broadcast_to(np.zeros((), dtype_of(x.type)), x.type.shape)
            except (TypeError, ValueError):  # no NumPy dtype; more elements than NumPy counts
                return False
            env[x] = stand_in
            try:
                values = self.interp.run_op(op)
            except InterpreterError:
                return False
            finally:
                env.pop(x, None)
        else:
            if not all(_is_constant(o.value) for o in op._operands):
                return False
            if not self._operand_values(op) or _training_dropout(op, self.interp):
                return False
            try:
                with np.errstate(all="ignore"):
                    values = self.interp.run_op(op)
            except InterpreterError:
                return False  # left for the run to report
        types = []
        for r, v in zip(op.results, values):
            if not r.has_uses() or isinstance(r.type, A.NoneType):
                types.append(r.type)
                continue
            t = _constant_type(r, np.asarray(v), self.max_elements)
            if t is None:
                for r in op.results:
                    env.pop(r, None)
                return False
            types.append(t)
        block = op.parent
        news = []
        for r, v, t in zip(op.results, values, types):
            if not r.has_uses():
                news.append(None)
                continue
            if isinstance(t, A.NoneType):
                c = NoValueOp.create((), [t], None, None, (), 0, op.loc)
            else:
                attr = elements_from_numpy(np.asarray(v), t)
                c = self.constant_cls.create((), [t], {"value": attr}, None, (), 0,
                                             op.loc)
            block.insert_before(op, c)
            self.interp.env[c.results[0]] = v
            news.append(c.results[0])
        defs = {o.value.defining_op for o in op._operands if _is_constant(o.value)}
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
