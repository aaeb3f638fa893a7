export interface Leg {
  flight: string;
  from: string;
  to: string;
  departUtc: string; // ISO 8601 with offset
  arriveUtc: string;
  terminal?: string;
  international: boolean;
}

export interface ConnectionCheck {
  at: string;
  layoverMinutes: number;
  minimumMinutes: number;
  ok: boolean;
}

// Minimum connection times by airport, in minutes: [domestic, international].
// The international figure applies only when both legs are international; mixed connections use the domestic one.
const MCT: Record<string, [number, number]> = {
  FRA: [45, 90],
  LHR: [60, 90],
  AMS: [40, 50],
  JFK: [60, 120],
};
const DEFAULT_MCT: [number, number] = [60, 90];

function minutesBetween(aIso: string, bIso: string): number {
  return Math.round((Date.parse(bIso) - Date.parse(aIso)) / 60_000);
}

export function minimumConnection(airport: string, inbound: Leg, outbound: Leg): number {
  const [domestic, international] = MCT[airport] ?? DEFAULT_MCT;
  const intl = inbound.international || outbound.international;
  const terminalChange = inbound.terminal && outbound.terminal && inbound.terminal !== outbound.terminal ? 15 : 0;
  return (intl ? international : domestic) + terminalChange;
}

export function checkConnections(legs: Leg[]): ConnectionCheck[] {
  const checks: ConnectionCheck[] = [];
  for (let i = 1; i < legs.length; i++) {
    const inbound = legs[i - 1];
    const outbound = legs[i];
    if (inbound.to !== outbound.from) {
      throw new Error(`leg ${outbound.flight} departs ${outbound.from}, previous leg arrives ${inbound.to}`);
    }
    const layover = minutesBetween(inbound.arriveUtc, outbound.departUtc);
    const minimum = minimumConnection(inbound.to, inbound, outbound);
    checks.push({ at: inbound.to, layoverMinutes: layover, minimumMinutes: minimum, ok: layover >= minimum });
  }
  return checks;
}

export function totalTravelMinutes(legs: Leg[]): number {
  if (legs.length === 0) return 0;
  return minutesBetween(legs[0].departUtc, legs[legs.length - 1].arriveUtc);
}

export function isBookable(legs: Leg[]): boolean {
  return checkConnections(legs).every((c) => c.ok);
}
