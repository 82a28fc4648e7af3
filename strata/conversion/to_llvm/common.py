"""What the *-to-llvm passes share: the pattern base class, the conversion target and
the driver that runs one family of patterns as a partial conversion."""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...rewrite.conversion import (ConversionConfig, ConversionPattern,
                                   ConversionTarget, apply_partial_conversion)
from .builder import LLVMBuilder
from .type_converter import LLVMTypeConverter

__all__ = ["LLVMPattern", "llvm_target", "run_llvm_conversion", "fastmath_of",
           "overflow_of", "lookup_or_declare", "symbol_table_body"]


class LLVMPattern(ConversionPattern):
    """A conversion pattern to the llvm dialect: `self.tc` is the LLVMTypeConverter,
    `self.builder(rewriter, op)` an LLVMBuilder before `op`."""

    def __init__(self, tc: LLVMTypeConverter, root=None, **options):
        super().__init__(tc, root=root)
        self.tc = tc
        self.options = options

    def builder(self, rewriter, op):
        tc = self.tc
        return LLVMBuilder(rewriter, op.loc, tc.fold_aggregates,
                           tc.constants if tc.fold_aggregates else None)

    @property
    def index_type(self):
        return self.tc.index_type


def llvm_target() -> ConversionTarget:
    """Upstream's LLVMConversionTarget: the llvm dialect and unrealized casts are legal."""
    t = ConversionTarget()
    t.add_legal_dialect("llvm")
    t.add_legal_op("builtin.unrealized_conversion_cast")
    return t


def run_llvm_conversion(op, patterns, illegal=(), legal=(), dynamic=None, fold=True):
    """Partial conversion of `op` with `patterns`: the ops (or dialects, by bare name)
    in `illegal` must all be converted, `legal` ones stay; `fold`: each op's folder is
    tried before its patterns (the driver's default, as upstream)."""
    target = llvm_target()
    for x in illegal:
        if "." in x:
            target.add_illegal_op(x)
        else:
            target.add_illegal_dialect(x)
    for x in legal:
        target.add_legal_op(x)
    if dynamic:
        for name, fn in dynamic.items():
            target.add_dynamically_legal_op(name, fn)
    apply_partial_conversion([op], target, patterns,
                             config=None if fold else ConversionConfig(fold=False))


# ---------------------------------------------------------------- flags


def fastmath_of(op):
    """The op's arith/math fast-math flags as an llvm fastmath attribute, or None."""
    a = op._props.get("fastmath")
    if a is None or a.value == "none":
        return None
    return LT.FASTMATH(a.value)


def overflow_of(op):
    """The op's arith overflow flags as the llvm attribute, or None."""
    a = op._props.get("overflowFlags")
    if a is None or a.value == "none":
        return None
    from ...dialects.llvm.arith_ops import OVERFLOW_FLAGS
    return A.IntegerAttr(sum(OVERFLOW_FLAGS[f] for f in a.flags), A.i32)


# ---------------------------------------------------------------- symbols


# Ops whose body holds the functions and globals a lowering declares (upstream: the
# nearest op with the SymbolTable trait): a GPU kernel's helpers go into its gpu.module.
SYMBOL_TABLE_OPS = ("builtin.module", "gpu.module")


def symbol_table_body(op):
    """The body block of the module around `op` (or `op` itself, a module) that its
    declarations go into: the nearest builtin.module or gpu.module."""
    mod = op
    while mod.parent_op is not None and mod.name not in SYMBOL_TABLE_OPS:
        mod = mod.parent_op
    return mod.regions[0].blocks[0]


def lookup_or_declare(rewriter, anchor, name, ftype, cache=None):
    """The llvm.func `name` of the module around `anchor`, declared (`llvm.func @name(...)`
    at the start of the module) if absent; as upstream's lookupOrCreateFn."""
    body = symbol_table_body(anchor)
    # the last answer per module and name while it is still there (a model's entry
    # function calls malloc and free hundreds of times): `cache`, a dict per conversion
    key = (id(body), name)
    o = cache.get(key) if cache is not None else None
    if o is not None and o.parent is body and o._props["sym_name"].value == name:
        return o
    for o in body.ops:
        if o._props.get("sym_name") is not None and o._props["sym_name"].value == name:
            if cache is not None:
                cache[key] = o
            return o
    from ...ir.builder import InsertionPoint
    from .builder import llvm_op
    f = llvm_op("llvm.func").new(name, ftype, body=False, loc=anchor.loc)
    saved = rewriter.ip
    rewriter.ip = InsertionPoint.at_start(body)
    try:
        rewriter.insert(f)
    finally:
        rewriter.ip = saved
    if cache is not None:
        cache[key] = f
    return f


def int_type_like(t, width):
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, A.IntegerType(width))
    return A.IntegerType(width)


def insert_string_global(builder, body, name: str, text: str, loc):
    """A private constant global `name` holding `text` NUL-terminated (an i8 array), at
    the start of `body` (a module's block), inserted through `builder` (a rewriter or a
    Builder: its insertion point is restored): assert messages, allocation sites."""
    from ...dialects.llvm import types as LT
    from ...ir import attributes as A
    from ...ir.builder import InsertionPoint
    from .builder import llvm_op
    data = text.encode() + b"\0"
    g = llvm_op("llvm.mlir.global").new(name, LT.LLVMArrayType(len(data), A.i8),
                                        A.StringAttr(data.decode("latin-1")),
                                        linkage="private", constant=True, loc=loc)
    saved = builder.ip
    builder.ip = InsertionPoint.at_start(body)
    try:
        builder.insert(g)
    finally:
        builder.ip = saved
