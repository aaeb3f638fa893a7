'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { formatClock } = require('../lib/chapters');

test('formats short and long clocks', () => {
  assert.strictEqual(formatClock(65 * 1000), '01:05');
  assert.strictEqual(formatClock((3600 + 125) * 1000), '1:02:05');
});
