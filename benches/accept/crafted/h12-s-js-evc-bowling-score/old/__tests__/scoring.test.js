const { frameScores, runningTotals, gameTotal, renderLane } = require('../src/scoring');

describe('frame scoring', () => {
  test('a gutter game is zero', () => {
    expect(gameTotal(Array(20).fill(0))).toBe(0);
  });

  test('a perfect game is 300', () => {
    expect(gameTotal(Array(12).fill(10))).toBe(300);
  });

  test('a spare earns the next roll as bonus', () => {
    expect(runningTotals([7, 3, 4, 2]).map((f) => f.total)).toEqual([14, 20]);
  });

  test('all fives', () => {
    expect(gameTotal(Array(21).fill(5))).toBe(150);
  });

  test('league night sample game', () => {
    const rolls = [10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1];
    const totals = runningTotals(rolls).map((f) => f.total);
    expect(totals).toEqual([20, 39, 48, 66, 74, 84, 90, 120, 148, 167]);
    expect(gameTotal(rolls)).toBe(167);
  });

  test('a strike waiting for its bonus has no score yet', () => {
    expect(frameScores([10, 4]).map((f) => f.score)).toEqual([null, null]);
  });

  test('rejects more than ten pins in a frame', () => {
    expect(() => frameScores([7, 6])).toThrow(RangeError);
  });
});

describe('lane display', () => {
  test('shows marks and the running total', () => {
    expect(renderLane('Homer', [10, 0, 0])).toBe('Homer        X | - -  10');
  });

  test('shows an ellipsis while a bonus is pending', () => {
    expect(renderLane('Marge', [9, 1, 0, 10, 3])).toBe('Marge        9 / | - / | 3  ...');
  });
});
