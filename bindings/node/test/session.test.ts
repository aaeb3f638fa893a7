// A full Runtime Evidence session and a drift check through @probity/node, in-process: no
// `probity` process is spawned (only the reproduction itself, by the library). Compiled with
// `tsc --strict` and run with `node --test` by tests/node_binding.rs, in a fixture repository
// (the current directory) holding cart.py from corpus/examples/python. With
// $PROBITY_NODE_RESULTS, every result is appended to that file as `{command, data}` (one JSON
// line), for the Rust test to check against `probity schema`.
/// <reference path="./node.d.ts" />
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as Probity from "../index";

const probity = require(process.env.PROBITY_NODE_PACKAGE as string) as typeof Probity;
const root = process.cwd();
const cart = join(root, "cart.py");

/** `data`, recorded as the `data` of the CLI command `command` when $PROBITY_NODE_RESULTS is set. */
function seen<T>(command: string, data: T): T {
  const file = process.env.PROBITY_NODE_RESULTS;
  if (file) appendFileSync(file, JSON.stringify({ command, data }) + "\n");
  return data;
}

/** A rejection that is a ProbityError with this reason code. */
function refusedWith(code: Probity.ReasonCode): (e: unknown) => boolean {
  return (e) => {
    assert(e instanceof probity.ProbityError, `not a ProbityError: ${String(e)}`);
    assert.equal(e.code, code);
    assert.equal(typeof e.detail, "string");
    return true;
  };
}

test("a full session: init, place, run, fix, run, compare, cleanup, verify run, gate", async () => {
  const slug = "cart-bug";
  const original = readFileSync(cart, "utf8");

  const init = seen("session init", await probity.session.init({ slug, policy: "adaptive" }));
  assert.equal(init.session.state, "not_used");
  assert.equal(init.ledger, join(root, ".planning/debug/cart-bug.evidence.json"));
  // A session's goal is immutable: a second init is refused, as a typed error.
  await assert.rejects(probity.session.init({ slug }), refusedWith("session_exists"));

  const entry: Probity.PlaceData = seen("place", await probity.place({
    file: cart,
    function: "apply_discount",
    slug,
    probe: "p-entry",
    hypotheses: ["h1"],
    message: "entry",
    captures: ["amount=amount"],
  }));
  assert.equal(entry.status, "placed");
  assert.equal(entry.probe, "p-entry");
  assert.equal(entry.language, "python");
  assert.equal(entry.ledger, init.ledger);
  assert.equal(entry.placement.location, "cart.py:24");
  const result = await probity.place({
    file: cart,
    cleanLine: 35,
    slug,
    probe: "p-total",
    hypotheses: ["h1"],
    message: "state",
    captures: ["total=total"],
  });
  assert.equal(result.placement.location, "cart.py:35");
  await assert.rejects(
    probity.place({ file: cart, line: 24, slug, probe: "P!", hypotheses: ["h1"] }),
    refusedWith("invalid_identifier"),
  );

  const command = ["python3", "cart.py"];
  const baseline = seen("run", await probity.session.run({ slug, phase: "baseline", command }));
  assert.equal(baseline.run.run_id, "run-1");
  assert.equal(baseline.run.status, "completed");
  assert.equal(baseline.run.exit_code, 0);
  assert.equal(baseline.run.observations["p-entry"]?.verdict, "observed");
  const totals = baseline.untrusted_captured.filter((e) => e.probe === "p-total");
  assert.deepEqual(
    totals.map((e) => e.data.total),
    [10],
  );
  assert.match(baseline.untrusted_stdout_tail, /total after 10% off 10\.00/);

  // The fix, with the probes still in place.
  const withProbes = readFileSync(cart, "utf8");
  assert.equal(withProbes.split("    return discount\n").length, 2);
  writeFileSync(cart, withProbes.replace("    return discount\n", "    return amount - discount\n"));
  const postFix = await probity.session.run({ slug, phase: "post_fix", command });
  assert.equal(postFix.run.run_id, "run-2");
  assert.match(postFix.untrusted_stdout_tail, /total after 10% off 90\.00/);

  const cmp = seen("compare", await probity.session.compare({ slug, runA: "run-1", runB: "run-2" }));
  assert.deepEqual(
    cmp.probes.map((r) => [r.probe, r.a.verdict, r.b.verdict, r.same_values]),
    [
      ["p-entry", "observed", "observed", true],
      ["p-total", "observed", "observed", false],
    ],
  );
  assert.equal(cmp.probes[0]?.a.reason, null);
  await assert.rejects(
    probity.session.compare({ slug, runA: "run-1", runB: "run-9" }),
    refusedWith("run_not_found"),
  );

  const cleaned = seen("cleanup", await probity.session.cleanup({ slug }));
  assert.equal(cleaned.state, "clean");
  assert.equal(cleaned.cleanup?.markers_remaining, 0);
  assert.deepEqual(cleaned.copies, []);
  assert.equal(
    readFileSync(cart, "utf8"),
    original.replace("    return discount\n", "    return amount - discount\n"),
  );

  const verifyRun = await probity.session.run({ slug, phase: "uninstrumented_verify", command });
  assert.equal(verifyRun.run.run_id, "run-3");
  assert.equal(verifyRun.run.exit_code, 0);
  assert.deepEqual(verifyRun.run.observations, {});

  // The data of `probity gate --json`: nothing blocks is its status `ok`.
  const gate = seen("gate", await probity.session.gate());
  assert.deepEqual(gate, { sessions: 1, blocking: [] });

  const md = seen("session render", await probity.session.render({ slug }));
  assert.match(md.markdown, /^## Runtime Evidence/m);
  const notes = join(root, "notes.md");
  writeFileSync(notes, "# cart bug\n\nnotes\n");
  assert.deepEqual(seen("session sync", await probity.session.sync({ slug, file: notes })), {
    file: notes,
    changed: true,
  });
  assert.match(readFileSync(notes, "utf8"), /^# cart bug\n\nnotes\n/);

  const verified = await probity.verify({ roots: [root] });
  seen("verify", verified.summary);
  assert.deepEqual([verified.summary.findings, verified.summary.file_errors], [0, 0]);
  assert.deepEqual(verified.findings, []);
});

test("place and strip with a plain ledger, a dry run, and refusals of bad options", async () => {
  const ledger = join(root, "probes.json");
  const file = join(root, "tool.py");
  const text = "def f(x):\n    return x + 1\n";
  writeFileSync(file, text);
  const dry = await probity.place({ file, line: 2, slug: "s", probe: "p", hypotheses: ["h"], dryRun: true });
  assert.equal(dry.status, "dry_run");
  assert.equal(readFileSync(file, "utf8"), text);
  await probity.place({ file, line: 2, slug: "s", probe: "p", hypotheses: ["h"], ledger });
  const stripped = seen("strip", await probity.strip({ ledger }));
  assert.equal(stripped.status, "clean");
  assert.deepEqual(
    stripped.probes.map((p) => [p.probe, p.outcome]),
    [["p", "removed"]],
  );
  assert.equal(readFileSync(file, "utf8"), text);
  // An unknown option is refused, not ignored.
  const bad = { ledger, sluggish: "s" } as unknown as Probity.StripOptions;
  await assert.rejects(probity.strip(bad), refusedWith("invalid_argument"));
  await assert.rejects(
    probity.place({ file, slug: "s", probe: "p", hypotheses: ["h"] }),
    refusedWith("invalid_argument"),
  );
});

test("drift and resolve: a plan's symbols against the fixture's declarations", async () => {
  const plan = [
    "# Plan",
    "",
    "Fix `apply_discount` in `cart.py`, called from `Cart.subtotal`'s caller `main`.",
    "Then call `apply_coupon`.",
    "",
  ].join("\n");
  const report = seen("drift", await probity.drift({ planText: plan, noCache: true }));
  assert.equal(report.plan, "-");
  const verdicts = Object.fromEntries(report.results.map((r) => [r.ref, r.verdict]));
  assert.equal(verdicts["apply_discount"], "VERIFIED");
  assert.equal(verdicts["Cart.subtotal"], "VERIFIED");
  assert.equal(verdicts["apply_coupon"], "MISSING");
  assert.equal(report.summary.max_severity, "needs-acknowledgement");
  assert.match(report.coverage_markdown, /apply_coupon/);
  // `--fail-on` is the CLI's exit code; the package gives the data, and refuses the option.
  const failOn = { planText: plan, failOn: "high" } as unknown as Probity.DriftOptions;
  await assert.rejects(probity.drift(failOn), refusedWith("invalid_argument"));

  const resolved = seen("resolve", await probity.resolve({ refs: ["Cart.add", "Cart.remove"], noCache: true }));
  assert.deepEqual(
    resolved.results.map((r) => [r.ref, r.verdict]),
    [
      ["Cart.add", "VERIFIED"],
      ["Cart.remove", "MISSING"],
    ],
  );
});

test("every declared function is exported, and reason codes come from the addon", () => {
  const names = [
    "place", "strip", "verify", "resolve", "drift", "sessionInit", "sessionRun",
    "sessionCompare", "sessionCleanup", "sessionGate", "sessionRender", "sessionSync",
  ] as const;
  for (const n of names) assert.equal(typeof probity[n], "function", n);
  for (const n of Object.keys(probity.session)) {
    assert.equal(typeof probity.session[n as keyof typeof probity.session], "function", n);
  }
  const codes = probity.reasonCodes();
  assert(codes.includes("session_exists"));
  assert(codes.includes("invalid_identifier"));
});
