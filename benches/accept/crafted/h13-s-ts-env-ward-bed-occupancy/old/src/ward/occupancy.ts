/**
 * Ward occupancy for the patient-flow dashboard.
 *
 * The bed-board feed sends one record per physical bed with a lower-case
 * status: "occupied", "free", "cleaning" or "closed". Closed beds (no
 * staff, broken equipment, infection control) cannot take a patient and are
 * left out of the capacity. Beds being cleaned still count as capacity;
 * they will be free within the hour.
 *
 * A ward at or above the escalation threshold is flagged red so the site
 * manager can open surge beds.
 */

export type BedStatus = 'occupied' | 'free' | 'cleaning' | 'closed';

export interface Bed {
  id: string;
  ward: string;
  /** Raw status from the feed, normally one of BedStatus. */
  status: string;
}

export interface WardOccupancy {
  ward: string;
  occupied: number;
  capacity: number;
  percent: number;
  escalate: boolean;
}

export const ESCALATION_PERCENT = 92;

const CLOSED_STATUS = 'Closed';

export function wardOccupancy(ward: string, beds: Bed[]): WardOccupancy {
  const own = beds.filter((b) => b.ward === ward);
  if (own.length === 0) throw new Error(`no beds reported for ward ${ward}`);
  const capacity = own.filter((b) => b.status !== CLOSED_STATUS).length;
  const occupied = own.filter((b) => b.status === 'occupied').length;
  const percent = capacity === 0 ? 100 : Math.round((occupied / capacity) * 1000) / 10;
  return { ward, occupied, capacity, percent, escalate: percent >= ESCALATION_PERCENT };
}

/** Every ward in the feed, fullest first. */
export function siteOccupancy(beds: Bed[]): WardOccupancy[] {
  const wards = [...new Set(beds.map((b) => b.ward))];
  return wards.map((w) => wardOccupancy(w, beds)).sort((a, b) => b.percent - a.percent);
}
