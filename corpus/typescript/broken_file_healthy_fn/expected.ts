export function healthy(values: number[]): number {
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    let gsd$p: any = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f = gsd$m;
    if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
      gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && gsd$p
      .getBuiltinModule("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
    if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
  let best = -Infinity;
  for (const v of values) {
    best = Math.max(best, v);
  }
  return best;
}

export function broken(values: number[]): number {
  const total: number = values.reduce((a, b) => a + b, 0);
  const avg: number = total / (values.length + ;
  return avg;
}
