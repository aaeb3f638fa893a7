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
export enum Level {
  Debug,
  Info,
  Warn,
  Error,
}

export function prefix(level: Level): string {
  switch (level) {
    case Level.Debug:
    case Level.Info:
      return 'I';
    case Level.Warn: {
      const tag = 'W';
      return tag;
    }
    default:
      throw new RangeError(`bad level ${level}`);
  }
}
