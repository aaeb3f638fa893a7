import { totalCents, CartError } from "../src/cart";

describe("cart", () => {
  it("merges duplicate lines before validating", () => {
    const cart = {
      lines: [
        { sku: "A", quantity: 60, unitCents: 100 },
        { sku: "A", quantity: 60, unitCents: 100 },
      ],
    };
    expect(() => totalCents(cart)).toThrow(CartError);
  });

  it("allows a wholesale order of 250 stickers", () => {
    expect(totalCents({ lines: [{ sku: "STK", quantity: 250, unitCents: 40 }] })).toBe(10000);
  });
});
