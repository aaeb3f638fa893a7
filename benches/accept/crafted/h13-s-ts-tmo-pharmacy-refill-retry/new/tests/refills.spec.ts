import { describe, expect, it } from 'vitest';
import { submitRefill, type PharmacyClient } from '../src/refills';
import { backoffDelay } from '../src/retry';

/** A pharmacy that is busy for the first `busy` calls. */
function busyPharmacy(busy: number): PharmacyClient & { calls: number } {
  return {
    calls: 0,
    async submitRefill() {
      this.calls += 1;
      return this.calls <= busy ? { status: 503 } : { status: 201, reference: 'RX-20931' };
    },
  };
}

const request = { prescriptionId: 'p-77', patientId: 'pt-1', quantity: 28 };

describe('backoffDelay', () => {
  it('doubles up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, 10, 50))).toEqual([10, 20, 40, 50, 50]);
  });
});

describe('submitRefill', () => {
  it('retries through a stock sync with a short backoff', async () => {
    const pharmacy = busyPharmacy(4);
    const ref = await submitRefill(pharmacy, request, { attempts: 6, baseDelayMs: 5 });
    expect(ref).toBe('RX-20931');
    expect(pharmacy.calls).toBe(5);
  }, 3000); // real timers: four backoff sleeps

  it('does not retry a rejection', async () => {
    const client: PharmacyClient = { submitRefill: async () => ({ status: 422 }) };
    await expect(submitRefill(client, request, { baseDelayMs: 5 })).rejects.toThrow(/status 422/);
  });

  it('gives up after the last attempt', async () => {
    const pharmacy = busyPharmacy(10);
    await expect(submitRefill(pharmacy, request, { attempts: 2, baseDelayMs: 1 })).rejects.toThrow(/busy/);
    expect(pharmacy.calls).toBe(2);
  });
});
