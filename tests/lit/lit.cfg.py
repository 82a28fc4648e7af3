# lit configuration for Strata's FileCheck tests.
import os
import shutil
import sys

import lit.formats

config.name = "strata"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py"]

python = sys.executable
config.substitutions.append(("strata-opt", f"{python} -m strata.tools.opt"))
config.substitutions.append(("strata-translate", f"{python} -m strata.tools.translate"))
fc = shutil.which("filecheck") or f"{python} -m filecheck"
config.substitutions.append(("FileCheck", fc))
config.substitutions.append(("filecheck", fc))
config.substitutions.append(("not ", f"{python} -m strata.tools.not_ "))
for var in ("PATH", "HOME", "PYTHONPATH", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
