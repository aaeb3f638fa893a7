import { describe, expect, test } from 'vitest';
import { ageOn, screen, type Applicant } from '../src/onboarding/kyc';

const applicant: Applicant = {
  fullName: 'Lena Vogel',
  dateOfBirth: '2008-09-15',
  documentType: 'id_card',
  documentExpiry: '2031-01-01',
  country: 'DE',
};

describe('ageOn', () => {
  test('birthday not yet reached this year', () => {
    expect(ageOn('2008-09-15', '2026-03-01')).toBe(17);
  });

  test('on the birthday', () => {
    expect(ageOn('2008-09-15', '2026-09-15')).toBe(18);
  });
});

describe('screen', () => {
  test('a seventeen-year-old is refused', () => {
    expect(screen(applicant, '2026-03-01')).toEqual({ approved: false, age: 17, reasons: ['under minimum age 18'] });
  });

  test('id cards are not accepted in the US', () => {
    const res = screen({ ...applicant, country: 'US', dateOfBirth: '1990-01-01' }, '2026-03-01');
    expect(res.reasons).toEqual(['id_card not accepted in US']);
  });
});
