"""The gpu dialect: kernels, launches and the SIMT execution model, as upstream MLIR
prints them.

    module attributes {gpu.container_module} {
      gpu.module @kernels {
        gpu.func @scale(%x: memref<?xf32>, %n: index) kernel {
          %i = gpu.global_id x
          ...
          gpu.return
        }
      }
      func.func @main(%x: memref<?xf32>, %n: index, %blocks: index) {
        %c256 = arith.constant 256 : index
        %c1 = arith.constant 1 : index
        gpu.launch_func @kernels::@scale blocks in (%blocks, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %n : index)
        return
      }
    }

Structure: `gpu.module` (a symbol table of kernels, optionally with `[#nvvm.target]`
targets), `gpu.func` (a kernel with the `kernel` keyword, or a device function; its
`workgroup(...)` / `private(...)` attributions are extra entry block arguments, memrefs
shared by a block / private to a thread), `gpu.return`, `gpu.launch` (the kernel body
inline; its region's arguments are the block and thread ids and the grid and block
sizes, in upstream's order), `gpu.terminator`, `gpu.launch_func` (a launch of an
outlined kernel). Ids and sizes: `gpu.thread_id|block_id|block_dim|grid_dim|global_id|
cluster_* x|y|z`, `gpu.lane_id`, `gpu.subgroup_id|num_subgroups|subgroup_size`.
Synchronization and communication: `gpu.barrier`, `gpu.shuffle xor|up|down|idx`,
`gpu.rotate`, `gpu.subgroup_reduce`, `gpu.all_reduce` (+ `gpu.yield`). Host-side
memory and streams: `gpu.alloc|dealloc|memcpy|memset|wait` with optional
`async [%deps]` tokens (`!gpu.async.token`). Attributes: `#gpu.dim<x>`,
`#gpu.shuffle_mode<xor>`, `#gpu.all_reduce_op<add>`, `#gpu.barrier_scope<workgroup>`,
`#gpu.address_space<global|workgroup|private>` (a memref memory space: integer 3 and
5 mean workgroup and private too, as in NVVM's numbering). Other `#gpu.*` attributes
(the scf.forall mappings `#gpu.thread<x>`, `#gpu.block<y>`, `#gpu.mask<3>`, objects) are
kept as written.

[Note: gpu.container_module]
A module that launches outlined kernels carries the unit attribute
`gpu.container_module`; upstream checks, on that module, that every `gpu.launch_func`
below it names a `gpu.module` nested in it and a `kernel` gpu.func in that module whose
argument count and types match the launch's. Here `LaunchFuncOp.verify_symbol_uses`
does those checks (the same messages, on the launch op), and the launch itself requires
the attribute on its closest enclosing builtin.module.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.core import Block, Region
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.enum_attr import EnumAttr, EnumAttrKind
from ..ir.ods import (Op, Operand, OptOperand, OptProp, Prop, RegionDef, Result, VarOperand,
                      VarResult, OptResult)
from ..syntax.asm_format import (AttrFormat, BareInt, StrippedAttr, SymbolName, UnitKeyword,
                                 custom_op_prefix, install_format)
from ..syntax.lexer import BARE, PERCENT, PUNCT, STRING

__all__ = ["GPU", "DIM", "SHUFFLE_MODE", "ALL_REDUCE_OP", "ADDRESS_SPACE", "BARRIER_SCOPE",
           "AsyncTokenType", "async_token", "address_space_of", "EnumKeyword",
           "WORKGROUP_ADDRESS_SPACE", "PRIVATE_ADDRESS_SPACE"]


# ---------------------------------------------------------------- attributes and types

DIM = EnumAttrKind("gpu", "dim", ["x", "y", "z"], cpp_name="::mlir::gpu::Dimension")
SHUFFLE_MODE = EnumAttrKind("gpu", "shuffle_mode", ["xor", "up", "down", "idx"],
                            cpp_name="::mlir::gpu::ShuffleMode")
ALL_REDUCE_OP = EnumAttrKind(
    "gpu", "all_reduce_op", ["add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi",
                             "maxnumf", "and", "or", "xor", "minimumf", "maximumf",
                             "minimumnumf", "maximumnumf"],
    cpp_name="::mlir::gpu::AllReduceOperation")
ADDRESS_SPACE = EnumAttrKind("gpu", "address_space",
                             ["global", "workgroup", "private", "constant"],
                             cpp_name="::mlir::gpu::AddressSpace")
BARRIER_SCOPE = EnumAttrKind("gpu", "barrier_scope", ["subgroup", "workgroup", "cluster"],
                             cpp_name="::mlir::gpu::BarrierScope")
MMA_ELEMENTWISE = EnumAttrKind(
    "gpu", "mma_element_wise", ["addf", "mulf", "subf", "maxf", "minf", "divf", "addi", "muli",
                                "subi", "divs", "divu", "negatef", "negates", "extf", "truncf"],
    cpp_name="::mlir::gpu::MMAElementwiseOp")
BROADCAST = EnumAttrKind("gpu", "broadcast", ["first_active_lane", "specific_lane"],
                         cpp_name="::mlir::gpu::BroadcastType")
_ENUMS = {k.mnemonic: k for k in (DIM, SHUFFLE_MODE, ALL_REDUCE_OP, ADDRESS_SPACE,
                                  BARRIER_SCOPE, MMA_ELEMENTWISE, BROADCAST)}

# NVVM's numbering of the address spaces a memref may name by integer.
WORKGROUP_ADDRESS_SPACE = 3
PRIVATE_ADDRESS_SPACE = 5


def address_space_of(t) -> str | None:
    """'global', 'workgroup' or 'private' for a memref type's memory space
    (`#gpu.address_space<...>`, or NVVM's integers 1, 3 and 5), None for the default."""
    ms = getattr(t, "memory_space", None)
    if ms is None:
        return None
    if type(ms) is EnumAttr and ms.kind is ADDRESS_SPACE:
        return ms.value
    if type(ms) is A.IntegerAttr:
        return {1: "global", WORKGROUP_ADDRESS_SPACE: "workgroup",
                PRIVATE_ADDRESS_SPACE: "private"}.get(ms.value)
    return None


class AsyncTokenType(A.Type):
    """`!gpu.async.token`: orders asynchronous gpu ops (a stream position)."""

    __slots__ = ()
    dialect = "gpu"

    def __new__(cls):
        return A.unique(cls, (), lambda o: None)

    def _print(self):
        return "!gpu.async.token"


async_token = AsyncTokenType()


class MMAMatrixType(A.Type):
    """`!gpu.mma_matrix<16x16xf16, "AOp">`: a matrix operand of a subgroup (warp) matrix
    multiply, distributed over the subgroup's threads in a way the target defines."""

    __slots__ = ("shape", "element_type", "operand")
    dialect = "gpu"

    def __new__(cls, shape, element_type, operand):
        shape = tuple(shape)

        def init(o):
            o.shape = shape
            o.element_type = element_type
            o.operand = operand
        return A.unique(cls, (shape, element_type, operand), init)

    def _print(self):
        return ("!gpu.mma_matrix<" + "x".join(map(str, self.shape)) +
                f'x{self.element_type}, "{self.operand}">')


def _mma_elt_ok(t):
    return t in (A.f16, A.f32, A.i32) or (type(t) is A.IntegerType and t.width == 8 and
                                          t.signedness != 0)


def _parse_mma_matrix(p, start):
    p.expect("<")
    dims, _ = p._parse_dims(allow_unranked=False)
    elt = p.parse_type()
    p.expect(",")
    op = p.parse_string()
    p.expect(">")
    if len(dims) != 2:
        p.error("MMAMatrixType must have exactly two dimensions", start)
    if not _mma_elt_ok(elt):
        p.error("MMAMatrixType elements must be SI8, UI8, I32, F16, or F32", start)
    if op not in ("AOp", "BOp", "COp"):
        p.error("operand expected to be one of AOp, BOp or COp", start)
    return MMAMatrixType(dims, elt, op)
AsyncToken = C.Constraint(lambda t: type(t) is AsyncTokenType, "async token type")


def _parse_attribute(p, mnemonic):
    kind = _ENUMS.get(mnemonic)
    if kind is not None:
        return kind.parse_body(p)
    if mnemonic == "object":
        return _parse_object(p)
    # The device mapping attributes of scf.forall (#gpu.thread<x>, #gpu.mask<3>...) and
    # compilation objects are kept as written.
    body = p.parse_raw_angle_body() if p.kind == PUNCT and p.tok == "<" else ""
    return A.OpaqueAttr("gpu", "." + mnemonic + body)


def _parse_type(p, mnemonic):
    if mnemonic == "async.token":
        return async_token
    if mnemonic == "mma_matrix":
        return _parse_mma_matrix(p, p.tok_start)
    p.error(f"unknown gpu type: {mnemonic}")


class EnumKeyword(AttrFormat):
    """An enum attribute written as its bare case in a custom form (`gpu.thread_id x`,
    `gpu.shuffle xor`)."""

    def __init__(self, kind: EnumAttrKind, what: str | None = None):
        self.kind = kind
        self.what = what  # the property's name, for upstream's error

    def parse(self, p):
        kw = p.tok if p.kind == BARE else p.tok[1:-1] if p.kind == STRING else None
        if kw not in self.kind.cases:
            p.error(custom_op_prefix(p) + "expected string or keyword containing one of "
                    "the following enum values for attribute "
                    f"'{self.what or self.kind.mnemonic}' [{', '.join(self.kind.cases)}]")
        p._next()
        return self.kind(kw)

    def print(self, pr, a):
        return a.value

    def can_start(self, p):
        return p.kind == BARE and p.tok in self.kind.cases


def _enum(kind):
    return C.Constraint(lambda a: type(a) is EnumAttr and a.kind is kind,
                        f"{kind.mnemonic} attribute")


# ---------------------------------------------------------------- async dependencies

def _parse_async(p):
    """`async [%t0, %t1]` of a hand-written form: (whether `async`, resolved deps)."""
    token = p.parse_optional_keyword("async")
    deps = []
    if p.kind == PUNCT and p.tok == "[":
        deps = [p.resolve_operand(r, async_token) for r in p.parse_operand_list("[")]
    return token, deps


class _AsyncOp:
    """custom<AsyncDependencies>: `async [%t0, %t1]`; `async` when the op returns a token,
    `[...]` when it waits for some."""

    @staticmethod
    def parse_AsyncDependencies(p, st, ctx, token_type, deps):
        token_def = token_type[1] if isinstance(token_type, tuple) else token_type
        start = p.tok_start
        has = p.parse_optional_keyword("async")
        if has and st.cls is WaitOp and not getattr(p, "num_bound_results", 1):
            p.error(custom_op_prefix(p) + "needs to be named when marked 'async'", start)
        refs = []
        if p.kind == PUNCT and p.tok == "[":
            refs = p.parse_operand_list("[")
        ctx.operands[deps.name] = refs
        ctx.types[deps.name] = [async_token] * len(refs)
        ctx.types[token_def.name] = [async_token] if has else []

    def print_AsyncDependencies(self, pr, token, deps):
        s = "async" if token is not None else ""
        if deps:
            s += (" " if s else "") + "[" + ", ".join(pr.value(v) for v in deps) + "]"
        return s


# ---------------------------------------------------------------- gpu.module

class _ArrayOnly(AttrFormat):
    """An optional array attribute of a custom form: present when `[` follows."""

    def can_start(self, p):
        return p.kind == PUNCT and p.tok == "["


class ModuleOp(Op):
    """`gpu.module @kernels [#nvvm.target<chip = "sm_90">] { gpu.func ... }`"""

    name = "gpu.module"
    traits = (T.IsolatedFromAbove, T.SymbolTable, T.Symbol, T.SingleBlock, T.NoTerminator,
              T.NoRegionArguments)
    sym_name = Prop(C.SymbolNameAttr, fmt=SymbolName())
    targets = OptProp(C.Constraint(lambda a: type(a) is A.ArrayAttr and len(a) > 0,
                                   "array of GPU target attributes with at least 1 elements"))
    targets.fmt = _ArrayOnly()
    offloadingHandler = OptProp()
    bodyRegion = RegionDef()
    assembly = ("$sym_name (`<` $offloadingHandler^ `>`)? ($targets^)? attr-dict-with-keyword "
                "$bodyRegion")

    @classmethod
    def new(cls, name, targets=None, loc=None):
        m = cls.build(loc=loc, sym_name=A.StringAttr(name), targets=targets)
        m.regions[0].add_block(Block())
        return m

    @staticmethod
    def finish_parse(op):
        r = op.regions[0]
        if not r.blocks:
            r.add_block(Block())

    def verify_(self):
        t = self.properties.get("targets")
        if t is not None:
            for a in t:
                if isinstance(a, (A.IntegerAttr, A.FloatAttr, A.StringAttr, A.ArrayAttr,
                                  A.DictionaryAttr, A.UnitAttr, A.TypeAttr)):
                    return ("attribute 'targets' failed to satisfy constraint: array of "
                            "GPU target attributes with at least 1 elements")
        return None


# ---------------------------------------------------------------- gpu.func

_FUNC_SIGNATURE = frozenset({"sym_name", "function_type", "arg_attrs", "res_attrs",
                             "workgroup_attributions", "kernel", "workgroup_attrib_attrs",
                             "private_attrib_attrs", "sym_visibility"})


def _parse_arg(p, attrs_list):
    ref = p.parse_operand()
    p.expect(":")
    t = p.parse_type()
    attrs = p.parse_attr_dict_body() if p.kind == PUNCT and p.tok == "{" else None
    loc = p.parse_optional_trailing_loc()
    attrs_list.append(attrs)
    return (ref[0], ref[1], t, loc)


def _parse_args(p, attrs_list):
    args = []
    p.expect("(")
    if p.consume_if(")"):
        return args
    while True:
        args.append(_parse_arg(p, attrs_list))
        if not p.consume_if(","):
            break
    p.expect(")")
    return args


def _dict_array(attrs):
    if not any(attrs):
        return None
    return A.ArrayAttr(A.DictionaryAttr(d or {}) for d in attrs)


class FuncOp(Op):
    """`gpu.func @k(%a: f32) workgroup(%w : memref<32xf32, 3>) kernel { gpu.return }`:
    a kernel (`kernel`, launched from the host) or a device function; workgroup and
    private attributions follow the signature's arguments in the entry block."""

    name = "gpu.func"
    traits = (T.IsolatedFromAbove, T.Symbol, T.AutomaticAllocationScope,
              T.HasParent("gpu.module"))
    sym_name = Prop(C.SymbolNameAttr)
    function_type = Prop(C.FunctionTypeAttr)
    arg_attrs = OptProp(C.DictArrayAttrC)
    res_attrs = OptProp(C.DictArrayAttrC)
    workgroup_attrib_attrs = OptProp(C.DictArrayAttrC)
    private_attrib_attrs = OptProp(C.DictArrayAttrC)
    kernel = OptProp(C.UnitAttrC)
    known_block_size = OptProp(C.DenseI32Array)
    known_grid_size = OptProp(C.DenseI32Array)
    known_cluster_size = OptProp(C.DenseI32Array)
    workgroup_attributions = OptProp(C.I64Attr)
    body = RegionDef()

    @classmethod
    def new(cls, name, function_type, kernel=False, workgroup=(), private=(), loc=None):
        f = cls.build(loc=loc, sym_name=A.StringAttr(name),
                      function_type=A.TypeAttr(function_type),
                      kernel=A.UnitAttr() if kernel else None,
                      workgroup_attributions=A.IntegerAttr(len(workgroup), A.i64)
                      if workgroup else None)
        f.regions[0].add_block(Block(list(function_type.inputs) + list(workgroup) +
                                     list(private)))
        return f

    @property
    def type(self) -> A.FunctionType:
        return self.properties["function_type"].value

    @property
    def is_kernel(self) -> bool:
        return "kernel" in self._props or "gpu.kernel" in self._attrs

    @property
    def num_workgroup_attributions(self) -> int:
        a = self._props.get("workgroup_attributions")
        return a.value if a is not None else 0

    @property
    def workgroup_attributions_args(self):
        n = len(self.type.inputs)
        return self.regions[0].blocks[0].args[n:n + self.num_workgroup_attributions]

    @property
    def private_attributions_args(self):
        n = len(self.type.inputs) + self.num_workgroup_attributions
        return self.regions[0].blocks[0].args[n:]

    # -- CallableOpInterface
    def callable_region(self):
        r = self.regions[0]
        return r if r.blocks else None

    def callable_result_types(self):
        return list(self.type.results)

    @staticmethod
    def parse(p, st):
        props = st.properties
        props["sym_name"] = A.StringAttr(p.parse_symbol_name())
        arg_attrs, res_attrs, wg_attrs, pv_attrs = [], [], [], []
        sig = p.tok_start
        if p.at("(") and p.text[sig + 1:].lstrip()[:1] not in ("%", ")"):
            p.error(custom_op_prefix(p) + "gpu.func requires named arguments", sig)
        args = _parse_args(p, arg_attrs)
        results = []
        if p.consume_if("->"):
            if p.at("("):
                p._next()
                if not p.consume_if(")"):
                    while True:
                        results.append(p.parse_type())
                        res_attrs.append(p.parse_attr_dict_body()
                                         if p.kind == PUNCT and p.tok == "{" else None)
                        if not p.consume_if(","):
                            break
                    p.expect(")")
            else:
                results.append(p.parse_type())
        props["function_type"] = A.TypeAttr(A.FunctionType([a[2] for a in args], results))
        wg, pv = [], []
        if p.parse_optional_keyword("workgroup"):
            wg = _parse_args(p, wg_attrs)
            if wg:
                props["workgroup_attributions"] = A.IntegerAttr(len(wg), A.i64)
        if p.parse_optional_keyword("private"):
            pv = _parse_args(p, pv_attrs)
        if p.parse_optional_keyword("kernel"):
            props["kernel"] = A.UnitAttr()
        p.parse_optional_attr_dict(st, with_keyword=True)
        for key, given in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs),
                           ("workgroup_attrib_attrs", wg_attrs),
                           ("private_attrib_attrs", pv_attrs)):
            a = _dict_array(given)
            if a is not None:
                props[key] = a
        r = p.parse_region(args=args + wg + pv, isolated=True, op_cls=FuncOp)
        if not r.blocks:
            p.error("expected non-empty function body")
        st.regions.append(r)

    def print(self, pr):
        out = pr.out
        props = self._props
        ft = self.type
        entry = self.regions[0].blocks[0]
        out.append(pr.op_name(self) + " " + A.print_symbol_name(props["sym_name"].value))

        def arg_list(args, attrs, sep):
            parts = []
            for i, a in enumerate(args):
                s = f"{pr.value(a)}{sep}{pr.type_str(a.type)}"
                if attrs is not None and i < len(attrs) and len(attrs[i]):
                    s += " " + pr.attr_str(attrs[i])
                if pr.options.debuginfo and a.loc is not None:
                    s += " " + pr.loc_str(a.loc)
                parts.append(s)
            return "(" + ", ".join(parts) + ")"

        n = len(ft.inputs)
        out.append(arg_list(entry.args[:n], props.get("arg_attrs"), ": "))
        if ft.results:
            ra = props.get("res_attrs")
            rs = []
            for i, t in enumerate(ft.results):
                s = pr.type_str(t)
                if ra is not None and i < len(ra) and len(ra[i]):
                    s += " " + pr.attr_str(ra[i])
                rs.append(s)
            if len(rs) == 1 and (ra is None or not len(ra[0])) and \
                    not isinstance(ft.results[0], A.FunctionType):
                out.append(" -> " + rs[0])
            else:
                out.append(" -> (" + ", ".join(rs) + ")")
        nw = self.num_workgroup_attributions
        if nw:
            out.append(" workgroup" + arg_list(entry.args[n:n + nw],
                                               props.get("workgroup_attrib_attrs"), " : "))
        if len(entry.args) > n + nw:
            out.append(" private" + arg_list(entry.args[n + nw:],
                                             props.get("private_attrib_attrs"), " : "))
        if self.is_kernel:
            out.append(" kernel")
        extra = {k: v for k, v in props.items() if k not in _FUNC_SIGNATURE}
        extra.update((k, v) for k, v in self._attrs.items() if k != "gpu.kernel")
        pr.print_optional_attr_dict(extra, with_keyword=True)
        out.append(" ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)

    def verify_(self):
        ft = self.type
        if self.is_kernel and ft.results:
            return "expected void return type for kernel function"
        for key, what, n in (("arg_attrs", "argument", len(ft.inputs)),
                             ("res_attrs", "result", len(ft.results))):
            v = self._props.get(key)
            if v is not None and len(v) != n:
                return (f"expects {what} attribute array to have the same number of "
                        f"elements as the number of function {what}s, got {len(v)}, but "
                        f"expected {n}")
        body = self.regions[0]
        if not body.blocks:
            return "expected body with at least one block"
        entry = body.blocks[0]
        nw = self.num_workgroup_attributions
        need = len(ft.inputs) + nw
        if len(entry.args) < need:
            return f"expected at least {need} arguments to body region"
        for i, t in enumerate(ft.inputs):
            if entry.args[i].type is not t:
                return (f"expected body region argument #{i} to be of type {t}, got "
                        f"{entry.args[i].type}")
        err = _verify_attributions(entry.args[len(ft.inputs):need], "workgroup")
        if err is None:
            err = _verify_attributions(entry.args[need:], "private")
        return err


def _verify_attributions(args, space):
    for a in args:
        t = a.type
        if type(t) is not A.MemRefType:
            return "expected memref type in attribution"
        ms = t.memory_space
        if type(ms) is EnumAttr and ms.kind is ADDRESS_SPACE and ms.value != space:
            return f"expected memory space {space} in attribution"
    return None


class ReturnOp(Op):
    """`gpu.return %a : f32`"""

    name = "gpu.return"
    traits = (T.Pure, T.HasParent("gpu.func"), T.ReturnLike, T.Terminator)
    operands_ = VarOperand()
    assembly = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_(self):
        f = self.parent_op
        results = f.type.results
        vals = self.operands
        if len(vals) != len(results):
            d = Diagnostic(ERROR, self.loc, f"'gpu.return' op expected {len(results)} "
                                            "result operands")
            d.op = self
            d.attach_note("return type declared here", f.loc)
            raise DiagnosticError(d)
        for i, (v, t) in enumerate(zip(vals, results)):
            if v.type is not t:
                return f"unexpected type `'{v.type}'' for operand #{i}"
        return None


# ---------------------------------------------------------------- ids and sizes

class _IndexOp(Op):
    traits = (T.Pure,)
    result = Result(C.Index)

    @classmethod
    def infer_result_types(cls, operands, props):
        return [A.index]


class _DimOp(_IndexOp):
    """An index along `x`, `y` or `z`, optionally with a known `upper_bound`."""

    dimension = Prop(_enum(DIM), fmt=EnumKeyword(DIM, "dimension"))
    upper_bound = OptProp(C.IndexAttr)
    upper_bound.fmt = BareInt(A.index)
    assembly = "$dimension (`upper_bound` $upper_bound^)? attr-dict"

    @classmethod
    def new(cls, dim: str, loc=None):
        return cls.build(loc=loc, dimension=DIM(dim), result=A.index)

    def asm_result_names(self):
        return [self.name[4:] + "_" + self._props["dimension"].value]


def _dim_op(name, doc):
    cls = type(name.split(".")[1].title().replace("_", "") + "Op", (_DimOp,),
               {"name": name, "__doc__": doc, "__module__": __name__})
    install_format(cls)
    return cls


ThreadIdOp = _dim_op("gpu.thread_id", "`%t = gpu.thread_id x`: the thread's id in its block")
BlockIdOp = _dim_op("gpu.block_id", "`%b = gpu.block_id x`: the block's id in the grid")
BlockDimOp = _dim_op("gpu.block_dim", "`%n = gpu.block_dim x`: threads per block")
GridDimOp = _dim_op("gpu.grid_dim", "`%n = gpu.grid_dim x`: blocks in the grid")
GlobalIdOp = _dim_op("gpu.global_id", "`%i = gpu.global_id x`: block_id * block_dim + "
                                      "thread_id")
ClusterIdOp = _dim_op("gpu.cluster_id", "`%c = gpu.cluster_id x`: the cluster's id")
ClusterDimOp = _dim_op("gpu.cluster_dim", "`%n = gpu.cluster_dim x`: clusters in the grid")
ClusterBlockIdOp = _dim_op("gpu.cluster_block_id",
                           "`%b = gpu.cluster_block_id x`: the block's id in its cluster")
ClusterDimBlocksOp = _dim_op("gpu.cluster_dim_blocks",
                             "`%n = gpu.cluster_dim_blocks x`: blocks per cluster")


class LaneIdOp(_IndexOp):
    """`%l = gpu.lane_id`: the thread's lane in its subgroup (warp)."""

    name = "gpu.lane_id"
    upper_bound = OptProp(C.IndexAttr)
    upper_bound.fmt = BareInt(A.index)
    assembly = "(`upper_bound` $upper_bound^)? attr-dict"


class _SubgroupIndexOp(_IndexOp):
    upper_bound = OptProp(C.IndexAttr)
    upper_bound.fmt = BareInt(A.index)
    assembly = "(`upper_bound` $upper_bound^)? attr-dict `:` type($result)"


class SubgroupIdOp(_SubgroupIndexOp):
    """`%s = gpu.subgroup_id : index`"""
    name = "gpu.subgroup_id"


class NumSubgroupsOp(_SubgroupIndexOp):
    """`%n = gpu.num_subgroups : index`"""
    name = "gpu.num_subgroups"


class SubgroupSizeOp(_SubgroupIndexOp):
    """`%n = gpu.subgroup_size : index` (32 on NVIDIA GPUs)"""
    name = "gpu.subgroup_size"


# ---------------------------------------------------------------- launches

_LAUNCH_KEYS = ("blocks", "threads", "clusters")


def _launch_dims(p):
    """`(%bx, %by, %bz) in (%gx = %a, %gy = %b, %gz = %c)`: ids, size args, operands."""
    ids = [(r[0], r[1], A.index, None) for r in p.parse_operand_list("(")]
    if len(ids) != 3:
        p.error(custom_op_prefix(p) + "expected 3 arguments", p.tok_start)
    p.parse_keyword("in")
    p.expect("(")
    sizes, operands = [], []
    for i in range(3):
        r = p.parse_operand()
        sizes.append((r[0], r[1], A.index, None))
        p.expect("=")
        operands.append(p.resolve_operand(p.parse_operand(), A.index))
        if i < 2:
            p.expect(",")
    p.expect(")")
    return ids, sizes, operands


class LaunchOp(_AsyncOp, Op):
    """`gpu.launch blocks(%bx, %by, %bz) in (%gx = %a, %gy = %b, %gz = %c)
    threads(%tx, %ty, %tz) in (%sx = %d, %sy = %e, %sz = %f) { ... gpu.terminator }`:
    the body runs once per thread; its entry block's arguments are the block ids,
    thread ids, grid sizes and block sizes (then cluster ids and sizes with
    `clusters(...)`, then workgroup and private attributions)."""

    name = "gpu.launch"
    traits = (T.AttrSizedOperandSegments, T.AutomaticAllocationScope,
              T.RecursiveMemoryEffects)
    asyncDependencies = VarOperand(AsyncToken)
    gridSizeX = Operand(C.Index)
    gridSizeY = Operand(C.Index)
    gridSizeZ = Operand(C.Index)
    blockSizeX = Operand(C.Index)
    blockSizeY = Operand(C.Index)
    blockSizeZ = Operand(C.Index)
    clusterSizeX = OptOperand(C.Index)
    clusterSizeY = OptOperand(C.Index)
    clusterSizeZ = OptOperand(C.Index)
    dynamicSharedMemorySize = OptOperand(C.AnyInteger)
    asyncObject = OptOperand()
    asyncToken = OptResult(AsyncToken)
    module = OptProp(C.FlatSymbolRefAttr)
    function = OptProp(C.FlatSymbolRefAttr)
    workgroup_attributions = OptProp(C.I64Attr)
    body = RegionDef()

    @property
    def has_clusters(self) -> bool:
        return self.clusterSizeX is not None

    @property
    def num_workgroup_attributions(self) -> int:
        a = self._props.get("workgroup_attributions")
        return a.value if a is not None else 0

    @property
    def num_config_args(self) -> int:
        return 18 if self.has_clusters else 12

    @staticmethod
    def parse(p, st):
        ctx_ops = {}
        token, deps = _parse_async(p)
        cl_ids = cl_sizes = None
        cl_ops = []
        if p.parse_optional_keyword("clusters"):
            cl_ids, cl_sizes, cl_ops = _launch_dims(p)
        p.parse_keyword("blocks")
        b_ids, g_sizes, g_ops = _launch_dims(p)
        p.parse_keyword("threads")
        t_ids, b_sizes, b_ops = _launch_dims(p)
        dyn = []
        if p.parse_optional_keyword("dynamic_shared_memory_size"):
            dyn = [p.resolve_operand(p.parse_operand(), A.i32)]
        if p.parse_optional_keyword("module"):
            p.expect("(")
            st.properties["module"] = A.SymbolRefAttr(p.parse_symbol_name())
            p.expect(")")
        if p.parse_optional_keyword("function"):
            p.expect("(")
            st.properties["function"] = A.SymbolRefAttr(p.parse_symbol_name())
            p.expect(")")
        wg, pv, ignored = [], [], []
        if p.parse_optional_keyword("workgroup"):
            wg = _parse_args(p, ignored)
            if wg:
                st.properties["workgroup_attributions"] = A.IntegerAttr(len(wg), A.i64)
        if p.parse_optional_keyword("private"):
            pv = _parse_args(p, ignored)
        args = b_ids + t_ids + g_sizes + b_sizes
        if cl_ids is not None:
            args += cl_ids + cl_sizes
        st.regions.append(p.parse_region(args=args + wg + pv, op_cls=LaunchOp))
        p.parse_optional_attr_dict(st, with_keyword=True)
        del ctx_ops
        st.operands = deps + g_ops + b_ops + cl_ops + dyn
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(deps), 1, 1, 1, 1, 1, 1] + [1 if cl_ops else 0] * 3 +
            [len(dyn), 0])
        st.types = [async_token] if token else []

    def print(self, pr):
        out = pr.out
        args = self.regions[0].blocks[0].args
        out.append(pr.op_name(self))
        if self.results:
            out.append(" async")
        deps = self.asyncDependencies
        if deps:
            out.append(" [" + ", ".join(pr.value(v) for v in deps) + "]")

        def dims(kw, ids, sizes, ops):
            return (f" {kw}(" + ", ".join(pr.value(a) for a in ids) + ") in (" +
                    ", ".join(f"{pr.value(s)} = {pr.value(o)}" for s, o in zip(sizes, ops))
                    + ")")
        if self.has_clusters:
            out.append(dims("clusters", args[12:15], args[15:18],
                            [self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ]))
        out.append(dims("blocks", args[0:3], args[6:9],
                        [self.gridSizeX, self.gridSizeY, self.gridSizeZ]))
        out.append(dims("threads", args[3:6], args[9:12],
                        [self.blockSizeX, self.blockSizeY, self.blockSizeZ]))
        dyn = self.dynamicSharedMemorySize
        if dyn is not None:
            out.append(" dynamic_shared_memory_size " + pr.value(dyn))
        for key in ("module", "function"):
            a = self._props.get(key)
            if a is not None:
                out.append(f" {key}({pr.attr_str(a)})")
        n = self.num_config_args
        nw = self.num_workgroup_attributions

        def attribs(kw, xs):
            return f" {kw}(" + ", ".join(f"{pr.value(a)} : {pr.type_str(a.type)}"
                                         for a in xs) + ")"
        if nw:
            out.append(attribs("workgroup", args[n:n + nw]))
        if len(args) > n + nw:
            out.append(attribs("private", args[n + nw:]))
        out.append(" ")
        pr.print_region(self.regions[0], print_entry_args=False, print_terminators=True)
        extra = {k: v for k, v in self._props.items()
                 if k not in ("operandSegmentSizes", "module", "function",
                              "workgroup_attributions")}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)

    def verify_regions_(self):
        body = self.regions[0]
        if not body.blocks:
            return None
        args = body.blocks[0].args
        n = self.num_config_args
        if len(args) < n:
            return f"expected at least {n} arguments to body region"
        for a in args[:n]:
            if type(a.type) is not A.IndexType:
                return f"expected body region argument to be of type index, got {a.type}"
        for b in body.blocks:
            t = b.last
            if t is not None and t.name != "gpu.terminator" and not t.successors:
                d = Diagnostic(ERROR, t.loc, "expected 'gpu.terminator' or a terminator "
                                             "with successors")
                d.op = t
                d.attach_note("in 'gpu.launch' body region", self.loc)
                raise DiagnosticError(d)
        return _verify_attributions(
            args[n:n + self.num_workgroup_attributions], "workgroup") or \
            _verify_attributions(args[n + self.num_workgroup_attributions:], "private")

    def verify_(self):
        if self.dynamicSharedMemorySize is not None and \
                self.dynamicSharedMemorySize.type is not A.i32:
            return ("operand #10 must be 32-bit signless integer, but got "
                    f"'{self.dynamicSharedMemorySize.type}'")
        if self.asyncDependencies and not self.results:
            return "needs to be named when async keyword is specified"
        return None


class TerminatorOp(Op):
    """`gpu.terminator`: ends the body of a gpu.launch."""

    name = "gpu.terminator"
    traits = (T.Pure, T.HasParent("gpu.launch"), T.Terminator)
    assembly = "attr-dict"


class LaunchFuncOp(_AsyncOp, Op):
    """`gpu.launch_func @kernels::@k blocks in (%a, %b, %c) threads in (%d, %e, %f)
    args(%x : f32)`: launches an outlined kernel (see [Note: gpu.container_module])."""

    name = "gpu.launch_func"
    traits = (T.AttrSizedOperandSegments,)
    asyncDependencies = VarOperand(AsyncToken)
    gridSizeX = Operand(C.SignlessIntegerOrIndex)
    gridSizeY = Operand(C.SignlessIntegerOrIndex)
    gridSizeZ = Operand(C.SignlessIntegerOrIndex)
    blockSizeX = Operand(C.SignlessIntegerOrIndex)
    blockSizeY = Operand(C.SignlessIntegerOrIndex)
    blockSizeZ = Operand(C.SignlessIntegerOrIndex)
    clusterSizeX = OptOperand(C.SignlessIntegerOrIndex)
    clusterSizeY = OptOperand(C.SignlessIntegerOrIndex)
    clusterSizeZ = OptOperand(C.SignlessIntegerOrIndex)
    dynamicSharedMemorySize = OptOperand(C.AnyInteger)
    kernelOperands = VarOperand()
    asyncObject = OptOperand()
    asyncToken = OptResult(AsyncToken)
    kernel = Prop(C.SymbolRefAttrC)

    @classmethod
    def new(cls, kernel: A.SymbolRefAttr, grid, block, args, dynamic_shared=None,
            loc=None):
        ops = list(grid) + list(block) + ([dynamic_shared] if dynamic_shared else []) + \
            list(args)
        return cls.create(ops, (), {
            "kernel": kernel, "operandSegmentSizes": A.DenseArrayAttr(
                A.i32, [0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1 if dynamic_shared else 0,
                        len(args), 0])}, None, (), 0, loc)

    @property
    def kernel_module_name(self) -> str:
        return self._props["kernel"].root

    @property
    def kernel_name(self) -> str:
        k = self._props["kernel"]
        return k.nested[-1] if k.nested else k.root

    @staticmethod
    def parse(p, st):
        token, deps = _parse_async(p)
        obj = []
        if p.kind == PUNCT and p.tok == "<":
            p._next()
            ref = p.parse_operand()
            p.expect(":")
            obj = [p.resolve_operand(ref, p.parse_type())]
            p.expect(">")
        if not p.tok.startswith("@"):
            start = p.tok_start
            p.parse_attribute()
            p.error(custom_op_prefix(p) + "invalid kind of attribute specified", start)
        st.properties["kernel"] = p.parse_symbol_ref()
        clusters = []
        if p.parse_optional_keyword("clusters"):
            p.parse_keyword("in")
            clusters = p.parse_operand_list("(")
        p.parse_keyword("blocks")
        p.parse_keyword("in")
        grid = p.parse_operand_list("(")
        p.parse_keyword("threads")
        p.parse_keyword("in")
        block = p.parse_operand_list("(")
        for what in (clusters, grid, block):
            if what and len(what) != 3:
                p.error(custom_op_prefix(p) + "expected 3 operands")
        t = p.parse_type() if p.consume_if(":") else A.index
        dyn = []
        if p.parse_optional_keyword("dynamic_shared_memory_size"):
            dyn = [p.resolve_operand(p.parse_operand(), A.i32)]
        kargs = []
        if p.parse_optional_keyword("args"):
            p.expect("(")
            if not p.consume_if(")"):
                while True:
                    r = p.parse_operand()
                    p.expect(":")
                    kargs.append(p.resolve_operand(r, p.parse_type()))
                    if not p.consume_if(","):
                        break
                if not p.consume_if(")"):
                    p.error("expected ')' in argument list")
        p.parse_optional_attr_dict(st)
        res = lambda refs: [p.resolve_operand(r, t) for r in refs]  # noqa: E731
        st.operands = deps + res(grid) + res(block) + res(clusters) + dyn + kargs + obj
        st.properties["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(deps), 1, 1, 1, 1, 1, 1] + [1 if clusters else 0] * 3 +
            [len(dyn), len(kargs), len(obj)])
        st.types = [async_token] if token else []

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self) + " " + self.print_AsyncDependencies(
            pr, self.asyncToken, self.asyncDependencies))
        obj = self.asyncObject
        if obj is not None:
            out.append(f" <{pr.value(obj)} : {pr.type_str(obj.type)}>")
        out.append(" " + pr.attr_str(self._props["kernel"]))
        if self.clusterSizeX is not None:
            out.append(" clusters in (" + ", ".join(pr.value(v) for v in (
                self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)) + ")")
        out.append(" blocks in (" + ", ".join(pr.value(v) for v in (
            self.gridSizeX, self.gridSizeY, self.gridSizeZ)) + ")")
        out.append(" threads in (" + ", ".join(pr.value(v) for v in (
            self.blockSizeX, self.blockSizeY, self.blockSizeZ)) + ")")
        # Upstream's spacing: a space before custom<LaunchDimType> (which prints `: i64`,
        # nothing for index) and before custom<LaunchFuncOperands> (`args(...)`, or
        # nothing), so `threads in (...)  args(...)` and a trailing space without args.
        t = self.gridSizeX.type
        out.append(" " if type(t) is A.IndexType else " : " + pr.type_str(t))
        dyn = self.dynamicSharedMemorySize
        if dyn is not None:
            out.append(" dynamic_shared_memory_size " + pr.value(dyn))
        out.append(" ")
        ka = self.kernelOperands
        if ka:
            out.append("args(" + ", ".join(f"{pr.value(v)} : {pr.type_str(v.type)}"
                                           for v in ka) + ")")
        extra = {k: v for k, v in self._props.items()
                 if k not in ("operandSegmentSizes", "kernel")}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra)

    def verify_(self):
        k = self._props["kernel"]
        if not k.nested:
            return "expected a symbol reference with a root and a leaf"
        types = {v.type for v in (self.gridSizeX, self.gridSizeY, self.gridSizeZ,
                                  self.blockSizeX, self.blockSizeY, self.blockSizeZ)}
        if self.clusterSizeX is not None:
            types |= {self.clusterSizeX.type, self.clusterSizeY.type,
                      self.clusterSizeZ.type}
        if len(types) > 1:
            return "expected the grid, block and cluster sizes to have the same type"
        if self.asyncObject is not None and self.asyncDependencies:
            return "cannot have both async dependencies and an async object"
        mod = self.parent_op
        while mod is not None and mod.name != "builtin.module":
            mod = mod.parent_op
        if mod is None or "gpu.container_module" not in mod.attributes:
            return ("expected the closest surrounding module to have the "
                    "'gpu.container_module' attribute")
        return None

    def verify_symbol_uses(self):
        from ..ir.symbol_table import lookup_nearest_symbol_from
        k = self._props["kernel"]
        if not k.nested:
            return None
        mod = lookup_nearest_symbol_from(self, A.SymbolRefAttr(k.root))
        if mod is None:
            return f"kernel container '{k.root}' is undefined"
        if mod.name == "gpu.binary":
            return None  # its kernels are known when it is loaded
        if mod.name != "gpu.module":
            return f"kernel module '{k.root}' is undefined"
        fn = lookup_nearest_symbol_from(self, k)
        if fn is None:
            return f"kernel function '{k}' is undefined"
        if fn.name not in ("gpu.func", "llvm.func", "func.func"):
            d = Diagnostic(ERROR, self.loc, f"'gpu.launch_func' op referenced kernel '{k}' "
                                            "is not a function")
            d.op = self
            d.attach_note("see the kernel definition here", fn.loc)
            raise DiagnosticError(d)
        if not (fn.is_kernel if fn.name == "gpu.func" else "gpu.kernel" in fn.attributes):
            return "kernel function is missing the 'gpu.kernel' attribute"
        if fn.name != "gpu.func":
            # Lowered already (convert-gpu-to-nvvm makes an llvm.func): as upstream, its
            # converted argument types are not compared with the launch's.
            return None
        want = fn.type.inputs
        got = self.kernelOperands
        if len(got) != len(want):
            return f"got {len(got)} kernel operands but expected {len(want)}"
        for i, (v, t) in enumerate(zip(got, want)):
            if v.type is not t:
                return f"type of function argument {i} does not match"
        return None


# ---------------------------------------------------------------- synchronization

class BarrierOp(Op):
    """`gpu.barrier`: every thread of the block waits here for the others; memory
    they wrote (workgroup and global, or the `memfence [...]` address spaces) is
    visible after it."""

    name = "gpu.barrier"
    address_spaces = OptProp(C.Constraint(
        lambda a: type(a) is A.ArrayAttr and all(type(x) is EnumAttr and
                                                  x.kind is ADDRESS_SPACE for x in a),
        "array of gpu address space attributes"))
    scope = Prop(_enum(BARRIER_SCOPE), default=BARRIER_SCOPE("workgroup"),
                 fmt=StrippedAttr("gpu", "barrier_scope"))
    assembly = "(`memfence` $address_spaces^)? (`scope` $scope^)? attr-dict"

    @staticmethod
    def finish_parse(op):
        if "scope" not in op._props:
            op.properties["scope"] = BARRIER_SCOPE("workgroup")


class ShuffleOp(Op):
    """`%r, %valid = gpu.shuffle xor %v, %offset, %width : f32`: each lane reads `%v`
    of the lane given by the mode (xor: lane ^ offset, up: lane - offset, down: lane +
    offset, idx: offset) within groups of `%width` lanes; `%valid` is false where that
    lane is outside the group (the lane's own `%v` is returned then)."""

    name = "gpu.shuffle"
    traits = (T.Pure, T.AllTypesMatch("value", "shuffleResult"))
    value = Operand(C.Constraint(
        lambda t: t in (A.i32, A.i64, A.f32, A.f64) or (
            type(t) is A.VectorType and len(t.shape) == 1 and
            t.element_type in (A.i32, A.i64, A.f32, A.f64)),
        "Integer or Float or fixed-length vector of Integer or Float values of ranks 1"))
    offset = Operand(C.Constraint(lambda t: t is A.i32, "32-bit signless integer"))
    width = Operand(C.Constraint(lambda t: t is A.i32, "32-bit signless integer"))
    mode = Prop(_enum(SHUFFLE_MODE), fmt=EnumKeyword(SHUFFLE_MODE, "mode"))
    shuffleResult = Result()
    valid = Result(C.I1)
    assembly = "$mode $value `,` $offset `,` $width attr-dict `:` type($value)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32 if name in ("offset", "width") else None

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type, A.i1]

    def asm_result_names(self):
        return ["shuffleResult", "valid"]


class RotateOp(Op):
    """`%r, %valid = gpu.rotate %v, 3, 16 : f32`: lane i reads lane (i + offset) mod
    width of its group of `width` lanes."""

    name = "gpu.rotate"
    traits = (T.Pure, T.AllTypesMatch("value", "rotateResult"))
    value = Operand(ShuffleOp.value.constraint)
    offset = Prop(C.Constraint(
        lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and a.value >= 0,
        "32-bit signless integer attribute whose value is non-negative"), fmt=BareInt(A.i32))
    width = Prop(C.Constraint(
        lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and a.value > 0 and
        not a.value & (a.value - 1),
        "32-bit signless integer attribute whose value is a power of two > 0"),
        fmt=BareInt(A.i32))
    rotateResult = Result()
    valid = Result(C.I1)
    assembly = "$value `,` $offset `,` $width attr-dict `:` type($value)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[0].type, A.i1]

    def asm_result_names(self):
        return ["rotateResult", "valid"]

    def verify_(self):
        w = self._props["width"].value
        o = self._props["offset"].value
        if o >= w:
            return f"offset must be in the range [0, {w})"
        return None


_FLOAT_REDUCE = frozenset({"minnumf", "maxnumf", "minimumf", "maximumf", "minimumnumf",
                           "maximumnumf"})
_INT_REDUCE = frozenset({"minsi", "minui", "maxsi", "maxui", "and", "or", "xor"})


def _verify_reduce_op(op, op_attr, t):
    """Upstream's check of a reduction kind against the value type (emitted without the
    op's name)."""
    if op_attr is None:
        return None
    k = op_attr.value
    elt = t.element_type if type(t) is A.VectorType else t
    if (k in _FLOAT_REDUCE and type(elt) is not A.FloatType) or \
            (k in _INT_REDUCE and type(elt) is not A.IntegerType):
        d = Diagnostic(ERROR, op.loc, f"`{k}` reduction operation is not compatible with "
                                      f"type '{t}'")
        d.op = op
        raise DiagnosticError(d)
    return None


class _ReduceOpFmt(EnumKeyword):
    def __init__(self):
        super().__init__(ALL_REDUCE_OP, "op")


class SubgroupReduceOp(Op):
    """`%s = gpu.subgroup_reduce add %v : (f32) -> f32`: the reduction over the lanes of
    the subgroup (or over clusters of `cluster(size = N)` lanes), given to each."""

    name = "gpu.subgroup_reduce"
    traits = (T.Pure, T.SameOperandsAndResultType)
    value = Operand()
    op = Prop(_enum(ALL_REDUCE_OP), fmt=_ReduceOpFmt())
    uniform = OptProp(C.UnitAttrC)
    uniform.fmt = UnitKeyword()
    cluster_size = OptProp(C.I32Attr)
    cluster_size.fmt = BareInt(A.i32)
    cluster_stride = Prop(C.I32Attr, default=A.IntegerAttr(1, A.i32), fmt=BareInt(A.i32))
    result = Result()
    assembly = ("$op $value (`uniform` $uniform^)? (`cluster` `(` `size` `=` $cluster_size^ "
                "(`,` `stride` `=` $cluster_stride^)? `)`)? attr-dict `:` "
                "functional-type(operands, results)")

    @staticmethod
    def finish_parse(op):
        if "cluster_stride" not in op._props:
            op.properties["cluster_stride"] = A.IntegerAttr(1, A.i32)

    def verify_(self):
        t = self.value.type
        if type(t) is A.VectorType and len(t.shape) != 1:
            return ("operand #0 must be Integer or Float or vector of Integer or Float "
                    f"values of ranks 1, but got '{t}'")
        err = _verify_reduce_op(self, self._props["op"], t)
        if err:
            return err
        cs = self._props.get("cluster_size")
        stride = self._props["cluster_stride"].value
        if cs is not None:
            if cs.value <= 0 or cs.value & (cs.value - 1):
                return "cluster size 0 is not a power of two" if cs.value == 0 else \
                    f"cluster size {cs.value} is not a power of two"
        if stride <= 0 or stride & (stride - 1):
            return f"cluster stride {stride} is not a power of two"
        if cs is None and stride != 1:
            return "cluster stride can only be specified if cluster size is specified"
        return None


class AllReduceOp(Op):
    """`%s = gpu.all_reduce add %v {} : (f32) -> f32`: the reduction over every thread
    of the block, given to each; the operation is a keyword or the region (two
    arguments, `gpu.yield` of the combined value)."""

    name = "gpu.all_reduce"
    traits = (T.SameOperandsAndResultType, T.IsolatedFromAbove)
    value = Operand()
    op = OptProp(_enum(ALL_REDUCE_OP))
    op.fmt = _ReduceOpFmt()
    uniform = OptProp(C.UnitAttrC)
    uniform.fmt = UnitKeyword()
    result = Result()
    body = RegionDef()
    assembly = ("($op^)? $value (`uniform` $uniform^)? $body attr-dict `:` "
                "functional-type(operands, results)")

    def verify_regions_(self):
        body = self.regions[0]
        has_op = "op" in self._props
        if body.blocks and has_op:
            return "expected either an op attribute or a non-empty body"
        if not body.blocks:
            if not has_op:
                return "expected either an op attribute or a non-empty body"
            return _verify_reduce_op(self, self._props["op"], self.value.type)
        b = body.blocks[0]
        t = self.value.type
        if len(b.args) != 2:
            return "expected two region arguments"
        for a in b.args:
            if a.type is not t:
                return "incorrect region argument type"
        for blk in body.blocks:
            y = blk.last
            if y is not None and y.name == "gpu.yield":
                if len(y.operands) != 1:
                    return "expected one gpu.yield operand"
                if y.operands[0].type is not t:
                    return "incorrect gpu.yield type"
            else:
                raise DiagnosticError(Diagnostic(ERROR, self.loc,
                                                 "expected gpu.yield op in region"))
        return None


class YieldOp(Op):
    """`gpu.yield %v : f32`: the value of a gpu.all_reduce (or other gpu region)."""

    name = "gpu.yield"
    traits = (T.Pure, T.ReturnLike, T.Terminator)
    values = VarOperand()
    assembly = "attr-dict ($values^ `:` type($values))?"


# ---------------------------------------------------------------- memory and streams

class AllocOp(_AsyncOp, Op):
    """`%m = gpu.alloc (%n) : memref<?xf32, 1>` (or `async [%t]`, `host_shared`)"""

    name = "gpu.alloc"
    traits = (T.AttrSizedOperandSegments, T.MemoryEffects(T.MemAlloc))
    asyncDependencies = VarOperand(AsyncToken)
    dynamicSizes = VarOperand(C.Index)
    symbolOperands = VarOperand(C.Index)
    hostShared = OptProp(C.UnitAttrC)
    hostShared.fmt = UnitKeyword()
    memref = Result(C.Constraint(lambda t: type(t) is A.MemRefType, "memref of any type values"))
    asyncToken = OptResult(AsyncToken)
    assembly = ("custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
                "(` ` `host_shared` $hostShared^)? ` ` `(` $dynamicSizes `)` "
                "(`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)")

    def asm_result_names(self):
        return ["memref", "asyncToken"][:len(self.results)]

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name in ("dynamicSizes", "symbolOperands") else None

    def verify_(self):
        t = self.results[0].type
        dyn = sum(1 for d in t.shape if d == A.DYNAMIC)
        if len(self.dynamicSizes) != dyn:
            return (f"incorrect number of dynamic sizes, has {len(self.dynamicSizes)}, "
                    f"expected {dyn}")
        from .memref import num_layout_symbols
        if len(self.symbolOperands) != num_layout_symbols(t):
            return "symbol operand count does not equal memref symbol count"
        if self.hostShared is not None and self.results[1:]:
            return "host_shared allocation cannot be async"
        return None


class DeallocOp(_AsyncOp, Op):
    """`gpu.dealloc %m : memref<?xf32, 1>`"""

    name = "gpu.dealloc"
    traits = (T.MemoryEffects(T.MemFree),)
    asyncDependencies = VarOperand(AsyncToken)
    memref = Operand(C.AnyMemRef)
    asyncToken = OptResult(AsyncToken)
    assembly = ("custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) $memref "
                "attr-dict `:` type($memref)")


class MemcpyOp(_AsyncOp, Op):
    """`gpu.memcpy %dst, %src : memref<4xf32, 1>, memref<4xf32>`"""

    name = "gpu.memcpy"
    traits = (T.MemoryEffects(T.MemRead, T.MemWrite),)
    asyncDependencies = VarOperand(AsyncToken)
    dst = Operand(C.AnyMemRef)
    src = Operand(C.AnyMemRef)
    asyncToken = OptResult(AsyncToken)
    assembly = ("custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) $dst `,` "
                "$src attr-dict `:` type($dst) `,` type($src)")

    def verify_(self):
        s, d = self.src.type, self.dst.type
        if s.element_type is not d.element_type:
            return "arguments have incompatible element type"
        if tuple(s.shape) != tuple(d.shape):
            return "arguments have incompatible shape"
        return None


class MemsetOp(_AsyncOp, Op):
    """`gpu.memset %dst, %v : memref<4xf32, 1>, f32`"""

    name = "gpu.memset"
    traits = (T.MemoryEffects(T.MemWrite),)
    asyncDependencies = VarOperand(AsyncToken)
    dst = Operand(C.AnyMemRef)
    value = Operand()
    asyncToken = OptResult(AsyncToken)
    assembly = ("custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) $dst `,` "
                "$value attr-dict `:` type($dst) `,` type($value)")

    def verify_(self):
        if self.value.type is not self.dst.type.element_type:
            return ("failed to verify that all of {dst, value} have same element type")
        return None


class WaitOp(_AsyncOp, Op):
    """`%t = gpu.wait async [%t0, %t1]`, or `gpu.wait [%t0]` (blocks the host)"""

    name = "gpu.wait"
    asyncDependencies = VarOperand(AsyncToken)
    asyncToken = OptResult(AsyncToken)
    assembly = "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) attr-dict"


class PrintfOp(Op):
    """`gpu.printf "x = %f", %x : f32`"""

    name = "gpu.printf"
    traits = (T.MemoryEffects(T.MemWrite),)
    format = Prop(C.StrAttr)
    args = VarOperand(C.Constraint(
        lambda t: type(t) in (A.IntegerType, A.IndexType, A.FloatType),
        "integer or index or floating-point"))
    assembly = "$format attr-dict (`,` $args^ `:` type($args))?"


# ---------------------------------------------------------------- subgroup matrices

def _mma_t(*operands):
    return C.Constraint(lambda t: type(t) is MMAMatrixType and
                        (not operands or t.operand in operands), "gpu.mma_matrix type")


def _last_dim_unit_stride(t) -> bool:
    from .memref_layout import strides_and_offset
    so = strides_and_offset(t)
    return so is not None and (not so[0] or so[0][-1] == 1)


def _mma_memref_elt(t):
    e = getattr(t, "element_type", None)
    ok = lambda x: x in (A.f16, A.f32, A.i32) or (  # noqa: E731
        type(x) is A.IntegerType and x.width == 8 and x.signedness == 0)
    if type(e) is A.VectorType:
        return len(e.shape) == 1 and ok(e.element_type)
    return ok(e)


_MMA_MEMREF = C.Constraint(
    lambda t: type(t) is A.MemRefType and _mma_memref_elt(t),
    "memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit "
    "float or vector of 8-bit signless integer or 32-bit signless integer or 16-bit float "
    "or 32-bit float values of ranks 1 values")


class SubgroupMmaLoadMatrixOp(Op):
    """`%m = gpu.subgroup_mma_load_matrix %buf[%i, %j] leadDimension 32 :
    memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">`"""

    name = "gpu.subgroup_mma_load_matrix"
    srcMemref = Operand(_MMA_MEMREF)
    indices = VarOperand(C.Index)
    leadDimension = Prop(C.IndexAttr, fmt=BareInt(A.index))
    transpose = OptProp(C.UnitAttrC)
    transpose.fmt = UnitKeyword()
    res = Result(_mma_t())
    assembly = ("$srcMemref `[` $indices `]` `leadDimension` $leadDimension "
                "(`transpose` $transpose^)? attr-dict `:` type($srcMemref) `->` type($res)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "indices" else None

    def verify_(self):
        if not _last_dim_unit_stride(self.srcMemref.type):
            return "expected source memref most minor dim must have unit stride"
        return None


class SubgroupMmaStoreMatrixOp(Op):
    """`gpu.subgroup_mma_store_matrix %m, %buf[%i, %j] leadDimension 32 :
    !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32, 3>`"""

    name = "gpu.subgroup_mma_store_matrix"
    src = Operand(_mma_t())
    dstMemref = Operand(_MMA_MEMREF)
    indices = VarOperand(C.Index)
    leadDimension = Prop(C.IndexAttr, fmt=BareInt(A.index))
    transpose = OptProp(C.UnitAttrC)
    transpose.fmt = UnitKeyword()
    assembly = ("$src `,` $dstMemref `[` $indices `]` `leadDimension` $leadDimension "
                "(`transpose` $transpose^)? attr-dict `:` type($src) `,` type($dstMemref)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "indices" else None

    def verify_(self):
        if not _last_dim_unit_stride(self.dstMemref.type):
            return "expected destination memref most minor dim must have unit stride"
        if self.src.type.operand != "COp":
            return "expected the operand matrix being stored to have 'COp' operand type"
        return None


class SubgroupMmaComputeOp(Op):
    """`%d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">,
    !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">`: D = A * B +
    C by the subgroup."""

    name = "gpu.subgroup_mma_compute"
    traits = (T.Pure,)
    opA = Operand(_mma_t())
    opB = Operand(_mma_t())
    opC = Operand(_mma_t())
    a_transpose = OptProp(C.UnitAttrC)
    a_transpose.fmt = UnitKeyword()
    b_transpose = OptProp(C.UnitAttrC)
    b_transpose.fmt = UnitKeyword()
    res = Result(_mma_t())
    assembly = ("$opA `,` $opB `,` $opC (`a_transpose` $a_transpose^)? "
                "(`b_transpose` $b_transpose^)? attr-dict `:` type($opA) `,` type($opB) `->` "
                "type($res)")

    @classmethod
    def infer_operand_type(cls, name, types):
        if name == "opC" and types.get("res"):
            return types["res"][0]
        return None

    @classmethod
    def infer_result_types(cls, operands, props):
        return [operands[2].type]

    def verify_(self):
        a, b, c = self.opA.type, self.opB.type, self.opC.type
        if (a.operand, b.operand, c.operand) != ("AOp", "BOp", "COp"):
            return "operands must be in the order AOp, BOp, COp"
        am, ak = a.shape[::-1] if "a_transpose" in self._props else a.shape
        bk, bn = b.shape[::-1] if "b_transpose" in self._props else b.shape
        if ak != bk or am != c.shape[0] or bn != c.shape[1]:
            return "operand shapes do not satisfy matmul constraints"
        if self.res.type is not c:
            return "failed to verify that all of {opC, res} have same type"
        return None


class SubgroupMmaConstantMatrixOp(Op):
    """`%c = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf32, "COp">`"""

    name = "gpu.subgroup_mma_constant_matrix"
    traits = (T.Pure,)
    value = Operand()
    res = Result(_mma_t())
    assembly = "$value attr-dict `:` type($res)"

    @classmethod
    def infer_operand_type(cls, name, types):
        r = types.get("res")
        return r[0].element_type if r else None

    def verify_(self):
        if self.value.type is not self.res.type.element_type:
            return "failed to verify that value type matches element type of mma_matrix"
        return None


class SubgroupMmaElementwiseOp(Op):
    """`%r = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf32,
    "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">`"""

    name = "gpu.subgroup_mma_elementwise"
    traits = (T.Pure,)
    args = VarOperand(_mma_t())
    opType = Prop(_enum(MMA_ELEMENTWISE), fmt=EnumKeyword(MMA_ELEMENTWISE))
    res = Result(_mma_t())
    assembly = "$opType $args attr-dict `:` functional-type($args, $res)"


class SubgroupMmaExtractThreadLocalOp(Op):
    """`%v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf32,
    "COp"> -> f32`"""

    name = "gpu.subgroup_mma_extract_thread_local"
    traits = (T.Pure,)
    matrix = Operand(_mma_t())
    indices = VarOperand(C.Index)
    res = Result()
    assembly = "$matrix `[` $indices `]` attr-dict `:` type($matrix) `->` type($res)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "indices" else None


class SubgroupMmaInsertThreadLocalOp(Op):
    """`%m2 = gpu.subgroup_mma_insert_thread_local %v, %m[%i] : f32,
    !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">`"""

    name = "gpu.subgroup_mma_insert_thread_local"
    traits = (T.Pure,)
    value = Operand()
    matrix = Operand(_mma_t())
    indices = VarOperand(C.Index)
    res = Result(_mma_t())
    assembly = ("$value `,` $matrix `[` $indices `]` attr-dict `:` type($value) `,` "
                "type($matrix) `->` type($res)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.index if name == "indices" else None


# ---------------------------------------------------------------- more subgroup ops

class SubgroupBroadcastOp(Op):
    """`%r = gpu.subgroup_broadcast %v, specific_lane %i : f32` (or `first_active_lane`)"""

    name = "gpu.subgroup_broadcast"
    traits = (T.Pure, T.AllTypesMatch("src", "result"))
    src = Operand()
    lane = OptOperand(C.Constraint(lambda t: t is A.i32, "32-bit signless integer"))
    broadcast_type = Prop(_enum(BROADCAST), fmt=EnumKeyword(BROADCAST))
    result = Result()
    assembly = "$src `,` $broadcast_type ($lane^)? attr-dict `:` type($result)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32 if name == "lane" else None

    def verify_(self):
        specific = self._props["broadcast_type"].value == "specific_lane"
        if specific and self.lane is None:
            return "lane must be specified for `specific_lane` broadcast"
        if not specific and self.lane is not None:
            return "lane can only be specified for `specific_lane` broadcast"
        return None


class BallotOp(Op):
    """`%mask = gpu.ballot %pred : i32`: bit i of the result is lane i's predicate."""

    name = "gpu.ballot"
    predicate = Operand(C.I1)
    result = Result(C.SignlessInteger)
    assembly = "$predicate attr-dict `:` type($result)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i1


class WarpExecuteOnLane0Op(Op):
    """`%r = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<4xf32>) ->
    (vector<1xf32>) { ^bb0(%a: vector<128xf32>): ... gpu.yield %x : vector<32xf32> }`:
    the region runs on lane 0 only, with the warp's values gathered."""

    name = "gpu.warp_execute_on_lane_0"
    traits = (T.SingleBlockImplicitTerminator("gpu.yield"), T.RecursiveMemoryEffects)
    laneid = Operand(C.Index)
    args = VarOperand()
    warp_size = Prop(C.I64Attr)
    results_ = VarResult()
    warpRegion = RegionDef()

    @staticmethod
    def parse(p, st):
        p.expect("(")
        lane = p.resolve_operand(p.parse_operand(), A.index)
        p.expect(")")
        p.expect("[")
        st.properties["warp_size"] = A.IntegerAttr(p.parse_integer(), A.i64)
        p.expect("]")
        ops = [lane]
        if p.parse_optional_keyword("args"):
            p.expect("(")
            while True:
                r = p.parse_operand()
                p.expect(":")
                ops.append(p.resolve_operand(r, p.parse_type()))
                if not p.consume_if(","):
                    break
            p.expect(")")
        if p.consume_if("->"):
            p.expect("(")
            st.types = [p.parse_type()]
            while p.consume_if(","):
                st.types.append(p.parse_type())
            p.expect(")")
        st.regions.append(p.parse_region(op_cls=WarpExecuteOnLane0Op))
        p.parse_optional_attr_dict(st, with_keyword=True)
        st.operands = ops

    @staticmethod
    def finish_parse(op):
        r = op.regions[0]
        if not r.blocks:
            r.add_block(Block())
        b = r.blocks[0]
        if b.last is None or T.Terminator not in type(b.last).traits:
            b.append(YieldOp.build(loc=op.loc))

    def print(self, pr):
        out = pr.out
        out.append(f"{pr.op_name(self)}({pr.value(self.laneid)})"
                   f"[{self._props['warp_size'].value}]")
        args = self.args
        if args:
            out.append(" args(" + ", ".join(f"{pr.value(v)} : {pr.type_str(v.type)}"
                                            for v in args) + ")")
        if self.results:
            out.append(" -> (" + ", ".join(pr.type_str(r.type) for r in self.results) + ")")
        out.append(" ")
        r = self.regions[0]
        term = r.blocks[0].last if r.blocks else None
        pr.print_region(r, print_entry_args=bool(args),
                        print_terminators=term is None or bool(term._operands))
        extra = {k: v for k, v in self._props.items() if k != "warp_size"}
        extra.update(self._attrs)
        pr.print_optional_attr_dict(extra, with_keyword=True)


# ---------------------------------------------------------------- binaries, devices

def _is_select_object(a):
    return type(a) is A.OpaqueAttr and a.dialect_name == "gpu" and \
        a.body.startswith(".select_object")


class ObjectAttr(A.Attribute):
    """`#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 3 : i32}, bin = "..."
    >`: a compiled GPU module for one target (format offload|assembly|bin|fatbin; fatbin,
    the default, is not printed)."""

    __slots__ = ("target", "format", "object", "properties", "kernels")
    dialect = "gpu"

    def __new__(cls, target, object, format="fatbin", properties=None, kernels=None):
        def init(o):
            o.target = target
            o.format = format
            o.object = object
            o.properties = properties
            o.kernels = kernels
        return A.unique(cls, (target, format, object, properties, kernels), init)

    def _print(self):
        s = "#gpu.object<" + str(self.target) + ", "
        if self.properties is not None:
            s += f"properties = {self.properties}, "
        if self.kernels is not None:
            s += f"kernels = {self.kernels}, "
        if self.format != "fatbin":
            s += self.format + " = "
        return s + '"' + A.escape_string(self.object) + '">'


def _parse_object(p):
    p.expect("<")
    target = p.parse_attribute()
    p.expect(",")
    props = kernels = None
    fmt = "fatbin"
    while p.kind == BARE:
        kw = p.parse_keyword()
        p.expect("=")
        if kw == "properties":
            props = p.parse_attribute()
            p.expect(",")
        elif kw == "kernels":
            kernels = p.parse_attribute()
            p.expect(",")
        elif kw in ("offload", "assembly", "bin", "fatbin"):
            fmt = kw
            break
        else:
            p.error(f"invalid format specified: {kw}")
    obj = p.parse_string()
    p.expect(">")
    return ObjectAttr(target, obj, fmt, props, kernels)


_DEFAULT_HANDLER = A.OpaqueAttr("gpu", ".select_object")


class BinaryOp(Op):
    """`gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "...">]`: compiled forms of a
    gpu.module (what gpu.launch_func then names)."""

    name = "gpu.binary"
    traits = (T.Symbol,)
    sym_name = Prop(C.SymbolNameAttr, fmt=SymbolName())
    offloadingHandler = OptProp(C.Constraint(
        _is_select_object, "any attribute with the `OffloadingTranslationAttrTrait` trait."))
    objects = Prop(C.Constraint(
        lambda a: type(a) is A.ArrayAttr and len(a) > 0 and
        all(type(x) is ObjectAttr for x in a),
        "an array of GPU object attributes with at least 1 elements"), fmt=_ArrayOnly())
    assembly = "$sym_name custom<OffloadingHandler>($offloadingHandler) attr-dict $objects"

    @staticmethod
    def parse_OffloadingHandler(p, st, ctx, prop):
        """`<#gpu.select_object<1>>`, or nothing for the default `#gpu.select_object`."""
        if p.at("<"):
            p._next()
            st.properties[prop.name] = p.parse_attribute()
            p.expect(">")
        else:
            st.properties[prop.name] = _DEFAULT_HANDLER

    def print_OffloadingHandler(self, pr, handler):
        if handler is None or handler is _DEFAULT_HANDLER:
            return ""
        return "<" + pr.attr_str(handler) + ">"


class DynamicSharedMemoryOp(Op):
    """`%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`: the
    dynamic shared memory of the launch (its `dynamic_shared_memory_size`)."""

    name = "gpu.dynamic_shared_memory"
    traits = (T.Pure,)
    resultMemref = Result(C.Constraint(
        lambda t: type(t) is A.MemRefType and len(t.shape) == 1 and t.element_type is A.i8,
        "1D memref of 8-bit signless integer values"))
    assembly = "attr-dict `:` type($resultMemref)"

    def verify_(self):
        t = self.resultMemref.type
        ms = t.memory_space
        if not (type(ms) is EnumAttr and ms.kind is ADDRESS_SPACE and
                ms.value == "workgroup"):
            return "address space must be address_space<workgroup>"
        if t.shape[0] != A.DYNAMIC:
            return "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>"
        return None


class SetDefaultDeviceOp(Op):
    """`gpu.set_default_device %i`"""

    name = "gpu.set_default_device"
    devIndex = Operand(C.Constraint(lambda t: t is A.i32, "32-bit signless integer"))
    assembly = "attr-dict $devIndex"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32


class HostRegisterOp(Op):
    """`gpu.host_register %m : memref<*xf32>`"""

    name = "gpu.host_register"
    value = Operand(C.Constraint(lambda t: type(t) is A.UnrankedMemRefType,
                                 "unranked.memref of any type values"))
    assembly = "$value attr-dict `:` type($value)"


class HostUnregisterOp(HostRegisterOp):
    """`gpu.host_unregister %m : memref<*xf32>`"""

    name = "gpu.host_unregister"


for _c in (ModuleOp, ReturnOp, LaneIdOp, SubgroupIdOp, NumSubgroupsOp, SubgroupSizeOp,
           TerminatorOp, BarrierOp, ShuffleOp, RotateOp, SubgroupReduceOp, AllReduceOp,
           YieldOp, AllocOp, DeallocOp, MemcpyOp, MemsetOp, WaitOp, PrintfOp,
           SubgroupMmaLoadMatrixOp, SubgroupMmaStoreMatrixOp, SubgroupMmaComputeOp,
           SubgroupMmaConstantMatrixOp, SubgroupMmaElementwiseOp,
           SubgroupMmaExtractThreadLocalOp, SubgroupMmaInsertThreadLocalOp,
           SubgroupBroadcastOp, BallotOp, BinaryOp, DynamicSharedMemoryOp, SetDefaultDeviceOp,
           HostRegisterOp, HostUnregisterOp):
    install_format(_c)


def _verify_operation_attribute(op, name, attr):
    if name == "gpu.container_module":
        if type(attr) is not A.UnitAttr:
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, "'gpu.container_module' attribute must be a unit attribute"))
        if op.name != "builtin.module":
            raise DiagnosticError(Diagnostic(
                ERROR, op.loc, "'gpu.container_module' attribute is only valid on a "
                               "builtin.module"))
    elif name in ("gpu.known_block_size", "gpu.known_grid_size") and op.name == "gpu.func":
        if not (type(attr) is A.DenseArrayAttr and attr.element_type is A.i32):
            raise DiagnosticError(Diagnostic(ERROR, op.loc, f"'gpu.func' op {name} must be "
                                                            "a dense i32 array"))
        if len(attr.value) != 3:
            raise DiagnosticError(Diagnostic(ERROR, op.loc, f"'gpu.func' op {name} must "
                                                            "contain exactly 3 elements"))
    elif name == "gpu.kernel" and type(attr) is not A.UnitAttr:
        raise DiagnosticError(Diagnostic(ERROR, op.loc,
                                         "'gpu.kernel' attribute must be a unit attribute"))


_OPS = [ModuleOp, FuncOp, ReturnOp, LaunchOp, TerminatorOp, LaunchFuncOp,
        ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp, GlobalIdOp, ClusterIdOp, ClusterDimOp,
        ClusterBlockIdOp, ClusterDimBlocksOp, LaneIdOp, SubgroupIdOp, NumSubgroupsOp,
        SubgroupSizeOp, BarrierOp, ShuffleOp, RotateOp, SubgroupReduceOp, AllReduceOp,
        YieldOp, AllocOp, DeallocOp, MemcpyOp, MemsetOp, WaitOp, PrintfOp,
        SubgroupMmaLoadMatrixOp, SubgroupMmaStoreMatrixOp, SubgroupMmaComputeOp,
        SubgroupMmaConstantMatrixOp, SubgroupMmaElementwiseOp, SubgroupMmaExtractThreadLocalOp,
        SubgroupMmaInsertThreadLocalOp, SubgroupBroadcastOp, BallotOp, WarpExecuteOnLane0Op,
        BinaryOp, DynamicSharedMemoryOp, SetDefaultDeviceOp, HostRegisterOp, HostUnregisterOp]

GPU = Dialect("gpu", _OPS, parse_attribute=_parse_attribute, parse_type=_parse_type,
              verify_operation_attribute=_verify_operation_attribute)
