"""convert-math-to-llvm: math ops -> LLVM intrinsics where LLVM has one (upstream's
MathToLLVM), calls of the C math library otherwise (upstream's MathToLibm, folded into
the same pass: `tanhf` for f32, `tanh` for f64; f16/bf16 go through f32).

    math.sqrt %x : f32        -> llvm.intr.sqrt(%x) : (f32) -> f32
    math.expm1 %x : f32       -> llvm.intr.exp, llvm.fsub 1.0    (upstream's expansion)
    math.log1p / rsqrt        -> llvm.fadd 1.0 + intr.log / llvm.fdiv 1.0, intr.sqrt
    math.isnan / isinf / isfinite / isnormal -> llvm.intr.is.fpclass
    math.tanh %x : f32        -> llvm.call @tanhf(%x) : (f32) -> f32   (declared)
    math.ipowi %a, %b : i32   -> llvm.call @__strata_ipowi_i32 (a generated function)

The math library is the host's: the JIT resolves these symbols in the process (NumPy
loads libm), an AOT library links -lm. Library calls take scalars only.
"""
from __future__ import annotations

from ...dialects.llvm import types as LT
from ...ir import attributes as A
from ...ir.builder import Builder, InsertionPoint
from ...passes.pass_manager import Pass
from .builder import LLVMBuilder, llvm_op
from .common import (LLVMPattern, fastmath_of, lookup_or_declare, run_llvm_conversion,
                     symbol_table_body)
from .type_converter import LLVMTypeConverter

__all__ = ["ConvertMathToLLVM", "math_patterns", "LIBM"]

_INTRINSICS = {"math.absf": "fabs", "math.ceil": "ceil", "math.copysign": "copysign",
               "math.cos": "cos", "math.sin": "sin", "math.exp": "exp", "math.exp2": "exp2",
               "math.floor": "floor", "math.fma": "fma", "math.log": "log",
               "math.log10": "log10", "math.log2": "log2", "math.powf": "pow",
               "math.roundeven": "roundeven", "math.round": "round", "math.sqrt": "sqrt",
               "math.trunc": "trunc"}
# math op -> C function (double precision name; `f` suffix for f32)
LIBM = {"math.tan": "tan", "math.tanh": "tanh", "math.sinh": "sinh", "math.cosh": "cosh",
        "math.asin": "asin", "math.acos": "acos", "math.atan": "atan", "math.atan2": "atan2",
        "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh",
        "math.erf": "erf", "math.erfc": "erfc", "math.cbrt": "cbrt"}
_FPCLASS = {"math.isnan": 3, "math.isinf": 516, "math.isfinite": 504, "math.isnormal": 264}
_FALSE = A.IntegerAttr(0, A.i1)


def _props_fm(op):
    fm = fastmath_of(op)
    return {"fastmathFlags": fm} if fm is not None else {}


class IntrinsicLowering(LLVMPattern):
    def match_and_rewrite(self, op, operands, rewriter):
        t = self.tc.convert_type(op.results[0].type)
        if t is None or isinstance(t, LT.LLVMArrayType):
            return rewriter.notify_match_failure(op, "unsupported type")
        rm = op._props.get("roundingmode")
        if rm is not None and rm.value != 0:  # math.fma: llvm.intr.fma rounds to nearest
            return rewriter.notify_match_failure(op, "rounding modes other than "
                                                     "to_nearest_even are not supported")
        b = self.builder(rewriter, op)
        v = b.create("llvm.intr." + _INTRINSICS[op.name], list(operands), [t],
                     _props_fm(op)).results[0]
        rewriter.replace_op(op, [v])
        return True


class ExpandedLowering(LLVMPattern):
    """expm1, log1p, rsqrt (upstream's expansions), fpowi, the integer ops and the
    float classification ops."""

    def match_and_rewrite(self, op, operands, rewriter):
        t = self.tc.convert_type(op.results[0].type)
        if t is None or isinstance(t, LT.LLVMArrayType):
            return rewriter.notify_match_failure(op, "unsupported type")
        b = self.builder(rewriter, op)
        fm = _props_fm(op)
        n = op.name
        x = operands[0]
        if n in ("math.expm1", "math.log1p", "math.rsqrt"):
            one = _float_one(b, t)
            if n == "math.expm1":
                e = b.create("llvm.intr.exp", [x], [t], fm).results[0]
                v = b.create("llvm.fsub", [e, one], [t], fm).results[0]
            elif n == "math.log1p":
                s = b.create("llvm.fadd", [one, x], [t], fm).results[0]
                v = b.create("llvm.intr.log", [s], [t], fm).results[0]
            else:
                s = b.create("llvm.intr.sqrt", [x], [t], fm).results[0]
                v = b.create("llvm.fdiv", [one, s], [t], fm).results[0]
        elif n == "math.fpowi":
            v = b.create("llvm.intr.powi", list(operands), [t], fm).results[0]
        elif n in ("math.ctlz", "math.cttz"):
            v = b.create("llvm.intr." + n[5:], [x], [t], {"is_zero_poison": _FALSE}).results[0]
        elif n == "math.ctpop":
            v = b.create("llvm.intr.ctpop", [x], [t]).results[0]
        elif n == "math.absi":
            v = b.create("llvm.intr.abs", [x], [t], {"is_int_min_poison": _FALSE}).results[0]
        elif n in _FPCLASS:
            v = b.create("llvm.intr.is.fpclass", [x], [t],
                         {"bit": A.IntegerAttr(_FPCLASS[n], A.i32)}).results[0]
        elif n == "math.ipowi":
            if type(t) is not A.IntegerType:
                return rewriter.notify_match_failure(op, "vector ipowi")
            fn = _ipowi_function(rewriter, op, t)
            v = b.call(fn, list(operands), t)
        else:
            return rewriter.notify_match_failure(op, "no lowering")
        rewriter.replace_op(op, [v])
        return True


def _float_one(b, t):
    if type(t) is A.VectorType:
        from ...ir import dense as D
        return b.const_attr(D.DenseElementsAttr(t, 1.0), t)
    return b.const(1.0, t)


class LibmLowering(LLVMPattern):
    """A call of the C math library (f32: `tanhf`, f64: `tanh`; f16/bf16 through f32)."""

    def match_and_rewrite(self, op, operands, rewriter):
        t = self.tc.convert_type(op.results[0].type)
        if type(t) is not A.FloatType or t.name not in ("f16", "bf16", "f32", "f64"):
            return rewriter.notify_match_failure(op, "library calls take f16/bf16/f32/f64 "
                                                     "scalars")
        b = self.builder(rewriter, op)
        ct = A.f64 if t.name == "f64" else A.f32
        args = [v if v.type is ct else b.cast("llvm.fpext", v, ct) for v in operands]
        name = LIBM[op.name] + ("" if ct is A.f64 else "f")
        lookup_or_declare(rewriter, op, name, LT.LLVMFunctionType(ct, [ct] * len(args)))
        v = b.call(name, args, ct)
        if ct is not t:
            v = b.cast("llvm.fptrunc", v, t)
        rewriter.replace_op(op, [v])
        return True


def _ipowi_function(rewriter, op, t):
    """`__strata_ipowi_iN(base, exp)`: exponentiation by squaring; a negative exponent
    gives 1 for base 1, +-1 for base -1 and 0 otherwise (upstream's semantics)."""
    name = f"__strata_ipowi_i{t.width}"
    body = symbol_table_body(op)
    for o in body.ops:
        if "sym_name" in o._props and o._props["sym_name"].value == name:
            return name
    fn = llvm_op("llvm.func").new(name, LT.LLVMFunctionType(t, [t, t]), linkage="internal",
                                  loc=op.loc)
    region = fn.regions[0]
    entry = region.blocks[0]
    base, exp = entry.args
    bld = Builder(InsertionPoint.at_end(entry))
    b = LLVMBuilder(bld, op.loc)
    neg = bld.create_block(region)
    loop = bld.create_block(region, [t, t, t])
    step = bld.create_block(region)
    done = bld.create_block(region, [t])
    bld.set_insertion_point_to_end(entry)
    zero, one = b.const(0, t), b.const(1, t)
    minus_one = b.const(-1, t)
    is_neg = b.icmp("slt", exp, zero)
    b.create("llvm.cond_br", [is_neg, one, base, exp], [],
             {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 3])},
             successors=[neg, loop])
    bld.set_insertion_point_to_end(neg)
    odd = b.icmp("ne", b.binary("llvm.and", exp, one), zero)
    r = b.select(b.icmp("eq", base, minus_one), b.select(odd, minus_one, one), zero)
    r = b.select(b.icmp("eq", base, one), one, r)
    b.create("llvm.return", [r])
    bld.set_insertion_point_to_end(loop)
    acc, bb, n = loop.args
    b.create("llvm.cond_br", [b.icmp("eq", n, zero), acc], [],
             {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 1, 0])},
             successors=[done, step])
    bld.set_insertion_point_to_end(step)
    take = b.icmp("ne", b.binary("llvm.and", n, one), zero)
    acc2 = b.select(take, b.mul(acc, bb), acc)
    b.create("llvm.br", [acc2, b.mul(bb, bb), b.binary("llvm.lshr", n, one)], [],
             successors=[loop])
    bld.set_insertion_point_to_end(done)
    b.create("llvm.return", [done.args[0]])
    saved = rewriter.ip
    rewriter.ip = InsertionPoint.at_start(body)
    try:
        rewriter.insert(fn)
    finally:
        rewriter.ip = saved
    return name


_EXPANDED = ("math.expm1", "math.log1p", "math.rsqrt", "math.fpowi", "math.ctlz",
             "math.cttz", "math.ctpop", "math.absi", "math.ipowi") + tuple(_FPCLASS)


def math_patterns(tc) -> list:
    return [IntrinsicLowering(tc, root=n) for n in _INTRINSICS] + \
        [ExpandedLowering(tc, root=n) for n in _EXPANDED] + \
        [LibmLowering(tc, root=n) for n in LIBM]


class ConvertMathToLLVM(Pass):
    name = "convert-math-to-llvm"
    summary = "Convert Math dialect to LLVM dialect (library calls where LLVM has no "\
              "intrinsic)"

    def run(self, op):
        run_llvm_conversion(op, math_patterns(LLVMTypeConverter()))
