"""`gpu-kernel-outlining`: each gpu.launch body becomes a kernel, a gpu.func in a
gpu.module of its own, launched by gpu.launch_func, as upstream's pass.

    func.func @main(%a: memref<16xf32>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, ...) threads(%tx, ...) in (...) {
        %v = memref.load %a[%tx] : memref<16xf32> ...
        gpu.terminator
      }
=>
    module attributes {gpu.container_module} {
      func.func @main(%a: memref<16xf32>) {
        gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1)
            threads in (%c16, %c1, %c1) args(%a : memref<16xf32>)
      gpu.module @main_kernel {
        gpu.func @main_kernel(%arg0: memref<16xf32>) kernel attributes
            {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
          %block_id_x = gpu.block_id x ... (the twelve ids and dims, upstream's order)
          %v = memref.load %arg0[%thread_id_x] : memref<16xf32> ...
          gpu.return

As upstream: the kernel is named `<function>_kernel`, its module too, made unique with
`_0`, `_1`... (the second launch of @main is @main_kernel_0::@main_kernel); the
modules follow the module's other ops in launch order; constants used in the body (and
ops computed only from constants that upstream sinks: memref.dim, arith.select,
arith.cmpi) are cloned into it, every other value from above becomes an argument, in the
order the body first uses it; `known_block_size` / `known_grid_size` say the launch's
sizes when they are constants. The launch's location is the kernel's and its module's.
"""
from __future__ import annotations

from ..conversion.scalar_builders import op_class
from ..dialects.gpu import DIM
from ..ir import attributes as A
from ..ir.core import Block
from ..passes.pass_manager import Pass

__all__ = ["GpuKernelOutlining", "outline_launch"]

_SINKABLE = frozenset({"arith.constant", "memref.dim", "arith.select", "arith.cmpi"})
_IDS = ("block_id", "thread_id", "grid_dim", "block_dim")


class GpuKernelOutlining(Pass):
    name = "gpu-kernel-outlining"
    summary = "Outline gpu.launch bodies to kernel functions"

    def run(self, op):
        from ..ir.symbol_table import symbol_name
        body = op.regions[0].blocks[0]
        taken = {symbol_name(o) for o in body.ops
                 if o.get_attr("sym_name") is not None or "sym_name" in o.properties}
        launches = []
        for f in list(body.ops):
            if f.name != "func.func":
                continue
            for o in f.walk():
                if o.name == "gpu.launch":
                    launches.append((f, o))
        if not launches:
            return
        op.set_attr("gpu.container_module", A.UnitAttr())
        for f, launch in launches:
            base = symbol_name(f) + "_kernel"
            name, i = base, 0
            while name in taken:
                name = f"{base}_{i}"
                i += 1
            taken.add(name)
            module = outline_launch(launch, name, base)
            body.append(module)


def outline_launch(launch, module_name: str, kernel_name: str):
    """Replace gpu.launch `launch` by a gpu.launch_func of a new kernel; returns the
    new gpu.module (detached)."""
    loc = launch.loc
    region = launch.regions[0]
    lbody = region.blocks[0]
    _sink_constants(launch)
    # values from above, in the order the body first uses them
    args, seen = [], set()
    for o in launch.walk(post_order=False):
        if o is launch:
            continue
        for v in o.operands:
            if v in seen:
                continue
            d = v.defining_op
            owner = d if d is not None else v.owner.parent_op
            if owner is not None and launch.is_ancestor(owner) and owner is not launch:
                continue
            if d is None and v.owner is lbody:
                continue
            seen.add(v)
            args.append(v)
    grid = list(launch.operands[0:3])
    block = list(launch.operands[3:6])
    seg = launch.properties["operandSegmentSizes"].value
    shared = list(launch.operands[6 + seg[7] + seg[8] + seg[9]:][:seg[10]]) \
        if len(seg) > 10 and seg[10] else []
    # the kernel
    fprops = {"function_type": A.TypeAttr(A.FunctionType([v.type for v in args], [])),
              "kernel": A.UnitAttr(), "sym_name": A.StringAttr(kernel_name)}
    gsz = [_const(v) for v in grid]
    bsz = [_const(v) for v in block]
    if None not in bsz:
        fprops["known_block_size"] = A.DenseArrayAttr(A.i32, bsz)
    if None not in gsz:
        fprops["known_grid_size"] = A.DenseArrayAttr(A.i32, gsz)
    fprops["workgroup_attributions"] = A.IntegerAttr(0, A.i64)
    func = op_class("gpu.func").create((), (), fprops, None, (), 1, loc)
    entry = func.regions[0].add_block(Block([v.type for v in args], [loc] * len(args)))
    ids = []
    for kind in _IDS:
        for d in "xyz":
            o = op_class(f"gpu.{kind}").create((), [A.index], {"dimension": DIM(d)},
                                               None, (), 0, loc)
            entry.append(o)
            ids.append(o.results[0])
    for a, v in zip(lbody.args, ids):
        a.replace_all_uses_with(v)
    for v, a in zip(args, entry.args):
        v.replace_uses_where(a, lambda use: launch.is_ancestor(use.owner))
    # the body (structured control flow: one block)
    if len(region.blocks) != 1:
        from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
        raise DiagnosticError(Diagnostic(ERROR, loc, "gpu-kernel-outlining takes launch "
                                         "bodies of one block"))
    for o in list(lbody.ops):
        o.detach()
        if o.name == "gpu.terminator":
            o = op_class("gpu.return").create((), (), None, None, (), 0, o.loc)
        entry.append(o)
    module = op_class("gpu.module").create((), (), {"sym_name": A.StringAttr(module_name)},
                                           None, (), 1, loc)
    mbody = module.regions[0].add_block(Block([], []))
    mbody.append(func)
    # the launch
    ref = A.SymbolRefAttr(module_name, [kernel_name])
    seg = A.DenseArrayAttr(A.i32, [0, 1, 1, 1, 1, 1, 1, 0, 0, 0, len(shared), len(args), 0])
    lf = op_class("gpu.launch_func").create([*grid, *block, *shared, *args], (),
                                            {"kernel": ref, "operandSegmentSizes": seg},
                                            None, (), 0, loc)
    launch.parent.insert_before(launch, lf)
    launch.erase()
    return module


def _const(v):
    d = v.defining_op
    if d is not None and d.name == "arith.constant":
        a = d.properties.get("value")
        if isinstance(a, A.IntegerAttr) and 0 < a.value < 2 ** 31:
            return a.value
    return None


def _sink_constants(launch):
    """Clone into the launch body the ops upstream sinks (see the module doc)."""
    body = launch.regions[0].blocks[0]

    def sinkable(v, seen):
        d = v.defining_op
        if d is None or d.name not in _SINKABLE or d.regions:
            return False
        if d in seen:
            return True
        ok = all(sinkable(x, seen) or _inside(x, launch) for x in d.operands)
        if ok:
            seen.add(d)
        return ok

    order = []
    for o in launch.walk(post_order=False):
        if o is launch:
            continue
        for v in o.operands:
            if not _inside(v, launch):
                seen = set()
                if sinkable(v, seen):
                    _collect(v.defining_op, order)
    mapping = {}
    first = body.first
    for d in order:
        c = d.clone(mapping)
        for r, nr in zip(d.results, c.results):
            mapping[r] = nr
        if first is None:
            body.append(c)
        else:
            body.insert_before(first, c)
    # (uses in the body only: the launch's own grid and block sizes stay the host's)
    for old, new in mapping.items():
        old.replace_uses_where(new, lambda use: use.owner is not launch and
                               launch.is_ancestor(use.owner))


def _collect(d, order):
    if d in order:
        return
    for x in d.operands:
        if x.defining_op is not None and x.defining_op.name in _SINKABLE:
            _collect(x.defining_op, order)
    order.append(d)


def _inside(v, launch) -> bool:
    d = v.defining_op
    owner = d if d is not None else v.owner.parent_op
    return owner is not None and owner is not launch and launch.is_ancestor(owner) or \
        (d is None and v.owner.parent_op is launch)


from ..passes.registry import register_pass  # noqa: E402

register_pass(GpuKernelOutlining)
