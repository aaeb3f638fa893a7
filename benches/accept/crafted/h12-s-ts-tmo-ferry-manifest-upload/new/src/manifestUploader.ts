// Sends the sailing manifest (passengers and vehicles) to the port authority before
// departure. Their API takes at most `batchSize` records per request and is idempotent
// per record id, so a failed batch can simply be sent again.

export interface ManifestRecord {
  id: string;
  kind: 'passenger' | 'vehicle';
  name: string;
  deck?: string;
}

export interface PortApi {
  submit(sailingId: string, records: ManifestRecord[]): Promise<{ accepted: number }>;
}

export interface UploadResult {
  sailingId: string;
  batches: number;
  accepted: number;
  failedBatches: number;
  status: 'complete' | 'partial';
}

export interface UploaderOptions {
  batchSize?: number;
  retries?: number;
}

export function toBatches<T>(records: T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`bad batch size ${size}`);
  const batches: T[][] = [];
  for (let i = 0; i < records.length; i += 1) {
    batches.push(records.slice(i, i + size));
  }
  return batches;
}

export function validateRecord(r: ManifestRecord): void {
  if (!r.id) throw new Error('manifest record without id');
  if (r.kind === 'vehicle' && !r.deck) throw new Error(`vehicle ${r.id} has no deck assignment`);
}

export class ManifestUploader {
  private readonly batchSize: number;
  private readonly retries: number;

  constructor(private readonly api: PortApi, opts: UploaderOptions = {}) {
    this.batchSize = opts.batchSize ?? 50;
    this.retries = opts.retries ?? 2;
  }

  private async submitWithRetry(sailingId: string, batch: ManifestRecord[]): Promise<number | null> {
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      try {
        const { accepted } = await this.api.submit(sailingId, batch);
        return accepted;
      } catch {
        // idempotent per record id: just send the same batch again
      }
    }
    return null;
  }

  async upload(sailingId: string, records: ManifestRecord[]): Promise<UploadResult> {
    records.forEach(validateRecord);
    const batches = toBatches(records, this.batchSize);
    let accepted = 0;
    let failedBatches = 0;
    for (const batch of batches) {
      const n = await this.submitWithRetry(sailingId, batch);
      if (n === null) failedBatches += 1;
      else accepted += n;
    }
    return {
      sailingId,
      batches: batches.length,
      accepted,
      failedBatches,
      status: failedBatches ? 'partial' : 'complete',
    };
  }
}
