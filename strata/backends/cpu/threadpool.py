"""The thread pool compiled code runs its parallel work on: generated LLVM IR, part of the
kernels' object (kernels.py), so it is built once per machine, loaded once per process
by the JIT and linked into every shared library (aot.py). No C compiler is involved.

    strata_parallel_for(fn, ctx, n, grain)   fn(ctx, lo, hi) over a partition of [0, n)
    strata_set_num_threads(n)                the process default (n <= 0: automatic)
    strata_get_num_threads()                 the count the calling thread runs with
    strata_threads_enter(n) -> prev          a model call's own count (n <= 0: none) ...
    strata_threads_exit(prev)                ... until it returns

`fn` is `void fn(ptr ctx, i64 lo, i64 hi)`; the ranges it is given are disjoint, cover
[0, n), hold at least `grain` iterations each (but the last), and may run at once on
several threads, the calling one among them, in any order. Everything has returned when
strata_parallel_for returns. The thread count is, first to last found: the calling
thread's model count (strata_threads_enter), the process default, $STRATA_NUM_THREADS,
the CPUs the process may run on; at most MAX_THREADS.

[Note: thread pool design]
- Workers are created lazily, by the first call that needs them (up to count - 1; the
  caller is the last thread), and never exit. A call takes the pool (a lock word); a
  call that finds it taken (another Python thread's model, or a nested call from inside
  a chunk) runs inline, on its thread alone: calls never wait for each other and never
  deadlock.
- A job is published in globals (fn, ctx, n, chunk size, grain, how many workers may
  join), then opened by making the generation word `gen` odd. The caller and the
  workers alike claim chunks with a compare-and-swap on the next index (dynamic: a late
  or slow thread takes fewer), guided: a claim takes a 1/(2 x threads) share of what is
  left, at most the even chunk (about CHUNKS_PER_THREAD per thread) and at least
  `grain`, so the last chunks are small and the threads finish together (with even
  chunks a thread idled for up to one chunk at the end of each loop: ResNet-18's pool
  spent 5.4% of its samples idle or synchronizing, 2.6% guided).
  When the caller finds no chunk left it closes the job (`gen` even again) and waits
  until no worker is inside it (`inflight` = 0). A worker enters a job by incrementing
  `inflight` and then re-reading `gen`: if the job closed meanwhile it leaves without
  touching it. Both sides use sequentially consistent operations, so either the caller
  sees the worker's increment and waits for it, or the worker sees the close.
- Idle workers spin on `gen` (with the CPU's pause hint) for SPIN_ROUNDS rounds after
  each job, so back-to-back parallel loops of a model do not pay a wake-up, then sleep
  in futex(FUTEX_WAIT) on `gen` (Linux; a short usleep elsewhere), with a timeout as a
  safety net. The caller makes the futex_wake system call only when a worker sleeps.
- fork: a child process has none of the parent's workers. When it creates its first
  worker, the pool registers a fork handler (pthread_atfork; glibc's __register_atfork,
  which the dynamic linker can find for the JIT) that, in the child, marks the pool
  free and without workers, even if a parent thread was running a job at the fork.
- Per-model counts: strata_threads_enter/exit keep the count of the model being run in
  a pthread key (thread-specific), so two models with different counts can run at once
  on two threads; the kernels and strata_parallel_for read it through
  strata_get_num_threads.
- Workers block all signals: Python handles signals on its main thread.
"""
from __future__ import annotations

__all__ = ["threadpool_ir", "POOL_FUNCTIONS", "MAX_THREADS", "CHUNKS_PER_THREAD",
           "SPIN_ROUNDS"]

MAX_THREADS = 256
CHUNKS_PER_THREAD = 4
SPIN_ROUNDS = 1 << 12
# After the last chunk, the caller spins this many rounds on `inflight` before yielding.
_DRAIN_SPINS = 1 << 10
# A sleeping worker wakes up after this many nanoseconds at the latest.
_SLEEP_NS = 100_000_000

# Public functions of the pool (plain C ABI).
POOL_FUNCTIONS = {"strata_parallel_for": ("void", ["ptr", "ptr", "i64", "i64"]),
                  "strata_set_num_threads": ("void", ["i32"]),
                  "strata_get_num_threads": ("i32", []),
                  "strata_threads_enter": ("i32", ["i32"]),
                  "strata_threads_exit": ("void", ["i32"])}


class _Platform:
    """What the pool's IR depends on: the OS's constants and the CPU's pause hint."""

    def __init__(self, triple: str):
        self.linux = "linux" in triple
        self.darwin = "darwin" in triple or "apple" in triple
        arm = triple.startswith(("aarch64", "arm64"))
        self.pause = ("call void @llvm.aarch64.hint(i32 1)" if arm
                      else "call void @llvm.x86.sse2.pause()")
        self.pause_decl = ("declare void @llvm.aarch64.hint(i32)" if arm
                           else "declare void @llvm.x86.sse2.pause()")
        self.futex = {"x86_64": 202, "aarch64": 98}.get(triple.split("-")[0]) \
            if self.linux else None
        self.nprocs = 58 if self.darwin else 84          # _SC_NPROCESSORS_ONLN
        self.sig_block = 1 if self.darwin else 0         # SIG_BLOCK
        self.key = "i64" if self.darwin else "i32"       # pthread_key_t
        # glibc keeps pthread_atfork in libc_nonshared.a: the JIT finds only this one
        self.atfork = ("@__register_atfork(ptr null, ptr null, ptr @strata_pool_child, "
                       "ptr null)" if "gnu" in triple else
                       "@pthread_atfork(ptr null, ptr null, ptr @strata_pool_child)")


def _state() -> str:
    """The pool's globals. Words written by one thread and read by spinning ones sit on
    cache lines of their own."""
    hot = ("gen", "inflight", "sleepers", "busy")
    lines = [f"@strata_pool_{w} = internal global i32 0, align 64" for w in hot]
    lines += ["@strata_pool_next = internal global i64 0, align 64",
              "@strata_pool_fn = internal global ptr null, align 64",
              "@strata_pool_ctx = internal global ptr null, align 8",
              "@strata_pool_n = internal global i64 0, align 8",
              "@strata_pool_chunk = internal global i64 0, align 8",
              "@strata_pool_grain = internal global i64 0, align 8",
              "@strata_pool_limit = internal global i32 0, align 4",
              "@strata_pool_spawned = internal global i32 0, align 4",
              "@strata_pool_atfork = internal global i32 0, align 4",
              "@strata_pool_default = internal global i32 0, align 4",
              "@strata_pool_auto = internal global i32 0, align 4",
              "@strata_pool_key_state = internal global i32 0, align 4",
              "@strata_pool_key = internal global i64 0, align 8",
              '@strata_pool_env = private unnamed_addr constant [19 x i8] '
              'c"STRATA_NUM_THREADS\\00"']
    return "\n".join(lines) + "\n"


def _declarations(p: _Platform) -> str:
    return "\n".join([
        p.pause_decl,
        "declare i64 @llvm.smax.i64(i64, i64)",
        "declare i32 @llvm.umin.i32(i32, i32)",
        "declare i64 @llvm.ctpop.i64(i64)",
        "declare i32 @pthread_create(ptr, ptr, ptr, ptr)",
        "declare i32 @pthread_detach(i64)",
        "declare i32 @pthread_key_create(ptr, ptr)",
        f"declare ptr @pthread_getspecific({p.key})",
        f"declare i32 @pthread_setspecific({p.key}, ptr)",
        "declare i32 @sigfillset(ptr)",
        "declare i32 @pthread_sigmask(i32, ptr, ptr)",
        "declare i32 @__register_atfork(ptr, ptr, ptr, ptr)"
        if "__register" in p.atfork else "declare i32 @pthread_atfork(ptr, ptr, ptr)",
        "declare i32 @sched_yield()",
        "declare ptr @getenv(ptr)",
        "declare i64 @strtol(ptr, ptr, i32)",
        "declare i64 @sysconf(i32)",
        *(["declare i32 @sched_getaffinity(i32, i64, ptr)",
           "declare i64 @syscall(i64, ...)"] if p.linux else ["declare i32 @usleep(i32)"]),
        ""])


def _sleep_wake(p: _Platform) -> str:
    """strata_pool_sleep(addr, value): wait while *addr == value (or a while);
    strata_pool_wake(addr): wake every thread sleeping on addr."""
    if p.futex is None:
        return f"""
define internal void @strata_pool_sleep(ptr %addr, i32 %value) #1 {{
entry:
  %r = call i32 @usleep(i32 50)
  ret void
}}

define internal void @strata_pool_wake(ptr %addr) #1 {{
entry:
  ret void
}}
"""
    sec, nsec = divmod(_SLEEP_NS, 1_000_000_000)
    return f"""
define internal void @strata_pool_sleep(ptr %addr, i32 %value) #1 {{
entry:
  %ts = alloca [2 x i64], align 8
  store i64 {sec}, ptr %ts, align 8
  %ns = getelementptr inbounds i64, ptr %ts, i64 1
  store i64 {nsec}, ptr %ns, align 8
  %v = zext i32 %value to i64
  %r = call i64 (i64, ...) @syscall(i64 {p.futex}, ptr %addr, i64 128, i64 %v, ptr %ts)
  ret void
}}

define internal void @strata_pool_wake(ptr %addr) #1 {{
entry:
  %r = call i64 (i64, ...) @syscall(i64 {p.futex}, ptr %addr, i64 129, i64 2147483647)
  ret void
}}
"""


def _counts(p: _Platform) -> str:
    """The thread counts: automatic, process default, per-thread (model) scope."""
    affinity = """
  %set = alloca [16 x i64], align 8
  call void @llvm.memset.p0.i64(ptr %set, i8 0, i64 128, i1 false)
  %rc = call i32 @sched_getaffinity(i32 0, i64 128, ptr %set)
  %got = icmp eq i32 %rc, 0
  br i1 %got, label %count, label %sys
count:
""" + "".join(f"""  %w{i}p = getelementptr inbounds i64, ptr %set, i64 {i}
  %w{i} = load i64, ptr %w{i}p, align 8
  %c{i} = call i64 @llvm.ctpop.i64(i64 %w{i})
  %s{i} = add i64 {f'%s{i - 1}' if i else 0}, %c{i}
""" for i in range(16)) + """  %cpus = icmp sgt i64 %s15, 0
  br i1 %cpus, label %clamp, label %sys
""" if p.linux else "  br label %sys\n"
    return f"""
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define internal i32 @strata_pool_auto_threads() #1 {{
entry:
  %cached = load atomic i32, ptr @strata_pool_auto monotonic, align 4
  %known = icmp sgt i32 %cached, 0
  br i1 %known, label %done, label %env
env:
  %e = call ptr @getenv(ptr @strata_pool_env)
  %has = icmp ne ptr %e, null
  br i1 %has, label %parse, label %cpus0
parse:
  %v = call i64 @strtol(ptr %e, ptr null, i32 10)
  %pos = icmp sgt i64 %v, 0
  br i1 %pos, label %clamp, label %cpus0
cpus0:{affinity}sys:
  %n = call i64 @sysconf(i32 {p.nprocs})
  %npos = icmp sgt i64 %n, 0
  %n1 = select i1 %npos, i64 %n, i64 1
  br label %clamp
clamp:
  %x = phi i64 [ %v, %parse ], {'[ %s15, %count ], ' if p.linux else ''}[ %n1, %sys ]
  %small = icmp slt i64 %x, {MAX_THREADS}
  %y = select i1 %small, i64 %x, i64 {MAX_THREADS}
  %r = trunc i64 %y to i32
  store atomic i32 %r, ptr @strata_pool_auto monotonic, align 4
  br label %done
done:
  %out = phi i32 [ %cached, %entry ], [ %r, %clamp ]
  ret i32 %out
}}

define void @strata_set_num_threads(i32 %n) #0 {{
entry:
  %auto = icmp slt i32 %n, 1
  %big = icmp sgt i32 %n, {MAX_THREADS}
  %m = select i1 %big, i32 {MAX_THREADS}, i32 %n
  %v = select i1 %auto, i32 0, i32 %m
  store atomic i32 %v, ptr @strata_pool_default monotonic, align 4
  ret void
}}

; the calling thread's count (0: none); the key must be ready
define internal i32 @strata_pool_scope() #1 {{
entry:
  %k = load {p.key}, ptr @strata_pool_key, align 8
  %p = call ptr @pthread_getspecific({p.key} %k)
  %pi = ptrtoint ptr %p to i64
  %s = trunc i64 %pi to i32
  ret i32 %s
}}

define i32 @strata_get_num_threads() #0 {{
entry:
  %st = load atomic i32, ptr @strata_pool_key_state acquire, align 4
  %ready = icmp eq i32 %st, 2
  br i1 %ready, label %scoped, label %default
scoped:
  %s = call i32 @strata_pool_scope()
  %has = icmp sgt i32 %s, 0
  br i1 %has, label %done, label %default
default:
  %d = load atomic i32, ptr @strata_pool_default monotonic, align 4
  %set = icmp sgt i32 %d, 0
  br i1 %set, label %done, label %auto
auto:
  %a = call i32 @strata_pool_auto_threads()
  br label %done
done:
  %r = phi i32 [ %s, %scoped ], [ %d, %default ], [ %a, %auto ]
  ret i32 %r
}}

; the pthread key of the per-thread count, created by the first strata_threads_enter
; (state 0: none, 1: being created, 2: ready, 3: could not be created)
define internal i1 @strata_pool_key_ready() #1 {{
entry:
  br label %look
look:
  %st = load atomic i32, ptr @strata_pool_key_state acquire, align 4
  %ready = icmp eq i32 %st, 2
  br i1 %ready, label %yes, label %check
check:
  %failed = icmp eq i32 %st, 3
  br i1 %failed, label %no, label %try
try:
  %c = cmpxchg ptr @strata_pool_key_state, i32 0, i32 1 acq_rel acquire, align 4
  %mine = extractvalue {{ i32, i1 }} %c, 1
  br i1 %mine, label %create, label %wait
create:
  %rc = call i32 @pthread_key_create(ptr @strata_pool_key, ptr null)
  %ok = icmp eq i32 %rc, 0
  %to = select i1 %ok, i32 2, i32 3
  store atomic i32 %to, ptr @strata_pool_key_state release, align 4
  br label %look
wait:
  {p.pause}
  br label %look
yes:
  ret i1 true
no:
  ret i1 false
}}

define i32 @strata_threads_enter(i32 %n) #0 {{
entry:
  %none = icmp slt i32 %n, 1
  br i1 %none, label %skip, label %key
key:
  %ok = call i1 @strata_pool_key_ready()
  br i1 %ok, label %set, label %skip
set:
  %o = call i32 @strata_pool_scope()
  %k = load {p.key}, ptr @strata_pool_key, align 8
  %big = icmp sgt i32 %n, {MAX_THREADS}
  %m = select i1 %big, i32 {MAX_THREADS}, i32 %n
  %mi = zext i32 %m to i64
  %mp = inttoptr i64 %mi to ptr
  %rc = call i32 @pthread_setspecific({p.key} %k, ptr %mp)
  ret i32 %o
skip:
  ret i32 -1
}}

define void @strata_threads_exit(i32 %prev) #0 {{
entry:
  %none = icmp slt i32 %prev, 0
  br i1 %none, label %done, label %set
set:
  %k = load {p.key}, ptr @strata_pool_key, align 8
  %pi = zext i32 %prev to i64
  %pp = inttoptr i64 %pi to ptr
  %rc = call i32 @pthread_setspecific({p.key} %k, ptr %pp)
  br label %done
done:
  ret void
}}
"""


def _jobs(p: _Platform) -> str:
    """Chunks, workers and strata_parallel_for (see [Note: thread pool design])."""
    return f"""
; claim chunks of the open job until none is left
define internal void @strata_pool_run_chunks() #1 {{
entry:
  %fn = load atomic ptr, ptr @strata_pool_fn monotonic, align 64
  %ctx = load atomic ptr, ptr @strata_pool_ctx monotonic, align 8
  %n = load atomic i64, ptr @strata_pool_n monotonic, align 8
  %chunk = load atomic i64, ptr @strata_pool_chunk monotonic, align 8
  %grain = load atomic i64, ptr @strata_pool_grain monotonic, align 8
  %lim = load atomic i32, ptr @strata_pool_limit monotonic, align 4
  %lim64 = zext i32 %lim to i64
  %threads = add nsw i64 %lim64, 1
  %div = shl nsw i64 %threads, 1
  %dm = add nsw i64 %div, -1
  br label %claim
claim:
  %cur = load atomic i64, ptr @strata_pool_next monotonic, align 64
  br label %try
try:
  %lo = phi i64 [ %cur, %claim ], [ %seen, %retry ]
  %more = icmp slt i64 %lo, %n
  br i1 %more, label %size, label %done
size:
  ; guided: a share of what is left, at most the even chunk, at least the grain
  %rem = sub nsw i64 %n, %lo
  %remd = add nsw i64 %rem, %dm
  %share = sdiv i64 %remd, %div
  %big = icmp sgt i64 %share, %chunk
  %s0 = select i1 %big, i64 %chunk, i64 %share
  %s1 = call i64 @llvm.smax.i64(i64 %s0, i64 %grain)
  %end = add nsw i64 %lo, %s1
  %short = icmp slt i64 %end, %n
  %hi = select i1 %short, i64 %end, i64 %n
  %x = cmpxchg ptr @strata_pool_next, i64 %lo, i64 %hi monotonic monotonic, align 64
  %seen = extractvalue {{ i64, i1 }} %x, 0
  %won = extractvalue {{ i64, i1 }} %x, 1
  br i1 %won, label %run, label %retry
retry:
  br label %try
run:
  call void %fn(ptr %ctx, i64 %lo, i64 %hi)
  br label %claim
done:
  ret void
}}

define internal ptr @strata_pool_worker(ptr %arg) #1 {{
entry:
  %mask = alloca [128 x i8], align 8
  %r0 = call i32 @sigfillset(ptr %mask)
  %r1 = call i32 @pthread_sigmask(i32 {p.sig_block}, ptr %mask, ptr null)
  %seen = alloca i32, align 4
  %spins = alloca i32, align 4
  store i32 0, ptr %seen, align 4
  store i32 0, ptr %spins, align 4
  %wi = ptrtoint ptr %arg to i64
  %w = trunc i64 %wi to i32
  br label %wait
wait:
  %g = load atomic i32, ptr @strata_pool_gen acquire, align 64
  %s = load i32, ptr %seen, align 4
  %bit = and i32 %g, 1
  %open = icmp ne i32 %bit, 0
  %new = icmp ne i32 %g, %s
  %job = and i1 %open, %new
  br i1 %job, label %take, label %idle
idle:
  %k = load i32, ptr %spins, align 4
  %spin = icmp ult i32 %k, {SPIN_ROUNDS}
  br i1 %spin, label %pause, label %sleep
pause:
  {p.pause}
  %k1 = add i32 %k, 1
  store i32 %k1, ptr %spins, align 4
  br label %wait
sleep:
  %a = atomicrmw add ptr @strata_pool_sleepers, i32 1 seq_cst, align 64
  call void @strata_pool_sleep(ptr @strata_pool_gen, i32 %g)
  %b = atomicrmw sub ptr @strata_pool_sleepers, i32 1 seq_cst, align 64
  ; spin again after a wake-up: a job short enough to be over before this thread woke
  ; must not send it straight back to sleep (then every later short job would find it
  ; asleep, pay the wake-up and run on the caller alone)
  store i32 0, ptr %spins, align 4
  br label %wait
take:
  store i32 %g, ptr %seen, align 4
  %limit = load atomic i32, ptr @strata_pool_limit monotonic, align 4
  %mine = icmp ult i32 %w, %limit
  br i1 %mine, label %enter, label %wait
enter:
  %c = atomicrmw add ptr @strata_pool_inflight, i32 1 seq_cst, align 64
  %g2 = load atomic i32, ptr @strata_pool_gen seq_cst, align 64
  %same = icmp eq i32 %g2, %g
  br i1 %same, label %work, label %leave
work:
  call void @strata_pool_run_chunks()
  br label %leave
leave:
  %d = atomicrmw sub ptr @strata_pool_inflight, i32 1 release, align 64
  store i32 0, ptr %spins, align 4
  br label %wait
}}

; in a child process after fork: no workers, no job, free
define internal void @strata_pool_child() #1 {{
entry:
  store i32 0, ptr @strata_pool_spawned, align 4
  store atomic i32 0, ptr @strata_pool_sleepers monotonic, align 64
  store atomic i32 0, ptr @strata_pool_inflight monotonic, align 64
  store atomic i32 0, ptr @strata_pool_gen monotonic, align 64
  store atomic i32 0, ptr @strata_pool_busy release, align 64
  ret void
}}

; create workers until `want` exist (fewer if the system refuses)
define internal void @strata_pool_spawn(i32 %want) #1 {{
entry:
  %tid = alloca i64, align 8
  %few = icmp sle i32 %want, 0
  br i1 %few, label %done, label %first
first:
  %registered = load i32, ptr @strata_pool_atfork, align 4
  %todo = icmp eq i32 %registered, 0
  br i1 %todo, label %register, label %check
register:
  %ra = call i32 {p.atfork}
  store i32 1, ptr @strata_pool_atfork, align 4
  br label %check
check:
  %have = load i32, ptr @strata_pool_spawned, align 4
  %enough = icmp sge i32 %have, %want
  br i1 %enough, label %done, label %make
make:
  %hi = zext i32 %have to i64
  %arg = inttoptr i64 %hi to ptr
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @strata_pool_worker, ptr %arg)
  %ok = icmp eq i32 %rc, 0
  br i1 %ok, label %made, label %done
made:
  %t = load i64, ptr %tid, align 8
  %r = call i32 @pthread_detach(i64 %t)
  %have1 = add i32 %have, 1
  store i32 %have1, ptr @strata_pool_spawned, align 4
  br label %check
done:
  ret void
}}

define void @strata_parallel_for(ptr %fn, ptr %ctx, i64 %n, i64 %grain) #0 {{
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %ret, label %start
start:
  %g = call i64 @llvm.smax.i64(i64 %grain, i64 1)
  %t32 = call i32 @strata_get_num_threads()
  %t = sext i32 %t32 to i64
  %gm = add nsw i64 %g, -1
  %np = add nsw i64 %n, %gm
  %most = sdiv i64 %np, %g
  %one_t = icmp sle i64 %t, 1
  %one_c = icmp sle i64 %most, 1
  %serial = or i1 %one_t, %one_c
  br i1 %serial, label %inline, label %take
inline:
  call void %fn(ptr %ctx, i64 0, i64 %n)
  br label %ret
take:
  %c1 = cmpxchg ptr @strata_pool_busy, i32 0, i32 1 acquire monotonic, align 64
  %ok1 = extractvalue {{ i32, i1 }} %c1, 1
  br i1 %ok1, label %spawn, label %inline
spawn:
  %tm = add i32 %t32, -1
  call void @strata_pool_spawn(i32 %tm)
  %have = load i32, ptr @strata_pool_spawned, align 4
  %limit = call i32 @llvm.umin.i32(i32 %tm, i32 %have)
  %none = icmp eq i32 %limit, 0
  br i1 %none, label %give_back, label %open
give_back:
  store atomic i32 0, ptr @strata_pool_busy release, align 64
  br label %inline
open:
  %threads = zext i32 %limit to i64
  %tt = add nsw i64 %threads, 1
  %cap = mul nsw i64 %tt, {CHUNKS_PER_THREAD}
  %few = icmp slt i64 %most, %cap
  %want = select i1 %few, i64 %most, i64 %cap
  %wm = add nsw i64 %want, -1
  %nw = add nsw i64 %n, %wm
  %chunk = sdiv i64 %nw, %want
  ; whose allocation failures its chunks record (guard.py)
  %owner = call ptr @strata_guard_current()
  store atomic ptr %owner, ptr @strata_pool_owner monotonic, align 8
  store atomic ptr %fn, ptr @strata_pool_fn monotonic, align 64
  store atomic ptr %ctx, ptr @strata_pool_ctx monotonic, align 8
  store atomic i64 %n, ptr @strata_pool_n monotonic, align 8
  store atomic i64 %chunk, ptr @strata_pool_chunk monotonic, align 8
  store atomic i64 %g, ptr @strata_pool_grain monotonic, align 8
  store atomic i32 %limit, ptr @strata_pool_limit monotonic, align 4
  store atomic i64 0, ptr @strata_pool_next monotonic, align 64
  %o = atomicrmw add ptr @strata_pool_gen, i32 1 seq_cst, align 64
  %sl = load atomic i32, ptr @strata_pool_sleepers seq_cst, align 64
  %asleep = icmp ne i32 %sl, 0
  br i1 %asleep, label %wake, label %run
wake:
  call void @strata_pool_wake(ptr @strata_pool_gen)
  br label %run
run:
  call void @strata_pool_run_chunks()
  %cl = atomicrmw add ptr @strata_pool_gen, i32 1 seq_cst, align 64
  br label %drain
drain:
  %k = phi i32 [ 0, %run ], [ %k1, %spin ], [ %k1, %yield ]
  %in = load atomic i32, ptr @strata_pool_inflight seq_cst, align 64
  %idle = icmp eq i32 %in, 0
  br i1 %idle, label %done, label %busy
busy:
  %k1 = add i32 %k, 1
  %patient = icmp ult i32 %k, {_DRAIN_SPINS}
  br i1 %patient, label %spin, label %yield
spin:
  {p.pause}
  br label %drain
yield:
  %y = call i32 @sched_yield()
  br label %drain
done:
  store atomic i32 0, ptr @strata_pool_busy release, align 64
  br label %ret
ret:
  ret void
}}
"""


def threadpool_ir(triple: str | None = None) -> str:
    """The pool's LLVM IR (globals, declarations and functions) for the kernels' module,
    for the OS and CPU of `triple` (default: this process's). Uses the attribute groups
    #0 (public) and #1 (internal) the kernels' module defines."""
    if triple is None:
        import llvmlite.binding as llvm
        triple = llvm.get_process_triple()
    p = _Platform(triple)
    return "\n".join(["; Strata thread pool (see strata/backends/cpu/threadpool.py)",
                      _state(), _declarations(p), _sleep_wake(p), _counts(p), _jobs(p)])
