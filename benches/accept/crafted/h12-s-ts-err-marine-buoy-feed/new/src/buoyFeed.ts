// Polls the offshore wave buoys over their satellite modem and turns the NMEA-style
// sentences into readings for the marine forecast desk, e.g.
//   $BUOY,44013,20260914T0600Z,WVHT=1.8,DPD=9,WTMP=17.2*77
// The two hex digits after '*' are the XOR of every character between '$' and '*'.

export class ChecksumError extends Error {}

export interface Reading {
  station: string;
  at: string;
  values: Record<string, number>;
}

export interface PollResult {
  station: string;
  status: 'online' | 'stale';
  readings: Reading[];
  polledAt: number;
}

export interface Transport {
  fetchLines(station: string): Promise<string[]>;
}

export function checksum(body: string): string {
  let x = 0;
  for (const ch of body) x ^= ch.charCodeAt(0);
  return x.toString(16).toUpperCase().padStart(2, '0');
}

export function parseSentence(line: string): Reading {
  const m = /^\$(BUOY,[^*]+)\*([0-9A-F]{2})$/.exec(line.trim());
  if (!m) throw new SyntaxError(`not a buoy sentence: ${line}`);
  const [, body, sum] = m;
  const expected = checksum(line.slice(0, line.indexOf('*')));
  if (sum !== expected) throw new ChecksumError(`checksum ${sum} != ${expected} in ${line}`);
  const [, station, at, ...fields] = body.split(',');
  const values: Record<string, number> = {};
  for (const f of fields) {
    const [k, v] = f.split('=');
    const n = Number(v);
    if (!k || Number.isNaN(n)) throw new SyntaxError(`bad field "${f}" in ${line}`);
    values[k] = n;
  }
  return { station, at, values };
}

export class BuoyFeed {
  private lastGood: number | null = null;

  constructor(
    private readonly station: string,
    private readonly transport: Transport,
    private readonly staleAfterMs = 3 * 3_600_000,
    private readonly clock: () => number = Date.now,
  ) {}

  async poll(): Promise<PollResult> {
    const lines = await this.transport.fetchLines(this.station);
    const readings = lines
      .filter((l) => l.trim())
      .map((l) => {
        try {
          return parseSentence(l);
        } catch (e) {
          if (e instanceof ChecksumError) return null; // satellite noise, skip the sentence
          throw e;
        }
      })
      .filter((r): r is Reading => r !== null);
    for (const r of readings) {
      if (r.station !== this.station) throw new Error(`sentence for ${r.station} on ${this.station}'s link`);
    }
    const now = this.clock();
    if (lines.length) this.lastGood = now; // the modem answered
    const stale = this.lastGood === null || now - this.lastGood > this.staleAfterMs;
    return { station: this.station, status: stale ? 'stale' : 'online', readings, polledAt: now };
  }

  static maxWaveHeight(readings: Reading[]): number | null {
    const heights = readings.map((r) => r.values.WVHT).filter((h) => h !== undefined);
    return heights.length ? Math.max(...heights) : null;
  }
}
