"""The torch and torch_c dialects (strata/dialects/torch): the generated schema table,
types, ops and their verifier, printed and parsed as iree-opt (torch-mlir) does.

iree-opt registers torch-mlir's dialect and is the judge: the lit files of
tests/lit/dialects/torch print byte-identically (custom and generic forms), their
invalid cases give upstream's diagnostics, and modules built by torch-mlir's own FX
importer from real PyTorch programs round-trip to the same text.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys

import pytest

from strata.dialects import default_context
from strata.dialects import torch as td
from strata.dialects.torch import table
from strata.dialects.torch import types as TT
from strata.ir import attributes as A
from strata.syntax.parser import parse_module
from strata.syntax.printer import print_op
from strata.tools import opt

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
LIT = os.path.join(ROOT, "tests", "lit", "dialects", "torch")
IREE_OPT = shutil.which("iree-opt")
needs_iree = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")


def strata_opt(args, text):
    """strata-opt in-process on `text`: (exit code, stdout, stderr)."""
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        rc = opt.main(list(args))
        return rc, sys.stdout.getvalue(), sys.stderr.getvalue()
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


def iree_opt(args, text):
    r = subprocess.run([IREE_OPT, *args, "-"], input=text, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def same_as_iree(text, generic=False):
    args = ["--mlir-print-op-generic"] if generic else []
    rc, want, err = iree_opt(args, text)
    assert rc == 0, err
    rc, got, err = strata_opt(args, text)
    assert rc == 0, err
    assert got == want


def roundtrip(text):
    m = parse_module(text, default_context())
    return print_op(m)


# ---------------------------------------------------------------- the table

def test_table_loads_without_torch():
    """`import strata`, the dialect, parsing and verifying torch ops: no torch import."""
    code = (
        "import sys\n"
        "from strata.dialects import default_context\n"
        "from strata.syntax.parser import parse_module\n"
        "from strata.ir.verifier import verify\n"
        "m = parse_module('func.func @f(%a: !torch.vtensor<[2],f32>, %i: !torch.int) {\\n'\n"
        "  '  %0 = torch.aten.add.Tensor %a, %a, %i : !torch.vtensor<[2],f32>, '\n"
        "  '!torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>\\n  return\\n}',\n"
        "  default_context())\n"
        "verify(m)\n"
        "assert 'torch' not in sys.modules, 'the torch dialect imported torch'\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr


def test_table_is_current():
    pytest.importorskip("torch")
    pytest.importorskip("iree.compiler")  # the generator records torch-mlir's ops too
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_torch_dialect.py"),
                        "--check"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_schema_of_torch_is_a_registered_op():
    torch = pytest.importorskip("torch")
    ctx = default_context()
    missing = []
    count = 0
    for s in torch._C._jit_get_all_schemas():
        ns, _, name = s.name.partition("::")
        if ns not in ("aten", "prims") or "..." in str(s):
            continue
        count += 1
        op_name = table.op_name(ns, name, s.overload_name)
        cls = ctx.get_op(op_name)
        if cls is None:
            missing.append(op_name)
            continue
        if not issubclass(cls, td.TorchOp):
            continue
        schema = cls.get_schema()
        if (len(schema.arguments), len(schema.returns)) != (len(s.arguments), len(s.returns)) \
                or [a.name for a in schema.arguments] != [a.name for a in s.arguments]:
            missing.append(f"{op_name} (schema differs)")
    assert count > 3000
    assert not missing, missing[:20]


def test_every_table_entry_parses_and_has_constraints():
    ctx = default_context()
    for name in table.op_names():
        cls = ctx.get_op(name)
        assert cls is not None and cls.name == name
        if issubclass(cls, td.TorchOp):
            s = cls.get_schema()
            for a in s.arguments + s.returns:
                assert td.schema_constraint(a.type) is not None


def test_context_makes_op_classes_on_first_use():
    """Dialect.lookup_op: a context asks the dialect for an op it does not hold yet,
    once; unknown names stay unknown (for every dialect, not only torch)."""
    from strata.ir.context import Context, Dialect
    from strata.ir.ods import Op
    made = []

    def lookup(name):
        if name != "lazy.op":
            return None
        made.append(name)
        return type("LazyOp", (Op,), {"__slots__": (), "name": name})

    ctx = Context([Dialect("lazy", lookup_op=lookup)])
    assert ctx.get_op("lazy.other") is None and ctx.ops.get("other.op") is None
    cls = ctx.get_op("lazy.op")
    assert cls is not None and ctx.ops.get("lazy.op") is cls and "lazy.op" in ctx.ops
    assert made == ["lazy.op"]
    assert ctx.dialects["lazy"].get_op("lazy.op") is not None


def test_op_names_follow_torch_mlir():
    assert table.op_name("aten", "add", "Tensor") == "torch.aten.add.Tensor"
    assert table.op_name("aten", "relu", "") == "torch.aten.relu"
    assert table.op_name("aten", "relu", "default") == "torch.aten.relu"
    assert table.lookup("torch.aten.add_.Tensor").is_inplace
    assert not table.lookup("torch.aten.__and__.Tensor").is_inplace
    assert table.lookup("torch.aten.sort").result_names == ("values", "indices")
    assert table.lookup("torch.aten.var_mean.correction").result_names == \
        ("result0", "result1")
    assert table.lookup("torch.aten.relu").result_names == ("result",)
    assert table.lookup("torch.aten.no_such_op") is None
    assert table.lookup("torch.aten.relu").has_value_semantics
    view = table.lookup("torch.aten.view")
    assert view.is_read_only and not view.has_value_semantics
    assert not table.lookup("torch.aten.relu_").is_read_only
    assert not table.lookup("torch.aten.__is__").has_value_semantics
    assert default_context().get_op("torch.aten.no_such_op") is None


def test_torch_mlir_registry():
    assert table.in_torch_mlir("torch.aten.add.Tensor")
    assert not table.in_torch_mlir("torch.aten.add.out")
    assert not table.in_torch_mlir("torch.aten._native_batch_norm_legit_no_training")
    if IREE_OPT is None:
        return
    iree_ir = pytest.importorskip("iree.compiler.ir")
    ctx = iree_ir.Context()
    wrong = [n for n in table.op_names()
             if table.in_torch_mlir(n) != ctx.is_registered_operation(n)]
    assert not wrong, wrong[:10]


def test_schema_parser():
    s = table.lookup("torch.aten.add.Tensor")
    assert [a.name for a in s.arguments] == ["self", "other", "alpha"]
    assert s.arguments[2].kwarg_only and s.arguments[2].default == "1"
    s = table.lookup("torch.aten.max.dim_max")
    assert [a.is_out for a in s.arguments] == [False, False, False, True, True]
    assert [r.name for r in s.returns] == ["values", "indices"]
    s = table.lookup("torch.aten.split.Tensor")
    assert str(s.returns[0].type) == "Tensor[]"
    s = table.lookup("torch.aten.index_put_")
    assert str(s.arguments[1].type) == "Tensor?[]" and s.arguments[0].is_mutable
    name, ovl, args, rets = table.parse_schema(
        'f.o(Dict(str, t)(a!) self, str? s="a, (b)", int[2] k=[1, 1], *, '
        'Tensor(b -> *)[] xs) -> (Tensor(a) r, int)')
    assert (name, ovl) == ("f", "o")
    assert [str(a.type) for a in args] == ["Dict(str, t)", "str?", "int[2]", "Tensor[]"]
    assert args[1].default == '"a, (b)"' and args[3].kwarg_only
    assert [(r.name, str(r.type)) for r in rets] == [("r", "Tensor"), ("", "int")]


def test_jit_type_strings():
    s = table.lookup("torch.aten.empty.memory_format")
    assert [td.ops.jit_type_str(a.type) for a in s.arguments] == \
        ["int[]", "int?", "int?", "Device?", "bool?", "int?"]


# ---------------------------------------------------------------- types

def test_types_parse_print_and_unique():
    for text in ["!torch.vtensor<[2,?],f32>", "!torch.vtensor<*,f32>", "!torch.vtensor",
                 "!torch.tensor<[3],si64>", "!torch.vtensor<[2,3],unk>",
                 "!torch.vtensor<[],i1>", "!torch.vtensor<[4],complex<f64>>",
                 "!torch.vtensor<[2],!torch.qint8>", "!torch.list<optional<vtensor>>",
                 "!torch.tuple<int, bool>", "!torch.union<int, float>",
                 "!torch.dict<str, tensor>", "!torch.Device", "!torch.Generator",
                 "!torch.number", '!torch.nn.Module<"M">']:
        m = parse_module(f"func.func private @f({text})", default_context())
        assert f"@f({text})" in print_op(m)
    assert TT.ValueTensorType([2, None], A.f32) is TT.ValueTensorType((2, -1), A.f32)
    assert TT.ValueTensorType() is not TT.NonValueTensorType()
    assert str(TT.ValueTensorType(None, None)) == "!torch.vtensor"
    assert str(TT.ListType(TT.ValueTensorType([2], A.f32))) == "!torch.list<vtensor<[2],f32>>"


def test_tensor_type_accessors():
    si64 = A.IntegerType(64, A.IntegerType.SIGNED)
    t = TT.ValueTensorType([2, -1], si64)
    assert t.rank == 2 and t.shape == (2, None) and t.is_dynamic_dim(1)
    assert not t.has_static_shape and t.has_sizes and t.has_dtype
    assert str(t.to_builtin()) == "tensor<2x?xi64>"
    assert t.without_value_semantics() is TT.NonValueTensorType([2, -1], si64)
    assert TT.vtensor_of_builtin(A.RankedTensorType([2, A.DYNAMIC], A.i64)) is t
    assert str(TT.ValueTensorType(None, A.i1).to_builtin()) == "tensor<*xi1>"
    assert TT.ValueTensorType([2], None).to_builtin() is None
    assert TT.builtin_element_type(A.IntegerType(8, A.IntegerType.UNSIGNED)) is A.i8
    assert TT.torch_dtype(A.i32) is A.IntegerType(32, A.IntegerType.SIGNED)
    assert TT.torch_dtype(A.i32, signed=False) is A.IntegerType(32, A.IntegerType.UNSIGNED)
    assert TT.torch_dtype(A.i1) is A.i1


def test_scalar_type_numbers():
    assert TT.dtype_of_scalar_type(6) is A.f32
    assert TT.dtype_of_scalar_type(4) is A.IntegerType(64, A.IntegerType.SIGNED)
    assert TT.dtype_of_scalar_type(11) is A.i1
    assert TT.dtype_of_scalar_type(15) is A.bf16
    assert TT.scalar_type_number(A.f16) == 5
    assert TT.scalar_type_number(A.IntegerType(8, A.IntegerType.UNSIGNED)) == 0
    assert TT.dtype_of_scalar_type(99) is None


def test_scalar_type_numbers_match_torch():
    """DTYPES numbers dtypes as TorchScript does (what a dtype operand holds)."""
    torch = pytest.importorskip("torch")
    import re
    for number, (name, dtype) in TT.DTYPES.items():
        fn = torch.jit.CompilationUnit(f"def f():\n    return torch.{name}\n").f
        assert re.search(r"value=(\d+)", str(fn.graph)).group(1) == str(number), name


# ---------------------------------------------------------------- ops

def test_generated_op_accessors():
    m = parse_module("""
func.func @f(%a: !torch.vtensor<[2],f32>, %i: !torch.int, %b: !torch.bool) {
  %0 = torch.aten.add.Tensor %a, %a, %i : !torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>, !torch.int -> !torch.vtensor<[2],f32>
  %1:2 = torch.aten.sort %a, %i, %b : !torch.vtensor<[2],f32>, !torch.int, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
  return
}""", default_context())
    f = m.regions[0].blocks[0].first
    add = f.regions[0].blocks[0].first
    a, i = f.regions[0].blocks[0].args[0], f.regions[0].blocks[0].args[1]
    assert add.name == "torch.aten.add.Tensor" and isinstance(add, td.TorchOp)
    assert add.argument("self") is a and add.argument("alpha") is i
    assert td.schema_of(add).text.startswith("add.Tensor(")
    with pytest.raises(KeyError):
        add.argument("nope")
    assert add.next.asm_result_names() == ["values", "indices"]
    assert td.torch_op_class("torch.constant.int") is td.ops.ConstantIntOp
    assert td.torch_op_class("torch.aten.add.Tensor") is type(add)


def test_build_a_module():
    """What an importer does: constants, a list, a literal, generated ops, by API."""
    from strata.dialects import func
    from strata.dialects.builtin import ModuleOp
    from strata.ir.builder import Builder
    import numpy as np
    from strata.ir.dense import DenseElementsAttr
    si64 = A.IntegerType(64, A.IntegerType.SIGNED)
    vt = TT.ValueTensorType([2, -1], A.f32)
    f = func.FuncOp.new("main", A.FunctionType([vt], [vt]))
    entry = f.regions[0].blocks[0]
    b = Builder.at_end(entry)
    one = b.create(td.ops.ConstantIntOp, value=A.IntegerAttr(1, A.i64))
    half = b.create(td.ops.ConstantFloatOp, value=A.FloatAttr(0.5, A.f64))
    lst = b.create(td.ops.ListConstructOp, elements=[one.result, one.result],
                   result=TT.ListType(TT.IntType()))
    lit = b.create(td.ops.ValueTensorLiteralOp, value=DenseElementsAttr(
        A.RankedTensorType([2], A.i64), np.array([1, 2])))
    assert lit.result.type is TT.ValueTensorType([2], si64)
    add = b.create(td.torch_op_class("torch.aten.add.Tensor"),
                   operands=[entry.args[0], entry.args[0], one.result], result_types=[vt])
    mul = b.create(td.torch_op_class("torch.aten.mul.Scalar"),
                   operands=[add.result, half.result], result_types=[vt])
    b.create(func.ReturnOp, operands_=[mul.result])
    del lst
    m = ModuleOp.new([f])
    m.verify()
    text = print_op(m)
    assert "%int1 = torch.constant.int 1" in text
    assert "%float5.000000e-01 = torch.constant.float 5.000000e-01" in text
    assert "torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> " \
        "!torch.list<int>" in text
    assert "torch.vtensor.literal(dense<[1, 2]> : tensor<2xi64>) : !torch.vtensor<[2],si64>" \
        in text
    assert "torch.aten.mul.Scalar %2, %float5.000000e-01 : !torch.vtensor<[2,?],f32>, " \
        "!torch.float -> !torch.vtensor<[2,?],f32>" in text
    assert roundtrip(text) == text
    if IREE_OPT is not None:
        same_as_iree(text)


def test_materialize_constant():
    from strata.ir.builder import Builder
    from strata.dialects import func
    f = func.FuncOp.new("f", A.FunctionType([], []))
    b = Builder.at_end(f.regions[0].blocks[0])
    mat = td.TORCH.materialize_constant
    assert mat(b, A.IntegerAttr(3, A.i64), TT.IntType()).name == "torch.constant.int"
    assert mat(b, A.FloatAttr(3.0, A.f64), TT.FloatType()).name == "torch.constant.float"
    assert mat(b, A.IntegerAttr(1, A.i1), TT.BoolType()).name == "torch.constant.bool"
    assert mat(b, A.UnitAttr(), TT.NoneType()).name == "torch.constant.none"
    assert mat(b, A.FloatAttr(3.0, A.f64), TT.IntType()) is None


def test_literal_type_is_inferred_from_the_value():
    rc, out, err = strata_opt([], """
func.func @f() {
  %0 = torch.vtensor.literal(dense<1> : tensor<2xi64>) : !torch.vtensor<[3],si64>
  return
}""")
    assert rc == 1 and "inferred type(s) '!torch.vtensor<[2],si64>' are incompatible" in err


def test_bind_symbolic_shape_symbol_from_a_block_argument():
    """A located error (iree-opt crashes on this one: the symbol has no defining op)."""
    rc, out, err = strata_opt([], """
func.func @f(%a: !torch.vtensor<[?],f32>, %i: !torch.int) {
  torch.bind_symbolic_shape %a, [%i], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return
}""")
    assert rc == 1 and "<stdin>:3:3: error: 'torch.bind_symbolic_shape' op shape symbol " \
        "must be produced by a SymbolicIntOp" in err and "Traceback" not in err, err


def test_subtypes():
    si64 = A.IntegerType(64, A.IntegerType.SIGNED)
    sub = td.ops.is_valid_subtype
    assert sub(TT.IntType(), TT.NumberType()) and not sub(TT.BoolType(), TT.NumberType())
    assert sub(TT.NoneType(), TT.OptionalType(TT.IntType()))
    assert sub(TT.ValueTensorType([2, 3], si64), TT.ValueTensorType([2, -1], si64))
    assert sub(TT.ValueTensorType([2, 3], si64), TT.ValueTensorType())
    assert not sub(TT.ValueTensorType([2, -1], si64), TT.ValueTensorType([2, 3], si64))
    assert not sub(TT.ValueTensorType([2], si64), TT.NonValueTensorType([2], si64))
    assert not sub(TT.ValueTensorType(None, si64), TT.ValueTensorType([2], si64))
    assert sub(TT.UnionType([TT.IntType(), TT.FloatType()]), TT.NumberType())
    assert sub(TT.TupleType([TT.IntType()]), TT.TupleType([TT.NumberType()]))


@pytest.mark.parametrize("x, text", [
    (1.0, "1.000000e+00"), (-2.5e10, "-2.500000e+10"), (0.1, "1.000000e-01"),
    (1e-7, "9.999990e-08"), (123456789.0, "1.234570e+08"), (0.0, "0.000000e+00"),
    (-0.0, "-0.000000e+00"), (9999999.9, "9.999990e+06"), (5e-324, "4.940660e-324"),
    (1.5e-5, "1.500000e-05"), (1e300, "1.000000e+300"), (0.333333333333, "3.333330e-01"),
    (float("inf"), "Inf"), (float("-inf"), "-Inf"), (float("nan"), "NaN"),
])
def test_float_text_is_apfloats(x, text):
    """The digits torch-mlir's %float<...> names show (APFloat::toString(6, 0, false)),
    as iree-opt prints them (tests/lit/dialects/torch/ops.mlir)."""
    assert td.apfloat_to_string(x) == text


def test_name_hints():
    out = roundtrip("""
func.func @f() {
  %0 = torch.constant.int -3
  %1 = torch.constant.float 2.5
  %2 = torch.constant.device "cuda:0"
  %3 = torch.constant.device "cuda:0"
  %4 = torch.constant.str "x"
  %5 = torch.constant.bool false
  %6 = torch.constant.none
  return
}""")
    for s in ["%int-3 =", "%float2.500000e00 =", "%cuda3A0 =", "%cuda3A0_0 =", "%str =",
              "%false =", "%none ="]:
        assert s in out, out


# ---------------------------------------------------------------- iree-opt is the judge

@needs_iree
@pytest.mark.parametrize("generic", [False, True])
def test_lit_ops_print_as_iree_opt(generic):
    with open(os.path.join(LIT, "ops.mlir")) as f:
        text = f.read()
    same_as_iree(text, generic)


@needs_iree
def test_lit_invalid_diagnostics_are_upstreams():
    path = os.path.join(LIT, "invalid.mlir")
    r = subprocess.run([IREE_OPT, "--split-input-file", "--verify-diagnostics", path],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


PROGRAMS = r'''
import torch
from torch.export import Dim


class Mixed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)
        self.register_buffer("buf", torch.ones(3))

    def forward(self, x, y):
        a = self.lin(x) + self.buf
        b = torch.nn.functional.softmax(a, dim=-1) * 2.5
        v, i = torch.max(a, dim=1)
        z = torch.cat([a, a], dim=1)
        return b, v, i, z[:, ::2], torch.nn.functional.relu(y).mean(), torch.arange(5) * a.size(0)


class InPlace(torch.nn.Module):
    def forward(self, x):
        x = x.clone()
        x.add_(1.0)
        x[0] = 3.0
        return torch.nn.functional.layer_norm(x, (x.shape[-1],)), x.to(torch.float16)


class Conv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        y = torch.nn.functional.max_pool2d(self.conv(x), 2)
        return y.flatten(1), torch.topk(y.flatten(1), 3)


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def programs():
    """(module, example inputs, dynamic shapes[, text the import must contain])."""
    F = torch.nn.functional
    b = Dim("b", min=2, max=64)
    v, idx, img = torch.randn(4, 6), torch.tensor([0, 2, 1]), torch.randn(2, 3, 8, 8)
    yield Mixed().eval(), (torch.randn(2, 4), torch.randn(3, 3)), None
    yield Mixed().eval(), (torch.randn(2, 4), torch.randn(3, 3)), {"x": {0: b}, "y": None}
    yield InPlace(), (torch.randn(3, 4),), None
    yield Conv(), (torch.randn(1, 3, 8, 8),), None
    # Tensor?[] lists, Generator-free randomness, strings, complex and bf16 dtypes,
    # several named results, bit ops on si64, symbolic expressions.
    yield Fn(lambda a, i: (a.index_put((i,), torch.ones(3, 6)), a[:, i])), (v, idx), None
    yield Fn(lambda q: F.scaled_dot_product_attention(q, q, q, is_causal=True)), \
        (torch.randn(1, 2, 4, 8),), None
    yield Fn(lambda a: (torch.sort(a, dim=1, descending=True, stable=True),
                        torch.div(a, 2, rounding_mode="floor"),
                        torch.view_as_complex(a.view(4, 3, 2)).abs(),
                        a.to(torch.bfloat16) * 2)), (v,), None
    yield Fn(lambda a: F.max_pool2d(a, 2, return_indices=True)), (img,), None
    yield Fn(lambda i: (i & 3, i | 1, ~i, i >> 1)), (idx,), None
    yield Fn(lambda a: a * 2 + a.shape[0] + torch.arange(a.shape[0]).view(-1, 1)), (v,), \
        (({0: b},),)
    # torch.prim.Loop around func.call of the loop's graphs.
    from torch._higher_order_ops.while_loop import while_loop
    yield Fn(lambda a: while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2),
                                  (torch.tensor(0), a))), (v,), None, "torch.prim.Loop"
'''


def test_fx_importer_modules_round_trip():
    """Modules that torch-mlir's FX importer builds from real programs (static and
    symbolic shapes, weights, tuples of outputs, functionalized in-place ops) print the
    same in Strata and in iree-opt, custom and generic."""
    torch = pytest.importorskip("torch")
    fx = pytest.importorskip("iree.compiler.extras.fx_importer")
    if IREE_OPT is None:
        pytest.skip("iree-opt is not installed")
    scope: dict = {}
    exec(compile(PROGRAMS, "programs", "exec"), scope)
    for m, args, dyn, *must in scope["programs"]():
        ep = torch.export.export(m, args, dynamic_shapes=dyn).run_decompositions()
        imp = fx.FxImporter()
        imp.import_frozen_program(ep, import_symbolic_shape_expressions=dyn is not None)
        text = str(imp.module)
        # The importer writes as torch.operator exactly the ops torch-mlir lacks.
        for name in re.findall(r'torch\.operator "([^"]+)"', text):
            assert table.has_op(name) and not table.in_torch_mlir(name), name
        for name in re.findall(r" = (torch\.(?:aten|prims)\.[A-Za-z0-9_.]+) ", text):
            assert table.in_torch_mlir(name), name
        assert all(s in text for s in must), must
        if dyn is not None:
            assert "torch.symbolic_int" in text and "torch.bind_symbolic_shape" in text
        same_as_iree(text)
        same_as_iree(text, generic=True)
