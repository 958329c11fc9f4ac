"""The checks CrateDrop's Python tests share: each prints ok or FAIL, failures are kept, and
`finish` exits 1 if any failed."""
import sys

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, file=sys.stderr)
    if not condition:
        failures.append(message)


def finish(name, success):
    """Exits 1 naming how many checks failed, else prints `success`."""
    if failures:
        print(f"{name}: {len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: {success}", file=sys.stderr)
