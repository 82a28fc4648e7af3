"""A large LLVM module compiled in parts by threads and linked in one MCJIT engine
([Note: parallel code generation], strata/backends/cpu/jit.py): the same results as in
one piece, globals defined once, local symbols reached across parts, errors of a part
reported, the objects loaded again, no process forked, and a caller's own llvmlite work
on another thread meanwhile unharmed."""
from __future__ import annotations

import ctypes
import threading

import pytest

pytest.importorskip("llvmlite.binding")
from strata.backends.cpu import jit as J  # noqa: E402
from strata.backends.cpu.jit import JitModule, LLVMError  # noqa: E402

N = 160


def module_ir(n=N, bad=None) -> str:
    """@main() = sum over i of f_i(i), where f_i loops over a private constant table,
    reads the mutable global @scale (set by @set_scale) and calls the internal @twice;
    `bad`: the index of a function given an undefined value."""
    out = ['@table = private unnamed_addr constant [4 x i64] [i64 1, i64 2, i64 3, i64 4]',
           '@scale = global i64 0',
           'define internal i64 @twice(i64 %x) noinline {\n  %r = mul i64 %x, 2\n'
           '  ret i64 %r\n}',
           'define void @set_scale(i64 %s) noinline {\n  store i64 %s, ptr @scale\n'
           '  ret void\n}']
    for i in range(n):
        v = "%undefined" if i == bad else "%acc"
        out.append(f"""define i64 @f{i}(i64 %n) noinline {{
entry:
  br label %loop
loop:
  %k = phi i64 [0, %entry], [%k1, %loop]
  %acc = phi i64 [{i}, %entry], [%acc2, %loop]
  %slot = and i64 %k, 3
  %p = getelementptr [4 x i64], ptr @table, i64 0, i64 %slot
  %t = load i64, ptr %p
  %s = load i64, ptr @scale
  %m = mul i64 %t, %s
  %d = call i64 @twice(i64 %m)
  %acc2 = add i64 {v}, %d
  %k1 = add i64 %k, 1
  %more = icmp slt i64 %k1, %n
  br i1 %more, label %loop, label %done
done:
  ret i64 %acc2
}}""")
    calls = "\n".join(f"  %c{i} = call i64 @f{i}(i64 {i + 1})\n"
                      f"  %s{i + 1} = add i64 %s{i}, %c{i}" for i in range(n))
    out.append(f"define i64 @main() optnone noinline {{\n  %s0 = add i64 0, 0\n{calls}\n"
               f"  ret i64 %s{n}\n}}")
    return "\n\n".join(out) + "\n"


def expected(scale, n=N):
    table = [1, 2, 3, 4]
    return sum(i + sum(2 * table[k % 4] * scale for k in range(i + 1)) for i in range(n))


def run(jit, scale):
    ctypes.CFUNCTYPE(None, ctypes.c_int64)(jit.address_of("set_scale"))(scale)
    return ctypes.CFUNCTYPE(ctypes.c_int64)(jit.address_of("main"))()


def test_parts_give_the_same_results():
    ir = module_ir()
    assert len(ir) > J.PARALLEL_MIN_BYTES
    whole = JitModule(ir, jobs=1, keep_object=True)
    parts = JitModule(ir, jobs=3, keep_object=True)
    assert "jobs" not in whole.timings and len(whole.objects) == 1
    assert parts.timings["jobs"] == 3 and len(parts.objects) == 3
    for scale in (0, 5):
        assert run(whole, scale) == run(parts, scale) == expected(scale)
    # the mutable global is one variable: @set_scale's store is what every f_i reads
    assert run(parts, 7) == expected(7)
    # the objects load again (the compiled-model cache's path), and link the same way
    again = JitModule.from_objects(parts.objects)
    assert run(again, 3) == expected(3)
    assert "define i64 @main" in parts.optimized_ir       # the whole module, optimized
    with pytest.raises(Exception, match="loaded from object code"):
        again.optimized_ir


def test_partition_balances_and_declares():
    ir = module_ir()
    parts = J._partition(ir, 4)
    assert len(parts) == 4
    defined = [{line.split("@")[1].split("(")[0] for line in p.splitlines()
                if line.startswith("define ")} for p in parts]
    assert set().union(*defined) == {f"f{i}" for i in range(N)} | {"main", "twice",
                                                                  "set_scale"}
    assert sum(map(len, defined)) == N + 3          # each function in one part only
    for p, mine in zip(parts, defined):
        declared = {line.split("@")[1].split("(")[0] for line in p.splitlines()
                    if line.startswith("declare ")}
        assert declared == set().union(*defined) - mine
        assert "declare internal" not in p
    sizes = [len(p) for p in parts]
    assert max(sizes) < 2.5 * min(sizes)
    # small modules, or one job: one piece
    assert J._partition(module_ir(4), 4) is None and J._partition(ir, 1) is None


@pytest.mark.parametrize("bad", [0, N // 2, N - 1])
def test_an_error_in_any_part_is_reported(bad):
    with pytest.raises(LLVMError, match="undefined"):
        JitModule(module_ir(bad=bad), jobs=3)


def test_compile_jobs(monkeypatch):
    monkeypatch.setenv("STRATA_COMPILE_JOBS", "3")
    assert J.compile_jobs() == 3
    monkeypatch.setenv("STRATA_COMPILE_JOBS", "1")
    assert J.compile_jobs() == 1
    ir = module_ir()
    assert "jobs" not in JitModule(ir).timings
    monkeypatch.delenv("STRATA_COMPILE_JOBS")
    assert 1 <= J.compile_jobs() <= 8


def test_parts_link_into_a_shared_library(tmp_path):
    """emit_objects: position-independent parts that `cc -shared` links (aot.py)."""
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    from strata.backends.cpu.jit import emit_objects
    timings = {}
    objects = emit_objects(module_ir(), timings=timings, jobs=3)
    assert len(objects) == 3 and timings["jobs"] == 3
    paths = []
    for i, obj in enumerate(objects):
        paths.append(str(tmp_path / f"m{i}.o"))
        with open(paths[-1], "wb") as f:
            f.write(obj)
    lib = str(tmp_path / "m.so")
    subprocess.run([cc, "-shared", "-o", lib, *paths], check=True, capture_output=True)
    so = ctypes.CDLL(lib)
    so.set_scale.argtypes = [ctypes.c_int64]
    so.main.restype = ctypes.c_int64
    so.set_scale(2)
    assert so.main() == expected(2)
    assert len(emit_objects(module_ir(4))) == 1


def test_parts_compile_on_threads_not_forked_processes(monkeypatch):
    """No fork (its cost grows with the process: page tables, copy-on-write faults);
    the parts' threads are gone when the module is made."""
    def no_fork():
        raise AssertionError("a process was forked")
    monkeypatch.setattr(J.os, "fork", no_fork)
    names = []
    start = threading.Thread.start

    def recording_start(self):
        names.append(self.name)
        return start(self)
    monkeypatch.setattr(threading.Thread, "start", recording_start)
    jit = JitModule(module_ir(), jobs=3, keep_object=True)
    assert len(jit.objects) == 3 and jit.timings["jobs"] == 3
    assert run(jit, 4) == expected(4)
    assert sorted(n for n in names if n.startswith("strata-llvm")) == \
        ["strata-llvm-part1", "strata-llvm-part2"]
    assert not any(t.name.startswith("strata-llvm") for t in threading.enumerate())


def test_no_thread_to_start_compiles_here(monkeypatch):
    """Where no thread can be started, the parts are compiled on this one."""
    def no_thread(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    jit = JitModule(module_ir(), jobs=3, keep_object=True)
    assert len(jit.objects) == 3 and run(jit, 4) == expected(4)


def test_callers_own_llvm_work_meanwhile_is_unharmed():
    """The parts compile without llvmlite's lock, each in an LLVM context of its own:
    a caller's thread using llvmlite (the global context, behind the lock) at the same
    time gets its results, and so do the parts."""
    small = module_ir(8)
    stop, seen, failures = threading.Event(), [], []

    def callers_work():
        try:
            while not stop.is_set():
                jit = JitModule(small, jobs=1)
                seen.append(run(jit, 3) == expected(3, 8))
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)
    other = threading.Thread(target=callers_work)
    other.start()
    try:
        for scale in (1, 5):
            jit = JitModule(module_ir(), jobs=3)
            assert jit.timings["jobs"] == 3 and run(jit, scale) == expected(scale)
    finally:
        stop.set()
        other.join()
    assert not failures and seen and all(seen), (failures, seen)
