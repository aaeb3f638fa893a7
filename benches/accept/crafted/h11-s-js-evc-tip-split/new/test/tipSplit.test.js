'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { buildCheck, presetOptions, splitEvenly, formatCents } = require('../src/checkout/tipSplit');

const items = [
  { name: 'pasta', priceCents: 1800 },
  { name: 'salad', priceCents: 1200 },
  { name: 'wine', priceCents: 1000, qty: 2 },
];

test('18% tip on the check', () => {
  assert.deepEqual(buildCheck(items, { diners: 2 }), {
    subtotal: 5000,
    tax: 400,
    tip: 972,
    total: 6372,
    shares: [3186, 3186],
  });
});

test('preset options list each rate', () => {
  assert.deepEqual(presetOptions(items).map((o) => o.tip), [810, 972, 1080]);
});

test('remainder cents go to the first diners', () => {
  assert.deepEqual(splitEvenly(1001, 3), [334, 334, 333]);
});

test('formatCents pads', () => {
  assert.equal(formatCents(6305), '$63.05');
});
