const HELP: string = `Probe blocks are fenced by two comments:
// gsd-debug-probe:start demo-run p7
// gsd-debug-probe:end demo-run p7
`;

export function printHelp(out: { write(s: string): void }): number {
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    const gsd$p: any = (globalThis as any).process, gsd$e = gsd$p?.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt: any = !gsd$e ? (globalThis as any)[Symbol.for("GSDDBG1_rt1")]
      : gsd$p.getBuiltinModule ? gsd$p.getBuiltinModule("module").createRequire("/")(gsd$e + ".cjs")
      : gsd$p.mainModule.require(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
  const text = HELP.trim();
  out.write(text);
  return text.length;
}
