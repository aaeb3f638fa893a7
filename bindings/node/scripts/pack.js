#!/usr/bin/env node
// `npm run pack`: the tarballs a release publishes, as napi-rs packages are published: the main
// package `@probity/node` (JavaScript and declarations, every platform package under
// `optionalDependencies` at exactly its version, no install script) and the platform package
// of this machine, `@probity/node-<triple>` (the addon only, with `os`, `cpu`, `libc`). Every
// platform package is generated from the table of platforms.js; a release runs this on each
// platform of it and publishes the main tarball once. No npm dependency: node, npm and cargo.
//
//   node scripts/pack.js                 release build of the addon (`cargo build --release`)
//   node scripts/pack.js --debug         debug build, its debug info removed (objcopy), for tests
//   node scripts/pack.js --addon=FILE    package FILE as this machine's addon (no build)
//   node scripts/pack.js --stub=T,T|all  also stub platform packages for the triples T (`all`:
//                                        every other row), holding a placeholder, not an
//                                        addon: for tests of npm's selection only
//   node scripts/pack.js --out-dir=DIR   write the tarballs to DIR (default dist/)
//   node scripts/pack.js --sync          rewrite package.json's optionalDependencies from the
//                                        table, then stop
// It prints the path of each tarball written, one a line, the main package first. It refuses
// (exit 1) when package.json's optionalDependencies are not the table at the package's version.
"use strict";

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { PLATFORMS, packageName, addonFile, triple } = require("../platforms.js");

const pkgDir = path.resolve(__dirname, "..");
const argv = process.argv.slice(2);
const known = ["--debug", "--sync", "--addon=", "--stub=", "--out-dir="];
for (const a of argv) {
  if (!known.some((k) => (k.endsWith("=") ? a.startsWith(k) : a === k)))
    fail(`unknown argument ${a}`);
}
const option = (name) => {
  const a = argv.find((x) => x.startsWith(`${name}=`));
  return a === undefined ? null : a.slice(name.length + 1);
};
const debug = argv.includes("--debug");

function fail(message) {
  console.error(`@probity/node pack: ${message}`);
  process.exit(1);
}

const manifestFile = path.join(pkgDir, "package.json");
const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
const { version } = manifest;

/** The optionalDependencies the main package must have: every platform, exactly `version`. */
const wanted = Object.fromEntries(PLATFORMS.map((p) => [packageName(p.triple), version]));

if (argv.includes("--sync")) {
  manifest.optionalDependencies = wanted;
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(manifestFile);
  process.exit(0);
}
if (JSON.stringify(manifest.optionalDependencies) !== JSON.stringify(wanted)) {
  fail(
    "package.json's optionalDependencies are not every platform of platforms.js at " +
      `${version}: run \`node scripts/pack.js --sync\``,
  );
}
if (manifest.scripts && (manifest.scripts.install || manifest.scripts.postinstall)) {
  fail("the main package must have no install script");
}

const here = triple();
const row = PLATFORMS.find((p) => p.triple === here);
if (!row) fail(`${here} is no platform of platforms.js`);
let stubs = [];
const stubArg = option("--stub");
if (stubArg === "all") {
  stubs = PLATFORMS.filter((p) => p.triple !== here);
} else if (stubArg) {
  stubs = stubArg.split(",").map((t) => {
    const p = PLATFORMS.find((q) => q.triple === t);
    if (!p) fail(`--stub=${t}: no such platform (${PLATFORMS.map((q) => q.triple).join(", ")})`);
    if (t === here) fail(`--stub=${t}: that is this machine's platform, packaged for real`);
    return p;
  });
}
const given = option("--addon");
if (given !== null && !fs.statSync(given, { throwIfNoEntry: false })?.isFile()) {
  fail(`--addon=${given}: no such file`);
}
const outDir = path.resolve(option("--out-dir") || path.join(pkgDir, "dist"));
fs.mkdirSync(outDir, { recursive: true });

/** `npm pack DIR` into outDir; the tarball's path. */
function npmPack(dir) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = spawnSync(npm, ["pack", dir, "--json", "--pack-destination", outDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (r.error || r.status !== 0)
    fail(`npm pack ${dir} failed${r.error ? `: ${r.error.message}` : ""}`);
  const [packed] = JSON.parse(r.stdout);
  return path.join(outDir, packed.filename);
}

/** The package.json and README.md of a platform package; the addon is copied in by the caller. */
function platformPackage(p, dir, stub) {
  const name = packageName(p.triple);
  const pkg = {
    name,
    version,
    description: stub
      ? `STUB of ${name}: a placeholder, not an addon (for tests of npm's platform selection)`
      : `The ${p.target} native addon of @probity/node: install @probity/node, which loads it.`,
    license: manifest.license,
    main: addonFile(p.triple),
    files: [addonFile(p.triple), "README.md"],
    os: [p.os],
    cpu: [p.cpu],
    ...(p.libc ? { libc: [p.libc] } : {}),
    engines: manifest.engines,
  };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${name}\n\nThe native addon of [@probity/node](https://www.npmjs.com/package/@probity/node) ` +
      `for \`${p.target}\` (npm selects it by \`os\` ${p.os}, \`cpu\` ${p.cpu}` +
      `${p.libc ? `, \`libc\` ${p.libc}` : ""}). Install \`@probity/node\`, not this package: ` +
      "it lists every platform package under `optionalDependencies` and loads this one.\n",
  );
}

/** This machine's addon, into `file`: `--addon`, else built by scripts/build.js. */
function addon(file) {
  if (given) {
    fs.copyFileSync(given, file);
  } else {
    const args = [path.join(__dirname, "build.js"), `--out=${file}`];
    if (debug) args.push("--debug");
    const r = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) fail("scripts/build.js failed");
  }
  // A debug build carries some 130 MB of DWARF; the release profile strips already.
  if (debug && process.platform === "linux") {
    const r = spawnSync("objcopy", ["--strip-debug", file], { stdio: "inherit" });
    if (r.error)
      console.error(`@probity/node pack: objcopy: ${r.error.message}; packed unstripped`);
    else if (r.status !== 0) fail("objcopy --strip-debug failed");
  }
}

// The platform packages are put together here; removed however the script ends (`fail` exits).
const stage = fs.mkdtempSync(path.join(outDir, ".stage-"));
process.on("exit", () => fs.rmSync(stage, { recursive: true, force: true }));
{
  const written = [npmPack(pkgDir)];
  for (const [p, stub] of [[row, false], ...stubs.map((s) => [s, true])]) {
    const dir = path.join(stage, p.triple);
    fs.mkdirSync(dir);
    platformPackage(p, dir, stub);
    const file = path.join(dir, addonFile(p.triple));
    if (stub) fs.writeFileSync(file, "stub: not a native addon\n");
    else addon(file);
    written.push(npmPack(dir));
  }
  for (const file of written) console.log(file);
}
