"""convert-onnx-to-linalg: DepthToSpace (DCR and CRD) and SpaceToDepth, static and
dynamic dims, against onnxruntime; sizes that do not divide fail at run time, naming
the node. Found by tools/fuzz_onnx.py: both ops had no lowering ("no lowering for this
op")."""
from __future__ import annotations

import numpy as np
import pytest

from onnx_node_models import F, expected, model, rand

import strata


@pytest.mark.parametrize("target", ["interpret", "cpu"])
@pytest.mark.parametrize("op,attrs,xs,shapes", [
    ("DepthToSpace", dict(blocksize=2), [1, 8, 2, 3], [(1, 8, 2, 3)]),
    ("DepthToSpace", dict(blocksize=2, mode="CRD"), [2, 8, 3, 2], [(2, 8, 3, 2)]),
    ("DepthToSpace", dict(blocksize=3, mode="DCR"), ["N", "C", "H", "W"],
     [(1, 18, 2, 3), (2, 9, 1, 4)]),
    ("DepthToSpace", dict(blocksize=2, mode="CRD"), ["N", "C", 3, "W"], [(1, 12, 3, 5)]),
    ("SpaceToDepth", dict(blocksize=2), [1, 3, 4, 6], [(1, 3, 4, 6)]),
    ("SpaceToDepth", dict(blocksize=3), ["N", 2, "H", "W"], [(2, 2, 6, 3), (1, 2, 3, 9)]),
])
def test_space_depth(target, op, attrs, xs, shapes):
    m = model(op, [("x", F, xs)], [("y", F, None)], **attrs)
    f = strata.compile(m, target=target)
    for shape in shapes:
        x = rand(*shape)
        want = expected(m, (x,), "ort")[0]
        got = f(x)[0]
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", ["interpret", "cpu"])
def test_space_depth_sizes_that_do_not_divide(target):
    d2s = strata.compile(model("DepthToSpace", [("x", F, [1, "C", 2, 2])], [("y", F, None)],
                               blocksize=2), target=target)
    with pytest.raises(strata.StrataError, match="DepthToSpace.*channel count must be a "
                                                 "multiple of 4"):
        d2s(rand(1, 6, 2, 2))
    s2d = strata.compile(model("SpaceToDepth", [("x", F, [1, 1, "H", 4])], [("y", F, None)],
                               blocksize=2), target=target)
    with pytest.raises(strata.StrataError, match="height must be a multiple of 2"):
        s2d(rand(1, 1, 3, 4))
    with pytest.raises(strata.StrataError) as e:
        strata.compile(model("DepthToSpace", [("x", F, [1, 6, 2, 2])], [("y", F, None)],
                             blocksize=2), target=target)
    assert "multiple of 4" in str(e.value.diag)
