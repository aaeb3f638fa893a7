import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heatIndexF, advisoryBand, hourlyAdvisories, peakAdvisory } from '../src/heatIndex.js';

const TOLERANCE = 0.05;

function assertNear(actual, expected, message) {
  assert.ok(
    Math.abs(actual - expected) <= TOLERANCE,
    `${message}: expected ${expected} ± ${TOLERANCE}, got ${actual}`,
  );
}

test('mild conditions use the simple formula', () => {
  assertNear(heatIndexF(70, 50), 69.05, '70 °F / 50 %');
});

test('matches the NWS table in the regression range', () => {
  assertNear(heatIndexF(90, 70), 105.92, '90 °F / 70 %');
  assertNear(heatIndexF(100, 8), 93.41, '100 °F / 8 % (dry adjustment)');
});

test('humid adjustment raises the index below 87 °F', () => {
  assertNear(heatIndexF(84, 95), 100.88, '84 °F / 95 %');
  assertNear(heatIndexF(82, 90), 91.99, '82 °F / 90 %');
});

test('advisory bands', () => {
  assert.equal(advisoryBand(79.9), null);
  assert.equal(advisoryBand(95), 'extreme caution');
  assert.equal(advisoryBand(130), 'extreme danger');
});

test('hourly feed converts to °C and labels each hour', () => {
  const rows = hourlyAdvisories([
    { at: '13:00', tempC: 27, rh: 92 },
    { at: '14:00', tempC: 28.5, rh: 92 },
    { at: '15:00', tempC: 31, rh: 70 },
  ]);
  assert.deepEqual(rows.map((r) => r.band), ['caution', 'extreme caution', 'extreme caution']);
  assertNear(rows[0].heatIndexC, 31.4, '13:00');
  assertNear(rows[1].heatIndexC, 36.1, '14:00');
  assertNear(rows[2].heatIndexC, 37.6, '15:00');
});

test('peak advisory picks the hottest flagged hour', () => {
  const peak = peakAdvisory([
    { at: '06:00', tempC: 21, rh: 80 },
    { at: '14:00', tempC: 28.5, rh: 92 },
    { at: '16:00', tempC: 30, rh: 60 },
  ]);
  assert.equal(peak.at, '14:00');
  assertNear(peak.heatIndexC, 36.1, 'peak');
});

test('rejects impossible humidity', () => {
  assert.throws(() => heatIndexF(90, 120), RangeError);
});
