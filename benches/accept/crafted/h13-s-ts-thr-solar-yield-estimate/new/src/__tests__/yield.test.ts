import { annualYield, orientationFactor, specificYield, RoofSystem } from '../solar/yield';

/** Relative error of an estimate against a reference value. */
const relErr = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

// The regional calculator uses a different irradiation dataset; quotes only
// need to land in the same ballpark.
const QUOTE_TOLERANCE = 0.05;

// Reference figures from the regional PV calculator, for a south roof at 35°.
const southRoof: RoofSystem = { peakKw: 4, specificIrradiation: 1100, azimuth: 0, tilt: 35 };

describe('orientationFactor', () => {
  it('is 1 for the optimal orientation', () => {
    expect(orientationFactor(0, 35)).toBe(1);
  });

  it('loses yield towards east and west', () => {
    expect(orientationFactor(90, 35)).toBeLessThan(0.8);
    expect(orientationFactor(-45, 35)).toBeCloseTo(orientationFactor(45, 35), 10);
  });
});

describe('annualYield', () => {
  it('matches the reference calculator for a south roof', () => {
    // 4 kWp x 1100 kWh/kWp x (1 - 0.14) = 3784 kWh
    expect(relErr(annualYield(southRoof), 3784)).toBeLessThan(QUOTE_TOLERANCE);
  });

  it('applies survey shading on top of system losses', () => {
    // 3784 x (1 - 0.1) = 3405.6 kWh
    expect(relErr(annualYield({ ...southRoof, shading: 0.1 }), 3405.6)).toBeLessThan(QUOTE_TOLERANCE);
  });

  it('quotes the specific yield per kWp', () => {
    expect(relErr(specificYield({ ...southRoof, peakKw: 6.4 }), 946)).toBeLessThan(QUOTE_TOLERANCE);
  });

  it('rejects an empty system', () => {
    expect(() => annualYield({ ...southRoof, peakKw: 0 })).toThrow(RangeError);
  });
});
