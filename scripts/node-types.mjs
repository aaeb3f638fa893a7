#!/usr/bin/env node
// Generate bindings/node/types.d.ts, the result types of @probity/node, from the JSON Schemas
// `probity schema` prints (engine/src/contract), with the pinned json-schema-to-typescript of the
// root package.json. The package's functions resolve to the `data` of the CLI's `--json` envelope
// for the same command, so their types are those schemas' `data`, and cannot drift from them:
// tests/node_binding.rs runs `--check`.
//
//   node scripts/node-types.mjs            rewrite bindings/node/types.d.ts
//   node scripts/node-types.mjs --check    exit 1 (and say so) when the committed file is stale
//   --out=FILE                             that file instead of bindings/node/types.d.ts
//
// The probity binary: $PROBITY_BIN, else `cargo run --quiet --locked --bin probity`.
//
// Naming: the data of a command is `<Command>Data` (`PlaceData`, `SessionInitData` ...), the
// reason codes are `ReasonCode`; every other type keeps the name the schema gives it, and a name
// two commands use for different shapes is prefixed with the second command's name
// (`DriftSummary` is not needed today: verify's `Summary` is `VerifySummary`).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const outArg = process.argv.find((a) => a.startsWith("--out="));
const out = outArg ? outArg.slice("--out=".length) : join(repo, "bindings/node/types.d.ts");
const require = createRequire(import.meta.url);
const { compile } = require("json-schema-to-typescript");
const generatorVersion = require("json-schema-to-typescript/package.json").version;

/** The commands whose data the package returns, and the name of that data's type. */
const COMMANDS = [
  ["place", "PlaceData"],
  ["strip", "StripData"],
  ["session init", "SessionInitData"],
  ["session show", "SessionShowData"],
  ["session set-policy", "SessionSetPolicyData"],
  ["env", "EnvData"],
  ["run", "RunData"],
  ["run start", "RunStartData"],
  ["run finish", "RunFinishData"],
  ["compare", "CompareData"],
  ["cleanup", "CleanupData"],
  ["gate", "GateData"],
  ["session render", "SessionRenderData"],
  ["session sync", "SessionSyncData"],
  ["resolve", "ResolveData"],
  ["drift", "DriftData"],
  ["verify", "VerifySummary"],
  // Not an envelope: one line of `verify --json` before its envelope.
  ["verify record", "VerifyRecord"],
  ["accept diff", "AcceptDiffData"],
  ["accept tests", "AcceptTestsData"],
  ["accept reconfirm", "AcceptReconfirmData"],
  ["accept record", "AcceptRecordData"],
  ["accept verdict", "AcceptVerdictData"],
];
/** Renamed everywhere. */
const RENAMED = { Reason: "ReasonCode" };

function schemas() {
  const bin = process.env.PROBITY_BIN;
  const [cmd, args] = bin
    ? [bin, ["schema"]]
    : ["cargo", ["run", "--quiet", "--locked", "--bin", "probity", "--", "schema"]];
  const r = spawnSync(cmd, args, { cwd: repo, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    console.error(`node-types: ${cmd} ${args.join(" ")} failed: ${r.error ?? r.stderr}`);
    process.exit(2);
  }
  return JSON.parse(r.stdout);
}

const pascal = (s) => s.split(/[ -]/).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
const refName = (ref) => ref.replace(/^#\/\$defs\//, "");

/** `schema` with every local `$ref` renamed by `names`. */
function renamed(schema, names) {
  if (Array.isArray(schema)) return schema.map((s) => renamed(s, names));
  if (schema === null || typeof schema !== "object") return schema;
  const o = {};
  for (const [k, v] of Object.entries(schema)) {
    // A `$ref` with a `description` beside it would be a new type to the generator (`Ledger1`):
    // the referenced definition's own description documents it.
    if (k === "description" && schema.$ref) continue;
    o[k] = k === "$ref" ? `#/$defs/${names[refName(v)] ?? refName(v)}` : renamed(v, names);
  }
  // A `$ref` with constraints beside it (a record of `verify --json`: a `Finding` plus its
  // `type` tag) is both: `allOf`, which the generator reads as an intersection.
  if (o.$ref && Object.keys(o).length > 1) {
    const { $ref, ...rest } = o;
    return { allOf: [{ $ref }, rest] };
  }
  // Any JSON value (a saved policy is kept as it is): `unknown`, not an empty object type.
  const keywords = Object.keys(o).filter((k) => !["description", "examples", "title"].includes(k));
  if (keywords.length === 0 && typeof o.description === "string") o.tsType = "unknown";
  // An open string with known values (`Phase`, `Goal` ...): those values, or any other string.
  const known = o.type === "string" && Array.isArray(o.examples) && /^Known values/.test(o.description ?? "");
  if (known) o.tsType = [...o.examples.map((e) => JSON.stringify(e)), "(string & {})"].join(" | ");
  return o;
}

/** The local `$ref` names `schema` uses. */
function refs(schema, acc = new Set()) {
  if (schema && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      if (k === "$ref" && typeof v === "string") acc.add(refName(v));
      else refs(v, acc);
    }
  }
  return acc;
}

/** Every command's definitions in one `$defs`, shared where the shapes are the same. */
function merge(all) {
  const defs = {};
  const byContent = new Map();
  const roots = {};
  for (const [command, name] of COMMANDS) {
    const s = all[command];
    if (!s) throw new Error(`probity schema has no ${command}`);
    const local = { ...(s.$defs ?? {}) };
    const names = { ...RENAMED };
    let data;
    if (s.oneOf?.[0]?.properties?.data) {
      data = s.oneOf[0].properties.data;
    } else {
      const { $schema, $defs, title, ...rest } = s;
      rest.title = name;
      data = rest;
    }
    if (data.$ref) {
      names[refName(data.$ref)] = name;
    } else {
      local[name] = data;
    }
    // Dependencies first, so a definition is compared with its references already renamed.
    const order = [];
    const seen = new Set();
    const visit = (n) => {
      if (seen.has(n) || !local[n]) return;
      seen.add(n);
      for (const r of refs(local[n])) visit(r);
      order.push(n);
    };
    Object.keys(local).sort().forEach(visit);
    for (const n of order) {
      const body = JSON.stringify(renamed(local[n], names));
      const wanted = names[n] ?? n;
      const same = byContent.get(body);
      if (same && (same === wanted || !names[n])) {
        names[n] = same;
        continue;
      }
      let global = wanted;
      if (defs[global] !== undefined && JSON.stringify(defs[global]) !== body) {
        global = pascal(command) + wanted;
        if (defs[global] !== undefined && JSON.stringify(defs[global]) !== body) {
          throw new Error(`node-types: two shapes named ${global}`);
        }
      }
      names[n] = global;
      defs[global] = JSON.parse(body);
      byContent.set(body, global);
    }
    roots[command] = names[data.$ref ? refName(data.$ref) : name] ?? name;
  }
  return { defs, roots };
}

async function generate() {
  const all = schemas();
  const { defs, roots } = merge(all);
  const properties = {};
  for (const [command] of COMMANDS) properties[command] = { $ref: `#/$defs/${roots[command]}` };
  const root = {
    title: "CommandData",
    description:
      "The data of each command the package wraps, by CLI command (the `data` of its `--json` envelope).",
    type: "object",
    properties,
    required: COMMANDS.map(([c]) => c),
    additionalProperties: false,
    $defs: defs,
  };
  const banner = [
    "// GENERATED by scripts/node-types.mjs from `probity schema` (engine/src/contract) with",
    `// json-schema-to-typescript ${generatorVersion}: do not edit; run \`node scripts/node-types.mjs\`.`,
    "// The result types of @probity/node: each function resolves to the `data` of the CLI's",
    "// `--json` envelope for the same command. Keys stay as the CLI prints them (snake_case).",
  ].join("\n");
  const ts = await compile(root, "CommandData", {
    bannerComment: banner,
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    style: { printWidth: 100 },
  });
  // The generator's note under every definition says nothing the name does not.
  return ts.replace(/\n \*\n \* This interface was referenced by `CommandData`'s JSON-Schema\n \* via the `definition` "\w+"\./g, "");
}

const text = await generate();
if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(out, "utf8");
  } catch {
    // missing: stale
  }
  if (committed !== text) {
    console.error(`${out} is stale: regenerate it with \`node scripts/node-types.mjs\``);
    process.exit(1);
  }
  console.log(`${out} is up to date`);
} else {
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, out);
  console.log(out);
}
