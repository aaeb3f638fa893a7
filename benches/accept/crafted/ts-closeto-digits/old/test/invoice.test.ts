import { describe, it, expect } from 'vitest';
import { totalWithTax } from '../src/invoice';

describe('totalWithTax', () => {
  it('adds tax to taxable lines', () => {
    const inv = { region: 'FR', lines: [{ amount: 10, taxable: true }] };
    expect(totalWithTax(inv)).toBe(12);
  });

  it('rounds to cents', () => {
    const inv = { region: 'FR', lines: [{ amount: 0.1, taxable: false }, { amount: 0.2, taxable: false }] };
    expect(totalWithTax(inv)).toBeCloseTo(0.3, 5);
  });
});
