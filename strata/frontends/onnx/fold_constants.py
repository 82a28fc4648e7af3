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

[Note: data movement folded natively]
The ops that shape arithmetic, masks and the exporter's padding code fold most (Shape,
Gather, Unsqueeze, Squeeze, Concat, Reshape, Slice, Transpose, ConstantOfShape, Expand,
Identity, Cast between the common integer, float and bool types; Add, Sub, Mul, integer
Mod, the comparisons, Not/And/Or/Xor and Where on operands of one dtype: Swin-T's window
masks) are computed here with NumPy,
as onnx.reference computes them (`_NATIVE`), rather than through the reference
interpreter: a reference op costs a NodeProto and an evaluator instance, and the first
one imports onnx.reference with its ~200 op modules (0.06-0.09 s of CPU, 5% of a
MobileNetV2 compile, whose folds are all of these kinds). A native rule answers None
for anything unusual (an old opset's attribute form, an index out of range, a dtype it
does not know, a result dtype other than the result type's), and the op then goes to
the reference as before, which also reports the errors. tests/unit/
test_onnx_fold_constants.py checks each rule against onnx.reference.
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


# ---------------------------------------------------------------- native rules
# [Note: data movement folded natively]: fn(op, args, version) -> list of arrays or None


def _int_attr(op, name, default):
    a = op._props.get(name)
    if a is None:
        return default
    return a.value if isinstance(a, A.IntegerAttr) else None


def _ints_attr(op, name):
    a = op._props.get(name)
    if a is None:
        return None
    return [x.value for x in a.value] if isinstance(a, A.ArrayAttr) else False


def _axes_list(axes, rank):
    import numpy as np
    if axes.ndim > 1 or axes.dtype.kind not in "iu":
        return None
    out = []
    for a in np.atleast_1d(axes).tolist():
        if not -rank <= a < rank:
            return None
        out.append(a + rank if a < 0 else a)
    return out if len(set(out)) == len(out) else None


def _shape(op, args, version):
    import numpy as np
    start, end = _int_attr(op, "start", 0), _int_attr(op, "end", None)
    n = args[0].ndim
    if start is None or (end is None and "end" in op._props) or not -n <= start <= n or \
            (end is not None and not -n <= end <= n):
        return None  # (the reference does not clamp as ONNX says: left to it)
    return [np.array(args[0].shape[start:end], dtype=np.int64)]


def _gather(op, args, version):
    import numpy as np
    x, idx = args
    axis = _int_attr(op, "axis", 0)
    if axis is None or not -x.ndim <= axis < x.ndim or idx.dtype.kind not in "iu":
        return None
    n = x.shape[axis]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        return None
    return [np.take(x, idx, axis=axis)]


def _unsqueeze(op, args, version):
    import numpy as np
    if version < 13 or len(args) != 2 or "axes" in op._props:
        return None
    x = args[0]
    axes = _axes_list(args[1], x.ndim + np.atleast_1d(args[1]).size)
    if axes is None:
        return None
    for a in sorted(axes):
        x = np.expand_dims(x, a)
    return [x]


def _squeeze(op, args, version):
    import numpy as np
    if version < 13 or "axes" in op._props:
        return None
    x = args[0]
    if len(args) < 2 or args[1] is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    else:
        axes = _axes_list(args[1], x.ndim)
        if axes is None or any(x.shape[a] != 1 for a in axes):
            return None
    return [np.squeeze(x, axis=tuple(axes))]


def _concat(op, args, version):
    import numpy as np
    axis = _int_attr(op, "axis", None)
    if axis is None or not args or any(a.dtype != args[0].dtype or a.ndim != args[0].ndim
                                       for a in args):
        return None
    if not -args[0].ndim <= axis < args[0].ndim:
        return None
    try:
        return [np.concatenate(args, axis)]
    except ValueError:
        return None


def _reshape(op, args, version):
    import numpy as np
    if version < 5 or len(args) != 2:
        return None
    x, shape = args
    if shape.ndim != 1 or shape.dtype.kind not in "iu":
        return None
    new = shape.astype(np.int64)
    allowzero = _int_attr(op, "allowzero", 0)
    if allowzero is None or (allowzero and (new == 0).any() and (new == -1).any()):
        return None
    if not allowzero:
        zeros = np.nonzero(new == 0)[0]
        if zeros.size and zeros.max() >= x.ndim:
            return None
        new[zeros] = np.array(x.shape, dtype=np.int64)[zeros]
    if (new < -1).any() or (new == -1).sum() > 1:
        return None
    try:
        return [np.reshape(x, tuple(new.tolist()))]
    except ValueError:
        return None


def _slice(op, args, version):
    import numpy as np
    if version < 10 or not 3 <= len(args) <= 5:
        return None
    x, starts, ends = args[:3]
    axes = args[3] if len(args) > 3 else None
    steps = args[4] if len(args) > 4 else None
    vecs = [starts, ends] + [v for v in (axes, steps) if v is not None]
    if any(v.ndim != 1 or v.dtype.kind not in "iu" or v.size != starts.size for v in vecs):
        return None
    axes = list(range(starts.size)) if axes is None else _axes_list(axes, x.ndim)
    if axes is None or len(axes) > x.ndim:
        return None
    steps = [1] * starts.size if steps is None else steps.tolist()
    if 0 in steps:
        return None
    slices = [slice(None)] * x.ndim
    for a, b, e, d in zip(axes, starts.tolist(), ends.tolist(), steps):
        slices[a] = slice(b, e, d)
    return [x[tuple(slices)]]


def _transpose(op, args, version):
    import numpy as np
    x = args[0]
    perm = _ints_attr(op, "perm")
    if perm is False or (perm is not None and sorted(perm) != list(range(x.ndim))):
        return None
    return [np.transpose(x, perm)]


def _constant_of_shape(op, args, version):
    import numpy as np

    from ...dialects.onnx import elements_to_numpy
    shape = args[0]
    if version < 9 or shape.ndim != 1 or shape.dtype.kind not in "iu" or (shape < 0).any():
        return None
    v = op._props.get("value")
    if v is None:
        value = np.array(0, dtype=np.float32)
    elif isinstance(v, DenseElementsAttr):
        value = elements_to_numpy(v)
        if value.size != 1 or value.dtype.kind not in "biuf":
            return None
        value = value.reshape(())
    else:
        return None
    return [np.full(tuple(shape.tolist()), value, dtype=value.dtype)]


_CAST_KINDS = frozenset("biuf")


def _cast(op, args, version):
    import numpy as np
    x = args[0]
    dt = _NATIVE_CAST_TO.get(_int_attr(op, "to", None))
    if dt is None or x.dtype.kind not in _CAST_KINDS or x.dtype.itemsize > 8 or \
            x.dtype.type not in _PLAIN:
        return None
    if x.dtype.kind == "f" and dt.kind in "iub" and not np.isfinite(x).all():
        return None  # (NaN / infinity to an integer: left to the reference)
    return [x.astype(dt)]


def _identity(op, args, version):
    return [args[0]]


def _binary(fn_name, kinds):
    """A rule for an elementwise binary op that NumPy's `fn_name` computes on operands
    of one dtype (of the `kinds`), with NumPy's broadcasting (ONNX's)."""
    def rule(op, args, version):
        import numpy as np
        a, b = args
        if version < 7 or op._props:  # (opsets 1-6: the `broadcast` / `axis` attributes)
            return None
        if a.dtype != b.dtype or a.dtype.kind not in kinds or a.dtype.type not in _PLAIN:
            return None
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            return None
        return [getattr(np, fn_name)(a, b)]
    return rule


def _mod(op, args, version):
    import numpy as np
    a, b = args
    fmod = _int_attr(op, "fmod", 0)
    if fmod not in (0, 1) or a.dtype != b.dtype or a.dtype.kind not in "iu" or \
            a.dtype.type not in _PLAIN or (b == 0).any():
        return None
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return None
    return [np.fmod(a, b) if fmod else np.mod(a, b)]


def _not(op, args, version):
    import numpy as np
    return [np.logical_not(args[0])] if args[0].dtype.kind == "b" else None


def _where(op, args, version):
    import numpy as np
    c, x, y = args
    if c.dtype.kind != "b" or x.dtype != y.dtype or x.dtype.type not in _PLAIN:
        return None
    try:
        np.broadcast_shapes(c.shape, x.shape, y.shape)
    except ValueError:
        return None
    return [np.where(c, x, y).astype(x.dtype)]


def _expand(op, args, version):
    import numpy as np
    x, shape = args
    if shape.ndim != 1 or shape.dtype.kind not in "iu" or (shape < 0).any() or \
            x.dtype.kind not in "biuf" or x.dtype.type not in _PLAIN:
        return None
    try:
        np.broadcast_shapes(x.shape, tuple(shape.tolist()))
    except ValueError:
        return None
    return [x * np.ones(shape, dtype=x.dtype)]


def _plain_types():
    import numpy as np
    return frozenset({np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                      np.uint16, np.uint32, np.uint64, np.float16, np.float32,
                      np.float64})


_PLAIN: frozenset = frozenset()
# onnx TensorProto data types -> dtype, for Cast (float8, bfloat16, strings: reference)
_NATIVE_CAST_TO: dict = {}
_NATIVE = {"Shape": _shape, "Gather": _gather, "Unsqueeze": _unsqueeze,
           "Squeeze": _squeeze, "Concat": _concat, "Reshape": _reshape, "Slice": _slice,
           "Transpose": _transpose, "ConstantOfShape": _constant_of_shape, "Cast": _cast,
           "Identity": _identity, "Add": _binary("add", "iuf"),
           "Sub": _binary("subtract", "iuf"), "Mul": _binary("multiply", "iuf"),
           "Mod": _mod, "Equal": _binary("equal", "biuf"),
           "Less": _binary("less", "iuf"), "LessOrEqual": _binary("less_equal", "iuf"),
           "Greater": _binary("greater", "iuf"),
           "GreaterOrEqual": _binary("greater_equal", "iuf"), "Not": _not,
           "And": _binary("logical_and", "b"), "Or": _binary("logical_or", "b"),
           "Xor": _binary("logical_xor", "b"), "Where": _where, "Expand": _expand}


def _init_native():
    import numpy as np
    global _PLAIN
    _PLAIN = _plain_types()
    # (TensorProto: FLOAT 1, UINT8 2, INT8 3, UINT16 4, INT16 5, INT32 6, INT64 7,
    # BOOL 9, FLOAT16 10, DOUBLE 11, UINT32 12, UINT64 13)
    _NATIVE_CAST_TO.update({1: np.dtype(np.float32), 2: np.dtype(np.uint8),
                            3: np.dtype(np.int8), 4: np.dtype(np.uint16),
                            5: np.dtype(np.int16), 6: np.dtype(np.int32),
                            7: np.dtype(np.int64), 9: np.dtype(np.bool_),
                            10: np.dtype(np.float16), 11: np.dtype(np.float64),
                            12: np.dtype(np.uint32), 13: np.dtype(np.uint64)})


def run_native(op, args):
    """The results of default-domain onnx op `op` on NumPy `args` by a native rule
    ([Note: data movement folded natively]), or None: no rule, or one that leaves this
    case to onnx.reference. Results have the dtypes of `op`'s result types."""
    cls = type(op)
    fn = _NATIVE.get(cls.op_type) if cls.domain == "" else None
    if fn is None or not args or args[0] is None:
        return None
    if fn is not _slice and fn is not _squeeze and any(a is None for a in args):
        return None  # (an omitted optional operand: only Slice and Squeeze take one)
    if not _PLAIN:
        _init_native()
    if any(a is not None and not hasattr(a, "dtype") for a in args):
        return None
    out = fn(op, args, opset_version(op))
    if out is None:
        return None
    from ...interpreter.values import dtype_of
    for r, v in zip(op.results, out):
        try:
            if v.dtype != dtype_of(r.type):
                return None
        except TypeError:
            return None
    return out


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

    def _run(self, op):
        """The results of `op` on the values in the frame (recorded there): a native
        rule's, else the reference interpreter's ([Note: data movement folded
        natively])."""
        env = self.interp.env
        out = run_native(op, [env[o.value] for o in op._operands])
        if out is None:
            return self.interp.run_op(op)
        for r, v in zip(op.results, out):
            env[r] = v
        return out

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
                values = self._run(op)
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
                    values = self._run(op)
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
