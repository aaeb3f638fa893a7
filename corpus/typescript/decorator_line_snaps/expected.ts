function log(target: unknown, key: string, desc: PropertyDescriptor): PropertyDescriptor {
  const original = desc.value as (...args: unknown[]) => unknown;
  desc.value = function (this: unknown, ...args: unknown[]) {
    return original.apply(this, args);
  };
  return desc;
}

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
export class Billing {
  private fees = 0;

  @log
  charge(amount: number): number {
    const fee = Math.ceil(amount * 0.029);
    this.fees += fee;
    return amount + fee;
  }

  get totalFees(): number {
    return this.fees;
  }
}
