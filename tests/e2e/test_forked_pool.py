"""The conformance runners' worker pool (tests/e2e/forked_pool.py): every item gets a
result, in any number of workers, and a worker killed by a signal fails only the item it
was in (with where it was), the rest of its share still running."""
from __future__ import annotations

import os
import signal

import pytest
from forked_pool import run_forked


def _run(item, progress):
    progress(f"step of {item}")
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item * 10


@pytest.mark.parametrize("jobs", [1, 2, 5])
def test_a_killed_worker_fails_only_its_item(jobs):
    done = []
    res = run_forked(range(7), _run, jobs, lambda i, where, why: f"died in {where}: {why}",
                     lambda i, r: done.append(i))
    assert res == {0: 0, 1: 10, 2: 20, 3: "died in step of 3: signal 9", 4: 40, 5: 50,
                   6: 60}
    assert sorted(done) == list(range(7))
