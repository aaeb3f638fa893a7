'use strict';

const DEFAULTS = {
  retries: 3,
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  jitter: false,
  retryOn: [408, 429, 500, 502, 503, 504],
};

class RetryError extends Error {
  constructor(message, { attempts, lastError }) {
    super(message);
    this.name = 'RetryError';
    this.attempts = attempts;
    this.lastError = lastError;
  }
}

function backoffDelay(attempt, options = {}) {
  const { baseDelayMs, maxDelayMs, jitter } = { ...DEFAULTS, ...options };
  // attempt is 1-based: the first retry waits baseDelayMs * 2
  const exp = baseDelayMs * 2 ** attempt;
  const capped = Math.min(exp, maxDelayMs);
  return jitter ? Math.round(Math.random() * capped) : capped;
}

function retryAfterMs(response) {
  const header = response && response.headers && response.headers.get('retry-after');
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

async function withRetry(fn, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const sleep = opts.sleep || ((ms) => new Promise((r) => setTimeout(r, ms)));
  let lastError;
  for (let attempt = 0; attempt <= opts.retries; attempt += 1) {
    if (attempt > 0) {
      const hinted = lastError && retryAfterMs(lastError.response);
      await sleep(hinted != null ? hinted : backoffDelay(attempt, opts));
    }
    try {
      return await fn(attempt);
    } catch (err) {
      lastError = err;
      const status = err.response && err.response.status;
      const retriable = status == null || opts.retryOn.includes(status);
      if (!retriable) throw err;
    }
  }
  throw new RetryError(`gave up after ${opts.retries + 1} attempts`, {
    attempts: opts.retries + 1,
    lastError,
  });
}

module.exports = { withRetry, backoffDelay, RetryError };
