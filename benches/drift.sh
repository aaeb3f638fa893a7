#!/usr/bin/env bash
# Drift-guard benchmark (issue 4 §4): probity against universal ctags and ripgrep on the CPython
# standard library, in one run, printing ratios. Usage: benches/drift.sh [STDLIB_DIR]
# Needs: a release build (cargo build --release), ctags (universal-ctags), rg, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
P=${PROBITY:-target/release/probity}
ROOT=${1:-$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')}
RUNS=${RUNS:-3}
[ -x "$P" ] || { echo "build first: cargo build --release" >&2; exit 2; }
command -v ctags >/dev/null || { echo "install universal-ctags (apt-get install universal-ctags)" >&2; exit 2; }
command -v rg >/dev/null || { echo "install ripgrep (apt-get install ripgrep)" >&2; exit 2; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# The standard library only: a copy without site-packages, so every tool sees the same tree.
mkdir -p "$TMP/stdlib" && cp -r "$ROOT/." "$TMP/stdlib/" && rm -rf "$TMP/stdlib/site-packages"
ROOT=$TMP/stdlib

# 49 references: real ones of every kind, a few invented ones, a few external/dynamic.
REFS=(
  json.dumps json.loads collections.OrderedDict collections.namedtuple argparse.ArgumentParser.add_argument
  ArgumentParser.parse_args pathlib.Path.resolve Path.read_text os.path.join shutil.copytree
  subprocess.run Popen.communicate logging.getLogger Logger.warning dataclasses.dataclass
  @dataclass @functools.wraps @contextmanager @staticmethod typing.NamedTuple
  unittest.TestCase.assertEqual TestCase.setUp http.client.HTTPConnection.request
  email.message.EmailMessage asyncio.gather asyncio.create_task Queue.put_nowait
  threading.Thread.start Thread.join heapq.heappush bisect.insort tempfile.mkdtemp
  zipfile.ZipFile.extractall tarfile.open csv.DictReader decimal.Decimal.quantize
  fractions.Fraction.limit_denominator statistics.median textwrap.dedent difflib.SequenceMatcher.ratio
  --verbose --quiet json/encoder.py collections/__init__.py
  json.dumpz Path.read_texts ArgumentParser.add_flag invented_helper_fn --no-such-flag
)
{
  echo "# Benchmark plan"; echo
  for r in "${REFS[@]}"; do echo "- Use \`$r\` here."; done
} > "$TMP/plan.md"
NAMES=$(for r in "${REFS[@]}"; do r=${r#@}; r=${r#--}; echo "${r##*[.:/]}"; done | sort -u)
RG_ARGS=(); for n in $NAMES; do RG_ARGS+=(-e "$n"); done

t() { # seconds (ms resolution) and peak RSS (KB) of a command: prints "secs kb"
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || true
  t1=$(date +%s%N)
  echo "$(awk "BEGIN{printf \"%.3f\", ($t1-$t0)/1e9}") $(tail -1 "$TMP/time")"
}
best() { # best of $RUNS runs: "secs kb"
  local best="" bkb=0
  for _ in $(seq "$RUNS"); do
    read -r s kb < <("$@")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
    [ "$kb" -gt "$bkb" ] && bkb=$kb
  done
  echo "$best $bkb"
}
cold() { rm -rf "$TMP/cache"; t "$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json; }
warm() { t "$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json; }
ctags_run() { t ctags -R -f "$TMP/tags" "$ROOT"; }
rg2() { # two `rg -l` runs, timed separately and summed (no shell start-up in the figure)
  local a b
  read -r a _ < <(t rg -l -F "${RG_ARGS[@]}" "$ROOT")
  read -r b kb < <(t rg -l -F "${RG_ARGS[@]}" "$ROOT")
  echo "$(awk "BEGIN{printf \"%.3f\", $a+$b}") $kb"
}
index_full() { t "$P" index --root "$ROOT" --no-cache --json; }
parse_only() { t "$P" index --root "$ROOT" --no-cache --parse-only; }

echo "corpus: $ROOT ($(find "$ROOT" -name '*.py' | wc -l) .py files), $(nproc) cores, best of $RUNS"
read -r c_s c_kb < <(best cold)
read -r k_s k_kb < <(best ctags_run)
warm >/dev/null
read -r w_s w_kb < <(best warm)
read -r r_s _ < <(best rg2)
read -r i_s i_kb < <(best index_full)
read -r p_s _ < <(best parse_only)
"$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json > "$TMP/out.json" || true
python3 - "$TMP/out.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
s = v["summary"]
print(f"plan: {s['checked']} refs: {s['verified']} VERIFIED, {s['missing']} MISSING, "
      f"{s['ambiguous']} AMBIGUOUS, {s['uncheckable']} UNCHECKABLE; warm files_parsed={v['stats']['files_parsed']}")
PY
ratio() { awk "BEGIN{printf \"%.2f\", $1/$2}"; }
printf "%-34s %8s %10s %8s %s\n" measure seconds peak_MB ratio goal
printf "%-34s %8s %10s %8s %s\n" "cold drift (49 refs)" "$c_s" "$((c_kb/1024))" "$(ratio "$c_s" "$k_s")" "<= 1.0 x ctags -R"
printf "%-34s %8s %10s\n" "ctags -R" "$k_s" "$((k_kb/1024))"
printf "%-34s %8s %10s %8s %s\n" "warm drift (cache)" "$w_s" "$((w_kb/1024))" "$(ratio "$w_s" "$r_s")" "<= 1.0 x (2 x rg -l)"
printf "%-34s %8s\n" "2 x rg -l (same names)" "$r_s"
printf "%-34s %8s %10s %8s %s\n" "full index (no cache)" "$i_s" "$((i_kb/1024))" "$(ratio "$i_s" "$p_s")" "<= 1.5 x parse only"
printf "%-34s %8s\n" "parse only" "$p_s"

# Peak memory on the largest corpora present (issue 4 §4: < 150 MB): the whole CPython library
# with site-packages, and the crate sources under ~/.cargo/registry/src. Skip with LARGEST=0.
if [ "${LARGEST:-1}" != 0 ]; then
  LIB=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')
  REG=$HOME/.cargo/registry/src
  echo
  printf "%-52s %8s %10s %s\n" "largest corpora" seconds peak_MB goal
  rm -rf "$TMP/cache-lib"
  read -r s kb < <(t "$P" drift --plan "$TMP/plan.md" --root "$LIB" --cache-dir "$TMP/cache-lib" --json)
  printf "%-52s %8s %10s %s\n" "cold drift, CPython lib ($(find "$LIB" -type f | wc -l) files)" "$s" "$((kb/1024))" "< 150"
  read -r s kb < <(t "$P" drift --plan "$TMP/plan.md" --root "$LIB" --cache-dir "$TMP/cache-lib" --json)
  printf "%-52s %8s %10s %s\n" "warm drift, CPython lib" "$s" "$((kb/1024))" "< 150"
  read -r s kb < <(t "$P" index --root "$LIB" --no-cache --json)
  printf "%-52s %8s %10s %s\n" "full index, CPython lib" "$s" "$((kb/1024))" "< 150"
  if [ -d "$REG" ]; then
    read -r s kb < <(t "$P" index --root "$REG" --no-cache --json)
    printf "%-52s %8s %10s %s\n" "full index, ~/.cargo/registry/src ($(find "$REG" -name '*.rs' | wc -l) .rs)" "$s" "$((kb/1024))" "< 150"
  fi
fi
