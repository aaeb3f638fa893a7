// Room-rate quotes for the booking widget. Rates come from the channel manager, which is
// slow and rate-limited, so quotes are cached for a few minutes per search.

export interface QuoteRequest {
  hotelId: string;
  checkIn: string; // YYYY-MM-DD
  nights: number;
  adults: number;
  children?: number;
}

export interface NightlyRate {
  date: string;
  amount: number;
}

export interface Quote {
  hotelId: string;
  checkIn: string;
  nights: number;
  nightly: NightlyRate[];
  taxes: number;
  total: number;
  currency: string;
}

export interface RateSource {
  nightlyRates(hotelId: string, checkIn: string, nights: number, occupancy: number): Promise<NightlyRate[]>;
}

interface Entry {
  quote: Quote;
  expires: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export class QuoteService {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly source: RateSource,
    private readonly opts: { ttlMs?: number; taxRate?: number; currency?: string; now?: () => number } = {},
  ) {}

  private key(req: QuoteRequest): string {
    return `${req.hotelId}|${req.checkIn}`;
  }

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  async quote(req: QuoteRequest): Promise<Quote> {
    if (!Number.isInteger(req.nights) || req.nights < 1 || req.nights > 30) {
      throw new RangeError(`nights must be 1-30, got ${req.nights}`);
    }
    if (req.adults < 1) throw new RangeError('at least one adult is required');

    const key = this.key(req);
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now) return hit.quote;

    const occupancy = req.adults + (req.children ?? 0);
    const nightly = await this.source.nightlyRates(req.hotelId, req.checkIn, req.nights, occupancy);
    if (nightly.length !== req.nights) {
      throw new Error(`channel manager returned ${nightly.length} nights, expected ${req.nights}`);
    }
    const subtotal = nightly.reduce((s, n) => s + n.amount, 0);
    const taxes = round2(subtotal * (this.opts.taxRate ?? 0.12));
    const quote: Quote = {
      hotelId: req.hotelId,
      checkIn: req.checkIn,
      nights: req.nights,
      nightly,
      taxes,
      total: round2(subtotal + taxes),
      currency: this.opts.currency ?? 'EUR',
    };
    this.cache.set(key, { quote, expires: this.now + (this.opts.ttlMs ?? 5 * 60_000) });
    return quote;
  }

  invalidate(hotelId: string): void {
    for (const key of this.cache.keys()) {
      if (key.startsWith(`${hotelId}|`)) this.cache.delete(key);
    }
  }
}
