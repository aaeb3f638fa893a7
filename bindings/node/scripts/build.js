#!/usr/bin/env node
// Build the native addon from source with cargo and copy it next to index.js as
// `probity.<triple>.node` (`probity.linux-x64-gnu.node`), the local build index.js loads before
// the platform package. No npm dependency: node and cargo only. It always runs cargo (which
// rebuilds what changed): a local build is as new as the source it was built from.
//
//   node scripts/build.js               release build (`npm run build`)
//   node scripts/build.js --debug       debug build (faster to compile; `npm run build:debug`)
//   node scripts/build.js --out=FILE    write the addon to FILE instead (tests, scripts/pack.js)
// The build is `--locked`: the versions of the repository's Cargo.lock.
"use strict";

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { addonFile, triple } = require("../platforms.js");

const pkgDir = path.resolve(__dirname, "..");
const argv = process.argv.slice(2);
const args = new Set(argv);
const outArg = argv.find((a) => a.startsWith("--out="));
const out = outArg
  ? path.resolve(outArg.slice("--out=".length))
  : path.join(pkgDir, addonFile(triple()));

// The cargo workspace: this package lives at bindings/node of the probity repository.
const workspace = process.env.PROBITY_SOURCE || path.resolve(pkgDir, "..", "..");
if (!fs.existsSync(path.join(workspace, "bindings", "node", "Cargo.toml"))) {
  console.error(
    `@probity/node: no probity source at ${workspace} to build the addon from ` +
      "(set PROBITY_SOURCE to a checkout of the repository)",
  );
  process.exit(1);
}

const cargo = process.env.CARGO || "cargo";
const cargoArgs = [
  "build",
  "--locked",
  "-p",
  "probity-node",
  "--message-format=json-render-diagnostics",
];
if (!args.has("--debug")) cargoArgs.push("--release");
console.error(`@probity/node: ${cargo} ${cargoArgs.join(" ")} (in ${workspace})`);
const r = spawnSync(cargo, cargoArgs, {
  cwd: workspace,
  stdio: ["ignore", "pipe", "inherit"],
  maxBuffer: 256 * 1024 * 1024,
  encoding: "utf8",
});
if (r.error) {
  console.error(
    `@probity/node: cannot run ${cargo}: ${r.error.message} (install Rust: https://rustup.rs)`,
  );
  process.exit(1);
}
if (r.status !== 0) process.exit(r.status || 1);

// The cdylib cargo reports: libprobity_node.so (Linux), .dylib (macOS), probity_node.dll (Windows).
let lib = null;
for (const line of r.stdout.split("\n")) {
  if (!line.startsWith("{")) continue;
  const msg = JSON.parse(line);
  if (msg.reason === "compiler-artifact" && msg.target && msg.target.name === "probity_node") {
    lib = msg.filenames.find((f) => /\.(so|dylib|dll)$/.test(f)) || lib;
  }
}
if (!lib) {
  console.error("@probity/node: cargo reported no probity_node library");
  process.exit(1);
}
// Copied under a temporary name, then renamed: a process loading `out` never sees half a file.
const tmp = `${out}.${process.pid}.tmp`;
fs.copyFileSync(lib, tmp);
fs.renameSync(tmp, out);
console.log(out);
