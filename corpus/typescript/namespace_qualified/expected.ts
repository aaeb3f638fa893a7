namespace Geometry {
  export interface Rect {
    w: number;
    h: number;
  }

  export function area(r: Rect): number {
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
    const a = r.w * r.h;
    return a;
  }

  export function perimeter(r: Rect): number {
    return 2 * (r.w + r.h);
  }
}

export abstract class Shape {
  abstract area(): number;

  describe(): string {
    const a = this.area();
    return `${this.constructor.name} with area ${a}`;
  }
}

export class Square extends Shape {
  constructor(private side: number) {
    super();
  }

  area(): number {
    return this.side ** 2;
  }
}
