"""tools/upstream_mlir_tests.py: the runner of upstream MLIR's test files (with iree-opt
as the judge) counts valid, invalid, diagnostics and canonicalize chunks, and says how
to get the files when they are absent."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "upstream_mlir_tests.py")


def _run(*args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_missing_files_explain_how_to_get_them(tmp_path):
    p = _run("--dir", str(tmp_path / "nowhere"))
    assert p.returncode == 2
    assert "no upstream MLIR test files" in p.stderr
    assert "llvm-project" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_counts_each_kind_of_chunk(tmp_path):
    (tmp_path / "Dialect").mkdir()
    (tmp_path / "Dialect" / "mine.mlir").write_text(
        "// RUN: mlir-opt -allow-unregistered-dialect %s -split-input-file "
        "-verify-diagnostics -canonicalize\n\n"
        "func.func @ok(%a: i32) -> i32 {\n"
        "  %c0 = arith.constant 0 : i32\n"
        "  %s = arith.addi %a, %c0 : i32\n"
        "  return %s : i32\n}\n\n"
        "// -----\n\n"
        "// expected-error @+1 {{invalid dimension}}\n"
        "func.func private @big(tensor<9223372036854775808xf32>)\n\n"
        "// -----\n\n"
        "func.func @f() {\n"
        "  // expected-error @+1 {{reference to undefined function 'gone'}}\n"
        "  %0 = func.constant @gone : () -> ()\n"
        "  return\n}\n")
    p = _run("--dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "valid 1/1  invalid 2/2  diagnostics 2/2  canonicalize 1/1" in p.stdout, p.stdout


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_canonicalize_inside_a_pass_pipeline_is_counted(tmp_path):
    # As ControlFlow/canonicalize.mlir runs it: canonicalize{...} nested in -pass-pipeline.
    (tmp_path / "canon.mlir").write_text(
        "// RUN: mlir-opt %s -pass-pipeline='builtin.module(func.func(canonicalize"
        "{test-convergence}))' -split-input-file | FileCheck %s\n\n"
        "func.func @f() -> i32 {\n"
        "  %c = arith.constant 1 : i32\n"
        "  cf.br ^bb1(%c : i32)\n"
        "^bb1(%x : i32):\n"
        "  return %x : i32\n}\n")
    p = _run("--dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "canonicalize 1/1" in p.stdout, p.stdout


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_chunks_the_judge_cannot_judge(tmp_path):
    # Upstream's `test` dialect (iree-opt lacks it): a generic test op is judged as an
    # unregistered op by both tools; a custom-form one cannot be judged at all. An op of
    # a dialect Strata lacks that iree-opt rejects (affine.apply) is out of scope too.
    (tmp_path / "t.mlir").write_text(
        "// RUN: mlir-opt %s -split-input-file -verify-diagnostics\n\n"
        "func.func @f() {\n"
        "  %0 = \"test.op\"() : () -> i32\n"
        "  return\n}\n\n"
        "// -----\n\n"
        "func.func @g() {\n"
        "  test.custom_thing\n"
        "  return\n}\n\n"
        "// -----\n\n"
        "func.func @h() {\n"
        "  // expected-error @+1 {{unregistered operation 'func.nope' found in dialect "
        "('func') that does not allow unknown operations}}\n"
        "  \"func.nope\"() : () -> ()\n"
        "  return\n}\n")
    (tmp_path / "u.mlir").write_text(
        "// RUN: mlir-opt -allow-unregistered-dialect %s -split-input-file\n\n"
        "func.func @f(%i: index) {\n"
        "  %x = \"affine.apply\"(%i) {} : (index) -> index\n"
        "  return\n}\n")
    p = _run("--dir", str(tmp_path), "--list-out-of-scope")
    assert p.returncode == 0, p.stderr
    assert "t.mlir  valid 1/1  invalid 1/1  diagnostics 1/1  canonicalize 0/0  " \
           "(out of scope: 1)" in p.stdout, p.stdout
    assert "u.mlir  valid 0/0  invalid 0/0  diagnostics 0/0  canonicalize 0/0  " \
           "(out of scope: 1)" in p.stdout, p.stdout
    assert "Dialect `test' not found" in p.stdout and "'affine.apply' op" in p.stdout


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_printing_flags_of_the_run_line_are_used(tmp_path):
    # Printed with locations, as the first RUN line asks, by both tools.
    import importlib.util
    spec = importlib.util.spec_from_file_location("upstream_mlir_tests", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    seen = []
    real = mod.Iree(shutil.which("iree-opt"))

    def judge(path, *flags):
        seen.append(flags)
        return real(path, *flags)

    f = tmp_path / "loc.mlir"
    f.write_text(
        "// RUN: mlir-opt %s -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s\n"
        "func.func private @f() loc(fused<\"x\">[\"a\":1:2, callsite(\"b\" at \"c\":3:4)])\n")
    t = mod.check_file(str(f), judge, str(tmp_path), "loc.mlir")
    assert (t.passed["valid"], t.total["valid"]) == (1, 1), t.failures
    assert seen and all("--mlir-print-debuginfo" in fl and "--mlir-print-local-scope" in fl
                        for fl in seen)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_chunks_of_a_file_read_whole_are_judged_one_by_one(tmp_path):
    # As Linalg/roundtrip.mlir: `// -----` separators, no -split-input-file; one chunk
    # Strata rejects (an unknown op) costs that chunk, not the file.
    (tmp_path / "rt.mlir").write_text(
        "// RUN: mlir-opt %s | mlir-opt | FileCheck %s\n\n"
        "func.func @a(%x: i32) -> i32 {\n  return %x : i32\n}\n\n"
        "// -----\n\n"
        "func.func @b(%x: f32) -> f32 {\n  %y = math.absf %x : f32\n  return %y : f32\n}\n")
    p = _run("--dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "valid 2/2" in p.stdout, p.stdout


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt as the judge")
def test_canonical_form_with_foreign_ops_is_out_of_scope(tmp_path):
    # upstream's FoldFillWithPad sizes a dynamically padded fill with affine.apply, an op
    # Strata does not have: the canonicalize check of that chunk is out of scope.
    (tmp_path / "canon.mlir").write_text(
        "// RUN: mlir-opt %s -canonicalize | FileCheck %s\n\n"
        "func.func @f(%e: tensor<8xf32>, %l: index) -> tensor<?xf32> {\n"
        "  %z = arith.constant 0.0 : f32\n"
        "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>\n"
        "  %p = tensor.pad %f low[%l] high[1] {\n"
        "  ^bb0(%i: index):\n"
        "    tensor.yield %z : f32\n"
        "  } : tensor<8xf32> to tensor<?xf32>\n"
        "  return %p : tensor<?xf32>\n}\n")
    p = _run("--dir", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "canonicalize 0/0" in p.stdout and "(out of scope: 1)" in p.stdout, p.stdout


def test_dialect_types_inside_shaped_types_are_out_of_scope():
    # `!quant.uniform` as a tensor's element type (tosa's quantized ops): Strata has no
    # quant dialect, so such a chunk is not Strata's to judge.
    sys.path.insert(0, os.path.dirname(TOOL))
    try:
        import upstream_mlir_tests as U
    finally:
        sys.path.pop(0)
    known = {"builtin", "func", "tosa"}
    for t in ("tensor<2x14x!quant.uniform<i8:f32, 1.0>>", "tensor<?x!quant.any<i8:f32>>",
              "tensor<*x!quant.uniform<i8:f32, 1.0>>", "tensor<!quant.uniform<i8:f32, 1.0>>"):
        generic = f'%0 = "tosa.abs"(%a) : ({t}) -> {t}'
        assert U.out_of_scope(generic, known, False) == {"quant"}, t
    # a dialect Strata has, inside a tensor, stays in scope
    assert U.out_of_scope('%0 = "tosa.abs"(%a) : (tensor<2x!tosa.shape<2>>) -> ()', known,
                          False) == set()
