const test = require('ava');
const { parseSlot, formatSlot } = require('../src/slots');

test('parses a slot code', (t) => {
  t.deepEqual(parseSlot('a07-b12-l3'), { zone: 'A', aisle: 7, bay: 12, level: 3, code: 'A07-B12-L3' });
});

test('round-trips through formatSlot', (t) => {
  t.is(formatSlot(parseSlot('C02-B05-L1')), 'C02-B05-L1');
});

test('rejects malformed codes', (t) => {
  t.throws(() => parseSlot('A7-B12'), { message: /bad slot code/ });
});
