"""An ONNX file's weights kept where they lie: the main graph's large `raw_data` fields
cut out of the serialized model before protobuf parses it, and read in place.

    data = open("model.onnx", "rb").read()
    light, inline = split_weights(data)          # light: the model without those bytes
    proto = onnx.ModelProto.FromString(light)    # each cut initializer now reads, e.g.
    #   data_location: EXTERNAL  external_data { key: "location" value: "\\0inline-<nonce>:3" }
    inline["\\0inline-<nonce>:3"]                 # a memoryview of `data`: no copy

[Note: weights read in place]
Parsing a model copies every initializer's bytes into protobuf's memory, and reading
`raw_data` copies them again into a Python bytes object: with the file read, three copies
of the weights before the importer sees one (BERT-base, 415 MB: 0.45 s of the 0.75 s
import). `split_weights` walks the protobuf wire format of the ModelProto (field 7, the
graph) and of its GraphProto (field 5, the initializers) and rewrites each TensorProto
whose `raw_data` (field 9) has at least INLINE_MIN_BYTES as an external-data tensor whose
location names an entry of the returned dict, a view of the file's bytes. The location
starts with a NUL byte, which no file location may hold (DataReader refuses it), so it
cannot name a user's file, and holds a random nonce drawn per model, so a model cannot
name another tensor's bytes by writing such a location itself; DataReader.inline
resolves it. Anything unusual (a field given
twice, a tensor with external data already, a malformed varint) leaves the model as it is:
protobuf then parses, and reports, the original bytes.
"""
from __future__ import annotations

import os

__all__ = ["split_weights", "INLINE_MIN_BYTES", "INLINE_PREFIX"]

# raw_data fields at least this long are read in place (smaller ones: the copies are
# cheap, and ONNX's shape inference sees their values: importer._INFER_MAX_ELEMENTS).
INLINE_MIN_BYTES = 1 << 16
INLINE_PREFIX = "\0inline-"


class _Malformed(Exception):
    pass


def _varint(data, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise _Malformed
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _encode_varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _fields(data, start: int, end: int):
    """(field number, wire type, field start, value start, value end) of each field."""
    pos = start
    while pos < end:
        at = pos
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, nxt = _varint(data, pos)
        elif wire == 1:
            nxt = pos + 8
        elif wire == 2:
            n, pos = _varint(data, pos)
            nxt = pos + n
        elif wire == 5:
            nxt = pos + 4
        else:  # groups (3, 4) and invalid wire types: not in an ONNX model
            raise _Malformed
        if nxt > end or number == 0:
            raise _Malformed
        yield number, wire, at, pos, nxt
        pos = nxt


def _field(number: int, wire: int, payload: bytes) -> bytes:
    return _encode_varint(number << 3 | wire) + payload


def _tensor(data, start: int, end: int, location: str):
    """The TensorProto at data[start:end] without its raw_data, as an external-data tensor
    at `location`, and (raw start, raw end); None when it is not one to cut."""
    raw = None
    parts = []
    for number, wire, at, vs, ve in _fields(data, start, end):
        if number == 9 and wire == 2:
            if raw is not None:
                return None     # given twice (protobuf keeps the last): leave it
            raw = (vs, ve)
            continue
        if number in (13, 14):  # external_data / data_location already
            return None
        parts.append(data[at:ve])
    if raw is None or raw[1] - raw[0] < INLINE_MIN_BYTES:
        return None
    loc = location.encode()
    entry = _field(1, 2, _encode_varint(8) + b"location") + \
        _field(2, 2, _encode_varint(len(loc)) + loc)
    parts.append(_field(13, 2, _encode_varint(len(entry)) + entry))
    parts.append(_field(14, 0, b"\x01"))     # data_location: EXTERNAL
    return b"".join(parts), raw


def split_weights(data: bytes):
    """(the serialized model with its large main-graph initializers' raw bytes cut out,
    {location: memoryview of `data`}) (see [Note: weights read in place]); (data, {})
    when there is nothing to cut or the bytes do not read as a model."""
    try:
        return _split(data)
    except _Malformed:
        return data, {}


def _split(data):
    view = memoryview(data)
    graphs = [f for f in _fields(data, 0, len(data)) if f[0] == 7]
    if len(graphs) != 1 or graphs[0][1] != 2:
        return data, {}     # no graph, or parts protobuf would merge: leave it
    _, _, gat, gs, ge = graphs[0]
    inline, parts, cut = {}, [], False
    prefix = f"{INLINE_PREFIX}{os.urandom(8).hex()}:"
    for number, wire, at, vs, ve in _fields(data, gs, ge):
        if number == 5 and wire == 2 and ve - vs >= INLINE_MIN_BYTES:
            location = f"{prefix}{len(inline)}"
            t = _tensor(data, vs, ve, location)
            if t is not None:
                body, (rs, re) = t
                inline[location] = view[rs:re]
                parts.append(_field(5, 2, _encode_varint(len(body)) + body))
                cut = True
                continue
        parts.append(view[at:ve])
    if not cut:
        return data, {}
    graph = b"".join(parts)
    light = b"".join((view[:gat], _field(7, 2, _encode_varint(len(graph)) + graph),
                      view[ge:]))
    return light, inline
