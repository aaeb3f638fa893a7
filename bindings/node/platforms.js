// The platforms @probity/node is published for: one table, read by index.js (which package to
// load), scripts/pack.js (the platform packages it writes, and the main package's
// optionalDependencies it checks) and the tests (README.md's matrix lists the same rows).
"use strict";

/**
 * One row per platform package `@probity/node-<triple>`: the npm `os`, `cpu` and `libc` fields
 * npm selects it by, and the Rust target that builds its addon.
 */
const PLATFORMS = [
  {
    triple: "linux-x64-gnu",
    os: "linux",
    cpu: "x64",
    libc: "glibc",
    target: "x86_64-unknown-linux-gnu",
  },
  {
    triple: "linux-arm64-gnu",
    os: "linux",
    cpu: "arm64",
    libc: "glibc",
    target: "aarch64-unknown-linux-gnu",
  },
  {
    triple: "linux-x64-musl",
    os: "linux",
    cpu: "x64",
    libc: "musl",
    target: "x86_64-unknown-linux-musl",
  },
  {
    triple: "linux-arm64-musl",
    os: "linux",
    cpu: "arm64",
    libc: "musl",
    target: "aarch64-unknown-linux-musl",
  },
  { triple: "darwin-x64", os: "darwin", cpu: "x64", target: "x86_64-apple-darwin" },
  { triple: "darwin-arm64", os: "darwin", cpu: "arm64", target: "aarch64-apple-darwin" },
  { triple: "win32-x64-msvc", os: "win32", cpu: "x64", target: "x86_64-pc-windows-msvc" },
];

/** The package name of a triple: `@probity/node-linux-x64-gnu`. */
function packageName(triple) {
  return `@probity/node-${triple}`;
}

/** The addon file a platform package holds (its `main`): `probity.linux-x64-gnu.node`. */
function addonFile(triple) {
  return `probity.${triple}.node`;
}

/** Whether this Linux process runs on glibc (else musl), as npm's own `libc` check decides. */
function isGlibc() {
  const report = process.report && process.report.getReport && process.report.getReport();
  return Boolean(report && report.header && report.header.glibcVersionRuntime);
}

/** The triple of this machine, named as the table names it: linux-x64-gnu, darwin-arm64 ... */
function triple() {
  const { platform, arch } = process;
  if (platform === "linux") return `linux-${arch}-${isGlibc() ? "gnu" : "musl"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

module.exports = { PLATFORMS, packageName, addonFile, triple };
