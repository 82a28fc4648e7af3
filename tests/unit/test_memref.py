"""memref layout helpers (strides, offsets, view result types) and op builders.

The expected types are the ones iree-opt 3.13 infers and verifies for the same ops
(see tests/lit/dialects/memref/ops.mlir)."""
from __future__ import annotations

import pytest

from strata.dialects import default_context
from strata.dialects import memref as M
from strata.ir import attributes as A
from strata.ir.affine import AffineMap, AffineMapAttr, parse_affine_map_body
from strata.ir.builder import Builder
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

DYN = A.DYNAMIC
f32 = A.f32


def ty(text):
    """A type from its text (through a function argument)."""
    m = parse_source(f"func.func private @f({text})", default_context(), "t.mlir")
    return next(iter(m.regions[0].ops)).type.inputs[0]


@pytest.mark.parametrize("text, want", [
    ("memref<4x8xf32>", ([8, 1], 0)),
    ("memref<?x4x?xf32>", ([DYN, DYN, 1], 0)),
    ("memref<f32>", ([], 0)),
    ("memref<4x8xf32, strided<[16, 2], offset: 3>>", ([16, 2], 3)),
    ("memref<4x?xf32, strided<[?, 1], offset: ?>>", ([DYN, 1], DYN)),
    ("memref<4x8xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>", ([DYN, 1], 0)),
    ("memref<4x8xf32, affine_map<(d0, d1) -> (d0 * 8 + d1 + 5)>>", ([8, 1], 5)),
    ("memref<4x8xf32, affine_map<(d0, d1)[s0] -> (d1 * 4 + d0 + s0)>>", ([1, 4], DYN)),
    ("memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>", None),
    ("memref<4x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>>", None),
])
def test_strides_and_offset(text, want):
    t = ty(text)
    assert M.strides_and_offset(t) == want
    assert M.is_strided(t) == (want is not None)


def test_identity_and_contiguity():
    assert M.is_identity_layout(ty("memref<4xf32, strided<[1]>>"))
    assert not M.is_identity_layout(ty("memref<4x4xf32, strided<[4, 1]>>"))
    assert M.is_contiguous_row_major(ty("memref<4x4xf32, strided<[4, 1]>>"))
    assert M.is_contiguous_row_major(ty("memref<4x1xf32, strided<[1, 7]>>"))
    assert not M.is_contiguous_row_major(ty("memref<4x4xf32, strided<[8, 1]>>"))
    assert not M.is_contiguous_row_major(ty("memref<?x4xf32, strided<[?, 1]>>"))
    assert M.canonical_strides([2, DYN, 3, 4]) == [DYN, 12, 4, 1]
    assert M.num_layout_symbols(ty("memref<4x4xf32, strided<[?, 1], offset: ?>>")) == 2


def test_subview_types():
    src = ty("memref<8x16x4xf32>")
    t = M.subview_type(src, [1, 2, 3], [1, 4, 1], [1, 2, 1])
    assert str(t) == "memref<1x4x1xf32, strided<[64, 8, 1], offset: 75>>"
    r = M.rank_reduced_subview_type([4], src, [1, 2, 3], [1, 4, 1], [1, 2, 1])
    assert str(r) == "memref<4xf32, strided<[8], offset: 75>>"
    s = ty("memref<8x16xf32, strided<[32, 2], offset: 5>>")
    assert str(M.subview_type(s, [1, 1], [2, 2], [2, 3])) == \
        "memref<2x2xf32, strided<[64, 6], offset: 39>>"
    d = ty("memref<?x?xf32>")
    assert str(M.subview_type(d, [DYN, 0], [DYN, 2], [1, 1])) == \
        "memref<?x2xf32, strided<[?, 1], offset: ?>>"


def test_expand_collapse_types():
    s = ty("memref<8x16xf32, strided<[32, 2], offset: 5>>")
    assert str(M.expanded_type(s, [2, 4, 16], [[0, 1], [2]])) == \
        "memref<2x4x16xf32, strided<[128, 32, 2], offset: 5>>"
    assert str(M.expanded_type(ty("memref<16xf32>"), [4, 4], [[0, 1]])) == "memref<4x4xf32>"
    assert str(M.collapsed_type(ty("memref<8x16x4xf32>"), [[0, 1], [2]])) == \
        "memref<128x4xf32>"
    assert str(M.collapsed_type(ty("memref<8x16x4xf32, strided<[64, 4, 1]>>"),
                                [[0, 1, 2]])) == "memref<512xf32, strided<[1]>>"
    assert str(M.collapsed_type(ty("memref<?x2x?xf32, strided<[?, ?, 1], offset: ?>>"),
                                [[0, 1, 2]])) == "memref<?xf32, strided<[?], offset: ?>>"
    # unit dims do not constrain contiguity; a gap does
    assert str(M.collapsed_type(ty("memref<4x1x8xf32, strided<[8, 99, 1]>>"),
                                [[0, 1, 2]])) == "memref<32xf32, strided<[1]>>"
    assert M.collapsed_type(ty("memref<4x8xf32, strided<[16, 1]>>"), [[0, 1]]) is None


def test_transposed_type_and_canonical_layout():
    m = parse_affine_map_body("(d0, d1, d2) -> (d2, d0, d1)")
    t = M.transposed_type(ty("memref<8x16x4xf32>"), m)
    assert str(t) == "memref<4x8x16xf32, strided<[1, 64, 4]>>"
    assert M.canonical_strided_layout(ty("memref<4x4xf32, strided<[4, 1]>>")) is \
        ty("memref<4x4xf32>")
    assert M.canonical_strided_layout(ty("memref<4x?xf32, strided<[?, 1]>>")) is \
        ty("memref<4x?xf32>")
    assert str(M.canonical_strided_layout(ty("memref<4x4xf32, strided<[1, 4]>>"))) == \
        "memref<4x4xf32, affine_map<(d0, d1) -> (d0 + d1 * 4)>>"


def _func_builder(arg_types):
    from strata.dialects.func import FuncOp, ReturnOp
    f = FuncOp.new("f", A.FunctionType(arg_types, []))
    b = Builder()
    b.set_insertion_point_to_end(f.regions[0].blocks[0])
    return f, b, ReturnOp


def test_builders_infer_result_types():
    src_t = ty("memref<8x16xf32>")
    f, b, ret = _func_builder([src_t, A.index])
    src, n = f.regions[0].blocks[0].args
    sv = b.insert(M.SubViewOp.build(
        source=src, offsets=[n], sizes=[], strides=[],
        static_offsets=A.DenseArrayAttr(A.i64, [DYN, 0]),
        static_sizes=A.DenseArrayAttr(A.i64, [2, 4]),
        static_strides=A.DenseArrayAttr(A.i64, [1, 1])))
    assert str(sv.results[0].type) == "memref<2x4xf32, strided<[16, 1], offset: ?>>"
    a = b.insert(M.AllocOp.build(dynamicSizes=[n], result_types=[ty("memref<?x4xf32>")]))
    ld = b.insert(M.LoadOp.build(memref=a.results[0], indices=[n, n]))
    assert ld.results[0].type is f32
    b.insert(M.StoreOp.build(value=ld.results[0], memref=src, indices=[n, n]))
    c = b.insert(M.CollapseShapeOp.build(src=src, reassociation=A.ArrayAttr(
        [A.ArrayAttr([A.IntegerAttr(0, A.i64), A.IntegerAttr(1, A.i64)])])))
    assert str(c.results[0].type) == "memref<128xf32>"
    md = b.insert(M.ExtractStridedMetadataOp.build(source=sv.results[0]))
    assert [str(r.type) for r in md.results] == ["memref<f32>"] + ["index"] * 5
    b.insert(M.DeallocOp.build(memref=a.results[0]))
    b.insert(ret.build(operands_=[]) if hasattr(ret, "build") else ret.create())
    text = print_op(f)
    assert "%base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata" \
        in text
    f.verify() if hasattr(f, "verify") else None


def test_global_builder_prints_as_upstream():
    g = M.GlobalOp.new("w", ty("memref<2xf32>"), A.UnitAttr(), constant=False)
    assert print_op(g).strip() == \
        'memref.global "private" @w : memref<2xf32> = uninitialized'
    e = M.GlobalOp.new("big", ty("memref<1024xf32>"), None, visibility="private")
    assert e.is_external and \
        print_op(e).strip() == 'memref.global "private" @big : memref<1024xf32>'


def test_transpose_parse_error_is_located():
    from strata.ir.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError, match="t.mlir:1:"):
        parse_source("func.func @f(%m: memref<4x4xf32>) { %t = memref.transpose %m (d0, d1) "
                     "-> (d1, d2) : memref<4x4xf32> to memref<4x4xf32> return }",
                     default_context(), "t.mlir")


def test_affine_map_attr_identity_is_dropped():
    t = A.MemRefType([4], f32, AffineMapAttr(AffineMap.identity(1)))
    assert t.layout is None and str(t) == "memref<4xf32>"
