"""ONNX model -> IR module: `import_model(path | bytes | ModelProto)`.

[Note: the imported module]
    module attributes {onnx.opset_import = {ai.onnx = 18 : i64}, onnx.ir_version = 8 : i64,
                       onnx.producer_name = "pytorch", ...} {
      ml_program.global private @w(dense_resource<w> : tensor<4x3xf32>) : tensor<4x3xf32>
      func.func @main(%arg0: tensor<?x3xf32> {onnx.dim_params = ["N", ""], onnx.name = "X"})
          -> (tensor<?x4xf32> {onnx.name = "Y"}) {
        %0 = ml_program.global_load_const @w : tensor<4x3xf32>
        %1 = "onnx.Gemm"(%arg0, %0) <{transB = 1 : i64}> : (...) -> tensor<?x4xf32>
        func.return %1 : tensor<?x4xf32>
      }
    }

Graph inputs are the arguments of @main and graph outputs its results, named by the
`onnx.name` argument/result attribute; symbolic dims keep their names in
`onnx.dim_params`. Initializers are private constant globals whose data is a resource
blob (or `dense<...>` with inline_constants). An initializer that is also a graph input
is, from IR version 4 on, that input's default value: the argument stays and carries
`onnx.default = @global`; before IR version 4 such an initializer is a constant.
Model-local functions are inlined first; types come from ONNX shape inference (its
failure is tolerated: types then come from the model's own value_info and the schemas).
Nodes translate one to one (strata/frontends/onnx/graph.py).
"""
from __future__ import annotations

import os

from ...ir import attributes as A
from ...ir.core import Block
from ...ir.diagnostics import DiagnosticError
from ...ir.location import FileLineColLoc
from . import _dialect as D
from .errors import OnnxImportError, describe_node
from .graph import GraphImporter, Scope
from .tensors import DataReader
from .types import UnknownType, convert_type, dim_params

__all__ = ["import_model", "load_model"]

_PROTOBUF_LIMIT = 2 ** 31


def load_model(model, base_dir=None):
    """(ModelProto, file name or None, base dir or None) of a path, bytes or ModelProto.
    External data is never loaded here (see tensors.DataReader)."""
    proto, filename, base_dir, _ = _load(model, base_dir, False)
    return proto, filename, base_dir


def _load(model, base_dir, in_place: bool):
    """load_model's (proto, file name, base dir) and the weights read in place
    (`in_place`: [Note: weights read in place], wire.py; {} otherwise)."""
    import onnx
    if isinstance(model, onnx.ModelProto):
        return model, None, os.fspath(base_dir) if base_dir is not None else None, {}
    if isinstance(model, (bytes, bytearray, memoryview)):
        proto, inline = _parse(bytes(model), None, in_place)
        return proto, None, base_dir, inline
    if not isinstance(model, (str, os.PathLike)):
        raise OnnxImportError(f"expected a file path, bytes or an onnx.ModelProto, got "
                              f"{type(model).__name__}")
    path = os.fspath(model)
    try:
        size = os.path.getsize(path)
        if size >= _PROTOBUF_LIMIT:
            raise OnnxImportError(f"the file has {size} bytes: a model file over 2 GB cannot "
                                  "be parsed (protobuf's limit); keep its weights as "
                                  "external data", filename=path)
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise OnnxImportError(f"cannot read the model: {e.strerror}", filename=path) from None
    proto, inline = _parse(data, path, in_place)
    if base_dir is None:
        base_dir = os.path.dirname(os.path.abspath(path))
    return proto, path, base_dir, inline


def _parse(data: bytes, path, in_place: bool = False):
    """(ModelProto, weights read in place) of the serialized model `data`."""
    import onnx
    from google.protobuf.message import DecodeError
    inline = {}
    if in_place:
        from .wire import split_weights
        data, inline = split_weights(data)
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except (DecodeError, ValueError, RuntimeError) as e:
        raise OnnxImportError(f"not an ONNX model (protobuf parse failed: {e})",
                              filename=path) from None
    if not proto.HasField("graph"):
        raise OnnxImportError("not an ONNX model (it has no graph)", filename=path)
    return proto, inline


def import_model(model, *, expand_functions: bool = False, inline_constants: bool = False,
                 base_dir=None):
    """Import an ONNX model (a file path, serialized bytes or an onnx.ModelProto) as a
    module in the onnx dialect (see [Note: the imported module]).

    `expand_functions` runs `onnx-decompose` on the result (ops with a schema function
    become the ops of that function); `inline_constants` keeps initializers and large
    constants as `dense<...>` instead of resources. External data is read from files
    under `base_dir` (by default the model file's folder). Raises OnnxImportError."""
    proto, filename, base_dir, inline = _load(model, base_dir, True)
    try:
        module = _ModelImporter(proto, filename, DataReader(base_dir, inline),
                                inline_constants).run()
        if expand_functions:
            from .decompose import decompose_module
            decompose_module(module)
    except OnnxImportError as e:
        raise e.with_filename(filename) from None
    return module


def _opsets(proto) -> dict:
    out = {}
    for o in proto.opset_import:
        if not isinstance(o.domain, str):  # protobuf hands invalid UTF-8 over as bytes
            raise OnnxImportError(f"opset_import domain {o.domain!r} is not valid UTF-8")
        d = D.domain_of_key(o.domain)
        if d in out:
            raise OnnxImportError(f"opset_import names domain '{D.domain_key(d)}' twice")
        if o.version < 1:
            raise OnnxImportError(f"opset_import has version {o.version} for domain "
                                  f"'{D.domain_key(d)}'")
        out[d] = o.version
    if not proto.opset_import and proto.ir_version < 3:
        out[""] = 1  # before IR version 3 the default opset was implied
    return out


def _inline_local_functions(proto):
    import onnx.inliner
    seen = set()
    for f in proto.functions:
        key = (f.domain, f.name, f.overload)
        if key in seen:
            raise OnnxImportError(f"model-local function '{f.name}' of domain '{f.domain}' "
                                  "is defined twice")
        seen.add(key)
    try:
        return onnx.inliner.inline_local_functions(proto)
    except Exception as e:  # the C++ inliner's errors: malformed functions
        raise OnnxImportError(f"cannot inline the model-local functions: {e}") from None


def _validate_function(gi: GraphImporter, f):
    """The structure of a model-local function (names defined once, before use)."""
    where = f" in function '{f.name}' of domain '{f.domain}'"
    if not f.name:
        raise OnnxImportError("a model-local function has no name")
    inputs = set(f.input)
    order = gi._order(f, inputs.__contains__, inputs.__contains__, where)
    for i in order:  # the tensors of its nodes' attributes, before the inliner copies them
        n = f.node[i]
        desc = describe_node(n.name, n.op_type, i, where)
        gi.check_attribute_data(n, desc)
        for a in n.attribute:
            for sg in ([a.g] if a.HasField("g") else a.graphs):
                _check_subgraph_data(gi, sg, f" in graph '{sg.name}' of {desc}")
    produced = inputs | {o for n in f.node for o in n.output if o}
    for o in f.output:
        if o not in produced:
            raise OnnxImportError(f"output '{o}'{where} is not defined")


def _check_subgraph_data(gi: GraphImporter, g, where: str):
    """The data of a function's subgraph `g` (see GraphImporter.check_graph_data)."""
    gi.check_graph_data(g, where)
    for i, n in enumerate(g.node):
        desc = describe_node(n.name, n.op_type, i, where)
        gi.check_attribute_data(n, desc)
        for a in n.attribute:
            for sg in ([a.g] if a.HasField("g") else a.graphs):
                _check_subgraph_data(gi, sg, f" in graph '{sg.name}' of {desc}")


def _nodes(g):
    for n in g.node:
        yield n
        for a in n.attribute:
            for sg in ([a.g] if a.HasField("g") else a.graphs):
                yield from _nodes(sg)


def _without_trailing_omitted(proto):
    """The model with trailing omitted ("") inputs and outputs of its nodes dropped (the
    same model to ONNX; its shape inference crashes on some of them). A copy only when
    something is dropped."""
    if not any(n.input and not n.input[-1] or n.output and not n.output[-1]
               for n in _nodes(proto.graph)):
        return proto
    import onnx
    copy = onnx.ModelProto()
    copy.CopyFrom(proto)
    for n in _nodes(copy.graph):
        while n.input and not n.input[-1]:
            del n.input[-1]
        while n.output and not n.output[-1]:
            del n.output[-1]
    return copy


# Initializers with more elements are left out of the copy of the model that ONNX's
# shape inference sees (it serializes the whole model and parses it back; weights say
# nothing about shapes): they become graph inputs of their type there.
_INFER_MAX_ELEMENTS = 1 << 12


def _infer_shapes(proto):
    """The model (trailing omitted values dropped) with ONNX's inferred value_info; its
    large initializers may be missing (read them from `proto`)."""
    import onnx.shape_inference
    light, added = _without_weights(proto)
    stripped = light is not proto
    light = _without_trailing_omitted(light)
    try:
        inferred = onnx.shape_inference.infer_shapes(light, check_type=False,
                                                     strict_mode=False, data_prop=True)
    except Exception:  # inference is a help: without it types come from value_info
        inferred = light
    else:  # (a copy: `light` may be the caller's model)
        from .pool_shapes import mend_inferred_pools
        mend_inferred_pools(inferred)  # see [Note: ceil_mode windows]
    if stripped:  # the inputs that stood for the weights out (copying the weights
        g = inferred.graph      # back took a tenth of a second for MiniLM's 90 MB)
        inputs = [vi for vi in g.input if vi.name not in added]
        del g.input[:]
        g.input.extend(inputs)
    return inferred


def _without_weights(proto):
    """(a copy of `proto` whose large initializers are graph inputs instead, the names of
    those added inputs), or (`proto`, empty) when it has no large initializer."""
    from onnx import ModelProto, helper
    g = proto.graph
    names = {vi.name for vi in g.input}
    big = [t for t in g.initializer if _elements(t.dims) > _INFER_MAX_ELEMENTS]
    if not big:
        return proto, set()
    light = ModelProto()
    light.ir_version = proto.ir_version
    light.opset_import.extend(proto.opset_import)
    light.functions.extend(proto.functions)
    lg = light.graph
    lg.name = g.name
    lg.node.extend(g.node)
    lg.input.extend(g.input)
    lg.output.extend(g.output)
    lg.value_info.extend(g.value_info)
    lg.sparse_initializer.extend(g.sparse_initializer)
    skip = {t.name for t in big}
    lg.initializer.extend(t for t in g.initializer if t.name not in skip)
    added = set()
    for t in big:
        if t.name not in names:
            lg.input.append(helper.make_tensor_value_info(t.name, t.data_type, t.dims))
            added.add(t.name)
    return light, added


def _elements(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


class _ModelImporter:
    def __init__(self, proto, filename, reader, inline_constants):
        self.proto = proto
        self.filename = filename
        self.reader = reader
        self.inline_constants = inline_constants

    def run(self):
        from ...dialects.builtin import ModuleOp
        original = self.proto
        opsets = _opsets(original)
        module = ModuleOp.new()
        module.attributes.update(_module_attributes(original, opsets))
        file_loc = FileLineColLoc(self.filename, 0, 0) if self.filename else None
        gi = GraphImporter(opsets, reader=self.reader, inline_constants=self.inline_constants,
                           module_block=module.block, symbols={"main"}, file_loc=file_loc)
        # Everything is checked before ONNX's C++ code (inliner, shape inference) runs:
        # it may crash on malformed graphs.
        proto = original
        if original.functions:
            for f in original.functions:
                _validate_function(gi, f)
            gi.validate(original.graph, functions={(f.domain, f.name) for f in
                                                   original.functions},
                        lazy_above=_INFER_MAX_ELEMENTS)
            proto = _inline_local_functions(original)
        gi.validate(proto.graph, lazy_above=_INFER_MAX_ELEMENTS)
        gi.validated = True
        inferred = _infer_shapes(proto)
        # the initializers from `proto`: the inferred copy may lack the large ones
        self._main(gi, module, inferred.graph, original.graph,
                   inferred.ir_version or original.ir_version, proto.graph)
        try:
            module.verify()
        except DiagnosticError as e:
            raise gi.error_of(e) from None
        return module

    def _main(self, gi: GraphImporter, module, g, declared, ir_version: int, weights=None):
        """@main: graph inputs -> arguments, initializers -> globals, nodes, outputs.
        The initializers are those of graph `weights` (default `g`)."""
        from ...dialects.func import FuncOp, ReturnOp
        scope = Scope(None, gi.graph_types(g))
        weights = g if weights is None else weights
        inits = {t.name: t for t in weights.initializer}
        inits.update((sp.values.name, sp) for sp in weights.sparse_initializer)
        declared_inputs = {vi.name: vi for vi in declared.input}
        arg_types, arg_attrs, arg_names, defaults = [], [], [], set()
        for vi in g.input:
            if vi.name in inits and ir_version < 4:
                continue  # an old-style initializer listed among the inputs: a constant
            if not vi.name:
                raise OnnxImportError("a graph input has no name")
            if vi.name in arg_names:
                raise OnnxImportError(f"graph input '{vi.name}' is listed twice")
            tp = scope.types.get(vi.name)
            if tp is None:
                raise OnnxImportError(f"graph input '{vi.name}' has no type")
            try:
                t = convert_type(tp)
            except UnknownType as e:
                raise OnnxImportError(f"graph input '{vi.name}': {e}") from None
            attrs = {"onnx.name": A.StringAttr(vi.name)}
            dvi = declared_inputs.get(vi.name)
            params = dim_params(dvi.type) if dvi is not None else None
            if params:
                attrs["onnx.dim_params"] = A.ArrayAttr([A.StringAttr(p) for p in params])
            init = inits.get(vi.name)
            if init is not None:
                sym, gtype = (gi.make_global(vi.name, init) if hasattr(init, "dims")
                              else gi.make_global(vi.name, None, init))
                if gtype is not t and not _compatible(gtype, t):
                    raise OnnxImportError(f"graph input '{vi.name}' has type {t}, its "
                                          f"default (initializer) has type {gtype}")
                attrs["onnx.default"] = A.SymbolRefAttr(sym)
                defaults.add(vi.name)
            arg_types.append(t)
            arg_attrs.append(A.DictionaryAttr(attrs))
            arg_names.append(vi.name)
        block = Block(arg_types, [gi.loc(n) for n in arg_names])
        # In the module from the start: the dialect's verifier finds the opset there.
        func = FuncOp.new("main", A.FunctionType(arg_types, []), loc=gi.loc(g.name or "main"),
                          body=False)
        func.regions[0].add_block(block)
        module.block.append(func)
        for name, arg in zip(arg_names, block.args):
            scope.values[name] = arg
        gi.define_initializers(weights, scope, block, skip=defaults)
        gi.import_nodes(g, scope, block)
        declared_outputs = {vi.name: vi for vi in declared.output}
        results, res_attrs = [], []
        for vi in g.output:
            v = scope.lookup(vi.name)
            if v is None:
                raise OnnxImportError(f"graph output '{vi.name}' is not defined")
            results.append(v)
            attrs = {"onnx.name": A.StringAttr(vi.name)}
            dvi = declared_outputs.get(vi.name)
            params = dim_params(dvi.type) if dvi is not None else None
            if params:
                attrs["onnx.dim_params"] = A.ArrayAttr([A.StringAttr(p) for p in params])
            res_attrs.append(A.DictionaryAttr(attrs))
        func.properties["function_type"] = A.TypeAttr(
            A.FunctionType(arg_types, [v.type for v in results]))
        if arg_attrs:
            func.properties["arg_attrs"] = A.ArrayAttr(arg_attrs)
        if res_attrs:
            func.properties["res_attrs"] = A.ArrayAttr(res_attrs)
        block.append(ReturnOp.build(loc=gi.loc(g.name or "main"), operands_=results))
        return func


def _compatible(a, b) -> bool:
    """Whether a static type `a` fits a possibly less precise type `b`."""
    if isinstance(b, A.UnrankedTensorType):
        return getattr(a, "element_type", None) is b.element_type
    if isinstance(a, A.RankedTensorType) and isinstance(b, A.RankedTensorType):
        return a.element_type is b.element_type and len(a.shape) == len(b.shape) and all(
            y == A.DYNAMIC or x == y for x, y in zip(a.shape, b.shape))
    return False


def _module_attributes(proto, opsets) -> dict:
    out = {
        "onnx.opset_import": A.DictionaryAttr(
            {D.domain_key(d): A.IntegerAttr(v, A.i64) for d, v in opsets.items()}),
        "onnx.ir_version": A.IntegerAttr(proto.ir_version, A.i64),
    }
    for field in ("producer_name", "producer_version", "domain"):
        v = getattr(proto, field)
        if v:
            out["onnx." + field] = A.StringAttr(_text(v))
    if proto.model_version:
        out["onnx.model_version"] = A.IntegerAttr(proto.model_version, A.i64)
    if proto.graph.name:
        out["onnx.graph_name"] = A.StringAttr(_text(proto.graph.name))
    if proto.metadata_props:
        out["onnx.metadata_props"] = A.DictionaryAttr(
            {_text(p.key): A.StringAttr(_text(p.value)) for p in proto.metadata_props})
    return out


def _text(s) -> str:
    """A proto string field as str (protobuf gives invalid UTF-8 as bytes)."""
    return s if isinstance(s, str) else s.decode("utf-8", "surrogateescape")

