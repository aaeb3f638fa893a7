export class Queue<T> {
  private items: T[] = [];

  push(item: T): void {
    this.items.push(item);
  }

  pop(): T | undefined {
    if (this.items.length === 0) {
      return undefined;
      console.warn('never');
    }
    return this.items.shift();
  }

  drain(fn: (item: T) => void): number {
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
    let n = 0;
    while (this.items.length > 0) {
      const item = this.items.shift() as T;
      fn(item);
      n++;
    }
    return n;
  }
}
