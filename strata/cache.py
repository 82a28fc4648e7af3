"""Strata's on-disk cache: where it lives, whether it is on, and the compiled models in it.

    $STRATA_CACHE_DIR, else $XDG_CACHE_HOME/strata, else ~/.cache/strata
        sgemm-<isa>-<key>.o   the CPU kernels, built once per machine (cpu/kernels.py)
        tune-<cpu>.json       kernels' tile sizes measured by autotuning (cpu/autotune.py)
        models/<key>.smc      compiled models (this module; written by a target: cpu)
        stamps/<digest>       content digests of files, found by their size and mtime

    cache_dir()               the directory, or None ($STRATA_CACHE_DIR=off)
    models_enabled()          whether strata.compile keeps compiled models ($STRATA_CACHE)
    write_entry(key, manifest, blobs) / read_entry(key) -> (manifest, blobs) or None
    write_entry_later(key, manifest, blobs) / flush()    the same, on a thread
    clear() / usage() / prune(max_bytes)

This module owns the directory contract: every part that keeps files across processes
asks `cache_dir()` (one place reads the environment). It imports nothing heavy (json,
hashlib and os; NumPy only to check and read entries).

[Note: the compiled-model cache]
`strata.compile(model)` of a model compiled before (in any process) loads the native code
instead of compiling it again. The key (compiler.py, `_cache_key`) hashes:
- the model: for an .onnx file its path and bytes (the digest is remembered by the
  file's size and mtime, under stamps/: hashing a 90 MB file took 0.15 s) and those of
  any external data file; for an onnx.ModelProto its serialized bytes; for an .mlir
  file, a Strata module or a torch model the imported module's text with locations
  (they name the ONNX node in run-time errors), its resource blobs by their place and
  their bytes;
- how it was compiled: the entry function, a replaced pipeline (a torch model's
  example inputs and dynamic shapes are in its imported module's types);
- the target and its options (`Target.cache_token()`: for cpu the options, the host CPU
  name and features, the kernels' ISA, the default thread count, llvmlite and LLVM
  versions and the environment variables that change code generation);
- Strata itself: its version and a digest of the text of every .py file of the package
  (`source_fingerprint`), so that editing the compiler invalidates every entry.
An entry is one file, models/<key>.smc, written to a temporary name and renamed into
place (atomic: a reader sees a whole entry or none; two processes writing the same entry
both write whole files and the last rename wins). Its layout, no pickle, nothing eval'd:

    b"STRATA-CACHE\\n" | manifest length (8 bytes LE) | JSON manifest | blobs, 64-aligned

The manifest holds the target's description of what it stored (for cpu: the entry
point's signature, the weights' dtypes, shapes and symbols, the caller's interface) and
each blob's offset, size and checksum. Reading checks the magic, the key, the size of
the file and every checksum; an entry that fails (truncated, corrupted, of another
format version) is removed and the model compiled again, silently. The checksum
(`checksum`) is a digest of the 64-bit wrapping sums of each 64 KiB chunk: any bit flip,
truncation or zeroed page changes it, and it runs at memory speed (zlib's crc32 took
0.1 s on a 90 MB entry here, a third of the time a cached load may take); it is not a
defence against a crafted file (a cache entry is trusted like the code of the package).
strata.compile writes an entry on a thread of its own (`write_entry_later`: BERT's
435 MB took 0.7 s of CPU), so the callable comes back first; the thread is not a daemon
(the interpreter waits for it at exit) and a read of the cache waits for the writes
pending in this process (`flush`).
The cache is capped ($STRATA_CACHE_MAX_MB, default 4096): after a write the least
recently used entries go (a hit refreshes an entry's mtime); `strata cache clear`
empties it, `strata cache info` shows it. Off: $STRATA_CACHE=0 (or off, false, no),
strata.compile(..., cache=False), `strata run/compile --no-cache`; $STRATA_CACHE_DIR=off
turns off every cache (kernels and tuning results too).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os

__all__ = ["cache_dir", "models_enabled", "models_dir", "source_fingerprint",
           "file_digest", "digest_bytes", "remembered", "checksum", "write_entry", "write_entry_later",
           "flush", "read_entry",
           "remove_entry", "clear", "usage", "prune", "entry_path"]

MAGIC = b"STRATA-CACHE\n"
# The entry format's version, part of every key (a reader of another layout never sees it).
FORMAT = 1
ALIGN = 64
_CHUNK = 1 << 16
DEFAULT_MAX_MB = 4096


def cache_dir() -> str | None:
    """The directory of Strata's caches: $STRATA_CACHE_DIR, else $XDG_CACHE_HOME/strata,
    else ~/.cache/strata; None when $STRATA_CACHE_DIR is "0" or "off" (no cache at
    all). Not created here: writers create it."""
    d = os.environ.get("STRATA_CACHE_DIR")
    if d in ("0", "off"):
        return None
    if not d:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = xdg if xdg and os.path.isabs(xdg) else \
            os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "strata")
    return d


def models_enabled(flag: bool | None = None) -> bool:
    """Whether compiled models are cached: `flag` (strata.compile's `cache`) when given,
    else not when $STRATA_CACHE is 0/off/false/no; never without a cache_dir()."""
    if flag is False or cache_dir() is None:
        return False
    if flag is None:
        return os.environ.get("STRATA_CACHE", "").strip().lower() not in \
            ("0", "off", "false", "no")
    return True


def models_dir() -> str | None:
    d = cache_dir()
    return None if d is None else os.path.join(d, "models")


def entry_path(key: str) -> str | None:
    d = models_dir()
    return None if d is None else os.path.join(d, f"{key}.smc")


# ---------------------------------------------------------------- digests


def _write_atomic(path: str, chunks) -> bool:
    """Write `chunks` (bytes-like) to `path` through a temporary file and a rename; False
    when it cannot be written (a read-only home: no cache, no harm)."""
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            for c in chunks:
                f.write(c)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def _stamp(paths) -> str:
    """A digest of the paths' names, sizes and modification times."""
    h = hashlib.sha256()
    for p in paths:
        st = os.stat(p)
        h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0".encode())
    return h.hexdigest()


def remembered(paths, compute):
    """compute() (a JSON value made from the contents of files `paths`: a digest),
    remembered in the cache under the paths' sizes and mtimes, so that files that did
    not change are not read again."""
    stamp = _stamp(paths)
    d = cache_dir()
    where = os.path.join(d, "stamps", stamp[:40]) if d else None
    if where:
        try:
            with open(where, encoding="utf-8") as f:
                return json.load(f)["value"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    value = compute()
    if where:
        _write_atomic(where, [json.dumps({"value": value}).encode()])
    return value


_SLICE = 32 << 20


def digest_bytes(buf) -> str:
    """sha256 of `buf`, or for more than 64 MB the sha256 of its 32 MB slices' sha256s,
    computed on a thread per CPU (hashlib lets go of the GIL: BERT-base's 435 MB took
    1 s on one core)."""
    view = memoryview(buf).cast("B")
    if view.nbytes <= 2 * _SLICE:
        return hashlib.sha256(view).hexdigest()
    from concurrent.futures import ThreadPoolExecutor
    slices = [view[i:i + _SLICE] for i in range(0, view.nbytes, _SLICE)]
    with ThreadPoolExecutor(max(1, min(os.cpu_count() or 1, 8))) as pool:
        parts = list(pool.map(lambda s: hashlib.sha256(s).digest(), slices))
    return hashlib.sha256(b"tree:" + view.nbytes.to_bytes(8, "little") +
                          b"".join(parts)).hexdigest()


def _hash_files(paths, root=None) -> str:
    h = hashlib.sha256()
    for p in paths:
        name = os.path.relpath(p, root) if root else p
        h.update(name.encode() + b"\0")
        with open(p, "rb") as f:
            while True:
                b = f.read(1 << 22)
                if not b:
                    break
                h.update(b)
        h.update(b"\0")
    return h.hexdigest()


def file_digest(path: str) -> str:
    """sha256 of the file's contents (remembered by its size and mtime)."""
    path = os.path.realpath(path)
    return str(remembered([path], lambda: _hash_files([path])))


@functools.lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """A digest of Strata's version and the text of every .py file of the package: an
    edit to the compiler changes it. Listing and stat'ing the files is all a process
    pays once the digest is remembered."""
    from . import __version__
    root = os.path.dirname(os.path.abspath(__file__))
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(n for n in dirnames if n != "__pycache__")
        paths.extend(os.path.join(dirpath, n) for n in sorted(filenames)
                     if n.endswith(".py"))
    try:
        digest = str(remembered(paths, lambda: _hash_files(paths, root)))
    except OSError:   # not installed as files (a zip): the version alone
        digest = "unreadable"
    return f"{__version__}:{digest}"


def checksum(buf) -> str:
    """A checksum of `buf` (bytes-like): see [Note: the compiled-model cache]."""
    import numpy as np
    a = np.frombuffer(buf, np.uint8)
    n = len(a)
    whole = n // _CHUNK * _CHUNK
    h = hashlib.sha256(n.to_bytes(8, "little"))
    if whole:
        sums = a[:whole].view("<u8").reshape(-1, _CHUNK // 8).sum(axis=1, dtype=np.uint64)
        h.update(sums.tobytes())
    h.update(a[whole:].tobytes())
    return h.hexdigest()[:32]


# ---------------------------------------------------------------- entries


def _pad(n: int) -> int:
    return -n % ALIGN


def write_entry(key: str, manifest: dict, blobs: dict) -> bool:
    """Store `manifest` (JSON-able) and `blobs` (name -> bytes-like) as the entry `key`,
    atomically; then keep the cache under its cap. False when nothing was written."""
    path = entry_path(key)
    if path is None:
        return False
    views = {name: memoryview(b).cast("B") for name, b in blobs.items()}
    table, offset = [], 0
    for name, v in views.items():
        table.append({"name": name, "offset": offset, "size": v.nbytes,
                      "checksum": checksum(v)})
        offset += v.nbytes + _pad(v.nbytes)
    head = json.dumps({"format": FORMAT, "key": key, "blobs": table, "entry": manifest},
                      separators=(",", ":")).encode()
    start = len(MAGIC) + 8 + len(head)
    head_pad = _pad(start)

    def chunks():
        yield MAGIC
        yield len(head).to_bytes(8, "little")
        yield head
        yield b"\0" * head_pad
        for v in views.values():
            yield v
            yield b"\0" * _pad(v.nbytes)
    ok = _write_atomic(path, chunks())
    if ok:
        prune()
    return ok


_PENDING: list = []     # writer threads of this process not yet joined


def write_entry_later(key: str, manifest: dict, blobs: dict) -> None:
    """write_entry on a thread of its own (the blobs must not change meanwhile)."""
    import threading
    t = threading.Thread(target=write_entry, args=(key, manifest, blobs),
                         name="strata-cache-write")
    t.start()
    _PENDING.append(t)


def flush() -> None:
    """Wait for the entries this process is writing (write_entry_later)."""
    while _PENDING:
        _PENDING.pop().join()


def read_entry(key: str):
    """(manifest, {blob name: read-only uint8 NumPy array, 64-byte aligned}) of the entry
    `key`, or None if there is none or it is not whole (then it is removed). The blobs
    map the file (no copy: pages shared with the OS's file cache); an entry is never
    changed in place (writes rename a new file over it), so the mapping stays valid."""
    path = entry_path(key)
    if path is None:
        return None
    flush()
    try:
        f = open(path, "rb")
    except OSError:
        return None
    import mmap

    import numpy as np
    with f:
        try:
            size = os.fstat(f.fileno()).st_size
            if f.read(len(MAGIC)) != MAGIC:
                raise ValueError("magic")
            n = int.from_bytes(f.read(8), "little")
            if n <= 0 or n > size:
                raise ValueError("manifest size")
            head = json.loads(f.read(n).decode())
            if head.get("format") != FORMAT or head.get("key") != key:
                raise ValueError("format or key")
            start = len(MAGIC) + 8 + n
            start += _pad(start)
            table = head["blobs"]
            end = max((b["offset"] + b["size"] for b in table), default=0)
            if size < start + end:
                raise ValueError("truncated")
            data = np.frombuffer(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ),
                                 np.uint8) if size else np.empty(0, np.uint8)
            blobs = {}
            for b in table:
                lo = start + int(b["offset"])
                v = data[lo:lo + int(b["size"])]
                if checksum(v) != b["checksum"]:
                    raise ValueError(f"checksum of {b['name']}")
                blobs[str(b["name"])] = v
            manifest = head["entry"]
        except (ValueError, KeyError, TypeError, OSError, UnicodeDecodeError):
            _remove(path)
            return None
    try:
        os.utime(path)    # recently used (see prune)
    except OSError:
        pass
    return manifest, blobs


def remove_entry(key: str) -> None:
    """Remove the entry `key` (one that did not load)."""
    path = entry_path(key)
    if path:
        _remove(path)


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _entries():
    """[(mtime, size, path)] of the cached models."""
    d = models_dir()
    out = []
    try:
        names = os.listdir(d) if d else []
    except OSError:
        return out
    for n in names:
        p = os.path.join(d, n)
        try:
            st = os.stat(p)
        except OSError:
            continue
        out.append((st.st_mtime, st.st_size, p))
    return out


def usage() -> tuple[int, int]:
    """(entries, bytes) of the compiled-model cache."""
    flush()
    es = [e for e in _entries() if e[2].endswith(".smc")]
    return len(es), sum(s for _, s, _ in es)


def max_bytes() -> int:
    try:
        return int(float(os.environ.get("STRATA_CACHE_MAX_MB", DEFAULT_MAX_MB)) * (1 << 20))
    except ValueError:
        return DEFAULT_MAX_MB << 20


def prune(limit: int | None = None) -> int:
    """Remove the least recently used compiled models until they take at most `limit`
    bytes (default $STRATA_CACHE_MAX_MB); leftover temporary files of dead writers older
    than an hour go too. Returns the entries removed."""
    import time
    limit = max_bytes() if limit is None else limit
    es = sorted(_entries())
    now = time.time()
    removed = 0
    for e in [e for e in es if e[2].endswith(".tmp")]:
        if now - e[0] > 3600:
            _remove(e[2])
    es = [e for e in es if e[2].endswith(".smc")]
    total = sum(s for _, s, _ in es)
    for _, s, p in es:
        if total <= limit:
            break
        _remove(p)
        total -= s
        removed += 1
    return removed


def clear() -> int:
    """Remove every compiled model (and the remembered file digests); returns the number
    of models removed. The CPU kernels and tuning results stay."""
    flush()
    n = 0
    for _, _, p in _entries():
        if p.endswith(".smc"):
            n += 1
        _remove(p)
    d = cache_dir()
    if d:
        stamps = os.path.join(d, "stamps")
        try:
            for name in os.listdir(stamps):
                _remove(os.path.join(stamps, name))
        except OSError:
            pass
    return n
