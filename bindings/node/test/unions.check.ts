// Compile-time checks of the options that take exactly one (or at most one) of several keys,
// and of the message label: every `// @ts-expect-error` line below must be an error under
// `tsc --strict`. tests/node_binding.rs compiles this file as it is (an expected error that does
// not occur fails: the union was lost), and again with the markers removed, where exactly the
// marked lines must fail. Never run: types only.
import type * as Probity from "../index";

declare const probity: typeof Probity;
const probe = { file: "cart.py", slug: "s", probe: "p", hypotheses: ["h1"] };

export async function checks(): Promise<void> {
  // place: exactly one anchor.
  await probity.place({ ...probe, line: 3 });
  await probity.place({ ...probe, function: "apply_discount", message: "entry" });
  await probity.place({ ...probe, afterCleanLine: 7 });
  // @ts-expect-error no anchor
  await probity.place({ ...probe });
  // @ts-expect-error two anchors
  await probity.place({ ...probe, line: 3, function: "apply_discount" });
  // @ts-expect-error two anchors
  await probity.place({ ...probe, cleanLine: 3, afterLine: 4 });
  // @ts-expect-error a message that is not a label
  await probity.place({ ...probe, line: 3, message: "entered apply_discount" });

  // drift: exactly one of plan, planText.
  await probity.drift({ plan: "PLAN.md" });
  await probity.drift({ planText: "Fix `f`.", noCache: true });
  // @ts-expect-error neither
  await probity.drift({ noCache: true });
  // @ts-expect-error both
  await probity.drift({ plan: "PLAN.md", planText: "Fix `f`." });

  // verify, accept diff, accept tests: at most one source.
  await probity.verify({ roots: ["."], staged: true });
  await probity.verify({ roots: ["."], staged: false, rev: "HEAD" });
  // @ts-expect-error staged and rev
  await probity.verify({ roots: ["."], staged: true, rev: "HEAD" });
  await probity.accept.diff();
  await probity.accept.diff({ commit: "HEAD", slug: "s" });
  await probity.accept.diff({ staged: false, range: "a..b" });
  // @ts-expect-error staged and commit
  await probity.accept.diff({ staged: true, commit: "HEAD" });
  // @ts-expect-error commit and range
  await probity.accept.diff({ commit: "HEAD", range: "a..b" });
  // @ts-expect-error a ledger without its slug
  await probity.accept.diff({ ledger: "l.json" });
  await probity.accept.tests({ files: ["cart.py"], run: true });
  // @ts-expect-error files and staged
  await probity.accept.tests({ files: ["cart.py"], staged: true });

  // accept record: exactly one of result, rcaJustification, acceptDebt.
  await probity.accept.record({ slug: "s", signal: "target_test", result: "pass" });
  await probity.accept.record({ slug: "s", signal: "mutation_check", acceptDebt: "no tool" });
  // @ts-expect-error result and acceptDebt
  await probity.accept.record({ slug: "s", signal: "target_test", result: "pass", acceptDebt: "x" });
  // @ts-expect-error none of them
  await probity.accept.record({ slug: "s", signal: "target_test" });
  // @ts-expect-error not a signal
  await probity.accept.record({ slug: "s", signal: "vibes", result: "pass" });

  // env: a ledger or a slug.
  await probity.env({ slug: "s" });
  await probity.env({ ledger: "l.json" });
  // @ts-expect-error neither
  await probity.env({ root: "." });
}
