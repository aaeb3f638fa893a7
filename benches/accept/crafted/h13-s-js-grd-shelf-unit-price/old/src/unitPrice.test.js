'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parsePackSize, unitPrice, unitPriceText } = require('./unitPrice');

test('single packs in every unit', () => {
  assert.deepEqual(parsePackSize('500 g'), { amount: 500, base: 'g' });
  assert.deepEqual(parsePackSize('1.5kg'), { amount: 1500, base: 'g' });
  assert.deepEqual(parsePackSize('75 cl'), { amount: 750, base: 'ml' });
  assert.deepEqual(parsePackSize('2,5 l'), { amount: 2500, base: 'ml' });
});

test('unit price per kg for a 500 g bag', () => {
  assert.deepEqual(unitPrice(135, '500 g'), { pence: 270, per: 'kg' });
});

test('multipacks are priced on the total content', async (t) => {
  await t.test('compact label', () => {
    assert.equal(unitPriceText(480, '6x330ml'), '£2.42 per l');
  });
  await t.test('spaced label from the supplier sheet', () => {
    assert.equal(unitPriceText(480, '6 x 330 ml'), '£2.42 per l');
    assert.equal(unitPriceText(260, '4 x 125 g'), '£5.20 per kg');
  });
});

test('rejects sizes without a unit', () => {
  assert.throws(() => parsePackSize('six cans'), /unreadable pack size/);
  assert.throws(() => parsePackSize('3 pt'), /unknown unit/);
});
