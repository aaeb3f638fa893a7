export type Stage = 'none' | 'friendly' | 'firm' | 'final' | 'collections';

export interface Invoice {
  number: string;
  dueDate: string; // YYYY-MM-DD
  amountCents: number;
  paidCents: number;
  remindersSent: number;
  disputed?: boolean;
}

const LADDER: Array<{ afterDays: number; stage: Stage }> = [
  { afterDays: 60, stage: 'collections' },
  { afterDays: 30, stage: 'final' },
  { afterDays: 14, stage: 'firm' },
  { afterDays: 3, stage: 'friendly' },
];

function parseDay(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m, d));
}

export function daysOverdue(invoice: Invoice, today: string): number {
  const ms = parseDay(today).getTime() - parseDay(invoice.dueDate).getTime();
  return Math.max(0, Math.floor(ms / 86_400_000));
}

export function outstanding(invoice: Invoice): number {
  return Math.max(0, invoice.amountCents - invoice.paidCents);
}

export function stageFor(invoice: Invoice, today: string): Stage {
  if (outstanding(invoice) === 0 || invoice.disputed) return 'none';
  if (invoice.remindersSent === 0 && today > invoice.dueDate) return 'friendly';
  const overdue = daysOverdue(invoice, today);
  for (const rung of LADDER) {
    if (overdue >= rung.afterDays) return rung.stage;
  }
  return 'none';
}

export function lateFeeCents(invoice: Invoice, today: string, monthlyRate = 0.015): number {
  const overdue = daysOverdue(invoice, today);
  if (overdue < 30) return 0;
  return Math.round(outstanding(invoice) * monthlyRate * Math.floor(overdue / 30));
}

export function dunningRun(invoices: Invoice[], today: string): Array<{ number: string; stage: Stage; feeCents: number }> {
  return invoices
    .map((inv) => ({ number: inv.number, stage: stageFor(inv, today), feeCents: lateFeeCents(inv, today) }))
    .filter((row) => row.stage !== 'none');
}
