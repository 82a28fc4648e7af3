"""Settings for every pytest test.

The compiled-model cache (strata/cache.py) is off: a test compiles what it tests, and
reads the timings and reports of that compile, whatever ran before it (in this process
or an earlier run); tests/unit/test_compile_cache.py turns it on in a directory of its
own. Subprocesses inherit the setting."""
import os

os.environ["STRATA_CACHE"] = "0"
