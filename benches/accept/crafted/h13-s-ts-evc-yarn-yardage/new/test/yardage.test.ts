import { describe, expect, it } from 'vitest';
import { estimate, scaledYards, skeinsFor, type Yarn } from '../src/yardage';

const merino: Yarn = { name: 'Merino DK', yardsPerSkein: 230, stitchesPer10cm: 22 };
const aran: Yarn = { name: 'Highland Aran', yardsPerSkein: 180, stitchesPer10cm: 18 };

const raglan = {
  gauge: 22,
  yardsBySize: { S: 900, M: 1040, L: 1180 },
};

describe('scaledYards', () => {
  it('keeps the yardage for the same gauge', () => {
    expect(scaledYards(900, 22, 22)).toBe(900);
  });

  it('needs less of a chunkier yarn', () => {
    expect(scaledYards(1100, 22, 18)).toBeCloseTo(900, 6);
  });
});

describe('skeinsFor', () => {
  it('buys exactly enough when the yardage fits', () => {
    expect(skeinsFor(876, merino)).toEqual({ yards: 920, skeins: 4, spareYards: 0 });
  });

  it('rounds to the nearest skein', () => {
    expect(skeinsFor(900, merino)).toEqual({ yards: 945, skeins: 4, spareYards: -25 });
  });
});

describe('estimate', () => {
  it('estimates size L in a substitute aran', () => {
    expect(estimate(raglan, 'L', aran)).toEqual({ yards: 1014, skeins: 6, spareYards: 66 });
  });

  it('rejects sizes the pattern does not have', () => {
    expect(() => estimate(raglan, 'XL', merino)).toThrow(/no size "XL"/);
  });
});
