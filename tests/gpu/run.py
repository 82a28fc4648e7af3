"""tests/gpu as a plain script, for a device image without pytest (tools/gpu_check.sh):
runs every test function of tests/gpu/test_*.py with a minimal stand-in for the parts
of pytest they use (parametrize, skip, importorskip, raises, the tmp_path fixture). With pytest installed it
just runs pytest on tests/gpu.

    python tests/gpu/run.py        # exit status 0 when every test passed or skipped
"""
from __future__ import annotations

import importlib
import inspect
import itertools
import re
import sys
import tempfile
import traceback
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Skipped(Exception):
    pass


def _stub():
    """A module named pytest with what tests/gpu uses."""
    m = types.ModuleType("pytest")

    def skip(reason=""):
        raise Skipped(reason)

    def importorskip(name, reason=None):
        try:
            return importlib.import_module(name)
        except ImportError:
            raise Skipped(reason or f"no module {name}") from None

    class raises:
        def __init__(self, exc, match=None):
            self.exc, self.match = exc, match

        def __enter__(self):
            return self

        def __exit__(self, t, e, tb):
            if t is None:
                raise AssertionError(f"did not raise {self.exc}")
            if not issubclass(t, self.exc):
                return False
            if self.match and not re.search(self.match, str(e)):
                raise AssertionError(f"{str(e)!r} does not match {self.match!r}")
            return True

    class _Mark:
        def parametrize(self, names, values):
            def deco(f):
                f.__dict__.setdefault("_params", []).insert(0, (names, list(values)))
                return f
            return deco

        def skipif(self, cond, reason=""):
            def deco(f):
                if cond:
                    f._skip = reason
                return f
            return deco

        def __getattr__(self, name):
            return lambda *a, **k: (lambda f: f)
    m.skip, m.importorskip, m.raises, m.mark = skip, importorskip, raises, _Mark()
    m.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f))
    return m


def _calls(f):
    """(label, kwargs) of each parametrized case of test function `f`."""
    params = getattr(f, "_params", [])
    axes = []
    for names, values in params:
        names = [n.strip() for n in names.split(",")]
        axes.append([dict(zip(names, v if len(names) > 1 else (v,))) for v in values])
    for combo in itertools.product(*axes):
        kw = {}
        for d in combo:
            kw.update(d)
        yield ("[" + "-".join(str(v) for v in kw.values()) + "]" if kw else ""), kw


def main() -> int:
    try:
        import pytest
        return pytest.main(["-q", "-rs", str(HERE)])
    except ImportError:
        pass
    sys.modules["pytest"] = _stub()
    sys.path.insert(0, str(HERE.parent / "e2e"))
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parents[1]))
    conftest = importlib.import_module("conftest")
    problem = getattr(conftest, "_PROBLEM", None)
    passed = failed = skipped = 0
    for path in sorted(HERE.glob("test_*.py")):
        try:
            mod = importlib.import_module(path.stem)
        except Skipped as e:
            print(f"SKIP {path.name}: {e}")
            skipped += 1
            continue
        for name in [n for n in dir(mod) if n.startswith("test_")]:
            f = getattr(mod, name)
            for label, kw in _calls(f):
                test = f"{path.name}::{name}{label}"
                if problem is not None or getattr(f, "_skip", None):
                    print(f"SKIP {test}: {problem or f._skip}")
                    skipped += 1
                    continue
                try:
                    if "tmp_path" in inspect.signature(f).parameters:
                        with tempfile.TemporaryDirectory(prefix="strata-gpu-") as d:
                            f(tmp_path=Path(d), **kw)
                    else:
                        f(**kw)
                    print(f"PASS {test}")
                    passed += 1
                except Skipped as e:
                    print(f"SKIP {test}: {e}")
                    skipped += 1
                except Exception:
                    print(f"FAIL {test}")
                    traceback.print_exc()
                    failed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
