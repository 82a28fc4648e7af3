"""The nvvm dialect: NVIDIA PTX intrinsics on llvm dialect values, as upstream MLIR
prints them. convert-gpu-to-nvvm produces it from the gpu dialect; the LLVM IR
translation turns each op into its `llvm.nvvm.*` intrinsic call.

    gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
      llvm.func @k(%mask: i32, %v: f32, %off: i32, %clamp: i32) {
        %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
        nvvm.barrier
        %r = nvvm.shfl.sync bfly %mask, %v, %off, %clamp : f32 -> f32
        llvm.return
      }
    }

Ops: the special registers (`nvvm.read.ptx.sreg.tid.x`, `ntid`, `ctaid`, `nctaid`,
`laneid`, `warpsize`, cluster ids, clocks...: `: i32` or `: i64`), `nvvm.barrier` (the
block barrier, `bar.sync`; `id = %i number_of_threads = %n aligned = false`),
`nvvm.bar.warp.sync`, `nvvm.shfl.sync bfly|up|down|idx`, `nvvm.vote.sync
any|all|ballot|uni`, cluster arrive/wait and `nvvm.fence.sc.cluster`,
`nvvm.rcp.approx.ftz.f`, the asynchronous copies `nvvm.cp.async.shared.global`
(+ `commit.group`, `wait.group N`), and the tensor core ops `nvvm.ldmatrix` and
`nvvm.mma.sync` (upstream's hand-written form: `A[...]  B[...]  C[...]  shape = <m = 16,
n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, f32) ->
!llvm.struct<(f32, f32, f32, f32)>`; the multiplicand PTX types are inferred from the
operand types where they can be, and printed only where not).

Attributes: `#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">` (a gpu.module's
compilation target; defaults O = 2, triple "nvptx64-nvidia-cuda", chip "sm_75",
features "" are not printed), the enums `#nvvm.shfl_kind<bfly>`, `#nvvm.mma_layout<row>`,
`#nvvm.mma_type<f16>`... and `#nvvm.shape<m = 16, n = 8, k = 16>`. Other nvvm attributes
are kept as written.
"""
from __future__ import annotations

from ..ir import attributes as A
from ..ir import constraints as C
from ..ir import traits as T
from ..ir.context import Dialect
from ..ir.enum_attr import EnumAttr, EnumAttrKind
from ..ir.ods import Op, Operand, OptOperand, OptProp, Prop, Result, VarOperand
from ..syntax.asm_format import (BareInt, StrippedAttr, UnitKeyword, custom_op_prefix,
                                 install_format)
from ..syntax.lexer import BARE, PUNCT, STRING
from .gpu import EnumKeyword

__all__ = ["NVVM", "TargetAttr", "ShapeAttr", "SHFL_KIND", "VOTE_SYNC_KIND",
           "MMA_LAYOUT", "MMA_TYPE", "SREG_OPS"]


# ---------------------------------------------------------------- attributes

SHFL_KIND = EnumAttrKind("nvvm", "shfl_kind", ["bfly", "up", "down", "idx"],
                         cpp_name="::mlir::NVVM::ShflKind")
VOTE_SYNC_KIND = EnumAttrKind("nvvm", "vote_sync_kind", ["any", "all", "ballot", "uni"],
                              cpp_name="::mlir::NVVM::VoteSyncKind")
LOAD_CACHE_MODIFIER = EnumAttrKind("nvvm", "load_cache_modifier",
                                   ["ca", "cg", "cs", "lu", "cv"],
                                   cpp_name="::mlir::NVVM::LoadCacheModifierKind")
MMA_LAYOUT = EnumAttrKind("nvvm", "mma_layout", ["row", "col"],
                          cpp_name="::mlir::NVVM::MMALayout")
MMA_TYPE = EnumAttrKind("nvvm", "mma_type",
                        ["f16", "f32", "tf32", "bf16", "s8", "u8", "s32", "s4", "u4", "b1",
                         "f64", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1"],
                        cpp_name="::mlir::NVVM::MMATypes")
MMA_B1OP = EnumAttrKind("nvvm", "mma_b1op", ["none", "xor_popc", "and_popc"],
                        cpp_name="::mlir::NVVM::MMAB1Op")
MMA_INT_OVERFLOW = EnumAttrKind("nvvm", "mma_int_overflow", ["satfinite", "wrapped"],
                                cpp_name="::mlir::NVVM::MMAIntOverflow")
LD_ST_MATRIX_ELT_TYPE = EnumAttrKind("nvvm", "ld_st_matrix_elt_type", ["b16", "b8"],
                                     cpp_name="::mlir::NVVM::LdStMatrixEltType")
_ENUMS = {k.mnemonic: k for k in (SHFL_KIND, VOTE_SYNC_KIND, LOAD_CACHE_MODIFIER,
                                  MMA_LAYOUT, MMA_TYPE, MMA_B1OP, MMA_INT_OVERFLOW,
                                  LD_ST_MATRIX_ELT_TYPE)}


def _enum(kind):
    return C.Constraint(lambda a: type(a) is EnumAttr and a.kind is kind,
                        f"{kind.mnemonic} attribute")


class ShapeAttr(A.Attribute):
    """`#nvvm.shape<m = 16, n = 8, k = 16>` (an mma shape) or
    `#nvvm.ld_st_matrix_shape<m = 8, n = 8>`."""

    __slots__ = ("mnemonic", "dims")
    dialect = "nvvm"

    def __new__(cls, mnemonic, dims):
        dims = tuple(dims)

        def init(o):
            o.mnemonic = mnemonic
            o.dims = dims
        return A.unique(cls, (mnemonic, dims), init)

    @property
    def body(self) -> str:
        return "<" + ", ".join(f"{k} = {v}" for k, v in self.dims) + ">"

    def _print(self):
        return f"#nvvm.{self.mnemonic}{self.body}"


_SHAPE_KEYS = {"shape": ("m", "n", "k"), "ld_st_matrix_shape": ("m", "n")}


def _parse_shape_body(p, mnemonic):
    keys = _SHAPE_KEYS[mnemonic]
    p.expect("<")
    dims = []
    for i, k in enumerate(keys):
        if i:
            p.expect(",")
        p.parse_keyword(k)
        p.expect("=")
        dims.append((k, p.parse_integer()))
    p.expect(">")
    return ShapeAttr(mnemonic, dims)


_TARGET_DEFAULTS = {"O": 2, "triple": "nvptx64-nvidia-cuda", "chip": "sm_75",
                    "features": "", "verifyTarget": True}
_TARGET_ORDER = ("O", "triple", "chip", "features", "flags", "link", "verifyTarget")


class TargetAttr(A.Attribute):
    """`#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">`: how a gpu.module is
    compiled (optimization level, triple, chip, PTX features, flags, bitcode to link)."""

    __slots__ = ("params",)
    dialect = "nvvm"

    def __new__(cls, O=2, triple="nvptx64-nvidia-cuda", chip="sm_75", features="",
                flags=None, link=None, verifyTarget=True):
        params = (("O", O), ("triple", triple), ("chip", chip), ("features", features),
                  ("flags", flags), ("link", link), ("verifyTarget", verifyTarget))

        def init(o):
            o.params = params
        return A.unique(cls, params, init)

    def get(self, key):
        return dict(self.params)[key]

    @property
    def chip(self) -> str:
        return self.get("chip")

    @property
    def features(self) -> str:
        return self.get("features")

    @property
    def opt_level(self) -> int:
        return self.get("O")

    def _print(self):
        parts = []
        for k, v in self.params:
            if v is None or _TARGET_DEFAULTS.get(k, object()) == v and \
                    type(v) is type(_TARGET_DEFAULTS[k]):
                continue
            if isinstance(v, bool):
                s = "true" if v else "false"
            elif isinstance(v, int):
                s = str(v)
            elif isinstance(v, str):
                s = '"' + A.escape_string(v) + '"'
            else:
                s = str(v)
            parts.append(f"{k} = {s}")
        return "#nvvm.target" + ("<" + ", ".join(parts) + ">" if parts else "")


def _parse_target(p):
    vals = {}
    if not (p.kind == PUNCT and p.tok == "<"):
        return TargetAttr()
    p._next()
    if p.consume_if(">"):
        return TargetAttr()
    while True:
        start = p.tok_start
        if p.kind != BARE:
            p.error("expected a parameter name in struct")
        key = p.tok
        p._next()
        if key not in _TARGET_ORDER or key in vals:
            p.error(f"duplicate or unknown struct parameter name: {key}", start)
        p.expect("=")
        vstart = p.tok_start
        if key == "O":
            v = p.parse_integer()
            if not 0 <= v <= 3:
                p.error("The optimization level must be a number between 0 and 3.", start)
        elif key in ("triple", "chip", "features"):
            if p.kind != STRING:
                p.error(f"failed to parse NVVM_TargetAttr parameter '{key}' which is to be "
                        "a `StringRef`", vstart)
            v = p.parse_string()
        elif key == "flags":
            v = p.parse_attribute()
            if type(v) is not A.DictionaryAttr:
                p.error("expected a dictionary attribute", vstart)
        elif key == "link":
            v = p.parse_attribute()
            if type(v) is not A.ArrayAttr:
                p.error("expected an array attribute", vstart)
        else:
            kw = p.parse_keyword()
            if kw not in ("true", "false"):
                p.error("expected 'true' or 'false'", vstart)
            v = kw == "true"
        vals[key] = v
        if not p.consume_if(","):
            break
    p.expect(">")
    chip = vals.get("chip")
    if chip is not None and not chip:
        p.error("Missing target chip.")
    return TargetAttr(**vals)


def _parse_attribute(p, mnemonic):
    kind = _ENUMS.get(mnemonic)
    if kind is not None:
        return kind.parse_body(p)
    if mnemonic in _SHAPE_KEYS:
        return _parse_shape_body(p, mnemonic)
    if mnemonic == "target":
        return _parse_target(p)
    body = p.parse_raw_angle_body() if p.kind == PUNCT and p.tok == "<" else ""
    return A.OpaqueAttr("nvvm", "." + mnemonic + body)


# ---------------------------------------------------------------- special registers

_I32 = C.Constraint(lambda t: t is A.i32, "32-bit signless integer")
_I64 = C.Constraint(lambda t: t is A.i64, "64-bit signless integer")
_I1 = C.I1


class _RangeFmt(StrippedAttr):
    """`range <i32, 0, 1024>`: an `#llvm.constant_range` written without its prefix (and,
    unlike a dialect body, after a space)."""

    def __init__(self):
        super().__init__("llvm", "constant_range")

    def parse(self, p):
        if p.kind == PUNCT and p.tok == "<":
            from .llvm.types import LLVMOpaqueAttr
            return LLVMOpaqueAttr("llvm", ".constant_range<" + p._raw_until_close() + ">")
        return p.parse_attribute()


class _SRegOp(Op):
    """`%t = nvvm.read.ptx.sreg.tid.x : i32`, optionally with the value's `range <i32, lo,
    hi>` (an `#llvm.constant_range`)."""

    traits = (T.Pure,)
    range = OptProp()
    range.fmt = _RangeFmt()
    res = Result(_I32)
    assembly = "(`range` $range^)? attr-dict `:` type($res)"

    @classmethod
    def new(cls, loc=None):
        return cls.build(loc=loc, res=cls.result_type)

    result_type = A.i32


_SREGS_I32 = (
    ["tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y",
     "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpsize", "warpid",
     "nwarpid", "smid", "nsmid", "gridid", "clusterid.x", "clusterid.y", "clusterid.z",
     "nclusterid.x", "nclusterid.y", "nclusterid.z", "cluster.ctaid.x", "cluster.ctaid.y",
     "cluster.ctaid.z", "cluster.nctaid.x", "cluster.nctaid.y", "cluster.nctaid.z",
     "cluster.ctarank", "cluster.nctarank", "lanemask.eq", "lanemask.le", "lanemask.lt",
     "lanemask.ge", "lanemask.gt", "clock", "globaltimer.lo", "total.smem.size",
     "aggr.smem.size", "dynamic.smem.size"] + [f"envreg{i}" for i in range(32)])
_SREGS_I64 = ["clock64", "globaltimer"]


def _sreg(reg, t):
    name = "nvvm.read.ptx.sreg." + reg
    cls_name = "ReadPtxSreg" + "".join(w.title() for w in reg.replace(".", "_").split("_")) \
        + "Op"
    body = {"name": name, "__module__": __name__, "result_type": t,
            "__doc__": f"`%r = {name} : {t}`"}
    if t is A.i64:
        body["res"] = Result(_I64)
    cls = type(cls_name, (_SRegOp,), body)
    install_format(cls)
    return cls


SREG_OPS = {reg: _sreg(reg, A.i32) for reg in _SREGS_I32}
SREG_OPS.update({reg: _sreg(reg, A.i64) for reg in _SREGS_I64})


# ---------------------------------------------------------------- synchronization

class BarrierOp(Op):
    """`nvvm.barrier` (bar.sync 0: every thread of the block), `nvvm.barrier id = %i
    number_of_threads = %n aligned = false`."""

    name = "nvvm.barrier"
    traits = (T.AttrSizedOperandSegments,)
    barrierId = OptOperand(_I32)
    numberOfThreads = OptOperand(_I32)
    aligned = Prop(C.BoolAttrC, default=A.IntegerAttr(1, A.i1))
    assembly = ("(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? "
                "(`aligned` `=` $aligned^)? attr-dict")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32

    @staticmethod
    def finish_parse(op):
        if "aligned" not in op._props:
            op.properties["aligned"] = A.IntegerAttr(1, A.i1)


class BarWarpSyncOp(Op):
    """`nvvm.bar.warp.sync %mask : i32`: the lanes in `%mask` wait for each other."""

    name = "nvvm.bar.warp.sync"
    mask = Operand(C.SignlessInteger)
    assembly = "$mask attr-dict `:` type($mask)"


def _no_operand_op(name, doc):
    cls = type("".join(w.title() for w in name[5:].split(".")) + "Op", (Op,),
               {"name": name, "__doc__": doc, "__module__": __name__,
                "assembly": "attr-dict"})
    install_format(cls)
    return cls


FenceScClusterOp = _no_operand_op("nvvm.fence.sc.cluster", "`nvvm.fence.sc.cluster`")
ClusterArriveOp = _no_operand_op("nvvm.cluster.arrive", "`nvvm.cluster.arrive`")
ClusterArriveRelaxedOp = _no_operand_op("nvvm.cluster.arrive.relaxed",
                                        "`nvvm.cluster.arrive.relaxed`")
ClusterWaitOp = _no_operand_op("nvvm.cluster.wait", "`nvvm.cluster.wait`")
CpAsyncCommitGroupOp = _no_operand_op("nvvm.cp.async.commit.group",
                                      "`nvvm.cp.async.commit.group`: closes the group of "
                                      "cp.async copies issued so far")


class ShflSyncOp(Op):
    """`%r = nvvm.shfl.sync bfly %mask, %v, %offset, %clamp : f32 -> f32`: PTX's
    shfl.sync; with `return_value_and_is_valid` the result is `!llvm.struct<(f32, i1)>`."""

    name = "nvvm.shfl.sync"
    thread_mask = Operand(_I32)
    val = Operand()
    offset = Operand(_I32)
    mask_and_clamp = Operand(_I32)
    kind = Prop(_enum(SHFL_KIND), fmt=EnumKeyword(SHFL_KIND))
    return_value_and_is_valid = OptProp(C.UnitAttrC)
    return_value_and_is_valid.fmt = UnitKeyword()
    res = Result()
    assembly = ("$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp "
                "(`return_value_and_is_valid` $return_value_and_is_valid^)? attr-dict "
                "`:` type($val) `->` type($res)")

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32 if name in ("thread_mask", "offset", "mask_and_clamp") else None

    def verify_(self):
        rt = self.res.type
        vt = self.val.type
        ts = getattr(rt, "types", None) if type(rt).__name__ == "LLVMStructType" else None
        if "return_value_and_is_valid" in self._props:
            if ts is None or len(ts) != 2:
                return "expected return type to be a two-element struct"
            if ts[0] is not vt:
                return (f"expected first element in the returned struct to be of type "
                        f"'{vt}' but got '{ts[0]}' instead")
            if ts[1] is not A.i1:
                return (f"expected second element in the returned struct to be of type "
                        f"'i1' but got '{ts[1]}' instead")
        else:
            if ts is not None:
                return ('"return_value_and_is_valid" attribute must be specified when the '
                        "return type is a struct type")
            if rt is not vt:
                return (f"expected return type to be of type '{vt}' but got '{rt}' "
                        "instead")
        return None


class VoteSyncOp(Op):
    """`%b = nvvm.vote.sync ballot %mask, %pred -> i32` (any/all/uni give i1)."""

    name = "nvvm.vote.sync"
    mask = Operand(_I32)
    pred = Operand(_I1)
    kind = Prop(_enum(VOTE_SYNC_KIND), fmt=EnumKeyword(VOTE_SYNC_KIND))
    res = Result(C.Constraint(lambda t: t in (A.i32, A.i1), "32-bit or 1-bit integer"))
    assembly = "$kind $mask `,` $pred attr-dict `->` type($res)"

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.i32 if name == "mask" else A.i1 if name == "pred" else None

    def verify_(self):
        k = self._props["kind"].value
        if k == "ballot":
            if self.res.type is not A.i32:
                return "vote.sync 'ballot' returns an i32"
        elif self.res.type is not A.i1:
            return "vote.sync 'any', 'all' and 'uni' returns an i1"
        return None


class RcpApproxFtzFOp(Op):
    """`%r = nvvm.rcp.approx.ftz.f %x : f32`: an approximate reciprocal."""

    name = "nvvm.rcp.approx.ftz.f"
    traits = (T.Pure,)
    arg = Operand(C.Constraint(lambda t: t is A.f32, "32-bit float"))
    res = Result(C.Constraint(lambda t: t is A.f32, "32-bit float"))
    assembly = "$arg attr-dict `:` type($res)"

    @classmethod
    def infer_result_types(cls, operands, props):
        return [A.f32]

    @classmethod
    def infer_operand_type(cls, name, types):
        return A.f32


# ---------------------------------------------------------------- asynchronous copies

def _ptr_space(t):
    return getattr(t, "addr_space", None) if type(t).__name__ == "LLVMPointerType" \
        else None


class CpAsyncOp(Op):
    """`nvvm.cp.async.shared.global %dst, %src, 16, cache = ca : !llvm.ptr<3>,
    !llvm.ptr<1>` (optionally `, %srcBytes` after the cache modifier): an asynchronous
    copy of 4, 8 or 16 bytes from global to shared memory."""

    name = "nvvm.cp.async.shared.global"
    dst = Operand(C.Constraint(lambda t: _ptr_space(t) == 3, "LLVM pointer in address "
                                                               "space 3"))
    src = Operand(C.Constraint(lambda t: _ptr_space(t) == 1, "LLVM pointer in address "
                                                               "space 1"))
    cpSize = OptOperand(_I32)
    size = Prop(C.I32Attr, fmt=BareInt(A.i32))
    modifier = Prop(_enum(LOAD_CACHE_MODIFIER), fmt=EnumKeyword(LOAD_CACHE_MODIFIER))
    assembly = ("$dst `,` $src `,` $size `,` `cache` `=` $modifier (`,` $cpSize^)? attr-dict "
                "`:` type(operands)")

    def verify_(self):
        size = self._props["size"].value
        mod = self._props["modifier"].value
        if mod not in ("ca", "cg"):
            return "Only CG and CA cache modifiers are supported."
        if size not in (4, 8, 16):
            return "expected byte size to be either 4, 8 or 16."
        if mod == "cg" and size != 16:
            return "CG cache modifier is only support for 16 bytes copy."
        return None


class CpAsyncWaitGroupOp(Op):
    """`nvvm.cp.async.wait.group 0`: waits until at most N copy groups are pending."""

    name = "nvvm.cp.async.wait.group"
    n = Prop(C.I32Attr, fmt=BareInt(A.i32))
    assembly = "$n attr-dict"


# ---------------------------------------------------------------- tensor cores

class LdMatrixOp(Op):
    """`%r = nvvm.ldmatrix %p, num = 4, layout = <row>, shape = <m = 8, n = 8>,
    element_type = <b16> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>`: loads
    `num` 8x8 matrices from shared memory into the fragments of a warp."""

    name = "nvvm.ldmatrix"
    ptr = Operand(C.Constraint(lambda t: _ptr_space(t) == 3, "LLVM pointer in address "
                                                               "space 3"))
    num = Prop(C.I32Attr, fmt=BareInt(A.i32))
    layout = Prop(_enum(MMA_LAYOUT), fmt=StrippedAttr("nvvm", "mma_layout"))
    shape = Prop(C.Constraint(lambda a: type(a) is ShapeAttr and
                              a.mnemonic == "ld_st_matrix_shape", "ld_st_matrix_shape"),
                 fmt=StrippedAttr("nvvm", "ld_st_matrix_shape"))
    eltType = Prop(_enum(LD_ST_MATRIX_ELT_TYPE),
                   fmt=StrippedAttr("nvvm", "ld_st_matrix_elt_type"))
    res = Result()
    assembly = ("$ptr `,` `num` `=` $num `,` `layout` `=` $layout `,` `shape` `=` $shape `,` "
                "`element_type` `=` $eltType attr-dict `:` functional-type($ptr, $res)")

    def verify_(self):
        num = self._props["num"].value
        if num not in (1, 2, 4):
            return "expected num attribute to be 1, 2 or 4"
        want = A.i32 if num == 1 else None
        rt = self.res.type
        if want is not None:
            if rt is not A.i32:
                return "expected destination type is i32"
        else:
            ts = getattr(rt, "types", None)
            if ts is None or len(ts) != num or any(t is not A.i32 for t in ts):
                return f"expected destination type is a structure of {num} elements of " \
                    "type i32"
        return None


_MMA_KEYS = (("b1Op", "b1_op", MMA_B1OP), ("intOverflowBehavior", "int_overflow",
                                             MMA_INT_OVERFLOW),
             ("layoutA", "layout_a", MMA_LAYOUT), ("layoutB", "layout_b", MMA_LAYOUT),
             ("multiplicandAPtxType", "multiplicand_a_ptx_type", MMA_TYPE),
             ("multiplicandBPtxType", "multiplicand_b_ptx_type", MMA_TYPE))
_MMA_BY_KEYWORD = {kw: (prop, kind) for prop, kw, kind in _MMA_KEYS}


def _infer_mma_type(t) -> str | None:
    """The PTX type of an mma multiplicand an operand type implies (i32 holds several)."""
    if type(t) is A.VectorType:
        t = t.element_type
        return {A.f16: "f16", A.bf16: "bf16"}.get(t)
    if t is A.f64:
        return "f64"
    return None


class MmaSyncOp(Op):
    """`%d = nvvm.mma.sync A[%a0, %a1] B[%b0] C[%c0, %c1] shape = <m = 16, n = 8, k = 8>,
    layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, vector<2xf16>) ->
    !llvm.struct<(vector<2xf16>, vector<2xf16>)>`: a warp-wide matrix multiply-add on
    tensor cores (PTX mma.sync), each lane holding its fragments."""

    name = "nvvm.mma.sync"
    traits = (T.AttrSizedOperandSegments,)
    operandA = VarOperand()
    operandB = VarOperand()
    operandC = VarOperand()
    shape = Prop(C.Constraint(lambda a: type(a) is ShapeAttr and a.mnemonic == "shape",
                              "MMA shape"))
    b1Op = OptProp(_enum(MMA_B1OP))
    intOverflowBehavior = OptProp(_enum(MMA_INT_OVERFLOW))
    layoutA = Prop(_enum(MMA_LAYOUT))
    layoutB = Prop(_enum(MMA_LAYOUT))
    multiplicandAPtxType = OptProp(_enum(MMA_TYPE))
    multiplicandBPtxType = OptProp(_enum(MMA_TYPE))
    res = Result()

    @staticmethod
    def parse(p, st):
        groups = []
        for name in ("A", "B", "C"):
            p.parse_keyword(name)
            groups.append(p.parse_operand_list("["))
        props = st.properties
        p.parse_keyword("shape")
        p.expect("=")
        props["shape"] = _parse_shape_body(p, "shape")
        while p.consume_if(","):
            start = p.tok_start
            kw = p.parse_keyword()
            entry = _MMA_BY_KEYWORD.get(kw)
            if entry is None or entry[0] in props:
                p.error(custom_op_prefix(p) + f"unexpected keyword '{kw}'", start)
            p.expect("=")
            props[entry[0]] = EnumKeyword(entry[1]).parse(p)
        p.parse_optional_attr_dict(st)
        p.expect(":")
        p.expect("(")
        types = [p.parse_type()]
        for _ in range(2):
            p.expect(",")
            types.append(p.parse_type())
        p.expect(")")
        p.expect("->")
        st.types = [p.parse_type()]
        st.operands = [p.resolve_operand(r, t) for refs, t in zip(groups, types)
                       for r in refs]
        props["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(g) for g in groups])
        for key, t in (("multiplicandAPtxType", types[0]),
                       ("multiplicandBPtxType", types[1])):
            if key not in props:
                inferred = _infer_mma_type(t)
                if inferred is not None:
                    props[key] = MMA_TYPE(inferred)

    def print(self, pr):
        out = pr.out
        out.append(pr.op_name(self))
        for name, vals in (("A", self.operandA), ("B", self.operandB),
                           ("C", self.operandC)):
            out.append(f" {name}[" + ", ".join(pr.value(v) for v in vals) + "] ")
        props = self._props
        out.append(" shape = " + props["shape"].body)
        types = [self.operandA[0].type if self.operandA else None,
                 self.operandB[0].type if self.operandB else None]
        for prop, kw, kind in _MMA_KEYS:
            a = props.get(prop)
            if a is None:
                continue
            if prop in ("multiplicandAPtxType", "multiplicandBPtxType"):
                t = types[0 if prop == "multiplicandAPtxType" else 1]
                if t is not None and _infer_mma_type(t) == a.value:
                    continue
            out.append(f", {kw} = {a.value}")
        extra = dict(self._attrs)
        pr.print_optional_attr_dict(extra)
        ts = [g[0].type if g else None for g in (self.operandA, self.operandB,
                                                 self.operandC)]
        out.append(" : (" + ", ".join(pr.type_str(t) for t in ts if t is not None) +
                   ") -> " + pr.type_str(self.res.type))

    def verify_(self):
        for name, g in (("A", self.operandA), ("B", self.operandB), ("C", self.operandC)):
            if not g:
                return f"expected at least one operand for matrix {name}"
            if any(v.type is not g[0].type for v in g):
                return f"expected all operands of matrix {name} to have the same type"
        m, n, k = (v for _, v in self._props["shape"].dims)
        if (m, n, k) not in {(8, 8, 4), (16, 8, 8), (16, 8, 16), (16, 8, 4), (16, 8, 32),
                             (8, 8, 16), (8, 8, 32), (16, 8, 64), (16, 8, 128),
                             (8, 8, 128), (16, 8, 256)}:
            return f"unimplemented variant for MMA shape <{m}, {n}, {k}>"
        return None


for _c in (BarrierOp, BarWarpSyncOp, ShflSyncOp, VoteSyncOp, RcpApproxFtzFOp, CpAsyncOp,
           CpAsyncWaitGroupOp, LdMatrixOp):
    install_format(_c)

_OPS = list(SREG_OPS.values()) + [
    BarrierOp, BarWarpSyncOp, FenceScClusterOp, ClusterArriveOp, ClusterArriveRelaxedOp,
    ClusterWaitOp, ShflSyncOp, VoteSyncOp, RcpApproxFtzFOp, CpAsyncOp, CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp, LdMatrixOp, MmaSyncOp]

# Discardable attributes upstream allows on llvm.func only (kernel launch bounds...).
_FUNC_ATTRS = frozenset({"nvvm.kernel", "nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm",
                         "nvvm.maxnreg", "nvvm.cluster_dim", "nvvm.cluster_max_blocks",
                         "nvvm.grid_constant"})


def _verify_operation_attribute(op, name, attr):
    """nvvm.kernel and the launch bounds belong on an llvm.func (upstream's
    verifyOperationAttribute)."""
    if name in _FUNC_ATTRS and name != "nvvm.grid_constant" and op.name != "llvm.func":
        from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
        d = Diagnostic(ERROR, op.loc, f"'{name}' attribute attached to unexpected op")
        d.op = op
        raise DiagnosticError(d)


NVVM = Dialect("nvvm", _OPS, parse_attribute=_parse_attribute,
               verify_operation_attribute=_verify_operation_attribute)
