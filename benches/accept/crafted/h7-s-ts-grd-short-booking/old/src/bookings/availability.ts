export interface Interval {
  start: Date;
  end: Date;
}

export interface Booking extends Interval {
  id: string;
  roomId: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
}

export interface Room {
  id: string;
  opensAt: number; // minutes after midnight, UTC
  closesAt: number;
  bufferMinutes: number;
}

export interface AvailabilityRequest {
  roomId: string;
  start: Date;
  durationMinutes: number;
}

const MINUTE = 60_000;

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

function minutesOfDay(date: Date): number {
  return date.getUTCHours() * 60 + date.getUTCMinutes();
}

function withBuffer(interval: Interval, bufferMinutes: number): Interval {
  return {
    start: new Date(interval.start.getTime() - bufferMinutes * MINUTE),
    end: new Date(interval.end.getTime() + bufferMinutes * MINUTE),
  };
}

export function isAvailable(room: Room, bookings: Booking[], request: AvailabilityRequest): boolean {
  if (request.durationMinutes <= 0) {
    throw new RangeError('duration must be positive');
  }
  const wanted: Interval = {
    start: request.start,
    end: new Date(request.start.getTime() + request.durationMinutes * MINUTE),
  };
  const startMinute = minutesOfDay(wanted.start);
  const endMinute = startMinute + request.durationMinutes;
  if (startMinute < room.opensAt || endMinute > room.closesAt) {
    return false;
  }
  return bookings
    .filter((b) => b.roomId === room.id && b.status !== 'cancelled')
    .every((b) => !overlaps(withBuffer(b, room.bufferMinutes), wanted));
}

export function freeSlots(room: Room, bookings: Booking[], day: Date, durationMinutes: number): Date[] {
  const slots: Date[] = [];
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  for (let minute = room.opensAt; minute + durationMinutes <= room.closesAt; minute += 15) {
    const start = new Date(midnight + minute * MINUTE);
    if (isAvailable(room, bookings, { roomId: room.id, start, durationMinutes })) {
      slots.push(start);
    }
  }
  return slots;
}
