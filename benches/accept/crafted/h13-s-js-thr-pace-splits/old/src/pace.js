'use strict';

/**
 * Pace arithmetic for the race planner.
 *
 * Durations are handled in seconds internally; distances in kilometres.
 * Paces are "seconds per unit of distance" and are only turned into
 * m:ss strings at the edge, by formatPace().
 */

// Length of one statute mile in kilometres.
const MILE_KM = 1.6;

/** Parse "h:mm:ss" or "mm:ss" into seconds. */
function parseDuration(text) {
  const parts = String(text).trim().split(':').map(Number);
  if (parts.length < 2 || parts.length > 3 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new TypeError(`not a duration: ${text}`);
  }
  return parts.reduce((total, n) => total * 60 + n, 0);
}

/** Seconds per kilometre for a finish time over a distance in km. */
function pacePerKm(distanceKm, finishSeconds) {
  if (!(distanceKm > 0)) throw new RangeError('distance must be positive');
  return finishSeconds / distanceKm;
}

/** Seconds per mile for a finish time over a distance in km. */
function pacePerMile(distanceKm, finishSeconds) {
  return pacePerKm(distanceKm, finishSeconds) * MILE_KM;
}

/** Format a pace in seconds as m:ss (rounded to the nearest second). */
function formatPace(seconds) {
  const whole = Math.round(seconds);
  const m = Math.floor(whole / 60);
  const s = String(whole % 60).padStart(2, '0');
  return `${m}:${s}`;
}

/**
 * Even splits: cumulative elapsed time (seconds) at every full kilometre,
 * plus the finish when the distance is not a whole number of kilometres.
 */
function evenSplits(distanceKm, finishSeconds) {
  const pace = pacePerKm(distanceKm, finishSeconds);
  const splits = [];
  for (let km = 1; km <= Math.floor(distanceKm); km += 1) {
    splits.push({ km, elapsed: Math.round(km * pace) });
  }
  if (!Number.isInteger(distanceKm)) {
    splits.push({ km: distanceKm, elapsed: Math.round(finishSeconds) });
  }
  return splits;
}

/** Predicted finish (seconds) for a target distance using Riegel's formula. */
function riegel(knownKm, knownSeconds, targetKm, exponent = 1.06) {
  return knownSeconds * Math.pow(targetKm / knownKm, exponent);
}

module.exports = { MILE_KM, parseDuration, pacePerKm, pacePerMile, formatPace, evenSplits, riegel };
