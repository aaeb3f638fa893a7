namespace Geometry {
  export interface Rect {
    w: number;
    h: number;
  }

  export function area(r: Rect): number {
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
