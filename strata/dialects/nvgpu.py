"""The nvgpu dialect: NVIDIA tensor core operations on memrefs and vectors, as upstream
MLIR prints them; the level between the gpu dialect and nvvm where a warp's matrix
fragments are values (vectors of registers), so the reference interpreter runs them
with their real per-lane layouts (interpreter/ops_nvgpu.py) and convert-gpu-to-nvvm
lowers them to `nvvm.ldmatrix` / `nvvm.mma.sync`.

    %a = nvgpu.ldmatrix %sm[%row, %col] numTiles = 4 transpose = false
        : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16]
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %e = nvgpu.mma.sync(%at, %bt, %c) mmaShape = [16, 8, 8] tf32Enabled
        : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>

A fragment vector<R x E x T> is R registers of E elements each, in the PTX ISA's order
(register r holds elements E*r ... E*r + E - 1 of the fragment `a0, a1, ...`).
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir.context import Dialect
from ..ir.ods import Op, Operand, OptProp, Prop, Result, VarOperand
from ..syntax.asm_format import BareInt, UnitKeyword, install_format

__all__ = ["NVGPU", "MMA_SHAPES"]


def _memref():
    return C.Constraint(lambda t: type(t) is A.MemRefType, "memref of any type values")


def _vector():
    return C.Constraint(lambda t: type(t) is A.VectorType, "vector of any type values")


class LdMatrixOp(Op):
    """`nvgpu.ldmatrix %sm[%i, %j] numTiles = 4 transpose = false : memref<..., 3> ->
    vector<4x2xf16>`: `numTiles` 8x8 matrices of 16-bit elements from shared memory
    into a warp's registers; each of the first 8 * numTiles lanes gives the address of
    one row (lanes 8j ... 8j + 7: the rows of matrix j)."""

    name = "nvgpu.ldmatrix"
    srcMemref = Operand(_memref())
    indices = VarOperand(C.Index)
    numTiles = Prop(C.I32Attr, fmt=BareInt(A.i32))
    transpose = Prop(C.BoolAttrC)
    res = Result(_vector())
    assembly = ("$srcMemref `[` $indices `]` `numTiles` `=` $numTiles `transpose` `=` "
                "$transpose attr-dict `:` type($srcMemref) `->` type($res)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index

    def verify_(self):
        t = self.srcMemref.type
        n = self._props["numTiles"].value
        from .gpu import address_space_of
        if address_space_of(t) != "workgroup":
            # (upstream's emitError: no "'nvgpu.ldmatrix' op" prefix)
            from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
            d = Diagnostic(ERROR, self.loc, "expected nvgpu.ldmatrix srcMemref must have a "
                           "memory space attribute of IntegerAttr(3) or "
                           "gpu::AddressSpaceAttr(Workgroup)")
            d.op = self
            raise DiagnosticError(d)
        if len(self.indices) != len(t.shape):
            return f"expected {len(t.shape)} indices, got {len(self.indices)}"
        et = t.element_type
        width = getattr(et, "width", None)
        if width != 16:
            return "expected element type of the source memref to be 16 bits wide"
        rt = self.res.type
        if n not in (1, 2, 4):
            return "expected numTiles to be 1, 2 or 4"
        if tuple(rt.shape) != (n, 2) or rt.element_type is not et:
            return (f"expected vector type for result to be vector<{n}x2x{et}>")
        return None


# (m, n, k) -> {element type of A: (A, B, C register shapes)}
MMA_SHAPES = {(16, 8, 16): {"f16": ((4, 2), (2, 2), (2, 2)),
                            "bf16": ((4, 2), (2, 2), (2, 2))},
              (16, 8, 8): {"f16": ((2, 2), (1, 2), (2, 2)),
                           "f32": ((4, 1), (2, 1), (2, 2))}}


class MmaSyncOp(Op):
    """`nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>,
    vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>`: D = A * B + C for one warp
    (A row-major m x k, B k x n, C and D m x n), each operand its lane's fragment;
    f32 operands run on tensor cores with `tf32Enabled` only (as TF32: upstream's
    verifier accepts them without it, its lowering and the interpreter refuse them)."""

    name = "nvgpu.mma.sync"
    matrixA = Operand(_vector())
    matrixB = Operand(_vector())
    matrixC = Operand(_vector())
    mmaShape = Prop(C.ArrayAttrC)
    tf32Enabled = OptProp(C.UnitAttrC)
    tf32Enabled.fmt = UnitKeyword()
    res = Result(_vector())
    assembly = ("`(` $matrixA `,` $matrixB `,` $matrixC `)` `mmaShape` `=` $mmaShape "
                "(`tf32Enabled` $tf32Enabled^)? attr-dict `:` `(` type($matrixA) `,` "
                "type($matrixB) `,` type($matrixC) `)` `->` type($res)")

    def shape(self) -> tuple:
        return tuple(a.value for a in self._props["mmaShape"].value)

    def verify_(self):
        shape = self.shape()
        ta, tb, tc = (v.type for v in (self.matrixA, self.matrixB, self.matrixC))
        if self.res.type is not tc:
            return "expected the result type to be the type of matrixC"
        kinds = MMA_SHAPES.get(shape)
        if kinds is None:
            return f"unimplemented variant for MMA shape <{', '.join(map(str, shape))}>"
        et = str(ta.element_type)
        if et not in kinds or tb.element_type is not ta.element_type:
            return f"unsupported element types {ta.element_type}, {tb.element_type} for " \
                f"mmaShape {list(shape)}"
        ra, rb, rc = kinds[et]
        if tc.element_type not in (A.f32, A.f16) or tuple(tc.shape) != rc:
            return f"expected matrixC to be vector<{rc[0]}x{rc[1]}xf32> or xf16"
        if tuple(ta.shape) != ra:
            return f"expected matrixA to be vector<{ra[0]}x{ra[1]}x{et}>"
        if tuple(tb.shape) != rb:
            return f"expected matrixB to be vector<{rb[0]}x{rb[1]}x{et}>"
        return None


for _c in (LdMatrixOp, MmaSyncOp):
    install_format(_c)

NVGPU = Dialect("nvgpu", [LdMatrixOp, MmaSyncOp])
