"""`not CMD...`: run CMD and invert its exit status (1 if it succeeded, 0 if it failed).
Lit's internal shell has no `not` on every platform; tests use this one."""
import subprocess
import sys


def main() -> int:
    rc = subprocess.call(sys.argv[1:])
    return 0 if rc != 0 else 1


if __name__ == "__main__":
    sys.exit(main())
