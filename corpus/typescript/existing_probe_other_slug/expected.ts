const cache = new Map<string, unknown>();

export function load<T>(key: string, compute: (k: string) => T): T {
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
  // gsd-debug-probe:start slow-evict p2
  // prettier-ignore
  try {
    const gsd$p: any = (globalThis as any).process, gsd$e = gsd$p?.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt: any = !gsd$e ? (globalThis as any)[Symbol.for("GSDDBG1_rt1")]
      : gsd$p.getBuiltinModule ? gsd$p.getBuiltinModule("module").createRequire("/")(gsd$e + ".cjs")
      : gsd$p.mainModule.require(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/slow-evict/p2", () => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end slow-evict p2
  const had = cache.delete(key);
  return had;
}
