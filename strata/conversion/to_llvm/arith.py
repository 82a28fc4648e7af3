"""convert-arith-to-llvm: arith ops -> llvm dialect ops, as upstream's ArithToLLVM.

    arith.addi %a, %b overflow<nsw> : i32   ->  llvm.add %a, %b overflow<nsw> : i32
    arith.addf %x, %y fastmath<fast> : f32  ->  llvm.fadd %x, %y fastmath<fast> : f32
    arith.cmpi slt, %a, %b : i32            ->  llvm.icmp "slt" %a, %b : i32
    arith.maxsi / maximumf / maxnumf        ->  llvm.intr.smax / maximum / maxnum
    arith.index_cast %i : index to i32      ->  llvm.trunc %i : i64 to i32
    arith.constant 5 : index                ->  llvm.mlir.constant(5 : i64) : i64
    arith.ceildivsi / ceildivui / floordivsi ->  sdiv/udiv + fix-up (upstream's expansion)

Scalars and 1-D vectors are converted (n-D vectors are left for later).

[Note: safe division]
Integer division or remainder by zero (and signed INT_MIN / -1) is immediate undefined
behaviour in LLVM: x86 raises SIGFPE, which kills the process. With the option
`safe-division=true` (ours; the CPU target sets it) divsi/divui/remsi/remui and the
ceil/floor divisions divide by `select(rhs == 0, 1, rhs)` (signed: also 1 when lhs is
INT_MIN and rhs is -1), so they are defined: x / 0 = x, x % 0 = 0, INT_MIN / -1 =
INT_MIN, INT_MIN % -1 = 0. Without it the output is upstream's.

Small float types (f8*, f6*, f4*) have no LLVM type: their values are integers of the
same width (their bit pattern), so constants, select, bitcast and memory ops work on
them; arithmetic, comparisons and extf/truncf on them must be rewritten first by
`arith-emulate-unsupported-floats` and `arith-expand` (strata/transforms/arith).
"""
from __future__ import annotations

from ...dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...ir import dense as D
from ...passes.pass_manager import Option, Pass
from .builder import fcmp_predicate, icmp_predicate
from .common import LLVMPattern, fastmath_of, overflow_of, run_llvm_conversion
from .type_converter import LLVMTypeConverter, is_small_float

__all__ = ["ConvertArithToLLVM", "arith_patterns"]

# arith op -> (llvm op, flags it carries: "fm" fastmath, "ov" overflow, "exact"...)
_ONE_TO_ONE = {
    "arith.addi": ("llvm.add", "ov"), "arith.subi": ("llvm.sub", "ov"),
    "arith.muli": ("llvm.mul", "ov"), "arith.shli": ("llvm.shl", "ov"),
    "arith.divsi": ("llvm.sdiv", "exact"), "arith.divui": ("llvm.udiv", "exact"),
    "arith.remsi": ("llvm.srem", ""), "arith.remui": ("llvm.urem", ""),
    "arith.andi": ("llvm.and", ""), "arith.ori": ("llvm.or", ""),
    "arith.xori": ("llvm.xor", ""), "arith.shrsi": ("llvm.ashr", "exact"),
    "arith.shrui": ("llvm.lshr", "exact"),
    "arith.addf": ("llvm.fadd", "fm"), "arith.subf": ("llvm.fsub", "fm"),
    "arith.mulf": ("llvm.fmul", "fm"), "arith.divf": ("llvm.fdiv", "fm"),
    "arith.remf": ("llvm.frem", "fm"), "arith.negf": ("llvm.fneg", "fm"),
    "arith.maxsi": ("llvm.intr.smax", ""), "arith.minsi": ("llvm.intr.smin", ""),
    "arith.maxui": ("llvm.intr.umax", ""), "arith.minui": ("llvm.intr.umin", ""),
    "arith.maximumf": ("llvm.intr.maximum", "fm"),
    "arith.minimumf": ("llvm.intr.minimum", "fm"),
    "arith.maxnumf": ("llvm.intr.maxnum", "fm"), "arith.minnumf": ("llvm.intr.minnum", "fm"),
    "arith.select": ("llvm.select", ""),
    "arith.extsi": ("llvm.sext", ""), "arith.extui": ("llvm.zext", "nneg"),
    "arith.trunci": ("llvm.trunc", "ov"), "arith.sitofp": ("llvm.sitofp", ""),
    "arith.uitofp": ("llvm.uitofp", "nneg"), "arith.fptosi": ("llvm.fptosi", ""),
    "arith.fptoui": ("llvm.fptoui", ""), "arith.extf": ("llvm.fpext", "fm"),
    "arith.truncf": ("llvm.fptrunc", "fm"),
}
_DIVISIONS = ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui")
_FLOAT_ONLY = frozenset(n for n, (_, f) in _ONE_TO_ONE.items() if f == "fm") | {"arith.cmpf"}


def _elem(t):
    return t.element_type if type(t) is A.VectorType else t


def _unsupported_float(op) -> bool:
    """Whether an op computes with a float type LLVM lacks (arith-emulate first)."""
    for v in list(op.operands) + list(op.results):
        if is_small_float(_elem(v.type)):
            return True
    return False


def _converted(tc, op, rewriter):
    """The converted result types (one each), or None with a match failure."""
    out = []
    for r in op.results:
        t = tc.convert_type(r.type)
        if t is None or isinstance(t, LT.LLVMArrayType):
            rewriter.notify_match_failure(op, f"cannot convert result type {r.type}")
            return None
        out.append(t)
    return out


class OneToOne(LLVMPattern):
    """An arith op with a direct llvm counterpart (module doc)."""

    def match_and_rewrite(self, op, operands, rewriter):
        target, flags = _ONE_TO_ONE[op.name]
        if op.name in _FLOAT_ONLY and _unsupported_float(op):
            return rewriter.notify_match_failure(
                op, "small float types: run arith-emulate-unsupported-floats and "
                    "arith-expand first")
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        ops = list(operands)
        if op.name == "arith.extf" and res[0] == ops[0].type or \
                op.name == "arith.truncf" and res[0] == ops[0].type:
            rewriter.replace_op(op, ops)
            return True
        b = self.builder(rewriter, op)
        rm = op._props.get("roundingmode")
        if op.name == "arith.truncf" and rm is not None and rm.value != 0:
            return rewriter.notify_match_failure(op, "rounding modes other than "
                                                     "to_nearest_even are not supported")
        if self.options.get("safe_division") and op.name in _DIVISIONS:
            ops[1] = _safe_divisor(b, op.name in ("arith.divsi", "arith.remsi"), *ops)
        props = _flag_props(op, flags)
        v = b.create(target, ops, res, props).results[0]
        rewriter.replace_op(op, [v])
        return True


def _flag_props(op, flags):
    props = {}
    if flags == "fm":
        fm = fastmath_of(op)
        if fm is not None:
            props["fastmathFlags"] = fm
    elif flags == "ov":
        ov = overflow_of(op)
        if ov is not None:
            props["overflowFlags"] = ov
    elif flags in ("exact", "nneg"):
        key = "isExact" if flags == "exact" else "nonNeg"
        if op._props.get(key) is not None:
            props[key] = A.UnitAttr()
    return props


def _splat_const(b, value, t):
    """An integer constant of type `t` (a vector gets a dense splat)."""
    if type(t) is A.VectorType:
        return b.const_attr(D.DenseElementsAttr(t, value), t)
    return b.const(value, t)


def _safe_divisor(b, signed, lhs, rhs):
    """`rhs`, with 1 where dividing by it would be undefined (see [Note: safe division])."""
    t = rhs.type
    w = _elem(t).width
    zero, one = _splat_const(b, 0, t), _splat_const(b, 1, t)
    bad = b.icmp("eq", rhs, zero)
    if signed and w > 1:
        int_min = _splat_const(b, -(1 << (w - 1)), t)
        minus_one = _splat_const(b, -1, t)
        ovf = b.binary("llvm.and", b.icmp("eq", lhs, int_min), b.icmp("eq", rhs, minus_one))
        bad = b.binary("llvm.or", bad, ovf)
    return b.select(bad, one, rhs)


class ConstantLowering(LLVMPattern):
    root = "arith.constant"

    def match_and_rewrite(self, op, operands, rewriter):
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        attr = _convert_constant(op._props["value"], res[0])
        if attr is None:
            return rewriter.notify_match_failure(op, "unsupported constant")
        v = self.builder(rewriter, op).const_attr(attr, res[0])
        rewriter.replace_op(op, [v])
        return True


def _convert_constant(a, t):
    """The constant attribute retyped to the converted type `t` (index -> i64, small
    floats -> their bit patterns), or None."""
    if type(a) is A.IntegerAttr:
        if type(a.type) is A.IndexType:
            w = t.width
            v = a.value & ((1 << w) - 1)
            return A.IntegerAttr(v - (1 << w) if v >> (w - 1) else v, t)
        return a if a.type is t else A.IntegerAttr(a.value, t)
    if type(a) is A.FloatAttr:
        if a.type is t:
            return a
        if type(t) is A.IntegerType:
            bits = a.bits
            return A.IntegerAttr(bits - (1 << t.width) if bits >> (t.width - 1) else bits, t)
        return None
    if isinstance(a, D.DenseElementsAttr):
        if a.type is t:
            return a
        if type(t) is A.VectorType and _same_bytes(a.type.element_type, t.element_type):
            return D.DenseElementsAttr.from_raw(t, a.raw)
        return None
    return None


def _same_bytes(s, d):
    if type(s) is A.IndexType:
        return type(d) is A.IntegerType and d.width == 64
    return getattr(s, "width", None) == getattr(d, "width", None)


class IndexCastLowering(LLVMPattern):
    """index_cast / index_castui: trunc, sext (zext for castui) or nothing."""

    def match_and_rewrite(self, op, operands, rewriter):
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        src = operands[0]
        sw, dw = _elem(src.type).width, _elem(res[0]).width
        if sw == dw:
            rewriter.replace_op(op, [src])
            return True
        if dw < sw:
            name = "llvm.trunc"
        else:
            name = "llvm.zext" if op.name == "arith.index_castui" else "llvm.sext"
        rewriter.replace_op(op, [self.builder(rewriter, op).cast(name, src, res[0])])
        return True


class BitcastLowering(LLVMPattern):
    root = "arith.bitcast"

    def match_and_rewrite(self, op, operands, rewriter):
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        src = operands[0]
        if src.type == res[0]:
            rewriter.replace_op(op, [src])
            return True
        rewriter.replace_op(op, [self.builder(rewriter, op).cast("llvm.bitcast", src, res[0])])
        return True


class CmpLowering(LLVMPattern):
    """cmpi -> llvm.icmp, cmpf -> llvm.fcmp (same predicate names)."""

    def match_and_rewrite(self, op, operands, rewriter):
        if op.name == "arith.cmpf" and _unsupported_float(op):
            return rewriter.notify_match_failure(
                op, "small float types: run arith-emulate-unsupported-floats first")
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        pred = op._props["predicate"].value
        b = self.builder(rewriter, op)
        if op.name == "arith.cmpi":
            props = {"predicate": icmp_predicate(CMPI_PREDICATES[pred])}
            name = "llvm.icmp"
        else:
            props = {"predicate": fcmp_predicate(CMPF_PREDICATES[pred])}
            fm = fastmath_of(op)
            if fm is not None:
                props["fastmathFlags"] = fm
            name = "llvm.fcmp"
        rewriter.replace_op(op, [b.create(name, list(operands), res, props).results[0]])
        return True


class DivExpansion(LLVMPattern):
    """ceildivsi, ceildivui, floordivsi: upstream's expansions, in llvm ops."""

    def match_and_rewrite(self, op, operands, rewriter):
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        b = self.builder(rewriter, op)
        a, m = operands
        t = a.type
        safe = self.options.get("safe_division")
        if op.name == "arith.ceildivui":
            zero = _splat_const(b, 0, t)
            is_zero = b.icmp("eq", a, zero)
            one = _splat_const(b, 1, t)
            minus = b.sub(a, one)
            if safe:
                m = _safe_divisor(b, False, minus, m)
            q = b.binary("llvm.udiv", minus, m)
            v = b.select(is_zero, zero, b.add(q, one))
        elif op.name == "arith.ceildivsi":
            zero, one = _splat_const(b, 0, t), _splat_const(b, 1, t)
            if safe:
                m = _safe_divisor(b, True, a, m)
            q = b.binary("llvm.sdiv", a, m)
            not_exact = b.icmp("ne", a, b.mul(q, m))
            same = b.icmp("eq", b.icmp("slt", a, zero), b.icmp("slt", m, zero))
            v = b.select(b.binary("llvm.and", not_exact, same), b.add(q, one), q)
        else:  # floordivsi
            if safe:
                m = _safe_divisor(b, True, a, m)
            q = b.binary("llvm.sdiv", a, m)
            not_exact = b.icmp("ne", a, b.mul(q, m))
            zero = _splat_const(b, 0, t)
            differ = b.icmp("ne", b.icmp("slt", a, zero), b.icmp("slt", m, zero))
            v = b.select(b.binary("llvm.and", not_exact, differ),
                         b.add(q, _splat_const(b, -1, t)), q)
        rewriter.replace_op(op, [v])
        return True


class ExtendedLowering(LLVMPattern):
    """addui_extended -> llvm.intr.uadd.with.overflow; mul{s,u}i_extended -> a double
    width multiplication split in two."""

    def match_and_rewrite(self, op, operands, rewriter):
        res = _converted(self.tc, op, rewriter)
        if res is None:
            return False
        b = self.builder(rewriter, op)
        lhs, rhs = operands
        if op.name == "arith.addui_extended":
            st = LT.LLVMStructType(res)
            pair = b.create("llvm.intr.uadd.with.overflow", [lhs, rhs], [st]).results[0]
            rewriter.replace_op(op, [b.extractvalue(pair, [0]), b.extractvalue(pair, [1])])
            return True
        t = lhs.type
        w = _elem(t).width
        wide = A.VectorType(t.shape, A.IntegerType(2 * w)) if type(t) is A.VectorType \
            else A.IntegerType(2 * w)
        ext = "llvm.sext" if op.name == "arith.mulsi_extended" else "llvm.zext"
        mul = b.mul(b.cast(ext, lhs, wide), b.cast(ext, rhs, wide))
        low = b.cast("llvm.trunc", mul, t)
        high = b.cast("llvm.trunc", b.binary("llvm.lshr", mul, _splat_const(b, w, wide)), t)
        rewriter.replace_op(op, [low, high])
        return True


def arith_patterns(tc, safe_division=False) -> list:
    opts = {"safe_division": safe_division}
    pats = [OneToOne(tc, root=n, **opts) for n in _ONE_TO_ONE]
    pats += [ConstantLowering(tc), IndexCastLowering(tc, root="arith.index_cast"),
             IndexCastLowering(tc, root="arith.index_castui"), BitcastLowering(tc),
             CmpLowering(tc, root="arith.cmpi"), CmpLowering(tc, root="arith.cmpf")]
    pats += [DivExpansion(tc, root=n, **opts)
             for n in ("arith.ceildivsi", "arith.ceildivui", "arith.floordivsi")]
    pats += [ExtendedLowering(tc, root=n) for n in
             ("arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended")]
    return pats


ARITH_OPS = tuple(_ONE_TO_ONE) + (
    "arith.constant", "arith.index_cast", "arith.index_castui", "arith.bitcast",
    "arith.cmpi", "arith.cmpf", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
    "arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended")


class ConvertArithToLLVM(Pass):
    name = "convert-arith-to-llvm"
    summary = "Convert Arith dialect to LLVM dialect"
    index_bitwidth = Option(int, 0, "Bitwidth of the index type, 0 to use size of machine "
                            "word")
    safe_division = Option(bool, False, "(Strata) integer division by zero and signed "
                           "overflow give a defined result instead of undefined behaviour")

    def run(self, op):
        tc = LLVMTypeConverter(self.index_bitwidth or 64)
        run_llvm_conversion(op, arith_patterns(tc, self.safe_division), illegal=ARITH_OPS)
