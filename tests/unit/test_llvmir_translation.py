"""llvm dialect -> LLVM IR text (strata/backends/cpu/llvmir.py): the instructions each op
becomes, and every module LLVM itself parses and verifies."""
import pytest

from strata.backends.cpu.llvmir import translate_to_llvmir
from strata.dialects import default_context
from strata.ir.diagnostics import DiagnosticError
from strata.syntax.parser import parse_source

llvm = pytest.importorskip("llvmlite.binding")


def translate(text, check=True):
    m = parse_source(text, default_context())
    ir = translate_to_llvmir(m, triple="", datalayout="")
    if check:
        mod = llvm.parse_assembly(ir)
        mod.verify()
    return ir


def test_header_names_host_target():
    ir = translate_to_llvmir(parse_source("module {}", default_context()))
    assert 'target triple = "' in ir and 'target datalayout = "' in ir
    llvm.parse_assembly(ir).verify()


def test_arithmetic_flags_and_comparisons():
    ir = translate("""
    llvm.func @f(%a: i32, %b: i32, %x: f32, %v: vector<4xf32>) -> i1 {
      %0 = llvm.add %a, %b overflow<nsw, nuw> : i32
      %1 = llvm.sdiv exact %0, %b : i32
      %2 = llvm.or disjoint %1, %a : i32
      %3 = llvm.shl %2, %a overflow<nsw> : i32
      %4 = llvm.fmul %x, %x fastmath<fast> : f32
      %5 = llvm.fadd %4, %x fastmath<nnan, ninf> : f32
      %6 = llvm.fneg %5 : f32
      %7 = llvm.icmp "ult" %3, %a : i32
      %8 = llvm.fcmp "_true" %6, %x : f32
      %9 = llvm.fcmp "oge" %v, %v fastmath<fast> : vector<4xf32>
      %10 = llvm.select %7, %a, %b : i1, i32
      %11 = llvm.and %7, %8 : i1
      llvm.return %11 : i1
    }""")
    for line in ("%t0 = add nuw nsw i32 %arg0, %arg1", "%t1 = sdiv exact i32 %t0, %arg1",
                 "%t2 = or disjoint i32 %t1, %arg0", "%t3 = shl nsw i32 %t2, %arg0",
                 "%t4 = fmul fast float %arg2, %arg2", "%t5 = fadd nnan ninf float %t4, %arg2",
                 "%t6 = fneg float %t5", "%t7 = icmp ult i32 %t3, %arg0",
                 "%t8 = fcmp true float %t6, %arg2",
                 "%t9 = fcmp fast oge <4 x float> %arg3, %arg3",
                 "%t10 = select i1 %t7, i32 %arg0, i32 %arg1"):
        assert line in ir, line


def test_casts_and_constants_inline():
    ir = translate("""
    llvm.func @f(%a: i32, %p: !llvm.ptr) -> f64 {
      %c = llvm.mlir.constant(-3 : i32) : i32
      %h = llvm.mlir.constant(1.5 : f16) : f16
      %0 = llvm.add %a, %c : i32
      %1 = llvm.zext nneg %0 : i32 to i64
      %2 = llvm.trunc %1 overflow<nuw> : i64 to i16
      %3 = llvm.uitofp nneg %2 : i16 to f32
      %4 = llvm.fpext %3 fastmath<fast> : f32 to f64
      %5 = llvm.ptrtoint %p : !llvm.ptr to i64
      %6 = llvm.inttoptr %5 : i64 to !llvm.ptr
      %7 = llvm.fpext %h : f16 to f64
      %8 = llvm.fadd %4, %7 : f64
      llvm.return %8 : f64
    }""")
    assert "%t0 = add i32 %arg0, -3" in ir
    assert "%t1 = zext nneg i32 %t0 to i64" in ir
    assert "%t2 = trunc nuw i64 %t1 to i16" in ir
    assert "%t3 = uitofp nneg i16 %t2 to float" in ir
    assert "%t4 = fpext fast float %t3 to double" in ir
    assert "fpext half 0xH3E00 to double" in ir
    assert "llvm.mlir" not in ir


def test_blocks_become_phis():
    ir = translate("""
    llvm.func @count(%n: i64) -> i64 {
      %c0 = llvm.mlir.constant(0 : i64) : i64
      %c1 = llvm.mlir.constant(1 : i64) : i64
      llvm.br ^head(%c0 : i64)
    ^head(%i: i64):
      %lt = llvm.icmp "slt" %i, %n : i64
      llvm.cond_br %lt, ^body, ^exit(%i : i64)
    ^body:
      %j = llvm.add %i, %c1 : i64
      llvm.br ^head(%j : i64)
    ^exit(%r: i64):
      llvm.switch %r : i64, ^done(%r : i64) [
        7: ^seven,
        9: ^unreachable
      ]
    ^unreachable:
      llvm.unreachable
    ^seven:
      llvm.br ^done(%c0 : i64)
    ^done(%z: i64):
      llvm.return %z : i64
    }""")
    assert "%t0 = phi i64 [ 0, %bb0 ], [ %t2, %bb2 ]" in ir
    assert "br i1 %t1, label %bb2, label %bb3" in ir
    assert "switch i64 %t3, label %bb6 [ i64 7, label %bb5 i64 9, label %bb4 ]" in ir
    assert "%t4 = phi i64 [ %t3, %bb3 ], [ 0, %bb5 ]" in ir


def test_memory_ops():
    ir = translate("""
    llvm.func @f(%p: !llvm.ptr, %i: i64, %n: i32) -> f32 {
      %a = llvm.alloca %n x f32 {alignment = 16 : i64} : (i32) -> !llvm.ptr
      %g = llvm.getelementptr inbounds|nuw %p[%i, 2, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32, array<4 x f32>)>
      %v = llvm.load volatile %g <alignment = 4, nontemporal> : !llvm.ptr -> f32
      llvm.store %v, %a <alignment = 16> : f32, !llvm.ptr
      %w = llvm.load %a atomic acquire <alignment = 4> : !llvm.ptr -> f32
      llvm.store %w, %g atomic syncscope("singlethread") release <alignment = 4> : f32, !llvm.ptr
      llvm.return %w : f32
    }""")
    assert "%t0 = alloca float, i32 %arg2, align 16" in ir
    assert ("%t1 = getelementptr inbounds nuw { i32, float, [4 x float] }, ptr %arg0, "
            "i64 %arg1, i32 2, i64 1") in ir
    assert "%t2 = load volatile float, ptr %t1, align 4, !nontemporal !0" in ir
    assert "!0 = !{i32 1}" in ir
    assert "store float %t2, ptr %t0, align 16" in ir
    assert "%t3 = load atomic float, ptr %t0 acquire, align 4" in ir
    assert 'store atomic float %t3, ptr %t1 syncscope("singlethread") release, align 4' in ir


def test_aggregates_and_vectors():
    ir = translate("""
    llvm.func @f(%x: f32, %v: vector<4xf32>, %i: i32) -> !llvm.struct<(f32, vector<4xf32>)> {
      %u = llvm.mlir.undef : !llvm.struct<(f32, vector<4xf32>)>
      %s0 = llvm.insertvalue %x, %u[0] : !llvm.struct<(f32, vector<4xf32>)>
      %e = llvm.extractelement %v[%i : i32] : vector<4xf32>
      %w = llvm.insertelement %e, %v[%i : i32] : vector<4xf32>
      %sh = llvm.shufflevector %w, %v [0, 5, -1, 3] : vector<4xf32>
      %s1 = llvm.insertvalue %sh, %s0[1] : !llvm.struct<(f32, vector<4xf32>)>
      %y = llvm.extractvalue %s1[0] : !llvm.struct<(f32, vector<4xf32>)>
      %c = llvm.mlir.constant(dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>) : vector<4xf32>
      %z = llvm.fmul %sh, %c : vector<4xf32>
      %s2 = llvm.insertvalue %z, %s1[1] : !llvm.struct<(f32, vector<4xf32>)>
      llvm.return %s2 : !llvm.struct<(f32, vector<4xf32>)>
    }""")
    assert "%t0 = insertvalue { float, <4 x float> } undef, float %arg0, 0" in ir
    assert "%t1 = extractelement <4 x float> %arg1, i32 %arg2" in ir
    assert "%t2 = insertelement <4 x float> %arg1, float %t1, i32 %arg2" in ir
    assert ("shufflevector <4 x float> %t2, <4 x float> %arg1, <4 x i32> "
            "<i32 0, i32 5, i32 poison, i32 3>") in ir
    # %y reads back what %s0 put there: forwarded, not printed.
    assert "extractvalue" not in ir
    assert "<float 0x3FF0000000000000, float 0x4000000000000000" in ir


def test_aggregate_forwarding():
    """Extracts read from the insertvalue that set the element; insertvalues only read
    that way are left out; a partly overwritten element is read where it was."""
    ir = translate("""
    llvm.func @g(!llvm.ptr, i64, !llvm.ptr)
    llvm.func @f(%p: !llvm.ptr, %n: i64, %d: !llvm.struct<(ptr, array<2 x i64>)>) -> i64 {
      %u = llvm.mlir.poison : !llvm.struct<(ptr, array<2 x i64>)>
      %s0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, array<2 x i64>)>
      %s1 = llvm.insertvalue %n, %s0[1, 0] : !llvm.struct<(ptr, array<2 x i64>)>
      %s2 = llvm.insertvalue %n, %s1[1, 1] : !llvm.struct<(ptr, array<2 x i64>)>
      %a = llvm.extractvalue %s2[0] : !llvm.struct<(ptr, array<2 x i64>)>
      %b = llvm.extractvalue %s2[1, 1] : !llvm.struct<(ptr, array<2 x i64>)>
      llvm.call @g(%a, %b, %a) : (!llvm.ptr, i64, !llvm.ptr) -> ()
      %d1 = llvm.insertvalue %n, %d[1, 0] : !llvm.struct<(ptr, array<2 x i64>)>
      %arr = llvm.extractvalue %d1[1] : !llvm.struct<(ptr, array<2 x i64>)>
      %q = llvm.extractvalue %d1[0] : !llvm.struct<(ptr, array<2 x i64>)>
      %m = llvm.extractvalue %arr[1] : !llvm.array<2 x i64>
      llvm.call @g(%q, %m, %q) : (!llvm.ptr, i64, !llvm.ptr) -> ()
      llvm.return %m : i64
    }""")
    body = ir.split("@f(", 1)[1]
    assert "call void @g(ptr %arg0, i64 %arg1, ptr %arg0)" in body
    # %s0..%s2 are dead once %a and %b are forwarded.
    assert "poison" not in body
    # [1] was partly overwritten: %arr stays, reading %d1; %q reads %d directly.
    assert "insertvalue { ptr, [2 x i64] } %arg2, i64 %arg1, 1, 0" in body
    assert "extractvalue { ptr, [2 x i64] } %arg2, 0" in body
    assert ", 1\n" in body  # %arr = extractvalue %d1, 1


def test_calls():
    ir = translate("""
    llvm.func @printf(!llvm.ptr, ...) -> i32
    llvm.func @g(i32) -> i32
    llvm.func internal fastcc @h(%a: i32) -> i32 {
      llvm.return %a : i32
    }
    llvm.func @f(%p: !llvm.ptr, %fp: !llvm.ptr, %x: f32) -> i32 {
      %a = llvm.call @printf(%p, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f32) -> i32
      %b = llvm.call tail @g(%a) : (i32) -> i32
      %c = llvm.call %fp(%b) : !llvm.ptr, (i32) -> i32
      %d = llvm.call fastcc @h(%c) : (i32) -> i32
      llvm.return %d : i32
    }""")
    assert "declare i32 @printf(ptr, ...)" in ir
    assert "define internal fastcc i32 @h(i32 %arg0)" in ir
    assert "%t0 = call i32 (ptr, ...) @printf(ptr %arg0, float %arg2)" in ir
    assert "%t1 = tail call i32 @g(i32 %t0)" in ir
    assert "%t2 = call i32 %arg1(i32 %t1)" in ir
    assert "%t3 = call fastcc i32 @h(i32 %t2)" in ir


def test_function_and_argument_attributes():
    ir = translate("""
    llvm.func @f(%p: !llvm.ptr {llvm.noalias, llvm.align = 64 : i64, llvm.nonnull},
                 %q: !llvm.ptr {llvm.readonly, llvm.nocapture}) -> (i32 {llvm.signext})
        attributes {passthrough = ["nounwind", ["frame-pointer", "all"]], no_inline,
                    llvm.emit_c_interface} {
      %c = llvm.mlir.constant(0 : i32) : i32
      llvm.return %c : i32
    }""")
    assert ('define signext i32 @f(ptr align 64 noalias nonnull %arg0, ptr captures(none) '
            'readonly %arg1) noinline nounwind "frame-pointer"="all" {') in ir


def test_globals():
    ir = translate("""
    llvm.mlir.global internal constant @small(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<3 x i32>
    llvm.mlir.global private constant @big(dense<1.0> : tensor<32xf32>) {addr_space = 0 : i32} : !llvm.array<32 x f32>
    llvm.mlir.global internal @zeros(dense<0.0> : tensor<64xf32>) {addr_space = 0 : i32} : !llvm.array<64 x f32>
    llvm.mlir.global private constant @str("hi\\00") {addr_space = 0 : i32}
    llvm.mlir.global external @weights() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<8 x f32>
    llvm.mlir.global internal @scalar(2.5 : f64) {addr_space = 0 : i32} : f64
    llvm.mlir.global internal constant @agg() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {
      %0 = llvm.mlir.undef : !llvm.struct<(i32, ptr)>
      %1 = llvm.mlir.constant(7 : i32) : i32
      %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, ptr)>
      %3 = llvm.mlir.addressof @scalar : !llvm.ptr
      %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<(i32, ptr)>
      llvm.return %4 : !llvm.struct<(i32, ptr)>
    }
    llvm.func @f() -> !llvm.ptr {
      %p = llvm.mlir.addressof @weights : !llvm.ptr
      llvm.return %p : !llvm.ptr
    }""")
    assert "@small = internal constant [3 x i32] [i32 1, i32 2, i32 3], align 16" in ir
    assert '@big = private constant [128 x i8] c"\\00\\00\\80\\3f' in ir
    assert "@zeros = internal global [64 x float] zeroinitializer" in ir
    assert '@str = private constant [3 x i8] c"\\68\\69\\00"' in ir
    assert "@weights = external global [8 x float], align 64" in ir
    assert "@scalar = internal global double 0x4004000000000000" in ir
    assert "@agg = internal constant { i32, ptr } { i32 7, ptr @scalar }" in ir
    assert "ret ptr @weights" in ir


def test_dense_resource_global():
    ir = translate("""
    llvm.mlir.global internal constant @r(dense_resource<tr_blob> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
    {-#
      dialect_resources: {
        builtin: {
          tr_blob: "0x040000000000803F00000040"
        }
      }
    #-}""")
    assert '@r = internal constant [8 x i8] c"\\00\\00\\80\\3f\\00\\00\\00\\40"' in ir


def test_identified_structs_get_type_definitions():
    ir = translate("""
    llvm.func @f(%p: !llvm.ptr) -> i32 {
      %g = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"pair", (i64, i32)>
      %v = llvm.load %g : !llvm.ptr -> i32
      llvm.return %v : i32
    }""")
    assert "%pair = type { i64, i32 }" in ir
    assert "getelementptr %pair, ptr %arg0, i64 0, i32 1" in ir


def test_intrinsics_are_declared_with_mangled_names():
    ir = translate("""
    llvm.func @f(%x: f32, %v: vector<4xf32>, %a: i32, %p: !llvm.ptr, %n: i64) -> f32 {
      %0 = llvm.intr.sqrt(%x) fastmath<fast> : (f32) -> f32
      %1 = llvm.intr.fma(%v, %v, %v) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
      %2 = llvm.intr.vector.reduce.fadd(%0, %1) fastmath<reassoc> : (f32, vector<4xf32>) -> f32
      %3 = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
      %4 = llvm.intr.powi(%2, %3) : (f32, i32) -> f32
      "llvm.intr.memcpy"(%p, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
      %z = llvm.mlir.constant(0 : i8) : i8
      "llvm.intr.memset"(%p, %z, %n) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
      %5 = "llvm.intr.is.fpclass"(%4) <{bit = 3 : i32}> : (f32) -> i1
      %6 = llvm.intr.smax(%a, %3) : (i32, i32) -> i32
      %7 = llvm.intr.lround(%4) : (f32) -> i64
      llvm.return %4 : f32
    }""")
    assert "%t0 = call fast float @llvm.sqrt.f32(float %arg0)" in ir
    assert "declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)" in ir
    assert "call reassoc float @llvm.vector.reduce.fadd.v4f32(float %t0, <4 x float> %t1)" in ir
    assert "call i32 @llvm.ctlz.i32(i32 %arg2, i1 false)" in ir
    assert "call float @llvm.powi.f32.i32(float %t2, i32 %t3)" in ir
    assert "call void @llvm.memcpy.p0.p0.i64(ptr %arg3, ptr %arg3, i64 %arg4, i1 false)" in ir
    assert "call void @llvm.memset.p0.i64(ptr %arg3, i8 0, i64 %arg4, i1 true)" in ir
    assert "call i1 @llvm.is.fpclass.f32(float %t4, i32 3)" in ir
    assert "call i64 @llvm.lround.i64.f32(float %t4)" in ir


def test_unsupported_op_is_a_located_error():
    m = parse_source("""
    llvm.func @f() {
      llvm.return
    }
    func.func @g() {
      return
    }""", default_context(), "in.mlir")
    with pytest.raises(DiagnosticError) as e:
        translate_to_llvmir(m, triple="", datalayout="")
    assert "in.mlir:5:5: error: 'func.func' op cannot be translated to LLVM IR" in str(e.value)


def test_translate_tool(tmp_path, capsys):
    from strata.tools.translate import main
    f = tmp_path / "m.mlir"
    f.write_text("module attributes {llvm.target_triple = \"x86_64-unknown-linux-gnu\"} {\n"
                 "  llvm.func @id(%a: i64) -> i64 {\n    llvm.return %a : i64\n  }\n}\n")
    assert main(["--mlir-to-llvmir", str(f)]) == 0
    out = capsys.readouterr().out
    assert 'target triple = "x86_64-unknown-linux-gnu"' in out
    assert "define i64 @id(i64 %arg0) {" in out
    f.write_text("llvm.func @bad() {\n  llvm.return %x : i64\n}\n")
    assert main(["--mlir-to-llvmir", str(f)]) == 1
    assert "error: use of undeclared SSA value name" in capsys.readouterr().err
