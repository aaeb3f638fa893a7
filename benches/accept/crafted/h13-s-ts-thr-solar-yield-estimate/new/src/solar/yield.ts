/**
 * First-year energy yield for a rooftop PV quote.
 *
 *   yield [kWh] = peak power [kWp] x specific irradiation [kWh/kWp]
 *                 x orientation factor x (1 - system losses)
 *
 * `lossFraction` is the installer's total system loss figure: it already
 * covers inverter conversion, DC and AC cabling, soiling, mismatch and
 * temperature, as in the usual 14 % default. Shading is entered separately
 * because it comes from the site survey.
 */

export interface RoofSystem {
  peakKw: number;
  /** Annual irradiation on the optimal plane at the site, kWh per kWp. */
  specificIrradiation: number;
  /** Degrees from south (0 = south, 90 = east or west). */
  azimuth: number;
  /** Panel tilt in degrees from horizontal. */
  tilt: number;
  /** Total system losses as a fraction, default 0.14. */
  lossFraction?: number;
  /** Fraction of annual irradiation lost to shading, from the survey. */
  shading?: number;
}

export const DEFAULT_LOSSES = 0.14;
export const INVERTER_EFFICIENCY = 0.96;

/**
 * Fraction of the optimal-plane irradiation reached at a given orientation.
 * A coarse fit good enough for quotes between 10 and 60 degrees of tilt.
 */
export function orientationFactor(azimuth: number, tilt: number): number {
  const az = Math.min(Math.abs(azimuth), 180);
  const azimuthPenalty = 0.0000333 * az * az; // about 27 % at due east or west
  const tiltPenalty = 0.00012 * (tilt - 35) * (tilt - 35);
  return Math.max(0, 1 - azimuthPenalty * (tilt / 35) - tiltPenalty);
}

/** Performance ratio: what is left after system losses and shading. */
export function performanceRatio(system: RoofSystem): number {
  const losses = system.lossFraction ?? DEFAULT_LOSSES;
  const shading = system.shading ?? 0;
  return (1 - losses) * (1 - shading) * INVERTER_EFFICIENCY;
}

/** First-year yield in kWh, rounded to the kWh. */
export function annualYield(system: RoofSystem): number {
  if (system.peakKw <= 0) throw new RangeError('peak power must be positive');
  const factor = orientationFactor(system.azimuth, system.tilt);
  return Math.round(system.peakKw * system.specificIrradiation * factor * performanceRatio(system));
}

/** Yield per installed kWp, the figure printed on the quote. */
export function specificYield(system: RoofSystem): number {
  return Math.round(annualYield(system) / system.peakKw);
}
