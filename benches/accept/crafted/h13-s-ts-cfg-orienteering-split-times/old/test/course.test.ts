import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCourse } from '../src/course';

test('parses the control codes between start and finish', () => {
  assert.deepEqual(parseCourse('Yellow', 'S1-31-47-52-F1'), { name: 'Yellow', controls: [31, 47, 52] });
});

test('rejects a course without a finish', () => {
  assert.throws(() => parseCourse('Red', 'S1-31-47'), SyntaxError);
});

test('rejects codes outside the punch range', () => {
  assert.throws(() => parseCourse('Red', 'S1-31-12-F1'), /bad control code "12"/);
});
