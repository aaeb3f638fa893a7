import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignRuns, sizeBand, type Dog, type Run } from '../src/assignment';

const runs: Run[] = [
  { id: 'S1', size: 'small', capacity: 2 },
  { id: 'S2', size: 'small', capacity: 1 },
  { id: 'M1', size: 'medium', capacity: 2 },
  { id: 'L1', size: 'large', capacity: 1 },
  { id: 'L2', size: 'large', capacity: 2 },
];

test('size bands include their upper limit', () => {
  assert.equal(sizeBand(4.2), 'small');
  assert.equal(sizeBand(10), 'small');
  assert.equal(sizeBand(25), 'medium');
  assert.equal(sizeBand(25.1), 'large');
});

test('household dogs share a run, reactive dogs go alone', () => {
  const dogs: Dog[] = [
    { name: 'Pip', householdId: 'h1', weightKg: 6, temperament: 'social' },
    { name: 'Mo', householdId: 'h1', weightKg: 10, temperament: 'calm' },
    { name: 'Rex', householdId: 'h2', weightKg: 38, temperament: 'reactive' },
    { name: 'Juno', householdId: 'h3', weightKg: 31, temperament: 'social' },
  ];
  const { assignments, unplaced } = assignRuns(dogs, runs);
  assert.deepEqual(unplaced, []);
  assert.deepEqual(assignments, [
    { runId: 'L1', dogs: ['Rex'] },
    { runId: 'S1', dogs: ['Pip', 'Mo'] },
    { runId: 'L2', dogs: ['Juno'] },
  ]);
});

test('a 25 kg dog takes the medium run', () => {
  const { assignments } = assignRuns([{ name: 'Bruno', householdId: 'h4', weightKg: 25, temperament: 'calm' }], runs);
  assert.deepEqual(assignments, [{ runId: 'M1', dogs: ['Bruno'] }]);
});
