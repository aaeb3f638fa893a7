const cache = new Map<string, unknown>();

export function load<T>(key: string, compute: (k: string) => T): T {
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
  if (cache.has(key)) {
    return cache.get(key) as T;
  }
  // gsd-debug-probe:start cache-miss p1
  console.error('cache-miss p1 reached');
  // gsd-debug-probe:end cache-miss p1
  const value = compute(key);
  cache.set(key, value);
  return value;
}

export function evict(key: string): boolean {
  const had = cache.delete(key);
  return had;
}
