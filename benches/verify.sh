#!/usr/bin/env bash
# `probity verify` against `rg -l 'gsd-debug-probe:'` on trees without markers (issue 5, §3).
#
# Same rules for both: .gitignore respected, hidden files searched, `.git` skipped, binary files
# skipped, all cores. Prints one ratio per corpus: mean time of probity / mean time of rg (the
# target is <= 1.0). Uses hyperfine when installed, else a loop of timed runs.
#
#   benches/verify.sh            # the default corpora
#   benches/verify.sh DIR...     # your own trees
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-10}
command -v rg >/dev/null || { echo "benches/verify.sh: ripgrep missing (apt-get install -y ripgrep)" >&2; exit 2; }
cargo build --release --quiet --bin probity
BIN="$PWD/target/release/probity"

if [ "$#" -gt 0 ]; then
    corpora=("$@")
else
    corpora=()
    stdlib=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
    [ -d "$stdlib" ] && corpora+=("$stdlib")
    npm_root=$(npm root -g 2>/dev/null || true)
    [ -d "$npm_root/npm" ] && corpora+=("$npm_root/npm")
    [ -d "$HOME/.cargo/registry/src" ] && corpora+=("$HOME/.cargo/registry/src")
fi

RG=(rg -l --hidden -g '!.git' 'gsd-debug-probe:')
PROBITY=("$BIN" verify)

echo "rg: $(rg --version | head -1); probity: $("$BIN" --version); cores: $(nproc)"
printf '%-60s %8s %10s %10s %7s\n' corpus MB rg_ms probity_ms ratio
for dir in "${corpora[@]}"; do
    mb=$(du -sm "$dir" 2>/dev/null | cut -f1)
    # Warm the page cache, and show what probity finds (a tree with markers is not a fair corpus).
    "${RG[@]}" "$dir" >/dev/null || true
    "${PROBITY[@]}" "$dir" >/dev/null || true
    if command -v hyperfine >/dev/null; then
        json=$(mktemp)
        hyperfine -N -i --warmup 2 --runs "$RUNS" --export-json "$json" \
            "$(printf '%q ' "${RG[@]}" "$dir")" "$(printf '%q ' "${PROBITY[@]}" "$dir")" >/dev/null 2>&1
        read -r rg_ms pr_ms < <(python3 -c 'import json,sys;r=json.load(open(sys.argv[1]))["results"];print(r[0]["mean"]*1e3, r[1]["mean"]*1e3)' "$json")
        rm -f "$json"
    else
        t() {
            local best=
            for _ in $(seq "$RUNS"); do
                local s e
                s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
                best="$best $(( (e - s) / 1000 ))"
            done
            python3 -c 'import sys;v=[int(x) for x in sys.argv[1:]];print(sum(v)/len(v)/1e3)' $best
        }
        rg_ms=$(t "${RG[@]}" "$dir")
        pr_ms=$(t "${PROBITY[@]}" "$dir")
    fi
    ratio=$(python3 -c 'import sys;print("%.2f" % (float(sys.argv[2])/float(sys.argv[1])))' "$rg_ms" "$pr_ms")
    printf '%-60s %8s %10.1f %10.1f %7s\n' "$dir" "$mb" "$rg_ms" "$pr_ms" "$ratio"
done
