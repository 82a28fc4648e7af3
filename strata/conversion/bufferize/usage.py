"""How much memory the buffers of bufferized (and deallocated) functions use.

    peak_buffer_bytes(func_op) -> int | None     peak bytes of live memref.alloc buffers
    buffer_usage(module) -> list of FunctionUsage

The peak is found by walking each block in order, adding a buffer's size at its
memref.alloc and subtracting it at its memref.dealloc; an op with regions contributes the
peak of its regions on top of what is live around it (a loop body's peak counts once: the
body frees what it allocates, or gives it to the next iteration in exchange for the
previous one), a func.call the callee's peak, and buffers given to the caller (returned)
stay live to the end. The sizes are those of static shapes (one byte per i1); the peak is
None when a dynamically shaped buffer is allocated.
"""
from __future__ import annotations

from ...ir import attributes as A
from .deallocation import Ownership, is_memref

__all__ = ["peak_buffer_bytes", "buffer_bytes", "buffer_usage", "FunctionUsage",
           "global_bytes"]


def buffer_bytes(t) -> int | None:
    """Bytes of a statically shaped memref type (None when a dimension is dynamic)."""
    if type(t) is not A.MemRefType or A.DYNAMIC in t.shape:
        return None
    n = 1
    for d in t.shape:
        n *= d
    et = t.element_type
    bits = getattr(et, "width", None)
    if bits is None:
        if type(et) is A.IndexType:
            bits = 64
        elif isinstance(et, A.ComplexType):
            bits = 2 * getattr(et.element_type, "width", 64)
        else:
            return None
    return n * max(1, (bits + 7) // 8)


class _Unknown(Exception):
    pass


class _Walker:
    def __init__(self, module):
        self.module = module
        self.calls: dict = {}
        self.stack: set = set()

    def func_peak(self, f):
        if f in self.calls:
            return self.calls[f]
        if f in self.stack or not f.regions or not f.regions[0].blocks:
            return 0
        self.stack.add(f)
        try:
            own = Ownership(f)
            p = self.block_peak(f.regions[0].blocks[0], own)
        finally:
            self.stack.discard(f)
        self.calls[f] = p
        return p

    def block_peak(self, block, own):
        live = peak = 0
        for op in block.ops:
            name = op.name
            if name == "memref.alloc":
                live += self.size(op.results[0])
            elif name == "memref.dealloc":
                v = op.operand(0)
                roots = own.roots_of(v)
                live -= self.size(roots[0] if len(roots) == 1 else v)
            elif name == "func.call":
                from ...ir.symbol_table import lookup_nearest_symbol_from
                callee = lookup_nearest_symbol_from(op, op.properties["callee"])
                if callee is not None:
                    peak = max(peak, live + self.func_peak(callee))
                for r in op.results:
                    if is_memref(r.type):
                        live += self.size(r)
            if op.regions:
                inner = 0
                for r in op.regions:
                    for b in r.blocks:
                        inner = max(inner, self.block_peak(b, own))
                peak = max(peak, live + inner)
                m = own.modes.get(op)
                if m is not None and name not in ("scf.for", "scf.while"):
                    for r, mode in zip(op.results, m):
                        if mode == "owned":
                            live += self.size(r)
            peak = max(peak, live)
        return peak

    @staticmethod
    def size(v):
        n = buffer_bytes(v.type)
        if n is None:
            raise _Unknown()
        return n


def peak_buffer_bytes(func_op) -> int | None:
    """Peak bytes of the buffers `func_op` (a bufferized func.func, deallocated with
    buffer-deallocation-simple) has live at once, including those it returns and those
    of the functions it calls; None when some buffer has a dynamic shape."""
    module = func_op.parent_op
    try:
        return _Walker(module).func_peak(func_op)
    except _Unknown:
        return None


def global_bytes(module) -> int:
    """Bytes of the initialized memref globals of `module` (constants and weights)."""
    n = 0
    for op in module.regions[0].ops:
        if op.name == "memref.global" and op.properties.get("initial_value") is not None:
            b = buffer_bytes(op.properties["type"].value)
            n += b or 0
    return n


class FunctionUsage:
    __slots__ = ("name", "allocs", "allocated_bytes", "dynamic_allocs", "peak_bytes",
                 "copies", "copied_bytes")

    def __init__(self, name):
        self.name = name
        self.allocs = self.allocated_bytes = self.dynamic_allocs = 0
        self.copies = self.copied_bytes = 0
        self.peak_bytes = None

    def __repr__(self):
        return (f"<{self.name}: {self.allocs} allocs, {self.allocated_bytes} B, peak "
                f"{self.peak_bytes} B, {self.copies} copies>")


def buffer_usage(module) -> list:
    """A FunctionUsage per function with a body: allocations (count, static bytes, how
    many dynamic), memref.copy ops (count, static bytes), peak live bytes."""
    from ...ir.symbol_table import symbol_name
    out = []
    for f in module.regions[0].ops:
        if f.name != "func.func" or not f.regions[0].blocks:
            continue
        u = FunctionUsage(symbol_name(f))
        for op in f.walk():
            if op.name == "memref.alloc":
                u.allocs += 1
                n = buffer_bytes(op.results[0].type)
                if n is None:
                    u.dynamic_allocs += 1
                else:
                    u.allocated_bytes += n
            elif op.name == "memref.copy":
                u.copies += 1
                u.copied_bytes += buffer_bytes(op.operand(0).type) or 0
        u.peak_bytes = peak_buffer_bytes(f)
        out.append(u)
    return out
