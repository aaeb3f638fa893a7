import { describe, expect, it } from "vitest";
import { reorderPoint, suggest, suggestAll, type StockItem } from "./reorder";

const flat = (n: number, days = 14) => Array.from({ length: days }, () => n);

const beans: StockItem = {
  sku: "COF-BEAN-1KG",
  onHand: 40,
  onOrder: 0,
  dailyDemand: flat(10),
  leadTimeDays: 5,
  packSize: 6,
};

describe("reorder", () => {
  it("reorder point with steady demand has no safety stock", () => {
    expect(reorderPoint(beans)).toBe(50);
  });

  it("suggests whole packs up to the review period", () => {
    expect(suggest(beans)).toEqual({
      sku: "COF-BEAN-1KG",
      orderQty: 84,
      packs: 14,
      coverDays: 12,
      reason: "below-reorder-point",
    });
  });

  it("nothing to do above the reorder point", () => {
    expect(suggest({ ...beans, onOrder: 60 })).toBeNull();
  });

  it("discontinued items are never reordered", () => {
    expect(suggest({ ...beans, discontinued: true })).toBeNull();
  });

  it("a zero pack size is a data error", () => {
    expect(() => suggest({ ...beans, packSize: 0 })).toThrow(/pack size/);
  });

  it("a pallet item orders one pallet", () => {
    const cups: StockItem = { ...beans, sku: "CUP-PALLET", onHand: 10, dailyDemand: flat(4), packSize: 2000 };
    expect(suggest(cups)).toMatchObject({ packs: 1, orderQty: 2000 });
  });

  it("most urgent first", () => {
    const filters: StockItem = { ...beans, sku: "COF-FILTER", onHand: 5, packSize: 100 };
    expect(suggestAll([beans, filters]).map((s) => s.sku)).toEqual(["COF-BEAN-1KG", "COF-FILTER"]);
  });
});
