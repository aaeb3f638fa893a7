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
    sys.exit(main())
