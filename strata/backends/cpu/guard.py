"""Checked allocations: the native part (generated LLVM IR, in the kernels' module next to
the thread pool) and the guard each C entry point of a compiled model runs under.

    p = strata_alloc(nbytes, site)         malloc, checked; on failure: report, then
                                           unwind to the entry point (never returns)
    strata_free(p)                         free (and forget p)
    p = strata_alloc_or_null(nbytes, site) malloc(max(nbytes, 1)), checked; on failure:
                                           record it for the call, return NULL (the
                                           caller skips its work)
    strata_guard_check(node)               after a parallel loop or a kernel: if one of
                                           theirs failed, report it for `node`, unwind
    strata_guard_enter(frame) / strata_guard_exit(frame)   (the entry point's, below)

`nbytes` is an i64 where -1 means "the size overflowed" (more than 2^63 - 1 bytes) and
-2 "a dimension is negative"; `site` names what allocates (`node <ONNX node name>`, or a kernel's
buffer: KERNEL_SITES). A failure is reported through the runtime's hook

    void strata_oom_report(int64_t nbytes, const char *what, const char *node)

(strata.runtime binds a Python one, a shared library has a C one in aot.py's runtime
part; `oom_message` is the text both make): the call raises `RuntimeFailure("out of
memory allocating N bytes for node X")` ("... for node X (the packed blocks of a GEMM
kernel)" for a kernel's buffer), a shared library's strata_last_error() returns it.

An entry point's C wrapper after add_allocation_guard:

    llvm.func @_mlir_ciface_main(%res: !llvm.ptr, %x: !llvm.ptr) {
      %prev = llvm.call @strata_threads_enter(...)
      %frame = llvm.alloca %c71 x i64 {alignment = 16}      // GUARD_BYTES
      llvm.call @strata_guard_enter(%frame)
      %r = llvm.call @_setjmp(%frame) : (!llvm.ptr) -> i32  // returns_twice
      %z = llvm.icmp "eq" %r, %c0
      llvm.cond_br %z, ^run, ^aborted
    ^run:
      ... the call of @main, results stored ...
      llvm.call @strata_threads_exit(%prev)
      llvm.call @strata_guard_exit(%frame)
      llvm.return
    ^aborted:                          // an allocation failed: results zeroed
      "llvm.intr.memset"(%res, %c0_i8, %cN) <{isVolatile = false}>
      llvm.call @strata_threads_exit(%prev)
      llvm.return
    }

and in every function but the parallel chunks, after each call of the pool or a kernel:

    llvm.call @strata_sgemm_packed_f32(...) : (...) -> ()
    %site = llvm.mlir.addressof @check_site_0 : !llvm.ptr     // "node mm\00"
    llvm.call @strata_guard_check(%site) : (!llvm.ptr) -> ()

[Note: failed allocations]
A failed cf.assert is recorded and execution goes on (see [Note: cf.assert]); a failed
allocation cannot go on without its buffer. The call of the model stops there instead,
by a `longjmp` back to its entry point, but only from where nothing would be left
broken:

- Generated code on the thread that entered the model (the entry function and the
  functions it calls, not the parallel loops' chunk functions): memref.alloc lowers to
  `strata_alloc` (convert-to-llvm{checked-alloc=true}, memref.py), which reports the
  failure and jumps back to the entry point's guard: a `_setjmp` on a frame on the C
  wrapper's stack (the wrapper is the frame that stays alive; the call is
  `returns_twice`; the wrapper is straight-line code compiled at O0). The wrapper then
  zeroes the result descriptors (allocated = NULL, every size 0: nothing for the caller
  to free, no stale pointer), restores the thread count and returns; the runtime raises.
  The jump only crosses generated code and the guard's own functions: no Python frame
  (the Python hook has returned before the jump), no kernel, no open thread pool job,
  no lock held.
- Buffers the aborted call had allocated are not leaked: while a guard is active,
  strata_alloc records each block in the guard frame's list (a malloc'd array, grown by
  doubling) and strata_free (memref.dealloc's lowering) takes it out again (searching
  from the most recent; a model's live buffers are few). Before the jump every block
  still listed is freed; on a normal return the list is dropped, what is left in it
  being the outputs, which the caller owns. The list lives in the frame, so concurrent
  calls on different threads and nested guards never share one; the current guard is
  found through a pthread key (MCJIT has no thread-local storage).
- A parallel loop's chunk function (strata.parallel_chunk, convert-scf-to-strata-cpu)
  runs on a pool worker, or on the entering thread while the pool's job is open: a jump
  from there would leave the job open forever. Its allocations use
  `strata_alloc_or_null`, and it returns at once on NULL (its part of the loop
  unwritten). Kernels (GEMM, convolution and Winograd scratch) do the same and skip
  their work: they hold the pool, and their own blocks, while they run. The failure is
  recorded in the guard of the thread (the entering one), or on a worker in the guard
  of the thread whose job the pool runs (`strata_pool_owner`, which strata_parallel_for
  sets when it opens a job; one job runs at a time, and a call that finds the pool
  taken runs inline on its own thread, under its own guard): the first failure's size
  and site, with an atomic flag. Once the loop or the kernel has returned, the
  entering thread's strata_guard_check finds the flag, reports the failure naming the
  node of the loop or the kernel call, and unwinds as above. Nothing computed from the
  unwritten part is ever read.
- A kernel called outside any guard (the kernel library used directly, tests) reports
  at once and returns; a shared library keeps such a message in one process-wide slot
  for strata_last_error.

The fast path costs one compare per allocation in generated code (inside strata_alloc)
plus the bookkeeping of the list (a pthread_getspecific, an append; a search on free):
a 256-byte strata_alloc + strata_free pair took 30 ns against 17-22 ns for malloc +
free (JIT'd loop, 5M pairs), ~1 us per call of a model allocating 100 buffers; a
strata_guard_check (a pthread_getspecific, a load) per parallel loop or kernel call.
Sizes with dynamic dims are computed with 128-bit products saturated at 2^63, one more
compare. malloc(0) may return NULL: not a failure (strata_alloc returns NULL for 0
bytes; strata_alloc_or_null asks for at least 1 byte). Stack buffers (memref.alloca)
are not checked: the pipeline makes them static and small (strata-linalg-fuse-row-
reductions' rows, at most MAX_ROW_BYTES). The kernels' scratch sizes are products of
tile sizes or of dims of operands that exist in memory (at most a
few times their sizes), but for the im2col buffer (the filter's K times the output's
pixels) and the shared packing of A, computed with overflow-checked products
(checked_bytes).

[Note: failed checks stop the call]
A failed run-time check (a cf.assert: an index out of range, a shape tensor that does
not fit its op, a division by zero...) stops the call the same way: with
checked-alloc=true, convert-cf-to-llvm follows the call of `strata_assert_fail` (which
records the message; the Python hook has returned) with `strata_guard_abort`, which
unwinds to the entry point's guard as a failed allocation does (buffers freed, results
zeroed; the runtime raises RuntimeFailure, a shared library's strata_last_error() has
the message). Nothing computed after the failed check runs, so no later op can trust a
value the check refused: the lowerings' sanitized sizes and clamped indices (see [Note:
index checks] and [Note: shape checks] in conversion/onnx_to_linalg/_index_check.py)
remain as a second line, for code run without a guard (the raw kernels, tests,
`strata-opt` pipelines without checked-alloc). Not in a parallel loop's chunk function
(the assertion is recorded and the chunk goes on, as before: cf.assert keeps its loop
sequential, so none is emitted there today); outside any guard strata_guard_abort
returns and execution goes on.

Known limit: a chunk that failed leaks the blocks that same chunk had allocated before
in its iteration (a chunk's own buffers are freed within it, so at most one
iteration's).
"""
from __future__ import annotations

__all__ = ["guard_ir", "GUARD_FUNCTIONS", "GUARD_BYTES", "JMPBUF_BYTES", "OOM_REPORT",
           "KERNEL_SITES", "add_allocation_guard", "oom_message", "checked_malloc",
           "checked_bytes"]

# The frame: a jmp_buf (glibc x86-64: 200 bytes, AArch64: 312; Darwin: under 200) in the
# first JMPBUF_BYTES, then the previous guard, the list of blocks, its count and size,
JMPBUF_BYTES = 512
_PREV, _LIST, _COUNT, _CAP = JMPBUF_BYTES, JMPBUF_BYTES + 8, JMPBUF_BYTES + 16, \
    JMPBUF_BYTES + 24
# and a failure recorded for the guarded call: a flag, the bytes, what they were for.
_FAILED, _FAILED_N, _FAILED_WHAT = JMPBUF_BYTES + 32, JMPBUF_BYTES + 40, JMPBUF_BYTES + 48
GUARD_BYTES = JMPBUF_BYTES + 56

OOM_REPORT = "strata_oom_report"
# Public functions (plain C ABI), as POOL_FUNCTIONS.
GUARD_FUNCTIONS = {"strata_alloc": ("ptr", ["i64", "ptr"]),
                   "strata_alloc_or_null": ("ptr", ["i64", "ptr"]),
                   "strata_free": ("void", ["ptr"]),
                   "strata_guard_enter": ("void", ["ptr"]),
                   "strata_guard_exit": ("void", ["ptr"]),
                   "strata_guard_check": ("void", ["ptr"]),
                   "strata_guard_abort": ("void", []),
                   "strata_guard_active": ("i32", []),
                   "strata_test_fail_alloc": ("void", ["i64"])}
# What the kernels allocate (@strata_site_<key>, for the failure message).
KERNEL_SITES = {"gemm": "the packed blocks of a GEMM kernel",
                "gemm_a": "the shared packing of A of a GEMM kernel",
                "conv_image": "the packed image of a convolution kernel",
                "conv_col": "the im2col buffer of a convolution kernel",
                "conv_flat": "the output rows of a convolution kernel",
                "conv_prologue": "the normalized image of a convolution kernel",
                "winograd": "the transformed tiles of a Winograd convolution kernel",
                "attention": "the scores of an attention kernel",
                "attention_kv": "the packed keys and values of an attention kernel"}


def oom_message(nbytes: int, what: str, node: str | None = None) -> str:
    """The text of a failed allocation (the runtime hooks, Python and C, say the same):
    `what` is "node X" or a kernel's buffer, `node` ("node X" or None) the op whose
    kernel or parallel loop it was."""
    if node and not what.startswith("node "):
        what = f"{node} ({what})"
    if nbytes == -2:
        return f"cannot allocate a buffer with a negative dimension for {what}"
    if nbytes < 0:
        return ("out of memory allocating more than 9223372036854775807 bytes for "
                f"{what} (the size overflows)")
    return f"out of memory allocating {nbytes} bytes for {what}"


def guard_ir(triple: str | None = None) -> str:
    """The LLVM IR of the functions above for the kernels' module (which declares malloc,
    free and the pthread key functions already: kernel_ir.declarations, threadpool.py).
    Uses the attribute groups #0 (public) and #1 (internal)."""
    if triple is None:
        import llvmlite.binding as llvm
        triple = llvm.get_process_triple()
    key = "i64" if ("darwin" in triple or "apple" in triple) else "i32"
    sites = "\n".join(
        f'@strata_site_{k} = internal unnamed_addr constant [{len(v) + 1} x i8] '
        f'c"{v}\\00"' for k, v in KERNEL_SITES.items())
    return f"""; Strata checked allocations (see strata/backends/cpu/guard.py)
@strata_guard_key = internal global i64 0, align 8
@strata_guard_key_state = internal global i32 0, align 4
@strata_alloc_countdown = internal global i64 0, align 8
; the guard of the thread whose job the pool runs (threadpool.py sets it)
@strata_pool_owner = internal global ptr null, align 8
declare ptr @realloc(ptr, i64)
declare void @_longjmp(ptr, i32) noreturn
declare void @{OOM_REPORT}(i64, ptr, ptr)
declare i64 @llvm.umax.i64(i64, i64)
declare {{ i64, i1 }} @llvm.smul.with.overflow.i64(i64, i64)

; the pthread key of the current guard: 2 ready, 3 failed (no guards then)
define internal i1 @strata_guard_key_ready() #1 {{
entry:
  %st = load atomic i32, ptr @strata_guard_key_state acquire, align 4
  %ready = icmp eq i32 %st, 2
  br i1 %ready, label %yes, label %slow
yes:
  ret i1 true
slow:
  %c = cmpxchg ptr @strata_guard_key_state, i32 0, i32 1 acq_rel acquire, align 4
  %won = extractvalue {{ i32, i1 }} %c, 1
  br i1 %won, label %create, label %wait
create:
  %rc = call i32 @pthread_key_create(ptr @strata_guard_key, ptr null)
  %good = icmp eq i32 %rc, 0
  %to = select i1 %good, i32 2, i32 3
  store atomic i32 %to, ptr @strata_guard_key_state release, align 4
  ret i1 %good
wait:
  %s = load atomic i32, ptr @strata_guard_key_state acquire, align 4
  %busy = icmp eq i32 %s, 1
  br i1 %busy, label %wait, label %done
done:
  %ok = icmp eq i32 %s, 2
  ret i1 %ok
}}

define internal ptr @strata_guard_current() #1 {{
entry:
  %st = load atomic i32, ptr @strata_guard_key_state acquire, align 4
  %ready = icmp eq i32 %st, 2
  br i1 %ready, label %get, label %none
get:
  %k = load {key}, ptr @strata_guard_key, align 8
  %g = call ptr @pthread_getspecific({key} %k)
  ret ptr %g
none:
  ret ptr null
}}

define void @strata_guard_enter(ptr %g) #0 {{
entry:
  %pprev = getelementptr i8, ptr %g, i64 {_PREV}
  %plist = getelementptr i8, ptr %g, i64 {_LIST}
  %pcount = getelementptr i8, ptr %g, i64 {_COUNT}
  %pcap = getelementptr i8, ptr %g, i64 {_CAP}
  store ptr null, ptr %plist, align 8
  store i64 0, ptr %pcount, align 8
  store i64 0, ptr %pcap, align 8
  %pfailed = getelementptr i8, ptr %g, i64 {_FAILED}
  store i64 0, ptr %pfailed, align 8
  %ok = call i1 @strata_guard_key_ready()
  br i1 %ok, label %set, label %none
set:
  %k = load {key}, ptr @strata_guard_key, align 8
  %prev = call ptr @pthread_getspecific({key} %k)
  store ptr %prev, ptr %pprev, align 8
  %rc = call i32 @pthread_setspecific({key} %k, ptr %g)
  ret void
none:
  store ptr null, ptr %pprev, align 8
  ret void
}}

define void @strata_guard_exit(ptr %g) #0 {{
entry:
  %pprev = getelementptr i8, ptr %g, i64 {_PREV}
  %plist = getelementptr i8, ptr %g, i64 {_LIST}
  %list = load ptr, ptr %plist, align 8
  call void @free(ptr %list)
  store ptr null, ptr %plist, align 8
  %st = load atomic i32, ptr @strata_guard_key_state acquire, align 4
  %ready = icmp eq i32 %st, 2
  br i1 %ready, label %set, label %done
set:
  %prev = load ptr, ptr %pprev, align 8
  %k = load {key}, ptr @strata_guard_key, align 8
  %rc = call i32 @pthread_setspecific({key} %k, ptr %prev)
  br label %done
done:
  ret void
}}

; report; then, under a guard, unwind to it
define internal void @strata_alloc_abort(i64 %n, ptr %site) #1 {{
entry:
  call void @{OOM_REPORT}(i64 %n, ptr %site, ptr null)
  call void @strata_guard_abort()
  ret void
}}

; free the blocks guard %g lists, leave it and jump back to it
define internal void @strata_guard_unwind(ptr %g) #1 {{
entry:
  %plist = getelementptr i8, ptr %g, i64 {_LIST}
  %pcount = getelementptr i8, ptr %g, i64 {_COUNT}
  %list = load ptr, ptr %plist, align 8
  %count = load i64, ptr %pcount, align 8
  %empty = icmp eq i64 %count, 0
  br i1 %empty, label %jump, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pp = getelementptr ptr, ptr %list, i64 %i
  %p = load ptr, ptr %pp, align 8
  call void @free(ptr %p)
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %count
  br i1 %more, label %loop, label %jump
jump:
  store i64 0, ptr %pcount, align 8
  call void @strata_guard_exit(ptr %g)
  call void @_longjmp(ptr %g, i32 1)
  unreachable
}}

; after a failed run-time check (cf.assert, already reported) in generated code on the
; entering thread: under a guard, unwind to it (see [Note: failed checks stop the call])
define void @strata_guard_abort() #0 {{
entry:
  %g = call ptr @strata_guard_current()
  %none = icmp eq ptr %g, null
  br i1 %none, label %back, label %unwind
back:
  ret void
unwind:
  call void @strata_guard_unwind(ptr %g)
  unreachable
}}

; after a parallel loop or a kernel (generated code, the entering thread): when an
; allocation of theirs failed, report it for %node and unwind
define void @strata_guard_check(ptr %node) #0 {{
entry:
  %g = call ptr @strata_guard_current()
  %none = icmp eq ptr %g, null
  br i1 %none, label %ok, label %look
look:
  %pfailed = getelementptr i8, ptr %g, i64 {_FAILED}
  %failed = load atomic i64, ptr %pfailed acquire, align 8
  %bad = icmp ne i64 %failed, 0
  br i1 %bad, label %fail, label %ok, !prof !0
ok:
  ret void
fail:
  %pn = getelementptr i8, ptr %g, i64 {_FAILED_N}
  %pwhat = getelementptr i8, ptr %g, i64 {_FAILED_WHAT}
  %n = load i64, ptr %pn, align 8
  %what = load ptr, ptr %pwhat, align 8
  call void @{OOM_REPORT}(i64 %n, ptr %what, ptr %node)
  call void @strata_guard_unwind(ptr %g)
  unreachable
}}

define ptr @strata_alloc(i64 %n, ptr %site) #0 {{
entry:
  %huge = icmp slt i64 %n, 0
  br i1 %huge, label %fail, label %go
go:
  %p = call ptr @malloc(i64 %n)
  %null = icmp eq ptr %p, null
  br i1 %null, label %nothing, label %track, !prof !0
nothing:
  %zero = icmp eq i64 %n, 0
  br i1 %zero, label %ret_null, label %fail
ret_null:
  ret ptr null
track:
  %g = call ptr @strata_guard_current()
  %unguarded = icmp eq ptr %g, null
  br i1 %unguarded, label %out, label %push
push:
  %plist = getelementptr i8, ptr %g, i64 {_LIST}
  %pcount = getelementptr i8, ptr %g, i64 {_COUNT}
  %pcap = getelementptr i8, ptr %g, i64 {_CAP}
  %count = load i64, ptr %pcount, align 8
  %cap = load i64, ptr %pcap, align 8
  %full = icmp eq i64 %count, %cap
  br i1 %full, label %grow, label %append
grow:
  %twice = shl i64 %cap, 1
  %ncap = call i64 @llvm.umax.i64(i64 %twice, i64 16)
  %old = load ptr, ptr %plist, align 8
  %bytes = shl i64 %ncap, 3
  %new = call ptr @realloc(ptr %old, i64 %bytes)
  %lost = icmp eq ptr %new, null
  br i1 %lost, label %no_room, label %grown
no_room:
  call void @free(ptr %p)
  br label %fail
grown:
  store ptr %new, ptr %plist, align 8
  store i64 %ncap, ptr %pcap, align 8
  br label %append
append:
  %list = load ptr, ptr %plist, align 8
  %slot = getelementptr ptr, ptr %list, i64 %count
  store ptr %p, ptr %slot, align 8
  %count1 = add i64 %count, 1
  store i64 %count1, ptr %pcount, align 8
  br label %out
out:
  ret ptr %p
fail:
  call void @strata_alloc_abort(i64 %n, ptr %site)
  ret ptr null
}}

define void @strata_free(ptr %p) #0 {{
entry:
  %null = icmp eq ptr %p, null
  br i1 %null, label %done, label %find
find:
  %g = call ptr @strata_guard_current()
  %unguarded = icmp eq ptr %g, null
  br i1 %unguarded, label %release, label %search
search:
  %plist = getelementptr i8, ptr %g, i64 {_LIST}
  %pcount = getelementptr i8, ptr %g, i64 {_COUNT}
  %list = load ptr, ptr %plist, align 8
  %count = load i64, ptr %pcount, align 8
  br label %loop
loop:
  %i = phi i64 [ %count, %search ], [ %j, %next ]
  %left = icmp eq i64 %i, 0
  br i1 %left, label %release, label %next
next:
  %j = sub i64 %i, 1
  %pj = getelementptr ptr, ptr %list, i64 %j
  %q = load ptr, ptr %pj, align 8
  %hit = icmp eq ptr %q, %p
  br i1 %hit, label %remove, label %loop
remove:
  %lastn = sub i64 %count, 1
  %plast = getelementptr ptr, ptr %list, i64 %lastn
  %last = load ptr, ptr %plast, align 8
  store ptr %last, ptr %pj, align 8
  store i64 %lastn, ptr %pcount, align 8
  br label %release
release:
  call void @free(ptr %p)
  br label %done
done:
  ret void
}}

define ptr @strata_alloc_or_null(i64 %n, ptr %site) #0 {{
entry:
  %huge = icmp slt i64 %n, 0
  br i1 %huge, label %fail, label %test
test:
  %cd = load atomic i64, ptr @strata_alloc_countdown monotonic, align 8
  %counting = icmp ne i64 %cd, 0
  br i1 %counting, label %count, label %go, !prof !0
count:
  %old = atomicrmw sub ptr @strata_alloc_countdown, i64 1 seq_cst, align 8
  %now = icmp eq i64 %old, 1
  br i1 %now, label %fail, label %go
go:
  %m = call i64 @llvm.umax.i64(i64 %n, i64 1)
  %p = call ptr @malloc(i64 %m)
  %null = icmp eq ptr %p, null
  br i1 %null, label %fail, label %ok, !prof !0
ok:
  ret ptr %p
fail:
  ; recorded in the guard of this thread, else of the pool's job (a worker), for the
  ; entering thread's strata_guard_check; without either (kernels called directly)
  ; reported now
  %mine = call ptr @strata_guard_current()
  %has_mine = icmp ne ptr %mine, null
  br i1 %has_mine, label %mark, label %pool
pool:
  %owner = load atomic ptr, ptr @strata_pool_owner monotonic, align 8
  %has_owner = icmp ne ptr %owner, null
  br i1 %has_owner, label %mark, label %report_now
mark:
  %g = phi ptr [ %mine, %fail ], [ %owner, %pool ]
  %pfailed = getelementptr i8, ptr %g, i64 {_FAILED}
  %c = cmpxchg ptr %pfailed, i64 0, i64 1 acq_rel monotonic, align 8
  %first = extractvalue {{ i64, i1 }} %c, 1
  br i1 %first, label %record, label %done
record:
  %pn = getelementptr i8, ptr %g, i64 {_FAILED_N}
  %pwhat = getelementptr i8, ptr %g, i64 {_FAILED_WHAT}
  store i64 %n, ptr %pn, align 8
  store ptr %site, ptr %pwhat, align 8
  br label %done
report_now:
  call void @{OOM_REPORT}(i64 %n, ptr %site, ptr null)
  br label %done
done:
  ret ptr null
}}

; whether the calling thread runs under a guard (a model's entering thread, not a worker)
define i32 @strata_guard_active() #0 {{
entry:
  %g = call ptr @strata_guard_current()
  %on = icmp ne ptr %g, null
  %r = zext i1 %on to i32
  ret i32 %r
}}

; tests: the n-th next strata_alloc_or_null fails (0: none)
define void @strata_test_fail_alloc(i64 %n) #0 {{
entry:
  store atomic i64 %n, ptr @strata_alloc_countdown seq_cst, align 8
  ret void
}}

{sites}
!0 = !{{!"branch_weights", i32 1, i32 2000}}
"""


def checked_bytes(f, factors) -> str:
    """In a kernel being written: the product of the i64 values `factors`, or -1 where
    it overflows (a size strata_alloc_or_null then reports as such)."""
    acc, bad = factors[0], "false"
    for x in factors[1:]:
        pair = f(f"call {{ i64, i1 }} @llvm.smul.with.overflow.i64(i64 {acc}, i64 {x})")
        acc = f(f"extractvalue {{ i64, i1 }} {pair}, 0")
        bad = f(f"or i1 {bad}, {f(f'extractvalue {{ i64, i1 }} {pair}, 1')}")
    return f(f"select i1 {bad}, i64 -1, i64 {acc}")


def checked_malloc(f, nbytes: str, site: str) -> str:
    """In a kernel being written (kernel_ir.Fn, a void function): a block of `nbytes`
    (an i64 value) from strata_alloc_or_null; when it fails (reported, KERNEL_SITES[site]
    named) the function returns at once: its work is skipped, the caller raises."""
    p = f(f"call ptr @strata_alloc_or_null(i64 {nbytes}, ptr @strata_site_{site})")
    ok, fail = f.label("allocated"), f.label("no_memory")
    f.cbr(f(f"icmp ne ptr {p}, null"), ok, fail)
    f.start(fail)
    f.do("ret void")
    f.start(ok)
    return p


# ---------------------------------------------------------------- the entry points


def add_allocation_guard(module, functions, signatures) -> None:
    """Make the C wrapper `_mlir_ciface_<f>` of each entry point `f` in `functions` run
    under an allocation guard, and check for failures recorded by parallel loops and
    kernels after each call of them (see [Note: failed allocations]); `signatures`
    ({name: strata.runtime.Signature}) say how many bytes of results to zero after a
    failure. Runs after add_thread_scope (target.py): the aborted path restores the
    thread count that the wrapper's first call (strata_threads_enter) saved."""
    from ...conversion.to_llvm.builder import llvm_op
    from ...dialects.llvm import types as LT
    from ...ir import attributes as A
    body = module.regions[0].blocks[0]
    names = {o._props["sym_name"].value for o in body.ops if "sym_name" in o._props}
    decls = [("strata_guard_enter", LT.LLVMFunctionType(LT.void, [LT.ptr]), None),
             ("strata_guard_exit", LT.LLVMFunctionType(LT.void, [LT.ptr]), None),
             ("strata_guard_check", LT.LLVMFunctionType(LT.void, [LT.ptr]), None),
             ("_setjmp", LT.LLVMFunctionType(A.i32, [LT.ptr]),
              A.ArrayAttr([A.StringAttr("returns_twice")]))]
    for name, ftype, passthrough in decls:
        if name in names:
            continue
        f = llvm_op("llvm.func").new(name, ftype, body=False, loc=module.loc)
        if passthrough is not None:
            props = dict(f.properties)
            props["passthrough"] = passthrough
            f.properties = props
        body.append(f)
    _add_checks(body, names, module.loc)
    wrappers = {"_mlir_ciface_" + f: f for f in functions}
    for op in list(body.ops):
        if op.name == "llvm.func" and op._props["sym_name"].value in wrappers and \
                op.regions[0].blocks:
            _guard_wrapper(op, signatures.get(wrappers[op._props["sym_name"].value]))


def _checked_callees():
    """The functions whose allocation failures are recorded, not raised at once: the
    pool's parallel_for and the public kernels."""
    from .kernels import KERNELS
    from .threadpool import POOL_FUNCTIONS
    return {k for k in KERNELS if k not in GUARD_FUNCTIONS and k not in POOL_FUNCTIONS} \
        | {"strata_parallel_for"}


def _add_checks(body, taken, loc) -> None:
    """strata_guard_check(site of the call's node) after every call of the pool or a
    kernel in the functions that run on the entering thread (all but parallel chunks);
    `taken`: the symbol names of the module."""
    from ...conversion.to_llvm.builder import LLVMBuilder, llvm_op
    from ...conversion.to_llvm.memref import CHUNK_ATTR, site_name
    from ...dialects.llvm import types as LT
    from ...ir import attributes as A
    from ...ir.builder import Builder
    callees = _checked_callees()
    sites: dict = {}
    for f in list(body.ops):
        if f.name != "llvm.func" or not f.regions[0].blocks or \
                f.get_attr(CHUNK_ATTR) is not None:
            continue
        for blk in f.regions[0].blocks:
            for o in list(blk.ops):
                callee = o._props.get("callee") if o.name == "llvm.call" else None
                if callee is None or callee.root not in callees:
                    continue
                text = site_name(o)
                name = sites.get(text)
                if name is None:
                    i = len(taken)
                    while f"check_site_{i}" in taken:
                        i += 1
                    name = sites[text] = f"check_site_{i}"
                    taken.add(name)
                    data = text.encode() + b"\0"
                    body.prepend(llvm_op("llvm.mlir.global").new(
                        name, LT.LLVMArrayType(len(data), A.i8),
                        A.StringAttr(data.decode("latin-1")), linkage="private",
                        constant=True, loc=loc))
                b = LLVMBuilder(Builder.before(o.next), o.loc)
                site = b.create("llvm.mlir.addressof", [], [LT.ptr],
                                {"global_name": A.SymbolRefAttr(name)}).results[0]
                b.call("strata_guard_check", [site])


def _result_bytes(sig) -> int:
    """Bytes of the result struct the C wrapper writes through its first argument (0: the
    results are returned by value, or there are none)."""
    if sig is None or not sig.results or \
            (len(sig.results) == 1 and sig.results[0].scalar):
        return 0
    import ctypes
    types = [s.ctype for s in sig.results]
    if len(types) == 1:
        return ctypes.sizeof(types[0])
    fields = [(f"r{i}", t) for i, t in enumerate(types)]
    return ctypes.sizeof(type("R", (ctypes.Structure,), {"_fields_": fields}))


def _guard_wrapper(op, sig) -> None:
    """The guard around the body of the C wrapper `op` (the module docstring's form)."""
    from ...conversion.to_llvm.builder import LLVMBuilder
    from ...dialects.llvm import types as LT
    from ...ir import attributes as A
    from ...ir.builder import Builder
    from ...ir.core import Block
    region = op.regions[0]
    entry = region.blocks[0]
    loc = op.loc
    # after strata_threads_enter (add_thread_scope), whose result the aborted path needs
    enter = next((o for o in entry.ops if o.name == "llvm.call" and
                  o._props.get("callee") is not None and
                  o._props["callee"].root == "strata_threads_enter"), None)
    anchor = enter.next if enter is not None else entry.first
    b = LLVMBuilder(Builder.before(anchor), loc)
    frame = b.alloca(b.index_const(GUARD_BYTES // 8, A.i64), A.i64, 16)
    b.call("strata_guard_enter", [frame])
    ok = b.icmp("eq", b.call("_setjmp", [frame], A.i32), b.const(0, A.i32))
    for blk in region.blocks:
        if blk.last is not None and blk.last.name == "llvm.return":
            LLVMBuilder(Builder.before(blk.last), loc).call("strata_guard_exit", [frame])
    # the rest of the entry block runs when _setjmp returned 0 (the first time)
    run = region.insert_block(1, Block())
    o = anchor
    while o is not None:
        nxt = o.next
        o.detach()
        run.append(o)
        o = nxt
    aborted = region.insert_block(2, Block())
    ab = LLVMBuilder(Builder.at_end(aborted), loc)
    nbytes = _result_bytes(sig)
    if nbytes and entry.args:
        ab.create("llvm.intr.memset", [entry.args[0], ab.const(0, A.i8),
                                       ab.index_const(nbytes, A.i64)], [],
                  {"isVolatile": A.IntegerAttr(0, A.i1)})
    if enter is not None:
        ab.call("strata_threads_exit", [enter.results[0]])
    rtype = op._props["function_type"].value.result
    ab.create("llvm.return", [] if isinstance(rtype, LT.LLVMVoidType) else
              [ab.zero(rtype)], [])
    LLVMBuilder(Builder.at_end(entry), loc).create(
        "llvm.cond_br", [ok], [],
        {"operandSegmentSizes": A.DenseArrayAttr(A.i32, [1, 0, 0])},
        successors=[run, aborted])
