#!/usr/bin/env python3
"""Command-line entry point."""

import argparse
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="stock")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    # A dry run only reports what would happen.
    if args.dry_run:
        # gsd-debug-probe:start golden-run p1
        # fmt: off
        try:
            try: __GSDDBG1_rt1__
            except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
            if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
            ), "gsd-debug-probe/golden-run/p1")
        except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
        # fmt: on
        # gsd-debug-probe:end golden-run p1
        print("dry run")
        return 0
    with open("stock.csv", encoding="utf-8") as fh:
        rows = [line.split(",") for line in fh]
    print(len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
