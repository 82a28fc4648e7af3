"""The gpu, nvvm and vector dialects against upstream (iree-opt is the judge) and their
builders (what the GPU lowerings create)."""
import os
import shutil
import subprocess
import sys

import pytest

from strata.dialects import default_context
from strata.dialects import gpu as G
from strata.ir import attributes as A
from strata.ir.builder import Builder
from strata.ir.verifier import verify
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

IREE_OPT = shutil.which("iree-opt")
needs_iree = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")
LIT = os.path.join(os.path.dirname(__file__), "..", "lit", "dialects")
OPS_FILES = ["gpu/ops.mlir", "gpu/mma-binary.mlir", "gpu/lowered-kernel.mlir",
             "nvvm/ops.mlir", "vector/ops.mlir"]
INVALID_FILES = ["gpu/invalid.mlir", "nvvm/invalid.mlir", "vector/invalid.mlir"]


def strata_opt(args, path):
    r = subprocess.run([sys.executable, "-m", "strata.tools.opt", *args, path],
                       capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    return r.returncode, r.stdout, r.stderr


@needs_iree
@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("name", OPS_FILES)
def test_prints_what_iree_opt_prints(name, generic):
    path = os.path.join(LIT, name)
    args = ["--mlir-print-op-generic"] if generic else []
    want = subprocess.run([IREE_OPT, *args, path], capture_output=True, text=True)
    assert want.returncode == 0, want.stderr
    rc, got, err = strata_opt(args, path)
    assert rc == 0, err
    assert got == want.stdout


@needs_iree
@pytest.mark.parametrize("name", INVALID_FILES)
def test_invalid_files_pass_upstream_verify_diagnostics(name):
    # The expected errors of our invalid.mlir files are upstream's own wording.
    path = os.path.join(LIT, name)
    r = subprocess.run([IREE_OPT, "--split-input-file", "--verify-diagnostics", path],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _print(op):
    return print_op(op)


def test_builders_make_a_launchable_kernel():
    """gpu.module, gpu.func (kernel, workgroup attribution), gpu.launch_func built in
    Python verify and print as upstream's syntax."""
    from strata.dialects.builtin import ModuleOp
    from strata.dialects.func import FuncOp, ReturnOp
    from strata.dialects.arith import ConstantOp
    ctx = default_context()
    top = ModuleOp.new()
    top.attributes["gpu.container_module"] = A.UnitAttr()
    gm = G.ModuleOp.new("kernels")
    top.regions[0].blocks[0].append(gm)
    mem = A.MemRefType([A.DYNAMIC], A.f32)
    shared = A.MemRefType([64], A.f32, None, G.ADDRESS_SPACE("workgroup"))
    kfn = G.FuncOp.new("k", A.FunctionType([mem], []), kernel=True, workgroup=[shared])
    gm.regions[0].blocks[0].append(kfn)
    b = Builder.at_end(kfn.regions[0].blocks[0])
    b.create(G.ThreadIdOp, dimension=G.DIM("x"), result=A.index)
    b.create(G.BarrierOp)
    b.create(G.ReturnOp)
    host = FuncOp.new("main", A.FunctionType([mem], []))
    top.regions[0].blocks[0].append(host)
    hb = Builder.at_end(host.regions[0].blocks[0])
    one = hb.create(ConstantOp, value=A.IntegerAttr(1, A.index), result=A.index).result
    x = host.regions[0].blocks[0].args[0]
    hb.insert(G.LaunchFuncOp.new(A.SymbolRefAttr("kernels", ["k"]), [one] * 3,
                                    [one] * 3, [x]))
    hb.create(ReturnOp)
    verify(top)
    text = _print(top)
    assert "gpu.func @k(%arg0: memref<?xf32>) workgroup(%arg1 : memref<64xf32, " \
           "#gpu.address_space<workgroup>>) kernel {" in text
    assert "gpu.launch_func  @kernels::@k blocks in (%c1, %c1, %c1) threads in " \
           "(%c1, %c1, %c1)  args(%arg0 : memref<?xf32>)" in text
    again = parse_source(text, ctx, "k.mlir")
    verify(again)
    assert _print(again) == text


def test_address_space_of_memref_types():
    f = A.f32
    assert G.address_space_of(A.MemRefType([4], f, None, G.ADDRESS_SPACE("workgroup"))) \
        == "workgroup"
    assert G.address_space_of(A.MemRefType([4], f, None, A.IntegerAttr(3, A.i64))) == \
        "workgroup"
    assert G.address_space_of(A.MemRefType([4], f, None, A.IntegerAttr(5, A.i64))) == \
        "private"
    assert G.address_space_of(A.MemRefType([4], f)) is None
