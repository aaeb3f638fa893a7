/**
 * Race scoring under time-on-time handicap.
 *
 *   corrected time = elapsed time x TCF
 *
 * Boats are ranked on corrected time; equal corrected times share the
 * better position.
 */

import { RatingStore, tcfFor } from './ratings';

export interface Finisher {
  sailNumber: string;
  helm: string;
  /** Elapsed seconds from the start gun to crossing the line. */
  elapsed: number;
}

export interface Placing extends Finisher {
  tcf: number;
  corrected: number;
  position: number;
}

export async function scoreRace(finishers: Finisher[], store: RatingStore): Promise<Placing[]> {
  const rated = await Promise.all(
    finishers.map(async (f) => {
      // A boat whose certificate is not on file sails off scratch.
      const tcf = await tcfFor(store, f.sailNumber).catch(() => 1);
      return { ...f, tcf, corrected: Math.round(f.elapsed * tcf) };
    }),
  );
  rated.sort((a, b) => a.corrected - b.corrected);
  const placings: Placing[] = [];
  rated.forEach((boat, i) => {
    const tied = i > 0 && boat.corrected === rated[i - 1].corrected;
    placings.push({ ...boat, position: tied ? placings[i - 1].position : i + 1 });
  });
  return placings;
}
