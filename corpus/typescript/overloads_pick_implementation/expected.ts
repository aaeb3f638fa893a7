export function format(value: number): string;
export function format(value: Date): string;
export function format(value: number | Date): string {
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
  if (typeof value === 'number') {
    return value.toFixed(2);
  }
  return value.toISOString();
}

export const groupBy = <T, K extends string>(xs: T[], key: (x: T) => K): Record<K, T[]> => {
  const out = {} as Record<K, T[]>;
  for (const x of xs) {
    (out[key(x)] ??= []).push(x);
  }
  return out;
};
