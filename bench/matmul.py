"""Benchmark: Strata's fp32 GEMM kernels (strata/backends/cpu/kernels.py) vs NumPy
(OpenBLAS) and onnxruntime's MatMul, against the machine's peak.

    python bench/matmul.py [--shapes square,model,conv,batched,convs] [--time 0.3]
                           [--tiles model|default]

Shapes are M x K x N (C[M,N] = A[M,K] . B[K,N]); `nt` rows take B transposed (an ONNX
Gemm with transB=1 / linalg.matmul_transpose_b), `bmm` rows a batch of products. The
`convs` table runs ResNet-18's convolutions (batch 1, NCHW) through
strata_conv2d_nchw_packed_f32 (the filter packed at compile time; 1x1 stride-1:
strata_conv2d_nchw_f32; on the padded image: compiled models pad in an op of their own),
for 3x3 stride-1 ones also strata_conv2d_winograd_f32 (`wino`, one and two threads, in
effective GFLOP/s: the direct product's flops / time; with the filter layout and tile
size the CPU target picks; what it runs for them), and onnxruntime's Conv (one thread).
Columns, in GFLOP/s (2*M*N*K / time):
  ours 1t, ours 2t   strata_sgemm_f32 (or _nt / _batched) with strata_set_num_threads
           1 / 2 (the kernels split C between pthreads from 2M multiply-adds up)
  np 1t, np 2t   numpy.matmul with OpenBLAS limited to 1 / 2 threads (threadpoolctl)
  ort 1t, ort 2t onnxruntime, a one-MatMul model with B as an initializer (weights),
           intra-op threads 1 / 2
Our kernels run with the tile word (blocking and thread split) the cost model chooses
for each shape and thread count, as compiled models do (strata/backends/cpu/
cost_model.py); --tiles default passes 0 (the kernels' built-in constants).
The time of each is the minimum over repeats lasting --time seconds: the machine is
shared, and the minimum is the least disturbed run; one-thread columns count the CPU
time of the calling thread (time.thread_time: preemption by other processes excluded),
two-thread columns wall-clock time (they suffer on a busy machine). The peak line gives
the theoretical peak from /proc/cpuinfo (cores x 2 FMA units x vector width x 2 flops x
nominal GHz) and the FMA throughput measured on one core (a register-only FMA loop: the
real clock).
"""
from __future__ import annotations

import argparse
import ctypes
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

SHAPES = {
    "square": [(256, 256, 256), (512, 512, 512), (1024, 1024, 1024)],
    # MLP (784-1024-1024) at batch 1 / 64, BERT-base-ish projections at sequence 128
    "model": [(1, 784, 1024), (64, 784, 1024), (64, 1024, 1024), (128, 384, 384),
              (128, 384, 1536), (1, 784, 1024, "nt"), (64, 1024, 1024, "nt"),
              (128, 384, 1536, "nt")],
    # ResNet-18 convolutions as im2col GEMMs: C_out x (C_in*kh*kw) x (OH*OW)
    "conv": [(64, 147, 12544), (64, 576, 3136), (128, 1152, 784), (256, 2304, 196),
             (512, 4608, 49), (128, 64, 3136)],
    # attention: 12 heads of (128 x 64) . (64 x 128) and (128 x 128) . (128 x 64)
    "batched": [(128, 64, 128, "bmm12"), (128, 128, 64, "bmm12")],
}
# Convolutions (NCHW, batch 1), ResNet-18's: (C, H, W, F, K, stride, pad)
CONVS = [(3, 224, 224, 64, 7, 2, 3), (64, 56, 56, 64, 3, 1, 1), (64, 56, 56, 128, 3, 2, 1),
         (64, 56, 56, 128, 1, 2, 0), (128, 28, 28, 128, 3, 1, 1), (256, 14, 14, 256, 3, 1, 1),
         (512, 7, 7, 512, 3, 1, 1), (256, 14, 14, 1024, 1, 1, 0)]


def cpu_info():
    """(model name, cores, nominal GHz, vector width in floats, how it was read)."""
    text = open("/proc/cpuinfo").read()
    blocks = [b for b in text.split("\n\n") if b.strip()]
    first = dict(line.split(":", 1) for line in blocks[0].splitlines() if ":" in line)
    first = {k.strip(): v.strip() for k, v in first.items()}
    flags = set(first.get("flags", "").split())
    cores = len(blocks)
    ghz = float(first.get("cpu MHz", "0")) / 1000
    width = 16 if "avx512f" in flags else 8 if {"avx2", "fma"} <= flags else 4
    return first.get("model name", "?"), cores, ghz, width


def measured_fma_peak(seconds: float) -> float:
    """GFLOP/s of independent FMAs on registers on one core (llvmlite JIT)."""
    import llvmlite.binding as llvm
    from strata.backends.cpu.kernels import host_isa
    isa = host_isa()
    W, V = isa.width, f"<{isa.width} x float>"
    n = 12
    body = [f"  %a{i} = phi {V} [ zeroinitializer, %entry ], [ %b{i}, %loop ]" for i in range(n)]
    body += [f"  %b{i} = call {V} @llvm.fma.v{W}f32({V} %a{i}, {V} %x, {V} %x)"
             for i in range(n)]
    # every chain feeds the result (else the code generator drops all but one)
    tail = [f"  %s{i} = fadd {V} %s{i - 1}, %b{i}" for i in range(1, n)]
    ir = f"""declare {V} @llvm.fma.v{W}f32({V}, {V}, {V})
define float @fmaloop(i64 %n, float %s) {{
entry:
  %x0 = insertelement {V} poison, float %s, i64 0
  %x = shufflevector {V} %x0, {V} poison, <{W} x i32> zeroinitializer
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
{chr(10).join(body)}
  %j = add i64 %i, 1
  %c = icmp slt i64 %j, %n
  br i1 %c, label %loop, label %out
out:
  %s0 = fadd {V} %b0, zeroinitializer
{chr(10).join(tail)}
  %r = extractelement {V} %s{n - 1}, i64 0
  ret float %r
}}"""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    mod = llvm.parse_assembly(ir)
    tm = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3)
    from strata.backends.cpu.jit import mcjit_engine
    eng = mcjit_engine(tm, mod)   # [Note: a JIT'd object's sections kept together]
    eng.finalize_object()
    fn = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_int64, ctypes.c_float)(
        eng.get_function_address("fmaloop"))
    iters = 2_000_000
    t = best(lambda: fn(iters, 0.5), seconds)
    return iters * n * W * 2 / t / 1e9


def best(f, seconds: float, threads: int = 1) -> float:
    """The minimum time of f() over repeats lasting about `seconds` (after one warm-up):
    CPU time of this thread when f runs on it alone (time lost to other processes on a
    busy machine does not count), else wall-clock time."""
    clock = time.thread_time if threads == 1 else time.perf_counter
    f()
    times, t_end = [], time.perf_counter() + seconds
    while len(times) < 3 or (time.perf_counter() < t_end and len(times) < 1000):
        t0 = clock()
        f()
        times.append(clock() - t0)
    return min(times)


def ort_session(a_shape, b, threads):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    out_shape = list(a_shape[:-1]) + [b.shape[-1]]
    g = helper.make_graph(
        [helper.make_node("MatMul", ["A", "B"], ["C"])], "mm",
        [helper.make_tensor_value_info("A", TensorProto.FLOAT, list(a_shape))],
        [helper.make_tensor_value_info("C", TensorProto.FLOAT, out_shape)],
        [numpy_helper.from_array(b, "B")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])


TILES = "model"


def tile(lib, kernel: str, sizes: dict, threads: int) -> int:
    """The tile word of a call (see --tiles)."""
    if TILES == "default":
        return 0
    from strata.backends.cpu.cost_model import choose_tile, host_caches
    return choose_tile(kernel, sizes, threads, lib.isa, host_caches())


def row(lib, shape, seconds, use_ort):
    from threadpoolctl import threadpool_limits
    M, K, N = shape[:3]
    kind = shape[3] if len(shape) > 3 else ""
    batch = int(kind[3:]) if kind.startswith("bmm") else 1
    rng = np.random.default_rng(0)
    A = rng.standard_normal((batch, M, K), np.float32)
    B = rng.standard_normal((batch, K, N), np.float32)
    Bt = np.ascontiguousarray(B.transpose(0, 2, 1))
    C = np.empty((batch, M, N), np.float32)
    flop = 2.0 * batch * M * N * K
    a, b, bt, c = A.ctypes.data, B.ctypes.data, Bt.ctypes.data, C.ctypes.data
    kernel = "strata_sgemm_batched_f32" if batch > 1 else \
        "strata_sgemm_nt_f32" if kind == "nt" else "strata_sgemm_f32"
    sizes = {"batch": batch, "M": M, "N": N, "K": K}
    word = [tile(lib, kernel, sizes, 1)]

    def ours():
        if batch > 1:
            lib.sgemm_batched(batch, M, N, K, a, K, M * K, b, N, K * N, c, N, M * N, 0,
                              word[0])
        elif kind == "nt":
            lib.sgemm_nt(M, N, K, a, K, bt, K, c, N, 0, word[0])
        else:
            lib.sgemm(M, N, K, a, K, b, N, c, N, 0, word[0])

    ours()
    ref = np.matmul(A.astype(np.float64), B.astype(np.float64))
    err = float(np.abs(C - ref).max() / np.abs(ref).max())
    Am, Bm = (A[0], B[0]) if batch == 1 else (A, B)
    Bn = Bt[0].T if kind == "nt" else Bm   # numpy on the transposed view: what it gets
    out = {}
    for t in (1, 2):
        lib.set_num_threads(t)
        word[0] = tile(lib, kernel, sizes, t)
        out[f"ours {t}t"] = flop / best(ours, seconds, t)
    for t in (1, 2):
        with threadpool_limits(t):
            out[f"np {t}t"] = flop / best(lambda: np.matmul(Am, Bn), seconds, t)
    if use_ort:
        for t in (1, 2):
            s = ort_session(Am.shape, np.ascontiguousarray(Bm), t)
            feed = {"A": Am}
            out[f"ort {t}t"] = flop / best(lambda: s.run(None, feed), seconds, t)
    return {k: v / 1e9 for k, v in out.items()}, err


def conv_row(lib, shape, seconds, use_ort):
    """strata_conv2d_nchw_f32 given the padding (it reads the unpadded image, as the
    compiled model calls it) vs onnxruntime's Conv with pads, one thread each."""
    C, H, W, F, k, s, pad = shape
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, C, H, W), np.float32)
    w = rng.standard_normal((F, C, k, k), np.float32)
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    Hp, Wp = H + 2 * pad, W + 2 * pad
    OH, OW = (Hp - k) // s + 1, (Wp - k) // s + 1
    out = np.empty((1, F, OH, OW), np.float32)
    flop = 2.0 * F * OH * OW * C * k * k
    # what the CPU target runs: the filter packed in MR-row panels at compile time (but
    # for a 1x1 stride-1 window, a GEMM on the filter in place)
    packed = not (k == 1 and s == 1)
    kernel = "strata_conv2d_nchw_packed_f32" if packed else "strata_conv2d_nchw_f32"
    word = tile(lib, kernel, dict(N=1, C=C, H=H, W=W, F=F, KH=k, KW=k, OH=OH, OW=OW, sh=s,
                                  sw=s, dh=1, dw=1, pt=pad, pl=pad), 1)
    if packed:
        from strata.conversion.cpu_kernel_abi import pack_a_panels
        filt = pack_a_panels(w.reshape(F, -1), lib.isa.mr)
    run = lib.conv2d_nchw_packed if packed else lib.conv2d_nchw

    def ours():
        run(1, C, H, W, F, k, k, OH, OW, s, s, 1, 1, pad, pad, x.ctypes.data, C * H * W,
            H * W, W, (filt if packed else w).ctypes.data, out.ctypes.data, F * OH * OW, 0,
            word)
    lib.set_num_threads(1)
    res = {"ours": flop / best(ours, seconds) / 1e9}
    if k == 3 and s == 1 and C >= 8 and F >= 8:
        # what the CPU target runs for this shape (strata-linalg-conv-to-winograd):
        # Winograd, in effective GFLOP/s (the direct product's flops / time), U^T packed
        # in NR-filter panels for the transposed products and F(4x4, 3x3) on large
        # images where it picks them
        from strata.backends.cpu.kernels import WINOGRAD_TILE4_MIN_TILES
        from strata.backends.cpu.kernels_winograd import PACKED_U, TILE4, winograd_filter
        from strata.conversion.conv_to_winograd import _large_tiles, _packed_filters
        nr = lib.isa.nr if _packed_filters(w.shape, lib.isa.nr) else 0
        tile4 = _large_tiles(out.shape, WINOGRAD_TILE4_MIN_TILES)
        u = winograd_filter(w, nr, 4 if tile4 else 2)
        flags = (PACKED_U if nr else 0) | (TILE4 if tile4 else 0)
        wout = np.empty_like(out)

        def wino():
            lib.conv2d_winograd(1, C, Hp, Wp, F, OH, OW, 0, 0, xp.ctypes.data, C * Hp * Wp,
                                Hp * Wp, Wp, u.ctypes.data, wout.ctypes.data, F * OH * OW,
                                OH * OW, OW, 0, 0, 0, 0, 0, 0, flags)
        res["wino"] = flop / best(wino, seconds) / 1e9
        lib.set_num_threads(2)
        res["wino 2t"] = flop / best(wino, seconds, 2) / 1e9
        lib.set_num_threads(1)
        wino()
        ours()
        res["wino err"] = float(np.abs(wout - out).max() / np.abs(out).max())
    if use_ort:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper
        g = helper.make_graph(
            [helper.make_node("Conv", ["x", "w"], ["y"], pads=[pad] * 4, strides=[s, s])],
            "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(out.shape))],
            [numpy_helper.from_array(w, "w")])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        sess = ort.InferenceSession(m.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
        res["ort 1t"] = flop / best(lambda: sess.run(None, {"x": x}), seconds) / 1e9
        ref = sess.run(None, {"x": x})[0]
        ours()
        res["err"] = float(np.abs(out - ref).max() / np.abs(ref).max())
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default="square,model,conv,batched,convs")
    ap.add_argument("--time", type=float, default=0.3, help="seconds of repeats per cell")
    ap.add_argument("--no-ort", action="store_true")
    ap.add_argument("--tiles", choices=("model", "default"), default="model",
                    help="our kernels' tile words: the cost model's, or 0 (the defaults)")
    args = ap.parse_args(argv)
    global TILES
    TILES = args.tiles
    from strata.backends.cpu.kernels import load_kernels
    t0 = time.perf_counter()
    lib = load_kernels()
    jit_s = time.perf_counter() - t0
    isa = lib.isa
    name, cores, ghz, width = cpu_info()
    peak = cores * 2 * width * 2 * ghz
    fma1 = measured_fma_peak(args.time)
    print(f"CPU: {name}, {cores} cores at {ghz:.2f} GHz nominal, {width} floats per vector")
    print(f"theoretical peak: {cores} cores x 2 FMA units x {width} lanes x 2 flops x "
          f"{ghz:.2f} GHz = {peak:.0f} GFLOP/s ({peak / cores:.0f} per core)")
    print(f"measured FMA throughput, one core: {fma1:.0f} GFLOP/s "
          f"(= {fma1 / (2 * width * 2):.2f} GHz effective clock)")
    print(f"kernels: {isa.name}, MR x NR = {isa.mr} x {isa.nr}, KC={isa.kc} MC={isa.mc} "
          f"NC={isa.nc}; JIT {jit_s:.2f} s; tiles: {args.tiles}")
    cols = ["ours 1t", "ours 2t", "np 1t", "np 2t"] + ([] if args.no_ort else
                                                        ["ort 1t", "ort 2t"])
    print()
    print(f"{'M x K x N':<22}" + "".join(f"{c:>9}" for c in cols) + "   ours/np1  rel.err")
    groups = args.shapes.split(",")
    for group in groups:
        if group == "convs":
            continue
        for shape in SHAPES[group]:
            res, err = row(lib, shape, args.time, not args.no_ort)
            label = "x".join(map(str, shape[:3])) + (f" {shape[3]}" if len(shape) > 3 else "")
            print(f"{label:<22}" + "".join(f"{res[c]:9.1f}" for c in cols)
                  + f"   {res['ours 1t'] / res['np 1t']:8.2f}  {err:.1e}", flush=True)
    if "convs" in groups:
        print()
        print(f"{'conv C,HxW,F,k,s,pad':<26}{'ours':>9}{'wino':>9}{'wino 2t':>9}" +
              ("" if args.no_ort else f"{'ort 1t':>9}  best/ort  rel.err"))
        for shape in CONVS:
            r = conv_row(lib, shape, args.time, not args.no_ort)
            C, H, W, F, k, s, pad = shape
            label = f"{C},{H}x{W},{F},{k},{s},{pad}"
            wino = "".join(f"{r[c]:9.1f}" if c in r else f"{'-':>9}" for c in ("wino", "wino 2t"))
            ours = max(r["ours"], r.get("wino", 0))
            tail = "" if args.no_ort else \
                f"{r['ort 1t']:9.1f}  {ours / r['ort 1t']:8.2f}  {r['err']:.1e}"
            print(f"{label:<26}{r['ours']:9.1f}{wino}" + tail, flush=True)


if __name__ == "__main__":
    main()
