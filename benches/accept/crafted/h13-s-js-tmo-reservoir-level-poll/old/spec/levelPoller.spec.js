import assert from 'node:assert/strict';
import { waitForLevel, replaySensor, LevelTimeoutError } from '../src/levelPoller.js';

const fast = { initialDelayMs: 20, factor: 2, maxDelayMs: 1500 };

describe('waitForLevel', function () {
  it('returns at once when the level is already there', async function () {
    const result = await waitForLevel(replaySensor([92]), 90, fast);
    assert.equal(result.attempts, 1);
    assert.equal(result.level, 92);
  });

  it('backs off while the reservoir fills', async function () {
    const sensor = replaySensor([41, 63, 80, 91]);
    const result = await waitForLevel(sensor, 90, fast);
    assert.equal(result.attempts, 4);
    assert.equal(result.level, 91);
  });

  it('waits for a drain when direction is "fall"', async function () {
    const sensor = replaySensor([30, 22, 14, 9]);
    const result = await waitForLevel(sensor, 10, { ...fast, direction: 'fall' });
    assert.equal(result.level, 9);
  });

  it('gives up at the deadline', async function () {
    await assert.rejects(
      waitForLevel(replaySensor([12]), 90, { ...fast, deadlineMs: 100 }),
      (err) => err instanceof LevelTimeoutError && err.lastLevel === 12,
    );
  });
});
