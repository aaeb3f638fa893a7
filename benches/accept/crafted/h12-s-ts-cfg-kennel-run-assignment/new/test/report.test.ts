import { test } from 'node:test';
import assert from 'node:assert/strict';
import { occupancyReport, sizeBand, type Run } from '../src/assignment';

test('lists dogs that did not get a run', () => {
  const runs: Run[] = [{ id: 'M1', size: 'medium', capacity: 1 }];
  const report = occupancyReport([
    { name: 'Nala', householdId: 'h1', weightKg: 18, temperament: 'calm' },
    { name: 'Bo', householdId: 'h2', weightKg: 20, temperament: 'calm' },
  ], runs);
  assert.equal(report, 'M1: Nala\nNO RUN: Bo');
});

test('rejects a missing weight', () => {
  assert.throws(() => sizeBand(0), RangeError);
});
