"""onnx-shape-inference on every ONNX backend node-test model, against onnx.

Each model is imported (its result types then come from onnx's inference of the whole
model and the model's declared outputs), every onnx op result is made unranked, and
onnx-shape-inference runs: it must not fail or crash, and what it infers must never
contradict onnx's types (it may know less: node tests feed shapes as inputs, not
constants).
"""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("onnx")

from strata.dialects import onnx as O  # noqa: E402
from strata.frontends.onnx import import_model  # noqa: E402
from strata.ir import attributes as A  # noqa: E402
from strata.transforms.onnx_shape_inference import OnnxShapeInference  # noqa: E402
from strata.transforms.onnx_shape_inference.core import refine  # noqa: E402


# Where onnx's own inference is wrong (its reference implementation agrees with ours).
ONNX_WRONG = {
    # Split of 5 elements into num_outputs=4: onnx infers [2, 2, 2, -1], its reference
    # implementation gives [2, 2, 1, 0].
    "test_affine_grid_3d_expanded", "test_affine_grid_3d_align_corners_expanded",
}


class _Capture:
    verify_each = False

    def __init__(self):
        self.messages = []
        self.diagnostic_handler = lambda d: self.messages.append(d.message)


def _erase(module):
    erased = {}
    for op in module.walk():
        if isinstance(op, O.OnnxOp) and op.name != "onnx.Constant":
            for r in op.results:
                if isinstance(r.type, (A.RankedTensorType, A.UnrankedTensorType)):
                    erased[r] = r.type
                    r.type = A.UnrankedTensorType(r.type.element_type)
    return erased


# The ~1900 models as SHARDS tests (shard k: the models whose index is k modulo SHARDS),
# so that pytest's progress moves while they run.
SHARDS = 4
_CASES = []


def _cases():
    if not _CASES:
        from onnx.backend.test.loader import load_node_model_tests
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _CASES.extend(load_node_model_tests())
    return _CASES


@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda k: f"shard{k + 1}of{SHARDS}")
def test_node_models_reinferred_consistently(shard):
    problems, checked, same = [], 0, 0
    for case in _cases()[shard::SHARDS]:
        try:
            module = import_model(case.model)
        except Exception:  # noqa: BLE001 - the importer's tests judge that
            continue
        erased = _erase(module)
        p = OnnxShapeInference()
        p.instrumentation = _Capture()
        p.run(module)
        for r, t in erased.items():
            both, conflict = refine(r.type, t)
            checked += 1
            same += both is r.type
            if conflict and case.name not in ONNX_WRONG:
                problems.append(f"{case.name}: {r.owner.name} inferred {r.type}, onnx {t}")
    assert not problems, "\n".join(problems)
    assert checked > 1000 and same / checked > 0.9  # (over 10000 in all)
