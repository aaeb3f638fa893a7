"use strict";

import { readFileSync } from 'fs';

function legacy(path: string): string[] {
  "use strict";
  const text = readFileSync(path, 'utf8');
  return text.split('\n');
}

export function* lines(path: string): Generator<string> {
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
  for (const line of legacy(path)) {
    if (line.trim() === '') continue;
    yield line;
  }
}

export { legacy };
