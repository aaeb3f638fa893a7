import { HandicapCalculator, formatIndex, type Round } from '../src/handicap';

const round = (date: string, adjustedGross: number, courseRating = 71.4, slopeRating = 128, pcc?: number): Round =>
  ({ date, adjustedGross, courseRating, slopeRating, pcc });

const scores = [88, 91, 85, 94, 87, 90, 86, 93, 89, 84, 92, 95, 83, 90, 88, 87, 91, 86, 89, 90, 99, 101];
// four rounds a month, alternating the white tees (71.4 / 128) and the yellow tees (69.8 / 121)
const season: Round[] = scores.map((s, i) => {
  const month = String(1 + Math.floor(i / 4)).padStart(2, '0');
  const day = String(1 + (i % 4) * 7).padStart(2, '0');
  return i % 2 ? round(`2026-${month}-${day}`, s) : round(`2026-${month}-${day}`, s, 69.8, 121);
});

describe('score differential', () => {
  it('adjusts for slope and rating', () => {
    expect(HandicapCalculator.differential(round('2026-03-01', 92, 70.1, 119))).toBeCloseTo(20.8, 1);
  });

  it('subtracts the playing conditions calculation', () => {
    expect(HandicapCalculator.differential(round('2026-03-01', 78, 72.3, 135, 1))).toBeCloseTo(3.9, 1);
  });

  it('rejects an impossible slope', () => {
    expect(() => HandicapCalculator.differential(round('2026-03-01', 90, 71, 40))).toThrow(RangeError);
  });
});

describe('Handicap Index', () => {
  it('averages the best 8 of the most recent 20', () => {
    expect(new HandicapCalculator(season).index()).toBeCloseTo(14.0, 1);
  });

  it('uses the short-record table with fewer rounds', () => {
    expect(new HandicapCalculator(season.slice(0, 3)).index()).toBeCloseTo(12.2, 1);
    expect(new HandicapCalculator(season.slice(0, 7)).index()).toBeCloseTo(14.7, 1);
  });

  it('has no index before three rounds', () => {
    expect(new HandicapCalculator(season.slice(0, 2)).index()).toBeNull();
    expect(formatIndex(null)).toBe('NH');
  });

  it('converts to a course handicap', () => {
    expect(new HandicapCalculator(season).courseHandicap(128, 71.4, 72)).toBe(15);
  });

  it('shows plus handicaps with a plus sign', () => {
    expect(formatIndex(-1.4)).toBe('+1.4');
  });
});
