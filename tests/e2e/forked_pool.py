"""Running test cases in forked worker processes that survive a crashing case: the
pool that the conformance runners (onnx_node_runner.py, torch_opinfo_runner.py) share.

    results = run_forked(indices, run_one, jobs=2, died=lambda i, where, why: ...)

Each worker runs its share of `indices` in order (interleaved shares, so that slow
families spread over the workers), telling the parent before each item starts (and,
through the `progress` callback `run_one` gets, where it is inside the item). A worker
that dies — compiled code killed by a signal — fails only the item it was running
(`died(item, where, why)` is that item's result, `why` e.g. "signal 11") and a fresh
worker goes on with the rest of its share. The parent's state (loaded cases, imported
modules) is inherited by the workers, so load it before calling."""
from __future__ import annotations


def _worker_loop(todo, run_one, conn):
    for item in todo:
        conn.send(("start", (item, None)))
        result = run_one(item, lambda where, item=item: conn.send(("start", (item, where))))
        conn.send(("done", result))
    conn.send(("end", None))
    conn.close()


def run_forked(indices, run_one, jobs: int, died, on_done=None) -> dict:
    """{item: run_one(item, progress)} for every item of `indices`, run in `jobs` forked
    workers; `on_done(item, result)` is called in the parent as each item ends."""
    import multiprocessing as mp
    indices = list(indices)
    jobs = max(1, min(jobs, len(indices) or 1))
    ctx = mp.get_context("fork")
    results, workers = {}, {}

    def spawn(todo):
        if not todo:
            return
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker_loop, args=(todo, run_one, child), daemon=True)
        proc.start()
        child.close()
        workers[parent] = [proc, list(todo), None]

    # The parent's garbage is collected here, then frozen: a worker's collector must not
    # run the finalizers of objects it inherited (an onnxruntime session destroyed in a
    # forked child waits forever on its parent's thread-pool condition variables).
    import gc
    gc.collect()
    gc.freeze()
    try:
        return _run(indices, jobs, spawn, workers, results, died, on_done)
    finally:
        gc.unfreeze()


def _run(indices, jobs, spawn, workers, results, died, on_done):
    from multiprocessing.connection import wait
    for w in range(jobs):
        spawn(indices[w::jobs])
    while workers:
        for conn in wait(list(workers)):
            proc, todo, current = workers[conn]
            try:
                kind, payload = conn.recv()
            except (EOFError, OSError):
                proc.join()
                del workers[conn]
                if current is not None:  # the worker died inside an item
                    item, where = current
                    code = proc.exitcode
                    why = f"signal {-code}" if code is not None and code < 0 else \
                        f"exit status {code}"
                    results[item] = died(item, where, why)
                    if on_done:
                        on_done(item, results[item])
                    spawn(todo[todo.index(item) + 1:])
                continue
            if kind == "start":
                workers[conn][2] = payload
            elif kind == "done":
                item = workers[conn][2][0]
                results[item] = payload
                if on_done:
                    on_done(item, payload)
                workers[conn][2] = None
            else:
                proc.join()
                del workers[conn]
    return results
