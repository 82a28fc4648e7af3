"""The host side of a model compiled for the cuda target, as a launch plan: what the
host function (after gpu-kernel-outlining) does, as a list of steps worked out once per
model and run in Python on every call.

    func.func @main(%arg0: memref<2x8xf32>) -> memref<2x8xf32> {
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
      gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1)
          threads in (%c16, %c1, %c1) args(%arg0 : memref<2x8xf32>, %alloc : ...)
      return %alloc : memref<2x8xf32>
    }
=>  Plan: [Alloc r2 64 bytes, Launch main_kernel::main_kernel grid (1,1,1) block (16,1,1)
           args (r0, r2), Return (r2)]      (constants folded into the steps)

[Note: the plan's values]
Every SSA value of the host function gets a register. Index and integer values are
Python ints, floats Python floats, memrefs `DeviceRef`s: a device pointer (the aligned
one; allocations are aligned by the driver), an element offset, sizes and strides, and
the buffer that owns the memory. Views (expand_shape, collapse_shape, cast,
reinterpret_cast, subview) make a new DeviceRef of the same buffer, their layout read
from their result type (static layouts; a dynamic one is refused when the plan is
built). Ops the plan does not know are refused when the plan is built, with the op's
location: everything that loops runs in kernels (strata-gpu-launch-sequential).

[Note: kernel arguments]
A kernel lowered by convert-gpu-to-nvvm takes each memref as upstream's descriptor,
field by field (allocated pointer, aligned pointer, offset, sizes, strides: i64 but the
pointers), each index as an i64, each integer or float as itself; cuLaunchKernel takes
an array of pointers to the values (`pack_arguments`).
"""
from __future__ import annotations

import ctypes
import math
import struct

import numpy as np

from ...errors import StrataError
from ...ir import attributes as A
from ...ir.diagnostics import ERROR, Diagnostic, DiagnosticError

__all__ = ["Plan", "DeviceRef", "build_plan", "pack_arguments", "Launch", "row_major"]


class DeviceRef:
    """A memref on the device (see [Note: the plan's values])."""

    __slots__ = ("ptr", "offset", "sizes", "strides", "dtype", "buffer")

    def __init__(self, ptr, offset, sizes, strides, dtype, buffer=None):
        self.ptr = int(ptr)
        self.offset = int(offset)
        self.sizes = tuple(int(s) for s in sizes)
        self.strides = tuple(int(s) for s in strides)
        self.dtype = np.dtype(dtype)
        self.buffer = buffer

    @property
    def nbytes(self) -> int:
        return math.prod(self.sizes) * self.dtype.itemsize

    def is_contiguous(self) -> bool:
        """Row-major over its elements: a size-1 dimension's stride and an empty
        array's strides (no element to address) do not matter."""
        if 0 in self.sizes:
            return True
        expect = 1
        for n, s in zip(reversed(self.sizes), reversed(self.strides)):
            if n != 1 and s != expect:
                return False
            expect *= n
        return True

    def __repr__(self):
        return (f"DeviceRef(0x{self.ptr:x}+{self.offset}, {list(self.sizes)}, "
                f"{list(self.strides)}, {self.dtype})")


def _fail(op, message):
    raise DiagnosticError(Diagnostic(ERROR, op.loc, message))


def _dtype(t):
    from ...interpreter.values import dtype_of
    return dtype_of(t)


def _layout(t):
    """(offset, strides) of a memref type with a static strided layout, or None."""
    from ...dialects.memref_layout import strides_and_offset
    try:
        strides, offset = strides_and_offset(t)
    except (StrataError, ValueError, TypeError):
        return None
    if offset == A.DYNAMIC or any(s == A.DYNAMIC for s in strides):
        return None
    return offset, list(strides)


# ---------------------------------------------------------------- steps

class Launch:
    """gpu.launch_func: a kernel of a gpu.module on a grid, with its arguments."""

    __slots__ = ("module", "kernel", "grid", "block", "shared", "args", "types", "op_name",
                 "where")

    def __init__(self, module, kernel, grid, block, shared, args, types, where):
        self.module = module
        self.kernel = kernel
        self.grid = grid        # 3 registers
        self.block = block      # 3 registers
        self.shared = shared    # register or None
        self.args = args        # registers
        self.types = types      # their MLIR types
        self.where = where      # the location text of the op the kernel came from

    def __repr__(self):
        return f"Launch @{self.module}::@{self.kernel}"


class Plan:
    """Steps over registers (see [Note: the plan's values]). `run(device, inputs)` runs
    them on `device` (an object with alloc/free/copy/read/launch, runtime.py's or a
    test's)."""

    __slots__ = ("function", "nregs", "steps", "results", "weights", "num_args",
                 "arg_types")

    def __init__(self, function):
        self.function = function
        self.nregs = 0
        self.steps: list = []       # (kind, ...) tuples
        self.results: list = []     # registers
        self.weights: dict = {}     # global name -> array
        self.num_args = 0
        self.arg_types: list = []

    def launches(self) -> list:
        """Every Launch of the plan, in scf.if / scf.for steps too."""
        out = []

        def visit(steps):
            for s in steps:
                if s[0] == "launch":
                    out.append(s[1])
                elif s[0] == "if":
                    visit(s[2])
                    visit(s[4])
                elif s[0] == "for":
                    visit(s[5])
        visit(self.steps)
        return out

    def run(self, device, inputs) -> list:
        """The results (DeviceRefs and scalars) of the host function on `inputs`
        (DeviceRefs and scalars, in argument order)."""
        regs = [None] * self.nregs
        regs[:self.num_args] = inputs
        self._exec(self.steps, regs, device)
        return [regs[r] for r in self.results]

    def _exec(self, steps, regs, device):
        for step in steps:
            kind = step[0]
            if kind == "const":
                regs[step[1]] = step[2]
            elif kind == "scalar":
                regs[step[1]] = step[2](*[regs[r] for r in step[3]])
            elif kind == "alloc":
                _, r, shape, dynamic, dtype = step
                sizes = list(shape)
                for i, reg in dynamic:
                    sizes[i] = regs[reg]
                n = math.prod(sizes) * dtype.itemsize
                buf = device.alloc(n)
                regs[r] = DeviceRef(buf.ptr, 0, sizes, row_major(sizes), dtype, buf)
            elif kind == "dealloc":
                ref = regs[step[1]]
                if ref.buffer is not None:
                    device.free(ref.buffer)
            elif kind == "global":
                _, r, name, shape, dtype = step
                buf = device.weight(name)
                regs[r] = DeviceRef(buf.ptr, 0, shape, row_major(shape), dtype, buf)
            elif kind == "view":
                _, r, src, offset, sizes, strides = step
                s = regs[src]
                regs[r] = DeviceRef(s.ptr, offset, sizes, strides, s.dtype, s.buffer)
            elif kind == "load":
                _, r, src, idx, dtype = step
                ref = regs[src]
                off = ref.offset + sum(regs[i] * st for i, st in zip(idx, ref.strides))
                regs[r] = device.read(ref.ptr + off * dtype.itemsize, dtype)
            elif kind == "reshape":
                _, r, src, shp, n, dt = step
                s, sref = regs[src], regs[shp]
                sizes = [int(device.read(sref.ptr + (sref.offset + i * sref.strides[0]) *
                                         dt.itemsize, dt)) for i in range(n)]
                regs[r] = DeviceRef(s.ptr, s.offset, sizes, row_major(sizes), s.dtype,
                                    s.buffer)
            elif kind == "dim":
                regs[step[1]] = regs[step[2]].sizes[regs[step[3]]]
            elif kind == "copy":
                src, dst = regs[step[1]], regs[step[2]]
                device.copy(dst.ptr + dst.offset * dst.dtype.itemsize,
                            src.ptr + src.offset * src.dtype.itemsize, src.nbytes)
            elif kind == "launch":
                device.launch(step[1], regs)
            elif kind == "assert":
                if not regs[step[1]]:
                    device.fail(step[2])
            elif kind == "if":
                _, c, ts, ty, es, ey, rs = step
                sub, ys = (ts, ty) if regs[c] else (es, ey)
                self._exec(sub, regs, device)
                vals = [regs[y] for y in ys]
                for r, v in zip(rs, vals):
                    regs[r] = v
            elif kind == "for":
                _, (lb, ub, st), iv, iters, inits, body, ys, rs = step
                vals = [regs[i] for i in inits]
                for i in range(regs[lb], regs[ub], regs[st]):
                    regs[iv] = i
                    for a, v in zip(iters, vals):
                        regs[a] = v
                    self._exec(body, regs, device)
                    vals = [regs[y] for y in ys]
                for r, v in zip(rs, vals):
                    regs[r] = v

    def __repr__(self):
        return f"<Plan @{self.function}: {len(self.steps)} steps, " \
               f"{len(self.launches())} launches>"


def row_major(sizes):
    """Row-major (contiguous) strides of `sizes`, in elements."""
    strides, n = [], 1
    for s in reversed(sizes):
        strides.append(n)
        n *= s
    return list(reversed(strides))


# ---------------------------------------------------------------- building

def _c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


_INT_OPS = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b, "arith.divsi": _c_div,
    "arith.divui": lambda a, b: a // b, "arith.remsi": lambda a, b: a - b * _c_div(a, b),
    "arith.remui": lambda a, b: a % b,
    "arith.ceildivsi": lambda a, b: -((-a) // b), "arith.ceildivui": lambda a, b: -((-a) // b),
    "arith.floordivsi": lambda a, b: a // b, "arith.maxsi": max, "arith.minsi": min,
    "arith.maxui": max, "arith.minui": min, "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b, "arith.xori": lambda a, b: a ^ b,
    "arith.index_cast": lambda a: a, "arith.index_castui": lambda a: a,
    "arith.extsi": lambda a: a, "arith.extui": lambda a: a, "arith.trunci": lambda a: a,
    "arith.select": lambda c, a, b: a if c else b,
}
_FLOAT_OPS = {
    "arith.addf": lambda a, b: a + b, "arith.subf": lambda a, b: a - b,
    "arith.mulf": lambda a, b: a * b, "arith.negf": lambda a: -a,
    "arith.maximumf": lambda a, b: a if a != a or a > b else b,
    "arith.minimumf": lambda a, b: a if a != a or a < b else b,
    "math.floor": math.floor, "math.ceil": math.ceil, "math.trunc": math.trunc,
    "math.absf": abs, "math.round": lambda a: math.copysign(math.floor(abs(a) + 0.5), a),
    "math.roundeven": round,
    # (host scalars: sizes computed in floating point, e.g. mel filter banks)
    "math.exp": lambda a: _real(np.exp, a), "math.exp2": lambda a: _real(np.exp2, a),
    "math.expm1": lambda a: _real(np.expm1, a), "math.log": lambda a: _real(np.log, a),
    "math.log2": lambda a: _real(np.log2, a), "math.log10": lambda a: _real(np.log10, a),
    "math.log1p": lambda a: _real(np.log1p, a),
    "math.powf": lambda a, b: _real(np.power, a, b)}


def _real(f, *a):
    """A NumPy float64 function on host scalars: IEEE results (inf, NaN), no warnings."""
    with np.errstate(all="ignore"):
        return float(f(*(np.float64(x) for x in a)))
# fcmp predicates (false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true)
_CMPF = [lambda a, b: False, lambda a, b: a == b, lambda a, b: a > b,
         lambda a, b: a >= b, lambda a, b: a < b, lambda a, b: a <= b,
         lambda a, b: a == a and b == b and a != b, lambda a, b: a == a and b == b,
         lambda a, b: not (a < b or a > b), lambda a, b: not a <= b,
         lambda a, b: not a < b, lambda a, b: not a >= b, lambda a, b: not a > b,
         lambda a, b: a != b, lambda a, b: a != a or b != b, lambda a, b: True]


def _divf(a, b):
    if b == 0:
        return math.copysign(math.inf, a) * math.copysign(1.0, b) if a == a and a != 0 \
            else math.nan
    return a / b


def _to_int(width, signed):
    """fptosi / fptoui to `width` bits (out of range: saturated, as NVPTX's cvt.rzi)."""
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    return lambda a: 0 if a != a else int(max(lo, min(hi, math.trunc(a)))) \
        if math.isfinite(a) else (hi if a > 0 else lo)


_CMPI = [lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b, lambda a, b: a <= b,
         lambda a, b: a > b, lambda a, b: a >= b, lambda a, b: a < b, lambda a, b: a <= b,
         lambda a, b: a > b, lambda a, b: a >= b]
_VIEWS = frozenset({"memref.expand_shape", "memref.collapse_shape", "memref.cast",
                    "memref.reinterpret_cast", "memref.subview"})


def build_plan(func_op, module) -> Plan:
    """The Plan of host function `func_op` (a func.func of `module` after
    gpu-kernel-outlining); located DiagnosticError for an op it cannot run."""
    from ...interpreter.values import attr_to_value
    from ...ir.symbol_table import symbol_name
    plan = Plan(symbol_name(func_op))
    blocks = func_op.regions[0].blocks
    if len(blocks) != 1:
        _fail(func_op, "the cuda target runs host functions of one block (found "
                       f"{len(blocks)}): control flow belongs in kernels")
    regs = {}

    def reg(v):
        r = regs.get(v)
        if r is None:
            r = regs[v] = plan.nregs
            plan.nregs += 1
        return r

    def use(op, v):
        r = regs.get(v)
        if r is None:
            _fail(op, "operand defined outside the host function")
        return r

    for a in blocks[0].args:
        reg(a)
        plan.arg_types.append(a.type)
    plan.num_args = len(blocks[0].args)
    globals_ = {symbol_name(o): o for o in module.regions[0].ops
                if o.name == "memref.global"}
    consts = {}

    def emit(ops, steps):
        """Append the steps of `ops` to `steps`; the registers an scf.yield yields."""
        for op in ops:
            name = op.name
            if name == "arith.constant":
                v = op.properties["value"]
                if isinstance(v, A.IntegerAttr):
                    val = v.value
                elif isinstance(v, A.FloatAttr):
                    val = float(v.value)
                else:
                    _fail(op, f"the cuda target cannot hold constant {v} on the host")
                consts[op.results[0]] = val
                steps.append(("const", reg(op.results[0]), val))
            elif name in _INT_OPS:
                steps.append(("scalar", reg(op.results[0]), _INT_OPS[name],
                                   [use(op, v) for v in op.operands]))
            elif name in _FLOAT_OPS or name in ("arith.divf", "arith.extf", "arith.truncf",
                                                 "arith.sitofp", "arith.uitofp", "math.sqrt"):
                rt = op.results[0].type
                f = _FLOAT_OPS.get(name) or {"arith.divf": _divf, "math.sqrt": _sqrt}.get(name)
                if f is None:     # conversions: the value, rounded to the result's float type
                    f = (lambda a: a)
                steps.append(("scalar", reg(op.results[0]), _rounded(f, rt),
                                   [use(op, v) for v in op.operands]))
            elif name in ("arith.fptosi", "arith.fptoui"):
                w = op.results[0].type.width if isinstance(op.results[0].type,
                                                           A.IntegerType) else 64
                steps.append(("scalar", reg(op.results[0]),
                                   _to_int(w, name == "arith.fptosi"),
                                   [use(op, v) for v in op.operands]))
            elif name == "arith.cmpf":
                f = _CMPF[op.properties["predicate"].value]
                steps.append(("scalar", reg(op.results[0]), f,
                                   [use(op, v) for v in op.operands]))
            elif name == "memref.load":
                src = op.operand(0)
                idx = [use(op, v) for v in op.operands[1:]]
                steps.append(("load", reg(op.results[0]), use(op, src), idx,
                                   _dtype(src.type.element_type)))
            elif name == "arith.cmpi":
                pred = op.properties["predicate"].value
                f = _CMPI[pred]
                steps.append(("scalar", reg(op.results[0]), f,
                                   [use(op, v) for v in op.operands]))
            elif name in ("memref.alloc", "memref.alloca"):
                t = op.results[0].type
                dyn = [i for i, d in enumerate(t.shape) if d == A.DYNAMIC]
                if len(dyn) != len(op.operands) or not _is_identity(t):
                    _fail(op, f"the cuda target allocates buffers of identity layout only, not "
                              f"'{t}'")
                steps.append(("alloc", reg(op.results[0]), list(t.shape),
                                   [(i, use(op, v)) for i, v in zip(dyn, op.operands)],
                                   _dtype(t.element_type)))
            elif name == "memref.dealloc":
                steps.append(("dealloc", use(op, op.operand(0))))
            elif name == "memref.get_global":
                gname = op.properties["name"].root
                g = globals_.get(gname)
                t = op.results[0].type
                init = g.properties.get("initial_value") if g is not None else None
                if init is None or not isinstance(init, A.Attribute) or \
                        not t.has_static_shape:
                    _fail(op, f"the cuda target needs the initial value of @{gname}")
                plan.weights[gname] = np.ascontiguousarray(np.asarray(attr_to_value(
                    init, A.RankedTensorType(t.shape, t.element_type)))).reshape(t.shape)
                steps.append(("global", reg(op.results[0]), gname, list(t.shape),
                                   _dtype(t.element_type)))
            elif name == "memref.reshape":
                # (sizes from a shape buffer on the device: read back, contiguous result)
                t = op.results[0].type
                shape_ref = op.operand(1)
                n = shape_ref.type.shape[0]
                steps.append(("reshape", reg(op.results[0]), use(op, op.operand(0)),
                              use(op, shape_ref), n, _dtype(shape_ref.type.element_type)))
            elif name in _VIEWS:
                t = op.results[0].type
                lay = _layout(t) if isinstance(t, A.MemRefType) and t.has_static_shape else None
                if lay is not None:
                    steps.append(("view", reg(op.results[0]), use(op, op.operand(0)),
                                       lay[0], list(t.shape), lay[1]))
                else:
                    fn, regs_in = _dynamic_view(op, use)
                    steps.append(("scalar", reg(op.results[0]), fn,
                                       [use(op, op.operand(0))] + regs_in))
            elif name == "memref.dim":
                steps.append(("dim", reg(op.results[0]), use(op, op.operand(0)),
                                   use(op, op.operand(1))))
            elif name == "memref.copy":
                for v in op.operands:
                    t = v.type
                    lay = _layout(t) if isinstance(t, A.MemRefType) else None
                    if lay is None or lay[1] != row_major(t.shape):
                        _fail(op, "the cuda target copies contiguous buffers on the host only "
                                  f"(not '{t}')")
                steps.append(("copy", use(op, op.operand(0)), use(op, op.operand(1))))
            elif name == "cf.assert":
                steps.append(("assert", use(op, op.operand(0)),
                                   op.properties["msg"].value))
            elif name == "gpu.launch_func":
                steps.append(("launch", _launch(op, use)))
            elif name == "func.return":
                plan.results = [use(op, v) for v in op.operands]
            elif name == "scf.if":
                then_steps, else_steps = [], []
                ty = emit(op.regions[0].blocks[0].ops, then_steps)
                ey = emit(op.regions[1].blocks[0].ops, else_steps) \
                    if op.regions[1].blocks else []
                steps.append(("if", use(op, op.operand(0)), then_steps, ty, else_steps,
                              ey, [reg(r) for r in op.results]))
            elif name == "scf.for":
                blk = op.regions[0].blocks[0]
                body_steps = []
                iv, iters = reg(blk.args[0]), [reg(a) for a in blk.args[1:]]
                ys = emit(blk.ops, body_steps)
                steps.append(("for", [use(op, v) for v in op.operands[:3]], iv, iters,
                              [use(op, v) for v in op.operands[3:]], body_steps, ys,
                              [reg(r) for r in op.results]))
            elif name == "scf.yield":
                return [use(op, v) for v in op.operands]
            else:
                _fail(op, f"the cuda target cannot run '{name}' on the host")

        return []

    emit(blocks[0].ops, plan.steps)
    return plan


def _mixed(op, static_name, values, use):
    """A mixed static/dynamic list as [(True, int) or (False, register index)], and the
    registers in order."""
    from ...syntax.dynamic_index_list import mixed_values
    out, regs = [], []
    for x in mixed_values(list(op.properties[static_name].value), list(values)):
        if isinstance(x, int):
            out.append((True, x))
        else:
            out.append((False, len(regs)))
            regs.append(use(op, x))
    return out, regs


def _resolve(items, vals):
    return [x if static else vals[x] for static, x in items]


def _dynamic_view(op, use):
    """(fn(source DeviceRef, *values) -> DeviceRef, registers of the values) of a view
    op whose result layout is known only at run time (see [Note: the plan's values])."""
    name = op.name
    if name == "memref.cast":
        return (lambda s: s), []
    if name == "memref.collapse_shape":
        groups = op.reassociation_indices

        def collapse(s):
            sizes = [math.prod(s.sizes[d] for d in g) for g in groups]
            strides = [s.strides[g[-1]] if g else 1 for g in groups]
            return DeviceRef(s.ptr, s.offset, sizes, strides, s.dtype, s.buffer)
        return collapse, []
    if name == "memref.expand_shape":
        groups = op.reassociation_indices
        shape, regs = _mixed(op, "static_output_shape", op.output_shape, use)

        def expand(s, *vals):
            sizes = _resolve(shape, vals)
            strides = [0] * len(sizes)
            for d, g in enumerate(groups):
                st = s.strides[d]
                for r in reversed(g):
                    strides[r] = st
                    st *= sizes[r]
            return DeviceRef(s.ptr, s.offset, sizes, strides, s.dtype, s.buffer)
        return expand, regs
    if name in ("memref.subview", "memref.reinterpret_cast"):
        n_off, n_size = len(op.offsets), len(op.sizes)
        offs, r1 = _mixed(op, "static_offsets", op.offsets, use)
        sizes, r2 = _mixed(op, "static_sizes", op.sizes, use)
        strides, r3 = _mixed(op, "static_strides", op.strides, use)
        shift = lambda items, k: [(st, x if st else x + k) for st, x in items]  # noqa: E731
        sizes, strides = shift(sizes, n_off), shift(strides, n_off + n_size)
        dropped = sorted(op.dropped_dims()) if name == "memref.subview" else []

        def subview(s, *vals):
            o, z, t = _resolve(offs, vals), _resolve(sizes, vals), _resolve(strides, vals)
            if name == "memref.reinterpret_cast":
                return DeviceRef(s.ptr, o[0], z, t, s.dtype, s.buffer)
            offset = s.offset + sum(a * b for a, b in zip(o, s.strides))
            keep = [i for i in range(len(z)) if i not in dropped]
            return DeviceRef(s.ptr, offset, [z[i] for i in keep],
                             [s.strides[i] * t[i] for i in keep], s.dtype, s.buffer)
        return subview, r1 + r2 + r3
    _fail(op, f"the cuda target cannot take the view '{name}' on the host")


def _sqrt(a):
    return math.sqrt(a) if a >= 0 else (a if a != a else math.nan)


def _rounded(f, t):
    """`f` with its result rounded to float type `t` (f32, f16: through NumPy)."""
    if not isinstance(t, A.FloatType) or t.name == "f64":
        return lambda *a: float(f(*a))
    dt = _dtype(t)
    return lambda *a: float(dt.type(f(*a)))


def _is_identity(t) -> bool:
    from ...dialects.memref_layout import is_identity_layout
    return is_identity_layout(t)


def _segments(op):
    seg = op.properties.get("operandSegmentSizes")
    return list(seg.value) if seg is not None else None


def _launch(op, use) -> Launch:
    """The Launch of a gpu.launch_func (generic form: async deps, grid x y z, block x y
    z, cluster x y z (optional), dynamic shared memory (optional), kernel operands,
    async object (optional))."""
    seg = _segments(op)
    ops = list(op.operands)
    if seg is None or len(seg) < 12:
        _fail(op, "gpu.launch_func without operandSegmentSizes")
    if seg[0] or seg[-1]:
        _fail(op, "the cuda target launches synchronously (no async dependencies)")
    pos = seg[0]
    grid = [use(op, v) for v in ops[pos:pos + 3]]
    block = [use(op, v) for v in ops[pos + 3:pos + 6]]
    pos += 6
    if seg[7] or seg[8] or seg[9]:
        _fail(op, "the cuda target does not launch thread block clusters")
    pos += seg[7] + seg[8] + seg[9]
    shared = use(op, ops[pos]) if seg[10] else None
    pos += seg[10]
    args = ops[pos:pos + seg[11]]
    kernel = op.properties["kernel"]
    module_name = kernel.root
    kernel_name = kernel.nested[0] if kernel.nested else kernel.root
    kernel_name = getattr(kernel_name, "value", kernel_name)
    where = _origin(op)
    return Launch(module_name, kernel_name, grid, block, shared,
                  [use(op, v) for v in args], [v.type for v in args], where)


def _origin(op) -> str:
    """Where the launched kernel came from (the ONNX node), as text."""
    from ...ir.location import NameLoc
    loc = op.loc
    seen = 0
    while loc is not None and seen < 8:
        if isinstance(loc, NameLoc):
            return loc.name
        loc = getattr(loc, "child", None) or (getattr(loc, "locations", None) or [None])[0]
        seen += 1
    return str(op.loc)


# ---------------------------------------------------------------- kernel arguments

def _arg_format(types) -> str:
    """The struct format of the kernel arguments for `types` (see [Note: kernel
    arguments]): one 8-byte slot per field, little-endian, padded."""
    key = tuple(types)
    f = _FORMATS.get(key)
    if f is not None:
        return f
    parts = []
    for t in types:
        if isinstance(t, A.MemRefType):
            parts.append("QQq" + "q" * (2 * len(t.shape)))
        elif isinstance(t, A.IndexType):
            parts.append("q")
        elif isinstance(t, A.IntegerType) and t.width in _INT_FIELDS:
            parts.append(_INT_FIELDS[t.width])
        elif isinstance(t, A.FloatType) and t.name in ("f32", "f64"):
            parts.append("f4x" if t.name == "f32" else "d")
        else:
            raise StrataError(f"cannot pass a value of type '{t}' to a kernel")
    f = _FORMATS[key] = "<" + "".join(parts)
    return f


_INT_FIELDS = {1: "?7x", 8: "b7x", 16: "h6x", 32: "i4x", 64: "q"}
_FORMATS: dict = {}


def pack_arguments(values, types):
    """(the address of an array of pointers to the kernel arguments, the buffers that
    must live until the launch returns), for launching a kernel with `values` of MLIR
    `types` (see [Note: kernel arguments]). The fields are packed into one buffer of
    8-byte slots."""
    flat = []
    for v, t in zip(values, types):
        if isinstance(t, A.MemRefType):
            if not isinstance(v, DeviceRef):
                raise StrataError(f"kernel argument of type '{t}' is not on the device")
            flat += (v.ptr, v.ptr, v.offset, *v.sizes, *v.strides)
        elif isinstance(t, A.FloatType):
            flat.append(float(v))
        else:
            flat.append(int(v))
    fmt = _arg_format(types)
    n = max(len(flat), 1)
    data = ctypes.create_string_buffer(8 * n)
    struct.pack_into(fmt, data, 0, *flat)
    base = ctypes.addressof(data)
    ptrs = np.arange(base, base + 8 * n, 8, dtype=np.uint64)
    return ptrs.ctypes.data, (data, ptrs)
