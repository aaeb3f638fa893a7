#!/usr/bin/env bash
# Drift-guard benchmark (issue 4 §4, issue 25 §3): probity against universal ctags and ripgrep on
# the CPython standard library, in one run, printing ratios in wall and CPU (user + sys) seconds:
# cold drift vs `ctags -R --languages=Python`, warm drift vs two `rg -l` runs of the cited names,
# full index vs parse only, and the peak RSS of `probity index` on ~/.cargo/registry/src (REGISTRY=)
# against 150 MB. Usage: benches/drift.sh [STDLIB_DIR]
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

t() { # wall seconds (ms resolution), CPU seconds (user + sys) and peak RSS (KB): "wall cpu kb"
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%U %S %M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || true
  t1=$(date +%s%N)
  read -r u s kb < <(tail -1 "$TMP/time")
  echo "$(awk "BEGIN{printf \"%.3f %.2f\", ($t1-$t0)/1e9, $u+$s}") $kb"
}
best() { # best of $RUNS runs, wall and CPU each at its minimum; peak RSS at its maximum
  local bw="" bc="" bkb=0
  for _ in $(seq "$RUNS"); do
    read -r w c kb < <("$@")
    if [ -z "$bw" ] || awk "BEGIN{exit !($w < $bw)}"; then bw=$w; fi
    if [ -z "$bc" ] || awk "BEGIN{exit !($c < $bc)}"; then bc=$c; fi
    [ "$kb" -gt "$bkb" ] && bkb=$kb
  done
  echo "$bw $bc $bkb"
}
cold() { rm -rf "$TMP/cache"; t "$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json; }
warm() { t "$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json; }
# The peer parses the same files: Python only (`-R` alone also indexes the other languages).
ctags_run() { t ctags -R --languages=Python -f "$TMP/tags" "$ROOT"; }
rg2() { # two `rg -l` runs, timed separately and summed (no shell start-up in the figure)
  local aw ac bw bc kb
  read -r aw ac _ < <(t rg -l -F "${RG_ARGS[@]}" "$ROOT")
  read -r bw bc kb < <(t rg -l -F "${RG_ARGS[@]}" "$ROOT")
  echo "$(awk "BEGIN{printf \"%.3f %.2f\", $aw+$bw, $ac+$bc}") $kb"
}
index_full() { t "$P" index --root "$ROOT" --no-cache --json; }
parse_only() { t "$P" index --root "$ROOT" --no-cache --parse-only; }
REG=${REGISTRY:-$HOME/.cargo/registry/src}

echo "corpus: $ROOT ($(find "$ROOT" -name '*.py' | wc -l) .py files), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), best of $RUNS"
read -r c_w c_c c_kb < <(best cold)
read -r k_w k_c k_kb < <(best ctags_run)
warm >/dev/null
read -r w_w w_c w_kb < <(best warm)
read -r r_w r_c _ < <(best rg2)
read -r i_w i_c i_kb < <(best index_full)
read -r p_w p_c _ < <(best parse_only)
"$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json > "$TMP/out.json" || true
python3 - "$TMP/out.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
v = v.get("data", v)
s = v["summary"]
print(f"plan: {s['checked']} refs: {s['verified']} VERIFIED, {s['missing']} MISSING, "
      f"{s['ambiguous']} AMBIGUOUS, {s['uncheckable']} UNCHECKABLE; warm files_parsed={v['stats']['files_parsed']}")
PY
rm -rf "$TMP/cache"
"$P" drift --plan "$TMP/plan.md" --root "$ROOT" --cache-dir "$TMP/cache" --json > "$TMP/cold.json" || true
python3 - "$TMP/cold.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
v = v.get("data", v)
st = v["stats"]
print(f"cold: files_read={st['files_read']} files_parsed={st['files_parsed']}")
PY
ratio() { awk "BEGIN{printf \"%.2f\", $1/$2}"; }
printf "%-30s %8s %8s %8s %9s %9s  %s\n" measure wall_s cpu_s peak_MB ratio_wall ratio_cpu goal
printf "%-30s %8s %8s %8s %9s %9s  %s\n" "cold drift (49 refs)" "$c_w" "$c_c" "$((c_kb/1024))" "$(ratio "$c_w" "$k_w")" "$(ratio "$c_c" "$k_c")" "<= 1.0 x ctags (CPU)"
printf "%-30s %8s %8s %8s\n" "ctags -R --languages=Python" "$k_w" "$k_c" "$((k_kb/1024))"
printf "%-30s %8s %8s %8s %9s %9s  %s\n" "warm drift (cache)" "$w_w" "$w_c" "$((w_kb/1024))" "$(ratio "$w_w" "$r_w")" "$(ratio "$w_c" "$r_c")" "<= 1.0 x (2 x rg -l)"
printf "%-30s %8s %8s\n" "2 x rg -l (same names)" "$r_w" "$r_c"
printf "%-30s %8s %8s %8s %9s %9s  %s\n" "full index (no cache)" "$i_w" "$i_c" "$((i_kb/1024))" "$(ratio "$i_w" "$p_w")" "$(ratio "$i_c" "$p_c")" "<= 1.5 x parse only"
printf "%-30s %8s %8s\n" "parse only" "$p_w" "$p_c"
if [ -d "$REG" ]; then
  read -r g_w g_c g_kb < <(t "$P" index --root "$REG" --no-cache --json)
  printf "%-30s %8s %8s %8s %9s %9s  %s\n" "index $(basename "$(dirname "$REG")")/src ($(find "$REG" -name '*.rs' | wc -l) .rs)" "$g_w" "$g_c" "$((g_kb/1024))" "$(ratio "$((g_kb/1024))" 150)" "-" "peak <= 150 MB (ratio of 150)"
fi

# Peak memory on the whole CPython library with site-packages (issue 4 §4: < 150 MB).
# Skip with LARGEST=0.
if [ "${LARGEST:-1}" != 0 ]; then
  one() { read -r w _ kb < <("$@"); echo "$w $kb"; }
  LIB=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')
  echo
  printf "%-52s %8s %10s %s\n" "largest corpora" seconds peak_MB goal
  rm -rf "$TMP/cache-lib"
  read -r s kb < <(one t "$P" drift --plan "$TMP/plan.md" --root "$LIB" --cache-dir "$TMP/cache-lib" --json)
  printf "%-52s %8s %10s %s\n" "cold drift, CPython lib ($(find "$LIB" -type f | wc -l) files)" "$s" "$((kb/1024))" "< 150"
  read -r s kb < <(one t "$P" drift --plan "$TMP/plan.md" --root "$LIB" --cache-dir "$TMP/cache-lib" --json)
  printf "%-52s %8s %10s %s\n" "warm drift, CPython lib" "$s" "$((kb/1024))" "< 150"
  read -r s kb < <(one t "$P" index --root "$LIB" --no-cache --json)
  printf "%-52s %8s %10s %s\n" "full index, CPython lib" "$s" "$((kb/1024))" "< 150"
fi
