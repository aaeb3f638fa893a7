import { describe, expect, it } from "vitest";
import { assertAllowed } from "./ageGate";

const beer = { sku: "BEER-6", restriction: "alcohol" as const };

describe("age gate", () => {
  it("lets a verified 16-year-old in Germany buy beer on their birthday", () => {
    const c = { id: "c1", country: "DE", birthDate: "2011-03-10", verifiedAt: "2027-01-01" };
    expect(() => assertAllowed(c, [beer], new Date("2027-03-10T08:00:00Z"))).not.toThrow();
  });
});
