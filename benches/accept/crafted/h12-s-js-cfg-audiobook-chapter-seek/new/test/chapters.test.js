'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { normalizeChapters, chapterAt, skipBack, skipForward } = require('../lib/chapters');
const { raw, durationMs, MIN } = require('./fixture');

const chapters = normalizeChapters(raw);

test('position inside a chapter', () => {
  assert.strictEqual(chapterAt(chapters, 40 * MIN).title, 'Fog');
});

test('position exactly at a chapter start belongs to that chapter', () => {
  assert.strictEqual(chapterAt(chapters, 31 * MIN).title, 'Fog');
  assert.strictEqual(chapterAt(chapters, 0).title, 'Opening Credits');
});

test('skip forward from a chapter start goes to the next chapter', () => {
  assert.strictEqual(skipForward(chapters, 31 * MIN, durationMs), 58 * MIN);
  assert.strictEqual(skipForward(chapters, 94 * MIN + 5000, durationMs), durationMs);
});

test('skip back restarts the chapter, or goes to the previous one near its start', () => {
  assert.strictEqual(skipBack(chapters, 45 * MIN), 31 * MIN);
  assert.strictEqual(skipBack(chapters, 31 * MIN + 1000), 1 * MIN);
});
