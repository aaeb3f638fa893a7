export function format(value: number): string;
export function format(value: Date): string;
export function format(value: number | Date): string {
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
