'use strict';

const assert = require('assert');
const { TideFeed, turningPoints, formatLevel } = require('../lib/tideFeed');

const HOUR = 3600 * 1000;
const curve = [1.2, 2.4, 3.1, 2.9, 1.8, 0.7, 0.9].map((level, i) => ({ t: i * HOUR, level }));

// Each gauge drops the first request and answers the second, like the cellular modems do
// after a cold start.
function flakyGauges() {
  const seen = new Set();
  return async (id) => {
    if (!seen.has(id)) {
      seen.add(id);
      throw new Error('ETIMEDOUT');
    }
    return curve;
  };
}

describe('turningPoints', function () {
  it('finds the next high and low water', function () {
    const { nextHigh, nextLow } = turningPoints(curve);
    assert.deepStrictEqual(nextHigh, { t: 2 * HOUR, level: 3.1 });
    assert.deepStrictEqual(nextLow, { t: 5 * HOUR, level: 0.7 });
  });

  it('formats levels in metres', function () {
    assert.strictEqual(formatLevel(0.7), '0.70 m');
  });
});

describe('TideFeed', function () {
  this.timeout(10000);

  it('backs off exponentially on repeated failures', function () {
    const feed = new TideFeed({ fetchStation: async () => curve, baseDelayMs: 100 });
    assert.deepStrictEqual([1, 2, 3, 4].map((n) => feed.delayFor(n)), [100, 200, 400, 800]);
  });

  it('gives up after maxAttempts', async function () {
    const feed = new TideFeed({
      fetchStation: async () => { throw new Error('ECONNRESET'); },
      baseDelayMs: 5,
      maxAttempts: 3,
    });
    await assert.rejects(feed.board(['dover']), /unreachable after 3 attempts/);
  });

  it('builds the harbour board when every gauge recovers on retry', async function () {
    const feed = new TideFeed({ fetchStation: flakyGauges(), baseDelayMs: 150 });
    const rows = await feed.board(['north-pier', 'lock-gate', 'fuel-berth', 'outer-mole', 'slipway']);
    assert.strictEqual(rows.length, 5);
    assert.ok(rows.every((r) => r.nextHigh.level === 3.1));
  });
});
