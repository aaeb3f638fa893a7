// A full Runtime Evidence session and a drift check through @probity/node, in-process: no
// `probity` process is spawned (only the reproduction itself, by the library). Compiled with
// `tsc --strict` and run with `node --test` by tests/node_binding.rs, in a fixture repository
// (the current directory) holding cart.py from corpus/examples/python. With
// $PROBITY_NODE_RESULTS, every result is appended to that file as `{command, data}` (one JSON
// line), for the Rust test to check against `probity schema`.
/// <reference path="./node.d.ts" />
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
  // No anchor, or two: a compile error (test/unions.check.ts); from JavaScript, refused.
  const noAnchor = { file, slug: "s", probe: "p", hypotheses: ["h"] };
  await assert.rejects(
    probity.place(noAnchor as unknown as Probity.PlaceOptions),
    refusedWith("invalid_argument"),
  );
  const twoAnchors = { ...noAnchor, line: 2, function: "f" };
  await assert.rejects(
    probity.place(twoAnchors as unknown as Probity.PlaceOptions),
    refusedWith("invalid_argument"),
  );
  const badMessage = { ...noAnchor, line: 2, message: "runtime text" };
  await assert.rejects(
    probity.place(badMessage as unknown as Probity.PlaceOptions),
    refusedWith("invalid_message"),
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
  const both = { planText: plan, plan: "PLAN.md" } as unknown as Probity.DriftOptions;
  await assert.rejects(probity.drift(both), refusedWith("invalid_argument"));

  const resolved = seen("resolve", await probity.resolve({ refs: ["Cart.add", "Cart.remove"], noCache: true }));
  assert.deepEqual(
    resolved.results.map((r) => [r.ref, r.verdict]),
    [
      ["Cart.add", "VERIFIED"],
      ["Cart.remove", "MISSING"],
    ],
  );
  // `scip`: rung 4 (`--scip`); a file that is no SCIP index is refused with its code.
  await assert.rejects(
    probity.resolve({ refs: ["Cart.add"], noCache: true, scip: cart }),
    refusedWith("scip_index_invalid"),
  );
  // `lsp`: rung 3 (`--lsp`); an empty argv is refused.
  await assert.rejects(
    probity.resolve({ refs: ["Cart.add"], noCache: true, lsp: [] }),
    refusedWith("invalid_argument"),
  );
});

/** `git ARGS` in `cwd`, which must succeed. */
function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
}

test("a reproduction by hand, show, set-policy, env, and the guardrail on a real git change", async () => {
  // A git repository of its own: cart.py, a check whose exit status is the verdict, a unittest.
  const g = join(root, "guard");
  mkdirSync(g);
  // cart.py with its bug (the first test fixed the fixture's copy).
  const buggy = readFileSync(cart, "utf8").replace("    return amount - discount\n", "    return discount\n");
  assert.match(buggy, /\n    return discount\n/);
  writeFileSync(join(g, "cart.py"), buggy);
  writeFileSync(
    join(g, "check.py"),
    "import sys\nimport cart\nsys.exit(0 if cart.apply_discount(100.0, 10) == 90.0 else 1)\n",
  );
  writeFileSync(
    join(g, "test_cart.py"),
    "import unittest\nimport cart\n\n\nclass T(unittest.TestCase):\n" +
      "    def test_add(self):\n        c = cart.Cart()\n        c.add(\"pen\", 5.0, qty=2)\n" +
      "        self.assertEqual(c.subtotal(), 10.0)\n",
  );
  git(g, "init", "-q");
  git(g, "add", ".");
  git(g, "commit", "-qm", "cart");
  const slug = "guard";
  const at = { slug, root: g };

  await probity.session.init({ ...at });
  const shown = seen("session show", await probity.session.show(at));
  assert.deepEqual([shown.policy.effective, shown.session.slug], ["off", slug]);
  // Probes are opt-in: refused until the policy says `adaptive`.
  await assert.rejects(
    probity.place({ ...at, file: "cart.py", function: "apply_discount", probe: "p", hypotheses: ["h1"] }),
    refusedWith("policy_off"),
  );
  const set = seen("session set-policy", await probity.session.setPolicy({ ...at, policy: "adaptive" }));
  assert.equal(set.policy.effective, "adaptive");
  assert.equal((await probity.session.show(at)).policy.effective, "adaptive");
  const badPolicy = { ...at, policy: "on" } as unknown as Probity.SessionSetPolicyOptions;
  await assert.rejects(probity.session.setPolicy(badPolicy), refusedWith("invalid_argument"));

  // A relative `file` is named from `root`.
  const placed = await probity.place({
    ...at, file: "cart.py", function: "apply_discount", probe: "p-entry", hypotheses: ["h1"],
    message: "entry", captures: ["amount=amount"],
  });
  assert.equal(placed.placement.location, "cart.py:24");

  const env = seen("env", await probity.env(at));
  assert.equal(env.ledger, join(g, ".planning/debug/guard.evidence.json"));
  assert.equal(env.probes, 1);
  assert.equal(env.recorded, true);
  assert.ok(env.exports["GSD_DEBUG_PROBE_RUNTIME"]);
  await assert.rejects(
    probity.env({ root: g } as unknown as Probity.EnvOptions),
    refusedWith("invalid_argument"),
  );

  // The manual pair: start, the reproduction run here with the environment it returned, finish.
  const started = seen("run start", await probity.session.runStart({ ...at, phase: "baseline", label: "check by hand" }));
  assert.equal(started.run_id, "run-1");
  assert.ok(started.env["GSD_DEBUG_PROBE_SINK"]);
  const childEnv: Record<string, string | undefined> = { ...process.env, ...started.env };
  for (const k of started.unset) delete childEnv[k];
  const byHand = spawnSync("python3", ["check.py"], { cwd: g, env: childEnv, encoding: "utf8" });
  assert.equal(byHand.status, 1, byHand.stderr); // the bug: 10% off 100 is 10 here
  const finished = seen("run finish", await probity.session.runFinish(at));
  assert.equal(finished.run.run_id, "run-1");
  assert.equal(finished.run.reproduction_ref, "check by hand");
  assert.equal(finished.run.observations["p-entry"]?.verdict, "observed");
  await assert.rejects(probity.session.runFinish(at), refusedWith("run_not_found"));

  // The session's reproduction, as `accept reconfirm` will run it: in the process's directory
  // (reconfirm has no `cwd`), so by its absolute path.
  const command = ["python3", join(g, "check.py")];
  const baseline = await probity.session.run({ ...at, phase: "baseline", command, cwd: g });
  assert.equal(baseline.run.exit_code, 1);

  // The fix, the probe still in place.
  const withProbe = readFileSync(join(g, "cart.py"), "utf8");
  writeFileSync(join(g, "cart.py"), withProbe.replace("    return discount\n", "    return amount - discount\n"));

  const diff = seen("accept diff", await probity.accept.diff(at));
  assert.equal(diff.verdict, "pass");
  const analyzed = diff.files.filter((f) => f.analyzed);
  assert.deepEqual(analyzed.map((f) => [f.path, f.probe_blocks_excluded]), [["cart.py", 1]]);
  assert.equal(diff.verification?.no_op_deletion?.result, "pass");
  await assert.rejects(
    probity.accept.diff({ root: g, staged: true, commit: "HEAD" } as unknown as Probity.AcceptDiffOptions),
    refusedWith("invalid_argument"),
  );
  await assert.rejects(probity.accept.diff({ root: g, commit: "nope" }), refusedWith("bad_revision"));

  const tests = seen("accept tests", await probity.accept.tests({ ...at, run: true, noCache: true, timeoutSeconds: 60 }));
  assert.deepEqual(tests.tests.map((t) => t.path), ["test_cart.py"]);
  assert.equal(tests.result, "pass");
  assert.deepEqual(tests.suites.map((x) => x.status), ["pass"]);
  assert.equal(tests.verification?.adjacent_tests?.result, "pass");

  const reconfirmed = seen("accept reconfirm", await probity.accept.reconfirm({ ...at, command, timeoutSeconds: 60 }));
  assert.equal(reconfirmed.result, "pass");
  assert.equal(reconfirmed.bug_returned_on_revert, true);
  assert.equal(reconfirmed.fixed_on_reapply, true);
  assert.equal(reconfirmed.tree_restored, true);
  assert.equal(reconfirmed.verification?.revert_and_reconfirm?.result, "pass");
  assert.match(readFileSync(join(g, "cart.py"), "utf8"), /return amount - discount\n/);
  await assert.rejects(
    probity.accept.reconfirm({ ...at, command: ["python3", "other.py"] }),
    refusedWith("reproduction_mismatch"),
  );

  const incomplete = seen("accept verdict", await probity.accept.verdict(at));
  assert.equal(incomplete.verification.guardrail_verdict, "incomplete");
  assert.equal(incomplete.rejected_block, null);
  seen("accept record", await probity.accept.record({ ...at, signal: "target_test", result: "pass" }));
  await assert.rejects(
    probity.accept.record({ ...at, signal: "mutation_check", result: "skipped" }),
    refusedWith("invalid_argument"), // a skip needs its reason
  );
  // A reason is a sentence, not a document (no argv limit here to bound it).
  await assert.rejects(
    probity.accept.record({ ...at, signal: "mutation_check", result: "skipped", reason: "r".repeat(5000) }),
    refusedWith("invalid_argument"),
  );
  await probity.accept.record({ ...at, signal: "mutation_check", result: "skipped", reason: "no mutmut" });
  const verdict = seen("accept verdict", await probity.accept.verdict(at));
  assert.equal(verdict.verification.guardrail_verdict, "accepted");

  const cleaned = await probity.session.cleanup(at);
  assert.equal(cleaned.state, "clean");
  assert.doesNotMatch(readFileSync(join(g, "cart.py"), "utf8"), /gsd-debug-probe/);
});

test("every declared function is exported, and reason codes come from the addon", () => {
  const names = [
    "place", "strip", "verify", "resolve", "drift", "env", "sessionInit", "sessionShow",
    "sessionSetPolicy", "sessionRun", "sessionRunStart", "sessionRunFinish", "sessionCompare",
    "sessionCleanup", "sessionGate", "sessionRender", "sessionSync", "acceptDiff", "acceptTests",
    "acceptReconfirm", "acceptRecord", "acceptVerdict",
  ] as const;
  for (const n of names) assert.equal(typeof probity[n], "function", n);
  for (const group of [probity.session, probity.accept] as const) {
    for (const [n, f] of Object.entries(group)) assert.equal(typeof f, "function", n);
  }
  assert.equal(Object.keys(probity.session).length, 11);
  assert.equal(Object.keys(probity.accept).length, 5);
  const codes = probity.reasonCodes();
  assert(codes.includes("session_exists"));
  assert(codes.includes("invalid_identifier"));
});
