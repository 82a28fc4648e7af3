"""The notices of slow steps on stderr (strata/progress.py, [Note: when Strata speaks]):
on a terminal by default, silent elsewhere unless STRATA_PROGRESS=1 or progress=True,
never with STRATA_QUIET=1 or progress=False; the kernels' first build, autotuning and a
compile that takes long say what they are doing."""
from __future__ import annotations

import io
import time

import pytest

from strata import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def env(monkeypatch):
    monkeypatch.delenv("STRATA_QUIET", raising=False)
    monkeypatch.delenv("STRATA_PROGRESS", raising=False)
    return monkeypatch


@pytest.fixture
def terminal(env):
    out = Terminal()
    env.setattr(progress, "_stream", lambda: out)
    env.setattr(progress, "_TICK_S", 0.02)
    return out


def test_when_notices_are_shown(env):
    pipe, tty = io.StringIO(), Terminal()
    assert not progress.enabled(pipe) and progress.enabled(tty)
    env.setenv("STRATA_PROGRESS", "1")
    assert progress.enabled(pipe)
    env.setenv("STRATA_QUIET", "1")
    assert not progress.enabled(pipe) and not progress.enabled(tty)
    with progress.settings(True):
        assert not progress.enabled(tty) and progress.silenced()  # quiet wins
    env.delenv("STRATA_QUIET")
    env.delenv("STRATA_PROGRESS")
    with progress.settings(True):
        assert progress.enabled(pipe) and not progress.silenced()
        with progress.settings(False):
            assert not progress.enabled(tty) and progress.silenced()
        with progress.settings(None):
            assert not progress.enabled(pipe) and progress.enabled(tty)
    env.setenv("STRATA_QUIET", "0")
    assert progress.enabled(tty) and not progress.silenced()


def test_a_step_off_a_terminal_is_silent_unless_asked(env, capsys):
    with progress.step("building things"):
        pass
    assert capsys.readouterr().err == ""
    env.setenv("STRATA_PROGRESS", "1")
    with progress.step("building things", estimate=8.0):
        pass
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "strata: building things..."
    assert lines[1].startswith("strata: building things: done in ")
    with pytest.raises(KeyError):
        with progress.step("failing"):
            raise KeyError("x")
    assert "strata: failing: failed in" in capsys.readouterr().err


def test_a_delayed_step_speaks_only_when_slow(env, capsys):
    env.setenv("STRATA_PROGRESS", "1")
    with progress.step("compiling fast", after=5.0):
        pass
    with progress.step("compiling slowly", after=0.05):
        time.sleep(0.3)
    err = capsys.readouterr().err
    assert "fast" not in err
    assert err.splitlines()[0] == "strata: compiling slowly..."
    assert "strata: compiling slowly: done in " in err


def test_a_step_on_a_terminal_redraws_its_line(terminal):
    with progress.step("building CPU kernels (first use, ~8 s)", estimate=0.1):
        time.sleep(0.25)
    text = terminal.getvalue()
    frames = text.split("\r")
    assert frames[1].startswith("strata: building CPU kernels (first use, ~8 s)... [")
    assert any("[##" in f for f in frames), frames   # the bar fills against the estimate
    assert frames[-1].startswith("strata: building CPU kernels (first use, ~8 s)... done in")
    assert text.endswith("\n") and text.count("\n") == 1


def test_a_step_inside_another_ends_its_line(terminal):
    with progress.step("compiling m"):
        time.sleep(0.05)
        with progress.step("building CPU kernels"):
            time.sleep(0.05)
        time.sleep(0.05)
    lines = terminal.getvalue().split("\n")
    assert lines[0].split("\r")[-1].startswith("strata: compiling m...")
    assert lines[1].split("\r")[-1].startswith("strata: building CPU kernels... done in")
    assert lines[2].split("\r")[-1].startswith("strata: compiling m... done in")
    assert lines[3] == ""


def test_quiet_silences_a_terminal(terminal, env):
    env.setenv("STRATA_QUIET", "1")
    with progress.step("x"):
        time.sleep(0.05)
    progress.bar(3, "tuning").show(1, "y")
    assert terminal.getvalue() == ""


def test_a_bar_on_a_terminal_is_tqdm_where_importable(terminal):
    tqdm = pytest.importorskip("tqdm")
    b = progress.bar(4, "tuning")
    assert isinstance(b, progress._TqdmBar) and isinstance(b.bar, tqdm.tqdm)
    b.show(2, "sgemm 8x8x8")
    b.close()
    assert "strata: tuning" in terminal.getvalue() and "2/4" in terminal.getvalue()


def test_the_kernels_first_build_says_so(env, capsys):
    from strata.backends.cpu import kernels

    class Machine:
        def emit_object(self, mod):
            return b"object"
    env.setenv("STRATA_CACHE_DIR", "off")
    env.setattr(kernels, "_optimized", lambda isa: (None, Machine()))
    env.setenv("STRATA_PROGRESS", "1")
    assert kernels.kernel_object.__wrapped__(kernels.host_isa()) == b"object"
    err = capsys.readouterr().err
    assert "strata: building CPU kernels (first use, ~8 s)..." in err
    assert "strata: building CPU kernels (first use, ~8 s): done in" in err


def test_a_long_compile_says_so(env, capsys):
    onnx = pytest.importorskip("onnx")
    import strata
    from onnx import TensorProto as TP
    from onnx import helper as h
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "tiny",
                     [h.make_tensor_value_info("x", TP.FLOAT, [2])],
                     [h.make_tensor_value_info("y", TP.FLOAT, [2])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    env.setattr(progress, "LONG_COMPILE_S", 0.0)  # (every compile is long)
    strata.compile(m, target="interpret", progress=True)
    err = capsys.readouterr().err
    assert "strata: compiling model 'tiny'..." in err
    assert "strata: compiling model 'tiny': done in" in err
    env.setenv("STRATA_PROGRESS", "1")
    strata.compile(m, target="interpret", progress=False)
    strata.compile(m, target="interpret")
    env.setattr(progress, "LONG_COMPILE_S", 5.0)
    strata.compile(m, target="interpret")  # fast: silent below LONG_COMPILE_S
    err = capsys.readouterr().err
    assert err.count("strata: compiling") == 2  # (progress=False said nothing)


def test_the_commands_say_so_unless_quiet(env, capsys, tmp_path):
    """`strata run` and `strata compile` speak for a long compile (STRATA_PROGRESS=1
    off a terminal) and say nothing with --quiet."""
    onnx = pytest.importorskip("onnx")
    import numpy as np
    from onnx import TensorProto as TP
    from onnx import helper as h
    from strata.tools.cli import main
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "tiny",
                     [h.make_tensor_value_info("x", TP.FLOAT, [2])],
                     [h.make_tensor_value_info("y", TP.FLOAT, [2])])
    path = tmp_path / "tiny.onnx"
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), path)
    np.save(tmp_path / "x.npy", np.array([-1, 2], np.float32))
    env.setattr(progress, "LONG_COMPILE_S", 0.0)
    env.setenv("STRATA_PROGRESS", "1")
    run = ["run", str(path), "--target", "interpret", "--input", f"x={tmp_path / 'x.npy'}"]
    emit = ["compile", str(path), "-o", str(tmp_path / "tiny.mlir"), "--emit", "mlir"]
    for argv in (run, emit):
        assert main(argv) == 0
        assert "strata: compiling tiny.onnx..." in capsys.readouterr().err
        assert main(argv + ["--quiet"]) == 0
        assert "strata:" not in capsys.readouterr().err
