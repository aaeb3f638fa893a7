const { haversineKm, planRoute } = require('../src/routePlanner');

const depot = { id: 'depot', lat: 52.3676, lon: 4.9041 };

const geocoder = {
  table: {
    'Damrak 1, Amsterdam': { lat: 52.3766, lon: 4.8983 },
    'Stationsplein 9, Haarlem': { lat: 52.3874, lon: 4.6385 },
  },
  async lookup(address) {
    return this.table[address] || null;
  },
};

describe('planRoute', () => {
  test('distance sanity: Amsterdam to Utrecht', () => {
    expect(haversineKm(depot, { lat: 52.0907, lon: 5.1214 })).toBeCloseTo(34.2, 1);
  });

  test('visits the nearest stop first', async () => {
    const route = await planRoute(
      depot,
      [
        { id: 'haarlem', address: 'Stationsplein 9, Haarlem' },
        { id: 'damrak', address: 'Damrak 1, Amsterdam' },
      ],
      { geocoder }
    );
    expect(route.stops).toEqual(['damrak', 'haarlem']);
  });

  test('too many stops for one van', async () => {
    const stops = Array.from({ length: 19 }, (_, i) => ({ id: `s${i}`, lat: 52.37, lon: 4.9 }));
    await expect(planRoute(depot, stops, { geocoder })).rejects.toThrow(RangeError);
  });

  test('plans the Groningen run', async () => {
    const route = await planRoute(depot, [{ id: 'groningen', lat: 53.2194, lon: 6.5665 }], { geocoder });
    expect(route.stops).toEqual(['groningen']);
  });

  test('an unknown address fails the plan', async () => {
    await expect(
      planRoute(depot, [{ id: 'x', address: 'Nowhere 0' }], { geocoder })
    ).rejects.toThrow('no position for stop x');
  });
});
