/**
 * Refill requests from the patient app to the pharmacy system.
 */

import { withRetry, TransientError, type RetryOptions } from './retry';

export interface RefillRequest {
  prescriptionId: string;
  patientId: string;
  quantity: number;
}

export interface PharmacyClient {
  submitRefill(req: RefillRequest): Promise<{ status: number; reference?: string }>;
}

/**
 * Submit a refill and return the pharmacy's reference number.
 * 503 answers are transient (stock sync running); other errors are final.
 */
export async function submitRefill(
  client: PharmacyClient,
  req: RefillRequest,
  retry: RetryOptions = {},
): Promise<string> {
  if (req.quantity <= 0) throw new RangeError('quantity must be positive');
  return withRetry(async () => {
    const res = await client.submitRefill(req);
    if (res.status === 503) throw new TransientError('pharmacy system busy');
    if (res.status !== 201 || !res.reference) {
      throw new Error(`refill rejected with status ${res.status}`);
    }
    return res.reference;
  }, retry);
}
