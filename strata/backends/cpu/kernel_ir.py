"""Writing LLVM IR text from Python: a function under construction (`Fn`: numbered
values, labels, loops with loop-carried phis, switches) and vector idioms (splats, lane
masks, masked loads and stores, fused multiply-adds) for the CPU kernels
(kernels_gemm.py, kernels_conv.py).

    f = Fn("define void @f(ptr %p, i64 %n)")
    f.loop("0", "%n", 1, lambda i: f.do(f"store float 0.0, ptr {f.gep('%p', i)}, align 4"))
    f.do("ret void")
    text = f.text()

Vector helpers take the kernels' Isa (its `width` W: floats per vector).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .kernels import Isa

__all__ = ["Fn", "vec_type", "splat", "lane_mask", "vload", "vstore", "fma", "all_of",
           "attributes", "declarations", "VecApprox", "vexp", "vsoftmax_exp2",
           "vactivation"]

class Fn:
    """One LLVM function being written: numbered temporaries and labels, and the block
    being filled (for phis)."""

    __slots__ = ("out", "n", "block")

    def __init__(self, header: str):
        self.out = [header + " {", "entry:"]
        self.n = 0
        self.block = "entry"

    def __call__(self, rhs: str) -> str:
        """Emit `%tN = rhs`; returns %tN."""
        t = self.fresh()
        self.out.append(f"  {t} = {rhs}")
        return t

    def fresh(self) -> str:
        self.n += 1
        return f"%t{self.n}"

    def do(self, line: str) -> None:
        self.out.append("  " + line)

    def label(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def start(self, label: str) -> None:
        self.out.append(f"{label}:")
        self.block = label

    def br(self, label: str) -> None:
        self.do(f"br label %{label}")

    def cbr(self, cond: str, yes: str, no: str) -> None:
        self.do(f"br i1 {cond}, label %{yes}, label %{no}")

    def text(self) -> str:
        return "\n".join(self.out) + "\n}\n"

    # -- small idioms
    def gep(self, ptr: str, index: str, elt: str = "float") -> str:
        return self(f"getelementptr inbounds {elt}, ptr {ptr}, i64 {index}")

    def mul(self, a: str, b) -> str:
        return self(f"mul nsw i64 {a}, {b}")

    def add(self, a: str, b) -> str:
        return self(f"add nsw i64 {a}, {b}")

    def sub(self, a: str, b) -> str:
        return self(f"sub nsw i64 {a}, {b}")

    def min(self, a: str, b) -> str:
        return self(f"call i64 @llvm.smin.i64(i64 {a}, i64 {b})")

    def cmp(self, pred: str, a: str, b) -> str:
        return self(f"icmp {pred} i64 {a}, {b}")

    def loop(self, lo, hi, step, body, carried=()):
        """for (iv = lo; iv < hi; iv += step) { carried = body(iv, carried) }; `carried`
        is a list of (type, initial value); returns the carried values at the exit."""
        pre = self.block
        head, inside, done = self.label("head"), self.label("body"), self.label("exit")
        self.br(head)
        self.start(head)
        iv = self.fresh()
        phis = [self.fresh() for _ in carried]
        at = len(self.out)
        self.out.extend([None] * (1 + len(carried)))
        self.cbr(self(f"icmp slt i64 {iv}, {hi}"), inside, done)
        self.start(inside)
        new = body(iv, phis) if carried else (body(iv), [])[1]
        nxt = self.add(iv, step)
        latch = self.block
        self.br(head)
        self.out[at] = f"  {iv} = phi i64 [ {lo}, %{pre} ], [ {nxt}, %{latch} ]"
        for i, ((t, init), p, v) in enumerate(zip(carried, phis, new)):
            self.out[at + 1 + i] = f"  {p} = phi {t} [ {init}, %{pre} ], [ {v}, %{latch} ]"
        self.start(done)
        return phis

    def loop_with_tail(self, n: str, step: int, body) -> None:
        """body(i, step) for i = 0, step, ... while a whole step fits in [0, n), then
        body(i, 1) for the rest."""
        main = self.sub(n, self(f"srem i64 {n}, {step}"))
        self.loop("0", main, step, lambda i: body(i, step))
        if step > 1:
            self.loop(main, n, 1, lambda i: body(i, 1))

    def switch(self, value: str, cases: dict, emit) -> None:
        """switch i64 value over `cases` {constant: key}; emit(key) fills each case, all
        of which then continue after the switch (the last case is the default)."""
        keys = list(cases)
        labels = {k: self.label("case") for k in keys}
        done = self.label("join")
        table = " ".join(f"i64 {k}, label %{labels[k]}" for k in keys[:-1])
        self.do(f"switch i64 {value}, label %{labels[keys[-1]]} [ {table} ]")
        for k in keys:
            self.start(labels[k])
            emit(cases[k])
            self.br(done)
        self.start(done)


def vec_type(isa: Isa) -> str:
    return f"<{isa.width} x float>"


def splat(f: Fn, isa: Isa, scalar: str, elt: str = "float") -> str:
    vt = f"<{isa.width} x {elt}>"
    one = f(f"insertelement {vt} poison, {elt} {scalar}, i64 0")
    return f(f"shufflevector {vt} {one}, {vt} poison, <{isa.width} x i32> zeroinitializer")


def lane_mask(f: Fn, isa: Isa, n: str) -> str:
    """<W x i1>: lane l is on iff l < n (n an i64, any value)."""
    iota = ", ".join(f"i64 {i}" for i in range(isa.width))
    return f(f"icmp slt <{isa.width} x i64> <{iota}>, {splat(f, isa, n, 'i64')}")


def vload(f: Fn, isa: Isa, ptr: str, mask: str | None = None, align: int = 4) -> str:
    V, W = vec_type(isa), isa.width
    if mask is None:
        return f(f"load {V}, ptr {ptr}, align {align}")
    return f(f"call {V} @llvm.masked.load.v{W}f32.p0(ptr align 4 {ptr}, <{W} x i1> {mask}, "
             f"{V} zeroinitializer)")


def vstore(f: Fn, isa: Isa, value: str, ptr: str, mask: str | None = None,
            align: int = 4) -> None:
    V, W = vec_type(isa), isa.width
    if mask is None:
        f.do(f"store {V} {value}, ptr {ptr}, align {align}")
    else:
        f.do(f"call void @llvm.masked.store.v{W}f32.p0({V} {value}, ptr align 4 {ptr}, "
             f"<{W} x i1> {mask})")


def fma(f: Fn, isa: Isa, a: str, b: str, c: str) -> str:
    V = vec_type(isa)
    return f(f"call {V} @llvm.fmuladd.v{isa.width}f32({V} {a}, {V} {b}, {V} {c})")


def attributes(isa: Isa) -> str:
    parts = ["nounwind"]
    if isa.cpu:
        parts.append(f'"target-cpu"="{isa.cpu}"')
    if isa.features:
        parts.append(f'"target-features"="{isa.features}"')
    # internal helpers stay functions of their own: inlining them all into the drivers
    # makes LLVM's optimizer take seconds and the code no faster
    return (f"attributes #0 = {{ {' '.join(parts)} }}\n"
            f"attributes #1 = {{ noinline {' '.join(parts)} }}\n")


def declarations(isa: Isa) -> str:
    """Every intrinsic and libc function the kernels call, declared once for the whole
    kernel module (each kernels_*.py uses these and declares nothing itself: two
    declarations of one function do not parse)."""
    W, V = isa.width, vec_type(isa)
    return "\n".join([
        f"declare {V} @llvm.fmuladd.v{W}f32({V}, {V}, {V})",
        f"declare {V} @llvm.maximum.v{W}f32({V}, {V})",
        f"declare {V} @llvm.minimum.v{W}f32({V}, {V})",
        f"declare {V} @llvm.roundeven.v{W}f32({V})",
        f"declare {V} @llvm.floor.v{W}f32({V})",
        f"declare {V} @llvm.fabs.v{W}f32({V})",
        f"declare {V} @llvm.copysign.v{W}f32({V}, {V})",
        f"declare {V} @llvm.masked.gather.v{W}f32.v{W}p0(<{W} x ptr>, i32, <{W} x i1>, {V})",
        f"declare float @llvm.vector.reduce.fmaximum.v{W}f32({V})",
        "declare float @llvm.maximum.f32(float, float)",
        "declare float @llvm.fmuladd.f32(float, float, float)",
        f"declare {V} @llvm.masked.load.v{W}f32.p0(ptr, <{W} x i1>, {V})",
        f"declare void @llvm.masked.store.v{W}f32.p0({V}, ptr, <{W} x i1>)",
        f"declare float @llvm.vector.reduce.fadd.v{W}f32(float, {V})",
        "declare i64 @llvm.smin.i64(i64, i64)",
        "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)",
        "declare i32 @llvm.smin.i32(i32, i32)",
        "declare ptr @malloc(i64)",
        "declare void @free(ptr)", ""])


def all_of(f: Fn, conds: list) -> str:
    acc = conds[0]
    for c in conds[1:]:
        acc = f(f"and i1 {acc}, {c}")
    return acc


def f32_const(x: float) -> str:
    """An LLVM float constant (the f32 value of x, as LLVM's hex double form)."""
    import struct

    import numpy as np
    bits, = struct.unpack("<Q", struct.pack("<d", float(np.float32(x))))
    return f"0x{bits:016X}"


def vsplat(isa: Isa, x: float) -> str:
    """A constant vector of W copies of float x."""
    return f"<{', '.join(f'float {f32_const(x)}' for _ in range(isa.width))}>"


def _approx_base():
    from ...transforms.math.polynomial import Approx
    return Approx


class VecApprox(_approx_base()):
    """The builder of strata/transforms/math/polynomial.py (its `Approx`: Horner's rule,
    clamps, 2**k and the approximations built on them are its) writing <W x float> LLVM
    IR values of function `f` instead of arith ops: polynomial.py's approximations (exp,
    tanh, erf...) straight into a kernel, one copy of each computation for the compiled
    code and the kernels. Operands are values or Python numbers (splatted)."""

    __slots__ = ("fn", "isa")

    _FOPS = {"arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul",
             "arith.divf": "fdiv"}
    _IOPS = {"arith.shli": "shl", "arith.addi": "add", "arith.subi": "sub",
             "arith.shrsi": "ashr", "arith.andi": "and"}
    _CASTS = {"arith.fptosi": "fptosi", "arith.sitofp": "sitofp", "arith.bitcast": "bitcast"}
    _MATH = {"absf": "fabs", "roundeven": "roundeven", "copysign": "copysign",
             "floor": "floor"}

    def __init__(self, f: Fn, isa: Isa):
        W = isa.width
        self.fn, self.isa = f, isa
        self.t, self.it, self.bt = f"<{W} x float>", f"<{W} x i32>", f"<{W} x i1>"

    def f(self, value) -> str:
        return vsplat(self.isa, value)

    def i(self, value) -> str:
        return f"<{', '.join(f'i32 {int(value)}' for _ in range(self.isa.width))}>"

    def _fop(self, name, a, b):
        return self.fn(f"{self._FOPS[name]} {self.t} {a}, {b}")

    def muladd(self, a, b, c):
        return fma(self.fn, self.isa, self._v(a), self._v(b), self._v(c))

    def math(self, name, *xs):
        args = ", ".join(f"{self.t} {self._v(x)}" for x in xs)
        return self.fn(f"call {self.t} @llvm.{self._MATH[name]}.v{self.isa.width}f32({args})")

    def cmp(self, pred, a, b):
        return self.fn(f"fcmp {pred} {self.t} {self._v(a)}, {self._v(b)}")

    def select(self, c, a, b):
        return self.fn(f"select {self.bt} {c}, {self.t} {self._v(a)}, {self.t} {self._v(b)}")

    def ibin(self, name, a, b):
        a, b = (self.i(x) if isinstance(x, int) else x for x in (a, b))
        return self.fn(f"{self._IOPS[name]} {self.it} {a}, {b}")

    def op(self, name, operands, rt, props=None):
        # the operand is the other of (float vector, i32 vector) than the result
        src = self.it if rt == self.t else self.t
        return self.fn(f"{self._CASTS[name]} {src} {operands[0]} to {rt}")


def vexp(f: Fn, isa: Isa, x: str) -> str:
    """exp of the <W x float> `x` as strata-math-polynomial-approximation computes it
    (transforms/math/polynomial.py, through VecApprox): the one vector exp of the
    kernels (epilogues, attention's online softmax); NaN stays NaN."""
    from ...transforms.math.polynomial import exp
    return exp(VecApprox(f, isa), x)


def vsoftmax_exp2(f: Fn, isa: Isa, x: str) -> str:
    """2**x of the <W x float> `x`, x <= 0 (a softmax's shifted scores in the log2
    domain): polynomial.py's softmax_exp2, 0 below -126, NaN kept; about half the work
    of vexp (the attention kernel's online softmax)."""
    from ...transforms.math.polynomial import softmax_exp2
    return softmax_exp2(VecApprox(f, isa), x)


def vactivation(f: Fn, isa: Isa, act: str, x: str) -> str:
    """act(x) of the <W x float> `x`, `act` a name of cpu_kernel_abi.ACTS (see [Note:
    activation codes] there): the one vector form of every kernel epilogue's activations
    (GEMM, convolution, depthwise), NaN in giving NaN out."""
    from ...transforms.math.polynomial import erf, tanh
    ap = VecApprox(f, isa)
    if act == "none":
        return x
    if act == "relu":
        return ap.fn(f"call {ap.t} @llvm.maximum.v{isa.width}f32({ap.t} {x}, "
                     f"{ap.t} zeroinitializer)")
    if act == "relu6":      # the clip's selects (NaN kept)
        return ap.clamp_above(ap.clamp_below(x, 0.0), 6.0)
    if act in ("hardsigmoid", "hardswish"):
        W, V = isa.width, ap.t
        t = ap.muladd(x, 1 / 6, 0.5)
        t = ap.fn(f"call {V} @llvm.maximum.v{W}f32({V} {t}, {V} zeroinitializer)")
        t = ap.fn(f"call {V} @llvm.minimum.v{W}f32({V} {t}, {V} {ap.f(1.0)})")
        return t if act == "hardsigmoid" else ap.mul(x, t)
    if act in ("sigmoid", "silu"):
        s = ap.div(1.0, ap.add(vexp(f, isa, ap.fn(f"fneg {ap.t} {x}")), 1.0))
        return s if act == "sigmoid" else ap.mul(x, s)
    if act == "gelu":
        t = erf(ap, ap.mul(x, 0.7071067811865476))
    elif act == "gelu_tanh":
        t = tanh(ap, ap.mul(ap.add(x, ap.mul(0.044715, ap.mul(x, ap.mul(x, x)))),
                            0.7978845608028654))
    else:
        raise ValueError(f"unknown activation {act!r}")
    return ap.mul(ap.mul(x, 0.5), ap.add(t, 1.0))
