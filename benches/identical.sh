#!/usr/bin/env bash
# Byte-identity check for restructures (benches/identical.py): build probity at REV (default
# HEAD) and from the work tree, run both over the same scenarios, print what differs.
# Usage: benches/identical.sh [REV]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev="${1:-HEAD}"
base="$(mktemp -d /tmp/probity-base.XXXXXX)"
trap 'git -C "$repo" worktree remove --force "$base/src" >/dev/null 2>&1 || true; rm -rf "$base"' EXIT
git -C "$repo" worktree add -q --detach "$base/src" "$rev"
# One target folder: dependencies are built once; the two packages differ by path.
export CARGO_TARGET_DIR="$repo/target"
(cd "$base/src" && cargo build --release --quiet)
mkdir -p "$base/bin" && cp "$CARGO_TARGET_DIR/release/probity" "$base/bin/probity"
(cd "$repo" && cargo build --release --quiet)
python3 "$repo/benches/identical.py" "$base/bin/probity" "$CARGO_TARGET_DIR/release/probity"
