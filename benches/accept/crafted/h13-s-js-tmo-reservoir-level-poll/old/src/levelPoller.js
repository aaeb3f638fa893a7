/**
 * Reservoir level polling.
 *
 * The SCADA gateway exposes each level sensor as an async read function that
 * resolves to the fill level in percent. After a pump or valve command the
 * controller calls waitForLevel() to find out when the target is reached.
 *
 * Polling backs off exponentially so that a slow fill does not hammer the
 * gateway: the first wait is `initialDelayMs`, every following wait is
 * multiplied by `factor` and capped at `maxDelayMs`. The whole wait never
 * exceeds `deadlineMs`.
 */

export class LevelTimeoutError extends Error {
  constructor(target, lastLevel, attempts) {
    super(`level ${target}% not reached after ${attempts} reads (last ${lastLevel}%)`);
    this.name = 'LevelTimeoutError';
    this.target = target;
    this.lastLevel = lastLevel;
    this.attempts = attempts;
  }
}

const DEFAULTS = {
  initialDelayMs: 250,
  factor: 2,
  maxDelayMs: 30_000,
  deadlineMs: 15 * 60_000,
  direction: 'rise',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function reached(level, target, direction) {
  return direction === 'rise' ? level >= target : level <= target;
}

/**
 * Poll `readLevel` until the level reaches `target` (percent).
 *
 * @param {() => Promise<number>} readLevel
 * @param {number} target
 * @param {Partial<typeof DEFAULTS>} [options]
 * @returns {Promise<{ level: number, attempts: number, waitedMs: number }>}
 */
export async function waitForLevel(readLevel, target, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const started = Date.now();
  let delay = opts.initialDelayMs;
  let attempts = 0;
  let level = NaN;

  for (;;) {
    level = await readLevel();
    attempts += 1;
    if (reached(level, target, opts.direction)) {
      return { level, attempts, waitedMs: Date.now() - started };
    }
    const remaining = opts.deadlineMs - (Date.now() - started);
    if (remaining <= 0) {
      throw new LevelTimeoutError(target, level, attempts);
    }
    await sleep(Math.min(delay, remaining));
    delay = Math.max(delay * opts.factor, opts.maxDelayMs);
  }
}

/** A read function that replays recorded levels, repeating the last one. */
export function replaySensor(levels) {
  let i = 0;
  return async () => levels[Math.min(i++, levels.length - 1)];
}
