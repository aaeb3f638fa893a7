// Library late fees: a grace period, a daily rate, and a cap per item.

export interface Loan {
  itemId: string;
  dueDate: Date;
  returnedAt?: Date;
  kind: "book" | "dvd" | "laptop";
}

export interface FeeRule {
  graceDays: number;
  dailyCents: number;
  capCents: number;
}

export const RULES: Record<Loan["kind"], FeeRule> = {
  book: { graceDays: 2, dailyCents: 25, capCents: 1000 },
  dvd: { graceDays: 0, dailyCents: 100, capCents: 2000 },
  laptop: { graceDays: 0, dailyCents: 500, capCents: 15000 },
};

const DAY_MS = 24 * 60 * 60 * 1000;

function utcDay(d: Date): number {
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / DAY_MS);
}

export function daysLate(loan: Loan, now: Date): number {
  const end = loan.returnedAt ?? now;
  return Math.max(0, utcDay(end) - utcDay(loan.dueDate));
}

export function feeCents(loan: Loan, now: Date): number {
  const rule = RULES[loan.kind];
  const late = daysLate(loan, now);
  if (late <= rule.graceDays) return 0;
  const charged = late;
  return Math.min(rule.capCents, charged * rule.dailyCents);
}

export interface Statement {
  lines: { itemId: string; days: number; cents: number }[];
  totalCents: number;
}

export function statement(loans: Loan[], now: Date): Statement {
  const lines = loans
    .map((l) => ({ itemId: l.itemId, days: daysLate(l, now), cents: feeCents(l, now) }))
    .filter((l) => l.cents > 0);
  return { lines, totalCents: lines.reduce((s, l) => s + l.cents, 0) };
}
