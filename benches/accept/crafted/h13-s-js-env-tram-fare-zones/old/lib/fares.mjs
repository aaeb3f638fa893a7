/**
 * Single-trip fares.
 *
 * The fare depends only on the number of zones travelled. Concessions pay
 * half, rounded down to the 10 cents the ticket machines can give change in.
 */

import { zonesTravelled } from './zones.mjs';

// Fare in cents by zones travelled (1..4).
export const ADULT_FARES = [0, 210, 290, 360, 420];

export const PASSENGER_TYPES = new Set(['adult', 'child', 'senior', 'student']);

export function fareCents(from, to, passenger = 'adult') {
  if (!PASSENGER_TYPES.has(passenger)) {
    throw new Error(`unknown passenger type: ${passenger}`);
  }
  const zones = zonesTravelled(from, to);
  const adult = ADULT_FARES[Math.min(zones, ADULT_FARES.length - 1)];
  if (passenger === 'adult') return adult;
  return Math.floor(adult / 2 / 10) * 10;
}

/** Quote shown by the journey planner and printed on the ticket. */
export function quote(from, to, passenger = 'adult') {
  const cents = fareCents(from, to, passenger);
  return {
    from,
    to,
    passenger,
    zones: zonesTravelled(from, to),
    price: `€${(cents / 100).toFixed(2)}`,
  };
}
