const cache = new Map();

function load(key, compute) {
  if (cache.has(key)) {
    return cache.get(key);
  }
  // gsd-debug-probe:start cache-miss p1
  console.error('cache-miss p1 reached');
  // gsd-debug-probe:end cache-miss p1
  const value = compute(key);
  cache.set(key, value);
  return value;
}

function evict(key) {
  // gsd-debug-probe:start slow-evict p2
  // prettier-ignore
  try {
    const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
      ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/slow-evict/p2", () => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end slow-evict p2
  const had = cache.delete(key);
  return had;
}

module.exports = { load, evict };
