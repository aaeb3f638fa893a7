import { describe, expect, it } from 'vitest';
import { buildLabelRequest, parseWeight } from '../src/shipping/label';

describe('parseWeight', () => {
  it('reads grams and kilograms', () => {
    expect(parseWeight('350 g')).toBe(350);
    expect(parseWeight('1.2kg')).toBe(1200);
  });

  it('rejects garbage', () => {
    expect(() => parseWeight('heavy')).toThrow();
  });
});

describe('buildLabelRequest', () => {
  it('builds a label for a US supplier line weighed in pounds', () => {
    const req = buildLabelRequest('o-77', [
      { sku: 'MUG', quantity: 2, weight: '350 g' },
      { sku: 'CAST-IRON', quantity: 1, weight: '2 lb' },
    ], 5_400, 'express');
    expect(req.orderId).toBe('o-77');
    expect(req.service).toBe('express');
    expect(req.weightGrams).toBeGreaterThan(0);
  });
});
