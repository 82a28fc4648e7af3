"""strata-opt: the mlir-opt of Strata. Parses, verifies and prints MLIR text.

    strata-opt input.mlir [-o out.mlir] [--split-input-file] [--verify-diagnostics]
               [--mlir-print-op-generic] [--mlir-print-debuginfo] [--mlir-print-local-scope]
               [--mlir-elide-elementsattrs-if-larger=N] [--allow-unregistered-dialect]
               [--show-dialects]
               [--pass-pipeline=PIPELINE | --canonicalize[=OPTIONS] --cse ...]
               [--verify-each=false] [--mlir-print-ir-{before,after}=PASSES]
               [--mlir-print-ir-{before,after}-all] [--mlir-print-ir-after-change]
               [--mlir-timing] [--mlir-pass-statistics] [--dump-pass-pipeline]
               [--mlir-pass-pipeline-crash-reproducer=FILE] [--run-reproducer]
               [--load-pass-plugin=passes.py]

Every error on bad input is a located diagnostic and exit code 1, never a traceback; a
pass that crashes or leaves invalid IR also leaves a reproducer file that
`--run-reproducer` re-runs.
"""
from __future__ import annotations

import argparse
import re
import sys

from ..ir.diagnostics import (ERROR, NOTE, WARNING, Diagnostic, DiagnosticError,
                              SourceManager, VerifyDiagnostics)
from ..ir.location import FileLineColLoc, UnknownLoc

SPLIT_MARKER = "// -----"
OUTPUT_SPLIT = "// -----\n"


def _arg_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="strata-opt", description=__doc__.split("\n")[0],
                                 prefix_chars="-")

    def flag(name, **kw):
        ap.add_argument("--" + name, "-" + name, **kw)

    ap.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    ap.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    # `--split-input-file[=MARKER]`: the marker is only taken after '=' (as in LLVM's
    # command lines) so that `--split-input-file x.mlir` keeps x.mlir as the input.
    flag("split-input-file", action="store_const", const=SPLIT_MARKER, default=None,
         help="split the input on '// -----' (or =MARKER) and process each chunk alone")
    flag("output-split-marker", default=SPLIT_MARKER,
         help="marker written between the outputs of split chunks")
    flag("verify-diagnostics", action="store_true",
         help="check emitted diagnostics against expected-* annotations")
    flag("mlir-print-op-generic", action="store_true", help="print ops in generic form")
    flag("mlir-print-debuginfo", action="store_true", help="print locations")
    flag("mlir-print-local-scope", action="store_true",
         help="print types and attributes inline, without aliases")
    flag("mlir-elide-elementsattrs-if-larger", type=int, default=None, metavar="N",
         help="elide elements attributes with more than N elements")
    flag("allow-unregistered-dialect", action="store_true",
         help="accept ops, attributes and types of unregistered dialects")
    flag("show-dialects", action="store_true", help="list the registered dialects")
    # Handled before parsing (see _parse_args); listed here for --help.
    flag("load-pass-plugin", default=None, metavar="FILE",
         help="a Python file (or module) that registers passes with register_pass")
    _add_pass_flags(ap, flag)
    return ap


class _PassFlag(argparse.Action):
    """`--cse`, `--canonicalize=max-iterations=3`: appended in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None):
        lst = getattr(namespace, "pass_flags", None) or []
        lst.append((self.pass_name, values or ""))
        namespace.pass_flags = lst


def _add_pass_flags(ap, flag):
    flag("pass-pipeline", default=None, metavar="PIPELINE",
         help="a textual pass pipeline, e.g. 'builtin.module(func.func(cse))'")
    flag("verify-each", default="true", choices=("true", "false", "1", "0"), nargs="?",
         const="true", help="verify the IR after each pass (default: true)")
    flag("dump-pass-pipeline", action="store_true", help="print the pipeline that will run")
    flag("run-reproducer", action="store_true",
         help="run the pipeline recorded in the input's mlir_reproducer resource")
    flag("mlir-print-ir-before", default="", metavar="PASSES",
         help="print the IR before the named passes (comma-separated)")
    flag("mlir-print-ir-after", default="", metavar="PASSES",
         help="print the IR after the named passes (comma-separated)")
    flag("mlir-print-ir-before-all", action="store_true", help="print the IR before each pass")
    flag("mlir-print-ir-after-all", action="store_true", help="print the IR after each pass")
    flag("mlir-print-ir-after-change", action="store_true",
         help="when printing the IR after a pass, only print it if the pass changed it")
    flag("mlir-print-ir-after-failure", action="store_true",
         help="print the IR after a pass only when the pass failed")
    flag("mlir-print-ir-module-scope", action="store_true",
         help="print the top-level op in IR dumps, not just the op the pass ran on")
    flag("mlir-timing", action="store_true", help="print an execution time report")
    flag("mlir-timing-display", default="tree", choices=("list", "tree"),
         help="how to show the timing report (default: tree)")
    flag("mlir-pass-statistics", action="store_true", help="print pass statistics")
    flag("mlir-pass-statistics-display", default="pipeline", choices=("list", "pipeline"),
         help="how to show the statistics (default: pipeline)")
    flag("mlir-disable-threading", action="store_true",
         help="accepted for compatibility: Strata runs passes on one thread")
    flag("mlir-pass-pipeline-crash-reproducer", default=None, metavar="FILE",
         help="where to write the reproducer when a pass fails")
    from ..passes.registry import all_pass_classes
    ap.set_defaults(pass_flags=[])
    for name, cls in sorted(all_pass_classes().items()):
        action = type(f"_PassFlag_{name}", (_PassFlag,), {"pass_name": name})
        ap.add_argument("--" + name, "-" + name, action=action, nargs="?", const="",
                        metavar="OPTIONS", dest="pass_flag_" + name.replace("-", "_"),
                        help=cls.summary)


def build_pipeline(args):
    """The PassManager the flags ask for, or None. Raises PipelineError on bad text.

    Pass flags run in command-line order on the top-level module; a pass anchored on
    another op (`func.func`) goes into a nested manager, shared by consecutive flags,
    as mlir-opt nests them implicitly."""
    from ..passes.pass_manager import PassManager
    from ..passes.pipeline import PipelineError, parse_pipeline, pass_from_flag
    if args.pass_pipeline and args.pass_flags:
        raise PipelineError("'--pass-pipeline' cannot be combined with individual pass "
                            "flags")
    if args.pass_pipeline:
        return parse_pipeline(args.pass_pipeline)
    if not args.pass_flags:
        return None
    pm = PassManager("builtin.module")
    for name, options in args.pass_flags:
        pm.add(pass_from_flag(name, options), nest_implicitly=True)
    return pm


def _read_input(path: str):
    """Return (name, text) or raise DiagnosticError for unreadable / non-UTF-8 input."""
    name = "<stdin>" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as e:
        raise DiagnosticError(Diagnostic(ERROR, UnknownLoc(),
                                         f"could not open input file '{path}': {e.strerror}"))
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise DiagnosticError(Diagnostic(ERROR, FileLineColLoc(name, line, col),
                                         "invalid UTF-8 byte in input"))


def split_chunks(text: str, marker: str, warn=None):
    """Split `text` where `marker` occurs, as mlir-opt does; returns a list of
    (chunk_text, line_offset, col_offset): where each chunk starts in the file.

    Like upstream, the text is cut at the marker less its last two characters, and a cut
    only counts when those two follow (and then not `0`); other cuts are near misses,
    reported through `warn(offset)` and glued back. A marker at the very start or end of
    the file is a near miss too (upstream's quirks, kept so diagnostics line up)."""
    check = 2 if len(marker) > 2 else 0
    head, tail = marker[:len(marker) - check], marker[len(marker) - check:]
    pieces = text.split(head) if head else [text]
    starts = []
    pos = 0
    for piece in pieces:
        starts.append(pos)
        pos += len(piece) + len(head)
    chunks = []  # (start, end) offsets in text
    prev = None
    for piece, start in zip(pieces, starts):
        if prev is None or prev[0] == prev[1]:
            prev = (start, start + len(piece))
            continue
        if piece.startswith(tail) and len(piece) > check and piece[check:check + 1] != "0":
            chunks.append(prev)
            prev = (start + check, start + len(piece))
        else:
            if warn is not None:
                warn(start)
            prev = (prev[0], start + len(piece))
    if prev is not None and prev[0] != prev[1]:
        chunks.append(prev)
    out = []
    for a, b in chunks:
        line_offset = text.count("\n", 0, a)
        col_offset = a - (text.rfind("\n", 0, a) + 1)
        out.append((text[a:b], line_offset, col_offset))
    return out


def _report_pipeline_failure(failure, text, name, line_offset, col_offset, ctx_factory,
                             pipeline, path, top, sources, err):
    """Write the reproducer of a failed pipeline (the chunk's IR, re-parsed and printed,
    and the pipeline) and report where it is, worded as mlir-opt does."""
    from ..passes.pass_manager import op_description
    from ..passes.reproducer import write_reproducer
    from ..syntax.parser import parse_source
    from ..syntax.printer import print_op
    try:
        ir = print_op(parse_source(text, ctx_factory(), name, line_offset,
                                   col_offset=col_offset))
    except Exception:  # the input parsed once; never let the report itself crash
        ir = text
    loc = top.loc
    d = Diagnostic(ERROR, loc, "Failures have been detected while processing an MLIR pass "
                   "pipeline")
    where = ""
    if failure.pass_ is not None and failure.op is not None:
        where = (f"Pipeline failed while executing [`{failure.pass_.pass_display_name()}` "
                 f"on {op_description(failure.op)}]: ")
    try:
        written = write_reproducer(ir, pipeline.pipeline_text(), path,
                                   verify_each=pipeline.verify_each)
        d.attach_note(f"{where}reproducer generated at `{written}`", loc)
    except OSError as e:
        d.attach_note(f"{where}could not write the reproducer to `{path}`: {e.strerror}",
                      loc)
    err.write(d.render(sources) + "\n")


def process_chunk(text, name, line_offset, ctx, options, verifier, sources, err,
                  col_offset=0, pipeline=None, instrumentation=None, reproducer=None,
                  ctx_factory=None):
    """Parse, verify, run the pipeline on and print one chunk; returns the output text
    or None on error.

    A pass that fails reports its diagnostic; one that crashed or left invalid IR (or
    any failure, when `reproducer` names a file) also gets a reproducer file."""
    from ..syntax.parser import parse_source
    from ..syntax.printer import print_op
    from ..passes.pass_manager import PassFailure
    timing = instrumentation.timing if instrumentation is not None else None
    if timing is not None:
        timing.restart()
    try:
        if timing is not None:
            timing.start("Parser")
        try:
            op = parse_source(text, ctx, name, line_offset, col_offset=col_offset)
        finally:
            if timing is not None:
                timing.stop()
        if pipeline is not None:
            if instrumentation is not None:
                instrumentation.diagnostic_handler = \
                    lambda d: _emit(d, verifier, sources, err, options.debuginfo)
            try:
                pipeline.run(op, instrumentation)
            except PassFailure as e:
                _emit(e.diag, verifier, sources, err, options.debuginfo)
                if verifier is None and (e.kind != "failure" or reproducer is not None):
                    _report_pipeline_failure(
                        e, text, name, line_offset, col_offset,
                        ctx_factory or (lambda: ctx), pipeline, reproducer, op, sources,
                        err)
                return None
        if timing is not None:
            timing.start("Output")
        try:
            return print_op(op, options)
        finally:
            if timing is not None:
                timing.stop()
    except DiagnosticError as e:
        for d in e.earlier:
            _emit(d, verifier, sources, err, options.debuginfo)
        _emit(e.diag, verifier, sources, err, options.debuginfo)
    except RecursionError:
        _emit(Diagnostic(ERROR, FileLineColLoc(name, line_offset + 1, 1),
                         "input nesting is too deep"), verifier, sources, err)
    return None


def _emit(diag, verifier, sources, err, debuginfo=False):
    if verifier is not None:
        verifier.handle(diag)
    else:
        err.write(with_op_note(diag, debuginfo).render(sources) + "\n")


def with_op_note(diag, debuginfo=False):
    """The diagnostic with mlir-opt's first note "see current operation: <generic
    form>" when an op emitted it (a multi-line op starts on a new line)."""
    op = getattr(diag, "op", None)
    if op is None:
        return diag
    from ..syntax.printer import print_op_in_context
    try:
        text = print_op_in_context(op, debuginfo)
    except Exception:  # an op too broken to print: the diagnostic alone still helps
        return diag
    if "\n" in text:
        text = "\n" + text
    d = Diagnostic(diag.severity, diag.loc, diag.message, diag.notes)
    d.notes.insert(0, Diagnostic(NOTE, op.loc, "see current operation: " + text))
    return d


class _PluginError(Exception):
    pass


def load_pass_plugin(spec: str) -> None:
    """Import a Python file (or module name) that registers passes with
    `strata.passes.registry.register_pass`; loading the same one twice is a no-op."""
    import importlib
    import importlib.util
    import os
    try:
        if spec.endswith(".py") or os.sep in spec:
            path = os.path.abspath(spec)
            mod_name = "strata_pass_plugin_" + re.sub(r"\W", "_", path)
            if mod_name in sys.modules:
                return
            loader_spec = importlib.util.spec_from_file_location(mod_name, path)
            if loader_spec is None or not os.path.exists(path):
                raise _PluginError(f"could not load pass plugin '{spec}': no such file")
            mod = importlib.util.module_from_spec(loader_spec)
            sys.modules[mod_name] = mod
            try:
                loader_spec.loader.exec_module(mod)
            except BaseException:
                del sys.modules[mod_name]
                raise
        else:
            importlib.import_module(spec)
    except _PluginError:
        raise
    except Exception as e:
        raise _PluginError(f"could not load pass plugin '{spec}': {type(e).__name__}: {e}")


def _parse_args(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    marker = None
    rest = []
    plugins = []
    it = iter(argv)
    for a in it:
        m = re.fullmatch(r"--?split-input-file=(.*)", a, re.S)
        if m:
            marker = m.group(1)
            continue
        m = re.fullmatch(r"--?load-pass-plugin(?:=(.*))?", a, re.S)
        if m:
            plugins.append(m.group(1) if m.group(1) is not None else next(it, ""))
            continue
        rest.append(a)
    # Plugins first: their passes become flags of the parser.
    for p in plugins:
        load_pass_plugin(p)
    # Pass flags are taken out here, in order: `--cse` never swallows the next
    # argument (options only come with `=`, as in mlir-opt: `--canonicalize=...`).
    from ..passes.registry import all_pass_classes
    names = all_pass_classes()
    pass_flags = []
    others = []
    for a in rest:
        m = re.fullmatch(r"--?([A-Za-z0-9_.\-]+)(?:=(.*))?", a, re.S)
        if m and m.group(1) in names:
            pass_flags.append((m.group(1), m.group(2) or ""))
        else:
            others.append(a)
    args = _arg_parser().parse_args(others)
    args.pass_flags = pass_flags
    if marker is not None:
        args.split_input_file = marker
    return args


def main(argv=None) -> int:
    err = sys.stderr
    try:
        args = _parse_args(argv)
    except _PluginError as e:
        err.write(f"error: {e}\n")
        return 1
    from ..dialects import all_dialects, default_context
    if args.show_dialects:
        print("Available Dialects: " + ", ".join(sorted(d.name for d in all_dialects())))
        return 0
    from ..syntax.printer import PrintOptions
    options = PrintOptions(generic=args.mlir_print_op_generic,
                           debuginfo=args.mlir_print_debuginfo,
                           local_scope=args.mlir_print_local_scope,
                           elide_elements_if_larger=args.mlir_elide_elementsattrs_if_larger)
    try:
        name, text = _read_input(args.input)
    except DiagnosticError as e:
        err.write(e.diag.render(None) + "\n")
        return 1
    if args.run_reproducer:
        from ..passes.reproducer import read_reproducer_config
        try:
            config = read_reproducer_config(text)
        except ValueError as e:
            err.write(f"error: invalid reproducer in '{name}': {e}\n")
            return 1
        if config is not None:
            if args.pass_pipeline or args.pass_flags:
                err.write("error: '--run-reproducer' runs the pipeline recorded in the "
                          "input; it cannot be combined with '--pass-pipeline' or pass "
                          "flags\n")
                return 1
            args.pass_pipeline = config["pipeline"]
            args.verify_each = "true" if config["verify_each"] else "false"
    from ..passes.pipeline import PipelineError
    try:
        pipeline = build_pipeline(args)
    except PipelineError as e:
        err.write(f"<unknown>:0: error: {e.render()}\n")
        return 1
    if pipeline is not None and args.dump_pass_pipeline:
        n = len(pipeline.passes)
        err.write(f"Pass Manager with {n} passes:\n{pipeline.dump_text()}\n\n")

    def new_instrumentation():
        """A pipeline and instrumentation per chunk: statistics and timing are reported
        for each chunk, as mlir-opt does."""
        from ..passes.instrumentation import Instrumentation, Timing
        if not args.mlir_timing and pipeline is None:
            return None, None
        pm = build_pipeline(args) if pipeline is not None else None
        if pm is not None:
            pm.verify_each = args.verify_each in ("true", "1")
        inst = Instrumentation(
            print_before=[n for n in args.mlir_print_ir_before.split(",") if n],
            print_after=[n for n in args.mlir_print_ir_after.split(",") if n],
            print_before_all=args.mlir_print_ir_before_all,
            print_after_all=args.mlir_print_ir_after_all,
            print_after_change=args.mlir_print_ir_after_change,
            print_after_failure=args.mlir_print_ir_after_failure,
            print_module_scope=args.mlir_print_ir_module_scope,
            timing=Timing(args.mlir_timing_display) if args.mlir_timing else None,
            statistics=args.mlir_pass_statistics,
            statistics_display=args.mlir_pass_statistics_display,
            print_options=options, out=err)
        return pm, inst

    sources = SourceManager()
    sources.add(name, text)
    if args.split_input_file:
        def near_miss(offset):
            line = text.count("\n", 0, offset) + 1
            col = offset - (text.rfind("\n", 0, offset) + 1) + 1
            d = Diagnostic(WARNING, FileLineColLoc(name, line, col),
                           "near miss with file split marker")
            err.write(d.render(sources) + "\n")
        chunks = split_chunks(text, args.split_input_file, near_miss)
    else:
        chunks = [(text, 0, 0)]
    outputs = []
    ok = True
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    # One verifier for the file: unexpected diagnostics are reported as they come,
    # unmet expectations after the last chunk (as mlir-opt does).
    verifier = VerifyDiagnostics(name, sources, err) if args.verify_diagnostics else None
    for chunk, off, col in chunks:
        ctx = default_context(args.allow_unregistered_dialect)
        if verifier is not None:
            verifier.begin_chunk(chunk, off, col)
        chunk_pipeline, instrumentation = new_instrumentation()
        try:
            out = process_chunk(chunk, name, off, ctx, options, verifier, sources, err, col,
                                chunk_pipeline, instrumentation,
                                args.mlir_pass_pipeline_crash_reproducer,
                                lambda: default_context(args.allow_unregistered_dialect))
        except Exception as e:  # a bug in Strata: report it as a diagnostic, not a trace
            d = Diagnostic(ERROR, FileLineColLoc(name, off + 1, col + 1),
                           f"internal error: {type(e).__name__}: {e}")
            err.write(d.render(None) + "\n")
            ok = False
            outputs.append("")
            continue
        if instrumentation is not None and instrumentation.timing is not None:
            err.write(instrumentation.timing_report())
        if verifier is None and out is None:
            ok = False
        # Like mlir-opt: a newline after each printed module, and a failed chunk still
        # takes its place between the split markers.
        outputs.append(out + "\n" if out is not None else "")
    if verifier is not None and not verifier.finish():
        ok = False
    result = (args.output_split_marker + "\n").join(outputs)
    try:
        if args.output == "-":
            sys.stdout.write(result)
            sys.stdout.flush()
        else:
            with open(args.output, "w") as f:
                f.write(result)
    except BrokenPipeError:
        pass
    except OSError as e:
        err.write(f"error: could not write output file '{args.output}': {e.strerror}\n")
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
