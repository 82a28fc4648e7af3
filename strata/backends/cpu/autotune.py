"""Autotuning of the kernels' tile words: `strata.compile(model, tune=True)`,
`strata compile --tune`.

For every distinct kernel call of a module (kernel, sizes, threads), a handful of tile
words around the cost model's choice (cost_model.neighbours: the choice, the kernels'
defaults, KC / MC halved and doubled, the other thread splits; for a call with dynamic
dims only the changes that stay good at other sizes) are timed on random data
with the loaded KernelLibrary on the model's thread count, and the fastest replaces the
model's choice in the call. A progress bar on stderr says how far it is (candidates
timed / all, the call being timed; strata/progress.py: tqdm's where importable on a
terminal, lines elsewhere, nothing with STRATA_QUIET=1 or progress=False).

[Note: the tuning cache]
Results are kept in a JSON file in the kernels' cache directory ($STRATA_CACHE_DIR,
default ~/.cache/strata; "off" disables it), one file per CPU: its name hashes the
host's CPU name and features, the kernels' ISA and their IR, so a changed kernel
library tunes again. Entries are keyed by kernel, sizes (a dynamic one as ?<the size
it was timed at>) and threads:

    {"format": 1, "cpu": "znver3", "isa": "avx2",
     "entries": {"strata_sgemm_f32 K=784 M=?128 N=1024 batch=1 t=2":
                 {"tile": 22799473113694408, "us": 212.4, "model_us": 230.1,
                  "default_us": 241.7}}}

A call whose key is there is not measured again. A file that cannot be read or parsed,
or entries of the wrong form, give a warning and are ignored (the file is rewritten
with what this run measures); writes go to a temporary file renamed over the old one,
merged with what other processes wrote meanwhile. JSON only (nothing is unpickled).

Timing: each candidate runs once to warm up, then the candidates run in turns (so a
machine getting busier slows all of them alike) until each has had its share of the
time budget (`tune_time` seconds per candidate, default $STRATA_TUNE_TIME or 0.03, at
least 3 runs, at most 50); a candidate's time is its fastest run, and the fastest
candidate wins if it beats the cost model's word by MARGIN. A dynamic dim is timed at
1 (the `hint` of [Note: tile words] in linalg_to_microkernels.py: a batch of one); a
call that never reaches the blocked driver there keeps the model's word.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
import warnings

import numpy as np

from .cost_model import gemm_problem, neighbours

__all__ = ["Tuner", "tune_calls", "cache_path", "DEFAULT_TIME"]

DEFAULT_TIME = 0.03
MIN_RUNS, MAX_RUNS = 3, 50
# A candidate replaces the cost model's word when it is this much faster (less than
# that is within the noise of a shared machine).
MARGIN = 0.03
_FORMAT = 1


def _default_time() -> float:
    try:
        t = float(os.environ.get("STRATA_TUNE_TIME", ""))
    except ValueError:
        return DEFAULT_TIME
    return t if t > 0 else DEFAULT_TIME


def cache_path(isa) -> str | None:
    """The tuning cache file of this CPU and kernel library (None: caching is off)."""
    from .kernels import _cache_dir, kernels_fingerprint
    d = _cache_dir()
    if not d:
        return None
    key = hashlib.sha256("\0".join([isa.cpu, isa.features, isa.name,
                                    kernels_fingerprint(isa)]).encode())
    return os.path.join(d, f"tune-{isa.name}-{key.hexdigest()[:16]}.json")


def call_key(kernel: str, shape: dict, threads: int, hint: dict | None = None) -> str:
    """The cache key of a call: kernel, sizes (a dynamic one as ?<the size timed>),
    threads."""
    hint = hint or {}
    sizes = " ".join(f"{k}={v}" if v is not None else f"{k}=?{hint.get(k, '')}"
                     for k, v in sorted(shape.items()))
    return f"{kernel} {sizes} t={threads}"


def _valid_entry(e) -> bool:
    return isinstance(e, dict) and type(e.get("tile")) is int and 0 <= e["tile"] < 1 << 63


def _read(path: str) -> dict:
    """The entries of the cache file `path` ({} if there is none; a warning if it is
    unreadable or malformed)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, UnicodeDecodeError) as e:
        warnings.warn(f"strata: the tuning cache {path} is unreadable ({e}); ignoring it "
                      "(it is rewritten)", RuntimeWarning, stacklevel=3)
        return {}
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict) or data.get("format") != _FORMAT:
        warnings.warn(f"strata: the tuning cache {path} is not a Strata tuning cache of "
                      f"format {_FORMAT}; ignoring it (it is rewritten)", RuntimeWarning,
                      stacklevel=3)
        return {}
    good = {k: e for k, e in entries.items() if isinstance(k, str) and _valid_entry(e)}
    if len(good) != len(entries):
        warnings.warn(f"strata: {len(entries) - len(good)} malformed entries of the tuning "
                      f"cache {path} ignored", RuntimeWarning, stacklevel=3)
    return good


def _write(path: str, isa, new: dict) -> None:
    """Merge `new` entries into the cache file `path` (atomically; errors ignored)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            entries = _read(path)      # what other processes wrote meanwhile
        entries.update(new)
        data = {"format": _FORMAT, "cpu": isa.cpu, "isa": isa.name, "entries": entries}
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError as e:
        warnings.warn(f"strata: could not write the tuning cache {path} ({e})",
                      RuntimeWarning, stacklevel=3)


# ---------------------------------------------------------------- running a call


def _describe(kernel: str, shape: dict) -> str:
    g = shape.get
    name = kernel.removeprefix("strata_").removesuffix("_f32")
    if kernel.startswith("strata_conv2d"):
        return (f"{name} {g('C')}x{g('H')}x{g('W')} -> {g('F')} k{g('KH')}x{g('KW')} "
                f"s{g('sh')}")
    b = f"{g('batch')} x " if g("batch", 1) != 1 else ""
    return f"{name} {b}{g('M')}x{g('K')}x{g('N')}"


class _Call:
    """A kernel call on random data: `run(word)` calls the kernel with tile word `word`."""

    def __init__(self, lib, kernel: str, s: dict):
        rng = np.random.default_rng(0)
        self.keep = []

        def buf(*shape):
            a = rng.standard_normal(shape).astype(np.float32)
            self.keep.append(a)
            return a.ctypes.data
        fn = getattr(lib, kernel.removeprefix("strata_").removesuffix("_f32"))
        if kernel.startswith("strata_conv2d"):
            N, C, H, W, F = (s[k] for k in ("N", "C", "H", "W", "F"))
            KH, KW, OH, OW = (s[k] for k in ("KH", "KW", "OH", "OW"))
            win = [s[k] for k in ("sh", "sw", "dh", "dw")]
            pad = [s.get(k) or 0 for k in ("pt", "pl")]     # NCHW's padding
            out = buf(N, F, OH, OW)
            if "_grouped" in kernel:      # C and F per group, G groups
                G = s["G"]
                rows = -(-F // lib.isa.mr) * lib.isa.mr if "packed" in kernel else F
                out = buf(N, G * F, OH, OW)
                args = [N, G, C, H, W, F, KH, KW, OH, OW, *win, *pad, buf(N, G * C, H, W),
                        G * C * H * W, C * H * W, H * W, W, buf(G * rows, C, KH, KW), out,
                        G * F * OH * OW, 0]
                if kernel.endswith("_epi_f32"):
                    args += [buf(G * F), 6]
            elif kernel.startswith("strata_conv2d_nchw"):
                # the packed filter: MR-row panels, F rounded up to whole ones
                rows = -(-F // lib.isa.mr) * lib.isa.mr if "packed" in kernel else F
                args = [N, C, H, W, F, KH, KW, OH, OW, *win, *pad, buf(N, C, H, W), C * H * W,
                        H * W, W, buf(rows, C, KH, KW), out, F * OH * OW, 0]
                if kernel.endswith(("_epi_f32", "_pro_f32")):     # bias per filter and ReLU
                    args += [buf(F), 6]
                if kernel.endswith("_pro_f32"):     # the input prologue: scale, shift, ReLU
                    args += [buf(C), buf(C), 1]
            else:
                args = [N, H, W, C, F, KH, KW, OH, OW, *win, buf(N, H, W, C), H * W * C,
                        W * C, C, buf(F * KH * KW * C), int(s.get("ftrans", 0)), out,
                        OH * OW * F, 0]
        else:
            b, M, N, K = (s[k] for k in ("batch", "M", "N", "K"))
            nt = "_nt" in kernel
            if kernel.startswith("strata_sgemm_packed"):
                from .kernels import pack_b
                packed = pack_b(rng.standard_normal((K, N)).astype(np.float32), lib.isa)
                self.keep.append(packed)
                args = [M, N, K, buf(M, K), K, packed.ctypes.data, buf(M, N), N, 0]
                if kernel == "strata_sgemm_packed_epi_f32":     # bias and ReLU
                    args += [buf(N), 3]
            elif "batched" in kernel:
                args = [b, M, N, K, buf(b, M, K), K, M * K, buf(b, K, N), K if nt else N,
                        K * N, buf(b, M, N), N, M * N, 0]
            else:
                args = [M, N, K, buf(M, K), K, buf(K, N), K if nt else N, buf(M, N), N, 0]
        self.fn, self.args = fn, args

    def run(self, word: int) -> float:
        t = time.perf_counter()
        self.fn(*self.args, word)
        return time.perf_counter() - t


# ---------------------------------------------------------------- the tuner


class Tuner:
    """Chooses tile words by measurement, with the on-disk cache (see the module doc).
    `stats`: calls seen, shapes measured, shapes read from the cache, candidates timed,
    seconds spent."""

    def __init__(self, threads: int = 0, isa=None, caches=None, tune_time: float = 0.0,
                 progress=None, out=None):
        from .cost_model import host_caches
        from .kernels import default_threads, host_isa
        self.isa = isa or host_isa()
        self.caches = caches or host_caches()
        self.threads = int(threads) or default_threads()
        self.tune_time = float(tune_time) or _default_time()
        self.progress = progress
        self.out = out
        self.path = cache_path(self.isa)
        self.stats = {"calls": 0, "measured": 0, "cached": 0, "candidates": 0,
                      "seconds": 0.0}

    def tune(self, calls: list) -> dict:
        """{key: word} for the calls [(kernel, shape, hint, model word)], measuring what
        the cache does not have."""
        t0 = time.perf_counter()
        entries = _read(self.path) if self.path else {}
        todo, out = {}, {}
        for kernel, shape, hint, word in calls:
            self.stats["calls"] += 1
            key = call_key(kernel, shape, self.threads, hint)
            if key in out or key in todo:
                continue
            hit = entries.get(key)
            if hit is not None:
                out[key] = hit["tile"]
                self.stats["cached"] += 1
                continue
            sizes = dict(hint)
            if gemm_problem(kernel, sizes, self.threads, self.isa) is None:
                out[key] = word                 # the tile word does not matter there
                continue
            # dynamic dims the products depend on (a convolution's images are one
            # product each: their count does not matter)
            dynamic = any(v is None for k, v in shape.items()
                          if not (k == "N" and kernel.startswith("strata_conv2d")))
            cands = neighbours(word, kernel, sizes, self.threads, self.isa, dynamic)
            todo[key] = (kernel, sizes, cands)
        if todo:
            new = self._measure(todo)
            out.update({k: e["tile"] for k, e in new.items()})
            if self.path:
                _write(self.path, self.isa, new)
        self.stats["seconds"] += time.perf_counter() - t0
        return out

    def _measure(self, todo: dict) -> dict:
        from .kernels import load_kernels
        lib = load_kernels(self.isa)
        total = sum(len(c) for _, _, c in todo.values())
        from ... import progress
        force = not progress.silenced() if self.progress is None else bool(self.progress)
        bar = progress.bar(total, "tuning", self.out, force=force) if force else None
        done, t0 = 0, time.perf_counter()
        new = {}
        prev = lib.threads_enter(self.threads)
        try:
            for key, (kernel, sizes, cands) in todo.items():
                what = _describe(kernel, sizes)
                if bar:
                    bar.show(done, what)

                def step(frac, what=what, base=done, n=len(cands)):
                    if bar:
                        bar.show(base + n * frac, what)
                times = self._time(_Call(lib, kernel, sizes), cands, step)
                best = min(range(len(cands)), key=lambda i: times[i])
                if times[best] * (1 + MARGIN) > times[0]:
                    best = 0          # not clearly faster than the model's word
                new[key] = {"tile": cands[best], "us": round(times[best] * 1e6, 2),
                            "model_us": round(times[0] * 1e6, 2)}
                if 0 in cands:
                    new[key]["default_us"] = round(times[cands.index(0)] * 1e6, 2)
                done += len(cands)
                self.stats["measured"] += 1
                self.stats["candidates"] += len(cands)
            if bar:
                bar.show(total, f"done: {len(todo)} calls in "
                                f"{time.perf_counter() - t0:.1f} s")
        finally:
            lib.threads_exit(prev)
            if bar:
                bar.close()
        return new

    def _time(self, call: _Call, cands: list, step) -> list:
        """The fastest run of each candidate, timed in turns (see the module doc)."""
        best = [call.run(w) for w in cands]          # warm-up (and a first time)
        one = max(min(best), 1e-7)
        runs = int(min(MAX_RUNS, max(MIN_RUNS, self.tune_time / one)))
        for r in range(runs):
            for i, w in enumerate(cands):
                best[i] = min(best[i], call.run(w))
            step((r + 1) / runs)
        return best


def tune_calls(calls: list, tuner: Tuner) -> int:
    """Give the recorded kernel calls [(call op, kernel, shape, hint, model word)] (from
    strata-linalg-to-microkernels' `on_call`) the tuner's words; returns how many
    changed."""
    if not calls:
        return 0
    words = tuner.tune([(k, s, h, w) for _, k, s, h, w in calls])
    from ...ir import attributes as A
    from ...conversion.scalar_builders import op_class
    changed = 0
    for op, kernel, shape, hint, word in calls:
        new = words.get(call_key(kernel, shape, tuner.threads, hint), word)
        if new == word:
            continue
        c = op_class("arith.constant").create([], [A.i64], {"value": A.IntegerAttr(
            new, A.i64)}, None, (), 0, op.loc)
        op.parent.insert_before(op, c)
        op.set_operand(len(op.operands) - 1, c.results[0])
        changed += 1
    return changed


def run_tuned(passes, module, instrumentation=None, timings=None,
              verify_each: bool = False, threads: int = 0, tune_time: float = 0.0,
              progress=None) -> Tuner:
    """Run `passes` (pipeline entries, strata-linalg-to-microkernels among them) on
    `module`, then give the kernel calls the autotuner's words (the CPU target's `tune`
    option). Phase times go into `timings` ("microkernels", "tune"), with the number of
    calls measured and read from the cache ("tune_measured", "tune_cached")."""
    from ...compiler import build_pipeline
    from ...conversion.linalg_to_microkernels import LinalgToMicrokernels
    pm = build_pipeline(",".join(passes))
    pm.verify_each = verify_each
    (p,) = [x for x in pm.passes if isinstance(x, LinalgToMicrokernels)]
    calls = []
    p.on_call = lambda *call: calls.append(call)
    t0 = time.perf_counter()
    pm.run(module, instrumentation)
    t1 = time.perf_counter()
    tuner = Tuner(threads, tune_time=tune_time, progress=progress)
    tune_calls(calls, tuner)
    if timings is not None:
        timings["microkernels"] = t1 - t0
        timings["tune"] = time.perf_counter() - t1
        timings["tune_measured"] = tuner.stats["measured"]
        timings["tune_cached"] = tuner.stats["cached"]
    note = getattr(instrumentation, "note", None)
    if note is not None:
        note("strata-autotune", module)
    return tuner
