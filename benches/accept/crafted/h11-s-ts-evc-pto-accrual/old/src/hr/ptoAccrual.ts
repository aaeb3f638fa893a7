export interface Employee {
  id: string;
  hireDate: Date;
  fte: number; // 1.0 = full time
  carryoverHours: number;
}

export interface AccrualPolicy {
  annualHoursFullTime: number;
  maxBalanceHours: number;
  waitingPeriodDays: number;
  tenureBonus: Array<{ years: number; extraHours: number }>;
}

const MS_PER_DAY = 86_400_000;

export const standardPolicy: AccrualPolicy = {
  annualHoursFullTime: 160,
  maxBalanceHours: 240,
  waitingPeriodDays: 90,
  tenureBonus: [
    { years: 3, extraHours: 16 },
    { years: 5, extraHours: 40 },
  ],
};

export function tenureYears(emp: Employee, asOf: Date): number {
  const days = Math.floor((asOf.getTime() - emp.hireDate.getTime()) / MS_PER_DAY);
  return Math.max(0, Math.floor(days / 365));
}

export function annualEntitlement(emp: Employee, asOf: Date, policy: AccrualPolicy = standardPolicy): number {
  const years = tenureYears(emp, asOf);
  const bonus = policy.tenureBonus
    .filter((b) => years >= b.years)
    .reduce((max, b) => Math.max(max, b.extraHours), 0);
  const base = policy.annualHoursFullTime + bonus;
  return base;
}

export function accruedPerPayPeriod(emp: Employee, asOf: Date, periodsPerYear = 26, policy: AccrualPolicy = standardPolicy): number {
  const hireAge = (asOf.getTime() - emp.hireDate.getTime()) / MS_PER_DAY;
  if (hireAge < policy.waitingPeriodDays) {
    return 0;
  }
  const perPeriod = annualEntitlement(emp, asOf, policy) / periodsPerYear;
  return Math.round(perPeriod * 100) / 100;
}

export function projectedBalance(emp: Employee, asOf: Date, periods: number, policy: AccrualPolicy = standardPolicy): number {
  const accrual = accruedPerPayPeriod(emp, asOf, 26, policy) * periods;
  return Math.min(policy.maxBalanceHours, Math.round((emp.carryoverHours + accrual) * 100) / 100);
}

export function describeEntitlement(emp: Employee, asOf: Date): string {
  const hours = annualEntitlement(emp, asOf);
  return `${emp.id}: ${hours}h/yr (${(hours / 8).toFixed(1)} days)`;
}
