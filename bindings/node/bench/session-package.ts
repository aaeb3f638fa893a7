// The same session as session-cli.ts through @probity/node: no `probity` process, typed results,
// refusals as ProbityError. Counted in bench/README.md.
import { readFileSync, writeFileSync } from "node:fs";
import type * as Probity from "../index";

const probity = require(process.env.PROBITY_NODE_PACKAGE ?? "@probity/node") as typeof Probity;

async function main(): Promise<void> {
  const slug = "cart-bug";
  await probity.session.init({ slug, policy: "adaptive" });
  const place = (probe: string, at: Probity.PlaceAnchor, message: Probity.ProbeMessage, capture: string) =>
    probity.place({ file: "cart.py", ...at, slug, probe, hypotheses: ["h1"], message, captures: [capture] });
  await place("p-entry", { function: "apply_discount" }, "entry", "amount=amount");
  await place("p-total", { cleanLine: 35 }, "state", "total=total");
  const run = async (phase: Probity.SessionRunOptions["phase"]) => {
    const { run } = await probity.session.run({ slug, phase, command: ["python3", "cart.py"] });
    if (run.status !== "completed") throw new Error(`run ${phase}: ${run.status}`);
    return run;
  };
  const baseline = await run("baseline");
  const text = readFileSync("cart.py", "utf8");
  writeFileSync("cart.py", text.replace("    return discount\n", "    return amount - discount\n"));
  const postFix = await run("post_fix");
  const cmp = await probity.session.compare({ slug, runA: baseline.run_id, runB: postFix.run_id });
  const { state } = await probity.session.cleanup({ slug });
  if (state !== "clean") throw new Error(`cleanup: ${state}`);
  const verified = await run("uninstrumented_verify");
  const gate = await probity.session.gate();
  writeFileSync("notes.md", "# cart bug\n");
  const { changed } = await probity.session.sync({ slug, file: "notes.md" });
  writeFileSync("PLAN.md", "Fix `apply_discount`, then call `apply_coupon`.\n");
  const drift = await probity.drift({ plan: "PLAN.md", noCache: true });

  console.log(JSON.stringify({
    runs: [baseline, postFix, verified].map((r) => r.run_id),
    compare: cmp.probes.map((r) => [r.probe, r.same_values]),
    gate: gate.blocking.length === 0,
    synced: changed,
    drift: drift.results.map((r) => `${r.ref}=${r.verdict}`),
    spawns: 0,
  }));
}

main().then(undefined, (e: unknown) => { throw e; });
