import { describe, expect, it } from 'vitest';
import { submitDeclaration, type BrokerApi, type LineItem } from '../src/customs/brokerClient';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fakeBroker(latencyMs = 100): BrokerApi & { calls: number } {
  return {
    calls: 0,
    async classify(lines) {
      this.calls += 1;
      await delay(latencyMs);
      return lines.map((l) => ({ hsCode: l.hsCode, dutyRateBp: 250 }));
    },
    async file(shipmentId) {
      await delay(latencyMs);
      return { entryNumber: `E-${shipmentId}` };
    },
  };
}

const line = (i: number): LineItem => ({
  hsCode: String(61091000 + i),
  description: `cotton t-shirt ${i}`,
  valueCents: 1_000,
  originCountry: 'PT',
  quantity: 10,
});

describe('submitDeclaration', () => {
  it('files a small declaration', async () => {
    const res = await submitDeclaration(fakeBroker(), { shipmentId: 'S1', destination: 'US', lines: [line(1)] });
    expect(res).toEqual({ entryNumber: 'E-S1', dutyCents: 250 });
  });

  it('files a 30-line container within the deadline', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => line(i));
    const res = await submitDeclaration(fakeBroker(), { shipmentId: 'S2', destination: 'US', lines });
    expect(res.dutyCents).toBe(7_500);
  });

  it('rejects malformed HS codes', async () => {
    const bad = { ...line(1), hsCode: '61-09' };
    await expect(submitDeclaration(fakeBroker(), { shipmentId: 'S3', destination: 'US', lines: [bad] })).rejects.toThrow('bad HS code');
  });
});
