// World Handicap System calculations for the club's scoring app: score differentials per
// round and the Handicap Index from the most recent (up to) 20 of them.

export interface Round {
  date: string;
  adjustedGross: number;
  courseRating: number;
  slopeRating: number;
  /** playing conditions calculation for the day, usually 0 */
  pcc?: number;
}

const MAX_INDEX = 54.0;
const STANDARD_SLOPE = 113;

// rounds on record -> [how many lowest differentials to average, adjustment]
const LOOKUP: Array<[number, number, number]> = [
  [3, 1, -2.0], [4, 1, -1.0], [5, 1, 0], [6, 2, -1.0], [8, 2, 0], [11, 3, 0],
  [14, 4, 0], [16, 5, 0], [18, 6, 0], [19, 7, 0], [20, 8, 0],
];

const tenth = (x: number): number => Math.round(x * 10) / 10;

export class HandicapCalculator {
  constructor(private readonly history: Round[] = []) {}

  static differential(round: Round): number {
    if (round.slopeRating < 55 || round.slopeRating > 155) {
      throw new RangeError(`slope rating out of range: ${round.slopeRating}`);
    }
    const raw = (STANDARD_SLOPE / round.slopeRating) *
      (round.adjustedGross - round.courseRating - (round.pcc ?? 0));
    return Math.floor(raw * 10) / 10;
  }

  add(round: Round): this {
    this.history.push(round);
    return this;
  }

  recent(): Round[] {
    return [...this.history].sort((a, b) => b.date.localeCompare(a.date)).slice(0, 20);
  }

  index(): number | null {
    const rounds = this.recent();
    if (rounds.length < 3) return null;
    const [, take, adjustment] = LOOKUP.find(([upTo]) => rounds.length <= upTo)!;
    const lowest = rounds
      .map((r) => HandicapCalculator.differential(r))
      .sort((a, b) => a - b)
      .slice(0, take);
    const avg = lowest.reduce((s, d) => s + d, 0) / lowest.length;
    return Math.min(tenth(avg + adjustment), MAX_INDEX);
  }

  courseHandicap(slopeRating: number, courseRating: number, par: number): number | null {
    const idx = this.index();
    if (idx === null) return null;
    return Math.round(idx * (slopeRating / STANDARD_SLOPE) + (courseRating - par));
  }
}

export function formatIndex(idx: number | null): string {
  if (idx === null) return 'NH';
  return idx < 0 ? `+${(-idx).toFixed(1)}` : idx.toFixed(1);
}
