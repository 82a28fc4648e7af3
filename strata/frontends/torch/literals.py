"""PyTorch values as IR: dtypes as element types and ScalarType codes, tensors as the
`value` of `torch.vtensor.literal`.

[Note: tensor literals]
Parameters, buffers and lifted constants of an ExportedProgram are frozen into the module
as torch-mlir's FxImporter freezes them:

    %0 = torch.vtensor.literal(dense_resource<fc.weight> : tensor<4x3xf32>)
           : !torch.vtensor<[4,3],f32>
    %1 = torch.vtensor.literal(dense<2> : tensor<si64>) : !torch.vtensor<[],si64>

- A tensor of one element is a `dense<...>` attribute; any other is a `dense_resource`
  blob in the `{-# dialect_resources #-}` section, its alignment the element size (what
  MLIR's Python bindings give a NumPy buffer). The attribute's element type is the
  tensor's as torch-mlir writes it (`si64`, `ui8`, `f32`...): signedness kept.
- One blob per tensor object: every use of a parameter reads the same blob (a literal op
  per use, as FxImporter emits them), while two tensors that merely hold equal data get
  blobs of their own. A blob is named after the state the tensor came from (`fc.weight`,
  `bn.running_mean`, the lifted constant's name), else `torch_tensor_<shape>_<dtype>`
  as torch-mlir names it; a name already taken gets `_1`, `_2`... as MLIR renames.
- A bool tensor is stored as `ui8` and converted back by `torch.prims.convert_element_type`
  (MLIR has no byte-per-element i1 blobs), as FxImporter does.
- A blob is the tensor's own storage, read in place, not a copy ([Note: tensors read in
  place] below).

[Note: tensors read in place]
The blob of a CPU tensor whose elements lie contiguous in its storage (a parameter,
almost always) is a read-only view of that storage: importing GPT-2's 500 MB of weights
copied them all once (`tobytes`: 0.2-0.8 s of CPU), and the copy, 32 bytes into a bytes
object, sat off the cache lines the CPU target places weights on, so it was copied once
more there (heap.py). Only a tensor that must be made so first (on another device,
strided, a conjugate or negative view, a bool one stored as `ui8`) is copied, once, into
a tensor of its own. torch's CPU allocator gives storage at 64-byte multiples, so a
parameter's blob is where the target wants it already. The blob holds the tensor (the
NumPy view's base) alive as long as it lives.

A compiled model holds the weights as they were when it was compiled (the contract of
`strata.compile(ExportedProgram)` and of an nn.Module exported by it; torch.compile's
backend freezes parameters and guards them, recompiling after a change: [Note: frozen
parameters] in dynamo.py): a parameter written in place after the compile
(`p.mul_(2)`, an optimizer's step, `load_state_dict`) does not change its answers. So a
blob read in place is *lent* ([Note: lent blobs] in strata/ir/dense.py): nothing in the
compile writes it, and the target copies a lent weight it binds as it is (GEMM weights
are packed, which writes new memory anyway), so the weights pay one pass over them, not
three. Writing a parameter while its compile runs, from another thread, is a race the
user owns, as with any reader of the tensor.

The `torch-externalize-weights` pass (externalize.py) later moves these blobs into
`ml_program.global`s. Nothing here imports torch at module level.
"""
from __future__ import annotations

from ...dialects.torch import types as _T
from ...ir import attributes as A
from ...ir.dense import BLOBS, DenseElementsAttr, DenseResourceElementsAttr

__all__ = ["dtype_info", "SCALAR_TYPE_CODES", "LAYOUT_CODES", "MEMORY_FORMAT_CODES",
           "tensor_literal_attr", "fresh_blob_name"]

# torch dtype name -> c10::ScalarType number (the dialect's table, strata/dialects/torch).
SCALAR_TYPE_CODES = {name: number for number, (name, _) in _T.DTYPES.items()}
LAYOUT_CODES = {"strided": 0, "sparse_coo": 1, "sparse_csr": 2, "sparse_csc": 3,
                "sparse_bsr": 4, "sparse_bsc": 5}
MEMORY_FORMAT_CODES = {"contiguous_format": 0, "preserve_format": 1, "channels_last": 2,
                       "channels_last_3d": 3}


def _name(obj) -> str:
    """`torch.float32` -> "float32" (dtypes, layouts and memory formats print so)."""
    return str(obj).rpartition(".")[2]


def dtype_info(dtype):
    """(element type, ScalarType number) of a torch dtype, or None if unsupported."""
    t = _T.dtype_of_torch_name(_name(dtype))
    return None if t is None else (t, _T.scalar_type_number(t))


def fresh_blob_name(base: str) -> str:
    """`base`, or `base_1`, `base_2`... : the first name no blob has yet."""
    name, i = base, 0
    while name in BLOBS:
        i += 1
        name = f"{base}_{i}"
    return name


def tensor_literal_attr(tensor, element_type, name: str | None = None):
    """The `value` of the literal for a (non-bool, dense, CPU-readable) torch tensor: a
    `dense<...>` of one element, else a new `dense_resource` blob named after `name` (see
    [Note: tensor literals]), the tensor's storage read in place where it can be ([Note:
    tensors read in place]). `element_type` is its dtype as the dialect spells it."""
    import torch
    type_ = A.RankedTensorType(list(tensor.shape), element_type)
    t = tensor.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    t = t.resolve_conj().resolve_neg().contiguous().reshape(-1)
    itemsize = t.element_size()
    if tensor.numel() == 1:
        return DenseElementsAttr.from_raw(type_, t.view(torch.uint8).numpy().tobytes())
    if name is None:
        shape = "_".join(str(d) for d in tensor.shape)
        name = f"torch_tensor_{shape}_{tensor.dtype}"
    handle = fresh_blob_name(name)
    if not t.numel():
        BLOBS.set(handle, b"", alignment=0)     # MLIR's empty blob
        return DenseResourceElementsAttr(type_, handle)
    raw = t.view(torch.uint8).numpy()           # the storage itself (holds `t` alive)
    raw.flags.writeable = False
    # lent when it is the caller's storage, not a copy made above
    lent = t.untyped_storage().data_ptr() == tensor.untyped_storage().data_ptr()
    BLOBS.set(handle, memoryview(raw), alignment=itemsize, lent=lent)
    return DenseResourceElementsAttr(type_, handle)
