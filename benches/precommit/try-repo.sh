#!/usr/bin/env bash
# Check the pre-commit manifest (.pre-commit-hooks.yaml, `language: rust`) end to end: pre-commit
# installs probity itself (`cargo install` of this repository, a release build: minutes, not
# seconds) and runs the hook `probity-verify` on a scratch repository, once on a clean staged
# tree (must pass) and once with a probe residue staged (must fail).
#
#   benches/precommit/try-repo.sh            # pre-commit from PATH, else a venv in $TMPDIR
#   PRE_COMMIT=/path/to/pre-commit benches/precommit/try-repo.sh
#
# Not part of the test suite (too slow); results are recorded in docs/verify.md ("pre-commit").
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pc=${PRE_COMMIT:-$(command -v pre-commit || true)}
if [ -z "$pc" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q pre-commit==4.7.0
    pc="$work/venv/bin/pre-commit"
fi
"$pc" --version

# A fresh cache, so the run shows the real install (the build of probity).
export PRE_COMMIT_HOME="$work/cache"

target="$work/target"
mkdir "$target"
cd "$target"
git init -q
git config user.email t@example.invalid
git config user.name t
printf 'def f():\n    return 1\n' > app.py
git add app.py

echo "== clean staged tree (expect: Passed)"
start=$(date +%s)
"$pc" try-repo "$repo" probity-verify --verbose
echo "first run (install + hook): $(( $(date +%s) - start )) s"

echo "== a probe residue staged (expect: Failed, exit 1)"
printf 'print("GSDDBG1")\n' > leftover.py
git add leftover.py
set +e
"$pc" try-repo "$repo" probity-verify --verbose
code=$?
set -e
echo "exit code: $code"
[ "$code" -eq 1 ] || { echo "expected the hook to fail"; exit 1; }
echo "OK: pre-commit installed probity from source and the hook passed, then failed as it should"
