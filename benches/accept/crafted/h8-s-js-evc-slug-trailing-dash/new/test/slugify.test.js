'use strict';

const assert = require('node:assert');
const { test } = require('node:test');
const { slugify, uniqueSlug } = require('../lib/slugify');

test('lowercases and joins words', () => {
  assert.strictEqual(slugify('Hello World'), 'hello-world');
});

test('transliterates umlauts', () => {
  assert.strictEqual(slugify('Grüße aus Köln'), 'gruesse-aus-koeln');
});

test('drops trailing punctuation', () => {
  assert.strictEqual(slugify('Ready, set, go!'), 'ready-set-go-');
});

test('cuts long titles at a word boundary', () => {
  const slug = slugify('one two three four five', { maxLength: 12 });
  assert.strictEqual(slug, 'one-two');
});

test('appends a counter for taken slugs', () => {
  const taken = new Set(['release-notes', 'release-notes-2']);
  assert.strictEqual(uniqueSlug('Release notes', taken), 'release-notes-3');
});
