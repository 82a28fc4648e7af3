import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402


@pytest.fixture
def fresh_dynamo():
    """torch.compile(backend="strata") tests: Dynamo's caches and the backend's COUNTERS
    cleared before the test, the caches again after it."""
    import torch

    from strata.frontends.torch import dynamo
    torch._dynamo.reset()
    dynamo.COUNTERS.clear()
    yield
    torch._dynamo.reset()
