#!/usr/bin/env bash
# `probity verify` against `rg -l 'gsd-debug-probe:'` on trees without markers (issue 5 §3,
# issue 25 §3).
#
# Same rules for both: hidden files searched, `.git` skipped, binary files skipped, all cores;
# `.gitignore` respected on the standard library, ignored with `--no-ignore` (both tools) on the
# node tree. Both tools run alternately in the same loop, so machine load hits both alike; it
# prints, per corpus, the mean (and median) CPU seconds (user+sys of the child, from getrusage)
# and wall seconds of each, and the ratios probity / rg (the target is <= 0.8 for both).
#
#   benches/verify.sh                    # the default corpora
#   benches/verify.sh DIR...             # your own trees (gitignore respected)
#   RUNS=20 benches/verify.sh            # more runs (default 10, after 2 warm-ups)
#   PROBITY=/path/to/probity             # a given binary (default: build target/release/probity)
#   NODE_TREE=/path/to/node_modules      # the node tree scanned with --no-ignore (default: the
#                                        # project's node_modules, else `npm root -g`)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-10}
command -v rg >/dev/null || { echo "benches/verify.sh: ripgrep missing (apt-get install -y ripgrep)" >&2; exit 2; }
if [ -z "${PROBITY:-}" ]; then
    cargo build --release --quiet --bin probity
    PROBITY="$PWD/target/release/probity"
fi

# corpus entries: "FLAGS|DIR" (FLAGS given to both tools)
corpora=()
if [ "$#" -gt 0 ]; then
    for d in "$@"; do corpora+=("|$d"); done
else
    stdlib=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
    [ -d "$stdlib" ] && corpora+=("|$stdlib")
    node=${NODE_TREE:-}
    if [ -z "$node" ]; then
        if [ -d node_modules ]; then node="$PWD/node_modules"; else node=$(npm root -g 2>/dev/null || true); fi
    fi
    [ -d "$node" ] && corpora+=("--no-ignore|$node")
fi

echo "rg: $(rg --version | sed -n 1p); probity: $("$PROBITY" --version) ($PROBITY); cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for entry in "${corpora[@]}"; do
    flags=${entry%%|*}
    dir=${entry#*|}
    python3 - "$RUNS" "$dir" "$flags" "$PROBITY" <<'PY'
import resource, subprocess, sys, time
runs, d, flags, probity = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(), sys.argv[4]
rg = ["rg", "-l", "--hidden", *flags, "-g", "!.git", "gsd-debug-probe:", d]
pr = [probity, "verify", *flags, d]
def once(cmd):
    # getrusage, not os.times: the latter counts in clock ticks (10 ms), too coarse for a run of
    # 70 ms.
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return cpu, wall, rc
for _ in range(2):  # warm the page cache
    once(rg); once(pr)
res = {"rg": [], "probity": []}
for i in range(runs):
    for name, cmd in (("rg", rg), ("probity", pr)) if i % 2 == 0 else (("probity", pr), ("rg", rg)):
        cpu, wall, rc = once(cmd)
        res[name].append((cpu, wall))
# A tree with markers is not a fair corpus: say so.
if once(pr)[2] != 0:
    print(f"warning: probity verify {' '.join(flags)} {d} does not exit 0 (markers or errors in the tree?)")
files = subprocess.run(["rg", "--files", "--hidden", *flags, "-g", "!.git", d], capture_output=True).stdout.count(b"\n")
mean = lambda xs: sum(xs) / len(xs)
median = lambda xs: sorted(xs)[len(xs) // 2] if len(xs) % 2 else sum(sorted(xs)[len(xs) // 2 - 1:len(xs) // 2 + 1]) / 2
col = lambda name, i: [r[i] for r in res[name]]
print(f"{d} {' '.join(flags)} ({files} files, {runs} runs each; mean, median in brackets)")
for name in ("rg", "probity"):
    c, w = col(name, 0), col(name, 1)
    print(f"  {name:8} cpu {mean(c):7.3f} s ({median(c):.3f})   wall {mean(w):7.3f} s ({median(w):.3f})")
r = lambda f, i: f(col("probity", i)) / f(col("rg", i))
print(f"  ratio    cpu {r(mean, 0):7.2f}   ({r(median, 0):.2f})     wall {r(mean, 1):7.2f}   ({r(median, 1):.2f})")
PY
done
