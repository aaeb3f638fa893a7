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
        print("dry run")
        return 0
    with open("stock.csv", encoding="utf-8") as fh:
        rows = [line.split(",") for line in fh]
    print(len(rows))
    return 0


if __name__ == "__main__":
    # gsd-debug-probe:start golden-run p1
    # fmt: off
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    sys.exit(main())
