function healthy(values) {
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
  let best = -Infinity;
  for (const v of values) {
    best = Math.max(best, v);
  }
  return best;
}

function broken(values) {
  const total = values.reduce((a, b) => a + b, 0);
  const avg = total / (values.length + ;
  return avg;
}
