"""The ONNX importer reads large initializers in place ([Note: weights read in place],
strata/frontends/onnx/wire.py): the model's bytes with them cut out parse to the same
model, the weights are views of the file's bytes, and anything unusual falls back to
protobuf's own parse."""
import numpy as np
import onnx
import pytest
import strata
from onnx import TensorProto, helper, numpy_helper

from strata.frontends.onnx import import_model
from strata.frontends.onnx.importer import OnnxImportError
from strata.frontends.onnx.wire import INLINE_MIN_BYTES, INLINE_PREFIX, split_weights
from strata.ir.dense import BLOBS

RNG = np.random.default_rng(0)
BIG = INLINE_MIN_BYTES // 4 + 7          # f32 elements: over the threshold


def _model(big=BIG, extra_inits=()):
    w = RNG.standard_normal((big,)).astype(np.float32)
    s = RNG.standard_normal((5,)).astype(np.float32)          # small: stays in the proto
    h = RNG.integers(0, 100, (BIG,)).astype(np.int64)
    nodes = [helper.make_node("Add", ["x", "w"], ["a"]),
             helper.make_node("Cast", ["h"], ["hc"], to=TensorProto.FLOAT),
             helper.make_node("Add", ["a", "hc"], ["y"]),
             helper.make_node("Add", ["z", "s"], ["y2"])]
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [big]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [big]),
         helper.make_tensor_value_info("y2", TensorProto.FLOAT, [5])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(s, "s"),
         numpy_helper.from_array(h, "h"), *extra_inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    return m, w, s, h


def test_split_parses_to_the_same_model():
    m, w, s, h = _model()
    data = m.SerializeToString()
    light, inline = split_weights(data)
    assert len(light) < len(data) - 2 * INLINE_MIN_BYTES and len(inline) == 2
    p = onnx.ModelProto.FromString(light)
    by_name = {t.name: t for t in p.graph.initializer}
    assert list(by_name) == ["w", "s", "h"]                  # order kept
    assert by_name["s"].raw_data == s.tobytes()             # small: untouched
    for name, a in (("w", w), ("h", h)):
        t = by_name[name]
        assert not t.HasField("raw_data") and t.data_location == TensorProto.EXTERNAL
        loc = {e.key: e.value for e in t.external_data}["location"]
        assert loc.startswith(INLINE_PREFIX)
        view = inline[loc]
        assert isinstance(view, memoryview) and view.obj is data   # no copy
        assert bytes(view) == a.tobytes()
        assert list(t.dims) == list(a.shape) and t.name == name
    # everything but the initializers is as it was
    q = onnx.ModelProto.FromString(data)
    del q.graph.initializer[:]
    del p.graph.initializer[:]
    assert p == q


def test_import_reads_weights_in_place(tmp_path):
    m, w, s, h = _model()
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    for source in (str(path), path.read_bytes()):
        module = import_model(source)
        x, z = RNG.standard_normal((BIG,)).astype(np.float32), np.ones(5, np.float32)
        y, y2 = strata.compile(module, target="interpret", cache=False)(x, z)
        np.testing.assert_array_equal(y, x + w + h.astype(np.float32))
        np.testing.assert_array_equal(y2, z + s)
        blobs = [op.properties["value"].handle for op in module.walk()
                 if op.name == "ml_program.global"]
        kinds = sorted(type(BLOBS[b]).__name__ for b in blobs)
        assert kinds == ["bytes", "memoryview", "memoryview"]


def test_bool_and_packed_weights_in_place(tmp_path):
    """Types whose bytes are decoded (bool normalized, int4 unpacked) from a view too."""
    n = INLINE_MIN_BYTES + 3
    b = RNG.integers(0, 2, (n,)).astype(np.bool_)
    raw = bytearray(b.astype(np.uint8).tobytes())
    raw[1] = 7 if b[1] else 0             # a non-canonical true byte: read as true
    bt = helper.make_tensor("b", TensorProto.BOOL, [n], bytes(raw), raw=True)
    q = RNG.integers(-8, 8, (2 * n,)).astype(np.int8)
    packed = ((q[0::2] & 15) | (q[1::2] & 15) << 4).astype(np.uint8)
    qt = helper.make_tensor("q", TensorProto.INT4, [2 * n], packed.tobytes(), raw=True)
    g = helper.make_graph(
        [helper.make_node("Identity", ["b"], ["yb"]), helper.make_node("Cast", ["q"], ["yq"],
                                                                       to=TensorProto.INT8)],
        "g", [], [helper.make_tensor_value_info("yb", TensorProto.BOOL, [n]),
                  helper.make_tensor_value_info("yq", TensorProto.INT8, [2 * n])], [bt, qt])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    assert len(split_weights(m.SerializeToString())[1]) == 2
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    if raw[1] == 7:
        b[1] = True
    yb, yq = strata.compile(str(path), target="interpret", cache=False)()
    np.testing.assert_array_equal(yb, b)
    np.testing.assert_array_equal(yq, q)


def test_wrong_size_is_reported_by_name(tmp_path):
    m, w, s, h = _model()
    t = m.graph.initializer[0]
    t.dims[0] = BIG + 1                   # the data is one element short
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    with pytest.raises(OnnxImportError, match="initializer 'w'.*needs"):
        import_model(str(path))


@pytest.mark.parametrize("case", ["external", "twice", "truncated", "two graphs"])
def test_unusual_bytes_left_to_protobuf(case):
    m, w, s, h = _model()
    if case == "external":     # raw data and a location: not cut
        e = m.graph.initializer[0].external_data.add()
        e.key, e.value = "location", "w.bin"
        data = m.SerializeToString()
        light, inline = split_weights(data)
        assert len(inline) == 1           # only 'h'
        return
    data = m.SerializeToString()
    if case == "twice":        # raw_data given twice in 'w': protobuf keeps the last
        t = m.graph.initializer[0]
        extra = onnx.TensorProto()
        extra.raw_data = np.zeros(BIG, np.float32).tobytes()
        twice = t.SerializeToString() + extra.SerializeToString()
        del m.graph.initializer[0]
        graph = m.graph.SerializeToString() + _field(5, twice)
        m.ClearField("graph")
        data = m.SerializeToString() + _field(7, graph)
        light, inline = split_weights(data)
        assert len(inline) == 1           # only 'h'
        w2 = [t for t in onnx.ModelProto.FromString(light).graph.initializer
              if t.name == "w"]
        assert w2[0].raw_data == extra.raw_data
        return
    if case == "truncated":
        data = data[:-10]
    else:                       # a second graph field: protobuf merges the two
        g = onnx.ModelProto()
        g.graph.name = "more"
        data = data + g.SerializeToString()
    light, inline = split_weights(data)
    assert light is data and inline == {}


def test_a_location_with_nul_in_the_model_is_refused(tmp_path):
    """A model naming an in-place location itself cannot reach another tensor's bytes:
    the locations hold a nonce drawn per model."""
    m, w, s, h = _model()
    t = m.graph.initializer[1]                  # 's', 5 elements
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add()
    _, inline = split_weights(m.SerializeToString())
    e.key, e.value = "location", next(iter(inline))
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    with pytest.raises(OnnxImportError, match="initializer 's'.*NUL byte"):
        import_model(str(path))


def _field(number, payload):
    from strata.frontends.onnx.wire import _encode_varint
    return _encode_varint(number << 3 | 2) + _encode_varint(len(payload)) + payload


def test_cpu_binds_weights_read_in_place_aligned(tmp_path):
    """A weight read in place lies where its bytes lie in the file; the CPU target binds
    it at an aligned address (a copy when misaligned) and computes with its values."""
    from strata.backends.cpu.target import WEIGHT_ALIGNMENT
    n = INLINE_MIN_BYTES // 4 + 1
    w = RNG.standard_normal((n,)).astype(np.float32)
    for pad in range(1, 17):       # a name length that puts the bytes off alignment
        name = "w" * pad
        g = helper.make_graph(
            [helper.make_node("Add", ["x", name], ["y"])], "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])],
            [numpy_helper.from_array(w, name)])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
        data = m.SerializeToString()
        view = next(iter(split_weights(data)[1].values()))
        if np.frombuffer(view, np.uint8).ctypes.data % WEIGHT_ALIGNMENT:
            break
    else:
        pytest.skip("no misaligned placement found")
    path = tmp_path / "m.onnx"
    path.write_bytes(data)
    f = strata.compile(str(path), cache=False)
    x = RNG.standard_normal((n,)).astype(np.float32)
    np.testing.assert_array_equal(f(x)[0], x + w)
    weights = f._run.__self__._owner.weights
    assert weights and all(a.ctypes.data % WEIGHT_ALIGNMENT == 0 for a in weights.values())
