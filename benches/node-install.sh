#!/usr/bin/env bash
# What installing @probity/node costs a user without Rust, next to @ast-grep/napi (issue 24 §1).
#
#   benches/node-install.sh
#
# Builds the release binary and addon once (`cargo build --release --locked -p probity -p
# probity-node`; the release profile strips them), packs @probity/node and this machine's
# platform package around that addon with `bindings/node/scripts/pack.js` (plus stub packages
# for the other platforms, so that npm reads all seven, as it would from the real registry),
# publishes them to a verdaccio (the repository's pinned devDependency; `npm ci` first) on
# 127.0.0.1, and measures:
#   - `npm install @probity/node` into a fresh project, from that registry, with an empty npm
#     cache and a PATH of node, npm and sh only (no cargo, no rustc): wall time, installed size
#     (`du` of node_modules), packages;
#   - `npm install @ast-grep/napi@$AST_GREP_VERSION` the same way from the npm registry
#     (over the network: its time includes downloads a loopback registry does not have);
#   - the sizes of the stripped addon and of the stripped `probity` binary (`file` says whether
#     they are stripped).
# Prints a Markdown table. Nothing here is a pass/fail check.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
AST_GREP_VERSION=0.51.2
VERDACCIO=$ROOT/node_modules/verdaccio/bin/verdaccio
[ -f "$VERDACCIO" ] || { echo "node-install.sh: no verdaccio: run \`npm ci\` in $ROOT" >&2; exit 2; }

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
cargo build --release --locked -p probity -p probity-node >&2
ADDON=$TARGET_DIR/release/libprobity_node.so
BIN=$TARGET_DIR/release/probity

WORK=$(mktemp -d)
VERDACCIO_PID=
cleanup() {
    if [ -n "$VERDACCIO_PID" ]; then kill "$VERDACCIO_PID" 2>/dev/null || true; wait "$VERDACCIO_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

node bindings/node/scripts/pack.js --addon="$ADDON" --stub=all --out-dir="$WORK/dist" >"$WORK/tarballs"
MAIN_TGZ=$(sed -n 1p "$WORK/tarballs")
NATIVE_TGZ=$(sed -n 2p "$WORK/tarballs")

# The registry: loopback, a free port, its own storage, no uplink.
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir "$WORK/registry"
cat >"$WORK/registry/config.yaml" <<'EOF'
storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: -1
uplinks: {}
packages:
  '**':
    access: $all
    publish: $all
log: { type: stdout, format: pretty, level: warn }
EOF
(cd "$WORK/registry" && exec node "$VERDACCIO" --config ./config.yaml --listen "127.0.0.1:$PORT" >verdaccio.log 2>&1) &
VERDACCIO_PID=$!
for _ in $(seq 600); do
    node -e "require('net').connect($PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" && break
    sleep 0.1
done
REGISTRY=http://127.0.0.1:$PORT/
echo "//127.0.0.1:$PORT/:_authToken=anonymous" >"$WORK/npmrc"

# A PATH with node, npm and sh only.
mkdir "$WORK/bin"
for tool in node npm sh; do ln -s "$(command -v "$tool")" "$WORK/bin/$tool"; done
if PATH=$WORK/bin command -v cargo >/dev/null || PATH=$WORK/bin command -v rustc >/dev/null; then
    echo "node-install.sh: cargo or rustc is on the install PATH" >&2
    exit 1
fi
rustless() {
    env -i PATH="$WORK/bin" HOME="$WORK/home" npm_config_userconfig="$WORK/npmrc" \
        npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false "$@"
}
mkdir "$WORK/home"
while read -r tgz; do
    rustless npm publish "$tgz" --registry "$REGISTRY" >/dev/null 2>&1
done <"$WORK/tarballs"

# One install into a fresh project with an empty cache: "seconds kilobytes packages".
measure() {
    local name=$1 registry=$2 spec=$3
    local project=$WORK/project-$name
    mkdir "$project"
    echo '{ "name": "consumer", "version": "1.0.0", "private": true }' >"$project/package.json"
    local start end
    start=$(date +%s.%N)
    (cd "$project" && rustless npm install "$spec" --registry "$registry" --cache "$WORK/cache-$name" >/dev/null)
    end=$(date +%s.%N)
    local kb packages
    kb=$(du -sk "$project/node_modules" | cut -f1)
    packages=$(node -p "Object.keys(require('$project/node_modules/.package-lock.json').packages).length")
    echo "$(awk "BEGIN { print $end - $start }") $kb $packages"
}
read -r P_S P_KB P_N < <(measure probity "$REGISTRY" @probity/node)
read -r A_S A_KB A_N < <(measure ast-grep https://registry.npmjs.org/ "@ast-grep/napi@$AST_GREP_VERSION")

mb() { awk "BEGIN { printf \"%.1f\", $1 / 1048576 }"; }
kb() { awk "BEGIN { printf \"%.0f\", $1 / 1024 }"; }
stripped() { file -b "$1" | grep -q ', stripped' && echo stripped || echo "NOT stripped"; }
GLIBC=$(objdump -T "$ADDON" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)

echo "| what | time | installed size | packages |"
echo "|---|---|---|---|"
printf '| `npm install @probity/node` (loopback registry, no cargo on PATH) | %.1f s | %s MB | %s |\n' "$P_S" "$(mb $((P_KB * 1024)))" "$P_N"
printf '| `npm install @ast-grep/napi@%s` (npm registry) | %.1f s | %s MB | %s |\n' "$AST_GREP_VERSION" "$A_S" "$(mb $((A_KB * 1024)))" "$A_N"
echo
echo "| file | size | |"
echo "|---|---|---|"
echo "| addon \`$(basename "$ADDON")\` | $(mb "$(stat -c %s "$ADDON")") MB | $(stripped "$ADDON"), needs $GLIBC |"
echo "| \`probity\` binary | $(mb "$(stat -c %s "$BIN")") MB | $(stripped "$BIN") |"
echo "| \`$(basename "$MAIN_TGZ")\` | $(kb "$(stat -c %s "$MAIN_TGZ")") kB | the main package's tarball |"
echo "| \`$(basename "$NATIVE_TGZ")\` | $(mb "$(stat -c %s "$NATIVE_TGZ")") MB | the platform package's tarball |"
