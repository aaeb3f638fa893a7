import { describe, expect, it } from "@jest/globals";
import { applyCoupons, CouponError } from "./coupons";

describe("applyCoupons", () => {
  it("applies a single percentage coupon", () => {
    expect(applyCoupons(80, [{ kind: "percent", code: "TEN", percent: 10 }]).total).toBe(72);
  });

  it("stacks two fixed coupons", () => {
    const summary = applyCoupons(100, [
      { kind: "fixed", code: "FIVE", amount: 5 },
      { kind: "fixed", code: "TEN", amount: 10 },
    ]);
    expect(summary).toStrictEqual({ subtotal: 100, discount: 15, total: 85, applied: ["FIVE", "TEN"] });
  });

  it("stacks a percentage coupon with a small fixed one", () => {
    const summary = applyCoupons(50, [
      { kind: "fixed", code: "TWO50", amount: 2.5 },
      { kind: "percent", code: "TWENTY", percent: 20 },
    ]);
    expect(summary).toStrictEqual({ subtotal: 50, discount: 12, total: 38, applied: ["TWO50", "TWENTY"] });
  });

  it("never goes below zero", () => {
    expect(applyCoupons(3, [{ kind: "fixed", code: "BIG", amount: 10 }]).total).toBe(0);
  });

  it("rejects a fixed coupon below its minimum subtotal", () => {
    expect(() => applyCoupons(10, [{ kind: "fixed", code: "MIN20", amount: 5, minSubtotal: 20 }])).toThrow(CouponError);
  });
});
