"""The pass manager runs its passes at the base of a frame stack chunk of their own
([Note: frame-stack room] in strata/ir/frame_room.py): however deep its caller is, a
pass calling small functions in a loop does not map and unmap a chunk per call.

Measured as page faults (every fresh mapping faults when first written): the pipeline is
run from every caller depth across a chunk's span, and the worst depth is looked at."""
import resource
import sys

import pytest

from strata.dialects import default_context
from strata.ir.frame_room import with_frame_room
from strata.passes.pass_manager import Pass, PassManager
from strata.syntax.parser import parse_source

CALLS = 400

pytestmark = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info < (3, 11),
    reason="frame stack chunks are CPython 3.11+'s")


def _leaf(x):
    return x


# _leaf's frame made ~70 slots (unused locals), wider than a _descend frame: stepping
# the caller's depth one _descend frame at a time cannot skip the depths where _leaf's
# frame no longer fits in the chunk its caller's frame is in, wherever pytest's own
# frames put the start
if sys.implementation.name == "cpython":
    _leaf.__code__ = _leaf.__code__.replace(
        co_varnames=_leaf.__code__.co_varnames + tuple(f"_{i}" for i in range(64)),
        co_nlocals=_leaf.__code__.co_nlocals + 64)


def _loop():
    for i in range(CALLS):
        _leaf(i)


def _descend(n, fn):
    # one small frame per level: ~100 bytes, so consecutive depths step through every
    # position of a chunk boundary
    if n:
        return _descend(n - 1, fn)
    return fn()


def _faults(fn):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    fn()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _worst(fn, depths=range(0, 300)):
    fn()  # warm: first-use allocations are not the point
    return max(_faults(lambda d=d: _descend(d, fn)) for d in depths)


def test_a_loop_straddling_a_chunk_boundary_faults_per_call():
    # The failure mode itself (no fresh stack): at some caller depth every call of
    # _leaf maps a chunk. If this stops holding, the interpreter changed and the
    # tests below prove nothing.
    assert _worst(_loop) >= CALLS


class _Calls(Pass):
    name = "test-frame-stack-calls"

    def run(self, op):
        _loop()


def test_pass_manager_runs_passes_on_a_fresh_frame_stack():
    module = parse_source("module {}", default_context())
    pm = PassManager("builtin.module", [_Calls()])
    pm.verify_each = False
    assert _worst(lambda: pm.run(module)) < CALLS // 4


def test_strata_compile_runs_on_a_fresh_frame_stack(monkeypatch):
    # The import, verification and translation around the passes too: strata.compile
    # calls its worker through the big frame (it is the worker's caller).
    import strata.compiler as C
    import strata.ir.frame_room as F
    seen = []

    def worker(*args):
        seen.append(sys._getframe(1).f_code)
        return "compiled"
    monkeypatch.setattr(C, "_compile", worker)
    assert C.compile("unused.mlir", cache=False) == "compiled"
    assert seen and seen[0].co_stacksize > 10000 and seen[0].co_filename == F.__file__
