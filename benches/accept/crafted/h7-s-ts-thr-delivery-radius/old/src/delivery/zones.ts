export interface LatLng {
  lat: number;
  lng: number;
}

export interface Store {
  id: string;
  name: string;
  location: LatLng;
  open: boolean;
}

export interface Quote {
  storeId: string;
  distanceKm: number;
  feeCents: number;
  etaMinutes: number;
}

const EARTH_RADIUS_KM = 6371;
export const MAX_DELIVERY_KM = 25;
const BASE_FEE_CENTS = 299;
const FEE_PER_KM_CENTS = 45;
const MINUTES_PER_KM = 3;

export class OutOfRangeError extends Error {
  constructor(public readonly distanceKm: number) {
    super(`address is ${distanceKm.toFixed(1)} km from the nearest store`);
    this.name = 'OutOfRangeError';
  }
}

function toRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

export function nearestStore(stores: Store[], address: LatLng): { store: Store; distanceKm: number } | null {
  let best: { store: Store; distanceKm: number } | null = null;
  for (const store of stores) {
    if (!store.open) continue;
    const distanceKm = haversineKm(store.location, address);
    if (!best || distanceKm < best.distanceKm) best = { store, distanceKm };
  }
  return best;
}

export function quoteDelivery(stores: Store[], address: LatLng): Quote {
  const nearest = nearestStore(stores, address);
  if (!nearest) throw new OutOfRangeError(Infinity);
  if (nearest.distanceKm > MAX_DELIVERY_KM) {
    throw new OutOfRangeError(nearest.distanceKm);
  }
  const roundedKm = Math.round(nearest.distanceKm * 10) / 10;
  return {
    storeId: nearest.store.id,
    distanceKm: roundedKm,
    feeCents: BASE_FEE_CENTS + Math.ceil(roundedKm) * FEE_PER_KM_CENTS,
    etaMinutes: 20 + Math.ceil(roundedKm * MINUTES_PER_KM),
  };
}
