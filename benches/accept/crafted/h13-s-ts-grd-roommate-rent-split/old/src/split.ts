/**
 * Rent split for a shared flat.
 *
 * Each roommate pays for their own room in proportion to its floor area;
 * shared space (kitchen, bathroom, hall) is spread the same way. All sums
 * are in integer cents. The shares must add up to exactly the rent the
 * landlord asks for: leftover cents after rounding down go one each to the
 * largest rooms (ties in the order the rooms were listed).
 */

export interface Room {
  roommate: string;
  /** Floor area in square metres. */
  area: number;
}

export interface Share {
  roommate: string;
  cents: number;
}

function validate(rentCents: number, rooms: Room[]): void {
  if (!Number.isInteger(rentCents) || rentCents < 0) {
    throw new RangeError('rent must be a whole number of cents');
  }
  if (rooms.length === 0) throw new RangeError('no rooms to split between');
  for (const room of rooms) {
    if (!(room.area > 0)) throw new RangeError(`room of ${room.roommate} has no area`);
  }
}

/** Split `rentCents` between the rooms in proportion to area. */
export function splitRent(rentCents: number, rooms: Room[]): Share[] {
  validate(rentCents, rooms);
  const totalArea = rooms.reduce((sum, r) => sum + r.area, 0);

  const cents = rooms.map((r) => Math.round((rentCents * r.area) / totalArea));
  let leftover = rentCents - cents.reduce((a, b) => a + b, 0);

  // Largest rooms first; Array.prototype.sort is stable, so ties keep order.
  const order = rooms.map((_, i) => i).sort((a, b) => rooms[b].area - rooms[a].area);
  for (let k = 0; leftover > 0; k = (k + 1) % order.length) {
    cents[order[k]] += 1;
    leftover -= 1;
  }
  return rooms.map((r, i) => ({ roommate: r.roommate, cents: cents[i] }));
}

/** One line per roommate for the group chat, e.g. "Ana: €612.50". */
export function summary(rentCents: number, rooms: Room[]): string[] {
  return splitRent(rentCents, rooms).map(
    (s) => `${s.roommate}: €${Math.floor(s.cents / 100)}.${String(s.cents % 100).padStart(2, '0')}`,
  );
}
