"""strata-opt as a command: every flag, and bad input of every kind.

Bad input must give a located diagnostic on stderr (`file:line:col: error: ...`), exit
code 1 and no Python traceback. Most cases run `strata.tools.opt.main` in-process (fast);
a few run the real command in a subprocess (stdin, exit codes, the installed script).
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from strata.tools import opt

SIMPLE = """func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
"""

LOCATED = re.compile(r"^(.*):(\d+):(\d+): error: ", re.M)


class Result:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err

    def __repr__(self):
        return f"<rc={self.rc}\n--- stdout:\n{self.out}\n--- stderr:\n{self.err}>"


def run(args, stdin="", tmp_path=None, text=None, name="input.mlir"):
    """Run strata-opt in-process; `text` is written to a file named `name` and passed
    as the input (else stdin is used)."""
    argv = list(args)
    if text is not None:
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        argv.insert(0, str(path))
    old = sys.stdin, sys.stdout, sys.stderr
    data = stdin.encode() if isinstance(stdin, str) else stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        rc = opt.main(argv)
        return Result(rc, sys.stdout.getvalue(), sys.stderr.getvalue())
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


def assert_located_error(r, line=None, message=None):
    assert r.rc == 1, r
    assert "Traceback" not in r.err and "internal error" not in r.err, r
    m = LOCATED.search(r.err)
    assert m is not None, f"no file:line:col diagnostic: {r}"
    if line is not None:
        assert int(m.group(2)) == line, r
    if message is not None:
        assert message in r.err, r


# ---------------------------------------------------------------------------- flags


def test_prints_custom_form(tmp_path):
    r = run([], tmp_path=tmp_path, text=SIMPLE)
    assert r.rc == 0, r
    assert r.out == ("module {\n  func.func @f(%arg0: i32) -> i32 {\n"
                     "    %0 = arith.addi %arg0, %arg0 : i32\n    return %0 : i32\n  }\n}\n\n")
    assert r.err == ""


def test_stdin_is_the_default_input():
    r = run([], stdin=SIMPLE)
    assert r.rc == 0, r
    assert "func.func @f(%arg0: i32) -> i32" in r.out
    r = run(["-"], stdin=SIMPLE)
    assert r.rc == 0 and "arith.addi" in r.out, r


def test_stdin_diagnostics_name_the_buffer():
    r = run([], stdin="func.func @f() {\n  bogus\n}\n")
    assert_located_error(r, line=2)
    assert r.err.startswith("<stdin>:2:3: error: custom op 'bogus' is unknown"), r


def test_output_file(tmp_path):
    out = tmp_path / "out.mlir"
    r = run(["-o", str(out)], tmp_path=tmp_path, text=SIMPLE)
    assert r.rc == 0 and r.out == "", r
    assert out.read_text().startswith("module {\n  func.func @f")


def test_output_file_that_cannot_be_written(tmp_path):
    r = run(["-o", str(tmp_path / "no" / "such" / "dir.mlir")], tmp_path=tmp_path,
            text=SIMPLE)
    assert r.rc == 1 and "could not write output file" in r.err, r
    assert "Traceback" not in r.err


def test_missing_input_file(tmp_path):
    r = run([str(tmp_path / "missing.mlir")])
    assert r.rc == 1 and "could not open input file" in r.err, r
    assert "Traceback" not in r.err


def test_generic_form(tmp_path):
    r = run(["--mlir-print-op-generic"], tmp_path=tmp_path, text=SIMPLE)
    assert r.rc == 0, r
    assert r.out.startswith('"builtin.module"() ({\n  "func.func"() <{function_type = '
                            '(i32) -> i32, sym_name = "f"}> ({\n  ^bb0(%arg0: i32):'), r
    assert '"func.return"(%0) : (i32) -> ()' in r.out


def test_single_dash_flags_work_too(tmp_path):
    a = run(["-mlir-print-op-generic"], tmp_path=tmp_path, text=SIMPLE)
    b = run(["--mlir-print-op-generic"], tmp_path=tmp_path, text=SIMPLE)
    assert a.rc == 0 and a.out == b.out


def test_debuginfo_prints_location_aliases(tmp_path):
    r = run(["--mlir-print-debuginfo"], tmp_path=tmp_path, text=SIMPLE)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[-1] == "" or lines[-1].startswith("#loc")
    assert "    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc" in r.out
    assert re.search(r'^#loc = loc\(".*input.mlir":0:0\)$', r.out, re.M), r
    assert re.search(r'^#loc\d+ = loc\(".*input.mlir":2:8\)$', r.out, re.M), r


def test_debuginfo_with_local_scope_prints_locations_inline(tmp_path):
    r = run(["--mlir-print-debuginfo", "--mlir-print-local-scope"], tmp_path=tmp_path,
            text=SIMPLE)
    assert r.rc == 0, r
    assert "#loc" not in r.out
    assert re.search(r'arith.addi %arg0, %arg0 : i32 loc\(".*input.mlir":2:8\)', r.out), r
    assert r.out.endswith('} loc("' + str(tmp_path / "input.mlir") + '":0:0)\n')


def test_local_scope_prints_no_aliases(tmp_path):
    text = '#map = affine_map<(d0) -> (d0 + 1)>\nfunc.func private @f(memref<4xf32, #map>)\n'
    r = run([], tmp_path=tmp_path, text=text)
    assert r.out.startswith("#map = affine_map<(d0) -> (d0 + 1)>\nmodule {\n"), r
    assert "memref<4xf32, #map>" in r.out
    r = run(["--mlir-print-local-scope"], tmp_path=tmp_path, text=text)
    assert r.out == ("module {\n  func.func private @f(memref<4xf32, affine_map<(d0) -> "
                     "(d0 + 1)>>)\n}\n"), r


def test_elide_large_elements(tmp_path):
    text = ('func.func @f() -> tensor<3xi32> {\n'
            '  %0 = arith.constant dense<[1, 2, 3]> : tensor<3xi32>\n'
            '  return %0 : tensor<3xi32>\n}\n')
    r = run(["--mlir-elide-elementsattrs-if-larger=2"], tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert "dense_resource<__elided__> : tensor<3xi32>" in r.out, r
    r = run(["--mlir-elide-elementsattrs-if-larger=3"], tmp_path=tmp_path, text=text)
    assert "dense<[1, 2, 3]> : tensor<3xi32>" in r.out, r


def test_allow_unregistered_dialect(tmp_path):
    text = '%0 = "mystery.op"() {x = #mystery.attr<1>} : () -> !mystery.type\n'
    r = run([], tmp_path=tmp_path, text=text)
    assert_located_error(r, line=1)
    r = run(["--allow-unregistered-dialect"], tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert '%0 = "mystery.op"() {x = #mystery.attr<1>} : () -> !mystery.type' in r.out


def test_show_dialects():
    r = run(["--show-dialects"])
    assert r.rc == 0, r
    m = re.match(r"Available Dialects: (.*)\n", r.out)
    assert m, r
    names = m.group(1).split(", ")
    assert names == sorted(names)
    for d in ("arith", "builtin", "func"):
        assert d in names


def test_split_input_file_joins_outputs_with_markers(tmp_path):
    text = "func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n"
    r = run(["--split-input-file"], tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert r.out == ("module {\n  func.func @a() {\n    return\n  }\n}\n\n// -----\n"
                     "module {\n  func.func @b() {\n    return\n  }\n}\n\n"), r


def test_split_input_file_keeps_failed_chunks_in_place(tmp_path):
    text = ("func.func @a() {\n  return\n}\n// -----\nbogus\n// -----\n"
            "func.func @c() {\n  return\n}\n")
    r = run(["--split-input-file"], tmp_path=tmp_path, text=text)
    assert r.rc == 1, r
    assert r.out.count("// -----\n") == 2
    assert "// -----\n// -----\nmodule {\n  func.func @c()" in r.out
    # The error is located in the whole file, not in the chunk.
    assert re.search(r"input.mlir:5:1: error: custom op 'bogus' is unknown", r.err), r


def test_split_input_file_custom_markers(tmp_path):
    text = "func.func @a() {\n  return\n}\n// SPLIT\nfunc.func @b() {\n  return\n}\n"
    r = run(["--split-input-file=// SPLIT", "--output-split-marker=// NEXT"],
            tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert "}\n\n// NEXT\nmodule {" in r.out, r


def test_split_near_miss_warns(tmp_path):
    text = "func.func @a() {\n  return\n}\n// ----\nfunc.func @b() {\n  return\n}\n"
    r = run(["--split-input-file"], tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert "input.mlir:4:7: warning: near miss with file split marker" in r.err, r
    assert "// -----" not in r.out


def test_split_chunks_report_original_lines_and_columns(tmp_path):
    text = "func.func @a() {\n  return\n}\n// -----\n\n\n  %0 = bad\n"
    r = run(["--split-input-file"], tmp_path=tmp_path, text=text)
    assert re.search(r"input.mlir:7:8: error: custom op 'bad' is unknown", r.err), r


def test_verify_diagnostics_success_and_failure(tmp_path):
    ok = ("// expected-error @+1 {{custom op 'bogus' is unknown}}\nbogus\n")
    r = run(["--verify-diagnostics"], tmp_path=tmp_path, text=ok)
    assert r.rc == 0, r
    assert r.err == "", r
    bad = "// expected-error @+1 {{something else}}\nbogus\n"
    r = run(["--verify-diagnostics"], tmp_path=tmp_path, text=bad)
    assert r.rc == 1, r
    assert "error: unexpected error: custom op 'bogus' is unknown" in r.err, r
    assert 'error: expected error "something else" was not produced' in r.err, r


def test_verify_diagnostics_unmet_expectation_alone_fails(tmp_path):
    text = "// expected-error @+1 {{never}}\nfunc.func @f() {\n  return\n}\n"
    r = run(["--verify-diagnostics"], tmp_path=tmp_path, text=text)
    assert r.rc == 1, r
    assert 'input.mlir:1:4: error: expected error "never" was not produced' in r.err, r


def test_verify_diagnostics_warnings_and_remarks():
    """Severities other than error, matched in-process (no op emits them from text)."""
    from strata.ir.diagnostics import (REMARK, WARNING, Diagnostic, SourceManager,
                                       VerifyDiagnostics)
    from strata.ir.location import FileLineColLoc, UnknownLoc
    text = ("// expected-warning @below {{careful}}\nx\n"
            "// expected-remark @-2 {{fyi}}\n"
            "// expected-warning @unknown {{nowhere}}\n")
    sources = SourceManager()
    sources.add("t.mlir", text)
    out = io.StringIO()
    v = VerifyDiagnostics("t.mlir", sources, out)
    v.begin_chunk(text)
    v.handle(Diagnostic(WARNING, FileLineColLoc("t.mlir", 2, 1), "be careful here"))
    v.handle(Diagnostic(REMARK, FileLineColLoc("t.mlir", 1, 1), "fyi: 3 ops"))
    v.handle(Diagnostic(WARNING, UnknownLoc(), "nowhere to be found"))
    assert v.finish(), out.getvalue()
    v = VerifyDiagnostics("t.mlir", sources, out)
    v.begin_chunk(text)
    v.handle(Diagnostic(REMARK, FileLineColLoc("t.mlir", 2, 1), "careful"))
    assert not v.finish()
    assert "'remark' diagnostic emitted when expecting a 'warning'" in out.getvalue()


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("cut", [1, 10, 17, 30, 45, 60, 75, len(SIMPLE) - 2])
def test_truncated_input(tmp_path, cut):
    r = run([], tmp_path=tmp_path, text=SIMPLE[:cut])
    assert_located_error(r)


def test_invalid_utf8(tmp_path):
    r = run([], tmp_path=tmp_path, text=b'func.func @f() {\n  "\xff\xfe"\n}\n')
    assert_located_error(r, line=2, message="invalid UTF-8")
    assert "input.mlir:2:4:" in r.err, r


def test_invalid_utf8_on_stdin():
    r = run([], stdin=b"\x80abc")
    assert r.rc == 1 and "<stdin>:1:1: error: invalid UTF-8" in r.err, r


@pytest.mark.parametrize("text,message", [
    ('"t.a"() {a = 99999999999999999999999999999999} : () -> ()',
     "integer constant out of range for attribute"),
    ('"t.a"() {a = 300 : i8} : () -> ()', "integer constant out of range for attribute"),
    ('"t.a"() {a = -1 : ui8} : () -> ()',
     "negative integer literal not valid for unsigned integer type"),
    ("func.func private @f(i99999999999)", "invalid integer width"),  # as iree-opt
    ("func.func private @f(i16777216)", "integer bitwidth is limited to 16777215 bits"),
    ("func.func private @f(tensor<99999999999999999999999xf32>)", None),
    ('"t.a"() {a = 1.0e99999 : f32} : () -> ()', None),
    ("%0:99999999999999999999 = \"t.a\"() : () -> ()", None),
    ('"t.a"() {a = array<i8: 1000>} : () -> ()', "integer constant out of range"),
])
def test_huge_numbers(tmp_path, text, message):
    r = run(["--allow-unregistered-dialect"], tmp_path=tmp_path, text=text + "\n")
    if r.rc == 0:  # some are valid (inf, a huge dimension): then they print back
        assert "Traceback" not in r.err
        return
    assert_located_error(r, line=1, message=message)


@pytest.mark.parametrize("kind", ["regions", "brackets", "types", "parens", "dicts"])
def test_deep_nesting(tmp_path, kind):
    n = 10000
    if kind == "regions":
        text = '"t.a"() ({\n' * n + "}) : () -> ()\n" * n
    elif kind == "brackets":
        text = '"t.a"() {a = ' + "[" * n + "]" * n + "} : () -> ()\n"
    elif kind == "types":
        text = "func.func private @f(" + "tuple<" * n + ">" * n + ")\n"
    elif kind == "parens":
        text = "func.func private @f(" + "(" * n + ")\n"
    else:
        text = '"t.a"() {a = ' + "{b = " * n + "1" + "}" * n + "} : () -> ()\n"
    r = run(["--allow-unregistered-dialect"], tmp_path=tmp_path, text=text)
    assert_located_error(r)


def test_moderate_nesting_is_fine(tmp_path):
    n = 100
    text = '"t.a"() ({\n' * n + "}) : () -> ()\n" * n
    r = run(["--allow-unregistered-dialect"], tmp_path=tmp_path, text=text)
    assert r.rc == 0, r
    assert r.out.count('"t.a"() ({') == n


@pytest.mark.parametrize("text,line,message", [
    ("foo.bar\n", 1, "Dialect `foo' not found for custom op 'foo.bar'"),
    ('"foo.bar"() : () -> ()\n', 1, "operation being parsed with an unregistered dialect"),
    ("arith.frobnicate\n", 1, "custom op 'arith.frobnicate' is unknown"),
    ('"arith.frobnicate"() : () -> ()\n', 1, "unregistered operation 'arith.frobnicate'"),
    ("func.func private @f(!foo.bar)\n", 1, "type created with unregistered dialect"),
    ('"t.a"() {a = #foo.bar} : () -> ()\n', 1, None),
    ("func.func private @f(!arith.thing)\n", 1, "dialect 'arith' provides no type"),
    ("func.func private @f(i32x)\n", 1, "expected non-function type"),
    ("func.func private @f(f7)\n", 1, "expected non-function type"),
])
def test_unknown_dialects_ops_types(tmp_path, text, line, message):
    r = run([], tmp_path=tmp_path, text=text)
    assert_located_error(r, line=line, message=message)


@pytest.mark.parametrize("text,line,message", [
    ("func.func @f(%a: i32) -> f32 {\n  return %a : i32\n}\n", 2, "return operand 0"),
    ("func.func @f(%a: i32, %b: f32) {\n  %0 = arith.addi %a, %b : i32\n  return\n}\n", 2,
     "use of value '%b' expects different type than prior uses: 'i32' vs 'f32'"),
    ("func.func @f(%a: i32) {\n  %0 = arith.addf %a, %a : i32\n  return\n}\n", 2,
     "'arith.addf' op operand #0 must be floating-point-like"),
    ('func.func @f() {\n  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i64\n'
     '  return\n}\n', 2, "'arith.constant' op"),
    # Upstream places this one at the token after the type (here the next line).
    ("func.func @f() -> i32 {\n  %0 = arith.constant 1.5 : i32\n  return %0 : i32\n}\n", 3,
     "floating point value not valid for specified type"),
])
def test_wrong_types(tmp_path, text, line, message):
    r = run([], tmp_path=tmp_path, text=text)
    assert_located_error(r, line=line, message=message)


def test_internal_errors_are_diagnostics_not_tracebacks(tmp_path, monkeypatch):
    """Even a bug in Strata surfaces as a located diagnostic and exit code 1."""
    def boom(*a, **k):
        raise ZeroDivisionError("synthetic bug")
    monkeypatch.setattr("strata.syntax.printer.print_op", boom)
    r = run([], tmp_path=tmp_path, text=SIMPLE)
    assert r.rc == 1, r
    assert "error: internal error: ZeroDivisionError: synthetic bug" in r.err
    assert "Traceback" not in r.err


# ---------------------------------------------------------------------------- subprocess


def _cmd(*args, stdin=None):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "strata.tools.opt", *args], input=stdin,
                          capture_output=True, timeout=300, env=env)


def test_subprocess_stdin_and_exit_codes():
    p = _cmd(stdin=SIMPLE.encode())
    assert p.returncode == 0 and b"func.func @f" in p.stdout, p
    p = _cmd(stdin=b"func.func @f() {\n  %0 = arith.addi\n}\n")
    assert p.returncode == 1, p
    assert p.stderr.startswith(b"<stdin>:2:18: error: expected SSA operand\n"), p.stderr
    assert b"Traceback" not in p.stderr


def test_subprocess_deep_nesting_has_no_traceback():
    n = 10000
    p = _cmd("--allow-unregistered-dialect",
             stdin=('"t.a"() ({\n' * n + "}) : () -> ()\n" * n).encode())
    assert p.returncode == 1, p.stderr[-2000:]
    assert b"Traceback" not in p.stderr and b"RecursionError" not in p.stderr
    assert re.match(rb"<stdin>:\d+:\d+: error: ", p.stderr), p.stderr[:500]


def test_subprocess_broken_pipe_is_quiet():
    """`strata-opt big.mlir | head -1` must not print a traceback."""
    text = "".join(f"func.func @f{i}() {{\n  return\n}}\n" for i in range(300))
    p = subprocess.run(f"{sys.executable} -m strata.tools.opt | head -1", shell=True,
                       input=text.encode(), capture_output=True, timeout=300)
    assert p.stdout == b"module {\n", p
    assert b"Traceback" not in p.stderr, p.stderr
