// Parses human durations from config ("1h30m", "45s", "2d") into milliseconds.

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60 * 1000,
  h: 60 * 60 * 1000,
  d: 24 * 60 * 60 * 1000,
};

const TOKEN = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

export class DurationError extends Error {}

export function parseDuration(input: string): number {
  const text = input.trim().toLowerCase();
  if (text === "") throw new DurationError("empty duration");
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new DurationError(`bad duration "${input}" at ${at}`);
    total += Number(m[1]) * UNITS[m[2]];
  }
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [["d", UNITS.d], ["h", UNITS.h], ["m", UNITS.m], ["s", UNITS.s]] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  if (rest) parts.push(`${rest}ms`);
  return parts.join("");
}

export interface RetrySettings {
  timeoutMs: number;
  backoffMs: number;
}

export function retrySettings(env: Record<string, string | undefined>): RetrySettings {
  let timeoutMs: number;
  timeoutMs = parseDuration(env.RETRY_TIMEOUT ?? "30s");
  const backoffMs = parseDuration(env.RETRY_BACKOFF ?? "500ms");
  if (backoffMs > timeoutMs) throw new DurationError("backoff longer than timeout");
  return { timeoutMs, backoffMs };
}
