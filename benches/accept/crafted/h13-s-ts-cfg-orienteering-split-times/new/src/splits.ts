/**
 * Split times from an e-punch card.
 *
 * The card records the start time (from the start unit), one punch per
 * control visited and the finish punch, all in seconds since midnight.
 * Runners may punch extra controls; what matters is that the course's
 * controls appear in order. A missing or out-of-order control is a mispunch
 * and the runner is disqualified (no result, but splits are still shown for
 * the legs that were completed).
 */

import type { Course } from './course';

export interface Punch {
  code: number;
  time: number;
}

export interface Card {
  start: number;
  punches: Punch[];
  finish: number;
}

export interface Result {
  ok: boolean;
  /** Leg times in seconds; the last leg runs to the finish. */
  legs: number[];
  total: number | null;
}

export function splitTimes(course: Course, card: Card): Result {
  const legs: number[] = [];
  let prev = card.punches[0]?.time ?? card.start;
  let from = 0;

  for (const code of course.controls) {
    const idx = card.punches.findIndex((p, i) => i >= from && p.code === code);
    if (idx === -1) {
      return { ok: false, legs, total: null };
    }
    legs.push(card.punches[idx].time - prev);
    prev = card.punches[idx].time;
    from = idx + 1;
  }
  legs.push(card.finish - prev);
  return { ok: true, legs, total: card.finish - card.start };
}

/** "m:ss" for the results board. */
export function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
