"""The llvm dialect where text cannot reach: type objects, builders, sizes, aliases."""
import pytest

from strata.dialects import default_context
from strata.dialects import llvm as L
from strata.ir import attributes as A
from strata.ir.core import Block, Operation
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op


def roundtrip(text):
    m = parse_source(text, default_context())
    out = print_op(m)
    assert print_op(parse_source(out, default_context())) == out
    return m, out


def parse_type(text):
    m = parse_source(f"llvm.func @f({text})", default_context())
    return m.regions[0].blocks[0].first.type.params[0]


def test_types_are_uniqued_and_print_nested_without_prefix():
    desc = L.struct(L.ptr, L.ptr, A.i64, L.array(2, A.i64), L.array(2, A.i64))
    assert desc is parse_type("!llvm.struct<(ptr, !llvm.ptr, i64, array<2 x i64>, "
                              "!llvm.array<2 x i64>)>")
    assert str(desc) == "!llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>"
    assert str(L.LLVMPointerType(3)) == "!llvm.ptr<3>"
    assert parse_type("!llvm.ptr<0>") is L.ptr
    assert str(L.LLVMFunctionType(L.void, [L.ptr, A.i32], vararg=True)) == \
        "!llvm.func<void (ptr, i32, ...)>"
    assert str(L.LLVMStructType(None, name="opaque_t")) == '!llvm.struct<"opaque_t", opaque>'
    assert str(L.LLVMStructType([A.i8, A.i32], packed=True, name="p q")) == \
        '!llvm.struct<"p q", packed (i8, i32)>'


def test_opaque_struct_and_simple_types_round_trip():
    _, out = roundtrip('llvm.func @f(%t: !llvm.token, %p: !llvm.ptr) {\n'
                       '  %0 = llvm.load %p : !llvm.ptr -> !llvm.struct<"s", opaque>\n'
                       '  llvm.return\n}')
    assert '!llvm.struct<"s", opaque>' in out and "!llvm.token" in out


def test_type_errors():
    with pytest.raises(DiagnosticError, match="unknown LLVM type: vec"):
        parse_type("!llvm.vec<4 x f32>")
    with pytest.raises(DiagnosticError, match="expected 'x'"):
        parse_type("!llvm.array<4xi32>")
    with pytest.raises(DiagnosticError, match="invalid function argument type"):
        parse_type("!llvm.func<void (void)>")


def test_sizes_and_alignments():
    desc = L.struct(L.ptr, L.ptr, A.i64, L.array(3, A.i64), L.array(3, A.i64))
    assert L.type_size_align(desc) == (72, 8)
    assert L.type_size_align(L.struct(A.i8, A.i32)) == (8, 4)
    assert L.type_size_align(L.struct(A.i8, A.i32, packed=True)) == (5, 1)
    assert L.type_size_align(A.VectorType([8], A.f32)) == (32, 32)


def test_builders_make_valid_ops():
    ctx = default_context()
    m = parse_source("module {}", ctx)
    body = m.regions[0].blocks[0]
    ft = L.LLVMFunctionType(A.f32, [L.ptr, A.i64])
    ext = L.FuncOp.new("ext", L.LLVMFunctionType(A.f32, [A.f32]), body=False)
    g = L.GlobalOp.new("w", L.array(4, A.f32), alignment=64)
    f = L.FuncOp.new("f", ft, attributes={"llvm.emit_c_interface": A.UnitAttr()})
    for op in (ext, g, f):
        body.append(op)
    entry = f.regions[0].blocks[0]
    p, i = entry.args
    gep = L.GEPOp.new(p, [i], A.f32, flags=3)
    entry.append(gep)
    load = L.LoadOp.new(gep.results[0], A.f32, alignment=4)
    entry.append(load)
    call = L.CallOp.new("ext", [load.results[0]], A.f32)
    entry.append(call)
    addr = L.AddressOfOp.build(global_name=A.SymbolRefAttr("w"), res=L.ptr)
    entry.append(addr)
    entry.append(L.StoreOp.new(call.results[0], addr.results[0]))
    entry.append(L.ReturnOp.build(arg=call.results[0]))
    m.verify()
    text = print_op(m)
    assert "llvm.func @ext(f32) -> f32" in text
    assert "llvm.mlir.global external @w() {addr_space = 0 : i32, alignment = 64 : i64} : " \
        "!llvm.array<4 x f32>" in text
    assert "llvm.getelementptr inbounds %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32" \
        in text
    assert "llvm.load %0 <alignment = 4> : !llvm.ptr -> f32" in text
    assert "llvm.call @ext(%1) : (f32) -> f32" in text
    assert "attributes {llvm.emit_c_interface}" in text
    assert gep.indices == [i]
    assert call.call_arg_operands() == [load.results[0]] and not call.is_indirect
    assert f.type is ft and not f.is_declaration and ext.is_declaration
    roundtrip(text)


def test_defaults_are_materialized_in_the_generic_form():
    m = parse_source("llvm.func @f(%a: i32) -> i32 {\n  %0 = llvm.add %a, %a : i32\n"
                     "  llvm.return %0 : i32\n}", default_context())
    from strata.syntax.printer import PrintOptions
    g = print_op(m, PrintOptions(generic=True))
    assert "CConv = #llvm.cconv<ccc>" in g and "linkage = #llvm.linkage<external>" in g
    assert '"llvm.add"(%arg0, %arg0) <{overflowFlags = 0 : i32}>' in g
    add = m.regions[0].blocks[0].first.regions[0].blocks[0].first
    assert "overflowFlags" not in add.properties  # a default is not stored


def test_unknown_llvm_attributes_are_kept_and_loop_annotations_aliased():
    text = ("llvm.func @f(%c: i1) attributes {frame_pointer = #llvm.framePointerKind<all>} {\n"
            "  llvm.cond_br %c, ^bb1, ^bb2 {llvm.loop_annotation = "
            "#llvm.loop_annotation<disableNonforced = true>}\n^bb1:\n  llvm.return\n"
            "^bb2:\n  llvm.return\n}")
    _, out = roundtrip(text)
    assert out.startswith("#loop_annotation = #llvm.loop_annotation<disableNonforced = true>")
    assert "frame_pointer = #llvm.framePointerKind<all>" in out
    assert "{llvm.loop_annotation = #loop_annotation}" in out


def test_upstream_operand_names_do_not_shadow_operation_methods():
    for cls in default_context().dialects["llvm"].ops.values():
        for d in cls._operand_defs + cls._result_defs + cls._prop_defs:
            assert not hasattr(Operation, d.name), (cls.name, d.name)
    assert Block  # (imported for the builders above)


def test_aggregate_compatibility_asked_again_gives_the_same_answer():
    # is_compatible_type remembers its answer per (uniqued) aggregate type: a struct
    # or array holding a signed integer is not compatible, however often it is asked,
    # and one holding only LLVM types is
    from strata.dialects.llvm import types as LT
    si32 = A.IntegerType(32, signedness=1)
    ok = LT.LLVMStructType([LT.ptr, A.i64, LT.LLVMArrayType(2, A.i64)])
    for _ in range(3):
        assert LT.is_compatible_type(ok)
        assert LT.is_compatible_type(LT.LLVMArrayType(4, ok))
    bad = LT.LLVMStructType([LT.ptr, LT.LLVMArrayType(2, si32)])
    for _ in range(3):
        assert not LT.is_compatible_type(bad)
        assert not LT.is_compatible_type(LT.LLVMArrayType(3, bad))
        assert LT.is_compatible_type(LT.LLVMStructType(None, name="opaque_s"))
