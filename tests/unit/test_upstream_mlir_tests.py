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
