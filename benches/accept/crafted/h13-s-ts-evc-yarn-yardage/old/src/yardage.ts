/**
 * Yarn estimates for the pattern shop.
 *
 * A pattern lists the yardage for each size in the pattern's own yarn
 * weight. Customers often substitute a yarn with a different gauge, so the
 * yardage is first scaled by the ratio of stitches per 10 cm, and then
 * turned into whole skeins of the chosen yarn. Knitters cannot buy part of
 * a skein, and running short mid-project means a dye-lot mismatch, so the
 * estimate always rounds up and reports the yards left over.
 */

export interface Yarn {
  name: string;
  /** Yards in one skein. */
  yardsPerSkein: number;
  /** Stitches per 10 cm in stockinette. */
  stitchesPer10cm: number;
}

export interface Estimate {
  yards: number;
  skeins: number;
  spareYards: number;
}

/** A small allowance for swatching and seaming, as a fraction. */
export const SWATCH_ALLOWANCE = 0.05;

/**
 * Yardage in the substitute yarn. A finer yarn (more stitches per 10 cm)
 * needs proportionally more length for the same fabric.
 */
export function scaledYards(patternYards: number, patternGauge: number, substituteGauge: number): number {
  if (patternYards <= 0 || patternGauge <= 0 || substituteGauge <= 0) {
    throw new RangeError('yardage and gauges must be positive');
  }
  return patternYards * (substituteGauge / patternGauge);
}

/** Skeins of `yarn` needed for `yards`, with the swatch allowance added. */
export function skeinsFor(yards: number, yarn: Yarn): Estimate {
  const total = Math.ceil(yards * (1 + SWATCH_ALLOWANCE));
  const skeins = Math.round(total / yarn.yardsPerSkein);
  return { yards: total, skeins, spareYards: skeins * yarn.yardsPerSkein - total };
}

/** Full estimate for a pattern size knitted in a substitute yarn. */
export function estimate(
  pattern: { yardsBySize: Record<string, number>; gauge: number },
  size: string,
  yarn: Yarn,
): Estimate {
  const yards = pattern.yardsBySize[size];
  if (yards === undefined) {
    throw new Error(`pattern has no size "${size}"`);
  }
  return skeinsFor(scaledYards(yards, pattern.gauge, yarn.stitchesPer10cm), yarn);
}
