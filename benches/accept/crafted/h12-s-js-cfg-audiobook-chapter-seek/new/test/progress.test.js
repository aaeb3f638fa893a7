'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { normalizeChapters, progress } = require('../lib/chapters');
const { raw, durationMs, MIN } = require('./fixture');

test('rejects a book without chapters', () => {
  assert.throws(() => normalizeChapters([]), /no chapters/);
});

test('reports chapter and book progress', () => {
  const p = progress(normalizeChapters(raw), 40 * MIN, durationMs);
  assert.deepStrictEqual(p, {
    chapter: 3, of: 5, title: 'Fog', chapterRemainingMs: 18 * MIN, bookPercent: 42.1,
  });
});
