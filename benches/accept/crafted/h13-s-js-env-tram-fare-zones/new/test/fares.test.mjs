import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fareCents, quote } from '../lib/fares.mjs';
import { zonesTravelled } from '../lib/zones.mjs';

describe('zonesTravelled', () => {
  it('counts a trip inside one zone as one zone', () => {
    assert.equal(zonesTravelled('Central Station', 'Market Square'), 1);
  });

  it('counts both end zones', () => {
    assert.equal(zonesTravelled('Central Station', 'Northfield'), 3);
  });

  it('lets a boundary stop count as the nearer zone', () => {
    assert.equal(zonesTravelled('Central Station', 'Old Brewery'), 2);
    assert.equal(zonesTravelled('Riverside', 'University'), 1);
  });
});

describe('fareCents', () => {
  it('charges by zones', () => {
    assert.equal(fareCents('Market Square', 'Airport'), 420);
  });

  it('gives concessions half price in tens of cents', () => {
    assert.equal(fareCents('Central Station', 'Northfield', 'child'), 180);
  });
});

describe('quote', () => {
  it('quotes the cheaper reading of a boundary stop', () => {
    assert.deepEqual(quote('Riverside', 'Northfield'), {
      from: 'Riverside',
      to: 'Northfield',
      passenger: 'adult',
      zones: 2,
      price: '€2.90',
    });
  });
});
