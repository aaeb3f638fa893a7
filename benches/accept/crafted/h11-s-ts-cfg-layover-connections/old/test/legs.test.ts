import { describe, expect, it } from 'vitest';
import { checkConnections, type Leg } from '../src/itinerary/connections';

const leg = (flight: string, from: string, to: string, dep: string, arr: string): Leg => ({
  flight, from, to, departUtc: dep, arriveUtc: arr, international: false,
});

describe('leg chaining', () => {
  it('rejects a broken chain', () => {
    const legs = [leg('A1', 'AMS', 'LHR', '2026-04-10T08:00:00Z', '2026-04-10T09:00:00Z'), leg('A2', 'LGW', 'EDI', '2026-04-10T11:00:00Z', '2026-04-10T12:30:00Z')];
    expect(() => checkConnections(legs)).toThrow(/departs LGW/);
  });
});
