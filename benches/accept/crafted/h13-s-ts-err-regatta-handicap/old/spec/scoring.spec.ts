import { scoreRace } from '../lib/scoring';
import { canonicalSail, memoryStore, tcfFor, RatingNotFoundError } from '../lib/ratings';

const store = memoryStore({
  'GBR 1234': 0.962,
  'GBR 877': 1.013,
  'IRL 45': 1.041,
});

describe('ratings', () => {
  it('rejects strings that are not sail numbers', () => {
    expect(() => canonicalSail('Blue Moon')).toThrow(RangeError);
  });

  it('reports boats without a certificate', async () => {
    await expect(tcfFor(store, 'FRA 9')).rejects.toBeInstanceOf(RatingNotFoundError);
  });
});

describe('scoreRace', () => {
  it('ranks the hand-written entries on corrected time', async () => {
    const placings = await scoreRace(
      [
        { sailNumber: 'irl45', helm: 'Aoife', elapsed: 3950 },
        { sailNumber: 'GBR  1234', helm: 'Tom', elapsed: 3712 },
        { sailNumber: 'gbr 877', helm: 'Priya', elapsed: 3820 },
      ],
      store,
    );
    expect(placings.map((p) => [p.position, p.helm])).toEqual([
      [1, 'Tom'],
      [2, 'Priya'],
      [3, 'Aoife'],
    ]);
  });
});
