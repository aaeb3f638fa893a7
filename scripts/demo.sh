#!/usr/bin/env bash
# probity in one minute: place two probes in a buggy example program, show the diff, run the
# program with a sink so the probes record what they saw, strip the probes, and prove the file
# is byte-identical to the original.
#
# Usage: scripts/demo.sh [python|javascript|typescript|rust]   (default: python)
# Needs: cargo, sha256sum, cmp, diff, python3; plus node (javascript), node and
# node_modules/.bin/tsc from `npm ci` (typescript), rustc (rust).
# Exits non-zero if any step fails, including when the probes record no event or the stripped
# file differs from the original by a single byte.
set -euo pipefail

lang="${1:-python}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

case "$lang" in
python)
    file=cart.py func=apply_discount bug='    return discount'
    caps_func=(--capture amount=amount --capture percent=percent)
    run() { python3 cart.py; }
    ;;
javascript)
    file=cart.js func=applyDiscount bug='  return discount;'
    caps_func=(--capture amount=amount --capture percent=percent)
    run() { node cart.js; }
    ;;
typescript)
    file=cart.ts func=applyDiscount bug='  return discount;'
    caps_func=(--capture amount=amount --capture percent=percent)
    tsc="$repo_root/node_modules/.bin/tsc"
    if [[ ! -x "$tsc" ]]; then
        echo "demo: $tsc is missing; run \`npm ci\` in $repo_root first" >&2
        exit 2
    fi
    run() {
        rm -rf out
        "$tsc" --strict --target es2020 --module commonjs --outDir out cart.ts
        node out/cart.js
    }
    ;;
rust)
    file=cart.rs func=apply_discount bug='    discount'
    caps_func=(--capture amount=amount --capture percent=percent)
    run() { rustc --edition 2021 -o cart cart.rs && ./cart; }
    ;;
*)
    echo "usage: scripts/demo.sh [python|javascript|typescript|rust]" >&2
    exit 2
    ;;
esac

if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
fail() { echo "demo: FAILED: $*" >&2; exit 1; }
# The JSON answer of `probity place`, without the (long) block text.
summary() {
    python3 - "$1" <<'PY'
import json, sys
env = json.load(open(sys.argv[1]))
if env["status"] != "ok" or env["data"]["status"] != "placed":
    print(json.dumps(env, indent=2))
    sys.exit(1)
r = env["data"]
p = r["placement"]
block = p.pop("block").splitlines()
print(json.dumps({k: r[k] for k in ("status", "file", "language", "slug", "probe")}, indent=None))
print(json.dumps(p, indent=None))
print("block (%d lines): %s ... %s" % (len(block), block[0].strip(), block[-1].strip()))
PY
}

if [[ -n "${PROBITY_BIN:-}" ]]; then
    # The test suite runs the demo with the binary it built (tests/demo.rs).
    probity="$PROBITY_BIN"
else
    step "build probity (cargo build --release)"
    cargo build --release -q --manifest-path "$repo_root/Cargo.toml"
    probity="${CARGO_TARGET_DIR:-$repo_root/target}/release/probity"
fi
[[ -x "$probity" ]] || fail "no binary at $probity"

work="$(mktemp -d "${TMPDIR:-/tmp}/probity-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
repo="$work/repo"            # a throwaway repository (probity finds its root by `.git`)
mkdir -p "$repo/.git" "$work/original"
cp "$repo_root/corpus/examples/$lang/$file" "$repo/$file"
cp "$repo/$file" "$work/original/$file"
ledger="$repo/.planning/debug/demo-cart.evidence.json"
cd "$repo"

step "the buggy program, as it is"
run | tee "$work/out.original"
sha_before="$(sha256sum "$file" | cut -d' ' -f1)"
echo "sha256 $file: $sha_before"

step "probe 1: at the entry of $func, capturing its arguments"
echo "\$ probity place $file --function $func --slug demo-cart --probe p-entry --hypothesis h1 --message entry ${caps_func[*]} --ledger .planning/debug/demo-cart.evidence.json --json"
"$probity" place "$file" --function "$func" --slug demo-cart --probe p-entry --hypothesis h1 \
    --message entry "${caps_func[@]}" --ledger "$ledger" --json > "$work/place1.json"
summary "$work/place1.json"

# The line of the buggy statement (matched as a whole line), now that probe 1 moved it down.
bug_line="$(grep -n -F -x -- "$bug" "$file" | head -n1 | cut -d: -f1)"
[[ -n "$bug_line" ]] || fail "could not find \`$bug\` in $file"

step "probe 2: before line $bug_line, capturing the computed discount"
echo "\$ probity place $file --line $bug_line --slug demo-cart --probe p-result --hypothesis h1 --message state --capture discount=discount --capture percent=percent --ledger .planning/debug/demo-cart.evidence.json --json"
"$probity" place "$file" --line "$bug_line" --slug demo-cart --probe p-result --hypothesis h1 \
    --message state --capture discount=discount --capture percent=percent --ledger "$ledger" \
    --json > "$work/place2.json"
summary "$work/place2.json"

step "diff -u original placed"
if diff -u "$work/original/$file" "$file" > "$work/placed.diff"; then
    fail "the file did not change"
fi
sed -e "s#$work/original/##; s#^+++ $file#+++ $file (placed)#" "$work/placed.diff"

step "run without a sink: the probes are inert, the output is unchanged"
(unset GSD_DEBUG_PROBE_SINK; run) | tee "$work/out.inert"
cmp -s "$work/out.original" "$work/out.inert" || fail "the program's output changed"
echo "(same output as before the probes)"

step "run with GSD_DEBUG_PROBE_SINK, GSD_DEBUG_PROBE_RUN=run-1, GSD_DEBUG_PROBE_PHASE=baseline"
sink="$work/sink.log"
: > "$sink"
# The Python and JavaScript blocks call a shared runtime; `probity env` writes it and prints the
# export that names it (docs/probes.md).
echo "\$ eval \"\$(probity env --ledger .planning/debug/demo-cart.evidence.json)\""
eval "$("$probity" env --ledger "$ledger")"
GSD_DEBUG_PROBE_SINK="$sink" GSD_DEBUG_PROBE_RUN=run-1 GSD_DEBUG_PROBE_PHASE=baseline run \
    | tee "$work/out.sink"
rm -r "$(dirname "$GSD_DEBUG_PROBE_RUNTIME")"   # the folder `probity env` made for the runtime
cmp -s "$work/out.original" "$work/out.sink" || fail "the program's output changed"

step "captured events ($sink)"
cat "$sink"
events="$(grep -c '^GSDDBG1 {' "$sink" || true)"
if [[ "$events" -eq 0 ]]; then
    fail "the probes recorded no event (is grammars/$lang/probe.tmpl filled in?)"
fi
python3 - "$sink" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1], encoding="ascii"), 1):
    assert line.startswith("GSDDBG1 ") and line.endswith("\n"), f"line {n}: bad envelope"
    assert len(line.encode()) - 1 <= 1024, f"line {n}: over 1024 bytes"
    e = json.loads(line[len("GSDDBG1 "):])
    assert e["run_id"] == "run-1" and e["phase"] == "baseline", f"line {n}: run/phase"
    print(f"  {e['probe_id']:<9} #{e['ordinal']} {e['message']:<6} {e['location']:<11} data={json.dumps(e['data'])}")
PY
echo "$events event(s); the data shows the discount is returned instead of the discounted amount."

step "ledger entries (.planning/debug/demo-cart.evidence.json)"
python3 - "$ledger" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["probes"]:
    print(f"  {p['id']:<9} {p['status']:<7} {p['location']:<11} block sha256 {p['expected_block_sha256'][:16]}...")
PY

step "strip every probe of the ledger"
echo "\$ probity strip --ledger .planning/debug/demo-cart.evidence.json --json"
"$probity" strip --ledger "$ledger" --json | tee "$work/strip.json"

step "byte-identity"
sha_after="$(sha256sum "$file" | cut -d' ' -f1)"
echo "before: $sha_before"
echo "after:  $sha_after"
[[ "$sha_before" == "$sha_after" ]] || fail "sha256 differs after strip"
cmp "$work/original/$file" "$file" || fail "bytes differ after strip"
if grep -q 'gsd-debug-probe' "$file"; then fail "marker text left in $file"; fi
python3 - "$ledger" <<'PY' || fail "ledger not all removed"
import json, sys
assert all(p["status"] == "removed" for p in json.load(open(sys.argv[1]))["probes"])
PY
echo "OK: $file is byte-identical to the original and every probe is \`removed\` in the ledger."
