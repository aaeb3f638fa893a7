'use strict';

const assert = require('node:assert/strict');
const { intervalDays, nextWatering, dueBenches } = require('../lib/schedule');

describe('intervalDays', () => {
  it('shortens the interval in summer and doubles it in winter', () => {
    assert.equal(intervalDays('fern', 'spring'), 4);
    assert.equal(intervalDays('fern', 'summer'), 2);
    assert.equal(intervalDays('fern', 'winter'), 8);
    assert.equal(intervalDays('herb', 'summer'), 1);
  });

  it('rejects unknown families', () => {
    assert.throws(() => intervalDays('cactus', 'spring'), /unknown plant family/);
  });
});

describe('nextWatering', () => {
  it('uses the spring interval in April', () => {
    assert.equal(nextWatering({ family: 'citrus', lastWatered: '2026-04-10' }), '2026-04-16');
  });

  it('uses the summer interval from the first week of June', () => {
    assert.equal(nextWatering({ family: 'fern', lastWatered: '2026-06-03' }), '2026-06-05');
  });

  it('uses the winter interval in January', () => {
    assert.equal(nextWatering({ family: 'orchid', lastWatered: '2026-01-05' }), '2026-01-19');
  });
});

describe('dueBenches', () => {
  it('lists overdue benches first', () => {
    const benches = [
      { id: 'B2', family: 'succulent', lastWatered: '2026-04-01' },
      { id: 'B7', family: 'herb', lastWatered: '2026-04-12' },
      { id: 'B9', family: 'orchid', lastWatered: '2026-04-14' },
    ];
    assert.deepEqual(dueBenches(benches, '2026-04-15'), [
      { id: 'B7', due: '2026-04-14' },
      { id: 'B2', due: '2026-04-15' },
    ]);
  });
});
