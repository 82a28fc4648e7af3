"""strata/backends/cpu/heap.py: glibc told to keep freed blocks at the first CPU model
load ([Note: freed memory kept]), and $STRATA_KEEP_FREED_MEMORY=0 leaving it alone
(each case in a fresh process: the setting is once per process); a model's weights
copied into one block, each at a multiple of 64 bytes, a large block on huge pages
([Note: weights placed alike in every process]), whether compiled or loaded from the
compiled-model cache."""
from __future__ import annotations

import os
import subprocess
import sys

import mmap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_PROBE = r"""
import numpy as np, strata
from strata.backends.cpu import heap
from strata.dialects import default_context
from strata.syntax.parser import parse_source
f = strata.compile(parse_source('''
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}''', default_context(), "<probe>"), cache=False)
assert (f(np.ones(4, np.float32))[0] == 2).all()
print(heap._DONE)
"""


def _run(env_value):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("STRATA_KEEP_FREED_MEMORY", None)
    if env_value is not None:
        env["STRATA_KEEP_FREED_MEMORY"] = env_value
    r = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


def _glibc() -> bool:
    import ctypes
    try:
        return sys.platform == "linux" and hasattr(ctypes.CDLL(None), "gnu_get_libc_version")
    except OSError:
        return False


@pytest.mark.skipif(not _glibc(), reason="the heap is tuned on glibc only")
def test_first_load_keeps_freed_memory():
    assert _run(None) == "[True]"


def test_switched_off():
    assert _run("0") == "[False]"


def _vm_flags(address: int):
    """The VmFlags of the mapping holding `address` (Linux), None elsewhere."""
    try:
        lines = open("/proc/self/smaps").read().splitlines()
    except OSError:
        return None
    inside = False
    for line in lines:
        head = line.split()[0] if line else ""
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(x, 16) for x in head.split("-"))
            inside = lo <= address < hi
        elif inside and head == "VmFlags:":
            return line.split()[1:]
    return None


def test_place_weights_copies_at_cache_lines():
    from strata.backends.cpu.heap import WEIGHT_ALIGNMENT, place_weights
    rng = np.random.default_rng(0)
    raw = np.zeros(1000, np.uint8)
    arrays = [rng.standard_normal((3, 5)).astype(np.float32),
              raw[1:1 + 4 * 7].view(np.float32).reshape(7),      # misaligned, as in a file
              np.arange(9, dtype=np.int64), np.zeros((0, 4), np.float32),
              np.float64(2.5) * np.ones(()), np.array([True, False])]
    out = place_weights(arrays)
    assert WEIGHT_ALIGNMENT == 64 and len(out) == len(arrays)
    for a, b in zip(arrays, out):
        assert b.dtype == a.dtype and b.shape == a.shape and (b == a).all()
        assert b.flags.c_contiguous and not np.shares_memory(a, b)
        assert b.size == 0 or b.ctypes.data % WEIGHT_ALIGNMENT == 0
    # one block: each array after the one before it
    starts = [b.ctypes.data for b in out if b.size]
    assert starts == sorted(starts) and starts[-1] - starts[0] < 1024


def test_place_weights_large_block_on_huge_pages(monkeypatch):
    from strata.backends.cpu.heap import HUGE_PAGE, place_weights
    monkeypatch.delenv("STRATA_HUGE_WEIGHTS", raising=False)
    a = np.arange(HUGE_PAGE // 4 + 17, dtype=np.float32)
    b, c = place_weights([np.ones(5, np.float32), a])
    assert (c == a).all() and (b == 1).all()
    flags = _vm_flags(b.ctypes.data)
    if flags is None or not hasattr(mmap, "MADV_HUGEPAGE"):
        pytest.skip("no /proc/self/smaps or MADV_HUGEPAGE here")
    assert b.ctypes.data % HUGE_PAGE == 0
    assert "hg" in flags           # advised: madvise(MADV_HUGEPAGE)
    assert "sh" not in flags       # private (shared anonymous memory is shmem: no THP)
    monkeypatch.setenv("STRATA_HUGE_WEIGHTS", "0")
    (d,) = place_weights([a])
    assert (d == a).all() and "nh" in (_vm_flags(d.ctypes.data) or [])


def test_place_weights_leaves_many_bytes_in_place(monkeypatch):
    from strata.backends.cpu import heap
    monkeypatch.setattr(heap, "PLACE_MAX_BYTES", 1000)
    raw = np.zeros(4096, np.uint8)
    at = -raw.ctypes.data % 64
    aligned = raw[at:at + 800].view(np.float32)
    odd = raw[at + 1000 + 4:at + 1000 + 4 + 800].view(np.float32)
    odd[:] = 3
    a, b = heap.place_weights([aligned, odd])
    assert a is aligned                               # bound where it lies
    assert b.ctypes.data % 64 == 0 and (b == 3).all() and not np.shares_memory(b, odd)


def test_place_weights_copies_lent_arrays_past_the_limit(monkeypatch):
    """Past PLACE_MAX_BYTES an array on a cache line is bound where it lies, unless it
    is lent (a torch tensor's storage, [Note: lent blobs]): that one is copied."""
    from strata.backends.cpu import heap
    monkeypatch.setattr(heap, "PLACE_MAX_BYTES", 1000)
    raw = np.zeros(4096, np.uint8)
    at = -raw.ctypes.data % 64
    a = raw[at:at + 800].view(np.float32)
    b = raw[at + 1024:at + 1024 + 800].view(np.float32)
    b[:] = 5
    kept, copied = heap.place_weights([a, b], lent=[1])
    assert kept is a
    assert copied.ctypes.data % 64 == 0 and (copied == 5).all()
    assert not np.shares_memory(copied, b)


@pytest.mark.parametrize("limit", [1 << 30, 1000])
def test_place_weights_binds_panel_memory_where_it_is(monkeypatch, limit):
    """Packed weights written into panel memory are placed already: bound as they are
    under PLACE_MAX_BYTES (the others copied into the block) and past it."""
    from strata.backends.cpu import heap
    from strata.conversion.cpu_kernel_abi import PanelMemory
    monkeypatch.setattr(heap, "PLACE_MAX_BYTES", limit)
    packed = PanelMemory(huge=False).empty(300)
    packed[:] = np.arange(300)
    other = np.arange(7, dtype=np.float32)
    # (`other` copied: into the block under the limit, as lent past it)
    a, b = heap.place_weights([packed, other], lent=[1])
    assert a is packed
    assert (b == other).all() and b.ctypes.data % 64 == 0
    assert not np.shares_memory(b, other)


def test_compiled_model_binds_packed_weights_where_they_were_written():
    """The GEMM weight of a compiled model (2.5 MB: models of less than a huge page
    pack into NumPy's heap) is the packed array the microkernels pass wrote (in panel
    memory), not a copy of it."""
    import strata
    from strata.conversion.cpu_kernel_abi import in_panel_memory
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    w = np.random.default_rng(1).standard_normal((1024, 640)).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 1024])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 640])],
        [numpy_helper.from_array(w, "w")])
    f = strata.compile(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]),
                       cache=False)
    x = np.random.default_rng(2).standard_normal((3, 1024)).astype(np.float32)
    np.testing.assert_allclose(f(x)[0], x @ w, rtol=1e-4, atol=1e-4)
    weights = f._run.__self__._owner.weights
    assert any(in_panel_memory(a) for a in weights.values())


def test_place_weights_one_misplaced_array_past_the_limit(monkeypatch):
    """One array alone past PLACE_MAX_BYTES and not on a cache line (GPT-2's 154 MB
    embedding read from the ONNX file) is copied into a block of its own (it recursed
    without end)."""
    from strata.backends.cpu import heap
    monkeypatch.setattr(heap, "PLACE_MAX_BYTES", 1000)
    raw = np.zeros(8192, np.uint8)
    at = -raw.ctypes.data % 64 + 4
    odd = raw[at:at + 4000].view(np.float32)
    odd[:] = np.arange(1000)
    (b,) = heap.place_weights([odd])
    assert b.ctypes.data % 64 == 0 and (b == np.arange(1000)).all()
    assert not np.shares_memory(b, odd)


def _onnx_model(path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    w = np.random.default_rng(1).standard_normal((256, 512)).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 512])],
        [numpy_helper.from_array(w, "w")])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    return w


@pytest.mark.parametrize("cached", [False, True])
def test_compiled_model_weights_placed(tmp_path, monkeypatch, cached):
    """A compiled model's weights sit in one block at 64-byte multiples (private memory);
    those of the same model loaded from the compiled-model cache at 64-byte multiples of
    the cache file's pages."""
    import strata
    from strata.backends.cpu.heap import WEIGHT_ALIGNMENT
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "m.onnx"
    w = _onnx_model(path)
    x = np.random.default_rng(2).standard_normal((4, 256)).astype(np.float32)
    f = strata.compile(str(path), cache=True)
    if cached:
        f = strata.compile(str(path), cache=True)
        assert f.from_cache
    np.testing.assert_allclose(f(x)[0], x @ w, rtol=1e-4, atol=1e-4)
    weights = f._run.__self__._owner.weights
    assert weights
    for a in weights.values():
        assert a.ctypes.data % WEIGHT_ALIGNMENT == 0
        flags = _vm_flags(a.ctypes.data)
        if flags is not None and not cached:   # a copy: private writable memory
            assert "mw" in flags and "sh" not in flags
