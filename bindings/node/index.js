// @probity/node: loads the native addon and turns its rejections into typed ProbityErrors.
// CommonJS; index.mjs re-exports it for ESM. Declarations: index.d.ts.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

/** The napi-rs triple of this machine: linux-x64-gnu, darwin-arm64, win32-x64-msvc ... */
function triple() {
  const { platform, arch } = process;
  if (platform === "linux") {
    const report = process.report && process.report.getReport && process.report.getReport();
    const glibc = report && report.header && report.header.glibcVersionRuntime;
    return `linux-${arch}-${glibc ? "gnu" : "musl"}`;
  }
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/**
 * The addon, first found of: $PROBITY_NODE_ADDON (a path, for tests and local builds), the
 * file `scripts/build.js` writes next to this one, the prebuilt package of this platform.
 */
function load() {
  const tried = [];
  const explicit = process.env.PROBITY_NODE_ADDON;
  const candidates = explicit
    ? [explicit]
    : [path.join(__dirname, `probity.${process.platform}-${process.arch}.node`)];
  for (const file of candidates) {
    tried.push(file);
    if (fs.existsSync(file)) {
      const m = { exports: {} };
      process.dlopen(m, path.resolve(file));
      return m.exports;
    }
  }
  if (!explicit) {
    const pkg = `@probity/node-${triple()}`;
    tried.push(pkg);
    try {
      return require(pkg);
    } catch (e) {
      if (e.code !== "MODULE_NOT_FOUND") throw e;
    }
  }
  throw new Error(
    `@probity/node: no native addon for ${triple()} (tried ${tried.join(", ")}); ` +
      "build it from source with `node scripts/build.js` (needs cargo)",
  );
}

const native = load();

/** A refusal of probity: `code` is the frozen reason code, `detail` the human detail. */
class ProbityError extends Error {
  constructor(code, detail, candidates) {
    super(`${code}: ${detail}`);
    this.name = "ProbityError";
    this.code = code;
    this.detail = detail;
    this.candidates = candidates || [];
  }
}

/** The addon rejects with the JSON `{reason, detail, candidates}` as the message. */
function typed(e) {
  if (e && typeof e.message === "string" && e.message.startsWith("{")) {
    try {
      const body = JSON.parse(e.message);
      if (typeof body.reason === "string") {
        return new ProbityError(body.reason, body.detail, body.candidates);
      }
    } catch {
      // not ours: fall through
    }
  }
  return e;
}

function wrap(name) {
  const f = native[name];
  return async function (options) {
    if (typeof f !== "function") {
      // An addon older than this index.js (a stale local build, PROBITY_NODE_ADDON).
      throw new Error(`@probity/node: the loaded addon has no ${name}: rebuild or reinstall it`);
    }
    try {
      return await f(options === undefined ? null : options);
    } catch (e) {
      throw typed(e);
    }
  };
}

const api = {
  ProbityError,
  reasonCodes: () => native.reasonCodes(),
  place: wrap("place"),
  strip: wrap("strip"),
  verify: wrap("verify"),
  resolve: wrap("resolve"),
  drift: wrap("drift"),
  env: wrap("env"),
  sessionInit: wrap("sessionInit"),
  sessionShow: wrap("sessionShow"),
  sessionSetPolicy: wrap("sessionSetPolicy"),
  sessionRun: wrap("sessionRun"),
  sessionRunStart: wrap("sessionRunStart"),
  sessionRunFinish: wrap("sessionRunFinish"),
  sessionCompare: wrap("sessionCompare"),
  sessionCleanup: wrap("sessionCleanup"),
  sessionGate: wrap("sessionGate"),
  sessionRender: wrap("sessionRender"),
  sessionSync: wrap("sessionSync"),
  acceptDiff: wrap("acceptDiff"),
  acceptTests: wrap("acceptTests"),
  acceptReconfirm: wrap("acceptReconfirm"),
  acceptRecord: wrap("acceptRecord"),
  acceptVerdict: wrap("acceptVerdict"),
};
api.session = {
  init: api.sessionInit,
  show: api.sessionShow,
  setPolicy: api.sessionSetPolicy,
  run: api.sessionRun,
  runStart: api.sessionRunStart,
  runFinish: api.sessionRunFinish,
  compare: api.sessionCompare,
  cleanup: api.sessionCleanup,
  gate: api.sessionGate,
  render: api.sessionRender,
  sync: api.sessionSync,
};
api.accept = {
  diff: api.acceptDiff,
  tests: api.acceptTests,
  reconfirm: api.acceptReconfirm,
  record: api.acceptRecord,
  verdict: api.acceptVerdict,
};

module.exports = api;
