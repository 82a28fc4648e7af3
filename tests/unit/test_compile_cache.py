"""The compiled-model cache (strata/cache.py, [Note: the compiled-model cache]): a second
strata.compile of a model, in this process or a new one, loads its native code; a change
of the model, the options or Strata misses; broken entries are compiled again silently;
the off switches; the cap, `strata cache clear`, concurrent writers."""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import strata  # noqa: E402
from strata import cache  # noqa: E402
from strata.tools.cli import main as cli  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mlp(seed=0, hidden=32):
    """Gemm(x, W1, b1) -> Relu -> Gemm(W2, b2): weights big enough to be externalized,
    a dynamic batch dim."""
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((16, hidden)).astype(np.float32)
    b1 = rng.standard_normal(hidden).astype(np.float32)
    w2 = rng.standard_normal((hidden, 8)).astype(np.float32)
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("MatMul", ["r", "w2"], ["y"], name="fc2")]
    inits = [numpy_helper.from_array(w, n) for w, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"))]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 8])
    g = helper.make_graph(nodes, "mlp", [x], [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    ref = lambda x: np.maximum(x @ w1 + b1, 0) @ w2  # noqa: E731
    return m, ref


X = np.random.default_rng(1).standard_normal((3, 16)).astype(np.float32)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache of its own, on, holding the CPU kernels already built (linked from the
    cache they were built in, so a new process does not build them again)."""
    from strata.backends.cpu.kernels import kernel_object
    kernel_object()       # built (and kept in the usual cache) once
    before = cache.cache_dir()
    d = tmp_path / "cache"
    d.mkdir()
    for o in glob.glob(os.path.join(before, "sgemm-*.o")) if before else ():
        os.symlink(o, d / os.path.basename(o))
    monkeypatch.setenv("STRATA_CACHE_DIR", str(d))
    monkeypatch.setenv("STRATA_CACHE", "1")
    return d


@pytest.fixture
def model_file(tmp_path):
    m, ref = mlp()
    p = tmp_path / "mlp.onnx"
    onnx.save(m, str(p))
    return p, ref


def entries(d):
    cache.flush()       # (strata.compile writes entries on a thread)
    return sorted(glob.glob(os.path.join(d, "models", "*.smc")))


def test_hit_in_this_process(cache_dir, model_file):
    path, ref = model_file
    f = strata.compile(str(path))
    assert not f.from_cache and f.timings and len(entries(cache_dir)) == 1
    g = strata.compile(str(path))
    assert g.from_cache and g.module is None and g.timings == {}
    np.testing.assert_allclose(g(X)[0], ref(X), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(g(X)[0], f(X)[0])
    # the interface is the compiled one: names, types, checks of the inputs
    assert g.input_names == f.input_names == ["x"] and g.output_names == ["y"]
    assert [str(t) for t in g.input_types] == [str(t) for t in f.input_types]
    assert repr(g) == repr(f)
    with pytest.raises(strata.StrataError, match="x"):
        g(np.zeros((3, 15), np.float32))
    g.num_threads = 1
    assert g.num_threads == 1
    np.testing.assert_allclose(g(x=X[:1])[0], ref(X[:1]), rtol=1e-5, atol=1e-5)
    assert len(entries(cache_dir)) == 1


def test_model_proto_and_module_hit(cache_dir):
    m, ref = mlp(seed=3)
    assert not strata.compile(m).from_cache
    g = strata.compile(m)
    assert g.from_cache
    np.testing.assert_allclose(g(X)[0], ref(X), rtol=1e-5, atol=1e-5)
    # a Strata module is keyed by its text and the bytes of its weights
    from strata.frontends.onnx import import_model
    module = import_model(m)
    assert not strata.compile(module).from_cache
    assert strata.compile(module).from_cache
    m2, ref2 = mlp(seed=4)    # same text, other weight bytes
    h = strata.compile(import_model(m2))
    assert not h.from_cache
    np.testing.assert_allclose(h(X)[0], ref2(X), rtol=1e-5, atol=1e-5)


def test_miss_on_a_change_of_model_or_options(cache_dir, model_file, tmp_path):
    path, _ = model_file
    strata.compile(str(path))
    assert not strata.compile(str(path), num_threads=1).from_cache
    assert not strata.compile(str(path), opt_level=1).from_cache
    assert not strata.compile(str(path), parallel=False).from_cache
    assert strata.compile(str(path), num_threads=1).from_cache
    assert len(entries(cache_dir)) == 4
    # the same file rewritten with other weights (other size and mtime): compiled again
    m, ref = mlp(seed=7)
    onnx.save(m, str(path))
    os.utime(path, ns=(1, 1))
    f = strata.compile(str(path))
    assert not f.from_cache
    np.testing.assert_allclose(f(X)[0], ref(X), rtol=1e-5, atol=1e-5)
    # another pipeline (here: the same passes, written out) is another key
    from strata.backends.cpu.target import CpuTarget
    assert not strata.compile(str(path), pipeline=",".join(CpuTarget.pipeline)).from_cache


def test_model_digest_follows_the_contents(cache_dir, tmp_path):
    p = tmp_path / "a.mlir"
    p.write_text("module {}\n")
    d1 = cache.file_digest(str(p))
    assert cache.file_digest(str(p)) == d1
    p.write_text("module { }\n")
    assert cache.file_digest(str(p)) != d1


def test_source_fingerprint_changes_with_the_package(cache_dir, tmp_path):
    """An edit to a .py file of the package changes the digest (remembered by stat)."""
    files = []
    for i in range(3):
        f = tmp_path / f"m{i}.py"
        f.write_text(f"x = {i}\n")
        files.append(str(f))
    compute = lambda: cache._hash_files(files, str(tmp_path))  # noqa: E731
    a = cache.remembered(files, compute)
    assert cache.remembered(files, lambda: pytest.fail("not remembered")) == a
    with open(files[1], "a") as fh:
        fh.write("y = 1\n")
    b = cache.remembered(files, compute)
    assert b != a
    assert cache.source_fingerprint().startswith(strata.__version__ + ":")


def blob_span(data, name):
    """(start, end) in the entry file `data` of blob `name`."""
    at = len(cache.MAGIC) + 8
    n = int.from_bytes(data[len(cache.MAGIC):at], "little")
    head = json.loads(bytes(data[at:at + n]))
    start = at + n + (-(at + n) % cache.ALIGN)
    b, = [b for b in head["blobs"] if b["name"] == name]
    return start + b["offset"], start + b["offset"] + b["size"]


@pytest.mark.parametrize("damage", ["flip-object", "flip-weights", "truncate", "manifest",
                                    "empty", "key"])
def test_broken_entry_is_compiled_again(cache_dir, model_file, damage):
    path, ref = model_file
    strata.compile(str(path))
    entry, = entries(cache_dir)
    data = bytearray(open(entry, "rb").read())
    if damage.startswith("flip"):     # one bit of the object code or of a weight
        lo, hi = blob_span(data, "object0" if damage == "flip-object" else "w0")
        data[(lo + hi) // 2] ^= 0x10
    elif damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "manifest":
        data[20:30] = b"}}}}}}}}}}"
    elif damage == "empty":
        data = b""
    elif damage == "key":         # another entry's file under this name
        data = data.replace(os.path.basename(entry)[:-4].encode(), b"0" * 40)
    with open(entry, "wb") as fh:
        fh.write(data)
    f = strata.compile(str(path))
    assert not f.from_cache
    np.testing.assert_allclose(f(X)[0], ref(X), rtol=1e-5, atol=1e-5)
    assert strata.compile(str(path)).from_cache     # written again, whole


def test_off_switches(cache_dir, model_file, monkeypatch):
    path, _ = model_file
    strata.compile(str(path), cache=False)
    assert entries(cache_dir) == []
    monkeypatch.setenv("STRATA_CACHE", "0")
    strata.compile(str(path))
    assert entries(cache_dir) == []
    assert not strata.compile(str(path), cache=True).from_cache
    assert strata.compile(str(path), cache=True).from_cache   # the flag wins
    assert not strata.compile(str(path)).from_cache           # $STRATA_CACHE=0
    monkeypatch.setenv("STRATA_CACHE", "1")
    assert not strata.compile(str(path), cache=False).from_cache
    # dumping the IR compiles (the dump is what is asked for)
    assert not strata.compile(str(path), print_ir_after_all=True,
                              out=open(os.devnull, "w")).from_cache
    # the interpreter has nothing to cache
    assert not strata.compile(str(path), target="interpret").from_cache
    monkeypatch.setenv("STRATA_CACHE_DIR", "off")
    assert cache.cache_dir() is None and not cache.models_enabled(True)


def test_cache_dir_rule(monkeypatch, tmp_path):
    monkeypatch.delenv("STRATA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == str(tmp_path / "xdg" / "strata")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "strata")
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == str(tmp_path / "mine")
    from strata.backends.cpu.kernels import _cache_dir
    assert _cache_dir() == cache.cache_dir()       # one rule for every cache
    for off in ("0", "off"):
        monkeypatch.setenv("STRATA_CACHE_DIR", off)
        assert cache.cache_dir() is None


def test_new_process_hits(cache_dir, model_file):
    """A model compiled here loads in a new process without compiling, and the other
    way round."""
    path, ref = model_file
    strata.compile(str(path))
    cache.flush()     # (a process started while the entry is written would miss)
    script = ("import sys, numpy as np, strata\n"
              "f = strata.compile(sys.argv[1])\n"
              "y, = f(np.load(sys.argv[2]))\n"
              "print(f.from_cache, repr(y.tobytes().hex()))\n")
    np.save(cache_dir / "x.npy", X)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", script, str(path), str(cache_dir / "x.npy")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    hit, hexbytes = r.stdout.split()
    assert hit == "True"
    y = np.frombuffer(bytes.fromhex(hexbytes.strip("'")), np.float32).reshape(3, 8)
    np.testing.assert_allclose(y, ref(X), rtol=1e-5, atol=1e-5)
    # a model compiled by a process that then exits (its entry written before the exit)
    m2, ref2 = mlp(seed=11)
    other = cache_dir / "other.onnx"
    onnx.save(m2, str(other))
    r = subprocess.run([sys.executable, "-c", script, str(other), str(cache_dir / "x.npy")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.split()[0] == "False", r.stderr
    g = strata.compile(str(other))
    assert g.from_cache
    np.testing.assert_allclose(g(X)[0], ref2(X), rtol=1e-5, atol=1e-5)


def test_entry_format_and_prune(cache_dir):
    blob = np.arange(100000, dtype=np.float32)
    assert cache.write_entry("k1", {"a": [1, 2]}, {"x": b"abc", "w": blob})
    manifest, blobs = cache.read_entry("k1")
    assert manifest == {"a": [1, 2]} and bytes(blobs["x"]) == b"abc"
    assert blobs["w"].ctypes.data % 64 == 0
    np.testing.assert_array_equal(blobs["w"].view(np.float32), blob)
    raw = open(cache.entry_path("k1"), "rb").read()
    assert raw.startswith(cache.MAGIC) and b"pickle" not in raw
    head = json.loads(raw[len(cache.MAGIC) + 8:
                          len(cache.MAGIC) + 8 + int.from_bytes(raw[13:21], "little")])
    assert [b["name"] for b in head["blobs"]] == ["x", "w"]
    assert cache.read_entry("nothing") is None
    # the cap keeps the most recently used
    for k in ("k2", "k3"):
        cache.write_entry(k, {}, {"w": blob})
    os.utime(cache.entry_path("k1"), (1, 1))
    os.utime(cache.entry_path("k2"), (2, 2))
    assert cache.prune(limit=500_000) == 2
    assert [os.path.basename(p) for p in entries(cache_dir)] == ["k3.smc"]
    assert cache.usage()[0] == 1
    assert cli(["cache", "clear"]) == 0
    assert entries(cache_dir) == []


def test_written_later(cache_dir):
    """strata.compile's entries are written on a thread the interpreter waits for; a
    read in this process waits for it."""
    blob = np.arange(1 << 18, dtype=np.float32)
    cache.write_entry_later("later", {"n": 2}, {"w": blob})
    writer, = cache._PENDING
    assert not writer.daemon
    manifest, blobs = cache.read_entry("later")
    assert manifest == {"n": 2} and not cache._PENDING
    np.testing.assert_array_equal(blobs["w"].view(np.float32), blob)


def test_concurrent_writers_and_readers(cache_dir):
    """Writers of one key and readers at once: a reader sees a whole entry or none."""
    blob = np.random.default_rng(0).integers(0, 255, 1 << 20, dtype=np.uint8)
    bad = []

    def write():
        for _ in range(5):
            cache.write_entry("same", {"n": 1}, {"w": blob})

    def read():
        for _ in range(20):
            got = cache.read_entry("same")
            if got is not None and not np.array_equal(got[1]["w"], blob):
                bad.append(got)
    threads = [threading.Thread(target=f) for f in (write, write, read, read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad
    assert cache.read_entry("same") is not None
    assert not glob.glob(os.path.join(cache_dir, "models", "*.tmp"))


def test_cli(cache_dir, model_file, capsys):
    path, _ = model_file
    from strata.tools.cli import main
    np.save(cache_dir / "x.npy", X)
    assert main(["run", str(path), "--input", str(cache_dir / "x.npy"), "--no-cache"]) == 0
    assert entries(cache_dir) == []
    assert main(["run", str(path), "--input", str(cache_dir / "x.npy")]) == 0
    assert len(entries(cache_dir)) == 1
    capsys.readouterr()
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert str(cache_dir) in out and "compiled models: 1" in out
    assert main(["cache", "dir"]) == 0 and capsys.readouterr().out.strip() == str(cache_dir)


def test_torch_module_and_mlir_file_hit(cache_dir, tmp_path):
    """A torch.nn.Module is keyed by the module it imports to (exported each time): the
    second compile skips the pipeline and LLVM, and still speaks torch (names, tensors
    out, dims torch.export named)."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                              torch.nn.Linear(32, 8)).eval()
    x = torch.from_numpy(X)
    dyn = ({0: torch.export.Dim("batch")},)
    f = strata.compile(net, example_args=(x,), dynamic_shapes=dyn)
    g = strata.compile(net, example_args=(x,), dynamic_shapes=dyn)
    assert not f.from_cache and g.from_cache
    assert g.input_names == f.input_names and type(g) is type(f)
    y = g(x[:2])       # one tensor, as the module returns it
    assert isinstance(y, torch.Tensor)
    np.testing.assert_allclose(y.numpy(), net(x[:2]).detach().numpy(), rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        net[0].bias.add_(1.0)       # other weights: another key
    h = strata.compile(net, example_args=(x,), dynamic_shapes=dyn)
    assert not h.from_cache
    np.testing.assert_allclose(h(x).numpy(), net(x).detach().numpy(), rtol=1e-5,
                               atol=1e-5)
    # an .mlir file: its bytes
    p = tmp_path / "m.mlir"
    p.write_text("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  %r = arith.addf %a, %a : tensor<4xf32>\n"
                 "  return %r : tensor<4xf32>\n}\n")
    a = np.arange(4, dtype=np.float32)
    assert not strata.compile(str(p)).from_cache
    m = strata.compile(str(p))
    assert m.from_cache
    np.testing.assert_array_equal(m(a)[0], 2 * a)


def test_digest_bytes_of_large_buffers():
    import hashlib
    small = b"x" * 1000
    assert cache.digest_bytes(small) == hashlib.sha256(small).hexdigest()
    big = np.zeros((cache._SLICE * 2 + 5) // 8 + 1, np.uint64)
    a = cache.digest_bytes(big)
    big[-1] = 1                 # a change in the last slice
    b = cache.digest_bytes(big)
    big[-1], big[0] = 0, 1      # and in the first
    assert len({a, b, cache.digest_bytes(big)}) == 3
    big[0] = 0
    assert cache.digest_bytes(big) == a


def test_unwritable_cache_is_no_error(cache_dir, model_file, monkeypatch, tmp_path):
    """A cache directory that cannot be made (here: under a file) only means no cache."""
    path, ref = model_file
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("STRATA_CACHE_DIR", str(blocker / "cache"))
    for _ in range(2):
        f = strata.compile(str(path))
        assert not f.from_cache
        np.testing.assert_allclose(f(X)[0], ref(X), rtol=1e-5, atol=1e-5)
    cache.flush()


def test_types_numpy_lacks_survive_the_cache(cache_dir):
    """bfloat16 inputs, weights and outputs (ml_dtypes' type, whose dtype.str is a bare
    '<V2') come back from a cache hit as bfloat16, not as raw two-byte voids."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bf16 = np.dtype(ml_dtypes.bfloat16)
    w = np.arange(64, dtype=np.float32).reshape(8, 8).astype(bf16)
    t = helper.make_tensor("w", TensorProto.BFLOAT16, [8, 8],
                           w.astype(np.float32).reshape(-1).tolist())
    nodes = [helper.make_node("Add", ["x", "w"], ["s"], name="add"),
             helper.make_node("Cast", ["s"], ["y"], to=TensorProto.FLOAT, name="cast"),
             helper.make_node("Identity", ["s"], ["z"], name="keep")]
    g = helper.make_graph(
        nodes, "bf16", [helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 8]),
         helper.make_tensor_value_info("z", TensorProto.BFLOAT16, [8, 8])], [t])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    x = np.ones((8, 8), np.float32).astype(bf16)
    first = strata.compile(m)
    assert not first.from_cache
    entries(cache_dir)
    again = strata.compile(m)
    assert again.from_cache
    for f in (first, again):
        y, z = f(x)
        assert y.dtype == np.float32 and z.dtype == bf16
        np.testing.assert_array_equal(y, (w.astype(np.float32) + 1).astype(bf16)
                                      .astype(np.float32))
        np.testing.assert_array_equal(z.astype(np.float32), y)
