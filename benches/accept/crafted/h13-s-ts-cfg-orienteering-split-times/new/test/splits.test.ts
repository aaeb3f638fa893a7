import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCourse } from '../src/course';
import { splitTimes, clock } from '../src/splits';

const yellow = parseCourse('Yellow', 'S1-31-47-52-F1');
const t = (h: number, m: number, s: number) => h * 3600 + m * 60 + s;

test('first leg runs from the start box', () => {
  const card = {
    start: t(10, 0, 0),
    punches: [{ code: 31, time: t(10, 4, 10) }, { code: 47, time: t(10, 9, 0) }, { code: 52, time: t(10, 12, 30) }],
    finish: t(10, 14, 0),
  };
  const result = splitTimes(yellow, card);
  assert.equal(result.ok, true);
  assert.deepEqual(result.legs.map(clock), ['4:10', '4:50', '3:30', '1:30']);
  assert.equal(result.total, 840);
});

test('extra punches are ignored', () => {
  const card = {
    start: 0,
    punches: [{ code: 31, time: 100 }, { code: 88, time: 150 }, { code: 47, time: 200 }, { code: 52, time: 320 }],
    finish: 400,
  };
  assert.deepEqual(splitTimes(yellow, card).legs, [100, 100, 120, 80]);
});

test('a missing control is a mispunch', () => {
  const card = { start: 0, punches: [{ code: 31, time: 90 }, { code: 52, time: 300 }], finish: 360 };
  assert.deepEqual(splitTimes(yellow, card), { ok: false, legs: [90], total: null });
});
