"""with_frame_room: a call's frames on a chunk of CPython's frame stack of their own
([Note: frame-stack room] in strata/ir/frame_room.py)."""
import resource
import sys

import pytest

from strata.ir.frame_room import with_frame_room

needs_chunks = pytest.mark.skipif(sys.version_info < (3, 11),
                                  reason="frames live in stack chunks from CPython 3.11")


def _leaf(x):
    return x


# a frame of ~0.5 KiB (a larger value stack declared): wider than a step of _at_depth,
# so that some depth leaves less room than it needs at the end of a chunk
_wide_leaf = type(_leaf)(_leaf.__code__.replace(co_stacksize=64), globals(), "_wide_leaf") \
    if sys.version_info >= (3, 11) else _leaf


def _calls(n):
    """Minor page faults while a function is called n times from here."""
    leaf = _wide_leaf
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for i in range(n):
        leaf(i)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _at_depth(depth, fn, *args):
    if depth == 0:
        return fn(*args)
    return _at_depth(depth - 1, fn, *args)


def test_result_arguments_and_errors_pass_through():
    assert with_frame_room(lambda a, b=0: a + b, 2, b=3) == 5

    def fail():
        raise KeyError("inside")
    with pytest.raises(KeyError, match="inside") as info:
        with_frame_room(fail)
    assert any(entry.name == "fail" for entry in info.traceback)


@needs_chunks
def test_the_call_runs_below_a_frame_with_room():
    def room():
        f = sys._getframe(1)
        return f.f_code.co_name, f.f_code.co_stacksize
    name, slots = with_frame_room(room)
    assert name == "_call_with_room" and slots * 8 >= 1 << 19


@needs_chunks
def test_a_hot_call_on_a_chunk_end_stops_mapping_chunks():
    # the mechanism the Note describes, as CPython has it: at some depth a call's frame
    # does not fit in its chunk, and each call maps (and faults in) a new chunk and
    # unmaps it on return; the same calls made from with_frame_room do not
    n = 400
    thrashing = [d for d in range(300) if _at_depth(d, _calls, n) >= n]
    assert thrashing, "no depth put the call on a chunk's end"
    for d in thrashing[:3]:
        assert _at_depth(d, with_frame_room, _calls, n) < n // 10
