import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitRent, summary } from '../src/split';

const total = (shares: { cents: number }[]) => shares.reduce((sum, s) => sum + s.cents, 0);

test('splits by floor area', () => {
  const shares = splitRent(180000, [
    { roommate: 'Ana', area: 20 },
    { roommate: 'Ben', area: 10 },
  ]);
  assert.deepEqual(shares, [
    { roommate: 'Ana', cents: 120000 },
    { roommate: 'Ben', cents: 60000 },
  ]);
});

test('equal rooms: the first listed absorb the odd cents', () => {
  const shares = splitRent(200000, [
    { roommate: 'Ana', area: 12 },
    { roommate: 'Ben', area: 12 },
    { roommate: 'Cleo', area: 12 },
  ]);
  assert.equal(total(shares), 200000);
  assert.deepEqual(shares.map((s) => s.cents), [66667, 66667, 66666]);
});

test('summary formats euros', () => {
  assert.deepEqual(summary(100001, [{ roommate: 'Ana', area: 9 }]), ['Ana: €1000.01']);
});

test('rejects rooms without area', () => {
  assert.throws(() => splitRent(1000, [{ roommate: 'Ana', area: 0 }]), RangeError);
});
