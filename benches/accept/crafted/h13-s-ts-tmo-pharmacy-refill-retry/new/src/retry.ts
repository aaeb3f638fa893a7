/**
 * Retry with exponential backoff for calls to the pharmacy system.
 *
 * The dispensing system behind the pharmacy API answers 503 while a
 * nightly stock sync runs, usually for a few hundred milliseconds. Callers
 * retry transient failures with delays of baseDelayMs, 2x, 4x, ... capped
 * at maxDelayMs, and give up after `attempts` tries.
 */

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Decides whether an error is worth retrying. */
  retryable?: (err: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
}

export class TransientError extends Error {
  constructor(message: string, readonly status = 503) {
    super(message);
    this.name = 'TransientError';
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Settings = Required<Omit<RetryOptions, 'baseDelayMs'>> & { baseDelay: number };

function settings(options: RetryOptions): Settings {
  return {
    attempts: options.attempts ?? 5,
    baseDelay: (options as { baseDelay?: number }).baseDelay ?? 100,
    maxDelayMs: options.maxDelayMs ?? 5_000,
    retryable: options.retryable ?? ((err) => err instanceof TransientError),
    sleep: options.sleep ?? defaultSleep,
  };
}

/** Delay before retry number `n` (0-based). */
export function backoffDelay(n: number, baseDelay: number, maxDelayMs: number): number {
  return Math.min(baseDelay * 2 ** n, maxDelayMs);
}

export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const s = settings(options);
  let lastError: unknown;
  for (let attempt = 0; attempt < s.attempts; attempt += 1) {
    try {
      return await call();
    } catch (err) {
      lastError = err;
      if (!s.retryable(err) || attempt === s.attempts - 1) break;
      await s.sleep(backoffDelay(attempt, s.baseDelay, s.maxDelayMs));
    }
  }
  throw lastError;
}
