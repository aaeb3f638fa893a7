import { describe, expect, it } from 'vitest';
import { checkConnections, isBookable, totalTravelMinutes, type Leg } from '../src/itinerary/connections';

const legs: Leg[] = [
  { flight: 'LH401', from: 'JFK', to: 'FRA', departUtc: '2026-04-10T22:00:00Z', arriveUtc: '2026-04-11T05:30:00Z', terminal: '1', international: true },
  { flight: 'LH1172', from: 'FRA', to: 'MAD', departUtc: '2026-04-11T06:40:00Z', arriveUtc: '2026-04-11T09:15:00Z', terminal: '1', international: false },
];

describe('connections', () => {
  it('international-to-domestic uses the domestic minimum', () => {
    expect(checkConnections(legs)).toEqual([{ at: 'FRA', layoverMinutes: 70, minimumMinutes: 45, ok: true }]);
  });

  it('a 70 minute FRA connection onto a Schengen flight is bookable', () => {
    expect(isBookable(legs)).toBe(true);
  });

  it('total travel time', () => {
    expect(totalTravelMinutes(legs)).toBe(675);
  });
});
