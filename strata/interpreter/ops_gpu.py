"""Interpreter implementations of the gpu dialect: kernel launches run every block and
thread of the grid, on the CPU, with NumPy.

    %t = gpu.launch_func @kernels::@scale blocks in (%nb, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %n : index)

runs `gpu.func @scale` once per thread (here nb * 256 threads); `gpu.launch` runs its
body region the same way. Inside a kernel: thread/block/grid ids and sizes, the lane and
subgroup ids (warps of 32 threads), `gpu.barrier`, `gpu.shuffle`, `gpu.rotate`,
`gpu.subgroup_reduce`, `gpu.all_reduce`, workgroup memory (gpu.func `workgroup(...)`
attributions, and memrefs allocated in `#gpu.address_space<workgroup>` / space 3: one
buffer per block), private memory (one buffer per thread), memref.load/store, scf
loops and conditionals, cf branches, arith and math. On the host: gpu.alloc, dealloc,
memcpy, memset, wait.

[Note: SIMT interpretation]
A kernel is not run thread by thread: that would cost one interpreted op per thread
(millions for one model) and could not honour gpu.barrier without threads of our own.
It is run as a GPU runs it, on all threads at once: every SSA value of the kernel is
either uniform (one value for all threads: kernel arguments, constants, sizes, and
anything computed from them only) or varying, a NumPy array with one element per thread
(thread ids and whatever depends on them). Each op runs once for the set of threads that
reach it (the "active" threads), on arrays over those threads: arith and math ops take
their existing implementations in vectorized form, memref.load is a gather and
memref.store a scatter, gpu.shuffle a permutation of the array within each warp,
subgroup_reduce and all_reduce a grouped reduction (per warp, per block).

Control flow is per thread: scf.if runs each branch for the threads whose condition
selects it; scf.for and scf.while run the body for the threads still iterating
(per-thread bounds); in a region of several blocks (after convert-scf-to-cf) each
thread has its own position, and the block run next is the first (in region order) any
thread waits at, for those threads (they reconverge where the region's order brings
them together). A value written for some threads only keeps the others' values (they
got it at another time), so varying values always span all threads.

gpu.barrier: within structured control flow every active thread runs the ops before
the barrier before any runs the ops after it, so the barrier holds by construction; it
is checked that every running thread of each block takes part (a barrier some threads
of a block skip is undefined behaviour, reported). In a region of several blocks, a
thread at a barrier waits until every live thread of its block is at that barrier.

Ops without a vectorized form here run once per thread on that thread's values: views
of buffers at thread-dependent offsets (memref.subview at `tid * 4`) become one view per
thread (LaneViews), loads and stores through them, and ops on workgroup or private
memory other than load/store, go thread by thread (correct, slower).

Threads are run in chunks of whole blocks (blocks are independent but for atomics and
global memory, which the chunks see in block order), so that a large grid does not need
arrays of millions of elements; workgroup memory is an array with one buffer per block
of the chunk, private memory one per thread.
"""
from __future__ import annotations

import itertools
import sys

import numpy as np

from ..dialects.gpu import PRIVATE_ADDRESS_SPACE, WORKGROUP_ADDRESS_SPACE, address_space_of
from ..ir import attributes as A
from ..ir import traits as T
from .core import IMPLS, fail, impl
from .ops_memref import (_free, _heap_buffer, check_buffers, copy_into,
                         fill_uninitialized, heap)
from .ops_tensor import _shape_with
from .values import dtype_of, int_width, to_unsigned, wrap

__all__ = ["SUBGROUP_SIZE", "MAX_CHUNK_THREADS", "run_kernel"]

SUBGROUP_SIZE = 32
# Threads run at once (whole blocks): bounds the size of the per-thread arrays.
MAX_CHUNK_THREADS = 1 << 16

_SCALARS = (A.IntegerType, A.IndexType, A.FloatType)
_TOKEN = "gpu.async.token"  # the value of an async token (ops complete in order)


def _lane_rank(t):
    """How many dims a value of type `t` has besides the thread dim when it varies
    (0 for scalars, the vector's rank), None for types that cannot vary (memrefs...)."""
    if isinstance(t, _SCALARS):
        return 0
    if type(t) is A.VectorType:
        return len(t.shape)
    return None


class Banked:
    """Workgroup or private memory: one buffer per block (per thread) of the chunk,
    `data[bank]` with `bank[lane]` the buffer of each thread."""

    __slots__ = ("data", "bank", "type", "what")

    def __init__(self, data, bank, type, what):
        self.data = data
        self.bank = bank
        self.type = type
        self.what = what


def _op_info(op, table):
    """(SIMT handler, implementation, only scalar/vector types, constant): what run_op
    needs to know of an op, computed once per interpreter (`table`)."""
    h = _SIMT.get(op.name)
    fn = IMPLS.get(op.name)
    if h is None:
        if fn is None:
            fail(op, "has no interpreter implementation")
        if op.regions:
            fail(op, "is not supported inside a GPU kernel by the interpreter")
    scalar_only = all(isinstance(t, _SCALARS) or type(t) is A.VectorType
                      for t in op.operand_types + op.result_types)
    const = h is None and not op._operands and len(op.results) == 1 and \
        T.ConstantLike in type(op).traits
    info = table[op] = (h, fn, scalar_only, const)
    return info


class LaneViews:
    """A buffer value (a memref) that differs between threads: one NumPy view per
    thread of the chunk (a subview at a thread-dependent offset...)."""

    __slots__ = ("views",)

    def __init__(self, views):
        self.views = views


class Kernel:
    """One chunk of a launch: its threads (lanes), their ids, and the kernel's values
    (see [Note: SIMT interpretation])."""

    __slots__ = ("interp", "op", "L", "T", "grid", "block", "tid", "bid", "lin", "blk",
                 "live", "env", "varying", "nblocks", "dynamic_shared", "info")

    def __init__(self, interp, op, grid, block, first_block, nblocks):
        self.interp = interp
        self.op = op
        self.grid = grid
        self.block = block
        bx, by, bz = block
        T = self.T = bx * by * bz
        self.nblocks = nblocks
        L = self.L = T * nblocks
        lane = np.arange(L, dtype=np.int64)
        lin = self.lin = lane % T                 # linear thread id in the block
        self.blk = lane // T                      # block index within the chunk
        b = self.blk + first_block                # linear block id in the grid
        gx, gy, _ = grid
        self.tid = (lin % bx, (lin // bx) % by, lin // (bx * by))
        self.bid = (b % gx, (b // gx) % gy, b // (gx * gy))
        self.live = np.ones(L, dtype=np.bool_)
        self.env = {}
        self.varying = set()
        self.dynamic_shared = 0  # bytes of dynamic shared memory per block
        self.info = interp.cache.setdefault("gpu.simt ops", {})

    # ------------------------------------------------------------ values

    def get(self, v, S):
        """The value of `v` for the threads `S` (None: all): uniform, or an array."""
        x = self.env[v]
        if v in self.varying and S is not None:
            return x[S]
        return x

    def n(self, S):
        return self.L if S is None else len(S)

    def set(self, v, x, S):
        """Record `x` as the value of `v` for threads `S` (a uniform value, or an array
        over S)."""
        r = _lane_rank(v.type)
        per_lane = r is not None and type(x) is np.ndarray and x.ndim == r + 1
        if S is None:
            self.env[v] = x
            if per_lane:
                self.varying.add(v)
            else:
                self.varying.discard(v)
            return
        if r is None:
            self.env[v] = x
            return
        old = self.env.get(v)
        if not per_lane and v not in self.varying and old is not None and \
                type(old) is type(x) and np.shape(old) == np.shape(x) and \
                bool(np.all(old == x)):
            return  # the same uniform value again (a constant in a loop): stays uniform
        x = np.asarray(x)
        if v in self.varying and old.dtype == x.dtype:
            full = old
        else:
            shape = (self.L,) + (x.shape[1:] if per_lane else x.shape)
            full = np.empty(shape, x.dtype)
            if old is not None:
                full[...] = old
            self.env[v] = full
            self.varying.add(v)
        full[S] = x

    def where(self, S):
        """'thread (x, y, z) of block (x, y, z)' of the first thread of `S`."""
        i = 0 if S is None or not len(S) else int(S[0])
        t = tuple(int(a[i]) for a in self.tid)
        b = tuple(int(a[i]) for a in self.bid)
        return f"thread {t} of block {b}"

    # ------------------------------------------------------------ execution

    def run_op(self, op, S):
        info = self.info.get(op)
        if info is None:
            info = _op_info(op, self.info)
        h, fn, scalar_only, const = info
        if h is not None:
            return h(self, op, S)
        if const:  # a constant: computed once per launch, uniform
            env = self.env
            r = op.results[0]
            if r not in env or r in self.varying:
                self.set(r, self.interp._invoke(fn, op, [])[0], S)
            return
        env = self.env
        vary = self.varying
        args = []
        varying = per_thread = False
        for o in op._operands:
            v = o.value
            x = env[v]
            if v in vary:
                varying = True
                if S is not None:
                    x = x[S]
            elif type(x) is Banked or type(x) is LaneViews:
                per_thread = True
            args.append(x)
        if per_thread or varying and not scalar_only:
            return self._per_lane(op, S, fn, args)
        if not varying:
            res = self.interp._invoke(fn, op, args)
        else:
            self.interp.vectorized += 1
            try:
                res = self.interp._invoke(fn, op, args)
            finally:
                self.interp.vectorized -= 1
        for r, x in zip(op.results, res):
            self.set(r, x, S)

    def _per_lane(self, op, S, fn, args):
        """An op on buffers that differ between threads (workgroup/private memory, views
        at thread-dependent offsets), or on other values that vary but are not scalars:
        run once per thread, on that thread's values (see [Note: SIMT
        interpretation])."""
        lanes = np.arange(self.L) if S is None else S
        kinds = [(type(a), o.value in self.varying) for a, o in zip(args, op._operands)]
        outs = []
        interp = self.interp
        saved = interp.env
        try:
            for j, lane in enumerate(lanes):
                aj = []
                for a, (t, var) in zip(args, kinds):
                    if t is Banked:
                        aj.append(a.data[a.bank[lane]])
                    elif t is LaneViews:
                        aj.append(a.views[lane])
                    else:
                        aj.append(a[j] if var else a)
                # Implementations that read operands from the frame read this thread's.
                interp.env = {o.value: x for o, x in zip(op._operands, aj)}
                outs.append(interp._invoke(fn, op, aj))
        finally:
            interp.env = saved
        for i, r in enumerate(op.results):
            xs = [o[i] for o in outs]
            if _lane_rank(r.type) is not None:
                self.set(r, np.stack(xs) if xs else np.empty(0), S)
            else:
                old = self.env.get(r)
                views = old.views if type(old) is LaneViews else [None] * self.L
                for lane, x in zip(lanes, xs):
                    views[lane] = x
                self.env[r] = LaneViews(views)

    def run_region(self, region, S, args):
        """Run `region` for threads `S` with entry block arguments `args` (values over
        S); returns the values (over S) its terminators yield."""
        if len(region.blocks) == 1:
            block = region.blocks[0]
            for a, x in zip(block.args, args):
                self.set(a, x, S)
            op = block.first
            last = block.last
            while op is not last:
                self.run_op(op, S)
                op = op.next
            if last is None:
                return []
            if T.Terminator not in type(last).traits:
                self.run_op(last, S)
                return []
            if last.successors:
                return self._run_cfg(region, S, args, start=last)
            return self._terminate(last, S)
        return self._run_cfg(region, S, args)

    def _terminate(self, term, S):
        h = _TERMINATORS.get(term.name)
        if h is not None:
            h(self, term, S)
        return [self.get(o.value, S) for o in term._operands]

    def _run_cfg(self, region, S, args, start=None):
        """A region of several blocks: every thread has its own position (see [Note:
        SIMT interpretation])."""
        order = {b: i for i, b in enumerate(region.blocks)}
        block_ops = {}
        all_lanes = np.arange(self.L) if S is None else S
        pending = {}   # (block order, op index) -> lanes
        parked = {}    # barrier waits: (block order, op index) -> lanes
        done = []      # (lanes, yielded values over those lanes)

        def add(table, key, lanes):
            if not len(lanes):
                return
            old = table.get(key)
            table[key] = lanes if old is None else np.union1d(old, lanes)

        if start is None:
            entry = region.blocks[0]
            for a, x in zip(entry.args, args):
                self.set(a, x, S)
            add(pending, (0, 0), all_lanes)
        else:  # the entry block ran up to its branch: take it
            self._branch(start, S, lambda b, lanes: add(pending, (order[b], 0), lanes))
        blocks = region.blocks
        while pending or parked:
            if not pending:
                self._release(parked, all_lanes, done)
                for key, lanes in parked.items():
                    add(pending, key, lanes)
                parked.clear()
                continue
            key = min(pending)
            lanes = pending.pop(key)
            lanes_S = None if len(lanes) == self.L else lanes
            block = blocks[key[0]]
            ops = block_ops.get(block)
            if ops is None:
                ops = block_ops[block] = list(block.ops)
            i = key[1]
            stopped = False
            while i < len(ops) - 1:
                op = ops[i]
                if op.name == "gpu.barrier":
                    add(parked, (key[0], i + 1), lanes)
                    stopped = True
                    break
                self.run_op(op, lanes_S)
                i += 1
            if stopped:
                continue
            term = ops[-1]
            if T.Terminator not in type(term).traits:
                self.run_op(term, lanes_S)
                done.append((lanes, [], []))
                continue
            if term.successors:
                self._branch(term, lanes_S,
                             lambda b, ls: add(pending, (order[b], 0), ls), lanes)
                continue
            done.append((lanes, self._terminate(term, lanes_S), term.operand_types))
        return self._merge_done(done, S)

    def _branch(self, term, S, go, lanes=None):
        """Run branch terminator `term` for threads `S`: set the successors' block
        arguments and hand each successor its threads (`go(block, lanes)`)."""
        if lanes is None:
            lanes = np.arange(self.L) if S is None else S
        name = term.name
        if name == "cf.br":
            self._jump(term, 0, S, None, go, lanes)
            return
        if name == "cf.cond_br":
            c = self.get(term._operands[0].value, S)
            if np.ndim(c) == 0:
                self._jump(term, 0 if bool(c) else 1, S, None, go, lanes)
                return
            c = np.asarray(c, dtype=np.bool_)
            self._jump(term, 0, S, np.flatnonzero(c), go, lanes)
            self._jump(term, 1, S, np.flatnonzero(~c), go, lanes)
            return
        if name == "cf.switch":
            flag = self.get(term._operands[0].value, S)
            w = int_width(term._operands[0].value.type)
            f = np.broadcast_to(to_unsigned(flag, w), (len(lanes),))
            taken = np.zeros(len(lanes), dtype=np.bool_)
            for i, cv in enumerate(term.case_value_list):
                m = (f == (cv & ((1 << w) - 1))) & ~taken
                taken |= m
                self._jump(term, i + 1, S, np.flatnonzero(m), go, lanes)
            self._jump(term, 0, S, np.flatnonzero(~taken), go, lanes)
            return
        fail(term, "is a branch the GPU kernel interpreter does not know")

    def _jump(self, term, i, S, pos, go, lanes):
        """Threads `lanes[pos]` (all when pos is None) take successor `i` of `term`."""
        if pos is not None and not len(pos):
            return
        dest = term.successors[i]
        vals = [self.get(v, S) for v in term.successor_operands(i)]
        if pos is None:
            sub = S
            for a, x in zip(dest.args, vals):
                self.set(a, x, sub)
            go(dest, lanes)
            return
        sub = lanes[pos]
        for a, x, v in zip(dest.args, vals, term.successor_operands(i)):
            self.set(a, x[pos] if v in self.varying and np.ndim(x) else x, sub)
        go(dest, sub)

    def _release(self, parked, all_lanes, done):
        """Every waiting thread is at a barrier: check that each block's live threads
        are all at the same one (then they all go on)."""
        finished = np.concatenate([d[0] for d in done]) if done else \
            np.empty(0, np.int64)
        running = np.setdiff1d(all_lanes[self.live[all_lanes]], finished)
        at = np.full(self.L, -1, np.int64)
        keys = sorted(parked)
        for j, key in enumerate(keys):
            at[parked[key]] = j
        blk = self.blk[running]
        where = at[running]
        for b in np.unique(blk):
            w = where[blk == b]
            if (w < 0).any() or (w != w[0]).any():
                lanes = running[blk == b]
                fail(self.op, "gpu.barrier is not reached by every thread of a block "
                              f"(undefined behaviour), e.g. {self.where(lanes)}")

    def _merge_done(self, done, S):
        """The values the region's terminators yielded, as values over S."""
        if not done:
            return []
        if len(done) == 1 and len(done[0][0]) == self.n(S):
            return done[0][1]
        n = self.n(S)
        pos_of = np.full(self.L, -1, np.int64)
        pos_of[np.arange(self.L) if S is None else S] = np.arange(n)
        out = []
        for j, t in enumerate(done[0][2]):
            r = _lane_rank(t)
            arr = None
            for lanes, vals, _ in done:
                x = np.asarray(vals[j])
                if arr is None:
                    shape = x.shape[1:] if r is not None and x.ndim == r + 1 else x.shape
                    arr = np.empty((n,) + tuple(shape), x.dtype)
                arr[pos_of[lanes]] = x
            out.append(arr)
        return out

    def check_convergent(self, op, S):
        """A barrier (or other block-wide op) in structured code: every live thread of
        each block running it must be among `S`."""
        if S is None:
            return
        nb = self.nblocks
        have = np.bincount(self.blk[S], minlength=nb)
        need = np.bincount(self.blk[self.live], minlength=nb)
        bad = np.flatnonzero((have > 0) & (have != need))
        if len(bad):
            lanes = np.flatnonzero(self.live & (self.blk == bad[0]))
            missing = np.setdiff1d(lanes, S)
            fail(op, "is not reached by every thread of a block (undefined behaviour), "
                     f"e.g. not by {self.where(missing)}")


# ====================================================================== launches

def _kernel_of(interp, op, ref):
    mod = interp.lookup(ref.root)
    if mod is None or mod.name != "gpu.module":
        fail(op, f"kernel module @{ref.root} is not a gpu.module of this module")
    leaf = ref.nested[-1] if ref.nested else None
    for f in mod.regions[0].blocks[0].ops:
        if f.name == "gpu.func" and f.properties["sym_name"].value == leaf:
            return f
    fail(op, f"no gpu.func @{leaf} in gpu.module @{ref.root}")


def _sizes(op, vals, what):
    out = []
    for v in vals:
        n = int(v)
        if n <= 0:
            fail(op, f"{what} sizes must be positive, got {[int(x) for x in vals]}")
        out.append(n)
    return tuple(out)


def run_kernel(interp, op, region, grid, block, entry_args, dynamic_shared=0):
    """Run `region` (a gpu.func body or a gpu.launch body) for every thread of `grid` x
    `block`; `entry_args(kernel)` gives its entry block arguments."""
    T = block[0] * block[1] * block[2]
    nb_total = grid[0] * grid[1] * grid[2]
    per_chunk = max(1, MAX_CHUNK_THREADS // T)
    for first in range(0, nb_total, per_chunk):
        k = Kernel(interp, op, grid, block, first, min(per_chunk, nb_total - first))
        k.dynamic_shared = dynamic_shared
        k.env = dict(interp.env)  # a gpu.launch body sees the host values around it
        saved = interp.env
        interp.env = k.env  # implementations that read operands from the frame see these
        try:
            with np.errstate(all="ignore"):
                k.run_region(region, None, entry_args(k))
        finally:
            interp.env = saved


def _attributions(k, args, space):
    """Workgroup (one buffer per block) or private (one per thread) memory."""
    out = []
    for a in args:
        t = a.type
        shape = tuple(t.shape)
        if any(d == A.DYNAMIC for d in shape):
            fail(k.op, f"{space} attribution of dynamic shape {t}")
        out.append(_banked(k, t, shape, space))
    return out


def _banked(k, t, shape, space):
    if space == "workgroup":
        data = fill_uninitialized(np.empty((k.nblocks,) + shape, dtype_of(t)))
        return Banked(data, k.blk, t, "workgroup")
    data = fill_uninitialized(np.empty((k.L,) + shape, dtype_of(t)))
    return Banked(data, np.arange(k.L), t, "private")


def _dynamic_shared(op, get):
    v = op.dynamicSharedMemorySize
    if v is None:
        return 0
    n = int(get[id(v)])
    if n < 0:
        fail(op, f"dynamic shared memory size must not be negative, got {n}")
    return n


@impl("gpu.launch_func")
def _launch_func(interp, op, args):
    fn = _kernel_of(interp, op, op.properties["kernel"])
    if op.asyncObject is not None:
        fail(op, "launches with an async object are not supported by the interpreter")
    get = {id(o.value): a for o, a in zip(op._operands, args)}
    grid = _sizes(op, [get[id(v)] for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ)],
                  "grid")
    block = _sizes(op, [get[id(v)] for v in (op.blockSizeX, op.blockSizeY, op.blockSizeZ)],
                   "block")
    kargs = [get[id(v)] for v in op.kernelOperands]
    ft = fn.type
    if len(kargs) != len(ft.inputs):
        fail(op, f"passes {len(kargs)} arguments to a kernel taking {len(ft.inputs)}")
    nw = fn.num_workgroup_attributions
    entry = fn.regions[0].blocks[0]
    n = len(ft.inputs)

    def entry_args(k):
        return kargs + _attributions(k, entry.args[n:n + nw], "workgroup") + \
            _attributions(k, entry.args[n + nw:], "private")
    run_kernel(interp, op, fn.regions[0], grid, block, entry_args,
               _dynamic_shared(op, get))
    return [_TOKEN] if op.results else []


@impl("gpu.launch")
def _launch(interp, op, args):
    get = {id(o.value): a for o, a in zip(op._operands, args)}
    grid = _sizes(op, [get[id(v)] for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ)],
                  "grid")
    block = _sizes(op, [get[id(v)] for v in (op.blockSizeX, op.blockSizeY, op.blockSizeZ)],
                   "block")
    if op.has_clusters:
        fail(op, "thread block clusters are not supported by the interpreter")
    entry = op.regions[0].blocks[0]
    n = op.num_config_args
    nw = op.num_workgroup_attributions
    sizes = [np.int64(x) for x in grid + block]

    def entry_args(k):
        ids = list(k.bid) + list(k.tid)
        return ids + sizes + _attributions(k, entry.args[n:n + nw], "workgroup") + \
            _attributions(k, entry.args[n + nw:], "private")
    run_kernel(interp, op, op.regions[0], grid, block, entry_args,
               _dynamic_shared(op, get))
    return [_TOKEN] if op.results else []


# ====================================================================== host side

@impl("gpu.wait")
def _wait(interp, op, args):
    return [_TOKEN] if op.results else []


def _token(op):
    return [_TOKEN] if op.asyncToken is not None else []


@impl("gpu.alloc")
def _alloc(interp, op, args):
    nd = len(op.asyncDependencies)
    ns = len(op.dynamicSizes)
    t = op.results[0].type
    a = _heap_buffer(interp, t, _shape_with(t, args[nd:nd + ns]),
                     [int(x) for x in args[nd + ns:]], "memref.alloc")
    return [a] + _token(op)


@impl("gpu.dealloc")
def _dealloc(interp, op, args):
    _free(interp, op, args[len(op.asyncDependencies)], "gpu.dealloc")
    return _token(op)


@impl("gpu.memcpy")
def _memcpy(interp, op, args):
    nd = len(op.asyncDependencies)
    copy_into(interp, op, args[nd + 1], args[nd])
    return _token(op)


@impl("gpu.memset")
def _memset(interp, op, args):
    nd = len(op.asyncDependencies)
    dst, v = args[nd], args[nd + 1]
    check_buffers(interp, op, [dst], written=(0,))
    dst[...] = v
    return _token(op)


@impl("gpu.set_default_device", "gpu.host_register", "gpu.host_unregister")
def _host_noop(interp, op, args):
    # One device, and host memory the interpreter's kernels read directly.
    return []


# ====================================================================== inside kernels

_SIMT: dict = {}
_TERMINATORS: dict = {}


def simt(*names):
    def deco(fn):
        for n in names:
            _SIMT[n] = fn
        return fn
    return deco


def _outside(interp, op, args):
    fail(op, "runs only inside a GPU kernel (gpu.launch or a launched gpu.func)")


for _name in ("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim",
              "gpu.global_id", "gpu.lane_id", "gpu.subgroup_id", "gpu.num_subgroups",
              "gpu.subgroup_size", "gpu.cluster_id", "gpu.cluster_dim",
              "gpu.cluster_block_id", "gpu.cluster_dim_blocks", "gpu.barrier",
              "gpu.shuffle", "gpu.rotate", "gpu.subgroup_reduce", "gpu.all_reduce",
              "gpu.printf", "gpu.subgroup_broadcast", "gpu.ballot",
              "gpu.dynamic_shared_memory"):
    impl(_name)(_outside)


def _dim(op):
    return "xyz".index(op.properties["dimension"].value)


def _ids(k, S, arr):
    return arr if S is None else arr[S]


@simt("gpu.thread_id")
def _thread_id(k, op, S):
    k.set(op.results[0], _ids(k, S, k.tid[_dim(op)]), S)


@simt("gpu.block_id", "gpu.cluster_id")
def _block_id(k, op, S):
    k.set(op.results[0], _ids(k, S, k.bid[_dim(op)]), S)


@simt("gpu.block_dim")
def _block_dim(k, op, S):
    k.set(op.results[0], np.int64(k.block[_dim(op)]), S)


@simt("gpu.grid_dim", "gpu.cluster_dim")
def _grid_dim(k, op, S):
    k.set(op.results[0], np.int64(k.grid[_dim(op)]), S)


@simt("gpu.cluster_block_id")
def _cluster_block_id(k, op, S):
    k.set(op.results[0], np.int64(0), S)


@simt("gpu.cluster_dim_blocks")
def _cluster_dim_blocks(k, op, S):
    k.set(op.results[0], np.int64(1), S)


@simt("gpu.global_id")
def _global_id(k, op, S):
    d = _dim(op)
    k.set(op.results[0], _ids(k, S, k.bid[d] * k.block[d] + k.tid[d]), S)


@simt("gpu.lane_id")
def _lane_id(k, op, S):
    k.set(op.results[0], _ids(k, S, k.lin % SUBGROUP_SIZE), S)


@simt("gpu.subgroup_id")
def _subgroup_id(k, op, S):
    k.set(op.results[0], _ids(k, S, k.lin // SUBGROUP_SIZE), S)


@simt("gpu.num_subgroups")
def _num_subgroups(k, op, S):
    k.set(op.results[0], np.int64(-(-k.T // SUBGROUP_SIZE)), S)


@simt("gpu.subgroup_size")
def _subgroup_size(k, op, S):
    k.set(op.results[0], np.int64(SUBGROUP_SIZE), S)


@simt("gpu.barrier")
def _barrier(k, op, S):
    k.check_convergent(op, S)


def _terminator(*names):
    def deco(fn):
        for n in names:
            _TERMINATORS[n] = fn
        return fn
    return deco


@_terminator("gpu.return", "gpu.terminator")
def _return(k, op, S):
    if op.parent_op is not None and op.parent_op.name in ("gpu.func", "gpu.launch"):
        if S is None:
            k.live[:] = False
        else:
            k.live[S] = False


# ---------------------------------------------------------------- warp operations

def _warp_source(k, S, src_in_group, width, lane):
    """Lanes (indices into the chunk) that each thread of S reads, and whether valid."""
    base = lane - lane % width
    src = base + src_in_group
    lanes = np.arange(k.L) if S is None else S
    lin = k.lin[lanes]
    valid = (src_in_group >= 0) & (src_in_group < width)
    src_lin = lin - lane + src
    valid &= (src_lin >= 0) & (src_lin < k.T)
    src_lane = np.where(valid, lanes - lin + src_lin, lanes)
    return src_lane, valid


@simt("gpu.shuffle")
def _shuffle(k, op, S):
    v, off, width = op._operands[0].value, op._operands[1].value, op._operands[2].value
    offset = np.asarray(k.get(off, S), np.int64)
    w = np.asarray(k.get(width, S), np.int64)
    if (w <= 0).any() or (w > SUBGROUP_SIZE).any():
        fail(op, f"width must be in [1, {SUBGROUP_SIZE}], got {int(np.max(w))}")
    lanes = np.arange(k.L) if S is None else S
    lane = k.lin[lanes] % SUBGROUP_SIZE
    pos = lane % w
    mode = op.properties["mode"].value
    if mode == "xor":
        src = pos ^ offset
    elif mode == "up":
        src = pos - offset
    elif mode == "down":
        src = pos + offset
    else:
        src = np.broadcast_to(offset, pos.shape)
    src_lane, valid = _warp_source(k, S, src, w, lane)
    full = k.env[v]
    if v in k.varying:
        own = full[lanes]
        out = full[src_lane]
        out = np.where(valid.reshape((-1,) + (1,) * (out.ndim - 1)), out, own)
    else:
        out = np.broadcast_to(np.asarray(full), (len(lanes),) + np.shape(full)).copy()
    k.set(op.results[0], out, S)
    k.set(op.results[1], valid, S)


@simt("gpu.rotate")
def _rotate(k, op, S):
    v = op._operands[0].value
    offset = op.properties["offset"].value
    w = op.properties["width"].value
    lanes = np.arange(k.L) if S is None else S
    lane = k.lin[lanes] % SUBGROUP_SIZE
    src = (lane % w + offset) % w
    src_lane, valid = _warp_source(k, S, src, w, lane)
    full = k.env[v]
    if v in k.varying:
        out = np.where(valid.reshape((-1,) + (1,) * (full.ndim - 1)), full[src_lane],
                       full[lanes])
    else:
        out = np.broadcast_to(np.asarray(full), (len(lanes),) + np.shape(full)).copy()
    k.set(op.results[0], out, S)
    k.set(op.results[1], valid, S)


def _reducer(kind, t):
    """(ufunc, to, back): the reduction and the views it works in for element type t."""
    et = t.element_type if type(t) is A.VectorType else t
    signed = lambda x: x  # noqa: E731
    if kind in ("minui", "maxui"):
        w = int_width(et)
        return ({"minui": np.minimum, "maxui": np.maximum}[kind],
                lambda x: to_unsigned(x, w), lambda x: wrap(x, et))
    fn = {"add": np.add, "mul": np.multiply, "minsi": np.minimum, "maxsi": np.maximum,
          "minnumf": np.fmin, "maxnumf": np.fmax, "minimumf": np.minimum,
          "maximumf": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
          "xor": np.bitwise_xor}[kind]
    if isinstance(et, A.FloatType):
        return fn, signed, lambda x: x.astype(dtype_of(et))
    return fn, signed, lambda x: wrap(x, et)


def _group_reduce(fn, vals, key):
    """The reduction of `vals` over the lanes of each `key`, given back to every lane."""
    order = np.argsort(key, kind="stable")
    ks = key[order]
    starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    red = fn.reduceat(vals[order], starts, axis=0)
    group = np.cumsum(np.r_[True, ks[1:] != ks[:-1]]) - 1
    out = np.empty_like(red, shape=(len(key),) + red.shape[1:])
    out[order] = red[group]
    return out


@simt("gpu.subgroup_reduce")
def _subgroup_reduce(k, op, S):
    v = op._operands[0].value
    lanes = np.arange(k.L) if S is None else S
    vals = np.broadcast_to(np.asarray(k.get(v, S)),
                           (len(lanes),) + tuple(getattr(v.type, "shape", ())))
    props = op.properties
    size = props["cluster_size"].value if "cluster_size" in props else SUBGROUP_SIZE
    stride = props["cluster_stride"].value
    lane = k.lin[lanes] % SUBGROUP_SIZE
    warp = k.blk[lanes] * k.T + (k.lin[lanes] - lane)
    cluster = (lane // (size * stride)) * stride + lane % stride
    key = warp * SUBGROUP_SIZE + cluster
    fn, to, back = _reducer(props["op"].value, v.type)
    k.set(op.results[0], back(_group_reduce(fn, to(vals), key)), S)


@simt("gpu.all_reduce")
def _all_reduce(k, op, S):
    k.check_convergent(op, S)
    v = op._operands[0].value
    lanes = np.arange(k.L) if S is None else S
    vals = np.broadcast_to(np.asarray(k.get(v, S)),
                           (len(lanes),) + tuple(getattr(v.type, "shape", ())))
    key = k.blk[lanes]
    if "op" in op.properties:
        fn, to, back = _reducer(op.properties["op"].value, v.type)
        k.set(op.results[0], back(_group_reduce(fn, to(vals), key)), S)
        return
    # A reduction given by its region: folded in thread order, all blocks at once.
    uniq, inv = np.unique(key, return_inverse=True)
    counts = np.bincount(inv)
    if (counts != counts[0]).any():
        fail(op, "blocks of different sizes in one gpu.all_reduce")
    per = vals[np.argsort(inv, kind="stable")].reshape((len(uniq), counts[0]) +
                                                      vals.shape[1:])
    acc = per[:, 0]
    interp = k.interp
    interp.vectorized += 1
    try:
        for j in range(1, counts[0]):
            acc = np.asarray(interp.run_region(op.regions[0], [acc, per[:, j]])[0])
    finally:
        interp.vectorized -= 1
    k.set(op.results[0], acc[inv], S)


@simt("gpu.printf")
def _printf(k, op, S):
    fmt = op.properties["format"].value
    lanes = np.arange(k.L) if S is None else S
    cols = [np.broadcast_to(np.asarray(k.get(o.value, S)), (len(lanes),))
            for o in op._operands]
    for i in range(len(lanes)):
        vals = tuple(c[i].item() for c in cols)
        try:
            sys.stdout.write(fmt % vals if vals else fmt)
        except (TypeError, ValueError):
            sys.stdout.write(fmt + " " + " ".join(map(str, vals)))
    sys.stdout.flush()


def _warp_keys(k, lanes):
    """(warp index of each lane over the chunk, lane within its warp)."""
    lane = k.lin[lanes] % SUBGROUP_SIZE
    return k.blk[lanes] * k.T + (k.lin[lanes] - lane), lane


@simt("gpu.subgroup_broadcast")
def _subgroup_broadcast(k, op, S):
    v = op._operands[0].value
    lanes = np.arange(k.L) if S is None else S
    full = k.env[v]
    if v not in k.varying:
        k.set(op.results[0], full, S)
        return
    warp, lane = _warp_keys(k, lanes)
    if op.properties["broadcast_type"].value == "first_active_lane":
        src = np.empty(len(lanes), np.int64)
        order = np.lexsort((lane, warp))
        ws = warp[order]
        starts = np.r_[True, ws[1:] != ws[:-1]]
        first = lanes[order][starts]
        src[order] = first[np.cumsum(starts) - 1]
    else:
        want = np.broadcast_to(np.asarray(k.get(op._operands[1].value, S), np.int64),
                               (len(lanes),))
        if ((want < 0) | (want >= SUBGROUP_SIZE)).any():
            fail(op, f"lane {int(want[(want < 0) | (want >= SUBGROUP_SIZE)][0])} is not a "
                     f"lane of a subgroup of {SUBGROUP_SIZE}")
        src = lanes - lane + want
        if ((k.lin[lanes] - lane + want) >= k.T).any():
            fail(op, "reads a lane past the end of its block")
    k.set(op.results[0], full[src], S)


@simt("gpu.ballot")
def _ballot(k, op, S):
    lanes = np.arange(k.L) if S is None else S
    pred = np.broadcast_to(np.asarray(k.get(op._operands[0].value, S), np.bool_),
                           (len(lanes),))
    warp, lane = _warp_keys(k, lanes)
    bits = np.where(pred, np.left_shift(np.uint64(1), lane.astype(np.uint64)),
                    np.uint64(0))
    uniq, inv = np.unique(warp, return_inverse=True)
    acc = np.zeros(len(uniq), np.uint64)
    np.bitwise_or.at(acc, inv, bits)
    t = op.results[0].type
    k.set(op.results[0], wrap(acc[inv].astype(np.int64) if t.width <= 32 else acc[inv], t),
          S)


@simt("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(k, op, S):
    t = op.results[0].type
    data = np.zeros((k.nblocks, k.dynamic_shared), np.int8)
    k.set(op.results[0], Banked(data, k.blk, t, "workgroup"), S)


# ---------------------------------------------------------------- memory

def _address(k, op, mem, idx_vals, S, write):
    """The element indices (arrays over S) of a load/store, bounds-checked, and the
    array to index (with the bank index first for workgroup/private memory)."""
    n = k.n(S)
    if type(mem) is Banked:
        data = mem.data
        shape = data.shape[1:]
        bank = mem.bank if S is None else mem.bank[S]
        idx = [bank]
    else:
        if heap(k.interp).freed or (write and not mem.flags.writeable):
            check_buffers(k.interp, op, [mem], written=(0,) if write else ())
        data = mem
        shape = mem.shape
        idx = []
    if len(idx_vals) != len(shape):
        fail(op, f"{len(idx_vals)} indices for a buffer of rank {len(shape)}")
    for d, i in enumerate(idx_vals):
        if type(i) is not np.ndarray:  # uniform
            i = int(i)
            if not 0 <= i < shape[d]:
                fail(op, f"index {i} is out of bounds for dimension {d} of size "
                         f"{shape[d]} ({k.where(S)})")
            idx.append(i)
            continue
        if i.dtype != np.int64:
            i = i.astype(np.int64)
        bad = (i < 0) | (i >= shape[d])
        if bad.any():
            j = int(np.flatnonzero(np.broadcast_to(bad, (n,)))[0])
            who = k.where(np.array([j]) if S is None else S[j:j + 1])
            fail(op, f"index {int(np.broadcast_to(i, (n,))[j])} is out of bounds for "
                     f"dimension {d} of size {shape[d]} ({who})")
        idx.append(i)
    return data, tuple(idx)


@simt("memref.load")
def _load(k, op, S):
    mem = k.get(op._operands[0].value, S)
    if type(mem) is LaneViews:
        return k._per_lane(op, S, IMPLS[op.name], [k.get(o.value, S) for o in op._operands])
    idx_vals = [k.get(o.value, S) for o in op._operands[1:]]
    data, idx = _address(k, op, mem, idx_vals, S, False)
    x = data[idx]
    if type(x) is not np.ndarray:  # every index uniform: a uniform value
        k.set(op.results[0], x, S)
        return
    if x.shape[0] != k.n(S):
        x = np.broadcast_to(x, (k.n(S),)).copy()
    k.set(op.results[0], x, S)


@simt("memref.store")
def _store(k, op, S):
    val = k.get(op._operands[0].value, S)
    mem = k.get(op._operands[1].value, S)
    if type(mem) is LaneViews:
        return k._per_lane(op, S, IMPLS[op.name], [k.get(o.value, S) for o in op._operands])
    idx_vals = [k.get(o.value, S) for o in op._operands[2:]]
    data, idx = _address(k, op, mem, idx_vals, S, True)
    if all(np.ndim(i) == 0 for i in idx) and np.ndim(val) == 0:
        data[idx] = val
        return
    n = k.n(S)
    idx = tuple(np.broadcast_to(i, (n,)) for i in idx)
    data[idx] = np.broadcast_to(np.asarray(val), (n,))


@simt("vector.load", "vector.store", "vector.maskedload", "vector.maskedstore",
      "vector.transfer_read", "vector.transfer_write")
def _vector_memory(k, op, S):
    """Vector loads and stores: once for all threads when the buffer and indices are
    uniform, else thread by thread (each thread's own indices and buffer)."""
    fn = IMPLS[op.name]
    args = [k.get(o.value, S) for o in op._operands]
    if any(o.value in k.varying for o in op._operands) or \
            any(type(a) in (Banked, LaneViews) for a in args):
        return k._per_lane(op, S, fn, args)
    for r, x in zip(op.results, k.interp._invoke(fn, op, args)):
        k.set(r, x, S)


@simt("memref.alloc", "memref.alloca")
def _kernel_alloc(k, op, S):
    t = op.results[0].type
    space = address_space_of(t)
    if op._operands:
        fail(op, "allocations of dynamic size inside a GPU kernel are not supported by the "
                 "interpreter")
    k.set(op.results[0], _banked(k, t, tuple(t.shape),
                                 "workgroup" if space == "workgroup" else "private"), S)


@simt("memref.dealloc")
def _kernel_dealloc(k, op, S):
    if type(k.get(op._operands[0].value, S)) is not Banked:
        fail(op, "frees a buffer inside a GPU kernel")


@simt("cf.assert")
def _kernel_assert(k, op, S):
    c = k.get(op._operands[0].value, S)
    ok = np.asarray(c, np.bool_)
    if not ok.all():
        j = int(np.flatnonzero(np.broadcast_to(~ok, (k.n(S),)))[0])
        who = k.where(np.array([j]) if S is None else S[j:j + 1])
        fail(op, f"assertion failed: {op.properties['msg'].value} ({who})")


# ---------------------------------------------------------------- structured control flow

def _positions(x):
    return np.flatnonzero(np.asarray(x, np.bool_))


def _merge(k, olds, news, pos, n):
    """Carried values over n threads: `news` (over threads `pos`) replace `olds`."""
    out = []
    for old, new in zip(olds, news):
        old = np.asarray(old)
        new = np.asarray(new)
        if len(pos) == n and (new.ndim == 0 or new.ndim == old.ndim == 0):
            out.append(new)
            continue
        base = old if old.ndim and old.shape[0] == n and old.ndim > 0 else None
        shape = (n,) + (new.shape[1:] if new.ndim and new.shape[0] == len(pos) else
                        new.shape)
        arr = np.empty(shape, np.result_type(old.dtype, new.dtype) if old.dtype != new.dtype
                       else old.dtype)
        arr[...] = base if base is not None else old
        arr[pos] = new
        out.append(arr)
    return out


def _sub(S, pos):
    return pos if S is None else S[pos]


def _take(x, pos, n):
    x = np.asarray(x)
    if x.ndim and x.shape[0] == n:
        return x[pos]
    return x


@simt("scf.for")
def _for(k, op, S):
    t = op._operands[0].value.type
    lb, ub, step = (k.get(o.value, S) for o in op._operands[:3])
    iters = [k.get(o.value, S) for o in op._operands[3:]]
    body = op.regions[0]
    d = dtype_of(t)
    if op.properties.get("unsignedCmp") is not None:
        w = int_width(t)
        lb, ub, step = (to_unsigned(x, w).astype(np.int64) if w < 64 else
                        to_unsigned(x, w) for x in (lb, ub, step))
    if np.ndim(lb) == np.ndim(ub) == np.ndim(step) == 0:
        lb, ub, step = int(lb), int(ub), int(step)
        if step <= 0:
            fail(op, f"step must be positive, got {step} (undefined behaviour)")
        for i in range(lb, ub, step):
            iters = k.run_region(body, S, [d.type(i)] + iters)
    else:
        n = k.n(S)
        lb, ub, step = (np.broadcast_to(np.asarray(x, np.int64), (n,)) for x in
                        (lb, ub, step))
        if (step <= 0).any():
            fail(op, f"step must be positive, got {int(step[step <= 0][0])} (undefined "
                     "behaviour)")
        j = 0
        while True:
            iv = lb + j * step
            pos = np.flatnonzero(iv < ub)
            if not len(pos):
                break
            sub = _sub(S, pos)
            res = k.run_region(body, sub, [iv[pos].astype(d)] +
                               [_take(x, pos, n) for x in iters])
            iters = _merge(k, iters, res, pos, n)
            j += 1
    for r, x in zip(op.results, iters):
        k.set(r, x, S)


@simt("scf.if")
def _if(k, op, S):
    c = k.get(op._operands[0].value, S)
    then, other = op.regions
    if np.ndim(c) == 0:
        region = then if bool(c) else other
        res = k.run_region(region, S, []) if region.blocks else []
        for r, x in zip(op.results, res):
            k.set(r, x, S)
        return
    n = k.n(S)
    c = np.asarray(c, np.bool_)
    outs = None
    for region, pos in ((then, np.flatnonzero(c)), (other, np.flatnonzero(~c))):
        if not len(pos) or not region.blocks:
            continue
        res = k.run_region(region, _sub(S, pos), [])
        if not op.results:
            continue
        if outs is None:
            outs = [None] * len(res)
        for j, x in enumerate(res):
            x = np.asarray(x)
            if outs[j] is None:
                shape = x.shape[1:] if x.ndim and x.shape[0] == len(pos) and \
                    x.ndim == (_lane_rank(op.results[j].type) or 0) + 1 else x.shape
                outs[j] = np.empty((n,) + tuple(shape), x.dtype)
            outs[j][pos] = x
    for r, x in zip(op.results, outs or []):
        k.set(r, x, S)


@simt("scf.while")
def _while(k, op, S):
    before, after = op.regions
    n = k.n(S)
    vals = [k.get(o.value, S) for o in op._operands]
    active = np.arange(n)
    results = None
    while len(active):
        sub = None if S is None and len(active) == n else _sub(S, active)
        cond, *carried = k.run_region(before, sub, [_take(x, active, n) if len(active) < n
                                                    else x for x in vals])
        c = np.broadcast_to(np.asarray(cond, np.bool_), (len(active),))
        exit_pos = np.flatnonzero(~c)
        if results is None:
            results = [np.empty((n,) + np.shape(x)[1 if np.ndim(x) and
                                np.shape(x)[0] == len(active) and
                                np.ndim(x) == (_lane_rank(r.type) or 0) + 1 else 0:],
                                np.asarray(x).dtype) for x, r in zip(carried, op.results)]
        for j, x in enumerate(carried):
            x = np.asarray(x)
            results[j][active[exit_pos]] = x[exit_pos] if x.ndim and \
                x.shape[0] == len(active) and x.ndim == (_lane_rank(
                    op.results[j].type) or 0) + 1 else x
        go = np.flatnonzero(c)
        if not len(go):
            break
        active = active[go]
        sub = None if S is None and len(active) == n else _sub(S, active)
        carried = [_take(x, go, len(c)) for x in carried]
        vals_new = k.run_region(after, sub, carried)
        vals = _merge(k, vals, vals_new, active, n)
    for r, x in zip(op.results, results or []):
        k.set(r, x, S)


@simt("scf.parallel")
def _parallel(k, op, S):
    """A parallel loop inside a kernel: every thread walks its iteration space (uniform
    bounds), in order, with the reductions folded in that order."""
    n = len(op.regions[0].blocks[0].args)
    vals = [k.get(o.value, S) for o in op._operands]
    if any(np.ndim(v) for v in vals[:3 * n]):
        fail(op, "bounds that differ between threads are not supported by the interpreter")
    lbs, ubs, steps = (_ints_of(vals[i * n:(i + 1) * n]) for i in range(3))
    if any(st <= 0 for st in steps):
        fail(op, f"step must be positive, got {steps} (undefined behaviour)")
    accs = vals[3 * n:]
    body = op.regions[0]
    reduce_op = body.blocks[0].last
    for point in itertools.product(*(range(lb, ub, st) for lb, ub, st in
                                     zip(lbs, ubs, steps))):
        got = k.run_region(body, S, [np.int64(i) for i in point])
        for j, v in enumerate(got):
            accs[j] = k.run_region(reduce_op.regions[j], S, [accs[j], v])[0]
    for r, x in zip(op.results, accs):
        k.set(r, x, S)


def _ints_of(xs):
    return [int(x) for x in xs]


# Atomic kinds that NumPy applies at repeated indices in order (ufunc.at).
_ATOMIC_UFUNCS = {"addf": np.add, "addi": np.add, "maximumf": np.maximum,
                  "minimumf": np.minimum, "maxnumf": np.fmax, "minnumf": np.fmin,
                  "maxs": np.maximum, "mins": np.minimum, "andi": np.bitwise_and,
                  "ori": np.bitwise_or, "xori": np.bitwise_xor}


@simt("memref.atomic_rmw")
def _atomic_rmw(k, op, S):
    """Atomics from many threads: one ufunc.at when the old values are not used (the
    threads' updates all land, in thread order), else thread by thread."""
    from ..dialects import memref as M
    args = [k.get(o.value, S) for o in op._operands]
    kind = M.ATOMIC_RMW_KINDS[op.properties["kind"].value]
    fn = _ATOMIC_UFUNCS.get(kind)
    mem = args[1]
    if fn is None or op.results[0].first_use is not None or type(mem) is LaneViews:
        return k._per_lane(op, S, IMPLS[op.name], args)
    data, idx = _address(k, op, mem, args[2:], S, True)
    n = k.n(S)
    idx = tuple(np.broadcast_to(i, (n,)) for i in idx)
    val = np.broadcast_to(np.asarray(args[0]), (n,))
    t = op._operands[0].value.type
    if kind == "addi":
        wide = data[idx].astype(np.int64)
        acc = np.zeros(data.shape, np.int64)
        np.add.at(acc, idx, val.astype(np.int64))
        data[idx] = wrap(wide + acc[idx], t)
    else:
        fn.at(data, idx, val.astype(data.dtype))
    k.set(op.results[0], np.zeros(n, data.dtype), S)  # unused (see above)


@simt("scf.execute_region")
def _execute_region(k, op, S):
    for r, x in zip(op.results, k.run_region(op.regions[0], S, [])):
        k.set(r, x, S)
