const { parkingFee, feeForMinutes } = require('../src/parkingFee');

const at = (s) => new Date(s);

describe('parkingFee', () => {
  test('grace period is free', () => {
    expect(parkingFee({ entry: at('2026-05-04T10:00:00') }, at('2026-05-04T10:12:00'))).toBe(0);
  });

  test('rounds up to the next hour', () => {
    expect(parkingFee({ entry: at('2026-05-04T10:00:00') }, at('2026-05-04T12:05:00'))).toBe(900);
  });

  test('an overnight stay hits the daily cap', () => {
    expect(parkingFee({ entry: at('2026-05-04T22:00:00') }, at('2026-05-05T07:00:00'))).toBe(2500);
  });

  test('validation takes off two hours', () => {
    expect(parkingFee({ entry: at('2026-05-04T10:00:00'), validatedBy: 'cinema' }, at('2026-05-04T13:00:00'))).toBe(300);
  });

  test('multi-day stays', () => {
    expect(feeForMinutes(2 * 1440 + 30)).toBe(5300);
  });
});
