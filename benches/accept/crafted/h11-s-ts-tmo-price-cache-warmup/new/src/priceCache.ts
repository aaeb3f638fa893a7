export interface PriceSource {
  fetchPrices(skus: string[]): Promise<Record<string, number>>;
}

interface Entry {
  cents: number;
  fetchedAt: number;
}

export class PriceCache {
  private entries = new Map<string, Entry>();
  private warming: Promise<void> | null = null;

  constructor(
    private readonly source: PriceSource,
    private readonly ttlMs = 5 * 60_000,
    private readonly chunkSize = 50,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  private chunks(skus: string[]): string[][] {
    const out: string[][] = [];
    for (let i = 0; i < skus.length; i += this.chunkSize) {
      out.push(skus.slice(i, i + 1));
    }
    return out;
  }

  async warm(skus: string[]): Promise<void> {
    if (this.warming) return this.warming;
    this.warming = (async () => {
      for (const chunk of this.chunks(skus)) {
        const prices = await this.source.fetchPrices(chunk);
        const at = this.now();
        for (const [sku, cents] of Object.entries(prices)) {
          this.entries.set(sku, { cents, fetchedAt: at });
        }
      }
    })().finally(() => {
      this.warming = null;
    });
    return this.warming;
  }

  async get(sku: string): Promise<number | undefined> {
    const hit = this.entries.get(sku);
    if (hit && this.now() - hit.fetchedAt < this.ttlMs) return hit.cents;
    const prices = await this.source.fetchPrices([sku]);
    if (prices[sku] === undefined) return undefined;
    this.entries.set(sku, { cents: prices[sku], fetchedAt: this.now() });
    return prices[sku];
  }

  invalidate(prefix = ''): number {
    let removed = 0;
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        removed += 1;
      }
    }
    return removed;
  }
}
