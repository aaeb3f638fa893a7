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
    const fee = Math.ceil(amount * 0.029);
    this.fees += fee;
    return amount + fee;
  }

  get totalFees(): number {
    return this.fees;
  }
}
