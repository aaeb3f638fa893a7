// Validates probity's JSON outputs against `probity schema` (draft 2020-12) with ajv, for the
// test suite (tests/util.rs `check_json_output`). Usage: node contract_validate.mjs SCHEMAS.json
// Reads one JSON document per stdin line; answers one line each: `ok <schema>` or
// `invalid <schema> <ajv errors as JSON>`. The schema is the one named by the document's
// `command` (`envelope` for a usage error naming no command), or `verify record` for a line of
// `verify --json` before its envelope (it has a `type`); `{"probity_schema": NAME, "document":
// DOC}` checks DOC against the schema NAME; `{"inline_schema": SCHEMA, "document": DOC}` checks
// DOC against SCHEMA (compiled once per distinct schema: the MCP server's output schemas).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const schemas = JSON.parse(readFileSync(process.argv[2], "utf8"));
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
const validators = {};
for (const [name, schema] of Object.entries(schemas)) {
  try {
    validators[name] = ajv.compile(schema);
  } catch (e) {
    throw new Error(`schema ${name}: ${e.message}`);
  }
}

const inline = new Map();
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let doc;
  try {
    doc = JSON.parse(line);
  } catch (e) {
    process.stdout.write(`invalid - not JSON: ${e.message}\n`);
    return;
  }
  let name;
  if (doc && typeof doc === "object" && "inline_schema" in doc && "document" in doc) {
    const key = JSON.stringify(doc.inline_schema);
    let validate = inline.get(key);
    if (!validate) {
      try {
        validate = ajv.compile(doc.inline_schema);
      } catch (e) {
        process.stdout.write(`invalid inline schema does not compile: ${e.message}\n`);
        return;
      }
      inline.set(key, validate);
    }
    if (validate(doc.document)) {
      process.stdout.write(`ok inline\n`);
    } else {
      process.stdout.write(`invalid inline ${JSON.stringify(validate.errors)}\n`);
    }
    return;
  }
  if (doc && typeof doc === "object" && "probity_schema" in doc && "document" in doc) {
    // An explicit request: `{"probity_schema": NAME, "document": DOC}`.
    name = doc.probity_schema;
    doc = doc.document;
    if (!validators[name]) {
      process.stdout.write(`invalid ${name} no such schema\n`);
      return;
    }
  } else if (doc && typeof doc === "object" && "type" in doc && !("command" in doc)) {
    name = "verify record";
  } else if (doc && typeof doc.command === "string" && validators[doc.command]) {
    name = doc.command;
  } else {
    name = "envelope";
  }
  const validate = validators[name];
  if (validate(doc)) {
    process.stdout.write(`ok ${name}\n`);
  } else {
    process.stdout.write(`invalid ${name} ${JSON.stringify(validate.errors)}\n`);
  }
});
