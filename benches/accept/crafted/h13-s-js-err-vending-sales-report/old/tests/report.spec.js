import { describe, expect, it } from 'vitest';
import { salesReport } from '../src/report.js';
import { formatCents } from '../src/money.js';

const DOT_SITE = `slot;product;price;vends
A1;Sparkling water;1.20;14
A2;Cola;1.50;9
# B row is being refilled
B1;Crisps;0.90;3
`;

const COMMA_SITE = `slot;product;price;vends
A1;Sparkling water;1,20;6
A2;Cola;1,50;11
B1;Crisps;0,90;2
`;

describe('salesReport', () => {
  it('summarises a dot-decimal export', () => {
    expect(salesReport(DOT_SITE)).toEqual({
      slots: 3,
      vends: 26,
      revenue: '33.00',
      bestSeller: 'Sparkling water',
    });
  });

  it('reads exports from sites with a decimal comma', () => {
    const report = salesReport(COMMA_SITE);
    expect(report.slots).toBe(3);
    expect(report.vends).toBe(19);
    expect(report.bestSeller).toBe('Cola');
  });

  it('rejects a short line', () => {
    expect(() => salesReport('A1;Cola;1.50')).toThrow(/expected 4 fields/);
  });
});

describe('formatCents', () => {
  it('pads cents', () => {
    expect(formatCents(905)).toBe('9.05');
    expect(formatCents(-40)).toBe('-0.40');
  });
});
