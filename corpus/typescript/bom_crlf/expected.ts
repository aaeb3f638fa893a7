export class Queue<T> {
  private items: T[] = [];

  push(item: T): void {
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
    let n = 0;
    while (this.items.length > 0) {
      const item = this.items.shift() as T;
      fn(item);
      n++;
    }
    return n;
  }
}
