import { describe, expect, it } from 'vitest';
import { annualEntitlement, accruedPerPayPeriod, projectedBalance, type Employee } from '../src/hr/ptoAccrual';

const asOf = new Date('2026-06-01T00:00:00Z');

function emp(partial: Partial<Employee> = {}): Employee {
  return { id: 'E7', hireDate: new Date('2020-01-15T00:00:00Z'), fte: 1, carryoverHours: 0, ...partial };
}

describe('annualEntitlement', () => {
  it('adds the five-year bonus for full-timers', () => {
    expect(annualEntitlement(emp(), asOf)).toBe(200);
  });

  it('part-timers get the position entitlement', () => {
    expect(annualEntitlement(emp({ fte: 0.5 }), asOf)).toBe(200);
  });
});

describe('accrual', () => {
  it('nothing accrues in the waiting period', () => {
    expect(accruedPerPayPeriod(emp({ hireDate: new Date('2026-05-01T00:00:00Z') }), asOf)).toBe(0);
  });

  it('part-time balance projection', () => {
    expect(projectedBalance(emp({ fte: 0.5, carryoverHours: 10 }), asOf, 13)).toBe(109.97);
  });

  it('balance is capped', () => {
    expect(projectedBalance(emp({ carryoverHours: 230 }), asOf, 26)).toBe(240);
  });
});
