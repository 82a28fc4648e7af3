"""The thread pool of compiled code (strata/backends/cpu/threadpool.py), driven through
the kernels' library with small JIT'd chunk functions: every index of [0, n) done once,
grains, thread counts (process default, per-thread model scope), calls from several
Python threads at once, nested calls, and fork (a child with and without a job running
in the parent at the fork)."""
from __future__ import annotations

import math
import os
import signal
import threading
import time

import numpy as np
import pytest

pytest.importorskip("llvmlite")

from strata.backends.cpu import kernels  # noqa: E402
from strata.backends.cpu.jit import JitModule  # noqa: E402

# ctx: {ptr counts (i64 per index), ptr calls (i64), i64 sleep (us per chunk),
#       i64 inner (nested: n of the inner call, 0 = none)}
_CHUNKS = r"""
declare void @strata_parallel_for(ptr, ptr, i64, i64)
declare i32 @usleep(i32)

define void @count(ptr %ctx, i64 %lo, i64 %hi) {
entry:
  %out = load ptr, ptr %ctx, align 8
  %p1 = getelementptr inbounds ptr, ptr %ctx, i64 1
  %calls = load ptr, ptr %p1, align 8
  %c = atomicrmw add ptr %calls, i64 1 seq_cst
  %p2 = getelementptr inbounds i64, ptr %ctx, i64 2
  %us = load i64, ptr %p2, align 8
  %nap = icmp sgt i64 %us, 0
  br i1 %nap, label %sleep, label %head
sleep:
  %us32 = trunc i64 %us to i32
  %r = call i32 @usleep(i32 %us32)
  br label %head
head:
  %i = phi i64 [ %lo, %entry ], [ %lo, %sleep ], [ %i1, %body ]
  %more = icmp slt i64 %i, %hi
  br i1 %more, label %body, label %done
body:
  %q = getelementptr inbounds i64, ptr %out, i64 %i
  %o = atomicrmw add ptr %q, i64 1 monotonic
  %i1 = add i64 %i, 1
  br label %head
done:
  ret void
}

define void @nested(ptr %ctx, i64 %lo, i64 %hi) {
entry:
  %p3 = getelementptr inbounds i64, ptr %ctx, i64 3
  %inner = load i64, ptr %p3, align 8
  br label %head
head:
  %i = phi i64 [ %lo, %entry ], [ %i1, %body ]
  %more = icmp slt i64 %i, %hi
  br i1 %more, label %body, label %done
body:
  call void @strata_parallel_for(ptr @count, ptr %ctx, i64 %inner, i64 1)
  %i1 = add i64 %i, 1
  br label %head
done:
  ret void
}
"""


class _Job:
    """A context for @count / @nested over `n` indices."""

    def __init__(self, n, sleep_us=0, inner=0):
        self.counts = np.zeros(max(n, inner, 1), np.int64)
        self.calls = np.zeros(1, np.int64)
        self.ctx = np.array([self.counts.ctypes.data, self.calls.ctypes.data, sleep_us,
                             inner], np.int64)


@pytest.fixture(scope="module")
def pool():
    lib = kernels.load_kernels()
    jit = JitModule(_CHUNKS, opt_level=1, symbols=kernels.kernel_symbols())
    yield lib, {name: jit.address_of(name) for name in ("count", "nested")}, jit
    lib.set_num_threads(0)


def _run(lib, fns, n, grain=1, fn="count", **kw):
    job = _Job(n, **kw)
    lib.parallel_for(fns[fn], job.ctx.ctypes.data, n, grain)
    return job


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("n,grain", [(0, 1), (1, 1), (7, 1), (1000, 1), (1000, 300),
                                     (100_000, 64), (5, 100)])
def test_every_index_once(pool, threads, n, grain):
    lib, fns, _ = pool
    lib.set_num_threads(threads)
    job = _run(lib, fns, n, grain)
    assert (job.counts[:n] == 1).all()
    chunks = int(job.calls[0])
    if n == 0:
        assert chunks == 0
    else:
        # chunks of at least `grain` (but the last); guided: at most CHUNKS_PER_THREAD
        # even ones per thread, then shares of what is left shrinking by 1 - 1/(2 threads)
        from strata.backends.cpu.threadpool import CHUNKS_PER_THREAD
        assert 1 <= chunks <= max(1, -(-n // grain))
        assert chunks <= threads * CHUNKS_PER_THREAD + \
            2 * threads * (math.log(max(n / grain, 1)) + 2)
        if threads == 1:
            assert chunks == 1


def test_thread_counts(pool):
    lib, _, _ = pool
    lib.set_num_threads(3)
    assert lib.get_num_threads() == 3
    prev = lib.threads_enter(2)          # a model's own count, on this thread only
    assert prev == 0 and lib.get_num_threads() == 2
    seen = []
    t = threading.Thread(target=lambda: seen.append(lib.get_num_threads()))
    t.start()
    t.join()
    assert seen == [3]
    inner = lib.threads_enter(5)
    assert inner == 2 and lib.get_num_threads() == 5
    lib.threads_exit(inner)
    assert lib.get_num_threads() == 2
    lib.threads_exit(prev)
    assert lib.get_num_threads() == 3
    assert lib.threads_enter(0) == -1    # no count of its own: nothing changes
    lib.threads_exit(-1)
    assert lib.get_num_threads() == 3
    lib.set_num_threads(0)               # automatic: $STRATA_NUM_THREADS, else the CPUs
    assert lib.get_num_threads() == kernels.default_threads()
    lib.set_num_threads(10_000)
    assert lib.get_num_threads() == 256


def test_nested_calls_run_inline(pool):
    lib, fns, _ = pool
    lib.set_num_threads(4)
    job = _run(lib, fns, 6, fn="nested", inner=500)
    assert (job.counts[:500] == 6).all()


def test_calls_from_several_threads(pool):
    """Python threads calling at once (ctypes releases the GIL): one gets the pool, the
    others run inline; all results are complete."""
    lib, fns, _ = pool
    lib.set_num_threads(3)
    jobs, errors = [], []

    def work():
        try:
            for _ in range(20):
                jobs.append(_run(lib, fns, 3000, 10, sleep_us=50))
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(jobs) == 80
    assert all((j.counts == 1).all() for j in jobs)


def _wait_child(pid, timeout=30.0):
    """The child's exit status; kills it and fails if it hangs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child hung in the thread pool")


def _child(lib, fns, n=20_000):
    """In a forked child: one parallel job; exit 0 if every index was done once."""
    try:
        lib.set_num_threads(3)
        job = _run(lib, fns, n, 16)
        ok = (job.counts[:n] == 1).all()
        os._exit(0 if ok else 3)
    except BaseException:  # noqa: BLE001
        os._exit(4)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_after_use(pool):
    lib, fns, _ = pool
    lib.set_num_threads(3)
    assert (_run(lib, fns, 10_000, 8).counts == 1).all()   # the workers exist
    pid = os.fork()
    if pid == 0:
        _child(lib, fns)
    assert _wait_child(pid) == 0
    assert (_run(lib, fns, 10_000, 8).counts == 1).all()   # the parent's pool still works


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_during_a_job(pool):
    """A fork while another thread holds the pool: the child takes it over."""
    lib, fns, _ = pool
    lib.set_num_threads(3)
    started = threading.Event()
    result = []

    def long_job():
        started.set()
        result.append(_run(lib, fns, 64, 1, sleep_us=20_000))
    t = threading.Thread(target=long_job)
    t.start()
    started.wait()
    time.sleep(0.05)
    pid = os.fork()
    if pid == 0:
        _child(lib, fns)
    t.join(60)
    assert _wait_child(pid) == 0
    assert (result[0].counts == 1).all()
