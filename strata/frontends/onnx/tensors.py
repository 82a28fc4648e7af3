"""ONNX tensors -> dense attributes, and external data read safely.

[Note: external data]
A TensorProto may keep its bytes in a file next to the model (`data_location: EXTERNAL`,
`external_data` entries `location`, `offset`, `length`). The file is read only when it is
inside the model's folder: an absolute location, a `..` that leaves the folder, or a
symbolic link that points out of it is refused, as are offsets and lengths outside the
file and a length that is not the tensor's size. This is what lets models over protobuf's
2 GB limit in: they are loaded with `load_external_data=False` and their weights are read
here, straight into the resource blobs.

[Note: sizes checked first]
A TensorProto declares its dims and, apart, holds its data: a model may declare
[2^40] int64 elements over 8 bytes. ONNX's shape inference and inliner believe the dims
(data propagation allocated 8 GB for that tensor before any error), so the importer
checks every tensor of the model before ONNX's C++ code sees it (`check_tensor`,
`check_sparse`, from GraphImporter.validate): a known element type, dims not negative, the
data's length (raw bytes, typed values, strings, an external file's range, read by
`DataReader.check` without reading the file) the declared size, a sparse tensor's dense
form within this machine's memory. Reading `raw_data` copies it out of the proto, so
the large initializers of the main graph (which shape inference does not see) are only
checked against protobuf's 2 GB there, and exactly when imported, still before decoding.

[Note: raw data]
A dense attribute holds MLIR's raw buffer (strata/ir/dense.py): each element takes
ceil(bits / 8) bytes, little-endian. That is ONNX's `raw_data` layout for every type of 8
bits or more, so those bytes are taken as they are; the packed 2-, 4- and 6-bit types are
unpacked to one byte per element, and the typed fields (`float_data`, `int32_data`...)
are decoded through onnx.numpy_helper.
"""
from __future__ import annotations

import os
import stat

import numpy as np

from ...ir import attributes as A
from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr, \
    DenseStringElementsAttr
from .types import UnknownType, element_size, element_type

__all__ = ["TensorError", "DataReader", "tensor_type", "tensor_attr", "sparse_attr",
           "array_bytes", "check_tensor", "check_sparse"]

_PACKED = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2, 27: 6, 28: 6}  # data type -> bits
_STRING = 8


class TensorError(ValueError):
    """A tensor whose data cannot be taken (the message says why)."""


class DataReader:
    """Reads external tensor data from files inside `base_dir` (see [Note: external
    data]); `base_dir` None refuses every external reference."""

    __slots__ = ("base_dir", "_real_base", "_sizes", "inline")

    def __init__(self, base_dir: str | os.PathLike | None, inline=None):
        self.base_dir = os.fspath(base_dir) if base_dir is not None else None
        self._real_base = os.path.realpath(self.base_dir) if self.base_dir else None
        self._sizes: dict = {}
        # the weights cut out of the model's bytes: location -> memoryview ([Note:
        # weights read in place], wire.py); their locations start with a NUL byte
        self.inline = inline or {}

    def _path(self, location: str) -> str:
        if self.base_dir is None:
            raise TensorError(f"its data is in external file '{location}', but the model "
                              "was not read from a file: pass base_dir=")
        if not location:
            raise TensorError("external data without a location")
        if "\0" in location:
            raise TensorError(f"external data location {location!r} holds a NUL byte")
        norm = location.replace("\\", "/")
        if os.path.isabs(location) or norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
            raise TensorError(f"external data location '{location}' is an absolute path; "
                              "only files inside the model's folder are read")
        if ".." in norm.split("/"):
            raise TensorError(f"external data location '{location}' leaves the model's "
                              "folder")
        path = os.path.join(self.base_dir, *[p for p in norm.split("/") if p])
        real = os.path.realpath(path)
        if os.path.commonpath([real, self._real_base]) != self._real_base:
            raise TensorError(f"external data file '{location}' is a link out of the "
                              "model's folder")
        return real

    def read(self, t, nbytes: int) -> bytes:
        """The `nbytes` external bytes of TensorProto `t` (a read-only memoryview of the
        model's bytes for a weight read in place)."""
        location, path, offset, length = self.check(t, nbytes)
        if path is None:
            return self.inline[location]
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read(length)
        except OSError as e:
            raise TensorError(f"cannot read external data file '{location}': "
                              f"{e.strerror}") from None
        if len(data) != length:
            raise TensorError(f"external data file '{location}' ended early")
        return data

    def check(self, t, nbytes: int):
        """(location, path, offset, length) of the `nbytes` external bytes of TensorProto
        `t`, checked against the file's size (the file is not read)."""
        info = {}
        for e in t.external_data:
            if e.key in info:
                raise TensorError(f"external data key '{e.key}' given twice")
            info[e.key] = e.value
        location = info.get("location", "")
        data = self.inline.get(location)
        if data is not None:
            if len(data) != nbytes:
                raise TensorError(f"tensor has {len(data)} bytes of data, "
                                  f"{tensor_type(t)} needs {nbytes}")
            return location, None, 0, nbytes
        path = self._path(location)
        try:
            offset = int(info.get("offset", "0"))
            length = int(info["length"]) if "length" in info else None
        except ValueError:
            raise TensorError("external data offset or length is not an integer") from None
        size = self._sizes.get(path)
        if size is None:
            try:
                st = os.stat(path)
            except OSError as e:
                raise TensorError(f"cannot read external data file '{location}': "
                                  f"{e.strerror}") from None
            if not stat.S_ISREG(st.st_mode):
                raise TensorError(f"external data file '{location}' is not a regular file")
            size = self._sizes[path] = st.st_size
        if offset < 0 or (length is not None and length < 0):
            raise TensorError("external data offset and length must not be negative")
        if length is None:
            length = size - offset
        if offset + length > size:
            raise TensorError(f"external data [{offset}, {offset + length}) lies outside "
                              f"file '{location}' of {size} bytes")
        if length != nbytes:
            raise TensorError(f"external data has {length} bytes, the tensor needs {nbytes}")
        return location, path, offset, length


def tensor_type(t):
    """The ranked tensor type of TensorProto `t`."""
    if t.data_type == 0:
        raise TensorError("tensor without an element type")
    if any(d < 0 for d in t.dims):
        raise TensorError(f"tensor has a negative dimension: {list(t.dims)}")
    try:
        return A.RankedTensorType(list(t.dims), element_type(t.data_type))
    except UnknownType as e:
        raise TensorError(str(e)) from None


def _count(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


# Protobuf's limit on a message: no tensor holds more bytes inside the model.
_PROTO_LIMIT = 2 ** 31


def _stored(t, n: int) -> int:
    """Bytes of numeric TensorProto `t`'s `n` elements as ONNX stores them."""
    bits = _PACKED.get(t.data_type)
    return (n * bits + 7) // 8 if bits else n * element_size(t.data_type)


def _typed_count(t) -> int:
    """The elements the typed field of numeric TensorProto `t` holds."""
    import onnx
    dt = t.data_type
    have = len(getattr(t, onnx.helper.tensor_dtype_to_field(dt)))
    bits = _PACKED.get(dt)
    if dt in (14, 15):  # complex: two values each
        return have // 2
    if bits in (2, 4):
        return have * (8 // bits)
    return have


def check_tensor(t, reader: DataReader | None, exact: bool = True) -> None:
    """TensorProto `t`'s declared type and size against the data it holds, reading
    nothing large (see [Note: sizes checked first]); `exact=False` checks `raw_data`
    only against protobuf's limit (its length would copy it)."""
    import onnx
    type_ = tensor_type(t)
    if t.HasField("segment"):
        raise TensorError("tensor segments are not supported")
    n = _count(t.dims)
    external = t.data_location == onnx.TensorProto.EXTERNAL
    if t.data_type == _STRING:
        if external:
            raise TensorError("string tensors cannot keep their data externally")
        if len(t.string_data) != n:
            raise TensorError(f"tensor has {len(t.string_data)} strings, {type_} needs {n}")
        return
    stored = _stored(t, n)
    if external:
        if reader is None:
            raise TensorError("external data is not allowed here")
        reader.check(t, stored)
    elif t.HasField("raw_data"):
        if not exact and stored >= _PROTO_LIMIT:
            raise TensorError(f"{type_} needs {stored} bytes, more than a model holds "
                              "outside external data (2 GB)")
        if exact and len(t.raw_data) != stored:
            raise TensorError(f"tensor has {len(t.raw_data)} bytes of data, {type_} needs "
                              f"{stored}")
    else:
        have = _typed_count(t)
        if have != n and (t.data_type not in _PACKED or have < n):
            raise TensorError(f"tensor has {have} value{'s' * (have != 1)}, {type_} needs "
                              f"{n}")


def _memory_bytes() -> int:
    """This machine's physical memory (2^63 where it cannot be told)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2 ** 63


def check_sparse(sp, reader: DataReader | None) -> None:
    """A SparseTensorProto's values, indices and dense shape (see [Note: sizes checked
    first]): its dense form, which the importer makes, must fit in memory."""
    dims = list(sp.dims)
    if any(d < 0 for d in dims):
        raise TensorError(f"sparse tensor has a negative dimension: {dims}")
    values, indices = sp.values, sp.indices
    check_tensor(values, reader)
    if values.data_type == _STRING:
        raise TensorError("sparse string tensors are not supported")
    if len(values.dims) != 1:
        raise TensorError("sparse tensor values must be a 1-D tensor")
    if indices.data_type != 7:
        raise TensorError("sparse tensor indices must be int64")
    check_tensor(indices, reader)
    nnz = values.dims[0]
    if list(indices.dims) not in ([nnz], [nnz, len(dims)]):
        raise TensorError(f"sparse tensor indices have shape {list(indices.dims)}, expected "
                          f"[{nnz}] or [{nnz}, {len(dims)}]")
    n = _count(dims)
    nbytes = max(n, 1) * element_size(values.data_type)
    limit = _memory_bytes()
    if nbytes > limit:
        raise TensorError(f"sparse tensor of shape {dims} is {nbytes} bytes dense, more "
                          f"than this machine's memory ({limit} bytes)")


def array_bytes(a: np.ndarray, data_type: int) -> bytes:
    """MLIR's raw buffer of array `a` of ONNX element type `data_type`."""
    a = np.ascontiguousarray(a).reshape(-1)
    bits = _PACKED.get(data_type)
    if bits is not None:
        if data_type in (22, 26):  # int4, int2: sign-extended values, masked to the width
            return (a.astype(np.int8).view(np.uint8) & ((1 << bits) - 1)).tobytes()
        return (a.view(np.uint8) if a.dtype.itemsize == 1 else a.astype(np.uint8)).tobytes()
    if a.dtype == np.bool_:
        return a.astype(np.uint8).tobytes()
    if a.dtype.kind == "V" or a.dtype.name in ("bfloat16",) or a.dtype.name.startswith("float8"):
        return a.view("u%d" % a.dtype.itemsize).astype("<u%d" % a.dtype.itemsize).tobytes()
    return a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def _raw(t, reader: DataReader | None) -> bytes:
    """MLIR raw bytes of numeric TensorProto `t`."""
    import onnx
    from onnx import numpy_helper
    n = _count(t.dims)
    dt = t.data_type
    bits = _PACKED.get(dt)
    stored = _stored(t, n)
    if t.HasField("segment"):
        raise TensorError("tensor segments are not supported")
    external = t.data_location == onnx.TensorProto.EXTERNAL
    if external:
        if reader is None:
            raise TensorError("external data is not allowed here")
        data = reader.read(t, stored)
    elif t.HasField("raw_data"):
        data = t.raw_data
        if len(data) != stored:
            raise TensorError(f"tensor has {len(data)} bytes of data, "
                              f"{tensor_type(t)} needs {stored}")
    else:
        data = None
    if data is not None:
        if type(data) is not bytes and (dt == 9 or bits is not None):
            data = bytes(data)   # a weight read in place (a memoryview): decoded below
        if bits is None:
            if dt == 9 and data.strip(b"\0\1"):
                return (np.frombuffer(data, np.uint8) != 0).astype(np.uint8).tobytes()
            return data
        tmp = onnx.TensorProto()
        tmp.data_type = dt
        tmp.dims.extend(t.dims)
        tmp.raw_data = data
        return array_bytes(numpy_helper.to_array(tmp), dt)
    have = _typed_count(t)
    if bits is None and have != n or bits is not None and have < n:
        raise TensorError(f"tensor has {have} value{'s' * (have != 1)}, {tensor_type(t)} "
                          f"needs {n}")
    try:
        a = numpy_helper.to_array(t)
    except (ValueError, TypeError) as e:
        raise TensorError(f"cannot decode tensor data: {e}") from None
    return array_bytes(a, dt)


def tensor_attr(t, reader: DataReader | None, resource: str | None = None,
                min_elements: int = 0):
    """The attribute holding TensorProto `t`: `dense<...>`, or with `resource` a
    `dense_resource<name>` whose blob (registered in BLOBS under `resource` or a
    renamed variant) holds the data; with `min_elements`, only a tensor of that many
    elements or more that is not a splat (initializers are always resources). String
    tensors are always dense."""
    type_ = tensor_type(t)
    if t.data_type == _STRING:
        if t.data_location == 1:
            raise TensorError("string tensors cannot keep their data externally")
        strings = list(t.string_data)
        if len(strings) != type_.num_elements:
            raise TensorError(f"tensor has {len(strings)} strings, {type_} needs "
                              f"{type_.num_elements}")
        return DenseStringElementsAttr(type_, strings) if strings else \
            DenseStringElementsAttr(type_, np.empty(0, object))
    raw = _raw(t, reader)
    n = type_.num_elements
    if resource is not None and (not min_elements or n >= min_elements and not (
            n > 1 and raw == bytes(raw[:len(raw) // n]) * n)):
        handle = BLOBS.add(resource, raw, alignment=_alignment(t.data_type))
        return DenseResourceElementsAttr(type_, handle)
    return DenseElementsAttr.from_raw(type_, raw)


def _alignment(data_type: int) -> int:
    size = element_size(data_type)
    return 8 if size > 8 else max(size, 1)


def sparse_attr(sp, reader: DataReader | None, resource: str | None = None):
    """A SparseTensorProto as a dense attribute (zeros where no value is given)."""
    check_sparse(sp, reader)
    values, indices = sp.values, sp.indices
    dims = list(sp.dims)
    if any(d < 0 for d in dims):
        raise TensorError(f"sparse tensor has a negative dimension: {dims}")
    vt = tensor_type(values)
    if values.data_type == _STRING:
        raise TensorError("sparse string tensors are not supported")
    if len(values.dims) != 1:
        raise TensorError("sparse tensor values must be a 1-D tensor")
    nnz = values.dims[0]
    vals = _decoded(values, reader)
    idx = np.frombuffer(_raw(indices, reader), np.int64) if indices.data_type == 7 else None
    if idx is None:
        raise TensorError("sparse tensor indices must be int64")
    n = _count(dims)
    if list(indices.dims) == [nnz]:
        flat = idx
    elif list(indices.dims) == [nnz, len(dims)]:
        idx = idx.reshape(nnz, len(dims))
        if idx.size and ((idx < 0).any() or (idx >= np.array(dims)).any()):
            raise TensorError("sparse tensor index out of range")
        flat = np.ravel_multi_index(tuple(idx.T), dims) if idx.size else idx.reshape(0)
    else:
        raise TensorError(f"sparse tensor indices have shape {list(indices.dims)}, expected "
                          f"[{nnz}] or [{nnz}, {len(dims)}]")
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise TensorError("sparse tensor index out of range")
    try:
        dense = np.zeros(n, vals.dtype)
    except MemoryError:
        raise TensorError(f"sparse tensor of shape {dims}: no memory for its dense form "
                          f"({n * vals.dtype.itemsize} bytes)") from None
    dense[flat] = vals
    raw = array_bytes(dense, values.data_type)
    type_ = A.RankedTensorType(dims, vt.element_type)
    if resource is not None:
        handle = BLOBS.add(resource, raw, alignment=_alignment(values.data_type))
        return DenseResourceElementsAttr(type_, handle)
    return DenseElementsAttr.from_raw(type_, raw)


def _decoded(t, reader) -> np.ndarray:
    """The values of numeric TensorProto `t` as a flat array of its storage dtype."""
    import onnx
    from onnx import numpy_helper
    tmp = onnx.TensorProto()
    tmp.data_type = t.data_type
    tmp.dims.extend(t.dims)
    raw = _raw(t, reader)
    bits = _PACKED.get(t.data_type)
    if bits is not None:
        return np.frombuffer(raw, np.uint8)
    tmp.raw_data = raw
    return numpy_helper.to_array(tmp).reshape(-1)
