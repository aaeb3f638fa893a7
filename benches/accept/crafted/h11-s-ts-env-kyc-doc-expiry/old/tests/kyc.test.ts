import { describe, expect, test } from 'vitest';
import { ageOn, screen, type Applicant } from '../src/onboarding/kyc';

const applicant: Applicant = {
  fullName: 'Lena Vogel',
  dateOfBirth: '1994-09-15',
  documentType: 'id_card',
  documentExpiry: '2031-01-01',
  country: 'DE',
};

describe('ageOn', () => {
  test('birthday not yet reached this year', () => {
    expect(ageOn('2008-09-15', '2026-03-01')).toBe(17);
  });
});

describe('screen', () => {
  test('an id card on its last valid day is accepted', () => {
    expect(screen({ ...applicant, documentExpiry: '2026-03-01' }, '2026-03-01')).toEqual({ approved: true, age: 31, reasons: [] });
  });

  test('an expired id card is refused', () => {
    expect(screen({ ...applicant, documentExpiry: '2026-02-28' }, '2026-03-01').reasons).toEqual(['document expired']);
  });

  test('id cards are not accepted in the US', () => {
    const res = screen({ ...applicant, country: 'US' }, '2026-03-01');
    expect(res.reasons).toEqual(['id_card not accepted in US']);
  });
});
