import { describe, expect, it } from 'vitest';
import { siteOccupancy, wardOccupancy, type Bed, type BedStatus } from '../src/ward/occupancy';

function ward(name: string, statuses: BedStatus[]): Bed[] {
  return statuses.map((status, i) => ({ id: `${name}-${i + 1}`, ward: name, status }));
}

const beds: Bed[] = [
  ...ward('Cedar', ['occupied', 'occupied', 'occupied', 'free', 'cleaning']),
  ...ward('Maple', ['occupied', 'occupied', 'occupied', 'occupied', 'closed', 'closed']),
];

describe('wardOccupancy', () => {
  it('counts cleaning beds as capacity', () => {
    expect(wardOccupancy('Cedar', beds)).toEqual({
      ward: 'Cedar', occupied: 3, capacity: 5, percent: 60, escalate: false,
    });
  });

  it('leaves closed beds out of the capacity', () => {
    expect(wardOccupancy('Maple', beds)).toMatchObject({ occupied: 4, capacity: 4, percent: 100, escalate: true });
  });

  it('rejects unknown wards', () => {
    expect(() => wardOccupancy('Birch', beds)).toThrow(/no beds/);
  });
});

describe('siteOccupancy', () => {
  it('lists the fullest ward first', () => {
    expect(siteOccupancy(beds).map((w) => w.ward)).toEqual(['Maple', 'Cedar']);
  });
});
