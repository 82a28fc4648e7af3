"""Arith rewrites for float types LLVM cannot compute with (f8*, f6*, f4*, bf16):

    arith-emulate-unsupported-floats   arithmetic, comparisons, math ops and int<->float
        casts on such types compute in f32: operands are extended (arith.extf), the
        result truncated back (arith.truncf). Options as upstream's (`source-types`,
        `target-type`), but with defaults: every small float type and bf16, to f32.
    arith-expand                       arith.extf / arith.truncf to or from such types
        become integer bit manipulation (small_floats.py). Of upstream's arith-expand
        this is the float-conversion part only (include-bf16, include-f8e8m0,
        include-f4e2m1, and every other f8/f6 type); ceildiv/floordiv and the float
        min/max ops are left to convert-arith-to-llvm, which lowers them exactly.

Run both before convert-arith-to-llvm / convert-to-llvm (the CPU target does).
"""
from __future__ import annotations

from ...ir import attributes as A
from ...ir.builder import Builder, InsertionPoint
from ...passes.pass_manager import Option, Pass
from ...passes.registry import register_pass
from .small_floats import FORMATS, emit_ext, emit_trunc, is_emulated_float

__all__ = ["ArithEmulateUnsupportedFloats", "ArithExpand"]

_FLOAT_OPS = frozenset((
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.negf",
    "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.cmpf"))


def _elem(t):
    return t.element_type if type(t) is A.VectorType else t


def _with_elem(t, e):
    return A.VectorType(t.shape, e) if type(t) is A.VectorType else e


def _float_type(name):
    return A.FloatType(name)


class ArithEmulateUnsupportedFloats(Pass):
    name = "arith-emulate-unsupported-floats"
    summary = "Emulate operations on unsupported floats with extf/truncf"
    source_types = Option(str, [], "MLIR types without arithmetic support on a given "
                          "target (default: every f8/f6/f4 type and bf16)", is_list=True)
    target_type = Option(str, "f32", "MLIR type to convert the unsupported source types to")

    def run(self, op):
        names = set(self.source_types) or set(FORMATS)
        target = _float_type(self.target_type)
        work = []
        for o in op.walk():
            n = o.name
            if n in _FLOAT_OPS or (n.startswith("math.") and n != "math.ipowi"):
                types = [_elem(v.type) for v in list(o.operands) + list(o.results)]
                if any(type(t) is A.FloatType and t.name in names for t in types):
                    work.append(o)
            elif n in ("arith.sitofp", "arith.uitofp"):
                if _elem(o.results[0].type).name in names:
                    work.append(o)
            elif n in ("arith.fptosi", "arith.fptoui"):
                t = _elem(o.operands[0].type)
                if type(t) is A.FloatType and t.name in names:
                    work.append(o)
        for o in work:
            _emulate(o, names, target)


def _emulate(op, names, target):
    b = Builder(InsertionPoint.before_op(op), op.loc)
    from ...conversion.scalar_builders import op_class
    ops = []
    for v in op.operands:
        e = _elem(v.type)
        if type(e) is A.FloatType and e.name in names:
            ext = op_class("arith.extf").create([v], [_with_elem(v.type, target)], loc=op.loc)
            b.insert(ext)
            v = ext.results[0]
        ops.append(v)
    res = []
    for r in op.results:
        e = _elem(r.type)
        res.append(_with_elem(r.type, target) if type(e) is A.FloatType and e.name in names
                   else r.type)
    new = type(op).create(ops, res, op._props, op._attrs, loc=op.loc)
    b.insert(new)
    outs = []
    for r, nr in zip(op.results, new.results):
        if nr.type is not r.type:
            t = op_class("arith.truncf").create([nr], [r.type], loc=op.loc)
            b.insert(t)
            nr = t.results[0]
        outs.append(nr)
    op.replace_all_uses_with(outs)
    op.erase()


class ArithExpand(Pass):
    name = "arith-expand"
    summary = "Legalize Arith ops to be convertible to LLVM."
    include_bf16 = Option(bool, True, "Enable the BF16 expansion patterns (Strata's "
                          "default: true)")
    include_f8e8m0 = Option(bool, True, "Enable the F8E8M0 expansion patterns")
    include_f4e2m1 = Option(bool, True, "Enable the F4E2M1 expansion patterns")

    def run(self, op):
        work = [o for o in op.walk() if o.name in ("arith.extf", "arith.truncf")
                and self._wanted(o)]
        for o in work:
            b = Builder(InsertionPoint.before_op(o), o.loc)
            src, dst = _elem(o.operands[0].type), _elem(o.results[0].type)
            if o.name == "arith.extf" and src.name in FORMATS:
                v = emit_ext(b, o.loc, o.operands[0], dst)
            elif o.name == "arith.extf":  # f16 -> small: not an extension upstream
                continue
            else:
                v = emit_trunc(b, o.loc, o.operands[0], dst)
            o.replace_all_uses_with([v])
            o.erase()

    def _wanted(self, o):
        ts = (_elem(o.operands[0].type), _elem(o.results[0].type))
        for t in ts:
            if not is_emulated_float(t):
                continue
            if t.name == "bf16" and not self.include_bf16:
                continue
            if t.name == "f8E8M0FNU" and not self.include_f8e8m0:
                continue
            if t.name == "f4E2M1FN" and not self.include_f4e2m1:
                continue
            return True
        return False


for _p in (ArithEmulateUnsupportedFloats, ArithExpand):
    register_pass(_p)
