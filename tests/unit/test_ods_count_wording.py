"""The count checks of declared operands and results speak as upstream's traits do
(ZeroOperands, OneOperand, NOperands, ZeroResults, OneResult, NResults), so that
`--verify-diagnostics` tests written against mlir-opt match word for word."""
import pytest

from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.ir.verifier import verify
from strata.syntax.parser import parse_source

CTX = default_context()


@pytest.mark.parametrize("body,message", [
    ('%0 = "arith.addi"(%x) : (i32) -> i32', "'arith.addi' op expected 2 operands, but found 1"),
    ('%0:2 = "arith.addi"(%x, %x) : (i32, i32) -> (i32, i32)', "'arith.addi' op requires one result"),
    ('%0 = "memref.dealloc"(%p) : (memref<i32>) -> i32', "'memref.dealloc' op requires zero results"),
    ('"math.absf"(%f, %f) : (f32, f32) -> f32', "'math.absf' op requires a single operand"),
    ('"arith.constant"(%x) <{value = 1 : i32}> : (i32) -> i32', "'arith.constant' op requires zero operands"),
    ('%0 = "memref.store"(%x, %p) : (i32, memref<i32>) -> i32', "'memref.store' op requires zero results"),
])
def test_count_messages_use_the_trait_wording(body, message):
    text = ("func.func @f(%x: i32, %p: memref<i32>, %f: f32) {\n  " + body +
            "\n  return\n}\n")
    with pytest.raises(DiagnosticError) as e:
        verify(parse_source(text, CTX))
    assert message in str(e.value)


@pytest.mark.parametrize("body,message", [
    # the count traits come before the properties (a missing `value`, `predicate`,
    # `kernel` or segment sizes is not what is reported), results before operands
    ('"arith.constant"(%x) : (i32) -> i32', "'arith.constant' op requires zero operands"),
    ('%0 = "arith.cmpi"(%x) : (i32) -> i1', "'arith.cmpi' op expected 2 operands, but found 1"),
    ('%0:2 = "arith.addi"(%x) : (i32) -> (i32, i32)', "'arith.addi' op requires one result"),
    ('"gpu.launch_func"(%sz, %sz, %sz, %sz, %sz) : (index, index, index, index, index) -> ()',
     "'gpu.launch_func' op expected 6 or more operands, but found 5"),
])
def test_count_traits_come_before_properties(body, message):
    text = ("func.func @f(%x: i32, %sz: index) {\n  " + body + "\n  return\n}\n")
    with pytest.raises(DiagnosticError) as e:
        verify(parse_source(text, CTX))
    assert message in str(e.value)


def test_absent_segment_sizes_read_as_zeros():
    # upstream keeps segment sizes in the properties: a generic op without them holds
    # zeros, verifies when it has no operands, and prints them
    from strata.syntax.printer import PrintOptions, print_op
    m = parse_source('func.func @f() {\n  %0 = "memref.alloc"() : () -> memref<2xf32>\n'
                     '  return\n}\n', CTX)
    verify(m)
    assert "operandSegmentSizes = array<i32: 0, 0>" in print_op(m, PrintOptions(generic=True))
