import { totalCents, CartError } from "../src/cart";

describe("cart", () => {
  it("applies a coupon to the merged lines", () => {
    const cart = {
      lines: [
        { sku: "A", quantity: 1, unitCents: 500 },
        { sku: "A", quantity: 1, unitCents: 500 },
      ],
      couponPercent: 10,
    };
    expect(totalCents(cart)).toBe(900);
  });

  it("rejects a negative quantity", () => {
    expect(() => totalCents({ lines: [{ sku: "B", quantity: -1, unitCents: 1 }] })).toThrow(CartError);
  });

  it("allows a wholesale order of 250 stickers", () => {
    expect(totalCents({ lines: [{ sku: "STK", quantity: 250, unitCents: 40 }] })).toBe(10000);
  });
});
