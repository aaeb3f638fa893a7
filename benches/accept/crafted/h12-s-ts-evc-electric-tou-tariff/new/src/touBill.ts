// Time-of-use billing for smart-meter customers. Interval readings carry the meter's
// local wall-clock start time ("2026-01-14T17:30"); each half hour is priced by band.

export type Band = 'peak' | 'shoulder' | 'offPeak';

export interface Reading {
  start: string;
  kWh: number;
}

export interface Tariff {
  /** [fromHour, toHour) on weekdays */
  peak: [number, number];
  shoulder: Array<[number, number]>;
  rates: Record<Band, number>;
  dailyCharge: number;
  vat: number;
}

export interface Bill {
  kWh: Record<Band, number>;
  energy: Record<Band, number>;
  days: number;
  fixed: number;
  net: number;
  total: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function wallClock(start: string): { day: string; hour: number; weekday: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(start);
  if (!m) throw new Error(`bad reading timestamp: ${start}`);
  const [, y, mo, d, h] = m;
  const weekday = new Date(Date.UTC(+y, +mo - 1, +d)).getUTCDay();
  return { day: `${y}-${mo}-${d}`, hour: Number(h), weekday };
}

export function bandFor(start: string, tariff: Tariff): Band {
  const { hour, weekday } = wallClock(start);
  if (weekday === 0 || weekday === 6) return 'offPeak';
  const [from, to] = tariff.peak;
  if (hour >= from && hour <= to) return 'peak';
  if (tariff.shoulder.some(([a, b]) => hour >= a && hour < b)) return 'shoulder';
  return 'offPeak';
}

export function bill(readings: Reading[], tariff: Tariff): Bill {
  const kWh: Record<Band, number> = { peak: 0, shoulder: 0, offPeak: 0 };
  const days = new Set<string>();
  for (const r of readings) {
    if (r.kWh < 0) throw new RangeError(`negative consumption at ${r.start}`);
    kWh[bandFor(r.start, tariff)] += r.kWh;
    days.add(wallClock(r.start).day);
  }
  const energy = {
    peak: round2(kWh.peak * tariff.rates.peak),
    shoulder: round2(kWh.shoulder * tariff.rates.shoulder),
    offPeak: round2(kWh.offPeak * tariff.rates.offPeak),
  };
  const fixed = round2(days.size * tariff.dailyCharge);
  const net = round2(energy.peak + energy.shoulder + energy.offPeak + fixed);
  return {
    kWh: { peak: round2(kWh.peak), shoulder: round2(kWh.shoulder), offPeak: round2(kWh.offPeak) },
    energy,
    days: days.size,
    fixed,
    net,
    total: round2(net * (1 + tariff.vat)),
  };
}

export function halfHourly(day: string, profile: number[]): Reading[] {
  if (profile.length !== 48) throw new Error('a day has 48 half-hour readings');
  return profile.map((kWh, i) => {
    const h = String(Math.floor(i / 2)).padStart(2, '0');
    const m = i % 2 ? '30' : '00';
    return { start: `${day}T${h}:${m}`, kWh };
  });
}
