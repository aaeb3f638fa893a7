async function loadSettings(store, key) {
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
      ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
  let raw;
  try {
    raw = await store.get(key);
    return JSON.parse(raw);
  } catch (err) {
    console.error('bad settings', key, err.message);
    return {};
  } finally {
    store.release(key);
  }
}

module.exports = { loadSettings };
