// Meeting-room bookings: overlap detection and buffer time between meetings.

export interface Booking {
  id: string;
  roomId: string;
  start: Date;
  end: Date;
  allDay?: boolean;
}

export class BookingConflict extends Error {
  constructor(public readonly existing: Booking) {
    super(`room ${existing.roomId} is taken by ${existing.id}`);
  }
}

const BUFFER_MS = 10 * 60 * 1000;

function dayBounds(d: Date): [number, number] {
  const s = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return [s, s + 24 * 60 * 60 * 1000];
}

function span(b: Booking): [number, number] {
  if (b.allDay) return dayBounds(b.start);
  return [b.start.getTime(), b.end.getTime()];
}

export function overlaps(a: Booking, b: Booking, bufferMs = BUFFER_MS): boolean {
  if (a.roomId !== b.roomId || a.id === b.id) return false;
  const [as, ae] = span(a);
  const [bs, be] = span(b);
  return as < be + bufferMs && bs < ae + bufferMs;
}

export function checkBooking(candidate: Booking, existing: Booking[]): void {
  if (candidate.end <= candidate.start && !candidate.allDay) {
    throw new RangeError("booking must end after it starts");
  }
  for (const b of existing) {
    if (overlaps(candidate, b)) throw new BookingConflict(b);
  }
}

export function freeSlots(roomId: string, day: Date, existing: Booking[], slotMs = 30 * 60 * 1000) {
  const [ds, de] = dayBounds(day);
  const slots: Date[] = [];
  for (let t = ds; t + slotMs <= de; t += slotMs) {
    const probe: Booking = { id: "?", roomId, start: new Date(t), end: new Date(t + slotMs) };
    if (!existing.some((b) => overlaps(probe, b, 0))) slots.push(new Date(t));
  }
  return slots;
}
