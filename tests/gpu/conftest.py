"""Tests on a real NVIDIA GPU (the cuda target's runtime): skipped, with the reason,
where there is no CUDA driver or no device (CI, most development machines). Run them
with tools/gpu_check.sh on a machine with a GPU."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))


def _device_problem():
    from strata.backends.cuda import runtime
    try:
        runtime.driver()
    except Exception as e:   # DriverMissing: the one line saying what is missing
        return str(e)
    return None


_PROBLEM = _device_problem()


def pytest_collection_modifyitems(config, items):
    if _PROBLEM is None:
        return
    skip = pytest.mark.skip(reason=f"no CUDA device: {_PROBLEM}")
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)
