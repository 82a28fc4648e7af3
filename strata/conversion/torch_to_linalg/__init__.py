"""`convert-torch-to-linalg`: torch-mlir's `torch` dialect (as the PyTorch importer
writes it) lowered to linalg, tensor, arith, math and scf on builtin tensors.

    %int1 = torch.constant.int 1
    %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[2,?],f32>,
           !torch.vtensor<[2,?],f32>, !torch.int -> !torch.vtensor<[2,?],f32>
  becomes
    %0 = linalg.generic {...} ins(%arg0, %arg1 : tensor<2x?xf32>, tensor<2x?xf32>) ...

Each ATen op (or family) has a lowering function registered with `@lowering`, keyed by
the op's name without the dialect prefix ("aten.add.Tensor", "aten.permute": torch-mlir
drops the `.default` overload); an op the dialect holds as `torch.operator "torch.aten.
squeeze.dims"(...)` is found by its `name`. A lowering gets a `TorchLowering` context:
the same interface as convert-onnx-to-linalg's `Lowering` (`cx.op`, `cx.operands`
converted, the rewriter `cx.b`, `cx.result_type(i)`, `cx.orig_type(i)`), so the
computation builders of onnx_to_linalg (matmul, padded_conv, max_pool, softmax,
batch_norm, reduce_tensor, gather, concat, elementwise with broadcasting...) serve both
frontends, plus readers of the ATen arguments that are not tensors (`cx.int_(i)`,
`cx.ints(i)`, `cx.sizes(i)`, `cx.scalar(i, elt)`, `cx.is_none(i)`). It returns the
replacement values or raises `NotLowerable(reason)`.

[Note: torch types]
At the function boundary and on every value the backend types replace torch-mlir's
(as its `torch-backend-to-linalg-on-tensors` pipeline does): `!torch.vtensor<[2,?],f32>`
-> `tensor<2x?xf32>` with signless elements (`si64` -> `i64`, `ui8` -> `i8`; the
signedness is read from the torch type, `cx.orig_type`, as [Note: signless integers]
says for ONNX), `!torch.int` -> `i64`, `!torch.float` -> `f64`, `!torch.bool` -> `i1`;
a complex tensor `!torch.vtensor<[4],complex<f32>>` -> its real pairs `tensor<4x2xf32>`,
and an op that takes or gives one is lowered by complex.py ([Note: complex as real
pairs]).
Constants become `arith.constant`s; `!torch.list`, `!torch.none`, `!torch.str` and
`!torch.Device` values have no run-time form: the lowerings read them from their
defining `torch.prim.ListConstruct` / `torch.constant.*` ops (lists of ints may hold
run-time `!torch.int` values: symbolic sizes), and those ops are erased once their
users are lowered.

torch.export's symbols (`torch.symbolic_int`, `torch.bind_symbolic_shape` on the
function's arguments) have no run-time form either: what they say of the inputs' sizes
(each Dim's range, the derived dims, the dims of one symbol alike) becomes `cf.assert`s
at the lowered entry ([Note: symbolic sizes checked in the generated code], symbols.py).

[Note: unlowered torch ops]
An op without a lowering fails the pass before anything is converted, with a
diagnostic at the op's location, which the importer made the user's Python line fused
with the FX node name: `model.py:12:0: error: no lowering to linalg for the ATen op
'aten.special_bessel_j0' (torch.operator, FX node 'special_bessel_j0')` (the message
names the node: a rendered location shows only the file position). One whose lowering
declines (an argument it needs constant, an unsupported case) fails the conversion
there: `failed to legalize operation 'torch.aten.view'` and a note with the reason.
"""
from __future__ import annotations

import math

from ...ir import attributes as A
from ...passes.pass_manager import Option, Pass
from ...rewrite.conversion import (ConversionConfig, ConversionPattern, ConversionTarget,
                                   apply_full_conversion, apply_partial_conversion)
from ...rewrite.func_conversion import populate_function_signature_conversion
from ...rewrite.type_conversion import TypeConverter
from ..onnx_to_linalg import Lowering, NotLowerable, load_families
from .types import converted_type, signed_tensor_type

__all__ = ["lowering", "TorchLowering", "NotLowerable", "LOWERINGS",
           "ConvertTorchToLinalg", "make_type_converter", "aten_name", "DYNAMIC_ARG",
           "symbolic_dims", "lowers"]

# "aten.add.Tensor" -> lowering function
LOWERINGS: dict = {}


def lowering(*names: str):
    """Register the decorated function as the lowering of `torch.<name>` ops."""
    def deco(fn):
        for n in names:
            if n in LOWERINGS and LOWERINGS[n] is not fn:
                raise ValueError(f"two lowerings registered for '{n}'")
            LOWERINGS[n] = fn
        return fn
    return deco


def _load_families():
    load_families(__name__, __path__, skip=("types", "symbols"))


def lowers(name: str) -> bool:
    """Whether ops named `name` ("transformers.grouped_mm_fallback") have a lowering:
    the importer's test for a custom operator ([Note: op names] in
    frontends/torch/importer.py)."""
    _load_families()
    return name in LOWERINGS


_COMPLEX = []   # the complex module, once loaded ([Note: complex as real pairs])


def _complex():
    if not _COMPLEX:
        from . import complex as m
        _COMPLEX.append(m)
    return _COMPLEX[0]


def has_complex(op) -> bool:
    """Whether `op` takes or gives complex tensors (lowered by complex.py)."""
    return _complex().has_complex(op)


def _complex_lowerings() -> dict:
    return _complex().COMPLEX_LOWERINGS


def aten_name(op) -> str:
    """The op's name without the `torch.` prefix ("aten.add.Tensor"); for a generic
    `torch.operator`, the name it carries."""
    if op.name == "torch.operator":
        n = op.properties.get("name")
        n = n.value if n is not None else ""
    else:
        n = op.name
    return n[6:] if n.startswith("torch.") else n


# ------------------------------------------------------------------ types


def _convert(t):
    return converted_type(t)


def make_type_converter() -> TypeConverter:
    """The type converter of [Note: torch types]."""
    tc = TypeConverter()
    tc.add_conversion(_convert)
    return tc


# ------------------------------------------------------------------ arguments

DYNAMIC_ARG = object()   # an argument known at run time only
_NONE = None


def _const_arg(v, depth=0):
    """The Python value of torch-level Value `v` when it is a compile-time constant (an
    int, float, bool, str, None, or a list of those from a ListConstruct, with
    DYNAMIC_ARG for the run-time items), else DYNAMIC_ARG."""
    op = v.defining_op
    if op is None:
        return DYNAMIC_ARG
    n = op.name
    if n == "torch.constant.none":
        return None
    if n in ("torch.constant.int", "torch.constant.float", "torch.constant.bool",
             "torch.constant.str", "torch.constant.device"):
        a = op.properties.get("value")
        if a is None:
            return DYNAMIC_ARG
        val = a.value
        if n == "torch.constant.bool":
            return bool(val)
        if n == "torch.constant.int":
            return int(val)
        if n == "torch.constant.float":
            return float(val)
        return val
    if n == "torch.prim.ListConstruct" and depth < 2:
        return [_const_arg(x, depth + 1) for x in op.operands]
    return DYNAMIC_ARG


def symbolic_dims(value):
    """[Note: symbolic dims] torch.export names each dynamic size by a symbol
    (`torch.symbolic_int "s17"`) and the importer binds the sizes of a value to them:
        torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0, 3)>
    A dim whose expression is one symbol is named by it (the name of [Note: dim
    symbols], for the builders and for the inputs' checks); other dims (static, or an
    expression such as s0 * 2) are None. None when `value` has no binding."""
    from ...ir.affine import AffineSymbolExpr
    for use in value.uses:
        op = use.owner
        if op.name != "torch.bind_symbolic_shape" or op.operands[0] is not value:
            continue
        amap = op.properties["shape_expressions"].value
        syms = op.operands[1:]
        names = []
        for e in amap.results:
            if type(e) is AffineSymbolExpr and e.position < len(syms):
                d = syms[e.position].defining_op
                n = d.properties.get("symbol_name") if d is not None else None
                names.append(n.value if n is not None else None)
            else:
                names.append(None)
        return names if any(names) else None
    return None


def _fx_node(op) -> str:
    """`, FX node 'add_1'` when `op`'s location is the importer's name of an FX node
    ([Note: unlowered torch ops]), else ""."""
    from ...ir.location import NameLoc
    loc = op.loc
    return f", FX node '{loc.name}'" if isinstance(loc, NameLoc) else ""


class TorchLowering(Lowering):
    """What a lowering function works with (see the module docstring): the context of
    convert-onnx-to-linalg's lowerings (op, converted operands, rewriter, type
    converter), with torch's types and argument readers."""

    __slots__ = ()

    @property
    def aten(self) -> str:
        return aten_name(self.op)

    def orig_type(self, i: int):
        """Operand `i`'s type as a builtin tensor (or scalar) type that keeps the torch
        element type's signedness (`ui8`, `si64`): what is_unsigned reads."""
        return signed_tensor_type(self.op.operands[i].type)

    def orig_result_type(self, i: int = 0):
        return signed_tensor_type(self.op.results[i].type)

    def dim_names(self, value):
        """The symbols torch.export gave the dims of `value` (its
        `torch.bind_symbolic_shape`: a dim that is one symbol `s0` is named by it), so
        that dims of one symbol need no run-time check that they agree."""
        return symbolic_dims(value)

    def has_operand(self, i: int) -> bool:
        """Whether optional argument `i` is given (present and not None)."""
        return i < len(self.op.operands) and not self.is_none(i)

    def is_none(self, i: int) -> bool:
        v = self.op.operands[i]
        return v.defining_op is not None and v.defining_op.name == "torch.constant.none"

    def arg(self, i: int):
        """Argument `i` as a Python value (see _const_arg), DYNAMIC_ARG when known at
        run time only."""
        if i >= len(self.op.operands):
            raise NotLowerable(f"{self.aten} has no argument #{i}")
        return _const_arg(self.op.operands[i])

    def int_(self, i: int, what: str = "argument") -> int:
        v = self.arg(i)
        if type(v) is bool or not isinstance(v, int):
            raise NotLowerable(f"{what} (argument #{i}) must be a constant int")
        return v

    def float_(self, i: int, what: str = "argument") -> float:
        v = self.arg(i)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise NotLowerable(f"{what} (argument #{i}) must be a constant number")
        return float(v)

    def bool_(self, i: int, what: str = "argument", default=None) -> bool:
        v = self.arg(i) if i < len(self.op.operands) else default
        if v is None and default is not None:
            return default
        if not isinstance(v, (bool, int)) or v is DYNAMIC_ARG:
            raise NotLowerable(f"{what} (argument #{i}) must be a constant bool")
        return bool(v)

    def ints(self, i: int, what: str = "argument") -> list:
        """A list of constant ints (an int alone is a list of one, as ATen reads
        `int[1]` arguments)."""
        v = self.arg(i)
        if isinstance(v, int) and not isinstance(v, bool):
            return [v]
        if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int)
                                          for x in v):
            raise NotLowerable(f"{what} (argument #{i}) must be a list of constant ints")
        return v

    def sizes(self, i: int, what: str = "sizes") -> list:
        """A list of ints whose items may be run-time `!torch.int` values (symbolic
        sizes): mixed ints and `index` Values."""
        v = self.arg(i)
        if not isinstance(v, list):
            raise NotLowerable(f"{what} (argument #{i}) must be a list")
        lst = self.op.operands[i].defining_op.operands
        out = []
        for x, orig in zip(v, lst):
            if x is DYNAMIC_ARG:
                from ..onnx_to_linalg.common import scalars
                out.append(scalars(self).cast(self.remapped(orig), A.index))
            elif isinstance(x, bool) or not isinstance(x, int):
                raise NotLowerable(f"{what} (argument #{i}) must hold ints")
            else:
                out.append(x)
        return out

    def remapped(self, orig):
        """The converted form of torch-level Value `orig` (an operand of a list)."""
        v = self.b.get_remapped_value(orig)
        if v is None:
            raise NotLowerable("an operand has no converted value")
        want = self.tc.convert_type(orig.type)
        if want is not None and v.type is not want:
            v = self.tc.materialize_target_conversion(self.b, self.loc, [want], [v],
                                                      original_type=orig.type)
            if isinstance(v, (list, tuple)):
                v = v[0]
        return v

    def tensors(self, i: int) -> list:
        """The converted tensors of a list-of-tensors argument (a ListConstruct)."""
        op = self.op.operands[i].defining_op
        if op is None or op.name != "torch.prim.ListConstruct":
            raise NotLowerable(f"argument #{i} must be a list built in the function")
        return [self.remapped(v) for v in op.operands]

    def scalar(self, i: int, elt):
        """Number argument `i` (a constant or a run-time !torch.int/float/bool) as a
        scalar Value of element type `elt`."""
        from ..onnx_to_linalg.common import scalars
        s = scalars(self)
        v = self.arg(i)
        if v is DYNAMIC_ARG:
            x = self.operands[i]
            if isinstance(x.type, A.ShapedType):
                raise NotLowerable(f"argument #{i} must be a number")
            return s.cast(x, elt)
        if v is None or isinstance(v, (str, list)):
            raise NotLowerable(f"argument #{i} must be a number")
        if type(elt) is A.IntegerType and isinstance(v, float):
            if elt.width == 1:
                return s.const(v != 0, elt)
            if not math.isfinite(v):
                raise NotLowerable(f"{v} as an integer (argument #{i})")
            return s.const(int(v), elt)
        return s.const(v, elt)



# ------------------------------------------------------------------ the patterns

_NO_VALUE = frozenset({"torch.constant.none", "torch.constant.str",
                       "torch.constant.device", "torch.prim.ListConstruct",
                       "torch.bind_symbolic_shape", "torch.symbolic_int"})


class _LowerTorchOp(ConversionPattern):
    """One pattern for every torch op: dispatches to the registered lowering function."""

    root = None

    def match_and_rewrite(self, op, operands, rewriter):
        if op.name in _NO_VALUE:
            # no run-time form ([Note: torch types]): read by the ops that use them,
            # which are all lowered too
            rewriter.erase_op(op)
            return True
        name = aten_name(op)
        fn = LOWERINGS.get(name)
        if has_complex(op):     # [Note: complex as real pairs]
            fn = _complex_lowerings().get(name)
        if fn is None:
            return rewriter.notify_match_failure(op, f"no lowering for {name}")
        cx = TorchLowering(op, operands, rewriter, self.type_converter)
        try:
            values = fn(cx)
        except NotLowerable as e:
            return rewriter.notify_match_failure(op, f"{name}: {e}")
        if values is None:
            return rewriter.notify_match_failure(op, f"{name}: lowering declined")
        values = list(values)
        if len(values) < len(op.results):
            values += [None] * (len(op.results) - len(values))
        from ..onnx_to_linalg import _static_clash
        clash = _static_clash(cx, values)
        if clash:
            return rewriter.notify_match_failure(op, f"{name}: {clash}")
        rewriter.replace_op(op, values)
        return True


def _is_torch(op) -> bool:
    return op.name.startswith("torch.") or op.name.startswith("torch_c.")


class ConvertTorchToLinalg(Pass):
    name = "convert-torch-to-linalg"
    summary = ("Lower the torch dialect (ATen ops on value tensors) to linalg, tensor, "
               "arith, math and scf on builtin tensors")
    partial = Option(bool, False, "Leave torch ops that cannot be lowered in place (listed "
                     "in a warning) instead of failing")

    def run(self, op):
        _load_families()
        tc = make_type_converter()
        target = ConversionTarget()
        target.add_legal_dialect("linalg", "tensor", "arith", "math", "scf", "cf",
                                 "builtin", "ml_program")
        target.add_illegal_dialect("torch", "torch_c")
        patterns = [_LowerTorchOp(tc)]
        populate_function_signature_conversion(patterns, tc, target)
        # [Note: symbolic sizes checked in the generated code]: read from the bindings
        # the conversion erases, emitted at the lowered entries
        from .symbols import SymbolicSizes
        sized = [(f, s) for f in _functions(op)
                 for s in (SymbolicSizes.of(f),) if s is not None]
        if not self.partial:
            # [Note: unlowered torch ops]: an ATen op without any lowering is named at
            # once, as what it is (a generic torch.operator too)
            # (one on complex tensors by its complex lowering: [Note: complex as real
            # pairs])
            for o in op.walk():
                if not _is_torch(o) or o.name in _NO_VALUE:
                    continue
                if has_complex(o):
                    if aten_name(o) not in _complex_lowerings():
                        self.signal_failure(f"no lowering to linalg for the ATen op "
                                            f"'{aten_name(o)}' on complex tensors "
                                            f"({o.name}{_fx_node(o)})", o)
                elif aten_name(o) not in LOWERINGS:
                    self.signal_failure(f"no lowering to linalg for the ATen op "
                                        f"'{aten_name(o)}' ({o.name}{_fx_node(o)})", o)
            apply_full_conversion([op], target, patterns, type_converter=tc)
            _emit_size_checks(sized)
            return
        config = ConversionConfig(fail_on_illegal=False)
        result = apply_partial_conversion([op], target, patterns, type_converter=tc,
                                          config=config)
        _emit_size_checks(sized)
        left = sorted({aten_name(o) for o in result.unlegalized_ops if _is_torch(o)})
        if left:
            self.emit_warning(f"{len(left)} torch op kinds left unlowered: "
                              + ", ".join(left), op)


def _functions(op):
    """The func.func ops directly in module `op` (or `op` itself)."""
    if op.name == "func.func":
        return [op]
    if not op.regions or not op.regions[0].blocks:
        return []
    return [o for o in op.regions[0].blocks[0].ops if o.name == "func.func"]


def _emit_size_checks(sized):
    """The checks of each (function, SymbolicSizes) at its lowered entry (one whose
    arguments are still torch types, in a partial conversion, gets none)."""
    from .symbols import emit_size_checks
    for f, sizes in sized:
        if not f.regions or not f.regions[0].blocks:
            continue
        block = f.regions[0].blocks[0]
        used = {i for i, *_ in sizes.plain} | {i for i, *_ in sizes.derived}
        if all(i < len(block.args) and type(block.args[i].type) is A.RankedTensorType
               for i in used):
            emit_size_checks(sizes, block, f.loc)


from ...passes.registry import register_pass  # noqa: E402

register_pass(ConvertTorchToLinalg)
