export interface Seat {
  row: string;
  number: string;
  blocked?: boolean;
}

export type SelectionResult = { ok: true } | { ok: false; reason: string };

const MAX_SEATS = 8;

function key(seat: Seat): string {
  return `${seat.row}${seat.number}`;
}

function byNumber(a: Seat, b: Seat): number {
  return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
}

/**
 * A selection must be non-empty, at most MAX_SEATS, free of blocked or
 * duplicate seats, in a single row, and contiguous (no gaps).
 */
export function validateSelection(selection: Seat[], taken: Set<string>): SelectionResult {
  if (selection.length === 0) return { ok: false, reason: "no seats selected" };
  if (selection.length > MAX_SEATS) return { ok: false, reason: `at most ${MAX_SEATS} seats` };
  const keys = new Set<string>();
  for (const seat of selection) {
    if (seat.blocked) return { ok: false, reason: `${key(seat)} is blocked` };
    if (taken.has(key(seat))) return { ok: false, reason: `${key(seat)} is taken` };
    if (keys.has(key(seat))) return { ok: false, reason: `${key(seat)} selected twice` };
    keys.add(key(seat));
  }
  const rows = new Set(selection.map((s) => s.row));
  if (rows.size > 1) return { ok: false, reason: "seats must be in one row" };
  const sorted = [...selection].sort(byNumber);
  for (let i = 1; i < sorted.length; i++) {
    const gap = Number(sorted[i].number) - Number(sorted[i - 1].number);
    if (gap !== 1) {
      return { ok: false, reason: `gap between ${key(sorted[i - 1])} and ${key(sorted[i])}` };
    }
  }
  return { ok: true };
}

export function describe(selection: Seat[]): string {
  const sorted = [...selection].sort(byNumber);
  if (sorted.length === 1) return key(sorted[0]);
  return `${key(sorted[0])}-${sorted[sorted.length - 1].number}`;
}

export function totalPrice(selection: Seat[], pricePerSeat: number, serviceFee = 0): number {
  return Math.round((selection.length * pricePerSeat + serviceFee) * 100) / 100;
}
