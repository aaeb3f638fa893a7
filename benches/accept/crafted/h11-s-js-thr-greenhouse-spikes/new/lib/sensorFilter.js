// Greenhouse telemetry: drop impossible readings and flag spikes before they reach the climate controller.

const DEFAULTS = {
  minCelsius: -40,
  maxCelsius: 85,
  maxJumpPerMinute: 500, // degrees C per minute a real air sensor can move
  staleAfterMs: 10 * 60 * 1000,
};

function inRange(reading, opts) {
  return reading.celsius >= opts.minCelsius && reading.celsius <= opts.maxCelsius;
}

function ratePerMinute(a, b) {
  const minutes = (b.at - a.at) / 3600000;
  if (minutes <= 0) return Infinity;
  return Math.abs(b.celsius - a.celsius) / minutes;
}

function filterSeries(readings, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const sorted = [...readings].sort((x, y) => x.at - y.at);
  const accepted = [];
  const rejected = [];
  for (const r of sorted) {
    if (!inRange(r, opts)) {
      rejected.push({ ...r, reason: 'out_of_range' });
      continue;
    }
    const anchor = accepted[accepted.length - 1];
    if (anchor && ratePerMinute(anchor, r) > opts.maxJumpPerMinute) {
      rejected.push({ ...r, reason: 'spike' });
      continue;
    }
    accepted.push(r);
  }
  return { accepted, rejected };
}

function latest(readings, now, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const { accepted } = filterSeries(readings, opts);
  const last = accepted[accepted.length - 1];
  if (!last || now - last.at > opts.staleAfterMs) return null;
  return last;
}

function summarize(readings, options = {}) {
  const { accepted, rejected } = filterSeries(readings, options);
  const temps = accepted.map((r) => r.celsius);
  return {
    count: accepted.length,
    dropped: rejected.length,
    min: temps.length ? Math.min(...temps) : null,
    max: temps.length ? Math.max(...temps) : null,
    mean: temps.length ? Number((temps.reduce((a, b) => a + b, 0) / temps.length).toFixed(2)) : null,
  };
}

module.exports = { DEFAULTS, filterSeries, latest, summarize, ratePerMinute };
