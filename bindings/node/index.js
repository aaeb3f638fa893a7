// @probity/node: loads the native addon and turns its rejections into typed ProbityErrors.
// CommonJS; index.mjs re-exports it for ESM. Declarations: index.d.ts.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { PLATFORMS, packageName, addonFile, triple } = require("./platforms.js");

function dlopen(file) {
  const m = { exports: {} };
  process.dlopen(m, path.resolve(file));
  return m.exports;
}

/**
 * The addon, first found of:
 * 1. `$PROBITY_NODE_ADDON` (a file; when set, nothing else is tried);
 * 2. a local build next to this file (`npm run build` in a checkout writes
 *    `probity.<triple>.node`; never in a published package: `files` does not list it);
 * 3. the platform package `@probity/node-<triple>`, which npm installs from
 *    `optionalDependencies` by its `os`, `cpu` and `libc`, at exactly this package's version.
 */
function load() {
  const here = triple();
  const explicit = process.env.PROBITY_NODE_ADDON;
  if (explicit) {
    if (!fs.existsSync(explicit)) {
      throw new Error(`@probity/node: PROBITY_NODE_ADDON=${explicit}: no such file`);
    }
    return dlopen(explicit);
  }
  const local = path.join(__dirname, addonFile(here));
  if (fs.existsSync(local)) return dlopen(local);
  const pkg = packageName(here);
  const { version } = require("./package.json");
  let manifest = null;
  try {
    manifest = require(`${pkg}/package.json`);
  } catch (e) {
    if (e.code !== "MODULE_NOT_FOUND") throw e;
  }
  if (manifest) {
    if (manifest.version !== version) {
      throw new Error(
        `@probity/node: ${pkg} is version ${manifest.version}, this package ${version}: ` +
          `install the same version (\`npm install ${pkg}@${version}\`)`,
      );
    }
    try {
      return require(pkg);
    } catch (e) {
      // A glibc older than the addon's floor fails here (README.md, the platform matrix).
      throw new Error(`@probity/node: ${pkg} did not load: ${e.message}`, { cause: e });
    }
  }
  const source =
    "or build it from a checkout of the probity repository (needs cargo): `npm run build` in " +
    "bindings/node, or `PROBITY_NODE_ADDON=FILE` for an addon built elsewhere";
  if (!PLATFORMS.some((p) => p.triple === here)) {
    throw new Error(
      `@probity/node: no prebuilt addon for ${here} (published for ` +
        `${PLATFORMS.map((p) => p.triple).join(", ")}); ${source}`,
    );
  }
  throw new Error(
    `@probity/node: the native addon for this platform (${here}) is not installed: ` +
      `\`npm install ${pkg}@${version}\` (npm leaves it out under --omit=optional, and a ` +
      `node_modules installed for another platform lacks it); ${source}`,
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
