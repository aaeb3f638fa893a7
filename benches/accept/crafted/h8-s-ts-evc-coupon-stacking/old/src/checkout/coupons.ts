export type Coupon =
  | { kind: "percent"; code: string; percent: number }
  | { kind: "fixed"; code: string; amount: number; minSubtotal?: number };

export interface Summary {
  subtotal: number;
  discount: number;
  total: number;
  applied: string[];
}

const MAX_PERCENT = 50;

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export class CouponError extends Error {
  constructor(public readonly code: string, message: string) {
    super(message);
    this.name = "CouponError";
  }
}

function validate(coupon: Coupon, subtotal: number): void {
  if (coupon.kind === "percent") {
    if (coupon.percent <= 0 || coupon.percent > MAX_PERCENT) {
      throw new CouponError(coupon.code, `percent out of range: ${coupon.percent}`);
    }
  } else if (coupon.minSubtotal !== undefined && subtotal < coupon.minSubtotal) {
    throw new CouponError(coupon.code, `subtotal below ${coupon.minSubtotal}`);
  }
}

/**
 * Apply coupons to a cart subtotal. Percentage coupons are computed on the
 * original subtotal; fixed coupons are subtracted afterwards. The discount
 * never exceeds the subtotal.
 */
export function applyCoupons(subtotal: number, coupons: Coupon[]): Summary {
  const applied: string[] = [];
  let running = subtotal;
  const ordered = [...coupons].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "fixed" ? -1 : 1));
  for (const coupon of ordered) {
    validate(coupon, subtotal);
    if (coupon.kind === "percent") {
      running -= (running * coupon.percent) / 100;
    } else {
      running -= coupon.amount;
    }
    applied.push(coupon.code);
  }
  const total = Math.max(0, round2(running));
  return { subtotal, discount: round2(subtotal - total), total, applied };
}
