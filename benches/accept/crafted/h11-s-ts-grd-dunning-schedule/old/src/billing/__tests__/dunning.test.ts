import { dunningRun, stageFor, type Invoice } from '../dunning';

const inv = (over: Partial<Invoice> = {}): Invoice => ({
  number: 'INV-88',
  dueDate: '2026-01-31',
  amountCents: 100_000,
  paidCents: 0,
  remindersSent: 0,
  ...over,
});

test('paid invoices are never dunned', () => {
  expect(stageFor(inv({ paidCents: 100_000 }), '2026-06-01')).toBe('none');
});

test('a month-end due date crosses into February correctly', () => {
  expect(stageFor(inv(), '2026-02-04')).toBe('friendly');
});

test('final notice after thirty days with a fee', () => {
  expect(dunningRun([inv({ remindersSent: 2 })], '2026-03-05')).toEqual([{ number: 'INV-88', stage: 'final', feeCents: 1_500 }]);
});

test('disputed invoices are held', () => {
  expect(stageFor(inv({ disputed: true }), '2026-03-05')).toBe('none');
});
