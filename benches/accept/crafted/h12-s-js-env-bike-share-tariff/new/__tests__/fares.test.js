const path = require('path');
const { loadTariff, rideFare, dailyCharges } = require('../src/fares');

const tariff = loadTariff(path.join(__dirname, 'fixtures', 'tariff.csv'));
const t0 = Date.UTC(2026, 4, 12, 8, 0);
const ride = (minutes, extra = {}) => ({ startedAt: t0, endedAt: t0 + minutes * 60000, ...extra });

describe('rideFare', () => {
  test('casual rider pays unlock plus per minute', () => {
    expect(rideFare(ride(25), tariff)).toBe(4.75);
  });

  test('e-bikes use the e-bike rate', () => {
    expect(rideFare(ride(12, { ebike: true }), tariff)).toBe(4);
  });

  test('members ride the first 30 minutes free', () => {
    expect(rideFare(ride(20, { member: true }), tariff)).toBe(0);
    expect(rideFare(ride(40, { member: true }), tariff)).toBe(1.5);
  });
});

describe('dailyCharges', () => {
  test('caps a busy day at the daily cap', () => {
    const rides = [ride(60), ride(45, { ebike: true }), ride(30)];
    expect(dailyCharges(rides, tariff)).toEqual([{ day: '2026-05-12', total: 15 }]);
  });
});
