import { describe, expect, it } from "vitest";
import { feeCents, statement, type Loan } from "./lateFees";

const due = new Date("2027-03-01T17:00:00Z");

describe("late fees", () => {
  it("waives returns within the grace period", () => {
    const loan: Loan = { itemId: "b1", kind: "book", dueDate: due, returnedAt: new Date("2027-03-03T09:00:00Z") };
    expect(feeCents(loan, new Date())).toBe(0);
  });

  it("charges books only for the days after grace", () => {
    const loan: Loan = { itemId: "b2", kind: "book", dueDate: due, returnedAt: new Date("2027-03-06T09:00:00Z") };
    expect(feeCents(loan, new Date())).toBe(125);
  });

  it("caps a lost laptop", () => {
    const loan: Loan = { itemId: "l1", kind: "laptop", dueDate: due };
    expect(statement([loan], new Date("2027-06-01T00:00:00Z")).totalCents).toBe(15000);
  });
});
