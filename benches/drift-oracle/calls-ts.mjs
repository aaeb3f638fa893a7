#!/usr/bin/env node
// The TypeScript compiler's reading of a package's functions and methods, for calls.py (the
// signature oracle of TypeScript and JavaScript): `node calls-ts.mjs ROOT FILE...` prints
// {"functions": [{ref, class, js, why, signatures: [{required, total, rest}]}], "skipped": {...}}.
// A signature is what the compiler parses (optional `?` and default parameters, a rest parameter,
// a `this` parameter that is no argument); overload signatures are the callable ones when a
// function has them (the implementation's is not). A class is cited by its constructors (see
// `constructors`). Names declared twice in the package, decorated methods and accessors are not
// cited (skipped, counted).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(join(process.cwd(), "package.json"));
const ts = require("typescript");

const [root, ...files] = process.argv.slice(2);
const skipped = {};
const skip = (why) => (skipped[why] = (skipped[why] || 0) + 1);
const decls = new Map(); // ref -> {class, js, why, nodes: [...], file}
const owners = new Map(); // top-level name -> set of files declaring it

function kindOf(file) {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (/\.(m|c)?ts$/.test(file)) return ts.ScriptKind.TS;
  if (file.endsWith(".jsx")) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

function signature(fn) {
  let required = 0;
  let total = 0;
  let rest = false;
  for (const p of fn.parameters) {
    if (ts.isIdentifier(p.name) && p.name.text === "this") continue;
    if (p.dotDotDotToken) {
      rest = true;
      continue;
    }
    total += 1;
    if (!p.questionToken && !p.initializer) required = total;
  }
  return { required, total, rest };
}

function add(ref, file, node, cls, js) {
  const d = decls.get(ref) || { class: cls, js, file, nodes: [] };
  if (d.file !== file) d.twice = true;
  d.nodes.push(node);
  decls.set(ref, d);
}

function decorated(node) {
  return (ts.canHaveDecorators?.(node) && (ts.getDecorators(node) || []).length > 0) || false;
}

// A class's constructors, cited as `Class(args)` (what `new Class(args)` binds): its own
// constructor declarations (overloads included); none and no `extends`, the implicit one, which
// takes no arguments. Not cited: a decorated or abstract class, one that inherits its constructor.
function constructors(st, name, rel, js) {
  const extendsClause = (st.heritageClauses || []).some(
    (h) => h.token === ts.SyntaxKind.ExtendsKeyword,
  );
  const abstract = (st.modifiers || []).some((m) => m.kind === ts.SyntaxKind.AbstractKeyword);
  if (decorated(st) || abstract) {
    skip("decorated or abstract class");
    return;
  }
  const own = st.members.filter((m) => ts.isConstructorDeclaration(m));
  if (own.length === 0 && extendsClause) {
    skip("inherited constructor");
    return;
  }
  const nodes = own.length > 0 ? own : [{ parameters: [], body: true }];
  for (const n of nodes) add(name, rel, n, name, js);
}

for (const rel of files) {
  let text;
  try {
    text = readFileSync(join(root, rel), "utf8");
  } catch {
    skip("unreadable file");
    continue;
  }
  if (rel.endsWith(".d.ts")) {
    skip("declaration file");
    continue;
  }
  const js = !/\.(m|c)?tsx?$/.test(rel);
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kindOf(rel));
  for (const st of sf.statements) {
    const name = st.name && ts.isIdentifier(st.name) ? st.name.text : null;
    if (name) {
      const s = owners.get(name) || new Set();
      s.add(rel);
      owners.set(name, s);
    }
    if (ts.isFunctionDeclaration(st) && name) {
      add(name, rel, st, "", js);
    } else if (ts.isClassDeclaration(st) && name) {
      constructors(st, name, rel, js);
      for (const m of st.members) {
        if (!ts.isMethodDeclaration(m) || !m.name || !ts.isIdentifier(m.name)) {
          if (ts.isGetAccessor(m) || ts.isSetAccessor(m)) {
            skip("accessor");
          }
          continue;
        }
        if (decorated(m)) {
          skip("decorated method");
          continue;
        }
        add(`${name}.${m.name.text}`, rel, m, name, js);
      }
    }
  }
}

const functions = [];
for (const [ref, d] of decls) {
  const head = ref.split(".")[0];
  if (d.twice || (owners.get(head)?.size || 0) > 1) {
    skip("name declared in two files");
    continue;
  }
  // overload signatures (no body) are the callable ones when there are any
  const overloads = d.nodes.filter((n) => !n.body);
  const bodies = d.nodes.filter((n) => n.body);
  if (bodies.length > 1) {
    skip("defined twice");
    continue;
  }
  const callable = overloads.length > 0 && !d.js ? overloads : d.nodes;
  functions.push({
    ref,
    class: d.class,
    js: d.js,
    why: `${d.file}: ${callable.map((n) => `(${n.parameters.map((p) => p.getText()).join(", ")})`).join(" | ").slice(0, 200)}`,
    signatures: callable.map(signature),
  });
}
process.stdout.write(JSON.stringify({ functions, skipped }));
