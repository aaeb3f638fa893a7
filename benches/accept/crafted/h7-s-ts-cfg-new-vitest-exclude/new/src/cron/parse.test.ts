import { describe, expect, it } from 'vitest';
import { CronSyntaxError, matches, parseCron } from './parse';

describe('parseCron', () => {
  it('expands steps', () => {
    expect([...parseCron('*/15 * * * *').minutes]).toEqual([0, 15, 30, 45]);
  });

  it('reads month and day names', () => {
    const s = parseCron('0 9 * jan-mar mon-fri');
    expect([...s.months]).toEqual([1, 2, 3]);
    expect([...s.daysOfWeek]).toEqual([1, 2, 3, 4, 5]);
  });

  it('accepts 7 as Sunday', () => {
    expect(parseCron('0 0 * * 7').daysOfWeek.has(0)).toBe(true);
  });

  it('rejects out-of-range values', () => {
    expect(() => parseCron('60 * * * *')).toThrow(CronSyntaxError);
  });

  it('matches a date', () => {
    expect(matches(parseCron('30 14 * * *'), new Date('2024-06-01T14:30:00Z'))).toBe(true);
  });
});
