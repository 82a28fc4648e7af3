"""Identical functions merged before LLVM ([Note: identical functions merged],
strata/backends/cpu/jit.py): a function whose text repeats an earlier one's is dropped
and its calls and function pointers name the earlier one; kept names, recursive and
differing functions stay; the merged module computes what the original did; a model
whose nests repeat compiles fewer functions."""
from __future__ import annotations

import ctypes

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")
from strata.backends.cpu.jit import JitModule, _functions, merge_identical_functions  # noqa: E402


def nest(name, k):
    return f"""define i64 @{name}(i64 %n) noinline {{
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %a = phi i64 [0, %entry], [%a1, %loop]
  %t = mul i64 %i, {k}
  %a1 = add i64 %a, %t
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %a1
}}"""


def recursive(name):
    return f"""define i64 @{name}(i64 %n) noinline {{
  %z = icmp eq i64 %n, 0
  br i1 %z, label %end, label %more
more:
  %m = sub i64 %n, 1
  %r = call i64 @{name}(i64 %m)
  %s = add i64 %r, 1
  ret i64 %s
end:
  ret i64 0
}}"""


IR = "; module\n" + "\n\n".join([
    nest("f0", 3), nest("f1", 3), nest("f2", 5), nest("f3", 3),
    "@fp = global ptr @f3",
    recursive("rec"), recursive("rec2"),
    nest("entry", 3),
    """define i64 @main(i64 %n) {
  %a = call i64 @f0(i64 %n)
  %b = call i64 @f1(i64 %n)
  %c = call i64 @f2(i64 %n)
  %p = load ptr, ptr @fp
  %d = call i64 %p(i64 %n)
  %e = call i64 @rec2(i64 %n)
  %g = call i64 @entry(i64 %n)
  %s1 = add i64 %a, %b
  %s2 = add i64 %s1, %c
  %s3 = add i64 %s2, %d
  %s4 = add i64 %s3, %e
  %s5 = add i64 %s4, %g
  ret i64 %s5
}"""]) + "\n"


def test_repeated_functions_are_dropped_and_renamed():
    merged, n = merge_identical_functions(IR, keep=frozenset({"main", "entry"}))
    names = [f[2] for f in _functions(merged)]
    # f1 and f3 repeat f0; f2 differs; @rec / @rec2 call themselves (left alone);
    # @entry is kept by name
    assert n == 2
    assert names == ["f0", "f2", "rec", "rec2", "entry", "main"]
    assert "@f1" not in merged and "@f3" not in merged
    assert "@fp = global ptr @f0" in merged
    assert merged.count("call i64 @f0(") == 2


def test_the_merged_module_computes_the_same():
    results = []
    for text in (IR, merge_identical_functions(IR, keep=frozenset({"main"}))[0]):
        jit = JitModule(text, opt_level=2, jobs=1)
        f = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(jit.address_of("main"))
        results.append([f(n) for n in (1, 7, 100)])
    assert results[0] == results[1]


def test_nothing_to_merge_is_the_same_text():
    text = nest("a", 1) + "\n\n" + nest("b", 2) + "\n"
    assert merge_identical_functions(text) == (text, 0)


def test_a_model_with_repeated_nests_compiles_fewer_functions():
    # the same batch norm + ReLU on two batch-1 images with different channel counts:
    # each channel's loop nest is the same, the batch strides (times index 0) differed
    # (64x64 images: the nests are split over the threads by channel, whose chunk
    # functions repeat; a constant batch norm is a cheap multiply-add, and on 20x20
    # images each nest ran whole, its channel count a loop bound)
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    import strata
    nodes, inits, prev = [], [], "x"
    for i, c in enumerate((8, 8, 16, 16)):
        if i:
            nodes.append(helper.make_node("Concat", [prev, prev], [f"cat{i}"], axis=1)
                         if c != (8, 8, 16, 16)[i - 1] else
                         helper.make_node("Identity", [prev], [f"cat{i}"]))
            prev = f"cat{i}"
        for p in ("s", "b", "m", "v"):
            inits.append(helper.make_tensor(f"{p}{i}", TensorProto.FLOAT, [c],
                                            np.linspace(0.5, 1.5, c).tolist()))
        nodes.append(helper.make_node("BatchNormalization",
                                      [prev, f"s{i}", f"b{i}", f"m{i}", f"v{i}"], [f"bn{i}"]))
        nodes.append(helper.make_node("Relu", [f"bn{i}"], [f"r{i}"]))
        prev = f"r{i}"
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 64, 64])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 16, 64, 64])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    f = strata.compile(model, cache=False)
    x = np.random.default_rng(0).standard_normal((1, 8, 64, 64)).astype(np.float32)
    ref = strata.compile(model, target="interpret")(x)[0]
    np.testing.assert_allclose(f(x)[0], ref, rtol=1e-5, atol=1e-5)
    assert f.timings["merged_functions"] >= 1
