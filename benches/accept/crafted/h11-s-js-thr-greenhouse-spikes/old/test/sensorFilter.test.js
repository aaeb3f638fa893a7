const { filterSeries, summarize } = require('../lib/sensorFilter');

const min = (n) => n * 60000;

describe('filterSeries', () => {
  test('drops out-of-range readings', () => {
    const { rejected } = filterSeries([{ at: 0, celsius: 21 }, { at: min(1), celsius: 400 }]);
    expect(rejected).toEqual([{ at: min(1), celsius: 400, reason: 'out_of_range' }]);
  });

  test('flags a sudden jump', () => {
    const { rejected } = filterSeries([{ at: 0, celsius: 20 }, { at: min(1), celsius: 31 }]);
    expect(rejected.map((r) => r.reason)).toEqual(['spike']);
  });

  test('a steady morning warm-up is not a spike', () => {
    const series = Array.from({ length: 30 }, (_, i) => ({ at: min(i), celsius: 14 + i * 0.5 }));
    const { accepted, rejected } = filterSeries(series);
    expect(rejected).toEqual([]);
    expect(accepted).toHaveLength(30);
  });
});

test('summary of a warm-up', () => {
  const series = Array.from({ length: 11 }, (_, i) => ({ at: min(i), celsius: 18 + i }));
  expect(summarize(series)).toEqual({ count: 11, dropped: 0, min: 18, max: 28, mean: 23 });
});
