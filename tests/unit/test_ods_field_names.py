"""Op definitions (strata/ir/ods.py) refuse a field that would hide a member of `Operation`
or `Op` (see [Note: field names]): the class statement fails, naming the op and the field.
The dialects' renamed fields (`operand_`, `result_`) keep the printed IR upstream's."""
import pytest

from strata.dialects import default_context
from strata.ir import attributes as A
from strata.ir.constraints import AnyType
from strata.ir.core import Operation
from strata.ir.ods import (Op, Operand, Prop, RegionDef, Result, Successor, VarOperand,
                           VarResult)
from strata.syntax.parser import parse_source
from strata.syntax.printer import PrintOptions, print_op

CTX = default_context()


def _define(**fields):
    return type("BadOp", (Op,), {"__slots__": (), "name": "test.bad", **fields})


@pytest.mark.parametrize("field,decl,member", [
    ("operand", Operand(), "method Operation.operand"),         # the math ops' old bug
    ("operands", VarOperand(), "property Operation.operands"),
    ("result", VarResult(), "property Operation.result"),      # a list, not one value
    ("result", Operand(), "property Operation.result"),        # memref.atomic_yield's
    ("regions", RegionDef(), "slot Operation.regions"),
    ("successors", Successor(), "slot Operation.successors"),
    ("loc", Operand(), "slot Operation.loc"),
    ("parent", Operand(), "slot Operation.parent"),
    ("verify", Operand(), "method Operation.verify"),
    ("walk", Result(), "method Operation.walk"),
    ("build", Operand(), "method Op.build"),
    ("value_of", Operand(), "method Op.value_of"),
    ("name", Prop(), "class attribute Op.name"),
    ("traits", Prop(), "class attribute Op.traits"),
    ("attributes", Prop(), "property Operation.attributes"),
    ("_segment", Operand(), "method Op._segment"),
])
def test_a_field_hiding_the_base_api_is_refused(field, decl, member):
    with pytest.raises(TypeError) as e:
        _define(**{field: decl})
    msg = str(e.value)
    assert "BadOp" in msg and f"'{field}'" in msg, msg
    if field != "name":  # (a `name` field replaces the op's name itself)
        assert "'test.bad'" in msg, msg
    assert member in msg, msg
    assert "[Note: field names]" in msg


def test_the_error_names_the_fix():
    with pytest.raises(TypeError, match=r"name the field 'operand_'"):
        _define(operand=Operand())
    with pytest.raises(TypeError, match=r"`name_ = Prop\(\.\.\., key='name'\)`"):
        _define(name=Prop())


def test_an_inherited_field_is_checked_on_the_base_that_declares_it():
    with pytest.raises(TypeError, match=r"\._Unary: operand 'operand' hides"):
        class _Unary(Op):
            __slots__ = ()
            operand = Operand()


def test_a_subclass_member_hiding_an_inherited_field_is_refused():
    class _Base(Op):
        __slots__ = ()
        input = Operand()
    with pytest.raises(TypeError, match=r"_Sub.input hides the operand 'input' it inherits"):
        class _Sub(_Base):
            __slots__ = ()
            name = "test.sub"

            @property
            def input(self):
                return None
    class _Again(_Base):  # declaring the field anew is fine
        __slots__ = ()
        name = "test.again"
        input = Operand()
    assert [d.name for d in _Again._operand_defs] == ["input"]


def test_a_single_result_named_result_stays():
    # The one exception: the op's only result, single, returns what Operation.result does.
    cls = _define(x=Operand(), result=Result())
    assert cls._result_defs[0].name == "result"
    with pytest.raises(TypeError, match="result 'result' hides"):
        _define(x=Operand(), result=Result(), other=Result())


def test_renamed_fields_work_and_a_property_keeps_its_ir_name():
    cls = type("NamedOp", (Op,), {
        "__slots__": (), "name": "test.named", "operand_": Operand(AnyType),
        "name_": Prop(key="name"), "result_": VarResult()})
    x = _arg(A.f32)
    op = cls.build(operand_=x, name=A.StringAttr("n"), result_=[A.f32, A.i32])
    assert op.operand_ is x and op.operand(0) is x
    assert op.name_ == A.StringAttr("n") and op.properties == {"name": A.StringAttr("n")}
    assert op.name == "test.named"
    assert op.result_ == list(op.results) and len(op.results) == 2


def _arg(t):
    from strata.ir.core import Block
    return Block([t]).args[0]


def test_no_registered_op_hides_the_base_api():
    # Every dialect loaded: each op class passed the check when defined; its declared
    # operands, results, regions and successors leave Operation's members visible.
    api = set(dir(Op)) | set(Operation.__slots__)
    classes = [c for c in CTX.ops.values() if issubclass(c, Op)]
    assert len(classes) > 500
    for cls in classes:
        for defs in (cls._operand_defs, cls._result_defs, cls._region_defs,
                     cls._successor_defs):
            for f in defs:
                if f.name in api:
                    assert f.name == "result" and cls._result_defs == (f,) and \
                        f.kind == 0, (cls.name, f.name)
        for f in cls._prop_defs:
            assert getattr(cls, "name") == cls.name  # no property hides the op's name
    assert CTX.ops["math.tanh"].operand is Operation.operand
    assert CTX.ops["memref.atomic_yield"].result is Operation.result


FUNC = """func.func @f(%arg0: f32, %arg1: i32, %arg2: memref<4xf32>, %arg3: tensor<4xf32>) {
  %0 = math.tanh %arg0 : f32
  %1 = math.absf %arg0 fastmath<fast> : f32
  %2 = math.ctpop %arg1 : i32
  %3 = math.isnan %arg0 : f32
  %sin, %cos = math.sincos %arg0 : f32
  %4 = arith.negf %arg0 : f32
  %5 = memref.generic_atomic_rmw %arg2[%c0] : memref<4xf32> {
  ^bb0(%arg4: f32):
    memref.atomic_yield %arg4 : f32
  }
  %mapped = linalg.map { math.tanh } ins(%arg3 : tensor<4xf32>) outs(%arg3 : tensor<4xf32>)
  return
}"""


def test_renamed_fields_print_as_upstream():
    src = FUNC.replace("{\n  %0", "{\n  %c0 = arith.constant 0 : index\n  %0", 1)
    m = parse_source(src, CTX, "t.mlir")
    m.verify()
    assert print_op(m) == "module {\n" + "\n".join(
        "  " + l for l in src.splitlines()) + "\n}\n"
    generic = print_op(m, PrintOptions(generic=True))
    for line in ['%1 = "math.tanh"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32',
                 '%5:2 = "math.sincos"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) '
                 '-> (f32, f32)',
                 '"memref.atomic_yield"(%arg6) : (f32) -> ()']:
        assert line in generic, generic
    tanh = next(o for o in m.walk() if o.name == "math.tanh")
    assert tanh.operand(0) is tanh.operands[0] is tanh.operand_
    yld = next(o for o in m.walk() if o.name == "memref.atomic_yield")
    assert yld.result_ is yld.operand(0) and yld.results == ()
    mp = next(o for o in m.walk() if o.name == "linalg.map")
    assert mp.result is mp.results[0] and mp.result_ == [mp.results[0]]
