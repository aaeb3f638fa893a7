/**
 * Handicap ratings.
 *
 * Each boat has a time correction factor (TCF) from the national rating
 * office. The club caches the certificates in a key-value store keyed by
 * sail number in canonical form: upper case, one space between the
 * country letters and the number ("GBR 1234"). Entry forms are filled in by
 * hand, so the sail numbers we get are anything from "gbr1234" to
 * "GBR  1234".
 */

export interface RatingStore {
  get(key: string): Promise<number | undefined>;
}

export class RatingNotFoundError extends Error {
  constructor(readonly sailNumber: string) {
    super(`no rating certificate for ${sailNumber}`);
    this.name = 'RatingNotFoundError';
  }
}

/** Canonical sail number: "gbr1234" -> "GBR 1234". */
export function canonicalSail(raw: string): string {
  const m = /^\s*([a-z]{3})\s*(\d+)\s*$/i.exec(raw);
  if (!m) throw new RangeError(`not a sail number: "${raw}"`);
  return `${m[1].toLowerCase()} ${m[2]}`;
}

/** The boat's TCF; rejects if the boat has no certificate on file. */
export async function tcfFor(store: RatingStore, sailNumber: string): Promise<number> {
  const key = canonicalSail(sailNumber);
  const tcf = await store.get(key);
  if (tcf === undefined) throw new RatingNotFoundError(key);
  return tcf;
}

/** In-memory store used by the results laptop when offline. */
export function memoryStore(entries: Record<string, number>): RatingStore {
  const map = new Map(Object.entries(entries));
  return { get: async (key) => map.get(key) };
}
