import { chargeableKg, classify } from "../src/parcel";

describe("parcel", () => {
  it("rounds chargeable weight up to the half kilo", () => {
    expect(chargeableKg({ lengthCm: 40, widthCm: 30, heightCm: 20, weightKg: 1.1 })).toBe(5);
  });

  it("treats a flat envelope as a letter regardless of orientation", () => {
    expect(classify({ lengthCm: 2, widthCm: 30, heightCm: 22, weightKg: 0.3 })).toBe("letter");
  });

  it("flags a long tube as oversize", () => {
    expect(classify({ lengthCm: 200, widthCm: 30, heightCm: 30, weightKg: 4 })).toBe("oversize");
  });
});
