'use strict';

// Pulls water-level samples from the harbour tide gauges and derives the next high and low
// water for the harbour-master board. Gauges sit on flaky cellular links, so each fetch is
// retried with exponential back-off.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class TideFeed {
  constructor({ fetchStation, baseDelayMs = 250, maxDelayMs = 30000, maxAttempts = 4, wait = sleep }) {
    if (typeof fetchStation !== 'function') throw new TypeError('fetchStation is required');
    this.fetchStation = fetchStation;
    this.baseDelayMs = baseDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.maxAttempts = maxAttempts;
    this.wait = wait;
    this.consecutiveFailures = 0;
  }

  delayFor(failures) {
    return Math.min(this.baseDelayMs * 2 ** (failures - 1), this.maxDelayMs);
  }

  async fetchWithRetry(stationId) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const samples = await this.fetchStation(stationId);
        return samples;
      } catch (err) {
        this.consecutiveFailures += 1;
        if (attempt >= this.maxAttempts) {
          throw new Error(`station ${stationId} unreachable after ${attempt} attempts: ${err.message}`);
        }
        await this.wait(this.delayFor(this.consecutiveFailures));
      }
    }
  }

  async board(stationIds) {
    const rows = [];
    for (const id of stationIds) {
      const samples = await this.fetchWithRetry(id);
      rows.push({ station: id, ...turningPoints(samples) });
    }
    return rows;
  }
}

// samples: [{ t: epoch ms, level: metres above chart datum }], sorted by t
function turningPoints(samples) {
  let nextHigh = null;
  let nextLow = null;
  for (let i = 1; i < samples.length - 1; i += 1) {
    const prev = samples[i - 1].level;
    const cur = samples[i].level;
    const next = samples[i + 1].level;
    if (!nextHigh && cur > prev && cur >= next) nextHigh = { t: samples[i].t, level: cur };
    if (!nextLow && cur < prev && cur <= next) nextLow = { t: samples[i].t, level: cur };
    if (nextHigh && nextLow) break;
  }
  return { nextHigh, nextLow };
}

function formatLevel(level) {
  return `${level.toFixed(2)} m`;
}

module.exports = { TideFeed, turningPoints, formatLevel };
