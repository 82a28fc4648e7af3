"""The GPU lowering passes (conversion/scf_to_gpu.py, transforms/gpu_kernel_outlining.py)
on small inputs: semantics kept (the interpreter, where it runs the result), errors
located."""
import numpy as np
import pytest

from strata.dialects import default_context
from strata.errors import StrataError
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op
from strata.testing import check_pass_preserves_semantics

LOOPS = """
func.func @static2d(%a: memref<4x300xf32>) -> memref<4x300xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c300 = arith.constant 300 : index
  %out = memref.alloc() : memref<4x300xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c300) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<4x300xf32>
    %fi = arith.index_cast %i : index to i32
    %f = arith.sitofp %fi : i32 to f32
    %w = arith.addf %v, %f : f32
    memref.store %w, %out[%i, %j] : memref<4x300xf32>
    scf.reduce
  }
  return %out : memref<4x300xf32>
}
func.func @strided(%a: memref<20xf32>, %lo: index) -> memref<20xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c20 = arith.constant 20 : index
  %z = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<20xf32>
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%c20) step (%c1) {
    memref.store %z, %out[%i] : memref<20xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%lo) to (%c20) step (%c3) {
    %v = memref.load %a[%i] : memref<20xf32>
    memref.store %v, %out[%i] : memref<20xf32>
    scf.reduce
  }
  return %out : memref<20xf32>
}
"""


@pytest.mark.parametrize("block_size", [1, 7, 256])
def test_linearize_keeps_semantics(block_size):
    a = np.arange(1200, dtype=np.float32).reshape(4, 300)
    check_pass_preserves_semantics(
        LOOPS, f"strata-gpu-linearize-parallel-loops{{block-size={block_size}}}",
        inputs={"static2d": [a]}, function="static2d")


@pytest.mark.parametrize("lo", [0, 2, 19, 25])
def test_linearize_dynamic_bounds_and_steps(lo):
    a = np.arange(20, dtype=np.float32)
    check_pass_preserves_semantics(LOOPS, "strata-gpu-linearize-parallel-loops{block-size=4}",
                                   inputs={"strided": [a, np.int64(lo)]}, function="strided")


def _run(text, pipeline):
    from strata.compiler import build_pipeline
    m = parse_source(text, default_context(), "t.mlir")
    build_pipeline(pipeline).run(m)
    return print_op(m)


def test_linearize_then_launch_has_the_trip_counts_as_sizes():
    out = _run(LOOPS, "strata-gpu-linearize-parallel-loops{block-size=256},"
                      "gpu-map-parallel-loops,convert-parallel-loops-to-gpu,canonicalize")
    # 1200 iterations: 5 blocks of 256 threads, the last one partly masked
    assert "gpu.launch blocks(%arg1, %arg2, %arg3) in (%arg7 = %c5, %arg8 = %c1, " \
           "%arg9 = %c1) threads(%arg4, %arg5, %arg6) in (%arg10 = %c256" in out
    assert "arith.cmpi slt" in out


def test_block_size_must_be_positive():
    with pytest.raises(StrataError, match="block-size must be positive"):
        _run(LOOPS, "strata-gpu-linearize-parallel-loops{block-size=0}")


SUM = """
func.func @sum(%a: memref<8xf32>) -> memref<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<f32>
  memref.store %z, %out[] : memref<f32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %s = memref.load %out[] : memref<f32>
    %t = arith.addf %s, %v : f32
    memref.store %t, %out[] : memref<f32>
  }
  return %out : memref<f32>
}"""


def test_launch_sequential_wraps_host_loops():
    text = SUM
    out = _run(text, "strata-gpu-launch-sequential")
    host, _, body = out.partition("gpu.launch")
    assert "memref.alloc" in host and "scf.for" not in host
    assert body.count("gpu.launch") == 0 and "scf.for" in body and "memref.store" in body


def test_launch_sequential_refuses_loops_the_host_needs():
    text = """
    func.func @f(%a: memref<8xindex>) -> memref<?xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %n = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %c0) -> (index) {
        %v = memref.load %a[%i] : memref<8xindex>
        %t = arith.addi %s, %v : index
        memref.store %t, %a[%i] : memref<8xindex>
        scf.yield %t : index
      }
      %out = memref.alloc(%n) : memref<?xf32>
      return %out : memref<?xf32>
    }"""
    # (a loop storing to memory is the device's; its result sizes a host allocation)
    with pytest.raises(StrataError, match=r"t.mlir:6:\d+: error: 'scf.for' computes a "
                                          r"value the host needs"):
        _run(text, "strata-gpu-launch-sequential")
    # without the store, the host runs the loop (scalar control flow)
    assert "gpu.launch" not in _run(text.replace(
        "        memref.store %t, %a[%i] : memref<8xindex>\n", ""),
        "strata-gpu-launch-sequential")


def test_host_reads_of_device_values_stay_on_the_host():
    text = """
    func.func @f(%a: memref<8xindex>) -> memref<?xf32> {
      %c0 = arith.constant 0 : index
      %n = memref.load %a[%c0] : memref<8xindex>
      %out = memref.alloc(%n) : memref<?xf32>
      return %out : memref<?xf32>
    }"""
    assert "gpu.launch" not in _run(text, "strata-gpu-launch-sequential")


GPU_STEPS = ["strata-gpu-launch-sequential", "strata-gpu-linearize-parallel-loops{block-size=64}",
             "gpu-map-parallel-loops", "convert-parallel-loops-to-gpu",
             "gpu-kernel-outlining"]


@pytest.mark.parametrize("upto", range(3, len(GPU_STEPS) + 1))
def test_launch_and_outlining_keep_semantics(upto):
    """Each step to outlined kernels, run by the interpreter (threads simulated)."""
    a = np.arange(1200, dtype=np.float32).reshape(4, 300)
    check_pass_preserves_semantics(LOOPS, ",".join(GPU_STEPS[:upto]),
                                   inputs={"static2d": [a]}, function="static2d")
    check_pass_preserves_semantics(LOOPS, ",".join(GPU_STEPS[:upto]),
                                   inputs={"strided": [a[0, :20].copy(), np.int64(1)]},
                                   function="strided")


def test_sequential_launch_keeps_semantics():
    text = SUM
    check_pass_preserves_semantics(text, "strata-gpu-launch-sequential,gpu-kernel-outlining",
                                   inputs=[np.arange(8, dtype=np.float32)])


ROWS = """
func.func @rows(%a: memref<3x70xf32>) -> memref<3x70xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c70 = arith.constant 70 : index
  %init = arith.constant 5.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %out = memref.alloc() : memref<3x70xf32>
  scf.parallel (%r) = (%c0) to (%c3) step (%c1) {
    %tmp = memref.alloca() : memref<70xf32>
    %m = scf.for %i = %c0 to %c70 step %c1 iter_args(%acc = %ninf) -> (f32) {
      %v = memref.load %a[%r, %i] : memref<3x70xf32>
      %n = arith.maximumf %acc, %v : f32
      scf.yield %n : f32
    }
    %s = scf.for %i = %c0 to %c70 step %c1 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %a[%r, %i] : memref<3x70xf32>
      %d = arith.subf %v, %m : f32
      memref.store %d, %tmp[%i] : memref<70xf32>
      %n = arith.addf %d, %acc : f32
      scf.yield %n : f32
    }
    scf.for %i = %c0 to %c70 step %c1 {
      %v = memref.load %tmp[%i] : memref<70xf32>
      %q = arith.divf %v, %s : f32
      memref.store %q, %out[%r, %i] : memref<3x70xf32>
    }
    scf.reduce
  }
  return %out : memref<3x70xf32>
}
"""


def test_rows_to_warps_keeps_semantics():
    """Max and sum (from 5.0: counted once) over rows of 70, temporaries per row: a warp
    per row, reductions by shuffles, run by the interpreter's warps."""
    a = np.random.default_rng(0).standard_normal((3, 70)).astype(np.float32)
    got = check_pass_preserves_semantics(
        ROWS, "strata-gpu-rows-to-warps," + ",".join(GPU_STEPS), inputs=[a])
    out = _run(ROWS, "strata-gpu-rows-to-warps")
    assert out.count("gpu.shuffle xor") == 10
    import re
    assert re.search(r"scf.parallel \(%arg1, %arg2\) = \(%c0, %c0\w*\) to \(%c3, %c32\)",
                     out), out
    assert got


@pytest.mark.parametrize("edit", [
    ("%c70 = arith.constant 70 : index", "%c70 = arith.constant 20 : index"),   # short
    ("%n = arith.addf %d, %acc : f32", "%n = arith.addf %d, %d : f32"),        # no combine
])
def test_rows_to_warps_leaves_other_loops(edit):
    text = ROWS.replace(*edit).replace("70xf32", "20xf32" if "20" in edit[1] else "70xf32")
    assert "gpu.shuffle" not in _run(text, "strata-gpu-rows-to-warps")


HOST_IF = """
func.func @pick(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 2.0 : f32
  %r = scf.if %c -> (memref<4xf32>) {
    %n = memref.alloc() : memref<4xf32>
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      memref.store %z, %n[%i] : memref<4xf32>
      scf.reduce
    }
    scf.yield %n : memref<4xf32>
  } else {
    scf.yield %a : memref<4xf32>
  }
  %out = memref.alloc() : memref<4xf32>
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return %out : memref<4xf32>
}
"""


@pytest.mark.parametrize("c", [True, False])
def test_host_choice_of_buffers_launches_inside(c):
    """scf.if choosing a buffer stays on the host, its parallel loop a launch inside."""
    steps = ",".join(GPU_STEPS)
    out = _run(HOST_IF, steps)
    host = out.split("gpu.module")[0]
    assert "scf.if" in host and "gpu.launch_func" in host.split("scf.if")[1]
    check_pass_preserves_semantics(HOST_IF, steps, inputs=[np.arange(4, dtype=np.float32),
                                                          np.bool_(c)])


HOST_CHECK = """
func.func @check(%a: memref<4xi32>, %c: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i8
  %m = arith.constant -1 : i32
  %ok = scf.if %c -> (i1) {
    %flag = memref.alloc() : memref<i8>
    memref.store %z, %flag[] : memref<i8>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %a[%i] : memref<4xi32>
      %e = arith.cmpi eq, %v, %m : i32
      %x = arith.extui %e : i1 to i8
      %f = memref.load %flag[] : memref<i8>
      %n = arith.maxui %f, %x : i8
      memref.store %n, %flag[] : memref<i8>
    }
    %f = memref.load %flag[] : memref<i8>
    %none = arith.cmpi eq, %f, %z : i8
    scf.yield %none : i1
  } else {
    %t = arith.constant true
    scf.yield %t : i1
  }
  return %ok : i1
}
"""


@pytest.mark.parametrize("values,c", [([1, 2, 3, 4], True), ([1, -1, 3, 4], True),
                                      ([1, -1, 3, 4], False)])
def test_host_if_launches_what_it_cannot_run(values, c):
    """A check computed in device memory inside a host scf.if (integer division's
    overflow check): its loop is launched in place, the flag read back by the host."""
    out = _run(HOST_CHECK, "strata-gpu-launch-sequential")
    host_if = out[out.index("scf.if"):]
    assert out.index("scf.if") < out.index("gpu.launch") and "scf.yield" in host_if
    check_pass_preserves_semantics(HOST_CHECK, ",".join(GPU_STEPS),
                                   inputs=[np.array(values, np.int32), np.bool_(c)])
