const { parseDuration, pacePerKm, pacePerMile, formatPace, evenSplits, riegel } = require('../src/pace');

describe('parseDuration', () => {
  test('reads mm:ss and h:mm:ss', () => {
    expect(parseDuration('50:00')).toBe(3000);
    expect(parseDuration('1:45:30')).toBe(6330);
  });

  test('rejects garbage', () => {
    expect(() => parseDuration('fast')).toThrow(TypeError);
  });
});

describe('paces', () => {
  test('10 km in 50 minutes is 5:00 per km', () => {
    expect(pacePerKm(10, 3000)).toBe(300);
    expect(formatPace(pacePerKm(10, 3000))).toBe('5:00');
  });

  test('converts the same run to seconds per mile', () => {
    // 300 s/km * 1.609344 km/mile
    expect(pacePerMile(10, 3000)).toBeCloseTo(482.8, 1);
  });

  test('half marathon pace per mile', () => {
    expect(pacePerMile(21.0975, parseDuration('1:45:30'))).toBeCloseTo(482.82, 1);
  });
});

describe('evenSplits', () => {
  test('adds the finish after the last full kilometre', () => {
    expect(evenSplits(2.5, 750)).toEqual([
      { km: 1, elapsed: 300 },
      { km: 2, elapsed: 600 },
      { km: 2.5, elapsed: 750 },
    ]);
  });
});

test('riegel prediction grows faster than linear', () => {
  expect(riegel(10, 3000, 21.0975)).toBeGreaterThan(3000 * 2.10975);
});
