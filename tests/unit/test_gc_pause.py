"""gc_paused: the collector off inside, back on after; with promote=True what the pause
allocated goes to the oldest generation without a scan ([Note: what a pause leaves])."""
import gc

import pytest

from strata.ir.gc_pause import gc_paused, promote_to_oldest


class _Node:
    def __init__(self):
        self.other = self     # a reference cycle: only the cyclic collector frees it


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    gc.collect()
    yield
    if not was:
        gc.disable()


def _generation_of(obj):
    for g in range(3):
        if any(o is obj for o in gc.get_objects(generation=g)):
            return g
    return None


def test_promote_moves_what_the_pause_made_to_the_oldest_generation(collector_on):
    with gc_paused(promote=True):
        assert not gc.isenabled()
        kept = [_Node() for _ in range(10)]
    assert gc.isenabled()
    assert _generation_of(kept[0]) == 2
    assert gc.get_count()[0] < 50       # no young collection is due over them


def test_without_promote_the_pause_leaves_them_young(collector_on):
    with gc_paused():
        kept = [_Node() for _ in range(10)]
    assert gc.isenabled()
    assert _generation_of(kept[0]) in (0, 1)


def test_promoted_garbage_is_collected_not_leaked(collector_on):
    import weakref
    with gc_paused(promote=True):
        n = _Node()
        ref = weakref.ref(n)
        del n
    assert ref() is not None            # a cycle: waits for a collection
    gc.collect()
    assert ref() is None


def test_nested_pause_leaves_the_outer_one_in_charge(collector_on):
    with gc_paused(promote=True):
        with gc_paused(promote=True):
            kept = _Node()
        assert not gc.isenabled()        # the inner pause did not switch it back on
        assert _generation_of(kept) == 0
    assert gc.isenabled()
    assert _generation_of(kept) == 2


def test_a_programs_own_freeze_is_kept(collector_on):
    frozen = _Node()
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert before > 0
        assert promote_to_oldest() is False
        with gc_paused(promote=True):
            young = _Node()
        # still frozen, none unfrozen (an unfreeze empties the permanent generation;
        # a frozen object that reference counting frees meanwhile leaves it: a few
        # of the test run's own objects can, so not an exact count)
        assert gc.get_freeze_count() >= before - 64
        assert _generation_of(young) in (0, 1)
        assert _generation_of(frozen) is None       # in the permanent generation
    finally:
        gc.unfreeze()


def test_compile_leaves_the_collector_on_and_its_ir_promoted(collector_on):
    import numpy as np

    import strata
    src = """
    func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
      %r = arith.addf %a, %a : tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    f = strata.compile(_parse(src), target="interpret", cache=False)
    assert gc.isenabled()
    assert _generation_of(f) == 2
    np.testing.assert_array_equal(f(np.ones(4, np.float32))[0], np.full(4, 2, np.float32))


def _parse(src):
    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    return parse_source(src, default_context())
