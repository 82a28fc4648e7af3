"""bench/models.py's wait between peers ([Note: peers' threads between peers]): `settle`
waits out another peer's spinning threads before a peer is timed, bounded, and
`interleaved_medians_ms` reports the longest wait after each peer. A fake clock and CPU
reader make the waits exact; one check reads a real spinning thread's CPU."""
from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path

import pytest

# (loaded under a name of its own: tests/e2e/models.py is the `models` other tests import)
_spec = importlib.util.spec_from_file_location(
    "strata_bench_models_settle", Path(__file__).resolve().parents[2] / "bench" / "models.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


class FakeMachine:
    """A clock advanced by `sleep`, and other threads that use `cpus` CPUs until `until`."""

    def __init__(self, until, cpus=1.0):
        self.t = 0.0
        self.until, self.cpus = until, cpus

    def clock(self):
        return self.t

    def sleep(self, s):
        self.t += s

    def read(self):
        return self.cpus * min(self.t, self.until)


def test_settle_waits_for_a_spinning_thread():
    m = FakeMachine(until=0.3)
    waited = bench.settle(0.05, read=m.read, sleep=m.sleep, clock=m.clock)
    # the first quiet 10 ms window starts at 0.3 s at the latest
    assert 0.3 <= waited <= 0.3 + 2 * 0.01 + 1e-9


def test_settle_is_the_pause_alone_when_quiet():
    m = FakeMachine(until=0.0)
    waited = bench.settle(0.05, read=m.read, sleep=m.sleep, clock=m.clock)
    assert waited == pytest.approx(0.05 + 0.01)


def test_settle_ignores_a_thread_under_the_quiet_share():
    # a pool waking now and then (Strata's workers: a short spin every 100 ms) is quiet
    m = FakeMachine(until=10.0, cpus=0.02)
    assert bench.settle(0.05, read=m.read, sleep=m.sleep, clock=m.clock) < 0.1


def test_settle_is_bounded():
    m = FakeMachine(until=100.0)
    waited = bench.settle(0.05, max_s=0.5, read=m.read, sleep=m.sleep, clock=m.clock)
    assert 0.5 <= waited < 0.5 + 0.011


def test_settle_without_a_reader_is_the_pause():
    m = FakeMachine(until=100.0)
    waited = bench.settle(0.05, read=lambda: None, sleep=m.sleep, clock=m.clock)
    assert waited == 0.05


def test_other_threads_cpu_counts_another_thread():
    if bench.other_threads_cpu_s() is None:
        pytest.skip("no /proc/self/task here")
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            sum(range(1000))
    t = threading.Thread(target=spin)
    before = bench.other_threads_cpu_s()
    t.start()
    try:
        time.sleep(0.2)
        during = bench.other_threads_cpu_s()   # while it lives: an ended thread's CPU
    finally:                                   # leaves /proc/self/task with it
        stop.set()
        t.join()
    assert during > before


def test_interleaved_medians_report_the_waits_per_peer():
    calls = {"a": 0, "b": 0}

    def peer(name):
        def run():
            calls[name] += 1
        return run
    settled = {}
    got = bench.interleaved_medians_ms({"a": peer("a"), "b": peer("b")}, repeat=4,
                                       rounds=2, warmup=1, min_s=0.01, pause_s=0.001,
                                       settled=settled)
    assert set(got) == {"a", "b"} and all(v >= 0 for v in got.values())
    assert calls["a"] >= 1 + 4 and calls["b"] >= 1 + 4
    # the wait before "b" follows "a"'s block, the one before round 2's "a" follows "b"
    assert set(settled) == {"a", "b"} and all(v >= 0.001 for v in settled.values())
