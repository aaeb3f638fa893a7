// Dimensional weight and parcel class for carrier rating.

export interface Parcel {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
}

export type ParcelClass = "letter" | "small" | "medium" | "large" | "oversize";

const VOLUMETRIC_DIVISOR = 5000;
const OVERSIZE_GIRTH_CM = 300;

export function sortedSides(p: Parcel): [number, number, number] {
  const s = [p.lengthCm, p.widthCm, p.heightCm].sort((a, b) => b - a);
  return [s[0], s[1], s[2]];
}

export function girth(p: Parcel): number {
  const [l, w, h] = sortedSides(p);
  return l + 2 * w + 2 * h;
}

export function volumetricKg(p: Parcel): number {
  return (p.lengthCm * p.widthCm * p.heightCm) / VOLUMETRIC_DIVISOR;
}

export function chargeableKg(p: Parcel): number {
  const kg = Math.max(p.weightKg, volumetricKg(p));
  return Math.ceil(kg * 2) / 2;
}

export function classify(p: Parcel): ParcelClass {
  const [l, w, h] = sortedSides(p);
  if (girth(p) > OVERSIZE_GIRTH_CM) return "oversize";
  if (p.lengthCm <= 35 && p.widthCm <= 25 && p.heightCm <= 3 && p.weightKg <= 1) return "letter";
  if (l <= 45 && w <= 35 && h <= 16) return "small";
  if (l <= 61 && w <= 46 && h <= 46) return "medium";
  return "large";
}

export function quote(p: Parcel, perKgCents: number, baseCents: Record<ParcelClass, number>) {
  const cls = classify(p);
  const kg = chargeableKg(p);
  return { cls, kg, cents: baseCents[cls] + Math.round(kg * perKgCents) };
}

export function describeParcel(p: Parcel): string {
  const [l, w, h] = sortedSides(p);
  return `${l}x${w}x${h} cm, ${p.weightKg} kg (${classify(p)}, ${chargeableKg(p)} kg chargeable)`;
}
