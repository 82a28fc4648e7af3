"""What every `strata import` command does once its frontend has a module: print it.

    return print_imported(lambda: import_model(path), args.output, args.debuginfo)
"""
from __future__ import annotations

import sys

__all__ = ["print_imported"]


def print_imported(make_module, output: str, debuginfo: bool) -> int:
    """Print the module `make_module()` returns to `output` ("-": standard output),
    locations with `debuginfo`. A StrataError (the import's) or an unwritable output is
    one line `strata: error: ...` on stderr and status 1; else 0."""
    from ..errors import StrataError
    from ..syntax.printer import PrintOptions, print_op
    try:
        text = print_op(make_module(), PrintOptions(debuginfo=debuginfo))
        if not text.endswith("\n"):
            text += "\n"
    except StrataError as e:
        print(f"strata: error: {e}", file=sys.stderr)
        return 1
    if output == "-":
        sys.stdout.write(text)
        return 0
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        print(f"strata: error: {output}: {e.strerror}", file=sys.stderr)
        return 1
    return 0
