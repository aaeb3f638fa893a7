// A full session driven through the CLI, as a TypeScript front-end must do it without the
// package: one `probity` process per step, an argv per command, each output an envelope
// (`status` decides, `data` carries), the types of the data written by hand. Run in a
// repository holding cart.py (corpus/examples/python); prints one summary line. Counted in
// bench/README.md.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const bin = process.env.PROBITY_BIN ?? "probity";
let spawns = 0;

class ProbityError extends Error {
  constructor(readonly code: string, readonly detail: string) {
    super(`${code}: ${detail}`);
  }
}

interface Json { [key: string]: unknown }

type Status = "ok" | "not_clean" | "refused" | "failed";
interface Envelope { status: Status; reason: string | null; detail: string | null; data: Json }

function probity(args: string[], tail: string[] = []): { status: Status; data: Json } {
  spawns++;
  const r = spawnSync(bin, [...args, "--json", ...tail], { encoding: "utf8" });
  if (r.error) throw r.error;
  let value: Envelope;
  try {
    value = JSON.parse(r.stdout) as Envelope;
  } catch {
    throw new Error(`probity ${args[0]}: exit ${r.status}, no JSON: ${r.stderr}`);
  }
  if (value.status === "refused" || value.status === "failed") {
    throw new ProbityError(String(value.reason), String(value.detail));
  }
  return { status: value.status, data: value.data };
}

interface RunRecord { run_id: string; status: string }
interface CompareRow { probe: string; same_values: boolean | null }
interface Resolution { ref: string; verdict: string }

const slug = "cart-bug";
const session = ["--slug", slug];
probity(["session", "init", ...session, "--policy", "adaptive"]);
function place(probe: string, anchor: string[], message: string, capture: string): void {
  probity([
    "place", "cart.py", ...anchor, ...session, "--probe", probe,
    "--hypothesis", "h1", "--message", message, "--capture", capture,
  ]);
}
place("p-entry", ["--function", "apply_discount"], "entry", "amount=amount");
place("p-total", ["--clean-line", "35"], "state", "total=total");

function run(phase: string): RunRecord {
  const { data } = probity(["run", ...session, "--phase", phase], ["--", "python3", "cart.py"]);
  const record = data.run as RunRecord;
  if (record.status !== "completed") throw new Error(`run ${phase}: ${record.status}`);
  return record;
}
const baseline = run("baseline");
const text = readFileSync("cart.py", "utf8");
writeFileSync("cart.py", text.replace("    return discount\n", "    return amount - discount\n"));
const postFix = run("post_fix");
const rows = probity(["compare", ...session, baseline.run_id, postFix.run_id]).data.probes as CompareRow[];

const cleanup = probity(["cleanup", ...session]);
if (cleanup.status !== "ok") throw new Error(`cleanup: ${String(cleanup.data.state)}`);
const verified = run("uninstrumented_verify");
const gate = probity(["gate"]);
writeFileSync("notes.md", "# cart bug\n");
const synced = probity(["session", "sync", "notes.md", ...session]).data.changed as boolean;
writeFileSync("PLAN.md", "Fix `apply_discount`, then call `apply_coupon`.\n");
const drift = probity(["drift", "--plan", "PLAN.md", "--no-cache"]);
const verdicts = (drift.data.results as Resolution[]).map((r) => `${r.ref}=${r.verdict}`);

console.log(JSON.stringify({
  runs: [baseline, postFix, verified].map((r) => r.run_id),
  compare: rows.map((r) => [r.probe, r.same_values]),
  gate: gate.status === "ok",
  synced,
  drift: verdicts,
  spawns,
}));
