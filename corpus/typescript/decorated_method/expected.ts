function log(target: unknown, key: string, desc: PropertyDescriptor): PropertyDescriptor {
  const original = desc.value as (...args: unknown[]) => unknown;
  desc.value = function (this: unknown, ...args: unknown[]) {
    return original.apply(this, args);
  };
  return desc;
}

export class Billing {
  private fees = 0;

  @log
  charge(amount: number): number {
    // gsd-debug-probe:start golden-run p1
    // prettier-ignore
    try {
      let gsd$p: any = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f = gsd$m;
      if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
        gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && gsd$p
        .getBuiltinModule("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
      if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
        ["amount", amount],
        ["fees", this.fees],
      ]);
    } catch (e) {}
    // gsd-debug-probe:end golden-run p1
    const fee = Math.ceil(amount * 0.029);
    this.fees += fee;
    return amount + fee;
  }

  get totalFees(): number {
    return this.fees;
  }
}
