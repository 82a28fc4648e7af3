"""What Strata says on stderr while it works on something slow: a one-line notice per
slow step, redrawn with the seconds spent (and a bar where the length is known) when
stderr is a terminal.

    strata: building CPU kernels (first use, ~8 s)... done in 7.9 s
    strata: compiling model.onnx (taking a while)... done in 41.2 s
    strata: autotuning [##########..........] 12/40 sgemm 128x784x1024

    with progress.step("building CPU kernels (first use, ~8 s)", estimate=8.0):
        build()
    with progress.step("compiling model.onnx", after=LONG_COMPILE_S):   # only if slow
        compile()
    bar = progress.bar(40, "autotuning")           # tqdm where importable, else ours
    bar.show(12, "sgemm 128x784x1024"); bar.close()

[Note: when Strata speaks]
Only where someone may be waiting and nothing else says why: the kernels' first build
(~8 s, then cached on disk), autotuning, and a compile still running after
LONG_COMPILE_S seconds. By default it speaks when stderr is a terminal and is silent
otherwise (a log, a pipe, a test run stays clean); STRATA_PROGRESS=1 asks for the
notices anyway, as plain lines (what CI logs want), and STRATA_QUIET=1 silences them
all. `strata.compile(..., progress=True/False)` says the same for one compile (None:
the environment and the terminal decide), as do `strata run` / `strata compile
--quiet`; `settings()` scopes that choice, and every step inside it (the kernels' build,
autotuning) follows it. Autotuning, asked for explicitly and long, shows its bar (as
lines off a terminal) unless notices are turned off. A notice goes to stderr
only, never stdout, so a program's output stays its own.

On a terminal a step's line is redrawn in place (\\r) twice a second by a daemon thread
(the slow steps run in LLVM or NumPy, which release the GIL) with the seconds spent, and
with a bar against `estimate`; a step inside another (the kernels' build inside a long
compile) ends the outer line and draws its own. Elsewhere a step is a line when it
starts and a line when it ends. The bar of a step of known length (autotuning) is tqdm's
when tqdm is importable and stderr a terminal, else the same one-line bar as above;
neither tqdm nor rich is a dependency.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time

__all__ = ["enabled", "silenced", "settings", "step", "bar", "LONG_COMPILE_S"]

# A compile still running after this many seconds says so.
LONG_COMPILE_S = 5.0
_TICK_S = 0.5

_choice: contextvars.ContextVar = contextvars.ContextVar("strata_progress", default=None)
_lock = threading.RLock()
_active: list = []  # the steps drawn now, outermost first


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


def _stream():
    return sys.stderr


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def enabled(stream=None) -> bool:
    """Whether notices are shown (see [Note: when Strata speaks])."""
    choice = _choice.get()
    if choice is not None:
        return choice and not _env_flag("STRATA_QUIET")
    if _env_flag("STRATA_QUIET"):
        return False
    return _env_flag("STRATA_PROGRESS") or _is_tty(stream or _stream())


def silenced() -> bool:
    """Whether notices were turned off (STRATA_QUIET, `settings(False)`): what a step the
    caller asked for explicitly (autotuning) follows even off a terminal."""
    return _choice.get() is False or _env_flag("STRATA_QUIET")


@contextlib.contextmanager
def settings(progress: bool | None):
    """Within the block notices are on (True), off (False), or as the environment and
    the terminal say (None)."""
    token = _choice.set(None if progress is None else bool(progress))
    try:
        yield
    finally:
        _choice.reset(token)


def _write(stream, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):  # a closed or broken stderr: say nothing
        pass


class _Step:
    """One slow step (see `step`)."""

    __slots__ = ("message", "estimate", "after", "stream", "tty", "t0", "shown",
                 "line_open", "_stop", "_thread", "_enabled")

    def __init__(self, message: str, estimate: float | None, after: float):
        self.message = message
        self.estimate = estimate
        self.after = after
        self.stream = _stream()
        self.tty = _is_tty(self.stream)
        self._enabled = enabled(self.stream)
        self.t0 = time.perf_counter()
        self.shown = False       # the notice was given
        self.line_open = False   # (terminal) our line is the last one, unfinished
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        if not self._enabled:
            return self
        if self.after <= 0:
            self._show()
        if self.tty or self.after > 0:
            self._thread = threading.Thread(target=self._tick, name="strata-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def _text(self) -> str:
        spent = time.perf_counter() - self.t0
        text = f"strata: {self.message}..."
        if self.tty:
            if self.estimate:
                frac = min(spent / self.estimate, 0.99)
                filled = int(20 * frac)
                text += f" [{'#' * filled}{'.' * (20 - filled)}]"
            text += f" {spent:.0f} s"
        return text

    def _show(self):
        with _lock:
            if self.shown:
                return
            self.shown = True
            for outer in _active:  # end the line of a step this one is inside
                if outer.line_open:
                    _write(outer.stream, "\n")
                    outer.line_open = False
            _active.append(self)
            if self.tty:
                _write(self.stream, "\r" + self._text())
                self.line_open = True
            else:
                _write(self.stream, self._text() + "\n")

    def _tick(self):
        if self.after > 0 and self._stop.wait(self.after):
            return
        self._show()
        while self.tty and not self._stop.wait(_TICK_S):
            with _lock:
                if _active and _active[-1] is self:
                    _write(self.stream, "\r" + self._text() + "\x1b[K")
                    self.line_open = True

    def __exit__(self, exc_type, exc, tb):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if not self.shown:
            return False
        spent = time.perf_counter() - self.t0
        end = "done" if exc_type is None else "failed"
        with _lock:
            if self in _active:
                _active.remove(self)
            if self.tty:
                _write(self.stream, f"{chr(13) if self.line_open else ''}strata: "
                                    f"{self.message}... {end} in {spent:.1f} s\x1b[K\n")
            else:
                _write(self.stream, f"strata: {self.message}: {end} in {spent:.1f} s\n")
            self.line_open = False
        return False


def step(message: str, estimate: float | None = None, after: float = 0.0) -> _Step:
    """A context manager around a slow step: its notice when it starts (or, with
    `after`, only once it has run that many seconds) and its end (see [Note: when
    Strata speaks]); nothing when notices are off."""
    return _Step(message, estimate, after)


class _Bar:
    """A one-line bar: `strata: autotuning [#####.....]  12/40 <what>`, redrawn in
    place on a terminal; elsewhere a line each time `what` changes, and at the end."""

    __slots__ = ("total", "label", "out", "tty", "width", "last", "what")

    def __init__(self, total: int, label: str, out=None, width: int = 30):
        self.total = max(int(total), 1)
        self.label = label
        self.out = out or _stream()
        self.tty = _is_tty(self.out)
        self.width = width
        self.last = self.what = None

    def show(self, done: float, what: str = "") -> None:
        done = min(done, self.total)
        filled = int(self.width * done / self.total)
        line = (f"strata: {self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
                f"{int(done):>4}/{self.total} {what}")
        if line == self.last:
            return
        if self.tty:
            _write(self.out, "\r" + line[:119] + "\x1b[K")
        elif what != self.what:
            _write(self.out, line + "\n")
        self.last, self.what = line, what

    def close(self) -> None:
        if self.tty and self.last is not None:
            _write(self.out, "\n")


class _TqdmBar:
    """tqdm's bar behind _Bar's interface."""

    __slots__ = ("bar", "n")

    def __init__(self, tqdm, total: int, label: str, out):
        self.bar = tqdm(total=max(int(total), 1), desc=f"strata: {label}", file=out,
                        leave=True, dynamic_ncols=True)
        self.n = 0

    def show(self, done: float, what: str = "") -> None:
        done = int(min(done, self.bar.total))
        if what:
            self.bar.set_postfix_str(what, refresh=False)
        if done != self.n:
            self.bar.update(done - self.n)
            self.n = done
        else:
            self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


class _NoBar:
    __slots__ = ()

    def show(self, done: float, what: str = "") -> None:
        pass

    def close(self) -> None:
        pass


def bar(total: int, label: str, out=None, force: bool | None = None):
    """A progress bar of `total` steps (`show(done, what)`, `close()`): tqdm's on a
    terminal where tqdm is importable, else Strata's one line; a bar that shows nothing
    when notices are off (`force` True/False overrides that, for an explicit `out`)."""
    out = out or _stream()
    on = enabled(out) if force is None else force
    if not on:
        return _NoBar()
    if _is_tty(out):
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        if tqdm is not None:
            return _TqdmBar(tqdm, total, label, out)
    return _Bar(total, label, out)
